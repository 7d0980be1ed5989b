/* array.h: lazy f32 / i32 arrays fused into SIMT kernels at run time (issue 17, seed 004).
 *
 * A layer over the runtime's public API (gpucosim/runtime.h): nothing here touches the device
 * except through gcrt_* calls.  docs/array.md has the whole story with examples; in short:
 *
 *   gca_ctx_t *ctx;  gca_open(rt, NULL, &ctx);                 a context on an open runtime
 *   gca_arr_t a = gca_from_host(ctx, GCA_F32, 1, dims, host);  every call records its call site
 *   gca_arr_t c = gca_add(ctx, a, b);                          nothing runs: a DAG node
 *   gca_read(ctx, c, out, bytes);                              the read forces evaluation
 *   gca_release(ctx, c);  gca_close(ctx);
 *
 * Every function that takes a call site has a macro of the same name without `_at` that passes
 * __FILE__ / __LINE__ (GCA_HERE), so errors and reference-result mismatches name file:line.
 *
 * Laziness: calls build a DAG of map / reduce / generator / view / intrinsic nodes.  Work runs
 * only when (1) gca_read / gca_eval / gca_flush is called, (2) the number of pending ops reaches
 * config.max_pending, or (3) a macro begins (gca_macro_begin flushes first).  Releasing the
 * last reference of a pending value runs nothing: a value no pending op consumes is dropped, one
 * still consumed becomes a temporary that the fusion may keep in registers (scalar replacement).
 *
 * Handles are 32-bit ids (slot + generation) checked on every use: a released handle is refused
 * (GCA_ERROR_INVALID_HANDLE, naming where it was created and released), never dereferenced.
 * A function returning an array returns {0} on error; gca_last_error / gca_last_message say
 * why, and a {0} argument is refused with a message naming the call site that received it.
 */
#ifndef GPUCOSIM_ARRAY_H
#define GPUCOSIM_ARRAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gpucosim/runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gca_ctx gca_ctx_t;
typedef struct gca_arr {
    uint32_t id; /* 0 = no array */
} gca_arr_t;
typedef struct gca_site {
    const char *file;
    int line;
} gca_site_t;
#define GCA_HERE ((gca_site_t){__FILE__, __LINE__})

typedef enum gca_dtype { GCA_F32 = 0, GCA_I32 = 1 } gca_dtype_t;

typedef enum gca_error {
    GCA_SUCCESS = 0,
    GCA_ERROR_INVALID_VALUE,  /* NULL / out-of-range argument, wrong axis, bad dims */
    GCA_ERROR_INVALID_HANDLE, /* {0}, released or foreign array handle */
    GCA_ERROR_SHAPE,          /* shapes do not match (and neither is a scalar) */
    GCA_ERROR_TYPE,           /* f32 op on i32 data or the reverse, mixed dtypes */
    GCA_ERROR_COMPILE,        /* the kernel compiler is missing or failed */
    GCA_ERROR_RUNTIME,        /* a gcrt_* call failed (message has its error) */
    GCA_ERROR_INDEX,          /* a gather index out of range */
    GCA_ERROR_MACRO,          /* illegal use of a macro region */
    GCA_ERROR_MISMATCH,       /* reference-result mode: a device result differs */
} gca_error_t;

const char *gca_error_name(gca_error_t e);

typedef enum gca_mismatch_action {
    GCA_MISMATCH_LOG = 0,   /* print the mismatch on stderr, count it, go on (default) */
    GCA_MISMATCH_ABORT = 1, /* print it and abort() */
    GCA_MISMATCH_CALLBACK = 2, /* call config.on_mismatch_fn; the flush returns GCA_ERROR_MISMATCH */
} gca_mismatch_action_t;

/* One reference-result mismatch (the first differing element of one op's result). */
typedef struct gca_mismatch {
    gca_site_t site;      /* where the op was called */
    const char *op;       /* "add", "sum", ... */
    size_t index;         /* first differing element */
    gca_dtype_t dtype;
    uint32_t device_bits, reference_bits; /* the two values' bits (f32 or i32) */
    char message[320];    /* "t.c:42: mul: element 3: device 1.5 (0x3fc00000), reference 2 (0x40000000), scale 0" */
} gca_mismatch_t;
typedef void (*gca_mismatch_fn)(const gca_mismatch_t *m, void *user);

typedef struct gca_config {
    gcrt_stream_t *stream;  /* stream of every kernel (NULL: the default stream) */
    bool fusion;            /* default true; false: one kernel per op (the unfused baseline) */
    bool trace_cache;       /* default true */
    uint32_t max_kernel_ops;    /* ops per fused kernel (default 32, 1..256) */
    uint32_t max_kernel_inputs; /* arrays a fused kernel loads (default 12, 1..64) */
    uint32_t max_kernel_outputs; /* arrays a fused kernel stores (default 12, 1..64) */
    uint32_t max_pending;   /* pending ops that force a flush (default 1024, 1..65536) */
    const char *cache_dir;  /* program cache on disk: NULL = $GPUCOSIM_CACHE_DIR, else
                             * $XDG_CACHE_HOME/gpucosim, else $HOME/.cache/gpucosim; "" = none */
    const char *compiler;   /* NULL = $GPUCOSIM_RV_CC, else riscv64-unknown-elf-gcc */
    const char *dump_dir;   /* NULL = $GPUCOSIM_DUMP_KERNELS; each kernel's C source is written there */
    bool reference;         /* reference-result mode (also gca_set_reference) */
    float ref_scale;        /* comparator scale (0 = exact) */
    gca_mismatch_action_t on_mismatch;
    gca_mismatch_fn on_mismatch_fn;
    void *on_mismatch_user;
    int debug_wrong_op;     /* test hook: -1 (default) off; else the GCA_OP_* whose device code is
                             * generated as a different op (a deliberately wrong primitive) */
} gca_config_t;

void gca_config_init(gca_config_t *cfg);
/* A context on an open runtime `rt` (which must outlive it).  cfg NULL: the defaults. */
gca_error_t gca_open(gcrt_t *rt, const gca_config_t *cfg, gca_ctx_t **out);
/* Releases every array, unloads the kernels. */
void gca_close(gca_ctx_t *ctx);
gca_error_t gca_last_error(const gca_ctx_t *ctx);
const char *gca_last_message(const gca_ctx_t *ctx);
/* Switch reference-result mode at run time (nodes made before have no reference values: their
 * device values become their references when a later op reads them). */
gca_error_t gca_set_reference(gca_ctx_t *ctx, bool on, float scale);
gca_error_t gca_set_fusion(gca_ctx_t *ctx, bool on);
/* Another kernel compiler (NULL: $GPUCOSIM_RV_CC or riscv64-unknown-elf-gcc); probed again at the
 * next compile.  Programs already loaded stay. */
gca_error_t gca_set_compiler(gca_ctx_t *ctx, const char *path);
/* The comparator: NaN matches only NaN, an infinity only the same infinity, otherwise
 * |dev - ref| <= |ref * scale| (scale 0: exact).  Exported for tests and tools. */
bool gca_compare_f32(float dev, float ref, float scale);

/* ------------------------------------------------------------------ ops (GCA_OP_*) */
typedef enum gca_op {
    /* binary maps */
    GCA_OP_ADD, GCA_OP_SUB, GCA_OP_MUL, GCA_OP_DIV, GCA_OP_MIN, GCA_OP_MAX, GCA_OP_POW,
    GCA_OP_LT, GCA_OP_LE, GCA_OP_GT, GCA_OP_GE, GCA_OP_EQ, GCA_OP_NE,
    /* unary maps */
    GCA_OP_NEG, GCA_OP_ABS, GCA_OP_SQRT, GCA_OP_RSQRT, GCA_OP_EXP, GCA_OP_LOG, GCA_OP_SIN, GCA_OP_COS,
    GCA_OP_TANH, GCA_OP_FLOOR, GCA_OP_CEIL, GCA_OP_ISNAN,
    GCA_OP_SELECT, /* ternary */
    /* reductions */
    GCA_OP_SUM, GCA_OP_RMIN, GCA_OP_RMAX, GCA_OP_MEAN, GCA_OP_ANY, GCA_OP_ALL,
    /* generators, views, intrinsics */
    GCA_OP_INPUT, GCA_OP_SCALAR, GCA_OP_FILL, GCA_OP_INDEX, GCA_OP_RANDOM, GCA_OP_TRANSPOSE, GCA_OP_SLICE,
    GCA_OP_GATHER, GCA_OP_MATMUL,
    GCA_OP_COUNT
} gca_op_t;
const char *gca_op_name(gca_op_t op);

/* ------------------------------------------------------------------ creation and release */
/* ndim 1 or 2, dims[0] (rows) x dims[1] (cols), each >= 1, at most 2^24 elements. */
gca_arr_t gca_from_host_at(gca_ctx_t *ctx, gca_site_t s, gca_dtype_t dt, uint32_t ndim, const uint32_t *dims,
                           const void *host);
gca_arr_t gca_scalar_f32_at(gca_ctx_t *ctx, gca_site_t s, float v); /* 0-d, broadcast in maps */
gca_arr_t gca_scalar_i32_at(gca_ctx_t *ctx, gca_site_t s, int32_t v);
gca_arr_t gca_fill_at(gca_ctx_t *ctx, gca_site_t s, gca_dtype_t dt, uint32_t ndim, const uint32_t *dims, float v);
/* element index along `axis` (1-D: 0; 2-D: 0 = row number, 1 = column number), as dt */
gca_arr_t gca_index_at(gca_ctx_t *ctx, gca_site_t s, gca_dtype_t dt, uint32_t ndim, const uint32_t *dims, int axis);
/* uniform f32 in [0, 1) from a counter hash of (seed, element) */
gca_arr_t gca_random_at(gca_ctx_t *ctx, gca_site_t s, uint32_t ndim, const uint32_t *dims, uint32_t seed);
gca_error_t gca_retain_at(gca_ctx_t *ctx, gca_site_t s, gca_arr_t a);
gca_error_t gca_release_at(gca_ctx_t *ctx, gca_site_t s, gca_arr_t a);
/* Evaluate everything pending, then copy `a` (n elements of 4 bytes) to host memory. */
gca_error_t gca_read_at(gca_ctx_t *ctx, gca_site_t s, gca_arr_t a, void *host, size_t bytes);
gca_error_t gca_flush_at(gca_ctx_t *ctx, gca_site_t s);
gca_error_t gca_shape(gca_ctx_t *ctx, gca_arr_t a, gca_dtype_t *dt, uint32_t *ndim, uint32_t dims[2]);
/* true once `a` has device memory (it was stored by a kernel or created from host data) */
bool gca_has_storage(gca_ctx_t *ctx, gca_arr_t a);

/* Scopes: every array created inside is released at the matching end, except those passed to
 * gca_keep (they move to the enclosing scope).  Depth <= 64. */
gca_error_t gca_scope_begin_at(gca_ctx_t *ctx, gca_site_t s);
gca_error_t gca_scope_end_at(gca_ctx_t *ctx, gca_site_t s);
gca_error_t gca_keep_at(gca_ctx_t *ctx, gca_site_t s, gca_arr_t a);

/* ------------------------------------------------------------------ maps, reductions, views */
gca_arr_t gca_map2_at(gca_ctx_t *ctx, gca_site_t s, gca_op_t op, gca_arr_t a, gca_arr_t b);
gca_arr_t gca_map1_at(gca_ctx_t *ctx, gca_site_t s, gca_op_t op, gca_arr_t a);
gca_arr_t gca_select_at(gca_ctx_t *ctx, gca_site_t s, gca_arr_t cond, gca_arr_t a, gca_arr_t b);
/* x ** e with a literal exponent: e == 2 is folded into x * x (the generated code changes, so the
 * trace key holds it); any other e is a kernel argument. */
gca_arr_t gca_powc_at(gca_ctx_t *ctx, gca_site_t s, gca_arr_t a, float e);
/* axis -1: all elements (a 0-d result); 0 or 1: that dimension of a 2-D array (1-D result) */
gca_arr_t gca_reduce_at(gca_ctx_t *ctx, gca_site_t s, gca_op_t op, gca_arr_t a, int axis);
gca_arr_t gca_dot_at(gca_ctx_t *ctx, gca_site_t s, gca_arr_t a, gca_arr_t b); /* sum(a * b) */
gca_arr_t gca_transpose_at(gca_ctx_t *ctx, gca_site_t s, gca_arr_t a);
/* rows [r0, r0 + nr) x cols [c0, c0 + nc) of a 2-D array; 1-D: elements [r0, r0 + nr) (c0 0, nc 1) */
gca_arr_t gca_slice_at(gca_ctx_t *ctx, gca_site_t s, gca_arr_t a, uint32_t r0, uint32_t nr, uint32_t c0, uint32_t nc);
/* out[i] = x[idx[i]] (x 1-D, idx i32 of any shape); an index outside x fails the flush (GCA_ERROR_INDEX) */
gca_arr_t gca_gather_at(gca_ctx_t *ctx, gca_site_t s, gca_arr_t x, gca_arr_t idx);
gca_arr_t gca_matmul_at(gca_ctx_t *ctx, gca_site_t s, gca_arr_t a, gca_arr_t b); /* f32 [m,k] x [k,n] */

/* ------------------------------------------------------------------ macro record / replay */
/* GCA_MACRO(ctx, id, ins, nin, controls, ncontrols, outs, nout) { body }: the first time (for a
 * key of id + the inputs' dtype / shape + the controls' bytes) the body runs and its ops are
 * recorded; later the body is skipped and the recorded ops run on the new inputs, giving new
 * handles in outs[0..nout).  Scalars made inside are replayed with their recorded values (pass
 * varying values as controls or inputs); RNG seeds advance by one per replay.  Releasing an input
 * inside the body invalidates the recording (a warning; the body then runs as plain code, now and
 * later).  Errors (GCA_ERROR_MACRO): a read or flush inside, a nested begin, a mismatched end,
 * an array used inside that is neither an input nor made inside. */
bool gca_macro_begin_at(gca_ctx_t *ctx, gca_site_t s, uint32_t id, const gca_arr_t *ins, uint32_t nin,
                        const void *controls, size_t ncontrols, gca_arr_t *outs, uint32_t nout);
gca_error_t gca_macro_end_at(gca_ctx_t *ctx, gca_site_t s, uint32_t id);
#define GCA_MACRO(ctx, id, ins, nin, ctl, nctl, outs, nout)                                                  \
    for (bool gca_m_ = gca_macro_begin(ctx, id, ins, nin, ctl, nctl, outs, nout); gca_m_;                     \
         gca_m_ = false, gca_macro_end(ctx, id))

/* ------------------------------------------------------------------ what happened */
typedef struct gca_stats {
    uint64_t flushes, scheduler_runs, kernels_launched, compiles, prog_mem_hits, prog_disk_hits,
        prog_rebuilt, trace_hits, trace_misses, macro_records, macro_replays, allocations, bytes_allocated,
        mismatches;
    uint64_t last_flush_cycles;   /* device cycles of the last flush: first kernel START to last COMPLETE */
    uint64_t last_flush_bytes;    /* COMPUTE.LSU_BEATS x bus bytes per beat over the last flush */
    double compile_ms;            /* wall time spent in the compiler */
    double prog_ms;               /* wall time getting programs (memory, disk or compiler) */
    double last_plan_us;          /* host time of the last flush until its kernels were known: the
                                   * window and its key, then the trace cache's plan or the
                                   * scheduler, code generation and programs */
} gca_stats_t;
void gca_stats(const gca_ctx_t *ctx, gca_stats_t *st);

#define GCA_KINFO_MAX 16
/* One kernel launched (the last 256 are kept). */
typedef struct gca_kernel_info {
    char name[32];                  /* its symbol (and its tag on timelines): gca_ + its ops */
    uint32_t flush;                 /* which flush (stats.flushes at the time) */
    uint32_t nops;
    char ops[256];                  /* "add@t.c:10 mul@t.c:11" */
    uint32_t nin, nout;
    uint32_t in[GCA_KINFO_MAX];     /* array ids loaded (the first 16) */
    uint32_t out[GCA_KINFO_MAX];    /* array ids stored */
    uint32_t grid, block;
    uint64_t start_cycle, end_cycle; /* the TMU log's START / COMPLETE of its task */
    uint64_t key;                   /* program cache key (hash) */
    const char *source;             /* its C source (valid until gca_close) */
} gca_kernel_info_t;
/* The kernels launched so far (at most the last 256), oldest first; valid until the next call. */
void gca_kernels(const gca_ctx_t *ctx, const gca_kernel_info_t **k, size_t *count);

/* call-site macros */
#define gca_from_host(c, dt, nd, dims, h) gca_from_host_at(c, GCA_HERE, dt, nd, dims, h)
#define gca_scalar_f32(c, v) gca_scalar_f32_at(c, GCA_HERE, v)
#define gca_scalar_i32(c, v) gca_scalar_i32_at(c, GCA_HERE, v)
#define gca_fill(c, dt, nd, dims, v) gca_fill_at(c, GCA_HERE, dt, nd, dims, v)
#define gca_index(c, dt, nd, dims, axis) gca_index_at(c, GCA_HERE, dt, nd, dims, axis)
#define gca_random(c, nd, dims, seed) gca_random_at(c, GCA_HERE, nd, dims, seed)
#define gca_retain(c, a) gca_retain_at(c, GCA_HERE, a)
#define gca_release(c, a) gca_release_at(c, GCA_HERE, a)
#define gca_read(c, a, h, n) gca_read_at(c, GCA_HERE, a, h, n)
#define gca_flush(c) gca_flush_at(c, GCA_HERE)
#define gca_scope_begin(c) gca_scope_begin_at(c, GCA_HERE)
#define gca_scope_end(c) gca_scope_end_at(c, GCA_HERE)
#define gca_keep(c, a) gca_keep_at(c, GCA_HERE, a)
#define gca_map2(c, op, a, b) gca_map2_at(c, GCA_HERE, op, a, b)
#define gca_map1(c, op, a) gca_map1_at(c, GCA_HERE, op, a)
#define gca_add(c, a, b) gca_map2_at(c, GCA_HERE, GCA_OP_ADD, a, b)
#define gca_sub(c, a, b) gca_map2_at(c, GCA_HERE, GCA_OP_SUB, a, b)
#define gca_mul(c, a, b) gca_map2_at(c, GCA_HERE, GCA_OP_MUL, a, b)
#define gca_div(c, a, b) gca_map2_at(c, GCA_HERE, GCA_OP_DIV, a, b)
#define gca_min(c, a, b) gca_map2_at(c, GCA_HERE, GCA_OP_MIN, a, b)
#define gca_max(c, a, b) gca_map2_at(c, GCA_HERE, GCA_OP_MAX, a, b)
#define gca_neg(c, a) gca_map1_at(c, GCA_HERE, GCA_OP_NEG, a)
#define gca_abs(c, a) gca_map1_at(c, GCA_HERE, GCA_OP_ABS, a)
#define gca_sqrt(c, a) gca_map1_at(c, GCA_HERE, GCA_OP_SQRT, a)
#define gca_exp(c, a) gca_map1_at(c, GCA_HERE, GCA_OP_EXP, a)
#define gca_pow(c, a, b) gca_map2_at(c, GCA_HERE, GCA_OP_POW, a, b)
#define gca_powc(c, a, e) gca_powc_at(c, GCA_HERE, a, e)
#define gca_select(c, k, a, b) gca_select_at(c, GCA_HERE, k, a, b)
#define gca_reduce(c, op, a, axis) gca_reduce_at(c, GCA_HERE, op, a, axis)
#define gca_sum(c, a) gca_reduce_at(c, GCA_HERE, GCA_OP_SUM, a, -1)
#define gca_dot(c, a, b) gca_dot_at(c, GCA_HERE, a, b)
#define gca_transpose(c, a) gca_transpose_at(c, GCA_HERE, a)
#define gca_slice(c, a, r0, nr, c0, nc) gca_slice_at(c, GCA_HERE, a, r0, nr, c0, nc)
#define gca_gather(c, x, i) gca_gather_at(c, GCA_HERE, x, i)
#define gca_matmul(c, a, b) gca_matmul_at(c, GCA_HERE, a, b)
#define gca_macro_begin(c, id, ins, nin, ctl, nctl, outs, nout) \
    gca_macro_begin_at(c, GCA_HERE, id, ins, nin, ctl, nctl, outs, nout)
#define gca_macro_end(c, id) gca_macro_end_at(c, GCA_HERE, id)

#ifdef __cplusplus
}
#endif
#endif
