/* timeline.c: the Perfetto / Chrome trace writer of the runtime (gcrt_write_timeline in
 * gpucosim/runtime.h), built on the runtime's public API only. */
#include <stdio.h>

#include "gpucosim/runtime.h"
#include "gpucosim_spec.h"

/* ------------------------------------------------------------------ timeline */
static void json_str(FILE *f, const char *s) {
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') fputc('\\', f);
        if ((unsigned char)*s < 0x20) fprintf(f, "\\u%04x", *s);
        else fputc(*s, f);
    }
    fputc('"', f);
}

gcrt_error_t gcrt_write_timeline(gcrt_t *rt, const char *path) {
    if (!rt || !path) return GCRT_ERROR_INVALID_VALUE;
    const gcrt_op_t *ops;
    size_t n;
    gcrt_error_t e = gcrt_ops(rt, &ops, &n);
    if (e) return e;
    FILE *f = fopen(path, "w");
    if (!f) return GCRT_ERROR_INVALID_VALUE; /* errno says why */
    /* pid 1: HW channels (tid = channel), pid 2: copy engines (tid = engine), pid 3: the compute
     * engine (present once a kernel ran): one track per stream (tid = stream id), a kernel from
     * its START to its COMPLETE task log record (the engine runs the kernels of several streams
     * at once, so these overlap; a stream's own kernels run one after the other).  Timestamps are
     * device cycles; the trace says microseconds, so 1 us on screen is one cycle. */
    fprintf(f, "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"time_unit\":\"1 us = 1 device cycle\"},\"traceEvents\":[\n");
    fprintf(f, "{\"ph\":\"M\",\"pid\":1,\"name\":\"process_name\",\"args\":{\"name\":\"HW channels\"}},\n");
    fprintf(f, "{\"ph\":\"M\",\"pid\":2,\"name\":\"process_name\",\"args\":{\"name\":\"copy engines\"}},\n");
    uint32_t seen_ch = 0, seen_ce = 0, seen_ks = 0;
    bool seen_kernel = false;
    for (size_t i = 0; i < n; i++) {
        const gcrt_op_t *o = &ops[i];
        if (o->hw_channel < 32 && !(seen_ch & (1u << o->hw_channel))) {
            seen_ch |= 1u << o->hw_channel;
            if (o->kind == GCRT_OP_KERNEL)
                fprintf(f, "{\"ph\":\"M\",\"pid\":1,\"tid\":%u,\"name\":\"thread_name\",\"args\":{\"name\":\"channel %u "
                           "(compute)\"}},\n", o->hw_channel, o->hw_channel);
            else
                fprintf(f, "{\"ph\":\"M\",\"pid\":1,\"tid\":%u,\"name\":\"thread_name\",\"args\":{\"name\":\"channel %u "
                           "(copy priority %u)\"}},\n", o->hw_channel, o->hw_channel, o->copy_priority);
        }
        if (o->kind == GCRT_OP_KERNEL && !seen_kernel) {
            seen_kernel = true;
            fprintf(f, "{\"ph\":\"M\",\"pid\":3,\"name\":\"process_name\",\"args\":{\"name\":\"compute engine\"}},\n");
        }
        if (o->kind == GCRT_OP_KERNEL && o->stream_id < 32 && !(seen_ks & (1u << o->stream_id))) {
            seen_ks |= 1u << o->stream_id;
            fprintf(f, "{\"ph\":\"M\",\"pid\":3,\"tid\":%u,\"name\":\"thread_name\",\"args\":{\"name\":\"stream %u "
                       "(priority %d) kernels\"}},\n", o->stream_id, o->stream_id, o->stream_priority);
        }
        if (o->kind != GCRT_OP_KERNEL && o->engine < 32 && !(seen_ce & (1u << o->engine))) {
            seen_ce |= 1u << o->engine;
            fprintf(f, "{\"ph\":\"M\",\"pid\":2,\"tid\":%u,\"name\":\"thread_name\",\"args\":{\"name\":\"CE%u\"}},\n",
                    o->engine, o->engine);
        }
    }
    bool first = true;
    for (size_t i = 0; i < n; i++) {
        const gcrt_op_t *o = &ops[i];
        if (!o->done || o->timing_lost) continue;
        bool kernel = o->kind == GCRT_OP_KERNEL;
        for (int track = 0; track < 2; track++) {
            uint64_t t0 = track == 0 ? o->launch_cycle : o->start_cycle;
            /* kernels: the compute channel (pid 1) and their stream's compute engine track (pid 3) */
            int pid = track == 0 ? 1 : kernel ? 3 : 2;
            uint32_t tid = track == 0 ? o->hw_channel : kernel ? o->stream_id : o->engine;
            fprintf(f, "%s{\"ph\":\"X\",\"pid\":%d,\"tid\":%u,\"ts\":%llu,\"dur\":%llu,\"name\":", first ? "" : ",\n",
                    pid, tid, (unsigned long long)t0, (unsigned long long)(o->end_cycle - t0));
            first = false;
            json_str(f, o->tag);
            fprintf(f, ",\"args\":{\"bytes\":%llu,\"stream\":%u,\"stream_priority\":%d,\"submit\":%llu,"
                       "\"launch\":%llu,\"start\":%llu,\"end\":%llu,\"kind\":\"%s\"",
                    (unsigned long long)o->bytes, o->stream_id, o->stream_priority, (unsigned long long)o->submit_cycle,
                    (unsigned long long)o->launch_cycle, (unsigned long long)o->start_cycle,
                    (unsigned long long)o->end_cycle,
                    kernel ? "kernel" : o->kind == GCRT_OP_MEMSET ? "memset" : "copy");
            if (kernel)
                fprintf(f, ",\"task\":\"0x%x\",\"device_priority\":%u,\"evictions\":%u", o->task, o->device_priority,
                        o->evictions);
            fprintf(f, "}}");
        }
    }
    /* pid 4: the task slots (tid = slot), from the TMU log when the runtime enabled it: a slice
     * per stay of a task in a slot, START / RESUME to EVICT / CTAS_DONE / COMPLETE (or to the next
     * task's START / RESUME in that slot: a task without children gives its slot up before its
     * completion release, so its COMPLETE record may come after), named after the task, with its
     * device priority and nesting level; LAUNCH_FAIL and FAULT as instants */
    const gcrt_tmu_record_t *lg = NULL;
    size_t nl = 0;
    if (gcrt_tmu_log(rt, &lg, &nl, NULL) == GCRT_SUCCESS && nl) {
        enum { MAXSLOT = 16 };
        const gcrt_tmu_record_t *open[MAXSLOT] = {0};
        uint32_t seen_slot = 0;
        if (first) /* no slice yet: the slot events below start with a comma */
            fprintf(f, "{\"ph\":\"M\",\"pid\":4,\"name\":\"process_sort_index\",\"args\":{\"sort_index\":4}}");
        fprintf(f, ",\n{\"ph\":\"M\",\"pid\":4,\"name\":\"process_name\",\"args\":{\"name\":\"task slots (TMU)\"}}");
        for (size_t i = 0; i < nl; i++) {
            const gcrt_tmu_record_t *r = &lg[i];
            if (r->slot >= MAXSLOT - 1) continue; /* 15: no slot (QUEUED) */
            if (!(seen_slot & (1u << r->slot))) {
                seen_slot |= 1u << r->slot;
                fprintf(f, ",\n{\"ph\":\"M\",\"pid\":4,\"tid\":%u,\"name\":\"thread_name\",\"args\":{\"name\":\"slot %u\"}}",
                        r->slot, r->slot);
            }
            bool takes = r->kind == GC_TMU_EVENT_START || r->kind == GC_TMU_EVENT_RESUME;
            bool leaves = r->kind == GC_TMU_EVENT_EVICT || r->kind == GC_TMU_EVENT_CTAS_DONE || r->kind == GC_TMU_EVENT_COMPLETE;
            const gcrt_tmu_record_t *s0 = open[r->slot];
            if (s0 && (takes || (leaves && s0->task == r->task))) {
                const char *nm = gcrt_tmu_task_name(rt, s0->task);
                char def[48];
                if (!nm) {
                    snprintf(def, sizeof def, "task 0x%x", s0->task);
                    nm = def;
                }
                fprintf(f, ",\n{\"ph\":\"X\",\"pid\":4,\"tid\":%u,\"ts\":%llu,\"dur\":%llu,\"name\":", r->slot,
                        (unsigned long long)s0->cycle, (unsigned long long)(r->cycle - s0->cycle));
                json_str(f, nm);
                fprintf(f, ",\"args\":{\"task\":\"0x%x\",\"level\":%u,\"depth\":%u,\"channel\":%u,\"from\":\"%s\","
                           "\"to\":\"%s\"}}",
                        s0->task, s0->level, s0->depth, s0->channel, gc_tmu_event_name(s0->kind),
                        s0->task == r->task ? gc_tmu_event_name(r->kind) : "slot given up");
                open[r->slot] = NULL;
            }
            if (takes) open[r->slot] = r;
            if (r->kind == GC_TMU_EVENT_LAUNCH_FAIL || r->kind == GC_TMU_EVENT_FAULT)
                fprintf(f, ",\n{\"ph\":\"i\",\"s\":\"t\",\"pid\":4,\"tid\":%u,\"ts\":%llu,\"name\":\"%s\","
                           "\"args\":{\"task\":\"0x%x\",\"level\":%u,\"depth\":%u}}",
                        r->slot, (unsigned long long)r->cycle, gc_tmu_event_name(r->kind), r->task, r->level, r->depth);
        }
    }
    fprintf(f, "\n]}\n");
    int bad = ferror(f);
    bad |= fclose(f);
    if (bad) return GCRT_ERROR_INVALID_VALUE; /* errno says why */
    return GCRT_SUCCESS;
}
