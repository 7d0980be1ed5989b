/* vecadd and integer saxpy: streaming kernels (one load or two, one store per element);
 * vecadd_x4: vecadd written for bandwidth. */
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

/* The same result as vecadd, written the way a bandwidth-bound CUDA kernel is: each grid-stride
 * iteration handles 4 elements i, i + s, i + 2s, i + 3s (s = the grid's threads, so every load
 * instruction of a warp is still one coalesced run) and issues all 8 loads before the first add,
 * so a warp keeps its loads in flight (gc_sm: up to 4 per warp) instead of waiting one memory
 * round trip per element; the remaining < 4 elements per thread go one at a time. */
GC_KERNEL(vecadd_x4) {
    const gc_vecadd_params_t *p = gc_param;
    const uint32_t *__restrict a = (const uint32_t *)(uintptr_t)p->a;
    const uint32_t *__restrict b = (const uint32_t *)(uintptr_t)p->b;
    uint32_t *__restrict c = (uint32_t *)(uintptr_t)p->c;
    uint32_t n = p->n, s = gc_threads_x(), i = gc_global_id_x();
    uint32_t lim = n > 3 * s ? n - 3 * s : 0; /* i < lim: i + 3s < n (no overflow for n < 2^32 - 3s) */
    for (; i < lim; i += 4 * s) {
        uint32_t a0 = a[i], b0 = b[i], a1 = a[i + s], b1 = b[i + s];
        uint32_t a2 = a[i + 2 * s], b2 = b[i + 2 * s], a3 = a[i + 3 * s], b3 = b[i + 3 * s];
        c[i] = a0 + b0;
        c[i + s] = a1 + b1;
        c[i + 2 * s] = a2 + b2;
        c[i + 3 * s] = a3 + b3;
    }
    for (; i < n; i += s) c[i] = a[i] + b[i];
}

GC_KERNEL(saxpy) {
    const gc_saxpy_params_t *p = gc_param;
    const int32_t *x = (const int32_t *)(uintptr_t)p->x;
    int32_t *y = (int32_t *)(uintptr_t)p->y;
    int32_t alpha = p->alpha;
    uint32_t n = p->n, step = gc_threads_x();
    for (uint32_t i = gc_global_id_x(); i < n; i += step) y[i] = alpha * x[i] + y[i];
}
