// gc_cov.h: writes a Verilated model's coverage (line and toggle: `make coverage` builds every
// model with --coverage-line --coverage-toggle, which defines VM_COVERAGE=1) to
// $GPUCOSIM_COVERAGE_DIR/<tag>-<pid>-<n>.dat, one file per model, for verilator_coverage to merge
// (scripts/coverage.py).  Call it before the model is destroyed (its counters live in the model).
// Without VM_COVERAGE, or with the variable unset, it does nothing.
#pragma once
#include "verilated.h"

#if VM_COVERAGE
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <unistd.h>
#include "verilated_cov.h"

inline void gc_cov_write(VerilatedContext *ctx, const char *tag) {
    static std::atomic<unsigned> n{0};
    const char *dir = std::getenv("GPUCOSIM_COVERAGE_DIR");
    if (!dir || !*dir || !ctx) return;
    char path[4096];
    std::snprintf(path, sizeof path, "%s/%s-%ld-%u.dat", dir, tag, (long)getpid(), n++);
    ctx->coveragep()->write(path);
}
#else
inline void gc_cov_write(VerilatedContext *, const char *) {}
#endif
