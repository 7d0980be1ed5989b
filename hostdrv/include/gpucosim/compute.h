/* compute.h: the compute class (spec classes.COMPUTE, NVIDIA TURING_COMPUTE_A methods) and the TMD
 * (spec structs.TMD), for launching SIMT kernels on runlist 0.
 *
 *   gc_tmd_t t; gc_tmd_init(&t);               entry PC, parameter block, grid / CTA shape, shared
 *   t.entry_pc = pc; t.param = gc_simt_ptr(p); memory, completion semaphore, interrupt
 *   uint32_t w[GC_TMD_WORDS]; gc_tmd_encode(&t, w);   -> write w to a GC_TMD_ALIGN-aligned buffer
 *   gc_pb_set_object(pb, GC_COMPUTE_SUBCH, GC_CLASS_COMPUTE);   (once per channel, runlist 0)
 *   gc_pb_compute_launch(pb, GC_COMPUTE_SUBCH, tmd_addr);
 *
 * A launch holds its channel until the task completed (like a copy's LAUNCH_DMA); a faulting
 * task stops the channel with ERROR.CAUSE TASK_FAULT and leaves its record in the COMPUTE
 * registers (gc_compute_fault_read / _format).  Kernel images: gpucosim/elf.h.
 */
#ifndef GPUCOSIM_COMPUTE_H
#define GPUCOSIM_COMPUTE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gpucosim/chan.h"     /* gc_channel_t, gc_pushbuf_t (and mem.h, device.h below it) */
#include "gpucosim/device.h"
#include "gpucosim/elf.h"
#include "gpucosim/mem.h"
#include "gpucosim_spec.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GC_TMD_WORDS (GC_TMD_SIZE / 4u)
#define GC_COMPUTE_SUBCH 1u /* subchannel the helpers and tests bind the compute class to */

typedef struct gc_tmd {
    uint32_t entry_pc;      /* first instruction (thread address: gc_elf_symbol) */
    uint32_t param;         /* parameter block (thread address: gc_simt_ptr) */
    uint32_t grid[3];       /* CTAs along x, y, z (>= 1) */
    uint32_t cta[3];        /* threads along x, y, z (>= 1, < 65536; product <= WARPS * LANES) */
    uint32_t smem_bytes;    /* shared memory per CTA */
    uint32_t priority;      /* PRIORITY.LEVEL: device priority 0..TMU_PRIO_LEVELS-1 (the field holds 0..255;
                             * the TMU faults BAD_TMD on a level >= TMU_PRIO_LEVELS) */
    uint32_t depth;         /* PRIORITY.DEPTH: nesting level, 1 for a host launch (0 counts as 1) */
    uint32_t max_depth;     /* PRIORITY.MAX_DEPTH: max nesting depth N, 0..TMU_MAX_DEPTH (0 counts as 1) */
    bool sem_release;       /* write sem_payload to sem_addr at completion */
    bool sem_four_word;     /* ... as 16 bytes {payload, 0, cycle stamp} (16-aligned) */
    uint64_t sem_addr;      /* device address */
    uint32_t sem_payload;
    bool interrupt;         /* raise INTR_STATUS.NON_STALL at completion */
    bool queue_head;        /* FLAGS.QUEUE_HEAD: enter the pending list before the tasks of its level */
    bool queue;             /* FLAGS.QUEUE: a queue TMD (docs/tmu.md): each entry appended to the queue
                             * at queue_addr starts one grid; CSR QPOS = the entry's position */
    uint64_t queue_addr;    /* the queue header (structs.TASK_QUEUE, 8-aligned device address) */
} gc_tmd_t;

/* Grid and CTA 1 x 1 x 1, everything else 0. */
void gc_tmd_init(gc_tmd_t *t);
/* The GC_TMD_WORDS words of the TMD; GC_ERR_INVALID_ARG (nothing written) when a field does not
 * fit its spec field or a dimension is 0. */
gc_status_t gc_tmd_encode(const gc_tmd_t *t, uint32_t words[GC_TMD_WORDS]);
/* Decode (for tests and tools); no checks. */
void gc_tmd_decode(const uint32_t words[GC_TMD_WORDS], gc_tmd_t *t);

/* Device address -> SIMT thread address for a kernel's pointers (0 if the address is in no
 * global window). */
uint32_t gc_simt_ptr(uint64_t dev_addr);

/* The compute fault record (COMPUTE.FAULT_* registers). */
typedef struct gc_compute_fault {
    uint32_t cause;   /* GC_SIMT_FAULT_* */
    uint32_t pc, addr, sm, warp, lane, task, channel;
} gc_compute_fault_t;
/* "ILLEGAL_INSTRUCTION at pc 0x83000010 (SM 0 warp 1 lane 3), addr 0xffffffff, task 0x830100 from channel 2: ..." */
int gc_compute_fault_format(const gc_compute_fault_t *f, char *buf, size_t len);

#ifndef GC_COMPUTE_NO_DEVICE
/* SEND_PCAS_A (tmd_addr >> 8) and SEND_SIGNALING_PCAS_B (INVALIDATE, SCHEDULE) on subch.  The TMD
 * address must be GC_TMD_ALIGN-aligned (pb->status GC_ERR_INVALID_ARG otherwise). */
void gc_pb_compute_launch(gc_pushbuf_t *pb, uint32_t subch, uint64_t tmd_addr);
/* Submit SET_OBJECT COMPUTE on subch (a channel of runlist 0) and note the binding. */
gc_status_t gc_compute_bind(gc_channel_t *ch, uint32_t subch);
/* Encode t and write it into `tmd` (>= GC_TMD_SIZE bytes, GC_TMD_ALIGN-aligned). */
gc_status_t gc_compute_write_tmd(gc_device_t *dev, const gc_tmd_t *t, const gc_buf_t *tmd);
gc_status_t gc_compute_fault_read(gc_device_t *dev, gc_compute_fault_t *f);
#endif

#ifdef __cplusplus
}
#endif
#endif
