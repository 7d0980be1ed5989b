// tb_eng_pins.svh: the flat pins of gc_eng_pkg's two ports on a block bench top, declared once.
//
// A Verilated top's C++ drives and reads its pins by name, so the bench tops keep flat pins for
// these ports; inside, the structs of gc_eng_pkg are used and tb_eng_pins converts.  Directions
// are the engine's (the bench plays the PBDMA and the atomic unit):
//   `TB_ENG_CMD_PINS   engine command port, engine side (cmd_*, done_*)
//   `TB_AQ_PINS        atomic-unit request port, requester side (aq_*, as_*)
// The widths come from gpucosim_pkg, which the including module imports.
`ifndef TB_ENG_PINS_SVH
`define TB_ENG_PINS_SVH

`define TB_ENG_CMD_PINS \
  input  logic                                  cmd_valid_i,       \
  output logic                                  cmd_ready_o,       \
  input  logic [7:0]                            cmd_ch_i,          \
  input  logic [GC_AXI_ADDR_W-1:0]              cmd_src_i,         \
  input  logic [GC_AXI_ADDR_W-1:0]              cmd_dst_i,         \
  input  logic [31:0]                           cmd_line_len_i,    \
  input  logic [31:0]                           cmd_line_count_i,  \
  input  logic [31:0]                           cmd_pitch_in_i,    \
  input  logic [31:0]                           cmd_pitch_out_i,   \
  input  logic                                  cmd_copy_i,        \
  input  logic                                  cmd_remap_i,       \
  input  logic [31:0]                           cmd_const_a_i,     \
  input  logic [31:0]                           cmd_const_b_i,     \
  input  logic [31:0]                           cmd_components_i,  \
  input  logic                                  cmd_sem_i,         \
  input  logic                                  cmd_sem_four_i,    \
  input  logic [GC_AXI_ADDR_W-1:0]              cmd_sem_addr_i,    \
  input  logic [31:0]                           cmd_sem_payload_i, \
  input  logic                                  cmd_sem_reduce_i,  \
  input  logic [GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_W-1:0] cmd_sem_red_i, \
  input  logic                                  cmd_sem_signed_i,  \
  input  logic                                  cmd_intr_i,        \
  output logic                                  done_o,            \
  output logic                                  done_err_o

`define TB_AQ_PINS \
  output logic                                  aq_valid_o,        \
  input  logic                                  aq_ready_i,        \
  output logic [1:0]                            aq_op_o,           \
  output logic [GC_HOST_SEM_EXECUTE_REDUCTION_W-1:0] aq_red_o,     \
  output logic                                  aq_signed_o,       \
  output logic [1:0]                            aq_size_o,         \
  output logic [GC_AXI_ADDR_W-1:0]              aq_addr_o,         \
  output logic [63:0]                           aq_wdata_o,        \
  input  logic                                  as_valid_i,        \
  input  logic [63:0]                           as_rdata_i,        \
  input  logic                                  as_err_i

`endif
