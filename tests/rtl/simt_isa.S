/* simt_isa.S: the instruction tests of tests/rtl/simt_tb.cpp (assembled by riscv64-unknown-elf-gcc
 * -march=rv32imaf_zicsr -mabi=ilp32, linked by firmware/link.ld at GC_LOAD_BASE 0x83800000).
 *
 * isa_main: every thread runs every block of simt_isa_list.h on its own inputs.  PARAM points to
 *   { in, out, scratch, ntests }: thread g (linear in the grid) reads a, b, c at in + (g * ntests + i) * 12
 *   and writes r0, r1, r2 at out + (g * ntests + i) * 12; its global scratch is scratch + g * 16,
 *   its shared scratch SHARED_BASE + (thread index in the CTA) * 16 (SMEM_BYTES >= 16 * CTA
 *   threads), its local scratch LOCAL_BASE + 512.
 * fault_*: one faulting instruction each, in lane 3 only (or every lane where noted); the
 *   instruction sits at the symbol fault_*_pc.  fault_null_*: the same at the address in PARAM
 *   word 0 (the NULL guard cases); null_edge: the first bytes past a NULL guard work.
 * tmu_task: the TMU cases' kernel (device LAUNCH, spin, per-CTA counters), see below.
 */
#include "gpucosim_spec.h"

#define SPACE_G s2
#define SPACE_S s3
#define SPACE_L s4

#define PRO  lw a0, 0(s0); lw a1, 4(s0); lw a5, 8(s0); li a2, 0; li a3, 0; li a4, 0;
#define EPI  sw a2, 0(s1); sw a3, 4(s1); sw a4, 8(s1); addi s0, s0, 12; addi s1, s1, 12;

#define RR(op)          PRO op a2, a0, a1; EPI
#define RI(op, imm)     PRO op a2, a0, imm; EPI
#define BR(op)          PRO op a0, a1, 1f; j 2f; 1: li a2, 1; 2: EPI
#define LD(sp, op, o)   PRO sw a1, 0(SPACE_##sp); op a2, o(SPACE_##sp); EPI
#define ST(sp, op, o)   PRO sw a1, 0(SPACE_##sp); op a0, o(SPACE_##sp); lw a2, 0(SPACE_##sp); EPI
#define AMO(sp, op)     PRO sw a1, 0(SPACE_##sp); op.w a2, a0, (SPACE_##sp); lw a3, 0(SPACE_##sp); EPI
#define SP(name)        PRO SP_##name; EPI

/* F extension.  FP(form, mnemonic, OP, rm): the bit patterns a, b, c go to fa0, fa1, fa2 (or a
 * stays in a0 for the integer sources); r0 = the result bits, r1 = fflags, r2 = fcsr after the
 * instruction.  fcsr is 0 before it, except rm dyn: frm = lane % 5 (so every lane rounds its own
 * way).  FLS(space): FLW of the word b (r0), FSW of the bits a read back with LW (r1). */
#define FRM_rne
#define FRM_rtz
#define FRM_rdn
#define FRM_rup
#define FRM_rmm
#define FRM_none
#define FRM_dyn         csrr t0, GC_SIMT_CSR_LANEID; li t1, 5; remu t0, t0, t1; fsrm t0;
#define RMARG_rne       , rne
#define RMARG_rtz       , rtz
#define RMARG_rdn       , rdn
#define RMARG_rup       , rup
#define RMARG_rmm       , rmm
#define RMARG_dyn       , dyn
#define RMARG_none
#define F_F2(m, rm)     m fa3, fa0, fa1 RMARG_##rm; fmv.x.w a2, fa3;
#define F_F1(m, rm)     m fa3, fa0 RMARG_##rm; fmv.x.w a2, fa3;
#define F_F3(m, rm)     m fa3, fa0, fa1, fa2 RMARG_##rm; fmv.x.w a2, fa3;
#define F_X2(m, rm)     m a2, fa0, fa1;
#define F_X1(m, rm)     m a2, fa0 RMARG_##rm;
#define F_I1(m, rm)     m fa3, a0 RMARG_##rm; fmv.x.w a2, fa3;
#define FP(form, m, op, rm) PRO fscsr x0; fmv.w.x fa0, a0; fmv.w.x fa1, a1; fmv.w.x fa2, a5; FRM_##rm \
                        F_##form(m, rm) frflags a3; frcsr a4; fscsr x0; EPI
#define FLS(sp)         PRO sw a1, 0(SPACE_##sp); flw fa3, 0(SPACE_##sp); fmv.x.w a2, fa3; fmv.w.x fa4, a0; \
                        fsw fa4, 0(SPACE_##sp); lw a3, 0(SPACE_##sp); EPI

/* fflags / frm / fcsr through every Zicsr form (r0 = fcsr after writing 0x1FF: bit 8 is not
 * kept; r1 = the old values t1 | t2 << 8 | t3 << 16 | t4 << 24; r2 = fcsr at the end) */
#define SP_fcsr         li t0, 0x1FF; fscsr t0; frcsr a2; csrrci t1, fflags, 0x15; csrrwi t2, frm, 3; \
                        li t0, 0x11; csrrs t3, fflags, t0; csrrc t4, fcsr, a0; csrrsi t5, frm, 0; \
                        slli t2, t2, 8; slli t3, t3, 16; slli t4, t4, 24; or a3, t1, t2; or a3, a3, t3; \
                        or a3, a3, t4; frcsr a4; fscsr x0;
/* a dependent FP chain (every step waits for the one before in the scoreboard), through memory
 * too: x = a & 255; r0 = 2x^2, r1 = 2x^2 + x, r2 = fflags (0: all exact) */
#define SP_fp_chain     andi t0, a0, 255; fcvt.s.w fa1, t0; fadd.s fa2, fa1, fa1; fmul.s fa3, fa2, fa1; \
                        fcvt.w.s a2, fa3, rtz; fsw fa3, 0(s2); flw fa4, 0(s2); fadd.s fa5, fa4, fa1; \
                        fcvt.w.s a3, fa5; frflags a4;

#define SP_lui          lui a2, 0x12345; lui a3, 0xfffff; lui a4, 0x80000;
#define SP_auipc        1: auipc a2, 0x1; auipc a3, 0; sub a2, a2, a3; lla a4, 1b; sub a3, a3, a4;
#define SP_jal          li a3, 7; jal a2, 3f; li a3, 99; 3: auipc a4, 0; sub a2, a4, a2; li a4, 0;
#define SP_jalr         lla t0, 3f; andi t1, a0, 3; slli t1, t1, 3; add t0, t0, t1; jalr a3, 0(t0); \
                        3: li a2, 10; j 4f; li a2, 11; j 4f; li a2, 12; j 4f; li a2, 13; j 4f; \
                        4: lla t1, 3b; sub a3, a3, t1;
#define SP_jalr_odd     lla t0, 5f; addi t0, t0, -1; jalr a3, 1(t0); li a2, 1; 5: li a2, 2; \
                        lla t1, 5b; sub a3, a3, t1;
#define SP_x0           sw a1, 0(s2); add x0, a0, a1; addi x0, a0, 5; lui x0, 0x12345; lw x0, 0(s2); \
                        csrr x0, GC_SIMT_CSR_TID_X; amoadd.w x0, a0, (s2); jal x0, 6f; li a3, 5; \
                        6: mv a2, x0; or a3, x0, zero; lw a4, 0(s2);
#define SP_lrsc         sw a1, 0(s2); lr.w a2, (s2); sc.w t0, a0, (s2); sc.w t1, a1, (s2); \
                        slli t1, t1, 1; or a3, t0, t1; lw a4, 0(s2);
#define SP_fence        sw a0, 0(s2); fence; lw a2, 0(s2); fence rw, rw; sw a1, 0(s2); fence iorw, iorw; \
                        lw a3, 0(s2);
#define SP_csr_tid      csrr a2, GC_SIMT_CSR_TID_X; csrr a3, GC_SIMT_CSR_TID_Y; csrr a4, GC_SIMT_CSR_TID_Z;
#define SP_csr_ctaid    csrr a2, GC_SIMT_CSR_CTAID_X; csrr a3, GC_SIMT_CSR_CTAID_Y; csrr a4, GC_SIMT_CSR_CTAID_Z;
#define SP_csr_ntid     csrr a2, GC_SIMT_CSR_NTID_X; csrr a3, GC_SIMT_CSR_NTID_Y; csrr a4, GC_SIMT_CSR_NTID_Z;
#define SP_csr_nctaid   csrr a2, GC_SIMT_CSR_NCTAID_X; csrr a3, GC_SIMT_CSR_NCTAID_Y; csrr a4, GC_SIMT_CSR_NCTAID_Z;
#define SP_csr_warp     csrr a2, GC_SIMT_CSR_WARPID; csrr a3, GC_SIMT_CSR_LANEID; csrr a4, GC_SIMT_CSR_NLANES;
#define SP_csr_task     csrr a2, GC_SIMT_CSR_TASKID; csrr a3, GC_SIMT_CSR_PARAM; csrr a4, GC_SIMT_CSR_SMID;
#define SP_csr_imm      csrrsi a2, GC_SIMT_CSR_TID_X, 0; csrrci a3, GC_SIMT_CSR_NLANES, 0; csrrs a4, GC_SIMT_CSR_LANEID, x0;
#define SP_cycle        csrr t0, GC_SIMT_CSR_CYCLE; nop; nop; csrr t1, GC_SIMT_CSR_CYCLE; sub a2, t1, t0; \
                        csrr a4, GC_SIMT_CSR_CYCLEH;
/* a store, then a load of the same word right away (the load waits for the store's response) */
#define SP_stld_forward sw a0, 0(s2); lw a2, 0(s2); sh a1, 2(s2); lw a3, 0(s2); sb a0, 1(s2); lhu a4, 0(s2);
/* loads do not block: a load, then a store to the same word (the load must still see the old
 * value), then a load again; and an ALU write to a register whose load is in flight (WAW: the
 * ALU result must win) */
#define SP_ld_st_order  sw a0, 0(s2); lw a2, 0(s2); sw a1, 0(s2); lw a3, 0(s2); add a4, a2, a3;
#define SP_waw          sw a0, 0(s2); lw a2, 0(s2); li a2, 7; lw a3, 0(s3); lw a3, 0(s2); addi a3, a3, 1; \
                        lw x0, 0(s2); mv a4, a3;
/* nested data-dependent branches: lanes split three ways, then meet again */
#define SP_nested_div   andi t0, a0, 7; li a2, 0; \
                        7: beqz t0, 9f; andi t1, t0, 1; beqz t1, 8f; addi a2, a2, 3; j 10f; \
                        8: addi a2, a2, 5; 10: addi t0, t0, -1; j 7b; 9: andi t1, a1, 1; \
                        beqz t1, 11f; addi a3, a2, 100; 11: mv a4, a2;

    .text
    .globl isa_main
    .type isa_main, @function
    .p2align 2
isa_main:
    csrr    t0, GC_SIMT_CSR_PARAM
    lw      s0, 0(t0)                   /* in */
    lw      s1, 4(t0)                   /* out */
    lw      s2, 8(t0)                   /* global scratch */
    lw      s5, 12(t0)                  /* ntests */
    /* t = thread index in the CTA, c = CTA index in the grid, g = c * CTA size + t */
    csrr    t1, GC_SIMT_CSR_TID_Z
    csrr    t2, GC_SIMT_CSR_NTID_Y
    mul     t1, t1, t2
    csrr    t2, GC_SIMT_CSR_TID_Y
    add     t1, t1, t2
    csrr    t2, GC_SIMT_CSR_NTID_X
    mul     t1, t1, t2
    csrr    t2, GC_SIMT_CSR_TID_X
    add     s6, t1, t2                  /* t */
    csrr    t1, GC_SIMT_CSR_CTAID_Z
    csrr    t2, GC_SIMT_CSR_NCTAID_Y
    mul     t1, t1, t2
    csrr    t2, GC_SIMT_CSR_CTAID_Y
    add     t1, t1, t2
    csrr    t2, GC_SIMT_CSR_NCTAID_X
    mul     t1, t1, t2
    csrr    t2, GC_SIMT_CSR_CTAID_X
    add     t1, t1, t2                  /* c */
    csrr    t2, GC_SIMT_CSR_NTID_X
    csrr    t3, GC_SIMT_CSR_NTID_Y
    mul     t2, t2, t3
    csrr    t3, GC_SIMT_CSR_NTID_Z
    mul     t2, t2, t3
    mul     t1, t1, t2
    add     s7, t1, s6                  /* g */
    mul     t1, s7, s5                  /* g * ntests */
    slli    t2, t1, 2
    add     s0, s0, t2
    add     s0, s0, t2
    add     s0, s0, t2                  /* in + g * ntests * 12 */
    add     s1, s1, t2
    add     s1, s1, t2
    add     s1, s1, t2                  /* out + g * ntests * 12 */
    slli    t2, s7, 4
    add     s2, s2, t2
    slli    t2, s6, 4
    li      s3, GC_SIMT_WIN_SHARED_BASE
    add     s3, s3, t2
    li      s4, GC_SIMT_WIN_LOCAL_BASE + 512

#include "simt_isa_list.h"

    .insn   i GC_SIMT_INSN_EXIT_OPCODE, GC_SIMT_INSN_EXIT_FUNCT3, x0, x0, 0

/* ---------------------------------------------------------------- faults: lane 3 only */
#define LANE3_ONLY(name) \
    .globl name; .type name, @function; .p2align 2; name: \
    csrr t0, GC_SIMT_CSR_LANEID; li t1, 3; bne t0, t1, 1f;
#define FAULT_END(name) \
    1: .insn i GC_SIMT_INSN_EXIT_OPCODE, GC_SIMT_INSN_EXIT_FUNCT3, x0, x0, 0;

LANE3_ONLY(fault_illegal)
    .globl fault_illegal_pc; fault_illegal_pc: .word 0xFFFFFFFF
FAULT_END(fault_illegal)

LANE3_ONLY(fault_reserved_custom)
    .globl fault_reserved_custom_pc; fault_reserved_custom_pc: .insn i 0x0B, 5, x0, x0, 0
FAULT_END(fault_reserved_custom)

LANE3_ONLY(fault_csr_write)
    .globl fault_csr_write_pc; fault_csr_write_pc: csrw GC_SIMT_CSR_TID_X, t0
FAULT_END(fault_csr_write)

LANE3_ONLY(fault_ecall)
    .globl fault_ecall_pc; fault_ecall_pc: ecall
FAULT_END(fault_ecall)

LANE3_ONLY(fault_ebreak)
    .globl fault_ebreak_pc; fault_ebreak_pc: ebreak
FAULT_END(fault_ebreak)

/* misaligned accesses: the address is PARAM + 2 */
LANE3_ONLY(fault_misaligned_load)
    csrr t2, GC_SIMT_CSR_PARAM; addi t2, t2, 2
    .globl fault_misaligned_load_pc; fault_misaligned_load_pc: lw t3, 0(t2)
FAULT_END(fault_misaligned_load)

LANE3_ONLY(fault_misaligned_store)
    csrr t2, GC_SIMT_CSR_PARAM; addi t2, t2, 2
    .globl fault_misaligned_store_pc; fault_misaligned_store_pc: sh t3, 1(t2)
FAULT_END(fault_misaligned_store)

LANE3_ONLY(fault_misaligned_amo)
    csrr t2, GC_SIMT_CSR_PARAM; addi t2, t2, 2
    .globl fault_misaligned_amo_pc; fault_misaligned_amo_pc: amoadd.w t3, t3, (t2)
FAULT_END(fault_misaligned_amo)

/* a jump to PC + 2 */
LANE3_ONLY(fault_misaligned_jump)
    .globl fault_misaligned_jump_pc; fault_misaligned_jump_pc: auipc t2, 0
    addi t2, t2, 2+8; jr t2
FAULT_END(fault_misaligned_jump)

/* wild pointers: PARAM holds the address (a hole of the device map: DECERR) */
LANE3_ONLY(fault_wild_load)
    csrr t2, GC_SIMT_CSR_PARAM
    .globl fault_wild_load_pc; fault_wild_load_pc: lw t3, 0(t2)
    sw t3, 0(t2)
FAULT_END(fault_wild_load)

LANE3_ONLY(fault_wild_store)
    csrr t2, GC_SIMT_CSR_PARAM
    .globl fault_wild_store_pc; fault_wild_store_pc: sw t3, 0(t2)
FAULT_END(fault_wild_store)

/* fault_store_late: PARAM points to { wild address, out }.  Lane 3 stores to the wild address
 * (DECERR), then goes on (the store is posted): 64 loop iterations and a store to out before it
 * exits.  The bus error arrives while it is in the loop; the record must still name the store
 * (FAULT_PC = fault_store_late_pc, lane 3, the wild address). */
LANE3_ONLY(fault_store_late)
    csrr t5, GC_SIMT_CSR_PARAM
    lw t2, 0(t5)
    li t3, 0x5EED
    .globl fault_store_late_pc; fault_store_late_pc: sw t3, 0(t2)
    li t4, 64
2:  addi t4, t4, -1
    addi t3, t3, 1
    bnez t4, 2b
    sw t3, 4(t5)
FAULT_END(fault_store_late)

/* fault_wild_lr: lane 3 LRs the wild address in PARAM word 0: LOAD_BUS_ERROR (LR faults like a load) */
LANE3_ONLY(fault_wild_lr)
    csrr t5, GC_SIMT_CSR_PARAM
    lw t2, 0(t5)
    .globl fault_wild_lr_pc; fault_wild_lr_pc: lr.w t3, (t2)
FAULT_END(fault_wild_lr)

LANE3_ONLY(fault_wild_amo)
    csrr t2, GC_SIMT_CSR_PARAM
    .globl fault_wild_amo_pc; fault_wild_amo_pc: amoswap.w t3, t3, (t2)
FAULT_END(fault_wild_amo)

/* an address in no window at all, and past the CTA's shared memory */
LANE3_ONLY(fault_no_window)
    li t2, 0xE0000000
    .globl fault_no_window_pc; fault_no_window_pc: lw t3, 0(t2)
FAULT_END(fault_no_window)

LANE3_ONLY(fault_shared_oob)
    li t2, GC_SIMT_WIN_SHARED_BASE
    csrr t3, GC_SIMT_CSR_PARAM          /* PARAM = SMEM_BYTES of the task */
    add t2, t2, t3
    .globl fault_shared_oob_pc; fault_shared_oob_pc: sw t3, 0(t2)
FAULT_END(fault_shared_oob)

LANE3_ONLY(fault_lr_shared)
    li t2, GC_SIMT_WIN_SHARED_BASE
    .globl fault_lr_shared_pc; fault_lr_shared_pc: lr.w t3, (t2)
FAULT_END(fault_lr_shared)

/* F instructions: a reserved static rounding mode (5), DYN while frm holds 6, any F instruction
 * or fcsr access on a model without the FPU (FPU = 0) */
LANE3_ONLY(fault_fp_rm)
    .globl fault_fp_rm_pc; fault_fp_rm_pc: .insn r GC_FP_OPC_OP_FP, 5, 0, ft0, ft1, ft2
FAULT_END(fault_fp_rm)

LANE3_ONLY(fault_fp_dyn)
    csrwi frm, 6
    .globl fault_fp_dyn_pc; fault_fp_dyn_pc: fadd.s ft0, ft1, ft2, dyn
FAULT_END(fault_fp_dyn)

LANE3_ONLY(fault_fp_absent)
    .globl fault_fp_absent_pc; fault_fp_absent_pc: fadd.s ft0, ft1, ft2, rne
FAULT_END(fault_fp_absent)

LANE3_ONLY(fault_fp_absent_csr)
    .globl fault_fp_absent_csr_pc; fault_fp_absent_csr_pc: frflags t3
FAULT_END(fault_fp_absent_csr)

/* fault_load_late: like fault_store_late for a load: loads do not block, so lane 3 runs on past
 * the wild load (PARAM word 0) until the bus error arrives; the record names the load */
LANE3_ONLY(fault_load_late)
    csrr t5, GC_SIMT_CSR_PARAM
    lw t2, 0(t5)
    .globl fault_load_late_pc; fault_load_late_pc: lw t3, 0(t2)
    li t4, 64
2:  addi t4, t4, -1
    bnez t4, 2b
    sw t4, 4(t5)
FAULT_END(fault_load_late)

/* a jump out of the code windows (into the SHARED window) */
LANE3_ONLY(fault_fetch)
    li t2, GC_SIMT_WIN_SHARED_BASE
    .globl fault_fetch_pc; fault_fetch_pc: jr t2
FAULT_END(fault_fetch)

/* a jump into a hole of the device map inside the SYSMEM window: the fetch gets DECERR */
LANE3_ONLY(fault_fetch_bus)
    csrr t2, GC_SIMT_CSR_PARAM
    .globl fault_fetch_bus_pc; fault_fetch_bus_pc: jr t2
FAULT_END(fault_fetch_bus)

/* NULL guard (spec simt.windows guard): PARAM points to { address } (0 allowed); lane 3 accesses
 * it, or jumps there.  In the guard: NULL_ACCESS with FAULT_ADDR = the address. */
#define NULL_CASE(name, ...) \
    LANE3_ONLY(name) csrr t5, GC_SIMT_CSR_PARAM; lw t2, 0(t5); li t3, 0x5EED; \
    .globl name##_pc; name##_pc: __VA_ARGS__; \
    FAULT_END(name)
NULL_CASE(fault_null_lw, lw t3, 0(t2))
NULL_CASE(fault_null_lb, lb t3, 0(t2))
NULL_CASE(fault_null_sw, sw t3, 0(t2))
NULL_CASE(fault_null_sh, sh t3, 0(t2))
NULL_CASE(fault_null_amo, amoadd.w t3, t3, (t2))
NULL_CASE(fault_null_lr, lr.w t3, (t2))
NULL_CASE(fault_null_sc, sc.w t4, t3, (t2))
NULL_CASE(fault_null_jump, jr t2)

/* null_edge: PARAM points to { address, out }; thread 0 reads the word at the address (the first byte past a NULL guard), stores word + 1, AMO-adds 0x100, does an
 * LR / SC of word + 0x1000, reads its first byte and half, and writes out[0..4] =
 * { first word, AMO's old value, SC status, lbu, lhu }; the word ends as first + 0x1101. */
    .globl null_edge; .type null_edge, @function; .p2align 2
null_edge:
    csrr t0, GC_SIMT_CSR_TID_X
    bnez t0, 1f
    csrr t5, GC_SIMT_CSR_PARAM
    lw t2, 0(t5)
    lw t6, 4(t5)
    lw t3, 0(t2)
    sw t3, 0(t6)
    addi t3, t3, 1
    sw t3, 0(t2)
    li t4, 0x100
    amoadd.w t3, t4, (t2)
    sw t3, 4(t6)
    lr.w t3, (t2)
    li t4, 0x1000
    add t3, t3, t4
    sc.w t4, t3, (t2)
    sw t4, 8(t6)
    lbu t3, 0(t2)
    sw t3, 12(t6)
    lhu t3, 0(t2)
    sw t3, 16(t6)
1:  .insn i GC_SIMT_INSN_EXIT_OPCODE, GC_SIMT_INSN_EXIT_FUNCT3, x0, x0, 0

/* hang: every thread loops forever at hang_pc (the watchdog and wait-budget cases) */
    .globl hang; .type hang, @function; .p2align 2
hang:
    .globl hang_pc
hang_pc:
    j hang_pc

/* ---------------------------------------------------------------- throughput loops */
/* alu_loop: PARAM = { iterations, out }: 8 dependent-free ALU ops per iteration, no memory */
    .globl alu_loop; .type alu_loop, @function; .p2align 2
alu_loop:
    csrr t0, GC_SIMT_CSR_PARAM
    lw t1, 0(t0)
    csrr a0, GC_SIMT_CSR_TID_X
    mv a1, a0; mv a2, a0; mv a3, a0
12: addi a0, a0, 1; xor a1, a1, a0; add a2, a2, a1; slli a3, a3, 1
    or a3, a3, a0; sub a2, a2, a3; andi a1, a1, 0x7ff; addi t1, t1, -1
    bnez t1, 12b
    add a0, a0, a1; add a0, a0, a2; add a0, a0, a3
    lw t2, 4(t0)
    csrr t3, GC_SIMT_CSR_TID_X
    slli t3, t3, 2
    add t2, t2, t3
    sw a0, 0(t2)
    .insn i GC_SIMT_INSN_EXIT_OPCODE, GC_SIMT_INSN_EXIT_FUNCT3, x0, x0, 0

/* fp_dep: PARAM = { iters, mode, out }.  mode 0: 16 FMAs per iteration, each on the result of the
 * one before (fa0 = fa0 x 1 + 1); mode 1: the same 16 on four accumulators (each FMA depends on
 * the one four before); mode 2: 16 dependent FDIVs (fa0 / 1); mode 3: 16 dependent FSQRTs.
 * out[3 tid_x] = { fa0 (modes 0, 2) or the accumulators' sum (mode 1) as an integer, CYCLE
 * before the loop, CYCLE once the result is there } */
    .globl fp_dep; .type fp_dep, @function; .p2align 2
fp_dep:
    csrr t0, GC_SIMT_CSR_PARAM
    lw t1, 0(t0)
    lw t2, 4(t0)
    lw s1, 8(t0)
    csrr s0, GC_SIMT_CSR_TID_X
    fcvt.s.w fa0, s0
    fcvt.s.w fa1, s0
    fcvt.s.w fa2, s0
    fcvt.s.w fa3, s0
    li t3, 1
    fcvt.s.w fa4, t3
    fmv.s fa5, fa0
    csrr t5, GC_SIMT_CSR_CYCLE
    li t3, 1
    beq t2, t3, 41f
    li t3, 2
    beq t2, t3, 43f
    li t3, 3
    beq t2, t3, 45f
#define FMA0 fmadd.s fa0, fa0, fa4, fa4;
40: FMA0 FMA0 FMA0 FMA0 FMA0 FMA0 FMA0 FMA0 FMA0 FMA0 FMA0 FMA0 FMA0 FMA0 FMA0 FMA0
    addi t1, t1, -1
    bnez t1, 40b
    j 42f
#define FMA4 fmadd.s fa0, fa0, fa4, fa4; fmadd.s fa1, fa1, fa4, fa4; fmadd.s fa2, fa2, fa4, fa4; fmadd.s fa3, fa3, fa4, fa4;
41: FMA4 FMA4 FMA4 FMA4
    addi t1, t1, -1
    bnez t1, 41b
    fadd.s fa0, fa0, fa1
    fadd.s fa2, fa2, fa3
    fadd.s fa0, fa0, fa2
    j 42f
#define FDV fdiv.s fa0, fa0, fa4;
43: FDV FDV FDV FDV FDV FDV FDV FDV FDV FDV FDV FDV FDV FDV FDV FDV
    addi t1, t1, -1
    bnez t1, 43b
    j 42f
#define FSQ fsqrt.s fa5, fa5;
45: FSQ FSQ FSQ FSQ FSQ FSQ FSQ FSQ FSQ FSQ FSQ FSQ FSQ FSQ FSQ FSQ
    addi t1, t1, -1
    bnez t1, 45b
    fmv.s fa0, fa5
42: fcvt.w.s t4, fa0, rtz
    csrr t6, GC_SIMT_CSR_CYCLE
    li t3, 12
    mul t3, t3, s0
    add s1, s1, t3
    sw t4, 0(s1)
    sw t5, 4(s1)
    sw t6, 8(s1)
    .insn i GC_SIMT_INSN_EXIT_OPCODE, GC_SIMT_INSN_EXIT_FUNCT3, x0, x0, 0

/* fp_flags_meet: PARAM = { out }.  The FPU and the FDIV / FSQRT unit write back flags of one
 * warp in the same cycle: FSQRT(-1) (NV, in the divider for 29 cycles), then a store to shared
 * memory that c lanes make to one bank (the warp waits about c cycles), p NOPs, and an FMUL that
 * overflows (OF | NX, 3 cycles); c = 1..4 and p = 0..11 move the FMUL's write back across the
 * FSQRT's one cycle at a time.  out[48 tid_x + 12 (c - 1) + p] = fflags after both (NV | OF | NX) */
    .globl fp_flags_meet; .type fp_flags_meet, @function; .p2align 2
fp_flags_meet:
    csrr t0, GC_SIMT_CSR_PARAM
    lw s1, 0(t0)
    csrr t1, GC_SIMT_CSR_TID_X
    li t2, 192
    mul t2, t2, t1
    add s1, s1, t2
    csrr s4, GC_SIMT_CSR_LANEID
    li t1, -1
    fcvt.s.w fa2, t1
    lui t1, 0x7f000
    fmv.w.x fa3, t1
    li s6, GC_SIMT_WIN_SHARED_BASE
    li s5, 1
70: li s3, 0
71: csrwi fflags, 0
    sltu a1, s4, s5
    addi a1, a1, -1
    slli a2, s4, 2
    and a1, a1, a2
    add a1, a1, s6
    la t4, 73f
    slli t3, s3, 2
    sub t4, t4, t3
    fsqrt.s fa0, fa2
    sw s4, 0(a1)
    jalr x0, 0(t4)
    nop; nop; nop; nop; nop; nop; nop; nop; nop; nop; nop
73: fmul.s fa1, fa3, fa3
    csrr t3, fflags
    sw t3, 0(s1)
    addi s1, s1, 4
    addi s3, s3, 1
    li t3, 12
    blt s3, t3, 71b
    addi s5, s5, 1
    li t3, 5
    blt s5, t3, 70b
    .insn i GC_SIMT_INSN_EXIT_OPCODE, GC_SIMT_INSN_EXIT_FUNCT3, x0, x0, 0

/* ld_inflight: PARAM = { buf, out }: every thread loads buf[lane + 64 k], k = 0..7 (eight loads,
 * one burst each, none waiting for another), adds them, then makes nine more loads (the ninth
 * needs a free load slot of its warp: at most 8 in flight) and one whose value it uses at once.
 * Twice (the second pass runs from the instruction cache; every register a load writes is
 * written by one load only, so no load waits for an earlier one's result); out[6 tid_x] = { sum,
 * CYCLE before the loads, CYCLE after the eighth, CYCLE after the sum, CYCLE after the ninth of
 * the nine, CYCLE after the used one } of the second pass */
    .globl ld_inflight; .type ld_inflight, @function; .p2align 2
ld_inflight:
    csrr t0, GC_SIMT_CSR_PARAM
    lw s0, 0(t0)
    lw s1, 4(t0)
    csrr t1, GC_SIMT_CSR_LANEID
    slli t1, t1, 2
    add s0, s0, t1
    addi s4, s0, 1024
    addi s4, s4, 1024
    csrr t2, GC_SIMT_CSR_TID_X
    li t3, 24
    mul t3, t3, t2
    add s1, s1, t3
    li a7, 2
50: csrr t5, GC_SIMT_CSR_CYCLE
    lw a0, 0(s0)
    lw a1, 256(s0)
    lw a2, 512(s0)
    lw a3, 768(s0)
    lw a4, 1024(s0)
    lw a5, 1280(s0)
    lw a6, 1536(s0)
    lw s5, 1792(s0)
    csrr t6, GC_SIMT_CSR_CYCLE
    add s6, a0, a1
    add s6, s6, a2
    add s6, s6, a3
    add s6, s6, a4
    add s6, s6, a5
    add s6, s6, a6
    add s6, s6, s5
    csrr s7, GC_SIMT_CSR_CYCLE
    lw t0, 0(s0)
    lw t1, 256(s0)
    lw t2, 512(s0)
    lw t3, 768(s0)
    lw t4, 1024(s0)
    lw s8, 1280(s0)
    lw s9, 1536(s0)
    lw s10, 1792(s0)
    lw s11, 0(s4)
    csrr s2, GC_SIMT_CSR_CYCLE
    lw ra, 256(s4)
    addi ra, ra, 1
    csrr s3, GC_SIMT_CSR_CYCLE
    addi a7, a7, -1
    bnez a7, 50b
    sw s6, 0(s1)
    sw t5, 4(s1)
    sw t6, 8(s1)
    sw s7, 12(s1)
    sw s2, 16(s1)
    sw s3, 20(s1)
    .insn i GC_SIMT_INSN_EXIT_OPCODE, GC_SIMT_INSN_EXIT_FUNCT3, x0, x0, 0

/* ld_scatter: PARAM = { buf, out }: every thread loads buf[32 lane + 512 k], k = 0..7 (lanes 128
 * bytes apart: every load instruction is one burst per lane), then out[tid_x] = their sum.  The
 * LSU's limit on load bursts in flight (RB) is what bounds the reads at the memory port. */
    .globl ld_scatter; .type ld_scatter, @function; .p2align 2
ld_scatter:
    csrr t0, GC_SIMT_CSR_PARAM
    lw s0, 0(t0)
    lw s1, 4(t0)
    csrr t1, GC_SIMT_CSR_LANEID
    slli t1, t1, 7
    add s0, s0, t1
    li t1, 2048
    add s2, s0, t1
    csrr t2, GC_SIMT_CSR_TID_X
    slli t2, t2, 2
    add s1, s1, t2
    lw a0, 0(s0)
    lw a1, 0(s2)
    add s0, s2, t1
    add s2, s0, t1
    lw a2, 0(s0)
    lw a3, 0(s2)
    add s0, s2, t1
    add s2, s0, t1
    lw a4, 0(s0)
    lw a5, 0(s2)
    add s0, s2, t1
    add s2, s0, t1
    lw a6, 0(s0)
    lw a7, 0(s2)
    add a0, a0, a1
    add a0, a0, a2
    add a0, a0, a3
    add a0, a0, a4
    add a0, a0, a5
    add a0, a0, a6
    add a0, a0, a7
    sw a0, 0(s1)
    .insn i GC_SIMT_INSN_EXIT_OPCODE, GC_SIMT_INSN_EXIT_FUNCT3, x0, x0, 0

/* st_buffered: PARAM = { buf }: every thread stores its tid_x to buf[4 lane], buf[128 + 4 lane],
 * buf[256 + 4 lane] (lanes 16 bytes apart: each store is 15-beat bursts, 30 cycles of W data to
 * SYSMEM), three stores in a row */
    .globl st_buffered; .type st_buffered, @function; .p2align 2
st_buffered:
    csrr t0, GC_SIMT_CSR_PARAM
    lw s0, 0(t0)
    csrr t1, GC_SIMT_CSR_LANEID
    slli t1, t1, 4
    add s0, s0, t1
    csrr t2, GC_SIMT_CSR_TID_X
    sw t2, 0(s0)
    sw t2, 512(s0)
    sw t2, 1024(s0)
    .insn i GC_SIMT_INSN_EXIT_OPCODE, GC_SIMT_INSN_EXIT_FUNCT3, x0, x0, 0

/* st_past_loads: PARAM = { buf (SYSMEM: reads take >= 100 cycles), far, out }; thread t:
 *   A  lw buf[t]; sw to far[t] (another segment): the store does not wait for the load
 *   B  lw buf[t]; sw t to buf[t] (the word just loaded): the store waits for the load's data
 *   C  lw buf[t]; FENCE: the fence waits for the load (a later store must not pass it)
 * twice (the second pass runs from the instruction cache); out[4 t] = { B's load of the first
 * pass (the old value), CYCLE over A, over B, over C } of the second pass */
    .globl st_past_loads; .type st_past_loads, @function; .p2align 2
st_past_loads:
    csrr t0, GC_SIMT_CSR_PARAM
    lw s0, 0(t0)
    lw s2, 4(t0)
    lw s1, 8(t0)
    csrr t2, GC_SIMT_CSR_TID_X
    slli t1, t2, 2
    add s0, s0, t1
    add s2, s2, t1
    slli t1, t2, 4
    add s1, s1, t1
    li a7, 2
60: csrr t5, GC_SIMT_CSR_CYCLE
    lw a0, 0(s0)
    sw t2, 0(s2)
    csrr t6, GC_SIMT_CSR_CYCLE
    csrr s3, GC_SIMT_CSR_CYCLE
    lw a1, 0(s0)
    sw t2, 0(s0)
    csrr s4, GC_SIMT_CSR_CYCLE
    li t4, 2
    bne a7, t4, 61f
    mv s8, a1
61: csrr s5, GC_SIMT_CSR_CYCLE
    lw a2, 0(s0)
    fence
    csrr s6, GC_SIMT_CSR_CYCLE
    addi a7, a7, -1
    bnez a7, 60b
    sub t5, t6, t5
    sub s3, s4, s3
    sub s5, s6, s5
    sw s8, 0(s1)
    sw t5, 4(s1)
    sw s3, 8(s1)
    sw s5, 12(s1)
    .insn i GC_SIMT_INSN_EXIT_OPCODE, GC_SIMT_INSN_EXIT_FUNCT3, x0, x0, 0

/* lrsc_store: plain stores break LR/SC reservations.  PARAM = { words (4 x 4 bytes, W0..W3),
 * out (6 words) }; a CTA of 2 x NLANES threads (two warps); thread 0 writes out[]:
 *   out[0] SC of W0 after thread 1 (same warp) stored 0x1111 to W0 between LR and SC: 1 (failed)
 *   out[1] SC of W1 after thread 1 stored 0x3333 to W0 (the other half of W1's beat): 0
 *   out[2] LR of W0 (0x3333), out[3] the SC right after it (no store between): 0
 *   out[4] SC of W2 after thread NLANES (the other warp) stored 0x6666 to W2 between two BARs: 1
 *   out[5] the first LR of W0 (its initial value)
 * so W0 = 0x5555, W1 = 0x4444, W2 = 0x6666 at the end. */
    .globl lrsc_store; .type lrsc_store, @function; .p2align 2
/* LR/SC tests: s2 = W0, s4 = W1, s5 = W2, s1 = out, s0 = TID_X, t1 = 1 */
#define LRSC_PROLOGUE csrr t0, GC_SIMT_CSR_PARAM; lw s2, 0(t0); lw s1, 4(t0); addi s4, s2, 4; addi s5, s2, 8; \
                      csrr s0, GC_SIMT_CSR_TID_X; li t1, 1
lrsc_store:
    LRSC_PROLOGUE
    csrr s3, GC_SIMT_CSR_NLANES
    bnez s0, 20f
    lr.w a5, (s2)
20: bne s0, t1, 21f
    li t3, 0x1111; sw t3, 0(s2)
21: bnez s0, 22f
    li t3, 0x2222; sc.w a0, t3, (s2)
    lr.w t4, (s4)
22: bne s0, t1, 23f
    li t3, 0x3333; sw t3, 0(s2)
23: bnez s0, 24f
    li t3, 0x4444; sc.w a1, t3, (s4)
    lr.w a2, (s2); li t3, 0x5555; sc.w a3, t3, (s2)
    lr.w t4, (s5)
24: .insn i GC_SIMT_INSN_BAR_OPCODE, GC_SIMT_INSN_BAR_FUNCT3, x0, x0, 0
    bne s0, s3, 25f
    li t3, 0x6666; sw t3, 0(s5)
25: .insn i GC_SIMT_INSN_BAR_OPCODE, GC_SIMT_INSN_BAR_FUNCT3, x0, x0, 0
    bnez s0, 26f
    li t3, 0x7777; sc.w a4, t3, (s5)
    sw a0, 0(s1); sw a1, 4(s1); sw a2, 8(s1); sw a3, 12(s1); sw a4, 16(s1); sw a5, 20(s1)
26: .insn i GC_SIMT_INSN_EXIT_OPCODE, GC_SIMT_INSN_EXIT_FUNCT3, x0, x0, 0

/* lrsc_amo: atomic-unit writes break reservations on exactly the 4-byte word they write, like plain
 * stores (not on the whole 8-byte beat).  PARAM = { words (W0..W3, 8-aligned), out (4 words) }; one
 * warp; thread 1 writes between thread 0's LR and SC:
 *   out[0] SC of W0 after an AMOADD of W1 (the other half of W0's beat): 0 (written)
 *   out[1] SC of W1 after an AMOSWAP of W0: 0
 *   out[2] SC of W2 after an AMOADD of W2 itself: 1 (failed, W2 keeps the AMO's value)
 *   out[3] SC of W0 after another thread's successful LR/SC on W1: 0
 * so W0 = 0x5555, W1 = 0x6666, W2 = initial + 5, W3 untouched. */
/* thread 0 only / thread 1 only (s0 = TID_X, t1 = 1); everyone meets after the block */
#define T0(...) bnez s0, 1f; __VA_ARGS__; 1:
#define T1(...) bne s0, t1, 1f; __VA_ARGS__; 1:
    .globl lrsc_amo; .type lrsc_amo, @function; .p2align 2
lrsc_amo:
    LRSC_PROLOGUE
    T0(lr.w t4, (s2))
    T1(li t3, 1; amoadd.w t4, t3, (s4))
    T0(li t3, 0x1111; sc.w a0, t3, (s2); lr.w t4, (s4))
    T1(li t3, 0x2222; amoswap.w t4, t3, (s2))
    T0(li t3, 0x3333; sc.w a1, t3, (s4); lr.w t4, (s5))
    T1(li t3, 5; amoadd.w t4, t3, (s5))
    T0(li t3, 0x4444; sc.w a2, t3, (s5); lr.w t4, (s2))
    T1(lr.w t4, (s4); li t3, 0x6666; sc.w t4, t3, (s4))
    T0(li t3, 0x5555; sc.w a3, t3, (s2); sw a0, 0(s1); sw a1, 4(s1); sw a2, 8(s1); sw a3, 12(s1))
    .insn i GC_SIMT_INSN_EXIT_OPCODE, GC_SIMT_INSN_EXIT_FUNCT3, x0, x0, 0

/* lrsc_pairs: PARAM = { words (W0, W1), out (2 words per thread) }; one warp.  Thread t LRs
 * W[t & 1] (the even lanes one word, the odd lanes the other: one LR request per word), then SCs
 * the value + t + 1 to it; out[2t] = the LR value, out[2t + 1] = the SC result.  Lanes 0 and 1 (the
 * lowest on each word) succeed, every other lane fails: W0 = W0 + 1, W1 = W1 + 2. */
    .globl lrsc_pairs; .type lrsc_pairs, @function; .p2align 2
lrsc_pairs:
    csrr t0, GC_SIMT_CSR_PARAM
    lw s2, 0(t0)
    lw s1, 4(t0)
    csrr s0, GC_SIMT_CSR_TID_X
    andi t1, s0, 1
    slli t1, t1, 2
    add s2, s2, t1
    lr.w a0, (s2)
    addi t2, s0, 1
    add t2, a0, t2
    sc.w a1, t2, (s2)
    slli t3, s0, 3
    add s1, s1, t3
    sw a0, 0(s1)
    sw a1, 4(s1)
    .insn i GC_SIMT_INSN_EXIT_OPCODE, GC_SIMT_INSN_EXIT_FUNCT3, x0, x0, 0

/* reconverge: PARAM = out: odd and even lanes take different paths, then meet for a 100-iteration
 * uniform loop; out[tid_x] = 304 (odd lanes) or 312 (even lanes).  If the warp did not reconverge
 * at the loop, it would run it twice with half masks. */
    .globl reconverge; .type reconverge, @function; .p2align 2
reconverge:
    csrr t0, GC_SIMT_CSR_LANEID
    andi t0, t0, 1
    li t1, 0
    beqz t0, 13f
    addi t1, t1, 1; addi t1, t1, 1; addi t1, t1, 1; addi t1, t1, 1
    j 14f
13: addi t1, t1, 2; addi t1, t1, 2; addi t1, t1, 2; addi t1, t1, 2; addi t1, t1, 2; addi t1, t1, 2
14: li t2, 100
15: addi t1, t1, 3; addi t2, t2, -1; bnez t2, 15b
    csrr t3, GC_SIMT_CSR_PARAM
    csrr t4, GC_SIMT_CSR_TID_X
    slli t4, t4, 2
    add t3, t3, t4
    sw t1, 0(t3)
    .insn i GC_SIMT_INSN_EXIT_OPCODE, GC_SIMT_INSN_EXIT_FUNCT3, x0, x0, 0

/* tmu_task: the TMU cases' kernel (1-D CTAs).  PARAM points to
 *   { iters, counters, child, nlaunch, stride, out }:
 * in CTA 0, threads tid_x < nlaunch (when child != 0) first LAUNCH the TMD at thread address
 * child + tid_x * stride and store the status at out[tid_x]; then every thread spins iters
 * times; then (when counters != 0) thread 0 of each CTA adds 1 to counters[ctaid_x]. */
    .globl tmu_task; .type tmu_task, @function; .p2align 2
tmu_task:
    csrr s0, GC_SIMT_CSR_PARAM
    csrr s1, GC_SIMT_CSR_TID_X
    csrr s2, GC_SIMT_CSR_CTAID_X
    lw t0, 8(s0)
    beqz t0, 31f
    bnez s2, 31f
    lw t1, 12(s0)
    bgeu s1, t1, 31f
    lw t2, 16(s0)
    mul t2, t2, s1
    add t0, t0, t2
    .insn i GC_SIMT_INSN_LAUNCH_OPCODE, GC_SIMT_INSN_LAUNCH_FUNCT3, a0, t0, 0
    lw t3, 20(s0)
    slli t4, s1, 2
    add t3, t3, t4
    sw a0, 0(t3)
31: lw t0, 0(s0)
32: beqz t0, 33f
    addi t0, t0, -1
    j 32b
33: lw t1, 4(s0)
    beqz t1, 34f
    bnez s1, 34f
    slli t2, s2, 2
    add t1, t1, t2
    li t3, 1
    amoadd.w x0, t3, (t1)
34: .insn i GC_SIMT_INSN_EXIT_OPCODE, GC_SIMT_INSN_EXIT_FUNCT3, x0, x0, 0
