/* scenarios.c: runtime scenarios (copy-priority, video-pipeline, prio-latency, kernels) and the Perfetto
 * timeline writer.  See gpucosim/scenarios.h. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "gc_kernels.h"
#include "gpucosim/compute.h"
#include "gpucosim/scenarios.h"
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

/* ------------------------------------------------------------------ helpers */
typedef struct ctx {
    gcrt_t *rt;
    FILE *out; /* the scenario's report (may be NULL) */
    char *err;
    size_t errlen;
    gcrt_error_t e;
} ctx_t;

/* Record the first failure with the runtime's message; true while all is well. */
static bool chk(ctx_t *c, gcrt_error_t e, const char *what) {
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
static bool wait_launched(ctx_t *c, uint32_t seq, uint64_t budget) {
    gc_device_t *dev = gcrt_device(c->rt);
    for (uint64_t spent = 0; spent < budget; spent += 8) {
        const gcrt_op_t *ops;
        size_t n;
        if (!chk(c, gcrt_ops(c->rt, &ops, &n), "ops")) return false;
        if (seq < n && ops[seq].launched) return true;
        if (gc_device_run(dev, 8) != GC_OK) return chk(c, GCRT_ERROR_BACKEND, "run");
    }
    return chk(c, GCRT_ERROR_TIMEOUT, "waiting for the first copy to start");
}

/* Copy the runtime's ops into res and sort them by completion. */
static bool harvest(ctx_t *c, gcsc_result_t *res) {
    const gcrt_op_t *ops;
    size_t n;
    if (!chk(c, gcrt_ops(c->rt, &ops, &n), "ops")) return false;
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
static void print_ops(FILE *out, const gcsc_result_t *res) {
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

static bool open_rt(ctx_t *c, const gcrt_config_t *cfg, gcrt_t **rt) {
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

static bool finish(ctx_t *c, const char *timeline) {
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
static bool log_harvest(ctx_t *c, gcsc_result_t *res, const gcrt_tmu_record_t **lg, size_t *total) {
    if (!chk(c, gcrt_tmu_log_sync(c->rt), "task log") || !harvest(c, res) ||
        !chk(c, gcrt_tmu_log(c->rt, lg, total, &res->log_lost), "task log") ||
        !chk(c, gcrt_launch_failures(c->rt, &res->lf, false), "launch failures"))
        return false;
    res->nlog = *total < GCSC_MAX_LOG ? *total : GCSC_MAX_LOG;
    memcpy(res->log, *lg, res->nlog * sizeof **lg);
    return true;
}

/* ------------------------------------------------------------------ copy-priority walk-through */
enum { MLOW1, MLOW2, MLOW3, MHIGH1, MHIGH2, NCOPY };
static const char *const cp_names[NCOPY] = {"Mlow1", "Mlow2", "Mlow3", "Mhigh1", "Mhigh2"};
/* the expected completion order: [0] without copy priorities (issue order), [1] with (the walk-through) */
static const int cp_expected[2][NCOPY] = {{MLOW1, MLOW2, MLOW3, MHIGH1, MHIGH2}, {MLOW1, MHIGH1, MHIGH2, MLOW2, MLOW3}};

/* The copy-priority verdict from the hardware's records: each copy's launch stamp (its channel
 * reached the copy: for Chigh after its "sem inc", for Clow after its acquire passed) and its
 * completion release, and the channels' SWITCH_TIMESLICE counters.  Fills order_ok and, when the
 * order differs, why: which of the walk-through's assumptions did not hold. */
static void copy_priority_verdict(const gcrt_config_t *cfg, gcsc_result_t *res) {
    const int *want = cp_expected[cfg->copy_priorities_enabled];
    const gcrt_op_t *o = res->ops;
    res->order_ok = res->nops == NCOPY;
    for (int i = 0; res->order_ok && i < NCOPY; i++) res->order_ok = res->order[i] == want[i];
    res->why[0] = 0;
    if (res->order_ok || res->nops != NCOPY) {
        if (res->nops != NCOPY) snprintf(res->why, sizeof res->why, "%zu copies completed, not %d", res->nops, NCOPY);
        return;
    }
#define AT(k) (unsigned long long)o[k].launch_cycle
#define END(k) (unsigned long long)o[k].end_cycle
    if (o[MLOW2].end_cycle < o[MLOW1].end_cycle || o[MLOW3].end_cycle < o[MLOW2].end_cycle ||
        o[MHIGH2].end_cycle < o[MHIGH1].end_cycle) {
        snprintf(res->why, sizeof res->why, "a channel's copies did not complete in issue order (a bug)");
    } else if (!cfg->copy_priorities_enabled) {
        snprintf(res->why, sizeof res->why,
                 "Clow's time slice (%u cycle%s) expired before its three copies were done (Mlow1 ended at cycle "
                 "%llu, Mlow3 was reached at cycle %llu; Clow time-slice switches: %u), so round robin gave Chigh "
                 "the engine: issue order across the channels needs a slice that covers Clow's three copies",
                 cfg->copy_timeslice, cfg->copy_timeslice == 1 ? "" : "s", END(MLOW1), AT(MLOW3), res->sw_timeslice[0]);
    } else if (o[MLOW2].launch_cycle < o[MHIGH1].launch_cycle) {
        snprintf(res->why, sizeof res->why,
                 "Clow's \"sem acq Shigh 0\" before Mlow2 passed (Mlow2 reached at cycle %llu) before Chigh's "
                 "\"sem inc Shigh\" for Mhigh1 landed (Mhigh1 reached at cycle %llu); the walk-through assumes that "
                 "increment lands while Mlow1 copies (Mlow1 ended at cycle %llu)",
                 AT(MLOW2), AT(MHIGH1), END(MLOW1));
    } else if (o[MLOW2].launch_cycle < o[MHIGH2].launch_cycle) {
        snprintf(res->why, sizeof res->why,
                 "Clow's \"sem acq Shigh 0\" before Mlow2 passed (Mlow2 reached at cycle %llu) between Chigh's "
                 "\"sem dec Shigh\" after Mhigh1 (ended at cycle %llu) and its \"sem inc Shigh\" before Mhigh2 "
                 "(reached at cycle %llu): Chigh's time slice (%u cycle%s) expired between the two (Chigh "
                 "time-slice switches: %u); the walk-through assumes Chigh runs them back to back, which needs a "
                 "slice that covers both",
                 AT(MLOW2), END(MHIGH1), AT(MHIGH2), cfg->copy_timeslice, cfg->copy_timeslice == 1 ? "" : "s",
                 res->sw_timeslice[1]);
    } else {
        snprintf(res->why, sizeof res->why, "the completion order differs for a reason this check does not know");
    }
#undef AT
#undef END
}

gcrt_error_t gcsc_copy_priority(const gcrt_config_t *cfg, FILE *out, const char *timeline, gcsc_result_t *res,
                                char *err, size_t errlen) {
    enum { N = NCOPY };
    const char *const *names = cp_names;
    /* Chigh's slice (3000 cycles) expires during Mhigh1 (40 KiB); Mhigh2 (2 KiB) fits in the
     * next; Mlow copies (6 KiB) are long enough for Chigh's "sem inc" to land during Mlow1. */
    static const uint32_t sizes[N] = {6144, 6144, 6144, 40960, 2048};
    const uint32_t stride = 65536;
    memset(res, 0, sizeof *res);
    ctx_t c = {.out = out, .err = err, .errlen = errlen};
    gcrt_t *rt = NULL;
    gcrt_stream_t *lo = NULL, *hi = NULL;
    uint64_t src = 0, dst = 0;
    int least, greatest;
    static uint8_t data[65536 * N], got[65536];
    if (open_rt(&c, cfg, &rt) && chk(&c, gcrt_stream_priority_range(rt, &least, &greatest), "priority range") &&
        chk(&c, gcrt_stream_create_with_priority(rt, &lo, least), "low stream") &&
        chk(&c, gcrt_stream_create_with_priority(rt, &hi, greatest), "high stream") &&
        chk(&c, gcrt_malloc(rt, &src, (uint64_t)stride * N), "malloc") &&
        chk(&c, gcrt_malloc(rt, &dst, (uint64_t)stride * N), "malloc")) {
        gcsc_fill(data, sizeof data, 2024);
        chk(&c, gcrt_write(rt, src, data, sizeof data), "write source");
        if (out)
            fprintf(out, "copy-priority walk-through: copy priorities %s, Clow = stream priority %d, Chigh = %d, "
                         "one copy engine, time slice %u cycles\n",
                    cfg->copy_priorities_enabled ? "on" : "off (prior art)", least, greatest, cfg->copy_timeslice);
        for (int k = 0; k < N && c.e == GCRT_SUCCESS; k++) {
            gcrt_stream_t *s = k < MHIGH1 ? lo : hi;
            chk(&c, gcrt_memcpy_async(rt, dst + (uint64_t)stride * k, src + (uint64_t)stride * k, sizes[k],
                                      GCRT_MEMCPY_DEVICE_TO_DEVICE, s, names[k]), names[k]);
            if (k == MLOW1) wait_launched(&c, 0, 200000); /* the other requests come while Mlow1 copies */
        }
        if (chk(&c, gcrt_device_synchronize(rt), "synchronize") && harvest(&c, res)) {
            for (int k = 0; k < N; k++) {
                if (!chk(&c, gcrt_read(rt, dst + (uint64_t)stride * k, got, sizes[k]), "read")) break;
                for (uint32_t i = 0; i < sizes[k]; i++) res->bad_bytes += got[i] != data[stride * k + i];
            }
            for (uint32_t q = 1; q < cfg->copy_priorities; q++) {
                uint32_t v = 0;
                if (chk(&c, gcrt_copy_semaphore(rt, q, &v), "semaphore")) res->sem_final += v;
            }
            gc_device_t *dev = gcrt_device(rt);
            for (int k = 0; k < 2; k++)
                if (c.e == GCRT_SUCCESS && gc_mmio_read(dev, GC_REG_CHANNEL_SWITCH_TIMESLICE(res->ops[k ? MHIGH1 : MLOW1].hw_channel),
                                                        &res->sw_timeslice[k]) != GC_OK)
                    chk(&c, GCRT_ERROR_BACKEND, "switch counters");
            copy_priority_verdict(cfg, res);
            res->passed = c.e == GCRT_SUCCESS && res->bad_bytes == 0 && res->sem_final == 0 && res->order_ok;
            print_ops(out, res);
            if (out) {
                const int *w = cp_expected[cfg->copy_priorities_enabled];
                fprintf(out, "expected (%s): %s, %s, %s, %s, %s: %s\n",
                        cfg->copy_priorities_enabled ? "copy priorities" : "issue order", names[w[0]], names[w[1]],
                        names[w[2]], names[w[3]], names[w[4]], res->order_ok ? "matches" : "DIFFERS");
                if (!res->order_ok) fprintf(out, "why: %s\n", res->why);
                fprintf(out, "summary: copy-priority %s: %zu copies, %zu bytes differ, semaphores back to %u, order %s, "
                             "%llu cycles\n",
                        res->passed ? "PASSED" : "FAILED", res->nops, res->bad_bytes, res->sem_final,
                        res->order_ok ? "as expected" : "DIFFERS", (unsigned long long)res->cycles);
            }
        }
        finish(&c, timeline);
    }
    gcrt_close(rt);
    return c.e;
}

/* ------------------------------------------------------------------ video-pipeline */
gcrt_error_t gcsc_video_pipeline(const gcrt_config_t *cfg, uint32_t frames, FILE *out, const char *timeline,
                                 gcsc_result_t *res, char *err, size_t errlen) {
    enum { FRAME = 16384, STAGES = 3 };
    memset(res, 0, sizeof *res);
    ctx_t c = {.out = out, .err = err, .errlen = errlen};
    if (frames < 1 || frames > 16) {
        if (err) snprintf(err, errlen, "video-pipeline: %u frames: 1..16", frames);
        return GCRT_ERROR_INVALID_VALUE;
    }
    gcrt_t *rt = NULL;
    gcrt_stream_t *st[STAGES] = {0};
    gcrt_event_t *ev[16][2] = {{0}};
    uint64_t in = 0, a = 0, b = 0, outb = 0;
    int least, greatest;
    static uint8_t data[FRAME * 16], got[FRAME * 16];
    static const char *const stage_name[STAGES] = {"h2d", "d2d", "d2h"};
    if (open_rt(&c, cfg, &rt) && chk(&c, gcrt_stream_priority_range(rt, &least, &greatest), "priority range")) {
        int prios[STAGES] = {least, greatest / 2, greatest}; /* the last stage has the highest priority */
        for (int s = 0; s < STAGES; s++) chk(&c, gcrt_stream_create_with_priority(rt, &st[s], prios[s]), "stream");
        chk(&c, gcrt_malloc_host(rt, &in, (uint64_t)FRAME * frames), "malloc_host");
        chk(&c, gcrt_malloc(rt, &a, (uint64_t)FRAME * frames), "malloc");
        chk(&c, gcrt_malloc(rt, &b, (uint64_t)FRAME * frames), "malloc");
        chk(&c, gcrt_malloc_host(rt, &outb, (uint64_t)FRAME * frames), "malloc_host");
        for (uint32_t f = 0; f < frames; f++)
            for (int k = 0; k < 2; k++) chk(&c, gcrt_event_create(rt, &ev[f][k]), "event");
        gcsc_fill(data, (size_t)FRAME * frames, 77);
        chk(&c, gcrt_write(rt, in, data, (size_t)FRAME * frames), "write frames");
        if (out)
            fprintf(out, "video-pipeline: %u frames of %u bytes: h2d (stream priority %d) -> d2d (%d) -> d2h (%d), "
                         "copy priorities %s\n",
                    frames, FRAME, prios[0], prios[1], prios[2], cfg->copy_priorities_enabled ? "on" : "off");
        for (uint32_t f = 0; f < frames && c.e == GCRT_SUCCESS; f++) {
            uint64_t off = (uint64_t)FRAME * f;
            char tag[3][16];
            for (int s = 0; s < STAGES; s++) snprintf(tag[s], sizeof tag[s], "F%u.%s", f, stage_name[s]);
            (void)(chk(&c, gcrt_memcpy_async(rt, a + off, in + off, FRAME, GCRT_MEMCPY_HOST_TO_DEVICE, st[0], tag[0]), "h2d") &&
                chk(&c, gcrt_event_record(rt, ev[f][0], st[0]), "record") &&
                chk(&c, gcrt_stream_wait_event(rt, st[1], ev[f][0]), "wait") &&
                chk(&c, gcrt_memcpy_async(rt, b + off, a + off, FRAME, GCRT_MEMCPY_DEVICE_TO_DEVICE, st[1], tag[1]), "d2d") &&
                chk(&c, gcrt_event_record(rt, ev[f][1], st[1]), "record") &&
                chk(&c, gcrt_stream_wait_event(rt, st[2], ev[f][1]), "wait") &&
                chk(&c, gcrt_memcpy_async(rt, outb + off, b + off, FRAME, GCRT_MEMCPY_DEVICE_TO_HOST, st[2], tag[2]), "d2h"));
        }
        if (c.e == GCRT_SUCCESS && chk(&c, gcrt_device_synchronize(rt), "synchronize") && harvest(&c, res) &&
            chk(&c, gcrt_read(rt, outb, got, (size_t)FRAME * frames), "read")) {
            for (size_t i = 0; i < (size_t)FRAME * frames; i++) res->bad_bytes += got[i] != data[i];
            res->frames = frames;
            print_ops(out, res);
            uint64_t worst = 0, sum = 0;
            for (uint32_t f = 0; f < frames; f++) {
                const gcrt_op_t *first = &res->ops[3 * f], *last = &res->ops[3 * f + 2];
                res->frame_latency[f] = last->end_cycle - first->submit_cycle;
                sum += res->frame_latency[f];
                if (res->frame_latency[f] > worst) worst = res->frame_latency[f];
                if (out) fprintf(out, "frame %u: %llu cycles from h2d submit to d2h end\n", f,
                                 (unsigned long long)res->frame_latency[f]);
            }
            if (out)
                fprintf(out, "summary: video-pipeline %s: %u frames, %zu bytes differ, frame latency avg %llu max %llu "
                             "cycles, %llu cycles in all\n",
                        res->bad_bytes == 0 ? "PASSED" : "FAILED", frames, res->bad_bytes,
                        (unsigned long long)(sum / frames), (unsigned long long)worst, (unsigned long long)res->cycles);
        }
        finish(&c, timeline);
    }
    gcrt_close(rt);
    return c.e;
}

/* ------------------------------------------------------------------ prio-latency */
gcrt_error_t gcsc_prio_latency(const gcrt_config_t *cfg, FILE *out, const char *timeline, gcsc_result_t *res,
                               char *err, size_t errlen) {
    enum { FLOOD = 16, BIG = 8192, SMALL = 16384 };
    memset(res, 0, sizeof *res);
    ctx_t c = {.out = out, .err = err, .errlen = errlen};
    gcrt_t *rt = NULL;
    gcrt_stream_t *lo = NULL, *hi = NULL;
    uint64_t src = 0, dst = 0;
    int least, greatest;
    if (open_rt(&c, cfg, &rt) && chk(&c, gcrt_stream_priority_range(rt, &least, &greatest), "priority range") &&
        chk(&c, gcrt_stream_create_with_priority(rt, &lo, least), "low stream") &&
        chk(&c, gcrt_stream_create_with_priority(rt, &hi, greatest), "high stream") &&
        chk(&c, gcrt_malloc(rt, &src, (uint64_t)BIG * (FLOOD + 1)), "malloc") &&
        chk(&c, gcrt_malloc(rt, &dst, (uint64_t)BIG * (FLOOD + 1)), "malloc")) {
        /* alone */
        if (chk(&c, gcrt_memcpy_async(rt, dst, src, SMALL, GCRT_MEMCPY_DEVICE_TO_DEVICE, hi, "high.idle"), "copy"))
            chk(&c, gcrt_device_synchronize(rt), "synchronize");
        /* under the flood: the high copy arrives once the first flood copy runs */
        for (int k = 0; k < FLOOD && c.e == GCRT_SUCCESS; k++) {
            char tag[16];
            snprintf(tag, sizeof tag, "flood%d", k);
            chk(&c, gcrt_memcpy_async(rt, dst + (uint64_t)BIG * (k + 1), src + (uint64_t)BIG * (k + 1), BIG,
                                      GCRT_MEMCPY_DEVICE_TO_DEVICE, lo, tag), "flood copy");
        }
        if (c.e == GCRT_SUCCESS) wait_launched(&c, 1, 200000);
        if (c.e == GCRT_SUCCESS)
            chk(&c, gcrt_memcpy_async(rt, dst, src, SMALL, GCRT_MEMCPY_DEVICE_TO_DEVICE, hi, "high.flood"), "copy");
        if (c.e == GCRT_SUCCESS && chk(&c, gcrt_device_synchronize(rt), "synchronize") && harvest(&c, res)) {
            const gcrt_op_t *idle = &res->ops[0], *fl = &res->ops[FLOOD + 1];
            res->lat_idle = idle->end_cycle - idle->submit_cycle;
            res->lat_flood = fl->end_cycle - fl->submit_cycle;
            print_ops(out, res);
            if (out)
                fprintf(out, "summary: prio-latency (copy priorities %s): high-priority 16 KiB copy %llu cycles alone, "
                             "%llu cycles under %d low-priority 8 KiB copies (%.2fx)\n",
                        cfg->copy_priorities_enabled ? "on" : "off", (unsigned long long)res->lat_idle,
                        (unsigned long long)res->lat_flood, FLOOD, (double)res->lat_flood / (double)res->lat_idle);
        }
        finish(&c, timeline);
    }
    gcrt_close(rt);
    return c.e;
}

/* ------------------------------------------------------------------ kernels */
typedef struct kbuf {
    uint64_t host, dev; /* pinned host copy and device buffer */
} kbuf_t;

static bool kalloc(ctx_t *c, kbuf_t *b, uint64_t *list, size_t *nlist, uint32_t bytes) {
    if (!chk(c, gcrt_malloc_host(c->rt, &b->host, bytes), "malloc_host")) return false;
    list[(*nlist)++] = b->host;
    if (!chk(c, gcrt_malloc(c->rt, &b->dev, bytes), "malloc")) return false;
    list[(*nlist)++] = b->dev;
    return true;
}

static void kcheck(gcsc_result_t *res, FILE *out, bool good, const char *what, uint32_t round) {
    res->checks++;
    if (good) return;
    res->bad_checks++;
    if (out) fprintf(out, "round %u: %s DIFFERS from the host's result\n", round, what);
}

static void rnd32(uint32_t *v, size_t n, uint64_t seed, uint32_t mask) {
    gcsc_fill((uint8_t *)v, n * 4, seed);
    for (size_t i = 0; i < n; i++) v[i] &= mask;
}

/* ---- single precision (issue 15) */
static float f_of(uint32_t u) {
    float f;
    memcpy(&f, &u, 4);
    return f;
}
static uint32_t u_of(float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* n random finite floats: random sign and significand, exponent field lo..hi */
static void rnd_float(uint32_t *v, size_t n, uint64_t seed, uint32_t lo, uint32_t hi) {
    gcsc_fill((uint8_t *)v, n * 4, seed);
    for (size_t i = 0; i < n; i++) v[i] = (v[i] & 0x807FFFFFu) | ((lo + (v[i] >> 23 & 0xFFu) % (hi - lo + 1u)) << 23);
}

/* |got - want| in units in the last place of want as a binary32 (the spacing of the floats at
 * |want|; 2^-149 below the normals); got a NaN or an infinity counts as infinitely far. */
static double ulp_err(float got, double want) {
    if (!isfinite(got)) return INFINITY;
    int e;
    frexp(want, &e); /* |want| in [2^(e-1), 2^e) */
    double ulp = ldexp(1.0, (e - 1 > -126 ? e - 1 : -126) - 23);
    return fabs((double)got - want) / ulp;
}

/* COMPUTE.CAPS.FPU of the runtime's device (gcrt_get_device_properties): whether the SIMT core
 * implements RV32F, so the float kernels can run. */
static bool fpu_present(ctx_t *c, gcrt_t *rt) {
    gc_device_props_t p;
    return chk(c, gcrt_get_device_properties(rt, &p), "device properties") && p.fpu;
}

gcrt_error_t gcsc_fpu_present(const gcrt_config_t *cfg, bool *present, char *err, size_t errlen) {
    ctx_t c = {.err = err, .errlen = errlen};
    gcrt_t *rt = NULL;
    *present = open_rt(&c, cfg, &rt) && fpu_present(&c, rt);
    gcrt_close(rt);
    return c.e;
}

/* One round of the float kernels on streams lo / hi: fsaxpy, fdot and fmath, checked against the
 * host: fsaxpy, fdot and sqrtf bit for bit (correctly rounded operations in a known order, which
 * the host's binary32 arithmetic does alike), expf / logf / sinf / powf within GCSC_FMATH_ULP of
 * the host's double-precision libm. */
static void float_round(ctx_t *c, gcrt_t *rt, gc_elf_t *img, gcrt_stream_t *lo, gcrt_stream_t *hi, uint32_t r,
                        const uint32_t shp[2], FILE *out, gcsc_result_t *res) {
    enum { NF = 600, NM = 96, MAXBUF = 14 };
    static uint32_t x[NF], y[NF], got[NF * 2], in[2 * NM], mo[GC_FMATH_FUNCS * NM];
    uint64_t list[MAXBUF];
    size_t nlist = 0;
    uint32_t n = 300 + (r * 53u) % 300u, bytes = 4 * n, grid = shp[0], cta = shp[1];
    uint32_t alpha = u_of(1.5f - (float)(r % 5u) * 0.75f), mcta = cta < 16 ? cta : 16;
    kbuf_t bx, by, bdx, bdy, bdo, bin, bmo;
    rnd_float(x, n, 700 + r, 100, 150);
    rnd_float(y, n, 800 + r, 100, 150);
    for (uint32_t i = 0; i < NM; i++) { /* a in [-10, 10), b in (0, 100] */
        uint32_t q[2];
        gcsc_fill((uint8_t *)q, sizeof q, 900 + r * NM + i);
        in[2 * i] = u_of(-10.0f + 20.0f * (float)(q[0] >> 8) / 16777216.0f);
        in[2 * i + 1] = u_of(100.0f * (float)((q[1] >> 8) + 1u) / 16777216.0f);
    }
    char tag[3][24];
    snprintf(tag[0], sizeof tag[0], "r%u.fsaxpy", r);
    snprintf(tag[1], sizeof tag[1], "r%u.fdot", r);
    snprintf(tag[2], sizeof tag[2], "r%u.fmath", r);
    const gcrt_memcpy_kind_t H2D = GCRT_MEMCPY_HOST_TO_DEVICE, D2H = GCRT_MEMCPY_DEVICE_TO_HOST;
    if (kalloc(c, &bx, list, &nlist, bytes) && kalloc(c, &by, list, &nlist, bytes) &&
        kalloc(c, &bdx, list, &nlist, bytes) && kalloc(c, &bdy, list, &nlist, bytes) &&
        kalloc(c, &bdo, list, &nlist, 4 * grid) && kalloc(c, &bin, list, &nlist, sizeof in) &&
        kalloc(c, &bmo, list, &nlist, sizeof mo)) {
        gc_fsaxpy_params_t ps = {gcrt_kernel_ptr(bx.dev), gcrt_kernel_ptr(by.dev), n, alpha};
        gc_fdot_params_t pd = {gcrt_kernel_ptr(bdx.dev), gcrt_kernel_ptr(bdy.dev), gcrt_kernel_ptr(bdo.dev), n};
        gc_fmath_params_t pm = {gcrt_kernel_ptr(bin.dev), gcrt_kernel_ptr(bmo.dev), NM};
        uint32_t g[3] = {grid, 1, 1}, b[3] = {cta, 1, 1}, g1[3] = {2, 1, 1}, b1[3] = {mcta, 1, 1};
        (void)(chk(c, gcrt_write(rt, bx.host, x, bytes), "write") && chk(c, gcrt_write(rt, by.host, y, bytes), "write") &&
               chk(c, gcrt_write(rt, bdx.host, x, bytes), "write") && chk(c, gcrt_write(rt, bdy.host, y, bytes), "write") &&
               chk(c, gcrt_write(rt, bin.host, in, sizeof in), "write") &&
               chk(c, gcrt_memcpy_async(rt, bx.dev, bx.host, bytes, H2D, lo, "h2d fx"), "h2d") &&
               chk(c, gcrt_memcpy_async(rt, by.dev, by.host, bytes, H2D, lo, "h2d fy"), "h2d") &&
               chk(c, gcrt_memcpy_async(rt, bdx.dev, bdx.host, bytes, H2D, hi, "h2d dx"), "h2d") &&
               chk(c, gcrt_memcpy_async(rt, bdy.dev, bdy.host, bytes, H2D, hi, "h2d dy"), "h2d") &&
               chk(c, gcrt_memcpy_async(rt, bin.dev, bin.host, sizeof in, H2D, lo, "h2d math"), "h2d") &&
               chk(c, gcrt_launch(rt, lo, img, "fsaxpy", g, b, &ps, sizeof ps, 0), tag[0]) &&
               chk(c, gcrt_launch(rt, hi, img, "fdot", g, b, &pd, sizeof pd, 4 * cta), tag[1]) &&
               chk(c, gcrt_launch(rt, lo, img, "fmath", g1, b1, &pm, sizeof pm, 0), tag[2]) &&
               chk(c, gcrt_memcpy_async(rt, by.host, by.dev, bytes, D2H, lo, "d2h fy"), "d2h") &&
               chk(c, gcrt_memcpy_async(rt, bdo.host, bdo.dev, 4 * grid, D2H, hi, "d2h dot"), "d2h") &&
               chk(c, gcrt_memcpy_async(rt, bmo.host, bmo.dev, sizeof mo, D2H, lo, "d2h math"), "d2h") &&
               chk(c, gcrt_device_synchronize(rt), "synchronize"));
    }
    if (c->e == GCRT_SUCCESS) {
        res->kernels += 3;
        bool good = chk(c, gcrt_read(rt, by.host, got, bytes), "read");
        for (uint32_t i = 0; good && i < n; i++) good = got[i] == u_of(f_of(alpha) * f_of(x[i]) + f_of(y[i]));
        kcheck(res, out, good, "fsaxpy", r);
        good = chk(c, gcrt_read(rt, bdo.host, got, 4 * grid), "read") && cta <= GC_SIMT_WARPS * 32;
        for (uint32_t k = 0; good && k < grid; k++) { /* gc_fdot_params_t's order */
            float sh[GC_SIMT_WARPS * 32];
            if (cta > sizeof sh / sizeof sh[0]) break;
            for (uint32_t t = 0; t < cta; t++) {
                float sum = 0.0f;
                for (uint32_t i = k * cta + t; i < n; i += grid * cta) sum = sum + f_of(x[i]) * f_of(y[i]);
                sh[t] = sum;
            }
            uint32_t half = 1;
            while (half < cta) half <<= 1;
            for (half >>= 1; half > 0; half >>= 1)
                for (uint32_t t = 0; t < half && t + half < cta; t++) sh[t] = sh[t] + sh[t + half];
            good = got[k] == u_of(sh[0]);
        }
        kcheck(res, out, good, "fdot", r);
        good = chk(c, gcrt_read(rt, bmo.host, mo, sizeof mo), "read");
        double worst[GC_FMATH_FUNCS] = {0};
        static const double bound[GC_FMATH_FUNCS] = GCSC_FMATH_ULP;
        for (uint32_t i = 0; good && i < NM; i++) {
            double a = f_of(in[2 * i]), bb = f_of(in[2 * i + 1]);
            const double want[GC_FMATH_FUNCS] = {exp(a), log(bb), sqrt(bb), sin(a), pow(bb, a)};
            for (uint32_t k = 0; k < GC_FMATH_FUNCS; k++) {
                float gv = f_of(mo[GC_FMATH_FUNCS * i + k]);
                double eu = ulp_err(gv, want[k]);
                if (k == 2) good = good && u_of(gv) == u_of(sqrtf(f_of(in[2 * i + 1]))); /* correctly rounded */
                else good = good && eu <= bound[k];
                if (eu > worst[k]) worst[k] = eu;
                if (eu > res->fmath_worst_ulp[k]) res->fmath_worst_ulp[k] = eu;
            }
        }
        kcheck(res, out, good, "fmath (expf, logf, sqrtf, sinf, powf)", r);
        if (out)
            fprintf(out, "round %u: float: fsaxpy %u x %u (n %u, alpha %g), fdot %u x %u, fmath 2 x %u (%u inputs; "
                         "worst ulp: expf %.3f logf %.3f sqrtf %.3f sinf %.3f powf %.3f)\n",
                    r, grid, cta, n, (double)f_of(alpha), grid, cta, mcta, NM, worst[0], worst[1], worst[2], worst[3],
                    worst[4]);
    }
    for (size_t i = 0; i < nlist; i++) chk(c, gcrt_free(rt, list[i]), "free");
}

gcrt_error_t gcsc_float_kernels(const gcrt_config_t *cfg, const char *image, FILE *out, gcsc_result_t *res, char *err,
                                size_t errlen) {
    memset(res, 0, sizeof *res);
    ctx_t c = {.out = out, .err = err, .errlen = errlen};
    if (!image) {
        if (err) snprintf(err, errlen, "float-kernels: no kernel image");
        return GCRT_ERROR_INVALID_VALUE;
    }
    gcrt_t *rt = NULL;
    gc_elf_t *img = NULL;
    gcrt_stream_t *st[2] = {0};
    uint32_t ccfg = 0;
    if (open_rt(&c, cfg, &rt) && !(res->fpu = fpu_present(&c, rt)) && c.e == GCRT_SUCCESS) {
        res->float_skipped = true;
        if (out) fprintf(out, "float-kernels: SKIPPED: the SIMT core has no FPU (COMPUTE.CAPS.FPU = 0)\n");
    } else if (c.e == GCRT_SUCCESS && chk(&c, gcrt_load_image(rt, image, &img), image)) {
        if (gc_mmio_read(gcrt_device(rt), GC_REG_COMPUTE_CONFIG, &ccfg) != GC_OK)
            chk(&c, GCRT_ERROR_BACKEND, "read COMPUTE_CONFIG");
        const uint32_t shape[2] = {2, GC_COMPUTE_CONFIG_LANES_GET(ccfg) * GC_COMPUTE_CONFIG_WARPS_GET(ccfg)};
        (void)(chk(&c, gcrt_stream_create(rt, &st[0]), "stream") && chk(&c, gcrt_stream_create(rt, &st[1]), "stream"));
        if (c.e == GCRT_SUCCESS) float_round(&c, rt, img, st[0], st[1], 0, shape, out, res);
        if (c.e == GCRT_SUCCESS && harvest(&c, res)) {
            for (size_t i = 0; i < res->nops; i++)
                if (res->ops[i].kind == GCRT_OP_KERNEL) res->float_cycles += res->ops[i].end_cycle - res->ops[i].start_cycle;
            if (out)
                fprintf(out, "summary: float-kernels %s: %s: fsaxpy, fdot, fmath: %u of %u results match the host, "
                             "%llu kernel cycles\n",
                        res->bad_checks == 0 ? "PASSED" : "FAILED", image, res->checks - res->bad_checks, res->checks,
                        (unsigned long long)res->float_cycles);
        }
    }
    if (img) gcrt_unload_image(rt, img);
    gcrt_close(rt);
    return c.e;
}

gcrt_error_t gcsc_kernels(const gcrt_config_t *cfg, const char *image, uint32_t rounds, FILE *out,
                          const char *timeline, gcsc_result_t *res, char *err, size_t errlen) {
    enum { NMAX = 1200, NSHAPES = 5, MAXBUF = 24, NBINS_MAX = 24 };
    memset(res, 0, sizeof *res);
    ctx_t c = {.out = out, .err = err, .errlen = errlen};
    if (!image || rounds < 1 || rounds > 1000) {
        if (err) snprintf(err, errlen, "kernels: %s", image ? "rounds: 1..1000" : "no kernel image");
        return GCRT_ERROR_INVALID_VALUE;
    }
    gcrt_t *rt = NULL;
    gc_elf_t *img = NULL;
    gcrt_stream_t *st[2] = {0};
    uint32_t hw = 0, ccfg = 0;
    static uint32_t a[NMAX], b[NMAX], got[NMAX];
    /* grid x CTA threads; shape NSHAPES - 1 is the full CTA (WARPS x LANES), filled in below */
    uint32_t shapes[NSHAPES][2] = {{1, 8}, {3, 13}, {2, 32}, {4, 7}, {2, 0}};
    if (open_rt(&c, cfg, &rt) && chk(&c, gcrt_compute_channel(rt, &hw), "compute channel") &&
        chk(&c, gcrt_load_image(rt, image, &img), image) && chk(&c, gcrt_tmu_log_enable(rt, 0), "task log")) {
        /* the float kernels run when the SIMT core has the FPU, and are reported skipped otherwise */
        res->fpu = fpu_present(&c, rt);
        res->float_skipped = !res->fpu;
        if (gc_mmio_read(gcrt_device(rt), GC_REG_COMPUTE_CONFIG, &ccfg) != GC_OK)
            chk(&c, GCRT_ERROR_BACKEND, "read COMPUTE_CONFIG");
        uint32_t lanes = GC_COMPUTE_CONFIG_LANES_GET(ccfg), warps = GC_COMPUTE_CONFIG_WARPS_GET(ccfg);
        shapes[NSHAPES - 1][1] = lanes * warps;
        for (int k = 0; k < NSHAPES; k++)
            if (shapes[k][1] > lanes * warps) shapes[k][1] = lanes * warps;
        int least = 0, greatest = 0;
        chk(&c, gcrt_stream_priority_range(rt, &least, &greatest), "priority range");
        chk(&c, gcrt_stream_create_with_priority(rt, &st[0], least), "low stream");
        chk(&c, gcrt_stream_create_with_priority(rt, &st[1], greatest), "high stream");
        if (out && c.e == GCRT_SUCCESS)
            fprintf(out, "kernels: %s, %u round%s of vecadd + reduce on stream priority %d and saxpy + histogram "
                         "on %d; compute channel %u, %u warps x %u lanes\n",
                    image, rounds, rounds == 1 ? "" : "s", least, greatest, hw, warps, lanes);
        if (res->fpu) {
            if (out && c.e == GCRT_SUCCESS)
                fprintf(out, "kernels: float kernels fsaxpy + fmath on stream priority %d and fdot on %d each round; "
                             "fsaxpy, fdot, sqrtf bit-exact, expf / logf / sinf / powf within 1 / 1 / 2 / 4 ulp of "
                             "the host's double precision\n",
                        least, greatest);
        } else if (out) {
            fprintf(out, "kernels: float kernels SKIPPED: the SIMT core has no FPU (COMPUTE.CAPS.FPU = 0)\n");
        }
        for (uint32_t r = 0; r < rounds && c.e == GCRT_SUCCESS; r++) {
            uint64_t list[MAXBUF];
            size_t nlist = 0;
            uint32_t n = 700 + (r * 97u) % 500u, bytes = n * 4;
            uint32_t nbins = 5 + (r * 7u) % (NBINS_MAX - 5), mode = r & 1u;
            int32_t alpha = 3 - (int32_t)(r % 7u);
            const uint32_t *sv = shapes[r % NSHAPES], *ss = shapes[(r + 1) % NSHAPES],
                           *sr = shapes[(r + 2) % NSHAPES], *sh = shapes[(r + 3) % NSHAPES];
            kbuf_t va, vb, vc, sx, sy, rin, rout, hin, hout;
            uint32_t rparts = sr[0] + 1, hwords = nbins + 2;
            bool okb = kalloc(&c, &va, list, &nlist, bytes) && kalloc(&c, &vb, list, &nlist, bytes) &&
                       kalloc(&c, &vc, list, &nlist, bytes) && kalloc(&c, &sx, list, &nlist, bytes) &&
                       kalloc(&c, &sy, list, &nlist, bytes) && kalloc(&c, &rin, list, &nlist, bytes) &&
                       kalloc(&c, &rout, list, &nlist, 4 * rparts) && kalloc(&c, &hin, list, &nlist, bytes) &&
                       kalloc(&c, &hout, list, &nlist, 4 * hwords);
            static uint32_t x[NMAX], y[NMAX], rv[NMAX], hv[NMAX];
            rnd32(a, n, 100 + r, ~0u);
            rnd32(b, n, 200 + r, ~0u);
            rnd32(x, n, 300 + r, ~0u);
            rnd32(y, n, 400 + r, ~0u);
            rnd32(rv, n, 500 + r, 0xFFFFFu);
            rnd32(hv, n, 600 + r, 0xFFFFu);
            char tag[4][24];
            snprintf(tag[0], sizeof tag[0], "r%u.vecadd", r);
            snprintf(tag[1], sizeof tag[1], "r%u.saxpy", r);
            snprintf(tag[2], sizeof tag[2], "r%u.reduce", r);
            snprintf(tag[3], sizeof tag[3], "r%u.histogram", r);
            if (okb && chk(&c, gcrt_write(rt, va.host, a, bytes), "write") &&
                chk(&c, gcrt_write(rt, vb.host, b, bytes), "write") && chk(&c, gcrt_write(rt, sx.host, x, bytes), "write") &&
                chk(&c, gcrt_write(rt, sy.host, y, bytes), "write") && chk(&c, gcrt_write(rt, rin.host, rv, bytes), "write") &&
                chk(&c, gcrt_write(rt, hin.host, hv, bytes), "write")) {
                const gcrt_memcpy_kind_t H2D = GCRT_MEMCPY_HOST_TO_DEVICE, D2H = GCRT_MEMCPY_DEVICE_TO_HOST;
                gc_vecadd_params_t pv = {gcrt_kernel_ptr(va.dev), gcrt_kernel_ptr(vb.dev), gcrt_kernel_ptr(vc.dev), n};
                gc_saxpy_params_t ps = {gcrt_kernel_ptr(sx.dev), gcrt_kernel_ptr(sy.dev), n, alpha};
                gc_reduce_params_t pr = {gcrt_kernel_ptr(rin.dev), gcrt_kernel_ptr(rout.dev),
                                         gcrt_kernel_ptr(rout.dev + 4ull * sr[0]), n};
                gc_histogram_params_t ph = {gcrt_kernel_ptr(hin.dev), gcrt_kernel_ptr(hout.dev + 8),
                                            gcrt_kernel_ptr(hout.dev), gcrt_kernel_ptr(hout.dev + 4), n, nbins, mode};
                uint32_t g[4][3] = {{sv[0], 1, 1}, {ss[0], 1, 1}, {sr[0], 1, 1}, {sh[0], 1, 1}};
                uint32_t bl[4][3] = {{sv[1], 1, 1}, {ss[1], 1, 1}, {sr[1], 1, 1}, {sh[1], 1, 1}};
                gcrt_stream_t *lo = st[0], *hi = st[1];
                (void)(chk(&c, gcrt_memcpy_async(rt, va.dev, va.host, bytes, H2D, lo, "h2d a"), "h2d") &&
                       chk(&c, gcrt_memcpy_async(rt, vb.dev, vb.host, bytes, H2D, lo, "h2d b"), "h2d") &&
                       chk(&c, gcrt_memcpy_async(rt, sx.dev, sx.host, bytes, H2D, hi, "h2d x"), "h2d") &&
                       chk(&c, gcrt_memcpy_async(rt, sy.dev, sy.host, bytes, H2D, hi, "h2d y"), "h2d") &&
                       chk(&c, gcrt_launch(rt, lo, img, "vecadd", g[0], bl[0], &pv, sizeof pv, 0), tag[0]) &&
                       chk(&c, gcrt_launch(rt, hi, img, "saxpy", g[1], bl[1], &ps, sizeof ps, 0), tag[1]) &&
                       chk(&c, gcrt_memcpy_async(rt, vc.host, vc.dev, bytes, D2H, lo, "d2h c"), "d2h") &&
                       chk(&c, gcrt_memcpy_async(rt, sy.host, sy.dev, bytes, D2H, hi, "d2h y"), "d2h") &&
                       chk(&c, gcrt_memcpy_async(rt, rin.dev, rin.host, bytes, H2D, lo, "h2d in"), "h2d") &&
                       chk(&c, gcrt_memset_async(rt, rout.dev, 0, 4 * rparts, lo, "zero sums"), "memset") &&
                       chk(&c, gcrt_memcpy_async(rt, hin.dev, hin.host, bytes, H2D, hi, "h2d hin"), "h2d") &&
                       chk(&c, gcrt_memset_async(rt, hout.dev, 0, 4 * hwords, hi, "zero bins"), "memset") &&
                       chk(&c, gcrt_launch(rt, lo, img, "reduce", g[2], bl[2], &pr, sizeof pr, 4 * bl[2][0]), tag[2]) &&
                       chk(&c, gcrt_launch(rt, hi, img, "histogram", g[3], bl[3], &ph, sizeof ph, mode ? 4 * nbins : 0),
                           tag[3]) &&
                       chk(&c, gcrt_memcpy_async(rt, rout.host, rout.dev, 4 * rparts, D2H, lo, "d2h sums"), "d2h") &&
                       chk(&c, gcrt_memcpy_async(rt, hout.host, hout.dev, 4 * hwords, D2H, hi, "d2h bins"), "d2h") &&
                       chk(&c, gcrt_device_synchronize(rt), "synchronize"));
            }
            if (c.e == GCRT_SUCCESS && res->fpu)
                float_round(&c, rt, img, st[0], st[1], r, shapes[(r + 4) % NSHAPES], out, res);
            if (c.e == GCRT_SUCCESS) {
                res->kernels += 4;
                bool good = chk(&c, gcrt_read(rt, vc.host, got, bytes), "read");
                for (uint32_t i = 0; good && i < n; i++) good = got[i] == a[i] + b[i];
                kcheck(res, out, good, "vecadd", r);
                good = chk(&c, gcrt_read(rt, sy.host, got, bytes), "read");
                for (uint32_t i = 0; good && i < n; i++) good = got[i] == (uint32_t)alpha * x[i] + y[i];
                kcheck(res, out, good, "saxpy", r);
                uint32_t sums[8] = {0}, want = 0, parts = 0;
                good = rparts <= 8 && chk(&c, gcrt_read(rt, rout.host, sums, 4 * rparts), "read");
                for (uint32_t i = 0; i < n; i++) want += rv[i];
                for (uint32_t i = 0; i + 1 < rparts; i++) parts += sums[i];
                kcheck(res, out, good && parts == want && sums[rparts - 1] == want, "reduce", r);
                uint32_t hw_[NBINS_MAX + 2] = {0}, bins[NBINS_MAX] = {0}, mx = 0;
                good = chk(&c, gcrt_read(rt, hout.host, hw_, 4 * hwords), "read");
                for (uint32_t i = 0; i < n; i++) {
                    bins[hv[i] % nbins]++;
                    if (hv[i] > mx) mx = hv[i];
                }
                good = good && hw_[0] == mx && hw_[1] == n;
                for (uint32_t i = 0; good && i < nbins; i++) good = hw_[2 + i] == bins[i];
                kcheck(res, out, good, mode ? "histogram (shared memory)" : "histogram (global atomics)", r);
                if (out)
                    fprintf(out, "round %u: n %u: vecadd %u x %u, saxpy %u x %u (alpha %d), reduce %u x %u, histogram "
                                 "%u x %u (%u bins, mode %u)\n",
                            r, n, sv[0], sv[1], ss[0], ss[1], alpha, sr[0], sr[1], sh[0], sh[1], nbins, mode);
            }
            for (size_t i = 0; i < nlist; i++) chk(&c, gcrt_free(rt, list[i]), "free");
        }
        const gcrt_tmu_record_t *lg;
        size_t nlg;
        if (c.e == GCRT_SUCCESS && log_harvest(&c, res, &lg, &nlg)) {
            const gcrt_op_t *ops;
            size_t nops = 0;
            uint32_t done_kernels = 0;
            if (chk(&c, gcrt_ops(rt, &ops, &nops), "ops"))
                for (size_t i = 0; i < nops; i++) done_kernels += ops[i].kind == GCRT_OP_KERNEL && ops[i].done;
            res->total_ops = nops;
            kcheck(res, out, done_kernels == res->kernels, "the completed kernel count", rounds);
            print_ops(out, res);
            if (out && nops > res->nops) fprintf(out, "(the first %zu of %zu ops)\n", res->nops, nops);
            if (out)
                fprintf(out, "summary: kernels %s: %u kernels in %u round%s, %zu ops, %u of %u results match the "
                             "host, %llu cycles%s\n",
                        res->bad_checks == 0 ? "PASSED" : "FAILED", res->kernels, rounds, rounds == 1 ? "" : "s", nops,
                        res->checks - res->bad_checks, res->checks, (unsigned long long)res->cycles,
                        res->float_skipped ? " (float kernels SKIPPED: no FPU)" : "");
        }
        finish(&c, timeline);
    }
    if (img) gcrt_unload_image(rt, img);
    gcrt_close(rt);
    return c.e;
}

/* ------------------------------------------------------------------ task management unit (issue 6) */
long gcsc_log_find(const gcrt_tmu_record_t *log, size_t n, size_t from, uint32_t kind, uint32_t task) {
    for (size_t i = from; i < n; i++)
        if ((kind == GCSC_ANY || log[i].kind == kind) && (task == GCSC_ANY || log[i].task == task)) return (long)i;
    return -1;
}

/* One asserted rule: printed as "check: ... ok" or "... FAILED", counted in res. */
static bool rule(gcsc_result_t *res, FILE *out, bool good, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static bool rule(gcsc_result_t *res, FILE *out, bool good, const char *fmt, ...) {
    res->rules++;
    res->bad_rules += !good;
    if (out) {
        va_list ap;
        va_start(ap, fmt);
        fprintf(out, "check: ");
        vfprintf(out, fmt, ap);
        fprintf(out, ": %s\n", good ? "ok" : "FAILED");
        va_end(ap);
    }
    return good;
}

/* Open the runtime with the TMU log on and the image loaded; N = depth (gcrt_set_limit). */
static bool tmu_open(ctx_t *c, const gcrt_config_t *cfg, const char *image, uint32_t depth, gcrt_t **rt,
                     gc_elf_t **img) {
    *img = NULL;
    if (!image) return chk(c, GCRT_ERROR_INVALID_VALUE, "no kernel image");
    gcrt_launch_failures_t lf;
    return open_rt(c, cfg, rt) && chk(c, gcrt_set_limit(*rt, GCRT_LIMIT_MAX_NESTING_DEPTH, depth), "max nesting depth") &&
           chk(c, gcrt_load_image(*rt, image, img), image) && chk(c, gcrt_tmu_log_enable(*rt, 0), "task log") &&
           chk(c, gcrt_launch_failures(*rt, &lf, true), "launch failures");
}

/* Harvest the ops and the log into res, print the log and the ops. */
static bool tmu_harvest(ctx_t *c, gcsc_result_t *res, FILE *out) {
    const gcrt_tmu_record_t *lg;
    size_t n;
    if (!log_harvest(c, res, &lg, &n)) return false;
    if (out) {
        fprintf(out, "task log (%zu records%s):\n%10s  %-11s %4s %5s %5s %3s  %s\n", n, res->log_lost ? ", some LOST" : "",
                "cycle", "event", "slot", "level", "depth", "ch", "task");
        for (size_t i = 0; i < n; i++) {
            const char *nm = gcrt_tmu_task_name(c->rt, lg[i].task);
            char slot[8];
            snprintf(slot, sizeof slot, "%u", lg[i].slot);
            fprintf(out, "%10llu  %-11s %4s %5u %5u %3u  0x%x %s\n", (unsigned long long)lg[i].cycle,
                    gc_tmu_event_name(lg[i].kind), lg[i].slot == 15 ? "-" : slot, lg[i].level, lg[i].depth,
                    lg[i].channel, lg[i].task, nm ? nm : "");
        }
    }
    print_ops(out, res);
    return true;
}

/* The last rule (nothing lost from the log) and the summary line. */
static void tmu_summary(gcsc_result_t *res, FILE *out, const char *name, const char *extra) {
    rule(res, out, res->log_lost == 0, "no log record lost");
    if (out)
        fprintf(out, "summary: %s %s: %u of %u checks passed%s, %llu cycles\n", name, res->bad_rules ? "FAILED" : "PASSED",
                res->rules - res->bad_rules, res->rules, extra, (unsigned long long)res->cycles);
}

static gcrt_error_t tmu_close(ctx_t *c, gcrt_t *rt, gc_elf_t *img) {
    if (img) gcrt_unload_image(rt, img);
    gcrt_close(rt);
    return c->e;
}

/* Every record of `task` carries this level and depth, and the task went QUEUED .. COMPLETE. */
static void rule_task(gcsc_result_t *res, FILE *out, const char *what, uint32_t task, uint32_t level, uint32_t depth) {
    bool seen = false, good = true;
    for (size_t i = 0; i < res->nlog; i++)
        if (res->log[i].task == task) {
            seen = true;
            good = good && res->log[i].level == level && res->log[i].depth == depth;
        }
    long q = gcsc_log_find(res->log, res->nlog, 0, GC_TMU_EVENT_QUEUED, task);
    long st = gcsc_log_find(res->log, res->nlog, 0, GC_TMU_EVENT_START, task);
    long done = gcsc_log_find(res->log, res->nlog, 0, GC_TMU_EVENT_COMPLETE, task);
    rule(res, out, seen && good && q >= 0 && st > q && done > st,
         "%s (task 0x%x): QUEUED, START, COMPLETE at device priority %u, nesting level %u", what, task, level, depth);
}

static uint32_t max_level(const gcsc_result_t *res) {
    uint32_t m = 0;
    for (size_t i = 0; i < res->nlog; i++)
        if (res->log[i].level > m) m = res->log[i].level;
    return m;
}

gcrt_error_t gcsc_nested_priority(const gcrt_config_t *cfg, const char *image, FILE *out, const char *timeline,
                                  gcsc_result_t *res, char *err, size_t errlen) {
    enum { N = 4, CAP = GCSC_NEST_CAP };
    memset(res, 0, sizeof *res);
    ctx_t c = {.out = out, .err = err, .errlen = errlen};
    gcrt_t *rt = NULL;
    gc_elf_t *img = NULL;
    gcrt_stream_t *s = NULL;
    uint64_t recs = 0, words = 0; /* markers at words, statuses at words + 4 (CAP + 1) */
    if (tmu_open(&c, cfg, image, N, &rt, &img) && chk(&c, gcrt_stream_create_with_priority(rt, &s, -1), "stream") &&
        chk(&c, gcrt_stream_get_device_priority(rt, s, &res->nest_stream_prio), "device priority") &&
        chk(&c, gcrt_malloc(rt, &recs, GC_LREC_BYTES * (CAP + 1)), "launch records") &&
        chk(&c, gcrt_malloc(rt, &words, 8 * (CAP + 1)), "markers")) {
        uint32_t init[2 * (CAP + 1)];
        for (int i = 0; i <= CAP; i++) init[i] = 0, init[CAP + 1 + i] = GC_LAUNCH_STATUS_NONE;
        for (uint32_t l = 1; l <= CAP; l++) {
            char nm[32];
            snprintf(nm, sizeof nm, "nest_chain L%u", l);
            res->nest_task[l] = (uint32_t)((recs + GC_LREC_BYTES * l) >> 8);
            if (l > 1) chk(&c, gcrt_tmu_name_task(rt, res->nest_task[l], nm), "name");
        }
        gc_nest_params_t p = {gcrt_kernel_ptr(recs), gcrt_kernel_ptr(words), gcrt_kernel_ptr(words + 4 * (CAP + 1)), 1,
                              CAP};
        uint32_t one[3] = {1, 1, 1};
        if (out)
            fprintf(out, "nested-priority: max nesting depth N = %u, stream priority -1 -> device priority %u; "
                         "nest_chain launches itself until a launch fails\n",
                    N, res->nest_stream_prio);
        if (chk(&c, gcrt_write(rt, words, init, sizeof init), "init") &&
            chk(&c, gcrt_launch(rt, s, img, "nest_chain", one, one, &p, sizeof p, 0), "launch nest_chain") &&
            chk(&c, gcrt_stream_synchronize(rt, s), "synchronize") &&
            chk(&c, gcrt_read(rt, words, init, sizeof init), "read markers") && tmu_harvest(&c, res, out)) {
            const gcrt_op_t *ops;
            size_t nops;
            if (chk(&c, gcrt_ops(rt, &ops, &nops), "ops") && nops) res->nest_task[1] = ops[nops - 1].task;
            for (int i = 0; i <= CAP; i++) res->nest_marker[i] = init[i], res->nest_status[i] = init[CAP + 1 + i];
            uint32_t base = res->nest_stream_prio;
            rule(res, out, base == 4, "stream level 1 of N = 4 maps to device priority 4 (got %u)", base);
            for (uint32_t l = 1; l <= N; l++) {
                char what[32];
                snprintf(what, sizeof what, "level %u", l);
                rule_task(res, out, what, res->nest_task[l], base + l - 1, l);
                rule(res, out, res->nest_marker[l] == GC_MARK(l), "level %u wrote its marker (0x%08x)", l,
                     res->nest_marker[l]);
            }
            for (uint32_t l = 1; l < N; l++)
                rule(res, out, res->nest_status[l] == GC_LAUNCH_STATUS_OK, "level %u's launch returned OK (%s)", l,
                     gc_launch_status_name(res->nest_status[l]));
            rule(res, out, res->nest_status[N] == GC_LAUNCH_STATUS_DEPTH,
                 "level %u (device priority %u)'s launch failed DEPTH in the thread (%s)", N, base + N - 1,
                 gc_launch_status_name(res->nest_status[N]));
            bool none = true;
            for (uint32_t l = N + 1; l <= CAP; l++) none = none && res->nest_marker[l] == 0;
            rule(res, out, none && gcsc_log_find(res->log, res->nlog, 0, GCSC_ANY, res->nest_task[N + 1]) < 0,
                 "no level %u task ran", N + 1);
            rule(res, out, max_level(res) == base + N - 1, "nothing reached device priority %u (highest seen %u)",
                 base + N, max_level(res));
            long lf = gcsc_log_find(res->log, res->nlog, 0, GC_TMU_EVENT_LAUNCH_FAIL, GCSC_ANY);
            rule(res, out,
                 lf >= 0 && res->log[lf].task == res->nest_task[N] && res->log[lf].level == base + N - 1 &&
                     res->log[lf].depth == N &&
                     gcsc_log_find(res->log, res->nlog, (size_t)lf + 1, GC_TMU_EVENT_LAUNCH_FAIL, GCSC_ANY) < 0,
                 "one LAUNCH_FAIL record, from level %u", N);
            bool order = true;
            for (uint32_t l = 1; l < N; l++)
                order = order && gcsc_log_find(res->log, res->nlog, 0, GC_TMU_EVENT_COMPLETE, res->nest_task[l]) >
                                     gcsc_log_find(res->log, res->nlog, 0, GC_TMU_EVENT_COMPLETE, res->nest_task[l + 1]);
            rule(res, out, order, "each level completed after its child (COMPLETE order 4, 3, 2, 1)");
            char buf[300];
            gcrt_launch_failure_format(&res->lf, buf, sizeof buf);
            if (out) fprintf(out, "host: launch failure: %s\n", buf);
            rule(res, out,
                 res->lf.pending && res->lf.count == 1 && res->lf.launches == N - 1 &&
                     res->lf.status == GC_LAUNCH_STATUS_DEPTH && res->lf.level == base + N - 1 && res->lf.depth == N &&
                     res->lf.task == res->nest_task[N],
                 "the host sees the failure (INTR_STATUS.LAUNCH_FAIL, LAUNCH_FAILS 1, DEV_LAUNCHES %u, LAUNCH_FAIL "
                 "DEPTH at priority %u level %u)",
                 N - 1, base + N - 1, N);
            tmu_summary(res, out, "nested-priority", "");
        }
        finish(&c, timeline);
    }
    return tmu_close(&c, rt, img);
}

/* Run the device until `want` START records of the tasks in `tasks` are in the log. */
static bool wait_started(ctx_t *c, const uint32_t *tasks, uint32_t ntasks, uint64_t budget) {
    for (uint64_t spent = 0; spent < budget; spent += 32) {
        const gcrt_tmu_record_t *lg;
        size_t n;
        if (!chk(c, gcrt_tmu_log(c->rt, &lg, &n, NULL), "task log")) return false;
        uint32_t started = 0;
        for (uint32_t k = 0; k < ntasks; k++) started += gcsc_log_find(lg, n, 0, GC_TMU_EVENT_START, tasks[k]) >= 0;
        if (started == ntasks) return true;
        if (gc_device_run(gcrt_device(c->rt), 32) != GC_OK) return chk(c, GCRT_ERROR_BACKEND, "run");
    }
    return chk(c, GCRT_ERROR_TIMEOUT, "waiting for the low-priority tasks to take the task slots");
}

gcrt_error_t gcsc_eviction(const gcrt_config_t *cfg, const char *image, bool no_evict, FILE *out, const char *timeline,
                           gcsc_result_t *res, char *err, size_t errlen) {
    memset(res, 0, sizeof *res);
    res->no_evict = no_evict;
    ctx_t c = {.out = out, .err = err, .errlen = errlen};
    gcrt_t *rt = NULL;
    gc_elf_t *img = NULL;
    gcrt_tmu_config_t tc = {0};
    uint32_t ccfg = 0;
    if (tmu_open(&c, cfg, image, 1, &rt, &img) && chk(&c, gcrt_tmu_config(rt, &tc), "TMU config") &&
        chk(&c, gcrt_set_no_evict(rt, no_evict), "TMU_CTRL")) {
        gc_mmio_read(gcrt_device(rt), GC_REG_COMPUTE_CONFIG, &ccfg);
        uint32_t lanes = GC_COMPUTE_CONFIG_LANES_GET(ccfg), warps = GC_COMPUTE_CONFIG_WARPS_GET(ccfg);
        uint32_t nsm = GC_COMPUTE_CONFIG_NUM_SM_GET(ccfg);
        int least = 0, greatest = 0;
        chk(&c, gcrt_stream_priority_range(rt, &least, &greatest), "priority range");
        uint32_t nlp = tc.slots, levels = (uint32_t)(least - greatest) + 1;
        if (nlp > GCSC_MAX_LP || nlp + 1 > levels) {
            chk(&c, GCRT_ERROR_NOT_SUPPORTED, "eviction: more task slots than low-priority stream levels");
            nlp = 0;
        }
        res->nlp = nlp;
        /* enough CTAs that the lowest task still has undispatched ones when the high one comes */
        uint32_t ctas = 3 * nsm * warps, spin = 150;
        res->lp_ctas = ctas;
        gcrt_stream_t *lp[GCSC_MAX_LP] = {0}, *hp = NULL;
        uint64_t cnt = 0, sink = 0, hout = 0;
        bool okb = c.e == GCRT_SUCCESS && chk(&c, gcrt_malloc(rt, &cnt, 4ull * ctas * (nlp ? nlp : 1)), "counters") &&
                   chk(&c, gcrt_malloc(rt, &sink, 4ull * ctas * (nlp ? nlp : 1)), "sink") &&
                   chk(&c, gcrt_malloc(rt, &hout, 64), "hp out") &&
                   chk(&c, gcrt_memset_async(rt, cnt, 0, 4ull * ctas * nlp, NULL, "zero counters"), "memset") &&
                   chk(&c, gcrt_memset_async(rt, sink, 0, 4ull * ctas * nlp, NULL, "zero sink"), "memset") &&
                   chk(&c, gcrt_memset_async(rt, hout, 0, 64, NULL, "zero out"), "memset") &&
                   chk(&c, gcrt_device_synchronize(rt), "synchronize") &&
                   chk(&c, gcrt_stream_create_with_priority(rt, &hp, greatest), "high stream");
        for (uint32_t k = 0; okb && k < nlp; k++)
            okb = chk(&c, gcrt_stream_create_with_priority(rt, &lp[k], -(int)k), "low stream") &&
                  chk(&c, gcrt_stream_get_device_priority(rt, lp[k], &res->lp_level[k]), "device priority");
        if (okb && out)
            fprintf(out, "eviction%s: %u task slots; %u low-priority lp_grid tasks (device priorities %u..%u, %u CTAs of "
                         "%u threads each) fill them, then hp_short on stream priority %d\n",
                    no_evict ? " (TMU_CTRL.NO_EVICT = 1: the prior art)" : "", tc.slots, nlp, res->lp_level[0],
                    nlp ? res->lp_level[nlp - 1] : 0, ctas, lanes, greatest);
        for (uint32_t k = 0; okb && k < nlp; k++) {
            gc_lp_grid_params_t p = {gcrt_kernel_ptr(cnt + 4ull * ctas * k), gcrt_kernel_ptr(sink + 4ull * ctas * k), spin};
            uint32_t grid[3] = {ctas, 1, 1}, block[3] = {lanes, 1, 1};
            const gcrt_op_t *ops;
            size_t n;
            okb = chk(&c, gcrt_launch(rt, lp[k], img, "lp_grid", grid, block, &p, sizeof p, 0), "launch lp_grid") &&
                  chk(&c, gcrt_ops(rt, &ops, &n), "ops");
            if (okb) res->lp_task[k] = ops[n - 1].task;
        }
        size_t hp_seq = 0;
        if (okb && wait_started(&c, res->lp_task, nlp, 5000000)) {
            gc_hp_short_params_t p = {gcrt_kernel_ptr(hout), 0x600D};
            uint32_t grid[3] = {2, 1, 1}, block[3] = {lanes, 1, 1};
            const gcrt_op_t *ops;
            size_t n;
            if (out) fprintf(out, "cycle %llu: every slot is busy; launching hp_short\n",
                             (unsigned long long)gc_device_cycles(gcrt_device(rt)));
            if (chk(&c, gcrt_launch(rt, hp, img, "hp_short", grid, block, &p, sizeof p, 0), "launch hp_short") &&
                chk(&c, gcrt_ops(rt, &ops, &n), "ops")) {
                hp_seq = n - 1;
                res->hp_task = ops[n - 1].task;
                res->hp_level = ops[n - 1].device_priority;
            }
        }
        uint32_t outw[2] = {0};
        if (c.e == GCRT_SUCCESS && chk(&c, gcrt_device_synchronize(rt), "synchronize") &&
            chk(&c, gcrt_read(rt, hout, outw, sizeof outw), "read") && tmu_harvest(&c, res, out)) {
            gc_mmio_read(gcrt_device(rt), GC_REG_COMPUTE_EVICTIONS, &res->evictions);
            const gcrt_op_t *ops;
            size_t n;
            if (chk(&c, gcrt_ops(rt, &ops, &n), "ops") && hp_seq < n)
                res->hp_latency = ops[hp_seq].end_cycle - ops[hp_seq].launch_cycle;
            static uint32_t counters[GCSC_MAX_LP * 64 * 8];
            if (4ull * ctas * nlp <= sizeof counters && chk(&c, gcrt_read(rt, cnt, counters, 4ull * ctas * nlp), "read"))
                for (uint32_t i = 0; i < ctas * nlp; i++) {
                    res->counter_ones += counters[i] == 1;
                    res->counter_bad += counters[i] != 1;
                }
            res->hp_out_bad = (outw[0] != 0x600D) + (outw[1] != 0x600E);
            const gcrt_tmu_record_t *L = res->log;
            size_t nl = res->nlog;
            long hq = gcsc_log_find(L, nl, 0, GC_TMU_EVENT_QUEUED, res->hp_task);
            long hs = gcsc_log_find(L, nl, 0, GC_TMU_EVENT_START, res->hp_task);
            long hc = gcsc_log_find(L, nl, 0, GC_TMU_EVENT_COMPLETE, res->hp_task);
            bool all_started = true;
            for (uint32_t k = 0; k < nlp; k++) {
                long s0 = gcsc_log_find(L, nl, 0, GC_TMU_EVENT_START, res->lp_task[k]);
                long e0 = gcsc_log_find(L, nl, 0, GC_TMU_EVENT_COMPLETE, res->lp_task[k]);
                all_started = all_started && s0 >= 0 && hq > s0 && e0 > hq;
            }
            rule(res, out, all_started && hq >= 0 && nlp == tc.slots,
                 "every slot held a low-priority task, none finished, when hp_short was queued");
            rule(res, out, res->hp_level > res->lp_level[nlp ? nlp - 1 : 0],
                 "hp_short runs at device priority %u, above every low-priority task", res->hp_level);
            long ev = gcsc_log_find(L, nl, hq >= 0 ? (size_t)hq : 0, GC_TMU_EVENT_EVICT, GCSC_ANY);
            if (!no_evict) {
                uint32_t victim = ev >= 0 ? L[ev].task : 0;
                bool is_lp = false;
                for (uint32_t k = 0; k < nlp; k++) is_lp = is_lp || victim == res->lp_task[k];
                rule(res, out, ev >= 0 && is_lp && L[ev].level < res->hp_level,
                     "an EVICT record: a low-priority task (0x%x, priority %u) gave up slot %u", victim,
                     ev >= 0 ? L[ev].level : 0, ev >= 0 ? L[ev].slot : 0);
                rule(res, out, ev >= 0 && hs > ev && L[hs].slot == L[ev].slot,
                     "hp_short took the victim's slot after the eviction");
                long vr = ev >= 0 ? gcsc_log_find(L, nl, (size_t)ev, GC_TMU_EVENT_RESUME, victim) : -1;
                long vc = gcsc_log_find(L, nl, 0, GC_TMU_EVENT_COMPLETE, victim);
                rule(res, out, hc >= 0 && vc > hc, "hp_short completed before the victim");
                rule(res, out, vr > hs && vc > vr, "the victim resumed later (RESUME) and completed");
                rule(res, out, res->evictions >= 1, "COMPUTE.EVICTIONS counted it (%u)", res->evictions);
            } else {
                rule(res, out, gcsc_log_find(L, nl, 0, GC_TMU_EVENT_EVICT, GCSC_ANY) < 0 && res->evictions == 0,
                     "no eviction (TMU_CTRL.NO_EVICT)");
                /* the slot hp_short took was last held by a low-priority task that ran to its end */
                long prev = -1;
                for (long i = 0; i < hs; i++)
                    if (L[i].slot == L[hs].slot && (L[i].kind == GC_TMU_EVENT_START || L[i].kind == GC_TMU_EVENT_RESUME))
                        prev = i;
                bool lp_prev = false;
                for (uint32_t k = 0; prev >= 0 && k < nlp; k++) lp_prev = lp_prev || L[prev].task == res->lp_task[k];
                rule(res, out, hs >= 0 && lp_prev && gcsc_log_find(L, nl, 0, GC_TMU_EVENT_COMPLETE, L[prev].task) >= 0,
                     "hp_short waited for a low-priority task to finish and took its slot");
            }
            rule(res, out, hc >= 0 && res->hp_out_bad == 0, "hp_short completed and wrote its output");
            rule(res, out, res->counter_bad == 0 && res->counter_ones == ctas * nlp,
                 "every low-priority CTA ran exactly once (%u per-CTA counters are 1, %u are not)", res->counter_ones,
                 res->counter_bad);
            if (out) fprintf(out, "hp_short: launch to completion %llu cycles\n", (unsigned long long)res->hp_latency);
            char extra[48];
            snprintf(extra, sizeof extra, ", %u eviction%s", res->evictions, res->evictions == 1 ? "" : "s");
            tmu_summary(res, out, "eviction", extra);
        }
        finish(&c, timeline);
    }
    return tmu_close(&c, rt, img);
}

gcrt_error_t gcsc_childless_parent(const gcrt_config_t *cfg, const char *image, bool prior_art, FILE *out,
                                   const char *timeline, gcsc_result_t *res, char *err, size_t errlen) {
    memset(res, 0, sizeof *res);
    res->prior_art = prior_art;
    ctx_t c = {.out = out, .err = err, .errlen = errlen};
    gcrt_t *rt = NULL;
    gc_elf_t *img = NULL;
    gcrt_stream_t *sa = NULL;
    uint64_t rec = 0, words = 0; /* out[0..2] marks, out[3] ParentA's LAUNCH status */
    int least = 0, greatest = 0;
    if (tmu_open(&c, cfg, image, 2, &rt, &img) && chk(&c, gcrt_stream_priority_range(rt, &least, &greatest), "range") &&
        chk(&c, gcrt_stream_create_with_priority(rt, &sa, greatest), "StreamA") &&
        chk(&c, gcrt_stream_get_device_priority(rt, sa, &res->cp_stream_prio), "device priority") &&
        chk(&c, gcrt_malloc(rt, &rec, GC_LREC_BYTES), "launch record") && chk(&c, gcrt_malloc(rt, &words, 16), "marks")) {
        uint32_t init[4] = {0, 0, 0, GC_LAUNCH_STATUS_NONE};
        uint32_t one[3] = {1, 1, 1};
        gc_seed001_params_t pc = {gcrt_kernel_ptr(words), 0, 0, 0, 0};
        gc_seed001_params_t pp = {gcrt_kernel_ptr(words), 1, gcrt_kernel_ptr(rec), 2, gcrt_kernel_ptr(words + 12)};
        gcrt_launch_attr_t pa;
        gcrt_launch_attr_init(&pa);
        if (prior_art) pa.device_priority = 0; /* the prior art: every parent at the lowest device priority */
        res->cp_task[2] = (uint32_t)(rec >> 8);
        if (out)
            fprintf(out, "childless-parent: max nesting depth 2; StreamA (stream priority %d -> device priority %u) runs "
                         "ChildlessA, then ParentA%s, which launches ChildA\n",
                    greatest, res->cp_stream_prio, prior_art ? " (prior art: at the lowest device priority, 0)" : "");
        const gcrt_op_t *ops;
        size_t n;
        if (chk(&c, gcrt_tmu_name_task(rt, res->cp_task[2], "ChildA"), "name") &&
            chk(&c, gcrt_write(rt, words, init, sizeof init), "init") &&
            chk(&c, gcrt_launch(rt, sa, img, "childless_a", one, one, &pc, sizeof pc, 0), "ChildlessA") &&
            chk(&c, gcrt_launch_ex(rt, sa, img, "parent_a", one, one, &pp, sizeof pp, 0, &pa), "ParentA") &&
            chk(&c, gcrt_stream_synchronize(rt, sa), "synchronize") &&
            chk(&c, gcrt_read(rt, words, init, sizeof init), "read") && chk(&c, gcrt_ops(rt, &ops, &n), "ops") &&
            n >= 2) {
            res->cp_task[0] = ops[n - 2].task;
            res->cp_task[1] = ops[n - 1].task;
            chk(&c, gcrt_tmu_name_task(rt, res->cp_task[0], "ChildlessA"), "name");
            chk(&c, gcrt_tmu_name_task(rt, res->cp_task[1], "ParentA"), "name");
            for (int i = 0; i < 3; i++) res->cp_mark[i] = init[i];
            res->cp_status = init[3];
            if (tmu_harvest(&c, res, out)) {
                uint32_t sp = res->cp_stream_prio, parent = prior_art ? 0 : sp;
                rule_task(res, out, "ChildlessA at the stream's priority", res->cp_task[0], sp, 1);
                rule_task(res, out, prior_art ? "ParentA at the lowest priority (prior art)" : "ParentA at the stream's priority",
                          res->cp_task[1], parent, 1);
                rule_task(res, out, "ChildA at its parent's priority + 1", res->cp_task[2], parent + 1, 2);
                rule(res, out, res->cp_status == GC_LAUNCH_STATUS_OK, "ParentA's launch of ChildA returned %s",
                     gc_launch_status_name(res->cp_status));
                rule(res, out, res->cp_mark[0] == GC_MARK(0) && res->cp_mark[1] == GC_MARK(1) && res->cp_mark[2] == GC_MARK(2),
                     "ChildlessA, ParentA and ChildA wrote their markers");
                long pcmp = gcsc_log_find(res->log, res->nlog, 0, GC_TMU_EVENT_COMPLETE, res->cp_task[1]);
                long ccmp = gcsc_log_find(res->log, res->nlog, 0, GC_TMU_EVENT_COMPLETE, res->cp_task[2]);
                long lcmp = gcsc_log_find(res->log, res->nlog, 0, GC_TMU_EVENT_COMPLETE, res->cp_task[0]);
                long pst = gcsc_log_find(res->log, res->nlog, 0, GC_TMU_EVENT_START, res->cp_task[1]);
                rule(res, out, ccmp >= 0 && pcmp > ccmp, "ParentA completed after ChildA");
                rule(res, out, lcmp >= 0 && pst > lcmp, "stream order: ParentA started after ChildlessA completed");
                rule(res, out, res->lf.count == 0, "no device launch failed");
                tmu_summary(res, out, "childless-parent", "");
            }
        }
        finish(&c, timeline);
    }
    return tmu_close(&c, rt, img);
}
