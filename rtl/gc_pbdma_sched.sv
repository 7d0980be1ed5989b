// gc_pbdma_sched: the host scheduler of one runlist (part of gc_pbdma; the rules are in
// gc_pbdma.sv's header comment, "scheduler").
//
//   runnable   a channel is runnable when it is on this runlist (RUNLIST.ID == RL), enabled,
//              ERROR.CAUSE NONE, not being reset, has work (GP_GET != GP_PUT or an entry left
//              mid-way), is not blocked on an acquire unless due for a retry or woken, and does not
//              wait for a busy engine. The vector is computed only in the cycles that look at it:
//              the selection (IDLE), an expired slice or turn, and ENGINE_WAIT, and only while a
//              channel of the runlist has GPFIFO work (work_i) or an entry left mid-way: an idle
//              PBDMA evaluates no per-channel loop and no search.
//   picks      bit-vector round robin: the interleave rounds r = 0, 1, 2 each eligible set
//              (runnable and LEVEL >= r) is searched from above the last pick, then the next two
//              rounds whole, then the first round again at or below the last pick; the guest pick
//              is the first runnable non-owner after the last guest. No per-channel loop.
//   prefetch   pf_req_i (the prefetch unit, gc_pbdma_pf) asks for the channel round robin would
//              pick next if the resident one left now: the same search over the runnable channels
//              other than the resident one (pf_found_o / pf_ch_o, valid in that cycle); none when
//              that channel is blocked on an acquire and only due for a retry (not woken).
//   slice      the owner's slice and the resident channel's turn are timestamps (the cycle they
//              started, of gpu_top's free-running cycle counter now_i, which runs on the ungated
//              clock: exact across stretches where this PBDMA's clock is gated) compared with
//              TIMESLICE when asked, not counters incremented every cycle.
//   owner      own_vld_q / own_q / hold_q as described in gc_pbdma.sv; prog_q is the forward
//              progress flag (a method or an entry completed since the channel was selected).
// The decision inputs (sel_*, drop_own, leave) come from the method decoder's FSM
// (gc_pbdma_dec), which acts on this module's outputs in the same cycle.
module gc_pbdma_sched
  import gpucosim_pkg::*;
  import gc_pbdma_pkg::*;
#(
  parameter int unsigned RL = 0,
  localparam int unsigned RLW = GC_CHANNEL_RUNLIST_ID_W,
  localparam int unsigned ILW = GC_CHANNEL_INTERLEAVE_LEVEL_W
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic [TS_W-1:0]      now_i,           // gpu_top's cycle counter (GLOBAL.CYCLE)
  input  logic                 work_i,          // a channel of this runlist has GPFIFO work

  // Channel configuration / status
  input  logic [NCH-1:0]           ch_enable_i,
  input  logic [NCH-1:0]           ch_err_i,
  input  logic [NCH-1:0]           ch_reset_i,
  input  logic [NCH-1:0][31:0]     ch_gp_put_i,
  input  logic [NCH-1:0][GPI_W-1:0] ch_gp_get_i,
  input  logic [NCH-1:0][RLW-1:0]  ch_runlist_i,
  input  logic [NCH-1:0][31:0]     ch_timeslice_i,
  input  logic [NCH-1:0][ILW-1:0]  ch_interleave_i,

  // Per-channel state of the other parts
  input  logic [NCH-1:0]       in_ent_i,        // context store: an entry left mid-way
  input  logic [NCH-1:0]       eng_wait_i,      // context store: switched out for a busy engine
  input  logic [NCH-1:0]       acq_blk_i,       // semaphore unit: blocked on an acquire
  input  logic [NCH-1:0]       acq_due_i,       // ... and due for a retry
  input  logic [NCH-1:0]       acq_woke_i,      // ... or woken by a write to its word
  input  logic [NCH-1:0]       ce_pend_i,       // engine dispatch: the channel's work in flight
  input  logic                 ce_busy_i,       // engine dispatch: a copy is running
  input  logic                 eng_excl_i,      // the engine is busy for every channel

  // The FSM (gc_pbdma_dec)
  input  pbdma_state_e         state_i,
  input  logic [CH_W-1:0]      cur_ch_i,
  input  logic                 sel_rr_i,        // select rr_ch_o as the owner
  input  logic                 sel_guest_i,     // select g_ch_o as a guest
  input  logic                 sel_own_i,       // resume the holding owner
  input  logic                 drop_own_i,      // the holding owner gives its slice up
  input  logic                 leave_i,         // the resident channel switches away ...
  input  logic [3:0]           leave_cause_i,   // ... for this cause (one-hot, SW_*)
  input  logic                 progress_i,      // a method or an entry completed
  input  logic                 pf_req_i,        // the prefetch unit asks for its target

  output logic                 resident_o,
  output logic [NCH-1:0]       cur_oh_o,        // resident channel, one-hot
  output logic                 own_vld_o,
  output logic [CH_W-1:0]      own_o,
  output logic                 hold_o,
  output logic                 own_runnable_o,  // runnable[own_o]
  output logic                 own_eng_wait_o,  // the owner's engine wait is not over
  output logic                 slice_exp_o,
  output logic                 is_guest_o,
  output logic                 guest_avail_o,   // a guest other than the resident one is waiting
  output logic                 rr_found_o,
  output logic [CH_W-1:0]      rr_ch_o,
  output logic                 g_found_o,
  output logic [CH_W-1:0]      g_ch_o,
  output logic                 sw_blk_o,        // a time-slice switch is wanted (see below)
  output logic                 sw_ts_o,         // ... and allowed (forward progress)
  output logic                 pf_found_o,      // prefetch target (valid with pf_req_i)
  output logic [CH_W-1:0]      pf_ch_o,
  output logic                 still_o          // no register here changes this cycle, given no
                                                // decision of the FSM (sel_*, drop_own, leave,
                                                // progress all 0)
);

  localparam int unsigned NROUNDS = 3;            // interleave rounds (LOW..HIGH)

  logic                 own_vld_q;           // a channel owns the time slice
  logic [CH_W-1:0]      own_q;
  logic                 hold_q;              // the owner waits for its engine; guests may run
  logic [TS_W-1:0]      slice_t0_q;          // cycle the owner's slice started
  logic [TS_W-1:0]      turn_t0_q;           // cycle the resident channel became resident
  logic [CH_W-1:0]      rr_ptr_q;            // last channel selected by round robin
  logic [1:0]           rr_rnd_q;            // its round
  logic [CH_W-1:0]      g_ptr_q;             // last guest selected
  logic                 prog_q;              // the resident channel completed a method or an
                                             // entry since it was selected (forward progress)

  logic resident, in_save;
  assign resident = (state_i != PBDMA_STATE_IDLE);
  assign in_save  = (state_i == PBDMA_STATE_CTX_SAVE);

  logic [NCH-1:0] cur_oh;
  assign cur_oh = resident ? (NCH'(1) << cur_ch_i) : '0;

  logic is_guest, slice_exp, guest_exp;
  assign is_guest  = own_vld_q && (own_q != cur_ch_i);
  assign slice_exp = own_vld_q &&
                     (since(now_i, slice_t0_q) >= at_least_1(ch_timeslice_i[own_q]));
  assign guest_exp = is_guest &&
                     (since(now_i, turn_t0_q) >= at_least_1(ch_timeslice_i[cur_ch_i]));

  // Runnable channels, computed only when a decision looks at them (otherwise all 0, which no
  // decision of that cycle reads: other_run / guest_avail / the picks matter only in IDLE, with
  // an expired slice or turn, and in ENGINE_WAIT).
  // No channel can be runnable unless one of this runlist has GPFIFO work (work_i, gpu_top's
  // per-runlist OR, the condition its clock gate uses) or an entry left mid-way: an idle PBDMA
  // (clock-gated or not) then evaluates no per-channel loop and no search.
  logic need;
  assign need = (work_i || (in_ent_i != '0)) &&
                (!resident || slice_exp || guest_exp || (state_i == PBDMA_STATE_ENGINE_WAIT) || pf_req_i);

  logic [NCH-1:0] runnable, lvl1, lvl2;
  always_comb begin
    runnable = '0;
    lvl1     = '0;
    lvl2     = '0;
    if (need) begin
      for (int c = 0; c < NCH; c++) begin
        runnable[c] = (32'(ch_runlist_i[c]) == RL) &&
                      ((32'(ch_gp_get_i[c]) != ch_gp_put_i[c]) || in_ent_i[c]);
        lvl1[c]     = (ch_interleave_i[c] >= ILW'(1));
        lvl2[c]     = (ch_interleave_i[c] >= ILW'(2));
      end
      runnable = runnable & ch_enable_i & ~ch_err_i & ~ch_reset_i &
                 (~acq_blk_i | acq_due_i | acq_woke_i) & (~eng_wait_i | {NCH{!eng_excl_i}}) &
                 ~ce_pend_i;
    end
  end

  logic [NCH-1:0] own_oh, guest_ok;
  logic           other_run, guest_avail;
  assign own_oh      = own_vld_q ? (NCH'(1) << own_q) : '0;
  assign guest_ok    = runnable & ~own_oh;
  assign other_run   = |(runnable & ~cur_oh);
  assign guest_avail = |(guest_ok & ~cur_oh);

  // Round robin with interleave rounds, from (rnd, ptr): the first eligible channel of round rnd
  // above the pointer, then of the next two rounds, then of round rnd at or below the pointer.
  function automatic logic rr_search(input logic [NCH-1:0] run, input logic [NCH-1:0] l1,
                                     input logic [NCH-1:0] l2, input logic [CH_W-1:0] ptr,
                                     input logic [1:0] rnd, output logic [CH_W-1:0] ch,
                                     output logic [1:0] rnd_o);
    logic [NCH-1:0] el [NROUNDS];
    logic [NCH-1:0] hi;
    logic [1:0]     r1, r2;
    el[0] = run;
    el[1] = run & l1;
    el[2] = run & l2;
    r1    = 2'((32'(rnd) + 1) % NROUNDS);
    r2    = 2'((32'(rnd) + 2) % NROUNDS);
    hi    = above(ptr);
    ch    = ptr;
    rnd_o = rnd;
    if (rnd >= 2'(NROUNDS)) begin
      return 1'b0;   // not reached: rr_rnd_q is always a round number
    end else if ((el[rnd] & hi) != '0) begin
      ch = first_set(el[rnd] & hi);
    end else if (el[r1] != '0) begin
      ch    = first_set(el[r1]);
      rnd_o = r1;
    end else if (el[r2] != '0) begin
      ch    = first_set(el[r2]);
      rnd_o = r2;
    end else if ((el[rnd] & ~hi) != '0) begin
      ch = first_set(el[rnd] & ~hi);
    end else begin
      return 1'b0;
    end
    return 1'b1;
  endfunction

  logic            rr_found, pf_found;
  logic [CH_W-1:0] rr_ch, pf_ch;
  logic [1:0]      rr_rnd, pf_rnd;
  always_comb begin
    // (without need runnable is 0: the search would find nothing and return the pointers)
    rr_found = 1'b0;
    rr_ch    = rr_ptr_q;
    rr_rnd   = rr_rnd_q;
    if (need) rr_found = rr_search(runnable, lvl1, lvl2, rr_ptr_q, rr_rnd_q, rr_ch, rr_rnd);
    pf_found = 1'b0;
    pf_ch    = '0;
    pf_rnd   = '0;
    if (pf_req_i && need) pf_found = rr_search(runnable & ~cur_oh, lvl1, lvl2, rr_ptr_q, rr_rnd_q, pf_ch, pf_rnd);
    // A channel blocked on an acquire and runnable only because its retry is due (no write to
    // its semaphore seen) most likely fails again: nothing is read ahead for it, so its retries
    // keep their pace (each holds the atomic unit for a semaphore read) instead of following
    // each other back to back. A woken channel (acq_woke) is prefetched.
    if (pf_found && acq_blk_i[pf_ch] && !acq_woke_i[pf_ch]) pf_found = 1'b0;
  end

  logic self_next;
  assign self_next = rr_found && (rr_ch == cur_ch_i);

  // Guest pick: round robin after the last guest
  logic            g_found;
  logic [CH_W-1:0] g_ch;
  always_comb begin
    logic [NCH-1:0] hi;
    hi      = '0;
    g_found = (guest_ok != '0);
    g_ch    = g_ptr_q;
    if (g_found) begin
      hi = above(g_ptr_q);
      if ((guest_ok & hi) != '0) g_ch = first_set(guest_ok & hi);
      else                       g_ch = first_set(guest_ok);
    end
  end

  // Time-slice switch wanted at this method boundary. When round robin would pick the resident
  // owner again (e.g. a HIGH channel's next turn), its slice is renewed in place instead.
  // Forward progress: an expired slice (owner) or turn (guest) switches the channel away only
  // once it has completed a method or an entry since it was selected (prog_q), so a slice
  // shorter than the memory latency cannot throw away every fetch. A guest preempted because
  // the owner's engine work is over leaves at once (the owner makes the progress). sw_blk is
  // the same wish for a channel blocked on an acquire (ACQ_RETRY): its failed attempt was made.
  logic own_eng_wait;
  assign own_eng_wait = (RL == 0) ? ce_pend_i[own_q] : ce_busy_i;
  assign sw_blk_o = is_guest ? ((hold_q && !own_eng_wait) || (guest_exp && guest_avail))
                             : (slice_exp && !ce_pend_i[cur_ch_i] && other_run && !self_next);
  assign sw_ts_o  = is_guest ? ((hold_q && !own_eng_wait) || (guest_exp && guest_avail && prog_q))
                             : (sw_blk_o && prog_q);

  logic sel_any;
  assign sel_any = sel_rr_i || sel_guest_i || sel_own_i;

  // The bookkeeping this module does on its own, without a decision of the FSM (each is a
  // register write below): a resident owner's slice renewed in place (expired, nobody else to
  // run, or round robin picks it again), a lone guest's turn renewed, an owner that went away
  // (reset, error, moved to another runlist), a resident channel without an owner adopted.
  // still_o: none of them, so in a cycle without a decision of the FSM no register of this
  // module changes (gc_pbdma's still_o, the PBDMA's clock gate in gpu_top).
  logic renew, turn_renew, own_gone, adopt;
  assign renew      = resident && !in_save && !is_guest && own_vld_q && slice_exp &&
                      !ce_pend_i[cur_ch_i] && (!other_run || self_next);
  assign turn_renew = is_guest && guest_exp && !guest_avail;
  assign own_gone   = own_vld_q && (ch_reset_i[own_q] || ch_err_i[own_q] ||
                                    32'(ch_runlist_i[own_q]) != RL);
  assign adopt      = resident && !in_save && state_i != PBDMA_STATE_FAULT && !own_vld_q;
  assign still_o    = !renew && !turn_renew && !own_gone && !adopt;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      own_vld_q  <= 1'b0;
      own_q      <= '0;
      hold_q     <= 1'b0;
      slice_t0_q <= '0;
      turn_t0_q  <= '0;
      rr_ptr_q   <= CH_W'(NCH - 1);
      rr_rnd_q   <= 2'(NROUNDS - 1);   // the first search starts with round 0
      g_ptr_q    <= '0;
      prog_q     <= 1'b0;
    end else begin
      // a resident owner whose slice expired with nobody else to run: renew it
      if (renew) begin
        slice_t0_q <= now_i + TS_W'(1);
        rr_rnd_q   <= self_next ? rr_rnd : rr_rnd_q;
      end
      if (turn_renew) turn_t0_q <= now_i + TS_W'(1);
      if (sel_rr_i) begin
        own_vld_q  <= 1'b1;
        own_q      <= rr_ch;
        hold_q     <= 1'b0;
        slice_t0_q <= now_i + TS_W'(1);
        rr_ptr_q   <= rr_ch;
        rr_rnd_q   <= rr_rnd;
      end
      if (sel_guest_i) g_ptr_q <= g_ch;
      if (sel_own_i)   hold_q  <= 1'b0;
      if (sel_any)     turn_t0_q <= now_i + TS_W'(1);
      if (progress_i)  prog_q <= 1'b1;
      if (sel_any)     prog_q <= 1'b0;
      if (drop_own_i) begin
        own_vld_q <= 1'b0;
        hold_q    <= 1'b0;
      end
      if (leave_i && !is_guest) begin
        // The owner leaves: it keeps the slice only while its engine work is in flight
        if (leave_cause_i[SW_ENGINE] || (leave_cause_i[SW_EMPTY] && ce_pend_i[cur_ch_i])) begin
          hold_q <= 1'b1;
        end else begin
          own_vld_q <= 1'b0;
          hold_q    <= 1'b0;
        end
      end
      // The owner went away (reset, error, moved to another runlist)
      if (own_gone) begin
        own_vld_q <= 1'b0;
        hold_q    <= 1'b0;
      end
      // A resident channel without an owner becomes the owner
      if (adopt) begin
        own_vld_q  <= 1'b1;
        own_q      <= cur_ch_i;
        hold_q     <= 1'b0;
        slice_t0_q <= now_i + TS_W'(1);
        rr_ptr_q   <= cur_ch_i;
      end
    end
  end

  assign resident_o     = resident;
  assign cur_oh_o       = cur_oh;
  assign own_vld_o      = own_vld_q;
  assign own_o          = own_q;
  assign hold_o         = hold_q;
  assign own_runnable_o = runnable[own_q];
  assign own_eng_wait_o = own_eng_wait;
  assign slice_exp_o    = slice_exp;
  assign is_guest_o     = is_guest;
  assign guest_avail_o  = guest_avail;
  assign rr_found_o     = rr_found;
  assign rr_ch_o        = rr_ch;
  assign g_found_o      = g_found;
  assign g_ch_o         = g_ch;
  assign pf_found_o     = pf_found;
  assign pf_ch_o        = pf_ch;

  logic unused_sched;
  assign unused_sched = ^pf_rnd;

endmodule
