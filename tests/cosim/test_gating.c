/* Engine clock gating (rtl backend; GLOBAL.CLOCK_GATING, rtl/gc_idle_gate.sv): an idle PBDMA,
 * copy engine or compute engine has its clock stopped (its GATED_CYCLES counter grows over an
 * idle stretch), wakes in the cycle of its first doorbell, copy or launch, and the device does the
 * same thing cycle for cycle as with gating off: every run below is made twice, with gating on and
 * with GLOBAL.CLOCK_GATING.DISABLE = 1, and every cycle figure and counter read over MMIO must be
 * equal (what the gating guarantees: it stops a clock only when no register would change).
 * That holds for any memory-model seed and stall percentage (GPUCOSIM_SEED / GPUCOSIM_STALL_PCT):
 * both runs see the same stalls. */
#include "cosim_util.h"
#include "gc_kernels.h"
#include "gpucosim/runtime.h"
#include "tcase.h"

#ifndef GC_FIRMWARE_DIR
#define GC_FIRMWARE_DIR "build/firmware"
#endif

#define IDLE_STRETCH 4000u
#define GATE_HOLD 8u /* gpu_top GATE_HOLD: ungated cycles after an engine's last activity */

static uint32_t rd(gc_device_t *dev, uint32_t off) {
    uint32_t v = 0xDEADBEEFu;
    CHECK_EQ(gc_mmio_read(dev, off, &v), GC_OK);
    return v;
}

/* The engines' GATED_CYCLES: PBDMAs 0..2, CE0, CE1, the compute engine. */
enum { G_PB0, G_PB1, G_PB2, G_CE0, G_CE1, G_CP, G_N };
static void read_gated(gc_device_t *dev, uint32_t g[G_N]) {
    for (uint32_t n = 0; n < GC_NUM_RUNLISTS; n++) g[G_PB0 + n] = rd(dev, GC_REG_RUNLIST_GATED_CYCLES(n));
    for (uint32_t n = 0; n < GC_NUM_CE; n++) g[G_CE0 + n] = rd(dev, GC_REG_ENGINE_GATED_CYCLES(n));
    g[G_CP] = rd(dev, GC_REG_COMPUTE_GATED_CYCLES);
}

/* An idle stretch: after SETTLE cycles for what the caller started (a channel's SET_OBJECT, a
 * fence's acknowledgement), every engine is stopped with gating on for all of it but the HOLD
 * cycles after the last register write; with gating off nothing is stopped.  GLOBAL.CYCLE
 * advances exactly as the harness counts. */
#define SETTLE 2000u
static void idle_stretch(gc_device_t *dev, bool gating) {
    uint32_t g0[G_N], g1[G_N];
    REQUIRE_OK(dev, gc_device_run(dev, SETTLE));
    read_gated(dev, g0);
    uint32_t c0 = rd(dev, GC_REG_GLOBAL_CYCLE_LO);
    uint64_t h0 = gc_device_cycles(dev);
    REQUIRE_OK(dev, gc_device_run(dev, IDLE_STRETCH));
    uint32_t c1 = rd(dev, GC_REG_GLOBAL_CYCLE_LO);
    uint64_t h1 = gc_device_cycles(dev);
    CHECK_EQ(c1 - c0, (uint32_t)(h1 - h0));
    read_gated(dev, g1);
    for (int k = 0; k < G_N; k++) {
        uint32_t d = g1[k] - g0[k];
        if (gating) {
            if (d < IDLE_STRETCH - 4 * GATE_HOLD || d > (uint32_t)(h1 - h0) + 64)
                TCASE_FAIL_("engine %d: %u cycles gated in an idle stretch of %u", k, d, IDLE_STRETCH);
        } else {
            CHECK_EQ(d, 0);
        }
    }
}

static void set_gating(gc_device_t *dev, bool on) {
    REQUIRE_OK(dev, gc_mmio_write(dev, GC_REG_GLOBAL_CLOCK_GATING, GC_GLOBAL_CLOCK_GATING_DISABLE(on ? 0 : 1)));
    CHECK_EQ(rd(dev, GC_REG_GLOBAL_CLOCK_GATING), GC_GLOBAL_CLOCK_GATING_DISABLE(on ? 0 : 1));
}

/* A device with gating on or off and one channel; NULL (the failure recorded) if not. */
static gc_device_t *open_with_channel(bool gating, gc_channel_t **ch) {
    gc_device_t *dev = util_open(NULL);
    if (!dev) {
        TCASE_FAIL_("no device");
        return NULL;
    }
    set_gating(dev, gating);
    if (gc_channel_open(dev, NULL, ch) != GC_OK) {
        TCASE_FAIL_("gc_channel_open: %s", gc_device_last_error(dev));
        gc_device_close(dev);
        return NULL;
    }
    return dev;
}

typedef struct copy_run {
    roundtrip_t r[2];
    uint32_t busy_ce0, bytes_ce0, methods, resident, switches, switch_empty, cycle_lo;
    uint64_t cycles;
} copy_run_t;

/* Two round trips through CE0, each after an idle stretch: the first doorbell after the stretch
 * finds PBDMA 1 and CE0 gated. */
static copy_run_t copy_run(bool gating) {
    copy_run_t o;
    memset(&o, 0, sizeof o);
    gc_channel_t *ch;
    gc_device_t *dev = open_with_channel(gating, &ch);
    if (!dev) return o;
    for (int i = 0; i < 2; i++) {
        idle_stretch(dev, gating);
        uint32_t ce1_0 = rd(dev, GC_REG_ENGINE_GATED_CYCLES(1));
        uint64_t t0 = gc_device_cycles(dev);
        o.r[i] = util_roundtrip(dev, ch, 4096 * (uint32_t)(i + 1), 0, 0, 7 + (uint64_t)i);
        CHECK_EQ(o.r[i].status, GC_OK);
        CHECK_EQ(o.r[i].vid_bad + o.r[i].dst_bad, 0);
        CHECK_EQ(o.r[i].ce_sem, 1);
        CHECK_EQ(o.r[i].host_sem, RT_HOST_PAYLOAD);
        CHECK_EQ(util_wait_left(dev, gc_channel_id(ch), 100000), GC_OK);
        uint32_t d = rd(dev, GC_REG_ENGINE_GATED_CYCLES(1)) - ce1_0;
        if (gating && d + 64 < (uint32_t)(gc_device_cycles(dev) - t0))
            TCASE_FAIL_("round trip %d: CE1 (no work) gated only %u of %llu cycles", i, d,
                        (unsigned long long)(gc_device_cycles(dev) - t0));
    }
    o.busy_ce0 = rd(dev, GC_REG_ENGINE_BUSY_CYCLES(0));
    o.bytes_ce0 = rd(dev, GC_REG_ENGINE_BYTES(0));
    uint32_t id = gc_channel_id(ch);
    o.methods = rd(dev, GC_REG_CHANNEL_METHODS(id));
    o.resident = rd(dev, GC_REG_CHANNEL_CYCLES_RESIDENT(id));
    o.switches = rd(dev, GC_REG_RUNLIST_SWITCHES(1));
    o.switch_empty = rd(dev, GC_REG_CHANNEL_SWITCH_EMPTY(id));
    o.cycles = gc_device_cycles(dev);
    o.cycle_lo = rd(dev, GC_REG_GLOBAL_CYCLE_LO);
    gc_device_close(dev);
    return o;
}

/* A gated PBDMA and copy engine wake on the first doorbell: the copies take exactly as many cycles
 * as with gating off, and every counter reads the same. */
static void t_copy_wakes_on_doorbell(void) {
    copy_run_t on = copy_run(true), off = copy_run(false);
    for (int i = 0; i < 2; i++) {
        fprintf(stderr, "round trip %d: %llu cycles gated, %llu ungated\n", i, (unsigned long long)on.r[i].cycles,
                (unsigned long long)off.r[i].cycles);
        CHECK_EQ(on.r[i].cycles, off.r[i].cycles);
    }
    CHECK_EQ(on.busy_ce0, off.busy_ce0);
    CHECK_EQ(on.bytes_ce0, off.bytes_ce0);
    CHECK_EQ(on.bytes_ce0, 2 * (4096 + 8192));
    CHECK_EQ(on.methods, off.methods);
    CHECK_EQ(on.resident, off.resident);
    CHECK(on.resident > 0);
    CHECK_EQ(on.switches, off.switches);
    CHECK_EQ(on.switch_empty, off.switch_empty);
    CHECK_EQ(on.cycles, off.cycles);
    CHECK_EQ(on.cycle_lo, off.cycle_lo);
}

/* Counters over MMIO across gated stretches: CYCLES_RESIDENT and ACQ_BLOCKED_CYCLES of a channel
 * blocked on an acquire (its PBDMA keeps running: a blocked channel is work) while the other
 * engines are gated, then released by the host; same figures with gating off. */
typedef struct acq_run {
    uint32_t blocked, resident, sw_acq, methods, cycle_lo;
    uint32_t ce_gated; /* CE0 + CE1 gated cycles during the wait */
} acq_run_t;

static acq_run_t acq_run(bool gating) {
    acq_run_t o;
    memset(&o, 0, sizeof o);
    gc_channel_t *ch;
    gc_buf_t sem;
    gc_device_t *dev = open_with_channel(gating, &ch);
    if (!dev) return o;
    if (gc_mem_alloc(dev, GC_MEM_SYSMEM, 64, 64, &sem) != GC_OK) {
        TCASE_FAIL_("gc_mem_alloc: %s", gc_device_last_error(dev));
        gc_device_close(dev);
        return o;
    }
    uint8_t zero[64] = {0};
    gc_mem_write(dev, sem.addr, zero, sizeof zero);
    idle_stretch(dev, gating);
    uint32_t words[32];
    gc_pushbuf_t pb;
    gc_pb_init(&pb, words, 32);
    gc_pb_sem_acquire(&pb, sem.addr, 5, GC_HOST_SEM_EXECUTE_OPERATION_ACQUIRE, false, true);
    gc_pb_sem_release(&pb, sem.addr + 8, 9, false, false);
    uint32_t ce0 = rd(dev, GC_REG_ENGINE_GATED_CYCLES(0)) + rd(dev, GC_REG_ENGINE_GATED_CYCLES(1));
    if (gc_channel_submit(ch, &pb) != GC_OK) {
        TCASE_FAIL_("submit: %s", gc_device_last_error(dev));
        gc_device_close(dev);
        return o;
    }
    CHECK_EQ(gc_device_run(dev, IDLE_STRETCH), GC_OK);
    o.ce_gated = rd(dev, GC_REG_ENGINE_GATED_CYCLES(0)) + rd(dev, GC_REG_ENGINE_GATED_CYCLES(1)) - ce0;
    uint32_t five = 5;
    gc_mem_write(dev, sem.addr, &five, 4);
    uint64_t got = 0;
    CHECK_EQ(gc_sem_wait(dev, sem.addr + 8, 9, NULL), GC_OK);
    gc_mem_read(dev, sem.addr + 8, &got, 4);
    CHECK_EQ(got, 9);
    CHECK_EQ(util_wait_left(dev, gc_channel_id(ch), 100000), GC_OK);
    idle_stretch(dev, gating);
    uint32_t id = gc_channel_id(ch);
    o.blocked = rd(dev, GC_REG_CHANNEL_ACQ_BLOCKED_CYCLES(id));
    o.resident = rd(dev, GC_REG_CHANNEL_CYCLES_RESIDENT(id));
    o.sw_acq = rd(dev, GC_REG_CHANNEL_SWITCH_ACQUIRE(id));
    o.methods = rd(dev, GC_REG_CHANNEL_METHODS(id));
    o.cycle_lo = rd(dev, GC_REG_GLOBAL_CYCLE_LO);
    gc_device_close(dev);
    return o;
}

static void t_counters_exact(void) {
    acq_run_t on = acq_run(true), off = acq_run(false);
    fprintf(stderr, "acquire blocked %u cycles (ungated %u), resident %u (%u)\n", on.blocked, off.blocked,
            on.resident, off.resident);
    CHECK(on.blocked >= IDLE_STRETCH / 2);
    CHECK_EQ(on.blocked, off.blocked);
    CHECK_EQ(on.resident, off.resident);
    CHECK_EQ(on.sw_acq, off.sw_acq);
    CHECK_EQ(on.methods, off.methods);
    CHECK_EQ(on.cycle_lo, off.cycle_lo);
    /* the copy engines had no work while the channel waited: stopped all along with gating on */
    CHECK(on.ce_gated >= 2 * (IDLE_STRETCH - 4 * GATE_HOLD));
    CHECK_EQ(off.ce_gated, 0);
}

/* The compute engine (and its SMs) wakes on the first launch after an idle stretch: the kernel
 * starts and ends at the same cycles, with the same results, as with gating off. */
typedef struct launch_run {
    bool ok;
    uint64_t start, end, cycles;
    uint32_t active, winstr, sum;
} launch_run_t;

static launch_run_t launch_run(bool gating) {
    launch_run_t o;
    memset(&o, 0, sizeof o);
    gc_elf_t *img = NULL;
    char why[256];
    gcrt_t *rt = util_open_rt_image(GC_FIRMWARE_DIR "/kernels.elf", &img, why, sizeof why);
    if (!rt) {
        TCASE_FAIL_("runtime: %s", why);
        return o;
    }
    gc_device_t *dev = gcrt_device(rt);
    set_gating(dev, gating);
    enum { N = 256 };
    uint32_t a[N], b[N], c[N];
    for (uint32_t i = 0; i < N; i++) a[i] = i * 3u + 1u, b[i] = 1000u - i;
    uint64_t da, db, dc;
    gcrt_stream_t *s;
    bool ok = !gcrt_malloc(rt, &da, sizeof a) && !gcrt_malloc(rt, &db, sizeof b) && !gcrt_malloc(rt, &dc, sizeof c) &&
              !gcrt_write(rt, da, a, sizeof a) && !gcrt_write(rt, db, b, sizeof b) && !gcrt_stream_create(rt, &s);
    if (ok) {
        idle_stretch(dev, gating);
        gc_vecadd_params_t p = {gcrt_kernel_ptr(da), gcrt_kernel_ptr(db), gcrt_kernel_ptr(dc), N};
        uint32_t grid[3] = {2, 1, 1}, block[3] = {32, 1, 1};
        ok = !gcrt_launch(rt, s, img, "vecadd", grid, block, &p, sizeof p, 0) && !gcrt_stream_synchronize(rt, s) &&
             !gcrt_read(rt, dc, c, sizeof c);
    }
    if (!ok) {
        TCASE_FAIL_("vecadd: %s", gcrt_last_message(rt));
    } else {
        for (uint32_t i = 0; i < N; i++) {
            if (c[i] != a[i] + b[i]) {
                TCASE_FAIL_("c[%u] = %u, expected %u", i, c[i], a[i] + b[i]);
                break;
            }
            o.sum += c[i];
        }
        const gcrt_op_t *ops;
        size_t n;
        if (!gcrt_ops(rt, &ops, &n)) {
            for (size_t i = 0; i < n; i++) {
                if (ops[i].kind != GCRT_OP_KERNEL) continue;
                CHECK(ops[i].done);
                o.start = ops[i].start_cycle;
                o.end = ops[i].end_cycle;
            }
        }
        o.active = rd(dev, GC_REG_COMPUTE_ACTIVE_CYCLES);
        o.winstr = rd(dev, GC_REG_COMPUTE_WARP_INSTRS);
        o.cycles = gc_device_cycles(dev);
        o.ok = true;
    }
    gcrt_unload_image(rt, img);
    gcrt_close(rt);
    return o;
}

static void t_launch_wakes_compute(void) {
    launch_run_t on = launch_run(true), off = launch_run(false);
    REQUIRE(on.ok && off.ok);
    fprintf(stderr, "vecadd: cycles %llu..%llu gated, %llu..%llu ungated\n", (unsigned long long)on.start,
            (unsigned long long)on.end, (unsigned long long)off.start, (unsigned long long)off.end);
    CHECK(on.start > 0 && on.end > on.start);
    CHECK_EQ(on.start, off.start);
    CHECK_EQ(on.end, off.end);
    CHECK_EQ(on.active, off.active);
    CHECK(on.active > 0);
    CHECK_EQ(on.winstr, off.winstr);
    CHECK_EQ(on.sum, off.sum);
    CHECK_EQ(on.cycles, off.cycles);
}

/* A PBDMA whose channel waits for its copy engine (ENGINE_WAIT: every method after a LAUNCH_DMA
 * waits for that copy; RELEASE with WFI waits for the engine) changes no register until the copy's
 * done, so its clock is stopped for all of the wait but the cycles from the engine taking the copy
 * to the channel's next method reaching ENGINE_WAIT and the HOLD cycles after (gpu_top's still_o):
 * RUNLIST(1).GATED_CYCLES over each wait is at least the copy's own length (its four-word record:
 * the cycle the engine took it, the cycle of its release) less WAIT_SLACK, however long the copy.
 * Channel A: copy 1, copy 2 (each WAIT_BYTES, four-word release), RELEASE_TIMESTAMP with WFI.
 * Channel B (same runlist) rings its doorbell in the middle of copy 1 with a timestamped
 * release: a doorbell wakes the stopped PBDMA in its very cycle, B runs as a guest, A holds its
 * slice in IDLE until copy 1 is done (a wait of the same kind), then resumes and runs copy 2 and
 * its release. Every stamp, record and counter reads the same with gating off. */
#define WAIT_BYTES (64u << 10)
/* cycles of a copy's wait the PBDMA runs: the launch to ENGINE_WAIT (the next method is in the
 * FIFO; its pushbuffer read may still be out under stalls), HOLD, the completion */
#define WAIT_SLACK 256u
typedef struct wait_run {
    bool ok;
    gc_copy_record_t rec[2];
    uint64_t a_stamp, b_stamp, t_b, cycles;
    uint32_t g_before_b, g_after_b; /* RUNLIST(1).GATED_CYCLES: doorbell A .. doorbell B .. the end */
    uint32_t a_methods, b_methods, a_engine, a_resident, b_resident, b_empty, switches, cycle_lo;
} wait_run_t;

static void wait_run_on(gc_device_t *dev, bool gating, wait_run_t *o) {
    gc_channel_t *a = NULL, *b = NULL;
    gc_buf_t src, vid, dst, sem;
    REQUIRE_OK(dev, gc_channel_open(dev, NULL, &a));
    b = util_open_channel(dev, 1, 0, 0);
    REQUIRE(b != NULL);
    REQUIRE_OK(dev, gc_mem_alloc(dev, GC_MEM_SYSMEM, WAIT_BYTES, 64, &src));
    REQUIRE_OK(dev, gc_mem_alloc(dev, GC_MEM_VIDMEM, WAIT_BYTES, 64, &vid));
    REQUIRE_OK(dev, gc_mem_alloc(dev, GC_MEM_SYSMEM, WAIT_BYTES, 64, &dst));
    REQUIRE_OK(dev, gc_mem_alloc(dev, GC_MEM_SYSMEM, 64, 64, &sem));
    uint8_t zero[64] = {0};
    REQUIRE_OK(dev, gc_mem_write(dev, sem.addr, zero, sizeof zero));
    uint8_t *buf = malloc(WAIT_BYTES);
    REQUIRE(buf != NULL);
    gcsc_fill(buf, WAIT_BYTES, 13);
    gc_status_t st = gc_mem_write(dev, src.addr, buf, WAIT_BYTES);
    free(buf);
    REQUIRE_OK(dev, st);
    idle_stretch(dev, gating);

    uint32_t wa[64], wb[16];
    gc_pushbuf_t pa, pb;
    gc_pb_init(&pa, wa, 64);
    gcsc_pb_roundtrip_copies(&pa, src.addr, vid.addr, dst.addr, WAIT_BYTES, sem.addr);
    gc_pb_sem_release_ts(&pa, sem.addr + 32, 3, false, true);
    gc_pb_init(&pb, wb, 16);
    gc_pb_sem_release_ts(&pb, sem.addr + 48, 4, false, false);

    uint32_t g0 = rd(dev, GC_REG_RUNLIST_GATED_CYCLES(1));
    REQUIRE_OK(dev, gc_channel_submit(a, &pa));
    /* half of copy 1 at the most: a copy moves at most one 8-byte beat a cycle */
    REQUIRE_OK(dev, gc_device_run(dev, WAIT_BYTES / 16));
    o->g_before_b = rd(dev, GC_REG_RUNLIST_GATED_CYCLES(1)) - g0;
    o->t_b = gc_device_cycles(dev);
    REQUIRE_OK(dev, gc_channel_submit(b, &pb));
    REQUIRE_OK(dev, gc_sem_wait(dev, sem.addr, 1, NULL));
    REQUIRE_OK(dev, gc_sem_wait(dev, sem.addr + 16, 2, NULL));
    REQUIRE_OK(dev, gc_sem_wait(dev, sem.addr + 32, 3, NULL));
    REQUIRE_OK(dev, gc_sem_wait(dev, sem.addr + 48, 4, NULL));
    REQUIRE_OK(dev, gc_channel_wait_idle(a));
    REQUIRE_OK(dev, gc_channel_wait_idle(b));
    REQUIRE_OK(dev, util_wait_left(dev, gc_channel_id(a), 100000));
    REQUIRE_OK(dev, util_wait_left(dev, gc_channel_id(b), 100000));
    o->g_after_b = rd(dev, GC_REG_RUNLIST_GATED_CYCLES(1)) - g0 - o->g_before_b;
    for (int k = 0; k < 2; k++) {
        uint32_t w[4];
        REQUIRE_OK(dev, gc_mem_read(dev, sem.addr + 16u * (uint32_t)k, w, sizeof w));
        o->rec[k] = gc_copy_record(w);
    }
    uint32_t ts[8];
    REQUIRE_OK(dev, gc_mem_read(dev, sem.addr + 32, ts, sizeof ts));
    o->a_stamp = ts[2] | (uint64_t)ts[3] << 32;
    o->b_stamp = ts[6] | (uint64_t)ts[7] << 32;
    uint32_t ia = gc_channel_id(a), ib = gc_channel_id(b);
    o->a_methods = rd(dev, GC_REG_CHANNEL_METHODS(ia));
    o->b_methods = rd(dev, GC_REG_CHANNEL_METHODS(ib));
    o->a_engine = rd(dev, GC_REG_CHANNEL_SWITCH_ENGINE(ia));
    o->a_resident = rd(dev, GC_REG_CHANNEL_CYCLES_RESIDENT(ia));
    o->b_resident = rd(dev, GC_REG_CHANNEL_CYCLES_RESIDENT(ib));
    o->b_empty = rd(dev, GC_REG_CHANNEL_SWITCH_EMPTY(ib));
    o->switches = rd(dev, GC_REG_RUNLIST_SWITCHES(1));
    o->cycle_lo = rd(dev, GC_REG_GLOBAL_CYCLE_LO);
    o->cycles = gc_device_cycles(dev);
    /* copy 1 ran across B's doorbell; B ran as a guest while A waited for it */
    CHECK(o->rec[0].start < o->t_b && o->t_b < o->rec[0].end);
    CHECK(o->b_stamp < o->rec[0].end);
    CHECK(o->a_engine >= 1);
    CHECK(o->rec[0].end < o->rec[1].start && o->rec[1].end < o->a_stamp);
    o->ok = true;
}

static wait_run_t wait_run(bool gating) {
    wait_run_t o;
    memset(&o, 0, sizeof o);
    gc_device_t *dev = util_open(NULL);
    if (!dev) {
        TCASE_FAIL_("no device");
        return o;
    }
    set_gating(dev, gating);
    wait_run_on(dev, gating, &o);
    gc_device_close(dev);
    return o;
}

static void t_engine_wait_gated(void) {
    wait_run_t on = wait_run(true), off = wait_run(false);
    REQUIRE(on.ok && off.ok);
    uint64_t slack = util_stall_budget(WAIT_SLACK, util_stall_pct());
    uint64_t c1 = on.rec[0].end - on.rec[0].start, c2 = on.rec[1].end - on.rec[1].start;
    uint64_t w1 = on.t_b - on.rec[0].start; /* copy 1's wait before B's doorbell */
    fprintf(stderr, "copy 1 %llu cycles (B's doorbell after %llu: %u gated before it), copy 2 %llu cycles "
            "(%u gated from B's doorbell on)\n", (unsigned long long)c1, (unsigned long long)w1, on.g_before_b,
            (unsigned long long)c2, on.g_after_b);
    CHECK(w1 > slack && c2 > slack);
    /* each window holds the whole of its wait: [doorbell A, doorbell B] copy 1's start to B,
     * [doorbell B, the end] copy 2 */
    CHECK(on.g_before_b + slack >= w1);
    CHECK(on.g_after_b + slack >= c2);
    CHECK_EQ(off.g_before_b, 0);
    CHECK_EQ(off.g_after_b, 0);
    for (int k = 0; k < 2; k++) {
        CHECK_EQ(on.rec[k].payload, (uint32_t)k + 1);
        CHECK_EQ(on.rec[k].start, off.rec[k].start);
        CHECK_EQ(on.rec[k].end, off.rec[k].end);
    }
    CHECK_EQ(on.t_b, off.t_b);
    CHECK_EQ(on.a_stamp, off.a_stamp);
    CHECK_EQ(on.b_stamp, off.b_stamp);
    CHECK_EQ(on.a_methods, off.a_methods);
    CHECK_EQ(on.b_methods, off.b_methods);
    CHECK_EQ(on.a_engine, off.a_engine);
    CHECK_EQ(on.a_resident, off.a_resident);
    CHECK_EQ(on.b_resident, off.b_resident);
    CHECK_EQ(on.b_empty, off.b_empty);
    CHECK_EQ(on.switches, off.switches);
    CHECK_EQ(on.cycle_lo, off.cycle_lo);
    CHECK_EQ(on.cycles, off.cycles);
}

static const tcase_t cases[] = {
    {"gating_copy_wakes_on_doorbell", t_copy_wakes_on_doorbell},
    {"gating_counters_exact", t_counters_exact},
    {"gating_launch_wakes_compute", t_launch_wakes_compute},
    {"gating_engine_wait", t_engine_wait_gated},
};
TCASE_MAIN(cases)
