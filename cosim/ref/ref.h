/* ref.h: the "ref" backend's model state (a functional C model of gpu_top): the constants and the
 * state of every unit, in one struct ref_t, as the RTL's package holds the types its blocks share.
 * Types only: each unit's functions are declared in its own header.
 *
 * Units, lowest first (each uses only the ones below it; scripts/check_layers.py checks it):
 *   ref_bus.h / ref_bus.c      memory windows, timing, the atomic unit, interrupt lines and the
 *                              event port (ref_emit): the one interface the units share
 *   ref_fp.h / ref_fp.c        RV32F arithmetic (integer C)
 *   ref_ce.h / ref_ce.c        the copy engines
 *   ref_compute.h / .c         runlist 0's compute engine: the task management unit of docs/tmu.md
 *                              (task table, pending list, task slots, eviction, device launches,
 *                              task log), CTA dispatch to the SMs' warp slots, an RV32IMAF SIMT
 *                              interpreter run per CTA, fault records
 *   ref_pbdma.h / .c           per-runlist scheduler and PBDMA: GPFIFO, pushbuffer decode, host
 *                              methods, semaphores, switches, channel faults; it drives the copy
 *                              engines and the compute engine
 *   backend_ref.c              the backend ops (gpucosim/backend.h), BAR0 registers, the event loop,
 *                              the stuck-state dump; it wires the event sink to the PBDMAs
 * A unit tells the one above it what happened (a copy or a task completed, a write landed on a
 * semaphore word) through ref_emit, never by calling it.
 *
 * Time is an event model.  Every unit keeps the cycle at which it can act next; run() jumps
 * from one such cycle to the next (idle time costs nothing) and, at each, lets every unit act
 * until none can ("settle").  The units follow the RTL's rules (rtl/gc_pbdma.sv header comment)
 * at method granularity: a method is one step, a memory access one latency, a copy one duration,
 * a CTA one duration (interpreted whole when dispatched; docs/tmu.md's task rules at event level).
 * Encodings come from gpucosim_spec.h only; the constants below are model costs and the RTL's
 * internal parameters, named where they are used.
 */
#ifndef GPUCOSIM_REF_H
#define GPUCOSIM_REF_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "gpucosim_spec.h"

#define REF_NEVER UINT64_MAX

/* Memory timing: the cosim memory model's defaults (cosim/cosim.cpp cosim_config_default). */
#define REF_SYS_LATENCY 100u /* sysmem: a PCIe round trip */
#define REF_SYS_BPC 4u       /* sysmem bytes per cycle */
#define REF_VID_LATENCY 40u  /* vidmem: DRAM */
#define REF_VID_BPC 8u       /* vidmem bytes per cycle */
#define REF_BAD_LATENCY 1u   /* an address outside both windows answers DECERR after a cycle */
#define REF_CHUNK_BYTES 65536u /* the windows are allocated in chunks on first write (untouched: zeros) */

/* Bus geometry (AXI rules of rtl/README.md). */
#define REF_BEAT_BYTES (GC_AXI_DATA_W / 8u)
#define REF_PAGE_BYTES 4096u                                /* no burst crosses 4 KiB */
#define REF_CE_BURST_BYTES (GC_AXI_MAX_BURST * REF_BEAT_BYTES) /* CE bursts never cross this */
#define REF_ADDR_MASK ((1ull << GC_AXI_ADDR_W) - 1ull)
#define REF_GP_ENTRY_BYTES 8u                               /* one GPFIFO entry: two dwords */

/* Reset values of the scheduler registers (spec/gpucosim.yaml register docs). */
#define REF_TIMESLICE_RESET 1024u
#define REF_ACQ_RETRY_RESET 64u

#define REF_NSUBCH (1u << GC_METHOD_HEADER_SUBCHANNEL_WIDTH)
#define REF_NROUNDS (GC_CHANNEL_INTERLEAVE_LEVEL_HIGH + 1u) /* interleave rounds: LOW..HIGH */
#define REF_AU_COMPUTE (GC_NUM_RUNLISTS + GC_NUM_CE)        /* the compute engine's completion releases */
#define REF_AU_LOG (REF_AU_COMPUTE + 1u)                    /* the task log's records */
#define REF_NAU (REF_AU_LOG + 1u)                           /* atomic-unit requesters */
#define REF_PB_FIFO_DWORDS 64u /* gc_pbdma PB_FIFO_DW: dwords buffered or in flight */
#define REF_PB_BURSTS 8u       /* pushbuffer bursts the model tracks (the FIFO allows at most ~3) */

/* Per-channel method registers (host semaphore and copy-class state), as in gc_pbdma. */
enum {
    MR_SEM_ADDR_LO, MR_SEM_ADDR_HI, MR_SEM_PAY_LO, MR_SEM_PAY_HI,
    MR_OFS_IN_UPPER, MR_OFS_IN_LOWER, MR_OFS_OUT_UPPER, MR_OFS_OUT_LOWER,
    MR_PITCH_IN, MR_PITCH_OUT, MR_LINE_LEN, MR_LINE_COUNT,
    MR_CE_SEM_A, MR_CE_SEM_B, MR_CE_SEM_PAY, MR_REMAP_A, MR_REMAP_B, MR_REMAP_COMP,
    MR_PCAS_A,
    MR_COUNT
};

/* Switch causes (counters SWITCH_*). */
typedef enum { SW_TIMESLICE, SW_ACQUIRE, SW_ENGINE, SW_EMPTY } ref_sw_t;

/* Fault injection of the memory model (cosim.h): flip-write, drop-sem, stall-reads. */
/* INJ_NO_FPU ("no-fpu"): the model as gpu_top built with FPU = 0 (COMPUTE.CAPS.FPU reads 0; every F
 * instruction and fflags / frm / fcsr access faults ILLEGAL_INSTRUCTION), for the host's no-FPU paths */
typedef enum { INJ_NONE, INJ_FLIP_WRITE, INJ_DROP_SEM, INJ_STALL_READS, INJ_NO_FPU } ref_inject_t;

typedef enum { AU_READ, AU_WRITE, AU_RMW } ref_au_op_t;
/* Atomic-unit request sizes (gc_sem_pkg SEM_ASIZE_*): 4 or 8 (a 4- or 8-byte value), 16 (an
 * 8-byte value and the cycle stamp at +8) or REF_AU_16W (a 4-byte value, wdata bits 63:32, the stamp).
 * A READ of 16 / REF_AU_16W reads the 8- / 4-byte value. */
#define REF_AU_16W 3u

/* One atomic-unit request slot per requester (PBDMAs 0..NUM_RUNLISTS-1, then the CEs, then the
 * compute engine). */
typedef struct ref_au_req {
    bool valid, effected, done;
    uint64_t t_eff;      /* cycle the memory is read / the write lands */
    uint64_t t_done;     /* cycle of the response */
    ref_au_op_t op;
    uint32_t size;       /* 4, 8, 16 or REF_AU_16W */
    uint32_t red;
    bool is_signed;
    uint64_t addr, wdata, stamp;
    uint64_t rdata;      /* READ: the value; RMW: the old value */
    bool err;
} ref_au_req_t;

typedef struct ref_chan {
    /* BAR0 registers */
    uint64_t gpfifo_base;
    uint32_t log2, gp_put, gp_get, runlist;
    bool enable;
    uint32_t err_cause, err_gp_get, err_method, err_data;
    uint32_t methods, timeslice, interleave, acq_timeout;
    uint32_t cyc_resident, sw_count[4], acq_blk_cycles;
    /* PBDMA context: decoder, bindings, method registers */
    uint32_t sec_op, maddr, subch, count;
    bool bound[REF_NSUBCH];
    uint32_t cls[REF_NSUBCH]; /* class bound on each subchannel (GC_CLASS_COPY / GC_CLASS_COMPUTE) */
    uint32_t mreg[MR_COUNT];
    bool ce_pend;        /* a copy it launched has not completed */
    bool eng_wait;       /* switched out (as a guest) waiting for the engine */
    bool in_ent;         /* an entry was left mid-way: resume from ent_* */
    bool ent_sync;
    uint64_t ent_addr;   /* next undecoded dword */
    uint32_t ent_left, ent_get;
    /* acquire */
    bool acq_blk, acq_arm, acq_woke;
    uint64_t acq_fail_t; /* last failed try */
    uint64_t acq_blk_t;  /* first failed try of this blocking */
    uint64_t acq_addr;
    uint32_t acq_subch, acq_data;
    /* runlist 0: the channel's compute task in flight (ce_pend) and its launching method */
    bool tk_cancel;      /* reset while in flight: its fault is ignored */
    bool ew_launch;      /* its method waits for a free task table entry (not for its own task) */
    uint32_t tk_gp_get, tk_method, tk_data;
} ref_chan_t;

typedef struct ref_pbdma {
    uint32_t rl;
    bool has_ce;
    uint32_t state;      /* GC_PBDMA_STATE_* */
    uint32_t cur;
    uint64_t busy_until; /* nothing happens before this cycle */
    uint64_t wake_at;    /* PB_FETCH: the next dword arrives */
    /* scheduler */
    bool own_vld, hold;
    uint32_t own, rr_ptr, rr_rnd, g_ptr;
    uint64_t slice_t, turn_t;
    uint32_t switches;
    uint32_t sel_methods; /* the resident channel's METHODS when it was selected (forward progress) */
    /* segment being decoded */
    uint32_t ent0_get, seg_left;
    bool sync;
    uint64_t seg_addr;                /* next undecoded dword */
    uint64_t fetch_next, fetch_end;   /* next beat to request, end of the segment */
    uint64_t fetch_lat, fetch_step;   /* first-beat latency, cycles per further beat */
    uint64_t last_ar, last_beat;      /* cycle of the last burst request, of its last beat */
    uint32_t nburst;                  /* pushbuffer bursts requested and not yet decoded */
    struct ref_burst {
        uint64_t addr, t_first;       /* first beat's cycle (REF_NEVER: stall-reads) */
        uint32_t beats;
    } burst[REF_PB_BURSTS];
    /* SEM_EXECUTE in the atomic unit */
    uint32_t pend_sec_op, pend_maddr, pend_count;
    uint32_t exe_addr, exe_subch, exe_data;
    bool sem_acq, sem_is64, sem_sw;
    uint32_t sem_op;
    uint64_t sem_pay;
    /* the runlist's copy engine */
    bool ce_busy, ce_cancel;
    uint32_t ce_ch, ce_gp_get, ce_method, ce_data;
} ref_pbdma_t;

typedef struct ref_ce {
    uint32_t state;      /* GC_CE_STATE_* */
    uint32_t ch;
    uint64_t t_next;     /* COPY: data done; DONE: report */
    uint64_t src, dst, sem_addr;
    uint32_t line_len, line_count, pitch_in, pitch_out, sem_payload;
    uint32_t start;      /* low word of the cycle the command was taken (a FOUR_WORD release's word 1) */
    uint32_t const_a, const_b, components;
    bool copy, remap, sem, sem_four, intr, err;
    bool sem_reduce, sem_signed; /* the release is reduction sem_red (signed) */
    uint32_t sem_red;
    uint64_t valid_bytes; /* stream bytes before the first bus error */
    uint32_t bytes, busy_cycles;
} ref_ce_t;

/* The compute engine (ref_compute.c): the task management unit (docs/tmu.md) and the SMs. */
#define REF_TMU_NONE 15u                                   /* TMU_LOG SLOT: no slot */
#define REF_NWSLOTS (GC_SIMT_NUM_SM * GC_SIMT_WARPS)       /* warp slots, all SMs: CTAs in flight at most */

/* One task table entry. */
typedef struct ref_task {
    uint32_t state;          /* GC_TASK_STATE_* */
    uint64_t tmd;            /* TMD device address */
    uint32_t id;             /* TMD address >> 8 */
    uint32_t w[GC_TMD_SIZE / 4u]; /* the TMD, read once */
    uint32_t level, depth, max_depth, ch; /* ch: the channel of its root's launch */
    int32_t parent;          /* entry of the launching task; -1: a host launch */
    bool fault;              /* the task itself faulted */
    bool sub_fault;          /* a descendant faulted */
    bool doomed;             /* a CTA of it in flight will report a fault: dispatch no more */
    bool started, evicting, rel_done; /* rel_done: the completion release was answered */
    bool have_w, w_err;      /* device launch: the TMD as read at the LAUNCH (w_err: a bus error) */
    uint32_t slot;           /* slot held (RUNNING) or last held; REF_TMU_NONE: none yet */
    uint64_t t_fetch;        /* FETCH: the cycle its TMD read completes */
    int64_t key;             /* pending list order within its level (smaller first) */
    uint64_t slot_order;     /* when it took its slot (ties of dispatch and eviction) */
    uint64_t next_cta, ncta; /* progress: the next undispatched CTA (x fastest), CTAs of the grid
                              * (a queue TMD: of the current entry's grid) */
    bool queue;              /* TMD FLAGS.QUEUE: a queue task */
    uint64_t qaddr;          /* its queue header (structs.TASK_QUEUE) */
    uint32_t qpos, qput;     /* the position of the entry being started, PUT.COUNT last read */
    bool qclosed;            /* PUT.CLOSED was read */
    uint64_t qpoll_t;        /* the next header read may happen at this cycle */
    uint32_t inflight, children;
} ref_task_t;

/* One CTA in flight on an SM. */
typedef struct ref_cta {
    bool valid, fault;
    bool running;            /* still being interpreted (a long CTA: up to the model's horizon) */
    uint32_t ent, sm, w0, nw; /* task entry, SM, first warp slot, warp slots held */
    uint64_t t_resume;       /* running: the cycle its interpretation reached; it goes on then */
    uint64_t t_done;
    uint32_t f_cause, f_pc, f_addr, f_loc; /* fault, reported when it ends */
} ref_cta_t;

typedef struct ref_logrec {
    uint32_t event, task;
} ref_logrec_t;

typedef struct ref_cmp {
    ref_task_t ent[GC_TMU_ENTRIES];
    int32_t slot[GC_TMU_SLOTS]; /* entry holding each slot, -1 free */
    ref_cta_t cta[REF_NWSLOTS];
    uint32_t warp_busy[GC_SIMT_NUM_SM]; /* bit w: warp slot w of the SM is held */
    uint64_t issue_t[GC_SIMT_NUM_SM];   /* each SM issues one warp instruction a cycle: busy until */
    uint64_t au_t;           /* the SMs' global atomics in the atomic unit: busy until */
    uint64_t disp_t;         /* the next CTA dispatch may happen at this cycle */
    uint64_t fetch_t;        /* the TMD read port is busy until */
    uint32_t sm_rr;          /* round robin among the SMs */
    int64_t head_key, tail_key;
    uint64_t slot_ctr;
    int32_t rel_ent;         /* entry whose completion release is in the atomic unit, -1 none */
    uint32_t icache_tag[GC_SIMT_NUM_SM][GC_SIMT_ICACHE_LINES];
    bool icache_valid[GC_SIMT_NUM_SM][GC_SIMT_ICACHE_LINES];
    /* the task log */
    uint32_t log_base_lo, log_base_hi, log_ctrl, log_put, tmu_ctrl;
    ref_logrec_t *logq;      /* records not yet written, in order */
    uint32_t logq_head, logq_n, logq_cap;
    bool log_busy;           /* logq[logq_head] is in the atomic unit */
    /* registers */
    uint32_t last_task;
    uint32_t f_cause, f_pc, f_addr, f_loc, f_task, f_channel;
    uint32_t lf_word, lf_task;
    uint32_t tasks, ctas, warp_instrs, thread_instrs, active_cycles, icache_misses, lsu_beats;
    uint32_t evictions, dev_launches, launch_fails;
    void *run[REF_NWSLOTS];  /* per cta[i]: its interpretation (threads, shared and local memory) */
} ref_cmp_t;

struct ref_event;

typedef struct ref {
    uint64_t seed, max_cycles;
    uint32_t stall_pct;
    ref_inject_t inject;
    bool quiet, watchdog_fired;
    uint64_t now;
    uint64_t horizon;    /* the cycle the current run (advance) goes to: long CTAs are interpreted up to it */
    uint64_t rng;
    uint8_t **mem[2];    /* sysmem, vidmem: REF_CHUNK_BYTES chunks, NULL until written */
    ref_chan_t ch[GC_NUM_CHANNELS];
    ref_pbdma_t pb[GC_NUM_RUNLISTS];
    ref_ce_t ce[GC_NUM_CE];
    ref_cmp_t cmp;
    ref_au_req_t au[REF_NAU];
    uint64_t au_free;    /* the atomic unit serves one request at a time */
    uint32_t intr_status, intr_enable, acq_retry, cycle_hi;
    uint64_t time_ofs;   /* GLOBAL.CYCLE (the time base the device stamps) = now + time_ofs */
    uint32_t clock_gating; /* GLOBAL.CLOCK_GATING, kept for read-back (no clocks are modelled) */
    uint64_t n_reads, n_wbeats; /* read bursts issued, write beats (fault injection, dump) */
    double t_open;
    /* the event port (ref_bus.h): where ref_emit delivers, wired by backend_ref.c at open */
    void (*sink)(struct ref *r, const struct ref_event *ev);
} ref_t;

/* The time base (GLOBAL.CYCLE) at cycle `cyc`: what the device stamps.  Timers and the *_CYCLES
 * counters use the cycles themselves (a CYCLE_LO write moves only the time base). */
static inline uint64_t ref_time(const ref_t *r, uint64_t cyc) { return cyc + r->time_ofs; }

#endif
