/* array.c: the array layer's API: contexts, handles, creation, maps, reductions, views,
 * intrinsics, scopes, reads, reference results and the comparator (docs/array.md). */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array_int.h"
#include "gca_ops.h"

#define SLOT_BITS 20u
#define SLOT_MASK ((1u << SLOT_BITS) - 1u)
#define MAX_ELEMS (1u << 24)

static const char *const op_names[GCA_OP_COUNT] = {
    "add", "sub", "mul", "div", "min", "max", "pow", "lt", "le", "gt", "ge", "eq", "ne",
    "neg", "abs", "sqrt", "rsqrt", "exp", "log", "sin", "cos", "tanh", "floor", "ceil", "isnan", "select",
    "sum", "min_all", "max_all", "mean", "any", "all",
    "input", "scalar", "fill", "index", "random", "transpose", "slice", "gather", "matmul"};

const char *gca_op_name(gca_op_t op) { return (unsigned)op < GCA_OP_COUNT ? op_names[op] : "?"; }

const char *gca_error_name(gca_error_t e) {
    static const char *const n[] = {"GCA_SUCCESS", "GCA_ERROR_INVALID_VALUE", "GCA_ERROR_INVALID_HANDLE",
                                    "GCA_ERROR_SHAPE", "GCA_ERROR_TYPE", "GCA_ERROR_COMPILE", "GCA_ERROR_RUNTIME",
                                    "GCA_ERROR_INDEX", "GCA_ERROR_MACRO", "GCA_ERROR_MISMATCH"};
    return (unsigned)e < sizeof n / sizeof n[0] ? n[e] : "GCA_ERROR_?";
}

uint64_t gca__hash(const void *p, size_t n, uint64_t h) {
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

static const char *base(const char *f) {
    if (!f) return "?";
    const char *s = strrchr(f, '/');
    return s ? s + 1 : f;
}

gca_error_t gca__fail(gca_ctx_t *ctx, gca_error_t e, gca_site_t s, const char *fmt, ...) {
    char body[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(body, sizeof body, fmt, ap);
    va_end(ap);
    snprintf(ctx->msg, sizeof ctx->msg, "%s:%d: %s", base(s.file), s.line, body);
    ctx->err = e;
    return e;
}

gca_error_t gca_last_error(const gca_ctx_t *ctx) { return ctx ? ctx->err : GCA_ERROR_INVALID_VALUE; }
const char *gca_last_message(const gca_ctx_t *ctx) { return ctx ? ctx->msg : "no context"; }

void gca_config_init(gca_config_t *cfg) {
    memset(cfg, 0, sizeof *cfg);
    cfg->fusion = true;
    cfg->trace_cache = true;
    cfg->max_kernel_ops = 32;
    cfg->max_kernel_inputs = 12;
    cfg->max_kernel_outputs = 12;
    cfg->max_pending = 1024;
    cfg->debug_wrong_op = -1;
}

static void set_path(char *dst, size_t len, const char *cfgval, const char *env, const char *dflt) {
    const char *v = cfgval ? cfgval : (env && getenv(env)) ? getenv(env) : dflt;
    snprintf(dst, len, "%s", v ? v : "");
}

#ifndef GCA_ROOT_DEFAULT
#define GCA_ROOT_DEFAULT "."
#endif
#ifndef GCA_GEN_DEFAULT
#define GCA_GEN_DEFAULT GCA_ROOT_DEFAULT "/build/gen"
#endif
#ifndef GCA_PICOLIBC_DEFAULT
#define GCA_PICOLIBC_DEFAULT "/usr/lib/picolibc/riscv64-unknown-elf"
#endif

gca_error_t gca_open(gcrt_t *rt, const gca_config_t *cfg, gca_ctx_t **out) {
    if (!out) return GCA_ERROR_INVALID_VALUE;
    *out = NULL;
    gca_config_t c;
    if (cfg) c = *cfg;
    else gca_config_init(&c);
    const char *bad = NULL;
    char why[160];
    const struct { const char *name; uint32_t v, lo, hi; } lim[] = {
        {"max_kernel_ops", c.max_kernel_ops, 1, 256}, {"max_kernel_inputs", c.max_kernel_inputs, 1, 64},
        {"max_kernel_outputs", c.max_kernel_outputs, 1, 64}, {"max_pending", c.max_pending, 1, 65536}};
    for (size_t i = 0; i < sizeof lim / sizeof lim[0] && !bad; i++)
        if (lim[i].v < lim[i].lo || lim[i].v > lim[i].hi) {
            snprintf(why, sizeof why, "%s %u: %u..%u", lim[i].name, lim[i].v, lim[i].lo, lim[i].hi);
            bad = why;
        }
    if (!bad && !rt) bad = "no runtime (rt is NULL)";
    if (!bad && !(c.ref_scale >= 0)) bad = "ref_scale must be >= 0 (0: exact)";
    if (!bad && (unsigned)c.on_mismatch > GCA_MISMATCH_CALLBACK) bad = "on_mismatch is not a GCA_MISMATCH_* action";
    if (!bad && c.on_mismatch == GCA_MISMATCH_CALLBACK && !c.on_mismatch_fn)
        bad = "on_mismatch GCA_MISMATCH_CALLBACK without on_mismatch_fn";
    if (!bad && (c.debug_wrong_op < -1 || c.debug_wrong_op >= GCA_OP_COUNT)) bad = "debug_wrong_op is not -1 or a GCA_OP_*";
    if (bad) {
        fprintf(stderr, "gca_open: %s\n", bad);
        return GCA_ERROR_INVALID_VALUE;
    }
    gca_ctx_t *ctx = calloc(1, sizeof *ctx);
    if (!ctx) return GCA_ERROR_INVALID_VALUE;
    ctx->rt = rt;
    ctx->cfg = c;
    char dflt[512] = "";
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (xdg && *xdg) snprintf(dflt, sizeof dflt, "%s/gpucosim", xdg);
    else if (home && *home) snprintf(dflt, sizeof dflt, "%s/.cache/gpucosim", home);
    set_path(ctx->cache_dir, sizeof ctx->cache_dir, c.cache_dir, "GPUCOSIM_CACHE_DIR", dflt);
    set_path(ctx->compiler, sizeof ctx->compiler, c.compiler, "GPUCOSIM_RV_CC", "riscv64-unknown-elf-gcc");
    set_path(ctx->dump_dir, sizeof ctx->dump_dir, c.dump_dir, "GPUCOSIM_DUMP_KERNELS", "");
    set_path(ctx->root, sizeof ctx->root, NULL, "GPUCOSIM_ROOT", GCA_ROOT_DEFAULT);
    if (getenv("GPUCOSIM_ROOT")) snprintf(ctx->gen, sizeof ctx->gen, "%s/build/gen", ctx->root);
    else snprintf(ctx->gen, sizeof ctx->gen, "%s", GCA_GEN_DEFAULT);
    set_path(ctx->picolibc, sizeof ctx->picolibc, NULL, "GPUCOSIM_PICOLIBC", GCA_PICOLIBC_DEFAULT);
    ctx->cfg.cache_dir = ctx->cfg.compiler = ctx->cfg.dump_dir = NULL; /* the copies above are used */
    uint32_t gcfg = 0;
    ctx->bus_bytes = 8;
    if (gc_mmio_read(gcrt_device(rt), GC_REG_GLOBAL_CONFIG, &gcfg) == GC_OK && GC_GLOBAL_CONFIG_DATA_BYTES_GET(gcfg))
        ctx->bus_bytes = GC_GLOBAL_CONFIG_DATA_BYTES_GET(gcfg);
    ctx->ctas = 1; /* kernels are launched with CTAs of GC_SIMT_WARPS x GC_SIMT_LANES threads */
    if (gc_mmio_read(gcrt_device(rt), GC_REG_COMPUTE_CONFIG, &gcfg) == GC_OK && GC_COMPUTE_CONFIG_NUM_SM_GET(gcfg)) {
        uint32_t per_sm = GC_COMPUTE_CONFIG_WARPS_GET(gcfg) * GC_COMPUTE_CONFIG_LANES_GET(gcfg) /
                          (GC_SIMT_WARPS * GC_SIMT_LANES);
        ctx->ctas = GC_COMPUTE_CONFIG_NUM_SM_GET(gcfg) * (per_sm ? per_sm : 1u);
    }
    *out = ctx;
    return GCA_SUCCESS;
}

gca_node_t *gca__node(gca_ctx_t *ctx, uint32_t slot) { return &ctx->nodes[slot]; }
uint32_t gca__id(gca_ctx_t *ctx, uint32_t slot) { return (slot + 1) | (ctx->nodes[slot].gen << SLOT_BITS); }

void gca__free_storage(gca_ctx_t *ctx, uint32_t slot) {
    gca_node_t *n = &ctx->nodes[slot];
    if (n->has_buf) gcrt_free(ctx->rt, n->buf);
    n->has_buf = false;
}

static uint32_t next_gen(uint32_t gen) { return (gen + 1) & 0xFFFu ? (gen + 1) & 0xFFFu : 1; }

static void slot_free(gca_ctx_t *ctx, uint32_t slot) {
    gca_node_t *n = &ctx->nodes[slot];
    gca__free_storage(ctx, slot);
    free(n->ref);
    n->ref = NULL;
    n->state = ST_FREE;
    n->gen = next_gen(n->gen);
    if (ctx->nfree == ctx->capfree) {
        uint32_t cap = ctx->capfree ? 2 * ctx->capfree : 64;
        uint32_t *f = realloc(ctx->freeslots, cap * sizeof *f);
        if (!f) return; /* the slot stays unused */
        ctx->freeslots = f;
        ctx->capfree = cap;
    }
    ctx->freeslots[ctx->nfree++] = slot;
}

static void maybe_free(gca_ctx_t *ctx, uint32_t slot) {
    gca_node_t *n = &ctx->nodes[slot];
    if (n->state == ST_FREE || n->urefs || n->irefs) return;
    uint32_t args[3], na = n->state == ST_PENDING ? n->nargs : 0;
    memcpy(args, n->args, sizeof args);
    slot_free(ctx, slot); /* a pending value nobody can read and no pending op needs: dropped */
    for (uint32_t i = 0; i < na; i++) gca__irelease(ctx, args[i]);
}

void gca__irelease(gca_ctx_t *ctx, uint32_t slot) {
    if (ctx->nodes[slot].irefs) ctx->nodes[slot].irefs--;
    maybe_free(ctx, slot);
}

/* The slot of a live handle, or UINT32_MAX with the error set (naming the call site). */
uint32_t gca__lookup(gca_ctx_t *ctx, gca_site_t s, gca_arr_t a, const char *what) {
    uint32_t slot = (a.id & SLOT_MASK) - 1u, gen = a.id >> SLOT_BITS;
    if (!a.id) {
        gca__fail(ctx, GCA_ERROR_INVALID_HANDLE, s, "%s: no array (a {0} handle: did an earlier call fail?)", what);
        return UINT32_MAX;
    }
    if (slot < ctx->nnodes && ctx->nodes[slot].state == ST_FREE && ctx->nodes[slot].gen == next_gen(gen)) {
        const gca_node_t *n = &ctx->nodes[slot]; /* freed, not reused yet: its sites are still there */
        gca__fail(ctx, GCA_ERROR_INVALID_HANDLE, s, "%s: array 0x%x (made at %s:%d) was released at %s:%d", what,
                  a.id, base(n->site.file), n->site.line, base(n->rel_site.file), n->rel_site.line);
        return UINT32_MAX;
    }
    if (slot >= ctx->nnodes || ctx->nodes[slot].gen != gen || ctx->nodes[slot].state == ST_FREE) {
        gca__fail(ctx, GCA_ERROR_INVALID_HANDLE, s, "%s: array 0x%x was released (or is not of this context)", what,
                  a.id);
        return UINT32_MAX;
    }
    gca_node_t *n = &ctx->nodes[slot];
    if (!n->urefs) {
        gca__fail(ctx, GCA_ERROR_INVALID_HANDLE, s, "%s: array 0x%x (made at %s:%d) was released at %s:%d", what,
                  a.id, base(n->site.file), n->site.line, base(n->rel_site.file), n->rel_site.line);
        return UINT32_MAX;
    }
    return slot;
}

static gca_arr_t none(void) { return (gca_arr_t){0}; }

static gca_error_t compute_ref(gca_ctx_t *ctx, uint32_t slot);

/* A new node holding a user reference (pending unless input / scalar). */
uint32_t gca__new_node(gca_ctx_t *ctx, gca_site_t s, gca_kind_t kind, int op, gca_dtype_t dt, uint32_t ndim,
                       const uint32_t *dims) {
    uint32_t slot;
    if (ctx->nfree) slot = ctx->freeslots[--ctx->nfree];
    else {
        if (ctx->nnodes == ctx->capnodes) {
            uint32_t cap = ctx->capnodes ? 2 * ctx->capnodes : 256;
            if (cap > SLOT_MASK) cap = SLOT_MASK;
            gca_node_t *nn = cap > ctx->capnodes ? realloc(ctx->nodes, cap * sizeof *nn) : NULL;
            if (!nn) {
                gca__fail(ctx, GCA_ERROR_INVALID_VALUE, s, "out of array slots");
                return UINT32_MAX;
            }
            ctx->nodes = nn;
            ctx->capnodes = cap;
        }
        slot = ctx->nnodes++;
        memset(&ctx->nodes[slot], 0, sizeof ctx->nodes[slot]);
        ctx->nodes[slot].gen = 1;
    }
    gca_node_t *n = &ctx->nodes[slot];
    uint32_t gen = n->gen;
    memset(n, 0, sizeof *n);
    n->gen = gen;
    n->kind = (uint8_t)kind;
    n->op = op;
    n->dt = (uint8_t)dt;
    n->ndim = (uint8_t)ndim;
    n->dims[0] = ndim > 0 ? dims[0] : 1;
    n->dims[1] = ndim > 1 ? dims[1] : 1;
    n->n = n->dims[0] * n->dims[1];
    n->axis = -1;
    n->site = s;
    n->urefs = 1;
    n->seq = ++ctx->seq;
    n->state = (kind == K_INPUT || kind == K_SCALAR) ? ST_DONE : ST_PENDING;
    if (ctx->depth) {
        uint32_t d = ctx->depth - 1;
        if (ctx->nscope[d] == ctx->capscope[d]) {
            uint32_t cap = ctx->capscope[d] ? 2 * ctx->capscope[d] : 64;
            uint32_t *p = realloc(ctx->scope[d], cap * sizeof *p);
            if (p) {
                ctx->scope[d] = p;
                ctx->capscope[d] = cap;
            }
        }
        if (ctx->nscope[d] < ctx->capscope[d]) ctx->scope[d][ctx->nscope[d]++] = gca__id(ctx, slot);
    }
    return slot;
}

/* Make a pending node known: internal references on its args, the queue, its reference values,
 * and the pending limit. */
gca_arr_t gca__publish(gca_ctx_t *ctx, gca_site_t s, uint32_t slot) {
    gca_node_t *n = &ctx->nodes[slot];
    for (uint32_t i = 0; i < n->nargs; i++) ctx->nodes[n->args[i]].irefs++;
    if (n->state == ST_PENDING) {
        if (ctx->npending == ctx->cappending) {
            uint32_t cap = ctx->cappending ? 2 * ctx->cappending : 256;
            uint32_t *p = realloc(ctx->pending, 2 * cap * sizeof *p);
            if (!p) {
                gca__fail(ctx, GCA_ERROR_INVALID_VALUE, s, "out of host memory");
                return none();
            }
            ctx->pending = p;
            ctx->cappending = cap;
        }
        ctx->pending[2 * ctx->npending] = slot;
        ctx->pending[2 * ctx->npending + 1] = n->seq;
        ctx->npending++;
    }
    gca_arr_t h = {gca__id(ctx, slot)};
    if (ctx->cfg.reference && compute_ref(ctx, slot) != GCA_SUCCESS) return none();
    if (ctx->npending >= ctx->cfg.max_pending && !ctx->in_macro && gca__flush(ctx, s) != GCA_SUCCESS) return none();
    return h;
}

static bool dims_ok(gca_ctx_t *ctx, gca_site_t s, const char *what, uint32_t ndim, const uint32_t *dims) {
    if (ndim < 1 || ndim > 2 || !dims) {
        gca__fail(ctx, GCA_ERROR_INVALID_VALUE, s, "%s: ndim %u: 1 or 2 dimensions (with dims)", what, ndim);
        return false;
    }
    uint64_t n = 1;
    for (uint32_t i = 0; i < ndim; i++) {
        if (!dims[i]) {
            gca__fail(ctx, GCA_ERROR_INVALID_VALUE, s, "%s: dimension %u is 0", what, i);
            return false;
        }
        n *= dims[i];
    }
    if (n > MAX_ELEMS) {
        gca__fail(ctx, GCA_ERROR_INVALID_VALUE, s, "%s: %llu elements: at most %u", what, (unsigned long long)n,
                  MAX_ELEMS);
        return false;
    }
    return true;
}

static bool ready(gca_ctx_t *ctx, gca_site_t s, const char *what) {
    if (!ctx) return false;
    (void)s;
    (void)what;
    return true;
}

gca_arr_t gca_from_host_at(gca_ctx_t *ctx, gca_site_t s, gca_dtype_t dt, uint32_t ndim, const uint32_t *dims,
                           const void *host) {
    if (!ready(ctx, s, "gca_from_host")) return none();
    if (!dims_ok(ctx, s, "gca_from_host", ndim, dims)) return none();
    if ((unsigned)dt > GCA_I32 || !host) {
        gca__fail(ctx, GCA_ERROR_INVALID_VALUE, s, "gca_from_host: %s", host ? "dtype not GCA_F32 / GCA_I32" : "host is NULL");
        return none();
    }
    uint32_t slot = gca__new_node(ctx, s, K_INPUT, GCA_OP_INPUT, dt, ndim, dims);
    if (slot == UINT32_MAX) return none();
    gca_node_t *n = &ctx->nodes[slot];
    uint64_t addr;
    gcrt_error_t e = gcrt_malloc(ctx->rt, &addr, (uint64_t)n->n * 4u);
    if (e == GCRT_SUCCESS) e = gcrt_write(ctx->rt, addr, host, (size_t)n->n * 4u);
    if (e != GCRT_SUCCESS) {
        gca__fail(ctx, GCA_ERROR_RUNTIME, s, "gca_from_host: %u elements: %s (%s)", n->n, gcrt_error_name(e),
                  gcrt_last_message(ctx->rt));
        n->urefs = 0;
        maybe_free(ctx, slot);
        return none();
    }
    n->buf = addr;
    n->has_buf = true;
    ctx->st.allocations++;
    ctx->st.bytes_allocated += (uint64_t)n->n * 4u;
    if (ctx->cfg.reference) {
        n->ref = malloc((size_t)n->n * 4u);
        if (n->ref) memcpy(n->ref, host, (size_t)n->n * 4u);
    }
    return (gca_arr_t){gca__id(ctx, slot)};
}

static gca_arr_t scalar(gca_ctx_t *ctx, gca_site_t s, gca_dtype_t dt, uint32_t bits) {
    if (!ctx) return none();
    uint32_t slot = gca__new_node(ctx, s, K_SCALAR, GCA_OP_SCALAR, dt, 0, NULL);
    if (slot == UINT32_MAX) return none();
    ctx->nodes[slot].pbits = bits;
    return (gca_arr_t){gca__id(ctx, slot)};
}
gca_arr_t gca_scalar_f32_at(gca_ctx_t *ctx, gca_site_t s, float v) { return scalar(ctx, s, GCA_F32, gca_asu(v)); }
gca_arr_t gca_scalar_i32_at(gca_ctx_t *ctx, gca_site_t s, int32_t v) { return scalar(ctx, s, GCA_I32, (uint32_t)v); }

static gca_arr_t generator(gca_ctx_t *ctx, gca_site_t s, const char *what, int op, gca_dtype_t dt, uint32_t ndim,
                           const uint32_t *dims, uint32_t pbits, int axis) {
    if (!ctx || !dims_ok(ctx, s, what, ndim, dims)) return none();
    if ((unsigned)dt > GCA_I32) {
        gca__fail(ctx, GCA_ERROR_INVALID_VALUE, s, "%s: dtype not GCA_F32 / GCA_I32", what);
        return none();
    }
    if (axis < -1 || axis >= (int)ndim) {
        gca__fail(ctx, GCA_ERROR_INVALID_VALUE, s, "%s: axis %d of a %u-D array", what, axis, ndim);
        return none();
    }
    uint32_t slot = gca__new_node(ctx, s, K_GEN, op, dt, ndim, dims);
    if (slot == UINT32_MAX) return none();
    ctx->nodes[slot].pbits = pbits;
    ctx->nodes[slot].axis = axis;
    return gca__publish(ctx, s, slot);
}
gca_arr_t gca_fill_at(gca_ctx_t *ctx, gca_site_t s, gca_dtype_t dt, uint32_t ndim, const uint32_t *dims, float v) {
    return generator(ctx, s, "gca_fill", GCA_OP_FILL, dt, ndim, dims,
                     dt == GCA_I32 ? (uint32_t)(int32_t)v : gca_asu(v), -1);
}
gca_arr_t gca_index_at(gca_ctx_t *ctx, gca_site_t s, gca_dtype_t dt, uint32_t ndim, const uint32_t *dims, int axis) {
    if (ctx && axis < 0) {
        gca__fail(ctx, GCA_ERROR_INVALID_VALUE, s, "gca_index: axis %d: 0 or 1", axis);
        return none();
    }
    return generator(ctx, s, "gca_index", GCA_OP_INDEX, dt, ndim, dims, 0, axis);
}
gca_arr_t gca_random_at(gca_ctx_t *ctx, gca_site_t s, uint32_t ndim, const uint32_t *dims, uint32_t seed) {
    return generator(ctx, s, "gca_random", GCA_OP_RANDOM, GCA_F32, ndim, dims, seed, -1);
}

static bool is_float_only(int op) {
    return op == GCA_OP_POW || (op >= GCA_OP_SQRT && op <= GCA_OP_ISNAN) || op == GCA_OP_MEAN;
}
static bool is_cmp(int op) { return op >= GCA_OP_LT && op <= GCA_OP_NE; }

gca_arr_t gca_map2_at(gca_ctx_t *ctx, gca_site_t s, gca_op_t op, gca_arr_t a, gca_arr_t b) {
    if (!ctx) return none();
    const char *on = gca_op_name(op);
    if (op < GCA_OP_ADD || op > GCA_OP_NE) {
        gca__fail(ctx, GCA_ERROR_INVALID_VALUE, s, "gca_map2: op %d is not a binary map", (int)op);
        return none();
    }
    uint32_t sa = gca__lookup(ctx, s, a, on), sb = sa == UINT32_MAX ? sa : gca__lookup(ctx, s, b, on);
    if (sb == UINT32_MAX) return none();
    gca_node_t *na = &ctx->nodes[sa], *nb = &ctx->nodes[sb];
    if (na->dt != nb->dt) {
        gca__fail(ctx, GCA_ERROR_TYPE, s, "%s: %s and %s operands", on, na->dt ? "i32" : "f32", nb->dt ? "i32" : "f32");
        return none();
    }
    if (na->dt == GCA_I32 && is_float_only(op)) {
        gca__fail(ctx, GCA_ERROR_TYPE, s, "%s: needs f32 operands, got i32", on);
        return none();
    }
    bool sca = na->ndim == 0 || na->n == 1, scb = nb->ndim == 0 || nb->n == 1;
    if (!sca && !scb && (na->ndim != nb->ndim || na->dims[0] != nb->dims[0] || na->dims[1] != nb->dims[1])) {
        gca__fail(ctx, GCA_ERROR_SHAPE, s, "%s: shapes %ux%u and %ux%u differ (and neither is a scalar)", on,
                  na->dims[0], na->dims[1], nb->dims[0], nb->dims[1]);
        return none();
    }
    const gca_node_t *shape = (sca && !scb) ? nb : na;
    uint32_t dims[2] = {shape->dims[0], shape->dims[1]};
    uint32_t slot = gca__new_node(ctx, s, K_MAP, op, is_cmp(op) ? GCA_I32 : (gca_dtype_t)na->dt, shape->ndim, dims);
    if (slot == UINT32_MAX) return none();
    gca_node_t *n = &ctx->nodes[slot];
    n->nargs = 2;
    n->args[0] = sa;
    n->args[1] = sb;
    return gca__publish(ctx, s, slot);
}

gca_arr_t gca_map1_at(gca_ctx_t *ctx, gca_site_t s, gca_op_t op, gca_arr_t a) {
    if (!ctx) return none();
    const char *on = gca_op_name(op);
    if (op < GCA_OP_NEG || op > GCA_OP_ISNAN) {
        gca__fail(ctx, GCA_ERROR_INVALID_VALUE, s, "gca_map1: op %d is not a unary map", (int)op);
        return none();
    }
    uint32_t sa = gca__lookup(ctx, s, a, on);
    if (sa == UINT32_MAX) return none();
    gca_node_t *na = &ctx->nodes[sa];
    if (na->dt == GCA_I32 && is_float_only(op)) {
        gca__fail(ctx, GCA_ERROR_TYPE, s, "%s: needs an f32 operand, got i32", on);
        return none();
    }
    uint32_t dims[2] = {na->dims[0], na->dims[1]};
    uint32_t slot = gca__new_node(ctx, s, K_MAP, op, op == GCA_OP_ISNAN ? GCA_I32 : (gca_dtype_t)na->dt, na->ndim, dims);
    if (slot == UINT32_MAX) return none();
    ctx->nodes[slot].nargs = 1;
    ctx->nodes[slot].args[0] = sa;
    return gca__publish(ctx, s, slot);
}

gca_arr_t gca_powc_at(gca_ctx_t *ctx, gca_site_t s, gca_arr_t a, float e) {
    if (!ctx) return none();
    uint32_t sa = gca__lookup(ctx, s, a, "pow");
    if (sa == UINT32_MAX) return none();
    gca_node_t *na = &ctx->nodes[sa];
    if (na->dt != GCA_F32) {
        gca__fail(ctx, GCA_ERROR_TYPE, s, "pow: needs an f32 operand, got i32");
        return none();
    }
    uint32_t dims[2] = {na->dims[0], na->dims[1]};
    uint32_t slot = gca__new_node(ctx, s, K_MAP, GCA_OP_POW, GCA_F32, na->ndim, dims);
    if (slot == UINT32_MAX) return none();
    gca_node_t *n = &ctx->nodes[slot];
    n->nargs = 1;
    n->args[0] = sa;
    n->pbits = gca_asu(e);
    n->folded = e == 2.0f;
    return gca__publish(ctx, s, slot);
}

gca_arr_t gca_select_at(gca_ctx_t *ctx, gca_site_t s, gca_arr_t cond, gca_arr_t a, gca_arr_t b) {
    if (!ctx) return none();
    uint32_t sl[3];
    const gca_arr_t h[3] = {cond, a, b};
    for (int i = 0; i < 3; i++)
        if ((sl[i] = gca__lookup(ctx, s, h[i], "select")) == UINT32_MAX) return none();
    gca_node_t *nc = &ctx->nodes[sl[0]], *na = &ctx->nodes[sl[1]], *nb = &ctx->nodes[sl[2]];
    if (nc->dt != GCA_I32 || na->dt != nb->dt) {
        gca__fail(ctx, GCA_ERROR_TYPE, s, "select: the condition must be i32 and both values of one dtype");
        return none();
    }
    const gca_node_t *shape = NULL;
    for (int i = 0; i < 3; i++) {
        const gca_node_t *x = &ctx->nodes[sl[i]];
        if (x->n == 1) continue;
        if (shape && (shape->dims[0] != x->dims[0] || shape->dims[1] != x->dims[1] || shape->ndim != x->ndim)) {
            gca__fail(ctx, GCA_ERROR_SHAPE, s, "select: shapes %ux%u and %ux%u differ", shape->dims[0], shape->dims[1],
                      x->dims[0], x->dims[1]);
            return none();
        }
        shape = x;
    }
    if (!shape) shape = na;
    uint32_t dims[2] = {shape->dims[0], shape->dims[1]};
    uint32_t slot = gca__new_node(ctx, s, K_MAP, GCA_OP_SELECT, (gca_dtype_t)na->dt, shape->ndim, dims);
    if (slot == UINT32_MAX) return none();
    ctx->nodes[slot].nargs = 3;
    memcpy(ctx->nodes[slot].args, sl, sizeof sl);
    return gca__publish(ctx, s, slot);
}

gca_arr_t gca_reduce_at(gca_ctx_t *ctx, gca_site_t s, gca_op_t op, gca_arr_t a, int axis) {
    if (!ctx) return none();
    const char *on = gca_op_name(op);
    if (op < GCA_OP_SUM || op > GCA_OP_ALL) {
        gca__fail(ctx, GCA_ERROR_INVALID_VALUE, s, "gca_reduce: op %d is not a reduction", (int)op);
        return none();
    }
    uint32_t sa = gca__lookup(ctx, s, a, on);
    if (sa == UINT32_MAX) return none();
    gca_node_t *na = &ctx->nodes[sa];
    if (axis < -1 || axis > 1 || (axis >= 0 && na->ndim != 2)) {
        gca__fail(ctx, GCA_ERROR_INVALID_VALUE, s, "%s: axis %d of a %u-D array (-1: all; 0, 1: of a 2-D array)", on,
                  axis, na->ndim);
        return none();
    }
    if ((na->dt == GCA_I32) != (op == GCA_OP_ANY || op == GCA_OP_ALL) && (op == GCA_OP_ANY || op == GCA_OP_ALL ||
                                                                          op == GCA_OP_MEAN)) {
        gca__fail(ctx, GCA_ERROR_TYPE, s, "%s: %s", on, op == GCA_OP_MEAN ? "needs f32" : "needs i32 (truth values)");
        return none();
    }
    uint32_t dims[2] = {axis == 1 ? na->dims[0] : na->dims[1], 1};
    uint32_t slot = gca__new_node(ctx, s, K_REDUCE, op, (gca_dtype_t)na->dt, axis < 0 ? 0 : 1, dims);
    if (slot == UINT32_MAX) return none();
    ctx->nodes[slot].nargs = 1;
    ctx->nodes[slot].args[0] = sa;
    ctx->nodes[slot].axis = axis;
    return gca__publish(ctx, s, slot);
}

gca_arr_t gca_dot_at(gca_ctx_t *ctx, gca_site_t s, gca_arr_t a, gca_arr_t b) {
    gca_arr_t m = gca_map2_at(ctx, s, GCA_OP_MUL, a, b);
    if (!m.id) return m;
    gca_arr_t r = gca_reduce_at(ctx, s, GCA_OP_SUM, m, -1);
    gca_release_at(ctx, s, m);
    return r;
}

gca_arr_t gca_transpose_at(gca_ctx_t *ctx, gca_site_t s, gca_arr_t a) {
    if (!ctx) return none();
    uint32_t sa = gca__lookup(ctx, s, a, "transpose");
    if (sa == UINT32_MAX) return none();
    gca_node_t *na = &ctx->nodes[sa];
    if (na->ndim != 2) {
        gca__fail(ctx, GCA_ERROR_SHAPE, s, "transpose: a %u-D array (needs 2-D)", na->ndim);
        return none();
    }
    uint32_t dims[2] = {na->dims[1], na->dims[0]};
    uint32_t slot = gca__new_node(ctx, s, K_VIEW, GCA_OP_TRANSPOSE, (gca_dtype_t)na->dt, 2, dims);
    if (slot == UINT32_MAX) return none();
    ctx->nodes[slot].nargs = 1;
    ctx->nodes[slot].args[0] = sa;
    return gca__publish(ctx, s, slot);
}

gca_arr_t gca_slice_at(gca_ctx_t *ctx, gca_site_t s, gca_arr_t a, uint32_t r0, uint32_t nr, uint32_t c0, uint32_t nc) {
    if (!ctx) return none();
    uint32_t sa = gca__lookup(ctx, s, a, "slice");
    if (sa == UINT32_MAX) return none();
    gca_node_t *na = &ctx->nodes[sa];
    uint32_t R = na->ndim == 2 ? na->dims[0] : na->n, C = na->ndim == 2 ? na->dims[1] : 1;
    if (na->ndim == 0 || !nr || !nc || r0 > R || nr > R - r0 || c0 > C || nc > C - c0) {
        gca__fail(ctx, GCA_ERROR_SHAPE, s, "slice: rows [%u, +%u) cols [%u, +%u) of a %ux%u array", r0, nr, c0, nc, R, C);
        return none();
    }
    uint32_t dims[2] = {nr, nc};
    uint32_t slot = gca__new_node(ctx, s, K_VIEW, GCA_OP_SLICE, (gca_dtype_t)na->dt, na->ndim, dims);
    if (slot == UINT32_MAX) return none();
    gca_node_t *n = &ctx->nodes[slot];
    n->nargs = 1;
    n->args[0] = sa;
    n->view[0] = r0, n->view[1] = nr, n->view[2] = c0, n->view[3] = nc;
    return gca__publish(ctx, s, slot);
}

gca_arr_t gca_gather_at(gca_ctx_t *ctx, gca_site_t s, gca_arr_t x, gca_arr_t idx) {
    if (!ctx) return none();
    uint32_t sx = gca__lookup(ctx, s, x, "gather"), si = sx == UINT32_MAX ? sx : gca__lookup(ctx, s, idx, "gather");
    if (si == UINT32_MAX) return none();
    gca_node_t *nx = &ctx->nodes[sx], *ni = &ctx->nodes[si];
    if (nx->ndim != 1 || ni->dt != GCA_I32 || ni->ndim == 0) {
        gca__fail(ctx, GCA_ERROR_SHAPE, s, "gather: needs a 1-D source (got %u-D) and an i32 index array (got %s, %u-D)",
                  nx->ndim, ni->dt ? "i32" : "f32", ni->ndim);
        return none();
    }
    uint32_t dims[2] = {ni->dims[0], ni->dims[1]};
    uint32_t slot = gca__new_node(ctx, s, K_GATHER, GCA_OP_GATHER, (gca_dtype_t)nx->dt, ni->ndim, dims);
    if (slot == UINT32_MAX) return none();
    ctx->nodes[slot].nargs = 2;
    ctx->nodes[slot].args[0] = sx;
    ctx->nodes[slot].args[1] = si;
    return gca__publish(ctx, s, slot);
}

gca_arr_t gca_matmul_at(gca_ctx_t *ctx, gca_site_t s, gca_arr_t a, gca_arr_t b) {
    if (!ctx) return none();
    uint32_t sa = gca__lookup(ctx, s, a, "matmul"), sb = sa == UINT32_MAX ? sa : gca__lookup(ctx, s, b, "matmul");
    if (sb == UINT32_MAX) return none();
    gca_node_t *na = &ctx->nodes[sa], *nb = &ctx->nodes[sb];
    if (na->dt != GCA_F32 || nb->dt != GCA_F32) {
        gca__fail(ctx, GCA_ERROR_TYPE, s, "matmul: needs f32 operands");
        return none();
    }
    if (na->ndim != 2 || nb->ndim != 2 || na->dims[1] != nb->dims[0]) {
        gca__fail(ctx, GCA_ERROR_SHAPE, s, "matmul: %ux%u times %ux%u", na->dims[0], na->dims[1], nb->dims[0],
                  nb->dims[1]);
        return none();
    }
    uint32_t dims[2] = {na->dims[0], nb->dims[1]};
    uint32_t slot = gca__new_node(ctx, s, K_MATMUL, GCA_OP_MATMUL, GCA_F32, 2, dims);
    if (slot == UINT32_MAX) return none();
    ctx->nodes[slot].nargs = 2;
    ctx->nodes[slot].args[0] = sa;
    ctx->nodes[slot].args[1] = sb;
    return gca__publish(ctx, s, slot);
}

/* ------------------------------------------------------------------ references, release, read */
gca_error_t gca_retain_at(gca_ctx_t *ctx, gca_site_t s, gca_arr_t a) {
    if (!ctx) return GCA_ERROR_INVALID_VALUE;
    uint32_t slot = gca__lookup(ctx, s, a, "gca_retain");
    if (slot == UINT32_MAX) return ctx->err;
    ctx->nodes[slot].urefs++;
    return GCA_SUCCESS;
}

gca_error_t gca_release_at(gca_ctx_t *ctx, gca_site_t s, gca_arr_t a) {
    if (!ctx) return GCA_ERROR_INVALID_VALUE;
    uint32_t slot = gca__lookup(ctx, s, a, "gca_release");
    if (slot == UINT32_MAX) return ctx->err;
    gca_node_t *n = &ctx->nodes[slot];
    if (ctx->in_macro && ctx->recording) {
        for (uint32_t i = 0; i < ctx->rec_nin; i++)
            if (ctx->rec_ins[i].id == a.id && !ctx->recording->invalid) {
                ctx->recording->invalid = true;
                fprintf(stderr, "%s:%d: warning: input %u of macro %u (begun at %s:%d) released inside it: the "
                                "recording is dropped, the macro runs as plain code\n",
                        base(s.file), s.line, i, ctx->macro_id, base(ctx->macro_site.file), ctx->macro_site.line);
            }
    }
    if (--n->urefs == 0) n->rel_site = s;
    maybe_free(ctx, slot);
    return GCA_SUCCESS;
}

gca_error_t gca_flush_at(gca_ctx_t *ctx, gca_site_t s) {
    if (!ctx) return GCA_ERROR_INVALID_VALUE;
    if (ctx->in_macro) return gca__fail(ctx, GCA_ERROR_MACRO, s, "gca_flush inside a macro region");
    return gca__flush(ctx, s);
}

gca_error_t gca_read_at(gca_ctx_t *ctx, gca_site_t s, gca_arr_t a, void *host, size_t bytes) {
    if (!ctx) return GCA_ERROR_INVALID_VALUE;
    uint32_t slot = gca__lookup(ctx, s, a, "gca_read");
    if (slot == UINT32_MAX) return ctx->err;
    if (ctx->in_macro) return gca__fail(ctx, GCA_ERROR_MACRO, s, "gca_read inside a macro region");
    gca_node_t *n = &ctx->nodes[slot];
    if (!host || bytes != (size_t)n->n * 4u)
        return gca__fail(ctx, GCA_ERROR_INVALID_VALUE, s, "gca_read: %zu bytes into %s: the array has %u elements (%u bytes)",
                         bytes, host ? "host" : "NULL", n->n, n->n * 4u);
    if (n->state == ST_PENDING) {
        gca_error_t e = gca__flush(ctx, s);
        if (e != GCA_SUCCESS) return e;
        n = &ctx->nodes[slot];
    }
    if (n->kind == K_SCALAR) {
        memcpy(host, &n->pbits, 4);
        return GCA_SUCCESS;
    }
    gcrt_error_t e = gcrt_stream_synchronize(ctx->rt, ctx->cfg.stream);
    if (e == GCRT_SUCCESS) e = gcrt_read(ctx->rt, n->buf, host, bytes);
    if (e != GCRT_SUCCESS)
        return gca__fail(ctx, GCA_ERROR_RUNTIME, s, "gca_read: %s (%s)", gcrt_error_name(e), gcrt_last_message(ctx->rt));
    return GCA_SUCCESS;
}

gca_error_t gca_shape(gca_ctx_t *ctx, gca_arr_t a, gca_dtype_t *dt, uint32_t *ndim, uint32_t dims[2]) {
    if (!ctx) return GCA_ERROR_INVALID_VALUE;
    uint32_t slot = gca__lookup(ctx, GCA_HERE, a, "gca_shape");
    if (slot == UINT32_MAX) return ctx->err;
    const gca_node_t *n = &ctx->nodes[slot];
    if (dt) *dt = (gca_dtype_t)n->dt;
    if (ndim) *ndim = n->ndim;
    if (dims) dims[0] = n->dims[0], dims[1] = n->dims[1];
    return GCA_SUCCESS;
}

bool gca_has_storage(gca_ctx_t *ctx, gca_arr_t a) {
    uint32_t slot = (a.id & SLOT_MASK) - 1u;
    if (!ctx || !a.id || slot >= ctx->nnodes || ctx->nodes[slot].gen != a.id >> SLOT_BITS) return false;
    return ctx->nodes[slot].has_buf;
}

/* ------------------------------------------------------------------ scopes */
gca_error_t gca_scope_begin_at(gca_ctx_t *ctx, gca_site_t s) {
    if (!ctx) return GCA_ERROR_INVALID_VALUE;
    if (ctx->depth == GCA_MAX_SCOPES)
        return gca__fail(ctx, GCA_ERROR_INVALID_VALUE, s, "gca_scope_begin: %u scopes deep already", GCA_MAX_SCOPES);
    ctx->nscope[ctx->depth++] = 0;
    return GCA_SUCCESS;
}

gca_error_t gca_scope_end_at(gca_ctx_t *ctx, gca_site_t s) {
    if (!ctx) return GCA_ERROR_INVALID_VALUE;
    if (!ctx->depth) return gca__fail(ctx, GCA_ERROR_INVALID_VALUE, s, "gca_scope_end without gca_scope_begin");
    uint32_t d = --ctx->depth;
    for (uint32_t i = 0; i < ctx->nscope[d]; i++) {
        gca_arr_t a = {ctx->scope[d][i]};
        uint32_t slot = (a.id & SLOT_MASK) - 1u;
        if (slot < ctx->nnodes && ctx->nodes[slot].gen == a.id >> SLOT_BITS && ctx->nodes[slot].state != ST_FREE &&
            ctx->nodes[slot].urefs)
            gca_release_at(ctx, s, a);
    }
    ctx->nscope[d] = 0;
    return GCA_SUCCESS;
}

gca_error_t gca_keep_at(gca_ctx_t *ctx, gca_site_t s, gca_arr_t a) {
    if (!ctx) return GCA_ERROR_INVALID_VALUE;
    if (gca__lookup(ctx, s, a, "gca_keep") == UINT32_MAX) return ctx->err;
    if (!ctx->depth) return gca__fail(ctx, GCA_ERROR_INVALID_VALUE, s, "gca_keep outside a scope");
    uint32_t d = ctx->depth - 1;
    for (uint32_t i = 0; i < ctx->nscope[d]; i++)
        if (ctx->scope[d][i] == a.id) {
            ctx->scope[d][i] = ctx->scope[d][--ctx->nscope[d]];
            if (d > 0 && ctx->nscope[d - 1] < ctx->capscope[d - 1]) ctx->scope[d - 1][ctx->nscope[d - 1]++] = a.id;
            else if (d > 0) {
                uint32_t cap = ctx->capscope[d - 1] ? 2 * ctx->capscope[d - 1] : 64;
                uint32_t *p = realloc(ctx->scope[d - 1], cap * sizeof *p);
                if (!p) return gca__fail(ctx, GCA_ERROR_INVALID_VALUE, s, "out of host memory");
                ctx->scope[d - 1] = p;
                ctx->capscope[d - 1] = cap;
                ctx->scope[d - 1][ctx->nscope[d - 1]++] = a.id;
            }
            return GCA_SUCCESS;
        }
    return gca__fail(ctx, GCA_ERROR_INVALID_VALUE, s, "gca_keep: array 0x%x was not made in this scope", a.id);
}

/* ------------------------------------------------------------------ context */
void gca_close(gca_ctx_t *ctx) {
    if (!ctx) return;
    gcrt_device_synchronize(ctx->rt);
    for (uint32_t i = 0; i < ctx->nnodes; i++)
        if (ctx->nodes[i].state != ST_FREE) {
            gca__free_storage(ctx, i);
            free(ctx->nodes[i].ref);
        }
    free(ctx->nodes);
    free(ctx->freeslots);
    free(ctx->pending);
    for (int d = 0; d < GCA_MAX_SCOPES; d++) free(ctx->scope[d]);
    gca__trace_free(ctx);
    gca__progs_free(ctx);
    gca__macros_free(ctx);
    for (size_t i = 0; i < GCA_KINFO_RING; i++) free((void *)ctx->kinfo[i].source);
    free(ctx);
}

gca_error_t gca_set_reference(gca_ctx_t *ctx, bool on, float scale) {
    if (!ctx || !(scale >= 0)) return GCA_ERROR_INVALID_VALUE;
    ctx->cfg.reference = on;
    ctx->cfg.ref_scale = scale;
    return GCA_SUCCESS;
}

gca_error_t gca_set_fusion(gca_ctx_t *ctx, bool on) {
    if (!ctx) return GCA_ERROR_INVALID_VALUE;
    ctx->cfg.fusion = on;
    return GCA_SUCCESS;
}

gca_error_t gca_set_compiler(gca_ctx_t *ctx, const char *path) {
    if (!ctx) return GCA_ERROR_INVALID_VALUE;
    set_path(ctx->compiler, sizeof ctx->compiler, path, "GPUCOSIM_RV_CC", "riscv64-unknown-elf-gcc");
    ctx->ccid[0] = 0;
    return GCA_SUCCESS;
}

void gca_stats(const gca_ctx_t *ctx, gca_stats_t *st) {
    if (ctx && st) *st = ctx->st;
}

void gca_kernels(const gca_ctx_t *ctx, const gca_kernel_info_t **k, size_t *count) {
    gca_ctx_t *c = (gca_ctx_t *)ctx;
    size_t n = c->nkinfo < GCA_KINFO_RING ? (size_t)c->nkinfo : GCA_KINFO_RING;
    for (size_t i = 0; i < n; i++) c->kview[i] = c->kinfo[(c->nkinfo - n + i) % GCA_KINFO_RING];
    *k = c->kview;
    *count = n;
}

/* ------------------------------------------------------------------ reference results */
bool gca_compare_f32(float dev, float ref, float scale) {
    if (isnan(dev) || isnan(ref)) return isnan(dev) && isnan(ref);
    if (isinf(dev) || isinf(ref)) return dev == ref;
    return fabsf(dev - ref) <= fabsf(ref * scale);
}

static uint32_t refv(const gca_node_t *a, uint32_t i) {
    const uint32_t *r = a->ref;
    return a->kind == K_SCALAR ? a->pbits : r[a->n == 1 ? 0 : i];
}

static uint32_t map_elem(int op, int dt, uint32_t a, uint32_t b, uint32_t c) {
    float fa = gca_asf(a), fb = gca_asf(b);
    int32_t ia = (int32_t)a, ib = (int32_t)b;
#define F2(name) (dt == GCA_F32 ? gca_asu(gca_##name##_f(fa, fb)) : (uint32_t)gca_##name##_i(ia, ib))
#define C2(name) (uint32_t)(dt == GCA_F32 ? gca_##name##_f(fa, fb) : gca_##name##_i(ia, ib))
    switch (op) {
    case GCA_OP_ADD: return F2(add);
    case GCA_OP_SUB: return F2(sub);
    case GCA_OP_MUL: return F2(mul);
    case GCA_OP_DIV: return F2(div);
    case GCA_OP_MIN: return F2(min);
    case GCA_OP_MAX: return F2(max);
    case GCA_OP_POW: return gca_asu(gca_pow_f(fa, fb));
    case GCA_OP_LT: return C2(lt);
    case GCA_OP_LE: return C2(le);
    case GCA_OP_GT: return C2(gt);
    case GCA_OP_GE: return C2(ge);
    case GCA_OP_EQ: return C2(eq);
    case GCA_OP_NE: return C2(ne);
    case GCA_OP_NEG: return dt == GCA_F32 ? gca_asu(gca_neg_f(fa)) : (uint32_t)gca_neg_i(ia);
    case GCA_OP_ABS: return dt == GCA_F32 ? gca_asu(gca_abs_f(fa)) : (uint32_t)gca_abs_i(ia);
    case GCA_OP_SQRT: return gca_asu(gca_sqrt_f(fa));
    case GCA_OP_RSQRT: return gca_asu(gca_rsqrt_f(fa));
    case GCA_OP_EXP: return gca_asu(gca_exp_f(fa));
    case GCA_OP_LOG: return gca_asu(gca_log_f(fa));
    case GCA_OP_SIN: return gca_asu(gca_sin_f(fa));
    case GCA_OP_COS: return gca_asu(gca_cos_f(fa));
    case GCA_OP_TANH: return gca_asu(gca_tanh_f(fa));
    case GCA_OP_FLOOR: return gca_asu(gca_floor_f(fa));
    case GCA_OP_CEIL: return gca_asu(gca_ceil_f(fa));
    case GCA_OP_ISNAN: return (uint32_t)gca_isnan_f(fa);
    case GCA_OP_SELECT: return (int32_t)a ? b : c;
    default: return 0;
    }
#undef F2
#undef C2
}

/* The reference values of an argument: a node made before reference mode was on has none: its
 * device values (evaluated now if pending) become its reference. */
static gca_error_t need_ref(gca_ctx_t *ctx, uint32_t slot, gca_site_t s) {
    gca_node_t *a = &ctx->nodes[slot];
    if (a->ref || a->kind == K_SCALAR) return GCA_SUCCESS;
    if (a->state == ST_PENDING) {
        a->urefs++; /* keep it stored */
        gca_error_t e = gca__flush(ctx, s);
        a = &ctx->nodes[slot];
        a->urefs--;
        if (e != GCA_SUCCESS) return e;
    }
    if (!a->has_buf) return gca__fail(ctx, GCA_ERROR_INVALID_VALUE, s, "reference mode: an argument has no values");
    a->ref = malloc((size_t)a->n * 4u);
    if (!a->ref) return gca__fail(ctx, GCA_ERROR_INVALID_VALUE, s, "out of host memory");
    gcrt_error_t e = gcrt_stream_synchronize(ctx->rt, ctx->cfg.stream);
    if (e == GCRT_SUCCESS) e = gcrt_read(ctx->rt, a->buf, a->ref, (size_t)a->n * 4u);
    if (e != GCRT_SUCCESS) return gca__fail(ctx, GCA_ERROR_RUNTIME, s, "reference mode: %s", gcrt_error_name(e));
    return GCA_SUCCESS;
}

/* The host's unfused, sequential result of a node from its arguments' reference values. */
static gca_error_t compute_ref(gca_ctx_t *ctx, uint32_t slot) {
    gca_site_t s = ctx->nodes[slot].site;
    for (uint32_t i = 0; i < ctx->nodes[slot].nargs; i++) {
        gca_error_t e = need_ref(ctx, ctx->nodes[slot].args[i], s);
        if (e != GCA_SUCCESS) return e;
    }
    gca_node_t *n = &ctx->nodes[slot];
    uint32_t *r = malloc((size_t)n->n * 4u);
    if (!r) return gca__fail(ctx, GCA_ERROR_INVALID_VALUE, s, "out of host memory");
    const gca_node_t *a = n->nargs > 0 ? &ctx->nodes[n->args[0]] : NULL;
    const gca_node_t *b = n->nargs > 1 ? &ctx->nodes[n->args[1]] : NULL;
    const gca_node_t *c = n->nargs > 2 ? &ctx->nodes[n->args[2]] : NULL;
    switch (n->kind) {
    case K_GEN:
        for (uint32_t i = 0; i < n->n; i++) {
            uint32_t v = n->op == GCA_OP_FILL ? n->pbits
                         : n->op == GCA_OP_RANDOM ? gca_asu(gca_random_f(n->pbits, i))
                                                  : (n->axis == 0 && n->ndim == 2 ? i / n->dims[1]
                                                     : n->ndim == 2 ? i % n->dims[1] : i);
            if (n->op == GCA_OP_INDEX && n->dt == GCA_F32) v = gca_asu((float)v);
            r[i] = v;
        }
        break;
    case K_MAP:
        for (uint32_t i = 0; i < n->n; i++) {
            uint32_t va = refv(a, i);
            uint32_t vb = b ? refv(b, i) : (n->op == GCA_OP_POW ? n->pbits : 0);
            int dt = (n->op == GCA_OP_SELECT || !is_cmp(n->op)) && n->op != GCA_OP_ISNAN ? n->dt : a->dt;
            if (n->op == GCA_OP_SELECT) r[i] = map_elem(n->op, dt, va, vb, refv(c, i));
            else if (n->folded) r[i] = gca_asu(gca_mul_f(gca_asf(va), gca_asf(va)));
            else r[i] = map_elem(n->op, dt, va, vb, 0);
        }
        break;
    case K_REDUCE: {
        uint32_t R = a->dims[0], C = a->ndim == 2 ? a->dims[1] : 1;
        uint32_t outs = n->axis < 0 ? 1 : n->n, K = n->axis < 0 ? a->n : n->axis == 1 ? C : R;
        for (uint32_t o = 0; o < outs; o++) {
            uint32_t acc = 0;
            for (uint32_t k = 0; k < K; k++) {
                uint32_t i = n->axis < 0 ? k : n->axis == 1 ? o * C + k : k * C + o;
                uint32_t v = refv(a, i);
                if (k == 0 && n->op != GCA_OP_ANY && n->op != GCA_OP_ALL) {
                    acc = v;
                    continue;
                }
                switch (n->op) {
                case GCA_OP_SUM: case GCA_OP_MEAN: acc = map_elem(GCA_OP_ADD, n->dt, acc, v, 0); break;
                case GCA_OP_RMIN: acc = map_elem(GCA_OP_MIN, n->dt, acc, v, 0); break;
                case GCA_OP_RMAX: acc = map_elem(GCA_OP_MAX, n->dt, acc, v, 0); break;
                case GCA_OP_ANY: acc = (uint32_t)gca_any_i(k ? (int32_t)acc : 0, (int32_t)v); break;
                default: acc = (uint32_t)gca_all_i(k ? (int32_t)acc : 1, (int32_t)v); break;
                }
            }
            if (n->op == GCA_OP_MEAN) acc = gca_asu(gca_div_f(gca_asf(acc), (float)K));
            r[o] = acc;
        }
        break;
    }
    case K_VIEW:
        for (uint32_t i = 0; i < n->n; i++) {
            uint32_t src;
            if (n->op == GCA_OP_TRANSPOSE) src = (i % n->dims[1]) * a->dims[1] + i / n->dims[1];
            else if (n->ndim == 2) src = (n->view[0] + i / n->dims[1]) * a->dims[1] + n->view[2] + i % n->dims[1];
            else src = n->view[0] + i;
            r[i] = ((const uint32_t *)a->ref)[src];
        }
        break;
    case K_GATHER:
        for (uint32_t i = 0; i < n->n; i++) {
            int32_t ix = (int32_t)refv(b, i);
            r[i] = ix >= 0 && (uint32_t)ix < a->n ? ((const uint32_t *)a->ref)[ix] : 0;
        }
        break;
    case K_MATMUL: {
        uint32_t M = a->dims[0], K = a->dims[1], N = b->dims[1];
        const float *A = a->ref, *B = b->ref;
        for (uint32_t m = 0; m < M; m++)
            for (uint32_t j = 0; j < N; j++) {
                float acc = 0.0f;
                for (uint32_t k = 0; k < K; k++) acc = gca_add_f(acc, gca_mul_f(A[m * K + k], B[k * N + j]));
                r[m * N + j] = gca_asu(acc);
            }
        break;
    }
    default: break;
    }
    free(n->ref);
    n->ref = r;
    return GCA_SUCCESS;
}

/* Compare a node's device result (stored) with its reference; GCA_ERROR_MISMATCH when it differs. */
gca_error_t gca__compare_node(gca_ctx_t *ctx, uint32_t slot) {
    gca_node_t *n = &ctx->nodes[slot];
    if (!n->ref || !n->has_buf) return GCA_SUCCESS;
    uint32_t *dev = malloc((size_t)n->n * 4u);
    if (!dev) return GCA_SUCCESS;
    if (gcrt_read(ctx->rt, n->buf, dev, (size_t)n->n * 4u) != GCRT_SUCCESS) {
        free(dev);
        return gca__fail(ctx, GCA_ERROR_RUNTIME, n->site, "reference mode: reading the device result failed");
    }
    const uint32_t *ref = n->ref;
    gca_error_t ret = GCA_SUCCESS;
    for (uint32_t i = 0; i < n->n; i++) {
        bool ok = n->dt == GCA_F32 ? gca_compare_f32(gca_asf(dev[i]), gca_asf(ref[i]), ctx->cfg.ref_scale)
                                   : dev[i] == ref[i];
        if (ok) continue;
        gca_mismatch_t m = {n->site, gca_op_name((gca_op_t)n->op), i, (gca_dtype_t)n->dt, dev[i], ref[i], ""};
        if (n->dt == GCA_F32)
            snprintf(m.message, sizeof m.message,
                     "%s:%d: %s: element %u: device %.9g (0x%08x), reference %.9g (0x%08x), scale %g", base(n->site.file),
                     n->site.line, m.op, i, (double)gca_asf(dev[i]), dev[i], (double)gca_asf(ref[i]), ref[i],
                     (double)ctx->cfg.ref_scale);
        else
            snprintf(m.message, sizeof m.message, "%s:%d: %s: element %u: device %d, reference %d", base(n->site.file),
                     n->site.line, m.op, i, (int32_t)dev[i], (int32_t)ref[i]);
        ctx->st.mismatches++;
        snprintf(ctx->msg, sizeof ctx->msg, "reference mismatch: %s", m.message);
        ctx->err = GCA_ERROR_MISMATCH;
        if (ctx->cfg.on_mismatch == GCA_MISMATCH_CALLBACK) {
            ctx->cfg.on_mismatch_fn(&m, ctx->cfg.on_mismatch_user);
            ret = GCA_ERROR_MISMATCH;
        } else {
            fprintf(stderr, "gca: reference mismatch: %s\n", m.message);
            if (ctx->cfg.on_mismatch == GCA_MISMATCH_ABORT) abort();
        }
        break;
    }
    free(dev);
    return ret;
}
