/* scen_copies.c: the copy scenarios: video-pipeline (staged copies chained by events).  See scenarios.h. */
#include <string.h>

#include "gpucosim_spec.h"
#include "scen_common.h"

/* ------------------------------------------------------------------ video-pipeline */
gcrt_error_t gcsc_video_pipeline(const gcrt_config_t *cfg, uint32_t frames, FILE *out, const char *timeline,
                                 gcsc_result_t *res, char *err, size_t errlen) {
    enum { FRAME = 16384, STAGES = 3 };
    memset(res, 0, sizeof *res);
    ctx_t c = {.out = out, .err = err, .errlen = errlen};
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
    if (scn_open_rt(&c, cfg, &rt) && scn_chk(&c, gcrt_stream_priority_range(rt, &least, &greatest), "priority range")) {
        int prios[STAGES] = {least, greatest / 2, greatest}; /* the last stage has the highest priority */
        for (int s = 0; s < STAGES; s++) scn_chk(&c, gcrt_stream_create_with_priority(rt, &st[s], prios[s]), "stream");
        scn_chk(&c, gcrt_malloc_host(rt, &in, (uint64_t)FRAME * frames), "malloc_host");
        scn_chk(&c, gcrt_malloc(rt, &a, (uint64_t)FRAME * frames), "malloc");
        scn_chk(&c, gcrt_malloc(rt, &b, (uint64_t)FRAME * frames), "malloc");
        scn_chk(&c, gcrt_malloc_host(rt, &outb, (uint64_t)FRAME * frames), "malloc_host");
        for (uint32_t f = 0; f < frames; f++)
            for (int k = 0; k < 2; k++) scn_chk(&c, gcrt_event_create(rt, &ev[f][k]), "event");
        gcsc_fill(data, (size_t)FRAME * frames, 77);
        scn_chk(&c, gcrt_write(rt, in, data, (size_t)FRAME * frames), "write frames");
        if (out)
            fprintf(out, "video-pipeline: %u frames of %u bytes: h2d (stream priority %d) -> d2d (%d) -> d2h (%d), "
                         "copy priorities %s\n",
                    frames, FRAME, prios[0], prios[1], prios[2], cfg->copy_priorities_enabled ? "on" : "off");
        for (uint32_t f = 0; f < frames && c.e == GCRT_SUCCESS; f++) {
            uint64_t off = (uint64_t)FRAME * f;
            char tag[3][16];
            for (int s = 0; s < STAGES; s++) snprintf(tag[s], sizeof tag[s], "F%u.%s", f, stage_name[s]);
            (void)(scn_chk(&c, gcrt_memcpy_async(rt, a + off, in + off, FRAME, GCRT_MEMCPY_HOST_TO_DEVICE, st[0], tag[0]), "h2d") &&
                scn_chk(&c, gcrt_event_record(rt, ev[f][0], st[0]), "record") &&
                scn_chk(&c, gcrt_stream_wait_event(rt, st[1], ev[f][0]), "wait") &&
                scn_chk(&c, gcrt_memcpy_async(rt, b + off, a + off, FRAME, GCRT_MEMCPY_DEVICE_TO_DEVICE, st[1], tag[1]), "d2d") &&
                scn_chk(&c, gcrt_event_record(rt, ev[f][1], st[1]), "record") &&
                scn_chk(&c, gcrt_stream_wait_event(rt, st[2], ev[f][1]), "wait") &&
                scn_chk(&c, gcrt_memcpy_async(rt, outb + off, b + off, FRAME, GCRT_MEMCPY_DEVICE_TO_HOST, st[2], tag[2]), "d2h"));
        }
        if (c.e == GCRT_SUCCESS && scn_chk(&c, gcrt_device_synchronize(rt), "synchronize") && scn_harvest(&c, res) &&
            scn_chk(&c, gcrt_read(rt, outb, got, (size_t)FRAME * frames), "read")) {
            for (size_t i = 0; i < (size_t)FRAME * frames; i++) res->bad_bytes += got[i] != data[i];
            res->frames = frames;
            scn_print_ops(out, res);
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
        scn_finish(&c, timeline);
    }
    gcrt_close(rt);
    return c.e;
}
