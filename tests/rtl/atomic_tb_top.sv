// atomic_tb_top: block-test wrapper for gc_atomic_unit with N = 3 requesters and NRES = 8 LR/SC
// reservations
// (tests/rtl/atomic_tb.cpp drives the request ports and models the memory behind the client
// memory port), plus a combinational window on the gc_sem_pkg functions: fn_* inputs in,
// fn_pass_o = sem_acquire_pass(...) and fn_reduce_o = sem_reduce(...) out.
`include "gc_axi_pins.svh"
`include "gc_axi_check.svh"

module atomic_tb_top
  import gpucosim_pkg::*;
  import gc_axi_pkg::*;
  import gc_sem_pkg::*;
#(
  parameter int unsigned N    = 3,
  parameter int unsigned NRES = 8
) (
  input  logic                                  clk_i,
  input  logic                                  rst_ni,

  input  logic [N-1:0]                          aq_valid_i,
  output logic [N-1:0]                          aq_ready_o,
  input  logic [N-1:0][1:0]                     aq_op_i,
  input  logic [N-1:0][GC_HOST_SEM_EXECUTE_REDUCTION_W-1:0] aq_red_i,
  input  logic [N-1:0]                          aq_signed_i,
  input  logic [N-1:0][1:0]                     aq_size_i,
  input  logic [N-1:0][GC_AXI_ADDR_W-1:0]       aq_addr_i,
  input  logic [N-1:0][63:0]                    aq_wdata_i,
  input  logic [N-1:0][1:0]                     aq_xop_i,
  input  logic [N-1:0][$clog2(NRES)-1:0]        aq_rtag_i,
  output logic [N-1:0]                          as_valid_o,
  output logic [63:0]                           as_rdata_o,
  output logic                                  as_err_o,
  input  logic [63:0]                           timestamp_i,
  input  logic                                  st_valid_i,   // one plain-store report port
  input  logic [GC_AXI_ADDR_W-1:0]              st_addr_i,
  input  logic [31:0]                           st_wmask_i,

  `GC_CLI_MASTER_PINS,

  // ---- gc_sem_pkg function window (combinational)
  input  logic [GC_HOST_SEM_EXECUTE_OPERATION_W-1:0] fn_op_i,
  input  logic [GC_HOST_SEM_EXECUTE_REDUCTION_W-1:0] fn_red_i,
  input  logic                                  fn_signed_i,
  input  logic                                  fn_is64_i,
  input  logic [63:0]                           fn_mem_i,
  input  logic [63:0]                           fn_arg_i,    // payload (acquire) / operand (reduce)
  output logic                                  fn_pass_o,
  output logic [63:0]                           fn_reduce_o
);

  cli_req_t m_req;
  cli_rsp_t m_rsp;
  tb_cli_pins u_pins (.m_req_i (m_req), .m_rsp_o (m_rsp), .*);

  gc_atomic_unit #(.N(N), .NRES(NRES)) u_atomic (
    .clk_i, .rst_ni,
    .aq_valid_i, .aq_ready_o, .aq_op_i, .aq_red_i, .aq_signed_i, .aq_size_i, .aq_addr_i,
    .aq_wdata_i,
    .aq_xop_i,
    .aq_rtag_i,
    .as_valid_o, .as_rdata_o, .as_err_o,
    .timestamp_i,
    .st_valid_i, .st_addr_i, .st_wmask_i,
    .m_req_o (m_req),
    .m_rsp_i (m_rsp)
  );

  assign fn_pass_o   = sem_acquire_pass(fn_op_i, fn_is64_i, fn_mem_i, fn_arg_i);
  assign fn_reduce_o = sem_reduce(fn_red_i, fn_signed_i, fn_is64_i, fn_mem_i, fn_arg_i);

  // AXI protocol checker on the engine's memory port (no IDs) (rtl/gc_axi_check.sv)
  `GC_AXI_CHECK_CLIENT(u_axi_check)

endmodule
