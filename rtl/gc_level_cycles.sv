// gc_level_cycles: N counters of "cycles with level_i[i] = 1", kept as timestamps instead of
// per-cycle increments (gc_mmio_regs: CHANNEL.CYCLES_RESIDENT, ACQ_BLOCKED_CYCLES and the
// *.GATED_CYCLES counters).
//
// Only the edges of level_i write state: when level_i[i] rises, start_q[i] takes the cycle count
// now_i; when it falls, acc_q[i] adds now_i - start_q[i]. A read of counter rd_idx_i returns
// acc_q + (now_i - start_q) while the level is still 1, i.e. exactly the count a counter that
// added level_i[i] at every clock edge would hold in that cycle (modulo 2^32: both wrap). Nothing
// is evaluated per counter and per cycle, and a stretch in which the counted condition lasts (or
// the engine that drives it is clock-gated) costs nothing.
//
// now_i must advance by one at every edge of clk_i (GLOBAL.CYCLE).
module gc_level_cycles #(
  parameter int unsigned N    = 1,
  localparam int unsigned IW  = (N > 1) ? $clog2(N) : 1
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  input  logic [31:0]   now_i,        // free-running cycle count (low 32 bits)
  input  logic [N-1:0]  level_i,
  input  logic [IW-1:0] rd_idx_i,
  output logic [31:0]   rd_cycles_o   // cycles level_i[rd_idx_i] was 1 before this one (wraps)
);

  logic [N-1:0] prev_q;               // level_i one cycle ago
  logic [31:0]  acc_q   [N];          // cycles of the finished stretches
  logic [31:0]  start_q [N];          // now_i when the current stretch began

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      prev_q <= '0;
      for (int i = 0; i < N; i++) begin
        acc_q[i]   <= '0;
        start_q[i] <= '0;
      end
    end else if (level_i != prev_q) begin
      prev_q <= level_i;
      for (int i = 0; i < N; i++) begin
        if (level_i[i] && !prev_q[i]) start_q[i] <= now_i;
        if (!level_i[i] && prev_q[i]) acc_q[i] <= acc_q[i] + (now_i - start_q[i]);
      end
    end
  end

  assign rd_cycles_o = acc_q[rd_idx_i] + (prev_q[rd_idx_i] ? now_i - start_q[rd_idx_i] : 32'd0);

endmodule
