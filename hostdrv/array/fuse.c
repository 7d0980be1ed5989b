#define _POSIX_C_SOURCE 200809L
/* fuse.c: a flush: the window, its trace key, the trace cache, the scheduler (two ready lists,
 * fusion rules, limits, scalar replacement) and the execution of a plan (docs/array.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "array_int.h"

/* ------------------------------------------------------------------ growable bytes */
typedef struct buf {
    uint8_t *p;
    size_t n, cap;
    bool oom;
} buf_t;
static void put(buf_t *b, const void *d, size_t n) {
    if (b->oom) return;
    if (b->n + n > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->n + n) cap *= 2;
        uint8_t *p = realloc(b->p, cap);
        if (!p) {
            b->oom = true;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->n, d, n);
    b->n += n;
}
static void put32(buf_t *b, uint32_t v) { put(b, &v, 4); }

static bool is_fusible(uint8_t kind) { return kind == K_GEN || kind == K_MAP || kind == K_REDUCE || kind == K_VIEW; }

/* ------------------------------------------------------------------ the scheduler */
typedef struct sched {
    const gca_ctx_t *ctx;
    const gca_wn_t *w;
    const gca_en_t *e;
    uint32_t nw;
    int *kern;       /* window position -> kernel, -1 unscheduled */
    int cur;         /* the kernel being grown */
    /* the open kernel */
    uint8_t form;
    int axis;
    uint32_t dom_n, rows, cols, nops, nred, nin, nuser;
    gca_ref_t in[64];
} sched_t;

static bool avail(const sched_t *S, gca_ref_t r) { return r.ext || (S->kern[r.idx] >= 0 && S->kern[r.idx] < S->cur); }
static uint32_t ref_n(const sched_t *S, gca_ref_t r) { return r.ext ? S->e[r.idx].n : S->w[r.idx].n; }
static bool ref_scalar_arg(const sched_t *S, gca_ref_t r) { return r.ext && S->e[r.idx].scalar; }
static bool have_in(const sched_t *S, gca_ref_t r) {
    for (uint32_t i = 0; i < S->nin; i++)
        if (S->in[i].ext == r.ext && S->in[i].idx == r.idx) return true;
    return false;
}

static bool can_add(sched_t *S, uint32_t p, uint32_t depth);

/* Can argument r of an op of `n` elements be had in the open kernel?  An unscheduled generator of
 * the same size is pulled in (input-less ops are scheduled as late as possible: with a consumer). */
static bool arg_ok(sched_t *S, gca_ref_t r, uint32_t n, bool must_load, uint32_t *newin, uint32_t depth) {
    if (avail(S, r)) {
        if (ref_scalar_arg(S, r)) return true;
        if (!have_in(S, r)) (*newin)++;
        return ref_n(S, r) == n || ref_n(S, r) == 1;
    }
    if (must_load || r.ext) return false;
    const gca_wn_t *a = &S->w[r.idx];
    if (S->kern[r.idx] == S->cur) return a->kind != K_REDUCE && a->n == n;
    return a->kind == K_GEN && S->kern[r.idx] < 0 && a->n == n && depth == 0 && can_add(S, r.idx, 1);
}

static bool can_add(sched_t *S, uint32_t p, uint32_t depth) {
    const gca_wn_t *w = &S->w[p];
    const gca_ctx_t *ctx = S->ctx;
    if (!is_fusible(w->kind) || S->kern[p] >= 0) return false;
    if (S->nops && !ctx->cfg.fusion) return false;
    if (S->nops + 1 > ctx->cfg.max_kernel_ops) return false;
    if (S->nops && w->user && S->nuser + 1 > ctx->cfg.max_kernel_outputs) return false;
    uint32_t en = w->kind == K_REDUCE ? ref_n(S, w->args[0]) : w->n;
    if (S->nops && en != S->dom_n) return false;
    if (w->kind == K_REDUCE) {
        if (w->axis < 0 && S->form == KF_AXIS) return false;
        if (w->axis >= 0) {
            const gca_wn_t *a = w->args[0].ext ? NULL : &S->w[w->args[0].idx];
            uint32_t R = a ? a->dims[0] : S->e[w->args[0].idx].dims[0], C = a ? a->dims[1] : S->e[w->args[0].idx].dims[1];
            if (S->form == KF_FLATRED) return false;
            if (S->form == KF_AXIS && (S->axis != w->axis || S->rows != R || S->cols != C)) return false;
        }
        if (S->nred + 1 > 32) return false; /* shared memory: 32 words per reduction */
    }
    uint32_t newin = 0;
    for (uint32_t i = 0; i < w->nargs; i++)
        if (!arg_ok(S, w->args[i], en, w->kind == K_VIEW, &newin, depth)) return false;
    return S->nin + newin <= ctx->cfg.max_kernel_inputs;
}

static void add_op(sched_t *S, uint32_t p) {
    const gca_wn_t *w = &S->w[p];
    for (uint32_t i = 0; i < w->nargs; i++) {
        gca_ref_t r = w->args[i];
        if (!r.ext && S->kern[r.idx] < 0) add_op(S, r.idx); /* a pulled-in generator */
        else if (avail(S, r) && !ref_scalar_arg(S, r) && !have_in(S, r) && S->nin < 64) S->in[S->nin++] = r;
    }
    uint32_t en = w->kind == K_REDUCE ? ref_n(S, w->args[0]) : w->n;
    if (!S->nops) S->dom_n = en;
    if (w->kind == K_REDUCE) {
        S->nred++;
        if (w->axis < 0) S->form = KF_FLATRED;
        else {
            const gca_wn_t *a = w->args[0].ext ? NULL : &S->w[w->args[0].idx];
            S->form = KF_AXIS;
            S->axis = w->axis;
            S->rows = a ? a->dims[0] : S->e[w->args[0].idx].dims[0];
            S->cols = a ? a->dims[1] : S->e[w->args[0].idx].dims[1];
        }
    }
    S->nuser += w->user;
    S->kern[p] = S->cur;
    S->nops++;
}

static void plan_free(gca_plan_t *pl) {
    if (!pl) return;
    for (uint32_t i = 0; i < pl->nk; i++) {
        gca_pk_t *k = &pl->k[i];
        free(k->ops);
        free(k->in);
        free(k->out);
        free(k->sc);
        free(k->src);
    }
    free(pl->k);
    free(pl->store);
    free(pl->key);
    free(pl);
}

#define BLOCK (GC_SIMT_WARPS * GC_SIMT_LANES)

/* A grid-stride loop's grid: no more CTAs than the device runs at once (ctx->ctas: one per SM
 * when a CTA of BLOCK threads fills an SM's warp slots), so each thread walks its share in one CTA
 * and no CTA waits for another one's slots to drain (docs/array.md, "Code generation"). */
static uint32_t grid_for(uint32_t n, uint32_t ctas) {
    uint32_t g = (n + BLOCK - 1) / BLOCK;
    return g < 1 ? 1 : g > ctas ? ctas : g;
}

/* Fill kernel k's op, input, output and scalar lists from the schedule. */
static bool kernel_lists(const gca_ctx_t *ctx, gca_plan_t *pl, uint32_t kid, const int *kern, const gca_wn_t *w,
                         const gca_en_t *e, uint8_t form, int axis, uint32_t dom_n, uint32_t rows, uint32_t cols) {
    gca_pk_t *k = &pl->k[kid];
    k->form = form;
    k->axis = axis;
    k->dom_n = dom_n;
    k->rows = rows;
    k->cols = cols;
    uint32_t cap = 0;
    for (uint32_t p = 0; p < pl->nwin; p++) cap += kern[p] == (int)kid;
    k->ops = calloc(cap ? cap : 1, sizeof *k->ops);
    k->out = calloc(cap ? cap : 1, sizeof *k->out);
    k->in = calloc(3 * cap + 1, sizeof *k->in);
    k->sc = calloc(3 * cap + 1, sizeof *k->sc);
    if (!k->ops || !k->out || !k->in || !k->sc) return false;
    for (uint32_t p = 0; p < pl->nwin; p++) {
        if (kern[p] != (int)kid) continue;
        k->ops[k->nops++] = p;
        if (pl->store[p]) k->out[k->nout++] = p;
        if (w[p].kind == K_GEN && w[p].op != GCA_OP_INDEX) k->sc[k->nsc++] = (gca_ref_t){0, p};
        if (w[p].kind == K_MAP && w[p].op == GCA_OP_POW && w[p].nargs == 1 && !w[p].folded)
            k->sc[k->nsc++] = (gca_ref_t){0, p};
        for (uint32_t i = 0; i < w[p].nargs; i++) {
            gca_ref_t r = w[p].args[i];
            bool loaded = r.ext || kern[r.idx] != (int)kid;
            if (!loaded) continue;
            gca_ref_t *list = (r.ext && e[r.idx].scalar) ? k->sc : k->in;
            uint32_t *cnt = (r.ext && e[r.idx].scalar) ? &k->nsc : &k->nin;
            bool dup = false;
            for (uint32_t j = 0; j < *cnt; j++) dup |= list[j].ext == r.ext && list[j].idx == r.idx;
            if (!dup) list[(*cnt)++] = r;
        }
    }
    uint32_t n = form == KF_AXIS ? (axis == 1 ? rows : cols) : form == KF_MATMUL ? w[k->ops[0]].n : dom_n;
    k->block = BLOCK;
    k->grid = form == KF_FLATRED ? 1 : grid_for(n, ctx->ctas);
    k->smem = 0;
    if (form == KF_FLATRED)
        for (uint32_t i = 0; i < k->nops; i++) k->smem += w[k->ops[i]].kind == K_REDUCE ? BLOCK * 4u : 0u;
    return true;
}

static gca_plan_t *schedule(gca_ctx_t *ctx, const gca_wn_t *w, uint32_t nw, const gca_en_t *e, uint32_t ne) {
    gca_plan_t *pl = calloc(1, sizeof *pl);
    int *kern = malloc((nw ? nw : 1) * sizeof *kern);
    uint8_t *forms = malloc(nw ? nw : 1);
    uint32_t(*geo)[4] = malloc((nw ? nw : 1) * sizeof *geo);
    int *axes = malloc((nw ? nw : 1) * sizeof *axes);
    if (!pl || !kern || !forms || !geo || !axes) goto oom;
    pl->nwin = nw;
    pl->next = ne;
    pl->store = calloc(nw ? nw : 1, 1);
    if (!pl->store) goto oom;
    for (uint32_t p = 0; p < nw; p++) kern[p] = -1;
    sched_t S = {.ctx = ctx, .w = w, .e = e, .nw = nw, .kern = kern};
    uint32_t left = nw;
    while (left) {
        bool progress = false;
        /* 1. the non-fusible ready list: every ready gather / matmul, a kernel each */
        for (uint32_t p = 0; p < nw; p++) {
            if (kern[p] >= 0 || is_fusible(w[p].kind)) continue;
            bool rdy = true;
            for (uint32_t i = 0; i < w[p].nargs; i++) rdy &= avail(&S, w[p].args[i]);
            if (!rdy) continue;
            kern[p] = S.cur;
            forms[S.cur] = w[p].kind == K_GATHER ? KF_GATHER : KF_MATMUL;
            geo[S.cur][0] = w[p].n, geo[S.cur][1] = geo[S.cur][2] = 0;
            axes[S.cur] = -1;
            S.cur++;
            left--;
            progress = true;
        }
        /* 2. the fusible ready list: one kernel grown from a seed (generators only when nothing
         * else is ready), with every compatible op until none can join */
        int seed = -1;
        for (int pass = 0; pass < 2 && seed < 0; pass++)
            for (uint32_t p = 0; p < nw && seed < 0; p++) {
                if (kern[p] >= 0 || !is_fusible(w[p].kind) || (pass == 0 && w[p].kind == K_GEN)) continue;
                bool rdy = true;
                for (uint32_t i = 0; i < w[p].nargs; i++) rdy &= avail(&S, w[p].args[i]);
                if (rdy) seed = (int)p;
            }
        if (seed >= 0) {
            S.form = KF_FLAT, S.axis = -1, S.nops = S.nred = S.nin = S.nuser = 0, S.dom_n = 0;
            add_op(&S, (uint32_t)seed);
            for (bool grew = true; grew;) {
                grew = false;
                for (uint32_t p = 0; p < nw; p++) /* generators join only with a consumer (arg_ok) */
                    if (kern[p] < 0 && w[p].kind != K_GEN && can_add(&S, p, 0)) {
                        add_op(&S, p);
                        grew = true;
                    }
            }
            forms[S.cur] = S.form;
            axes[S.cur] = S.axis;
            geo[S.cur][0] = S.dom_n, geo[S.cur][1] = S.rows, geo[S.cur][2] = S.cols;
            left -= S.nops;
            S.cur++;
            progress = true;
        }
        if (!progress) {
            gca__fail(ctx, GCA_ERROR_INVALID_VALUE, (gca_site_t){__FILE__, __LINE__}, "internal: the schedule is stuck");
            goto oom;
        }
    }
    /* scalar replacement: a value is stored only when the application holds it, a consumer is
     * in another kernel, it is a reduction's result, or reference mode compares it */
    for (uint32_t p = 0; p < nw; p++) {
        if (w[p].user || ctx->cfg.reference || !is_fusible(w[p].kind) || w[p].kind == K_REDUCE) pl->store[p] = 1;
        for (uint32_t i = 0; i < w[p].nargs; i++)
            if (!w[p].args[i].ext && kern[w[p].args[i].idx] != kern[p]) pl->store[w[p].args[i].idx] = 1;
    }
    pl->nk = (uint32_t)S.cur;
    pl->k = calloc(pl->nk ? pl->nk : 1, sizeof *pl->k);
    if (!pl->k) goto oom;
    for (uint32_t k = 0; k < pl->nk; k++)
        if (!kernel_lists(ctx, pl, k, kern, w, e, forms[k], axes[k], geo[k][0], geo[k][1], geo[k][2])) goto oom;
    free(kern);
    free(forms);
    free(geo);
    free(axes);
    return pl;
oom:
    free(kern);
    free(forms);
    free(geo);
    free(axes);
    plan_free(pl);
    return NULL;
}

/* ------------------------------------------------------------------ trace cache */
static uint32_t bucket_of(const uint8_t *key, size_t klen) {
    /* the first entry's call site (file name and line) picks the bucket */
    size_t n = klen < 64 ? klen : 64;
    return (uint32_t)(gca__hash(key, n, GCA_HASH0) % GCA_TRACE_BUCKETS);
}

static gca_plan_t *trace_lookup(gca_ctx_t *ctx, const uint8_t *key, size_t klen) {
    gca_plan_t **pp = &ctx->trace[bucket_of(key, klen)];
    for (gca_plan_t *p = *pp, *prev = NULL; p; prev = p, p = p->next_plan) {
        if (p->klen != klen || memcmp(p->key, key, klen)) continue;
        if (prev) { /* most recently used first */
            prev->next_plan = p->next_plan;
            p->next_plan = *pp;
            *pp = p;
        }
        return p;
    }
    return NULL;
}

static void trace_insert(gca_ctx_t *ctx, gca_plan_t *pl) {
    gca_plan_t **pp = &ctx->trace[bucket_of(pl->key, pl->klen)];
    pl->next_plan = *pp;
    *pp = pl;
    uint32_t n = 0;
    for (gca_plan_t *p = *pp; p; p = p->next_plan)
        if (++n == GCA_TRACE_PER_BUCKET && p->next_plan) { /* least recently used out */
            gca_plan_t *x = p->next_plan;
            p->next_plan = NULL;
            while (x) {
                gca_plan_t *nx = x->next_plan;
                plan_free(x);
                x = nx;
            }
            break;
        }
}

void gca__trace_free(gca_ctx_t *ctx) {
    for (int b = 0; b < GCA_TRACE_BUCKETS; b++) {
        for (gca_plan_t *p = ctx->trace[b], *nx; p; p = nx) {
            nx = p->next_plan;
            plan_free(p);
        }
        ctx->trace[b] = NULL;
    }
}

/* ------------------------------------------------------------------ the window and its key */
typedef struct window {
    uint32_t *slot, n;     /* window positions -> slots */
    uint32_t *ext, ne;     /* external index -> slot */
    gca_wn_t *w;
    gca_en_t *e;
    buf_t key;
} window_t;

static void window_free(window_t *W) {
    free(W->slot);
    free(W->ext);
    free(W->w);
    free(W->e);
    free(W->key.p);
}

static bool build_window(gca_ctx_t *ctx, window_t *W) {
    memset(W, 0, sizeof *W);
    uint32_t n = 0;
    for (uint32_t i = 0; i < ctx->npending; i++) {
        uint32_t slot = ctx->pending[2 * i];
        const gca_node_t *x = gca__node(ctx, slot);
        if (x->state == ST_PENDING && x->seq == ctx->pending[2 * i + 1]) ctx->pending[2 * n] = slot, ctx->pending[2 * n + 1] = x->seq, n++;
    }
    ctx->npending = n;
    W->slot = malloc((n ? n : 1) * sizeof *W->slot);
    W->ext = malloc((3 * n + 1) * sizeof *W->ext);
    W->w = calloc(n ? n : 1, sizeof *W->w);
    W->e = calloc(3 * n + 1, sizeof *W->e);
    if (!W->slot || !W->ext || !W->w || !W->e) return false;
    W->n = n;
    for (uint32_t p = 0; p < n; p++) {
        W->slot[p] = ctx->pending[2 * p];
        gca__node(ctx, W->slot[p])->wpos = p;
    }
    buf_t *k = &W->key;
    uint32_t hdr[8] = {ctx->cfg.fusion, ctx->cfg.reference, ctx->cfg.max_kernel_ops, ctx->cfg.max_kernel_inputs,
                       ctx->cfg.max_kernel_outputs, (uint32_t)ctx->cfg.debug_wrong_op, n, 0};
    for (uint32_t p = 0; p < n; p++) {
        const gca_node_t *x = gca__node(ctx, W->slot[p]);
        gca_wn_t *w = &W->w[p];
        const char *f = x->site.file ? x->site.file : "";
        put(k, f, strlen(f) + 1); /* the call site first: it picks the bucket */
        put32(k, (uint32_t)x->site.line);
        if (p == 0) put(k, hdr, sizeof hdr);
        w->kind = x->kind, w->dt = x->dt, w->ndim = x->ndim, w->user = x->urefs > 0, w->op = x->op, w->axis = x->axis;
        memcpy(w->dims, x->dims, sizeof w->dims);
        w->n = x->n;
        memcpy(w->view, x->view, sizeof w->view);
        w->pbits = x->pbits;
        w->folded = x->folded;
        w->nargs = x->nargs;
        uint32_t ent[12] = {w->kind, (uint32_t)w->op, w->dt, w->ndim, w->dims[0], w->dims[1], (uint32_t)w->axis,
                            w->view[0], w->view[2], w->user, w->folded, w->nargs};
        put(k, ent, sizeof ent);
        for (uint32_t i = 0; i < x->nargs; i++) {
            const gca_node_t *a = gca__node(ctx, x->args[i]);
            if (a->state == ST_PENDING) {
                w->args[i] = (gca_ref_t){0, a->wpos};
                put32(k, 0), put32(k, a->wpos);
                continue;
            }
            uint32_t j = 0;
            while (j < W->ne && W->ext[j] != x->args[i]) j++;
            if (j == W->ne) {
                W->ext[W->ne] = x->args[i];
                gca_en_t *en = &W->e[W->ne++];
                en->scalar = a->kind == K_SCALAR;
                en->dt = a->dt, en->ndim = a->ndim, en->n = a->n;
                memcpy(en->dims, a->dims, sizeof en->dims);
                uint32_t ee[5] = {en->scalar, en->dt, en->ndim, en->dims[0], en->dims[1]};
                put32(k, 2);
                put(k, ee, sizeof ee); /* a plain scalar's value is a kernel argument: not in the key */
            }
            w->args[i] = (gca_ref_t){1, j};
            put32(k, 1), put32(k, j);
        }
    }
    return !k->oom;
}

/* ------------------------------------------------------------------ running a plan */
static uint32_t kptr(gca_ctx_t *ctx, uint32_t slot) { return gcrt_kernel_ptr(gca__node(ctx, slot)->buf); }

static uint32_t ref_slot(const window_t *W, gca_ref_t r) { return r.ext ? W->ext[r.idx] : W->slot[r.idx]; }

static void site_str(char *d, size_t len, gca_site_t s) {
    const char *f = s.file ? strrchr(s.file, '/') : NULL;
    snprintf(d, len, "%s:%d", f ? f + 1 : s.file ? s.file : "?", s.line);
}

static gca_error_t run_plan(gca_ctx_t *ctx, gca_site_t s, const gca_plan_t *pl, const window_t *W) {
    gca_error_t ret = GCA_SUCCESS;
    gcrt_error_t e = GCRT_SUCCESS;
    uint64_t *gerr = calloc(pl->nk ? pl->nk : 1, sizeof *gerr);
    if (!gerr) return gca__fail(ctx, GCA_ERROR_INVALID_VALUE, s, "out of host memory");
    for (uint32_t p = 0; p < W->n && e == GCRT_SUCCESS; p++) {
        if (!pl->store[p]) continue;
        gca_node_t *x = gca__node(ctx, W->slot[p]);
        e = gcrt_malloc(ctx->rt, &x->buf, (uint64_t)x->n * 4u);
        if (e != GCRT_SUCCESS) break;
        x->has_buf = true;
        ctx->st.allocations++;
        ctx->st.bytes_allocated += (uint64_t)x->n * 4u;
    }
    const gcrt_op_t *ops;
    size_t nops0 = 0;
    if (e == GCRT_SUCCESS) e = gcrt_ops(ctx->rt, &ops, &nops0);
    uint32_t beats0 = 0, beats1 = 0;
    gc_mmio_read(gcrt_device(ctx->rt), GC_REG_COMPUTE_LSU_BEATS, &beats0);
    for (uint32_t ki = 0; ki < pl->nk && e == GCRT_SUCCESS; ki++) {
        const gca_pk_t *k = &pl->k[ki];
        uint32_t P[512], np = 0;
        for (uint32_t i = 0; i < k->nin && np < 500; i++) P[np++] = kptr(ctx, ref_slot(W, k->in[i]));
        for (uint32_t i = 0; i < k->nout && np < 500; i++) P[np++] = kptr(ctx, W->slot[k->out[i]]);
        for (uint32_t i = 0; i < k->nsc && np < 500; i++) P[np++] = gca__node(ctx, ref_slot(W, k->sc[i]))->pbits;
        if (k->form == KF_AXIS) P[np++] = k->rows, P[np++] = k->cols;
        else if (k->form == KF_MATMUL) {
            const gca_wn_t *m = &W->w[k->ops[0]];
            const gca_node_t *a = gca__node(ctx, ref_slot(W, m->args[0]));
            P[np++] = a->dims[0], P[np++] = a->dims[1], P[np++] = m->dims[1];
        } else if (k->form == KF_GATHER) {
            const gca_wn_t *g = &W->w[k->ops[0]];
            P[np++] = g->n;
            P[np++] = gca__node(ctx, ref_slot(W, g->args[0]))->n;
            e = gcrt_malloc(ctx->rt, &gerr[ki], 16);
            uint32_t z[4] = {0, 0, 0, 0};
            if (e == GCRT_SUCCESS) e = gcrt_write(ctx->rt, gerr[ki], z, sizeof z);
            if (e != GCRT_SUCCESS) break;
            P[np++] = gcrt_kernel_ptr(gerr[ki]);
        } else P[np++] = k->dom_n;
        uint32_t grid[3] = {k->grid, 1, 1}, block[3] = {k->block, 1, 1};
        e = gcrt_launch(ctx->rt, ctx->cfg.stream, k->prog->img, k->name, grid, block, P, np * 4u, k->smem);
        if (e == GCRT_SUCCESS) ctx->st.kernels_launched++;
    }
    if (e == GCRT_SUCCESS) e = gcrt_stream_synchronize(ctx->rt, ctx->cfg.stream);
    if (e != GCRT_SUCCESS) {
        ret = gca__fail(ctx, GCA_ERROR_RUNTIME, s, "running %u kernel(s): %s (%s)", pl->nk, gcrt_error_name(e),
                        gcrt_last_message(ctx->rt));
        for (uint32_t p = 0; p < W->n; p++) gca__free_storage(ctx, W->slot[p]);
        for (uint32_t k = 0; k < pl->nk; k++)
            if (gerr[k]) gcrt_free(ctx->rt, gerr[k]);
        free(gerr);
        return ret;
    }
    gc_mmio_read(gcrt_device(ctx->rt), GC_REG_COMPUTE_LSU_BEATS, &beats1);
    ctx->st.last_flush_bytes = (uint64_t)(uint32_t)(beats1 - beats0) * ctx->bus_bytes;
    size_t nops1 = 0;
    gcrt_ops(ctx->rt, &ops, &nops1);
    ctx->st.last_flush_cycles = 0;
    uint64_t first = 0, last = 0;
    for (uint32_t ki = 0; ki < pl->nk; ki++) {
        const gca_pk_t *k = &pl->k[ki];
        gca_kernel_info_t *ki_ = &ctx->kinfo[ctx->nkinfo++ % GCA_KINFO_RING];
        free((void *)ki_->source);
        memset(ki_, 0, sizeof *ki_);
        ki_->flush = (uint32_t)ctx->st.flushes;
        snprintf(ki_->name, sizeof ki_->name, "%s", k->name);
        ki_->nops = k->nops;
        size_t off = 0;
        for (uint32_t i = 0; i < k->nops && off < sizeof ki_->ops - 1; i++) {
            const gca_node_t *x = gca__node(ctx, W->slot[k->ops[i]]);
            char site[96];
            site_str(site, sizeof site, x->site);
            int m = snprintf(ki_->ops + off, sizeof ki_->ops - off, "%s%s@%s", i ? " " : "",
                             gca_op_name((gca_op_t)x->op), site);
            if (m < 0) break;
            off += (size_t)m;
        }
        ki_->nin = k->nin;
        ki_->nout = k->nout;
        for (uint32_t i = 0; i < k->nin && i < GCA_KINFO_MAX; i++) ki_->in[i] = gca__id(ctx, ref_slot(W, k->in[i]));
        for (uint32_t i = 0; i < k->nout && i < GCA_KINFO_MAX; i++) ki_->out[i] = gca__id(ctx, W->slot[k->out[i]]);
        ki_->grid = k->grid;
        ki_->block = k->block;
        ki_->key = k->prog->hash;
        ki_->source = strdup(k->src);
        if (nops0 + ki < nops1) {
            ki_->start_cycle = ops[nops0 + ki].start_cycle;
            ki_->end_cycle = ops[nops0 + ki].end_cycle;
            if (!first || ki_->start_cycle < first) first = ki_->start_cycle;
            if (ki_->end_cycle > last) last = ki_->end_cycle;
        }
    }
    ctx->st.last_flush_cycles = last > first ? last - first : 0;
    /* the gather kernels' index checks */
    for (uint32_t ki = 0; ki < pl->nk; ki++) {
        if (!gerr[ki]) continue;
        uint32_t z[4] = {0, 0, 0, 0};
        gcrt_read(ctx->rt, gerr[ki], z, sizeof z);
        gcrt_free(ctx->rt, gerr[ki]);
        if (z[0] && ret == GCA_SUCCESS) {
            const gca_node_t *g = gca__node(ctx, W->slot[pl->k[ki].ops[0]]);
            ret = gca__fail(ctx, GCA_ERROR_INDEX, g->site,
                            "gather: index %d at element %u is outside the source's %u elements (those elements read 0)",
                            (int32_t)z[2], z[1], gca__node(ctx, g->args[0])->n);
        }
    }
    free(gerr);
    for (uint32_t p = 0; p < W->n; p++) gca__node(ctx, W->slot[p])->state = ST_DONE;
    if (ctx->cfg.reference) { /* in creation order: the first op that differs is reported */
        uint64_t before = ctx->st.mismatches;
        for (uint32_t p = 0; p < W->n && ret == GCA_SUCCESS && ctx->st.mismatches == before; p++)
            ret = gca__compare_node(ctx, W->slot[p]);
    }
    /* done values no longer hold their arguments; unstored temporaries go */
    for (uint32_t p = 0; p < W->n; p++) {
        gca_node_t *x = gca__node(ctx, W->slot[p]);
        uint32_t na = x->nargs, args[3];
        memcpy(args, x->args, sizeof args);
        x->nargs = 0;
        x->irefs += 1; /* hold it while its arguments go */
        for (uint32_t i = 0; i < na; i++) gca__irelease(ctx, args[i]);
    }
    for (uint32_t p = 0; p < W->n; p++) gca__irelease(ctx, W->slot[p]);
    ctx->npending = 0;
    return ret;
}

/* The code and programs of a new plan's kernels. */
static gca_error_t build_programs(gca_ctx_t *ctx, gca_site_t s, gca_plan_t *pl, const window_t *W) {
    for (uint32_t ki = 0; ki < pl->nk; ki++) {
        gca_pk_t *k = &pl->k[ki];
        size_t off = (size_t)snprintf(k->name, sizeof k->name, "gca");
        for (uint32_t i = 0; i < k->nops; i++) {
            const char *on = gca_op_name((gca_op_t)W->w[k->ops[i]].op);
            if (off + 1 + strlen(on) >= sizeof k->name) break;
            off += (size_t)snprintf(k->name + off, sizeof k->name - off, "_%s", on);
        }
        k->src = gca__codegen(ctx, k, W->w, W->e);
        if (!k->src) return gca__fail(ctx, GCA_ERROR_INVALID_VALUE, s, "out of host memory");
        gca_error_t e = gca__prog_get(ctx, s, k->src, &k->prog);
        if (e != GCA_SUCCESS) return e;
    }
    return GCA_SUCCESS;
}

gca_error_t gca__flush(gca_ctx_t *ctx, gca_site_t s) {
    if (!ctx->npending) return GCA_SUCCESS;
    window_t W;
    if (!build_window(ctx, &W)) {
        window_free(&W);
        return gca__fail(ctx, GCA_ERROR_INVALID_VALUE, s, "out of host memory");
    }
    if (!W.n) {
        window_free(&W);
        return GCA_SUCCESS;
    }
    ctx->st.flushes++;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    gca_plan_t *pl = ctx->cfg.trace_cache ? trace_lookup(ctx, W.key.p, W.key.n) : NULL;
    gca_error_t e = GCA_SUCCESS;
    if (pl) ctx->st.trace_hits++;
    else {
        ctx->st.trace_misses++;
        ctx->st.scheduler_runs++;
        pl = schedule(ctx, W.w, W.n, W.e, W.ne);
        if (!pl) {
            window_free(&W);
            return ctx->err ? ctx->err : gca__fail(ctx, GCA_ERROR_INVALID_VALUE, s, "out of host memory");
        }
        e = build_programs(ctx, s, pl, &W);
        if (e != GCA_SUCCESS) { /* nothing ran: the ops stay pending, the context usable */
            plan_free(pl);
            window_free(&W);
            return e;
        }
        if (ctx->cfg.trace_cache) {
            pl->key = W.key.p;
            pl->klen = W.key.n;
            W.key.p = NULL;
            trace_insert(ctx, pl);
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    ctx->st.last_plan_us = (double)(t1.tv_sec - t0.tv_sec) * 1e6 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e3;
    e = run_plan(ctx, s, pl, &W);
    if (!ctx->cfg.trace_cache) plan_free(pl);
    window_free(&W);
    return e;
}
