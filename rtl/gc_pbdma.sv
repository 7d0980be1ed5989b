// gc_pbdma: the push-buffer DMA and host scheduler of one runlist (RL). gpu_top instantiates
// NUM_RUNLISTS of them; each serves only the channels whose RUNLIST.ID == RL. Runlist 0 owns the
// compute engine (gc_simt); runlist RL >= 1 owns copy engine RL-1 (the engine command port
// eng_req_o / eng_rsp_i, gc_eng_pkg).
//
//   scheduler   round robin over runnable channels (on this runlist, enabled, ERROR.CAUSE NONE,
//               work pending, not blocked on an acquire unless due for a retry or woken, not
//               waiting for a busy engine), with interleave levels: rounds r = 0, 1, 2 visit the
//               channels in index order, a channel is eligible in round r when LEVEL >= r (LOW 1,
//               MEDIUM 2, HIGH 3 turns per round). The selected channel becomes the *owner* of a
//               time slice of TIMESLICE cycles (0 counts as 1). Switches happen only at a method
//               boundary, never inside a method:
//                 TIMESLICE  the slice expired and another channel is runnable (if none is, the
//                            slice is renewed silently), and the channel has made progress: it
//                            completed a method (or a GPFIFO entry ended) since it was selected;
//                 ACQUIRE    an acquire failed with ACQUIRE_SWITCH_TSG EN (with DIS the channel
//                            stays resident in ACQ_RETRY, retrying, until its slice expires and
//                            another channel is runnable);
//                 ENGINE     the next method waits for the engine;
//                 EMPTY      the ring is empty.
//               Ownership: a channel whose next method waits for its own copy (every method after
//               a LAUNCH_DMA waits for the copy to complete), or whose ring went empty with its
//               copy in flight, keeps the slice ("hold") while other channels run as *guests*. A
//               guest runs host methods and copy-class parameter methods; LAUNCH_DMA, WFI and
//               RELEASE_WFI while the engine is busy stop it (switch cause ENGINE; the channel is
//               not runnable again until the engine is idle). A guest also leaves when its own
//               TIMESLICE of residency is used up and another guest is waiting, and it is
//               preempted (counted as TIMESLICE) when the engine frees: the owner then resumes
//               first if its slice has not expired, else round robin continues after the owner.
//               A copy in flight is never cut.
//               Forward progress: a channel selected for the engine (owner or guest) is not
//               switched away for an expired slice or turn until it has completed at least one
//               method, or its GPFIFO entry has ended, in that residency (prog_q). A switch
//               throws the reads in flight away, so without this a slice shorter than the memory
//               latency would refetch forever and nothing would complete. Two cases leave without
//               it: a guest preempted because the owner's engine work is over (the owner makes
//               the progress), and a channel blocked in ACQ_RETRY (its failed attempt was made;
//               it must be able to leave for the channel that would release it). So every
//               TIMESLICE switch of a channel follows one of its methods or entries:
//               SWITCH_TIMESLICE <= METHODS + entries, at any TIMESLICE >= 1.
//               Orders that depend on the slice's length (docs/architecture.md, "Copy priorities
//               and time slices") are not guaranteed by this rule.
//   context     per channel: decoder context (sec_op, address, subchannel, count), subchannel
//               bindings, host-semaphore and copy-class method registers, and for an entry left
//               mid-way its next undecoded dword address, dwords left, GET (for fault data) and
//               SYNC flag. A switch costs: the decision cycle (context saved, FIFO flushed,
//               fetch stopped), one in CTX_SAVE, one in IDLE (selection); the next channel's first
//               method follows at once when the prefetch unit holds its data. Reads still in
//               flight are not waited for: they are marked dead and their beats discarded as they
//               arrive (R data is in order per client), so the next channel's first read can be
//               issued at once. A slice that expires while the next entry is being read (GP_REQ,
//               GP_WAIT) switches at once too: the entry is not consumed and is read again.
//   prefetch    while a channel is resident, gc_pbdma_pf reads for the channel round robin
//               would pick next: its saved entry's next pushbuffer burst, or its GPFIFO entry at
//               GP_GET (its previous entry completed) and that entry's first burst. At the switch
//               the entry replaces the GPFIFO read and the burst preloads the FIFO. The data is
//               dropped (and read again) when the target's GP_PUT or GP_GET moves, it is reset,
//               disabled, faulted or moved to another runlist, or a completed write on the memory
//               bus (snoop_i) overlaps it; host writes to system memory are not on the bus:
//               the host must not rewrite a published entry or its pushbuffer.
//   lookahead   a second instance of the prefetch unit (SELF) reads the resident channel's own
//               next entry (GP_GET + 1, when published) and its first burst while the current
//               entry runs; when the entry completes, SEG_DONE takes them instead of the GPFIFO
//               read, so consecutive entries follow in 4 cycles (last method to first method),
//               and a slice expiring at an entry boundary switches at a method boundary instead of
//               during the leaving channel's own fetch. Dropped on the same conditions (a snooped
//               write over the entry or burst included: the work queues' entries after a gate are
//               written by threads while the gate blocks), and when the channel leaves.
//   GPFIFO      one 8-byte read per entry at GPFIFO_BASE + GP_GET * 8 (by the decoder, or ahead of
//               time by the lookahead or the prefetch); GP_GET advances when the entry completes.
//               Control entries: OPCODE NOP is skipped, others fault. SYNC WAIT: the entry's
//               pushbuffer is fetched only once the channel's copy has completed.
//   pushbuffer  fetched in bursts of <= AXI_MAX_BURST beats (never across 4 KiB) into a dword
//               FIFO; a burst is issued only when the FIFO has room for all of it. A beat with a
//               bus error is queued as poisoned dwords and faults when the decoder reaches it.
//               The word 0 where a header may stand is NVIDIA's DMA_NOP (PB_DMA_NOP): popped, not
//               a method; the other GRP0 / GRP2 / RESERVED6 headers fault INVALID_METHOD_HEADER.
//   R stage     every R beat of the memory port is registered first: the parts see a read's
//               data one cycle after it crossed the port, and nothing in the PBDMA follows the
//               memory's pins combinationally (rtl/README.md, "Simulation cost").
//   semaphores  SEM_EXECUTE goes to the atomic unit (aq_req_o / aq_rsp_i): acquires are READs compared
//               with gc_sem_pkg::sem_acquire_pass, RELEASE a WRITE, REDUCTION an RMW (4 or 8
//               bytes, or 16 with RELEASE_TIMESTAMP: SEM_ASIZE_16 / _16W, address 16-aligned).
//               A reduction form NVIDIA rejects (gc_sem_pkg::sem_red_form_ok) faults
//               INVALID_REDUCTION, a misaligned address MISALIGNED_SEMAPHORE, before any access.
//               LAUNCH_DMA: every field is decoded at dispatch (spec COPY.LAUNCH_DMA); a value not
//               implemented faults UNSUPPORTED, a rejected reduction form INVALID_REDUCTION;
//               DATA_TRANSFER_TYPE NONE only releases / interrupts (its layout fields are not
//               looked at); the reduction goes to the copy engine (cmd.sem_reduce / red / signed).
//               SEM_EXECUTE is consumed only when the operation succeeded, so a failed acquire
//               that switches out re-executes the same SEM_EXECUTE on resume. A failed acquire
//               is retried every ACQ_RETRY_INTERVAL cycles (0 counts as 1) or at once when the
//               crossbar's write snoop (snoop_i: any client's write, SIMT stores included)
//               reports a burst covering the awaited 8-byte word. The snoop carries the burst's
//               first beat: when that is the awaited word and holds every byte the
//               acquire reads, the acquire's condition is evaluated on it directly and a pass
//               completes the SEM_EXECUTE without reading the semaphore again (resident in
//               ACQ_RETRY: in the cycle after the snoop, i.e. 2 cycles after the release's B
//               response; switched out: when it is dispatched again). ACQ_TIMEOUT != 0:
//               blocked more than that many cycles (resident or not) faults the channel with
//               ACQUIRE_TIMEOUT.
//   faults      recorded through the fault port: copy-engine errors (the channel that launched
//               the copy) first, then the resident channel's record, then acquire timeouts of
//               switched-out channels. GP_GET is not advanced past a faulting entry. A channel
//               that gets an error from elsewhere or is reset while resident is abandoned.
//   counting    mthd_inc_o pulses once for every method that completed (LAUNCH_DMA when the
//               copy engine accepts the command, SEM_EXECUTE when the atomic unit answered and
//               the acquire passed). sw_valid_o reports every switch away with its cause.
//   compute     runlist 0: SET_OBJECT binds the COMPUTE class (COPY binds but its methods fault
//               UNSUPPORTED there, as COMPUTE's do on the copy runlists). SEND_PCAS_A is a method
//               register; SEND_SIGNALING_PCAS_B with SCHEDULE TRUE is the compute LAUNCH_DMA: the
//               TMD address SEND_PCAS_A << 8 goes to the engine on cmd.src (valid / ready,
//               counted when accepted; ready is the TMU's back-pressure: a free task table
//               entry). Unlike a copy engine the compute engine runs several channels' tasks at
//               once (docs/tmu.md "The PBDMA side"): a launch goes to the engine whenever it is
//               ready, never waiting for another channel's task, and no ENGINE switch is caused by
//               another channel's task (guests may launch too). Each channel has at most one task
//               in flight (ce_pend_q[ch]): the channel's next method, WFI and RELEASE_WFI
//               included, waits until the engine reports that task done (eng_rsp_i.done with its
//               channel on done_ch); while it waits the channel keeps its slice (hold) as for
//               a copy and other channels run as guests. done_err faults that channel with
//               TASK_FAULT (the record names its SEND_SIGNALING_PCAS_B). done_ch is ignored
//               on the copy runlists (one copy at a time, its channel is known).
//   gating      still_o tells gpu_top's clock gate that the PBDMA only waits for its engine and
//               that no register of it changes in this cycle, so the clock may stop (an ungated
//               register would be loaded with its own value). It is the AND of one still_o per
//               part, each next to the registers it speaks for and built from the same
//               conditions as their writes: the decoder waits and stays, in ENGINE_WAIT (not
//               abandoned, its engine wait not over, no guest to leave for) or in IDLE with the
//               owner holding its slice for its engine (its work not done, no guest to select),
//               and then makes no decision and sends no command; the scheduler renews no slice or
//               turn and loses or adopts no owner; the context store sees no CTRL.RESET; the
//               fetch unit has no AR waiting or to issue and no stale reads to mark; each
//               prefetch unit is idle with no pick that writes, or holds data that stays valid;
//               the semaphore unit has no request out and no acquire that a timeout, snoop, reset
//               or error would change; engine dispatch has no command out, no completion, no reset
//               of a channel with work in flight. An R beat for the PBDMA comes from the pins and
//               is left to gpu_top (busy on c_rvalid). Timers are timestamps of now_i compared
//               when asked, so an expiry shows as one of these conditions in the very cycle it
//               happens (a slice or turn renewal, a retry or timeout that makes a channel runnable
//               and so a guest, a prefetch pick), never as a counter that would have to tick. The
//               prefetch unit's periodic picks that find nothing write nothing after the first of
//               a series (gc_pbdma_pf, "Picks"), so a lone channel waiting for its own copy keeps
//               the PBDMA still until the copy's done.
//
// Parts (one module each, wired here; this top has no logic of its own but still_o, the AND of
// theirs):
//   gc_pbdma_sched  the host scheduler: runnable vector, bit-vector round robin and guest picks,
//                   owner / slice / turn (timestamps), forward-progress flag
//   gc_pbdma_ctx    the per-channel context store (decoder context, bindings, method registers,
//                   saved mid-entry state), one table written by index
//   gc_pbdma_fetch  GPFIFO and pushbuffer fetch: the read port, stale-beat discard, dword FIFO
//   gc_pbdma_pf     the prefetch unit: the next channel's GPFIFO entry and first pushbuffer burst,
//                   read while the resident channel runs, dropped when they may be stale; its
//                   SELF instance is the lookahead (the resident channel's next entry)
//   gc_pbdma_dec    the method decoder: the channel FSM, method decode and execution, GP_GET,
//                   switches, the fault record and the fault port
//   gc_pbdma_sem    the host-method / semaphore unit: atomic-unit requests, per-channel acquire
//                   state (blocked, woken, retry and timeout timestamps), acquire timeouts
//   gc_pbdma_eng    engine dispatch: the copy / compute command and each channel's work in flight
module gc_pbdma
  import gpucosim_pkg::*;
  import gc_axi_pkg::cli_req_t, gc_axi_pkg::cli_rsp_t;
  import gc_eng_pkg::*;
  import gc_pbdma_pkg::dec_ctx_t, gc_pbdma_pkg::obj_e, gc_pbdma_pkg::mreg_e,
         gc_pbdma_pkg::NMREG, gc_pbdma_pkg::NSUBCH, gc_pbdma_pkg::SC_W, gc_pbdma_pkg::LEN_W,
         gc_pbdma_pkg::GPI_W, gc_pbdma_pkg::mref_t;
#(
  parameter int unsigned RL         = 0,   // runlist served by this instance
  parameter int unsigned PB_FIFO_DW = 64,  // pushbuffer dword FIFO depth (power of 2, >= 2 bursts)
  localparam int unsigned NCH  = GC_NUM_CHANNELS,
  localparam int unsigned CH_W = $clog2(NCH),
  localparam int unsigned AW   = GC_AXI_ADDR_W,
  localparam int unsigned LW   = GC_CHANNEL_GPFIFO_SIZE_LOG2_W,
  localparam int unsigned RLW  = GC_CHANNEL_RUNLIST_ID_W,
  localparam int unsigned ILW  = GC_CHANNEL_INTERLEAVE_LEVEL_W
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,

  // Channel configuration / status from the register block
  input  logic [NCH-1:0]           ch_enable_i,
  input  logic [NCH-1:0]           ch_err_i,
  input  logic [NCH-1:0][AW-1:0]   ch_gpfifo_base_i,
  input  logic [NCH-1:0][LW-1:0]   ch_gpfifo_log2_i,
  input  logic [NCH-1:0][31:0]     ch_gp_put_i,
  input  logic [NCH-1:0][GPI_W-1:0] ch_gp_get_i,
  input  logic [NCH-1:0]           ch_reset_i,
  input  logic [NCH-1:0][RLW-1:0]  ch_runlist_i,
  input  logic [NCH-1:0][31:0]     ch_timeslice_i,
  input  logic [NCH-1:0][ILW-1:0]  ch_interleave_i,
  input  logic [NCH-1:0][31:0]     ch_acq_timeout_i,
  input  logic [31:0]              acq_retry_i,      // GLOBAL.ACQ_RETRY_INTERVAL

  // To the register block
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
  output logic [CH_W-1:0]      mthd_ch_o,
  output logic                 nonstall_o,
  output logic                 sw_valid_o,       // a channel switched away (1-cycle pulse)
  output logic [CH_W-1:0]      sw_ch_o,
  output logic [3:0]           sw_cause_o,       // one-hot: 0 TIMESLICE, 1 ACQUIRE, 2 ENGINE, 3 EMPTY
  output logic [NCH-1:0]       ch_resident_o,    // the channel is resident on this PBDMA
  output logic [NCH-1:0]       ch_acq_blk_o,     // blocked on an acquire
  output logic [NCH-1:0]       ch_eng_busy_o,    // a copy it launched has not completed
  output logic [NCH-1:0]       ch_in_entry_o,    // an entry is partly executed (context saved)
  output pbdma_state_e                         dbg_state_o,
  output logic [GC_RUNLIST_DBG_CHANNEL_W-1:0]  dbg_ch_o,
  output logic [GC_RUNLIST_DBG_PB_LEFT_W-1:0]  dbg_pb_left_o,

  // Engine command port (copy engine RL-1; runlist 0: the compute engine) and atomic-unit
  // requester port (gc_eng_pkg)
  output eng_req_t             eng_req_o,
  input  eng_rsp_t             eng_rsp_i,
  output aq_req_t              aq_req_o,
  input  aq_rsp_t              aq_rsp_i,
  input  logic [63:0]          now_i,            // gpu_top's free-running cycle counter
  input  logic                 work_i,           // a channel of this runlist has GPFIFO work
  input  gc_axi_pkg::wsnoop_t  snoop_i,          // gc_mem_xbar's write snoop (acquire wake-up,
                                                 // prefetch drop)
  output logic                 pf_busy_o,        // the prefetch unit or the R stage holds data (clock stays on)
  output logic                 still_o,          // waits for its engine, no register changes
                                                 // this cycle: the clock may stop (gpu_top)

  // Client memory port (gc_axi_pkg), reads only (GPFIFO entries and pushbuffer)
  output cli_req_t             m_req_o,
  input  cli_rsp_t             m_rsp_i
);

  localparam int unsigned FIFO_AW = $clog2(PB_FIFO_DW);

  // ------------------------------------------------------------------------------------------
  // R input stage: the port's R beats (R is always ready) are registered before any part looks
  // at them, so no logic of the PBDMA follows the memory's pins combinationally (the fetch sees
  // AR acceptance only in its own flop): Verilator evaluates such logic at both of the harness's
  // evaluations per cycle, the decoder included (rtl/README.md, "Simulation cost of combinational
  // paths from the pins"). A read's data reaches the parts one cycle after it crossed the port.
  // ------------------------------------------------------------------------------------------
  logic                    r_valid_q;
  gc_axi_pkg::cli_r_chan_t r_q;
  cli_rsp_t                rsp;            // the port's response as the parts see it: R only
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      r_valid_q <= 1'b0;
      r_q       <= '0;
    end else begin
      r_valid_q <= m_rsp_i.r_valid;
      if (m_rsp_i.r_valid) r_q <= m_rsp_i.r;
    end
  end
  always_comb begin
    rsp         = '0;
    rsp.r_valid = r_valid_q;
    rsp.r       = r_q;
  end

  // ------------------------------------------------------------------------------------------
  // Wires between the parts
  // ------------------------------------------------------------------------------------------
  // decoder FSM
  pbdma_state_e         state;
  logic [CH_W-1:0]      cur_ch, cur_ch_d;
  logic [SC_W-1:0]      mthd_subch;
  logic [31:0]          mthd_data;
  logic [GPI_W-1:0]     cur_gp_get;
  logic                 dec_still, sched_still, ctx_still, fetch_still, pf_still, la_still;
  logic                 sem_still, eng_still;
  logic                 sel_rr, sel_guest, sel_own, drop_own, leave;
  logic [3:0]           leave_cause;
  // scheduler
  logic                 resident, own_vld, hold, own_runnable, own_eng_wait, slice_exp;
  logic                 is_guest, guest_avail, rr_found, g_found, sw_blk, sw_ts;
  logic [CH_W-1:0]      own, rr_ch, g_ch;
  logic [NCH-1:0]       cur_oh;
  // context store
  dec_ctx_t             cur_ctx, ctx_d;
  logic [NMREG-1:0][31:0] cur_mr;
  obj_e [NSUBCH-1:0]    cur_bind;
  logic [NCH-1:0]       in_ent, eng_wait;
  logic [AW-1:2]        ent_addr, save_addr;
  logic [LEN_W-1:0]     ent_left, save_left;
  logic [GC_GP_ENTRY0_GET_W-1:0] ent_get, save_get;
  logic                 ent_sync, save_sync, ctx_we, mreg_we, bind_we, save, resume;
  mreg_e                mreg_sel;
  obj_e                 bind_obj;
  // fetch
  logic [32:0]          head;
  logic [FIFO_AW:0]     fifo_cnt;
  logic                 rx_live, ar_free, ar_sent, ar_load_gp, seg_start, stop_seg, idle_next;
  logic                 fetch_hold, fifo_pop, fifo_flush, start_pf;
  // prefetch
  localparam int unsigned PF_DW = 2 * GC_AXI_MAX_BURST;
  logic                 pf_req, pf_found, pf_ar_valid, pf_ar_ready, pf_drop, pf_rx, pf_keep;
  logic [CH_W-1:0]      pf_pick, pf_ch;
  logic [AW-1:0]        pf_ar_addr;
  logic [7:0]           pf_ar_len;
  logic [AW-1:2]        pf_ent_addr, pf_pb_addr;
  logic [LEN_W-1:0]     pf_ent_left;
  logic                 pf_gp_ok, pf_gp_err, pf_pb_ok, pf_mid, pf_err;
  logic [63:0]          pf_gp_ent;
  logic [PF_DW-1:0][32:0] pf_dw;
  logic [$clog2(PF_DW + 1)-1:0] pf_n;
  logic [4:0]           pf_beats;
  // lookahead (the prefetch unit's SELF instance: the resident channel's next entry)
  logic                 la_allow, la_req, la_ar_valid, la_ar_ready, la_drop, la_rx, la_keep;
  logic                 la_gp_ok, la_gp_err, la_pb_ok, la_err, la_busy, pf_busy, pf_sel_la;
  logic [CH_W-1:0]      la_ch;
  logic [AW-1:0]        la_ar_addr;
  logic [7:0]           la_ar_len;
  logic [AW-1:2]        la_pb_addr;
  logic [63:0]          la_gp_ent;
  logic [PF_DW-1:0][32:0] la_dw;
  logic [$clog2(PF_DW + 1)-1:0] la_n;
  logic [4:0]           la_beats;
  logic                 la_mid;
  logic [AW-1:0]        gp_rd_addr;
  logic [AW-1:2]        st_addr;
  logic [LEN_W-1:0]     st_len;
  // semaphore unit
  logic                 sem_pass, sem_acq, sem_sw, sem_busy, cur_due, cur_to, to_req, to_send;
  logic                 cur_ok;
  logic [NCH-1:0]       acq_blk, acq_due, acq_woke;
  logic [CH_W-1:0]      to_ch;
  mref_t                to_method;
  logic [31:0]          to_data;
  logic                 aq_start, acq_try, acq_fail, acq_pass, acq_clr;
  logic [1:0]           aq_op, aq_size;
  logic [AW-1:0]        aq_addr;
  logic [63:0]          aq_wdata;
  // engine dispatch
  logic [NCH-1:0]       ce_pend;
  logic                 ce_busy, eng_excl, cur_eng_wait, cmd_hs, ce_fault;
  logic [CH_W-1:0]      ce_ch;
  logic [GPI_W-1:0]     ce_gp_get;
  mref_t                ce_method, exe_method;
  logic [31:0]          ce_data, exe_data;
  logic                 launch, launch_cp, ce_reduce, eng_clear, abort;
  logic [GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_W-1:0] ce_red;

  gc_pbdma_sched #(.RL(RL)) u_sched (
    .clk_i, .rst_ni, .now_i, .work_i,
    .ch_enable_i, .ch_err_i, .ch_reset_i, .ch_gp_put_i, .ch_gp_get_i, .ch_runlist_i,
    .ch_timeslice_i, .ch_interleave_i,
    .in_ent_i       (in_ent),
    .eng_wait_i     (eng_wait),
    .acq_blk_i      (acq_blk),
    .acq_due_i      (acq_due),
    .acq_woke_i     (acq_woke),
    .ce_pend_i      (ce_pend),
    .ce_busy_i      (ce_busy),
    .eng_excl_i     (eng_excl),
    .state_i        (state),
    .cur_ch_i       (cur_ch),
    .sel_rr_i       (sel_rr),
    .sel_guest_i    (sel_guest),
    .sel_own_i      (sel_own),
    .drop_own_i     (drop_own),
    .leave_i        (leave),
    .leave_cause_i  (leave_cause),
    .progress_i     (mthd_inc_o || gp_get_we_o),
    .pf_req_i       (pf_req),
    .resident_o     (resident),
    .cur_oh_o       (cur_oh),
    .own_vld_o      (own_vld),
    .own_o          (own),
    .hold_o         (hold),
    .own_runnable_o (own_runnable),
    .own_eng_wait_o (own_eng_wait),
    .slice_exp_o    (slice_exp),
    .is_guest_o     (is_guest),
    .guest_avail_o  (guest_avail),
    .rr_found_o     (rr_found),
    .rr_ch_o        (rr_ch),
    .g_found_o      (g_found),
    .g_ch_o         (g_ch),
    .sw_blk_o       (sw_blk),
    .sw_ts_o        (sw_ts),
    .pf_found_o     (pf_found),
    .pf_ch_o        (pf_pick),
    .still_o        (sched_still)
  );

  gc_pbdma_ctx u_ctx (
    .clk_i, .rst_ni, .ch_reset_i, .ch_err_i,
    .wr_ch_i        (cur_ch),
    .ctx_we_i       (ctx_we),
    .ctx_i          (ctx_d),
    .mreg_we_i      (mreg_we),
    .mreg_sel_i     (mreg_sel),
    .mreg_wdata_i   (mthd_data),
    .bind_we_i      (bind_we),
    .bind_subch_i   (mthd_subch),
    .bind_obj_i     (bind_obj),
    .save_i         (save),
    .save_addr_i    (save_addr),
    .save_left_i    (save_left),
    .save_get_i     (save_get),
    .save_sync_i    (save_sync),
    .eng_wait_set_i (leave && leave_cause[gc_pbdma_pkg::SW_ENGINE] && is_guest),
    .sel_ch_i       (cur_ch_d),
    .sel_i          (sel_rr || sel_guest || sel_own),
    .resume_i       (resume),
    .pf_ch_i        (pf_ch),
    .ctx_o          (cur_ctx),
    .mreg_o         (cur_mr),
    .bind_o         (cur_bind),
    .ent_addr_o     (ent_addr),
    .ent_left_o     (ent_left),
    .ent_get_o      (ent_get),
    .ent_sync_o     (ent_sync),
    .pf_addr_o      (pf_ent_addr),
    .pf_left_o      (pf_ent_left),
    .in_ent_o       (in_ent),
    .eng_wait_o     (eng_wait),
    .still_o        (ctx_still)
  );

  gc_pbdma_fetch #(.PB_FIFO_DW(PB_FIFO_DW), .PF_DW(PF_DW)) u_fetch (
    .clk_i, .rst_ni,
    .gp_load_i      (ar_load_gp),
    .gp_addr_i      (gp_rd_addr),
    .start_i        (seg_start),
    .st_addr_i      (st_addr),
    .st_len_i       (st_len),
    .stop_i         (stop_seg),
    .idle_i         (idle_next),
    .in_idle_i      (state == PBDMA_STATE_IDLE),
    .hold_i         (fetch_hold),
    .pop_i          (fifo_pop),
    .flush_i        (fifo_flush),
    .start_pf_i     (start_pf),
    .pf_dw_i        (pf_sel_la ? la_dw : pf_dw),
    .pf_n_i         (pf_sel_la ? la_n : pf_n),
    .pf_beats_i     (pf_sel_la ? la_beats : pf_beats),
    .pf_err_i       (pf_sel_la ? la_err : pf_err),
    .pf_ar_valid_i  (pf_ar_valid),
    .pf_ar_addr_i   (pf_ar_addr),
    .pf_ar_len_i    (pf_ar_len),
    .pf_ar_ready_o  (pf_ar_ready),
    .pf_drop_i      (pf_drop),
    .pf_rx_o        (pf_rx),
    .la_ar_valid_i  (la_ar_valid),
    .la_ar_addr_i   (la_ar_addr),
    .la_ar_len_i    (la_ar_len),
    .la_ar_ready_o  (la_ar_ready),
    .la_drop_i      (la_drop),
    .la_rx_o        (la_rx),
    .head_o         (head),
    .cnt_o          (fifo_cnt),
    .rx_live_o      (rx_live),
    .ar_free_o      (ar_free),
    .ar_sent_o      (ar_sent),
    .still_o        (fetch_still),
    .m_req_o, .m_rsp_i (rsp), .ar_ready_i (m_rsp_i.ar_ready)
  );

  gc_pbdma_pf #(.RL(RL), .PF_DW(PF_DW)) u_pf (
    .clk_i, .rst_ni, .now_i,
    .ch_enable_i, .ch_err_i, .ch_reset_i, .ch_gpfifo_base_i, .ch_gpfifo_log2_i, .ch_gp_put_i,
    .ch_gp_get_i, .ch_runlist_i,
    .in_ent_i       (in_ent),
    .ent_addr_i     (pf_ent_addr),
    .ent_left_i     (pf_ent_left),
    .run_i          (state == PBDMA_STATE_PB_FETCH || state == PBDMA_STATE_ENGINE_WAIT ||
                     state == PBDMA_STATE_EXEC || state == PBDMA_STATE_SEM_WAIT ||
                     state == PBDMA_STATE_ACQ_RETRY),
    .resident_i     (resident),
    .cur_ch_i       (cur_ch),
    .keep_i         (pf_keep),
    .pick_req_o     (pf_req),
    .pick_found_i   (pf_found),
    .pick_ch_i      (pf_pick),
    .ch_o           (pf_ch),
    .snoop_i,
    .ar_valid_o     (pf_ar_valid),
    .ar_addr_o      (pf_ar_addr),
    .ar_len_o       (pf_ar_len),
    .ar_ready_i     (pf_ar_ready),
    .drop_o         (pf_drop),
    .rx_i           (pf_rx),
    .m_r_i          (r_q),
    .gp_ok_o        (pf_gp_ok),
    .gp_ent_o       (pf_gp_ent),
    .gp_err_o       (pf_gp_err),
    .pb_ok_o        (pf_pb_ok),
    .mid_o          (pf_mid),
    .pb_addr_o      (pf_pb_addr),
    .dw_o           (pf_dw),
    .n_o            (pf_n),
    .beats_o        (pf_beats),
    .err_o          (pf_err),
    .busy_o         (pf_busy),
    .still_o        (pf_still)
  );

  gc_pbdma_pf #(.RL(RL), .PF_DW(PF_DW), .SELF(1'b1)) u_la (
    .clk_i, .rst_ni, .now_i,
    .ch_enable_i, .ch_err_i, .ch_reset_i, .ch_gpfifo_base_i, .ch_gpfifo_log2_i, .ch_gp_put_i,
    .ch_gp_get_i, .ch_runlist_i,
    .in_ent_i       (in_ent),
    .ent_addr_i     (pf_ent_addr),      // (not used: the lookahead's target is never mid-entry)
    .ent_left_i     (pf_ent_left),
    .run_i          (la_allow),
    .resident_i     (resident),
    .cur_ch_i       (cur_ch),
    .keep_i         (la_keep),
    .pick_req_o     (la_req),
    .pick_found_i   (1'b1),
    .pick_ch_i      (cur_ch),
    .ch_o           (la_ch),
    .snoop_i,
    .ar_valid_o     (la_ar_valid),
    .ar_addr_o      (la_ar_addr),
    .ar_len_o       (la_ar_len),
    .ar_ready_i     (la_ar_ready),
    .drop_o         (la_drop),
    .rx_i           (la_rx),
    .m_r_i          (r_q),
    .gp_ok_o        (la_gp_ok),
    .gp_ent_o       (la_gp_ent),
    .gp_err_o       (la_gp_err),
    .pb_ok_o        (la_pb_ok),
    .mid_o          (la_mid),
    .pb_addr_o      (la_pb_addr),
    .dw_o           (la_dw),
    .n_o            (la_n),
    .beats_o        (la_beats),
    .err_o          (la_err),
    .busy_o         (la_busy),
    .still_o        (la_still)
  );
  assign pf_busy_o = pf_busy || la_busy || r_valid_q;   // (or an R beat in the input stage)
  // the lookahead always finds its target (the resident channel), which is never mid-entry; the
  // decoder checks the burst's address through the entry it took
  logic unused_la;
  assign unused_la = ^{la_req, la_ch, la_pb_addr, la_mid,
                       m_rsp_i.aw_ready, m_rsp_i.w_ready, m_rsp_i.b_valid, m_rsp_i.b_resp};

  gc_pbdma_dec #(.RL(RL), .PB_FIFO_DW(PB_FIFO_DW)) u_dec (
    .clk_i, .rst_ni,
    .ch_err_i, .ch_reset_i, .ch_gpfifo_base_i, .ch_gpfifo_log2_i, .ch_gp_put_i, .ch_gp_get_i,
    .own_vld_i      (own_vld),
    .own_i          (own),
    .hold_i         (hold),
    .own_runnable_i (own_runnable),
    .own_eng_wait_i (own_eng_wait),
    .slice_exp_i    (slice_exp),
    .is_guest_i     (is_guest),
    .guest_avail_i  (guest_avail),
    .rr_found_i     (rr_found),
    .rr_ch_i        (rr_ch),
    .g_found_i      (g_found),
    .g_ch_i         (g_ch),
    .sw_blk_i       (sw_blk),
    .sw_ts_i        (sw_ts),
    .sel_rr_o       (sel_rr),
    .sel_guest_o    (sel_guest),
    .sel_own_o      (sel_own),
    .drop_own_o     (drop_own),
    .leave_o        (leave),
    .leave_cause_o  (leave_cause),
    .cur_ctx_i      (cur_ctx),
    .cur_mr_i       (cur_mr),
    .cur_bind_i     (cur_bind),
    .in_ent_i       (in_ent),
    .ent_addr_i     (ent_addr),
    .ent_left_i     (ent_left),
    .ent_get_i      (ent_get),
    .ent_sync_i     (ent_sync),
    .ctx_we_o       (ctx_we),
    .ctx_o          (ctx_d),
    .mreg_we_o      (mreg_we),
    .mreg_sel_o     (mreg_sel),
    .bind_we_o      (bind_we),
    .bind_obj_o     (bind_obj),
    .save_o         (save),
    .save_addr_o    (save_addr),
    .save_left_o    (save_left),
    .save_get_o     (save_get),
    .save_sync_o    (save_sync),
    .resume_o       (resume),
    .head_i         (head),
    .fifo_cnt_i     (fifo_cnt),
    .rx_live_i      (rx_live),
    .ar_free_i      (ar_free),
    .ar_sent_i      (ar_sent),
    .m_r_i          (r_q),
    .ar_load_gp_o   (ar_load_gp),
    .gp_rd_addr_o   (gp_rd_addr),
    .seg_start_o    (seg_start),
    .st_addr_o      (st_addr),
    .st_len_o       (st_len),
    .stop_seg_o     (stop_seg),
    .idle_next_o    (idle_next),
    .fetch_hold_o   (fetch_hold),
    .fifo_pop_o     (fifo_pop),
    .fifo_flush_o   (fifo_flush),
    .start_pf_o     (start_pf),
    .pf_ch_i        (pf_ch),
    .pf_gp_ok_i     (pf_gp_ok),
    .pf_gp_ent_i    (pf_gp_ent),
    .pf_gp_err_i    (pf_gp_err),
    .pf_pb_ok_i     (pf_pb_ok),
    .pf_mid_i       (pf_mid),
    .pf_pb_addr_i   (pf_pb_addr),
    .pf_keep_o      (pf_keep),
    .la_allow_o     (la_allow),
    .la_gp_ok_i     (la_gp_ok),
    .la_gp_ent_i    (la_gp_ent),
    .la_gp_err_i    (la_gp_err),
    .la_pb_ok_i     (la_pb_ok),
    .la_keep_o      (la_keep),
    .pf_sel_la_o    (pf_sel_la),
    .aq_rsp_i,
    .sem_pass_i     (sem_pass),
    .sem_acq_i      (sem_acq),
    .sem_sw_i       (sem_sw),
    .sem_busy_i     (sem_busy),
    .acq_woke_i     (acq_woke),
    .cur_due_i      (cur_due),
    .cur_to_i       (cur_to),
    .cur_ok_i       (cur_ok),
    .to_req_i       (to_req),
    .to_ch_i        (to_ch),
    .to_method_i    (to_method),
    .to_data_i      (to_data),
    .sem_start_o    (aq_start),
    .sem_op_o       (aq_op),
    .sem_size_o     (aq_size),
    .sem_addr_o     (aq_addr),
    .sem_wdata_o    (aq_wdata),
    .acq_try_o      (acq_try),
    .acq_fail_o     (acq_fail),
    .acq_pass_o     (acq_pass),
    .acq_clr_o      (acq_clr),
    .to_send_o      (to_send),
    .ce_pend_i      (ce_pend),
    .eng_excl_i     (eng_excl),
    .cur_eng_wait_i (cur_eng_wait),
    .cmd_hs_i       (cmd_hs),
    .ce_fault_i     (ce_fault),
    .ce_ch_i        (ce_ch),
    .ce_gp_get_i    (ce_gp_get),
    .ce_method_i    (ce_method),
    .ce_data_i      (ce_data),
    .launch_o       (launch),
    .launch_cp_o    (launch_cp),
    .ce_reduce_o    (ce_reduce),
    .ce_red_o       (ce_red),
    .eng_clear_o    (eng_clear),
    .abort_o        (abort),
    .exe_method_o   (exe_method),
    .exe_data_o     (exe_data),
    .state_o        (state),
    .cur_ch_o       (cur_ch),
    .cur_ch_d_o     (cur_ch_d),
    .mthd_subch_o   (mthd_subch),
    .mthd_data_o    (mthd_data),
    .cur_gp_get_o   (cur_gp_get),
    .gp_get_we_o, .gp_get_ch_o, .gp_get_val_o,
    .fault_valid_o, .fault_ch_o, .fault_cause_o, .fault_gp_get_o, .fault_method_o, .fault_data_o,
    .mthd_inc_o, .nonstall_o, .sw_valid_o, .sw_ch_o, .sw_cause_o, .dbg_pb_left_o,
    .still_o        (dec_still)
  );

  gc_pbdma_sem #(.RL(RL)) u_sem (
    .clk_i, .rst_ni,
    .now_i,
    .ch_err_i, .ch_reset_i, .ch_runlist_i, .ch_acq_timeout_i, .acq_retry_i,
    .cur_ch_i       (cur_ch),
    .cur_oh_i       (cur_oh),
    .start_i        (aq_start),
    .op_i           (aq_op),
    .size_i         (aq_size),
    .addr_i         (aq_addr),
    .wdata_i        (aq_wdata),
    .mthd_data_i    (mthd_data),
    .mthd_subch_i   (mthd_subch),
    .payload_i      ({cur_mr[gc_pbdma_pkg::MR_SEM_PAY_HI], cur_mr[gc_pbdma_pkg::MR_SEM_PAY_LO]}),
    .acq_try_i      (acq_try),
    .acq_fail_i     (acq_fail),
    .acq_pass_i     (acq_pass),
    .acq_clr_i      (acq_clr),
    .to_send_i      (to_send),
    .busy_o         (sem_busy),
    .acq_o          (sem_acq),
    .acq_sw_o       (sem_sw),
    .pass_o         (sem_pass),
    .acq_blk_o      (acq_blk),
    .acq_due_o      (acq_due),
    .acq_woke_o     (acq_woke),
    .cur_due_o      (cur_due),
    .cur_to_o       (cur_to),
    .cur_ok_o       (cur_ok),
    .to_req_o       (to_req),
    .to_ch_o        (to_ch),
    .to_method_o    (to_method),
    .to_data_o      (to_data),
    .still_o        (sem_still),
    .aq_req_o, .aq_rsp_i, .snoop_i
  );

  gc_pbdma_eng #(.RL(RL)) u_eng (
    .clk_i, .rst_ni, .ch_reset_i,
    .cur_ch_i       (cur_ch),
    .abort_i        (abort),
    .clear_i        (eng_clear),
    .launch_i       (launch),
    .launch_cp_i    (launch_cp),
    .mthd_data_i    (mthd_data),
    .mreg_i         (cur_mr),
    .sem_reduce_i   (ce_reduce),
    .sem_red_i      (ce_red),
    .gp_get_i       (cur_gp_get),
    .method_i       (exe_method),
    .data_i         (exe_data),
    .cmd_hs_o       (cmd_hs),
    .ce_pend_o      (ce_pend),
    .ce_busy_o      (ce_busy),
    .eng_excl_o     (eng_excl),
    .cur_eng_wait_o (cur_eng_wait),
    .ce_fault_o     (ce_fault),
    .done_ch_o      (ce_ch),
    .flt_gp_get_o   (ce_gp_get),
    .flt_method_o   (ce_method),
    .flt_data_o     (ce_data),
    .still_o        (eng_still),
    .eng_req_o, .eng_rsp_i
  );

  // Outputs
  // still_o: the decoder waits in ENGINE_WAIT and stays there, and every part says that none of
  // its registers changes in this cycle (header comment, "gating")
  assign still_o       = dec_still && sched_still && ctx_still && fetch_still && pf_still &&
                         la_still && sem_still && eng_still;
  assign mthd_ch_o     = cur_ch;
  assign ch_resident_o = cur_oh;
  assign ch_acq_blk_o  = acq_blk;
  assign ch_eng_busy_o = ce_pend;
  assign ch_in_entry_o = in_ent;
  assign dbg_state_o   = state;
  assign dbg_ch_o      = GC_RUNLIST_DBG_CHANNEL_W'(cur_ch);

endmodule
