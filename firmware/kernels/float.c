/* Single-precision kernels (RV32F): float saxpy, a float dot product reduced through shared
 * memory, and the picolibc math functions.  Built for rv32imaf / ilp32f into kernels.elf and, for
 * the soft-float comparison of `make bench`, for rv32ima / ilp32 (libgcc's soft float) into
 * kernels_soft.elf.  Both builds use -ffp-contract=off, so a * b + c is two roundings, as the
 * host's check computes it. */
#include <math.h>

#include "gc_device.h"
#include "gc_kernels.h"

static inline float f_of(uint32_t u) {
    union { uint32_t u; float f; } v = {.u = u};
    return v.f;
}

/* y[i] = alpha * x[i] + y[i] */
GC_KERNEL(fsaxpy) {
    const gc_fsaxpy_params_t *p = gc_param;
    const float *x = (const float *)(uintptr_t)p->x;
    float *y = (float *)(uintptr_t)p->y;
    float alpha = f_of(p->alpha);
    for (uint32_t i = gc_global_id_x(); i < p->n; i += gc_threads_x()) y[i] = alpha * x[i] + y[i];
}

/* out[cta] = the CTA's part of sum x[i] * y[i]: per thread in grid-stride order, then a tree
 * in shared memory (gc_fdot_elem documents the order) */
GC_KERNEL(fdot) {
    const gc_fdot_params_t *p = gc_param;
    const float *x = (const float *)(uintptr_t)p->x, *y = (const float *)(uintptr_t)p->y;
    volatile float *sh = gc_shared();
    uint32_t t = gc_tid(), nt = gc_ntid();
    float sum = 0.0f;
    for (uint32_t i = gc_global_id_x(); i < p->n; i += gc_threads_x()) sum = sum + x[i] * y[i];
    sh[t] = sum;
    gc_barrier();
    uint32_t half = 1;
    while (half < nt) half <<= 1;
    for (half >>= 1; half > 0; half >>= 1) {
        if (t < half && t + half < nt) sh[t] = sh[t] + sh[t + half];
        gc_barrier();
    }
    if (t == 0) ((float *)(uintptr_t)p->out)[gc_ctaid_x()] = sh[0];
}

/* out[GC_FMATH_FUNCS * i + k]: expf(a), logf(b), sqrtf(b), sinf(a), powf(b, a) for a = in[2i],
 * b = in[2i + 1] */
GC_KERNEL(fmath) {
    const gc_fmath_params_t *p = gc_param;
    const float *in = (const float *)(uintptr_t)p->in;
    float *out = (float *)(uintptr_t)p->out;
    for (uint32_t i = gc_global_id_x(); i < p->n; i += gc_threads_x()) {
        float a = in[2 * i], b = in[2 * i + 1];
        float *o = out + GC_FMATH_FUNCS * i;
        o[0] = expf(a);
        o[1] = logf(b);
        o[2] = sqrtf(b);
        o[3] = sinf(a);
        o[4] = powf(b, a);
    }
}

/* Runs generated code (tests/cosim/test_diff.c's random F programs): thread g of the grid calls
 * code(in + GC_FPPROG_IN * g, out + GC_FPPROG_OUT * g) */
GC_KERNEL(fp_prog) {
    const gc_fp_prog_params_t *p = gc_param;
    uint32_t g = gc_global_id_x();
    void (*code)(const uint32_t *, uint32_t *) = (void (*)(const uint32_t *, uint32_t *))(uintptr_t)p->code;
    code((const uint32_t *)(uintptr_t)p->in + GC_FPPROG_IN * g, (uint32_t *)(uintptr_t)p->out + GC_FPPROG_OUT * g);
}
