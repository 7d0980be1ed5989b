#!/usr/bin/env python3
"""RV32F test vectors from Berkeley SoftFloat (the softfloatpy binding, pinned in requirements.txt).

Writes one vector per line, fields separated by one space, all numbers hexadecimal without 0x:

    op rm a b c result flags

  op      the RISC-V mnemonic without ".s" where that is unambiguous: fadd fsub fmul fdiv fsqrt
          fmadd fmsub fnmadd fnmsub fmin fmax fsgnj fsgnjn fsgnjx feq flt fle fclass
          fcvt.w.s fcvt.wu.s fcvt.s.w fcvt.s.wu fmv.x.w fmv.w.x
  rm      the static rounding mode 0-4 (RNE RTZ RDN RUP RMM), one digit; 0 for the operations
          without a rounding mode (min/max, sign injection, compares, fclass, moves)
  a b c   the operands rs1 rs2 rs3 as 8 digits (binary32 bits, or the integer for fcvt.s.w[u]
          and fmv.w.x); an unused operand is 00000000
  result  8 digits: the binary32 bits, or the integer register value (compares: 0/1, fclass:
          the mask, fcvt.w[u].s: the integer)
  flags   2 digits: the fflags the operation raises (NV 10, DZ 08, OF 04, UF 02, NX 01)

Lines starting with '#' are comments.  Operations with a rounding mode get each operand tuple in
all five modes.  The expected values are RISC-V's: SoftFloat's RISC-V specialisation (canonical
NaN 0x7FC00000, saturating conversions, tininess after rounding) for the arithmetic,
conversions and compares (f32_eq is quiet, f32_lt / f32_le signal on any NaN); min/max, sign
injection, fclass and the moves, which SoftFloat does not provide, are computed here from the
RISC-V definitions with SoftFloat's classification and quiet compare.

Operands: the special values (signed zeros, infinities, quiet and signaling NaNs, the smallest
and largest subnormals and normals, integer boundaries), random bit patterns, values with few
significand bits (halfway and exact cases), exponents at the binade and range edges, and for
two- and three-operand operations second / third operands related to the first (close exponents
for cancellation, products near the addend, sums near a binade boundary).  The seed makes the
file deterministic.
"""
import argparse
import random
import sys

import softfloatpy as sf

RM = [sf.RoundingMode.NEAR_EVEN, sf.RoundingMode.MIN_MAG, sf.RoundingMode.MIN, sf.RoundingMode.MAX,
      sf.RoundingMode.NEAR_MAX_MAG]
ROUNDED = ["fadd", "fsub", "fmul", "fdiv", "fsqrt", "fmadd", "fmsub", "fnmadd", "fnmsub",
           "fcvt.w.s", "fcvt.wu.s", "fcvt.s.w", "fcvt.s.wu"]
UNROUNDED = ["fmin", "fmax", "fsgnj", "fsgnjn", "fsgnjx", "feq", "flt", "fle", "fclass", "fmv.x.w", "fmv.w.x"]
OPS = ROUNDED + UNROUNDED
ARITY = {"fadd": 2, "fsub": 2, "fmul": 2, "fdiv": 2, "fsqrt": 1, "fmadd": 3, "fmsub": 3, "fnmadd": 3,
         "fnmsub": 3, "fcvt.w.s": 1, "fcvt.wu.s": 1, "fcvt.s.w": 1, "fcvt.s.wu": 1, "fmin": 2, "fmax": 2,
         "fsgnj": 2, "fsgnjn": 2, "fsgnjx": 2, "feq": 2, "flt": 2, "fle": 2, "fclass": 1, "fmv.x.w": 1,
         "fmv.w.x": 1}
CANON = 0x7FC00000

SPECIAL = [0x00000000, 0x80000000, 0x7F800000, 0xFF800000,          # zeros, infinities
           0x7FC00000, 0xFFC00000, 0x7FC00001, 0x7FFFFFFF,          # quiet NaNs
           0x7F800001, 0xFF800001, 0x7FA00000, 0x7FBFFFFF,          # signaling NaNs
           0x00000001, 0x80000001, 0x007FFFFF, 0x807FFFFF,          # smallest / largest subnormal
           0x00800000, 0x80800000, 0x7F7FFFFF, 0xFF7FFFFF,          # smallest / largest normal
           0x00400000, 0x00000002, 0x00800001, 0x7F7FFFFE,
           0x3F800000, 0xBF800000, 0x3F800001, 0x3F7FFFFF, 0x40000000, 0x3F000000, 0xBF000000,
           0x3FC00000, 0xBFC00000, 0x40200000, 0xC0200000, 0x3EFFFFFF, 0x3F000001,   # 1.5, 2.5, ~0.5
           0x4EFFFFFF, 0x4F000000, 0x4F000001, 0xCF000000, 0xCF000001, 0xCEFFFFFF,   # around +-2^31
           0x4F7FFFFF, 0x4F800000, 0x4F800001, 0x4B800000, 0x4B7FFFFF, 0x4B000000, 0x4B000001]
SPECIAL_INT = [0, 1, 0xFFFFFFFF, 0x7FFFFFFF, 0x80000000, 0x80000001, 0x01000000, 0x01000001, 0x01000003,
               0x00FFFFFF, 0xFEFFFFFF, 0xFF000001, 0x7FFFFFC0, 0x7FFFFF80, 0xFFFFFF80, 0x00000003,
               0x02000002, 0x02000006, 0xFFFFFFFE]


def f32(u):
    return sf.Float32.from_bytes(u.to_bytes(4, "big"))


def bits(x):
    """The bits of a softfloatpy Float32 / Int32 / UInt32 as an unsigned integer."""
    return int.from_bytes(x.to_bytes(), "big")


def is_nan(u):
    return (u & 0x7F800000) == 0x7F800000 and (u & 0x7FFFFF) != 0


def is_snan(u):
    return is_nan(u) and not (u & 0x400000)


class Gen:
    def __init__(self, seed):
        self.r = random.Random(seed)

    def pack(self, s, e, m):
        return (s << 31) | ((e & 0xFF) << 23) | (m & 0x7FFFFF)

    def value(self):
        """One binary32 operand from the mix of classes."""
        r = self.r
        k = r.randrange(10)
        s = r.getrandbits(1)
        if k == 0:
            return r.choice(SPECIAL)
        if k <= 3:
            return r.getrandbits(32)
        if k == 4:                              # few significand bits: exact and halfway cases
            nb = r.randrange(0, 6)
            m = (r.getrandbits(nb) << (23 - nb)) if nb else 0
            return self.pack(s, r.randrange(1, 255), m)
        if k == 5:                              # exponents at the edges of the range
            e = r.choice([0, 0, 1, 2, 3, 0x7D, 0x7E, 0xFC, 0xFD, 0xFE])
            return self.pack(s, e, r.getrandbits(23))
        if k == 6:                              # significand all ones / low bits: binade crossings
            m = r.choice([0x7FFFFF, 0x7FFFFE, 0x7FFFF0, 0x000001, 0x000003, 0x400000, 0x3FFFFF])
            return self.pack(s, r.randrange(0, 255), m)
        if k == 7:                              # near 1 and the integers
            return self.pack(s, r.randrange(0x70, 0xA0), r.getrandbits(23))
        if k == 8:                              # subnormal
            return self.pack(s, 0, r.getrandbits(r.randrange(1, 24)))
        return self.pack(s, r.randrange(1, 255), r.getrandbits(23))

    def related(self, a):
        """An operand close to a in exponent (cancellation, alignment by a few bits), or -a +- ulps."""
        r = self.r
        k = r.randrange(4)
        if is_nan(a) or (a & 0x7F800000) == 0x7F800000:
            return self.value()
        if k == 0:
            return (a ^ 0x80000000) + r.randrange(-3, 4) & 0xFFFFFFFF
        e = ((a >> 23) & 0xFF) + r.randrange(-26, 27)
        e = min(max(e, 0), 0xFE)
        m = r.getrandbits(23) if k != 3 else (r.getrandbits(3) << 20)
        return self.pack(r.getrandbits(1), e, m)

    def integer(self):
        r = self.r
        k = r.randrange(5)
        if k == 0:
            return r.choice(SPECIAL_INT)
        if k == 1:                              # around a power of two, where rounding starts
            p = r.randrange(20, 32)
            return ((1 << p) + r.randrange(-300, 300)) & 0xFFFFFFFF
        if k == 2:                              # a few significant bits then a tail
            p = r.randrange(24, 32)
            v = (r.getrandbits(p - 24 + 1) | 1) << (32 - (p - 23))
            return (v >> (32 - p)) & 0xFFFFFFFF
        if k == 3:
            return r.randrange(-1000, 1000) & 0xFFFFFFFF
        return r.getrandbits(32)

    def cvt_float(self):
        """A float for fcvt.w[u].s: mostly magnitudes near the integers and the 32-bit limits."""
        r = self.r
        k = r.randrange(4)
        if k == 0:
            return self.value()
        if k == 1:                              # exactly representable halves
            v = r.randrange(-40, 40) + 0.5
            return bits(sf.Float32.from_float(v))
        return self.pack(r.getrandbits(1), r.randrange(0x78, 0xA1), r.getrandbits(23))

    def operands(self, op):
        n = ARITY[op]
        if op in ("fcvt.s.w", "fcvt.s.wu", "fmv.w.x"):
            return [self.integer(), 0, 0]
        if op in ("fcvt.w.s", "fcvt.wu.s"):
            return [self.cvt_float(), 0, 0]
        a = self.value()
        if n == 1:
            if op == "fsqrt" and self.r.randrange(3) == 0 and not is_nan(a):
                a &= 0x7FFFFFFF                 # mostly nonnegative square roots
                if self.r.randrange(2):         # a square of a short significand: exact roots
                    y = self.pack(0, self.r.randrange(0x40, 0xBF), self.r.getrandbits(11) << 12)
                    a = bits(sf.f32_mul(f32(y), f32(y)))
            return [a, 0, 0]
        b = self.related(a) if self.r.randrange(2) else self.value()
        if self.r.randrange(12) == 0:           # results just below 2^-126: tiny before, not after rounding
            r = self.r
            a = self.pack(r.getrandbits(1), 0x7E, 0x7FFFFF - r.randrange(8))
            b = self.pack(r.getrandbits(1), 1, r.randrange(16))
            if op == "fdiv":
                a, b = b, self.pack(r.getrandbits(1), 0x7F, r.getrandbits(6))
        if n == 2:
            return [a, b, 0]
        # c near +-a*b (cancellation) or unrelated
        if self.r.randrange(2) and not is_nan(a) and not is_nan(b):
            p = bits(sf.f32_mul(f32(a), f32(b)))
            c = self.related(p) if self.r.randrange(4) else self.pack(self.r.getrandbits(1), 0, self.r.getrandbits(4))
        else:
            c = self.value()
        return [a, b, c]


def neg(u):
    return u ^ 0x80000000


def lt_total(a, b):
    """a < b for non-NaN a, b with -0 < +0."""
    def key(u):
        return (~u & 0xFFFFFFFF) if u >> 31 else (u | 0x80000000)
    return key(a) < key(b)


def fclass(u):
    s = u >> 31
    e = (u >> 23) & 0xFF
    m = u & 0x7FFFFF
    if e == 0xFF:
        if m:
            return 1 << 8 if is_snan(u) else 1 << 9
        return 1 << 0 if s else 1 << 7
    if e == 0:
        if m == 0:
            return 1 << 3 if s else 1 << 4
        return 1 << 2 if s else 1 << 5
    return 1 << 1 if s else 1 << 6


def compute(op, rm, a, b, c):
    """(result, flags) for one vector."""
    sf.set_exception_flags(0)
    sf.set_rounding_mode(RM[rm])
    A, B, C = f32(a), f32(b), f32(c)
    mode = RM[rm]
    if op == "fadd":
        res = bits(sf.f32_add(A, B))
    elif op == "fsub":
        res = bits(sf.f32_sub(A, B))
    elif op == "fmul":
        res = bits(sf.f32_mul(A, B))
    elif op == "fdiv":
        res = bits(sf.f32_div(A, B))
    elif op == "fsqrt":
        res = bits(sf.f32_sqrt(A))
    elif op == "fmadd":
        res = bits(sf.f32_mul_add(A, B, C))
    elif op == "fmsub":
        res = bits(sf.f32_mul_add(A, B, f32(neg(c))))
    elif op == "fnmsub":
        res = bits(sf.f32_mul_add(f32(neg(a)), B, C))
    elif op == "fnmadd":
        res = bits(sf.f32_mul_add(f32(neg(a)), B, f32(neg(c))))
    elif op == "fcvt.w.s":
        res = bits(sf.f32_to_i32(A, mode, True))
    elif op == "fcvt.wu.s":
        res = bits(sf.f32_to_ui32(A, mode, True))
    elif op == "fcvt.s.w":
        res = bits(sf.i32_to_f32(sf.Int32.from_bytes(a.to_bytes(4, "big"))))
    elif op == "fcvt.s.wu":
        res = bits(sf.ui32_to_f32(sf.UInt32.from_bytes(a.to_bytes(4, "big"))))
    elif op in ("fmin", "fmax"):
        fl = 0x10 if is_snan(a) or is_snan(b) else 0
        if is_nan(a) and is_nan(b):
            return CANON, fl
        if is_nan(a):
            return b, fl
        if is_nan(b):
            return a, fl
        a_first = lt_total(a, b) if op == "fmin" else lt_total(b, a)
        return (a if a_first else b), fl
    elif op == "fsgnj":
        return (a & 0x7FFFFFFF) | (b & 0x80000000), 0
    elif op == "fsgnjn":
        return (a & 0x7FFFFFFF) | (~b & 0x80000000), 0
    elif op == "fsgnjx":
        return a ^ (b & 0x80000000), 0
    elif op == "feq":
        res = int(bool(sf.f32_eq(A, B)))
    elif op == "flt":
        res = int(bool(sf.f32_lt(A, B)))
    elif op == "fle":
        res = int(bool(sf.f32_le(A, B)))
    elif op == "fclass":
        return fclass(a), 0
    elif op in ("fmv.x.w", "fmv.w.x"):
        return a, 0
    else:
        raise ValueError(op)
    return res, int(sf.get_exception_flags())


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=10000,
                    help="vectors per operation, at least (default %(default)s)")
    ap.add_argument("--seed", type=int, default=1, help="random seed (default %(default)s)")
    ap.add_argument("--ops", default=",".join(OPS), help="comma-separated operations (default: all)")
    ap.add_argument("--out", default="-", help="output file (default: stdout)")
    args = ap.parse_args()
    if args.count < 1:
        sys.exit(f"gen_fp_vectors: --count must be at least 1 (got {args.count})")
    ops = [o for o in args.ops.split(",") if o]
    bad = [o for o in ops if o not in OPS]
    if bad:
        sys.exit(f"gen_fp_vectors: unknown operation {bad[0]!r} (known: {' '.join(OPS)})")
    sf.set_tininess_mode(sf.TininessMode.AFTER_ROUNDING)
    out = sys.stdout if args.out == "-" else open(args.out, "w")
    out.write(f"# RV32F vectors: scripts/gen_fp_vectors.py --count {args.count} --seed {args.seed}\n"
              "# op rm a b c result flags (hex)\n")
    for op in ops:
        g = Gen(f"{args.seed}:{op}")
        rms = range(5) if op in ROUNDED else [0]
        tuples = -(-args.count // len(rms))
        lines = []
        # the special operands against each other first, then the random mix
        if ARITY[op] >= 2 and op not in ("fcvt.s.w", "fcvt.s.wu"):
            for a in SPECIAL[:24]:
                for b in SPECIAL[:24:3]:
                    c = SPECIAL[(a + b) % len(SPECIAL)] if ARITY[op] == 3 else 0
                    for rm in rms:
                        res, fl = compute(op, rm, a, b, c)
                        lines.append(f"{op} {rm} {a:08x} {b:08x} {c:08x} {res:08x} {fl:02x}")
            tuples = max(0, tuples - 24 * 8)
        for _ in range(tuples):
            a, b, c = g.operands(op)
            for rm in rms:
                res, fl = compute(op, rm, a, b, c)
                lines.append(f"{op} {rm} {a:08x} {b:08x} {c:08x} {res:08x} {fl:02x}")
        out.write("\n".join(lines) + "\n")
    if out is not sys.stdout:
        out.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
