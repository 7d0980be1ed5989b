#!/usr/bin/env python3
"""Generate single-precision (RV32F) test vectors with Berkeley SoftFloat (softfloatpy).

One vector per line, every field hex except the operation name:

    OP RM A B C RESULT FLAGS

OP is an instruction name of spec simt.fp (FADD, FMADD, FCVT_W_S, ...), RM the static rounding
mode (0..4, spec simt.fp.rm; the operations that do not round get 0), A B C the operands (C only
for the FMA family, B and C 0 where unused; integer operands of FCVT.S.W[U] / FMV.W.X in A),
RESULT the expected result bits (x[rd] or f[rd]), FLAGS the expected fflags (spec simt.fp.fflags).
Expected values follow the RISC-V F extension: SoftFloat with tininess after rounding, every NaN
result replaced by the canonical NaN, FCVT.W[U].S saturating (NaN gives the largest value), and
FMIN / FMAX / FSGNJ* / FCLASS / FEQ / FLT / FLE / FMV computed here from their definitions.

Deterministic (--seed).  Operands mix special values (zeros, infinities, quiet and signalling
NaNs, the smallest and largest subnormals and normals, values either side of a binade and of the
integer conversion limits), random encodings over the whole exponent range, operands that cancel
(a - b with b close to a; a x b + c with c close to -(a x b)) and products near the subnormal
range (underflow and tininess).
"""
import argparse
import os
import random
import struct
import sys

try:
    import softfloatpy as sf
except ImportError:
    sys.exit("gen_fp_vectors: the Python package softfloatpy is missing: run 'make setup' (requirements.txt)")

CNAN = 0x7FC00000
RMODES = [sf.RoundingMode.NEAR_EVEN, sf.RoundingMode.MIN_MAG, sf.RoundingMode.MIN,
          sf.RoundingMode.MAX, sf.RoundingMode.NEAR_MAX_MAG]        # rm 0..4 (RNE RTZ RDN RUP RMM)
# SoftFloat flag bits -> fflags bits (NX 0, UF 1, OF 2, DZ 3, NV 4): the same values
SF_FLAGS = {sf.ExceptionFlag.INEXACT: 1, sf.ExceptionFlag.UNDERFLOW: 2, sf.ExceptionFlag.OVERFLOW: 4,
            sf.ExceptionFlag.INFINITE: 8, sf.ExceptionFlag.INVALID: 16}

ROUNDED = ["FADD", "FSUB", "FMUL", "FDIV", "FSQRT", "FMADD", "FMSUB", "FNMSUB", "FNMADD",
           "FCVT_W_S", "FCVT_WU_S", "FCVT_S_W", "FCVT_S_WU"]
EXACT = ["FSGNJ", "FSGNJN", "FSGNJX", "FMIN", "FMAX", "FEQ", "FLT", "FLE", "FCLASS", "FMV_X_W", "FMV_W_X"]
OPS = ROUNDED + EXACT

SPECIAL = [0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, 0x7FC00001,
           0x7F800001, 0xFF800001, 0x7FBFFFFF, 0x7FA00000,           # quiet / signalling NaNs
           0x00000001, 0x80000001, 0x007FFFFF, 0x807FFFFF, 0x00400000, 0x00000002,  # subnormals
           0x00800000, 0x80800000, 0x00800001, 0x00FFFFFF, 0x7F7FFFFF, 0xFF7FFFFF,  # normals
           0x3F800000, 0xBF800000, 0x3F7FFFFF, 0x3F800001, 0x40000000, 0x3FFFFFFF, 0x4B7FFFFF,
           0x4B800000, 0x4F000000, 0xCF000000, 0x4EFFFFFF, 0xCF000001, 0x4F800000, 0x4F7FFFFF,
           0x3F000000, 0xBF000000, 0x3FC00000, 0xBFC00000, 0x3EFFFFFF, 0x34000000, 0x33FFFFFF]
INT_SPECIAL = [0, 1, 0xFFFFFFFF, 0x7FFFFFFF, 0x80000000, 0x80000001, 0x00FFFFFF, 0x01000000,
               0x01000001, 0x01000003, 0xFFFFFF7F, 0x7FFFFFC0, 0x7FFFFF80, 0xFFFFFF80]


def f32(bits):
    return sf.Float32.from_bytes(struct.pack(">I", bits))


def bits_of(x):
    return struct.unpack(">I", x.to_bytes())[0]


def is_nan(b):
    return (b & 0x7F800000) == 0x7F800000 and (b & 0x007FFFFF) != 0


def is_snan(b):
    return is_nan(b) and not (b & 0x00400000)


def flags_now():
    v = int(sf.get_exception_flags())
    return sum(bit for f, bit in SF_FLAGS.items() if v & int(f))


def rand_float(rng):
    k = rng.random()
    if k < 0.15:
        return rng.choice(SPECIAL) ^ (rng.getrandbits(1) << 31 if rng.random() < 0.3 else 0)
    if k < 0.30:                                                  # subnormal or near the bottom
        e = rng.choice([0, 0, 1, 2])
        return (rng.getrandbits(1) << 31) | (e << 23) | rng.getrandbits(23)
    if k < 0.45:                                                  # few mantissa bits / all ones
        m = rng.choice([0, 0x7FFFFF, 1 << rng.randrange(23), (1 << 23) - (1 << rng.randrange(23))])
        return (rng.getrandbits(1) << 31) | (rng.randrange(1, 255) << 23) | m
    if k < 0.70:                                                  # moderate exponents
        return (rng.getrandbits(1) << 31) | (rng.randrange(100, 156) << 23) | rng.getrandbits(23)
    return rng.getrandbits(32)


def near(rng, b):
    """b's neighbour (a few ULPs away, maybe with the other sign): cancellation."""
    d = rng.choice([0, 1, -1, 2, -2, rng.randrange(-64, 64), rng.getrandbits(12)])
    v = (b & 0x7FFFFFFF) + d
    v = min(max(v, 0), 0x7F7FFFFF)
    return v | ((b ^ (rng.getrandbits(1) << 31)) & 0x80000000)


def exp_pair_tiny(rng, div):
    """Two operands whose product (div: quotient) lies around the subnormal range."""
    if div:
        ea = rng.randrange(1, 100)
        eb = min(254, ea + 126 + rng.randrange(-3, 26))
    else:
        ea = rng.randrange(1, 254)
        eb = max(1, min(254, 128 - ea + rng.randrange(-26, 4)))
    a = (rng.getrandbits(1) << 31) | (ea << 23) | rng.getrandbits(23)
    b = (rng.getrandbits(1) << 31) | (eb << 23) | rng.getrandbits(23)
    return a, b


def f64_of(bits):
    return struct.unpack(">f", struct.pack(">I", bits))[0]


def product_error(rng):
    """(a, b, c): c is the rounding error of a x b (exactly representable), one ULP off, so its
    lowest bit lies below the product's LSB: a x b + c is a tie or a grid point give or take a
    bit that only a correct sticky bit keeps (FMA's hardest alignment case)."""
    while True:
        a = (rng.getrandbits(1) << 31) | (rng.randrange(90, 160) << 23) | rng.getrandbits(23)
        b = (rng.getrandbits(1) << 31) | (rng.randrange(90, 160) << 23) | rng.getrandbits(23)
        sf.set_rounding_mode(sf.RoundingMode.NEAR_EVEN)
        p = f64_of(a) * f64_of(b)                                 # exact: 48 bits
        err = p - f64_of(bits_of(sf.f32_mul(f32(a), f32(b))))     # exact, and a binary32 value
        if err != 0:
            c = struct.unpack(">I", struct.pack(">f", -err if rng.random() < 0.5 else err))[0]
            c = c + rng.choice([1, -1, 2]) if (c & 0x7FFFFF) > 2 else c + 1
            return a, b, c


def operands(rng, op):
    a, b, c = rand_float(rng), rand_float(rng), rand_float(rng)
    k = rng.random()
    if op in ("FADD", "FSUB", "FMIN", "FMAX", "FEQ", "FLT", "FLE") and k < 0.35:
        b = near(rng, a) if rng.random() < 0.7 else a
    if op in ("FMUL", "FDIV", "FMADD", "FMSUB", "FNMSUB", "FNMADD") and 0.35 <= k < 0.6:
        a, b = exp_pair_tiny(rng, op == "FDIV")
    if op in ("FMADD", "FMSUB", "FNMSUB", "FNMADD") and k < 0.35:
        sf.set_rounding_mode(sf.RoundingMode.NEAR_EVEN)
        p = bits_of(sf.f32_mul(f32(a), f32(b)))
        c = near(rng, p) if not is_nan(p) else c
        if op in ("FMADD", "FNMADD"):
            c ^= 0x80000000 if rng.random() < 0.8 else 0
    if op in ("FMADD", "FMSUB", "FNMSUB", "FNMADD") and 0.6 <= k < 0.75:
        a, b, c = product_error(rng)
    if op in ("FCVT_W_S", "FCVT_WU_S") and k < 0.7:
        e = rng.randrange(118, 160)
        a = (rng.getrandbits(1) << 31) | (e << 23) | (rng.getrandbits(23) if rng.random() < 0.6 else
                                                      rng.choice([0, 0x400000, 0x7FFFFF, 0x200000]))
    if op == "FSQRT" and rng.random() < 0.8:
        a &= 0x7FFFFFFF
    if op in ("FCVT_S_W", "FCVT_S_WU", "FMV_W_X"):
        a = rng.choice(INT_SPECIAL) if k < 0.15 else rng.getrandbits(rng.choice([32, 32, 31, 25, 24, 12, 5]))
        if rng.random() < 0.3:
            a = (-a) & 0xFFFFFFFF
    return a, b, c


def fp_class(x):
    s = x >> 31
    e = (x >> 23) & 0xFF
    m = x & 0x7FFFFF
    if e == 0xFF:
        return 1 << (8 if (m and not (m & 0x400000)) else 9) if m else 1 << (0 if s else 7)
    if e == 0:
        return 1 << ((3 if s else 4) if m == 0 else (2 if s else 5))
    return 1 << (1 if s else 6)


def lt_total(a, b):
    if (a ^ b) & 0x80000000:
        return bool(a & 0x80000000)
    return (a & 0x7FFFFFFF) > (b & 0x7FFFFFFF) if a & 0x80000000 else (a & 0x7FFFFFFF) < (b & 0x7FFFFFFF)


def expect(op, rm, a, b, c):
    """(result, flags) of one vector, RISC-V semantics."""
    if op in EXACT:
        both_zero = (a & 0x7FFFFFFF) == 0 and (b & 0x7FFFFFFF) == 0
        if op == "FSGNJ":
            return (a & 0x7FFFFFFF) | (b & 0x80000000), 0
        if op == "FSGNJN":
            return (a & 0x7FFFFFFF) | (~b & 0x80000000), 0
        if op == "FSGNJX":
            return a ^ (b & 0x80000000), 0
        if op in ("FMIN", "FMAX"):
            fl = 16 if is_snan(a) or is_snan(b) else 0
            if is_nan(a) and is_nan(b):
                return CNAN, fl
            if is_nan(a):
                return b, fl
            if is_nan(b):
                return a, fl
            lt = lt_total(a, b)
            return (a if lt else b) if op == "FMIN" else (b if lt else a), fl
        if op == "FEQ":
            fl = 16 if is_snan(a) or is_snan(b) else 0
            return int(not is_nan(a) and not is_nan(b) and (a == b or both_zero)), fl
        if op in ("FLT", "FLE"):
            if is_nan(a) or is_nan(b):
                return 0, 16
            if op == "FLT":
                return int(lt_total(a, b) and not both_zero), 0
            return int(lt_total(a, b) or a == b or both_zero), 0
        if op == "FCLASS":
            return fp_class(a), 0
        return a, 0                                               # FMV_X_W, FMV_W_X
    sf.set_rounding_mode(RMODES[rm])
    sf.set_exception_flags(0)
    if op == "FCVT_S_W":
        return bits_of(sf.i32_to_f32(sf.Int32.from_int(a - (1 << 32) if a >> 31 else a))), flags_now()
    if op == "FCVT_S_WU":
        return bits_of(sf.ui32_to_f32(sf.UInt32.from_int(a))), flags_now()
    if op in ("FCVT_W_S", "FCVT_WU_S"):
        uns = op == "FCVT_WU_S"
        r = (sf.f32_to_ui32 if uns else sf.f32_to_i32)(f32(a), RMODES[rm], True).to_int() & 0xFFFFFFFF
        fl = flags_now()
        if fl & 16:                                               # RISC-V saturation
            if is_nan(a) or not (a >> 31):
                r = 0xFFFFFFFF if uns else 0x7FFFFFFF
            else:
                r = 0 if uns else 0x80000000
        return r, fl
    fa, fb, fc = f32(a), f32(b), f32(c)
    neg = lambda x: f32(bits_of(x) ^ 0x80000000)                  # noqa: E731 (exact negation)
    if op == "FADD":
        r = sf.f32_add(fa, fb)
    elif op == "FSUB":
        r = sf.f32_sub(fa, fb)
    elif op == "FMUL":
        r = sf.f32_mul(fa, fb)
    elif op == "FDIV":
        r = sf.f32_div(fa, fb)
    elif op == "FSQRT":
        r = sf.f32_sqrt(fa)
    elif op == "FMADD":
        r = sf.f32_mul_add(fa, fb, fc)
    elif op == "FMSUB":
        r = sf.f32_mul_add(fa, fb, neg(fc))
    elif op == "FNMSUB":
        r = sf.f32_mul_add(neg(fa), fb, fc)
    else:                                                         # FNMADD
        r = sf.f32_mul_add(neg(fa), fb, neg(fc))
    rb = bits_of(r)
    return (CNAN if is_nan(rb) else rb), flags_now()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True, help="the vector file to write")
    ap.add_argument("--per-op", type=int, default=10000, help="vectors per operation (default: %(default)s)")
    ap.add_argument("--seed", type=int, default=15, help="random seed (default: %(default)s)")
    ap.add_argument("--ops", default=",".join(OPS), help="comma-separated operations (default: all)")
    args = ap.parse_args()
    ops = [o for o in args.ops.split(",") if o]
    bad = [o for o in ops if o not in OPS]
    if bad:
        print(f"gen_fp_vectors: unknown operation(s) {', '.join(bad)} (known: {', '.join(OPS)})", file=sys.stderr)
        return 2
    if args.per_op < 1:
        print(f"gen_fp_vectors: --per-op {args.per_op} must be at least 1", file=sys.stderr)
        return 2
    sf.set_tininess_mode(sf.TininessMode.AFTER_ROUNDING)
    rng = random.Random(args.seed)
    lines = []
    for op in ops:
        for i in range(args.per_op):
            rm = i % 5 if op in ROUNDED else 0
            a, b, c = operands(rng, op)
            if op == "FSQRT" or op in ("FCLASS", "FMV_X_W", "FMV_W_X") or op.startswith("FCVT"):
                b = 0
            if op not in ("FMADD", "FMSUB", "FNMSUB", "FNMADD"):
                c = 0
            r, fl = expect(op, rm, a, b, c)
            lines.append(f"{op} {rm:x} {a:08x} {b:08x} {c:08x} {r:08x} {fl:02x}\n")
    tmp = args.out + ".tmp"
    with open(tmp, "w") as fh:
        fh.writelines(lines)
    os.replace(tmp, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
