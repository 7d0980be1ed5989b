/* ref_compute.h: the ref model's compute engine on runlist 0 (ref_compute.c), driven by the
 * PBDMA of runlist 0 and the BAR0 registers.  A completed host-launched task is reported as
 * REF_EV_TASK_DONE (ref_bus.h). */
#ifndef GPUCOSIM_REF_COMPUTE_H
#define GPUCOSIM_REF_COMPUTE_H

#include "ref.h"

void ref_cmp_init(ref_t *r);
void ref_cmp_free(ref_t *r);
bool ref_cmp_can_launch(const ref_t *r);                  /* a task table entry is free */
void ref_cmp_launch(ref_t *r, uint32_t ch, uint64_t tmd_addr); /* a host launch (takes an entry) */
bool ref_cmp_step(ref_t *r);
void ref_cmp_timers(const ref_t *r, uint64_t *next);
void ref_cmp_accumulate(ref_t *r, uint64_t dt);
bool ref_cmp_reg_read(const ref_t *r, uint32_t addr, uint32_t *v);
bool ref_cmp_reg_write(ref_t *r, uint32_t addr, uint32_t v);
void ref_cmp_dump(const ref_t *r, FILE *out);
/* One line naming the first CTA still running (task, CTA, SM, warp, PC), for the watchdog. */
int ref_cmp_stuck(const ref_t *r, char *buf, size_t len);

#endif
