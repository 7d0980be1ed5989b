/* reduce: per-thread partial sums, then a tree in shared memory with CTA barriers. */
#include "gc_device.h"
#include "gc_kernels.h"

GC_KERNEL(reduce) {
    const gc_reduce_params_t *p = gc_param;
    const uint32_t *in = (const uint32_t *)(uintptr_t)p->in;
    volatile uint32_t *sh = gc_shared();
    uint32_t t = gc_tid(), nt = gc_ntid();
    uint32_t sum = 0, n = p->n, step = gc_threads_x();
    for (uint32_t i = gc_global_id_x(); i < n; i += step) sum += in[i];
    sh[t] = sum;
    gc_barrier();
    uint32_t half = 1;
    while (half < nt) half <<= 1;
    for (half >>= 1; half > 0; half >>= 1) {
        if (t < half && t + half < nt) sh[t] += sh[t + half];
        gc_barrier();
    }
    if (t == 0) {
        uint32_t cta = gc_ctaid_x() + gc_nctaid_x() * (gc_ctaid_y() + gc_nctaid_y() * gc_ctaid_z());
        ((uint32_t *)(uintptr_t)p->out)[cta] = sh[0];
        gc_atomic_add((volatile uint32_t *)(uintptr_t)p->total, sh[0]);
    }
}
