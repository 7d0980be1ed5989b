// gc_sm_fpu: the SM's pipelined floating-point unit: every single-precision operation except
// FDIV / FSQRT (gc_sm_fdivsqrt), for all lanes of one warp instruction in lockstep.  It takes one
// instruction per cycle (no stall, no ready) and writes it back a fixed 3 cycles later:
//
//   EX (gc_sm) -> [S0 regs] stage 1 -> [S1 regs] stage 2 -> [S2 regs] stage 3 -> wb_valid_o
//
//   stage 1  unpack (subnormal operands normalised), special operands (NaN, infinity, zero,
//            inf x 0), the 24 x 24 product, alignment of the addend; the operations that need
//            no rounding (FSGNJ*, FMIN / FMAX, FEQ / FLT / FLE, FCLASS, FMV.*) and FCVT.W[U].S
//            finish here and ride along to the write back
//   stage 2  the addition (or subtraction: the larger magnitude minus the smaller, so no
//            negative result), exact-zero sign
//   stage 3  normalise and round once (gc_fp_pkg::round_pack), pack, flags
//
// Fused multiply-add (FMADD / FMSUB / FNMSUB / FNMADD) and FADD / FSUB (a x 1.0 + b) and FMUL
// (a x b, no addend) share the one datapath, so every one of them is rounded exactly once.  The
// product (48 bits) sits at bits 49:2 of an 80-bit field; the addend is placed at its exponent
// relative to the product's LSB.  When the addend is more than 50 bits above the product's LSB
// (d > 50), the product is smaller than a quarter of the addend's ULP, and every such product
// rounds the same way, so the shift is clamped at 50 (the product keeps its bits as sticky
// material).  An addend below the product's LSB loses bits to a sticky bit jammed into bit 0,
// two places below the product's LSB, which keeps the round and sticky decisions exact.
// FCVT.S.W[U] enter stage 2 as a magnitude with exponent 0 and are rounded by the same stage 3.
module gc_sm_fpu
  import gpucosim_pkg::*;
  import gc_fp_pkg::*;
#(
  parameter int unsigned NL = 8,        // lanes
  parameter int unsigned WW = 2         // warp index width
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,

  input  logic                 req_valid_i,
  input  fop_e                 req_op_i,
  input  logic [WW-1:0]        req_warp_i,
  input  logic [4:0]           req_rd_i,
  input  logic                 req_rd_fp_i,   // the result goes to f[rd] (else x[rd])
  input  logic [NL-1:0]        req_mask_i,
  input  logic [NL-1:0][2:0]   req_rm_i,      // resolved rounding mode per lane (never DYN)
  input  logic [NL-1:0][31:0]  req_a_i,
  input  logic [NL-1:0][31:0]  req_b_i,
  input  logic [NL-1:0][31:0]  req_c_i,

  output logic                 wb_valid_o,
  output logic [WW-1:0]        wb_warp_o,
  output logic [4:0]           wb_rd_o,
  output logic                 wb_rd_fp_o,
  output logic [NL-1:0]        wb_mask_o,
  output logic [NL-1:0][31:0]  wb_data_o,
  output logic [NL-1:0][4:0]   wb_flags_o
);

  localparam int unsigned DMAX = 50;    // addend alignment clamp (see above)

  typedef struct packed {
    logic              valid;
    fop_e              op;
    logic [WW-1:0]     warp;
    logic [4:0]        rd;
    logic              rd_fp;
    logic [NL-1:0]     mask;
  } ctl_t;

  // stage 1 -> 2, per lane
  typedef struct packed {
    logic              byp;             // res / fl are final
    logic [31:0]       res;
    logic [4:0]        fl;
    logic              sp, sz, sub;     // product sign, addend sign, effective subtraction
    logic [RW-1:0]     pf, za;          // product, aligned addend
    logic signed [11:0] e0;             // exponent of bit 0
    logic [2:0]        rm;
  } s1_t;

  // stage 2 -> 3, per lane
  typedef struct packed {
    logic              byp;
    logic [31:0]       res;
    logic [4:0]        fl;
    logic              sign;
    logic [RW-1:0]     m;
    logic signed [11:0] e0;
    logic [2:0]        rm;
  } s2_t;

  function automatic s1_t stage1(input fop_e op, input logic [31:0] a, input logic [31:0] b,
                                 input logic [31:0] c, input logic [2:0] rm);
    s1_t         o;
    logic [31:0] x, y, z;
    logic        has_z, negp, negz, pzero, zz, sp, sz;
    fp_unp_t     ux, uy, uz;
    logic [47:0] p;
    int          ep, ez, d, dc, pz;
    logic [36:0] fr;
    logic [31:0] mag;
    o     = '0;
    o.rm  = rm;
    o.byp = 1'b1;
    x     = a;
    y     = b;
    z     = c;
    has_z = 1'b1;
    negp  = 1'b0;
    negz  = 1'b0;
    unique case (op)
      FOP_ADD:   begin y = 32'h3F80_0000; z = b; end
      FOP_SUB:   begin y = 32'h3F80_0000; z = b; negz = 1'b1; end
      FOP_MUL:   has_z = 1'b0;
      FOP_MSUB:  negz = 1'b1;
      FOP_NMSUB: negp = 1'b1;
      FOP_NMADD: begin negp = 1'b1; negz = 1'b1; end
      default: ;
    endcase
    ux    = fp_unpack(x);
    uy    = fp_unpack(y);
    uz    = fp_unpack(z);
    sp    = ux.sign ^ uy.sign ^ negp;
    sz    = uz.sign ^ negz;
    pzero = ux.zero || uy.zero;
    zz    = !has_z || uz.zero;
    p     = ux.man * uy.man;
    ep    = int'(ux.exp) + int'(uy.exp) - 46;          // exponent of the product's LSB
    ez    = int'(uz.exp) - 23;                         // exponent of the addend's LSB
    unique case (op)
      FOP_SGNJ, FOP_SGNJN, FOP_SGNJX, FOP_MIN, FOP_MAX, FOP_EQ, FOP_LT, FOP_LE, FOP_CLASS,
      FOP_MVXW, FOP_MVWX: begin
        fr    = fp_misc(op, a, b);
        o.res = fr[31:0];
        o.fl  = fr[36:32];
      end
      FOP_CVTWS, FOP_CVTWUS: begin
        fr    = fp_to_int(a, op == FOP_CVTWUS, rm);
        o.res = fr[31:0];
        o.fl  = fr[36:32];
      end
      FOP_CVTSW, FOP_CVTSWU: begin
        if (a != '0) begin
          o.byp = 1'b0;
          o.sp  = (op == FOP_CVTSW) && a[31];
          mag   = o.sp ? -a : a;
          o.pf  = RW'(mag);
          o.e0  = '0;
        end
      end
      default: begin                                   // the FMA family
        if (ux.nan || uy.nan) begin
          o.res = GC_FP_CANONICAL_NAN;
          if (ux.snan || uy.snan || (has_z && uz.snan)) o.fl = FL_NV;
        end else if ((ux.inf && uy.zero) || (ux.zero && uy.inf)) begin
          o.res = GC_FP_CANONICAL_NAN;
          o.fl  = FL_NV;
        end else if (has_z && uz.nan) begin
          o.res = GC_FP_CANONICAL_NAN;
          if (uz.snan) o.fl = FL_NV;
        end else if ((ux.inf || uy.inf) && has_z && uz.inf && (sp != sz)) begin
          o.res = GC_FP_CANONICAL_NAN;
          o.fl  = FL_NV;
        end else if (ux.inf || uy.inf) begin
          o.res = {sp, 31'h7F80_0000};
        end else if (has_z && uz.inf) begin
          o.res = {sz, 31'h7F80_0000};
        end else if (pzero && zz) begin
          // exact zero: the common sign, else +0 (-0 when rounding down)
          o.res = {(!has_z || sp == sz) ? sp : (rm == GC_FP_RM_RDN), 31'h0};
        end else if (pzero) begin
          o.res = {sz, z[30:0]};                       // 0 x y + z = z exactly
        end else begin
          o.byp = 1'b0;
          o.sp  = sp;
          o.sz  = sz;
          o.pf  = RW'(p) << 2;
          if (zz) begin
            o.e0 = 12'(ep - 2);
          end else begin
            d     = ez - ep;
            dc    = (d > int'(DMAX)) ? int'(DMAX) : d;
            pz    = dc + 2;                            // bit of the addend's LSB in the field
            o.e0  = 12'(ez - dc - 2);
            o.sub = sp ^ sz;
            if (pz >= 0) begin
              o.za = RW'(uz.man) << pz;
            end else if (-pz >= 24) begin
              o.za = RW'(1);                           // all sticky
            end else begin
              o.za = RW'({uz.man >> (-pz)});
              o.za[0] = o.za[0] | ((uz.man & ((24'(1) << (-pz)) - 24'(1))) != '0);
            end
          end
        end
      end
    endcase
    return o;
  endfunction

  function automatic s2_t stage2(input s1_t i);
    s2_t o;
    o.byp  = i.byp;
    o.res  = i.res;
    o.fl   = i.fl;
    o.e0   = i.e0;
    o.rm   = i.rm;
    o.sign = i.sp;
    o.m    = '0;
    if (!i.byp) begin
      if (!i.sub) begin
        o.m = i.pf + i.za;
      end else if (i.pf >= i.za) begin
        o.m = i.pf - i.za;
      end else begin
        o.m    = i.za - i.pf;
        o.sign = i.sz;
      end
      if (o.m == '0) begin                             // exact cancellation
        o.byp = 1'b1;
        o.res = {i.rm == GC_FP_RM_RDN, 31'h0};
        o.fl  = '0;
      end
    end
    return o;
  endfunction

  ctl_t                c0_q, c1_q, c2_q;
  logic [NL-1:0][31:0] a0_q, b0_q, c0op_q;
  logic [NL-1:0][2:0]  rm0_q;
  s1_t  [NL-1:0]       s1_q;
  s2_t  [NL-1:0]       s2_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      c0_q <= '0;
      c1_q <= '0;
      c2_q <= '0;
    end else begin
      c0_q <= '{valid: req_valid_i, op: req_op_i, warp: req_warp_i, rd: req_rd_i,
                rd_fp: req_rd_fp_i, mask: req_mask_i};
      c1_q <= c0_q;
      c2_q <= c1_q;
    end
  end

  // data registers (no reset: qualified by the valid bits); idle stages hold still
  always_ff @(posedge clk_i or negedge rst_ni) begin  // rtl/README.md, "One trigger per clock"
    if (rst_ni) begin
      if (req_valid_i) begin
        a0_q   <= req_a_i;
        b0_q   <= req_b_i;
        c0op_q <= req_c_i;
        rm0_q  <= req_rm_i;
      end
      if (c0_q.valid) for (int l = 0; l < NL; l++) s1_q[l] <= stage1(c0_q.op, a0_q[l], b0_q[l], c0op_q[l], rm0_q[l]);
      if (c1_q.valid) for (int l = 0; l < NL; l++) s2_q[l] <= stage2(s1_q[l]);
    end
  end

  always_comb begin
    logic [36:0] r;
    for (int l = 0; l < NL; l++) begin
      r = '0;
      if (c2_q.valid) begin                            // (skipped while idle: simulation speed)
        r = s2_q[l].byp ? {s2_q[l].fl, s2_q[l].res}
                        : round_pack(s2_q[l].sign, s2_q[l].m, int'(s2_q[l].e0), s2_q[l].rm);
      end
      wb_data_o[l]  = r[31:0];
      wb_flags_o[l] = r[36:32];
    end
  end

  assign wb_valid_o = c2_q.valid;
  assign wb_warp_o  = c2_q.warp;
  assign wb_rd_o    = c2_q.rd;
  assign wb_rd_fp_o = c2_q.rd_fp;
  assign wb_mask_o  = c2_q.mask;

  logic unused_fpu;
  assign unused_fpu = ^{c1_q.op, c2_q.op};

endmodule
