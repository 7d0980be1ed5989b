// pbdma_tb_top: gpu_top for the PBDMA / scheduler block bench (tests/rtl/pbdma_tb.cpp).
//
// The device is gpu_top unchanged (MMIO slave + AXI4 memory master as in rtl/README.md); this
// wrapper only adds read-only probes of internal events so the bench can time them exactly:
// methods executed per runlist (with channel), channel switches, copy-engine completions and the
// crossbar's write snoop (a write landed). Nothing here drives the design.
`include "gc_axi_pins.svh"
module pbdma_tb_top
  import gpucosim_pkg::*;
#(
  localparam int unsigned AW   = GC_AXI_ADDR_W,
  localparam int unsigned NRL  = GC_NUM_RUNLISTS,
  localparam int unsigned CH_W = $clog2(GC_NUM_CHANNELS)
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  `GC_AXIL_SLAVE_PINS,
  `GC_AXI_MASTER_PINS,
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
  assign p_snoop_valid_o = u_top.snoop.valid;
  assign p_snoop_addr_o  = u_top.snoop.addr;
  for (genvar n = 0; n < NRL; n++) begin : g_ce_done
    assign p_ce_done_o[n] = u_top.eng_rsp[n].done;
  end

endmodule
