/* vecadd and integer saxpy: streaming kernels (one load or two, one store per element). */
#include "gc_device.h"
#include "gc_kernels.h"

GC_KERNEL(vecadd) {
    const gc_vecadd_params_t *p = gc_param;
    const uint32_t *a = (const uint32_t *)(uintptr_t)p->a;
    const uint32_t *b = (const uint32_t *)(uintptr_t)p->b;
    uint32_t *c = (uint32_t *)(uintptr_t)p->c;
    uint32_t n = p->n, step = gc_threads_x();
    for (uint32_t i = gc_global_id_x(); i < n; i += step) c[i] = a[i] + b[i];
}

GC_KERNEL(saxpy) {
    const gc_saxpy_params_t *p = gc_param;
    const int32_t *x = (const int32_t *)(uintptr_t)p->x;
    int32_t *y = (int32_t *)(uintptr_t)p->y;
    int32_t alpha = p->alpha;
    uint32_t n = p->n, step = gc_threads_x();
    for (uint32_t i = gc_global_id_x(); i < n; i += step) y[i] = alpha * x[i] + y[i];
}
