// ce_tb_top: block-test wrapper for gc_copy_engine (the engine alone; its client memory port
// and its atomic-unit request port exposed for the C++ models of tests/rtl/ce_tb.cpp).
`include "gc_axi_pins.svh"
`include "gc_axi_check.svh"

module ce_tb_top
  import gpucosim_pkg::*;
  import gc_axi_pkg::*;
#(
  parameter int unsigned RING_BYTES = 2048,
  parameter int unsigned RD_OUT_MAX = 12
) (
  input  logic                                  clk_i,
  input  logic                                  rst_ni,
  input  logic                                  cmd_valid_i,
  output logic                                  cmd_ready_o,
  input  logic [GC_ENGINE_DBG_CHANNEL_W-1:0] cmd_ch_i,
  input  logic [GC_AXI_ADDR_W-1:0]              cmd_src_i,
  input  logic [GC_AXI_ADDR_W-1:0]              cmd_dst_i,
  input  logic [31:0]                           cmd_line_len_i,
  input  logic [31:0]                           cmd_line_count_i,
  input  logic [31:0]                           cmd_pitch_in_i,
  input  logic [31:0]                           cmd_pitch_out_i,
  input  logic                                  cmd_copy_i,
  input  logic                                  cmd_remap_i,
  input  logic [31:0]                           cmd_const_a_i,
  input  logic [31:0]                           cmd_const_b_i,
  input  logic [31:0]                           cmd_components_i,
  input  logic                                  cmd_sem_i,
  input  logic                                  cmd_sem_four_i,
  input  logic [GC_AXI_ADDR_W-1:0]              cmd_sem_addr_i,
  input  logic [31:0]                           cmd_sem_payload_i,
  input  logic                                  cmd_sem_reduce_i,
  input  logic [3:0]                            cmd_sem_red_i,
  input  logic                                  cmd_sem_signed_i,
  input  logic                                  cmd_intr_i,
  input  logic [31:0]                           cycle_i,
  output logic                                  done_o,
  output logic                                  done_err_o,
  output logic                                  intr_o,
  output logic [GC_ENGINE_DBG_STATE_W-1:0]   state_o,
  output logic [GC_ENGINE_DBG_RD_OUT_W-1:0]  rd_out_o,
  output logic [GC_ENGINE_DBG_CHANNEL_W-1:0] ch_o,
  output logic [31:0]                           bytes_o,
  output logic [31:0]                           busy_cycles_o,
  output logic                                  aq_valid_o,
  input  logic                                  aq_ready_i,
  output logic [1:0]                            aq_op_o,
  output logic [3:0]                            aq_red_o,
  output logic                                  aq_signed_o,
  output logic [1:0]                            aq_size_o,
  output logic [GC_AXI_ADDR_W-1:0]              aq_addr_o,
  output logic [GC_AXI_DATA_W-1:0]              aq_wdata_o,
  input  logic                                  as_valid_i,
  input  logic [GC_AXI_DATA_W-1:0]              as_rdata_i,
  input  logic                                  as_err_i,
  `GC_CLI_MASTER_PINS
);

  cli_req_t m_req;
  cli_rsp_t m_rsp;
  tb_cli_pins u_pins (.m_req_i (m_req), .m_rsp_o (m_rsp), .*);

  gc_copy_engine #(
    .RING_BYTES (RING_BYTES),
    .RD_OUT_MAX (RD_OUT_MAX)
  ) u_ce (
    .clk_i, .rst_ni,
    .cmd_valid_i, .cmd_ready_o, .cmd_ch_i, .cmd_src_i, .cmd_dst_i,
    .cmd_line_len_i, .cmd_line_count_i, .cmd_pitch_in_i, .cmd_pitch_out_i,
    .cmd_copy_i, .cmd_remap_i, .cmd_const_a_i, .cmd_const_b_i, .cmd_components_i,
    .cmd_sem_i, .cmd_sem_four_i, .cmd_sem_addr_i, .cmd_sem_payload_i,
    .cmd_sem_reduce_i, .cmd_sem_red_i, .cmd_sem_signed_i, .cmd_intr_i, .cycle_i,
    .done_o, .done_err_o, .intr_o, .state_o, .rd_out_o, .ch_o, .bytes_o, .busy_cycles_o,
    .aq_valid_o, .aq_ready_i, .aq_op_o, .aq_red_o, .aq_signed_o, .aq_size_o, .aq_addr_o,
    .aq_wdata_o, .as_valid_i, .as_rdata_i, .as_err_i,
    .m_req_o (m_req),
    .m_rsp_i (m_rsp)
  );

  // AXI protocol checker on the engine's memory port (no IDs) (rtl/gc_axi_check.sv)
  `GC_AXI_CHECK_CLIENT(u_axi_check)

endmodule
