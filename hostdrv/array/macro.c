/* macro.c: macro record / replay (GCA_MACRO, docs/array.md).
 *
 * Key: the macro id, the number of inputs and outputs, each input's kind (scalar or array),
 * dtype and shape, and the controls' bytes, compared byte for byte.  The first begin with a key
 * records: the body runs, and at the end every op made inside (the pending queue from the begin
 * on: flushes are illegal inside) is copied with its arguments coded as input i or recorded op j.
 * Scalars made inside are recorded by value (the text contradicts itself on constants; here they
 * must match, i.e. they are replayed as recorded).  A later begin with the key replays: the body
 * is skipped and the recorded ops are made again on the new inputs (one flush later fuses and
 * runs them, through the trace cache), random seeds advanced by the replay count.  Releasing an
 * input inside invalidates the key for good (a warning; the body then always runs as plain code).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array_int.h"

static void mfree(gca_macro_t *m) {
    free(m->key);
    free(m->rec);
    free(m->outpos);
    free(m);
}

static bool fail_false(gca_ctx_t *ctx, gca_site_t s, gca_arr_t *outs, uint32_t nout, gca_error_t e, const char *what) {
    for (uint32_t i = 0; outs && i < nout; i++) outs[i] = (gca_arr_t){0};
    gca__fail(ctx, e, s, "%s", what);
    return false;
}

/* Replay m on the input slots: outs get new handles. */
static bool replay(gca_ctx_t *ctx, gca_site_t s, gca_macro_t *m, const uint32_t *inslot, gca_arr_t *outs) {
    uint32_t *slots = calloc(m->nrec ? m->nrec : 1, sizeof *slots);
    if (!slots) return fail_false(ctx, s, outs, m->nout, GCA_ERROR_INVALID_VALUE, "out of host memory");
    m->replays++;
    bool ok = true;
    uint32_t made = 0;
    for (uint32_t r = 0; r < m->nrec && ok; r++, made++) {
        const gca_node_t *x = &m->rec[r];
        uint32_t slot = gca__new_node(ctx, x->site, (gca_kind_t)x->kind, x->op, (gca_dtype_t)x->dt, x->ndim, x->dims);
        if (slot == UINT32_MAX) {
            ok = false;
            break;
        }
        gca_node_t *n = gca__node(ctx, slot);
        n->axis = x->axis;
        memcpy(n->view, x->view, sizeof n->view);
        n->pbits = x->op == GCA_OP_RANDOM ? x->pbits + m->replays : x->pbits;
        n->folded = x->folded;
        n->nargs = x->nargs;
        for (uint32_t i = 0; i < x->nargs; i++) n->args[i] = x->args[i] < m->nin ? inslot[x->args[i]] : slots[x->args[i] - m->nin];
        slots[r] = slot;
        if (x->kind != K_SCALAR && !gca__publish(ctx, x->site, slot).id) ok = false;
    }
    for (uint32_t o = 0; o < m->nout; o++) {
        uint32_t v = m->outpos[o];
        uint32_t slot = v < m->nin ? inslot[v] : slots[v - m->nin];
        if (ok) gca__node(ctx, slot)->urefs++;
        outs[o] = ok ? (gca_arr_t){gca__id(ctx, slot)} : (gca_arr_t){0};
    }
    for (uint32_t r = 0; r < made; r++) gca_release_at(ctx, s, (gca_arr_t){gca__id(ctx, slots[r])});
    free(slots);
    if (ok) ctx->st.macro_replays++;
    return false;
}

bool gca_macro_begin_at(gca_ctx_t *ctx, gca_site_t s, uint32_t id, const gca_arr_t *ins, uint32_t nin,
                        const void *controls, size_t ncontrols, gca_arr_t *outs, uint32_t nout) {
    if (!ctx) return false;
    if (ctx->in_macro)
        return fail_false(ctx, s, outs, nout, GCA_ERROR_MACRO, "gca_macro_begin inside a macro region (nesting and recursion are illegal)");
    if (nin > 64 || (nin && !ins) || (ncontrols && !controls) || !nout || nout > 64 || !outs)
        return fail_false(ctx, s, outs, nout, GCA_ERROR_INVALID_VALUE,
                          "gca_macro_begin: 0..64 inputs, 1..64 outputs (outs not NULL), controls NULL only when empty");
    uint32_t inslot[64];
    for (uint32_t i = 0; i < nin; i++)
        if ((inslot[i] = gca__lookup(ctx, s, ins[i], "gca_macro_begin")) == UINT32_MAX) {
            for (uint32_t j = 0; j < nout; j++) outs[j] = (gca_arr_t){0};
            return false;
        }
    if (gca__flush(ctx, s) != GCA_SUCCESS) { /* a macro begins: what is pending runs first */
        for (uint32_t j = 0; j < nout; j++) outs[j] = (gca_arr_t){0};
        return false;
    }
    size_t klen = 12 + 20 * (size_t)nin + ncontrols;
    uint8_t *key = malloc(klen);
    if (!key) return fail_false(ctx, s, outs, nout, GCA_ERROR_INVALID_VALUE, "out of host memory");
    uint32_t hdr[3] = {id, nin, nout};
    memcpy(key, hdr, 12);
    for (uint32_t i = 0; i < nin; i++) {
        const gca_node_t *n = gca__node(ctx, inslot[i]);
        uint32_t e[5] = {n->kind == K_SCALAR, n->dt, n->ndim, n->dims[0], n->dims[1]};
        memcpy(key + 12 + 20 * i, e, 20);
    }
    if (ncontrols) memcpy(key + 12 + 20 * nin, controls, ncontrols);
    gca_macro_t *m = ctx->macros;
    while (m && (m->klen != klen || memcmp(m->key, key, klen))) m = m->next;
    if (m && !m->invalid && m->rec) {
        free(key);
        return replay(ctx, s, m, inslot, outs);
    }
    if (!m) {
        m = calloc(1, sizeof *m);
        if (!m) {
            free(key);
            return fail_false(ctx, s, outs, nout, GCA_ERROR_INVALID_VALUE, "out of host memory");
        }
        m->key = key;
        m->klen = klen;
        m->nin = nin;
        m->nout = nout;
        m->next = ctx->macros;
        ctx->macros = m;
    } else free(key);
    ctx->in_macro = true;
    ctx->recording = m->invalid ? NULL : m; /* an invalidated key runs as plain code */
    ctx->rec_first_seq = ctx->seq + 1;
    memcpy(ctx->rec_ins, ins, nin * sizeof *ins);
    ctx->rec_nin = nin;
    ctx->rec_outs = outs;
    ctx->rec_nout = nout;
    ctx->macro_id = id;
    ctx->macro_site = s;
    for (uint32_t j = 0; j < nout; j++) outs[j] = (gca_arr_t){0};
    return true;
}

/* Code a slot as input i or recorded op j (nin + j); UINT32_MAX when it is neither. */
static uint32_t code_of(gca_ctx_t *ctx, uint32_t slot, const uint32_t *rslot, uint32_t nrec) {
    gca_arr_t h = {gca__id(ctx, slot)};
    for (uint32_t i = 0; i < ctx->rec_nin; i++)
        if (ctx->rec_ins[i].id == h.id) return i;
    for (uint32_t r = 0; r < nrec; r++)
        if (rslot[r] == slot) return ctx->rec_nin + r;
    return UINT32_MAX;
}

static gca_error_t finish_recording(gca_ctx_t *ctx, gca_site_t s, gca_macro_t *m) {
    /* the ops made inside: the pending queue from the begin on, with the scalars they use */
    uint32_t cap = 2 * ctx->npending + 2, nrec = 0;
    uint32_t *rslot = malloc(cap * sizeof *rslot);
    gca_node_t *rec = calloc(cap, sizeof *rec);
    if (!rslot || !rec) {
        free(rslot);
        free(rec);
        return gca__fail(ctx, GCA_ERROR_INVALID_VALUE, s, "out of host memory");
    }
    gca_error_t e = GCA_SUCCESS;
    for (uint32_t q = 0; q < ctx->npending && !e; q++) {
        uint32_t slot = ctx->pending[2 * q];
        const gca_node_t *n = gca__node(ctx, slot);
        if (n->state != ST_PENDING || n->seq != ctx->pending[2 * q + 1] || n->seq < ctx->rec_first_seq) continue;
        gca_node_t r = *n;
        r.ref = NULL;
        for (uint32_t i = 0; i < n->nargs && !e; i++) {
            uint32_t c = code_of(ctx, n->args[i], rslot, nrec);
            const gca_node_t *a = gca__node(ctx, n->args[i]);
            if (c == UINT32_MAX && a->kind == K_SCALAR && nrec < cap) { /* a scalar: recorded by value */
                rec[nrec] = *a;
                rec[nrec].ref = NULL;
                rec[nrec].nargs = 0;
                rslot[nrec++] = n->args[i];
                c = ctx->rec_nin + nrec - 1;
            }
            if (c == UINT32_MAX)
                e = gca__fail(ctx, GCA_ERROR_MACRO, n->site,
                              "macro %u: %s uses an array made at %s:%d that is neither an input nor made inside",
                              ctx->macro_id, gca_op_name((gca_op_t)n->op), a->site.file ? a->site.file : "?", a->site.line);
            r.args[i] = c;
        }
        if (nrec < cap) {
            rec[nrec] = r;
            rslot[nrec++] = slot;
        }
    }
    uint32_t *outpos = calloc(m->nout, sizeof *outpos);
    for (uint32_t o = 0; o < m->nout && !e; o++) {
        uint32_t slot = ctx->rec_outs[o].id ? gca__lookup(ctx, s, ctx->rec_outs[o], "gca_macro_end") : UINT32_MAX;
        uint32_t c = slot == UINT32_MAX ? UINT32_MAX : code_of(ctx, slot, rslot, nrec);
        if (c == UINT32_MAX)
            e = gca__fail(ctx, GCA_ERROR_MACRO, s, "macro %u: output %u is not an input or an array made inside", ctx->macro_id, o);
        else if (outpos) outpos[o] = c;
    }
    free(rslot);
    if (e || !outpos) {
        free(rec);
        free(outpos);
        m->invalid = true;
        return e ? e : gca__fail(ctx, GCA_ERROR_INVALID_VALUE, s, "out of host memory");
    }
    m->rec = rec;
    m->nrec = nrec;
    m->outpos = outpos;
    ctx->st.macro_records++;
    return GCA_SUCCESS;
}

gca_error_t gca_macro_end_at(gca_ctx_t *ctx, gca_site_t s, uint32_t id) {
    if (!ctx) return GCA_ERROR_INVALID_VALUE;
    if (!ctx->in_macro)
        return gca__fail(ctx, GCA_ERROR_MACRO, s, "gca_macro_end(%u) without a gca_macro_begin", id);
    if (id != ctx->macro_id)
        return gca__fail(ctx, GCA_ERROR_MACRO, s, "gca_macro_end(%u) does not match gca_macro_begin(%u) at %s:%d", id,
                         ctx->macro_id, ctx->macro_site.file ? ctx->macro_site.file : "?", ctx->macro_site.line);
    ctx->in_macro = false;
    gca_macro_t *m = ctx->recording;
    ctx->recording = NULL;
    if (!m || m->invalid) return GCA_SUCCESS;
    return finish_recording(ctx, s, m);
}

void gca__macros_free(gca_ctx_t *ctx) {
    for (gca_macro_t *m = ctx->macros, *nx; m; m = nx) {
        nx = m->next;
        mfree(m);
    }
    ctx->macros = NULL;
}
