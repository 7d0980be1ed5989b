// gpu_top_cocotb: gpu_top with its ports named as cocotbext-axi expects them (s_axil_* for the
// BAR0 AXI4-Lite slave, m_axi_* for the AXI4 memory master), for the peer-model test
// tests/cocotb/peer_tests.py.  Nothing else: the device and its protocol checkers
// (rtl/gc_axi_check.sv, rtl/gc_axil_check.sv, inside gpu_top) are unchanged.
module gpu_top_cocotb
  import gpucosim_pkg::*;
#(
  localparam int unsigned AW = GC_AXI_ADDR_W,
  localparam int unsigned DW = GC_AXI_DATA_W,
  localparam int unsigned IW = GC_AXI_ID_W,
  localparam int unsigned MW = GC_MMIO_ADDR_W
) (
  input  logic            clk,
  input  logic            rst_n,
  input  logic [MW-1:0]   s_axil_awaddr,
  input  logic            s_axil_awvalid,
  output logic            s_axil_awready,
  input  logic [31:0]     s_axil_wdata,
  input  logic [3:0]      s_axil_wstrb,
  input  logic            s_axil_wvalid,
  output logic            s_axil_wready,
  output logic [1:0]      s_axil_bresp,
  output logic            s_axil_bvalid,
  input  logic            s_axil_bready,
  input  logic [MW-1:0]   s_axil_araddr,
  input  logic            s_axil_arvalid,
  output logic            s_axil_arready,
  output logic [31:0]     s_axil_rdata,
  output logic [1:0]      s_axil_rresp,
  output logic            s_axil_rvalid,
  input  logic            s_axil_rready,
  output logic [IW-1:0]   m_axi_awid,
  output logic [AW-1:0]   m_axi_awaddr,
  output logic [7:0]      m_axi_awlen,
  output logic [2:0]      m_axi_awsize,
  output logic [1:0]      m_axi_awburst,
  output logic            m_axi_awvalid,
  input  logic            m_axi_awready,
  output logic [DW-1:0]   m_axi_wdata,
  output logic [DW/8-1:0] m_axi_wstrb,
  output logic            m_axi_wlast,
  output logic            m_axi_wvalid,
  input  logic            m_axi_wready,
  input  logic [IW-1:0]   m_axi_bid,
  input  logic [1:0]      m_axi_bresp,
  input  logic            m_axi_bvalid,
  output logic            m_axi_bready,
  output logic [IW-1:0]   m_axi_arid,
  output logic [AW-1:0]   m_axi_araddr,
  output logic [7:0]      m_axi_arlen,
  output logic [2:0]      m_axi_arsize,
  output logic [1:0]      m_axi_arburst,
  output logic            m_axi_arvalid,
  input  logic            m_axi_arready,
  input  logic [IW-1:0]   m_axi_rid,
  input  logic [DW-1:0]   m_axi_rdata,
  input  logic [1:0]      m_axi_rresp,
  input  logic            m_axi_rlast,
  input  logic            m_axi_rvalid,
  output logic            m_axi_rready,
  output logic            irq
);

  gpu_top u_top (
    .clk_i (clk), .rst_ni (rst_n),
    .s_awvalid_i (s_axil_awvalid), .s_awready_o (s_axil_awready), .s_awaddr_i (s_axil_awaddr),
    .s_wvalid_i (s_axil_wvalid), .s_wready_o (s_axil_wready), .s_wdata_i (s_axil_wdata),
    .s_wstrb_i (s_axil_wstrb), .s_bvalid_o (s_axil_bvalid), .s_bready_i (s_axil_bready),
    .s_bresp_o (s_axil_bresp), .s_arvalid_i (s_axil_arvalid), .s_arready_o (s_axil_arready),
    .s_araddr_i (s_axil_araddr), .s_rvalid_o (s_axil_rvalid), .s_rready_i (s_axil_rready),
    .s_rdata_o (s_axil_rdata), .s_rresp_o (s_axil_rresp),
    .m_awvalid_o (m_axi_awvalid), .m_awready_i (m_axi_awready), .m_awid_o (m_axi_awid),
    .m_awaddr_o (m_axi_awaddr), .m_awlen_o (m_axi_awlen), .m_awsize_o (m_axi_awsize),
    .m_awburst_o (m_axi_awburst), .m_wvalid_o (m_axi_wvalid), .m_wready_i (m_axi_wready),
    .m_wdata_o (m_axi_wdata), .m_wstrb_o (m_axi_wstrb), .m_wlast_o (m_axi_wlast),
    .m_bvalid_i (m_axi_bvalid), .m_bready_o (m_axi_bready), .m_bid_i (m_axi_bid),
    .m_bresp_i (m_axi_bresp), .m_arvalid_o (m_axi_arvalid), .m_arready_i (m_axi_arready),
    .m_arid_o (m_axi_arid), .m_araddr_o (m_axi_araddr), .m_arlen_o (m_axi_arlen),
    .m_arsize_o (m_axi_arsize), .m_arburst_o (m_axi_arburst), .m_rvalid_i (m_axi_rvalid),
    .m_rready_o (m_axi_rready), .m_rid_i (m_axi_rid), .m_rdata_i (m_axi_rdata),
    .m_rresp_i (m_axi_rresp), .m_rlast_i (m_axi_rlast),
    .irq_o (irq)
  );

endmodule
