// gc_pbdma_dec: the method decoder of one PBDMA (part of gc_pbdma): the channel FSM that
// selects a channel (on the scheduler's picks), reads its GPFIFO entry, decodes the pushbuffer
// dwords from the fetch unit's FIFO into methods, executes the host and class methods (method
// registers and bindings into the context store, SEM_EXECUTE to the semaphore unit, LAUNCH_DMA /
// SEND_SIGNALING_PCAS_B to the engine dispatch), advances GP_GET, switches channels away
// (saving the entry left mid-way in the context store) and records faults. The rules it follows
// are in gc_pbdma.sv's header comment. It owns the state of the resident channel's segment
// (GP_ENTRY0.GET, dwords left to decode, dword address of the FIFO head, SYNC WAIT), the method
// being executed over several cycles and the pending fault record, and drives the fault port
// (copy-engine errors first, then the resident channel's record, then acquire timeouts of
// channels that are not resident).
module gc_pbdma_dec
  import gpucosim_pkg::*;
  import gc_sem_pkg::*;
  import gc_pbdma_pkg::*;
  import gc_axi_pkg::*;
  import gc_eng_pkg::aq_rsp_t;
#(
  parameter int unsigned RL         = 0,
  parameter int unsigned PB_FIFO_DW = 64,
  localparam int unsigned LW        = GC_CHANNEL_GPFIFO_SIZE_LOG2_W,
  localparam int unsigned FIFO_AW   = $clog2(PB_FIFO_DW)
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,

  // Channel configuration / status
  input  logic [NCH-1:0]           ch_err_i,
  input  logic [NCH-1:0]           ch_reset_i,
  input  logic [NCH-1:0][AW-1:0]   ch_gpfifo_base_i,
  input  logic [NCH-1:0][LW-1:0]   ch_gpfifo_log2_i,
  input  logic [NCH-1:0][31:0]     ch_gp_put_i,
  input  logic [NCH-1:0][GPI_W-1:0] ch_gp_get_i,

  // Scheduler (gc_pbdma_sched)
  input  logic                 own_vld_i,
  input  logic [CH_W-1:0]      own_i,
  input  logic                 hold_i,
  input  logic                 own_runnable_i,
  input  logic                 own_eng_wait_i,
  input  logic                 slice_exp_i,
  input  logic                 is_guest_i,
  input  logic                 guest_avail_i,
  input  logic                 rr_found_i,
  input  logic [CH_W-1:0]      rr_ch_i,
  input  logic                 g_found_i,
  input  logic [CH_W-1:0]      g_ch_i,
  input  logic                 sw_blk_i,
  input  logic                 sw_ts_i,
  output logic                 sel_rr_o,
  output logic                 sel_guest_o,
  output logic                 sel_own_o,
  output logic                 drop_own_o,
  output logic                 leave_o,
  output logic [3:0]           leave_cause_o,

  // Context store (gc_pbdma_ctx): reads of cur_ch_o / cur_ch_d_o, writes of cur_ch_o
  input  dec_ctx_t             cur_ctx_i,
  input  logic [NMREG-1:0][31:0] cur_mr_i,
  input  obj_e [NSUBCH-1:0]    cur_bind_i,
  input  logic [NCH-1:0]       in_ent_i,
  input  logic [AW-1:2]        ent_addr_i,      // of cur_ch_d_o
  input  logic [LEN_W-1:0]     ent_left_i,
  input  logic [GC_GP_ENTRY0_GET_W-1:0] ent_get_i,
  input  logic                 ent_sync_i,
  output logic                 ctx_we_o,
  output dec_ctx_t             ctx_o,
  output logic                 mreg_we_o,
  output mreg_e                mreg_sel_o,
  output logic                 bind_we_o,
  output obj_e                 bind_obj_o,
  output logic                 save_o,          // leave mid-entry: save the entry
  output logic [AW-1:2]        save_addr_o,
  output logic [LEN_W-1:0]     save_left_o,
  output logic [GC_GP_ENTRY0_GET_W-1:0] save_get_o,
  output logic                 save_sync_o,
  output logic                 resume_o,

  // Fetch unit (gc_pbdma_fetch)
  input  logic [32:0]          head_i,
  input  logic [FIFO_AW:0]     fifo_cnt_i,
  input  logic                 rx_live_i,
  input  logic                 ar_free_i,
  input  logic                 ar_sent_i,       // the GPFIFO read's AR was accepted
  input  cli_r_chan_t          m_r_i,           // the R beat (GPFIFO entry) of rx_live_i
  output logic                 ar_load_gp_o,
  output logic [AW-1:0]        gp_rd_addr_o,
  output logic                 seg_start_o,
  output logic [AW-1:2]        st_addr_o,
  output logic [LEN_W-1:0]     st_len_o,
  output logic                 stop_seg_o,
  output logic                 idle_next_o,
  output logic                 fetch_hold_o,
  output logic                 fifo_pop_o,
  output logic                 fifo_flush_o,
  output logic                 start_pf_o,      // seg_start_o takes the prefetched burst

  // Prefetch unit (gc_pbdma_pf)
  input  logic [CH_W-1:0]      pf_ch_i,         // its channel
  input  logic                 pf_gp_ok_i,      // the GPFIFO entry at pf_ch_i's GP_GET ...
  input  logic [63:0]          pf_gp_ent_i,
  input  logic                 pf_gp_err_i,     // ... (read with a bus error)
  input  logic                 pf_pb_ok_i,      // the first burst of its segment
  input  logic                 pf_mid_i,        // ... of its saved entry
  input  logic [AW-1:2]        pf_pb_addr_i,
  output logic                 pf_keep_o,       // the prefetched entry is being taken (GP_WAIT)

  // Lookahead (gc_pbdma_pf SELF): the resident channel's next entry and its first burst
  output logic                 la_allow_o,      // the resident channel's next entry may be read
  input  logic                 la_gp_ok_i,      // the GPFIFO entry at cur_ch_o's GP_GET + 1 ...
  input  logic [63:0]          la_gp_ent_i,
  input  logic                 la_gp_err_i,     // ... (read with a bus error)
  input  logic                 la_pb_ok_i,      // the first burst of its segment
  output logic                 la_keep_o,       // the lookahead's entry is being taken (GP_WAIT)
  output logic                 pf_sel_la_o,     // start_pf_o takes the lookahead's burst

  // Semaphore unit (gc_pbdma_sem)
  input  aq_rsp_t              aq_rsp_i,        // the atomic unit's answer (valid, err)
  input  logic                 sem_pass_i,
  input  logic                 sem_acq_i,
  input  logic                 sem_sw_i,
  input  logic                 sem_busy_i,
  input  logic [NCH-1:0]       acq_woke_i,
  input  logic                 cur_due_i,
  input  logic                 cur_to_i,
  input  logic                 cur_ok_i,        // the resident channel's acquire is known to pass
  input  logic                 to_req_i,
  input  logic [CH_W-1:0]      to_ch_i,
  input  mref_t                to_method_i,
  input  logic [31:0]          to_data_i,
  output logic                 sem_start_o,     // the request the semaphore unit sends
  output logic [1:0]           sem_op_o,
  output logic [1:0]           sem_size_o,
  output logic [AW-1:0]        sem_addr_o,
  output logic [63:0]          sem_wdata_o,
  output logic                 acq_try_o,
  output logic                 acq_fail_o,
  output logic                 acq_pass_o,
  output logic                 acq_clr_o,
  output logic                 to_send_o,

  // Engine dispatch (gc_pbdma_eng)
  input  logic [NCH-1:0]       ce_pend_i,
  input  logic                 eng_excl_i,
  input  logic                 cur_eng_wait_i,
  input  logic                 cmd_hs_i,
  input  logic                 ce_fault_i,
  input  logic [CH_W-1:0]      ce_ch_i,
  input  logic [GPI_W-1:0]     ce_gp_get_i,
  input  mref_t                ce_method_i,
  input  logic [31:0]          ce_data_i,
  output logic                 launch_o,
  output logic                 launch_cp_o,
  output logic                 ce_reduce_o,
  output logic [GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_W-1:0] ce_red_o,
  output logic                 eng_clear_o,
  output logic                 abort_o,
  output mref_t                exe_method_o,    // err_method of the method being executed
  output logic [31:0]          exe_data_o,

  // Decoded method and the resident channel
  output pbdma_state_e         state_o,
  output logic [CH_W-1:0]      cur_ch_o,
  output logic [CH_W-1:0]      cur_ch_d_o,
  output logic [SC_W-1:0]      mthd_subch_o,
  output logic [31:0]          mthd_data_o,
  output logic [GPI_W-1:0]     cur_gp_get_o,

  // gc_pbdma's register-block outputs
  output logic                 gp_get_we_o,
  output logic [CH_W-1:0]      gp_get_ch_o,
  output logic [GPI_W-1:0]     gp_get_val_o,
  output logic                 fault_valid_o,
  output logic [CH_W-1:0]      fault_ch_o,
  output error_cause_e         fault_cause_o,
  output logic [GPI_W-1:0]     fault_gp_get_o,
  output mref_t                fault_method_o,
  output logic [31:0]          fault_data_o,
  output logic                 mthd_inc_o,
  output logic                 nonstall_o,
  output logic                 sw_valid_o,
  output logic [CH_W-1:0]      sw_ch_o,
  output logic [3:0]           sw_cause_o,
  output logic [GC_RUNLIST_DBG_PB_LEFT_W-1:0]  dbg_pb_left_o,
  output logic                 still_o          // waits for the engine, no register here changes
);

  localparam bit          HAS_CE   = (RL >= 1) && (RL <= GC_NUM_CE);
  localparam bit          HAS_CP   = (RL == 0);              // the compute engine
  localparam bit          HAS_ENG  = HAS_CE || HAS_CP;
  localparam logic [MA_W-1:0] HOST_END_DW = MA_W'(GC_HOST_METHODS_END / 4);

  // A SET_REMAP_COMPONENTS destination component that a memset can do
  function automatic logic remap_ok(input logic [2:0] c);
    return (c == GC_COPY_SET_REMAP_COMPONENTS_DST_X_CONST_A) ||
           (c == GC_COPY_SET_REMAP_COMPONENTS_DST_X_CONST_B) ||
           (c == GC_COPY_SET_REMAP_COMPONENTS_DST_X_NO_WRITE);
  endfunction

  // A fault the FSM records for the resident channel: its cause, and the ERROR.METHOD / DATA
  // words (a fault of a dispatched method gets its method and data filled in after dispatch)
  typedef struct packed {
    logic         raised;
    error_cause_e cause;
    mref_t        method;
    logic [31:0]  data;
  } flt_t;
  localparam flt_t FLT_NONE = '{raised: 1'b0, cause: ERROR_CAUSE_NONE, method: '0, data: '0};
  function automatic flt_t fault(input error_cause_e cause, input mref_t method = '0,
                                 input logic [31:0] data = '0);
    return '{raised: 1'b1, cause: cause, method: method, data: data};
  endfunction

  // ------------------------------------------------------------------------------------------
  // State
  // ------------------------------------------------------------------------------------------
  pbdma_state_e    state_q, state_d;
  logic [CH_W-1:0] cur_ch_q, cur_ch_d;
  logic            gp_pf_q;                  // GP_WAIT takes the prefetched entry
  logic            gp_la_q;                  // ... the lookahead's (with gp_pf_q)

  // Current segment
  logic [GC_GP_ENTRY0_GET_W-1:0] ent0_get_q; // GP_ENTRY0.GET of the entry being executed
  logic [LEN_W-1:0]     seg_left_q;          // dwords still to decode
  logic                 sync_q;              // SYNC WAIT: no fetch until the channel's copy is done
  logic [AW-1:2]        dec_addr_q;          // dword address of the FIFO head

  dec_ctx_t             pend_ctx_q;          // decoder context after the SEM_EXECUTE

  // Method being executed over several cycles
  logic [MA_W-1:0]      exe_addr_q;
  logic [SC_W-1:0]      exe_subch_q;
  logic [31:0]          exe_data_q;
  mref_t                exe_method;          // its ERROR.METHOD fields
  assign exe_method = err_method(exe_subch_q, exe_addr_q);

  // Pending fault record of the current channel
  logic                 flt_pend_q;
  error_cause_e         flt_cause_q;
  mref_t                flt_method_q;
  logic [31:0]          flt_data_q;

  // ------------------------------------------------------------------------------------------
  // Current-channel views
  // ------------------------------------------------------------------------------------------
  logic [GPI_W-1:0] cur_gp_get, gp_mask, nxt_gp_get;
  dec_ctx_t      cur_ctx;
  logic          resident;
  logic [32:0]   head;

  assign gp_mask    = GPI_W'(~(32'hFFFF_FFFF << ch_gpfifo_log2_i[cur_ch_q]));
  assign cur_gp_get = ch_gp_get_i[cur_ch_q];
  assign nxt_gp_get = (cur_gp_get + GPI_W'(1)) & gp_mask;
  assign cur_ctx    = cur_ctx_i;
  assign resident   = (state_q != PBDMA_STATE_IDLE);
  assign head       = head_i;

  // Abandon the channel being served: reset by the host, or an error recorded for it elsewhere.
  logic abort;
  assign abort = resident && (state_q != PBDMA_STATE_FAULT) &&
                 (state_q != PBDMA_STATE_CTX_SAVE) &&
                 (ch_reset_i[cur_ch_q] || ch_err_i[cur_ch_q]);

  // ------------------------------------------------------------------------------------------
  // Main FSM: selection, decode, dispatch, switches
  // ------------------------------------------------------------------------------------------
  logic                 fifo_pop, fifo_flush;
  logic                 seg_setup, resume, gp_pf_d, gp_la_d, start_pf;

  // The GPFIFO entry GP_WAIT looks at: read now, or prefetched
  logic        gp_rx, gp_err;
  logic [63:0] gp_ent;
  assign gp_rx  = gp_pf_q || rx_live_i;
  assign gp_ent = !gp_pf_q ? m_r_i.data : gp_la_q ? la_gp_ent_i : pf_gp_ent_i;
  assign gp_err = !gp_pf_q ? resp_err(m_r_i.resp) : gp_la_q ? la_gp_err_i : pf_gp_err_i;

  // Decoded method (waveform strobe)
  logic                 mthd_valid;
  logic [MA_W-1:0]      mthd_addr;
  logic [SC_W-1:0]      mthd_subch;
  logic [31:0]          mthd_data;

  // Per-channel updates for cur_ch_q
  logic                 ctx_we;
  dec_ctx_t             ctx_d;
  logic                 mreg_we;
  mreg_e                mreg_sel;
  logic                 bind_we;
  obj_e                 bind_obj;
  logic                 launch_cp;          // compute launch (SEND_SIGNALING_PCAS_B SCHEDULE)
  logic                 ar_load_gp;
  logic [AW-1:0]        gp_rd_addr;
  logic                 aq_start;
  logic [1:0]           aq_op_d, aq_size_d;
  logic [AW-1:0]        aq_addr_d;
  logic [63:0]          aq_wdata_d;
  logic                 launch;
  logic                 ce_reduce;          // LAUNCH_DMA: the release is a reduction ...
  logic [GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_W-1:0] ce_red;   // ... this one
  logic                 exe_load;
  logic                 stop_seg;            // stop fetching, discard R data still in flight

  // Scheduler actions
  logic                 sel_rr, sel_guest, sel_own;
  logic                 drop_own;            // the owner gives up its slice (IDLE)
  logic                 leave, leave_save;
  logic [3:0]           leave_cause;
  logic                 acq_fail, acq_pass, acq_try;
  logic                 sem_done;            // the SEM_EXECUTE being executed is done
  logic                 to_send;             // fault port sends a switched-out channel's timeout

  // Fault entry
  flt_t                 flt_d;

  // Method-header fields of the FIFO head
  logic [MA_W-1:0]                      head_addr;
  logic [SC_W-1:0]                      head_subch;
  logic [GC_METHOD_HEADER_SEC_OP_W-1:0] head_op;
  assign head_addr  = head[GC_METHOD_HEADER_ADDRESS_LSB +: GC_METHOD_HEADER_ADDRESS_W];
  assign head_subch = head[GC_METHOD_HEADER_SUBCHANNEL_LSB +: GC_METHOD_HEADER_SUBCHANNEL_W];
  assign head_op    = head[GC_METHOD_HEADER_SEC_OP_LSB +: GC_METHOD_HEADER_SEC_OP_W];

  // REMAP (memset): every DST component of SET_REMAP_COMPONENTS is CONST_A, CONST_B or NO_WRITE
  // Only the NUM_DST_COMPONENTS components that exist must name a constant (or NO_WRITE); the
  // selectors of the others are don't-care.
  logic       remap_comp_ok;
  logic [1:0] remap_ndst;
  assign remap_ndst = cur_mr_i[MR_REMAP_COMP][GC_COPY_SET_REMAP_COMPONENTS_NUM_DST_COMPONENTS_LSB +:
                                              GC_COPY_SET_REMAP_COMPONENTS_NUM_DST_COMPONENTS_W];
  assign remap_comp_ok =
      remap_ok(cur_mr_i[MR_REMAP_COMP][GC_COPY_SET_REMAP_COMPONENTS_DST_X_LSB +:
                                       GC_COPY_SET_REMAP_COMPONENTS_DST_X_W]) &&
      (remap_ndst < 2'd1 ||
       remap_ok(cur_mr_i[MR_REMAP_COMP][GC_COPY_SET_REMAP_COMPONENTS_DST_Y_LSB +:
                                        GC_COPY_SET_REMAP_COMPONENTS_DST_Y_W])) &&
      (remap_ndst < 2'd2 ||
       remap_ok(cur_mr_i[MR_REMAP_COMP][GC_COPY_SET_REMAP_COMPONENTS_DST_Z_LSB +:
                                        GC_COPY_SET_REMAP_COMPONENTS_DST_Z_W])) &&
      (remap_ndst < 2'd3 ||
       remap_ok(cur_mr_i[MR_REMAP_COMP][GC_COPY_SET_REMAP_COMPONENTS_DST_W_LSB +:
                                        GC_COPY_SET_REMAP_COMPONENTS_DST_W_W]));

  // Host semaphore address of the current channel
  logic [AW-1:0] sem_addr;
  assign sem_addr = {cur_mr_i[MR_SEM_ADDR_HI][GC_HOST_SEM_ADDR_HI_OFFSET_LSB +:
                                              GC_HOST_SEM_ADDR_HI_OFFSET_W],
                     cur_mr_i[MR_SEM_ADDR_LO][GC_HOST_SEM_ADDR_LO_OFFSET_LSB +:
                                              GC_HOST_SEM_ADDR_LO_OFFSET_W],
                     2'b00};

  always_comb begin
    logic [31:0]  d;
    logic         is_mthd, dispatch, needs_eng;
    logic [GC_HOST_SEM_EXECUTE_OPERATION_W-1:0] sem_op;
    logic         sem_is64, sem_ts;
    logic [GC_HOST_SEM_EXECUTE_REDUCTION_W-1:0] sem_red;
    logic [3:0]   ce_sem_lo;
    logic [GC_COPY_LAUNCH_DMA_DATA_TRANSFER_TYPE_W-1:0] dtt;
    logic [GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE_W-1:0]     semt;
    logic [GC_COPY_LAUNCH_DMA_INTERRUPT_TYPE_W-1:0]     intt;
    logic         ce_unsup, sem_sgn, ce_sgn;
    logic         pass;

    state_d       = state_q;
    cur_ch_d      = cur_ch_q;
    fifo_pop      = 1'b0;
    fifo_flush    = 1'b0;
    seg_setup     = 1'b0;
    resume        = 1'b0;
    gp_pf_d       = 1'b0;
    gp_la_d       = 1'b0;
    start_pf      = 1'b0;
    mthd_valid    = 1'b0;
    mthd_addr     = '0;
    mthd_subch    = '0;
    mthd_data     = '0;
    ctx_we        = 1'b0;
    ctx_d         = cur_ctx;
    mreg_we       = 1'b0;
    mreg_sel      = MR_SEM_ADDR_LO;
    bind_we       = 1'b0;
    bind_obj      = OBJ_COPY;
    launch_cp     = 1'b0;
    ar_load_gp    = 1'b0;
    gp_rd_addr    = gp_addr(ch_gpfifo_base_i[cur_ch_q], ch_gpfifo_log2_i[cur_ch_q], 32'(nxt_gp_get));
    aq_start      = 1'b0;
    aq_op_d       = SEM_AOP_READ;
    aq_size_d     = SEM_ASIZE_4;
    aq_addr_d     = sem_addr;
    aq_wdata_d    = '0;
    launch        = 1'b0;
    exe_load      = 1'b0;
    stop_seg      = 1'b0;
    sel_rr        = 1'b0;
    sel_guest     = 1'b0;
    sel_own       = 1'b0;
    drop_own      = 1'b0;
    leave         = 1'b0;
    leave_save    = 1'b0;
    leave_cause   = '0;
    acq_fail      = 1'b0;
    acq_pass      = 1'b0;
    acq_try       = 1'b0;
    sem_done      = 1'b0;
    flt_d         = FLT_NONE;
    gp_get_we_o   = 1'b0;
    gp_get_ch_o   = cur_ch_q;
    gp_get_val_o  = nxt_gp_get;
    mthd_inc_o    = 1'b0;
    nonstall_o    = 1'b0;
    is_mthd       = 1'b0;
    dispatch      = 1'b0;
    needs_eng     = 1'b0;
    d             = head[31:0];
    sem_op        = '0;
    sem_is64      = 1'b0;
    sem_ts        = 1'b0;
    sem_red       = '0;
    ce_sem_lo     = '0;
    dtt           = '0;
    semt          = '0;
    intt          = '0;
    ce_unsup      = 1'b0;
    sem_sgn       = 1'b0;
    ce_sgn        = 1'b0;
    ce_reduce     = 1'b0;
    ce_red        = '0;
    pass          = 1'b0;

    unique case (state_q)
      // ---------------------------------------------------------------------------------------
      PBDMA_STATE_IDLE: begin
        if (own_vld_i && hold_i) begin
          // The owner waits for its engine
          if (!own_eng_wait_i) begin
            if (!slice_exp_i && own_runnable_i) sel_own = 1'b1;
            else                               drop_own = 1'b1;  // round robin next cycle
          end else if (g_found_i) begin
            sel_guest = 1'b1;
          end
        end else if (rr_found_i) begin
          sel_rr = 1'b1;
        end
        if (!ar_free_i) begin   // the previous channel's last burst is still being presented
          sel_rr    = 1'b0;
          sel_guest = 1'b0;
          sel_own   = 1'b0;
          drop_own  = 1'b0;
        end
        if (sel_rr)    cur_ch_d = rr_ch_i;
        if (sel_guest) cur_ch_d = g_ch_i;
        if (sel_own)   cur_ch_d = own_i;
        if (sel_rr || sel_guest || sel_own) begin
          if (in_ent_i[cur_ch_d]) begin
            resume  = 1'b1;                    // (start_pf_mid below: its burst prefetched)
            state_d = PBDMA_STATE_PB_FETCH;
          end else if (pf_gp_ok_i && (pf_ch_i == cur_ch_d)) begin
            gp_pf_d = 1'b1;                    // the entry was prefetched: no GPFIFO read
            state_d = PBDMA_STATE_GP_WAIT;
          end else begin
            ar_load_gp = 1'b1;
            gp_rd_addr = gp_addr(ch_gpfifo_base_i[cur_ch_d], ch_gpfifo_log2_i[cur_ch_d],
                                 32'(ch_gp_get_i[cur_ch_d]));
            state_d    = PBDMA_STATE_GP_REQ;
          end
        end
      end

      // ---------------------------------------------------------------------------------------
      PBDMA_STATE_GP_REQ: begin
        // A slice that expires while the next entry is being read switches at once: the entry
        // is not consumed (GP_GET stays), its read is dropped and made again on return.
        if (abort) begin
          state_d = PBDMA_STATE_FAULT;
        end else if (sw_ts_i) begin
          leave = 1'b1;
          leave_cause[SW_TIMESLICE] = 1'b1;
        end else if (ar_sent_i) begin
          state_d = PBDMA_STATE_GP_WAIT;
        end
      end

      // ---------------------------------------------------------------------------------------
      PBDMA_STATE_GP_WAIT: begin
        if (abort) begin
          state_d = PBDMA_STATE_FAULT;
        end else if (gp_rx) begin
          if (gp_err) begin
            flt_d = fault(ERROR_CAUSE_BUS_ERROR, '0,
                          32'(gp_addr(ch_gpfifo_base_i[cur_ch_q], ch_gpfifo_log2_i[cur_ch_q],
                                      32'(cur_gp_get))));
          end else if (gp_ent[32 + GC_GP_ENTRY1_LENGTH_LSB +: GC_GP_ENTRY1_LENGTH_W] == '0) begin
            // Control entry
            if (gp_ent[32 + GC_GP_ENTRY1_OPCODE_LSB +: GC_GP_ENTRY1_OPCODE_W] ==
                GC_GP_ENTRY1_OPCODE_NOP) begin
              state_d = PBDMA_STATE_SEG_DONE;
            end else begin
              flt_d = fault(ERROR_CAUSE_INVALID_GPFIFO_ENTRY, '0, gp_ent[63:32]);
            end
          end else if (gp_ent[32 + GC_GP_ENTRY1_LEVEL_LSB +: GC_GP_ENTRY1_LEVEL_W] ==
                       GC_GP_ENTRY1_LEVEL_SUBROUTINE) begin
            flt_d = fault(ERROR_CAUSE_INVALID_GPFIFO_ENTRY, '0, gp_ent[63:32]);
          end else if (gp_ent[GC_GP_ENTRY0_FETCH_LSB +: GC_GP_ENTRY0_FETCH_W] != '0) begin
            // FETCH CONDITIONAL
            flt_d = fault(ERROR_CAUSE_UNSUPPORTED, '0, gp_ent[31:0]);
          end else begin
            seg_setup = 1'b1;
            // its first burst was prefetched (or read ahead by the lookahead)
            start_pf  = gp_pf_q && (gp_la_q ? la_pb_ok_i : (pf_pb_ok_i && !pf_mid_i));
            state_d   = PBDMA_STATE_PB_FETCH;
          end
        end else if (sw_ts_i) begin
          leave = 1'b1;                         // as in GP_REQ
          leave_cause[SW_TIMESLICE] = 1'b1;
        end
      end

      // ---------------------------------------------------------------------------------------
      PBDMA_STATE_PB_FETCH: begin
        if (abort) begin
          state_d = PBDMA_STATE_FAULT;
        end else if (seg_left_q == '0) begin
          state_d = PBDMA_STATE_SEG_DONE;
        end else if (sw_ts_i) begin
          leave       = 1'b1;
          leave_save  = 1'b1;
          leave_cause[SW_TIMESLICE] = 1'b1;
        end else if (sync_q && ce_pend_i[cur_ch_q]) begin
          state_d = PBDMA_STATE_ENGINE_WAIT;      // SYNC WAIT entry: the channel's copy first
        end else if (fifo_cnt_i != '0) begin
          if (head[32]) begin
            // Poisoned dword: its beat returned a bus error
            flt_d = fault(ERROR_CAUSE_BUS_ERROR, '0, {ent0_get_q, 2'b00});
          end else if (cur_ctx.count != '0) begin
            // Data dword of the current method run
            is_mthd    = 1'b1;
            mthd_addr  = cur_ctx.addr;
            mthd_subch = cur_ctx.subch;
            mthd_data  = d;
            ctx_d.count = cur_ctx.count - CNT_W'(1);
            if (cur_ctx.sec_op == GC_METHOD_HEADER_SEC_OP_INC_METHOD) begin
              ctx_d.addr = cur_ctx.addr + MA_W'(1);
            end else if (cur_ctx.sec_op == GC_METHOD_HEADER_SEC_OP_ONE_INC) begin
              ctx_d.addr   = cur_ctx.addr + MA_W'(1);
              ctx_d.sec_op = GC_METHOD_HEADER_SEC_OP_NON_INC_METHOD;
            end
          end else begin
            // Method header
            unique case (head_op)
              GC_METHOD_HEADER_SEC_OP_INC_METHOD, GC_METHOD_HEADER_SEC_OP_NON_INC_METHOD,
              GC_METHOD_HEADER_SEC_OP_ONE_INC: begin
                fifo_pop     = 1'b1;
                ctx_we       = 1'b1;
                ctx_d.sec_op = head_op;
                ctx_d.addr   = head_addr;
                ctx_d.subch  = head_subch;
                ctx_d.count  = d[GC_METHOD_HEADER_COUNT_LSB +: GC_METHOD_HEADER_COUNT_W];
              end
              GC_METHOD_HEADER_SEC_OP_IMMD_DATA_METHOD: begin
                is_mthd    = 1'b1;
                mthd_addr  = head_addr;
                mthd_subch = head_subch;
                mthd_data  = 32'(d[GC_METHOD_HEADER_IMMD_DATA_LSB +: GC_METHOD_HEADER_IMMD_DATA_W]);
              end
              GC_METHOD_HEADER_SEC_OP_END_PB_SEGMENT: begin
                fifo_pop = 1'b1;
                stop_seg = 1'b1;
                state_d  = PBDMA_STATE_SEG_DONE;
              end
              default: begin  // GRP0_USE_TERT, GRP2_USE_TERT, RESERVED6
                if (d == 32'(GC_PB_DMA_NOP)) begin
                  fifo_pop = 1'b1;                // NVIDIA's universal NOP: skipped
                end else begin
                  flt_d = fault(ERROR_CAUSE_INVALID_METHOD_HEADER,
                                err_method(head_subch, head_addr), d);
                end
              end
            endcase
          end

          // Does the method need the engine idle? (runlists with an engine only)
          if (is_mthd && HAS_ENG) begin
            if (mthd_addr < HOST_END_DW) begin
              needs_eng = (mthd_addr == GC_HOST_WFI_DW) ||
                          ((mthd_addr == GC_HOST_SEM_EXECUTE_DW) &&
                           (mthd_data[GC_HOST_SEM_EXECUTE_RELEASE_WFI_LSB +:
                                      GC_HOST_SEM_EXECUTE_RELEASE_WFI_W] ==
                            GC_HOST_SEM_EXECUTE_RELEASE_WFI_EN));
            end else begin
              needs_eng = (HAS_CE && (mthd_addr == GC_COPY_LAUNCH_DMA_DW) &&
                           (cur_bind_i[mthd_subch] == OBJ_COPY)) ||
                          (HAS_CP && (mthd_addr == GC_COMPUTE_SEND_SIGNALING_PCAS_B_DW) &&
                           (cur_bind_i[mthd_subch] == OBJ_COMPUTE) &&
                           (mthd_data[GC_COMPUTE_SEND_SIGNALING_PCAS_B_SCHEDULE_LSB +:
                                      GC_COMPUTE_SEND_SIGNALING_PCAS_B_SCHEDULE_W] ==
                            GC_COMPUTE_SEND_SIGNALING_PCAS_B_SCHEDULE_TRUE));
            end
          end

          // Every method of a channel waits for the channel's copy / task to complete; on a copy
          // runlist LAUNCH_DMA, WFI and RELEASE_WFI also wait while the engine is busy with
          // another channel's copy (the compute engine takes several channels' tasks at once).
          if (is_mthd && (ce_pend_i[cur_ch_q] || (needs_eng && eng_excl_i))) begin
            if (is_guest_i) begin
              leave       = 1'b1;
              leave_save  = 1'b1;
              leave_cause[SW_ENGINE] = 1'b1;
            end else begin
              state_d = PBDMA_STATE_ENGINE_WAIT;
            end
          end else if (is_mthd) begin
            dispatch = 1'b1;
            fifo_pop = 1'b1;
            ctx_we   = 1'b1;
          end
        end

        // ----- method dispatch -----
        if (dispatch) begin
          mthd_valid = 1'b1;
          if (mthd_addr < HOST_END_DW) begin
            // Host methods (any subchannel)
            unique case (mthd_addr)
              GC_HOST_SET_OBJECT_DW: begin
                if (mthd_data[GC_HOST_SET_OBJECT_NVCLASS_LSB +: GC_HOST_SET_OBJECT_NVCLASS_W] ==
                    GC_CLASS_COPY) begin
                  bind_we    = 1'b1;
                  mthd_inc_o = 1'b1;
                end else if (mthd_data[GC_HOST_SET_OBJECT_NVCLASS_LSB +: GC_HOST_SET_OBJECT_NVCLASS_W] ==
                             GC_CLASS_COMPUTE) begin
                  bind_we    = 1'b1;
                  bind_obj   = OBJ_COMPUTE;
                  mthd_inc_o = 1'b1;
                end else begin
                  flt_d = fault(ERROR_CAUSE_INVALID_CLASS);
                end
              end
              GC_HOST_NOP_DW, GC_HOST_WFI_DW: begin
                // WFI: the channel's copies are done (checked above before dispatch)
                mthd_inc_o = 1'b1;
              end
              GC_HOST_NON_STALL_INTERRUPT_DW: begin
                nonstall_o = 1'b1;
                mthd_inc_o = 1'b1;
              end
              GC_HOST_SEM_ADDR_LO_DW: begin
                mreg_we = 1'b1; mreg_sel = MR_SEM_ADDR_LO; mthd_inc_o = 1'b1;
              end
              GC_HOST_SEM_ADDR_HI_DW: begin
                mreg_we = 1'b1; mreg_sel = MR_SEM_ADDR_HI; mthd_inc_o = 1'b1;
              end
              GC_HOST_SEM_PAYLOAD_LO_DW: begin
                mreg_we = 1'b1; mreg_sel = MR_SEM_PAY_LO; mthd_inc_o = 1'b1;
              end
              GC_HOST_SEM_PAYLOAD_HI_DW: begin
                mreg_we = 1'b1; mreg_sel = MR_SEM_PAY_HI; mthd_inc_o = 1'b1;
              end
              GC_HOST_SEM_EXECUTE_DW: begin
                // Consumed only when the atomic unit answered (and an acquire passed)
                fifo_pop = 1'b0;
                ctx_we   = 1'b0;
                sem_op   = mthd_data[GC_HOST_SEM_EXECUTE_OPERATION_LSB +:
                                     GC_HOST_SEM_EXECUTE_OPERATION_W];
                sem_is64 = (mthd_data[GC_HOST_SEM_EXECUTE_PAYLOAD_SIZE_LSB +:
                                      GC_HOST_SEM_EXECUTE_PAYLOAD_SIZE_W] ==
                            GC_HOST_SEM_EXECUTE_PAYLOAD_SIZE_64BIT);
                sem_ts   = (mthd_data[GC_HOST_SEM_EXECUTE_RELEASE_TIMESTAMP_LSB +:
                                      GC_HOST_SEM_EXECUTE_RELEASE_TIMESTAMP_W] ==
                            GC_HOST_SEM_EXECUTE_RELEASE_TIMESTAMP_EN);
                sem_red  = mthd_data[GC_HOST_SEM_EXECUTE_REDUCTION_LSB +:
                                     GC_HOST_SEM_EXECUTE_REDUCTION_W];
                sem_sgn  = (mthd_data[GC_HOST_SEM_EXECUTE_REDUCTION_FORMAT_LSB +:
                                      GC_HOST_SEM_EXECUTE_REDUCTION_FORMAT_W] ==
                            GC_HOST_SEM_EXECUTE_REDUCTION_FORMAT_SIGNED);
                aq_wdata_d = sem_is64 ? {cur_mr_i[MR_SEM_PAY_HI], cur_mr_i[MR_SEM_PAY_LO]}
                                      : {32'h0, cur_mr_i[MR_SEM_PAY_LO]};
                aq_size_d  = sem_is64 ? SEM_ASIZE_8 : SEM_ASIZE_4;
                unique case (sem_op)
                  GC_HOST_SEM_EXECUTE_OPERATION_RELEASE,
                  GC_HOST_SEM_EXECUTE_OPERATION_REDUCTION: begin
                    // A release writes the payload, a reduction combines it with the memory
                    // value; with RELEASE_TIMESTAMP either writes 16 bytes {value, stamp}
                    aq_op_d = (sem_op == GC_HOST_SEM_EXECUTE_OPERATION_RELEASE) ? SEM_AOP_WRITE
                                                                                : SEM_AOP_RMW;
                    if (sem_ts) aq_size_d = sem_is64 ? SEM_ASIZE_16 : SEM_ASIZE_16W;
                    if (sem_op == GC_HOST_SEM_EXECUTE_OPERATION_REDUCTION &&
                        sem_red > GC_HOST_SEM_EXECUTE_REDUCTION_DEC) begin
                      flt_d = fault(ERROR_CAUSE_UNSUPPORTED);
                    end else if (sem_op == GC_HOST_SEM_EXECUTE_OPERATION_REDUCTION &&
                                 !sem_red_form_ok(sem_red, sem_sgn, sem_is64)) begin
                      flt_d = fault(ERROR_CAUSE_INVALID_REDUCTION);
                    end else if ((sem_ts && sem_addr[3:0] != 4'h0) ||
                                 (sem_is64 && sem_addr[2:0] != 3'b000)) begin
                      flt_d = fault(ERROR_CAUSE_MISALIGNED_SEMAPHORE);
                    end
                  end
                  GC_HOST_SEM_EXECUTE_OPERATION_ACQUIRE,
                  GC_HOST_SEM_EXECUTE_OPERATION_ACQ_STRICT_GEQ,
                  GC_HOST_SEM_EXECUTE_OPERATION_ACQ_CIRC_GEQ,
                  GC_HOST_SEM_EXECUTE_OPERATION_ACQ_AND,
                  GC_HOST_SEM_EXECUTE_OPERATION_ACQ_NOR: begin
                    aq_op_d = SEM_AOP_READ;
                    acq_try = 1'b1;
                    if (sem_is64 && sem_addr[2:0] != 3'b000) begin
                      flt_d = fault(ERROR_CAUSE_MISALIGNED_SEMAPHORE);
                    end
                  end
                  default: begin
                    flt_d = fault(ERROR_CAUSE_UNSUPPORTED);
                  end
                endcase
                if (!flt_d.raised && acq_try && cur_ok_i) begin
                  // A snooped write already satisfied this acquire (it is dispatched again
                  // after a switch): done without reading the semaphore
                  acq_pass   = 1'b1;
                  acq_try    = 1'b0;
                  fifo_pop   = 1'b1;
                  ctx_we     = 1'b1;
                  mthd_inc_o = 1'b1;
                end else if (!flt_d.raised) begin
                  aq_start = 1'b1;
                  exe_load = 1'b1;
                  state_d  = PBDMA_STATE_SEM_WAIT;
                end else begin
                  acq_try = 1'b0;
                end
              end
              default: begin
                flt_d = fault(ERROR_CAUSE_INVALID_METHOD);
              end
            endcase
          end else if (cur_bind_i[mthd_subch] == OBJ_NONE) begin
            flt_d = fault(ERROR_CAUSE_INVALID_SUBCHANNEL);
          end else if ((cur_bind_i[mthd_subch] == OBJ_COPY && !HAS_CE) ||
                       (cur_bind_i[mthd_subch] == OBJ_COMPUTE && !HAS_CP)) begin
            // A class bound on a runlist without its engine: bound, its methods not executed
            flt_d = fault(ERROR_CAUSE_UNSUPPORTED);
          end else if (cur_bind_i[mthd_subch] == OBJ_COMPUTE) begin
            // COMPUTE class (runlist 0)
            mthd_inc_o = 1'b1;
            unique case (mthd_addr)
              GC_COMPUTE_SEND_PCAS_A_DW: begin mreg_we = 1'b1; mreg_sel = MR_PCAS_A; end
              GC_COMPUTE_SEND_SIGNALING_PCAS_B_DW: begin
                // SCHEDULE: launch (counted when the engine takes it); INVALIDATE alone: nothing
                if (mthd_data[GC_COMPUTE_SEND_SIGNALING_PCAS_B_SCHEDULE_LSB +:
                              GC_COMPUTE_SEND_SIGNALING_PCAS_B_SCHEDULE_W] ==
                    GC_COMPUTE_SEND_SIGNALING_PCAS_B_SCHEDULE_TRUE) begin
                  mthd_inc_o = 1'b0;
                  launch_cp  = 1'b1;
                  exe_load   = 1'b1;
                  state_d    = PBDMA_STATE_EXEC;
                end
              end
              default: begin
                mthd_inc_o  = 1'b0;
                flt_d = fault(ERROR_CAUSE_INVALID_METHOD);
              end
            endcase
          end else begin
            // COPY class
            mthd_inc_o = 1'b1;
            unique case (mthd_addr)
              GC_COPY_OFFSET_IN_UPPER_DW:    begin mreg_we = 1'b1; mreg_sel = MR_OFS_IN_UPPER;  end
              GC_COPY_OFFSET_IN_LOWER_DW:    begin mreg_we = 1'b1; mreg_sel = MR_OFS_IN_LOWER;  end
              GC_COPY_OFFSET_OUT_UPPER_DW:   begin mreg_we = 1'b1; mreg_sel = MR_OFS_OUT_UPPER; end
              GC_COPY_OFFSET_OUT_LOWER_DW:   begin mreg_we = 1'b1; mreg_sel = MR_OFS_OUT_LOWER; end
              GC_COPY_PITCH_IN_DW:           begin mreg_we = 1'b1; mreg_sel = MR_PITCH_IN;      end
              GC_COPY_PITCH_OUT_DW:          begin mreg_we = 1'b1; mreg_sel = MR_PITCH_OUT;     end
              GC_COPY_LINE_LENGTH_IN_DW:     begin mreg_we = 1'b1; mreg_sel = MR_LINE_LEN;      end
              GC_COPY_LINE_COUNT_DW:         begin mreg_we = 1'b1; mreg_sel = MR_LINE_COUNT;    end
              GC_COPY_SET_SEMAPHORE_A_DW:    begin mreg_we = 1'b1; mreg_sel = MR_CE_SEM_A;      end
              GC_COPY_SET_SEMAPHORE_B_DW:    begin mreg_we = 1'b1; mreg_sel = MR_CE_SEM_B;      end
              GC_COPY_SET_SEMAPHORE_PAYLOAD_DW: begin mreg_we = 1'b1; mreg_sel = MR_CE_SEM_PAY; end
              GC_COPY_SET_REMAP_CONST_A_DW:  begin mreg_we = 1'b1; mreg_sel = MR_REMAP_A;       end
              GC_COPY_SET_REMAP_CONST_B_DW:  begin mreg_we = 1'b1; mreg_sel = MR_REMAP_B;       end
              GC_COPY_SET_REMAP_COMPONENTS_DW: begin mreg_we = 1'b1; mreg_sel = MR_REMAP_COMP;  end
              GC_COPY_LAUNCH_DMA_DW: begin
                mthd_inc_o = 1'b0;  // counted when the copy engine takes the command
                dtt  = mthd_data[GC_COPY_LAUNCH_DMA_DATA_TRANSFER_TYPE_LSB +:
                                 GC_COPY_LAUNCH_DMA_DATA_TRANSFER_TYPE_W];
                semt = mthd_data[GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE_LSB +:
                                 GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE_W];
                intt = mthd_data[GC_COPY_LAUNCH_DMA_INTERRUPT_TYPE_LSB +:
                                 GC_COPY_LAUNCH_DMA_INTERRUPT_TYPE_W];
                ce_sem_lo = cur_mr_i[MR_CE_SEM_B][3:0];   // SET_SEMAPHORE_B.LOWER bits 3:0
                ce_reduce = (mthd_data[GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_ENABLE_LSB +:
                                       GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_ENABLE_W] ==
                             GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_ENABLE_TRUE);
                ce_red    = mthd_data[GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_LSB +:
                                      GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_W];
                ce_sgn    = (mthd_data[GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_SIGN_LSB +:
                                       GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_SIGN_W] ==
                             GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_SIGN_SIGNED);
                // Every field decoded (spec COPY.LAUNCH_DMA): what is not implemented is
                // UNSUPPORTED; FLUSH_*, FORCE_RMWDISABLE, *_TYPE, *_BYPASS_L2 and DISABLE_PLC have
                // no effect here, whatever their value.
                ce_unsup =
                    !(dtt inside {GC_COPY_LAUNCH_DMA_DATA_TRANSFER_TYPE_NONE,
                                  GC_COPY_LAUNCH_DMA_DATA_TRANSFER_TYPE_PIPELINED,
                                  GC_COPY_LAUNCH_DMA_DATA_TRANSFER_TYPE_NON_PIPELINED}) ||
                    !(semt inside {GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE_NONE,
                                   GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE_RELEASE_ONE_WORD_SEMAPHORE,
                                   GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE_RELEASE_FOUR_WORD_SEMAPHORE}) ||
                    !(intt inside {GC_COPY_LAUNCH_DMA_INTERRUPT_TYPE_NONE,
                                   GC_COPY_LAUNCH_DMA_INTERRUPT_TYPE_NON_BLOCKING}) ||
                    (mthd_data[GC_COPY_LAUNCH_DMA_VPRMODE_LSB +: GC_COPY_LAUNCH_DMA_VPRMODE_W] !=
                     GC_COPY_LAUNCH_DMA_VPRMODE_VPR_NONE) ||
                    (mthd_data[GC_COPY_LAUNCH_DMA_RESERVED_START_OF_COPY_LSB +:
                               GC_COPY_LAUNCH_DMA_RESERVED_START_OF_COPY_W] != '0) ||
                    (mthd_data[GC_COPY_LAUNCH_DMA_RESERVED_27_LSB +:
                               GC_COPY_LAUNCH_DMA_RESERVED_27_W] != '0) ||
                    (mthd_data[GC_COPY_LAUNCH_DMA_RESERVED_ERR_CODE_LSB +:
                               GC_COPY_LAUNCH_DMA_RESERVED_ERR_CODE_W] != '0) ||
                    // a reduction needs a release, and one of the integer reductions
                    (ce_reduce && (semt == GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE_NONE ||
                                   ce_red > GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_DEC)) ||
                    // data moves: pitch layouts (a memset reads nothing: its source layout
                    // does not matter) and a constant-only remap
                    ((dtt != GC_COPY_LAUNCH_DMA_DATA_TRANSFER_TYPE_NONE) &&
                     ((mthd_data[GC_COPY_LAUNCH_DMA_DST_MEMORY_LAYOUT_LSB +:
                                 GC_COPY_LAUNCH_DMA_DST_MEMORY_LAYOUT_W] !=
                       GC_COPY_LAUNCH_DMA_DST_MEMORY_LAYOUT_PITCH) ||
                      ((mthd_data[GC_COPY_LAUNCH_DMA_REMAP_ENABLE_LSB +:
                                  GC_COPY_LAUNCH_DMA_REMAP_ENABLE_W] ==
                        GC_COPY_LAUNCH_DMA_REMAP_ENABLE_TRUE) ?
                       !remap_comp_ok :
                       (mthd_data[GC_COPY_LAUNCH_DMA_SRC_MEMORY_LAYOUT_LSB +:
                                  GC_COPY_LAUNCH_DMA_SRC_MEMORY_LAYOUT_W] !=
                        GC_COPY_LAUNCH_DMA_SRC_MEMORY_LAYOUT_PITCH))));
                if (ce_unsup) begin
                  flt_d = fault(ERROR_CAUSE_UNSUPPORTED);
                end else if (ce_reduce && !sem_red_form_ok(ce_red, ce_sgn, 1'b0)) begin
                  flt_d = fault(ERROR_CAUSE_INVALID_REDUCTION);
                end else if ((semt == GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE_RELEASE_ONE_WORD_SEMAPHORE &&
                              ce_sem_lo[1:0] != 2'b00) ||
                             (semt == GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE_RELEASE_FOUR_WORD_SEMAPHORE &&
                              ce_sem_lo != 4'h0)) begin
                  flt_d = fault(ERROR_CAUSE_MISALIGNED_SEMAPHORE);
                end else begin
                  launch   = 1'b1;
                  exe_load = 1'b1;
                  state_d  = PBDMA_STATE_EXEC;
                end
              end
              default: begin
                mthd_inc_o  = 1'b0;
                flt_d = fault(ERROR_CAUSE_INVALID_METHOD);
              end
            endcase
          end
          if (flt_d.raised) begin
            // a dispatched method's fault names the method and its data
            mthd_inc_o   = 1'b0;
            mreg_we      = 1'b0;
            bind_we      = 1'b0;
            nonstall_o   = 1'b0;
            flt_d.method = err_method(mthd_subch, mthd_addr);
            flt_d.data   = mthd_data;
          end else if (state_d == PBDMA_STATE_PB_FETCH && seg_left_q == LEN_W'(1)) begin
            state_d = PBDMA_STATE_SEG_DONE;  // that was the segment's last dword
          end
        end else if (fifo_pop && !stop_seg && seg_left_q == LEN_W'(1)) begin
          state_d = PBDMA_STATE_SEG_DONE;    // the last dword was a header
        end
      end

      // ---------------------------------------------------------------------------------------
      PBDMA_STATE_ENGINE_WAIT: begin
        // The owner waits for the engine (its own copy / task, or another channel's copy);
        // guests may run.
        if (abort) begin
          state_d = PBDMA_STATE_FAULT;
        end else if (!cur_eng_wait_i) begin
          state_d = PBDMA_STATE_PB_FETCH;
        end else if (guest_avail_i) begin
          leave       = 1'b1;
          leave_save  = 1'b1;
          leave_cause[SW_ENGINE] = 1'b1;
        end
      end

      // ---------------------------------------------------------------------------------------
      PBDMA_STATE_EXEC: begin
        // LAUNCH_DMA / SEND_SIGNALING_PCAS_B: hand the command to the engine
        if (abort) begin
          state_d = PBDMA_STATE_FAULT;
        end else if (cmd_hs_i) begin
          mthd_inc_o = 1'b1;
          state_d    = (seg_left_q == '0) ? PBDMA_STATE_SEG_DONE : PBDMA_STATE_PB_FETCH;
        end
      end

      // ---------------------------------------------------------------------------------------
      PBDMA_STATE_SEM_WAIT: begin
        if (abort) begin
          state_d = PBDMA_STATE_FAULT;
        end else if (aq_rsp_i.valid) begin
          pass = sem_pass_i;
          if (aq_rsp_i.err) begin
            flt_d = fault(ERROR_CAUSE_BUS_ERROR, exe_method, exe_data_q);
          end else if (!sem_acq_i || pass) begin
            acq_pass = sem_acq_i;
            sem_done = 1'b1;
          end else begin
            acq_fail = 1'b1;
            if (cur_to_i) begin
              flt_d = fault(ERROR_CAUSE_ACQUIRE_TIMEOUT, exe_method, exe_data_q);
            end else if (sem_sw_i) begin
              leave       = 1'b1;
              leave_save  = 1'b1;
              leave_cause[SW_ACQUIRE] = 1'b1;
            end else begin
              state_d = PBDMA_STATE_ACQ_RETRY;
            end
          end
        end
      end

      // ---------------------------------------------------------------------------------------
      PBDMA_STATE_ACQ_RETRY: begin
        // ACQUIRE_SWITCH_TSG DIS: stay resident and retry (re-dispatch the SEM_EXECUTE)
        if (abort) begin
          state_d = PBDMA_STATE_FAULT;
        end else if (cur_to_i) begin
          flt_d = fault(ERROR_CAUSE_ACQUIRE_TIMEOUT, exe_method, exe_data_q);
        end else if (cur_ok_i) begin
          // A snooped write satisfied the acquire
          acq_pass = 1'b1;
          sem_done = 1'b1;
        end else if (cur_due_i || acq_woke_i[cur_ch_q]) begin
          state_d = PBDMA_STATE_PB_FETCH;
        end else if (sw_blk_i) begin
          leave       = 1'b1;
          leave_save  = 1'b1;
          leave_cause[SW_ACQUIRE] = 1'b1;
        end
      end

      // ---------------------------------------------------------------------------------------
      PBDMA_STATE_SEG_DONE: begin
        if (abort) begin
          state_d = PBDMA_STATE_FAULT;
        end else if (ar_free_i) begin
          // Entry done: advance GP_GET; go on with the next entry unless a switch is due.
          gp_get_we_o = 1'b1;
          fifo_flush  = 1'b1;
          stop_seg    = 1'b1;
          if (32'(nxt_gp_get) == ch_gp_put_i[cur_ch_q]) begin
            leave = 1'b1;
            leave_cause[SW_EMPTY] = 1'b1;
          end else if (sw_blk_i) begin   // the entry completes now: progress made
            leave = 1'b1;
            leave_cause[SW_TIMESLICE] = 1'b1;
          end else if (la_gp_ok_i) begin
            gp_pf_d = 1'b1;              // the lookahead read the next entry: no GPFIFO read
            gp_la_d = 1'b1;
            state_d = PBDMA_STATE_GP_WAIT;
          end else begin
            ar_load_gp = 1'b1;
            state_d    = PBDMA_STATE_GP_REQ;
          end
        end
      end

      // ---------------------------------------------------------------------------------------
      PBDMA_STATE_CTX_SAVE: begin
        // Context was saved when entering; nothing is outstanding on the atomic port here.
        state_d = PBDMA_STATE_IDLE;
      end

      // ---------------------------------------------------------------------------------------
      PBDMA_STATE_FAULT: begin
        // Record (unless dropped), then wait until no atomic request is outstanding.
        if (!flt_pend_q && !sem_busy_i) begin
          fifo_flush = 1'b1;
          state_d    = PBDMA_STATE_IDLE;
        end
      end

      default: state_d = PBDMA_STATE_IDLE;
    endcase

    // The SEM_EXECUTE in SEM_WAIT / ACQ_RETRY is done (a release, or an acquire that passed):
    // consume its dword, take the decoder context after it, count the method
    if (sem_done) begin
      fifo_pop   = 1'b1;
      ctx_we     = 1'b1;
      ctx_d      = pend_ctx_q;
      mthd_inc_o = 1'b1;
      state_d    = (seg_left_q == LEN_W'(1)) ? PBDMA_STATE_SEG_DONE : PBDMA_STATE_PB_FETCH;
    end
    if (leave) begin
      state_d  = PBDMA_STATE_CTX_SAVE;
      fifo_pop = 1'b0;
      ctx_we   = 1'b0;
      stop_seg = 1'b1;
      fifo_flush = 1'b1;
      ar_load_gp = 1'b0;
    end
    if (flt_d.raised) begin
      state_d  = PBDMA_STATE_FAULT;
      fifo_pop = 1'b0;
      ctx_we   = 1'b0;
      stop_seg = 1'b1;
      leave    = 1'b0;
      acq_pass = 1'b0;
    end
    if (state_d == PBDMA_STATE_FAULT) stop_seg = 1'b1;
  end
  // ------------------------------------------------------------------------------------------
  // Fault port: copy-engine errors (any channel) first, then the current channel's record,
  // then acquire timeouts of channels that are not resident.
  // ------------------------------------------------------------------------------------------
  always_comb begin
    to_send        = to_req_i;
    fault_valid_o  = 1'b0;
    fault_ch_o     = cur_ch_q;
    fault_cause_o  = flt_cause_q;
    fault_gp_get_o = cur_gp_get;
    fault_method_o = flt_method_q;
    fault_data_o   = flt_data_q;
    if (ce_fault_i) begin
      fault_valid_o  = 1'b1;
      fault_ch_o     = ce_ch_i;
      fault_cause_o  = HAS_CP ? ERROR_CAUSE_TASK_FAULT : ERROR_CAUSE_BUS_ERROR;
      fault_gp_get_o = ce_gp_get_i;
      fault_method_o = ce_method_i;
      fault_data_o   = ce_data_i;
      to_send        = 1'b0;
    end else if (state_q == PBDMA_STATE_FAULT && flt_pend_q && !ch_reset_i[cur_ch_q]) begin
      fault_valid_o  = 1'b1;
      to_send        = 1'b0;
    end else if (to_send) begin
      fault_valid_o  = 1'b1;
      fault_ch_o     = to_ch_i;
      fault_cause_o  = ERROR_CAUSE_ACQUIRE_TIMEOUT;
      fault_gp_get_o = ch_gp_get_i[to_ch_i];
      fault_method_o = to_method_i;
      fault_data_o   = to_data_i;
    end
  end

  // A holding owner whose slice expired while its copy ran loses the slice when the engine frees:
  // counted as a TIMESLICE switch of the owner.
  always_comb begin
    sw_valid_o = leave;
    sw_ch_o    = cur_ch_q;
    sw_cause_o = leave_cause;
    if (drop_own && slice_exp_i) begin
      sw_valid_o = 1'b1;
      sw_ch_o    = own_i;
      sw_cause_o = 4'(1) << SW_TIMESLICE;
    end
  end

  // ------------------------------------------------------------------------------------------
  // Outputs to the other parts
  // ------------------------------------------------------------------------------------------
  assign sel_rr_o      = sel_rr;
  assign sel_guest_o   = sel_guest;
  assign sel_own_o     = sel_own;
  assign drop_own_o    = drop_own;
  assign leave_o       = leave;
  assign leave_cause_o = leave_cause;

  assign ctx_we_o      = ctx_we;
  assign ctx_o         = ctx_d;
  assign mreg_we_o     = mreg_we;
  assign mreg_sel_o    = mreg_sel;
  assign bind_we_o     = bind_we;
  assign bind_obj_o    = bind_obj;
  assign save_o        = leave && leave_save;
  assign save_addr_o   = dec_addr_q;
  assign save_left_o   = seg_left_q;
  assign save_get_o    = ent0_get_q;
  assign save_sync_o   = sync_q;
  assign resume_o      = resume;

  // Segment (re)start: from the GPFIFO entry or from a saved context
  logic [AW-1:2]    seg_addr;   // dword address of the segment (from the GPFIFO entry)
  logic [LEN_W-1:0] seg_len;
  assign seg_addr = {gp_ent[32 + GC_GP_ENTRY1_GET_HI_LSB +: HI_W],
                     gp_ent[GC_GP_ENTRY0_GET_LSB +: GC_GP_ENTRY0_GET_W]};
  assign seg_len  = gp_ent[32 + GC_GP_ENTRY1_LENGTH_LSB +: GC_GP_ENTRY1_LENGTH_W];

  logic [AW-1:2]    st_addr;
  logic [LEN_W-1:0] st_len;
  assign st_addr = resume ? ent_addr_i : seg_addr;
  assign st_len  = resume ? ent_left_i : seg_len;

  assign ar_load_gp_o  = ar_load_gp;
  assign gp_rd_addr_o  = gp_rd_addr;
  assign seg_start_o   = seg_setup || resume;
  assign st_addr_o     = st_addr;
  assign st_len_o      = st_len;
  assign stop_seg_o    = stop_seg;
  assign idle_next_o   = (state_d == PBDMA_STATE_IDLE);
  assign fetch_hold_o  = sync_q && ce_pend_i[cur_ch_q];
  assign fifo_pop_o    = fifo_pop;
  assign fifo_flush_o  = fifo_flush;
  // a resumed entry takes the prefetched burst of its next undecoded dwords
  logic start_pf_mid;
  assign start_pf_mid  = resume && pf_pb_ok_i && pf_mid_i && (pf_ch_i == cur_ch_d) &&
                         (pf_pb_addr_i == ent_addr_i);
  assign start_pf_o    = start_pf || start_pf_mid;
  assign pf_keep_o     = (state_q == PBDMA_STATE_GP_WAIT) && gp_pf_q && !gp_la_q;
  assign la_keep_o     = (state_q == PBDMA_STATE_GP_WAIT) && gp_pf_q && gp_la_q;
  assign pf_sel_la_o   = gp_la_q;
  // The lookahead reads while the resident channel is inside an entry and its next one is published
  assign la_allow_o    = ((state_q == PBDMA_STATE_PB_FETCH) || (state_q == PBDMA_STATE_ENGINE_WAIT) ||
                          (state_q == PBDMA_STATE_EXEC) || (state_q == PBDMA_STATE_SEM_WAIT) ||
                          (state_q == PBDMA_STATE_SEM_WRITE) || (state_q == PBDMA_STATE_ACQ_RETRY)) &&
                         (32'(nxt_gp_get) != ch_gp_put_i[cur_ch_q]);

  assign sem_start_o   = aq_start;
  assign sem_op_o      = aq_op_d;
  assign sem_size_o    = aq_size_d;
  assign sem_addr_o    = aq_addr_d;
  assign sem_wdata_o   = aq_wdata_d;
  assign acq_try_o     = acq_try;
  assign acq_fail_o    = acq_fail;
  assign acq_pass_o    = acq_pass;
  assign acq_clr_o     = flt_d.raised && (flt_d.cause == ERROR_CAUSE_ACQUIRE_TIMEOUT);
  assign to_send_o     = to_send;

  assign launch_o      = launch;
  assign launch_cp_o   = launch_cp;
  assign ce_reduce_o   = ce_reduce;
  assign ce_red_o      = ce_red;
  assign eng_clear_o   = (state_d == PBDMA_STATE_FAULT);
  assign abort_o       = abort;
  assign exe_method_o  = exe_method;
  assign exe_data_o    = exe_data_q;

  assign state_o       = state_q;
  assign cur_ch_o      = cur_ch_q;
  assign cur_ch_d_o    = cur_ch_d;
  assign mthd_subch_o  = mthd_subch;
  assign mthd_data_o   = mthd_data;
  assign cur_gp_get_o  = cur_gp_get;

  // still_o: the FSM only waits for the engine and stays where it is this cycle, and no register
  // of this module changes. Two waits:
  //   ENGINE_WAIT  the resident channel's next method waits for its copy / task or the busy
  //                engine: not abandoned (abort), the wait not over (cur_eng_wait_i), no guest to
  //                leave for (guest_avail_i);
  //   IDLE         the owner holds its slice while its engine works (switched out for a guest,
  //                or its ring went empty with its copy in flight): its wait not over
  //                (own_eng_wait_i) and no guest to select (g_found_i);
  // and in both no SYNC WAIT flag to clear and gp_pf_q / gp_la_q 0 (their next value here). The
  // FSM's branch for the state then keeps state_d = state_q and cur_ch_d = cur_ch_q and leaves
  // every strobe at its default, which is what the other parts' still_o assume of the FSM: no
  // selection, drop_own or leave (so no save, eng_wait_set or switch), no ctx / mreg / bind
  // write, no resume or segment start, no GPFIFO read, pop, flush or stop, idle_next only in
  // IDLE, no method counted or GP_GET written (progress 0), no atomic request or acquire outcome
  // (acq_clr needs a fault), no launch, eng_clear 0 (state_d is not FAULT), no fault raised; the
  // fault port sends only an acquire timeout of a switched-out channel (to_send), which the
  // semaphore unit's still_o excludes (to_req_o)
  assign still_o       = !gp_pf_q && !gp_la_q && !(sync_q && !ce_pend_i[cur_ch_q]) &&
                         (((state_q == PBDMA_STATE_ENGINE_WAIT) && !abort && cur_eng_wait_i &&
                           !guest_avail_i) ||
                          ((state_q == PBDMA_STATE_IDLE) && own_vld_i && hold_i && own_eng_wait_i &&
                           !g_found_i));

  assign dbg_pb_left_o = (seg_left_q > LEN_W'({GC_RUNLIST_DBG_PB_LEFT_W{1'b1}})) ?
                         {GC_RUNLIST_DBG_PB_LEFT_W{1'b1}} :
                         GC_RUNLIST_DBG_PB_LEFT_W'(seg_left_q);

  // ------------------------------------------------------------------------------------------
  // Sequential: FSM, segment, method being executed, fault record
  // ------------------------------------------------------------------------------------------
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q       <= PBDMA_STATE_IDLE;
      cur_ch_q      <= '0;
      gp_pf_q       <= 1'b0;
      gp_la_q       <= 1'b0;
      ent0_get_q    <= '0;
      seg_left_q    <= '0;
      sync_q        <= 1'b0;
      dec_addr_q    <= '0;
      pend_ctx_q    <= '0;
      exe_addr_q    <= '0;
      exe_subch_q   <= '0;
      exe_data_q    <= '0;
      flt_pend_q    <= 1'b0;
      flt_cause_q   <= ERROR_CAUSE_NONE;
      flt_method_q  <= '0;
      flt_data_q    <= '0;
    end else begin
      state_q  <= state_d;
      gp_pf_q  <= gp_pf_d;
      gp_la_q  <= gp_la_d;
      cur_ch_q <= cur_ch_d;

      // ---- segment setup from the GPFIFO entry or a saved context ----
      if (seg_setup || resume) begin
        if (seg_setup) begin
          ent0_get_q <= gp_ent[GC_GP_ENTRY0_GET_LSB +: GC_GP_ENTRY0_GET_W];
          sync_q     <= (gp_ent[32 + GC_GP_ENTRY1_SYNC_LSB +: GC_GP_ENTRY1_SYNC_W] ==
                         GC_GP_ENTRY1_SYNC_WAIT);
        end else begin
          ent0_get_q <= ent_get_i;
          sync_q     <= ent_sync_i;
        end
        seg_left_q <= st_len;
        dec_addr_q <= st_addr;
      end
      if (sync_q && !ce_pend_i[cur_ch_q]) sync_q <= 1'b0;
      if (fifo_pop) begin
        seg_left_q <= seg_left_q - LEN_W'(1);
        dec_addr_q <= dec_addr_q + (AW - 2)'(1);
      end

      // ---- method being executed ----
      if (exe_load) begin
        exe_addr_q  <= mthd_addr;
        exe_subch_q <= mthd_subch;
        exe_data_q  <= mthd_data;
      end
      if (aq_start) pend_ctx_q <= ctx_d;

      // ---- fault record ----
      if (flt_d.raised) begin
        flt_pend_q   <= 1'b1;
        flt_cause_q  <= flt_d.cause;
        flt_method_q <= flt_d.method;
        flt_data_q   <= flt_d.data;
      end else if (state_q == PBDMA_STATE_FAULT &&
                   ((fault_valid_o && !ce_fault_i) || ch_reset_i[cur_ch_q])) begin
        flt_pend_q <= 1'b0;   // sent, or dropped because the channel is being reset
      end
    end
  end

  // Waveform-only signals, method registers not every one of which is read here, the R beat's
  // last and the atomic answer's ready and data (the semaphore unit takes them)
  logic unused_dec;
  assign unused_dec = ^{mthd_valid, cur_mr_i, m_r_i.last, aq_rsp_i.ready, aq_rsp_i.rdata};

endmodule
