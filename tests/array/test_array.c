/* The array layer (issue 17, seed 004): laziness, fusion, scalar replacement, code generation,
 * program and trace caches, macros, reference-result mode and its comparator, bad input.  Every
 * case opens its own runtime on GPUCOSIM_BACKEND with a fresh program cache in a temporary
 * directory.  On sc only the worked example runs (the rest is the same driver code). */
#define _POSIX_C_SOURCE 200809L
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpucosim/array.h"
#include "gpucosim/runtime.h"
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

static void fill(float *v, size_t n, uint32_t seed) {
    uint32_t x = seed * 2654435761u + 7;
    for (size_t i = 0; i < n; i++) {
        x = x * 1664525u + 1013904223u;
        v[i] = (float)((int32_t)(x >> 9) % 2000 - 1000) / 64.0f + (x & 1 ? 0.5f : 0.25f);
    }
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
    OKA(t, A = gca_from_host(t.c, GCA_F32, 2, dims, a));
    OKA(t, B = gca_from_host(t.c, GCA_F32, 2, dims, b));
    OKA(t, E = gca_from_host(t.c, GCA_F32, 2, dims, e));
    OKA(t, D = gca_from_host(t.c, GCA_F32, 2, dims, d));
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
    for (int i = 0; i < N; i++) {
        float want = (a[i] + b[i]) * e[i] / d[i];
        if (memcmp(&want, &g[i], 4)) {
            TCASE_FAIL_("G[%d] = %a, host %a", i, (double)g[i], (double)want);
            break;
        }
    }
out:
    tclose(&t, false);
}

/* The same chain with C kept alive: one kernel, two outputs (C and G). */
static void t_worked_example_keep_c(void) {
    if (on_sc()) TCASE_SKIP("the rest runs on rtl and ref");
    tctx_t t = {0};
    TOPEN(t, NULL);
    static float a[N], b[N], e[N], d[N], g[N], c[N];
    fill(a, N, 5), fill(b, N, 6), fill(e, N, 7), fill(d, N, 8);
    const uint32_t dims[2] = {R, C};
    gca_arr_t A, B, E, D, Cc, F, G;
    OKA(t, A = gca_from_host(t.c, GCA_F32, 2, dims, a));
    OKA(t, B = gca_from_host(t.c, GCA_F32, 2, dims, b));
    OKA(t, E = gca_from_host(t.c, GCA_F32, 2, dims, e));
    OKA(t, D = gca_from_host(t.c, GCA_F32, 2, dims, d));
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

static const tcase_t cases[] = {
    {"array_worked_example", t_worked_example},
    {"array_worked_example_keep_c", t_worked_example_keep_c},
};
TCASE_MAIN(cases)
