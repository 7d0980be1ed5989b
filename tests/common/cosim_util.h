/* cosim_util.h: helpers shared by the end-to-end tests (header only, one test binary each). */
#ifndef GPUCOSIM_COSIM_UTIL_H
#define GPUCOSIM_COSIM_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpucosim/hostdrv.h"
#include "gpucosim/props.h"
#include "scenarios.h"
#include "gpucosim_spec.h"

/* A quiet runtime with the image at path loaded, or NULL with the reason in why. */
static inline gcrt_t *util_open_rt_image(const char *path, gc_elf_t **img, char *why, size_t whylen) {
    gcrt_config_t cfg;
    gcrt_config_init(&cfg);
    cfg.device.quiet = true;
    gcrt_t *rt = NULL;
    *img = NULL;
    if (gcrt_open(&cfg, &rt) || gcrt_load_image(rt, path, img)) {
        snprintf(why, whylen, "%s", rt ? gcrt_last_message(rt) : "gcrt_open failed");
        if (rt) gcrt_close(rt);
        return NULL;
    }
    return rt;
}

/* A wait budget of `cycles` without stalls, for a memory model stalling `stall_pct` percent of
 * handshakes: every transfer may take up to (1 + p) / (1 - p) times as long (the ref model's
 * stretch: c / (1 - p) plus a random share of c p), so the budget grows by that factor. */
static inline uint64_t util_stall_budget(uint64_t cycles, uint32_t stall_pct) {
    uint32_t p = stall_pct > 90 ? 90 : stall_pct;
    return cycles * (100u + p) / (100u - p);
}

/* The stall percentage a device opened now gets (GPUCOSIM_STALL_PCT, else 0). */
static inline uint32_t util_stall_pct(void) {
    gc_device_config_t cfg;
    gc_device_config_init(&cfg);
    return cfg.stall_pct;
}

/* Open a quiet device on the default backend; `tweak` may adjust the config first.  The wait
 * budget (a hang watchdog) is 500,000 cycles scaled for GPUCOSIM_STALL_PCT. */
static inline gc_device_t *util_open(void (*tweak)(gc_device_config_t *)) {
    gc_device_config_t cfg;
    gc_device_config_init(&cfg);
    cfg.quiet = true;
    cfg.wait_cycles = util_stall_budget(500000, cfg.stall_pct);
    if (tweak) tweak(&cfg);
    gc_device_t *dev = NULL;
    gc_status_t st = gc_device_open(&cfg, &dev);
    if (st != GC_OK) fprintf(stderr, "gc_device_open: %s\n", gc_status_str(st));
    else fprintf(stderr, "device seed %llu\n", (unsigned long long)gc_device_seed(dev));
    return dev;
}

/* util_open(NULL) and the device's properties (GLOBAL.CONFIG ...) into *p; NULL (the device
 * closed, the reason on stderr) if either fails. */
static inline gc_device_t *util_open_props(gc_device_props_t *p) {
    gc_device_t *dev = util_open(NULL);
    if (dev && gc_device_get_props(dev, p) != GC_OK) {
        fprintf(stderr, "gc_device_get_props: %s\n", gc_device_last_error(dev));
        gc_device_close(dev);
        dev = NULL;
    }
    return dev;
}

/* CHANNEL.ERROR_METHOD as a fault of method `mthd` (a byte offset) on subchannel `subch` records it. */
static inline uint32_t util_err_method(uint32_t subch, uint32_t mthd) {
    return GC_CHANNEL_ERROR_METHOD_SUBCHANNEL(subch) | GC_CHANNEL_ERROR_METHOD_ADDRESS(mthd / 4);
}

/* Open a channel on `runlist` with the driver's defaults but the given TIMESLICE (0: the default)
 * and ACQ_TIMEOUT; NULL (with the driver's message on stderr) if it cannot be opened. */
static inline gc_channel_t *util_open_channel(gc_device_t *dev, uint32_t runlist, uint32_t timeslice,
                                              uint32_t acq_timeout) {
    gc_channel_config_t cc;
    gc_channel_config_init(&cc);
    cc.runlist = runlist;
    if (timeslice) cc.timeslice = timeslice;
    cc.acq_timeout = acq_timeout;
    gc_channel_t *ch = NULL;
    if (gc_channel_open(dev, &cc, &ch) != GC_OK) fprintf(stderr, "open: %s\n", gc_device_last_error(dev));
    return ch;
}

/* Write `bytes` (<= 4096) at device address dst *through the device*: the copy engine of runlist
 * 2 copies them from a vidmem staging buffer (a write on the memory bus, seen by the crossbar's
 * write snoop, as a thread's stores are; gc_mem_write is the host's and is not).  GC_OK once the
 * copy's release has landed. */
static inline gc_status_t util_ce_write(gc_device_t *dev, uint64_t dst, const void *src, uint32_t bytes) {
    gc_buf_t stage, sem;
    gc_status_t st;
    static const uint32_t zero[4];
    if ((st = gc_mem_alloc(dev, GC_MEM_VIDMEM, bytes, 64, &stage)) != GC_OK ||
        (st = gc_mem_alloc(dev, GC_MEM_SYSMEM, 16, 16, &sem)) != GC_OK ||
        (st = gc_mem_write(dev, stage.addr, src, bytes)) != GC_OK || (st = gc_mem_write(dev, sem.addr, zero, 16)) != GC_OK)
        return st;
    gc_channel_config_t cc;
    gc_channel_config_init(&cc);
    cc.runlist = 2;
    gc_channel_t *c = NULL;
    if ((st = gc_channel_open(dev, &cc, &c)) != GC_OK) return st;   /* the driver's own status */
    if ((st = gc_copy(c, dst, stage.addr, bytes, sem.addr, 1)) == GC_OK) st = gc_sem_wait(dev, sem.addr, 1, NULL);
    if (st == GC_OK) st = gc_channel_wait_idle(c);
    gc_channel_close(c);
    return st;
}

/* Run until channel `id` is no longer resident on its PBDMA (at most `budget` cycles): after
 * gc_channel_wait_idle the fence's release has landed, but the channel leaves (EMPTY) only when
 * the release is acknowledged, a memory round trip later, however long the stalls make it. */
static inline gc_status_t util_wait_left(gc_device_t *dev, uint32_t id, uint64_t budget) {
    uint32_t st = 0;
    for (uint64_t t = 0;; t++) {
        gc_status_t s = gc_mmio_read(dev, GC_REG_CHANNEL_STATUS(id), &st);
        if (s != GC_OK) return s;
        if (!GC_CHANNEL_STATUS_RESIDENT_GET(st)) return GC_OK;
        if (t >= budget) return GC_ERR_TIMEOUT;
        if ((s = gc_device_run(dev, 1)) != GC_OK) return s;
    }
}

/* Bytes of `got` that differ from `want`; prints the first few. */
static inline size_t util_diff(const char *what, const uint8_t *want, const uint8_t *got, size_t n) {
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        if (want[i] != got[i]) {
            if (bad < 4) fprintf(stderr, "%s: byte %zu is 0x%02x, expected 0x%02x\n", what, i, got[i], want[i]);
            bad++;
        }
    }
    if (bad) fprintf(stderr, "%s: %zu of %zu bytes differ\n", what, bad, n);
    return bad;
}

typedef struct roundtrip {
    gc_status_t status; /* of the submit / wait calls */
    size_t vid_bad;     /* bytes of the vidmem copy that differ */
    size_t dst_bad;     /* bytes of the final sysmem copy that differ */
    uint32_t ce_sem;    /* the copy engine's release (expect 1) */
    uint64_t host_sem;  /* the host's 64-bit release (expect 0x1122334455667788) */
    uint64_t cycles;    /* from submit to the host release being seen */
} roundtrip_t;

#define RT_HOST_PAYLOAD 0x1122334455667788ull

/* sysmem -> vidmem -> sysmem through the copy engine, with a copy-engine release after the first
 * copy and a host 64-bit release (with WFI) at the end, all in one pushbuffer. */
static inline roundtrip_t util_roundtrip(gc_device_t *dev, gc_channel_t *ch, uint32_t bytes, uint32_t src_off,
                                         uint32_t dst_off, uint64_t seed) {
    roundtrip_t r;
    memset(&r, 0, sizeof r);
    gc_buf_t src, vid, dst, sem;
    uint8_t *want = malloc(bytes + 1), *got = malloc(bytes + 1);
    if (!want || !got) {
        r.status = GC_ERR_NO_MEMORY;
        free(want);
        free(got);
        return r;
    }
    if ((r.status = gc_mem_alloc(dev, GC_MEM_SYSMEM, bytes + 64, 64, &src)) ||
        (r.status = gc_mem_alloc(dev, GC_MEM_VIDMEM, bytes + 64, 64, &vid)) ||
        (r.status = gc_mem_alloc(dev, GC_MEM_SYSMEM, bytes + 64, 64, &dst)) ||
        (r.status = gc_mem_alloc(dev, GC_MEM_SYSMEM, 64, 64, &sem))) {
        free(want);
        free(got);
        return r;
    }
    gcsc_fill(want, bytes, seed);
    uint8_t zero[64] = {0};
    gc_mem_write(dev, src.addr + src_off, want, bytes);
    gc_mem_write(dev, sem.addr, zero, 64);
    uint32_t words[64];
    gc_pushbuf_t pb;
    gc_pb_init(&pb, words, 64);
    gc_pb_copy(&pb, 4, vid.addr + dst_off, src.addr + src_off, bytes, true, sem.addr, 1);
    gc_pb_copy(&pb, 4, dst.addr + dst_off, vid.addr + dst_off, bytes, false, 0, 0);
    gc_pb_sem_release(&pb, sem.addr + 8, RT_HOST_PAYLOAD, true, true);
    uint64_t t0 = gc_device_cycles(dev);
    if ((r.status = gc_channel_submit(ch, &pb)) == GC_OK &&
        (r.status = gc_sem_wait(dev, sem.addr + 8, (uint32_t)RT_HOST_PAYLOAD, &r.cycles)) == GC_OK)
        r.status = gc_channel_wait_idle(ch);
    r.cycles -= t0;
    gc_mem_read(dev, vid.addr + dst_off, got, bytes);
    r.vid_bad = util_diff("vidmem copy", want, got, bytes);
    gc_mem_read(dev, dst.addr + dst_off, got, bytes);
    r.dst_bad = util_diff("sysmem copy", want, got, bytes);
    gc_mem_read(dev, sem.addr, &r.ce_sem, 4);
    gc_mem_read(dev, sem.addr + 8, &r.host_sem, 8);
    gc_mem_free(dev, &src);
    gc_mem_free(dev, &vid);
    gc_mem_free(dev, &dst);
    gc_mem_free(dev, &sem);
    free(want);
    free(got);
    return r;
}

/* A 4 KiB round trip on a device opened with the memory model's fault injection `mode`
 * (cosim.h: flip-write, drop-sem, stall-reads) on `backend` (NULL: the default); status
 * GC_ERR_BACKEND when the device or channel could not be opened. */
static const char *util_inject_backend_, *util_inject_mode_;
static inline void util_inject_cfg(gc_device_config_t *c) {
    if (util_inject_backend_) c->backend = util_inject_backend_;
    c->inject = util_inject_mode_;
    c->wait_cycles = 30000;
}
static inline roundtrip_t util_injected_roundtrip(const char *backend, const char *mode) {
    util_inject_backend_ = backend;
    util_inject_mode_ = mode;
    roundtrip_t r;
    memset(&r, 0, sizeof r);
    r.status = GC_ERR_BACKEND;
    gc_device_t *dev = util_open(util_inject_cfg);
    if (!dev) return r;
    gc_channel_t *ch;
    if (gc_channel_open(dev, NULL, &ch) == GC_OK) r = util_roundtrip(dev, ch, 4096, 0, 0, 1);
    gc_device_close(dev);
    return r;
}

#endif
