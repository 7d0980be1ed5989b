/* The PBDMA's prefetch (rtl/gc_pbdma_pf.sv) through the driver, on whatever backend
 * GPUCOSIM_BACKEND names: data read ahead for the next channel must never run stale.
 *
 * The rig: channel A (runlist 1, a slice longer than the test) releases `started`, then blocks on
 * an acquire of `go` and stays resident (ACQUIRE_SWITCH_TSG DIS), so the PBDMA prefetches for the
 * other runnable channel of the runlist, B: its GPFIFO entry at GP_GET and the entry's first
 * pushbuffer burst. B's ring and pushbuffers are the test's own (vidmem, programmed over MMIO),
 * its entry E_old releases `res` = OLD. While A still holds the PBDMA, the test changes what B
 * should run; then it releases `go`, A completes and leaves (EMPTY), B is selected and runs, and
 * `res` must hold what the memory and registers say at the switch, never the prefetched copy:
 *
 *   pf_entry_rewritten_ce     the copy engine of runlist 2 writes E_new over B's ring slot
 *   pf_entry_rewritten_simt   a SIMT kernel (plain stores) writes E_new over it
 *   pf_pushbuffer_rewritten   the copy engine writes E_new's pushbuffer over E_old's
 *   pf_gp_put_back_forward    GP_PUT moved back to GP_GET (the entry unpublished), the host
 *                             rewrites the slot, GP_PUT moved forward again past it and one more
 *   pf_channel_reset          CTRL.RESET of B, B programmed again, the slot rewritten, GP_PUT 1
 *
 * The lookahead (gc_pbdma_pf's SELF instance) reads the resident channel's own next entry: B alone,
 * its entry 0 releases `started` and blocks on `go` (resident), its entry 1 is E_old, published
 * (GP_PUT 2), so the lookahead holds E_old and its burst while entry 0 waits. The same changes:
 *
 *   la_entry_rewritten_ce     the copy engine of runlist 2 writes E_new over slot 1
 *   la_entry_rewritten_simt   a SIMT kernel writes E_new over slot 1
 *   la_pushbuffer_rewritten   the copy engine writes E_new's pushbuffer over E_old's
 *   la_gp_put_back_forward    GP_PUT moved back to 1 (slot 1 unpublished), the host rewrites
 *                             slots 1 and 2, GP_PUT moved to 3
 *
 * On the rtl backend each case fails when gc_pbdma_pf's drop conditions are disabled (E_old's
 * prefetched copy runs); on ref (no prefetch) the same memory semantics hold.
 */
#include "cosim_util.h"
#include "gpucosim/runtime.h"
#include "gc_kernels.h"
#include "tcase.h"

#ifndef GC_FIRMWARE_DIR
#define GC_FIRMWARE_DIR "build/firmware"
#endif

#define OLD 0x01D0u
#define NEW 0x0E70u
#define MORE 0x0A0Eu
#define RING_LOG2 4u
#define PB_DW 64u /* dwords per pushbuffer segment slot */

typedef struct rig {
    gc_device_t *dev;
    gc_channel_t *a, *b; /* b: opened only for its channel id, then programmed by hand */
    uint32_t bid;
    uint64_t ring, pb[4], sem; /* sem + 0 started, + 16 go, + 32 res, + 48 res2, + 64 copy done */
    bool self; /* the lookahead rig: B alone, blocked in its own entry 0 */
} rig_t;

static uint32_t rd(gc_device_t *dev, uint32_t off) {
    uint32_t v = 0;
    if (gc_mmio_read(dev, off, &v) != GC_OK) fprintf(stderr, "mmio read 0x%x failed\n", off);
    return v;
}

/* Program B over MMIO: its ring at r->ring (2^RING_LOG2 entries), runlist 1, GP_GET = GP_PUT = 0. */
static bool program_b(rig_t *r) {
    gc_device_t *d = r->dev;
    uint32_t c = r->bid;
    return gc_mmio_write(d, GC_REG_CHANNEL_CTRL(c), GC_CHANNEL_CTRL_RESET(1)) == GC_OK &&
           gc_mmio_write(d, GC_REG_CHANNEL_GPFIFO_BASE_LO(c), (uint32_t)r->ring) == GC_OK &&
           gc_mmio_write(d, GC_REG_CHANNEL_GPFIFO_BASE_HI(c), (uint32_t)(r->ring >> 32)) == GC_OK &&
           gc_mmio_write(d, GC_REG_CHANNEL_GPFIFO_SIZE(c), RING_LOG2) == GC_OK &&
           gc_mmio_write(d, GC_REG_CHANNEL_RUNLIST(c), 1) == GC_OK &&
           gc_mmio_write(d, GC_REG_CHANNEL_CTRL(c), GC_CHANNEL_CTRL_ENABLE(1)) == GC_OK;
}

/* The GPFIFO entry of pushbuffer segment k (one release of res / res2) */
static void entry_of(const rig_t *r, int k, uint32_t e[2]) {
    e[0] = gc_gp_entry0(r->pb[k]);
    e[1] = gc_gp_entry1(r->pb[k], 12, GC_GP_ENTRY1_LEVEL_MAIN, GC_GP_ENTRY1_SYNC_PROCEED);
}

static bool write_slot(rig_t *r, uint32_t idx, int k) {
    uint32_t e[2];
    entry_of(r, k, e);
    return gc_mem_write(r->dev, r->ring + 8u * idx, e, sizeof e) == GC_OK;
}

/* Segment k: release `addr` = payload, padded with NOPs to 12 dwords (one burst, prefetched whole) */
static bool write_segment(rig_t *r, int k, uint64_t addr, uint32_t payload) {
    uint32_t w[PB_DW];
    gc_pushbuf_t pb;
    gc_pb_init(&pb, w, PB_DW);
    gc_pb_sem_release(&pb, addr, payload, false, false);
    while (pb.len < 12) gc_pb_raw(&pb, 0); /* DMA_NOP words */
    return pb.len == 12 && gc_mem_write(r->dev, r->pb[k], w, 4u * pb.len) == GC_OK;
}

/* Everything up to the point where B's entry has been prefetched: A resident and blocked on `go`,
 * B's E_old published (GP_PUT 1) while A holds the PBDMA, some cycles for the reads. With self
 * (the lookahead rig), B's slot 0 holds A's part (segment 3: release `started`, acquire `go`) and
 * E_old is slot 1 (GP_PUT 2); there is no A. */
static bool rig_start(rig_t *r, gc_device_t *dev, uint64_t vid, bool self) {
    memset(r, 0, sizeof *r);
    r->dev = dev;
    r->self = self;
    r->ring = vid;
    for (int k = 0; k < 4; k++) r->pb[k] = vid + 0x400u + 0x100u * (uint32_t)k;
    r->sem = vid + 0x800u;
    static const uint8_t zero[0x900];
    if (gc_mem_write(dev, vid, zero, sizeof zero) != GC_OK) return false;
    if (!self && !(r->a = util_open_channel(dev, 1, 0xFFFFFFFFu, 0))) return false;
    if (!(r->b = util_open_channel(dev, 1, self ? 0xFFFFFFFFu : 1000, 0))) return false;
    r->bid = gc_channel_id(r->b);
    if (!program_b(r) || !write_segment(r, 0, r->sem + 32, OLD) || !write_segment(r, 1, r->sem + 32, NEW) ||
        !write_segment(r, 2, r->sem + 48, MORE) || !write_slot(r, self ? 1 : 0, 0))
        return false;
    uint32_t w[PB_DW];
    gc_pushbuf_t pb;
    gc_pb_init(&pb, w, PB_DW);
    gc_pb_sem_release(&pb, r->sem, 1, false, false);
    gc_pb_sem_acquire(&pb, r->sem + 16, 1, GC_HOST_SEM_EXECUTE_OPERATION_ACQUIRE, false, false);
    if (self) {
        uint32_t e[2] = {gc_gp_entry0(r->pb[3]),
                         gc_gp_entry1(r->pb[3], pb.len, GC_GP_ENTRY1_LEVEL_MAIN, GC_GP_ENTRY1_SYNC_PROCEED)};
        if (gc_mem_write(dev, r->pb[3], w, 4u * pb.len) != GC_OK || gc_mem_write(dev, r->ring, e, sizeof e) != GC_OK ||
            gc_mmio_write(dev, GC_REG_CHANNEL_GP_PUT(r->bid), 2) != GC_OK || gc_sem_wait(dev, r->sem, 1, NULL) != GC_OK)
            return false;
        return gc_device_run(dev, 2000) == GC_OK;
    }
    if (gc_channel_submit(r->a, &pb) != GC_OK || gc_sem_wait(dev, r->sem, 1, NULL) != GC_OK) return false;
    if (gc_mmio_write(dev, GC_REG_CHANNEL_GP_PUT(r->bid), 1) != GC_OK) return false;
    return gc_device_run(dev, 2000) == GC_OK;
}

/* Release `go`; B runs after A; true when B's ring drained (GP_GET == GP_PUT) without a fault. */
static bool rig_finish(rig_t *r) {
    gc_device_t *dev = r->dev;
    /* the test's precondition: B has not run yet (A still holds the PBDMA; self: B's entry 0 waits) */
    if (rd(dev, GC_REG_CHANNEL_GP_GET(r->bid)) != 0) {
        fprintf(stderr, "B ran before the switch\n");
        return false;
    }
    static const uint32_t one = 1;
    if (gc_mem_write(dev, r->sem + 16, &one, 4) != GC_OK || (r->a && gc_channel_wait_idle(r->a) != GC_OK)) return false;
    for (int t = 0; t < 20000; t++) {
        if (rd(dev, GC_REG_CHANNEL_GP_GET(r->bid)) == rd(dev, GC_REG_CHANNEL_GP_PUT(r->bid))) break;
        if (gc_device_run(dev, 10) != GC_OK) return false;
    }
    uint32_t err = rd(dev, GC_REG_CHANNEL_ERROR(r->bid));
    if (err) fprintf(stderr, "B faulted: cause %u\n", err);
    return err == 0 && rd(dev, GC_REG_CHANNEL_GP_GET(r->bid)) == rd(dev, GC_REG_CHANNEL_GP_PUT(r->bid));
}

static uint32_t rd_mem(gc_device_t *dev, uint64_t a) {
    uint32_t v = 0;
    if (gc_mem_read(dev, a, &v, 4) != GC_OK) fprintf(stderr, "mem read failed\n");
    return v;
}

/* Copy 8 or 48 bytes with the copy engine of runlist 2 (another channel, another PBDMA). */
static void ce_write(rig_t *r, uint64_t dst, const void *src, uint32_t bytes) {
    REQUIRE_OK(r->dev, util_ce_write(r->dev, dst, src, bytes));
}

static gc_device_t *open_rig(rig_t *r, bool self) {
    gc_device_t *dev = util_open(NULL);
    if (!dev) return NULL;
    gc_buf_t vid;
    if (gc_mem_alloc(dev, GC_MEM_VIDMEM, 0x1000, 0x1000, &vid) != GC_OK || !rig_start(r, dev, vid.addr, self)) {
        fprintf(stderr, "rig: %s\n", gc_device_last_error(dev));
        gc_device_close(dev);
        return NULL;
    }
    return dev;
}

/* slot: B's slot the entry being read ahead stands in (0: the prefetch rig, 1: the lookahead's) */
static uint32_t slot(const rig_t *r) { return r->self ? 1u : 0u; }

static void entry_rewritten_ce(bool self) {
    rig_t r;
    gc_device_t *dev = open_rig(&r, self);
    REQUIRE(dev);
    uint32_t e[2];
    entry_of(&r, 1, e);
    ce_write(&r, r.ring + 8u * slot(&r), e, sizeof e);
    CHECK(rig_finish(&r));
    CHECK_EQ(rd_mem(dev, r.sem + 32), NEW);
    gc_device_close(dev);
}

static void pushbuffer_rewritten(bool self) {
    rig_t r;
    gc_device_t *dev = open_rig(&r, self);
    REQUIRE(dev);
    uint32_t w[12];
    REQUIRE_OK(dev, gc_mem_read(dev, r.pb[1], w, sizeof w));
    ce_write(&r, r.pb[0], w, sizeof w);
    CHECK(rig_finish(&r));
    CHECK_EQ(rd_mem(dev, r.sem + 32), NEW);
    gc_device_close(dev);
}

static void gp_put_back_forward(bool self) {
    rig_t r;
    gc_device_t *dev = open_rig(&r, self);
    REQUIRE(dev);
    uint32_t s = slot(&r);
    REQUIRE_OK(dev, gc_mmio_write(dev, GC_REG_CHANNEL_GP_PUT(r.bid), s)); /* unpublished */
    REQUIRE_OK(dev, gc_device_run(dev, 200));
    REQUIRE(write_slot(&r, s, 1) && write_slot(&r, s + 1, 2));
    REQUIRE_OK(dev, gc_mmio_write(dev, GC_REG_CHANNEL_GP_PUT(r.bid), s + 2)); /* past it and one more */
    REQUIRE_OK(dev, gc_device_run(dev, 200));
    CHECK(rig_finish(&r));
    CHECK_EQ(rd_mem(dev, r.sem + 32), NEW);
    CHECK_EQ(rd_mem(dev, r.sem + 48), MORE);
    CHECK_EQ(rd(dev, GC_REG_CHANNEL_GP_GET(r.bid)), s + 2);
    gc_device_close(dev);
}

static void t_channel_reset(void) {
    rig_t r;
    gc_device_t *dev = open_rig(&r, false);
    REQUIRE(dev);
    REQUIRE(program_b(&r));   /* CTRL.RESET: GP_GET = GP_PUT = 0 */
    REQUIRE_OK(dev, gc_device_run(dev, 200));
    REQUIRE(write_slot(&r, 0, 1));
    REQUIRE_OK(dev, gc_mmio_write(dev, GC_REG_CHANNEL_GP_PUT(r.bid), 1));
    REQUIRE_OK(dev, gc_device_run(dev, 200));
    CHECK(rig_finish(&r));
    CHECK_EQ(rd_mem(dev, r.sem + 32), NEW);
    gc_device_close(dev);
}

/* A SIMT kernel's plain stores rewrite the slot (vecadd of the new entry and zeros, n = 2). */
static void entry_rewritten_simt(bool self) {
    gc_elf_t *img = NULL;
    char why[256];
    gcrt_t *rt = util_open_rt_image(GC_FIRMWARE_DIR "/kernels.elf", &img, why, sizeof why);
    if (!rt) {
        TCASE_FAIL_("runtime: %s", why);
        return;
    }
    gc_device_t *dev = gcrt_device(rt);
    uint64_t vid = 0, da = 0, db = 0;
    rig_t r;
    gcrt_stream_t *s = NULL;
    bool ok = !gcrt_malloc(rt, &vid, 0x1000) && !gcrt_malloc(rt, &da, 8) && !gcrt_malloc(rt, &db, 8) &&
              !gcrt_stream_create(rt, &s) && rig_start(&r, dev, vid, self);
    if (ok) {
        uint32_t e[2], z[2] = {0, 0};
        entry_of(&r, 1, e);
        gc_vecadd_params_t p = {gcrt_kernel_ptr(da), gcrt_kernel_ptr(db), gcrt_kernel_ptr(r.ring + 8u * slot(&r)), 2};
        uint32_t grid[3] = {1, 1, 1}, block[3] = {32, 1, 1};
        ok = !gcrt_write(rt, da, e, sizeof e) && !gcrt_write(rt, db, z, sizeof z) &&
             !gcrt_launch(rt, s, img, "vecadd", grid, block, &p, sizeof p, 0) && !gcrt_stream_synchronize(rt, s);
    }
    if (!ok) {
        TCASE_FAIL_("setup: %s / %s", gcrt_last_message(rt), gc_device_last_error(dev));
    } else {
        CHECK(rig_finish(&r));
        CHECK_EQ(rd_mem(dev, r.sem + 32), NEW);
    }
    gcrt_close(rt);
}

static void t_entry_rewritten_ce(void) { entry_rewritten_ce(false); }
static void t_entry_rewritten_simt(void) { entry_rewritten_simt(false); }
static void t_pushbuffer_rewritten(void) { pushbuffer_rewritten(false); }
static void t_gp_put_back_forward(void) { gp_put_back_forward(false); }
static void t_la_entry_rewritten_ce(void) { entry_rewritten_ce(true); }
static void t_la_entry_rewritten_simt(void) { entry_rewritten_simt(true); }
static void t_la_pushbuffer_rewritten(void) { pushbuffer_rewritten(true); }
static void t_la_gp_put_back_forward(void) { gp_put_back_forward(true); }

static const tcase_t cases[] = {
    {"pf_entry_rewritten_ce", t_entry_rewritten_ce},
    {"pf_entry_rewritten_simt", t_entry_rewritten_simt},
    {"pf_pushbuffer_rewritten", t_pushbuffer_rewritten},
    {"pf_gp_put_back_forward", t_gp_put_back_forward},
    {"pf_channel_reset", t_channel_reset},
    {"la_entry_rewritten_ce", t_la_entry_rewritten_ce},
    {"la_entry_rewritten_simt", t_la_entry_rewritten_simt},
    {"la_pushbuffer_rewritten", t_la_pushbuffer_rewritten},
    {"la_gp_put_back_forward", t_la_gp_put_back_forward},
};
TCASE_MAIN(cases)
