/* props.h: device queries, as CUDA's cudaGetDeviceProperties and Vortex's vx_dev_caps /
 * vx_dump_perf give them: the device's properties and a snapshot of its performance counters.
 *
 * Everything that depends on how the device was built is read from its BAR0 configuration
 * registers (GLOBAL.ID / VERSION / CONFIG, COMPUTE.CONFIG / TMU_CONFIG / CAPS), so the same
 * driver reports an 8- or 32-lane build, or one without the FPU, as it is.  The memory windows
 * are architectural (spec/gpucosim.yaml memory_map and simt.windows: the same on every build and
 * backend) and come from the generated spec.  The counters are the free-running 32-bit MMIO
 * counters (they wrap) and the 64-bit cycle counter; a snapshot reads each once (about 4 device
 * cycles per register read), so the device runs a few hundred cycles while it is taken.
 * The runtime's forms are gcrt_get_device_properties and gcrt_read_counters (runtime.h).
 */
#ifndef GPUCOSIM_PROPS_H
#define GPUCOSIM_PROPS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "gpucosim/device.h"
#include "gpucosim_spec.h"

/* A thread-address window of the SIMT core (simt.windows) */
typedef struct gc_window_prop {
    const char *name;    /* "SYSMEM", "VIDMEM", "SHARED", "LOCAL" */
    uint32_t base, size; /* thread addresses */
    uint32_t guard;      /* NULL guard bytes at the base (global windows), else 0 */
    uint64_t device;     /* device address of the base (global windows), else 0 */
} gc_window_prop_t;

#define GC_PROPS_WINDOWS 4u

typedef struct gc_device_props {
    const char *backend;       /* the backend's name */
    uint32_t id, version;      /* GLOBAL.ID ('GPUC'), GLOBAL.VERSION (major 31:16, minor 15:8, patch 7:0) */
    /* GLOBAL.CONFIG */
    uint32_t channels;         /* GPFIFO channels */
    uint32_t runlists;         /* runlists (host scheduler + PBDMA each); runlist 0 is compute */
    uint32_t copy_engines;     /* copy engines (CE n serves runlist n + 1) */
    uint32_t bus_bytes;        /* memory bus bytes per beat */
    /* the compute engine; false (and the fields below 0) when COMPUTE.CONFIG reads 0 */
    bool compute;
    uint32_t sms, warps, lanes;     /* COMPUTE.CONFIG: SMs, warp slots per SM, threads per warp */
    uint32_t smem_bytes;            /* COMPUTE.CONFIG.SMEM_KB x 1024: shared memory per SM */
    uint32_t lmem_bytes;            /* COMPUTE.CAPS.LMEM_BYTES: local memory (the stack) per thread */
    bool fpu;                       /* COMPUTE.CAPS.FPU: the SMs implement RV32F */
    uint32_t tmu_slots;             /* COMPUTE.TMU_CONFIG.SLOTS: tasks with CTAs dispatched at once */
    uint32_t tmu_entries;           /* COMPUTE.TMU_CONFIG.ENTRIES: task table entries */
    uint32_t prio_levels;           /* COMPUTE.TMU_CONFIG.PRIO_LEVELS: device priorities 0 (least
                                     * urgent) .. prio_levels - 1 (most urgent) */
    /* memory (spec memory_map): device address and size of the two memory windows */
    uint64_t sysmem_base, sysmem_size, vidmem_base, vidmem_size;
    gc_window_prop_t windows[GC_PROPS_WINDOWS]; /* the SIMT thread-address windows */
} gc_device_props_t;

/* Read the properties.  GC_ERR_INVALID_ARG for a NULL argument, GC_ERR_BUS / GC_ERR_BACKEND when
 * a configuration register does not answer (the message names it, gc_device_last_error). */
gc_status_t gc_device_get_props(gc_device_t *dev, gc_device_props_t *out);
/* Print them, one property per line ("  name  value"), under a heading line. */
void gc_props_print(FILE *f, const gc_device_props_t *p);

/* Counters of one channel (CHANNEL.*) */
typedef struct gc_channel_counters {
    uint32_t methods, cycles_resident, switch_timeslice, switch_acquire, switch_engine, switch_empty,
        acq_blocked_cycles;
} gc_channel_counters_t;

typedef struct gc_counters {
    uint64_t cycle;                              /* GLOBAL.CYCLE_HI:LO when the snapshot began */
    uint32_t channels, runlists, copy_engines;   /* how many of each the device has (GLOBAL.CONFIG) */
    uint32_t runlist_switches[GC_NUM_RUNLISTS];  /* RUNLIST.SWITCHES */
    uint32_t runlist_gated[GC_NUM_RUNLISTS];     /* RUNLIST.GATED_CYCLES: its PBDMA's clock stopped */
    uint32_t ce_bytes[GC_NUM_CE];                /* ENGINE.BYTES */
    uint32_t ce_busy_cycles[GC_NUM_CE];          /* ENGINE.BUSY_CYCLES */
    uint32_t ce_gated[GC_NUM_CE];                /* ENGINE.GATED_CYCLES */
    gc_channel_counters_t channel[GC_NUM_CHANNELS];
    bool compute;                                /* the COMPUTE counters below were read */
    uint32_t tasks, ctas, warp_instrs, thread_instrs, active_cycles, icache_misses, lsu_beats, evictions,
        dev_launches, launch_fails, gated_cycles; /* COMPUTE.* */
} gc_counters_t;

/* Snapshot every MMIO performance counter.  Errors as gc_device_get_props. */
gc_status_t gc_counters_read(gc_device_t *dev, gc_counters_t *out);
/* *d = b - a, counter by counter (modulo 2^32: the MMIO counters wrap), cycle included. */
void gc_counters_diff(const gc_counters_t *a, const gc_counters_t *b, gc_counters_t *d);
/* Print a snapshot: device-wide and compute counters, then one line per runlist, copy engine, and
 * per channel that counted anything (a channel with every counter 0 is left out), with derived
 * figures where they are defined (IPC = warp instructions / active cycles, lanes per warp
 * instruction, copy-engine bytes per busy cycle). */
void gc_counters_print(FILE *f, const gc_counters_t *c, const gc_device_props_t *p);

/* The device time base (GLOBAL.CYCLE, as NVIDIA's PTIMER): what the device stamps into semaphore
 * timestamps, TMU log records, copy start stamps and the SIMT CYCLE / CYCLEH CSRs.  It advances by
 * one every cycle.  gc_time_read reads it (CYCLE_LO, which latches CYCLE_HI, then CYCLE_HI);
 * gc_time_set makes it `t` from the cycle after the write (CYCLE_HI, then CYCLE_LO).  Setting it
 * changes no timer: time slices, acquire retries and timeouts and the *_CYCLES counters count
 * cycles, not the time base.  Errors as gc_device_get_props. */
gc_status_t gc_time_read(gc_device_t *dev, uint64_t *t);
gc_status_t gc_time_set(gc_device_t *dev, uint64_t t);
/* True once gc_time_set moved the time base on this device. */
bool gc_time_is_set(const gc_device_t *dev);
/* The host's "now" on the scale of the device's stamps: gc_device_cycles(dev) while the time base
 * was never set (free: no register read; the time base counts from the end of reset, a few cycles
 * fewer), else the time base read from the device (gc_time_read, or gc_device_cycles if that
 * read fails).  The runtime's op submit cycles use it, so an op's end - submit stays its latency
 * after a gc_time_set. */
uint64_t gc_time_host(gc_device_t *dev);

#endif
