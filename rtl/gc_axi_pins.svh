// gc_axi_pins.svh: the flat AXI pin lists of the harness boundary, declared once.
//
// gpu_top keeps flat pins for its harnesses (cosim/cosim.cpp, the SystemC top) and the bench tops
// that stand in its place (tests/rtl/*_tb_top.sv) show the same pins; inside, everything uses the
// structs of gc_axi_pkg, and gc_axi_pins / gc_axil_pins convert.  Directions are the device's:
//   `GC_AXIL_SLAVE_PINS   AXI4-Lite slave, BAR0 (s_*)
//   `GC_AXI_MASTER_PINS   AXI4 memory master (m_*)
//   `GC_CLI_MASTER_PINS   one client memory port, manager side (m_*: the block benches of the
//                         crossbar clients)
// The widths come from gpucosim_pkg, which the including module imports.
`ifndef GC_AXI_PINS_SVH
`define GC_AXI_PINS_SVH

`define GC_AXIL_SLAVE_PINS \
  input  logic                       s_awvalid_i, \
  output logic                       s_awready_o, \
  input  logic [GC_MMIO_ADDR_W-1:0]  s_awaddr_i,  \
  input  logic                       s_wvalid_i,  \
  output logic                       s_wready_o,  \
  input  logic [31:0]                s_wdata_i,   \
  input  logic [3:0]                 s_wstrb_i,   \
  output logic                       s_bvalid_o,  \
  input  logic                       s_bready_i,  \
  output logic [1:0]                 s_bresp_o,   \
  input  logic                       s_arvalid_i, \
  output logic                       s_arready_o, \
  input  logic [GC_MMIO_ADDR_W-1:0]  s_araddr_i,  \
  output logic                       s_rvalid_o,  \
  input  logic                       s_rready_i,  \
  output logic [31:0]                s_rdata_o,   \
  output logic [1:0]                 s_rresp_o

`define GC_AXI_MASTER_PINS \
  output logic                       m_awvalid_o, \
  input  logic                       m_awready_i, \
  output logic [GC_AXI_ID_W-1:0]     m_awid_o,    \
  output logic [GC_AXI_ADDR_W-1:0]   m_awaddr_o,  \
  output logic [7:0]                 m_awlen_o,   \
  output logic [2:0]                 m_awsize_o,  \
  output logic [1:0]                 m_awburst_o, \
  output logic                       m_wvalid_o,  \
  input  logic                       m_wready_i,  \
  output logic [GC_AXI_DATA_W-1:0]   m_wdata_o,   \
  output logic [GC_AXI_DATA_W/8-1:0] m_wstrb_o,   \
  output logic                       m_wlast_o,   \
  input  logic                       m_bvalid_i,  \
  output logic                       m_bready_o,  \
  input  logic [GC_AXI_ID_W-1:0]     m_bid_i,     \
  input  logic [1:0]                 m_bresp_i,   \
  output logic                       m_arvalid_o, \
  input  logic                       m_arready_i, \
  output logic [GC_AXI_ID_W-1:0]     m_arid_o,    \
  output logic [GC_AXI_ADDR_W-1:0]   m_araddr_o,  \
  output logic [7:0]                 m_arlen_o,   \
  output logic [2:0]                 m_arsize_o,  \
  output logic [1:0]                 m_arburst_o, \
  input  logic                       m_rvalid_i,  \
  output logic                       m_rready_o,  \
  input  logic [GC_AXI_ID_W-1:0]     m_rid_i,     \
  input  logic [GC_AXI_DATA_W-1:0]   m_rdata_i,   \
  input  logic [1:0]                 m_rresp_i,   \
  input  logic                       m_rlast_i

`define GC_CLI_MASTER_PINS \
  output logic                       m_arvalid_o, \
  input  logic                       m_arready_i, \
  output logic [GC_AXI_ADDR_W-1:0]   m_araddr_o,  \
  output logic [7:0]                 m_arlen_o,   \
  input  logic                       m_rvalid_i,  \
  output logic                       m_rready_o,  \
  input  logic [GC_AXI_DATA_W-1:0]   m_rdata_i,   \
  input  logic [1:0]                 m_rresp_i,   \
  input  logic                       m_rlast_i,   \
  output logic                       m_awvalid_o, \
  input  logic                       m_awready_i, \
  output logic [GC_AXI_ADDR_W-1:0]   m_awaddr_o,  \
  output logic [7:0]                 m_awlen_o,   \
  output logic                       m_wvalid_o,  \
  input  logic                       m_wready_i,  \
  output logic [GC_AXI_DATA_W-1:0]   m_wdata_o,   \
  output logic [GC_AXI_DATA_W/8-1:0] m_wstrb_o,   \
  output logic                       m_wlast_o,   \
  input  logic                       m_bvalid_i,  \
  output logic                       m_bready_o,  \
  input  logic [1:0]                 m_bresp_i

`endif
