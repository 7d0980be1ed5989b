/* Kernels of the task management unit scenarios (issue 6): device-side launches (nest_chain,
 * parent_a), a long low-priority grid with per-CTA counters (lp_grid) and a short high-priority
 * kernel (hp_short).  Parameter blocks: gc_kernels.h. */
#include "gc_device.h"
#include "gc_kernels.h"

#define PTR(a) ((volatile uint32_t *)(uintptr_t)(a))

static inline uint32_t cta_linear(void) {
    return gc_ctaid_x() + gc_nctaid_x() * (gc_ctaid_y() + gc_nctaid_y() * gc_ctaid_z());
}

/* One-thread child at launch record `rec`: entry `pc`, parameters already written at rec + GC_LREC_PARAM. */
static uint32_t launch_one(uint32_t rec, uint32_t pc) {
    gc_child_t c = {.entry_pc = pc, .param = rec + GC_LREC_PARAM, .grid = {1, 1, 1}, .block = {1, 1, 1}};
    return gc_launch_child(PTR(rec), &c);
}

GC_KERNEL(nest_chain) {
    const gc_nest_params_t *p = gc_param;
    uint32_t level = p->level;
    if (gc_tid() != 0 || cta_linear() != 0 || level > p->cap) return;
    PTR(p->markers)[level] = GC_MARK(level);
    if (level == p->cap) return;
    uint32_t rec = p->recs + GC_LREC_BYTES * (level + 1);
    volatile gc_nest_params_t *cp = (volatile gc_nest_params_t *)(uintptr_t)(rec + GC_LREC_PARAM);
    cp->recs = p->recs;
    cp->markers = p->markers;
    cp->status = p->status;
    cp->level = level + 1;
    cp->cap = p->cap;
    PTR(p->status)[level] = launch_one(rec, GC_KERNEL_PC(nest_chain));
}

GC_KERNEL(lp_grid) {
    const gc_lp_grid_params_t *p = gc_param;
    uint32_t c = cta_linear(), t = gc_tid();
    if (t == 0) gc_atomic_add(PTR(p->counters) + c, 1);
    uint32_t x = t * 2654435761u + c, n = p->spin;
    for (uint32_t i = 0; i < n; i++) x = x * 1103515245u + 12345u + (x >> 7);
    gc_atomic_add(PTR(p->sink) + c, x | 1u);
}

GC_KERNEL(hp_short) {
    const gc_hp_short_params_t *p = gc_param;
    if (gc_tid() == 0) PTR(p->out)[cta_linear()] = p->value + cta_linear();
}

GC_KERNEL(childless_a) {
    const gc_seed001_params_t *p = gc_param;
    if (gc_tid() == 0) PTR(p->out)[p->slot] = GC_MARK(p->slot);
}

GC_KERNEL(child_a) {
    const gc_seed001_params_t *p = gc_param;
    if (gc_tid() == 0) PTR(p->out)[p->slot] = GC_MARK(p->slot);
}

GC_KERNEL(parent_a) {
    const gc_seed001_params_t *p = gc_param;
    if (gc_tid() != 0) return;
    PTR(p->out)[p->slot] = GC_MARK(p->slot);
    volatile gc_seed001_params_t *cp = (volatile gc_seed001_params_t *)(uintptr_t)(p->rec + GC_LREC_PARAM);
    cp->out = p->out;
    cp->slot = p->child_slot;
    cp->rec = 0;
    cp->child_slot = 0;
    cp->status = 0;
    PTR(p->status)[0] = launch_one(p->rec, GC_KERNEL_PC(child_a));
}
