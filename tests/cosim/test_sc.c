/* The sc backend's own checks (the driver suite itself runs on sc as sc@test_*): SystemC elaborates
 * once per process, so a second open reuses the top and must look like a new device; two sc
 * devices at once are refused; the sc and rtl backends run side by side in one process (their
 * Verilated runtimes never meet) and agree cycle for cycle; waves, watchdog and fault injection.
 * gc_sc_run (the driver in an SC_THREAD): same results and cycles as the mailbox and rtl, again
 * and again in one process, devices handed between the two arrangements, and its errors. */
#define _POSIX_C_SOURCE 200809L /* setenv, readlink */
#include <stdbool.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cosim_util.h"
#include "gpucosim/sc.h"
#include "tcase.h"

static void backend_sc(gc_device_config_t *c) { c->backend = "sc"; }
static void backend_rtl(gc_device_config_t *c) { c->backend = "rtl"; }

/* Open, close, open again: cycles restart from the same reset, memory is zero again, and the same
 * work takes the same cycles. */
static void t_reopen(void) {
    uint64_t rt_cycles[2] = {0, 0}, open_cycles[2] = {0, 0};
    for (int k = 0; k < 2; k++) {
        gc_device_t *dev = util_open(backend_sc);
        REQUIRE(dev);
        open_cycles[k] = gc_device_cycles(dev);
        uint32_t probe = 0xFFFFFFFF;
        REQUIRE_OK(dev, gc_mem_read(dev, GC_SYSMEM_BASE + 0x100000, &probe, 4));
        CHECK_EQ(probe, 0); /* written by the first device, zero again for the second */
        uint32_t mark = 0xA5A5A5A5;
        REQUIRE_OK(dev, gc_mem_write(dev, GC_SYSMEM_BASE + 0x100000, &mark, 4));
        gc_channel_t *ch;
        REQUIRE_OK(dev, gc_channel_open(dev, NULL, &ch));
        roundtrip_t r = util_roundtrip(dev, ch, 4096, 3, 5, 42);
        CHECK_EQ(r.status, GC_OK);
        CHECK_EQ(r.vid_bad + r.dst_bad, 0);
        CHECK_EQ(r.ce_sem, 1);
        CHECK_EQ(r.host_sem, RT_HOST_PAYLOAD);
        rt_cycles[k] = r.cycles;
        uint32_t lo = 0;
        REQUIRE_OK(dev, gc_mmio_read(dev, GC_REG_GLOBAL_CYCLE_LO, &lo));
        CHECK(lo <= gc_device_cycles(dev)); /* the device's counter restarted with the reset */
        gc_device_close(dev);
    }
    gc_device_t *rtl = util_open(backend_rtl); /* reset, then gc_device_open's ID read */
    REQUIRE(rtl);
    CHECK_EQ(open_cycles[0], gc_device_cycles(rtl));
    CHECK_EQ(open_cycles[1], gc_device_cycles(rtl));
    gc_device_close(rtl);
    CHECK_EQ(rt_cycles[0], rt_cycles[1]);
    fprintf(stderr, "round trip: %llu cycles on both opens\n", (unsigned long long)rt_cycles[0]);
}

static void t_second_open_refused(void) {
    gc_device_t *a = util_open(backend_sc);
    REQUIRE(a);
    gc_device_config_t cfg;
    gc_device_config_init(&cfg);
    cfg.backend = "sc";
    cfg.quiet = true;
    gc_device_t *b = NULL;
    CHECK_EQ(gc_device_open(&cfg, &b), GC_ERR_BUSY);
    CHECK(b == NULL);
    uint32_t v = 0;
    REQUIRE_OK(a, gc_mmio_read(a, GC_REG_GLOBAL_VERSION, &v)); /* the first one is unharmed */
    CHECK_EQ(v, GC_VERSION);
    gc_device_close(a);
    REQUIRE_OK(NULL, gc_device_open(&cfg, &b)); /* and after a close it opens again */
    gc_device_close(b);
}

/* Both backends in one process, interleaved: same data, same cycles, same counters, with and
 * without random memory stalls (the sc bridge draws them as cosim's AxiMem does). */
static uint32_t stall_pct;
static void rtl_stalls(gc_device_config_t *c) {
    c->backend = "rtl";
    c->stall_pct = stall_pct;
}
static void sc_stalls(gc_device_config_t *c) {
    c->backend = "sc";
    c->stall_pct = stall_pct;
}

static void t_same_cycles_as_rtl(void) {
    for (stall_pct = 0; stall_pct <= 30; stall_pct += 30) {
        gc_device_t *dev[2] = {util_open(rtl_stalls), util_open(sc_stalls)};
        REQUIRE(dev[0] && dev[1]);
        gc_channel_t *ch[2];
        gc_channel_config_t cc;
        gc_channel_config_init(&cc);
        cc.runlist = 2;
        for (int k = 0; k < 2; k++) REQUIRE_OK(dev[k], gc_channel_open(dev[k], &cc, &ch[k]));
        roundtrip_t r[2];
        uint32_t methods[2], busy[2], bytes[2];
        for (int rep = 0; rep < 2; rep++) {
            for (int k = 0; k < 2; k++) {
                r[k] = util_roundtrip(dev[k], ch[k], 3000 + 1000 * (uint32_t)rep, 7, 1, 5 + (uint64_t)rep);
                CHECK_EQ(r[k].status, GC_OK);
                CHECK_EQ(r[k].vid_bad + r[k].dst_bad, 0);
                REQUIRE_OK(dev[k], gc_mmio_read(dev[k], GC_REG_CHANNEL_METHODS(gc_channel_id(ch[k])), &methods[k]));
                REQUIRE_OK(dev[k], gc_mmio_read(dev[k], GC_REG_ENGINE_BUSY_CYCLES(1), &busy[k]));
                REQUIRE_OK(dev[k], gc_mmio_read(dev[k], GC_REG_ENGINE_BYTES(1), &bytes[k]));
            }
            fprintf(stderr, "stalls %u%%, rep %d: rtl %llu cycles, sc %llu cycles\n", stall_pct, rep,
                    (unsigned long long)r[0].cycles, (unsigned long long)r[1].cycles);
            CHECK_EQ(r[0].cycles, r[1].cycles);
            CHECK_EQ(gc_device_cycles(dev[0]), gc_device_cycles(dev[1]));
            CHECK_EQ(methods[0], methods[1]);
            CHECK_EQ(busy[0], busy[1]);
            CHECK_EQ(bytes[0], bytes[1]);
        }
        gc_device_close(dev[0]);
        gc_device_close(dev[1]);
    }
}

static char waves_path[64];
static void with_waves(gc_device_config_t *c) {
    c->backend = "sc";
    c->waves = waves_path;
}

static long file_size(const char *p) {
    struct stat st;
    return stat(p, &st) == 0 ? (long)st.st_size : -1;
}

/* An FST on the first open, none on the second, one again on the third (a new trace file on the
 * same model). */
static void t_waves(void) {
    snprintf(waves_path, sizeof waves_path, "/tmp/gpucosim_sc_%d.fst", (int)getpid());
    for (int k = 0; k < 3; k++) {
        unlink(waves_path);
        gc_device_t *dev = util_open(k == 1 ? backend_sc : with_waves);
        REQUIRE(dev);
        gc_channel_t *ch;
        REQUIRE_OK(dev, gc_channel_open(dev, NULL, &ch));
        roundtrip_t r = util_roundtrip(dev, ch, 256, 0, 0, 1);
        CHECK_EQ(r.status, GC_OK);
        gc_device_close(dev);
        long sz = file_size(waves_path);
        if (k == 1) CHECK_EQ(sz, -1);
        else CHECK(sz > 1000);
    }
    unlink(waves_path);
}

static void watchdog_cfg(gc_device_config_t *c) {
    c->backend = "sc";
    c->max_cycles = 3000;
    c->inject = "stall-reads";
}

/* As test_mutation's watchdog case: the run stops at the limit with the stuck-state dump. */
static void t_watchdog(void) {
    gc_device_t *dev = util_open(watchdog_cfg);
    REQUIRE(dev);
    gc_channel_t *ch;
    REQUIRE_OK(dev, gc_channel_open(dev, NULL, &ch));
    roundtrip_t r = util_roundtrip(dev, ch, 4096, 0, 0, 1);
    CHECK_EQ(r.status, GC_ERR_TIMEOUT);
    CHECK(gc_device_cycles(dev) >= 3000 && gc_device_cycles(dev) <= 3400);
    CHECK_EQ(gc_device_run(dev, 10), GC_ERR_TIMEOUT); /* nothing ticks after the watchdog */
    uint32_t v;
    CHECK_EQ(gc_mmio_read(dev, GC_REG_GLOBAL_VERSION, &v), GC_ERR_TIMEOUT);
    gc_device_close(dev);
}

/* The bridge's fault injection (test_mutation's modes) is caught by the same checks. */
static void t_injection(void) {
    roundtrip_t r = util_injected_roundtrip("sc", "flip-write");
    CHECK(r.vid_bad + r.dst_bad > 0);
    r = util_injected_roundtrip("sc", "drop-sem");
    CHECK_EQ(r.status, GC_ERR_TIMEOUT);
    CHECK(r.host_sem != RT_HOST_PAYLOAD);
    r = util_injected_roundtrip("sc", "stall-reads");
    CHECK_EQ(r.status, GC_ERR_TIMEOUT);
    CHECK(r.dst_bad > 0);
    gc_device_config_t cfg;
    gc_device_config_init(&cfg);
    cfg.backend = "sc";
    cfg.inject = "no-such-mode";
    cfg.quiet = true;
    gc_device_t *dev = NULL;
    CHECK_EQ(gc_device_open(&cfg, &dev), GC_ERR_INVALID_ARG);
}

/* ------------------------------------------------------------------ gc_sc_run */

/* What one piece of driver work saw: a copy round trip, then a fault on the same channel. */
typedef struct work {
    char thread[64]; /* gc_sc_thread_name() where it ran ("" = not in gc_sc_run's thread) */
    bool opened;
    uint64_t open_cycles;
    roundtrip_t rt;
    gc_status_t fault_submit, fault_wait;
    gc_channel_error_t fault;
    char fault_msg[256];
    uint64_t fault_cycles; /* when the wait saw the fault */
    uint32_t intr_status; /* GLOBAL_INTR_STATUS after the fault */
} work_t;

static void do_work(void (*tweak)(gc_device_config_t *), work_t *w) {
    memset(w, 0, sizeof *w);
    const char *t = gc_sc_thread_name();
    snprintf(w->thread, sizeof w->thread, "%s", t ? t : "");
    gc_device_t *dev = util_open(tweak);
    if (!dev) return;
    w->opened = true;
    w->open_cycles = gc_device_cycles(dev);
    gc_channel_t *ch;
    if ((w->rt.status = gc_channel_open(dev, NULL, &ch)) == GC_OK) {
        w->rt = util_roundtrip(dev, ch, 4096, 3, 5, 42);
        uint32_t words[8];
        gc_pushbuf_t pb;
        gc_pb_init(&pb, words, 8);
        gc_pb_method(&pb, 4, 0x0500, 0xABCD); /* not a copy-class method */
        w->fault_submit = gc_channel_submit(ch, &pb);
        w->fault_wait = gc_channel_wait_idle(ch);
        w->fault_cycles = gc_device_cycles(dev);
        snprintf(w->fault_msg, sizeof w->fault_msg, "%s", gc_device_last_error(dev));
        gc_channel_error(ch, &w->fault);
        gc_mmio_read(dev, GC_REG_GLOBAL_INTR_STATUS, &w->intr_status);
    }
    gc_device_close(dev);
}

typedef struct job {
    void (*tweak)(gc_device_config_t *);
    work_t *w;
} job_t;

static int prog_work(void *arg) {
    job_t *j = arg;
    do_work(j->tweak, j->w);
    return 42;
}

/* Run do_work through gc_sc_run. */
static gc_status_t work_in_thread(void (*tweak)(gc_device_config_t *), work_t *w) {
    job_t j = {tweak, w};
    int status = -1;
    char err[256] = "";
    memset(w, 0, sizeof *w);
    gc_status_t st = gc_sc_run(prog_work, &j, &status, err, sizeof err);
    if (st != GC_OK) fprintf(stderr, "gc_sc_run: %s: %s\n", gc_status_str(st), err);
    else if (status != 42) st = GC_ERR_BACKEND;
    return st;
}

static void check_work(const work_t *w) {
    CHECK(w->opened);
    CHECK_EQ(w->rt.status, GC_OK);
    CHECK_EQ(w->rt.vid_bad + w->rt.dst_bad, 0);
    CHECK_EQ(w->rt.ce_sem, 1);
    CHECK_EQ(w->rt.host_sem, RT_HOST_PAYLOAD);
    CHECK_EQ(w->fault_submit, GC_OK);
    CHECK_EQ(w->fault_wait, GC_ERR_CHANNEL_FAULT);
    CHECK_EQ(w->fault.cause, GC_ERROR_CAUSE_INVALID_METHOD);
    CHECK(strstr(w->fault_msg, "INVALID_METHOD") && strstr(w->fault_msg, "method 0x0500"));
    CHECK_EQ(GC_GLOBAL_INTR_STATUS_CHANNEL_FAULT_GET(w->intr_status), 1);
}

/* Same work, same cycles, wherever the driver runs. */
static void check_same(const work_t *a, const work_t *b) {
    CHECK_EQ(a->open_cycles, b->open_cycles);
    CHECK_EQ(a->rt.cycles, b->rt.cycles);
    CHECK_EQ(a->fault_cycles, b->fault_cycles);
    CHECK_EQ(a->fault.gp_get, b->fault.gp_get);
    CHECK_EQ(a->fault.method, b->fault.method);
    CHECK(!strcmp(a->fault_msg, b->fault_msg));
}

/* The driver in an SC_THREAD (gc_sc_run) against the mailbox and rtl, without and with random
 * memory stalls: a copy round trip and a fault, with the same results on the same cycles. */
static void t_run_thread(void) {
    CHECK(gc_sc_thread_name() == NULL);
    for (stall_pct = 0; stall_pct <= 30; stall_pct += 30) {
        work_t w[3]; /* rtl, sc mailbox, sc in gc_sc_run's thread */
        do_work(rtl_stalls, &w[0]);
        do_work(sc_stalls, &w[1]);
        REQUIRE_EQ(work_in_thread(sc_stalls, &w[2]), GC_OK);
        for (int k = 0; k < 3; k++) check_work(&w[k]);
        CHECK(!w[0].thread[0] && !w[1].thread[0]);
        CHECK(!strncmp(w[2].thread, "driver_", 7));
        check_same(&w[0], &w[2]);
        check_same(&w[1], &w[2]);
        fprintf(stderr,
                "stalls %u%%: open at cycle %llu, round trip %llu cycles, fault seen at cycle %llu on rtl, sc "
                "(mailbox) and sc (%s)\n",
                stall_pct, (unsigned long long)w[2].open_cycles, (unsigned long long)w[2].rt.cycles,
                (unsigned long long)w[2].fault_cycles, w[2].thread);
    }
    CHECK(gc_sc_thread_name() == NULL);
}

/* A program that opens an sc device and leaves it open for the caller. */
static int prog_open(void *arg) {
    gc_device_t **dev = arg;
    *dev = util_open(backend_sc);
    return *dev ? 0 : 1;
}

static int prog_watchdog(void *arg) {
    gc_device_t *dev = util_open(watchdog_cfg);
    if (!dev) return 1;
    gc_channel_t *ch;
    roundtrip_t r = {.status = GC_ERR_BACKEND};
    if (gc_channel_open(dev, NULL, &ch) == GC_OK) r = util_roundtrip(dev, ch, 4096, 0, 0, 1);
    uint64_t *out = arg;
    out[0] = r.status;
    out[1] = gc_device_cycles(dev);
    out[2] = gc_device_run(dev, 10);
    gc_device_close(dev);
    return 0;
}

/* gc_sc_run again and again in one process, between mailbox-mode devices: each run looks like
 * the first; a device opened in the thread is usable (through the mailbox) after gc_sc_run
 * returns; the watchdog and its dump work from the thread. */
static void t_run_again(void) {
    work_t w[3];
    REQUIRE_EQ(work_in_thread(backend_sc, &w[0]), GC_OK);
    do_work(backend_sc, &w[1]);
    REQUIRE_EQ(work_in_thread(backend_sc, &w[2]), GC_OK);
    for (int k = 0; k < 3; k++) check_work(&w[k]);
    check_same(&w[0], &w[1]);
    check_same(&w[0], &w[2]);
    CHECK(w[0].thread[0] && w[2].thread[0] && strcmp(w[0].thread, w[2].thread)); /* a new thread each time */
    fprintf(stderr, "%s and %s: round trip %llu cycles each\n", w[0].thread, w[2].thread,
            (unsigned long long)w[0].rt.cycles);

    gc_device_t *dev = NULL;
    int status = -1;
    char err[256] = "";
    REQUIRE_EQ(gc_sc_run(prog_open, &dev, &status, err, sizeof err), GC_OK);
    REQUIRE(dev && status == 0);
    uint64_t c0 = gc_device_cycles(dev);
    uint32_t v = 0;
    REQUIRE_OK(dev, gc_mmio_read(dev, GC_REG_GLOBAL_VERSION, &v)); /* now through the mailbox */
    CHECK_EQ(v, GC_VERSION);
    CHECK(gc_device_cycles(dev) > c0);
    gc_channel_t *ch;
    REQUIRE_OK(dev, gc_channel_open(dev, NULL, &ch));
    roundtrip_t r = util_roundtrip(dev, ch, 2048, 0, 0, 3);
    CHECK_EQ(r.status, GC_OK);
    CHECK_EQ(r.vid_bad + r.dst_bad, 0);
    gc_device_close(dev);

    uint64_t wd[3] = {0, 0, 0};
    REQUIRE_EQ(gc_sc_run(prog_watchdog, wd, &status, err, sizeof err), GC_OK);
    CHECK_EQ(status, 0);
    CHECK_EQ(wd[0], GC_ERR_TIMEOUT);
    CHECK(wd[1] >= 3000 && wd[1] <= 3400);
    CHECK_EQ(wd[2], GC_ERR_TIMEOUT);
}

static int prog_nested(void *arg) {
    char *err = arg;
    int inner = -1;
    gc_status_t st = gc_sc_run(prog_open, NULL, &inner, err, 256);
    return st == GC_ERR_BUSY && inner == -1 ? 7 : 8;
}

static int ran;
static int prog_mark(void *arg) {
    (void)arg;
    ran = 1;
    return 0;
}

/* The child of t_run_errors' plugin checks, run with GPUCOSIM_SC_PLUGIN pointing at no plugin:
 * gc_sc_run and an sc open fail cleanly, the program never runs.  Prints gc_sc_run's message. */
static int child_no_plugin(void) {
    char err[512] = "";
    int status = -1;
    gc_status_t st = gc_sc_run(prog_mark, NULL, &status, err, sizeof err);
    printf("%s\n", err);
    gc_device_config_t cfg;
    gc_device_config_init(&cfg);
    cfg.backend = "sc";
    gc_device_t *dev = NULL;
    gc_status_t open_st = gc_device_open(&cfg, &dev);
    gc_status_t again = gc_sc_run(prog_mark, NULL, &status, err, sizeof err);
    return st == GC_ERR_BACKEND && again == GC_ERR_BACKEND && open_st == GC_ERR_BACKEND && !dev && !ran &&
                   status == -1
               ? 0
               : 1;
}

static char self_path[4096];

/* Run this binary as child_no_plugin with GPUCOSIM_SC_PLUGIN=plugin; its exit status and output. */
static int run_child(const char *plugin, char *out, size_t len) {
    int fd[2];
    if (pipe(fd)) return -1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fd[1], 1);
        close(fd[0]);
        close(fd[1]);
        setenv("GPUCOSIM_SC_PLUGIN", plugin, 1);
        execl(self_path, self_path, "--child-no-plugin", (char *)NULL);
        _exit(127);
    }
    close(fd[1]);
    size_t n = 0;
    ssize_t k;
    while (n + 1 < len && (k = read(fd[0], out + n, len - 1 - n)) > 0) n += (size_t)k;
    out[n] = 0;
    close(fd[0]);
    int ws = 0;
    if (pid < 0 || waitpid(pid, &ws, 0) != pid) return -1;
    return WIFEXITED(ws) ? WEXITSTATUS(ws) : -1;
}

/* gc_sc_run's errors: no program, nesting, no plugin (in a child process: the plugin stays loaded
 * once it is), and a normal run afterwards. */
static void t_run_errors(void) {
    char err[256] = "";
    int status = -5;
    CHECK_EQ(gc_sc_run(NULL, NULL, &status, err, sizeof err), GC_ERR_INVALID_ARG);
    fprintf(stderr, "NULL program: %s\n", err);
    CHECK(strstr(err, "gc_sc_run") && strstr(err, "NULL"));
    CHECK_EQ(status, -5);
    CHECK_EQ(gc_sc_run(NULL, NULL, NULL, NULL, 0), GC_ERR_INVALID_ARG); /* err is optional */

    err[0] = 0;
    char inner_err[256] = "";
    REQUIRE_EQ(gc_sc_run(prog_nested, inner_err, &status, err, sizeof err), GC_OK);
    CHECK_EQ(status, 7);
    fprintf(stderr, "nested: %s\n", inner_err);
    CHECK(strstr(inner_err, "does not nest") && strstr(inner_err, "driver_"));

    char out[1024];
    static const char missing[] = "/nonexistent/dir/libgpucosim_sc.so";
    CHECK_EQ(run_child(missing, out, sizeof out), 0);
    fprintf(stderr, "plugin missing: %s", out);
    CHECK(strstr(out, "gc_sc_run: SystemC plugin libgpucosim_sc.so not found or not loadable"));
    CHECK(strstr(out, "GPUCOSIM_SC_PLUGIN") && strstr(out, missing) && strstr(out, "No such file"));
    char bogus[64];
    snprintf(bogus, sizeof bogus, "/tmp/gpucosim_not_a_plugin_%d.so", (int)getpid());
    FILE *f = fopen(bogus, "w");
    REQUIRE(f);
    fputs("not an ELF file\n", f);
    fclose(f);
    CHECK_EQ(run_child(bogus, out, sizeof out), 0);
    unlink(bogus);
    fprintf(stderr, "not a plugin: %s", out);
    CHECK(strstr(out, "not loadable") && strstr(out, bogus));

    ran = 0;
    status = -1;
    REQUIRE_EQ(gc_sc_run(prog_mark, NULL, &status, err, sizeof err), GC_OK); /* and it still works */
    CHECK(ran && status == 0);
}

static const tcase_t cases[] = {
    {"sc_reopen", t_reopen},
    {"sc_second_open_refused", t_second_open_refused},
    {"sc_same_cycles_as_rtl", t_same_cycles_as_rtl},
    {"sc_waves", t_waves},
    {"sc_watchdog", t_watchdog},
    {"sc_injection", t_injection},
    {"sc_run_thread", t_run_thread},
    {"sc_run_again", t_run_again},
    {"sc_run_errors", t_run_errors},
};

int main(int argc, char **argv) {
    if (argc == 2 && !strcmp(argv[1], "--child-no-plugin")) return child_no_plugin();
    ssize_t n = readlink("/proc/self/exe", self_path, sizeof self_path - 1);
    if (n > 0) self_path[n] = 0;
    return tcase_main(argc, argv, cases, sizeof cases / sizeof cases[0]);
}
