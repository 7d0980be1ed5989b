/* scenarios.c: runtime scenarios (copy-priority, video-pipeline, prio-latency) and the Perfetto
 * timeline writer.  See gpucosim/scenarios.h. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "gpucosim/scenarios.h"

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
    if (!f) {
        fprintf(stderr, "timeline: cannot write %s\n", path);
        return GCRT_ERROR_INVALID_VALUE;
    }
    /* pid 1: HW channels (tid = channel), pid 2: copy engines (tid = engine).  Timestamps are
     * device cycles; the trace says microseconds, so 1 us on screen is one cycle. */
    fprintf(f, "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"time_unit\":\"1 us = 1 device cycle\"},\"traceEvents\":[\n");
    fprintf(f, "{\"ph\":\"M\",\"pid\":1,\"name\":\"process_name\",\"args\":{\"name\":\"HW channels\"}},\n");
    fprintf(f, "{\"ph\":\"M\",\"pid\":2,\"name\":\"process_name\",\"args\":{\"name\":\"copy engines\"}},\n");
    uint32_t seen_ch = 0, seen_ce = 0;
    for (size_t i = 0; i < n; i++) {
        const gcrt_op_t *o = &ops[i];
        if (o->hw_channel < 32 && !(seen_ch & (1u << o->hw_channel))) {
            seen_ch |= 1u << o->hw_channel;
            fprintf(f, "{\"ph\":\"M\",\"pid\":1,\"tid\":%u,\"name\":\"thread_name\",\"args\":{\"name\":\"channel %u "
                       "(copy priority %u)\"}},\n", o->hw_channel, o->hw_channel, o->copy_priority);
        }
        if (o->engine < 32 && !(seen_ce & (1u << o->engine))) {
            seen_ce |= 1u << o->engine;
            fprintf(f, "{\"ph\":\"M\",\"pid\":2,\"tid\":%u,\"name\":\"thread_name\",\"args\":{\"name\":\"CE%u\"}},\n",
                    o->engine, o->engine);
        }
    }
    bool first = true;
    for (size_t i = 0; i < n; i++) {
        const gcrt_op_t *o = &ops[i];
        if (!o->done) continue;
        for (int track = 0; track < 2; track++) {
            uint64_t t0 = track == 0 ? o->launch_cycle : o->start_cycle;
            fprintf(f, "%s{\"ph\":\"X\",\"pid\":%d,\"tid\":%u,\"ts\":%llu,\"dur\":%llu,\"name\":", first ? "" : ",\n",
                    track + 1, track == 0 ? o->hw_channel : o->engine, (unsigned long long)t0,
                    (unsigned long long)(o->end_cycle - t0));
            first = false;
            json_str(f, o->tag);
            fprintf(f, ",\"args\":{\"bytes\":%llu,\"stream\":%u,\"stream_priority\":%d,\"submit\":%llu,"
                       "\"launch\":%llu,\"start\":%llu,\"end\":%llu,\"kind\":\"%s\"}}",
                    (unsigned long long)o->bytes, o->stream_id, o->stream_priority, (unsigned long long)o->submit_cycle,
                    (unsigned long long)o->launch_cycle, (unsigned long long)o->start_cycle,
                    (unsigned long long)o->end_cycle, o->kind == GCRT_OP_MEMSET ? "memset" : "copy");
        }
    }
    fprintf(f, "\n]}\n");
    int bad = ferror(f);
    bad |= fclose(f);
    if (bad) {
        fprintf(stderr, "timeline: write error on %s\n", path);
        return GCRT_ERROR_INVALID_VALUE;
    }
    return GCRT_SUCCESS;
}

/* ------------------------------------------------------------------ helpers */
typedef struct ctx {
    gcrt_t *rt;
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

static void fill(uint8_t *p, size_t n, uint64_t seed) {
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

static void print_ops(FILE *out, const gcsc_result_t *res) {
    if (!out) return;
    fprintf(out, "%-10s %6s %5s %4s %4s %8s %10s %10s %10s %10s\n", "copy", "stream", "prio", "ch", "CE", "bytes",
            "submit", "start", "end", "cycles");
    for (size_t i = 0; i < res->nops; i++) {
        const gcrt_op_t *o = &res->ops[i];
        fprintf(out, "%-10s %6u %5d %4u %4u %8llu %10llu %10llu %10llu %10llu\n", o->tag, o->stream_id,
                o->stream_priority, o->hw_channel, o->engine, (unsigned long long)o->bytes,
                (unsigned long long)o->submit_cycle, (unsigned long long)o->start_cycle,
                (unsigned long long)o->end_cycle, (unsigned long long)(o->end_cycle - o->start_cycle));
    }
    fprintf(out, "completion order:");
    for (size_t i = 0; i < res->nops; i++) fprintf(out, "%s %s", i ? "," : "", res->ops[res->order[i]].tag);
    fprintf(out, "\n");
}

static bool open_rt(ctx_t *c, const gcrt_config_t *cfg, gcrt_t **rt) {
    gcrt_error_t e = gcrt_open(cfg, rt);
    c->rt = *rt;
    if (e) return chk(c, e, "open the device");
    return true;
}

static bool finish(ctx_t *c, const char *timeline) {
    if (timeline && c->e == GCRT_SUCCESS) return chk(c, gcrt_write_timeline(c->rt, timeline), "timeline");
    return c->e == GCRT_SUCCESS;
}

/* ------------------------------------------------------------------ copy-priority (seed 000) */
gcrt_error_t gcsc_copy_priority(const gcrt_config_t *cfg, FILE *out, const char *timeline, gcsc_result_t *res,
                                char *err, size_t errlen) {
    enum { MLOW1, MLOW2, MLOW3, MHIGH1, MHIGH2, N };
    static const char *const names[N] = {"Mlow1", "Mlow2", "Mlow3", "Mhigh1", "Mhigh2"};
    /* Chigh's slice (3000 cycles) expires during Mhigh1 (40 KiB); Mhigh2 (2 KiB) fits in the
     * next; Mlow copies (6 KiB) are long enough for Chigh's "sem inc" to land during Mlow1. */
    static const uint32_t sizes[N] = {6144, 6144, 6144, 40960, 2048};
    const uint32_t stride = 65536;
    memset(res, 0, sizeof *res);
    ctx_t c = {.err = err, .errlen = errlen};
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
        fill(data, sizeof data, 2024);
        chk(&c, gcrt_write(rt, src, data, sizeof data), "write source");
        if (out)
            fprintf(out, "copy-priority (seed 000): copy priorities %s, Clow = stream priority %d, Chigh = %d, "
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
            print_ops(out, res);
            if (out)
                fprintf(out, "summary: copy-priority %s: %zu copies, %zu bytes differ, semaphores back to %u, %llu cycles\n",
                        c.e == GCRT_SUCCESS && res->bad_bytes == 0 ? "PASSED" : "FAILED", res->nops, res->bad_bytes,
                        res->sem_final, (unsigned long long)res->cycles);
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
    ctx_t c = {.err = err, .errlen = errlen};
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
        fill(data, (size_t)FRAME * frames, 77);
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
    ctx_t c = {.err = err, .errlen = errlen};
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
