// gc_pbdma_sem: the host-method / semaphore unit of one PBDMA (part of gc_pbdma).
//
//   atomic port  SEM_EXECUTE as decoded by the FSM (start_i with op, size, address, data):
//                one request at a time to the atomic unit (aq_req_o / aq_rsp_i), acquires as READs
//                whose answer is compared here (gc_sem_pkg::sem_acquire_pass: pass_o), RELEASE
//                as a WRITE, REDUCTION as an RMW. busy_o until the answer came.
//   acquires     per channel: blocked (an acquire failed and has not passed), armed (a snoop
//                of a write to the awaited 8-byte word wakes it), woken, the awaited word, and
//                two timestamps: when the channel blocked (ACQ_TIMEOUT: blocked more than that
//                many cycles, resident or not, is a timeout) and when its last try failed
//                (retry due after ACQ_RETRY_INTERVAL cycles, 0 counts as 1). Timers are
//                compared when asked, not counted per channel per cycle; the due / timeout
//                vectors are computed only while some channel is blocked, and the snoop is
//                compared only in a cycle with a snoop.
//   wake         gc_mem_xbar's write snoop reports every completed write burst of every client
//                (PBDMA-side users: rtl/README.md, "Write snoop") with its first beat (data and
//                strobes). An armed acquire whose 8-byte word the burst covers is woken (it
//                retries through memory at once), and when that word is the burst's first beat
//                and the beat holds every byte the acquire reads, its condition is evaluated on
//                the written value at once (gc_sem_pkg::sem_acquire_pass with the channel's own
//                operation, size and payload, kept per channel when the acquire was issued): a
//                pass sets acq_ok (cur_ok_o for the resident channel), and the FSM completes the
//                SEM_EXECUTE without reading the semaphore again: resident in ACQ_RETRY the cycle
//                after the snoop, switched out when it is dispatched again. The write completed
//                (B response) after the acquire was issued, so the acquire may take its value as
//                the one it observes (as if its read had come after that write); a later write
//                does not undo that (an acquire does not consume). Two unordered writers racing
//                on one word have no defined winner either way. Only writes outside the device
//                (host backdoor writes) are not
//                snooped: such an acquire passes on its retry interval.
//   timeouts     to_req_o / to_ch_o: the lowest channel on this runlist, not resident, not in
//                error or reset, whose acquire timed out (the FSM sends its fault record when
//                the fault port is free: to_send_i clears the channel's acquire).
module gc_pbdma_sem
  import gpucosim_pkg::*;
  import gc_sem_pkg::*;
  import gc_pbdma_pkg::*;
  import gc_eng_pkg::*;
#(
  parameter int unsigned RL = 0,
  localparam int unsigned RLW = GC_CHANNEL_RUNLIST_ID_W
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic [TS_W-1:0]      now_i,

  input  logic [NCH-1:0]       ch_err_i,
  input  logic [NCH-1:0]       ch_reset_i,
  input  logic [NCH-1:0][RLW-1:0] ch_runlist_i,
  input  logic [NCH-1:0][31:0] ch_acq_timeout_i,
  input  logic [31:0]          acq_retry_i,      // GLOBAL.ACQ_RETRY_INTERVAL

  // From the FSM
  input  logic [CH_W-1:0]      cur_ch_i,
  input  logic [NCH-1:0]       cur_oh_i,         // resident channel (one-hot, 0 when idle)
  input  logic                 start_i,          // SEM_EXECUTE: request to the atomic unit
  input  logic [1:0]           op_i,
  input  logic [1:0]           size_i,
  input  logic [AW-1:0]        addr_i,
  input  logic [63:0]          wdata_i,
  input  logic [31:0]          mthd_data_i,      // the SEM_EXECUTE dword
  input  logic [SC_W-1:0]      mthd_subch_i,
  input  logic [63:0]          payload_i,        // SEM_PAYLOAD_HI / LO
  input  logic                 acq_try_i,        // start_i is an acquire
  input  logic                 acq_fail_i,       // the resident channel's acquire failed
  input  logic                 acq_pass_i,       // ... passed
  input  logic                 acq_clr_i,        // ... timed out (fault recorded)
  input  logic                 to_send_i,        // to_ch_o's timeout fault is being sent

  // To the FSM
  output logic                 busy_o,           // a request is outstanding
  output logic                 acq_o,            // the outstanding request is an acquire
  output logic                 acq_sw_o,         // ... with ACQUIRE_SWITCH_TSG EN
  output logic                 pass_o,           // with aq_rsp_i.valid: the acquire passed
  output logic [NCH-1:0]       acq_blk_o,
  output logic [NCH-1:0]       acq_due_o,        // blocked and due for a retry
  output logic [NCH-1:0]       acq_woke_o,
  output logic                 cur_due_o,        // the resident channel is due for a retry
  output logic                 cur_to_o,         // the resident channel's acquire timed out
  output logic                 cur_ok_o,         // the resident channel's acquire is known to pass
  output logic                 to_req_o,         // a switched-out channel's acquire timed out
  output logic [CH_W-1:0]      to_ch_o,
  output mref_t                to_method_o,      // its fault record
  output logic [31:0]          to_data_o,
  output logic                 still_o,          // no register here changes this cycle, given
                                                 // no request or acquire outcome from the FSM

  // Atomic unit request port
  output aq_req_t              aq_req_o,         // atomic-unit requester (gc_eng_pkg)
  input  aq_rsp_t              aq_rsp_i,
  input  gc_axi_pkg::wsnoop_t  snoop_i           // gc_mem_xbar's write snoop
);

  // Atomic request
  logic                 aq_busy_q;
  aq_req_t              aq_q;
  logic                 sem_acq_q, sem_is64_q, sem_sw_q;
  logic [GC_HOST_SEM_EXECUTE_OPERATION_W-1:0] sem_op_q;
  logic [63:0]          sem_pay_q;

  // Per-channel acquire state
  logic [NCH-1:0]       acq_blk_q;           // an acquire failed and has not passed yet
  logic [NCH-1:0]       acq_arm_q;           // snoop matching armed (acquire read issued)
  logic [NCH-1:0]       acq_woke_q;          // a write to the awaited word landed since the try
  logic [TS_W-1:0]      acq_blk_t_q [NCH];   // first cycle blocked
  logic [TS_W-1:0]      acq_try_t_q [NCH];   // first cycle after the last failed try
  logic [AW-1:2]        acq_addr_q [NCH];
  logic [NCH-1:0]       acq_ok_q;            // a snooped write made the acquire pass
  logic [GC_HOST_SEM_EXECUTE_OPERATION_W-1:0] acq_op_q [NCH];
  logic [NCH-1:0]       acq_is64_q;
  logic [63:0]          acq_pay_q [NCH];
  logic [SC_W-1:0]      acq_subch_q [NCH];
  logic [31:0]          acq_data_q  [NCH];

  assign pass_o = sem_acquire_pass(sem_op_q, sem_is64_q,
                                   sem_is64_q ? aq_rsp_i.rdata : {32'h0, aq_rsp_i.rdata[31:0]},
                                   sem_pay_q);

  // Due / timeout vectors, compared only while some channel is blocked
  logic [NCH-1:0] acq_due, acq_to;
  logic [31:0]    retry;
  assign retry = at_least_1(acq_retry_i);
  always_comb begin
    acq_due = '0;
    acq_to  = '0;
    if (acq_blk_q != '0) begin
      for (int c = 0; c < NCH; c++) begin
        if (acq_blk_q[c]) begin
          acq_due[c] = (since(now_i, acq_try_t_q[c]) >= retry);
          acq_to[c]  = (ch_acq_timeout_i[c] != '0) &&
                       (since(now_i, acq_blk_t_q[c]) > ch_acq_timeout_i[c]);
        end
      end
    end
  end
  assign cur_due_o = since(now_i, acq_try_t_q[cur_ch_i]) >= retry;
  assign cur_to_o  = acq_to[cur_ch_i];

  // Timeouts of channels that are not resident: the lowest index first
  logic [NCH-1:0] to_cand;
  always_comb begin
    to_cand = '0;
    if (acq_to != '0) begin
      for (int c = 0; c < NCH; c++) to_cand[c] = (32'(ch_runlist_i[c]) == RL);
      to_cand = to_cand & acq_to & ~ch_err_i & ~ch_reset_i & ~cur_oh_i;
    end
  end
  assign to_req_o    = (to_cand != '0);
  assign to_ch_o     = to_req_o ? first_set(to_cand) : '0;
  assign to_method_o = err_method(acq_subch_q[to_ch_o], GC_HOST_SEM_EXECUTE_DW);
  assign to_data_o   = acq_data_q[to_ch_o];
  assign cur_ok_o    = acq_ok_q[cur_ch_i];

  // Whether a snooped beat (data, strobes) satisfies an acquire of op / size / payload on the
  // half hi of the 8-byte word: the beat must hold every byte the acquire reads.
  function automatic logic snoop_pass(input logic [63:0] d, input logic [7:0] st,
                                      input logic [GC_HOST_SEM_EXECUTE_OPERATION_W-1:0] op,
                                      input logic is64, input logic [63:0] pay, input logic hi);
    logic        cov;
    logic [63:0] v;
    cov = is64 ? (st == 8'hFF) : hi ? (st[7:4] == 4'hF) : (st[3:0] == 4'hF);
    v   = is64 ? d : {32'h0, hi ? d[63:32] : d[31:0]};
    return cov && sem_acquire_pass(op, is64, v, pay);
  endfunction

  // Snooped write: which armed acquires it wakes (the burst covers the awaited 8-byte word),
  // and which it satisfies (that word is the burst's first beat, whose data the snoop carries);
  // evaluated only in a snoop cycle, only for the armed channels
  logic [NCH-1:0] snp_hit, snp_ok;
  logic [AW-4:0] snp_beat;   // the awaited word's beat in the burst (wraps below its start)
  always_comb begin
    snp_hit  = '0;
    snp_ok   = '0;
    snp_beat = '0;
    if (snoop_i.valid && acq_arm_q != '0) begin
      for (int c = 0; c < NCH; c++) begin
        snp_beat = acq_addr_q[c][AW-1:3] - snoop_i.addr[AW-1:3];
        if (acq_arm_q[c] && snp_beat <= (AW-3)'(snoop_i.len)) begin
          snp_hit[c] = 1'b1;
          snp_ok[c]  = (snp_beat == '0) &&
                       snoop_pass(snoop_i.data, snoop_i.strb, acq_op_q[c], acq_is64_q[c],
                                  acq_pay_q[c], acq_addr_q[c][2]);
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      aq_busy_q   <= 1'b0;
      aq_q        <= '0;
      sem_acq_q   <= 1'b0;
      sem_is64_q  <= 1'b0;
      sem_sw_q    <= 1'b0;
      sem_op_q    <= '0;
      sem_pay_q   <= '0;
    end else begin
      if (aq_q.valid && aq_rsp_i.ready) aq_q.valid <= 1'b0;
      if (aq_rsp_i.valid) aq_busy_q <= 1'b0;
      if (start_i) begin
        aq_q.valid  <= 1'b1;
        aq_busy_q   <= 1'b1;
        aq_q.op     <= op_i;
        aq_q.size   <= size_i;
        aq_q.red    <= mthd_data_i[GC_HOST_SEM_EXECUTE_REDUCTION_LSB +:
                                   GC_HOST_SEM_EXECUTE_REDUCTION_W];
        aq_q.is_signed <= (mthd_data_i[GC_HOST_SEM_EXECUTE_REDUCTION_FORMAT_LSB +:
                                       GC_HOST_SEM_EXECUTE_REDUCTION_FORMAT_W] ==
                           GC_HOST_SEM_EXECUTE_REDUCTION_FORMAT_SIGNED);
        aq_q.addr   <= addr_i;
        aq_q.wdata  <= wdata_i;
        sem_acq_q   <= acq_try_i;
        sem_is64_q  <= (size_i == SEM_ASIZE_8);
        sem_op_q    <= mthd_data_i[GC_HOST_SEM_EXECUTE_OPERATION_LSB +:
                                   GC_HOST_SEM_EXECUTE_OPERATION_W];
        sem_sw_q    <= (mthd_data_i[GC_HOST_SEM_EXECUTE_ACQUIRE_SWITCH_TSG_LSB +:
                                    GC_HOST_SEM_EXECUTE_ACQUIRE_SWITCH_TSG_W] ==
                        GC_HOST_SEM_EXECUTE_ACQUIRE_SWITCH_TSG_EN);
        sem_pay_q   <= payload_i;
      end
    end
  end

  // Acquire tracking (a CTRL.RESET or an error of the channel wins)
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int c = 0; c < NCH; c++) begin
        acq_blk_t_q[c] <= '0;
        acq_try_t_q[c] <= '0;
        acq_addr_q[c]  <= '0;
        acq_op_q[c]    <= '0;
        acq_pay_q[c]   <= '0;
        acq_subch_q[c] <= '0;
        acq_data_q[c]  <= '0;
      end
      acq_blk_q  <= '0;
      acq_arm_q  <= '0;
      acq_woke_q <= '0;
      acq_ok_q   <= '0;
      acq_is64_q <= '0;
    end else begin
      logic [NCH-1:0] blk_n, arm_n, woke_n, ok_n;
      blk_n  = acq_blk_q;
      arm_n  = acq_arm_q;
      woke_n = acq_woke_q | snp_hit;
      ok_n   = acq_ok_q | snp_ok;
      if (start_i && acq_try_i) begin
        arm_n[cur_ch_i]        = 1'b1;
        woke_n[cur_ch_i]       = 1'b0;
        ok_n[cur_ch_i]         = 1'b0;
        acq_addr_q[cur_ch_i]  <= addr_i[AW-1:2];
        acq_op_q[cur_ch_i]    <= mthd_data_i[GC_HOST_SEM_EXECUTE_OPERATION_LSB +:
                                             GC_HOST_SEM_EXECUTE_OPERATION_W];
        acq_is64_q[cur_ch_i]  <= (size_i == SEM_ASIZE_8);
        acq_pay_q[cur_ch_i]   <= payload_i;
        acq_subch_q[cur_ch_i] <= mthd_subch_i;
        acq_data_q[cur_ch_i]  <= mthd_data_i;
      end
      if (acq_fail_i) begin
        blk_n[cur_ch_i]        = 1'b1;
        acq_try_t_q[cur_ch_i] <= now_i + TS_W'(1);
        if (!acq_blk_q[cur_ch_i]) acq_blk_t_q[cur_ch_i] <= now_i + TS_W'(1);
      end
      if (acq_pass_i) begin
        blk_n[cur_ch_i]  = 1'b0;
        arm_n[cur_ch_i]  = 1'b0;
        woke_n[cur_ch_i] = 1'b0;
        ok_n[cur_ch_i]   = 1'b0;
      end
      if (to_send_i) begin
        blk_n[to_ch_o] = 1'b0;
        arm_n[to_ch_o] = 1'b0;
        ok_n[to_ch_o]  = 1'b0;
      end
      if (acq_clr_i) begin
        blk_n[cur_ch_i] = 1'b0;
        arm_n[cur_ch_i] = 1'b0;
        ok_n[cur_ch_i]  = 1'b0;
      end
      acq_blk_q  <= blk_n & ~(ch_reset_i | ch_err_i);
      acq_arm_q  <= arm_n & ~(ch_reset_i | ch_err_i);
      acq_woke_q <= woke_n & ~(ch_reset_i | ch_err_i);
      acq_ok_q   <= ok_n & ~(ch_reset_i | ch_err_i);
    end
  end

  // still_o: no request to send or answer to wait for, no acquire timed out (to_req_o, which
  // the FSM would send), no snooped write that wakes or satisfies an acquire not yet woken or
  // satisfied, no channel with acquire state being reset or in error: then, in a cycle without a
  // request or an acquire outcome from the FSM (start, acq_fail, acq_pass, acq_clr all 0), the
  // request registers and every per-channel acquire table keep their values (gc_pbdma's still_o)
  assign still_o    = !aq_q.valid && !aq_busy_q && !to_req_o &&
                      ((snp_hit & ~acq_woke_q) == '0) && ((snp_ok & ~acq_ok_q) == '0) &&
                      (((acq_blk_q | acq_arm_q | acq_woke_q | acq_ok_q) &
                        (ch_reset_i | ch_err_i)) == '0);
  assign busy_o     = aq_busy_q;
  assign acq_o      = sem_acq_q;
  assign acq_sw_o   = sem_sw_q;
  assign acq_blk_o  = acq_blk_q;
  assign acq_due_o  = acq_due;
  assign acq_woke_o = acq_woke_q;

  assign aq_req_o   = aq_q;

  logic unused_sem;
  assign unused_sem = ^{snoop_i.addr[2:0], aq_rsp_i.err};   // the decoder takes err

endmodule
