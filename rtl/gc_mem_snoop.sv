// gc_mem_snoop: the write snoop of the memory bus (gpu_top: on the crossbar's AXI4 master, so it
// sees the writes of every client: PBDMAs' semaphores through the atomic unit, copy engines, SIMT
// stores and atomics). It only watches the bus and drives nothing on it.
//
// Each AW handshake records the burst's address and length in a FIFO of its ID (AXI keeps B
// responses in order per ID); the B handshake of that ID pops it, and in the next cycle
// valid_o pulses with the write's address (addr_o) and length (len_o, beats - 1, every beat 8
// bytes): the write has completed, so a read issued after it sees the new data. Bus errors are
// reported too (the caller only drops data it may have read stale). A write whose AW found its
// FIFO full is not recorded: its B (and every later B of that ID until the FIFO has drained the
// unrecorded ones) pulses valid_o with all_o set, meaning "any address": the users drop what
// they hold, so the snoop stays safe when a client keeps more than DEPTH writes in flight.
//
// Users: gc_pbdma_pf drops prefetched GPFIFO entries and pushbuffer beats that a write overlaps.
module gc_mem_snoop
  import gpucosim_pkg::*;
  import gc_axi_pkg::*;
#(
  parameter int unsigned DEPTH = 16,                // recorded writes in flight per ID
  localparam int unsigned NID  = 2 ** GC_AXI_ID_W,
  localparam int unsigned PW   = $clog2(DEPTH)
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,
  input  axi_req_t                 req_i,          // the bus, watched
  input  axi_rsp_t                 rsp_i,
  output logic                     valid_o,        // a write completed ...
  output logic                     all_o,          // ... (address not recorded: any address)
  output logic [GC_AXI_ADDR_W-1:0] addr_o,         // ... at this address
  output logic [7:0]               len_o           // ... of len_o + 1 beats
);

  logic [GC_AXI_ADDR_W-1:0] addr_q [NID][DEPTH];
  logic [7:0]               len_q  [NID][DEPTH];
  logic [PW-1:0]            wp_q [NID], rp_q [NID];
  logic [PW:0]              cnt_q [NID];
  logic [15:0]              unrec_q [NID];       // writes not recorded (FIFO was full)

  logic                     valid_q, all_q;
  logic [GC_AXI_ADDR_W-1:0] oaddr_q;
  logic [7:0]               olen_q;

  logic aw_hs, b_hs;
  id_t  aid, bid;
  assign aw_hs = req_i.aw_valid && rsp_i.aw_ready;
  assign b_hs  = rsp_i.b_valid && req_i.b_ready;
  assign aid   = req_i.aw.id;
  assign bid   = rsp_i.b.id;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int i = 0; i < NID; i++) begin
        wp_q[i]    <= '0;
        rp_q[i]    <= '0;
        cnt_q[i]   <= '0;
        unrec_q[i] <= '0;
      end
      valid_q <= 1'b0;
      all_q   <= 1'b0;
      oaddr_q <= '0;
      olen_q  <= '0;
    end else begin
      logic push, pop, unrec_pop, unrec_push;
      push       = aw_hs && (unrec_q[aid] == '0) && (cnt_q[aid] != (PW + 1)'(DEPTH));
      unrec_push = aw_hs && !push;
      pop        = b_hs && (cnt_q[bid] != '0);
      unrec_pop  = b_hs && (cnt_q[bid] == '0);   // (a B with nothing in flight: reported as any)
      valid_q   <= b_hs;
      all_q     <= unrec_pop;
      if (pop) begin
        oaddr_q   <= addr_q[bid][rp_q[bid]];
        olen_q    <= len_q[bid][rp_q[bid]];
        rp_q[bid] <= rp_q[bid] + PW'(1);
      end
      if (!(unrec_push && unrec_pop && aid == bid)) begin
        if (unrec_pop && unrec_q[bid] != '0) unrec_q[bid] <= unrec_q[bid] - 16'd1;
        if (unrec_push) unrec_q[aid] <= unrec_q[aid] + 16'd1;
      end
      if (push) wp_q[aid] <= wp_q[aid] + PW'(1);
      if (push && !(pop && bid == aid))      cnt_q[aid] <= cnt_q[aid] + (PW + 1)'(1);
      else if (pop && !(push && bid == aid)) cnt_q[bid] <= cnt_q[bid] - (PW + 1)'(1);
    end
  end

  // FIFO storage (no reset: only recorded entries are read)
  always_ff @(posedge clk_i) begin
    if (aw_hs && (unrec_q[aid] == '0) && (cnt_q[aid] != (PW + 1)'(DEPTH))) begin
      addr_q[aid][wp_q[aid]] <= req_i.aw.addr;
      len_q[aid][wp_q[aid]]  <= req_i.aw.len;
    end
  end

  // Only AW's id / addr / len and the B handshake are watched
  logic unused_snoop;
  assign unused_snoop = ^{req_i.aw.size, req_i.aw.burst, req_i.w, req_i.w_valid, req_i.ar,
                          req_i.ar_valid, req_i.r_ready, rsp_i.ar_ready, rsp_i.w_ready,
                          rsp_i.b.resp, rsp_i.r_valid, rsp_i.r};

  assign valid_o = valid_q;
  assign all_o   = all_q;
  assign addr_o  = oaddr_q;
  assign len_o   = olen_q;

endmodule
