/* array_int.h: the array layer's internals, shared by the .c files of hostdrv/array/ (not installed).
 *
 * Nodes live in a slot table (handles are slot + generation).  A flush takes the window (every
 * pending node, in creation order) and its externals (done arrays and scalars it reads), builds
 * the trace key from them, and either finds a plan in the trace cache or schedules one
 * (fuse.c: two ready lists, fusion rules, limits, scalar replacement), generates each kernel's C
 * source (codegen.c), gets its program (progcache.c: memory, disk, compiler) and runs the plan
 * (fuse.c).  Plans refer to window positions and external indices only, never to nodes, so one
 * plan serves every window with the same key. */
#ifndef GCA_ARRAY_INT_H
#define GCA_ARRAY_INT_H

#include <stdarg.h>
#include <stdio.h>

#include "gpucosim/array.h"
#include "gpucosim_spec.h"

enum { ST_FREE = 0, ST_PENDING, ST_DONE };
typedef enum { K_INPUT, K_SCALAR, K_GEN, K_MAP, K_REDUCE, K_VIEW, K_GATHER, K_MATMUL } gca_kind_t;

typedef struct gca_node {
    uint32_t gen;
    uint8_t state, kind, dt, ndim;
    int op, axis;
    uint32_t dims[2], n;
    uint32_t args[3], nargs; /* slot indices; a pending node holds an internal reference on each */
    uint32_t view[4];        /* slice: r0, nr, c0, nc */
    uint32_t pbits;          /* scalar value, fill value, random seed, pow exponent */
    bool folded;             /* pow with exponent 2 generated as x * x */
    gca_site_t site, rel_site;
    uint32_t urefs, irefs;
    bool has_buf;
    uint64_t buf;
    void *ref;               /* reference-result mode: the host's values (n x 4 bytes) */
    uint32_t wpos;           /* flush: position in the window */
    uint32_t seq;
} gca_node_t;

/* an argument of a window op: a window position or an external index */
typedef struct gca_ref {
    uint8_t ext;
    uint32_t idx;
} gca_ref_t;

/* what the scheduler and the code generator see of a window node / an external */
typedef struct gca_wn {
    uint8_t kind, dt, ndim;
    bool user;      /* the application holds a reference: stored */
    bool needed;
    int op, axis;
    uint32_t dims[2], n, view[4], pbits, nargs;
    bool folded;
    gca_ref_t args[3];
} gca_wn_t;
typedef struct gca_en {
    bool scalar;    /* a host scalar (kernel argument), else an array in device memory */
    uint8_t dt, ndim;
    uint32_t dims[2], n;
} gca_en_t;

enum { KF_FLAT = 0, KF_FLATRED, KF_AXIS, KF_GATHER, KF_MATMUL };

struct gca_prog;
typedef struct gca_pk {
    uint8_t form;
    int axis;
    uint32_t dom_n;            /* elements per op (flat); axis: the reduced input's elements */
    uint32_t rows, cols;       /* axis: the reduced input's dims */
    uint32_t nops, *ops;       /* window positions, topological (creation) order */
    uint32_t nin;
    gca_ref_t *in;             /* arrays loaded */
    uint32_t nout, *out;       /* window positions stored */
    uint32_t nsc;
    gca_ref_t *sc;             /* scalar arguments: external scalars, generators' values */
    uint32_t grid, block, smem;
    char name[32];             /* the kernel's symbol: gca_ + its ops (timelines show it) */
    char *src;
    struct gca_prog *prog;
} gca_pk_t;

typedef struct gca_plan {
    uint8_t *key;
    size_t klen;
    uint32_t nwin, next, nk;
    uint8_t *store;            /* per window position: gets device memory */
    gca_pk_t *k;
    struct gca_plan *next_plan; /* bucket list, most recently used first */
} gca_plan_t;

typedef struct gca_prog {
    uint64_t hash;
    char *keytext;
    gc_elf_t *img;
    struct gca_prog *next;
} gca_prog_t;

#define GCA_MAX_SCOPES 64
#define GCA_KINFO_RING 256
#define GCA_TRACE_BUCKETS 64
#define GCA_TRACE_PER_BUCKET 16

typedef struct gca_macro {
    uint8_t *key;
    size_t klen;
    bool invalid;
    uint32_t nin, nout, nrec;
    gca_node_t *rec;           /* recorded nodes (args: 0..nin-1 inputs, nin.. recorded ops) */
    uint32_t *outpos;          /* outputs: recorded positions (same coding) */
    uint32_t replays;
    struct gca_macro *next;
} gca_macro_t;

struct gca_ctx {
    gcrt_t *rt;
    gca_config_t cfg;
    char cache_dir[512], compiler[512], dump_dir[512];
    char root[512], gen[640], picolibc[512];
    gca_error_t err;
    char msg[640];
    gca_node_t *nodes;
    uint32_t nnodes, capnodes, *freeslots, nfree, capfree;
    uint32_t *pending, npending, cappending;
    uint32_t seq;
    uint32_t *scope[GCA_MAX_SCOPES], nscope[GCA_MAX_SCOPES], capscope[GCA_MAX_SCOPES], depth;
    gca_stats_t st;
    gca_kernel_info_t kinfo[GCA_KINFO_RING], kview[GCA_KINFO_RING];
    uint64_t nkinfo;
    gca_prog_t *progs;
    gca_plan_t *trace[GCA_TRACE_BUCKETS];
    char ccid[1100];            /* compiler identity (its --version line), "" until probed */
    uint64_t envhash;          /* hash of the firmware files every kernel is built from */
    uint32_t bus_bytes;
    uint32_t ctas;             /* CTAs of a full block the device runs at once: its SMs (COMPUTE.CONFIG) */
    /* macros */
    gca_macro_t *macros, *recording;
    uint32_t rec_first_seq;    /* nodes made from this seq on belong to the recording */
    gca_arr_t rec_ins[64];
    gca_arr_t *rec_outs;
    uint32_t rec_nin, rec_nout, macro_id;
    gca_site_t macro_site;
    bool in_macro;
};

/* array.c */
gca_error_t gca__fail(gca_ctx_t *ctx, gca_error_t e, gca_site_t s, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
gca_node_t *gca__node(gca_ctx_t *ctx, uint32_t slot);
uint32_t gca__id(gca_ctx_t *ctx, uint32_t slot);
void gca__irelease(gca_ctx_t *ctx, uint32_t slot);
void gca__free_storage(gca_ctx_t *ctx, uint32_t slot);
gca_error_t gca__compare_node(gca_ctx_t *ctx, uint32_t slot);
uint64_t gca__hash(const void *p, size_t n, uint64_t h);
/* the slot of a live handle, or UINT32_MAX with the error set */
uint32_t gca__lookup(gca_ctx_t *ctx, gca_site_t s, gca_arr_t a, const char *what);
/* a new node with one user reference (pending unless an input or a scalar), then published:
 * internal references on its args, the pending queue, reference values, the pending limit */
uint32_t gca__new_node(gca_ctx_t *ctx, gca_site_t s, gca_kind_t kind, int op, gca_dtype_t dt, uint32_t ndim,
                       const uint32_t *dims);
gca_arr_t gca__publish(gca_ctx_t *ctx, gca_site_t s, uint32_t slot);
#define GCA_HASH0 0xcbf29ce484222325ull

/* fuse.c */
gca_error_t gca__flush(gca_ctx_t *ctx, gca_site_t s);
void gca__trace_free(gca_ctx_t *ctx);

/* codegen.c: the C source of kernel k (malloc'd) */
char *gca__codegen(const gca_ctx_t *ctx, const gca_pk_t *k, const gca_wn_t *w, const gca_en_t *e);

/* macro.c */
void gca__macros_free(gca_ctx_t *ctx);

/* progcache.c */
gca_error_t gca__prog_get(gca_ctx_t *ctx, gca_site_t s, const char *src, gca_prog_t **out);
void gca__progs_free(gca_ctx_t *ctx);

#endif
