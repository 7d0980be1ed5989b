// gc_axil_pins: the one conversion between gc_axi_pkg's AXI4-Lite structs and the flat s_* pins
// of gpu_top's BAR0 slave.  Wires only.
`include "gc_axi_pins.svh"
module gc_axil_pins
  import gpucosim_pkg::*;
  import gc_axi_pkg::*;
(
  output lite_req_t s_req_o,  // to the register block
  input  lite_rsp_t s_rsp_i,
  `GC_AXIL_SLAVE_PINS
);

  assign s_req_o = '{aw_addr: s_awaddr_i, aw_valid: s_awvalid_i,
                     w: '{data: s_wdata_i, strb: s_wstrb_i}, w_valid: s_wvalid_i, b_ready: s_bready_i,
                     ar_addr: s_araddr_i, ar_valid: s_arvalid_i, r_ready: s_rready_i};
  assign {s_awready_o, s_wready_o, s_bresp_o, s_bvalid_o, s_arready_o, s_rdata_o, s_rresp_o, s_rvalid_o} =
      s_rsp_i;   // packed in this order

endmodule
