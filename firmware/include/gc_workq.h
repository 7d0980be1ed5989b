/* gc_workq.h: GPU-owned work queues, the device side (the work-queue document's seed 002: threads
 * write command blocks and GPFIFO entries of an ordinary GPFIFO channel whose GP_PUT they cannot
 * write).  The host side (gpucosim/workq.h) creates the queue, arms it and serves requests;
 * docs/workqueue.md describes the protocol.  This header is C for both sides: the layout of the
 * queue's control block (gc_wq_t) and the status codes are shared with the host.
 *
 * Positions.  Entries are numbered by a free-running 32-bit *position*; position p is ring entry
 * index(p) = p mod n (n entries, any n >= 4; the mod is a mask when n is a power of two, and
 * successive entries of a range step with the seed's wrap()).  The per-entry semaphore S[i]
 * (GC_WQ_SEM_STRIDE bytes apart) gates the entry after i: the entry at position p that ends a
 * range acquires S[index(p)] == p + 1, which the thread owning position p + 1 releases.
 *
 * A thread creating work (kernel side):
 *     gc_wq_res_t r;
 *     if (gc_wq_reserve(q, 2, &r) == GC_WQ_OK) {          // one AMOADD of 3 on soft GP_PUT
 *         gc_cb_t b = gc_wq_block(&r, 0);                 // command block of the range's entry 0
 *         gc_cb_launch(&b, tmd);                          // real methods of the queue's runlist
 *         gc_wq_end_block(&r, 0, &b);
 *         ... block 1 ...
 *         gc_wq_commit(&r);                               // GPFIFO entries, FENCE, release
 *     }
 *     gc_wq_done(q);                                      // the last producer closes the queue
 * A reservation reads the control block's fields once (gc_wq_view_t, loads issued back to back,
 * before its AMOADD so that both round trips overlap) and works from that copy: every read of the
 * control block is a global-memory round trip.
 * Statuses: GC_WQ_OK; GC_WQ_FULL (the request's free entries ran out: nothing of this work was
 * written, the queue is closed for the request, see below); GC_WQ_CLOSED (the queue was closed
 * before: nothing written); GC_WQ_BAD_ARG (0 or more than GC_WQ_MAX_BLOCKS blocks: nothing
 * reserved); GC_WQ_OVERFLOW (gc_wq_commit: a block ran past GC_WQ block_dwords; that entry was
 * made a NOP control entry, the rest ran).
 *
 * Full queue.  Soft GP_PUT only grows, so entries refused once stay refused until the host re-arms
 * the queue (one GP_PUT write per request).  A work range must end before shadow GP_PUT - 1, so the
 * one position at shadow GP_PUT - 1 stays free for the closing entry: the reservation that does not
 * fit (exactly one reservation starts before shadow GP_PUT and does not fit) writes the closing
 * entry at its first position instead of its work, which hands control back to the CPU-owned
 * channel.  Every later reservation finds soft GP_PUT past shadow GP_PUT (GC_WQ_FULL) or closed.
 */
#ifndef GC_WORKQ_H
#define GC_WORKQ_H

#include <stdint.h>

#include "gpucosim_spec.h"

#define GC_WQ_OK 0u
#define GC_WQ_FULL 1u
#define GC_WQ_CLOSED 2u
#define GC_WQ_BAD_ARG 3u
#define GC_WQ_OVERFLOW 4u

#define GC_WQ_MAX_BLOCKS 8u          /* command blocks per reservation (N); N + 1 entries reserved */
#define GC_WQ_CLOSED_BIT 0x80000000u /* soft_put bit 31: the queue was closed (gc_wq_close) */
#define GC_WQ_NOT_POW2 0xFFFFFFFFu   /* gc_wq_t.log2 of a ring that is not a power of two */
#define GC_WQ_SEM_STRIDE 8u          /* bytes between per-entry semaphores (one 8-byte word each) */
#define GC_WQ_GATE_BYTES 64u         /* one gate slot per entry: its gate block and its gate record */
#define GC_WQ_GATE_DWORDS 12u        /* the gate block: acquire S[i] == p + 1, stamped release of the record */
#define GC_WQ_GATE_ACQ_PAYLOAD 3u    /* dword of the gate block holding p + 1 */
#define GC_WQ_GATE_REC_PAYLOAD 9u    /* dword of the gate block holding p */
#define GC_WQ_GATE_REC 48u           /* byte offset of the gate record {p, 0, 64-bit stamp} in the slot */

/* The queue's control block (64 bytes, in device memory; the kernel gets its thread address). */
typedef struct gc_wq {
    uint32_t soft_put;     /* 0x00 next free position (AMOADD target); bit 31: closed */
    uint32_t shadow_put;   /* 0x04 GP_PUT as a position: the first position the PBDMA will not run */
    uint32_t entries;      /* 0x08 n: entries of the queue */
    uint32_t log2;         /* 0x0C log2(n) when n is a power of two, else GC_WQ_NOT_POW2 */
    uint32_t ring;         /* 0x10 thread address of the GPFIFO ring (8-byte entries) */
    uint32_t sems;         /* 0x14 thread address of S[0..n-1] */
    uint32_t blocks;       /* 0x18 thread address of the n command blocks (block of entry i: i * block_bytes) */
    uint32_t block_dwords; /* 0x1C dwords per command block */
    uint32_t x_sem;        /* 0x20 thread address of semaphore X (the CPU-owned channel opens the queue) */
    uint32_t y_sem;        /* 0x24 thread address of semaphore Y (the queue hands control back) */
    uint32_t request;      /* 0x28 r: the request served now (X == r opens it, closing releases Y = r) */
    uint32_t closed_at;    /* 0x2C position of this request's closing entry (the closer writes it) */
    uint32_t producers;    /* 0x30 producer threads of the request (gc_wq_done: the last one closes) */
    uint32_t done;         /* 0x34 producers that called gc_wq_done (AMOADD) */
    uint32_t full;         /* 0x38 reservations refused GC_WQ_FULL (AMOADD) */
    uint32_t subch_gates;  /* 0x3C 2:0 subchannel of the queue's class; 31:8 thread address of the gate
                            * slots (256-aligned): slot i (GC_WQ_GATE_BYTES) holds entry i's gate block,
                            * written by the host at set-up but for its two payload words, and its
                            * gate record */
} gc_wq_t;

#ifdef __riscv /* the rest is the kernel-side API */

/* The work-queue document's wrap() (seed 003) for x in [-n, 2n), any n; and the power-of-two form. */
static inline uint32_t gc_wq_wrap(int32_t x, uint32_t n) {
    if (x < 0) return (uint32_t)(x + (int32_t)n);
    if (x >= (int32_t)n) return (uint32_t)(x - (int32_t)n);
    return (uint32_t)x;
}
static inline uint32_t gc_wq_wrap_pow2(int32_t x, uint32_t log2n) { return (uint32_t)x & ((1u << log2n) - 1u); }

/* The fields of a gc_wq_t a reservation works with, read once (X, Y and the request only by the
 * closer), and the index mask of a power-of-two ring (n - 1; 0 for another n). */
typedef struct gc_wq_view {
    uint32_t shadow_put, entries, log2, ring, sems, blocks, block_dwords, subch_gates, mask;
} gc_wq_view_t;

/* The loads are issued back to back into locals and stored into the view only at the end: the
 * caller may issue more (an AMO) before it uses them. */
static inline void gc_wq_load(const volatile gc_wq_t *q, gc_wq_view_t *v) {
    uint32_t sp = q->shadow_put, en = q->entries, l2 = q->log2, ri = q->ring, se = q->sems, bl = q->blocks,
             bd = q->block_dwords, sg = q->subch_gates;
    *v = (gc_wq_view_t){sp, en, l2, ri, se, bl, bd, sg, l2 != GC_WQ_NOT_POW2 ? (1u << l2) - 1u : 0u};
}

/* Ring index of position p. */
static inline uint32_t gc_wq_index(const gc_wq_view_t *v, uint32_t p) {
    p &= ~GC_WQ_CLOSED_BIT;
    return v->mask ? p & v->mask : p % v->entries;
}
/* Ring index of the entry j after ring index i (j < n). */
static inline uint32_t gc_wq_step(const gc_wq_view_t *v, uint32_t i, uint32_t j) {
    return v->mask ? (i + j) & v->mask : gc_wq_wrap((int32_t)(i + j), v->entries);
}

/* ------------------------------------------------------------------ command blocks */
/* A command block being written (the pushbuffer segment one GPFIFO entry points to). */
typedef struct gc_cb {
    volatile uint32_t *w; /* the block (thread address) */
    uint32_t len, cap;    /* dwords written, room */
    uint32_t err;         /* a method did not fit: the block is dropped (GC_WQ_OVERFLOW) */
    uint32_t subch;       /* subchannel of the queue's class (compute or copy) */
} gc_cb_t;

static inline uint64_t gc_wq_dev(uint32_t thread_addr) {
    return thread_addr >= GC_SIMT_WIN_VIDMEM_BASE ? GC_SIMT_WIN_VIDMEM_DEVICE + (thread_addr - GC_SIMT_WIN_VIDMEM_BASE)
                                                  : (uint64_t)thread_addr;
}

/* INC_METHOD: data[i] to method mthd + 4 i on subch. */
static inline void gc_cb_methods(gc_cb_t *b, uint32_t subch, uint32_t mthd, const uint32_t *data, uint32_t count) {
    if (b->err || b->len + 1u + count > b->cap) {
        b->err = 1u;
        return;
    }
    b->w[b->len++] = GC_METHOD_HEADER_SEC_OP(GC_METHOD_HEADER_SEC_OP_INC_METHOD) | GC_METHOD_HEADER_COUNT(count) |
                     GC_METHOD_HEADER_SUBCHANNEL(subch) | GC_METHOD_HEADER_ADDRESS(mthd >> 2);
    for (uint32_t i = 0; i < count; i++) b->w[b->len++] = data[i];
}
static inline void gc_cb_method(gc_cb_t *b, uint32_t subch, uint32_t mthd, uint32_t data) {
    gc_cb_methods(b, subch, mthd, &data, 1u);
}
/* SEM_ADDR_LO .. SEM_EXECUTE with `execute` (GC_HOST_SEM_EXECUTE_* fields) on a semaphore given
 * by its thread address. */
static inline void gc_cb_sem(gc_cb_t *b, uint32_t sem_thread_addr, uint32_t payload, uint32_t execute) {
    uint64_t a = gc_wq_dev(sem_thread_addr);
    if (b->err || b->len + 6u > b->cap) {
        b->err = 1u;
        return;
    }
    /* the six dwords stored straight into the block (no copy through a stack array: every
     * instruction of a producer is on the device-work latency path) */
    volatile uint32_t *w = b->w + b->len;
    w[0] = GC_METHOD_HEADER_SEC_OP(GC_METHOD_HEADER_SEC_OP_INC_METHOD) | GC_METHOD_HEADER_COUNT(5u) |
           GC_METHOD_HEADER_SUBCHANNEL(0u) | GC_METHOD_HEADER_ADDRESS(GC_HOST_SEM_ADDR_LO >> 2);
    w[1] = GC_HOST_SEM_ADDR_LO_OFFSET((uint32_t)a >> 2);
    w[2] = GC_HOST_SEM_ADDR_HI_OFFSET((uint32_t)(a >> 32));
    w[3] = payload;
    w[4] = 0u;
    w[5] = execute;
    b->len += 6u;
}
/* Semaphore acquire: wait until the 32-bit word equals payload.  With `yield` (ACQUIRE_SWITCH_TSG)
 * a failed attempt switches the channel out at once, leaving the runlist to the others until a
 * write wakes it; without, it stays resident and retries (woken at once) until its time slice ends. */
static inline void gc_cb_acquire_ex(gc_cb_t *b, uint32_t sem, uint32_t payload, int yield) {
    gc_cb_sem(b, sem, payload,
              GC_HOST_SEM_EXECUTE_OPERATION(GC_HOST_SEM_EXECUTE_OPERATION_ACQUIRE) |
                  GC_HOST_SEM_EXECUTE_ACQUIRE_SWITCH_TSG(yield ? GC_HOST_SEM_EXECUTE_ACQUIRE_SWITCH_TSG_EN
                                                               : GC_HOST_SEM_EXECUTE_ACQUIRE_SWITCH_TSG_DIS));
}
static inline void gc_cb_acquire(gc_cb_t *b, uint32_t sem, uint32_t payload) { gc_cb_acquire_ex(b, sem, payload, 0); }
/* Semaphore release (32-bit); with `stamp` 16 bytes {payload, 0, 64-bit cycle stamp} (16-aligned). */
static inline void gc_cb_release(gc_cb_t *b, uint32_t sem, uint32_t payload, int stamp) {
    gc_cb_sem(b, sem, payload,
              GC_HOST_SEM_EXECUTE_OPERATION(GC_HOST_SEM_EXECUTE_OPERATION_RELEASE) |
                  GC_HOST_SEM_EXECUTE_RELEASE_TIMESTAMP(stamp ? GC_HOST_SEM_EXECUTE_RELEASE_TIMESTAMP_EN
                                                              : GC_HOST_SEM_EXECUTE_RELEASE_TIMESTAMP_DIS));
}
/* 32-bit unsigned IADD reduction (the atomic unit adds `v`). */
static inline void gc_cb_add(gc_cb_t *b, uint32_t sem, uint32_t v) {
    gc_cb_sem(b, sem, v,
              GC_HOST_SEM_EXECUTE_OPERATION(GC_HOST_SEM_EXECUTE_OPERATION_REDUCTION) |
                  GC_HOST_SEM_EXECUTE_REDUCTION(GC_HOST_SEM_EXECUTE_REDUCTION_IADD) |
                  GC_HOST_SEM_EXECUTE_REDUCTION_FORMAT(GC_HOST_SEM_EXECUTE_REDUCTION_FORMAT_UNSIGNED));
}
/* Wait-for-idle: the channel's engine work (its task, its copy) completed. */
static inline void gc_cb_wfi(gc_cb_t *b) { gc_cb_method(b, 0u, GC_HOST_WFI, GC_HOST_WFI_SCOPE(GC_HOST_WFI_SCOPE_ALL)); }
/* Compute launch (runlist 0 queues): SEND_PCAS_A + SEND_SIGNALING_PCAS_B SCHEDULE of the TMD at
 * `tmd` (thread address, 256-aligned global memory: gc_tmd_build in gc_device.h).  The entry's
 * next method waits for the task (a compute launch holds its channel). */
static inline void gc_cb_launch(gc_cb_t *b, uint32_t tmd) {
    gc_cb_method(b, b->subch, GC_COMPUTE_SEND_PCAS_A, (uint32_t)(gc_wq_dev(tmd) >> 8));
    gc_cb_method(b, b->subch, GC_COMPUTE_SEND_SIGNALING_PCAS_B,
                 GC_COMPUTE_SEND_SIGNALING_PCAS_B_SCHEDULE(GC_COMPUTE_SEND_SIGNALING_PCAS_B_SCHEDULE_TRUE));
}
/* Copy (copy-runlist queues): `bytes` from src to dst (thread addresses of global memory), with a
 * FOUR_WORD release {payload, start, 64-bit end stamp} at `sem` (16-aligned thread address). */
static inline void gc_cb_copy(gc_cb_t *b, uint32_t dst, uint32_t src, uint32_t bytes, uint32_t sem, uint32_t payload) {
    uint64_t s = gc_wq_dev(src), d = gc_wq_dev(dst), m = gc_wq_dev(sem);
    uint32_t off[4] = {GC_COPY_OFFSET_IN_UPPER_UPPER((uint32_t)(s >> 32)), (uint32_t)s,
                       GC_COPY_OFFSET_OUT_UPPER_UPPER((uint32_t)(d >> 32)), (uint32_t)d};
    gc_cb_methods(b, b->subch, GC_COPY_OFFSET_IN_UPPER, off, 4u);
    gc_cb_method(b, b->subch, GC_COPY_LINE_LENGTH_IN, bytes);
    uint32_t sm[3] = {GC_COPY_SET_SEMAPHORE_A_UPPER((uint32_t)(m >> 32)), (uint32_t)m, payload};
    gc_cb_methods(b, b->subch, GC_COPY_SET_SEMAPHORE_A, sm, 3u);
    gc_cb_method(b, b->subch, GC_COPY_LAUNCH_DMA,
                 GC_COPY_LAUNCH_DMA_DATA_TRANSFER_TYPE(GC_COPY_LAUNCH_DMA_DATA_TRANSFER_TYPE_NON_PIPELINED) |
                     GC_COPY_LAUNCH_DMA_FLUSH_ENABLE(GC_COPY_LAUNCH_DMA_FLUSH_ENABLE_TRUE) |
                     GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE(GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE_RELEASE_FOUR_WORD_SEMAPHORE) |
                     GC_COPY_LAUNCH_DMA_SRC_MEMORY_LAYOUT(GC_COPY_LAUNCH_DMA_SRC_MEMORY_LAYOUT_PITCH) |
                     GC_COPY_LAUNCH_DMA_DST_MEMORY_LAYOUT(GC_COPY_LAUNCH_DMA_DST_MEMORY_LAYOUT_PITCH));
}

/* ------------------------------------------------------------------ the protocol */
typedef struct gc_wq_res {
    gc_wq_view_t v;                 /* the queue, as read at the reservation */
    uint32_t pos;                   /* first reserved position */
    uint32_t nblocks;               /* N: the range is positions pos .. pos + N (the last one gates) */
    uint32_t base;                  /* ring index of pos */
    uint32_t len[GC_WQ_MAX_BLOCKS]; /* dwords of each block (0: dropped, a NOP entry) */
} gc_wq_res_t;

static inline void gc_wq_fence(void) { __asm__ volatile("fence rw, rw" ::: "memory"); }

static inline gc_cb_t gc_wq_cb(const gc_wq_view_t *v, uint32_t idx) {
    gc_cb_t b = {(volatile uint32_t *)(uintptr_t)(v->blocks + idx * v->block_dwords * 4u), 0u, v->block_dwords, 0u,
                 v->subch_gates & 7u};
    return b;
}
static inline volatile uint32_t *gc_wq_sem_ptr(const gc_wq_view_t *v, uint32_t idx) {
    return (volatile uint32_t *)(uintptr_t)(v->sems + idx * GC_WQ_SEM_STRIDE);
}
static inline uint32_t gc_wq_gate_slot(const gc_wq_view_t *v, uint32_t idx) {
    return (v->subch_gates & ~0xFFu) + idx * GC_WQ_GATE_BYTES;
}
/* Point ring entry idx at a segment (thread address) of len dwords (len 0: a NOP control entry). */
static inline void gc_wq_point(const gc_wq_view_t *v, uint32_t idx, uint32_t seg, uint32_t len) {
    volatile uint32_t *e = (volatile uint32_t *)(uintptr_t)(v->ring + idx * 8u);
    uint64_t blk = gc_wq_dev(seg);
    e[0] = len ? GC_GP_ENTRY0_GET((uint32_t)blk >> 2) : 0u;
    e[1] = len ? GC_GP_ENTRY1_GET_HI((uint32_t)(blk >> 32)) | GC_GP_ENTRY1_LENGTH(len) : 0u;
}
/* Point ring entry idx at its command block of len dwords. */
static inline void gc_wq_write_entry(const gc_wq_view_t *v, uint32_t idx, uint32_t len) {
    gc_wq_point(v, idx, v->blocks + idx * v->block_dwords * 4u, len);
}
/* The gate at position p (ring index idx), inside a block being written (the closing entry's):
 * acquire S[idx] == p + 1, then a timestamped release of the gate record {p} (the host sees when
 * the gate opened). */
static inline uint32_t gc_wq_gate(const gc_wq_view_t *v, gc_cb_t *b, uint32_t idx, uint32_t p) {
    gc_cb_acquire(b, v->sems + idx * GC_WQ_SEM_STRIDE, p + 1u);
    gc_cb_release(b, gc_wq_gate_slot(v, idx) + GC_WQ_GATE_REC, p, 1);
    return b->len;
}
/* The gate entry of position p (ring index idx): the same methods, in the gate block the host
 * wrote at set-up; only its two payload words are written here. */
static inline void gc_wq_gate_entry(const gc_wq_view_t *v, uint32_t idx, uint32_t p) {
    volatile uint32_t *g = (volatile uint32_t *)(uintptr_t)gc_wq_gate_slot(v, idx);
    g[GC_WQ_GATE_ACQ_PAYLOAD] = p + 1u;
    g[GC_WQ_GATE_REC_PAYLOAD] = p;
    gc_wq_point(v, idx, gc_wq_gate_slot(v, idx), GC_WQ_GATE_DWORDS);
}
/* Open the entries from position p on: release S[index(p - 1)] = p with a plain store (the PBDMA
 * blocked on it is woken by the crossbar's write snoop 2 cycles after the store's B response; an
 * AMO would cost a read round trip more), after a FENCE made the entries visible.  Each semaphore
 * has one writer per position (the thread owning position p), so no atomicity is needed. */
static inline void gc_wq_open_from(const gc_wq_view_t *v, uint32_t p) {
    gc_wq_fence();
    *gc_wq_sem_ptr(v, gc_wq_index(v, p - 1u)) = p;
}

/* Write the closing entry at position p: WFI, release Y = r, acquire X == r + 1 (the next
 * request; yielding), gate of position p; record closed_at; then open it.  The gates stay
 * resident while they wait (a producer's release is near; the crossbar's write snoop wakes them). */
static inline void gc_wq_close_at(volatile gc_wq_t *q, const gc_wq_view_t *v, uint32_t p) {
    uint32_t idx = gc_wq_index(v, p), x = q->x_sem, y = q->y_sem, r = q->request;
    gc_cb_t b = gc_wq_cb(v, idx);
    gc_cb_wfi(&b);
    gc_cb_release(&b, y, r, 0);
    gc_cb_acquire_ex(&b, x, r + 1u, 1); /* the next request is far off: leave the runlist to the others */
    gc_wq_gate(v, &b, idx, p);
    q->closed_at = p;
    gc_wq_write_entry(v, idx, b.len);
    gc_wq_open_from(v, p);
}

/* Reserve nblocks + 1 entries with one atomic add on soft GP_PUT, checked against shadow GP_PUT
 * (wrap-aware: positions are compared as differences). */
static inline uint32_t gc_wq_reserve(volatile gc_wq_t *q, uint32_t nblocks, gc_wq_res_t *r) {
    if (nblocks == 0u || nblocks > GC_WQ_MAX_BLOCKS) return GC_WQ_BAD_ARG;
    /* the view's loads first, the AMOADD right behind them: both round trips overlap (the fields
     * are the request's own: the host writes them only at set-up and at a re-arm, between
     * requests, never while a producer of the request runs) */
    uint32_t sp = q->shadow_put, en = q->entries, l2 = q->log2, ri = q->ring, se = q->sems, bl = q->blocks,
             bd = q->block_dwords, sg = q->subch_gates;
    uint32_t old = __atomic_fetch_add(&q->soft_put, nblocks + 1u, __ATOMIC_RELAXED);
    r->v = (gc_wq_view_t){sp, en, l2, ri, se, bl, bd, sg, l2 != GC_WQ_NOT_POW2 ? (1u << l2) - 1u : 0u};
    if (old & GC_WQ_CLOSED_BIT) return GC_WQ_CLOSED;
    uint32_t shadow = r->v.shadow_put;
    if ((int32_t)(shadow - 1u - (old + nblocks + 1u)) < 0) {
        __atomic_fetch_add(&q->full, 1u, __ATOMIC_RELAXED);
        if ((int32_t)(shadow - old) > 0) { /* the one reservation that crossed */
            gc_wq_view_t v = r->v; /* a copy: r itself never has its address taken, so it can live in registers */
            gc_wq_close_at(q, &v, old);
        }
        return GC_WQ_FULL;
    }
    r->pos = old;
    r->nblocks = nblocks;
    r->base = gc_wq_index(&r->v, old);
    for (uint32_t j = 0; j < nblocks; j++) r->len[j] = 0u;
    return GC_WQ_OK;
}

/* The command block of entry j (< nblocks) of a reservation. */
static inline gc_cb_t gc_wq_block(const gc_wq_res_t *r, uint32_t j) {
    return gc_wq_cb(&r->v, gc_wq_step(&r->v, r->base, j));
}
/* Record the length of block j once written (a block that overflowed becomes a NOP entry). */
static inline void gc_wq_end_block(gc_wq_res_t *r, uint32_t j, const gc_cb_t *b) {
    if (j < r->nblocks) r->len[j] = b->err ? 0u : b->len;
}

/* Write the N GPFIFO entries and the gate entry after them, FENCE, then release the semaphore of
 * the entry before the range: the PBDMA runs the range only once it is fully written.  Returns
 * GC_WQ_OVERFLOW when a block was dropped (its entry is a NOP), else GC_WQ_OK. */
/* always inlined: an out-of-line copy may share instruction-cache lines (direct mapped) with its caller */
static inline __attribute__((always_inline)) uint32_t gc_wq_commit(const gc_wq_res_t *r) {
    uint32_t st = GC_WQ_OK;
    for (uint32_t j = 0; j < r->nblocks; j++) {
        if (!r->len[j]) st = GC_WQ_OVERFLOW;
        gc_wq_write_entry(&r->v, gc_wq_step(&r->v, r->base, j), r->len[j]);
    }
    gc_wq_gate_entry(&r->v, gc_wq_step(&r->v, r->base, r->nblocks), r->pos + r->nblocks);
    gc_wq_open_from(&r->v, r->pos);
    return st;
}

/* "No more work": close the queue (one atomic OR sets the closed bit; the first closer writes the
 * closing entry at the next free position).  GC_WQ_CLOSED when it was closed already (by a
 * closer, or by the reservation that found the queue full). */
static inline uint32_t gc_wq_close(volatile gc_wq_t *q) {
    uint32_t old = __atomic_fetch_or(&q->soft_put, GC_WQ_CLOSED_BIT, __ATOMIC_RELAXED);
    if (old & GC_WQ_CLOSED_BIT) return GC_WQ_CLOSED;
    gc_wq_view_t v;
    gc_wq_load(q, &v);
    if ((int32_t)(v.shadow_put - old) <= 0) return GC_WQ_CLOSED; /* closed by the full reservation */
    gc_wq_close_at(q, &v, old);
    return GC_WQ_OK;
}

/* A producer is done; the last of gc_wq_t.producers closes the queue.  Returns gc_wq_close's
 * status for the last one, GC_WQ_OK for the others. */
static inline uint32_t gc_wq_done(volatile gc_wq_t *q) {
    uint32_t n = __atomic_fetch_add(&q->done, 1u, __ATOMIC_RELAXED) + 1u;
    return n == q->producers ? gc_wq_close(q) : GC_WQ_OK;
}

/* ------------------------------------------------------------------ queue TMDs (docs/tmu.md)
 * A queue TMD (FLAGS.QUEUE) starts its grid once per entry appended to its queue; its CTAs read the
 * entry's position with gc_qpos().  The header (structs.TASK_QUEUE) is one word: PUT.COUNT entries
 * appended, PUT.CLOSED.  A thread appends with gc_task_queue_push (one AMOADD: the position it
 * returns is the entry's; a producer that has data for the entry writes it, FENCEs, and only then
 * pushes, so with several producers the data slot must not depend on the returned position) and
 * ends the queue with gc_task_queue_close (one AMOOR). */
static inline uint32_t gc_qpos(void) {
    uint32_t v;
    __asm__ volatile(".insn i 0x73, 2, %0, x0, %1" : "=r"(v) : "i"(GC_SIMT_CSR_QPOS - 0x1000 * (GC_SIMT_CSR_QPOS >> 11)));
    return v;
}
/* Append one entry; its position (GC_TASK_QUEUE_PUT_COUNT of the value before). */
static inline uint32_t gc_task_queue_push(volatile uint32_t *hdr) {
    gc_wq_fence();
    return __atomic_fetch_add(hdr, 1u, __ATOMIC_RELAXED) & GC_TASK_QUEUE_PUT_COUNT_MASK;
}
/* Close the queue: the task completes once every entry appended before has run. */
static inline void gc_task_queue_close(volatile uint32_t *hdr) {
    gc_wq_fence();
    __atomic_fetch_or(hdr, GC_TASK_QUEUE_PUT_CLOSED(1u), __ATOMIC_RELAXED);
}

#endif /* __riscv */
#endif
