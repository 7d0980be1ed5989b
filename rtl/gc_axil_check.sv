// gc_axil_check: AXI4-Lite protocol checker for gpu_top's BAR0 slave port (simulation only; all
// ports are inputs), from the macros of gc_assert.svh. Rules (AMBA AXI4-Lite): on AW, W, B, AR
// and R valid is held until ready and the payload is stable while it waits; a B answers an
// accepted AW and W pair, an R an accepted AR (at most OUT_MAX of each outstanding).
`include "gc_assert.svh"

module gc_axil_check #(
  parameter int unsigned AW      = 16,
  parameter int unsigned OUT_MAX = 15
) (
  input logic          clk_i,
  input logic          rst_ni,
  input logic          awvalid_i,
  input logic          awready_i,
  input logic [AW-1:0] awaddr_i,
  input logic          wvalid_i,
  input logic          wready_i,
  input logic [31:0]   wdata_i,
  input logic [3:0]    wstrb_i,
  input logic          bvalid_i,
  input logic          bready_i,
  input logic [1:0]    bresp_i,
  input logic          arvalid_i,
  input logic          arready_i,
  input logic [AW-1:0] araddr_i,
  input logic          rvalid_i,
  input logic          rready_i,
  input logic [31:0]   rdata_i,
  input logic [1:0]    rresp_i
);

`ifndef GC_ASSERT_OFF
  `GC_ASSERT_CYCLE(clk_i, rst_ni)

  `GC_ASSERT_STABLE(aw, awvalid_i, awready_i, awaddr_i, clk_i, rst_ni)
  `GC_ASSERT_STABLE(w, wvalid_i, wready_i, {wdata_i, wstrb_i}, clk_i, rst_ni)
  `GC_ASSERT_STABLE(b, bvalid_i, bready_i, bresp_i, clk_i, rst_ni)
  `GC_ASSERT_STABLE(ar, arvalid_i, arready_i, araddr_i, clk_i, rst_ni)
  `GC_ASSERT_STABLE(r, rvalid_i, rready_i, {rdata_i, rresp_i}, clk_i, rst_ni)

  // accepted addresses / data not yet answered (AW and W may come in either order)
  logic [4:0] aw_n_q, w_n_q, ar_n_q;
  logic       aw_hs, w_hs, b_hs, ar_hs, r_hs;
  assign aw_hs = awvalid_i && awready_i;
  assign w_hs  = wvalid_i && wready_i;
  assign b_hs  = bvalid_i && bready_i;
  assign ar_hs = arvalid_i && arready_i;
  assign r_hs  = rvalid_i && rready_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      aw_n_q <= '0; w_n_q <= '0; ar_n_q <= '0;
    end else begin
      aw_n_q <= aw_n_q + 5'(aw_hs) - 5'(b_hs && aw_n_q != 0);
      w_n_q  <= w_n_q + 5'(w_hs) - 5'(b_hs && w_n_q != 0);
      ar_n_q <= ar_n_q + 5'(ar_hs) - 5'(r_hs && ar_n_q != 0);
    end
  end

  `GC_ASSERT(b_unexp, !b_hs || (aw_n_q != 0 && w_n_q != 0), clk_i, rst_ni,
             "BVALID with no AW and W accepted and unanswered")
  `GC_ASSERT(r_unexp, !r_hs || ar_n_q != 0, clk_i, rst_ni, "RVALID with no AR accepted and unanswered")
  `GC_ASSERT(depth, int'(aw_n_q) <= int'(OUT_MAX) && int'(w_n_q) <= int'(OUT_MAX) &&
             int'(ar_n_q) <= int'(OUT_MAX), clk_i, rst_ni, "more than OUT_MAX requests outstanding (checker limit)")
`endif

endmodule
