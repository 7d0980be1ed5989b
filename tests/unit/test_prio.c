/* The stream-to-device priority mapping (docs/sources.md), against the source text's own examples,
 * and the stream-to-copy-priority aliasing of the copy priorities, table by table. */
#include "gpucosim/runtime.h"
#include "tcase.h"

/* 12 device priorities 0..11, N = 4: floor(12/4) = 3 stream levels: 0 -> 0, 1 -> 4, 2 -> 8. */
static void t_twelve_depth4(void) {
    CHECK_EQ(gcrt_prio_stream_levels(12, 4), 3);
    CHECK_EQ(gcrt_prio_map(0, 2, 12, 4, 0), 0);
    CHECK_EQ(gcrt_prio_map(0, 2, 12, 4, 1), 4);
    CHECK_EQ(gcrt_prio_map(0, 2, 12, 4, 2), 8);
}

/* 12 device priorities, N = 2: 6 levels: 0 -> 0, 1 -> 2, ..., 5 -> 10. */
static void t_twelve_depth2(void) {
    CHECK_EQ(gcrt_prio_stream_levels(12, 2), 6);
    for (int p = 0; p <= 5; p++) CHECK_EQ(gcrt_prio_map(0, 5, 12, 2, p), 2 * p);
}

/* Device priorities 0..9, N = 4, stream priorities 100..199: 2 levels; 100 -> 0 and the surplus
 * 101..199 share the last level, 4 (the text's first embodiment). */
static void t_surplus_share(void) {
    CHECK_EQ(gcrt_prio_stream_levels(10, 4), 2);
    CHECK_EQ(gcrt_prio_map(100, 199, 10, 4, 100), 0);
    for (int p = 101; p <= 199; p++) CHECK_EQ(gcrt_prio_map(100, 199, 10, 4, p), 4);
}

/* Each mapped level is at least N above the one below, and everything stays in [0, M). */
static void t_spacing_property(void) {
    for (uint32_t m = 1; m <= 64; m++)
        for (uint32_t n = 1; n <= m; n++) {
            int prev = -1;
            for (int p = 0; p < 70; p++) {
                int d = gcrt_prio_map(0, 69, m, n, p);
                CHECK(d >= 0 && (uint32_t)d < m);
                CHECK(d + (int)n - 1 < (int)m); /* room for the nesting levels above it */
                if (prev >= 0 && d != prev) CHECK_EQ(d - prev, n);
                CHECK(d >= prev);
                prev = d;
            }
        }
}

/* Stream level -> copy priority, round(l (P-1) / (K-1)) with halves up, pinned exactly for several
 * K and P (a mapping that rounds down, or l * P / K, differs in at least one entry of each table
 * with K > 2 here). */
static void t_copy_priority_table(void) {
    static const struct {
        uint32_t k, p;
        uint32_t want[8];
    } t[] = {
        {1, 3, {0}},
        {2, 3, {0, 2}},
        {3, 8, {0, 4, 7}},
        {4, 3, {0, 1, 1, 2}},
        {5, 4, {0, 1, 2, 2, 3}},
        {6, 3, {0, 0, 1, 1, 2, 2}},
        {6, 8, {0, 1, 3, 4, 6, 7}},
        {8, 3, {0, 0, 1, 1, 1, 1, 2, 2}},
        {8, 5, {0, 1, 1, 2, 2, 3, 3, 4}},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        for (uint32_t l = 0; l < t[i].k; l++) {
            if (gcrt_copy_prio_map(t[i].k, t[i].p, l) != t[i].want[l])
                fprintf(stderr, "K %u P %u level %u: %u, want %u\n", t[i].k, t[i].p, l,
                        gcrt_copy_prio_map(t[i].k, t[i].p, l), t[i].want[l]);
            CHECK_EQ(gcrt_copy_prio_map(t[i].k, t[i].p, l), t[i].want[l]);
        }
    /* the ends for every K and P the runtime accepts: lowest -> 0, highest -> P-1, monotonic */
    for (uint32_t k = 2; k <= 1024; k++)
        for (uint32_t p = 3; p <= 8; p++) {
            CHECK_EQ(gcrt_copy_prio_map(k, p, 0), 0);
            CHECK_EQ(gcrt_copy_prio_map(k, p, k - 1), p - 1);
            CHECK_EQ(gcrt_copy_prio_map(k, p, k + 5), p - 1); /* clamped */
        }
}

static void t_invalid(void) {
    CHECK_EQ(gcrt_prio_map(0, 5, 12, 0, 1), -1); /* depth 0 */
    CHECK_EQ(gcrt_prio_map(0, 5, 3, 4, 1), -1);  /* fewer device priorities than the depth */
    CHECK_EQ(gcrt_prio_map(0, 5, 12, 2, 6), -1); /* outside the stream range */
    CHECK_EQ(gcrt_prio_map(5, 0, 12, 2, 1), -1); /* empty range */
    CHECK_EQ(gcrt_prio_stream_levels(12, 0), 0);
}

static void t_error_strings(void) {
    for (int e = 0; e < GCRT_ERROR_COUNT; e++) {
        CHECK(strncmp(gcrt_error_name((gcrt_error_t)e), "GCRT_", 5) == 0);
        CHECK(strlen(gcrt_error_string((gcrt_error_t)e)) > 5);
    }
    CHECK(!strcmp(gcrt_error_name(GCRT_ERROR_INVALID_HANDLE), "GCRT_ERROR_INVALID_HANDLE"));
    CHECK(!strcmp(gcrt_error_name((gcrt_error_t)999), "GCRT_ERROR_?"));
}

static const tcase_t cases[] = {
    {"prio_twelve_depth4", t_twelve_depth4}, {"prio_twelve_depth2", t_twelve_depth2},
    {"prio_surplus_share", t_surplus_share}, {"prio_spacing_property", t_spacing_property},
    {"prio_invalid", t_invalid},             {"prio_error_strings", t_error_strings},
    {"prio_copy_priority_table", t_copy_priority_table},
};
TCASE_MAIN(cases)
