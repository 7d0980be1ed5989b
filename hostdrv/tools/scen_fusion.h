/* scen_fusion.h: the `fusion` scenario (hostdrv/tools/scen_fusion.c, issue 17). */
#ifndef GPUCOSIM_SCEN_FUSION_H
#define GPUCOSIM_SCEN_FUSION_H

#include <stdint.h>
#include <stdio.h>

#include "gpucosim/runtime.h"

/* What one run of the scenario measured (every figure from the hardware's records: cycles from the
 * TMU log, bytes from COMPUTE.LSU_BEATS; compile and host times are wall clock). */
typedef struct gcsc_fusion_result {
    uint32_t n;                       /* elements of each array */
    uint32_t kernels_fused, kernels_unfused;
    uint64_t cycles_fused, cycles_unfused, bytes_fused, bytes_unfused;
    /* the same chain with c, d and e scalars broadcast into the maps (the seed's constantf32) */
    uint32_t kernels_scalar_fused, kernels_scalar_unfused;
    uint64_t cycles_scalar_fused, cycles_scalar_unfused, bytes_scalar_fused, bytes_scalar_unfused;
    double compile_ms_cold, compile_ms_disk, compile_ms_memory, trace_hit_host_us;
    uint64_t compiles, disk_hits, mem_hits, trace_hits, trace_misses;
    uint32_t bad;                     /* elements differing from the host (all runs) */
    bool passed;
} gcsc_fusion_result_t;

/* ((a + b) * c - d) / e over n elements (1 .. 2^24) through the array layer, fused and with fusion
 * off, a..e arrays in device memory; then the same with c, d, e scalars (3 arrays moved fused
 * against 9, where the 5-array chain moves 6 against 12): prints each kernel formed (ops with call
 * sites, inputs, outputs, grid, cycles), the cycles and bytes of each run, the program cache
 * (cold, from disk, from memory) and trace cache figures, and `metric` lines; checks every result
 * against the host bit for bit.  `timeline`
 * (may be NULL): the run's Chrome / Perfetto trace (the kernels, named gca_<ops>, on the compute
 * engine's stream track).  The program cache is a fresh temporary directory (removed at the end)
 * unless `cache_dir` is given.  Returns GCRT_SUCCESS when the scenario ran (res->passed is the
 * verdict), else the error with a one-line reason in err. */
gcrt_error_t gcsc_fusion(const gcrt_config_t *cfg, uint32_t n, const char *cache_dir, FILE *out, const char *timeline,
                         gcsc_fusion_result_t *res, char *err, size_t errlen);

#endif
