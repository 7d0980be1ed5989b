/* workq.h: GPU-owned work queues (issue 16; the work-queue document, seed 002), the host side.
 *
 * Threads running on the device create work for the device without a round trip to the CPU,
 * through an ordinary GPFIFO channel whose GP_PUT they cannot write (GP_PUT is an MMIO register,
 * out of the threads' reach).  docs/workqueue.md gives the whole protocol; in short:
 *
 *   gcrt_workq_open         the CPU-owned channel (runlist 0) that serves *requests*
 *   gcrt_wq_create          a GPU-owned queue: a channel on runlist 0 (compute launches, host
 *                           semaphore methods) or 1 / 2 (copies), whose GPFIFO ring, command
 *                           blocks (one per entry), semaphores X and Y and per-entry semaphores
 *                           S[0..n-1] live in vidmem, with its control block (gc_wq_t in
 *                           firmware/include/gc_workq.h: soft GP_PUT, shadow GP_PUT, ...).  Set-up:
 *                           X = Y = 0, the entry at GP_GET (position 0) acquires X == 1 and gates
 *                           on S[0]; GP_PUT = wrap(GP_GET - 1, n) through MMIO; soft GP_PUT =
 *                           GP_GET + 1, shadow GP_PUT = GP_PUT (as positions)
 *   gcrt_workq_request      one request on the CPU-owned channel: launch K, WFI, release X = r,
 *                           acquire Y == r (per queue); K's threads create work with the kernel
 *                           API of gc_workq.h and the last producer closes each queue ("no more
 *                           work": WFI, release Y = r, acquire X == r + 1)
 *   gcrt_workq_wait         run until the request was handed back (every queue released Y and
 *                           the CPU-owned channel passed its acquires), then re-arm each queue
 *                           for the next request: soft / shadow GP_PUT from the closing entry's
 *                           position t, and one MMIO write GP_PUT = wrap(t - 1, n).  The CPU
 *                           writes GP_PUT once at set-up and once per request, never per item.
 *
 * Ring sizes: any n in [GCRT_WQ_MIN_ENTRIES, GCRT_WQ_MAX_ENTRIES].  The hardware ring is 2^k >= n
 * entries (GPFIFO_SIZE.LOG2); when n is not a power of two, entries n .. 2^k - 1 stay NOP control
 * entries (zero) that the PBDMA steps over, and positions map to entries with wrap() for n.
 *
 * Errors are gcrt_error_t codes with a one-line message in gcrt_workq_message: bad arguments
 * (GCRT_ERROR_INVALID_VALUE), a request while the previous one was not waited for
 * (GCRT_ERROR_NOT_PERMITTED), a faulted channel (GCRT_ERROR_CHANNEL_FAULT: K faulted, or a queue's
 * channel), no hand-back within the budget (GCRT_ERROR_TIMEOUT).  A fault or timeout message
 * names, for every queue that is stuck, the entry it is blocked on and the semaphore it waits for
 * (gcrt_wq_diagnose): a thread that reserved entries and never released them is reported, not a
 * silent hang.
 */
#ifndef GPUCOSIM_WORKQ_H
#define GPUCOSIM_WORKQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gpucosim/runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GCRT_WQ_MIN_ENTRIES 4u
#define GCRT_WQ_MAX_ENTRIES 32768u /* 2^GPFIFO_LOG2_MAX */
#define GCRT_WQ_MAX_QUEUES 8u      /* queues of one gcrt_workq_t (GPU-owned channels) */
/* Command block sizes: the closing entry (WFI, release Y, acquire X, the gate: 26 dwords) and the
 * arming entry (SET_OBJECT, acquire X, the gate: 20) must fit one block, and none may cross 4 KiB. */
#define GCRT_WQ_MAX_ARGS 7680u     /* bytes of K's parameter block (gcrt_wq_request_t.args_bytes) */
#define GCRT_WQ_MIN_BLOCK_DWORDS 32u
#define GCRT_WQ_MAX_BLOCK_DWORDS 1024u

typedef struct gcrt_workq gcrt_workq_t;
typedef struct gcrt_wq gcrt_wq_t;

typedef struct gcrt_wq_config {
    uint32_t entries;      /* n (default 64) */
    uint32_t runlist;      /* 0 compute (default), 1 copy engine 0, 2 copy engine 1 */
    uint32_t block_dwords; /* dwords per command block: a power of two in [GCRT_WQ_MIN_BLOCK_DWORDS,
                            * GCRT_WQ_MAX_BLOCK_DWORDS] (default 64) */
    const char *name;      /* for messages and timelines (default "wq<channel>"); copied */
} gcrt_wq_config_t;

void gcrt_wq_config_init(gcrt_wq_config_t *cfg);

/* The CPU-owned side: one channel on runlist 0 of the runtime's device. */
gcrt_error_t gcrt_workq_open(gcrt_t *rt, gcrt_workq_t **out);
/* Closes every queue too (their channels are reset). */
void gcrt_workq_close(gcrt_workq_t *w);
/* The one-line message of the last failure ("" after success). */
const char *gcrt_workq_message(const gcrt_workq_t *w);
uint32_t gcrt_workq_channel(const gcrt_workq_t *w);

/* Create and arm a GPU-owned queue (set-up above).  At most GCRT_WQ_MAX_QUEUES per workq. */
gcrt_error_t gcrt_wq_create(gcrt_workq_t *w, const gcrt_wq_config_t *cfg, gcrt_wq_t **out);
/* Thread address of the queue's control block (a kernel's `volatile gc_wq_t *`). */
uint32_t gcrt_wq_ptr(const gcrt_wq_t *q);
uint32_t gcrt_wq_channel(const gcrt_wq_t *q);
const char *gcrt_wq_name(const gcrt_wq_t *q);

typedef struct gcrt_wq_request {
    const gc_elf_t *image;    /* K: a kernel of an image the runtime loaded */
    const char *kernel;
    uint32_t grid[3], block[3];
    const void *args;         /* K's parameter block (copied) */
    size_t args_bytes;        /* <= GCRT_WQ_MAX_ARGS */
    uint32_t producers[GCRT_WQ_MAX_QUEUES]; /* gc_wq_t.producers of each queue; 0 = every thread of K */
    bool open_early;          /* release X before launching K, so the queues run while K produces
                               * (default false: the document's order, K, WFI, release X) */
} gcrt_wq_request_t;

/* Defaults (grid and block 1 x 1 x 1, producers 0, the document's order) for kernel `kernel` of
 * `image` with `args_bytes` bytes of `args` (both may be 0 / NULL). */
void gcrt_wq_request_init(gcrt_wq_request_t *r, const gc_elf_t *image, const char *kernel, const void *args,
                          size_t args_bytes);
/* Push request r (1, 2, ...) for the queues qs[0..nq-1] on the CPU-owned channel and ring its
 * doorbell.  GCRT_ERROR_NOT_PERMITTED while a request was not waited for. */
gcrt_error_t gcrt_workq_request(gcrt_workq_t *w, gcrt_wq_t *const *qs, size_t nq, const gcrt_wq_request_t *req);
/* Run until the request was handed back, then re-arm its queues.  budget: device cycles (0: the
 * device's wait_cycles).  On GCRT_ERROR_CHANNEL_FAULT / GCRT_ERROR_TIMEOUT the message names the
 * blocked entries and semaphores; the queues are not re-armed (close the workq). */
gcrt_error_t gcrt_workq_wait(gcrt_workq_t *w, uint64_t budget);

/* A TMD for kernel `kernel` of `image` (grid x block, parameter block at the device address
 * `param`) written at `tmd_addr` (256-aligned): for device-side launches through a queue. */
gcrt_error_t gcrt_workq_write_tmd(gcrt_workq_t *w, const gc_elf_t *image, const char *kernel, const uint32_t grid[3],
                                  const uint32_t block[3], uint64_t param, uint64_t tmd_addr);
/* Push a timestamped release of `payload` at `addr` (16-aligned) on the CPU-owned channel and ring
 * its doorbell: the host's own work (the bench's host round trip). */
gcrt_error_t gcrt_workq_host_release(gcrt_workq_t *w, uint64_t addr, uint32_t payload);

/* What the hardware and memory say about a queue. */
typedef struct gcrt_wq_info {
    uint32_t entries, hw_entries, channel, runlist;
    uint32_t request;      /* the request the queue serves next (armed) or serves now */
    uint32_t soft_put, shadow_put, closed_at, full, done, producers; /* control block */
    uint32_t gp_get, gp_put; /* CHANNEL registers */
    uint32_t gp_put_writes;  /* MMIO GP_PUT writes the driver made (set-up + one per re-arm) */
    uint32_t x, y;           /* semaphores X and Y */
    uint64_t k_start, k_end; /* the last request: K's TMD release stamps (0 unknown) */
    uint64_t handback;       /* the last request: stamp of the CPU-owned channel passing acquire Y */
} gcrt_wq_info_t;
gcrt_error_t gcrt_wq_info(gcrt_wq_t *q, gcrt_wq_info_t *info);

/* One gate record (firmware/include/gc_workq.h): the stamped release the gate entry of position
 * `pos` makes after its acquire passed (ring index idx, cycle). */
gcrt_error_t gcrt_wq_gate(gcrt_wq_t *q, uint32_t pos, uint32_t *payload, uint64_t *cycle);
/* Device address of per-entry semaphore S[idx], of X and Y, of ring entry idx. */
uint64_t gcrt_wq_sem_addr(const gcrt_wq_t *q, uint32_t idx);
/* If the queue's channel is blocked on an acquire or stopped: one line naming the entry, its
 * position, the semaphore (S[i], X or Y, address), what it holds and what it waits for.  Returns
 * the snprintf length, 0 (buf "") when the queue is not stuck. */
int gcrt_wq_diagnose(gcrt_wq_t *q, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
