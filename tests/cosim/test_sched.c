/* The host scheduler (rtl/gc_pbdma.sv "scheduler", cosim/ref/ref_pbdma.c) through the driver, on
 * whatever backend GPUCOSIM_BACKEND names, asserted from the channels' MMIO counters:
 *
 *   - forward progress: at a time slice shorter than the memory latency every channel completes
 *     its work, and every TIMESLICE switch follows a method the channel completed in that
 *     residency (SWITCH_TIMESLICE <= METHODS);
 *   - round robin: several channels with long pushbuffers all get the PBDMA while all have work,
 *     in about equal shares (a pick that never leaves the current channel starves the others);
 *   - the slice: a channel is switched away for TIMESLICE only after a whole slice of residency
 *     (SWITCH_TIMESLICE <= CYCLES_RESIDENT / TIMESLICE: a slice not renewed at selection would
 *     switch at every method), and alone its slice is renewed silently (no switch at all);
 *   - interleave levels: LOW, MEDIUM and HIGH channels with long pushbuffers get 1, 2 and 3 slices
 *     per round-robin cycle (CYCLES_RESIDENT 1 : 2 : 3) and are switched away 1, 2 and 2 times
 *     per cycle (HIGH's second and third turns follow each other: its slice is renewed in place);
 *   - GP_GET after ring wraps: small rings, many entries from several channels switching at short
 *     slices; GP_GET trails the entries' own releases by at most the entry in progress whenever
 *     the device is stopped, and ends exactly at the number of entries modulo the ring size.
 */
#include "cosim_util.h"
#include "tcase.h"

#define NCH 3
#define RELEASES 400 /* timestamped releases per channel, one GPFIFO entry */

static uint32_t rd(gc_device_t *dev, uint32_t off) {
    uint32_t v = 0;
    if (gc_mmio_read(dev, off, &v) != GC_OK) fprintf(stderr, "mmio read 0x%x failed\n", off);
    return v;
}

/* `n` timestamped releases (payload k + 1 at slots + 16 k) in one entry: a channel busy for many slices. */
static gc_status_t submit_releases(gc_channel_t *ch, uint64_t slots, int n) {
    static uint32_t w[8 * RELEASES];
    gc_pushbuf_t pb;
    gc_pb_init(&pb, w, 8 * RELEASES);
    for (int k = 0; k < n; k++) gc_pb_sem_release_ts(&pb, slots + 16u * (uint32_t)k, (uint32_t)k + 1, false, false);
    return gc_channel_submit(ch, &pb);
}

typedef struct counters {
    uint32_t methods, resident, sw_ts, sw_empty;
} counters_t;

static counters_t counters(gc_device_t *dev, gc_channel_t *ch) {
    uint32_t id = gc_channel_id(ch);
    counters_t c = {rd(dev, GC_REG_CHANNEL_METHODS(id)), rd(dev, GC_REG_CHANNEL_CYCLES_RESIDENT(id)),
                    rd(dev, GC_REG_CHANNEL_SWITCH_TIMESLICE(id)), rd(dev, GC_REG_CHANNEL_SWITCH_EMPTY(id))};
    return c;
}

/* Every release of every channel landed with its payload. */
static void check_releases(gc_device_t *dev, const gc_buf_t *slots, int n) {
    static uint32_t rec[NCH * RELEASES * 4];
    REQUIRE_OK(dev, gc_mem_read(dev, slots->addr, rec, sizeof(uint32_t) * 4u * NCH * (uint32_t)n));
    size_t bad = 0;
    for (int c = 0; c < NCH; c++)
        for (int k = 0; k < n; k++) bad += rec[4 * (c * n + k)] != (uint32_t)k + 1;
    CHECK_EQ(bad, 0);
}

/* Slices of 1..100 cycles, shorter than one pushbuffer fetch from sysmem (~100 cycles): with the
 * old rule (a switch threw away the fetch in flight) no channel ever completed a method. */
static void t_forward_progress(void) {
    static const uint32_t slices[] = {1, 2, 10, 100};
    enum { N = 60 };
    for (size_t s = 0; s < sizeof slices / sizeof slices[0]; s++) {
        gc_device_t *dev = util_open(NULL);
        REQUIRE(dev);
        gc_channel_t *ch[NCH];
        for (int c = 0; c < NCH; c++) REQUIRE((ch[c] = util_open_channel(dev, 1, slices[s], 0)));
        gc_buf_t slots;
        REQUIRE_OK(dev, gc_mem_alloc(dev, GC_MEM_VIDMEM, 16u * NCH * N, 64, &slots));
        static const uint8_t zero[16 * NCH * N];
        REQUIRE_OK(dev, gc_mem_write(dev, slots.addr, zero, sizeof zero));
        counters_t c0[NCH];
        for (int c = 0; c < NCH; c++) c0[c] = counters(dev, ch[c]);
        uint64_t t0 = gc_device_cycles(dev);
        for (int c = 0; c < NCH; c++) REQUIRE_OK(dev, submit_releases(ch[c], slots.addr + 16u * N * (uint32_t)c, N));
        for (int c = 0; c < NCH; c++) REQUIRE_OK(dev, gc_channel_wait_idle(ch[c]));
        for (int c = 0; c < NCH; c++) REQUIRE_OK(dev, util_wait_left(dev, gc_channel_id(ch[c]), 100000));
        check_releases(dev, &slots, N);
        for (int c = 0; c < NCH; c++) {
            counters_t d = counters(dev, ch[c]);
            uint32_t m = d.methods - c0[c].methods, ts = d.sw_ts - c0[c].sw_ts;
            fprintf(stderr, "slice %3u: channel %u: %u methods, %u time-slice switches, %u cycles resident\n",
                    slices[s], gc_channel_id(ch[c]), m, ts, d.resident - c0[c].resident);
            CHECK(m >= 5u * N); /* N releases of 5 methods each, then wait_idle's fence */
            CHECK(ts <= m);  /* each TIMESLICE switch follows a method of that residency */
            CHECK(ts >= 10); /* and the channels did take turns */
        }
        fprintf(stderr, "slice %3u: %llu cycles\n", slices[s], (unsigned long long)(gc_device_cycles(dev) - t0));
        gc_device_close(dev);
    }
}

/* Run until channel `id` has taken every entry (GP_GET == GP_PUT) and left the PBDMA. */
static gc_status_t wait_drained(gc_device_t *dev, uint32_t id) {
    for (uint32_t t = 0; t < 20000; t++) {
        if (rd(dev, GC_REG_CHANNEL_GP_GET(id)) == rd(dev, GC_REG_CHANNEL_GP_PUT(id)))
            return util_wait_left(dev, id, 100000);
        gc_status_t s = gc_device_run(dev, 10);
        if (s != GC_OK) return s;
    }
    return GC_ERR_TIMEOUT;
}

/* Round robin and the slice, while every channel has work. */
static void t_round_robin_slices(void) {
    enum { SLICE = 300, WINDOW = 20000 };
    gc_device_t *dev = util_open(NULL);
    REQUIRE(dev);
    gc_channel_t *ch[NCH];
    for (int c = 0; c < NCH; c++) REQUIRE((ch[c] = util_open_channel(dev, 1, SLICE, 0)));
    gc_buf_t slots;
    REQUIRE_OK(dev, gc_mem_alloc(dev, GC_MEM_VIDMEM, 16u * NCH * RELEASES, 64, &slots));
    static const uint8_t zero[16 * NCH * RELEASES];
    REQUIRE_OK(dev, gc_mem_write(dev, slots.addr, zero, sizeof zero));
    /* no channel resident when the window starts (see t_interleave_levels) */
    for (int c = 0; c < NCH; c++) REQUIRE_OK(dev, wait_drained(dev, gc_channel_id(ch[c])));
    counters_t c0[NCH], c1[NCH];
    for (int c = 0; c < NCH; c++) c0[c] = counters(dev, ch[c]);
    for (int c = 0; c < NCH; c++)
        REQUIRE_OK(dev, submit_releases(ch[c], slots.addr + 16u * RELEASES * (uint32_t)c, RELEASES));
    REQUIRE_OK(dev, gc_device_run(dev, WINDOW));
    uint32_t res[NCH], lo = 0xFFFFFFFFu, hi = 0;
    for (int c = 0; c < NCH; c++) {
        c1[c] = counters(dev, ch[c]);
        /* the window ends before any channel's work: 2000 release round trips do not fit in it */
        uint32_t st = rd(dev, GC_REG_CHANNEL_STATUS(gc_channel_id(ch[c])));
        REQUIRE_EQ(GC_CHANNEL_STATUS_PENDING_GET(st), 1);
        res[c] = c1[c].resident - c0[c].resident;
        uint32_t ts = c1[c].sw_ts - c0[c].sw_ts;
        fprintf(stderr, "channel %u: %u cycles resident, %u methods, %u time-slice switches in %u cycles\n",
                gc_channel_id(ch[c]), res[c], c1[c].methods - c0[c].methods, ts, WINDOW);
        CHECK(c1[c].methods > c0[c].methods); /* round robin left the first channel */
        CHECK(ts >= 2);                       /* and came back */
        CHECK(ts <= res[c] / SLICE);          /* a switch only after a whole slice resident */
        CHECK_EQ(c1[c].sw_empty, c0[c].sw_empty);
        if (res[c] < lo) lo = res[c];
        if (res[c] > hi) hi = res[c];
    }
    /* equal levels, equal work: equal shares, up to one method's overrun per slice */
    CHECK(lo * 2 > hi);
    for (int c = 0; c < NCH; c++) REQUIRE_OK(dev, gc_channel_wait_idle(ch[c]));
    check_releases(dev, &slots, RELEASES);
    gc_device_close(dev);
}

/* Alone, a channel's slice is renewed silently: it is never switched away for TIMESLICE. */
static void t_alone_renewed(void) {
    gc_device_t *dev = util_open(NULL);
    REQUIRE(dev);
    gc_channel_t *ch = util_open_channel(dev, 1, 50, 0);
    REQUIRE(ch);
    gc_buf_t slots;
    REQUIRE_OK(dev, gc_mem_alloc(dev, GC_MEM_VIDMEM, 16u * RELEASES, 64, &slots));
    static const uint8_t zero[16 * RELEASES];
    REQUIRE_OK(dev, gc_mem_write(dev, slots.addr, zero, sizeof zero));
    counters_t c0 = counters(dev, ch);
    REQUIRE_OK(dev, submit_releases(ch, slots.addr, 100));
    REQUIRE_OK(dev, gc_channel_wait_idle(ch));
    REQUIRE_OK(dev, util_wait_left(dev, gc_channel_id(ch), 100000));
    counters_t c1 = counters(dev, ch);
    fprintf(stderr, "alone: %u cycles resident with a 50-cycle slice, %u time-slice switches\n",
            c1.resident - c0.resident, c1.sw_ts - c0.sw_ts);
    CHECK(c1.resident - c0.resident > 10u * 50u); /* many slices long */
    CHECK_EQ(c1.sw_ts, c0.sw_ts);
    CHECK(c1.methods - c0.methods >= 5u * 100u);
    gc_device_close(dev);
}

/* |a - b| <= tol */
static int near(uint32_t a, uint32_t b, uint32_t tol) { return a <= b + tol && b <= a + tol; }

/* Interleave levels: one LOW, one MEDIUM and one HIGH channel, each with a pushbuffer longer than
 * the window, equal slices. Per round-robin cycle (rounds 0, 1, 2: LOW M H, M H, H) LOW gets one
 * slice, MEDIUM two, HIGH three; the window holds many cycles, its two ends cut at most one
 * cycle short. A pick that never leaves the current channel, or a slice never renewed at
 * selection, breaks both the shares and the switch counts. */
static void t_interleave_levels(void) {
    enum { SLICE = 500, WINDOW = 36000 };
    static const uint32_t lvl[NCH] = {GC_CHANNEL_INTERLEAVE_LEVEL_LOW, GC_CHANNEL_INTERLEAVE_LEVEL_MEDIUM,
                                      GC_CHANNEL_INTERLEAVE_LEVEL_HIGH};
    gc_device_t *dev = util_open(NULL);
    REQUIRE(dev);
    gc_channel_t *ch[NCH];
    for (int c = 0; c < NCH; c++) {
        gc_channel_config_t cc;
        gc_channel_config_init(&cc);
        cc.runlist = 1;
        cc.timeslice = SLICE;
        cc.interleave = lvl[c];
        REQUIRE_OK(dev, gc_channel_open(dev, &cc, &ch[c]));
    }
    gc_buf_t slots;
    REQUIRE_OK(dev, gc_mem_alloc(dev, GC_MEM_VIDMEM, 16u * NCH * RELEASES, 64, &slots));
    static const uint8_t zero[16 * NCH * RELEASES];
    REQUIRE_OK(dev, gc_mem_write(dev, slots.addr, zero, sizeof zero));
    /* The window starts with no channel resident: the open's own entry (SET_OBJECT) made each
     * channel resident, and a slice begun before the first counter read would lie partly outside
     * the window (its switch counted, its residency not all) */
    for (int c = 0; c < NCH; c++) REQUIRE_OK(dev, wait_drained(dev, gc_channel_id(ch[c])));
    counters_t c0[NCH], c1[NCH];
    for (int c = 0; c < NCH; c++) c0[c] = counters(dev, ch[c]);
    for (int c = 0; c < NCH; c++)
        REQUIRE_OK(dev, submit_releases(ch[c], slots.addr + 16u * RELEASES * (uint32_t)c, RELEASES));
    REQUIRE_OK(dev, gc_device_run(dev, WINDOW));
    uint32_t res[NCH], sw[NCH];
    for (int c = 0; c < NCH; c++) {
        c1[c] = counters(dev, ch[c]);
        uint32_t st = rd(dev, GC_REG_CHANNEL_STATUS(gc_channel_id(ch[c])));
        CHECK_EQ(GC_CHANNEL_STATUS_PENDING_GET(st), 1); /* every channel had work all along */
        res[c] = c1[c].resident - c0[c].resident;
        sw[c] = c1[c].sw_ts - c0[c].sw_ts;
        fprintf(stderr, "level %u (channel %u): %u cycles resident, %u methods, %u time-slice switches\n", lvl[c],
                gc_channel_id(ch[c]), res[c], c1[c].methods - c0[c].methods, sw[c]);
        CHECK_EQ(c1[c].sw_empty, c0[c].sw_empty);
        CHECK(sw[c] <= res[c] / SLICE); /* a switch only after a whole slice resident */
    }
    /* the cycles: WINDOW / (6 slices + overruns) >= 8 */
    CHECK(sw[0] >= 8);
    CHECK(near(sw[1], 2 * sw[0], 2));
    CHECK(near(sw[2], 2 * sw[0], 2));
    /* residency 1 : 2 : 3, within one cycle's share at either end of the window */
    uint32_t unit = res[0] / sw[0]; /* LOW's residency per cycle */
    fprintf(stderr, "LOW resident %u cycles per round-robin cycle\n", unit);
    CHECK(near(res[1], 2 * res[0], 2 * unit));
    /* HIGH runs two of its three slices per cycle back to back (rounds 1 and 2), so it has one
     * slice overrun fewer per cycle than three LOW slices: add LOW's overruns back (its residency
     * beyond whole slices). Memory stalls make overruns long. The window's ends cut up to one
     * cycle's share of HIGH (3 units) and may hold one LOW slice more: 4 units. */
    uint32_t over = res[0] > sw[0] * SLICE ? res[0] - sw[0] * SLICE : 0;
    CHECK(near(res[2] + over, 3 * res[0], 4 * unit));
    CHECK(res[0] < res[1] && res[1] < res[2]);
    for (int c = 0; c < NCH; c++) REQUIRE_OK(dev, gc_channel_wait_idle(ch[c]));
    check_releases(dev, &slots, RELEASES);
    gc_device_close(dev);
}

/* GP_GET exactly, across ring wraps: NCH channels with 4-entry rings at a 40-cycle slice (entries
 * are left mid-way and resumed), ENTRIES entries each of PER releases, the last of which writes
 * the entry's sequence number to the channel's progress word. Whenever the device stands still
 * GP_GET (over MMIO) is the number of entries whose release landed, or one less (the entry whose
 * last release just landed has not been retired yet), modulo 4; in the end exactly ENTRIES mod 4
 * beyond where it started, equal to GP_PUT. */
static void t_gp_get_wraps(void) {
    enum { LOG2 = 2, RING = 1 << LOG2, ENTRIES = 23, PER = 6, SLICE = 40 };
    gc_device_t *dev = util_open(NULL);
    REQUIRE(dev);
    gc_channel_t *ch[NCH];
    uint32_t id[NCH], g0[NCH];
    for (int c = 0; c < NCH; c++) {
        gc_channel_config_t cc;
        gc_channel_config_init(&cc);
        cc.runlist = 1;
        cc.timeslice = SLICE;
        cc.log2_entries = LOG2;
        REQUIRE_OK(dev, gc_channel_open(dev, &cc, &ch[c]));
        id[c] = gc_channel_id(ch[c]);
    }
    for (int c = 0; c < NCH; c++) { /* the open's own entry (SET_OBJECT) first */
        REQUIRE_OK(dev, wait_drained(dev, id[c]));
        g0[c] = rd(dev, GC_REG_CHANNEL_GP_GET(id[c]));
    }
    gc_buf_t prog;
    REQUIRE_OK(dev, gc_mem_alloc(dev, GC_MEM_VIDMEM, 64u * NCH, 64, &prog));
    static const uint8_t zero[64 * NCH];
    REQUIRE_OK(dev, gc_mem_write(dev, prog.addr, zero, sizeof zero));
    uint32_t checks = 0, behind = 0;
    for (int e = 0; e < ENTRIES; e++) {
        for (int c = 0; c < NCH; c++) {
            uint32_t w[8 * PER];
            gc_pushbuf_t pb;
            gc_pb_init(&pb, w, 8 * PER);
            uint64_t word = prog.addr + 64u * (uint32_t)c;
            for (int k = 0; k < PER; k++) gc_pb_sem_release(&pb, word + (k + 1 < PER ? 8u : 0u), (uint32_t)e + 1, false, false);
            REQUIRE_OK(dev, gc_channel_submit(ch[c], &pb)); /* waits for ring space */
        }
        /* the device stands still between these reads: GP_GET against the entries' releases */
        for (int c = 0; c < NCH; c++) {
            uint32_t done = 0;
            REQUIRE_OK(dev, gc_mem_read(dev, prog.addr + 64u * (uint32_t)c, &done, sizeof done));
            uint32_t g = (rd(dev, GC_REG_CHANNEL_GP_GET(id[c])) - g0[c]) & (RING - 1);
            uint32_t want = done & (RING - 1), prev = (done - 1u) & (RING - 1);
            if (g != want) behind++;
            if (g != want && !(done > 0 && g == prev))
                fprintf(stderr, "entry %d channel %u: GP_GET %u, %u entries released\n", e, id[c], g, done);
            CHECK(g == want || (done > 0 && g == prev));
            checks++;
        }
        REQUIRE_OK(dev, gc_device_run(dev, 37u * (uint32_t)(e % 5)));
    }
    for (int c = 0; c < NCH; c++) {
        REQUIRE_OK(dev, wait_drained(dev, id[c]));
        uint32_t done = 0;
        REQUIRE_OK(dev, gc_mem_read(dev, prog.addr + 64u * (uint32_t)c, &done, sizeof done));
        CHECK_EQ(done, ENTRIES);
        uint32_t g = rd(dev, GC_REG_CHANNEL_GP_GET(id[c])), p = rd(dev, GC_REG_CHANNEL_GP_PUT(id[c]));
        fprintf(stderr, "channel %u: GP_GET %u -> %u after %d entries through a %d-entry ring\n", id[c], g0[c], g,
                ENTRIES, RING);
        CHECK_EQ(g, (g0[c] + ENTRIES) % RING);
        CHECK_EQ(g, p);
        uint32_t tmp = 0;
        REQUIRE_OK(dev, gc_channel_gp_get(ch[c], &tmp));
        CHECK_EQ(tmp, g);
    }
    fprintf(stderr, "%u GP_GET checks while running, %u with the last entry not yet retired\n", checks, behind);
    gc_device_close(dev);
}

static const tcase_t cases[] = {
    {"sched_forward_progress", t_forward_progress},
    {"sched_round_robin_slices", t_round_robin_slices},
    {"sched_alone_renewed", t_alone_renewed},
    {"sched_interleave_levels", t_interleave_levels},
    {"sched_gp_get_wraps", t_gp_get_wraps},
};
TCASE_MAIN(cases)
