// gc_pbdma: the push-buffer DMA. One PBDMA serves every channel.
//
//   selection   round robin over runnable channels (enabled, ERROR.CAUSE NONE, GP_GET != GP_PUT,
//               no copy of theirs outstanding); the PBDMA switches channel only between GPFIFO
//               entries. All per-channel state (method decoder, subchannel bindings, host
//               semaphore and copy-class method registers, copy-outstanding flag) lives in arrays
//               indexed by channel, so a later per-runlist scheduler with time slices only has to
//               replace the selection logic (see `runnable` / `sel_*`).
//   GPFIFO      one 8-byte read (single beat) per entry at GPFIFO_BASE + GP_GET * 8.
//   pushbuffer  LENGTH dwords fetched from {GET_HI, GET, 2'b00} in bursts of <= AXI_MAX_BURST
//               beats that never cross 4 KiB, into a dword FIFO; a burst is issued only when the
//               FIFO has room for all of its data, so up to PB_FIFO_DW / (2 * AXI_MAX_BURST)
//               bursts are in flight. A beat's dwords outside the segment are skipped. A beat that
//               returns a bus error is queued as poisoned dwords: the fault is raised when the
//               decoder reaches them, so what executed before it does not depend on timing.
//   decode      method headers per METHOD_HEADER; the decoder context (sec_op, address,
//               subchannel, remaining count) is per channel and carries over segment boundaries.
//   dispatch    byte offsets below HOST_METHODS_END are host methods, the rest go to the class
//               bound to the subchannel by SET_OBJECT (only COPY exists).
//   copy engine LAUNCH_DMA sends one command to the copy engine; the channel's next method (and
//               the channel's next selection) waits until the copy's done_o.
//   faults      a fault is recorded through the fault port, the channel's outstanding memory
//               transactions drain (read data is discarded), the rest of the entry is dropped and
//               the PBDMA goes back to selection. GP_GET is not advanced past a faulting entry.
//               A channel that gets an error from elsewhere (register block, copy engine) or is
//               reset while it is being served is abandoned the same way, without a record.
//   counting    mthd_inc_o pulses once for every method that completed without a fault
//               (LAUNCH_DMA counts when the copy engine accepts the command).
module gc_pbdma
  import gpucosim_pkg::*;
#(
  parameter int unsigned PB_FIFO_DW = 64,  // pushbuffer dword FIFO depth (power of 2, >= 2 bursts)
  localparam int unsigned NCH  = GC_NUM_CHANNELS,
  localparam int unsigned CH_W = $clog2(NCH),
  localparam int unsigned AW   = GC_AXI_ADDR_W,
  localparam int unsigned LW   = GC_CHANNEL_GPFIFO_SIZE_LOG2_W
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,

  // Channel configuration / status from the register block
  input  logic [NCH-1:0]          ch_enable_i,
  input  logic [NCH-1:0]          ch_err_i,
  input  logic [NCH-1:0][AW-1:0]  ch_gpfifo_base_i,
  input  logic [NCH-1:0][LW-1:0]  ch_gpfifo_log2_i,
  input  logic [NCH-1:0][31:0]    ch_gp_put_i,
  input  logic [NCH-1:0][31:0]    ch_gp_get_i,
  input  logic [NCH-1:0]          ch_reset_i,

  // To the register block
  output logic                 gp_get_we_o,
  output logic [CH_W-1:0]      gp_get_ch_o,
  output logic [31:0]          gp_get_val_o,
  output logic                 fault_valid_o,
  output logic [CH_W-1:0]      fault_ch_o,
  output error_cause_e         fault_cause_o,
  output logic [31:0]          fault_gp_get_o,
  output logic [31:0]          fault_method_o,
  output logic [31:0]          fault_data_o,
  output logic                 mthd_inc_o,
  output logic [CH_W-1:0]      mthd_ch_o,
  output logic                 nonstall_o,
  output pbdma_state_e                             dbg_state_o,
  output logic [GC_GLOBAL_DBG_PBDMA_CHANNEL_W-1:0] dbg_ch_o,
  output logic [GC_GLOBAL_DBG_PBDMA_PB_LEFT_W-1:0] dbg_pb_left_o,

  // Copy engine command
  output logic                 cmd_valid_o,
  input  logic                 cmd_ready_i,
  output logic [7:0]           cmd_ch_o,
  output logic [AW-1:0]        cmd_src_o,
  output logic [AW-1:0]        cmd_dst_o,
  output logic [31:0]          cmd_line_len_o,
  output logic [31:0]          cmd_line_count_o,
  output logic [31:0]          cmd_pitch_in_o,
  output logic [31:0]          cmd_pitch_out_o,
  output logic                 cmd_copy_o,
  output logic                 cmd_sem_o,
  output logic [AW-1:0]        cmd_sem_addr_o,
  output logic [31:0]          cmd_sem_payload_o,
  output logic                 cmd_intr_o,
  input  logic                 ce_done_i,
  input  logic                 ce_done_err_i,

  // Client memory port (crossbar client 0)
  output logic                 m_arvalid_o,
  input  logic                 m_arready_i,
  output logic [AW-1:0]        m_araddr_o,
  output logic [7:0]           m_arlen_o,
  input  logic                 m_rvalid_i,
  output logic                 m_rready_o,
  input  logic [63:0]          m_rdata_i,
  input  logic [1:0]           m_rresp_i,
  input  logic                 m_rlast_i,
  output logic                 m_awvalid_o,
  input  logic                 m_awready_i,
  output logic [AW-1:0]        m_awaddr_o,
  output logic [7:0]           m_awlen_o,
  output logic                 m_wvalid_o,
  input  logic                 m_wready_i,
  output logic [63:0]          m_wdata_o,
  output logic [7:0]           m_wstrb_o,
  output logic                 m_wlast_o,
  input  logic                 m_bvalid_i,
  output logic                 m_bready_o,
  input  logic [1:0]           m_bresp_i
);

  // ------------------------------------------------------------------------------------------
  // Local constants (memory-bus and internal sizes, not device encodings)
  // ------------------------------------------------------------------------------------------
  localparam int unsigned BEAT_B     = GC_AXI_DATA_W / 8;     // bytes per beat (8)
  localparam int unsigned BEAT_LSB   = $clog2(BEAT_B);        // 3
  localparam int unsigned PAGE_LSB   = 12;                    // AXI: bursts never cross 4 KiB
  localparam int unsigned PAGE_BEATS = (1 << PAGE_LSB) / BEAT_B;
  localparam int unsigned LEN_W      = GC_GP_ENTRY1_LENGTH_W; // segment length in dwords
  localparam int unsigned BEATS_W    = LEN_W + 1;
  localparam int unsigned FIFO_AW    = $clog2(PB_FIFO_DW);
  localparam int unsigned RD_OUT_W   = FIFO_AW + 1;           // beats in flight <= PB_FIFO_DW / 2
  localparam int unsigned MA_W       = GC_METHOD_HEADER_ADDRESS_W;
  localparam int unsigned SC_W       = GC_METHOD_HEADER_SUBCHANNEL_W;
  localparam int unsigned CNT_W      = GC_METHOD_HEADER_COUNT_W;
  localparam int unsigned NSUBCH     = 1 << SC_W;
  localparam int unsigned HI_W       = AW - 32;               // address bits above 31
  localparam logic [MA_W-1:0] HOST_END_DW = MA_W'(GC_HOST_METHODS_END / 4);

  // Object bound to a subchannel by SET_OBJECT
  typedef enum logic [0:0] {
    OBJ_NONE = 1'b0,
    OBJ_COPY = 1'b1
  } obj_e;

  // Per-channel method-register file slots (host semaphore and copy-class state)
  typedef enum logic [3:0] {
    MR_SEM_ADDR_LO   = 4'd0,
    MR_SEM_ADDR_HI   = 4'd1,
    MR_SEM_PAY_LO    = 4'd2,
    MR_SEM_PAY_HI    = 4'd3,
    MR_OFS_IN_UPPER  = 4'd4,
    MR_OFS_IN_LOWER  = 4'd5,
    MR_OFS_OUT_UPPER = 4'd6,
    MR_OFS_OUT_LOWER = 4'd7,
    MR_PITCH_IN      = 4'd8,
    MR_PITCH_OUT     = 4'd9,
    MR_LINE_LEN      = 4'd10,
    MR_LINE_COUNT    = 4'd11,
    MR_CE_SEM_A      = 4'd12,
    MR_CE_SEM_B      = 4'd13,
    MR_CE_SEM_PAY    = 4'd14
  } mreg_e;
  localparam int unsigned NMREG = 15;

  // Per-channel method decoder context
  typedef struct packed {
    logic [GC_METHOD_HEADER_SEC_OP_W-1:0] sec_op;
    logic [MA_W-1:0]                      addr;
    logic [SC_W-1:0]                      subch;
    logic [CNT_W-1:0]                     count;   // data dwords still to come
  } dec_ctx_t;

  // ------------------------------------------------------------------------------------------
  // Field helpers
  // ------------------------------------------------------------------------------------------
  // ERROR_METHOD register layout
  function automatic logic [31:0] err_method(input logic [SC_W-1:0] sc, input logic [MA_W-1:0] a);
    logic [31:0] v;
    v = '0;
    v[GC_CHANNEL_ERROR_METHOD_SUBCHANNEL_LSB +: GC_CHANNEL_ERROR_METHOD_SUBCHANNEL_W] = sc;
    v[GC_CHANNEL_ERROR_METHOD_ADDRESS_LSB +: GC_CHANNEL_ERROR_METHOD_ADDRESS_W] = a;
    return v;
  endfunction
  // AXI RRESP / BRESP: SLVERR (2) or DECERR (3) is a bus error
  function automatic logic resp_err(input logic [1:0] r);
    return (r == 2'b10) || (r == 2'b11);
  endfunction

  // ------------------------------------------------------------------------------------------
  // State
  // ------------------------------------------------------------------------------------------
  pbdma_state_e    state_q, state_d;
  logic [CH_W-1:0] cur_ch_q, cur_ch_d;

  // Per-channel context
  dec_ctx_t             ctx_q   [NCH];
  obj_e                 bind_q  [NCH][NSUBCH];
  logic [31:0]          mreg_q  [NCH][NMREG];
  logic [NCH-1:0]       ce_pend_q;           // a copy launched by the channel is not done yet

  // Current segment
  logic [GC_GP_ENTRY0_GET_W-1:0] ent0_get_q; // GP_ENTRY0.GET of the entry being executed
  logic [LEN_W-1:0]     seg_left_q;          // dwords still to decode
  logic [LEN_W-1:0]     rx_left_q;           // dwords still to receive
  logic                 rx_skip_q;           // skip the low dword of the next beat
  logic                 rx_en_q;             // R data belongs to the segment (else discarded)
  logic                 fetch_en_q;          // more bursts may be issued
  logic                 sync_q;              // SYNC WAIT: no fetch until the CE is idle for us
  logic [AW-1:BEAT_LSB] fetch_addr_q;        // next beat to request
  logic [BEATS_W-1:0]   fetch_beats_q;       // beats still to request

  // Pushbuffer dword FIFO (bit 32 = poisoned by a bus error)
  logic [32:0]          fifo_q [PB_FIFO_DW];
  logic [FIFO_AW-1:0]   fifo_wptr_q, fifo_rptr_q;
  logic [FIFO_AW:0]     fifo_cnt_q;

  // Memory read issue / tracking
  logic                 ar_valid_q;
  logic [AW-1:0]        ar_addr_q;
  logic [7:0]           ar_len_q;
  logic [RD_OUT_W-1:0]  rd_beats_q;          // beats requested (AR loaded) and not yet received

  // Memory write (semaphore release)
  logic                 aw_valid_q, w_valid_q, b_wait_q;
  logic [AW-1:0]        wr_addr_q;
  logic [63:0]          wr_data_q;
  logic [7:0]           wr_strb_q;

  // Method being executed over several cycles (and the waveform strobe)
  logic [MA_W-1:0]      exe_addr_q;
  logic [SC_W-1:0]      exe_subch_q;
  logic [31:0]          exe_data_q;

  // Pending fault record of the current channel
  logic                 flt_pend_q;
  error_cause_e         flt_cause_q;
  logic [31:0]          flt_method_q, flt_data_q;

  // Copy engine command and tracking
  logic                 cmd_valid_q;
  logic [AW-1:0]        cmd_src_q, cmd_dst_q, cmd_sem_addr_q;
  logic [31:0]          cmd_line_len_q, cmd_line_count_q, cmd_pitch_in_q, cmd_pitch_out_q;
  logic [31:0]          cmd_sem_payload_q;
  logic                 cmd_copy_q, cmd_sem_q, cmd_intr_q;
  logic                 ce_busy_q;           // a command was accepted and is not done
  logic [CH_W-1:0]      ce_ch_q;
  logic                 ce_cancel_q;         // its channel was reset meanwhile: ignore its error
  logic [31:0]          ce_gp_get_q, ce_method_q, ce_data_q;

  // ------------------------------------------------------------------------------------------
  // Current-channel views
  // ------------------------------------------------------------------------------------------
  logic [31:0]   cur_gp_get, gp_mask;
  logic [AW-1:0] gp_entry_addr;
  dec_ctx_t      cur_ctx;

  assign gp_mask       = ~(32'hFFFF_FFFF << ch_gpfifo_log2_i[cur_ch_q]);
  assign cur_gp_get    = ch_gp_get_i[cur_ch_q];
  assign cur_ctx       = ctx_q[cur_ch_q];

  // Abandon the channel being served: reset by the host, or an error recorded for it elsewhere.
  logic abort;
  assign abort = (state_q != PBDMA_STATE_IDLE) && (state_q != PBDMA_STATE_FAULT) &&
                 (ch_reset_i[cur_ch_q] || ch_err_i[cur_ch_q]);

  // ------------------------------------------------------------------------------------------
  // Channel selection (round robin after the current channel)
  // ------------------------------------------------------------------------------------------
  logic [NCH-1:0]  runnable;
  logic            sel_found;
  logic [CH_W-1:0] sel_ch;

  always_comb begin
    for (int c = 0; c < NCH; c++) begin
      runnable[c] = ch_enable_i[c] && !ch_err_i[c] && !ch_reset_i[c] && !ce_pend_q[c] &&
                    (ch_gp_get_i[c] != ch_gp_put_i[c]);
    end
    sel_found = 1'b0;
    sel_ch    = cur_ch_q;
    for (int i = 1; i <= NCH; i++) begin
      if (!sel_found && runnable[(32'(cur_ch_q) + i) % NCH]) begin
        sel_found = 1'b1;
        sel_ch    = CH_W'((32'(cur_ch_q) + i) % NCH);
      end
    end
  end

  // GPFIFO entry address of the selected channel
  logic [31:0] sel_gp_mask;
  assign sel_gp_mask   = ~(32'hFFFF_FFFF << ch_gpfifo_log2_i[sel_ch]);
  assign gp_entry_addr = ch_gpfifo_base_i[sel_ch] +
                         {(AW - 32 - BEAT_LSB)'(0), ch_gp_get_i[sel_ch] & sel_gp_mask, BEAT_LSB'(0)};

  // ------------------------------------------------------------------------------------------
  // Pushbuffer fetch: burst sizing and credit
  // ------------------------------------------------------------------------------------------
  logic [BEATS_W-1:0] burst_beats;
  logic [PAGE_LSB-BEAT_LSB:0] to_page;  // beats up to the next 4 KiB boundary
  logic               fetch_go;

  always_comb begin
    to_page     = (PAGE_LSB - BEAT_LSB + 1)'(PAGE_BEATS) -
                  {1'b0, fetch_addr_q[PAGE_LSB-1:BEAT_LSB]};
    burst_beats = fetch_beats_q;
    if (burst_beats > BEATS_W'(GC_AXI_MAX_BURST)) burst_beats = BEATS_W'(GC_AXI_MAX_BURST);
    if (burst_beats > BEATS_W'(to_page))          burst_beats = BEATS_W'(to_page);
  end

  assign fetch_go = fetch_en_q && (fetch_beats_q != '0) && !ar_valid_q &&
                    !(sync_q && ce_pend_q[cur_ch_q]) &&
                    (32'(fifo_cnt_q) + 2 * (32'(rd_beats_q) + 32'(burst_beats)) <= PB_FIFO_DW);

  // ------------------------------------------------------------------------------------------
  // R beat: split into the segment's dwords
  // ------------------------------------------------------------------------------------------
  logic rx_beat, rx_lo, rx_hi;
  assign rx_beat = m_rvalid_i && rx_en_q;
  assign rx_lo   = rx_beat && !rx_skip_q && (rx_left_q != '0);
  assign rx_hi   = rx_beat && ((rx_left_q - LEN_W'(rx_lo)) != '0);

  // ------------------------------------------------------------------------------------------
  // Main FSM: decode and dispatch
  // ------------------------------------------------------------------------------------------
  logic                 fifo_pop, fifo_flush;
  logic [32:0]          head;
  logic                 seg_setup;

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
  logic                 ar_load_gp, ar_load_pb;
  logic                 sem_start;
  logic [AW-1:0]        sem_addr;
  logic [63:0]          sem_data;
  logic [7:0]           sem_strb;
  logic                 launch;
  logic                 exe_load;
  logic                 cmd_hs;
  logic                 stop_seg;            // stop fetching and discard further R data

  // Fault entry
  logic                 flt_set;
  error_cause_e         flt_cause_d;
  logic [31:0]          flt_method_d, flt_data_d;
  logic                 ce_fault;

  assign head     = fifo_q[fifo_rptr_q];

  // Method-header fields of the FIFO head
  logic [MA_W-1:0]                      head_addr;
  logic [SC_W-1:0]                      head_subch;
  logic [GC_METHOD_HEADER_SEC_OP_W-1:0] head_op;
  assign head_addr  = head[GC_METHOD_HEADER_ADDRESS_LSB +: GC_METHOD_HEADER_ADDRESS_W];
  assign head_subch = head[GC_METHOD_HEADER_SUBCHANNEL_LSB +: GC_METHOD_HEADER_SUBCHANNEL_W];
  assign head_op    = head[GC_METHOD_HEADER_SEC_OP_LSB +: GC_METHOD_HEADER_SEC_OP_W];

  assign cmd_hs   = cmd_valid_o && cmd_ready_i;
  assign ce_fault = ce_done_i && ce_done_err_i && ce_busy_q && !ce_cancel_q;

  // Method registers of the current channel
  logic [NMREG-1:0][31:0] cur_mr;
  always_comb begin
    for (int r = 0; r < NMREG; r++) cur_mr[r] = mreg_q[cur_ch_q][r];
  end

  always_comb begin
    logic [31:0]  d;
    logic         is_mthd, dispatch;
    logic [GC_HOST_SEM_EXECUTE_OPERATION_W-1:0] sem_op;
    logic [1:0]   ce_sem_lo;
    logic [GC_COPY_LAUNCH_DMA_DATA_TRANSFER_TYPE_W-1:0] dtt;
    logic [GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE_W-1:0]     semt;
    logic [GC_COPY_LAUNCH_DMA_INTERRUPT_TYPE_W-1:0]     intt;

    state_d       = state_q;
    cur_ch_d      = cur_ch_q;
    fifo_pop      = 1'b0;
    fifo_flush    = 1'b0;
    seg_setup     = 1'b0;
    mthd_valid    = 1'b0;
    mthd_addr     = '0;
    mthd_subch    = '0;
    mthd_data     = '0;
    ctx_we        = 1'b0;
    ctx_d         = cur_ctx;
    mreg_we       = 1'b0;
    mreg_sel      = MR_SEM_ADDR_LO;
    bind_we       = 1'b0;
    ar_load_gp    = 1'b0;
    ar_load_pb    = 1'b0;
    sem_start     = 1'b0;
    sem_addr      = '0;
    sem_data      = '0;
    sem_strb      = '0;
    launch        = 1'b0;
    exe_load      = 1'b0;
    stop_seg      = 1'b0;
    flt_set       = 1'b0;
    flt_cause_d   = ERROR_CAUSE_NONE;
    flt_method_d  = '0;
    flt_data_d    = '0;
    gp_get_we_o   = 1'b0;
    gp_get_ch_o   = cur_ch_q;
    gp_get_val_o  = (cur_gp_get + 32'd1) & gp_mask;
    mthd_inc_o    = 1'b0;
    nonstall_o    = 1'b0;
    is_mthd       = 1'b0;
    dispatch      = 1'b0;
    d             = head[31:0];
    sem_op        = '0;
    ce_sem_lo     = '0;
    dtt           = '0;
    semt          = '0;
    intt          = '0;

    ar_load_pb = fetch_go;

    unique case (state_q)
      // ---------------------------------------------------------------------------------------
      PBDMA_STATE_IDLE: begin
        if (sel_found) begin
          cur_ch_d   = sel_ch;
          ar_load_gp = 1'b1;
          state_d    = PBDMA_STATE_GP_REQ;
        end
      end

      // ---------------------------------------------------------------------------------------
      PBDMA_STATE_GP_REQ: begin
        if (abort) begin
          state_d = PBDMA_STATE_FAULT;
        end else if (m_arvalid_o && m_arready_i) begin
          state_d = PBDMA_STATE_GP_WAIT;
        end
      end

      // ---------------------------------------------------------------------------------------
      PBDMA_STATE_GP_WAIT: begin
        if (abort) begin
          state_d = PBDMA_STATE_FAULT;
        end else if (m_rvalid_i) begin
          if (resp_err(m_rresp_i)) begin
            flt_set     = 1'b1;
            flt_cause_d = ERROR_CAUSE_BUS_ERROR;
            flt_data_d  = 32'(ch_gpfifo_base_i[cur_ch_q] +
                              {(AW - 32 - BEAT_LSB)'(0), cur_gp_get & gp_mask, BEAT_LSB'(0)});
          end else if (m_rdata_i[32 + GC_GP_ENTRY1_LENGTH_LSB +: GC_GP_ENTRY1_LENGTH_W] == '0) begin
            // Control entry
            if (m_rdata_i[32 + GC_GP_ENTRY1_OPCODE_LSB +: GC_GP_ENTRY1_OPCODE_W] ==
                GC_GP_ENTRY1_OPCODE_NOP) begin
              state_d = PBDMA_STATE_SEG_DONE;
            end else begin
              flt_set     = 1'b1;
              flt_cause_d = ERROR_CAUSE_INVALID_GPFIFO_ENTRY;
              flt_data_d  = m_rdata_i[63:32];
            end
          end else if (m_rdata_i[32 + GC_GP_ENTRY1_LEVEL_LSB +: GC_GP_ENTRY1_LEVEL_W] ==
                       GC_GP_ENTRY1_LEVEL_SUBROUTINE) begin
            flt_set     = 1'b1;
            flt_cause_d = ERROR_CAUSE_INVALID_GPFIFO_ENTRY;
            flt_data_d  = m_rdata_i[63:32];
          end else if (m_rdata_i[GC_GP_ENTRY0_FETCH_LSB +: GC_GP_ENTRY0_FETCH_W] != '0) begin
            // FETCH CONDITIONAL
            flt_set     = 1'b1;
            flt_cause_d = ERROR_CAUSE_UNSUPPORTED;
            flt_data_d  = m_rdata_i[31:0];
          end else begin
            seg_setup = 1'b1;
            state_d   = PBDMA_STATE_PB_FETCH;
          end
        end
      end

      // ---------------------------------------------------------------------------------------
      PBDMA_STATE_PB_FETCH: begin
        if (abort) begin
          state_d = PBDMA_STATE_FAULT;
        end else if (seg_left_q == '0) begin
          state_d = PBDMA_STATE_SEG_DONE;
        end else if (fifo_cnt_q != '0) begin
          if (head[32]) begin
            // Poisoned dword: its beat returned a bus error
            flt_set     = 1'b1;
            flt_cause_d = ERROR_CAUSE_BUS_ERROR;
            flt_data_d  = {ent0_get_q, 2'b00};
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
                flt_set      = 1'b1;
                flt_cause_d  = ERROR_CAUSE_INVALID_METHOD_HEADER;
                flt_method_d = err_method(head_subch, head_addr);
                flt_data_d   = d;
              end
            endcase
          end

          // A method of a channel waits for the channel's copy to complete (this also covers
          // WFI and SEM_EXECUTE.RELEASE_WFI).
          if (is_mthd && ce_pend_q[cur_ch_q]) begin
            state_d = PBDMA_STATE_ENGINE_WAIT;
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
                end else begin
                  flt_set     = 1'b1;
                  flt_cause_d = ERROR_CAUSE_INVALID_CLASS;
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
                sem_op   = mthd_data[GC_HOST_SEM_EXECUTE_OPERATION_LSB +:
                                     GC_HOST_SEM_EXECUTE_OPERATION_W];
                sem_addr = {cur_mr[MR_SEM_ADDR_HI][GC_HOST_SEM_ADDR_HI_OFFSET_LSB +:
                                                         GC_HOST_SEM_ADDR_HI_OFFSET_W],
                            cur_mr[MR_SEM_ADDR_LO][GC_HOST_SEM_ADDR_LO_OFFSET_LSB +:
                                                         GC_HOST_SEM_ADDR_LO_OFFSET_W],
                            2'b00};
                if (sem_op == GC_HOST_SEM_EXECUTE_OPERATION_RELEASE) begin
                  if (mthd_data[GC_HOST_SEM_EXECUTE_RELEASE_TIMESTAMP_LSB +:
                                GC_HOST_SEM_EXECUTE_RELEASE_TIMESTAMP_W] ==
                      GC_HOST_SEM_EXECUTE_RELEASE_TIMESTAMP_EN) begin
                    flt_set     = 1'b1;
                    flt_cause_d = ERROR_CAUSE_UNSUPPORTED;
                  end else if (mthd_data[GC_HOST_SEM_EXECUTE_PAYLOAD_SIZE_LSB +:
                                         GC_HOST_SEM_EXECUTE_PAYLOAD_SIZE_W] ==
                               GC_HOST_SEM_EXECUTE_PAYLOAD_SIZE_64BIT) begin
                    if (sem_addr[2:0] != 3'b000) begin
                      flt_set     = 1'b1;
                      flt_cause_d = ERROR_CAUSE_MISALIGNED_SEMAPHORE;
                    end else begin
                      sem_start = 1'b1;
                      sem_data  = {cur_mr[MR_SEM_PAY_HI], cur_mr[MR_SEM_PAY_LO]};
                      sem_strb  = 8'hFF;
                    end
                  end else begin
                    if (sem_addr[1:0] != 2'b00) begin
                      flt_set     = 1'b1;
                      flt_cause_d = ERROR_CAUSE_MISALIGNED_SEMAPHORE;
                    end else begin
                      sem_start = 1'b1;
                      sem_data  = {2{cur_mr[MR_SEM_PAY_LO]}};
                      sem_strb  = sem_addr[2] ? 8'hF0 : 8'h0F;
                    end
                  end
                end else begin
                  // ACQUIRE, ACQ_STRICT_GEQ, ACQ_CIRC_GEQ, ACQ_AND, ACQ_NOR, REDUCTION:
                  // not implemented yet (acquires and reductions plug in here).
                  flt_set     = 1'b1;
                  flt_cause_d = ERROR_CAUSE_UNSUPPORTED;
                end
                if (sem_start) begin
                  exe_load = 1'b1;
                  state_d  = PBDMA_STATE_SEM_WRITE;
                end
              end
              default: begin
                flt_set     = 1'b1;
                flt_cause_d = ERROR_CAUSE_INVALID_METHOD;
              end
            endcase
          end else if (bind_q[cur_ch_q][mthd_subch] != OBJ_COPY) begin
            flt_set     = 1'b1;
            flt_cause_d = ERROR_CAUSE_INVALID_SUBCHANNEL;
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
              GC_COPY_LAUNCH_DMA_DW: begin
                mthd_inc_o = 1'b0;  // counted when the copy engine takes the command
                dtt  = mthd_data[GC_COPY_LAUNCH_DMA_DATA_TRANSFER_TYPE_LSB +:
                                 GC_COPY_LAUNCH_DMA_DATA_TRANSFER_TYPE_W];
                semt = mthd_data[GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE_LSB +:
                                 GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE_W];
                intt = mthd_data[GC_COPY_LAUNCH_DMA_INTERRUPT_TYPE_LSB +:
                                 GC_COPY_LAUNCH_DMA_INTERRUPT_TYPE_W];
                ce_sem_lo   = cur_mr[MR_CE_SEM_B][1:0];   // SET_SEMAPHORE_B.LOWER bits 1:0
                if ((mthd_data[GC_COPY_LAUNCH_DMA_SRC_MEMORY_LAYOUT_LSB +:
                               GC_COPY_LAUNCH_DMA_SRC_MEMORY_LAYOUT_W] !=
                     GC_COPY_LAUNCH_DMA_SRC_MEMORY_LAYOUT_PITCH) ||
                    (mthd_data[GC_COPY_LAUNCH_DMA_DST_MEMORY_LAYOUT_LSB +:
                               GC_COPY_LAUNCH_DMA_DST_MEMORY_LAYOUT_W] !=
                     GC_COPY_LAUNCH_DMA_DST_MEMORY_LAYOUT_PITCH) ||
                    (mthd_data[GC_COPY_LAUNCH_DMA_REMAP_ENABLE_LSB +:
                               GC_COPY_LAUNCH_DMA_REMAP_ENABLE_W] !=
                     GC_COPY_LAUNCH_DMA_REMAP_ENABLE_FALSE) ||
                    !(dtt inside {GC_COPY_LAUNCH_DMA_DATA_TRANSFER_TYPE_NONE,
                                  GC_COPY_LAUNCH_DMA_DATA_TRANSFER_TYPE_PIPELINED,
                                  GC_COPY_LAUNCH_DMA_DATA_TRANSFER_TYPE_NON_PIPELINED}) ||
                    !(semt inside {GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE_NONE,
                                   GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE_RELEASE_ONE_WORD_SEMAPHORE}) ||
                    !(intt inside {GC_COPY_LAUNCH_DMA_INTERRUPT_TYPE_NONE,
                                   GC_COPY_LAUNCH_DMA_INTERRUPT_TYPE_NON_BLOCKING})) begin
                  flt_set     = 1'b1;
                  flt_cause_d = ERROR_CAUSE_UNSUPPORTED;
                end else if (semt == GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE_RELEASE_ONE_WORD_SEMAPHORE &&
                             ce_sem_lo != 2'b00) begin
                  flt_set     = 1'b1;
                  flt_cause_d = ERROR_CAUSE_MISALIGNED_SEMAPHORE;
                end else begin
                  launch   = 1'b1;
                  exe_load = 1'b1;
                  state_d  = PBDMA_STATE_EXEC;
                end
              end
              default: begin
                mthd_inc_o  = 1'b0;
                flt_set     = 1'b1;
                flt_cause_d = ERROR_CAUSE_INVALID_METHOD;
              end
            endcase
          end
          if (flt_set) begin
            mthd_inc_o   = 1'b0;
            mreg_we      = 1'b0;
            bind_we      = 1'b0;
            nonstall_o   = 1'b0;
            flt_method_d = err_method(mthd_subch, mthd_addr);
            flt_data_d   = mthd_data;
          end else if (state_d == PBDMA_STATE_PB_FETCH && seg_left_q == LEN_W'(1)) begin
            state_d = PBDMA_STATE_SEG_DONE;  // that was the segment's last dword
          end
        end else if (fifo_pop && !stop_seg && seg_left_q == LEN_W'(1)) begin
          state_d = PBDMA_STATE_SEG_DONE;    // the last dword was a header
        end
      end

      // ---------------------------------------------------------------------------------------
      PBDMA_STATE_ENGINE_WAIT: begin
        if (abort) begin
          state_d = PBDMA_STATE_FAULT;
        end else if (!ce_pend_q[cur_ch_q]) begin
          state_d = PBDMA_STATE_PB_FETCH;
        end
      end

      // ---------------------------------------------------------------------------------------
      PBDMA_STATE_EXEC: begin
        // LAUNCH_DMA: hand the command to the copy engine
        if (abort) begin
          state_d = PBDMA_STATE_FAULT;
        end else if (cmd_hs) begin
          mthd_inc_o = 1'b1;
          state_d    = PBDMA_STATE_PB_FETCH;
        end
      end

      // ---------------------------------------------------------------------------------------
      PBDMA_STATE_SEM_WRITE: begin
        if (abort) begin
          state_d = PBDMA_STATE_FAULT;
        end else if (b_wait_q && m_bvalid_i) begin
          if (resp_err(m_bresp_i)) begin
            flt_set      = 1'b1;
            flt_cause_d  = ERROR_CAUSE_BUS_ERROR;
            flt_method_d = err_method(exe_subch_q, exe_addr_q);
            flt_data_d   = exe_data_q;
          end else begin
            mthd_inc_o = 1'b1;
            state_d    = PBDMA_STATE_PB_FETCH;
          end
        end
      end

      // ---------------------------------------------------------------------------------------
      PBDMA_STATE_SEG_DONE: begin
        if (abort) begin
          state_d = PBDMA_STATE_FAULT;
        end else if (rd_beats_q == '0) begin
          // Everything drained (END_PB_SEGMENT may leave bursts in flight)
          gp_get_we_o = 1'b1;
          fifo_flush  = 1'b1;
          state_d     = PBDMA_STATE_IDLE;
        end
      end

      // ---------------------------------------------------------------------------------------
      PBDMA_STATE_FAULT: begin
        // Record (unless dropped), then wait until no memory transaction is outstanding.
        if (!flt_pend_q && rd_beats_q == '0 && !aw_valid_q && !w_valid_q && !b_wait_q) begin
          fifo_flush = 1'b1;
          state_d    = PBDMA_STATE_IDLE;
        end
      end

      default: state_d = PBDMA_STATE_IDLE;
    endcase

    if (flt_set) begin
      state_d  = PBDMA_STATE_FAULT;
      fifo_pop = 1'b0;
      ctx_we   = 1'b0;
      stop_seg = 1'b1;
    end
    if (state_d == PBDMA_STATE_FAULT) stop_seg = 1'b1;
    if (stop_seg) ar_load_pb = 1'b0;
  end

  // ------------------------------------------------------------------------------------------
  // Fault port: copy-engine errors (any channel) first, then the current channel's record.
  // ------------------------------------------------------------------------------------------
  always_comb begin
    fault_valid_o  = 1'b0;
    fault_ch_o     = cur_ch_q;
    fault_cause_o  = flt_cause_q;
    fault_gp_get_o = cur_gp_get;
    fault_method_o = flt_method_q;
    fault_data_o   = flt_data_q;
    if (ce_fault) begin
      fault_valid_o  = 1'b1;
      fault_ch_o     = ce_ch_q;
      fault_cause_o  = ERROR_CAUSE_BUS_ERROR;
      fault_gp_get_o = ce_gp_get_q;
      fault_method_o = ce_method_q;
      fault_data_o   = ce_data_q;
    end else if (state_q == PBDMA_STATE_FAULT && flt_pend_q && !ch_reset_i[cur_ch_q]) begin
      fault_valid_o  = 1'b1;
    end
  end

  // ------------------------------------------------------------------------------------------
  // Outputs
  // ------------------------------------------------------------------------------------------
  assign mthd_ch_o = cur_ch_q;

  assign m_arvalid_o = ar_valid_q;
  assign m_araddr_o  = ar_addr_q;
  assign m_arlen_o   = ar_len_q;
  assign m_rready_o  = 1'b1;   // FIFO room is reserved before a burst is issued
  assign m_awvalid_o = aw_valid_q;
  assign m_awaddr_o  = wr_addr_q;
  assign m_awlen_o   = 8'd0;
  assign m_wvalid_o  = w_valid_q;
  assign m_wdata_o   = wr_data_q;
  assign m_wstrb_o   = wr_strb_q;
  assign m_wlast_o   = 1'b1;
  assign m_bready_o  = 1'b1;

  assign cmd_valid_o       = cmd_valid_q && !ce_busy_q && !abort;
  assign cmd_ch_o          = 8'(cur_ch_q);
  assign cmd_src_o         = cmd_src_q;
  assign cmd_dst_o         = cmd_dst_q;
  assign cmd_line_len_o    = cmd_line_len_q;
  assign cmd_line_count_o  = cmd_line_count_q;
  assign cmd_pitch_in_o    = cmd_pitch_in_q;
  assign cmd_pitch_out_o   = cmd_pitch_out_q;
  assign cmd_copy_o        = cmd_copy_q;
  assign cmd_sem_o         = cmd_sem_q;
  assign cmd_sem_addr_o    = cmd_sem_addr_q;
  assign cmd_sem_payload_o = cmd_sem_payload_q;
  assign cmd_intr_o        = cmd_intr_q;

  assign dbg_state_o   = state_q;
  assign dbg_ch_o      = GC_GLOBAL_DBG_PBDMA_CHANNEL_W'(cur_ch_q);
  assign dbg_pb_left_o = (seg_left_q > LEN_W'({GC_GLOBAL_DBG_PBDMA_PB_LEFT_W{1'b1}})) ?
                         {GC_GLOBAL_DBG_PBDMA_PB_LEFT_W{1'b1}} :
                         GC_GLOBAL_DBG_PBDMA_PB_LEFT_W'(seg_left_q);

  // ------------------------------------------------------------------------------------------
  // Sequential: FSM, segment, FIFO, memory ports, copy-engine tracking
  // ------------------------------------------------------------------------------------------
  logic [AW-1:2]    seg_addr;   // dword address of the segment
  logic [LEN_W-1:0] seg_len;
  assign seg_addr = {m_rdata_i[32 + GC_GP_ENTRY1_GET_HI_LSB +: HI_W],
                     m_rdata_i[GC_GP_ENTRY0_GET_LSB +: GC_GP_ENTRY0_GET_W]};
  assign seg_len  = m_rdata_i[32 + GC_GP_ENTRY1_LENGTH_LSB +: GC_GP_ENTRY1_LENGTH_W];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q       <= PBDMA_STATE_IDLE;
      cur_ch_q      <= '0;
      ent0_get_q    <= '0;
      seg_left_q    <= '0;
      rx_left_q     <= '0;
      rx_skip_q     <= 1'b0;
      rx_en_q       <= 1'b0;
      fetch_en_q    <= 1'b0;
      sync_q        <= 1'b0;
      fetch_addr_q  <= '0;
      fetch_beats_q <= '0;
      fifo_wptr_q   <= '0;
      fifo_rptr_q   <= '0;
      fifo_cnt_q    <= '0;
      ar_valid_q    <= 1'b0;
      ar_addr_q     <= '0;
      ar_len_q      <= '0;
      rd_beats_q    <= '0;
      aw_valid_q    <= 1'b0;
      w_valid_q     <= 1'b0;
      b_wait_q      <= 1'b0;
      wr_addr_q     <= '0;
      wr_data_q     <= '0;
      wr_strb_q     <= '0;
      exe_addr_q    <= '0;
      exe_subch_q   <= '0;
      exe_data_q    <= '0;
      flt_pend_q    <= 1'b0;
      flt_cause_q   <= ERROR_CAUSE_NONE;
      flt_method_q  <= '0;
      flt_data_q    <= '0;
      cmd_valid_q   <= 1'b0;
      cmd_src_q     <= '0;
      cmd_dst_q     <= '0;
      cmd_sem_addr_q <= '0;
      cmd_line_len_q <= '0;
      cmd_line_count_q <= '0;
      cmd_pitch_in_q <= '0;
      cmd_pitch_out_q <= '0;
      cmd_sem_payload_q <= '0;
      cmd_copy_q    <= 1'b0;
      cmd_sem_q     <= 1'b0;
      cmd_intr_q    <= 1'b0;
      ce_busy_q     <= 1'b0;
      ce_ch_q       <= '0;
      ce_cancel_q   <= 1'b0;
      ce_gp_get_q   <= '0;
      ce_method_q   <= '0;
      ce_data_q     <= '0;
      ce_pend_q     <= '0;
    end else begin
      logic [RD_OUT_W-1:0] rd_beats_n;
      logic [FIFO_AW:0]    cnt_n;
      logic [FIFO_AW-1:0]  wp;

      state_q  <= state_d;
      cur_ch_q <= cur_ch_d;

      // ---- memory read issue ----
      rd_beats_n = rd_beats_q;
      if (m_arvalid_o && m_arready_i) ar_valid_q <= 1'b0;
      if (ar_load_gp) begin
        ar_valid_q <= 1'b1;
        ar_addr_q  <= gp_entry_addr;
        ar_len_q   <= 8'd0;
        rd_beats_n = rd_beats_n + RD_OUT_W'(1);
      end else if (ar_load_pb) begin
        ar_valid_q    <= 1'b1;
        ar_addr_q     <= {fetch_addr_q, BEAT_LSB'(0)};
        ar_len_q      <= 8'(burst_beats - BEATS_W'(1));
        fetch_addr_q  <= fetch_addr_q + (AW - BEAT_LSB)'(burst_beats);
        fetch_beats_q <= fetch_beats_q - burst_beats;
        rd_beats_n = rd_beats_n + RD_OUT_W'(burst_beats);
      end
      if (m_rvalid_i) rd_beats_n = rd_beats_n - RD_OUT_W'(1);
      rd_beats_q <= rd_beats_n;

      // ---- segment setup from the GPFIFO entry ----
      if (seg_setup) begin
        ent0_get_q    <= m_rdata_i[GC_GP_ENTRY0_GET_LSB +: GC_GP_ENTRY0_GET_W];
        seg_left_q    <= seg_len;
        rx_left_q     <= seg_len;
        rx_skip_q     <= seg_addr[2];
        rx_en_q       <= 1'b1;
        fetch_en_q    <= 1'b1;
        sync_q        <= (m_rdata_i[32 + GC_GP_ENTRY1_SYNC_LSB +: GC_GP_ENTRY1_SYNC_W] ==
                          GC_GP_ENTRY1_SYNC_WAIT);
        fetch_addr_q  <= seg_addr[AW-1:BEAT_LSB];
        // beats covering [seg_addr, seg_addr + 4 * len)
        fetch_beats_q <= (BEATS_W'(seg_len) + BEATS_W'(seg_addr[2]) + BEATS_W'(1)) >> 1;
      end
      if (sync_q && !ce_pend_q[cur_ch_q]) sync_q <= 1'b0;

      // ---- R data into the FIFO ----
      if (rx_beat) begin
        rx_skip_q <= 1'b0;
        rx_left_q <= rx_left_q - LEN_W'(rx_lo) - LEN_W'(rx_hi);
        // no more bursts after a bus error: the decoder faults when it reaches the poison
        if (resp_err(m_rresp_i)) fetch_en_q <= 1'b0;
      end
      wp = fifo_wptr_q + FIFO_AW'(rx_lo) + FIFO_AW'(rx_hi);
      cnt_n = fifo_cnt_q + (FIFO_AW + 1)'(rx_lo) + (FIFO_AW + 1)'(rx_hi);
      if (fifo_pop) begin
        fifo_rptr_q <= fifo_rptr_q + FIFO_AW'(1);
        cnt_n       = cnt_n - (FIFO_AW + 1)'(1);
        seg_left_q  <= seg_left_q - LEN_W'(1);
      end
      fifo_wptr_q <= wp;
      fifo_cnt_q  <= cnt_n;
      if (fifo_flush || seg_setup) begin
        fifo_wptr_q <= '0;
        fifo_rptr_q <= '0;
        fifo_cnt_q  <= '0;
      end
      if (stop_seg) begin
        fetch_en_q <= 1'b0;
        rx_en_q    <= 1'b0;
      end
      if (state_d == PBDMA_STATE_IDLE) begin
        fetch_en_q <= 1'b0;
        rx_en_q    <= 1'b0;
      end

      // ---- method being executed ----
      if (exe_load) begin
        exe_addr_q  <= mthd_addr;
        exe_subch_q <= mthd_subch;
        exe_data_q  <= mthd_data;
      end

      // ---- semaphore release write ----
      if (sem_start) begin
        aw_valid_q <= 1'b1;
        wr_addr_q  <= {sem_addr[AW-1:BEAT_LSB], BEAT_LSB'(0)};
        wr_data_q  <= sem_data;
        wr_strb_q  <= sem_strb;
      end
      if (m_awvalid_o && m_awready_i) begin
        aw_valid_q <= 1'b0;
        w_valid_q  <= 1'b1;   // W only after the crossbar accepted the AW
      end
      if (m_wvalid_o && m_wready_i) begin
        w_valid_q <= 1'b0;
        b_wait_q  <= 1'b1;
      end
      if (m_bvalid_i && b_wait_q) b_wait_q <= 1'b0;

      // ---- fault record ----
      if (flt_set) begin
        flt_pend_q   <= 1'b1;
        flt_cause_q  <= flt_cause_d;
        flt_method_q <= flt_method_d;
        flt_data_q   <= flt_data_d;
      end else if (state_q == PBDMA_STATE_FAULT &&
                   ((fault_valid_o && !ce_fault) || ch_reset_i[cur_ch_q])) begin
        flt_pend_q <= 1'b0;   // sent, or dropped because the channel is being reset
      end

      // ---- copy engine ----
      if (launch) begin
        cmd_valid_q       <= 1'b1;
        cmd_src_q         <= {cur_mr[MR_OFS_IN_UPPER][GC_COPY_OFFSET_IN_UPPER_UPPER_LSB +: HI_W],
                              cur_mr[MR_OFS_IN_LOWER]};
        cmd_dst_q         <= {cur_mr[MR_OFS_OUT_UPPER][GC_COPY_OFFSET_OUT_UPPER_UPPER_LSB +: HI_W],
                              cur_mr[MR_OFS_OUT_LOWER]};
        cmd_line_len_q    <= cur_mr[MR_LINE_LEN];
        cmd_line_count_q  <= (mthd_data[GC_COPY_LAUNCH_DMA_MULTI_LINE_ENABLE_LSB +:
                                        GC_COPY_LAUNCH_DMA_MULTI_LINE_ENABLE_W] ==
                              GC_COPY_LAUNCH_DMA_MULTI_LINE_ENABLE_TRUE) ?
                             cur_mr[MR_LINE_COUNT] : 32'd1;
        cmd_pitch_in_q    <= cur_mr[MR_PITCH_IN];
        cmd_pitch_out_q   <= cur_mr[MR_PITCH_OUT];
        cmd_copy_q        <= (mthd_data[GC_COPY_LAUNCH_DMA_DATA_TRANSFER_TYPE_LSB +:
                                        GC_COPY_LAUNCH_DMA_DATA_TRANSFER_TYPE_W] !=
                              GC_COPY_LAUNCH_DMA_DATA_TRANSFER_TYPE_NONE);
        cmd_sem_q         <= (mthd_data[GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE_LSB +:
                                        GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE_W] ==
                              GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE_RELEASE_ONE_WORD_SEMAPHORE);
        cmd_sem_addr_q    <= {cur_mr[MR_CE_SEM_A][GC_COPY_SET_SEMAPHORE_A_UPPER_LSB +: HI_W],
                              cur_mr[MR_CE_SEM_B]};
        cmd_sem_payload_q <= cur_mr[MR_CE_SEM_PAY];
        cmd_intr_q        <= (mthd_data[GC_COPY_LAUNCH_DMA_INTERRUPT_TYPE_LSB +:
                                        GC_COPY_LAUNCH_DMA_INTERRUPT_TYPE_W] ==
                              GC_COPY_LAUNCH_DMA_INTERRUPT_TYPE_NON_BLOCKING);
      end
      if (cmd_hs || state_d == PBDMA_STATE_FAULT) cmd_valid_q <= 1'b0;
      if (cmd_hs) begin
        ce_busy_q   <= 1'b1;
        ce_ch_q     <= cur_ch_q;
        ce_cancel_q <= 1'b0;
        ce_gp_get_q <= cur_gp_get;
        ce_method_q <= err_method(exe_subch_q, exe_addr_q);
        ce_data_q   <= exe_data_q;
      end else if (ce_done_i && ce_busy_q) begin
        ce_busy_q <= 1'b0;
      end
      if (ce_busy_q && ch_reset_i[ce_ch_q]) ce_cancel_q <= 1'b1;
      for (int c = 0; c < NCH; c++) begin
        if (ce_done_i && ce_busy_q && 32'(ce_ch_q) == c) ce_pend_q[c] <= 1'b0;
        if (cmd_hs && 32'(cur_ch_q) == c)                ce_pend_q[c] <= 1'b1;
      end
    end
  end

  // FIFO storage (no reset needed: only entries below the write pointer are read)
  always_ff @(posedge clk_i) begin
    if (rx_lo) fifo_q[fifo_wptr_q] <= {resp_err(m_rresp_i), m_rdata_i[31:0]};
    if (rx_hi) fifo_q[fifo_wptr_q + FIFO_AW'(rx_lo)] <= {resp_err(m_rresp_i), m_rdata_i[63:32]};
  end

  // ------------------------------------------------------------------------------------------
  // Per-channel context arrays (a CTRL.RESET of the channel wins over updates)
  // ------------------------------------------------------------------------------------------
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int c = 0; c < NCH; c++) begin
        ctx_q[c] <= '0;
        for (int s = 0; s < NSUBCH; s++) bind_q[c][s] <= OBJ_NONE;
        for (int r = 0; r < NMREG; r++)  mreg_q[c][r] <= '0;
      end
    end else begin
      if (ctx_we)  ctx_q[cur_ch_q] <= ctx_d;
      if (mreg_we) mreg_q[cur_ch_q][mreg_sel] <= mthd_data;
      if (bind_we) bind_q[cur_ch_q][mthd_subch] <= OBJ_COPY;
      for (int c = 0; c < NCH; c++) begin
        if (ch_reset_i[c]) begin
          ctx_q[c] <= '0;
          for (int s = 0; s < NSUBCH; s++) bind_q[c][s] <= OBJ_NONE;
          for (int r = 0; r < NMREG; r++)  mreg_q[c][r] <= '0;
        end
      end
    end
  end

  // Waveform-only signals, and rlast (bursts are counted by beats)
  logic unused_pbdma;
  assign unused_pbdma = ^{mthd_valid, mthd_addr, mthd_subch, mthd_data, m_rlast_i};

endmodule
