// gc_pbdma_pf: the prefetch unit of one PBDMA (part of gc_pbdma): while a channel is resident it
// reads ahead for the channel round robin would select next, so that a switch to that channel
// does not wait for two dependent memory reads (the GPFIFO entry, then the pushbuffer).
//
//   target     when the resident channel is running (run_i) and nothing is prefetched, the unit
//              asks the scheduler (pick_req_o) for the channel round robin would pick if the
//              resident one left now; if none is runnable it asks again RETRY cycles later, and
//              after stale data was dropped it picks and reads again RETRY cycles later.
//   reads      the target's saved entry (in_ent): the first pushbuffer burst from its next
//              undecoded dword; otherwise the GPFIFO entry at its GP_GET (its previous entry has
//              completed: GP_GET advanced past it, and GP_GET != GP_PUT, the scheduler's runnable
//              rule), and once that entry arrives and is a pushbuffer entry, the first burst of its
//              segment. One burst is at most PF_DW dwords (GC_AXI_MAX_BURST beats), never across
//              4 KiB. The reads share the fetch unit's AR register and R stream (gc_pbdma_fetch
//              tags them); nothing is read for a channel before it is a target.
//   use        the decoder takes the entry (gp_ok_o) and the burst (pb_ok_o) when it selects the
//              target (ch_o): the entry in the selection cycle instead of a GPFIFO read, the burst
//              as the segment's first FIFO dwords.
//   staleness  the data is dropped (reads in flight marked dead, drop_o) and the target picked
//              and read again when, for the target channel: GP_PUT or GP_GET changes (moved
//              either way), GPFIFO_BASE / SIZE change, CTRL.RESET, ENABLE cleared, an error
//              recorded, RUNLIST.ID moved, its saved-entry state changes, or a memory write
//              completes (snoop_i: gc_mem_xbar's snoop of every client's write, the cycle after
//              its B response) whose bytes overlap the prefetched GPFIFO entry or pushbuffer beats; and when the
//              target becomes resident (used or not). The hits are refused in the cycle the drop
//              condition holds. Host writes to system memory do not cross the device's bus and
//              are not seen: the host must not rewrite an entry it has published (GP_PUT moved
//              past it) or a pushbuffer an entry in [GP_GET, GP_PUT) names, the same rule as for
//              NVIDIA's GPFIFO (docs/architecture.md, "Channel switch and prefetch").
// busy_o (data held or being read) keeps the PBDMA's clock running, so no drop condition is missed
// while the clock would be gated; while the PBDMA only waits for its engine (gc_pbdma's still_o)
// the drop conditions are part of still_o itself: no cycle with one is stopped.
//
// SELF = 1 makes the unit the PBDMA's *lookahead* (u_la in gc_pbdma): its target is the resident
// channel itself (pick_found_i / pick_ch_i: the decoder's la_allow_o and cur_ch), and it reads that
// channel's *next* entry, at GP_GET + 1 (published: GP_GET + 1 != GP_PUT), and its first burst,
// while the current entry runs. When the entry completes (SEG_DONE) the decoder takes the entry
// and the burst instead of reading them, so consecutive entries follow each other without two
// dependent reads between them, and a slice that expires at an entry boundary switches at a
// method boundary, not in the middle of the leaving channel's own fetch. The staleness rules are
// the same, less the saved-entry state (the target is never mid-entry) and with GP_GET's own
// advance as the sign of use: while keep_i (the decoder takes the entry) GP_GET moving is the
// take itself; after it, or when the channel is no longer resident, the data is gone and the unit
// picks again at once. A write snooped over the next entry or its burst drops it as for the
// prefetch, which is what the GPU work queues need (docs/workqueue.md: the entry after a gate is
// written by a thread while the gate's acquire blocks; its write is on the bus and snooped).
module gc_pbdma_pf
  import gpucosim_pkg::*;
  import gc_pbdma_pkg::*;
#(
  parameter int unsigned RL    = 0,
  parameter int unsigned PF_DW = 2 * GC_AXI_MAX_BURST,    // dwords of the burst (2 per beat)
  parameter bit          SELF  = 1'b0,                     // the lookahead: the resident channel's
                                                           // next entry (header comment)
  localparam int unsigned LW    = GC_CHANNEL_GPFIFO_SIZE_LOG2_W,
  localparam int unsigned RLW   = GC_CHANNEL_RUNLIST_ID_W,
  localparam int unsigned PF_CW = $clog2(PF_DW + 1)
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic [TS_W-1:0]      now_i,

  // Channel configuration / status
  input  logic [NCH-1:0]           ch_enable_i,
  input  logic [NCH-1:0]           ch_err_i,
  input  logic [NCH-1:0]           ch_reset_i,
  input  logic [NCH-1:0][AW-1:0]   ch_gpfifo_base_i,
  input  logic [NCH-1:0][LW-1:0]   ch_gpfifo_log2_i,
  input  logic [NCH-1:0][31:0]     ch_gp_put_i,
  input  logic [NCH-1:0][GPI_W-1:0] ch_gp_get_i,
  input  logic [NCH-1:0][RLW-1:0]  ch_runlist_i,
  input  logic [NCH-1:0]           in_ent_i,        // context store: an entry left mid-way
  input  logic [AW-1:2]            ent_addr_i,      // context store: ch_o's saved entry
  input  logic [LEN_W-1:0]         ent_left_i,

  // Decoder and scheduler
  input  logic                 run_i,           // the resident channel runs: a target may be picked
  input  logic                 resident_i,
  input  logic [CH_W-1:0]      cur_ch_i,
  input  logic                 keep_i,          // the decoder is taking the entry (GP_WAIT)
  output logic                 pick_req_o,
  input  logic                 pick_found_i,
  input  logic [CH_W-1:0]      pick_ch_i,
  output logic [CH_W-1:0]      ch_o,            // the target (pick_ch_i while picking)

  // Write snoop (gc_mem_xbar: every completed write on the memory bus, the cycle after its B)
  input  gc_axi_pkg::wsnoop_t  snoop_i,

  // Fetch unit: the shared read port
  output logic                 ar_valid_o,
  output logic [AW-1:0]        ar_addr_o,
  output logic [7:0]           ar_len_o,
  input  logic                 ar_ready_i,
  output logic                 drop_o,
  input  logic                 rx_i,            // a live R beat of a prefetch read
  input  gc_axi_pkg::cli_r_chan_t m_r_i,        // the R beat of rx_i

  // The prefetched data
  output logic                 gp_ok_o,         // the GPFIFO entry at ch_o's GP_GET
  output logic [63:0]          gp_ent_o,
  output logic                 gp_err_o,        // ... read with a bus error
  output logic                 pb_ok_o,         // the first burst (of the saved entry when mid_o)
  output logic                 mid_o,
  output logic [AW-1:2]        pb_addr_o,       // the segment dword it starts at
  output logic [PF_DW-1:0][32:0] dw_o,          // the segment's first n_o dwords (bit 32: poisoned)
  output logic [PF_CW-1:0]     n_o,
  output logic [4:0]           beats_o,
  output logic                 err_o,
  output logic                 busy_o,
  output logic                 still_o          // no register here changes this cycle
);

  localparam int unsigned PF_BEATS = PF_DW / 2;
  localparam int unsigned PF_AW    = $clog2(PF_DW);
  localparam int unsigned RETRY    = 32;        // cycles before a pick after one that found
                                                // nothing, or after a drop (a power of 2)
  localparam int unsigned RETRY_LSB = $clog2(RETRY);
  localparam int unsigned BEAT_LSB = 3;

  typedef enum logic [1:0] {
    PF_IDLE = 2'd0,   // nothing held
    PF_GP   = 2'd1,   // reading the GPFIFO entry
    PF_PB   = 2'd2,   // reading the first pushbuffer burst
    PF_DONE = 2'd3    // data held until used or dropped
  } pf_state_e;

  pf_state_e            st_q;
  logic                 mid_q, sent_q, pb_q, gerr_q, err_q, skip_q;
  logic [CH_W-1:0]      ch_q;
  logic [31:0]          put_q;
  logic [GPI_W-1:0]     get_q;
  logic [AW-1:0]        base_q, gpa_q;
  logic [LW-1:0]        log2_q;
  logic [63:0]          ent_q;
  logic [AW-1:2]        pba_q;
  logic [4:0]           nb_q;
  logic [LEN_W-1:0]     left_q;
  logic [PF_CW-1:0]     n_q;
  logic [32:0]          dw_q [PF_DW];
  logic [TS_W-1:0]      retry_q;
  logic                 rep_q;               // picks repeat every RETRY cycles from retry_q

  // Beats of the first burst of a segment at dword a of len dwords
  function automatic logic [4:0] first_beats(input logic [11:2] a, input logic [LEN_W-1:0] len);
    logic [LEN_W:0] total;
    logic [9:0]     to_page;
    total   = (LEN_W + 1)'((32'(len) + 32'(a[2]) + 1) >> 1);
    to_page = 10'(512) - {1'b0, a[11:3]};
    if (total > (LEN_W + 1)'(PF_BEATS)) total = (LEN_W + 1)'(PF_BEATS);
    if (total > (LEN_W + 1)'(to_page))  total = (LEN_W + 1)'(to_page);
    return 5'(total);
  endfunction

  // The R beat is a pushbuffer entry (not a control entry, not a subroutine, not conditional)
  logic rx_pb_entry;
  assign rx_pb_entry =
      (m_r_i.data[32 + GC_GP_ENTRY1_LENGTH_LSB +: GC_GP_ENTRY1_LENGTH_W] != '0) &&
      (m_r_i.data[32 + GC_GP_ENTRY1_LEVEL_LSB +: GC_GP_ENTRY1_LEVEL_W] != GC_GP_ENTRY1_LEVEL_SUBROUTINE) &&
      (m_r_i.data[GC_GP_ENTRY0_FETCH_LSB +: GC_GP_ENTRY0_FETCH_W] == '0);

  // ---- drop conditions (looked at for the target only) ----
  logic [CH_W-1:0] ch;
  logic            held, chg, wr_hit, used, inval;
  logic [AW-1:BEAT_LSB] wb0, wb1, pb_end;
  assign ch     = (st_q == PF_IDLE) ? pick_ch_i : ch_q;
  assign held   = (st_q != PF_IDLE);
  assign wb0    = snoop_i.addr[AW-1:BEAT_LSB];
  assign wb1    = wb0 + (AW - BEAT_LSB)'(snoop_i.len);
  assign pb_end = pba_q[AW-1:BEAT_LSB] + (AW - BEAT_LSB)'(nb_q) - (AW - BEAT_LSB)'(1);
  logic            get_mv, cfg_chg;
  assign get_mv  = (ch_gp_get_i[ch_q] != get_q);
  assign cfg_chg = ch_reset_i[ch_q] || !ch_enable_i[ch_q] || ch_err_i[ch_q] ||
                   (32'(ch_runlist_i[ch_q]) != RL) || (ch_gp_put_i[ch_q] != put_q) ||
                   (ch_gpfifo_base_i[ch_q] != base_q) || (ch_gpfifo_log2_i[ch_q] != log2_q);
  // the lookahead's GP_GET moves when its entry is taken or the current one ends without it (use)
  assign chg    = cfg_chg || (SELF ? 1'b0 : (get_mv || (in_ent_i[ch_q] != mid_q)));
  assign wr_hit = snoop_i.valid &&
                  ((!mid_q && gpa_q[AW-1:BEAT_LSB] >= wb0 && gpa_q[AW-1:BEAT_LSB] <= wb1) ||
                   (pb_q && pba_q[AW-1:BEAT_LSB] <= wb1 && pb_end >= wb0));
  assign used   = SELF ? ((get_mv && !keep_i) || !resident_i || (cur_ch_i != ch_q))
                       : (resident_i && (cur_ch_i == ch_q) && !keep_i);
  assign inval  = held && (chg || wr_hit || used);

  // Picks. Unheld and running, the unit picks in the first cycle with now_i >= retry_q; a pick
  // that finds nothing moves retry_q RETRY cycles on, so while run_i stays 1 and nothing is found
  // the picks come every RETRY cycles. Only the first pick of such a series writes retry_q (and
  // sets rep_q); the later ones write nothing (so a PBDMA that only waits for its engine changes
  // no register and its clock may stop, gpu_top): with rep_q the picks are the cycles
  // retry_q + k * RETRY, exactly those where the value the written series would have reached is
  // now_i (it is the first such cycle >= now_i). The first cycle with run_i 0 writes that value
  // back (the last pick of the series, before this cycle, + RETRY) and clears rep_q: the decoder
  // never leaves the running states for IDLE directly, so that cycle is one whose state keeps the
  // PBDMA's clock running. A pick that finds a target clears rep_q; retry_q is not looked at
  // while data is held and is written when it is dropped.
  logic [TS_W-1:0] since_retry, last_pick;
  assign since_retry = now_i - retry_q;
  assign last_pick   = retry_q + ((since_retry - TS_W'(1)) & ~(TS_W'(RETRY) - TS_W'(1)));
  assign pick_req_o  = !held && run_i && (now_i >= retry_q) &&
                       (!rep_q || (since_retry[RETRY_LSB-1:0] == '0));

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q    <= PF_IDLE;
      mid_q   <= 1'b0;
      sent_q  <= 1'b0;
      pb_q    <= 1'b0;
      gerr_q  <= 1'b0;
      err_q   <= 1'b0;
      skip_q  <= 1'b0;
      ch_q    <= '0;
      put_q   <= '0;
      get_q   <= '0;
      base_q  <= '0;
      gpa_q   <= '0;
      log2_q  <= '0;
      ent_q   <= '0;
      pba_q   <= '0;
      nb_q    <= '0;
      left_q  <= '0;
      n_q     <= '0;
      retry_q <= '0;
      rep_q   <= 1'b0;
    end else if (inval) begin
      // used: pick the next target at once; dropped as stale: read again RETRY cycles later, so
      // a stream of writes to the data cannot keep the read port busy
      st_q    <= PF_IDLE;
      retry_q <= used ? now_i : now_i + TS_W'(RETRY);
      rep_q   <= 1'b0;
    end else begin
      logic             setup;
      logic [AW-1:2]    sa;
      logic [LEN_W-1:0] sl;
      setup = 1'b0;
      sa    = ent_addr_i;
      sl    = ent_left_i;
      unique case (st_q)
        PF_IDLE: begin
          if (pick_req_o && !pick_found_i && !rep_q) begin
            retry_q <= now_i + TS_W'(RETRY);   // the first pick of a series that finds nothing
            rep_q   <= 1'b1;
          end
          if (rep_q && !run_i) begin
            // the series ends: retry_q as the picks would have left it (none at or after retry_q:
            // retry_q itself; else the last one before this cycle + RETRY)
            if (now_i > retry_q) retry_q <= last_pick + TS_W'(RETRY);
            rep_q <= 1'b0;
          end
          if (pick_req_o && pick_found_i) begin
            rep_q  <= 1'b0;
            ch_q   <= pick_ch_i;
            put_q  <= ch_gp_put_i[pick_ch_i];
            get_q  <= ch_gp_get_i[pick_ch_i];
            base_q <= ch_gpfifo_base_i[pick_ch_i];
            log2_q <= ch_gpfifo_log2_i[pick_ch_i];
            mid_q  <= !SELF && in_ent_i[pick_ch_i];
            pb_q   <= 1'b0;
            sent_q <= 1'b0;
            gpa_q  <= gp_addr(ch_gpfifo_base_i[pick_ch_i], ch_gpfifo_log2_i[pick_ch_i],
                              32'(ch_gp_get_i[pick_ch_i]) + 32'(SELF));
            if (!SELF && in_ent_i[pick_ch_i]) setup = 1'b1;   // the saved entry's next dwords
            else                     st_q <= PF_GP;
          end
        end
        PF_GP: begin
          if (ar_ready_i) sent_q <= 1'b1;
          if (rx_i) begin
            ent_q  <= m_r_i.data;
            gerr_q <= resp_err(m_r_i.resp);
            st_q   <= PF_DONE;
            if (!resp_err(m_r_i.resp) && rx_pb_entry) begin
              setup = 1'b1;
              sa    = {m_r_i.data[32 + GC_GP_ENTRY1_GET_HI_LSB +: HI_W],
                       m_r_i.data[GC_GP_ENTRY0_GET_LSB +: GC_GP_ENTRY0_GET_W]};
              sl    = m_r_i.data[32 + GC_GP_ENTRY1_LENGTH_LSB +: GC_GP_ENTRY1_LENGTH_W];
            end
          end
        end
        PF_PB: begin
          if (ar_ready_i) sent_q <= 1'b1;
          if (rx_i) begin
            logic lo, hi;
            lo = !skip_q && (left_q != '0);
            hi = (left_q - LEN_W'(lo)) != '0;
            skip_q <= 1'b0;
            left_q <= left_q - LEN_W'(lo) - LEN_W'(hi);
            n_q    <= n_q + PF_CW'(lo) + PF_CW'(hi);
            if (resp_err(m_r_i.resp)) err_q <= 1'b1;
            if (m_r_i.last) st_q <= PF_DONE;
          end
        end
        default: ;   // PF_DONE: held until used or dropped
      endcase
      if (setup) begin
        pba_q  <= sa;
        nb_q   <= first_beats(sa[11:2], sl);
        left_q <= sl;
        skip_q <= sa[2];
        n_q    <= '0;
        err_q  <= 1'b0;
        sent_q <= 1'b0;
        pb_q   <= (sl != '0);
        st_q   <= (sl != '0) ? PF_PB : PF_DONE;
      end
    end
  end

  // Burst storage (no reset: only the first n_q dwords are used)
  always_ff @(posedge clk_i or negedge rst_ni) begin  // rtl/README.md, "One trigger per clock"
    if (rst_ni) begin
      if (st_q == PF_PB && rx_i) begin
        logic lo, hi;
        lo = !skip_q && (left_q != '0);
        hi = (left_q - LEN_W'(lo)) != '0;
        if (lo) dw_q[PF_AW'(n_q)] <= {resp_err(m_r_i.resp), m_r_i.data[31:0]};
        if (hi) dw_q[PF_AW'(n_q) + PF_AW'(lo)] <= {resp_err(m_r_i.resp), m_r_i.data[63:32]};
      end
    end
  end

  assign ch_o       = ch;
  assign ar_valid_o = ((st_q == PF_GP) || (st_q == PF_PB)) && !sent_q;
  assign ar_addr_o  = (st_q == PF_GP) ? gpa_q : {pba_q[AW-1:BEAT_LSB], BEAT_LSB'(0)};
  assign ar_len_o   = (st_q == PF_GP) ? 8'd0 : ({3'b000, nb_q} - 8'd1);
  assign drop_o     = inval;
  assign gp_ok_o    = !mid_q && ((st_q == PF_PB) || (st_q == PF_DONE)) && !inval;
  assign gp_ent_o   = ent_q;
  assign gp_err_o   = gerr_q;
  assign pb_ok_o    = pb_q && (st_q == PF_DONE) && !inval;
  assign mid_o      = mid_q;
  assign pb_addr_o  = pba_q;
  assign n_o        = n_q;
  assign beats_o    = nb_q;
  assign err_o      = err_q;
  assign busy_o     = held;
  // still_o: holding data that stays valid, or idle with no pick that writes (a pick that finds
  // a target, the first of a series that finds nothing) and no series to end
  assign still_o    = held ? ((st_q == PF_DONE) && !inval)
                           : (!(pick_req_o && (pick_found_i || !rep_q)) && !(rep_q && !run_i));
  always_comb begin
    for (int i = 0; i < PF_DW; i++) dw_o[i] = dw_q[i];
  end

  logic unused_pf;
  assign unused_pf = ^{snoop_i.addr[BEAT_LSB-1:0], snoop_i.data, snoop_i.strb};   // by 8-byte beat

endmodule
