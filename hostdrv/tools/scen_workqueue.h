/* scen_workqueue.h: the work-queue scenario of `gpucosim run work-queue` (issue 16, seed 002's
 * figure; hostdrv/tools/scen_workqueue.c) and the bench's work-queue measurements. */
#ifndef GPUCOSIM_SCEN_WORKQUEUE_H
#define GPUCOSIM_SCEN_WORKQUEUE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "gpucosim/runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gcsc_wq_result {
    uint32_t rules, bad_rules; /* rules checked, and how many failed */
    uint64_t k_start, k_end;   /* K's launch stamp and completion stamp */
    uint64_t done;             /* the last work's end: the hand-back stamp (GPU-owned queues), or the
                                * last op's end (prior art) */
    uint64_t cycles;           /* device cycles of the whole run */
    uint32_t items;            /* work items that ran (child kernels + copies) */
    uint32_t gp_put_writes;    /* MMIO GP_PUT writes to the GPU-owned channels, set-up and re-arm included */
    bool prior_art;
} gcsc_wq_result_t;

/* The work-queue document's figure on the device.  The CPU-owned channel holds: launch K, WFI,
 * release X, acquire Y (per queue).  Two GPU-owned queues (compute, runlist 0; copy, runlist 1)
 * each hold: acquire X, PBS1, acquire A, PBS2, acquire B, close.  K's four threads (wq_seed in
 * firmware/kernels/workq.c) create the work: two child kernel launches through the compute queue,
 * two copies through the copy queue; in each queue the second thread reserves after the first and
 * releases before it.  Asserted from the hardware's records (stamped releases, gate records, the
 * TMU log, copy-engine records) and memory: every item ran exactly once in entry order, no entry
 * ran before its thread released it (rtl, sc: the PBDMA's gate stamp after the thread's release
 * cycle), the queues opened only after K ended, the CPU wrote GP_PUT only at set-up (and the re-arm
 * after the hand-back).  prior_art: the same work created by the CPU after K ends (K records its
 * decision and exits; the host sees K's end, then launches the children and copies).
 * `timeline` (may be NULL): Perfetto JSON with a track per channel (the GPU-owned queues' entries
 * as the seed's figure names them) and the child tasks. */
gcrt_error_t gcsc_work_queue(const gcrt_config_t *cfg, const char *image, bool prior_art, FILE *out,
                             const char *timeline, gcsc_wq_result_t *res, char *err, size_t errlen);

/* device_work_latency_ratio's two halves (make bench): cycles from a thread deciding to create
 * work (its CYCLE read) to that work starting (a stamped release), through a GPU-owned queue that
 * is open (queue), and through a host round trip (host): the kernel ends, the host sees its
 * completion in memory, reacts for host_latency device cycles (interrupt or poll, driver work, the
 * doorbell write across the bus: counted from the kernel's end as the TMU records it), and submits
 * the same work on a CPU-owned channel.  The parts of
 * both (they add up to queue and host), from hardware records: the thread's CYCLE reads between
 * gc_wq_commit's steps, the PBDMA's release stamps, the TMU's COMPLETE record. */
typedef struct gcsc_wq_latency {
    uint64_t queue, host, host_latency;
    /* reserve (AMOADD and the queue's fields), block written, GPFIFO entries written, FENCE,
     * release store issued, gate opened (the store's B, the snoop, the acquire, the gate record's
     * stamped release), work started (the gate entry ends, GPFIFO entry and pushbuffer read,
     * decode, the work's stamped release) */
    uint32_t q_parts[7];
    /* the kernel ends (thread exit, CTA and task complete: its COMPLETE task-log record), the
     * host's reaction from there (host_latency; the synchronize's own wait when that is longer),
     * the work's stamp after the submit */
    uint64_t h_parts[3];
} gcsc_wq_latency_t;
gcrt_error_t gcsc_wq_latency(const gcrt_config_t *cfg, const char *image, uint64_t host_latency,
                             gcsc_wq_latency_t *out, char *err, size_t errlen);

/* gpu_queue_items_per_kcycle: `threads` producer threads append items (one stamped release each)
 * through one open GPU-owned compute queue of `entries` entries; items per 1000 cycles from the
 * first item's stamp to the last one's. */
gcrt_error_t gcsc_wq_throughput(const gcrt_config_t *cfg, const char *image, uint32_t threads, uint32_t entries,
                                double *items_per_kcycle, uint32_t *items, char *err, size_t errlen);

/* The default host reaction of the host round trip, in device cycles (docs/workqueue.md): 8 us at
 * a nominal 1 GHz device clock: the completion seen through an interrupt (~3 us), the driver's
 * work and the launch path (~4 us, the order of a kernel launch's host overhead), the doorbell
 * write across PCIe (~1 us). */
#define GCSC_WQ_HOST_LATENCY_DEFAULT 8000u

#ifdef __cplusplus
}
#endif
#endif
