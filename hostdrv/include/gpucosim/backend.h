/* backend.h: what a device backend provides to hostdrv.
 *
 * A backend is a table of functions over an opaque state: "rtl" (the Verilated model, in
 * process), "ref" (a C functional model) and "sc" (SystemC/TLM, a plugin) plug in here with no
 * change to the layers above.  The sc backend can also run the driver itself in an
 * SC_THREAD of its SystemC top: gpucosim/sc.h.
 */
#ifndef GPUCOSIM_BACKEND_H
#define GPUCOSIM_BACKEND_H

#include "gpucosim/device.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gc_backend_ops {
    const char *name;
    const char *doc;
    gc_status_t (*open)(const gc_device_config_t *cfg, void **state, char *err, size_t errlen);
    void (*close)(void *state);
    gc_status_t (*mmio_read)(void *state, uint32_t offset, uint32_t *value);
    gc_status_t (*mmio_write)(void *state, uint32_t offset, uint32_t value);
    gc_status_t (*mem_read)(void *state, uint64_t addr, void *dst, size_t n);
    gc_status_t (*mem_write)(void *state, uint64_t addr, const void *src, size_t n);
    gc_status_t (*run)(void *state, uint64_t cycles);
    bool (*irq)(void *state);
    uint64_t (*cycles)(void *state);
    uint64_t (*seed)(void *state);
    void (*dump_state)(void *state, FILE *out);
    /* Optional (NULL: not provided).  watchdog: true once the whole-run watchdog (max_cycles) has
     * fired, with the cycle it fired at.  debug_read: a register read for diagnostics that works
     * after the watchdog fired (as the stuck-state dump's reads do); hostdrv builds the one-line
     * stuck state of its watchdog message from it. */
    bool (*watchdog)(void *state, uint64_t *fired_at);
    gc_status_t (*debug_read)(void *state, uint32_t offset, uint32_t *value);
} gc_backend_ops_t;

/* The backend called `name`, or NULL. */
const gc_backend_ops_t *gc_backend_find(const char *name);
/* The i-th known backend, or NULL past the end. */
const gc_backend_ops_t *gc_backend_at(size_t i);
/* The tool that built the rtl backend's model ("Verilator 5.006 ..."). */
const char *gc_backend_rtl_version(void);
/* NULL when the rtl backend's model is the traced one (it can write a waveform), else the one line
 * that says where a traced model comes from. */
const char *gc_backend_rtl_no_trace(void);

#ifdef __cplusplus
}
#endif
#endif
