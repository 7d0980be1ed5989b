/* rt_test.h: what the runtime tests (test_launch.c, test_tmu.c) share. */
#ifndef GPUCOSIM_RT_TEST_H
#define GPUCOSIM_RT_TEST_H

#include "gpucosim/runtime.h"
#include "tcase.h"

/* A runtime call that must succeed: on failure, record it with the runtime's message and go to `out`. */
#define RT_OK(rt, expr)                                                                                 \
    do {                                                                                                \
        gcrt_error_t e_ = (expr);                                                                       \
        if (e_ != GCRT_SUCCESS) {                                                                       \
            TCASE_FAIL_("%s: %s (%s)", #expr, gcrt_error_name(e_), gcrt_last_message(rt));              \
            goto out;                                                                                   \
        }                                                                                               \
    } while (0)

#endif
