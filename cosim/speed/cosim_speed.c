/* cosim_speed: cycles per second of the harness (cosim/cosim.cpp's tick: the AXI memory model, the
 * pins, two evals per cycle) on whatever model it is linked with.  `make bench` links it with
 * cosim/speed/counter_top.sv (build/bin/cosim-speed-counter), a trivial counter with gpu_top's ports,
 * for sim_speed_vs_counter.  Usage: cosim_speed [CYCLES] (default 2000000) -> one line
 * "cosim_speed: N cycles in S s = R cycles/s". */
#define _POSIX_C_SOURCE 199309L
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "cosim.h"

int main(int argc, char **argv) {
    uint64_t n = 2000000;
    if (argc > 2 || (argc == 2 && (argv[1][0] < '0' || argv[1][0] > '9'))) {
        fprintf(stderr, "usage: %s [CYCLES]\n", argv[0]);
        return 2;
    }
    if (argc == 2) {
        char *end;
        errno = 0;
        unsigned long long v = strtoull(argv[1], &end, 10);
        if (errno || *end || v == 0) {
            fprintf(stderr, "cosim_speed: CYCLES '%s' is not a number in 1..2^64-1\n", argv[1]);
            return 2;
        }
        n = v;
    }
    cosim_config_t cfg;
    cosim_config_default(&cfg);
    cfg.quiet = 1;
    cfg.waves = NULL;
    char err[256];
    cosim_t *s = cosim_open(&cfg, err, sizeof err);
    if (!s) {
        fprintf(stderr, "cosim_speed: %s\n", err);
        return 1;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int rc = cosim_step(s, n);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    cosim_close(s);
    if (rc != COSIM_OK) {
        fprintf(stderr, "cosim_speed: cosim_step failed (%d)\n", rc);
        return 1;
    }
    double secs = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    printf("cosim_speed: %" PRIu64 " cycles in %.3f s = %.0f cycles/s\n", n, secs, secs > 0 ? (double)n / secs : 0.0);
    return 0;
}
