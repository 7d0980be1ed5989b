/* ref_compute.c: runlist 0's compute engine in the ref model (gc_compute's task management unit,
 * CTA dispatcher and SMs), functionally, following docs/tmu.md.
 *
 * Task management unit.  A host launch (SEND_SIGNALING_PCAS_B SCHEDULE, handed over by the
 * PBDMA when an entry is free) or a device launch (the LAUNCH instruction) takes a task table
 * entry (FETCH).  TMD reads go one at a time in launch order (a read takes the memory's latency
 * + 4 cycles); the TMD is checked (BAD_TMD, TMD_BUS_ERROR; for host launches also PRIORITY.LEVEL)
 * and the task enters the pending list (QUEUED): ordered by LEVEL, within a level at the tail or,
 * with FLAGS.QUEUE_HEAD (or back from an eviction), at the head.  While a slot is free the
 * pending head takes the lowest free one (START, or RESUME; a START invalidates the instruction
 * caches); while none is free and TMU_CTRL.NO_EVICT is clear, a pending head of a strictly higher
 * LEVEL than some evictable running task (undispatched CTAs left, no fault) starts evicting the
 * lowest-LEVEL one (among equals the last to take its slot): its dispatch stops, its CTAs in
 * flight finish, then it gives the slot up (EVICT) and re-enters the pending list at the head of
 * its level with its next CTA kept.  A running task whose CTAs are all dispatched and done gives
 * its slot up and completes, or waits for its children (CTAS_DONE).  Completing: the release
 * (not after a fault of the task or a descendant), COMPLETE, FLAGS.INTERRUPT (ditto), TASKS + 1,
 * then the parent's children count, or (host launch) the PBDMA is told, per channel.
 *
 * Dispatch.  At most one CTA a cycle: the RUNNING task of the highest LEVEL (among equals the
 * first to take its slot) that may dispatch offers its next CTA (x fastest) to the SMs, round
 * robin among those with enough contiguous free warp slots (threads / LANES, or more for its
 * shared memory); if none can take it nothing is dispatched (strict priority).  The CTA is
 * interpreted at once, whole: its memory effects happen at its dispatch; but never further than
 * the model runs: once its least advanced live warp passed the horizon (the end of the current
 * run, at least CTA_AHEAD cycles ahead, never past the watchdog's limit) the interpretation stops
 * and goes on when the clock reaches that point, so a kernel that never ends costs only the cycle
 * budget the host gave, as on the RTL (the watchdog and the dump name its CTA, warp and PC); a CTA
 * of a task that faulted meanwhile is killed then.  Each warp accumulates
 * its own latency (3 cycles per instruction, the memory latency for a global access, 34 for a
 * DIV/REM, instruction-cache fills, an atomic round trip per lane of a global AMO) and the CTA
 * holds its warp slots until one cycle per warp + its slowest warp, and no earlier than its SM's
 * issue port (one warp instruction a cycle, shared by the SM's CTAs) and the atomic unit (shared
 * by every SM) could have served it.  A LAUNCH enters the task table at once (the status is
 * decided when the CTA is interpreted) with the TMD as the thread left it at the LAUNCH; the TMD
 * read's time starts at the launching warp's time.
 *
 * Threads run RV32IMAF with the spec's CSRs, BAR, EXIT and LAUNCH, the thread address windows
 * (SYSMEM, VIDMEM, the CTA's shared memory, the thread's local memory), global atomics and LR/SC
 * (one reservation per thread, broken by any global write to its word), min-PC reconvergence in a
 * warp, warps round robin one instruction at a time.  F (spec simt.fp): per-thread f0..f31 and
 * fcsr (zero at the thread's start), the arithmetic of ref_fp.c (integer C, bit-exact RISC-V, flags
 * accrued into fflags), FLW / FSW through the same windows and faults as LW / SW, fflags / frm /
 * fcsr in every Zicsr form; a reserved rm (static 5, 6, or DYN with frm 5..7), fmt D and the
 * unassigned encodings fault ILLEGAL_INSTRUCTION.  An F instruction costs 3 cycles like the rest.
 * A fault stops the CTA's interpretation and the task's dispatch; it is reported (COMPUTE.FAULT_*,
 * TASK_FAULT, log FAULT, kill of the task's CTAs in flight) when the faulting CTA ends.  The
 * functional results are exact for programs without races between CTAs, tasks or engines.
 *
 * Task log: every event is queued in order and written as a 16-byte record through the atomic
 * unit, one at a time (requester REF_AU_LOG); a logged TMU step waits while REF_LOG_BACKLOG
 * records are not yet written.
 *
 * Size (~1.5k lines, above the tree's ~1,000): the task management unit and the CTA interpreter
 * share the task table, the slots and the per-CTA warp state at every step (dispatch, eviction,
 * a LAUNCH from a thread, a fault ending the task's dispatch), so they are kept in one file.
 */
#include <stdlib.h>
#include <string.h>

#include "ref_bus.h"
#include "ref_compute.h"
#include "ref_fp.h"

#define DIV_CYCLES 34u
#define CTA_AHEAD (1ull << 20)  /* cycles a CTA's interpretation may run ahead of the model's clock */
#define TMD_READ_EXTRA 4u        /* a TMD read: the memory's latency + its 8 beats, about */
#define REF_LOG_BACKLOG 2u       /* log records not yet written that hold back the next logged step */
#define MAX_THREADS (GC_SIMT_WARPS * GC_SIMT_LANES)

_Static_assert(GC_SIMT_WARPS <= 32, "warp slots of an SM are a 32-bit mask");
_Static_assert(GC_TMU_SLOTS < REF_TMU_NONE, "slot numbers fit TMU_LOG SLOT below 'none'");

enum { T_LIVE, T_BAR, T_EXIT };

typedef struct thr {
    uint32_t x[32];
    uint32_t f[32];         /* RV32F registers (bit patterns) */
    uint32_t fcsr;          /* frm 7:5, fflags 4:0 */
    uint32_t pc;
    uint8_t st;
    bool resv;
    uint32_t resv_addr;
    uint32_t tid[3];
} thr_t;

typedef struct scratch {
    thr_t t[MAX_THREADS];
    uint8_t smem[GC_SIMT_SMEM_BYTES];
    uint8_t lmem[(size_t)MAX_THREADS * GC_SIMT_LMEM_BYTES];
} scratch_t;

/* One CTA being interpreted. */
typedef struct run {
    ref_t *r;
    ref_cmp_t *c;
    uint32_t ent, task, sm, w0;
    uint32_t entry, param, grid[3], cta[3], smem_bytes, lanes, nthr, nwarps;
    uint32_t ctaid[3];
    uint32_t qpos;          /* queue TMDs: the CTA's entry position (CSR QPOS) */
    thr_t *t;
    uint8_t *smem, *lmem;
    uint64_t t0;            /* dispatch cycle */
    uint64_t cycles;        /* the running warp's time since t0 (CSR CYCLE, LAUNCH) */
    uint64_t issues;        /* warp instructions issued */
    uint64_t au_time;       /* global atomics: the one atomic unit serves them one lane at a time */
    uint64_t wlat[GC_SIMT_WARPS]; /* per warp: its latency */
    bool faulted;
    uint32_t f_cause, f_pc, f_addr, f_loc;
    uint32_t fill;          /* the last fetch's instruction-cache fill latency (0: a hit) */
} run_t;

/* A CTA in flight being interpreted (ref_cmp_t.run[i] for ref_cta_t cta[i]; kept between CTAs) */
typedef struct cta_run {
    run_t k;
    scratch_t sc;
} cta_run_t;

static uint32_t tmu_device_launch(run_t *k, uint32_t thread_addr);

/* ------------------------------------------------------------------ fault record */
/* The CTA's first fault (the lowest faulting lane of the instruction): reported when it ends. */
static void cta_fault(run_t *k, uint32_t cause, uint32_t pc, uint32_t addr, uint32_t lane, uint32_t wi) {
    if (k->faulted) return;
    k->faulted = true;
    k->f_cause = cause;
    k->f_pc = pc;
    k->f_addr = addr;
    k->f_loc = GC_COMPUTE_FAULT_LOC_LANE(lane) | GC_COMPUTE_FAULT_LOC_WARP(k->w0 + wi) | GC_COMPUTE_FAULT_LOC_SM(k->sm);
}

/* ------------------------------------------------------------------ memory windows */
static bool in_win(uint32_t a, uint64_t base, uint64_t size) { return a >= base && (uint64_t)a - base < size; }

/* Global thread address -> device address. */
static bool global_dev(uint32_t a, uint64_t *dev) {
    if (in_win(a, GC_SIMT_WIN_VIDMEM_BASE, GC_SIMT_WIN_VIDMEM_SIZE)) {
        *dev = GC_SIMT_WIN_VIDMEM_DEVICE + (a - (uint64_t)GC_SIMT_WIN_VIDMEM_BASE);
        return true;
    }
    if (in_win(a, GC_SIMT_WIN_SYSMEM_BASE, GC_SIMT_WIN_SYSMEM_SIZE)) {
        *dev = GC_SIMT_WIN_SYSMEM_DEVICE + (a - (uint64_t)GC_SIMT_WIN_SYSMEM_BASE);
        return true;
    }
    return false;
}

/* The NULL guard (spec simt.windows guard): the first bytes of each global window, which no
 * access, fetch or LAUNCH of a thread reaches (NULL_ACCESS, checked before alignment; BAD_ADDR). */
static bool null_guard(uint32_t a) {
    return in_win(a, GC_SIMT_WIN_SYSMEM_BASE, GC_SIMT_WIN_SYSMEM_GUARD) ||
           in_win(a, GC_SIMT_WIN_VIDMEM_BASE, GC_SIMT_WIN_VIDMEM_GUARD);
}

typedef enum { W_GLOBAL, W_SHARED, W_LOCAL, W_NONE } win_t;

/* Classify an access of n bytes; *p points at on-chip memory, *dev at global. */
static win_t where(run_t *k, uint32_t tidx, uint32_t a, uint32_t n, uint8_t **p, uint64_t *dev) {
    if (global_dev(a, dev)) return W_GLOBAL;
    if (in_win(a, GC_SIMT_WIN_SHARED_BASE, GC_SIMT_WIN_SHARED_SIZE)) {
        uint32_t off = a - GC_SIMT_WIN_SHARED_BASE;
        if ((uint64_t)off + n > k->smem_bytes) return W_NONE;
        *p = k->smem + off;
        return W_SHARED;
    }
    if (in_win(a, GC_SIMT_WIN_LOCAL_BASE, GC_SIMT_WIN_LOCAL_SIZE)) {
        uint32_t off = a - GC_SIMT_WIN_LOCAL_BASE;
        if ((uint64_t)off + n > GC_SIMT_LMEM_BYTES) return W_NONE;
        *p = k->lmem + (size_t)tidx * GC_SIMT_LMEM_BYTES + off;
        return W_LOCAL;
    }
    return W_NONE;
}

static uint32_t ld_le(const uint8_t *p, uint32_t n) {
    uint32_t v = 0;
    for (uint32_t i = 0; i < n; i++) v |= (uint32_t)p[i] << (8u * i);
    return v;
}
static void st_le(uint8_t *p, uint32_t v, uint32_t n) {
    for (uint32_t i = 0; i < n; i++) p[i] = (uint8_t)(v >> (8u * i));
}

/* Every thread's reservation on the word at `a` (a global thread address) is broken.  The
 * reservation granule is the 4-byte word, as in the RTL (gc_atomic_unit: a landed write breaks the
 * reservations on exactly the words it writes; plain stores likewise). */
static void break_resv(run_t *k, uint32_t a) {
    for (uint32_t i = 0; i < k->nthr; i++)
        if (k->t[i].resv && (k->t[i].resv_addr >> 2) == (a >> 2)) k->t[i].resv = false;
}

typedef struct ires {
    uint32_t cause, addr; /* cause != NONE: the thread faulted */
    bool global_mem, div, amo;
    uint32_t lat;         /* global access: the memory's latency */
} ires_t;

/* Where an n-byte access at thread address ad goes (*wn, *p, *dev as where()); the fault cause
 * (NULL_ACCESS in a NULL guard, checked first; `misaligned` when ad is not n-aligned, ACCESS_FAULT
 * outside every window) or NONE. */
static uint32_t mem_place(run_t *k, uint32_t tidx, uint32_t ad, uint32_t n, uint32_t misaligned, win_t *wn,
                          uint8_t **p, uint64_t *dev) {
    if (null_guard(ad)) return GC_SIMT_FAULT_NULL_ACCESS;
    if (ad % n) return misaligned;
    *wn = where(k, tidx, ad, n, p, dev);
    return *wn == W_NONE ? GC_SIMT_FAULT_ACCESS_FAULT : GC_SIMT_FAULT_NONE;
}

/* A load of n bytes (n-aligned) at thread address ad into *v; the fault cause or NONE. */
static uint32_t mem_load(run_t *k, uint32_t tidx, uint32_t ad, uint32_t n, ires_t *res, uint32_t *v) {
    uint8_t *p = NULL, buf[4];
    uint64_t dev = 0;
    win_t wn = W_NONE;
    uint32_t c = mem_place(k, tidx, ad, n, GC_SIMT_FAULT_MISALIGNED_LOAD, &wn, &p, &dev);
    if (c != GC_SIMT_FAULT_NONE) return c;
    if (wn == W_GLOBAL) {
        res->global_mem = true;
        res->lat = ref_latency(dev);
        if (!ref_mem_read(k->r, dev, buf, n)) return GC_SIMT_FAULT_LOAD_BUS_ERROR;
        p = buf;
    }
    *v = ld_le(p, n);
    return GC_SIMT_FAULT_NONE;
}

/* A store of the low n bytes of v at thread address ad; the fault cause or NONE. */
static uint32_t mem_store(run_t *k, uint32_t tidx, uint32_t ad, uint32_t n, ires_t *res, uint32_t v) {
    uint8_t *p = NULL, buf[4];
    uint64_t dev = 0;
    win_t wn = W_NONE;
    uint32_t c = mem_place(k, tidx, ad, n, GC_SIMT_FAULT_MISALIGNED_STORE, &wn, &p, &dev);
    if (c != GC_SIMT_FAULT_NONE) return c;
    if (wn != W_GLOBAL) {
        st_le(p, v, n);
        return GC_SIMT_FAULT_NONE;
    }
    res->global_mem = true;
    st_le(buf, v, n);
    if (!ref_mem_write(k->r, dev, buf, n)) return GC_SIMT_FAULT_STORE_BUS_ERROR;
    break_resv(k, ad); /* a plain store breaks them too */
    ref_snoop(k->r, dev, n); /* and wakes the acquires on its word (the crossbar's write snoop) */
    return GC_SIMT_FAULT_NONE;
}

/* ------------------------------------------------------------------ one thread instruction */
static uint32_t csr_value(run_t *k, uint32_t tidx, uint32_t csr, bool *ok) {
    const thr_t *t = &k->t[tidx];
    uint64_t cyc = ref_time(k->r, k->t0 + k->cycles);
    *ok = true;
    switch (csr) {
    case GC_SIMT_CSR_CYCLE: return (uint32_t)cyc;
    case GC_SIMT_CSR_CYCLEH: return (uint32_t)(cyc >> 32);
    case GC_SIMT_CSR_TID_X: return t->tid[0];
    case GC_SIMT_CSR_TID_Y: return t->tid[1];
    case GC_SIMT_CSR_TID_Z: return t->tid[2];
    case GC_SIMT_CSR_CTAID_X: return k->ctaid[0];
    case GC_SIMT_CSR_CTAID_Y: return k->ctaid[1];
    case GC_SIMT_CSR_CTAID_Z: return k->ctaid[2];
    case GC_SIMT_CSR_NTID_X: return k->cta[0];
    case GC_SIMT_CSR_NTID_Y: return k->cta[1];
    case GC_SIMT_CSR_NTID_Z: return k->cta[2];
    case GC_SIMT_CSR_NCTAID_X: return k->grid[0];
    case GC_SIMT_CSR_QPOS: return k->qpos;
    case GC_SIMT_CSR_NCTAID_Y: return k->grid[1];
    case GC_SIMT_CSR_NCTAID_Z: return k->grid[2];
    case GC_SIMT_CSR_WARPID: return tidx / k->lanes;
    case GC_SIMT_CSR_LANEID: return tidx % k->lanes;
    case GC_SIMT_CSR_TASKID: return k->task;
    case GC_SIMT_CSR_PARAM: return k->param;
    case GC_SIMT_CSR_NLANES: return k->lanes;
    case GC_SIMT_CSR_SMID: return k->sm;
    default: *ok = false; return 0;
    }
}

static int32_t sext(uint32_t v, uint32_t bits) { return (int32_t)(v << (32u - bits)) >> (32u - bits); }


/* ------------------------------------------------------------------ RV32F (spec simt.fp) */
/* The rounding mode of an instruction's rm field (DYN: the thread's frm); false when reserved. */
static bool fp_rm(const thr_t *t, uint32_t f3, unsigned *rm) {
    if (f3 == GC_FP_RM_DYN) f3 = t->fcsr >> 5;
    if (f3 > GC_FP_RM_RMM) return false;
    *rm = f3;
    return true;
}

/* Read-modify-write of fflags / frm / fcsr by CSRRW/S/C[I] (f3 != 0, 4); the old value. */
static uint32_t fp_csr(thr_t *t, uint32_t csr, uint32_t f3, uint32_t src, bool src_zero) {
    uint32_t shift = csr == GC_FP_CSR_FRM ? 5u : 0u;
    uint32_t mask = csr == GC_FP_CSR_FFLAGS ? GC_FP_CSR_FFLAGS_MASK : csr == GC_FP_CSR_FRM ? GC_FP_CSR_FRM_MASK
                                                                                         : GC_FP_CSR_FCSR_MASK;
    uint32_t old = (t->fcsr >> shift) & mask, nv = old;
    switch (f3 & 3u) {
    case 1: nv = src; break;                    /* CSRRW[I] */
    case 2: if (!src_zero) nv = old | src; break; /* CSRRS[I] */
    default: if (!src_zero) nv = old & ~src; break; /* CSRRC[I] */
    }
    t->fcsr = (t->fcsr & ~(mask << shift)) | ((nv & mask) << shift);
    return old;
}

/* An OP-FP instruction (fmt checked); the fault cause or NONE.  A result for x[rd] goes to *xv
 * with *to_x set, one for f[rd] to *fv. */
static uint32_t fp_op(thr_t *t, uint32_t w, uint32_t *fv, uint32_t *xv, bool *to_x) {
    uint32_t f5 = w >> 27, f3 = (w >> 12) & 7u, rs1 = (w >> 15) & 31u, rs2 = (w >> 20) & 31u;
    uint32_t a = t->f[rs1], b = t->f[rs2];
    unsigned rm = 0, fl = 0;
    const uint32_t ill = GC_SIMT_FAULT_ILLEGAL_INSTRUCTION;
    *to_x = false;
    switch (f5) {
    case GC_FP_F5_FADD: case GC_FP_F5_FSUB: case GC_FP_F5_FMUL: case GC_FP_F5_FDIV: case GC_FP_F5_FSQRT:
        if (f5 == GC_FP_F5_FSQRT && rs2 != GC_FP_RS2_FSQRT) return ill;
        if (!fp_rm(t, f3, &rm)) return ill;
        *fv = f5 == GC_FP_F5_FADD ? rf_add(a, b, rm, &fl)
            : f5 == GC_FP_F5_FSUB ? rf_sub(a, b, rm, &fl)
            : f5 == GC_FP_F5_FMUL ? rf_mul(a, b, rm, &fl)
            : f5 == GC_FP_F5_FDIV ? rf_div(a, b, rm, &fl) : rf_sqrt(a, rm, &fl);
        break;
    case GC_FP_F5_FSGNJ: /* FSGNJ, FSGNJN, FSGNJX share funct5 */
        if (f3 == GC_FP_F3_FSGNJ) *fv = (a & 0x7FFFFFFFu) | (b & 0x80000000u);
        else if (f3 == GC_FP_F3_FSGNJN) *fv = (a & 0x7FFFFFFFu) | (~b & 0x80000000u);
        else if (f3 == GC_FP_F3_FSGNJX) *fv = a ^ (b & 0x80000000u);
        else return ill;
        break;
    case GC_FP_F5_FMIN: /* FMIN, FMAX */
        if (f3 == GC_FP_F3_FMIN) *fv = rf_min(a, b, &fl);
        else if (f3 == GC_FP_F3_FMAX) *fv = rf_max(a, b, &fl);
        else return ill;
        break;
    case GC_FP_F5_FEQ: /* FEQ, FLT, FLE */
        if (f3 == GC_FP_F3_FEQ) *xv = rf_eq(a, b, &fl);
        else if (f3 == GC_FP_F3_FLT) *xv = rf_lt(a, b, &fl);
        else if (f3 == GC_FP_F3_FLE) *xv = rf_le(a, b, &fl);
        else return ill;
        *to_x = true;
        break;
    case GC_FP_F5_FCVT_W_S: /* FCVT.W.S, FCVT.WU.S */
        if (!fp_rm(t, f3, &rm)) return ill;
        if (rs2 == GC_FP_RS2_FCVT_W_S) *xv = (uint32_t)rf_to_i32(a, rm, &fl);
        else if (rs2 == GC_FP_RS2_FCVT_WU_S) *xv = rf_to_u32(a, rm, &fl);
        else return ill;
        *to_x = true;
        break;
    case GC_FP_F5_FCVT_S_W: /* FCVT.S.W, FCVT.S.WU: the source is x[rs1] */
        if (!fp_rm(t, f3, &rm)) return ill;
        if (rs2 == GC_FP_RS2_FCVT_S_W) *fv = rf_from_i32((int32_t)t->x[rs1], rm, &fl);
        else if (rs2 == GC_FP_RS2_FCVT_S_WU) *fv = rf_from_u32(t->x[rs1], rm, &fl);
        else return ill;
        break;
    case GC_FP_F5_FMV_X_W: /* FMV.X.W, FCLASS */
        if (rs2 != GC_FP_RS2_FMV_X_W) return ill;
        if (f3 == GC_FP_F3_FMV_X_W) *xv = a;
        else if (f3 == GC_FP_F3_FCLASS) *xv = rf_class(a);
        else return ill;
        *to_x = true;
        break;
    case GC_FP_F5_FMV_W_X:
        if (rs2 != GC_FP_RS2_FMV_W_X || f3 != GC_FP_F3_FMV_W_X) return ill;
        *fv = t->x[rs1];
        break;
    default: return ill;
    }
    t->fcsr |= fl; /* accrued */
    return GC_SIMT_FAULT_NONE;
}

/* The F instructions (LOAD-FP, STORE-FP, the fused multiply-adds, OP-FP); the fault cause or
 * NONE (res->addr is set with a cause).  *xv / *to_x as fp_op. */
static uint32_t fp_exec(run_t *k, uint32_t tidx, uint32_t w, ires_t *res, uint32_t *xv, bool *to_x) {
    thr_t *t = &k->t[tidx];
    uint32_t op = w & 0x7Fu, rd = (w >> 7) & 31u, f3 = (w >> 12) & 7u, rs1 = (w >> 15) & 31u, rs2 = (w >> 20) & 31u;
    uint32_t fmt = (w >> 25) & 3u, fv = 0, c = GC_SIMT_FAULT_NONE;
    *to_x = false;
    res->addr = w;
    if (op == GC_FP_OPC_LOAD_FP || op == GC_FP_OPC_STORE_FP) {
        if (f3 != GC_FP_WIDTH_W) return GC_SIMT_FAULT_ILLEGAL_INSTRUCTION;
        if (op == GC_FP_OPC_LOAD_FP) {
            res->addr = t->x[rs1] + (uint32_t)((int32_t)w >> 20);
            c = mem_load(k, tidx, res->addr, 4, res, &fv);
            if (c == GC_SIMT_FAULT_NONE) t->f[rd] = fv;
        } else {
            res->addr = t->x[rs1] + (uint32_t)(((int32_t)(w & 0xFE000000u) >> 20) | (int32_t)rd);
            c = mem_store(k, tidx, res->addr, 4, res, t->f[rs2]);
        }
        return c;
    }
    if (fmt != GC_FP_FMT_S) return GC_SIMT_FAULT_ILLEGAL_INSTRUCTION;
    if (op == GC_FP_OPC_OP_FP) {
        c = fp_op(t, w, &fv, xv, to_x);
    } else { /* FMADD, FMSUB, FNMSUB, FNMADD: rs3 = bits 31:27 */
        unsigned rm, fl = 0;
        if (!fp_rm(t, f3, &rm)) return GC_SIMT_FAULT_ILLEGAL_INSTRUCTION;
        bool neg_prod = op == GC_FP_OPC_FNMSUB || op == GC_FP_OPC_FNMADD;
        bool neg_add = op == GC_FP_OPC_FMSUB || op == GC_FP_OPC_FNMADD;
        fv = rf_fma(t->f[rs1], t->f[rs2], t->f[w >> 27], neg_prod, neg_add, rm, &fl);
        t->fcsr |= fl;
    }
    if (c == GC_SIMT_FAULT_NONE && !*to_x) t->f[rd] = fv;
    return c;
}

#define FAULT(c, a)          \
    do {                     \
        res->cause = (c);    \
        res->addr = (a);     \
        return;              \
    } while (0)

static void exec(run_t *k, uint32_t tidx, uint32_t w, ires_t *res) {
    thr_t *t = &k->t[tidx];
    uint32_t *x = t->x, pc = t->pc, npc = pc + 4u;
    uint32_t op = w & 0x7Fu, rd = (w >> 7) & 31u, f3 = (w >> 12) & 7u, rs1 = (w >> 15) & 31u, rs2 = (w >> 20) & 31u;
    uint32_t f7 = w >> 25, a = x[rs1], b = x[rs2], v = 0;
    bool wr = true;
    int32_t immi = (int32_t)w >> 20;
    int32_t imms = ((int32_t)(w & 0xFE000000u) >> 20) | (int32_t)((w >> 7) & 31u);
    int32_t immb = sext(((w >> 31) << 12) | (((w >> 7) & 1u) << 11) | (((w >> 25) & 63u) << 5) | (((w >> 8) & 15u) << 1), 13);
    int32_t immj = sext(((w >> 31) << 20) | (((w >> 12) & 255u) << 12) | (((w >> 20) & 1u) << 11) | (((w >> 21) & 1023u) << 1), 21);
    switch (op) {
    case 0x37: v = w & 0xFFFFF000u; break;                 /* LUI */
    case 0x17: v = pc + (w & 0xFFFFF000u); break;          /* AUIPC */
    case 0x6F: v = npc; npc = pc + (uint32_t)immj; break;  /* JAL */
    case 0x67:                                             /* JALR */
        if (f3) FAULT(GC_SIMT_FAULT_ILLEGAL_INSTRUCTION, w);
        v = npc;
        npc = (a + (uint32_t)immi) & ~1u;
        break;
    case 0x63: { /* branches */
        bool tk;
        switch (f3) {
        case 0: tk = a == b; break;
        case 1: tk = a != b; break;
        case 4: tk = (int32_t)a < (int32_t)b; break;
        case 5: tk = (int32_t)a >= (int32_t)b; break;
        case 6: tk = a < b; break;
        case 7: tk = a >= b; break;
        default: FAULT(GC_SIMT_FAULT_ILLEGAL_INSTRUCTION, w);
        }
        if (tk) npc = pc + (uint32_t)immb;
        wr = false;
        break;
    }
    case 0x03: { /* loads */
        uint32_t n = (f3 & 3u) == 0 ? 1u : (f3 & 3u) == 1 ? 2u : 4u;
        if (f3 == 3 || f3 > 5) FAULT(GC_SIMT_FAULT_ILLEGAL_INSTRUCTION, w);
        uint32_t ad = a + (uint32_t)immi, c = mem_load(k, tidx, ad, n, res, &v);
        if (c != GC_SIMT_FAULT_NONE) FAULT(c, ad);
        if (f3 == 0) v = (uint32_t)sext(v, 8);
        if (f3 == 1) v = (uint32_t)sext(v, 16);
        break;
    }
    case 0x23: { /* stores */
        if (f3 > 2) FAULT(GC_SIMT_FAULT_ILLEGAL_INSTRUCTION, w);
        uint32_t ad = a + (uint32_t)imms, c = mem_store(k, tidx, ad, 1u << f3, res, b);
        if (c != GC_SIMT_FAULT_NONE) FAULT(c, ad);
        wr = false;
        break;
    }
    case 0x13: { /* OP-IMM */
        uint32_t sh = rs2;
        switch (f3) {
        case 0: v = a + (uint32_t)immi; break;
        case 2: v = (int32_t)a < immi; break;
        case 3: v = a < (uint32_t)immi; break;
        case 4: v = a ^ (uint32_t)immi; break;
        case 6: v = a | (uint32_t)immi; break;
        case 7: v = a & (uint32_t)immi; break;
        case 1:
            if (f7) FAULT(GC_SIMT_FAULT_ILLEGAL_INSTRUCTION, w);
            v = a << sh;
            break;
        default:
            if (f7 == 0) v = a >> sh;
            else if (f7 == 0x20) v = (uint32_t)((int32_t)a >> sh);
            else FAULT(GC_SIMT_FAULT_ILLEGAL_INSTRUCTION, w);
            break;
        }
        break;
    }
    case 0x33: /* OP, M */
        if (f7 == 1) {
            switch (f3) {
            case 0: v = a * b; break;
            case 1: v = (uint32_t)(((int64_t)(int32_t)a * (int64_t)(int32_t)b) >> 32); break;
            case 2: v = (uint32_t)(((int64_t)(int32_t)a * (int64_t)(uint64_t)b) >> 32); break;
            case 3: v = (uint32_t)(((uint64_t)a * (uint64_t)b) >> 32); break;
            case 4:
                res->div = true;
                v = b == 0 ? 0xFFFFFFFFu : (a == 0x80000000u && b == 0xFFFFFFFFu) ? a : (uint32_t)((int32_t)a / (int32_t)b);
                break;
            case 5: res->div = true; v = b == 0 ? 0xFFFFFFFFu : a / b; break;
            case 6:
                res->div = true;
                v = b == 0 ? a : (a == 0x80000000u && b == 0xFFFFFFFFu) ? 0 : (uint32_t)((int32_t)a % (int32_t)b);
                break;
            default: res->div = true; v = b == 0 ? a : a % b; break;
            }
        } else if (f7 == 0 || (f7 == 0x20 && (f3 == 0 || f3 == 5))) {
            switch (f3) {
            case 0: v = f7 ? a - b : a + b; break;
            case 1: v = a << (b & 31u); break;
            case 2: v = (int32_t)a < (int32_t)b; break;
            case 3: v = a < b; break;
            case 4: v = a ^ b; break;
            case 5: v = f7 ? (uint32_t)((int32_t)a >> (b & 31u)) : a >> (b & 31u); break;
            case 6: v = a | b; break;
            default: v = a & b; break;
            }
        } else {
            FAULT(GC_SIMT_FAULT_ILLEGAL_INSTRUCTION, w);
        }
        break;
    case 0x0F: /* FENCE (stores land at once here); FENCE.I faults */
        if (f3 != 0) FAULT(GC_SIMT_FAULT_ILLEGAL_INSTRUCTION, w);
        wr = false;
        break;
    case 0x73: { /* SYSTEM: ECALL, EBREAK, read-only CSRs, the FP CSRs */
        if (w == 0x00000073u) FAULT(GC_SIMT_FAULT_ECALL, pc); /* FAULT_ADDR = the PC, as on rtl */
        if (w == 0x00100073u) FAULT(GC_SIMT_FAULT_EBREAK, pc);
        uint32_t csr = w >> 20;
        bool ok = false;
        if ((csr == GC_FP_CSR_FFLAGS || csr == GC_FP_CSR_FRM || csr == GC_FP_CSR_FCSR) && (f3 & 3u)) {
            if (k->r->inject == INJ_NO_FPU) FAULT(GC_SIMT_FAULT_ILLEGAL_INSTRUCTION, w);
            v = fp_csr(t, csr, f3, (f3 & 4u) ? rs1 : a, rs1 == 0); /* CSRRW/S/C, CSRRWI/SI/CI */
            break;
        }
        /* CSRRS / CSRRC with rs1 = x0, CSRRSI / CSRRCI with uimm = 0 */
        if ((f3 == 2 || f3 == 3 || f3 == 6 || f3 == 7) && rs1 == 0) v = csr_value(k, tidx, csr, &ok);
        if (!ok) FAULT(GC_SIMT_FAULT_ILLEGAL_INSTRUCTION, w);
        break;
    }
    case 0x0B: /* custom-0: BAR, EXIT, LAUNCH */
        if (w == GC_SIMT_INSN_BAR) {
            t->st = T_BAR;
            wr = false;
        } else if (w == GC_SIMT_INSN_EXIT) {
            t->st = T_EXIT;
            wr = false;
        } else if (f3 == GC_SIMT_INSN_LAUNCH_FUNCT3 && (w >> 20) == 0) {
            v = tmu_device_launch(k, a);
        } else {
            FAULT(GC_SIMT_FAULT_ILLEGAL_INSTRUCTION, w);
        }
        break;
    case 0x2F: { /* A */
        uint32_t f5 = w >> 27;
        if (f3 != 2) FAULT(GC_SIMT_FAULT_ILLEGAL_INSTRUCTION, w);
        bool lr = f5 == 0x02, sc = f5 == 0x03;
        if (lr && rs2 != 0) FAULT(GC_SIMT_FAULT_ILLEGAL_INSTRUCTION, w);
        if (!lr && !sc && f5 != 0x00 && f5 != 0x01 && f5 != 0x04 && f5 != 0x08 && f5 != 0x0C && f5 != 0x10 &&
            f5 != 0x14 && f5 != 0x18 && f5 != 0x1C)
            FAULT(GC_SIMT_FAULT_ILLEGAL_INSTRUCTION, w);
        if (null_guard(a)) FAULT(GC_SIMT_FAULT_NULL_ACCESS, a);
        if (a % 4u) FAULT(lr ? GC_SIMT_FAULT_MISALIGNED_LOAD : GC_SIMT_FAULT_MISALIGNED_STORE, a);
        uint8_t *p = NULL, buf[4];
        uint64_t dev = 0;
        win_t wn = where(k, tidx, a, 4, &p, &dev);
        if (wn == W_NONE || ((lr || sc) && wn != W_GLOBAL)) FAULT(GC_SIMT_FAULT_ACCESS_FAULT, a);
        uint32_t old;
        if (wn == W_GLOBAL) {
            res->amo = true;
            res->global_mem = true;
            res->lat = ref_latency(dev);
            if (!ref_mem_read(k->r, dev, buf, 4)) FAULT(lr ? GC_SIMT_FAULT_LOAD_BUS_ERROR : GC_SIMT_FAULT_STORE_BUS_ERROR, a);
            old = ld_le(buf, 4);
        } else {
            old = ld_le(p, 4);
        }
        if (lr) {
            t->resv = true;
            t->resv_addr = a;
            v = old;
            break;
        }
        if (sc) {
            bool okr = t->resv && (t->resv_addr >> 2) == (a >> 2);
            t->resv = false;
            v = okr ? 0u : 1u;
            if (okr) {
                st_le(buf, b, 4);
                if (!ref_mem_write(k->r, dev, buf, 4)) FAULT(GC_SIMT_FAULT_STORE_BUS_ERROR, a);
                break_resv(k, a);
                ref_snoop(k->r, dev, 4);
            }
            break;
        }
        uint32_t nv;
        switch (f5) {
        case 0x00: nv = old + b; break;
        case 0x01: nv = b; break;
        case 0x04: nv = old ^ b; break;
        case 0x08: nv = old | b; break;
        case 0x0C: nv = old & b; break;
        case 0x10: nv = (int32_t)old < (int32_t)b ? old : b; break;
        case 0x14: nv = (int32_t)old > (int32_t)b ? old : b; break;
        case 0x18: nv = old < b ? old : b; break;
        default: nv = old > b ? old : b; break;
        }
        if (wn == W_GLOBAL) {
            st_le(buf, nv, 4);
            if (!ref_mem_write(k->r, dev, buf, 4)) FAULT(GC_SIMT_FAULT_STORE_BUS_ERROR, a);
            break_resv(k, a);
            ref_snoop(k->r, dev, 4); /* the write snoop wakes the acquires on the word */
        } else {
            st_le(p, nv, 4);
        }
        v = old;
        break;
    }
    case GC_FP_OPC_LOAD_FP: case GC_FP_OPC_STORE_FP: case GC_FP_OPC_OP_FP:
    case GC_FP_OPC_FMADD: case GC_FP_OPC_FMSUB: case GC_FP_OPC_FNMSUB: case GC_FP_OPC_FNMADD: {
        if (k->r->inject == INJ_NO_FPU) FAULT(GC_SIMT_FAULT_ILLEGAL_INSTRUCTION, w);
        uint32_t c = fp_exec(k, tidx, w, res, &v, &wr);
        if (c != GC_SIMT_FAULT_NONE) FAULT(c, res->addr);
        break;
    }
    default: FAULT(GC_SIMT_FAULT_ILLEGAL_INSTRUCTION, w);
    }
    if (wr && rd) x[rd] = v;
    if (npc != pc + 4u && (npc & 3u)) FAULT(GC_SIMT_FAULT_MISALIGNED_FETCH, npc);
    t->pc = npc;
}

/* ------------------------------------------------------------------ warps and CTAs */
/* Fetch the word at pc (the SM's instruction cache, for the miss counter and the fill latency);
 * false with a fault cause. */
static bool fetch(run_t *k, uint32_t pc, uint32_t *w, uint32_t *cause) {
    uint64_t dev;
    if (null_guard(pc)) {
        *cause = GC_SIMT_FAULT_NULL_ACCESS;
        return false;
    }
    if (!global_dev(pc, &dev)) {
        *cause = GC_SIMT_FAULT_FETCH_ACCESS;
        return false;
    }
    uint8_t b[4];
    if (!ref_mem_read(k->r, dev, b, 4)) {
        *cause = GC_SIMT_FAULT_FETCH_BUS_ERROR;
        return false;
    }
    *w = ld_le(b, 4);
    uint64_t line = dev / GC_SIMT_ICACHE_LINE_BYTES;
    uint32_t idx = (uint32_t)(line % GC_SIMT_ICACHE_LINES), tag = (uint32_t)(line / GC_SIMT_ICACHE_LINES);
    ref_cmp_t *c = k->c;
    if (!c->icache_valid[k->sm][idx] || c->icache_tag[k->sm][idx] != tag) {
        c->icache_valid[k->sm][idx] = true;
        c->icache_tag[k->sm][idx] = tag;
        c->icache_misses++;
        k->fill = ref_latency(dev) + 4u;
    }
    return true;
}

/* One warp instruction of warp wi; false when the warp has nothing to run. */
static bool warp_step(run_t *k, uint32_t wi) {
    uint32_t lo = wi * k->lanes, hi = lo + k->lanes;
    if (hi > k->nthr) hi = k->nthr;
    uint32_t minpc = UINT32_MAX;
    bool any = false;
    for (uint32_t i = lo; i < hi; i++)
        if (k->t[i].st == T_LIVE && (!any || k->t[i].pc < minpc)) minpc = k->t[i].pc, any = true;
    if (!any) return false;
    ref_cmp_t *c = k->c;
    uint32_t w = 0, cause = 0;
    k->fill = 0;
    k->cycles = k->nwarps + k->wlat[wi];
    if (!fetch(k, minpc, &w, &cause)) {
        for (uint32_t i = lo; i < hi; i++)
            if (k->t[i].st == T_LIVE && k->t[i].pc == minpc) {
                cta_fault(k, cause, minpc, minpc, i - lo, wi);
                break;
            }
        return true;
    }
    c->warp_instrs++;
    bool gm = false, dv = false;
    uint32_t lat = 0, amo_cost = 0;
    for (uint32_t i = lo; i < hi; i++) {
        thr_t *t = &k->t[i];
        if (t->st != T_LIVE || t->pc != minpc) continue;
        ires_t res = {0};
        exec(k, i, w, &res);
        c->thread_instrs++;
        gm |= res.global_mem;
        dv |= res.div;
        if (res.lat > lat) lat = res.lat;
        if (res.amo) amo_cost += 2u * res.lat + 4u; /* a read-modify-write round trip per lane */
        if (res.cause != GC_SIMT_FAULT_NONE) {
            cta_fault(k, res.cause, minpc, res.addr, i - lo, wi);
            return true;
        }
    }
    k->issues++;
    k->wlat[wi] += 3u + k->fill + lat + (gm ? 2u : 0u) + (dv ? DIV_CYCLES : 0u) + amo_cost;
    k->au_time += amo_cost;
    if (gm) c->lsu_beats += (k->lanes * 4u + REF_BEAT_BYTES - 1u) / REF_BEAT_BYTES;
    return true;
}

/* Start the CTA: every thread at ENTRY_PC, shared and local memory zero. */
static void cta_init(run_t *k) {
    for (uint32_t i = 0; i < k->nthr; i++) {
        thr_t *t = &k->t[i];
        memset(t, 0, sizeof *t);
        t->pc = k->entry;
        t->st = T_LIVE;
        t->tid[0] = i % k->cta[0];
        t->tid[1] = (i / k->cta[0]) % k->cta[1];
        t->tid[2] = i / (k->cta[0] * k->cta[1]);
    }
    memset(k->smem, 0, k->smem_bytes);
    memset(k->lmem, 0, (size_t)k->nthr * GC_SIMT_LMEM_BYTES);
}

/* The time the CTA's interpretation reached: that of its least advanced warp with a live thread
 * (every warp at or past it has been interpreted up to there). */
static uint64_t cta_progress(const run_t *k) {
    uint64_t p = UINT64_MAX;
    for (uint32_t wi = 0; wi < k->nwarps; wi++) {
        uint32_t lo = wi * k->lanes, hi = lo + k->lanes < k->nthr ? lo + k->lanes : k->nthr;
        for (uint32_t i = lo; i < hi; i++)
            if (k->t[i].st == T_LIVE) {
                if (k->wlat[wi] < p) p = k->wlat[wi];
                break;
            }
    }
    return p == UINT64_MAX ? p : k->t0 + k->nwarps + p;
}

/* Interpret the CTA on from where it stopped: true at its end (or its first fault); false when
 * its least advanced live warp passed `horizon` (at least one round of warps runs per call), so a
 * CTA that never ends is interpreted only as far as the model runs (the cycle budget). */
static bool run_cta(run_t *k, uint64_t horizon) {
    for (;;) {
        bool any = false;
        for (uint32_t wi = 0; wi < k->nwarps && !k->faulted; wi++) any |= warp_step(k, wi);
        if (k->faulted) return true;
        if (any) {
            uint64_t p = cta_progress(k);
            if (p != UINT64_MAX && p > horizon) return false; /* (UINT64_MAX: nobody live any more) */
            continue;
        }
        /* nobody live: a barrier opens when some thread waits at it, else every thread exited */
        bool bar = false;
        for (uint32_t i = 0; i < k->nthr; i++)
            if (k->t[i].st == T_BAR) k->t[i].st = T_LIVE, bar = true;
        if (!bar) return true;
    }
}

/* ------------------------------------------------------------------ task log */
static bool log_on(const ref_cmp_t *c) { return GC_COMPUTE_LOG_CTRL_ENABLE_GET(c->log_ctrl) != 0; }

/* A logged step may be taken (the log is not behind). */
static bool log_room(const ref_cmp_t *c) { return !log_on(c) || c->logq_n < REF_LOG_BACKLOG; }

static void tmu_log(ref_t *r, uint32_t e, uint32_t kind) {
    ref_cmp_t *c = &r->cmp;
    if (!log_on(c)) return;
    const ref_task_t *t = &c->ent[e];
    if (c->logq_head + c->logq_n == c->logq_cap) {
        if (c->logq_head) {
            memmove(c->logq, c->logq + c->logq_head, c->logq_n * sizeof *c->logq);
            c->logq_head = 0;
        } else {
            uint32_t cap = c->logq_cap ? 2u * c->logq_cap : 64u;
            ref_logrec_t *q = realloc(c->logq, cap * sizeof *q);
            if (!q) {
                fprintf(stderr, "ref: compute: host out of memory\n");
                abort();
            }
            c->logq = q;
            c->logq_cap = cap;
        }
    }
    uint32_t slot = kind == GC_TMU_EVENT_QUEUED ? REF_TMU_NONE : t->slot;
    c->logq[c->logq_head + c->logq_n++] = (ref_logrec_t){
        .event = GC_TMU_LOG_EVENT_KIND(kind) | GC_TMU_LOG_EVENT_SLOT(slot) | GC_TMU_LOG_EVENT_LEVEL(t->level) |
                 GC_TMU_LOG_EVENT_DEPTH(t->depth) | GC_TMU_LOG_EVENT_CHANNEL(t->ch),
        .task = t->id};
}

/* Records go out one at a time, as 16-byte atomic-unit writes {EVENT, TASK, cycle stamp}, to
 * record LOG_PUT mod 2^SIZE_LOG2 of the ring; LOG_PUT counts them when answered. */
static bool log_step(ref_t *r) {
    ref_cmp_t *c = &r->cmp;
    ref_au_req_t *q = &r->au[REF_AU_LOG];
    if (c->log_busy) {
        if (!q->valid || !q->done) return false;
        q->valid = false;
        c->log_busy = false;
        c->log_put++;
        c->logq_head++;
        c->logq_n--;
        if (!c->logq_n) c->logq_head = 0;
        return true;
    }
    if (!c->logq_n) return false;
    const ref_logrec_t *l = &c->logq[c->logq_head];
    uint32_t lg = GC_COMPUTE_LOG_CTRL_SIZE_LOG2_GET(c->log_ctrl);
    uint64_t base = (((uint64_t)GC_COMPUTE_LOG_BASE_HI_HI_GET(c->log_base_hi) << 32) | c->log_base_lo) &
                    ~(uint64_t)(GC_TMU_LOG_ALIGN - 1u);
    uint64_t idx = c->log_put & ((1ull << lg) - 1u);
    ref_au_request(r, REF_AU_LOG, AU_WRITE, GC_TMU_LOG_SIZE, base + idx * GC_TMU_LOG_SIZE,
                   ((uint64_t)l->task << 32) | l->event, 0, false);
    c->log_busy = true;
    return true;
}

/* ------------------------------------------------------------------ task table */
static int32_t free_entry(const ref_cmp_t *c) {
    for (uint32_t e = 0; e < GC_TMU_ENTRIES; e++)
        if (c->ent[e].state == GC_TASK_STATE_FREE) return (int32_t)e;
    return -1;
}

bool ref_cmp_can_launch(const ref_t *r) { return free_entry(&r->cmp) >= 0; }

/* Entry e takes the task at device address `tmd`, launched at cycle t_launch (FETCH). */
static ref_task_t *new_entry(ref_t *r, uint32_t e, uint64_t tmd, uint64_t t_launch) {
    ref_cmp_t *c = &r->cmp;
    ref_task_t *t = &c->ent[e];
    memset(t, 0, sizeof *t);
    t->state = GC_TASK_STATE_FETCH;
    t->tmd = tmd;
    t->id = (uint32_t)(tmd >> 8);
    t->parent = -1;
    t->slot = REF_TMU_NONE;
    t->t_fetch = (t_launch > c->fetch_t ? t_launch : c->fetch_t) + ref_stretch(r, ref_latency(tmd) + TMD_READ_EXTRA);
    c->fetch_t = t->t_fetch;
    return t;
}

void ref_cmp_launch(ref_t *r, uint32_t ch, uint64_t tmd_addr) {
    int32_t e = free_entry(&r->cmp);
    if (e < 0) { /* the PBDMA checks ref_cmp_can_launch first */
        fprintf(stderr, "ref: internal error: compute launch with the task table full\n");
        abort();
    }
    new_entry(r, (uint32_t)e, tmd_addr, r->now)->ch = ch;
}

/* The first fault of task e: recorded when INTR_STATUS.TASK_FAULT is clear, logged, and the
 * task's CTAs in flight are killed (they end next cycle); its eviction, if any, is called off. */
static void task_fault(ref_t *r, uint32_t e, uint32_t cause, uint32_t pc, uint32_t addr, uint32_t loc) {
    ref_cmp_t *c = &r->cmp;
    ref_task_t *t = &c->ent[e];
    if (t->fault) return;
    t->fault = true;
    t->evicting = false;
    if (!ref_irq_raised(r, GC_GLOBAL_INTR_STATUS_TASK_FAULT(1))) {
        c->f_cause = cause;
        c->f_pc = pc;
        c->f_addr = addr;
        c->f_loc = loc;
        c->f_task = t->id;
        c->f_channel = t->ch;
    }
    ref_irq_raise(r, GC_GLOBAL_INTR_STATUS_TASK_FAULT(1));
    tmu_log(r, e, GC_TMU_EVENT_FAULT);
    for (uint32_t i = 0; i < REF_NWSLOTS; i++)
        if (c->cta[i].valid && c->cta[i].ent == e && c->cta[i].t_done > r->now + 1u) c->cta[i].t_done = r->now + 1u;
}

static void begin_complete(ref_task_t *t) {
    t->state = GC_TASK_STATE_RELEASE;
    t->rel_done = false;
}

static bool needs_release(const ref_task_t *t) {
    return GC_TMD_FLAGS_SEM_RELEASE_GET(t->w[GC_TMD_FLAGS / 4u]) && !t->fault && !t->sub_fault;
}

/* Pending list: by LEVEL, most urgent first; within a level by key (head insertions take keys
 * below every other, tail insertions above). */
static void enqueue(ref_cmp_t *c, ref_task_t *t, bool head) {
    t->state = GC_TASK_STATE_PENDING;
    t->key = head ? --c->head_key : ++c->tail_key;
}

static int32_t pending_head(const ref_cmp_t *c) {
    int32_t best = -1;
    for (uint32_t e = 0; e < GC_TMU_ENTRIES; e++) {
        const ref_task_t *t = &c->ent[e];
        if (t->state != GC_TASK_STATE_PENDING) continue;
        if (best < 0 || t->level > c->ent[best].level || (t->level == c->ent[best].level && t->key < c->ent[best].key))
            best = (int32_t)e;
    }
    return best;
}

/* The TMD read of the first entry in FETCH whose read is done: check it, then pending (QUEUED),
 * or a fault (BAD_TMD, TMD_BUS_ERROR) and completion without release. */
static bool fetch_step(ref_t *r) {
    ref_cmp_t *c = &r->cmp;
    int32_t first = -1;
    for (uint32_t e = 0; e < GC_TMU_ENTRIES; e++) {
        const ref_task_t *t = &c->ent[e];
        if (t->state == GC_TASK_STATE_FETCH && t->t_fetch <= r->now && (first < 0 || t->t_fetch < c->ent[first].t_fetch))
            first = (int32_t)e;
    }
    if (first < 0 || !log_room(c)) return false;
    uint32_t e = (uint32_t)first;
    ref_task_t *t = &c->ent[e];
    uint32_t *w = t->w;
    bool host = t->parent < 0;
    if (t->have_w ? t->w_err : (ref_window(t->tmd, GC_TMD_SIZE) < 0 || !ref_mem_read(r, t->tmd, w, GC_TMD_SIZE))) {
        memset(w, 0, sizeof t->w);
        if (host) t->depth = t->max_depth = 1;
        task_fault(r, e, GC_SIMT_FAULT_TMD_BUS_ERROR, 0, t->id, 0);
        begin_complete(t);
        return true;
    }
    if (host) {
        uint32_t pr = w[GC_TMD_PRIORITY / 4u];
        t->level = GC_TMD_PRIORITY_LEVEL_GET(pr);
        t->depth = GC_TMD_PRIORITY_DEPTH_GET(pr) ? GC_TMD_PRIORITY_DEPTH_GET(pr) : 1u;
        t->max_depth = GC_TMD_PRIORITY_MAX_DEPTH_GET(pr) ? GC_TMD_PRIORITY_MAX_DEPTH_GET(pr) : 1u;
    }
    uint32_t grid[3] = {w[GC_TMD_GRID_X / 4u], w[GC_TMD_GRID_Y / 4u], w[GC_TMD_GRID_Z / 4u]};
    uint32_t cx = GC_TMD_CTA_DIM_XY_X_GET(w[GC_TMD_CTA_DIM_XY / 4u]), cy = GC_TMD_CTA_DIM_XY_Y_GET(w[GC_TMD_CTA_DIM_XY / 4u]);
    uint32_t cz = GC_TMD_CTA_DIM_Z_Z_GET(w[GC_TMD_CTA_DIM_Z / 4u]);
    uint32_t flags = w[GC_TMD_FLAGS / 4u];
    bool sem = GC_TMD_FLAGS_SEM_RELEASE_GET(flags) != 0, four = GC_TMD_FLAGS_SEM_FOUR_WORD_GET(flags) != 0;
    uint64_t threads = (uint64_t)cx * cy * cz;
    int32_t bad = -1;
    if (!grid[0]) bad = GC_TMD_GRID_X;
    else if (!grid[1]) bad = GC_TMD_GRID_Y;
    else if (!grid[2]) bad = GC_TMD_GRID_Z;
    else if (!cx || !cy) bad = GC_TMD_CTA_DIM_XY;
    else if (!cz) bad = GC_TMD_CTA_DIM_Z;
    else if (threads > MAX_THREADS) bad = threads > 0xFFFFu ? GC_TMD_CTA_DIM_Z : GC_TMD_CTA_DIM_XY;
    else if (w[GC_TMD_SMEM_BYTES / 4u] > GC_SIMT_SMEM_BYTES) bad = GC_TMD_SMEM_BYTES;
    else if (w[GC_TMD_ENTRY_PC / 4u] % 4u) bad = GC_TMD_ENTRY_PC;
    else if (sem && w[GC_TMD_SEM_ADDR_LO / 4u] % (four ? 16u : 4u)) bad = GC_TMD_SEM_ADDR_LO;
    else if (GC_TMD_FLAGS_QUEUE_GET(flags) && w[GC_TMD_QUEUE_ADDR_LO / 4u] % GC_TASK_QUEUE_ALIGN) bad = GC_TMD_QUEUE_ADDR_LO;
    else if (host && t->level >= GC_TMU_PRIO_LEVELS) bad = GC_TMD_PRIORITY;
    if (bad >= 0) {
        task_fault(r, e, GC_SIMT_FAULT_BAD_TMD, 0, (uint32_t)bad, 0);
        begin_complete(t);
        return true;
    }
    uint64_t n = (uint64_t)grid[0] * grid[1];
    t->ncta = n > UINT64_MAX / grid[2] ? UINT64_MAX : n * grid[2];
    t->queue = GC_TMD_FLAGS_QUEUE_GET(flags) != 0;
    t->qaddr = ((uint64_t)GC_TMD_QUEUE_ADDR_HI_HI_GET(w[GC_TMD_QUEUE_ADDR_HI / 4u]) << 32) | w[GC_TMD_QUEUE_ADDR_LO / 4u];
    t->qpos = t->qput = 0;
    t->qclosed = false;
    t->qpoll_t = 0;
    enqueue(c, t, GC_TMD_FLAGS_QUEUE_HEAD_GET(flags) != 0);
    tmu_log(r, e, GC_TMU_EVENT_QUEUED);
    return true;
}

/* A LAUNCH by a thread of the CTA k (thread_addr: rs1); returns the LAUNCH_STATUS. */
static uint32_t tmu_device_launch(run_t *k, uint32_t thread_addr) {
    ref_t *r = k->r;
    ref_cmp_t *c = k->c;
    ref_task_t *p = &c->ent[k->ent];
    uint64_t dev = 0;
    uint32_t st;
    int32_t e = -1;
    if (thread_addr % GC_TMD_ALIGN || null_guard(thread_addr) || !global_dev(thread_addr, &dev))
        st = GC_LAUNCH_STATUS_BAD_ADDR;
    else if (p->depth >= p->max_depth) st = GC_LAUNCH_STATUS_DEPTH;
    else if (p->level + 1u >= GC_TMU_PRIO_LEVELS) st = GC_LAUNCH_STATUS_PRIORITY;
    else if ((e = free_entry(c)) < 0) st = GC_LAUNCH_STATUS_FULL;
    else st = GC_LAUNCH_STATUS_OK;
    if (st == GC_LAUNCH_STATUS_OK) {
        ref_task_t *t = new_entry(r, (uint32_t)e, dev, k->t0 + k->cycles);
        t->parent = (int32_t)k->ent;
        t->level = p->level + 1u;
        t->depth = p->depth + 1u;
        t->max_depth = p->max_depth;
        t->ch = p->ch;
        /* the TMD as the launching thread left it (its later stores are not seen, as on the RTL
         * where the read follows the LAUNCH closely; here the whole CTA ran already) */
        t->have_w = true;
        t->w_err = ref_window(dev, GC_TMD_SIZE) < 0 || !ref_mem_read(r, dev, t->w, GC_TMD_SIZE);
        p->children++;
        c->dev_launches++;
        return st;
    }
    c->launch_fails++;
    if (!ref_irq_raised(r, GC_GLOBAL_INTR_STATUS_LAUNCH_FAIL(1))) {
        c->lf_word = GC_COMPUTE_LAUNCH_FAIL_STATUS(st) | GC_COMPUTE_LAUNCH_FAIL_DEPTH(p->depth) |
                     GC_COMPUTE_LAUNCH_FAIL_LEVEL(p->level);
        c->lf_task = p->id;
    }
    ref_irq_raise(r, GC_GLOBAL_INTR_STATUS_LAUNCH_FAIL(1));
    tmu_log(r, k->ent, GC_TMU_EVENT_LAUNCH_FAIL);
    return st;
}

/* Completion: the release (if any) through the atomic unit, one at a time; then COMPLETE, the
 * interrupt, TASKS, and the parent or the PBDMA; the entry is free. */
static void finalize(ref_t *r, uint32_t e) {
    ref_cmp_t *c = &r->cmp;
    ref_task_t *t = &c->ent[e];
    bool bad = t->fault || t->sub_fault;
    tmu_log(r, e, GC_TMU_EVENT_COMPLETE);
    if (GC_TMD_FLAGS_INTERRUPT_GET(t->w[GC_TMD_FLAGS / 4u]) && !bad) ref_nonstall(r);
    c->tasks++;
    t->state = GC_TASK_STATE_FREE;
    if (t->parent >= 0) {
        ref_task_t *p = &c->ent[t->parent];
        p->children--;
        p->sub_fault |= bad;
        if (p->state == GC_TASK_STATE_CHILDREN && p->children == 0) begin_complete(p);
    } else {
        ref_emit(r, &(ref_event_t){.kind = REF_EV_TASK_DONE, .unit = t->ch, .err = bad});
    }
}

static bool release_step(ref_t *r) {
    ref_cmp_t *c = &r->cmp;
    ref_au_req_t *q = &r->au[REF_AU_COMPUTE];
    bool any = false;
    if (c->rel_ent >= 0 && q->valid && q->done) {
        uint32_t e = (uint32_t)c->rel_ent;
        q->valid = false;
        c->rel_ent = -1;
        c->ent[e].rel_done = true;
        if (q->err) task_fault(r, e, GC_SIMT_FAULT_TMD_BUS_ERROR, 0, c->ent[e].w[GC_TMD_SEM_ADDR_LO / 4u], 0);
        any = true;
    }
    for (uint32_t e = 0; e < GC_TMU_ENTRIES; e++) {
        ref_task_t *t = &c->ent[e];
        if (t->state != GC_TASK_STATE_RELEASE) continue;
        if (needs_release(t) && !t->rel_done) {
            if (c->rel_ent >= 0) continue;
            const uint32_t *w = t->w;
            bool four = GC_TMD_FLAGS_SEM_FOUR_WORD_GET(w[GC_TMD_FLAGS / 4u]) != 0;
            uint64_t a = ((uint64_t)GC_TMD_SEM_ADDR_HI_HI_GET(w[GC_TMD_SEM_ADDR_HI / 4u]) << 32) | w[GC_TMD_SEM_ADDR_LO / 4u];
            ref_au_request(r, REF_AU_COMPUTE, AU_WRITE, four ? 16u : 4u, a, w[GC_TMD_SEM_PAYLOAD / 4u], 0, false);
            c->rel_ent = (int32_t)e;
            any = true;
            continue;
        }
        if (!log_room(c)) continue;
        finalize(r, e);
        any = true;
    }
    return any;
}

/* ------------------------------------------------------------------ slots and eviction */
/* Every CTA dispatched: the grid's; a queue task's once CLOSED was read and every entry started. */
static bool all_dispatched(const ref_task_t *t) {
    return t->queue ? t->qclosed && t->qpos == t->qput : t->next_cta >= t->ncta;
}

/* A CTA to dispatch now: the grid's next; a queue task's only while an entry it read of waits. */
static bool cta_ready(const ref_task_t *t) { return t->queue ? t->qpos != t->qput : t->next_cta < t->ncta; }

static bool may_dispatch(const ref_task_t *t) {
    return t->state == GC_TASK_STATE_RUNNING && !t->evicting && !t->fault && !t->doomed && cta_ready(t);
}

/* A queue task waiting for entries stays evictable. */
static bool evictable(const ref_task_t *t) {
    return t->state == GC_TASK_STATE_RUNNING && !t->fault && !t->doomed && !all_dispatched(t);
}

/* A running queue task that started every entry it read of and has not read CLOSED reads the
 * header every TMU_QUEUE_POLL cycles (the RTL: on the TMD read port). */
static bool queue_wants_poll(const ref_task_t *t) {
    return t->state == GC_TASK_STATE_RUNNING && t->queue && !t->qclosed && t->qpos == t->qput;
}

static bool queue_step(ref_t *r) {
    ref_cmp_t *c = &r->cmp;
    bool any = false;
    for (uint32_t e = 0; e < GC_TMU_ENTRIES; e++) {
        ref_task_t *t = &c->ent[e];
        if (!queue_wants_poll(t) || r->now < t->qpoll_t) continue;
        uint32_t put = 0;
        t->qpoll_t = r->now + GC_TMU_QUEUE_POLL;
        if (!ref_mem_read(r, t->qaddr, &put, 4)) {
            t->qclosed = true; /* a read error counts as closed, and faults the task */
            task_fault(r, e, GC_SIMT_FAULT_TMD_BUS_ERROR, 0, (uint32_t)t->qaddr, 0);
            any = true;
            continue;
        }
        any |= GC_TASK_QUEUE_PUT_COUNT_GET(put) != t->qput || GC_TASK_QUEUE_PUT_CLOSED_GET(put);
        t->qput = GC_TASK_QUEUE_PUT_COUNT_GET(put);
        t->qclosed = GC_TASK_QUEUE_PUT_CLOSED_GET(put) != 0;
    }
    return any;
}

static bool slot_step(ref_t *r) {
    ref_cmp_t *c = &r->cmp;
    bool any = false, evicting = false;
    /* running tasks with nothing in flight and nothing more to dispatch give their slot up */
    for (uint32_t s = 0; s < GC_TMU_SLOTS; s++) {
        if (c->slot[s] < 0) continue;
        uint32_t e = (uint32_t)c->slot[s];
        ref_task_t *t = &c->ent[e];
        evicting |= t->evicting;
        if (t->inflight || !(t->evicting || t->fault || all_dispatched(t))) continue;
        if (t->evicting) {
            if (!log_room(c)) continue;
            tmu_log(r, e, GC_TMU_EVENT_EVICT);
            c->evictions++;
            t->evicting = false;
            enqueue(c, t, true);
        } else if (t->children) {
            if (!log_room(c)) continue;
            t->state = GC_TASK_STATE_CHILDREN;
            tmu_log(r, e, GC_TMU_EVENT_CTAS_DONE);
        } else {
            begin_complete(t);
        }
        c->slot[s] = -1;
        any = true;
    }
    int32_t h = pending_head(c);
    if (h < 0) return any;
    int32_t free_s = -1;
    for (uint32_t s = 0; s < GC_TMU_SLOTS && free_s < 0; s++)
        if (c->slot[s] < 0) free_s = (int32_t)s;
    if (free_s >= 0) { /* rule 1: the pending head takes the lowest free slot */
        if (!log_room(c)) return any;
        ref_task_t *t = &c->ent[h];
        t->state = GC_TASK_STATE_RUNNING;
        t->slot = (uint32_t)free_s;
        t->slot_order = ++c->slot_ctr;
        c->slot[free_s] = h;
        c->last_task = t->id;
        if (!t->started) memset(c->icache_valid, 0, sizeof c->icache_valid);
        tmu_log(r, (uint32_t)h, t->started ? GC_TMU_EVENT_RESUME : GC_TMU_EVENT_START);
        t->started = true;
        return true;
    }
    if (evicting || GC_COMPUTE_TMU_CTRL_NO_EVICT_GET(c->tmu_ctrl)) return any;
    /* rule 2: evict the evictable running task of the lowest LEVEL (among equals the last to take
     * its slot) when the pending head is strictly more urgent */
    int32_t v = -1;
    for (uint32_t s = 0; s < GC_TMU_SLOTS; s++) {
        const ref_task_t *t = &c->ent[c->slot[s]];
        if (!evictable(t)) continue;
        if (v < 0 || t->level < c->ent[v].level || (t->level == c->ent[v].level && t->slot_order > c->ent[v].slot_order))
            v = c->slot[s];
    }
    if (v < 0 || c->ent[h].level <= c->ent[v].level) return any;
    c->ent[v].evicting = true;
    return true;
}

/* ------------------------------------------------------------------ dispatch and CTAs */
/* The lowest first warp slot of `need` contiguous free slots of the SM, or -1. */
static int32_t warp_fit(uint32_t busy, uint32_t need) {
    uint32_t mask = need >= 32u ? UINT32_MAX : (1u << need) - 1u;
    for (uint32_t w0 = 0; w0 + need <= GC_SIMT_WARPS; w0++)
        if (!(busy & (mask << w0))) return (int32_t)w0;
    return -1;
}

static void cta_interpret(ref_t *r, uint32_t xi);

static bool dispatch_step(ref_t *r) {
    ref_cmp_t *c = &r->cmp;
    if (r->now < c->disp_t) return false;
    int32_t best = -1;
    for (uint32_t s = 0; s < GC_TMU_SLOTS; s++) {
        if (c->slot[s] < 0 || !may_dispatch(&c->ent[c->slot[s]])) continue;
        const ref_task_t *t = &c->ent[c->slot[s]];
        if (best < 0 || t->level > c->ent[best].level ||
            (t->level == c->ent[best].level && t->slot_order < c->ent[best].slot_order))
            best = c->slot[s];
    }
    if (best < 0) return false;
    uint32_t e = (uint32_t)best;
    ref_task_t *t = &c->ent[e];
    const uint32_t *w = t->w;
    uint32_t xy = w[GC_TMD_CTA_DIM_XY / 4u];
    uint32_t nthr = GC_TMD_CTA_DIM_XY_X_GET(xy) * GC_TMD_CTA_DIM_XY_Y_GET(xy) * GC_TMD_CTA_DIM_Z_Z_GET(w[GC_TMD_CTA_DIM_Z / 4u]);
    uint32_t nwarps = (nthr + GC_SIMT_LANES - 1u) / GC_SIMT_LANES, smem_bytes = w[GC_TMD_SMEM_BYTES / 4u];
    /* warp slots: one per warp, or more for its shared memory (SMEM_BYTES in WARPS segments) */
    uint32_t seg = GC_SIMT_SMEM_BYTES / GC_SIMT_WARPS, need = nwarps;
    if ((smem_bytes + seg - 1u) / seg > need) need = (smem_bytes + seg - 1u) / seg;
    if (need > GC_SIMT_WARPS) need = GC_SIMT_WARPS;
    int32_t w0 = -1;
    uint32_t sm = 0;
    for (uint32_t i = 1; i <= GC_SIMT_NUM_SM && w0 < 0; i++) {
        sm = (c->sm_rr + i) % GC_SIMT_NUM_SM;
        w0 = warp_fit(c->warp_busy[sm], need);
    }
    if (w0 < 0) return false; /* strictly by priority: nobody else's CTA instead */
    int32_t xi = -1;
    for (uint32_t i = 0; i < REF_NWSLOTS && xi < 0; i++)
        if (!c->cta[i].valid) xi = (int32_t)i;
    if (xi < 0) {
        fprintf(stderr, "ref: internal error: more CTAs in flight than warp slots\n");
        abort();
    }
    if (!c->run[xi] && !(c->run[xi] = malloc(sizeof(cta_run_t)))) {
        fprintf(stderr, "ref: compute: host out of memory\n");
        abort();
    }
    cta_run_t *cr = c->run[xi];
    run_t *k = &cr->k;
    memset(k, 0, sizeof *k);
    k->r = r;
    k->c = c;
    k->ent = e;
    k->task = t->id;
    k->entry = w[GC_TMD_ENTRY_PC / 4u];
    k->param = w[GC_TMD_PARAM / 4u];
    k->grid[0] = w[GC_TMD_GRID_X / 4u];
    k->grid[1] = w[GC_TMD_GRID_Y / 4u];
    k->grid[2] = w[GC_TMD_GRID_Z / 4u];
    k->cta[0] = GC_TMD_CTA_DIM_XY_X_GET(xy);
    k->cta[1] = GC_TMD_CTA_DIM_XY_Y_GET(xy);
    k->cta[2] = GC_TMD_CTA_DIM_Z_Z_GET(w[GC_TMD_CTA_DIM_Z / 4u]);
    k->smem_bytes = smem_bytes;
    k->lanes = GC_SIMT_LANES;
    k->nthr = nthr;
    k->nwarps = nwarps;
    k->t = cr->sc.t;
    k->smem = cr->sc.smem;
    k->lmem = cr->sc.lmem;
    k->sm = sm;
    k->w0 = (uint32_t)w0;
    k->t0 = r->now;
    uint64_t n = t->next_cta, gxy = (uint64_t)k->grid[0] * k->grid[1];
    k->ctaid[0] = (uint32_t)(n % k->grid[0]);
    k->ctaid[1] = (uint32_t)(n / k->grid[0] % k->grid[1]);
    k->ctaid[2] = (uint32_t)(n / gxy);
    k->qpos = t->queue ? t->qpos : 0u;
    t->next_cta++;
    if (t->queue && t->next_cta >= t->ncta) { /* the entry's last CTA: the next position */
        t->next_cta = 0;
        t->qpos++;
    }
    t->inflight++;
    c->sm_rr = sm;
    c->disp_t = r->now + 1u;
    c->warp_busy[sm] |= (need >= 32u ? UINT32_MAX : (1u << need) - 1u) << w0;
    c->cta[xi] = (ref_cta_t){.valid = true, .running = true, .ent = e, .sm = sm, .w0 = (uint32_t)w0, .nw = need};
    cta_init(k);
    cta_interpret(r, (uint32_t)xi);
    return true;
}

/* The cycle a CTA's interpretation may run to now: the end of the model's current run, at least
 * CTA_AHEAD cycles ahead of the clock, never past the watchdog's limit. */
static uint64_t cta_horizon(const ref_t *r) {
    uint64_t h = r->horizon > r->now + CTA_AHEAD ? r->horizon : r->now + CTA_AHEAD;
    return r->max_cycles && h > r->max_cycles ? r->max_cycles : h;
}

/* Interpret CTA xi on, up to the horizon.  At its end its completion time is set (from its
 * dispatch cycle: its warps' latencies, its SM's issue port, the atomic unit); else it waits for
 * the model's clock to reach the point its interpretation reached (cta_resume_step). */
static void cta_interpret(ref_t *r, uint32_t xi) {
    ref_cmp_t *c = &r->cmp;
    ref_cta_t *x = &c->cta[xi];
    run_t *k = &((cta_run_t *)c->run[xi])->k;
    if (!run_cta(k, cta_horizon(r))) { /* may launch children: the table changes */
        x->t_resume = cta_progress(k);
        return;
    }
    uint64_t t0 = k->t0, slowest = 0;
    for (uint32_t i = 0; i < k->nwarps; i++) slowest = k->wlat[i] > slowest ? k->wlat[i] : slowest;
    uint64_t done = t0 + k->nwarps + slowest;
    c->issue_t[k->sm] = (c->issue_t[k->sm] > t0 ? c->issue_t[k->sm] : t0) + k->issues;
    if (c->issue_t[k->sm] > done) done = c->issue_t[k->sm];
    if (k->au_time) {
        c->au_t = (c->au_t > t0 ? c->au_t : t0) + k->au_time;
        if (c->au_t > done) done = c->au_t;
    }
    done = t0 + ref_stretch(r, done - t0);
    if (k->faulted) c->ent[k->ent].doomed = true;
    x->running = false;
    x->fault = k->faulted;
    x->t_done = done > r->now ? done : r->now + 1u;
    x->f_cause = k->f_cause;
    x->f_pc = k->f_pc;
    x->f_addr = k->f_addr;
    x->f_loc = k->f_loc;
}

/* CTAs whose interpretation stopped at an earlier horizon go on once the clock reached that point;
 * a CTA of a task that faulted meanwhile is killed (it ends now, as the RTL's kill). */
static bool cta_resume_step(ref_t *r) {
    ref_cmp_t *c = &r->cmp;
    bool any = false;
    for (uint32_t i = 0; i < REF_NWSLOTS; i++) {
        ref_cta_t *x = &c->cta[i];
        if (!x->valid || !x->running || x->t_resume > r->now) continue;
        any = true;
        if (c->ent[x->ent].fault) {
            x->running = false;
            x->t_done = r->now;
            continue;
        }
        cta_interpret(r, i);
    }
    return any;
}

/* CTAs whose time is up end, in time order; a faulting one reports its fault then. */
static bool cta_step(ref_t *r) {
    ref_cmp_t *c = &r->cmp;
    bool any = false;
    for (;;) {
        ref_cta_t *x = NULL;
        for (uint32_t i = 0; i < REF_NWSLOTS; i++)
            if (c->cta[i].valid && !c->cta[i].running && c->cta[i].t_done <= r->now &&
                (!x || c->cta[i].t_done < x->t_done))
                x = &c->cta[i];
        if (!x) return any;
        x->valid = false;
        if (x->fault) task_fault(r, x->ent, x->f_cause, x->f_pc, x->f_addr, x->f_loc);
        c->warp_busy[x->sm] &= ~((x->nw >= 32u ? UINT32_MAX : (1u << x->nw) - 1u) << x->w0);
        c->ent[x->ent].inflight--;
        c->ctas++;
        any = true;
    }
}

/* ------------------------------------------------------------------ the engine */
void ref_cmp_init(ref_t *r) {
    ref_cmp_t *c = &r->cmp;
    for (uint32_t s = 0; s < GC_TMU_SLOTS; s++) c->slot[s] = -1;
    c->rel_ent = -1;
}

void ref_cmp_free(ref_t *r) {
    for (uint32_t i = 0; i < REF_NWSLOTS; i++) {
        free(r->cmp.run[i]);
        r->cmp.run[i] = NULL;
    }
    free(r->cmp.logq);
    r->cmp.logq = NULL;
}

bool ref_cmp_step(ref_t *r) {
    bool any = log_step(r);
    any |= cta_resume_step(r);
    any |= cta_step(r);
    any |= release_step(r);
    any |= fetch_step(r);
    any |= queue_step(r);
    any |= slot_step(r);
    any |= dispatch_step(r);
    return any;
}

static void add_timer(const ref_t *r, uint64_t t, uint64_t *next) {
    if (t > r->now && t < *next) *next = t;
}

void ref_cmp_timers(const ref_t *r, uint64_t *next) {
    const ref_cmp_t *c = &r->cmp;
    bool disp = false;
    for (uint32_t e = 0; e < GC_TMU_ENTRIES; e++) {
        if (c->ent[e].state == GC_TASK_STATE_FETCH) add_timer(r, c->ent[e].t_fetch, next);
        if (queue_wants_poll(&c->ent[e])) add_timer(r, c->ent[e].qpoll_t, next);
        disp |= may_dispatch(&c->ent[e]);
    }
    for (uint32_t i = 0; i < REF_NWSLOTS; i++)
        if (c->cta[i].valid) add_timer(r, c->cta[i].running ? c->cta[i].t_resume : c->cta[i].t_done, next);
    if (disp) add_timer(r, c->disp_t, next);
}

static uint32_t warps_active(const ref_cmp_t *c) {
    uint32_t n = 0;
    for (uint32_t s = 0; s < GC_SIMT_NUM_SM; s++)
        for (uint32_t b = c->warp_busy[s]; b; b &= b - 1u) n++;
    return n;
}

void ref_cmp_accumulate(ref_t *r, uint64_t dt) {
    if (warps_active(&r->cmp)) r->cmp.active_cycles += (uint32_t)dt;
}

static uint32_t count_state(const ref_cmp_t *c, uint32_t st) {
    uint32_t n = 0;
    for (uint32_t e = 0; e < GC_TMU_ENTRIES; e++) n += c->ent[e].state == st;
    return n;
}

bool ref_cmp_reg_read(const ref_t *r, uint32_t a, uint32_t *v) {
    const ref_cmp_t *c = &r->cmp;
    switch (a) {
    case GC_REG_COMPUTE_CONFIG:
        *v = GC_COMPUTE_CONFIG_NUM_SM(GC_SIMT_NUM_SM) | GC_COMPUTE_CONFIG_WARPS(GC_SIMT_WARPS) |
             GC_COMPUTE_CONFIG_LANES(GC_SIMT_LANES) | GC_COMPUTE_CONFIG_SMEM_KB(GC_SIMT_SMEM_BYTES / 1024u);
        break;
    case GC_REG_COMPUTE_DBG: {
        uint32_t fetching = count_state(c, GC_TASK_STATE_FETCH), evicting = 0;
        for (uint32_t e = 0; e < GC_TMU_ENTRIES; e++) evicting |= c->ent[e].evicting;
        *v = GC_COMPUTE_DBG_PENDING(count_state(c, GC_TASK_STATE_PENDING)) |
             GC_COMPUTE_DBG_FETCHING(fetching > 7u ? 7u : fetching) |
             GC_COMPUTE_DBG_SLOTS_BUSY(count_state(c, GC_TASK_STATE_RUNNING)) |
             GC_COMPUTE_DBG_ENTRIES(GC_TMU_ENTRIES - count_state(c, GC_TASK_STATE_FREE)) |
             GC_COMPUTE_DBG_EVICTING(evicting) | GC_COMPUTE_DBG_WARPS_ACTIVE(warps_active(c));
        break;
    }
    case GC_REG_COMPUTE_TASK: *v = c->last_task; break;
    case GC_REG_COMPUTE_TMU_CONFIG:
        *v = GC_COMPUTE_TMU_CONFIG_SLOTS(GC_TMU_SLOTS) | GC_COMPUTE_TMU_CONFIG_ENTRIES(GC_TMU_ENTRIES) |
             GC_COMPUTE_TMU_CONFIG_PRIO_LEVELS(GC_TMU_PRIO_LEVELS);
        break;
    case GC_REG_COMPUTE_CAPS:
        *v = GC_COMPUTE_CAPS_FPU(r->inject != INJ_NO_FPU) | GC_COMPUTE_CAPS_LMEM_BYTES(GC_SIMT_LMEM_BYTES);
        break;
    case GC_REG_COMPUTE_FAULT_CAUSE: *v = GC_COMPUTE_FAULT_CAUSE_CAUSE(c->f_cause); break;
    case GC_REG_COMPUTE_FAULT_PC: *v = c->f_pc; break;
    case GC_REG_COMPUTE_FAULT_ADDR: *v = c->f_addr; break;
    case GC_REG_COMPUTE_FAULT_LOC: *v = c->f_loc; break;
    case GC_REG_COMPUTE_FAULT_TASK: *v = c->f_task; break;
    case GC_REG_COMPUTE_FAULT_CHANNEL: *v = GC_COMPUTE_FAULT_CHANNEL_CHANNEL(c->f_channel); break;
    case GC_REG_COMPUTE_TASKS: *v = c->tasks; break;
    case GC_REG_COMPUTE_CTAS: *v = c->ctas; break;
    case GC_REG_COMPUTE_WARP_INSTRS: *v = c->warp_instrs; break;
    case GC_REG_COMPUTE_THREAD_INSTRS: *v = c->thread_instrs; break;
    case GC_REG_COMPUTE_ACTIVE_CYCLES: *v = c->active_cycles; break;
    case GC_REG_COMPUTE_ICACHE_MISSES: *v = c->icache_misses; break;
    case GC_REG_COMPUTE_LSU_BEATS: *v = c->lsu_beats; break;
    case GC_REG_COMPUTE_EVICTIONS: *v = c->evictions; break;
    case GC_REG_COMPUTE_DEV_LAUNCHES: *v = c->dev_launches; break;
    case GC_REG_COMPUTE_LAUNCH_FAILS: *v = c->launch_fails; break;
    case GC_REG_COMPUTE_LAUNCH_FAIL: *v = c->lf_word; break;
    case GC_REG_COMPUTE_LAUNCH_FAIL_TASK: *v = c->lf_task; break;
    case GC_REG_COMPUTE_LOG_BASE_LO: *v = c->log_base_lo; break;
    case GC_REG_COMPUTE_LOG_BASE_HI: *v = c->log_base_hi; break;
    case GC_REG_COMPUTE_LOG_CTRL: *v = c->log_ctrl; break;
    case GC_REG_COMPUTE_LOG_PUT: *v = c->log_put; break;
    case GC_REG_COMPUTE_TMU_CTRL: *v = c->tmu_ctrl; break;
    case GC_REG_COMPUTE_GATED_CYCLES: *v = 0; break; /* no clocks (GLOBAL.CLOCK_GATING) */
    default: return false;
    }
    return true;
}

/* LOG_BASE_*, LOG_CTRL (which sets LOG_PUT to 0) and TMU_CTRL are rw (their fields); writes to
 * the other COMPUTE registers are ignored; false: no register there. */
bool ref_cmp_reg_write(ref_t *r, uint32_t a, uint32_t v) {
    ref_cmp_t *c = &r->cmp;
    uint32_t dummy;
    switch (a) {
    case GC_REG_COMPUTE_LOG_BASE_LO: c->log_base_lo = v & ~(GC_TMU_LOG_ALIGN - 1u); break; /* bits 3:0 read 0 */
    case GC_REG_COMPUTE_LOG_BASE_HI: c->log_base_hi = GC_COMPUTE_LOG_BASE_HI_HI(GC_COMPUTE_LOG_BASE_HI_HI_GET(v)); break;
    case GC_REG_COMPUTE_LOG_CTRL:
        c->log_ctrl = GC_COMPUTE_LOG_CTRL_ENABLE(GC_COMPUTE_LOG_CTRL_ENABLE_GET(v)) |
                      GC_COMPUTE_LOG_CTRL_SIZE_LOG2(GC_COMPUTE_LOG_CTRL_SIZE_LOG2_GET(v));
        c->log_put = 0;
        break;
    case GC_REG_COMPUTE_TMU_CTRL: c->tmu_ctrl = GC_COMPUTE_TMU_CTRL_NO_EVICT(GC_COMPUTE_TMU_CTRL_NO_EVICT_GET(v)); break;
    default: return ref_cmp_reg_read(r, a, &dummy);
    }
    return true;
}

/* Where CTA xi is (running: still being interpreted): its first warp with a live thread and that
 * warp's PC (the lowest of its live threads). */
static int cta_where(const ref_cmp_t *c, uint32_t xi, char *buf, size_t len) {
    const ref_cta_t *x = &c->cta[xi];
    const run_t *k = &((const cta_run_t *)c->run[xi])->k;
    for (uint32_t wi = 0; wi < k->nwarps; wi++) {
        uint32_t lo = wi * k->lanes, hi = lo + k->lanes < k->nthr ? lo + k->lanes : k->nthr, pc = UINT32_MAX;
        for (uint32_t i = lo; i < hi; i++)
            if (k->t[i].st == T_LIVE && k->t[i].pc < pc) pc = k->t[i].pc;
        if (pc != UINT32_MAX)
            return snprintf(buf, len, "compute task 0x%x CTA (%u,%u,%u) on SM %u: warp %u at PC 0x%08x, %llu warp "
                            "instructions", k->task, k->ctaid[0], k->ctaid[1], k->ctaid[2], x->sm, x->w0 + wi, pc,
                            (unsigned long long)k->issues);
    }
    return snprintf(buf, len, "compute task 0x%x CTA (%u,%u,%u) on SM %u: at a barrier", k->task, k->ctaid[0],
                    k->ctaid[1], k->ctaid[2], x->sm);
}

int ref_cmp_stuck(const ref_t *r, char *buf, size_t len) {
    const ref_cmp_t *c = &r->cmp;
    for (uint32_t i = 0; i < REF_NWSLOTS; i++)
        if (c->cta[i].valid && c->cta[i].running) return cta_where(c, i, buf, len);
    return snprintf(buf, len, "no CTA running");
}

void ref_cmp_dump(const ref_t *r, FILE *out) {
    const ref_cmp_t *c = &r->cmp;
    for (uint32_t i = 0; i < REF_NWSLOTS; i++) {
        if (!c->cta[i].valid || !c->cta[i].running) continue;
        char buf[200];
        cta_where(c, i, buf, sizeof buf);
        fprintf(out, "%s (interpreted to cycle %llu)\n", buf, (unsigned long long)c->cta[i].t_resume);
    }
    for (uint32_t e = 0; e < GC_TMU_ENTRIES; e++) {
        const ref_task_t *t = &c->ent[e];
        if (t->state == GC_TASK_STATE_FREE) continue;
        fprintf(out, "compute entry %2u: task 0x%x from channel %u, state %s, level %u depth %u/%u", e, t->id, t->ch,
                gc_task_state_name(t->state), t->level, t->depth, t->max_depth);
        if (t->parent >= 0) fprintf(out, ", child of entry %d", t->parent);
        if (t->state == GC_TASK_STATE_RUNNING) fprintf(out, ", slot %u", t->slot);
        fprintf(out, ", CTA %llu of %llu, %u in flight, %u children%s%s%s\n", (unsigned long long)t->next_cta,
                (unsigned long long)t->ncta, t->inflight, t->children, t->evicting ? ", being evicted" : "",
                t->fault ? " (faulted)" : "", t->sub_fault ? " (a descendant faulted)" : "");
    }
    if (c->logq_n)
        fprintf(out, "compute task log: %u records waiting, LOG_PUT %u\n", c->logq_n, c->log_put);
}
