/* scenarios.c: runtime scenarios (copy-priority, video-pipeline, prio-latency, kernels) and the Perfetto
 * timeline writer.  See gpucosim/scenarios.h. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "gc_kernels.h"
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
    if (!f) {
        fprintf(stderr, "timeline: cannot write %s\n", path);
        return GCRT_ERROR_INVALID_VALUE;
    }
    /* pid 1: HW channels (tid = channel), pid 2: copy engines (tid = engine), pid 3: the compute
     * engine (kernels, tid 0; present once a kernel ran).  Timestamps are
     * device cycles; the trace says microseconds, so 1 us on screen is one cycle. */
    fprintf(f, "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"time_unit\":\"1 us = 1 device cycle\"},\"traceEvents\":[\n");
    fprintf(f, "{\"ph\":\"M\",\"pid\":1,\"name\":\"process_name\",\"args\":{\"name\":\"HW channels\"}},\n");
    fprintf(f, "{\"ph\":\"M\",\"pid\":2,\"name\":\"process_name\",\"args\":{\"name\":\"copy engines\"}},\n");
    uint32_t seen_ch = 0, seen_ce = 0;
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
            fprintf(f, "{\"ph\":\"M\",\"pid\":3,\"tid\":0,\"name\":\"thread_name\",\"args\":{\"name\":\"SMs\"}},\n");
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
        if (!o->done) continue;
        bool kernel = o->kind == GCRT_OP_KERNEL;
        for (int track = 0; track < 2; track++) {
            uint64_t t0 = track == 0 ? o->launch_cycle : o->start_cycle;
            /* kernels: the compute channel (pid 1) and the compute engine (pid 3, tid 0) */
            int pid = track == 0 ? 1 : kernel ? 3 : 2;
            uint32_t tid = track == 0 ? o->hw_channel : kernel ? 0 : o->engine;
            fprintf(f, "%s{\"ph\":\"X\",\"pid\":%d,\"tid\":%u,\"ts\":%llu,\"dur\":%llu,\"name\":", first ? "" : ",\n",
                    pid, tid, (unsigned long long)t0, (unsigned long long)(o->end_cycle - t0));
            first = false;
            json_str(f, o->tag);
            fprintf(f, ",\"args\":{\"bytes\":%llu,\"stream\":%u,\"stream_priority\":%d,\"submit\":%llu,"
                       "\"launch\":%llu,\"start\":%llu,\"end\":%llu,\"kind\":\"%s\"}}",
                    (unsigned long long)o->bytes, o->stream_id, o->stream_priority, (unsigned long long)o->submit_cycle,
                    (unsigned long long)o->launch_cycle, (unsigned long long)o->start_cycle,
                    (unsigned long long)o->end_cycle,
                    kernel ? "kernel" : o->kind == GCRT_OP_MEMSET ? "memset" : "copy");
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
        gcsc_fill(data, sizeof data, 2024);
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

gcrt_error_t gcsc_kernels(const gcrt_config_t *cfg, const char *image, uint32_t rounds, FILE *out,
                          const char *timeline, gcsc_result_t *res, char *err, size_t errlen) {
    enum { NMAX = 1200, NSHAPES = 5, MAXBUF = 24, NBINS_MAX = 24 };
    memset(res, 0, sizeof *res);
    ctx_t c = {.err = err, .errlen = errlen};
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
        chk(&c, gcrt_load_image(rt, image, &img), image)) {
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
        if (c.e == GCRT_SUCCESS && harvest(&c, res)) {
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
                             "host, %llu cycles\n",
                        res->bad_checks == 0 ? "PASSED" : "FAILED", res->kernels, rounds, rounds == 1 ? "" : "s", nops,
                        res->checks - res->bad_checks, res->checks, (unsigned long long)res->cycles);
        }
        finish(&c, timeline);
    }
    if (img) gcrt_unload_image(rt, img);
    gcrt_close(rt);
    return c.e;
}
