/* ref_ce.c: the ref model's copy engines (ref_ce.h).
 *
 * Copy engine (rtl/gc_copy_engine.sv): a command takes
 *   1 + latency(src) + bytes / min(bytes per cycle of src, dst) + latency(dst) + 2 cycles
 * (a memset: no source term), then the completion release goes through the atomic unit, then
 * one DONE cycle (the release is a WRITE, or the RMW LAUNCH_DMA's SEMAPHORE_REDUCTION asks for;
 * a LAUNCH_DMA with DATA_TRANSFER_TYPE NONE goes straight to it).  The data moves at the end of the
 * copy phase, burst by burst in the engine's write bursts (never across REF_CE_BURST_BYTES); the
 * first burst that would touch memory outside the windows stops the copy (bus error: no release,
 * the launching channel faults).
 */
#include <string.h>

#include "ref_bus.h"
#include "ref_ce.h"

/* Element pattern of a memset: byte i of an element is pat[i] when we[i]; returns its size. */
static uint32_t remap_pattern(const ref_ce_t *e, uint8_t pat[16], uint8_t we[16]) {
    uint32_t csz = GC_COPY_SET_REMAP_COMPONENTS_COMPONENT_SIZE_GET(e->components) + 1u;
    uint32_t ncomp = GC_COPY_SET_REMAP_COMPONENTS_NUM_DST_COMPONENTS_GET(e->components) + 1u;
    const uint32_t sel[4] = {GC_COPY_SET_REMAP_COMPONENTS_DST_X_GET(e->components),
                             GC_COPY_SET_REMAP_COMPONENTS_DST_Y_GET(e->components),
                             GC_COPY_SET_REMAP_COMPONENTS_DST_Z_GET(e->components),
                             GC_COPY_SET_REMAP_COMPONENTS_DST_W_GET(e->components)};
    uint32_t elem = csz * ncomp;
    for (uint32_t b = 0; b < elem; b++) {
        uint32_t s = sel[b / csz], byt = b % csz;
        /* the four DST_k fields share one encoding; a SRC_x component (refused by the PBDMA) is NO_WRITE */
        we[b] = s == GC_COPY_SET_REMAP_COMPONENTS_DST_X_CONST_A || s == GC_COPY_SET_REMAP_COMPONENTS_DST_X_CONST_B;
        uint32_t k = s == GC_COPY_SET_REMAP_COMPONENTS_DST_X_CONST_A ? e->const_a : e->const_b;
        pat[b] = we[b] ? (uint8_t)(k >> (8 * byt)) : 0;
    }
    return elem;
}

static bool range_ok(uint64_t a, uint64_t n) {
    uint64_t lo = a & ~(uint64_t)(REF_BEAT_BYTES - 1u);
    uint64_t hi = (a + n + REF_BEAT_BYTES - 1u) & ~(uint64_t)(REF_BEAT_BYTES - 1u);
    return ref_window(lo, hi - lo) >= 0;
}

/* Bytes of a memset burst that have their write strobe set. */
static uint32_t put_count(const uint8_t *we, uint32_t elem, uint64_t off, uint64_t n) {
    uint32_t c = 0;
    for (uint64_t i = 0; i < n; i++) c += we[(off + i) % elem];
    return c;
}

/* Write n bytes of the stream at dst (a memset: from the pattern at line offset `off`), in pieces
 * through a bounce buffer; returns the bytes written (with their strobes set). */
static uint32_t put(ref_t *r, ref_ce_t *e, uint64_t d, uint64_t s, uint64_t off, uint64_t n, const uint8_t *pat,
                    const uint8_t *we, uint32_t elem, bool drop) {
    uint8_t buf[REF_PAGE_BYTES];
    uint32_t written = 0;
    for (uint64_t i = 0; i < n;) {
        uint64_t k = n - i < sizeof buf ? n - i : sizeof buf;
        if (e->remap) {
            ref_mem_read(r, d + i, buf, k);
            for (uint64_t j = 0; j < k; j++) {
                uint32_t b = (uint32_t)((off + i + j) % elem);
                if (!we[b]) continue;
                buf[j] = pat[b];
                written++;
            }
        } else {
            ref_mem_read(r, s + i, buf, k);
            written += (uint32_t)k;
        }
        if (!drop) ref_mem_write(r, d + i, buf, k);
        i += k;
    }
    return written;
}

/* Walk the command's byte stream in the engine's write bursts.  apply: move the data (with the
 * injected faults) and count the bytes.  A source burst outside memory stops the copy there (its
 * data never comes); a destination burst outside memory is only known when its B response comes
 * back: the bursts whose data arrived meanwhile (while its beats went out, plus a latency, at the
 * stream's rate) are still sent (and counted), those inside memory land.  Returns the stream
 * bytes walked. */
static uint64_t ce_walk(ref_t *r, ref_ce_t *e, bool apply, bool *err) {
    uint8_t pat[16], we[16];
    uint32_t elem = e->remap ? remap_pattern(e, pat, we) : 1u;
    uint64_t wlen = e->remap ? (uint64_t)e->line_len * elem : e->line_len;
    bool inj = r->inject == INJ_FLIP_WRITE || r->inject == INJ_DROP_SEM;
    uint64_t done = 0, stop = REF_NEVER;
    *err = false;
    for (uint32_t k = 0; k < e->line_count && done < stop; k++) {
        uint64_t s = (e->src + (uint64_t)k * e->pitch_in) & REF_ADDR_MASK;
        uint64_t d = (e->dst + (uint64_t)k * e->pitch_out) & REF_ADDR_MASK;
        if (!inj && !*err && (e->remap || range_ok(s, wlen)) && range_ok(d, wlen)) { /* the whole line at once */
            if (apply) {
                e->bytes += put(r, e, d, s, 0, wlen, pat, we, elem, false);
                ref_write_beats(r, d, wlen, NULL, 1, 0);
                ref_snoop(r, d, wlen);
            }
            done += wlen;
            continue;
        }
        for (uint64_t off = 0; off < wlen && done < stop;) {
            uint64_t da = d + off;
            uint64_t n = REF_CE_BURST_BYTES - da % REF_CE_BURST_BYTES;
            if (n > wlen - off) n = wlen - off;
            if (!e->remap && !range_ok(s + off, n)) {
                *err = true;
                return done;
            }
            if (!range_ok(da, n)) {
                if (!*err) { /* the stream moves on while this burst's W beats go out and its B returns */
                    uint64_t rate = ref_bpc(d);
                    if (!e->remap && ref_bpc(s) < rate) rate = ref_bpc(s);
                    stop = done + n + (n / REF_BEAT_BYTES + ref_latency(da)) * rate;
                }
                *err = true;
                if (apply) e->bytes += e->remap ? put_count(we, elem, off, n) : (uint32_t)n;
            } else if (apply) {
                uint64_t beats = ((da + n + REF_BEAT_BYTES - 1u) & ~(uint64_t)(REF_BEAT_BYTES - 1u)) / REF_BEAT_BYTES -
                                 da / REF_BEAT_BYTES;
                bool drop = r->inject == INJ_DROP_SEM && beats == 1u;
                e->bytes += put(r, e, da, s + off, off, n, pat, we, elem, drop);
                if (!drop) {
                    ref_write_beats(r, da, n, e->remap ? we : NULL, elem, off);
                    ref_snoop(r, da, n);
                }
                else r->n_wbeats += beats;
            }
            off += n;
            done += n;
        }
    }
    return done;
}

static uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1u) / b; }

/* The completion release: a WRITE of the payload, or the reduction (RMW) LAUNCH_DMA asked for; 4
 * bytes, or 16 (FOUR_WORD: the 4-byte value, the copy's start stamp, the end stamp). */
static void ce_release(ref_t *r, uint32_t idx) {
    const ref_ce_t *e = &r->ce[idx];
    uint64_t wdata = e->sem_payload | (e->sem_four ? (uint64_t)e->start << 32 : 0u);
    ref_au_request(r, GC_NUM_RUNLISTS + idx, e->sem_reduce ? AU_RMW : AU_WRITE, e->sem_four ? REF_AU_16W : 4u,
                   e->sem_addr, wdata, e->sem_red, e->sem_signed);
}

void ref_ce_launch(ref_t *r, uint32_t idx, const ref_chan_t *c, uint32_t ch, uint32_t launch) {
    ref_ce_t *e = &r->ce[idx];
    const uint32_t *m = c->mreg;
    const uint64_t hi_mask = (1ull << (GC_AXI_ADDR_W - 32u)) - 1u;
    uint32_t semt = GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE_GET(launch);
    e->ch = ch;
    e->src = ((GC_COPY_OFFSET_IN_UPPER_UPPER_GET(m[MR_OFS_IN_UPPER]) & hi_mask) << 32) | m[MR_OFS_IN_LOWER];
    e->dst = ((GC_COPY_OFFSET_OUT_UPPER_UPPER_GET(m[MR_OFS_OUT_UPPER]) & hi_mask) << 32) | m[MR_OFS_OUT_LOWER];
    e->line_len = m[MR_LINE_LEN];
    e->line_count = GC_COPY_LAUNCH_DMA_MULTI_LINE_ENABLE_GET(launch) == GC_COPY_LAUNCH_DMA_MULTI_LINE_ENABLE_TRUE
                        ? m[MR_LINE_COUNT] : 1u;
    e->pitch_in = m[MR_PITCH_IN];
    e->pitch_out = m[MR_PITCH_OUT];
    e->copy = GC_COPY_LAUNCH_DMA_DATA_TRANSFER_TYPE_GET(launch) != GC_COPY_LAUNCH_DMA_DATA_TRANSFER_TYPE_NONE;
    e->remap = GC_COPY_LAUNCH_DMA_REMAP_ENABLE_GET(launch) == GC_COPY_LAUNCH_DMA_REMAP_ENABLE_TRUE;
    e->const_a = m[MR_REMAP_A];
    e->const_b = m[MR_REMAP_B];
    e->components = m[MR_REMAP_COMP];
    e->sem = semt != GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE_NONE;
    e->sem_four = semt == GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE_RELEASE_FOUR_WORD_SEMAPHORE;
    e->sem_addr = ((GC_COPY_SET_SEMAPHORE_A_UPPER_GET(m[MR_CE_SEM_A]) & hi_mask) << 32) | m[MR_CE_SEM_B];
    e->sem_payload = m[MR_CE_SEM_PAY];
    e->sem_reduce = GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_ENABLE_GET(launch) ==
                    GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_ENABLE_TRUE;
    e->sem_red = GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_GET(launch);
    e->sem_signed = GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_SIGN_GET(launch) ==
                    GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_SIGN_SIGNED;
    e->intr = GC_COPY_LAUNCH_DMA_INTERRUPT_TYPE_GET(launch) == GC_COPY_LAUNCH_DMA_INTERRUPT_TYPE_NON_BLOCKING;
    e->err = false;
    e->valid_bytes = 0;
    bool moves = e->copy && e->line_len != 0 && e->line_count != 0;
    uint64_t t0 = r->now + 1u; /* the command handshake */
    e->start = (uint32_t)ref_time(r, t0); /* gc_copy_engine start_q: the time base's low word then */
    if (moves) {
        bool err;
        e->valid_bytes = ce_walk(r, e, false, &err);
        uint64_t bpc = ref_bpc(e->dst), dur;
        if (e->remap) {
            dur = 1u + ref_latency(e->dst) + ceil_div(e->valid_bytes, bpc) + 2u;
        } else {
            if (ref_bpc(e->src) < bpc) bpc = ref_bpc(e->src);
            dur = 1u + ref_latency(e->src) + ceil_div(e->valid_bytes, bpc) + ref_latency(e->dst) + 2u;
        }
        e->state = GC_CE_STATE_COPY;
        e->t_next = t0 + ref_stretch(r, dur);
        if (!e->remap) { /* read bursts: one per REF_CE_BURST_BYTES of each source line (approximately) */
            uint64_t bursts = ceil_div(e->valid_bytes + (uint64_t)e->line_count * (e->src % REF_CE_BURST_BYTES),
                                       REF_CE_BURST_BYTES);
            if (ref_reads_issue(r, bursts ? bursts : 1u) >= 0) e->t_next = REF_NEVER;
        }
    } else if (e->sem) {
        e->state = GC_CE_STATE_SEM;
        ce_release(r, idx);
    } else {
        e->state = GC_CE_STATE_DONE;
        e->t_next = t0 + 1u;
    }
}

bool ref_ce_step(ref_t *r, uint32_t idx) {
    ref_ce_t *e = &r->ce[idx];
    ref_au_req_t *q = &r->au[GC_NUM_RUNLISTS + idx];
    switch (e->state) {
    case GC_CE_STATE_COPY:
        if (r->now < e->t_next) return false;
        ce_walk(r, e, true, &e->err);
        if (e->sem && !e->err) {
            e->state = GC_CE_STATE_SEM;
            ce_release(r, idx);
        } else {
            e->state = GC_CE_STATE_DONE;
            e->t_next = r->now + 1u;
        }
        return true;
    case GC_CE_STATE_SEM:
        if (!q->valid || !q->done) return false;
        e->err = e->err || q->err;
        q->valid = false;
        e->state = GC_CE_STATE_DONE;
        e->t_next = r->now + 1u;
        return true;
    case GC_CE_STATE_DONE:
        if (r->now < e->t_next) return false;
        e->state = GC_CE_STATE_IDLE;
        ref_emit(r, &(ref_event_t){.kind = REF_EV_CE_DONE, .unit = idx + 1u, .err = e->err, .intr = e->intr});
        return true;
    default:
        return false;
    }
}
