/* scen_tmu.c: the task management unit scenarios: nested-priority, eviction, childless-parent.  See scenarios.h. */
#include <stdarg.h>
#include <string.h>

#include "gc_kernels.h"
#include "gpucosim_spec.h"

#include "scen_common.h"

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
    if (!image) return scn_chk(c, GCRT_ERROR_INVALID_VALUE, "no kernel image");
    gcrt_launch_failures_t lf;
    return scn_open_rt(c, cfg, rt) && scn_chk(c, gcrt_set_limit(*rt, GCRT_LIMIT_MAX_NESTING_DEPTH, depth), "max nesting depth") &&
           scn_chk(c, gcrt_load_image(*rt, image, img), image) && scn_chk(c, gcrt_tmu_log_enable(*rt, 0), "task log") &&
           scn_chk(c, gcrt_launch_failures(*rt, &lf, true), "launch failures");
}

/* Harvest the ops and the log into res, print the log and the ops. */
static bool tmu_harvest(ctx_t *c, gcsc_result_t *res, FILE *out) {
    const gcrt_tmu_record_t *lg;
    size_t n;
    if (!scn_log_harvest(c, res, &lg, &n)) return false;
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
    scn_print_ops(out, res);
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
    if (tmu_open(&c, cfg, image, N, &rt, &img) && scn_chk(&c, gcrt_stream_create_with_priority(rt, &s, -1), "stream") &&
        scn_chk(&c, gcrt_stream_get_device_priority(rt, s, &res->nest_stream_prio), "device priority") &&
        scn_chk(&c, gcrt_malloc(rt, &recs, GC_LREC_BYTES * (CAP + 1)), "launch records") &&
        scn_chk(&c, gcrt_malloc(rt, &words, 8 * (CAP + 1)), "markers")) {
        uint32_t init[2 * (CAP + 1)];
        for (int i = 0; i <= CAP; i++) init[i] = 0, init[CAP + 1 + i] = GC_LAUNCH_STATUS_NONE;
        for (uint32_t l = 1; l <= CAP; l++) {
            char nm[32];
            snprintf(nm, sizeof nm, "nest_chain L%u", l);
            res->nest_task[l] = (uint32_t)((recs + GC_LREC_BYTES * l) >> 8);
            if (l > 1) scn_chk(&c, gcrt_tmu_name_task(rt, res->nest_task[l], nm), "name");
        }
        gc_nest_params_t p = {gcrt_kernel_ptr(recs), gcrt_kernel_ptr(words), gcrt_kernel_ptr(words + 4 * (CAP + 1)), 1,
                              CAP};
        uint32_t one[3] = {1, 1, 1};
        if (out)
            fprintf(out, "nested-priority: max nesting depth N = %u, stream priority -1 -> device priority %u; "
                         "nest_chain launches itself until a launch fails\n",
                    N, res->nest_stream_prio);
        if (scn_chk(&c, gcrt_write(rt, words, init, sizeof init), "init") &&
            scn_chk(&c, gcrt_launch(rt, s, img, "nest_chain", one, one, &p, sizeof p, 0), "launch nest_chain") &&
            scn_chk(&c, gcrt_stream_synchronize(rt, s), "synchronize") &&
            scn_chk(&c, gcrt_read(rt, words, init, sizeof init), "read markers") && tmu_harvest(&c, res, out)) {
            const gcrt_op_t *ops;
            size_t nops;
            if (scn_chk(&c, gcrt_ops(rt, &ops, &nops), "ops") && nops) res->nest_task[1] = ops[nops - 1].task;
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
        scn_finish(&c, timeline);
    }
    return tmu_close(&c, rt, img);
}

/* Run the device until `want` START records of the tasks in `tasks` are in the log. */
static bool wait_started(ctx_t *c, const uint32_t *tasks, uint32_t ntasks, uint64_t budget) {
    for (uint64_t spent = 0; spent < budget; spent += 32) {
        const gcrt_tmu_record_t *lg;
        size_t n;
        if (!scn_chk(c, gcrt_tmu_log(c->rt, &lg, &n, NULL), "task log")) return false;
        uint32_t started = 0;
        for (uint32_t k = 0; k < ntasks; k++) started += gcsc_log_find(lg, n, 0, GC_TMU_EVENT_START, tasks[k]) >= 0;
        if (started == ntasks) return true;
        if (gc_device_run(gcrt_device(c->rt), 32) != GC_OK) return scn_chk(c, GCRT_ERROR_BACKEND, "run");
    }
    return scn_chk(c, GCRT_ERROR_TIMEOUT, "waiting for the low-priority tasks to take the task slots");
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
    if (tmu_open(&c, cfg, image, 1, &rt, &img) && scn_chk(&c, gcrt_tmu_config(rt, &tc), "TMU config") &&
        scn_chk(&c, gcrt_set_no_evict(rt, no_evict), "TMU_CTRL")) {
        gc_mmio_read(gcrt_device(rt), GC_REG_COMPUTE_CONFIG, &ccfg);
        uint32_t lanes = GC_COMPUTE_CONFIG_LANES_GET(ccfg), warps = GC_COMPUTE_CONFIG_WARPS_GET(ccfg);
        uint32_t nsm = GC_COMPUTE_CONFIG_NUM_SM_GET(ccfg);
        int least = 0, greatest = 0;
        scn_chk(&c, gcrt_stream_priority_range(rt, &least, &greatest), "priority range");
        uint32_t nlp = tc.slots, levels = (uint32_t)(least - greatest) + 1;
        if (nlp > GCSC_MAX_LP || nlp + 1 > levels) {
            scn_chk(&c, GCRT_ERROR_NOT_SUPPORTED, "eviction: more task slots than low-priority stream levels");
            nlp = 0;
        }
        res->nlp = nlp;
        /* enough CTAs that the lowest task still has undispatched ones when the high one comes */
        uint32_t ctas = 3 * nsm * warps, spin = 150;
        res->lp_ctas = ctas;
        gcrt_stream_t *lp[GCSC_MAX_LP] = {0}, *hp = NULL;
        uint64_t cnt = 0, sink = 0, hout = 0;
        bool okb = c.e == GCRT_SUCCESS && scn_chk(&c, gcrt_malloc(rt, &cnt, 4ull * ctas * (nlp ? nlp : 1)), "counters") &&
                   scn_chk(&c, gcrt_malloc(rt, &sink, 4ull * ctas * (nlp ? nlp : 1)), "sink") &&
                   scn_chk(&c, gcrt_malloc(rt, &hout, 64), "hp out") &&
                   scn_chk(&c, gcrt_memset_async(rt, cnt, 0, 4ull * ctas * nlp, NULL, "zero counters"), "memset") &&
                   scn_chk(&c, gcrt_memset_async(rt, sink, 0, 4ull * ctas * nlp, NULL, "zero sink"), "memset") &&
                   scn_chk(&c, gcrt_memset_async(rt, hout, 0, 64, NULL, "zero out"), "memset") &&
                   scn_chk(&c, gcrt_device_synchronize(rt), "synchronize") &&
                   scn_chk(&c, gcrt_stream_create_with_priority(rt, &hp, greatest), "high stream");
        for (uint32_t k = 0; okb && k < nlp; k++)
            okb = scn_chk(&c, gcrt_stream_create_with_priority(rt, &lp[k], -(int)k), "low stream") &&
                  scn_chk(&c, gcrt_stream_get_device_priority(rt, lp[k], &res->lp_level[k]), "device priority");
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
            okb = scn_chk(&c, gcrt_launch(rt, lp[k], img, "lp_grid", grid, block, &p, sizeof p, 0), "launch lp_grid") &&
                  scn_chk(&c, gcrt_ops(rt, &ops, &n), "ops");
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
            if (scn_chk(&c, gcrt_launch(rt, hp, img, "hp_short", grid, block, &p, sizeof p, 0), "launch hp_short") &&
                scn_chk(&c, gcrt_ops(rt, &ops, &n), "ops")) {
                hp_seq = n - 1;
                res->hp_task = ops[n - 1].task;
                res->hp_level = ops[n - 1].device_priority;
            }
        }
        uint32_t outw[2] = {0};
        if (c.e == GCRT_SUCCESS && scn_chk(&c, gcrt_device_synchronize(rt), "synchronize") &&
            scn_chk(&c, gcrt_read(rt, hout, outw, sizeof outw), "read") && tmu_harvest(&c, res, out)) {
            gc_mmio_read(gcrt_device(rt), GC_REG_COMPUTE_EVICTIONS, &res->evictions);
            const gcrt_op_t *ops;
            size_t n;
            if (scn_chk(&c, gcrt_ops(rt, &ops, &n), "ops") && hp_seq < n)
                res->hp_latency = ops[hp_seq].end_cycle - ops[hp_seq].launch_cycle;
            static uint32_t counters[GCSC_MAX_LP * 64 * 8];
            if (4ull * ctas * nlp <= sizeof counters && scn_chk(&c, gcrt_read(rt, cnt, counters, 4ull * ctas * nlp), "read"))
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
        scn_finish(&c, timeline);
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
    if (tmu_open(&c, cfg, image, 2, &rt, &img) && scn_chk(&c, gcrt_stream_priority_range(rt, &least, &greatest), "range") &&
        scn_chk(&c, gcrt_stream_create_with_priority(rt, &sa, greatest), "StreamA") &&
        scn_chk(&c, gcrt_stream_get_device_priority(rt, sa, &res->cp_stream_prio), "device priority") &&
        scn_chk(&c, gcrt_malloc(rt, &rec, GC_LREC_BYTES), "launch record") && scn_chk(&c, gcrt_malloc(rt, &words, 16), "marks")) {
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
        if (scn_chk(&c, gcrt_tmu_name_task(rt, res->cp_task[2], "ChildA"), "name") &&
            scn_chk(&c, gcrt_write(rt, words, init, sizeof init), "init") &&
            scn_chk(&c, gcrt_launch(rt, sa, img, "childless_a", one, one, &pc, sizeof pc, 0), "ChildlessA") &&
            scn_chk(&c, gcrt_launch_ex(rt, sa, img, "parent_a", one, one, &pp, sizeof pp, 0, &pa), "ParentA") &&
            scn_chk(&c, gcrt_stream_synchronize(rt, sa), "synchronize") &&
            scn_chk(&c, gcrt_read(rt, words, init, sizeof init), "read") && scn_chk(&c, gcrt_ops(rt, &ops, &n), "ops") &&
            n >= 2) {
            res->cp_task[0] = ops[n - 2].task;
            res->cp_task[1] = ops[n - 1].task;
            scn_chk(&c, gcrt_tmu_name_task(rt, res->cp_task[0], "ChildlessA"), "name");
            scn_chk(&c, gcrt_tmu_name_task(rt, res->cp_task[1], "ParentA"), "name");
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
        scn_finish(&c, timeline);
    }
    return tmu_close(&c, rt, img);
}
