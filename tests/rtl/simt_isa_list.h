/* simt_isa_list.h: the instruction tests of the SIMT core (X-macro list), shared by
 * tests/rtl/simt_isa.S (each entry becomes a code block) and tests/rtl/simt_tb.cpp (each entry
 * becomes a check computed on the host).  Every block gets the thread's inputs a (a0) and b (a1)
 * and leaves three results r0, r1, r2 (a2, a3, a4; 0 unless set).
 *   RR(op)            r0 = op a, b
 *   RI(op, imm)       r0 = op a, imm
 *   BR(op)            r0 = 1 when "op a, b" is taken
 *   LD(space, op, o)  the word b at the thread's scratch word in space G (global), S (shared) or
 *                     L (local); r0 = op o(scratch)
 *   ST(space, op, o)  the word b, then op a, o(scratch); r0 = the word read back
 *   AMO(space, op)    the word b, then op.w r0, a, (scratch); r1 = the word read back
 *   SP(name)          a special sequence (simt_isa.S SP_name, simt_tb.cpp check_name)
 *   FP(form, m, OP, rm) the F instruction m (spec name OP) with rounding mode rm (rne rtz rdn rup
 *                     rmm, dyn: frm = lane % 5, none); its operands are SoftFloat vectors of OP
 *                     (build/fpvec/vectors.txt): r0 = result, r1 = fflags, r2 = fcsr
 *   FLS(space)        FLW and FSW in space G, S or L
 * Blocks also get a third input c (a5), used by the FMA forms.
 */
RR(add) RR(sub) RR(sll) RR(slt) RR(sltu) RR(xor) RR(srl) RR(sra) RR(or) RR(and)
RR(mul) RR(mulh) RR(mulhsu) RR(mulhu) RR(div) RR(divu) RR(rem) RR(remu)
RI(addi, 0) RI(addi, 1) RI(addi, -1) RI(addi, 2047) RI(addi, -2048)
RI(slti, 0) RI(slti, -1) RI(slti, 100) RI(slti, -2048)
RI(sltiu, 0) RI(sltiu, 1) RI(sltiu, -1) RI(sltiu, 100)
RI(xori, -1) RI(xori, 0x5A5) RI(xori, -2048)
RI(ori, 0x0F0) RI(ori, -2048) RI(ori, 0)
RI(andi, 0x7FF) RI(andi, -16) RI(andi, 0)
RI(slli, 0) RI(slli, 1) RI(slli, 17) RI(slli, 31)
RI(srli, 0) RI(srli, 7) RI(srli, 31)
RI(srai, 0) RI(srai, 13) RI(srai, 31)
BR(beq) BR(bne) BR(blt) BR(bge) BR(bltu) BR(bgeu)
LD(G, lb, 0) LD(G, lb, 1) LD(G, lb, 2) LD(G, lb, 3) LD(G, lbu, 0) LD(G, lbu, 3)
LD(G, lh, 0) LD(G, lh, 2) LD(G, lhu, 0) LD(G, lhu, 2) LD(G, lw, 0)
LD(S, lb, 1) LD(S, lbu, 3) LD(S, lh, 2) LD(S, lhu, 0) LD(S, lw, 0)
LD(L, lb, 3) LD(L, lbu, 1) LD(L, lh, 0) LD(L, lhu, 2) LD(L, lw, 0)
ST(G, sb, 0) ST(G, sb, 1) ST(G, sb, 2) ST(G, sb, 3) ST(G, sh, 0) ST(G, sh, 2) ST(G, sw, 0)
ST(S, sb, 2) ST(S, sh, 2) ST(S, sw, 0)
ST(L, sb, 1) ST(L, sh, 0) ST(L, sw, 0)
AMO(G, amoadd) AMO(G, amoswap) AMO(G, amoxor) AMO(G, amoor) AMO(G, amoand)
AMO(G, amomin) AMO(G, amomax) AMO(G, amominu) AMO(G, amomaxu)
AMO(S, amoadd) AMO(S, amoswap) AMO(S, amoxor) AMO(S, amoor) AMO(S, amoand)
AMO(S, amomin) AMO(S, amomax) AMO(S, amominu) AMO(S, amomaxu)
AMO(L, amoadd) AMO(L, amoswap) AMO(L, amomin) AMO(L, amomaxu)
SP(lui) SP(auipc) SP(jal) SP(jalr) SP(jalr_odd) SP(x0) SP(lrsc) SP(fence)
SP(csr_tid) SP(csr_ctaid) SP(csr_ntid) SP(csr_nctaid) SP(csr_warp) SP(csr_task) SP(csr_imm) SP(cycle)
SP(stld_forward) SP(nested_div) SP(ld_st_order) SP(waw)
FP(F2, fadd.s, FADD, rne) FP(F2, fadd.s, FADD, rtz) FP(F2, fadd.s, FADD, rdn) FP(F2, fadd.s, FADD, rup)
FP(F2, fadd.s, FADD, rmm) FP(F2, fadd.s, FADD, dyn)
FP(F2, fsub.s, FSUB, rne) FP(F2, fsub.s, FSUB, rdn) FP(F2, fsub.s, FSUB, dyn)
FP(F2, fmul.s, FMUL, rne) FP(F2, fmul.s, FMUL, rtz) FP(F2, fmul.s, FMUL, dyn)
FP(F2, fdiv.s, FDIV, rne) FP(F2, fdiv.s, FDIV, rup) FP(F2, fdiv.s, FDIV, dyn)
FP(F1, fsqrt.s, FSQRT, rne) FP(F1, fsqrt.s, FSQRT, rmm) FP(F1, fsqrt.s, FSQRT, dyn)
FP(F3, fmadd.s, FMADD, rne) FP(F3, fmadd.s, FMADD, rmm) FP(F3, fmadd.s, FMADD, dyn)
FP(F3, fmsub.s, FMSUB, rne) FP(F3, fmsub.s, FMSUB, rdn)
FP(F3, fnmsub.s, FNMSUB, rne) FP(F3, fnmsub.s, FNMSUB, rup)
FP(F3, fnmadd.s, FNMADD, rne) FP(F3, fnmadd.s, FNMADD, rtz)
FP(F2, fsgnj.s, FSGNJ, none) FP(F2, fsgnjn.s, FSGNJN, none) FP(F2, fsgnjx.s, FSGNJX, none)
FP(F2, fmin.s, FMIN, none) FP(F2, fmax.s, FMAX, none)
FP(X2, feq.s, FEQ, none) FP(X2, flt.s, FLT, none) FP(X2, fle.s, FLE, none)
FP(X1, fclass.s, FCLASS, none) FP(X1, fmv.x.w, FMV_X_W, none)
FP(X1, fcvt.w.s, FCVT_W_S, rtz) FP(X1, fcvt.w.s, FCVT_W_S, rne) FP(X1, fcvt.w.s, FCVT_W_S, dyn)
FP(X1, fcvt.wu.s, FCVT_WU_S, rtz) FP(X1, fcvt.wu.s, FCVT_WU_S, rmm)
FP(I1, fcvt.s.w, FCVT_S_W, rne) FP(I1, fcvt.s.w, FCVT_S_W, dyn) FP(I1, fcvt.s.wu, FCVT_S_WU, rup)
FP(I1, fmv.w.x, FMV_W_X, none)
FLS(G) FLS(S) FLS(L)
SP(fcsr) SP(fp_chain)
