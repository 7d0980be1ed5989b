/* ref_bus.c: the ref model's bus (ref_bus.h): memory windows, atomic unit, interrupt lines and
 * the event port.
 *
 * Memory: the two windows of the spec's memory map; an access outside both (or straddling a
 * window's end) is a bus error, as in cosim/axi_mem.h.  Timing: a read's data comes a latency
 * after it is issued, then one beat (REF_BEAT_BYTES) per beat time of the window.
 *
 * Atomic unit (rtl/gc_atomic_unit.sv): one request at a time, in request order.  A request's memory
 * effect happens when its read data returns or its write lands (the W beat; an RMW reads, computes
 * and writes at once: atomic with respect to every other semaphore access); its response comes
 * when the B response would (a latency after the write landed), and then a WRITE or RMW reports
 * REF_EV_SEM_WRITTEN (ref_snoop: the acquires waiting on its 8-byte word try again; so does every other device write).  A timestamped release or reduction (16 bytes: the value,
 * for REF_AU_16W a 4-byte value followed by wdata bits 63:32, then the stamp) stores the cycle its
 * write was issued (AW accepted).  A copy engine's FOUR_WORD release carries the copy's start
 * stamp (the cycle counter's low word when the engine took the command) in wdata bits 63:32.
 *
 * Events: a unit tells the one above it that something happened (a copy or task completed, a
 * write landed on a semaphore word) with ref_emit; the backend wires the sink at open
 * (backend_ref.c), so the units below never call the ones above (the RTL's ports, in C).
 */
#include <stdlib.h>
#include <string.h>

#include "ref_bus.h"

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

void ref_write_beats(ref_t *r, uint64_t addr, uint64_t n, const uint8_t *we, uint32_t we_period,
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
                        .stamp = ref_time(r, start + 1u)};
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
    ref_write_beats(r, q->addr, n, NULL, 1, 0);
}

/* The response; a WRITE or RMW whose write landed wakes the acquires waiting on its word (the
 * crossbar's snoop follows the B response, as the response does). */
static void au_respond(ref_t *r, ref_au_req_t *q) {
    q->done = true;
    if (q->op != AU_READ && !q->err) {
        ref_snoop(r, q->addr, q->size == 8u || q->size == 16u ? 8u : 4u);
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

/* ------------------------------------------------------------------ interrupt lines, events */
void ref_irq_raise(ref_t *r, uint32_t bits) { r->intr_status |= bits; }
bool ref_irq_raised(const ref_t *r, uint32_t bit) { return (r->intr_status & bit) != 0; }
void ref_nonstall(ref_t *r) { ref_irq_raise(r, GC_GLOBAL_INTR_STATUS_NON_STALL(1)); }

void ref_emit(ref_t *r, const ref_event_t *ev) {
    if (r->sink) r->sink(r, ev);
}
void ref_snoop(ref_t *r, uint64_t addr, uint64_t n) {
    ref_emit(r, &(ref_event_t){.kind = REF_EV_SEM_WRITTEN, .addr = addr, .n = n ? n : 1u});
}
