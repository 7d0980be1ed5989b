// gc_idle_gate: clock gating of one whole engine while it is idle (gpu_top: the PBDMAs, the copy
// engines, the compute engine with its SMs).
//
// busy_i is the engine's "cannot stop now" condition, computed by the parent each cycle from the
// engine's outputs and inputs: not in its idle state, work or a response waiting for it, a pulse
// on one of its outputs, a write on the register bus. The gated clock clk_o runs in every cycle
// where busy_i is 1 and for HOLD more cycles after busy_i fell (so that a state machine that
// settles through a few internal steps without showing them reaches its idle state first), then
// stops until busy_i rises again: the engine is clocked again in the very cycle its first
// doorbell, copy command, launch or memory response shows on busy_i (combinationally, through
// the ICG's latch), so a gated engine sees every input change on the same edge as an ungated one.
// The gating is exact when, in every cycle the clock is stopped, no register of the engine would
// change; gpu_top's comment on each busy_i says why that holds.
//
// gated_o (1 while the clock is stopped) is for waveforms and the debug counters.
module gc_idle_gate #(
  parameter int unsigned HOLD = 8   // ungated cycles after busy_i falls (>= 1)
) (
  input  logic clk_i,
  input  logic rst_ni,
  input  logic busy_i,
  output logic clk_o,
  output logic gated_o
);

  localparam int unsigned CW = $clog2(HOLD + 1);

  logic [CW-1:0] quiet_q, quiet_d;   // consecutive cycles with busy_i low (saturates at HOLD)
  logic          en;

  assign quiet_d = busy_i ? '0 : ((quiet_q == CW'(HOLD)) ? quiet_q : quiet_q + CW'(1));
  assign en      = busy_i || (quiet_q != CW'(HOLD)) || !rst_ni;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) quiet_q <= '0;
    else         quiet_q <= quiet_d;
  end

  gc_clock_gate u_icg (
    .clk_i,
    .en_i      (en),
    .test_en_i (1'b0),
    .clk_o
  );

  assign gated_o = !en;

endmodule
