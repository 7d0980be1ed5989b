// gc_sm_div: the SM's divider: DIV, DIVU, REM, REMU of one warp instruction, all lanes in
// lockstep, one quotient bit per cycle (radix-2 restoring division on magnitudes).
//
//   req (accepted only when idle: req_ready_o) -> 32 iteration cycles -> 1 cycle sign fix-up ->
//   wb_valid_o pulses with the results (34 cycles from the request).
//
// RISC-V M semantics: division by zero gives quotient all ones (DIV: -1 whatever the signs) and
// remainder = dividend; signed overflow (-2^31 / -1) gives quotient -2^31 and remainder 0.  The
// magnitude datapath produces both without special cases except the signed quotient by zero,
// whose sign must not be fixed up.
module gc_sm_div
  import gc_simt_pkg::*;
#(
  parameter int unsigned NL = 8,       // lanes
  parameter int unsigned WW = 2        // warp index width
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,

  input  logic                 req_valid_i,
  output logic                 req_ready_o,
  input  logic [WW-1:0]        req_warp_i,
  input  logic [4:0]           req_rd_i,
  input  logic [NL-1:0]        req_mask_i,
  input  logic [2:0]           req_f3_i,     // F3_XOR (DIV), F3_SR (DIVU), F3_OR (REM), F3_AND (REMU)
  input  logic [NL-1:0][31:0]  req_a_i,
  input  logic [NL-1:0][31:0]  req_b_i,

  output logic                 wb_valid_o,
  output logic [WW-1:0]        wb_warp_o,
  output logic [4:0]           wb_rd_o,
  output logic [NL-1:0]        wb_mask_o,
  output logic [NL-1:0][31:0]  wb_data_o
);

  typedef enum logic [1:0] {
    DIV_IDLE = 2'd0,
    DIV_ITER = 2'd1,
    DIV_FIX  = 2'd2
  } div_state_e;

  div_state_e           state_q;
  logic [4:0]           cnt_q;
  logic [WW-1:0]        warp_q;
  logic [4:0]           rd_q;
  logic [NL-1:0]        mask_q;
  logic                 sgn_q, rem_q;      // signed op, remainder wanted
  logic [NL-1:0]        neg_a_q, zero_b_q, negq_q;
  logic [NL-1:0][31:0]  q_q, b_q;          // quotient (starts as |a|), |b|
  logic [NL-1:0][32:0]  r_q;               // partial remainder
  logic                 wb_valid_q;
  logic [NL-1:0][31:0]  wb_data_q;

  assign req_ready_o = (state_q == DIV_IDLE);

  // One restoring step per lane
  logic [NL-1:0][32:0] r_sh;
  logic [NL-1:0]       ge;
  always_comb begin
    r_sh = '0;
    ge   = '0;
    if (state_q == DIV_ITER) begin   // (skipped while idle: simulation speed)
      for (int l = 0; l < NL; l++) begin
        r_sh[l] = {r_q[l][31:0], q_q[l][31]};
        ge[l]   = (r_sh[l] >= {1'b0, b_q[l]});
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q    <= DIV_IDLE;
      cnt_q      <= '0;
      warp_q     <= '0;
      rd_q       <= '0;
      mask_q     <= '0;
      sgn_q      <= 1'b0;
      rem_q      <= 1'b0;
      neg_a_q    <= '0;
      zero_b_q   <= '0;
      negq_q     <= '0;
      q_q        <= '0;
      b_q        <= '0;
      r_q        <= '0;
      wb_valid_q <= 1'b0;
      wb_data_q  <= '0;
    end else begin
      wb_valid_q <= 1'b0;
      unique case (state_q)
        DIV_IDLE: if (req_valid_i) begin
          logic sgn;
          sgn = (req_f3_i == F3_XOR) || (req_f3_i == F3_OR);   // DIV, REM
          state_q <= DIV_ITER;
          cnt_q   <= '0;
          warp_q  <= req_warp_i;
          rd_q    <= req_rd_i;
          mask_q  <= req_mask_i;
          sgn_q   <= sgn;
          rem_q   <= req_f3_i[1];                              // REM, REMU
          for (int l = 0; l < NL; l++) begin
            logic na, nb;
            na = sgn && req_a_i[l][31];
            nb = sgn && req_b_i[l][31];
            neg_a_q[l]  <= na;
            zero_b_q[l] <= (req_b_i[l] == '0);
            negq_q[l]   <= na ^ nb;
            q_q[l]      <= na ? -req_a_i[l] : req_a_i[l];
            b_q[l]      <= nb ? -req_b_i[l] : req_b_i[l];
            r_q[l]      <= '0;
          end
        end
        DIV_ITER: begin
          for (int l = 0; l < NL; l++) begin
            r_q[l] <= ge[l] ? (r_sh[l] - {1'b0, b_q[l]}) : r_sh[l];
            q_q[l] <= {q_q[l][30:0], ge[l]};
          end
          cnt_q <= cnt_q + 5'd1;
          if (cnt_q == 5'd31) state_q <= DIV_FIX;
        end
        DIV_FIX: begin
          for (int l = 0; l < NL; l++) begin
            if (rem_q) begin
              wb_data_q[l] <= neg_a_q[l] ? -r_q[l][31:0] : r_q[l][31:0];
            end else begin
              wb_data_q[l] <= (negq_q[l] && !zero_b_q[l]) ? -q_q[l] : q_q[l];
            end
          end
          wb_valid_q <= 1'b1;
          state_q    <= DIV_IDLE;
        end
        default: state_q <= DIV_IDLE;
      endcase
    end
  end

  assign wb_valid_o = wb_valid_q;
  assign wb_warp_o  = warp_q;
  assign wb_rd_o    = rd_q;
  assign wb_mask_o  = mask_q;
  assign wb_data_o  = wb_data_q;

  logic unused_div;
  assign unused_div = sgn_q;

endmodule
