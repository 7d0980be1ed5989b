/* gc_workq_kernels.h: parameter blocks of the work-queue kernels (firmware/kernels/workq.c),
 * shared with the host (tests/cosim/test_workq.c, hostdrv/tools/scen_workqueue.c, the bench).
 * Pointers are 32-bit thread addresses. */
#ifndef GC_WORKQ_KERNELS_H
#define GC_WORKQ_KERNELS_H

#include <stdint.h>

/* One producer thread's record (wq_stress, wq_fault): what it reserved and when it released. */
typedef struct gc_wq_thread_rec {
    uint32_t status;  /* GC_WQ_* of its reservation */
    uint32_t pos;     /* first position (GC_WQ_OK) */
    uint32_t nblocks; /* N it asked for */
    uint32_t release; /* cycle (low word) just before its commit: FENCE, then the releasing AMO */
} gc_wq_thread_rec_t;

/* wq_stress: every thread (grid x block) reserves `rounds` times a random N in [1, max_n] blocks;
 * block j of a range releases, with a cycle stamp, the item record items[pos + j - base] (16 bytes:
 * payload GC_WQ_ITEM_TAG(thread, round, j)) and adds 1 to *count; between reserving and committing
 * the thread spins a random 0 .. max_delay cycles (so releases come out of order).  Thread t's
 * record of round k is recs[t * rounds + k].  Then gc_wq_done.  A thread whose reservation is
 * refused stops producing. */
typedef struct gc_wq_stress_params {
    uint32_t q, items, base, count, recs;
    uint32_t seed, max_n, max_delay, rounds;
} gc_wq_stress_params_t;
#define GC_WQ_ITEM_TAG(t, k, j) (0x40000000u | ((t) << 12) | ((k) << 4) | (j))

/* wq_fault: thread 0 commits one range of one block (item record 0), then reserves a second one
 * and faults (a load from NULL) before committing it. */

/* wq_limits (gc_wq_stress_params_t: q, items, count, recs): thread 0 records in recs[0..7] the
 * statuses of: reserving 0 and GC_WQ_MAX_BLOCKS + 1 blocks (BAD_ARG), reserving GC_WQ_MAX_BLOCKS
 * (items 0..7, tags 0x100 + j) and its commit, a block that overflows a 32-dword block (6 stamped
 * releases of item 8, payload 0xBAD) and its commit (OVERFLOW), one more item (9, tag 0x109). */

/* wq_wake: thread 0 spins `delay` cycles, writes the cycle (low word) to *cyc, then releases
 * *sem = 1: with an AMO (amoswap) when q is 0, else through the device API (gc_wq_open_from of
 * position 1 of the queue at q: a FENCE and a plain store to S[0]). */
typedef struct gc_wq_wake_params {
    uint32_t sem, cyc, delay, q;
} gc_wq_wake_params_t;

/* wq_seed: the work-queue scenario's kernel K, 4 CTAs of one thread each (4 warps, so that the
 * threads may wait for each other).  Threads 0 and 1 create work on the compute queue `cq`: each
 * reserves one block that launches the child TMD tmds + 256 t (wq_child, writing marks[t]);
 * threads 2 and 3 on the copy queue `kq`: each one copy src + 256 (t - 2) -> dst + 256 (t - 2) of
 * 256 bytes with a four-word release at crec + 16 (t - 2).  Thread 1 reserves after thread 0 (3
 * after 2) and releases before it: the releases come in the opposite order to the reservations.
 * recs[t] as gc_wq_thread_rec_t (release: the cycle it decided to release); every block starts
 * with a stamped release of items[t] (payload t + 1: the cycle its entry ran) and adds 1 to *count.
 * With cq == 0 (the prior art) each thread only writes the cycle it decided on the work to
 * recs[t].release and ends: the host creates the work after K. */
typedef struct gc_wq_seed_params {
    uint32_t cq, kq, tmds, marks, src, dst, crec, recs, items, flags, count;
} gc_wq_seed_params_t;

/* wq_child: marks[param] = GC_WQ_CHILD_MARK(ctaid) written by thread 0 of each CTA. */
typedef struct gc_wq_child_params {
    uint32_t mark, tag;
} gc_wq_child_params_t;
#define GC_WQ_CHILD_MARK(tag) (0xC0DE0000u | (tag))

/* wq_latency (bench): thread 0 creates work on q twice: each time it records the cycle it decides
 * (t0[k]), reserves one block that releases item record k (items + 16 k) with a stamp (the work
 * starting) and commits, reading CYCLE after each of gc_wq_commit's steps; round 0 warms the path
 * (instruction cache), round 1 is the one measured and writes, at t0 + GC_WQ_LATENCY_PARTS_OFF,
 * the cycles it reserved, wrote the block, wrote the GPFIFO entries, finished the FENCE and issued
 * the release, then the low word of the stamp of the gate record that opened for its work.  With
 * use_queue 0 it only records t0[0] and ends (the host round trip does the work). */
typedef struct gc_wq_latency_params {
    uint32_t q, t0, items, use_queue;
} gc_wq_latency_params_t;
#define GC_WQ_LATENCY_PARTS_OFF 64u

/* tq_worker (a queue TMD's kernel): thread 0 of each CTA of the entry at position QPOS adds 1 to
 * marks[QPOS] and writes QPOS to order[n] (n from an AMOADD on *seq); CTA 0 of the entry, while
 * QPOS < more, appends one more entry to the queue at hdr (gc_task_queue_push), and at
 * QPOS == close_at closes the queue (close_at 0xFFFFFFFF: never).  spin: cycles each CTA spins
 * first. */
typedef struct gc_tq_params {
    uint32_t hdr, marks, order, seq, more, close_at, spin;
} gc_tq_params_t;

#endif
