/* mem.h: the host driver's mem layer (hostdrv/mem/): the sysmem / vidmem allocators.
 * Uses the device layer (gpucosim/device.h) only. */
#ifndef GPUCOSIM_MEM_H
#define GPUCOSIM_MEM_H

#include "gpucosim/device.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ mem */
/* gc_mem_kind_t (the device's two memories): gpucosim/device.h */
typedef struct gc_buf {
    uint64_t addr;
    uint64_t size;
    gc_mem_kind_t kind;
} gc_buf_t;

/* align must be a power of two (0 means 64).  Neither allocator ever hands out (or reserves) the
 * first GC_SIMT_WIN_*_GUARD bytes of its window: the NULL guard no SIMT thread reaches (spec
 * simt.windows), so a kernel's NULL pointer cannot hit the driver's rings or any buffer. */
gc_status_t gc_mem_alloc(gc_device_t *dev, gc_mem_kind_t kind, uint64_t size, uint64_t align, gc_buf_t *out);
gc_status_t gc_mem_free(gc_device_t *dev, const gc_buf_t *buf);
/* Take [addr, addr + size) out of the allocator (for images linked at fixed addresses, e.g. SIMT
 * kernels: gpucosim/elf.h); GC_ERR_BUSY if part of it is allocated.  Freed with gc_mem_free. */
gc_status_t gc_mem_reserve(gc_device_t *dev, gc_mem_kind_t kind, uint64_t addr, uint64_t size, gc_buf_t *out);

#ifdef __cplusplus
}
#endif
#endif
