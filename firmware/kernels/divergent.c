/* divergent: data-dependent loops and nested ifs per element (gc_divergent_elem). */
#include "gc_device.h"
#include "gc_kernels.h"

GC_KERNEL(divergent) {
    const gc_divergent_params_t *p = gc_param;
    const uint32_t *in = (const uint32_t *)(uintptr_t)p->in;
    uint32_t *out = (uint32_t *)(uintptr_t)p->out;
    uint32_t n = p->n, step = gc_threads_x();
    for (uint32_t i = gc_global_id_x(); i < n; i += step) out[i] = gc_divergent_elem(in[i]);
}
