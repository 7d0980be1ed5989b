// gc_compute: the compute engine of runlist 0, in front of the SMs.
//
//   launch     runlist 0's PBDMA hands over (cmd_*) the TMD address of a SEND_SIGNALING_PCAS_B
//              SCHEDULE and the launching channel; launches wait in gc_task_queue (FIFO) and run
//              one task at a time, in order.  done_o pulses once per task, in launch order, with
//              done_err_o when it faulted (the PBDMA then faults the channel with TASK_FAULT).
//   TMD        read in one 8-beat burst (64 bytes, spec structs.TMD) and checked: grid and CTA
//              dimensions >= 1, CTA threads <= WARPS * LANES, SMEM_BYTES <= SIMT_SMEM_BYTES,
//              ENTRY_PC 4-aligned, the semaphore aligned to its size.  A bad TMD faults BAD_TMD
//              with FAULT_ADDR = the byte offset of the offending TMD word; a read error
//              TMD_BUS_ERROR.  The SMs' instruction caches are invalidated as the task starts.
//   dispatch   CTAs in order (x fastest, then y, then z), at most one per cycle, to the SMs round
//              robin among those that can take it now (cta_ready: enough contiguous free warp
//              slots).  ctaid / sizes / task id / parameter pointer travel in the descriptor.
//   completion when every CTA completed (cta_done pulses), the completion semaphore (TMD FLAGS
//              SEM_RELEASE) is written through the atomic unit: 4 bytes, or FOUR_WORD 16 bytes
//              {payload, 0, cycle stamp}.  Every store of the task has landed by then (an SM
//              reports a CTA done only after the B responses of its stores).  FLAGS.INTERRUPT
//              raises the non-stall interrupt.  Then done_o.
//   faults     the first fault an SM reports for the running task is recorded (COMPUTE.FAULT_*,
//              when INTR_STATUS.TASK_FAULT is clear; the interrupt is raised either way), no
//              further CTA is dispatched, kill_o ends every thread of the task, and once every
//              dispatched CTA has drained the task completes with an error, without release.
//   registers  the COMPUTE block of BAR0 (config, state, fault record, counters) as an array
//              indexed by register offset / 4, read by gc_mmio_regs.
module gc_compute
  import gpucosim_pkg::*;
  import gc_sem_pkg::*;
  import gc_simt_pkg::*;
#(
  parameter int unsigned NSM    = GC_SIMT_NUM_SM,
  parameter int unsigned NW     = GC_SIMT_WARPS,
  parameter int unsigned NL     = GC_SIMT_LANES,
  parameter int unsigned QDEPTH = 4,
  localparam int unsigned AW    = GC_AXI_ADDR_W,
  localparam int unsigned NREG  = 32
) (
  input  logic                    clk_i,
  input  logic                    rst_ni,

  // launches from runlist 0's PBDMA
  input  logic                    cmd_valid_i,
  output logic                    cmd_ready_o,
  input  logic [AW-1:0]           cmd_tmd_i,
  input  logic [7:0]              cmd_ch_i,
  output logic                    done_o,
  output logic                    done_err_o,
  output logic                    nonstall_o,
  output logic                    task_fault_o,      // a fault was recorded (INTR_STATUS.TASK_FAULT)
  input  logic                    task_fault_pend_i, // INTR_STATUS.TASK_FAULT is set

  // SMs
  output logic [NSM-1:0]          cta_valid_o,
  input  logic [NSM-1:0]          cta_ready_i,
  output cta_desc_t               cta_o,
  input  logic [NSM-1:0]          cta_done_i,
  output logic                    icache_inv_o,
  output logic                    kill_o,
  input  logic [NSM-1:0]          flt_valid_i,
  input  simt_fault_e             flt_cause_i [NSM],
  input  logic [NSM-1:0][31:0]    flt_pc_i,
  input  logic [NSM-1:0][31:0]    flt_addr_i,
  input  logic [NSM-1:0][7:0]     flt_warp_i,
  input  logic [NSM-1:0][7:0]     flt_lane_i,
  input  logic [NSM-1:0][NW-1:0]  w_act_i,
  input  logic [NSM-1:0]          ret_valid_i,
  input  logic [NSM-1:0][7:0]     ret_threads_i,
  input  logic [NSM-1:0]          ic_fill_i,
  input  logic [NSM-1:0][4:0]     lsu_beats_i,

  // memory port (TMD reads)
  output logic                    m_arvalid_o,
  input  logic                    m_arready_i,
  output logic [AW-1:0]           m_araddr_o,
  output logic [7:0]              m_arlen_o,
  input  logic                    m_rvalid_i,
  output logic                    m_rready_o,
  input  logic [63:0]             m_rdata_i,
  input  logic [1:0]              m_rresp_i,
  input  logic                    m_rlast_i,

  // atomic unit (completion release)
  output logic                    aq_valid_o,
  input  logic                    aq_ready_i,
  output logic [1:0]              aq_op_o,
  output logic [1:0]              aq_size_o,
  output logic [AW-1:0]           aq_addr_o,
  output logic [63:0]             aq_wdata_o,
  input  logic                    as_valid_i,
  input  logic                    as_err_i,

  // COMPUTE register block (offset / 4)
  output logic [NREG-1:0][31:0]   regs_o
);

  localparam int unsigned TMD_WORDS = GC_TMD_SIZE / 4;
  localparam int unsigned TMD_BEATS = GC_TMD_SIZE / 8;
  localparam int unsigned SMI_W     = (NSM > 1) ? $clog2(NSM) : 1;
  localparam int unsigned QPW       = (QDEPTH > 1) ? $clog2(QDEPTH) : 1;

  // ------------------------------------------------------------------------------------------
  // Task queue
  // ------------------------------------------------------------------------------------------
  logic          q_valid, q_pop;
  logic [AW-1:0] q_tmd;
  logic [7:0]    q_ch;
  logic [QPW:0]  q_count;

  gc_task_queue #(
    .DEPTH (QDEPTH)
  ) u_queue (
    .clk_i,
    .rst_ni,
    .push_valid_i (cmd_valid_i),
    .push_ready_o (cmd_ready_o),
    .push_tmd_i   (cmd_tmd_i),
    .push_ch_i    (cmd_ch_i),
    .pop_valid_o  (q_valid),
    .pop_ready_i  (q_pop),
    .pop_tmd_o    (q_tmd),
    .pop_ch_o     (q_ch),
    .count_o      (q_count)
  );

  // ------------------------------------------------------------------------------------------
  // State
  // ------------------------------------------------------------------------------------------
  typedef enum logic [2:0] {
    TASK_STATE_IDLE, TASK_STATE_TMD_REQ, TASK_STATE_TMD_WAIT, TASK_STATE_DISPATCH,
    TASK_STATE_DRAIN, TASK_STATE_RELEASE, TASK_STATE_DONE
  } fsm_e;
  fsm_e            state_q;
  logic [AW-1:0]   tmd_addr_q;
  logic [7:0]      ch_q;
  logic [31:0]     tmd_q [TMD_WORDS];
  logic [3:0]      beat_q;
  logic            rd_err_q, ar_q, checked_q, faulted_q, aq_sent_q;
  logic [31:0]     cx_q, cy_q, cz_q;          // next CTA to dispatch
  logic [15:0]     inflight_q;
  logic [SMI_W-1:0] rr_q;

  // fault record and counters
  simt_fault_e     f_cause_q;
  logic [31:0]     f_pc_q, f_addr_q, f_loc_q, f_task_q, f_ch_q;
  logic [31:0]     c_tasks_q, c_ctas_q, c_winstr_q, c_tinstr_q, c_active_q, c_icmiss_q, c_beats_q;

  // ------------------------------------------------------------------------------------------
  // TMD fields
  // ------------------------------------------------------------------------------------------
  function automatic logic [31:0] tw(input int unsigned ofs);
    return tmd_q[ofs / 4];
  endfunction

  logic [31:0] t_pc, t_param, t_gx, t_gy, t_gz, t_smem, t_flags, t_pay;
  logic [15:0] t_tx, t_ty, t_tz;
  logic [AW-1:0] t_sem;
  logic        t_rel, t_four, t_intr;
  logic [47:0] t_threads;
  logic [31:0] w_dxy, w_dz, w_shi;
  always_comb begin
    w_dxy   = tw(GC_TMD_CTA_DIM_XY_OFS);
    w_dz    = tw(GC_TMD_CTA_DIM_Z_OFS);
    w_shi   = tw(GC_TMD_SEM_ADDR_HI_OFS);
    t_pc    = tw(GC_TMD_ENTRY_PC_OFS);
    t_param = tw(GC_TMD_PARAM_OFS);
    t_gx    = tw(GC_TMD_GRID_X_OFS);
    t_gy    = tw(GC_TMD_GRID_Y_OFS);
    t_gz    = tw(GC_TMD_GRID_Z_OFS);
    t_tx    = w_dxy[GC_TMD_CTA_DIM_XY_X_LSB +: GC_TMD_CTA_DIM_XY_X_W];
    t_ty    = w_dxy[GC_TMD_CTA_DIM_XY_Y_LSB +: GC_TMD_CTA_DIM_XY_Y_W];
    t_tz    = w_dz[GC_TMD_CTA_DIM_Z_Z_LSB +: GC_TMD_CTA_DIM_Z_Z_W];
    t_smem  = tw(GC_TMD_SMEM_BYTES_OFS);
    t_pay   = tw(GC_TMD_SEM_PAYLOAD_OFS);
    t_flags = tw(GC_TMD_FLAGS_OFS);
    t_sem   = {w_shi[GC_TMD_SEM_ADDR_HI_HI_LSB +: AW - 32],
               tw(GC_TMD_SEM_ADDR_LO_OFS)};
    t_rel   = t_flags[GC_TMD_FLAGS_SEM_RELEASE_LSB];
    t_four  = t_flags[GC_TMD_FLAGS_SEM_FOUR_WORD_LSB];
    t_intr  = t_flags[GC_TMD_FLAGS_INTERRUPT_LSB];
    t_threads = 48'(t_tx) * 48'(t_ty) * 48'(t_tz);
  end

  // Check: the byte offset of the first bad word, or none
  logic        t_bad;
  logic [31:0] t_bad_ofs;
  always_comb begin
    t_bad     = 1'b1;
    t_bad_ofs = '0;
    if (t_pc[1:0] != 2'b00)            t_bad_ofs = GC_TMD_ENTRY_PC_OFS;
    else if (t_gx == '0)               t_bad_ofs = GC_TMD_GRID_X_OFS;
    else if (t_gy == '0)               t_bad_ofs = GC_TMD_GRID_Y_OFS;
    else if (t_gz == '0)               t_bad_ofs = GC_TMD_GRID_Z_OFS;
    else if (t_tx == '0 || t_ty == '0 || t_threads > 48'(NW * NL)) t_bad_ofs = GC_TMD_CTA_DIM_XY_OFS;
    else if (t_tz == '0)               t_bad_ofs = GC_TMD_CTA_DIM_Z_OFS;
    else if (t_smem > GC_SIMT_SMEM_BYTES) t_bad_ofs = GC_TMD_SMEM_BYTES_OFS;
    else if (t_rel && (t_four ? (t_sem[3:0] != 4'h0) : (t_sem[1:0] != 2'b00)))
                                       t_bad_ofs = GC_TMD_SEM_ADDR_LO_OFS;
    else                               t_bad = 1'b0;
  end

  // ------------------------------------------------------------------------------------------
  // Dispatch
  // ------------------------------------------------------------------------------------------
  logic             disp, d_found, d_last;
  logic [SMI_W-1:0] d_sm;
  always_comb begin
    d_found = 1'b0;
    d_sm    = rr_q;
    for (int k = NSM; k >= 1; k--) begin
      logic [SMI_W-1:0] c;
      c = SMI_W'((32'(rr_q) + k) % NSM);
      if (cta_ready_i[c]) begin
        d_found = 1'b1;
        d_sm    = c;
      end
    end
    disp = (state_q == TASK_STATE_DISPATCH) && checked_q && !faulted_q && d_found;
    d_last = (cx_q + 32'd1 == t_gx) && (cy_q + 32'd1 == t_gy) && (cz_q + 32'd1 == t_gz);
    cta_valid_o = '0;
    if ((state_q == TASK_STATE_DISPATCH) && checked_q && !faulted_q) cta_valid_o[d_sm] = d_found;

    cta_o.entry_pc   = t_pc;
    cta_o.param      = t_param;
    cta_o.task_id    = 32'(tmd_addr_q >> 8);
    cta_o.nctaid_x   = t_gx;
    cta_o.nctaid_y   = t_gy;
    cta_o.nctaid_z   = t_gz;
    cta_o.ntid_x     = t_tx;
    cta_o.ntid_y     = t_ty;
    cta_o.ntid_z     = t_tz;
    cta_o.ctaid_x    = cx_q;
    cta_o.ctaid_y    = cy_q;
    cta_o.ctaid_z    = cz_q;
    cta_o.nthreads   = 16'(t_threads);
    cta_o.smem_bytes = t_smem;
  end

  logic [15:0] n_done;
  always_comb begin
    n_done = '0;
    for (int s = 0; s < NSM; s++) n_done = n_done + 16'(cta_done_i[s]);
  end

  // SM faults: the lowest SM that reports one
  logic             sf_valid;
  logic [SMI_W-1:0] sf_sm;
  always_comb begin
    sf_valid = (flt_valid_i != '0);
    sf_sm    = '0;
    for (int s = NSM - 1; s >= 0; s--) if (flt_valid_i[s]) sf_sm = SMI_W'(s);
  end

  // A fault of the running task this cycle: from an SM, the TMD check, the TMD read, the release
  logic        nf_valid;
  simt_fault_e nf_cause;
  logic [31:0] nf_pc, nf_addr, nf_loc;
  logic        r_hs;
  assign r_hs = m_rvalid_i && m_rready_o;
  always_comb begin
    nf_valid = 1'b0;
    nf_cause = SIMT_FAULT_NONE;
    nf_pc    = '0;
    nf_addr  = 32'(tmd_addr_q >> 8);
    nf_loc   = '0;
    if (state_q == TASK_STATE_DISPATCH && !checked_q && t_bad) begin
      nf_valid = 1'b1;
      nf_cause = SIMT_FAULT_BAD_TMD;
      nf_addr  = t_bad_ofs;
    end else if (state_q == TASK_STATE_TMD_WAIT && r_hs && 32'(beat_q) == TMD_BEATS - 1 &&
                 (rd_err_q || m_rresp_i[1])) begin
      nf_valid = 1'b1;
      nf_cause = SIMT_FAULT_TMD_BUS_ERROR;
    end else if (state_q == TASK_STATE_RELEASE && as_valid_i && as_err_i) begin
      nf_valid = 1'b1;
      nf_cause = SIMT_FAULT_TMD_BUS_ERROR;
      nf_addr  = 32'(t_sem);
    end else if (sf_valid && (state_q == TASK_STATE_DISPATCH || state_q == TASK_STATE_DRAIN)) begin
      nf_valid = 1'b1;
      nf_cause = flt_cause_i[sf_sm];
      nf_pc    = flt_pc_i[sf_sm];
      nf_addr  = flt_addr_i[sf_sm];
      nf_loc   = '0;
      nf_loc[GC_COMPUTE_FAULT_LOC_LANE_LSB +: GC_COMPUTE_FAULT_LOC_LANE_W] = flt_lane_i[sf_sm];
      nf_loc[GC_COMPUTE_FAULT_LOC_WARP_LSB +: GC_COMPUTE_FAULT_LOC_WARP_W] = flt_warp_i[sf_sm];
      nf_loc[GC_COMPUTE_FAULT_LOC_SM_LSB +: GC_COMPUTE_FAULT_LOC_SM_W]     = 8'(sf_sm);
    end
  end
  logic new_fault;
  assign new_fault = nf_valid && !faulted_q;
  assign task_fault_o = new_fault;

  // ------------------------------------------------------------------------------------------
  // Outputs to the memory port and the atomic unit
  // ------------------------------------------------------------------------------------------
  assign m_arvalid_o = ar_q;
  assign m_araddr_o  = tmd_addr_q;
  assign m_arlen_o   = 8'(TMD_BEATS - 1);
  assign m_rready_o  = 1'b1;

  assign aq_valid_o = (state_q == TASK_STATE_RELEASE) && !aq_sent_q;
  assign aq_op_o    = SEM_AOP_WRITE;
  assign aq_size_o  = t_four ? SEM_ASIZE_16 : SEM_ASIZE_4;
  assign aq_addr_o  = t_sem;
  assign aq_wdata_o = {32'h0, t_pay};

  assign q_pop        = (state_q == TASK_STATE_IDLE) && q_valid;
  assign icache_inv_o = (state_q == TASK_STATE_DISPATCH) && !checked_q;
  assign kill_o       = faulted_q && (state_q == TASK_STATE_DRAIN);
  assign done_o       = (state_q == TASK_STATE_DONE);
  assign done_err_o   = faulted_q;
  assign nonstall_o   = done_o && !faulted_q && t_intr;

  // ------------------------------------------------------------------------------------------
  // Sequential
  // ------------------------------------------------------------------------------------------
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q    <= TASK_STATE_IDLE;
      tmd_addr_q <= '0;
      ch_q       <= '0;
      beat_q     <= '0;
      rd_err_q   <= 1'b0;
      ar_q       <= 1'b0;
      checked_q  <= 1'b0;
      faulted_q  <= 1'b0;
      aq_sent_q  <= 1'b0;
      cx_q       <= '0;
      cy_q       <= '0;
      cz_q       <= '0;
      inflight_q <= '0;
      rr_q       <= SMI_W'(NSM - 1);
      f_cause_q  <= SIMT_FAULT_NONE;
      f_pc_q     <= '0;
      f_addr_q   <= '0;
      f_loc_q    <= '0;
      f_task_q   <= '0;
      f_ch_q     <= '0;
      c_tasks_q  <= '0;
      c_ctas_q   <= '0;
      c_winstr_q <= '0;
      c_tinstr_q <= '0;
      c_active_q <= '0;
      c_icmiss_q <= '0;
      c_beats_q  <= '0;
      for (int i = 0; i < TMD_WORDS; i++) tmd_q[i] <= '0;
    end else begin
      logic [31:0] wi, ti, ic, bt;
      logic        act;

      // ---- counters
      wi = '0; ti = '0; ic = '0; bt = '0; act = 1'b0;
      for (int s = 0; s < NSM; s++) begin
        wi = wi + 32'(ret_valid_i[s]);
        ti = ti + (ret_valid_i[s] ? 32'(ret_threads_i[s]) : 32'h0);
        ic = ic + 32'(ic_fill_i[s]);
        bt = bt + 32'(lsu_beats_i[s]);
        if (w_act_i[s] != '0) act = 1'b1;
      end
      c_winstr_q <= c_winstr_q + wi;
      c_tinstr_q <= c_tinstr_q + ti;
      c_icmiss_q <= c_icmiss_q + ic;
      c_beats_q  <= c_beats_q + bt;
      c_active_q <= c_active_q + 32'(act);
      c_ctas_q   <= c_ctas_q + 32'(n_done);
      inflight_q <= inflight_q + 16'(disp) - n_done;

      // ---- fault record
      if (new_fault) begin
        faulted_q <= 1'b1;
        if (!task_fault_pend_i) begin
          f_cause_q <= nf_cause;
          f_pc_q    <= nf_pc;
          f_addr_q  <= nf_addr;
          f_loc_q   <= nf_loc;
          f_task_q  <= 32'(tmd_addr_q >> 8);
          f_ch_q    <= 32'(ch_q);
        end
      end

      unique case (state_q)
        TASK_STATE_IDLE: if (q_valid) begin
          tmd_addr_q <= q_tmd;
          ch_q       <= q_ch;
          ar_q       <= 1'b1;
          beat_q     <= '0;
          rd_err_q   <= 1'b0;
          checked_q  <= 1'b0;
          faulted_q  <= 1'b0;
          aq_sent_q  <= 1'b0;
          cx_q       <= '0;
          cy_q       <= '0;
          cz_q       <= '0;
          state_q    <= TASK_STATE_TMD_REQ;
        end
        TASK_STATE_TMD_REQ: if (m_arready_i) begin
          ar_q    <= 1'b0;
          state_q <= TASK_STATE_TMD_WAIT;
        end
        TASK_STATE_TMD_WAIT: if (r_hs) begin
          tmd_q[2 * 32'(beat_q)]     <= m_rdata_i[31:0];
          tmd_q[2 * 32'(beat_q) + 1] <= m_rdata_i[63:32];
          beat_q <= beat_q + 4'd1;
          if (m_rresp_i[1]) rd_err_q <= 1'b1;
          if (32'(beat_q) == TMD_BEATS - 1) begin
            state_q <= (rd_err_q || m_rresp_i[1]) ? TASK_STATE_DONE : TASK_STATE_DISPATCH;
          end
        end
        TASK_STATE_DISPATCH: begin
          checked_q <= 1'b1;
          if (!checked_q && t_bad) begin
            state_q <= TASK_STATE_DONE;                 // nothing dispatched yet
          end else if (faulted_q || new_fault) begin
            state_q <= TASK_STATE_DRAIN;
          end else if (disp) begin
            rr_q <= d_sm;
            if (d_last) begin
              state_q <= TASK_STATE_DRAIN;
            end else if (cx_q + 32'd1 != t_gx) begin
              cx_q <= cx_q + 32'd1;
            end else begin
              cx_q <= '0;
              if (cy_q + 32'd1 != t_gy) begin
                cy_q <= cy_q + 32'd1;
              end else begin
                cy_q <= '0;
                cz_q <= cz_q + 32'd1;
              end
            end
          end
        end
        TASK_STATE_DRAIN: begin
          if (inflight_q + 16'(disp) == n_done) begin
            state_q <= (faulted_q || new_fault || !t_rel) ? TASK_STATE_DONE : TASK_STATE_RELEASE;
          end
        end
        TASK_STATE_RELEASE: begin
          if (aq_valid_o && aq_ready_i) aq_sent_q <= 1'b1;
          if (as_valid_i) state_q <= TASK_STATE_DONE;
        end
        TASK_STATE_DONE: begin
          c_tasks_q <= c_tasks_q + 32'd1;
          state_q   <= TASK_STATE_IDLE;
        end
        default: state_q <= TASK_STATE_IDLE;
      endcase
    end
  end

  // ------------------------------------------------------------------------------------------
  // Register block values
  // ------------------------------------------------------------------------------------------
  function automatic int unsigned RI(input logic [15:0] reg_addr);   // index in regs_o
    logic [15:0] rel;
    rel = reg_addr - GC_REG_COMPUTE_BASE;
    return 32'(rel) / 4;
  endfunction

  always_comb begin
    logic [31:0] wa;
    wa = '0;
    for (int s = 0; s < NSM; s++) begin
      for (int w = 0; w < NW; w++) wa = wa + 32'(w_act_i[s][w]);
    end
    regs_o = '0;
    regs_o[RI(GC_REG_COMPUTE_CONFIG)][GC_COMPUTE_CONFIG_NUM_SM_LSB +: GC_COMPUTE_CONFIG_NUM_SM_W] =
        GC_COMPUTE_CONFIG_NUM_SM_W'(NSM);
    regs_o[RI(GC_REG_COMPUTE_CONFIG)][GC_COMPUTE_CONFIG_WARPS_LSB +: GC_COMPUTE_CONFIG_WARPS_W] =
        GC_COMPUTE_CONFIG_WARPS_W'(NW);
    regs_o[RI(GC_REG_COMPUTE_CONFIG)][GC_COMPUTE_CONFIG_LANES_LSB +: GC_COMPUTE_CONFIG_LANES_W] =
        GC_COMPUTE_CONFIG_LANES_W'(NL);
    regs_o[RI(GC_REG_COMPUTE_CONFIG)][GC_COMPUTE_CONFIG_SMEM_KB_LSB +: GC_COMPUTE_CONFIG_SMEM_KB_W] =
        GC_COMPUTE_CONFIG_SMEM_KB_W'(GC_SIMT_SMEM_BYTES / 1024);
    regs_o[RI(GC_REG_COMPUTE_DBG)][GC_COMPUTE_DBG_PENDING_LSB +: GC_COMPUTE_DBG_PENDING_W] =
        GC_COMPUTE_DBG_PENDING_W'(q_count);
    regs_o[RI(GC_REG_COMPUTE_DBG)][GC_COMPUTE_DBG_SLOTS_BUSY_LSB +: GC_COMPUTE_DBG_SLOTS_BUSY_W] =
        GC_COMPUTE_DBG_SLOTS_BUSY_W'(state_q != TASK_STATE_IDLE);
    regs_o[RI(GC_REG_COMPUTE_DBG)][GC_COMPUTE_DBG_WARPS_ACTIVE_LSB +: GC_COMPUTE_DBG_WARPS_ACTIVE_W] =
        GC_COMPUTE_DBG_WARPS_ACTIVE_W'(wa);
    regs_o[RI(GC_REG_COMPUTE_TASK)] = 32'(tmd_addr_q >> 8);
    regs_o[RI(GC_REG_COMPUTE_FAULT_CAUSE)][GC_COMPUTE_FAULT_CAUSE_CAUSE_LSB +: GC_COMPUTE_FAULT_CAUSE_CAUSE_W] =
        f_cause_q;
    regs_o[RI(GC_REG_COMPUTE_FAULT_PC)]      = f_pc_q;
    regs_o[RI(GC_REG_COMPUTE_FAULT_ADDR)]    = f_addr_q;
    regs_o[RI(GC_REG_COMPUTE_FAULT_LOC)]     = f_loc_q;
    regs_o[RI(GC_REG_COMPUTE_FAULT_TASK)]    = f_task_q;
    regs_o[RI(GC_REG_COMPUTE_FAULT_CHANNEL)] = f_ch_q;
    regs_o[RI(GC_REG_COMPUTE_TASKS)]         = c_tasks_q;
    regs_o[RI(GC_REG_COMPUTE_CTAS)]          = c_ctas_q;
    regs_o[RI(GC_REG_COMPUTE_WARP_INSTRS)]   = c_winstr_q;
    regs_o[RI(GC_REG_COMPUTE_THREAD_INSTRS)] = c_tinstr_q;
    regs_o[RI(GC_REG_COMPUTE_ACTIVE_CYCLES)] = c_active_q;
    regs_o[RI(GC_REG_COMPUTE_ICACHE_MISSES)] = c_icmiss_q;
    regs_o[RI(GC_REG_COMPUTE_LSU_BEATS)]     = c_beats_q;
  end

  logic unused_cp;
  assign unused_cp = ^{m_rlast_i, inflight_q, m_rresp_i[0], t_flags, tmd_addr_q[7:0], w_dz, w_shi};

endmodule
