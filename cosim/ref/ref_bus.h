/* ref_bus.h: the ref model's bus (ref_bus.c), the one interface its units share: the memory
 * windows and their timing, the atomic unit, the interrupt lines and the event port.  Each unit
 * uses the bus and the units below it (ref.h lists them); what a unit must tell the unit above
 * it goes out as an event (ref_emit), delivered at once to the sink backend_ref.c wired at open,
 * so the order of every effect is the order of the calls it replaces.
 */
#ifndef GPUCOSIM_REF_BUS_H
#define GPUCOSIM_REF_BUS_H

#include "ref.h"

/* Memory */
int ref_window(uint64_t addr, uint64_t n);                /* 0 sysmem, 1 vidmem, -1 neither */
bool ref_mem_alloc(ref_t *r);
void ref_mem_free(ref_t *r);
/* [addr, addr + n) must lie inside one window (false otherwise, nothing done). */
bool ref_mem_read(ref_t *r, uint64_t addr, void *dst, uint64_t n);
bool ref_mem_write(ref_t *r, uint64_t addr, const void *src, uint64_t n);
uint32_t ref_latency(uint64_t addr);
uint32_t ref_bpc(uint64_t addr);
uint64_t ref_stretch(ref_t *r, uint64_t cycles);          /* GPUCOSIM_STALL_PCT */
/* Issue `bursts` read bursts; the index of the first that never returns (stall-reads), or -1. */
int64_t ref_reads_issue(ref_t *r, uint64_t bursts);
/* Count the beats of a device write of [addr, addr + n) and apply flip-write to the 3rd beat
 * overall (once the data is in memory; with `we`, byte i of the range was written when
 * we[(we_phase + i) % we_period]). */
void ref_write_beats(ref_t *r, uint64_t addr, uint64_t n, const uint8_t *we, uint32_t we_period, uint64_t we_phase);

/* The atomic unit (requesters: PBDMAs 0..NUM_RUNLISTS-1, the CEs, the compute engine, the log) */
void ref_au_request(ref_t *r, uint32_t who, ref_au_op_t op, uint32_t size, uint64_t addr, uint64_t wdata,
                    uint32_t red, bool is_signed);
bool ref_au_settle(ref_t *r);
bool ref_sem_acquire_pass(uint32_t op, bool is64, uint64_t mem, uint64_t payload);
uint64_t ref_sem_reduce(uint32_t red, bool is_signed, bool is64, uint64_t mem, uint64_t operand);
bool ref_sem_red_form_ok(uint32_t red, bool is_signed, bool is64);

/* Interrupt lines: set bits of INTR_STATUS (GC_GLOBAL_INTR_STATUS_*); whether one is still set
 * (the compute engine keeps the first fault's record while its line is up). */
void ref_irq_raise(ref_t *r, uint32_t bits);
bool ref_irq_raised(const ref_t *r, uint32_t bit);
void ref_nonstall(ref_t *r); /* raise NON_STALL */

/* Events: what a unit reports upward. */
typedef enum {
    REF_EV_CE_DONE,     /* copy engine `unit - 1` finished the command of runlist `unit` (err, intr) */
    REF_EV_TASK_DONE,   /* the compute engine completed the task channel `unit` launched (err) */
    REF_EV_SEM_WRITTEN, /* a device write landed on [addr, addr + n): the RTL crossbar's write snoop */
} ref_ev_kind_t;

typedef struct ref_event {
    ref_ev_kind_t kind;
    uint32_t unit;
    bool err, intr;
    uint64_t addr, n;
} ref_event_t;

/* Deliver `ev` to the sink (r->sink) now. */
void ref_emit(ref_t *r, const ref_event_t *ev);
/* A device write of [addr, addr + n) landed (any writer: the atomic unit, a copy engine, an SM's
 * plain store): REF_EV_SEM_WRITTEN, the acquires waiting on a word of it try again (rtl: the
 * crossbar's write snoop, rtl/README.md "Write snoop"). */
void ref_snoop(ref_t *r, uint64_t addr, uint64_t n);

#endif
