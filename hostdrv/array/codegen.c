/* codegen.c: the C source of one kernel of a plan, for riscv64-unknown-elf-gcc (rv32imaf).
 *
 * Every kernel is `gca_<its ops>` (GC_KERNEL of firmware/include/gc_device.h) reading a parameter
 * block of 32-bit words: the thread addresses of the arrays it loads, then of those it stores,
 * then its scalar arguments (application scalars, fill values, random seeds, pow exponents: never
 * in the code, so a changing value does not change the program), then sizes.  Ops become one C
 * statement each on a register temporary `v<position>`, calling the functions of gca_ops.h
 * (the host's reference results call the same ones); an array read element by element is loaded
 * once per element into `x<input>`.  Forms:
 *   flat     a grid-stride loop over the elements (block = a full CTA): U copies of the element
 *            code per pass (all their loads, then their ops, then their stores), then one
 *            element per pass for the rest (unroll_of says how U is chosen)
 *   flatred  the same in one CTA, with each reduction accumulated per thread and combined by a
 *            tree in shared memory (first and last stage in one kernel)
 *   axis     a grid-stride loop over the outputs of reductions along one dimension, each thread
 *            running the fused element ops of its row / column in an inner loop
 *   gather, matmul  the non-fusible intrinsics, one kernel each.
 * Array pointers are `restrict`: a kernel's outputs are new allocations, never one of its inputs.
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
    const char *ix; /* the element index of the copy being written: "i" or "i_<u>" */
    const char *cs; /* its suffix on temporaries: "" or "_<u>" */
    uint8_t *ld;    /* per input: LD_ELEM (loaded per element as x<j><cs>), LD_BCAST (a 0-d value
                       broadcast: loaded once, before the loop, as b<j>) */
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
    if (in_kernel(g, r)) sbf(&g->b, "v%u%s", r.idx, g->cs);
    else if ((j = find(g->k->sc, g->k->nsc, r)) >= 0) sbf(&g->b, "s%d", j);
    else if ((j = find(g->k->in, g->k->nin, r)) >= 0) {
        if (rn(g, r) == 1 && n != 1) sbf(&g->b, "b%d", j);
        else sbf(&g->b, "x%d%s", j, g->cs);
    } else sbf(&g->b, "0 /* ? */");
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
    sbf(&g->b, "        const %s v%u%s = ", ctype(w->dt), p, g->cs);
    switch (w->kind) {
    case K_GEN: {
        int j = find(g->k->sc, g->k->nsc, (gca_ref_t){0, p});
        if (w->op == GCA_OP_FILL) sbf(&g->b, "s%d", j);
        else if (w->op == GCA_OP_RANDOM) sbf(&g->b, "gca_random_f(s%d, %s)", j, g->ix);
        else if (w->ndim == 2) sbf(&g->b, "(%s)(%s %s %uu)", ctype(w->dt), g->ix, w->axis == 0 ? "/" : "%", w->dims[1]);
        else sbf(&g->b, "(%s)%s", ctype(w->dt), g->ix);
        break;
    }
    case K_VIEW: {
        int j = find(g->k->in, g->k->nin, w->args[0]);
        const uint32_t srccols = w->args[0].ext ? g->e[w->args[0].idx].dims[1] : g->w[w->args[0].idx].dims[1];
        if (w->op == GCA_OP_TRANSPOSE)
            sbf(&g->b, "in%d[(%s %% %uu) * %uu + %s / %uu]", j, g->ix, w->dims[1], srccols, g->ix, w->dims[1]);
        else if (w->ndim == 2)
            sbf(&g->b, "in%d[(%uu + %s / %uu) * %uu + %uu + %s %% %uu]", j, w->view[0], g->ix, w->dims[1], srccols,
                w->view[2], g->ix, w->dims[1]);
        else sbf(&g->b, "in%d[%uu + %s]", j, w->view[0], g->ix);
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

enum { LD_ELEM = 1, LD_BCAST = 2 };

/* How ops read each input (as val() names them): element by element (x<j>: loaded once per
 * element, at the top of the element's code, into a register of its own) or broadcast (b<j>). */
static void mark_loads(cg_t *g) {
    for (uint32_t o = 0; o < g->k->nops; o++) {
        const gca_wn_t *w = &g->w[g->k->ops[o]];
        if (w->kind != K_MAP && w->kind != K_REDUCE) continue;
        for (uint32_t a = 0; a < (w->kind == K_REDUCE ? 1u : w->nargs); a++) {
            gca_ref_t r = w->args[a];
            int j = find(g->k->in, g->k->nin, r);
            uint32_t n = w->kind == K_REDUCE ? rn(g, r) : w->n;
            if (!in_kernel(g, r) && find(g->k->sc, g->k->nsc, r) < 0 && j >= 0)
                g->ld[j] |= rn(g, r) == 1 && n != 1 ? LD_BCAST : LD_ELEM;
        }
    }
}

#define MAX_COPIES 8
/* write the code of element copy u (u < 0: the element `i`) */
static void copy_of(cg_t *g, int u) {
    static const char *const ix[MAX_COPIES] = {"i_0", "i_1", "i_2", "i_3", "i_4", "i_5", "i_6", "i_7"};
    g->ix = u < 0 ? "i" : ix[u];
    g->cs = u < 0 ? "" : ix[u] + 1;
}

/* the element loads of one copy */
static void loads(cg_t *g) {
    for (uint32_t j = 0; j < g->k->nin; j++)
        if (g->ld[j] & LD_ELEM)
            sbf(&g->b, "        const %s x%u%s = in%u[%s];\n", ctype(rdt(g, g->k->in[j])), j, g->cs, j, g->ix);
}

/* the element ops of one copy and the reductions' accumulation */
static void ops(cg_t *g) {
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
    }
}

/* the stores of one copy */
static void stores(cg_t *g) {
    for (uint32_t o = 0; o < g->k->nops; o++) {
        uint32_t p = g->k->ops[o];
        int j = g->w[p].kind == K_REDUCE ? -1 : out_index(g, p);
        if (j >= 0) sbf(&g->b, "        out%d[%s] = v%u%s;\n", j, g->ix, p, g->cs);
    }
}

/* the code of `nc` element copies (0: the element `i`): all their loads, then all their ops
 * (reductions accumulate in copy order: the sequence a thread adds in does not change), then all
 * their stores.  A compiler barrier keeps the loads above the ops: gcc's scheduler (which assumes
 * a load takes a few cycles) would otherwise sink each load next to its use, and the warp would
 * wait one memory round trip per use instead of one per pass. */
static void body(cg_t *g, int nc) {
    void (*const phase[3])(cg_t *) = {loads, ops, stores};
    for (int f = 0; f < 3; f++) {
        if (!nc) copy_of(g, -1), phase[f](g);
        for (int u = 0; u < nc; u++) copy_of(g, u), phase[f](g);
        if (f == 0) sbf(&g->b, "        __asm__ volatile(\"\" ::: \"memory\"); /* the loads stay above */\n");
    }
}

/* Whether op p's device code calls a library function (picolibc's libm): a call clobbers the
 * caller-saved registers, so copies around it would spill. */
static bool calls(const gca_wn_t *w) {
    switch (w->op) {
    case GCA_OP_POW: return !w->folded;
    case GCA_OP_EXP: case GCA_OP_LOG: case GCA_OP_SIN: case GCA_OP_COS: case GCA_OP_TANH: case GCA_OP_FLOOR:
    case GCA_OP_CEIL: return true;
    default: return false;
    }
}

/* Copies of the element code per pass of the grid-stride loop (U).  The SM issues a warp's
 * instructions in order and keeps only a few of its loads in flight (gc_sm LD_MAX), so one
 * element per pass leaves a warp waiting a memory round trip before every use; with U copies the
 * loads of later copies are in flight while earlier copies compute (and a fused kernel's FDIV
 * runs beside them).  Bounded so that the copies' values stay in the 32 FP registers:
 * U x loads <= 16 and U x (loads + ops) <= 40, at most 8; 1 when an op calls libm. */
static int unroll_of(const cg_t *g) {
    uint32_t L = 0;
    for (uint32_t j = 0; j < g->k->nin; j++) L += (g->ld[j] & LD_ELEM) != 0;
    for (uint32_t o = 0; o < g->k->nops; o++) {
        const gca_wn_t *w = &g->w[g->k->ops[o]];
        if (calls(w)) return 1;
        L += w->kind == K_VIEW;
    }
    uint32_t u = MAX_COPIES;
    if (L && 16 / L < u) u = 16 / L;
    if (40 / (L + g->k->nops) < u) u = 40 / (L + g->k->nops);
    return u ? (int)u : 1;
}

/* The grid-stride loop over the elements: the stride and the first index read once (CSR reads
 * are volatile: the compiler would repeat them every pass), U copies per pass while U elements
 * remain, then one per pass. */
static void flat_loop(cg_t *g, int U) {
    sb_t *b = &g->b;
    sbf(b, "    const uint32_t S = gc_threads_x();\n    uint32_t i = gc_global_id_x();\n");
    if (U > 1) {
        sbf(b, "    const uint32_t nu = n > %du * S ? n - %du * S : 0u;\n", U - 1, U - 1);
        sbf(b, "    for (; i < nu; i += %du * S) {\n        const uint32_t i_0 = i", U);
        for (int u = 1; u < U; u++) sbf(b, ", i_%d = i + %du * S", u, u);
        sbf(b, ";\n");
        body(g, U);
        sbf(b, "    }\n");
    }
    sbf(b, "    for (; i < n; i += S) {\n");
    body(g, 0);
    sbf(b, "    }\n");
}

char *gca__codegen(const gca_ctx_t *ctx, const gca_pk_t *k, const gca_wn_t *w, const gca_en_t *e) {
    uint8_t *ld = calloc(k->nin + 1u, sizeof *ld);
    if (!ld) return NULL;
    cg_t g = {ctx, k, w, e, {0}, "i", "", ld};
    sb_t *b = &g.b;
    mark_loads(&g);
    sbf(b, "/* generated by gpucosim's array layer (hostdrv/array/codegen.c) */\n#include \"gc_device.h\"\n"
           "#include \"gca_ops.h\"\n\nGC_KERNEL(%s) {\n    const uint32_t *P = gc_param;\n", k->name);
    uint32_t np = 0;
    for (uint32_t i = 0; i < k->nin; i++, np++)
        sbf(b, "    const %s *__restrict in%u = (const %s *)(uintptr_t)P[%u];\n", ctype(rdt(&g, k->in[i])), i,
            ctype(rdt(&g, k->in[i])), np);
    for (uint32_t i = 0; i < k->nout; i++, np++)
        sbf(b, "    %s *__restrict out%u = (%s *)(uintptr_t)P[%u];\n", ctype(w[k->out[i]].dt), i,
            ctype(w[k->out[i]].dt), np);
    for (uint32_t i = 0; i < k->nsc; i++, np++) {
        gca_ref_t r = k->sc[i];
        int dt = r.ext ? e[r.idx].dt : w[r.idx].dt;
        if (!r.ext && w[r.idx].op == GCA_OP_RANDOM) sbf(b, "    const uint32_t s%u = P[%u];\n", i, np);
        else if (dt == GCA_I32) sbf(b, "    const int32_t s%u = (int32_t)P[%u];\n", i, np);
        else sbf(b, "    const float s%u = gca_asf(P[%u]);\n", i, np);
    }
    for (uint32_t j = 0; j < k->nin; j++)
        if (ld[j] & LD_BCAST) sbf(b, "    const %s b%u = in%u[0];\n", ctype(rdt(&g, k->in[j])), j, j);
    const uint32_t B = k->block;
    switch (k->form) {
    case KF_FLAT:
    case KF_FLATRED:
        sbf(b, "    const uint32_t n = P[%u];\n", np);
        for (uint32_t o = 0; o < k->nops; o++)
            if (w[k->ops[o]].kind == K_REDUCE)
                sbf(b, "    %s a%u = %s;\n", ctype(w[k->ops[o]].dt), k->ops[o], init_of(w[k->ops[o]].op, w[k->ops[o]].dt));
        flat_loop(&g, unroll_of(&g));
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
        body(&g, 0);
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
    free(ld);
    if (b->oom) {
        free(b->p);
        return NULL;
    }
    return b->p;
}
