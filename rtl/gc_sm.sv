// gc_sm: one SIMT streaming multiprocessor.  NW warp slots of NL lanes; every thread runs
// RV32IMA, RV32F (parameter FPU; spec simt.fp) plus the SIMT CSRs and custom instructions of
// spec/gpucosim.yaml (simt:).
//
// ================================================================================ design notes
//
// Divergence: per-thread PCs, min-PC selection.  Each thread has its own PC, an exit bit and a
// barrier bit.  A warp's live threads are those neither exited nor waiting at a barrier; when the
// warp issues, it runs the instruction at the lowest PC among them, for exactly the threads at
// that PC (the active mask).  Threads that branch away from the others are left behind and
// caught up later; because every thread only ever waits for threads at lower PCs, any C control
// flow computes what sequential execution computes, and after an if/else or a loop the threads
// meet again at the join point (the lowest PC reaches it last) and run together from there, with
// no compiler help and no reconvergence stack.  (Known limit of the scheme: a spin loop waiting
// for a thread of the same warp that sits at a higher PC never ends.)
//
// Pipeline, per warp at most one instruction in IF / RR / EX; results of the FP units and of
// loads may still be in flight behind it, tracked by a per-warp scoreboard (no bypass):
//   IF  the scheduler picks the next ready warp round robin (allocated, not busy, not waiting for
//       an instruction-cache fill or for the scoreboard, some live thread), computes its min PC
//       and active mask, translates the PC (SYSMEM / VIDMEM window) and looks it up in the
//       instruction cache (gc_sm_icache).  A miss starts the line's fill and parks the warp until
//       a fill ends.  A hit is checked against the warp's scoreboard (sb_need / sb_blocked:
//       pending source or destination registers, fflags / fcsr accesses while FP instructions
//       are in flight, AMOs / FENCE while loads are, a ninth load): blocked, the warp parks
//       (hz_q) until what it waits for has been written back, and the others issue meanwhile.
//   RR  register read: rs1 / rs2 of every lane from the warp's integer or FP register file (as
//       gc_fp_pkg::fp_decode says), rs3 from the FP file.
//   EX  decode and execute for every active lane: ALU, MUL*, branches and jumps (per-lane next
//       PC), CSRs, BAR, EXIT, FENCE; address generation and checks (alignment, windows, the
//       CTA's shared memory size, local memory size) for memory instructions; LAUNCH (below).
//       ALU results are
//       written and the PCs updated at the end of EX; the warp is free again in the next cycle,
//       so NW >= 3 warps keep one instruction per cycle issuing.  Loads / stores / atomics go to
//       gc_sm_lsu, DIV / REM to gc_sm_div, F instructions to gc_sm_fpu (pipelined, 3 cycles) or
//       gc_sm_fdivsqrt (FDIV / FSQRT, 29 cycles).  Stores, atomics and DIV / REM keep the warp
//       busy until their unit is done; loads and F instructions do not: their rd is marked
//       pending in the scoreboard until the unit writes it back (at most LD_MAX = 8 loads per
//       warp; a store waits in the LSU only for the warp's loads in flight to its segment).  An
//       instruction the unit cannot take now (unit busy, or FENCE with stores in flight) is
//       replayed: the warp is released with its PCs unchanged and issues it again later.
//
// CTAs: a CTA of T threads and S bytes of shared memory takes k = max(ceil(T / NL),
// ceil(S / SEG), 1) contiguous free warp slots [b, b + k) (SEG = SMEM_BYTES / NW; the CTA owns
// shared-memory segments [b, b + k)); warp j of the CTA runs threads j*NL .. j*NL + NL - 1 (lanes
// past T start exited).  The launch initialises one warp per cycle (PCs, thread ids x/y/z, CTA
// registers).  BAR: the thread's PC moves past the BAR and it waits; when every warp of the CTA
// has all its threads exited or waiting, nothing in flight and no store awaiting its response,
// the waits end.  The CTA completes (cta_done_o) when all its threads exited and nothing of it is
// in flight; its slots are then free.
//
// Task slots (docs/tmu.md): every CTA carries its task's slot (cta_desc_t.slot), kept per warp
// with the descriptor; cta_done_slot_o names the slot of the CTA done, flt_slot_o that of the
// faulting warp, ln_slot_o that of the launching thread.
//
// Faults (illegal instruction, misaligned or out-of-window access, an access or fetch in a global
// window's NULL guard (NULL_ACCESS, checked first), bus errors, ECALL / EBREAK):
// reported on flt_* (one per cycle: EX first, then the load/store unit, then instruction
// fetch); every thread of the faulting warp is ended at once, and the compute front ends the
// rest of the task: while kill_i[k] is set, every thread of every warp of a CTA of slot k exits
// (and a warp of such a CTA being launched starts exited); those warps stop issuing, their slots
// free as their memory operations drain.  Warps of other slots are not disturbed.
//
// LAUNCH (custom-0, funct3 2, I-type with imm 0, any rd / rs1; spec simt.instructions.LAUNCH):
// one lane per issue, the lowest active lane.  In EX, while the warp has stores awaiting their
// B response (st_pend, as for FENCE) or its slot is being killed, the instruction is replayed.
// Then the lane's rs1 (the child TMD's thread address) is checked: not 256-aligned, not in the
// SYSMEM / VIDMEM window or in its NULL guard -> the request goes out with ln_bad_o set (the TMU
// answers BAD_ADDR and counts and records the failure like any other); either way ln_valid_o is raised in that EX
// cycle (ln_tmd_o = the device address, ln_slot_o) and, if ln_ready_i, rd = ln_status_i
// (combinational from the TMU), else the instruction is replayed.  Only that lane's
// PC moves on (and only its rd is written; rd = x0 drops the status); the other active lanes stay
// at the LAUNCH, so min-PC selection issues it again for the next lane.  A warp of k active lanes
// at a LAUNCH thus takes k issues (each IF, RR, EX: >= 3 cycles per lane when the TMU is ready).
module gc_sm
  import gpucosim_pkg::*;
  import gc_axi_pkg::*;
  import gc_sem_pkg::*;
  import gc_simt_pkg::*;
  import gc_fp_pkg::*;
#(
  parameter int unsigned NW       = GC_SIMT_WARPS,
  parameter int unsigned NL       = GC_SIMT_LANES,
  parameter int unsigned SM_ID    = 0,
  parameter int unsigned RTW      = 1,         // atomic-unit reservation tag width
  parameter int unsigned TAG_BASE = 0,         // reservation tag of this SM's warp 0 lane 0
  parameter int unsigned FPU      = 1,         // 1: the F extension (0: F instructions are illegal)
  localparam int unsigned AW      = GC_AXI_ADDR_W,
  localparam int unsigned WW      = (NW > 1) ? $clog2(NW) : 1,
  localparam int unsigned LW      = (NL > 1) ? $clog2(NL) : 1,
  // A CTA occupies at most NW warp slots (allocation: b + k <= NW), so a thread's linear index
  // in its CTA is < NW * NL, and so are its ids x, y, z (each <= the linear index): TIDW bits.
  // The launch's running counters (next id, next linear index) reach NW * NL: TCW bits.
  localparam int unsigned TIDW    = (NW * NL > 1) ? $clog2(NW * NL) : 1,
  localparam int unsigned TCW     = $clog2(NW * NL + 1)
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,

  // CTA launch (compute front)
  input  logic                 cta_valid_i,
  output logic                 cta_ready_o,
  input  cta_desc_t            cta_i,
  output logic                 cta_done_o,
  output logic [TSLOT_W-1:0]   cta_done_slot_o,  // the task slot of the CTA done (with cta_done_o)
  input  logic                 icache_inv_i,
  input  logic [7:0]           kill_i,           // bit k: every thread of every CTA of slot k exits

  // Faults
  output logic                 flt_valid_o,
  output logic [TSLOT_W-1:0]   flt_slot_o,       // the task slot of the faulting warp's CTA
  output simt_fault_e          flt_cause_o,
  output logic [31:0]          flt_pc_o,
  output logic [31:0]          flt_addr_o,
  output logic [7:0]           flt_warp_o,
  output logic [7:0]           flt_lane_o,

  // Device-side task launch (LAUNCH instruction): one lane per handshake, lowest lane first
  output logic                 ln_valid_o,
  input  logic                 ln_ready_i,
  output logic [AW-1:0]        ln_tmd_o,         // device address of the child TMD
  output logic                 ln_bad_o,         // its thread address is misaligned / outside the windows
  output logic [TSLOT_W-1:0]   ln_slot_o,        // the task slot of the launching thread's CTA
  input  logic [3:0]           ln_status_i,      // LAUNCH_STATUS, valid in the handshake cycle

  // Status and counters
  output logic [NW-1:0]        w_act_o,
  output logic                 ret_valid_o,      // a warp instruction completed EX
  output logic [7:0]           ret_threads_o,    // its active lanes
  output logic                 ic_fill_o,        // an instruction-cache fill started
  output logic [4:0]           lsu_beats_o,
  // global store bursts (LR/SC reservation breaks, to the atomic unit)
  output logic                 st_valid_o,
  output logic [AW-1:0]        st_addr_o,
  output logic [31:0]          st_wmask_o,
  input  logic [63:0]          timestamp_i,

  // Client memory ports
  output cli_req_t             if_req_o,    // instruction fetch (reads only)
  input  cli_rsp_t             if_rsp_i,
  output cli_req_t             m_req_o,     // load / store
  input  cli_rsp_t             m_rsp_i,

  // Atomic unit
  output logic                 aq_valid_o,
  input  logic                 aq_ready_i,
  output logic [1:0]           aq_op_o,
  output logic [GC_HOST_SEM_EXECUTE_REDUCTION_W-1:0] aq_red_o,
  output logic                 aq_signed_o,
  output logic [1:0]           aq_size_o,
  output logic [AW-1:0]        aq_addr_o,
  output logic [63:0]          aq_wdata_o,
  output logic [1:0]           aq_xop_o,
  output logic [RTW-1:0]       aq_rtag_o,
  input  logic                 as_valid_i,
  input  logic [63:0]          as_rdata_i,
  input  logic                 as_err_i
);

  localparam int unsigned SEG   = GC_SIMT_SMEM_BYTES / NW;     // shared bytes per warp slot
  localparam int unsigned SEG_W = $clog2(SEG);
  localparam int unsigned NRF   = NW * NL * 32;
  localparam int unsigned IC_OFS = $clog2(GC_SIMT_ICACHE_LINE_BYTES);
  localparam bit          HAS_FPU = (FPU != 0);
  // loads in flight per warp (gc_simt_pkg::SM_LD_MAX = 8): 8 keeps a streaming kernel's 8
  // independent loads per iteration (vecadd_x4) in flight at once; the LSU's return queue has
  // NW x LD_MAX entries
  localparam int unsigned LD_MAX = SM_LD_MAX;
  localparam int unsigned LDW    = $clog2(LD_MAX + 1);

  if ((NW & (NW - 1)) != 0 || (NL & (NL - 1)) != 0 || NL > 128 || NW > 128) begin : g_bad_cfg
    $error("gc_sm: WARPS and LANES must be powers of two (<= 128)");
  end
  if (FPU > 1) begin : g_bad_fpu
    $error("gc_sm: FPU must be 0 (no F extension) or 1");
  end

  // ------------------------------------------------------------------------------------------
  // Helpers
  // ------------------------------------------------------------------------------------------
  function automatic logic in_win(input logic [31:0] a, input logic [31:0] base,
                                  input logic [31:0] size);
    return (a >= base) && ((a - base) < size);
  endfunction

  // Global windows: is the thread address global, and its device address
  function automatic logic glob_ok(input logic [31:0] a);
    return in_win(a, GC_SIMT_WIN_SYSMEM_BASE, GC_SIMT_WIN_SYSMEM_SIZE) ||
           in_win(a, GC_SIMT_WIN_VIDMEM_BASE, GC_SIMT_WIN_VIDMEM_SIZE);
  endfunction
  // NULL guard (spec simt.windows guard): the first bytes of each global window, which no
  // access, fetch or LAUNCH of a thread reaches (NULL_ACCESS / BAD_ADDR)
  function automatic logic null_guard(input logic [31:0] a);
    return in_win(a, GC_SIMT_WIN_SYSMEM_BASE, GC_SIMT_WIN_SYSMEM_GUARD) ||
           in_win(a, GC_SIMT_WIN_VIDMEM_BASE, GC_SIMT_WIN_VIDMEM_GUARD);
  endfunction
  function automatic logic [AW-1:0] glob_dev(input logic [31:0] a);
    logic [AW-1:0] d;
    logic [31:0]   o;
    if (in_win(a, GC_SIMT_WIN_VIDMEM_BASE, GC_SIMT_WIN_VIDMEM_SIZE)) begin
      o = a - GC_SIMT_WIN_VIDMEM_BASE;
      d = AW'(GC_SIMT_WIN_VIDMEM_DEVICE) + AW'(o);
    end else begin
      o = a - GC_SIMT_WIN_SYSMEM_BASE;
      d = AW'(GC_SIMT_WIN_SYSMEM_DEVICE) + AW'(o);
    end
    return d;
  endfunction

  function automatic logic [LW-1:0] lowest(input logic [NL-1:0] m);
    logic [LW-1:0] r;
    r = '0;
    for (int l = NL - 1; l >= 0; l--) if (m[l]) r = LW'(l);
    return r;
  endfunction

  function automatic logic [31:0] alu(input logic [2:0] f3, input logic alt,
                                      input logic [31:0] a, input logic [31:0] b);
    logic [31:0] r;
    unique case (f3)
      F3_ADD:  r = alt ? (a - b) : (a + b);
      F3_SLL:  r = a << b[4:0];
      F3_SLT:  r = {31'h0, $signed(a) < $signed(b)};
      F3_SLTU: r = {31'h0, a < b};
      F3_XOR:  r = a ^ b;
      F3_SR:   r = alt ? 32'($signed(a) >>> b[4:0]) : (a >> b[4:0]);
      F3_OR:   r = a | b;
      default: r = a & b;
    endcase
    return r;
  endfunction

  // MUL, MULH, MULHSU, MULHU from one unsigned 64-bit product
  function automatic logic [31:0] mul(input logic [2:0] f3, input logic [31:0] a,
                                      input logic [31:0] b);
    logic [63:0] p;
    logic [31:0] hi;
    p  = {32'h0, a} * {32'h0, b};
    hi = p[63:32];
    unique case (f3)
      F3_ADD:  return p[31:0];                                              // MUL
      F3_SLL:  return hi - (a[31] ? b : 32'h0) - (b[31] ? a : 32'h0);       // MULH
      F3_SLT:  return hi - (a[31] ? b : 32'h0);                             // MULHSU
      default: return hi;                                                   // MULHU
    endcase
  endfunction

  function automatic logic br_taken(input logic [2:0] f3, input logic [31:0] a,
                                    input logic [31:0] b);
    logic t;
    unique case (f3)
      F3_BEQ:  t = (a == b);
      F3_BNE:  t = (a != b);
      F3_BLT:  t = ($signed(a) < $signed(b));
      F3_BGE:  t = ($signed(a) >= $signed(b));
      F3_BLTU: t = (a < b);
      default: t = (a >= b);      // BGEU
    endcase
    return t;
  endfunction

  // ------------------------------------------------------------------------------------------
  // Warp and thread state
  // ------------------------------------------------------------------------------------------
  logic [NW-1:0]           w_act_q, busy_q, fillw_q;
  logic [AW-1:0]           fline_q   [NW];     // instruction-cache line a parked warp waits for
  logic [NL-1:0][31:0]     pc_q      [NW];
  logic [NL-1:0]           exit_q    [NW];
  logic [NL-1:0]           bar_q     [NW];
  logic [WW-1:0]           base_q    [NW];     // first warp slot of the warp's CTA
  logic [WW-1:0]           wic_q     [NW];     // warp index within its CTA (< NW)
  logic [NL-1:0][TIDW-1:0] tid_x_q   [NW];     // thread ids (< NW * NL, header)
  logic [NL-1:0][TIDW-1:0] tid_y_q   [NW];
  logic [NL-1:0][TIDW-1:0] tid_z_q   [NW];
  cta_desc_t               desc_q    [NW];     // the CTA's launch descriptor, per warp
  logic [31:0]             rf_q      [NRF];    // {warp, lane, register}
  logic [31:0]             frf_q     [NRF];    // FP registers, {warp, lane, register}
  logic [NL-1:0][4:0]      fflags_q  [NW];     // per thread fcsr: accrued flags
  logic [NL-1:0][2:0]      frm_q     [NW];     //   and dynamic rounding mode

  // Scoreboard: registers with a result in flight (FPU, FDIV / FSQRT, loads), FP instructions
  // in flight (their flags are not accrued yet), loads in flight
  logic [31:0]             pend_x_q  [NW];
  logic [31:0]             pend_f_q  [NW];
  logic [3:0]              fpcnt_q   [NW];
  logic [LDW-1:0]          ldcnt_q   [NW];
  // a warp that found its next instruction blocked by the scoreboard waits for these
  logic [NW-1:0]           hz_q;
  logic [31:0]             hz_x_q    [NW];
  logic [31:0]             hz_f_q    [NW];
  logic [NW-1:0]           hz_fl_q, hz_ld_q, hz_ldmax_q;

  logic [NW-1:0]           st_pend;            // from the LSU

  // Kill: the warps of the CTAs of the killed slots (kill_i is held until they drained)
  logic [NW-1:0]           w_kill;
  always_comb begin
    for (int w = 0; w < NW; w++) w_kill[w] = w_act_q[w] && kill_i[desc_q[w].slot];
  end

  // ------------------------------------------------------------------------------------------
  // IF: warp selection, min PC, instruction cache
  // ------------------------------------------------------------------------------------------
  // What an instruction waits for in the scoreboard: the integer / FP registers it reads or
  // writes (RAW and WAW), the FP instructions in flight (fflags / fcsr accesses: their flags
  // accrue first), the warp's loads in flight (AMOs and FENCE: memory order; a store waits in
  // the LSU, only for loads of its warp to the same 128-byte segment), a free load slot.
  typedef struct packed {
    logic [31:0] x, f;
    logic        fl, ld, ldmax;
  } sb_need_t;
  function automatic sb_need_t sb_need(input logic [31:0] ins);
    sb_need_t   n;
    fp_dec_t    d;
    logic [6:0] op;
    logic [2:0] fn3;
    logic       u1, u2, wr;
    n   = '0;
    d   = fp_decode(ins);
    op  = ins[6:0];
    fn3 = ins[14:12];
    if (HAS_FPU && d.is_f) begin
      if (d.rs1_fp) n.f[ins[19:15]] = 1'b1;
      else          n.x[ins[19:15]] = 1'b1;
      if (d.rs2_fp) n.f[ins[24:20]] = 1'b1;
      if (d.rs3_fp) n.f[ins[31:27]] = 1'b1;
      if (!d.store) begin
        if (d.rd_fp) n.f[ins[11:7]] = 1'b1;
        else         n.x[ins[11:7]] = 1'b1;
      end
      n.ldmax = d.load;
    end else begin
      u1 = !(op inside {OPC_LUI, OPC_AUIPC, OPC_JAL}) && !(op == OPC_SYSTEM && fn3[2]);
      u2 = op inside {OPC_OP, OPC_STORE, OPC_BRANCH, OPC_AMO};
      wr = !(op inside {OPC_STORE, OPC_BRANCH, OPC_MISC_MEM});
      if (u1) n.x[ins[19:15]] = 1'b1;
      if (u2) n.x[ins[24:20]] = 1'b1;
      if (wr) n.x[ins[11:7]]  = 1'b1;
      n.ld    = op inside {OPC_AMO, OPC_MISC_MEM};
      n.ldmax = (op == OPC_LOAD);
      n.fl    = HAS_FPU && (op == OPC_SYSTEM) && (fn3 != F3_PRIV) &&
                (ins[31:20] == GC_FP_CSR_FFLAGS || ins[31:20] == GC_FP_CSR_FCSR);
    end
    n.x[0] = 1'b0;
    return n;
  endfunction
`ifdef GC_MUTATIONS
  // Mutation hooks, compiled only into the SIMT block bench's mutation build (Makefile: simtmut,
  // +define+GC_MUTATIONS; never into gpu_top): the plusarg +gc_mutate=N drops one scoreboard rule
  // (1: AMOs / FENCE wait for the warp's loads, and gc_sm_lsu's stores for those to their
  // segment, 2: fflags / fcsr accesses wait for its FP
  // instructions, 3: at most LD_MAX loads in flight), so that tests/rtl/simt_tb.cpp shows that
  // its checks catch the broken rule.  0 (no plusarg): the real design.
  int unsigned mut_q;
  initial mut_q = gc_mutation();
`endif
  function automatic logic sb_blocked(input sb_need_t n, input logic [31:0] px,
                                      input logic [31:0] pf, input logic [3:0] fc,
                                      input logic [LDW-1:0] lc);
    sb_need_t m;
    m = n;
`ifdef GC_MUTATIONS
    if (mut_q == 1) m.ld = 1'b0;
    if (mut_q == 2) m.fl = 1'b0;
    if (mut_q == 3) m.ldmax = 1'b0;
`endif
    return ((m.x & px) != '0) || ((m.f & pf) != '0) || (m.fl && fc != '0) ||
           (m.ld && lc != '0) || (m.ldmax && 32'(lc) == LD_MAX);
  endfunction

  logic [NW-1:0] ready, blocked;
  logic [WW-1:0] rr_q, ws;
  logic          issue;
  always_comb begin
    for (int w = 0; w < NW; w++) begin
      blocked[w] = hz_q[w] && sb_blocked('{x: hz_x_q[w], f: hz_f_q[w], fl: hz_fl_q[w], ld: hz_ld_q[w],
                                           ldmax: hz_ldmax_q[w]},
                                         pend_x_q[w], pend_f_q[w], fpcnt_q[w], ldcnt_q[w]);
      ready[w] = w_act_q[w] && !busy_q[w] && !fillw_q[w] && !w_kill[w] && !blocked[w] &&
                 ((exit_q[w] | bar_q[w]) != '1);
    end
    issue = (ready != '0);
    ws    = WW'(rr_next(64'(ready), 32'(rr_q), NW));
  end

  logic [NL-1:0] run, if_mask;
  logic [31:0]   minpc;
  always_comb begin
    run     = ~(exit_q[ws] | bar_q[ws]);
    minpc   = 32'hFFFF_FFFF;
    if_mask = '0;
    if (issue) begin   // (skipped while no warp is ready: simulation speed)
      for (int l = 0; l < NL; l++) begin
        if (run[l] && pc_q[ws][l] < minpc) minpc = pc_q[ws][l];
      end
      for (int l = 0; l < NL; l++) if_mask[l] = run[l] && (pc_q[ws][l] == minpc);
    end
  end

  logic [AW-1:0] if_dev;
  logic          if_hit, if_fault;
  simt_fault_e   if_cause;
  logic [31:0]   if_instr;
  logic          ic_miss, ic_busy, ic_done, ic_err;
  logic [AW-1:0] ic_line;
  always_comb begin
    if_dev   = glob_dev(minpc);
    if_fault = 1'b1;
    if_cause = SIMT_FAULT_NONE;
    if (null_guard(minpc)) begin
      if_cause = SIMT_FAULT_NULL_ACCESS;
    end else if (minpc[1:0] != 2'b00) begin
      if_cause = SIMT_FAULT_MISALIGNED_FETCH;
    end else if (!glob_ok(minpc)) begin
      if_cause = SIMT_FAULT_FETCH_ACCESS;
    end else begin
      if_fault = 1'b0;
    end
    ic_miss = issue && !if_fault && !if_hit;
  end

  gc_sm_icache u_icache (
    .clk_i,
    .rst_ni,
    .lk_addr_i    (if_dev),
    .lk_hit_o     (if_hit),
    .lk_instr_o   (if_instr),
    .miss_valid_i (ic_miss),
    .miss_addr_i  (if_dev),
    .fill_busy_o  (ic_busy),
    .fill_done_o  (ic_done),
    .fill_err_o   (ic_err),
    .fill_addr_o  (ic_line),
    .inval_i      (icache_inv_i),
    .m_req_o      (if_req_o),
    .m_rsp_i      (if_rsp_i)
  );
  assign ic_fill_o = ic_miss && !ic_busy;

  // the scoreboard check of the fetched instruction: blocked -> the warp waits (hz_q) until
  // what it needs is no longer in flight, and the others issue meanwhile
  sb_need_t if_need;
  logic     if_hz;
  assign if_need = sb_need(if_instr);
  assign if_hz   = sb_blocked(if_need, pend_x_q[ws], pend_f_q[ws], fpcnt_q[ws], ldcnt_q[ws]);

  logic if_go;     // an instruction (or a fetch fault) goes to RR
  assign if_go = issue && (if_fault || (if_hit && !if_hz));

  // ------------------------------------------------------------------------------------------
  // RR and EX stage registers
  // ------------------------------------------------------------------------------------------
  logic                rr_v_q, ex_v_q;
  logic [WW-1:0]       rr_w_q, ex_w_q;
  logic [31:0]         rr_pc_q, ex_pc_q, rr_instr_q, ex_instr_q;
  logic [NL-1:0]       rr_mask_q, ex_mask_q;
  simt_fault_e         rr_flt_q, ex_flt_q;
  logic [NL-1:0][31:0] ex_a_q, ex_b_q, ex_c_q;   // rs1, rs2 (x or f), rs3 (f)

  // ------------------------------------------------------------------------------------------
  // EX: decode and execute
  // ------------------------------------------------------------------------------------------
  logic [6:0]  opc, f7;
  logic [4:0]  rd, rs1f, rs2f, f5;
  logic [2:0]  f3;
  logic [11:0] csr;
  logic [31:0] imm_i, imm_s, imm_b, imm_u, imm_j;
  assign opc   = ex_instr_q[6:0];
  assign rd    = ex_instr_q[11:7];
  assign f3    = ex_instr_q[14:12];
  assign rs1f  = ex_instr_q[19:15];
  assign rs2f  = ex_instr_q[24:20];
  assign f7    = ex_instr_q[31:25];
  assign f5    = ex_instr_q[31:27];
  assign csr   = ex_instr_q[31:20];
  assign imm_i = {{20{ex_instr_q[31]}}, ex_instr_q[31:20]};
  assign imm_s = {{20{ex_instr_q[31]}}, ex_instr_q[31:25], ex_instr_q[11:7]};
  assign imm_b = {{19{ex_instr_q[31]}}, ex_instr_q[31], ex_instr_q[7], ex_instr_q[30:25],
                  ex_instr_q[11:8], 1'b0};
  assign imm_u = {ex_instr_q[31:12], 12'h0};
  assign imm_j = {{11{ex_instr_q[31]}}, ex_instr_q[31], ex_instr_q[19:12], ex_instr_q[20],
                  ex_instr_q[30:21], 1'b0};

  typedef enum logic [3:0] {
    K_ALU,      // result to rd (or nothing), PC + 4 / branch / jump
    K_MEM,      // to the load/store unit
    K_DIV,      // to the divider
    K_FPU,      // to the pipelined FP unit
    K_FDS,      // to the FP divider / square root
    K_BAR,
    K_EXIT,
    K_FENCE,
    K_LAUNCH,   // one lane (the lowest active) to the TMU, status to rd; only that lane moves on
    K_ILL
  } kind_e;

  // F instructions: decoded from the spec's encodings; the rounding mode of each active lane
  // (its frm for DYN) must be one of the five
  fp_dec_t             exd;
  logic                fcsr_sel, rm_bad;
  logic [NL-1:0][2:0]  ex_rm;
  assign exd      = fp_decode(ex_instr_q);
  assign fcsr_sel = HAS_FPU && (csr == GC_FP_CSR_FFLAGS || csr == GC_FP_CSR_FRM || csr == GC_FP_CSR_FCSR);
  always_comb begin
    rm_bad = 1'b0;
    for (int l = 0; l < NL; l++) begin
      ex_rm[l] = fp_rm(f3, frm_q[ex_w_q][l]);
      if (ex_mask_q[l] && !fp_rm_ok(ex_rm[l])) rm_bad = 1'b1;
    end
  end

  kind_e               kind;
  logic [LW-1:0]       ln_lane;         // LAUNCH: the lane handed over this time
  logic [31:0]         ln_ta;           //   its TMD thread address
  logic [3:0]          ln_res;          //   its rd value (LAUNCH_STATUS, zero-extended)
  logic                ln_addr_ok, ln_go, ln_wait;
  logic                we;              // K_ALU writes rd
  logic [NL-1:0][31:0] res, npc;
  logic                lane_flt_any;
  simt_fault_e         ex_cause;        // fault of the instruction (NONE: none)
  logic [LW-1:0]       ex_flane;
  logic [31:0]         ex_faddr;
  lsu_kind_e           mkind;
  logic [NL-1:0][1:0]  mspace;
  logic [NL-1:0][AW-1:0] maddr;
  logic [NL-1:0][31:0] mtaddr;

  // CSR value (lane-independent part) and whether the CSR exists
  logic [31:0] csr_v;
  logic        csr_ok;
  cta_desc_t   dx;
  assign dx = desc_q[ex_w_q];
  always_comb begin
    csr_ok = 1'b1;
    csr_v  = '0;
    unique case (csr)
      GC_SIMT_CSR_CYCLE:    csr_v = timestamp_i[31:0];
      GC_SIMT_CSR_CYCLEH:   csr_v = timestamp_i[63:32];
      GC_SIMT_CSR_TID_X, GC_SIMT_CSR_TID_Y, GC_SIMT_CSR_TID_Z, GC_SIMT_CSR_LANEID: csr_v = '0;
      GC_SIMT_CSR_CTAID_X:  csr_v = dx.ctaid_x;
      GC_SIMT_CSR_CTAID_Y:  csr_v = dx.ctaid_y;
      GC_SIMT_CSR_CTAID_Z:  csr_v = dx.ctaid_z;
      GC_SIMT_CSR_NTID_X:   csr_v = 32'(dx.ntid_x);
      GC_SIMT_CSR_NTID_Y:   csr_v = 32'(dx.ntid_y);
      GC_SIMT_CSR_NTID_Z:   csr_v = 32'(dx.ntid_z);
      GC_SIMT_CSR_NCTAID_X: csr_v = dx.nctaid_x;
      GC_SIMT_CSR_NCTAID_Y: csr_v = dx.nctaid_y;
      GC_SIMT_CSR_NCTAID_Z: csr_v = dx.nctaid_z;
      GC_SIMT_CSR_WARPID:   csr_v = 32'(wic_q[ex_w_q]);
      GC_SIMT_CSR_TASKID:   csr_v = dx.task_id;
      GC_SIMT_CSR_PARAM:    csr_v = dx.param;
      GC_SIMT_CSR_NLANES:   csr_v = 32'(NL);
      GC_SIMT_CSR_SMID:     csr_v = 32'(SM_ID);
      GC_SIMT_CSR_QPOS:     csr_v = dx.qpos;
      default:              csr_ok = 1'b0;
    endcase
  end

  always_comb begin
    logic        ill, is_load, is_store, is_amo, ok;
    logic [31:0] a, b, ea, tgt, off, sz;
    logic [1:0]  lg;
    simt_fault_e lc;
    kind      = K_ALU;
    we        = 1'b0;
    ill       = 1'b0;
    is_load   = 1'b0;
    is_store  = 1'b0;
    is_amo    = 1'b0;
    mkind     = LK_LOAD;
    lg        = f3[1:0];
    lane_flt_any = 1'b0;
    ex_cause  = SIMT_FAULT_NONE;
    ex_flane  = lowest(ex_mask_q);
    ex_faddr  = ex_pc_q;
    res       = '0;
    mspace    = '0;
    maddr     = '0;
    mtaddr    = '0;
    a = '0; b = '0; ea = '0; tgt = '0; off = '0; sz = '0; ok = 1'b0; lc = SIMT_FAULT_NONE;
    for (int l = 0; l < NL; l++) npc[l] = ex_pc_q + 32'd4;

    // ---- instruction class and legality
    if (ex_instr_q[1:0] != 2'b11) begin
      ill = 1'b1;
    end else if (exd.is_f) begin
      if (!HAS_FPU || !exd.legal || (exd.rounds && rm_bad)) begin
        ill = 1'b1;
      end else if (exd.load) begin
        is_load = 1'b1;
      end else if (exd.store) begin
        is_store = 1'b1;
        mkind    = LK_STORE;
      end else begin
        kind = exd.divsqrt ? K_FDS : K_FPU;
      end
    end else begin
      unique case (opc)
        OPC_LUI, OPC_AUIPC, OPC_JAL: we = 1'b1;
        OPC_JALR:   begin we = 1'b1; ill = (f3 != 3'd0); end
        OPC_BRANCH: ill = (f3 == 3'd2) || (f3 == 3'd3);
        OPC_LOAD:   begin is_load = 1'b1; ill = (f3 == 3'd3) || (f3 >= 3'd6); end
        OPC_STORE:  begin is_store = 1'b1; mkind = LK_STORE; ill = (f3 > 3'd2); end
        OPC_AMO: begin
          is_amo = 1'b1;
          mkind  = LK_AMO;
          lg     = 2'd2;
          ill    = (f3 != F3_AMO_W) || !amo_f5_ok(f5) || ((f5 == AMO_LR) && (rs2f != 5'd0));
        end
        OPC_OP_IMM: begin
          we  = 1'b1;
          ill = ((f3 == F3_SLL) && (f7 != F7_BASE)) ||
                ((f3 == F3_SR) && (f7 != F7_BASE) && (f7 != F7_ALT));
        end
        OPC_OP: begin
          we = 1'b1;
          if (f7 == F7_MULDIV) begin
            if (f3[2]) kind = K_DIV;
          end else begin
            ill = !((f7 == F7_BASE) || ((f7 == F7_ALT) && ((f3 == F3_ADD) || (f3 == F3_SR))));
          end
        end
        OPC_MISC_MEM: begin kind = K_FENCE; ill = (f3 != F3_FENCE); end
        OPC_SYSTEM: begin
          if (f3 == F3_PRIV) begin
            if (csr == IMM_ECALL && rs1f == 5'd0 && rd == 5'd0) ex_cause = SIMT_FAULT_ECALL;
            else if (csr == IMM_EBREAK && rs1f == 5'd0 && rd == 5'd0) ex_cause = SIMT_FAULT_EBREAK;
            else ill = 1'b1;
          end else if (fcsr_sel) begin
            we  = 1'b1;              // fflags / frm / fcsr: every Zicsr form
            ill = (f3 == 3'd4);
          end else begin
            we  = 1'b1;
            ill = !csr_ok || (f3 == 3'd4) || (f3 == F3_CSRRW) || (f3 == F3_CSRRWI) ||
                  (rs1f != 5'd0);    // CSRRS/C with rs1 != x0, CSRRSI/CI with uimm != 0 write
          end
        end
        default: begin
          if (opc == GC_SIMT_INSN_BAR_OPCODE && f3 == GC_SIMT_INSN_BAR_FUNCT3 &&
              rd == 5'd0 && rs1f == 5'd0 && csr == 12'h0) begin
            kind = K_BAR;
          end else if (opc == GC_SIMT_INSN_EXIT_OPCODE && f3 == GC_SIMT_INSN_EXIT_FUNCT3 &&
                       rd == 5'd0 && rs1f == 5'd0 && csr == 12'h0) begin
            kind = K_EXIT;
          end else if (opc == GC_SIMT_INSN_LAUNCH_OPCODE && f3 == GC_SIMT_INSN_LAUNCH_FUNCT3 &&
                       csr == 12'h0) begin
            kind = K_LAUNCH;
            we   = 1'b1;
          end else begin
            ill = 1'b1;
          end
        end
      endcase
    end
    if (is_load || is_store || is_amo) begin
      kind = K_MEM;
      we   = !is_store;
    end
    if (ill) begin
      kind     = K_ILL;
      we       = 1'b0;
      ex_cause = SIMT_FAULT_ILLEGAL_INSTRUCTION;
      ex_faddr = ex_instr_q;
    end
    if (ex_flt_q != SIMT_FAULT_NONE) begin      // the fetch itself failed
      kind     = K_ILL;
      we       = 1'b0;
      ex_cause = ex_flt_q;
      ex_faddr = ex_pc_q;
    end

    // ---- per lane: results, next PCs, memory addresses (skipped without an instruction in EX)
    sz = 32'd1 << lg;
    if (ex_v_q) for (int l = 0; l < NL; l++) begin
      a  = ex_a_q[l];
      b  = ex_b_q[l];
      lc = SIMT_FAULT_NONE;
      unique case (opc)
        OPC_LUI:    res[l] = imm_u;
        OPC_AUIPC:  res[l] = ex_pc_q + imm_u;
        OPC_JAL: begin
          res[l] = ex_pc_q + 32'd4;
          npc[l] = ex_pc_q + imm_j;
        end
        OPC_JALR: begin
          res[l] = ex_pc_q + 32'd4;
          npc[l] = (a + imm_i) & ~32'd1;
        end
        OPC_BRANCH: if (br_taken(f3, a, b)) npc[l] = ex_pc_q + imm_b;
        OPC_OP_IMM: res[l] = alu(f3, (f3 == F3_SR) && ex_instr_q[30], a, imm_i);
        OPC_OP:     res[l] = (f7 == F7_MULDIV) ? mul(f3, a, b) : alu(f3, ex_instr_q[30], a, b);
        OPC_SYSTEM: begin
          unique case (csr)
            GC_SIMT_CSR_TID_X:  res[l] = 32'(tid_x_q[ex_w_q][l]);
            GC_SIMT_CSR_TID_Y:  res[l] = 32'(tid_y_q[ex_w_q][l]);
            GC_SIMT_CSR_TID_Z:  res[l] = 32'(tid_z_q[ex_w_q][l]);
            GC_SIMT_CSR_LANEID: res[l] = 32'(l);
            GC_FP_CSR_FFLAGS:   res[l] = 32'(fflags_q[ex_w_q][l]);
            GC_FP_CSR_FRM:      res[l] = 32'(frm_q[ex_w_q][l]);
            GC_FP_CSR_FCSR:     res[l] = {24'h0, frm_q[ex_w_q][l], fflags_q[ex_w_q][l]};
            default:            res[l] = csr_v;
          endcase
        end
        default: ;
      endcase
      if (kind == K_LAUNCH) res[l] = 32'(ln_res);
      // a taken branch / jump to a misaligned target
      if ((opc == OPC_JAL || opc == OPC_JALR || opc == OPC_BRANCH) && npc[l][1:0] != 2'b00) begin
        lc = SIMT_FAULT_MISALIGNED_FETCH;
        tgt = npc[l];
      end
      // memory address and its checks
      if (kind == K_MEM) begin
        ea = is_amo ? a : (a + (is_store ? imm_s : imm_i));
        mtaddr[l] = ea;
        tgt = ea;
        if (null_guard(ea)) begin
          lc = SIMT_FAULT_NULL_ACCESS;
        end else if ((ea & (sz - 32'd1)) != '0) begin
          lc = (is_load || (is_amo && f5 == AMO_LR)) ? SIMT_FAULT_MISALIGNED_LOAD
                                                      : SIMT_FAULT_MISALIGNED_STORE;
        end else if (glob_ok(ea)) begin
          mspace[l] = SP_GLOBAL;
          maddr[l]  = glob_dev(ea);
        end else if (in_win(ea, GC_SIMT_WIN_SHARED_BASE, GC_SIMT_WIN_SHARED_SIZE)) begin
          off = ea - GC_SIMT_WIN_SHARED_BASE;
          ok  = (off + sz <= dx.smem_bytes) && !(is_amo && (f5 == AMO_LR || f5 == AMO_SC));
          mspace[l] = SP_SHARED;
          maddr[l]  = AW'({base_q[ex_w_q], SEG_W'(0)}) + AW'(off);
          if (!ok) lc = SIMT_FAULT_ACCESS_FAULT;
        end else if (in_win(ea, GC_SIMT_WIN_LOCAL_BASE, GC_SIMT_WIN_LOCAL_SIZE)) begin
          off = ea - GC_SIMT_WIN_LOCAL_BASE;
          ok  = (off + sz <= GC_SIMT_LMEM_BYTES) && !(is_amo && (f5 == AMO_LR || f5 == AMO_SC));
          mspace[l] = SP_LOCAL;
          maddr[l]  = AW'(off);
          if (!ok) lc = SIMT_FAULT_ACCESS_FAULT;
        end else begin
          lc = SIMT_FAULT_ACCESS_FAULT;
        end
      end
      if (ex_mask_q[l] && lc != SIMT_FAULT_NONE && !lane_flt_any && ex_cause == SIMT_FAULT_NONE) begin
        lane_flt_any = 1'b1;
        ex_flane     = LW'(l);
        ex_faddr     = tgt;
        ex_cause     = lc;
      end
    end
  end

  // ---- LAUNCH: the lowest active lane only.  Once the warp's stores have landed (else replay),
  // a thread address not 256-aligned, outside the SYSMEM / VIDMEM windows or in a NULL guard gives
  // BAD_ADDR at once; otherwise the request waits for the TMU (replay while !ln_ready_i), whose
  // status goes to rd.  The other active lanes stay at the LAUNCH and issue it again (min-PC selection).
  assign ln_lane    = lowest(ex_mask_q);
  assign ln_ta      = ex_a_q[ln_lane];
  assign ln_addr_ok = glob_ok(ln_ta) && !null_guard(ln_ta) && (ln_ta[7:0] == 8'h00);
  assign ln_go      = ex_v_q && (kind == K_LAUNCH) && (ex_cause == SIMT_FAULT_NONE) &&
                      !st_pend[ex_w_q] && !w_kill[ex_w_q];
  assign ln_valid_o = ln_go;
  assign ln_bad_o   = !ln_addr_ok;
  assign ln_tmd_o   = glob_dev(ln_ta);
  assign ln_slot_o  = dx.slot;
  assign ln_wait    = ex_v_q && (kind == K_LAUNCH) && !(ln_go && ln_ready_i);
  assign ln_res     = ln_status_i;

  // ---- what EX does with the instruction
  logic ex_fault, lsu_req, div_req, lsu_rdy, div_rdy, ex_replay, ex_done, fpu_req, fds_req, fds_rdy;
  assign ex_fault  = ex_v_q && (ex_cause != SIMT_FAULT_NONE);
  assign lsu_req   = ex_v_q && !ex_fault && (kind == K_MEM);
  assign div_req   = ex_v_q && !ex_fault && (kind == K_DIV);
  assign fpu_req   = ex_v_q && !ex_fault && (kind == K_FPU);        // never refused
  assign fds_req   = ex_v_q && !ex_fault && (kind == K_FDS);
  assign ex_replay = ex_v_q && !ex_fault && ((lsu_req && !lsu_rdy) || (div_req && !div_rdy) ||
                                             (fds_req && !fds_rdy) ||
                                             ((kind == K_FENCE) && st_pend[ex_w_q]) || ln_wait);
  assign ex_done   = ex_v_q && !ex_fault && !ex_replay;   // the PCs move on

  // the lanes whose PCs move on (and whose rd is written) when EX is done
  logic [NL-1:0] adv_mask;
  assign adv_mask = (kind == K_LAUNCH) ? (NL'(1) << ln_lane) : ex_mask_q;

  // ------------------------------------------------------------------------------------------
  // Load/store unit and divider
  // ------------------------------------------------------------------------------------------
  logic                lsu_wb, lsu_wb_load, lsu_sdone, lsu_flt;
  logic [WW-1:0]       lsu_wb_w, lsu_sdone_w, lsu_flt_w;
  logic [5:0]          lsu_wb_rd;          // {f register, rd}
  logic [NL-1:0]       lsu_wb_mask;
  logic [NL-1:0][31:0] lsu_wb_data;
  simt_fault_e         lsu_flt_cause;
  logic [7:0]          lsu_flt_lane;
  logic [31:0]         lsu_flt_pc, lsu_flt_addr;

  gc_sm_lsu #(
    .NL       (NL),
    .NW       (NW),
    .WW       (WW),
    .LQ       (NW * LD_MAX),
    .RTW      (RTW),
    .TAG_BASE (TAG_BASE)
  ) u_lsu (
    .clk_i,
    .rst_ni,
    .req_valid_i   (lsu_req),
    .req_ready_o   (lsu_rdy),
    .req_warp_i    (ex_w_q),
    .req_kind_i    (mkind),
    .req_f3_i      (f3),
    .req_f5_i      (f5),
    .req_rd_i      ({exd.load, rd}),
    .req_pc_i      (ex_pc_q),
    .req_mask_i    (ex_mask_q),
    .req_space_i   (mspace),
    .req_addr_i    (maddr),
    .req_taddr_i   (mtaddr),
    .req_wdata_i   (ex_b_q),
    .st_pend_o     (st_pend),
    .wb_valid_o    (lsu_wb),
    .wb_warp_o     (lsu_wb_w),
    .wb_rd_o       (lsu_wb_rd),
    .wb_load_o     (lsu_wb_load),
    .wb_mask_o     (lsu_wb_mask),
    .wb_data_o     (lsu_wb_data),
    .sdone_valid_o (lsu_sdone),
    .sdone_warp_o  (lsu_sdone_w),
    .flt_valid_o   (lsu_flt),
    .flt_cause_o   (lsu_flt_cause),
    .flt_warp_o    (lsu_flt_w),
    .flt_lane_o    (lsu_flt_lane),
    .flt_pc_o      (lsu_flt_pc),
    .flt_addr_o    (lsu_flt_addr),
    .beats_o       (lsu_beats_o),
    .st_valid_o,
    .st_addr_o,
    .st_wmask_o,
    .m_req_o,
    .m_rsp_i,
    .aq_valid_o,
    .aq_ready_i,
    .aq_op_o,
    .aq_red_o,
    .aq_signed_o,
    .aq_size_o,
    .aq_addr_o,
    .aq_wdata_o,
    .aq_xop_o,
    .aq_rtag_o,
    .as_valid_i,
    .as_rdata_i,
    .as_err_i
  );

  logic                div_wb;
  logic [WW-1:0]       div_wb_w;
  logic [4:0]          div_wb_rd;
  logic [NL-1:0]       div_wb_mask;
  logic [NL-1:0][31:0] div_wb_data;

  gc_sm_div #(
    .NL (NL),
    .WW (WW)
  ) u_div (
    .clk_i,
    .rst_ni,
    .req_valid_i (div_req),
    .req_ready_o (div_rdy),
    .req_warp_i  (ex_w_q),
    .req_rd_i    (rd),
    .req_mask_i  (ex_mask_q),
    .req_f3_i    (f3),
    .req_a_i     (ex_a_q),
    .req_b_i     (ex_b_q),
    .wb_valid_o  (div_wb),
    .wb_warp_o   (div_wb_w),
    .wb_rd_o     (div_wb_rd),
    .wb_mask_o   (div_wb_mask),
    .wb_data_o   (div_wb_data)
  );

  // ------------------------------------------------------------------------------------------
  // Floating-point units (FPU = 1): the pipelined unit and the divider / square root
  // ------------------------------------------------------------------------------------------
  logic                fpu_wb, fpu_wb_fp, fds_wb;
  logic [WW-1:0]       fpu_wb_w, fds_wb_w;
  logic [4:0]          fpu_wb_rd, fds_wb_rd;
  logic [NL-1:0]       fpu_wb_mask, fds_wb_mask;
  logic [NL-1:0][31:0] fpu_wb_data, fds_wb_data;
  logic [NL-1:0][4:0]  fpu_wb_fl, fds_wb_fl;

  if (HAS_FPU) begin : g_fpu
    gc_sm_fpu #(
      .NL (NL),
      .WW (WW)
    ) u_fpu (
      .clk_i,
      .rst_ni,
      .req_valid_i (fpu_req),
      .req_op_i    (exd.op),
      .req_warp_i  (ex_w_q),
      .req_rd_i    (rd),
      .req_rd_fp_i (exd.rd_fp),
      .req_mask_i  (ex_mask_q),
      .req_rm_i    (ex_rm),
      .req_a_i     (ex_a_q),
      .req_b_i     (ex_b_q),
      .req_c_i     (ex_c_q),
      .wb_valid_o  (fpu_wb),
      .wb_warp_o   (fpu_wb_w),
      .wb_rd_o     (fpu_wb_rd),
      .wb_rd_fp_o  (fpu_wb_fp),
      .wb_mask_o   (fpu_wb_mask),
      .wb_data_o   (fpu_wb_data),
      .wb_flags_o  (fpu_wb_fl)
    );
    gc_sm_fdivsqrt #(
      .NL (NL),
      .WW (WW)
    ) u_fds (
      .clk_i,
      .rst_ni,
      .req_valid_i (fds_req),
      .req_ready_o (fds_rdy),
      .req_sqrt_i  (exd.op == FOP_SQRT),
      .req_warp_i  (ex_w_q),
      .req_rd_i    (rd),
      .req_mask_i  (ex_mask_q),
      .req_rm_i    (ex_rm),
      .req_a_i     (ex_a_q),
      .req_b_i     (ex_b_q),
      .wb_valid_o  (fds_wb),
      .wb_warp_o   (fds_wb_w),
      .wb_rd_o     (fds_wb_rd),
      .wb_mask_o   (fds_wb_mask),
      .wb_data_o   (fds_wb_data),
      .wb_flags_o  (fds_wb_fl)
    );
  end else begin : g_no_fpu
    logic unused_nofpu;
    assign unused_nofpu = ^{ex_c_q, fpu_req};
    assign {fpu_wb, fpu_wb_fp, fpu_wb_w, fpu_wb_rd, fpu_wb_mask, fpu_wb_data, fpu_wb_fl} = '0;
    assign {fds_rdy, fds_wb, fds_wb_w, fds_wb_rd, fds_wb_mask, fds_wb_data, fds_wb_fl} = '0;
  end

  // ------------------------------------------------------------------------------------------
  // Scoreboard: what EX sends to a unit with a result (FPU, FDIV / FSQRT, loads) marks its rd
  // pending until the unit writes it back
  // ------------------------------------------------------------------------------------------
  logic ex_holds;  // a store, an atomic or a DIV / REM: the warp waits for its unit
  assign ex_holds = (lsu_req && mkind != LK_LOAD) || div_req;
  logic ex_ld;     // a load leaves EX (the warp goes on: loads do not block)
  assign ex_ld = ex_done && (kind == K_MEM) && (mkind == LK_LOAD);
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int w = 0; w < NW; w++) begin
        pend_x_q[w] <= '0;
        pend_f_q[w] <= '0;
        fpcnt_q[w]  <= '0;
        ldcnt_q[w]  <= '0;
      end
    end else begin
      for (int w = 0; w < NW; w++) begin
        logic [31:0]    sx, sf, cx, cf;
        logic [3:0]     fc;
        logic [LDW-1:0] lc;
        sx = '0; sf = '0; cx = '0; cf = '0;
        fc = fpcnt_q[w];
        lc = ldcnt_q[w];
        if (ex_done && ex_w_q == WW'(w)) begin
          if (kind == K_FPU || kind == K_FDS) fc = fc + 4'd1;
          if (ex_ld) lc = lc + LDW'(1);
          if (kind == K_FPU || kind == K_FDS || ex_ld) begin
            if (exd.rd_fp) sf[rd] = 1'b1;
            else           sx[rd] = 1'b1;
          end
        end
        if (fpu_wb && fpu_wb_w == WW'(w)) begin
          fc = fc - 4'd1;
          if (fpu_wb_fp) cf[fpu_wb_rd] = 1'b1;
          else           cx[fpu_wb_rd] = 1'b1;
        end
        if (fds_wb && fds_wb_w == WW'(w)) begin
          fc = fc - 4'd1;
          cf[fds_wb_rd] = 1'b1;
        end
        if (lsu_wb && lsu_wb_load && lsu_wb_w == WW'(w)) begin
          lc = lc - LDW'(1);
          if (lsu_wb_rd[5]) cf[lsu_wb_rd[4:0]] = 1'b1;
          else              cx[lsu_wb_rd[4:0]] = 1'b1;
        end
        sx[0] = 1'b0;
        pend_x_q[w] <= (pend_x_q[w] & ~cx) | sx;
        pend_f_q[w] <= (pend_f_q[w] & ~cf) | sf;
        fpcnt_q[w]  <= fc;
        ldcnt_q[w]  <= lc;
      end
    end
  end

  // ------------------------------------------------------------------------------------------
  // Instruction-fetch faults: a fill that failed, for the lowest warp waiting on its line
  // ------------------------------------------------------------------------------------------
  // (the warp search reads registers only; the fill's end, which follows the R pins, only
  // qualifies it, so the search and the lane search below are evaluated once per cycle)
  logic          fill_flt, fill_wait;
  logic [WW-1:0] fill_flt_w;
  always_comb begin
    fill_wait  = 1'b0;
    fill_flt_w = '0;
    for (int w = NW - 1; w >= 0; w--) begin
      if (fillw_q[w] && fline_q[w][AW-1:IC_OFS] == ic_line[AW-1:IC_OFS]) begin
        fill_wait  = 1'b1;
        fill_flt_w = WW'(w);
      end
    end
  end
  assign fill_flt = ic_done && ic_err && fill_wait;

  // Fault port: EX > LSU > fetch.  A fetch fault names the lowest live lane of the warp whose PC
  // is in the failed line.
  logic [LW-1:0] fill_lane;
  always_comb begin
    fill_lane = '0;
    for (int l = NL - 1; l >= 0; l--) begin
      if (!exit_q[fill_flt_w][l] && !bar_q[fill_flt_w][l] &&
          (glob_dev(pc_q[fill_flt_w][l]) >> IC_OFS) == (ic_line >> IC_OFS)) begin
        fill_lane = LW'(l);
      end
    end
  end
  logic [WW-1:0] flt_w;
  always_comb begin
    flt_valid_o = ex_fault || lsu_flt || fill_flt;
    flt_cause_o = SIMT_FAULT_FETCH_BUS_ERROR;
    flt_w       = fill_flt_w;
    flt_lane_o  = 8'(fill_lane);
    flt_pc_o    = pc_q[fill_flt_w][fill_lane];
    flt_addr_o  = pc_q[fill_flt_w][fill_lane];
    if (ex_fault) begin
      flt_cause_o = ex_cause;
      flt_w       = ex_w_q;
      flt_lane_o  = 8'(ex_flane);
      flt_pc_o    = ex_pc_q;
      flt_addr_o  = ex_faddr;
    end else if (lsu_flt) begin
      flt_cause_o = lsu_flt_cause;
      flt_w       = lsu_flt_w;
      flt_lane_o  = lsu_flt_lane;
      flt_pc_o    = lsu_flt_pc;
      flt_addr_o  = lsu_flt_addr;
    end
    flt_warp_o = 8'(flt_w);
    flt_slot_o = desc_q[flt_w].slot;
  end

  // ------------------------------------------------------------------------------------------
  // CTA allocation, launch and completion, barriers
  // ------------------------------------------------------------------------------------------
  // Warps a CTA needs: threads, shared memory, at least one
  logic [31:0]   need_t, need_s, need;
  logic          alloc_ok;
  logic [WW-1:0] alloc_b;
  logic          init_v_q;
  always_comb begin
    need_t = (32'(cta_i.nthreads) + NL - 1) / NL;
    need_s = (cta_i.smem_bytes + SEG - 1) / SEG;
    need   = (need_t > need_s) ? need_t : need_s;
    if (need == 0) need = 1;
    alloc_ok = 1'b0;
    alloc_b  = '0;
    for (int b = NW - 1; b >= 0; b--) begin
      logic free;
      free = (b + need <= NW);
      for (int w = 0; w < NW; w++) begin
        if (w >= b && 32'(w) < 32'(b) + need && w_act_q[w]) free = 1'b0;
      end
      if (free) begin
        alloc_ok = 1'b1;
        alloc_b  = WW'(b);
      end
    end
  end
  assign cta_ready_o = alloc_ok && !init_v_q;

  // Launch initialisation, one warp per cycle
  cta_desc_t       init_d_q;
  logic [WW-1:0]   init_b_q, init_j_q;        // first slot, warp being initialised (index in CTA)
  logic [WW:0]     init_k_q;                  // slots of the CTA
  logic [TCW-1:0]  init_x_q, init_y_q, init_z_q, init_t_q;   // next thread id, its linear index
  logic [NL-1:0][TIDW-1:0] it_x, it_y, it_z;
  logic [NL-1:0]   it_exit;
  logic [TCW-1:0]  it_nx, it_ny, it_nz;
  always_comb begin
    logic [TCW-1:0] x, y, z;
    x = init_x_q;
    y = init_y_q;
    z = init_z_q;
    for (int l = 0; l < NL; l++) begin
      it_x[l]    = TIDW'(x);
      it_y[l]    = TIDW'(y);
      it_z[l]    = TIDW'(z);
      it_exit[l] = (32'(init_t_q) + l >= 32'(init_d_q.nthreads));
      x = x + TCW'(1);
      if (16'(x) == init_d_q.ntid_x) begin
        x = '0;
        y = y + TCW'(1);
        if (16'(y) == init_d_q.ntid_y) begin
          y = '0;
          z = z + TCW'(1);
        end
      end
    end
    it_nx = x;
    it_ny = y;
    it_nz = z;
  end

  logic [WW-1:0] init_w;
  assign init_w = init_b_q + init_j_q;

  // CTA completion and barrier release, per CTA (named by its first slot)
  logic [NW-1:0] cta_fin, bar_go, w_quiet;
  logic          fin_any;
  logic [WW-1:0] fin_b;
  always_comb begin
    for (int w = 0; w < NW; w++) begin
      w_quiet[w] = !busy_q[w] && !st_pend[w] && (fpcnt_q[w] == '0) && (ldcnt_q[w] == '0);
    end
    for (int b = 0; b < NW; b++) begin
      logic head, fin, arrive, anybar;
      head   = w_act_q[b] && (32'(base_q[b]) == b) && !(init_v_q && 32'(init_b_q) == b);
      fin    = head;
      arrive = head;
      anybar = 1'b0;
      for (int w = 0; w < NW; w++) begin
        if (w_act_q[w] && 32'(base_q[w]) == b) begin
          if (!(exit_q[w] == '1 && w_quiet[w])) fin = 1'b0;
          if (!((exit_q[w] | bar_q[w]) == '1 && w_quiet[w])) arrive = 1'b0;
          if (bar_q[w] != '0) anybar = 1'b1;
        end
      end
      cta_fin[b] = fin;
      bar_go[b]  = arrive && anybar;
    end
    fin_any = (cta_fin != '0);
    fin_b   = '0;
    for (int b = NW - 1; b >= 0; b--) if (cta_fin[b]) fin_b = WW'(b);
  end
  assign cta_done_o      = fin_any;
  assign cta_done_slot_o = desc_q[fin_b].slot;

  // ------------------------------------------------------------------------------------------
  // Sequential: warp state, pipeline registers
  // ------------------------------------------------------------------------------------------
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      w_act_q  <= '0;
      busy_q   <= '0;
      fillw_q  <= '0;
      hz_q     <= '0;
      rr_q     <= WW'(NW - 1);
      rr_v_q   <= 1'b0;
      ex_v_q   <= 1'b0;
      init_v_q <= 1'b0;
      init_b_q <= '0;
      init_j_q <= '0;
      init_k_q <= '0;
      init_x_q <= '0;
      init_y_q <= '0;
      init_z_q <= '0;
      init_t_q <= '0;
      init_d_q <= '0;
      for (int w = 0; w < NW; w++) begin
        fline_q[w] <= '0;
        pc_q[w]    <= '0;
        exit_q[w]  <= '1;
        bar_q[w]   <= '0;
        base_q[w]  <= '0;
        wic_q[w]   <= '0;
        desc_q[w]  <= '0;
      end
    end else begin
      // ---- IF
      rr_v_q <= if_go;
      if (issue) rr_q <= ws;
      if (if_go) begin
        busy_q[ws] <= 1'b1;
        hz_q[ws]   <= 1'b0;
      end else if (issue && if_hit && if_hz) begin
        hz_q[ws] <= 1'b1;
      end else if (ic_miss) begin
        fillw_q[ws] <= 1'b1;
        fline_q[ws] <= if_dev;
      end
      if (ic_done) fillw_q <= '0;
      if (ic_done && ic_miss) fillw_q[ws] <= 1'b1;   // missed again in the same cycle

      // ---- RR -> EX
      ex_v_q <= rr_v_q;

      // ---- EX results
      if (ex_v_q) begin
        // stores, atomics and DIV / REM hold the warp until their unit is done with them; loads
        // and FP instructions do not (the scoreboard holds what depends on them)
        if (!ex_holds || ex_replay || ex_fault) busy_q[ex_w_q] <= 1'b0;
        if (ex_holds && (lsu_req ? lsu_rdy : div_rdy)) busy_q[ex_w_q] <= 1'b1;
        if (ex_done) begin
          for (int l = 0; l < NL; l++) begin
            if (adv_mask[l]) begin
              pc_q[ex_w_q][l] <= npc[l];
              if (kind == K_BAR)  bar_q[ex_w_q][l]  <= 1'b1;
              if (kind == K_EXIT) exit_q[ex_w_q][l] <= 1'b1;
            end
          end
        end
        if (ex_fault) exit_q[ex_w_q] <= '1;
      end
      // ---- units done
      if (lsu_wb && !lsu_wb_load) busy_q[lsu_wb_w] <= 1'b0;
      if (lsu_sdone) busy_q[lsu_sdone_w] <= 1'b0;
      if (div_wb)    busy_q[div_wb_w]    <= 1'b0;
      if (lsu_flt)   exit_q[lsu_flt_w]   <= '1;
      if (fill_flt)  exit_q[fill_flt_w]  <= '1;

      // ---- barriers
      for (int w = 0; w < NW; w++) begin
        if (w_act_q[w] && bar_go[base_q[w]]) bar_q[w] <= '0;
      end

      // ---- kill: every thread of the killed slots' CTAs ends
      for (int w = 0; w < NW; w++) begin
        if (w_kill[w]) begin
          exit_q[w] <= '1;
          bar_q[w]  <= '0;
        end
      end

      // ---- CTA completion frees its slots
      if (fin_any) begin
        for (int w = 0; w < NW; w++) begin
          if (w_act_q[w] && base_q[w] == fin_b) begin
            w_act_q[w] <= 1'b0;
            fillw_q[w] <= 1'b0;
          end
        end
      end

      // ---- CTA launch
      if (cta_valid_i && cta_ready_o) begin
        init_v_q <= 1'b1;
        init_d_q <= cta_i;
        init_b_q <= alloc_b;
        init_j_q <= '0;
        init_k_q <= (WW + 1)'(need);
        init_x_q <= '0;
        init_y_q <= '0;
        init_z_q <= '0;
        init_t_q <= '0;
      end
      if (init_v_q) begin
        w_act_q[init_w]  <= 1'b1;
        busy_q[init_w]   <= 1'b0;
        fillw_q[init_w]  <= 1'b0;
        hz_q[init_w]     <= 1'b0;
        pc_q[init_w]     <= {NL{init_d_q.entry_pc}};
        exit_q[init_w]   <= kill_i[init_d_q.slot] ? '1 : it_exit;
        bar_q[init_w]    <= '0;
        base_q[init_w]   <= init_b_q;
        wic_q[init_w]    <= init_j_q;
        desc_q[init_w]   <= init_d_q;
        init_x_q <= it_nx;
        init_y_q <= it_ny;
        init_z_q <= it_nz;
        init_t_q <= init_t_q + TCW'(NL);
        init_j_q <= init_j_q + WW'(1);
        if (32'(init_j_q) + 1 == 32'(init_k_q)) init_v_q <= 1'b0;
      end
    end
  end

  // What a parked warp waits for (no reset: qualified by hz_q)
  always_ff @(posedge clk_i or negedge rst_ni) begin  // rtl/README.md, "One trigger per clock"
    if (rst_ni) begin
      if (issue && if_hit && if_hz) begin
        hz_x_q[ws]     <= if_need.x;
        hz_f_q[ws]     <= if_need.f;
        hz_fl_q[ws]    <= if_need.fl;
        hz_ld_q[ws]    <= if_need.ld;
        hz_ldmax_q[ws] <= if_need.ldmax;
      end
    end
  end

  // Thread ids (no reset: written at launch)
  always_ff @(posedge clk_i or negedge rst_ni) begin  // rtl/README.md, "One trigger per clock"
    if (rst_ni) begin
      if (init_v_q) begin
        tid_x_q[init_w] <= it_x;
        tid_y_q[init_w] <= it_y;
        tid_z_q[init_w] <= it_z;
      end
    end
  end

  // Pipeline data registers (no reset: qualified by rr_v_q / ex_v_q)
  always_ff @(posedge clk_i or negedge rst_ni) begin  // rtl/README.md, "One trigger per clock"
    if (rst_ni) begin
      if (if_go) begin
        rr_w_q     <= ws;
        rr_pc_q    <= minpc;
        rr_mask_q  <= if_mask;
        rr_instr_q <= if_fault ? 32'h0 : if_instr;
        rr_flt_q   <= if_fault ? if_cause : SIMT_FAULT_NONE;
      end
      if (rr_v_q) begin
        ex_w_q     <= rr_w_q;
        ex_pc_q    <= rr_pc_q;
        ex_mask_q  <= rr_mask_q;
        ex_instr_q <= rr_instr_q;
        ex_flt_q   <= rr_flt_q;
        for (int l = 0; l < NL; l++) begin
          logic [4:0] r1, r2, r3;
          fp_dec_t    dd;
          r1 = rr_instr_q[19:15];
          r2 = rr_instr_q[24:20];
          r3 = rr_instr_q[31:27];
          dd = fp_decode(rr_instr_q);
          if (HAS_FPU && dd.is_f && dd.rs1_fp) ex_a_q[l] <= frf_q[{rr_w_q, LW'(l), r1}];
          else ex_a_q[l] <= (r1 == 5'd0) ? 32'h0 : rf_q[{rr_w_q, LW'(l), r1}];
          if (HAS_FPU && dd.is_f && dd.rs2_fp) ex_b_q[l] <= frf_q[{rr_w_q, LW'(l), r2}];
          else ex_b_q[l] <= (r2 == 5'd0) ? 32'h0 : rf_q[{rr_w_q, LW'(l), r2}];
          ex_c_q[l] <= frf_q[{rr_w_q, LW'(l), r3}];
        end
      end
    end
  end

  // Register file writes: EX (ALU), load/store unit, divider (never the same warp in one cycle);
  // no reset: a register is the program's, undefined until written
  always_ff @(posedge clk_i or negedge rst_ni) begin  // rtl/README.md, "One trigger per clock"
    if (rst_ni) begin
      if (ex_done && (kind == K_ALU || kind == K_LAUNCH) && we && rd != 5'd0) begin
        for (int l = 0; l < NL; l++) if (adv_mask[l]) rf_q[{ex_w_q, LW'(l), rd}] <= res[l];
      end
      if (lsu_wb && !lsu_wb_rd[5] && lsu_wb_rd[4:0] != 5'd0) begin
        for (int l = 0; l < NL; l++) begin
          if (lsu_wb_mask[l]) rf_q[{lsu_wb_w, LW'(l), lsu_wb_rd[4:0]}] <= lsu_wb_data[l];
        end
      end
      if (fpu_wb && !fpu_wb_fp && fpu_wb_rd != 5'd0) begin
        for (int l = 0; l < NL; l++) begin
          if (fpu_wb_mask[l]) rf_q[{fpu_wb_w, LW'(l), fpu_wb_rd}] <= fpu_wb_data[l];
        end
      end
      if (div_wb && div_wb_rd != 5'd0) begin
        for (int l = 0; l < NL; l++) begin
          if (div_wb_mask[l]) rf_q[{div_wb_w, LW'(l), div_wb_rd}] <= div_wb_data[l];
        end
      end
    end
  end

  // FP register file writes: FLW, the FPU, the divider / square root (no reset: like rf_q)
  always_ff @(posedge clk_i or negedge rst_ni) begin  // rtl/README.md, "One trigger per clock"
    if (rst_ni) begin
      if (lsu_wb && lsu_wb_rd[5]) begin
        for (int l = 0; l < NL; l++) begin
          if (lsu_wb_mask[l]) frf_q[{lsu_wb_w, LW'(l), lsu_wb_rd[4:0]}] <= lsu_wb_data[l];
        end
      end
      if (fpu_wb && fpu_wb_fp) begin
        for (int l = 0; l < NL; l++) begin
          if (fpu_wb_mask[l]) frf_q[{fpu_wb_w, LW'(l), fpu_wb_rd}] <= fpu_wb_data[l];
        end
      end
      if (fds_wb) begin
        for (int l = 0; l < NL; l++) begin
          if (fds_wb_mask[l]) frf_q[{fds_wb_w, LW'(l), fds_wb_rd}] <= fds_wb_data[l];
        end
      end
    end
  end

  // fcsr per thread: cleared when the warp is launched; the FP units' flags accrue (OR) at their
  // write back; CSRRW / CSRRS / CSRRC (and the immediate forms) on fflags, frm, fcsr write it in
  // EX.  A CSR access to fflags / fcsr waits (scoreboard) until no FP instruction of its warp is
  // in flight, so the two never meet on one thread.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int w = 0; w < NW; w++) begin
        fflags_q[w] <= '0;
        frm_q[w]    <= '0;
      end
    end else begin
      // both units may write back flags of one warp in the same cycle: one OR per thread
      for (int w = 0; w < NW; w++) begin
        for (int l = 0; l < NL; l++) begin
          logic [4:0] acc;
          acc = '0;
          if (fpu_wb && fpu_wb_w == WW'(w) && fpu_wb_mask[l]) acc = acc | fpu_wb_fl[l];
          if (fds_wb && fds_wb_w == WW'(w) && fds_wb_mask[l]) acc = acc | fds_wb_fl[l];
          if (acc != '0) fflags_q[w][l] <= fflags_q[w][l] | acc;
        end
      end
      if (ex_done && opc == OPC_SYSTEM && fcsr_sel) begin
        for (int l = 0; l < NL; l++) begin
          logic [7:0] old, src, nv;
          old = (csr == GC_FP_CSR_FFLAGS) ? {3'b000, fflags_q[ex_w_q][l]} :
                (csr == GC_FP_CSR_FRM)    ? {5'b00000, frm_q[ex_w_q][l]} :
                                            {frm_q[ex_w_q][l], fflags_q[ex_w_q][l]};
          src = f3[2] ? {3'b000, rs1f} : ex_a_q[l][7:0];
          unique case (f3[1:0])
            2'b01:   nv = src;                     // CSRRW(I)
            2'b10:   nv = old | src;               // CSRRS(I)
            default: nv = old & ~src;              // CSRRC(I)
          endcase
          if (adv_mask[l]) begin
            if (csr == GC_FP_CSR_FFLAGS) fflags_q[ex_w_q][l] <= nv[4:0];
            else if (csr == GC_FP_CSR_FRM) frm_q[ex_w_q][l] <= nv[2:0];
            else begin
              fflags_q[ex_w_q][l] <= nv[4:0];
              frm_q[ex_w_q][l]    <= nv[7:5];
            end
          end
        end
      end
      if (init_v_q) begin
        fflags_q[init_w] <= '0;
        frm_q[init_w]    <= '0;
      end
    end
  end

  // ------------------------------------------------------------------------------------------
  // Outputs
  // ------------------------------------------------------------------------------------------
  assign w_act_o     = w_act_q;
  assign ret_valid_o = ex_done;
  always_comb begin
    ret_threads_o = '0;
    for (int l = 0; l < NL; l++) ret_threads_o = ret_threads_o + 8'(adv_mask[l]);
  end

  logic unused_sm;
  assign unused_sm = ^{lane_flt_any, ic_line[IC_OFS-1:0], dx.entry_pc, dx.nthreads};

endmodule
