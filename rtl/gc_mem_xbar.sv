// gc_mem_xbar: N client memory ports onto the one AXI4 memory master.
//
// Client ports are the "client memory port" form of rtl/README.md (AXI4 without ID, size and
// burst: every beat is 8 bytes, every burst INCR), as packed arrays indexed by client.
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
//  * R and B are routed by ID: c_rvalid_o / c_bvalid_o are per client, the payload (rdata,
//    rresp, rlast, bresp) is shared.  A response with an ID no client owns is accepted and
//    dropped (cannot happen with a well-behaved memory).
//  * R and B are pure wires: one R beat per cycle.
module gc_mem_xbar
  import gpucosim_pkg::*;
#(
  parameter int unsigned N = 2
) (
  input  logic                                  clk_i,
  input  logic                                  rst_ni,

  // ---- client side ----
  input  logic [N-1:0]                          c_arvalid_i,
  output logic [N-1:0]                          c_arready_o,
  input  logic [N-1:0][GC_AXI_ADDR_W-1:0]       c_araddr_i,
  input  logic [N-1:0][7:0]                     c_arlen_i,
  output logic [N-1:0]                          c_rvalid_o,
  input  logic [N-1:0]                          c_rready_i,
  output logic [GC_AXI_DATA_W-1:0]              c_rdata_o,
  output logic [1:0]                            c_rresp_o,
  output logic                                  c_rlast_o,
  input  logic [N-1:0]                          c_awvalid_i,
  output logic [N-1:0]                          c_awready_o,
  input  logic [N-1:0][GC_AXI_ADDR_W-1:0]       c_awaddr_i,
  input  logic [N-1:0][7:0]                     c_awlen_i,
  input  logic [N-1:0]                          c_wvalid_i,
  output logic [N-1:0]                          c_wready_o,
  input  logic [N-1:0][GC_AXI_DATA_W-1:0]       c_wdata_i,
  input  logic [N-1:0][GC_AXI_DATA_W/8-1:0]     c_wstrb_i,
  input  logic [N-1:0]                          c_wlast_i,
  output logic [N-1:0]                          c_bvalid_o,
  input  logic [N-1:0]                          c_bready_i,
  output logic [1:0]                            c_bresp_o,

  // ---- AXI4 master (gpu_top m_* ports) ----
  output logic                                  m_awvalid_o,
  input  logic                                  m_awready_i,
  output logic [GC_AXI_ID_W-1:0]                m_awid_o,
  output logic [GC_AXI_ADDR_W-1:0]              m_awaddr_o,
  output logic [7:0]                            m_awlen_o,
  output logic [2:0]                            m_awsize_o,
  output logic [1:0]                            m_awburst_o,
  output logic                                  m_wvalid_o,
  input  logic                                  m_wready_i,
  output logic [GC_AXI_DATA_W-1:0]              m_wdata_o,
  output logic [GC_AXI_DATA_W/8-1:0]            m_wstrb_o,
  output logic                                  m_wlast_o,
  input  logic                                  m_bvalid_i,
  output logic                                  m_bready_o,
  input  logic [GC_AXI_ID_W-1:0]                m_bid_i,
  input  logic [1:0]                            m_bresp_i,
  output logic                                  m_arvalid_o,
  input  logic                                  m_arready_i,
  output logic [GC_AXI_ID_W-1:0]                m_arid_o,
  output logic [GC_AXI_ADDR_W-1:0]              m_araddr_o,
  output logic [7:0]                            m_arlen_o,
  output logic [2:0]                            m_arsize_o,
  output logic [1:0]                            m_arburst_o,
  input  logic                                  m_rvalid_i,
  output logic                                  m_rready_o,
  input  logic [GC_AXI_ID_W-1:0]                m_rid_i,
  input  logic [GC_AXI_DATA_W-1:0]              m_rdata_i,
  input  logic [1:0]                            m_rresp_i,
  input  logic                                  m_rlast_i
);

  // AXI4 protocol constants (AMBA AXI spec, not project encodings).
  localparam logic [2:0] AXI_SIZE  = 3'($clog2(GC_AXI_DATA_W / 8));  // 8-byte beats
  localparam logic [1:0] AXI_INCR  = 2'b01;

  localparam int unsigned IW       = (N > 1) ? $clog2(N) : 1;   // client index width
  localparam int unsigned NID      = 2 ** GC_AXI_ID_W;            // IDs on the master
  localparam int unsigned WQ_DEPTH = 4;                           // AW-granted, W not finished
  localparam int unsigned WQ_PW    = $clog2(WQ_DEPTH);

  if (N < 1 || N > NID) begin : g_bad_n
    $error("gc_mem_xbar: N must be in 1..2**GC_AXI_ID_W");
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

  // ------------------------------------------------------------------ AR
  logic          ar_lock_q;   // m_arvalid_o was high without m_arready_i: keep the grant
  logic [IW-1:0] ar_lock_idx_q, ar_last_q, ar_sel;

  always_comb begin
    ar_sel = ar_lock_q ? ar_lock_idx_q : rr_pick(c_arvalid_i, ar_last_q);
    m_arvalid_o = c_arvalid_i[ar_sel];
    c_arready_o = '0;
    c_arready_o[ar_sel] = m_arready_i;
  end

  assign m_arid_o    = GC_AXI_ID_W'(ar_sel);
  assign m_araddr_o  = c_araddr_i[ar_sel];
  assign m_arlen_o   = c_arlen_i[ar_sel];
  assign m_arsize_o  = AXI_SIZE;
  assign m_arburst_o = AXI_INCR;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ar_lock_q     <= 1'b0;
      ar_lock_idx_q <= '0;
      ar_last_q     <= IW'(N - 1);  // client 0 has the first turn
    end else begin
      ar_lock_q     <= m_arvalid_o && !m_arready_i;
      ar_lock_idx_q <= ar_sel;
      if (m_arvalid_o && m_arready_i) ar_last_q <= ar_sel;
    end
  end

  // ------------------------------------------------------------------ AW + W order queue
  logic          aw_lock_q;
  logic [IW-1:0] aw_lock_idx_q, aw_last_q, aw_sel;
  logic [IW-1:0] wq_q [WQ_DEPTH];
  logic [WQ_PW-1:0] wq_wptr_q, wq_rptr_q;
  logic [WQ_PW:0]   wq_cnt_q;
  logic          wq_full, wq_empty, aw_hs, w_hs, w_pop;
  logic [IW-1:0] w_sel;

  assign wq_full  = (wq_cnt_q == (WQ_PW+1)'(WQ_DEPTH));
  assign wq_empty = (wq_cnt_q == '0);

  always_comb begin
    aw_sel = aw_lock_q ? aw_lock_idx_q : rr_pick(c_awvalid_i, aw_last_q);
    m_awvalid_o = c_awvalid_i[aw_sel] && !wq_full;
    c_awready_o = '0;
    c_awready_o[aw_sel] = m_awready_i && !wq_full;
  end

  assign m_awid_o    = GC_AXI_ID_W'(aw_sel);
  assign m_awaddr_o  = c_awaddr_i[aw_sel];
  assign m_awlen_o   = c_awlen_i[aw_sel];
  assign m_awsize_o  = AXI_SIZE;
  assign m_awburst_o = AXI_INCR;
  assign aw_hs       = m_awvalid_o && m_awready_i;

  // W: the client at the head of the order queue owns the channel until its wlast.
  assign w_sel = wq_q[wq_rptr_q];
  always_comb begin
    m_wvalid_o = !wq_empty && c_wvalid_i[w_sel];
    c_wready_o = '0;
    c_wready_o[w_sel] = !wq_empty && m_wready_i;
  end
  assign m_wdata_o = c_wdata_i[w_sel];
  assign m_wstrb_o = c_wstrb_i[w_sel];
  assign m_wlast_o = c_wlast_i[w_sel];
  assign w_hs      = m_wvalid_o && m_wready_i;
  assign w_pop     = w_hs && m_wlast_o;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      aw_lock_q     <= 1'b0;
      aw_lock_idx_q <= '0;
      aw_last_q     <= IW'(N - 1);
      wq_wptr_q     <= '0;
      wq_rptr_q     <= '0;
      wq_cnt_q      <= '0;
    end else begin
      aw_lock_q     <= m_awvalid_o && !m_awready_i;
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
  always_ff @(posedge clk_i) begin
    if (aw_hs) wq_q[wq_wptr_q] <= aw_sel;
  end

  // ------------------------------------------------------------------ R and B routing
  // Ready per master ID; IDs that no client owns are always ready (dropped).
  logic [NID-1:0] rready_by_id, bready_by_id;
  always_comb begin
    rready_by_id        = '1;
    rready_by_id[N-1:0] = c_rready_i;
    bready_by_id        = '1;
    bready_by_id[N-1:0] = c_bready_i;
    for (int unsigned i = 0; i < N; i++) begin
      c_rvalid_o[i] = m_rvalid_i && (m_rid_i == GC_AXI_ID_W'(i));
      c_bvalid_o[i] = m_bvalid_i && (m_bid_i == GC_AXI_ID_W'(i));
    end
  end
  assign m_rready_o = rready_by_id[m_rid_i];
  assign m_bready_o = bready_by_id[m_bid_i];
  assign c_rdata_o  = m_rdata_i;
  assign c_rresp_o  = m_rresp_i;
  assign c_rlast_o  = m_rlast_i;
  assign c_bresp_o  = m_bresp_i;

endmodule
