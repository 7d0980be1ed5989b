/* ring.c: GPFIFO index arithmetic.
 *
 * gc_wrap follows the work-queue document's wrap() ([0071] of its Chinese text, docs/sources.md): for a ring whose size is not a power of two, an index one
 * step outside [0, n) is brought back by adding or subtracting n; for a power of two it is a
 * mask.  Full is GET == (PUT + 1) mod n (one slot stays empty), empty is GET == PUT.
 */
#include "gpucosim/hostdrv.h"

uint32_t gc_wrap(int64_t x, uint32_t n) {
    if (x < 0) return (uint32_t)(x + n);
    if (x >= (int64_t)n) return (uint32_t)(x - n);
    return (uint32_t)x;
}

uint32_t gc_wrap_pow2(int64_t x, uint32_t log2n) {
    return (uint32_t)((uint64_t)x & ((1ull << log2n) - 1u));
}

bool gc_ring_empty(uint32_t get, uint32_t put) { return get == put; }

bool gc_ring_full(uint32_t get, uint32_t put, uint32_t n) { return get == gc_wrap((int64_t)put + 1, n); }

uint32_t gc_ring_free(uint32_t get, uint32_t put, uint32_t n) {
    /* used = (put - get) mod n; one slot always stays empty */
    uint32_t used = gc_wrap((int64_t)put - (int64_t)get, n);
    return n - 1u - used;
}
