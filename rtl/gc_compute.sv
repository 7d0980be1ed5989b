// gc_compute: the compute engine of runlist 0 in front of the SMs: the task management unit
// (TMU, docs/tmu.md: task table, priority-ordered pending list, task slots, eviction, device-side
// launches, completion, faults, the task log) and the CTA dispatcher.
//
// ================================================================================ design notes
//
// Task table: NENT entries.  Each holds one launched, not yet completed task: its state
// (TASK_STATE), TMD address >> 8, the TMD fields the dispatcher and the completion need (read
// once), LEVEL / DEPTH / MAX_DEPTH, parent entry (device launches) or host flag, the channel of
// its root, progress (next CTA x, y, z), children not completed, fault flags.  Per-entry arrays
// are written with one index per cycle (no whole-array copies).
//
// Slots: NSLOT task slots.  Per slot: the entry it holds, its LEVEL (copy), CTAs in flight,
// "all CTAs dispatched", "faulted", "being evicted", and a took-before relation between slots
// (tb_q[a][b]: a took its slot before b) for the ties of dispatch and victim selection.
//
// Pending list: the entries in state PENDING, ordered by a before relation ahd_q[j][i] ("i is
// ahead of j", one vector per entry j), written when an entry enters the list: i is ahead of every pending j of a lower
// LEVEL, and of those of its LEVEL when it enters at the head (FLAGS.QUEUE_HEAD, or back from an
// eviction); otherwise behind them.  The head is the pending entry no other pending entry is
// ahead of.
//
// One TMU step per cycle, chosen by this fixed priority among the eligible ones (a step that
// writes a log record is eligible only when the atomic-unit port is free or the log is off:
// records are never dropped and go out in step order):
//   FLOG    write the FAULT record of a task that faulted (faults themselves take effect at once)
//   CREL    completion: issue the TMD's semaphore release (atomic unit)
//   CLOG    completion: log COMPLETE (log off: finish at once)
//   CFIN    completion: finish once the COMPLETE record was answered: TASKS + 1, NON_STALL; a
//           host task pulses done_o / done_err_o / done_ch_o, a child decrements its parent's
//           children count and passes its error up (a parent in CHILDREN whose count reaches 0
//           goes to RELEASE); the entry is free
//   SREL    a slot whose task has no CTA in flight and dispatched all its CTAs, faulted, or is
//           being evicted gives it up: EVICT (back to PENDING at the head of its level, its
//           progress kept, EVICTIONS + 1), or CTAS_DONE (children left: CHILDREN), or RELEASE
//   FDONE   the TMD read of the entry at the head of the fetch queue is in: check it (BAD_TMD,
//           TMD_BUS_ERROR: fault, RELEASE without release), else PENDING (log QUEUED)
//   TAKE    a slot is free and the pending list is not empty: the head takes the lowest free
//           slot (START, or RESUME after an eviction); START invalidates the instruction caches
//   EVICT   no slot free, TMU_CTRL.NO_EVICT clear, no eviction under way, and the head's LEVEL
//           is above the lowest LEVEL of the evictable running tasks (CTAs left, not faulted):
//           that one (the latest to take its slot among equals) stops being dispatched
//   LAUNCH  a device LAUNCH (ln_*; round robin among the SMs): status BAD_ADDR (the SM found the
//           TMD address misaligned or outside the windows: ln_bad_i), DEPTH, PRIORITY, FULL
//           (failure: LAUNCH_FAILS, record, launch_fail_o, log LAUNCH_FAIL) or OK (a new entry in
//           FETCH: LEVEL / DEPTH parent + 1, parent's MAX_DEPTH and channel; parent's children
//           count + 1).  The SM retries the instruction while ln_ready_o is low.
//   HOST    a host launch (cmd_*): a new entry in FETCH.  cmd_ready_o is this step's grant.
// Completions go through one completion engine, one task at a time (lowest entry in RELEASE).
//
// TMD fetch: one read at a time, in launch order (a queue of entries): one 8-beat burst into a
// buffer, checked there (grid and CTA dimensions >= 1, CTA threads <= WARPS * LANES, SMEM_BYTES
// <= SIMT_SMEM_BYTES, ENTRY_PC 4-aligned, the semaphore aligned to its size, and for a host
// launch PRIORITY.LEVEL < TMU_PRIO_LEVELS; FAULT_ADDR = the offset of the first bad word in
// that order), then copied to the entry by FDONE.
//
// Dispatch, every cycle, independent of the steps: among the slots whose task has CTAs left, is
// not faulted and not being evicted, the highest LEVEL (among equals the earliest to take its
// slot) offers its next CTA (x fastest, then y, z), tagged with the slot, to the SMs round robin
// among those that can take it now; no other task's CTA is offered instead.
//
// Queue TMDs (FLAGS.QUEUE): the entry also keeps the queue position of its current grid (qpos),
// the PUT.COUNT it last read from the queue header (qput) and PUT.CLOSED (qcl).  Its slot may
// dispatch only while qpos < qput (it stays evictable while it waits); the last CTA of an entry's
// grid moves it to the next position; it has dispatched everything (s_done) once qcl and
// qpos == qput.  A running queue task with qpos == qput and not qcl reads the header (one beat,
// on the TMD read port when no TMD read waits) every TMU_QUEUE_POLL cycles, round robin among such
// tasks; a read error faults it (TMD_BUS_ERROR) and counts as CLOSED.
//
// Faults: an SM fault tagged with slot k marks k's task faulted the first time (no more
// dispatch, kill_o[k] until its CTAs drained, FAULT logged, error passed up at completion).  The
// COMPUTE.FAULT_* record takes the first new fault of the cycle (lowest SM first, then the TMD
// check, then a release error) when INTR_STATUS.TASK_FAULT is clear; task_fault_o pulses for any
// new fault.
//
// Atomic-unit port: one request at a time, the next only after the response: log records
// (16-byte WRITE: aq_wdata = {TASK word, EVENT word}; the unit appends the cycle stamp) and
// completion releases (4 bytes, or 16 for FOUR_WORD).  LOG_PUT counts answered records (a
// LOG_CTRL write sets it to 0); a record goes to LOG_BASE (bits 3:0 ignored) + 16 x (LOG_PUT mod
// 2^SIZE_LOG2).  An error answer to a log record is ignored.
module gc_compute
  import gpucosim_pkg::*;
  import gc_axi_pkg::*;
  import gc_sem_pkg::*;
  import gc_simt_pkg::*;
#(
  parameter int unsigned NSM    = GC_SIMT_NUM_SM,
  parameter int unsigned NW     = GC_SIMT_WARPS,
  parameter int unsigned NL     = GC_SIMT_LANES,
  parameter int unsigned NSLOT  = GC_TMU_SLOTS,
  parameter int unsigned NENT   = GC_TMU_ENTRIES,
  parameter int unsigned FPU    = 1,              // the SMs' FPU parameter (COMPUTE.CAPS.FPU)
  localparam int unsigned AW    = GC_AXI_ADDR_W,
  localparam int unsigned NREG  = 32
) (
  input  logic                    clk_i,
  input  logic                    rst_ni,

  // launches from runlist 0's PBDMA
  input  logic                    cmd_valid_i,
  output logic                    cmd_ready_o,
  input  logic [AW-1:0]           cmd_tmd_i,
  input  logic [7:0]              cmd_ch_i,
  output logic                    done_o,
  output logic                    done_err_o,
  output logic [7:0]              done_ch_o,
  output logic                    nonstall_o,
  output logic                    task_fault_o,      // a fault was recorded (INTR_STATUS.TASK_FAULT)
  input  logic                    task_fault_pend_i, // INTR_STATUS.TASK_FAULT is set
  output logic                    launch_fail_o,     // INTR_STATUS.LAUNCH_FAIL
  input  logic                    launch_fail_pend_i,

  // SMs
  output logic [NSM-1:0]          cta_valid_o,
  input  logic [NSM-1:0]          cta_ready_i,
  output cta_desc_t               cta_o,
  input  logic [NSM-1:0]          cta_done_i,
  input  logic [NSM-1:0][TSLOT_W-1:0] cta_done_slot_i,
  output logic                    icache_inv_o,
  output logic [7:0]              kill_o,
  input  logic [NSM-1:0]          flt_valid_i,
  input  logic [NSM-1:0][TSLOT_W-1:0] flt_slot_i,
  input  simt_fault_e             flt_cause_i [NSM],
  input  logic [NSM-1:0][31:0]    flt_pc_i,
  input  logic [NSM-1:0][31:0]    flt_addr_i,
  input  logic [NSM-1:0][7:0]     flt_warp_i,
  input  logic [NSM-1:0][7:0]     flt_lane_i,
  input  logic [NSM-1:0]          ln_valid_i,
  output logic [NSM-1:0]          ln_ready_o,
  input  logic [NSM-1:0][AW-1:0]  ln_tmd_i,
  input  logic [NSM-1:0]          ln_bad_i,
  input  logic [NSM-1:0][TSLOT_W-1:0] ln_slot_i,
  output logic [NSM-1:0][3:0]     ln_status_o,      // per SM (valid for the granted one)
  input  logic [NSM-1:0][NW-1:0]  w_act_i,
  input  logic [NSM-1:0]          ret_valid_i,
  input  logic [NSM-1:0][7:0]     ret_threads_i,
  input  logic [NSM-1:0]          ic_fill_i,
  input  logic [NSM-1:0][4:0]     lsu_beats_i,

  // configuration (COMPUTE.LOG_*, TMU_CTRL, kept in gc_mmio_regs)
  input  logic [AW-1:0]           log_base_i,
  input  logic                    log_en_i,
  input  logic [4:0]              log_size_log2_i,
  input  logic                    log_ctrl_we_i,
  input  logic                    no_evict_i,

  // memory port (TMD reads)
  output cli_req_t                m_req_o,
  input  cli_rsp_t                m_rsp_i,

  // atomic unit (completion releases, log records)
  output logic                    aq_valid_o,
  input  logic                    aq_ready_i,
  output logic [1:0]              aq_op_o,
  output logic [1:0]              aq_size_o,
  output logic [AW-1:0]           aq_addr_o,
  output logic [63:0]             aq_wdata_o,
  input  logic                    as_valid_i,
  input  logic                    as_err_i,

  // COMPUTE register block (offset / 4)
  output logic [NREG-1:0][31:0]   regs_o,
  // nothing to do (gpu_top stops the clock of the compute engine and its SMs on it): no task
  // entry in use, every state machine idle, no pulse out, and the SMs report no active warp and
  // no event
  output logic                    idle_o
);

  localparam int unsigned TMD_WORDS = GC_TMD_SIZE / 4;
  localparam int unsigned TMD_BEATS = GC_TMD_SIZE / 8;
  localparam int unsigned SMI_W     = (NSM > 1) ? $clog2(NSM) : 1;
  localparam int unsigned EW        = (NENT > 1) ? $clog2(NENT) : 1;
  localparam int unsigned KW        = (NSLOT > 1) ? $clog2(NSLOT) : 1;   // slot index
  localparam logic [3:0]  NO_SLOT   = 4'hF;
  // Widths of values that are smaller than the fields carrying them, by construction (the fields
  // they reach, records and registers, take them zero-extended):
  //   CHW  a channel: < GC_NUM_CHANNELS (cmd_ch_i is runlist 0's PBDMA's channel index, 8'(...))
  //   LVW  the LEVEL of a task holding a slot: < TMU_PRIO_LEVELS (a host TMD asking for more is
  //        BAD_TMD and never pending, a LAUNCH to parent + 1 >= TMU_PRIO_LEVELS fails PRIORITY)
  //   NDW  CTAs completed in one cycle: at most one per SM
  //   IFW  CTAs in flight of a slot: each holds at least one of the NSM * NW warp slots
  //   OFW  the byte offset of a TMD word: < GC_TMD_SIZE
  //   PTW  the queue-poll timer: <= TMU_QUEUE_POLL
  localparam int unsigned CHW       = (GC_NUM_CHANNELS > 1) ? $clog2(GC_NUM_CHANNELS) : 1;
  localparam int unsigned LVW       = (GC_TMU_PRIO_LEVELS > 1) ? $clog2(GC_TMU_PRIO_LEVELS) : 1;
  localparam int unsigned NDW       = $clog2(NSM + 1);
  localparam int unsigned IFW       = $clog2(NSM * NW + 1);
  localparam int unsigned OFW       = $clog2(GC_TMD_SIZE);
  localparam int unsigned PTW       = $clog2(GC_TMU_QUEUE_POLL + 1);

  if (NSLOT < 1 || NSLOT > 8 || NSLOT > (1 << TSLOT_W) || NENT < NSLOT || NENT > 16) begin : g_bad
    $error("gc_compute: need 1 <= NSLOT <= 8 (and <= 2^TSLOT_W), NSLOT <= NENT <= 16");
  end

  // ------------------------------------------------------------------------------------------
  // Types and small helpers
  // ------------------------------------------------------------------------------------------
  typedef struct packed {
    logic [31:0]   pc, param, gx, gy, gz;
    logic [15:0]   tx, ty, tz, nthr;
    logic [31:0]   smem;
    logic [AW-1:0] sem;
    logic [31:0]   pay;
    logic          rel, four, intr;
    logic          q;                  // FLAGS.QUEUE
    logic [AW-1:0] qaddr;              // QUEUE_ADDR
  } tmd_t;

  typedef enum logic [3:0] {
    ST_NONE, ST_FLOG, ST_CREL, ST_CLOG, ST_CFIN, ST_SREL, ST_FDONE, ST_TAKE, ST_EVICT, ST_LAUNCH,
    ST_HOST
  } step_e;

  typedef enum logic [2:0] { F_IDLE, F_AR, F_R, F_CHK, F_QAR, F_QR } fetch_e;
  typedef enum logic [1:0] { P_IDLE, P_REQ, P_WAIT } port_e;
  typedef enum logic [2:0] { C_IDLE, C_REL, C_RELW, C_LOG, C_FIN } cmp_e;

  // the index of the lowest set bit (0 when none), for entry (NENT <= 16) and slot masks
  function automatic logic [3:0] lowest(input logic [15:0] m);
    logic [3:0] r;
    r = '0;
    for (int i = 15; i >= 0; i--) if (m[i]) r = 4'(i);
    return r;
  endfunction
  function automatic logic [EW-1:0] low_e(input logic [NENT-1:0] m);
    return EW'(lowest(16'(m)));
  endfunction
  function automatic logic [KW-1:0] low_k(input logic [NSLOT-1:0] m);
    return KW'(lowest(16'(m)));
  endfunction
  function automatic logic [EW-1:0] inc_e(input logic [EW-1:0] p);   // queue pointer + 1 mod NENT
    return (32'(p) == NENT - 1) ? '0 : p + EW'(1);
  endfunction

  // ------------------------------------------------------------------------------------------
  // State
  // ------------------------------------------------------------------------------------------
  // entries
  // entry states as one-hot masks (an entry in none of them is FREE)
  typedef struct packed {
    logic [NENT-1:0] fetch, pend, run, chld, rel;
  } stm_t;
  stm_t            stm_q;
  tmd_t            e_tmd_q  [NENT];
  logic [31:0]     e_task_q [NENT];    // TMD address >> 8
  logic [CHW-1:0]  e_ch_q   [NENT];    // channel of the root's launch
  logic [EW-1:0]   e_par_q  [NENT];
  logic [7:0]      e_lvl_q  [NENT];
  logic [3:0]      e_dep_q  [NENT], e_maxd_q [NENT];
  logic [3:0]      e_slot_q [NENT];    // slot held / last held (NO_SLOT: never)
  logic [31:0]     e_cx_q [NENT], e_cy_q [NENT], e_cz_q [NENT];
  logic [EW-1:0]   e_nch_q  [NENT];    // children not completed (other entries: <= NENT - 1)
  logic [NENT-1:0] e_host_q, e_started_q, e_err_q, e_flog_q;
  logic [NENT-1:0] ahd_q [NENT];       // pending order: ahd_q[j][i] = i is ahead of j
  logic [31:0]     e_qpos_q [NENT], e_qput_q [NENT];   // queue TMDs: position, PUT.COUNT seen
  logic [NENT-1:0] e_qcl_q;            // queue TMDs: PUT.CLOSED seen

  // slots
  logic [NSLOT-1:0] s_busy_q, s_evict_q, s_flt_q, s_done_q;
  logic [EW-1:0]    s_ent_q  [NSLOT];
  logic [LVW-1:0]   s_lvl_q  [NSLOT];  // its task's LEVEL (LVW: above)
  logic [IFW-1:0]   s_infl_q [NSLOT];  // CTAs in flight
  logic [NSLOT-1:0] tb_q     [NSLOT];  // tb_q[a][b]: a took its slot before b

  // TMD fetch
  fetch_e          f_st_q;
  logic [EW-1:0]   f_ent_q;
  logic [3:0]      f_beat_q;
  logic            f_err_q;
  logic [31:0]     fb_q [TMD_WORDS];
  logic [EW-1:0]   fq_q [NENT];
  logic [EW-1:0]   fq_rd_q, fq_wr_q;
  logic [EW:0]     fq_cnt_q;
  // queue header polls (on the TMD read port)
  logic [EW-1:0]   qp_e_q, qp_rr_q;
  logic [PTW-1:0]  qp_t_q;

  // atomic-unit port
  port_e           p_st_q;
  logic            p_rel_q;            // the request in flight is a completion release
  logic [AW-1:0]   p_addr_q;
  logic [63:0]     p_wdata_q;
  logic [1:0]      p_size_q;

  // completion engine
  cmp_e            c_st_q;
  logic [EW-1:0]   c_ent_q;

  // dispatch / launch round robin
  logic [SMI_W-1:0] rr_q, ln_rr_q;

  // outputs, records, counters
  logic            done_q, done_err_q, nonstall_q, icinv_q, lfail_q;
  logic [CHW-1:0]  done_ch_q;
  simt_fault_e     f_cause_q;
  logic [31:0]     f_pc_q, f_addr_q, f_loc_q, f_task_q;
  logic [CHW-1:0]  f_ch_q;
  logic [31:0]     lf_q, lf_task_q, task_reg_q, log_put_q;
  logic [31:0]     c_tasks_q, c_ctas_q, c_winstr_q, c_tinstr_q, c_active_q, c_icmiss_q, c_beats_q;
  logic [31:0]     c_evict_q, c_dlaunch_q, c_lfails_q;

  function automatic stm_t st_set(input stm_t m, input logic [EW-1:0] e, input task_state_e st);
    stm_t r;
    r = m;
    r.fetch[e] = (st == TASK_STATE_FETCH);
    r.pend[e]  = (st == TASK_STATE_PENDING);
    r.run[e]   = (st == TASK_STATE_RUNNING);
    r.chld[e]  = (st == TASK_STATE_CHILDREN);
    r.rel[e]   = (st == TASK_STATE_RELEASE);
    return r;
  endfunction

  // ------------------------------------------------------------------------------------------
  // Entry masks, pending head
  // ------------------------------------------------------------------------------------------
  logic [NENT-1:0] m_free, m_pend, m_fetch, m_rel, hd_m;
  logic            hd_v, fr_v;
  logic [EW-1:0]   hd_e, fr_e;
  always_comb begin
    for (int i = 0; i < NENT; i++) begin
    end
    m_pend  = stm_q.pend;
    m_fetch = stm_q.fetch;
    m_rel   = stm_q.rel;
    m_free  = ~(stm_q.fetch | stm_q.pend | stm_q.run | stm_q.chld | stm_q.rel);
    for (int i = 0; i < NENT; i++) hd_m[i] = m_pend[i] && ((m_pend & ahd_q[i]) == '0);
    hd_v = (m_pend != '0);
    hd_e = low_e(hd_m);
    fr_v = (m_free != '0);
    fr_e = low_e(m_free);
  end

  // ------------------------------------------------------------------------------------------
  // Dispatch: the slot of the highest-priority dispatchable task
  // ------------------------------------------------------------------------------------------
  // One order serves dispatch and eviction: among the running tasks with CTAs left, not being
  // evicted and not faulted (run_el), slot j ranks ahead of slot k (ahead[j][k]) when its LEVEL
  // is higher, or equal and it took its slot first.  Dispatch takes the first in that order; the
  // eviction victim is the last.
  logic [NSLOT-1:0] run_el, d_el, d_win, v_win;
  logic [NSLOT-1:0] ahead [NSLOT];
  always_comb begin
    run_el = s_busy_q & ~s_done_q & ~s_evict_q & ~s_flt_q;
    // a queue task dispatches only while an entry it read of is not started (it stays evictable)
    for (int k = 0; k < NSLOT; k++)
      d_el[k] = run_el[k] && (!e_tmd_q[s_ent_q[k]].q || e_qpos_q[s_ent_q[k]] != e_qput_q[s_ent_q[k]]);
    for (int j = 0; j < NSLOT; j++) begin
      for (int k = 0; k < NSLOT; k++) begin
        ahead[j][k] = (j != k) && run_el[j] && run_el[k] &&
                      (s_lvl_q[j] > s_lvl_q[k] || (s_lvl_q[j] == s_lvl_q[k] && tb_q[j][k]));
      end
    end
    for (int k = 0; k < NSLOT; k++) begin
      d_win[k] = d_el[k];
      v_win[k] = run_el[k];
      for (int j = 0; j < NSLOT; j++) begin
        if (ahead[j][k] && d_el[j]) d_win[k] = 1'b0;   // someone goes before k
        if (ahead[k][j]) v_win[k] = 1'b0;   // someone comes after k
      end
    end
  end

  logic             d_any;
  logic [KW-1:0]    d_k;
  logic [EW-1:0]    d_e;
  tmd_t             d_t;
  logic [31:0]      d_cx, d_cy, d_cz;
  always_comb begin
    d_any = (d_el != '0);
    d_k   = low_k(d_win);
    d_e   = s_ent_q[d_k];
    d_t   = e_tmd_q[d_e];
    d_cx  = e_cx_q[d_e];
    d_cy  = e_cy_q[d_e];
    d_cz  = e_cz_q[d_e];
  end

  logic             disp, d_found, d_last;
  logic [SMI_W-1:0] d_sm;
  always_comb begin
    d_found = (cta_ready_i != '0);
    d_sm    = SMI_W'(rr_next(64'(cta_ready_i), 32'(rr_q), NSM));
    disp   = d_any && d_found;
    d_last = (d_cx + 32'd1 == d_t.gx) && (d_cy + 32'd1 == d_t.gy) && (d_cz + 32'd1 == d_t.gz);
    cta_valid_o = '0;
    if (d_any) cta_valid_o[d_sm] = d_found;

    cta_o.qpos       = d_t.q ? e_qpos_q[d_e] : '0;
    cta_o.entry_pc   = d_t.pc;
    cta_o.param      = d_t.param;
    cta_o.task_id    = e_task_q[d_e];
    cta_o.nctaid_x   = d_t.gx;
    cta_o.nctaid_y   = d_t.gy;
    cta_o.nctaid_z   = d_t.gz;
    cta_o.ntid_x     = d_t.tx;
    cta_o.ntid_y     = d_t.ty;
    cta_o.ntid_z     = d_t.tz;
    cta_o.ctaid_x    = d_cx;
    cta_o.ctaid_y    = d_cy;
    cta_o.ctaid_z    = d_cz;
    cta_o.nthreads   = d_t.nthr;
    cta_o.smem_bytes = d_t.smem;
    cta_o.slot       = TSLOT_W'(d_k);
  end

  // CTAs completed, per slot and in all
  logic [NDW-1:0] n_done;
  logic [NDW-1:0] k_done [NSLOT];
  always_comb begin
    n_done = '0;
    for (int k = 0; k < NSLOT; k++) k_done[k] = '0;
    for (int s = 0; s < NSM; s++) begin
      n_done = n_done + NDW'(cta_done_i[s]);
      for (int k = 0; k < NSLOT; k++) begin
        if (cta_done_i[s] && 32'(cta_done_slot_i[s]) == k) k_done[k] = k_done[k] + NDW'(1);
      end
    end
  end

  // ------------------------------------------------------------------------------------------
  // Eviction victim: the evictable running task of the lowest LEVEL, latest to take its slot
  // ------------------------------------------------------------------------------------------
  logic [KW-1:0]    v_k;
  logic             ev_ok;
  always_comb begin
    v_k   = low_k(v_win);
    ev_ok = (s_busy_q == '1) && !no_evict_i && (s_evict_q == '0) && hd_v && (run_el != '0) &&
            (8'(s_lvl_q[v_k]) < e_lvl_q[hd_e]);
  end

  // ------------------------------------------------------------------------------------------
  // Slot release candidates
  // ------------------------------------------------------------------------------------------
  logic [NSLOT-1:0] sr_can, sr_logged;
  logic             port_free, log_ok;
  assign port_free = (p_st_q == P_IDLE);
  assign log_ok    = !log_en_i || port_free;
  always_comb begin
    for (int k = 0; k < NSLOT; k++) begin
      logic fin;
      fin          = s_done_q[k] || s_flt_q[k];
      // EVICT, or CTAS_DONE (children left) are logged; RELEASE is not
      sr_logged[k] = !fin || (e_nch_q[s_ent_q[k]] != '0);
      sr_can[k]    = s_busy_q[k] && (fin || s_evict_q[k]) && (s_infl_q[k] == '0) &&
                     (!sr_logged[k] || log_ok);
    end
  end
  logic [KW-1:0] sr_k;
  logic [EW-1:0] sr_e;
  assign sr_k = low_k(sr_can);
  assign sr_e = s_ent_q[sr_k];

  // ------------------------------------------------------------------------------------------
  // TMD fetch buffer: fields and check
  // ------------------------------------------------------------------------------------------
  function automatic logic [31:0] tw(input int unsigned ofs);
    return fb_q[ofs / 4];
  endfunction

  tmd_t        ft;
  logic [47:0] ft_threads;
  logic [31:0] w_dxy, w_dz, w_shi, w_pri, w_flags, w_qhi;
  logic [7:0]  ft_lvl;
  logic [3:0]  ft_dep, ft_maxd;
  logic        ft_qhead;
  always_comb begin
    w_dxy   = tw(GC_TMD_CTA_DIM_XY_OFS);
    w_dz    = tw(GC_TMD_CTA_DIM_Z_OFS);
    w_shi   = tw(GC_TMD_SEM_ADDR_HI_OFS);
    w_pri   = tw(GC_TMD_PRIORITY_OFS);
    w_flags = tw(GC_TMD_FLAGS_OFS);
    w_qhi   = tw(GC_TMD_QUEUE_ADDR_HI_OFS);
    ft.pc    = tw(GC_TMD_ENTRY_PC_OFS);
    ft.param = tw(GC_TMD_PARAM_OFS);
    ft.gx    = tw(GC_TMD_GRID_X_OFS);
    ft.gy    = tw(GC_TMD_GRID_Y_OFS);
    ft.gz    = tw(GC_TMD_GRID_Z_OFS);
    ft.tx    = w_dxy[GC_TMD_CTA_DIM_XY_X_LSB +: GC_TMD_CTA_DIM_XY_X_W];
    ft.ty    = w_dxy[GC_TMD_CTA_DIM_XY_Y_LSB +: GC_TMD_CTA_DIM_XY_Y_W];
    ft.tz    = w_dz[GC_TMD_CTA_DIM_Z_Z_LSB +: GC_TMD_CTA_DIM_Z_Z_W];
    ft.smem  = tw(GC_TMD_SMEM_BYTES_OFS);
    ft.pay   = tw(GC_TMD_SEM_PAYLOAD_OFS);
    ft.sem   = {w_shi[GC_TMD_SEM_ADDR_HI_HI_LSB +: AW - 32], tw(GC_TMD_SEM_ADDR_LO_OFS)};
    ft.rel   = w_flags[GC_TMD_FLAGS_SEM_RELEASE_LSB];
    ft.four  = w_flags[GC_TMD_FLAGS_SEM_FOUR_WORD_LSB];
    ft.intr  = w_flags[GC_TMD_FLAGS_INTERRUPT_LSB];
    ft.q     = w_flags[GC_TMD_FLAGS_QUEUE_LSB];
    ft.qaddr = {w_qhi[GC_TMD_QUEUE_ADDR_HI_HI_LSB +: AW - 32], tw(GC_TMD_QUEUE_ADDR_LO_OFS)};
    ft_threads = 48'(ft.tx) * 48'(ft.ty) * 48'(ft.tz);
    ft.nthr  = 16'(ft_threads);
    ft_qhead = w_flags[GC_TMD_FLAGS_QUEUE_HEAD_LSB];
    ft_lvl   = w_pri[GC_TMD_PRIORITY_LEVEL_LSB +: GC_TMD_PRIORITY_LEVEL_W];
    ft_dep   = w_pri[GC_TMD_PRIORITY_DEPTH_LSB +: GC_TMD_PRIORITY_DEPTH_W];
    ft_maxd  = w_pri[GC_TMD_PRIORITY_MAX_DEPTH_LSB +: GC_TMD_PRIORITY_MAX_DEPTH_W];
    if (ft_dep == '0)  ft_dep  = 4'd1;
    if (ft_maxd == '0) ft_maxd = 4'd1;
  end

  // the byte offset of the first bad word, or none
  logic        ft_bad;
  logic [OFW-1:0] ft_bad_ofs;
  always_comb begin
    ft_bad     = 1'b1;
    ft_bad_ofs = '0;
    if (ft.pc[1:0] != 2'b00)            ft_bad_ofs = OFW'(GC_TMD_ENTRY_PC_OFS);
    else if (ft.gx == '0)               ft_bad_ofs = OFW'(GC_TMD_GRID_X_OFS);
    else if (ft.gy == '0)               ft_bad_ofs = OFW'(GC_TMD_GRID_Y_OFS);
    else if (ft.gz == '0)               ft_bad_ofs = OFW'(GC_TMD_GRID_Z_OFS);
    else if (ft.tx == '0 || ft.ty == '0 || ft_threads > 48'(NW * NL))
                                        ft_bad_ofs = OFW'(GC_TMD_CTA_DIM_XY_OFS);
    else if (ft.tz == '0)               ft_bad_ofs = OFW'(GC_TMD_CTA_DIM_Z_OFS);
    else if (ft.smem > GC_SIMT_SMEM_BYTES)
                                        ft_bad_ofs = OFW'(GC_TMD_SMEM_BYTES_OFS);
    else if (ft.rel && (ft.four ? (ft.sem[3:0] != 4'h0) : (ft.sem[1:0] != 2'b00)))
                                        ft_bad_ofs = OFW'(GC_TMD_SEM_ADDR_LO_OFS);
    else if (ft.q && ft.qaddr[2:0] != 3'b000)
                                        ft_bad_ofs = OFW'(GC_TMD_QUEUE_ADDR_LO_OFS);
    else if (e_host_q[f_ent_q] && 32'(ft_lvl) >= GC_TMU_PRIO_LEVELS)
                                        ft_bad_ofs = OFW'(GC_TMD_PRIORITY_OFS);
    else                                ft_bad = 1'b0;
  end

  // ------------------------------------------------------------------------------------------
  // Device launch: the SM granted this cycle and its status
  // ------------------------------------------------------------------------------------------
  // The status is computed per SM from its own slot (registered in the SM), so it does not
  // depend on the grant: no combinational path from ln_valid_i back to the SMs' status inputs.
  launch_status_e   ln_st_a [NSM];
  always_comb begin
    for (int s = 0; s < NSM; s++) begin
      logic [EW-1:0] p;
      p = s_ent_q[KW'(ln_slot_i[s])];
      if (ln_bad_i[s])                                        ln_st_a[s] = LAUNCH_STATUS_BAD_ADDR;
      else if (e_dep_q[p] >= e_maxd_q[p])                     ln_st_a[s] = LAUNCH_STATUS_DEPTH;
      else if (32'(e_lvl_q[p]) + 1 >= GC_TMU_PRIO_LEVELS)     ln_st_a[s] = LAUNCH_STATUS_PRIORITY;
      else if (!fr_v)                                         ln_st_a[s] = LAUNCH_STATUS_FULL;
      else                                                    ln_st_a[s] = LAUNCH_STATUS_OK;
      ln_status_o[s] = ln_st_a[s];
    end
  end

  logic             ln_any;
  logic [SMI_W-1:0] ln_g;
  logic [KW-1:0]    ln_k;
  logic [EW-1:0]    ln_p;
  launch_status_e   ln_st;
  always_comb begin
    ln_any = (ln_valid_i != '0);
    ln_g   = SMI_W'(rr_next(64'(ln_valid_i), 32'(ln_rr_q), NSM));
    ln_k  = KW'(ln_slot_i[ln_g]);
    ln_p  = s_ent_q[ln_k];
    ln_st = ln_st_a[ln_g];
  end

  // ------------------------------------------------------------------------------------------
  // Step choice
  // ------------------------------------------------------------------------------------------
  logic [EW-1:0] fl_e;
  assign fl_e = low_e(e_flog_q);

  step_e step;
  always_comb begin
    step = ST_NONE;
    if (e_flog_q != '0 && log_ok)                                  step = ST_FLOG;
    else if (c_st_q == C_REL && port_free)                         step = ST_CREL;
    else if (c_st_q == C_LOG && !e_flog_q[c_ent_q] && log_ok)      step = ST_CLOG;
    else if (c_st_q == C_FIN && port_free)                         step = ST_CFIN;
    else if (sr_can != '0)                                         step = ST_SREL;
    else if (f_st_q == F_CHK && (f_err_q || ft_bad || log_ok))     step = ST_FDONE;
    else if (s_busy_q != '1 && hd_v && log_ok)                     step = ST_TAKE;
    else if (ev_ok)                                                step = ST_EVICT;
    else if (ln_any && (ln_st == LAUNCH_STATUS_OK || log_ok))      step = ST_LAUNCH;
    else if (cmd_valid_i && fr_v)                                  step = ST_HOST;
  end

  assign cmd_ready_o = (step == ST_HOST);
  always_comb begin
    ln_ready_o = '0;
    if (step == ST_LAUNCH) ln_ready_o[ln_g] = 1'b1;
  end

  // the take step's slot
  logic [KW-1:0] tk_k;
  assign tk_k = low_k(~s_busy_q);

  // ------------------------------------------------------------------------------------------
  // Faults this cycle
  // ------------------------------------------------------------------------------------------
  logic [NSLOT-1:0] nf_k;              // slots whose task faults for the first time
  logic             nf_sm_v;
  logic [SMI_W-1:0] nf_sm;
  always_comb begin
    nf_k    = '0;
    nf_sm_v = 1'b0;
    nf_sm   = '0;
    for (int s = NSM - 1; s >= 0; s--) begin
      if (flt_valid_i[s] && 32'(flt_slot_i[s]) < NSLOT && s_busy_q[KW'(flt_slot_i[s])] &&
          !s_flt_q[KW'(flt_slot_i[s])]) begin
        nf_k[KW'(flt_slot_i[s])] = 1'b1;
        nf_sm_v = 1'b1;
        nf_sm   = SMI_W'(s);
      end
    end
  end

  // queue header polls: running queue tasks that started every entry they know of, not closed
  logic [NENT-1:0] qp_want;
  logic            qp_go;
  logic [EW-1:0]   qp_pick;
  always_comb begin
    for (int i = 0; i < NENT; i++)
      qp_want[i] = stm_q.run[i] && e_tmd_q[i].q && !e_qcl_q[i] && (e_qpos_q[i] == e_qput_q[i]);
    qp_pick = EW'(rr_next(64'(qp_want), 32'(qp_rr_q), NENT));
    qp_go   = (f_st_q == F_IDLE) && (fq_cnt_q == '0) && (qp_want != '0) && (qp_t_q == '0);
  end

  logic r_hs, rel_resp, rel_err, fd_bad, qr_hs, qr_err;
  assign r_hs     = m_rsp_i.r_valid && m_req_o.r_ready;
  assign qr_hs    = (f_st_q == F_QR) && r_hs;
  assign qr_err   = qr_hs && m_rsp_i.r.resp[1] && stm_q.run[qp_e_q] && e_tmd_q[qp_e_q].q;
  assign rel_resp = (p_st_q == P_WAIT) && as_valid_i && p_rel_q;
  assign rel_err  = rel_resp && as_err_i;
  assign fd_bad   = (step == ST_FDONE) && (f_err_q || ft_bad);

  // the fault record candidate of this cycle
  logic        rf_v;
  simt_fault_e rf_cause;
  logic [31:0] rf_pc, rf_addr, rf_loc;
  logic [EW-1:0] rf_e;
  always_comb begin
    rf_v     = 1'b0;
    rf_cause = SIMT_FAULT_NONE;
    rf_pc    = '0;
    rf_addr  = '0;
    rf_loc   = '0;
    rf_e     = '0;
    if (nf_sm_v) begin
      rf_v     = 1'b1;
      rf_cause = flt_cause_i[nf_sm];
      rf_pc    = flt_pc_i[nf_sm];
      rf_addr  = flt_addr_i[nf_sm];
      rf_loc[GC_COMPUTE_FAULT_LOC_LANE_LSB +: GC_COMPUTE_FAULT_LOC_LANE_W] = flt_lane_i[nf_sm];
      rf_loc[GC_COMPUTE_FAULT_LOC_WARP_LSB +: GC_COMPUTE_FAULT_LOC_WARP_W] = flt_warp_i[nf_sm];
      rf_loc[GC_COMPUTE_FAULT_LOC_SM_LSB +: GC_COMPUTE_FAULT_LOC_SM_W]     = 8'(nf_sm);
      rf_e     = s_ent_q[KW'(flt_slot_i[nf_sm])];
    end else if (fd_bad) begin
      rf_v     = 1'b1;
      rf_cause = f_err_q ? SIMT_FAULT_TMD_BUS_ERROR : SIMT_FAULT_BAD_TMD;
      rf_addr  = f_err_q ? e_task_q[f_ent_q] : 32'(ft_bad_ofs);
      rf_e     = f_ent_q;
    end else if (rel_err) begin
      rf_v     = 1'b1;
      rf_cause = SIMT_FAULT_TMD_BUS_ERROR;
      rf_addr  = 32'(e_tmd_q[c_ent_q].sem);
      rf_e     = c_ent_q;
    end else if (qr_err) begin
      rf_v     = 1'b1;
      rf_cause = SIMT_FAULT_TMD_BUS_ERROR;
      rf_addr  = 32'(e_tmd_q[qp_e_q].qaddr);
      rf_e     = qp_e_q;
    end
  end
  assign task_fault_o = rf_v;

  // entry error / fault-log bits set this cycle
  logic [NENT-1:0] err_set, flog_set;
  always_comb begin
    err_set = '0;
    for (int k = 0; k < NSLOT; k++) if (nf_k[k]) err_set[s_ent_q[k]] = 1'b1;
    if (fd_bad)  err_set[f_ent_q] = 1'b1;
    if (rel_err) err_set[c_ent_q] = 1'b1;
    if (qr_err)  err_set[qp_e_q] = 1'b1;
    flog_set = log_en_i ? err_set : '0;
  end

  // ------------------------------------------------------------------------------------------
  // Log record of this step (to the atomic-unit port when the log is on)
  // ------------------------------------------------------------------------------------------
  logic          rec_v;
  tmu_event_e    rec_kind;
  logic [3:0]    rec_slot, rec_dep;
  logic [7:0]    rec_lvl;
  logic [CHW-1:0] rec_ch;
  logic [31:0]   rec_task;
  logic [EW-1:0] rec_e;
  always_comb begin
    rec_v    = 1'b0;
    rec_kind = TMU_EVENT_QUEUED;
    rec_e    = '0;
    rec_slot = NO_SLOT;
    unique case (step)
      ST_FLOG: begin
        rec_v = 1'b1; rec_kind = TMU_EVENT_FAULT; rec_e = fl_e; rec_slot = e_slot_q[fl_e];
      end
      ST_CLOG: begin
        rec_v = 1'b1; rec_kind = TMU_EVENT_COMPLETE; rec_e = c_ent_q; rec_slot = e_slot_q[c_ent_q];
      end
      ST_SREL: begin
        rec_v    = sr_logged[sr_k];
        rec_kind = (s_done_q[sr_k] || s_flt_q[sr_k]) ? TMU_EVENT_CTAS_DONE : TMU_EVENT_EVICT;
        rec_e    = sr_e;
        rec_slot = 4'(sr_k);
      end
      ST_FDONE: begin
        rec_v = !(f_err_q || ft_bad); rec_kind = TMU_EVENT_QUEUED; rec_e = f_ent_q;
      end
      ST_TAKE: begin
        rec_v    = 1'b1;
        rec_kind = e_started_q[hd_e] ? TMU_EVENT_RESUME : TMU_EVENT_START;
        rec_e    = hd_e;
        rec_slot = 4'(tk_k);
      end
      ST_LAUNCH: begin
        rec_v = (ln_st != LAUNCH_STATUS_OK); rec_kind = TMU_EVENT_LAUNCH_FAIL; rec_e = ln_p;
        rec_slot = 4'(ln_k);
      end
      default: ;
    endcase
    rec_lvl  = e_lvl_q[rec_e];
    rec_dep  = e_dep_q[rec_e];
    rec_ch   = e_ch_q[rec_e];
    rec_task = e_task_q[rec_e];
    if (step == ST_FDONE && e_host_q[f_ent_q]) begin    // LEVEL / DEPTH come with the TMD
      rec_lvl = ft_lvl;
      rec_dep = ft_dep;
    end
  end

  logic [31:0] rec_word, log_mask, rec_ofs;
  logic [AW-1:0] rec_addr;
  always_comb begin
    rec_word = '0;
    rec_word[GC_TMU_LOG_EVENT_KIND_LSB +: GC_TMU_LOG_EVENT_KIND_W]       = rec_kind;
    rec_word[GC_TMU_LOG_EVENT_SLOT_LSB +: GC_TMU_LOG_EVENT_SLOT_W]       = rec_slot;
    rec_word[GC_TMU_LOG_EVENT_LEVEL_LSB +: GC_TMU_LOG_EVENT_LEVEL_W]     = rec_lvl;
    rec_word[GC_TMU_LOG_EVENT_DEPTH_LSB +: GC_TMU_LOG_EVENT_DEPTH_W]     = rec_dep;
    rec_word[GC_TMU_LOG_EVENT_CHANNEL_LSB +: GC_TMU_LOG_EVENT_CHANNEL_W] =
        GC_TMU_LOG_EVENT_CHANNEL_W'(rec_ch);
    log_mask = (32'd1 << log_size_log2_i) - 32'd1;
    rec_ofs  = log_put_q & log_mask;
    rec_addr = {log_base_i[AW-1:4], 4'h0} + (AW'(rec_ofs) << 4);
  end

  // ------------------------------------------------------------------------------------------
  // Atomic-unit port and outputs
  // ------------------------------------------------------------------------------------------
  assign aq_valid_o = (p_st_q == P_REQ);
  assign aq_op_o    = SEM_AOP_WRITE;
  assign aq_size_o  = p_size_q;
  assign aq_addr_o  = p_addr_q;
  assign aq_wdata_o = p_wdata_q;

  // the AR: a TMD's beats, or one beat of a queue TMD's header (queue polls)
  logic [AW-1:0] f_araddr;
  logic [7:0]    f_arlen;
  assign f_araddr = (f_st_q == F_QAR) ? e_tmd_q[qp_e_q].qaddr : AW'({e_task_q[f_ent_q], 8'h00});
  assign f_arlen  = (f_st_q == F_QAR) ? 8'h00 : 8'(TMD_BEATS - 1);
  assign m_req_o  = cli_rd_only('{addr: f_araddr, len: f_arlen}, (f_st_q == F_AR) || (f_st_q == F_QAR), 1'b1);

  assign done_o        = done_q;
  assign done_err_o    = done_err_q;
  assign done_ch_o     = 8'(done_ch_q);
  assign nonstall_o    = nonstall_q;
  assign icache_inv_o  = icinv_q;
  assign launch_fail_o = lfail_q;
  always_comb begin
    kill_o = '0;
    for (int k = 0; k < NSLOT; k++) kill_o[k] = s_busy_q[k] && s_flt_q[k];
  end

  // ------------------------------------------------------------------------------------------
  // Sequential: control (reset)
  // ------------------------------------------------------------------------------------------
  logic [EW-1:0] cf_e;                 // the entry a finishing step completes
  logic [EW-1:0] cf_p;
  assign cf_e = c_ent_q;
  assign cf_p = e_par_q[c_ent_q];
  logic          finish;
  assign finish = (step == ST_CFIN) || (step == ST_CLOG && !log_en_i);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int i = 0; i < NENT; i++) begin
        e_nch_q[i] <= '0;
      end
      stm_q       <= '0;
      e_host_q    <= '0;
      e_started_q <= '0;
      e_err_q     <= '0;
      e_flog_q    <= '0;
      s_busy_q    <= '0;
      s_evict_q   <= '0;
      s_flt_q     <= '0;
      s_done_q    <= '0;
      for (int k = 0; k < NSLOT; k++) s_infl_q[k] <= '0;
      f_st_q      <= F_IDLE;
      f_ent_q     <= '0;
      f_beat_q    <= '0;
      f_err_q     <= 1'b0;
      fq_rd_q     <= '0;
      fq_wr_q     <= '0;
      fq_cnt_q    <= '0;
      qp_e_q      <= '0;
      qp_rr_q     <= EW'(NENT - 1);
      qp_t_q      <= '0;
      e_qcl_q     <= '0;
      p_st_q      <= P_IDLE;
      p_rel_q     <= 1'b0;
      p_addr_q    <= '0;
      p_wdata_q   <= '0;
      p_size_q    <= '0;
      c_st_q      <= C_IDLE;
      c_ent_q     <= '0;
      rr_q        <= SMI_W'(NSM - 1);
      ln_rr_q     <= SMI_W'(NSM - 1);
      done_q      <= 1'b0;
      done_err_q  <= 1'b0;
      done_ch_q   <= '0;
      nonstall_q  <= 1'b0;
      icinv_q     <= 1'b0;
      lfail_q     <= 1'b0;
      f_cause_q   <= SIMT_FAULT_NONE;
      f_pc_q      <= '0;
      f_addr_q    <= '0;
      f_loc_q     <= '0;
      f_task_q    <= '0;
      f_ch_q      <= '0;
      lf_q        <= '0;
      lf_task_q   <= '0;
      task_reg_q  <= '0;
      log_put_q   <= '0;
      c_tasks_q   <= '0;
      c_ctas_q    <= '0;
      c_winstr_q  <= '0;
      c_tinstr_q  <= '0;
      c_active_q  <= '0;
      c_icmiss_q  <= '0;
      c_beats_q   <= '0;
      c_evict_q   <= '0;
      c_dlaunch_q <= '0;
      c_lfails_q  <= '0;
    end else begin
      logic [31:0] wi, ti, ic, bt;
      logic        act;
      logic [NENT-1:0] err_clr, flog_clr;
      stm_t            sn;
      sn = stm_q;

      // ---- counters
      wi = '0; ti = '0; ic = '0; bt = '0; act = 1'b0;
      for (int s = 0; s < NSM; s++) begin
        wi = wi + 32'(ret_valid_i[s]);
        ti = ti + (ret_valid_i[s] ? 32'(ret_threads_i[s]) : 32'h0);
        ic = ic + 32'(ic_fill_i[s]);
        bt = bt + 32'(lsu_beats_i[s]);
        if (w_act_i[s] != '0) act = 1'b1;
      end
      c_winstr_q <= c_winstr_q + wi;
      c_tinstr_q <= c_tinstr_q + ti;
      c_icmiss_q <= c_icmiss_q + ic;
      c_beats_q  <= c_beats_q + bt;
      c_active_q <= c_active_q + 32'(act);
      c_ctas_q   <= c_ctas_q + 32'(n_done);

      // ---- pulses
      done_q     <= 1'b0;
      done_err_q <= 1'b0;
      nonstall_q <= 1'b0;
      icinv_q    <= 1'b0;
      lfail_q    <= 1'b0;

      // ---- dispatch, CTAs in flight
      if (disp) begin
        rr_q <= d_sm;
        if (d_last && !d_t.q) s_done_q[d_k] <= 1'b1;
      end
      // a queue task has dispatched everything once CLOSED was seen and every entry started
      for (int k = 0; k < NSLOT; k++) begin
        if (s_busy_q[k] && e_tmd_q[s_ent_q[k]].q && e_qcl_q[s_ent_q[k]] &&
            e_qpos_q[s_ent_q[k]] == e_qput_q[s_ent_q[k]])
          s_done_q[k] <= 1'b1;
      end
      for (int k = 0; k < NSLOT; k++) begin
        s_infl_q[k] <= s_infl_q[k] + IFW'(disp && (d_k == KW'(k))) - IFW'(k_done[k]);
      end

      // ---- faults
      s_flt_q <= s_flt_q | nf_k;
      if (rf_v && !task_fault_pend_i) begin
        f_cause_q <= rf_cause;
        f_pc_q    <= rf_pc;
        f_addr_q  <= rf_addr;
        f_loc_q   <= rf_loc;
        f_task_q  <= e_task_q[rf_e];
        f_ch_q    <= e_ch_q[rf_e];
      end

      // ---- TMD fetch
      if (qp_t_q != '0) qp_t_q <= qp_t_q - PTW'(1);
      unique case (f_st_q)
        F_IDLE: if (fq_cnt_q != '0) begin
          f_ent_q  <= fq_q[fq_rd_q];
          fq_rd_q  <= inc_e(fq_rd_q);
          f_beat_q <= '0;
          f_err_q  <= 1'b0;
          f_st_q   <= F_AR;
        end else if (qp_go) begin
          qp_e_q  <= qp_pick;
          qp_rr_q <= qp_pick;
          f_st_q  <= F_QAR;
        end
        F_QAR: if (m_rsp_i.ar_ready) f_st_q <= F_QR;
        F_QR: if (r_hs) begin
          f_st_q <= F_IDLE;
          qp_t_q <= PTW'(GC_TMU_QUEUE_POLL);
          if (stm_q.run[qp_e_q] && e_tmd_q[qp_e_q].q) e_qcl_q[qp_e_q] <= m_rsp_i.r.data[31] || m_rsp_i.r.resp[1];
        end
        F_AR: if (m_rsp_i.ar_ready) f_st_q <= F_R;
        F_R: if (r_hs) begin
          f_beat_q <= f_beat_q + 4'd1;
          if (m_rsp_i.r.resp[1]) f_err_q <= 1'b1;
          if (32'(f_beat_q) == TMD_BEATS - 1) f_st_q <= F_CHK;
        end
        F_CHK: if (step == ST_FDONE) f_st_q <= F_IDLE;
        default: f_st_q <= F_IDLE;
      endcase

      // ---- atomic-unit port
      unique case (p_st_q)
        P_REQ:  if (aq_ready_i) p_st_q <= P_WAIT;
        P_WAIT: if (as_valid_i) begin
          p_st_q <= P_IDLE;
          if (!p_rel_q) log_put_q <= log_put_q + 32'd1;
        end
        default: ;
      endcase
      if (log_en_i && rec_v) begin
        p_st_q    <= P_REQ;
        p_rel_q   <= 1'b0;
        p_addr_q  <= rec_addr;
        p_wdata_q <= {rec_task, rec_word};
        p_size_q  <= SEM_ASIZE_16;
      end
      if (step == ST_CREL) begin
        p_st_q    <= P_REQ;
        p_rel_q   <= 1'b1;
        p_addr_q  <= e_tmd_q[c_ent_q].sem;
        p_wdata_q <= {32'h0, e_tmd_q[c_ent_q].pay};
        p_size_q  <= e_tmd_q[c_ent_q].four ? SEM_ASIZE_16 : SEM_ASIZE_4;
      end
      if (log_ctrl_we_i) log_put_q <= '0;

      // ---- completion engine
      err_clr  = '0;
      flog_clr = '0;
      unique case (c_st_q)
        C_IDLE: if (m_rel != '0) begin
          c_ent_q <= low_e(m_rel);
          c_st_q  <= (e_tmd_q[low_e(m_rel)].rel && !e_err_q[low_e(m_rel)]) ? C_REL : C_LOG;
        end
        C_REL:  if (step == ST_CREL) c_st_q <= C_RELW;
        C_RELW: if (rel_resp) c_st_q <= C_LOG;
        C_LOG:  if (step == ST_CLOG) c_st_q <= log_en_i ? C_FIN : C_IDLE;
        C_FIN:  if (step == ST_CFIN) c_st_q <= C_IDLE;
        default: c_st_q <= C_IDLE;
      endcase

      // ---- steps
      unique case (step)
        ST_FLOG: flog_clr[fl_e] = 1'b1;
        ST_SREL: begin
          s_busy_q[sr_k]  <= 1'b0;
          s_evict_q[sr_k] <= 1'b0;
          s_flt_q[sr_k]   <= 1'b0;
          s_done_q[sr_k]  <= 1'b0;
          if (!(s_done_q[sr_k] || s_flt_q[sr_k])) begin
            sn = st_set(sn, sr_e, TASK_STATE_PENDING);
            c_evict_q    <= c_evict_q + 32'd1;
          end else if (e_nch_q[sr_e] != '0) begin
            sn = st_set(sn, sr_e, TASK_STATE_CHILDREN);
          end else begin
            sn = st_set(sn, sr_e, TASK_STATE_RELEASE);
          end
        end
        ST_FDONE: begin
          sn = st_set(sn, f_ent_q, (f_err_q || ft_bad) ? TASK_STATE_RELEASE : TASK_STATE_PENDING);
          e_qcl_q[f_ent_q] <= 1'b0;
        end
        ST_TAKE: begin
          s_busy_q[tk_k]  <= 1'b1;
          s_evict_q[tk_k] <= 1'b0;
          s_flt_q[tk_k]   <= 1'b0;
          s_done_q[tk_k]  <= 1'b0;
          sn = st_set(sn, hd_e, TASK_STATE_RUNNING);
          e_started_q[hd_e] <= 1'b1;
          if (!e_started_q[hd_e]) icinv_q <= 1'b1;
          task_reg_q      <= e_task_q[hd_e];
        end
        ST_EVICT: s_evict_q[v_k] <= 1'b1;
        ST_LAUNCH: begin
          ln_rr_q <= ln_g;
          if (ln_st == LAUNCH_STATUS_OK) begin
            c_dlaunch_q     <= c_dlaunch_q + 32'd1;
            sn = st_set(sn, fr_e, TASK_STATE_FETCH);
            e_host_q[fr_e]  <= 1'b0;
            e_nch_q[ln_p]   <= e_nch_q[ln_p] + EW'(1);
          end else begin
            c_lfails_q <= c_lfails_q + 32'd1;
            lfail_q    <= 1'b1;
            if (!launch_fail_pend_i) begin
              lf_q <= '0;
              lf_q[GC_COMPUTE_LAUNCH_FAIL_STATUS_LSB +: GC_COMPUTE_LAUNCH_FAIL_STATUS_W] <= ln_st;
              lf_q[GC_COMPUTE_LAUNCH_FAIL_DEPTH_LSB +: GC_COMPUTE_LAUNCH_FAIL_DEPTH_W]   <= e_dep_q[ln_p];
              lf_q[GC_COMPUTE_LAUNCH_FAIL_LEVEL_LSB +: GC_COMPUTE_LAUNCH_FAIL_LEVEL_W]   <= e_lvl_q[ln_p];
              lf_task_q <= e_task_q[ln_p];
            end
          end
        end
        ST_HOST: begin
          sn = st_set(sn, fr_e, TASK_STATE_FETCH);
          e_host_q[fr_e] <= 1'b1;
        end
        default: ;
      endcase
      if (step == ST_LAUNCH && ln_st == LAUNCH_STATUS_OK || step == ST_HOST) begin
        e_started_q[fr_e] <= 1'b0;
        err_clr[fr_e]      = 1'b1;
        flog_clr[fr_e]     = 1'b1;
        fq_wr_q  <= inc_e(fq_wr_q);
      end
      fq_cnt_q <= fq_cnt_q + (EW + 1)'(step == ST_LAUNCH && ln_st == LAUNCH_STATUS_OK ||
                                       step == ST_HOST) -
                  (EW + 1)'(f_st_q == F_IDLE && fq_cnt_q != '0);

      // ---- completion: finish
      if (finish) begin
        sn = st_set(sn, cf_e, TASK_STATE_FREE);
        c_tasks_q    <= c_tasks_q + 32'd1;
        nonstall_q   <= e_tmd_q[cf_e].intr && !e_err_q[cf_e];
        if (e_host_q[cf_e]) begin
          done_q     <= 1'b1;
          done_err_q <= e_err_q[cf_e];
          done_ch_q  <= e_ch_q[cf_e];
        end else begin
          e_nch_q[cf_p] <= e_nch_q[cf_p] - EW'(1);
          if (e_nch_q[cf_p] == EW'(1) && stm_q.chld[cf_p]) sn = st_set(sn, cf_p, TASK_STATE_RELEASE);
        end
      end

      stm_q    <= sn;
      e_err_q  <= (e_err_q & ~err_clr) | err_set |
                  ((finish && !e_host_q[cf_e] && e_err_q[cf_e]) ? (NENT'(1) << cf_p) : '0);
      e_flog_q <= (e_flog_q & ~flog_clr) | flog_set;
    end
  end

  // ------------------------------------------------------------------------------------------
  // Sequential: data (no reset needed: written before they are read)
  // ------------------------------------------------------------------------------------------
  logic          al_we;
  logic [31:0]   al_task;
  always_comb begin
    al_we   = (step == ST_LAUNCH && ln_st == LAUNCH_STATUS_OK) || (step == ST_HOST);
    al_task = (step == ST_HOST) ? 32'(cmd_tmd_i >> 8) : 32'(ln_tmd_i[ln_g] >> 8);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin  // rtl/README.md, "One trigger per clock"
    if (rst_ni) begin
      // allocation
      if (al_we) begin
        e_task_q[fr_e] <= al_task;
        e_slot_q[fr_e] <= NO_SLOT;
        e_cx_q[fr_e]   <= '0;
        e_cy_q[fr_e]   <= '0;
        e_cz_q[fr_e]   <= '0;
        fq_q[fq_wr_q]  <= fr_e;
        if (step == ST_HOST) begin
          e_ch_q[fr_e]  <= CHW'(cmd_ch_i);
          e_par_q[fr_e] <= '0;
          e_lvl_q[fr_e] <= '0;
          e_dep_q[fr_e] <= 4'd1;
          e_maxd_q[fr_e] <= 4'd1;
        end else begin
          e_ch_q[fr_e]   <= e_ch_q[ln_p];
          e_par_q[fr_e]  <= ln_p;
          e_lvl_q[fr_e]  <= e_lvl_q[ln_p] + 8'd1;
          e_dep_q[fr_e]  <= e_dep_q[ln_p] + 4'd1;
          e_maxd_q[fr_e] <= e_maxd_q[ln_p];
        end
      end
      // TMD read beats
      if (f_st_q == F_R && r_hs) begin
        fb_q[2 * 32'(f_beat_q)]     <= m_rsp_i.r.data[31:0];
        fb_q[2 * 32'(f_beat_q) + 1] <= m_rsp_i.r.data[63:32];
      end
      // fetch done
      if (step == ST_FDONE) begin
        e_tmd_q[f_ent_q] <= ft;
        e_qpos_q[f_ent_q] <= '0;
        e_qput_q[f_ent_q] <= '0;
        if (e_host_q[f_ent_q]) begin
          e_lvl_q[f_ent_q]  <= ft_lvl;
          e_dep_q[f_ent_q]  <= ft_dep;
          e_maxd_q[f_ent_q] <= ft_maxd;
        end
      end
      // pending list insertion: a checked TMD (tail, or head with FLAGS.QUEUE_HEAD), an eviction
      // (head of its level)
      if ((step == ST_FDONE && !(f_err_q || ft_bad)) ||
          (step == ST_SREL && !(s_done_q[sr_k] || s_flt_q[sr_k]))) begin
        logic [EW-1:0] n;
        logic [7:0]    lv;
        logic          hd;
        if (step == ST_FDONE) begin
          n  = f_ent_q;
          lv = e_host_q[f_ent_q] ? ft_lvl : e_lvl_q[f_ent_q];
          hd = ft_qhead;
        end else begin
          n  = sr_e;
          lv = e_lvl_q[sr_e];
          hd = 1'b1;
        end
        for (int j = 0; j < NENT; j++) begin
          logic b;   // n ahead of j
          b = (EW'(j) != n) && ((lv > e_lvl_q[j]) || (lv == e_lvl_q[j] && hd));
          ahd_q[n][j] <= (EW'(j) != n) && !b;
          ahd_q[j][n] <= b;
        end
      end
      // slot take
      if (step == ST_TAKE) begin
        s_ent_q[tk_k]  <= hd_e;
        s_lvl_q[tk_k]  <= LVW'(e_lvl_q[hd_e]);   // pending: < TMU_PRIO_LEVELS (LVW)
        e_slot_q[hd_e]      <= 4'(tk_k);
        for (int j = 0; j < NSLOT; j++) begin
          if (KW'(j) != tk_k) begin
            tb_q[tk_k][j] <= 1'b0;
            tb_q[j][tk_k] <= 1'b1;
          end
        end
      end
      // queue header read: PUT.COUNT
      if (qr_hs && !m_rsp_i.r.resp[1] && stm_q.run[qp_e_q] && e_tmd_q[qp_e_q].q)
        e_qput_q[qp_e_q] <= {1'b0, m_rsp_i.r.data[30:0]};
      // dispatch progress (a queue task's last CTA of an entry: the next position)
      if (disp && d_last && d_t.q) begin
        e_cx_q[d_e]   <= '0;
        e_cy_q[d_e]   <= '0;
        e_cz_q[d_e]   <= '0;
        e_qpos_q[d_e] <= e_qpos_q[d_e] + 32'd1;
      end
      if (disp && !d_last) begin
        if (d_cx + 32'd1 != d_t.gx) begin
          e_cx_q[d_e] <= d_cx + 32'd1;
        end else begin
          e_cx_q[d_e] <= '0;
          if (d_cy + 32'd1 != d_t.gy) begin
            e_cy_q[d_e] <= d_cy + 32'd1;
          end else begin
            e_cy_q[d_e] <= '0;
            e_cz_q[d_e] <= d_cz + 32'd1;
          end
        end
      end
    end
  end

  // ------------------------------------------------------------------------------------------
  // Register block values
  // ------------------------------------------------------------------------------------------
  function automatic int unsigned RI(input logic [15:0] reg_addr);   // index in regs_o
    logic [15:0] rel;
    rel = reg_addr - GC_REG_COMPUTE_BASE;
    return 32'(rel) / 4;
  endfunction

  // counts (COMPUTE.DBG; also the waveform's TMU group)
  logic [GC_COMPUTE_DBG_PENDING_W-1:0]    npend;
  logic [GC_COMPUTE_DBG_SLOTS_BUSY_W-1:0] nbusy;
  logic [GC_COMPUTE_DBG_ENTRIES_W-1:0]    nused;
  assign npend = GC_COMPUTE_DBG_PENDING_W'($countones(m_pend));
  assign nused = GC_COMPUTE_DBG_ENTRIES_W'($countones(~m_free));
  assign nbusy = GC_COMPUTE_DBG_SLOTS_BUSY_W'($countones(s_busy_q));

  always_comb begin
    logic [31:0] wa, nfetch;
    wa = '0;
    for (int s = 0; s < NSM; s++) wa = wa + 32'($countones(w_act_i[s]));
    nfetch = 32'($countones(m_fetch));
    if (nfetch > 32'd7) nfetch = 32'd7;
    regs_o = '0;
    regs_o[RI(GC_REG_COMPUTE_CONFIG)][GC_COMPUTE_CONFIG_NUM_SM_LSB +: GC_COMPUTE_CONFIG_NUM_SM_W] =
        GC_COMPUTE_CONFIG_NUM_SM_W'(NSM);
    regs_o[RI(GC_REG_COMPUTE_CONFIG)][GC_COMPUTE_CONFIG_WARPS_LSB +: GC_COMPUTE_CONFIG_WARPS_W] =
        GC_COMPUTE_CONFIG_WARPS_W'(NW);
    regs_o[RI(GC_REG_COMPUTE_CONFIG)][GC_COMPUTE_CONFIG_LANES_LSB +: GC_COMPUTE_CONFIG_LANES_W] =
        GC_COMPUTE_CONFIG_LANES_W'(NL);
    regs_o[RI(GC_REG_COMPUTE_CONFIG)][GC_COMPUTE_CONFIG_SMEM_KB_LSB +: GC_COMPUTE_CONFIG_SMEM_KB_W] =
        GC_COMPUTE_CONFIG_SMEM_KB_W'(GC_SIMT_SMEM_BYTES / 1024);
    regs_o[RI(GC_REG_COMPUTE_DBG)][GC_COMPUTE_DBG_PENDING_LSB +: GC_COMPUTE_DBG_PENDING_W] =
        npend;
    regs_o[RI(GC_REG_COMPUTE_DBG)][GC_COMPUTE_DBG_FETCHING_LSB +: GC_COMPUTE_DBG_FETCHING_W] =
        GC_COMPUTE_DBG_FETCHING_W'(nfetch);
    regs_o[RI(GC_REG_COMPUTE_DBG)][GC_COMPUTE_DBG_SLOTS_BUSY_LSB +: GC_COMPUTE_DBG_SLOTS_BUSY_W] =
        nbusy;
    regs_o[RI(GC_REG_COMPUTE_DBG)][GC_COMPUTE_DBG_ENTRIES_LSB +: GC_COMPUTE_DBG_ENTRIES_W] =
        nused;
    regs_o[RI(GC_REG_COMPUTE_DBG)][GC_COMPUTE_DBG_EVICTING_LSB] = (s_evict_q != '0);
    regs_o[RI(GC_REG_COMPUTE_DBG)][GC_COMPUTE_DBG_WARPS_ACTIVE_LSB +: GC_COMPUTE_DBG_WARPS_ACTIVE_W] =
        GC_COMPUTE_DBG_WARPS_ACTIVE_W'(wa);
    regs_o[RI(GC_REG_COMPUTE_TASK)] = task_reg_q;
    regs_o[RI(GC_REG_COMPUTE_TMU_CONFIG)][GC_COMPUTE_TMU_CONFIG_SLOTS_LSB +: GC_COMPUTE_TMU_CONFIG_SLOTS_W] =
        GC_COMPUTE_TMU_CONFIG_SLOTS_W'(NSLOT);
    regs_o[RI(GC_REG_COMPUTE_TMU_CONFIG)][GC_COMPUTE_TMU_CONFIG_ENTRIES_LSB +: GC_COMPUTE_TMU_CONFIG_ENTRIES_W] =
        GC_COMPUTE_TMU_CONFIG_ENTRIES_W'(NENT);
    regs_o[RI(GC_REG_COMPUTE_TMU_CONFIG)][GC_COMPUTE_TMU_CONFIG_PRIO_LEVELS_LSB +: GC_COMPUTE_TMU_CONFIG_PRIO_LEVELS_W] =
        GC_COMPUTE_TMU_CONFIG_PRIO_LEVELS_W'(GC_TMU_PRIO_LEVELS);
    regs_o[RI(GC_REG_COMPUTE_CAPS)][GC_COMPUTE_CAPS_FPU_LSB] = (FPU != 0);
    regs_o[RI(GC_REG_COMPUTE_CAPS)][GC_COMPUTE_CAPS_LMEM_BYTES_LSB +: GC_COMPUTE_CAPS_LMEM_BYTES_W] =
        GC_COMPUTE_CAPS_LMEM_BYTES_W'(GC_SIMT_LMEM_BYTES);
    regs_o[RI(GC_REG_COMPUTE_FAULT_CAUSE)][GC_COMPUTE_FAULT_CAUSE_CAUSE_LSB +: GC_COMPUTE_FAULT_CAUSE_CAUSE_W] =
        f_cause_q;
    regs_o[RI(GC_REG_COMPUTE_FAULT_PC)]      = f_pc_q;
    regs_o[RI(GC_REG_COMPUTE_FAULT_ADDR)]    = f_addr_q;
    regs_o[RI(GC_REG_COMPUTE_FAULT_LOC)]     = f_loc_q;
    regs_o[RI(GC_REG_COMPUTE_FAULT_TASK)]    = f_task_q;
    regs_o[RI(GC_REG_COMPUTE_FAULT_CHANNEL)] = 32'(f_ch_q);
    regs_o[RI(GC_REG_COMPUTE_TASKS)]         = c_tasks_q;
    regs_o[RI(GC_REG_COMPUTE_CTAS)]          = c_ctas_q;
    regs_o[RI(GC_REG_COMPUTE_WARP_INSTRS)]   = c_winstr_q;
    regs_o[RI(GC_REG_COMPUTE_THREAD_INSTRS)] = c_tinstr_q;
    regs_o[RI(GC_REG_COMPUTE_ACTIVE_CYCLES)] = c_active_q;
    regs_o[RI(GC_REG_COMPUTE_ICACHE_MISSES)] = c_icmiss_q;
    regs_o[RI(GC_REG_COMPUTE_LSU_BEATS)]     = c_beats_q;
    regs_o[RI(GC_REG_COMPUTE_EVICTIONS)]     = c_evict_q;
    regs_o[RI(GC_REG_COMPUTE_DEV_LAUNCHES)]  = c_dlaunch_q;
    regs_o[RI(GC_REG_COMPUTE_LAUNCH_FAILS)]  = c_lfails_q;
    regs_o[RI(GC_REG_COMPUTE_LAUNCH_FAIL)]   = lf_q;
    regs_o[RI(GC_REG_COMPUTE_LAUNCH_FAIL_TASK)] = lf_task_q;
    regs_o[RI(GC_REG_COMPUTE_LOG_PUT)]       = log_put_q;
  end

  assign idle_o = (stm_q == '0) && (s_busy_q == '0) && (e_flog_q == '0) && (fq_cnt_q == '0) &&
                  (f_st_q == F_IDLE) && (p_st_q == P_IDLE) && (c_st_q == C_IDLE) &&
                  !done_q && !done_err_q && !nonstall_q && !icinv_q && !lfail_q &&
                  (w_act_i == '0) && !ln_any && (ret_valid_i == '0) && (ic_fill_i == '0) &&
                  (lsu_beats_i == '0) && (cta_done_i == '0) && (flt_valid_i == '0) && (qp_t_q == '0);

  logic unused_cp;
  assign unused_cp = ^{m_rsp_i.r.last, m_rsp_i.r.resp[0], m_rsp_i.aw_ready, m_rsp_i.w_ready, m_rsp_i.b_valid,
                       m_rsp_i.b_resp, w_dz, w_shi, w_pri, w_flags, w_qhi, log_base_i[3:0],
                       cmd_tmd_i[7:0], ln_tmd_i, d_t.sem, d_t.pay, d_t.rel, d_t.four, d_t.intr, d_t.qaddr,
                       m_rsp_i.r.data[63:32], cmd_ch_i[7:CHW]};

endmodule
