// gc_mmio_regs: AXI4-Lite slave and the BAR0 registers of gpucosim (GLOBAL, RUNLIST, ENGINE and
// CHANNEL blocks of spec/gpucosim.yaml).
//
// AXI4-Lite: AW and W are accepted independently (one of each buffered); the write is performed
// once both are held and no B response is pending. One read is outstanding at a time. Offsets
// that no register names answer SLVERR (reads return 0, writes are ignored); writes to read-only
// registers answer OKAY and are ignored. wstrb is honoured (unstrobed bytes keep their value).
//
// The register block owns the channel configuration and exports it to the PBDMA as arrays indexed
// by channel. It takes back GP_GET updates, fault records, method-count increments and the
// non-stall interrupt pulse. Faults: first error wins (a fault is recorded only while the
// channel's ERROR.CAUSE is NONE). A CTRL.RESET write clears the channel's error record, GP_GET,
// GP_PUT and ENABLE and pulses ch_reset_o[ch] to the PBDMA; the reset takes priority over any
// PBDMA update of the same channel in the same cycle. METHODS and the scheduler counters
// (CYCLES_RESIDENT, SWITCH_*, ACQ_BLOCKED_CYCLES, RUNLIST.SWITCHES) are free-running 32-bit
// counters (they wrap) and are not cleared by a reset; TIMESLICE, INTERLEAVE, ACQ_TIMEOUT and
// RUNLIST keep their values across a reset too (configuration, like GPFIFO_BASE).
// The counters update only on their events, by index: METHODS / SWITCH_* / GP_GET when a PBDMA
// reports one, CYCLES_RESIDENT / ACQ_BLOCKED_CYCLES and the *.GATED_CYCLES counters as
// timestamps (gc_level_cycles: the edges of the counted condition are recorded, a read adds the
// running stretch), so nothing here is evaluated per channel and per cycle, and every count is
// exact across stretches where the engines' clocks are stopped.
//
// Two counts of time: cycle_o counts the cycles since reset (the PBDMAs' timers and the level
// counters here measure stretches with it), time_o is GLOBAL.CYCLE, the time base the device
// stamps (the atomic unit's timestamps, the copy engines' start stamps, the SIMT CYCLE CSRs). They
// are equal until the host writes CYCLE_LO (CYCLE_HI first), which moves only the time base, so a
// write never ends a time slice, fires an acquire timeout or changes a *_CYCLES counter.
//
// Clock gating (gpu_top): GLOBAL.CLOCK_GATING.DISABLE is exported on clk_gate_dis_o; gated_i
// reports, per engine (PBDMAs 0..NRL-1, copy engines, then the compute engine), the cycles whose
// clock edge was stopped: RUNLIST.GATED_CYCLES, ENGINE.GATED_CYCLES, COMPUTE.GATED_CYCLES.
//
// COMPUTE block: the read-only values are computed by the compute engine (cp_regs_i, indexed by
// the register offset in the block / 4); the rw registers LOG_BASE_LO / HI, LOG_CTRL and TMU_CTRL
// (reset 0) are kept here, read back here and exported to the engine (log_*_o, no_evict_o;
// log_ctrl_we_o pulses when LOG_CTRL is written: the engine then sets LOG_PUT to 0).
// task_fault_i / launch_fail_i set INTR_STATUS.TASK_FAULT / LAUNCH_FAIL and task_fault_pend_o /
// launch_fail_pend_o tell the engine the bit is set (its first-event record is kept meanwhile).
//
// One PBDMA per runlist: the PBDMA-side ports are arrays indexed by runlist. A channel is served
// by one runlist at a time, so updates of the same channel from two runlists in one cycle cannot
// normally happen; if they do (RUNLIST.ID changed under a running channel), the lower runlist
// index wins for faults and GP_GET, and counter increments of both are taken.
module gc_mmio_regs
  import gpucosim_pkg::*;
  import gc_axi_pkg::*;
  import gc_pbdma_pkg::GPI_W;   // a GPFIFO index (GP_GET): GP_GET / ERROR_GP_GET zero-extend it
  import gc_pbdma_pkg::mref_t;  // a fault's method: ERROR_METHOD's fields
#(
  localparam int unsigned NCH  = GC_NUM_CHANNELS,
  localparam int unsigned CH_W = $clog2(NCH),
  localparam int unsigned AW   = GC_MMIO_ADDR_W,
  localparam int unsigned LW   = GC_CHANNEL_GPFIFO_SIZE_LOG2_W,
  localparam int unsigned NRL  = GC_NUM_RUNLISTS,
  localparam int unsigned NCE  = GC_NUM_CE,
  localparam int unsigned RLW  = GC_CHANNEL_RUNLIST_ID_W,
  localparam int unsigned ILW  = GC_CHANNEL_INTERLEAVE_LEVEL_W,
  localparam int unsigned NCPREG = 32                     // COMPUTE block words
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,

  // AXI4-Lite slave (BAR0)
  input  lite_req_t            s_req_i,
  output lite_rsp_t            s_rsp_o,

  output logic                 irq_o,

  // Channel configuration / status to the PBDMA
  output logic [NCH-1:0]                    ch_enable_o,
  output logic [NCH-1:0]                    ch_err_o,         // ERROR.CAUSE != NONE
  output logic [NCH-1:0][GC_AXI_ADDR_W-1:0] ch_gpfifo_base_o,
  output logic [NCH-1:0][LW-1:0]            ch_gpfifo_log2_o,
  output logic [NCH-1:0][31:0]              ch_gp_put_o,
  output logic [NCH-1:0][GPI_W-1:0]         ch_gp_get_o,
  output logic [NCH-1:0]                    ch_reset_o,       // 1-cycle pulse per CTRL.RESET
  output logic [NCH-1:0][RLW-1:0]           ch_runlist_o,
  output logic [NCH-1:0][31:0]              ch_timeslice_o,
  output logic [NCH-1:0][ILW-1:0]           ch_interleave_o,
  output logic [NCH-1:0][31:0]              ch_acq_timeout_o,
  output logic [31:0]                       acq_retry_o,      // GLOBAL.ACQ_RETRY_INTERVAL
  output logic [63:0]                       cycle_o,          // free-running cycle count (timers)
  output logic [63:0]                       time_o,           // the time base (GLOBAL.CYCLE: stamps)
  output logic                              clk_gate_dis_o,   // GLOBAL.CLOCK_GATING.DISABLE
  input  logic [NRL+NCE:0]                  gated_i,          // engine clocks stopped this cycle

  // From the PBDMAs (one per runlist)
  input  logic [NRL-1:0]                 gp_get_we_i,
  input  logic [NRL-1:0][CH_W-1:0]       gp_get_ch_i,
  input  logic [NRL-1:0][GPI_W-1:0]      gp_get_val_i,
  input  logic [NRL-1:0]                 fault_valid_i,
  input  logic [NRL-1:0][CH_W-1:0]       fault_ch_i,
  input  error_cause_e                   fault_cause_i [NRL],
  input  logic [NRL-1:0][GPI_W-1:0]      fault_gp_get_i,
  input  mref_t [NRL-1:0]                fault_method_i,   // ERROR_METHOD's fields
  input  logic [NRL-1:0][31:0]           fault_data_i,
  input  logic [NRL-1:0]                 mthd_inc_i,
  input  logic [NRL-1:0][CH_W-1:0]       mthd_ch_i,
  input  logic                           nonstall_i,       // sets INTR_STATUS.NON_STALL
  input  logic [NRL-1:0]                 sw_valid_i,       // a channel switched away
  input  logic [NRL-1:0][CH_W-1:0]       sw_ch_i,
  input  logic [NRL-1:0][3:0]            sw_cause_i,       // one-hot, see SW_* below
  input  logic [NCH-1:0]                 ch_resident_i,    // STATUS.RESIDENT, CYCLES_RESIDENT
  input  logic [NCH-1:0]                 ch_acq_blk_i,     // STATUS.ACQ_BLOCKED, ACQ_BLOCKED_CYCLES
  input  logic [NCH-1:0]                 ch_eng_busy_i,    // STATUS.ENGINE_BUSY
  input  logic [NCH-1:0]                 ch_in_entry_i,    // STATUS.PENDING (with GP_GET != GP_PUT)

  // Debug / status inputs
  input  pbdma_state_e                              dbg_pbdma_state_i [NRL],
  input  logic [NRL-1:0][GC_RUNLIST_DBG_CHANNEL_W-1:0] dbg_pbdma_ch_i,
  input  logic [NRL-1:0][GC_RUNLIST_DBG_PB_LEFT_W-1:0] dbg_pbdma_pb_left_i,
  input  logic [NCE-1:0][GC_ENGINE_DBG_STATE_W-1:0]    dbg_ce_state_i,
  input  logic [NCE-1:0][GC_ENGINE_DBG_RD_OUT_W-1:0]   dbg_ce_rd_out_i,
  input  logic [NCE-1:0][GC_ENGINE_DBG_CHANNEL_W-1:0]  dbg_ce_ch_i,
  input  logic [NCE-1:0][31:0]                         ce_bytes_i,
  input  logic [NCE-1:0][31:0]                         ce_busy_cycles_i,

  // Compute engine
  input  logic [NCPREG-1:0][31:0]                      cp_regs_i,
  input  logic                                         task_fault_i,
  output logic                                         task_fault_pend_o,
  input  logic                                         launch_fail_i,
  output logic                                         launch_fail_pend_o,
  output logic [GC_AXI_ADDR_W-1:0]                     log_base_o,       // COMPUTE.LOG_BASE_HI/LO
  output logic                                         log_en_o,         // LOG_CTRL.ENABLE
  output logic [GC_COMPUTE_LOG_CTRL_SIZE_LOG2_W-1:0]   log_size_log2_o,  // LOG_CTRL.SIZE_LOG2
  output logic                                         log_ctrl_we_o,    // LOG_CTRL written
  output logic                                         no_evict_o        // TMU_CTRL.NO_EVICT
);

  // AXI response codes (AXI4 protocol constants, not device encodings)
  localparam logic [1:0] RESP_OKAY   = 2'b00;
  localparam logic [1:0] RESP_SLVERR = 2'b10;

  localparam int unsigned HI_W = GC_AXI_ADDR_W - 32;  // GPFIFO_BASE_HI bits used
  localparam int unsigned ENTRY_LSB = 3;              // 8-byte GPFIFO entries: base bits 2:0 are 0

  localparam logic [31:0] INTR_CF = 32'(1) << GC_GLOBAL_INTR_STATUS_CHANNEL_FAULT_LSB;
  localparam logic [31:0] INTR_NS = 32'(1) << GC_GLOBAL_INTR_STATUS_NON_STALL_LSB;
  localparam logic [31:0] INTR_TF = 32'(1) << GC_GLOBAL_INTR_STATUS_TASK_FAULT_LSB;
  localparam logic [31:0] INTR_LF = 32'(1) << GC_GLOBAL_INTR_STATUS_LAUNCH_FAIL_LSB;
  localparam logic [31:0] INTR_MASK = INTR_CF | INTR_NS | INTR_TF | INTR_LF;
  // INTR_STATUS / INTR_ENABLE hold only the interrupt bits: the bits above the highest are 0
  localparam int unsigned INTR_W = $clog2(INTR_MASK + 32'd1);
  localparam int unsigned LOG_LSB = 4;                // 16-byte log records: base bits 3:0 are 0

  // Reset values of the scheduler configuration (spec/gpucosim.yaml register docs)
  localparam int unsigned RL_IW = (NRL > 1) ? $clog2(NRL) : 1;  // runlist index width
  localparam logic [31:0] TIMESLICE_RESET = 32'd1024;
  localparam logic [31:0] ACQ_RETRY_RESET = 32'd64;

  // sw_cause_i bits (project-internal, as in gc_pbdma)
  localparam int unsigned SW_TIMESLICE = 0;
  localparam int unsigned SW_ACQUIRE   = 1;
  localparam int unsigned SW_ENGINE    = 2;
  localparam int unsigned SW_EMPTY     = 3;

  // ------------------------------------------------------------------------------------------
  // State
  // ------------------------------------------------------------------------------------------
  // GPFIFO_BASE_LO / _HI of each channel, kept as the address the PBDMA reads (ch_gpfifo_base_o
  // is this register: no per-cycle packing); bits ENTRY_LSB-1:0 stay 0.
  logic [NCH-1:0][GC_AXI_ADDR_W-1:0] base_q;
  logic [NCH-1:0][LW-1:0]        log2_q;
  logic [NCH-1:0][31:0]          gp_put_q;
  logic [NCH-1:0][GPI_W-1:0]     gp_get_q;
  logic [NCH-1:0]                enable_q;
  logic [NCH-1:0][GC_CHANNEL_RUNLIST_ID_W-1:0] runlist_q;
  // ERROR.CAUSE, kept in the bits the largest cause needs (the field's upper bits are always 0)
  logic [GC_ERROR_CAUSE_VALUE_BITS-1:0] err_cause_q [NCH];
  logic [NCH-1:0]                err_map_q;        // err_cause_q[c] != NONE
  // (unpacked: written by index on events, never copied whole)
  logic [GPI_W-1:0]              err_gp_get_q [NCH];
  mref_t                         err_method_q [NCH];
  logic [31:0]                   err_data_q   [NCH];
  logic [31:0]                   methods_q    [NCH];
  logic [NCH-1:0][31:0]          timeslice_q, acq_timeout_q;
  logic [NCH-1:0][ILW-1:0]       interleave_q;
  logic [31:0]                   sw_ts_q [NCH], sw_acq_q [NCH], sw_eng_q [NCH], sw_empty_q [NCH];
  logic [31:0]                   rl_switches_q [NRL];
  logic [31:0]                   acq_retry_q;
  logic                          clk_gate_dis_q;

  logic [INTR_W-1:0] intr_status_q, intr_enable_q;

  // COMPUTE rw registers
  logic [31:LOG_LSB]                          log_base_lo_q;
  logic [HI_W-1:0]                            log_base_hi_q;
  logic                                       log_en_q;
  logic [GC_COMPUTE_LOG_CTRL_SIZE_LOG2_W-1:0] log_size_q;
  logic                                       no_evict_q;
  logic [63:0] cycle_q;      // cycles since reset: the timers' and level counters' count
  logic [63:0] time_q;       // GLOBAL.CYCLE, the time base: cycle_q until the host writes it
  logic [31:0] cycle_hi_q;   // CYCLE_HI: latched by a CYCLE_LO read, or written

  // AXI4-Lite channel buffers
  logic          aw_have_q, w_have_q, b_valid_q, r_valid_q;
  logic [AW-1:0] aw_addr_q;
  logic [31:0]   w_data_q;
  logic [3:0]    w_strb_q;
  logic [1:0]    b_resp_q, r_resp_q;
  logic [31:0]   r_data_q;

  // ------------------------------------------------------------------------------------------
  // Address decode and read mux
  // ------------------------------------------------------------------------------------------
  typedef enum logic [2:0] {
    BLK_GLOBAL  = 3'd0,
    BLK_RUNLIST = 3'd1,
    BLK_ENGINE  = 3'd2,
    BLK_CHANNEL = 3'd3,
    BLK_COMPUTE = 3'd4
  } blk_e;

  typedef struct packed {
    logic            hit;     // a register of the map
    blk_e            blk;
    logic [CH_W-1:0] ch;      // channel, runlist or engine index
    logic [15:0]     off;     // offset within the block (GLOBAL: the absolute offset)
  } dec_t;

  function automatic dec_t decode(input logic [AW-1:0] addr);
    dec_t d;
    logic [15:0] a, rel, idx;
    d = '0;
    a = 16'(addr);
    a[1:0] = 2'b00;
    if (a >= GC_REG_RUNLIST_BASE &&
        32'(a) < 32'(GC_REG_RUNLIST_BASE) + NRL * 32'(GC_REG_RUNLIST_STRIDE)) begin
      rel = a - GC_REG_RUNLIST_BASE;
      d.blk = BLK_RUNLIST;
      d.off = rel % GC_REG_RUNLIST_STRIDE;
      d.ch  = CH_W'(rel / GC_REG_RUNLIST_STRIDE);
      unique case (d.off)
        GC_REG_RUNLIST_DBG, GC_REG_RUNLIST_SWITCHES, GC_REG_RUNLIST_GATED_CYCLES: d.hit = 1'b1;
        default: d.hit = 1'b0;
      endcase
    end else if (a >= GC_REG_ENGINE_BASE &&
                 32'(a) < 32'(GC_REG_ENGINE_BASE) + NCE * 32'(GC_REG_ENGINE_STRIDE)) begin
      rel = a - GC_REG_ENGINE_BASE;
      d.blk = BLK_ENGINE;
      d.off = rel % GC_REG_ENGINE_STRIDE;
      d.ch  = CH_W'(rel / GC_REG_ENGINE_STRIDE);
      unique case (d.off)
        GC_REG_ENGINE_DBG, GC_REG_ENGINE_BYTES, GC_REG_ENGINE_BUSY_CYCLES,
        GC_REG_ENGINE_GATED_CYCLES: d.hit = 1'b1;
        default: d.hit = 1'b0;
      endcase
    end else if (a >= GC_REG_COMPUTE_BASE && a < GC_REG_CHANNEL_BASE) begin
      d.blk = BLK_COMPUTE;
      d.off = a - GC_REG_COMPUTE_BASE;
      unique case (a)
        GC_REG_COMPUTE_CONFIG, GC_REG_COMPUTE_DBG, GC_REG_COMPUTE_TASK, GC_REG_COMPUTE_FAULT_CAUSE,
        GC_REG_COMPUTE_FAULT_PC, GC_REG_COMPUTE_FAULT_ADDR, GC_REG_COMPUTE_FAULT_LOC,
        GC_REG_COMPUTE_FAULT_TASK, GC_REG_COMPUTE_FAULT_CHANNEL, GC_REG_COMPUTE_TASKS,
        GC_REG_COMPUTE_CTAS, GC_REG_COMPUTE_WARP_INSTRS, GC_REG_COMPUTE_THREAD_INSTRS,
        GC_REG_COMPUTE_ACTIVE_CYCLES, GC_REG_COMPUTE_ICACHE_MISSES,
        GC_REG_COMPUTE_LSU_BEATS, GC_REG_COMPUTE_TMU_CONFIG, GC_REG_COMPUTE_EVICTIONS,
        GC_REG_COMPUTE_DEV_LAUNCHES, GC_REG_COMPUTE_LAUNCH_FAILS, GC_REG_COMPUTE_LAUNCH_FAIL,
        GC_REG_COMPUTE_LAUNCH_FAIL_TASK, GC_REG_COMPUTE_LOG_BASE_LO, GC_REG_COMPUTE_LOG_BASE_HI,
        GC_REG_COMPUTE_LOG_CTRL, GC_REG_COMPUTE_LOG_PUT, GC_REG_COMPUTE_TMU_CTRL,
        GC_REG_COMPUTE_CAPS, GC_REG_COMPUTE_GATED_CYCLES: d.hit = 1'b1;
        default: d.hit = 1'b0;
      endcase
    end else if (a < GC_REG_CHANNEL_BASE) begin
      d.blk = BLK_GLOBAL;
      d.off = a;
      unique case (a)
        GC_REG_GLOBAL_ID, GC_REG_GLOBAL_VERSION, GC_REG_GLOBAL_CONFIG, GC_REG_GLOBAL_INTR_STATUS,
        GC_REG_GLOBAL_INTR_ENABLE, GC_REG_GLOBAL_CYCLE_LO, GC_REG_GLOBAL_CYCLE_HI,
        GC_REG_GLOBAL_FAULT_CHANNELS, GC_REG_GLOBAL_ACQ_RETRY_INTERVAL,
        GC_REG_GLOBAL_CLOCK_GATING: d.hit = 1'b1;
        default: d.hit = 1'b0;
      endcase
    end else begin
      d.blk = BLK_CHANNEL;
      rel = a - GC_REG_CHANNEL_BASE;
      idx = rel / GC_REG_CHANNEL_STRIDE;
      d.off = rel % GC_REG_CHANNEL_STRIDE;
      d.ch = CH_W'(idx);
      if (32'(idx) < NCH) begin
        unique case (d.off)
          GC_REG_CHANNEL_GPFIFO_BASE_LO, GC_REG_CHANNEL_GPFIFO_BASE_HI, GC_REG_CHANNEL_GPFIFO_SIZE,
          GC_REG_CHANNEL_GP_PUT, GC_REG_CHANNEL_GP_GET, GC_REG_CHANNEL_CTRL, GC_REG_CHANNEL_RUNLIST,
          GC_REG_CHANNEL_ERROR, GC_REG_CHANNEL_ERROR_GP_GET, GC_REG_CHANNEL_ERROR_METHOD,
          GC_REG_CHANNEL_ERROR_DATA, GC_REG_CHANNEL_METHODS, GC_REG_CHANNEL_TIMESLICE,
          GC_REG_CHANNEL_INTERLEAVE, GC_REG_CHANNEL_ACQ_TIMEOUT, GC_REG_CHANNEL_CYCLES_RESIDENT,
          GC_REG_CHANNEL_SWITCH_TIMESLICE, GC_REG_CHANNEL_SWITCH_ACQUIRE,
          GC_REG_CHANNEL_SWITCH_ENGINE, GC_REG_CHANNEL_SWITCH_EMPTY,
          GC_REG_CHANNEL_ACQ_BLOCKED_CYCLES, GC_REG_CHANNEL_STATUS: d.hit = 1'b1;
          default: d.hit = 1'b0;
        endcase
      end
    end
    return d;
  endfunction

  logic [NCH-1:0] fault_map;   // ERROR.CAUSE != NONE, kept with the records (err_map_q)

  // COMPUTE registers kept here (rw) and their values
  function automatic logic cp_rw(input logic hit, input blk_e blk, input logic [15:0] off);
    return hit && (blk == BLK_COMPUTE) &&
           ((16'(GC_REG_COMPUTE_BASE) + off) inside {GC_REG_COMPUTE_LOG_BASE_LO,
                                                        GC_REG_COMPUTE_LOG_BASE_HI,
                                                        GC_REG_COMPUTE_LOG_CTRL,
                                                        GC_REG_COMPUTE_TMU_CTRL});
  endfunction
  function automatic logic [31:0] cp_rw_value(input logic [15:0] off);
    logic [31:0] v;
    v = '0;
    unique case (16'(GC_REG_COMPUTE_BASE) + off)
      GC_REG_COMPUTE_LOG_BASE_LO: v = {log_base_lo_q, LOG_LSB'(0)};
      GC_REG_COMPUTE_LOG_BASE_HI:
        v[GC_COMPUTE_LOG_BASE_HI_HI_LSB +: GC_COMPUTE_LOG_BASE_HI_HI_W] = log_base_hi_q;
      GC_REG_COMPUTE_LOG_CTRL: begin
        v[GC_COMPUTE_LOG_CTRL_ENABLE_LSB]                                        = log_en_q;
        v[GC_COMPUTE_LOG_CTRL_SIZE_LOG2_LSB +: GC_COMPUTE_LOG_CTRL_SIZE_LOG2_W] = log_size_q;
      end
      GC_REG_COMPUTE_TMU_CTRL: v[GC_COMPUTE_TMU_CTRL_NO_EVICT_LSB] = no_evict_q;
      default: v = '0;
    endcase
    return v;
  endfunction

  // Cycle counters kept as timestamps (gc_level_cycles), read for the decoded read address: the
  // channel's CYCLES_RESIDENT and ACQ_BLOCKED_CYCLES, the engine's GATED_CYCLES.
  dec_t        rdec;
  logic [31:0] resident_cyc_rd, acq_blk_cyc_rd, gated_cyc_rd;
  logic [$clog2(NRL + NCE + 1)-1:0] gated_idx;
  always_comb begin
    unique case (rdec.blk)
      BLK_ENGINE:  gated_idx = $bits(gated_idx)'(NRL + 32'(rdec.ch));
      BLK_COMPUTE: gated_idx = $bits(gated_idx)'(NRL + NCE);
      default:     gated_idx = $bits(gated_idx)'(rdec.ch);
    endcase
  end
  gc_level_cycles #(.N (NCH)) u_resident_cyc (
    .clk_i, .rst_ni, .now_i (cycle_q[31:0]), .level_i (ch_resident_i), .rd_idx_i (rdec.ch),
    .rd_cycles_o (resident_cyc_rd)
  );
  gc_level_cycles #(.N (NCH)) u_acq_blk_cyc (
    .clk_i, .rst_ni, .now_i (cycle_q[31:0]), .level_i (ch_acq_blk_i), .rd_idx_i (rdec.ch),
    .rd_cycles_o (acq_blk_cyc_rd)
  );
  gc_level_cycles #(.N (NRL + NCE + 1)) u_gated_cyc (
    .clk_i, .rst_ni, .now_i (cycle_q[31:0]), .level_i (gated_i), .rd_idx_i (gated_idx),
    .rd_cycles_o (gated_cyc_rd)
  );

  // Value a register reads as (0 when not mapped).
  function automatic logic [31:0] reg_value(input dec_t d);
    logic [31:0] v;
    logic [RL_IW-1:0] ri;
    v  = '0;
    ri = RL_IW'(d.ch);
    if (d.hit && d.blk == BLK_RUNLIST) begin
      unique case (d.off)
        GC_REG_RUNLIST_DBG: begin
          v[GC_RUNLIST_DBG_STATE_LSB +: GC_RUNLIST_DBG_STATE_W]     = dbg_pbdma_state_i[ri];
          v[GC_RUNLIST_DBG_CHANNEL_LSB +: GC_RUNLIST_DBG_CHANNEL_W] = dbg_pbdma_ch_i[d.ch];
          v[GC_RUNLIST_DBG_PB_LEFT_LSB +: GC_RUNLIST_DBG_PB_LEFT_W] = dbg_pbdma_pb_left_i[d.ch];
        end
        GC_REG_RUNLIST_SWITCHES:     v = rl_switches_q[ri];
        GC_REG_RUNLIST_GATED_CYCLES: v = gated_cyc_rd;
        default: v = '0;
      endcase
    end else if (d.hit && d.blk == BLK_ENGINE) begin
      unique case (d.off)
        GC_REG_ENGINE_DBG: begin
          v[GC_ENGINE_DBG_STATE_LSB +: GC_ENGINE_DBG_STATE_W]     = dbg_ce_state_i[d.ch];
          v[GC_ENGINE_DBG_RD_OUT_LSB +: GC_ENGINE_DBG_RD_OUT_W]   = dbg_ce_rd_out_i[d.ch];
          v[GC_ENGINE_DBG_CHANNEL_LSB +: GC_ENGINE_DBG_CHANNEL_W] = dbg_ce_ch_i[d.ch];
        end
        GC_REG_ENGINE_BYTES:       v = ce_bytes_i[d.ch];
        GC_REG_ENGINE_BUSY_CYCLES: v = ce_busy_cycles_i[d.ch];
        GC_REG_ENGINE_GATED_CYCLES: v = gated_cyc_rd;
        default: v = '0;
      endcase
    end else if (d.hit && d.blk == BLK_COMPUTE) begin
      if ((16'(GC_REG_COMPUTE_BASE) + d.off) == GC_REG_COMPUTE_GATED_CYCLES) v = gated_cyc_rd;
      else v = cp_rw(d.hit, d.blk, d.off) ? cp_rw_value(d.off) : cp_regs_i[d.off[6:2]];
    end else if (d.hit && d.blk == BLK_GLOBAL) begin
      unique case (d.off)
        GC_REG_GLOBAL_ID:      v = GC_ID;
        GC_REG_GLOBAL_VERSION: v = GC_VERSION;
        GC_REG_GLOBAL_CONFIG: begin
          v[GC_GLOBAL_CONFIG_NUM_CHANNELS_LSB +: GC_GLOBAL_CONFIG_NUM_CHANNELS_W] =
              GC_GLOBAL_CONFIG_NUM_CHANNELS_W'(GC_NUM_CHANNELS);
          v[GC_GLOBAL_CONFIG_NUM_RUNLISTS_LSB +: GC_GLOBAL_CONFIG_NUM_RUNLISTS_W] =
              GC_GLOBAL_CONFIG_NUM_RUNLISTS_W'(GC_NUM_RUNLISTS);
          v[GC_GLOBAL_CONFIG_NUM_CE_LSB +: GC_GLOBAL_CONFIG_NUM_CE_W] =
              GC_GLOBAL_CONFIG_NUM_CE_W'(GC_NUM_CE);
          v[GC_GLOBAL_CONFIG_DATA_BYTES_LSB +: GC_GLOBAL_CONFIG_DATA_BYTES_W] =
              GC_GLOBAL_CONFIG_DATA_BYTES_W'(GC_AXI_DATA_W / 8);
        end
        GC_REG_GLOBAL_INTR_STATUS:    v = 32'(intr_status_q);
        GC_REG_GLOBAL_INTR_ENABLE:    v = 32'(intr_enable_q);
        GC_REG_GLOBAL_CYCLE_LO:       v = time_q[31:0];
        GC_REG_GLOBAL_CYCLE_HI:       v = cycle_hi_q;
        GC_REG_GLOBAL_FAULT_CHANNELS: v = 32'(fault_map);
        GC_REG_GLOBAL_ACQ_RETRY_INTERVAL: v = acq_retry_q;
        GC_REG_GLOBAL_CLOCK_GATING: v[GC_GLOBAL_CLOCK_GATING_DISABLE_LSB] = clk_gate_dis_q;
        default: v = '0;
      endcase
    end else if (d.hit) begin
      unique case (d.off)
        GC_REG_CHANNEL_GPFIFO_BASE_LO: v = base_q[d.ch][31:0];
        GC_REG_CHANNEL_GPFIFO_BASE_HI:
          v[GC_CHANNEL_GPFIFO_BASE_HI_HI_LSB +: GC_CHANNEL_GPFIFO_BASE_HI_HI_W] = base_q[d.ch][GC_AXI_ADDR_W-1:32];
        GC_REG_CHANNEL_GPFIFO_SIZE:
          v[GC_CHANNEL_GPFIFO_SIZE_LOG2_LSB +: GC_CHANNEL_GPFIFO_SIZE_LOG2_W] = log2_q[d.ch];
        GC_REG_CHANNEL_GP_PUT: v = gp_put_q[d.ch];
        GC_REG_CHANNEL_GP_GET: v = 32'(gp_get_q[d.ch]);
        GC_REG_CHANNEL_CTRL:
          v[GC_CHANNEL_CTRL_ENABLE_LSB +: GC_CHANNEL_CTRL_ENABLE_W] = enable_q[d.ch];
        GC_REG_CHANNEL_RUNLIST:
          v[GC_CHANNEL_RUNLIST_ID_LSB +: GC_CHANNEL_RUNLIST_ID_W] = runlist_q[d.ch];
        GC_REG_CHANNEL_ERROR:
          v[GC_CHANNEL_ERROR_CAUSE_LSB +: GC_CHANNEL_ERROR_CAUSE_W] =
              GC_CHANNEL_ERROR_CAUSE_W'(err_cause_q[d.ch]);
        GC_REG_CHANNEL_ERROR_GP_GET: v = 32'(err_gp_get_q[d.ch]);
        GC_REG_CHANNEL_ERROR_METHOD: begin
          v[GC_CHANNEL_ERROR_METHOD_SUBCHANNEL_LSB +: GC_CHANNEL_ERROR_METHOD_SUBCHANNEL_W] =
              err_method_q[d.ch].subch;
          v[GC_CHANNEL_ERROR_METHOD_ADDRESS_LSB +: GC_CHANNEL_ERROR_METHOD_ADDRESS_W] =
              err_method_q[d.ch].addr;
        end
        GC_REG_CHANNEL_ERROR_DATA:   v = err_data_q[d.ch];
        GC_REG_CHANNEL_METHODS:      v = methods_q[d.ch];
        GC_REG_CHANNEL_TIMESLICE:    v = timeslice_q[d.ch];
        GC_REG_CHANNEL_INTERLEAVE:
          v[GC_CHANNEL_INTERLEAVE_LEVEL_LSB +: GC_CHANNEL_INTERLEAVE_LEVEL_W] = interleave_q[d.ch];
        GC_REG_CHANNEL_ACQ_TIMEOUT:        v = acq_timeout_q[d.ch];
        GC_REG_CHANNEL_CYCLES_RESIDENT:    v = resident_cyc_rd;
        GC_REG_CHANNEL_SWITCH_TIMESLICE:   v = sw_ts_q[d.ch];
        GC_REG_CHANNEL_SWITCH_ACQUIRE:     v = sw_acq_q[d.ch];
        GC_REG_CHANNEL_SWITCH_ENGINE:      v = sw_eng_q[d.ch];
        GC_REG_CHANNEL_SWITCH_EMPTY:       v = sw_empty_q[d.ch];
        GC_REG_CHANNEL_ACQ_BLOCKED_CYCLES: v = acq_blk_cyc_rd;
        GC_REG_CHANNEL_STATUS: begin
          v[GC_CHANNEL_STATUS_PENDING_LSB] = (32'(gp_get_q[d.ch]) != gp_put_q[d.ch]) ||
                                             ch_in_entry_i[d.ch];
          v[GC_CHANNEL_STATUS_RESIDENT_LSB]    = ch_resident_i[d.ch];
          v[GC_CHANNEL_STATUS_ENGINE_BUSY_LSB] = ch_eng_busy_i[d.ch];
          v[GC_CHANNEL_STATUS_ACQ_BLOCKED_LSB] = ch_acq_blk_i[d.ch];
        end
        default: v = '0;
      endcase
    end
    return v;
  endfunction

  // Current value of a writable register (for byte-strobe merging). Read-only registers (status,
  // counters) are left out so that the write path does not depend on the PBDMAs' status.
  function automatic logic [31:0] rw_value(input dec_t d);
    logic [31:0] v;
    v = '0;
    if (d.hit && d.blk == BLK_GLOBAL) begin
      unique case (d.off)
        GC_REG_GLOBAL_INTR_ENABLE:        v = 32'(intr_enable_q);
        GC_REG_GLOBAL_CYCLE_LO:           v = time_q[31:0];
        GC_REG_GLOBAL_CYCLE_HI:           v = cycle_hi_q;
        GC_REG_GLOBAL_ACQ_RETRY_INTERVAL: v = acq_retry_q;
        GC_REG_GLOBAL_CLOCK_GATING: v[GC_GLOBAL_CLOCK_GATING_DISABLE_LSB] = clk_gate_dis_q;
        default: v = '0;
      endcase
    end else if (d.hit && d.blk == BLK_CHANNEL) begin
      unique case (d.off)
        GC_REG_CHANNEL_GPFIFO_BASE_LO: v = base_q[d.ch][31:0];
        GC_REG_CHANNEL_GPFIFO_BASE_HI:
          v[GC_CHANNEL_GPFIFO_BASE_HI_HI_LSB +: GC_CHANNEL_GPFIFO_BASE_HI_HI_W] = base_q[d.ch][GC_AXI_ADDR_W-1:32];
        GC_REG_CHANNEL_GPFIFO_SIZE:
          v[GC_CHANNEL_GPFIFO_SIZE_LOG2_LSB +: GC_CHANNEL_GPFIFO_SIZE_LOG2_W] = log2_q[d.ch];
        GC_REG_CHANNEL_GP_PUT: v = gp_put_q[d.ch];
        GC_REG_CHANNEL_CTRL:
          v[GC_CHANNEL_CTRL_ENABLE_LSB +: GC_CHANNEL_CTRL_ENABLE_W] = enable_q[d.ch];
        GC_REG_CHANNEL_RUNLIST:
          v[GC_CHANNEL_RUNLIST_ID_LSB +: GC_CHANNEL_RUNLIST_ID_W] = runlist_q[d.ch];
        GC_REG_CHANNEL_TIMESLICE:   v = timeslice_q[d.ch];
        GC_REG_CHANNEL_INTERLEAVE:
          v[GC_CHANNEL_INTERLEAVE_LEVEL_LSB +: GC_CHANNEL_INTERLEAVE_LEVEL_W] = interleave_q[d.ch];
        GC_REG_CHANNEL_ACQ_TIMEOUT: v = acq_timeout_q[d.ch];
        default: v = '0;
      endcase
    end else if (cp_rw(d.hit, d.blk, d.off)) begin
      v = cp_rw_value(d.off);
    end
    return v;
  endfunction

  // ------------------------------------------------------------------------------------------
  // Write decode
  // ------------------------------------------------------------------------------------------
  dec_t        wdec;
  logic        do_write, do_read;
  logic [31:0] wmask, wval;

  // Decoded only when used (a write in this cycle, an AR at the pins): every use of wdec / wval is
  // under do_write, every use of rdec under do_read.  Decoding every cycle cost the two
  // evaluations per cycle of the pin-driven region (rdec) and the clocked region (wdec, wval).
  always_comb begin
    wdec = '0;
    if (do_write) wdec = decode(aw_addr_q);
  end
  always_comb begin
    rdec = '0;
    if (s_req_i.ar_valid) rdec = decode(s_req_i.ar_addr);
  end
  assign do_write = aw_have_q && w_have_q && !b_valid_q;
  assign do_read  = s_req_i.ar_valid && s_rsp_o.ar_ready;

  always_comb begin
    for (int b = 0; b < 4; b++) wmask[8*b +: 8] = {8{w_strb_q[b]}};
  end
  // Register value after the write: unstrobed bytes keep the register's current value.
  always_comb begin
    wval = '0;
    if (do_write) wval = (rw_value(wdec) & ~wmask) | (w_data_q & wmask);
  end

  // Per-register write strobes (channel registers for channel wdec.ch)
  logic wr_ch, wr_glob, we_cp_rw;
  assign wr_ch    = do_write && wdec.hit && (wdec.blk == BLK_CHANNEL);
  assign wr_glob  = do_write && wdec.hit && (wdec.blk == BLK_GLOBAL);
  assign we_cp_rw = do_write && cp_rw(wdec.hit, wdec.blk, wdec.off);

  logic we_base_lo, we_base_hi, we_size, we_gp_put, we_ctrl, we_runlist;
  logic we_timeslice, we_interleave, we_acq_timeout;
  assign we_timeslice   = wr_ch && (wdec.off == GC_REG_CHANNEL_TIMESLICE);
  assign we_interleave  = wr_ch && (wdec.off == GC_REG_CHANNEL_INTERLEAVE);
  assign we_acq_timeout = wr_ch && (wdec.off == GC_REG_CHANNEL_ACQ_TIMEOUT);
  assign we_base_lo = wr_ch && (wdec.off == GC_REG_CHANNEL_GPFIFO_BASE_LO);
  assign we_base_hi = wr_ch && (wdec.off == GC_REG_CHANNEL_GPFIFO_BASE_HI);
  assign we_size    = wr_ch && (wdec.off == GC_REG_CHANNEL_GPFIFO_SIZE);
  assign we_gp_put  = wr_ch && (wdec.off == GC_REG_CHANNEL_GP_PUT);
  assign we_ctrl    = wr_ch && (wdec.off == GC_REG_CHANNEL_CTRL);
  assign we_runlist = wr_ch && (wdec.off == GC_REG_CHANNEL_RUNLIST);

  logic [LW-1:0] w_log2;
  logic          w_enable, w_reset, w_log2_bad, w_put_bad;
  assign w_log2   = wval[GC_CHANNEL_GPFIFO_SIZE_LOG2_LSB +: GC_CHANNEL_GPFIFO_SIZE_LOG2_W];
  assign w_enable = wval[GC_CHANNEL_CTRL_ENABLE_LSB];
  assign w_reset  = wval[GC_CHANNEL_CTRL_RESET_LSB];

  function automatic logic log2_bad(input logic [LW-1:0] l);
    return (32'(l) < GC_GPFIFO_LOG2_MIN) || (32'(l) > GC_GPFIFO_LOG2_MAX);
  endfunction

  assign w_log2_bad = log2_bad(w_log2);
  // GP_PUT must be below 2^LOG2
  assign w_put_bad  = (wval >> log2_q[wdec.ch]) != 32'd0;

  // Faults raised by the register block itself
  logic          rf_valid;
  logic [GC_ERROR_CAUSE_VALUE_BITS-1:0] rf_cause;   // an error_cause_e, as err_cause_q keeps it
  logic [31:0]   rf_data;
  always_comb begin
    rf_valid = 1'b0;
    rf_cause = GC_ERROR_CAUSE_VALUE_BITS'(ERROR_CAUSE_NONE);
    rf_data  = '0;
    if (we_gp_put && w_put_bad) begin
      rf_valid = 1'b1;
      rf_cause = GC_ERROR_CAUSE_VALUE_BITS'(ERROR_CAUSE_BAD_GP_PUT);
      rf_data  = wval;
    end else if (we_ctrl && !w_reset && w_enable && log2_bad(log2_q[wdec.ch])) begin
      rf_valid = 1'b1;
      rf_cause = GC_ERROR_CAUSE_VALUE_BITS'(ERROR_CAUSE_BAD_RING);
      rf_data  = 32'(log2_q[wdec.ch]);
    end else if (we_size && enable_q[wdec.ch] && w_log2_bad) begin
      rf_valid = 1'b1;
      rf_cause = GC_ERROR_CAUSE_VALUE_BITS'(ERROR_CAUSE_BAD_RING);
      rf_data  = 32'(w_log2);
    end
  end

  always_comb begin
    ch_reset_o = '0;
    if (we_ctrl && w_reset) ch_reset_o[wdec.ch] = 1'b1;
  end

  // ------------------------------------------------------------------------------------------
  // AXI4-Lite handshakes
  // ------------------------------------------------------------------------------------------
  assign s_rsp_o.aw_ready = !aw_have_q;
  assign s_rsp_o.w_ready  = !w_have_q;
  assign s_rsp_o.b_valid  = b_valid_q;
  assign s_rsp_o.b_resp   = b_resp_q;
  assign s_rsp_o.ar_ready = !r_valid_q;
  assign s_rsp_o.r_valid  = r_valid_q;
  assign s_rsp_o.r.data   = r_data_q;
  assign s_rsp_o.r.resp   = r_resp_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      aw_have_q <= 1'b0;
      w_have_q  <= 1'b0;
      b_valid_q <= 1'b0;
      r_valid_q <= 1'b0;
      aw_addr_q <= '0;
      w_data_q  <= '0;
      w_strb_q  <= '0;
      b_resp_q  <= RESP_OKAY;
      r_resp_q  <= RESP_OKAY;
      r_data_q  <= '0;
    end else begin
      if (s_req_i.aw_valid && s_rsp_o.aw_ready) begin
        aw_have_q <= 1'b1;
        aw_addr_q <= s_req_i.aw_addr;
      end
      if (s_req_i.w_valid && s_rsp_o.w_ready) begin
        w_have_q <= 1'b1;
        w_data_q <= s_req_i.w.data;
        w_strb_q <= s_req_i.w.strb;
      end
      if (s_rsp_o.b_valid && s_req_i.b_ready) b_valid_q <= 1'b0;
      if (do_write) begin
        aw_have_q <= 1'b0;
        w_have_q  <= 1'b0;
        b_valid_q <= 1'b1;
        b_resp_q  <= wdec.hit ? RESP_OKAY : RESP_SLVERR;
      end
      if (s_rsp_o.r_valid && s_req_i.r_ready) r_valid_q <= 1'b0;
      if (do_read) begin
        r_valid_q <= 1'b1;
        r_data_q  <= reg_value(rdec);
        r_resp_q  <= rdec.hit ? RESP_OKAY : RESP_SLVERR;
      end
    end
  end

  // ------------------------------------------------------------------------------------------
  // Global registers
  // ------------------------------------------------------------------------------------------
  logic fault_recorded;  // some channel recorded a fault this cycle
  always_comb begin
    fault_recorded = rf_valid && !fault_map[wdec.ch] && !ch_reset_o[wdec.ch];
    for (int r = 0; r < NRL; r++) begin
      if (fault_valid_i[r] && !fault_map[fault_ch_i[r]] && !ch_reset_o[fault_ch_i[r]]) begin
        fault_recorded = 1'b1;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      intr_status_q <= '0;
      intr_enable_q <= '0;
      cycle_q       <= '0;
      time_q        <= '0;
      cycle_hi_q    <= '0;
      acq_retry_q   <= ACQ_RETRY_RESET;
      clk_gate_dis_q <= 1'b0;
      log_base_lo_q <= '0;
      log_base_hi_q <= '0;
      log_en_q      <= 1'b0;
      log_size_q    <= '0;
      no_evict_q    <= 1'b0;
    end else begin
      if (we_cp_rw) begin
        unique case (16'(GC_REG_COMPUTE_BASE) + wdec.off)
          GC_REG_COMPUTE_LOG_BASE_LO: log_base_lo_q <= wval[31:LOG_LSB];
          GC_REG_COMPUTE_LOG_BASE_HI:
            log_base_hi_q <= wval[GC_COMPUTE_LOG_BASE_HI_HI_LSB +: GC_COMPUTE_LOG_BASE_HI_HI_W];
          GC_REG_COMPUTE_LOG_CTRL: begin
            log_en_q   <= wval[GC_COMPUTE_LOG_CTRL_ENABLE_LSB];
            log_size_q <= wval[GC_COMPUTE_LOG_CTRL_SIZE_LOG2_LSB +: GC_COMPUTE_LOG_CTRL_SIZE_LOG2_W];
          end
          default: no_evict_q <= wval[GC_COMPUTE_TMU_CTRL_NO_EVICT_LSB];   // TMU_CTRL
        endcase
      end
      if (wr_glob && wdec.off == GC_REG_GLOBAL_ACQ_RETRY_INTERVAL) acq_retry_q <= wval;
      if (wr_glob && wdec.off == GC_REG_GLOBAL_CLOCK_GATING) begin
        clk_gate_dis_q <= wval[GC_GLOBAL_CLOCK_GATING_DISABLE_LSB];
      end
      cycle_q <= cycle_q + 64'd1;
      time_q  <= time_q + 64'd1;
      if (do_read && rdec.hit && rdec.blk == BLK_GLOBAL && rdec.off == GC_REG_GLOBAL_CYCLE_LO) begin
        cycle_hi_q <= time_q[63:32];
      end
      if (wr_glob && wdec.off == GC_REG_GLOBAL_CYCLE_HI) cycle_hi_q <= wval;
      if (wr_glob && wdec.off == GC_REG_GLOBAL_CYCLE_LO) time_q <= {cycle_hi_q, wval};
      if (wr_glob && wdec.off == GC_REG_GLOBAL_INTR_ENABLE) intr_enable_q <= INTR_W'(wval & INTR_MASK);
      // w1c; a new event in the same cycle wins over the clear
      if (wr_glob && wdec.off == GC_REG_GLOBAL_INTR_STATUS) begin
        intr_status_q <= intr_status_q & ~INTR_W'(w_data_q & wmask & INTR_MASK);
      end
      if (fault_recorded) intr_status_q[GC_GLOBAL_INTR_STATUS_CHANNEL_FAULT_LSB] <= 1'b1;
      if (nonstall_i)     intr_status_q[GC_GLOBAL_INTR_STATUS_NON_STALL_LSB] <= 1'b1;
      if (task_fault_i)   intr_status_q[GC_GLOBAL_INTR_STATUS_TASK_FAULT_LSB] <= 1'b1;
      if (launch_fail_i)  intr_status_q[GC_GLOBAL_INTR_STATUS_LAUNCH_FAIL_LSB] <= 1'b1;
    end
  end

  assign irq_o = |(intr_status_q & intr_enable_q);
  assign task_fault_pend_o  = intr_status_q[GC_GLOBAL_INTR_STATUS_TASK_FAULT_LSB];
  assign launch_fail_pend_o = intr_status_q[GC_GLOBAL_INTR_STATUS_LAUNCH_FAIL_LSB];
  assign log_base_o         = {log_base_hi_q, log_base_lo_q, LOG_LSB'(0)};
  assign log_en_o           = log_en_q;
  assign log_size_log2_o    = log_size_q;
  assign log_ctrl_we_o      = we_cp_rw && ((16'(GC_REG_COMPUTE_BASE) + wdec.off) ==
                                           GC_REG_COMPUTE_LOG_CTRL);
  assign no_evict_o         = no_evict_q;

  // ------------------------------------------------------------------------------------------
  // Channel registers. Everything is written by index on an event; where two writes of one
  // cycle name the same channel, the later statement wins: the lowest runlist index for GP_GET
  // and faults (the runlist loops count down), a PBDMA fault over a register-block fault, and
  // CTRL.RESET over everything. Increments of one channel from two runlists in one cycle add up
  // (each writer writes the same sum).
  // ------------------------------------------------------------------------------------------
  function automatic logic [31:0] n_same_ch(input logic [NRL-1:0] v, input logic [NRL-1:0][CH_W-1:0] chs,
                                            input logic [CH_W-1:0] ch);
    logic [31:0] n;
    n = '0;
    for (int r = 0; r < NRL; r++) n = n + 32'(v[r] && chs[r] == ch);
    return n;
  endfunction
  function automatic logic [31:0] n_cause(input logic [NRL-1:0] v, input logic [NRL-1:0][CH_W-1:0] chs,
                                          input logic [NRL-1:0][3:0] cause, input logic [CH_W-1:0] ch,
                                          input logic [1:0] bit_i);
    logic [31:0] n;
    n = '0;
    for (int r = 0; r < NRL; r++) n = n + 32'(v[r] && chs[r] == ch && cause[r][bit_i]);
    return n;
  endfunction

  // A PBDMA fault record for the channel the register block faults (it wins)
  logic rf_pf;
  always_comb begin
    rf_pf = 1'b0;
    for (int r = 0; r < NRL; r++) rf_pf = rf_pf || (fault_valid_i[r] && fault_ch_i[r] == wdec.ch);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      base_q       <= '0;
      log2_q       <= '0;
      gp_put_q     <= '0;
      gp_get_q     <= '0;
      enable_q     <= '0;
      runlist_q    <= '0;
      timeslice_q  <= {NCH{TIMESLICE_RESET}};
      acq_timeout_q <= '0;
      interleave_q <= '0;
      err_map_q    <= '0;
      for (int c = 0; c < NCH; c++) begin
        err_cause_q[c]  <= GC_ERROR_CAUSE_VALUE_BITS'(ERROR_CAUSE_NONE);
        err_gp_get_q[c] <= '0;
        err_method_q[c] <= '0;
        err_data_q[c]   <= '0;
        methods_q[c]    <= '0;
        sw_ts_q[c]      <= '0;
        sw_acq_q[c]     <= '0;
        sw_eng_q[c]     <= '0;
        sw_empty_q[c]   <= '0;
      end
      for (int r = 0; r < NRL; r++) rl_switches_q[r] <= '0;
    end else begin
      // PBDMA reports (lowest runlist index last: it wins for GP_GET and faults)
      for (int r = NRL - 1; r >= 0; r--) begin
        if (gp_get_we_i[r]) gp_get_q[gp_get_ch_i[r]] <= gp_get_val_i[r];
        if (mthd_inc_i[r]) begin
          methods_q[mthd_ch_i[r]] <= methods_q[mthd_ch_i[r]] + n_same_ch(mthd_inc_i, mthd_ch_i, mthd_ch_i[r]);
        end
        if (sw_valid_i[r]) begin
          rl_switches_q[r] <= rl_switches_q[r] + 32'd1;
          sw_ts_q[sw_ch_i[r]]    <= sw_ts_q[sw_ch_i[r]] +
                                    n_cause(sw_valid_i, sw_ch_i, sw_cause_i, sw_ch_i[r], 2'(SW_TIMESLICE));
          sw_acq_q[sw_ch_i[r]]   <= sw_acq_q[sw_ch_i[r]] +
                                    n_cause(sw_valid_i, sw_ch_i, sw_cause_i, sw_ch_i[r], 2'(SW_ACQUIRE));
          sw_eng_q[sw_ch_i[r]]   <= sw_eng_q[sw_ch_i[r]] +
                                    n_cause(sw_valid_i, sw_ch_i, sw_cause_i, sw_ch_i[r], 2'(SW_ENGINE));
          sw_empty_q[sw_ch_i[r]] <= sw_empty_q[sw_ch_i[r]] +
                                    n_cause(sw_valid_i, sw_ch_i, sw_cause_i, sw_ch_i[r], 2'(SW_EMPTY));
        end
        // Fault record: first error wins
        if (fault_valid_i[r] && !err_map_q[fault_ch_i[r]]) begin
          err_cause_q[fault_ch_i[r]]  <= GC_ERROR_CAUSE_VALUE_BITS'(fault_cause_i[r]);
          err_map_q[fault_ch_i[r]]    <= (fault_cause_i[r] != ERROR_CAUSE_NONE);
          err_gp_get_q[fault_ch_i[r]] <= fault_gp_get_i[r];
          err_method_q[fault_ch_i[r]] <= fault_method_i[r];
          err_data_q[fault_ch_i[r]]   <= fault_data_i[r];
        end
      end
      // A register-block fault (a PBDMA record of the same channel in this cycle wins)
      if (rf_valid && !rf_pf && !err_map_q[wdec.ch]) begin
        err_cause_q[wdec.ch]  <= rf_cause;
        err_map_q[wdec.ch]    <= 1'b1;
        err_gp_get_q[wdec.ch] <= gp_get_q[wdec.ch];
        err_method_q[wdec.ch] <= '0;
        err_data_q[wdec.ch]   <= rf_data;
      end
      // Host writes
      if (wr_ch) begin
        if (we_base_lo) base_q[wdec.ch][31:ENTRY_LSB] <= wval[31:ENTRY_LSB];
        if (we_base_hi) begin
          base_q[wdec.ch][GC_AXI_ADDR_W-1:32] <= wval[GC_CHANNEL_GPFIFO_BASE_HI_HI_LSB +: GC_CHANNEL_GPFIFO_BASE_HI_HI_W];
        end
        if (we_size)    log2_q[wdec.ch] <= w_log2;
        if (we_gp_put && !w_put_bad) gp_put_q[wdec.ch] <= wval;
        if (we_ctrl)    enable_q[wdec.ch] <= w_enable;
        if (we_runlist) runlist_q[wdec.ch] <= wval[GC_CHANNEL_RUNLIST_ID_LSB +: GC_CHANNEL_RUNLIST_ID_W];
        if (we_timeslice)   timeslice_q[wdec.ch]   <= wval;
        if (we_acq_timeout) acq_timeout_q[wdec.ch] <= wval;
        if (we_interleave) begin
          interleave_q[wdec.ch] <= wval[GC_CHANNEL_INTERLEAVE_LEVEL_LSB +: GC_CHANNEL_INTERLEAVE_LEVEL_W];
        end
      end
      // CTRL.RESET: last, so it wins over everything above
      if (we_ctrl && w_reset) begin
        enable_q[wdec.ch]     <= 1'b0;
        gp_put_q[wdec.ch]     <= '0;
        gp_get_q[wdec.ch]     <= '0;
        err_cause_q[wdec.ch]  <= GC_ERROR_CAUSE_VALUE_BITS'(ERROR_CAUSE_NONE);
        err_map_q[wdec.ch]    <= 1'b0;
        err_gp_get_q[wdec.ch] <= '0;
        err_method_q[wdec.ch] <= '0;
        err_data_q[wdec.ch]   <= '0;
      end
    end
  end

  // ------------------------------------------------------------------------------------------
  // Outputs to the PBDMA
  // ------------------------------------------------------------------------------------------
  assign ch_gpfifo_base_o = base_q;
  assign ch_enable_o      = enable_q;
  assign fault_map        = err_map_q;
  assign ch_err_o         = fault_map;
  assign ch_gpfifo_log2_o = log2_q;
  assign ch_gp_put_o      = gp_put_q;
  assign ch_gp_get_o      = gp_get_q;
  assign ch_runlist_o     = runlist_q;
  assign ch_timeslice_o   = timeslice_q;
  assign ch_interleave_o  = interleave_q;
  assign ch_acq_timeout_o = acq_timeout_q;
  assign acq_retry_o      = acq_retry_q;
  assign cycle_o          = cycle_q;
  assign time_o           = time_q;
  assign clk_gate_dis_o   = clk_gate_dis_q;

endmodule
