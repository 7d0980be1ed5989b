// gc_clock_gate: an integrated clock-gating cell (ICG), the latch-based glitch-free form of
// standard-cell libraries and of lowRISC's prim_clock_gating.
//
// The enable is sampled by a latch that is transparent while clk_i is low, so it settles during
// the low phase and cannot change while clk_i is high: clk_o = clk_i & en_latch has no glitch and
// no shortened pulse, whatever en_i does within the cycle. A cycle's rising edge reaches clk_o
// exactly when en_i (or test_en_i) was 1 at the end of the low phase before it.
//
// Under Verilator 5 the logic clocked by clk_o is not evaluated in a cycle where clk_o does not
// rise; gpu_top uses this to stop whole idle engines (gc_idle_gate). A flop-sampled enable would
// also work, but costs more per cycle in simulation and is not what hardware uses
// (/work/shared/notes/clock-gating: a measurement of both under Verilator 5.006).
module gc_clock_gate (
  input  logic clk_i,
  input  logic en_i,       // the next rising edge of clk_i passes
  input  logic test_en_i,  // scan / test: the clock always passes
  output logic clk_o
);

  logic en_latch;

  always_latch begin
    if (!clk_i) en_latch = en_i | test_en_i;
  end

  assign clk_o = clk_i & en_latch;

endmodule
