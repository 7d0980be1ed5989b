// ce_tb_top: block-test wrapper for gc_copy_engine (the engine alone; its client memory port
// and its atomic-unit request port exposed for the C++ models of tests/rtl/ce_tb.cpp).
`include "gc_axi_pins.svh"
`include "gc_axi_check.svh"
`include "tb_eng_pins.svh"

module ce_tb_top
  import gpucosim_pkg::*;
  import gc_axi_pkg::*;
  import gc_eng_pkg::*;
#(
  parameter int unsigned RING_BYTES = 2048,
  parameter int unsigned RD_OUT_MAX = 12
) (
  input  logic                                  clk_i,
  input  logic                                  rst_ni,
  `TB_ENG_CMD_PINS,                     // gc_eng_pkg's ports as flat pins (tb_eng_pins)
  input  logic [31:0]                           cycle_i,
  output logic                                  intr_o,
  output logic [GC_ENGINE_DBG_STATE_W-1:0]   state_o,
  output logic [GC_ENGINE_DBG_RD_OUT_W-1:0]  rd_out_o,
  output logic [GC_ENGINE_DBG_CHANNEL_W-1:0] ch_o,
  output logic [31:0]                           bytes_o,
  output logic [31:0]                           busy_cycles_o,
  `TB_AQ_PINS,
  `GC_CLI_MASTER_PINS
);

  cli_req_t m_req;
  cli_rsp_t m_rsp;
  eng_req_t eng_req;
  eng_rsp_t eng_rsp;
  aq_req_t  aq_req;
  aq_rsp_t  aq_rsp;
  tb_cli_pins u_pins (.m_req_i (m_req), .m_rsp_o (m_rsp), .*);
  tb_eng_pins u_eng_pins (.eng_req_o (eng_req), .eng_rsp_i (eng_rsp), .aq_req_i (aq_req),
                          .aq_rsp_o (aq_rsp), .*);

  gc_copy_engine #(
    .RING_BYTES (RING_BYTES),
    .RD_OUT_MAX (RD_OUT_MAX)
  ) u_ce (
    .clk_i, .rst_ni,
    .eng_req_i (eng_req), .eng_rsp_o (eng_rsp), .cycle_i,
    .intr_o, .state_o, .rd_out_o, .ch_o, .bytes_o, .busy_cycles_o,
    .aq_req_o (aq_req), .aq_rsp_i (aq_rsp),
    .m_req_o (m_req),
    .m_rsp_i (m_rsp)
  );

  // AXI protocol checker on the engine's memory port (no IDs) (rtl/gc_axi_check.sv)
  `GC_AXI_CHECK_CLIENT(u_axi_check)

endmodule
