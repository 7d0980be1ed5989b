/* The tests' own checks catch what they claim to: the memory model injects a fault (a flipped
 * byte, a lost release, reads that never return) and the same check that passes elsewhere must
 * now report it. */
#include "cosim_util.h"
#include "tcase.h"

static void t_flipped_byte_is_caught(void) {
    roundtrip_t r = util_injected_roundtrip(NULL, "flip-write");
    CHECK(r.vid_bad + r.dst_bad > 0);
}

static void t_missing_release_is_caught(void) {
    roundtrip_t r = util_injected_roundtrip(NULL, "drop-sem");
    CHECK_EQ(r.status, GC_ERR_TIMEOUT); /* the wait for the host release times out */
    CHECK(r.host_sem != RT_HOST_PAYLOAD);
    CHECK(r.ce_sem != 1);
}

static void t_stuck_gp_get_is_caught(void) {
    roundtrip_t r = util_injected_roundtrip(NULL, "stall-reads");
    CHECK_EQ(r.status, GC_ERR_TIMEOUT);
    CHECK(r.dst_bad > 0);
}

static void watchdog(gc_device_config_t *c) {
    c->max_cycles = 3000;
    c->inject = "stall-reads";
}

/* The whole-run watchdog stops a hung run with the stuck state instead of hanging. */
static void t_watchdog(void) {
    gc_device_t *dev = util_open(watchdog);
    REQUIRE(dev);
    gc_channel_t *ch;
    REQUIRE_OK(dev, gc_channel_open(dev, NULL, &ch));
    roundtrip_t r = util_roundtrip(dev, ch, 4096, 0, 0, 1);
    CHECK_EQ(r.status, GC_ERR_TIMEOUT);
    /* nothing runs past the limit but the stuck-state dump's own MMIO reads (~70 x 4 cycles) */
    CHECK(gc_device_cycles(dev) >= 3000 && gc_device_cycles(dev) <= 3400);
    gc_device_close(dev);
}

static const tcase_t cases[] = {
    {"mutation_flipped_byte_is_caught", t_flipped_byte_is_caught},
    {"mutation_missing_release_is_caught", t_missing_release_is_caught},
    {"mutation_stuck_gp_get_is_caught", t_stuck_gp_get_is_caught},
    {"mutation_watchdog", t_watchdog},
};
TCASE_MAIN(cases)
