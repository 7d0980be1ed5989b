// gc_axi_pins: the one conversion between gc_axi_pkg's AXI4 structs and the flat m_* pins of the
// harness boundary (gpu_top, and the bench tops that expose the memory master).  Wires only.
`include "gc_axi_pins.svh"
module gc_axi_pins
  import gpucosim_pkg::*;
  import gc_axi_pkg::*;
(
  input  axi_req_t m_req_i,   // from the crossbar
  output axi_rsp_t m_rsp_o,
  `GC_AXI_MASTER_PINS
);

  // the structs are packed in pin order: each channel is one concatenation
  assign {m_awid_o, m_awaddr_o, m_awlen_o, m_awsize_o, m_awburst_o} = m_req_i.aw;
  assign {m_arid_o, m_araddr_o, m_arlen_o, m_arsize_o, m_arburst_o} = m_req_i.ar;
  assign {m_wdata_o, m_wstrb_o, m_wlast_o}                          = m_req_i.w;
  assign {m_awvalid_o, m_wvalid_o, m_bready_o, m_arvalid_o, m_rready_o} =
      {m_req_i.aw_valid, m_req_i.w_valid, m_req_i.b_ready, m_req_i.ar_valid, m_req_i.r_ready};
  assign m_rsp_o = '{aw_ready: m_awready_i, ar_ready: m_arready_i, w_ready: m_wready_i,
                     b_valid: m_bvalid_i, b: '{id: m_bid_i, resp: m_bresp_i}, r_valid: m_rvalid_i,
                     r: '{id: m_rid_i, data: m_rdata_i, resp: m_rresp_i, last: m_rlast_i}};

endmodule
