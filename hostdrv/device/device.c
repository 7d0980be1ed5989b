/* device.c: open a backend, MMIO, memory access, running, error messages. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

bool gc_parse_u64(const char *text, uint64_t min, uint64_t max, uint64_t *out) {
    if (!text || !out) return false;
    bool hex = text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
    const char *p = hex ? text + 2 : text;
    if (!*p) return false;
    uint64_t x = 0, base = hex ? 16 : 10;
    for (; *p; p++) {
        unsigned d;
        if (*p >= '0' && *p <= '9') d = (unsigned)(*p - '0');
        else if (hex && *p >= 'a' && *p <= 'f') d = (unsigned)(*p - 'a' + 10);
        else if (hex && *p >= 'A' && *p <= 'F') d = (unsigned)(*p - 'A' + 10);
        else return false;
        if (x > (UINT64_MAX - d) / base) return false; /* does not fit in 64 bits */
        x = x * base + d;
    }
    if (x < min || x > max) return false;
    *out = x;
    return true;
}

/* A numeric GPUCOSIM_* variable: its value, or dflt when unset or empty; a malformed one is
 * recorded in cfg->env_error (the first one wins) and gc_device_open refuses the configuration. */
static uint64_t env_u64(gc_device_config_t *cfg, const char *name, uint64_t max, uint64_t dflt) {
    const char *v = getenv(name);
    uint64_t x = dflt;
    if (!v || !*v) return dflt;
    if (!gc_parse_u64(v, 0, max, &x) && !cfg->env_error[0])
        snprintf(cfg->env_error, sizeof cfg->env_error, "%s='%.40s' is not a number in 0..%llu", name, v,
                 (unsigned long long)max);
    return x;
}

void gc_device_config_init(gc_device_config_t *cfg) {
    memset(cfg, 0, sizeof *cfg);
    const char *b = getenv("GPUCOSIM_BACKEND");
    cfg->backend = (b && *b) ? b : "rtl";
    cfg->seed = env_u64(cfg, "GPUCOSIM_SEED", UINT64_MAX, 1);
    const char *w = getenv("GPUCOSIM_WAVES");
    cfg->waves = (w && *w) ? w : NULL;
    cfg->stall_pct = (uint32_t)env_u64(cfg, "GPUCOSIM_STALL_PCT", 90, 0);
    cfg->max_cycles = env_u64(cfg, "GPUCOSIM_MAX_CYCLES", UINT64_MAX, 0);
    cfg->wait_cycles = 2000000;
    cfg->poll_cycles = 16;
    const char *inj = getenv("GPUCOSIM_INJECT");
    cfg->inject = (inj && *inj) ? inj : NULL;
}

gc_status_t gc_fail(gc_device_t *dev, gc_status_t st, const char *fmt, ...) {
    if (dev) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(dev->last_error, sizeof dev->last_error, fmt, ap);
        va_end(ap);
    }
    return st;
}

static void copy_str(char *dst, size_t n, const char *src) {
    if (!src) {
        dst[0] = 0;
        return;
    }
    snprintf(dst, n, "%s", src);
}

/* snprintf into an optional buffer */
static void say(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void say(char *err, size_t errlen, const char *fmt, ...) {
    if (!err || !errlen) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

gc_status_t gc_device_open_ex(const gc_device_config_t *cfg, gc_device_t **out, char *err, size_t errlen) {
    say(err, errlen, "%s", "");
    if (!cfg || !out) {
        say(err, errlen, "gc_device_open: %s is NULL", !cfg ? "the configuration" : "the output pointer");
        return GC_ERR_INVALID_ARG;
    }
    *out = NULL;
    if (cfg->env_error[0]) {
        say(err, errlen, "%s", cfg->env_error);
        return GC_ERR_INVALID_ARG;
    }
    const gc_backend_ops_t *ops = gc_backend_find(cfg->backend);
    if (!ops) {
        char known[96] = "";
        for (size_t i = 0, n = 0; gc_backend_at(i) && n < sizeof known; i++)
            n += (size_t)snprintf(known + n, sizeof known - n, "%s%s", i ? ", " : "", gc_backend_at(i)->name);
        say(err, errlen, "unknown backend '%s' (known: %s)", cfg->backend ? cfg->backend : "(null)", known);
        return GC_ERR_NOT_FOUND;
    }
    if (cfg->poll_cycles == 0 || cfg->wait_cycles == 0) {
        say(err, errlen, "poll_cycles (%u) and wait_cycles (%llu) must be > 0", cfg->poll_cycles,
            (unsigned long long)cfg->wait_cycles);
        return GC_ERR_INVALID_ARG;
    }
    gc_device_t *dev = calloc(1, sizeof *dev);
    if (!dev) {
        say(err, errlen, "out of host memory");
        return GC_ERR_NO_MEMORY;
    }
    dev->cfg = *cfg;
    copy_str(dev->backend_name, sizeof dev->backend_name, cfg->backend);
    copy_str(dev->waves, sizeof dev->waves, cfg->waves);
    copy_str(dev->inject, sizeof dev->inject, cfg->inject);
    dev->cfg.backend = dev->backend_name;
    dev->cfg.waves = cfg->waves ? dev->waves : NULL;
    dev->cfg.inject = cfg->inject ? dev->inject : NULL;
    dev->ops = ops;
    char why[256] = "";
    gc_status_t st = ops->open(&dev->cfg, &dev->state, why, sizeof why);
    if (st != GC_OK) {
        say(err, errlen, "cannot open backend '%s': %s", ops->name, why[0] ? why : gc_status_str(st));
        free(dev);
        return st;
    }
    uint32_t id = 0;
    st = gc_mmio_read(dev, GC_REG_GLOBAL_ID, &id);
    if (st != GC_OK || id != GC_ID) {
        if (st != GC_OK) say(err, errlen, "backend '%s': reading GLOBAL.ID at open: %s", ops->name, dev->last_error);
        else say(err, errlen, "backend '%s' answers ID 0x%08x, expected 0x%08x", ops->name, id, GC_ID);
        ops->close(dev->state);
        free(dev);
        return GC_ERR_BACKEND;
    }
    /* the heaps start past the NULL guard of the thread window that maps their memory */
    dev->heap[GC_MEM_SYSMEM] = (gc_heap_t){GC_SYSMEM_BASE + GC_SIMT_WIN_SYSMEM_GUARD,
                                           GC_SYSMEM_SIZE - GC_SIMT_WIN_SYSMEM_GUARD, NULL};
    dev->heap[GC_MEM_VIDMEM] = (gc_heap_t){GC_VIDMEM_BASE + GC_SIMT_WIN_VIDMEM_GUARD,
                                           GC_VIDMEM_SIZE - GC_SIMT_WIN_VIDMEM_GUARD, NULL};
    *out = dev;
    return GC_OK;
}

gc_status_t gc_device_open(const gc_device_config_t *cfg, gc_device_t **out) {
    char err[400];
    gc_status_t st = gc_device_open_ex(cfg, out, err, sizeof err);
    if (st != GC_OK) fprintf(stderr, "hostdrv: %s\n", err);
    return st;
}

void gc_device_close(gc_device_t *dev) {
    if (!dev) return;
    for (unsigned i = 0; i < GC_NUM_CHANNELS; i++)
        if (dev->channels[i]) gc_channel_close(dev->channels[i]);
    dev->ops->close(dev->state);
    gc_heap_destroy(&dev->heap[0]);
    gc_heap_destroy(&dev->heap[1]);
    free(dev);
}

/* One line of what is not idle (PBDMAs, copy engines, the compute engine, the driver's open
 * channels), read with the backend's diagnostic register reads. */
static void stuck_state(gc_device_t *dev, char *buf, size_t len) {
    size_t n = 0;
    buf[0] = 0;
#define RD(off) (dev->ops->debug_read(dev->state, (off), &v) == GC_OK ? v : 0u)
#define ADD(...) (n < len ? (n += (size_t)snprintf(buf + n, len - n, __VA_ARGS__)) : n)
    uint32_t v = 0;
    for (uint32_t rl = 0; rl < GC_NUM_RUNLISTS; rl++) {
        uint32_t pb = RD(GC_REG_RUNLIST_DBG(rl));
        if (GC_RUNLIST_DBG_STATE_GET(pb) != GC_PBDMA_STATE_IDLE)
            ADD("%srunlist %u PBDMA %s on channel %u", n ? "; " : "", rl,
                gc_pbdma_state_name(GC_RUNLIST_DBG_STATE_GET(pb)), GC_RUNLIST_DBG_CHANNEL_GET(pb));
    }
    for (uint32_t e = 0; e < GC_NUM_CE; e++) {
        uint32_t ce = RD(GC_REG_ENGINE_DBG(e));
        if (GC_ENGINE_DBG_STATE_GET(ce) != GC_CE_STATE_IDLE)
            ADD("%sCE%u %s for channel %u, %u bytes moved", n ? "; " : "", e,
                gc_ce_state_name(GC_ENGINE_DBG_STATE_GET(ce)), GC_ENGINE_DBG_CHANNEL_GET(ce), RD(GC_REG_ENGINE_BYTES(e)));
    }
    uint32_t cp = RD(GC_REG_COMPUTE_DBG);
    if (GC_COMPUTE_DBG_SLOTS_BUSY_GET(cp) || GC_COMPUTE_DBG_PENDING_GET(cp))
        ADD("%scompute: %u task slots busy, %u pending, %u warps active", n ? "; " : "", GC_COMPUTE_DBG_SLOTS_BUSY_GET(cp),
            GC_COMPUTE_DBG_PENDING_GET(cp), GC_COMPUTE_DBG_WARPS_ACTIVE_GET(cp));
    for (uint32_t ch = 0; ch < GC_NUM_CHANNELS; ch++) {
        if (!dev->channels[ch]) continue;
        uint32_t get = RD(GC_REG_CHANNEL_GP_GET(ch)), put = RD(GC_REG_CHANNEL_GP_PUT(ch));
        uint32_t cause = GC_CHANNEL_ERROR_CAUSE_GET(RD(GC_REG_CHANNEL_ERROR(ch)));
        if (get != put || cause != GC_ERROR_CAUSE_NONE)
            ADD("%schannel %u at GP_GET %u of GP_PUT %u%s%s", n ? "; " : "", ch, get, put,
                cause != GC_ERROR_CAUSE_NONE ? ", error " : "", cause != GC_ERROR_CAUSE_NONE ? gc_error_cause_name(cause) : "");
    }
    if (!n) ADD("no engine busy, no channel with work");
#undef ADD
#undef RD
}

gc_status_t gc_fail_backend(gc_device_t *dev, gc_status_t st, const char *fmt, ...) {
    char what[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    uint64_t at = 0;
    if (dev->ops->watchdog && dev->ops->watchdog(dev->state, &at)) {
        if (!dev->stuck[0]) { /* read once: nothing changes after the watchdog */
            if (dev->ops->debug_read) stuck_state(dev, dev->stuck, sizeof dev->stuck);
            else snprintf(dev->stuck, sizeof dev->stuck, "see the stuck-state dump above");
        }
        return gc_fail(dev, st, "watchdog: %s after %llu cycles (limit %llu): %s", what, (unsigned long long)at,
                       (unsigned long long)dev->cfg.max_cycles, dev->stuck);
    }
    return gc_fail(dev, st, "%s: %s", what, gc_status_str(st));
}

gc_status_t gc_mmio_read(gc_device_t *dev, uint32_t offset, uint32_t *value) {
    if (!dev) return GC_ERR_INVALID_ARG;
    if (!value) return gc_fail(dev, GC_ERR_INVALID_ARG, "MMIO read of 0x%04x: the value pointer is NULL", offset);
    gc_status_t st = dev->ops->mmio_read(dev->state, offset, value);
    if (st != GC_OK) return gc_fail_backend(dev, st, "MMIO read of 0x%04x", offset);
    return GC_OK;
}

gc_status_t gc_mmio_write(gc_device_t *dev, uint32_t offset, uint32_t value) {
    if (!dev) return GC_ERR_INVALID_ARG;
    gc_status_t st = dev->ops->mmio_write(dev->state, offset, value);
    if (st != GC_OK) return gc_fail_backend(dev, st, "MMIO write of 0x%08x to 0x%04x", value, offset);
    return GC_OK;
}

gc_status_t gc_mem_write(gc_device_t *dev, uint64_t addr, const void *src, size_t n) {
    if (!dev) return GC_ERR_INVALID_ARG;
    if (!src && n) return gc_fail(dev, GC_ERR_INVALID_ARG, "host write of %zu bytes at 0x%010llx: the data pointer is NULL",
                                  n, (unsigned long long)addr);
    gc_status_t st = dev->ops->mem_write(dev->state, addr, src, n);
    if (st != GC_OK)
        return gc_fail(dev, st, "host write of %zu bytes at 0x%010llx: outside sysmem and vidmem", n,
                       (unsigned long long)addr);
    return GC_OK;
}

gc_status_t gc_mem_read(gc_device_t *dev, uint64_t addr, void *dst, size_t n) {
    if (!dev) return GC_ERR_INVALID_ARG;
    if (!dst && n) return gc_fail(dev, GC_ERR_INVALID_ARG, "host read of %zu bytes at 0x%010llx: the buffer pointer is NULL",
                                  n, (unsigned long long)addr);
    gc_status_t st = dev->ops->mem_read(dev->state, addr, dst, n);
    if (st != GC_OK)
        return gc_fail(dev, st, "host read of %zu bytes at 0x%010llx: outside sysmem and vidmem", n,
                       (unsigned long long)addr);
    return GC_OK;
}

gc_status_t gc_device_run(gc_device_t *dev, uint64_t cycles) {
    if (!dev) return GC_ERR_INVALID_ARG;
    uint64_t before = dev->ops->cycles(dev->state);
    gc_status_t st = dev->ops->run(dev->state, cycles);
    if (st != GC_OK) return gc_fail_backend(dev, st, "the run stopped");
    uint64_t every = dev->cfg.progress_cycles, now = dev->ops->cycles(dev->state);
    if (every && dev->cfg.progress && before / every != now / every) dev->cfg.progress(dev->cfg.progress_arg, now);
    return GC_OK;
}

uint64_t gc_device_cycles(gc_device_t *dev) { return dev->ops->cycles(dev->state); }
uint64_t gc_device_seed(gc_device_t *dev) { return dev->ops->seed(dev->state); }
bool gc_device_irq(gc_device_t *dev) { return dev->ops->irq(dev->state); }
const gc_device_config_t *gc_device_config(const gc_device_t *dev) { return &dev->cfg; }
const char *gc_device_last_error(const gc_device_t *dev) { return dev ? dev->last_error : ""; }
void gc_device_dump_state(gc_device_t *dev, FILE *out) { dev->ops->dump_state(dev->state, out); }
