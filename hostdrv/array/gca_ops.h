/* gca_ops.h: the elementwise semantics of the array layer's ops, ONE source for both sides: the
 * host's reference results (hostdrv/array/array.c) and every generated SIMT kernel (which
 * #includes this file) call these functions, so a fused result equals the host's bit for bit
 * wherever both sides round correctly (+ - * / sqrt, comparisons, min / max, integer ops;
 * expf / logf / sinf / cosf / tanhf / powf come from glibc on the host and picolibc on the device
 * and may differ by an ulp: reference mode's scale covers them).  C99, no state, no globals. */
#ifndef GCA_OPS_H
#define GCA_OPS_H

#include <math.h>
#include <stdint.h>

static inline float gca_asf(uint32_t u) {
    union { uint32_t u; float f; } x;
    x.u = u;
    return x.f;
}
static inline uint32_t gca_asu(float f) {
    union { uint32_t u; float f; } x;
    x.f = f;
    return x.u;
}

/* f32 */
static inline float gca_add_f(float a, float b) { return a + b; }
static inline float gca_sub_f(float a, float b) { return a - b; }
static inline float gca_mul_f(float a, float b) { return a * b; }
static inline float gca_div_f(float a, float b) { return a / b; }
static inline float gca_min_f(float a, float b) { return b < a ? b : a; }
static inline float gca_max_f(float a, float b) { return a < b ? b : a; }
static inline float gca_pow_f(float a, float b) { return powf(a, b); }
static inline float gca_neg_f(float a) { return -a; }
static inline float gca_abs_f(float a) { return __builtin_fabsf(a); }
static inline float gca_sqrt_f(float a) { return __builtin_sqrtf(a); }
static inline float gca_rsqrt_f(float a) { return 1.0f / __builtin_sqrtf(a); }
static inline float gca_exp_f(float a) { return expf(a); }
static inline float gca_log_f(float a) { return logf(a); }
static inline float gca_sin_f(float a) { return sinf(a); }
static inline float gca_cos_f(float a) { return cosf(a); }
static inline float gca_tanh_f(float a) { return tanhf(a); }
static inline float gca_floor_f(float a) { return floorf(a); }
static inline float gca_ceil_f(float a) { return ceilf(a); }
static inline int32_t gca_isnan_f(float a) { return a != a; }
static inline float gca_select_f(int32_t c, float a, float b) { return c ? a : b; }

/* comparisons (f32 and i32 operands): 1 or 0 */
#define GCA_CMP(name, op)                                                                   \
    static inline int32_t gca_##name##_f(float a, float b) { return a op b; }             \
    static inline int32_t gca_##name##_i(int32_t a, int32_t b) { return a op b; }
GCA_CMP(lt, <)
GCA_CMP(le, <=)
GCA_CMP(gt, >)
GCA_CMP(ge, >=)
GCA_CMP(eq, ==)
GCA_CMP(ne, !=)
#undef GCA_CMP

/* i32: wrapping, division as RISC-V DIV (x / 0 = -1, INT32_MIN / -1 = INT32_MIN) */
static inline int32_t gca_add_i(int32_t a, int32_t b) { return (int32_t)((uint32_t)a + (uint32_t)b); }
static inline int32_t gca_sub_i(int32_t a, int32_t b) { return (int32_t)((uint32_t)a - (uint32_t)b); }
static inline int32_t gca_mul_i(int32_t a, int32_t b) { return (int32_t)((uint32_t)a * (uint32_t)b); }
static inline int32_t gca_div_i(int32_t a, int32_t b) {
    return b == 0 ? -1 : (a == INT32_MIN && b == -1) ? INT32_MIN : a / b;
}
static inline int32_t gca_min_i(int32_t a, int32_t b) { return b < a ? b : a; }
static inline int32_t gca_max_i(int32_t a, int32_t b) { return a < b ? b : a; }
static inline int32_t gca_neg_i(int32_t a) { return (int32_t)(0u - (uint32_t)a); }
static inline int32_t gca_abs_i(int32_t a) { return a < 0 ? gca_neg_i(a) : a; }
static inline int32_t gca_select_i(int32_t c, int32_t a, int32_t b) { return c ? a : b; }

/* reductions' combining steps (any / all on i32: nonzero is true) */
static inline int32_t gca_any_i(int32_t acc, int32_t v) { return acc | (v != 0); }
static inline int32_t gca_all_i(int32_t acc, int32_t v) { return acc & (v != 0); }

/* generator: uniform f32 in [0, 1) from a counter hash of (seed, element) */
static inline float gca_random_f(uint32_t seed, uint32_t i) {
    uint32_t h = i * 0x9E3779B9u ^ seed;
    h ^= h >> 16;
    h *= 0x7feb352du;
    h ^= h >> 15;
    h *= 0x846ca68bu;
    h ^= h >> 16;
    return (float)(h >> 8) * 0x1p-24f;
}

#endif
