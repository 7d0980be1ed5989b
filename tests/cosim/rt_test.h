/* rt_test.h: what the runtime tests (test_launch.c, test_tmu.c) share. */
#ifndef GPUCOSIM_RT_TEST_H
#define GPUCOSIM_RT_TEST_H

#include "gpucosim/runtime.h"
#include "scenarios.h"
#include "copy_times.h"
#include "tcase.h"

/* A runtime call that must succeed: on failure, record it with the runtime's message and go to `out`. */
#define RT_OK(rt, expr)                                                                                 \
    do {                                                                                                \
        gcrt_error_t e_ = (expr);                                                                       \
        if (e_ != GCRT_SUCCESS) {                                                                       \
            TCASE_FAIL_("%s: %s (%s)", #expr, gcrt_error_name(e_), gcrt_last_message(rt));              \
            goto out;                                                                                   \
        }                                                                                               \
    } while (0)

/* Every kernel op of a scenario run was timed by the hardware: its start and end are the stamps
 * of its task's START and COMPLETE records in the TMU log (the k-th kernel op of a task, in issue
 * order, is the k-th START / COMPLETE of that task: a TMD buffer is reused only after its kernel
 * completed); when `timeline` is the run's trace, the kernel is on its stream's compute-engine
 * track (pid 3) from that START to that COMPLETE.  Returns how many kernels were checked. */
static inline size_t check_kernel_times(const gcsc_result_t *r, const char *timeline) {
    size_t nk = 0;
    for (size_t i = 0; i < r->nops; i++) {
        const gcrt_op_t *o = &r->ops[i];
        if (o->kind != GCRT_OP_KERNEL) continue;
        nk++;
        size_t nth = 0; /* earlier kernel ops of the same task */
        for (size_t j = 0; j < i; j++) nth += r->ops[j].kind == GCRT_OP_KERNEL && r->ops[j].task == o->task;
        long s = -1, c = -1;
        for (size_t k = 0; k <= nth; k++) {
            s = gcsc_log_find(r->log, r->nlog, (size_t)(s + 1), GC_TMU_EVENT_START, o->task);
            c = gcsc_log_find(r->log, r->nlog, (size_t)(c + 1), GC_TMU_EVENT_COMPLETE, o->task);
        }
        if (!o->done || o->timing_lost || s < 0 || c < 0) {
            TCASE_FAIL_("kernel op %zu (%s, task 0x%x): done %d, timing lost %d, START record %ld, COMPLETE record %ld", i,
                        o->tag, o->task, o->done, o->timing_lost, s, c);
            continue;
        }
        if (o->start_cycle != r->log[s].cycle || o->end_cycle != r->log[c].cycle)
            TCASE_FAIL_("kernel op %zu (%s, task 0x%x): start %llu end %llu, but the TMU log has START %llu COMPLETE %llu",
                        i, o->tag, o->task, (unsigned long long)o->start_cycle, (unsigned long long)o->end_cycle,
                        (unsigned long long)r->log[s].cycle, (unsigned long long)r->log[c].cycle);
        CHECK(o->launch_cycle < o->start_cycle && o->start_cycle < o->end_cycle);
        if (!timeline) continue;
        char want[160];
        snprintf(want, sizeof want, "{\"ph\":\"X\",\"pid\":3,\"tid\":%u,\"ts\":%llu,\"dur\":%llu,\"name\":\"%s\"",
                 o->stream_id, (unsigned long long)r->log[s].cycle, (unsigned long long)(r->log[c].cycle - r->log[s].cycle),
                 o->tag);
        if (!strstr(timeline, want)) TCASE_FAIL_("kernel op %zu: the timeline has no %s", i, want);
    }
    return nk;
}

/* The whole of a small file (a timeline) in a static buffer, NULL if it cannot be read or is too big. */
static inline const char *slurp(const char *path) {
    static char buf[1 << 20];
    FILE *f = fopen(path, "r");
    if (!f) return NULL;
    size_t len = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[len] = 0;
    return len < sizeof buf - 1 ? buf : NULL;
}

#endif
