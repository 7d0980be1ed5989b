/* tcase.h: the small test-case harness every C test binary uses.
 *
 * A binary lists its cases in a table and ends with TCASE_MAIN(table).  Run it with no argument
 * for all cases, with case names for some, or with --list to print the names (the runner,
 * scripts/run_tests.py, runs each case in its own process with a timeout).  CHECK* record a
 * failure and go on; REQUIRE* record it and leave the case.  A case passes when nothing failed.
 */
#ifndef GPUCOSIM_TCASE_H
#define GPUCOSIM_TCASE_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct tcase {
    const char *name;
    void (*fn)(void);
} tcase_t;

static int tcase_failed;
static int tcase_skipped;

/* Leave the case as skipped (a check this backend cannot make); the runner counts it apart. */
#define TCASE_SKIP(...)                                                  \
    do {                                                                 \
        fprintf(stderr, "skipped: ");                                    \
        fprintf(stderr, __VA_ARGS__);                                    \
        fprintf(stderr, "\n");                                           \
        tcase_skipped = 1;                                               \
        return;                                                          \
    } while (0)

#define TCASE_FAIL_(...)                                                 \
    do {                                                                 \
        fprintf(stderr, "%s:%d: FAILED: ", __FILE__, __LINE__);          \
        fprintf(stderr, __VA_ARGS__);                                    \
        fprintf(stderr, "\n");                                           \
        tcase_failed++;                                                  \
    } while (0)

#define CHECK(c) \
    do { if (!(c)) TCASE_FAIL_("%s", #c); } while (0)
#define REQUIRE(c) \
    do { if (!(c)) { TCASE_FAIL_("%s", #c); return; } } while (0)
#define CHECK_EQ(a, b)                                                                           \
    do {                                                                                         \
        uint64_t a_ = (uint64_t)(a), b_ = (uint64_t)(b);                                         \
        if (a_ != b_) TCASE_FAIL_("%s == %s: 0x%" PRIx64 " != 0x%" PRIx64, #a, #b, a_, b_);      \
    } while (0)
#define REQUIRE_EQ(a, b)                                                                         \
    do {                                                                                         \
        uint64_t a_ = (uint64_t)(a), b_ = (uint64_t)(b);                                         \
        if (a_ != b_) { TCASE_FAIL_("%s == %s: 0x%" PRIx64 " != 0x%" PRIx64, #a, #b, a_, b_); return; } \
    } while (0)
/* A gc_status_t that must be GC_OK; prints the driver's last error otherwise. */
#define REQUIRE_OK(dev, expr)                                                                    \
    do {                                                                                         \
        gc_status_t st_ = (expr);                                                                \
        if (st_ != GC_OK) {                                                                      \
            TCASE_FAIL_("%s: %s (%s)", #expr, gc_status_str(st_), gc_device_last_error(dev));    \
            return;                                                                              \
        }                                                                                        \
    } while (0)

static inline int tcase_main(int argc, char **argv, const tcase_t *cases, size_t n) {
    if (argc > 1 && !strcmp(argv[1], "--list")) {
        for (size_t i = 0; i < n; i++) printf("%s\n", cases[i].name);
        return 0;
    }
    if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        printf("usage: %s [--list | CASE...]\n", argv[0]);
        return 0;
    }
    int passed = 0, failed = 0, skipped = 0;
    for (int a = argc > 1 ? 1 : 0; a < argc; a++) {
        int matched = 0;
        for (size_t i = 0; i < n; i++) {
            if (argc > 1 && strcmp(argv[a], cases[i].name)) continue;
            matched = 1;
            tcase_failed = 0;
            tcase_skipped = 0;
            cases[i].fn();
            printf("%s: %s\n", tcase_failed ? "FAIL" : tcase_skipped ? "SKIP" : "PASS", cases[i].name);
            fflush(stdout);
            if (tcase_failed) failed++; else if (tcase_skipped) skipped++; else passed++;
        }
        if (argc > 1 && !matched) {
            fprintf(stderr, "no test case named '%s' (--list shows them)\n", argv[a]);
            failed++;
        }
        if (argc == 1) break;
    }
    if (skipped) printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
    else printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}

#define TCASE_MAIN(table) \
    int main(int argc, char **argv) { return tcase_main(argc, argv, table, sizeof table / sizeof table[0]); }

#endif
