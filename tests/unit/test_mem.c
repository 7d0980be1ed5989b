/* The first-fit allocator behind gc_mem_alloc. */
#include "../../hostdrv/device/internal.h"
#include "tcase.h"

static void t_alloc_free(void) {
    gc_heap_t h = {0x1000, 0x1000, NULL};
    uint64_t a, b, c, d;
    REQUIRE_EQ(gc_heap_alloc(&h, 100, 64, &a), GC_OK);
    REQUIRE_EQ(gc_heap_alloc(&h, 100, 256, &b), GC_OK);
    REQUIRE_EQ(gc_heap_alloc(&h, 8, 8, &c), GC_OK);
    CHECK_EQ(a, 0x1000);
    CHECK_EQ(b, 0x1100); /* 256-aligned after [0x1000, 0x1064) */
    CHECK_EQ(c, 0x1068); /* first fit: the gap before b */
    CHECK_EQ(gc_heap_free(&h, b), GC_OK);
    CHECK_EQ(gc_heap_free(&h, b), GC_ERR_NOT_FOUND); /* double free is refused */
    REQUIRE_EQ(gc_heap_alloc(&h, 0xF00, 16, &d), GC_OK);
    CHECK_EQ(d, 0x1070);
    CHECK_EQ(gc_heap_alloc(&h, 0x100, 16, &d), GC_ERR_NO_MEMORY);
    CHECK_EQ(gc_heap_alloc(&h, 16, 3, &d), GC_ERR_INVALID_ARG);
    CHECK_EQ(gc_heap_alloc(&h, 0, 16, &d), GC_ERR_INVALID_ARG);
    gc_heap_destroy(&h);
    CHECK(h.used == NULL);
}

static void t_no_overlap(void) {
    gc_heap_t h = {0, 1u << 20, NULL};
    uint64_t addr[200], size[200];
    uint32_t rng = 7;
    int n = 0;
    for (int i = 0; i < 200; i++) {
        rng = rng * 1664525u + 1013904223u;
        size[n] = 1 + (rng >> 8) % 5000;
        if (gc_heap_alloc(&h, size[n], 1ull << ((rng >> 4) % 8), &addr[n]) == GC_OK) n++;
        if (n > 4 && (rng & 3) == 0) { /* free one from the middle */
            int k = (int)((rng >> 12) % (uint32_t)n);
            CHECK_EQ(gc_heap_free(&h, addr[k]), GC_OK);
            addr[k] = addr[n - 1];
            size[k] = size[n - 1];
            n--;
        }
    }
    for (int i = 0; i < n; i++) {
        CHECK(addr[i] + size[i] <= (1u << 20));
        for (int j = i + 1; j < n; j++) CHECK(addr[i] + size[i] <= addr[j] || addr[j] + size[j] <= addr[i]);
    }
    gc_heap_destroy(&h);
}

static const tcase_t cases[] = {{"mem_alloc_free", t_alloc_free}, {"mem_no_overlap", t_no_overlap}};
TCASE_MAIN(cases)
