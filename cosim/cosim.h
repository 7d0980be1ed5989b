/* cosim.h: C ABI of the Verilator harness around gpu_top.
 *
 * One cosim_t owns one VerilatedContext, the Verilated gpu_top, the AXI4 memory model (a sysmem
 * and a vidmem window, each with its own latency and bytes per cycle, optional random stalls),
 * an AXI4-Lite master for MMIO, the FST writer and the watchdog.  hostdrv's `rtl` backend is
 * the only intended caller; tools may call it directly.
 */
#ifndef GPUCOSIM_COSIM_H
#define GPUCOSIM_COSIM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cosim cosim_t;

/* Return codes of the cosim_* calls. */
enum {
    COSIM_OK = 0,
    COSIM_ERR_ARG = -1,      /* bad argument (address outside both windows, ...) */
    COSIM_ERR_BUS = -2,      /* the MMIO access got SLVERR / DECERR */
    COSIM_ERR_TIMEOUT = -3,  /* the MMIO handshake did not complete */
    COSIM_ERR_WATCHDOG = -4, /* the run passed max_cycles */
};

typedef struct cosim_config {
    uint64_t seed;              /* memory-model randomness; printed at open */
    const char *waves;          /* FST file to write, or NULL for no waveform */
    uint32_t sys_latency;       /* sysmem read/write latency in cycles */
    uint32_t sys_bytes_per_cycle;
    uint32_t vid_latency;       /* vidmem latency in cycles */
    uint32_t vid_bytes_per_cycle;
    uint32_t stall_pct;         /* 0..90: chance per cycle that a ready/valid the model drives is held low */
    uint64_t max_cycles;        /* watchdog: a run past this many cycles fails (0 = no limit) */
    char env_error[160];        /* set by cosim_config_default when a GPUCOSIM_* number is malformed
                                   (one line naming it); cosim_open refuses such a configuration */
    const char *inject;         /* fault injection for the tests' own mutation checks:
                                   "flip-write" (flip a bit of the 3rd written beat),
                                   "drop-sem" (drop single-beat writes: releases vanish),
                                   "stall-reads" (stop answering reads after the 4th burst),
                                   or NULL */
    int quiet;                  /* 1: print nothing at open / close */
} cosim_config_t;

/* Defaults, then GPUCOSIM_SEED, GPUCOSIM_WAVES, GPUCOSIM_STALL_PCT, GPUCOSIM_MAX_CYCLES,
 * GPUCOSIM_INJECT from the environment when set (a malformed number: env_error). */
void cosim_config_default(cosim_config_t *cfg);

/* NULL on failure with the reason in err. */
cosim_t *cosim_open(const cosim_config_t *cfg, char *err, size_t errlen);
/* Prints "cosim: N cycles in S s = R cycles/s (seed X)" unless quiet. */
void cosim_close(cosim_t *s);

int cosim_mmio_write(cosim_t *s, uint32_t offset, uint32_t value);
int cosim_mmio_read(cosim_t *s, uint32_t offset, uint32_t *value);

/* Host access to memory (no cycles pass): sysmem as the CPU sees it, vidmem by backdoor. */
int cosim_mem_write(cosim_t *s, uint64_t addr, const void *src, size_t n);
int cosim_mem_read(cosim_t *s, uint64_t addr, void *dst, size_t n);

int cosim_step(cosim_t *s, uint64_t cycles);
/* 1 once the watchdog has fired (nothing runs after it), with the cycle it fired at; else 0. */
int cosim_watchdog(cosim_t *s, uint64_t *fired_at);
/* A register read for diagnostics: works after the watchdog fired (the limit is lifted while it
 * runs, as for the stuck-state dump).  Before the watchdog the cycles it takes are real; after it
 * the device is stopped at the cycle it fired: the read clocks the register bus, but those cycles
 * are not counted (cosim_cycles stays at that cycle) and not written to the waveform. */
int cosim_debug_read(cosim_t *s, uint32_t offset, uint32_t *value);
/* 1 when this harness was built against the traced model (build/bin/gpucosim-waves), else 0: the
 * default model has no tracing, and cosim_open refuses a waveform with COSIM_NO_TRACE_HINT. */
int cosim_has_trace(void);
#define COSIM_NO_TRACE_HINT "waveforms come from build/bin/gpucosim-waves (make waves-bin, or make run WAVES=1)"
/* "Verilator 5.006 2023-01-22": the Verilator this model was built with. */
const char *cosim_verilator_version(void);
int cosim_irq(cosim_t *s);
/* cycles run since open; once the watchdog fired, the cycle it fired at */
uint64_t cosim_cycles(cosim_t *s);
uint64_t cosim_seed(cosim_t *s);
/* Stuck-state dump: cycle, PBDMA and CE state, every enabled channel's ring and error,
 * outstanding memory transactions. */
void cosim_dump_state(cosim_t *s, FILE *out);

#ifdef __cplusplus
}
#endif
#endif
