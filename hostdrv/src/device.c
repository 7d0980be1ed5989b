/* device.c: open a backend, MMIO, memory access, running, error messages. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static uint64_t env_u64(const char *name, uint64_t dflt) {
    const char *v = getenv(name);
    if (!v || !*v) return dflt;
    char *end = NULL;
    unsigned long long x = strtoull(v, &end, 0);
    if (*end) {
        fprintf(stderr, "hostdrv: ignoring %s=%s (not a number)\n", name, v);
        return dflt;
    }
    return x;
}

void gc_device_config_init(gc_device_config_t *cfg) {
    memset(cfg, 0, sizeof *cfg);
    const char *b = getenv("GPUCOSIM_BACKEND");
    cfg->backend = (b && *b) ? b : "rtl";
    cfg->seed = env_u64("GPUCOSIM_SEED", 1);
    const char *w = getenv("GPUCOSIM_WAVES");
    cfg->waves = (w && *w) ? w : NULL;
    cfg->stall_pct = (uint32_t)env_u64("GPUCOSIM_STALL_PCT", 0);
    cfg->max_cycles = env_u64("GPUCOSIM_MAX_CYCLES", 0);
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

gc_status_t gc_device_open(const gc_device_config_t *cfg, gc_device_t **out) {
    if (!cfg || !out) return GC_ERR_INVALID_ARG;
    *out = NULL;
    const gc_backend_ops_t *ops = gc_backend_find(cfg->backend);
    if (!ops) {
        fprintf(stderr, "hostdrv: unknown backend '%s'; known:", cfg->backend ? cfg->backend : "(null)");
        for (size_t i = 0; gc_backend_at(i); i++) fprintf(stderr, " %s", gc_backend_at(i)->name);
        fprintf(stderr, "\n");
        return GC_ERR_NOT_FOUND;
    }
    if (cfg->poll_cycles == 0 || cfg->wait_cycles == 0) {
        fprintf(stderr, "hostdrv: poll_cycles and wait_cycles must be > 0\n");
        return GC_ERR_INVALID_ARG;
    }
    gc_device_t *dev = calloc(1, sizeof *dev);
    if (!dev) return GC_ERR_NO_MEMORY;
    dev->cfg = *cfg;
    copy_str(dev->backend_name, sizeof dev->backend_name, cfg->backend);
    copy_str(dev->waves, sizeof dev->waves, cfg->waves);
    copy_str(dev->inject, sizeof dev->inject, cfg->inject);
    dev->cfg.backend = dev->backend_name;
    dev->cfg.waves = cfg->waves ? dev->waves : NULL;
    dev->cfg.inject = cfg->inject ? dev->inject : NULL;
    dev->ops = ops;
    char err[256] = "";
    gc_status_t st = ops->open(&dev->cfg, &dev->state, err, sizeof err);
    if (st != GC_OK) {
        fprintf(stderr, "hostdrv: cannot open backend '%s': %s\n", ops->name, err[0] ? err : gc_status_str(st));
        free(dev);
        return st;
    }
    uint32_t id = 0;
    st = gc_mmio_read(dev, GC_REG_GLOBAL_ID, &id);
    if (st != GC_OK || id != GC_ID) {
        fprintf(stderr, "hostdrv: backend '%s' answers ID 0x%08x, expected 0x%08x (%s)\n", ops->name, id, GC_ID,
                gc_status_str(st));
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

void gc_device_close(gc_device_t *dev) {
    if (!dev) return;
    for (unsigned i = 0; i < GC_NUM_CHANNELS; i++)
        if (dev->channels[i]) gc_channel_close(dev->channels[i]);
    dev->ops->close(dev->state);
    gc_heap_destroy(&dev->heap[0]);
    gc_heap_destroy(&dev->heap[1]);
    free(dev);
}

gc_status_t gc_mmio_read(gc_device_t *dev, uint32_t offset, uint32_t *value) {
    if (!dev || !value) return GC_ERR_INVALID_ARG;
    gc_status_t st = dev->ops->mmio_read(dev->state, offset, value);
    if (st != GC_OK) return gc_fail(dev, st, "MMIO read of 0x%04x failed: %s", offset, gc_status_str(st));
    return GC_OK;
}

gc_status_t gc_mmio_write(gc_device_t *dev, uint32_t offset, uint32_t value) {
    if (!dev) return GC_ERR_INVALID_ARG;
    gc_status_t st = dev->ops->mmio_write(dev->state, offset, value);
    if (st != GC_OK)
        return gc_fail(dev, st, "MMIO write of 0x%08x to 0x%04x failed: %s", value, offset, gc_status_str(st));
    return GC_OK;
}

gc_status_t gc_mem_write(gc_device_t *dev, uint64_t addr, const void *src, size_t n) {
    if (!dev || (!src && n)) return GC_ERR_INVALID_ARG;
    gc_status_t st = dev->ops->mem_write(dev->state, addr, src, n);
    if (st != GC_OK)
        return gc_fail(dev, st, "host write of %zu bytes at 0x%010llx: outside sysmem and vidmem", n,
                       (unsigned long long)addr);
    return GC_OK;
}

gc_status_t gc_mem_read(gc_device_t *dev, uint64_t addr, void *dst, size_t n) {
    if (!dev || (!dst && n)) return GC_ERR_INVALID_ARG;
    gc_status_t st = dev->ops->mem_read(dev->state, addr, dst, n);
    if (st != GC_OK)
        return gc_fail(dev, st, "host read of %zu bytes at 0x%010llx: outside sysmem and vidmem", n,
                       (unsigned long long)addr);
    return GC_OK;
}

gc_status_t gc_device_run(gc_device_t *dev, uint64_t cycles) {
    if (!dev) return GC_ERR_INVALID_ARG;
    gc_status_t st = dev->ops->run(dev->state, cycles);
    uint64_t now = dev->ops->cycles(dev->state);
    if (st == GC_ERR_TIMEOUT && dev->cfg.max_cycles && now >= dev->cfg.max_cycles)
        return gc_fail(dev, st, "watchdog: the run stopped after %llu cycles (limit %llu): the backend printed the "
                       "stuck state", (unsigned long long)now, (unsigned long long)dev->cfg.max_cycles);
    if (st != GC_OK) return gc_fail(dev, st, "run stopped at cycle %llu: %s", (unsigned long long)now, gc_status_str(st));
    return GC_OK;
}

uint64_t gc_device_cycles(gc_device_t *dev) { return dev->ops->cycles(dev->state); }
uint64_t gc_device_seed(gc_device_t *dev) { return dev->ops->seed(dev->state); }
bool gc_device_irq(gc_device_t *dev) { return dev->ops->irq(dev->state); }
const gc_device_config_t *gc_device_config(const gc_device_t *dev) { return &dev->cfg; }
const char *gc_device_last_error(const gc_device_t *dev) { return dev ? dev->last_error : ""; }
void gc_device_dump_state(gc_device_t *dev, FILE *out) { dev->ops->dump_state(dev->state, out); }
