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
 * and an LR's bus error is LOAD_BUS_ERROR on both.  diff_fault_null: accesses and a jump in the
 * NULL guards fault NULL_ACCESS with the same record on both.  diff_hang_budget: a kernel that
 * never ends stops at the watchdog's limit or the synchronize's budget on both.  diff_lrsc_store / diff_lrsc_amo: plain stores
 * and atomic-unit writes break LR reservations on exactly their 4-byte word on both;
 * diff_lrsc_pairs: lanes LR one word together.  RV32F (issue 15): random F programs (straight
 * line, and with forward branches on FP compares) and the F faults (reserved rounding modes, fmt D,
 * FLD, unassigned encodings, misaligned / windowless FLW / FSW) against a host model on ref alone
 * (fp_progs_ref, fp_faults_ref) and on rtl and the other backend (diff_fp_progs, diff_fp_faults:
 * skipped when the rtl SIMT core has no FPU: COMPUTE.CAPS.FPU = 0).  Skipped when the other
 * backend has no compute engine.  The random families take other seeds under $GPUCOSIM_FUZZ_SEED
 * (make soak).
 */
#include <errno.h>
#include <time.h>

#include "cosim_util.h"
#include "gc_kernels.h"
#include "gpucosim/compute.h"
#include "gpucosim/runtime.h"
#include "scenarios.h"
#include "ref/ref_fp.h"
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

/* The runtime configuration of every run here: `backend`, quiet, 20 M cycles per synchronize. */
static void diff_config(gcrt_config_t *c, const char *backend) {
    gcrt_config_init(c);
    c->device.backend = backend;
    c->device.quiet = true;
    c->sync_cycles = 20000000;
}

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
    diff_config(&c, backend);
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
    diff_config(&c, backend);
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

/* One fault entry of tests/rtl/simt_isa.S (lane 3 faults, the address from PARAM word 0) on the
 * other backend and on rtl: the same record on both, with this cause and address, and FAULT_PC =
 * the ELF symbol <entry>_pc (a jump: the address it jumps to).  False when the other backend has
 * no compute engine. */
static bool fault_both(const char *other, const char *entry, uint32_t word0, uint32_t cause, uint32_t want_addr,
                       bool jump) {
    frec_t ra, rb;
    uint32_t pa = 0, pb = 0;
    int ob = fault_run(other, entry, word0, &rb, &pb);
    if (ob < 0) return false;
    if (fault_run("rtl", entry, word0, &ra, &pa) != 1 || ob != 1) {
        TCASE_FAIL_("%s: a run failed", entry);
        return true;
    }
    char ma[256], mb[256];
    gc_compute_fault_format(&ra.f, ma, sizeof ma);
    gc_compute_fault_format(&rb.f, mb, sizeof mb);
    fprintf(stderr, "%s(0x%08x) (instruction at 0x%08x):\n  rtl: %s\n  %s: %s\n", entry, word0, pa, ma, other, mb);
    uint32_t want_pc = jump ? want_addr : pa;
    CHECK(pa != 0 && pa == pb);
    CHECK_EQ(ra.sync, GCRT_ERROR_CHANNEL_FAULT);
    CHECK_EQ(rb.sync, GCRT_ERROR_CHANNEL_FAULT);
    CHECK_EQ(ra.f.cause, cause);
    CHECK_EQ(rb.f.cause, cause);
    CHECK_EQ(ra.f.pc, want_pc);
    CHECK_EQ(rb.f.pc, want_pc);
    CHECK_EQ(ra.f.addr, want_addr);
    CHECK_EQ(rb.f.addr, want_addr);
    CHECK_EQ(ra.f.lane, 3);
    CHECK_EQ(rb.f.lane, 3);
    CHECK_EQ(ra.f.task, rb.f.task);
    return true;
}

/* Bus errors on an address taken from the parameter block (lane 3, tests/rtl/simt_isa.S): a posted
 * store that gets DECERR while its thread runs on (fault_store_late), and an LR (fault_wild_lr, a
 * load's bus error as in RISC-V): both backends name the instruction (its PC from the ELF symbol
 * <entry>_pc), lane 3 and the address. */
static void t_fault_wild(void) {
    const char *other = getenv("GPUCOSIM_DIFF_BACKEND");
    if (!other || !*other) other = "ref";
    const uint32_t wild = 0x70000000u; /* SYSMEM window, past SYSMEM: a hole of the device map */
    if (!fault_both(other, "fault_store_late", wild, GC_SIMT_FAULT_STORE_BUS_ERROR, wild, false) ||
        !fault_both(other, "fault_wild_lr", wild, GC_SIMT_FAULT_LOAD_BUS_ERROR, wild, false))
        TCASE_SKIP("backend %s has no compute engine", other);
}

/* The NULL guard (spec simt.windows guard): loads, stores, AMOs, LR / SC and a jump at NULL, at
 * small offsets, at the last guarded byte / half / word of both global windows and at a misaligned
 * guarded address fault NULL_ACCESS with the same record (PC, address, lane) on both backends. */
static void t_fault_null(void) {
    const char *other = getenv("GPUCOSIM_DIFF_BACKEND");
    if (!other || !*other) other = "ref";
    const uint32_t gs = GC_SIMT_WIN_SYSMEM_GUARD, vb = GC_SIMT_WIN_VIDMEM_BASE, gv = GC_SIMT_WIN_VIDMEM_GUARD;
    static const struct {
        const char *entry;
        uint32_t addr;
        bool jump;
    } cases[] = {{"fault_null_lw", 0, false},          {"fault_null_lw", 2, false},
                 {"fault_null_lb", gs - 1, false},     {"fault_null_sw", 8, false},
                 {"fault_null_sh", gs - 2, false},     {"fault_null_amo", vb + gv - 4, false},
                 {"fault_null_lr", vb, false},         {"fault_null_sc", 0x10, false},
                 {"fault_null_jump", 0, true},         {"fault_null_jump", vb + gv - 4, true}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint32_t a = cases[i].addr;
        if (!fault_both(other, cases[i].entry, a, GC_SIMT_FAULT_NULL_ACCESS, a, cases[i].jump))
            TCASE_SKIP("backend %s has no compute engine", other);
    }
}

/* A kernel that never ends (simt_isa.S hang) under a cycle budget: the watchdog's (max_cycles:
 * the run stops at the limit, GCRT_ERROR_TIMEOUT naming the watchdog and the limit) or the
 * synchronize's own (sync_cycles).  On rtl and on the other backend alike the model stops at the
 * budget (the ref interprets a CTA only as far as the model runs), the stuck-state dump names the
 * CTA, its warp and the PC (ref), and the runtime closes cleanly (ASan). */
static void hang_run(const char *backend, bool watchdog, bool *skip) {
    /* POLL_ROUND: the reads of one round of the runtime's polls (a few MMIO reads, a few cycles
     * each); DUMP_CYCLES: rtl's / sc's stuck-state dump reads (~60 registers) */
    enum { LIMIT = 300000, POLL_ROUND = 64, DUMP_CYCLES = 400 };
    gcrt_config_t c;
    gcrt_config_init(&c);
    c.device.backend = backend;
    c.device.quiet = true;
    c.device.max_cycles = watchdog ? LIMIT : 0;
    c.sync_cycles = watchdog ? 50000000 : LIMIT;
    gcrt_t *rt = NULL;
    gc_elf_t *img = NULL;
    *skip = false;
    REQUIRE(gcrt_open(&c, &rt) == GCRT_SUCCESS);
    uint32_t hw;
    gcrt_error_t e = gcrt_compute_channel(rt, &hw);
    if (e == GCRT_ERROR_NOT_SUPPORTED) {
        *skip = true;
        gcrt_close(rt);
        return;
    }
    if (!e) e = gcrt_load_image(rt, GC_FIRMWARE_DIR "/simt_isa.elf", &img);
    uint32_t hang_pc = 0;
    if (!e && gc_elf_symbol(img, "hang_pc", &hang_pc) != GC_OK) e = GCRT_ERROR_BACKEND;
    uint32_t grid[3] = {2, 1, 1}, block[3] = {GC_SIMT_LANES * 2, 1, 1};
    if (!e) e = gcrt_launch(rt, NULL, img, "hang", grid, block, NULL, 0, 0);
    if (e) {
        TCASE_FAIL_("%s: %s", backend, gcrt_last_message(rt));
        gcrt_close(rt);
        return;
    }
    uint64_t c0 = gc_device_cycles(gcrt_device(rt));
    e = gcrt_stream_synchronize(rt, NULL);
    uint64_t cyc = gc_device_cycles(gcrt_device(rt));
    const char *m = gcrt_last_message(rt);
    fprintf(stderr, "%s, %s: %s after %llu cycles: %s\n", backend, watchdog ? "watchdog" : "sync budget",
            gcrt_error_name(e), (unsigned long long)cyc, m);
    CHECK_EQ(e, GCRT_ERROR_TIMEOUT);
    if (watchdog) {
        /* the device stops at the limit: the stuck-state dump's register reads (rtl and sc clock
         * their register bus for them) do not move its time on */
        CHECK_EQ(cyc, LIMIT);
        /* one form on every backend: "watchdog: <what> after N cycles (limit L): <stuck state>";
         * <what> is the run step or, when the limit falls inside a poll, the MMIO read */
        char want[96];
        snprintf(want, sizeof want, " after %u cycles (limit %u): ", LIMIT, LIMIT);
        CHECK(strstr(m, "watchdog: the run stopped after ") != NULL || strstr(m, "watchdog: MMIO read of ") != NULL);
        CHECK(strstr(m, want) != NULL);
    } else {
        /* the synchronize's budget is device cycles (its polls' reads count as much as its run
         * steps): it gives up after the budget plus one round of polls; the message says when,
         * and the stuck-state dump that follows (register reads: rtl and sc clock them) is all
         * that runs after */
        fprintf(stderr, "  %llu cycles in the synchronize\n", (unsigned long long)(cyc - c0));
        const char *at = strstr(m, "not done after ");
        unsigned long long spent = 0;
        CHECK(at && sscanf(at, "not done after %llu cycles", &spent) == 1);
        CHECK(spent >= LIMIT && spent < LIMIT + POLL_ROUND);
        CHECK(cyc - c0 >= LIMIT && cyc - c0 < LIMIT + POLL_ROUND + DUMP_CYCLES);
    }
    if (watchdog) { /* another dump after the watchdog: still no time passes */
        FILE *f = tmpfile();
        REQUIRE(f);
        gc_device_dump_state(gcrt_device(rt), f);
        fclose(f);
        CHECK_EQ(gc_device_cycles(gcrt_device(rt)), LIMIT);
    }
    if (!strcmp(backend, "ref")) {
        FILE *f = tmpfile();
        REQUIRE(f);
        gc_device_dump_state(gcrt_device(rt), f);
        rewind(f);
        static char dump[65536];
        size_t n = fread(dump, 1, sizeof dump - 1, f);
        dump[n] = 0;
        fclose(f);
        char want[64];
        snprintf(want, sizeof want, "warp 0 at PC 0x%08x", hang_pc);
        CHECK(strstr(dump, "CTA (0,0,0) on SM 0") != NULL);
        CHECK(strstr(dump, want) != NULL);
    }
    gcrt_unload_image(rt, img);
    gcrt_close(rt);
}

static void t_hang(void) {
    const char *other = getenv("GPUCOSIM_DIFF_BACKEND");
    if (!other || !*other) other = "ref";
    for (int wd = 0; wd < 2; wd++) {
        bool skip;
        hang_run(other, wd, &skip);
        if (skip) TCASE_SKIP("backend %s has no compute engine", other);
        hang_run("rtl", wd, &skip);
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

/* $GPUCOSIM_FUZZ_SEED = k (make soak sets it per run): every random-program family starts k x 1000
 * seeds further, so the soak runs programs `make test` never ran; unset or 0: the fixed seeds of
 * make test.  A malformed value stops the program (exit 2) with one line naming it. */
static uint64_t fuzz(uint64_t first) {
    const char *v = getenv("GPUCOSIM_FUZZ_SEED");
    if (!v || !*v) return first;
    char *end = NULL;
    errno = 0;
    unsigned long long k = strtoull(v, &end, 10);
    if (errno || *end || *v == '-' || k > 1000000ull) {
        fprintf(stderr, "test_diff: GPUCOSIM_FUZZ_SEED '%s' is not an integer 0..1000000\n", v);
        exit(2);
    }
    return first + k * 1000u;
}

static void t_kdiff_a(void) { diff_kernels(fuzz(1), 3); }
static void t_kdiff_b(void) { diff_kernels(fuzz(50), 3); }

static void t_diff_a(void) { diff_seeds(fuzz(1), 6); }
static void t_diff_b(void) { diff_seeds(fuzz(101), 6); }

/* ------------------------------------------------------------------ random F programs (issue 15)
 * Straight-line RV32F code with forward branches on FP compares, generated as machine words (every
 * encoding from the spec's GC_FP_* names) and run by the fp_prog kernel, one program for all the
 * threads of 2 CTAs, each thread on its own operands (specials, subnormals, small integers, random
 * bits), so the lanes of a warp take different branches.  The instructions: FADD / FSUB / FMUL /
 * FDIV / FSQRT and the fused multiply-adds in all static rounding modes and DYN, FSGNJ*, FMIN /
 * FMAX, FEQ / FLT / FLE, FCLASS, FCVT both ways, FMV both ways, FLW / FSW in every window (the
 * inputs in SYSMEM, slots in VIDMEM, the CTA's shared memory and the thread's local memory), and
 * fflags / frm / fcsr in the six CSR forms.  At the end
 * every thread stores f0..f31, its integer registers and fcsr.  fp_model() computes the same on the
 * host (with ref_fp.c's arithmetic, which test_fp checks against SoftFloat), so the ref backend is
 * checked on its own (fp_progs_ref) and rtl against both (diff_fp_progs, once the RTL has the FPU). */
enum { FP_NX = 13, FP_MAXI = 160, FP_WORDS = 512, FP_GRID = 2, FP_CTA = 2 * GC_SIMT_LANES, FP_THREADS = FP_GRID * FP_CTA };
enum { FPI_ARITH, FPI_SQRT, FPI_FMA, FPI_SGNJ, FPI_MINMAX, FPI_CMP, FPI_CLASS, FPI_CVT_WS, FPI_CVT_SW, FPI_MVXW,
       FPI_MVWX, FPI_LOCAL, FPI_GLOBAL, FPI_SHARED, FPI_CSR, FPI_BRANCH, FPI_KINDS };
static const uint8_t fp_xr[FP_NX] = {5, 6, 7, 12, 13, 14, 15, 16, 17, 28, 29, 30, 31};

typedef struct fpi {
    uint8_t kind, sub, rd, rs1, rs2, rs3, rm, imm, skip;
} fpi_t;

typedef struct fprog {
    int n;
    fpi_t op[FP_MAXI];
    uint32_t in[FP_THREADS][GC_FPPROG_IN];
} fprog_t;

static uint32_t fp_val(uint64_t *x) {
    static const uint32_t sp[] = {0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x7F800001, 0xFFA00000,
                                  0x00000001, 0x807FFFFF, 0x00800000, 0x7F7FFFFF, 0xFF7FFFFF, 0x3F800000, 0xBF000000,
                                  0x4F000000, 0xCF000001, 0x4F800000, 0x3EFFFFFF};
    uint32_t k = rnd(x, 8);
    if (k == 0) return sp[rnd(x, sizeof sp / sizeof sp[0])];
    if (k <= 2) { /* small integers: equal compares, exact conversions */
        unsigned fl = 0;
        return rf_from_i32((int32_t)rnd(x, 21) - 10, GC_FP_RM_RNE, &fl);
    }
    if (k == 3) return (uint32_t)rng_next(x) & 0x807FFFFFu; /* subnormals and zeros */
    if (k == 4) return ((uint32_t)rng_next(x) & 0x807FFFFFu) | ((0x70u + rnd(x, 0x30)) << 23);
    return (uint32_t)rng_next(x);
}

static uint32_t fp_rm_pick(uint64_t *x) {
    static const uint8_t rms[] = {GC_FP_RM_RNE, GC_FP_RM_RTZ, GC_FP_RM_RDN, GC_FP_RM_RUP, GC_FP_RM_RMM, GC_FP_RM_DYN};
    return rms[rnd(x, sizeof rms)];
}

static void fp_gen(fprog_t *p, uint64_t seed, bool branches) {
    uint64_t x = seed * 0x9E3779B97F4A7C15ull + 3;
    memset(p, 0, sizeof *p);
    p->n = 60 + (int)rnd(&x, FP_MAXI - 60);
    for (int i = 0; i < p->n; i++) {
        fpi_t *o = &p->op[i];
        o->kind = (uint8_t)rnd(&x, branches ? FPI_KINDS : FPI_BRANCH);
        o->rd = (uint8_t)rnd(&x, 32);
        o->rs1 = (uint8_t)rnd(&x, 32);
        o->rs2 = (uint8_t)rnd(&x, 32);
        o->rs3 = (uint8_t)rnd(&x, 32);
        o->rm = (uint8_t)fp_rm_pick(&x);
        o->sub = (uint8_t)rnd(&x, 4);
        o->imm = (uint8_t)rnd(&x, 32);
        if (o->kind == FPI_CMP || o->kind == FPI_CLASS || o->kind == FPI_CVT_WS || o->kind == FPI_MVXW ||
            o->kind == FPI_CSR || o->kind == FPI_BRANCH)
            o->rd = fp_xr[rnd(&x, FP_NX)];
        if (o->kind == FPI_CVT_SW || o->kind == FPI_MVWX) o->rs1 = fp_xr[rnd(&x, FP_NX)];
        if (o->kind == FPI_CSR) {
            o->sub = (uint8_t)rnd(&x, 10);
            o->rs1 = fp_xr[rnd(&x, FP_NX)];
        }
        if (o->kind == FPI_LOCAL || o->kind == FPI_GLOBAL || o->kind == FPI_SHARED)
            o->imm = (uint8_t)rnd(&x, o->kind == FPI_LOCAL ? 16 : 8);
        if (o->kind == FPI_BRANCH) {
            int left = p->n - 1 - i;
            if (left < 1) o->kind = FPI_SGNJ;
            else o->skip = (uint8_t)(1 + rnd(&x, left < 3 ? (uint32_t)left : 3u));
        }
    }
    for (int t = 0; t < FP_THREADS; t++) {
        for (int k = 0; k < 32; k++) p->in[t][k] = fp_val(&x);
        for (int k = 0; k < FP_NX; k++) p->in[t][32 + k] = rnd(&x, 3) ? fp_val(&x) : (uint32_t)((int32_t)rnd(&x, 41) - 20);
        p->in[t][45] = rnd(&x, 5); /* frm */
    }
}

static uint32_t enc_r(uint32_t f5, uint32_t rs2, uint32_t rs1, uint32_t f3, uint32_t rd) {
    return (f5 << 27) | ((uint32_t)GC_FP_FMT_S << 25) | (rs2 << 20) | (rs1 << 15) | (f3 << 12) | (rd << 7) | GC_FP_OPC_OP_FP;
}
static uint32_t enc_i(uint32_t opc, uint32_t f3, uint32_t rd, uint32_t rs1, int32_t imm) {
    return ((uint32_t)imm << 20) | (rs1 << 15) | (f3 << 12) | (rd << 7) | opc;
}
static uint32_t enc_s(uint32_t opc, uint32_t f3, uint32_t rs1, uint32_t rs2, int32_t imm) {
    uint32_t u = (uint32_t)imm;
    return ((u >> 5) << 25) | (rs2 << 20) | (rs1 << 15) | (f3 << 12) | ((u & 31u) << 7) | opc;
}
#define FLW(fd, off, base) enc_i(GC_FP_OPC_LOAD_FP, GC_FP_WIDTH_W, (fd), (base), (off))
#define FSW(fs, off, base) enc_s(GC_FP_OPC_STORE_FP, GC_FP_WIDTH_W, (base), (fs), (off))
#define CSRX(f3, rd, csr, rs1) enc_i(0x73u, (f3), (rd), (rs1), (int32_t)(csr))

static const uint32_t fp_arith_f5[4] = {GC_FP_F5_FADD, GC_FP_F5_FSUB, GC_FP_F5_FMUL, GC_FP_F5_FDIV};
static const uint32_t fp_fma_opc[4] = {GC_FP_OPC_FMADD, GC_FP_OPC_FMSUB, GC_FP_OPC_FNMSUB, GC_FP_OPC_FNMADD};
static const uint32_t fp_sgnj_f3[3] = {GC_FP_F3_FSGNJ, GC_FP_F3_FSGNJN, GC_FP_F3_FSGNJX};
static const uint32_t fp_cmp_f3[3] = {GC_FP_F3_FEQ, GC_FP_F3_FLT, GC_FP_F3_FLE};
/* CSR forms: f3 (1 CSRRW, 2 CSRRS, 3 CSRRC, 5/6/7 the immediate ones), CSR, immediate or register */
static const struct { uint8_t f3; uint16_t csr; bool rs_zero; } fp_csr_form[10] = {
    {2, GC_FP_CSR_FFLAGS, true}, {2, GC_FP_CSR_FCSR, true}, {2, GC_FP_CSR_FRM, true}, {1, GC_FP_CSR_FFLAGS, false},
    {2, GC_FP_CSR_FFLAGS, false}, {3, GC_FP_CSR_FFLAGS, false}, {5, GC_FP_CSR_FRM, false}, {5, GC_FP_CSR_FCSR, false},
    {6, GC_FP_CSR_FCSR, false}, {7, GC_FP_CSR_FFLAGS, false}};

/* The machine code of p (a function code(a0 = in, a1 = out)); the number of words.  in (a0) is
 * in SYSMEM, out (a1) in VIDMEM; s0 = the thread's 8 words of shared memory (saved and restored),
 * sp - 80: 16 words of local memory. */
static int fp_encode(const fprog_t *p, uint32_t *w) {
    int n = 0, at[FP_MAXI + 1];
    w[n++] = enc_i(0x13, 0, 2, 2, -80);                                  /* addi sp, sp, -80 */
    w[n++] = enc_s(0x23, 2, 2, 8, 64);                                   /* sw s0, 64(sp) */
    w[n++] = enc_i(0x03, 2, 5, 10, 4 * 45);                              /* lw t0, frm word */
    w[n++] = CSRX(1, 0, GC_FP_CSR_FRM, 5);                               /* csrrw x0, frm, t0 */
    for (int k = 0; k < 32; k++) w[n++] = FLW((uint32_t)k, 4 * k, 10);
    w[n++] = CSRX(2, 8, GC_SIMT_CSR_TID_X, 0);                           /* csrr s0, TID_X */
    w[n++] = enc_i(0x13, 1, 8, 8, 5);                                    /* slli s0, s0, 5 */
    w[n++] = (uint32_t)GC_SIMT_WIN_SHARED_BASE | (5u << 7) | 0x37u;      /* lui t0, SHARED */
    w[n++] = (5u << 20) | (8u << 15) | (8u << 7) | 0x33u;                /* add s0, s0, t0 */
    for (int k = 0; k < 8; k++) w[n++] = FSW((uint32_t)(24 + k), 4 * k, 8); /* shared slots */
    for (int k = 0; k < FP_NX; k++) w[n++] = enc_i(0x03, 2, fp_xr[k], 10, 4 * (32 + k));
    for (int k = 0; k < 16; k++) w[n++] = FSW((uint32_t)k, 4 * k, 2);  /* local slots */
    for (int k = 0; k < 8; k++) w[n++] = FSW((uint32_t)(16 + k), 4 * (48 + k), 11); /* global slots */
    for (int i = 0; i < p->n; i++) {
        const fpi_t *o = &p->op[i];
        at[i] = n;
        switch (o->kind) {
        case FPI_ARITH: w[n++] = enc_r(fp_arith_f5[o->sub], o->rs2, o->rs1, o->rm, o->rd); break;
        case FPI_SQRT: w[n++] = enc_r(GC_FP_F5_FSQRT, GC_FP_RS2_FSQRT, o->rs1, o->rm, o->rd); break;
        case FPI_FMA:
            w[n++] = ((uint32_t)o->rs3 << 27) | ((uint32_t)GC_FP_FMT_S << 25) | ((uint32_t)o->rs2 << 20) | ((uint32_t)o->rs1 << 15) |
                     ((uint32_t)o->rm << 12) | ((uint32_t)o->rd << 7) | fp_fma_opc[o->sub];
            break;
        case FPI_SGNJ: w[n++] = enc_r(GC_FP_F5_FSGNJ, o->rs2, o->rs1, fp_sgnj_f3[o->sub % 3], o->rd); break;
        case FPI_MINMAX: w[n++] = enc_r(GC_FP_F5_FMIN, o->rs2, o->rs1, o->sub & 1 ? GC_FP_F3_FMAX : GC_FP_F3_FMIN, o->rd); break;
        case FPI_CMP: w[n++] = enc_r(GC_FP_F5_FEQ, o->rs2, o->rs1, fp_cmp_f3[o->sub % 3], o->rd); break;
        case FPI_CLASS: w[n++] = enc_r(GC_FP_F5_FCLASS, GC_FP_RS2_FCLASS, o->rs1, GC_FP_F3_FCLASS, o->rd); break;
        case FPI_CVT_WS:
            w[n++] = enc_r(GC_FP_F5_FCVT_W_S, o->sub & 1 ? GC_FP_RS2_FCVT_WU_S : GC_FP_RS2_FCVT_W_S, o->rs1, o->rm, o->rd);
            break;
        case FPI_CVT_SW:
            w[n++] = enc_r(GC_FP_F5_FCVT_S_W, o->sub & 1 ? GC_FP_RS2_FCVT_S_WU : GC_FP_RS2_FCVT_S_W, o->rs1, o->rm, o->rd);
            break;
        case FPI_MVXW: w[n++] = enc_r(GC_FP_F5_FMV_X_W, GC_FP_RS2_FMV_X_W, o->rs1, GC_FP_F3_FMV_X_W, o->rd); break;
        case FPI_MVWX: w[n++] = enc_r(GC_FP_F5_FMV_W_X, GC_FP_RS2_FMV_W_X, o->rs1, GC_FP_F3_FMV_W_X, o->rd); break;
        case FPI_LOCAL:
            w[n++] = o->sub & 1 ? FLW(o->rd, 4 * o->imm, 2) : FSW(o->rs2, 4 * o->imm, 2);
            break;
        case FPI_GLOBAL:
            w[n++] = o->sub & 1 ? FLW(o->rd, 4 * (48 + o->imm), 11) : FSW(o->rs2, 4 * (48 + o->imm), 11);
            break;
        case FPI_SHARED: w[n++] = o->sub & 1 ? FLW(o->rd, 4 * o->imm, 8) : FSW(o->rs2, 4 * o->imm, 8); break;
        case FPI_CSR: {
            uint32_t f = o->sub, src = fp_csr_form[f].f3 & 4 ? (f == 6 ? o->imm % 5u : o->imm) : fp_csr_form[f].rs_zero ? 0 : o->rs1;
            w[n++] = CSRX(fp_csr_form[f].f3, o->rd, fp_csr_form[f].csr, src);
            break;
        }
        default: /* FPI_BRANCH: compare, then beq / bne rd, x0 over the next `skip` ops (patched below) */
            w[n++] = enc_r(GC_FP_F5_FEQ, o->rs2, o->rs1, fp_cmp_f3[o->sub % 3], o->rd);
            w[n++] = 0;
            break;
        }
    }
    at[p->n] = n;
    for (int i = 0; i < p->n; i++) {
        const fpi_t *o = &p->op[i];
        if (o->kind != FPI_BRANCH) continue;
        uint32_t off = (uint32_t)(at[i + 1 + o->skip] - (at[i] + 1)) * 4u; /* from the branch word */
        w[at[i] + 1] = ((off >> 12 & 1u) << 31) | ((off >> 5 & 63u) << 25) | ((uint32_t)o->rd << 15) |
                       ((o->sub & 1u) << 12) | ((off >> 1 & 15u) << 8) | ((off >> 11 & 1u) << 7) | 0x63u;
    }
    for (int k = 0; k < 32; k++) w[n++] = FSW((uint32_t)k, 4 * k, 11);
    for (int k = 0; k < FP_NX; k++) w[n++] = enc_s(0x23, 2, 11, fp_xr[k], 4 * (32 + k));
    w[n++] = CSRX(2, 5, GC_FP_CSR_FCSR, 0);                              /* csrr t0, fcsr */
    w[n++] = enc_s(0x23, 2, 11, 5, 4 * 45);
    for (int k = 0; k < 8; k++) { /* the shared slots to out[56..63] through f0 */
        w[n++] = FLW(0, 4 * k, 8);
        w[n++] = FSW(0, 4 * (56 + k), 11);
    }
    w[n++] = enc_i(0x03, 2, 8, 2, 64);                                   /* lw s0, 64(sp) */
    w[n++] = enc_i(0x13, 0, 2, 2, 80);
    w[n++] = 0x00008067u;                                                /* ret */
    return n;
}

static uint32_t fp_rmv(uint32_t rm, uint32_t fcsr) { return rm == GC_FP_RM_DYN ? fcsr >> 5 : rm; }

/* The host's execution of p for thread t: out[GC_FPPROG_OUT] as the code leaves it (0xEEEEEEEE
 * where it writes nothing). */
static void fp_model(const fprog_t *p, int t, uint32_t *out) {
    const uint32_t *in = p->in[t];
    uint32_t f[32], x[32] = {0}, fcsr = (in[45] & 7u) << 5, local[16], shared[8];
    for (int k = 0; k < GC_FPPROG_OUT; k++) out[k] = 0xEEEEEEEEu;
    for (int k = 0; k < 32; k++) f[k] = in[k];
    for (int k = 0; k < FP_NX; k++) x[fp_xr[k]] = in[32 + k];
    for (int k = 0; k < 16; k++) local[k] = f[k];
    for (int k = 0; k < 8; k++) out[48 + k] = f[16 + k];
    for (int k = 0; k < 8; k++) shared[k] = f[24 + k];
    for (int i = 0; i < p->n; i++) {
        const fpi_t *o = &p->op[i];
        unsigned fl = 0;
        uint32_t rm = fp_rmv(o->rm, fcsr), a = f[o->rs1], b = f[o->rs2], c = f[o->rs3];
        switch (o->kind) {
        case FPI_ARITH:
            f[o->rd] = o->sub == 0 ? rf_add(a, b, rm, &fl) : o->sub == 1 ? rf_sub(a, b, rm, &fl)
                     : o->sub == 2 ? rf_mul(a, b, rm, &fl) : rf_div(a, b, rm, &fl);
            break;
        case FPI_SQRT: f[o->rd] = rf_sqrt(a, rm, &fl); break;
        case FPI_FMA: f[o->rd] = rf_fma(a, b, c, o->sub >= 2, o->sub == 1 || o->sub == 3, rm, &fl); break;
        case FPI_SGNJ: {
            uint32_t s = o->sub % 3 == 0 ? b : o->sub % 3 == 1 ? ~b : a ^ b;
            f[o->rd] = (a & 0x7FFFFFFFu) | (s & 0x80000000u);
            break;
        }
        case FPI_MINMAX: f[o->rd] = o->sub & 1 ? rf_max(a, b, &fl) : rf_min(a, b, &fl); break;
        case FPI_BRANCH:
        case FPI_CMP: {
            uint32_t v = o->sub % 3 == 0 ? rf_eq(a, b, &fl) : o->sub % 3 == 1 ? rf_lt(a, b, &fl) : rf_le(a, b, &fl);
            x[o->rd] = v;
            if (o->kind == FPI_BRANCH && ((o->sub & 1) ? v != 0 : v == 0)) i += o->skip;
            break;
        }
        case FPI_CLASS: x[o->rd] = rf_class(a); break;
        case FPI_CVT_WS: x[o->rd] = o->sub & 1 ? rf_to_u32(a, rm, &fl) : (uint32_t)rf_to_i32(a, rm, &fl); break;
        case FPI_CVT_SW:
            f[o->rd] = o->sub & 1 ? rf_from_u32(x[o->rs1], rm, &fl) : rf_from_i32((int32_t)x[o->rs1], rm, &fl);
            break;
        case FPI_MVXW: x[o->rd] = a; break;
        case FPI_MVWX: f[o->rd] = x[o->rs1]; break;
        case FPI_LOCAL:
            if (o->sub & 1) f[o->rd] = local[o->imm];
            else local[o->imm] = b;
            break;
        case FPI_GLOBAL:
            if (o->sub & 1) f[o->rd] = out[48 + o->imm];
            else out[48 + o->imm] = b;
            break;
        case FPI_SHARED:
            if (o->sub & 1) f[o->rd] = shared[o->imm];
            else shared[o->imm] = b;
            break;
        default: { /* FPI_CSR */
            uint32_t fm = o->sub, csr = fp_csr_form[fm].csr, f3 = fp_csr_form[fm].f3;
            uint32_t src = f3 & 4 ? (fm == 6 ? o->imm % 5u : o->imm) : fp_csr_form[fm].rs_zero ? 0 : x[o->rs1];
            bool zero = f3 & 4 ? src == 0 : fp_csr_form[fm].rs_zero;
            uint32_t sh = csr == GC_FP_CSR_FRM ? 5u : 0u;
            uint32_t mask = csr == GC_FP_CSR_FFLAGS ? 0x1Fu : csr == GC_FP_CSR_FRM ? 7u : 0xFFu;
            uint32_t old = (fcsr >> sh) & mask, nv = (f3 & 3u) == 1 ? src : (f3 & 3u) == 2 ? old | src : old & ~src;
            if ((f3 & 3u) == 1 || !zero) fcsr = (fcsr & ~(mask << sh)) | ((nv & mask) << sh);
            x[o->rd] = old;
            break;
        }
        }
        fcsr |= fl;
    }
    for (int k = 0; k < 32; k++) out[k] = f[k];
    for (int k = 0; k < FP_NX; k++) out[32 + k] = x[fp_xr[k]];
    out[45] = fcsr;
    for (int k = 0; k < 8; k++) out[56 + k] = shared[k];
}

/* Run p on `backend`: out[FP_THREADS][GC_FPPROG_OUT]; -1 no compute engine, 0 error, 1 ran.
 * *fault: the fault record when the kernel faulted (then the outputs are not read). */
static int fp_run(const char *backend, const uint32_t *code, int nwords, const uint32_t *in, uint32_t *out,
                  frec_t *fault) {
    gcrt_config_t cfg;
    diff_config(&cfg, backend);
    gcrt_t *rt = NULL;
    gc_elf_t *img = NULL;
    memset(fault, 0, sizeof *fault);
    if (gcrt_open(&cfg, &rt)) return 0;
    uint32_t hw;
    gcrt_error_t e = gcrt_compute_channel(rt, &hw);
    if (e == GCRT_ERROR_NOT_SUPPORTED) {
        gcrt_close(rt);
        return -1;
    }
    const uint32_t ib = FP_THREADS * GC_FPPROG_IN * 4, ob = FP_THREADS * GC_FPPROG_OUT * 4;
    uint64_t dcode = 0, din = 0, dout = 0, hout = 0;
    KE(gcrt_load_image(rt, GC_FIRMWARE_DIR "/kernels.elf", &img));
    KE(gcrt_malloc(rt, &dcode, (size_t)nwords * 4));
    KE(gcrt_malloc_host(rt, &din, ib)); /* SYSMEM: the FLWs from a0 go through the SYSMEM window */
    KE(gcrt_malloc(rt, &dout, ob));
    KE(gcrt_malloc_host(rt, &hout, ob));
    KE(gcrt_write(rt, dcode, code, (size_t)nwords * 4));
    KE(gcrt_write(rt, din, in, ib));
    KE(gcrt_memset_async(rt, dout, 0xEE, ob, NULL, NULL));
    gc_fp_prog_params_t prm = {gcrt_kernel_ptr(dcode), gcrt_kernel_ptr(din), gcrt_kernel_ptr(dout)};
    uint32_t grid[3] = {FP_GRID, 1, 1}, block[3] = {FP_CTA, 1, 1};
    KE(gcrt_launch(rt, NULL, img, "fp_prog", grid, block, &prm, sizeof prm, FP_CTA * 32));
    KE(gcrt_memcpy_async(rt, hout, dout, ob, GCRT_MEMCPY_DEVICE_TO_HOST, NULL, NULL));
    if (!e) {
        fault->sync = gcrt_stream_synchronize(rt, NULL);
        if (fault->sync == GCRT_ERROR_CHANNEL_FAULT) {
            if (gc_compute_fault_read(gcrt_device(rt), &fault->f) != GC_OK) e = GCRT_ERROR_BACKEND;
            fault->f.pc -= gcrt_kernel_ptr(dcode); /* relative to the code */
        } else {
            e = fault->sync;
            KE(gcrt_read(rt, hout, out, ob));
        }
    }
    if (img) gcrt_unload_image(rt, img);
    gcrt_close(rt);
    return !e;
}

/* The program as a list (on a failure): word index, kind, fields */
static void fp_dump(const fprog_t *p) {
    static const char *const kn[FPI_KINDS] = {"arith", "sqrt", "fma", "sgnj", "minmax", "cmp", "class", "cvt.w.s",
                                              "cvt.s.w", "mv.x.w", "mv.w.x", "local", "global", "shared", "csr",
                                              "branch"};
    for (int i = 0; i < p->n; i++) {
        const fpi_t *o = &p->op[i];
        fprintf(stderr, "  op %3d %-7s sub %u rd %2u rs1 %2u rs2 %2u rs3 %2u rm %u imm %2u skip %u\n", i, kn[o->kind],
                o->sub, o->rd, o->rs1, o->rs2, o->rs3, o->rm, o->imm, o->skip);
    }
}

/* Seeds first.. of random F programs on `backend` against fp_model; -1 when it has no compute
 * engine, else the number of differing words. */
static int fp_progs(const char *backend, uint64_t first, int count) {
    static fprog_t p;
    static uint32_t code[FP_WORDS], out[FP_THREADS][GC_FPPROG_OUT], want[GC_FPPROG_OUT];
    int bad = 0;
    for (uint64_t seed = first; seed < first + (uint64_t)count; seed++) {
        bool branches = seed & 1u;
        fp_gen(&p, seed, branches);
        int nw = fp_encode(&p, code);
        frec_t fr;
        int r = fp_run(backend, code, nw, &p.in[0][0], &out[0][0], &fr);
        if (r < 0) return -1;
        if (r == 0 || fr.sync) {
            char m[256] = "";
            if (fr.sync) gc_compute_fault_format(&fr.f, m, sizeof m);
            TCASE_FAIL_("%s: program %llu did not run: %s", backend, (unsigned long long)seed, m);
            bad++;
            continue;
        }
        int pbad = 0;
        for (int t = 0; t < FP_THREADS; t++) {
            fp_model(&p, t, want);
            for (int k = 0; k < GC_FPPROG_OUT; k++)
                if (out[t][k] != want[k] && ++pbad <= 8)
                    TCASE_FAIL_("%s: program %llu (%d ops%s) thread %d word %d (%s): 0x%08x, the model 0x%08x", backend,
                                (unsigned long long)seed, p.n, branches ? ", branches" : "", t, k,
                                k < 32 ? "f register" : k < 45 ? "x register" : k == 45 ? "fcsr"
                                : k < 56 ? "global slot" : "shared slot",
                                out[t][k], want[k]);
        }
        fprintf(stderr, "%s: program %llu: %d ops%s, %d words, %d threads, %d words differ\n", backend,
                (unsigned long long)seed, p.n, branches ? " with branches" : "", nw, FP_THREADS, pbad);
        if (pbad) fp_dump(&p);
        bad += pbad;
    }
    return bad;
}

/* The F instructions that fault, with their record: cause, the faulting word's index, FAULT_ADDR
 * (the instruction word when `addr` is 0). */
static const struct fp_fault_case {
    const char *what;
    uint32_t w[3];
    uint32_t cause, at, addr;
} fp_fault_cases[] = {
    {"static rm 5", {0x00000000u}, GC_SIMT_FAULT_ILLEGAL_INSTRUCTION, 0, 0},
    {"static rm 6", {0}, GC_SIMT_FAULT_ILLEGAL_INSTRUCTION, 0, 0},
    {"DYN with frm 7", {0}, GC_SIMT_FAULT_ILLEGAL_INSTRUCTION, 1, 0},
    {"DYN with frm 5 (FMADD)", {0}, GC_SIMT_FAULT_ILLEGAL_INSTRUCTION, 1, 0},
    {"fmt D (FADD.D)", {0}, GC_SIMT_FAULT_ILLEGAL_INSTRUCTION, 0, 0},
    {"FLD (LOAD-FP width 3)", {0}, GC_SIMT_FAULT_ILLEGAL_INSTRUCTION, 0, 0},
    {"FSQRT with rs2 = 1", {0}, GC_SIMT_FAULT_ILLEGAL_INSTRUCTION, 0, 0},
    {"OP-FP funct5 0x1C funct3 2", {0}, GC_SIMT_FAULT_ILLEGAL_INSTRUCTION, 0, 0},
    {"FLW misaligned", {0}, GC_SIMT_FAULT_MISALIGNED_LOAD, 1, 0x80011002u},
    {"FSW misaligned", {0}, GC_SIMT_FAULT_MISALIGNED_STORE, 1, 0x80011001u},
    {"FSW outside every window", {0}, GC_SIMT_FAULT_ACCESS_FAULT, 1, 0xF4000000u},
};

static void fp_fault_code(size_t i, uint32_t *w) {
    const uint32_t add = enc_r(GC_FP_F5_FADD, 2, 1, 0, 3), lui8 = 0x80011000u | (5u << 7) | 0x37u;
    w[0] = w[1] = w[2] = 0x00008067u; /* ret */
    switch (i) {
    case 0: w[0] = add | (5u << 12); break;
    case 1: w[0] = add | (6u << 12); break;
    case 2: w[0] = CSRX(5, 0, GC_FP_CSR_FRM, 7); w[1] = add | ((uint32_t)GC_FP_RM_DYN << 12); break;
    case 3:
        w[0] = CSRX(5, 0, GC_FP_CSR_FRM, 5);
        w[1] = (4u << 27) | (2u << 20) | (1u << 15) | ((uint32_t)GC_FP_RM_DYN << 12) | (3u << 7) | GC_FP_OPC_FMADD;
        break;
    case 4: w[0] = add | (1u << 25); break;
    case 5: w[0] = enc_i(GC_FP_OPC_LOAD_FP, 3, 1, 11, 0); break;
    case 6: w[0] = enc_r(GC_FP_F5_FSQRT, 1, 1, 0, 3); break;
    case 7: w[0] = enc_r(GC_FP_F5_FMV_X_W, 0, 1, 2, 3); break;
    case 8: w[0] = lui8; w[1] = FLW(0, 2, 5); break;
    case 9: w[0] = lui8; w[1] = FSW(0, 1, 5); break;
    default: w[0] = 0xF4000000u | (5u << 7) | 0x37u; w[1] = FSW(0, 0, 5); break;
    }
}

/* -1: no compute engine; else the number of wrong records */
static int fp_faults(const char *backend) {
    static uint32_t in[FP_THREADS * GC_FPPROG_IN], out[FP_THREADS * GC_FPPROG_OUT];
    int bad = 0;
    for (size_t i = 0; i < sizeof fp_fault_cases / sizeof fp_fault_cases[0]; i++) {
        const struct fp_fault_case *c = &fp_fault_cases[i];
        uint32_t w[3];
        fp_fault_code(i, w);
        frec_t fr;
        int r = fp_run(backend, w, 3, in, out, &fr);
        if (r < 0) return -1;
        char m[256] = "";
        gc_compute_fault_format(&fr.f, m, sizeof m);
        fprintf(stderr, "%s: %s: %s\n", backend, c->what, fr.sync ? m : "no fault");
        uint32_t addr = c->addr ? c->addr : w[c->at];
        if (r != 1 || fr.sync != GCRT_ERROR_CHANNEL_FAULT || fr.f.cause != c->cause || fr.f.pc != 4u * c->at ||
            fr.f.addr != addr || fr.f.lane != 0) {
            TCASE_FAIL_("%s: %s: want cause %u at +%u addr 0x%08x lane 0, got %s (pc +%u)", backend, c->what, c->cause,
                        4u * c->at, addr, fr.sync ? m : "no fault", fr.f.pc);
            bad++;
        }
    }
    return bad;
}

/* The ref backend's RV32F against the host model (independent of the RTL) */
static void t_fp_progs_ref(void) {
    int r = fp_progs("ref", fuzz(1), 12);
    if (r < 0) TCASE_SKIP("ref has no compute engine");
    CHECK_EQ(r, 0);
}

static void t_fp_faults_ref(void) {
    int r = fp_faults("ref");
    if (r < 0) TCASE_SKIP("ref has no compute engine");
    CHECK_EQ(r, 0);
}

/* rtl needs the FPU; otherwise the case is skipped (not passed) */
static bool rtl_has_fpu(void) {
    gcrt_config_t cfg;
    diff_config(&cfg, "rtl");
    bool fpu = false;
    char err[300] = "";
    gcrt_error_t e = gcsc_fpu_present(&cfg, &fpu, err, sizeof err);
    if (e) fprintf(stderr, "gcsc_fpu_present: %s: %s\n", gcrt_error_name(e), err);
    return !e && fpu;
}

static void t_diff_fp_progs(void) {
    const char *other = getenv("GPUCOSIM_DIFF_BACKEND");
    if (!other || !*other) other = "ref";
    if (!rtl_has_fpu()) TCASE_SKIP("the rtl SIMT core has no FPU (COMPUTE.CAPS.FPU = 0)");
    int rb = fp_progs(other, fuzz(101), 12);
    if (rb < 0) TCASE_SKIP("backend %s has no compute engine", other);
    CHECK_EQ(rb, 0);
    CHECK_EQ(fp_progs("rtl", fuzz(101), 12), 0); /* both equal the model: rtl equals the other backend */
}

static void t_diff_fp_faults(void) {
    const char *other = getenv("GPUCOSIM_DIFF_BACKEND");
    if (!other || !*other) other = "ref";
    if (!rtl_has_fpu()) TCASE_SKIP("the rtl SIMT core has no FPU (COMPUTE.CAPS.FPU = 0)");
    int rb = fp_faults(other);
    if (rb < 0) TCASE_SKIP("backend %s has no compute engine", other);
    CHECK_EQ(rb, 0);
    CHECK_EQ(fp_faults("rtl"), 0);
}

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
    {"diff_fault_null", t_fault_null},
    {"diff_hang_budget", t_hang},
    {"fp_progs_ref", t_fp_progs_ref},
    {"fp_faults_ref", t_fp_faults_ref},
    {"diff_fp_progs", t_diff_fp_progs},
    {"diff_fp_faults", t_diff_fp_faults},
};
TCASE_MAIN(cases)
