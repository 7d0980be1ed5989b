/* device.h: the host driver's device layer (hostdrv/device/; C11): status codes, open a backend
 * ("rtl", "ref" or "sc", each a gc_backend_ops_t: gpucosim/backend.h), MMIO, the host's view of
 * device memory, run cycles, IRQ, the whole-run watchdog.
 *
 * The lowest layer of the driver: it includes no other layer's header.  Above it, each including
 * the one below: gpucosim/mem.h, gpucosim/chan.h; gpucosim/hostdrv.h includes the three
 * (hostdrv/README.md: the layers).  Every call returns a gc_status_t.  No global state: everything
 * hangs off a gc_device_t.  Every failure of a call that was given a device records a one-line
 * message in gc_device_last_error (a call without a device, e.g. gc_channel_submit(NULL, ...), has
 * nowhere to put it).
 */
#ifndef GPUCOSIM_DEVICE_H
#define GPUCOSIM_DEVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum gc_status {
    GC_OK = 0,
    GC_ERR_INVALID_ARG,   /* an argument is out of range or NULL */
    GC_ERR_NO_MEMORY,     /* host malloc or a device allocator ran out */
    GC_ERR_BACKEND,       /* the backend could not be opened or failed an access */
    GC_ERR_BUS,           /* an MMIO access got an AXI error response */
    GC_ERR_TIMEOUT,       /* a wait passed its cycle budget (the device state was dumped) */
    GC_ERR_CHANNEL_FAULT, /* the channel stopped with an error: see gc_channel_error() */
    GC_ERR_FULL,          /* a pushbuffer or ring has no room */
    GC_ERR_NOT_FOUND,     /* no such backend / channel */
    GC_ERR_BUSY,          /* the resource is in use */
    GC_STATUS_COUNT
} gc_status_t;

const char *gc_status_str(gc_status_t s);

/* ------------------------------------------------------------------ device */
typedef struct gc_device gc_device_t;

typedef struct gc_device_config {
    const char *backend;     /* "rtl" (default, or $GPUCOSIM_BACKEND) */
    uint64_t seed;           /* backend randomness (memory stalls); default 1 or $GPUCOSIM_SEED */
    const char *waves;       /* FST file, or NULL ($GPUCOSIM_WAVES) */
    uint32_t stall_pct;      /* random memory stalls, percent ($GPUCOSIM_STALL_PCT) */
    uint64_t max_cycles;     /* whole-run watchdog, 0 = none ($GPUCOSIM_MAX_CYCLES); when it fires the
                                run stops and the last error reads "watchdog: <what> after <N> cycles
                                (limit <L>): <stuck state>".  The device's time stops there:
                                gc_device_cycles stays at N on every backend, also through the
                                stuck-state dumps (rtl and sc clock their register bus to read,
                                outside simulated time) */
    uint64_t wait_cycles;    /* default budget of each gc_*_wait call, in device cycles from its start
                              * (its polls' register reads count too; default 2,000,000) */
    uint32_t poll_cycles;    /* cycles run between two polls in waits (default 16) */
    const char *inject;      /* backend fault injection for mutation tests ($GPUCOSIM_INJECT); ref also
                              * takes "no-fpu": the model as built without the FPU (COMPUTE.CAPS) */
    bool quiet;              /* backend prints nothing at open/close */
    /* progress report: when progress_cycles > 0, gc_device_run calls progress(progress_arg, cycle)
     * each time the device clock passes a multiple of progress_cycles (default off) */
    uint64_t progress_cycles;
    void (*progress)(void *arg, uint64_t cycle);
    void *progress_arg;
    /* when set, gc_device_close calls it first, while the device still answers (the CLI's
     * --counters prints a counter snapshot there: gpucosim/props.h) */
    void (*on_close)(void *arg, gc_device_t *dev);
    void *on_close_arg;
    /* set by gc_device_config_init when a GPUCOSIM_* variable does not parse or is out of range
     * (one line naming it); gc_device_open refuses such a configuration */
    char env_error[160];
} gc_device_config_t;

/* Fills defaults and the environment overrides named above (a malformed one: see env_error). */
void gc_device_config_init(gc_device_config_t *cfg);
/* Open the device; on failure a one-line reason is printed to stderr ("hostdrv: ..."). */
gc_status_t gc_device_open(const gc_device_config_t *cfg, gc_device_t **out);
/* The same, but the one-line reason goes to err (nothing is printed). */
gc_status_t gc_device_open_ex(const gc_device_config_t *cfg, gc_device_t **out, char *err, size_t errlen);
/* Parse an unsigned number as the CLI and the GPUCOSIM_* variables take it: decimal or 0x-hex
 * digits only (no sign, no spaces), in [min, max].  false (and *out untouched) otherwise. */
bool gc_parse_u64(const char *text, uint64_t min, uint64_t max, uint64_t *out);
void gc_device_close(gc_device_t *dev);

gc_status_t gc_mmio_read(gc_device_t *dev, uint32_t offset, uint32_t *value);
gc_status_t gc_mmio_write(gc_device_t *dev, uint32_t offset, uint32_t value);
/* The device's two memories (its windows; the mem layer's allocators hand out buffers in them,
 * gpucosim/mem.h, over heaps the device sets up, one by kind). */
typedef enum gc_mem_kind { GC_MEM_SYSMEM = 0, GC_MEM_VIDMEM = 1 } gc_mem_kind_t;

/* Host view of device memory: sysmem as the CPU sees it; vidmem through a backdoor. */
gc_status_t gc_mem_write(gc_device_t *dev, uint64_t addr, const void *src, size_t n);
gc_status_t gc_mem_read(gc_device_t *dev, uint64_t addr, void *dst, size_t n);
gc_status_t gc_device_run(gc_device_t *dev, uint64_t cycles);
uint64_t gc_device_cycles(gc_device_t *dev);
uint64_t gc_device_seed(gc_device_t *dev);
bool gc_device_irq(gc_device_t *dev);
const gc_device_config_t *gc_device_config(const gc_device_t *dev);
/* The last error message of this device (one line, names channel, GP_GET and method), or "". */
const char *gc_device_last_error(const gc_device_t *dev);
/* Print the device's stuck state (cycle, PBDMA, CE, channels, memory). */
void gc_device_dump_state(gc_device_t *dev, FILE *out);

#ifdef __cplusplus
}
#endif
#endif
