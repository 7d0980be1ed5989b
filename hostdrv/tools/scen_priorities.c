/* scen_priorities.c: the priority scenarios: the copy-priority walk-through and prio-latency.  See scenarios.h. */
#include <string.h>

#include "gpucosim_spec.h"
#include "scen_common.h"

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
    } else if (o[MHIGH1].end_cycle < o[MLOW1].end_cycle) {
        snprintf(res->why, sizeof res->why,
                 "Clow's time slice (%u cycle%s) expired before Mlow1 was done (Mlow1 reached at cycle %llu, ended "
                 "at cycle %llu; Clow time-slice switches: %u), and Chigh's higher-priority Mhigh1 (reached at "
                 "cycle %llu, ended at cycle %llu) kept the engine until it was done: the walk-through assumes "
                 "Mlow1 completes within Clow's slice",
                 cfg->copy_timeslice, cfg->copy_timeslice == 1 ? "" : "s", AT(MLOW1), END(MLOW1), res->sw_timeslice[0],
                 AT(MHIGH1), END(MHIGH1));
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
    if (scn_open_rt(&c, cfg, &rt) && scn_chk(&c, gcrt_stream_priority_range(rt, &least, &greatest), "priority range") &&
        scn_chk(&c, gcrt_stream_create_with_priority(rt, &lo, least), "low stream") &&
        scn_chk(&c, gcrt_stream_create_with_priority(rt, &hi, greatest), "high stream") &&
        scn_chk(&c, gcrt_malloc(rt, &src, (uint64_t)stride * N), "malloc") &&
        scn_chk(&c, gcrt_malloc(rt, &dst, (uint64_t)stride * N), "malloc")) {
        gcsc_fill(data, sizeof data, 2024);
        scn_chk(&c, gcrt_write(rt, src, data, sizeof data), "write source");
        if (out)
            fprintf(out, "copy-priority walk-through: copy priorities %s, Clow = stream priority %d, Chigh = %d, "
                         "one copy engine, time slice %u cycles\n",
                    cfg->copy_priorities_enabled ? "on" : "off (prior art)", least, greatest, cfg->copy_timeslice);
        for (int k = 0; k < N && c.e == GCRT_SUCCESS; k++) {
            gcrt_stream_t *s = k < MHIGH1 ? lo : hi;
            scn_chk(&c, gcrt_memcpy_async(rt, dst + (uint64_t)stride * k, src + (uint64_t)stride * k, sizes[k],
                                      GCRT_MEMCPY_DEVICE_TO_DEVICE, s, names[k]), names[k]);
            if (k == MLOW1) scn_wait_launched(&c, 0, 200000); /* the other requests come while Mlow1 copies */
        }
        if (scn_chk(&c, gcrt_device_synchronize(rt), "synchronize") && scn_harvest(&c, res)) {
            for (int k = 0; k < N; k++) {
                if (!scn_chk(&c, gcrt_read(rt, dst + (uint64_t)stride * k, got, sizes[k]), "read")) break;
                for (uint32_t i = 0; i < sizes[k]; i++) res->bad_bytes += got[i] != data[stride * k + i];
            }
            for (uint32_t q = 1; q < cfg->copy_priorities; q++) {
                uint32_t v = 0;
                if (scn_chk(&c, gcrt_copy_semaphore(rt, q, &v), "semaphore")) res->sem_final += v;
            }
            gc_device_t *dev = gcrt_device(rt);
            for (int k = 0; k < 2; k++)
                if (c.e == GCRT_SUCCESS && gc_mmio_read(dev, GC_REG_CHANNEL_SWITCH_TIMESLICE(res->ops[k ? MHIGH1 : MLOW1].hw_channel),
                                                        &res->sw_timeslice[k]) != GC_OK)
                    scn_chk(&c, GCRT_ERROR_BACKEND, "switch counters");
            copy_priority_verdict(cfg, res);
            res->passed = c.e == GCRT_SUCCESS && res->bad_bytes == 0 && res->sem_final == 0 && res->order_ok;
            scn_print_ops(out, res);
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
        scn_finish(&c, timeline);
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
    if (scn_open_rt(&c, cfg, &rt) && scn_chk(&c, gcrt_stream_priority_range(rt, &least, &greatest), "priority range") &&
        scn_chk(&c, gcrt_stream_create_with_priority(rt, &lo, least), "low stream") &&
        scn_chk(&c, gcrt_stream_create_with_priority(rt, &hi, greatest), "high stream") &&
        scn_chk(&c, gcrt_malloc(rt, &src, (uint64_t)BIG * (FLOOD + 1)), "malloc") &&
        scn_chk(&c, gcrt_malloc(rt, &dst, (uint64_t)BIG * (FLOOD + 1)), "malloc")) {
        /* alone */
        if (scn_chk(&c, gcrt_memcpy_async(rt, dst, src, SMALL, GCRT_MEMCPY_DEVICE_TO_DEVICE, hi, "high.idle"), "copy"))
            scn_chk(&c, gcrt_device_synchronize(rt), "synchronize");
        /* under the flood: the high copy arrives once the first flood copy runs */
        for (int k = 0; k < FLOOD && c.e == GCRT_SUCCESS; k++) {
            char tag[16];
            snprintf(tag, sizeof tag, "flood%d", k);
            scn_chk(&c, gcrt_memcpy_async(rt, dst + (uint64_t)BIG * (k + 1), src + (uint64_t)BIG * (k + 1), BIG,
                                      GCRT_MEMCPY_DEVICE_TO_DEVICE, lo, tag), "flood copy");
        }
        if (c.e == GCRT_SUCCESS) scn_wait_launched(&c, 1, 200000);
        if (c.e == GCRT_SUCCESS)
            scn_chk(&c, gcrt_memcpy_async(rt, dst, src, SMALL, GCRT_MEMCPY_DEVICE_TO_DEVICE, hi, "high.flood"), "copy");
        if (c.e == GCRT_SUCCESS && scn_chk(&c, gcrt_device_synchronize(rt), "synchronize") && scn_harvest(&c, res)) {
            const gcrt_op_t *idle = &res->ops[0], *fl = &res->ops[FLOOD + 1];
            res->lat_idle = idle->end_cycle - idle->submit_cycle;
            res->lat_flood = fl->end_cycle - fl->submit_cycle;
            scn_print_ops(out, res);
            if (out)
                fprintf(out, "summary: prio-latency (copy priorities %s): high-priority 16 KiB copy %llu cycles alone, "
                             "%llu cycles under %d low-priority 8 KiB copies (%.2fx)\n",
                        cfg->copy_priorities_enabled ? "on" : "off", (unsigned long long)res->lat_idle,
                        (unsigned long long)res->lat_flood, FLOOD, (double)res->lat_flood / (double)res->lat_idle);
        }
        scn_finish(&c, timeline);
    }
    gcrt_close(rt);
    return c.e;
}
