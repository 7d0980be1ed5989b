/* The ref backend (cosim/ref/backend_ref.c, ref_*.c) on its own: the scheduler under time slices
 * (interleave shares, round robin, silent renewal, guests while a copy runs), acquire wake-up by a
 * write versus the retry interval, acquire timeouts of switched-out channels, reset semantics,
 * BAR0 details, bus-error records, the watchdog, fault injection, and that idle time is free.
 * Every case opens the "ref" backend whatever GPUCOSIM_BACKEND says. */
#include <time.h>

#include "cosim_util.h"
#include "tcase.h"

static gc_device_t *ref_open(uint64_t max_cycles, const char *inject) {
    gc_device_config_t cfg;
    gc_device_config_init(&cfg);
    cfg.backend = "ref";
    cfg.quiet = true;
    cfg.wait_cycles = 2000000;
    cfg.max_cycles = max_cycles;
    cfg.inject = inject;
    cfg.stall_pct = 0;
    gc_device_t *dev = NULL;
    if (gc_device_open(&cfg, &dev) != GC_OK) return NULL;
    return dev;
}

static gc_channel_t *open_ch(gc_device_t *dev, uint32_t runlist, uint32_t timeslice, uint32_t level,
                             uint32_t acq_timeout) {
    gc_channel_config_t cc;
    gc_channel_config_init(&cc);
    cc.runlist = runlist;
    cc.timeslice = timeslice;
    cc.interleave = level;
    cc.acq_timeout = acq_timeout;
    gc_channel_t *ch = NULL;
    if (gc_channel_open(dev, &cc, &ch) != GC_OK) fprintf(stderr, "open: %s\n", gc_device_last_error(dev));
    return ch;
}

static uint32_t rd(gc_device_t *dev, uint32_t off) {
    uint32_t v = 0xDEADBEEFu;
    gc_mmio_read(dev, off, &v);
    return v;
}

/* A long run of timestamped releases (one entry), so a channel stays busy for many slices. */
static gc_status_t submit_releases(gc_channel_t *ch, uint64_t addr, int n) {
    static uint32_t w[8 * 400];
    gc_pushbuf_t pb;
    gc_pb_init(&pb, w, 8 * 400);
    for (int k = 0; k < n && k < 400; k++) gc_pb_sem_release_ts(&pb, addr + 16u * (uint32_t)k, (uint32_t)k + 1, false, false);
    return gc_channel_submit(ch, &pb);
}

/* LOW / MEDIUM / HIGH get 1 / 2 / 3 slices per round: residency shares 1 : 2 : 3. */
static void t_interleave_shares(void) {
    gc_device_t *dev = ref_open(0, NULL);
    REQUIRE(dev);
    gc_channel_t *ch[3];
    gc_buf_t slots;
    REQUIRE_OK(dev, gc_mem_alloc(dev, GC_MEM_VIDMEM, 3 * 16 * 400, 64, &slots));
    for (uint32_t l = 0; l < 3; l++) REQUIRE((ch[l] = open_ch(dev, 0, 300, l, 0)));
    for (uint32_t l = 0; l < 3; l++) REQUIRE_OK(dev, submit_releases(ch[l], slots.addr + 16 * 400 * l, 400));
    uint32_t r0[3];
    for (uint32_t l = 0; l < 3; l++) r0[l] = rd(dev, GC_REG_CHANNEL_CYCLES_RESIDENT(gc_channel_id(ch[l])));
    REQUIRE_OK(dev, gc_device_run(dev, 30000)); /* every channel still has work */
    double res[3];
    for (uint32_t l = 0; l < 3; l++) {
        uint32_t st = rd(dev, GC_REG_CHANNEL_STATUS(gc_channel_id(ch[l])));
        CHECK_EQ(GC_CHANNEL_STATUS_PENDING_GET(st), 1);
        res[l] = rd(dev, GC_REG_CHANNEL_CYCLES_RESIDENT(gc_channel_id(ch[l]))) - r0[l];
    }
    fprintf(stderr, "resident LOW %.0f MEDIUM %.0f HIGH %.0f\n", res[0], res[1], res[2]);
    CHECK(res[1] / res[0] > 1.7 && res[1] / res[0] < 2.3);
    CHECK(res[2] / res[0] > 2.6 && res[2] / res[0] < 3.4);
    CHECK(rd(dev, GC_REG_CHANNEL_SWITCH_TIMESLICE(gc_channel_id(ch[0]))) >= 5);
    gc_device_close(dev);
}

/* Two equal channels alternate slice by slice; alone, a channel's slice is renewed silently. */
static void t_round_robin_and_renewal(void) {
    gc_device_t *dev = ref_open(0, NULL);
    REQUIRE(dev);
    gc_buf_t slots;
    REQUIRE_OK(dev, gc_mem_alloc(dev, GC_MEM_VIDMEM, 2 * 16 * 400, 64, &slots));
    gc_channel_t *a = open_ch(dev, 0, 500, 0, 0), *b = open_ch(dev, 0, 500, 0, 0);
    REQUIRE(a && b);
    REQUIRE_OK(dev, gc_channel_wait_idle(a)); /* the SET_OBJECT entries of both */
    REQUIRE_OK(dev, gc_channel_wait_idle(b));
    uint32_t sw0 = rd(dev, GC_REG_CHANNEL_SWITCH_TIMESLICE(gc_channel_id(a)));
    uint32_t res0 = rd(dev, GC_REG_CHANNEL_CYCLES_RESIDENT(gc_channel_id(a)));
    uint64_t t0 = gc_device_cycles(dev);
    REQUIRE_OK(dev, submit_releases(a, slots.addr, 400));
    REQUIRE_OK(dev, gc_channel_wait_idle(a)); /* alone: its slice is renewed, no switch */
    CHECK_EQ(rd(dev, GC_REG_CHANNEL_SWITCH_TIMESLICE(gc_channel_id(a))), sw0);
    CHECK(gc_device_cycles(dev) - t0 > 20 * 500); /* many slices long */
    CHECK(rd(dev, GC_REG_CHANNEL_CYCLES_RESIDENT(gc_channel_id(a))) - res0 > 20 * 500);
    uint32_t swa0 = rd(dev, GC_REG_CHANNEL_SWITCH_TIMESLICE(gc_channel_id(a)));
    uint32_t swb0 = rd(dev, GC_REG_CHANNEL_SWITCH_TIMESLICE(gc_channel_id(b)));
    REQUIRE_OK(dev, submit_releases(a, slots.addr, 400));
    REQUIRE_OK(dev, submit_releases(b, slots.addr + 16 * 400, 400));
    REQUIRE_OK(dev, gc_channel_wait_idle(a));
    REQUIRE_OK(dev, gc_channel_wait_idle(b));
    uint64_t sa[400], sb[400];
    for (int k = 0; k < 400; k++) {
        uint64_t rec[2];
        REQUIRE_OK(dev, gc_mem_read(dev, slots.addr + 16u * (uint32_t)k, rec, 16));
        sa[k] = rec[1];
        REQUIRE_OK(dev, gc_mem_read(dev, slots.addr + 16 * 400 + 16u * (uint32_t)k, rec, 16));
        sb[k] = rec[1];
    }
    /* turns alternate: count the changes of channel in completion order while both have work */
    int i = 0, j = 0, turns = 0, last = -1;
    while (i < 400 && j < 400) {
        int who = sa[i] < sb[j] ? 0 : 1;
        if (who) j++; else i++;
        if (who != last) turns++;
        last = who;
    }
    uint32_t swa = rd(dev, GC_REG_CHANNEL_SWITCH_TIMESLICE(gc_channel_id(a))) - swa0;
    uint32_t swb = rd(dev, GC_REG_CHANNEL_SWITCH_TIMESLICE(gc_channel_id(b))) - swb0;
    fprintf(stderr, "turns %d, TIMESLICE switches %u + %u\n", turns, swa, swb);
    CHECK(turns >= 10);
    CHECK((uint32_t)turns >= swa + swb - 1 && (uint32_t)turns <= swa + swb + 2);
    CHECK(swa >= swb ? swa - swb <= 1 : swb - swa <= 1);
    gc_device_close(dev);
}

/* The owner's copy runs; its next method waits, a guest runs host methods meanwhile; the guest's
 * own LAUNCH_DMA waits (ENGINE switch) until the owner's copy completed. */
static void t_guest_during_copy(void) {
    gc_device_t *dev = ref_open(0, NULL);
    REQUIRE(dev);
    gc_channel_t *own = open_ch(dev, 1, 100000, 0, 0), *guest = open_ch(dev, 1, 100000, 0, 0);
    REQUIRE(own && guest);
    gc_buf_t big, s;
    REQUIRE_OK(dev, gc_mem_alloc(dev, GC_MEM_VIDMEM, 1 << 17, 64, &big));
    REQUIRE_OK(dev, gc_mem_alloc(dev, GC_MEM_SYSMEM, 256, 64, &s));
    uint8_t zero[256] = {0};
    REQUIRE_OK(dev, gc_mem_write(dev, s.addr, zero, sizeof zero));
    uint32_t w[128];
    gc_pushbuf_t pb;
    gc_pb_init(&pb, w, 128);
    gc_copy_desc_t d = {.dst = big.addr + 65536, .src = big.addr, .line_bytes = 65536, .line_count = 1,
                        .sem = GC_COPY_SEM_FOUR_WORD, .sem_addr = s.addr, .sem_payload = 1};
    gc_pb_copy_desc(&pb, 4, &d);
    gc_pb_sem_release_ts(&pb, s.addr + 16, 2, false, false); /* waits for the copy */
    REQUIRE_OK(dev, gc_channel_submit(own, &pb));
    REQUIRE_OK(dev, gc_device_run(dev, 1000)); /* the copy is running */
    gc_pb_reset(&pb);
    gc_pb_sem_release_ts(&pb, s.addr + 32, 3, false, false); /* a guest's host method */
    gc_copy_desc_t g = {.dst = big.addr + 256, .src = big.addr, .line_bytes = 256, .line_count = 1,
                        .sem = GC_COPY_SEM_FOUR_WORD, .sem_addr = s.addr + 48, .sem_payload = 4};
    gc_pb_copy_desc(&pb, 4, &g);
    REQUIRE_OK(dev, gc_channel_submit(guest, &pb));
    REQUIRE_OK(dev, gc_channel_wait_idle(own));
    REQUIRE_OK(dev, gc_channel_wait_idle(guest));
    uint64_t rec[4][2];
    REQUIRE_OK(dev, gc_mem_read(dev, s.addr, rec, sizeof rec));
    fprintf(stderr, "copy done @%llu, owner release @%llu, guest release @%llu, guest copy @%llu\n",
            (unsigned long long)rec[0][1], (unsigned long long)rec[1][1], (unsigned long long)rec[2][1],
            (unsigned long long)rec[3][1]);
    CHECK(rec[2][1] < rec[0][1]); /* the guest's host method ran during the owner's copy */
    CHECK(rec[0][1] < rec[1][1]); /* the owner's next method after its copy */
    CHECK(rec[0][1] < rec[3][1]); /* the guest's copy after the owner's */
    CHECK(rd(dev, GC_REG_CHANNEL_SWITCH_ENGINE(gc_channel_id(own))) >= 1);
    CHECK(rd(dev, GC_REG_CHANNEL_SWITCH_ENGINE(gc_channel_id(guest))) >= 1);
    /* 64 KiB vidmem to vidmem at 8 bytes a cycle, plus latencies */
    CHECK(rd(dev, GC_REG_ENGINE_BUSY_CYCLES(0)) >= 65536 / 8);
    CHECK_EQ(rd(dev, GC_REG_ENGINE_BYTES(0)), 65536 + 256);
    gc_device_close(dev);
}

/* A semaphore write through the device wakes a switched-out acquire at once, a release (the atomic
 * unit) or a copy engine's plain data write (the crossbar's write snoop sees every device write);
 * a host write does not (no snoop): the acquire waits for its retry interval. */
static void t_acquire_wake(void) {
    for (int via = 2; via >= 0; via--) { /* 2: a copy onto the word, 1: a release, 0: a host write */
        bool via_device = via > 0;
        gc_device_t *dev = ref_open(0, NULL);
        REQUIRE(dev);
        REQUIRE_OK(dev, gc_mmio_write(dev, GC_REG_GLOBAL_ACQ_RETRY_INTERVAL, 20000));
        gc_channel_t *a = open_ch(dev, 1, 1024, 0, 0), *b = open_ch(dev, 2, 1024, 0, 0);
        REQUIRE(a && b);
        gc_buf_t s;
        REQUIRE_OK(dev, gc_mem_alloc(dev, GC_MEM_SYSMEM, 64, 64, &s));
        uint8_t zero[64] = {0};
        REQUIRE_OK(dev, gc_mem_write(dev, s.addr, zero, 64));
        uint32_t w[64];
        gc_pushbuf_t pb;
        gc_pb_init(&pb, w, 64);
        gc_pb_sem_acquire(&pb, s.addr, 7, GC_HOST_SEM_EXECUTE_OPERATION_ACQUIRE, false, true);
        REQUIRE_OK(dev, gc_channel_submit(a, &pb));
        REQUIRE_OK(dev, gc_device_run(dev, 2000)); /* a failed its acquire and switched out */
        CHECK_EQ(GC_CHANNEL_STATUS_ACQ_BLOCKED_GET(rd(dev, GC_REG_CHANNEL_STATUS(gc_channel_id(a)))), 1);
        if (via == 2) {
            uint32_t seven = 7;
            REQUIRE_OK(dev, gc_mem_write(dev, s.addr + 32, &seven, 4));
            gc_pb_reset(&pb);
            gc_pb_set_object(&pb, 0, GC_CLASS_COPY);
            gc_pb_copy(&pb, 0, s.addr, s.addr + 32, 4, false, 0, 0);
            REQUIRE_OK(dev, gc_channel_submit(b, &pb));
        } else if (via_device) {
            gc_pb_reset(&pb);
            gc_pb_sem_release(&pb, s.addr, 7, false, false);
            REQUIRE_OK(dev, gc_channel_submit(b, &pb));
        } else {
            uint32_t seven = 7;
            REQUIRE_OK(dev, gc_mem_write(dev, s.addr, &seven, 4));
        }
        REQUIRE_OK(dev, gc_channel_wait_idle(a));
        uint32_t blocked = rd(dev, GC_REG_CHANNEL_ACQ_BLOCKED_CYCLES(gc_channel_id(a)));
        fprintf(stderr, "%s: blocked %u cycles\n", via == 2 ? "copy onto the word" : via ? "device release" : "host write",
                blocked);
        if (via_device) CHECK(blocked < 3000);
        else CHECK(blocked >= 20000 && blocked < 21000);
        CHECK(rd(dev, GC_REG_CHANNEL_SWITCH_ACQUIRE(gc_channel_id(a))) >= 1);
        gc_device_close(dev);
    }
}

/* A switched-out acquire times out with the SEM_EXECUTE record; the other channel is unaffected. */
static void t_acquire_timeout_switched_out(void) {
    gc_device_t *dev = ref_open(0, NULL);
    REQUIRE(dev);
    gc_channel_t *a = open_ch(dev, 2, 1024, 0, 2000), *b = open_ch(dev, 2, 1024, 0, 0);
    REQUIRE(a && b);
    gc_buf_t s, big;
    REQUIRE_OK(dev, gc_mem_alloc(dev, GC_MEM_SYSMEM, 64, 64, &s));
    REQUIRE_OK(dev, gc_mem_alloc(dev, GC_MEM_VIDMEM, 65536, 64, &big));
    uint8_t zero[64] = {0};
    REQUIRE_OK(dev, gc_mem_write(dev, s.addr, zero, 64));
    uint32_t w[64];
    gc_pushbuf_t pb;
    gc_pb_init(&pb, w, 64);
    uint32_t exec = GC_HOST_SEM_EXECUTE_OPERATION(GC_HOST_SEM_EXECUTE_OPERATION_ACQUIRE) |
                    GC_HOST_SEM_EXECUTE_ACQUIRE_SWITCH_TSG(GC_HOST_SEM_EXECUTE_ACQUIRE_SWITCH_TSG_EN);
    gc_pb_sem_execute(&pb, s.addr, 3, exec);
    REQUIRE_OK(dev, gc_channel_submit(a, &pb));
    gc_pb_reset(&pb);
    gc_pb_copy(&pb, 4, big.addr + 32768, big.addr, 32768, false, 0, 0);
    gc_pb_sem_release(&pb, s.addr + 8, 9, false, true);
    REQUIRE_OK(dev, gc_channel_submit(b, &pb));
    REQUIRE_OK(dev, gc_channel_wait_idle(b));
    CHECK_EQ(gc_channel_wait_idle(a), GC_ERR_CHANNEL_FAULT);
    gc_channel_error_t e;
    REQUIRE_OK(dev, gc_channel_error(a, &e));
    CHECK_EQ(e.cause, GC_ERROR_CAUSE_ACQUIRE_TIMEOUT);
    CHECK_EQ(e.gp_get, 1);
    CHECK_EQ(e.method, GC_CHANNEL_ERROR_METHOD_ADDRESS(GC_HOST_SEM_EXECUTE / 4));
    CHECK_EQ(e.data, exec);
    uint32_t blocked = rd(dev, GC_REG_CHANNEL_ACQ_BLOCKED_CYCLES(gc_channel_id(a)));
    CHECK(blocked > 2000 && blocked < 2300);
    CHECK_EQ(rd(dev, GC_REG_GLOBAL_FAULT_CHANNELS), 1u << gc_channel_id(a));
    gc_device_close(dev);
}

/* CTRL.RESET clears the error, GP_GET / GP_PUT and ENABLE, keeps configuration and counters. */
static void t_reset_semantics(void) {
    gc_device_t *dev = ref_open(0, NULL);
    REQUIRE(dev);
    gc_channel_t *c = open_ch(dev, 2, 777, GC_CHANNEL_INTERLEAVE_LEVEL_MEDIUM, 4321);
    REQUIRE(c);
    uint32_t id = gc_channel_id(c), w[8];
    gc_pushbuf_t pb;
    gc_pb_init(&pb, w, 8);
    gc_pb_method(&pb, 0, GC_HOST_NOP, 0);
    gc_pb_method(&pb, 0, 0x00F0, 1); /* unknown host method */
    REQUIRE_OK(dev, gc_channel_submit(c, &pb));
    CHECK_EQ(gc_channel_wait_idle(c), GC_ERR_CHANNEL_FAULT);
    uint32_t methods = rd(dev, GC_REG_CHANNEL_METHODS(id));
    CHECK_EQ(methods, 2); /* SET_OBJECT, NOP */
    CHECK_EQ(GC_GLOBAL_INTR_STATUS_CHANNEL_FAULT_GET(rd(dev, GC_REG_GLOBAL_INTR_STATUS)), 1);
    REQUIRE_OK(dev, gc_mmio_write(dev, GC_REG_CHANNEL_CTRL(id), GC_CHANNEL_CTRL_RESET(1) | GC_CHANNEL_CTRL_ENABLE(1)));
    CHECK_EQ(rd(dev, GC_REG_CHANNEL_ERROR(id)), GC_ERROR_CAUSE_NONE);
    CHECK_EQ(rd(dev, GC_REG_CHANNEL_CTRL(id)), 0); /* RESET wins over ENABLE */
    CHECK_EQ(rd(dev, GC_REG_CHANNEL_GP_GET(id)), 0);
    CHECK_EQ(rd(dev, GC_REG_CHANNEL_GP_PUT(id)), 0);
    CHECK_EQ(rd(dev, GC_REG_CHANNEL_TIMESLICE(id)), 777);
    CHECK_EQ(rd(dev, GC_REG_CHANNEL_INTERLEAVE(id)), GC_CHANNEL_INTERLEAVE_LEVEL(GC_CHANNEL_INTERLEAVE_LEVEL_MEDIUM));
    CHECK_EQ(rd(dev, GC_REG_CHANNEL_ACQ_TIMEOUT(id)), 4321);
    CHECK_EQ(rd(dev, GC_REG_CHANNEL_RUNLIST(id)), 2);
    CHECK_EQ(rd(dev, GC_REG_CHANNEL_METHODS(id)), methods);
    CHECK_EQ(rd(dev, GC_REG_GLOBAL_FAULT_CHANNELS), 0);
    /* the interrupt stays pending until written 1 */
    CHECK_EQ(GC_GLOBAL_INTR_STATUS_CHANNEL_FAULT_GET(rd(dev, GC_REG_GLOBAL_INTR_STATUS)), 1);
    REQUIRE_OK(dev, gc_mmio_write(dev, GC_REG_GLOBAL_INTR_STATUS, GC_GLOBAL_INTR_STATUS_CHANNEL_FAULT(1)));
    CHECK_EQ(rd(dev, GC_REG_GLOBAL_INTR_STATUS), 0);
    REQUIRE_OK(dev, gc_channel_reset(c)); /* the driver reprograms the ring and rebinds */
    roundtrip_t r = util_roundtrip(dev, c, 300, 1, 2, 5);
    CHECK_EQ(r.status, GC_OK);
    CHECK_EQ(r.vid_bad + r.dst_bad, 0);
    gc_device_close(dev);
}

/* BAR0: unmapped offsets answer SLVERR, read-only writes are ignored, reset values, BAD_RING. */
static void t_registers(void) {
    gc_device_t *dev = ref_open(0, NULL);
    REQUIRE(dev);
    uint32_t v;
    CHECK_EQ(gc_mmio_read(dev, GC_REG_CHANNEL_BASE + 0x1C, &v), GC_ERR_BUS);
    CHECK_EQ(gc_mmio_read(dev, GC_REG_CHANNEL_BASE + GC_NUM_CHANNELS * GC_REG_CHANNEL_STRIDE, &v), GC_ERR_BUS);
    CHECK_EQ(gc_mmio_read(dev, GC_REG_ENGINE_BASE + GC_NUM_CE * GC_REG_ENGINE_STRIDE, &v), GC_ERR_BUS);
    CHECK_EQ(gc_mmio_write(dev, GC_REG_RUNLIST_BASE + 8, 1), GC_ERR_BUS);
    CHECK_EQ(gc_mmio_write(dev, GC_REG_RUNLIST_SWITCHES(1), 5), GC_OK);
    CHECK_EQ(rd(dev, GC_REG_RUNLIST_SWITCHES(1)), 0);
    CHECK_EQ(rd(dev, GC_REG_GLOBAL_VERSION + 2), GC_VERSION); /* byte lanes of one register */
    CHECK_EQ(rd(dev, GC_REG_GLOBAL_ACQ_RETRY_INTERVAL), 64);
    CHECK_EQ(rd(dev, GC_REG_CHANNEL_TIMESLICE(5)), 1024);
    uint32_t intr_bits = GC_GLOBAL_INTR_ENABLE_CHANNEL_FAULT(1) | GC_GLOBAL_INTR_ENABLE_NON_STALL(1) |
                         GC_GLOBAL_INTR_ENABLE_TASK_FAULT(1) | GC_GLOBAL_INTR_ENABLE_LAUNCH_FAIL(1);
    REQUIRE_OK(dev, gc_mmio_write(dev, GC_REG_GLOBAL_INTR_ENABLE, 0xFFFFFFFFu));
    CHECK_EQ(rd(dev, GC_REG_GLOBAL_INTR_ENABLE), intr_bits); /* only the defined bits */
    /* enable with no ring size, then a bad size written while enabled */
    REQUIRE_OK(dev, gc_mmio_write(dev, GC_REG_CHANNEL_CTRL(9), GC_CHANNEL_CTRL_ENABLE(1)));
    CHECK_EQ(rd(dev, GC_REG_CHANNEL_ERROR(9)), GC_ERROR_CAUSE_BAD_RING);
    CHECK(gc_device_irq(dev));
    REQUIRE_OK(dev, gc_mmio_write(dev, GC_REG_CHANNEL_CTRL(9), GC_CHANNEL_CTRL_RESET(1)));
    REQUIRE_OK(dev, gc_mmio_write(dev, GC_REG_CHANNEL_GPFIFO_SIZE(9), GC_CHANNEL_GPFIFO_SIZE_LOG2(3)));
    REQUIRE_OK(dev, gc_mmio_write(dev, GC_REG_CHANNEL_CTRL(9), GC_CHANNEL_CTRL_ENABLE(1)));
    CHECK_EQ(rd(dev, GC_REG_CHANNEL_ERROR(9)), GC_ERROR_CAUSE_NONE);
    REQUIRE_OK(dev, gc_mmio_write(dev, GC_REG_CHANNEL_GPFIFO_SIZE(9), GC_CHANNEL_GPFIFO_SIZE_LOG2(20)));
    CHECK_EQ(rd(dev, GC_REG_CHANNEL_ERROR(9)), GC_ERROR_CAUSE_BAD_RING);
    CHECK_EQ(rd(dev, GC_REG_CHANNEL_ERROR_DATA(9)), 20);
    /* host access outside the windows */
    CHECK_EQ(gc_mem_read(dev, GC_SYSMEM_BASE + GC_SYSMEM_SIZE - 2, &v, 4), GC_ERR_INVALID_ARG);
    CHECK_EQ(gc_mem_write(dev, GC_VIDMEM_BASE - 4, &v, 4), GC_ERR_INVALID_ARG);
    CHECK_EQ(gc_mem_read(dev, GC_VIDMEM_BASE + GC_VIDMEM_SIZE - 4, &v, 4), GC_OK);
    gc_device_close(dev);
}

/* Bus errors on the channel's own reads: ERROR_DATA holds the entry or segment address. */
static void t_fetch_bus_errors(void) {
    gc_device_t *dev = ref_open(0, NULL);
    REQUIRE(dev);
    gc_channel_t *c = open_ch(dev, 1, 1024, 0, 0);
    REQUIRE(c);
    uint64_t bad = GC_SYSMEM_BASE + GC_SYSMEM_SIZE + 0x100;
    REQUIRE_OK(dev, gc_channel_submit_entry(c, gc_gp_entry0(bad),
                                            gc_gp_entry1(bad, 4, GC_GP_ENTRY1_LEVEL_MAIN, GC_GP_ENTRY1_SYNC_PROCEED)));
    CHECK_EQ(gc_channel_wait_idle(c), GC_ERR_CHANNEL_FAULT);
    gc_channel_error_t e;
    REQUIRE_OK(dev, gc_channel_error(c, &e));
    CHECK_EQ(e.cause, GC_ERROR_CAUSE_BUS_ERROR);
    CHECK_EQ(e.data, (uint32_t)bad);
    CHECK_EQ(e.method, 0);
    /* FETCH CONDITIONAL is UNSUPPORTED (data: entry word 0); SUBROUTINE is an invalid entry */
    REQUIRE_OK(dev, gc_channel_reset(c));
    gc_buf_t s;
    REQUIRE_OK(dev, gc_mem_alloc(dev, GC_MEM_SYSMEM, 64, 64, &s));
    uint32_t e0 = gc_gp_entry0(s.addr) | GC_GP_ENTRY0_FETCH(1);
    REQUIRE_OK(dev, gc_channel_submit_entry(c, e0, gc_gp_entry1(s.addr, 2, GC_GP_ENTRY1_LEVEL_MAIN, 0)));
    CHECK_EQ(gc_channel_wait_idle(c), GC_ERR_CHANNEL_FAULT);
    REQUIRE_OK(dev, gc_channel_error(c, &e));
    CHECK_EQ(e.cause, GC_ERROR_CAUSE_UNSUPPORTED);
    CHECK_EQ(e.data, e0);
    REQUIRE_OK(dev, gc_channel_reset(c));
    uint32_t e1 = gc_gp_entry1(s.addr, 2, GC_GP_ENTRY1_LEVEL_SUBROUTINE, 0);
    REQUIRE_OK(dev, gc_channel_submit_entry(c, gc_gp_entry0(s.addr), e1));
    CHECK_EQ(gc_channel_wait_idle(c), GC_ERR_CHANNEL_FAULT);
    REQUIRE_OK(dev, gc_channel_error(c, &e));
    CHECK_EQ(e.cause, GC_ERROR_CAUSE_INVALID_GPFIFO_ENTRY);
    CHECK_EQ(e.data, e1);
    /* a ring outside memory: the entry address */
    REQUIRE_OK(dev, gc_mmio_write(dev, GC_REG_CHANNEL_CTRL(5), GC_CHANNEL_CTRL_RESET(1)));
    REQUIRE_OK(dev, gc_mmio_write(dev, GC_REG_CHANNEL_GPFIFO_BASE_LO(5), (uint32_t)bad));
    REQUIRE_OK(dev, gc_mmio_write(dev, GC_REG_CHANNEL_GPFIFO_SIZE(5), GC_CHANNEL_GPFIFO_SIZE_LOG2(2)));
    REQUIRE_OK(dev, gc_mmio_write(dev, GC_REG_CHANNEL_CTRL(5), GC_CHANNEL_CTRL_ENABLE(1)));
    REQUIRE_OK(dev, gc_mmio_write(dev, GC_REG_CHANNEL_GP_PUT(5), 1));
    REQUIRE_OK(dev, gc_device_run(dev, 500));
    CHECK_EQ(rd(dev, GC_REG_CHANNEL_ERROR(5)), GC_ERROR_CAUSE_BUS_ERROR);
    CHECK_EQ(rd(dev, GC_REG_CHANNEL_ERROR_DATA(5)), (uint32_t)bad);
    gc_device_close(dev);
}

/* Copy-class methods on the compute runlist (no engine) fault UNSUPPORTED after SET_OBJECT. */
static void t_compute_runlist_copy(void) {
    gc_device_t *dev = ref_open(0, NULL);
    REQUIRE(dev);
    gc_channel_t *c = open_ch(dev, 0, 1024, 0, 0);
    REQUIRE(c);
    REQUIRE_OK(dev, gc_copy(c, GC_VIDMEM_BASE, GC_VIDMEM_BASE + 4096, 64, 0, 0));
    CHECK_EQ(gc_channel_wait_idle(c), GC_ERR_CHANNEL_FAULT);
    gc_channel_error_t e;
    REQUIRE_OK(dev, gc_channel_error(c, &e));
    CHECK_EQ(e.cause, GC_ERROR_CAUSE_UNSUPPORTED);
    CHECK_EQ(e.method, GC_CHANNEL_ERROR_METHOD_SUBCHANNEL(4) | GC_CHANNEL_ERROR_METHOD_ADDRESS(GC_COPY_OFFSET_IN_UPPER / 4));
    gc_device_close(dev);
}

/* Idle time is free; a 1 MiB copy takes its cycles but little wall time. */
static void t_speed(void) {
    gc_device_t *dev = ref_open(0, NULL);
    REQUIRE(dev);
    clock_t t0 = clock();
    REQUIRE_OK(dev, gc_device_run(dev, 1000000000ull));
    CHECK(gc_device_cycles(dev) >= 1000000000ull);
    gc_channel_t *c = open_ch(dev, 1, 1024, 0, 0);
    REQUIRE(c);
    gc_buf_t a, b;
    REQUIRE_OK(dev, gc_mem_alloc(dev, GC_MEM_VIDMEM, 1 << 20, 64, &a));
    REQUIRE_OK(dev, gc_mem_alloc(dev, GC_MEM_VIDMEM, 1 << 20, 64, &b));
    uint64_t c0 = gc_device_cycles(dev);
    REQUIRE_OK(dev, gc_copy(c, b.addr, a.addr, 1 << 20, 0, 0));
    REQUIRE_OK(dev, gc_channel_wait_idle(c));
    uint64_t cyc = gc_device_cycles(dev) - c0;
    double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    fprintf(stderr, "1e9 idle cycles + 1 MiB copy (%llu cycles): %.3f s\n", (unsigned long long)cyc, secs);
    CHECK(cyc >= (1u << 20) / 8 && cyc < (1u << 20) / 8 + 2000);
    CHECK(secs < 1.0);
    gc_device_close(dev);
}

/* GPUCOSIM_MAX_CYCLES: the run stops at the limit, and nothing runs after it. */
static void t_watchdog(void) {
    gc_device_t *dev = ref_open(5000, NULL);
    REQUIRE(dev);
    CHECK_EQ(gc_device_run(dev, 1000), GC_OK);
    CHECK_EQ(gc_device_run(dev, 10000), GC_ERR_TIMEOUT);
    CHECK_EQ(gc_device_cycles(dev), 5000);
    uint32_t v;
    CHECK_EQ(gc_mmio_read(dev, GC_REG_GLOBAL_ID, &v), GC_ERR_TIMEOUT);
    CHECK_EQ(gc_device_cycles(dev), 5000);
    gc_device_close(dev);
}

/* The memory model's fault injection maps onto ref: a flipped byte, lost releases, stuck reads. */
static void t_inject(void) {
    static const char *const modes[] = {"flip-write", "drop-sem", "stall-reads"};
    for (int m = 0; m < 3; m++) {
        gc_device_t *dev = ref_open(0, modes[m]);
        REQUIRE(dev);
        gc_channel_t *c = open_ch(dev, 1, 1024, 0, 0);
        REQUIRE(c);
        roundtrip_t r = util_roundtrip(dev, c, 4096, 0, 0, 1);
        fprintf(stderr, "%s: status %s, %zu + %zu bad bytes, CE release %u\n", modes[m], gc_status_str(r.status),
                r.vid_bad, r.dst_bad, r.ce_sem);
        if (m == 0) CHECK(r.status == GC_OK && r.vid_bad + r.dst_bad > 0);
        else CHECK_EQ(r.status, GC_ERR_TIMEOUT);
        if (m == 1) CHECK(r.ce_sem != 1 && r.host_sem != RT_HOST_PAYLOAD);
        if (m == 2) CHECK(r.dst_bad > 0);
        gc_device_close(dev);
    }
    gc_device_config_t cfg;
    gc_device_config_init(&cfg);
    cfg.backend = "ref";
    cfg.quiet = true;
    cfg.inject = "nonsense";
    gc_device_t *dev = NULL;
    CHECK_EQ(gc_device_open(&cfg, &dev), GC_ERR_BACKEND);
}

/* The allocators never hand out (or reserve) a window's NULL guard, the first bytes of sysmem and
 * vidmem that no SIMT thread reaches: the first allocation is the first byte past it, the whole
 * rest of the window can be allocated and one byte more cannot, and a reservation touching the
 * guard (at 0, or ending at its first byte) is refused naming it. */
static void t_null_guard_alloc(void) {
    gc_device_t *dev = ref_open(0, NULL);
    REQUIRE(dev);
    static const struct {
        gc_mem_kind_t kind;
        uint64_t base, size, guard;
    } w[2] = {{GC_MEM_SYSMEM, GC_SYSMEM_BASE, GC_SYSMEM_SIZE, GC_SIMT_WIN_SYSMEM_GUARD},
              {GC_MEM_VIDMEM, GC_VIDMEM_BASE, GC_VIDMEM_SIZE, GC_SIMT_WIN_VIDMEM_GUARD}};
    for (int i = 0; i < 2; i++) {
        gc_buf_t b, all, r;
        CHECK(w[i].guard > 0);
        CHECK_EQ(gc_mem_alloc(dev, w[i].kind, 64, 64, &b), GC_OK);
        CHECK_EQ(b.addr, w[i].base + w[i].guard);
        CHECK_EQ(gc_mem_free(dev, &b), GC_OK);
        CHECK_EQ(gc_mem_alloc(dev, w[i].kind, w[i].size - w[i].guard + 1, 64, &all), GC_ERR_NO_MEMORY);
        CHECK_EQ(gc_mem_alloc(dev, w[i].kind, w[i].size - w[i].guard, 64, &all), GC_OK);
        CHECK_EQ(all.addr, w[i].base + w[i].guard);
        CHECK_EQ(gc_mem_free(dev, &all), GC_OK);
        CHECK_EQ(gc_mem_reserve(dev, w[i].kind, w[i].base, 4, &r), GC_ERR_INVALID_ARG);
        CHECK(strstr(gc_device_last_error(dev), "NULL guard") != NULL);
        CHECK_EQ(gc_mem_reserve(dev, w[i].kind, w[i].base + w[i].guard - 4, 8, &r), GC_ERR_INVALID_ARG);
        CHECK(strstr(gc_device_last_error(dev), "NULL guard") != NULL);
        CHECK_EQ(gc_mem_reserve(dev, w[i].kind, w[i].base + w[i].guard, 8, &r), GC_OK);
        CHECK_EQ(gc_mem_free(dev, &r), GC_OK);
    }
    gc_device_close(dev);
}

static const tcase_t cases[] = {
    {"ref_null_guard_alloc", t_null_guard_alloc},
    {"ref_interleave_shares", t_interleave_shares},
    {"ref_round_robin_and_renewal", t_round_robin_and_renewal},
    {"ref_guest_during_copy", t_guest_during_copy},
    {"ref_acquire_wake", t_acquire_wake},
    {"ref_acquire_timeout_switched_out", t_acquire_timeout_switched_out},
    {"ref_reset_semantics", t_reset_semantics},
    {"ref_registers", t_registers},
    {"ref_fetch_bus_errors", t_fetch_bus_errors},
    {"ref_compute_runlist_copy", t_compute_runlist_copy},
    {"ref_speed", t_speed},
    {"ref_watchdog", t_watchdog},
    {"ref_inject", t_inject},
};
TCASE_MAIN(cases)
