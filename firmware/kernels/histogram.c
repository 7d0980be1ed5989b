/* histogram: global atomics (mode 0) or shared-memory atomics merged per CTA (mode 1), plus an
 * AMOMAXU maximum and an LR/SC compare-and-swap count. */
#include "gc_device.h"
#include "gc_kernels.h"

GC_KERNEL(histogram) {
    const gc_histogram_params_t *p = gc_param;
    const uint32_t *in = (const uint32_t *)(uintptr_t)p->in;
    volatile uint32_t *bins = (volatile uint32_t *)(uintptr_t)p->bins;
    volatile uint32_t *sh = gc_shared();
    uint32_t n = p->n, nbins = p->nbins, step = gc_threads_x();
    uint32_t t = gc_tid(), nt = gc_ntid(), mine = 0, mx = 0;
    if (p->mode) {
        for (uint32_t b = t; b < nbins; b += nt) sh[b] = 0;
        gc_barrier();
    }
    for (uint32_t i = gc_global_id_x(); i < n; i += step) {
        uint32_t v = in[i];
        gc_atomic_add(p->mode ? &sh[v % nbins] : &bins[v % nbins], 1);
        if (v > mx) mx = v;
        mine++;
    }
    gc_atomic_maxu((volatile uint32_t *)(uintptr_t)p->maxv, mx);
    volatile uint32_t *count = (volatile uint32_t *)(uintptr_t)p->count;
    for (;;) {
        uint32_t old = *count;
        if (gc_atomic_cas(count, old, old + mine)) break;
    }
    if (p->mode) {
        gc_barrier();
        for (uint32_t b = t; b < nbins; b += nt)
            if (sh[b]) gc_atomic_add(&bins[b], sh[b]);
    }
}
