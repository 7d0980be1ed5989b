/* ref_fp.h: IEEE 754 binary32 arithmetic as RV32F defines it, in integer C (the ref model's FPU).
 *
 * Every function takes operands as their bit patterns, returns the result's bit pattern and ORs
 * the exception flags it raises into *fl (the fflags bits GC_FP_FLAG_*).  Rounding modes are the
 * static rm values GC_FP_RM_RNE .. GC_FP_RM_RMM; a caller resolves the dynamic mode from frm and
 * refuses the reserved ones before calling.  RISC-V's choices where IEEE
 * leaves one: a NaN result is always the canonical NaN 0x7FC00000 (no payload propagation),
 * tininess is detected after rounding, FMADD of inf x 0 raises NV even with a quiet NaN addend,
 * float -> integer conversions saturate (NaN as the largest value) and raise NV instead of NX.
 * Nothing here reads or changes the host's floating-point environment.  Tested bit for bit
 * against Berkeley SoftFloat by tests/unit/test_fp.c (vectors from scripts/gen_fp_vectors.py).
 */
#ifndef GPUCOSIM_REF_FP_H
#define GPUCOSIM_REF_FP_H

#include <stdbool.h>
#include <stdint.h>

#include "gpucosim_spec.h" /* GC_FP_RM_*, GC_FP_FLAG_*, GC_FP_CLASS_*, GC_FP_CANONICAL_NAN (spec simt.fp) */

/* rm 0-4 */
uint32_t rf_add(uint32_t a, uint32_t b, unsigned rm, unsigned *fl);
uint32_t rf_sub(uint32_t a, uint32_t b, unsigned rm, unsigned *fl);
uint32_t rf_mul(uint32_t a, uint32_t b, unsigned rm, unsigned *fl);
uint32_t rf_div(uint32_t a, uint32_t b, unsigned rm, unsigned *fl);
uint32_t rf_sqrt(uint32_t a, unsigned rm, unsigned *fl);
/* (-1)^neg_prod * a * b + (-1)^neg_add * c, one rounding: FMADD (0,0), FMSUB (0,1), FNMSUB (1,0),
 * FNMADD (1,1) */
uint32_t rf_fma(uint32_t a, uint32_t b, uint32_t c, bool neg_prod, bool neg_add, unsigned rm, unsigned *fl);
int32_t rf_to_i32(uint32_t a, unsigned rm, unsigned *fl);
uint32_t rf_to_u32(uint32_t a, unsigned rm, unsigned *fl);
uint32_t rf_from_i32(int32_t v, unsigned rm, unsigned *fl);
uint32_t rf_from_u32(uint32_t v, unsigned rm, unsigned *fl);

/* no rounding */
uint32_t rf_min(uint32_t a, uint32_t b, unsigned *fl);
uint32_t rf_max(uint32_t a, uint32_t b, unsigned *fl);
bool rf_eq(uint32_t a, uint32_t b, unsigned *fl); /* NV on a signaling NaN only */
bool rf_lt(uint32_t a, uint32_t b, unsigned *fl); /* NV on any NaN */
bool rf_le(uint32_t a, uint32_t b, unsigned *fl); /* NV on any NaN */
uint32_t rf_class(uint32_t a);                    /* the FCLASS.S mask (one bit set) */

#endif
