/* End to end on the Verilated device through hostdrv: compute-class launches on runlist 0
 * (SET_OBJECT COMPUTE, SEND_PCAS_A, SEND_SIGNALING_PCAS_B), kernels loaded with the ELF loader,
 * results against host computations, completion semaphores, task faults (the channel stops with
 * TASK_FAULT, the COMPUTE fault record and the interrupt, then the device runs the next task),
 * channels sharing the compute engine, and the compute class on a copy runlist. */
#include <stdlib.h>
#include <string.h>

#include "cosim_util.h"
#include "gc_kernels.h"
#include "gpucosim/compute.h"
#include "tcase.h"

#ifndef GC_FIRMWARE_DIR
#define GC_FIRMWARE_DIR "build/firmware"
#endif

typedef struct ctx {
    gc_device_t *dev;
    gc_channel_t *ch;
    gc_elf_t *kern, *isa;
} ctx_t;

static gc_elf_t *load(gc_device_t *dev, const char *name) {
    char path[512], err[256];
    snprintf(path, sizeof path, "%s/%s", GC_FIRMWARE_DIR, name);
    gc_elf_t *e = NULL;
    if (gc_elf_read_file(path, &e, err, sizeof err) != GC_OK) {
        fprintf(stderr, "%s\n", err);
        return NULL;
    }
    if (gc_elf_load(dev, e) != GC_OK) {
        fprintf(stderr, "gc_elf_load: %s\n", gc_device_last_error(dev));
        gc_elf_free(e);
        return NULL;
    }
    return e;
}

static bool ctx_open(ctx_t *c) {
    memset(c, 0, sizeof *c);
    c->dev = util_open(NULL);
    if (!c->dev) return false;
    gc_channel_config_t cc;
    gc_channel_config_init(&cc);
    cc.runlist = 0;
    if (gc_channel_open(c->dev, &cc, &c->ch) != GC_OK) return false;
    if (gc_compute_bind(c->ch, GC_COMPUTE_SUBCH) != GC_OK) return false;
    c->kern = load(c->dev, "kernels.elf");
    c->isa = load(c->dev, "simt_isa.elf");
    return c->kern && c->isa;
}

static void ctx_close(ctx_t *c) {
    if (c->kern) gc_elf_free(c->kern);
    if (c->isa) gc_elf_free(c->isa);
    if (c->dev) gc_device_close(c->dev);
}

static uint32_t sym(gc_elf_t *e, const char *name) {
    uint32_t v = 0;
    if (gc_elf_symbol(e, name, &v) != GC_OK) fprintf(stderr, "no symbol %s\n", name);
    return v;
}

static uint64_t put(gc_device_t *dev, const void *data, size_t n) {
    gc_buf_t b;
    if (gc_mem_alloc(dev, GC_MEM_VIDMEM, n ? n : 4, 256, &b) != GC_OK) return 0;
    if (data && n && gc_mem_write(dev, b.addr, data, n) != GC_OK) return 0;
    return b.addr;
}

static void rnd(uint32_t *v, size_t n, uint32_t seed, uint32_t mask) {
    uint32_t x = seed * 2654435761u + 1;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        v[i] = x & mask;
    }
}

/* Launch a kernel on the context's channel: TMD in vidmem, launch, wait.  Returns the status of
 * gc_channel_wait_idle (GC_ERR_CHANNEL_FAULT for a faulted task). */
static gc_status_t launch(ctx_t *c, gc_channel_t *ch, uint32_t pc, uint64_t param, const uint32_t grid[3],
                          const uint32_t cta[3], uint32_t smem, uint64_t sem, uint32_t payload, bool wait) {
    gc_tmd_t t;
    gc_tmd_init(&t);
    t.entry_pc = pc;
    t.param = gc_simt_ptr(param);
    for (int i = 0; i < 3; i++) t.grid[i] = grid[i], t.cta[i] = cta[i];
    t.smem_bytes = smem;
    if (sem) {
        t.sem_release = true;
        t.sem_addr = sem;
        t.sem_payload = payload;
    }
    gc_buf_t tmd;
    gc_status_t st;
    if ((st = gc_mem_alloc(c->dev, GC_MEM_VIDMEM, GC_TMD_SIZE, GC_TMD_ALIGN, &tmd)) != GC_OK) return st;
    if ((st = gc_compute_write_tmd(c->dev, &t, &tmd)) != GC_OK) return st;
    uint32_t words[8];
    gc_pushbuf_t pb;
    gc_pb_init(&pb, words, 8);
    gc_pb_compute_launch(&pb, GC_COMPUTE_SUBCH, tmd.addr);
    if ((st = gc_channel_submit(ch, &pb)) != GC_OK) return st;
    return wait ? gc_channel_wait_idle(ch) : GC_OK;
}

static void t_vecadd(void) {
    ctx_t c;
    REQUIRE(ctx_open(&c));
    uint32_t lanes = 0, warps = 0, cfg = 0;
    REQUIRE_OK(c.dev, gc_mmio_read(c.dev, GC_REG_COMPUTE_CONFIG, &cfg));
    lanes = GC_COMPUTE_CONFIG_LANES_GET(cfg), warps = GC_COMPUTE_CONFIG_WARPS_GET(cfg);
    CHECK_EQ(lanes, GC_SIMT_LANES);
    CHECK_EQ(warps, GC_SIMT_WARPS);
    CHECK_EQ(GC_COMPUTE_CONFIG_NUM_SM_GET(cfg), GC_SIMT_NUM_SM);
    static const uint32_t shapes[][2] = {{1, 1}, {3, 5}, {17, 8}, {2, 32}, {5, 13}};
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        uint32_t n = 100 + 37 * (uint32_t)s;
        uint32_t *a = malloc(n * 4), *b = malloc(n * 4), *out = malloc(n * 4);
        rnd(a, n, (uint32_t)s, ~0u);
        rnd(b, n, (uint32_t)s + 100, ~0u);
        uint64_t da = put(c.dev, a, n * 4), db = put(c.dev, b, n * 4), dc = put(c.dev, NULL, n * 4);
        gc_vecadd_params_t p = {gc_simt_ptr(da), gc_simt_ptr(db), gc_simt_ptr(dc), n};
        uint64_t dp = put(c.dev, &p, sizeof p), sem = put(c.dev, NULL, 4);
        uint32_t zero = 0;
        REQUIRE_OK(c.dev, gc_mem_write(c.dev, sem, &zero, 4));
        uint32_t grid[3] = {shapes[s][0], 1, 1}, cta[3] = {shapes[s][1], 1, 1};
        uint64_t t0 = gc_device_cycles(c.dev);
        REQUIRE_OK(c.dev, launch(&c, c.ch, sym(c.kern, "vecadd"), dp, grid, cta, 0, sem, 0x5000 + (uint32_t)s, true));
        uint32_t got_sem = 0;
        REQUIRE_OK(c.dev, gc_mem_read(c.dev, sem, &got_sem, 4));
        CHECK_EQ(got_sem, 0x5000 + s);
        REQUIRE_OK(c.dev, gc_mem_read(c.dev, dc, out, n * 4));
        for (uint32_t i = 0; i < n; i++)
            if (out[i] != a[i] + b[i]) {
                TCASE_FAIL_("vecadd %u x %u, n %u: c[%u] = 0x%x, want 0x%x", grid[0], cta[0], n, i, out[i], a[i] + b[i]);
                break;
            }
        fprintf(stderr, "vecadd grid %u cta %u n %u: %llu cycles\n", grid[0], cta[0], n,
                (unsigned long long)(gc_device_cycles(c.dev) - t0));
        free(a), free(b), free(out);
    }
    uint32_t tasks = 0;
    REQUIRE_OK(c.dev, gc_mmio_read(c.dev, GC_REG_COMPUTE_TASKS, &tasks));
    CHECK_EQ(tasks, 5);
    ctx_close(&c);
}

static void t_kernels(void) {
    ctx_t c;
    REQUIRE(ctx_open(&c));
    /* reduce: 3 CTAs of 13 threads */
    {
        uint32_t n = 777, in[777];
        rnd(in, n, 7, 0xFFFF);
        uint64_t din = put(c.dev, in, sizeof in), dout = put(c.dev, NULL, 3 * 4), dtot = put(c.dev, NULL, 4);
        uint32_t zero = 0;
        REQUIRE_OK(c.dev, gc_mem_write(c.dev, dtot, &zero, 4));
        gc_reduce_params_t p = {gc_simt_ptr(din), gc_simt_ptr(dout), gc_simt_ptr(dtot), n};
        uint64_t dp = put(c.dev, &p, sizeof p);
        uint32_t grid[3] = {3, 1, 1}, cta[3] = {13, 1, 1};
        REQUIRE_OK(c.dev, launch(&c, c.ch, sym(c.kern, "reduce"), dp, grid, cta, 13 * 4, 0, 0, true));
        uint32_t want = 0, tot = 0;
        for (uint32_t i = 0; i < n; i++) want += in[i];
        REQUIRE_OK(c.dev, gc_mem_read(c.dev, dtot, &tot, 4));
        CHECK_EQ(tot, want);
    }
    /* histogram in shared memory, then with global atomics */
    for (uint32_t mode = 0; mode < 2; mode++) {
        uint32_t n = 400, nbins = 12, in[400], bins[12] = {0}, want[12] = {0}, mx = 0, zero[2] = {0, 0};
        rnd(in, n, 9 + mode, 0x3FF);
        for (uint32_t i = 0; i < n; i++) {
            want[in[i] % nbins]++;
            if (in[i] > mx) mx = in[i];
        }
        uint64_t din = put(c.dev, in, sizeof in), db = put(c.dev, bins, sizeof bins), dm = put(c.dev, zero, 8);
        gc_histogram_params_t p = {gc_simt_ptr(din), gc_simt_ptr(db), gc_simt_ptr(dm), gc_simt_ptr(dm + 4), n, nbins,
                                   mode};
        uint64_t dp = put(c.dev, &p, sizeof p);
        uint32_t grid[3] = {4, 1, 1}, cta[3] = {GC_SIMT_LANES + 3, 1, 1};
        REQUIRE_OK(c.dev, launch(&c, c.ch, sym(c.kern, "histogram"), dp, grid, cta, nbins * 4, 0, 0, true));
        REQUIRE_OK(c.dev, gc_mem_read(c.dev, db, bins, sizeof bins));
        CHECK(memcmp(bins, want, sizeof bins) == 0);
        uint32_t got[2];
        REQUIRE_OK(c.dev, gc_mem_read(c.dev, dm, got, 8));
        CHECK_EQ(got[0], mx);
        CHECK_EQ(got[1], n);
    }
    /* divergent, 2-D CTAs */
    {
        uint32_t n = 300, in[300], out[300];
        rnd(in, n, 11, ~0u);
        for (uint32_t i = 0; i < n; i += 3) in[i] %= 1000;
        uint64_t din = put(c.dev, in, sizeof in), dout = put(c.dev, NULL, sizeof out);
        gc_divergent_params_t p = {gc_simt_ptr(din), gc_simt_ptr(dout), n};
        uint64_t dp = put(c.dev, &p, sizeof p);
        uint32_t grid[3] = {5, 1, 1}, cta[3] = {GC_SIMT_LANES, 2, 1};
        REQUIRE_OK(c.dev, launch(&c, c.ch, sym(c.kern, "divergent"), dp, grid, cta, 0, 0, 0, true));
        REQUIRE_OK(c.dev, gc_mem_read(c.dev, dout, out, sizeof out));
        for (uint32_t i = 0; i < n; i++)
            if (out[i] != gc_divergent_elem(in[i])) {
                TCASE_FAIL_("divergent: out[%u] = 0x%x, want 0x%x", i, out[i], gc_divergent_elem(in[i]));
                break;
            }
    }
    /* saxpy with data in sysmem */
    {
        uint32_t n = 200, x[200], y[200], got[200];
        rnd(x, n, 13, ~0u);
        rnd(y, n, 14, ~0u);
        gc_buf_t bx, by;
        REQUIRE_OK(c.dev, gc_mem_alloc(c.dev, GC_MEM_SYSMEM, sizeof x, 64, &bx));
        REQUIRE_OK(c.dev, gc_mem_alloc(c.dev, GC_MEM_SYSMEM, sizeof y, 64, &by));
        REQUIRE_OK(c.dev, gc_mem_write(c.dev, bx.addr, x, sizeof x));
        REQUIRE_OK(c.dev, gc_mem_write(c.dev, by.addr, y, sizeof y));
        gc_saxpy_params_t p = {gc_simt_ptr(bx.addr), gc_simt_ptr(by.addr), n, -77};
        uint64_t dp = put(c.dev, &p, sizeof p);
        uint32_t grid[3] = {2, 1, 1}, cta[3] = {GC_SIMT_LANES * 2, 1, 1};
        REQUIRE_OK(c.dev, launch(&c, c.ch, sym(c.kern, "saxpy"), dp, grid, cta, 0, 0, 0, true));
        REQUIRE_OK(c.dev, gc_mem_read(c.dev, by.addr, got, sizeof got));
        for (uint32_t i = 0; i < n; i++)
            if (got[i] != (uint32_t)(-77) * x[i] + y[i]) {
                TCASE_FAIL_("saxpy: y[%u] wrong", i);
                break;
            }
    }
    ctx_close(&c);
}

/* A faulting task stops its channel with TASK_FAULT, records the fault and raises the interrupt;
 * after a channel reset the next task runs. */
static void fault_then_recover(const char *entry, uint64_t param, uint32_t want_cause, uint32_t want_lane) {
    ctx_t c;
    REQUIRE(ctx_open(&c));
    REQUIRE_OK(c.dev, gc_mmio_write(c.dev, GC_REG_GLOBAL_INTR_ENABLE, GC_GLOBAL_INTR_ENABLE_TASK_FAULT(1)));
    uint64_t good = put(c.dev, NULL, 64);
    uint32_t grid[3] = {1, 1, 1}, cta[3] = {GC_SIMT_LANES, 1, 1};
    gc_status_t st = launch(&c, c.ch, sym(c.isa, entry), param ? param : good, grid, cta, 64, 0, 0, true);
    CHECK_EQ(st, GC_ERR_CHANNEL_FAULT);
    fprintf(stderr, "%s: %s\n", entry, gc_device_last_error(c.dev));
    gc_channel_error_t e;
    REQUIRE_OK(c.dev, gc_channel_error(c.ch, &e));
    CHECK_EQ(e.cause, GC_ERROR_CAUSE_TASK_FAULT);
    CHECK(strstr(gc_device_last_error(c.dev), "TASK_FAULT") != NULL);
    CHECK(strstr(gc_device_last_error(c.dev), "SEND_SIGNALING_PCAS_B") != NULL);
    gc_compute_fault_t f;
    REQUIRE_OK(c.dev, gc_compute_fault_read(c.dev, &f));
    char msg[256];
    gc_compute_fault_format(&f, msg, sizeof msg);
    fprintf(stderr, "fault record: %s\n", msg);
    CHECK_EQ(f.cause, want_cause);
    CHECK_EQ(f.lane, want_lane);
    CHECK_EQ(f.channel, gc_channel_id(c.ch));
    uint32_t st_reg = 0;
    REQUIRE_OK(c.dev, gc_mmio_read(c.dev, GC_REG_GLOBAL_INTR_STATUS, &st_reg));
    CHECK_EQ(GC_GLOBAL_INTR_STATUS_TASK_FAULT_GET(st_reg), 1);
    CHECK(gc_device_irq(c.dev));
    REQUIRE_OK(c.dev, gc_mmio_write(c.dev, GC_REG_GLOBAL_INTR_STATUS, GC_GLOBAL_INTR_STATUS_TASK_FAULT(1)));
    CHECK(!gc_device_irq(c.dev));
    /* recover */
    REQUIRE_OK(c.dev, gc_channel_reset(c.ch));
    REQUIRE_OK(c.dev, gc_compute_bind(c.ch, GC_COMPUTE_SUBCH));
    uint32_t n = 64, a[64], b[64], out[64];
    rnd(a, n, 1, ~0u);
    rnd(b, n, 2, ~0u);
    uint64_t da = put(c.dev, a, sizeof a), db = put(c.dev, b, sizeof b), dc = put(c.dev, NULL, sizeof out);
    gc_vecadd_params_t p = {gc_simt_ptr(da), gc_simt_ptr(db), gc_simt_ptr(dc), n};
    uint64_t dp = put(c.dev, &p, sizeof p);
    uint32_t g2[3] = {2, 1, 1}, c2[3] = {GC_SIMT_LANES + 1, 1, 1};
    REQUIRE_OK(c.dev, launch(&c, c.ch, sym(c.kern, "vecadd"), dp, g2, c2, 0, 0, 0, true));
    REQUIRE_OK(c.dev, gc_mem_read(c.dev, dc, out, sizeof out));
    for (uint32_t i = 0; i < n; i++) CHECK_EQ(out[i], a[i] + b[i]);
    ctx_close(&c);
}

static void t_fault_illegal(void) { fault_then_recover("fault_illegal", 0, GC_SIMT_FAULT_ILLEGAL_INSTRUCTION, 3); }
static void t_fault_wild_pointer(void) {
    fault_then_recover("fault_wild_load", 0x70000000u, GC_SIMT_FAULT_LOAD_BUS_ERROR, 3);
}

/* A wild pointer in a C kernel: vecadd storing to a hole of the device map */
static void t_fault_kernel_wild_store(void) {
    ctx_t c;
    REQUIRE(ctx_open(&c));
    uint32_t n = 40;
    uint64_t da = put(c.dev, NULL, n * 4);
    gc_vecadd_params_t p = {gc_simt_ptr(da), gc_simt_ptr(da), 0x70000000u, n};
    uint64_t dp = put(c.dev, &p, sizeof p);
    uint32_t grid[3] = {1, 1, 1}, cta[3] = {GC_SIMT_LANES, 1, 1};
    CHECK_EQ(launch(&c, c.ch, sym(c.kern, "vecadd"), dp, grid, cta, 0, 0, 0, true), GC_ERR_CHANNEL_FAULT);
    gc_compute_fault_t f;
    REQUIRE_OK(c.dev, gc_compute_fault_read(c.dev, &f));
    CHECK_EQ(f.cause, GC_SIMT_FAULT_STORE_BUS_ERROR);
    CHECK_EQ(f.addr, 0x70000000u);
    CHECK_EQ(f.lane, 0);
    uint32_t dbg = 0;
    REQUIRE_OK(c.dev, gc_mmio_read(c.dev, GC_REG_COMPUTE_DBG, &dbg));
    CHECK_EQ(GC_COMPUTE_DBG_WARPS_ACTIVE_GET(dbg), 0);
    CHECK_EQ(GC_COMPUTE_DBG_SLOTS_BUSY_GET(dbg), 0);
    ctx_close(&c);
}

/* Two compute channels and a copy channel: the second launch waits for the engine while the
 * first task runs, the copy engine works meanwhile, and everything completes correctly. */
static void t_channels_share_engine(void) {
    ctx_t c;
    REQUIRE(ctx_open(&c));
    gc_channel_config_t cc;
    gc_channel_config_init(&cc);
    cc.runlist = 0;
    gc_channel_t *ch2, *cp;
    REQUIRE_OK(c.dev, gc_channel_open(c.dev, &cc, &ch2));
    REQUIRE_OK(c.dev, gc_compute_bind(ch2, GC_COMPUTE_SUBCH));
    gc_channel_config_init(&cc);
    REQUIRE_OK(c.dev, gc_channel_open(c.dev, &cc, &cp));
    uint32_t n = 2000;
    uint32_t *in = malloc(n * 4), *o1 = malloc(n * 4), *o2 = malloc(n * 4);
    rnd(in, n, 3, 0xFFFFF);
    uint64_t din = put(c.dev, in, n * 4), d1 = put(c.dev, NULL, n * 4), d2 = put(c.dev, NULL, n * 4);
    uint64_t dcopy = put(c.dev, NULL, n * 4);
    gc_divergent_params_t p1 = {gc_simt_ptr(din), gc_simt_ptr(d1), n}, p2 = {gc_simt_ptr(din), gc_simt_ptr(d2), n};
    uint64_t dp1 = put(c.dev, &p1, sizeof p1), dp2 = put(c.dev, &p2, sizeof p2);
    uint64_t sems = put(c.dev, NULL, 64);
    uint32_t zeros[16] = {0};
    REQUIRE_OK(c.dev, gc_mem_write(c.dev, sems, zeros, sizeof zeros));
    uint32_t grid[3] = {4, 1, 1}, cta[3] = {GC_SIMT_LANES * 2, 1, 1};
    REQUIRE_OK(c.dev, launch(&c, c.ch, sym(c.kern, "divergent"), dp1, grid, cta, 0, sems, 1, false));
    REQUIRE_OK(c.dev, launch(&c, ch2, sym(c.kern, "divergent"), dp2, grid, cta, 0, sems + 16, 2, false));
    REQUIRE_OK(c.dev, gc_copy(cp, dcopy, din, n * 4, sems + 32, 3));
    REQUIRE_OK(c.dev, gc_channel_wait_idle(cp));
    uint32_t s[16];
    REQUIRE_OK(c.dev, gc_mem_read(c.dev, sems, s, sizeof s));
    CHECK_EQ(s[8], 3);
    CHECK(s[4] == 0); /* the copy is done long before the second kernel */
    REQUIRE_OK(c.dev, gc_channel_wait_idle(c.ch));
    REQUIRE_OK(c.dev, gc_channel_wait_idle(ch2));
    REQUIRE_OK(c.dev, gc_mem_read(c.dev, sems, s, sizeof s));
    CHECK_EQ(s[0], 1);
    CHECK_EQ(s[4], 2);
    REQUIRE_OK(c.dev, gc_mem_read(c.dev, d1, o1, n * 4));
    REQUIRE_OK(c.dev, gc_mem_read(c.dev, d2, o2, n * 4));
    for (uint32_t i = 0; i < n; i++)
        if (o1[i] != gc_divergent_elem(in[i]) || o2[i] != gc_divergent_elem(in[i])) {
            TCASE_FAIL_("element %u wrong", i);
            break;
        }
    uint32_t *cpy = malloc(n * 4);
    REQUIRE_OK(c.dev, gc_mem_read(c.dev, dcopy, cpy, n * 4));
    CHECK(memcmp(cpy, in, n * 4) == 0);
    uint32_t sw = 0;
    REQUIRE_OK(c.dev, gc_mmio_read(c.dev, GC_REG_CHANNEL_SWITCH_ENGINE(gc_channel_id(ch2)), &sw));
    fprintf(stderr, "second compute channel: %u switches waiting for the engine\n", sw);
    free(in), free(o1), free(o2), free(cpy);
    ctx_close(&c);
}

/* The compute class bound on a copy runlist: its methods fault UNSUPPORTED */
static void t_compute_on_copy_runlist(void) {
    ctx_t c;
    REQUIRE(ctx_open(&c));
    gc_channel_config_t cc;
    gc_channel_config_init(&cc);
    cc.runlist = 1;
    gc_channel_t *ch;
    REQUIRE_OK(c.dev, gc_channel_open(c.dev, &cc, &ch));
    REQUIRE_OK(c.dev, gc_compute_bind(ch, GC_COMPUTE_SUBCH));
    uint32_t w[8];
    gc_pushbuf_t pb;
    gc_pb_init(&pb, w, 8);
    gc_pb_compute_launch(&pb, GC_COMPUTE_SUBCH, GC_VIDMEM_BASE);
    REQUIRE_OK(c.dev, gc_channel_submit(ch, &pb));
    CHECK_EQ(gc_channel_wait_idle(ch), GC_ERR_CHANNEL_FAULT);
    gc_channel_error_t e;
    REQUIRE_OK(c.dev, gc_channel_error(ch, &e));
    CHECK_EQ(e.cause, GC_ERROR_CAUSE_UNSUPPORTED);
    CHECK(strstr(gc_device_last_error(c.dev), "SEND_PCAS_A") != NULL);
    /* the compute block's registers: mapped ones read, a gap answers SLVERR */
    uint32_t v = 0;
    CHECK_EQ(gc_mmio_read(c.dev, GC_REG_COMPUTE_LSU_BEATS, &v), GC_OK);
    CHECK_EQ(gc_mmio_read(c.dev, GC_REG_COMPUTE_BASE + 0x28, &v), GC_ERR_BUS);   /* between FAULT_CHANNEL and TASKS */
    ctx_close(&c);
}

static const tcase_t cases[] = {
    {"compute_vecadd", t_vecadd},
    {"compute_kernels", t_kernels},
    {"compute_fault_illegal", t_fault_illegal},
    {"compute_fault_wild_pointer", t_fault_wild_pointer},
    {"compute_fault_kernel_wild_store", t_fault_kernel_wild_store},
    {"compute_channels_share_engine", t_channels_share_engine},
    {"compute_on_copy_runlist", t_compute_on_copy_runlist},
};
TCASE_MAIN(cases)
