// xbar_tb_top: block-test wrapper for gc_mem_xbar with N = 3 clients (tests/rtl/xbar_tb.cpp
// drives the three client ports and models the AXI4 memory on the master side).
`include "gc_axi_check.svh"

module xbar_tb_top
  import gpucosim_pkg::*;
#(
  parameter int unsigned N = 3
) (
  input  logic                                  clk_i,
  input  logic                                  rst_ni,
  input  logic [N-1:0]                          c_arvalid_i,
  output logic [N-1:0]                          c_arready_o,
  input  logic [N-1:0][GC_AXI_ADDR_W-1:0]       c_araddr_i,
  input  logic [N-1:0][7:0]                     c_arlen_i,
  output logic [N-1:0]                          c_rvalid_o,
  input  logic [N-1:0]                          c_rready_i,
  output logic [GC_AXI_DATA_W-1:0]              c_rdata_o,
  output logic [1:0]                            c_rresp_o,
  output logic                                  c_rlast_o,
  input  logic [N-1:0]                          c_awvalid_i,
  output logic [N-1:0]                          c_awready_o,
  input  logic [N-1:0][GC_AXI_ADDR_W-1:0]       c_awaddr_i,
  input  logic [N-1:0][7:0]                     c_awlen_i,
  input  logic [N-1:0]                          c_wvalid_i,
  output logic [N-1:0]                          c_wready_o,
  input  logic [N-1:0][GC_AXI_DATA_W-1:0]       c_wdata_i,
  input  logic [N-1:0][GC_AXI_DATA_W/8-1:0]     c_wstrb_i,
  input  logic [N-1:0]                          c_wlast_i,
  output logic [N-1:0]                          c_bvalid_o,
  input  logic [N-1:0]                          c_bready_i,
  output logic [1:0]                            c_bresp_o,
  output logic                                  m_awvalid_o,
  input  logic                                  m_awready_i,
  output logic [GC_AXI_ID_W-1:0]                m_awid_o,
  output logic [GC_AXI_ADDR_W-1:0]              m_awaddr_o,
  output logic [7:0]                            m_awlen_o,
  output logic [2:0]                            m_awsize_o,
  output logic [1:0]                            m_awburst_o,
  output logic                                  m_wvalid_o,
  input  logic                                  m_wready_i,
  output logic [GC_AXI_DATA_W-1:0]              m_wdata_o,
  output logic [GC_AXI_DATA_W/8-1:0]            m_wstrb_o,
  output logic                                  m_wlast_o,
  input  logic                                  m_bvalid_i,
  output logic                                  m_bready_o,
  input  logic [GC_AXI_ID_W-1:0]                m_bid_i,
  input  logic [1:0]                            m_bresp_i,
  output logic                                  m_arvalid_o,
  input  logic                                  m_arready_i,
  output logic [GC_AXI_ID_W-1:0]                m_arid_o,
  output logic [GC_AXI_ADDR_W-1:0]              m_araddr_o,
  output logic [7:0]                            m_arlen_o,
  output logic [2:0]                            m_arsize_o,
  output logic [1:0]                            m_arburst_o,
  input  logic                                  m_rvalid_i,
  output logic                                  m_rready_o,
  input  logic [GC_AXI_ID_W-1:0]                m_rid_i,
  input  logic [GC_AXI_DATA_W-1:0]              m_rdata_i,
  input  logic [1:0]                            m_rresp_i,
  input  logic                                  m_rlast_i
);

  gc_mem_xbar #(.N(N)) u_xbar (
    .clk_i, .rst_ni,
    .c_arvalid_i, .c_arready_o, .c_araddr_i, .c_arlen_i,
    .c_rvalid_o, .c_rready_i, .c_rdata_o, .c_rresp_o, .c_rlast_o,
    .c_awvalid_i, .c_awready_o, .c_awaddr_i, .c_awlen_i,
    .c_wvalid_i, .c_wready_o, .c_wdata_i, .c_wstrb_i, .c_wlast_i,
    .c_bvalid_o, .c_bready_i, .c_bresp_o,
    .m_awvalid_o, .m_awready_i, .m_awid_o, .m_awaddr_o, .m_awlen_o, .m_awsize_o, .m_awburst_o,
    .m_wvalid_o, .m_wready_i, .m_wdata_o, .m_wstrb_o, .m_wlast_o,
    .m_bvalid_i, .m_bready_o, .m_bid_i, .m_bresp_i,
    .m_arvalid_o, .m_arready_i, .m_arid_o, .m_araddr_o, .m_arlen_o, .m_arsize_o, .m_arburst_o,
    .m_rvalid_i, .m_rready_o, .m_rid_i, .m_rdata_i, .m_rresp_i, .m_rlast_i
  );

  // AXI protocol checker on the AXI4 memory port (rtl/gc_axi_check.sv)
  `GC_AXI_CHECK_M(u_axi_check)

endmodule
