/* ref_fp.c: binary32 arithmetic for the ref model's RV32F (see ref_fp.h).
 *
 * A finite nonzero operand is unpacked to sig * 2^exp with an integer significand.  Each operation
 * forms its exact result, or one whose lost low bits are folded into a sticky bit 0 far below the
 * rounding position, as a 64-bit significand and an exponent, and round_pack() rounds that once
 * to binary32: overflow, subnormals, the underflow flag (tiny after rounding and inexact) and
 * the five rounding modes are handled there only.
 */
#include "ref_fp.h"

#define SIGN(x) ((x) >> 31)
#define EXPF(x) (((x) >> 23) & 0xFFu)
#define FRAC(x) ((x) & 0x7FFFFFu)
#define INF 0x7F800000u
#define MAXF 0x7F7FFFFFu

static bool is_nan(uint32_t x) { return EXPF(x) == 0xFFu && FRAC(x) != 0; }
static bool is_snan(uint32_t x) { return is_nan(x) && !(x & 0x400000u); }
static bool is_inf(uint32_t x) { return (x & 0x7FFFFFFFu) == INF; }
static bool is_zero(uint32_t x) { return (x & 0x7FFFFFFFu) == 0; }

static int clz64(uint64_t v) {
    int n = 0;
    while (!(v & (1ull << 63))) v <<= 1, n++;
    return n;
}

/* A finite nonzero x = sig * 2^exp. */
static void unpack(uint32_t x, uint32_t *sig, int32_t *exp) {
    uint32_t e = EXPF(x);
    *sig = e ? FRAC(x) | 0x800000u : FRAC(x);
    *exp = e ? (int32_t)e - 150 : -149;
}

/* sig >> shift (shift >= 1) and how the dropped part compares with half an LSB: *rem_cmp is
 * -1 below, 0 exactly half, 1 above; *inexact when anything was dropped. */
static uint64_t shift_round_bits(uint64_t sig, int32_t shift, int *rem_cmp, bool *inexact) {
    uint64_t kept, rem, half;
    if (shift > 64) {
        kept = 0;
        rem = sig ? 1u : 0u;
        half = 1ull << 63;
    } else if (shift == 64) {
        kept = 0;
        rem = sig;
        half = 1ull << 63;
    } else {
        kept = sig >> shift;
        rem = sig & ((1ull << shift) - 1u);
        half = 1ull << (shift - 1);
    }
    *rem_cmp = rem < half ? -1 : rem == half ? 0 : 1;
    *inexact = rem != 0;
    return kept;
}

static bool round_up(int rem_cmp, bool inexact, uint64_t kept, uint32_t sign, unsigned rm) {
    switch (rm) {
    case GC_FP_RM_RNE: return rem_cmp > 0 || (rem_cmp == 0 && (kept & 1u));
    case GC_FP_RM_RTZ: return false;
    case GC_FP_RM_RDN: return inexact && sign;
    case GC_FP_RM_RUP: return inexact && !sign;
    default: return rem_cmp >= 0; /* RMM */
    }
}

/* Round (-1)^sign * sig * 2^exp (sig != 0) to binary32. */
static uint32_t round_pack(uint32_t sign, int32_t exp, uint64_t sig, unsigned rm, unsigned *fl) {
    int32_t n = 63 - clz64(sig);                 /* the leading one's bit */
    int32_t e_top = exp + n;                     /* value in [2^e_top, 2^(e_top + 1)) */
    int32_t lsb = e_top - 23 > -149 ? e_top - 23 : -149; /* weight of the result's LSB */
    int32_t shift = lsb - exp;
    uint64_t kept;
    bool inexact = false;
    if (shift <= 0) {
        kept = sig << -shift;                    /* exact; at most 24 bits */
    } else {
        int cmp;
        kept = shift_round_bits(sig, shift, &cmp, &inexact);
        if (round_up(cmp, inexact, kept, sign, rm)) kept++;
        /* tiny after rounding: below 2^-126 once rounded to 24 bits with an unbounded exponent */
        if (inexact && e_top < -126) {
            bool tiny = true;
            if (e_top == -127 && n > 23) {
                int c24;
                bool x24;
                uint64_t k24 = shift_round_bits(sig, n - 23, &c24, &x24);
                if (round_up(c24, x24, k24, sign, rm) && k24 + 1u == (1ull << 24)) tiny = false;
            }
            if (tiny) *fl |= GC_FP_FLAG_UF;
        }
    }
    if (inexact) *fl |= GC_FP_FLAG_NX;
    int64_t bits = ((int64_t)(lsb + 149) << 23) + (int64_t)kept; /* the carry of kept moves the exponent */
    if (bits >= (int64_t)INF) {
        *fl |= GC_FP_FLAG_OF | GC_FP_FLAG_NX;
        bool to_inf = rm == GC_FP_RM_RNE || rm == GC_FP_RM_RMM || (rm == GC_FP_RM_RDN && sign) || (rm == GC_FP_RM_RUP && !sign);
        return (sign << 31) | (to_inf ? INF : MAXF);
    }
    return (sign << 31) | (uint32_t)bits;
}

/* Exact zero result of x - x: +0, or -0 rounding down. */
static uint32_t zero_sum(uint32_t sa, uint32_t sb, unsigned rm) {
    if (sa == sb) return sa << 31;
    return rm == GC_FP_RM_RDN ? 0x80000000u : 0u;
}

/* (-1)^sa * ma * 2^ea + (-1)^sb * mb * 2^eb; ma, mb nonzero with their leading one at bit 61. */
static uint32_t add_aligned(uint32_t sa, int32_t ea, uint64_t ma, uint32_t sb, int32_t eb, uint64_t mb, unsigned rm,
                            unsigned *fl) {
    if (eb > ea || (eb == ea && mb > ma)) { /* make a the larger magnitude */
        uint32_t ts = sa; sa = sb; sb = ts;
        int32_t te = ea; ea = eb; eb = te;
        uint64_t tm = ma; ma = mb; mb = tm;
    }
    int32_t d = ea - eb;
    if (d >= 63) mb = 1;                     /* sticky only */
    else if (d > 0) mb = (mb >> d) | ((mb & ((1ull << d) - 1u)) != 0);
    uint64_t m = sa == sb ? ma + mb : ma - mb;
    if (!m) return zero_sum(sa, sb, rm);
    return round_pack(sa, ea, m, rm, fl);
}

/* Leading one of m (nonzero) to bit 61; adjusts *e so that the value stays. */
static uint64_t norm61(uint64_t m, int32_t *e) {
    int32_t s = clz64(m) - 2;
    *e -= s;
    return m << s;
}

static uint32_t nan_result(uint32_t a, uint32_t b, uint32_t c, unsigned *fl) {
    if (is_snan(a) || is_snan(b) || is_snan(c)) *fl |= GC_FP_FLAG_NV;
    return GC_FP_CANONICAL_NAN;
}

static uint32_t invalid(unsigned *fl) {
    *fl |= GC_FP_FLAG_NV;
    return GC_FP_CANONICAL_NAN;
}

uint32_t rf_add(uint32_t a, uint32_t b, unsigned rm, unsigned *fl) {
    if (is_nan(a) || is_nan(b)) return nan_result(a, b, 0, fl);
    if (is_inf(a) || is_inf(b)) {
        if (is_inf(a) && is_inf(b) && SIGN(a) != SIGN(b)) return invalid(fl);
        return is_inf(a) ? a : b;
    }
    if (is_zero(a) && is_zero(b)) return zero_sum(SIGN(a), SIGN(b), rm);
    if (is_zero(b)) return a;
    if (is_zero(a)) return b;
    uint32_t sa, sb;
    int32_t ea, eb;
    unpack(a, &sa, &ea);
    unpack(b, &sb, &eb);
    return add_aligned(SIGN(a), ea, norm61(sa, &ea), SIGN(b), eb, norm61(sb, &eb), rm, fl);
}

uint32_t rf_sub(uint32_t a, uint32_t b, unsigned rm, unsigned *fl) {
    /* a - b = a + (-b); the sign of a NaN b does not matter (the result is canonical) */
    return rf_add(a, b ^ 0x80000000u, rm, fl);
}

uint32_t rf_mul(uint32_t a, uint32_t b, unsigned rm, unsigned *fl) {
    if (is_nan(a) || is_nan(b)) return nan_result(a, b, 0, fl);
    uint32_t s = SIGN(a) ^ SIGN(b);
    if (is_inf(a) || is_inf(b)) {
        if (is_zero(a) || is_zero(b)) return invalid(fl);
        return (s << 31) | INF;
    }
    if (is_zero(a) || is_zero(b)) return s << 31;
    uint32_t sa, sb;
    int32_t ea, eb;
    unpack(a, &sa, &ea);
    unpack(b, &sb, &eb);
    return round_pack(s, ea + eb, (uint64_t)sa * sb, rm, fl);
}

uint32_t rf_fma(uint32_t a, uint32_t b, uint32_t c, bool neg_prod, bool neg_add, unsigned rm, unsigned *fl) {
    if (is_nan(a) || is_nan(b)) return nan_result(a, b, c, fl);
    if ((is_inf(a) && is_zero(b)) || (is_zero(a) && is_inf(b))) return invalid(fl); /* even with a qNaN c */
    if (is_nan(c)) return nan_result(a, b, c, fl);
    uint32_t sp = SIGN(a) ^ SIGN(b) ^ (uint32_t)neg_prod, sc = SIGN(c) ^ (uint32_t)neg_add;
    if (is_inf(a) || is_inf(b)) {
        if (is_inf(c) && sc != sp) return invalid(fl);
        return (sp << 31) | INF;
    }
    if (is_inf(c)) return (sc << 31) | INF;
    bool pz = is_zero(a) || is_zero(b);
    if (pz && is_zero(c)) return zero_sum(sp, sc, rm);
    if (pz) return (sc << 31) | (c & 0x7FFFFFFFu);
    uint32_t ma, mb;
    int32_t ea, eb;
    unpack(a, &ma, &ea);
    unpack(b, &mb, &eb);
    int32_t ep = ea + eb;
    uint64_t mp = norm61((uint64_t)ma * mb, &ep); /* exact: at most 48 bits */
    if (is_zero(c)) return round_pack(sp, ep, mp, rm, fl);
    uint32_t mc;
    int32_t ec;
    unpack(c, &mc, &ec);
    return add_aligned(sp, ep, mp, sc, ec, norm61(mc, &ec), rm, fl);
}

/* sig of a finite nonzero x with its leading one at bit 23 */
static uint32_t unpack_norm(uint32_t x, int32_t *exp) {
    uint32_t s;
    unpack(x, &s, exp);
    while (!(s & 0x800000u)) s <<= 1, (*exp)--;
    return s;
}

uint32_t rf_div(uint32_t a, uint32_t b, unsigned rm, unsigned *fl) {
    if (is_nan(a) || is_nan(b)) return nan_result(a, b, 0, fl);
    uint32_t s = SIGN(a) ^ SIGN(b);
    if (is_inf(a)) return is_inf(b) ? invalid(fl) : (s << 31) | INF;
    if (is_inf(b)) return s << 31;
    if (is_zero(b)) {
        if (is_zero(a)) return invalid(fl);
        *fl |= GC_FP_FLAG_DZ;
        return (s << 31) | INF;
    }
    if (is_zero(a)) return s << 31;
    int32_t ea, eb;
    uint64_t na = (uint64_t)unpack_norm(a, &ea) << 40;
    uint64_t db = unpack_norm(b, &eb);
    uint64_t q = na / db;                        /* 40 or 41 bits */
    if (na % db) q |= 1u;                        /* sticky */
    return round_pack(s, ea - eb - 40, q, rm, fl);
}

static uint64_t isqrt64(uint64_t v, bool *exact) {
    uint64_t r = 0, bit = 1ull << 62;
    uint64_t x = v;
    while (bit > x) bit >>= 2;
    while (bit) {
        if (x >= r + bit) {
            x -= r + bit;
            r = (r >> 1) + bit;
        } else {
            r >>= 1;
        }
        bit >>= 2;
    }
    *exact = x == 0;
    return r;
}

uint32_t rf_sqrt(uint32_t a, unsigned rm, unsigned *fl) {
    if (is_nan(a)) return nan_result(a, 0, 0, fl);
    if (is_zero(a)) return a;
    if (SIGN(a)) return invalid(fl);
    if (is_inf(a)) return a;
    int32_t e;
    uint64_t m = unpack_norm(a, &e);             /* value = m * 2^e, m in [2^23, 2^24) */
    if (e & 1) m <<= 1, e--;                     /* even exponent */
    m <<= 38;                                    /* at most 63 bits: the root has 31 or 32 */
    e -= 38;
    bool exact;
    uint64_t r = isqrt64(m, &exact);
    if (!exact) r |= 1u;                         /* the root is irrational: sticky */
    return round_pack(0, e / 2, r, rm, fl);
}

/* x rounded to an integer: magnitude (saturated at 2^40), *neg, *inexact */
static uint64_t round_int(uint32_t x, unsigned rm, bool *neg, bool *inexact) {
    *neg = SIGN(x) != 0;
    *inexact = false;
    if (is_zero(x)) return 0;
    uint32_t s;
    int32_t e;
    unpack(x, &s, &e);
    if (e >= 0) return e > 16 ? 1ull << 40 : (uint64_t)s << e;
    int cmp;
    uint64_t k = shift_round_bits(s, -e, &cmp, inexact);
    if (round_up(cmp, *inexact, k, SIGN(x), rm)) k++;
    return k;
}

int32_t rf_to_i32(uint32_t a, unsigned rm, unsigned *fl) {
    if (is_nan(a)) return *fl |= GC_FP_FLAG_NV, INT32_MAX;
    if (is_inf(a)) return *fl |= GC_FP_FLAG_NV, SIGN(a) ? INT32_MIN : INT32_MAX;
    bool neg, nx;
    uint64_t m = round_int(a, rm, &neg, &nx);
    if (neg ? m > 0x80000000ull : m > 0x7FFFFFFFull) return *fl |= GC_FP_FLAG_NV, neg ? INT32_MIN : INT32_MAX;
    if (nx) *fl |= GC_FP_FLAG_NX;
    return neg ? (int32_t)(0u - (uint32_t)m) : (int32_t)m;
}

uint32_t rf_to_u32(uint32_t a, unsigned rm, unsigned *fl) {
    if (is_nan(a)) return *fl |= GC_FP_FLAG_NV, UINT32_MAX;
    if (is_inf(a)) return *fl |= GC_FP_FLAG_NV, SIGN(a) ? 0u : UINT32_MAX;
    bool neg, nx;
    uint64_t m = round_int(a, rm, &neg, &nx);
    if (neg && m) return *fl |= GC_FP_FLAG_NV, 0u;
    if (m > 0xFFFFFFFFull) return *fl |= GC_FP_FLAG_NV, UINT32_MAX;
    if (nx) *fl |= GC_FP_FLAG_NX;
    return (uint32_t)m;
}

uint32_t rf_from_u32(uint32_t v, unsigned rm, unsigned *fl) { return v ? round_pack(0, 0, v, rm, fl) : 0u; }

uint32_t rf_from_i32(int32_t v, unsigned rm, unsigned *fl) {
    if (!v) return 0;
    uint32_t mag = v < 0 ? 0u - (uint32_t)v : (uint32_t)v;
    return round_pack(v < 0, 0, mag, rm, fl);
}

/* Total order of the non-NaN values with -0 < +0, as an unsigned key. */
static uint32_t order_key(uint32_t x) { return SIGN(x) ? ~x : x | 0x80000000u; }

static uint32_t minmax(uint32_t a, uint32_t b, bool max, unsigned *fl) {
    if (is_snan(a) || is_snan(b)) *fl |= GC_FP_FLAG_NV;
    if (is_nan(a) && is_nan(b)) return GC_FP_CANONICAL_NAN;
    if (is_nan(a)) return b;
    if (is_nan(b)) return a;
    bool a_lt = order_key(a) < order_key(b);
    return a_lt != max ? a : b;
}

uint32_t rf_min(uint32_t a, uint32_t b, unsigned *fl) { return minmax(a, b, false, fl); }
uint32_t rf_max(uint32_t a, uint32_t b, unsigned *fl) { return minmax(a, b, true, fl); }

bool rf_eq(uint32_t a, uint32_t b, unsigned *fl) {
    if (is_nan(a) || is_nan(b)) {
        if (is_snan(a) || is_snan(b)) *fl |= GC_FP_FLAG_NV;
        return false;
    }
    return a == b || (is_zero(a) && is_zero(b));
}

/* a < b (or <=) for non-NaN values, +0 == -0 */
static bool ordered_lt(uint32_t a, uint32_t b, bool or_eq) {
    if (is_zero(a) && is_zero(b)) return or_eq;
    return or_eq ? order_key(a) <= order_key(b) : order_key(a) < order_key(b);
}

bool rf_lt(uint32_t a, uint32_t b, unsigned *fl) {
    if (is_nan(a) || is_nan(b)) return *fl |= GC_FP_FLAG_NV, false;
    return ordered_lt(a, b, false);
}

bool rf_le(uint32_t a, uint32_t b, unsigned *fl) {
    if (is_nan(a) || is_nan(b)) return *fl |= GC_FP_FLAG_NV, false;
    return ordered_lt(a, b, true);
}

uint32_t rf_class(uint32_t a) {
    uint32_t s = SIGN(a);
    if (is_nan(a)) return is_snan(a) ? GC_FP_CLASS_SNAN : GC_FP_CLASS_QNAN;
    if (is_inf(a)) return s ? GC_FP_CLASS_NEG_INF : GC_FP_CLASS_POS_INF;
    if (is_zero(a)) return s ? GC_FP_CLASS_NEG_ZERO : GC_FP_CLASS_POS_ZERO;
    if (EXPF(a) == 0) return s ? GC_FP_CLASS_NEG_SUBNORMAL : GC_FP_CLASS_POS_SUBNORMAL;
    return s ? GC_FP_CLASS_NEG_NORMAL : GC_FP_CLASS_POS_NORMAL;
}
