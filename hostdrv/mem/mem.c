/* mem.c: sysmem / vidmem allocators (first fit over each window past its NULL guard, blocks sorted
 * by address). */
#include <stdlib.h>

#include "../device/internal.h"

_Static_assert(GC_SIMT_WIN_SYSMEM_DEVICE == GC_SYSMEM_BASE && GC_SIMT_WIN_VIDMEM_DEVICE == GC_VIDMEM_BASE,
               "each heap's NULL guard is at the base of the thread window mapping it");

gc_status_t gc_heap_alloc(gc_heap_t *h, uint64_t size, uint64_t align, uint64_t *addr) {
    if (size == 0 || (align & (align - 1))) return GC_ERR_INVALID_ARG;
    uint64_t cur = h->base;
    gc_block_t **link = &h->used;
    for (;;) {
        uint64_t start = (cur + align - 1) & ~(align - 1);
        uint64_t limit = *link ? (*link)->addr : h->base + h->size;
        if (start <= limit && limit - start >= size) {
            gc_block_t *b = malloc(sizeof *b);
            if (!b) return GC_ERR_NO_MEMORY;
            *b = (gc_block_t){start, size, *link};
            *link = b;
            *addr = start;
            return GC_OK;
        }
        if (!*link) return GC_ERR_NO_MEMORY;
        cur = (*link)->addr + (*link)->size;
        link = &(*link)->next;
    }
}

gc_status_t gc_heap_reserve(gc_heap_t *h, uint64_t addr, uint64_t size) {
    if (size == 0 || addr < h->base || addr - h->base > h->size || size > h->size - (addr - h->base))
        return GC_ERR_INVALID_ARG;
    gc_block_t **link = &h->used;
    uint64_t prev_end = h->base;
    while (*link && (*link)->addr < addr) {
        prev_end = (*link)->addr + (*link)->size;
        link = &(*link)->next;
    }
    if (prev_end > addr || (*link && (*link)->addr < addr + size)) return GC_ERR_BUSY;
    gc_block_t *b = malloc(sizeof *b);
    if (!b) return GC_ERR_NO_MEMORY;
    *b = (gc_block_t){addr, size, *link};
    *link = b;
    return GC_OK;
}

gc_status_t gc_heap_free(gc_heap_t *h, uint64_t addr) {
    for (gc_block_t **link = &h->used; *link; link = &(*link)->next) {
        if ((*link)->addr == addr) {
            gc_block_t *b = *link;
            *link = b->next;
            free(b);
            return GC_OK;
        }
    }
    return GC_ERR_NOT_FOUND;
}

void gc_heap_destroy(gc_heap_t *h) {
    while (h->used) {
        gc_block_t *b = h->used;
        h->used = b->next;
        free(b);
    }
}

/* The argument checks of gc_mem_alloc / gc_mem_reserve: GC_OK or INVALID_ARG with the message. */
static gc_status_t check_kind_out(gc_device_t *dev, const char *fn, gc_mem_kind_t kind, const void *out) {
    if (!out) return gc_fail(dev, GC_ERR_INVALID_ARG, "%s: the output pointer is NULL", fn);
    if (kind != GC_MEM_SYSMEM && kind != GC_MEM_VIDMEM)
        return gc_fail(dev, GC_ERR_INVALID_ARG, "%s: memory kind %d is neither GC_MEM_SYSMEM (0) nor GC_MEM_VIDMEM (1)",
                       fn, (int)kind);
    return GC_OK;
}

gc_status_t gc_mem_alloc(gc_device_t *dev, gc_mem_kind_t kind, uint64_t size, uint64_t align, gc_buf_t *out) {
    if (!dev) return GC_ERR_INVALID_ARG;
    gc_status_t ck = check_kind_out(dev, "gc_mem_alloc", kind, out);
    if (ck != GC_OK) return ck;
    if (align == 0) align = 64;
    uint64_t addr = 0;
    gc_status_t st = gc_heap_alloc(&dev->heap[kind], size, align, &addr);
    if (st != GC_OK)
        return gc_fail(dev, st, "cannot allocate %llu bytes (align %llu) of %s: %s", (unsigned long long)size,
                       (unsigned long long)align, kind == GC_MEM_SYSMEM ? "sysmem" : "vidmem",
                       st == GC_ERR_INVALID_ARG ? "the size must be > 0 and the alignment a power of two"
                                                : gc_status_str(st));
    *out = (gc_buf_t){addr, size, kind};
    return GC_OK;
}

gc_status_t gc_mem_reserve(gc_device_t *dev, gc_mem_kind_t kind, uint64_t addr, uint64_t size, gc_buf_t *out) {
    if (!dev) return GC_ERR_INVALID_ARG;
    gc_status_t ck = check_kind_out(dev, "gc_mem_reserve", kind, out);
    if (ck != GC_OK) return ck;
    gc_status_t st = gc_heap_reserve(&dev->heap[kind], addr, size);
    const gc_heap_t *h = &dev->heap[kind];
    uint64_t win = kind == GC_MEM_SYSMEM ? GC_SYSMEM_BASE : GC_VIDMEM_BASE;
    bool guard = st == GC_ERR_INVALID_ARG && addr < h->base && addr + size > win;
    if (guard)
        return gc_fail(dev, st, "cannot reserve [0x%010llx, +%llu) of %s: it overlaps the NULL guard [0x%010llx, +%llu) "
                       "that no SIMT thread reaches", (unsigned long long)addr, (unsigned long long)size,
                       kind == GC_MEM_SYSMEM ? "sysmem" : "vidmem", (unsigned long long)win,
                       (unsigned long long)(h->base - win));
    if (st != GC_OK)
        return gc_fail(dev, st, "cannot reserve [0x%010llx, +%llu) of %s: %s", (unsigned long long)addr,
                       (unsigned long long)size, kind == GC_MEM_SYSMEM ? "sysmem" : "vidmem",
                       st == GC_ERR_BUSY ? "part of it is allocated"
                       : st == GC_ERR_NO_MEMORY ? "out of host memory" : "not inside the window");
    *out = (gc_buf_t){addr, size, kind};
    return GC_OK;
}

gc_status_t gc_mem_free(gc_device_t *dev, const gc_buf_t *buf) {
    if (!dev) return GC_ERR_INVALID_ARG;
    if (!buf) return gc_fail(dev, GC_ERR_INVALID_ARG, "gc_mem_free: the buffer is NULL");
    if (buf->kind != GC_MEM_SYSMEM && buf->kind != GC_MEM_VIDMEM)
        return gc_fail(dev, GC_ERR_INVALID_ARG, "gc_mem_free: buffer of memory kind %d (neither sysmem nor vidmem)",
                       (int)buf->kind);
    gc_status_t st = gc_heap_free(&dev->heap[buf->kind], buf->addr);
    if (st != GC_OK)
        return gc_fail(dev, GC_ERR_INVALID_ARG, "free of 0x%010llx: not an allocated block",
                       (unsigned long long)buf->addr);
    return GC_OK;
}
