// counter_top: a trivial design with gpu_top's ports (a 64-bit counter; the AXI master idle, the
// register slave never answering), Verilated with the prefix Vgpu_top so that cosim/cosim.cpp
// drives it unchanged. `make bench` measures the harness on it (build/bin/cosim-speed-counter):
// sim_speed_vs_counter = the default run's cycles/s / this model's cycles/s, one bench run, a
// ratio that stays put on a busy machine. Not part of the device (rtl/ is).
module counter_top
  import gpucosim_pkg::*;
#(
  localparam int unsigned AW = GC_AXI_ADDR_W,
  localparam int unsigned DW = GC_AXI_DATA_W,
  localparam int unsigned IW = GC_AXI_ID_W,
  localparam int unsigned MW = GC_MMIO_ADDR_W
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
  output logic            irq_o
);

  logic [63:0] cnt_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) cnt_q <= '0;
    else         cnt_q <= cnt_q + 64'd1;
  end

  assign s_awready_o = 1'b0;
  assign s_wready_o  = 1'b0;
  assign s_bvalid_o  = 1'b0;
  assign s_bresp_o   = '0;
  assign s_arready_o = 1'b0;
  assign s_rvalid_o  = 1'b0;
  assign s_rdata_o   = cnt_q[31:0];
  assign s_rresp_o   = '0;
  assign m_awvalid_o = 1'b0;
  assign m_awid_o    = '0;
  assign m_awaddr_o  = '0;
  assign m_awlen_o   = '0;
  assign m_awsize_o  = '0;
  assign m_awburst_o = '0;
  assign m_wvalid_o  = 1'b0;
  assign m_wdata_o   = '0;
  assign m_wstrb_o   = '0;
  assign m_wlast_o   = 1'b0;
  assign m_bready_o  = 1'b1;
  assign m_arvalid_o = 1'b0;
  assign m_arid_o    = '0;
  assign m_araddr_o  = '0;
  assign m_arlen_o   = '0;
  assign m_arsize_o  = '0;
  assign m_arburst_o = '0;
  assign m_rready_o  = 1'b1;
  assign irq_o       = cnt_q[63];

  logic unused;
  assign unused = ^{s_awvalid_i, s_awaddr_i, s_wvalid_i, s_wdata_i, s_wstrb_i, s_bready_i, s_arvalid_i,
                    s_araddr_i, s_rready_i, m_awready_i, m_wready_i, m_bvalid_i, m_bid_i, m_bresp_i,
                    m_arready_i, m_rvalid_i, m_rid_i, m_rdata_i, m_rresp_i, m_rlast_i};

endmodule
