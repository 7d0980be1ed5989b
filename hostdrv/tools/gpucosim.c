/* gpucosim: the command-line front end.
 *
 *   gpucosim list
 *   gpucosim run <scenario> [--backend rtl|sc|ref] [--seed N] [--waves FILE.fst] [--timeline FILE.json]
 *                [--bytes N] [--stall PCT] [--no-copy-priorities] [--frames N] [--image FILE] [--rounds N] ...
 *
 * Scenarios print what happened with cycle numbers and end with a one-line summary; the exit
 * status is 0 only if every check of the scenario passed.  With --backend sc the whole scenario,
 * driver included, runs in an SC_THREAD of the SystemC top (gc_sc_run, gpucosim/sc.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpucosim/backend.h"
#include "gpucosim/hostdrv.h"
#include "gpucosim/sc.h"
#include "gpucosim/scenarios.h"
#include "gpucosim_spec.h"

/* where `make` put the kernel image (build/firmware); --image overrides it */
#ifndef GC_FIRMWARE_DIR
#define GC_FIRMWARE_DIR "build/firmware"
#endif

typedef struct opts {
    gc_device_config_t dev;
    uint32_t bytes;
    int quiet;
    const char *timeline;   /* runtime scenarios: Perfetto JSON */
    bool no_copy_prio;      /* runtime scenarios: seed 000's prior art */
    uint32_t frames;        /* video-pipeline */
    uint32_t copy_prios;    /* runtime: copy HW channels / internal priorities */
    uint32_t timeslice;     /* runtime: copy channel time slice */
    const char *image;      /* kernels: the kernel image (ELF) */
    uint32_t rounds;        /* kernels */
    bool backend_stats;     /* runtime scenarios: the backend prints its open / close lines */
    bool no_evict;          /* eviction: TMU_CTRL.NO_EVICT (the prior art) */
    bool prior_art;         /* childless-parent: ParentA at the lowest device priority */
} opts_t;

typedef int (*scenario_fn)(const opts_t *o);

typedef struct scenario {
    const char *name;
    const char *doc;
    scenario_fn fn;
} scenario_t;


#define TRY(dev, expr)                                                                              \
    do {                                                                                            \
        gc_status_t st_ = (expr);                                                                   \
        if (st_ != GC_OK) {                                                                         \
            fprintf(stderr, "gpucosim: %s failed: %s: %s\n", #expr, gc_status_str(st_),             \
                    gc_device_last_error(dev));                                                     \
            goto out;                                                                               \
        }                                                                                           \
    } while (0)

/* The default scenario: host buffer -> vidmem -> host buffer through copy engine 0 on one GPFIFO
 * channel, a copy-engine semaphore release after the first copy and a host release at the end. */
static int scenario_copy(const opts_t *o) {
    gc_device_config_t cfg = o->dev;
    cfg.poll_cycles = 1; /* see each semaphore on the cycle it lands */
    gc_device_t *dev = NULL;
    gc_channel_t *ch = NULL;
    uint8_t *want = malloc(o->bytes), *got = malloc(o->bytes);
    int ok = 0;
    if (!want || !got) goto out;
    TRY(dev, gc_device_open(&cfg, &dev));
    printf("device: backend %s, %u channels, seed %" PRIu64 "\n", cfg.backend, GC_NUM_CHANNELS,
           gc_device_seed(dev));
    TRY(dev, gc_channel_open(dev, NULL, &ch));
    gc_buf_t src, vid, dst, sem;
    TRY(dev, gc_mem_alloc(dev, GC_MEM_SYSMEM, o->bytes, 64, &src));
    TRY(dev, gc_mem_alloc(dev, GC_MEM_VIDMEM, o->bytes, 64, &vid));
    TRY(dev, gc_mem_alloc(dev, GC_MEM_SYSMEM, o->bytes, 64, &dst));
    TRY(dev, gc_mem_alloc(dev, GC_MEM_SYSMEM, 64, 64, &sem));
    gcsc_fill(want, o->bytes, gc_device_seed(dev));
    uint8_t zero[64] = {0};
    TRY(dev, gc_mem_write(dev, src.addr, want, o->bytes));
    TRY(dev, gc_mem_write(dev, sem.addr, zero, sizeof zero));
    uint32_t words[64];
    gc_pushbuf_t pb;
    gc_pb_init(&pb, words, 64);
    gc_pb_copy(&pb, 4, vid.addr, src.addr, o->bytes, true, sem.addr, 1);
    gc_pb_copy(&pb, 4, dst.addr, vid.addr, o->bytes, true, sem.addr + 4, 2);
    gc_pb_sem_release(&pb, sem.addr + 8, 0xC0FFEE, false, true);
    printf("channel %u: GPFIFO ring of %u entries, pushbuffer of %u dwords\n", gc_channel_id(ch), 64u, pb.len);
    printf("  copy 1: sysmem 0x%010" PRIx64 " -> vidmem 0x%010" PRIx64 ", %u bytes, CE releases sem[0] = 1\n",
           src.addr, vid.addr, o->bytes);
    printf("  copy 2: vidmem 0x%010" PRIx64 " -> sysmem 0x%010" PRIx64 ", %u bytes, CE releases sem[1] = 2\n",
           vid.addr, dst.addr, o->bytes);
    printf("  host:   SEM_EXECUTE RELEASE (WFI) sem[2] = 0xC0FFEE\n");
    uint64_t t0 = gc_device_cycles(dev), t1 = 0, t2 = 0, t3 = 0;
    TRY(dev, gc_channel_submit(ch, &pb));
    printf("cycle %8" PRIu64 ": GP_PUT doorbell\n", t0);
    TRY(dev, gc_sem_wait(dev, sem.addr, 1, &t1));
    printf("cycle %8" PRIu64 ": sem[0] = 1   copy 1 done (%" PRIu64 " cycles, %.2f bytes/cycle)\n", t1, t1 - t0,
           (double)o->bytes / (double)(t1 - t0));
    TRY(dev, gc_sem_wait(dev, sem.addr + 4, 2, &t2));
    printf("cycle %8" PRIu64 ": sem[1] = 2   copy 2 done (%" PRIu64 " cycles)\n", t2, t2 - t1);
    TRY(dev, gc_sem_wait(dev, sem.addr + 8, 0xC0FFEE, &t3));
    printf("cycle %8" PRIu64 ": sem[2] = 0xC0FFEE   host release\n", t3);
    TRY(dev, gc_channel_wait_idle(ch));
    uint32_t get = 0, methods = 0, ce_busy = 0;
    TRY(dev, gc_channel_gp_get(ch, &get));
    TRY(dev, gc_mmio_read(dev, GC_REG_CHANNEL_METHODS(gc_channel_id(ch)), &methods));
    TRY(dev, gc_mmio_read(dev, GC_REG_ENGINE_BUSY_CYCLES(0), &ce_busy));
    TRY(dev, gc_mem_read(dev, dst.addr, got, o->bytes));
    size_t bad = 0;
    for (uint32_t i = 0; i < o->bytes; i++) bad += want[i] != got[i];
    TRY(dev, gc_mem_read(dev, vid.addr, got, o->bytes));
    for (uint32_t i = 0; i < o->bytes; i++) bad += want[i] != got[i];
    printf("GP_GET %u, %u methods executed, CE0 busy %u cycles\n", get, methods, ce_busy);
    ok = bad == 0;
    printf("summary: copy %s: %u bytes sysmem->vidmem->sysmem, %zu bytes differ, %" PRIu64 " cycles\n",
           ok ? "PASSED" : "FAILED", o->bytes, bad, t3 - t0);
out:
    free(want);
    free(got);
    if (dev) gc_device_close(dev);
    return ok ? 0 : 1;
}

/* Copy-engine efficiency: vidmem -> vidmem copies of 64 KiB and 1 MiB on CE0.  A timestamped host
 * release right before the copy and the copy's four-word release (timestamped at completion)
 * bracket it; efficiency = bytes / cycles / bus bytes per cycle. */
static int scenario_ce_bandwidth(const opts_t *o) {
    gc_device_t *dev = NULL;
    gc_channel_t *ch = NULL;
    int ok = 0;
    static const uint32_t sizes[] = {64u << 10, 1u << 20};
    gc_device_config_t cfg = o->dev;
    TRY(dev, gc_device_open(&cfg, &dev));
    TRY(dev, gc_channel_open(dev, NULL, &ch));
    gc_buf_t src, dst, sem;
    TRY(dev, gc_mem_alloc(dev, GC_MEM_VIDMEM, 1u << 20, 4096, &src));
    TRY(dev, gc_mem_alloc(dev, GC_MEM_VIDMEM, 1u << 20, 4096, &dst));
    TRY(dev, gc_mem_alloc(dev, GC_MEM_SYSMEM, 64, 64, &sem));
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        uint8_t zero[64] = {0};
        TRY(dev, gc_mem_write(dev, sem.addr, zero, sizeof zero));
        uint32_t words[64];
        gc_pushbuf_t pb;
        gc_pb_init(&pb, words, 64);
        gc_copy_desc_t d = {.dst = dst.addr, .src = src.addr, .line_bytes = sizes[i], .line_count = 1,
                            .sem = GC_COPY_SEM_FOUR_WORD, .sem_addr = sem.addr + 16, .sem_payload = 1};
        gc_pb_sem_release_ts(&pb, sem.addr, 1, false, true);
        gc_pb_copy_desc(&pb, 4, &d);
        TRY(dev, gc_channel_submit(ch, &pb));
        TRY(dev, gc_channel_wait_idle(ch));
        uint64_t rec[4];
        TRY(dev, gc_mem_read(dev, sem.addr, rec, sizeof rec));
        uint64_t cycles = rec[3] - rec[1];
        double eff = (double)sizes[i] / (double)cycles / (GC_AXI_DATA_W / 8.0);
        printf("ce_efficiency bytes=%u cycles=%llu efficiency=%.4f\n", sizes[i], (unsigned long long)cycles, eff);
    }
    ok = 1;
out:
    if (dev) gc_device_close(dev);
    return ok ? 0 : 1;
}

/* The front end under load: 8 channels, 4 on each copy runlist, each looping small copies with a
 * reduction and an acquire per round; every destination and counter is checked at the end. */
static int scenario_frontend_load(const opts_t *o) {
    enum { NCH = 8, ROUNDS = 24, BYTES = 512 };
    gc_device_t *dev = NULL;
    gc_channel_t *ch[NCH] = {0};
    uint8_t *want = NULL, *got = NULL;
    int ok = 0;
    gc_device_config_t cfg = o->dev;
    TRY(dev, gc_device_open(&cfg, &dev));
    gc_buf_t src, dst, sem;
    TRY(dev, gc_mem_alloc(dev, GC_MEM_VIDMEM, (uint64_t)NCH * ROUNDS * BYTES, 4096, &src));
    TRY(dev, gc_mem_alloc(dev, GC_MEM_VIDMEM, (uint64_t)NCH * ROUNDS * BYTES, 4096, &dst));
    TRY(dev, gc_mem_alloc(dev, GC_MEM_SYSMEM, 64, 64, &sem));
    want = malloc((size_t)NCH * ROUNDS * BYTES);
    got = malloc((size_t)NCH * ROUNDS * BYTES);
    if (!want || !got) goto out;
    gcsc_fill(want, (size_t)NCH * ROUNDS * BYTES, 42);
    uint8_t zero[64] = {0};
    TRY(dev, gc_mem_write(dev, src.addr, want, (size_t)NCH * ROUNDS * BYTES));
    TRY(dev, gc_mem_write(dev, sem.addr, zero, sizeof zero));
    for (int c = 0; c < NCH; c++) {
        gc_channel_config_t cc;
        gc_channel_config_init(&cc);
        cc.runlist = 1 + (uint32_t)(c & 1);
        cc.timeslice = 256;
        TRY(dev, gc_channel_open(dev, &cc, &ch[c]));
    }
    uint64_t t0 = gc_device_cycles(dev);
    for (int r = 0; r < ROUNDS; r++) {
        for (int c = 0; c < NCH; c++) {
            uint32_t words[64];
            gc_pushbuf_t pb;
            gc_pb_init(&pb, words, 64);
            uint64_t off = ((uint64_t)c * ROUNDS + (uint64_t)r) * BYTES;
            gc_pb_copy(&pb, 4, dst.addr + off, src.addr + off, BYTES, false, 0, 0);
            gc_pb_sem_reduce(&pb, sem.addr, 1, GC_HOST_SEM_EXECUTE_REDUCTION_IADD, false, false);
            gc_pb_sem_acquire(&pb, sem.addr, (uint32_t)(r * NCH), GC_HOST_SEM_EXECUTE_OPERATION_ACQ_CIRC_GEQ, false,
                              true);
            TRY(dev, gc_channel_submit(ch[c], &pb));
        }
    }
    for (int c = 0; c < NCH; c++) TRY(dev, gc_channel_wait_idle(ch[c]));
    uint64_t cycles = gc_device_cycles(dev) - t0;
    uint32_t total = 0;
    TRY(dev, gc_mem_read(dev, sem.addr, &total, 4));
    TRY(dev, gc_mem_read(dev, dst.addr, got, (size_t)NCH * ROUNDS * BYTES));
    size_t bad = 0;
    for (size_t i = 0; i < (size_t)NCH * ROUNDS * BYTES; i++) bad += want[i] != got[i];
    ok = bad == 0 && total == NCH * ROUNDS;
    printf("summary: frontend-load %s: %d channels x %d rounds, %zu bytes differ, counter %u (expect %d), "
           "%llu cycles\n", ok ? "PASSED" : "FAILED", NCH, ROUNDS, bad, total, NCH * ROUNDS,
           (unsigned long long)cycles);
out:
    free(want);
    free(got);
    if (dev) gc_device_close(dev);
    return ok ? 0 : 1;
}

/* ------------------------------------------------------------------ runtime scenarios */
static void rt_config(const opts_t *o, gcrt_config_t *c) {
    gcrt_config_init(c);
    c->device = o->dev;
    c->device.quiet = !o->backend_stats;
    c->copy_priorities_enabled = !o->no_copy_prio;
    if (o->copy_prios) c->copy_priorities = o->copy_prios;
    if (o->timeslice) c->copy_timeslice = o->timeslice;
}

static int rt_done(gcrt_error_t e, const char *err, const opts_t *o) {
    if (e) {
        fprintf(stderr, "gpucosim: %s\n", err);
        return 1;
    }
    if (o->timeline) printf("timeline: %s (open in https://ui.perfetto.dev or chrome://tracing)\n", o->timeline);
    return 0;
}

static int scenario_copy_priority(const opts_t *o) {
    gcrt_config_t c;
    rt_config(o, &c);
    gcsc_result_t r;
    char err[700] = "";
    printf("device: backend %s\n", c.device.backend);
    gcrt_error_t e = gcsc_copy_priority(&c, stdout, o->timeline, &r, err, sizeof err);
    if (rt_done(e, err, o)) return 1;
    /* the seed's order with copy priorities, issue order without */
    static const char *const with[] = {"Mlow1", "Mhigh1", "Mhigh2", "Mlow2", "Mlow3"};
    static const char *const without[] = {"Mlow1", "Mlow2", "Mlow3", "Mhigh1", "Mhigh2"};
    const char *const *want = o->no_copy_prio ? without : with;
    int good = r.nops == 5 && r.bad_bytes == 0 && r.sem_final == 0;
    for (size_t i = 0; good && i < 5; i++) good = !strcmp(r.ops[r.order[i]].tag, want[i]);
    printf("expected (%s): %s, %s, %s, %s, %s: %s\n", o->no_copy_prio ? "issue order" : "seed 000", want[0], want[1],
           want[2], want[3], want[4], good ? "matches" : "DIFFERS");
    return good ? 0 : 1;
}

static int scenario_video_pipeline(const opts_t *o) {
    gcrt_config_t c;
    rt_config(o, &c);
    gcsc_result_t r;
    char err[700] = "";
    printf("device: backend %s\n", c.device.backend);
    gcrt_error_t e = gcsc_video_pipeline(&c, o->frames ? o->frames : 4, stdout, o->timeline, &r, err, sizeof err);
    if (rt_done(e, err, o)) return 1;
    return r.bad_bytes == 0 ? 0 : 1;
}

static int scenario_prio_latency(const opts_t *o) {
    gcrt_config_t c;
    rt_config(o, &c);
    gcsc_result_t r;
    char err[700] = "";
    printf("device: backend %s\n", c.device.backend);
    gcrt_error_t e = gcsc_prio_latency(&c, stdout, o->timeline, &r, err, sizeof err);
    if (rt_done(e, err, o)) return 1;
    printf("metric prio_copy_latency_idle %llu\nmetric prio_copy_latency_flood %llu\n",
           (unsigned long long)r.lat_idle, (unsigned long long)r.lat_flood);
    return 0;
}

/* The kernel image of the kernel scenarios (--image or the build's); NULL (message printed) if missing. */
static const char *kernel_image(const opts_t *o, const char *scenario) {
    const char *image = o->image ? o->image : GC_FIRMWARE_DIR "/kernels.elf";
    FILE *f = fopen(image, "rb");
    if (!f) {
        fprintf(stderr, "gpucosim: %s: no kernel image at %s (build it with `make firmware`, or name one with "
                        "--image FILE)\n", scenario, image);
        return NULL;
    }
    fclose(f);
    return image;
}

static int scenario_kernels(const opts_t *o) {
    gcrt_config_t c;
    rt_config(o, &c);
    const char *image = kernel_image(o, "kernels");
    if (!image) return 1;
    gcsc_result_t r;
    char err[700] = "";
    printf("device: backend %s\n", c.device.backend);
    gcrt_error_t e = gcsc_kernels(&c, image, o->rounds ? o->rounds : 1, stdout, o->timeline, &r, err, sizeof err);
    if (rt_done(e, err, o)) return 1;
    return r.bad_checks == 0 && r.checks > 0 ? 0 : 1;
}

/* float-kernels: fsaxpy, fdot and fmath once; `--image build/firmware/kernels_soft.elf` runs the
 * soft-float build.  Without the FPU: SKIPPED, exit status 77. */
static int scenario_float_kernels(const opts_t *o) {
    gcrt_config_t c;
    rt_config(o, &c);
    const char *image = kernel_image(o, "float-kernels");
    if (!image) return 1;
    static gcsc_result_t r;
    char err[700] = "";
    printf("device: backend %s\n", c.device.backend);
    gcrt_error_t e = gcsc_float_kernels(&c, image, stdout, &r, err, sizeof err);
    if (rt_done(e, err, o)) return 1;
    if (r.float_skipped) return 77;
    printf("metric float_kernels_cycles %llu\n", (unsigned long long)r.float_cycles);
    return r.bad_checks == 0 && r.checks > 0 ? 0 : 1;
}

/* One task management unit scenario: which = 0 nested-priority, 1 eviction, 2 childless-parent. */
static int tmu_scenario(const opts_t *o, int which) {
    static const char *const names[] = {"nested-priority", "eviction", "childless-parent"};
    gcrt_config_t c;
    rt_config(o, &c);
    const char *image = kernel_image(o, names[which]);
    if (!image) return 1;
    static gcsc_result_t r;
    char err[700] = "";
    gcrt_error_t e;
    printf("device: backend %s\n", c.device.backend);
    if (which == 0) e = gcsc_nested_priority(&c, image, stdout, o->timeline, &r, err, sizeof err);
    else if (which == 1) e = gcsc_eviction(&c, image, o->no_evict, stdout, o->timeline, &r, err, sizeof err);
    else e = gcsc_childless_parent(&c, image, o->prior_art, stdout, o->timeline, &r, err, sizeof err);
    if (!e && which == 1)
        printf("metric hp_kernel_latency%s %llu\n", o->no_evict ? "_no_evict" : "", (unsigned long long)r.hp_latency);
    if (rt_done(e, err, o)) return 1;
    return r.rules > 0 && r.bad_rules == 0 ? 0 : 1;
}
static int scenario_nested_priority(const opts_t *o) { return tmu_scenario(o, 0); }
static int scenario_eviction(const opts_t *o) { return tmu_scenario(o, 1); }
static int scenario_childless_parent(const opts_t *o) { return tmu_scenario(o, 2); }

static const scenario_t scenarios[] = {
    {"copy", "sysmem -> vidmem -> sysmem through copy engine 0 with semaphore releases (default)", scenario_copy},
    {"ce-bandwidth", "vidmem -> vidmem copies of 64 KiB and 1 MiB: copy-engine efficiency", scenario_ce_bandwidth},
    {"frontend-load", "8 channels on two copy engines: copies, reductions, acquires", scenario_frontend_load},
    {"copy-priority", "seed 000 walk-through on the runtime: Mlow1..3 and Mhigh1..2 on one copy engine",
     scenario_copy_priority},
    {"video-pipeline", "frames through h2d -> d2d -> d2h streams chained by events, last stage highest priority",
     scenario_video_pipeline},
    {"prio-latency", "a high-priority copy alone and under a low-priority flood", scenario_prio_latency},
    {"kernels", "H2D copies, vecadd, saxpy, reduce, histogram (gcrt_launch, several CTA shapes) and D2H copies on "
                "two streams, checked against the host", scenario_kernels},
    {"float-kernels", "fsaxpy, fdot and fmath (expf, logf, sqrtf, sinf, powf) once, checked against the host, their "
                      "cycles (--image kernels_soft.elf: the soft-float build; no FPU: skipped, exit 77)",
     scenario_float_kernels},
    {"nested-priority", "seed 001, N = 4: nested launches from a stream at level 1 run at device priorities 4, 5, 6, 7; "
                        "the launch from 7 fails DEPTH (thread and host see it)", scenario_nested_priority},
    {"eviction", "low-priority grids fill every task slot; a high-priority kernel evicts one, completes first, every "
                 "CTA runs once (--no-evict: the prior art)", scenario_eviction},
    {"childless-parent", "seed 001's ChildlessA / ParentA / ChildA: the parent runs at its stream's priority, the child "
                         "one above (--prior-art: parent at the lowest)", scenario_childless_parent},
};
#define TMU_SCENARIO(fn) \
    ((fn) == scenario_nested_priority || (fn) == scenario_eviction || (fn) == scenario_childless_parent)
#define RT_SCENARIO(fn)                                                                                   \
    ((fn) == scenario_copy_priority || (fn) == scenario_video_pipeline || (fn) == scenario_prio_latency || \
     (fn) == scenario_kernels || (fn) == scenario_float_kernels || TMU_SCENARIO(fn))
#define NSCEN (sizeof scenarios / sizeof scenarios[0])

/* --backend sc: the scenario, i.e. the driver, runs in an SC_THREAD spawned by gc_sc_run. */
typedef struct sc_job {
    scenario_fn fn;
    const opts_t *o;
} sc_job_t;

static int sc_job(void *arg) {
    const sc_job_t *j = arg;
    const char *thread = gc_sc_thread_name();
    printf("sc: the driver runs in SystemC thread '%s' (gc_sc_run): its MMIO accesses are TLM-2.0 b_transport "
           "calls from that thread, its waits are wait()\n", thread ? thread : "?");
    return j->fn(j->o);
}

static int run_in_sc_thread(scenario_fn fn, const opts_t *o) {
    sc_job_t job = {fn, o};
    char err[512] = "";
    int status = 1;
    gc_status_t st = gc_sc_run(sc_job, &job, &status, err, sizeof err);
    if (st != GC_OK) {
        fprintf(stderr, "gpucosim: %s\n", err);
        return 1;
    }
    return status;
}

static void usage(FILE *f) {
    fprintf(f,
            "usage: gpucosim list\n"
            "       gpucosim run [SCENARIO] [options]\n"
            "options:\n"
            "  --backend NAME   device backend: rtl, ref or sc (default rtl, or $GPUCOSIM_BACKEND); with sc\n"
            "                   the whole scenario, driver included, runs in a SystemC SC_THREAD (gc_sc_run)\n"
            "  --seed N         memory-model seed (default 1, or $GPUCOSIM_SEED)\n"
            "  --waves FILE     write an FST waveform (open with cosim/gpucosim.gtkw)\n"
            "  --bytes N        bytes per copy (default 4096)\n"
            "  --stall PCT      random memory stalls, 0..90 percent\n"
            "  --max-cycles N   watchdog: fail a run longer than N cycles\n"
            "runtime scenarios (copy-priority, video-pipeline, prio-latency, kernels, nested-priority, eviction,\n"
            "childless-parent):\n"
            "  --timeline FILE  write a Chrome/Perfetto trace (JSON): a track per channel and per engine\n"
            "  --no-copy-priorities  seed 000's prior art: no semaphore bracketing, plain time slices\n"
            "  --copy-priorities N   copy HW channels / internal priorities (3..8, default 3)\n"
            "  --timeslice N    time slice of the copy channels in cycles (default 3000)\n"
            "  --frames N       video-pipeline frames (1..16, default 4)\n"
            "  --backend-stats  let the backend print its open and close lines (cycles, wall time, cycles/s)\n"
            "  --image FILE     kernels: the kernel image (default " GC_FIRMWARE_DIR "/kernels.elf)\n"
            "  --rounds N       kernels: rounds of the four kernels (1..1000, default 1)\n"
            "  --no-evict       eviction: TMU_CTRL.NO_EVICT = 1 (a pending task waits for a free slot)\n"
            "  --prior-art      childless-parent: launch ParentA at the lowest device priority (the seed's prior art)\n"
            "task management unit scenarios: the timeline adds a track per task slot (from the TMU log)\n");
}

static int parse_u64(const char *flag, const char *v, uint64_t max, uint64_t *out) {
    char *end = NULL;
    if (!v) {
        fprintf(stderr, "gpucosim: %s needs a value\n", flag);
        return 0;
    }
    unsigned long long x = strtoull(v, &end, 0);
    if (!*v || *end || x > max) {
        fprintf(stderr, "gpucosim: %s '%s' is not a number in 0..%llu\n", flag, v, (unsigned long long)max);
        return 0;
    }
    *out = x;
    return 1;
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (!strcmp(argv[1], "list")) {
        printf("scenarios:\n");
        for (size_t i = 0; i < NSCEN; i++) printf("  %-17s %s\n", scenarios[i].name, scenarios[i].doc);
        printf("backends:\n");
        for (size_t i = 0; gc_backend_at(i); i++) printf("  %-15s %s\n", gc_backend_at(i)->name, gc_backend_at(i)->doc);
        return 0;
    }
    if (strcmp(argv[1], "run")) {
        fprintf(stderr, "gpucosim: unknown command '%s'\n", argv[1]);
        usage(stderr);
        return 2;
    }
    opts_t o;
    memset(&o, 0, sizeof o);
    gc_device_config_init(&o.dev);
    o.bytes = 4096;
    const char *name = "copy";
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        uint64_t x;
        if (!strcmp(a, "--backend") && v) { o.dev.backend = v; i++; }
        else if (!strcmp(a, "--waves") && v) { o.dev.waves = v; i++; }
        else if (!strcmp(a, "--seed")) { if (!parse_u64(a, v, UINT64_MAX, &o.dev.seed)) return 2; i++; }
        else if (!strcmp(a, "--bytes")) {
            if (!parse_u64(a, v, GC_VIDMEM_SIZE / 2, &x) || x == 0) {
                if (x == 0) fprintf(stderr, "gpucosim: --bytes must be at least 1\n");
                return 2;
            }
            o.bytes = (uint32_t)x;
            i++;
        } else if (!strcmp(a, "--stall")) {
            if (!parse_u64(a, v, 90, &x)) return 2;
            o.dev.stall_pct = (uint32_t)x;
            i++;
        } else if (!strcmp(a, "--max-cycles")) { if (!parse_u64(a, v, UINT64_MAX, &o.dev.max_cycles)) return 2; i++; }
        else if (!strcmp(a, "--timeline") && v) { o.timeline = v; i++; }
        else if (!strcmp(a, "--no-copy-priorities")) o.no_copy_prio = true;
        else if (!strcmp(a, "--copy-priorities")) {
            if (!parse_u64(a, v, 8, &x) || x < 3) {
                if (v) fprintf(stderr, "gpucosim: --copy-priorities must be in 3..8\n");
                return 2;
            }
            o.copy_prios = (uint32_t)x;
            i++;
        } else if (!strcmp(a, "--timeslice")) {
            if (!parse_u64(a, v, UINT32_MAX, &x) || x == 0) {
                if (v) fprintf(stderr, "gpucosim: --timeslice must be at least 1\n");
                return 2;
            }
            o.timeslice = (uint32_t)x;
            i++;
        } else if (!strcmp(a, "--frames")) {
            if (!parse_u64(a, v, 16, &x) || x == 0) {
                if (v) fprintf(stderr, "gpucosim: --frames must be in 1..16\n");
                return 2;
            }
            o.frames = (uint32_t)x;
            i++;
        } else if (!strcmp(a, "--image") && v) { o.image = v; i++; }
        else if (!strcmp(a, "--backend-stats")) o.backend_stats = true;
        else if (!strcmp(a, "--no-evict")) o.no_evict = true;
        else if (!strcmp(a, "--prior-art")) o.prior_art = true;
        else if (!strcmp(a, "--rounds")) {
            if (!parse_u64(a, v, 1000, &x) || x == 0) {
                if (v) fprintf(stderr, "gpucosim: --rounds must be in 1..1000\n");
                return 2;
            }
            o.rounds = (uint32_t)x;
            i++;
        } else if (a[0] != '-' && i == 2) name = a;
        else {
            fprintf(stderr, "gpucosim: unknown or incomplete option '%s'\n", a);
            usage(stderr);
            return 2;
        }
    }
    if (!gc_backend_find(o.dev.backend)) {
        fprintf(stderr, "gpucosim: no backend '%s' (gpucosim list shows them)\n", o.dev.backend);
        return 2;
    }
    for (size_t i = 0; i < NSCEN; i++)
        if (!strcmp(scenarios[i].name, name)) {
            if (!RT_SCENARIO(scenarios[i].fn) && (o.timeline || o.no_copy_prio || o.frames || o.copy_prios || o.timeslice ||
                                                  o.backend_stats)) {
                fprintf(stderr, "gpucosim: --timeline, --no-copy-priorities, --copy-priorities, --timeslice, --frames and "
                                "--backend-stats belong to the runtime scenarios (copy-priority, video-pipeline, "
                                "prio-latency, kernels), not '%s'\n",
                        name);
                return 2;
            }
            if ((scenarios[i].fn != scenario_kernels && o.rounds) ||
                (scenarios[i].fn != scenario_kernels && scenarios[i].fn != scenario_float_kernels &&
                 !TMU_SCENARIO(scenarios[i].fn) && o.image)) {
                fprintf(stderr, "gpucosim: --rounds belongs to the kernels scenario, --image to the kernel scenarios "
                                "(kernels, float-kernels, nested-priority, eviction, childless-parent), not '%s'\n", name);
                return 2;
            }
            if ((o.no_evict && scenarios[i].fn != scenario_eviction) ||
                (o.prior_art && scenarios[i].fn != scenario_childless_parent)) {
                fprintf(stderr, "gpucosim: --no-evict belongs to eviction, --prior-art to childless-parent, not '%s'\n",
                        name);
                return 2;
            }
            if (!strcmp(o.dev.backend, "sc")) return run_in_sc_thread(scenarios[i].fn, &o);
            return scenarios[i].fn(&o);
        }
    fprintf(stderr, "gpucosim: no scenario '%s' (gpucosim list shows them)\n", name);
    return 2;
}
