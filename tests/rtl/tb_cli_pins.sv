// tb_cli_pins: a client memory port (gc_axi_pkg's cli_req_t / cli_rsp_t) onto the flat m_* pins
// of a block bench top (ce_tb_top, atomic_tb_top), which the C++ memory model drives.  Wires only.
`include "gc_axi_pins.svh"
module tb_cli_pins
  import gpucosim_pkg::*;
  import gc_axi_pkg::*;
(
  input  cli_req_t m_req_i,   // from the block
  output cli_rsp_t m_rsp_o,
  `GC_CLI_MASTER_PINS
);

  // cli_req_t is packed in this order
  assign {m_awaddr_o, m_awlen_o, m_awvalid_o, m_wdata_o, m_wstrb_o, m_wlast_o, m_wvalid_o, m_bready_o,
          m_araddr_o, m_arlen_o, m_arvalid_o, m_rready_o} = m_req_i;
  assign m_rsp_o = '{aw_ready: m_awready_i, ar_ready: m_arready_i, w_ready: m_wready_i,
                     b_valid: m_bvalid_i, b_resp: m_bresp_i, r_valid: m_rvalid_i,
                     r: '{data: m_rdata_i, resp: m_rresp_i, last: m_rlast_i}};

endmodule
