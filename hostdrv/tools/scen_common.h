/* scen_common.h: the helpers the scenario families share (scen_common.c).  Private to
 * hostdrv/tools/: the scenarios are built on the runtime's public API only. */
#ifndef GPUCOSIM_SCEN_COMMON_H
#define GPUCOSIM_SCEN_COMMON_H

#include "gpucosim/runtime.h"
#include "scenarios.h"

/* One scenario run: its runtime, report and first failure. */
typedef struct ctx {
    gcrt_t *rt;
    FILE *out; /* the scenario's report (may be NULL) */
    char *err;
    size_t errlen;
    gcrt_error_t e;
} ctx_t;

/* Record the first failure with the runtime's message; true while all is well. */
bool scn_chk(ctx_t *c, gcrt_error_t e, const char *what);
/* Run until op `seq` reached its LAUNCH_DMA. */
bool scn_wait_launched(ctx_t *c, uint32_t seq, uint64_t budget);
/* Copy the runtime's ops into res and sort them by completion. */
bool scn_harvest(ctx_t *c, gcsc_result_t *res);
/* The ops table: copies and memsets on their copy engine (CE0 / CE1), kernels on the compute
 * engine with their start and end from the TMU log (START / COMPLETE records). */
void scn_print_ops(FILE *out, const gcsc_result_t *res);
/* Open the runtime from cfg ("device: backend X" on c->out once it opened). */
bool scn_open_rt(ctx_t *c, const gcrt_config_t *cfg, gcrt_t **rt);
/* Write the timeline (if asked and all went well); true while all is well. */
bool scn_finish(ctx_t *c, const char *timeline);
/* Harvest the ops and the log into res (the log's total record count in *total). */
bool scn_log_harvest(ctx_t *c, gcsc_result_t *res, const gcrt_tmu_record_t **lg, size_t *total);

#endif
