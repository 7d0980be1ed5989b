/* scenarios.h: the runtime scenarios behind `gpucosim run` (and the tests that assert them).
 *
 * Each scenario opens its own runtime from `cfg`, runs, prints what happened to `out` (may be
 * NULL) and fills its result.  On a runtime error it returns the error with the message in
 * `err`.
 */
#ifndef GPUCOSIM_SCENARIOS_H
#define GPUCOSIM_SCENARIOS_H

#include "gpucosim/runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GCSC_MAX_OPS 64

typedef struct gcsc_result {
    size_t nops;
    gcrt_op_t ops[GCSC_MAX_OPS]; /* every copy, in issue order */
    int order[GCSC_MAX_OPS];     /* indices into ops, by completion */
    uint64_t cycles;             /* device cycles of the whole run */
    size_t bad_bytes;            /* destination bytes that differ from the expected data */
    uint32_t sem_final;          /* copy-priority: every copy-priority semaphore summed at the end */
    /* prio-latency */
    uint64_t lat_idle, lat_flood;
    /* video-pipeline */
    uint32_t frames;
    uint64_t frame_latency[16];
    /* kernels */
    uint32_t kernels;            /* kernels launched (and completed) */
    uint32_t checks, bad_checks; /* results compared with the host's computation, and how many differ */
    size_t total_ops;            /* every op of the run (ops[] keeps the first GCSC_MAX_OPS) */
} gcsc_result_t;

/* Seed 000's walk-through on the runtime: a low-priority stream (priority 0) copies Mlow1..3 and a
 * high-priority stream (the greatest priority) Mhigh1..2; Mlow1 is pushed first and the rest while
 * it copies.  With cfg->copy_priorities_enabled the completion order is Mlow1, Mhigh1, Mhigh2,
 * Mlow2, Mlow3; without (prior art), issue order.  `timeline` (may be NULL): Perfetto JSON. */
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
 * GCRT_ERROR_NOT_SUPPORTED when the backend has no compute engine. */
gcrt_error_t gcsc_kernels(const gcrt_config_t *cfg, const char *image, uint32_t rounds, FILE *out,
                          const char *timeline, gcsc_result_t *res, char *err, size_t errlen);

/* n bytes of xorshift64 data from `seed`: the test pattern of the scenarios, the CLI and the tests. */
void gcsc_fill(uint8_t *p, size_t n, uint64_t seed);

/* Chrome / Perfetto trace JSON of the runtime's copies: one track per HW channel and one per copy
 * engine, plus the compute engine when kernels ran (the compute channel is one of the
 * channel tracks); timestamps in device cycles (shown as microseconds). */
gcrt_error_t gcrt_write_timeline(gcrt_t *rt, const char *path);

#ifdef __cplusplus
}
#endif
#endif
