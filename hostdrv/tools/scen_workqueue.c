/* scen_workqueue.c: the work-queue scenario and the work-queue bench measurements (issue 16,
 * seed 002).  See scen_workqueue.h. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "gc_workq.h"
#include "gc_workq_kernels.h"
#include "gpucosim/compute.h"
#include "scen_workqueue.h"
#include "scenarios.h"
#include "gpucosim/workq.h"
#include "gpucosim_spec.h"

/* Buffer layout of the scenario (one vidmem allocation) */
enum {
    B_TMDS = 0,      /* 2 child TMDs, 256 each */
    B_CPARAM = 512,  /* 2 child parameter blocks, 16 each */
    B_MARKS = 576,   /* 2 x 2 marks */
    B_SRC = 1024,    /* 512 bytes */
    B_DST = 1536,    /* 512 bytes */
    B_CREC = 2048,   /* 2 copy records, 16 each */
    B_RECS = 2112,   /* 4 thread records */
    B_ITEMS = 2176,  /* 4 item records */
    B_FLAGS = 2240,
    B_COUNT = 2244,
    B_BYTES = 4096,
};
#define CHILD_CTAS 2u
#define CHILD_THREADS 4u
/* K's threads wait for each other: the ref model, which interprets a CTA whole at its dispatch,
 * runs a waiting CTA up to its horizon first (about 10^6 cycles) */
#define WAIT_CYCLES 20000000u

typedef struct sctx {
    gcrt_t *rt;
    gc_elf_t *img;
    gcrt_workq_t *w;
    char *err;
    size_t errlen;
    gcrt_error_t e;
    FILE *out;
    gcsc_wq_result_t *res;
} sctx_t;

static bool ok(sctx_t *c, gcrt_error_t e, const char *what) {
    if (e == GCRT_SUCCESS) return true;
    if (c->e == GCRT_SUCCESS) {
        c->e = e;
        const char *m = c->w && *gcrt_workq_message(c->w) ? gcrt_workq_message(c->w)
                        : c->rt && *gcrt_last_message(c->rt) ? gcrt_last_message(c->rt)
                                                              : gcrt_error_string(e);
        if (c->err) snprintf(c->err, c->errlen, "%s: %s: %s", what, gcrt_error_name(e), m);
    }
    return false;
}

static void check(sctx_t *c, bool good, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void check(sctx_t *c, bool good, const char *fmt, ...) {
    c->res->rules++;
    c->res->bad_rules += !good;
    if (!c->out) return;
    va_list ap;
    va_start(ap, fmt);
    fprintf(c->out, "check: ");
    vfprintf(c->out, fmt, ap);
    fprintf(c->out, ": %s\n", good ? "ok" : "FAILED");
    va_end(ap);
}

/* Open the runtime (printing "device: backend X" once it opened), load the image, turn the task
 * log on; with `workq` also the CPU-owned channel of the work queues. */
static bool sopen(sctx_t *c, const gcrt_config_t *cfg, const char *image, bool workq) {
    char why[400];
    gcrt_error_t e = gcrt_open_ex(cfg, &c->rt, why, sizeof why);
    if (e != GCRT_SUCCESS) {
        c->e = e;
        if (c->err) snprintf(c->err, c->errlen, "opening the device: %s", why);
        return false;
    }
    if (c->out) fprintf(c->out, "device: backend %s\n", cfg->device.backend);
    if (!image) return ok(c, GCRT_ERROR_INVALID_VALUE, "no kernel image");
    uint32_t hw;
    return ok(c, gcrt_compute_channel(c->rt, &hw), "compute channel") && ok(c, gcrt_load_image(c->rt, image, &c->img), image) &&
           ok(c, gcrt_tmu_log_enable(c->rt, 0), "task log") && (!workq || ok(c, gcrt_workq_open(c->rt, &c->w), "work queue"));
}

static gcrt_error_t sclose(sctx_t *c) {
    gcrt_workq_close(c->w);
    if (c->img) gcrt_unload_image(c->rt, c->img);
    if (c->rt) gcrt_close(c->rt);
    return c->e;
}

static bool is_ref(const gcrt_config_t *cfg) { return cfg->device.backend && !strcmp(cfg->device.backend, "ref"); }

static uint64_t stamp(const uint32_t *w) { return ((uint64_t)w[3] << 32) | w[2]; }

/* The TMU log's first record of `kind` for `task`, or NULL. */
static const gcrt_tmu_record_t *find(const gcrt_tmu_record_t *lg, size_t n, uint32_t kind, uint32_t task, size_t *count) {
    const gcrt_tmu_record_t *r = NULL;
    *count = 0;
    for (size_t i = 0; i < n; i++)
        if (lg[i].kind == kind && lg[i].task == task) {
            if (!r) r = &lg[i];
            ++*count;
        }
    return r;
}

typedef struct span {
    int pid;
    const char *name;
    uint64_t t0, t1;
} span_t;

static bool write_timeline(sctx_t *c, const char *path, const span_t *sp, size_t n, const char *const *tracks,
                           size_t ntracks) {
    errno = 0;
    FILE *f = fopen(path, "w");
    if (!f) {
        c->e = GCRT_ERROR_INVALID_VALUE;
        if (c->err) snprintf(c->err, c->errlen, "timeline: cannot write '%s': %s", path, strerror(errno));
        return false;
    }
    fprintf(f, "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"time_unit\":\"1 us = 1 device cycle\"},\"traceEvents\":[\n");
    for (size_t i = 0; i < ntracks; i++)
        fprintf(f, "{\"ph\":\"M\",\"pid\":%zu,\"name\":\"process_name\",\"args\":{\"name\":\"%s\"}},\n", i + 1, tracks[i]);
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%s{\"ph\":\"X\",\"pid\":%d,\"tid\":0,\"ts\":%llu,\"dur\":%llu,\"name\":\"%s\"}", i ? ",\n" : "",
                sp[i].pid, (unsigned long long)sp[i].t0,
                (unsigned long long)(sp[i].t1 > sp[i].t0 ? sp[i].t1 - sp[i].t0 : 0), sp[i].name);
    fprintf(f, "\n]}\n");
    if (fclose(f) != 0) {
        c->e = GCRT_ERROR_INVALID_VALUE;
        if (c->err) snprintf(c->err, c->errlen, "timeline: cannot write '%s'", path);
        return false;
    }
    return true;
}

/* The two child TMDs (wq_child, CHILD_CTAS x CHILD_THREADS) and their parameter blocks. */
static bool child_tmds(sctx_t *c, uint64_t buf) {
    uint32_t grid[3] = {CHILD_CTAS, 1, 1}, block[3] = {CHILD_THREADS, 1, 1};
    for (uint32_t t = 0; t < 2; t++) {
        gc_wq_child_params_t cp = {gcrt_kernel_ptr(buf + B_MARKS + 8u * t), t};
        uint64_t tmd = buf + B_TMDS + 256u * t;
        if (!ok(c, gcrt_write(c->rt, buf + B_CPARAM + 16u * t, &cp, sizeof cp), "child parameters") ||
            !ok(c, gcrt_workq_write_tmd(c->w, c->img, "wq_child", grid, block, buf + B_CPARAM + 16u * t, tmd),
                "child TMD"))
            return false;
        char nm[16];
        snprintf(nm, sizeof nm, "child%u", t);
        gcrt_tmu_name_task(c->rt, (uint32_t)(tmd >> 8), nm);
    }
    return true;
}

/* The scenario's buffer (B_*): marks, destination and records zero, the copies' source filled (src). */
static bool seed_buffers(sctx_t *c, uint64_t *buf, uint8_t src[512]) {
    static const uint8_t zero[B_BYTES - B_MARKS];
    gcsc_fill(src, 512, 16);
    return ok(c, gcrt_malloc(c->rt, buf, B_BYTES), "buffers") &&
           ok(c, gcrt_write((c)->rt, *buf + B_MARKS, zero, sizeof zero), "buffers") &&
           ok(c, gcrt_write((c)->rt, *buf + B_SRC, src, 512), "buffers");
}

static const char *const entry_names[2][2] = {{"PBS1: launch child0", "PBS2: launch child1"},
                                              {"PBS1: copy 0", "PBS2: copy 1"}};
static const char *const gate_names[2] = {"acquire A", "acquire B"};

static void gpu_owned(sctx_t *c, const gcrt_config_t *cfg, const char *timeline) {
    gc_device_t *dev = gcrt_device(c->rt);
    gcsc_wq_result_t *res = c->res;
    gcrt_wq_t *q[2] = {NULL, NULL};
    uint64_t buf = 0;
    gcrt_wq_config_t qc;
    gcrt_wq_config_init(&qc);
    qc.entries = 16;
    qc.name = "gpu-compute";
    if (!ok(c, gcrt_wq_create(c->w, &qc, &q[0]), "compute queue")) return;
    qc.runlist = 1;
    qc.name = "gpu-copy";
    if (!ok(c, gcrt_wq_create(c->w, &qc, &q[1]), "copy queue")) return;
    uint8_t src[512];
    if (!seed_buffers(c, &buf, src) || !child_tmds(c, buf)) return;
    gc_wq_seed_params_t p = {gcrt_wq_ptr(q[0]), gcrt_wq_ptr(q[1]), gcrt_kernel_ptr(buf + B_TMDS), gcrt_kernel_ptr(buf + B_MARKS),
                             gcrt_kernel_ptr(buf + B_SRC), gcrt_kernel_ptr(buf + B_DST), gcrt_kernel_ptr(buf + B_CREC),
                             gcrt_kernel_ptr(buf + B_RECS), gcrt_kernel_ptr(buf + B_ITEMS), gcrt_kernel_ptr(buf + B_FLAGS),
                             gcrt_kernel_ptr(buf + B_COUNT)};
    gcrt_wq_request_t rq;
    gcrt_wq_request_init(&rq, c->img, "wq_seed", &p, sizeof p);
    rq.grid[0] = 4;
    rq.producers[0] = rq.producers[1] = 2;
    if (c->out)
        fprintf(c->out, "CPU-owned channel %u: launch K (wq_seed, 4 threads), WFI, release X, acquire Y of each queue\n"
                "GPU-owned queue '%s' (channel %u, runlist 0) and '%s' (channel %u, runlist 1), 16 entries each: "
                "acquire X at GP_GET 0, GP_PUT %u\n", gcrt_workq_channel(c->w), gcrt_wq_name(q[0]), gcrt_wq_channel(q[0]),
                gcrt_wq_name(q[1]), gcrt_wq_channel(q[1]), 15u);
    gcrt_wq_info_t before[2], in[2];
    if (!ok(c, gcrt_workq_request(c->w, q, 2, &rq), "request") || !ok(c, gcrt_wq_info(q[0], &before[0]), "queue") ||
        !ok(c, gcrt_wq_info(q[1], &before[1]), "queue") || !ok(c, gcrt_workq_wait(c->w, WAIT_CYCLES), "request") ||
        !ok(c, gcrt_wq_info(q[0], &in[0]), "queue") || !ok(c, gcrt_wq_info(q[1], &in[1]), "queue") ||
        !ok(c, gcrt_tmu_log_sync(c->rt), "task log"))
        return;
    gc_wq_thread_rec_t recs[4];
    uint32_t items[4][4], crec[2][4], marks[4], count = 0;
    uint8_t dst[512];
    if (!ok(c, gcrt_read((c)->rt, buf + B_RECS, recs, sizeof recs), "records") ||
        !ok(c, gcrt_read((c)->rt, buf + B_ITEMS, items, sizeof items), "records") ||
        !ok(c, gcrt_read((c)->rt, buf + B_CREC, crec, sizeof crec), "records") ||
        !ok(c, gcrt_read((c)->rt, buf + B_MARKS, marks, sizeof marks), "records") ||
        !ok(c, gcrt_read((c)->rt, buf + B_COUNT, &count, 4), "records") ||
        !ok(c, gcrt_read((c)->rt, buf + B_DST, dst, sizeof dst), "records"))
        return;
    const gcrt_tmu_record_t *lg;
    size_t nlg = 0;
    uint64_t lost = 0;
    if (!ok(c, gcrt_tmu_log(c->rt, &lg, &nlg, &lost), "task log")) return;
    res->k_start = in[0].k_start;
    res->k_end = in[0].k_end;
    res->done = in[0].handback;
    res->gp_put_writes = in[0].gp_put_writes + in[1].gp_put_writes;
    bool ref = is_ref(cfg);
    /* what ran, per queue, in position order */
    uint64_t gate[2][4] = {{0}}, wend[4] = {0}, cstart[4] = {0};
    uint32_t gpay[2][4];
    for (uint32_t k = 0; k < 2; k++) {
        uint32_t a = 2 * k, b = a + 1; /* a reserved first, released last */
        for (uint32_t j = 0; j < 4; j++) /* positions 0 (arming), pos_a, pos_a + 1 (A), pos_b + 1 (B) */
            gcrt_wq_gate(q[k], j == 0 ? 0 : j == 1 ? recs[a].pos - 1 : j == 2 ? recs[a].pos + 1 : recs[b].pos + 1,
                         &gpay[k][j], &gate[k][j]);
    }
    size_t nstart, ncomp;
    for (uint32_t t = 0; t < 2; t++) {
        uint32_t task = (uint32_t)((buf + B_TMDS + 256u * t) >> 8);
        const gcrt_tmu_record_t *s = find(lg, nlg, GC_TMU_EVENT_START, task, &nstart);
        const gcrt_tmu_record_t *e = find(lg, nlg, GC_TMU_EVENT_COMPLETE, task, &ncomp);
        cstart[t] = s ? s->cycle : 0;
        wend[t] = e ? e->cycle : 0;
        res->items += nstart == 1 && ncomp == 1;
        check(c, nstart == 1 && ncomp == 1 && marks[2 * t] == GC_WQ_CHILD_MARK(t) && marks[2 * t + 1] == GC_WQ_CHILD_MARK(t),
              "child%u ran exactly once (one START, one COMPLETE in the task log, its %u CTAs' marks)", t, CHILD_CTAS);
        /* the copy engine's record: payload, start (low word), 64-bit end stamp */
        wend[2 + t] = ((uint64_t)crec[t][3] << 32) | crec[t][2];
        cstart[2 + t] = wend[2 + t] - (uint32_t)((uint32_t)wend[2 + t] - crec[t][1]);
        bool same = !memcmp(dst + 256 * t, src + 256 * t, 256);
        res->items += same && crec[t][0] == 3 + t;
        check(c, same && crec[t][0] == 3 + t, "copy %u ran (256 bytes equal, CE record payload %u)", t, crec[t][0]);
    }
    check(c, count == 4, "four entries of work ran, each once (their IADD count is %u)", count);
    if (c->out) {
        fprintf(c->out, "K: launched at %llu, ended at %llu; hand-back (acquire Y passed) at %llu\n",
                (unsigned long long)res->k_start, (unsigned long long)res->k_end, (unsigned long long)res->done);
        for (uint32_t t = 0; t < 4; t++) {
            fprintf(c->out, "thread %u: %s queue, positions %u..%u, status %u, released at cycle %u, its entry ran at %llu",
                    t, t < 2 ? "compute" : "copy", recs[t].pos, recs[t].pos + 1, recs[t].status, recs[t].release,
                    (unsigned long long)stamp(items[t]));
            /* the block's stamped release, its IADD, then the launch: decode, TMD fetch, TMU, dispatch */
            if (t < 2 && cstart[t] > stamp(items[t]))
                fprintf(c->out, ", its child's CTAs started at %llu (+%llu: the block's IADD, then SEND_PCAS_A/B, "
                        "the TMD read, the TMU, the dispatch)", (unsigned long long)cstart[t],
                        (unsigned long long)(cstart[t] - stamp(items[t])));
            fputc('\n', c->out);
        }
    }
    for (uint32_t k = 0; k < 2; k++) {
        uint32_t a = 2 * k, b = a + 1;
        const char *qn = gcrt_wq_name(q[k]);
        check(c, recs[a].status == GC_WQ_OK && recs[b].status == GC_WQ_OK && recs[a].pos < recs[b].pos &&
                     (int32_t)(recs[b].release - recs[a].release) < 0,
              "%s: thread %u reserved before thread %u and released after it", qn, a, b);
        check(c, stamp(items[a]) < stamp(items[b]) && items[a][0] == a + 1 && items[b][0] == b + 1,
              "%s: PBS1 ran before PBS2 (entry order)", qn);
        check(c, gate[k][0] > res->k_end && gpay[k][0] == 0, "%s: acquire X passed after K ended (%llu > %llu)", qn,
              (unsigned long long)gate[k][0], (unsigned long long)res->k_end);
        bool after = true;
        for (uint32_t t = a; t <= b; t++) {
            uint64_t g = gate[k][t == a ? 1 : 2];
            after &= stamp(items[t]) > g && cstart[t] > stamp(items[t]);
            if (!ref) after &= (int32_t)((uint32_t)g - recs[t].release) > 0;
        }
        check(c, after, "%s: no entry ran before its thread released it (gate stamps after the releases%s, the work "
              "after its gate)", qn, ref ? ": not comparable on ref, whose threads' cycles are modelled" : "");
        check(c, before[k].gp_put_writes == 1 && in[k].gp_put_writes == 2 && in[k].y == 1 &&
                     in[k].gp_put == (in[k].shadow_put % 16u),
              "%s: the CPU wrote GP_PUT at set-up only (1 write before the hand-back, the re-arm after it)", qn);
    }
    check(c, lost == 0, "no task log record lost");
    res->cycles = gc_device_cycles(dev);
    if (!timeline || c->e) return;
    span_t sp[32];
    size_t n = 0;
    sp[n++] = (span_t){1, "launch K", res->k_start, res->k_end};
    sp[n++] = (span_t){1, "WFI, release X, acquire Y", res->k_end, res->done};
    for (uint32_t k = 0; k < 2; k++) {
        uint32_t a = 2 * k;
        sp[n++] = (span_t){2 + (int)k, "acquire X", res->k_start, gate[k][0]};
        for (uint32_t j = 0; j < 2; j++) {
            sp[n++] = (span_t){2 + (int)k, entry_names[k][j], stamp(items[a + j]), wend[a + j]};
            sp[n++] = (span_t){2 + (int)k, gate_names[j], wend[a + j], gate[k][2 + j]};
        }
        sp[n++] = (span_t){2 + (int)k, "close: WFI, release Y, acquire X", gate[k][3], res->done};
    }
    for (uint32_t t = 0; t < 2; t++) sp[n++] = (span_t){4, t ? "child1" : "child0", cstart[t], wend[t]};
    static const char *const tracks[] = {"CPU-owned channel", "GPU-owned queue gpu-compute", "GPU-owned queue gpu-copy",
                                         "compute engine (child tasks)"};
    write_timeline(c, timeline, sp, n, tracks, 4);
}

/* The prior art: K records its decisions and ends; the host, once it sees K's end, launches the two
 * children and the two copies itself. */
static void cpu_created(sctx_t *c, const char *timeline) {
    gc_device_t *dev = gcrt_device(c->rt);
    gcsc_wq_result_t *res = c->res;
    uint64_t buf = 0;
    gcrt_stream_t *s = NULL;
    uint8_t src[512];
    if (!seed_buffers(c, &buf, src) || !ok(c, gcrt_stream_create(c->rt, &s), "stream")) return;
    gc_wq_seed_params_t p = {0};
    p.recs = gcrt_kernel_ptr(buf + B_RECS);
    uint32_t g4[3] = {4, 1, 1}, one[3] = {1, 1, 1}, cg[3] = {CHILD_CTAS, 1, 1}, cb[3] = {CHILD_THREADS, 1, 1};
    if (!ok(c, gcrt_launch(c->rt, s, c->img, "wq_seed", g4, one, &p, sizeof p, 0), "launch K") ||
        !ok(c, gcrt_stream_synchronize(c->rt, s), "K"))
        return;
    for (uint32_t t = 0; t < 2; t++) {
        gc_wq_child_params_t cp = {gcrt_kernel_ptr(buf + B_MARKS + 8u * t), t};
        if (!ok(c, gcrt_launch(c->rt, s, c->img, "wq_child", cg, cb, &cp, sizeof cp, 0), "launch child")) return;
    }
    for (uint32_t t = 0; t < 2; t++)
        if (!ok(c, gcrt_memcpy_async(c->rt, buf + B_DST + 256u * t, buf + B_SRC + 256u * t, 256,
                                     GCRT_MEMCPY_DEVICE_TO_DEVICE, s, t ? "copy 1" : "copy 0"), "copy"))
            return;
    if (!ok(c, gcrt_stream_synchronize(c->rt, s), "work")) return;
    const gcrt_op_t *ops;
    size_t nops;
    if (!ok(c, gcrt_ops(c->rt, &ops, &nops), "ops") || nops < 5) return;
    uint32_t marks[4];
    uint8_t dst[512];
    if (!ok(c, gcrt_read((c)->rt, buf + B_MARKS, marks, sizeof marks), "records") ||
        !ok(c, gcrt_read((c)->rt, buf + B_DST, dst, sizeof dst), "records"))
        return;
    res->k_start = ops[0].start_cycle;
    res->k_end = ops[0].end_cycle;
    for (size_t i = 1; i < nops; i++) res->done = ops[i].end_cycle > res->done ? ops[i].end_cycle : res->done;
    res->items = 4;
    if (c->out)
        for (size_t i = 0; i < nops; i++)
            fprintf(c->out, "%-8s %s: submitted at %llu, started at %llu, ended at %llu\n", i ? ops[i].tag : "K",
                    ops[i].kind == GCRT_OP_KERNEL ? "kernel" : "copy", (unsigned long long)ops[i].submit_cycle,
                    (unsigned long long)ops[i].start_cycle, (unsigned long long)ops[i].end_cycle);
    bool good = !memcmp(dst, src, sizeof dst);
    for (uint32_t t = 0; t < 4; t++) good &= marks[t] == GC_WQ_CHILD_MARK(t / 2);
    check(c, good, "the children's marks and the copies' bytes are right");
    check(c, ops[1].submit_cycle >= ops[0].end_cycle, "the CPU created the work after K ended (%llu >= %llu)",
          (unsigned long long)ops[1].submit_cycle, (unsigned long long)ops[0].end_cycle);
    res->cycles = gc_device_cycles(dev);
    if (timeline && gcrt_write_timeline(c->rt, timeline) != GCRT_SUCCESS) {
        c->e = GCRT_ERROR_INVALID_VALUE;
        if (c->err) snprintf(c->err, c->errlen, "timeline: cannot write '%s'", timeline);
    }
}

gcrt_error_t gcsc_work_queue(const gcrt_config_t *cfg, const char *image, bool prior_art, FILE *out,
                             const char *timeline, gcsc_wq_result_t *res, char *err, size_t errlen) {
    if (!cfg || !res) return GCRT_ERROR_INVALID_VALUE;
    memset(res, 0, sizeof *res);
    res->prior_art = prior_art;
    sctx_t c = {.err = err, .errlen = errlen, .out = out, .res = res};
    if (err && errlen) err[0] = 0;
    if (sopen(&c, cfg, image, !prior_art)) {
        if (prior_art) cpu_created(&c, timeline);
        else gpu_owned(&c, cfg, timeline);
    }
    if (out && c.e == GCRT_SUCCESS)
        fprintf(out, "summary: work-queue%s %s: %u of %u checks passed, %u items, K launch to the last work's end "
                "%llu cycles, GP_PUT writes %u\n", prior_art ? " (prior art: the CPU creates the work)" : "",
                res->bad_rules ? "FAILED" : "PASSED", res->rules - res->bad_rules, res->rules, res->items,
                (unsigned long long)(res->done - res->k_start), res->gp_put_writes);
    return sclose(&c);
}

/* ------------------------------------------------------------------ bench */
/* Open the runtime and the workq, one GPU-owned compute queue of `entries`, `bytes` of vidmem. */
static bool bench_open(sctx_t *c, const gcrt_config_t *cfg, const char *image, uint32_t entries, uint64_t bytes,
                       gcrt_wq_t **q, uint64_t *buf) {
    gcrt_wq_config_t qc;
    gcrt_wq_config_init(&qc);
    qc.entries = entries;
    return sopen(c, cfg, image, true) && ok(c, gcrt_wq_create(c->w, &qc, q), "queue") &&
           ok(c, gcrt_malloc(c->rt, buf, bytes), "buffer");
}
gcrt_error_t gcsc_wq_latency(const gcrt_config_t *cfg, const char *image, uint64_t host_latency,
                             gcsc_wq_latency_t *out, char *err, size_t errlen) {
    gcsc_wq_result_t res;
    memset(&res, 0, sizeof res);
    sctx_t c = {.err = err, .errlen = errlen, .res = &res};
    if (!out) return GCRT_ERROR_INVALID_VALUE;
    memset(out, 0, sizeof *out);
    out->host_latency = host_latency;
    gcrt_wq_t *q = NULL;
    uint64_t buf = 0;
    if (!bench_open(&c, cfg, image, 64, 256, &q, &buf)) return sclose(&c);
    gc_device_t *dev = gcrt_device(c.rt);
    uint32_t zero[64] = {0};
    gc_wq_latency_params_t p = {gcrt_wq_ptr(q), gcrt_kernel_ptr(buf), gcrt_kernel_ptr(buf + 16), 1};
    uint32_t r[12], pt[6];
    gcrt_wq_request_t rq;
    gcrt_wq_request_init(&rq, c.img, "wq_latency", &p, sizeof p);
    rq.open_early = true; /* the queue is open while the thread runs */
    if (ok(&c, gcrt_write((&c)->rt, buf, zero, sizeof zero), "buffer") &&
        ok(&c, gcrt_workq_request(c.w, &q, 1, &rq), "request") && ok(&c, gcrt_workq_wait(c.w, 0), "request") &&
        ok(&c, gcrt_read(c.rt, buf, r, sizeof r), "records") &&
        ok(&c, gcrt_read(c.rt, buf + GC_WQ_LATENCY_PARTS_OFF, pt, sizeof pt), "records")) {
        /* t0[k] at buf + 4 k; item record k at buf + 16 + 16 k: {payload, 0, 64-bit stamp} */
        out->queue = (uint32_t)(r[10] - r[1]); /* round 1 */
        uint32_t at[7] = {r[1], pt[0], pt[1], pt[2], pt[3], pt[4], pt[5]};
        for (int i = 0; i < 6; i++) out->q_parts[i] = at[i + 1] - at[i];
        out->q_parts[6] = r[10] - pt[5];
    }
    /* host round trip: K decides and ends; the host sees the end, reacts, submits the work.  The
     * reaction (interrupt or poll, driver work, doorbell: host_latency) is counted from the
     * kernel's end as the hardware records it (its COMPLETE task-log record): the synchronize that
     * finds the end in memory returns a little later (its polls, the stream's event), and that
     * wait is taken out of the reaction, so the host is charged neither more nor less than
     * host_latency.  A host_latency shorter than that wait cannot be honoured: the reaction is
     * then the wait. */
    p.use_queue = 0;
    gcrt_stream_t *s = NULL;
    uint32_t g[3] = {1, 1, 1};
    const gcrt_op_t *ops = NULL;
    size_t nops = 0;
    if (c.e || !ok(&c, gcrt_write(c.rt, buf, zero, sizeof zero), "buffer") ||
        !ok(&c, gcrt_stream_create(c.rt, &s), "stream") ||
        !ok(&c, gcrt_launch(c.rt, s, c.img, "wq_latency", g, g, &p, sizeof p, 0), "launch") ||
        !ok(&c, gcrt_stream_synchronize(c.rt, s), "kernel") || !ok(&c, gcrt_ops(c.rt, &ops, &nops), "kernel record"))
        return sclose(&c);
    uint64_t k_end = 0, now = gc_device_cycles(dev);
    for (size_t i = 0; i < nops; i++)
        if (ops[i].kind == GCRT_OP_KERNEL) k_end = ops[i].end_cycle;
    if (!k_end || k_end > now) {
        ok(&c, GCRT_ERROR_BACKEND, "kernel record (no COMPLETE task-log record)");
        return sclose(&c);
    }
    uint64_t react = now - k_end > host_latency ? now - k_end : host_latency;
    if (react > now - k_end && gc_device_run(dev, react - (now - k_end)) != GC_OK) {
        ok(&c, GCRT_ERROR_BACKEND, "host reaction");
        return sclose(&c);
    }
    /* the release's two beats land one after the other: wait for the stamp */
    if (!ok(&c, gcrt_workq_host_release(c.w, buf + 16, 1), "host release")) return sclose(&c);
    for (uint64_t spent = 0; spent < 2000000u; spent += 4) {
        if (!ok(&c, gcrt_read(c.rt, buf, r, sizeof r), "records")) break;
        if (r[4] == 1u && (r[6] | r[7])) {
            out->host = (uint32_t)(r[6] - r[0]);
            /* the parts: t0 -> the kernel's end -> the reaction -> the work's stamp (doorbell,
             * GPFIFO entry and pushbuffer reads, decode, release) */
            out->h_parts[0] = (uint32_t)k_end - r[0];
            out->h_parts[1] = react;
            out->h_parts[2] = (uint32_t)(r[6] - (uint32_t)(k_end + react));
            break;
        }
        if (gc_device_run(dev, 4) != GC_OK) {
            ok(&c, GCRT_ERROR_BACKEND, "waiting for the host's release");
            break;
        }
    }
    return sclose(&c);
}

gcrt_error_t gcsc_wq_throughput(const gcrt_config_t *cfg, const char *image, uint32_t threads, uint32_t entries,
                                double *items_per_kcycle, uint32_t *items, char *err, size_t errlen) {
    gcsc_wq_result_t res;
    memset(&res, 0, sizeof res);
    sctx_t c = {.err = err, .errlen = errlen, .res = &res};
    if (!items_per_kcycle || !items || threads == 0 || threads % 32u) return GCRT_ERROR_INVALID_VALUE;
    *items_per_kcycle = 0;
    *items = 0;
    gcrt_wq_t *q = NULL;
    uint64_t buf = 0;
    size_t ibytes = 16u * (entries + 8u), rbytes = 16u * threads * 64u;
    if (!bench_open(&c, cfg, image, entries, ibytes + rbytes + 64, &q, &buf)) return sclose(&c);
    uint8_t *zero = calloc(1, ibytes + rbytes + 64);
    bool wrote = zero && ok(&c, gcrt_write((&c)->rt, buf, zero, ibytes + rbytes + 64), "buffer");
    free(zero);
    /* rounds of 1..4 blocks each until the queue fills: every thread keeps producing */
    gc_wq_stress_params_t p = {gcrt_wq_ptr(q), gcrt_kernel_ptr(buf), 1, 0, gcrt_kernel_ptr(buf + ibytes + 64), 7, 4, 0, 64};
    gcrt_wq_request_t rq;
    gcrt_wq_request_init(&rq, c.img, "wq_stress", &p, sizeof p);
    rq.grid[0] = threads / 32u;
    rq.block[0] = 32;
    rq.open_early = true;
    uint32_t (*it)[4] = calloc(entries + 8u, 16);
    if (wrote && it && ok(&c, gcrt_workq_request(c.w, &q, 1, &rq), "request") && ok(&c, gcrt_workq_wait(c.w, 0), "request") &&
        ok(&c, gcrt_read((&c)->rt, buf, it, ibytes), "records")) {
        uint64_t first = UINT64_MAX, last = 0;
        for (uint32_t i = 0; i < entries + 8u; i++) {
            if (!(it[i][0] & 0x40000000u)) continue;
            uint64_t s = stamp(it[i]);
            first = s < first ? s : first;
            last = s > last ? s : last;
            ++*items;
        }
        if (*items > 1) *items_per_kcycle = 1000.0 * (*items - 1) / (double)(last - first);
    }
    free(it);
    return sclose(&c);
}
