// gc_sm_lsu: the SM's load/store unit.  One warp memory instruction (LOAD, STORE or AMO / LR /
// SC) is served at a time; the next is accepted (req_ready_o) in the cycle the current one
// finishes (its last lanes served: a one-segment global load takes one cycle, its AR), a store
// even while the return queue is full (it takes no entry).  Its lanes are served in three phases:
//
//   LOCAL   every lane whose address is in the LOCAL window, in one cycle: local memory is banked
//           per lane (a thread only ever touches its own bank), so no lane waits for another.
//   SHARED  the CTA's shared memory: LANES banks of 32-bit words (word w in bank w % LANES).  Each
//           cycle serves, for loads, every pending lane whose bank no lower pending lane uses for
//           another word (lanes on the same word share the read); for stores, the lowest pending
//           lane of each bank; for AMOs one lane (read-modify-write).
//   GLOBAL  device memory through the SM's crossbar port, coalesced: the lowest pending lane picks
//           its 128-byte aligned segment; every pending lane in that segment is served by one
//           INCR burst from the segment's lowest to its highest beat used (<= 16 beats, never
//           across 4 KiB); repeat.  Loads issue one AR per cycle and do not wait for the data;
//           stores send AW then the W beats (bytes of each lane at its offset, wstrb) from the
//           store buffer (w_*_q: WB bursts, each a copy of its lanes, offsets and data taken with
//           the AW; W beats go out oldest burst first, one per cycle), so the instruction is done
//           with its last AW and the next ones (further stores, loads) are served while those W
//           beats go out; a store burst waits only when the buffer is full; AMOs and
//           SC go lane by lane (lowest first) to the atomic unit, in order, one at a time; an LR
//           goes once for the lowest pending lane and every other pending lane on the same 4-byte
//           word (the unit reads once and sets all their reservations: the same as their LRs
//           back to back, and it keeps a contended CAS loop from costing a memory round trip per
//           lane and retry).
//           A load burst first waits until no store burst of its warp to the same 128-byte segment
//           is still waiting for its B response (a thread must read its own stores, and AXI
//           orders nothing between reads and writes); a store burst waits, the other way round,
//           until no earlier load of its warp whose bursts span its segment (q_slo_q ..
//           q_shi_q) is still in the return queue (the load must not see the store; gc_sm's
//           scoreboard no longer holds stores back for loads); an atomic waits for every store
//           of its warp (it goes through the atomic unit's own port).  When a store burst's AW is accepted,
//           st_valid_o tells the atomic unit its segment and the 4-byte words it writes, which
//           breaks the LR/SC reservations on them.
//
// Loads and atomics own an entry of a return queue (LQ deep) from acceptance on: shared / local /
// atomic results are written into it by the issue side, global load beats by the return side,
// which matches each R beat to the lanes that wait for it (every lane got the sequence number of
// its beat when its burst was issued; R data comes back in AR order; in the cycle the head
// completes, a beat goes to the next entry if that one issued a burst, else it waits a cycle,
// so back-to-back loads stream one R beat per cycle).  The head entry completes
// when its issue finished and all its beats arrived: wb_valid_o writes the registers (rd[5]: the
// FP file, FLW) and, for an atomic (wb_load_o low), frees the warp; a load's warp went on issuing
// (gc_sm's scoreboard waits for rd).  Stores are posted: sdone_valid_o frees the warp once its
// last AW is issued (the W beats follow from the store buffer);
// st_pend_o[w] stays high until all of warp w's B responses are back (barriers, FENCE, EXIT and
// the next global load wait for it).
//
// Faults (flt_valid_o, one-cycle pulse): a load beat with an error (when its entry completes:
// LOAD_BUS_ERROR, the first lane that used such a beat), an atomic answered with an error
// (STORE_BUS_ERROR, or LOAD_BUS_ERROR for an LR as RISC-V's LR faults like a load; its lowest
// lane), a store burst whose B response is an error (STORE_BUS_ERROR).  Every store burst keeps
// the PC, warp and lowest lane of its instruction and that lane's thread address until its B
// response, so the record names the store that failed even though the warp may have gone on
// (stores are posted) by the time the error arrives.
module gc_sm_lsu
  import gpucosim_pkg::*;
  import gc_axi_pkg::*;
  import gc_sem_pkg::*;
  import gc_simt_pkg::*;
#(
  parameter int unsigned NL       = 8,
  parameter int unsigned NW       = 4,
  parameter int unsigned WW       = 2,
  parameter int unsigned LQ       = 4,      // return queue entries (power of 2)
  parameter int unsigned SQ       = 8,      // store bursts awaiting their B (power of 2)
  parameter int unsigned WB       = 2,      // store bursts awaiting their W beats (power of 2)
  parameter int unsigned RB       = 32,     // load bursts in flight (AR issued, last R beat not in)
  parameter int unsigned RTW      = 1,      // atomic-unit reservation tag width
  parameter int unsigned TAG_BASE = 0,      // reservation tag of warp 0 lane 0 of this SM
  localparam int unsigned AW      = GC_AXI_ADDR_W
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,

  input  logic                     req_valid_i,
  output logic                     req_ready_o,
  input  logic [WW-1:0]            req_warp_i,
  input  lsu_kind_e                req_kind_i,
  input  logic [2:0]               req_f3_i,
  input  logic [4:0]               req_f5_i,
  input  logic [5:0]               req_rd_i,      // {FP register file, rd}
  input  logic [31:0]              req_pc_i,
  input  logic [NL-1:0]            req_mask_i,
  input  logic [NL-1:0][1:0]       req_space_i,   // mem_space_e per lane
  input  logic [NL-1:0][AW-1:0]    req_addr_i,    // device address / shared or local byte offset
  input  logic [NL-1:0][31:0]      req_taddr_i,   // thread address (fault records)
  input  logic [NL-1:0][31:0]      req_wdata_i,

  output logic [NW-1:0]            st_pend_o,

  output logic                     wb_valid_o,
  output logic [WW-1:0]            wb_warp_o,
  output logic [5:0]               wb_rd_o,
  output logic                     wb_load_o,     // the entry is a load (else an AMO / LR / SC)
  output logic [NL-1:0]            wb_mask_o,
  output logic [NL-1:0][31:0]      wb_data_o,

  output logic                     sdone_valid_o,
  output logic [WW-1:0]            sdone_warp_o,

  output logic                     flt_valid_o,
  output simt_fault_e              flt_cause_o,
  output logic [WW-1:0]            flt_warp_o,
  output logic [7:0]               flt_lane_o,
  output logic [31:0]              flt_pc_o,
  output logic [31:0]              flt_addr_o,

  output logic [4:0]               beats_o,       // memory beats moved this cycle (counter)

  // global store bursts, to the atomic unit (reservation breaks)
  output logic                     st_valid_o,    // a store burst's AW was accepted
  output logic [AW-1:0]            st_addr_o,     // its 128-byte segment
  output logic [31:0]              st_wmask_o,    // the segment's 4-byte words it writes

  // client memory port
  output cli_req_t                 m_req_o,
  input  cli_rsp_t                 m_rsp_i,

  // atomic unit request port
  output logic                     aq_valid_o,
  input  logic                     aq_ready_i,
  output logic [1:0]               aq_op_o,
  output logic [GC_HOST_SEM_EXECUTE_REDUCTION_W-1:0] aq_red_o,
  output logic                     aq_signed_o,
  output logic [1:0]               aq_size_o,
  output logic [AW-1:0]            aq_addr_o,
  output logic [63:0]              aq_wdata_o,
  output logic [1:0]               aq_xop_o,
  output logic [RTW-1:0]           aq_rtag_o,
  input  logic                     as_valid_i,
  input  logic [63:0]              as_rdata_i,
  input  logic                     as_err_i
);

  localparam int unsigned LW    = (NL > 1) ? $clog2(NL) : 1;          // lane index width
  localparam int unsigned QW    = (LQ > 1) ? $clog2(LQ) : 1;
  localparam int unsigned SQW   = (SQ > 1) ? $clog2(SQ) : 1;
  localparam int unsigned WBW   = (WB > 1) ? $clog2(WB) : 1;
  localparam int unsigned SEQW  = $clog2(16 * NL) + 1;               // beats of one instruction
  localparam int unsigned SMW   = GC_SIMT_SMEM_BYTES / 4;             // shared memory words
  localparam int unsigned SMA   = $clog2(SMW);
  localparam int unsigned LMW   = GC_SIMT_LMEM_BYTES / 4;             // local words per thread
  localparam int unsigned LMA   = $clog2(LMW);
  localparam int unsigned SEG_LSB = 7;                                // 128-byte segments

  if ((NL & (NL - 1)) != 0) begin : g_bad_nl
    $error("gc_sm_lsu: LANES must be a power of two (shared-memory banks)");
  end
  if (WB < 2 || (WB & (WB - 1)) != 0) begin : g_bad_wb
    $error("gc_sm_lsu: WB must be a power of two >= 2 (store buffer ring indices)");
  end
  if (RB < 1) begin : g_bad_rb
    $error("gc_sm_lsu: RB must be >= 1");
  end
  if (LQ < 2 || (LQ & (LQ - 1)) != 0) begin : g_bad_lq
    $error("gc_sm_lsu: LQ must be a power of two >= 2 (the entry after the head takes R beats)");
  end

`ifdef GC_MUTATIONS
  int unsigned mut_q;   // (gc_sm) 1 drops the store-after-load wait below
  initial mut_q = gc_mutation();
`endif

  function automatic logic [LW-1:0] lowest(input logic [NL-1:0] m);
    logic [LW-1:0] r;
    r = '0;
    for (int l = NL - 1; l >= 0; l--) if (m[l]) r = LW'(l);
    return r;
  endfunction

  // ------------------------------------------------------------------------------------------
  // Current instruction (issue side)
  // ------------------------------------------------------------------------------------------
  logic                 cur_v_q;
  logic [WW-1:0]        cur_warp_q;
  lsu_kind_e            cur_kind_q;
  logic [2:0]           cur_f3_q;
  logic [4:0]           cur_f5_q;
  logic [31:0]          cur_pc_q;
  logic [NL-1:0]        cur_mask_q, rem_q;
  logic [NL-1:0][1:0]   cur_space_q;
  logic [NL-1:0][AW-1:0] cur_addr_q;
  logic [NL-1:0][31:0]  cur_taddr_q, cur_wdata_q;
  logic [QW-1:0]        cur_q_q;          // its return-queue entry (loads, atomics)
  logic [SEQW-1:0]      cur_beats_q;      // beats issued so far (loads)

  // store buffer: WB store bursts whose AW has been issued and whose W beats have not all gone,
  // each with its own copy of the lanes' offsets and data, so that its W beats go out while the
  // next instructions (further stores, loads) are already being served; oldest first
  logic [NL-1:0]        w_lanes_q  [WB];
  logic [NL-1:0][6:0]   w_off_q    [WB];  // byte offset in the 128-byte segment
  logic [NL-1:0][31:0]  w_data_q   [WB];
  logic [1:0]           w_size_q   [WB];
  logic [3:0]           w_first_q  [WB];
  logic [3:0]           w_len_q    [WB];
  logic [AW-1:SEG_LSB]  w_seg_q    [WB];
  logic [WBW-1:0]       w_hd_q, w_tl_q;
  logic [WBW:0]         w_num_q;          // bursts in the buffer
  logic [3:0]           w_cnt_q;          // W beats of the oldest burst sent

  // AXI request registers
  logic                 ar_valid_q, aw_valid_q;
  logic [AW-1:0]        ar_addr_q, aw_addr_q;
  logic [7:0]           ar_len_q, aw_len_q;

  // atomic in flight
  logic                 aq_valid_q, aq_busy_q;
  logic [LW-1:0]        aq_lane_q;        // lowest lane of the request (its tag, fault records)
  logic [NL-1:0]        aq_grp_q;         // every lane the request serves (LR: same word; else one)

  // ------------------------------------------------------------------------------------------
  // Return queue
  // ------------------------------------------------------------------------------------------
  logic [LQ-1:0]          q_valid_q, q_closed_q, q_err_q;
  logic [WW-1:0]          q_warp_q   [LQ];
  logic [5:0]             q_rd_q     [LQ];
  logic [LQ-1:0]          q_ld_q;
  logic [2:0]             q_f3_q     [LQ];
  logic [31:0]            q_pc_q     [LQ];
  logic [NL-1:0]          q_mask_q   [LQ];
  logic [NL-1:0]          q_gm_q     [LQ];     // lanes waiting for a beat
  logic [AW-1:SEG_LSB]    q_slo_q    [LQ];     // lowest and highest 128-byte segment of its
  logic [AW-1:SEG_LSB]    q_shi_q    [LQ];     //   bursts (valid once q_gm_q != 0)
  logic [SEQW-1:0]        q_total_q  [LQ];
  logic [LW-1:0]          q_elane_q  [LQ];
  logic [31:0]            q_eaddr_q  [LQ];
  logic [NL-1:0][SEQW-1:0] q_seq_q   [LQ];
  logic [NL-1:0][2:0]     q_off_q    [LQ];
  logic [NL-1:0][31:0]    q_data_q   [LQ];
  logic [NL-1:0][31:0]    q_taddr_q  [LQ];
  logic [QW-1:0]          hd_q, tl_q;
  logic [QW:0]            qcnt_q;
  logic [SEQW-1:0]        rk_q;                // beats received for the head entry

  // ------------------------------------------------------------------------------------------
  // Store bursts awaiting B
  // ------------------------------------------------------------------------------------------
  logic [WW-1:0]          sq_warp_q  [SQ];
  logic [31:0]            sq_pc_q    [SQ];
  logic [LW-1:0]          sq_lane_q  [SQ];
  logic [31:0]            sq_addr_q  [SQ];
  logic [AW-1:SEG_LSB]    sq_seg_q   [SQ];
  logic [SQW-1:0]         sq_hd_q, sq_tl_q;
  logic [SQW:0]           sq_cnt_q;
  logic [SQW:0]           st_cnt_q   [NW];     // per warp

  always_comb begin
    for (int w = 0; w < NW; w++) st_pend_o[w] = (st_cnt_q[w] != '0);
  end

  // ------------------------------------------------------------------------------------------
  // Local / shared memory
  // ------------------------------------------------------------------------------------------
  logic [31:0] lmem_q [NL][(1 << WW) * LMW];   // bank l: {warp, word}
  logic [31:0] smem_q [SMW];

  // ------------------------------------------------------------------------------------------
  // Issue decisions for this cycle
  // ------------------------------------------------------------------------------------------
  logic [NL-1:0] loc_pend, shr_pend, glb_pend, shr_srv;
  logic          do_loc, do_shr, do_glb, st_wait;
  always_comb begin
    for (int l = 0; l < NL; l++) begin
      loc_pend[l] = cur_v_q && rem_q[l] && (cur_space_q[l] == SP_LOCAL);
      shr_pend[l] = cur_v_q && rem_q[l] && (cur_space_q[l] == SP_SHARED);
      glb_pend[l] = cur_v_q && rem_q[l] && (cur_space_q[l] == SP_GLOBAL);
    end
  end
  // shared: the lanes served this cycle
  always_comb begin
    logic ok;
    shr_srv = '0;
    ok      = 1'b0;
    if (shr_pend != '0) begin
      if (cur_kind_q == LK_AMO) begin
        shr_srv[lowest(shr_pend)] = 1'b1;
      end else begin
        for (int l = 0; l < NL; l++) begin
          ok = shr_pend[l];
          for (int k = 0; k < l; k++) begin
            if (shr_pend[k] &&
                cur_addr_q[k][LW+1:2] == cur_addr_q[l][LW+1:2] &&           // same bank
                (cur_kind_q == LK_STORE || cur_addr_q[k][SMA+1:2] != cur_addr_q[l][SMA+1:2])) begin
              ok = 1'b0;
            end
          end
          shr_srv[l] = ok;
        end
      end
    end
  end
  assign do_loc  = (loc_pend != '0);
  assign do_shr  = !do_loc && (shr_pend != '0);
  assign do_glb  = !do_loc && !do_shr && (glb_pend != '0);
  assign st_wait = (cur_kind_q == LK_AMO) && st_pend_o[cur_warp_q];

  // Global segment of the lowest pending global lane (loads: pending lanes; stores: likewise)
  logic [LW-1:0]        g_l0;
  logic [AW-1:SEG_LSB]  g_seg;
  logic [NL-1:0]        g_lanes;
  logic [3:0]           g_first, g_last, g_len;
  always_comb begin
    g_l0    = lowest(glb_pend);
    g_seg   = cur_addr_q[g_l0][AW-1:SEG_LSB];
    g_lanes = '0;
    g_first = 4'hF;
    g_last  = 4'h0;
    if (do_glb) begin
      for (int l = 0; l < NL; l++) begin
        if (glb_pend[l] && cur_addr_q[l][AW-1:SEG_LSB] == g_seg) begin
          g_lanes[l] = 1'b1;
          if (cur_addr_q[l][6:3] < g_first) g_first = cur_addr_q[l][6:3];
          if (cur_addr_q[l][6:3] > g_last)  g_last  = cur_addr_q[l][6:3];
        end
      end
    end
    g_len = g_last - g_first;
  end

  logic ar_free, aw_free, sq_full, q_full;
  assign ar_free = !ar_valid_q || m_rsp_i.ar_ready;
  assign aw_free = !aw_valid_q || m_rsp_i.aw_ready;
  assign sq_full = (sq_cnt_q == (SQW + 1)'(SQ));
  assign q_full  = (qcnt_q == (QW + 1)'(LQ));

  logic g_ar, g_aw, g_aq;       // issue a load burst / a store burst's AW / an atomic this cycle
  // a store burst of this warp to the load's segment still in flight
  logic seg_hazard;
  always_comb begin
    seg_hazard = 1'b0;
    for (int i = 0; i < SQ; i++) begin
      logic [SQW-1:0] k;
      k = SQW'(i) - sq_hd_q;
      if ((SQW + 1)'(k) < sq_cnt_q && sq_warp_q[i] == cur_warp_q && sq_seg_q[i] == g_seg) begin
        seg_hazard = 1'b1;
      end
    end
  end

  // load bursts in flight (the read IDs / miss registers of a real LSU): at most RB
  localparam int unsigned RBW = $clog2(RB + 1);
  logic [RBW-1:0] rb_q;
  assign g_ar = do_glb && cur_kind_q == LK_LOAD && !seg_hazard && ar_free && (32'(rb_q) < RB);
  // an earlier load of this warp whose bursts span the store's segment is still in the return
  // queue (its data may not have been read yet: AXI orders nothing between reads and writes, so
  // the store's AW waits until that load has completed)
  logic ld_hazard;
  always_comb begin
    ld_hazard = 1'b0;
    for (int i = 0; i < LQ; i++) begin
      if (q_valid_q[i] && q_ld_q[i] && q_warp_q[i] == cur_warp_q && q_gm_q[i] != '0 &&
          g_seg >= q_slo_q[i] && g_seg <= q_shi_q[i]) begin
        ld_hazard = 1'b1;
      end
    end
`ifdef GC_MUTATIONS
    if (mut_q == 1) ld_hazard = 1'b0;
`endif
  end

  logic w_full;
  assign w_full = (w_num_q == (WBW + 1)'(WB));
  assign g_aw = do_glb && cur_kind_q == LK_STORE && !w_full && aw_free && !sq_full && !ld_hazard;
  assign g_aq = do_glb && cur_kind_q == LK_AMO && !st_wait && !aq_busy_q;

  // The instruction finishes this cycle: its last lanes are served now (a load's last AR, local
  // or shared lanes) or were before, a store's last W beat goes now or went before, an atomic's
  // answer came (assigned below the W beats)
  logic finish;

  // The next instruction is taken in the cycle the current one finishes (nothing of it is served
  // then: its lanes are all done, its last W beat is out); a store takes no return-queue entry,
  // so a full queue does not hold it back.
  assign req_ready_o = (!cur_v_q || finish) && (!q_full || req_kind_i == LK_STORE);

  // ------------------------------------------------------------------------------------------
  // W beats of the store burst in progress
  // ------------------------------------------------------------------------------------------
  // the oldest burst's W beats go once its AW has been accepted: an AW still waiting (aw_valid_q)
  // is the newest burst's, so the oldest one's is out unless it is the only one
  logic [3:0]  w_beat;
  logic        w_hs, w_last, w_go;
  assign w_go = (w_num_q != '0) && !(aw_valid_q && w_num_q == (WBW + 1)'(1));
  always_comb begin
    logic [7:0]  st;
    logic [63:0] d;
    w_beat     = w_first_q[w_hd_q] + w_cnt_q;
    m_req_o.w.data  = '0;
    m_req_o.w.strb  = '0;
    st         = '0;
    d          = '0;
    if (w_go) begin
      for (int l = 0; l < NL; l++) begin
        if (w_lanes_q[w_hd_q][l] && w_off_q[w_hd_q][l][6:3] == w_beat) begin
          st = store_strb(w_off_q[w_hd_q][l][2:0], w_size_q[w_hd_q]);
          d  = {32'h0, w_data_q[w_hd_q][l]} << {w_off_q[w_hd_q][l][2:0], 3'b000};
          for (int b = 0; b < 8; b++) if (st[b]) m_req_o.w.data[8 * b +: 8] = d[8 * b +: 8];
          m_req_o.w.strb = m_req_o.w.strb | st;
        end
      end
    end
  end
  assign m_req_o.w_valid = w_go;
  assign w_last     = (w_cnt_q == w_len_q[w_hd_q]);
  assign m_req_o.w.last  = w_last;
  assign w_hs       = m_req_o.w_valid && m_rsp_i.w_ready;

  always_comb begin
    logic [NL-1:0] rem_nx;
    rem_nx = rem_q;
    if (do_loc) rem_nx = rem_nx & ~loc_pend;
    if (do_shr) rem_nx = rem_nx & ~shr_srv;
    if (g_ar || g_aw) rem_nx = rem_nx & ~g_lanes;
    finish = cur_v_q && (rem_nx == '0) && !aq_busy_q && !g_aq;
  end

  assign m_req_o.ar_valid = ar_valid_q;
  assign m_req_o.ar.addr  = ar_addr_q;
  assign m_req_o.ar.len   = ar_len_q;
  assign m_req_o.aw_valid = aw_valid_q;
  assign m_req_o.aw.addr  = aw_addr_q;
  assign m_req_o.aw.len   = aw_len_q;

  // the burst whose AW is out is the newest one in the store buffer
  logic [WBW-1:0] w_nw;
  assign w_nw = w_tl_q - WBW'(1);
  always_comb begin
    st_valid_o = aw_valid_q && m_rsp_i.aw_ready;
    st_addr_o  = {w_seg_q[w_nw], 7'b0};
    st_wmask_o = '0;
    for (int l = 0; l < NL; l++) if (w_lanes_q[w_nw][l]) st_wmask_o[w_off_q[w_nw][l][6:2]] = 1'b1;
  end

  // ------------------------------------------------------------------------------------------
  // Return side
  // ------------------------------------------------------------------------------------------
  // An R beat goes to the head entry; in the cycle the head completes, to the next entry if that
  // one has issued a burst (beats come back in AR order, and every AR of the next entry follows
  // every AR of the head), so back-to-back loads stream one beat per cycle.  Else (the next
  // entry issued nothing yet: it may be a local / shared / atomic one that takes no beat) the
  // beat waits one cycle.
  logic          head_done, r_hs, b_hs, r_next;
  logic [QW-1:0] nx, r_ent;
  logic [SEQW-1:0] r_k;
  assign nx         = hd_q + QW'(1);
  assign head_done  = q_valid_q[hd_q] && q_closed_q[hd_q] && (rk_q == q_total_q[hd_q]);
  assign r_next     = head_done && q_valid_q[nx] && (q_total_q[nx] != '0);
  assign m_req_o.r_ready = !head_done || r_next;
  assign r_hs       = m_rsp_i.r_valid && m_req_o.r_ready;
  assign r_ent      = head_done ? nx : hd_q;       // the entry this cycle's beat belongs to
  assign r_k        = head_done ? '0 : rk_q;       // and its sequence number in that entry
  assign m_req_o.b_ready = 1'b1;
  assign b_hs       = m_rsp_i.b_valid;

  assign wb_valid_o = head_done;
  assign wb_warp_o  = q_warp_q[hd_q];
  assign wb_rd_o    = q_rd_q[hd_q];
  assign wb_load_o  = q_ld_q[hd_q];
  assign wb_mask_o  = q_mask_q[hd_q];
  assign wb_data_o  = q_data_q[hd_q];

  assign sdone_valid_o = finish && (cur_kind_q == LK_STORE);
  assign sdone_warp_o  = cur_warp_q;

  // Faults: load entry with an error > atomic error > store B error (one per cycle; the others
  // are lost, which is fine: the task is being killed)
  always_comb begin
    flt_valid_o = 1'b0;
    flt_cause_o = SIMT_FAULT_NONE;
    flt_warp_o  = q_warp_q[hd_q];
    flt_lane_o  = 8'(q_elane_q[hd_q]);
    flt_pc_o    = q_pc_q[hd_q];
    flt_addr_o  = q_eaddr_q[hd_q];
    if (head_done && q_err_q[hd_q]) begin
      flt_valid_o = 1'b1;
      flt_cause_o = SIMT_FAULT_LOAD_BUS_ERROR;
    end else if (as_valid_i && as_err_i) begin
      flt_valid_o = 1'b1;
      flt_cause_o = (cur_f5_q == AMO_LR) ? SIMT_FAULT_LOAD_BUS_ERROR : SIMT_FAULT_STORE_BUS_ERROR;
      flt_warp_o  = cur_warp_q;
      flt_lane_o  = 8'(aq_lane_q);
      flt_pc_o    = cur_pc_q;
      flt_addr_o  = cur_taddr_q[aq_lane_q];
    end else if (b_hs && m_rsp_i.b_resp[1]) begin
      flt_valid_o = 1'b1;
      flt_cause_o = SIMT_FAULT_STORE_BUS_ERROR;
      flt_warp_o  = sq_warp_q[sq_hd_q];
      flt_lane_o  = 8'(sq_lane_q[sq_hd_q]);
      flt_pc_o    = sq_pc_q[sq_hd_q];
      flt_addr_o  = sq_addr_q[sq_hd_q];
    end
  end

  assign beats_o = (m_req_o.ar_valid && m_rsp_i.ar_ready ? 5'(m_req_o.ar.len) + 5'd1 : 5'd0) + 5'(w_hs);

  // ------------------------------------------------------------------------------------------
  // Atomic requests
  // ------------------------------------------------------------------------------------------
  logic [LW-1:0] aq_l0;
  logic [NL-1:0] aq_grp, aq_rel;
  assign aq_l0 = lowest(glb_pend);
  always_comb begin
    aq_grp = '0;
    aq_grp[aq_l0] = 1'b1;
    if (cur_f5_q == AMO_LR) begin
      for (int l = 0; l < NL; l++) begin
        if (glb_pend[l] && cur_addr_q[l][AW-1:2] == cur_addr_q[aq_l0][AW-1:2]) aq_grp[l] = 1'b1;
      end
    end
  end
  always_comb begin
    aq_valid_o  = aq_valid_q;
    aq_op_o     = SEM_AOP_RMW;
    aq_red_o    = amo_red(cur_f5_q);
    aq_signed_o = amo_signed(cur_f5_q);
    aq_size_o   = SEM_ASIZE_4;
    aq_addr_o   = cur_addr_q[aq_lane_q];
    // LR: the other lanes' reservations, as offsets from the lowest lane's tag
    aq_rel      = aq_grp_q >> aq_lane_q;
    aq_wdata_o  = (cur_f5_q == AMO_LR) ? 64'(aq_rel) : {32'h0, cur_wdata_q[aq_lane_q]};
    unique case (cur_f5_q)
      AMO_LR:   aq_xop_o = SEM_XOP_LR;
      AMO_SC:   aq_xop_o = SEM_XOP_SC;
      AMO_SWAP: aq_xop_o = SEM_XOP_SWAP;
      default:  aq_xop_o = SEM_XOP_NONE;
    endcase
    aq_rtag_o = RTW'(TAG_BASE + 32'(cur_warp_q) * NL + 32'(aq_lane_q));
  end

  // ------------------------------------------------------------------------------------------
  // Sequential: issue side, queue, stores
  // ------------------------------------------------------------------------------------------
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cur_v_q     <= 1'b0;
      cur_warp_q  <= '0;
      cur_kind_q  <= LK_LOAD;
      cur_f3_q    <= '0;
      cur_f5_q    <= '0;
      cur_pc_q    <= '0;
      cur_mask_q  <= '0;
      rem_q       <= '0;
      cur_space_q <= '0;
      cur_addr_q  <= '0;
      cur_taddr_q <= '0;
      cur_wdata_q <= '0;
      cur_q_q     <= '0;
      cur_beats_q <= '0;
      w_hd_q      <= '0;
      w_tl_q      <= '0;
      w_num_q     <= '0;
      w_cnt_q     <= '0;
      ar_valid_q  <= 1'b0;
      aw_valid_q  <= 1'b0;
      ar_addr_q   <= '0;
      aw_addr_q   <= '0;
      ar_len_q    <= '0;
      aw_len_q    <= '0;
      aq_valid_q  <= 1'b0;
      aq_busy_q   <= 1'b0;
      aq_lane_q   <= '0;
      aq_grp_q    <= '0;
      q_valid_q   <= '0;
      q_closed_q  <= '0;
      q_err_q     <= '0;
      hd_q        <= '0;
      tl_q        <= '0;
      qcnt_q      <= '0;
      rk_q        <= '0;
      sq_hd_q     <= '0;
      sq_tl_q     <= '0;
      sq_cnt_q    <= '0;
      rb_q        <= '0;
      for (int w = 0; w < NW; w++) st_cnt_q[w] <= '0;
    end else begin
      logic [QW:0]  qc;
      logic [SQW:0] sc;
      qc = qcnt_q;
      sc = sq_cnt_q;

      // ---- done with the instruction (a new one may come in this cycle: the accept is below)
      if (finish) begin
        cur_v_q <= 1'b0;
        if (cur_kind_q != LK_STORE) q_closed_q[cur_q_q] <= 1'b1;
      end

      // ---- local lanes: all at once
      if (do_loc) rem_q <= rem_q & ~loc_pend;
      // ---- shared lanes
      if (do_shr) rem_q <= rem_q & ~shr_srv;

      // ---- global loads: one burst per cycle
      if (g_ar) begin
        ar_valid_q  <= 1'b1;
        ar_addr_q   <= {g_seg, g_first, 3'b000};
        ar_len_q    <= 8'(g_len);
        cur_beats_q <= cur_beats_q + SEQW'(g_len) + SEQW'(1);
        rem_q       <= rem_q & ~g_lanes;
        q_total_q[cur_q_q] <= cur_beats_q + SEQW'(g_len) + SEQW'(1);
        for (int l = 0; l < NL; l++) begin
          if (g_lanes[l]) begin
            logic [3:0] bo;
            bo = cur_addr_q[l][6:3] - g_first;
            q_seq_q[cur_q_q][l] <= cur_beats_q + SEQW'(bo);
            q_off_q[cur_q_q][l] <= cur_addr_q[l][2:0];
          end
        end
        q_gm_q[cur_q_q] <= q_gm_q[cur_q_q] | g_lanes;
        if (q_gm_q[cur_q_q] == '0 || g_seg < q_slo_q[cur_q_q]) q_slo_q[cur_q_q] <= g_seg;
        if (q_gm_q[cur_q_q] == '0 || g_seg > q_shi_q[cur_q_q]) q_shi_q[cur_q_q] <= g_seg;
      end else if (m_rsp_i.ar_ready) begin
        ar_valid_q <= 1'b0;
      end

      // ---- global stores: AW, then the W beats
      if (g_aw) begin
        aw_valid_q <= 1'b1;
        aw_addr_q  <= {g_seg, g_first, 3'b000};
        aw_len_q   <= 8'(g_len);
        w_tl_q     <= w_tl_q + WBW'(1);
        rem_q      <= rem_q & ~g_lanes;
        sq_warp_q[sq_tl_q] <= cur_warp_q;
        sq_pc_q[sq_tl_q]   <= cur_pc_q;
        sq_lane_q[sq_tl_q] <= g_l0;
        sq_addr_q[sq_tl_q] <= cur_taddr_q[g_l0];
        sq_seg_q[sq_tl_q]  <= g_seg;
        sq_tl_q            <= sq_tl_q + SQW'(1);
        sc = sc + (SQW + 1)'(1);
      end else if (m_rsp_i.aw_ready) begin
        aw_valid_q <= 1'b0;
      end
      if (w_hs) begin
        w_cnt_q <= w_last ? 4'd0 : w_cnt_q + 4'd1;
        if (w_last) w_hd_q <= w_hd_q + WBW'(1);
      end
      w_num_q <= w_num_q + (WBW + 1)'(g_aw) - (WBW + 1)'(w_hs && w_last);
      rb_q    <= rb_q + RBW'(g_ar) - RBW'(r_hs && m_rsp_i.r.last);

      // ---- atomics: one lane at a time
      if (g_aq) begin
        aq_valid_q <= 1'b1;
        aq_busy_q  <= 1'b1;
        aq_lane_q  <= aq_l0;
        aq_grp_q   <= aq_grp;
        rem_q      <= rem_q & ~aq_grp;
      end
      if (aq_valid_q && aq_ready_i) aq_valid_q <= 1'b0;
      if (as_valid_i) aq_busy_q <= 1'b0;   // an error is reported at once (flt_*)

      // ---- accept (after the issue side: a new instruction may come in the cycle the last one
      // finishes, its cur_* / rem_q / cur_beats_q win)
      if (req_valid_i && req_ready_o) begin
        cur_v_q     <= 1'b1;
        cur_warp_q  <= req_warp_i;
        cur_kind_q  <= req_kind_i;
        cur_f3_q    <= req_f3_i;
        cur_f5_q    <= req_f5_i;
        cur_pc_q    <= req_pc_i;
        cur_mask_q  <= req_mask_i;
        rem_q       <= req_mask_i;
        cur_space_q <= req_space_i;
        cur_addr_q  <= req_addr_i;
        cur_taddr_q <= req_taddr_i;
        cur_wdata_q <= req_wdata_i;
        cur_beats_q <= '0;
        if (req_kind_i != LK_STORE) begin
          cur_q_q           <= tl_q;
          tl_q              <= tl_q + QW'(1);
          qc                = qc + (QW + 1)'(1);
          q_valid_q[tl_q]   <= 1'b1;
          q_closed_q[tl_q]  <= 1'b0;
          q_err_q[tl_q]     <= 1'b0;
          q_warp_q[tl_q]    <= req_warp_i;
          q_rd_q[tl_q]      <= req_rd_i;
          q_ld_q[tl_q]      <= (req_kind_i == LK_LOAD);
          q_f3_q[tl_q]      <= (req_kind_i == LK_AMO) ? F3_W : req_f3_i;
          q_pc_q[tl_q]      <= req_pc_i;
          q_mask_q[tl_q]    <= req_mask_i;
          q_gm_q[tl_q]      <= '0;
          q_total_q[tl_q]   <= '0;
          q_taddr_q[tl_q]   <= req_taddr_i;
        end
      end

      // ---- return side: R beats into the head entry (or the next one, r_ent), completion
      if (r_hs) begin
        rk_q <= r_k + SEQW'(1);
        if (m_rsp_i.r.resp[1] && !q_err_q[r_ent]) begin
          logic [LW-1:0] el;
          logic          found;
          el    = '0;
          found = 1'b0;
          for (int l = 0; l < NL; l++) begin
            if (!found && q_gm_q[r_ent][l] && q_seq_q[r_ent][l] == r_k) begin
              el    = LW'(l);
              found = 1'b1;
            end
          end
          q_err_q[r_ent]   <= 1'b1;
          q_elane_q[r_ent] <= el;
          q_eaddr_q[r_ent] <= q_taddr_q[r_ent][el];
        end
      end else if (head_done) begin
        rk_q <= '0;
      end
      if (head_done) begin
        q_valid_q[hd_q] <= 1'b0;
        hd_q            <= nx;
        qc              = qc - (QW + 1)'(1);
      end
      qcnt_q <= qc;

      // ---- store B responses
      if (b_hs) begin
        sq_hd_q <= sq_hd_q + SQW'(1);
        sc = sc - (SQW + 1)'(1);
      end
      sq_cnt_q <= sc;
      for (int w = 0; w < NW; w++) begin
        logic [SQW:0] c;
        c = st_cnt_q[w];
        if (g_aw && 32'(cur_warp_q) == w)        c = c + (SQW + 1)'(1);
        if (b_hs && 32'(sq_warp_q[sq_hd_q]) == w) c = c - (SQW + 1)'(1);
        st_cnt_q[w] <= c;
      end
    end
  end

  // Lane l's access to its local or shared memory word `old` (the current request): what the lane
  // gets back (a load's value, an AMO's old word) and the word left in memory (a store's bytes
  // merged in, an AMO's result).
  function automatic logic [31:0] lsm_result(input int l, input logic [31:0] old);
    if (cur_kind_q == LK_AMO) return old;
    return load_extract({32'h0, old}, {1'b0, cur_addr_q[l][1:0]}, cur_f3_q);
  endfunction
  function automatic logic [31:0] lsm_written(input int l, input logic [31:0] old);
    logic [31:0] nv, w;
    logic [3:0]  be;
    nv = (cur_kind_q == LK_AMO) ? amo_compute(cur_f5_q, old, cur_wdata_q[l])
                                : cur_wdata_q[l] << {cur_addr_q[l][1:0], 3'b000};
    be = (cur_kind_q == LK_AMO) ? 4'hF : word_strb(cur_addr_q[l][1:0], cur_f3_q[1:0]);
    w  = old;
    for (int b = 0; b < 4; b++) if (be[b]) w[8 * b +: 8] = nv[8 * b +: 8];
    return w;
  endfunction

  // ------------------------------------------------------------------------------------------
  // Local and shared memory (no reset: the program's, undefined until written) and the data of
  // every lane into the return-queue entries (local / shared / atomic lanes into the issuing
  // entry, R beats into the head entry)
  // ------------------------------------------------------------------------------------------
  always_ff @(posedge clk_i or negedge rst_ni) begin  // rtl/README.md, "One trigger per clock"
    if (rst_ni) begin
      if (g_aw) begin
        w_lanes_q[w_tl_q] <= g_lanes;
        w_size_q[w_tl_q]  <= cur_f3_q[1:0];
        w_data_q[w_tl_q]  <= cur_wdata_q;
        for (int l = 0; l < NL; l++) w_off_q[w_tl_q][l] <= cur_addr_q[l][6:0];
        w_first_q[w_tl_q] <= g_first;
        w_len_q[w_tl_q]   <= g_len;
        w_seg_q[w_tl_q]   <= g_seg;
      end
      if (as_valid_i) begin
        for (int l = 0; l < NL; l++) if (aq_grp_q[l]) q_data_q[cur_q_q][l] <= as_rdata_i[31:0];
      end
      if (r_hs) begin
        for (int l = 0; l < NL; l++) begin
          if (q_gm_q[r_ent][l] && q_seq_q[r_ent][l] == r_k) begin
            q_data_q[r_ent][l] <= load_extract(m_rsp_i.r.data, q_off_q[r_ent][l], q_f3_q[r_ent]);
          end
        end
      end
      if (do_loc) begin
        for (int l = 0; l < NL; l++) begin
          if (loc_pend[l]) begin
            logic [WW+LMA-1:0] idx;
            idx = {cur_warp_q, cur_addr_q[l][LMA+1:2]};
            if (cur_kind_q != LK_STORE) q_data_q[cur_q_q][l] <= lsm_result(l, lmem_q[l][idx]);
            if (cur_kind_q != LK_LOAD)  lmem_q[l][idx] <= lsm_written(l, lmem_q[l][idx]);
          end
        end
      end
      if (do_shr) begin
        for (int l = 0; l < NL; l++) begin
          if (shr_srv[l]) begin
            logic [SMA-1:0] wi;
            wi = cur_addr_q[l][SMA+1:2];
            if (cur_kind_q != LK_STORE) q_data_q[cur_q_q][l] <= lsm_result(l, smem_q[wi]);
            if (cur_kind_q != LK_LOAD)  smem_q[wi] <= lsm_written(l, smem_q[wi]);
          end
        end
      end
    end
  end

  logic unused_lsu;
  assign unused_lsu = ^{m_rsp_i.r.resp[0], m_rsp_i.b_resp[0], as_rdata_i[63:32],
                        cur_mask_q};

endmodule
