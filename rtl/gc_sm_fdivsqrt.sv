// gc_sm_fdivsqrt: the SM's single-precision divider and square root (FDIV.S, FSQRT.S) for all
// lanes of one warp instruction in lockstep, one result bit per cycle (radix 2, restoring, on the
// normalised 24-bit significands).
//
//   req (accepted only when idle: req_ready_o) -> 27 iteration cycles -> 1 rounding cycle ->
//   wb_valid_o pulses with the results and their flags (29 cycles from the request).
//
// Division: Q = floor(ma x 2^26 / mb) (26 or 27 bits) and the remainder's sticky bit; square
// root: the operand's significand, shifted so that its exponent is even, times 2^28, and its
// integer square root (26 or 27 bits) with the remainder's sticky bit.  Either way {Q, sticky}
// is rounded once by gc_fp_pkg::round_pack (subnormal results in hardware).  Special operands
// (NaN: canonical NaN, NV for an sNaN; 0 / 0 and inf / inf: NV; finite / 0: infinity and DZ;
// sqrt of a negative number: NV; sqrt(-0) = -0) are resolved when the request is taken.
module gc_sm_fdivsqrt
  import gpucosim_pkg::*;
  import gc_fp_pkg::*;
#(
  parameter int unsigned NL = 8,
  parameter int unsigned WW = 2
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,

  input  logic                 req_valid_i,
  output logic                 req_ready_o,
  input  logic                 req_sqrt_i,    // FSQRT (else FDIV)
  input  logic [WW-1:0]        req_warp_i,
  input  logic [4:0]           req_rd_i,
  input  logic [NL-1:0]        req_mask_i,
  input  logic [NL-1:0][2:0]   req_rm_i,
  input  logic [NL-1:0][31:0]  req_a_i,
  input  logic [NL-1:0][31:0]  req_b_i,

  output logic                 wb_valid_o,
  output logic [WW-1:0]        wb_warp_o,
  output logic [4:0]           wb_rd_o,
  output logic [NL-1:0]        wb_mask_o,
  output logic [NL-1:0][31:0]  wb_data_o,
  output logic [NL-1:0][4:0]   wb_flags_o
);

  localparam int unsigned ITER = 27;

  typedef enum logic [1:0] {
    DS_IDLE = 2'd0,
    DS_ITER = 2'd1,
    DS_RND  = 2'd2
  } ds_state_e;

  typedef struct packed {
    logic               byp;            // res / fl are final (special operand)
    logic [31:0]        res;
    logic [4:0]         fl;
    logic               sign;
    logic signed [11:0] e0;             // exponent of bit 0 of {q, sticky}
    logic [2:0]         rm;
    logic [23:0]        mb;             // divisor significand
    logic [31:0]        rem;            // partial remainder
    logic [53:0]        x;              // sqrt: radicand bits still to bring down
    logic [26:0]        q;              // quotient / root bits so far
  } lane_t;

  ds_state_e     state_q;
  logic [4:0]    cnt_q;
  logic          sqrt_q;
  logic [WW-1:0] warp_q;
  logic [4:0]    rd_q;
  logic [NL-1:0] mask_q;
  lane_t [NL-1:0] ln_q;
  logic          wb_valid_q;
  logic [NL-1:0][31:0] wb_data_q;
  logic [NL-1:0][4:0]  wb_flags_q;

  assign req_ready_o = (state_q == DS_IDLE);

  function automatic lane_t setup(input logic sq, input logic [31:0] a, input logic [31:0] b,
                                  input logic [2:0] rm);
    lane_t   o;
    fp_unp_t ua, ub;
    int      e2;
    logic [24:0] m2;
    ua    = fp_unpack(a);
    ub    = fp_unpack(b);
    o     = '0;
    o.rm  = rm;
    o.byp = 1'b1;
    if (sq) begin
      o.sign = 1'b0;
      if (ua.nan) begin
        o.res = GC_FP_CANONICAL_NAN;
        if (ua.snan) o.fl = FL_NV;
      end else if (ua.zero) begin
        o.res = a;                                   // sqrt(+-0) = +-0
      end else if (ua.sign) begin
        o.res = GC_FP_CANONICAL_NAN;
        o.fl  = FL_NV;
      end else if (ua.inf) begin
        o.res = 32'h7F80_0000;
      end else begin
        o.byp = 1'b0;
        e2    = int'(ua.exp) - 23;                   // a = man x 2^e2
        m2    = {1'b0, ua.man};
        if (e2 % 2 != 0) begin
          m2 = {ua.man, 1'b0};
          e2 = e2 - 1;
        end
        o.x   = 54'(m2) << 28;
        o.e0  = 12'((e2 - 28) / 2 - 1);
      end
    end else begin
      o.sign = ua.sign ^ ub.sign;
      if (ua.nan || ub.nan) begin
        o.res = GC_FP_CANONICAL_NAN;
        if (ua.snan || ub.snan) o.fl = FL_NV;
      end else if ((ua.inf && ub.inf) || (ua.zero && ub.zero)) begin
        o.res = GC_FP_CANONICAL_NAN;
        o.fl  = FL_NV;
      end else if (ua.inf) begin
        o.res = {o.sign, 31'h7F80_0000};
      end else if (ub.zero) begin
        o.res = {o.sign, 31'h7F80_0000};
        o.fl  = FL_DZ;
      end else if (ua.zero || ub.inf) begin
        o.res = {o.sign, 31'h0};
      end else begin
        o.byp = 1'b0;
        o.rem = 32'(ua.man);
        o.mb  = ub.man;
        o.e0  = 12'(int'(ua.exp) - int'(ub.exp) - 27);
      end
    end
    return o;
  endfunction

  // one quotient / root bit
  function automatic lane_t step(input logic sq, input lane_t i);
    lane_t       o;
    logic [31:0] r, t;
    o = i;
    if (sq) begin
      r   = {i.rem[29:0], i.x[53:52]};
      t   = {3'b000, i.q, 2'b01};
      o.x = i.x << 2;
      if (r >= t) begin
        o.rem = r - t;
        o.q   = {i.q[25:0], 1'b1};
      end else begin
        o.rem = r;
        o.q   = {i.q[25:0], 1'b0};
      end
    end else begin
      if (i.rem >= 32'(i.mb)) begin
        o.rem = (i.rem - 32'(i.mb)) << 1;
        o.q   = {i.q[25:0], 1'b1};
      end else begin
        o.rem = i.rem << 1;
        o.q   = {i.q[25:0], 1'b0};
      end
    end
    return o;
  endfunction

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q    <= DS_IDLE;
      cnt_q      <= '0;
      sqrt_q     <= 1'b0;
      warp_q     <= '0;
      rd_q       <= '0;
      mask_q     <= '0;
      wb_valid_q <= 1'b0;
    end else begin
      wb_valid_q <= 1'b0;
      unique case (state_q)
        DS_IDLE: if (req_valid_i) begin
          state_q <= DS_ITER;
          cnt_q   <= '0;
          sqrt_q  <= req_sqrt_i;
          warp_q  <= req_warp_i;
          rd_q    <= req_rd_i;
          mask_q  <= req_mask_i;
        end
        DS_ITER: begin
          cnt_q <= cnt_q + 5'd1;
          if (32'(cnt_q) == ITER - 1) state_q <= DS_RND;
        end
        DS_RND: begin
          wb_valid_q <= 1'b1;
          state_q    <= DS_IDLE;
        end
        default: state_q <= DS_IDLE;
      endcase
    end
  end

  // lane state and results (no reset: qualified by the state)
  always_ff @(posedge clk_i or negedge rst_ni) begin  // rtl/README.md, "One trigger per clock"
    if (rst_ni) begin
      if (state_q == DS_IDLE && req_valid_i) begin
        for (int l = 0; l < NL; l++) ln_q[l] <= setup(req_sqrt_i, req_a_i[l], req_b_i[l], req_rm_i[l]);
      end
      if (state_q == DS_ITER) begin
        for (int l = 0; l < NL; l++) ln_q[l] <= step(sqrt_q, ln_q[l]);
      end
      if (state_q == DS_RND) begin
        for (int l = 0; l < NL; l++) begin
          logic [36:0] r;
          r = ln_q[l].byp ? {ln_q[l].fl, ln_q[l].res}
                          : round_pack(ln_q[l].sign, RW'({ln_q[l].q, ln_q[l].rem != '0}),
                                       int'(ln_q[l].e0), ln_q[l].rm);
          wb_data_q[l]  <= r[31:0];
          wb_flags_q[l] <= r[36:32];
        end
      end
    end
  end

  assign wb_valid_o = wb_valid_q;
  assign wb_warp_o  = warp_q;
  assign wb_rd_o    = rd_q;
  assign wb_mask_o  = mask_q;
  assign wb_data_o  = wb_data_q;
  assign wb_flags_o = wb_flags_q;

endmodule
