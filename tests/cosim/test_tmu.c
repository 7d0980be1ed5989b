/* The task management unit through the runtime (issue 6), on whatever backend GPUCOSIM_BACKEND
 * names (the driver suite runs it on rtl, ref and sc):
 *   - runtime checks: a device priority outside [0, PRIO_LEVELS) and a max nesting depth above
 *     TMU_MAX_DEPTH are refused with a clear message before anything is pushed; the TMD a launch
 *     writes carries PRIORITY.LEVEL = the stream's device priority, DEPTH 1, MAX_DEPTH N and
 *     FLAGS.QUEUE_HEAD; streams of different priority levels get their own compute channels;
 *   - the three scenarios (gcsc_nested_priority, gcsc_eviction, gcsc_childless_parent), whose
 *     rules are asserted here again from their TMU log records and memory contents.
 * Skipped on a backend without a compute engine. */
#include <unistd.h>

#include "gc_kernels.h"
#include "gpucosim/compute.h"
#include "gpucosim/runtime.h"
#include "scenarios.h"
#include "rt_test.h"
#include "tcase.h"

#ifndef GC_FIRMWARE_DIR
#define GC_FIRMWARE_DIR "build/firmware"
#endif
#define IMAGE GC_FIRMWARE_DIR "/kernels.elf"


static void cfg_init(gcrt_config_t *cfg) {
    gcrt_config_init(cfg);
    cfg->device.quiet = true;
    cfg->sync_cycles = 20000000;
}

/* Open a runtime with the kernels loaded; NULL with *skip when the backend has no compute engine. */
static gcrt_t *topen(gc_elf_t **img, bool *skip) {
    gcrt_config_t cfg;
    cfg_init(&cfg);
    gcrt_t *rt = NULL;
    *skip = false;
    *img = NULL;
    if (gcrt_open(&cfg, &rt)) return NULL;
    uint32_t hw;
    gcrt_error_t e = gcrt_compute_channel(rt, &hw);
    if (e == GCRT_ERROR_NOT_SUPPORTED) *skip = true;
    if (e || gcrt_load_image(rt, IMAGE, img)) {
        fprintf(stderr, "%s\n", gcrt_last_message(rt));
        gcrt_close(rt);
        return NULL;
    }
    return rt;
}

#define TOPEN(rt, img)                                                                                      \
    do {                                                                                                    \
        bool skip_;                                                                                         \
        if (!((rt) = topen(&(img), &skip_))) {                                                              \
            if (skip_) TCASE_SKIP("the backend has no compute engine");                                     \
            TCASE_FAIL_("could not open the runtime and load %s", IMAGE);                                   \
            return;                                                                                         \
        }                                                                                                   \
    } while (0)

static void tclose(gcrt_t *rt, gc_elf_t *img) {
    if (img) gcrt_unload_image(rt, img);
    gcrt_close(rt);
}

/* gcrt_open / gcrt_set_limit refuse what the TMU cannot represent. */
static void t_limits(void) {
    gcrt_config_t cfg;
    cfg_init(&cfg);
    gcrt_t *rt = NULL;
    cfg.device_priorities = GC_TMU_PRIO_LEVELS + 1;
    CHECK_EQ(gcrt_open(&cfg, &rt), GCRT_ERROR_INVALID_VALUE);
    CHECK(rt == NULL);
    cfg_init(&cfg);
    cfg.max_nesting_depth = GC_TMU_MAX_DEPTH + 1;
    CHECK_EQ(gcrt_open(&cfg, &rt), GCRT_ERROR_INVALID_VALUE);
    CHECK(rt == NULL);
    cfg_init(&cfg);
    REQUIRE(gcrt_open(&cfg, &rt) == GCRT_SUCCESS);
    CHECK_EQ(gcrt_set_limit(rt, GCRT_LIMIT_MAX_NESTING_DEPTH, GC_TMU_MAX_DEPTH + 1), GCRT_ERROR_INVALID_VALUE);
    fprintf(stderr, "depth 16: %s\n", gcrt_last_message(rt));
    CHECK(strstr(gcrt_last_message(rt), "TMU_MAX_DEPTH") != NULL);
    CHECK(strstr(gcrt_last_message(rt), "16") != NULL);
    uint64_t v = 0;
    CHECK_EQ(gcrt_get_limit(rt, GCRT_LIMIT_MAX_NESTING_DEPTH, &v), GCRT_SUCCESS);
    CHECK_EQ(v, 1); /* unchanged */
    CHECK_EQ(gcrt_set_limit(rt, GCRT_LIMIT_MAX_NESTING_DEPTH, GC_TMU_MAX_DEPTH), GCRT_SUCCESS);
    CHECK_EQ(gcrt_get_limit(rt, GCRT_LIMIT_MAX_NESTING_DEPTH, &v), GCRT_SUCCESS);
    CHECK_EQ(v, GC_TMU_MAX_DEPTH);
    gcrt_close(rt);
}

/* A device priority outside [0, PRIO_LEVELS) is refused before anything is pushed; the edges work. */
static void t_bad_priority(void) {
    gcrt_t *rt;
    gc_elf_t *img;
    TOPEN(rt, img);
    uint64_t d;
    gcrt_tmu_config_t tc;
    RT_OK(rt, gcrt_tmu_config(rt, &tc));
    CHECK_EQ(tc.prio_levels, GC_TMU_PRIO_LEVELS);
    RT_OK(rt, gcrt_malloc(rt, &d, 64));
    {
        gc_vecadd_params_t p = {gcrt_kernel_ptr(d), gcrt_kernel_ptr(d), gcrt_kernel_ptr(d), 16};
        uint32_t g[3] = {1, 1, 1}, b[3] = {8, 1, 1};
        const gcrt_op_t *ops;
        size_t n0, n1;
        RT_OK(rt, gcrt_ops(rt, &ops, &n0));
        gcrt_launch_attr_t a;
        gcrt_launch_attr_init(&a);
        CHECK_EQ(a.device_priority, -1);
        CHECK(!a.queue_head);
        a.device_priority = (int32_t)tc.prio_levels;
        CHECK_EQ(gcrt_launch_ex(rt, NULL, img, "vecadd", g, b, &p, sizeof p, 0, &a), GCRT_ERROR_INVALID_PRIORITY);
        fprintf(stderr, "priority 64: %s\n", gcrt_last_message(rt));
        CHECK(strstr(gcrt_last_message(rt), "device priority 64") != NULL);
        CHECK(strstr(gcrt_last_message(rt), "PRIO_LEVELS") != NULL);
        a.device_priority = -2;
        CHECK_EQ(gcrt_launch_ex(rt, NULL, img, "vecadd", g, b, &p, sizeof p, 0, &a), GCRT_ERROR_INVALID_PRIORITY);
        a.device_priority = 1000;
        CHECK_EQ(gcrt_launch_ex(rt, NULL, img, "vecadd", g, b, &p, sizeof p, 0, &a), GCRT_ERROR_INVALID_PRIORITY);
        RT_OK(rt, gcrt_ops(rt, &ops, &n1));
        CHECK_EQ(n1, n0); /* nothing pushed */
        /* the highest valid priority, queued at the head of its level, runs */
        RT_OK(rt, gcrt_memset_async(rt, d, 2, 64, NULL, NULL));
        a.device_priority = (int32_t)tc.prio_levels - 1;
        a.queue_head = true;
        RT_OK(rt, gcrt_launch_ex(rt, NULL, img, "vecadd", g, b, &p, sizeof p, 0, &a));
        RT_OK(rt, gcrt_ops(rt, &ops, &n1));
        CHECK_EQ(ops[n1 - 1].device_priority, tc.prio_levels - 1);
        RT_OK(rt, gcrt_device_synchronize(rt));
        uint32_t got[16];
        RT_OK(rt, gcrt_read(rt, d, got, sizeof got));
        for (int i = 0; i < 16; i++) CHECK_EQ(got[i], 0x04040404u);
    }
out:
    tclose(rt, img);
}

/* The TMD of a launch, read back before it ran: LEVEL = the stream's device priority, DEPTH 1,
 * MAX_DEPTH = N, QUEUE_HEAD from the attribute; and the compute channel per priority level. */
static void t_tmd_and_channels(void) {
    gcrt_config_t cfg;
    cfg_init(&cfg);
    gcrt_t *rt = NULL;
    gc_elf_t *img = NULL;
    REQUIRE(gcrt_open(&cfg, &rt) == GCRT_SUCCESS);
    {
        RT_OK(rt, gcrt_set_limit(rt, GCRT_LIMIT_MAX_NESTING_DEPTH, 3));
        uint32_t hw;
        gcrt_error_t e = gcrt_compute_channel(rt, &hw);
        if (e == GCRT_ERROR_NOT_SUPPORTED) {
            gcrt_close(rt);
            TCASE_SKIP("the backend has no compute engine");
        }
        RT_OK(rt, e);
        RT_OK(rt, gcrt_load_image(rt, IMAGE, &img));
        gcrt_stream_t *s[3];
        int prios[3] = {-2, -2, -4};
        uint32_t dp[3], ch[3];
        for (int i = 0; i < 3; i++) {
            RT_OK(rt, gcrt_stream_create_with_priority(rt, &s[i], prios[i]));
            RT_OK(rt, gcrt_stream_get_device_priority(rt, s[i], &dp[i]));
            RT_OK(rt, gcrt_stream_get_compute_channel(rt, s[i], &ch[i]));
        }
        CHECK_EQ(dp[0], 6); /* the nested-priority mapping: level 2 of N = 3 */
        CHECK_EQ(dp[2], 12);
        CHECK_EQ(ch[0], ch[1]); /* one channel per priority level */
        CHECK(ch[0] != ch[2]);
        CHECK(ch[0] != hw);     /* the default stream (device priority 0) has its own */
        uint64_t d;
        RT_OK(rt, gcrt_malloc(rt, &d, 64));
        gc_hp_short_params_t p = {gcrt_kernel_ptr(d), 7};
        uint32_t one[3] = {1, 1, 1};
        gcrt_launch_attr_t a;
        gcrt_launch_attr_init(&a);
        for (int i = 0; i < 3; i++) {
            a.queue_head = i == 1;
            RT_OK(rt, gcrt_launch_ex(rt, s[i], img, "hp_short", one, one, &p, sizeof p, 0, &a));
            const gcrt_op_t *ops;
            size_t n;
            RT_OK(rt, gcrt_ops(rt, &ops, &n));
            uint32_t w[GC_TMD_WORDS];
            REQUIRE(gc_mem_read(gcrt_device(rt), (uint64_t)ops[n - 1].task << 8, w, sizeof w) == GC_OK);
            gc_tmd_t t;
            gc_tmd_decode(w, &t);
            CHECK_EQ(t.priority, dp[i]);
            CHECK_EQ(t.depth, 1);
            CHECK_EQ(t.max_depth, 3);
            CHECK_EQ(t.queue_head, i == 1);
            CHECK_EQ(ops[n - 1].hw_channel, ch[i]);
            CHECK_EQ(ops[n - 1].device_priority, dp[i]);
        }
        RT_OK(rt, gcrt_device_synchronize(rt));
        uint32_t v = 0;
        RT_OK(rt, gcrt_read(rt, d, &v, 4));
        CHECK_EQ(v, 7);
        /* the depth is fixed once streams exist */
        CHECK_EQ(gcrt_set_limit(rt, GCRT_LIMIT_MAX_NESTING_DEPTH, 2), GCRT_ERROR_NOT_PERMITTED);
    }
out:
    tclose(rt, img);
}

/* Run a scenario; false (after marking the case failed or skipped) if it did not run. */
#define RUN_SCENARIO(call)                                                                              \
    do {                                                                                                \
        char err_[700] = "";                                                                            \
        gcrt_error_t e_ = (call);                                                                       \
        if (e_ == GCRT_ERROR_NOT_SUPPORTED && strstr(err_, "compute")) TCASE_SKIP("%s", err_);          \
        if (e_ != GCRT_SUCCESS) {                                                                       \
            TCASE_FAIL_("%s: %s: %s", #call, gcrt_error_name(e_), err_);                                \
            return;                                                                                     \
        }                                                                                               \
    } while (0)
#define ERR err_, sizeof err_

static const gcrt_tmu_record_t *first(const gcsc_result_t *r, uint32_t kind, uint32_t task) {
    long i = gcsc_log_find(r->log, r->nlog, 0, kind, task);
    return i < 0 ? NULL : &r->log[i];
}

/* Every record of `task` is at (level, depth); the task started and completed. */
static void check_task(const gcsc_result_t *r, uint32_t task, uint32_t level, uint32_t depth) {
    size_t seen = 0;
    for (size_t i = 0; i < r->nlog; i++)
        if (r->log[i].task == task) {
            seen++;
            if (r->log[i].level != level || r->log[i].depth != depth)
                TCASE_FAIL_("task 0x%x: %s at level %u depth %u, want level %u depth %u", task,
                            gc_tmu_event_name(r->log[i].kind), r->log[i].level, r->log[i].depth, level, depth);
        }
    CHECK(seen >= 3);
    CHECK(first(r, GC_TMU_EVENT_START, task) != NULL);
    CHECK(first(r, GC_TMU_EVENT_COMPLETE, task) != NULL);
}

static void t_nested_priority(void) {
    static gcsc_result_t r;
    char tl[96];
    snprintf(tl, sizeof tl, "/tmp/gpucosim-nested-%ld.json", (long)getpid());
    gcrt_config_t cfg;
    cfg_init(&cfg);
    RUN_SCENARIO(gcsc_nested_priority(&cfg, IMAGE, stderr, tl, &r, ERR));
    CHECK_EQ(r.bad_rules, 0);
    CHECK(r.rules >= 15);
    CHECK_EQ(r.nest_stream_prio, 4);
    for (uint32_t l = 1; l <= 4; l++) {
        check_task(&r, r.nest_task[l], 3 + l, l); /* device priorities 4, 5, 6, 7 */
        CHECK_EQ(r.nest_marker[l], GC_MARK(l));
    }
    for (uint32_t l = 1; l <= 3; l++) CHECK_EQ(r.nest_status[l], GC_LAUNCH_STATUS_OK);
    CHECK_EQ(r.nest_status[4], GC_LAUNCH_STATUS_DEPTH);
    CHECK_EQ(r.nest_status[5], GC_LAUNCH_STATUS_NONE);
    CHECK_EQ(r.nest_marker[5], 0);
    for (size_t i = 0; i < r.nlog; i++) CHECK(r.log[i].level < 8); /* nothing reaches 8 */
    const gcrt_tmu_record_t *lf = first(&r, GC_TMU_EVENT_LAUNCH_FAIL, GCSC_ANY);
    REQUIRE(lf != NULL);
    CHECK_EQ(lf->task, r.nest_task[4]);
    CHECK_EQ(lf->level, 7);
    /* the host sees it */
    CHECK(r.lf.pending);
    CHECK_EQ(r.lf.count, 1);
    CHECK_EQ(r.lf.launches, 3);
    CHECK_EQ(r.lf.status, GC_LAUNCH_STATUS_DEPTH);
    CHECK_EQ(r.lf.level, 7);
    CHECK_EQ(r.lf.depth, 4);
    CHECK_EQ(r.lf.task, r.nest_task[4]);
    /* the timeline has the task-slot tracks */
    FILE *f = fopen(tl, "r");
    REQUIRE(f != NULL);
    static char buf[1 << 16];
    size_t len = fread(buf, 1, sizeof buf - 1, f);
    buf[len] = 0;
    fclose(f);
    remove(tl);
    CHECK(strstr(buf, "\"task slots (TMU)\"") != NULL);
    CHECK(strstr(buf, "\"name\":\"nest_chain L4\"") != NULL);
    CHECK(strstr(buf, "\"level\":7,\"depth\":4") != NULL);
}

/* The eviction rules from the log: an EVICT of a low-priority task, hp_short completes before the
 * victim, the victim resumes, every per-CTA counter is exactly 1. */
static void t_eviction(void) {
    static gcsc_result_t r;
    gcrt_config_t cfg;
    cfg_init(&cfg);
    char tl[96];
    snprintf(tl, sizeof tl, "/tmp/gpucosim-eviction-%ld.json", (long)getpid());
    RUN_SCENARIO(gcsc_eviction(&cfg, IMAGE, false, stderr, tl, &r, ERR));
    const char *trace = slurp(tl);
    remove(tl);
    CHECK(trace != NULL);
    CHECK(strstr(trace ? trace : "", "\"name\":\"compute engine\"") != NULL);
    /* every kernel's start / end (gcrt_ops and the timeline) is its START / COMPLETE record */
    CHECK_EQ(check_kernel_times(&r, trace), r.nlp + 1);
    /* they ran at once: hp_short started while every lp_grid had started and not completed */
    const gcrt_op_t *hp = NULL;
    for (size_t i = 0; i < r.nops; i++)
        if (r.ops[i].kind == GCRT_OP_KERNEL && r.ops[i].task == r.hp_task) hp = &r.ops[i];
    REQUIRE(hp != NULL);
    for (size_t i = 0; i < r.nops; i++)
        if (r.ops[i].kind == GCRT_OP_KERNEL && r.ops[i].task != r.hp_task) {
            CHECK(r.ops[i].start_cycle < hp->start_cycle && hp->end_cycle < r.ops[i].end_cycle);
            CHECK_EQ(r.ops[i].evictions, r.ops[i].task == first(&r, GC_TMU_EVENT_EVICT, GCSC_ANY)->task);
        }
    CHECK_EQ(r.bad_rules, 0);
    CHECK_EQ(r.nlp, GC_TMU_SLOTS);
    const gcrt_tmu_record_t *ev = first(&r, GC_TMU_EVENT_EVICT, GCSC_ANY);
    REQUIRE(ev != NULL);
    bool lp = false;
    uint32_t lowest = UINT32_MAX;
    for (uint32_t k = 0; k < r.nlp; k++) {
        lp = lp || ev->task == r.lp_task[k];
        if (r.lp_level[k] < lowest) lowest = r.lp_level[k];
    }
    CHECK(lp);
    CHECK(ev->level < r.hp_level);
    CHECK_EQ(ev->level, lowest); /* the victim is the lowest-priority running task */
    long hc = gcsc_log_find(r.log, r.nlog, 0, GC_TMU_EVENT_COMPLETE, r.hp_task);
    long vc = gcsc_log_find(r.log, r.nlog, 0, GC_TMU_EVENT_COMPLETE, ev->task);
    long vr = gcsc_log_find(r.log, r.nlog, 0, GC_TMU_EVENT_RESUME, ev->task);
    CHECK(hc >= 0);
    CHECK(vc > hc);
    CHECK(vr > (long)(ev - r.log) && vr < vc);
    CHECK(r.evictions >= 1);
    CHECK_EQ(r.counter_ones, r.nlp * r.lp_ctas);
    CHECK_EQ(r.counter_bad, 0);
    CHECK_EQ(r.hp_out_bad, 0);
    CHECK(r.hp_latency > 0);
}

/* TMU_CTRL.NO_EVICT: no EVICT record, hp_short waits for a slot; still exactly once. */
static void t_eviction_no_evict(void) {
    static gcsc_result_t r;
    gcrt_config_t cfg;
    cfg_init(&cfg);
    RUN_SCENARIO(gcsc_eviction(&cfg, IMAGE, true, stderr, NULL, &r, ERR));
    CHECK_EQ(r.bad_rules, 0);
    CHECK(first(&r, GC_TMU_EVENT_EVICT, GCSC_ANY) == NULL);
    CHECK_EQ(r.evictions, 0);
    CHECK_EQ(r.counter_ones, r.nlp * r.lp_ctas);
    CHECK_EQ(r.counter_bad, 0);
}

static void t_childless_parent(void) {
    static gcsc_result_t r;
    gcrt_config_t cfg;
    cfg_init(&cfg);
    RUN_SCENARIO(gcsc_childless_parent(&cfg, IMAGE, false, stderr, NULL, &r, ERR));
    CHECK_EQ(r.bad_rules, 0);
    uint32_t sp = r.cp_stream_prio;
    CHECK_EQ(sp, 10); /* the greatest of 6 stream priorities with N = 2 */
    check_task(&r, r.cp_task[0], sp, 1);     /* ChildlessA */
    check_task(&r, r.cp_task[1], sp, 1);     /* ParentA: the stream's priority, not the lowest */
    check_task(&r, r.cp_task[2], sp + 1, 2); /* ChildA */
    CHECK_EQ(r.cp_status, GC_LAUNCH_STATUS_OK);
    for (uint32_t i = 0; i < 3; i++) CHECK_EQ(r.cp_mark[i], GC_MARK(i));
}

static void t_childless_parent_prior_art(void) {
    static gcsc_result_t r;
    gcrt_config_t cfg;
    cfg_init(&cfg);
    RUN_SCENARIO(gcsc_childless_parent(&cfg, IMAGE, true, stderr, NULL, &r, ERR));
    CHECK_EQ(r.bad_rules, 0);
    check_task(&r, r.cp_task[0], r.cp_stream_prio, 1);
    check_task(&r, r.cp_task[1], 0, 1);
    check_task(&r, r.cp_task[2], 1, 2);
}

/* Kernels are timed from the TMU log, which the runtime keeps on by itself: they are done, with
 * start / end, after a synchronize without any gcrt_tmu_log_enable.  A ring too small for what
 * the device logs while the host does not look (16 records, 12 kernels run by gc_device_run
 * alone) loses records: synchronize still returns, every kernel is done, those that may have lost
 * a record say so (timing_lost, start / end 0), and gcrt_tmu_log counts the loss.  A new ring
 * size waits for the work in flight; kernels after it are timed again. */
static void t_log_ring(void) {
    gcrt_t *rt;
    gc_elf_t *img;
    TOPEN(rt, img);
    {
        uint64_t d;
        RT_OK(rt, gcrt_malloc(rt, &d, 64));
        gc_hp_short_params_t p = {gcrt_kernel_ptr(d), 5};
        uint32_t one[3] = {1, 1, 1};
        const gcrt_op_t *ops;
        size_t n;
        for (int i = 0; i < 2; i++) RT_OK(rt, gcrt_launch(rt, NULL, img, "hp_short", one, one, &p, sizeof p, 0));
        RT_OK(rt, gcrt_stream_synchronize(rt, NULL));
        RT_OK(rt, gcrt_ops(rt, &ops, &n));
        REQUIRE(n == 2);
        for (size_t i = 0; i < n; i++)
            CHECK(ops[i].done && !ops[i].timing_lost && ops[i].launch_cycle < ops[i].start_cycle &&
                  ops[i].start_cycle < ops[i].end_cycle);
        CHECK(ops[1].start_cycle > ops[0].end_cycle); /* one stream: in order */
        /* a 16-record ring, and the device run with nobody reading it */
        RT_OK(rt, gcrt_tmu_log_enable(rt, 4));
        enum { K = 12 };
        for (int i = 0; i < K; i++) RT_OK(rt, gcrt_launch(rt, NULL, img, "hp_short", one, one, &p, sizeof p, 0));
        REQUIRE(gc_device_run(gcrt_device(rt), 2000000) == GC_OK);
        RT_OK(rt, gcrt_device_synchronize(rt));
        const gcrt_tmu_record_t *lg;
        size_t nl;
        uint64_t lost = 0;
        RT_OK(rt, gcrt_tmu_log(rt, &lg, &nl, &lost));
        RT_OK(rt, gcrt_ops(rt, &ops, &n));
        REQUIRE(n == 2 + K);
        size_t nlost = 0;
        for (size_t i = 2; i < n; i++) {
            CHECK(ops[i].done);
            if (ops[i].timing_lost) nlost++;
            else CHECK(ops[i].start_cycle < ops[i].end_cycle);
        }
        fprintf(stderr, "16-record ring: %zu records read, %llu lost, %zu of %d kernels without timing\n", nl,
                (unsigned long long)lost, nlost, K);
        CHECK(lost >= 3 * K - 16);
        CHECK(nlost >= 1);
        /* the default ring again: timed */
        RT_OK(rt, gcrt_tmu_log_enable(rt, 0));
        RT_OK(rt, gcrt_launch(rt, NULL, img, "hp_short", one, one, &p, sizeof p, 0));
        RT_OK(rt, gcrt_stream_synchronize(rt, NULL));
        RT_OK(rt, gcrt_ops(rt, &ops, &n));
        CHECK(ops[n - 1].done && !ops[n - 1].timing_lost && ops[n - 1].start_cycle < ops[n - 1].end_cycle);
        RT_OK(rt, gcrt_tmu_log(rt, &lg, &nl, &lost));
        CHECK_EQ(lost, 0);
        CHECK(gcsc_log_find(lg, nl, 0, GC_TMU_EVENT_START, ops[n - 1].task) >= 0);
        CHECK_EQ(lg[gcsc_log_find(lg, nl, 0, GC_TMU_EVENT_START, ops[n - 1].task)].cycle, ops[n - 1].start_cycle);
        uint32_t v = 0;
        RT_OK(rt, gcrt_read(rt, d, &v, sizeof v));
        CHECK_EQ(v, 5);
    }
out:
    tclose(rt, img);
}

static const tcase_t cases[] = {
    {"tmu_log_ring", t_log_ring},
    {"tmu_limits", t_limits},
    {"tmu_bad_priority", t_bad_priority},
    {"tmu_tmd_and_channels", t_tmd_and_channels},
    {"tmu_nested_priority", t_nested_priority},
    {"tmu_eviction", t_eviction},
    {"tmu_eviction_no_evict", t_eviction_no_evict},
    {"tmu_childless_parent", t_childless_parent},
    {"tmu_childless_parent_prior_art", t_childless_parent_prior_art},
};
TCASE_MAIN(cases)
