// gc_simt: the compute engine (gc_compute: the task management unit with its task table, task
// slots, TMD fetch, CTA dispatcher, completion and task log) and NSM SMs (gc_sm), wired together.
// Its memory traffic leaves through crossbar client ports and atomic-unit requester ports that
// the parent connects (gpu_top; tests/rtl/simt_tb_top.sv):
//   crossbar clients   0 = TMD reads, 1 + 2s = SM s instruction fetch, 2 + 2s = SM s load/store
//   atomic requesters  0 = completion releases and task log records, 1 + s = SM s (AMO*, LR, SC)
//   store reports      s = SM s's global store bursts (the atomic unit's st_* ports)
// SM s uses atomic-unit reservation tags TAG_BASE + s * NW * NL + warp * NL + lane.
module gc_simt
  import gpucosim_pkg::*;
  import gc_sem_pkg::*;
  import gc_simt_pkg::*;
#(
  parameter int unsigned NSM      = GC_SIMT_NUM_SM,
  parameter int unsigned NW       = GC_SIMT_WARPS,
  parameter int unsigned NL       = GC_SIMT_LANES,
  parameter int unsigned RTW      = 1,
  parameter int unsigned TAG_BASE = 0,
  parameter int unsigned NSLOT    = GC_TMU_SLOTS,
  parameter int unsigned NENT     = GC_TMU_ENTRIES,
  parameter int unsigned FPU      = 1,         // 1: the SMs implement the F extension
  localparam int unsigned AW      = GC_AXI_ADDR_W,
  localparam int unsigned NC      = 1 + 2 * NSM,
  localparam int unsigned NA      = 1 + NSM,
  localparam int unsigned NREG    = 32
) (
  input  logic                       clk_i,
  input  logic                       rst_ni,

  input  logic                       cmd_valid_i,
  output logic                       cmd_ready_o,
  input  logic [AW-1:0]              cmd_tmd_i,
  input  logic [7:0]                 cmd_ch_i,
  output logic                       done_o,
  output logic                       done_err_o,
  output logic [7:0]                 done_ch_o,
  output logic                       nonstall_o,
  output logic                       task_fault_o,
  input  logic                       task_fault_pend_i,
  output logic                       launch_fail_o,
  input  logic                       launch_fail_pend_i,
  input  logic [AW-1:0]              log_base_i,
  input  logic                       log_en_i,
  input  logic [4:0]                 log_size_log2_i,
  input  logic                       log_ctrl_we_i,
  input  logic                       no_evict_i,
  output logic [NREG-1:0][31:0]      regs_o,
  output logic                       idle_o,        // nothing to do (gc_compute idle_o)
  input  logic [63:0]                timestamp_i,

  // crossbar client ports
  output logic [NC-1:0]              c_arvalid_o,
  input  logic [NC-1:0]              c_arready_i,
  output logic [NC-1:0][AW-1:0]      c_araddr_o,
  output logic [NC-1:0][7:0]         c_arlen_o,
  input  logic [NC-1:0]              c_rvalid_i,
  output logic [NC-1:0]              c_rready_o,
  input  logic [63:0]                c_rdata_i,
  input  logic [1:0]                 c_rresp_i,
  input  logic                       c_rlast_i,
  output logic [NC-1:0]              c_awvalid_o,
  input  logic [NC-1:0]              c_awready_i,
  output logic [NC-1:0][AW-1:0]      c_awaddr_o,
  output logic [NC-1:0][7:0]         c_awlen_o,
  output logic [NC-1:0]              c_wvalid_o,
  input  logic [NC-1:0]              c_wready_i,
  output logic [NC-1:0][63:0]        c_wdata_o,
  output logic [NC-1:0][7:0]         c_wstrb_o,
  output logic [NC-1:0]              c_wlast_o,
  input  logic [NC-1:0]              c_bvalid_i,
  output logic [NC-1:0]              c_bready_o,
  input  logic [1:0]                 c_bresp_i,

  // atomic unit requester ports
  output logic [NA-1:0]              aq_valid_o,
  input  logic [NA-1:0]              aq_ready_i,
  output logic [NA-1:0][1:0]         aq_op_o,
  output logic [NA-1:0][GC_HOST_SEM_EXECUTE_REDUCTION_W-1:0] aq_red_o,
  output logic [NA-1:0]              aq_signed_o,
  output logic [NA-1:0][1:0]         aq_size_o,
  output logic [NA-1:0][AW-1:0]      aq_addr_o,
  output logic [NA-1:0][63:0]        aq_wdata_o,
  output logic [NA-1:0][1:0]         aq_xop_o,
  output logic [NA-1:0][RTW-1:0]     aq_rtag_o,
  input  logic [NA-1:0]              as_valid_i,
  input  logic [63:0]                as_rdata_i,
  input  logic                       as_err_i,

  // global store bursts per SM (atomic unit st_* ports: LR/SC reservation breaks)
  output logic [NSM-1:0]             st_valid_o,
  output logic [NSM-1:0][AW-1:0]     st_addr_o,
  output logic [NSM-1:0][31:0]       st_wmask_o
);

  logic [NSM-1:0]          cta_valid, cta_ready, cta_done, flt_valid, ret_valid, ic_fill;
  cta_desc_t               cta;
  logic                    icache_inv;
  logic [7:0]              kill;
  logic [NSM-1:0][TSLOT_W-1:0] cta_done_slot, flt_slot, ln_slot;
  logic [NSM-1:0]          ln_valid, ln_ready, ln_bad;
  logic [NSM-1:0][AW-1:0]  ln_tmd;
  logic [NSM-1:0][3:0]     ln_status;
  simt_fault_e             flt_cause [NSM];
  logic [NSM-1:0][31:0]    flt_pc, flt_addr;
  logic [NSM-1:0][7:0]     flt_warp, flt_lane, ret_threads;
  logic [NSM-1:0][NW-1:0]  w_act;
  logic [NSM-1:0][4:0]     lsu_beats;

  gc_compute #(
    .NSM (NSM),
    .NW  (NW),
    .NL    (NL),
    .NSLOT (NSLOT),
    .NENT  (NENT)
  ) u_compute (
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
    .cta_valid_o   (cta_valid),
    .cta_ready_i   (cta_ready),
    .cta_o         (cta),
    .cta_done_i    (cta_done),
    .cta_done_slot_i (cta_done_slot),
    .icache_inv_o  (icache_inv),
    .kill_o        (kill),
    .flt_valid_i   (flt_valid),
    .flt_slot_i    (flt_slot),
    .flt_cause_i   (flt_cause),
    .flt_pc_i      (flt_pc),
    .flt_addr_i    (flt_addr),
    .flt_warp_i    (flt_warp),
    .flt_lane_i    (flt_lane),
    .ln_valid_i    (ln_valid),
    .ln_ready_o    (ln_ready),
    .ln_tmd_i      (ln_tmd),
    .ln_bad_i      (ln_bad),
    .ln_slot_i     (ln_slot),
    .ln_status_o   (ln_status),
    .w_act_i       (w_act),
    .ret_valid_i   (ret_valid),
    .ret_threads_i (ret_threads),
    .ic_fill_i     (ic_fill),
    .lsu_beats_i   (lsu_beats),
    .log_base_i,
    .log_en_i,
    .log_size_log2_i,
    .log_ctrl_we_i,
    .no_evict_i,
    .m_arvalid_o   (c_arvalid_o[0]),
    .m_arready_i   (c_arready_i[0]),
    .m_araddr_o    (c_araddr_o[0]),
    .m_arlen_o     (c_arlen_o[0]),
    .m_rvalid_i    (c_rvalid_i[0]),
    .m_rready_o    (c_rready_o[0]),
    .m_rdata_i     (c_rdata_i),
    .m_rresp_i     (c_rresp_i),
    .m_rlast_i     (c_rlast_i),
    .aq_valid_o    (aq_valid_o[0]),
    .aq_ready_i    (aq_ready_i[0]),
    .aq_op_o       (aq_op_o[0]),
    .aq_size_o     (aq_size_o[0]),
    .aq_addr_o     (aq_addr_o[0]),
    .aq_wdata_o    (aq_wdata_o[0]),
    .as_valid_i    (as_valid_i[0]),
    .as_err_i      (as_err_i),
    .regs_o,
    .idle_o
  );
  // the front only reads memory and only writes through the atomic unit
  assign c_awvalid_o[0] = 1'b0;
  assign c_awaddr_o[0]  = '0;
  assign c_awlen_o[0]   = '0;
  assign c_wvalid_o[0]  = 1'b0;
  assign c_wdata_o[0]   = '0;
  assign c_wstrb_o[0]   = '0;
  assign c_wlast_o[0]   = 1'b0;
  assign c_bready_o[0]  = 1'b1;
  assign aq_red_o[0]    = '0;
  assign aq_signed_o[0] = 1'b0;
  assign aq_xop_o[0]    = SEM_XOP_NONE;
  assign aq_rtag_o[0]   = '0;

  for (genvar s = 0; s < NSM; s++) begin : g_sm
    localparam int unsigned CI = 1 + 2 * s;   // instruction fetch client
    localparam int unsigned CL = 2 + 2 * s;   // load/store client
    gc_sm #(
      .NW       (NW),
      .NL       (NL),
      .SM_ID    (s),
      .RTW      (RTW),
      .TAG_BASE (TAG_BASE + s * NW * NL),
      .FPU      (FPU)
    ) u_sm (
      .clk_i,
      .rst_ni,
      .cta_valid_i   (cta_valid[s]),
      .cta_ready_o   (cta_ready[s]),
      .cta_i         (cta),
      .cta_done_o    (cta_done[s]),
      .icache_inv_i  (icache_inv),
      .cta_done_slot_o (cta_done_slot[s]),
      .kill_i        (kill),
      .flt_slot_o    (flt_slot[s]),
      .ln_valid_o    (ln_valid[s]),
      .ln_ready_i    (ln_ready[s]),
      .ln_tmd_o      (ln_tmd[s]),
      .ln_bad_o      (ln_bad[s]),
      .ln_slot_o     (ln_slot[s]),
      .ln_status_i   (ln_status[s]),
      .flt_valid_o   (flt_valid[s]),
      .flt_cause_o   (flt_cause[s]),
      .flt_pc_o      (flt_pc[s]),
      .flt_addr_o    (flt_addr[s]),
      .flt_warp_o    (flt_warp[s]),
      .flt_lane_o    (flt_lane[s]),
      .w_act_o       (w_act[s]),
      .ret_valid_o   (ret_valid[s]),
      .ret_threads_o (ret_threads[s]),
      .ic_fill_o     (ic_fill[s]),
      .lsu_beats_o   (lsu_beats[s]),
      .st_valid_o    (st_valid_o[s]),
      .st_addr_o     (st_addr_o[s]),
      .st_wmask_o    (st_wmask_o[s]),
      .timestamp_i,
      .if_arvalid_o  (c_arvalid_o[CI]),
      .if_arready_i  (c_arready_i[CI]),
      .if_araddr_o   (c_araddr_o[CI]),
      .if_arlen_o    (c_arlen_o[CI]),
      .if_rvalid_i   (c_rvalid_i[CI]),
      .if_rready_o   (c_rready_o[CI]),
      .if_rdata_i    (c_rdata_i),
      .if_rresp_i    (c_rresp_i),
      .if_rlast_i    (c_rlast_i),
      .m_arvalid_o   (c_arvalid_o[CL]),
      .m_arready_i   (c_arready_i[CL]),
      .m_araddr_o    (c_araddr_o[CL]),
      .m_arlen_o     (c_arlen_o[CL]),
      .m_rvalid_i    (c_rvalid_i[CL]),
      .m_rready_o    (c_rready_o[CL]),
      .m_rdata_i     (c_rdata_i),
      .m_rresp_i     (c_rresp_i),
      .m_rlast_i     (c_rlast_i),
      .m_awvalid_o   (c_awvalid_o[CL]),
      .m_awready_i   (c_awready_i[CL]),
      .m_awaddr_o    (c_awaddr_o[CL]),
      .m_awlen_o     (c_awlen_o[CL]),
      .m_wvalid_o    (c_wvalid_o[CL]),
      .m_wready_i    (c_wready_i[CL]),
      .m_wdata_o     (c_wdata_o[CL]),
      .m_wstrb_o     (c_wstrb_o[CL]),
      .m_wlast_o     (c_wlast_o[CL]),
      .m_bvalid_i    (c_bvalid_i[CL]),
      .m_bready_o    (c_bready_o[CL]),
      .m_bresp_i     (c_bresp_i),
      .aq_valid_o    (aq_valid_o[1 + s]),
      .aq_ready_i    (aq_ready_i[1 + s]),
      .aq_op_o       (aq_op_o[1 + s]),
      .aq_red_o      (aq_red_o[1 + s]),
      .aq_signed_o   (aq_signed_o[1 + s]),
      .aq_size_o     (aq_size_o[1 + s]),
      .aq_addr_o     (aq_addr_o[1 + s]),
      .aq_wdata_o    (aq_wdata_o[1 + s]),
      .aq_xop_o      (aq_xop_o[1 + s]),
      .aq_rtag_o     (aq_rtag_o[1 + s]),
      .as_valid_i    (as_valid_i[1 + s]),
      .as_rdata_i,
      .as_err_i
    );
    // instruction fetch only reads
    assign c_awvalid_o[CI] = 1'b0;
    assign c_awaddr_o[CI]  = '0;
    assign c_awlen_o[CI]   = '0;
    assign c_wvalid_o[CI]  = 1'b0;
    assign c_wdata_o[CI]   = '0;
    assign c_wstrb_o[CI]   = '0;
    assign c_wlast_o[CI]   = 1'b0;
    assign c_bready_o[CI]  = 1'b1;
  end

  // write-channel inputs of the read-only clients
  logic unused_simt;
  always_comb begin
    unused_simt = c_awready_i[0] ^ c_wready_i[0] ^ c_bvalid_i[0];
    for (int s = 0; s < NSM; s++) begin
      unused_simt = unused_simt ^ c_awready_i[1 + 2 * s] ^ c_wready_i[1 + 2 * s] ^
                    c_bvalid_i[1 + 2 * s];
    end
  end

endmodule
