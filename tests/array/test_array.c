/* The array layer (issue 17, seed 004): laziness, fusion, scalar replacement, code generation,
 * program and trace caches, macros, reference-result mode and its comparator, bad input.  Every
 * case opens its own runtime on GPUCOSIM_BACKEND with a fresh program cache in a temporary
 * directory.  On sc only the worked example runs (the rest is the same driver code). */
#define _POSIX_C_SOURCE 200809L
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#include "gpucosim/array.h"
#include "gpucosim/runtime.h"
#include "scen_fusion.h"
#include "tcase.h"

typedef struct tctx {
    gcrt_t *rt;
    gca_ctx_t *c;
    char dir[64];
} tctx_t;

static void rmdir_all(const char *dir) {
    char cmd[160];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd)) fprintf(stderr, "could not remove %s\n", dir);
}

static bool on_sc(void) {
    const char *b = getenv("GPUCOSIM_BACKEND");
    return b && !strcmp(b, "sc");
}

/* Open a runtime and an array context (cfg NULL: defaults) with the cache in t->dir (made here
 * unless already set). */
static bool topen(tctx_t *t, const gca_config_t *cfg) {
    if (!t->dir[0]) {
        snprintf(t->dir, sizeof t->dir, "/tmp/gca_test.XXXXXX");
        if (!mkdtemp(t->dir)) return false;
    }
    gcrt_config_t rc;
    gcrt_config_init(&rc);
    rc.device.quiet = true;
    if (gcrt_open(&rc, &t->rt)) return false;
    gca_config_t c;
    if (cfg) c = *cfg;
    else gca_config_init(&c);
    c.cache_dir = t->dir;
    if (gca_open(t->rt, &c, &t->c)) {
        gcrt_close(t->rt);
        return false;
    }
    return true;
}
static void tclose(tctx_t *t, bool keep_dir) {
    if (t->c) gca_close(t->c);
    if (t->rt) gcrt_close(t->rt);
    t->c = NULL;
    t->rt = NULL;
    if (!keep_dir && t->dir[0]) rmdir_all(t->dir);
}

#define TOPEN(t, cfg)                                                                                   \
    do {                                                                                                \
        if (!topen(&(t), cfg)) {                                                                        \
            TCASE_FAIL_("could not open the runtime and the array context");                            \
            return;                                                                                     \
        }                                                                                               \
    } while (0)

/* The start of a case that runs on rtl and ref only (skipped on sc): its context `t`, opened with cfg. */
#define RTL_REF_CASE(t, cfg)                                                                            \
    if (on_sc()) TCASE_SKIP("the rest runs on rtl and ref");                                            \
    tctx_t t = {0};                                                                                     \
    TOPEN(t, cfg)

#define OKA(t, expr)                                                                                    \
    do {                                                                                                \
        if (!(expr).id) {                                                                               \
            TCASE_FAIL_("%s: %s (%s)", #expr, gca_error_name(gca_last_error((t).c)), gca_last_message((t).c)); \
            goto out;                                                                                   \
        }                                                                                               \
    } while (0)
#define OK(t, expr)                                                                                     \
    do {                                                                                                \
        gca_error_t e_ = (expr);                                                                        \
        if (e_) {                                                                                       \
            TCASE_FAIL_("%s: %s (%s)", #expr, gca_error_name(e_), gca_last_message((t).c));             \
            goto out;                                                                                   \
        }                                                                                               \
    } while (0)

/* Every element i of got[0 .. n) has the bits of the host's `wexpr` (an expression of i); the
 * first difference is reported. */
#define EXPECT_BITS(n, got, wexpr, label)                                                          \
    do {                                                                                           \
        for (int i = 0; i < (int)(n); i++) {                                                       \
            const float w_ = (wexpr);                                                              \
            if (memcmp(&w_, &(got)[i], 4)) {                                                       \
                TCASE_FAIL_("%s[%d] = %a, host %a", label, i, (double)(got)[i], (double)w_);       \
                break;                                                                             \
            }                                                                                      \
        }                                                                                          \
    } while (0)

static void fill(float *v, size_t n, uint32_t seed) {
    uint32_t x = seed * 2654435761u + 7;
    for (size_t i = 0; i < n; i++) {
        x = x * 1664525u + 1013904223u;
        v[i] = (float)((int32_t)(x >> 9) % 2000 - 1000) / 64.0f + (x & 1 ? 0.5f : 0.25f);
    }
}

/* The worked example's four inputs (f32, dims) from host data; false (the failure recorded) if one fails. */
static bool upload4(tctx_t *t, uint32_t nd, const uint32_t *dims, const float *a, const float *b, const float *e,
                    const float *d, gca_arr_t *A, gca_arr_t *B, gca_arr_t *E, gca_arr_t *D) {
    const float *h[4] = {a, b, e, d};
    gca_arr_t *o[4] = {A, B, E, D};
    for (int i = 0; i < 4; i++) {
        *o[i] = gca_from_host(t->c, GCA_F32, nd, dims, h[i]);
        if (!o[i]->id) {
            TCASE_FAIL_("gca_from_host: %s", gca_last_message(t->c));
            return false;
        }
    }
    return true;
}

static size_t nkernels(tctx_t *t) {
    gca_stats_t s;
    gca_stats(t->c, &s);
    return (size_t)s.kernels_launched;
}

static const gca_kernel_info_t *kernel_k(tctx_t *t, size_t back) {
    const gca_kernel_info_t *k;
    size_t n;
    gca_kernels(t->c, &k, &n);
    return back < n ? &k[n - 1 - back] : NULL;
}

#define R 40
#define C 50
#define N (R * C)

/* The seed's worked example: C = A + B, F = C * E (C released), G = F / D (F released), read G. */
static void t_worked_example(void) {
    tctx_t t = {0};
    TOPEN(t, NULL);
    static float a[N], b[N], e[N], d[N], g[N];
    fill(a, N, 1), fill(b, N, 2), fill(e, N, 3), fill(d, N, 4);
    const uint32_t dims[2] = {R, C};
    gca_arr_t A, B, E, D, Cc, F, G;
    if (!upload4(&t, 2, dims, a, b, e, d, &A, &B, &E, &D)) goto out;
    gca_stats_t s0, s1;
    gca_stats(t.c, &s0);
    OKA(t, Cc = gca_add(t.c, A, B));
    OKA(t, F = gca_mul(t.c, Cc, E));
    OK(t, gca_release(t.c, Cc));
    OKA(t, G = gca_div(t.c, F, D));
    OK(t, gca_release(t.c, F));
    gca_stats(t.c, &s1);
    CHECK_EQ(s1.flushes, 0);          /* nothing ran before the read */
    CHECK_EQ(s1.kernels_launched, 0);
    CHECK_EQ(s1.allocations, s0.allocations);
    OK(t, gca_read(t.c, G, g, sizeof g));
    gca_stats(t.c, &s1);
    CHECK_EQ(s1.kernels_launched, 1);
    CHECK_EQ(s1.allocations, s0.allocations + 1); /* G only: nothing for C or F */
    CHECK_EQ(s1.bytes_allocated, s0.bytes_allocated + N * 4);
    const gca_kernel_info_t *k = kernel_k(&t, 0);
    REQUIRE(k);
    CHECK_EQ(k->nops, 3);
    CHECK_EQ(k->nin, 4);
    CHECK_EQ(k->in[0], A.id);
    CHECK_EQ(k->in[1], B.id);
    CHECK_EQ(k->in[2], E.id);
    CHECK_EQ(k->in[3], D.id);
    CHECK_EQ(k->nout, 1);
    CHECK_EQ(k->out[0], G.id);
    CHECK(k->end_cycle > k->start_cycle);
    fprintf(stderr, "kernel: %s, %llu cycles\n", k->ops, (unsigned long long)(k->end_cycle - k->start_cycle));
    EXPECT_BITS(N, g, (a[i] + b[i]) * e[i] / d[i], "G");
out:
    tclose(&t, false);
}

/* The same chain with C kept alive: one kernel, two outputs (C and G). */
static void t_worked_example_keep_c(void) {
    RTL_REF_CASE(t, NULL);
    static float a[N], b[N], e[N], d[N], g[N], c[N];
    fill(a, N, 5), fill(b, N, 6), fill(e, N, 7), fill(d, N, 8);
    const uint32_t dims[2] = {R, C};
    gca_arr_t A, B, E, D, Cc, F, G;
    if (!upload4(&t, 2, dims, a, b, e, d, &A, &B, &E, &D)) goto out;
    OKA(t, Cc = gca_add(t.c, A, B));
    OKA(t, F = gca_mul(t.c, Cc, E));
    OKA(t, G = gca_div(t.c, F, D));
    OK(t, gca_release(t.c, F));
    OK(t, gca_read(t.c, G, g, sizeof g));
    CHECK_EQ(nkernels(&t), 1);
    const gca_kernel_info_t *k = kernel_k(&t, 0);
    REQUIRE(k);
    CHECK_EQ(k->nout, 2);
    CHECK_EQ(k->out[0], Cc.id);
    CHECK_EQ(k->out[1], G.id);
    OK(t, gca_read(t.c, Cc, c, sizeof c));
    CHECK_EQ(nkernels(&t), 1); /* C was stored by the same kernel */
    for (int i = 0; i < N; i++) {
        float wc = a[i] + b[i], wg = wc * e[i] / d[i];
        if (memcmp(&wc, &c[i], 4) || memcmp(&wg, &g[i], 4)) {
            TCASE_FAIL_("element %d: C %a G %a, host %a %a", i, (double)c[i], (double)g[i], (double)wc, (double)wg);
            break;
        }
    }
out:
    tclose(&t, false);
}


static void ints(float *v, size_t n, uint32_t seed, int range) {
    uint32_t x = seed * 2654435761u + 3;
    for (size_t i = 0; i < n; i++) {
        x = x * 1664525u + 1013904223u;
        v[i] = (float)((int)((x >> 8) % (uint32_t)(2 * range + 1)) - range);
    }
}

/* sum(a * b): the map fuses into the reduction (one kernel, the product never stored), exact on
 * small integers (every partial sum is representable, so any order gives the host's value). */
static void t_sum_of_products(void) {
    RTL_REF_CASE(t, NULL);
    static float a[N], b[N];
    ints(a, N, 11, 8), ints(b, N, 12, 8);
    const uint32_t dims[1] = {N};
    gca_arr_t A, B, S;
    OKA(t, A = gca_from_host(t.c, GCA_F32, 1, dims, a));
    OKA(t, B = gca_from_host(t.c, GCA_F32, 1, dims, b));
    gca_stats_t s0, s1;
    gca_stats(t.c, &s0);
    OKA(t, S = gca_dot(t.c, A, B));
    float got = 0, want = 0;
    for (int i = 0; i < N; i++) want += a[i] * b[i];
    OK(t, gca_read(t.c, S, &got, sizeof got));
    gca_stats(t.c, &s1);
    CHECK_EQ(s1.kernels_launched, 1);
    CHECK_EQ(s1.allocations, s0.allocations + 1);
    const gca_kernel_info_t *k = kernel_k(&t, 0);
    REQUIRE(k);
    CHECK_EQ(k->nops, 2);
    CHECK_EQ(k->nout, 1);
    CHECK_EQ(k->out[0], S.id);
    CHECK(!strncmp(k->ops, "mul@", 4) && strstr(k->ops, " sum@"));
    if (memcmp(&got, &want, 4)) TCASE_FAIL_("sum(a * b) = %g, host %g", (double)got, (double)want);
out:
    tclose(&t, false);
}

/* gather(A + B, idx) is two kernels (a gather from a computed source never fuses); A + index()
 * is one kernel that loads A only (no index buffer). */
static void t_gather_and_index(void) {
    RTL_REF_CASE(t, NULL);
    static float a[N], b[N], got[N];
    static int32_t idx[N];
    fill(a, N, 21), fill(b, N, 22);
    for (int i = 0; i < N; i++) idx[i] = (i * 7919) % N;
    const uint32_t dims[1] = {N};
    gca_arr_t A, B, I, S, G, X, Y;
    OKA(t, A = gca_from_host(t.c, GCA_F32, 1, dims, a));
    OKA(t, B = gca_from_host(t.c, GCA_F32, 1, dims, b));
    OKA(t, I = gca_from_host(t.c, GCA_I32, 1, dims, idx));
    OKA(t, S = gca_add(t.c, A, B));
    OKA(t, G = gca_gather(t.c, S, I));
    OK(t, gca_release(t.c, S));
    OK(t, gca_read(t.c, G, got, sizeof got));
    CHECK_EQ(nkernels(&t), 2);
    const gca_kernel_info_t *k0 = kernel_k(&t, 1), *k1 = kernel_k(&t, 0);
    REQUIRE(k0 && k1);
    CHECK(!strncmp(k0->ops, "add@", 4) && k0->nops == 1);
    CHECK(!strncmp(k1->ops, "gather@", 7) && k1->nops == 1);
    EXPECT_BITS(N, got, a[idx[i]] + b[idx[i]], "gather");
    gca_stats_t s0, s1;
    gca_stats(t.c, &s0);
    OKA(t, X = gca_index(t.c, GCA_F32, 1, dims, 0));
    OKA(t, Y = gca_add(t.c, A, X));
    OK(t, gca_release(t.c, X));
    OK(t, gca_read(t.c, Y, got, sizeof got));
    gca_stats(t.c, &s1);
    CHECK_EQ(s1.kernels_launched, s0.kernels_launched + 1);
    CHECK_EQ(s1.allocations, s0.allocations + 1); /* Y only: no index buffer */
    k1 = kernel_k(&t, 0);
    CHECK_EQ(k1->nin, 1);
    CHECK_EQ(k1->in[0], A.id);
    CHECK_EQ(k1->nops, 2);
    EXPECT_BITS(N, got, a[i] + (float)i, "A + index()");
    /* the generator made after a ready op: pulled into that op's kernel (as late as possible) */
    gca_arr_t P, X2, Y2;
    gca_stats(t.c, &s0);
    OKA(t, P = gca_mul(t.c, A, B));
    OKA(t, X2 = gca_index(t.c, GCA_F32, 1, dims, 0));
    OKA(t, Y2 = gca_add(t.c, P, X2));
    OK(t, gca_release(t.c, P));
    OK(t, gca_release(t.c, X2));
    OK(t, gca_read(t.c, Y2, got, sizeof got));
    gca_stats(t.c, &s1);
    CHECK_EQ(s1.kernels_launched, s0.kernels_launched + 1);
    CHECK_EQ(s1.allocations, s0.allocations + 1);
    EXPECT_BITS(N, got, a[i] * b[i] + (float)i, "A * B + index()");
out:
    tclose(&t, false);
}

/* relu(matmul(A + B, W)) * 2: fused (add), then matmul, then fused (max, mul); bit exact. */
static void t_matmul_between_fused(void) {
    RTL_REF_CASE(t, NULL);
    enum { M = 12, K = 9, NN = 10 };
    static float a[M * K], b[M * K], w[K * NN], got[M * NN];
    fill(a, M * K, 31), fill(b, M * K, 32), fill(w, K * NN, 33);
    const uint32_t da[2] = {M, K}, dw[2] = {K, NN};
    gca_arr_t A, B, W, S, P, Z, Rl, T2, Y;
    OKA(t, A = gca_from_host(t.c, GCA_F32, 2, da, a));
    OKA(t, B = gca_from_host(t.c, GCA_F32, 2, da, b));
    OKA(t, W = gca_from_host(t.c, GCA_F32, 2, dw, w));
    OK(t, gca_scope_begin(t.c));
    OKA(t, S = gca_add(t.c, A, B));
    OKA(t, P = gca_matmul(t.c, S, W));
    OKA(t, Z = gca_scalar_f32(t.c, 0.0f));
    OKA(t, Rl = gca_max(t.c, P, Z));
    OKA(t, T2 = gca_scalar_f32(t.c, 2.0f));
    OKA(t, Y = gca_mul(t.c, Rl, T2));
    OK(t, gca_keep(t.c, Y));
    OK(t, gca_scope_end(t.c));
    OK(t, gca_read(t.c, Y, got, sizeof got));
    CHECK_EQ(nkernels(&t), 3);
    const gca_kernel_info_t *k0 = kernel_k(&t, 2), *k1 = kernel_k(&t, 1), *k2 = kernel_k(&t, 0);
    REQUIRE(k0 && k1 && k2);
    CHECK(!strncmp(k0->ops, "add@", 4) && k0->nops == 1);
    CHECK(!strncmp(k1->ops, "matmul@", 7));
    CHECK(!strncmp(k2->ops, "max@", 4) && strstr(k2->ops, " mul@") && k2->nops == 2 && k2->nout == 1);
    for (int r = 0; r < M; r++)
        for (int c = 0; c < NN; c++) {
            float acc = 0.0f;
            for (int k = 0; k < K; k++) acc = acc + (a[r * K + k] + b[r * K + k]) * w[k * NN + c];
            float want = (acc < 0.0f ? 0.0f : acc) * 2.0f;
            if (memcmp(&want, &got[r * NN + c], 4)) {
                TCASE_FAIL_("Y[%d][%d] = %g, host %g", r, c, (double)got[r * NN + c], (double)want);
                r = M;
                break;
            }
        }
out:
    tclose(&t, false);
}

/* A loop of 10 iterations over one body: the scheduler and the compiler run once, the trace
 * cache hits 9 times, with a scalar that changes every iteration. */
static void t_trace_loop(void) {
    RTL_REF_CASE(t, NULL);
    static float x[N], b[N];
    ints(x, N, 41, 5), ints(b, N, 42, 5);
    const uint32_t dims[1] = {N};
    gca_arr_t X, Bv;
    OKA(t, X = gca_from_host(t.c, GCA_F32, 1, dims, x));
    OKA(t, Bv = gca_from_host(t.c, GCA_F32, 1, dims, b));
    gca_stats_t s0, s1;
    gca_stats(t.c, &s0);
    for (int it = 0; it < 10; it++) {
        OK(t, gca_scope_begin(t.c));
        gca_arr_t s, m, y, r;
        OKA(t, s = gca_scalar_f32(t.c, (float)it * 0.5f));
        OKA(t, m = gca_mul(t.c, X, s));
        OKA(t, y = gca_add(t.c, m, Bv));
        OKA(t, r = gca_sum(t.c, y));
        float got = 0, want = 0;
        OK(t, gca_read(t.c, r, &got, sizeof got));
        for (int i = 0; i < N; i++) want += x[i] * ((float)it * 0.5f) + b[i];
        if (memcmp(&got, &want, 4)) TCASE_FAIL_("iteration %d: %g, host %g", it, (double)got, (double)want);
        OK(t, gca_scope_end(t.c));
    }
    gca_stats(t.c, &s1);
    CHECK_EQ(s1.scheduler_runs - s0.scheduler_runs, 1);
    CHECK_EQ(s1.compiles - s0.compiles, 1);
    CHECK_EQ(s1.trace_hits - s0.trace_hits, 9);
    CHECK_EQ(s1.trace_misses - s0.trace_misses, 1);
    CHECK_EQ(s1.kernels_launched - s0.kernels_launched, 10);
    /* a folded constant changes the code: pow(x, 2) is x * x, pow(x, 3) calls powf */
    for (int it = 0; it < 4; it++) {
        gca_arr_t p;
        static float got[N];
        OKA(t, p = gca_powc(t.c, X, it < 2 ? 2.0f : 3.0f));
        OK(t, gca_read(t.c, p, got, sizeof got));
        OK(t, gca_release(t.c, p));
        if (it == 0) CHECK(strstr(kernel_k(&t, 0)->source, "gca_mul_f(x0, x0)") != NULL);
        if (it == 2) CHECK(strstr(kernel_k(&t, 0)->source, "gca_pow_f(x0, s0)") != NULL);
        float want = it < 2 ? x[7] * x[7] : powf(x[7], 3.0f);
        if (memcmp(&got[7], &want, 4)) TCASE_FAIL_("pow iteration %d: %g, host %g", it, (double)got[7], (double)want);
    }
    gca_stats_t s2;
    gca_stats(t.c, &s2);
    CHECK_EQ(s2.compiles - s1.compiles, 2);   /* x * x, then powf */
    CHECK_EQ(s2.trace_hits - s1.trace_hits, 2);
out:
    tclose(&t, false);
}

/* The comparator of reference-result mode. */
static void t_comparator(void) {
    if (on_sc()) TCASE_SKIP("the rest runs on rtl and ref");
    CHECK(gca_compare_f32(NAN, NAN, 0));
    CHECK(!gca_compare_f32(NAN, 1.0f, 0.5f));
    CHECK(!gca_compare_f32(1.0f, NAN, 0.5f));
    CHECK(gca_compare_f32(INFINITY, INFINITY, 0));
    CHECK(!gca_compare_f32(INFINITY, FLT_MAX, 1.0f));
    CHECK(!gca_compare_f32(FLT_MAX, INFINITY, 1.0f));
    CHECK(!gca_compare_f32(-INFINITY, INFINITY, 1.0f));
    /* scale boundary: ref 1024, scale 2^-10: allowed error exactly 1 */
    const float scale = 0x1p-10f;
    CHECK(gca_compare_f32(1025.0f, 1024.0f, scale));             /* |d - r| == allowed: inside */
    CHECK(gca_compare_f32(1023.0f, 1024.0f, scale));
    CHECK(!gca_compare_f32(nextafterf(1025.0f, 2000.0f), 1024.0f, scale)); /* one ulp past: outside */
    CHECK(!gca_compare_f32(nextafterf(1023.0f, 0.0f), 1024.0f, scale));
    CHECK(gca_compare_f32(1.0f, 1.0f, 0));                       /* scale 0: exact */
    CHECK(!gca_compare_f32(nextafterf(1.0f, 2.0f), 1.0f, 0));
    CHECK(!gca_compare_f32(1e-30f, 0.0f, 1.0f));                 /* ref 0 demands exactness */
    CHECK(gca_compare_f32(-0.0f, 0.0f, 0));
}

typedef struct mm_log {
    int count;
    gca_mismatch_t first;
} mm_log_t;
static void on_mm(const gca_mismatch_t *m, void *user) {
    mm_log_t *l = user;
    if (!l->count++) l->first = *m;
    fprintf(stderr, "mismatch: %s\n", m->message);
}

/* Reference-result mode over every op: the correctly rounded ones and the integer ones exactly
 * (scale 0), libm's within 2^-20; nothing differs. */
static void t_reference_all_ops(void) {
    if (on_sc()) TCASE_SKIP("the rest runs on rtl and ref");
    mm_log_t log = {0};
    gca_config_t cfg;
    gca_config_init(&cfg);
    cfg.reference = true;
    cfg.ref_scale = 0;
    cfg.on_mismatch = GCA_MISMATCH_CALLBACK;
    cfg.on_mismatch_fn = on_mm;
    cfg.on_mismatch_user = &log;
    tctx_t t = {0};
    TOPEN(t, &cfg);
    enum { RR = 12, CC = 20, NE = RR * CC };
    static float x[NE], y[NE];
    static int32_t ix[NE], iy[NE];
    ints(x, NE, 51, 9), ints(y, NE, 52, 9);
    for (int i = 0; i < NE; i++) {
        x[i] = fabsf(x[i]) + 1.0f; /* 1..10: log, sqrt, pow defined */
        y[i] = y[i] == 0 ? 3.0f : y[i];
        ix[i] = (int32_t)(x[i] * 1000003.0f) * (i % 2 ? -1 : 1), iy[i] = (int32_t)y[i] - (i % 5 == 0 ? (int32_t)y[i] : 0);
    }
    ix[3] = INT32_MIN, iy[3] = -1;  /* RISC-V DIV: INT32_MIN / -1 = INT32_MIN, x / 0 = -1 */
    const uint32_t d2[2] = {RR, CC}, d1[1] = {NE};
    gca_arr_t X, Y, IX, IY, X1;
    OKA(t, X = gca_from_host(t.c, GCA_F32, 2, d2, x));
    OKA(t, Y = gca_from_host(t.c, GCA_F32, 2, d2, y));
    OKA(t, IX = gca_from_host(t.c, GCA_I32, 2, d2, ix));
    OKA(t, IY = gca_from_host(t.c, GCA_I32, 2, d2, iy));
    OKA(t, X1 = gca_from_host(t.c, GCA_F32, 1, d1, x));
    OK(t, gca_scope_begin(t.c));
    gca_arr_t v;
    for (int op = GCA_OP_ADD; op <= GCA_OP_NE; op++) {
        if (op == GCA_OP_POW) continue;
        OKA(t, v = gca_map2(t.c, (gca_op_t)op, X, Y));
        if (op != GCA_OP_POW) OKA(t, v = gca_map2(t.c, (gca_op_t)op, IX, IY));
    }
    static const int un_exact[] = {GCA_OP_NEG, GCA_OP_ABS, GCA_OP_SQRT, GCA_OP_RSQRT, GCA_OP_FLOOR, GCA_OP_CEIL, GCA_OP_ISNAN};
    for (size_t i = 0; i < sizeof un_exact / sizeof un_exact[0]; i++) {
        gca_arr_t h;
        OKA(t, h = gca_div(t.c, X, Y));
        OKA(t, v = gca_map1(t.c, (gca_op_t)un_exact[i], h));
    }
    OKA(t, v = gca_map1(t.c, GCA_OP_NEG, IX));
    OKA(t, v = gca_map1(t.c, GCA_OP_ABS, IX));
    gca_arr_t lt;
    OKA(t, lt = gca_map2(t.c, GCA_OP_LT, X, Y));
    OKA(t, v = gca_select(t.c, lt, X, Y));
    OKA(t, v = gca_select(t.c, lt, IX, IY));
    for (int op = GCA_OP_SUM; op <= GCA_OP_MEAN; op++)
        for (int axis = -1; axis <= 1; axis++) {
            gca_arr_t m;
            OKA(t, m = gca_mul(t.c, X, Y));
            OKA(t, v = gca_reduce(t.c, (gca_op_t)op, m, axis));
        }
    for (int op = GCA_OP_SUM; op <= GCA_OP_RMAX; op++) OKA(t, v = gca_reduce(t.c, (gca_op_t)op, IX, 1));
    OKA(t, v = gca_reduce(t.c, GCA_OP_ANY, lt, -1));
    OKA(t, v = gca_reduce(t.c, GCA_OP_ALL, lt, 0));
    OKA(t, v = gca_transpose(t.c, X));
    gca_arr_t tx;
    OKA(t, tx = gca_transpose(t.c, Y));
    OKA(t, v = gca_reduce(t.c, GCA_OP_SUM, tx, 1));
    OKA(t, v = gca_slice(t.c, X, 2, 5, 3, 11));
    OKA(t, v = gca_slice(t.c, X1, 17, 100, 0, 1));
    OKA(t, v = gca_fill(t.c, GCA_I32, 2, d2, -7.0f));
    OKA(t, v = gca_index(t.c, GCA_I32, 2, d2, 1));
    OKA(t, v = gca_random(t.c, 2, d2, 99));
    OKA(t, v = gca_powc(t.c, X, 2.0f));
    OK(t, gca_flush(t.c));
    CHECK_EQ(log.count, 0);
    /* libm: glibc on the host, picolibc on the device */
    OK(t, gca_set_reference(t.c, true, 0x1p-20f));
    static const int un_libm[] = {GCA_OP_EXP, GCA_OP_LOG, GCA_OP_SIN, GCA_OP_COS, GCA_OP_TANH};
    for (size_t i = 0; i < sizeof un_libm / sizeof un_libm[0]; i++) {
        gca_arr_t h;
        OKA(t, h = gca_div(t.c, X, Y));
        OKA(t, v = gca_map1(t.c, (gca_op_t)un_libm[i], h));
    }
    OKA(t, v = gca_pow(t.c, X, gca_div(t.c, Y, X)));
    OKA(t, v = gca_powc(t.c, X, 0.5f));
    OK(t, gca_flush(t.c));
    CHECK_EQ(log.count, 0);
    OK(t, gca_scope_end(t.c));
    gca_stats_t st;
    gca_stats(t.c, &st);
    CHECK_EQ(st.mismatches, 0);
    fprintf(stderr, "%llu kernels, %llu compiles\n", (unsigned long long)st.kernels_launched,
            (unsigned long long)st.compiles);
out:
    tclose(&t, false);
}

/* A deliberately wrong primitive (the device's mul generated as add) is reported at mul's call
 * site, with the first differing element and both values, by the callback and by the log. */
static void t_reference_wrong_primitive(void) {
    if (on_sc()) TCASE_SKIP("the rest runs on rtl and ref");
    for (int mode = 0; mode < 2; mode++) {
        mm_log_t log = {0};
        gca_config_t cfg;
        gca_config_init(&cfg);
        cfg.reference = true;
        cfg.on_mismatch = mode ? GCA_MISMATCH_LOG : GCA_MISMATCH_CALLBACK;
        cfg.on_mismatch_fn = on_mm;
        cfg.on_mismatch_user = &log;
        cfg.debug_wrong_op = GCA_OP_MUL;
        tctx_t t = {0};
        TOPEN(t, &cfg);
        static float a[N], b[N], e[N], d[N], g[N];
        ints(a, N, 61, 9), ints(b, N, 62, 9), ints(e, N, 63, 9), ints(d, N, 64, 9);
        e[0] = 2.0f, a[0] = 1.0f, b[0] = 1.0f; /* element 0: (1 + 1) * 2 = 4, the wrong add gives 4 too */
        e[1] = 3.0f, a[1] = 1.0f, b[1] = 1.0f; /* element 1 differs: 6 against 5 */
        const uint32_t dims[1] = {N};
        gca_arr_t A, B, E, D, Cc, F, G;
        if (!upload4(&t, 1, dims, a, b, e, d, &A, &B, &E, &D)) goto out;
        OKA(t, Cc = gca_add(t.c, A, B));
        const int mul_line = __LINE__ + 1;
        OKA(t, F = gca_mul(t.c, Cc, E));
        OKA(t, G = gca_div(t.c, F, D));
        OK(t, gca_release(t.c, Cc)); /* temporaries: reference mode still stores and checks them */
        OK(t, gca_release(t.c, F));
        gca_error_t e_ = gca_read(t.c, G, g, sizeof g);
        gca_stats_t st;
        gca_stats(t.c, &st);
        CHECK_EQ(st.mismatches, 1); /* the first op that differs, not every one after it */
        char want[64];
        snprintf(want, sizeof want, "test_array.c:%d: mul: element 1:", mul_line);
        if (!mode) {
            CHECK_EQ(e_, GCA_ERROR_MISMATCH);
            CHECK_EQ(log.count, 1);
            CHECK_EQ(log.first.site.line, mul_line);
            CHECK(!strcmp(log.first.op, "mul"));
            CHECK_EQ(log.first.index, 1);
            CHECK_EQ(log.first.device_bits, 0x40a00000); /* 5 */
            CHECK_EQ(log.first.reference_bits, 0x40c00000); /* 6 */
            if (!strstr(log.first.message, want)) TCASE_FAIL_("message '%s' lacks '%s'", log.first.message, want);
        } else {
            CHECK_EQ(e_, GCA_SUCCESS); /* log and continue */
            CHECK_EQ(log.count, 0);
            CHECK_EQ(gca_last_error(t.c), GCA_ERROR_MISMATCH);
            if (!strstr(gca_last_message(t.c), want)) TCASE_FAIL_("message '%s' lacks '%s'", gca_last_message(t.c), want);
        }
    out:
        tclose(&t, false);
    }
}

static void write_script(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
    chmod(path, 0700);
}

/* Bad input: a clear error naming the call site, and the context stays usable. */
static void t_bad_input(void) {
    RTL_REF_CASE(t, NULL);
    static float a[N], got[N];
    static int32_t idx[N];
    fill(a, N, 71);
    for (int i = 0; i < N; i++) idx[i] = (i * 13) % N;
    idx[17] = N + 5;
    const uint32_t d2[2] = {R, C}, d2t[2] = {C, R}, d1[1] = {N};
    char want[200];
    gca_arr_t A, AT, I, X, G, A1;
    OKA(t, A = gca_from_host(t.c, GCA_F32, 2, d2, a));
    OKA(t, AT = gca_from_host(t.c, GCA_F32, 2, d2t, a));
    OKA(t, A1 = gca_from_host(t.c, GCA_F32, 1, d1, a));
    /* shape mismatch */
    int line = __LINE__ + 1;
    X = gca_add(t.c, A, AT);
    CHECK_EQ(X.id, 0);
    CHECK_EQ(gca_last_error(t.c), GCA_ERROR_SHAPE);
    snprintf(want, sizeof want, "test_array.c:%d: add: shapes 40x50 and 50x40 differ", line);
    if (!strstr(gca_last_message(t.c), want)) TCASE_FAIL_("'%s' lacks '%s'", gca_last_message(t.c), want);
    /* the failed result passed on */
    line = __LINE__ + 1;
    X = gca_mul(t.c, X, A);
    CHECK_EQ(gca_last_error(t.c), GCA_ERROR_INVALID_HANDLE);
    snprintf(want, sizeof want, "test_array.c:%d: mul: no array", line);
    if (!strstr(gca_last_message(t.c), want)) TCASE_FAIL_("'%s' lacks '%s'", gca_last_message(t.c), want);
    /* types, dims, axes: both ends of each range */
    CHECK_EQ(gca_map1(t.c, GCA_OP_SQRT, gca_from_host(t.c, GCA_I32, 1, d1, idx)).id, 0);
    CHECK_EQ(gca_last_error(t.c), GCA_ERROR_TYPE);
    const uint32_t zero[2] = {0, 5}, big[2] = {4097, 4096}, edge[2] = {1, 1};
    CHECK_EQ(gca_from_host(t.c, GCA_F32, 2, zero, a).id, 0);
    CHECK_EQ(gca_last_error(t.c), GCA_ERROR_INVALID_VALUE);
    CHECK_EQ(gca_from_host(t.c, GCA_F32, 3, d2, a).id, 0);
    CHECK_EQ(gca_from_host(t.c, GCA_F32, 0, d2, a).id, 0);
    CHECK_EQ(gca_fill(t.c, GCA_F32, 2, big, 1.0f).id, 0); /* 2^24 + 4096 elements */
    CHECK(strstr(gca_last_message(t.c), "at most 16777216") != NULL);
    gca_arr_t one;
    OKA(t, one = gca_fill(t.c, GCA_F32, 2, edge, 1.0f));
    CHECK_EQ(gca_reduce(t.c, GCA_OP_SUM, A, 2).id, 0);
    CHECK_EQ(gca_reduce(t.c, GCA_OP_SUM, A1, 0).id, 0);
    CHECK_EQ(gca_slice(t.c, A, 39, 2, 0, 1).id, 0);
    CHECK_EQ(gca_last_error(t.c), GCA_ERROR_SHAPE);
    /* reading a released array */
    gca_arr_t B;
    OKA(t, B = gca_add(t.c, A, one));
    int rel = __LINE__ + 1;
    OK(t, gca_release(t.c, B));
    line = __LINE__ + 1;
    CHECK_EQ(gca_read(t.c, B, got, sizeof got), GCA_ERROR_INVALID_HANDLE);
    snprintf(want, sizeof want, "test_array.c:%d: gca_read: array 0x%x (made at test_array.c:%d) was released at test_array.c:%d",
             line, B.id, rel - 2, rel);
    if (!strstr(gca_last_message(t.c), want)) TCASE_FAIL_("'%s' lacks '%s'", gca_last_message(t.c), want);
    CHECK_EQ(gca_read(t.c, A, got, 4), GCA_ERROR_INVALID_VALUE); /* wrong size */
    /* an out-of-range gather index */
    OKA(t, I = gca_from_host(t.c, GCA_I32, 1, d1, idx));
    line = __LINE__ + 1;
    OKA(t, G = gca_gather(t.c, A1, I));
    CHECK_EQ(gca_read(t.c, G, got, sizeof got), GCA_ERROR_INDEX);
    snprintf(want, sizeof want, "test_array.c:%d: gather: index %d at element 17 is outside", line, N + 5);
    if (!strstr(gca_last_message(t.c), want)) TCASE_FAIL_("'%s' lacks '%s'", gca_last_message(t.c), want);
    OK(t, gca_read(t.c, G, got, sizeof got)); /* evaluated: the other elements are there */
    CHECK(got[16] == a[idx[16]] && got[17] == 0.0f);
    /* the compiler missing, then failing: the ops stay pending, then run with the right one */
    gca_arr_t Y;
    OKA(t, Y = gca_sub(t.c, A1, gca_scalar_f32(t.c, 0.25f)));
    OK(t, gca_set_compiler(t.c, "/nonexistent/riscv64-unknown-elf-gcc"));
    line = __LINE__ + 1;
    CHECK_EQ(gca_read(t.c, Y, got, sizeof got), GCA_ERROR_COMPILE);
    snprintf(want, sizeof want, "test_array.c:%d: the kernel compiler '/nonexistent/riscv64-unknown-elf-gcc' cannot be run", line);
    if (!strstr(gca_last_message(t.c), want)) TCASE_FAIL_("'%s' lacks '%s'", gca_last_message(t.c), want);
    char fake[128];
    snprintf(fake, sizeof fake, "%s/fake-cc", t.dir);
    write_script(fake, "#!/bin/sh\nif [ \"$1\" = --version ]; then echo fake-cc 1.0; exit 0; fi\n"
                       "echo 'fake-cc: error: out of ideas' >&2; exit 1\n");
    OK(t, gca_set_compiler(t.c, fake));
    line = __LINE__ + 1;
    CHECK_EQ(gca_read(t.c, Y, got, sizeof got), GCA_ERROR_COMPILE);
    snprintf(want, sizeof want, "test_array.c:%d: compiling kernel", line);
    if (!strstr(gca_last_message(t.c), want) || !strstr(gca_last_message(t.c), "fake-cc: error: out of ideas"))
        TCASE_FAIL_("'%s' lacks '%s' or the compiler's message", gca_last_message(t.c), want);
    OK(t, gca_set_compiler(t.c, NULL));
    OK(t, gca_read(t.c, Y, got, sizeof got));
    for (int i = 0; i < N; i++)
        if (got[i] != a[i] - 0.25f) {
            TCASE_FAIL_("after the compiler came back: Y[%d] = %g, want %g", i, (double)got[i], (double)(a[i] - 0.25f));
            break;
        }
out:
    tclose(&t, false);
}

static void cache_chain(tctx_t *t, float *g) {
    static float a[N], b[N];
    fill(a, N, 81), fill(b, N, 82);
    const uint32_t dims[1] = {N};
    gca_arr_t A, B, Y;
    OKA(*t, A = gca_from_host(t->c, GCA_F32, 1, dims, a));
    OKA(*t, B = gca_from_host(t->c, GCA_F32, 1, dims, b));
    OKA(*t, Y = gca_map1(t->c, GCA_OP_SQRT, gca_map1(t->c, GCA_OP_ABS, gca_mul(t->c, gca_add(t->c, A, B), A))));
    OK(*t, gca_read(t->c, Y, g, N * 4));
    EXPECT_BITS(N, g, sqrtf(fabsf((a[i] + b[i]) * a[i])), "Y");
out:
    return;
}

/* One context on t->dir's cache running cache_chain `runs` times; its compiles, disk hits,
 * rebuilt entries and memory hits must be as given.  The program key of the last kernel. */
static uint64_t cache_run(tctx_t *t, const gca_config_t *cfg, int runs, uint64_t compiles, uint64_t disk,
                          uint64_t rebuilt, uint64_t mem) {
    static float g[N];
    gca_stats_t st;
    if (!topen(t, cfg)) {
        TCASE_FAIL_("could not open the runtime and the array context");
        return 0;
    }
    for (int r = 0; r < runs; r++) cache_chain(t, g);
    gca_stats(t->c, &st);
    CHECK_EQ(st.compiles, compiles);
    CHECK_EQ(st.prog_disk_hits, disk);
    CHECK_EQ(st.prog_rebuilt, rebuilt);
    CHECK_EQ(st.prog_mem_hits, mem);
    const gca_kernel_info_t *k = kernel_k(t, 0);
    uint64_t key = k ? k->key : 0;
    tclose(t, true);
    return key;
}

/* The program cache: a second process compiles nothing; a corrupt or foreign entry is rebuilt. */
static void t_program_cache(void) {
    if (on_sc()) TCASE_SKIP("the rest runs on rtl and ref");
    const char *child = getenv("GCA_TEST_CACHE_DIR");
    tctx_t t = {0};
    if (child) { /* the second process */
        snprintf(t.dir, sizeof t.dir, "%s", child);
        cache_run(&t, NULL, 1, 0, 1, 0, 0);
        return;
    }
    uint64_t key = cache_run(&t, NULL, 1, 1, 0, 0, 0);
    REQUIRE(key);
    /* a second process with the same cache directory */
    char self[512];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    REQUIRE(n > 0);
    self[n] = 0;
    setenv("GCA_TEST_CACHE_DIR", t.dir, 1);
    char *argv[] = {self, "array_program_cache", NULL};
    pid_t pid;
    int rc = posix_spawn(&pid, self, NULL, NULL, argv, environ), status = 0;
    unsetenv("GCA_TEST_CACHE_DIR");
    REQUIRE(rc == 0);
    waitpid(pid, &status, 0);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    /* corrupt the ELF: rebuilt, never loaded; then good again */
    char path[160];
    snprintf(path, sizeof path, "%s/%016llx.elf", t.dir, (unsigned long long)key);
    FILE *f = fopen(path, "r+b");
    REQUIRE(f);
    fseek(f, 200, SEEK_SET);
    fputs("garbage", f);
    fclose(f);
    cache_run(&t, NULL, 1, 1, 0, 1, 0);
    cache_run(&t, NULL, 1, 0, 1, 0, 0);
    /* a truncated key file: rebuilt */
    snprintf(path, sizeof path, "%s/%016llx.key", t.dir, (unsigned long long)key);
    REQUIRE(truncate(path, 30) == 0);
    cache_run(&t, NULL, 1, 1, 0, 1, 0);
    /* the memory cache: the same kernel again in one context (trace cache off) */
    gca_config_t cfg;
    gca_config_init(&cfg);
    cfg.trace_cache = false;
    cache_run(&t, &cfg, 2, 0, 1, 0, 1);
    rmdir_all(t.dir);
}

/* FIG. 5C: x != 0 gives C = A + (B * 2), x == 0 gives C = A - (B * 2), in a macro: recorded once per
 * control value, replayed (body skipped) with new inputs; releasing an input inside invalidates
 * it (a warning, plain code from then on); reads inside, nesting and a mismatched end are errors. */
static int body_runs;
static gca_arr_t fig5c(tctx_t *t, gca_arr_t A, gca_arr_t B, int x) {
    gca_arr_t ins[2] = {A, B}, outs[1] = {{0}};
    GCA_MACRO(t->c, 7, ins, 2, &x, sizeof x, outs, 1) {
        body_runs++;
        gca_arr_t two = gca_scalar_f32(t->c, 2.0f), b2 = gca_mul(t->c, B, two);
        outs[0] = x ? gca_add(t->c, A, b2) : gca_sub(t->c, A, b2);
        gca_release(t->c, two);
        gca_release(t->c, b2);
    }
    return outs[0];
}

static void t_macro(void) {
    RTL_REF_CASE(t, NULL);
    static float a[N], b[N], got[N];
    const uint32_t dims[1] = {N};
    gca_stats_t s0, s1;
    gca_stats(t.c, &s0);
    for (int it = 0; it < 5; it++) {
        int x = it < 3;
        fill(a, N, 90 + (uint32_t)it), fill(b, N, 95 + (uint32_t)it);
        gca_arr_t A, B, Cc;
        OKA(t, A = gca_from_host(t.c, GCA_F32, 1, dims, a));
        OKA(t, B = gca_from_host(t.c, GCA_F32, 1, dims, b));
        OKA(t, Cc = fig5c(&t, A, B, x));
        OK(t, gca_read(t.c, Cc, got, sizeof got));
        EXPECT_BITS(N, got, x ? a[i] + b[i] * 2.0f : a[i] - b[i] * 2.0f, "C");
        gca_release(t.c, A), gca_release(t.c, B), gca_release(t.c, Cc);
    }
    gca_stats(t.c, &s1);
    CHECK_EQ(body_runs, 2);                          /* x = 1 recorded, x = 0 recorded */
    CHECK_EQ(s1.macro_records - s0.macro_records, 2);
    CHECK_EQ(s1.macro_replays - s0.macro_replays, 3);
    CHECK_EQ(s1.compiles - s0.compiles, 2);
    CHECK_EQ(s1.scheduler_runs - s0.scheduler_runs, 2); /* replays hit the trace cache */
    /* an input changed inside: A = A - 3 */
    for (int it = 0; it < 2; it++) {
        gca_arr_t A, ins[1], outs[1];
        OKA(t, A = gca_from_host(t.c, GCA_F32, 1, dims, a));
        ins[0] = A;
        int runs = body_runs;
        GCA_MACRO(t.c, 8, ins, 1, NULL, 0, outs, 1) {
            body_runs++;
            gca_arr_t A2 = gca_sub(t.c, A, gca_scalar_f32(t.c, 3.0f));
            gca_release(t.c, A);
            A = A2;
            outs[0] = gca_mul(t.c, A, A);
        }
        CHECK_EQ(body_runs, runs + 1); /* plain code both times */
        OK(t, gca_read(t.c, outs[0], got, sizeof got));
        float w = (a[5] - 3.0f) * (a[5] - 3.0f);
        CHECK(!memcmp(&w, &got[5], 4));
        gca_release(t.c, A), gca_release(t.c, outs[0]);
    }
    gca_stats(t.c, &s0);
    CHECK_EQ(s0.macro_records, s1.macro_records);
    /* illegal uses */
    gca_arr_t A, ins[1], outs[1];
    OKA(t, A = gca_from_host(t.c, GCA_F32, 1, dims, a));
    ins[0] = A;
    CHECK(gca_macro_begin(t.c, 9, ins, 1, NULL, 0, outs, 1));
    outs[0] = gca_neg(t.c, A);
    CHECK_EQ(gca_read(t.c, outs[0], got, sizeof got), GCA_ERROR_MACRO);
    CHECK_EQ(gca_flush(t.c), GCA_ERROR_MACRO);
    gca_arr_t o2[1];
    CHECK(!gca_macro_begin(t.c, 10, ins, 1, NULL, 0, o2, 1));
    CHECK_EQ(gca_last_error(t.c), GCA_ERROR_MACRO);
    CHECK_EQ(gca_macro_end(t.c, 10), GCA_ERROR_MACRO);
    CHECK(strstr(gca_last_message(t.c), "does not match gca_macro_begin(9)") != NULL);
    OK(t, gca_macro_end(t.c, 9));
    CHECK_EQ(gca_macro_end(t.c, 9), GCA_ERROR_MACRO);
    OK(t, gca_read(t.c, outs[0], got, sizeof got));
    CHECK(got[3] == -a[3]);
out:
    tclose(&t, false);
}

/* The fusion scenario at 2048 elements: one fused kernel against four, fewer cycles and half the
 * bytes (6 arrays moved against 12, counted by COMPUTE.LSU_BEATS; with c, d, e scalars a third:
 * 3 against 9), a second context compiles nothing, the kernels on the timeline by name. */
static void t_fusion_scenario(void) {
    gcrt_config_t rc;
    gcrt_config_init(&rc);
    rc.device.quiet = true;
    gcsc_fusion_result_t r;
    char err[700] = "", tl[64] = "/tmp/gca_tl.XXXXXX";
    int fd = mkstemp(tl);
    REQUIRE(fd >= 0);
    close(fd);
    gcrt_error_t e = gcsc_fusion(&rc, 2048, NULL, stdout, tl, &r, err, sizeof err);
    if (e) TCASE_FAIL_("gcsc_fusion: %s: %s", gcrt_error_name(e), err);
    CHECK(r.passed);
    CHECK_EQ(r.kernels_fused, 1);
    CHECK_EQ(r.kernels_unfused, 4);
    CHECK_EQ(r.bad, 0);
    CHECK(r.cycles_fused > 0 && r.cycles_fused < r.cycles_unfused);
    /* 6 arrays of 8 KiB against 12: at least the arrays, at most one extra 64-byte burst per kernel */
    CHECK(r.bytes_fused >= 6 * 2048 * 4 && r.bytes_unfused >= 12 * 2048 * 4);
    CHECK(2 * r.bytes_fused <= r.bytes_unfused + 1024);
    /* c, d, e scalars: the same kernels, 3 arrays moved against 9 */
    CHECK_EQ(r.kernels_scalar_fused, 1);
    CHECK_EQ(r.kernels_scalar_unfused, 4);
    CHECK(r.cycles_scalar_fused > 0 && r.cycles_scalar_fused < r.cycles_scalar_unfused);
    CHECK(r.bytes_scalar_fused >= 3 * 2048 * 4 && r.bytes_scalar_unfused >= 9 * 2048 * 4);
    CHECK(3 * r.bytes_scalar_fused <= r.bytes_scalar_unfused + 1024);
    CHECK_EQ(r.trace_hits, 3);
    const char *json = NULL;
    FILE *f = fopen(tl, "r");
    static char buf[1 << 20];
    if (f) {
        size_t n = fread(buf, 1, sizeof buf - 1, f);
        buf[n] = 0;
        fclose(f);
        json = buf;
    }
    CHECK(json && strstr(json, "\"name\":\"gca_add_mul_sub_div\"") && strstr(json, "\"name\":\"gca_div\""));
    unlink(tl);
    /* bad input: both ends of the size range */
    CHECK_EQ(gcsc_fusion(&rc, 0, NULL, NULL, NULL, &r, err, sizeof err), GCRT_ERROR_INVALID_VALUE);
    CHECK(strstr(err, "0 elements: 1 .. 16777216") != NULL);
    CHECK_EQ(gcsc_fusion(&rc, (1u << 24) + 1, NULL, NULL, NULL, &r, err, sizeof err), GCRT_ERROR_INVALID_VALUE);
    CHECK_EQ(gcsc_fusion(&rc, 1, NULL, NULL, NULL, &r, err, sizeof err), GCRT_SUCCESS);
    CHECK(r.passed);
}

/* The limits: every configuration range refused one past each end and working at both ends; a
 * kernel stops growing at the op and input limits; the pending limit forces a flush. */
static void t_limits(void) {
    if (on_sc()) TCASE_SKIP("the rest runs on rtl and ref");
    gcrt_config_t rc;
    gcrt_config_init(&rc);
    rc.device.quiet = true;
    gcrt_t *rt = NULL;
    REQUIRE(gcrt_open(&rc, &rt) == GCRT_SUCCESS);
    gca_ctx_t *c = NULL;
    gca_config_t cfg;
    static const uint32_t lo[4] = {1, 1, 1, 1}, hi[4] = {256, 64, 64, 65536};
    for (int i = 0; i < 4; i++) {
        const uint32_t vals[4] = {lo[i] - 1, lo[i], hi[i], hi[i] + 1};
        for (int v = 0; v < 4; v++) {
            gca_config_init(&cfg);
            cfg.cache_dir = "";
            uint32_t *field = i == 0 ? &cfg.max_kernel_ops : i == 1 ? &cfg.max_kernel_inputs
                              : i == 2 ? &cfg.max_kernel_outputs : &cfg.max_pending;
            *field = vals[v];
            gca_error_t e = gca_open(rt, &cfg, &c);
            CHECK_EQ(e, (v == 0 || v == 3) ? GCA_ERROR_INVALID_VALUE : GCA_SUCCESS);
            if (!e) gca_close(c);
        }
    }
    gca_config_init(&cfg);
    cfg.ref_scale = -1.0f;
    CHECK_EQ(gca_open(rt, &cfg, &c), GCA_ERROR_INVALID_VALUE);
    gca_config_init(&cfg);
    cfg.on_mismatch = GCA_MISMATCH_CALLBACK; /* without a callback */
    CHECK_EQ(gca_open(rt, &cfg, &c), GCA_ERROR_INVALID_VALUE);
    /* scopes: 64 deep, not 65; an end without a begin; keep outside a scope */
    gca_config_init(&cfg);
    cfg.cache_dir = "";
    REQUIRE(gca_open(rt, &cfg, &c) == GCA_SUCCESS);
    for (int i = 0; i < 64; i++) CHECK_EQ(gca_scope_begin(c), GCA_SUCCESS);
    CHECK_EQ(gca_scope_begin(c), GCA_ERROR_INVALID_VALUE);
    gca_arr_t k = gca_scalar_f32(c, 1.0f), k2 = gca_scalar_f32(c, 2.0f);
    CHECK_EQ(gca_keep(c, k), GCA_SUCCESS);
    for (int i = 0; i < 64; i++) CHECK_EQ(gca_scope_end(c), GCA_SUCCESS);
    CHECK_EQ(gca_scope_end(c), GCA_ERROR_INVALID_VALUE);
    CHECK_EQ(gca_release(c, k2), GCA_ERROR_INVALID_HANDLE); /* released by its scope's end */
    CHECK_EQ(gca_release(c, k), GCA_ERROR_INVALID_HANDLE);  /* kept one level up, released there */
    CHECK_EQ(gca_keep(c, gca_scalar_f32(c, 3.0f)), GCA_ERROR_INVALID_VALUE);
    gca_close(c);
    gcrt_close(rt);

    static float a[N], b[N], e[N], d[N], g[N];
    fill(a, N, 1), fill(b, N, 2), fill(e, N, 3), fill(d, N, 4);
    const uint32_t dims[1] = {N};
    for (int mode = 0; mode < 3; mode++) {
        gca_config_init(&cfg);
        if (mode == 0) cfg.max_kernel_ops = 2;    /* add mul | div */
        if (mode == 1) cfg.max_kernel_inputs = 3; /* A B E | D */
        if (mode == 2) cfg.max_pending = 2;       /* the second op flushes */
        tctx_t t = {0};
        TOPEN(t, &cfg);
        gca_arr_t A, B, E, D, Cc, F, G;
        if (!upload4(&t, 1, dims, a, b, e, d, &A, &B, &E, &D)) goto out;
        OKA(t, Cc = gca_add(t.c, A, B));
        OKA(t, F = gca_mul(t.c, Cc, E));
        gca_stats_t st;
        gca_stats(t.c, &st);
        CHECK_EQ(st.flushes, mode == 2 ? 1 : 0);
        OK(t, gca_release(t.c, Cc));
        OKA(t, G = gca_div(t.c, F, D));
        OK(t, gca_release(t.c, F));
        OK(t, gca_read(t.c, G, g, sizeof g));
        gca_stats(t.c, &st);
        CHECK_EQ(st.kernels_launched, 2);
        const gca_kernel_info_t *k0 = kernel_k(&t, 1), *k1 = kernel_k(&t, 0);
        REQUIRE(k0 && k1);
        /* the forced flush came while C and F were held: both stored */
        if (mode == 0 || mode == 2) CHECK(k0->nops == 2 && k1->nops == 1 && k0->nout == (mode ? 2u : 1u) && k1->nin == 2);
        if (mode == 1) CHECK(k0->nin <= 3 && k1->nin <= 3);
        EXPECT_BITS(N, g, (a[i] + b[i]) * e[i] / d[i], "G");
    out:
        tclose(&t, false);
    }
}

/* The fusion rules beyond the worked example: sizes that differ do not fuse; a transpose fuses as
 * a load of a stored array, never with its producer; reductions of one domain fuse horizontally
 * and their consumers come later; a reduction along a dimension fuses with its producer. */
static void t_fusion_rules(void) {
    RTL_REF_CASE(t, NULL);
    static float a[N], b[N], g[N], h[N];
    ints(a, N, 101, 9), ints(b, N, 102, 9);
    const uint32_t dims[2] = {R, C};
    gca_arr_t A, B, Y1, Y2, T, S1, S2, S3, two;
    OKA(t, A = gca_from_host(t.c, GCA_F32, 2, dims, a));
    OKA(t, B = gca_from_host(t.c, GCA_F32, 2, dims, b));
    OKA(t, two = gca_scalar_f32(t.c, 2.0f));
    size_t k0 = nkernels(&t);
    OKA(t, Y1 = gca_add(t.c, A, B));
    OKA(t, Y2 = gca_mul(t.c, gca_slice(t.c, A, 0, 10, 0, C), two)); /* 500 elements against 2000 */
    const uint32_t dv[1] = {6 * C};
    gca_arr_t V, Y3;
    OKA(t, V = gca_from_host(t.c, GCA_F32, 1, dv, b));
    OKA(t, Y3 = gca_add(t.c, V, two));
    OK(t, gca_read(t.c, Y2, h, 10 * C * 4));
    CHECK_EQ(nkernels(&t) - k0, 3); /* A + B; the slice * 2; V + 2 */
    static float v3[6 * C];
    OK(t, gca_read(t.c, Y3, v3, sizeof v3));
    for (int i = 0; i < 6 * C; i++) CHECK(v3[i] == b[i] + 2.0f);
    OK(t, gca_read(t.c, Y1, g, sizeof g));
    for (int i = 0; i < N; i++) CHECK(g[i] == a[i] + b[i] && (i >= 10 * C || h[i] == a[i] * 2.0f));
    /* a transpose of a computed value: its producer first; of a stored array: one kernel */
    k0 = nkernels(&t);
    gca_arr_t S = gca_add(t.c, A, B);
    OKA(t, T = gca_transpose(t.c, S));
    OK(t, gca_release(t.c, S));
    OK(t, gca_read(t.c, T, g, sizeof g));
    CHECK_EQ(nkernels(&t) - k0, 2);
    for (int r = 0; r < C; r++)
        for (int c = 0; c < R; c++) CHECK(g[r * R + c] == a[c * C + r] + b[c * C + r]);
    k0 = nkernels(&t);
    OKA(t, T = gca_mul(t.c, gca_transpose(t.c, A), two));
    OK(t, gca_read(t.c, T, g, sizeof g));
    CHECK_EQ(nkernels(&t) - k0, 1);
    CHECK_EQ(kernel_k(&t, 0)->nin, 1);
    /* sum and max of one domain: one kernel, two outputs; sum * 2 after it */
    k0 = nkernels(&t);
    gca_arr_t P = gca_mul(t.c, A, B);
    OKA(t, S1 = gca_sum(t.c, P));
    OKA(t, S2 = gca_reduce(t.c, GCA_OP_RMAX, P, -1));
    OKA(t, S3 = gca_mul(t.c, S1, two));
    OK(t, gca_release(t.c, P));
    float s1, s2, s3, w1 = 0, w2 = -INFINITY;
    OK(t, gca_read(t.c, S3, &s3, 4));
    OK(t, gca_read(t.c, S1, &s1, 4));
    OK(t, gca_read(t.c, S2, &s2, 4));
    CHECK_EQ(nkernels(&t) - k0, 2);
    CHECK_EQ(kernel_k(&t, 1)->nout, 2);
    for (int i = 0; i < N; i++) w1 += a[i] * b[i], w2 = a[i] * b[i] > w2 ? a[i] * b[i] : w2;
    CHECK(s1 == w1 && s2 == w2 && s3 == w1 * 2.0f);
    /* sum(A * B) along each dimension: one kernel each, the product in registers */
    for (int axis = 0; axis < 2; axis++) {
        k0 = nkernels(&t);
        gca_stats_t st0, st1;
        gca_stats(t.c, &st0);
        gca_arr_t Q = gca_mul(t.c, A, B), Z;
        OKA(t, Z = gca_reduce(t.c, GCA_OP_SUM, Q, axis));
        OK(t, gca_release(t.c, Q));
        OK(t, gca_read(t.c, Z, g, (axis ? R : C) * 4));
        gca_stats(t.c, &st1);
        CHECK_EQ(nkernels(&t) - k0, 1);
        CHECK_EQ(st1.allocations - st0.allocations, 1);
        for (int o = 0; o < (axis ? R : C); o++) {
            float w = 0;
            for (int k = 0; k < (axis ? C : R); k++) {
                int i = axis ? o * C + k : k * C + o;
                w += a[i] * b[i];
            }
            if (g[o] != w) {
                TCASE_FAIL_("sum(A * B, %d)[%d] = %g, host %g", axis, o, (double)g[o], (double)w);
                break;
            }
        }
    }
out:
    tclose(&t, false);
}

/* Code generation (docs/array.md): an elementwise kernel runs as many CTAs as the device holds at
 * once (COMPUTE.CONFIG: one per SM; COMPUTE.CTAS counts the CTAs that ran) and walks its
 * grid-stride loop U elements per pass, each copy's loads before a compiler barrier and any copy's
 * ops, then one element per pass; a 0-d input is loaded once before the loop.  Sizes around the
 * pass width (only the tail, only full passes, both) give the host's bits for the chain
 * ((a + b) * c - d) / e, a generator chain (index, random: the copies index their own elements)
 * and b * sum(a) (the sum broadcast). */
static void t_grid_stride_copies(void) {
    RTL_REF_CASE(t, NULL);
    uint32_t cw = 0;
    gc_mmio_read(gcrt_device(t.rt), GC_REG_COMPUTE_CONFIG, &cw);
    const uint32_t B = GC_SIMT_WARPS * GC_SIMT_LANES;
    const uint32_t per_sm = GC_COMPUTE_CONFIG_WARPS_GET(cw) * GC_COMPUTE_CONFIG_LANES_GET(cw) / B;
    const uint32_t ctas = GC_COMPUTE_CONFIG_NUM_SM_GET(cw) * (per_sm ? per_sm : 1), S = ctas * B, U = 3;
    const uint32_t sizes[] = {1, S - 1, S, U * S - 1, U * S, U * S + 1, 3 * U * S + S / 2 + 3};
    enum { NMAX = 4096 };
    static float h[5][NMAX], y[NMAX], r[NMAX];
    REQUIRE(sizes[6] <= NMAX);
    for (int k = 0; k < 5; k++) fill(h[k], NMAX, 10u + (uint32_t)k);
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
        const uint32_t n = sizes[z], dims[1] = {n};
        gca_arr_t in[5], q, rnd, ix, w;
        for (int k = 0; k < 5; k++) OKA(t, in[k] = gca_from_host(t.c, GCA_F32, 1, dims, h[k]));
        uint32_t c0 = 0, c1 = 0;
        gc_mmio_read(gcrt_device(t.rt), GC_REG_COMPUTE_CTAS, &c0);
        gca_arr_t s1, m1, d1;
        OKA(t, s1 = gca_add(t.c, in[0], in[1]));
        OKA(t, m1 = gca_mul(t.c, s1, in[2]));
        OKA(t, d1 = gca_sub(t.c, m1, in[3]));
        OKA(t, q = gca_div(t.c, d1, in[4]));
        gca_release(t.c, s1), gca_release(t.c, m1), gca_release(t.c, d1);
        OK(t, gca_read(t.c, q, y, n * 4u));
        gc_mmio_read(gcrt_device(t.rt), GC_REG_COMPUTE_CTAS, &c1);
        const gca_kernel_info_t *k = kernel_k(&t, 0);
        const uint32_t grid = (n + B - 1) / B < ctas ? (n + B - 1) / B : ctas;
        CHECK_EQ(k->grid, grid);
        CHECK_EQ(c1 - c0, grid); /* the hardware's count of CTAs that ran */
        EXPECT_BITS(n, y, ((h[0][i] + h[1][i]) * h[2][i] - h[3][i]) / h[4][i], "chain");
        /* five arrays loaded, four ops: three copies, every load of the pass before the barrier
         * and the first op */
        const char *src = k->source, *last = strstr(src, "const float x4_2 = in4[i_2];");
        const char *op = strstr(src, "gca_add_f(x0_0");
        const char *bar = last ? strstr(last, "__asm__ volatile(\"\" ::: \"memory\");") : NULL;
        CHECK(last && bar && op && last < bar && bar < op);
        CHECK(strstr(src, "i += 3u * S") && strstr(src, "i += S") && !strstr(src, "x4_3"));
        /* generators in the copies: w = index * random + a; the random values read back too */
        OKA(t, ix = gca_index(t.c, GCA_F32, 1, dims, 0));
        OKA(t, rnd = gca_random(t.c, 1, dims, 99u + (uint32_t)z));
        OKA(t, m1 = gca_mul(t.c, ix, rnd));
        OKA(t, w = gca_add(t.c, m1, in[0]));
        gca_release(t.c, m1), gca_release(t.c, ix);
        OK(t, gca_read(t.c, w, y, n * 4u));
        OK(t, gca_read(t.c, rnd, r, n * 4u));
        EXPECT_BITS(n, y, (float)i * r[i] + h[0][i], "index * random + a");
        for (uint32_t i = 0; i < n; i++)
            if (!(r[i] >= 0.0f && r[i] < 1.0f)) {
                TCASE_FAIL_("random[%u] = %g", i, (double)r[i]);
                break;
            }
        /* a 0-d input broadcast: sum(a) is exact on these values (multiples of 1/64, |sum| < 2^17) */
        gca_arr_t sm;
        float hs = 0.0f, sv = 0.0f;
        for (uint32_t i = 0; i < n; i++) hs += h[0][i];
        OKA(t, sm = gca_sum(t.c, in[0]));
        OKA(t, m1 = gca_mul(t.c, in[1], sm));
        OK(t, gca_read(t.c, m1, y, n * 4u));
        OK(t, gca_read(t.c, sm, &sv, 4));
        CHECK(sv == hs);
        CHECK(n == 1 || strstr(kernel_k(&t, 0)->source, "const float b1 = in1[0];") != NULL);
        EXPECT_BITS(n, y, h[1][i] * hs, "b * sum(a)");
        gca_release(t.c, m1), gca_release(t.c, sm);
        gca_release(t.c, rnd), gca_release(t.c, w), gca_release(t.c, q);
        for (int j = 0; j < 5; j++) gca_release(t.c, in[j]);
    }
out:
    tclose(&t, false);
}

static const tcase_t cases[] = {
    {"array_worked_example", t_worked_example},
    {"array_fusion_scenario", t_fusion_scenario},
    {"array_worked_example_keep_c", t_worked_example_keep_c},
    {"array_sum_of_products", t_sum_of_products},
    {"array_gather_and_index", t_gather_and_index},
    {"array_matmul_between_fused", t_matmul_between_fused},
    {"array_trace_loop", t_trace_loop},
    {"array_comparator", t_comparator},
    {"array_reference_all_ops", t_reference_all_ops},
    {"array_reference_wrong_primitive", t_reference_wrong_primitive},
    {"array_bad_input", t_bad_input},
    {"array_program_cache", t_program_cache},
    {"array_fusion_rules", t_fusion_rules},
    {"array_macro", t_macro},
    {"array_limits", t_limits},
    {"array_grid_stride_copies", t_grid_stride_copies},
};
TCASE_MAIN(cases)
