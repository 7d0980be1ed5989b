// counter_top: a trivial design with gpu_top's ports (a 64-bit counter; the AXI master idle, the
// register slave never answering), Verilated with the prefix Vgpu_top so that cosim/cosim.cpp
// drives it unchanged. `make bench` measures the harness on it (build/bin/cosim-speed-counter):
// sim_speed_vs_counter = the default run's cycles/s / this model's cycles/s, one bench run, a
// ratio that stays put on a busy machine. Not part of the device (rtl/ is).
`include "gc_axi_pins.svh"
module counter_top
  import gpucosim_pkg::*;
(
  input  logic            clk_i,
  input  logic            rst_ni,
  `GC_AXIL_SLAVE_PINS,     // gpu_top's pins (rtl/gc_axi_pins.svh)
  `GC_AXI_MASTER_PINS,
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
