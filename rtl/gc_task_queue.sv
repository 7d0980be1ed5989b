// gc_task_queue: the compute engine's queue of launched tasks, first in first out.  A launch is
// a TMD address and the channel that launched it.  This module is the seam where the priority
// task table of a later issue (TMU: slots, priority-ordered pending list, eviction) replaces the
// FIFO: gc_compute only pushes launches and pops the next task to run.
module gc_task_queue
  import gpucosim_pkg::*;
#(
  parameter int unsigned DEPTH = 4,                 // power of two
  localparam int unsigned AW   = GC_AXI_ADDR_W,
  localparam int unsigned PW   = (DEPTH > 1) ? $clog2(DEPTH) : 1
) (
  input  logic          clk_i,
  input  logic          rst_ni,

  input  logic          push_valid_i,
  output logic          push_ready_o,
  input  logic [AW-1:0] push_tmd_i,
  input  logic [7:0]    push_ch_i,

  output logic          pop_valid_o,
  input  logic          pop_ready_i,
  output logic [AW-1:0] pop_tmd_o,
  output logic [7:0]    pop_ch_o,

  output logic [PW:0]   count_o
);

  logic [AW-1:0] tmd_q [DEPTH];
  logic [7:0]    ch_q  [DEPTH];
  logic [PW-1:0] rd_q, wr_q;
  logic [PW:0]   cnt_q;

  assign push_ready_o = (cnt_q != (PW + 1)'(DEPTH));
  assign pop_valid_o  = (cnt_q != '0);
  assign pop_tmd_o    = tmd_q[rd_q];
  assign pop_ch_o     = ch_q[rd_q];
  assign count_o      = cnt_q;

  logic push, pop;
  assign push = push_valid_i && push_ready_o;
  assign pop  = pop_valid_o && pop_ready_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rd_q  <= '0;
      wr_q  <= '0;
      cnt_q <= '0;
    end else begin
      if (push) wr_q <= wr_q + PW'(1);
      if (pop)  rd_q <= rd_q + PW'(1);
      cnt_q <= cnt_q + (PW + 1)'(push) - (PW + 1)'(pop);
    end
  end

  always_ff @(posedge clk_i) begin
    if (push) begin
      tmd_q[wr_q] <= push_tmd_i;
      ch_q[wr_q]  <= push_ch_i;
    end
  end

endmodule
