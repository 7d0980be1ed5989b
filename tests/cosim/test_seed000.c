/* Seed 000's walk-through (paragraphs on Mlow1..3 / Mhigh1..2) on the RTL, pushbuffers built by
 * hand with hostdrv's encoders.
 *
 * Two copy channels on one copy engine's runlist: Clow carries, per copy, "sem acq Shigh 0" (with
 * ACQUIRE_SWITCH, so a failed acquire switches at once) then "mem cpy Mlow_i"; Chigh carries
 * "sem inc Shigh", "mem cpy Mhigh_j", "sem dec Shigh".  Mlow1 is submitted first and starts; the
 * other four are submitted while it copies, as in the text.  Sizes and the time slice follow the
 * text's timing: Mlow copies (6 KiB, ~800 cycles) are long enough for Chigh's "sem inc" to land
 * while Mlow1 copies (its GPFIFO entry and pushbuffer come from sysmem, ~250 cycles); Chigh's slice
 * (3000 cycles) expires during Mhigh1 (40 KiB, ~5200 cycles); Mhigh2 (2 KiB) completes within
 * Chigh's next slice.  Every copy ends with a four-word semaphore release whose 64-bit timestamp
 * gives its completion cycle exactly.
 */
#include "cosim_util.h"
#include "tcase.h"

#define TIMESLICE 3000u
enum { MLOW1, MLOW2, MLOW3, MHIGH1, MHIGH2, NCOPY };
static const char *const names[NCOPY] = {"Mlow1", "Mlow2", "Mlow3", "Mhigh1", "Mhigh2"};
static const uint32_t sizes[NCOPY] = {6144, 6144, 6144, 40960, 2048};

typedef struct walk {
    uint64_t start_cycle[NCOPY], done_cycle[NCOPY]; /* CE0's record of each copy */
    int order[NCOPY];
    uint32_t clow_acq_switches, chigh_slice_switches, shigh_final;
    bool mlow1_running_at_submit;
    size_t bad_bytes;
} walk_t;

static void push_copy(gc_pushbuf_t *pb, gc_buf_t *src, gc_buf_t *dst, gc_buf_t *sems, int k) {
    gc_copy_desc_t d = {.dst = dst->addr + 65536u * (uint32_t)k, .src = src->addr + 65536u * (uint32_t)k,
                        .line_bytes = sizes[k], .line_count = 1, .sem = GC_COPY_SEM_FOUR_WORD,
                        .sem_addr = sems->addr + 16u * (uint32_t)k, .sem_payload = (uint32_t)k + 1};
    gc_pb_copy_desc(pb, 4, &d);
}

static int run_walk(bool priorities, walk_t *w) {
    memset(w, 0, sizeof *w);
    gc_device_t *dev = util_open(NULL);
    if (!dev) return 0;
    int ok = 0;
    gc_channel_config_t cc;
    gc_channel_config_init(&cc);
    cc.runlist = 1; /* both on copy engine 0 */
    cc.timeslice = TIMESLICE;
    gc_channel_t *clow = NULL, *chigh = NULL;
    gc_buf_t src, dst, sems, shigh;
    if (gc_channel_open(dev, &cc, &clow) || gc_channel_open(dev, &cc, &chigh) ||
        gc_mem_alloc(dev, GC_MEM_VIDMEM, 65536u * NCOPY, 4096, &src) ||
        gc_mem_alloc(dev, GC_MEM_VIDMEM, 65536u * NCOPY, 4096, &dst) ||
        gc_mem_alloc(dev, GC_MEM_SYSMEM, 16u * NCOPY, 64, &sems) ||
        gc_mem_alloc(dev, GC_MEM_SYSMEM, 64, 64, &shigh))
        goto out;
    static uint8_t data[65536u * NCOPY], got[65536u * NCOPY];
    gcsc_fill(data, sizeof data, 1234);
    uint8_t zero[128] = {0};
    if (gc_mem_write(dev, src.addr, data, sizeof data) || gc_mem_write(dev, sems.addr, zero, 16u * NCOPY) ||
        gc_mem_write(dev, shigh.addr, zero, 64))
        goto out;

    uint32_t words[64];
    gc_pushbuf_t pb;
    /* Mlow1 first, alone, and let it start */
    for (int k = MLOW1; k < NCOPY; k++) {
        gc_channel_t *ch = k < MHIGH1 ? clow : chigh;
        gc_pb_init(&pb, words, 64);
        if (priorities && ch == clow)
            gc_pb_sem_acquire(&pb, shigh.addr, 0, GC_HOST_SEM_EXECUTE_OPERATION_ACQUIRE, false, true);
        if (priorities && ch == chigh)
            gc_pb_sem_reduce(&pb, shigh.addr, 0xFFFFFFFFu, GC_HOST_SEM_EXECUTE_REDUCTION_INC, false, false);
        push_copy(&pb, &src, &dst, &sems, k);
        if (priorities && ch == chigh)
            gc_pb_sem_reduce(&pb, shigh.addr, 0xFFFFFFFFu, GC_HOST_SEM_EXECUTE_REDUCTION_DEC, false, false);
        if (gc_channel_submit(ch, &pb)) goto out;
        if (k == MLOW1) { /* run until copy engine 0 is copying Mlow1 */
            uint32_t dbg = 0;
            for (int i = 0; i < 2000 && GC_ENGINE_DBG_STATE_GET(dbg) != GC_CE_STATE_COPY; i++)
                if (gc_device_run(dev, 1) || gc_mmio_read(dev, GC_REG_ENGINE_DBG(0), &dbg)) goto out;
            if (GC_ENGINE_DBG_STATE_GET(dbg) != GC_CE_STATE_COPY) {
                fprintf(stderr, "Mlow1 never started\n");
                goto out;
            }
        }
    }
    uint32_t dbg = 0, sem0 = 0;
    if (gc_mmio_read(dev, GC_REG_ENGINE_DBG(0), &dbg) || gc_mem_read(dev, sems.addr, &sem0, 4)) goto out;
    w->mlow1_running_at_submit = GC_ENGINE_DBG_STATE_GET(dbg) == GC_CE_STATE_COPY && sem0 == 0;
    if (gc_channel_wait_idle(clow) || gc_channel_wait_idle(chigh)) goto out;

    for (int k = 0; k < NCOPY; k++) {
        uint32_t rec[4];
        if (gc_mem_read(dev, sems.addr + 16u * (uint32_t)k, rec, 16)) goto out;
        gc_copy_record_t r = gc_copy_record(rec);
        if (r.payload != (uint32_t)k + 1 || r.start >= r.end) {
            fprintf(stderr, "%s: release record payload %u, start %llu, end %llu: expected payload %u, start < end\n",
                    names[k], r.payload, (unsigned long long)r.start, (unsigned long long)r.end, k + 1);
            goto out;
        }
        w->start_cycle[k] = r.start;
        w->done_cycle[k] = r.end;
        w->order[k] = k;
        if (gc_mem_read(dev, dst.addr + 65536u * (uint32_t)k, got, sizes[k])) goto out;
        w->bad_bytes += util_diff(names[k], data + 65536u * (uint32_t)k, got, sizes[k]);
    }
    for (int i = 0; i < NCOPY; i++) /* sort by completion cycle */
        for (int j = i + 1; j < NCOPY; j++)
            if (w->done_cycle[w->order[j]] < w->done_cycle[w->order[i]]) {
                int t = w->order[i];
                w->order[i] = w->order[j];
                w->order[j] = t;
            }
    for (int i = 1; i < NCOPY; i++) /* one copy engine: each copy taken after the one before ended */
        if (w->start_cycle[w->order[i]] <= w->done_cycle[w->order[i - 1]]) {
            fprintf(stderr, "%s started at %llu, before %s ended at %llu\n", names[w->order[i]],
                    (unsigned long long)w->start_cycle[w->order[i]], names[w->order[i - 1]],
                    (unsigned long long)w->done_cycle[w->order[i - 1]]);
            goto out;
        }
    if (gc_mmio_read(dev, GC_REG_CHANNEL_SWITCH_ACQUIRE(gc_channel_id(clow)), &w->clow_acq_switches) ||
        gc_mmio_read(dev, GC_REG_CHANNEL_SWITCH_TIMESLICE(gc_channel_id(chigh)), &w->chigh_slice_switches) ||
        gc_mem_read(dev, shigh.addr, &w->shigh_final, 4))
        goto out;
    fprintf(stderr, "%s:", priorities ? "with copy priorities" : "baseline");
    for (int i = 0; i < NCOPY; i++)
        fprintf(stderr, " %s@%llu", names[w->order[i]], (unsigned long long)w->done_cycle[w->order[i]]);
    fprintf(stderr, "; Clow acquire switches %u, Chigh time-slice switches %u\n", w->clow_acq_switches,
            w->chigh_slice_switches);
    ok = 1;
out:
    if (!ok) fprintf(stderr, "walk-through stopped: %s\n", gc_device_last_error(dev));
    gc_device_close(dev);
    return ok;
}

static void t_priority_order(void) {
    walk_t w;
    REQUIRE(run_walk(true, &w));
    CHECK(w.mlow1_running_at_submit);
    static const int want[NCOPY] = {MLOW1, MHIGH1, MHIGH2, MLOW2, MLOW3};
    for (int i = 0; i < NCOPY; i++) {
        if (w.order[i] != want[i]) TCASE_FAIL_("completion %d is %s, the text has %s", i + 1, names[w.order[i]], names[want[i]]);
    }
    CHECK_EQ(w.bad_bytes, 0);
    CHECK_EQ(w.shigh_final, 0);           /* every inc matched by its dec */
    CHECK(w.clow_acq_switches >= 2);      /* Clow suspended after Mlow1, and again after Mhigh1 */
    CHECK(w.chigh_slice_switches >= 1);   /* Chigh's slice expired during Mhigh1 */
}

static void t_baseline_issue_order(void) {
    walk_t w;
    REQUIRE(run_walk(false, &w));
    CHECK(w.mlow1_running_at_submit);
    for (int i = 0; i < NCOPY; i++)
        if (w.order[i] != i) TCASE_FAIL_("completion %d is %s, issue order has %s", i + 1, names[w.order[i]], names[i]);
    CHECK_EQ(w.bad_bytes, 0);
    CHECK_EQ(w.clow_acq_switches, 0);
}

static const tcase_t cases[] = {
    {"seed000_priority_order", t_priority_order},
    {"seed000_baseline_issue_order", t_baseline_issue_order},
};
TCASE_MAIN(cases)
