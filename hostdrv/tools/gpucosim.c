/* gpucosim: the command-line front end.
 *
 *   gpucosim list | --version | --help
 *   gpucosim run [SCENARIO] [options]      (gpucosim run SCENARIO --help lists its options)
 *   gpucosim info [options]                the device's properties (gpucosim/props.h)
 * --counters (any scenario, and info) prints a snapshot of the MMIO performance counters as each
 * device of the run closes.
 *
 * Scenarios print what happened with cycle numbers and end with a one-line summary; the exit
 * status is 0 only if every check of the scenario passed.  Bad input (an unknown option, one the
 * scenario does not take, a value out of range, a malformed GPUCOSIM_* variable, an output file
 * that cannot be written) is refused before anything runs: one line on stderr, exit status 2.
 * With --backend sc the whole scenario, driver included, runs in an SC_THREAD of the SystemC top
 * (gc_sc_run, gpucosim/sc.h).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "gpucosim/backend.h"
#include "gpucosim/hostdrv.h"
#include "gpucosim/props.h"
#include "gpucosim/sc.h"
#include "scen_fusion.h"
#include "scenarios.h"
#include "scen_workqueue.h"
#include "gpucosim_spec.h"

/* where `make` put the kernel image (build/firmware); --image overrides it */
#ifndef GC_FIRMWARE_DIR
#define GC_FIRMWARE_DIR "build/firmware"
#endif

/* --progress default on a terminal: a line every this many cycles */
#define PROGRESS_DEFAULT 1000000u

typedef struct opts {
    gc_device_config_t dev;
    uint32_t bytes;
    const char *timeline;   /* runtime scenarios: Perfetto JSON */
    bool no_copy_prio;      /* runtime scenarios: the copy-priority walk-through's prior art */
    uint32_t frames;        /* video-pipeline */
    uint32_t copy_prios;    /* runtime: copy HW channels / internal priorities */
    uint32_t timeslice;     /* runtime: copy channel time slice */
    const char *image;      /* kernels: the kernel image (ELF) */
    uint32_t rounds;        /* kernels */
    bool backend_stats;     /* runtime scenarios: the backend prints its open / close lines */
    bool no_evict;          /* eviction: TMU_CTRL.NO_EVICT (the prior art) */
    bool prior_art;         /* childless-parent: ParentA at the lowest device priority; work-queue: the CPU
                             * creates the work after K */
    uint64_t host_latency;  /* work-queue-bench: the host's reaction in a round trip, device cycles */
    bool host_latency_set;
    bool quiet;             /* no progress lines, no backend open / close lines */
    bool counters;          /* --counters: a counter snapshot as each device closes */
    struct timespec t0;     /* wall clock at the start (progress lines) */
} opts_t;

typedef int (*scenario_fn)(const opts_t *o);

typedef struct scenario {
    const char *name;
    const char *doc;
    scenario_fn fn;
    unsigned opts; /* the scenario-specific options it takes (OPT_* bits) */
} scenario_t;

/* The bytes of one copy of the copy scenario: its two sysmem buffers (source and destination),
 * its semaphore words and the channel's ring, pushbuffer area and fence all fit in the 64 MiB
 * sysmem window past its NULL guard, where the sysmem heap starts (the vidmem buffer and the copy
 * engine's 32-bit LINE_LENGTH_IN take more). */
static uint32_t copy_max_bytes(void) {
    uint64_t room = GC_SYSMEM_SIZE - GC_SIMT_WIN_SYSMEM_GUARD - gc_channel_sysmem_bytes(NULL) - 64;
    return (uint32_t)((room / 2) & ~63ull);
}

/* ------------------------------------------------------------------ driver-level scenarios (scen_copies.c) */
static int scenario_copy(const opts_t *o) { return gcsc_drv_copy(&o->dev, o->bytes); }
static int scenario_ce_bandwidth(const opts_t *o) { return gcsc_drv_ce_bandwidth(&o->dev); }
static int scenario_frontend_load(const opts_t *o) { return gcsc_drv_frontend_load(&o->dev); }

/* ------------------------------------------------------------------ runtime scenarios */
static void rt_config(const opts_t *o, gcrt_config_t *c) {
    gcrt_config_init(c);
    c->device = o->dev;
    c->device.quiet = !o->backend_stats || o->quiet;
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
    gcrt_error_t e = gcsc_copy_priority(&c, stdout, o->timeline, &r, err, sizeof err);
    if (rt_done(e, err, o)) return 1;
    return r.passed ? 0 : 1; /* the scenario printed the expected order, why it differs, and the verdict */
}

static int scenario_video_pipeline(const opts_t *o) {
    gcrt_config_t c;
    rt_config(o, &c);
    gcsc_result_t r;
    char err[700] = "";
    gcrt_error_t e = gcsc_video_pipeline(&c, o->frames ? o->frames : 4, stdout, o->timeline, &r, err, sizeof err);
    if (rt_done(e, err, o)) return 1;
    return r.bad_bytes == 0 ? 0 : 1;
}

static int scenario_prio_latency(const opts_t *o) {
    gcrt_config_t c;
    rt_config(o, &c);
    gcsc_result_t r;
    char err[700] = "";
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

/* GPU-owned work queues (issue 16): the seed's figure, or its prior art. */
static int scenario_work_queue(const opts_t *o) {
    gcrt_config_t c;
    rt_config(o, &c);
    const char *image = kernel_image(o, "work-queue");
    if (!image) return 1;
    gcsc_wq_result_t r;
    char err[1200] = "";
    gcrt_error_t e = gcsc_work_queue(&c, image, o->prior_art, stdout, o->timeline, &r, err, sizeof err);
    if (rt_done(e, err, o)) return 1;
    printf("metric work_queue_cycles%s %llu\n", o->prior_art ? "_prior_art" : "", (unsigned long long)(r.done - r.k_start));
    return r.rules > 0 && r.bad_rules == 0 ? 0 : 1;
}

/* The work-queue bench figures: device_work_latency_ratio at --host-latency, gpu_queue_items_per_kcycle. */
static int scenario_work_queue_bench(const opts_t *o) {
    gcrt_config_t c;
    rt_config(o, &c);
    if (o->dev.backend && !strcmp(o->dev.backend, "ref")) {
        fprintf(stderr, "gpucosim: work-queue-bench: not on the ref backend: it runs a CTA whole at its dispatch, so a "
                        "thread's cycles are modelled, not comparable with the stamps the work makes (use rtl or sc)\n");
        return 2;
    }
    const char *image = kernel_image(o, "work-queue-bench");
    if (!image) return 1;
    uint64_t hl = o->host_latency_set ? o->host_latency : GCSC_WQ_HOST_LATENCY_DEFAULT;
    char err[1200] = "";
    gcsc_wq_latency_t L;
    gcrt_error_t e = gcsc_wq_latency(&c, image, hl, &L, err, sizeof err);
    if (rt_done(e, err, o)) return 1;
    uint64_t q = L.queue, h = L.host;
    const uint32_t *qp = L.q_parts;
    printf("work created by a thread starts %llu cycles after the thread decided, through an open GPU-owned queue\n"
           "  parts: reserve %u, block %u, GPFIFO entries %u, FENCE %u, release store %u, gate opened %u, "
           "work started %u\n"
           "through a host round trip (the kernel ends, the host sees it, reacts for %llu cycles, submits): %llu "
           "cycles\n  parts: kernel end %llu, host reaction %llu, submit to work %llu\n",
           (unsigned long long)q, qp[0], qp[1], qp[2], qp[3], qp[4], qp[5],
           qp[6], (unsigned long long)hl, (unsigned long long)h, (unsigned long long)L.h_parts[0],
           (unsigned long long)L.h_parts[1], (unsigned long long)L.h_parts[2]);
    double ipk = 0;
    uint32_t items = 0;
    e = gcsc_wq_throughput(&c, image, 32, 1024, &ipk, &items, err, sizeof err);
    if (rt_done(e, err, o)) return 1;
    printf("32 producer threads: %u items through one GPU-owned compute queue of 1024 entries, %.2f items per 1000 "
           "cycles\n", items, ipk);
    printf("metric device_work_latency_queue %llu\nmetric device_work_latency_host %llu\n"
           "metric device_work_latency_ratio %.4f\nmetric gpu_queue_items_per_kcycle %.3f\n",
           (unsigned long long)q, (unsigned long long)h, h ? (double)q / (double)h : 0.0, ipk);
    printf("summary: work-queue-bench %s: host latency %llu cycles, ratio %.4f\n", q && h && items ? "PASSED" : "FAILED",
           (unsigned long long)hl, h ? (double)q / (double)h : 0.0);
    return q && h && items ? 0 : 1;
}

/* ------------------------------------------------------------------ device queries */
/* --counters: the device's counter snapshot as it closes (gc_device_config.on_close) */
static void print_counters(void *arg, gc_device_t *dev) {
    (void)arg;
    gc_device_props_t p;
    gc_counters_t c;
    if (gc_device_get_props(dev, &p) != GC_OK || gc_counters_read(dev, &c) != GC_OK) {
        printf("counters: unavailable: %s\n", gc_device_last_error(dev));
        return;
    }
    gc_counters_print(stdout, &c, &p);
}

/* gpucosim info: the properties, read from the device's configuration registers */
static int scenario_info(const opts_t *o) {
    gc_device_config_t cfg = o->dev;
    cfg.quiet = true;
    gc_device_t *dev = NULL;
    if (!gcsc_open_device(&cfg, &dev, "info")) return 1;
    gc_device_props_t p;
    gc_status_t st = gc_device_get_props(dev, &p);
    if (st == GC_OK) gc_props_print(stdout, &p);
    else fprintf(stderr, "gpucosim: info: %s\n", gc_device_last_error(dev));
    gc_device_close(dev);
    return st == GC_OK ? 0 : 1;
}

/* fusion (issue 17): the array layer fusing ((a + b) * c - d) / e, fused and unfused (scen_fusion.c) */
static int scenario_fusion(const opts_t *o) {
    gcrt_config_t c;
    rt_config(o, &c);
    gcsc_fusion_result_t r;
    char err[700] = "";
    gcrt_error_t e = gcsc_fusion(&c, 65536, NULL, stdout, o->timeline, &r, err, sizeof err);
    if (rt_done(e, err, o)) return 1;
    return r.passed ? 0 : 1;
}

/* ------------------------------------------------------------------ options */
enum {
    OPT_BYTES = 1u << 0,
    OPT_TIMELINE = 1u << 1,
    OPT_NO_COPY_PRIO = 1u << 2,
    OPT_COPY_PRIOS = 1u << 3,
    OPT_TIMESLICE = 1u << 4,
    OPT_FRAMES = 1u << 5,
    OPT_BACKEND_STATS = 1u << 6,
    OPT_IMAGE = 1u << 7,
    OPT_ROUNDS = 1u << 8,
    OPT_NO_EVICT = 1u << 9,
    OPT_PRIOR_ART = 1u << 10,
    OPT_HOST_LATENCY = 1u << 11,
    OPT_RUNTIME = OPT_TIMELINE | OPT_NO_COPY_PRIO | OPT_COPY_PRIOS | OPT_TIMESLICE | OPT_BACKEND_STATS,
    OPT_KERNEL = OPT_RUNTIME | OPT_IMAGE,
};

typedef enum { K_FLAG, K_TEXT, K_NUM } kind_t;

typedef struct option {
    const char *name;
    kind_t kind;
    const char *arg;    /* the value's name in the help */
    uint64_t min, max;  /* K_NUM: the accepted range (max 0: copy_max_bytes()) */
    unsigned bit;       /* 0: every scenario takes it */
    const char *help;
} option_t;

static const option_t options[] = {
    {"--backend", K_TEXT, "NAME", 0, 0, 0, "device backend: rtl, ref or sc (default rtl, or $GPUCOSIM_BACKEND); with sc "
                                           "the whole scenario, driver included, runs in a SystemC SC_THREAD"},
    {"--seed", K_NUM, "N", 0, UINT64_MAX, 0, "memory-model seed, 0..2^64-1 (default 1, or $GPUCOSIM_SEED)"},
    {"--waves", K_TEXT, "FILE", 0, 0, 0, "write an FST waveform (rtl: only build/bin/gpucosim-waves, the traced build; sc; open with cosim/gpucosim.gtkw)"},
    {"--stall", K_NUM, "PCT", 0, 90, 0, "random memory stalls, percent (default 0, or $GPUCOSIM_STALL_PCT)"},
    {"--max-cycles", K_NUM, "N", 0, UINT64_MAX, 0, "watchdog: stop a run at N cycles, 0 = none (or $GPUCOSIM_MAX_CYCLES)"},
    {"--progress", K_NUM, "N", 1, UINT64_MAX, 0, "a progress line on stderr every N device cycles (default: every "
                                                 "1000000 when stderr is a terminal, else none)"},
    {"--quiet", K_FLAG, NULL, 0, 0, 0, "no progress lines and no backend open / close lines"},
    {"--counters", K_FLAG, NULL, 0, 0, 0, "print a snapshot of the MMIO performance counters as each device of the "
                                          "run closes"},
    {"--bytes", K_NUM, "N", 1, 0, OPT_BYTES, "bytes per copy (default 4096)"},
    {"--timeline", K_TEXT, "FILE", 0, 0, OPT_TIMELINE, "write a Chrome/Perfetto trace (JSON): a track per channel and "
                                                       "per engine (and per task slot for the task scenarios)"},
    {"--no-copy-priorities", K_FLAG, NULL, 0, 0, OPT_NO_COPY_PRIO, "the prior art: no semaphore bracketing, plain time "
                                                                    "slices"},
    {"--copy-priorities", K_NUM, "N", 3, 8, OPT_COPY_PRIOS, "copy HW channels / internal priorities (default 3)"},
    {"--timeslice", K_NUM, "N", 1, UINT32_MAX, OPT_TIMESLICE, "time slice of the copy channels in cycles (default 3000)"},
    {"--frames", K_NUM, "N", 1, 16, OPT_FRAMES, "frames through the pipeline (default 4)"},
    {"--backend-stats", K_FLAG, NULL, 0, 0, OPT_BACKEND_STATS, "let the backend print its open and close lines (cycles, "
                                                               "wall time, cycles/s)"},
    {"--image", K_TEXT, "FILE", 0, 0, OPT_IMAGE, "the kernel image (default " GC_FIRMWARE_DIR "/kernels.elf)"},
    {"--rounds", K_NUM, "N", 1, 1000, OPT_ROUNDS, "rounds of the four kernels (default 1)"},
    {"--no-evict", K_FLAG, NULL, 0, 0, OPT_NO_EVICT, "TMU_CTRL.NO_EVICT = 1: a pending task waits for a free slot (the "
                                                     "prior art)"},
    {"--prior-art", K_FLAG, NULL, 0, 0, OPT_PRIOR_ART, "the prior art: childless-parent launches ParentA at the lowest "
                                                       "device priority; work-queue lets the CPU create the work after K"},
    {"--host-latency", K_NUM, "N", 0, 1000000, OPT_HOST_LATENCY, "the host's reaction in a round trip (completion "
                                                                    "seen, driver, doorbell), device cycles (default "
                                                                    "8000: 8 us at 1 GHz, docs/workqueue.md)"},
};
#define NOPT (sizeof options / sizeof options[0])

static const scenario_t scenarios[] = {
    {"copy", "sysmem -> vidmem -> sysmem through copy engine 0 with semaphore releases (default)", scenario_copy,
     OPT_BYTES},
    {"ce-bandwidth", "vidmem -> vidmem copies of 64 KiB and 1 MiB: copy-engine efficiency", scenario_ce_bandwidth, 0},
    {"frontend-load", "8 channels on two copy engines: copies, reductions, acquires", scenario_frontend_load, 0},
    {"copy-priority", "the copy-priority walk-through on the runtime: Mlow1..3 and Mhigh1..2 on one copy engine",
     scenario_copy_priority, OPT_RUNTIME},
    {"video-pipeline", "frames through h2d -> d2d -> d2h streams chained by events, last stage highest priority",
     scenario_video_pipeline, OPT_RUNTIME | OPT_FRAMES},
    {"prio-latency", "a high-priority copy alone and under a low-priority flood", scenario_prio_latency, OPT_RUNTIME},
    {"kernels", "H2D copies, vecadd, saxpy, reduce, histogram (gcrt_launch, several CTA shapes) and D2H copies on "
                "two streams, checked against the host", scenario_kernels, OPT_KERNEL | OPT_ROUNDS},
    {"float-kernels", "fsaxpy, fdot and fmath (expf, logf, sqrtf, sinf, powf) once, checked against the host, their "
                      "cycles (--image kernels_soft.elf: the soft-float build; no FPU: skipped, exit 77)",
     scenario_float_kernels, OPT_KERNEL & ~OPT_TIMELINE}, /* gcsc_float_kernels writes no timeline */
    {"nested-priority", "the nested-priority mapping, N = 4: nested launches from a stream at level 1 run at device "
                        "priorities 4, 5, 6, 7; the launch from 7 fails DEPTH (thread and host see it)",
     scenario_nested_priority, OPT_KERNEL},
    {"eviction", "low-priority grids fill every task slot; a high-priority kernel evicts one, completes first, every "
                 "CTA runs once (--no-evict: the prior art)", scenario_eviction, OPT_KERNEL | OPT_NO_EVICT},
    {"childless-parent", "ChildlessA / ParentA / ChildA of the nested-priority mapping: the parent runs at its stream's "
                         "priority, the child one above (--prior-art: parent at the lowest)",
     scenario_childless_parent, OPT_KERNEL | OPT_PRIOR_ART},
    {"work-queue", "GPU-owned work queues (seed 002): K's threads create child kernels and copies through GPU-owned "
                   "compute and copy queues, no CPU round trip (--prior-art: the CPU creates them after K)",
     scenario_work_queue, OPT_KERNEL | OPT_PRIOR_ART},
    {"work-queue-bench", "device_work_latency_ratio (an open GPU-owned queue vs a host round trip of --host-latency "
                         "cycles) and gpu_queue_items_per_kcycle (32 producers)",
     scenario_work_queue_bench, (OPT_KERNEL & ~OPT_TIMELINE) | OPT_HOST_LATENCY},
    {"fusion", "((a + b) * c - d) / e at 64 Ki elements through the array layer: the kernels formed, cycles and "
               "bytes fused and unfused, program and trace cache figures", scenario_fusion, OPT_RUNTIME},
};
#define NSCEN (sizeof scenarios / sizeof scenarios[0])
/* `gpucosim info`: parsed like a scenario (the options of every scenario), listed as a command */
static const scenario_t info_cmd = {"info", "the device's properties (SMs, warps, lanes, memories, windows, channels, "
                                            "runlists, copy engines, TMU, priorities, FPU), read from its configuration "
                                            "registers", scenario_info, 0};

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

static void print_range(FILE *f, const option_t *op) {
    uint64_t max = op->max ? op->max : copy_max_bytes();
    if (op->kind == K_NUM) fprintf(f, "%" PRIu64 "..%" PRIu64, op->min, max);
}

static void print_option(FILE *f, const option_t *op) {
    char left[40];
    snprintf(left, sizeof left, "%s%s%s", op->name, op->arg ? " " : "", op->arg ? op->arg : "");
    fprintf(f, "  %-22s %s", left, op->help);
    if (op->kind == K_NUM) {
        fprintf(f, " [");
        print_range(f, op);
        fprintf(f, "]");
    }
    fprintf(f, "\n");
}

static void usage(FILE *f) {
    fprintf(f, "usage: gpucosim list                 the scenarios and backends\n"
               "       gpucosim --version            the spec version and the Verilator version\n"
               "       gpucosim run [SCENARIO] [options]   (default scenario: copy)\n"
               "       gpucosim run SCENARIO --help  the options SCENARIO takes\n"
               "       gpucosim info [options]       the device's properties (--counters: and its counters)\n"
               "options of every scenario:\n");
    for (size_t i = 0; i < NOPT; i++)
        if (!options[i].bit) print_option(f, &options[i]);
    fprintf(f, "options of some scenarios (a scenario refuses the others):\n");
    for (size_t i = 0; i < NOPT; i++) {
        if (!options[i].bit) continue;
        print_option(f, &options[i]);
        fprintf(f, "  %-22s   taken by:", "");
        for (size_t k = 0; k < NSCEN; k++)
            if (scenarios[k].opts & options[i].bit) fprintf(f, " %s", scenarios[k].name);
        fprintf(f, "\n");
    }
}

static void scenario_usage(const scenario_t *sc) {
    printf("usage: gpucosim %s%s [options]\n%s\noptions:\n", sc == &info_cmd ? "" : "run ", sc->name, sc->doc);
    for (size_t i = 0; i < NOPT; i++)
        if (!options[i].bit || (sc->opts & options[i].bit)) print_option(stdout, &options[i]);
}

/* An output file the run will write: refuse it now if it cannot be written (nothing is left
 * behind: a file this check created is removed). */
static bool output_ok(const char *path, const char *what) {
    struct stat sb;
    bool existed = stat(path, &sb) == 0;
    if (existed && S_ISDIR(sb.st_mode)) {
        fprintf(stderr, "gpucosim: cannot write the %s '%s': it is a directory\n", what, path);
        return false;
    }
    FILE *f = fopen(path, "a");
    if (!f) {
        fprintf(stderr, "gpucosim: cannot write the %s '%s': %s\n", what, path, strerror(errno));
        return false;
    }
    fclose(f);
    if (!existed) remove(path);
    return true;
}

static void progress_line(void *arg, uint64_t cycle) {
    const opts_t *o = arg;
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    double secs = (double)(t.tv_sec - o->t0.tv_sec) + 1e-9 * (double)(t.tv_nsec - o->t0.tv_nsec);
    fprintf(stderr, "gpucosim: progress: cycle %" PRIu64 " after %.1f s (%.0f cycles/s)\n", cycle, secs,
            secs > 0 ? (double)cycle / secs : 0.0);
}

static void print_version(void) {
    printf("gpucosim spec version %u.%u.%u (GLOBAL.VERSION 0x%08x, spec/gpucosim.yaml)\n", (GC_VERSION >> 16) & 0xFFFFu,
           (GC_VERSION >> 8) & 0xFFu, GC_VERSION & 0xFFu, GC_VERSION);
    printf("built with %s\n", gc_backend_rtl_version());
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--version")) {
        print_version();
        return 0;
    }
    if (!strcmp(argv[1], "list")) {
        printf("scenarios:\n");
        for (size_t i = 0; i < NSCEN; i++) printf("  %-17s %s\n", scenarios[i].name, scenarios[i].doc);
        printf("backends:\n");
        for (size_t i = 0; gc_backend_at(i); i++) printf("  %-15s %s\n", gc_backend_at(i)->name, gc_backend_at(i)->doc);
        return 0;
    }
    bool info = !strcmp(argv[1], "info");
    if (strcmp(argv[1], "run") && !info) {
        fprintf(stderr, "gpucosim: unknown command '%s' (gpucosim --help lists the commands)\n", argv[1]);
        return 2;
    }
    int first = 2;
    const scenario_t *sc = info ? &info_cmd : &scenarios[0];
    if (!info && argc > 2 && argv[2][0] != '-') {
        sc = NULL;
        for (size_t i = 0; i < NSCEN; i++)
            if (!strcmp(scenarios[i].name, argv[2])) sc = &scenarios[i];
        if (!sc) {
            fprintf(stderr, "gpucosim: no scenario '%s' (gpucosim list shows them)\n", argv[2]);
            return 2;
        }
        first = 3;
    }
    for (int i = first; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            if (first == 2 && !info) usage(stdout);
            else scenario_usage(sc);
            return 0;
        }
    opts_t o;
    memset(&o, 0, sizeof o);
    gc_device_config_init(&o.dev);
    if (o.dev.env_error[0]) {
        fprintf(stderr, "gpucosim: %s\n", o.dev.env_error);
        return 2;
    }
    o.bytes = 4096;
    uint64_t progress = 0;
    for (int i = first; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        const option_t *op = NULL;
        for (size_t k = 0; k < NOPT; k++)
            if (!strcmp(options[k].name, a)) op = &options[k];
        if (!op) {
            if (a[0] == '-')
                fprintf(stderr, "gpucosim: unknown option '%s' (gpucosim %s%s --help lists the options)\n", a,
                        info ? "" : "run ", sc->name);
            else if (info)
                fprintf(stderr, "gpucosim: unexpected argument '%s' (gpucosim info [options])\n", a);
            else
                fprintf(stderr, "gpucosim: unexpected argument '%s' (the scenario comes first: gpucosim run SCENARIO "
                                "[options])\n", a);
            return 2;
        }
        if (op->bit && !(sc->opts & op->bit)) {
            fprintf(stderr, "gpucosim: %s '%s' does not take %s (gpucosim %s%s --help lists its options)\n",
                    info ? "command" : "scenario", sc->name, a, info ? "" : "run ", sc->name);
            return 2;
        }
        uint64_t x = 0;
        if (op->kind != K_FLAG) {
            if (!v) {
                fprintf(stderr, "gpucosim: %s needs a value (%s)\n", a, op->arg);
                return 2;
            }
            i++;
            if (op->kind == K_NUM && !gc_parse_u64(v, op->min, op->max ? op->max : copy_max_bytes(), &x)) {
                fprintf(stderr, "gpucosim: %s '%s' is not a number in ", a, v);
                print_range(stderr, op);
                fprintf(stderr, "\n");
                return 2;
            }
        }
        if (op->bit == OPT_BYTES) o.bytes = (uint32_t)x;
        else if (op->bit == OPT_TIMELINE) o.timeline = v;
        else if (op->bit == OPT_NO_COPY_PRIO) o.no_copy_prio = true;
        else if (op->bit == OPT_COPY_PRIOS) o.copy_prios = (uint32_t)x;
        else if (op->bit == OPT_TIMESLICE) o.timeslice = (uint32_t)x;
        else if (op->bit == OPT_FRAMES) o.frames = (uint32_t)x;
        else if (op->bit == OPT_BACKEND_STATS) o.backend_stats = true;
        else if (op->bit == OPT_IMAGE) o.image = v;
        else if (op->bit == OPT_ROUNDS) o.rounds = (uint32_t)x;
        else if (op->bit == OPT_NO_EVICT) o.no_evict = true;
        else if (op->bit == OPT_PRIOR_ART) o.prior_art = true;
        else if (op->bit == OPT_HOST_LATENCY) o.host_latency = x, o.host_latency_set = true;
        else if (!strcmp(a, "--backend")) o.dev.backend = v;
        else if (!strcmp(a, "--seed")) o.dev.seed = x;
        else if (!strcmp(a, "--waves")) o.dev.waves = v;
        else if (!strcmp(a, "--stall")) o.dev.stall_pct = (uint32_t)x;
        else if (!strcmp(a, "--max-cycles")) o.dev.max_cycles = x;
        else if (!strcmp(a, "--progress")) progress = x;
        else if (!strcmp(a, "--quiet")) o.quiet = true;
        else if (!strcmp(a, "--counters")) o.counters = true;
    }
    if (!gc_backend_find(o.dev.backend)) {
        fprintf(stderr, "gpucosim: no backend '%s' (gpucosim list shows them)\n", o.dev.backend);
        return 2;
    }
    if (o.dev.waves && !strcmp(o.dev.backend, "ref")) {
        fprintf(stderr, "gpucosim: the ref backend has no signals to write a waveform of (waves '%s': use --backend rtl "
                        "or sc)\n", o.dev.waves);
        return 2;
    }
    if (o.dev.waves && !strcmp(o.dev.backend, "rtl") && gc_backend_rtl_no_trace()) {
        fprintf(stderr, "gpucosim: this model is built without tracing (waves '%s'): %s\n", o.dev.waves,
                gc_backend_rtl_no_trace());
        return 2;
    }
    /* outputs last: every other refusal leaves nothing behind */
    if ((o.dev.waves && !output_ok(o.dev.waves, "waveform")) || (o.timeline && !output_ok(o.timeline, "timeline")))
        return 2;
    if (o.quiet) o.dev.quiet = true;
    if (o.counters) o.dev.on_close = print_counters;
    if (!progress && !o.quiet && isatty(STDERR_FILENO)) progress = PROGRESS_DEFAULT;
    if (progress && !o.quiet) {
        o.dev.progress_cycles = progress;
        o.dev.progress = progress_line;
        o.dev.progress_arg = &o;
    }
    clock_gettime(CLOCK_MONOTONIC, &o.t0);
    if (!strcmp(o.dev.backend, "sc")) return run_in_sc_thread(sc->fn, &o);
    return sc->fn(&o);
}
