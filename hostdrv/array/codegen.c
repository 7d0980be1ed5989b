/* codegen.c: the C source of one kernel of a plan, for riscv64-unknown-elf-gcc (rv32imaf).
 *
 * Every kernel is `gca_<its ops>` (GC_KERNEL of firmware/include/gc_device.h) reading a parameter
 * block of 32-bit words: the thread addresses of the arrays it loads, then of those it stores,
 * then its scalar arguments (application scalars, fill values, random seeds, pow exponents: never
 * in the code, so a changing value does not change the program), then sizes.  Ops become one C
 * statement each on a register temporary `v<position>`, calling the functions of gca_ops.h
 * (the host's reference results call the same ones).  Forms:
 *   flat     a grid-stride loop over the elements (block = a full CTA)
 *   flatred  the same in one CTA, with each reduction accumulated per thread and combined by a
 *            tree in shared memory (first and last stage in one kernel)
 *   axis     a grid-stride loop over the outputs of reductions along one dimension, each thread
 *            running the fused element ops of its row / column in an inner loop
 *   gather, matmul  the non-fusible intrinsics, one kernel each.
 * The source is the program cache's key (with the compiler and flags): nothing else changes
 * the binary. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array_int.h"

typedef struct sb {
    char *p;
    size_t n, cap;
    bool oom;
} sb_t;

static void sbf(sb_t *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sbf(sb_t *b, const char *fmt, ...) {
    if (b->oom) return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int m = vsnprintf(b->p ? b->p + b->n : NULL, b->p ? b->cap - b->n : 0, fmt, ap);
        va_end(ap);
        if (m < 0) {
            b->oom = true;
            return;
        }
        if (b->p && b->n + (size_t)m < b->cap) {
            b->n += (size_t)m;
            return;
        }
        size_t cap = b->cap ? 2 * b->cap : 4096;
        while (cap < b->n + (size_t)m + 1) cap *= 2;
        char *p = realloc(b->p, cap);
        if (!p) {
            b->oom = true;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
}

static const char *ctype(int dt) { return dt == GCA_I32 ? "int32_t" : "float"; }
static char sfx(int dt) { return dt == GCA_I32 ? 'i' : 'f'; }

typedef struct cg {
    const gca_ctx_t *ctx;
    const gca_pk_t *k;
    const gca_wn_t *w;
    const gca_en_t *e;
    sb_t b;
} cg_t;

static int find(const gca_ref_t *list, uint32_t n, gca_ref_t r) {
    for (uint32_t i = 0; i < n; i++)
        if (list[i].ext == r.ext && list[i].idx == r.idx) return (int)i;
    return -1;
}
static bool in_kernel(const cg_t *g, gca_ref_t r) {
    if (r.ext) return false;
    for (uint32_t i = 0; i < g->k->nops; i++)
        if (g->k->ops[i] == r.idx) return true;
    return false;
}
static uint32_t rn(const cg_t *g, gca_ref_t r) { return r.ext ? g->e[r.idx].n : g->w[r.idx].n; }
static int rdt(const cg_t *g, gca_ref_t r) { return r.ext ? g->e[r.idx].dt : g->w[r.idx].dt; }

/* the value of argument r for an op of `n` elements at element `i` */
static void val(cg_t *g, gca_ref_t r, uint32_t n) {
    int j;
    if (in_kernel(g, r)) sbf(&g->b, "v%u", r.idx);
    else if ((j = find(g->k->sc, g->k->nsc, r)) >= 0) sbf(&g->b, "s%d", j);
    else if ((j = find(g->k->in, g->k->nin, r)) >= 0) sbf(&g->b, "in%d[%s]", j, rn(g, r) == 1 && n != 1 ? "0" : "i");
    else sbf(&g->b, "0 /* ? */");
}

static const char *fname(int op) {
    switch (op) {
    case GCA_OP_ADD: return "add"; case GCA_OP_SUB: return "sub"; case GCA_OP_MUL: return "mul";
    case GCA_OP_DIV: return "div"; case GCA_OP_MIN: case GCA_OP_RMIN: return "min";
    case GCA_OP_MAX: case GCA_OP_RMAX: return "max"; case GCA_OP_POW: return "pow";
    case GCA_OP_SUM: case GCA_OP_MEAN: return "add"; case GCA_OP_ANY: return "any"; case GCA_OP_ALL: return "all";
    default: return gca_op_name((gca_op_t)op);
    }
}

/* one element op: `T v<p> = ...;` */
static void elem_op(cg_t *g, uint32_t p) {
    const gca_wn_t *w = &g->w[p];
    int op = w->op;
    if (g->ctx->cfg.debug_wrong_op == op) /* the test hook: a deliberately wrong primitive */
        op = op == GCA_OP_ADD ? GCA_OP_SUB : (op <= GCA_OP_POW && w->nargs == 2) ? GCA_OP_ADD : op;
    sbf(&g->b, "        const %s v%u = ", ctype(w->dt), p);
    switch (w->kind) {
    case K_GEN: {
        int j = find(g->k->sc, g->k->nsc, (gca_ref_t){0, p});
        if (w->op == GCA_OP_FILL) sbf(&g->b, "s%d", j);
        else if (w->op == GCA_OP_RANDOM) sbf(&g->b, "gca_random_f(s%d, i)", j);
        else if (w->ndim == 2) sbf(&g->b, "(%s)(i %s %uu)", ctype(w->dt), w->axis == 0 ? "/" : "%", w->dims[1]);
        else sbf(&g->b, "(%s)i", ctype(w->dt));
        break;
    }
    case K_VIEW: {
        int j = find(g->k->in, g->k->nin, w->args[0]);
        const uint32_t srccols = w->args[0].ext ? g->e[w->args[0].idx].dims[1] : g->w[w->args[0].idx].dims[1];
        if (w->op == GCA_OP_TRANSPOSE) sbf(&g->b, "in%d[(i %% %uu) * %uu + i / %uu]", j, w->dims[1], srccols, w->dims[1]);
        else if (w->ndim == 2)
            sbf(&g->b, "in%d[(%uu + i / %uu) * %uu + %uu + i %% %uu]", j, w->view[0], w->dims[1], srccols, w->view[2],
                w->dims[1]);
        else sbf(&g->b, "in%d[%uu + i]", j, w->view[0]);
        break;
    }
    case K_MAP: {
        int adt = rdt(g, w->args[0]);
        if (w->op == GCA_OP_SELECT) {
            sbf(&g->b, "gca_select_%c(", sfx(w->dt));
            for (uint32_t a = 0; a < 3; a++) {
                val(g, w->args[a], w->n);
                sbf(&g->b, a < 2 ? ", " : ")");
            }
        } else if (w->op == GCA_OP_POW && w->nargs == 1) {
            if (w->folded && op == GCA_OP_POW) {
                sbf(&g->b, "gca_mul_f(");
                val(g, w->args[0], w->n);
                sbf(&g->b, ", ");
                val(g, w->args[0], w->n);
                sbf(&g->b, ")");
            } else {
                sbf(&g->b, "gca_%s_f(", op == GCA_OP_POW ? "pow" : fname(op));
                val(g, w->args[0], w->n);
                sbf(&g->b, ", s%d)", find(g->k->sc, g->k->nsc, (gca_ref_t){0, p}));
            }
        } else {
            sbf(&g->b, "gca_%s_%c(", fname(op), sfx(adt));
            for (uint32_t a = 0; a < w->nargs; a++) {
                val(g, w->args[a], w->n);
                sbf(&g->b, a + 1 < w->nargs ? ", " : ")");
            }
        }
        break;
    }
    default: sbf(&g->b, "0"); break;
    }
    sbf(&g->b, ";\n");
}

static const char *init_of(int op, int dt) {
    switch (op) {
    case GCA_OP_RMIN: return dt == GCA_I32 ? "INT32_MAX" : "INFINITY";
    case GCA_OP_RMAX: return dt == GCA_I32 ? "INT32_MIN" : "-INFINITY";
    case GCA_OP_ALL: return "1";
    default: return dt == GCA_I32 ? "0" : "0.0f";
    }
}

static int out_index(const cg_t *g, uint32_t p) {
    for (uint32_t i = 0; i < g->k->nout; i++)
        if (g->k->out[i] == p) return (int)i;
    return -1;
}

/* the element ops of the kernel, their stores and the reductions' accumulation, at element i */
static void body(cg_t *g) {
    for (uint32_t o = 0; o < g->k->nops; o++) {
        uint32_t p = g->k->ops[o];
        const gca_wn_t *w = &g->w[p];
        if (w->kind == K_REDUCE) {
            sbf(&g->b, "        a%u = gca_%s_%c(a%u, ", p, fname(w->op), sfx(w->dt), p);
            val(g, w->args[0], rn(g, w->args[0]));
            sbf(&g->b, ");\n");
            continue;
        }
        elem_op(g, p);
        int j = out_index(g, p);
        if (j >= 0) sbf(&g->b, "        out%d[i] = v%u;\n", j, p);
    }
}

char *gca__codegen(const gca_ctx_t *ctx, const gca_pk_t *k, const gca_wn_t *w, const gca_en_t *e) {
    cg_t g = {ctx, k, w, e, {0}};
    sb_t *b = &g.b;
    sbf(b, "/* generated by gpucosim's array layer (hostdrv/array/codegen.c) */\n#include \"gc_device.h\"\n"
           "#include \"gca_ops.h\"\n\nGC_KERNEL(%s) {\n    const uint32_t *P = gc_param;\n", k->name);
    uint32_t np = 0;
    for (uint32_t i = 0; i < k->nin; i++, np++)
        sbf(b, "    const %s *in%u = (const %s *)(uintptr_t)P[%u];\n", ctype(rdt(&g, k->in[i])), i,
            ctype(rdt(&g, k->in[i])), np);
    for (uint32_t i = 0; i < k->nout; i++, np++)
        sbf(b, "    %s *out%u = (%s *)(uintptr_t)P[%u];\n", ctype(w[k->out[i]].dt), i, ctype(w[k->out[i]].dt), np);
    for (uint32_t i = 0; i < k->nsc; i++, np++) {
        gca_ref_t r = k->sc[i];
        int dt = r.ext ? e[r.idx].dt : w[r.idx].dt;
        if (!r.ext && w[r.idx].op == GCA_OP_RANDOM) sbf(b, "    const uint32_t s%u = P[%u];\n", i, np);
        else if (dt == GCA_I32) sbf(b, "    const int32_t s%u = (int32_t)P[%u];\n", i, np);
        else sbf(b, "    const float s%u = gca_asf(P[%u]);\n", i, np);
    }
    const uint32_t B = k->block;
    switch (k->form) {
    case KF_FLAT:
    case KF_FLATRED:
        sbf(b, "    const uint32_t n = P[%u];\n", np);
        for (uint32_t o = 0; o < k->nops; o++)
            if (w[k->ops[o]].kind == K_REDUCE)
                sbf(b, "    %s a%u = %s;\n", ctype(w[k->ops[o]].dt), k->ops[o], init_of(w[k->ops[o]].op, w[k->ops[o]].dt));
        sbf(b, "    for (uint32_t i = gc_global_id_x(); i < n; i += gc_threads_x()) {\n");
        body(&g);
        sbf(b, "    }\n");
        if (k->form == KF_FLATRED) {
            sbf(b, "    const uint32_t t = gc_tid_x();\n");
            uint32_t r = 0;
            for (uint32_t o = 0; o < k->nops; o++) {
                uint32_t p = k->ops[o];
                if (w[p].kind != K_REDUCE) continue;
                const char *T = ctype(w[p].dt);
                sbf(b, "    volatile %s *sh%u = (volatile %s *)gc_shared() + %uu;\n", T, p, T, r++ * B);
                sbf(b, "    sh%u[t] = a%u;\n", p, p);
            }
            sbf(b, "    gc_barrier();\n    for (uint32_t h = %uu; h > 0; h >>= 1) {\n        if (t < h) {\n", B / 2);
            for (uint32_t o = 0; o < k->nops; o++) {
                uint32_t p = k->ops[o];
                if (w[p].kind == K_REDUCE)
                    sbf(b, "            sh%u[t] = gca_%s_%c(sh%u[t], sh%u[t + h]);\n", p, fname(w[p].op), sfx(w[p].dt), p, p);
            }
            sbf(b, "        }\n        gc_barrier();\n    }\n    if (t == 0) {\n");
            for (uint32_t o = 0; o < k->nops; o++) {
                uint32_t p = k->ops[o];
                if (w[p].kind != K_REDUCE) continue;
                if (w[p].op == GCA_OP_MEAN) sbf(b, "        out%d[0] = gca_div_f(sh%u[0], (float)n);\n", out_index(&g, p), p);
                else sbf(b, "        out%d[0] = sh%u[0];\n", out_index(&g, p), p);
            }
            sbf(b, "    }\n");
        }
        break;
    case KF_AXIS:
        sbf(b, "    const uint32_t R = P[%u], C = P[%u];\n", np, np + 1);
        sbf(b, "    const uint32_t m = %s, K = %s;\n", k->axis == 1 ? "R" : "C", k->axis == 1 ? "C" : "R");
        sbf(b, "    for (uint32_t o = gc_global_id_x(); o < m; o += gc_threads_x()) {\n");
        for (uint32_t o = 0; o < k->nops; o++)
            if (w[k->ops[o]].kind == K_REDUCE)
                sbf(b, "    %s a%u = %s;\n", ctype(w[k->ops[o]].dt), k->ops[o], init_of(w[k->ops[o]].op, w[k->ops[o]].dt));
        sbf(b, "    for (uint32_t k = 0; k < K; k++) {\n        const uint32_t i = %s;\n",
            k->axis == 1 ? "o * C + k" : "k * C + o");
        body(&g);
        sbf(b, "    }\n");
        for (uint32_t o = 0; o < k->nops; o++) {
            uint32_t p = k->ops[o];
            if (w[p].kind != K_REDUCE) continue;
            if (w[p].op == GCA_OP_MEAN) sbf(b, "    out%d[o] = gca_div_f(a%u, (float)K);\n", out_index(&g, p), p);
            else sbf(b, "    out%d[o] = a%u;\n", out_index(&g, p), p);
        }
        sbf(b, "    }\n");
        break;
    case KF_GATHER: {
        const gca_wn_t *x = &w[k->ops[0]];
        int jx = find(k->in, k->nin, x->args[0]), ji = find(k->in, k->nin, x->args[1]);
        sbf(b, "    const uint32_t n = P[%u], nx = P[%u];\n    volatile uint32_t *err = (volatile uint32_t *)(uintptr_t)P[%u];\n",
            np, np + 1, np + 2);
        sbf(b, "    const int32_t *ix = (const int32_t *)in%d;\n", ji);
        sbf(b, "    for (uint32_t i = gc_global_id_x(); i < n; i += gc_threads_x()) {\n"
               "        const int32_t j = ix[i];\n"
               "        if (j >= 0 && (uint32_t)j < nx) out0[i] = in%d[j];\n"
               "        else {\n            out0[i] = 0;\n            err[1] = i;\n            err[2] = (uint32_t)j;\n"
               "            err[0] = 1;\n        }\n    }\n", jx);
        break;
    }
    case KF_MATMUL: {
        const gca_wn_t *x = &w[k->ops[0]];
        int ja = find(k->in, k->nin, x->args[0]), jb = find(k->in, k->nin, x->args[1]);
        sbf(b, "    const uint32_t M = P[%u], K = P[%u], N = P[%u];\n", np, np + 1, np + 2);
        sbf(b, "    for (uint32_t t = gc_global_id_x(); t < M * N; t += gc_threads_x()) {\n"
               "        const uint32_t r = t / N, c = t %% N;\n        float acc = 0.0f;\n"
               "        for (uint32_t k = 0; k < K; k++) acc = gca_add_f(acc, gca_mul_f(in%d[r * K + k], in%d[k * N + c]));\n"
               "        out0[t] = acc;\n    }\n", ja, jb);
        break;
    }
    default: break;
    }
    sbf(b, "}\n");
    if (b->oom) {
        free(b->p);
        return NULL;
    }
    return b->p;
}
