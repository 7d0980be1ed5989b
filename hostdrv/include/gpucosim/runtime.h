/* runtime.h: the gpucosim runtime, a CUDA-like layer over hostdrv (C11).
 *
 * It feels like the CUDA runtime API, in C and with an explicit context:
 *   gcrt_open            a device on a backend ("rtl", "sc", "ref")
 *   streams              with priorities in CUDA's convention: a lower number is a higher
 *                        priority; gcrt_stream_priority_range gives [least, greatest] = [0, -(K-1)]
 *   events               record, query, synchronize, elapsed cycles, stream-wait-event
 *   async copies         H2D, D2H, D2D, and memset, on a stream
 *   synchronize          stream and device
 *   errors               every call returns a gcrt_error_t; gcrt_get_last_error / _peek_ and
 *                        gcrt_error_string, plus a one-line message with the details
 *
 * Copy priorities (docs/sources.md: "assigning priorities to memory copies").  The runtime opens P
 * copy HW channels (config.copy_priorities, default 3, at least 3) on one copy engine's runlist,
 * with internal priorities 0 (lowest) .. P-1, and P-1 semaphores S[1..P-1] in sysmem.  A stream
 * is aliased to the copy channel of its priority: stream level l of K (0 lowest .. K-1 highest)
 * -> copy priority round(l * (P-1) / (K-1)), halves rounded up (gcrt_copy_prio_map), so the
 * lowest level gets 0, the highest P-1 and the rest spread evenly; e.g. K = 4, P = 3: levels
 * 0, 1, 2, 3 -> 0, 1, 1, 2.  Each copy or memset pushed on copy priority q is bracketed as the
 * source document describes:
 *     for every h > q:  SEM_EXECUTE ACQUIRE S[h] == 0 (ACQUIRE_SWITCH: switch away at once)
 *     if q > 0:         REDUCTION INC S[q];  the copy;  REDUCTION DEC S[q]
 *     else:             the copy
 * so lower-priority channels yield the copy engine to higher ones, overriding time slices.
 * config.copy_priorities_enabled = false is the document's "prior art": the same channels and
 * aliasing, no semaphore commands, plain time slices.
 *
 * Stream to device priority mapping (docs/sources.md: "sharing priorities between streams").  M valid device priorities (config.device_priorities,
 * default 64, 0 lowest .. M-1 highest) and a max nesting depth N (gcrt_set_limit
 * GCRT_LIMIT_MAX_NESTING_DEPTH, default 1) give floor(M/N) stream levels spaced N apart: the
 * lowest stream priority maps to device priority 0, the next to N, and so on; once the levels run
 * out, the surplus (higher) stream priorities share the last level.  A stream's kernels carry
 * its device priority (TMD PRIORITY of every gcrt_launch on the stream).
 *
 * Kernels (gcrt_launch).  Kernels go to compute HW channels on runlist 0 (the compute class
 * bound on GC_COMPUTE_SUBCH), one per device priority in use, opened on first use: streams of
 * the same priority level share a channel (their kernels run one after the other, like CUDA
 * streams of one priority on one HW queue), streams of different levels have their own, so the
 * task management unit (docs/tmu.md) runs their kernels at once, by priority, evicting a
 * lower-priority task for a higher one.  Each launch writes a TMD (PRIORITY.LEVEL = the stream's
 * device priority, DEPTH = 1, MAX_DEPTH = the max nesting depth N) and its parameter block
 * into one vidmem buffer (freed once the kernel completed), pushes a timestamped release, then
 * SEND_PCAS_A / SEND_SIGNALING_PCAS_B; the TMD's four-word completion release lands in a stamp
 * slot like a copy's, so kernels are ops (GCRT_OP_KERNEL).  Their start and end come from the
 * task management unit's log (see Timing).  A kernel
 * completes after its CTAs and all its device-launched children (docs/tmu.md), so the stream's
 * next work starts after them.  A stream stays in order across its HW channels (its copy channel
 * and its compute channel): when its next work goes to another channel than its last, the
 * runtime records an internal event on the old channel and pushes an ACQ_CIRC_GEQ acquire of it
 * on the new one.  Events and synchronize markers go on the channel of the stream's last work.
 * A kernel fault stops its compute channel (sticky, like CUDA's: later launches and synchronizes
 * return GCRT_ERROR_CHANNEL_FAULT with the compute fault record in the message; re-open the
 * runtime).  A launch whose device priority is not below COMPUTE.TMU_CONFIG.PRIO_LEVELS is
 * refused (GCRT_ERROR_INVALID_PRIORITY) before anything is pushed.
 *
 * Task management unit (issue 6).  The runtime gives the TMU a log ring (COMPUTE.LOG_*, 4096
 * records) before its first kernel launch and keeps it on: it times kernels from it.
 * gcrt_tmu_log_enable starts collecting the records for gcrt_tmu_log (optionally in a ring of
 * another size); gcrt_tmu_log returns every record collected so far, decoded (the timelines draw
 * one track per task slot from it).  gcrt_launch_failures reads the device-side LAUNCH failures (COMPUTE.LAUNCH_FAIL*,
 * INTR_STATUS.LAUNCH_FAIL).  gcrt_set_no_evict sets TMU_CTRL.NO_EVICT (the prior art: a pending
 * task waits for a free slot).  gcrt_launch_ex adds per-launch attributes (QUEUE_HEAD insertion,
 * an explicit device priority).
 *
 * Timing (gcrt_ops, timelines), in device cycles, from what the hardware recorded.  Every copy,
 * memset and kernel carries a timestamped host release just before its LAUNCH_DMA / SEND_PCAS_A
 * (launch_cycle) and a four-word (timestamped) completion release.  A copy or memset starts and
 * ends where its copy engine's completion record says: the engine writes the low word of the
 * cycle it took the command into the record's second word and the atomic unit stamps the cycle
 * the release was issued, after the copy's last data write (docs/nvidia-deviations.md row 17).
 * The start is later than launch_cycle (the engine takes the command tens of cycles after the
 * launch release, later still when it was busy with another channel's copy) and later than the
 * end of the copy the same engine ran before.  A kernel starts at its task's START record and ends at
 * its COMPLETE record in the TMU log (the compute engine runs several tasks at once: kernels of
 * different streams overlap).  An op is done once its completion release landed and, for a
 * kernel, its COMPLETE record was read; stream / device synchronize return only then.
 */
#ifndef GPUCOSIM_RUNTIME_H
#define GPUCOSIM_RUNTIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gpucosim/device.h"
#include "gpucosim/elf.h"
#include "gpucosim/props.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum gcrt_error {
    GCRT_SUCCESS = 0,
    GCRT_ERROR_INVALID_VALUE,     /* an argument is out of range or NULL */
    GCRT_ERROR_INVALID_HANDLE,    /* a stream, event or image this runtime did not create (or destroyed) */
    GCRT_ERROR_INVALID_PRIORITY,  /* a stream priority outside [greatest, least] */
    GCRT_ERROR_OUT_OF_BOUNDS,     /* a copy or memset outside the allocation it starts in */
    GCRT_ERROR_INVALID_MEMCPY_DIRECTION, /* the addresses do not match the copy kind */
    GCRT_ERROR_MEMORY_ALLOCATION, /* the device or host allocator ran out */
    GCRT_ERROR_NOT_READY,         /* gcrt_event_query / gcrt_stream_query: work still pending */
    GCRT_ERROR_NOT_PERMITTED,     /* e.g. changing the nesting depth after streams exist */
    GCRT_ERROR_CHANNEL_FAULT,     /* a HW channel stopped with an error (message has the details) */
    GCRT_ERROR_TIMEOUT,           /* a synchronize passed its cycle budget */
    GCRT_ERROR_BACKEND,           /* the device backend failed */
    GCRT_ERROR_NOT_SUPPORTED,     /* the backend has no compute engine */
    GCRT_ERROR_INVALID_KERNEL,    /* no such kernel symbol in the image */
    GCRT_ERROR_INVALID_CONFIGURATION, /* a zero grid / block dimension, too many threads or too much shared memory */
    GCRT_ERROR_COUNT
} gcrt_error_t;

/* "GCRT_ERROR_INVALID_HANDLE" etc. */
const char *gcrt_error_name(gcrt_error_t e);
/* A sentence describing the code. */
const char *gcrt_error_string(gcrt_error_t e);

typedef struct gcrt gcrt_t;
typedef struct gcrt_stream gcrt_stream_t;
typedef struct gcrt_event gcrt_event_t;

typedef struct gcrt_config {
    gc_device_config_t device;    /* backend, seed, waves, ... (gc_device_config_init) */
    uint32_t stream_priorities;   /* K user-visible stream priorities: [0, -(K-1)] (default 6) */
    uint32_t device_priorities;   /* M valid device priorities (default and at most TMU_PRIO_LEVELS, 64) */
    uint32_t max_nesting_depth;   /* N (default 1, at most TMU_MAX_DEPTH, 15); also gcrt_set_limit */
    uint32_t copy_priorities;     /* P copy HW channels / internal priorities (default 3, >= 3) */
    bool copy_priorities_enabled; /* the copy priorities' semaphore bracketing (default true) */
    uint32_t copy_runlist;        /* runlist of the copy channels: 1 (CE0, default) or 2 (CE1) */
    uint32_t copy_timeslice;      /* time slice of each copy channel in cycles (default 3000) */
    uint64_t sync_cycles;         /* budget of one synchronize in device cycles from its start: its
                                   * polls' register and memory reads count as much as its run steps,
                                   * so it gives up after the budget plus one round of polls
                                   * (default 50,000,000) */
} gcrt_config_t;

void gcrt_config_init(gcrt_config_t *cfg);
gcrt_error_t gcrt_open(const gcrt_config_t *cfg, gcrt_t **out);
/* gcrt_open, with the one-line reason of a failure in err (gcrt_open prints it to stderr). */
gcrt_error_t gcrt_open_ex(const gcrt_config_t *cfg, gcrt_t **out, char *err, size_t errlen);
void gcrt_close(gcrt_t *rt);
/* The hostdrv device under the runtime (MMIO, memory, cycles). */
gc_device_t *gcrt_device(gcrt_t *rt);

/* Last error, CUDA style: get returns it and resets it to GCRT_SUCCESS, peek only returns it.
 * gcrt_last_message is one line naming what was wrong ("" after success). */
gcrt_error_t gcrt_get_last_error(gcrt_t *rt);
gcrt_error_t gcrt_peek_last_error(const gcrt_t *rt);
const char *gcrt_last_message(const gcrt_t *rt);

/* ------------------------------------------------------------------ limits and priorities */
typedef enum gcrt_limit {
    GCRT_LIMIT_MAX_NESTING_DEPTH = 0, /* like cudaLimitDevRuntimeSyncDepth: 1..min(M, TMU_MAX_DEPTH = 15);
                                       * no streams may exist */
} gcrt_limit_t;

gcrt_error_t gcrt_set_limit(gcrt_t *rt, gcrt_limit_t limit, uint64_t value);
gcrt_error_t gcrt_get_limit(gcrt_t *rt, gcrt_limit_t limit, uint64_t *value);
/* CUDA convention: *least = 0 (lowest priority), *greatest = -(K-1) (highest). */
gcrt_error_t gcrt_stream_priority_range(gcrt_t *rt, int *least, int *greatest);

/* The stream-to-device priority mapping, as a pure function.  Stream priorities are given lowest first as the
 * integers [lo, hi] (any range; lo is the lowest priority), device priorities are 0..m-1 with 0
 * lowest, n is the max nesting depth.  Returns the device priority of stream priority `prio`, or
 * -1 when the arguments are invalid (n == 0, m < n, prio outside [lo, hi], lo > hi). */
int gcrt_prio_map(int lo, int hi, uint32_t m, uint32_t n, int prio);
/* floor(m / n): how many device priorities are available for streams (0 when n == 0). */
uint32_t gcrt_prio_stream_levels(uint32_t m, uint32_t n);
/* The copy priority (0..p-1) of stream level `level` (0 lowest .. k-1 highest; clamped) with k
 * stream priorities and p copy priorities: round(level * (p-1) / (k-1)), halves up; 0 if k <= 1. */
uint32_t gcrt_copy_prio_map(uint32_t k, uint32_t p, uint32_t level);

/* ------------------------------------------------------------------ memory */
/* Device memory (vidmem) and pinned host memory (sysmem), by device address. */
gcrt_error_t gcrt_malloc(gcrt_t *rt, uint64_t *addr, uint64_t bytes);
gcrt_error_t gcrt_malloc_host(gcrt_t *rt, uint64_t *addr, uint64_t bytes);
/* Free an allocation (addr = the start gcrt_malloc / gcrt_malloc_host returned).  Like cudaFree it
 * first waits until every copy, memset and kernel pushed so far has completed (the device runs
 * meanwhile): queued work may still read or write the range, and the allocator hands the same
 * range out again.  Errors: GCRT_ERROR_INVALID_VALUE (not the start of an allocation of this
 * runtime, or freed already); a channel fault or timeout of that work (the allocation then stays
 * allocated until gcrt_close). */
gcrt_error_t gcrt_free(gcrt_t *rt, uint64_t addr);
/* The host's view of an allocation (no device work; bounds checked). */
gcrt_error_t gcrt_write(gcrt_t *rt, uint64_t addr, const void *src, size_t bytes);
gcrt_error_t gcrt_read(gcrt_t *rt, uint64_t addr, void *dst, size_t bytes);

/* ------------------------------------------------------------------ streams */
/* NULL as a stream argument means the default stream (priority 0, the lowest). */
gcrt_error_t gcrt_stream_create(gcrt_t *rt, gcrt_stream_t **s);
gcrt_error_t gcrt_stream_create_with_priority(gcrt_t *rt, gcrt_stream_t **s, int priority);
gcrt_error_t gcrt_stream_destroy(gcrt_t *rt, gcrt_stream_t *s);
gcrt_error_t gcrt_stream_get_priority(gcrt_t *rt, gcrt_stream_t *s, int *priority);
/* The device priority the stream's kernels carry (the stream-to-device priority mapping). */
gcrt_error_t gcrt_stream_get_device_priority(gcrt_t *rt, gcrt_stream_t *s, uint32_t *device_priority);
/* The internal copy priority (0 lowest .. P-1) and HW channel the stream is aliased to. */
gcrt_error_t gcrt_stream_get_copy_channel(gcrt_t *rt, gcrt_stream_t *s, uint32_t *copy_priority,
                                          uint32_t *hw_channel);
gcrt_error_t gcrt_stream_synchronize(gcrt_t *rt, gcrt_stream_t *s);
/* GCRT_SUCCESS when everything pushed on the stream has completed, else GCRT_ERROR_NOT_READY. */
gcrt_error_t gcrt_stream_query(gcrt_t *rt, gcrt_stream_t *s);
gcrt_error_t gcrt_device_synchronize(gcrt_t *rt);

/* ------------------------------------------------------------------ copies */
typedef enum gcrt_memcpy_kind {
    GCRT_MEMCPY_HOST_TO_DEVICE = 1, /* src in pinned host memory, dst in device memory */
    GCRT_MEMCPY_DEVICE_TO_HOST = 2,
    GCRT_MEMCPY_DEVICE_TO_DEVICE = 3,
    GCRT_MEMCPY_HOST_TO_HOST = 4,
} gcrt_memcpy_kind_t;

/* Each range must lie inside one allocation made by this runtime. `tag` (may be NULL) names the
 * copy in gcrt_ops() and timelines. */
gcrt_error_t gcrt_memcpy_async(gcrt_t *rt, uint64_t dst, uint64_t src, uint64_t bytes, gcrt_memcpy_kind_t kind,
                               gcrt_stream_t *s, const char *tag);
/* Every byte of [dst, dst + bytes) set to `value` (low 8 bits), like cudaMemsetAsync. */
gcrt_error_t gcrt_memset_async(gcrt_t *rt, uint64_t dst, int value, uint64_t bytes, gcrt_stream_t *s,
                               const char *tag);

/* ------------------------------------------------------------------ events */
gcrt_error_t gcrt_event_create(gcrt_t *rt, gcrt_event_t **e);
gcrt_error_t gcrt_event_destroy(gcrt_t *rt, gcrt_event_t *e);
gcrt_error_t gcrt_event_record(gcrt_t *rt, gcrt_event_t *e, gcrt_stream_t *s);
/* GCRT_SUCCESS when the last record has completed (or none was made), else GCRT_ERROR_NOT_READY. */
gcrt_error_t gcrt_event_query(gcrt_t *rt, gcrt_event_t *e);
gcrt_error_t gcrt_event_synchronize(gcrt_t *rt, gcrt_event_t *e);
/* Device cycles between two completed records (end - start). */
gcrt_error_t gcrt_event_elapsed_cycles(gcrt_t *rt, gcrt_event_t *start, gcrt_event_t *end, uint64_t *cycles);
/* Work pushed on `s` after this call waits until `e`'s last record (made before the call) has
 * completed; done by the device (a semaphore acquire), the host does not wait. */
gcrt_error_t gcrt_stream_wait_event(gcrt_t *rt, gcrt_stream_t *s, gcrt_event_t *e);

/* The value of copy-priority semaphore S[q] (q = 1 .. P-1): 0 when no copy of priority q is
 * between its inc and its dec. */
gcrt_error_t gcrt_copy_semaphore(gcrt_t *rt, uint32_t q, uint32_t *value);

/* ------------------------------------------------------------------ kernels */
/* Read a kernel image (ELF, e.g. build/firmware/kernels.elf) and load it into the device
 * (gc_elf_read_file + gc_elf_load).  Several images may be loaded at once: one whose link range
 * is taken (they all link at the same address) is moved to a free range when it was linked with
 * --emit-relocs (firmware/README.md), else refused.  The handle is valid for this runtime until
 * gcrt_unload_image or gcrt_close (which unloads every image still loaded). */
gcrt_error_t gcrt_load_image(gcrt_t *rt, const char *path, gc_elf_t **image);
/* Waits, like gcrt_free, until every kernel pushed so far has completed (they may run the
 * image's code), then releases the image's range and the handle.  GCRT_ERROR_INVALID_HANDLE for
 * an image this runtime did not load or already unloaded (the pointer is never dereferenced). */
gcrt_error_t gcrt_unload_image(gcrt_t *rt, gc_elf_t *image);
/* The thread address a kernel uses for a device address (for pointers in kernel arguments);
 * 0 when the address is in no global window. */
uint32_t gcrt_kernel_ptr(uint64_t dev_addr);
/* Launch `kernel` (a symbol of `image`, which this runtime's gcrt_load_image loaded and which was
 * not unloaded: GCRT_ERROR_INVALID_HANDLE otherwise) on stream s: grid[3] CTAs of
 * block[3] threads, `args_bytes` bytes of `args` as its parameter block (gc_param), shared_bytes
 * of shared memory per CTA.  Errors: GCRT_ERROR_NOT_SUPPORTED (the backend has no compute
 * engine), GCRT_ERROR_INVALID_KERNEL (no such symbol), GCRT_ERROR_INVALID_CONFIGURATION (a zero
 * dimension, more than WARPS x LANES threads per CTA, a block dimension too wide for the TMD,
 * more shared memory than an SM has), GCRT_ERROR_CHANNEL_FAULT (an earlier kernel faulted).
 * Faults of this kernel surface on a later synchronize / query. */
gcrt_error_t gcrt_launch(gcrt_t *rt, gcrt_stream_t *s, const gc_elf_t *image, const char *kernel,
                         const uint32_t grid[3], const uint32_t block[3], const void *args, size_t args_bytes,
                         uint32_t shared_bytes);
/* Per-launch attributes (gcrt_launch_ex); gcrt_launch_attr_init gives the defaults. */
typedef struct gcrt_launch_attr {
    bool queue_head;         /* TMD FLAGS.QUEUE_HEAD: enter the pending list before the tasks of its
                              * priority (default false: after them) */
    int32_t device_priority; /* -1 (default): the stream's device priority; else this TMD
                              * PRIORITY.LEVEL (must be below COMPUTE.TMU_CONFIG.PRIO_LEVELS); the
                              * kernel goes to the compute channel of that priority.  The nested-priority document's
                              * prior art (parents at the lowest priority) is device_priority 0 */
    uint64_t queue;          /* 0 (default): a grid.  Else a queue TMD (FLAGS.QUEUE, docs/tmu.md) whose
                              * queue header (structs.TASK_QUEUE) is at this 8-aligned device address:
                              * every entry appended there starts the grid once (CSR QPOS = its
                              * position); the kernel completes once the queue is CLOSED and drained */
} gcrt_launch_attr_t;
void gcrt_launch_attr_init(gcrt_launch_attr_t *a);
/* gcrt_launch with attributes (attr NULL: the defaults).  Also GCRT_ERROR_INVALID_PRIORITY: the
 * device priority is outside [0, PRIO_LEVELS) (nothing is pushed). */
gcrt_error_t gcrt_launch_ex(gcrt_t *rt, gcrt_stream_t *s, const gc_elf_t *image, const char *kernel,
                            const uint32_t grid[3], const uint32_t block[3], const void *args, size_t args_bytes,
                            uint32_t shared_bytes, const gcrt_launch_attr_t *attr);
/* The compute HW channel of the default stream's priority (opening it if needed). */
gcrt_error_t gcrt_compute_channel(gcrt_t *rt, uint32_t *hw_channel);
/* The compute HW channel the stream's kernels go to (opening it if needed). */
gcrt_error_t gcrt_stream_get_compute_channel(gcrt_t *rt, gcrt_stream_t *s, uint32_t *hw_channel);

/* ------------------------------------------------------------------ task management unit */
/* COMPUTE.TMU_CONFIG (slots, entries, device priorities) of the device.  Old compute engines
 * without a TMU read 0 there: the runtime then assumes the spec's TMU_* values. */
typedef struct gcrt_tmu_config {
    uint32_t slots, entries, prio_levels;
} gcrt_tmu_config_t;
gcrt_error_t gcrt_tmu_config(gcrt_t *rt, gcrt_tmu_config_t *cfg);

/* ------------------------------------------------------------------ device queries (props.h) */
/* Like cudaGetDeviceProperties: the device's properties, read from its configuration registers
 * (GLOBAL.CONFIG, COMPUTE.CONFIG / TMU_CONFIG / CAPS); prop->fpu says whether kernels may use F
 * instructions.  GCRT_ERROR_INVALID_VALUE for NULL, GCRT_ERROR_BACKEND when a register does not
 * answer (the message names it). */
gcrt_error_t gcrt_get_device_properties(gcrt_t *rt, gc_device_props_t *prop);
/* Like vx_dump_perf: a snapshot of every MMIO performance counter (gc_counters_diff subtracts two;
 * gc_counters_print prints one).  Errors as gcrt_get_device_properties. */
gcrt_error_t gcrt_read_counters(gcrt_t *rt, gc_counters_t *counters);

/* One decoded task log record (structs.TMU_LOG). */
typedef struct gcrt_tmu_record {
    uint32_t kind;     /* GC_TMU_EVENT_* (gc_tmu_event_name) */
    uint32_t slot;     /* task slot, 15 = none (QUEUED) */
    uint32_t level;    /* device priority of the task */
    uint32_t depth;    /* nesting level (1 = host launch) */
    uint32_t channel;  /* channel whose launch the task descends from */
    uint32_t task;     /* TMD address >> 8 */
    uint64_t cycle;    /* stamp */
} gcrt_tmu_record_t;

/* Collect the TMU log's records for gcrt_tmu_log from now on, in a ring of 2^size_log2 records
 * (4..20; 0 = 4096, the ring the runtime uses by itself).  Records collected before are
 * forgotten.  When the ring is not the one in use, the runtime first waits for all its work to
 * complete (gcrt_device_synchronize) and every record to land, then allocates a zeroed ring and
 * points the TMU at it (COMPUTE.LOG_BASE_*, LOG_CTRL.ENABLE; LOG_PUT restarts at 0).  Call it
 * before launching the work to be logged.  A ring too small for the records the device writes
 * between two runtime calls loses some (*lost of gcrt_tmu_log; gcrt_op_t.timing_lost). */
gcrt_error_t gcrt_tmu_log_enable(gcrt_t *rt, uint32_t size_log2);
/* Stop collecting records for gcrt_tmu_log; those collected so far stay readable.  The TMU keeps
 * logging (LOG_CTRL stays enabled: the runtime times its kernels from the log). */
gcrt_error_t gcrt_tmu_log_disable(gcrt_t *rt);
/* Every record collected since gcrt_tmu_log_enable, in order (valid until the next runtime call).
 * Reads the ring without waiting: records of work still running come in later calls.
 * *lost (may be NULL): records the ring overwrote before they were read (0 normally). */
gcrt_error_t gcrt_tmu_log(gcrt_t *rt, const gcrt_tmu_record_t **recs, size_t *count, uint64_t *lost);
/* Run the device until the log has the COMPLETE record of every kernel the runtime launched whose
 * completion release landed, and every record the TMU issued (COMPUTE.LOG_PUT) has landed and
 * been read (records of device-launched tasks included).  Stream and device synchronize already
 * wait for the COMPLETE records of the runtime's kernels (the TMU reports completion to the
 * channel without waiting for its log write). */
gcrt_error_t gcrt_tmu_log_sync(gcrt_t *rt);
/* A name for a task (TMD address >> 8) on timelines; kernels launched by gcrt_launch are named
 * after their kernel already (gcrt_op_t.task).  The name is copied. */
gcrt_error_t gcrt_tmu_name_task(gcrt_t *rt, uint32_t task, const char *name);
/* The name of a task: a kernel launched by the runtime, a gcrt_tmu_name_task name, or NULL. */
const char *gcrt_tmu_task_name(gcrt_t *rt, uint32_t task);

/* Device-side launch failures (COMPUTE.LAUNCH_FAILS, LAUNCH_FAIL, LAUNCH_FAIL_TASK and
 * INTR_STATUS.LAUNCH_FAIL).  `clear` writes INTR_STATUS.LAUNCH_FAIL to clear it (the next failure
 * is then recorded). */
typedef struct gcrt_launch_failures {
    uint32_t count;     /* LAUNCH_FAILS: every failed LAUNCH so far (wraps) */
    uint32_t launches;  /* DEV_LAUNCHES: device LAUNCHes that returned OK */
    bool pending;       /* INTR_STATUS.LAUNCH_FAIL was set */
    uint32_t status;    /* GC_LAUNCH_STATUS_* of the first failure since the last clear */
    uint32_t depth;     /* nesting level of the launching task */
    uint32_t level;     /* device priority of the launching task */
    uint32_t task;      /* TMD address >> 8 of the launching task */
} gcrt_launch_failures_t;
gcrt_error_t gcrt_launch_failures(gcrt_t *rt, gcrt_launch_failures_t *f, bool clear);
/* "DEPTH: task 0x830100 at device priority 7, nesting level 4: The launching task is at ..." */
int gcrt_launch_failure_format(const gcrt_launch_failures_t *f, char *buf, size_t len);

/* COMPUTE.TMU_CTRL.NO_EVICT: true = never evict (a pending task waits for a free slot). */
gcrt_error_t gcrt_set_no_evict(gcrt_t *rt, bool no_evict);

/* ------------------------------------------------------------------ what happened */
typedef enum gcrt_op_kind { GCRT_OP_COPY = 0, GCRT_OP_MEMSET = 1, GCRT_OP_KERNEL = 2 } gcrt_op_kind_t;

#define GCRT_COMPUTE_ENGINE 0xC0u /* gcrt_op_t.engine of kernels (copy engines are 0, 1) */

typedef struct gcrt_op {
    uint32_t seq;            /* issue order over the whole runtime, from 0 */
    gcrt_op_kind_t kind;
    gcrt_memcpy_kind_t dir;  /* copies */
    char tag[32];
    uint32_t stream_id;      /* 0 = the default stream, then creation order */
    int stream_priority;
    uint32_t copy_priority, hw_channel, engine; /* kernels: copy_priority 0, engine GCRT_COMPUTE_ENGINE */
    uint64_t bytes;
    uint64_t submit_cycle;   /* when the host pushed it (the device cycle count at the push; after a
                              * gc_time_set, the time base read then: gc_time_host) */
    uint64_t launch_cycle;   /* stamp of the timestamped release its channel executed just before
                              * LAUNCH_DMA / SEND_PCAS_A (0 until then) */
    bool launched;
    uint64_t start_cycle;    /* copies, memsets: the cycle the copy engine took the command (its
                              * completion record's start word, ce_record[1], is the low 32 bits; the
                              * high bits are end_cycle's: a copy lasts less than 2^32 cycles).
                              * Kernels: the stamp of the task's START record in the TMU log (when
                              * it first took a task slot; set once that record was read, so also
                              * while the kernel runs).  0 until then, and if timing_lost */
    uint64_t end_cycle;      /* copies, memsets: the stamp of the copy engine's four-word completion
                              * release.  Kernels: the stamp of the task's COMPLETE record (issued
                              * right after the TMD's completion release).  0 until done */
    uint32_t ce_record[4];   /* copies, memsets: the copy engine's completion record as it landed:
                              * payload (seq + 1), start cycle low word, end stamp low, high.  0 until
                              * done, and for kernels */
    bool done;               /* completed, with its start and end known */
    uint32_t task;           /* kernels: TMD address >> 8 (the task id of TMU log records) */
    uint32_t device_priority; /* kernels: TMD PRIORITY.LEVEL */
    uint32_t evictions;      /* kernels: EVICT records of the task (it RESUMEd as often) */
    bool timing_lost;        /* kernels: the TMU log ring overwrote records before the runtime read
                              * them while this kernel ran (a ring too small for the device time
                              * between two runtime calls): its START / COMPLETE may be missing,
                              * start_cycle / end_cycle are then 0 */
} gcrt_op_t;

/* The runtime's copies, memsets and kernels so far, in issue order (valid until the next runtime call).
 * Ops that have not completed have done == false. */
gcrt_error_t gcrt_ops(gcrt_t *rt, const gcrt_op_t **ops, size_t *count);

/* Chrome / Perfetto trace JSON of the runtime's copies (hostdrv/runtime/timeline.c): one track per
 * HW channel and one per copy engine, plus the compute engine when kernels ran (the compute
 * channel is one of the channel tracks); timestamps in device cycles (shown as microseconds).
 * GCRT_ERROR_INVALID_VALUE for a NULL argument or when the file cannot be written (errno says
 * why). */
gcrt_error_t gcrt_write_timeline(gcrt_t *rt, const char *path);

#ifdef __cplusplus
}
#endif
#endif
