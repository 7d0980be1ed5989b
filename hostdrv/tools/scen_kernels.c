/* scen_kernels.c: the kernel scenarios: kernels, float-kernels and the FPU probe.  See scenarios.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gc_kernels.h"
#include "gpucosim/compute.h"
#include "gpucosim_spec.h"

#include "scen_common.h"

/* ------------------------------------------------------------------ kernels */
typedef struct kbuf {
    uint64_t host, dev; /* pinned host copy and device buffer */
} kbuf_t;

static bool kalloc(ctx_t *c, kbuf_t *b, uint64_t *list, size_t *nlist, uint32_t bytes) {
    if (!scn_chk(c, gcrt_malloc_host(c->rt, &b->host, bytes), "malloc_host")) return false;
    list[(*nlist)++] = b->host;
    if (!scn_chk(c, gcrt_malloc(c->rt, &b->dev, bytes), "malloc")) return false;
    list[(*nlist)++] = b->dev;
    return true;
}

static void kcheck(gcsc_result_t *res, FILE *out, bool good, const char *what, uint32_t round) {
    res->checks++;
    if (good) return;
    res->bad_checks++;
    if (out) fprintf(out, "round %u: %s DIFFERS from the host's result\n", round, what);
}

static void rnd32(uint32_t *v, size_t n, uint64_t seed, uint32_t mask) {
    gcsc_fill((uint8_t *)v, n * 4, seed);
    for (size_t i = 0; i < n; i++) v[i] &= mask;
}

/* ---- single precision (issue 15) */
static float f_of(uint32_t u) {
    float f;
    memcpy(&f, &u, 4);
    return f;
}
static uint32_t u_of(float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* n random finite floats: random sign and significand, exponent field lo..hi */
static void rnd_float(uint32_t *v, size_t n, uint64_t seed, uint32_t lo, uint32_t hi) {
    gcsc_fill((uint8_t *)v, n * 4, seed);
    for (size_t i = 0; i < n; i++) v[i] = (v[i] & 0x807FFFFFu) | ((lo + (v[i] >> 23 & 0xFFu) % (hi - lo + 1u)) << 23);
}

/* |got - want| in units in the last place of want as a binary32 (the spacing of the floats at
 * |want|; 2^-149 below the normals); got a NaN or an infinity counts as infinitely far. */
static double ulp_err(float got, double want) {
    if (!isfinite(got)) return INFINITY;
    int e;
    frexp(want, &e); /* |want| in [2^(e-1), 2^e) */
    double ulp = ldexp(1.0, (e - 1 > -126 ? e - 1 : -126) - 23);
    return fabs((double)got - want) / ulp;
}

/* True when every F instruction works; fpu_probe faulting ILLEGAL_INSTRUCTION on an F instruction
 * is the model without the FPU (gc_sm FPU = 0).  Its own runtime: a kernel fault is sticky. */
gcrt_error_t gcsc_fpu_probe(const gcrt_config_t *cfg, const char *image, bool *present, uint32_t *value, char *err,
                            size_t errlen) {
    ctx_t c = {.err = err, .errlen = errlen};
    gcrt_t *rt = NULL;
    gc_elf_t *img = NULL;
    *present = false;
    *value = 0;
    if (scn_open_rt(&c, cfg, &rt) && scn_chk(&c, gcrt_load_image(rt, image, &img), image)) {
        uint64_t list[2];
        size_t nlist = 0;
        kbuf_t o;
        if (kalloc(&c, &o, list, &nlist, 4)) {
            gc_fpu_probe_params_t p = {gcrt_kernel_ptr(o.dev), 3};
            uint32_t one[3] = {1, 1, 1};
            gcrt_error_t e = gcrt_launch(rt, NULL, img, "fpu_probe", one, one, &p, sizeof p, 0);
            if (!e) e = gcrt_memcpy_async(rt, o.host, o.dev, 4, GCRT_MEMCPY_DEVICE_TO_HOST, NULL, "d2h probe");
            if (!e) e = gcrt_device_synchronize(rt);
            gc_compute_fault_t f;
            uint32_t opc = 0;
            if (e == GCRT_ERROR_CHANNEL_FAULT && gc_compute_fault_read(gcrt_device(rt), &f) == GC_OK &&
                f.cause == GC_SIMT_FAULT_ILLEGAL_INSTRUCTION && ((opc = f.addr & 0x7Fu) == GC_FP_OPC_OP_FP ||
                                                                 opc == GC_FP_OPC_LOAD_FP || opc == GC_FP_OPC_STORE_FP)) {
                gcrt_get_last_error(rt); /* expected: no FPU */
            } else if (scn_chk(&c, e, "fpu_probe") && scn_chk(&c, gcrt_read(rt, o.host, value, 4), "read")) {
                *present = true;
            }
        }
    }
    if (img) gcrt_unload_image(rt, img);
    gcrt_close(rt);
    return c.e;
}

/* One round of the float kernels on streams lo / hi: fsaxpy, fdot and fmath, checked against the
 * host: fsaxpy, fdot and sqrtf bit for bit (correctly rounded operations in a known order, which
 * the host's binary32 arithmetic does alike), expf / logf / sinf / powf within GCSC_FMATH_ULP of
 * the host's double-precision libm. */
static void float_round(ctx_t *c, gcrt_t *rt, gc_elf_t *img, gcrt_stream_t *lo, gcrt_stream_t *hi, uint32_t r,
                        const uint32_t shp[2], FILE *out, gcsc_result_t *res) {
    enum { NF = 600, NM = 96, MAXBUF = 14 };
    static uint32_t x[NF], y[NF], got[NF * 2], in[2 * NM], mo[GC_FMATH_FUNCS * NM];
    uint64_t list[MAXBUF];
    size_t nlist = 0;
    uint32_t n = 300 + (r * 53u) % 300u, bytes = 4 * n, grid = shp[0], cta = shp[1];
    uint32_t alpha = u_of(1.5f - (float)(r % 5u) * 0.75f), mcta = cta < 16 ? cta : 16;
    kbuf_t bx, by, bdx, bdy, bdo, bin, bmo;
    rnd_float(x, n, 700 + r, 100, 150);
    rnd_float(y, n, 800 + r, 100, 150);
    for (uint32_t i = 0; i < NM; i++) { /* a in [-10, 10), b in (0, 100] */
        uint32_t q[2];
        gcsc_fill((uint8_t *)q, sizeof q, 900 + r * NM + i);
        in[2 * i] = u_of(-10.0f + 20.0f * (float)(q[0] >> 8) / 16777216.0f);
        in[2 * i + 1] = u_of(100.0f * (float)((q[1] >> 8) + 1u) / 16777216.0f);
    }
    char tag[3][24];
    snprintf(tag[0], sizeof tag[0], "r%u.fsaxpy", r);
    snprintf(tag[1], sizeof tag[1], "r%u.fdot", r);
    snprintf(tag[2], sizeof tag[2], "r%u.fmath", r);
    const gcrt_memcpy_kind_t H2D = GCRT_MEMCPY_HOST_TO_DEVICE, D2H = GCRT_MEMCPY_DEVICE_TO_HOST;
    if (kalloc(c, &bx, list, &nlist, bytes) && kalloc(c, &by, list, &nlist, bytes) &&
        kalloc(c, &bdx, list, &nlist, bytes) && kalloc(c, &bdy, list, &nlist, bytes) &&
        kalloc(c, &bdo, list, &nlist, 4 * grid) && kalloc(c, &bin, list, &nlist, sizeof in) &&
        kalloc(c, &bmo, list, &nlist, sizeof mo)) {
        gc_fsaxpy_params_t ps = {gcrt_kernel_ptr(bx.dev), gcrt_kernel_ptr(by.dev), n, alpha};
        gc_fdot_params_t pd = {gcrt_kernel_ptr(bdx.dev), gcrt_kernel_ptr(bdy.dev), gcrt_kernel_ptr(bdo.dev), n};
        gc_fmath_params_t pm = {gcrt_kernel_ptr(bin.dev), gcrt_kernel_ptr(bmo.dev), NM};
        uint32_t g[3] = {grid, 1, 1}, b[3] = {cta, 1, 1}, g1[3] = {2, 1, 1}, b1[3] = {mcta, 1, 1};
        (void)(scn_chk(c, gcrt_write(rt, bx.host, x, bytes), "write") && scn_chk(c, gcrt_write(rt, by.host, y, bytes), "write") &&
               scn_chk(c, gcrt_write(rt, bdx.host, x, bytes), "write") && scn_chk(c, gcrt_write(rt, bdy.host, y, bytes), "write") &&
               scn_chk(c, gcrt_write(rt, bin.host, in, sizeof in), "write") &&
               scn_chk(c, gcrt_memcpy_async(rt, bx.dev, bx.host, bytes, H2D, lo, "h2d fx"), "h2d") &&
               scn_chk(c, gcrt_memcpy_async(rt, by.dev, by.host, bytes, H2D, lo, "h2d fy"), "h2d") &&
               scn_chk(c, gcrt_memcpy_async(rt, bdx.dev, bdx.host, bytes, H2D, hi, "h2d dx"), "h2d") &&
               scn_chk(c, gcrt_memcpy_async(rt, bdy.dev, bdy.host, bytes, H2D, hi, "h2d dy"), "h2d") &&
               scn_chk(c, gcrt_memcpy_async(rt, bin.dev, bin.host, sizeof in, H2D, lo, "h2d math"), "h2d") &&
               scn_chk(c, gcrt_launch(rt, lo, img, "fsaxpy", g, b, &ps, sizeof ps, 0), tag[0]) &&
               scn_chk(c, gcrt_launch(rt, hi, img, "fdot", g, b, &pd, sizeof pd, 4 * cta), tag[1]) &&
               scn_chk(c, gcrt_launch(rt, lo, img, "fmath", g1, b1, &pm, sizeof pm, 0), tag[2]) &&
               scn_chk(c, gcrt_memcpy_async(rt, by.host, by.dev, bytes, D2H, lo, "d2h fy"), "d2h") &&
               scn_chk(c, gcrt_memcpy_async(rt, bdo.host, bdo.dev, 4 * grid, D2H, hi, "d2h dot"), "d2h") &&
               scn_chk(c, gcrt_memcpy_async(rt, bmo.host, bmo.dev, sizeof mo, D2H, lo, "d2h math"), "d2h") &&
               scn_chk(c, gcrt_device_synchronize(rt), "synchronize"));
    }
    if (c->e == GCRT_SUCCESS) {
        res->kernels += 3;
        bool good = scn_chk(c, gcrt_read(rt, by.host, got, bytes), "read");
        for (uint32_t i = 0; good && i < n; i++) good = got[i] == u_of(f_of(alpha) * f_of(x[i]) + f_of(y[i]));
        kcheck(res, out, good, "fsaxpy", r);
        good = scn_chk(c, gcrt_read(rt, bdo.host, got, 4 * grid), "read") && cta <= GC_SIMT_WARPS * 32;
        for (uint32_t k = 0; good && k < grid; k++) { /* gc_fdot_params_t's order */
            float sh[GC_SIMT_WARPS * 32];
            if (cta > sizeof sh / sizeof sh[0]) break;
            for (uint32_t t = 0; t < cta; t++) {
                float sum = 0.0f;
                for (uint32_t i = k * cta + t; i < n; i += grid * cta) sum = sum + f_of(x[i]) * f_of(y[i]);
                sh[t] = sum;
            }
            uint32_t half = 1;
            while (half < cta) half <<= 1;
            for (half >>= 1; half > 0; half >>= 1)
                for (uint32_t t = 0; t < half && t + half < cta; t++) sh[t] = sh[t] + sh[t + half];
            good = got[k] == u_of(sh[0]);
        }
        kcheck(res, out, good, "fdot", r);
        good = scn_chk(c, gcrt_read(rt, bmo.host, mo, sizeof mo), "read");
        double worst[GC_FMATH_FUNCS] = {0};
        static const double bound[GC_FMATH_FUNCS] = GCSC_FMATH_ULP;
        for (uint32_t i = 0; good && i < NM; i++) {
            double a = f_of(in[2 * i]), bb = f_of(in[2 * i + 1]);
            const double want[GC_FMATH_FUNCS] = {exp(a), log(bb), sqrt(bb), sin(a), pow(bb, a)};
            for (uint32_t k = 0; k < GC_FMATH_FUNCS; k++) {
                float gv = f_of(mo[GC_FMATH_FUNCS * i + k]);
                double eu = ulp_err(gv, want[k]);
                if (k == 2) good = good && u_of(gv) == u_of(sqrtf(f_of(in[2 * i + 1]))); /* correctly rounded */
                else good = good && eu <= bound[k];
                if (eu > worst[k]) worst[k] = eu;
                if (eu > res->fmath_worst_ulp[k]) res->fmath_worst_ulp[k] = eu;
            }
        }
        kcheck(res, out, good, "fmath (expf, logf, sqrtf, sinf, powf)", r);
        if (out)
            fprintf(out, "round %u: float: fsaxpy %u x %u (n %u, alpha %g), fdot %u x %u, fmath 2 x %u (%u inputs; "
                         "worst ulp: expf %.3f logf %.3f sqrtf %.3f sinf %.3f powf %.3f)\n",
                    r, grid, cta, n, (double)f_of(alpha), grid, cta, mcta, NM, worst[0], worst[1], worst[2], worst[3],
                    worst[4]);
    }
    for (size_t i = 0; i < nlist; i++) scn_chk(c, gcrt_free(rt, list[i]), "free");
}

gcrt_error_t gcsc_float_kernels(const gcrt_config_t *cfg, const char *image, FILE *out, gcsc_result_t *res, char *err,
                                size_t errlen) {
    memset(res, 0, sizeof *res);
    ctx_t c = {.out = out, .err = err, .errlen = errlen};
    if (!image) {
        if (err) snprintf(err, errlen, "float-kernels: no kernel image");
        return GCRT_ERROR_INVALID_VALUE;
    }
    uint32_t probe = 0;
    gcrt_error_t pe = gcsc_fpu_probe(cfg, image, &res->fpu, &probe, err, errlen);
    if (pe) return pe;
    if (!res->fpu) {
        res->float_skipped = true;
        if (out) fprintf(out, "float-kernels: SKIPPED: the SIMT core has no FPU (fpu_probe faulted ILLEGAL_INSTRUCTION)\n");
        return GCRT_SUCCESS;
    }
    gcrt_t *rt = NULL;
    gc_elf_t *img = NULL;
    gcrt_stream_t *st[2] = {0};
    uint32_t ccfg = 0;
    if (scn_open_rt(&c, cfg, &rt) && scn_chk(&c, gcrt_load_image(rt, image, &img), image)) {
        if (gc_mmio_read(gcrt_device(rt), GC_REG_COMPUTE_CONFIG, &ccfg) != GC_OK)
            scn_chk(&c, GCRT_ERROR_BACKEND, "read COMPUTE_CONFIG");
        const uint32_t shape[2] = {2, GC_COMPUTE_CONFIG_LANES_GET(ccfg) * GC_COMPUTE_CONFIG_WARPS_GET(ccfg)};
        kcheck(res, out, probe == GC_FPU_PROBE_RESULT, "fpu_probe", 0);
        (void)(scn_chk(&c, gcrt_stream_create(rt, &st[0]), "stream") && scn_chk(&c, gcrt_stream_create(rt, &st[1]), "stream"));
        if (c.e == GCRT_SUCCESS) float_round(&c, rt, img, st[0], st[1], 0, shape, out, res);
        if (c.e == GCRT_SUCCESS && scn_harvest(&c, res)) {
            for (size_t i = 0; i < res->nops; i++)
                if (res->ops[i].kind == GCRT_OP_KERNEL) res->float_cycles += res->ops[i].end_cycle - res->ops[i].start_cycle;
            if (out)
                fprintf(out, "summary: float-kernels %s: %s: fsaxpy, fdot, fmath: %u of %u results match the host, "
                             "%llu kernel cycles\n",
                        res->bad_checks == 0 ? "PASSED" : "FAILED", image, res->checks - res->bad_checks, res->checks,
                        (unsigned long long)res->float_cycles);
        }
    }
    if (img) gcrt_unload_image(rt, img);
    gcrt_close(rt);
    return c.e;
}

gcrt_error_t gcsc_kernels(const gcrt_config_t *cfg, const char *image, uint32_t rounds, FILE *out,
                          const char *timeline, gcsc_result_t *res, char *err, size_t errlen) {
    enum { NMAX = 1200, NSHAPES = 5, MAXBUF = 24, NBINS_MAX = 24 };
    memset(res, 0, sizeof *res);
    ctx_t c = {.out = out, .err = err, .errlen = errlen};
    if (!image || rounds < 1 || rounds > 1000) {
        if (err) snprintf(err, errlen, "kernels: %s", image ? "rounds: 1..1000" : "no kernel image");
        return GCRT_ERROR_INVALID_VALUE;
    }
    gcrt_t *rt = NULL;
    gc_elf_t *img = NULL;
    gcrt_stream_t *st[2] = {0};
    uint32_t hw = 0, ccfg = 0, probe = 0;
    /* the float kernels run when the SIMT core has the FPU, and are reported skipped otherwise */
    gcrt_error_t pe = gcsc_fpu_probe(cfg, image, &res->fpu, &probe, err, errlen);
    if (pe) return pe;
    res->float_skipped = !res->fpu;
    static uint32_t a[NMAX], b[NMAX], got[NMAX];
    /* grid x CTA threads; shape NSHAPES - 1 is the full CTA (WARPS x LANES), filled in below */
    uint32_t shapes[NSHAPES][2] = {{1, 8}, {3, 13}, {2, 32}, {4, 7}, {2, 0}};
    if (scn_open_rt(&c, cfg, &rt) && scn_chk(&c, gcrt_compute_channel(rt, &hw), "compute channel") &&
        scn_chk(&c, gcrt_load_image(rt, image, &img), image) && scn_chk(&c, gcrt_tmu_log_enable(rt, 0), "task log")) {
        if (gc_mmio_read(gcrt_device(rt), GC_REG_COMPUTE_CONFIG, &ccfg) != GC_OK)
            scn_chk(&c, GCRT_ERROR_BACKEND, "read COMPUTE_CONFIG");
        uint32_t lanes = GC_COMPUTE_CONFIG_LANES_GET(ccfg), warps = GC_COMPUTE_CONFIG_WARPS_GET(ccfg);
        shapes[NSHAPES - 1][1] = lanes * warps;
        for (int k = 0; k < NSHAPES; k++)
            if (shapes[k][1] > lanes * warps) shapes[k][1] = lanes * warps;
        int least = 0, greatest = 0;
        scn_chk(&c, gcrt_stream_priority_range(rt, &least, &greatest), "priority range");
        scn_chk(&c, gcrt_stream_create_with_priority(rt, &st[0], least), "low stream");
        scn_chk(&c, gcrt_stream_create_with_priority(rt, &st[1], greatest), "high stream");
        if (out && c.e == GCRT_SUCCESS)
            fprintf(out, "kernels: %s, %u round%s of vecadd + reduce on stream priority %d and saxpy + histogram "
                         "on %d; compute channel %u, %u warps x %u lanes\n",
                    image, rounds, rounds == 1 ? "" : "s", least, greatest, hw, warps, lanes);
        if (res->fpu) {
            kcheck(res, out, probe == GC_FPU_PROBE_RESULT, "fpu_probe", 0);
            if (out && c.e == GCRT_SUCCESS)
                fprintf(out, "kernels: float kernels fsaxpy + fmath on stream priority %d and fdot on %d each round; "
                             "fsaxpy, fdot, sqrtf bit-exact, expf / logf / sinf / powf within 1 / 1 / 2 / 4 ulp of "
                             "the host's double precision\n",
                        least, greatest);
        } else if (out) {
            fprintf(out, "kernels: float kernels SKIPPED: the SIMT core has no FPU (fpu_probe faulted "
                         "ILLEGAL_INSTRUCTION at its first F instruction)\n");
        }
        for (uint32_t r = 0; r < rounds && c.e == GCRT_SUCCESS; r++) {
            uint64_t list[MAXBUF];
            size_t nlist = 0;
            uint32_t n = 700 + (r * 97u) % 500u, bytes = n * 4;
            uint32_t nbins = 5 + (r * 7u) % (NBINS_MAX - 5), mode = r & 1u;
            int32_t alpha = 3 - (int32_t)(r % 7u);
            const uint32_t *sv = shapes[r % NSHAPES], *ss = shapes[(r + 1) % NSHAPES],
                           *sr = shapes[(r + 2) % NSHAPES], *sh = shapes[(r + 3) % NSHAPES];
            kbuf_t va, vb, vc, sx, sy, rin, rout, hin, hout;
            uint32_t rparts = sr[0] + 1, hwords = nbins + 2;
            bool okb = kalloc(&c, &va, list, &nlist, bytes) && kalloc(&c, &vb, list, &nlist, bytes) &&
                       kalloc(&c, &vc, list, &nlist, bytes) && kalloc(&c, &sx, list, &nlist, bytes) &&
                       kalloc(&c, &sy, list, &nlist, bytes) && kalloc(&c, &rin, list, &nlist, bytes) &&
                       kalloc(&c, &rout, list, &nlist, 4 * rparts) && kalloc(&c, &hin, list, &nlist, bytes) &&
                       kalloc(&c, &hout, list, &nlist, 4 * hwords);
            static uint32_t x[NMAX], y[NMAX], rv[NMAX], hv[NMAX];
            rnd32(a, n, 100 + r, ~0u);
            rnd32(b, n, 200 + r, ~0u);
            rnd32(x, n, 300 + r, ~0u);
            rnd32(y, n, 400 + r, ~0u);
            rnd32(rv, n, 500 + r, 0xFFFFFu);
            rnd32(hv, n, 600 + r, 0xFFFFu);
            char tag[4][24];
            snprintf(tag[0], sizeof tag[0], "r%u.vecadd", r);
            snprintf(tag[1], sizeof tag[1], "r%u.saxpy", r);
            snprintf(tag[2], sizeof tag[2], "r%u.reduce", r);
            snprintf(tag[3], sizeof tag[3], "r%u.histogram", r);
            if (okb && scn_chk(&c, gcrt_write(rt, va.host, a, bytes), "write") &&
                scn_chk(&c, gcrt_write(rt, vb.host, b, bytes), "write") && scn_chk(&c, gcrt_write(rt, sx.host, x, bytes), "write") &&
                scn_chk(&c, gcrt_write(rt, sy.host, y, bytes), "write") && scn_chk(&c, gcrt_write(rt, rin.host, rv, bytes), "write") &&
                scn_chk(&c, gcrt_write(rt, hin.host, hv, bytes), "write")) {
                const gcrt_memcpy_kind_t H2D = GCRT_MEMCPY_HOST_TO_DEVICE, D2H = GCRT_MEMCPY_DEVICE_TO_HOST;
                gc_vecadd_params_t pv = {gcrt_kernel_ptr(va.dev), gcrt_kernel_ptr(vb.dev), gcrt_kernel_ptr(vc.dev), n};
                gc_saxpy_params_t ps = {gcrt_kernel_ptr(sx.dev), gcrt_kernel_ptr(sy.dev), n, alpha};
                gc_reduce_params_t pr = {gcrt_kernel_ptr(rin.dev), gcrt_kernel_ptr(rout.dev),
                                         gcrt_kernel_ptr(rout.dev + 4ull * sr[0]), n};
                gc_histogram_params_t ph = {gcrt_kernel_ptr(hin.dev), gcrt_kernel_ptr(hout.dev + 8),
                                            gcrt_kernel_ptr(hout.dev), gcrt_kernel_ptr(hout.dev + 4), n, nbins, mode};
                uint32_t g[4][3] = {{sv[0], 1, 1}, {ss[0], 1, 1}, {sr[0], 1, 1}, {sh[0], 1, 1}};
                uint32_t bl[4][3] = {{sv[1], 1, 1}, {ss[1], 1, 1}, {sr[1], 1, 1}, {sh[1], 1, 1}};
                gcrt_stream_t *lo = st[0], *hi = st[1];
                (void)(scn_chk(&c, gcrt_memcpy_async(rt, va.dev, va.host, bytes, H2D, lo, "h2d a"), "h2d") &&
                       scn_chk(&c, gcrt_memcpy_async(rt, vb.dev, vb.host, bytes, H2D, lo, "h2d b"), "h2d") &&
                       scn_chk(&c, gcrt_memcpy_async(rt, sx.dev, sx.host, bytes, H2D, hi, "h2d x"), "h2d") &&
                       scn_chk(&c, gcrt_memcpy_async(rt, sy.dev, sy.host, bytes, H2D, hi, "h2d y"), "h2d") &&
                       scn_chk(&c, gcrt_launch(rt, lo, img, "vecadd", g[0], bl[0], &pv, sizeof pv, 0), tag[0]) &&
                       scn_chk(&c, gcrt_launch(rt, hi, img, "saxpy", g[1], bl[1], &ps, sizeof ps, 0), tag[1]) &&
                       scn_chk(&c, gcrt_memcpy_async(rt, vc.host, vc.dev, bytes, D2H, lo, "d2h c"), "d2h") &&
                       scn_chk(&c, gcrt_memcpy_async(rt, sy.host, sy.dev, bytes, D2H, hi, "d2h y"), "d2h") &&
                       scn_chk(&c, gcrt_memcpy_async(rt, rin.dev, rin.host, bytes, H2D, lo, "h2d in"), "h2d") &&
                       scn_chk(&c, gcrt_memset_async(rt, rout.dev, 0, 4 * rparts, lo, "zero sums"), "memset") &&
                       scn_chk(&c, gcrt_memcpy_async(rt, hin.dev, hin.host, bytes, H2D, hi, "h2d hin"), "h2d") &&
                       scn_chk(&c, gcrt_memset_async(rt, hout.dev, 0, 4 * hwords, hi, "zero bins"), "memset") &&
                       scn_chk(&c, gcrt_launch(rt, lo, img, "reduce", g[2], bl[2], &pr, sizeof pr, 4 * bl[2][0]), tag[2]) &&
                       scn_chk(&c, gcrt_launch(rt, hi, img, "histogram", g[3], bl[3], &ph, sizeof ph, mode ? 4 * nbins : 0),
                           tag[3]) &&
                       scn_chk(&c, gcrt_memcpy_async(rt, rout.host, rout.dev, 4 * rparts, D2H, lo, "d2h sums"), "d2h") &&
                       scn_chk(&c, gcrt_memcpy_async(rt, hout.host, hout.dev, 4 * hwords, D2H, hi, "d2h bins"), "d2h") &&
                       scn_chk(&c, gcrt_device_synchronize(rt), "synchronize"));
            }
            if (c.e == GCRT_SUCCESS && res->fpu)
                float_round(&c, rt, img, st[0], st[1], r, shapes[(r + 4) % NSHAPES], out, res);
            if (c.e == GCRT_SUCCESS) {
                res->kernels += 4;
                bool good = scn_chk(&c, gcrt_read(rt, vc.host, got, bytes), "read");
                for (uint32_t i = 0; good && i < n; i++) good = got[i] == a[i] + b[i];
                kcheck(res, out, good, "vecadd", r);
                good = scn_chk(&c, gcrt_read(rt, sy.host, got, bytes), "read");
                for (uint32_t i = 0; good && i < n; i++) good = got[i] == (uint32_t)alpha * x[i] + y[i];
                kcheck(res, out, good, "saxpy", r);
                uint32_t sums[8] = {0}, want = 0, parts = 0;
                good = rparts <= 8 && scn_chk(&c, gcrt_read(rt, rout.host, sums, 4 * rparts), "read");
                for (uint32_t i = 0; i < n; i++) want += rv[i];
                for (uint32_t i = 0; i + 1 < rparts; i++) parts += sums[i];
                kcheck(res, out, good && parts == want && sums[rparts - 1] == want, "reduce", r);
                uint32_t hw_[NBINS_MAX + 2] = {0}, bins[NBINS_MAX] = {0}, mx = 0;
                good = scn_chk(&c, gcrt_read(rt, hout.host, hw_, 4 * hwords), "read");
                for (uint32_t i = 0; i < n; i++) {
                    bins[hv[i] % nbins]++;
                    if (hv[i] > mx) mx = hv[i];
                }
                good = good && hw_[0] == mx && hw_[1] == n;
                for (uint32_t i = 0; good && i < nbins; i++) good = hw_[2 + i] == bins[i];
                kcheck(res, out, good, mode ? "histogram (shared memory)" : "histogram (global atomics)", r);
                if (out)
                    fprintf(out, "round %u: n %u: vecadd %u x %u, saxpy %u x %u (alpha %d), reduce %u x %u, histogram "
                                 "%u x %u (%u bins, mode %u)\n",
                            r, n, sv[0], sv[1], ss[0], ss[1], alpha, sr[0], sr[1], sh[0], sh[1], nbins, mode);
            }
            for (size_t i = 0; i < nlist; i++) scn_chk(&c, gcrt_free(rt, list[i]), "free");
        }
        const gcrt_tmu_record_t *lg;
        size_t nlg;
        if (c.e == GCRT_SUCCESS && scn_log_harvest(&c, res, &lg, &nlg)) {
            const gcrt_op_t *ops;
            size_t nops = 0;
            uint32_t done_kernels = 0;
            if (scn_chk(&c, gcrt_ops(rt, &ops, &nops), "ops"))
                for (size_t i = 0; i < nops; i++) done_kernels += ops[i].kind == GCRT_OP_KERNEL && ops[i].done;
            res->total_ops = nops;
            kcheck(res, out, done_kernels == res->kernels, "the completed kernel count", rounds);
            scn_print_ops(out, res);
            if (out && nops > res->nops) fprintf(out, "(the first %zu of %zu ops)\n", res->nops, nops);
            if (out)
                fprintf(out, "summary: kernels %s: %u kernels in %u round%s, %zu ops, %u of %u results match the "
                             "host, %llu cycles%s\n",
                        res->bad_checks == 0 ? "PASSED" : "FAILED", res->kernels, rounds, rounds == 1 ? "" : "s", nops,
                        res->checks - res->bad_checks, res->checks, (unsigned long long)res->cycles,
                        res->float_skipped ? " (float kernels SKIPPED: no FPU)" : "");
        }
        scn_finish(&c, timeline);
    }
    if (img) gcrt_unload_image(rt, img);
    gcrt_close(rt);
    return c.e;
}
