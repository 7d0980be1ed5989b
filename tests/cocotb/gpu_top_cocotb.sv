// gpu_top_cocotb: gpu_top for the peer-model test tests/cocotb/peer_tests.py, its pins exactly
// gpu_top's (declared by the macros of rtl/gc_axi_pins.svh: s_* the BAR0 AXI4-Lite slave, m_*
// the AXI4 memory master).  cocotbext-axi looks its buses up by prefix (s_axil_*, m_axi_*);
// peer_tests.py maps those names onto these pins.  Nothing else: the device and its protocol
// checkers (rtl/gc_axi_check.sv, rtl/gc_axil_check.sv, inside gpu_top) are unchanged; the wrapper
// is there so that only its ports are made public to VPI (tests/cocotb/cocotb.vlt).
`include "gc_axi_pins.svh"
module gpu_top_cocotb
  import gpucosim_pkg::*;
(
  input  logic clk_i,
  input  logic rst_ni,
  `GC_AXIL_SLAVE_PINS,
  `GC_AXI_MASTER_PINS,
  output logic irq_o
);

  gpu_top u_top (.*);

endmodule
