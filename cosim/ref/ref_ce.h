/* ref_ce.h: the ref model's copy engines (ref_ce.c), driven by the PBDMAs.  A finished command
 * is reported as REF_EV_CE_DONE (ref_bus.h). */
#ifndef GPUCOSIM_REF_CE_H
#define GPUCOSIM_REF_CE_H

#include "ref.h"

/* Copy engine e takes the LAUNCH_DMA `launch` of channel ch, whose method registers are c's. */
void ref_ce_launch(ref_t *r, uint32_t e, const ref_chan_t *c, uint32_t ch, uint32_t launch);
bool ref_ce_step(ref_t *r, uint32_t e);

#endif
