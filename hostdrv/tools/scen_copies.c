/* scen_copies.c: the copy scenarios.  See scenarios.h.
 *   video-pipeline (staged copies chained by events), on the runtime;
 *   copy, ce-bandwidth and frontend-load, the CLI's driver-level scenarios: below the runtime on
 *   purpose, on the driver's channel, mem and device layers (gpucosim/chan.h), the front end
 *   without the runtime's streams in between (scripts/check_layers.py lets this file alone do so).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "gpucosim/chan.h"
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

/* ------------------------------------------------------------------ driver-level scenarios */
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

/* Open the device of scenario `scen` (scenarios.h). */
bool gcsc_open_device(const gc_device_config_t *cfg, gc_device_t **dev, const char *scen) {
    char err[400];
    if (gc_device_open_ex(cfg, dev, err, sizeof err) == GC_OK) return true;
    fprintf(stderr, "gpucosim: %s: opening the device: %s\n", scen, err);
    return false;
}

/* The default scenario's two copies (scenarios.h). */
void gcsc_pb_roundtrip_copies(gc_pushbuf_t *pb, uint64_t src, uint64_t vid, uint64_t dst, uint32_t bytes,
                              uint64_t sem) {
    gc_copy_desc_t c1 = {.dst = vid, .src = src, .line_bytes = bytes, .line_count = 1,
                         .sem = GC_COPY_SEM_FOUR_WORD, .sem_addr = sem, .sem_payload = 1};
    gc_copy_desc_t c2 = c1;
    c2.dst = dst;
    c2.src = vid;
    c2.sem_addr = sem + 16;
    c2.sem_payload = 2;
    gc_pb_copy_desc(pb, 4, &c1);
    gc_pb_copy_desc(pb, 4, &c2);
}

/* The default scenario: host buffer -> vidmem -> host buffer through copy engine 0 on one GPFIFO
 * channel, each copy with a four-word copy-engine release (its record: the payload, the cycle the
 * engine took the copy, the cycle it released after the last data write) and a host release at
 * the end. */
int gcsc_drv_copy(const gc_device_config_t *dev_cfg, uint32_t bytes) {
    static const char *const S = "copy";
    gc_device_config_t cfg = *dev_cfg;
    cfg.poll_cycles = 1; /* see each semaphore on the cycle it lands */
    /* each wait covers one copy: its budget grows with the bytes (at most ~0.4 cycles a byte
     * without stalls, ten times that budgeted) and with the stall rate */
    uint64_t budget = 2000000u + (uint64_t)bytes * 4u * 100u / (100u - cfg.stall_pct);
    if (budget > cfg.wait_cycles) cfg.wait_cycles = budget;
    gc_device_t *dev = NULL;
    gc_channel_t *ch = NULL;
    uint8_t *want = malloc(bytes), *got = malloc(bytes);
    int ok = 0;
    if (!want || !got) {
        fprintf(stderr, "gpucosim: copy: no host memory for two buffers of %u bytes\n", bytes);
        goto out;
    }
    if (!gcsc_open_device(&cfg, &dev, S)) goto out;
    printf("device: backend %s, %u channels, seed %" PRIu64 "\n", cfg.backend, GC_NUM_CHANNELS,
           gc_device_seed(dev));
    TRY(dev, S, "opening a channel", gc_channel_open(dev, NULL, &ch));
    gc_buf_t src, vid, dst, sem;
    TRY(dev, S, "allocating the sysmem source", gc_mem_alloc(dev, GC_MEM_SYSMEM, bytes, 64, &src));
    TRY(dev, S, "allocating the vidmem buffer", gc_mem_alloc(dev, GC_MEM_VIDMEM, bytes, 64, &vid));
    TRY(dev, S, "allocating the sysmem destination", gc_mem_alloc(dev, GC_MEM_SYSMEM, bytes, 64, &dst));
    TRY(dev, S, "allocating the semaphores", gc_mem_alloc(dev, GC_MEM_SYSMEM, 64, 64, &sem));
    gcsc_fill(want, bytes, gc_device_seed(dev));
    uint8_t zero[64] = {0};
    TRY(dev, S, "writing the source", gc_mem_write(dev, src.addr, want, bytes));
    TRY(dev, S, "clearing the semaphores", gc_mem_write(dev, sem.addr, zero, sizeof zero));
    uint32_t words[64];
    gc_pushbuf_t pb;
    gc_pb_init(&pb, words, 64);
    gcsc_pb_roundtrip_copies(&pb, src.addr, vid.addr, dst.addr, bytes, sem.addr);
    gc_pb_sem_release(&pb, sem.addr + 32, 0xC0FFEE, false, true);
    printf("channel %u: GPFIFO ring of %u entries, pushbuffer of %u dwords\n", gc_channel_id(ch), 64u, pb.len);
    printf("  copy 1: sysmem 0x%010" PRIx64 " -> vidmem 0x%010" PRIx64 ", %u bytes, CE releases sem[0] = 1 "
           "(four words: payload, start, end)\n", src.addr, vid.addr, bytes);
    printf("  copy 2: vidmem 0x%010" PRIx64 " -> sysmem 0x%010" PRIx64 ", %u bytes, CE releases sem[1] = 2 "
           "(four words: payload, start, end)\n", vid.addr, dst.addr, bytes);
    printf("  host:   SEM_EXECUTE RELEASE (WFI) sem[2] = 0xC0FFEE\n");
    uint64_t t0 = gc_device_cycles(dev), t1 = 0, t2 = 0, t3 = 0;
    TRY(dev, S, "submitting the pushbuffer", gc_channel_submit(ch, &pb));
    printf("cycle %8" PRIu64 ": GP_PUT doorbell\n", t0);
    TRY(dev, S, "copy 1", gc_sem_wait(dev, sem.addr, 1, &t1));
    printf("cycle %8" PRIu64 ": sem[0] = 1   copy 1 done (%" PRIu64 " cycles, %.2f bytes/cycle)\n", t1, t1 - t0,
           (double)bytes / (double)(t1 - t0));
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
               "bytes/cycle)\n", k + 1, start, end, end - start, (double)bytes / (double)(end - start));
    }
    TRY(dev, S, "waiting for the channel to go idle", gc_channel_wait_idle(ch));
    uint32_t get = 0, methods = 0, ce_busy = 0;
    TRY(dev, S, "reading GP_GET", gc_channel_gp_get(ch, &get));
    TRY(dev, S, "reading CHANNEL.METHODS", gc_mmio_read(dev, GC_REG_CHANNEL_METHODS(gc_channel_id(ch)), &methods));
    TRY(dev, S, "reading ENGINE.BUSY_CYCLES", gc_mmio_read(dev, GC_REG_ENGINE_BUSY_CYCLES(0), &ce_busy));
    TRY(dev, S, "reading the destination", gc_mem_read(dev, dst.addr, got, bytes));
    size_t bad = 0;
    for (uint32_t i = 0; i < bytes; i++) bad += want[i] != got[i];
    TRY(dev, S, "reading the vidmem buffer", gc_mem_read(dev, vid.addr, got, bytes));
    for (uint32_t i = 0; i < bytes; i++) bad += want[i] != got[i];
    printf("GP_GET %u, %u methods executed, CE0 busy %u cycles\n", get, methods, ce_busy);
    /* the engine ran them one after the other, each between the doorbell and its semaphore */
    bool timed = t0 < rs[0] && rs[0] < re[0] && re[0] < rs[1] && rs[1] < re[1] && re[1] <= t2;
    if (!timed) printf("copy records out of order: doorbell %" PRIu64 ", copy 1 %" PRIu64 "..%" PRIu64 ", copy 2 %" PRIu64
                       "..%" PRIu64 ", sem[1] seen at %" PRIu64 "\n", t0, rs[0], re[0], rs[1], re[1], t2);
    ok = bad == 0 && timed;
    printf("summary: copy %s: %u bytes sysmem->vidmem->sysmem, %zu bytes differ, %" PRIu64 " cycles\n",
           ok ? "PASSED" : "FAILED", bytes, bad, t3 - t0);
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
 * release's own sysmem round trip.  The memory's own latencies bound it: the first read beat comes
 * 40 cycles after the AR and the last write's B 40 cycles after its W (vidmem), so 64 KiB (8192
 * beats) take at least 8272 cycles: at most 0.9903. */
int gcsc_drv_ce_bandwidth(const gc_device_config_t *dev_cfg) {
    gc_device_t *dev = NULL;
    gc_channel_t *ch = NULL;
    int ok = 0;
    static const uint32_t sizes[] = {64u << 10, 1u << 20};
    static const char *const S = "ce-bandwidth";
    gc_device_config_t cfg = *dev_cfg;
    if (!gcsc_open_device(&cfg, &dev, S)) goto out;
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
        /* The copy's own record first, then the channel's fence: the fence's GPFIFO entry and
         * pushbuffer are read only after the copy, so no front-end read shares the memory's R
         * channel with the measured copy (the engine alone). */
        TRY(dev, S, "waiting for the copy's record", gc_sem_wait(dev, sem.addr + 16, 1, NULL));
        TRY(dev, S, "waiting for the channel", gc_channel_wait_idle(ch));
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
int gcsc_drv_frontend_load(const gc_device_config_t *dev_cfg) {
    enum { NCH = 8, ROUNDS = 24, BYTES = 512 };
    gc_device_t *dev = NULL;
    gc_channel_t *ch[NCH] = {0};
    uint8_t *want = NULL, *got = NULL;
    int ok = 0;
    static const char *const S = "frontend-load";
    gc_device_config_t cfg = *dev_cfg;
    if (!gcsc_open_device(&cfg, &dev, S)) goto out;
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
