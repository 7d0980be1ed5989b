/* backend_rtl.c: the "rtl" backend: the Verilated gpu_top in this process, through cosim's C ABI. */
#include "cosim.h"
#include "gpucosim/backend.h"

static gc_status_t map(int rc) {
    switch (rc) {
    case COSIM_OK: return GC_OK;
    case COSIM_ERR_ARG: return GC_ERR_INVALID_ARG;
    case COSIM_ERR_BUS: return GC_ERR_BUS;
    default: return GC_ERR_TIMEOUT;
    }
}

static gc_status_t rtl_open(const gc_device_config_t *cfg, void **state, char *err, size_t errlen) {
    cosim_config_t c;
    cosim_config_default(&c);
    c.seed = cfg->seed;
    c.waves = cfg->waves;
    c.stall_pct = cfg->stall_pct;
    c.max_cycles = cfg->max_cycles;
    c.inject = cfg->inject;
    c.quiet = cfg->quiet;
    c.env_error[0] = 0; /* hostdrv parsed the environment itself (gc_device_config_init); every field is set above */
    cosim_t *s = cosim_open(&c, err, errlen);
    if (!s) return GC_ERR_BACKEND;
    *state = s;
    return GC_OK;
}

static void rtl_close(void *s) { cosim_close(s); }
static gc_status_t rtl_mmio_read(void *s, uint32_t o, uint32_t *v) { return map(cosim_mmio_read(s, o, v)); }
static gc_status_t rtl_mmio_write(void *s, uint32_t o, uint32_t v) { return map(cosim_mmio_write(s, o, v)); }
static gc_status_t rtl_mem_read(void *s, uint64_t a, void *d, size_t n) { return map(cosim_mem_read(s, a, d, n)); }
static gc_status_t rtl_mem_write(void *s, uint64_t a, const void *d, size_t n) {
    return map(cosim_mem_write(s, a, d, n));
}
static gc_status_t rtl_run(void *s, uint64_t n) { return map(cosim_step(s, n)); }
static bool rtl_irq(void *s) { return cosim_irq(s) != 0; }
static uint64_t rtl_cycles(void *s) { return cosim_cycles(s); }
static uint64_t rtl_seed(void *s) { return cosim_seed(s); }
static void rtl_dump(void *s, FILE *out) { cosim_dump_state(s, out); }
static bool rtl_watchdog(void *s, uint64_t *at) { return cosim_watchdog(s, at) != 0; }
static gc_status_t rtl_debug_read(void *s, uint32_t o, uint32_t *v) { return map(cosim_debug_read(s, o, v)); }

const gc_backend_ops_t gc_backend_rtl = {
    .name = "rtl",
    .doc = "the Verilated RTL in process (cycle accurate)",
    .open = rtl_open,
    .close = rtl_close,
    .mmio_read = rtl_mmio_read,
    .mmio_write = rtl_mmio_write,
    .mem_read = rtl_mem_read,
    .mem_write = rtl_mem_write,
    .run = rtl_run,
    .irq = rtl_irq,
    .cycles = rtl_cycles,
    .seed = rtl_seed,
    .dump_state = rtl_dump,
    .watchdog = rtl_watchdog,
    .debug_read = rtl_debug_read,
};
