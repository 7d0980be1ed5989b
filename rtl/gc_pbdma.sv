// gc_pbdma: the push-buffer DMA and host scheduler of one runlist (RL). gpu_top instantiates
// NUM_RUNLISTS of them; each serves only the channels whose RUNLIST.ID == RL. Runlist 0 owns the
// compute engine (gc_simt); runlist RL >= 1 owns copy engine RL-1 (cmd_* / ce_done_*).
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
//               SYNC flag. A switch costs: one cycle in CTX_SAVE (context saved, FIFO flushed,
//               fetch stopped), one in IDLE (selection), then the GPFIFO read or the refetch
//               from the saved address. Reads still in flight are not waited for: their beats
//               are counted (disc_q) and discarded as they arrive (R data is in order per
//               client), so the next channel's first read can be issued at once.
//   GPFIFO      one 8-byte read per entry at GPFIFO_BASE + GP_GET * 8; GP_GET advances when the
//               entry completes. Control entries: OPCODE NOP is skipped, others fault. SYNC WAIT:
//               the entry's pushbuffer is fetched only once the channel's copy has completed.
//   pushbuffer  fetched in bursts of <= AXI_MAX_BURST beats (never across 4 KiB) into a dword
//               FIFO; a burst is issued only when the FIFO has room for all of it. A beat with a
//               bus error is queued as poisoned dwords and faults when the decoder reaches it.
//               The word 0 where a header may stand is NVIDIA's DMA_NOP (PB_DMA_NOP): popped, not
//               a method; the other GRP0 / GRP2 / RESERVED6 headers fault INVALID_METHOD_HEADER.
//   semaphores  SEM_EXECUTE goes to the atomic unit (aq_* / as_*): acquires are READs compared
//               with gc_sem_pkg::sem_acquire_pass, RELEASE a WRITE, REDUCTION an RMW (4 or 8
//               bytes, or 16 with RELEASE_TIMESTAMP: SEM_ASIZE_16 / _16W, address 16-aligned).
//               A reduction form NVIDIA rejects (gc_sem_pkg::sem_red_form_ok) faults
//               INVALID_REDUCTION, a misaligned address MISALIGNED_SEMAPHORE, before any access.
//               LAUNCH_DMA: every field is decoded at dispatch (spec COPY.LAUNCH_DMA); a value not
//               implemented faults UNSUPPORTED, a rejected reduction form INVALID_REDUCTION;
//               DATA_TRANSFER_TYPE NONE only releases / interrupts (its layout fields are not
//               looked at); the reduction goes to the copy engine (cmd_sem_reduce/red/signed_o).
//               SEM_EXECUTE is consumed only when the operation succeeded, so a failed acquire
//               that switches out re-executes the same SEM_EXECUTE on resume. A failed acquire
//               is retried every ACQ_RETRY_INTERVAL cycles (0 counts as 1) or at once when the
//               atomic unit's snoop reports a write to the awaited 8-byte word. ACQ_TIMEOUT != 0:
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
//               TMD address SEND_PCAS_A << 8 goes to the engine on cmd_src_o (cmd_valid/ready,
//               counted when accepted; cmd_ready is the TMU's back-pressure: a free task table
//               entry). Unlike a copy engine the compute engine runs several channels' tasks at
//               once (docs/tmu.md "The PBDMA side"): a launch goes to the engine whenever it is
//               ready, never waiting for another channel's task, and no ENGINE switch is caused by
//               another channel's task (guests may launch too). Each channel has at most one task
//               in flight (ce_pend_q[ch]): the channel's next method, WFI and RELEASE_WFI
//               included, waits until the engine reports that task done (ce_done_i with its
//               channel on ce_done_ch_i); while it waits the channel keeps its slice (hold) as for
//               a copy and other channels run as guests. ce_done_err_i faults that channel with
//               TASK_FAULT (the record names its SEND_SIGNALING_PCAS_B). ce_done_ch_i is ignored
//               on the copy runlists (one copy at a time, its channel is known).
module gc_pbdma
  import gpucosim_pkg::*;
  import gc_sem_pkg::*;
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
  input  logic [NCH-1:0][31:0]     ch_gp_get_i,
  input  logic [NCH-1:0]           ch_reset_i,
  input  logic [NCH-1:0][RLW-1:0]  ch_runlist_i,
  input  logic [NCH-1:0][31:0]     ch_timeslice_i,
  input  logic [NCH-1:0][ILW-1:0]  ch_interleave_i,
  input  logic [NCH-1:0][31:0]     ch_acq_timeout_i,
  input  logic [31:0]              acq_retry_i,      // GLOBAL.ACQ_RETRY_INTERVAL

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

  // Copy engine command (unused on runlist 0)
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
  output logic                 cmd_remap_o,
  output logic [31:0]          cmd_const_a_o,
  output logic [31:0]          cmd_const_b_o,
  output logic [31:0]          cmd_components_o,
  output logic                 cmd_sem_o,
  output logic                 cmd_sem_four_o,
  output logic [AW-1:0]        cmd_sem_addr_o,
  output logic [31:0]          cmd_sem_payload_o,
  output logic                 cmd_sem_reduce_o,   // the release is a reduction ...
  output logic [GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_W-1:0] cmd_sem_red_o,   // ... this one
  output logic                 cmd_sem_signed_o,   // ... signed (IMIN, IMAX, IADD)
  output logic                 cmd_intr_o,
  input  logic                 ce_done_i,
  input  logic                 ce_done_err_i,
  input  logic [7:0]           ce_done_ch_i,     // runlist 0: the channel whose task completed

  // Atomic unit request port
  output logic                 aq_valid_o,
  input  logic                 aq_ready_i,
  output logic [1:0]           aq_op_o,
  output logic [GC_HOST_SEM_EXECUTE_REDUCTION_W-1:0] aq_red_o,
  output logic                 aq_signed_o,
  output logic [1:0]           aq_size_o,
  output logic [AW-1:0]        aq_addr_o,
  output logic [63:0]          aq_wdata_o,
  input  logic                 as_valid_i,
  input  logic [63:0]          as_rdata_i,
  input  logic                 as_err_i,
  input  logic                 snoop_valid_i,
  input  logic [AW-1:0]        snoop_addr_i,

  // Client memory port, reads only (GPFIFO entries and pushbuffer)
  output logic                 m_arvalid_o,
  input  logic                 m_arready_i,
  output logic [AW-1:0]        m_araddr_o,
  output logic [7:0]           m_arlen_o,
  input  logic                 m_rvalid_i,
  output logic                 m_rready_o,
  input  logic [63:0]          m_rdata_i,
  input  logic [1:0]           m_rresp_i,
  input  logic                 m_rlast_i
);

  // ------------------------------------------------------------------------------------------
  // Local constants (memory-bus and internal sizes, not device encodings)
  // ------------------------------------------------------------------------------------------
  localparam bit          HAS_CE     = (RL >= 1) && (RL <= GC_NUM_CE);
  localparam bit          HAS_CP     = (RL == 0);              // the compute engine
  localparam bit          HAS_ENG    = HAS_CE || HAS_CP;
  localparam int unsigned BEAT_B     = GC_AXI_DATA_W / 8;     // bytes per beat (8)
  localparam int unsigned BEAT_LSB   = $clog2(BEAT_B);        // 3
  localparam int unsigned PAGE_LSB   = 12;                    // AXI: bursts never cross 4 KiB
  localparam int unsigned PAGE_BEATS = (1 << PAGE_LSB) / BEAT_B;
  localparam int unsigned LEN_W      = GC_GP_ENTRY1_LENGTH_W; // segment length in dwords
  localparam int unsigned BEATS_W    = LEN_W + 1;
  localparam int unsigned FIFO_AW    = $clog2(PB_FIFO_DW);
  localparam int unsigned RD_OUT_W   = FIFO_AW + 2;           // beats in flight (incl. discarded)
  localparam int unsigned MA_W       = GC_METHOD_HEADER_ADDRESS_W;
  localparam int unsigned SC_W       = GC_METHOD_HEADER_SUBCHANNEL_W;
  localparam int unsigned CNT_W      = GC_METHOD_HEADER_COUNT_W;
  localparam int unsigned NSUBCH     = 1 << SC_W;
  localparam int unsigned HI_W       = AW - 32;               // address bits above 31
  localparam int unsigned NROUNDS    = 3;                     // interleave rounds (LOW..HIGH)
  localparam logic [MA_W-1:0] HOST_END_DW = MA_W'(GC_HOST_METHODS_END / 4);

  // Switch causes (sw_cause_o bit index; project-internal, mirrored in gc_mmio_regs)
  localparam int unsigned SW_TIMESLICE = 0;
  localparam int unsigned SW_ACQUIRE   = 1;
  localparam int unsigned SW_ENGINE    = 2;
  localparam int unsigned SW_EMPTY     = 3;

  // Object bound to a subchannel by SET_OBJECT
  typedef enum logic [1:0] {
    OBJ_NONE    = 2'd0,
    OBJ_COPY    = 2'd1,
    OBJ_COMPUTE = 2'd2
  } obj_e;

  // Per-channel method-register file slots (host semaphore and copy-class state)
  typedef enum logic [4:0] {
    MR_SEM_ADDR_LO   = 5'd0,
    MR_SEM_ADDR_HI   = 5'd1,
    MR_SEM_PAY_LO    = 5'd2,
    MR_SEM_PAY_HI    = 5'd3,
    MR_OFS_IN_UPPER  = 5'd4,
    MR_OFS_IN_LOWER  = 5'd5,
    MR_OFS_OUT_UPPER = 5'd6,
    MR_OFS_OUT_LOWER = 5'd7,
    MR_PITCH_IN      = 5'd8,
    MR_PITCH_OUT     = 5'd9,
    MR_LINE_LEN      = 5'd10,
    MR_LINE_COUNT    = 5'd11,
    MR_CE_SEM_A      = 5'd12,
    MR_CE_SEM_B      = 5'd13,
    MR_CE_SEM_PAY    = 5'd14,
    MR_REMAP_A       = 5'd15,
    MR_REMAP_B       = 5'd16,
    MR_REMAP_COMP    = 5'd17,
    MR_PCAS_A        = 5'd18
  } mreg_e;
  localparam int unsigned NMREG = 19;

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
  // AXI RRESP: SLVERR (2) or DECERR (3) is a bus error
  function automatic logic resp_err(input logic [1:0] r);
    return (r == 2'b10) || (r == 2'b11);
  endfunction
  // TIMESLICE / ACQ_RETRY_INTERVAL: 0 counts as 1
  function automatic logic [31:0] at_least_1(input logic [31:0] v);
    return (v == '0) ? 32'd1 : v;
  endfunction
  // A SET_REMAP_COMPONENTS destination component that a memset can do
  function automatic logic remap_ok(input logic [2:0] c);
    return (c == GC_COPY_SET_REMAP_COMPONENTS_DST_X_CONST_A) ||
           (c == GC_COPY_SET_REMAP_COMPONENTS_DST_X_CONST_B) ||
           (c == GC_COPY_SET_REMAP_COMPONENTS_DST_X_NO_WRITE);
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
  logic [NCH-1:0]       in_ent_q;            // saved mid-entry context valid
  logic [AW-1:2]        ent_addr_q [NCH];    // next undecoded dword
  logic [LEN_W-1:0]     ent_left_q [NCH];    // dwords left in the entry
  logic [GC_GP_ENTRY0_GET_W-1:0] ent_get_q [NCH];
  logic [NCH-1:0]       ent_sync_q;
  logic [NCH-1:0]       eng_wait_q;          // switched out waiting for the engine

  // Per-channel acquire state
  logic [NCH-1:0]       acq_blk_q;           // an acquire failed and has not passed yet
  logic [NCH-1:0]       acq_arm_q;           // snoop matching armed (acquire read issued)
  logic [NCH-1:0]       acq_woke_q;          // a write to the awaited word landed since the try
  logic [31:0]          acq_wait_q [NCH];    // cycles blocked (saturating)
  logic [31:0]          acq_tmr_q  [NCH];    // cycles since the last failed try (saturating)
  logic [AW-1:3]        acq_addr_q [NCH];
  logic [SC_W-1:0]      acq_subch_q [NCH];
  logic [31:0]          acq_data_q  [NCH];

  // Scheduler
  logic                 own_vld_q;           // a channel owns the time slice
  logic [CH_W-1:0]      own_q;
  logic                 hold_q;              // the owner waits for its engine; guests may run
  logic [31:0]          slice_q;             // cycles since the owner's slice started
  logic [31:0]          turn_q;              // cycles the resident channel has been resident
  logic [CH_W-1:0]      rr_ptr_q;            // last channel selected by round robin
  logic [1:0]           rr_rnd_q;            // its round
  logic [CH_W-1:0]      g_ptr_q;             // last guest selected
  logic                 prog_q;              // the resident channel completed a method or an
                                             // entry since it was selected (forward progress)

  // Current segment
  logic [GC_GP_ENTRY0_GET_W-1:0] ent0_get_q; // GP_ENTRY0.GET of the entry being executed
  logic [LEN_W-1:0]     seg_left_q;          // dwords still to decode
  logic [LEN_W-1:0]     rx_left_q;           // dwords still to receive
  logic                 rx_skip_q;           // skip the low dword of the next beat
  logic                 rx_en_q;             // R data belongs to the segment
  logic                 fetch_en_q;          // more bursts may be issued
  logic                 sync_q;              // SYNC WAIT: no fetch until the channel's copy is done
  logic [AW-1:BEAT_LSB] fetch_addr_q;        // next beat to request
  logic [BEATS_W-1:0]   fetch_beats_q;       // beats still to request
  logic [AW-1:2]        dec_addr_q;          // dword address of the FIFO head

  // Pushbuffer dword FIFO (bit 32 = poisoned by a bus error)
  logic [32:0]          fifo_q [PB_FIFO_DW];
  logic [FIFO_AW-1:0]   fifo_wptr_q, fifo_rptr_q;
  logic [FIFO_AW:0]     fifo_cnt_q;

  // Memory read issue / tracking
  logic                 ar_valid_q;
  logic [AW-1:0]        ar_addr_q;
  logic [7:0]           ar_len_q;
  logic [RD_OUT_W-1:0]  rd_beats_q;          // beats requested (AR loaded) and not yet received
  logic [RD_OUT_W-1:0]  disc_q;              // of those, the first disc_q are discarded

  // Atomic request
  logic                 aq_valid_q, aq_busy_q;
  logic [1:0]           aq_op_q, aq_size_q;
  logic [GC_HOST_SEM_EXECUTE_REDUCTION_W-1:0] aq_red_q;
  logic                 aq_signed_q;
  logic [AW-1:0]        aq_addr_q;
  logic [63:0]          aq_wdata_q;
  logic                 sem_acq_q, sem_is64_q, sem_sw_q;
  logic [GC_HOST_SEM_EXECUTE_OPERATION_W-1:0] sem_op_q;
  logic [63:0]          sem_pay_q;
  dec_ctx_t             pend_ctx_q;          // decoder context after the SEM_EXECUTE

  // Method being executed over several cycles
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
  logic [31:0]          cmd_sem_payload_q, cmd_const_a_q, cmd_const_b_q, cmd_components_q;
  logic                 cmd_copy_q, cmd_sem_q, cmd_sem_four_q, cmd_intr_q, cmd_remap_q;
  logic                 cmd_sem_reduce_q, cmd_sem_signed_q;
  logic [GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_W-1:0] cmd_sem_red_q;
  logic                 ce_busy_q;           // a command was accepted and is not done
  logic [CH_W-1:0]      ce_ch_q;
  // Per channel, for the fault record of its command in flight (copy: only ce_ch_q's is used)
  logic [NCH-1:0]       ce_cancel_q;         // the channel was reset meanwhile: ignore its error
  logic [31:0]          ce_gp_get_q [NCH];
  logic [31:0]          ce_method_q [NCH];
  logic [31:0]          ce_data_q   [NCH];

  // Engine views. A copy engine runs one command at a time: while it is busy, another channel's
  // LAUNCH_DMA / WFI / RELEASE_WFI waits (eng_excl). The compute engine runs several channels'
  // tasks at once (task table): only a channel's own task holds it (ce_pend_q), never another's.
  logic                 eng_excl;            // the engine is busy for every channel
  logic                 own_eng_wait;        // the owner's engine wait is not over (hold)
  logic                 cur_eng_wait;        // the resident channel's engine wait is not over
  logic [CH_W-1:0]      done_ch;             // the channel of ce_done_i
  logic                 done_v;              // ce_done_i for a command in flight
  assign eng_excl     = HAS_CE && ce_busy_q;
  assign own_eng_wait = HAS_CP ? ce_pend_q[own_q] : ce_busy_q;
  assign cur_eng_wait = HAS_CP ? ce_pend_q[cur_ch_q] : ce_busy_q;
  assign done_ch      = HAS_CP ? CH_W'(ce_done_ch_i) : ce_ch_q;
  assign done_v       = ce_done_i && ce_pend_q[done_ch];

  // ------------------------------------------------------------------------------------------
  // Current-channel views
  // ------------------------------------------------------------------------------------------
  logic [31:0]   cur_gp_get, gp_mask, nxt_gp_get;
  dec_ctx_t      cur_ctx;
  logic          resident;

  assign gp_mask    = ~(32'hFFFF_FFFF << ch_gpfifo_log2_i[cur_ch_q]);
  assign cur_gp_get = ch_gp_get_i[cur_ch_q];
  assign nxt_gp_get = (cur_gp_get + 32'd1) & gp_mask;
  assign cur_ctx    = ctx_q[cur_ch_q];
  assign resident   = (state_q != PBDMA_STATE_IDLE);

  // Abandon the channel being served: reset by the host, or an error recorded for it elsewhere.
  logic abort;
  assign abort = resident && (state_q != PBDMA_STATE_FAULT) &&
                 (state_q != PBDMA_STATE_CTX_SAVE) &&
                 (ch_reset_i[cur_ch_q] || ch_err_i[cur_ch_q]);

  // ------------------------------------------------------------------------------------------
  // Scheduler: runnable channels and selection
  // ------------------------------------------------------------------------------------------
  logic [NCH-1:0] on_rl, runnable, guest_ok, acq_due, acq_to;
  logic [NCH-1:0] cur_oh;
  logic           other_run, guest_avail, is_guest, slice_exp, guest_exp;

  always_comb begin
    for (int c = 0; c < NCH; c++) cur_oh[c] = resident && (32'(cur_ch_q) == c);
  end

  always_comb begin
    for (int c = 0; c < NCH; c++) begin
      on_rl[c]   = (32'(ch_runlist_i[c]) == RL);
      acq_due[c] = (acq_tmr_q[c] >= at_least_1(acq_retry_i));
      acq_to[c]  = acq_blk_q[c] && (ch_acq_timeout_i[c] != '0) &&
                   (acq_wait_q[c] > ch_acq_timeout_i[c]);
      runnable[c] = on_rl[c] && ch_enable_i[c] && !ch_err_i[c] && !ch_reset_i[c] &&
                    ((ch_gp_get_i[c] != ch_gp_put_i[c]) || in_ent_q[c]) &&
                    (!acq_blk_q[c] || acq_due[c] || acq_woke_q[c]) &&
                    (!eng_wait_q[c] || !eng_excl) && !ce_pend_q[c];
      guest_ok[c] = runnable[c] && !(own_vld_q && 32'(own_q) == c);
    end
    other_run   = |(runnable & ~cur_oh);
    guest_avail = |(guest_ok & ~cur_oh);
    is_guest    = own_vld_q && (own_q != cur_ch_q);
    slice_exp   = own_vld_q && (slice_q >= at_least_1(ch_timeslice_i[own_q]));
    guest_exp   = is_guest && (turn_q >= at_least_1(ch_timeslice_i[cur_ch_q]));
  end

  // Time-slice switch wanted at this method boundary. When round robin would pick the resident
  // owner again (e.g. a HIGH channel's next turn), its slice is renewed in place instead.
  // Forward progress: an expired slice (owner) or turn (guest) switches the channel away only
  // once it has completed a method or an entry since it was selected (prog_q), so a slice
  // shorter than the memory latency cannot throw away every fetch. A guest preempted because
  // the owner's engine work is over leaves at once (the owner makes the progress). sw_blk is
  // the same wish for a channel blocked on an acquire (ACQ_RETRY): its failed attempt was made.
  logic sw_ts, sw_blk, self_next;
  assign sw_blk = is_guest ? ((hold_q && !own_eng_wait) || (guest_exp && guest_avail))
                           : (slice_exp && !ce_pend_q[cur_ch_q] && other_run && !self_next);
  assign sw_ts  = is_guest ? ((hold_q && !own_eng_wait) || (guest_exp && guest_avail && prog_q))
                           : (sw_blk && prog_q);

  // Round robin with interleave rounds, from (rr_rnd_q, rr_ptr_q)
  logic            rr_found;
  logic [CH_W-1:0] rr_ch;
  logic [1:0]      rr_rnd;
  always_comb begin
    rr_found = 1'b0;
    rr_ch    = rr_ptr_q;
    rr_rnd   = rr_rnd_q;
    for (int k = 0; k <= NROUNDS; k++) begin
      for (int i = 0; i < NCH; i++) begin
        logic [1:0] r;
        logic       pos_ok;
        r      = 2'((32'(rr_rnd_q) + k) % NROUNDS);
        pos_ok = (k == 0) ? (i > 32'(rr_ptr_q)) : ((k == NROUNDS) ? (i <= 32'(rr_ptr_q)) : 1'b1);
        if (!rr_found && pos_ok && runnable[i] && (ch_interleave_i[i] >= r)) begin
          rr_found = 1'b1;
          rr_ch    = CH_W'(i);
          rr_rnd   = r;
        end
      end
    end
  end

  assign self_next = rr_found && (rr_ch == cur_ch_q);

  // Guest pick: round robin after the last guest
  logic            g_found;
  logic [CH_W-1:0] g_ch;
  always_comb begin
    g_found = 1'b0;
    g_ch    = g_ptr_q;
    for (int i = 1; i <= NCH; i++) begin
      if (!g_found && guest_ok[(32'(g_ptr_q) + i) % NCH]) begin
        g_found = 1'b1;
        g_ch    = CH_W'((32'(g_ptr_q) + i) % NCH);
      end
    end
  end

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
                    (32'(fifo_cnt_q) + 2 * (32'(rd_beats_q) - 32'(disc_q) + 32'(burst_beats))
                     <= PB_FIFO_DW);

  // ------------------------------------------------------------------------------------------
  // R beat: discard stale beats, split live ones into the segment's dwords
  // ------------------------------------------------------------------------------------------
  logic rx_live, rx_beat, rx_lo, rx_hi, ar_free;
  assign ar_free = !ar_valid_q || m_arready_i;   // a new AR may be loaded this cycle
  assign rx_live = m_rvalid_i && (disc_q == '0);
  assign rx_beat = rx_live && rx_en_q;
  assign rx_lo   = rx_beat && !rx_skip_q && (rx_left_q != '0);
  assign rx_hi   = rx_beat && ((rx_left_q - LEN_W'(rx_lo)) != '0);

  // ------------------------------------------------------------------------------------------
  // Main FSM: selection, decode, dispatch, switches
  // ------------------------------------------------------------------------------------------
  logic                 fifo_pop, fifo_flush;
  logic [32:0]          head;
  logic                 seg_setup, resume;

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
  logic                 ar_load_gp, ar_load_pb;
  logic [AW-1:0]        gp_rd_addr;
  logic                 aq_start;
  logic [1:0]           aq_op_d, aq_size_d;
  logic [AW-1:0]        aq_addr_d;
  logic [63:0]          aq_wdata_d;
  logic                 launch;
  logic                 ce_reduce;          // LAUNCH_DMA: the release is a reduction ...
  logic [GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_W-1:0] ce_red;   // ... this one
  logic                 exe_load;
  logic                 cmd_hs;
  logic                 stop_seg;            // stop fetching, discard R data still in flight

  // Scheduler actions
  logic                 sel_rr, sel_guest, sel_own;
  logic                 drop_own;            // the owner gives up its slice (IDLE)
  logic                 leave, leave_save;
  logic [3:0]           leave_cause;
  logic                 acq_fail, acq_pass, acq_try;
  logic                 to_send;             // fault port sends a switched-out channel's timeout
  logic [CH_W-1:0]      to_ch;

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
  assign ce_fault = done_v && ce_done_err_i && !ce_cancel_q[done_ch];

  // Method registers of the current channel
  logic [NMREG-1:0][31:0] cur_mr;
  always_comb begin
    for (int r = 0; r < NMREG; r++) cur_mr[r] = mreg_q[cur_ch_q][r];
  end

  // REMAP (memset): every DST component of SET_REMAP_COMPONENTS is CONST_A, CONST_B or NO_WRITE
  // Only the NUM_DST_COMPONENTS components that exist must name a constant (or NO_WRITE); the
  // selectors of the others are don't-care.
  logic       remap_comp_ok;
  logic [1:0] remap_ndst;
  assign remap_ndst = cur_mr[MR_REMAP_COMP][GC_COPY_SET_REMAP_COMPONENTS_NUM_DST_COMPONENTS_LSB +:
                                            GC_COPY_SET_REMAP_COMPONENTS_NUM_DST_COMPONENTS_W];
  assign remap_comp_ok =
      remap_ok(cur_mr[MR_REMAP_COMP][GC_COPY_SET_REMAP_COMPONENTS_DST_X_LSB +:
                                     GC_COPY_SET_REMAP_COMPONENTS_DST_X_W]) &&
      (remap_ndst < 2'd1 ||
       remap_ok(cur_mr[MR_REMAP_COMP][GC_COPY_SET_REMAP_COMPONENTS_DST_Y_LSB +:
                                      GC_COPY_SET_REMAP_COMPONENTS_DST_Y_W])) &&
      (remap_ndst < 2'd2 ||
       remap_ok(cur_mr[MR_REMAP_COMP][GC_COPY_SET_REMAP_COMPONENTS_DST_Z_LSB +:
                                      GC_COPY_SET_REMAP_COMPONENTS_DST_Z_W])) &&
      (remap_ndst < 2'd3 ||
       remap_ok(cur_mr[MR_REMAP_COMP][GC_COPY_SET_REMAP_COMPONENTS_DST_W_LSB +:
                                      GC_COPY_SET_REMAP_COMPONENTS_DST_W_W]));

  // Host semaphore address of the current channel
  logic [AW-1:0] sem_addr;
  assign sem_addr = {cur_mr[MR_SEM_ADDR_HI][GC_HOST_SEM_ADDR_HI_OFFSET_LSB +:
                                            GC_HOST_SEM_ADDR_HI_OFFSET_W],
                     cur_mr[MR_SEM_ADDR_LO][GC_HOST_SEM_ADDR_LO_OFFSET_LSB +:
                                            GC_HOST_SEM_ADDR_LO_OFFSET_W],
                     2'b00};

  // GPFIFO entry address of a channel
  function automatic logic [AW-1:0] gp_addr(input logic [AW-1:0] base, input logic [LW-1:0] l2,
                                            input logic [31:0] idx);
    logic [31:0] m;
    m = ~(32'hFFFF_FFFF << l2);
    return base + {(AW - 32 - BEAT_LSB)'(0), idx & m, BEAT_LSB'(0)};
  endfunction

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
    ar_load_pb    = 1'b0;
    gp_rd_addr    = gp_addr(ch_gpfifo_base_i[cur_ch_q], ch_gpfifo_log2_i[cur_ch_q], nxt_gp_get);
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
    flt_set       = 1'b0;
    flt_cause_d   = ERROR_CAUSE_NONE;
    flt_method_d  = '0;
    flt_data_d    = '0;
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

    ar_load_pb = fetch_go;

    unique case (state_q)
      // ---------------------------------------------------------------------------------------
      PBDMA_STATE_IDLE: begin
        if (own_vld_q && hold_q) begin
          // The owner waits for its engine
          if (!own_eng_wait) begin
            if (!slice_exp && runnable[own_q]) sel_own = 1'b1;
            else                               drop_own = 1'b1;  // round robin next cycle
          end else if (g_found) begin
            sel_guest = 1'b1;
          end
        end else if (rr_found) begin
          sel_rr = 1'b1;
        end
        if (!ar_free) begin   // the previous channel's last burst is still being presented
          sel_rr    = 1'b0;
          sel_guest = 1'b0;
          sel_own   = 1'b0;
          drop_own  = 1'b0;
        end
        if (sel_rr)    cur_ch_d = rr_ch;
        if (sel_guest) cur_ch_d = g_ch;
        if (sel_own)   cur_ch_d = own_q;
        if (sel_rr || sel_guest || sel_own) begin
          if (in_ent_q[cur_ch_d]) begin
            resume  = 1'b1;
            state_d = PBDMA_STATE_PB_FETCH;
          end else begin
            ar_load_gp = 1'b1;
            gp_rd_addr = gp_addr(ch_gpfifo_base_i[cur_ch_d], ch_gpfifo_log2_i[cur_ch_d],
                                 ch_gp_get_i[cur_ch_d]);
            state_d    = PBDMA_STATE_GP_REQ;
          end
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
        end else if (rx_live) begin
          if (resp_err(m_rresp_i)) begin
            flt_set     = 1'b1;
            flt_cause_d = ERROR_CAUSE_BUS_ERROR;
            flt_data_d  = 32'(gp_addr(ch_gpfifo_base_i[cur_ch_q], ch_gpfifo_log2_i[cur_ch_q],
                                      cur_gp_get));
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
        end else if (sw_ts) begin
          leave       = 1'b1;
          leave_save  = 1'b1;
          leave_cause[SW_TIMESLICE] = 1'b1;
        end else if (sync_q && ce_pend_q[cur_ch_q]) begin
          state_d = PBDMA_STATE_ENGINE_WAIT;      // SYNC WAIT entry: the channel's copy first
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
                if (d == 32'(GC_PB_DMA_NOP)) begin
                  fifo_pop = 1'b1;                // NVIDIA's universal NOP: skipped
                end else begin
                  flt_set      = 1'b1;
                  flt_cause_d  = ERROR_CAUSE_INVALID_METHOD_HEADER;
                  flt_method_d = err_method(head_subch, head_addr);
                  flt_data_d   = d;
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
                           (bind_q[cur_ch_q][mthd_subch] == OBJ_COPY)) ||
                          (HAS_CP && (mthd_addr == GC_COMPUTE_SEND_SIGNALING_PCAS_B_DW) &&
                           (bind_q[cur_ch_q][mthd_subch] == OBJ_COMPUTE) &&
                           (mthd_data[GC_COMPUTE_SEND_SIGNALING_PCAS_B_SCHEDULE_LSB +:
                                      GC_COMPUTE_SEND_SIGNALING_PCAS_B_SCHEDULE_W] ==
                            GC_COMPUTE_SEND_SIGNALING_PCAS_B_SCHEDULE_TRUE));
            end
          end

          // Every method of a channel waits for the channel's copy / task to complete; on a copy
          // runlist LAUNCH_DMA, WFI and RELEASE_WFI also wait while the engine is busy with
          // another channel's copy (the compute engine takes several channels' tasks at once).
          if (is_mthd && (ce_pend_q[cur_ch_q] || (needs_eng && eng_excl))) begin
            if (is_guest) begin
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
                aq_wdata_d = sem_is64 ? {cur_mr[MR_SEM_PAY_HI], cur_mr[MR_SEM_PAY_LO]}
                                      : {32'h0, cur_mr[MR_SEM_PAY_LO]};
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
                      flt_set     = 1'b1;
                      flt_cause_d = ERROR_CAUSE_UNSUPPORTED;
                    end else if (sem_op == GC_HOST_SEM_EXECUTE_OPERATION_REDUCTION &&
                                 !sem_red_form_ok(sem_red, sem_sgn, sem_is64)) begin
                      flt_set     = 1'b1;
                      flt_cause_d = ERROR_CAUSE_INVALID_REDUCTION;
                    end else if ((sem_ts && sem_addr[3:0] != 4'h0) ||
                                 (sem_is64 && sem_addr[2:0] != 3'b000)) begin
                      flt_set     = 1'b1;
                      flt_cause_d = ERROR_CAUSE_MISALIGNED_SEMAPHORE;
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
                      flt_set     = 1'b1;
                      flt_cause_d = ERROR_CAUSE_MISALIGNED_SEMAPHORE;
                    end
                  end
                  default: begin
                    flt_set     = 1'b1;
                    flt_cause_d = ERROR_CAUSE_UNSUPPORTED;
                  end
                endcase
                if (!flt_set) begin
                  aq_start = 1'b1;
                  exe_load = 1'b1;
                  state_d  = PBDMA_STATE_SEM_WAIT;
                end else begin
                  acq_try = 1'b0;
                end
              end
              default: begin
                flt_set     = 1'b1;
                flt_cause_d = ERROR_CAUSE_INVALID_METHOD;
              end
            endcase
          end else if (bind_q[cur_ch_q][mthd_subch] == OBJ_NONE) begin
            flt_set     = 1'b1;
            flt_cause_d = ERROR_CAUSE_INVALID_SUBCHANNEL;
          end else if ((bind_q[cur_ch_q][mthd_subch] == OBJ_COPY && !HAS_CE) ||
                       (bind_q[cur_ch_q][mthd_subch] == OBJ_COMPUTE && !HAS_CP)) begin
            // A class bound on a runlist without its engine: bound, its methods not executed
            flt_set     = 1'b1;
            flt_cause_d = ERROR_CAUSE_UNSUPPORTED;
          end else if (bind_q[cur_ch_q][mthd_subch] == OBJ_COMPUTE) begin
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
                flt_set     = 1'b1;
                flt_cause_d = ERROR_CAUSE_INVALID_METHOD;
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
                ce_sem_lo = cur_mr[MR_CE_SEM_B][3:0];   // SET_SEMAPHORE_B.LOWER bits 3:0
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
                  flt_set     = 1'b1;
                  flt_cause_d = ERROR_CAUSE_UNSUPPORTED;
                end else if (ce_reduce && !sem_red_form_ok(ce_red, ce_sgn, 1'b0)) begin
                  flt_set     = 1'b1;
                  flt_cause_d = ERROR_CAUSE_INVALID_REDUCTION;
                end else if ((semt == GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE_RELEASE_ONE_WORD_SEMAPHORE &&
                              ce_sem_lo[1:0] != 2'b00) ||
                             (semt == GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE_RELEASE_FOUR_WORD_SEMAPHORE &&
                              ce_sem_lo != 4'h0)) begin
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
        // The owner waits for the engine (its own copy / task, or another channel's copy);
        // guests may run.
        if (abort) begin
          state_d = PBDMA_STATE_FAULT;
        end else if (!cur_eng_wait) begin
          state_d = PBDMA_STATE_PB_FETCH;
        end else if (guest_avail) begin
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
        end else if (cmd_hs) begin
          mthd_inc_o = 1'b1;
          state_d    = (seg_left_q == '0) ? PBDMA_STATE_SEG_DONE : PBDMA_STATE_PB_FETCH;
        end
      end

      // ---------------------------------------------------------------------------------------
      PBDMA_STATE_SEM_WAIT: begin
        if (abort) begin
          state_d = PBDMA_STATE_FAULT;
        end else if (as_valid_i) begin
          pass = sem_acquire_pass(sem_op_q, sem_is64_q,
                                  sem_is64_q ? as_rdata_i : {32'h0, as_rdata_i[31:0]}, sem_pay_q);
          if (as_err_i) begin
            flt_set      = 1'b1;
            flt_cause_d  = ERROR_CAUSE_BUS_ERROR;
            flt_method_d = err_method(exe_subch_q, exe_addr_q);
            flt_data_d   = exe_data_q;
          end else if (!sem_acq_q || pass) begin
            // Done: consume the SEM_EXECUTE dword
            acq_pass   = sem_acq_q;
            fifo_pop   = 1'b1;
            ctx_we     = 1'b1;
            ctx_d      = pend_ctx_q;
            mthd_inc_o = 1'b1;
            state_d    = (seg_left_q == LEN_W'(1)) ? PBDMA_STATE_SEG_DONE : PBDMA_STATE_PB_FETCH;
          end else begin
            acq_fail = 1'b1;
            if (acq_to[cur_ch_q]) begin
              flt_set      = 1'b1;
              flt_cause_d  = ERROR_CAUSE_ACQUIRE_TIMEOUT;
              flt_method_d = err_method(exe_subch_q, exe_addr_q);
              flt_data_d   = exe_data_q;
            end else if (sem_sw_q) begin
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
        end else if (acq_to[cur_ch_q]) begin
          flt_set      = 1'b1;
          flt_cause_d  = ERROR_CAUSE_ACQUIRE_TIMEOUT;
          flt_method_d = err_method(exe_subch_q, exe_addr_q);
          flt_data_d   = exe_data_q;
        end else if (acq_due[cur_ch_q] || acq_woke_q[cur_ch_q]) begin
          state_d = PBDMA_STATE_PB_FETCH;
        end else if (sw_blk) begin
          leave       = 1'b1;
          leave_save  = 1'b1;
          leave_cause[SW_ACQUIRE] = 1'b1;
        end
      end

      // ---------------------------------------------------------------------------------------
      PBDMA_STATE_SEG_DONE: begin
        if (abort) begin
          state_d = PBDMA_STATE_FAULT;
        end else if (ar_free) begin
          // Entry done: advance GP_GET; go on with the next entry unless a switch is due.
          gp_get_we_o = 1'b1;
          fifo_flush  = 1'b1;
          stop_seg    = 1'b1;
          if (nxt_gp_get == ch_gp_put_i[cur_ch_q]) begin
            leave = 1'b1;
            leave_cause[SW_EMPTY] = 1'b1;
          end else if (sw_blk) begin   // the entry completes now: progress made
            leave = 1'b1;
            leave_cause[SW_TIMESLICE] = 1'b1;
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
        if (!flt_pend_q && !aq_busy_q) begin
          fifo_flush = 1'b1;
          state_d    = PBDMA_STATE_IDLE;
        end
      end

      default: state_d = PBDMA_STATE_IDLE;
    endcase

    if (leave) begin
      state_d  = PBDMA_STATE_CTX_SAVE;
      fifo_pop = 1'b0;
      ctx_we   = 1'b0;
      stop_seg = 1'b1;
      fifo_flush = 1'b1;
      ar_load_gp = 1'b0;
    end
    if (flt_set) begin
      state_d  = PBDMA_STATE_FAULT;
      fifo_pop = 1'b0;
      ctx_we   = 1'b0;
      stop_seg = 1'b1;
      leave    = 1'b0;
      acq_pass = 1'b0;
    end
    if (state_d == PBDMA_STATE_FAULT) stop_seg = 1'b1;
    if (stop_seg) ar_load_pb = 1'b0;
  end

  // ------------------------------------------------------------------------------------------
  // Fault port: copy-engine errors (any channel) first, then the current channel's record,
  // then acquire timeouts of channels that are not resident.
  // ------------------------------------------------------------------------------------------
  always_comb begin
    to_send = 1'b0;
    to_ch   = '0;
    for (int c = NCH - 1; c >= 0; c--) begin
      if (acq_to[c] && on_rl[c] && !ch_err_i[c] && !ch_reset_i[c] && !cur_oh[c]) begin
        to_send = 1'b1;
        to_ch   = CH_W'(c);
      end
    end

    fault_valid_o  = 1'b0;
    fault_ch_o     = cur_ch_q;
    fault_cause_o  = flt_cause_q;
    fault_gp_get_o = cur_gp_get;
    fault_method_o = flt_method_q;
    fault_data_o   = flt_data_q;
    if (ce_fault) begin
      fault_valid_o  = 1'b1;
      fault_ch_o     = done_ch;
      fault_cause_o  = HAS_CP ? ERROR_CAUSE_TASK_FAULT : ERROR_CAUSE_BUS_ERROR;
      fault_gp_get_o = ce_gp_get_q[done_ch];
      fault_method_o = ce_method_q[done_ch];
      fault_data_o   = ce_data_q[done_ch];
      to_send        = 1'b0;
    end else if (state_q == PBDMA_STATE_FAULT && flt_pend_q && !ch_reset_i[cur_ch_q]) begin
      fault_valid_o  = 1'b1;
      to_send        = 1'b0;
    end else if (to_send) begin
      fault_valid_o  = 1'b1;
      fault_ch_o     = to_ch;
      fault_cause_o  = ERROR_CAUSE_ACQUIRE_TIMEOUT;
      fault_gp_get_o = ch_gp_get_i[to_ch];
      fault_method_o = err_method(acq_subch_q[to_ch], GC_HOST_SEM_EXECUTE_DW);
      fault_data_o   = acq_data_q[to_ch];
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

  assign aq_valid_o  = aq_valid_q;
  assign aq_op_o     = aq_op_q;
  assign aq_red_o    = aq_red_q;
  assign aq_signed_o = aq_signed_q;
  assign aq_size_o   = aq_size_q;
  assign aq_addr_o   = aq_addr_q;
  assign aq_wdata_o  = aq_wdata_q;

  assign cmd_valid_o       = HAS_ENG && cmd_valid_q && !eng_excl && !abort;
  assign cmd_ch_o          = 8'(cur_ch_q);
  assign cmd_src_o         = cmd_src_q;
  assign cmd_dst_o         = cmd_dst_q;
  assign cmd_line_len_o    = cmd_line_len_q;
  assign cmd_line_count_o  = cmd_line_count_q;
  assign cmd_pitch_in_o    = cmd_pitch_in_q;
  assign cmd_pitch_out_o   = cmd_pitch_out_q;
  assign cmd_copy_o        = cmd_copy_q;
  assign cmd_remap_o       = cmd_remap_q;
  assign cmd_const_a_o     = cmd_const_a_q;
  assign cmd_const_b_o     = cmd_const_b_q;
  assign cmd_components_o  = cmd_components_q;
  assign cmd_sem_o         = cmd_sem_q;
  assign cmd_sem_four_o    = cmd_sem_four_q;
  assign cmd_sem_addr_o    = cmd_sem_addr_q;
  assign cmd_sem_payload_o = cmd_sem_payload_q;
  assign cmd_sem_reduce_o  = cmd_sem_reduce_q;
  assign cmd_sem_red_o     = cmd_sem_red_q;
  assign cmd_sem_signed_o  = cmd_sem_signed_q;
  assign cmd_intr_o        = cmd_intr_q;

  // A holding owner whose slice expired while its copy ran loses the slice when the engine frees:
  // counted as a TIMESLICE switch of the owner.
  always_comb begin
    sw_valid_o = leave;
    sw_ch_o    = cur_ch_q;
    sw_cause_o = leave_cause;
    if (drop_own && slice_exp) begin
      sw_valid_o = 1'b1;
      sw_ch_o    = own_q;
      sw_cause_o = 4'(1) << SW_TIMESLICE;
    end
  end
  assign ch_resident_o = cur_oh;
  assign ch_acq_blk_o  = acq_blk_q;
  assign ch_eng_busy_o = ce_pend_q;
  assign ch_in_entry_o = in_ent_q;

  assign dbg_state_o   = state_q;
  assign dbg_ch_o      = GC_RUNLIST_DBG_CHANNEL_W'(cur_ch_q);
  assign dbg_pb_left_o = (seg_left_q > LEN_W'({GC_RUNLIST_DBG_PB_LEFT_W{1'b1}})) ?
                         {GC_RUNLIST_DBG_PB_LEFT_W{1'b1}} :
                         GC_RUNLIST_DBG_PB_LEFT_W'(seg_left_q);

  // ------------------------------------------------------------------------------------------
  // Sequential: FSM, segment, FIFO, memory port, atomic port, copy-engine tracking, scheduler
  // ------------------------------------------------------------------------------------------
  logic [AW-1:2]    seg_addr;   // dword address of the segment (from the GPFIFO entry)
  logic [LEN_W-1:0] seg_len;
  assign seg_addr = {m_rdata_i[32 + GC_GP_ENTRY1_GET_HI_LSB +: HI_W],
                     m_rdata_i[GC_GP_ENTRY0_GET_LSB +: GC_GP_ENTRY0_GET_W]};
  assign seg_len  = m_rdata_i[32 + GC_GP_ENTRY1_LENGTH_LSB +: GC_GP_ENTRY1_LENGTH_W];

  // Segment (re)start: from the GPFIFO entry or from a saved context
  logic [AW-1:2]    st_addr;
  logic [LEN_W-1:0] st_len;
  assign st_addr = resume ? ent_addr_q[cur_ch_d] : seg_addr;
  assign st_len  = resume ? ent_left_q[cur_ch_d] : seg_len;

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
      dec_addr_q    <= '0;
      fifo_wptr_q   <= '0;
      fifo_rptr_q   <= '0;
      fifo_cnt_q    <= '0;
      ar_valid_q    <= 1'b0;
      ar_addr_q     <= '0;
      ar_len_q      <= '0;
      rd_beats_q    <= '0;
      disc_q        <= '0;
      aq_valid_q    <= 1'b0;
      aq_busy_q     <= 1'b0;
      aq_op_q       <= '0;
      aq_size_q     <= '0;
      aq_red_q      <= '0;
      aq_signed_q   <= 1'b0;
      aq_addr_q     <= '0;
      aq_wdata_q    <= '0;
      sem_acq_q     <= 1'b0;
      sem_is64_q    <= 1'b0;
      sem_sw_q      <= 1'b0;
      sem_op_q      <= '0;
      sem_pay_q     <= '0;
      pend_ctx_q    <= '0;
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
      cmd_const_a_q <= '0;
      cmd_const_b_q <= '0;
      cmd_components_q <= '0;
      cmd_copy_q    <= 1'b0;
      cmd_sem_q     <= 1'b0;
      cmd_sem_four_q <= 1'b0;
      cmd_sem_reduce_q <= 1'b0;
      cmd_sem_red_q <= '0;
      cmd_sem_signed_q <= 1'b0;
      cmd_intr_q    <= 1'b0;
      cmd_remap_q   <= 1'b0;
      ce_busy_q     <= 1'b0;
      ce_ch_q       <= '0;
      ce_cancel_q   <= '0;
      for (int c = 0; c < NCH; c++) begin
        ce_gp_get_q[c] <= '0;
        ce_method_q[c] <= '0;
        ce_data_q[c]   <= '0;
      end
      ce_pend_q     <= '0;
      own_vld_q     <= 1'b0;
      own_q         <= '0;
      hold_q        <= 1'b0;
      slice_q       <= '0;
      turn_q        <= '0;
      rr_ptr_q      <= CH_W'(NCH - 1);
      rr_rnd_q      <= 2'(NROUNDS - 1);   // the first search starts with round 0
      g_ptr_q       <= '0;
      prog_q        <= 1'b0;
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
        ar_addr_q  <= gp_rd_addr;
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
      // stale beats: everything still in flight when a segment stops (a GPFIFO read loaded in
      // the same cycle by SEG_DONE is not stale)
      if (m_rvalid_i && disc_q != '0) disc_q <= disc_q - RD_OUT_W'(1);
      if (stop_seg) disc_q <= rd_beats_n - RD_OUT_W'(ar_load_gp);

      // ---- segment setup from the GPFIFO entry or a saved context ----
      if (seg_setup || resume) begin
        if (seg_setup) begin
          ent0_get_q <= m_rdata_i[GC_GP_ENTRY0_GET_LSB +: GC_GP_ENTRY0_GET_W];
          sync_q     <= (m_rdata_i[32 + GC_GP_ENTRY1_SYNC_LSB +: GC_GP_ENTRY1_SYNC_W] ==
                         GC_GP_ENTRY1_SYNC_WAIT);
        end else begin
          ent0_get_q <= ent_get_q[cur_ch_d];
          sync_q     <= ent_sync_q[cur_ch_d];
        end
        seg_left_q    <= st_len;
        rx_left_q     <= st_len;
        rx_skip_q     <= st_addr[2];
        rx_en_q       <= 1'b1;
        fetch_en_q    <= 1'b1;
        fetch_addr_q  <= st_addr[AW-1:BEAT_LSB];
        dec_addr_q    <= st_addr;
        // beats covering [st_addr, st_addr + 4 * len)
        fetch_beats_q <= (BEATS_W'(st_len) + BEATS_W'(st_addr[2]) + BEATS_W'(1)) >> 1;
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
        dec_addr_q  <= dec_addr_q + (AW - 2)'(1);
      end
      fifo_wptr_q <= wp;
      fifo_cnt_q  <= cnt_n;
      if (fifo_flush || seg_setup || resume) begin
        fifo_wptr_q <= '0;
        fifo_rptr_q <= '0;
        fifo_cnt_q  <= '0;
      end
      if (stop_seg || state_d == PBDMA_STATE_IDLE) begin
        fetch_en_q <= 1'b0;
        rx_en_q    <= 1'b0;
      end

      // ---- method being executed ----
      if (exe_load) begin
        exe_addr_q  <= mthd_addr;
        exe_subch_q <= mthd_subch;
        exe_data_q  <= mthd_data;
      end

      // ---- atomic request ----
      if (aq_valid_q && aq_ready_i) aq_valid_q <= 1'b0;
      if (as_valid_i) aq_busy_q <= 1'b0;
      if (aq_start) begin
        aq_valid_q  <= 1'b1;
        aq_busy_q   <= 1'b1;
        aq_op_q     <= aq_op_d;
        aq_size_q   <= aq_size_d;
        aq_red_q    <= mthd_data[GC_HOST_SEM_EXECUTE_REDUCTION_LSB +:
                                 GC_HOST_SEM_EXECUTE_REDUCTION_W];
        aq_signed_q <= (mthd_data[GC_HOST_SEM_EXECUTE_REDUCTION_FORMAT_LSB +:
                                  GC_HOST_SEM_EXECUTE_REDUCTION_FORMAT_W] ==
                        GC_HOST_SEM_EXECUTE_REDUCTION_FORMAT_SIGNED);
        aq_addr_q   <= aq_addr_d;
        aq_wdata_q  <= aq_wdata_d;
        sem_acq_q   <= acq_try;
        sem_is64_q  <= (aq_size_d == SEM_ASIZE_8);
        sem_op_q    <= mthd_data[GC_HOST_SEM_EXECUTE_OPERATION_LSB +:
                                 GC_HOST_SEM_EXECUTE_OPERATION_W];
        sem_sw_q    <= (mthd_data[GC_HOST_SEM_EXECUTE_ACQUIRE_SWITCH_TSG_LSB +:
                                  GC_HOST_SEM_EXECUTE_ACQUIRE_SWITCH_TSG_W] ==
                        GC_HOST_SEM_EXECUTE_ACQUIRE_SWITCH_TSG_EN);
        sem_pay_q   <= {cur_mr[MR_SEM_PAY_HI], cur_mr[MR_SEM_PAY_LO]};
        pend_ctx_q  <= ctx_d;
      end

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
        cmd_remap_q       <= (mthd_data[GC_COPY_LAUNCH_DMA_REMAP_ENABLE_LSB +:
                                        GC_COPY_LAUNCH_DMA_REMAP_ENABLE_W] ==
                              GC_COPY_LAUNCH_DMA_REMAP_ENABLE_TRUE);
        cmd_const_a_q     <= cur_mr[MR_REMAP_A];
        cmd_const_b_q     <= cur_mr[MR_REMAP_B];
        cmd_components_q  <= cur_mr[MR_REMAP_COMP];
        cmd_sem_q         <= (mthd_data[GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE_LSB +:
                                        GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE_W] !=
                              GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE_NONE);
        cmd_sem_four_q    <= (mthd_data[GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE_LSB +:
                                        GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE_W] ==
                              GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE_RELEASE_FOUR_WORD_SEMAPHORE);
        cmd_sem_addr_q    <= {cur_mr[MR_CE_SEM_A][GC_COPY_SET_SEMAPHORE_A_UPPER_LSB +: HI_W],
                              cur_mr[MR_CE_SEM_B]};
        cmd_sem_payload_q <= cur_mr[MR_CE_SEM_PAY];
        cmd_sem_reduce_q  <= ce_reduce;
        cmd_sem_red_q     <= ce_red;
        cmd_sem_signed_q  <= (mthd_data[GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_SIGN_LSB +:
                                        GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_SIGN_W] ==
                              GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_SIGN_SIGNED);
        cmd_intr_q        <= (mthd_data[GC_COPY_LAUNCH_DMA_INTERRUPT_TYPE_LSB +:
                                        GC_COPY_LAUNCH_DMA_INTERRUPT_TYPE_W] ==
                              GC_COPY_LAUNCH_DMA_INTERRUPT_TYPE_NON_BLOCKING);
      end
      if (launch_cp) begin
        // compute: the TMD address; nothing else of the command is used
        cmd_valid_q       <= 1'b1;
        cmd_src_q         <= AW'({cur_mr[MR_PCAS_A], 8'h00});
        cmd_dst_q         <= '0;
        cmd_line_len_q    <= '0;
        cmd_line_count_q  <= '0;
        cmd_copy_q        <= 1'b0;
        cmd_remap_q       <= 1'b0;
        cmd_sem_q         <= 1'b0;
        cmd_sem_four_q    <= 1'b0;
        cmd_sem_reduce_q  <= 1'b0;
        cmd_intr_q        <= 1'b0;
      end
      if (cmd_hs || state_d == PBDMA_STATE_FAULT) cmd_valid_q <= 1'b0;
      if (cmd_hs) begin
        ce_busy_q <= 1'b1;
        ce_ch_q   <= cur_ch_q;
      end else if (ce_done_i && ce_busy_q) begin
        ce_busy_q <= 1'b0;
      end
      for (int c = 0; c < NCH; c++) begin
        if (ce_pend_q[c] && ch_reset_i[c]) ce_cancel_q[c] <= 1'b1;
        if (done_v && 32'(done_ch) == c) ce_pend_q[c] <= 1'b0;
        if (cmd_hs && 32'(cur_ch_q) == c) begin
          ce_pend_q[c]   <= 1'b1;
          ce_cancel_q[c] <= 1'b0;
          ce_gp_get_q[c] <= cur_gp_get;
          ce_method_q[c] <= err_method(exe_subch_q, exe_addr_q);
          ce_data_q[c]   <= exe_data_q;
        end
      end

      // ---- scheduler ----
      if (own_vld_q && slice_q != 32'hFFFF_FFFF) slice_q <= slice_q + 32'd1;
      if (turn_q != 32'hFFFF_FFFF) turn_q <= turn_q + 32'd1;
      // a resident owner whose slice expired with nobody else to run: renew it
      if (resident && state_q != PBDMA_STATE_CTX_SAVE && !is_guest && own_vld_q && slice_exp &&
          !ce_pend_q[cur_ch_q] && (!other_run || self_next)) begin
        slice_q  <= '0;
        rr_rnd_q <= self_next ? rr_rnd : rr_rnd_q;
      end
      if (is_guest && guest_exp && !guest_avail) turn_q <= '0;
      if (sel_rr) begin
        own_vld_q <= 1'b1;
        own_q     <= rr_ch;
        hold_q    <= 1'b0;
        slice_q   <= '0;
        rr_ptr_q  <= rr_ch;
        rr_rnd_q  <= rr_rnd;
      end
      if (sel_guest) g_ptr_q <= g_ch;
      if (sel_own)   hold_q  <= 1'b0;
      if (sel_rr || sel_guest || sel_own) turn_q <= '0;
      if (mthd_inc_o || gp_get_we_o) prog_q <= 1'b1;
      if (sel_rr || sel_guest || sel_own) prog_q <= 1'b0;
      if (drop_own) begin
        own_vld_q <= 1'b0;
        hold_q    <= 1'b0;
      end
      if (leave && !is_guest) begin
        // The owner leaves: it keeps the slice only while its engine work is in flight
        if (leave_cause[SW_ENGINE] || (leave_cause[SW_EMPTY] && ce_pend_q[cur_ch_q])) begin
          hold_q <= 1'b1;
        end else begin
          own_vld_q <= 1'b0;
          hold_q    <= 1'b0;
        end
      end
      // The owner went away (reset, error, moved to another runlist)
      if (own_vld_q && (ch_reset_i[own_q] || ch_err_i[own_q] || !on_rl[own_q])) begin
        own_vld_q <= 1'b0;
        hold_q    <= 1'b0;
      end
      // A resident channel without an owner becomes the owner
      if (resident && state_q != PBDMA_STATE_CTX_SAVE && state_q != PBDMA_STATE_FAULT &&
          !own_vld_q) begin
        own_vld_q <= 1'b1;
        own_q     <= cur_ch_q;
        hold_q    <= 1'b0;
        slice_q   <= '0;
        rr_ptr_q  <= cur_ch_q;
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
        ent_addr_q[c]  <= '0;
        ent_left_q[c]  <= '0;
        ent_get_q[c]   <= '0;
        acq_wait_q[c]  <= '0;
        acq_tmr_q[c]   <= '0;
        acq_addr_q[c]  <= '0;
        acq_subch_q[c] <= '0;
        acq_data_q[c]  <= '0;
      end
      in_ent_q   <= '0;
      ent_sync_q <= '0;
      eng_wait_q <= '0;
      acq_blk_q  <= '0;
      acq_arm_q  <= '0;
      acq_woke_q <= '0;
    end else begin
      if (ctx_we)  ctx_q[cur_ch_q] <= ctx_d;
      if (mreg_we) mreg_q[cur_ch_q][mreg_sel] <= mthd_data;
      if (bind_we) bind_q[cur_ch_q][mthd_subch] <= bind_obj;

      // Mid-entry context
      if (resume) in_ent_q[cur_ch_d] <= 1'b0;
      if (leave && leave_save) begin
        in_ent_q[cur_ch_q]   <= 1'b1;
        ent_addr_q[cur_ch_q] <= dec_addr_q;
        ent_left_q[cur_ch_q] <= seg_left_q;
        ent_get_q[cur_ch_q]  <= ent0_get_q;
        ent_sync_q[cur_ch_q] <= sync_q;
      end
      if (sel_rr || sel_guest || sel_own) eng_wait_q[cur_ch_d] <= 1'b0;
      if (leave && leave_cause[SW_ENGINE] && is_guest) eng_wait_q[cur_ch_q] <= 1'b1;

      // Acquire tracking
      for (int c = 0; c < NCH; c++) begin
        if (acq_blk_q[c] && acq_wait_q[c] != 32'hFFFF_FFFF) acq_wait_q[c] <= acq_wait_q[c] + 32'd1;
        if (acq_tmr_q[c] != 32'hFFFF_FFFF) acq_tmr_q[c] <= acq_tmr_q[c] + 32'd1;
        if (snoop_valid_i && acq_arm_q[c] && snoop_addr_i[AW-1:3] == acq_addr_q[c]) begin
          acq_woke_q[c] <= 1'b1;
        end
      end
      if (aq_start && acq_try) begin
        acq_arm_q[cur_ch_q]   <= 1'b1;
        acq_woke_q[cur_ch_q]  <= 1'b0;
        acq_addr_q[cur_ch_q]  <= aq_addr_d[AW-1:3];
        acq_subch_q[cur_ch_q] <= mthd_subch;
        acq_data_q[cur_ch_q]  <= mthd_data;
      end
      if (acq_fail) begin
        acq_blk_q[cur_ch_q] <= 1'b1;
        acq_tmr_q[cur_ch_q] <= '0;
        if (!acq_blk_q[cur_ch_q]) acq_wait_q[cur_ch_q] <= '0;
      end
      if (acq_pass) begin
        acq_blk_q[cur_ch_q]  <= 1'b0;
        acq_arm_q[cur_ch_q]  <= 1'b0;
        acq_woke_q[cur_ch_q] <= 1'b0;
      end
      if (to_send) begin
        acq_blk_q[to_ch] <= 1'b0;
        acq_arm_q[to_ch] <= 1'b0;
      end
      if (flt_set && flt_cause_d == ERROR_CAUSE_ACQUIRE_TIMEOUT) begin
        acq_blk_q[cur_ch_q] <= 1'b0;
        acq_arm_q[cur_ch_q] <= 1'b0;
      end

      for (int c = 0; c < NCH; c++) begin
        if (ch_reset_i[c] || ch_err_i[c]) begin
          acq_blk_q[c]  <= 1'b0;
          acq_arm_q[c]  <= 1'b0;
          acq_woke_q[c] <= 1'b0;
          eng_wait_q[c] <= 1'b0;
        end
        if (ch_reset_i[c]) begin
          ctx_q[c] <= '0;
          for (int s = 0; s < NSUBCH; s++) bind_q[c][s] <= OBJ_NONE;
          for (int r = 0; r < NMREG; r++)  mreg_q[c][r] <= '0;
          in_ent_q[c] <= 1'b0;
        end
      end
    end
  end

  // Waveform-only signals, and rlast (bursts are counted by beats)
  logic unused_pbdma;
  assign unused_pbdma = ^{mthd_valid, m_rlast_i, snoop_addr_i[2:0], ce_done_ch_i};

endmodule
