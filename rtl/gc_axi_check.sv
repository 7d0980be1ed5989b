// gc_axi_check: AXI4 protocol checker (simulation only; all ports are inputs). Instantiated at
// gpu_top's memory master port and in the block-bench tops at each bench's AXI port. Built from
// the macros of gc_assert.svh: a violation stops the simulation with the instance, the rule, the
// signal and the cycle. Rules (AMBA AXI4, IHI 0022):
// - AR, AW, W, R, B: valid held until ready; the channel's payload stable while it waits;
// - AR / AW: burst type not reserved; AxSIZE not wider than the bus; INCR at most 256 beats,
//   FIXED / WRAP at most 16, WRAP of 2, 4, 8 or 16 beats on an aligned address; an INCR burst
//   does not cross a 4 KiB boundary; no burst longer than MAX_LEN beats (the project's limit,
//   GC_AXI_MAX_BURST);
// - W: WLAST on the last beat of its burst and on no other (W bursts taken in AW order; a W
//   burst may come before its AW);
// - R: RID names an ID with a read outstanding, RLAST on the last beat of the oldest read of
//   that ID and on no other; B: BID names an ID with a write whose data is complete.
// A request that is never answered is not an error here: the harness's cycle watchdog reports it
// (the memory model's injected stall-reads fault relies on that). Ports without IDs (a single
// client) tie the IDs to 0; ports without AxSIZE / AxBURST tie them to the bus width and INCR.
`include "gc_assert.svh"

module gc_axi_check #(
  parameter int unsigned IW      = 4,   // ID width
  parameter int unsigned AW      = 40,  // address width
  parameter int unsigned DW      = 64,  // data width
  parameter int unsigned MAX_LEN = 256, // longest burst allowed, in beats
  parameter int unsigned DEPTH   = 32   // most bursts outstanding (per ID for reads), >= 2: the
                                        // master's bound; more is an error (w_depth, r_depth)
) (
  input logic            clk_i,
  input logic            rst_ni,
  input logic            awvalid_i,
  input logic            awready_i,
  input logic [IW-1:0]   awid_i,
  input logic [AW-1:0]   awaddr_i,
  input logic [7:0]      awlen_i,
  input logic [2:0]      awsize_i,
  input logic [1:0]      awburst_i,
  input logic            wvalid_i,
  input logic            wready_i,
  input logic [DW-1:0]   wdata_i,
  input logic [DW/8-1:0] wstrb_i,
  input logic            wlast_i,
  input logic            bvalid_i,
  input logic            bready_i,
  input logic [IW-1:0]   bid_i,
  input logic [1:0]      bresp_i,
  input logic            arvalid_i,
  input logic            arready_i,
  input logic [IW-1:0]   arid_i,
  input logic [AW-1:0]   araddr_i,
  input logic [7:0]      arlen_i,
  input logic [2:0]      arsize_i,
  input logic [1:0]      arburst_i,
  input logic            rvalid_i,
  input logic            rready_i,
  input logic [IW-1:0]   rid_i,
  input logic [DW-1:0]   rdata_i,
  input logic [1:0]      rresp_i,
  input logic            rlast_i
);

`ifndef GC_ASSERT_OFF
  localparam int unsigned NID  = 1 << IW;
  localparam int unsigned PW   = $clog2(DEPTH);
  localparam int unsigned TD   = 1 << PW;   // table entries: DEPTH rounded up to a power of 2
  localparam logic [2:0]  MAXSIZE = 3'($clog2(DW / 8));

  `GC_ASSERT_CYCLE(clk_i, rst_ni)

  // ---------------------------------------------------------------- handshakes
  `GC_ASSERT_STABLE(aw, awvalid_i, awready_i, {awid_i, awaddr_i, awlen_i, awsize_i, awburst_i}, clk_i, rst_ni)
  `GC_ASSERT_STABLE(w, wvalid_i, wready_i, {wdata_i, wstrb_i, wlast_i}, clk_i, rst_ni)
  `GC_ASSERT_STABLE(b, bvalid_i, bready_i, {bid_i, bresp_i}, clk_i, rst_ni)
  `GC_ASSERT_STABLE(ar, arvalid_i, arready_i, {arid_i, araddr_i, arlen_i, arsize_i, arburst_i}, clk_i, rst_ni)
  `GC_ASSERT_STABLE(r, rvalid_i, rready_i, {rid_i, rdata_i, rresp_i, rlast_i}, clk_i, rst_ni)

  // ---------------------------------------------------------------- burst rules
  // The bytes of a burst from its start address to the end of its 4 KiB page.
  function automatic logic burst_ok(input logic [11:0] addr, input logic [7:0] len,
                                    input logic [2:0] size, input logic [1:0] burst);
    logic [12:0] start, bytes;
    start = {1'b0, addr} & ~((13'd1 << size) - 13'd1);
    bytes = 13'((int'(len) + 1) << size);
    unique case (burst)
      2'b00:   return len < 8'd16;                                        // FIXED
      2'b01:   return int'(start) + int'(bytes) <= 4096;                  // INCR: 4 KiB rule
      2'b10:   return (len == 8'd1 || len == 8'd3 || len == 8'd7 || len == 8'd15) &&
                      (addr & 12'((13'd1 << size) - 13'd1)) == '0;  // WRAP
      default: return 1'b0;                                               // reserved
    endcase
  endfunction

  `GC_ASSERT(aw_size,  !awvalid_i || awsize_i <= MAXSIZE, clk_i, rst_ni, "AWSIZE wider than the data bus")
  `GC_ASSERT(ar_size,  !arvalid_i || arsize_i <= MAXSIZE, clk_i, rst_ni, "ARSIZE wider than the data bus")
  `GC_ASSERT_IF(aw_burst, awvalid_i, burst_ok(awaddr_i[11:0], awlen_i, awsize_i, awburst_i), clk_i, rst_ni,
                "AWBURST / AWLEN / AWADDR: reserved burst type, bad WRAP or FIXED length, or an INCR burst crossing 4 KiB")
  `GC_ASSERT_IF(ar_burst, arvalid_i, burst_ok(araddr_i[11:0], arlen_i, arsize_i, arburst_i), clk_i, rst_ni,
                "ARBURST / ARLEN / ARADDR: reserved burst type, bad WRAP or FIXED length, or an INCR burst crossing 4 KiB")
  `GC_ASSERT(aw_len,   !awvalid_i || int'(awlen_i) < int'(MAX_LEN), clk_i, rst_ni, "AWLEN longer than MAX_LEN beats")
  `GC_ASSERT(ar_len,   !arvalid_i || int'(arlen_i) < int'(MAX_LEN), clk_i, rst_ni, "ARLEN longer than MAX_LEN beats")

  // ---------------------------------------------------------------- write bursts
  // AW bursts in order (id, len) and W bursts as they end (their beat counts), matched in order.
  logic [TD-1:0][IW-1:0] awq_id_q;
  logic [TD-1:0][7:0]    awq_len_q;
  logic [PW:0]              awq_n_q, wq_n_q;
  logic [PW-1:0]            awq_rd_q;
  logic [TD-1:0][8:0]    wq_beats_q;
  logic [PW-1:0]            wq_rd_q;
  logic [8:0]               wbeat_q;           // beats of the W burst in progress
  logic [NID-1:0][PW:0]     wr_done_q;         // per ID: writes with AW and all W, B owed
  logic                     pair_now;

  // an AW and a finished W burst are paired in this cycle (a B may already answer it)
  assign pair_now = awq_n_q != 0 && wq_n_q != 0;

  // the queues' storage needs no reset: an entry is read only while it is counted (after its write)
  always_ff @(posedge clk_i or negedge rst_ni) begin  // rtl/README.md, "One trigger per clock"
    if (rst_ni) begin
      if (awvalid_i && awready_i) begin
        awq_id_q[PW'(awq_rd_q + PW'(awq_n_q))]  <= awid_i;
        awq_len_q[PW'(awq_rd_q + PW'(awq_n_q))] <= awlen_i;
      end
      if (wvalid_i && wready_i && wlast_i) wq_beats_q[PW'(wq_rd_q + PW'(wq_n_q))] <= wbeat_q + 9'd1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      awq_n_q <= '0; awq_rd_q <= '0; wq_n_q <= '0; wq_rd_q <= '0; wbeat_q <= '0; wr_done_q <= '0;
    end else begin
      logic [PW:0] awn, wn;
      logic [PW-1:0] awrd, wrd;
      logic [NID-1:0][PW:0] done;
      awn = awq_n_q; wn = wq_n_q; awrd = awq_rd_q; wrd = wq_rd_q;
      if (wvalid_i && wready_i) wbeat_q <= wlast_i ? 9'd0 : wbeat_q + 9'd1;
      // pair the oldest finished W burst with the oldest AW (either may have come first)
      done = wr_done_q;
      if (pair_now) begin
        done[awq_id_q[awrd]] = done[awq_id_q[awrd]] + 1'b1;
        awrd = awrd + 1'b1; awn = awn - 1'b1;
        wrd = wrd + 1'b1; wn = wn - 1'b1;
      end
      if (bvalid_i && bready_i && done[bid_i] != 0) done[bid_i] = done[bid_i] - 1'b1;
      wr_done_q <= done;
      awq_n_q  <= awn + PW'(awvalid_i && awready_i);
      wq_n_q   <= wn + PW'(wvalid_i && wready_i && wlast_i);
      awq_rd_q <= awrd;
      wq_rd_q  <= wrd;
    end
  end

  // The error conditions are functions of the pins, called only in the assertions' clocked
  // blocks: as always_comb logic they would be evaluated at both of the harness's evaluations per
  // cycle (rtl/README.md, "Simulation cost of combinational paths from the pins").
  // the W burst in progress belongs to the AW after those already paired with finished W bursts
  function automatic logic f_err_wlast();
    logic [PW-1:0] cur;
    cur = PW'(awq_rd_q + PW'(wq_n_q));
    if (!(wvalid_i && wready_i)) return 1'b0;
    if (awq_n_q > wq_n_q)        return wlast_i != (wbeat_q == {1'b0, awq_len_q[cur]});
    if (!wlast_i)                return wbeat_q >= 9'(MAX_LEN) - 9'd1;  // AW not yet seen
    return 1'b0;
  endfunction
  function automatic logic f_err_w_overflow();
    return (awq_n_q == (PW + 1)'(DEPTH) && awvalid_i && awready_i) ||
           (wq_n_q == (PW + 1)'(DEPTH) && wvalid_i && wready_i && wlast_i);
  endfunction
  function automatic logic f_err_b_unexp();
    return bvalid_i && bready_i && wr_done_q[bid_i] == 0 &&
           !(pair_now && awq_id_q[awq_rd_q] == bid_i);
  endfunction

  `GC_ASSERT_IF(w_last, wvalid_i && wready_i, !f_err_wlast(), clk_i, rst_ni, "WLAST not on the last beat of its burst (AWLEN + 1 beats)")
  `GC_ASSERT_IF(w_early, pair_now, wq_beats_q[wq_rd_q] == {1'b0, awq_len_q[awq_rd_q]} + 9'd1, clk_i, rst_ni,
                "WLAST of a W burst sent before its AW: beat count is not AWLEN + 1")
  `GC_ASSERT_IF(w_depth, (awvalid_i && awready_i) || (wvalid_i && wready_i && wlast_i), !f_err_w_overflow(),
                clk_i, rst_ni, "more than DEPTH write bursts outstanding (the master's bound)")
  `GC_ASSERT_IF(b_id, bvalid_i && bready_i, !f_err_b_unexp(), clk_i, rst_ni, "BID answers no write whose AW and last W beat were accepted")

  // ---------------------------------------------------------------- read bursts
  // per ID: the lengths of the reads outstanding, oldest first (AXI: same-ID reads answer in order)
  logic [NID-1:0][TD-1:0][7:0] rq_len_q;
  logic [NID-1:0][PW:0]           rq_n_q;
  logic [NID-1:0][PW-1:0]         rq_rd_q;
  logic [NID-1:0][7:0]            rbeat_q;

  // the length table needs no reset: an entry is read only while its ID has reads outstanding,
  // after it was written
  always_ff @(posedge clk_i or negedge rst_ni) begin  // rtl/README.md, "One trigger per clock"
    if (rst_ni) begin
      if (arvalid_i && arready_i)
        rq_len_q[arid_i][PW'(rq_rd_q[arid_i] + PW'(rq_n_q[arid_i]))] <= arlen_i;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rq_n_q <= '0; rq_rd_q <= '0; rbeat_q <= '0;
    end else begin
      logic pop;
      pop = rvalid_i && rready_i && rlast_i && rq_n_q[rid_i] != 0;
      if (rvalid_i && rready_i) rbeat_q[rid_i] <= rlast_i ? 8'd0 : rbeat_q[rid_i] + 8'd1;
      if (pop) rq_rd_q[rid_i] <= rq_rd_q[rid_i] + 1'b1;
      if (arvalid_i && arready_i && pop && arid_i == rid_i) rq_n_q[arid_i] <= rq_n_q[arid_i];
      else begin
        if (arvalid_i && arready_i) rq_n_q[arid_i] <= rq_n_q[arid_i] + 1'b1;
        if (pop)                    rq_n_q[rid_i]  <= rq_n_q[rid_i] - 1'b1;
      end
    end
  end

  function automatic logic f_err_r_unexp();
    return rvalid_i && rready_i && rq_n_q[rid_i] == 0;
  endfunction
  function automatic logic f_err_rlast();
    return rvalid_i && rready_i && rq_n_q[rid_i] != 0 &&
           rlast_i != (rbeat_q[rid_i] == rq_len_q[rid_i][rq_rd_q[rid_i]]);
  endfunction
  function automatic logic f_err_r_overflow();
    return arvalid_i && arready_i && rq_n_q[arid_i] == (PW + 1)'(DEPTH);
  endfunction

  `GC_ASSERT_IF(r_id, rvalid_i && rready_i, !f_err_r_unexp(), clk_i, rst_ni, "RID answers no outstanding read (R beat for an ID with no AR accepted)")
  `GC_ASSERT_IF(r_last, rvalid_i && rready_i, !f_err_rlast(), clk_i, rst_ni, "RLAST not on the last beat of the oldest read of RID (ARLEN + 1 beats)")
  `GC_ASSERT_IF(r_depth, arvalid_i && arready_i, !f_err_r_overflow(), clk_i, rst_ni, "more than DEPTH reads outstanding on one ID (the master's bound)")

  logic unused_chk;
  assign unused_chk = ^{bresp_i, rresp_i};
`endif

endmodule
