// gc_mem_xbar: N client memory ports onto the one AXI4 memory master.
//
// Client ports are the "client memory port" form of rtl/README.md (AXI4 without ID, size and
// burst: every beat is 8 bytes, every burst INCR): unpacked arrays of gc_axi_pkg's cli_req_t /
// cli_rsp_t indexed by client, one variable per client.  The master side is gc_axi_pkg's AXI4
// axi_req_t / axi_rsp_t.
//
// Simulation cost (Verilator): every client's port is its own variable and every per-client
// signal is built in its own generate block.  A packed array of client structs is one wide
// vector to Verilator: each client's output is then a masked write into it and each grant mux a
// shift out of it, evaluated every cycle, and every client's logic that reads its response
// waits on the whole vector.  The muxes below pick by index from unpacked arrays instead.
//
//  * AR and AW are arbitrated round robin, each with its own pointer.  The grant is combinational
//    (no added latency) but it is locked while the master's valid waits for ready, so the payload
//    on m_ar* / m_aw* never changes under a pending valid (AXI rule).
//  * ID = client index.  The memory keeps order within an ID, so each client sees its own
//    responses in order.
//  * W is locked to the AW winners in AW grant order: every AW handshake pushes the granted
//    client index into a small FIFO; the W channel serves the client at the FIFO head until the
//    beat with wlast, then pops.  AW grants stop while the FIFO is full.  Clients never raise
//    wvalid for a burst before its AW was accepted (rtl/README.md), so the head client always
//    has (or will have) the data.  Popping and reading the next head happen in the same cycle,
//    so back-to-back bursts stream W at one beat per cycle.
//  * R and B are routed by ID: r_valid / b_valid are per client, the payload (r.data,
//    r.resp, r.last, b_resp) is the same in every client's response.  A response with an ID no client owns is accepted and
//    dropped (cannot happen with a well-behaved memory).
//  * R and B are pure wires: one R beat per cycle.
//  * Write snoop (snoop_o, gc_axi_pkg::wsnoop_t): every write burst that completes, from every
//    client, pulses snoop_o.valid once, in the cycle after its B handshake, with the burst's
//    address and length and its first beat (data and strobes) as written; a B response SLVERR
//    or DECERR pulses nothing (the write did not land).  At most one pulse per cycle (one B per
//    cycle).  The record is kept from the AW handshake to the B response in a table of
//    SNOOP_DEPTH slots, linked per ID in AW order (the memory keeps write order within an ID, so
//    each B belongs to the oldest slot of its ID); the first beat is captured as it passes on W.
//    An AW is granted only while a slot is free, so a write is never left without its record
//    (with more than SNOOP_DEPTH writes awaiting their B, the next AW waits).  Users: the PBDMAs'
//    acquire wake-up (rtl/README.md, "Write snoop").
module gc_mem_xbar
  import gpucosim_pkg::*;
  import gc_axi_pkg::*;
#(
  parameter int unsigned N           = 2,
  parameter int unsigned SNOOP_DEPTH = 16   // writes awaiting their B response (snoop records)
) (
  input  logic                                  clk_i,
  input  logic                                  rst_ni,

  // ---- client side: the client memory port of rtl/README.md, one per client
  input  cli_req_t                              c_req_i [N],
  output cli_rsp_t                              c_rsp_o [N],

  // ---- AXI4 master (gpu_top's m_* pins, through gc_axi_pins)
  output axi_req_t                              m_req_o,
  input  axi_rsp_t                              m_rsp_i,

  // ---- write snoop: one completed write burst per pulse (gc_axi_pkg::wsnoop_t)
  output wsnoop_t                               snoop_o
);

  // AXI4 protocol constants (AMBA AXI spec, not project encodings).
  localparam logic [2:0] AXI_SIZE  = 3'($clog2(GC_AXI_DATA_W / 8));  // 8-byte beats
  localparam logic [1:0] AXI_INCR  = 2'b01;

  localparam int unsigned IW       = (N > 1) ? $clog2(N) : 1;   // client index width
  localparam int unsigned NID      = 2 ** GC_AXI_ID_W;            // IDs on the master
  localparam int unsigned WQ_DEPTH = 4;                           // AW-granted, W not finished
  localparam int unsigned WQ_PW    = $clog2(WQ_DEPTH);
  localparam int unsigned AW_BITS  = GC_AXI_ADDR_W;
  localparam int unsigned BL       = $clog2(GC_AXI_DATA_W / 8);  // byte-in-beat address bits

  localparam int unsigned SW       = (SNOOP_DEPTH > 1) ? $clog2(SNOOP_DEPTH) : 1;  // slot index

  if (N < 1 || N > NID) begin : g_bad_n
    $error("gc_mem_xbar: N must be in 1..2**GC_AXI_ID_W");
  end
  if (SNOOP_DEPTH < 1) begin : g_bad_snoop_depth
    $error("gc_mem_xbar: SNOOP_DEPTH must be >= 1");
  end

  // Round-robin pick: the first requester after `last` (cyclically); `last` itself has the
  // lowest priority.  Returns `last` when nobody requests (the caller qualifies with req).
  function automatic logic [IW-1:0] rr_pick(input logic [N-1:0] req, input logic [IW-1:0] last);
    logic [IW-1:0] pick, cand;
    pick = last;
    // Walk from the farthest candidate to the nearest: the nearest requester is written last.
    for (int unsigned k = N; k >= 1; k--) begin
      cand = IW'((32'(last) + k) % N);
      if (req[cand]) pick = cand;
    end
    return pick;
  endfunction

  // The clients' valids and readys as vectors indexed by client
  logic [N-1:0] c_arvalid, c_awvalid, c_wvalid, c_rready, c_bready;
  for (genvar i = 0; i < N; i++) begin : g_cli_in
    assign c_arvalid[i] = c_req_i[i].ar_valid;
    assign c_awvalid[i] = c_req_i[i].aw_valid;
    assign c_wvalid[i]  = c_req_i[i].w_valid;
    assign c_rready[i]  = c_req_i[i].r_ready;
    assign c_bready[i]  = c_req_i[i].b_ready;
  end

  // ------------------------------------------------------------------ AR
  logic          ar_lock_q;   // m_req_o.ar_valid was high without m_rsp_i.ar_ready: keep the grant
  logic [IW-1:0] ar_lock_idx_q, ar_last_q, ar_sel;

  assign ar_sel           = ar_lock_q ? ar_lock_idx_q : rr_pick(c_arvalid, ar_last_q);
  assign m_req_o.ar_valid = c_arvalid[ar_sel];

  assign m_req_o.ar.id    = GC_AXI_ID_W'(ar_sel);
  assign m_req_o.ar.addr  = c_req_i[ar_sel].ar.addr;
  assign m_req_o.ar.len   = c_req_i[ar_sel].ar.len;
  assign m_req_o.ar.size  = AXI_SIZE;
  assign m_req_o.ar.burst = AXI_INCR;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ar_lock_q     <= 1'b0;
      ar_lock_idx_q <= '0;
      ar_last_q     <= IW'(N - 1);  // client 0 has the first turn
    end else begin
      ar_lock_q     <= m_req_o.ar_valid && !m_rsp_i.ar_ready;
      ar_lock_idx_q <= ar_sel;
      if (m_req_o.ar_valid && m_rsp_i.ar_ready) ar_last_q <= ar_sel;
    end
  end

  // ------------------------------------------------------------------ AW + W order queue
  logic          aw_lock_q;
  logic [IW-1:0] aw_lock_idx_q, aw_last_q, aw_sel;
  logic [IW-1:0] wq_q [WQ_DEPTH];
  logic [SW-1:0] wq_slot_q [WQ_DEPTH];     // the burst's snoop slot
  logic [SNOOP_DEPTH-1:0] sn_free_q;       // snoop slots not in use
  logic [SW-1:0] sn_alloc;                 // the lowest free slot (the next AW takes it)
  logic [WQ_PW-1:0] wq_wptr_q, wq_rptr_q;
  logic [WQ_PW:0]   wq_cnt_q;
  logic          wq_full, wq_empty, aw_room, aw_hs, w_hs, w_pop;
  logic [IW-1:0] w_sel;

  assign wq_full  = (wq_cnt_q == (WQ_PW+1)'(WQ_DEPTH));
  assign wq_empty = (wq_cnt_q == '0);

  // an AW is granted while the W order queue and the snoop table have room
  assign aw_room          = !wq_full && (sn_free_q != '0);
  assign aw_sel           = aw_lock_q ? aw_lock_idx_q : rr_pick(c_awvalid, aw_last_q);
  assign m_req_o.aw_valid = c_awvalid[aw_sel] && aw_room;
  always_comb begin
    sn_alloc = '0;
    for (int s = SNOOP_DEPTH - 1; s >= 0; s--) if (sn_free_q[s]) sn_alloc = SW'(s);
  end

  assign m_req_o.aw.id    = GC_AXI_ID_W'(aw_sel);
  assign m_req_o.aw.addr  = c_req_i[aw_sel].aw.addr;
  assign m_req_o.aw.len   = c_req_i[aw_sel].aw.len;
  assign m_req_o.aw.size  = AXI_SIZE;
  assign m_req_o.aw.burst = AXI_INCR;
  assign aw_hs       = m_req_o.aw_valid && m_rsp_i.aw_ready;

  // W: the client at the head of the order queue owns the channel until its wlast.
  assign w_sel = wq_q[wq_rptr_q];
  assign m_req_o.w_valid = !wq_empty && c_wvalid[w_sel];
  assign m_req_o.w.data = c_req_i[w_sel].w.data;
  assign m_req_o.w.strb = c_req_i[w_sel].w.strb;
  assign m_req_o.w.last = c_req_i[w_sel].w.last;
  assign w_hs      = m_req_o.w_valid && m_rsp_i.w_ready;
  assign w_pop     = w_hs && m_req_o.w.last;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      aw_lock_q     <= 1'b0;
      aw_lock_idx_q <= '0;
      aw_last_q     <= IW'(N - 1);
      wq_wptr_q     <= '0;
      wq_rptr_q     <= '0;
      wq_cnt_q      <= '0;
    end else begin
      aw_lock_q     <= m_req_o.aw_valid && !m_rsp_i.aw_ready;
      aw_lock_idx_q <= aw_sel;
      if (aw_hs) begin
        aw_last_q <= aw_sel;
        wq_wptr_q <= wq_wptr_q + 1'b1;
      end
      if (w_pop) wq_rptr_q <= wq_rptr_q + 1'b1;
      wq_cnt_q <= wq_cnt_q + (WQ_PW+1)'(aw_hs) - (WQ_PW+1)'(w_pop);
    end
  end

  // Queue storage needs no reset: entries are only read while the queue is not empty.
  always_ff @(posedge clk_i or negedge rst_ni) begin  // rtl/README.md, "One trigger per clock"
    if (rst_ni) begin
      if (aw_hs) begin
        wq_q[wq_wptr_q]      <= aw_sel;
        wq_slot_q[wq_wptr_q] <= sn_alloc;
      end
    end
  end

  // ------------------------------------------------------------------ write snoop
  // Slot s: a write from its AW handshake to its B response.  Per client, its slots form a list
  // in AW order (head = the oldest: the next B of that ID); sn_next_q links them.
  logic [AW_BITS-1:BL] sn_addr_q [SNOOP_DEPTH];
  len_t                sn_len_q  [SNOOP_DEPTH];
  data_t               sn_data_q [SNOOP_DEPTH];
  strb_t               sn_strb_q [SNOOP_DEPTH];
  logic [SW-1:0]       sn_next_q [SNOOP_DEPTH];
  logic [SW-1:0]       sn_head_q [N];
  logic [SW-1:0]       sn_tail_q [N];
  logic [N-1:0]        sn_ne_q;                 // the client has a write awaiting its B
  logic                w_first_q;               // the next W beat is the first of its burst
  logic                b_hs, b_pop;
  logic [IW-1:0]       b_cli;
  wsnoop_t             snoop_q;

  assign b_hs  = m_rsp_i.b_valid && m_req_o.b_ready;
  assign b_cli = IW'(m_rsp_i.b.id);
  assign b_pop = b_hs && (32'(m_rsp_i.b.id) < N) && sn_ne_q[b_cli];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sn_free_q <= '1;
      sn_ne_q   <= '0;
      w_first_q <= 1'b1;
      snoop_q   <= '0;
      for (int i = 0; i < N; i++) begin
        sn_head_q[i] <= '0;
        sn_tail_q[i] <= '0;
      end
    end else begin
      logic [SNOOP_DEPTH-1:0] free_n;
      logic [N-1:0]           ne_n;
      free_n = sn_free_q;
      ne_n   = sn_ne_q;
      if (w_hs) w_first_q <= m_req_o.w.last;
      snoop_q.valid <= b_pop && !m_rsp_i.b.resp[1];
      if (b_pop) begin
        logic [SW-1:0] s;
        s = sn_head_q[b_cli];
        snoop_q.addr <= {sn_addr_q[s], BL'(0)};
        snoop_q.len  <= sn_len_q[s];
        snoop_q.data <= sn_data_q[s];
        snoop_q.strb <= sn_strb_q[s];
        free_n[s] = 1'b1;
        if (s == sn_tail_q[b_cli]) ne_n[b_cli] = 1'b0;
        else                       sn_head_q[b_cli] <= sn_next_q[s];
      end
      if (aw_hs) begin
        free_n[sn_alloc] = 1'b0;
        if (!ne_n[aw_sel]) sn_head_q[aw_sel] <= sn_alloc;
        sn_tail_q[aw_sel] <= sn_alloc;
        ne_n[aw_sel]       = 1'b1;
      end
      sn_free_q <= free_n;
      sn_ne_q   <= ne_n;
    end
  end

  // Slot storage needs no reset: a slot is read only between its AW and its B.
  always_ff @(posedge clk_i or negedge rst_ni) begin  // rtl/README.md, "One trigger per clock"
    if (rst_ni) begin
      if (aw_hs) begin
        sn_addr_q[sn_alloc] <= m_req_o.aw.addr[AW_BITS-1:BL];
        sn_len_q[sn_alloc]  <= m_req_o.aw.len;
        // (when a B empties the list in the same cycle this links a freed slot: harmless)
        if (sn_ne_q[aw_sel]) sn_next_q[sn_tail_q[aw_sel]] <= sn_alloc;
      end
      if (w_hs && w_first_q) begin
        sn_data_q[wq_slot_q[wq_rptr_q]] <= m_req_o.w.data;
        sn_strb_q[wq_slot_q[wq_rptr_q]] <= m_req_o.w.strb;
      end
    end
  end

  assign snoop_o = snoop_q;

  // ------------------------------------------------------------------ R and B routing
  // Ready per master ID; IDs that no client owns are always ready (dropped).
  logic [NID-1:0] rready_by_id, bready_by_id;
  always_comb begin
    rready_by_id        = '1;
    rready_by_id[N-1:0] = c_rready;
    bready_by_id        = '1;
    bready_by_id[N-1:0] = c_bready;
  end
  assign m_req_o.r_ready = rready_by_id[m_rsp_i.r.id];
  assign m_req_o.b_ready = bready_by_id[m_rsp_i.b.id];

  // The responses, one client per generate block: its valids and readys, the R and B payloads
  // shared
  for (genvar i = 0; i < N; i++) begin : g_cli_out
    assign c_rsp_o[i].ar_ready = (ar_sel == IW'(i)) && m_rsp_i.ar_ready;
    assign c_rsp_o[i].aw_ready = (aw_sel == IW'(i)) && m_rsp_i.aw_ready && aw_room;
    assign c_rsp_o[i].w_ready  = (w_sel == IW'(i)) && !wq_empty && m_rsp_i.w_ready;
    assign c_rsp_o[i].r_valid  = m_rsp_i.r_valid && (m_rsp_i.r.id == GC_AXI_ID_W'(i));
    assign c_rsp_o[i].r        = '{data: m_rsp_i.r.data, resp: m_rsp_i.r.resp, last: m_rsp_i.r.last};
    assign c_rsp_o[i].b_valid  = m_rsp_i.b_valid && (m_rsp_i.b.id == GC_AXI_ID_W'(i));
    assign c_rsp_o[i].b_resp   = m_rsp_i.b.resp;
  end

endmodule
