// gc_pbdma_fetch: GPFIFO and pushbuffer fetch of one PBDMA (part of gc_pbdma): the PBDMA's
// read-only client memory port and the pushbuffer dword FIFO.
//
//   GPFIFO      gp_load_i loads a one-beat read of gp_addr_i (the FSM names the entry).
//   pushbuffer  start_i begins a segment at dword st_addr_i of st_len_i dwords (from a GPFIFO
//               entry or a saved context): bursts of <= AXI_MAX_BURST beats, never across 4 KiB,
//               each issued only when the FIFO has room for all of it (so rready is always 1),
//               not while hold_i (SYNC WAIT with the channel's copy in flight). The R beats are
//               split into the segment's dwords (the low dword of the first beat skipped for an
//               odd start); a beat with a bus error is queued as poisoned dwords (bit 32) and no
//               further burst is issued.
//   stale data  stop_i ends the segment: every read still in flight for the resident channel is
//               marked dead and its beats dropped as they arrive (R data is in order per
//               client), except a GPFIFO read loaded in the same cycle; so the next channel's
//               first read goes out at once.
//   prefetch    the prefetch unit (gc_pbdma_pf) and the lookahead (its SELF instance: the
//               resident channel's next entry) get the AR register in the cycles the resident
//               channel does not load it (pf_ar_valid_i / pf_ar_ready_o, la_ar_valid_i /
//               la_ar_ready_o; the lookahead first); their beats come out on pf_rx_o / la_rx_o,
//               and pf_drop_i / la_drop_i mark their reads in flight dead. Every AR loaded pushes
//               a tag {prefetch, lookahead, dead} into a small queue (TQ_DEPTH; full: no AR is
//               loaded), popped by the beat with rlast. start_i with start_pf_i preloads the FIFO
//               with the prefetched first pf_n_i dwords of the segment (pf_beats_i beats, from
//               whichever unit the decoder took the entry of) and fetches on after them.
//   FIFO        PB_FIFO_DW dwords; the FSM pops the head (pop_i) and flushes it (flush_i).
module gc_pbdma_fetch
  import gpucosim_pkg::*;
  import gc_pbdma_pkg::*;
  import gc_axi_pkg::*;
#(
  parameter int unsigned PB_FIFO_DW = 64,  // pushbuffer dword FIFO depth (power of 2, >= 2 bursts)
  parameter int unsigned PF_DW      = 2 * GC_AXI_MAX_BURST,   // prefetched dwords (one burst)
  localparam int unsigned FIFO_AW   = $clog2(PB_FIFO_DW),
  localparam int unsigned PF_CW     = $clog2(PF_DW + 1)
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,

  // From the FSM
  input  logic                 gp_load_i,       // read the GPFIFO entry at gp_addr_i
  input  logic [AW-1:0]        gp_addr_i,
  input  logic                 start_i,         // start a segment
  input  logic [AW-1:2]        st_addr_i,
  input  logic [LEN_W-1:0]     st_len_i,
  input  logic                 stop_i,          // stop fetching, discard R data in flight
  input  logic                 idle_i,          // the FSM goes idle: stop fetching
  input  logic                 in_idle_i,       // the FSM is in IDLE (for still_o only)
  input  logic                 hold_i,          // do not issue bursts (SYNC WAIT)
  input  logic                 pop_i,
  input  logic                 flush_i,
  input  logic                 start_pf_i,      // start_i takes the prefetched dwords below
  input  logic [PF_DW-1:0][32:0] pf_dw_i,
  input  logic [PF_CW-1:0]     pf_n_i,          // dwords of the segment prefetched
  input  logic [4:0]           pf_beats_i,      // beats they came in
  input  logic                 pf_err_i,        // one of them is poisoned

  // Prefetch unit (gc_pbdma_pf)
  input  logic                 pf_ar_valid_i,   // a prefetch read wants the AR register
  input  logic [AW-1:0]        pf_ar_addr_i,
  input  logic [7:0]           pf_ar_len_i,
  output logic                 pf_ar_ready_o,   // ... and got it this cycle
  input  logic                 pf_drop_i,       // prefetch reads in flight are stale
  output logic                 pf_rx_o,         // an R beat of a live prefetch read
  // Lookahead (gc_pbdma_pf SELF): the same for the resident channel's next entry
  input  logic                 la_ar_valid_i,
  input  logic [AW-1:0]        la_ar_addr_i,
  input  logic [7:0]           la_ar_len_i,
  output logic                 la_ar_ready_o,
  input  logic                 la_drop_i,
  output logic                 la_rx_o,

  // To the FSM
  output logic [32:0]          head_o,          // FIFO head (bit 32: poisoned)
  output logic [FIFO_AW:0]     cnt_o,
  output logic                 rx_live_o,       // an R beat that is not stale
  output logic                 ar_free_o,       // a new AR may be loaded this cycle
  output logic                 ar_sent_o,       // the AR register is empty: its last AR was accepted
  output logic                 still_o,         // no register here changes this cycle, given
                                                // no FSM command

  // Client memory port (gc_axi_pkg), reads only: no AW, no W, every B accepted
  output cli_req_t             m_req_o,
  input  cli_rsp_t             m_rsp_i,         // R from gc_pbdma's input stage (registered)
  input  logic                 ar_ready_i       // the port's AR ready: read only at the clock edge
);

  localparam int unsigned BEAT_B     = GC_AXI_DATA_W / 8;     // bytes per beat (8)
  localparam int unsigned BEAT_LSB   = $clog2(BEAT_B);        // 3
  localparam int unsigned PAGE_LSB   = 12;                    // AXI: bursts never cross 4 KiB
  localparam int unsigned PAGE_BEATS = (1 << PAGE_LSB) / BEAT_B;
  localparam int unsigned BEATS_W    = LEN_W + 1;
  localparam int unsigned RD_OUT_W   = FIFO_AW + 2;           // live beats in flight
  localparam int unsigned TQ_DEPTH   = 16;                    // reads in flight (tags)
  localparam int unsigned TQ_AW      = $clog2(TQ_DEPTH);

  logic [LEN_W-1:0]     rx_left_q;           // dwords still to receive
  logic                 rx_skip_q;           // skip the low dword of the next beat
  logic                 rx_en_q;             // R data belongs to the segment
  logic                 fetch_en_q;          // more bursts may be issued
  logic [AW-1:BEAT_LSB] fetch_addr_q;        // next beat to request
  logic [BEATS_W-1:0]   fetch_beats_q;       // beats still to request

  logic [32:0]          fifo_q [PB_FIFO_DW];
  logic [FIFO_AW-1:0]   fifo_wptr_q, fifo_rptr_q;
  logic [FIFO_AW:0]     fifo_cnt_q;

  logic                 ar_valid_q;
  logic [AW-1:0]        ar_addr_q;
  logic [7:0]           ar_len_q;
  logic [RD_OUT_W-1:0]  live_q;              // live beats of the resident channel's reads in
                                             // flight (AR loaded, not yet received)
  // Tags of the reads in flight, in AR order (R data is in order per client)
  logic [TQ_DEPTH-1:0]  tq_pf_q, tq_la_q, tq_dead_q;   // tq_la_q: of tq_pf_q, the lookahead's
  logic [TQ_AW-1:0]     tq_wptr_q, tq_rptr_q;
  logic [TQ_AW:0]       tq_cnt_q;

  // Burst sizing and credit
  logic [BEATS_W-1:0] burst_beats;
  logic [PAGE_LSB-BEAT_LSB:0] to_page;  // beats up to the next 4 KiB boundary
  logic               fetch_go, pb_load;

  always_comb begin
    to_page     = (PAGE_LSB - BEAT_LSB + 1)'(PAGE_BEATS) -
                  {1'b0, fetch_addr_q[PAGE_LSB-1:BEAT_LSB]};
    burst_beats = fetch_beats_q;
    if (burst_beats > BEATS_W'(GC_AXI_MAX_BURST)) burst_beats = BEATS_W'(GC_AXI_MAX_BURST);
    if (burst_beats > BEATS_W'(to_page))          burst_beats = BEATS_W'(to_page);
  end

  logic tq_full, pf_load, la_load, pf_free;
  assign tq_full  = (tq_cnt_q == (TQ_AW + 1)'(TQ_DEPTH));
  assign fetch_go = fetch_en_q && (fetch_beats_q != '0) && !ar_valid_q && !hold_i && !tq_full &&
                    (32'(fifo_cnt_q) + 2 * (32'(live_q) + 32'(burst_beats)) <= PB_FIFO_DW);
  assign pb_load  = fetch_go && !stop_i;
  // a prefetch or lookahead read takes the AR register only when the resident channel does not
  assign pf_free  = !ar_valid_q && !tq_full && !gp_load_i && !fetch_go && !start_i && !stop_i;
  assign la_load  = la_ar_valid_i && pf_free && !la_drop_i;
  assign pf_load  = pf_ar_valid_i && pf_free && !pf_drop_i && !la_load;

  // R beat: discard stale beats, split live ones into the segment's dwords
  logic rx_live, rx_beat, rx_lo, rx_hi, tq_head_pf, tq_head_la, tq_head_dead;
  assign tq_head_pf   = tq_pf_q[tq_rptr_q];
  assign tq_head_la   = tq_la_q[tq_rptr_q];
  assign tq_head_dead = tq_dead_q[tq_rptr_q];
  // The AR register's handshake is seen by this module's flops only: ar_free_o / ar_sent_o
  // follow the register (a new AR is loaded the cycle after the last one was accepted), not
  // the port's ready
  logic ar_hs;
  assign ar_hs     = ar_valid_q && ar_ready_i;
  assign ar_free_o = !ar_valid_q && !tq_full;
  assign ar_sent_o = !ar_valid_q;
  assign rx_live   = m_rsp_i.r_valid && !tq_head_dead && !tq_head_pf;
  assign pf_rx_o   = m_rsp_i.r_valid && !tq_head_dead && tq_head_pf && !tq_head_la && !pf_drop_i;
  assign la_rx_o   = m_rsp_i.r_valid && !tq_head_dead && tq_head_la && !la_drop_i;
  assign pf_ar_ready_o = pf_load;
  assign la_ar_ready_o = la_load;
  assign rx_beat   = rx_live && rx_en_q;
  assign rx_lo     = rx_beat && !rx_skip_q && (rx_left_q != '0);
  assign rx_hi     = rx_beat && ((rx_left_q - LEN_W'(rx_lo)) != '0);
  assign rx_live_o = rx_live;
  // still_o: no AR waiting or to be loaded (the resident channel's burst, the prefetch's, the
  // lookahead's), no stale reads to mark, no R beat in gc_pbdma's input stage (m_rsp_i.r_valid,
  // a register there; a beat arriving at the port is gpu_top's own busy term, c_rvalid, as it
  // follows the pins), and in IDLE the segment already stopped: then, in a cycle without a
  // command of the FSM (gp_load, start, stop, pop, flush all 0, idle_i only in IDLE: the FSM
  // stays where it is), every register above and the FIFO keep their values (gc_pbdma's still_o)
  assign still_o   = !ar_valid_q && !fetch_go && !pf_ar_valid_i && !la_ar_valid_i && !m_rsp_i.r_valid &&
                     !pf_drop_i && !la_drop_i && !(in_idle_i && (fetch_en_q || rx_en_q));

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rx_left_q     <= '0;
      rx_skip_q     <= 1'b0;
      rx_en_q       <= 1'b0;
      fetch_en_q    <= 1'b0;
      fetch_addr_q  <= '0;
      fetch_beats_q <= '0;
      fifo_wptr_q   <= '0;
      fifo_rptr_q   <= '0;
      fifo_cnt_q    <= '0;
      ar_valid_q    <= 1'b0;
      ar_addr_q     <= '0;
      ar_len_q      <= '0;
      live_q        <= '0;
      tq_pf_q       <= '0;
      tq_la_q       <= '0;
      tq_dead_q     <= '0;
      tq_wptr_q     <= '0;
      tq_rptr_q     <= '0;
      tq_cnt_q      <= '0;
    end else begin
      logic [RD_OUT_W-1:0] live_n;
      logic [FIFO_AW:0]    cnt_n;
      logic [FIFO_AW-1:0]  wp;
      logic [TQ_DEPTH-1:0] dead_n;
      logic                push;

      // ---- memory read issue ----
      live_n = live_q;
      push   = 1'b0;
      if (ar_hs) ar_valid_q <= 1'b0;
      if (gp_load_i) begin
        ar_valid_q <= 1'b1;
        ar_addr_q  <= gp_addr_i;
        ar_len_q   <= 8'd0;
        live_n = live_n + RD_OUT_W'(1);
        push   = 1'b1;
      end else if (pb_load) begin
        ar_valid_q    <= 1'b1;
        ar_addr_q     <= {fetch_addr_q, BEAT_LSB'(0)};
        ar_len_q      <= 8'(burst_beats - BEATS_W'(1));
        fetch_addr_q  <= fetch_addr_q + (AW - BEAT_LSB)'(burst_beats);
        fetch_beats_q <= fetch_beats_q - burst_beats;
        live_n = live_n + RD_OUT_W'(burst_beats);
        push   = 1'b1;
      end else if (la_load || pf_load) begin
        ar_valid_q <= 1'b1;
        ar_addr_q  <= la_load ? la_ar_addr_i : pf_ar_addr_i;
        ar_len_q   <= la_load ? la_ar_len_i : pf_ar_len_i;
        push       = 1'b1;
      end
      if (rx_live) live_n = live_n - RD_OUT_W'(1);
      // stale reads: everything of the resident channel still in flight when a segment stops (a
      // GPFIFO read loaded in the same cycle by SEG_DONE is not stale); prefetch reads on pf_drop_i,
      // lookahead reads on la_drop_i
      dead_n = tq_dead_q;
      if (stop_i) begin
        dead_n = dead_n | ~tq_pf_q;
        live_n = RD_OUT_W'(gp_load_i);
      end
      if (pf_drop_i) dead_n = dead_n | (tq_pf_q & ~tq_la_q);
      if (la_drop_i) dead_n = dead_n | tq_la_q;
      if (push) begin
        dead_n[tq_wptr_q]    = 1'b0;
        tq_pf_q[tq_wptr_q]  <= pf_load || la_load;
        tq_la_q[tq_wptr_q]  <= la_load;
        tq_wptr_q           <= tq_wptr_q + TQ_AW'(1);
      end
      tq_dead_q <= dead_n;
      if (m_rsp_i.r_valid && m_rsp_i.r.last) tq_rptr_q <= tq_rptr_q + TQ_AW'(1);
      tq_cnt_q <= tq_cnt_q + (TQ_AW + 1)'(push) - (TQ_AW + 1)'(m_rsp_i.r_valid && m_rsp_i.r.last);
      live_q   <= live_n;

      // ---- segment (re)start ----
      if (start_i) begin
        // beats covering [st_addr, st_addr + 4 * len), less the prefetched ones
        rx_left_q     <= st_len_i - (start_pf_i ? LEN_W'(pf_n_i) : '0);
        rx_skip_q     <= st_addr_i[2] && !(start_pf_i && pf_beats_i != '0);
        rx_en_q       <= 1'b1;
        fetch_en_q    <= !(start_pf_i && pf_err_i);
        fetch_addr_q  <= st_addr_i[AW-1:BEAT_LSB] + (start_pf_i ? (AW - BEAT_LSB)'(pf_beats_i) : '0);
        fetch_beats_q <= ((BEATS_W'(st_len_i) + BEATS_W'(st_addr_i[2]) + BEATS_W'(1)) >> 1) -
                         (start_pf_i ? BEATS_W'(pf_beats_i) : '0);
      end

      // ---- R data into the FIFO ----
      if (rx_beat) begin
        rx_skip_q <= 1'b0;
        rx_left_q <= rx_left_q - LEN_W'(rx_lo) - LEN_W'(rx_hi);
        // no more bursts after a bus error: the decoder faults when it reaches the poison
        if (resp_err(m_rsp_i.r.resp)) fetch_en_q <= 1'b0;
      end
      wp = fifo_wptr_q + FIFO_AW'(rx_lo) + FIFO_AW'(rx_hi);
      cnt_n = fifo_cnt_q + (FIFO_AW + 1)'(rx_lo) + (FIFO_AW + 1)'(rx_hi);
      if (pop_i) begin
        fifo_rptr_q <= fifo_rptr_q + FIFO_AW'(1);
        cnt_n       = cnt_n - (FIFO_AW + 1)'(1);
      end
      fifo_wptr_q <= wp;
      fifo_cnt_q  <= cnt_n;
      if (flush_i || start_i) begin
        fifo_wptr_q <= '0;
        fifo_rptr_q <= '0;
        fifo_cnt_q  <= '0;
      end
      if (start_i && start_pf_i) begin
        fifo_wptr_q <= FIFO_AW'(pf_n_i);
        fifo_cnt_q  <= (FIFO_AW + 1)'(pf_n_i);
      end
      if (stop_i || idle_i) begin
        fetch_en_q <= 1'b0;
        rx_en_q    <= 1'b0;
      end
    end
  end

  // FIFO storage (no reset needed: only entries below the write pointer are read)
  always_ff @(posedge clk_i or negedge rst_ni) begin  // rtl/README.md, "One trigger per clock"
    if (rst_ni) begin
      if (start_i && start_pf_i) begin
        for (int i = 0; i < PF_DW; i++) fifo_q[i] <= pf_dw_i[i];
      end else begin
        if (rx_lo) fifo_q[fifo_wptr_q] <= {resp_err(m_rsp_i.r.resp), m_rsp_i.r.data[31:0]};
        if (rx_hi) fifo_q[fifo_wptr_q + FIFO_AW'(rx_lo)] <= {resp_err(m_rsp_i.r.resp),
                                                             m_rsp_i.r.data[63:32]};
      end
    end
  end

  assign head_o      = fifo_q[fifo_rptr_q];
  assign cnt_o       = fifo_cnt_q;
  // FIFO room is reserved before a burst is issued (and the prefetch unit's buffer is free while
  // its read is in flight), so R is always ready
  assign m_req_o = cli_rd_only('{addr: ar_addr_q, len: ar_len_q}, ar_valid_q, 1'b1);

  // A read-only port: the write channels' responses are not looked at
  logic unused_fetch;
  assign unused_fetch = ^{m_rsp_i.aw_ready, m_rsp_i.ar_ready, m_rsp_i.w_ready, m_rsp_i.b_valid, m_rsp_i.b_resp};

endmodule
