/* copy_times.h: the check that every copy and memset of a runtime scenario was timed by its copy
 * engine's own records (test_runtime.c, test_launch.c). */
#ifndef GPUCOSIM_COPY_TIMES_H
#define GPUCOSIM_COPY_TIMES_H

#include <string.h>

#include "scenarios.h"
#include "tcase.h"

/* Every copy / memset op of a scenario run: its start and end are its copy engine's completion
 * record (ce_record: payload seq + 1, the start cycle's low word, the 64-bit end stamp); the
 * engine took it after its launch release (launch_cycle < start) and after the copy it ran
 * before had ended (start > that copy's end: one copy at a time, with DONE and IDLE cycles
 * between).  When `timeline` is the run's trace, the op is on its engine's track (pid 2) from
 * start to end.  Returns how many ops were checked. */
static inline size_t check_copy_times(const gcsc_result_t *r, const char *timeline) {
    size_t nc = 0;
    for (size_t i = 0; i < r->nops; i++) {
        const gcrt_op_t *o = &r->ops[i];
        if (o->kind == GCRT_OP_KERNEL) continue;
        nc++;
        uint64_t rec_end = ((uint64_t)o->ce_record[3] << 32) | o->ce_record[2];
        if (!o->done || o->timing_lost || o->ce_record[0] != o->seq + 1) {
            TCASE_FAIL_("copy op %zu (%s): done %d, timing lost %d, record payload %u (want %u)", i, o->tag, o->done,
                        o->timing_lost, o->ce_record[0], o->seq + 1);
            continue;
        }
        if ((uint32_t)o->start_cycle != o->ce_record[1] || o->end_cycle != rec_end || o->start_cycle > o->end_cycle ||
            o->end_cycle - o->start_cycle > 0xFFFFFFFFull)
            TCASE_FAIL_("copy op %zu (%s): start %llu end %llu, but its engine's record has start word %u, end %llu", i,
                        o->tag, (unsigned long long)o->start_cycle, (unsigned long long)o->end_cycle,
                        o->ce_record[1], (unsigned long long)rec_end);
        if (!(o->launch_cycle < o->start_cycle && o->start_cycle < o->end_cycle))
            TCASE_FAIL_("copy op %zu (%s): launch %llu, start %llu, end %llu: not launch < start < end", i, o->tag,
                        (unsigned long long)o->launch_cycle, (unsigned long long)o->start_cycle,
                        (unsigned long long)o->end_cycle);
        const gcrt_op_t *prev = NULL; /* the copy the same engine ended last before this one */
        for (size_t j = 0; j < r->nops; j++) {
            const gcrt_op_t *p = &r->ops[j];
            if (j == i || p->kind == GCRT_OP_KERNEL || p->engine != o->engine || p->end_cycle >= o->end_cycle) continue;
            if (!prev || p->end_cycle > prev->end_cycle) prev = p;
        }
        if (prev && o->start_cycle <= prev->end_cycle)
            TCASE_FAIL_("copy op %zu (%s) starts at %llu, not after %s ended on CE%u at %llu", i, o->tag,
                        (unsigned long long)o->start_cycle, prev->tag, o->engine, (unsigned long long)prev->end_cycle);
        if (!timeline) continue;
        char want[160];
        snprintf(want, sizeof want, "{\"ph\":\"X\",\"pid\":2,\"tid\":%u,\"ts\":%llu,\"dur\":%llu,\"name\":\"%s\"",
                 o->engine, (unsigned long long)o->start_cycle, (unsigned long long)(rec_end - o->start_cycle),
                 o->tag);
        if (!strstr(timeline, want)) TCASE_FAIL_("copy op %zu: the timeline has no %s", i, want);
    }
    return nc;
}

#endif
