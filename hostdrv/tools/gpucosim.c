/* gpucosim: the command-line front end.
 *
 *   gpucosim list | --version | --help
 *   gpucosim run [SCENARIO] [options]      (gpucosim run SCENARIO --help lists its options)
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

#include "cosim.h"
#include "gpucosim/backend.h"
#include "gpucosim/hostdrv.h"
#include "gpucosim/sc.h"
#include "scenarios.h"
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
    bool prior_art;         /* childless-parent: ParentA at the lowest device priority */
    bool quiet;             /* no progress lines, no backend open / close lines */
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

/* Report a failed driver call of scenario `scen` (what it was doing, the driver's one-line
 * message) and leave. */
#define TRY(dev, scen, what, expr)                                                                  \
    do {                                                                                            \
        gc_status_t st_ = (expr);                                                                   \
        if (st_ != GC_OK) {                                                                         \
            const char *m_ = gc_device_last_error(dev);                                             \
            fprintf(stderr, "gpucosim: %s: %s: %s\n", scen, what, *m_ ? m_ : gc_status_str(st_));   \
            goto out;                                                                               \
        }                                                                                           \
    } while (0)

/* Open the device of scenario `scen`; false (one line printed) on failure. */
static bool open_device(const gc_device_config_t *cfg, gc_device_t **dev, const char *scen) {
    char err[400];
    if (gc_device_open_ex(cfg, dev, err, sizeof err) == GC_OK) return true;
    fprintf(stderr, "gpucosim: %s: opening the device: %s\n", scen, err);
    return false;
}

/* The default scenario: host buffer -> vidmem -> host buffer through copy engine 0 on one GPFIFO
 * channel, each copy with a four-word copy-engine release (its record: the payload, the cycle the
 * engine took the copy, the cycle it released after the last data write) and a host release at
 * the end. */
static int scenario_copy(const opts_t *o) {
    static const char *const S = "copy";
    gc_device_config_t cfg = o->dev;
    cfg.poll_cycles = 1; /* see each semaphore on the cycle it lands */
    /* each wait covers one copy: its budget grows with the bytes (at most ~0.4 cycles a byte
     * without stalls, ten times that budgeted) and with the stall rate */
    uint64_t budget = 2000000u + (uint64_t)o->bytes * 4u * 100u / (100u - cfg.stall_pct);
    if (budget > cfg.wait_cycles) cfg.wait_cycles = budget;
    gc_device_t *dev = NULL;
    gc_channel_t *ch = NULL;
    uint8_t *want = malloc(o->bytes), *got = malloc(o->bytes);
    int ok = 0;
    if (!want || !got) {
        fprintf(stderr, "gpucosim: copy: no host memory for two buffers of %u bytes\n", o->bytes);
        goto out;
    }
    if (!open_device(&cfg, &dev, S)) goto out;
    printf("device: backend %s, %u channels, seed %" PRIu64 "\n", cfg.backend, GC_NUM_CHANNELS,
           gc_device_seed(dev));
    TRY(dev, S, "opening a channel", gc_channel_open(dev, NULL, &ch));
    gc_buf_t src, vid, dst, sem;
    TRY(dev, S, "allocating the sysmem source", gc_mem_alloc(dev, GC_MEM_SYSMEM, o->bytes, 64, &src));
    TRY(dev, S, "allocating the vidmem buffer", gc_mem_alloc(dev, GC_MEM_VIDMEM, o->bytes, 64, &vid));
    TRY(dev, S, "allocating the sysmem destination", gc_mem_alloc(dev, GC_MEM_SYSMEM, o->bytes, 64, &dst));
    TRY(dev, S, "allocating the semaphores", gc_mem_alloc(dev, GC_MEM_SYSMEM, 64, 64, &sem));
    gcsc_fill(want, o->bytes, gc_device_seed(dev));
    uint8_t zero[64] = {0};
    TRY(dev, S, "writing the source", gc_mem_write(dev, src.addr, want, o->bytes));
    TRY(dev, S, "clearing the semaphores", gc_mem_write(dev, sem.addr, zero, sizeof zero));
    uint32_t words[64];
    gc_pushbuf_t pb;
    gc_pb_init(&pb, words, 64);
    gc_copy_desc_t c1 = {.dst = vid.addr, .src = src.addr, .line_bytes = o->bytes, .line_count = 1,
                         .sem = GC_COPY_SEM_FOUR_WORD, .sem_addr = sem.addr, .sem_payload = 1};
    gc_copy_desc_t c2 = c1;
    c2.dst = dst.addr;
    c2.src = vid.addr;
    c2.sem_addr = sem.addr + 16;
    c2.sem_payload = 2;
    gc_pb_copy_desc(&pb, 4, &c1);
    gc_pb_copy_desc(&pb, 4, &c2);
    gc_pb_sem_release(&pb, sem.addr + 32, 0xC0FFEE, false, true);
    printf("channel %u: GPFIFO ring of %u entries, pushbuffer of %u dwords\n", gc_channel_id(ch), 64u, pb.len);
    printf("  copy 1: sysmem 0x%010" PRIx64 " -> vidmem 0x%010" PRIx64 ", %u bytes, CE releases sem[0] = 1 "
           "(four words: payload, start, end)\n", src.addr, vid.addr, o->bytes);
    printf("  copy 2: vidmem 0x%010" PRIx64 " -> sysmem 0x%010" PRIx64 ", %u bytes, CE releases sem[1] = 2 "
           "(four words: payload, start, end)\n", vid.addr, dst.addr, o->bytes);
    printf("  host:   SEM_EXECUTE RELEASE (WFI) sem[2] = 0xC0FFEE\n");
    uint64_t t0 = gc_device_cycles(dev), t1 = 0, t2 = 0, t3 = 0;
    TRY(dev, S, "submitting the pushbuffer", gc_channel_submit(ch, &pb));
    printf("cycle %8" PRIu64 ": GP_PUT doorbell\n", t0);
    TRY(dev, S, "copy 1", gc_sem_wait(dev, sem.addr, 1, &t1));
    printf("cycle %8" PRIu64 ": sem[0] = 1   copy 1 done (%" PRIu64 " cycles, %.2f bytes/cycle)\n", t1, t1 - t0,
           (double)o->bytes / (double)(t1 - t0));
    TRY(dev, S, "copy 2", gc_sem_wait(dev, sem.addr + 16, 2, &t2));
    printf("cycle %8" PRIu64 ": sem[1] = 2   copy 2 done (%" PRIu64 " cycles)\n", t2, t2 - t1);
    TRY(dev, S, "the host release", gc_sem_wait(dev, sem.addr + 32, 0xC0FFEE, &t3));
    printf("cycle %8" PRIu64 ": sem[2] = 0xC0FFEE   host release\n", t3);
    /* each copy's start and end as CE0 recorded them */
    uint64_t rs[2] = {0, 0}, re[2] = {0, 0};
    for (int k = 0; k < 2; k++) {
        uint32_t rec[4];
        TRY(dev, S, "reading the copy records", gc_mem_read(dev, sem.addr + 16u * (uint32_t)k, rec, sizeof rec));
        gc_copy_record_t cr = gc_copy_record(rec);
        uint64_t start = rs[k] = cr.start, end = re[k] = cr.end;
        printf("copy %d: CE0 took it at cycle %" PRIu64 ", released at %" PRIu64 " (%" PRIu64 " cycles, %.2f "
               "bytes/cycle)\n", k + 1, start, end, end - start, (double)o->bytes / (double)(end - start));
    }
    TRY(dev, S, "waiting for the channel to go idle", gc_channel_wait_idle(ch));
    uint32_t get = 0, methods = 0, ce_busy = 0;
    TRY(dev, S, "reading GP_GET", gc_channel_gp_get(ch, &get));
    TRY(dev, S, "reading CHANNEL.METHODS", gc_mmio_read(dev, GC_REG_CHANNEL_METHODS(gc_channel_id(ch)), &methods));
    TRY(dev, S, "reading ENGINE.BUSY_CYCLES", gc_mmio_read(dev, GC_REG_ENGINE_BUSY_CYCLES(0), &ce_busy));
    TRY(dev, S, "reading the destination", gc_mem_read(dev, dst.addr, got, o->bytes));
    size_t bad = 0;
    for (uint32_t i = 0; i < o->bytes; i++) bad += want[i] != got[i];
    TRY(dev, S, "reading the vidmem buffer", gc_mem_read(dev, vid.addr, got, o->bytes));
    for (uint32_t i = 0; i < o->bytes; i++) bad += want[i] != got[i];
    printf("GP_GET %u, %u methods executed, CE0 busy %u cycles\n", get, methods, ce_busy);
    /* the engine ran them one after the other, each between the doorbell and its semaphore */
    bool timed = t0 < rs[0] && rs[0] < re[0] && re[0] < rs[1] && rs[1] < re[1] && re[1] <= t2;
    if (!timed) printf("copy records out of order: doorbell %" PRIu64 ", copy 1 %" PRIu64 "..%" PRIu64 ", copy 2 %" PRIu64
                       "..%" PRIu64 ", sem[1] seen at %" PRIu64 "\n", t0, rs[0], re[0], rs[1], re[1], t2);
    ok = bad == 0 && timed;
    printf("summary: copy %s: %u bytes sysmem->vidmem->sysmem, %zu bytes differ, %" PRIu64 " cycles\n",
           ok ? "PASSED" : "FAILED", o->bytes, bad, t3 - t0);
out:
    free(want);
    free(got);
    if (dev) gc_device_close(dev);
    return ok ? 0 : 1;
}

/* Copy-engine efficiency: vidmem -> vidmem copies of 64 KiB and 1 MiB on CE0, measured on the
 * engine alone: the copy's four-word completion record holds the cycle the engine took the command
 * (+4, low 32 bits) and the atomic unit's stamp of the release, issued after the last data write's
 * response (+8); efficiency = bytes / (end - start) / bus bytes per cycle.  The timestamped host
 * release before the copy (launch_cycles: from it to the end) adds the PBDMA's launch path and the
 * release's own sysmem round trip. */
static int scenario_ce_bandwidth(const opts_t *o) {
    gc_device_t *dev = NULL;
    gc_channel_t *ch = NULL;
    int ok = 0;
    static const uint32_t sizes[] = {64u << 10, 1u << 20};
    static const char *const S = "ce-bandwidth";
    gc_device_config_t cfg = o->dev;
    if (!open_device(&cfg, &dev, S)) goto out;
    TRY(dev, S, "opening a channel", gc_channel_open(dev, NULL, &ch));
    gc_buf_t src, dst, sem;
    TRY(dev, S, "allocating the source", gc_mem_alloc(dev, GC_MEM_VIDMEM, 1u << 20, 4096, &src));
    TRY(dev, S, "allocating the destination", gc_mem_alloc(dev, GC_MEM_VIDMEM, 1u << 20, 4096, &dst));
    TRY(dev, S, "allocating the semaphores", gc_mem_alloc(dev, GC_MEM_SYSMEM, 64, 64, &sem));
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        uint8_t zero[64] = {0};
        TRY(dev, S, "clearing the semaphores", gc_mem_write(dev, sem.addr, zero, sizeof zero));
        uint32_t words[64];
        gc_pushbuf_t pb;
        gc_pb_init(&pb, words, 64);
        gc_copy_desc_t d = {.dst = dst.addr, .src = src.addr, .line_bytes = sizes[i], .line_count = 1,
                            .sem = GC_COPY_SEM_FOUR_WORD, .sem_addr = sem.addr + 16, .sem_payload = 1};
        gc_pb_sem_release_ts(&pb, sem.addr, 1, false, true);
        gc_pb_copy_desc(&pb, 4, &d);
        TRY(dev, S, "submitting the copy", gc_channel_submit(ch, &pb));
        TRY(dev, S, "waiting for the copy", gc_channel_wait_idle(ch));
        uint64_t rec[4];
        TRY(dev, S, "reading the timestamps", gc_mem_read(dev, sem.addr, rec, sizeof rec));
        uint64_t cycles = (uint32_t)((uint32_t)rec[3] - (uint32_t)(rec[2] >> 32));
        double eff = (double)sizes[i] / (double)cycles / (GC_AXI_DATA_W / 8.0);
        printf("ce_efficiency bytes=%u cycles=%llu efficiency=%.4f launch_cycles=%llu\n", sizes[i],
               (unsigned long long)cycles, eff, (unsigned long long)(rec[3] - rec[1]));
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
    static const char *const S = "frontend-load";
    gc_device_config_t cfg = o->dev;
    if (!open_device(&cfg, &dev, S)) goto out;
    gc_buf_t src, dst, sem;
    TRY(dev, S, "allocating the sources", gc_mem_alloc(dev, GC_MEM_VIDMEM, (uint64_t)NCH * ROUNDS * BYTES, 4096, &src));
    TRY(dev, S, "allocating the destinations", gc_mem_alloc(dev, GC_MEM_VIDMEM, (uint64_t)NCH * ROUNDS * BYTES, 4096, &dst));
    TRY(dev, S, "allocating the counter", gc_mem_alloc(dev, GC_MEM_SYSMEM, 64, 64, &sem));
    want = malloc((size_t)NCH * ROUNDS * BYTES);
    got = malloc((size_t)NCH * ROUNDS * BYTES);
    if (!want || !got) {
        fprintf(stderr, "gpucosim: %s: no host memory for the check buffers\n", S);
        goto out;
    }
    gcsc_fill(want, (size_t)NCH * ROUNDS * BYTES, 42);
    uint8_t zero[64] = {0};
    TRY(dev, S, "writing the sources", gc_mem_write(dev, src.addr, want, (size_t)NCH * ROUNDS * BYTES));
    TRY(dev, S, "clearing the counter", gc_mem_write(dev, sem.addr, zero, sizeof zero));
    for (int c = 0; c < NCH; c++) {
        gc_channel_config_t cc;
        gc_channel_config_init(&cc);
        cc.runlist = 1 + (uint32_t)(c & 1);
        cc.timeslice = 256;
        TRY(dev, S, "opening a channel", gc_channel_open(dev, &cc, &ch[c]));
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
            TRY(dev, S, "submitting a round", gc_channel_submit(ch[c], &pb));
        }
    }
    for (int c = 0; c < NCH; c++) TRY(dev, S, "waiting for the channels", gc_channel_wait_idle(ch[c]));
    uint64_t cycles = gc_device_cycles(dev) - t0;
    uint32_t total = 0;
    TRY(dev, S, "reading the counter", gc_mem_read(dev, sem.addr, &total, 4));
    TRY(dev, S, "reading the destinations", gc_mem_read(dev, dst.addr, got, (size_t)NCH * ROUNDS * BYTES));
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
    {"--prior-art", K_FLAG, NULL, 0, 0, OPT_PRIOR_ART, "launch ParentA at the lowest device priority (the prior art)"},
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
};
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
    printf("usage: gpucosim run %s [options]\n%s\noptions:\n", sc->name, sc->doc);
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
    printf("built with %s\n", cosim_verilator_version());
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
    if (strcmp(argv[1], "run")) {
        fprintf(stderr, "gpucosim: unknown command '%s' (gpucosim --help lists the commands)\n", argv[1]);
        return 2;
    }
    int first = 2;
    const scenario_t *sc = &scenarios[0];
    if (argc > 2 && argv[2][0] != '-') {
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
            if (first == 2) usage(stdout);
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
                fprintf(stderr, "gpucosim: unknown option '%s' (gpucosim run %s --help lists the options)\n", a, sc->name);
            else
                fprintf(stderr, "gpucosim: unexpected argument '%s' (the scenario comes first: gpucosim run SCENARIO "
                                "[options])\n", a);
            return 2;
        }
        if (op->bit && !(sc->opts & op->bit)) {
            fprintf(stderr, "gpucosim: scenario '%s' does not take %s (gpucosim run %s --help lists its options)\n",
                    sc->name, a, sc->name);
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
        else if (!strcmp(a, "--backend")) o.dev.backend = v;
        else if (!strcmp(a, "--seed")) o.dev.seed = x;
        else if (!strcmp(a, "--waves")) o.dev.waves = v;
        else if (!strcmp(a, "--stall")) o.dev.stall_pct = (uint32_t)x;
        else if (!strcmp(a, "--max-cycles")) o.dev.max_cycles = x;
        else if (!strcmp(a, "--progress")) progress = x;
        else if (!strcmp(a, "--quiet")) o.quiet = true;
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
    if (o.dev.waves && !strcmp(o.dev.backend, "rtl") && !cosim_has_trace()) {
        fprintf(stderr, "gpucosim: this model is built without tracing (waves '%s'): " COSIM_NO_TRACE_HINT "\n",
                o.dev.waves);
        return 2;
    }
    /* outputs last: every other refusal leaves nothing behind */
    if ((o.dev.waves && !output_ok(o.dev.waves, "waveform")) || (o.timeline && !output_ok(o.timeline, "timeline")))
        return 2;
    if (o.quiet) o.dev.quiet = true;
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
