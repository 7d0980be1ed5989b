/* lib.c: what gcc may call in freestanding kernel code (built with -fno-tree-loop-distribute-patterns
 * so that these loops do not turn into calls to themselves). */
#include "gc_device.h"

void *memset(void *d, int c, size_t n) {
    unsigned char *p = d;
    while (n--) *p++ = (unsigned char)c;
    return d;
}

void *memcpy(void *restrict d, const void *restrict s, size_t n) {
    unsigned char *p = d;
    const unsigned char *q = s;
    while (n--) *p++ = *q++;
    return d;
}

void *memmove(void *d, const void *s, size_t n) {
    unsigned char *p = d;
    const unsigned char *q = s;
    if (p < q) {
        while (n--) *p++ = *q++;
    } else {
        while (n--) p[n] = q[n];
    }
    return d;
}
