/* gc_kernels.h: the parameter blocks of the kernels in firmware/kernels/, shared by the device
 * code and the host (tests, runtime), plus the per-element functions both compute (the host uses
 * them as the reference).  Pointers are 32-bit SIMT thread addresses (gc_simt_ptr on the host).
 * Every kernel covers n elements with a grid-stride loop over x, so any grid / CTA shape works. */
#ifndef GC_KERNELS_H
#define GC_KERNELS_H

#include <stdint.h>

/* vecadd: c[i] = a[i] + b[i] */
typedef struct gc_vecadd_params {
    uint32_t a, b, c, n;
} gc_vecadd_params_t;

/* saxpy (integer): y[i] = alpha * x[i] + y[i] */
typedef struct gc_saxpy_params {
    uint32_t x, y, n;
    int32_t alpha;
} gc_saxpy_params_t;

/* reduce: out[linear CTA id] = sum of in[i] over the i the CTA's threads visit (grid-stride),
 * combined in shared memory (4 bytes per thread, SMEM_BYTES >= 4 * CTA threads) with barriers;
 * also atomically added to *total. */
typedef struct gc_reduce_params {
    uint32_t in, out, total, n;
} gc_reduce_params_t;

/* histogram: bins[in[i] % nbins] += 1 with global atomics (mode 0), or per CTA in shared memory
 * (4 * nbins bytes) merged into bins at the end (mode 1); in both modes *maxv = max in[i]
 * (AMOMAXU) and *count = n (each thread adds its count with an LR/SC compare-and-swap loop). */
typedef struct gc_histogram_params {
    uint32_t in, bins, maxv, count, n, nbins, mode;
} gc_histogram_params_t;

/* divergent: out[i] = gc_divergent_elem(in[i]): data-dependent loops and nested ifs, so that
 * neighbouring lanes take different paths */
typedef struct gc_divergent_params {
    uint32_t in, out, n;
} gc_divergent_params_t;

static inline uint32_t gc_divergent_elem(uint32_t v) {
    uint32_t r = 0;
    if (v & 1u) {
        for (uint32_t k = 0; k < v % 7u; k++) {
            r += k * v;
            if (r & 4u) r ^= 0x55u;
        }
        if (v & 2u) {
            r ^= 0xA5A5u;
        } else if (v % 5u == 0) {
            r -= 3u;
        } else {
            r = (r << 3) | (v >> 29);
        }
    } else if (v % 3u == 0) {
        uint32_t x = v;
        while (x > 1u && r < 60u) { /* Collatz steps, capped */
            x = (x & 1u) ? 3u * x + 1u : x / 2u;
            r++;
        }
    } else {
        switch (v % 4u) {
        case 0: r = v / 9u + v % 11u; break;
        case 2: {
            int32_t s = (int32_t)v;
            r = (uint32_t)(s / -7 + s % 13);
            break;
        }
        default: r = ~v; break;
        }
        uint32_t d = v;
        while (d >= 10u) d /= 10u; /* leading decimal digit */
        r += d;
    }
    return r;
}

/* ------------------------------------------------------------------ single precision (issue 15)
 * firmware/kernels/float.c.  Floats travel as their bit patterns (uint32_t). */
/* fsaxpy: y[i] = alpha * x[i] + y[i] (two roundings, round to nearest even) */
typedef struct gc_fsaxpy_params {
    uint32_t x, y, n, alpha;
} gc_fsaxpy_params_t;

/* fdot: out[CTA x index] = the CTA's partial dot product (grid x only, SMEM_BYTES >= 4 * CTA
 * threads): thread t sums x[i] * y[i] over its grid-stride indices in increasing order, then
 * sh[t] += sh[t + h] for h = the largest power of two below the CTA size, halving down to 1 */
typedef struct gc_fdot_params {
    uint32_t x, y, out, n;
} gc_fdot_params_t;

/* fmath: for i < n, a = in[2i], b = in[2i + 1]: out[5i..5i+4] = expf(a), logf(b), sqrtf(b),
 * sinf(a), powf(b, a) (picolibc's libm) */
#define GC_FMATH_FUNCS 5
typedef struct gc_fmath_params {
    uint32_t in, out, n;
} gc_fmath_params_t;

/* fp_prog: runs generated code, a function code(in, out) (tests/cosim/test_diff.c), per thread
 * of the grid (x only) with its own GC_FPPROG_IN input and GC_FPPROG_OUT output words */
#define GC_FPPROG_IN 48
#define GC_FPPROG_OUT 64
typedef struct gc_fp_prog_params {
    uint32_t code, in, out;
} gc_fp_prog_params_t;

/* ------------------------------------------------------------------ task management unit (issue 6)
 * Kernels that launch children (firmware/kernels/tmu.c).  A "launch record" is GC_LREC_BYTES of
 * global memory, 256-aligned: the child's TMD at +0 and its parameter block at +GC_LREC_PARAM. */
#define GC_LREC_BYTES 256u
#define GC_LREC_PARAM 128u
#define GC_LAUNCH_STATUS_NONE 0xFFFFFFFFu /* a status word no LAUNCH wrote */
#define GC_MARK(level) (0x4D000000u | (level)) /* "M" + level: the marker a task writes */

/* nest_chain: one thread.  Nesting level L (1 = the host launch) writes markers[L] = GC_MARK(L),
 * then builds a nest_chain child (level L + 1) in launch record L + 1 of `recs` and LAUNCHes it,
 * writing the status to status[L]; it stops at level `cap` (no launch, status stays NONE). So
 * with max nesting depth N the chain reaches level N and level N's launch fails DEPTH.  markers
 * and status hold cap + 1 words (index 0 unused), recs cap + 1 records. */
typedef struct gc_nest_params {
    uint32_t recs, markers, status;
    uint32_t level, cap;
} gc_nest_params_t;

/* lp_grid: a long low-priority grid.  CTA c (linear id): thread 0 adds 1 to counters[c] (so each
 * counter ends at exactly 1 when every CTA ran exactly once), then every thread spins `spin`
 * iterations of dependent ALU work and adds its result to sink[c] (keeps the work alive). */
typedef struct gc_lp_grid_params {
    uint32_t counters, sink, spin;
} gc_lp_grid_params_t;

/* hp_short: a short high-priority kernel.  Thread 0 of CTA c writes out[c] = value + c. */
typedef struct gc_hp_short_params {
    uint32_t out, value;
} gc_hp_short_params_t;

/* The nested-priority document's ChildlessA / ParentA / ChildA (one thread each).  childless_a and child_a write
 * out[slot] = GC_MARK(slot); parent_a writes out[slot] = GC_MARK(slot), then launches child_a
 * (parameters { out, child_slot }) from launch record `rec` and writes the status to *status. */
typedef struct gc_seed001_params {
    uint32_t out, slot;
    uint32_t rec, child_slot, status;
} gc_seed001_params_t;

#endif
