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
 *     switch at every method), and alone its slice is renewed silently (no switch at all).
 */
#include "cosim_util.h"
#include "tcase.h"

#define NCH 3
#define RELEASES 400 /* timestamped releases per channel, one GPFIFO entry */

static gc_channel_t *open_ch(gc_device_t *dev, uint32_t timeslice) {
    gc_channel_config_t cc;
    gc_channel_config_init(&cc);
    cc.runlist = 1;
    cc.timeslice = timeslice;
    gc_channel_t *ch = NULL;
    if (gc_channel_open(dev, &cc, &ch) != GC_OK) fprintf(stderr, "open: %s\n", gc_device_last_error(dev));
    return ch;
}

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
        for (int c = 0; c < NCH; c++) REQUIRE((ch[c] = open_ch(dev, slices[s])));
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

/* Round robin and the slice, while every channel has work. */
static void t_round_robin_slices(void) {
    enum { SLICE = 300, WINDOW = 20000 };
    gc_device_t *dev = util_open(NULL);
    REQUIRE(dev);
    gc_channel_t *ch[NCH];
    for (int c = 0; c < NCH; c++) REQUIRE((ch[c] = open_ch(dev, SLICE)));
    gc_buf_t slots;
    REQUIRE_OK(dev, gc_mem_alloc(dev, GC_MEM_VIDMEM, 16u * NCH * RELEASES, 64, &slots));
    static const uint8_t zero[16 * NCH * RELEASES];
    REQUIRE_OK(dev, gc_mem_write(dev, slots.addr, zero, sizeof zero));
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
    gc_channel_t *ch = open_ch(dev, 50);
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

static const tcase_t cases[] = {
    {"sched_forward_progress", t_forward_progress},
    {"sched_round_robin_slices", t_round_robin_slices},
    {"sched_alone_renewed", t_alone_renewed},
};
TCASE_MAIN(cases)
