/* other_kernels.h: the parameter block of tests/firmware/other_kernels.c (shared with the host
 * tests) and the host's reference of what it computes. */
#ifndef GC_OTHER_KERNELS_H
#define GC_OTHER_KERNELS_H

#include <stdint.h>

/* table_op: out[i] = op[sel](a[i], b[i]) ^ mix(i) for i < n, where op is a table of four
 * functions (add, sub, xor, mul) and mix a switch over i % 8; vecadd (this image's own, not
 * kernels.elf's): c[i] = a[i] + b[i] + 1, so a test can tell which image ran. */
typedef struct gc_other_params {
    uint32_t a, b, out, n, sel;
} gc_other_params_t;

static inline uint32_t gc_other_mix(uint32_t i) {
    switch (i % 8u) {
    case 0: return 0x11111111u;
    case 1: return i * 3u;
    case 2: return i + 0x7700u;
    case 3: return ~i;
    case 4: return i << 5;
    case 5: return 0xA5A5A5A5u ^ i;
    case 6: return i * i;
    default: return 0x5EEDu;
    }
}

static inline uint32_t gc_other_op(uint32_t sel, uint32_t a, uint32_t b) {
    switch (sel % 4u) {
    case 0: return a + b;
    case 1: return a - b;
    case 2: return a ^ b;
    default: return a * b;
    }
}

#endif
