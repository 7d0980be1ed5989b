/* hostdrv.h: the gpucosim host driver (C11), its three lower layers in one include.
 *
 * Layers, bottom up (each usable and testable alone, each with its public header, each header
 * including only the one below it):
 *   device   gpucosim/device.h: open a backend ("rtl", "ref" or "sc", each a gc_backend_ops_t:
 *            gpucosim/backend.h), MMIO, host memory access, run cycles, IRQ, the whole-run watchdog
 *   mem      gpucosim/mem.h: sysmem / vidmem allocators
 *   chan     gpucosim/chan.h: pushbuffer method encoders, GPFIFO ring arithmetic, channels (submit
 *            with flow control on GP_GET, wait, error report, reset), semaphore waits, copies
 * Above them: gpucosim/elf.h and compute.h (the compute layer), gpucosim/runtime.h (CUDA-like
 * streams, events, copy priorities) and hostdrv/tools/scenarios.h (the scenarios of the gpucosim
 * CLI; hostdrv/README.md: the layers).  The driver's own lower layers include their own header,
 * not this one (scripts/check_layers.py gives this one the chan layer).
 */
#ifndef GPUCOSIM_HOSTDRV_H
#define GPUCOSIM_HOSTDRV_H

#include "gpucosim/device.h"
#include "gpucosim/mem.h"
#include "gpucosim/chan.h"

#endif
