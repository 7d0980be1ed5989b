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
//   stale data  stop_i ends the segment: every beat still in flight is counted (disc_q) and
//               dropped as it arrives (R data is in order per client), except a GPFIFO read
//               loaded in the same cycle; so the next channel's first read goes out at once.
//   FIFO        PB_FIFO_DW dwords; the FSM pops the head (pop_i) and flushes it (flush_i).
module gc_pbdma_fetch
  import gpucosim_pkg::*;
  import gc_pbdma_pkg::*;
  import gc_axi_pkg::*;
#(
  parameter int unsigned PB_FIFO_DW = 64,  // pushbuffer dword FIFO depth (power of 2, >= 2 bursts)
  localparam int unsigned FIFO_AW   = $clog2(PB_FIFO_DW)
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
  input  logic                 hold_i,          // do not issue bursts (SYNC WAIT)
  input  logic                 pop_i,
  input  logic                 flush_i,

  // To the FSM
  output logic [32:0]          head_o,          // FIFO head (bit 32: poisoned)
  output logic [FIFO_AW:0]     cnt_o,
  output logic                 rx_live_o,       // an R beat that is not stale
  output logic                 ar_free_o,       // a new AR may be loaded this cycle
  output logic                 ar_hs_o,         // the AR was accepted

  // Client memory port (gc_axi_pkg), reads only: no AW, no W, every B accepted
  output cli_req_t             m_req_o,
  input  cli_rsp_t             m_rsp_i
);

  localparam int unsigned BEAT_B     = GC_AXI_DATA_W / 8;     // bytes per beat (8)
  localparam int unsigned BEAT_LSB   = $clog2(BEAT_B);        // 3
  localparam int unsigned PAGE_LSB   = 12;                    // AXI: bursts never cross 4 KiB
  localparam int unsigned PAGE_BEATS = (1 << PAGE_LSB) / BEAT_B;
  localparam int unsigned BEATS_W    = LEN_W + 1;
  localparam int unsigned RD_OUT_W   = FIFO_AW + 2;           // beats in flight (incl. discarded)

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
  logic [RD_OUT_W-1:0]  rd_beats_q;          // beats requested (AR loaded) and not yet received
  logic [RD_OUT_W-1:0]  disc_q;              // of those, the first disc_q are discarded

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

  assign fetch_go = fetch_en_q && (fetch_beats_q != '0) && !ar_valid_q && !hold_i &&
                    (32'(fifo_cnt_q) + 2 * (32'(rd_beats_q) - 32'(disc_q) + 32'(burst_beats))
                     <= PB_FIFO_DW);
  assign pb_load  = fetch_go && !stop_i;

  // R beat: discard stale beats, split live ones into the segment's dwords
  logic rx_live, rx_beat, rx_lo, rx_hi;
  assign ar_free_o = !ar_valid_q || m_rsp_i.ar_ready;
  assign ar_hs_o   = ar_valid_q && m_rsp_i.ar_ready;
  assign rx_live   = m_rsp_i.r_valid && (disc_q == '0);
  assign rx_beat   = rx_live && rx_en_q;
  assign rx_lo     = rx_beat && !rx_skip_q && (rx_left_q != '0);
  assign rx_hi     = rx_beat && ((rx_left_q - LEN_W'(rx_lo)) != '0);
  assign rx_live_o = rx_live;

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
      rd_beats_q    <= '0;
      disc_q        <= '0;
    end else begin
      logic [RD_OUT_W-1:0] rd_beats_n;
      logic [FIFO_AW:0]    cnt_n;
      logic [FIFO_AW-1:0]  wp;

      // ---- memory read issue ----
      rd_beats_n = rd_beats_q;
      if (ar_hs_o) ar_valid_q <= 1'b0;
      if (gp_load_i) begin
        ar_valid_q <= 1'b1;
        ar_addr_q  <= gp_addr_i;
        ar_len_q   <= 8'd0;
        rd_beats_n = rd_beats_n + RD_OUT_W'(1);
      end else if (pb_load) begin
        ar_valid_q    <= 1'b1;
        ar_addr_q     <= {fetch_addr_q, BEAT_LSB'(0)};
        ar_len_q      <= 8'(burst_beats - BEATS_W'(1));
        fetch_addr_q  <= fetch_addr_q + (AW - BEAT_LSB)'(burst_beats);
        fetch_beats_q <= fetch_beats_q - burst_beats;
        rd_beats_n = rd_beats_n + RD_OUT_W'(burst_beats);
      end
      if (m_rsp_i.r_valid) rd_beats_n = rd_beats_n - RD_OUT_W'(1);
      rd_beats_q <= rd_beats_n;
      // stale beats: everything still in flight when a segment stops (a GPFIFO read loaded in
      // the same cycle by SEG_DONE is not stale)
      if (m_rsp_i.r_valid && disc_q != '0) disc_q <= disc_q - RD_OUT_W'(1);
      if (stop_i) disc_q <= rd_beats_n - RD_OUT_W'(gp_load_i);

      // ---- segment (re)start ----
      if (start_i) begin
        rx_left_q     <= st_len_i;
        rx_skip_q     <= st_addr_i[2];
        rx_en_q       <= 1'b1;
        fetch_en_q    <= 1'b1;
        fetch_addr_q  <= st_addr_i[AW-1:BEAT_LSB];
        // beats covering [st_addr, st_addr + 4 * len)
        fetch_beats_q <= (BEATS_W'(st_len_i) + BEATS_W'(st_addr_i[2]) + BEATS_W'(1)) >> 1;
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
      if (stop_i || idle_i) begin
        fetch_en_q <= 1'b0;
        rx_en_q    <= 1'b0;
      end
    end
  end

  // FIFO storage (no reset needed: only entries below the write pointer are read)
  always_ff @(posedge clk_i) begin
    if (rx_lo) fifo_q[fifo_wptr_q] <= {resp_err(m_rsp_i.r.resp), m_rsp_i.r.data[31:0]};
    if (rx_hi) fifo_q[fifo_wptr_q + FIFO_AW'(rx_lo)] <= {resp_err(m_rsp_i.r.resp),
                                                         m_rsp_i.r.data[63:32]};
  end

  assign head_o      = fifo_q[fifo_rptr_q];
  assign cnt_o       = fifo_cnt_q;
  // FIFO room is reserved before a burst is issued, so R is always ready
  assign m_req_o = cli_rd_only('{addr: ar_addr_q, len: ar_len_q}, ar_valid_q, 1'b1);

  // A read-only port: the write channels' responses are not looked at; bursts are counted by
  // beats (rlast not needed)
  logic unused_fetch;
  assign unused_fetch = ^{m_rsp_i.aw_ready, m_rsp_i.w_ready, m_rsp_i.b_valid, m_rsp_i.b_resp,
                          m_rsp_i.r.last};

endmodule
