// gc_fp_pkg: single-precision (IEEE 754-2008 binary32) helpers shared by the SM's FP units
// (gc_sm_fpu: the pipelined FMA / convert / compare unit; gc_sm_fdivsqrt: the iterative divider
// and square root).  The encodings (rm, fflags bits, FCLASS bits, the canonical NaN) come from the
// spec (gpucosim_pkg, simt.fp); the operation codes below are internal to the SM.
//
// Rounding (round_pack): a nonzero magnitude M (RW bits, bit 0 may be a jammed sticky bit) times
// 2^E0 is rounded once, with the exponent range unbounded below the subnormal grid: the result's
// LSB is at exponent max(e - 23, -149) where e is the exponent of M's leading one.  Subnormal
// results are produced in hardware (no flush to zero); UF is raised when the result is tiny
// after rounding (RISC-V: rounded to 24 bits with an unbounded exponent, below 2^-126) and
// inexact; overflow gives infinity or the largest finite number as the rounding mode says.
package gc_fp_pkg;
  import gpucosim_pkg::*;

  localparam int unsigned RW = 80;             // width of the magnitudes round_pack takes

  // FPU operations (internal): decoded by gc_sm from the simt.fp encodings
  typedef enum logic [4:0] {
    FOP_ADD, FOP_SUB, FOP_MUL, FOP_MADD, FOP_MSUB, FOP_NMSUB, FOP_NMADD,
    FOP_SGNJ, FOP_SGNJN, FOP_SGNJX, FOP_MIN, FOP_MAX, FOP_EQ, FOP_LT, FOP_LE, FOP_CLASS,
    FOP_MVXW, FOP_MVWX, FOP_CVTWS, FOP_CVTWUS, FOP_CVTSW, FOP_CVTSWU, FOP_DIV, FOP_SQRT
  } fop_e;

  // An F instruction decoded (fp_decode)
  typedef struct packed {
    logic  is_f;        // one of the F opcodes (LOAD-FP, STORE-FP, OP-FP, FMADD .. FNMADD)
    logic  legal;       // an assigned encoding (the rounding mode is checked apart: fp_rm_ok)
    fop_e  op;
    logic  divsqrt;     // FDIV / FSQRT: the iterative unit
    logic  load, store; // FLW / FSW
    logic  rounds;      // funct3 is a rounding mode
    logic  rd_fp;       // writes f[rd] (else x[rd]; FSW writes nothing)
    logic  rs1_fp;      // reads f[rs1] (else x[rs1])
    logic  rs2_fp;      // reads f[rs2]
    logic  rs3_fp;      // reads f[rs3] (instr 31:27)
  } fp_dec_t;

  // An operand taken apart: finite nonzero values normalised (man[23] set; exp is the unbiased
  // exponent of that bit, -149 .. 127, subnormals below -126)
  typedef struct packed {
    logic              sign;
    logic signed [9:0] exp;
    logic [23:0]       man;
    logic              zero, inf, nan, snan;
  } fp_unp_t;

  localparam logic [4:0] FL_NX = 5'(1) << GC_FP_FLAG_NX_BIT;
  localparam logic [4:0] FL_UF = 5'(1) << GC_FP_FLAG_UF_BIT;
  localparam logic [4:0] FL_OF = 5'(1) << GC_FP_FLAG_OF_BIT;
  localparam logic [4:0] FL_DZ = 5'(1) << GC_FP_FLAG_DZ_BIT;
  localparam logic [4:0] FL_NV = 5'(1) << GC_FP_FLAG_NV_BIT;

  function automatic fp_unp_t fp_unpack(input logic [31:0] x);
    fp_unp_t u;
    int      lz;
    u.sign = x[31];
    u.zero = (x[30:0] == '0);
    u.inf  = (x[30:23] == 8'hFF) && (x[22:0] == '0);
    u.nan  = (x[30:23] == 8'hFF) && (x[22:0] != '0);
    u.snan = u.nan && !x[22];
    if (x[30:23] != 8'h00) begin
      u.man = {1'b1, x[22:0]};
      u.exp = 10'($signed({2'b00, x[30:23]}) - 10'sd127);
    end else begin
      lz = 0;
      for (int i = 22; i >= 0; i--) if (x[i] && lz == 0) lz = 23 - i;
      u.man = {1'b0, x[22:0]} << lz;
      u.exp = 10'(-126 - lz);
    end
    return u;
  endfunction

  // Round-up decision of a magnitude with LSB lsb, round bit r, sticky s
  function automatic logic rnd_inc(input logic [2:0] rm, input logic sign, input logic lsb,
                                   input logic r, input logic s);
    logic inc;
    unique case (rm)
      GC_FP_RM_RNE: inc = r && (s || lsb);
      GC_FP_RM_RTZ: inc = 1'b0;
      GC_FP_RM_RDN: inc = sign && (r || s);
      GC_FP_RM_RUP: inc = !sign && (r || s);
      default:      inc = r;                        // RMM
    endcase
    return inc;
  endfunction

  // Overflow result: infinity, or the largest finite number when the mode rounds towards zero
  function automatic logic [31:0] fp_ovf(input logic [2:0] rm, input logic sign);
    logic to_max;
    to_max = (rm == GC_FP_RM_RTZ) || (rm == GC_FP_RM_RDN && !sign) || (rm == GC_FP_RM_RUP && sign);
    return {sign, to_max ? 31'h7F7F_FFFF : 31'h7F80_0000};
  endfunction

  // sign x M x 2^E0 (M != 0) rounded to binary32 by rm: {flags[4:0], bits[31:0]}
  function automatic logic [36:0] round_pack(input logic sign, input logic [RW-1:0] m,
                                             input int e0, input logic [2:0] rm);
    int          lead, e, lsb_e, pl, ebias;
    logic [RW-1:0] msk;
    logic [24:0] mant;
    logic        r, s, inc, tiny, r2, s2, inc2;
    logic [4:0]  fl;
    logic [31:0] bits;
    logic [39:0] enc;
    lead = 0;
    for (int i = 0; i < int'(RW); i++) if (m[i]) lead = i;
    e     = e0 + lead;
    lsb_e = (e - 23 > -149) ? e - 23 : -149;
    pl    = lsb_e - e0;                         // position of the result's LSB in m
    mant  = '0;
    r     = 1'b0;
    s     = 1'b0;
    r2    = 1'b0;
    s2    = 1'b0;
    if (pl <= 0) begin
      mant = 25'(m << (-pl));                   // exact: fewer than 24 significant bits
    end else if (pl > int'(RW)) begin
      s = 1'b1;
    end else begin
      mant = 25'(m >> pl);
      r    = m[pl - 1];
      msk  = (RW'(1) << (pl - 1)) - RW'(1);
      s    = (m & msk) != '0;
      if (pl >= 2) begin                        // one bit further down (tininess, below)
        r2  = m[pl - 2];
        msk = (RW'(1) << (pl - 2)) - RW'(1);
        s2  = (m & msk) != '0;
      end
    end
    inc = rnd_inc(rm, sign, mant[0], r, s);
    // biased exponent field of the LSB grid: (max(e + 127, 1) - 1) << 23, the mantissa (hidden
    // bit included) added on top, so a carry out of the mantissa bumps the exponent
    ebias = (e + 127 > 1) ? e + 126 : 0;
    enc   = 40'(ebias) << 23;
    enc = enc + 40'(mant) + 40'(inc);
    // tiny after rounding: e < -127, or e == -127 and rounding to 24 bits does not carry to 2^-126
    if (e < -127) begin
      tiny = 1'b1;
    end else if (e == -127) begin
      inc2 = rnd_inc(rm, sign, r, r2, s2);
      tiny = !((mant[22:0] == 23'h7FFFFF) && r && inc2);
    end else begin
      tiny = 1'b0;
    end
    fl = '0;
    if (r || s) fl = fl | FL_NX;
    if (tiny && (r || s)) fl = fl | FL_UF;
    if (enc >= 40'h7F80_0000) begin
      bits = fp_ovf(rm, sign);
      fl   = FL_OF | FL_NX;
    end else begin
      bits = {sign, enc[30:0]};
    end
    return {fl, bits};
  endfunction

  // FCLASS: the one-hot class of x (simt.fp.fclass)
  function automatic logic [31:0] fp_class(input logic [31:0] x);
    fp_unp_t     u;
    logic [31:0] c;
    logic        sub;
    u   = fp_unpack(x);
    sub = (x[30:23] == 8'h00) && !u.zero;
    c   = '0;
    if (u.nan)       c[u.snan ? GC_FP_CLASS_SNAN_BIT : GC_FP_CLASS_QNAN_BIT] = 1'b1;
    else if (u.inf)  c[u.sign ? GC_FP_CLASS_NEG_INF_BIT : GC_FP_CLASS_POS_INF_BIT] = 1'b1;
    else if (u.zero) c[u.sign ? GC_FP_CLASS_NEG_ZERO_BIT : GC_FP_CLASS_POS_ZERO_BIT] = 1'b1;
    else if (sub)    c[u.sign ? GC_FP_CLASS_NEG_SUBNORMAL_BIT : GC_FP_CLASS_POS_SUBNORMAL_BIT] = 1'b1;
    else             c[u.sign ? GC_FP_CLASS_NEG_NORMAL_BIT : GC_FP_CLASS_POS_NORMAL_BIT] = 1'b1;
    return c;
  endfunction

  // a < b in the total order of sign and magnitude (-0 < +0; no NaNs)
  function automatic logic fp_lt_total(input logic [31:0] a, input logic [31:0] b);
    logic lt;
    if (a[31] != b[31]) lt = a[31];
    else if (a[31])     lt = (a[30:0] > b[30:0]);
    else                lt = (a[30:0] < b[30:0]);
    return lt;
  endfunction

  // The operations that need no rounding: sign injection, min / max, compares, class, moves.
  // {flags[4:0], result[31:0]}
  function automatic logic [36:0] fp_misc(input fop_e op, input logic [31:0] a,
                                          input logic [31:0] b);
    fp_unp_t     ua, ub;
    logic [31:0] r;
    logic [4:0]  fl;
    logic        lt, bz;
    ua = fp_unpack(a);
    ub = fp_unpack(b);
    lt = fp_lt_total(a, b);
    bz = ua.zero && ub.zero;
    r  = '0;
    fl = '0;
    unique case (op)
      FOP_SGNJ:  r = {b[31], a[30:0]};
      FOP_SGNJN: r = {!b[31], a[30:0]};
      FOP_SGNJX: r = {a[31] ^ b[31], a[30:0]};
      FOP_MIN, FOP_MAX: begin
        if (ua.snan || ub.snan) fl = FL_NV;
        if (ua.nan && ub.nan)   r = GC_FP_CANONICAL_NAN;
        else if (ua.nan)        r = b;
        else if (ub.nan)        r = a;
        else                    r = ((op == FOP_MIN) == lt) ? a : b;
      end
      FOP_EQ: begin
        if (ua.snan || ub.snan) fl = FL_NV;
        r = {31'h0, !ua.nan && !ub.nan && (a == b || bz)};
      end
      FOP_LT, FOP_LE: begin
        if (ua.nan || ub.nan) fl = FL_NV;
        r = {31'h0, !ua.nan && !ub.nan && (op == FOP_LT ? (lt && !bz) : (lt || a == b || bz))};
      end
      FOP_CLASS: r = fp_class(a);
      default:   r = a;                 // FMV.X.W, FMV.W.X: the bits unchanged
    endcase
    return {fl, r};
  endfunction

  // FCVT.W.S / FCVT.WU.S: {flags[4:0], result[31:0]}; out of range and NaN saturate with NV
  function automatic logic [36:0] fp_to_int(input logic [31:0] x, input logic uns,
                                            input logic [2:0] rm);
    fp_unp_t     u;
    logic [31:0] ip, res;
    logic [32:0] ipr;
    logic        r, s, ok;
    logic [4:0]  fl;
    int          sh;
    u  = fp_unpack(x);
    ip = '0;
    r  = 1'b0;
    s  = 1'b0;
    ok = 1'b1;
    if (u.nan || u.inf || u.exp >= 10'sd32) begin
      ok = 1'b0;
    end else if (!u.zero) begin
      if (u.exp >= 10'sd23) begin
        ip = 32'(u.man) << (int'(u.exp) - 23);
      end else begin
        sh = 23 - int'(u.exp);                  // 1 .. 172
        if (sh > 24) begin                      // every bit below the round position
          s = 1'b1;
        end else begin
          ip = {8'h00, u.man >> sh};
          r  = u.man[sh - 1];
          s  = (u.man & ((24'(1) << (sh - 1)) - 24'(1))) != '0;
        end
      end
    end
    ipr = {1'b0, ip} + 33'(rnd_inc(rm, u.sign, ip[0], r, s));
    if (ok) begin
      if (uns) ok = u.sign ? (ipr == '0) : (ipr <= 33'hFFFF_FFFF);
      else     ok = u.sign ? (ipr <= 33'h8000_0000) : (ipr <= 33'h7FFF_FFFF);
    end
    fl = '0;
    if (!ok) begin
      fl = FL_NV;
      if (u.nan || !u.sign) res = uns ? 32'hFFFF_FFFF : 32'h7FFF_FFFF;
      else                  res = uns ? 32'h0000_0000 : 32'h8000_0000;
    end else begin
      res = u.sign ? -ipr[31:0] : ipr[31:0];
      if (r || s) fl = FL_NX;
    end
    return {fl, res};
  endfunction

  // Decode an instruction word against the spec's F encodings (simt.fp)
  function automatic fp_dec_t fp_decode(input logic [31:0] ins);
    fp_dec_t    d;
    logic [6:0] opc;
    logic [4:0] f5, r2;
    logic [2:0] f3;
    logic       s;
    opc = ins[6:0];
    f5  = ins[31:27];
    r2  = ins[24:20];
    f3  = ins[14:12];
    s   = (ins[26:25] == GC_FP_FMT_S);
    d   = '0;
    d.op = FOP_MVXW;
    unique case (opc)
      GC_FP_OPC_LOAD_FP: begin
        d.is_f  = 1'b1;
        d.legal = (f3 == GC_FP_WIDTH_W);
        d.load  = 1'b1;
        d.rd_fp = 1'b1;
      end
      GC_FP_OPC_STORE_FP: begin
        d.is_f   = 1'b1;
        d.legal  = (f3 == GC_FP_WIDTH_W);
        d.store  = 1'b1;
        d.rs2_fp = 1'b1;
      end
      GC_FP_OPC_FMADD, GC_FP_OPC_FMSUB, GC_FP_OPC_FNMSUB, GC_FP_OPC_FNMADD: begin
        d.is_f   = 1'b1;
        d.legal  = s;
        d.rounds = 1'b1;
        d.rd_fp  = 1'b1;
        d.rs1_fp = 1'b1;
        d.rs2_fp = 1'b1;
        d.rs3_fp = 1'b1;
        unique case (opc)
          GC_FP_OPC_FMADD:  d.op = FOP_MADD;
          GC_FP_OPC_FMSUB:  d.op = FOP_MSUB;
          GC_FP_OPC_FNMSUB: d.op = FOP_NMSUB;
          default:          d.op = FOP_NMADD;
        endcase
      end
      GC_FP_OPC_OP_FP: begin
        // the operation by the spec's selectors (funct5, and funct3 / rs2 where they select);
        // the register files, rounding and unit follow from the operation
        d.is_f  = 1'b1;
        d.legal = s;
        if      (f5 == GC_FP_F5_FADD)                                   d.op = FOP_ADD;
        else if (f5 == GC_FP_F5_FSUB)                                   d.op = FOP_SUB;
        else if (f5 == GC_FP_F5_FMUL)                                   d.op = FOP_MUL;
        else if (f5 == GC_FP_F5_FDIV)                                   d.op = FOP_DIV;
        else if (f5 == GC_FP_F5_FSQRT && r2 == GC_FP_RS2_FSQRT)         d.op = FOP_SQRT;
        else if (f5 == GC_FP_F5_FSGNJ && f3 == GC_FP_F3_FSGNJ)          d.op = FOP_SGNJ;
        else if (f5 == GC_FP_F5_FSGNJN && f3 == GC_FP_F3_FSGNJN)        d.op = FOP_SGNJN;
        else if (f5 == GC_FP_F5_FSGNJX && f3 == GC_FP_F3_FSGNJX)        d.op = FOP_SGNJX;
        else if (f5 == GC_FP_F5_FMIN && f3 == GC_FP_F3_FMIN)            d.op = FOP_MIN;
        else if (f5 == GC_FP_F5_FMAX && f3 == GC_FP_F3_FMAX)            d.op = FOP_MAX;
        else if (f5 == GC_FP_F5_FEQ && f3 == GC_FP_F3_FEQ)              d.op = FOP_EQ;
        else if (f5 == GC_FP_F5_FLT && f3 == GC_FP_F3_FLT)              d.op = FOP_LT;
        else if (f5 == GC_FP_F5_FLE && f3 == GC_FP_F3_FLE)              d.op = FOP_LE;
        else if (f5 == GC_FP_F5_FCVT_W_S && r2 == GC_FP_RS2_FCVT_W_S)   d.op = FOP_CVTWS;
        else if (f5 == GC_FP_F5_FCVT_WU_S && r2 == GC_FP_RS2_FCVT_WU_S) d.op = FOP_CVTWUS;
        else if (f5 == GC_FP_F5_FMV_X_W && f3 == GC_FP_F3_FMV_X_W && r2 == GC_FP_RS2_FMV_X_W) d.op = FOP_MVXW;
        else if (f5 == GC_FP_F5_FCLASS && f3 == GC_FP_F3_FCLASS && r2 == GC_FP_RS2_FCLASS)   d.op = FOP_CLASS;
        else if (f5 == GC_FP_F5_FCVT_S_W && r2 == GC_FP_RS2_FCVT_S_W)   d.op = FOP_CVTSW;
        else if (f5 == GC_FP_F5_FCVT_S_WU && r2 == GC_FP_RS2_FCVT_S_WU) d.op = FOP_CVTSWU;
        else if (f5 == GC_FP_F5_FMV_W_X && f3 == GC_FP_F3_FMV_W_X && r2 == GC_FP_RS2_FMV_W_X) d.op = FOP_MVWX;
        else                                                            d.legal = 1'b0;
        d.rounds  = d.op inside {FOP_ADD, FOP_SUB, FOP_MUL, FOP_DIV, FOP_SQRT,
                                 FOP_CVTWS, FOP_CVTWUS, FOP_CVTSW, FOP_CVTSWU};
        d.divsqrt = d.op inside {FOP_DIV, FOP_SQRT};
        d.rd_fp   = !(d.op inside {FOP_EQ, FOP_LT, FOP_LE, FOP_CVTWS, FOP_CVTWUS, FOP_MVXW, FOP_CLASS});
        d.rs1_fp  = !(d.op inside {FOP_CVTSW, FOP_CVTSWU, FOP_MVWX});
        d.rs2_fp  = d.op inside {FOP_ADD, FOP_SUB, FOP_MUL, FOP_DIV, FOP_SGNJ, FOP_SGNJN, FOP_SGNJX,
                                 FOP_MIN, FOP_MAX, FOP_EQ, FOP_LT, FOP_LE};
      end
      default: ;
    endcase
    return d;
  endfunction

  // The rounding mode an instruction uses: its rm field, or frm for DYN
  function automatic logic [2:0] fp_rm(input logic [2:0] f3, input logic [2:0] frm);
    return (f3 == GC_FP_RM_DYN) ? frm : f3;
  endfunction
  // ... and whether it is one of the five modes (5, 6, 7 in frm: ILLEGAL_INSTRUCTION)
  function automatic logic fp_rm_ok(input logic [2:0] rm);
    return rm inside {GC_FP_RM_RNE, GC_FP_RM_RTZ, GC_FP_RM_RDN, GC_FP_RM_RUP, GC_FP_RM_RMM};
  endfunction

endpackage
