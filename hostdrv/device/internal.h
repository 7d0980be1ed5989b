/* internal.h: hostdrv's private structures (the device layer's; mem, chan and compute use them,
 * with their own public header: it includes only the device layer's, gpucosim/device.h). */
#ifndef GPUCOSIM_HOSTDRV_INTERNAL_H
#define GPUCOSIM_HOSTDRV_INTERNAL_H

#include "gpucosim/backend.h"
#include "gpucosim/device.h"
#include "gpucosim_spec.h"

/* First-fit allocator over one memory window; blocks are kept sorted by address. */
typedef struct gc_block {
    uint64_t addr, size;
    struct gc_block *next;
} gc_block_t;

typedef struct gc_heap {
    uint64_t base, size;
    gc_block_t *used;
} gc_heap_t;

struct gc_device {
    gc_device_config_t cfg;
    char backend_name[32];
    char waves[256];
    char inject[32];
    const gc_backend_ops_t *ops;
    void *state;
    gc_heap_t heap[2]; /* by gc_mem_kind_t (gpucosim/mem.h) */
    struct gc_channel *channels[GC_NUM_CHANNELS]; /* gc_channel_t of the chan layer (gpucosim/chan.h) */
    /* set by the channel layer when it opens a channel: gc_device_close closes those still open
     * through it (the device layer never calls the layers above it; hostdrv/README.md) */
    void (*close_channel)(struct gc_channel *ch);
    char last_error[512];
    char stuck[320]; /* the one-line stuck state, read once when the watchdog fired ("" before) */
    bool time_set;   /* gc_time_set moved the time base (GLOBAL.CYCLE) away from the cycle count */
};

/* Record a one-line error message on the device (printf style) and return `st`. */
gc_status_t gc_fail(gc_device_t *dev, gc_status_t st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A failed backend access or run: record "<what>: <status>", or, when the backend's whole-run
 * watchdog has fired, "watchdog: <what> after <N> cycles (limit <L>): <stuck state>". */
gc_status_t gc_fail_backend(gc_device_t *dev, gc_status_t st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The heap allocator (mem/mem.c; gc_heap_destroy: device/device.c, which sets the heaps up). */
gc_status_t gc_heap_alloc(gc_heap_t *h, uint64_t size, uint64_t align, uint64_t *addr);
gc_status_t gc_heap_free(gc_heap_t *h, uint64_t addr);
/* Mark [addr, addr + size) used (GC_ERR_BUSY if part of it is, GC_ERR_INVALID_ARG if outside). */
gc_status_t gc_heap_reserve(gc_heap_t *h, uint64_t addr, uint64_t size);
void gc_heap_destroy(gc_heap_t *h);

#endif
