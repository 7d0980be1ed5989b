/* Differential test: random stream programs (copies, memsets, events, priorities, many channels)
 * run on the rtl backend and on another backend ($GPUCOSIM_DIFF_BACKEND, default "ref"); the final
 * memory of both must equal a host model of the program, and each stream's copies must complete
 * in issue order on both.
 *
 * Programs are race free by construction, so the host model is exact: every buffer is either
 * read-only, or owned by one stream, which alone may write it; ownership moves from stream A to
 * stream B only through an event recorded on A and waited for by B (gcrt_stream_wait_event).
 *
 * Kernels (diff_kernels_*): random launches of the firmware kernels (vecadd, saxpy, reduce,
 * histogram in both modes, divergent) with random shapes and data, each between its H2D and D2H
 * copies on one of two streams, through gcrt_launch on rtl and on the other backend; every output
 * must equal the host's computation on both.  diff_isa: the SIMT instruction tests
 * (tests/rtl/simt_isa.S, every entry of simt_isa_list.h, for two CTAs of WARPS x LANES threads)
 * leave the same results on both (but the CYCLE test), and the fault entries leave the same fault
 * record (cause, PC, address, lane).  diff_fault_wild: a store that gets DECERR while its thread
 * runs on (posted) is named in the record on both (FAULT_PC = the ELF symbol fault_store_late_pc),
 * and an LR's bus error is LOAD_BUS_ERROR on both.  diff_lrsc_store / diff_lrsc_amo: plain stores
 * and atomic-unit writes break LR reservations on exactly their 4-byte word on both;
 * diff_lrsc_pairs: lanes LR one word together.  Skipped when the other backend has no compute
 * engine.
 */
#include <time.h>

#include "cosim_util.h"
#include "gc_kernels.h"
#include "gpucosim/compute.h"
#include "gpucosim/runtime.h"
#include "tcase.h"

#ifndef GC_FIRMWARE_DIR
#define GC_FIRMWARE_DIR "build/firmware"
#endif

enum { NBUF = 8, BUFSZ = 32768, MAXS = 5, MAXOPS = 48 };

typedef enum { P_COPY, P_MEMSET, P_HANDOFF } pkind_t;

typedef struct pop {
    pkind_t kind;
    int s, t;           /* stream (handoff: from s to t) */
    int dbuf, sbuf;     /* buffers */
    uint32_t doff, soff, len;
    int value;
} pop_t;

typedef struct prog {
    int nstreams, prio[MAXS];
    bool host[NBUF];    /* buffer in pinned host memory (else device) */
    int nops;
    pop_t ops[MAXOPS];
    uint8_t init[NBUF][BUFSZ];
} prog_t;

static uint64_t rng_next(uint64_t *x) {
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}
static uint32_t rnd(uint64_t *x, uint32_t n) { return (uint32_t)(rng_next(x) % n); }

static void gen(prog_t *p, uint64_t seed) {
    uint64_t x = seed * 0x9E3779B97F4A7C15ull + 7;
    memset(p, 0, sizeof *p);
    p->nstreams = 2 + (int)rnd(&x, MAXS - 1);
    for (int s = 0; s < p->nstreams; s++) p->prio[s] = -(int)rnd(&x, 6);
    int owner[NBUF];
    for (int b = 0; b < NBUF; b++) {
        p->host[b] = rnd(&x, 3) == 0;
        owner[b] = b < 2 ? -1 : (int)rnd(&x, (uint32_t)p->nstreams); /* buffers 0, 1 read-only */
        gcsc_fill(p->init[b], BUFSZ, seed * 31 + (uint64_t)b);
    }
    p->nops = 24 + (int)rnd(&x, MAXOPS - 24);
    for (int i = 0; i < p->nops; i++) {
        pop_t *o = &p->ops[i];
        o->s = (int)rnd(&x, (uint32_t)p->nstreams);
        int mine[NBUF], nm = 0, readable[NBUF], nr = 0;
        for (int b = 0; b < NBUF; b++) {
            if (owner[b] == o->s) mine[nm++] = b;
            if (owner[b] == o->s || owner[b] == -1) readable[nr++] = b;
        }
        uint32_t r = rnd(&x, 10);
        if (nm == 0 || r < 2) { /* hand a buffer of another stream over to this one */
            int cands[NBUF], nc = 0;
            for (int b = 2; b < NBUF; b++)
                if (owner[b] >= 0 && owner[b] != o->s) cands[nc++] = b;
            if (nc == 0) {
                i--;
                continue;
            }
            o->kind = P_HANDOFF;
            o->dbuf = cands[rnd(&x, (uint32_t)nc)];
            o->t = o->s;
            o->s = owner[o->dbuf];
            owner[o->dbuf] = o->t;
            continue;
        }
        o->dbuf = mine[rnd(&x, (uint32_t)nm)];
        o->len = 1 + rnd(&x, 6000);
        o->doff = rnd(&x, BUFSZ - o->len + 1);
        if (r < 4) {
            o->kind = P_MEMSET;
            o->value = (int)rnd(&x, 256);
        } else {
            o->kind = P_COPY;
            o->sbuf = readable[rnd(&x, (uint32_t)nr)];
            o->soff = rnd(&x, BUFSZ - o->len + 1);
            if (o->sbuf == o->dbuf) o->soff = o->doff; /* no overlapping copies within a buffer */
        }
    }
}

/* Host model: ops of one stream run in order, and the ownership rule makes every other order
 * give the same result, so program order is a valid execution. */
static void model(const prog_t *p, uint8_t mem[NBUF][BUFSZ]) {
    memcpy(mem, p->init, sizeof p->init);
    for (int i = 0; i < p->nops; i++) {
        const pop_t *o = &p->ops[i];
        if (o->kind == P_MEMSET) memset(mem[o->dbuf] + o->doff, o->value, o->len);
        else if (o->kind == P_COPY) memmove(mem[o->dbuf] + o->doff, mem[o->sbuf] + o->soff, o->len);
    }
}

typedef struct outcome {
    uint8_t mem[NBUF][BUFSZ];
    int nops;
    uint32_t stream_of[MAXOPS];
    uint64_t end[MAXOPS];
    int ok;
} outcome_t;

static int run(const prog_t *p, const char *backend, outcome_t *out) {
    memset(out, 0, sizeof *out);
    gcrt_config_t c;
    gcrt_config_init(&c);
    c.device.backend = backend;
    c.device.quiet = true;
    c.sync_cycles = 20000000;
    gcrt_t *rt = NULL;
    if (gcrt_open(&c, &rt)) {
        fprintf(stderr, "%s: gcrt_open failed\n", backend);
        return 0;
    }
    gcrt_stream_t *st[MAXS];
    uint64_t addr[NBUF];
    gcrt_event_t *ev[MAXOPS];
    int nev = 0;
    gcrt_error_t e = GCRT_SUCCESS;
    for (int s = 0; s < p->nstreams && !e; s++) e = gcrt_stream_create_with_priority(rt, &st[s], p->prio[s]);
    for (int b = 0; b < NBUF && !e; b++) {
        e = p->host[b] ? gcrt_malloc_host(rt, &addr[b], BUFSZ) : gcrt_malloc(rt, &addr[b], BUFSZ);
        if (!e) e = gcrt_write(rt, addr[b], p->init[b], BUFSZ);
    }
    for (int i = 0; i < p->nops && !e; i++) {
        const pop_t *o = &p->ops[i];
        if (o->kind == P_HANDOFF) {
            e = gcrt_event_create(rt, &ev[nev]);
            if (!e) e = gcrt_event_record(rt, ev[nev], st[o->s]);
            if (!e) e = gcrt_stream_wait_event(rt, st[o->t], ev[nev]);
            nev++;
        } else if (o->kind == P_MEMSET) {
            e = gcrt_memset_async(rt, addr[o->dbuf] + o->doff, o->value, o->len, st[o->s], NULL);
        } else {
            gcrt_memcpy_kind_t k = p->host[o->sbuf] ? (p->host[o->dbuf] ? GCRT_MEMCPY_HOST_TO_HOST : GCRT_MEMCPY_HOST_TO_DEVICE)
                                                    : (p->host[o->dbuf] ? GCRT_MEMCPY_DEVICE_TO_HOST
                                                                        : GCRT_MEMCPY_DEVICE_TO_DEVICE);
            e = gcrt_memcpy_async(rt, addr[o->dbuf] + o->doff, addr[o->sbuf] + o->soff, o->len, k, st[o->s], NULL);
        }
    }
    if (!e) e = gcrt_device_synchronize(rt);
    for (int b = 0; b < NBUF && !e; b++) e = gcrt_read(rt, addr[b], out->mem[b], BUFSZ);
    const gcrt_op_t *ops;
    size_t n = 0;
    if (!e) e = gcrt_ops(rt, &ops, &n);
    if (e) {
        fprintf(stderr, "%s: %s: %s\n", backend, gcrt_error_name(e), gcrt_last_message(rt));
    } else {
        out->nops = (int)n;
        for (size_t i = 0; i < n && i < MAXOPS; i++) {
            out->stream_of[i] = ops[i].stream_id;
            out->end[i] = ops[i].end_cycle;
        }
        out->ok = 1;
    }
    gcrt_close(rt);
    return out->ok;
}

/* Each stream's ops complete in issue order. */
static int stream_order_ok(const outcome_t *o, const char *backend) {
    for (int i = 0; i < o->nops; i++)
        for (int j = i + 1; j < o->nops; j++)
            if (o->stream_of[i] == o->stream_of[j] && o->end[j] <= o->end[i]) {
                fprintf(stderr, "%s: stream %u: op %d completed at %llu, before op %d (issued earlier) at %llu\n",
                        backend, o->stream_of[i], j, (unsigned long long)o->end[j], i, (unsigned long long)o->end[i]);
                return 0;
            }
    return 1;
}

static void diff_seeds(uint64_t first, int count) {
    const char *other = getenv("GPUCOSIM_DIFF_BACKEND");
    if (!other || !*other) other = "ref";
    static prog_t p;
    static outcome_t a, b;
    static uint8_t want[NBUF][BUFSZ];
    for (uint64_t seed = first; seed < first + (uint64_t)count; seed++) {
        gen(&p, seed);
        model(&p, want);
        fprintf(stderr, "program %llu: %d streams, %d ops\n", (unsigned long long)seed, p.nstreams, p.nops);
        REQUIRE(run(&p, "rtl", &a));
        REQUIRE(run(&p, other, &b));
        size_t bad_a = 0, bad_b = 0, bad_ab = 0;
        for (int k = 0; k < NBUF; k++) {
            bad_a += util_diff("rtl vs model", want[k], a.mem[k], BUFSZ);
            bad_b += util_diff(other, want[k], b.mem[k], BUFSZ);
            bad_ab += util_diff("rtl vs other", a.mem[k], b.mem[k], BUFSZ);
        }
        CHECK_EQ(bad_a, 0);
        CHECK_EQ(bad_b, 0);
        CHECK_EQ(bad_ab, 0);
        CHECK_EQ(a.nops, b.nops);
        for (int i = 0; i < a.nops && i < b.nops; i++) CHECK_EQ(a.stream_of[i], b.stream_of[i]);
        CHECK(stream_order_ok(&a, "rtl"));
        CHECK(stream_order_ok(&b, other));
        if (tcase_failed) {
            fprintf(stderr, "program seed %llu differs\n", (unsigned long long)seed);
            return;
        }
    }
}

/* ------------------------------------------------------------------ kernels */
enum { KN = 6, KMAXN = 1200, KOUT = 64 };
typedef enum { K_VECADD, K_SAXPY, K_REDUCE, K_HIST0, K_HIST1, K_DIV, K_KINDS } kkind_t;
static const char *const kname[K_KINDS] = {"vecadd", "saxpy", "reduce", "histogram", "histogram", "divergent"};

typedef struct klaunch {
    kkind_t kind;
    uint32_t n, grid, block, nbins;
    int32_t alpha;
    uint32_t a[KMAXN], b[KMAXN];
} klaunch_t;

typedef struct kresult {
    uint32_t out[KN][KMAXN + KOUT];
    uint64_t kernel_cycles, kcyc[KN];
    double seconds;
    int ok;
} kresult_t;

static void kgen(klaunch_t *k, uint64_t seed) {
    uint64_t x = seed * 0x9E3779B97F4A7C15ull + 11;
    for (int i = 0; i < KN; i++) {
        klaunch_t *l = &k[i];
        l->kind = (kkind_t)((i + rnd(&x, K_KINDS)) % K_KINDS);
        l->n = 1 + rnd(&x, KMAXN);
        l->grid = 1 + rnd(&x, 6);
        l->block = 1 + rnd(&x, GC_SIMT_WARPS * GC_SIMT_LANES);
        l->nbins = 1 + rnd(&x, 16);
        l->alpha = (int32_t)rng_next(&x);
        uint32_t mask = l->kind == K_HIST0 || l->kind == K_HIST1 ? 0xFFFFu : 0xFFFFFFFFu;
        for (uint32_t j = 0; j < KMAXN; j++) {
            l->a[j] = (uint32_t)rng_next(&x) & mask;
            l->b[j] = (uint32_t)rng_next(&x);
            if (l->kind == K_DIV && j % 3 == 0) l->a[j] %= 1000;
        }
    }
}

/* The host's outputs of launch l (the words its output buffer must hold). */
static void kmodel(const klaunch_t *l, uint32_t *out) {
    memset(out, 0, (KMAXN + KOUT) * 4);
    uint32_t n = l->n;
    switch (l->kind) {
    case K_VECADD: for (uint32_t i = 0; i < n; i++) out[i] = l->a[i] + l->b[i]; break;
    case K_SAXPY: /* y starts as a copy of b */
        for (uint32_t i = 0; i < KMAXN; i++) out[i] = i < n ? (uint32_t)l->alpha * l->a[i] + l->b[i] : l->b[i];
        break;
    case K_DIV: for (uint32_t i = 0; i < n; i++) out[i] = gc_divergent_elem(l->a[i]); break;
    case K_REDUCE: /* out[cta] partial sums, out[grid] the total */
        for (uint32_t i = 0; i < n; i++) {
            out[(i % (l->grid * l->block)) / l->block] += l->a[i];
            out[l->grid] += l->a[i];
        }
        break;
    default: /* bins[nbins], maxv, count */
        for (uint32_t i = 0; i < n; i++) {
            out[l->a[i] % l->nbins]++;
            if (l->a[i] > out[l->nbins]) out[l->nbins] = l->a[i];
        }
        out[l->nbins + 1] = n;
        break;
    }
}

#define KE(expr)                                                                                        \
    do {                                                                                                \
        if (!e) {                                                                                       \
            e = (expr);                                                                                 \
            if (e) fprintf(stderr, "%s: %s: %s (%s)\n", backend, #expr, gcrt_error_name(e), gcrt_last_message(rt)); \
        }                                                                                               \
    } while (0)

/* 1: ran; 0: failed; -1: the backend has no compute engine. */
static int krun(const klaunch_t *k, const char *backend, kresult_t *res) {
    memset(res, 0, sizeof *res);
    gcrt_config_t c;
    gcrt_config_init(&c);
    c.device.backend = backend;
    c.device.quiet = true;
    c.sync_cycles = 50000000;
    gcrt_t *rt = NULL;
    if (gcrt_open(&c, &rt)) return 0;
    uint32_t hw;
    gcrt_error_t e = gcrt_compute_channel(rt, &hw);
    if (e == GCRT_ERROR_NOT_SUPPORTED) {
        fprintf(stderr, "%s: %s\n", backend, gcrt_last_message(rt));
        gcrt_close(rt);
        return -1;
    }
    double t0 = (double)clock() / CLOCKS_PER_SEC;
    gc_elf_t *img = NULL;
    gcrt_stream_t *st[2];
    KE(gcrt_load_image(rt, GC_FIRMWARE_DIR "/kernels.elf", &img));
    KE(gcrt_stream_create_with_priority(rt, &st[0], 0));
    KE(gcrt_stream_create_with_priority(rt, &st[1], -4));
    uint64_t ha[KN], hb[KN], hout[KN], da[KN], db[KN], dout[KN], dp[KN];
    const uint32_t ob = (KMAXN + KOUT) * 4;
    for (int i = 0; i < KN && !e; i++) {
        const klaunch_t *l = &k[i];
        gcrt_stream_t *s = st[i % 2];
        KE(gcrt_malloc_host(rt, &ha[i], sizeof l->a));
        KE(gcrt_malloc_host(rt, &hb[i], sizeof l->b));
        KE(gcrt_malloc_host(rt, &hout[i], ob));
        KE(gcrt_malloc(rt, &da[i], sizeof l->a));
        KE(gcrt_malloc(rt, &db[i], sizeof l->b));
        KE(gcrt_malloc(rt, &dout[i], ob));
        KE(gcrt_malloc(rt, &dp[i], 64));
        KE(gcrt_write(rt, ha[i], l->a, sizeof l->a));
        KE(gcrt_write(rt, hb[i], l->b, sizeof l->b));
        KE(gcrt_memcpy_async(rt, da[i], ha[i], sizeof l->a, GCRT_MEMCPY_HOST_TO_DEVICE, s, "a"));
        KE(gcrt_memcpy_async(rt, db[i], hb[i], sizeof l->b, GCRT_MEMCPY_HOST_TO_DEVICE, s, "b"));
        KE(gcrt_memset_async(rt, dout[i], 0, ob, s, "zero"));
        uint32_t A = gcrt_kernel_ptr(da[i]), B = gcrt_kernel_ptr(db[i]), O = gcrt_kernel_ptr(dout[i]);
        uint32_t grid[3] = {l->grid, 1, 1}, block[3] = {l->block, 1, 1}, smem = 0;
        union {
            gc_vecadd_params_t v;
            gc_saxpy_params_t s;
            gc_reduce_params_t r;
            gc_histogram_params_t h;
            gc_divergent_params_t d;
        } p;
        size_t pn;
        switch (l->kind) {
        case K_VECADD: p.v = (gc_vecadd_params_t){A, B, O, l->n}, pn = sizeof p.v; break;
        case K_SAXPY: /* y is the output buffer: copy b into it first */
            KE(gcrt_memcpy_async(rt, dout[i], db[i], sizeof l->b, GCRT_MEMCPY_DEVICE_TO_DEVICE, s, "y"));
            p.s = (gc_saxpy_params_t){A, O, l->n, l->alpha}, pn = sizeof p.s;
            break;
        case K_REDUCE:
            p.r = (gc_reduce_params_t){A, O, O + 4 * l->grid, l->n}, pn = sizeof p.r;
            smem = 4 * l->block;
            break;
        case K_DIV: p.d = (gc_divergent_params_t){A, O, l->n}, pn = sizeof p.d; break;
        default:
            p.h = (gc_histogram_params_t){A, O, O + 4 * l->nbins, O + 4 * (l->nbins + 1), l->n, l->nbins,
                                          l->kind == K_HIST1};
            pn = sizeof p.h;
            smem = 4 * l->nbins;
            break;
        }
        KE(gcrt_launch(rt, s, img, kname[l->kind], grid, block, &p, pn, smem));
        KE(gcrt_memcpy_async(rt, hout[i], dout[i], ob, GCRT_MEMCPY_DEVICE_TO_HOST, s, "out"));
    }
    KE(gcrt_device_synchronize(rt));
    for (int i = 0; i < KN && !e; i++) KE(gcrt_read(rt, hout[i], res->out[i], ob));
    const gcrt_op_t *ops;
    size_t n = 0;
    KE(gcrt_ops(rt, &ops, &n));
    for (size_t i = 0, j = 0; i < n && !e; i++)
        if (ops[i].kind == GCRT_OP_KERNEL) {
            res->kernel_cycles += ops[i].end_cycle - ops[i].start_cycle;
            if (j < KN) res->kcyc[j++] = ops[i].end_cycle - ops[i].start_cycle;
        }
    res->seconds = (double)clock() / CLOCKS_PER_SEC - t0;
    if (img) gcrt_unload_image(rt, img);
    gcrt_close(rt);
    res->ok = !e;
    return res->ok;
}

static void diff_kernels(uint64_t first, int count) {
    const char *other = getenv("GPUCOSIM_DIFF_BACKEND");
    if (!other || !*other) other = "ref";
    static klaunch_t k[KN];
    static kresult_t a, b;
    static uint32_t want[KMAXN + KOUT];
    for (uint64_t seed = first; seed < first + (uint64_t)count; seed++) {
        kgen(k, seed);
        int rb = krun(k, other, &b);
        if (rb < 0) TCASE_SKIP("backend %s has no compute engine", other);
        REQUIRE(rb == 1);
        REQUIRE(krun(k, "rtl", &a) == 1);
        for (int i = 0; i < KN; i++) {
            const klaunch_t *l = &k[i];
            kmodel(l, want);
            char what[96];
            snprintf(what, sizeof what, "seed %llu launch %d %s%s n %u grid %u block %u", (unsigned long long)seed, i,
                     kname[l->kind], l->kind == K_HIST1 ? " (shared)" : "", l->n, l->grid, l->block);
            size_t bad_a = util_diff(what, (const uint8_t *)want, (const uint8_t *)a.out[i], sizeof want);
            size_t bad_b = util_diff(what, (const uint8_t *)want, (const uint8_t *)b.out[i], sizeof want);
            if (bad_a || bad_b) TCASE_FAIL_("%s: %zu bytes differ on rtl, %zu on %s", what, bad_a, bad_b, other);
            fprintf(stderr, "  %s: %llu cycles on rtl, %llu on %s\n", what, (unsigned long long)a.kcyc[i],
                    (unsigned long long)b.kcyc[i], other);
        }
        fprintf(stderr, "seed %llu: kernel cycles rtl %llu, %s %llu (%.2f); host seconds rtl %.2f, %s %.2f\n",
                (unsigned long long)seed, (unsigned long long)a.kernel_cycles, other,
                (unsigned long long)b.kernel_cycles, a.kernel_cycles ? (double)b.kernel_cycles / (double)a.kernel_cycles : 0.0,
                a.seconds, other, b.seconds);
    }
}

/* ------------------------------------------------------------------ ISA tests and faults */
#define RR(op) +1
#define RI(op, imm) +1
#define BR(op) +1
#define LD(sp, op, o) +1
#define ST(sp, op, o) +1
#define AMO(sp, op) +1
#define SP(name) +1
#define FP(form, m, op, rm) +1
#define FLS(sp) +1
enum { ISA_NT = 0
#include "../rtl/simt_isa_list.h"
};
#undef SP
#define SP(name) #name,
#undef RR
#undef RI
#undef BR
#undef LD
#undef ST
#undef AMO
#define RR(op) "",
#define RI(op, imm) "",
#define BR(op) "",
#define LD(sp, op, o) "",
#define ST(sp, op, o) "",
#define AMO(sp, op) "",
#undef FP
#undef FLS
#define FP(form, m, op, rm) #m " " #rm,
#define FLS(sp) "flw/fsw " #sp,
static const char *const isa_sp_name[ISA_NT] = {
#include "../rtl/simt_isa_list.h"
};
#undef RR
#undef RI
#undef BR
#undef LD
#undef ST
#undef AMO
#undef SP
#undef FP
#undef FLS

enum { ISA_GRID = 2, ISA_THREADS = GC_SIMT_WARPS * GC_SIMT_LANES, ISA_ALL = ISA_GRID * ISA_THREADS };

typedef struct frec {
    gcrt_error_t sync;
    gc_compute_fault_t f;
} frec_t;

/* Open a runtime on `backend` with simt_isa.elf loaded; -1: no compute engine. */
static int isa_open(const char *backend, gcrt_t **rt, gc_elf_t **img) {
    gcrt_config_t c;
    gcrt_config_init(&c);
    c.device.backend = backend;
    c.device.quiet = true;
    c.sync_cycles = 20000000;
    *rt = NULL;
    *img = NULL;
    if (gcrt_open(&c, rt)) return 0;
    uint32_t hw;
    gcrt_error_t e = gcrt_compute_channel(*rt, &hw);
    if (!e) e = gcrt_load_image(*rt, GC_FIRMWARE_DIR "/simt_isa.elf", img);
    if (e) {
        fprintf(stderr, "%s: %s\n", backend, gcrt_last_message(*rt));
        gcrt_close(*rt);
        return e == GCRT_ERROR_NOT_SUPPORTED ? -1 : 0;
    }
    return 1;
}

static int isa_run(const char *backend, uint32_t *out) {
    gcrt_t *rt;
    gc_elf_t *img;
    int o = isa_open(backend, &rt, &img);
    if (o != 1) return o;
    static uint32_t in[ISA_ALL * ISA_NT * 3];   /* a, b, c per test (simt_isa.S) */
    uint64_t x = 12345;
    for (size_t i = 0; i < sizeof in / 4; i++) in[i] = (uint32_t)rng_next(&x) >> (i % 7 == 0 ? 31 : i % 5 == 0 ? 20 : 0);
    uint64_t din, dout, dscr, hout;
    const uint32_t ob = ISA_ALL * ISA_NT * 12;
    gcrt_error_t e = GCRT_SUCCESS;
    KE(gcrt_malloc(rt, &din, sizeof in));
    KE(gcrt_malloc(rt, &dout, ob));
    KE(gcrt_malloc(rt, &dscr, ISA_ALL * 16));
    KE(gcrt_malloc_host(rt, &hout, ob));
    KE(gcrt_write(rt, din, in, sizeof in));
    KE(gcrt_memset_async(rt, dout, 0xEE, ob, NULL, NULL));
    KE(gcrt_memset_async(rt, dscr, 0, ISA_ALL * 16, NULL, NULL));
    uint32_t p[4] = {gcrt_kernel_ptr(din), gcrt_kernel_ptr(dout), gcrt_kernel_ptr(dscr), ISA_NT};
    uint32_t grid[3] = {ISA_GRID, 1, 1}, block[3] = {ISA_THREADS, 1, 1};
    KE(gcrt_launch(rt, NULL, img, "isa_main", grid, block, p, sizeof p, ISA_THREADS * 16));
    KE(gcrt_memcpy_async(rt, hout, dout, ob, GCRT_MEMCPY_DEVICE_TO_HOST, NULL, NULL));
    KE(gcrt_stream_synchronize(rt, NULL));
    KE(gcrt_read(rt, hout, out, ob));
    gcrt_unload_image(rt, img);
    gcrt_close(rt);
    return !e;
}

/* word0: the first word of the parameter block (the entries that take an address from it);
 * *pc_sym (if pc_sym): the value of the symbol <entry>_pc in the loaded image */
static int fault_run(const char *backend, const char *entry, uint32_t word0, frec_t *r, uint32_t *pc_sym) {
    gcrt_t *rt;
    gc_elf_t *img;
    memset(r, 0, sizeof *r);
    int o = isa_open(backend, &rt, &img);
    if (o != 1) return o;
    if (pc_sym) {
        char name[96];
        snprintf(name, sizeof name, "%s_pc", entry);
        *pc_sym = 0;
        if (gc_elf_symbol(img, name, pc_sym) != GC_OK) fprintf(stderr, "no symbol %s\n", name);
    }
    uint64_t good;
    gcrt_error_t e = GCRT_SUCCESS;
    KE(gcrt_malloc(rt, &good, 64));
    KE(gcrt_memset_async(rt, good, 0, 64, NULL, NULL));
    /* the entries use PARAM (a 64-byte parameter block here) as their data address */
    uint32_t grid[3] = {2, 1, 1}, block[3] = {GC_SIMT_LANES * 2, 1, 1}, words[16] = {word0};
    KE(gcrt_launch(rt, NULL, img, entry, grid, block, words, sizeof words, 64));
    r->sync = e ? e : gcrt_stream_synchronize(rt, NULL);
    if (gc_compute_fault_read(gcrt_device(rt), &r->f) != GC_OK) e = GCRT_ERROR_BACKEND;
    gcrt_unload_image(rt, img);
    gcrt_close(rt);
    return e == GCRT_SUCCESS;
}

static void t_isa(void) {
    const char *other = getenv("GPUCOSIM_DIFF_BACKEND");
    if (!other || !*other) other = "ref";
    static uint32_t a[ISA_ALL * ISA_NT * 3], b[ISA_ALL * ISA_NT * 3];
    int rb = isa_run(other, b);
    if (rb < 0) TCASE_SKIP("backend %s has no compute engine", other);
    REQUIRE(rb == 1);
    REQUIRE(isa_run("rtl", a) == 1);
    uint32_t bad = 0, untouched = 0;
    for (uint32_t g = 0; g < ISA_ALL; g++)
        for (uint32_t i = 0; i < ISA_NT; i++) {
            const uint32_t *x = &a[(g * ISA_NT + i) * 3], *y = &b[(g * ISA_NT + i) * 3];
            if (x[0] == 0xEEEEEEEEu) untouched++;
            if (!strcmp(isa_sp_name[i], "cycle")) continue;
            for (int k = 0; k < 3; k++)
                if (x[k] != y[k] && ++bad <= 20)
                    TCASE_FAIL_("isa test %u (%s) thread %u: r%d = 0x%08x on rtl, 0x%08x on %s", i, isa_sp_name[i], g, k,
                                x[k], y[k], other);
        }
    CHECK_EQ(untouched, 0);
    fprintf(stderr, "isa: %u tests x %u threads, %u results differ\n", ISA_NT, ISA_ALL, bad);
}

static void t_faults(void) {
    const char *other = getenv("GPUCOSIM_DIFF_BACKEND");
    if (!other || !*other) other = "ref";
    static const char *const entries[] = {"fault_illegal", "fault_reserved_custom", "fault_csr_write", "fault_ecall",
                                          "fault_ebreak", "fault_misaligned_load", "fault_misaligned_store",
                                          "fault_misaligned_amo", "fault_misaligned_jump", "fault_no_window",
                                          "fault_lr_shared", "fault_fetch", "fault_fp_rm", "fault_fp_dyn"};
    for (size_t i = 0; i < sizeof entries / sizeof entries[0]; i++) {
        frec_t ra, rb;
        int ob = fault_run(other, entries[i], 0, &rb, NULL);
        if (ob < 0) TCASE_SKIP("backend %s has no compute engine", other);
        REQUIRE(fault_run("rtl", entries[i], 0, &ra, NULL) == 1 && ob == 1);
        char ma[256], mb[256];
        gc_compute_fault_format(&ra.f, ma, sizeof ma);
        gc_compute_fault_format(&rb.f, mb, sizeof mb);
        fprintf(stderr, "%s:\n  rtl: %s\n  %s: %s\n", entries[i], ma, other, mb);
        CHECK_EQ(ra.sync, GCRT_ERROR_CHANNEL_FAULT);
        CHECK_EQ(rb.sync, GCRT_ERROR_CHANNEL_FAULT);
        CHECK_EQ(ra.f.cause, rb.f.cause);
        CHECK_EQ(ra.f.pc, rb.f.pc);
        CHECK_EQ(ra.f.addr, rb.f.addr);
        CHECK_EQ(ra.f.lane, rb.f.lane);
        CHECK_EQ(ra.f.task, rb.f.task);
        CHECK_EQ(ra.f.channel, rb.f.channel);
    }
}

/* Bus errors on an address taken from the parameter block (lane 3, tests/rtl/simt_isa.S): a posted
 * store that gets DECERR while its thread runs on (fault_store_late), and an LR (fault_wild_lr, a
 * load's bus error as in RISC-V): both backends name the instruction (its PC from the ELF symbol
 * <entry>_pc), lane 3 and the address. */
static void t_fault_wild(void) {
    const char *other = getenv("GPUCOSIM_DIFF_BACKEND");
    if (!other || !*other) other = "ref";
    const uint32_t wild = 0x70000000u; /* SYSMEM window, past SYSMEM: a hole of the device map */
    static const struct {
        const char *entry;
        uint32_t cause;
    } cases[] = {{"fault_store_late", GC_SIMT_FAULT_STORE_BUS_ERROR}, {"fault_wild_lr", GC_SIMT_FAULT_LOAD_BUS_ERROR}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        frec_t ra, rb;
        uint32_t pa = 0, pb = 0;
        int ob = fault_run(other, cases[i].entry, wild, &rb, &pb);
        if (ob < 0) TCASE_SKIP("backend %s has no compute engine", other);
        REQUIRE(fault_run("rtl", cases[i].entry, wild, &ra, &pa) == 1 && ob == 1);
        char ma[256], mb[256];
        gc_compute_fault_format(&ra.f, ma, sizeof ma);
        gc_compute_fault_format(&rb.f, mb, sizeof mb);
        fprintf(stderr, "%s (instruction at 0x%08x):\n  rtl: %s\n  %s: %s\n", cases[i].entry, pa, ma, other, mb);
        REQUIRE(pa != 0 && pa == pb);
        CHECK_EQ(ra.sync, GCRT_ERROR_CHANNEL_FAULT);
        CHECK_EQ(rb.sync, GCRT_ERROR_CHANNEL_FAULT);
        CHECK_EQ(ra.f.cause, cases[i].cause);
        CHECK_EQ(rb.f.cause, cases[i].cause);
        CHECK_EQ(ra.f.pc, pa);
        CHECK_EQ(rb.f.pc, pa);
        CHECK_EQ(ra.f.addr, wild);
        CHECK_EQ(rb.f.addr, wild);
        CHECK_EQ(ra.f.lane, 3);
        CHECK_EQ(rb.f.lane, 3);
        CHECK_EQ(ra.f.task, rb.f.task);
    }
}

/* lrsc_store / lrsc_amo / lrsc_pairs (tests/rtl/simt_isa.S): plain stores and atomic-unit writes of
 * other threads between an LR and its SC break the reservation on exactly their 4-byte word, on
 * both backends.  buf = W0..W3 (0xA0..0xA3) then out[LRSC_WORDS - 4] (0xEE); block: threads of the
 * one CTA. */
enum { LRSC_WORDS = 4 + 2 * GC_SIMT_LANES };
static int lrsc_run(const char *backend, const char *entry, uint32_t threads, uint32_t *buf) {
    gcrt_t *rt;
    gc_elf_t *img;
    int o = isa_open(backend, &rt, &img);
    if (o != 1) return o;
    uint32_t init[LRSC_WORDS];
    for (uint32_t i = 0; i < LRSC_WORDS; i++) init[i] = i < 4 ? 0xA0 + i : 0xEE;
    uint64_t d, h;
    gcrt_error_t e = GCRT_SUCCESS;
    KE(gcrt_malloc(rt, &d, sizeof init));
    KE(gcrt_malloc_host(rt, &h, sizeof init));
    KE(gcrt_write(rt, d, init, sizeof init));
    uint32_t p[2] = {gcrt_kernel_ptr(d), gcrt_kernel_ptr(d + 16)};
    uint32_t grid[3] = {1, 1, 1}, block[3] = {threads, 1, 1};
    KE(gcrt_launch(rt, NULL, img, entry, grid, block, p, sizeof p, 0));
    KE(gcrt_memcpy_async(rt, h, d, sizeof init, GCRT_MEMCPY_DEVICE_TO_HOST, NULL, NULL));
    KE(gcrt_stream_synchronize(rt, NULL));
    KE(gcrt_read(rt, h, buf, sizeof init));
    gcrt_unload_image(rt, img);
    gcrt_close(rt);
    return !e;
}

/* entry on the other backend into b, on rtl into a; *ok false: skipped or failed (recorded) */
static void lrsc_both(const char *entry, uint32_t threads, uint32_t *a, uint32_t *b, bool *ok) {
    const char *other = getenv("GPUCOSIM_DIFF_BACKEND");
    if (!other || !*other) other = "ref";
    *ok = false;
    int rb = lrsc_run(other, entry, threads, b);
    if (rb < 0) TCASE_SKIP("backend %s has no compute engine", other);
    REQUIRE(rb == 1);
    REQUIRE(lrsc_run("rtl", entry, threads, a) == 1);
    *ok = true;
}

/* entry's first 10 words are `want` on both backends */
static void lrsc_expect(const char *entry, uint32_t threads, const uint32_t want[10]) {
    uint32_t a[LRSC_WORDS], b[LRSC_WORDS];
    bool ok;
    lrsc_both(entry, threads, a, b, &ok);
    if (!ok) return;
    for (int i = 0; i < 10; i++) {
        CHECK_EQ(a[i], want[i]);
        CHECK_EQ(b[i], want[i]);
    }
}

static void t_lrsc_store(void) {
    static const uint32_t want[10] = {0x5555, 0x4444, 0x6666, 0xA3, 1, 0, 0x3333, 0, 1, 0xA0};
    lrsc_expect("lrsc_store", GC_SIMT_LANES * 2, want);
}

/* LR on a word, an AMO / SC of another thread on the other half of its 8-byte beat, SC: written on
 * both backends (the reservation is the 4-byte word); an AMO on the word itself: the SC fails. */
static void t_lrsc_amo(void) {
    static const uint32_t want[10] = {0x5555, 0x6666, 0xA2 + 5, 0xA3, 0, 0, 1, 0, 0xEE, 0xEE};
    lrsc_expect("lrsc_amo", GC_SIMT_LANES, want);
}

/* One LR for several lanes on one word (the RTL reads once for them): the values and the SC
 * outcomes (the lowest lane on each word succeeds) are the same on both backends. */
static void t_lrsc_pairs(void) {
    uint32_t a[LRSC_WORDS], b[LRSC_WORDS];
    bool ok;
    lrsc_both("lrsc_pairs", GC_SIMT_LANES, a, b, &ok);
    if (!ok) return;
    CHECK_EQ(a[0], 0xA0u + 1);
    CHECK_EQ(a[1], 0xA1u + 2);
    for (uint32_t l = 0; l < GC_SIMT_LANES; l++) {
        CHECK_EQ(a[4 + 2 * l], 0xA0u + (l & 1));
        CHECK_EQ(a[5 + 2 * l], l < 2 ? 0u : 1u);
    }
    for (int i = 0; i < LRSC_WORDS; i++) CHECK_EQ(a[i], b[i]);
}

static void t_kdiff_a(void) { diff_kernels(1, 3); }
static void t_kdiff_b(void) { diff_kernels(50, 3); }

static void t_diff_a(void) { diff_seeds(1, 6); }
static void t_diff_b(void) { diff_seeds(101, 6); }

static const tcase_t cases[] = {
    {"diff_programs_1_6", t_diff_a},
    {"diff_programs_101_106", t_diff_b},
    {"diff_kernels_1_3", t_kdiff_a},
    {"diff_kernels_50_52", t_kdiff_b},
    {"diff_isa", t_isa},
    {"diff_faults", t_faults},
    {"diff_lrsc_store", t_lrsc_store},
    {"diff_lrsc_amo", t_lrsc_amo},
    {"diff_lrsc_pairs", t_lrsc_pairs},
    {"diff_fault_wild", t_fault_wild},
};
TCASE_MAIN(cases)
