// pbdma_tb_top: gpu_top for the PBDMA / scheduler block bench (tests/rtl/pbdma_tb.cpp).
//
// The device is gpu_top unchanged (MMIO slave + AXI4 memory master as in rtl/README.md); this
// wrapper only adds read-only probes of internal events so the bench can time them exactly:
// methods executed per runlist (with channel), channel switches, copy-engine completions and the
// atomic unit's snoop (a semaphore write landed). Nothing here drives the design.
module pbdma_tb_top
  import gpucosim_pkg::*;
#(
  localparam int unsigned AW   = GC_AXI_ADDR_W,
  localparam int unsigned DW   = GC_AXI_DATA_W,
  localparam int unsigned IW   = GC_AXI_ID_W,
  localparam int unsigned MW   = GC_MMIO_ADDR_W,
  localparam int unsigned NRL  = GC_NUM_RUNLISTS,
  localparam int unsigned CH_W = $clog2(GC_NUM_CHANNELS)
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic            s_awvalid_i,
  output logic            s_awready_o,
  input  logic [MW-1:0]   s_awaddr_i,
  input  logic            s_wvalid_i,
  output logic            s_wready_o,
  input  logic [31:0]     s_wdata_i,
  input  logic [3:0]      s_wstrb_i,
  output logic            s_bvalid_o,
  input  logic            s_bready_i,
  output logic [1:0]      s_bresp_o,
  input  logic            s_arvalid_i,
  output logic            s_arready_o,
  input  logic [MW-1:0]   s_araddr_i,
  output logic            s_rvalid_o,
  input  logic            s_rready_i,
  output logic [31:0]     s_rdata_o,
  output logic [1:0]      s_rresp_o,
  output logic            m_awvalid_o,
  input  logic            m_awready_i,
  output logic [IW-1:0]   m_awid_o,
  output logic [AW-1:0]   m_awaddr_o,
  output logic [7:0]      m_awlen_o,
  output logic [2:0]      m_awsize_o,
  output logic [1:0]      m_awburst_o,
  output logic            m_wvalid_o,
  input  logic            m_wready_i,
  output logic [DW-1:0]   m_wdata_o,
  output logic [DW/8-1:0] m_wstrb_o,
  output logic            m_wlast_o,
  input  logic            m_bvalid_i,
  output logic            m_bready_o,
  input  logic [IW-1:0]   m_bid_i,
  input  logic [1:0]      m_bresp_i,
  output logic            m_arvalid_o,
  input  logic            m_arready_i,
  output logic [IW-1:0]   m_arid_o,
  output logic [AW-1:0]   m_araddr_o,
  output logic [7:0]      m_arlen_o,
  output logic [2:0]      m_arsize_o,
  output logic [1:0]      m_arburst_o,
  input  logic            m_rvalid_i,
  output logic            m_rready_o,
  input  logic [IW-1:0]   m_rid_i,
  input  logic [DW-1:0]   m_rdata_i,
  input  logic [1:0]      m_rresp_i,
  input  logic            m_rlast_i,
  output logic            irq_o,

  // Probes
  output logic [NRL-1:0]           p_mthd_inc_o,
  output logic [NRL-1:0][CH_W-1:0] p_mthd_ch_o,
  output logic [NRL-1:0]           p_sw_valid_o,
  output logic [NRL-1:0][CH_W-1:0] p_sw_ch_o,
  output logic [NRL-1:0]           p_ce_done_o,
  output logic                     p_snoop_valid_o,
  output logic [AW-1:0]            p_snoop_addr_o
);

  gpu_top u_top (.*);

  assign p_mthd_inc_o    = u_top.mthd_inc;
  assign p_mthd_ch_o     = u_top.mthd_ch;
  assign p_sw_valid_o    = u_top.sw_valid;
  assign p_sw_ch_o       = u_top.sw_ch;
  assign p_ce_done_o     = u_top.ce_done;
  assign p_snoop_valid_o = u_top.snoop_valid;
  assign p_snoop_addr_o  = u_top.snoop_addr;

endmodule
