// gpu_top: the gpucosim device. BAR0 register block (AXI4-Lite slave), one PBDMA + host scheduler
// per runlist (u_pbdma[n], runlist n), NUM_CE copy engines (u_ce0, u_ce1: CE n serves runlist
// n + 1), the compute engine of runlist 0 with its SMs (u_simt: the task management unit with
// TASK_SLOTS task slots and TASK_ENTRIES task table entries, NUM_SM SMs of WARPS warps of LANES
// threads), the atomic unit and the memory crossbar onto the AXI4 master.
// Atomic-unit requesters: 0..NUM_RUNLISTS-1 the PBDMAs, then the copy engines' completion
// releases, then u_simt's (its completion releases, then SM s's atomics; LR/SC reservation tag
// of SM s warp w lane l = (s * WARPS + w) * LANES + l).
// Crossbar clients (= AXI IDs): 0..NUM_RUNLISTS-1 the PBDMAs (GPFIFO / pushbuffer reads only),
// then CE0, CE1, then the atomic unit, then u_simt's (TMD reads, then per SM instruction fetch
// and load/store).
// Clock gating: each PBDMA, each copy engine and u_simt runs on its own gated clock
// (gc_idle_gate: a latch-based ICG, gc_clock_gate), stopped while the engine is idle and running
// again in the cycle its first doorbell, copy command, launch or memory response arrives. The
// register block, the atomic unit and the crossbar always run; the free-running counters
// (the cycle count, GLOBAL.CYCLE's time base, the per-channel counters of gc_mmio_regs) live
// there, and the engines read time as a timestamp (cycle; the stamping units time_base), so a
// gated stretch changes no count. GLOBAL.CLOCK_GATING.DISABLE keeps
// every engine clock running; *.GATED_CYCLES count the stopped cycles. The gated clocks
// (clk_pbdma[n], clk_ce[n], clk_simt) and gated_* are in the waveform.
`include "gc_axi_pins.svh"
`include "gc_axi_check.svh"

module gpu_top
  import gpucosim_pkg::*;
  import gc_axi_pkg::*;
  import gc_eng_pkg::*;
#(
  parameter int unsigned NUM_SM = GC_SIMT_NUM_SM,
  parameter int unsigned WARPS  = GC_SIMT_WARPS,
  parameter int unsigned LANES  = GC_SIMT_LANES,
  parameter int unsigned TASK_SLOTS   = GC_TMU_SLOTS,     // TMU task slots (1..8)
  parameter int unsigned TASK_ENTRIES = GC_TMU_ENTRIES,   // TMU task table entries (SLOTS..16)
  parameter int unsigned FPU    = 1,      // 1: the SMs implement RV32F (0: F instructions are illegal)
  localparam int unsigned NCH  = GC_NUM_CHANNELS,
  localparam int unsigned CH_W = $clog2(NCH),
  localparam int unsigned AW   = GC_AXI_ADDR_W,
  localparam int unsigned IW   = GC_AXI_ID_W,
  localparam int unsigned LW   = GC_CHANNEL_GPFIFO_SIZE_LOG2_W,
  localparam int unsigned NRL  = GC_NUM_RUNLISTS,
  localparam int unsigned NCE  = GC_NUM_CE,
  localparam int unsigned NAQ  = NRL + NCE + 1 + NUM_SM,
  localparam int unsigned NCLI = NRL + NCE + 1 + 1 + 2 * NUM_SM
) (
  input  logic            clk_i,
  input  logic            rst_ni,

  `GC_AXIL_SLAVE_PINS,     // AXI4-Lite slave, BAR0 (gc_axil_pins makes the structs)
  `GC_AXI_MASTER_PINS,     // AXI4 master, memory (gc_axi_pins makes the structs)

  output logic            irq_o
);

  localparam int unsigned CLI_CE0  = NRL;            // crossbar client of CE n: CLI_CE0 + n
  localparam int unsigned CLI_ATOM = NRL + NCE;
  localparam int unsigned AQ_CE0   = NRL;            // atomic requester of CE n: AQ_CE0 + n
  localparam int unsigned CLI_SIMT = NRL + NCE + 1;  // u_simt's crossbar clients from here
  localparam int unsigned AQ_SIMT  = NRL + NCE;      // u_simt's atomic requesters from here
  localparam int unsigned NC_SIMT  = 1 + 2 * NUM_SM;
  localparam int unsigned NA_SIMT  = 1 + NUM_SM;
  localparam int unsigned NRES     = NUM_SM * WARPS * LANES;
  localparam int unsigned RTW      = (NRES > 1) ? $clog2(NRES) : 1;
  localparam int unsigned RLW      = GC_CHANNEL_RUNLIST_ID_W;
  localparam int unsigned ILW      = GC_CHANNEL_INTERLEAVE_LEVEL_W;

  if (NCE != 2 || NRL != NCE + 1) begin : g_bad_cfg
    $error("gpu_top: written for NUM_CE = 2 copy engines (u_ce0, u_ce1) and NUM_RUNLISTS = NUM_CE + 1");
  end
  if (NUM_SM < 1 || NCLI > (1 << IW)) begin : g_bad_sm
    $error("gpu_top: NUM_SM must be 1..%0d (every crossbar client needs its own AXI ID)",
           ((1 << IW) - (NRL + NCE + 2)) / 2);
  end

  // ------------------------------------------------------------------------------------------
  // Register block <-> PBDMAs
  // ------------------------------------------------------------------------------------------
  logic [NCH-1:0]           ch_enable, ch_err, ch_reset;
  logic [NCH-1:0][AW-1:0]   ch_gpfifo_base;
  logic [NCH-1:0][LW-1:0]   ch_gpfifo_log2;
  logic [NCH-1:0][31:0]     ch_gp_put;
  logic [NCH-1:0][gc_pbdma_pkg::GPI_W-1:0] ch_gp_get;   // GPFIFO indices
  logic [NCH-1:0][RLW-1:0]  ch_runlist;
  logic [NCH-1:0][31:0]     ch_timeslice, ch_acq_timeout;
  logic [NCH-1:0][ILW-1:0]  ch_interleave;
  logic [31:0]              acq_retry;
  logic [63:0]              cycle;       // cycles since reset: the PBDMAs' timers
  logic [63:0]              time_base;   // GLOBAL.CYCLE, the time base: what the device stamps

  logic [NRL-1:0]            gp_get_we, fault_valid, mthd_inc, pbdma_nonstall, sw_valid;
  logic [NRL-1:0][CH_W-1:0]  gp_get_ch, fault_ch, mthd_ch, sw_ch;
  logic [NRL-1:0][gc_pbdma_pkg::GPI_W-1:0] gp_get_val, fault_gp_get;
  gc_pbdma_pkg::mref_t [NRL-1:0] fault_method;
  logic [NRL-1:0][31:0]      fault_data;
  error_cause_e              fault_cause [NRL];
  logic [NRL-1:0][3:0]       sw_cause;
  logic [NRL-1:0][NCH-1:0]   rl_resident, rl_acq_blk, rl_eng_busy, rl_in_entry;
  logic [NCH-1:0]            ch_resident, ch_acq_blk, ch_eng_busy, ch_in_entry;

  pbdma_state_e                                dbg_pbdma_state [NRL];
  logic [NRL-1:0][GC_RUNLIST_DBG_CHANNEL_W-1:0] dbg_pbdma_ch;
  logic [NRL-1:0][GC_RUNLIST_DBG_PB_LEFT_W-1:0] dbg_pbdma_pb_left;

  // Engine command ports (gc_eng_pkg): PBDMA n -> copy engine n-1; runlist 0 -> u_simt (which
  // takes only the TMD address cmd.src and the channel)
  eng_req_t [NRL-1:0]       eng_req;
  eng_rsp_t [NRL-1:0]       eng_rsp;

  // Copy engines
  logic [NCE-1:0]                              ce_intr;
  logic [NCE-1:0][GC_ENGINE_DBG_STATE_W-1:0]   ce_state;
  logic [NCE-1:0][GC_ENGINE_DBG_RD_OUT_W-1:0]  ce_rd_out;
  logic [NCE-1:0][GC_ENGINE_DBG_CHANNEL_W-1:0] ce_ch;
  logic [NCE-1:0][31:0]                        ce_bytes, ce_busy_cycles;

  // Atomic unit requests (PBDMAs, then copy engines: their aq_req_t / aq_rsp_t ports, then
  // u_simt's)
  aq_req_t [AQ_SIMT-1:0]    aq_req;
  aq_rsp_t [AQ_SIMT-1:0]    aq_rsp;
  logic [NAQ-1:0]           aq_valid, aq_ready, aq_signed, as_valid;
  logic [NAQ-1:0][1:0]      aq_op, aq_size;
  logic [NAQ-1:0][GC_HOST_SEM_EXECUTE_REDUCTION_W-1:0] aq_red;
  logic [NAQ-1:0][AW-1:0]   aq_addr;
  logic [NAQ-1:0][63:0]     aq_wdata;
  logic [NAQ-1:0][1:0]      aq_xop;
  logic [NAQ-1:0][RTW-1:0]  aq_rtag;
  logic [63:0]              as_rdata;
  logic                     as_err;
  wsnoop_t                  snoop;               // the crossbar's write snoop (acquire wake)
  logic [NRL-1:0]           pf_busy;             // a PBDMA's prefetch unit holds data
  logic [NRL-1:0]           pbdma_still;         // a PBDMA waits for its engine, nothing changes
  logic [NUM_SM-1:0]        st_valid;            // the SMs' global store bursts (LR/SC breaks)
  logic [NUM_SM-1:0][AW-1:0] st_addr;
  logic [NUM_SM-1:0][31:0]  st_wmask;

  // Crossbar client ports (one variable per client: rtl/gc_mem_xbar.sv says why), the
  // crossbar's AXI4 master, the register block's AXI4-Lite slave
  cli_req_t                 c_req [NCLI];
  cli_rsp_t                 c_rsp [NCLI];
  cli_req_t [NC_SIMT-1:0]   simt_req;            // u_simt's clients (its ports are packed arrays)
  cli_rsp_t [NC_SIMT-1:0]   simt_rsp;
  axi_req_t                 m_req;
  axi_rsp_t                 m_rsp;
  lite_req_t                s_req;
  lite_rsp_t                s_rsp;
  // the clients' valids the clock gates watch (writes: u_simt's clients only)
  logic [NCLI-1:0]          c_arvalid, c_rvalid, c_bvalid;
  logic [NC_SIMT-1:0]       simt_awvalid, simt_wvalid;
  for (genvar i = 0; i < NCLI; i++) begin : g_cli_valid
    assign {c_arvalid[i], c_rvalid[i], c_bvalid[i]} = {c_req[i].ar_valid, c_rsp[i].r_valid, c_rsp[i].b_valid};
  end
  for (genvar i = 0; i < NC_SIMT; i++) begin : g_simt_cli
    assign c_req[CLI_SIMT + i] = simt_req[i];
    assign simt_rsp[i]         = c_rsp[CLI_SIMT + i];
  end
  for (genvar i = 0; i < NC_SIMT; i++) begin : g_simt_wvalid
    assign {simt_awvalid[i], simt_wvalid[i]} = {c_req[CLI_SIMT + i].aw_valid, c_req[CLI_SIMT + i].w_valid};
  end

  // Compute engine
  logic                     simt_nonstall, simt_task_fault, simt_task_fault_pend;
  logic [31:0][31:0]        simt_regs;
  logic                     simt_launch_fail, simt_launch_fail_pend;
  logic [AW-1:0]            tmu_log_base;
  logic                     tmu_log_en, tmu_log_ctrl_we, tmu_no_evict;
  logic [GC_COMPUTE_LOG_CTRL_SIZE_LOG2_W-1:0] tmu_log_size_log2;

  // ------------------------------------------------------------------------------------------
  // Engine clock gates. busy_* is each engine's "cannot stop now": in every cycle it is 0 (and
  // HOLD more) no register of the engine would change, so stopping its clock changes nothing:
  //   PBDMA n   in IDLE with no channel of its runlist having GPFIFO work, blocked on an acquire,
  //             waiting for its engine or saved mid-entry; no read, atomic or engine handshake or
  //             response and no pulse on its outputs; no channel reset and no register write in
  //             progress (any of which may make a channel runnable). In IDLE with none of these
  //             the scheduler finds nothing to select; its owner bookkeeping settles within the
  //             HOLD cycles (an owner holding its slice for an engine is dropped at once when the
  //             engine is idle); its free-running slice / turn / retry timers are only read for an
  //             owner, a guest or a blocked channel, and restart when one is selected or blocked.
  //             Also not busy, whatever the above, while the PBDMA says it is still (still_o):
  //             it only waits for its engine, in ENGINE_WAIT (the resident channel's next
  //             method, or a WFI / RELEASE_WFI / LAUNCH_DMA, waits for its copy or task, or for
  //             another channel's copy) or in IDLE with the owner holding its slice for its
  //             engine and no guest to run, and each of its parts reports that none of its
  //             registers changes in this cycle, from the very conditions of their writes
  //             (gc_pbdma.sv, "gating"), given no R beat for it at the port (c_rvalid: from
  //             the pins, so it stays out of still_o and is a busy term of its own, keeping
  //             still_o off the input-combinational path; a beat in the PBDMA's R stage, a
  //             register, clears the fetch's still_o). That is exact cycle by cycle, whatever came before:
  //             the gate may stop the clock in any cycle in which no register would change. The
  //             events that end such a wait clear still_o in the cycle they show: the engine's
  //             done, a doorbell that makes another channel a guest, a slice or turn that
  //             expires (a switch or a renewal writes), an acquire's retry or timeout, a
  //             CTRL.RESET, an error, a register write that changes what the PBDMA reads, a
  //             snooped write over prefetched or awaited data, the prefetch unit's pick of a
  //             target. The IDLE argument above still holds: its condition (not IDLE, a channel
  //             waiting for its engine, ...) never falls right after a still cycle, since still_o
  //             keeps the FSM's state and the engine's work in flight (ENGINE_WAIT: not IDLE;
  //             IDLE: the owner's copy or task in flight, rl_eng_busy), so it falls only after a
  //             busy cycle and its HOLD cycles run as before.
  //   CE n      in IDLE with no command offered: every register holds (the state machine leaves
  //             IDLE only on a command; the busy-cycle counter counts only outside IDLE).
  //   u_simt    gc_compute's idle_o (no task entry, every state machine idle, no active warp, no
  //             event from the SMs), no launch offered, no task-log control write, and none of
  //             its memory or atomic ports active.
  // ------------------------------------------------------------------------------------------
  localparam int unsigned GATE_HOLD = 8;
  logic [NCH-1:0]  ch_work;             // enabled, no error, GP_GET != GP_PUT
  logic            reg_wr;              // a register write in progress
  logic [NRL-1:0]  busy_pbdma, gated_pbdma, clk_pbdma;
  logic [NCE-1:0]  busy_ce, gated_ce, clk_ce;
  logic            busy_simt, gated_simt, clk_simt, simt_idle;
  logic            clk_gate_dis;        // GLOBAL.CLOCK_GATING.DISABLE: every engine clock runs

  // The per-channel loops read only registers: kept apart from the terms that follow pins
  // (reg_wr, the crossbar's valids), so Verilator evaluates them once per cycle, not in its
  // input-combinational region at both evaluations (rtl/README.md, "Simulation cost").
  logic [NRL-1:0]  rl_work;             // a channel of the runlist has GPFIFO work
  always_comb begin
    for (int c = 0; c < NCH; c++) begin
      ch_work[c] = ch_enable[c] && !ch_err[c] && (ch_gp_put[c] != 32'(ch_gp_get[c]));
    end
    for (int n = 0; n < NRL; n++) begin
      rl_work[n] = 1'b0;
      for (int c = 0; c < NCH; c++) rl_work[n] = rl_work[n] || (ch_work[c] && (32'(ch_runlist[c]) == n));
    end
  end
  assign reg_wr = s_awvalid_i || s_wvalid_i;
  // The terms from registers (and from engine outputs) in blocks of their own, the pin terms
  // (an R or B beat for the engine at the port, a register write on the BAR0 pins) added
  // apart: a block that reads one pin-dependent bit is evaluated at both of the harness's
  // evaluations per cycle (rtl/README.md, "Simulation cost").
  logic [NRL-1:0]  busy_pbdma_r;        // busy_pbdma without its pin terms (busy_ce_r, busy_simt_r: likewise)
  logic [NCE-1:0]  busy_ce_r;
  logic            busy_simt_r;
  always_comb begin
    for (int n = 0; n < NRL; n++) begin
      busy_pbdma_r[n] = rl_work[n] || (ch_reset != '0) || (dbg_pbdma_state[n] != PBDMA_STATE_IDLE) ||
                        (rl_acq_blk[n] != '0) || (rl_eng_busy[n] != '0) || (rl_in_entry[n] != '0) ||
                        c_arvalid[n] || aq_valid[n] || as_valid[n] || eng_req[n].valid ||
                        eng_rsp[n].done || gp_get_we[n] || fault_valid[n] || mthd_inc[n] || sw_valid[n] ||
                        pbdma_nonstall[n] || pf_busy[n];
    end
    for (int n = 0; n < NCE; n++) begin
      busy_ce_r[n] = (ce_state[n] != GC_ENGINE_DBG_STATE_W'(CE_STATE_IDLE)) || eng_req[n + 1].valid ||
                     as_valid[AQ_CE0 + n];
    end
    busy_simt_r = !simt_idle || eng_req[0].valid || tmu_log_ctrl_we ||
                  (c_arvalid[CLI_SIMT +: NC_SIMT] != '0) || (simt_awvalid != '0) || (simt_wvalid != '0) ||
                  (aq_valid[AQ_SIMT +: NA_SIMT] != '0) || (as_valid[AQ_SIMT +: NA_SIMT] != '0);
  end
  always_comb begin
    for (int n = 0; n < NRL; n++) begin
      busy_pbdma[n] = clk_gate_dis || c_rvalid[n] || (!pbdma_still[n] && (busy_pbdma_r[n] || reg_wr));
    end
    for (int n = 0; n < NCE; n++) begin
      busy_ce[n] = clk_gate_dis || busy_ce_r[n] || c_rvalid[CLI_CE0 + n] || c_bvalid[CLI_CE0 + n];
    end
    busy_simt = clk_gate_dis || busy_simt_r || (c_rvalid[CLI_SIMT +: NC_SIMT] != '0) ||
                (c_bvalid[CLI_SIMT +: NC_SIMT] != '0);
  end

  for (genvar n = 0; n < NRL; n++) begin : g_gate_pbdma
    gc_idle_gate #(.HOLD (GATE_HOLD)) u_gate (
      .clk_i, .rst_ni, .busy_i (busy_pbdma[n]), .clk_o (clk_pbdma[n]), .gated_o (gated_pbdma[n])
    );
  end
  for (genvar n = 0; n < NCE; n++) begin : g_gate_ce
    gc_idle_gate #(.HOLD (GATE_HOLD)) u_gate (
      .clk_i, .rst_ni, .busy_i (busy_ce[n]), .clk_o (clk_ce[n]), .gated_o (gated_ce[n])
    );
  end
  gc_idle_gate #(.HOLD (GATE_HOLD)) u_gate_simt (
    .clk_i, .rst_ni, .busy_i (busy_simt), .clk_o (clk_simt), .gated_o (gated_simt)
  );

  always_comb begin
    ch_resident = '0;
    ch_acq_blk  = '0;
    ch_eng_busy = '0;
    ch_in_entry = '0;
    for (int r = 0; r < NRL; r++) begin
      ch_resident = ch_resident | rl_resident[r];
      ch_acq_blk  = ch_acq_blk  | rl_acq_blk[r];
      ch_eng_busy = ch_eng_busy | rl_eng_busy[r];
      ch_in_entry = ch_in_entry | rl_in_entry[r];
    end
  end

  // The flat pins of the harness boundary <-> the structs
  gc_axil_pins u_axil_pins (
    .s_req_o (s_req),
    .s_rsp_i (s_rsp),
    .*
  );
  gc_axi_pins u_axi_pins (
    .m_req_i (m_req),
    .m_rsp_o (m_rsp),
    .*
  );

  gc_mmio_regs u_regs (
    .clk_i,
    .rst_ni,
    .s_req_i             (s_req),
    .s_rsp_o             (s_rsp),
    .irq_o,
    .ch_enable_o         (ch_enable),
    .ch_err_o            (ch_err),
    .ch_gpfifo_base_o    (ch_gpfifo_base),
    .ch_gpfifo_log2_o    (ch_gpfifo_log2),
    .ch_gp_put_o         (ch_gp_put),
    .ch_gp_get_o         (ch_gp_get),
    .ch_reset_o          (ch_reset),
    .ch_runlist_o        (ch_runlist),
    .ch_timeslice_o      (ch_timeslice),
    .ch_interleave_o     (ch_interleave),
    .ch_acq_timeout_o    (ch_acq_timeout),
    .acq_retry_o         (acq_retry),
    .cycle_o             (cycle),
    .time_o              (time_base),
    .clk_gate_dis_o      (clk_gate_dis),
    .gated_i             ({gated_simt, gated_ce, gated_pbdma}),
    .gp_get_we_i         (gp_get_we),
    .gp_get_ch_i         (gp_get_ch),
    .gp_get_val_i        (gp_get_val),
    .fault_valid_i       (fault_valid),
    .fault_ch_i          (fault_ch),
    .fault_cause_i       (fault_cause),
    .fault_gp_get_i      (fault_gp_get),
    .fault_method_i      (fault_method),
    .fault_data_i        (fault_data),
    .mthd_inc_i          (mthd_inc),
    .mthd_ch_i           (mthd_ch),
    .nonstall_i          ((|pbdma_nonstall) | (|ce_intr) | simt_nonstall),
    .sw_valid_i          (sw_valid),
    .sw_ch_i             (sw_ch),
    .sw_cause_i          (sw_cause),
    .ch_resident_i       (ch_resident),
    .ch_acq_blk_i        (ch_acq_blk),
    .ch_eng_busy_i       (ch_eng_busy),
    .ch_in_entry_i       (ch_in_entry),
    .dbg_pbdma_state_i   (dbg_pbdma_state),
    .dbg_pbdma_ch_i      (dbg_pbdma_ch),
    .dbg_pbdma_pb_left_i (dbg_pbdma_pb_left),
    .dbg_ce_state_i      (ce_state),
    .dbg_ce_rd_out_i     (ce_rd_out),
    .dbg_ce_ch_i         (ce_ch),
    .ce_bytes_i          (ce_bytes),
    .ce_busy_cycles_i    (ce_busy_cycles),
    .cp_regs_i           (simt_regs),
    .task_fault_i        (simt_task_fault),
    .task_fault_pend_o   (simt_task_fault_pend),
    .launch_fail_i       (simt_launch_fail),
    .launch_fail_pend_o  (simt_launch_fail_pend),
    .log_base_o          (tmu_log_base),
    .log_en_o            (tmu_log_en),
    .log_size_log2_o     (tmu_log_size_log2),
    .log_ctrl_we_o       (tmu_log_ctrl_we),
    .no_evict_o          (tmu_no_evict)
  );

  // ------------------------------------------------------------------------------------------
  // One PBDMA + scheduler per runlist
  // ------------------------------------------------------------------------------------------
  for (genvar n = 0; n < NRL; n++) begin : u_pbdma
    gc_pbdma #(
      .RL (n)
    ) u_pbdma (
      .clk_i             (clk_pbdma[n]),
      .rst_ni,
      .ch_enable_i       (ch_enable),
      .ch_err_i          (ch_err),
      .ch_gpfifo_base_i  (ch_gpfifo_base),
      .ch_gpfifo_log2_i  (ch_gpfifo_log2),
      .ch_gp_put_i       (ch_gp_put),
      .ch_gp_get_i       (ch_gp_get),
      .ch_reset_i        (ch_reset),
      .ch_runlist_i      (ch_runlist),
      .ch_timeslice_i    (ch_timeslice),
      .ch_interleave_i   (ch_interleave),
      .ch_acq_timeout_i  (ch_acq_timeout),
      .acq_retry_i       (acq_retry),
      .gp_get_we_o       (gp_get_we[n]),
      .gp_get_ch_o       (gp_get_ch[n]),
      .gp_get_val_o      (gp_get_val[n]),
      .fault_valid_o     (fault_valid[n]),
      .fault_ch_o        (fault_ch[n]),
      .fault_cause_o     (fault_cause[n]),
      .fault_gp_get_o    (fault_gp_get[n]),
      .fault_method_o    (fault_method[n]),
      .fault_data_o      (fault_data[n]),
      .mthd_inc_o        (mthd_inc[n]),
      .mthd_ch_o         (mthd_ch[n]),
      .nonstall_o        (pbdma_nonstall[n]),
      .sw_valid_o        (sw_valid[n]),
      .sw_ch_o           (sw_ch[n]),
      .sw_cause_o        (sw_cause[n]),
      .ch_resident_o     (rl_resident[n]),
      .ch_acq_blk_o      (rl_acq_blk[n]),
      .ch_eng_busy_o     (rl_eng_busy[n]),
      .ch_in_entry_o     (rl_in_entry[n]),
      .dbg_state_o       (dbg_pbdma_state[n]),
      .dbg_ch_o          (dbg_pbdma_ch[n]),
      .dbg_pb_left_o     (dbg_pbdma_pb_left[n]),
      .eng_req_o         (eng_req[n]),
      .eng_rsp_i         (eng_rsp[n]),
      .aq_req_o          (aq_req[n]),
      .aq_rsp_i          (aq_rsp[n]),
      .now_i             (cycle),
      .work_i            (rl_work[n]),
      .snoop_i           (snoop),
      .pf_busy_o         (pf_busy[n]),
      .still_o           (pbdma_still[n]),
      .m_req_o           (c_req[n]),
      .m_rsp_i           (c_rsp[n])
    );
  end

  // ------------------------------------------------------------------------------------------
  // Compute engine and SMs: runlist 0
  // ------------------------------------------------------------------------------------------
  gc_simt #(
    .NSM   (NUM_SM),
    .NW    (WARPS),
    .NL    (LANES),
    .RTW   (RTW),
    .NSLOT (TASK_SLOTS),
    .NENT  (TASK_ENTRIES),
    .FPU   (FPU)
  ) u_simt (
    .clk_i             (clk_simt),
    .rst_ni,
    .cmd_valid_i       (eng_req[0].valid),
    .cmd_ready_o       (eng_rsp[0].ready),
    .cmd_tmd_i         (eng_req[0].cmd.src),
    .cmd_ch_i          (eng_req[0].cmd.ch),
    .done_o            (eng_rsp[0].done),
    .done_err_o        (eng_rsp[0].done_err),
    .done_ch_o         (eng_rsp[0].done_ch),
    .nonstall_o        (simt_nonstall),
    .task_fault_o      (simt_task_fault),
    .task_fault_pend_i (simt_task_fault_pend),
    .launch_fail_o     (simt_launch_fail),
    .launch_fail_pend_i (simt_launch_fail_pend),
    .log_base_i        (tmu_log_base),
    .log_en_i          (tmu_log_en),
    .log_size_log2_i   (tmu_log_size_log2),
    .log_ctrl_we_i     (tmu_log_ctrl_we),
    .no_evict_i        (tmu_no_evict),
    .regs_o            (simt_regs),
    .idle_o            (simt_idle),
    .timestamp_i       (time_base),
    .c_req_o           (simt_req),
    .c_rsp_i           (simt_rsp),
    .aq_valid_o        (aq_valid[AQ_SIMT +: NA_SIMT]),
    .aq_ready_i        (aq_ready[AQ_SIMT +: NA_SIMT]),
    .aq_op_o           (aq_op[AQ_SIMT +: NA_SIMT]),
    .aq_red_o          (aq_red[AQ_SIMT +: NA_SIMT]),
    .aq_signed_o       (aq_signed[AQ_SIMT +: NA_SIMT]),
    .aq_size_o         (aq_size[AQ_SIMT +: NA_SIMT]),
    .aq_addr_o         (aq_addr[AQ_SIMT +: NA_SIMT]),
    .aq_wdata_o        (aq_wdata[AQ_SIMT +: NA_SIMT]),
    .aq_xop_o          (aq_xop[AQ_SIMT +: NA_SIMT]),
    .aq_rtag_o         (aq_rtag[AQ_SIMT +: NA_SIMT]),
    .as_valid_i        (as_valid[AQ_SIMT +: NA_SIMT]),
    .as_rdata_i        (as_rdata),
    .as_err_i          (as_err),
    .st_valid_o        (st_valid),
    .st_addr_o         (st_addr),
    .st_wmask_o        (st_wmask)
  );
  // The PBDMAs' and copy engines' atomic requests: their ports onto the atomic unit's arrays;
  // they use no extended operation
  for (genvar i = 0; i < AQ_SIMT; i++) begin : g_aq
    assign aq_valid[i]  = aq_req[i].valid;
    assign aq_op[i]     = aq_req[i].op;
    assign aq_red[i]    = aq_req[i].red;
    assign aq_signed[i] = aq_req[i].is_signed;
    assign aq_size[i]   = aq_req[i].size;
    assign aq_addr[i]   = aq_req[i].addr;
    assign aq_wdata[i]  = aq_req[i].wdata;
    assign aq_rsp[i]    = '{ready: aq_ready[i], valid: as_valid[i], rdata: as_rdata, err: as_err};
  end
  assign aq_xop[AQ_SIMT-1:0]  = '0;
  assign aq_rtag[AQ_SIMT-1:0] = '0;

  // ------------------------------------------------------------------------------------------
  // Copy engines: CE n serves runlist n + 1
  // ------------------------------------------------------------------------------------------
  gc_copy_engine u_ce0 (
    .clk_i             (clk_ce[0]),
    .rst_ni,
    .eng_req_i         (eng_req[1]),
    .eng_rsp_o         (eng_rsp[1]),
    .cycle_i           (time_base[31:0]),
    .intr_o            (ce_intr[0]),
    .state_o           (ce_state[0]),
    .rd_out_o          (ce_rd_out[0]),
    .ch_o              (ce_ch[0]),
    .bytes_o           (ce_bytes[0]),
    .busy_cycles_o     (ce_busy_cycles[0]),
    .aq_req_o          (aq_req[AQ_CE0]),
    .aq_rsp_i          (aq_rsp[AQ_CE0]),
    .m_req_o       (c_req[CLI_CE0]),
    .m_rsp_i       (c_rsp[CLI_CE0])
  );

  gc_copy_engine u_ce1 (
    .clk_i             (clk_ce[1]),
    .rst_ni,
    .eng_req_i         (eng_req[2]),
    .eng_rsp_o         (eng_rsp[2]),
    .cycle_i           (time_base[31:0]),
    .intr_o            (ce_intr[1]),
    .state_o           (ce_state[1]),
    .rd_out_o          (ce_rd_out[1]),
    .ch_o              (ce_ch[1]),
    .bytes_o           (ce_bytes[1]),
    .busy_cycles_o     (ce_busy_cycles[1]),
    .aq_req_o          (aq_req[AQ_CE0 + 1]),
    .aq_rsp_i          (aq_rsp[AQ_CE0 + 1]),
    .m_req_o       (c_req[CLI_CE0 + 1]),
    .m_rsp_i       (c_rsp[CLI_CE0 + 1])
  );

  // ------------------------------------------------------------------------------------------
  // Atomic unit: every semaphore access (PBDMA SEM_EXECUTE, CE completion releases)
  // ------------------------------------------------------------------------------------------
  gc_atomic_unit #(
    .N    (NAQ),
    .NRES (NRES),
    .NST  (NUM_SM)
  ) u_atomic (
    .clk_i,
    .rst_ni,
    .aq_valid_i    (aq_valid),
    .aq_ready_o    (aq_ready),
    .aq_op_i       (aq_op),
    .aq_red_i      (aq_red),
    .aq_signed_i   (aq_signed),
    .aq_size_i     (aq_size),
    .aq_addr_i     (aq_addr),
    .aq_wdata_i    (aq_wdata),
    .aq_xop_i      (aq_xop),
    .aq_rtag_i     (aq_rtag),
    .as_valid_o    (as_valid),
    .as_rdata_o    (as_rdata),
    .as_err_o      (as_err),
    .timestamp_i   (time_base),
    .st_valid_i    (st_valid),
    .st_addr_i     (st_addr),
    .st_wmask_i    (st_wmask),
    .m_req_o   (c_req[CLI_ATOM]),
    .m_rsp_i   (c_rsp[CLI_ATOM])
  );

  gc_mem_xbar #(
    .N (NCLI)
  ) u_xbar (
    .clk_i,
    .rst_ni,
    .c_req_i (c_req),
    .c_rsp_o (c_rsp),
    .m_req_o (m_req),
    .m_rsp_i (m_rsp),
    .snoop_o (snoop)
  );

  // AXI protocol checkers at the device boundary (rtl/gc_axi_check.sv, rtl/gc_axil_check.sv).
  // Reads outstanding on one ID: an SM's load/store unit keeps the most
  // (gc_simt_pkg::sm_reads_max); the other clients (copy engines: RD_OUT_MAX <= 15, PBDMA
  // fetch, instruction caches, atomic unit) stay within 32.
  localparam int unsigned MEM_RD_MAX = (gc_simt_pkg::sm_reads_max(WARPS, LANES) > 32) ?
                                       gc_simt_pkg::sm_reads_max(WARPS, LANES) : 32;
  `GC_AXI_CHECK_M(u_axi_check, MEM_RD_MAX)
  gc_axil_check #(.AW(GC_MMIO_ADDR_W)) u_axil_check (
    .clk_i, .rst_ni,
    .awvalid_i (s_awvalid_i), .awready_i (s_awready_o), .awaddr_i (s_awaddr_i),
    .wvalid_i (s_wvalid_i), .wready_i (s_wready_o), .wdata_i (s_wdata_i), .wstrb_i (s_wstrb_i),
    .bvalid_i (s_bvalid_o), .bready_i (s_bready_i), .bresp_i (s_bresp_o),
    .arvalid_i (s_arvalid_i), .arready_i (s_arready_o), .araddr_i (s_araddr_i),
    .rvalid_i (s_rvalid_o), .rready_i (s_rready_i), .rdata_i (s_rdata_o), .rresp_i (s_rresp_o)
  );

  // Runlist 0's command fields the compute engine does not take (it takes cmd.src, the TMD
  // address, and cmd.ch)
  logic unused_top;
  assign unused_top = ^{eng_req[0].cmd};

endmodule
