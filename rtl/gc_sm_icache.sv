// gc_sm_icache: the SM's instruction cache.  Direct mapped, LINES lines of LINE_B bytes (one
// INCR burst of LINE_B / 8 beats, aligned, so it never crosses 4 KiB), tagged with device
// addresses.
//
//   lookup    combinational: lk_addr_i (device address of a 4-aligned PC) -> lk_hit_o, lk_instr_o.
//   miss      miss_valid_i with the device address: when no fill is running the line's fill starts
//             (one fill at a time; a miss during a fill is dropped: the warp retries after
//             fill_done_o).
//   fill      AR of the whole line, beats written as they arrive; the line becomes valid with the
//             last beat when no beat had an error.  fill_done_o pulses after the last beat, with
//             the line's address and whether an error came back (the line stays invalid then).
//   inval_i   clears every valid bit (a fill running at that moment still completes and
//             validates its line: its data was read after the invalidation was asked for).
module gc_sm_icache
  import gpucosim_pkg::*;
  import gc_axi_pkg::*;
#(
  parameter int unsigned LINES  = GC_SIMT_ICACHE_LINES,
  parameter int unsigned LINE_B = GC_SIMT_ICACHE_LINE_BYTES
) (
  input  logic                      clk_i,
  input  logic                      rst_ni,

  input  logic [GC_AXI_ADDR_W-1:0]  lk_addr_i,
  output logic                      lk_hit_o,
  output logic [31:0]               lk_instr_o,

  input  logic                      miss_valid_i,
  input  logic [GC_AXI_ADDR_W-1:0]  miss_addr_i,
  output logic                      fill_busy_o,
  output logic                      fill_done_o,
  output logic                      fill_err_o,
  output logic [GC_AXI_ADDR_W-1:0]  fill_addr_o,   // line address of the fill that finished
  input  logic                      inval_i,

  // client memory port (reads only)
  output cli_req_t                  m_req_o,
  input  cli_rsp_t                  m_rsp_i
);

  localparam int unsigned AW     = GC_AXI_ADDR_W;
  localparam int unsigned BEATS  = LINE_B / (GC_AXI_DATA_W / 8);
  localparam int unsigned OFS_W  = $clog2(LINE_B);
  localparam int unsigned IDX_W  = $clog2(LINES);
  localparam int unsigned TAG_W  = AW - OFS_W - IDX_W;
  localparam int unsigned BEAT_W = (BEATS > 1) ? $clog2(BEATS) : 1;
  localparam int unsigned WPL    = LINE_B / 4;              // instruction words per line
  localparam int unsigned WPB    = GC_AXI_DATA_W / 32;      // words per beat

  if (BEATS < 1 || BEATS > GC_AXI_MAX_BURST || (LINE_B & (LINE_B - 1)) != 0) begin : g_bad_line
    $error("gc_sm_icache: LINE_B must be a power of two of 1..AXI_MAX_BURST beats");
  end

  logic [LINES-1:0]         valid_q;
  logic [TAG_W-1:0]         tag_q  [LINES];
  logic [31:0]              data_q [LINES * WPL];

  // ---- lookup
  logic [IDX_W-1:0] lk_idx;
  logic [TAG_W-1:0] lk_tag;
  assign lk_idx     = lk_addr_i[OFS_W +: IDX_W];
  assign lk_tag     = lk_addr_i[AW-1 -: TAG_W];
  assign lk_hit_o   = valid_q[lk_idx] && (tag_q[lk_idx] == lk_tag);
  assign lk_instr_o = data_q[{lk_idx, lk_addr_i[OFS_W-1:2]}];

  // ---- fill
  logic              busy_q, ar_q, err_q, done_q;
  logic [AW-1:0]     fa_q;              // line address being filled
  logic [BEAT_W-1:0] beat_q;
  logic [IDX_W-1:0]  f_idx;
  assign f_idx = fa_q[OFS_W +: IDX_W];

  assign m_req_o = cli_rd_only('{addr: fa_q, len: 8'(BEATS - 1)}, ar_q, 1'b1);

  logic r_hs, r_err;
  assign r_hs  = m_rsp_i.r_valid && busy_q && !ar_q;
  assign r_err = m_rsp_i.r.resp[1];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q <= '0;
      busy_q  <= 1'b0;
      ar_q    <= 1'b0;
      err_q   <= 1'b0;
      done_q  <= 1'b0;
      fa_q    <= '0;
      beat_q  <= '0;
    end else begin
      done_q <= 1'b0;
      if (inval_i) valid_q <= '0;
      if (!busy_q && miss_valid_i) begin
        busy_q  <= 1'b1;
        ar_q    <= 1'b1;
        err_q   <= 1'b0;
        beat_q  <= '0;
        fa_q    <= {miss_addr_i[AW-1:OFS_W], OFS_W'(0)};
        valid_q[miss_addr_i[OFS_W +: IDX_W]] <= 1'b0;
      end
      if (ar_q && m_rsp_i.ar_ready) ar_q <= 1'b0;
      if (r_hs) begin
        beat_q <= beat_q + BEAT_W'(1);
        if (r_err) err_q <= 1'b1;
        if (32'(beat_q) == BEATS - 1) begin
          busy_q <= 1'b0;
          done_q <= 1'b1;
          if (!r_err && !err_q) valid_q[f_idx] <= 1'b1;
        end
      end
    end
  end

  // Data and tags: no reset (read only under a valid bit)
  always_ff @(posedge clk_i or negedge rst_ni) begin  // rtl/README.md, "One trigger per clock"
    if (rst_ni) begin
      if (!busy_q && miss_valid_i) tag_q[miss_addr_i[OFS_W +: IDX_W]] <= miss_addr_i[AW-1 -: TAG_W];
      if (r_hs) begin
        for (int w = 0; w < WPB; w++) begin
          data_q[(32'(f_idx) * WPL) + 32'(beat_q) * WPB + w] <= m_rsp_i.r.data[32 * w +: 32];
        end
      end
    end
  end

  assign fill_busy_o = busy_q;
  assign fill_done_o = done_q;
  assign fill_err_o  = err_q;
  assign fill_addr_o = fa_q;

  logic unused_ic;
  assign unused_ic = ^{m_rsp_i.r.last, m_rsp_i.r.resp[0], m_rsp_i.aw_ready, m_rsp_i.w_ready, m_rsp_i.b_valid,
                     m_rsp_i.b_resp, lk_addr_i[1:0], miss_addr_i[OFS_W-1:0]};

endmodule
