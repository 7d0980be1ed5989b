// simt_tb_top: block-test wrapper of the SIMT core (tests/rtl/simt_tb.cpp): gc_simt (the compute
// front and NSM SMs) with its own gc_atomic_unit and gc_mem_xbar, wired as in gpu_top, behind one
// AXI4 master that the bench connects to the cosim memory model (cosim/axi_mem.h).  The bench
// launches tasks on cmd_* as runlist 0's PBDMA would (done_ch_o says whose task completed), plays
// the register block's part for the TMU (COMPUTE.LOG_*, TMU_CTRL, INTR_STATUS bits) and reads the
// COMPUTE registers on regs_o.  WARPS / LANES / NSM (and NSLOT / NENT) are overridden with -G.
`include "gc_axi_check.svh"

module simt_tb_top
  import gpucosim_pkg::*;
#(
  parameter int unsigned NSM   = GC_SIMT_NUM_SM,
  parameter int unsigned WARPS = GC_SIMT_WARPS,
  parameter int unsigned LANES = GC_SIMT_LANES,
  parameter int unsigned NSLOT = GC_TMU_SLOTS,
  parameter int unsigned NENT  = GC_TMU_ENTRIES,
  parameter int unsigned FPU   = 1,
  localparam int unsigned AW   = GC_AXI_ADDR_W,
  localparam int unsigned IW   = GC_AXI_ID_W,
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

  output logic            m_awvalid_o,
  input  logic            m_awready_i,
  output logic [IW-1:0]   m_awid_o,
  output logic [AW-1:0]   m_awaddr_o,
  output logic [7:0]      m_awlen_o,
  output logic [2:0]      m_awsize_o,
  output logic [1:0]      m_awburst_o,
  output logic            m_wvalid_o,
  input  logic            m_wready_i,
  output logic [63:0]     m_wdata_o,
  output logic [7:0]      m_wstrb_o,
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
  input  logic [63:0]     m_rdata_i,
  input  logic [1:0]      m_rresp_i,
  input  logic            m_rlast_i
);

  logic [63:0] cycle_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) cycle_q <= '0;
    else         cycle_q <= cycle_q + 64'd1;
  end
  assign cycle_o = cycle_q;

  // crossbar clients: gc_simt's, then the atomic unit
  logic [NC:0]           c_arvalid, c_arready, c_rvalid, c_rready, c_awvalid, c_awready;
  logic [NC:0]           c_wvalid, c_wready, c_wlast, c_bvalid, c_bready;
  logic [NC:0][AW-1:0]   c_araddr, c_awaddr;
  logic [NC:0][7:0]      c_arlen, c_awlen, c_wstrb;
  logic [NC:0][63:0]     c_wdata;
  logic [63:0]           c_rdata;
  logic [1:0]            c_rresp, c_bresp;
  logic                  c_rlast;

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
    .c_arvalid_o (c_arvalid[NC-1:0]),
    .c_arready_i (c_arready[NC-1:0]),
    .c_araddr_o  (c_araddr[NC-1:0]),
    .c_arlen_o   (c_arlen[NC-1:0]),
    .c_rvalid_i  (c_rvalid[NC-1:0]),
    .c_rready_o  (c_rready[NC-1:0]),
    .c_rdata_i   (c_rdata),
    .c_rresp_i   (c_rresp),
    .c_rlast_i   (c_rlast),
    .c_awvalid_o (c_awvalid[NC-1:0]),
    .c_awready_i (c_awready[NC-1:0]),
    .c_awaddr_o  (c_awaddr[NC-1:0]),
    .c_awlen_o   (c_awlen[NC-1:0]),
    .c_wvalid_o  (c_wvalid[NC-1:0]),
    .c_wready_i  (c_wready[NC-1:0]),
    .c_wdata_o   (c_wdata[NC-1:0]),
    .c_wstrb_o   (c_wstrb[NC-1:0]),
    .c_wlast_o   (c_wlast[NC-1:0]),
    .c_bvalid_i  (c_bvalid[NC-1:0]),
    .c_bready_o  (c_bready[NC-1:0]),
    .c_bresp_i   (c_bresp),
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
    .snoop_valid_o (),
    .snoop_addr_o  (),
    .m_arvalid_o   (c_arvalid[NC]),
    .m_arready_i   (c_arready[NC]),
    .m_araddr_o    (c_araddr[NC]),
    .m_arlen_o     (c_arlen[NC]),
    .m_rvalid_i    (c_rvalid[NC]),
    .m_rready_o    (c_rready[NC]),
    .m_rdata_i     (c_rdata),
    .m_rresp_i     (c_rresp),
    .m_rlast_i     (c_rlast),
    .m_awvalid_o   (c_awvalid[NC]),
    .m_awready_i   (c_awready[NC]),
    .m_awaddr_o    (c_awaddr[NC]),
    .m_awlen_o     (c_awlen[NC]),
    .m_wvalid_o    (c_wvalid[NC]),
    .m_wready_i    (c_wready[NC]),
    .m_wdata_o     (c_wdata[NC]),
    .m_wstrb_o     (c_wstrb[NC]),
    .m_wlast_o     (c_wlast[NC]),
    .m_bvalid_i    (c_bvalid[NC]),
    .m_bready_o    (c_bready[NC]),
    .m_bresp_i     (c_bresp)
  );

  gc_mem_xbar #(
    .N (NC + 1)
  ) u_xbar (
    .clk_i,
    .rst_ni,
    .c_arvalid_i (c_arvalid),
    .c_arready_o (c_arready),
    .c_araddr_i  (c_araddr),
    .c_arlen_i   (c_arlen),
    .c_rvalid_o  (c_rvalid),
    .c_rready_i  (c_rready),
    .c_rdata_o   (c_rdata),
    .c_rresp_o   (c_rresp),
    .c_rlast_o   (c_rlast),
    .c_awvalid_i (c_awvalid),
    .c_awready_o (c_awready),
    .c_awaddr_i  (c_awaddr),
    .c_awlen_i   (c_awlen),
    .c_wvalid_i  (c_wvalid),
    .c_wready_o  (c_wready),
    .c_wdata_i   (c_wdata),
    .c_wstrb_i   (c_wstrb),
    .c_wlast_i   (c_wlast),
    .c_bvalid_o  (c_bvalid),
    .c_bready_i  (c_bready),
    .c_bresp_o   (c_bresp),
    .m_awvalid_o,
    .m_awready_i,
    .m_awid_o,
    .m_awaddr_o,
    .m_awlen_o,
    .m_awsize_o,
    .m_awburst_o,
    .m_wvalid_o,
    .m_wready_i,
    .m_wdata_o,
    .m_wstrb_o,
    .m_wlast_o,
    .m_bvalid_i,
    .m_bready_o,
    .m_bid_i,
    .m_bresp_i,
    .m_arvalid_o,
    .m_arready_i,
    .m_arid_o,
    .m_araddr_o,
    .m_arlen_o,
    .m_arsize_o,
    .m_arburst_o,
    .m_rvalid_i,
    .m_rready_o,
    .m_rid_i,
    .m_rdata_i,
    .m_rresp_i,
    .m_rlast_i
  );

  // AXI protocol checker on the AXI4 memory port (rtl/gc_axi_check.sv)
  `GC_AXI_CHECK_M(u_axi_check)

endmodule
