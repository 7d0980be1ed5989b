/* The ref model's RV32F arithmetic (cosim/ref/ref_fp.c) bit for bit, flags included, against
 * Berkeley SoftFloat: the vectors of scripts/gen_fp_vectors.py (format in its header), generated
 * at build time into build/fpvec/vectors.txt (the RTL FPU's bench, fpu_tb, runs the same file).
 * GC_FP_VECTORS names another file ("-": stdin; `make soak-fp` runs 100 files of other seeds),
 * GC_FP_MIN_PER_OP the count each operation must reach (default 10000).  A few hand-written
 * cases pin the RISC-V choices by themselves. */
#include <errno.h>

#include "ref/ref_fp.h"
#include "tcase.h"

#ifndef GC_FP_VECTORS_DEFAULT
#define GC_FP_VECTORS_DEFAULT "build/fpvec/vectors.txt"
#endif

typedef enum {
    OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_SQRT, OP_MADD, OP_MSUB, OP_NMADD, OP_NMSUB, OP_CVT_W, OP_CVT_WU,
    OP_CVT_S_W, OP_CVT_S_WU, OP_MIN, OP_MAX, OP_SGNJ, OP_SGNJN, OP_SGNJX, OP_EQ, OP_LT, OP_LE, OP_CLASS,
    OP_MV_X_W, OP_MV_W_X, OP_N
} fop_t;

/* the names of spec simt.fp (the vector file's OP field) */
static const char *const op_names[OP_N] = {
    "FADD", "FSUB", "FMUL", "FDIV", "FSQRT", "FMADD", "FMSUB", "FNMADD", "FNMSUB", "FCVT_W_S", "FCVT_WU_S",
    "FCVT_S_W", "FCVT_S_WU", "FMIN", "FMAX", "FSGNJ", "FSGNJN", "FSGNJX", "FEQ", "FLT", "FLE", "FCLASS",
    "FMV_X_W", "FMV_W_X"};

/* The ref model's answer for one vector (the sign injections and moves are bit operations the
 * interpreter does inline; they are modelled here the same way). */
static uint32_t eval(fop_t op, unsigned rm, uint32_t a, uint32_t b, uint32_t c, unsigned *fl) {
    switch (op) {
    case OP_ADD: return rf_add(a, b, rm, fl);
    case OP_SUB: return rf_sub(a, b, rm, fl);
    case OP_MUL: return rf_mul(a, b, rm, fl);
    case OP_DIV: return rf_div(a, b, rm, fl);
    case OP_SQRT: return rf_sqrt(a, rm, fl);
    case OP_MADD: return rf_fma(a, b, c, false, false, rm, fl);
    case OP_MSUB: return rf_fma(a, b, c, false, true, rm, fl);
    case OP_NMSUB: return rf_fma(a, b, c, true, false, rm, fl);
    case OP_NMADD: return rf_fma(a, b, c, true, true, rm, fl);
    case OP_CVT_W: return (uint32_t)rf_to_i32(a, rm, fl);
    case OP_CVT_WU: return rf_to_u32(a, rm, fl);
    case OP_CVT_S_W: return rf_from_i32((int32_t)a, rm, fl);
    case OP_CVT_S_WU: return rf_from_u32(a, rm, fl);
    case OP_MIN: return rf_min(a, b, fl);
    case OP_MAX: return rf_max(a, b, fl);
    case OP_SGNJ: return (a & 0x7FFFFFFFu) | (b & 0x80000000u);
    case OP_SGNJN: return (a & 0x7FFFFFFFu) | (~b & 0x80000000u);
    case OP_SGNJX: return a ^ (b & 0x80000000u);
    case OP_EQ: return rf_eq(a, b, fl);
    case OP_LT: return rf_lt(a, b, fl);
    case OP_LE: return rf_le(a, b, fl);
    case OP_CLASS: return rf_class(a);
    default: return a; /* moves */
    }
}

static void t_vectors(void) {
    const char *path = getenv("GC_FP_VECTORS");
    if (!path || !*path) path = GC_FP_VECTORS_DEFAULT;
    const char *minenv = getenv("GC_FP_MIN_PER_OP");
    unsigned long min_per_op = minenv && *minenv ? strtoul(minenv, NULL, 0) : 10000ul;
    FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
    if (!f) {
        TCASE_FAIL_("cannot open the vector file %s: %s (make builds it with scripts/gen_fp_vectors.py)", path,
                    strerror(errno));
        return;
    }
    unsigned long count[OP_N] = {0}, bad[OP_N] = {0}, lineno = 0, shown = 0;
    char line[256], name[32];
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if (line[0] == '#' || line[0] == '\n') continue;
        unsigned rm, a, b, c, want, wfl;
        if (sscanf(line, "%31s %x %x %x %x %x %x", name, &rm, &a, &b, &c, &want, &wfl) != 7 || rm > 4) {
            TCASE_FAIL_("%s:%lu: not a vector line: %s", path, lineno, line);
            break;
        }
        int op = 0;
        while (op < OP_N && strcmp(op_names[op], name)) op++;
        if (op == OP_N) {
            TCASE_FAIL_("%s:%lu: unknown operation '%s'", path, lineno, name);
            break;
        }
        unsigned fl = 0;
        uint32_t got = eval((fop_t)op, rm, a, b, c, &fl);
        count[op]++;
        if (got != want || fl != wfl) {
            bad[op]++;
            if (shown++ < 20)
                fprintf(stderr, "%s:%lu: %s rm %u %08x %08x %08x: ref %08x flags %02x, SoftFloat %08x flags %02x\n",
                        path, lineno, name, rm, a, b, c, got, fl, want, wfl);
        }
    }
    if (f != stdin) fclose(f);
    for (int op = 0; op < OP_N; op++) {
        printf("%-10s %9lu vectors, %lu differ\n", op_names[op], count[op], bad[op]);
        if (bad[op]) TCASE_FAIL_("%s: %lu of %lu vectors differ from SoftFloat", op_names[op], bad[op], count[op]);
        if (count[op] < min_per_op)
            TCASE_FAIL_("%s: only %lu vectors (at least %lu wanted)", op_names[op], count[op], min_per_op);
    }
}

/* The RISC-V choices, spelled out (independent of the vector file). */
static void t_riscv_choices(void) {
    unsigned fl = 0;
    /* canonical NaN, no payload propagation; sNaN raises NV, qNaN does not */
    CHECK_EQ(rf_add(0x7FC00123u, 0x3F800000u, GC_FP_RM_RNE, &fl), GC_FP_CANONICAL_NAN);
    CHECK_EQ(fl, 0);
    CHECK_EQ(rf_mul(0xFF800001u, 0x3F800000u, GC_FP_RM_RNE, &fl), GC_FP_CANONICAL_NAN);
    CHECK_EQ(fl, GC_FP_FLAG_NV);
    /* fmin / fmax: -0 < +0, one NaN gives the other operand, two the canonical NaN */
    fl = 0;
    CHECK_EQ(rf_min(0x00000000u, 0x80000000u, &fl), 0x80000000u);
    CHECK_EQ(rf_max(0x80000000u, 0x00000000u, &fl), 0x00000000u);
    CHECK_EQ(rf_min(0x7FC00000u, 0x40000000u, &fl), 0x40000000u);
    CHECK_EQ(fl, 0);
    CHECK_EQ(rf_max(0x7F800001u, 0x7FC00000u, &fl), GC_FP_CANONICAL_NAN);
    CHECK_EQ(fl, GC_FP_FLAG_NV);
    /* feq quiet, flt / fle signalling */
    fl = 0;
    CHECK_EQ(rf_eq(0x7FC00000u, 0x7FC00000u, &fl), 0);
    CHECK_EQ(fl, 0);
    CHECK_EQ(rf_le(0x7FC00000u, 0x3F800000u, &fl), 0);
    CHECK_EQ(fl, GC_FP_FLAG_NV);
    /* conversions saturate with NV and no NX */
    fl = 0;
    CHECK_EQ((uint32_t)rf_to_i32(0x7FC00000u, GC_FP_RM_RNE, &fl), 0x7FFFFFFFu);
    CHECK_EQ((uint32_t)rf_to_i32(0xCF000001u, GC_FP_RM_RTZ, &fl), 0x80000000u);
    CHECK_EQ(rf_to_u32(0xBF800000u, GC_FP_RM_RNE, &fl), 0u);
    CHECK_EQ(fl, GC_FP_FLAG_NV);
    fl = 0;
    CHECK_EQ(rf_to_u32(0xBF000000u, GC_FP_RM_RNE, &fl), 0u); /* -0.5 rounds to -0: inexact, valid */
    CHECK_EQ(fl, GC_FP_FLAG_NX);
    /* inf x 0 + qNaN is invalid; tininess after rounding */
    fl = 0;
    CHECK_EQ(rf_fma(0x7F800000u, 0, 0x7FC00000u, false, false, GC_FP_RM_RNE, &fl), GC_FP_CANONICAL_NAN);
    CHECK_EQ(fl, GC_FP_FLAG_NV);
    fl = 0;
    CHECK_EQ(rf_mul(0x3F7FFFFFu, 0x00800000u, GC_FP_RM_RNE, &fl), 0x00800000u); /* (1 - 2^-24) x 2^-126: tiny */
    CHECK_EQ(fl, GC_FP_FLAG_NX | GC_FP_FLAG_UF);
    fl = 0; /* 2^-126 (1 - 18 x 2^-47): below 2^-126, but 2^-126 once rounded to 24 bits: not tiny */
    CHECK_EQ(rf_mul(0x3F7FFFFAu, 0x00800003u, GC_FP_RM_RNE, &fl), 0x00800000u);
    CHECK_EQ(fl, GC_FP_FLAG_NX);
    fl = 0;
    CHECK_EQ(rf_mul(0x3F7FFFFFu, 0x00800000u, GC_FP_RM_RTZ, &fl), 0x007FFFFFu);
    CHECK_EQ(fl, GC_FP_FLAG_NX | GC_FP_FLAG_UF);
    /* overflow by rounding mode */
    fl = 0;
    CHECK_EQ(rf_mul(0x7F7FFFFFu, 0x40000000u, GC_FP_RM_RTZ, &fl), 0x7F7FFFFFu);
    CHECK_EQ(rf_mul(0x7F7FFFFFu, 0xC0000000u, GC_FP_RM_RUP, &fl), 0xFF7FFFFFu);
    CHECK_EQ(rf_mul(0x7F7FFFFFu, 0xC0000000u, GC_FP_RM_RDN, &fl), 0xFF800000u);
    CHECK_EQ(fl, GC_FP_FLAG_OF | GC_FP_FLAG_NX);
    /* x - x is +0, or -0 rounding down */
    fl = 0;
    CHECK_EQ(rf_sub(0x3F800000u, 0x3F800000u, GC_FP_RM_RNE, &fl), 0u);
    CHECK_EQ(rf_sub(0x3F800000u, 0x3F800000u, GC_FP_RM_RDN, &fl), 0x80000000u);
    CHECK_EQ(fl, 0);
    CHECK_EQ(rf_class(0x00000001u), 1u << 5);
    CHECK_EQ(rf_class(0xFF800000u), 1u << 0);
    CHECK_EQ(rf_class(0x7FA00000u), 1u << 8);
}

static const tcase_t cases[] = {
    {"fp_vectors", t_vectors},
    {"fp_riscv_choices", t_riscv_choices},
};
TCASE_MAIN(cases)
