/* scen_common.c: what every scenario family shares (scen_common.h): the first-failure record,
 * the test pattern, opening the runtime, harvesting ops and the TMU log, the ops table. */
#include <errno.h>
#include <string.h>

#include "gpucosim_spec.h"
#include "scen_common.h"

/* Record the first failure with the runtime's message; true while all is well. */
bool scn_chk(ctx_t *c, gcrt_error_t e, const char *what) {
    if (e == GCRT_SUCCESS) return true;
    if (c->e == GCRT_SUCCESS) {
        c->e = e;
        if (c->err)
            snprintf(c->err, c->errlen, "%s: %s: %s", what, gcrt_error_name(e),
                     c->rt && *gcrt_last_message(c->rt) ? gcrt_last_message(c->rt) : gcrt_error_string(e));
    }
    return false;
}

void gcsc_fill(uint8_t *p, size_t n, uint64_t seed) {
    uint64_t x = seed * 0x9E3779B97F4A7C15ull + 1;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        p[i] = (uint8_t)x;
    }
}

/* Run until op `seq` reached its LAUNCH_DMA. */
bool scn_wait_launched(ctx_t *c, uint32_t seq, uint64_t budget) {
    gc_device_t *dev = gcrt_device(c->rt);
    for (uint64_t spent = 0; spent < budget; spent += 8) {
        const gcrt_op_t *ops;
        size_t n;
        if (!scn_chk(c, gcrt_ops(c->rt, &ops, &n), "ops")) return false;
        if (seq < n && ops[seq].launched) return true;
        if (gc_device_run(dev, 8) != GC_OK) return scn_chk(c, GCRT_ERROR_BACKEND, "run");
    }
    return scn_chk(c, GCRT_ERROR_TIMEOUT, "waiting for the first copy to start");
}

/* Copy the runtime's ops into res and sort them by completion. */
bool scn_harvest(ctx_t *c, gcsc_result_t *res) {
    const gcrt_op_t *ops;
    size_t n;
    if (!scn_chk(c, gcrt_ops(c->rt, &ops, &n), "ops")) return false;
    res->nops = n < GCSC_MAX_OPS ? n : GCSC_MAX_OPS;
    memcpy(res->ops, ops, res->nops * sizeof *ops);
    for (size_t i = 0; i < res->nops; i++) res->order[i] = (int)i;
    for (size_t i = 0; i < res->nops; i++)
        for (size_t j = i + 1; j < res->nops; j++)
            if (res->ops[res->order[j]].end_cycle < res->ops[res->order[i]].end_cycle) {
                int t = res->order[i];
                res->order[i] = res->order[j];
                res->order[j] = t;
            }
    res->cycles = gc_device_cycles(gcrt_device(c->rt));
    return true;
}

/* The ops table: copies and memsets on their copy engine (CE0 / CE1), kernels on the compute
 * engine with their start and end from the TMU log (START / COMPLETE records). */
void scn_print_ops(FILE *out, const gcsc_result_t *res) {
    if (!out) return;
    fprintf(out, "%-10s %-6s %6s %5s %4s %-7s %8s %10s %10s %10s %10s\n", "op", "kind", "stream", "prio", "ch", "engine",
            "bytes", "submit", "start", "end", "cycles");
    for (size_t i = 0; i < res->nops; i++) {
        const gcrt_op_t *o = &res->ops[i];
        char eng[16];
        if (o->kind == GCRT_OP_KERNEL) snprintf(eng, sizeof eng, "compute");
        else snprintf(eng, sizeof eng, "CE%u", o->engine);
        fprintf(out, "%-10s %-6s %6u %5d %4u %-7s %8llu %10llu %10llu %10llu %10llu\n", o->tag,
                o->kind == GCRT_OP_KERNEL ? "kernel" : o->kind == GCRT_OP_MEMSET ? "memset" : "copy", o->stream_id,
                o->stream_priority, o->hw_channel, eng, (unsigned long long)o->bytes,
                (unsigned long long)o->submit_cycle, (unsigned long long)o->start_cycle,
                (unsigned long long)o->end_cycle, (unsigned long long)(o->end_cycle - o->start_cycle));
    }
    fprintf(out, "completion order:");
    for (size_t i = 0; i < res->nops; i++) fprintf(out, "%s %s", i ? "," : "", res->ops[res->order[i]].tag);
    fprintf(out, "\n");
}

bool scn_open_rt(ctx_t *c, const gcrt_config_t *cfg, gcrt_t **rt) {
    char why[400];
    gcrt_error_t e = gcrt_open_ex(cfg, rt, why, sizeof why);
    c->rt = *rt;
    if (e == GCRT_SUCCESS) {
        if (c->out) fprintf(c->out, "device: backend %s\n", cfg->device.backend); /* once it opened */
        return true;
    }
    c->e = e;
    if (c->err) snprintf(c->err, c->errlen, "opening the device: %s", why);
    return false;
}

bool scn_finish(ctx_t *c, const char *timeline) {
    if (!timeline || c->e != GCRT_SUCCESS) return c->e == GCRT_SUCCESS;
    errno = 0;
    gcrt_error_t e = gcrt_write_timeline(c->rt, timeline);
    if (e == GCRT_SUCCESS) return true;
    c->e = e;
    if (c->err)
        snprintf(c->err, c->errlen, "timeline: cannot write '%s': %s", timeline,
                 errno ? strerror(errno) : gcrt_error_string(e));
    return false;
}

/* Harvest the ops and the log into res (the log's total record count in *total). */
bool scn_log_harvest(ctx_t *c, gcsc_result_t *res, const gcrt_tmu_record_t **lg, size_t *total) {
    if (!scn_chk(c, gcrt_tmu_log_sync(c->rt), "task log") || !scn_harvest(c, res) ||
        !scn_chk(c, gcrt_tmu_log(c->rt, lg, total, &res->log_lost), "task log") ||
        !scn_chk(c, gcrt_launch_failures(c->rt, &res->lf, false), "launch failures"))
        return false;
    res->nlog = *total < GCSC_MAX_LOG ? *total : GCSC_MAX_LOG;
    memcpy(res->log, *lg, res->nlog * sizeof **lg);
    return true;
}
