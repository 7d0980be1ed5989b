// simt_tb_top: block-test wrapper of the SIMT core (tests/rtl/simt_tb.cpp): gc_simt (the compute
// front and NSM SMs) with its own gc_atomic_unit and gc_mem_xbar, wired as in gpu_top, behind one
// AXI4 master that the bench connects to the cosim memory model (cosim/axi_mem.h).  The bench
// launches tasks on cmd_* as runlist 0's PBDMA would (done_ch_o says whose task completed), plays
// the register block's part for the TMU (COMPUTE.LOG_*, TMU_CTRL, INTR_STATUS bits) and reads the
// COMPUTE registers on regs_o.  WARPS / LANES / NSM (and NSLOT / NENT) are overridden with -G.
`include "gc_axi_pins.svh"
`include "gc_axi_check.svh"

module simt_tb_top
  import gpucosim_pkg::*;
  import gc_axi_pkg::*;
#(
  parameter int unsigned NSM   = GC_SIMT_NUM_SM,
  parameter int unsigned WARPS = GC_SIMT_WARPS,
  parameter int unsigned LANES = GC_SIMT_LANES,
  parameter int unsigned NSLOT = GC_TMU_SLOTS,
  parameter int unsigned NENT  = GC_TMU_ENTRIES,
  parameter int unsigned FPU   = 1,
  localparam int unsigned AW   = GC_AXI_ADDR_W,
  localparam int unsigned NRES = NSM * WARPS * LANES,
  localparam int unsigned RTW  = (NRES > 1) ? $clog2(NRES) : 1,
  localparam int unsigned NC   = 1 + 2 * NSM,
  localparam int unsigned NA   = 1 + NSM
) (
  input  logic            clk_i,
  input  logic            rst_ni,

  input  logic            cmd_valid_i,
  output logic            cmd_ready_o,
  input  logic [AW-1:0]   cmd_tmd_i,
  input  logic [7:0]      cmd_ch_i,
  output logic            done_o,
  output logic            done_err_o,
  output logic [7:0]      done_ch_o,
  output logic            nonstall_o,
  output logic            task_fault_o,
  input  logic            task_fault_pend_i,
  output logic            launch_fail_o,
  input  logic            launch_fail_pend_i,
  input  logic [AW-1:0]   log_base_i,
  input  logic            log_en_i,
  input  logic [4:0]      log_size_log2_i,
  input  logic            log_ctrl_we_i,
  input  logic            no_evict_i,
  output logic [31:0][31:0] regs_o,
  output logic              idle_o,   // gc_simt idle_o (gpu_top gates the engine's clock on it)
  output logic [63:0]     cycle_o,

  `GC_AXI_MASTER_PINS
);

  logic [63:0] cycle_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) cycle_q <= '0;
    else         cycle_q <= cycle_q + 64'd1;
  end
  assign cycle_o = cycle_q;

  // crossbar clients: gc_simt's, then the atomic unit
  cli_req_t [NC:0]       c_req;
  cli_rsp_t [NC:0]       c_rsp;
  axi_req_t              m_req;
  axi_rsp_t              m_rsp;

  logic [NA-1:0]         aq_valid, aq_ready, aq_signed, as_valid;
  logic [NA-1:0][1:0]    aq_op, aq_size, aq_xop;
  logic [NA-1:0][GC_HOST_SEM_EXECUTE_REDUCTION_W-1:0] aq_red;
  logic [NA-1:0][AW-1:0] aq_addr;
  logic [NA-1:0][63:0]   aq_wdata;
  logic [NA-1:0][RTW-1:0] aq_rtag;
  logic [63:0]           as_rdata;
  logic                  as_err;
  logic [NSM-1:0]        st_valid;
  logic [NSM-1:0][AW-1:0] st_addr;
  logic [NSM-1:0][31:0]  st_wmask;

  gc_axi_pins u_pins (.m_req_i (m_req), .m_rsp_o (m_rsp), .*);

  gc_simt #(
    .NSM (NSM),
    .NW  (WARPS),
    .NL  (LANES),
    .RTW   (RTW),
    .NSLOT (NSLOT),
    .NENT  (NENT),
    .FPU   (FPU)
  ) u_simt (
    .clk_i,
    .rst_ni,
    .cmd_valid_i,
    .cmd_ready_o,
    .cmd_tmd_i,
    .cmd_ch_i,
    .done_o,
    .done_err_o,
    .done_ch_o,
    .nonstall_o,
    .task_fault_o,
    .task_fault_pend_i,
    .launch_fail_o,
    .launch_fail_pend_i,
    .log_base_i,
    .log_en_i,
    .log_size_log2_i,
    .log_ctrl_we_i,
    .no_evict_i,
    .regs_o,
    .idle_o,
    .timestamp_i (cycle_q),
    .c_req_o     (c_req[NC-1:0]),
    .c_rsp_i     (c_rsp[NC-1:0]),
    .aq_valid_o  (aq_valid),
    .aq_ready_i  (aq_ready),
    .aq_op_o     (aq_op),
    .aq_red_o    (aq_red),
    .aq_signed_o (aq_signed),
    .aq_size_o   (aq_size),
    .aq_addr_o   (aq_addr),
    .aq_wdata_o  (aq_wdata),
    .aq_xop_o    (aq_xop),
    .aq_rtag_o   (aq_rtag),
    .as_valid_i  (as_valid),
    .as_rdata_i  (as_rdata),
    .as_err_i    (as_err),
    .st_valid_o  (st_valid),
    .st_addr_o   (st_addr),
    .st_wmask_o  (st_wmask)
  );

  gc_atomic_unit #(
    .N    (NA),
    .NRES (NRES),
    .NST  (NSM)
  ) u_atomic (
    .clk_i,
    .rst_ni,
    .aq_valid_i    (aq_valid),
    .aq_ready_o    (aq_ready),
    .aq_op_i       (aq_op),
    .aq_red_i      (aq_red),
    .aq_signed_i   (aq_signed),
    .aq_size_i     (aq_size),
    .aq_addr_i     (aq_addr),
    .aq_wdata_i    (aq_wdata),
    .aq_xop_i      (aq_xop),
    .aq_rtag_i     (aq_rtag),
    .as_valid_o    (as_valid),
    .as_rdata_o    (as_rdata),
    .as_err_o      (as_err),
    .timestamp_i   (cycle_q),
    .st_valid_i    (st_valid),
    .st_addr_i     (st_addr),
    .st_wmask_i    (st_wmask),
    .m_req_o       (c_req[NC]),
    .m_rsp_i       (c_rsp[NC])
  );

  // the crossbar takes one variable per client (unpacked arrays: rtl/gc_mem_xbar.sv)
  cli_req_t x_req [NC + 1];
  cli_rsp_t x_rsp [NC + 1];
  for (genvar i = 0; i <= NC; i++) begin : g_xbar_cli
    assign x_req[i] = c_req[i];
    assign c_rsp[i] = x_rsp[i];
  end

  gc_mem_xbar #(
    .N (NC + 1)
  ) u_xbar (
    .clk_i,
    .rst_ni,
    .c_req_i (x_req),
    .c_rsp_o (x_rsp),
    .m_req_o (m_req),
    .m_rsp_i (m_rsp),
    .snoop_o ()
  );

  // AXI protocol checker on the AXI4 memory port (rtl/gc_axi_check.sv), its read table sized as
  // gpu_top's: the load/store units keep the most reads outstanding on one ID
  localparam int unsigned MEM_RD_MAX = (gc_simt_pkg::sm_reads_max(WARPS, LANES) > 32) ?
                                       gc_simt_pkg::sm_reads_max(WARPS, LANES) : 32;
  `GC_AXI_CHECK_M(u_axi_check, MEM_RD_MAX)

endmodule
