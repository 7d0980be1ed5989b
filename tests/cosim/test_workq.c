/* GPU-owned work queues (issue 16, seed 002) on whatever backend GPUCOSIM_BACKEND names (the
 * driver suite runs it on rtl, ref and sc):
 *   - set-up: X = Y = 0, GP_GET 0, GP_PUT = wrap(-1, n), soft / shadow GP_PUT, for a power-of-two
 *     ring and another; bad configurations refused with a message;
 *   - the two hardware rules the protocol relies on: a GPFIFO entry is read only after the one
 *     before completed (an ILLEGAL entry behind a blocked gate is never read; once the gate opens
 *     it is, and faults), and a release written by a SIMT AMO or by the device API's plain store
 *     wakes the blocked channel long before the retry interval (set to 10^6 cycles);
 *   - stress: 96 producer threads reserving random N with random delays before releasing, on rings
 *     of 512 and 400 entries, two requests each (the queue re-armed between them): every item ran
 *     exactly once (payloads, an IADD count), in entry order (stamps), never before its thread
 *     released it (gate stamps after the release), the CPU wrote GP_PUT only at set-up and once per
 *     request;
 *   - a queue that fills: FULL returned, nothing lost, the queue handed back, the next request runs;
 *   - a thread that reserves and faults before releasing: the wait reports the blocked entry and its
 *     semaphore (and so does the whole-run watchdog when nobody closes the queue).
 * Skipped on a backend without a compute engine. */
#include <string.h>
#include <unistd.h>

#include "gc_workq.h"
#include "gc_workq_kernels.h"
#include "cosim_util.h"
#include "gpucosim/compute.h"
#include "gpucosim/runtime.h"
#include "scen_workqueue.h"
#include "gpucosim/workq.h"
#include "rt_test.h"
#include "tcase.h"

#ifndef GC_FIRMWARE_DIR
#define GC_FIRMWARE_DIR "build/firmware"
#endif
#define IMAGE GC_FIRMWARE_DIR "/kernels.elf"

typedef struct env {
    gcrt_t *rt;
    gc_elf_t *img;
    gcrt_workq_t *w;
    gc_device_t *dev;
} env_t;

/* Open a runtime, the kernels and a workq; false with *skip when the backend has no compute engine. */
static bool env_open(env_t *e, uint64_t max_cycles, bool *skip) {
    memset(e, 0, sizeof *e);
    *skip = false;
    gcrt_config_t cfg;
    gcrt_config_init(&cfg);
    cfg.device.quiet = true;
    cfg.device.max_cycles = max_cycles;
    if (gcrt_open(&cfg, &e->rt)) return false;
    uint32_t hw;
    gcrt_error_t er = gcrt_compute_channel(e->rt, &hw);
    if (er == GCRT_ERROR_NOT_SUPPORTED) *skip = true;
    if (er || gcrt_load_image(e->rt, IMAGE, &e->img)) {
        fprintf(stderr, "%s\n", gcrt_last_message(e->rt));
        return false;
    }
    e->dev = gcrt_device(e->rt);
    return gcrt_workq_open(e->rt, &e->w) == GCRT_SUCCESS;
}

static void env_close(env_t *e) {
    gcrt_workq_close(e->w);
    if (e->img) gcrt_unload_image(e->rt, e->img);
    if (e->rt) gcrt_close(e->rt);
}

#define ENV_OPEN(e, maxc)                                                                       \
    do {                                                                                        \
        bool skip_;                                                                             \
        if (!env_open(&(e), (maxc), &skip_)) {                                                  \
            env_close(&(e));                                                                    \
            if (skip_) TCASE_SKIP("the backend has no compute engine");                         \
            TCASE_FAIL_("could not open the runtime, load %s and open the workq", IMAGE);       \
            return;                                                                             \
        }                                                                                       \
    } while (0)

#define WQ_OK(e, expr)                                                                          \
    do {                                                                                        \
        gcrt_error_t e_ = (expr);                                                               \
        if (e_ != GCRT_SUCCESS) {                                                               \
            TCASE_FAIL_("%s: %s (%s)", #expr, gcrt_error_name(e_), gcrt_workq_message((e).w));  \
            goto out;                                                                           \
        }                                                                                       \
    } while (0)

static gcrt_wq_t *mkq(env_t *e, uint32_t n, uint32_t runlist) {
    gcrt_wq_config_t c;
    gcrt_wq_config_init(&c);
    c.entries = n;
    c.runlist = runlist;
    gcrt_wq_t *q = NULL;
    if (gcrt_wq_create(e->w, &c, &q) != GCRT_SUCCESS) TCASE_FAIL_("gcrt_wq_create: %s", gcrt_workq_message(e->w));
    return q;
}

/* The ref model interprets a CTA whole when it is dispatched (cosim/ref/ref_compute.c): its
 * memory effects, in program order, land then, ahead of the cycles its threads read (modelled
 * time).  Comparisons of a thread's CYCLE with a PBDMA stamp hold on rtl and sc only. */
static bool is_ref(const env_t *e) {
    const char *b = gc_device_config(e->dev)->backend;
    return b && !strcmp(b, "ref");
}

/* A compute queue of n entries and `bytes` (<= 1024) of zeroed vidmem at *mem; NULL (reported) on failure. */
static gcrt_wq_t *mkq_mem(env_t *e, uint32_t n, uint32_t bytes, uint64_t *mem) {
    static const uint8_t zero[1024];
    gcrt_wq_t *q = mkq(e, n, 0);
    if (q && (gcrt_malloc(e->rt, mem, bytes) != GCRT_SUCCESS || gcrt_write(e->rt, *mem, zero, bytes) != GCRT_SUCCESS)) {
        TCASE_FAIL_("buffer: %s", gcrt_last_message(e->rt));
        return NULL;
    }
    return q;
}

static uint64_t dev_of(uint32_t thread_addr) {
    uint64_t d = 0;
    gc_simt_to_device(thread_addr, &d);
    return d;
}

static bool ctrl(env_t *e, gcrt_wq_t *q, gc_wq_t *c) {
    return gc_mem_read(e->dev, dev_of(gcrt_wq_ptr(q)), c, sizeof *c) == GC_OK;
}

/* ------------------------------------------------------------------ set-up */
static void t_setup(void) {
    env_t e;
    ENV_OPEN(e, 0);
    static const uint32_t sizes[] = {8, 6, 4, 32768};
    for (size_t i = 0; i < 4; i++) {
        uint32_t n = sizes[i];
        gcrt_wq_t *q = mkq(&e, n, i & 1 ? 1 : 0);
        if (!q) goto out;
        REQUIRE_OK(e.dev, gc_device_run(e.dev, 3000)); /* every channel of its runlist had a turn */
        gcrt_wq_info_t in;
        WQ_OK(e, gcrt_wq_info(q, &in));
        uint32_t hw = 1;
        while (hw < n) hw <<= 1;
        CHECK_EQ(in.hw_entries, hw);
        CHECK_EQ(in.x, 0);
        CHECK_EQ(in.y, 0);
        CHECK_EQ(in.gp_get, 0);               /* blocked in the arming entry, on X */
        CHECK_EQ(in.gp_put, gc_wrap(-1, n));  /* wrap(GP_GET - 1, n) */
        CHECK_EQ(in.soft_put, 1);             /* the entry after GP_GET */
        CHECK_EQ(in.shadow_put, n - 1);       /* GP_PUT as a position */
        CHECK_EQ(in.gp_put_writes, 1);
        gc_wq_t c;
        REQUIRE(ctrl(&e, q, &c));
        CHECK_EQ(c.entries, n);
        CHECK_EQ(c.log2, (n & (n - 1)) ? GC_WQ_NOT_POW2 : (uint32_t)__builtin_ctz(n));
        char d[400];
        CHECK(gcrt_wq_diagnose(q, d, sizeof d) > 0 && strstr(d, "semaphore X"));
        fprintf(stderr, "n %u: %s\n", n, d);
    }
    /* bad configurations: one line naming what was wrong */
    static const struct { uint32_t n, rl, bd; const char *word; } bad[] = {
        {3, 0, 64, "entries"}, {32769, 0, 64, "entries"}, {0, 0, 64, "entries"}, {8, 3, 64, "runlist"},
        {8, 0, 16, "dwords"}, {8, 0, 48, "dwords"}, {8, 0, 2048, "dwords"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        gcrt_wq_config_t c;
        gcrt_wq_config_init(&c);
        c.entries = bad[i].n;
        c.runlist = bad[i].rl;
        c.block_dwords = bad[i].bd;
        gcrt_wq_t *q = (gcrt_wq_t *)&c;
        CHECK_EQ(gcrt_wq_create(e.w, &c, &q), GCRT_ERROR_INVALID_VALUE);
        CHECK(q == NULL);
        CHECK(strstr(gcrt_workq_message(e.w), bad[i].word) != NULL);
        fprintf(stderr, "refused: %s\n", gcrt_workq_message(e.w));
    }
out:
    env_close(&e);
}

/* ------------------------------------------------------------------ hardware rule 1 */
/* Entry 1 of a queue holds an ILLEGAL control entry while the PBDMA is blocked in entry 0's gate
 * (S[0]).  Not executed: no fault for 5000 cycles (the lookahead may have read it).  Then (a) entry
 * 1 rewritten to a valid block *through the device*, as a thread writes it (the copy engine: a
 * write on the bus, snooped), and S[0] released: the new entry runs, not the one read ahead; (b) on
 * a second queue left ILLEGAL and released: the channel faults INVALID_GPFIFO_ENTRY at GP_GET 1
 * (the probe does see a read). */
static void t_gpfifo_order(void) {
    env_t e;
    ENV_OPEN(e, 0);
    for (int variant = 0; variant < 2; variant++) {
        gcrt_wq_t *q = mkq(&e, 8, variant ? 1 : 0);
        if (!q) goto out;
        gc_wq_t c;
        REQUIRE(ctrl(&e, q, &c));
        uint64_t ring = dev_of(c.ring), blk1 = dev_of(c.blocks) + c.block_dwords * 4u, x = dev_of(c.x_sem);
        uint64_t rec = dev_of(c.blocks) + 7u * c.block_dwords * 4u; /* block 7: a record slot */
        uint32_t ill[2] = {0, GC_GP_ENTRY1_OPCODE(GC_GP_ENTRY1_OPCODE_ILLEGAL)}, one = 1;
        REQUIRE_OK(e.dev, gc_mem_write(e.dev, ring + 8, ill, sizeof ill));
        REQUIRE_OK(e.dev, gc_mem_write(e.dev, x, &one, 4)); /* open: X == 1 */
        REQUIRE_OK(e.dev, gc_device_run(e.dev, 5000));
        gcrt_wq_info_t in;
        WQ_OK(e, gcrt_wq_info(q, &in));
        CHECK_EQ(in.gp_get, 0); /* in entry 0, at the gate */
        char d[400];
        CHECK(gcrt_wq_diagnose(q, d, sizeof d) > 0 && strstr(d, "S[0]"));
        if (!variant) {
            uint32_t w[16];
            gc_pushbuf_t pb;
            gc_pb_init(&pb, w, 16);
            gc_pb_sem_release(&pb, rec, 0xABCD, false, false);
            REQUIRE_OK(e.dev, util_ce_write(e.dev, blk1, w, pb.len * 4u));
            uint32_t ent[2] = {GC_GP_ENTRY0_GET((uint32_t)blk1 >> 2),
                               GC_GP_ENTRY1_GET_HI((uint32_t)(blk1 >> 32)) | GC_GP_ENTRY1_LENGTH(pb.len)};
            REQUIRE_OK(e.dev, util_ce_write(e.dev, ring + 8, ent, sizeof ent));
        }
        REQUIRE_OK(e.dev, gc_mem_write(e.dev, dev_of(c.sems), &one, 4)); /* S[0] = 1 */
        uint32_t v = 0;
        for (int i = 0; i < 200 && v != 0xABCD; i++) {
            REQUIRE_OK(e.dev, gc_device_run(e.dev, 50));
            REQUIRE_OK(e.dev, gc_mem_read(e.dev, rec, &v, 4));
            if (variant) {
                uint32_t cause = 0;
                REQUIRE_OK(e.dev, gc_mmio_read(e.dev, GC_REG_CHANNEL_ERROR(gcrt_wq_channel(q)), &cause));
                if (cause) {
                    CHECK_EQ(cause, GC_ERROR_CAUSE_INVALID_GPFIFO_ENTRY);
                    uint32_t eg = 0;
                    REQUIRE_OK(e.dev, gc_mmio_read(e.dev, GC_REG_CHANNEL_ERROR_GP_GET(gcrt_wq_channel(q)), &eg));
                    CHECK_EQ(eg, 1);
                    break;
                }
                CHECK(i < 199); /* the ILLEGAL entry must be read once the gate opened */
            }
        }
        if (!variant) CHECK_EQ(v, 0xABCD);
    }
out:
    env_close(&e);
}

/* ------------------------------------------------------------------ hardware rule 2 */
/* A queue blocked in its gate on S[0] with ACQ_RETRY_INTERVAL = 10^6: a kernel releases S[0] with
 * an AMO, or through the device API (gc_wq_open_from: a FENCE and a plain store); the gate passes
 * (its stamped gate record, the method after the acquire) within WAKE_BOUND cycles of the cycle
 * the thread read just before its release, and the entry after the gate (a stamped release) runs:
 * without the crossbar's write snoop the acquire would be retried only 10^6 cycles later.  (The
 * bound leaves room for the release's own round trip and random stalls; pbdma_tb times the wake
 * exactly: 2 cycles after the store's B response.) */
#define WAKE_BOUND 2000u
static void wake_case(bool store) {
    env_t e;
    ENV_OPEN(e, 0);
    gcrt_stream_t *s = NULL;
    uint64_t buf = 0;
    gcrt_wq_t *q = mkq(&e, 8, 0);
    if (!q) goto out;
    gc_wq_t c;
    REQUIRE(ctrl(&e, q, &c));
    uint64_t x = dev_of(c.x_sem), blk1 = dev_of(c.blocks) + c.block_dwords * 4u, ring = dev_of(c.ring);
    uint32_t one = 1;
    WQ_OK(e, gcrt_malloc(e.rt, &buf, 256));
    uint32_t zero[16] = {0};
    WQ_OK(e, gcrt_write(e.rt, buf, zero, sizeof zero));
    /* entry 1: a stamped release of buf + 16 */
    uint32_t w[16];
    gc_pushbuf_t pb;
    gc_pb_init(&pb, w, 16);
    gc_pb_sem_release_ts(&pb, buf + 16, 0x5EED, false, false);
    REQUIRE_OK(e.dev, gc_mem_write(e.dev, blk1, w, pb.len * 4u));
    uint32_t ent[2] = {GC_GP_ENTRY0_GET((uint32_t)blk1 >> 2),
                       GC_GP_ENTRY1_GET_HI((uint32_t)(blk1 >> 32)) | GC_GP_ENTRY1_LENGTH(pb.len)};
    REQUIRE_OK(e.dev, gc_mem_write(e.dev, ring + 8, ent, sizeof ent));
    REQUIRE_OK(e.dev, gc_mem_write(e.dev, x, &one, 4));
    REQUIRE_OK(e.dev, gc_device_run(e.dev, 2000)); /* past X (retried every 64), blocked on S[0] */
    REQUIRE_OK(e.dev, gc_mmio_write(e.dev, GC_REG_GLOBAL_ACQ_RETRY_INTERVAL, 1000000));
    REQUIRE_OK(e.dev, gc_device_run(e.dev, 300));
    gc_wq_wake_params_t p = {c.sems, gcrt_kernel_ptr(buf), 400, store ? gcrt_wq_ptr(q) : 0u};
    uint32_t g[3] = {1, 1, 1}, b[3] = {1, 1, 1};
    WQ_OK(e, gcrt_stream_create(e.rt, &s));
    RT_OK(e.rt, gcrt_launch(e.rt, s, e.img, "wq_wake", g, b, &p, sizeof p, 0));
    RT_OK(e.rt, gcrt_stream_synchronize(e.rt, s));
    uint32_t r[4] = {0};
    for (int i = 0; i < 400 && r[0] != 0x5EED; i++) {
        REQUIRE_OK(e.dev, gc_device_run(e.dev, 16));
        WQ_OK(e, gcrt_read(e.rt, buf + 16, r, sizeof r));
    }
    uint32_t cyc = 0;
    WQ_OK(e, gcrt_read(e.rt, buf, &cyc, 4));
    CHECK_EQ(r[0], 0x5EED);
    uint32_t gp = 1;
    uint64_t gate = 0;
    WQ_OK(e, gcrt_wq_gate(q, 0, &gp, &gate));
    CHECK_EQ(gp, 0);
    int32_t lat = (int32_t)((uint32_t)gate - cyc);
    fprintf(stderr, "%s release at cycle %u, the gate passed at %u (%d cycles), the entry after it ran at %u "
            "(retry interval 10^6)\n", store ? "plain-store (gc_wq_open_from)" : "AMO", cyc, (uint32_t)gate, lat, r[2]);
    CHECK(r[0] == 0x5EED && lat < (int32_t)WAKE_BOUND);
    /* the ref model interprets a CTA whole at its dispatch: its release lands then, before the cycle
     * its thread reads (a modelled time); the RTL's gate can only pass after the release */
    if (!is_ref(&e)) CHECK(lat > 0);
out:
    if (e.dev) gc_mmio_write(e.dev, GC_REG_GLOBAL_ACQ_RETRY_INTERVAL, 64);
    if (s) gcrt_stream_destroy(e.rt, s);
    env_close(&e);
}
static void t_amo_wake(void) { wake_case(false); }
static void t_store_wake(void) { wake_case(true); }

/* ------------------------------------------------------------------ stress */
typedef struct stress {
    uint32_t threads, rounds, max_n, max_delay, seed;
    uint64_t items, count, recs; /* device addresses */
} stress_t;

/* Run one request of wq_stress on q and check it.  Returns the number of OK reservations, -1 on a
 * runtime failure (reported). */
static long stress_request(env_t *e, gcrt_wq_t *q, const stress_t *st, bool expect_full, uint32_t *nfull) {
    gc_wq_t c;
    if (!ctrl(e, q, &c)) return -1;
    uint32_t base = c.soft_put;
    size_t nrec = (size_t)st->threads * st->rounds;
    size_t item_bytes = 16u * (c.entries + 8u);
    uint8_t *zero = calloc(1, item_bytes > nrec * 16 ? item_bytes : nrec * 16);
    gc_mem_write(e->dev, st->items, zero, item_bytes);
    gc_mem_write(e->dev, st->recs, zero, nrec * 16);
    gc_mem_write(e->dev, st->count, zero, 4);
    free(zero);
    gc_wq_stress_params_t p = {gcrt_wq_ptr(q), gc_simt_ptr(st->items), base, gc_simt_ptr(st->count),
                               gc_simt_ptr(st->recs), st->seed, st->max_n, st->max_delay, st->rounds};
    gcrt_wq_request_t rq;
    gcrt_wq_request_init(&rq, e->img, "wq_stress", &p, sizeof p);
    rq.grid[0] = st->threads / 32u;
    rq.block[0] = 32;
    rq.open_early = true;
    gcrt_wq_t *qs[1] = {q};
    gcrt_error_t er = gcrt_workq_request(e->w, qs, 1, &rq);
    if (!er) er = gcrt_workq_wait(e->w, 20000000);
    if (er) {
        TCASE_FAIL_("request: %s (%s)", gcrt_error_name(er), gcrt_workq_message(e->w));
        return -1;
    }
    gc_wq_thread_rec_t *recs = calloc(nrec, sizeof *recs);
    uint32_t (*items)[4] = calloc(c.entries + 8u, 16);
    uint32_t count = 0;
    gc_mem_read(e->dev, st->recs, recs, nrec * sizeof *recs);
    gc_mem_read(e->dev, st->items, items, 16u * (c.entries + 8u));
    gc_mem_read(e->dev, st->count, &count, 4);
    gcrt_wq_info_t in;
    gcrt_wq_info(q, &in);
    long ok = 0;
    uint32_t total = 0, full = 0, bad = 0, early = 0, ooo = 0, closed = 0;
    for (uint32_t t = 0; t < st->threads; t++)
        for (uint32_t k = 0; k < st->rounds; k++) {
            const gc_wq_thread_rec_t *r = &recs[t * st->rounds + k];
            if (r->status == GC_WQ_FULL) { full++; break; }
            if (r->status == GC_WQ_CLOSED) { closed++; break; }
            if (r->status != GC_WQ_OK) { bad++; continue; }
            ok++;
            total += r->nblocks;
            for (uint32_t j = 0; j < r->nblocks; j++)
                if (items[r->pos + j - base][0] != GC_WQ_ITEM_TAG(t, k, j)) bad++;
            /* the gate before the range (position pos - 1) opened after the thread's release */
            uint32_t gp = 0;
            uint64_t gcyc = 0;
            gcrt_wq_gate(q, r->pos - 1, &gp, &gcyc);
            if (gp != r->pos - 1 || (!is_ref(e) && (uint32_t)gcyc - r->release > 0x80000000u)) early++;
            uint64_t first = ((uint64_t)items[r->pos - base][3] << 32) | items[r->pos - base][2];
            if (first <= gcyc) early++;
            for (uint32_t u = 0; u < st->threads; u++) { /* releases out of reservation order */
                const gc_wq_thread_rec_t *o = &recs[u * st->rounds];
                if (o->status == GC_WQ_OK && o->pos > r->pos && (int32_t)(o->release - r->release) < 0) ooo++;
            }
        }
    /* entry order: item stamps grow with the position */
    uint64_t last = 0;
    uint32_t order_bad = 0, seen = 0;
    for (uint32_t i = 0; i < c.entries; i++) {
        if (!(items[i][0] & 0x40000000u)) continue;
        uint64_t s = ((uint64_t)items[i][3] << 32) | items[i][2];
        if (s <= last) order_bad++;
        last = s;
        seen++;
    }
    fprintf(stderr, "request %u: %ld ranges, %u items, %u full, %u closed, %u releases out of reservation order, "
            "count %u, closed at position %u, GP_PUT writes %u\n", in.request - 1, ok, total, full, closed, ooo,
            count, in.closed_at, in.gp_put_writes);
    CHECK_EQ(bad, 0);
    CHECK_EQ(early, 0);
    CHECK_EQ(order_bad, 0);
    CHECK_EQ(count, total); /* every item exactly once */
    CHECK_EQ(seen, total);
    CHECK_EQ(in.full, full);
    CHECK_EQ(in.y, in.request - 1); /* handed back */
    if (expect_full) CHECK(full >= 1);
    else CHECK_EQ(full + closed, 0);
    if (nfull) *nfull = full;
    free(recs);
    free(items);
    return ok;
}

static void stress(uint32_t n, uint32_t threads, uint32_t max_n, bool expect_full) {
    env_t e;
    ENV_OPEN(e, 0);
    gcrt_wq_t *q = mkq(&e, n, 0);
    uint64_t mem = 0;
    if (!q) goto out;
    WQ_OK(e, gcrt_malloc(e.rt, &mem, 16u * (n + 8u) + 16u * threads * 2u + 64u));
    stress_t st = {threads, 1, max_n, 300, 0, mem, mem + 16u * (n + 8u), mem + 16u * (n + 8u) + 64u};
    for (uint32_t r = 0; r < 2; r++) {
        st.seed = 0x1234567u + r * 977u + (uint32_t)gc_device_seed(e.dev);
        if (stress_request(&e, q, &st, expect_full, NULL) < 0) goto out;
    }
    gcrt_wq_info_t in;
    WQ_OK(e, gcrt_wq_info(q, &in));
    CHECK_EQ(in.gp_put_writes, in.request); /* set-up + one per request handed back */
out:
    env_close(&e);
}

static void t_stress_pow2(void) { stress(512, 96, 3, false); }
static void t_stress_npow2(void) { stress(400, 96, 3, false); }
static void t_full(void) { stress(32, 64, 3, true); }
static void t_full_npow2(void) { stress(27, 64, 2, true); }

/* ------------------------------------------------------------------ faults */
/* A request that does not complete: kernel `kernel` with a gc_wq_stress_params_t block (items at
 * the buffer's start from position `base`, count at +count_ofs, records 64 bytes after it, one
 * round of one block, no delay) on a 16-entry queue over `bytes` of zeroed vidmem. */
typedef struct unfinished {
    const char *kernel;
    uint32_t bytes, base, count_ofs, seed;
    uint32_t block, producers; /* of request entry 0; 0: the request's defaults */
    bool open_early;
    uint64_t wait; /* gcrt_workq_wait's budget (0: the run's watchdog) */
} unfinished_t;

/* Run it: the wait's status in *er and its message (printed), the buffer at *mem; NULL (reported)
 * when the set-up failed. */
static const char *unfinished_run(env_t *e, const unfinished_t *u, uint64_t *mem, gcrt_error_t *er) {
    gcrt_wq_t *q = mkq_mem(e, 16, u->bytes, mem);
    if (!q) return NULL;
    gc_wq_stress_params_t p = {gcrt_wq_ptr(q), gc_simt_ptr(*mem), u->base, gc_simt_ptr(*mem + u->count_ofs),
                               gc_simt_ptr(*mem + u->count_ofs + 64), u->seed, 1, 0, 1};
    gcrt_wq_request_t rq;
    gcrt_wq_request_init(&rq, e->img, u->kernel, &p, sizeof p);
    rq.open_early = u->open_early;
    if (u->block) rq.block[0] = u->block;
    if (u->producers) rq.producers[0] = u->producers;
    gcrt_wq_t *qs[1] = {q};
    gcrt_error_t r = gcrt_workq_request(e->w, qs, 1, &rq);
    if (r != GCRT_SUCCESS) {
        TCASE_FAIL_("gcrt_workq_request: %s (%s)", gcrt_error_name(r), gcrt_workq_message(e->w));
        return NULL;
    }
    *er = gcrt_workq_wait(e->w, u->wait);
    const char *m = gcrt_workq_message(e->w);
    fprintf(stderr, "%s\n", m);
    return m;
}

static void t_fault(void) {
    env_t e;
    ENV_OPEN(e, 0);
    uint64_t mem = 0;
    gcrt_error_t er = GCRT_SUCCESS;
    const unfinished_t u = {.kernel = "wq_fault", .bytes = 256, .base = 0, .count_ofs = 64, .seed = 1,
                            .open_early = true, .wait = 2000000};
    const char *m = unfinished_run(&e, &u, &mem, &er);
    if (!m) goto out;
    CHECK_EQ(er, GCRT_ERROR_CHANNEL_FAULT);
    CHECK(strstr(m, "TASK_FAULT") && strstr(m, "NULL_ACCESS"));
    /* first range: positions 1 (item) and 2 (gate); the second reservation, 3 and 4, was never
     * released: the queue waits at entry 2 for S[2] == 3 */
    CHECK(strstr(m, "entry 2 (position 2) waits for S[2]") != NULL);
    CHECK(strstr(m, "== 3, it holds 0") != NULL);
    uint32_t it[8];
    WQ_OK(e, gcrt_read(e.rt, mem, it, sizeof it));
    CHECK_EQ(it[0], GC_WQ_ITEM_TAG(0u, 0u, 0u)); /* the released range ran */
    CHECK_EQ(it[4], 0);                         /* the unreleased one did not */
out:
    env_close(&e);
}

/* Nobody closes the queue (producers set higher than K's threads): the whole-run watchdog stops the
 * run, and the wait's message names the entry and the semaphore the queue waits on. */
static void t_watchdog(void) {
    env_t e;
    ENV_OPEN(e, 400000);
    uint64_t mem = 0;
    gcrt_error_t er = GCRT_SUCCESS;
    const unfinished_t u = {.kernel = "wq_stress", .bytes = 1024, .base = 1, .count_ofs = 512, .seed = 7,
                            .block = 2, .producers = 3 /* one more than K has: nobody closes */, .wait = 0};
    const char *m = unfinished_run(&e, &u, &mem, &er);
    if (!m) goto out;
    CHECK(er == GCRT_ERROR_TIMEOUT || er == GCRT_ERROR_BACKEND);
    CHECK(strstr(m, "watchdog") != NULL);
    /* two ranges of one block: positions 1, 2 and 3, 4: the queue waits at entry 4 for S[4] == 5 */
    CHECK(strstr(m, "entry 4 (position 4) waits for S[4]") != NULL);
out:
    env_close(&e);
}

/* ------------------------------------------------------------------ the scenario */
static void scenario(bool prior_art) {
    gcrt_config_t cfg;
    gcrt_config_init(&cfg);
    cfg.device.quiet = true;
    gcsc_wq_result_t r;
    char err[1200] = "", tl[64];
    snprintf(tl, sizeof tl, "/tmp/gc_test_workq_%d.json", (int)getpid());
    gcrt_error_t e = gcsc_work_queue(&cfg, IMAGE, prior_art, stderr, prior_art ? NULL : tl, &r, err, sizeof err);
    if (e == GCRT_ERROR_NOT_SUPPORTED) TCASE_SKIP("%s", err);
    if (e != GCRT_SUCCESS) {
        TCASE_FAIL_("gcsc_work_queue: %s: %s", gcrt_error_name(e), err);
        return;
    }
    CHECK(r.rules >= (prior_art ? 2u : 16u));
    CHECK_EQ(r.bad_rules, 0);
    CHECK_EQ(r.items, 4);
    CHECK(r.k_start < r.k_end && r.k_end < r.done);
    if (prior_art) {
        CHECK_EQ(r.gp_put_writes, 0);
        return;
    }
    CHECK_EQ(r.gp_put_writes, 4); /* two queues: set-up and the re-arm after the hand-back */
    const char *t = slurp(tl);
    CHECK(t && strstr(t, "\"GPU-owned queue gpu-compute\"") && strstr(t, "\"acquire A\"") && strstr(t, "\"acquire B\"") &&
          strstr(t, "\"PBS1: launch child0\"") && strstr(t, "\"PBS2: copy 1\"") && strstr(t, "\"launch K\""));
    remove(tl);
}
static void t_scenario(void) { scenario(false); }
static void t_scenario_prior_art(void) { scenario(true); }

/* ------------------------------------------------------------------ queue TMDs */
typedef struct tq {
    uint64_t mem, hdr, marks, order, seq;
} tq_t;
#define TQ_MARKS 64u

static bool tq_alloc(env_t *e, tq_t *t) {
    if (gcrt_malloc(e->rt, &t->mem, 2048) != GCRT_SUCCESS) return false;
    t->hdr = t->mem;
    t->seq = t->mem + 8;
    t->marks = t->mem + 64;
    t->order = t->mem + 64 + 4 * TQ_MARKS;
    uint8_t z[2048] = {0};
    return gcrt_write(e->rt, t->mem, z, sizeof z) == GCRT_SUCCESS;
}

static gcrt_error_t tq_launch(env_t *e, gcrt_stream_t *s, const tq_t *t, uint32_t more, uint32_t close_at, int prio,
                              uint32_t ctas) {
    gc_tq_params_t p = {gc_simt_ptr(t->hdr), gc_simt_ptr(t->marks), gc_simt_ptr(t->order), gc_simt_ptr(t->seq),
                        more, close_at, 50};
    gcrt_launch_attr_t a;
    gcrt_launch_attr_init(&a);
    a.queue = t->hdr;
    a.device_priority = prio;
    uint32_t g[3] = {ctas, 1, 1}, b[3] = {4, 1, 1};
    return gcrt_launch_ex(e->rt, s, e->img, "tq_worker", g, b, &p, sizeof p, 0, &a);
}

/* Run until `n` entries ran (marks[0..n-1] all == ctas) or the budget ends. */
static bool tq_wait_marks(env_t *e, const tq_t *t, uint32_t n, uint32_t ctas, uint64_t budget) {
    uint32_t m[TQ_MARKS];
    for (uint64_t spent = 0; spent < budget; spent += 200) {
        if (gcrt_read(e->rt, t->marks, m, sizeof m) != GCRT_SUCCESS) return false;
        bool all = true;
        for (uint32_t i = 0; i < n; i++) all &= m[i] == ctas;
        if (all) return true;
        if (gc_device_run(e->dev, 200) != GC_OK) return false;
    }
    return false;
}

static uint32_t tq_marks(env_t *e, const tq_t *t, uint32_t n, uint32_t ctas) {
    uint32_t m[TQ_MARKS], bad = 0;
    gcrt_read(e->rt, t->marks, m, sizeof m);
    for (uint32_t i = 0; i < TQ_MARKS; i++) bad += m[i] != (i < n ? ctas : 0u);
    return bad;
}

/* Entries appended while the task runs by the host (3) and by its threads (7 more: CTA 0 of the
 * entries at positions 0..6 each push one): each entry's grid of 2 CTAs runs exactly once; the task
 * runs nothing before the first entry, does not complete while the queue is open even with every
 * entry done, and completes after the close (by the host, or by the thread of position 9). */
static void tq_append(bool device_close) {
    env_t e;
    ENV_OPEN(e, 0);
    gcrt_stream_t *s = NULL;
    tq_t t;
    REQUIRE(tq_alloc(&e, &t));
    WQ_OK(e, gcrt_tmu_log_enable(e.rt, 0));
    WQ_OK(e, gcrt_stream_create(e.rt, &s));
    RT_OK(e.rt, tq_launch(&e, s, &t, 7, device_close ? 9 : 0xFFFFFFFFu, -1, 2));
    REQUIRE_OK(e.dev, gc_device_run(e.dev, 4000));
    CHECK_EQ(gcrt_stream_query(e.rt, s), GCRT_ERROR_NOT_READY);
    CHECK_EQ(tq_marks(&e, &t, 0, 2), 0); /* no entry: no CTA */
    uint32_t put = 3;
    WQ_OK(e, gcrt_write(e.rt, t.hdr, &put, 4)); /* the host appends 3 entries */
    CHECK(tq_wait_marks(&e, &t, 10, 2, 2000000));
    CHECK_EQ(tq_marks(&e, &t, 10, 2), 0);
    if (!device_close) {
        REQUIRE_OK(e.dev, gc_device_run(e.dev, 2000));
        CHECK_EQ(gcrt_stream_query(e.rt, s), GCRT_ERROR_NOT_READY); /* open: not complete */
        uint32_t h = 0;
        WQ_OK(e, gcrt_read(e.rt, t.hdr, &h, 4));
        CHECK_EQ(h, 10);
        h |= GC_TASK_QUEUE_PUT_CLOSED(1u);
        WQ_OK(e, gcrt_write(e.rt, t.hdr, &h, 4));
    }
    uint64_t closed = gc_device_cycles(e.dev);
    RT_OK(e.rt, gcrt_stream_synchronize(e.rt, s));
    CHECK_EQ(tq_marks(&e, &t, 10, 2), 0);
    const gcrt_op_t *ops;
    size_t n;
    RT_OK(e.rt, gcrt_ops(e.rt, &ops, &n));
    REQUIRE(n == 1 && ops[0].done);
    if (!device_close) CHECK(ops[0].end_cycle > closed);
    uint32_t seq = 0;
    WQ_OK(e, gcrt_read(e.rt, t.seq, &seq, 4));
    CHECK_EQ(seq, 20); /* 10 entries x 2 CTAs */
    fprintf(stderr, "queue task: START %llu, COMPLETE %llu, closed by the %s\n", (unsigned long long)ops[0].start_cycle,
            (unsigned long long)ops[0].end_cycle, device_close ? "thread of position 9" : "host");
out:
    if (s) gcrt_stream_destroy(e.rt, s);
    env_close(&e);
}
static void t_tq_append_host_close(void) { tq_append(false); }
static void t_tq_append_device_close(void) { tq_append(true); }

/* A queue task waiting for entries holds its slot but dispatches nothing: a lower-priority grid
 * runs to its end meanwhile (strict dispatch priority applies to CTAs that can be dispatched). */
static void t_tq_priority(void) {
    env_t e;
    ENV_OPEN(e, 0);
    gcrt_stream_t *s = NULL, *s2 = NULL;
    uint64_t buf = 0;
    tq_t t;
    REQUIRE(tq_alloc(&e, &t));
    WQ_OK(e, gcrt_stream_create(e.rt, &s));
    WQ_OK(e, gcrt_stream_create(e.rt, &s2));
    RT_OK(e.rt, tq_launch(&e, s, &t, 0, 0xFFFFFFFFu, 20, 1));
    REQUIRE_OK(e.dev, gc_device_run(e.dev, 3000));
    WQ_OK(e, gcrt_malloc(e.rt, &buf, 64));
    uint32_t z[16] = {0};
    WQ_OK(e, gcrt_write(e.rt, buf, z, sizeof z));
    gc_wq_child_params_t cp = {gc_simt_ptr(buf), 7};
    uint32_t g[3] = {4, 1, 1}, b[3] = {4, 1, 1};
    gcrt_launch_attr_t a;
    gcrt_launch_attr_init(&a);
    a.device_priority = 1;
    RT_OK(e.rt, gcrt_launch_ex(e.rt, s2, e.img, "wq_child", g, b, &cp, sizeof cp, 0, &a));
    RT_OK(e.rt, gcrt_stream_synchronize(e.rt, s2));
    CHECK_EQ(gcrt_stream_query(e.rt, s), GCRT_ERROR_NOT_READY);
    WQ_OK(e, gcrt_read(e.rt, buf, z, sizeof z));
    for (int i = 0; i < 4; i++) CHECK_EQ(z[i], GC_WQ_CHILD_MARK(7));
    uint32_t h = 1 | GC_TASK_QUEUE_PUT_CLOSED(1u); /* one entry, closed */
    WQ_OK(e, gcrt_write(e.rt, t.hdr, &h, 4));
    RT_OK(e.rt, gcrt_stream_synchronize(e.rt, s));
    CHECK_EQ(tq_marks(&e, &t, 1, 1), 0);
out:
    if (s) gcrt_stream_destroy(e.rt, s);
    if (s2) gcrt_stream_destroy(e.rt, s2);
    env_close(&e);
}

/* Every task slot held by a queue task waiting for entries (device priorities 0..K-1): a more
 * urgent grid evicts the lowest one (EVICT), completes, the queue task resumes (RESUME) and every
 * queue task completes once its queue got entries and was closed; each entry ran once. */
static void t_tq_eviction(void) {
    env_t e;
    ENV_OPEN(e, 0);
    gcrt_stream_t *s[GC_TMU_SLOTS + 1] = {NULL};
    tq_t t[GC_TMU_SLOTS];
    uint64_t buf = 0;
    gcrt_tmu_config_t tc;
    WQ_OK(e, gcrt_tmu_config(e.rt, &tc));
    REQUIRE(tc.slots == GC_TMU_SLOTS);
    WQ_OK(e, gcrt_tmu_log_enable(e.rt, 0));
    for (uint32_t k = 0; k <= GC_TMU_SLOTS; k++) WQ_OK(e, gcrt_stream_create(e.rt, &s[k]));
    for (uint32_t k = 0; k < GC_TMU_SLOTS; k++) {
        REQUIRE(tq_alloc(&e, &t[k]));
        RT_OK(e.rt, tq_launch(&e, s[k], &t[k], 0, 0xFFFFFFFFu, (int)k, 1));
    }
    REQUIRE_OK(e.dev, gc_device_run(e.dev, 6000));
    WQ_OK(e, gcrt_malloc(e.rt, &buf, 64));
    uint32_t z[16] = {0};
    WQ_OK(e, gcrt_write(e.rt, buf, z, sizeof z));
    gc_wq_child_params_t cp = {gc_simt_ptr(buf), 9};
    uint32_t g[3] = {2, 1, 1}, b[3] = {4, 1, 1};
    gcrt_launch_attr_t a;
    gcrt_launch_attr_init(&a);
    a.device_priority = 10;
    RT_OK(e.rt, gcrt_launch_ex(e.rt, s[GC_TMU_SLOTS], e.img, "wq_child", g, b, &cp, sizeof cp, 0, &a));
    RT_OK(e.rt, gcrt_stream_synchronize(e.rt, s[GC_TMU_SLOTS]));
    WQ_OK(e, gcrt_read(e.rt, buf, z, sizeof z));
    CHECK(z[0] == GC_WQ_CHILD_MARK(9) && z[1] == GC_WQ_CHILD_MARK(9));
    for (uint32_t k = 0; k < GC_TMU_SLOTS; k++) {
        CHECK_EQ(gcrt_stream_query(e.rt, s[k]), GCRT_ERROR_NOT_READY);
        uint32_t h = 2 | GC_TASK_QUEUE_PUT_CLOSED(1u);
        WQ_OK(e, gcrt_write(e.rt, t[k].hdr, &h, 4));
    }
    for (uint32_t k = 0; k < GC_TMU_SLOTS; k++) RT_OK(e.rt, gcrt_stream_synchronize(e.rt, s[k]));
    for (uint32_t k = 0; k < GC_TMU_SLOTS; k++) CHECK_EQ(tq_marks(&e, &t[k], 2, 1), 0);
    RT_OK(e.rt, gcrt_tmu_log_sync(e.rt));
    const gcrt_tmu_record_t *lg;
    size_t n;
    RT_OK(e.rt, gcrt_tmu_log(e.rt, &lg, &n, NULL));
    const gcrt_op_t *ops;
    size_t nops;
    RT_OK(e.rt, gcrt_ops(e.rt, &ops, &nops));
    REQUIRE(nops == GC_TMU_SLOTS + 1);
    long ev = gcsc_log_find(lg, n, 0, GC_TMU_EVENT_EVICT, GCSC_ANY);
    long hs = gcsc_log_find(lg, n, 0, GC_TMU_EVENT_START, ops[GC_TMU_SLOTS].task);
    long hc = gcsc_log_find(lg, n, 0, GC_TMU_EVENT_COMPLETE, ops[GC_TMU_SLOTS].task);
    CHECK(ev >= 0 && hs > ev && hc > hs);
    if (ev >= 0) {
        CHECK_EQ(lg[ev].task, ops[0].task); /* the lowest priority */
        long rs = gcsc_log_find(lg, n, (size_t)ev, GC_TMU_EVENT_RESUME, ops[0].task);
        CHECK(rs > hc || (rs > hs && rs >= 0));
        CHECK(rs >= 0);
    }
out:
    for (uint32_t k = 0; k <= GC_TMU_SLOTS; k++)
        if (s[k]) gcrt_stream_destroy(e.rt, s[k]);
    env_close(&e);
}

static void t_tq_refused(void) {
    env_t e;
    ENV_OPEN(e, 0);
    tq_t t;
    REQUIRE(tq_alloc(&e, &t));
    t.hdr += 4; /* misaligned */
    CHECK_EQ(tq_launch(&e, NULL, &t, 0, 0, -1, 1), GCRT_ERROR_INVALID_VALUE);
    CHECK(strstr(gcrt_last_message(e.rt), "aligned") != NULL);
    fprintf(stderr, "%s\n", gcrt_last_message(e.rt));
    env_close(&e);
}

/* The device API's edges: N of 0 and GC_WQ_MAX_BLOCKS + 1 refused (BAD_ARG, nothing reserved), N of
 * GC_WQ_MAX_BLOCKS runs, a block longer than block_dwords (32, the smallest) is dropped (OVERFLOW,
 * its entry a NOP) and the queue goes on; a queue of 1024-dword blocks (the largest) is made. */
static void t_limits(void) {
    env_t e;
    ENV_OPEN(e, 0);
    uint64_t mem = 0;
    gcrt_wq_config_t c;
    gcrt_wq_config_init(&c);
    c.entries = 32;
    c.block_dwords = GCRT_WQ_MIN_BLOCK_DWORDS;
    gcrt_wq_t *q = NULL, *big = NULL;
    WQ_OK(e, gcrt_wq_create(e.w, &c, &q));
    c.block_dwords = GCRT_WQ_MAX_BLOCK_DWORDS;
    WQ_OK(e, gcrt_wq_create(e.w, &c, &big));
    WQ_OK(e, gcrt_malloc(e.rt, &mem, 512));
    uint8_t z[512] = {0};
    WQ_OK(e, gcrt_write(e.rt, mem, z, sizeof z));
    gc_wq_stress_params_t p = {gcrt_wq_ptr(q), gc_simt_ptr(mem), 0, gc_simt_ptr(mem + 256), gc_simt_ptr(mem + 320),
                               0, 0, 0, 0};
    gcrt_wq_request_t rq;
    gcrt_wq_request_init(&rq, e.img, "wq_limits", &p, sizeof p);
    gcrt_wq_t *qs[1] = {q};
    WQ_OK(e, gcrt_workq_request(e.w, qs, 1, &rq));
    WQ_OK(e, gcrt_workq_wait(e.w, 2000000));
    uint32_t rec[8], items[10][4], count = 0;
    WQ_OK(e, gcrt_read(e.rt, mem + 320, rec, sizeof rec));
    WQ_OK(e, gcrt_read(e.rt, mem, items, sizeof items));
    WQ_OK(e, gcrt_read(e.rt, mem + 256, &count, 4));
    CHECK_EQ(rec[0], GC_WQ_BAD_ARG);
    CHECK_EQ(rec[1], GC_WQ_BAD_ARG);
    CHECK_EQ(rec[2], GC_WQ_OK);
    CHECK_EQ(rec[3], GC_WQ_OK);
    CHECK_EQ(rec[4], GC_WQ_OK);
    CHECK_EQ(rec[5], GC_WQ_OVERFLOW);
    CHECK_EQ(rec[6], GC_WQ_OK);
    CHECK_EQ(rec[7], GC_WQ_OK);
    for (uint32_t j = 0; j < 8; j++) CHECK_EQ(items[j][0], 0x100u + j);
    CHECK_EQ(items[8][0], 0);      /* the dropped block did not run */
    CHECK_EQ(items[9][0], 0x109u); /* the queue went on */
    CHECK_EQ(count, 9);
    gcrt_wq_info_t in;
    WQ_OK(e, gcrt_wq_info(q, &in));
    /* positions: 1..9 (8 + gate), 10..11, 12..13, closing entry at 14 */
    CHECK_EQ(in.closed_at, 14);
    CHECK_EQ(in.y, 1);
out:
    env_close(&e);
}

/* ------------------------------------------------------------------ API refusals */
static void t_request_errors(void) {
    env_t e;
    ENV_OPEN(e, 0);
    gcrt_wq_t *q = mkq(&e, 8, 0);
    uint64_t mem = 0;
    if (!q) goto out;
    gcrt_wq_t *qs[2] = {q, q};
    gcrt_wq_request_t rq;
    gcrt_wq_request_init(&rq, e.img, "no_such_kernel", NULL, 0);
    CHECK_EQ(gcrt_workq_request(e.w, qs, 1, &rq), GCRT_ERROR_INVALID_KERNEL);
    CHECK(strstr(gcrt_workq_message(e.w), "no_such_kernel") != NULL);
    rq.kernel = "wq_stress";
    CHECK_EQ(gcrt_workq_request(e.w, qs, 0, &rq), GCRT_ERROR_INVALID_VALUE);
    CHECK_EQ(gcrt_workq_request(e.w, qs, 2, &rq), GCRT_ERROR_INVALID_HANDLE); /* named twice */
    CHECK_EQ(gcrt_workq_request(e.w, qs, 1, NULL), GCRT_ERROR_INVALID_VALUE);
    rq.grid[1] = 0;
    CHECK_EQ(gcrt_workq_request(e.w, qs, 1, &rq), GCRT_ERROR_INVALID_CONFIGURATION);
    rq.grid[1] = 1;
    WQ_OK(e, gcrt_malloc(e.rt, &mem, 1024));
    uint32_t zero[256] = {0};
    WQ_OK(e, gcrt_write(e.rt, mem, zero, sizeof zero));
    gc_wq_stress_params_t p = {gcrt_wq_ptr(q), gc_simt_ptr(mem), 1, gc_simt_ptr(mem + 512), gc_simt_ptr(mem + 576),
                               7, 1, 0, 1};
    static uint8_t big[GCRT_WQ_MAX_ARGS + 1];
    memcpy(big, &p, sizeof p); /* the largest parameter block is taken, one byte more is not */
    rq.args = big;
    rq.args_bytes = GCRT_WQ_MAX_ARGS + 1;
    CHECK_EQ(gcrt_workq_request(e.w, qs, 1, &rq), GCRT_ERROR_INVALID_VALUE);
    CHECK(strstr(gcrt_workq_message(e.w), "arguments") != NULL);
    rq.args_bytes = GCRT_WQ_MAX_ARGS;
    WQ_OK(e, gcrt_workq_request(e.w, qs, 1, &rq));
    CHECK_EQ(gcrt_workq_request(e.w, qs, 1, &rq), GCRT_ERROR_NOT_PERMITTED); /* not waited for */
    gcrt_wq_config_t c;
    gcrt_wq_config_init(&c);
    gcrt_wq_t *q2 = NULL;
    CHECK_EQ(gcrt_wq_create(e.w, &c, &q2), GCRT_ERROR_NOT_PERMITTED);
    WQ_OK(e, gcrt_workq_wait(e.w, 2000000));
    WQ_OK(e, gcrt_workq_request(e.w, qs, 1, &rq)); /* the re-armed queue takes the next request */
    WQ_OK(e, gcrt_workq_wait(e.w, 2000000));
    gcrt_wq_info_t in;
    WQ_OK(e, gcrt_wq_info(q, &in));
    CHECK_EQ(in.y, 2);
    CHECK_EQ(in.request, 3);
    CHECK_EQ(in.gp_put_writes, 3);
    /* GCRT_WQ_MAX_QUEUES queues per workq, not one more */
    for (uint32_t i = 1; i < GCRT_WQ_MAX_QUEUES; i++) WQ_OK(e, gcrt_wq_create(e.w, &c, &q2));
    CHECK_EQ(gcrt_wq_create(e.w, &c, &q2), GCRT_ERROR_INVALID_VALUE);
    CHECK(strstr(gcrt_workq_message(e.w), "queues") != NULL);
out:
    env_close(&e);
}

static const tcase_t cases[] = {
    {"wq_setup", t_setup},
    {"wq_gpfifo_order", t_gpfifo_order},
    {"wq_amo_wake", t_amo_wake},
    {"wq_store_wake", t_store_wake},
    {"wq_request_errors", t_request_errors},
    {"wq_limits", t_limits},
    {"wq_stress_pow2", t_stress_pow2},
    {"wq_stress_npow2", t_stress_npow2},
    {"wq_full", t_full},
    {"wq_full_npow2", t_full_npow2},
    {"wq_fault", t_fault},
    {"wq_watchdog", t_watchdog},
    {"wq_scenario", t_scenario},
    {"wq_scenario_prior_art", t_scenario_prior_art},
    {"tq_append_host_close", t_tq_append_host_close},
    {"tq_append_device_close", t_tq_append_device_close},
    {"tq_priority", t_tq_priority},
    {"tq_eviction", t_tq_eviction},
    {"tq_refused", t_tq_refused},
};
TCASE_MAIN(cases)
