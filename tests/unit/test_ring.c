/* GPFIFO index arithmetic: the work-queue document's wrap() ([0071]) for power-of-two and other sizes, full / empty. */
#include "gpucosim/chan.h"
#include "tcase.h"

static void t_wrap_any_size(void) {
    /* [0071]: x < 0 -> x + n; x >= n -> x - n; else x */
    CHECK_EQ(gc_wrap(-1, 5), 4);
    CHECK_EQ(gc_wrap(-5, 5), 0);
    CHECK_EQ(gc_wrap(0, 5), 0);
    CHECK_EQ(gc_wrap(4, 5), 4);
    CHECK_EQ(gc_wrap(5, 5), 0);
    CHECK_EQ(gc_wrap(9, 5), 4);
    CHECK_EQ(gc_wrap(-1, 1), 0);
    CHECK_EQ(gc_wrap(6, 7), 6);
    CHECK_EQ(gc_wrap(7, 7), 0);
}

static void t_wrap_pow2(void) {
    CHECK_EQ(gc_wrap_pow2(-1, 3), 7);
    CHECK_EQ(gc_wrap_pow2(8, 3), 0);
    CHECK_EQ(gc_wrap_pow2(9, 3), 1);
    CHECK_EQ(gc_wrap_pow2(7, 3), 7);
    CHECK_EQ(gc_wrap_pow2(-1, 15), 32767);
    /* both forms agree on power-of-two sizes over one step either side */
    for (uint32_t l = 1; l <= 10; l++)
        for (int64_t x = -(1 << l); x < (2 << l); x++) CHECK_EQ(gc_wrap(x, 1u << l), gc_wrap_pow2(x, l));
}

static void t_seed_gp_put_init(void) {
    /* the work-queue document, step 410: GP_PUT = wrap(GP_GET - 1, work_queue_entry_count) */
    CHECK_EQ(gc_wrap(0 - 1, 5), 4);
    CHECK_EQ(gc_wrap(3 - 1, 5), 2);
    CHECK_EQ(gc_wrap_pow2(0 - 1, 3), 7);
    /* with PUT one behind GET the queue is full */
    CHECK(gc_ring_full(0, gc_wrap(-1, 5), 5));
}

static void t_full_empty(void) {
    CHECK(gc_ring_empty(3, 3));
    CHECK(!gc_ring_full(3, 3, 4));
    CHECK(gc_ring_full(0, 3, 4));
    CHECK(gc_ring_full(2, 1, 4));
    CHECK(!gc_ring_full(2, 0, 4));
    CHECK_EQ(gc_ring_free(0, 0, 4), 3);
    CHECK_EQ(gc_ring_free(0, 3, 4), 0);
    CHECK_EQ(gc_ring_free(3, 1, 4), 1);
    CHECK_EQ(gc_ring_free(2, 2, 5), 4);
    CHECK_EQ(gc_ring_free(4, 1, 5), 2);
}

/* A producer / consumer run against a count model, for several sizes including odd ones. */
static void t_ring_model(void) {
    static const uint32_t sizes[] = {2, 3, 5, 7, 8, 12, 64};
    uint32_t rng = 12345;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        uint32_t n = sizes[s], get = 0, put = 0, count = 0;
        for (int step = 0; step < 5000; step++) {
            rng = rng * 1103515245u + 12345u;
            if ((rng >> 16) & 1) {
                if (gc_ring_full(get, put, n)) {
                    CHECK_EQ(count, n - 1);
                } else {
                    put = gc_wrap((int64_t)put + 1, n);
                    count++;
                }
            } else if (!gc_ring_empty(get, put)) {
                get = gc_wrap((int64_t)get + 1, n);
                count--;
            } else {
                CHECK_EQ(count, 0);
            }
            CHECK_EQ(gc_ring_free(get, put, n), n - 1 - count);
        }
    }
}

static const tcase_t cases[] = {
    {"ring_wrap_any_size", t_wrap_any_size}, {"ring_wrap_pow2", t_wrap_pow2},
    {"ring_seed_gp_put_init", t_seed_gp_put_init}, {"ring_full_empty", t_full_empty},
    {"ring_model", t_ring_model},
};
TCASE_MAIN(cases)
