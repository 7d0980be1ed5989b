/* Kernel launches through the runtime (gcrt_launch), on whatever backend GPUCOSIM_BACKEND names:
 * vecadd and reduce between H2D and D2H copies on streams (the stream stays in order across its
 * copy channel and the compute channel), a kernel on two streams with an event between them, a
 * faulting kernel (sticky GCRT_ERROR_CHANNEL_FAULT with the fault record in the message),
 * malformed launches refused before anything is pushed, and the `kernels` scenario with its
 * timeline.  Skipped on a backend without a compute engine. */
#include <unistd.h>

#include "../firmware/other_kernels.h"
#include "cosim_util.h"
#include "gc_kernels.h"
#include "gpucosim/runtime.h"
#include "scenarios.h"
#include "rt_test.h"
#include "tcase.h"

#ifndef GC_FIRMWARE_DIR
#define GC_FIRMWARE_DIR "build/firmware"
#endif


typedef struct lctx {
    gcrt_t *rt;
    gc_elf_t *img;
} lctx_t;

/* Open a runtime and load kernels.elf; false with *skip set when the backend has no compute engine. */
static bool lopen(lctx_t *c, bool *skip) {
    *skip = false;
    c->img = NULL;
    gcrt_config_t cfg;
    gcrt_config_init(&cfg);
    cfg.device.quiet = true;
    cfg.sync_cycles = 20000000;
    gcrt_error_t e = gcrt_open(&cfg, &c->rt);
    if (e) {
        fprintf(stderr, "gcrt_open: %s\n", gcrt_error_name(e));
        return false;
    }
    uint32_t hw = 0;
    e = gcrt_compute_channel(c->rt, &hw);
    if (e == GCRT_ERROR_NOT_SUPPORTED) {
        fprintf(stderr, "%s\n", gcrt_last_message(c->rt));
        *skip = true;
        gcrt_close(c->rt);
        return false;
    }
    if (e) {
        fprintf(stderr, "gcrt_compute_channel: %s (%s)\n", gcrt_error_name(e), gcrt_last_message(c->rt));
        gcrt_close(c->rt);
        return false;
    }
    if ((e = gcrt_load_image(c->rt, GC_FIRMWARE_DIR "/kernels.elf", &c->img))) {
        fprintf(stderr, "gcrt_load_image: %s (%s)\n", gcrt_error_name(e), gcrt_last_message(c->rt));
        gcrt_close(c->rt);
        return false;
    }
    fprintf(stderr, "backend %s, compute channel %u\n", gc_device_config(gcrt_device(c->rt))->backend, hw);
    return true;
}

static void lclose(lctx_t *c) {
    if (!c->rt) return;
    if (c->img) gcrt_unload_image(c->rt, c->img);
    gcrt_close(c->rt);
    c->rt = NULL;
}

#define LOPEN(c)                                                                                           \
    do {                                                                                                   \
        bool skip_;                                                                                        \
        if (!lopen(&(c), &skip_)) {                                                                        \
            if (skip_) TCASE_SKIP("the backend has no compute engine (gcrt_launch: GCRT_ERROR_NOT_SUPPORTED)"); \
            TCASE_FAIL_("could not open the runtime and load the kernels");                                \
            return;                                                                                        \
        }                                                                                                  \
    } while (0)

static void rnd(uint32_t *v, size_t n, uint32_t seed, uint32_t mask) {
    uint32_t x = seed * 2654435761u + 1;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        v[i] = x & mask;
    }
}

/* The ops of one stream ran in issue order, each starting after the previous one ended. */
static void check_in_order(gcrt_t *rt, uint32_t stream_id, size_t want_ops) {
    const gcrt_op_t *ops;
    size_t n, seen = 0;
    gcrt_error_t e = gcrt_ops(rt, &ops, &n);
    if (e) {
        TCASE_FAIL_("gcrt_ops: %s", gcrt_error_name(e));
        return;
    }
    uint64_t prev_end = 0;
    for (size_t i = 0; i < n; i++) {
        if (ops[i].stream_id != stream_id) continue;
        seen++;
        CHECK(ops[i].done);
        CHECK(ops[i].start_cycle >= prev_end);
        CHECK(ops[i].start_cycle < ops[i].end_cycle);
        fprintf(stderr, "  stream %u op %zu %-8s %-6s start %8llu end %8llu\n", stream_id, i, ops[i].tag,
                ops[i].kind == GCRT_OP_KERNEL ? "kernel" : ops[i].kind == GCRT_OP_COPY ? "copy" : "memset",
                (unsigned long long)ops[i].start_cycle, (unsigned long long)ops[i].end_cycle);
        prev_end = ops[i].end_cycle;
    }
    CHECK_EQ(seen, want_ops);
}

/* H2D a and b, vecadd, D2H c on one stream (several shapes, two priorities); checked per element. */
static void t_vecadd(void) {
    lctx_t c;
    LOPEN(c);
    gcrt_t *rt = c.rt;
    uint32_t *a = NULL, *b = NULL, *got = NULL;
    static const uint32_t shapes[][2] = {{1, 8}, {3, 13}, {4, 32}};
    for (int k = 0; k < 3; k++) {
        uint32_t n = 300 + 111 * (uint32_t)k, bytes = n * 4;
        a = malloc(bytes), b = malloc(bytes), got = malloc(bytes);
        rnd(a, n, 1 + k, ~0u);
        rnd(b, n, 50 + k, ~0u);
        uint64_t ha, hb, hc, da, db, dc;
        RT_OK(rt, gcrt_malloc_host(rt, &ha, bytes));
        RT_OK(rt, gcrt_malloc_host(rt, &hb, bytes));
        RT_OK(rt, gcrt_malloc_host(rt, &hc, bytes));
        RT_OK(rt, gcrt_malloc(rt, &da, bytes));
        RT_OK(rt, gcrt_malloc(rt, &db, bytes));
        RT_OK(rt, gcrt_malloc(rt, &dc, bytes));
        RT_OK(rt, gcrt_write(rt, ha, a, bytes));
        RT_OK(rt, gcrt_write(rt, hb, b, bytes));
        gcrt_stream_t *s;
        RT_OK(rt, gcrt_stream_create_with_priority(rt, &s, k == 1 ? -5 : 0));
        RT_OK(rt, gcrt_memcpy_async(rt, da, ha, bytes, GCRT_MEMCPY_HOST_TO_DEVICE, s, "h2d a"));
        RT_OK(rt, gcrt_memcpy_async(rt, db, hb, bytes, GCRT_MEMCPY_HOST_TO_DEVICE, s, "h2d b"));
        gc_vecadd_params_t p = {gcrt_kernel_ptr(da), gcrt_kernel_ptr(db), gcrt_kernel_ptr(dc), n};
        uint32_t grid[3] = {shapes[k][0], 1, 1}, block[3] = {shapes[k][1], 1, 1};
        RT_OK(rt, gcrt_launch(rt, s, c.img, "vecadd", grid, block, &p, sizeof p, 0));
        RT_OK(rt, gcrt_memcpy_async(rt, hc, dc, bytes, GCRT_MEMCPY_DEVICE_TO_HOST, s, "d2h c"));
        RT_OK(rt, gcrt_stream_synchronize(rt, s));
        RT_OK(rt, gcrt_read(rt, hc, got, bytes));
        for (uint32_t i = 0; i < n; i++)
            if (got[i] != a[i] + b[i]) {
                TCASE_FAIL_("vecadd %u x %u: c[%u] = 0x%x, want 0x%x", grid[0], block[0], i, got[i], a[i] + b[i]);
                break;
            }
        const gcrt_op_t *ops;
        size_t nops;
        RT_OK(rt, gcrt_ops(rt, &ops, &nops));
        CHECK_EQ(ops[nops - 2].kind, GCRT_OP_KERNEL);
        CHECK(!strcmp(ops[nops - 2].tag, "vecadd"));
        CHECK_EQ(ops[nops - 2].engine, GCRT_COMPUTE_ENGINE);
        fprintf(stderr, "vecadd %u x %u n %u: kernel %llu cycles\n", grid[0], block[0], n,
                (unsigned long long)(ops[nops - 2].end_cycle - ops[nops - 2].start_cycle));
        check_in_order(rt, (uint32_t)k + 1, 4);
        RT_OK(rt, gcrt_stream_query(rt, s));
        free(a), free(b), free(got);
        a = b = got = NULL;
    }
    RT_OK(rt, gcrt_device_synchronize(rt));
out:
    free(a), free(b), free(got);
    lclose(&c);
}

/* reduce on two streams at once (each: H2D, memset of the total, kernel, D2H of partials and
 * total), then a kernel -> event -> other stream's copy dependency. */
static void t_reduce_streams(void) {
    lctx_t c;
    LOPEN(c);
    gcrt_t *rt = c.rt;
    enum { N = 1500, CTAS = 3, THREADS = 20 };
    static uint32_t in[2][N];
    uint64_t hin[2], hout[2], din[2], dout[2];
    gcrt_stream_t *s[2];
    for (int k = 0; k < 2; k++) {
        rnd(in[k], N, 7 + k, 0xFFFFF);
        RT_OK(rt, gcrt_stream_create_with_priority(rt, &s[k], -3 * k));
        RT_OK(rt, gcrt_malloc_host(rt, &hin[k], sizeof in[k]));
        RT_OK(rt, gcrt_malloc_host(rt, &hout[k], 4 * (CTAS + 1)));
        RT_OK(rt, gcrt_malloc(rt, &din[k], sizeof in[k]));
        RT_OK(rt, gcrt_malloc(rt, &dout[k], 4 * (CTAS + 1)));
        RT_OK(rt, gcrt_write(rt, hin[k], in[k], sizeof in[k]));
    }
    for (int k = 0; k < 2; k++) {
        RT_OK(rt, gcrt_memcpy_async(rt, din[k], hin[k], sizeof in[k], GCRT_MEMCPY_HOST_TO_DEVICE, s[k], "h2d"));
        RT_OK(rt, gcrt_memset_async(rt, dout[k], 0, 4 * (CTAS + 1), s[k], "zero"));
        gc_reduce_params_t p = {gcrt_kernel_ptr(din[k]), gcrt_kernel_ptr(dout[k]), gcrt_kernel_ptr(dout[k] + 4 * CTAS),
                                N};
        uint32_t grid[3] = {CTAS, 1, 1}, block[3] = {THREADS, 1, 1};
        RT_OK(rt, gcrt_launch(rt, s[k], c.img, "reduce", grid, block, &p, sizeof p, THREADS * 4));
        RT_OK(rt, gcrt_memcpy_async(rt, hout[k], dout[k], 4 * (CTAS + 1), GCRT_MEMCPY_DEVICE_TO_HOST, s[k], "d2h"));
    }
    for (int k = 0; k < 2; k++) {
        RT_OK(rt, gcrt_stream_synchronize(rt, s[k]));
        uint32_t got[CTAS + 1], want = 0;
        RT_OK(rt, gcrt_read(rt, hout[k], got, sizeof got));
        for (int i = 0; i < N; i++) want += in[k][i];
        uint32_t parts = 0;
        for (int i = 0; i < CTAS; i++) parts += got[i];
        CHECK_EQ(got[CTAS], want);
        CHECK_EQ(parts, want);
        check_in_order(rt, (uint32_t)k + 1, 4);
    }
    /* kernel on s[0] -> event -> s[1] copies the result: only right if s[1] waits for the kernel */
    {
        gcrt_event_t *ev;
        RT_OK(rt, gcrt_event_create(rt, &ev));
        gc_divergent_params_t p = {gcrt_kernel_ptr(din[0]), gcrt_kernel_ptr(din[1]), N};
        uint32_t grid[3] = {2, 1, 1}, block[3] = {16, 2, 1};
        RT_OK(rt, gcrt_launch(rt, s[0], c.img, "divergent", grid, block, &p, sizeof p, 0));
        RT_OK(rt, gcrt_event_record(rt, ev, s[0]));
        RT_OK(rt, gcrt_stream_wait_event(rt, s[1], ev));
        RT_OK(rt, gcrt_memcpy_async(rt, hin[1], din[1], sizeof in[1], GCRT_MEMCPY_DEVICE_TO_HOST, s[1], "d2h div"));
        RT_OK(rt, gcrt_stream_synchronize(rt, s[1]));
        RT_OK(rt, gcrt_event_query(rt, ev));
        static uint32_t got[N];
        RT_OK(rt, gcrt_read(rt, hin[1], got, sizeof got));
        for (int i = 0; i < N; i++)
            if (got[i] != gc_divergent_elem(in[0][i])) {
                TCASE_FAIL_("divergent after an event: out[%d] = 0x%x, want 0x%x", i, got[i], gc_divergent_elem(in[0][i]));
                break;
            }
    }
    RT_OK(rt, gcrt_device_synchronize(rt));
out:
    lclose(&c);
}

/* A kernel storing through a wild pointer: the synchronize reports GCRT_ERROR_CHANNEL_FAULT with
 * the fault record, and the error is sticky for later launches. */
static void t_fault(void) {
    lctx_t c;
    LOPEN(c);
    gcrt_t *rt = c.rt;
    uint64_t da;
    RT_OK(rt, gcrt_malloc(rt, &da, 256));
    gc_vecadd_params_t p = {gcrt_kernel_ptr(da), gcrt_kernel_ptr(da), 0x70000000u, 40};
    uint32_t grid[3] = {1, 1, 1}, block[3] = {8, 1, 1};
    gcrt_stream_t *s;
    RT_OK(rt, gcrt_stream_create(rt, &s));
    RT_OK(rt, gcrt_memset_async(rt, da, 1, 256, s, "before"));
    RT_OK(rt, gcrt_launch(rt, s, c.img, "vecadd", grid, block, &p, sizeof p, 0));
    gcrt_error_t e = gcrt_stream_synchronize(rt, s);
    CHECK_EQ(e, GCRT_ERROR_CHANNEL_FAULT);
    fprintf(stderr, "fault: %s\n", gcrt_last_message(rt));
    CHECK(strstr(gcrt_last_message(rt), "TASK_FAULT") != NULL);
    CHECK(strstr(gcrt_last_message(rt), "STORE_BUS_ERROR") != NULL);
    CHECK(strstr(gcrt_last_message(rt), "0x70000000") != NULL);
    CHECK_EQ(gcrt_get_last_error(rt), GCRT_ERROR_CHANNEL_FAULT);
    CHECK_EQ(gcrt_stream_query(rt, s), GCRT_ERROR_CHANNEL_FAULT);
    /* a copy queued behind the faulted kernel on the same stream never runs; its query fails too */
    gcrt_error_t me = gcrt_memset_async(rt, da, 2, 256, s, "after");
    CHECK(me == GCRT_SUCCESS || me == GCRT_ERROR_CHANNEL_FAULT);
    fprintf(stderr, "memset after the fault: %s\n", gcrt_error_name(me));
    CHECK_EQ(gcrt_stream_query(rt, s), GCRT_ERROR_CHANNEL_FAULT);
    uint32_t cause = 0;
    CHECK_EQ(gcrt_read(rt, da, &cause, 4), GCRT_SUCCESS);
    CHECK_EQ(cause, 0x01010101u); /* the memset before the kernel ran, the one after did not */
    CHECK_EQ(gcrt_launch(rt, s, c.img, "vecadd", grid, block, &p, sizeof p, 0), GCRT_ERROR_CHANNEL_FAULT);
    CHECK_EQ(gcrt_device_synchronize(rt), GCRT_ERROR_CHANNEL_FAULT);
out:
    lclose(&c);
}

/* vecadd with c = NULL (n = 1024: 4 KiB of stores from address 0, where the first sysmem
 * allocations, channel 0's ring and pushbuffer, used to be): GCRT_ERROR_CHANNEL_FAULT naming
 * NULL_ACCESS, the thread and address 0; not one byte of the NULL guard changed, and channel 0
 * (the copy channel of copy priority 0) still runs work: a memset queued after the fault lands. */
static void t_null_pointer(void) {
    lctx_t c;
    LOPEN(c);
    gcrt_t *rt = c.rt;
    gc_device_t *dev = gcrt_device(rt);
    enum { N = 1024, GUARD = GC_SIMT_WIN_SYSMEM_GUARD };
    static uint8_t before[GUARD], after[GUARD];
    uint64_t da, dx, hx;
    RT_OK(rt, gcrt_malloc(rt, &da, 4 * N));
    RT_OK(rt, gcrt_malloc(rt, &dx, 4096));
    RT_OK(rt, gcrt_malloc_host(rt, &hx, 4096));
    CHECK(hx >= GC_SYSMEM_BASE + GUARD && da >= GC_VIDMEM_BASE + GC_SIMT_WIN_VIDMEM_GUARD); /* never in a guard */
    gcrt_stream_t *s, *s0;
    RT_OK(rt, gcrt_stream_create(rt, &s));
    RT_OK(rt, gcrt_stream_create(rt, &s0));
    uint32_t q = 99, hw = 99;
    RT_OK(rt, gcrt_stream_get_copy_channel(rt, s0, &q, &hw));
    CHECK_EQ(q, 0);
    RT_OK(rt, gcrt_memset_async(rt, dx, 0x11, 4096, s0, "ch0 before"));
    RT_OK(rt, gcrt_stream_synchronize(rt, s0));
    CHECK_EQ(gc_mem_read(dev, GC_SYSMEM_BASE, before, GUARD), GC_OK);
    gc_vecadd_params_t p = {gcrt_kernel_ptr(da), gcrt_kernel_ptr(da), 0u, N};
    uint32_t grid[3] = {N / 32, 1, 1}, block[3] = {32, 1, 1};
    RT_OK(rt, gcrt_launch(rt, s, c.img, "vecadd", grid, block, &p, sizeof p, 0));
    gcrt_error_t e = gcrt_stream_synchronize(rt, s);
    CHECK_EQ(e, GCRT_ERROR_CHANNEL_FAULT);
    const char *m = gcrt_last_message(rt);
    fprintf(stderr, "NULL store: %s\n", m);
    CHECK(strstr(m, "NULL_ACCESS at pc 0x") != NULL);
    CHECK(strstr(m, "addr 0x0000") != NULL); /* c + 4 * i of the lowest faulting lane: in the guard */
    CHECK(strstr(m, "lane ") != NULL && strstr(m, "warp ") != NULL);
    CHECK_EQ(gc_mem_read(dev, GC_SYSMEM_BASE, after, GUARD), GC_OK);
    CHECK_EQ(util_diff("sysmem NULL guard", before, after, GUARD), 0);
    /* channel 0 is healthy and runs its next work (waited for by hand: the runtime's waits report
     * the sticky kernel fault) */
    uint32_t err = 0xFF;
    CHECK_EQ(gc_mmio_read(dev, GC_REG_CHANNEL_ERROR(hw), &err), GC_OK);
    CHECK_EQ(GC_CHANNEL_ERROR_CAUSE_GET(err), GC_ERROR_CAUSE_NONE);
    RT_OK(rt, gcrt_memset_async(rt, dx, 0x5A, 4096, s0, "ch0 after"));
    RT_OK(rt, gcrt_memcpy_async(rt, hx, dx, 4096, GCRT_MEMCPY_DEVICE_TO_HOST, s0, "ch0 d2h"));
    static uint8_t got[4096], want[4096];
    memset(want, 0x5A, sizeof want);
    bool landed = false;
    for (int i = 0; i < 2000 && !landed; i++) {
        CHECK_EQ(gc_device_run(dev, 1000), GC_OK);
        CHECK_EQ(gc_mem_read(dev, hx, got, sizeof got), GC_OK);
        landed = !memcmp(got, want, sizeof got);
    }
    CHECK(landed);
    CHECK_EQ(gc_mmio_read(dev, GC_REG_CHANNEL_ERROR(hw), &err), GC_OK);
    CHECK_EQ(GC_CHANNEL_ERROR_CAUSE_GET(err), GC_ERROR_CAUSE_NONE);
out:
    lclose(&c);
}

/* Malformed launches: the right error and message, nothing pushed, the stream still usable. */
static void t_bad_args(void) {
    lctx_t c;
    LOPEN(c);
    gcrt_t *rt = c.rt;
    uint64_t d;
    RT_OK(rt, gcrt_malloc(rt, &d, 64));
    gc_vecadd_params_t p = {gcrt_kernel_ptr(d), gcrt_kernel_ptr(d), gcrt_kernel_ptr(d), 16};
    uint32_t g1[3] = {1, 1, 1}, b8[3] = {8, 1, 1};
    uint32_t g0[3] = {1, 0, 1}, b0[3] = {0, 1, 1};
    uint32_t big[3] = {GC_SIMT_WARPS * GC_SIMT_LANES + 1, 1, 1}, wide[3] = {70000, 1, 1};
    size_t nops0;
    const gcrt_op_t *ops;
    RT_OK(rt, gcrt_ops(rt, &ops, &nops0));
    CHECK_EQ(gcrt_launch(rt, NULL, c.img, "no_such_kernel", g1, b8, &p, sizeof p, 0), GCRT_ERROR_INVALID_KERNEL);
    CHECK(strstr(gcrt_last_message(rt), "no_such_kernel") != NULL);
    CHECK_EQ(gcrt_launch(rt, NULL, c.img, "vecadd", g0, b8, &p, sizeof p, 0), GCRT_ERROR_INVALID_CONFIGURATION);
    CHECK_EQ(gcrt_launch(rt, NULL, c.img, "vecadd", g1, b0, &p, sizeof p, 0), GCRT_ERROR_INVALID_CONFIGURATION);
    CHECK_EQ(gcrt_launch(rt, NULL, c.img, "vecadd", g1, big, &p, sizeof p, 0), GCRT_ERROR_INVALID_CONFIGURATION);
    fprintf(stderr, "too big: %s\n", gcrt_last_message(rt));
    CHECK(strstr(gcrt_last_message(rt), "at most") != NULL);
    CHECK_EQ(gcrt_launch(rt, NULL, c.img, "vecadd", g1, wide, &p, sizeof p, 0), GCRT_ERROR_INVALID_CONFIGURATION);
    CHECK_EQ(gcrt_launch(rt, NULL, c.img, "reduce", g1, b8, &p, sizeof p, GC_SIMT_SMEM_BYTES + 4),
             GCRT_ERROR_INVALID_CONFIGURATION);
    CHECK_EQ(gcrt_launch(rt, NULL, NULL, "vecadd", g1, b8, &p, sizeof p, 0), GCRT_ERROR_INVALID_VALUE);
    CHECK_EQ(gcrt_launch(rt, NULL, c.img, NULL, g1, b8, &p, sizeof p, 0), GCRT_ERROR_INVALID_VALUE);
    CHECK_EQ(gcrt_launch(rt, NULL, c.img, "vecadd", NULL, b8, &p, sizeof p, 0), GCRT_ERROR_INVALID_VALUE);
    CHECK_EQ(gcrt_launch(rt, NULL, c.img, "vecadd", g1, b8, NULL, sizeof p, 0), GCRT_ERROR_INVALID_VALUE);
    CHECK_EQ(gcrt_launch(rt, NULL, c.img, "vecadd", g1, b8, &p, 1u << 20, 0), GCRT_ERROR_INVALID_VALUE);
    CHECK_EQ(gcrt_launch(rt, (gcrt_stream_t *)&p, c.img, "vecadd", g1, b8, &p, sizeof p, 0), GCRT_ERROR_INVALID_HANDLE);
    gc_elf_t *img = NULL;
    CHECK_EQ(gcrt_load_image(rt, "/nonexistent/kernels.elf", &img), GCRT_ERROR_INVALID_VALUE);
    CHECK(img == NULL);
    size_t nops1;
    RT_OK(rt, gcrt_ops(rt, &ops, &nops1));
    CHECK_EQ(nops1, nops0);
    /* still usable: a good launch on the default stream */
    RT_OK(rt, gcrt_memset_async(rt, d, 3, 64, NULL, NULL));
    RT_OK(rt, gcrt_launch(rt, NULL, c.img, "vecadd", g1, b8, &p, sizeof p, 0));
    RT_OK(rt, gcrt_stream_synchronize(rt, NULL));
    uint32_t got[16];
    RT_OK(rt, gcrt_read(rt, d, got, sizeof got));
    for (int i = 0; i < 16; i++) CHECK_EQ(got[i], 0x06060606u);
out:
    lclose(&c);
}

/* The `gpucosim run kernels` scenario (gcsc_kernels): two rounds of vecadd, saxpy, reduce and
 * histogram (and, with the FPU, fsaxpy, fdot and fmath) between H2D and D2H copies, every result
 * checked by the scenario; its timeline has the kernels on the compute engine's track (pid 3) and
 * the compute channel's. */
static void t_kernels_scenario(void) {
    gcrt_config_t cfg;
    gcrt_config_init(&cfg);
    cfg.device.quiet = true;
    cfg.sync_cycles = 20000000;
    char tl[96], err[700] = "";
    snprintf(tl, sizeof tl, "/tmp/gpucosim-kernels-%ld.json", (long)getpid());
    static gcsc_result_t r;
    gcrt_error_t e = gcsc_kernels(&cfg, GC_FIRMWARE_DIR "/kernels.elf", 2, stderr, tl, &r, err, sizeof err);
    if (e == GCRT_ERROR_NOT_SUPPORTED) TCASE_SKIP("the backend has no compute engine");
    if (e != GCRT_SUCCESS) {
        TCASE_FAIL_("gcsc_kernels: %s: %s", gcrt_error_name(e), err);
        return;
    }
    /* with the FPU each round adds fsaxpy, fdot, fmath and their 5 H2D + 3 D2H copies */
    uint32_t nfloat = r.fpu ? 2u * 3u : 0u;
    CHECK_EQ(r.float_skipped, !r.fpu);
    CHECK_EQ(r.kernels, 8u + nfloat);
    CHECK_EQ(r.bad_checks, 0u);
    CHECK(r.checks >= 9u + (r.fpu ? 7u : 0u));
    CHECK_EQ(r.total_ops, 32u + (r.fpu ? 22u : 0u));
    size_t nk = 0;
    for (size_t i = 0; i < r.nops; i++)
        if (r.ops[i].kind == GCRT_OP_KERNEL) {
            nk++;
            CHECK(r.ops[i].done);
            CHECK_EQ(r.ops[i].engine, GCRT_COMPUTE_ENGINE);
            CHECK(r.ops[i].start_cycle < r.ops[i].end_cycle);
        }
    CHECK_EQ(nk, 8u + nfloat);
    const char *buf = slurp(tl);
    remove(tl);
    REQUIRE(buf != NULL);
    CHECK(strstr(buf, "\"traceEvents\"") != NULL);
    CHECK(strstr(buf, "\"name\":\"compute engine\"") != NULL);
    CHECK(strstr(buf, "(compute)") != NULL);
    /* every kernel's start / end (gcrt_ops and its stream's compute-engine track) is its task's
     * START / COMPLETE record in the TMU log */
    CHECK_EQ(check_kernel_times(&r, buf), 8u + nfloat);
    /* every copy's start / end (gcrt_ops and its copy engine's track) is its engine's record */
    CHECK_EQ(check_copy_times(&r, buf), 24u + (r.fpu ? 2u * 8u : 0u));
    /* for the log: the two streams' first kernels (they overlap when both streams' copies were
     * done before either kernel ended: the compute engine runs them at once) */
    const gcrt_op_t *va = NULL, *sx = NULL;
    for (size_t i = 0; i < r.nops && !(va && sx); i++) {
        if (r.ops[i].kind == GCRT_OP_KERNEL && !strcmp(r.ops[i].tag, "vecadd")) va = &r.ops[i];
        if (r.ops[i].kind == GCRT_OP_KERNEL && !strcmp(r.ops[i].tag, "saxpy")) sx = &r.ops[i];
    }
    REQUIRE(va && sx);
    fprintf(stderr, "round 0: vecadd %llu..%llu, saxpy %llu..%llu\n", (unsigned long long)va->start_cycle,
            (unsigned long long)va->end_cycle, (unsigned long long)sx->start_cycle, (unsigned long long)sx->end_cycle);
    CHECK(strstr(buf, "\"name\":\"histogram\"") != NULL);
}

/* Freeing a kernel's input while the kernel is queued, allocating the range again and writing
 * other values there: gcrt_free waits for the kernel (like cudaFree), so it read the old ones. */
static void t_free_kernel_input(void) {
    lctx_t c;
    LOPEN(c);
    gcrt_t *rt = c.rt;
    enum { N = 512 };
    static uint32_t a[N], b[N], junk[N], got[N];
    rnd(a, N, 7, ~0u);
    rnd(b, N, 8, ~0u);
    rnd(junk, N, 9, ~0u);
    uint64_t da, db, dc, da2;
    RT_OK(rt, gcrt_malloc(rt, &da, 4 * N));
    RT_OK(rt, gcrt_malloc(rt, &db, 4 * N));
    RT_OK(rt, gcrt_malloc(rt, &dc, 4 * N));
    RT_OK(rt, gcrt_write(rt, da, a, sizeof a));
    RT_OK(rt, gcrt_write(rt, db, b, sizeof b));
    gc_vecadd_params_t p = {gcrt_kernel_ptr(da), gcrt_kernel_ptr(db), gcrt_kernel_ptr(dc), N};
    uint32_t grid[3] = {2, 1, 1}, block[3] = {32, 1, 1};
    RT_OK(rt, gcrt_launch(rt, NULL, c.img, "vecadd", grid, block, &p, sizeof p, 0));
    RT_OK(rt, gcrt_free(rt, da));
    RT_OK(rt, gcrt_malloc(rt, &da2, 4 * N));
    CHECK_EQ(da2, da); /* the dangerous case: the same range handed out again */
    RT_OK(rt, gcrt_write(rt, da2, junk, sizeof junk));
    RT_OK(rt, gcrt_device_synchronize(rt));
    RT_OK(rt, gcrt_read(rt, dc, got, sizeof got));
    for (uint32_t i = 0; i < N; i++)
        if (got[i] != a[i] + b[i]) {
            TCASE_FAIL_("c[%u] = 0x%x, want 0x%x (the kernel read the freed range's new contents)", i, got[i], a[i] + b[i]);
            break;
        }
out:
    lclose(&c);
}

/* Launch `kernel` of `img` on n elements (a, b -> out) and read out. */
static gcrt_error_t run_other(gcrt_t *rt, const gc_elf_t *img, const char *kernel, uint32_t sel, uint64_t da,
                              uint64_t db, uint64_t dout, uint32_t n, uint32_t *got) {
    gc_other_params_t p = {gcrt_kernel_ptr(da), gcrt_kernel_ptr(db), gcrt_kernel_ptr(dout), n, sel};
    uint32_t grid[3] = {3, 1, 1}, block[3] = {16, 1, 1};
    gcrt_error_t e = gcrt_memset_async(rt, dout, 0, 4ull * n, NULL, "zero out");
    if (!e) e = gcrt_launch(rt, NULL, img, kernel, grid, block, &p, sizeof p, 0);
    if (!e) e = gcrt_stream_synchronize(rt, NULL);
    if (!e) e = gcrt_read(rt, dout, got, 4ull * n);
    return e;
}

/* Two images at once: kernels.elf and other.elf link at the same address, so the loader moves the
 * second (relocations: absolute addressing, tables of addresses); kernels of both run, each from
 * its own image (both have a `vecadd`, computing different things).  Then the image handles are
 * checked like streams and events: unloading twice, launching after the unload and using an
 * image of another runtime are refused with GCRT_ERROR_INVALID_HANDLE (never dereferenced: the
 * test runs under ASan); an image without relocations cannot be loaded twice. */
static void t_two_images(void) {
    lctx_t c;
    LOPEN(c);
    gcrt_t *rt = c.rt, *rt2 = NULL;
    gc_elf_t *other = NULL, *foreign = NULL, *isa = NULL, *isa2 = NULL;
    enum { N = 200 };
    static uint32_t a[N], b[N], got[N];
    rnd(a, N, 21, ~0u);
    rnd(b, N, 22, ~0u);
    uint64_t da, db, dout;
    RT_OK(rt, gcrt_malloc(rt, &da, 4 * N));
    RT_OK(rt, gcrt_malloc(rt, &db, 4 * N));
    RT_OK(rt, gcrt_malloc(rt, &dout, 4 * N));
    RT_OK(rt, gcrt_write(rt, da, a, sizeof a));
    RT_OK(rt, gcrt_write(rt, db, b, sizeof b));
    RT_OK(rt, gcrt_load_image(rt, GC_FIRMWARE_DIR "/other.elf", &other));
    uint32_t k0 = gc_elf_base(c.img), k1 = gc_elf_base(other), pc0 = 0, pc1 = 0;
    fprintf(stderr, "kernels.elf at 0x%08x (+%u), other.elf at 0x%08x (+%u)\n", k0, gc_elf_span(c.img), k1,
            gc_elf_span(other));
    CHECK_EQ(k0, 0x83000000u); /* the first keeps its link address */
    CHECK(k1 >= k0 + gc_elf_span(c.img) || k1 + gc_elf_span(other) <= k0); /* no overlap */
    CHECK_EQ(gc_elf_symbol(c.img, "vecadd", &pc0), GC_OK);
    CHECK_EQ(gc_elf_symbol(other, "vecadd", &pc1), GC_OK);
    CHECK(pc0 != pc1);
    for (int round = 0; round < 2; round++) { /* kernels of the two images interleaved, twice */
        RT_OK(rt, run_other(rt, c.img, "vecadd", 0, da, db, dout, N, got));
        for (uint32_t i = 0; i < N; i++)
            if (got[i] != a[i] + b[i]) {
                TCASE_FAIL_("kernels.elf vecadd: [%u] = 0x%x, want 0x%x", i, got[i], a[i] + b[i]);
                break;
            }
        RT_OK(rt, run_other(rt, other, "vecadd", 0, da, db, dout, N, got));
        for (uint32_t i = 0; i < N; i++)
            if (got[i] != a[i] + b[i] + 1) {
                TCASE_FAIL_("other.elf vecadd: [%u] = 0x%x, want 0x%x", i, got[i], a[i] + b[i] + 1);
                break;
            }
        for (uint32_t sel = 0; sel < 4; sel++) {
            RT_OK(rt, run_other(rt, other, "table_op", sel, da, db, dout, N, got));
            for (uint32_t i = 0; i < N; i++)
                if (got[i] != (gc_other_op(sel, a[i], b[i]) ^ gc_other_mix(i))) {
                    TCASE_FAIL_("other.elf table_op sel %u: [%u] = 0x%x, want 0x%x", sel, i, got[i],
                                gc_other_op(sel, a[i], b[i]) ^ gc_other_mix(i));
                    break;
                }
        }
    }
    /* unload, then the handle is dead */
    RT_OK(rt, gcrt_unload_image(rt, other));
    uint32_t g1[3] = {1, 1, 1};
    gc_other_params_t p = {0};
    CHECK_EQ(gcrt_unload_image(rt, other), GCRT_ERROR_INVALID_HANDLE);
    CHECK(strstr(gcrt_last_message(rt), "unloaded") != NULL);
    fprintf(stderr, "unload twice: %s\n", gcrt_last_message(rt));
    CHECK_EQ(gcrt_launch(rt, NULL, other, "vecadd", g1, g1, &p, sizeof p, 0), GCRT_ERROR_INVALID_HANDLE);
    fprintf(stderr, "launch after unload: %s\n", gcrt_last_message(rt));
    other = NULL;
    /* an image of another runtime */
    gcrt_config_t cfg;
    gcrt_config_init(&cfg);
    cfg.device.quiet = true;
    cfg.device.backend = "ref"; /* the sc backend has one device per process */
    RT_OK(rt, gcrt_open(&cfg, &rt2));
    RT_OK(rt2, gcrt_load_image(rt2, GC_FIRMWARE_DIR "/kernels.elf", &foreign));
    CHECK_EQ(gcrt_launch(rt, NULL, foreign, "vecadd", g1, g1, &p, sizeof p, 0), GCRT_ERROR_INVALID_HANDLE);
    fprintf(stderr, "launch of another runtime's image: %s\n", gcrt_last_message(rt));
    CHECK_EQ(gcrt_unload_image(rt, foreign), GCRT_ERROR_INVALID_HANDLE);
    RT_OK(rt2, gcrt_unload_image(rt2, foreign));
    /* an image without relocations stays at its link address: a second copy is refused */
    RT_OK(rt, gcrt_load_image(rt, GC_FIRMWARE_DIR "/simt_isa.elf", &isa));
    CHECK_EQ(gcrt_load_image(rt, GC_FIRMWARE_DIR "/simt_isa.elf", &isa2), GCRT_ERROR_INVALID_VALUE);
    CHECK(isa2 == NULL && strstr(gcrt_last_message(rt), "--emit-relocs") != NULL);
    fprintf(stderr, "second simt_isa.elf: %s\n", gcrt_last_message(rt));
    /* the first image still works after all that; other.elf loads again */
    RT_OK(rt, gcrt_load_image(rt, GC_FIRMWARE_DIR "/other.elf", &other));
    RT_OK(rt, run_other(rt, other, "table_op", 3, da, db, dout, N, got));
    CHECK_EQ(got[N - 1], gc_other_op(3, a[N - 1], b[N - 1]) ^ gc_other_mix(N - 1));
    RT_OK(rt, run_other(rt, c.img, "vecadd", 0, da, db, dout, N, got));
    CHECK_EQ(got[7], a[7] + b[7]);
out:
    if (rt2) gcrt_close(rt2);
    if (other) gcrt_unload_image(rt, other);
    if (isa) gcrt_unload_image(rt, isa);
    lclose(&c);
}

/* The float kernels (issue 15) through the kernels scenario, five rounds (every CTA shape): fsaxpy,
 * fdot and sqrtf bit for bit, expf / logf / sinf / powf within their bounds; skipped (not passed)
 * when the SIMT core has no FPU (rtl / sc until the RTL has one; never ref: that fails). */
static void t_float_kernels(void) {
    gcrt_config_t cfg;
    gcrt_config_init(&cfg);
    cfg.device.quiet = true;
    cfg.sync_cycles = 20000000;
    char err[700] = "";
    bool fpu = false;
    uint32_t v = 0;
    gcrt_error_t e = gcsc_fpu_probe(&cfg, GC_FIRMWARE_DIR "/kernels.elf", &fpu, &v, err, sizeof err);
    if (e == GCRT_ERROR_NOT_SUPPORTED) TCASE_SKIP("the backend has no compute engine");
    if (e != GCRT_SUCCESS) {
        TCASE_FAIL_("gcsc_fpu_probe: %s: %s", gcrt_error_name(e), err);
        return;
    }
    if (!fpu && !strcmp(cfg.device.backend, "ref")) {
        TCASE_FAIL_("the ref backend has no FPU: fpu_probe faulted ILLEGAL_INSTRUCTION (ref implements RV32F)");
        return;
    }
    if (!fpu) TCASE_SKIP("the SIMT core has no FPU: fpu_probe faulted ILLEGAL_INSTRUCTION on an F instruction");
    CHECK_EQ(v, GC_FPU_PROBE_RESULT);
    static gcsc_result_t r;
    e = gcsc_kernels(&cfg, GC_FIRMWARE_DIR "/kernels.elf", 5, stderr, NULL, &r, err, sizeof err);
    if (e != GCRT_SUCCESS) {
        TCASE_FAIL_("gcsc_kernels: %s: %s", gcrt_error_name(e), err);
        return;
    }
    CHECK(r.fpu && !r.float_skipped);
    CHECK_EQ(r.kernels, 5u * 7u);
    CHECK_EQ(r.bad_checks, 0u);
    CHECK_EQ(r.checks, 5u * 7u + 2u); /* 4 integer + 3 float per round, the kernel count, fpu_probe */
    static const double bound[GC_FMATH_FUNCS] = GCSC_FMATH_ULP;
    for (int k = 0; k < GC_FMATH_FUNCS; k++) CHECK(r.fmath_worst_ulp[k] <= bound[k]);
    CHECK(r.fmath_worst_ulp[2] == 0.0 || r.fmath_worst_ulp[2] <= 0.5); /* sqrtf: correctly rounded */
}

static const tcase_t cases[] = {
    {"launch_two_images", t_two_images},
    {"launch_free_kernel_input", t_free_kernel_input},
    {"launch_vecadd", t_vecadd},
    {"launch_reduce_streams", t_reduce_streams},
    {"launch_fault", t_fault},
    {"launch_null_pointer", t_null_pointer},
    {"launch_bad_args", t_bad_args},
    {"launch_kernels_scenario", t_kernels_scenario},
    {"launch_float_kernels", t_float_kernels},
};
TCASE_MAIN(cases)
