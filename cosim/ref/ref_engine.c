/* ref_engine.c: the ref model's memory windows, atomic unit and copy engines.
 *
 * Memory: the two windows of the spec's memory map; an access outside both (or straddling a
 * window's end) is a bus error, as in cosim/axi_mem.h.  Timing: a read's data comes a latency
 * after it is issued, then one beat (REF_BEAT_BYTES) per beat time of the window.
 *
 * Atomic unit (rtl/gc_atomic_unit.sv): one request at a time, in request order.  A request's memory
 * effect happens when its read data returns or its write lands (the W beat; an RMW reads, computes
 * and writes at once: atomic with respect to every other semaphore access); its response comes
 * when the B response would (a latency after the write landed), and then a WRITE or RMW wakes the
 * acquires waiting on its 8-byte word.  A timestamped release or reduction (16 bytes: the value,
 * for REF_AU_16W a 4-byte value followed by wdata bits 63:32, then the stamp) stores the cycle its
 * write was issued (AW accepted).  A copy engine's FOUR_WORD release carries the copy's start
 * stamp (the cycle counter's low word when the engine took the command) in wdata bits 63:32.
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
#include <stdlib.h>
#include <string.h>

#include "ref.h"

#define STALL_READS_AFTER 4u /* cosim/axi_mem.h: reads stop being answered after the 4th burst */
#define FLIP_BEAT 3u         /* cosim/axi_mem.h: flip-write flips a bit of the 3rd written beat */
#define FLIP_BYTE 1u         /* ... bit 8 of the beat: bit 0 of byte 1 */

static const uint64_t win_base[2] = {GC_SYSMEM_BASE, GC_VIDMEM_BASE};
static const uint64_t win_size[2] = {GC_SYSMEM_SIZE, GC_VIDMEM_SIZE};

int ref_window(uint64_t addr, uint64_t n) {
    for (int w = 0; w < 2; w++)
        if (addr >= win_base[w] && addr - win_base[w] <= win_size[w] && n <= win_size[w] - (addr - win_base[w]))
            return w;
    return -1;
}

bool ref_mem_alloc(ref_t *r) {
    for (int w = 0; w < 2; w++)
        if (!(r->mem[w] = calloc(win_size[w] / REF_CHUNK_BYTES, sizeof(uint8_t *)))) return false;
    return true;
}

void ref_mem_free(ref_t *r) {
    for (int w = 0; w < 2; w++) {
        if (!r->mem[w]) continue;
        for (uint64_t c = 0; c < win_size[w] / REF_CHUNK_BYTES; c++) free(r->mem[w][c]);
        free(r->mem[w]);
        r->mem[w] = NULL;
    }
}

bool ref_mem_read(ref_t *r, uint64_t addr, void *dst, uint64_t n) {
    int w = ref_window(addr, n);
    if (w < 0) return false;
    uint8_t *d = dst;
    for (uint64_t off = addr - win_base[w]; n;) {
        uint64_t c = off / REF_CHUNK_BYTES, in = off % REF_CHUNK_BYTES, k = REF_CHUNK_BYTES - in;
        if (k > n) k = n;
        if (r->mem[w][c]) memcpy(d, r->mem[w][c] + in, k);
        else memset(d, 0, k);
        d += k;
        off += k;
        n -= k;
    }
    return true;
}

bool ref_mem_write(ref_t *r, uint64_t addr, const void *src, uint64_t n) {
    int w = ref_window(addr, n);
    if (w < 0) return false;
    const uint8_t *s = src;
    for (uint64_t off = addr - win_base[w]; n;) {
        uint64_t c = off / REF_CHUNK_BYTES, in = off % REF_CHUNK_BYTES, k = REF_CHUNK_BYTES - in;
        if (k > n) k = n;
        if (!r->mem[w][c] && !(r->mem[w][c] = calloc(1, REF_CHUNK_BYTES))) {
            fprintf(stderr, "ref: out of host memory for the device memory\n");
            abort();
        }
        memcpy(r->mem[w][c] + in, s, k);
        s += k;
        off += k;
        n -= k;
    }
    return true;
}

uint32_t ref_latency(uint64_t addr) {
    switch (ref_window(addr, 1)) {
    case 0: return REF_SYS_LATENCY;
    case 1: return REF_VID_LATENCY;
    default: return REF_BAD_LATENCY;
    }
}

uint32_t ref_bpc(uint64_t addr) {
    switch (ref_window(addr, 1)) {
    case 0: return REF_SYS_BPC;
    case 1: return REF_VID_BPC;
    default: return REF_BEAT_BYTES;
    }
}

static uint64_t rng_next(ref_t *r) {
    r->rng ^= r->rng << 13;
    r->rng ^= r->rng >> 7;
    r->rng ^= r->rng << 17;
    return r->rng;
}

/* Random ready/valid stalls of stall_pct percent make a transfer of c cycles take on average
 * c / (1 - p); here c / (1 - p) plus a random share of c * p. */
uint64_t ref_stretch(ref_t *r, uint64_t c) {
    if (!r->stall_pct || c == REF_NEVER) return c;
    uint64_t base = c * 100u / (100u - r->stall_pct);
    return base + rng_next(r) % (c * r->stall_pct / 100u + 1u);
}

int64_t ref_reads_issue(ref_t *r, uint64_t bursts) {
    int64_t frozen = -1;
    if (r->inject == INJ_STALL_READS && bursts) {
        if (r->n_reads >= STALL_READS_AFTER) frozen = 0;
        else if (bursts > STALL_READS_AFTER - r->n_reads) frozen = (int64_t)(STALL_READS_AFTER - r->n_reads);
    }
    r->n_reads += bursts;
    return frozen;
}

static uint64_t rd_le(const uint8_t *p, uint32_t n) {
    uint64_t v = 0;
    for (uint32_t i = 0; i < n; i++) v |= (uint64_t)p[i] << (8 * i);
    return v;
}

static void wr_le(uint8_t *p, uint64_t v, uint32_t n) {
    for (uint32_t i = 0; i < n; i++) p[i] = (uint8_t)(v >> (8 * i));
}

/* Count the beats of a device write of [addr, addr + n) and apply flip-write to the 3rd beat
 * overall (once the data is in memory; `written(i)` says whether byte i of the range was). */
static void write_beats(ref_t *r, uint64_t addr, uint64_t n, const uint8_t *we, uint32_t we_period,
                        uint64_t we_phase) {
    uint64_t first = addr & ~(uint64_t)(REF_BEAT_BYTES - 1u);
    uint64_t beats = (addr + n - first + REF_BEAT_BYTES - 1u) / REF_BEAT_BYTES;
    if (r->inject != INJ_FLIP_WRITE || r->n_wbeats >= FLIP_BEAT) {
        r->n_wbeats += beats;
        return;
    }
    uint64_t k = FLIP_BEAT - r->n_wbeats - 1u; /* beat index of the 3rd beat inside this write */
    r->n_wbeats += beats;
    if (k >= beats) return;
    uint64_t a = first + k * REF_BEAT_BYTES + FLIP_BYTE;
    if (a < addr || a >= addr + n) return;
    if (we && !we[(we_phase + (a - addr)) % we_period]) return;
    uint8_t b;
    if (ref_mem_read(r, a, &b, 1)) {
        b ^= 1u;
        ref_mem_write(r, a, &b, 1);
    }
}

/* ------------------------------------------------------------------ semaphore arithmetic */
/* gc_sem_pkg::sem_acquire_pass */
bool ref_sem_acquire_pass(uint32_t op, bool is64, uint64_t mem, uint64_t pay) {
    if (!is64) {
        mem = (uint32_t)mem;
        pay = (uint32_t)pay;
    }
    switch (op) {
    case GC_HOST_SEM_EXECUTE_OPERATION_ACQUIRE: return mem == pay;
    case GC_HOST_SEM_EXECUTE_OPERATION_ACQ_STRICT_GEQ: return mem >= pay;
    case GC_HOST_SEM_EXECUTE_OPERATION_ACQ_CIRC_GEQ:
        return is64 ? (int64_t)(mem - pay) >= 0 : (int32_t)(uint32_t)(mem - pay) >= 0;
    case GC_HOST_SEM_EXECUTE_OPERATION_ACQ_AND: return (mem & pay) != 0;
    case GC_HOST_SEM_EXECUTE_OPERATION_ACQ_NOR: return (is64 ? ~(mem | pay) : (uint32_t)~(mem | pay)) != 0;
    default: return false;
    }
}

/* gc_sem_pkg::sem_red_form_ok: the reduction forms NVIDIA's dev_pbdma.ref accepts (INC and DEC
 * unsigned 32-bit only, IADD unsigned only at 64 bits) */
bool ref_sem_red_form_ok(uint32_t red, bool is_signed, bool is64) {
    switch (red) {
    case GC_HOST_SEM_EXECUTE_REDUCTION_IADD: return !(is64 && is_signed);
    case GC_HOST_SEM_EXECUTE_REDUCTION_INC:
    case GC_HOST_SEM_EXECUTE_REDUCTION_DEC: return !is64 && !is_signed;
    default: return true;
    }
}

/* gc_sem_pkg::sem_reduce (NVIDIA's definitions; 32-bit results leave bits 63:32 alone) */
uint64_t ref_sem_reduce(uint32_t red, bool is_signed, bool is64, uint64_t mem, uint64_t operand) {
    bool minmax = red == GC_HOST_SEM_EXECUTE_REDUCTION_IMIN || red == GC_HOST_SEM_EXECUTE_REDUCTION_IMAX;
    uint64_t m, o, res;
    if (is64) {
        m = mem;
        o = operand;
    } else if (minmax && is_signed) {
        m = (uint64_t)(int64_t)(int32_t)(uint32_t)mem;
        o = (uint64_t)(int64_t)(int32_t)(uint32_t)operand;
    } else {
        m = (uint32_t)mem;
        o = (uint32_t)operand;
    }
    bool lt = is_signed ? (int64_t)m < (int64_t)o : m < o;
    switch (red) {
    case GC_HOST_SEM_EXECUTE_REDUCTION_IMIN: res = lt ? m : o; break;
    case GC_HOST_SEM_EXECUTE_REDUCTION_IMAX: res = lt ? o : m; break;
    case GC_HOST_SEM_EXECUTE_REDUCTION_IXOR: res = m ^ o; break;
    case GC_HOST_SEM_EXECUTE_REDUCTION_IAND: res = m & o; break;
    case GC_HOST_SEM_EXECUTE_REDUCTION_IOR: res = m | o; break;
    case GC_HOST_SEM_EXECUTE_REDUCTION_IADD: res = m + o; break;
    case GC_HOST_SEM_EXECUTE_REDUCTION_INC: res = m >= o ? 0 : m + 1u; break;
    case GC_HOST_SEM_EXECUTE_REDUCTION_DEC: res = (m == 0 || m > o) ? o : m - 1u; break;
    default: res = m; break;
    }
    return is64 ? res : ((mem & 0xFFFFFFFF00000000ull) | (uint32_t)res);
}

/* ------------------------------------------------------------------ atomic unit */
void ref_au_request(ref_t *r, uint32_t who, ref_au_op_t op, uint32_t size, uint64_t addr, uint64_t wdata,
                    uint32_t red, bool is_signed) {
    ref_au_req_t *q = &r->au[who];
    uint64_t start = r->now + 1u > r->au_free ? r->now + 1u : r->au_free;
    uint64_t eff = REF_NEVER, t = REF_NEVER;
    if (start != REF_NEVER) {
        uint64_t lat = ref_stretch(r, ref_latency(addr));
        /* READ: grant, AR, latency, R (read here), registered response.
         * WRITE: grant, AW, W (the write lands here), latency, B, registered response.
         * RMW: the read, then the write (lands) and its B. */
        if (op == AU_READ) {
            eff = start + 1u + lat;
            t = eff + 2u;
        } else {
            bool w16 = size == 16u || size == REF_AU_16W; /* a second W beat */
            eff = (op == AU_WRITE ? start + 2u : start + 1u + lat + 2u) + (w16 ? 1u : 0u);
            t = eff + (op == AU_WRITE ? lat : ref_stretch(r, ref_latency(addr))) + 1u;
        }
        if (op != AU_WRITE && ref_reads_issue(r, 1) >= 0) eff = t = REF_NEVER;
    }
    *q = (ref_au_req_t){.valid = true, .t_eff = eff, .t_done = t, .op = op, .size = size,
                        .addr = addr & REF_ADDR_MASK, .wdata = wdata, .red = red, .is_signed = is_signed,
                        .stamp = start + 1u};
    r->au_free = t;
}

static void au_execute(ref_t *r, ref_au_req_t *q) {
    /* vn value bytes; a WRITE or RMW of 16 / 16W writes 16 bytes (the value, then the stamp) */
    uint32_t vn = q->size == 8u || q->size == 16u ? 8u : 4u;
    uint32_t n = (q->size == 16u || q->size == REF_AU_16W) && q->op != AU_READ ? 16u : vn;
    uint64_t beat = q->addr & ~(uint64_t)(REF_BEAT_BYTES - 1u);
    uint64_t span = n > REF_BEAT_BYTES ? n : REF_BEAT_BYTES;
    uint8_t buf[16];
    q->effected = true;
    q->err = ref_window(beat, span) < 0 || !ref_mem_read(r, q->addr, buf, n);
    if (q->err) return;
    q->rdata = rd_le(buf, vn);
    if (q->op == AU_READ) return;
    if (!(r->inject == INJ_DROP_SEM && span == REF_BEAT_BYTES)) { /* drop-sem: single-beat writes vanish */
        wr_le(buf, q->op == AU_RMW ? ref_sem_reduce(q->red, q->is_signed, vn == 8u, q->rdata, q->wdata) : q->wdata, vn);
        if (n == 16u) {
            if (vn == 4u) wr_le(buf + 4, q->wdata >> 32, 4); /* 16W: word 1 (a CE's start stamp) */
            wr_le(buf + 8, q->stamp, 8);
        }
        ref_mem_write(r, q->addr, buf, n);
    }
    write_beats(r, q->addr, n, NULL, 1, 0);
}

/* The response; a WRITE or RMW whose write landed wakes the acquires waiting on its 8-byte word. */
static void au_respond(ref_t *r, ref_au_req_t *q) {
    q->done = true;
    if (q->op != AU_READ && !q->err) {
        for (uint32_t c = 0; c < GC_NUM_CHANNELS; c++)
            if (r->ch[c].acq_arm && (r->ch[c].acq_addr >> 3) == (q->addr >> 3)) r->ch[c].acq_woke = true;
    }
}

/* Apply the memory effects and then the responses that are due, each in cycle order (the unit
 * serves one request at a time, so both orders are the request order). */
bool ref_au_settle(ref_t *r) {
    bool any = false;
    for (;;) {
        int best = -1;
        bool eff = false;
        for (int i = 0; i < (int)REF_NAU; i++) {
            const ref_au_req_t *q = &r->au[i];
            if (!q->valid || q->done) continue;
            bool e = !q->effected;
            uint64_t t = e ? q->t_eff : q->t_done;
            if (t > r->now) continue;
            uint64_t bt = best < 0 ? REF_NEVER : (eff ? r->au[best].t_eff : r->au[best].t_done);
            if (best < 0 || t < bt) {
                best = i;
                eff = e;
            }
        }
        if (best < 0) return any;
        if (eff) au_execute(r, &r->au[best]);
        else au_respond(r, &r->au[best]);
        any = true;
    }
}

/* ------------------------------------------------------------------ copy engine */
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
                write_beats(r, d, wlen, NULL, 1, 0);
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
                if (!drop) write_beats(r, da, n, e->remap ? we : NULL, elem, off);
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
    e->start = (uint32_t)t0;   /* gc_copy_engine start_q: the cycle counter's low word then */
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
        ref_pbdma_ce_done(r, idx + 1u, e->err, e->intr);
        return true;
    default:
        return false;
    }
}
