/* The sc backend's own checks (the driver suite itself runs on sc as sc@test_*): SystemC elaborates
 * once per process, so a second open reuses the top and must look like a new device; two sc
 * devices at once are refused; the sc and rtl backends run side by side in one process (their
 * Verilated runtimes never meet) and agree cycle for cycle; waves, watchdog and fault injection. */
#include <sys/stat.h>
#include <unistd.h>

#include "cosim_util.h"
#include "tcase.h"

static void backend_sc(gc_device_config_t *c) { c->backend = "sc"; }
static void backend_rtl(gc_device_config_t *c) { c->backend = "rtl"; }

/* Open, close, open again: cycles restart from the same reset, memory is zero again, and the same
 * work takes the same cycles. */
static void t_reopen(void) {
    uint64_t rt_cycles[2] = {0, 0}, open_cycles[2] = {0, 0};
    for (int k = 0; k < 2; k++) {
        gc_device_t *dev = util_open(backend_sc);
        REQUIRE(dev);
        open_cycles[k] = gc_device_cycles(dev);
        uint32_t probe = 0xFFFFFFFF;
        REQUIRE_OK(dev, gc_mem_read(dev, GC_SYSMEM_BASE + 0x100000, &probe, 4));
        CHECK_EQ(probe, 0); /* written by the first device, zero again for the second */
        uint32_t mark = 0xA5A5A5A5;
        REQUIRE_OK(dev, gc_mem_write(dev, GC_SYSMEM_BASE + 0x100000, &mark, 4));
        gc_channel_t *ch;
        REQUIRE_OK(dev, gc_channel_open(dev, NULL, &ch));
        roundtrip_t r = util_roundtrip(dev, ch, 4096, 3, 5, 42);
        CHECK_EQ(r.status, GC_OK);
        CHECK_EQ(r.vid_bad + r.dst_bad, 0);
        CHECK_EQ(r.ce_sem, 1);
        CHECK_EQ(r.host_sem, RT_HOST_PAYLOAD);
        rt_cycles[k] = r.cycles;
        uint32_t lo = 0;
        REQUIRE_OK(dev, gc_mmio_read(dev, GC_REG_GLOBAL_CYCLE_LO, &lo));
        CHECK(lo <= gc_device_cycles(dev)); /* the device's counter restarted with the reset */
        gc_device_close(dev);
    }
    gc_device_t *rtl = util_open(backend_rtl); /* reset, then gc_device_open's ID read */
    REQUIRE(rtl);
    CHECK_EQ(open_cycles[0], gc_device_cycles(rtl));
    CHECK_EQ(open_cycles[1], gc_device_cycles(rtl));
    gc_device_close(rtl);
    CHECK_EQ(rt_cycles[0], rt_cycles[1]);
    fprintf(stderr, "round trip: %llu cycles on both opens\n", (unsigned long long)rt_cycles[0]);
}

static void t_second_open_refused(void) {
    gc_device_t *a = util_open(backend_sc);
    REQUIRE(a);
    gc_device_config_t cfg;
    gc_device_config_init(&cfg);
    cfg.backend = "sc";
    cfg.quiet = true;
    gc_device_t *b = NULL;
    CHECK_EQ(gc_device_open(&cfg, &b), GC_ERR_BUSY);
    CHECK(b == NULL);
    uint32_t v = 0;
    REQUIRE_OK(a, gc_mmio_read(a, GC_REG_GLOBAL_VERSION, &v)); /* the first one is unharmed */
    CHECK_EQ(v, GC_VERSION);
    gc_device_close(a);
    REQUIRE_OK(NULL, gc_device_open(&cfg, &b)); /* and after a close it opens again */
    gc_device_close(b);
}

/* Both backends in one process, interleaved: same data, same cycles, same counters, with and
 * without random memory stalls (the sc bridge draws them as cosim's AxiMem does). */
static uint32_t stall_pct;
static void rtl_stalls(gc_device_config_t *c) {
    c->backend = "rtl";
    c->stall_pct = stall_pct;
}
static void sc_stalls(gc_device_config_t *c) {
    c->backend = "sc";
    c->stall_pct = stall_pct;
}

static void t_same_cycles_as_rtl(void) {
    for (stall_pct = 0; stall_pct <= 30; stall_pct += 30) {
        gc_device_t *dev[2] = {util_open(rtl_stalls), util_open(sc_stalls)};
        REQUIRE(dev[0] && dev[1]);
        gc_channel_t *ch[2];
        gc_channel_config_t cc;
        gc_channel_config_init(&cc);
        cc.runlist = 2;
        for (int k = 0; k < 2; k++) REQUIRE_OK(dev[k], gc_channel_open(dev[k], &cc, &ch[k]));
        roundtrip_t r[2];
        uint32_t methods[2], busy[2], bytes[2];
        for (int rep = 0; rep < 2; rep++) {
            for (int k = 0; k < 2; k++) {
                r[k] = util_roundtrip(dev[k], ch[k], 3000 + 1000 * (uint32_t)rep, 7, 1, 5 + (uint64_t)rep);
                CHECK_EQ(r[k].status, GC_OK);
                CHECK_EQ(r[k].vid_bad + r[k].dst_bad, 0);
                REQUIRE_OK(dev[k], gc_mmio_read(dev[k], GC_REG_CHANNEL_METHODS(gc_channel_id(ch[k])), &methods[k]));
                REQUIRE_OK(dev[k], gc_mmio_read(dev[k], GC_REG_ENGINE_BUSY_CYCLES(1), &busy[k]));
                REQUIRE_OK(dev[k], gc_mmio_read(dev[k], GC_REG_ENGINE_BYTES(1), &bytes[k]));
            }
            fprintf(stderr, "stalls %u%%, rep %d: rtl %llu cycles, sc %llu cycles\n", stall_pct, rep,
                    (unsigned long long)r[0].cycles, (unsigned long long)r[1].cycles);
            CHECK_EQ(r[0].cycles, r[1].cycles);
            CHECK_EQ(gc_device_cycles(dev[0]), gc_device_cycles(dev[1]));
            CHECK_EQ(methods[0], methods[1]);
            CHECK_EQ(busy[0], busy[1]);
            CHECK_EQ(bytes[0], bytes[1]);
        }
        gc_device_close(dev[0]);
        gc_device_close(dev[1]);
    }
}

static char waves_path[64];
static void with_waves(gc_device_config_t *c) {
    c->backend = "sc";
    c->waves = waves_path;
}

static long file_size(const char *p) {
    struct stat st;
    return stat(p, &st) == 0 ? (long)st.st_size : -1;
}

/* An FST on the first open, none on the second, one again on the third (a new trace file on the
 * same model). */
static void t_waves(void) {
    snprintf(waves_path, sizeof waves_path, "/tmp/gpucosim_sc_%d.fst", (int)getpid());
    for (int k = 0; k < 3; k++) {
        unlink(waves_path);
        gc_device_t *dev = util_open(k == 1 ? backend_sc : with_waves);
        REQUIRE(dev);
        gc_channel_t *ch;
        REQUIRE_OK(dev, gc_channel_open(dev, NULL, &ch));
        roundtrip_t r = util_roundtrip(dev, ch, 256, 0, 0, 1);
        CHECK_EQ(r.status, GC_OK);
        gc_device_close(dev);
        long sz = file_size(waves_path);
        if (k == 1) CHECK_EQ(sz, -1);
        else CHECK(sz > 1000);
    }
    unlink(waves_path);
}

static void watchdog_cfg(gc_device_config_t *c) {
    c->backend = "sc";
    c->max_cycles = 3000;
    c->inject = "stall-reads";
}

/* As test_mutation's watchdog case: the run stops at the limit with the stuck-state dump. */
static void t_watchdog(void) {
    gc_device_t *dev = util_open(watchdog_cfg);
    REQUIRE(dev);
    gc_channel_t *ch;
    REQUIRE_OK(dev, gc_channel_open(dev, NULL, &ch));
    roundtrip_t r = util_roundtrip(dev, ch, 4096, 0, 0, 1);
    CHECK_EQ(r.status, GC_ERR_TIMEOUT);
    CHECK(gc_device_cycles(dev) >= 3000 && gc_device_cycles(dev) <= 3400);
    CHECK_EQ(gc_device_run(dev, 10), GC_ERR_TIMEOUT); /* nothing ticks after the watchdog */
    uint32_t v;
    CHECK_EQ(gc_mmio_read(dev, GC_REG_GLOBAL_VERSION, &v), GC_ERR_TIMEOUT);
    gc_device_close(dev);
}

static const char *inject_mode;
static void inject_cfg(gc_device_config_t *c) {
    c->backend = "sc";
    c->inject = inject_mode;
    c->wait_cycles = 30000;
}

static roundtrip_t injected(const char *mode) {
    inject_mode = mode;
    roundtrip_t r;
    memset(&r, 0, sizeof r);
    r.status = GC_ERR_BACKEND;
    gc_device_t *dev = util_open(inject_cfg);
    if (!dev) return r;
    gc_channel_t *ch;
    if (gc_channel_open(dev, NULL, &ch) == GC_OK) r = util_roundtrip(dev, ch, 4096, 0, 0, 1);
    gc_device_close(dev);
    return r;
}

/* The bridge's fault injection (test_mutation's modes) is caught by the same checks. */
static void t_injection(void) {
    roundtrip_t r = injected("flip-write");
    CHECK(r.vid_bad + r.dst_bad > 0);
    r = injected("drop-sem");
    CHECK_EQ(r.status, GC_ERR_TIMEOUT);
    CHECK(r.host_sem != RT_HOST_PAYLOAD);
    r = injected("stall-reads");
    CHECK_EQ(r.status, GC_ERR_TIMEOUT);
    CHECK(r.dst_bad > 0);
    inject_mode = "no-such-mode";
    gc_device_config_t cfg;
    gc_device_config_init(&cfg);
    inject_cfg(&cfg);
    cfg.quiet = true;
    gc_device_t *dev = NULL;
    CHECK_EQ(gc_device_open(&cfg, &dev), GC_ERR_INVALID_ARG);
}

static const tcase_t cases[] = {
    {"sc_reopen", t_reopen},
    {"sc_second_open_refused", t_second_open_refused},
    {"sc_same_cycles_as_rtl", t_same_cycles_as_rtl},
    {"sc_waves", t_waves},
    {"sc_watchdog", t_watchdog},
    {"sc_injection", t_injection},
};
TCASE_MAIN(cases)
