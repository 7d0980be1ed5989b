// gc_atomic_unit: the one place where semaphore memory is read and written (rtl/README.md,
// "Atomic unit").  N requesters (PBDMAs, copy-engine completion releases, later SIMT atomics)
// share it; it is one client of gc_mem_xbar.
//
// ================================================================================ design notes
//
// Requests (packed arrays indexed by requester, encodings in gc_sem_pkg):
//   aq_op_i    SEM_AOP_READ   read 4 or 8 bytes; as_rdata_o = the value (4 bytes zero-extended)
//              SEM_AOP_WRITE  write 4 or 8 bytes of aq_wdata_i, or 16 bytes: the value at +0 and
//                             timestamp_i at +8 (sampled when the write is issued, i.e. in the
//                             cycle the AW is accepted)
//              SEM_AOP_RMW    read, new = sem_reduce(aq_red_i, aq_signed_i, 8-byte value, old,
//                             aq_wdata_i), write new (16 bytes: new, then the stamp, as a WRITE);
//                             as_rdata_o = old (a 4-byte value zero-extended)
//   aq_size_i  SEM_ASIZE_4 / _8: a 4- or 8-byte value.  SEM_ASIZE_16 / _16W: 16 bytes (NVIDIA's
//              semaphore with timestamp): an 8-byte value (16), or a 4-byte value followed by
//              aq_wdata_i[63:32] (16W; the PBDMA sends 0 there, a copy engine the copy's start
//              stamp), at +0, the 64-bit stamp at +8; a READ of size 16 reads the 8-byte
//              value, of 16W the 4-byte one.  The address is aligned to the size (the requester
//              checks).
//   An op code outside the three above is answered at once with as_err_o and no memory access.
//   aq_xop_i   extended operations for the SIMT core's "A" extension (SEM_XOP_NONE for everyone
//              else): SEM_XOP_LR is a READ that also sets reservation aq_rtag_i on the 4-byte
//              word, and reservation aq_rtag_i + k for every bit k (0 < k < min(NRES, 64)) set in
//              aq_wdata_i (unused by a read otherwise): the SIMT load/store unit reads once for all lanes of a warp's LR
//              on the same word (tags of one warp's lanes are consecutive), as if their LRs had
//              run back to back; SEM_XOP_SC is a 4-byte WRITE made only if reservation aq_rtag_i still holds
//              that word: as_rdata_o = 0 when it was written, 1 (at once, no memory access) when
//              not; either way the reservation is dropped.  SEM_XOP_SWAP is an RMW whose new value
//              is aq_wdata_i.  Every write that lands (WRITE, RMW, SC; B response OKAY) drops the
//              reservations of every tag on the 4-byte words it writes (the one word of a 4-byte
//              write, both of an 8-byte one, four for a 16-byte write: exactly its byte strobes),
//              so an SC fails when anyone wrote its word through the unit after the LR; a write
//              to the other half of the 8-byte beat leaves it (RISC-V's reservation set is the
//              word here, as for the plain stores below and in the ref model).
//              NRES reservations, one per tag (gpu_top: one per SIMT thread).
//   st_*_i     plain stores that do not go through the unit (NST ports, one per SM load/store
//              unit): st_valid_i pulses when a store burst's AW is accepted by the crossbar, with
//              its 128-byte segment (st_addr_i, low 7 bits ignored) and the 4-byte words of that
//              segment it writes (st_wmask_i bit k = word k).  It drops the reservations of every
//              tag on those words at once.  An LR in flight (granted, read beat not yet back) on
//              such a word does not set its reservation (its read and the store are unordered),
//              and an SC granted but whose AW is not yet accepted fails (as_rdata_o = 1, nothing
//              written: the store is ahead of it in the crossbar's write order).  Its AW stays up
//              until accepted (AXI: a valid is never withdrawn) and its W beat carries no byte
//              strobe; the answer comes with the B response, with no reservation broken (the
//              crossbar's snoop reports the burst with no strobe set: nothing was written).
//
// Serialization.  The unit serves one request at a time, from grant to response:
//   IDLE --grant--> AR --> R --(RMW, read OKAY)--> AW --> W --> B --> IDLE
//                             \--(READ, or read error)------------> IDLE
//        --grant (WRITE)-----------------------> AW --> W --> B --> IDLE
// A plain WRITE (no extended operation) presents its AW in the grant cycle already, with the
// request's address and size from the aq_* inputs (accepted then: straight to W; otherwise AW
// holds the latched copy, unchanged, until accepted), so a release's write leaves one cycle after
// its requester raised it.  An SC keeps the AW state: its reservation check and the plain-store
// abandon rule need the latched request.
// No other request is granted before the B response (writes, RMW) or the R beat (reads) came
// back, so an RMW's read and write are atomic with respect to every access made through the
// unit, and a write has landed in memory before anyone can read the location again.
// An RMW whose read fails (RRESP SLVERR/DECERR) does not write.
//
// Arbitration: round robin over aq_valid_i, the last granted requester has the lowest
// priority.  aq_ready_o is the grant: at most one bit, only in IDLE, only to a valid requester;
// the request is latched in that cycle.
//
// Memory port: every access is one 8-byte aligned beat (awlen/arlen 0) except the 16-byte
// write (a 2-beat INCR burst at the 16-aligned address, which cannot cross 4 KiB).  A 4-byte
// access uses half addr[2] of the beat: the read picks that half, the write puts the data there
// (the other half 0) with wstrb 8'hF0 or 8'h0F.  W is raised only after the AW was accepted.
//
// Responses are registered: as_valid_o[i] pulses one cycle after the R beat / B response, with
// as_rdata_o and as_err_o (RRESP/BRESP SLVERR or DECERR).  In the same cycle gc_mem_xbar's write
// snoop reports a landed write (its first beat: the 8-byte word at the address; of a 16-byte
// write, the value's beat), which wakes the acquires waiting on that word (rtl/README.md, "Write
// snoop").  The grant of the next request can happen in that cycle.
module gc_atomic_unit
  import gpucosim_pkg::*;
  import gc_axi_pkg::*;
  import gc_sem_pkg::*;
#(
  parameter int unsigned N    = 4,
  parameter int unsigned NRES = 1,   // LR/SC reservations (tags)
  parameter int unsigned NST  = 1,   // plain-store report ports
  localparam int unsigned RTW = (NRES > 1) ? $clog2(NRES) : 1
) (
  input  logic                                  clk_i,
  input  logic                                  rst_ni,

  // ---- requests ----
  input  logic [N-1:0]                          aq_valid_i,
  output logic [N-1:0]                          aq_ready_o,
  input  logic [N-1:0][1:0]                     aq_op_i,
  input  logic [N-1:0][GC_HOST_SEM_EXECUTE_REDUCTION_W-1:0] aq_red_i,
  input  logic [N-1:0]                          aq_signed_i,
  input  logic [N-1:0][1:0]                     aq_size_i,
  input  logic [N-1:0][GC_AXI_ADDR_W-1:0]       aq_addr_i,
  input  logic [N-1:0][63:0]                    aq_wdata_i,
  input  logic [N-1:0][1:0]                     aq_xop_i,
  input  logic [N-1:0][RTW-1:0]                 aq_rtag_i,

  // ---- responses ----
  output logic [N-1:0]                          as_valid_o,
  output logic [63:0]                           as_rdata_o,
  output logic                                  as_err_o,

  input  logic [63:0]                           timestamp_i,

  // ---- plain stores (reservation breaks) ----
  input  logic [NST-1:0]                        st_valid_i,
  input  logic [NST-1:0][GC_AXI_ADDR_W-1:0]     st_addr_i,
  input  logic [NST-1:0][31:0]                  st_wmask_i,

  // ---- client memory port (to gc_mem_xbar) ----
  output cli_req_t                              m_req_o,   // client memory port (rtl/README.md)
  input  cli_rsp_t                              m_rsp_i
);

  localparam int unsigned AW = GC_AXI_ADDR_W;
  localparam int unsigned DB = GC_AXI_DATA_W / 8;              // bytes per beat (8)
  localparam int unsigned LW = $clog2(DB);                     // byte-in-beat address bits (3)
  localparam int unsigned IW = (N > 1) ? $clog2(N) : 1;        // requester index width

  if (N < 1) begin : g_bad_n
    $error("gc_atomic_unit: N must be >= 1");
  end
  if (GC_AXI_DATA_W != 64) begin : g_bad_data_w
    $error("gc_atomic_unit: written for a 64-bit memory bus (one semaphore word per beat)");
  end

  typedef enum logic [2:0] {
    ATOM_IDLE = 3'd0,   // waiting for a request
    ATOM_AR   = 3'd1,   // read address out
    ATOM_R    = 3'd2,   // waiting for the read beat
    ATOM_AW   = 3'd3,   // write address out
    ATOM_W    = 3'd4,   // write beat(s) out
    ATOM_B    = 3'd5    // waiting for the write response
  } atom_state_e;

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

  // ------------------------------------------------------------------ state
  atom_state_e       state_q, state_d;
  logic [IW-1:0]     rr_last_q;          // last granted requester
  logic [IW-1:0]     idx_q;              // requester being served
  logic [1:0]        op_q, size_q;
  logic [GC_HOST_SEM_EXECUTE_REDUCTION_W-1:0] red_q;
  logic              signed_q;
  logic [AW-1:0]     addr_q;
  logic [63:0]       wdata_q;            // WRITE data / RMW operand
  logic [63:0]       old_q;              // the read beat (RMW)
  logic [63:0]       ts_q;               // timestamp for the 16-byte write
  logic              beat_q;             // W beat index (16-byte write)
  logic [1:0]        xop_q;
  logic [RTW-1:0]    rtag_q;

  // LR/SC reservations: valid + 4-byte word address, per tag
  logic [NRES-1:0]   res_v_q;
  logic [AW-1:2]     res_a_q [NRES];
  logic              lr_kill_q;          // a plain store hit the word of the LR in flight
  logic              sc_dead_q;          // the SC in flight was overtaken by a plain store

  // The reservations an LR sets: its tag and tag + k for every bit k of its data (tags wrap at NRES)
  localparam int unsigned LRK = (NRES < 64) ? NRES : 64;
  logic [NRES-1:0] lr_tags;
  always_comb begin
    lr_tags = '0;
    lr_tags[32'(rtag_q) % NRES] = 1'b1;
    for (int k = 1; k < LRK; k++) if (wdata_q[k]) lr_tags[(32'(rtag_q) + k) % NRES] = 1'b1;
  end

  // Does a plain store reported this cycle write the 4-byte word at a?
  function automatic logic st_hit(input logic [NST-1:0] v, input logic [NST-1:0][AW-1:0] sa,
                                  input logic [NST-1:0][31:0] wm, input logic [AW-1:2] a);
    logic h;
    h = 1'b0;
    for (int i = 0; i < NST; i++) begin
      if (v[i] && sa[i][AW-1:7] == a[AW-1:7] && wm[i][a[6:2]]) h = 1'b1;
    end
    return h;
  endfunction

  // registered responses
  logic [N-1:0]      as_valid_q;
  logic [63:0]       as_rdata_q;
  logic              as_err_q;

  // ------------------------------------------------------------------ grant
  logic              gnt_any;
  logic [IW-1:0]     gnt_idx;

  always_comb begin
    gnt_any    = (state_q == ATOM_IDLE) && (aq_valid_i != '0);
    gnt_idx    = rr_pick(aq_valid_i, rr_last_q);
    aq_ready_o = '0;
    aq_ready_o[gnt_idx] = gnt_any;
  end

  // a 16-byte access: the value and the stamp (SEM_ASIZE_16 / _16W)
  function automatic logic size16(input logic [1:0] size);
    return (size == SEM_ASIZE_16) || (size == SEM_ASIZE_16W);
  endfunction

  // ------------------------------------------------------------------ data path
  logic              half, is4, is16, is64;   // 4-byte value / 16-byte write / 8-byte value
  logic [63:0]       rd_val, old_val, new_val, w_val;

  always_comb begin
    half    = addr_q[2];                         // which half of the beat a 4-byte access uses
    is64    = (size_q == SEM_ASIZE_8) || (size_q == SEM_ASIZE_16);
    is4     = !is64;                             // SEM_ASIZE_4 or SEM_ASIZE_16W
    is16    = size16(size_q) && (op_q != SEM_AOP_READ);
    old_val = is4 ? {32'h0, (half ? old_q[63:32] : old_q[31:0])} : old_q;
    new_val = sem_reduce(red_q, signed_q, is64, old_val, wdata_q);
    w_val   = (op_q != SEM_AOP_RMW) ? wdata_q :
              (xop_q == SEM_XOP_SWAP) ? wdata_q : new_val;
  end
  // the value of the read beat as the request sees it (4 bytes zero-extended); apart from the
  // block above, which feeds the write data: the response reaches no request combinationally
  assign rd_val = is4 ? {32'h0, (half ? m_rsp_i.r.data[63:32] : m_rsp_i.r.data[31:0])} : m_rsp_i.r.data;

  // ------------------------------------------------------------------ memory port
  assign m_req_o.ar_valid = (state_q == ATOM_AR);
  assign m_req_o.ar.addr  = {addr_q[AW-1:LW], LW'(0)};
  assign m_req_o.ar.len   = 8'd0;
  assign m_req_o.r_ready  = (state_q == ATOM_R);

  // A plain WRITE's AW goes out in its grant cycle (gnt_aw), with the request's own address and
  // size; from the next cycle on (ATOM_AW, not yet accepted) the latched ones, unchanged.
  logic gnt_aw;
  assign m_req_o.aw_valid = (state_q == ATOM_AW) || gnt_aw;
  assign m_req_o.aw.addr  = gnt_aw ? {aq_addr_i[gnt_idx][AW-1:LW], LW'(0)} : {addr_q[AW-1:LW], LW'(0)};
  assign m_req_o.aw.len   = (gnt_aw ? size16(aq_size_i[gnt_idx]) : is16) ? 8'd1 : 8'd0;

  always_comb begin
    m_req_o.w_valid = (state_q == ATOM_W);
    m_req_o.w.last  = !is16 || beat_q;
    if (beat_q) begin
      m_req_o.w.data = ts_q;                          // second beat of the 16-byte write
      m_req_o.w.strb = '1;
    end else if (is16) begin                     // first beat: the value (16W: then wdata[63:32])
      m_req_o.w.data = is4 ? {wdata_q[63:32], w_val[31:0]} : w_val;
      m_req_o.w.strb = '1;
    end else if (is4) begin
      m_req_o.w.data = half ? {w_val[31:0], 32'h0} : {32'h0, w_val[31:0]};
      m_req_o.w.strb = sc_dead_q ? 8'h00 : half ? 8'hF0 : 8'h0F;
    end else begin
      m_req_o.w.data = w_val;
      m_req_o.w.strb = '1;
    end
  end

  assign m_req_o.b_ready = (state_q == ATOM_B);

  logic ar_hs, r_hs, aw_hs, w_hs, b_hs, r_err, b_err, bad_op;
  assign ar_hs  = m_req_o.ar_valid && m_rsp_i.ar_ready;
  assign r_hs   = m_rsp_i.r_valid && m_req_o.r_ready;
  assign aw_hs  = m_req_o.aw_valid && m_rsp_i.aw_ready;
  assign w_hs   = m_req_o.w_valid && m_rsp_i.w_ready;
  assign b_hs   = m_rsp_i.b_valid && m_req_o.b_ready;
  assign r_err  = m_rsp_i.r.resp[1];                  // SLVERR (2) or DECERR (3)
  assign b_err  = m_rsp_i.b_resp[1];
  // The request's operation: aq_op_i, or the one an extended operation implies
  logic [1:0] gnt_op;
  logic       gnt_xop, sc_fail;
  always_comb begin
    gnt_xop = (aq_xop_i[gnt_idx] != SEM_XOP_NONE);
    unique case (aq_xop_i[gnt_idx])
      SEM_XOP_LR:   gnt_op = SEM_AOP_READ;
      SEM_XOP_SC:   gnt_op = SEM_AOP_WRITE;
      SEM_XOP_SWAP: gnt_op = SEM_AOP_RMW;
      default:      gnt_op = aq_op_i[gnt_idx];
    endcase
    // an SC whose reservation is gone is answered at once
    sc_fail = (aq_xop_i[gnt_idx] == SEM_XOP_SC) &&
              !(res_v_q[32'(aq_rtag_i[gnt_idx]) % NRES] &&
                res_a_q[32'(aq_rtag_i[gnt_idx]) % NRES] == aq_addr_i[gnt_idx][AW-1:2] &&
                !st_hit(st_valid_i, st_addr_i, st_wmask_i, aq_addr_i[gnt_idx][AW-1:2]));
  end
  // plain stores on the word of the request in flight; an SC not yet issued is abandoned (its
  // AW still goes out, with a W beat that writes nothing)
  logic cur_hit, sc_abort;
  assign cur_hit  = st_hit(st_valid_i, st_addr_i, st_wmask_i, addr_q[AW-1:2]);
  assign sc_abort = (state_q == ATOM_AW) && (xop_q == SEM_XOP_SC) && cur_hit && !aw_hs;
  assign bad_op = !gnt_xop && (gnt_op != SEM_AOP_READ) && (gnt_op != SEM_AOP_WRITE) &&
                  (gnt_op != SEM_AOP_RMW);
  assign gnt_aw = gnt_any && !gnt_xop && (gnt_op == SEM_AOP_WRITE);

  // ------------------------------------------------------------------ control
  always_comb begin
    state_d = state_q;
    unique case (state_q)
      ATOM_IDLE: if (gnt_any && !bad_op && !sc_fail) begin
        state_d = (gnt_op != SEM_AOP_WRITE) ? ATOM_AR : aw_hs ? ATOM_W : ATOM_AW;
      end
      ATOM_AR:   if (ar_hs) state_d = ATOM_R;
      ATOM_R:    if (r_hs) state_d = (op_q == SEM_AOP_RMW && !r_err) ? ATOM_AW : ATOM_IDLE;
      ATOM_AW:   if (aw_hs) state_d = ATOM_W;
      ATOM_W:    if (w_hs && m_req_o.w.last) state_d = ATOM_B;
      ATOM_B:    if (b_hs) state_d = ATOM_IDLE;
      default:   state_d = ATOM_IDLE;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q       <= ATOM_IDLE;
      rr_last_q     <= IW'(N - 1);               // requester 0 first after reset
      idx_q         <= '0;
      op_q          <= SEM_AOP_READ;
      size_q        <= SEM_ASIZE_4;
      red_q         <= '0;
      signed_q      <= 1'b0;
      addr_q        <= '0;
      wdata_q       <= '0;
      old_q         <= '0;
      ts_q          <= '0;
      beat_q        <= 1'b0;
      xop_q         <= SEM_XOP_NONE;
      rtag_q        <= '0;
      res_v_q       <= '0;
      lr_kill_q     <= 1'b0;
      sc_dead_q     <= 1'b0;
      as_valid_q    <= '0;
      as_rdata_q    <= '0;
      as_err_q      <= 1'b0;
    end else begin
      state_q       <= state_d;
      as_valid_q    <= '0;

      // ---- grant: latch the request
      if (gnt_any) begin
        rr_last_q <= gnt_idx;
        idx_q     <= gnt_idx;
        op_q      <= gnt_op;
        xop_q     <= aq_xop_i[gnt_idx];
        rtag_q    <= aq_rtag_i[gnt_idx];
        red_q     <= aq_red_i[gnt_idx];
        signed_q  <= aq_signed_i[gnt_idx];
        size_q    <= aq_size_i[gnt_idx];
        addr_q    <= aq_addr_i[gnt_idx];
        wdata_q   <= aq_wdata_i[gnt_idx];
        beat_q    <= 1'b0;
        sc_dead_q <= 1'b0;
        lr_kill_q <= st_hit(st_valid_i, st_addr_i, st_wmask_i, aq_addr_i[gnt_idx][AW-1:2]);
        if (bad_op) begin                        // not a request the unit knows: refuse it
          as_valid_q[gnt_idx] <= 1'b1;
          as_rdata_q          <= '0;
          as_err_q            <= 1'b1;
        end else if (sc_fail) begin              // SC without its reservation: not written
          as_valid_q[gnt_idx] <= 1'b1;
          as_rdata_q          <= 64'd1;
          as_err_q            <= 1'b0;
        end
        if (aq_xop_i[gnt_idx] == SEM_XOP_SC) res_v_q[32'(aq_rtag_i[gnt_idx]) % NRES] <= 1'b0;
      end

      // ---- read beat: READ answers now; RMW keeps the old value (or answers a bus error)
      if (r_hs) begin
        old_q <= m_rsp_i.r.data;
        if (xop_q == SEM_XOP_LR && !r_err && !lr_kill_q && !cur_hit) begin
          for (int r = 0; r < NRES; r++) if (lr_tags[r]) res_v_q[r] <= 1'b1;
        end
        if (op_q != SEM_AOP_RMW || r_err) begin
          as_valid_q[idx_q] <= 1'b1;
          as_rdata_q        <= rd_val;
          as_err_q          <= r_err;
        end
      end

      if ((state_q == ATOM_AR || state_q == ATOM_R) && cur_hit) lr_kill_q <= 1'b1;

      // ---- SC abandoned (a plain store to its word got ahead of it): nothing will be written
      if (sc_abort) sc_dead_q <= 1'b1;

      // ---- write issued: sample the timestamp
      if (aw_hs) ts_q <= timestamp_i;
      if (w_hs)  beat_q <= 1'b1;

      // ---- write response: answer
      if (b_hs) begin
        as_valid_q[idx_q] <= 1'b1;
        as_rdata_q        <= (op_q == SEM_AOP_RMW) ? old_val : {63'h0, sc_dead_q};
        as_err_q          <= b_err && !sc_dead_q;
        // a landed write breaks the reservations on the 4-byte words it wrote
        for (int r = 0; r < NRES; r++) begin
          if (!b_err && !sc_dead_q && (is16 ? (res_a_q[r][AW-1:4] == addr_q[AW-1:4]) :
                                       is64 ? (res_a_q[r][AW-1:3] == addr_q[AW-1:3])
                                            : (res_a_q[r] == addr_q[AW-1:2]))) begin
            res_v_q[r] <= 1'b0;
          end
        end
      end

      // ---- plain stores break the reservations on the words they write (wins over an LR's set:
      //      lr_kill_q / cur_hit keep that one from being set)
      if (st_valid_i != '0) begin
        for (int r = 0; r < NRES; r++) begin
          if (st_hit(st_valid_i, st_addr_i, st_wmask_i, res_a_q[r]) &&
              !(r_hs && xop_q == SEM_XOP_LR && lr_tags[r])) begin
            res_v_q[r] <= 1'b0;
          end
        end
      end
    end
  end

  // Reservation addresses (no reset needed: read only while valid): the table an LR's read beat
  // leaves, from registers only; the R handshake, which follows the pins, only enables the flop.
  // (A table computed with r_hs in it would be evaluated at both of the harness's evaluations per
  // cycle: rtl/README.md, "Simulation cost of combinational paths from the pins".)
  logic [AW-1:2] res_a_lr [NRES];
  always_comb begin
    for (int r = 0; r < NRES; r++) res_a_lr[r] = lr_tags[r] ? addr_q[AW-1:2] : res_a_q[r];
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin  // rtl/README.md, "One trigger per clock"
    if (rst_ni) begin
      if (r_hs && xop_q == SEM_XOP_LR) res_a_q <= res_a_lr;
    end
  end

  assign as_valid_o    = as_valid_q;
  assign as_rdata_o    = as_rdata_q;
  assign as_err_o      = as_err_q;

  // rlast: every read is one beat; resp bit 0 only tells OKAY from EXOKAY (and SLVERR from
  // DECERR), both of which are treated alike.
  logic unused_ok;
  logic [NST-1:0][6:0] unused_st;
  always_comb for (int i = 0; i < NST; i++) unused_st[i] = st_addr_i[i][6:0];
  assign unused_ok = ^{m_rsp_i.r.last, m_rsp_i.r.resp[0], m_rsp_i.b_resp[0], unused_st,
                       addr_q[1:0]};   // 4-byte aligned (the requester checks)

endmodule
