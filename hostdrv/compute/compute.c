/* compute.c: TMD encoder and compute-class pushbuffer helpers (gpucosim/compute.h).  Every
 * encoding comes from the generated spec header.  Written in the common subset of C11 and C++ so
 * that the SIMT block bench can compile it (with GC_COMPUTE_NO_DEVICE). */
#include "gpucosim/compute.h"

#include <stdio.h>
#include <string.h>

#ifndef GC_COMPUTE_NO_DEVICE
#include "../device/internal.h" /* gc_fail */
#endif

void gc_tmd_init(gc_tmd_t *t) {
    memset(t, 0, sizeof *t);
    for (int i = 0; i < 3; i++) t->grid[i] = t->cta[i] = 1;
}

static bool fits(uint32_t v, uint32_t mask) { return (v & ~mask) == 0; }

gc_status_t gc_tmd_encode(const gc_tmd_t *t, uint32_t w[GC_TMD_WORDS]) {
    if (!t || !w) return GC_ERR_INVALID_ARG;
    for (int i = 0; i < 3; i++)
        if (t->grid[i] == 0 || t->cta[i] == 0) return GC_ERR_INVALID_ARG;
    if (!fits(t->cta[0], GC_TMD_CTA_DIM_XY_X_MASK) || !fits(t->cta[1], GC_TMD_CTA_DIM_XY_Y_MASK) ||
        !fits(t->cta[2], GC_TMD_CTA_DIM_Z_Z_MASK) || !fits(t->priority, GC_TMD_PRIORITY_LEVEL_MASK) ||
        !fits(t->depth, GC_TMD_PRIORITY_DEPTH_MASK) || !fits(t->max_depth, GC_TMD_PRIORITY_MAX_DEPTH_MASK) ||
        (t->sem_addr >> 32) > GC_TMD_SEM_ADDR_HI_HI_MASK)
        return GC_ERR_INVALID_ARG;
    memset(w, 0, GC_TMD_SIZE);
    w[GC_TMD_ENTRY_PC / 4] = t->entry_pc;
    w[GC_TMD_PARAM / 4] = t->param;
    w[GC_TMD_GRID_X / 4] = t->grid[0];
    w[GC_TMD_GRID_Y / 4] = t->grid[1];
    w[GC_TMD_GRID_Z / 4] = t->grid[2];
    w[GC_TMD_CTA_DIM_XY / 4] = GC_TMD_CTA_DIM_XY_X(t->cta[0]) | GC_TMD_CTA_DIM_XY_Y(t->cta[1]);
    w[GC_TMD_CTA_DIM_Z / 4] = GC_TMD_CTA_DIM_Z_Z(t->cta[2]);
    w[GC_TMD_SMEM_BYTES / 4] = t->smem_bytes;
    w[GC_TMD_PRIORITY / 4] = GC_TMD_PRIORITY_LEVEL(t->priority) | GC_TMD_PRIORITY_DEPTH(t->depth) |
                             GC_TMD_PRIORITY_MAX_DEPTH(t->max_depth);
    w[GC_TMD_SEM_ADDR_LO / 4] = (uint32_t)t->sem_addr;
    w[GC_TMD_SEM_ADDR_HI / 4] = GC_TMD_SEM_ADDR_HI_HI((uint32_t)(t->sem_addr >> 32));
    w[GC_TMD_SEM_PAYLOAD / 4] = t->sem_payload;
    w[GC_TMD_FLAGS / 4] = GC_TMD_FLAGS_SEM_RELEASE(t->sem_release ? 1u : 0u) |
                          GC_TMD_FLAGS_SEM_FOUR_WORD(t->sem_four_word ? 1u : 0u) |
                          GC_TMD_FLAGS_INTERRUPT(t->interrupt ? 1u : 0u) |
                          GC_TMD_FLAGS_QUEUE_HEAD(t->queue_head ? 1u : 0u);
    return GC_OK;
}

void gc_tmd_decode(const uint32_t w[GC_TMD_WORDS], gc_tmd_t *t) {
    gc_tmd_init(t);
    t->entry_pc = w[GC_TMD_ENTRY_PC / 4];
    t->param = w[GC_TMD_PARAM / 4];
    t->grid[0] = w[GC_TMD_GRID_X / 4];
    t->grid[1] = w[GC_TMD_GRID_Y / 4];
    t->grid[2] = w[GC_TMD_GRID_Z / 4];
    t->cta[0] = GC_TMD_CTA_DIM_XY_X_GET(w[GC_TMD_CTA_DIM_XY / 4]);
    t->cta[1] = GC_TMD_CTA_DIM_XY_Y_GET(w[GC_TMD_CTA_DIM_XY / 4]);
    t->cta[2] = GC_TMD_CTA_DIM_Z_Z_GET(w[GC_TMD_CTA_DIM_Z / 4]);
    t->smem_bytes = w[GC_TMD_SMEM_BYTES / 4];
    t->priority = GC_TMD_PRIORITY_LEVEL_GET(w[GC_TMD_PRIORITY / 4]);
    t->depth = GC_TMD_PRIORITY_DEPTH_GET(w[GC_TMD_PRIORITY / 4]);
    t->max_depth = GC_TMD_PRIORITY_MAX_DEPTH_GET(w[GC_TMD_PRIORITY / 4]);
    t->sem_addr = ((uint64_t)GC_TMD_SEM_ADDR_HI_HI_GET(w[GC_TMD_SEM_ADDR_HI / 4]) << 32) | w[GC_TMD_SEM_ADDR_LO / 4];
    t->sem_payload = w[GC_TMD_SEM_PAYLOAD / 4];
    t->sem_release = GC_TMD_FLAGS_SEM_RELEASE_GET(w[GC_TMD_FLAGS / 4]) != 0;
    t->sem_four_word = GC_TMD_FLAGS_SEM_FOUR_WORD_GET(w[GC_TMD_FLAGS / 4]) != 0;
    t->interrupt = GC_TMD_FLAGS_INTERRUPT_GET(w[GC_TMD_FLAGS / 4]) != 0;
    t->queue_head = GC_TMD_FLAGS_QUEUE_HEAD_GET(w[GC_TMD_FLAGS / 4]) != 0;
}

uint32_t gc_simt_ptr(uint64_t dev_addr) {
    uint32_t a = 0;
    return gc_simt_from_device(dev_addr, &a) ? a : 0;
}

int gc_compute_fault_format(const gc_compute_fault_t *f, char *buf, size_t len) {
    return snprintf(buf, len, "%s at pc 0x%08x (SM %u warp %u lane %u), addr 0x%08x, task 0x%x from channel %u: %s",
                    gc_simt_fault_name(f->cause), f->pc, f->sm, f->warp, f->lane, f->addr, f->task, f->channel,
                    gc_simt_fault_doc(f->cause));
}

#ifndef GC_COMPUTE_NO_DEVICE
void gc_pb_compute_launch(gc_pushbuf_t *pb, uint32_t subch, uint64_t tmd_addr) {
    if (pb->status != GC_OK) return;
    if (tmd_addr % GC_TMD_ALIGN || (tmd_addr >> 8) > 0xFFFFFFFFull) {
        pb->status = GC_ERR_INVALID_ARG;
        return;
    }
    gc_pb_method(pb, subch, GC_COMPUTE_SEND_PCAS_A, GC_COMPUTE_SEND_PCAS_A_QMD_ADDRESS_SHIFTED8((uint32_t)(tmd_addr >> 8)));
    gc_pb_method(pb, subch, GC_COMPUTE_SEND_SIGNALING_PCAS_B,
                 GC_COMPUTE_SEND_SIGNALING_PCAS_B_INVALIDATE(GC_COMPUTE_SEND_SIGNALING_PCAS_B_INVALIDATE_TRUE) |
                     GC_COMPUTE_SEND_SIGNALING_PCAS_B_SCHEDULE(GC_COMPUTE_SEND_SIGNALING_PCAS_B_SCHEDULE_TRUE));
}

gc_status_t gc_compute_bind(gc_channel_t *ch, uint32_t subch) {
    uint32_t words[4];
    gc_pushbuf_t pb;
    gc_pb_init(&pb, words, 4);
    gc_pb_set_object(&pb, subch, GC_CLASS_COMPUTE);
    /* a bad subchannel leaves pb.status set: gc_channel_submit refuses it with the message */
    if (pb.status == GC_OK) gc_channel_set_subch_class(ch, subch, GC_CLASS_COMPUTE);
    return gc_channel_submit(ch, &pb);
}

gc_status_t gc_compute_write_tmd(gc_device_t *dev, const gc_tmd_t *t, const gc_buf_t *tmd) {
    uint32_t w[GC_TMD_WORDS];
    if (!dev) return GC_ERR_INVALID_ARG;
    if (!tmd || tmd->size < GC_TMD_SIZE || tmd->addr % GC_TMD_ALIGN)
        return gc_fail(dev, GC_ERR_INVALID_ARG, "gc_compute_write_tmd: the TMD buffer must be at least %u bytes at a "
                       "%u-byte aligned address", (unsigned)GC_TMD_SIZE, (unsigned)GC_TMD_ALIGN);
    gc_status_t st = gc_tmd_encode(t, w);
    if (st != GC_OK) return gc_fail(dev, st, "gc_compute_write_tmd: the TMD does not encode (a zero or out-of-range field)");
    return gc_mem_write(dev, tmd->addr, w, sizeof w);
}

gc_status_t gc_compute_fault_read(gc_device_t *dev, gc_compute_fault_t *f) {
    uint32_t c = 0, loc = 0, ch = 0;
    gc_status_t st;
    if (!dev) return GC_ERR_INVALID_ARG;
    if (!f) return gc_fail(dev, GC_ERR_INVALID_ARG, "gc_compute_fault_read: the record pointer is NULL");
    if ((st = gc_mmio_read(dev, GC_REG_COMPUTE_FAULT_CAUSE, &c)) != GC_OK ||
        (st = gc_mmio_read(dev, GC_REG_COMPUTE_FAULT_PC, &f->pc)) != GC_OK ||
        (st = gc_mmio_read(dev, GC_REG_COMPUTE_FAULT_ADDR, &f->addr)) != GC_OK ||
        (st = gc_mmio_read(dev, GC_REG_COMPUTE_FAULT_LOC, &loc)) != GC_OK ||
        (st = gc_mmio_read(dev, GC_REG_COMPUTE_FAULT_TASK, &f->task)) != GC_OK ||
        (st = gc_mmio_read(dev, GC_REG_COMPUTE_FAULT_CHANNEL, &ch)) != GC_OK)
        return st;
    f->cause = GC_COMPUTE_FAULT_CAUSE_CAUSE_GET(c);
    f->lane = GC_COMPUTE_FAULT_LOC_LANE_GET(loc);
    f->warp = GC_COMPUTE_FAULT_LOC_WARP_GET(loc);
    f->sm = GC_COMPUTE_FAULT_LOC_SM_GET(loc);
    f->channel = GC_COMPUTE_FAULT_CHANNEL_CHANNEL_GET(ch);
    return GC_OK;
}
#endif
