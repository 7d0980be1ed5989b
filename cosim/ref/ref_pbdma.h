/* ref_pbdma.h: the ref model's host schedulers and PBDMAs, one per runlist, and the channels
 * (ref_pbdma.c).  They drive the copy engines (ref_ce.h) and the compute engine (ref_compute.h)
 * and take the events those report (ref_pbdma_event, the sink backend_ref.c wires). */
#ifndef GPUCOSIM_REF_PBDMA_H
#define GPUCOSIM_REF_PBDMA_H

#include "ref_bus.h"

void ref_pbdma_init(ref_t *r, uint32_t rl);
bool ref_pbdma_step(ref_t *r, uint32_t rl);
bool ref_pbdma_timeouts(ref_t *r);
void ref_pbdma_timers(const ref_t *r, uint32_t rl, uint64_t *next);
void ref_acquire_timers(const ref_t *r, uint64_t *next);
/* REF_EV_CE_DONE, REF_EV_TASK_DONE, REF_EV_SEM_WRITTEN (ref_bus.h) */
void ref_pbdma_event(ref_t *r, const ref_event_t *ev);
void ref_chan_reset(ref_t *r, uint32_t ch);
/* First error wins; recording one raises INTR_STATUS.CHANNEL_FAULT and stops the channel. */
void ref_record_fault(ref_t *r, uint32_t ch, uint32_t cause, uint32_t gp_get, uint32_t method, uint32_t data);

#endif
