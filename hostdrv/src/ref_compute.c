/* ref_compute.c: runlist 0's compute engine in the ref model (gc_simt: task queue, dispatcher,
 * SMs), functionally.
 *
 * A launch (SEND_SIGNALING_PCAS_B with SCHEDULE, handed over by the PBDMA like a LAUNCH_DMA)
 * reads the TMD, checks it (BAD_TMD), and runs the whole task at once: CTAs one after the other
 * in dispatch order (x fastest), each CTA's warps round robin one warp instruction at a time, and
 * in a warp the threads at the lowest PC of its live threads (min-PC reconvergence, as the RTL).
 * Every thread runs RV32IMA with the spec's CSRs, BAR and EXIT, the thread address windows
 * (SYSMEM, VIDMEM, the CTA's shared memory, the thread's local memory), global atomics and LR/SC
 * (one reservation per thread, broken by any global write to its word), and the RTL's faults with
 * the same record (cause, PC, address, lowest faulting lane, warp slot, SM 0, task, channel).
 * Memory effects therefore happen at the launch; the task then holds the engine for a modelled
 * duration (below), after which its completion release goes through the atomic unit and the
 * PBDMA is told (TASK_FAULT for a faulted task, which releases nothing).
 *
 * Duration model (cycles), an estimate and not the RTL's timing: every warp accumulates its own
 * latency (3 cycles per instruction: a warp issues again three cycles later; the memory latency
 * for a global access; 34 for a DIV/REM; an instruction-cache fill; a read-modify-write round
 * trip per lane of a global atomic, which the one atomic unit serves in turn), a CTA takes the warp slots
 * it needs (threads / LANES, or more for its shared memory) where they free first and holds them
 * for its slowest warp, and the task lasts the TMD read, plus one cycle per warp launched, plus
 * the latest of the last slot's release, the warp instructions issued (one per cycle per SM) and
 * the atomic unit's total time.
 * The functional results are exact for programs without races between engines.
 */
#include <stdlib.h>
#include <string.h>

#include "ref.h"

#define DIV_CYCLES 34u
#define STEP_GUARD 2000000000ull /* warp instructions per task before the model gives up (a hang) */

enum { T_LIVE, T_BAR, T_EXIT };

typedef struct thr {
    uint32_t x[32];
    uint32_t pc;
    uint8_t st;
    bool resv;
    uint32_t resv_addr;
    uint32_t tid[3];
} thr_t;

typedef struct task {
    ref_t *r;
    ref_cmp_t *c;
    uint32_t entry, param, grid[3], cta[3], smem_bytes, lanes, nthr, nwarps;
    uint32_t ctaid[3];
    thr_t *t;
    uint8_t *smem, *lmem;
    uint64_t cycles;        /* launch costs so far */
    uint64_t issues;        /* warp instructions issued */
    uint64_t au_time;       /* global atomics: the one atomic unit serves them one lane at a time */
    uint64_t *wlat;         /* per warp of the current CTA: its latency */
    uint64_t slot_t[GC_SIMT_WARPS * GC_SIMT_NUM_SM]; /* when each warp slot frees */
    uint64_t steps;
    uint32_t icache_tag[GC_SIMT_ICACHE_LINES];
    bool icache_valid[GC_SIMT_ICACHE_LINES];
    bool faulted;
    uint32_t fill;          /* the last fetch's instruction-cache fill latency (0: a hit) */
} task_t;

/* ------------------------------------------------------------------ fault record */
static void cmp_fault(ref_t *r, uint32_t cause, uint32_t pc, uint32_t addr, uint32_t lane, uint32_t warp) {
    ref_cmp_t *c = &r->cmp;
    c->fault = true;
    if (!(r->intr_status & GC_GLOBAL_INTR_STATUS_TASK_FAULT(1))) {
        c->f_cause = cause;
        c->f_pc = pc;
        c->f_addr = addr;
        c->f_loc = GC_COMPUTE_FAULT_LOC_LANE(lane) | GC_COMPUTE_FAULT_LOC_WARP(warp) | GC_COMPUTE_FAULT_LOC_SM(0);
        c->f_task = c->task;
        c->f_channel = c->ch;
    }
    r->intr_status |= GC_GLOBAL_INTR_STATUS_TASK_FAULT(1);
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

typedef enum { W_GLOBAL, W_SHARED, W_LOCAL, W_NONE } win_t;

/* Classify an access of n bytes; *p points at on-chip memory, *dev at global. */
static win_t where(task_t *k, uint32_t tidx, uint32_t a, uint32_t n, uint8_t **p, uint64_t *dev) {
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
static void break_resv(task_t *k, uint32_t a) {
    for (uint32_t i = 0; i < k->nthr; i++)
        if (k->t[i].resv && (k->t[i].resv_addr >> 2) == (a >> 2)) k->t[i].resv = false;
}

/* ------------------------------------------------------------------ one thread instruction */
static uint32_t csr_value(task_t *k, uint32_t tidx, uint32_t csr, bool *ok) {
    const thr_t *t = &k->t[tidx];
    uint64_t cyc = k->r->now + k->cycles;
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
    case GC_SIMT_CSR_NCTAID_Y: return k->grid[1];
    case GC_SIMT_CSR_NCTAID_Z: return k->grid[2];
    case GC_SIMT_CSR_WARPID: return tidx / k->lanes;
    case GC_SIMT_CSR_LANEID: return tidx % k->lanes;
    case GC_SIMT_CSR_TASKID: return k->c->task;
    case GC_SIMT_CSR_PARAM: return k->param;
    case GC_SIMT_CSR_NLANES: return k->lanes;
    case GC_SIMT_CSR_SMID: return 0;
    default: *ok = false; return 0;
    }
}

static int32_t sext(uint32_t v, uint32_t bits) { return (int32_t)(v << (32u - bits)) >> (32u - bits); }

typedef struct ires {
    uint32_t cause, addr; /* cause != NONE: the thread faulted */
    bool global_mem, div, amo;
    uint32_t lat;         /* global access: the memory's latency */
} ires_t;

#define FAULT(c, a)          \
    do {                     \
        res->cause = (c);    \
        res->addr = (a);     \
        return;              \
    } while (0)

static void exec(task_t *k, uint32_t tidx, uint32_t w, ires_t *res) {
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
        uint32_t ad = a + (uint32_t)immi;
        if (ad % n) FAULT(GC_SIMT_FAULT_MISALIGNED_LOAD, ad);
        uint8_t *p = NULL, buf[4];
        uint64_t dev = 0;
        win_t wn = where(k, tidx, ad, n, &p, &dev);
        if (wn == W_NONE) FAULT(GC_SIMT_FAULT_ACCESS_FAULT, ad);
        if (wn == W_GLOBAL) {
            res->global_mem = true;
            res->lat = ref_latency(dev);
            if (!ref_mem_read(k->r, dev, buf, n)) FAULT(GC_SIMT_FAULT_LOAD_BUS_ERROR, ad);
            p = buf;
        }
        v = ld_le(p, n);
        if (f3 == 0) v = (uint32_t)sext(v, 8);
        if (f3 == 1) v = (uint32_t)sext(v, 16);
        break;
    }
    case 0x23: { /* stores */
        if (f3 > 2) FAULT(GC_SIMT_FAULT_ILLEGAL_INSTRUCTION, w);
        uint32_t n = 1u << f3, ad = a + (uint32_t)imms;
        if (ad % n) FAULT(GC_SIMT_FAULT_MISALIGNED_STORE, ad);
        uint8_t *p = NULL, buf[4];
        uint64_t dev = 0;
        win_t wn = where(k, tidx, ad, n, &p, &dev);
        if (wn == W_NONE) FAULT(GC_SIMT_FAULT_ACCESS_FAULT, ad);
        if (wn == W_GLOBAL) {
            res->global_mem = true;
            st_le(buf, b, n);
            if (!ref_mem_write(k->r, dev, buf, n)) FAULT(GC_SIMT_FAULT_STORE_BUS_ERROR, ad);
            break_resv(k, ad);                             /* a plain store breaks them too */
        } else {
            st_le(p, b, n);
        }
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
    case 0x73: { /* SYSTEM: ECALL, EBREAK, read-only CSRs */
        if (w == 0x00000073u) FAULT(GC_SIMT_FAULT_ECALL, pc); /* FAULT_ADDR = the PC, as on rtl */
        if (w == 0x00100073u) FAULT(GC_SIMT_FAULT_EBREAK, pc);
        uint32_t csr = w >> 20;
        bool ok = false;
        /* CSRRS / CSRRC with rs1 = x0, CSRRSI / CSRRCI with uimm = 0 */
        if ((f3 == 2 || f3 == 3 || f3 == 6 || f3 == 7) && rs1 == 0) v = csr_value(k, tidx, csr, &ok);
        if (!ok) FAULT(GC_SIMT_FAULT_ILLEGAL_INSTRUCTION, w);
        break;
    }
    case 0x0B: /* custom-0: BAR, EXIT */
        if (w == 0x0000000Bu) {
            t->st = T_BAR;
        } else if (w == 0x0000100Bu) {
            t->st = T_EXIT;
        } else {
            FAULT(GC_SIMT_FAULT_ILLEGAL_INSTRUCTION, w);
        }
        wr = false;
        break;
    case 0x2F: { /* A */
        uint32_t f5 = w >> 27;
        if (f3 != 2) FAULT(GC_SIMT_FAULT_ILLEGAL_INSTRUCTION, w);
        bool lr = f5 == 0x02, sc = f5 == 0x03;
        if (lr && rs2 != 0) FAULT(GC_SIMT_FAULT_ILLEGAL_INSTRUCTION, w);
        if (!lr && !sc && f5 != 0x00 && f5 != 0x01 && f5 != 0x04 && f5 != 0x08 && f5 != 0x0C && f5 != 0x10 &&
            f5 != 0x14 && f5 != 0x18 && f5 != 0x1C)
            FAULT(GC_SIMT_FAULT_ILLEGAL_INSTRUCTION, w);
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
        } else {
            st_le(p, nv, 4);
        }
        v = old;
        break;
    }
    default: FAULT(GC_SIMT_FAULT_ILLEGAL_INSTRUCTION, w);
    }
    if (wr && rd) x[rd] = v;
    if (npc != pc + 4u && (npc & 3u)) FAULT(GC_SIMT_FAULT_MISALIGNED_FETCH, npc);
    t->pc = npc;
}

/* ------------------------------------------------------------------ warps and CTAs */
/* Fetch the word at pc (icache model for the miss counter); false with a fault cause. */
static bool fetch(task_t *k, uint32_t pc, uint32_t *w, uint32_t *cause) {
    uint64_t dev;
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
    if (!k->icache_valid[idx] || k->icache_tag[idx] != tag) {
        k->icache_valid[idx] = true;
        k->icache_tag[idx] = tag;
        k->c->icache_misses++;
        k->fill = ref_latency(dev) + 4u;
    }
    return true;
}

/* One warp instruction of warp wi; false when the warp has nothing to run. */
static bool warp_step(task_t *k, uint32_t wi) {
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
    if (!fetch(k, minpc, &w, &cause)) {
        for (uint32_t i = lo; i < hi; i++)
            if (k->t[i].st == T_LIVE && k->t[i].pc == minpc) {
                cmp_fault(k->r, cause, minpc, minpc, i - lo, wi);
                break;
            }
        k->faulted = true;
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
            cmp_fault(k->r, res.cause, minpc, res.addr, i - lo, wi);
            k->faulted = true;
            return true;
        }
    }
    k->issues++;
    k->wlat[wi] += 3u + k->fill + lat + (gm ? 2u : 0u) + (dv ? DIV_CYCLES : 0u) + amo_cost;
    k->au_time += amo_cost;
    if (gm) c->lsu_beats += (k->lanes * 4u + REF_BEAT_BYTES - 1u) / REF_BEAT_BYTES;
    return true;
}

static void run_cta(task_t *k) {
    for (uint32_t i = 0; i < k->nthr; i++) {
        thr_t *t = &k->t[i];
        memset(t, 0, sizeof *t);
        t->pc = k->entry;
        t->st = T_LIVE;
        t->tid[0] = i % k->cta[0];
        t->tid[1] = (i / k->cta[0]) % k->cta[1];
        t->tid[2] = i / (k->cta[0] * k->cta[1]);
    }
    memset(k->smem, 0, k->smem_bytes ? k->smem_bytes : 1u);
    memset(k->lmem, 0, (size_t)k->nthr * GC_SIMT_LMEM_BYTES);
    k->cycles += k->nwarps;
    memset(k->wlat, 0, k->nwarps * sizeof *k->wlat);
    for (;;) {
        bool any = false;
        for (uint32_t wi = 0; wi < k->nwarps && !k->faulted; wi++) {
            any |= warp_step(k, wi);
            if (++k->steps > STEP_GUARD) {
                fprintf(stderr, "ref: compute task 0x%x: more than %llu warp instructions, stopped (a hang?)\n",
                        k->c->task, (unsigned long long)STEP_GUARD);
                cmp_fault(k->r, GC_SIMT_FAULT_ILLEGAL_INSTRUCTION, k->t[wi * k->lanes].pc, 0, 0, wi);
                k->faulted = true;
            }
        }
        if (k->faulted) return;
        if (any) continue;
        /* nobody live: a barrier opens when some thread waits at it, else every thread exited */
        bool bar = false;
        for (uint32_t i = 0; i < k->nthr; i++)
            if (k->t[i].st == T_BAR) k->t[i].st = T_LIVE, bar = true;
        if (!bar) break;
    }
    k->c->ctas++;
    /* the CTA's warp slots: where they free first; held until its slowest warp is done */
    uint32_t seg = GC_SIMT_SMEM_BYTES / GC_SIMT_WARPS, need = k->nwarps, ns = GC_SIMT_WARPS * GC_SIMT_NUM_SM;
    if ((k->smem_bytes + seg - 1u) / seg > need) need = (k->smem_bytes + seg - 1u) / seg;
    if (need > GC_SIMT_WARPS) need = GC_SIMT_WARPS;
    uint32_t best = 0;
    uint64_t best_t = UINT64_MAX, slowest = 0;
    for (uint32_t s0 = 0; s0 + need <= ns; s0++) {
        if (s0 / GC_SIMT_WARPS != (s0 + need - 1u) / GC_SIMT_WARPS) continue; /* one SM */
        uint64_t t = 0;
        for (uint32_t j = s0; j < s0 + need; j++) t = k->slot_t[j] > t ? k->slot_t[j] : t;
        if (t < best_t) best_t = t, best = s0;
    }
    for (uint32_t wi = 0; wi < k->nwarps; wi++) slowest = k->wlat[wi] > slowest ? k->wlat[wi] : slowest;
    for (uint32_t j = best; j < best + need; j++) k->slot_t[j] = best_t + slowest;
}

/* ------------------------------------------------------------------ the engine */
static void bad_tmd(ref_t *r, uint32_t off) { cmp_fault(r, GC_SIMT_FAULT_BAD_TMD, 0, off, 0, 0); }

void ref_cmp_launch(ref_t *r, uint32_t ch, uint64_t tmd_addr) {
    ref_cmp_t *c = &r->cmp;
    c->busy = true;
    c->fault = false;
    c->ch = ch;
    c->task = (uint32_t)(tmd_addr >> 8);
    c->t_start = r->now;
    c->sem = c->intr = false;
    c->state = GC_TASK_STATE_DRAIN;
    uint64_t dur = ref_latency(tmd_addr) + 4u;
    uint32_t w[GC_TMD_SIZE / 4u];
    if (ref_window(tmd_addr, GC_TMD_SIZE) < 0 || !ref_mem_read(r, tmd_addr, w, GC_TMD_SIZE)) {
        cmp_fault(r, GC_SIMT_FAULT_TMD_BUS_ERROR, 0, c->task, 0, 0);
        c->t_next = r->now + ref_stretch(r, dur);
        return;
    }
    task_t k;
    memset(&k, 0, sizeof k);
    k.r = r;
    k.c = c;
    k.entry = w[GC_TMD_ENTRY_PC / 4];
    k.param = w[GC_TMD_PARAM / 4];
    k.grid[0] = w[GC_TMD_GRID_X / 4];
    k.grid[1] = w[GC_TMD_GRID_Y / 4];
    k.grid[2] = w[GC_TMD_GRID_Z / 4];
    k.cta[0] = GC_TMD_CTA_DIM_XY_X_GET(w[GC_TMD_CTA_DIM_XY / 4]);
    k.cta[1] = GC_TMD_CTA_DIM_XY_Y_GET(w[GC_TMD_CTA_DIM_XY / 4]);
    k.cta[2] = GC_TMD_CTA_DIM_Z_Z_GET(w[GC_TMD_CTA_DIM_Z / 4]);
    k.smem_bytes = w[GC_TMD_SMEM_BYTES / 4];
    k.lanes = GC_SIMT_LANES;
    uint32_t flags = w[GC_TMD_FLAGS / 4];
    c->sem = GC_TMD_FLAGS_SEM_RELEASE_GET(flags) != 0;
    c->sem_four = GC_TMD_FLAGS_SEM_FOUR_WORD_GET(flags) != 0;
    c->intr = GC_TMD_FLAGS_INTERRUPT_GET(flags) != 0;
    c->sem_addr = ((uint64_t)GC_TMD_SEM_ADDR_HI_HI_GET(w[GC_TMD_SEM_ADDR_HI / 4]) << 32) | w[GC_TMD_SEM_ADDR_LO / 4];
    c->sem_payload = w[GC_TMD_SEM_PAYLOAD / 4];
    uint64_t threads = (uint64_t)k.cta[0] * k.cta[1] * k.cta[2];
    if (!k.grid[0]) bad_tmd(r, GC_TMD_GRID_X);
    else if (!k.grid[1]) bad_tmd(r, GC_TMD_GRID_Y);
    else if (!k.grid[2]) bad_tmd(r, GC_TMD_GRID_Z);
    else if (!k.cta[0] || !k.cta[1]) bad_tmd(r, GC_TMD_CTA_DIM_XY);
    else if (!k.cta[2]) bad_tmd(r, GC_TMD_CTA_DIM_Z);
    else if (threads > (uint64_t)GC_SIMT_WARPS * GC_SIMT_LANES) bad_tmd(r, threads > 0xFFFFu ? GC_TMD_CTA_DIM_Z : GC_TMD_CTA_DIM_XY);
    else if (k.smem_bytes > GC_SIMT_SMEM_BYTES) bad_tmd(r, GC_TMD_SMEM_BYTES);
    else if (k.entry % 4u) bad_tmd(r, GC_TMD_ENTRY_PC);
    else if (c->sem && c->sem_addr % (c->sem_four ? 16u : 4u)) bad_tmd(r, GC_TMD_SEM_ADDR_LO);
    if (c->fault) {
        c->t_next = r->now + ref_stretch(r, dur);
        return;
    }
    k.nthr = (uint32_t)threads;
    k.nwarps = (k.nthr + k.lanes - 1u) / k.lanes;
    k.t = calloc(k.nthr, sizeof *k.t);
    k.smem = calloc(k.smem_bytes ? k.smem_bytes : 1u, 1);
    k.lmem = calloc((size_t)k.nthr, GC_SIMT_LMEM_BYTES);
    k.wlat = calloc(k.nwarps, sizeof *k.wlat);
    if (!k.t || !k.smem || !k.lmem || !k.wlat) {
        fprintf(stderr, "ref: compute: host out of memory\n");
        abort();
    }
    for (k.ctaid[2] = 0; k.ctaid[2] < k.grid[2] && !k.faulted; k.ctaid[2]++)
        for (k.ctaid[1] = 0; k.ctaid[1] < k.grid[1] && !k.faulted; k.ctaid[1]++)
            for (k.ctaid[0] = 0; k.ctaid[0] < k.grid[0] && !k.faulted; k.ctaid[0]++) run_cta(&k);
    free(k.t);
    free(k.smem);
    free(k.lmem);
    free(k.wlat);
    uint64_t busy = k.issues / GC_SIMT_NUM_SM;
    if (k.au_time > busy) busy = k.au_time;
    for (uint32_t j = 0; j < GC_SIMT_WARPS * GC_SIMT_NUM_SM; j++) busy = k.slot_t[j] > busy ? k.slot_t[j] : busy;
    dur += k.cycles + busy;
    c->t_next = r->now + ref_stretch(r, dur);
}

static void finish(ref_t *r) {
    ref_cmp_t *c = &r->cmp;
    c->busy = false;
    c->state = GC_TASK_STATE_IDLE;
    c->tasks++;
    ref_pbdma_ce_done(r, 0, c->fault, c->intr && !c->fault);
}

bool ref_cmp_step(ref_t *r) {
    ref_cmp_t *c = &r->cmp;
    ref_au_req_t *q = &r->au[REF_AU_COMPUTE];
    if (!c->busy) return false;
    switch (c->state) {
    case GC_TASK_STATE_DRAIN:
        if (r->now < c->t_next) return false;
        c->active_cycles += (uint32_t)(c->t_next - c->t_start);
        if (c->sem && !c->fault) {
            c->state = GC_TASK_STATE_RELEASE;
            ref_au_request(r, REF_AU_COMPUTE, AU_WRITE, c->sem_four ? 16u : 4u, c->sem_addr, c->sem_payload, 0, false);
        } else {
            finish(r);
        }
        return true;
    case GC_TASK_STATE_RELEASE:
        if (!q->valid || !q->done) return false;
        q->valid = false;
        if (q->err) cmp_fault(r, GC_SIMT_FAULT_TMD_BUS_ERROR, 0, (uint32_t)c->sem_addr, 0, 0);
        finish(r);
        return true;
    default: return false;
    }
}

void ref_cmp_timers(const ref_t *r, uint64_t *next) {
    const ref_cmp_t *c = &r->cmp;
    if (c->busy && c->state == GC_TASK_STATE_DRAIN && c->t_next > r->now && c->t_next < *next) *next = c->t_next;
}

bool ref_cmp_reg_read(const ref_t *r, uint32_t a, uint32_t *v) {
    const ref_cmp_t *c = &r->cmp;
    switch (a) {
    case GC_REG_COMPUTE_CONFIG:
        *v = GC_COMPUTE_CONFIG_NUM_SM(GC_SIMT_NUM_SM) | GC_COMPUTE_CONFIG_WARPS(GC_SIMT_WARPS) |
             GC_COMPUTE_CONFIG_LANES(GC_SIMT_LANES) | GC_COMPUTE_CONFIG_SMEM_KB(GC_SIMT_SMEM_BYTES / 1024u);
        break;
    case GC_REG_COMPUTE_DBG:
        *v = GC_COMPUTE_DBG_STATE(c->busy ? c->state : GC_TASK_STATE_IDLE);
        break;
    case GC_REG_COMPUTE_TASK: *v = c->task; break;
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
    default: return false;
    }
    return true;
}
