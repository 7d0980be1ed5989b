/* scenarios.h: the runtime scenarios behind `gpucosim run` (and the tests that assert them),
 * one file per family in hostdrv/tools/ (scen_copies.c, scen_priorities.c, scen_kernels.c,
 * scen_tmu.c), built on the runtime's public API; below it they only step the device's clock and
 * read the hardware's records (registers, the compute fault record) through gcrt_device
 * (scripts/check_layers.py holds them to that).  The exception: the driver-level scenarios of
 * scen_copies.c (copy, ce-bandwidth, frontend-load, at the end of this file) exercise the driver
 * layer below the runtime on purpose.
 *
 * Each scenario opens its own runtime from `cfg`, runs, prints what happened to `out` (may be
 * NULL; its first line, `device: backend X`, once the device opened: nothing before an open
 * failure) and fills its result.  On a runtime error it returns the error with the message in
 * `err`.
 */
#ifndef GPUCOSIM_SCENARIOS_H
#define GPUCOSIM_SCENARIOS_H

#include "gpucosim/chan.h"
#include "gpucosim/runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GCSC_MAX_OPS 64
#define GCSC_MAX_LOG 256
#define GCSC_NEST_CAP 8 /* nested-priority: the chain stops at this nesting level whatever happens */
#define GCSC_MAX_LP 5
#define GCSC_ANY 0xFFFFFFFFu

typedef struct gcsc_result {
    size_t nops;
    gcrt_op_t ops[GCSC_MAX_OPS]; /* every copy, in issue order */
    int order[GCSC_MAX_OPS];     /* indices into ops, by completion */
    uint64_t cycles;             /* device cycles of the whole run */
    size_t bad_bytes;            /* destination bytes that differ from the expected data */
    uint32_t sem_final;          /* copy-priority: every copy-priority semaphore summed at the end */
    /* copy-priority: the verdict.  order_ok: the completion order is the expected one (the
     * walk-through's with copy priorities, issue order without); passed: that, no byte differs and
     * the semaphores are back to 0.  why: when the order differs, which of the walk-through's
     * assumptions did not hold in this run, from the hardware's records (empty otherwise). */
    bool order_ok, passed;
    char why[512];
    uint32_t sw_timeslice[2];    /* copy-priority: SWITCH_TIMESLICE of Clow and Chigh at the end */
    /* prio-latency */
    uint64_t lat_idle, lat_flood;
    /* video-pipeline */
    uint32_t frames;
    uint64_t frame_latency[16];
    /* kernels */
    uint32_t kernels;            /* kernels launched (and completed) */
    uint32_t checks, bad_checks; /* results compared with the host's computation, and how many differ */
    size_t total_ops;            /* every op of the run (ops[] keeps the first GCSC_MAX_OPS) */
    bool fpu;                    /* kernels: the SIMT core has the F extension (COMPUTE.CAPS.FPU) */
    bool float_skipped;          /* kernels: the float kernels did not run (no FPU) */
    double fmath_worst_ulp[5];   /* kernels: the largest error seen, in ulp: expf, logf, sqrtf, sinf, powf */
    uint64_t float_cycles;       /* float-kernels: cycles of fsaxpy + fdot + fmath (each launch to its end) */
    /* task management unit scenarios (nested-priority, eviction, childless-parent) */
    uint32_t rules, bad_rules;   /* rules the scenario checked, and how many failed */
    gcrt_tmu_record_t log[GCSC_MAX_LOG]; /* the TMU log of the run (the first GCSC_MAX_LOG records) */
    size_t nlog;
    uint64_t log_lost;
    gcrt_launch_failures_t lf;   /* the host's view of device-side launch failures at the end */
    uint32_t nest_task[GCSC_NEST_CAP + 1];   /* nested-priority: task id of nesting level L (1..) */
    uint32_t nest_marker[GCSC_NEST_CAP + 1]; /* markers[L] (GC_MARK(L) when level L ran) */
    uint32_t nest_status[GCSC_NEST_CAP + 1]; /* LAUNCH status of level L's launch (GC_LAUNCH_STATUS_NONE: none) */
    uint32_t nest_stream_prio;   /* device priority of the stream (4) */
    uint32_t nlp, lp_task[GCSC_MAX_LP], lp_level[GCSC_MAX_LP]; /* eviction: the low-priority tasks */
    uint32_t lp_ctas;            /* CTAs per low-priority task */
    uint32_t counter_ones, counter_bad; /* per-CTA counters equal to 1, and not */
    uint32_t hp_task, hp_level, hp_out_bad;
    uint64_t hp_latency;         /* high-priority kernel launch to completion, cycles */
    uint32_t evictions;          /* COMPUTE.EVICTIONS at the end */
    bool no_evict;
    uint32_t cp_task[3], cp_mark[3], cp_status; /* childless-parent: ChildlessA, ParentA, ChildA */
    uint32_t cp_stream_prio;
    bool prior_art;
} gcsc_result_t;

/* The copy-priority walk-through on the runtime: a low-priority stream (priority 0) copies Mlow1..3 and a
 * high-priority stream (the greatest priority) Mhigh1..2; Mlow1 is pushed first and the rest while
 * it copies.  With cfg->copy_priorities_enabled the expected completion order is Mlow1, Mhigh1,
 * Mhigh2, Mlow2, Mlow3; without (prior art), issue order.  Each holds only where the walk-through's
 * timing assumptions hold (docs/architecture.md, "Copy priorities and time slices"): with
 * priorities, that Chigh's "sem inc" for Mhigh1 lands while Mlow1 copies and that Chigh runs its
 * "sem dec" (after Mhigh1) and "sem inc" (before Mhigh2) back to back, i.e. its time slice covers
 * both; without, that Clow's time slice covers its three copies.  res->order_ok / passed / why
 * give the verdict (the return value is only the runtime's status).  `timeline` (may be NULL):
 * Perfetto JSON. */
gcrt_error_t gcsc_copy_priority(const gcrt_config_t *cfg, FILE *out, const char *timeline, gcsc_result_t *res,
                                char *err, size_t errlen);

/* `frames` frames through three staged copies (H2D on a low stream, D2D on a middle one, D2H on
 * the highest: the last stage has the highest priority), chained by events. */
gcrt_error_t gcsc_video_pipeline(const gcrt_config_t *cfg, uint32_t frames, FILE *out, const char *timeline,
                                 gcsc_result_t *res, char *err, size_t errlen);

/* One high-priority 16 KiB copy, alone (lat_idle) and under a flood of 16 low-priority 8 KiB copies
 * (lat_flood); latency = completion - submission, in cycles. */
gcrt_error_t gcsc_prio_latency(const gcrt_config_t *cfg, FILE *out, const char *timeline, gcsc_result_t *res,
                               char *err, size_t errlen);

/* Kernels through gcrt_launch (the kernel image `image`, e.g. build/firmware/kernels.elf), in
 * `rounds` rounds (1..1000).  Each round, on a low- and a high-priority stream: H2D copies, vecadd,
 * saxpy, reduce and histogram (modes 0 and 1 alternating) with grid / CTA shapes that rotate
 * through 1 x 8 .. 4 x 13 and a CTA of WARPS x LANES threads (read from COMPUTE_CONFIG), D2H
 * copies; every output is compared with the host's computation (res->checks, res->bad_checks).
 * When the SIMT core has the F extension (COMPUTE.CAPS.FPU; res->fpu), each round also runs the
 * float kernels fsaxpy, fdot and fmath (firmware/kernels/float.c); without it they are reported
 * skipped (res->float_skipped), never passed.  GCRT_ERROR_NOT_SUPPORTED when the backend has no
 * compute engine. */
gcrt_error_t gcsc_kernels(const gcrt_config_t *cfg, const char *image, uint32_t rounds, FILE *out,
                          const char *timeline, gcsc_result_t *res, char *err, size_t errlen);

/* The bounds of the kernels scenario's fmath check, in units in the last place of the exact value
 * (the host's double-precision libm, rounded to binary32's spacing at that value): picolibc's
 * (Debian picolibc-riscv64-unknown-elf, rv32imf / ilp32f) expf 1, logf 1, sinf 2, powf 4 (the
 * worst seen over the 1000 rounds' 96,000 inputs: 0.85, 0.77, 1.25, 2.99); sqrtf is correctly
 * rounded (0.5) and compared bit for bit with the host's.  Order: expf, logf, sqrtf, sinf, powf. */
#define GCSC_FMATH_ULP {1.0, 1.0, 0.5, 2.0, 4.0}

/* The float kernels once (fsaxpy, fdot, fmath as in a kernels round, grid 2 x a full CTA) from `image`,
 * checked like the kernels scenario; res->float_cycles: their cycles, summed.  The same source is
 * built for RV32IMAF (kernels.elf) and RV32IMA with soft float (kernels_soft.elf): `make bench`
 * compares the two (soft_vs_hw_float_speedup).  Without the FPU (COMPUTE.CAPS.FPU = 0; the device
 * decides, also for the soft image) res->float_skipped and nothing runs. */
gcrt_error_t gcsc_float_kernels(const gcrt_config_t *cfg, const char *image, FILE *out, gcsc_result_t *res, char *err,
                                size_t errlen);

/* Whether the SIMT core has the F extension: opens a runtime on cfg and reads COMPUTE.CAPS.FPU
 * (gcrt_get_device_properties); *present false on an SM built with FPU = 0 (or the ref model with
 * inject "no-fpu"). */
gcrt_error_t gcsc_fpu_present(const gcrt_config_t *cfg, bool *present, char *err, size_t errlen);

/* The nested-priority mapping on the device (issue 6): max nesting depth N = 4, a stream at stream level 1 (device
 * priority 4) launches nest_chain, which launches itself level after level: the levels run at
 * device priorities 4, 5, 6, 7 (nesting levels 1..4), the launch from level 4 fails DEPTH, nothing
 * reaches priority 8, the host sees the failure (gcrt_launch_failures).  Asserted from the TMU log
 * and the markers / statuses in memory (res->rules, res->bad_rules). */
gcrt_error_t gcsc_nested_priority(const gcrt_config_t *cfg, const char *image, FILE *out, const char *timeline,
                                  gcsc_result_t *res, char *err, size_t errlen);

/* The work-queue document's eviction: low-priority lp_grid tasks (one per task slot, device priorities 0..K-1,
 * each from its own stream) fill every slot; then a high-priority hp_short is launched: it evicts
 * the lowest-priority task (log EVICT), completes before it, and the victim resumes; every CTA
 * runs exactly once (per-CTA counters all 1).  no_evict sets TMU_CTRL.NO_EVICT (the prior art:
 * no EVICT, the high-priority kernel waits for a free slot).  res->hp_latency: its launch to
 * completion (bench hp_kernel_latency_ratio). */
gcrt_error_t gcsc_eviction(const gcrt_config_t *cfg, const char *image, bool no_evict, FILE *out, const char *timeline,
                           gcsc_result_t *res, char *err, size_t errlen);

/* The nested-priority document's ChildlessA / ParentA / ChildA: on a high-priority stream (max nesting depth 2),
 * ChildlessA and ParentA run at the stream's device priority and ChildA (launched by ParentA) at
 * one more.  prior_art launches ParentA at the lowest device priority instead (ChildA at 1), the
 * approach the document argues against. */
gcrt_error_t gcsc_childless_parent(const gcrt_config_t *cfg, const char *image, bool prior_art, FILE *out,
                                   const char *timeline, gcsc_result_t *res, char *err, size_t errlen);

/* ------------------------------------------------------------------ driver-level scenarios
 * The CLI's copy, ce-bandwidth and frontend-load (scen_copies.c): below the runtime on purpose,
 * they drive the driver's channel, mem and device layers themselves (channels, pushbuffers,
 * semaphores, copy-engine records): the front end without the runtime in between.  Each opens its
 * own device from cfg, prints what happened to stdout (its last line the summary; a failed driver
 * call: one line "gpucosim: SCENARIO: what: message" on stderr) and returns the exit status: 0
 * when every check passed, 1 otherwise. */

/* Open the device of scenario `scen`; false, with one line "gpucosim: SCEN: opening the device:
 * REASON" on stderr, on failure. */
bool gcsc_open_device(const gc_device_config_t *cfg, gc_device_t **dev, const char *scen);
/* copy: `bytes` (1 .. what the 64 MiB sysmem window holds twice: the CLI's --bytes) host buffer ->
 * vidmem -> host buffer through copy engine 0 with four-word releases and a host release. */
int gcsc_drv_copy(const gc_device_config_t *cfg, uint32_t bytes);
/* The default scenario's two copies into pb (copy subchannel 4): src -> vid, then vid -> dst, each
 * `bytes` bytes with a four-word completion record, payload 1 at sem and payload 2 at sem + 16.
 * Shared with the tests that mirror that scenario (test_gating's engine wait). */
void gcsc_pb_roundtrip_copies(gc_pushbuf_t *pb, uint64_t src, uint64_t vid, uint64_t dst, uint32_t bytes,
                              uint64_t sem);
/* ce-bandwidth: vidmem -> vidmem copies of 64 KiB and 1 MiB, the engine's efficiency from its
 * completion records. */
int gcsc_drv_ce_bandwidth(const gc_device_config_t *cfg);
/* frontend-load: 8 channels on two copy engines, each looping copies, reductions and acquires. */
int gcsc_drv_frontend_load(const gc_device_config_t *cfg);

/* Index of the first record at or after `from` of kind `kind` (GCSC_ANY: any) for task `task`
 * (GCSC_ANY: any task); -1 if none. */
long gcsc_log_find(const gcrt_tmu_record_t *log, size_t n, size_t from, uint32_t kind, uint32_t task);

/* n bytes of xorshift64 data from `seed`: the test pattern of the scenarios, the CLI and the tests. */
void gcsc_fill(uint8_t *p, size_t n, uint64_t seed);

#ifdef __cplusplus
}
#endif
#endif
