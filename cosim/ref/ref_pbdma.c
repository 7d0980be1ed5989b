/* ref_pbdma.c: one runlist's host scheduler and PBDMA in the ref model.
 *
 * The rules are gc_pbdma's (rtl/gc_pbdma.sv header comment), at method granularity:
 *   - round robin with interleave rounds (LOW/MEDIUM/HIGH = 1/2/3 turns per round), the selected
 *     channel owns a slice of TIMESLICE cycles (0 counts as 1), renewed silently when nobody else is
 *     runnable; switches only at method boundaries, counted by cause: TIMESLICE, ACQUIRE (a failed
 *     acquire with ACQUIRE_SWITCH_TSG, or a resident retrier whose slice expired), ENGINE (the next
 *     method waits for the engine), EMPTY (the ring is empty);
 *   - forward progress: an expired slice (or a guest's turn) switches a channel away only once it
 *     completed a method, or its entry ended, since it was selected; a guest preempted because the
 *     engine freed and a blocked retrier are exempt;
 *   - a channel whose next method waits for its own copy (every method after a LAUNCH_DMA does), or
 *     whose ring went empty with its copy in flight, keeps the slice ("hold") while guests run host
 *     methods and copy-class parameter methods; a guest leaves (ENGINE) at LAUNCH_DMA, WFI or
 *     RELEASE_WFI while the engine is busy, leaves when its own TIMESLICE of residency is used up
 *     and another guest waits, and is preempted (TIMESLICE) when the engine frees; the owner then
 *     resumes first if its slice has not expired, else round robin continues after it;
 *   - context per channel (decoder, bindings, method registers, the position inside an entry):
 *     a switch costs a CTX_SAVE cycle, the selection cycle, then the GPFIFO read or the refetch
 *     of the pushbuffer from the saved position;
 *   - acquires retry every ACQ_RETRY_INTERVAL cycles (0 counts as 1) or at once when a device
 *     write (the write snoop: the atomic unit, a copy engine, an SM's store) lands on the awaited
 *     8-byte word; ACQ_TIMEOUT faults a channel blocked longer than
 *     that, resident or not.
 * Costs: a pushbuffer dword (header or method) decodes in one cycle once fetched; a GPFIFO entry
 * read takes the latency of the memory it comes from; pushbuffer bursts too, then stream at its
 * rate, as far as the 64-dword FIFO lets them run ahead of the decoder; a semaphore operation is a
 * round trip through the atomic unit; LAUNCH_DMA hands the command over in two cycles.
 *
 * Runlist 0 (compute, docs/tmu.md): the "engine" is the task table, which holds the tasks of
 * several channels at once.  SEND_SIGNALING_PCAS_B SCHEDULE waits only for a free task table entry
 * (ENGINE_WAIT / an ENGINE switch while the table is full); each channel has at most one task in
 * flight and its next method (WFI and RELEASE_WFI included) waits for that task only; the task's
 * completion is reported per channel (REF_EV_TASK_DONE), a faulted task (or one with a faulted
 * descendant) faults its channel with TASK_FAULT.  Guests and the owner's hold work as for a copy
 * runlist, with "the engine is busy" read as "the owner's task is in flight or the table is full".
 */
#include <string.h>

#include "ref_ce.h"
#include "ref_compute.h"
#include "ref_pbdma.h"

#define HOST_END_DW (GC_HOST_METHODS_END / 4u)
#define SELECT_CYCLES 1u /* IDLE: the selection cycle */
#define SWITCH_CYCLES 1u /* CTX_SAVE */
#define DECODE_CYCLES 1u /* one pushbuffer dword */
#define LAUNCH_CYCLES 2u /* LAUNCH_DMA: dispatch, then the command handshake */
#define SEM_ONE_WORD_BYTES 4u
#define SEM_FOUR_WORD_BYTES 16u
#define SEM_64BIT_BYTES 8u
#define DW(method_byte_offset) ((method_byte_offset) / 4u)

static uint32_t ref_err_method(uint32_t subch, uint32_t maddr) {
    return GC_CHANNEL_ERROR_METHOD_SUBCHANNEL(subch) | GC_CHANNEL_ERROR_METHOD_ADDRESS(maddr);
}

void ref_record_fault(ref_t *r, uint32_t ch, uint32_t cause, uint32_t gp_get, uint32_t method, uint32_t data) {
    ref_chan_t *c = &r->ch[ch];
    if (c->err_cause != GC_ERROR_CAUSE_NONE) return;
    c->err_cause = cause;
    c->err_gp_get = gp_get;
    c->err_method = method;
    c->err_data = data;
    c->acq_blk = c->acq_arm = c->acq_woke = c->eng_wait = false;
    ref_irq_raise(r, GC_GLOBAL_INTR_STATUS_CHANNEL_FAULT(1));
}

static uint32_t at_least_1(uint32_t v) { return v ? v : 1u; }
static bool resident(const ref_pbdma_t *p) { return p->state != GC_PBDMA_STATE_IDLE; }
static bool is_guest(const ref_pbdma_t *p) { return p->own_vld && p->own != p->cur; }

static uint32_t ring_mask(uint32_t log2) { return log2 ? 0xFFFFFFFFu >> (32u - log2) : 0u; }

static uint64_t gp_addr(const ref_chan_t *c) {
    return (c->gpfifo_base + (uint64_t)(c->gp_get & ring_mask(c->log2)) * REF_GP_ENTRY_BYTES) & REF_ADDR_MASK;
}

static bool acq_due(const ref_t *r, const ref_chan_t *c) { return r->now - c->acq_fail_t >= at_least_1(r->acq_retry); }

static bool acq_to(const ref_t *r, const ref_chan_t *c) {
    return c->acq_blk && c->acq_timeout != 0 && r->now - c->acq_blk_t > c->acq_timeout;
}

/* The engine cannot take another command: the copy engine is busy, or (runlist 0) the task table
 * is full. */
static bool eng_full(const ref_t *r, uint32_t rl) { return rl == 0 ? !ref_cmp_can_launch(r) : r->pb[rl].ce_busy; }

/* The owner's engine work is still in flight (it keeps its slice while guests run). */
static bool own_busy(const ref_t *r, const ref_pbdma_t *p) {
    if (p->rl != 0) return p->ce_busy;
    const ref_chan_t *o = &r->ch[p->own];
    return p->own_vld && (o->ce_pend || (o->ew_launch && !ref_cmp_can_launch(r)));
}

static bool ref_runnable(const ref_t *r, uint32_t rl, uint32_t i) {
    const ref_chan_t *c = &r->ch[i];
    return c->runlist == rl && c->enable && c->err_cause == GC_ERROR_CAUSE_NONE &&
           (c->gp_get != c->gp_put || c->in_ent) && (!c->acq_blk || acq_due(r, c) || c->acq_woke) &&
           (!c->eng_wait || !eng_full(r, rl)) && !c->ce_pend;
}

static uint32_t runnable_mask(const ref_t *r, uint32_t rl) {
    uint32_t m = 0;
    for (uint32_t i = 0; i < GC_NUM_CHANNELS; i++)
        if (ref_runnable(r, rl, i)) m |= 1u << i;
    return m;
}

/* Round robin with interleave rounds from (rr_rnd, rr_ptr): the first runnable channel after
 * rr_ptr in round rr_rnd, then the rounds after it (a channel is eligible in round k when its
 * LEVEL >= k), back to rr_ptr itself. */
static bool rr_pick(const ref_t *r, const ref_pbdma_t *p, uint32_t *ch, uint32_t *rnd) {
    uint32_t run = runnable_mask(r, p->rl);
    if (!run) return false;
    for (uint32_t k = 0; k <= REF_NROUNDS; k++) {
        uint32_t rd = (p->rr_rnd + k) % REF_NROUNDS;
        for (uint32_t i = 0; i < GC_NUM_CHANNELS; i++) {
            bool pos_ok = k == 0 ? i > p->rr_ptr : (k == REF_NROUNDS ? i <= p->rr_ptr : true);
            if (pos_ok && (run >> i & 1u) && r->ch[i].interleave >= rd) {
                *ch = i;
                *rnd = rd;
                return true;
            }
        }
    }
    return false;
}

/* Channels that may run as guests: runnable and not the owner. */
static uint32_t guest_mask(const ref_t *r, const ref_pbdma_t *p) {
    uint32_t m = runnable_mask(r, p->rl);
    if (p->own_vld) m &= ~(1u << p->own);
    return m;
}

static bool g_pick(const ref_t *r, const ref_pbdma_t *p, uint32_t *ch) {
    uint32_t m = guest_mask(r, p);
    for (uint32_t i = 1; m && i <= GC_NUM_CHANNELS; i++) {
        uint32_t c = (p->g_ptr + i) % GC_NUM_CHANNELS;
        if (m >> c & 1u) {
            *ch = c;
            return true;
        }
    }
    return false;
}

static uint32_t not_cur(const ref_pbdma_t *p) { return resident(p) ? ~(1u << p->cur) : ~0u; }
static bool other_run(const ref_t *r, const ref_pbdma_t *p) { return (runnable_mask(r, p->rl) & not_cur(p)) != 0; }
static bool guest_avail(const ref_t *r, const ref_pbdma_t *p) { return (guest_mask(r, p) & not_cur(p)) != 0; }

static bool slice_exp(const ref_t *r, const ref_pbdma_t *p) {
    return p->own_vld && r->now - p->slice_t >= at_least_1(r->ch[p->own].timeslice);
}

static bool guest_exp(const ref_t *r, const ref_pbdma_t *p) {
    return is_guest(p) && r->now - p->turn_t >= at_least_1(r->ch[p->cur].timeslice);
}

/* Round robin would pick the resident channel again (e.g. a HIGH channel's next turn). */
static bool self_next(const ref_t *r, const ref_pbdma_t *p, uint32_t *rnd) {
    uint32_t c;
    return rr_pick(r, p, &c, rnd) && c == p->cur;
}

/* A time-slice switch is wanted at this method boundary.  Forward progress: an expired slice (owner)
 * or turn (guest) switches the channel away only once it has completed a method since it was
 * selected (progress true; an entry that completes is progress too: seg_done passes true), so a
 * slice shorter than the memory latency cannot throw away every fetch.  A guest preempted because
 * the owner's engine work is over leaves at once (the owner makes the progress); a channel blocked
 * on an acquire (ACQ_RETRY) passes true: its failed attempt was made. */
static bool sw_ts(const ref_t *r, const ref_pbdma_t *p, bool progress) {
    if (is_guest(p)) return (p->hold && !own_busy(r, p)) || (guest_exp(r, p) && guest_avail(r, p) && progress);
    uint32_t rnd;
    return progress && slice_exp(r, p) && !r->ch[p->cur].ce_pend && other_run(r, p) && !self_next(r, p, &rnd);
}

/* The resident channel completed a method since it was selected. */
static bool made_progress(const ref_t *r, const ref_pbdma_t *p) { return r->ch[p->cur].methods != p->sel_methods; }

void ref_pbdma_init(ref_t *r, uint32_t rl) {
    ref_pbdma_t *p = &r->pb[rl];
    memset(p, 0, sizeof *p);
    p->rl = rl;
    p->has_ce = rl <= GC_NUM_CE; /* runlist 0: the compute engine, n >= 1: CE n - 1 */
    p->state = GC_PBDMA_STATE_IDLE;
    p->rr_ptr = GC_NUM_CHANNELS - 1u;
    p->rr_rnd = REF_NROUNDS - 1u; /* the first search starts with round 0 */
}

/* ------------------------------------------------------------------ transitions */
static bool leave(ref_t *r, ref_pbdma_t *p, ref_sw_t cause, bool save) {
    ref_chan_t *c = &r->ch[p->cur];
    c->sw_count[cause]++;
    p->switches++;
    if (save) {
        c->in_ent = true;
        c->ent_addr = p->seg_addr;
        c->ent_left = p->seg_left;
        c->ent_get = p->ent0_get;
        c->ent_sync = p->sync;
    }
    if (!is_guest(p)) {
        /* the owner keeps the slice only while its engine work is in flight */
        if (cause == SW_ENGINE || (cause == SW_EMPTY && c->ce_pend)) {
            p->hold = true;
        } else {
            p->own_vld = false;
            p->hold = false;
        }
    } else if (cause == SW_ENGINE) {
        c->eng_wait = true;
    }
    p->state = GC_PBDMA_STATE_CTX_SAVE;
    p->busy_until = r->now + SWITCH_CYCLES;
    return true;
}

static bool fault(ref_t *r, ref_pbdma_t *p, uint32_t cause, uint32_t method, uint32_t data) {
    ref_chan_t *c = &r->ch[p->cur];
    if (cause == GC_ERROR_CAUSE_ACQUIRE_TIMEOUT) c->acq_blk = c->acq_arm = false;
    p->state = GC_PBDMA_STATE_FAULT;
    p->busy_until = r->now + 1u;
    ref_record_fault(r, p->cur, cause, c->gp_get, method, data);
    return true;
}

/* The GPFIFO entry at GP_GET: one 8-byte read issued at cycle t. */
static void gp_issue(ref_t *r, ref_pbdma_t *p, uint64_t t) {
    uint64_t a = gp_addr(&r->ch[p->cur]);
    p->state = GC_PBDMA_STATE_GP_WAIT;
    p->busy_until = t + 1u + ref_stretch(r, ref_latency(a)) + 1u;
    if (ref_reads_issue(r, 1) >= 0) p->busy_until = REF_NEVER;
}

/* Pushbuffer fetch (gc_pbdma): bursts of at most AXI_MAX_BURST beats that never cross 4 KiB, one
 * request per cycle, a burst only when the dword FIFO has room for it: dwords requested ahead of
 * the decoder (buffered or still in flight) plus the burst's stay within REF_PB_FIFO_DWORDS.
 * Beats come a latency after the request, one per beat time, never overlapping the previous
 * burst's.  Called whenever the decoder consumes a dword. */
static void pb_issue(ref_t *r, ref_pbdma_t *p, uint64_t t) {
    const uint64_t beat_mask = ~(uint64_t)(REF_BEAT_BYTES - 1u);
    uint64_t head = p->seg_addr & beat_mask;
    uint32_t keep = 0;
    for (uint32_t i = 0; i < p->nburst; i++) /* forget bursts the decoder is past */
        if (p->burst[i].addr + (uint64_t)p->burst[i].beats * REF_BEAT_BYTES > head) p->burst[keep++] = p->burst[i];
    p->nburst = keep;
    while (p->fetch_next < p->fetch_end && p->nburst < REF_PB_BURSTS) {
        uint64_t beats = (p->fetch_end - p->fetch_next + REF_BEAT_BYTES - 1u) / REF_BEAT_BYTES;
        uint64_t to_page = (REF_PAGE_BYTES - p->fetch_next % REF_PAGE_BYTES) / REF_BEAT_BYTES;
        if (beats > GC_AXI_MAX_BURST) beats = GC_AXI_MAX_BURST;
        if (beats > to_page) beats = to_page;
        uint64_t ahead = p->fetch_next > p->seg_addr ? (p->fetch_next - p->seg_addr) / 4u : 0;
        if (ahead + beats * (REF_BEAT_BYTES / 4u) > REF_PB_FIFO_DWORDS) break;
        uint64_t ar = t > p->last_ar ? t : p->last_ar + 1u;
        uint64_t first = ar + 1u + p->fetch_lat;
        if (p->last_beat != REF_NEVER && first < p->last_beat + p->fetch_step) first = p->last_beat + p->fetch_step;
        if (ref_reads_issue(r, 1) >= 0 || p->last_beat == REF_NEVER) first = REF_NEVER;
        p->burst[p->nburst++] = (struct ref_burst){.addr = p->fetch_next, .t_first = first, .beats = (uint32_t)beats};
        p->last_ar = ar;
        p->last_beat = first == REF_NEVER ? REF_NEVER : first + (beats - 1u) * p->fetch_step;
        p->fetch_next += beats * REF_BEAT_BYTES;
    }
}

/* Start (or restart after a switch) fetching the segment from seg_addr at cycle t0. */
static void start_fetch(ref_t *r, ref_pbdma_t *p, uint64_t t0) {
    p->fetch_next = p->seg_addr & ~(uint64_t)(REF_BEAT_BYTES - 1u);
    p->fetch_end = p->seg_addr + 4ull * p->seg_left;
    p->fetch_lat = ref_stretch(r, ref_latency(p->seg_addr));
    p->fetch_step = REF_BEAT_BYTES / ref_bpc(p->seg_addr);
    p->last_ar = 0;
    p->last_beat = 0;
    p->nburst = 0;
    pb_issue(r, p, t0);
}

/* Cycle the pushbuffer dword at `a` is in the PBDMA's FIFO (REF_NEVER: not requested yet). */
static uint64_t dword_avail(const ref_pbdma_t *p, uint64_t a) {
    uint64_t beat = a & ~(uint64_t)(REF_BEAT_BYTES - 1u);
    for (uint32_t i = 0; i < p->nburst; i++) {
        const struct ref_burst *b = &p->burst[i];
        if (beat < b->addr || beat >= b->addr + (uint64_t)b->beats * REF_BEAT_BYTES) continue;
        if (b->t_first == REF_NEVER) return REF_NEVER;
        return b->t_first + (beat - b->addr) / REF_BEAT_BYTES * p->fetch_step + 1u;
    }
    return REF_NEVER;
}

static void select_ch(ref_t *r, ref_pbdma_t *p, uint32_t sel) {
    ref_chan_t *c = &r->ch[sel];
    p->cur = sel;
    p->turn_t = r->now;
    p->sel_methods = c->methods;
    c->eng_wait = false;
    if (c->in_ent) { /* resume mid-entry: refetch from the saved position */
        c->in_ent = false;
        p->seg_addr = c->ent_addr;
        p->seg_left = c->ent_left;
        p->ent0_get = c->ent_get;
        p->sync = c->ent_sync;
        p->state = GC_PBDMA_STATE_PB_FETCH;
        p->busy_until = r->now + SELECT_CYCLES;
        start_fetch(r, p, r->now + SELECT_CYCLES);
    } else {
        gp_issue(r, p, r->now + SELECT_CYCLES);
    }
}

static bool idle_step(ref_t *r, ref_pbdma_t *p) {
    uint32_t sel, rnd;
    if (p->own_vld && p->hold) {
        if (!own_busy(r, p)) {
            if (!slice_exp(r, p) && ref_runnable(r, p->rl, p->own)) {
                p->hold = false;
                select_ch(r, p, p->own);
                return true;
            }
            /* the owner gives up its slice; an expired one counts as a TIMESLICE switch */
            if (slice_exp(r, p)) {
                r->ch[p->own].sw_count[SW_TIMESLICE]++;
                p->switches++;
            }
            p->own_vld = p->hold = false;
            p->busy_until = r->now + 1u;
            return true;
        }
        if (!g_pick(r, p, &sel)) return false;
        p->g_ptr = sel;
        select_ch(r, p, sel);
        return true;
    }
    if (!rr_pick(r, p, &sel, &rnd)) return false;
    p->own_vld = true;
    p->own = sel;
    p->hold = false;
    p->slice_t = r->now;
    p->rr_ptr = sel;
    p->rr_rnd = rnd;
    select_ch(r, p, sel);
    return true;
}

static bool gp_done(ref_t *r, ref_pbdma_t *p) {
    ref_chan_t *c = &r->ch[p->cur];
    uint64_t a = gp_addr(c);
    uint32_t e[2];
    if (!ref_mem_read(r, a, e, REF_GP_ENTRY_BYTES)) return fault(r, p, GC_ERROR_CAUSE_BUS_ERROR, 0, (uint32_t)a);
    uint32_t e0 = e[0], e1 = e[1];
    if (GC_GP_ENTRY1_LENGTH_GET(e1) == 0) { /* control entry */
        if (GC_GP_ENTRY1_OPCODE_GET(e1) != GC_GP_ENTRY1_OPCODE_NOP)
            return fault(r, p, GC_ERROR_CAUSE_INVALID_GPFIFO_ENTRY, 0, e1);
        p->state = GC_PBDMA_STATE_SEG_DONE;
        p->busy_until = r->now + 1u;
        return true;
    }
    if (GC_GP_ENTRY1_LEVEL_GET(e1) == GC_GP_ENTRY1_LEVEL_SUBROUTINE)
        return fault(r, p, GC_ERROR_CAUSE_INVALID_GPFIFO_ENTRY, 0, e1);
    if (GC_GP_ENTRY0_FETCH_GET(e0) != 0) return fault(r, p, GC_ERROR_CAUSE_UNSUPPORTED, 0, e0);
    p->ent0_get = GC_GP_ENTRY0_GET_GET(e0);
    p->sync = GC_GP_ENTRY1_SYNC_GET(e1) == GC_GP_ENTRY1_SYNC_WAIT;
    p->seg_addr = ((uint64_t)GC_GP_ENTRY1_GET_HI_GET(e1) << 32) | ((uint64_t)GC_GP_ENTRY0_GET_GET(e0) << 2);
    p->seg_left = GC_GP_ENTRY1_LENGTH_GET(e1);
    p->state = GC_PBDMA_STATE_PB_FETCH;
    start_fetch(r, p, r->now);
    return true;
}

/* The dword at the head was used: advance, and end the segment after its last dword. */
static void consume(ref_t *r, ref_pbdma_t *p, uint32_t cycles) {
    p->seg_addr += 4u;
    p->seg_left--;
    p->busy_until = r->now + cycles;
    p->state = p->seg_left == 0 ? GC_PBDMA_STATE_SEG_DONE : GC_PBDMA_STATE_PB_FETCH;
    if (p->seg_left) pb_issue(r, p, r->now + 1u); /* FIFO room for another burst */
}

static bool remap_ok(uint32_t s) {
    return s == GC_COPY_SET_REMAP_COMPONENTS_DST_X_CONST_A || s == GC_COPY_SET_REMAP_COMPONENTS_DST_X_CONST_B ||
           s == GC_COPY_SET_REMAP_COMPONENTS_DST_X_NO_WRITE;
}

/* Only the NUM_DST_COMPONENTS components that exist must be a constant or NO_WRITE. */
static bool remap_comp_ok(uint32_t w) {
    uint32_t n = GC_COPY_SET_REMAP_COMPONENTS_NUM_DST_COMPONENTS_GET(w);
    return remap_ok(GC_COPY_SET_REMAP_COMPONENTS_DST_X_GET(w)) &&
           (n < GC_COPY_SET_REMAP_COMPONENTS_NUM_DST_COMPONENTS_TWO || remap_ok(GC_COPY_SET_REMAP_COMPONENTS_DST_Y_GET(w))) &&
           (n < GC_COPY_SET_REMAP_COMPONENTS_NUM_DST_COMPONENTS_THREE || remap_ok(GC_COPY_SET_REMAP_COMPONENTS_DST_Z_GET(w))) &&
           (n < GC_COPY_SET_REMAP_COMPONENTS_NUM_DST_COMPONENTS_FOUR || remap_ok(GC_COPY_SET_REMAP_COMPONENTS_DST_W_GET(w)));
}

typedef struct mthd {
    uint32_t addr, subch, data;             /* the method */
    uint32_t n_op, n_addr, n_count;         /* decoder context after it */
} mthd_t;

static void set_ctx(ref_chan_t *c, const mthd_t *m) {
    c->sec_op = m->n_op;
    c->maddr = m->n_addr;
    c->count = m->n_count;
}

static bool sem_execute(ref_t *r, ref_pbdma_t *p, const mthd_t *m) {
    ref_chan_t *c = &r->ch[p->cur];
    uint32_t d = m->data, op = GC_HOST_SEM_EXECUTE_OPERATION_GET(d), red = GC_HOST_SEM_EXECUTE_REDUCTION_GET(d);
    bool is64 = GC_HOST_SEM_EXECUTE_PAYLOAD_SIZE_GET(d) == GC_HOST_SEM_EXECUTE_PAYLOAD_SIZE_64BIT;
    bool ts = GC_HOST_SEM_EXECUTE_RELEASE_TIMESTAMP_GET(d) == GC_HOST_SEM_EXECUTE_RELEASE_TIMESTAMP_EN;
    uint64_t addr = ((uint64_t)GC_HOST_SEM_ADDR_HI_OFFSET_GET(c->mreg[MR_SEM_ADDR_HI]) << 32) |
                    ((uint64_t)GC_HOST_SEM_ADDR_LO_OFFSET_GET(c->mreg[MR_SEM_ADDR_LO]) << 2);
    uint64_t pay = ((uint64_t)c->mreg[MR_SEM_PAY_HI] << 32) | c->mreg[MR_SEM_PAY_LO];
    uint32_t size = is64 ? SEM_64BIT_BYTES : SEM_ONE_WORD_BYTES, cause = GC_ERROR_CAUSE_NONE;
    bool misaligned64 = is64 && addr % SEM_64BIT_BYTES != 0, acq = false;
    ref_au_op_t aop = AU_READ;
    bool is_signed = GC_HOST_SEM_EXECUTE_REDUCTION_FORMAT_GET(d) == GC_HOST_SEM_EXECUTE_REDUCTION_FORMAT_SIGNED;
    switch (op) {
    case GC_HOST_SEM_EXECUTE_OPERATION_RELEASE:
    case GC_HOST_SEM_EXECUTE_OPERATION_REDUCTION:
        /* a release writes the payload, a reduction combines it with the memory value; with
         * RELEASE_TIMESTAMP either writes 16 bytes {value, stamp} */
        aop = op == GC_HOST_SEM_EXECUTE_OPERATION_RELEASE ? AU_WRITE : AU_RMW;
        if (ts) size = is64 ? SEM_FOUR_WORD_BYTES : REF_AU_16W;
        if (aop == AU_RMW && red > GC_HOST_SEM_EXECUTE_REDUCTION_DEC) cause = GC_ERROR_CAUSE_UNSUPPORTED;
        else if (aop == AU_RMW && !ref_sem_red_form_ok(red, is_signed, is64)) cause = GC_ERROR_CAUSE_INVALID_REDUCTION;
        else if ((ts && addr % SEM_FOUR_WORD_BYTES) || misaligned64) cause = GC_ERROR_CAUSE_MISALIGNED_SEMAPHORE;
        break;
    case GC_HOST_SEM_EXECUTE_OPERATION_ACQUIRE:
    case GC_HOST_SEM_EXECUTE_OPERATION_ACQ_STRICT_GEQ:
    case GC_HOST_SEM_EXECUTE_OPERATION_ACQ_CIRC_GEQ:
    case GC_HOST_SEM_EXECUTE_OPERATION_ACQ_AND:
    case GC_HOST_SEM_EXECUTE_OPERATION_ACQ_NOR:
        acq = true;
        if (misaligned64) cause = GC_ERROR_CAUSE_MISALIGNED_SEMAPHORE;
        break;
    default: cause = GC_ERROR_CAUSE_UNSUPPORTED; break;
    }
    if (cause != GC_ERROR_CAUSE_NONE) return fault(r, p, cause, ref_err_method(m->subch, m->addr), d);
    ref_au_request(r, p->rl, aop, size, addr, is64 ? pay : (uint32_t)pay, red, is_signed);
    p->sem_acq = acq;
    p->sem_is64 = size == SEM_64BIT_BYTES;
    p->sem_op = op;
    p->sem_sw = GC_HOST_SEM_EXECUTE_ACQUIRE_SWITCH_TSG_GET(d) == GC_HOST_SEM_EXECUTE_ACQUIRE_SWITCH_TSG_EN;
    p->sem_pay = pay;
    p->pend_sec_op = m->n_op;
    p->pend_maddr = m->n_addr;
    p->pend_count = m->n_count;
    p->exe_addr = m->addr;
    p->exe_subch = m->subch;
    p->exe_data = d;
    if (acq) {
        c->acq_arm = true;
        c->acq_woke = false;
        c->acq_addr = addr;
        c->acq_subch = m->subch;
        c->acq_data = d;
    }
    /* consumed only when the atomic unit answered (and an acquire passed) */
    p->state = GC_PBDMA_STATE_SEM_WAIT;
    p->busy_until = r->now + DECODE_CYCLES;
    return true;
}

/* LAUNCH_DMA: every field decoded (spec COPY.LAUNCH_DMA); what is not implemented faults
 * UNSUPPORTED.  FLUSH_*, FORCE_RMWDISABLE, SRC/DST_TYPE, *_BYPASS_L2 and DISABLE_PLC have no effect
 * here, whatever their value.  With DATA_TRANSFER_TYPE NONE the layouts, MULTI_LINE and REMAP do not
 * matter (nothing moves); a memset (REMAP) reads nothing, so its source layout does not either. */
static uint32_t launch_dma_cause(const ref_chan_t *c, uint32_t d) {
    uint32_t dtt = GC_COPY_LAUNCH_DMA_DATA_TRANSFER_TYPE_GET(d), semt = GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE_GET(d);
    uint32_t intt = GC_COPY_LAUNCH_DMA_INTERRUPT_TYPE_GET(d), sem_lo = c->mreg[MR_CE_SEM_B];
    uint32_t red = GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_GET(d);
    bool remap = GC_COPY_LAUNCH_DMA_REMAP_ENABLE_GET(d) == GC_COPY_LAUNCH_DMA_REMAP_ENABLE_TRUE;
    bool reduce = GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_ENABLE_GET(d) == GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_ENABLE_TRUE;
    bool moves = dtt != GC_COPY_LAUNCH_DMA_DATA_TRANSFER_TYPE_NONE;
    bool bad_layout =
        moves && (GC_COPY_LAUNCH_DMA_DST_MEMORY_LAYOUT_GET(d) != GC_COPY_LAUNCH_DMA_DST_MEMORY_LAYOUT_PITCH ||
                  (remap ? !remap_comp_ok(c->mreg[MR_REMAP_COMP])
                         : GC_COPY_LAUNCH_DMA_SRC_MEMORY_LAYOUT_GET(d) != GC_COPY_LAUNCH_DMA_SRC_MEMORY_LAYOUT_PITCH));
    if (bad_layout ||
        (dtt != GC_COPY_LAUNCH_DMA_DATA_TRANSFER_TYPE_NONE && dtt != GC_COPY_LAUNCH_DMA_DATA_TRANSFER_TYPE_PIPELINED &&
         dtt != GC_COPY_LAUNCH_DMA_DATA_TRANSFER_TYPE_NON_PIPELINED) ||
        (semt != GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE_NONE &&
         semt != GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE_RELEASE_ONE_WORD_SEMAPHORE &&
         semt != GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE_RELEASE_FOUR_WORD_SEMAPHORE) ||
        (intt != GC_COPY_LAUNCH_DMA_INTERRUPT_TYPE_NONE && intt != GC_COPY_LAUNCH_DMA_INTERRUPT_TYPE_NON_BLOCKING) ||
        GC_COPY_LAUNCH_DMA_VPRMODE_GET(d) != GC_COPY_LAUNCH_DMA_VPRMODE_VPR_NONE ||
        GC_COPY_LAUNCH_DMA_RESERVED_START_OF_COPY_GET(d) != 0 || GC_COPY_LAUNCH_DMA_RESERVED_27_GET(d) != 0 ||
        GC_COPY_LAUNCH_DMA_RESERVED_ERR_CODE_GET(d) != 0 ||
        (reduce && (semt == GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE_NONE || red > GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_DEC)))
        return GC_ERROR_CAUSE_UNSUPPORTED;
    if (reduce && !ref_sem_red_form_ok(red, GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_SIGN_GET(d) ==
                                                GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_SIGN_SIGNED,
                                       false))
        return GC_ERROR_CAUSE_INVALID_REDUCTION;
    if ((semt == GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE_RELEASE_ONE_WORD_SEMAPHORE && sem_lo % SEM_ONE_WORD_BYTES) ||
        (semt == GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE_RELEASE_FOUR_WORD_SEMAPHORE && sem_lo % SEM_FOUR_WORD_BYTES))
        return GC_ERROR_CAUSE_MISALIGNED_SEMAPHORE;
    return GC_ERROR_CAUSE_NONE;
}

static bool launch_dma(ref_t *r, ref_pbdma_t *p, const mthd_t *m) {
    ref_chan_t *c = &r->ch[p->cur];
    uint32_t d = m->data, cause = launch_dma_cause(c, d);
    if (cause != GC_ERROR_CAUSE_NONE) return fault(r, p, cause, ref_err_method(m->subch, m->addr), d);
    /* the engine is idle (checked before dispatch): it takes the command; counted then */
    p->ce_busy = true;
    p->ce_cancel = false;
    p->ce_ch = p->cur;
    p->ce_gp_get = c->gp_get;
    p->ce_method = ref_err_method(m->subch, m->addr);
    p->ce_data = d;
    c->ce_pend = true;
    c->methods++;
    ref_ce_launch(r, p->rl - 1u, c, p->cur, d);
    set_ctx(c, m);
    consume(r, p, LAUNCH_CYCLES);
    return true;
}

/* SEND_SIGNALING_PCAS_B with SCHEDULE: the task table takes the TMD named by SEND_PCAS_A (an entry
 * is free: checked before dispatch) and the channel's next method waits for the task. */
static bool pcas_launch(ref_t *r, ref_pbdma_t *p, const mthd_t *m) {
    ref_chan_t *c = &r->ch[p->cur];
    c->tk_cancel = false;
    c->tk_gp_get = c->gp_get;
    c->tk_method = ref_err_method(m->subch, m->addr);
    c->tk_data = m->data;
    c->ce_pend = true;
    c->methods++;
    ref_cmp_launch(r, p->cur, (uint64_t)GC_COMPUTE_SEND_PCAS_A_QMD_ADDRESS_SHIFTED8_GET(c->mreg[MR_PCAS_A]) << 8);
    set_ctx(c, m);
    consume(r, p, LAUNCH_CYCLES);
    return true;
}

static bool dispatch(ref_t *r, ref_pbdma_t *p, const mthd_t *m) {
    ref_chan_t *c = &r->ch[p->cur];
    uint32_t cause = GC_ERROR_CAUSE_NONE, byte = m->addr * 4u;
    if (m->addr < HOST_END_DW) {
        switch (byte) {
        case GC_HOST_SET_OBJECT:
            if (GC_HOST_SET_OBJECT_NVCLASS_GET(m->data) == GC_CLASS_COPY ||
                GC_HOST_SET_OBJECT_NVCLASS_GET(m->data) == GC_CLASS_COMPUTE) {
                c->bound[m->subch] = true;
                c->cls[m->subch] = GC_HOST_SET_OBJECT_NVCLASS_GET(m->data);
            } else {
                cause = GC_ERROR_CAUSE_INVALID_CLASS;
            }
            break;
        case GC_HOST_NOP:
        case GC_HOST_WFI: break; /* WFI: the engine is idle (runlist 0: the channel's task is done) */
        case GC_HOST_NON_STALL_INTERRUPT: ref_nonstall(r); break;
        case GC_HOST_SEM_ADDR_LO: c->mreg[MR_SEM_ADDR_LO] = m->data; break;
        case GC_HOST_SEM_ADDR_HI: c->mreg[MR_SEM_ADDR_HI] = m->data; break;
        case GC_HOST_SEM_PAYLOAD_LO: c->mreg[MR_SEM_PAY_LO] = m->data; break;
        case GC_HOST_SEM_PAYLOAD_HI: c->mreg[MR_SEM_PAY_HI] = m->data; break;
        case GC_HOST_SEM_EXECUTE: return sem_execute(r, p, m);
        default: cause = GC_ERROR_CAUSE_INVALID_METHOD; break;
        }
    } else if (!c->bound[m->subch]) {
        cause = GC_ERROR_CAUSE_INVALID_SUBCHANNEL;
    } else if (c->cls[m->subch] == GC_CLASS_COMPUTE) {
        if (p->rl != 0) { /* the compute class may be bound on a copy runlist, not run */
            cause = GC_ERROR_CAUSE_UNSUPPORTED;
        } else if (byte == GC_COMPUTE_SEND_PCAS_A) {
            c->mreg[MR_PCAS_A] = m->data;
        } else if (byte == GC_COMPUTE_SEND_SIGNALING_PCAS_B) {
            if (GC_COMPUTE_SEND_SIGNALING_PCAS_B_SCHEDULE_GET(m->data) == GC_COMPUTE_SEND_SIGNALING_PCAS_B_SCHEDULE_TRUE)
                return pcas_launch(r, p, m);
        } else {
            cause = GC_ERROR_CAUSE_INVALID_METHOD;
        }
    } else if (p->rl == 0) {
        cause = GC_ERROR_CAUSE_UNSUPPORTED; /* the copy class on the compute runlist: bound, not run */
    } else {
        int mr = -1;
        switch (byte) {
        case GC_COPY_OFFSET_IN_UPPER: mr = MR_OFS_IN_UPPER; break;
        case GC_COPY_OFFSET_IN_LOWER: mr = MR_OFS_IN_LOWER; break;
        case GC_COPY_OFFSET_OUT_UPPER: mr = MR_OFS_OUT_UPPER; break;
        case GC_COPY_OFFSET_OUT_LOWER: mr = MR_OFS_OUT_LOWER; break;
        case GC_COPY_PITCH_IN: mr = MR_PITCH_IN; break;
        case GC_COPY_PITCH_OUT: mr = MR_PITCH_OUT; break;
        case GC_COPY_LINE_LENGTH_IN: mr = MR_LINE_LEN; break;
        case GC_COPY_LINE_COUNT: mr = MR_LINE_COUNT; break;
        case GC_COPY_SET_SEMAPHORE_A: mr = MR_CE_SEM_A; break;
        case GC_COPY_SET_SEMAPHORE_B: mr = MR_CE_SEM_B; break;
        case GC_COPY_SET_SEMAPHORE_PAYLOAD: mr = MR_CE_SEM_PAY; break;
        case GC_COPY_SET_REMAP_CONST_A: mr = MR_REMAP_A; break;
        case GC_COPY_SET_REMAP_CONST_B: mr = MR_REMAP_B; break;
        case GC_COPY_SET_REMAP_COMPONENTS: mr = MR_REMAP_COMP; break;
        case GC_COPY_LAUNCH_DMA: return launch_dma(r, p, m);
        default: cause = GC_ERROR_CAUSE_INVALID_METHOD; break;
        }
        if (mr >= 0) c->mreg[mr] = m->data;
    }
    if (cause != GC_ERROR_CAUSE_NONE) return fault(r, p, cause, ref_err_method(m->subch, m->addr), m->data);
    c->methods++;
    set_ctx(c, m);
    consume(r, p, DECODE_CYCLES);
    return true;
}

static bool pb_fetch(ref_t *r, ref_pbdma_t *p) {
    ref_chan_t *c = &r->ch[p->cur];
    if (p->sync && !c->ce_pend) p->sync = false;
    if (p->seg_left == 0) {
        p->state = GC_PBDMA_STATE_SEG_DONE;
        p->busy_until = r->now + 1u;
        return true;
    }
    if (sw_ts(r, p, made_progress(r, p))) return leave(r, p, SW_TIMESLICE, true);
    if (p->sync && c->ce_pend) { /* SYNC WAIT entry: the channel's copy first */
        c->ew_launch = false;
        p->state = GC_PBDMA_STATE_ENGINE_WAIT;
        return true;
    }
    uint64_t t = dword_avail(p, p->seg_addr);
    if (t > r->now) {
        p->wake_at = t;
        return false;
    }
    uint64_t beat = p->seg_addr & ~(uint64_t)(REF_BEAT_BYTES - 1u);
    uint32_t d;
    if (ref_window(beat, REF_BEAT_BYTES) < 0 || !ref_mem_read(r, p->seg_addr, &d, 4))
        return fault(r, p, GC_ERROR_CAUSE_BUS_ERROR, 0, p->ent0_get << 2); /* poisoned beat */
    mthd_t m = {.n_op = c->sec_op, .n_addr = c->maddr, .n_count = c->count};
    if (c->count != 0) { /* a data dword of the current method run */
        m.addr = c->maddr;
        m.subch = c->subch;
        m.data = d;
        m.n_count = c->count - 1u;
        if (c->sec_op == GC_METHOD_HEADER_SEC_OP_INC_METHOD) {
            m.n_addr = (c->maddr + 1u) & GC_METHOD_HEADER_ADDRESS_MASK;
        } else if (c->sec_op == GC_METHOD_HEADER_SEC_OP_ONE_INC) {
            m.n_addr = (c->maddr + 1u) & GC_METHOD_HEADER_ADDRESS_MASK;
            m.n_op = GC_METHOD_HEADER_SEC_OP_NON_INC_METHOD;
        }
    } else { /* a method header */
        uint32_t op = GC_METHOD_HEADER_SEC_OP_GET(d);
        switch (op) {
        case GC_METHOD_HEADER_SEC_OP_INC_METHOD:
        case GC_METHOD_HEADER_SEC_OP_NON_INC_METHOD:
        case GC_METHOD_HEADER_SEC_OP_ONE_INC:
            c->sec_op = op;
            c->maddr = GC_METHOD_HEADER_ADDRESS_GET(d);
            c->subch = GC_METHOD_HEADER_SUBCHANNEL_GET(d);
            c->count = GC_METHOD_HEADER_COUNT_GET(d);
            consume(r, p, DECODE_CYCLES);
            return true;
        case GC_METHOD_HEADER_SEC_OP_IMMD_DATA_METHOD:
            m.addr = GC_METHOD_HEADER_ADDRESS_GET(d);
            m.subch = GC_METHOD_HEADER_SUBCHANNEL_GET(d);
            m.data = GC_METHOD_HEADER_IMMD_DATA_GET(d);
            break;
        case GC_METHOD_HEADER_SEC_OP_END_PB_SEGMENT:
            consume(r, p, DECODE_CYCLES);
            p->state = GC_PBDMA_STATE_SEG_DONE; /* the rest of the segment is dropped */
            return true;
        default: /* GRP0_USE_TERT, GRP2_USE_TERT, RESERVED6 */
            if (d == GC_PB_DMA_NOP) { /* NVIDIA's universal NOP: skipped, not a method */
                consume(r, p, DECODE_CYCLES);
                return true;
            }
            return fault(r, p, GC_ERROR_CAUSE_INVALID_METHOD_HEADER,
                         ref_err_method(GC_METHOD_HEADER_SUBCHANNEL_GET(d), GC_METHOD_HEADER_ADDRESS_GET(d)), d);
        }
    }
    /* Every method waits for the channel's copy (runlist 0: task); LAUNCH_DMA, WFI and RELEASE_WFI
     * also for an engine busy with another channel's copy (copy runlists); a compute launch for a
     * free task table entry (runlist 0). */
    bool needs_eng = false;
    if (p->rl == 0) {
        needs_eng = m.addr >= HOST_END_DW && c->bound[m.subch] && c->cls[m.subch] == GC_CLASS_COMPUTE &&
                    m.addr == DW(GC_COMPUTE_SEND_SIGNALING_PCAS_B) &&
                    GC_COMPUTE_SEND_SIGNALING_PCAS_B_SCHEDULE_GET(m.data) == GC_COMPUTE_SEND_SIGNALING_PCAS_B_SCHEDULE_TRUE;
    } else if (p->has_ce) {
        if (m.addr < HOST_END_DW)
            needs_eng = m.addr == DW(GC_HOST_WFI) ||
                        (m.addr == DW(GC_HOST_SEM_EXECUTE) &&
                         GC_HOST_SEM_EXECUTE_RELEASE_WFI_GET(m.data) == GC_HOST_SEM_EXECUTE_RELEASE_WFI_EN);
        else
            needs_eng = c->bound[m.subch] &&
                        c->cls[m.subch] == GC_CLASS_COPY && m.addr == DW(GC_COPY_LAUNCH_DMA);
    }
    if (c->ce_pend || (needs_eng && eng_full(r, p->rl))) {
        c->ew_launch = p->rl == 0 && needs_eng && !c->ce_pend;
        if (is_guest(p)) return leave(r, p, SW_ENGINE, true);
        p->state = GC_PBDMA_STATE_ENGINE_WAIT;
        return true;
    }
    c->ew_launch = false;
    return dispatch(r, p, &m);
}

static bool sem_done(ref_t *r, ref_pbdma_t *p) {
    ref_au_req_t *q = &r->au[p->rl];
    ref_chan_t *c = &r->ch[p->cur];
    if (!q->valid || !q->done) return false;
    q->valid = false;
    uint64_t mem = p->sem_is64 ? q->rdata : (uint32_t)q->rdata;
    if (q->err) return fault(r, p, GC_ERROR_CAUSE_BUS_ERROR, ref_err_method(p->exe_subch, p->exe_addr), p->exe_data);
    if (!p->sem_acq || ref_sem_acquire_pass(p->sem_op, p->sem_is64, mem, p->sem_pay)) {
        if (p->sem_acq) c->acq_blk = c->acq_arm = c->acq_woke = false;
        c->methods++;
        c->sec_op = p->pend_sec_op;
        c->maddr = p->pend_maddr;
        c->count = p->pend_count;
        consume(r, p, 1u);
        return true;
    }
    bool timed_out = acq_to(r, c); /* as blocked so far */
    if (!c->acq_blk) c->acq_blk_t = r->now;
    c->acq_blk = true;
    c->acq_fail_t = r->now;
    if (timed_out)
        return fault(r, p, GC_ERROR_CAUSE_ACQUIRE_TIMEOUT, ref_err_method(p->exe_subch, p->exe_addr), p->exe_data);
    if (p->sem_sw) return leave(r, p, SW_ACQUIRE, true);
    p->state = GC_PBDMA_STATE_ACQ_RETRY;
    return true;
}

static bool seg_done(ref_t *r, ref_pbdma_t *p) {
    ref_chan_t *c = &r->ch[p->cur];
    c->gp_get = (c->gp_get + 1u) & ring_mask(c->log2);
    if (c->gp_get == c->gp_put) return leave(r, p, SW_EMPTY, false);
    if (sw_ts(r, p, true)) return leave(r, p, SW_TIMESLICE, false); /* the entry completed */
    gp_issue(r, p, r->now);
    return true;
}

/* Scheduler bookkeeping the RTL does every cycle; true when something changed. */
static bool sched_update(ref_t *r, ref_pbdma_t *p) {
    bool changed = false;
    /* the owner went away (error, moved to another runlist; a reset drops it at once) */
    if (p->own_vld && (r->ch[p->own].err_cause != GC_ERROR_CAUSE_NONE || r->ch[p->own].runlist != p->rl)) {
        p->own_vld = p->hold = false;
        changed = true;
    }
    /* a resident owner whose slice expired with nobody else to run: renew it */
    if (resident(p) && p->state != GC_PBDMA_STATE_CTX_SAVE && !is_guest(p) && slice_exp(r, p) &&
        !r->ch[p->cur].ce_pend) {
        uint32_t rnd;
        bool self = self_next(r, p, &rnd);
        if (self || !other_run(r, p)) {
            p->slice_t = r->now;
            if (self) p->rr_rnd = rnd;
            changed = true;
        }
    }
    if (resident(p) && guest_exp(r, p) && !guest_avail(r, p)) {
        p->turn_t = r->now;
        changed = true;
    }
    /* a resident channel without an owner becomes the owner */
    if (resident(p) && p->state != GC_PBDMA_STATE_CTX_SAVE && p->state != GC_PBDMA_STATE_FAULT && !p->own_vld) {
        p->own_vld = true;
        p->own = p->cur;
        p->hold = false;
        p->slice_t = r->now;
        p->rr_ptr = p->cur;
        changed = true;
    }
    return changed;
}

bool ref_pbdma_step(ref_t *r, uint32_t rl) {
    ref_pbdma_t *p = &r->pb[rl];
    bool progress = false;
    /* abandon a resident channel that got an error from elsewhere (a reset aborts it at once) */
    if (resident(p) && p->state != GC_PBDMA_STATE_FAULT && p->state != GC_PBDMA_STATE_CTX_SAVE &&
        r->ch[p->cur].err_cause != GC_ERROR_CAUSE_NONE) {
        p->state = GC_PBDMA_STATE_FAULT;
        p->busy_until = r->now;
        progress = true;
    }
    progress |= sched_update(r, p);
    if (r->now < p->busy_until) return progress;
    ref_chan_t *c = &r->ch[p->cur];
    switch (p->state) {
    case GC_PBDMA_STATE_IDLE: return idle_step(r, p) || progress;
    case GC_PBDMA_STATE_GP_WAIT: return gp_done(r, p);
    case GC_PBDMA_STATE_PB_FETCH: return pb_fetch(r, p) || progress;
    case GC_PBDMA_STATE_SEM_WAIT: return sem_done(r, p) || progress;
    case GC_PBDMA_STATE_SEG_DONE: return seg_done(r, p);
    case GC_PBDMA_STATE_CTX_SAVE:
        p->state = GC_PBDMA_STATE_IDLE;
        return true;
    case GC_PBDMA_STATE_ENGINE_WAIT:
        /* the owner waits for the engine (its own copy, or another channel's; runlist 0: its own
         * task, or a free task table entry); guests may run */
        if (p->rl == 0 ? !c->ce_pend && !(c->ew_launch && eng_full(r, 0)) : !p->ce_busy) {
            p->state = GC_PBDMA_STATE_PB_FETCH;
            p->busy_until = r->now + 1u;
            return true;
        }
        if (guest_avail(r, p)) return leave(r, p, SW_ENGINE, true);
        return progress;
    case GC_PBDMA_STATE_ACQ_RETRY:
        /* ACQUIRE_SWITCH_TSG DIS: stay resident and retry (re-dispatch the SEM_EXECUTE) */
        if (acq_to(r, c))
            return fault(r, p, GC_ERROR_CAUSE_ACQUIRE_TIMEOUT, ref_err_method(p->exe_subch, p->exe_addr), p->exe_data);
        if (acq_due(r, c) || c->acq_woke) {
            p->state = GC_PBDMA_STATE_PB_FETCH;
            p->busy_until = r->now + 1u;
            return true;
        }
        if (sw_ts(r, p, true)) return leave(r, p, SW_ACQUIRE, true); /* blocked: its attempt was made */
        return progress;
    case GC_PBDMA_STATE_FAULT: {
        /* wait until no atomic request is outstanding */
        ref_au_req_t *q = &r->au[rl];
        if (q->valid) {
            if (!q->done) return progress;
            q->valid = false;
        }
        p->state = GC_PBDMA_STATE_IDLE;
        p->busy_until = r->now + 1u;
        return true;
    }
    default:
        p->state = GC_PBDMA_STATE_IDLE;
        return true;
    }
}

/* Acquire timeouts of channels that are not resident on their runlist's PBDMA. */
bool ref_pbdma_timeouts(ref_t *r) {
    bool any = false;
    for (uint32_t i = 0; i < GC_NUM_CHANNELS; i++) {
        ref_chan_t *c = &r->ch[i];
        if (!acq_to(r, c) || c->err_cause != GC_ERROR_CAUSE_NONE || c->runlist >= GC_NUM_RUNLISTS) continue;
        const ref_pbdma_t *p = &r->pb[c->runlist];
        if (resident(p) && p->cur == i) continue;
        c->acq_blk = c->acq_arm = false;
        ref_record_fault(r, i, GC_ERROR_CAUSE_ACQUIRE_TIMEOUT, c->gp_get,
                         ref_err_method(c->acq_subch, DW(GC_HOST_SEM_EXECUTE)), c->acq_data);
        any = true;
    }
    return any;
}

static void ref_pbdma_task_done(ref_t *r, uint32_t ch, bool err) {
    ref_chan_t *c = &r->ch[ch];
    c->ce_pend = false;
    if (err && !c->tk_cancel) ref_record_fault(r, ch, GC_ERROR_CAUSE_TASK_FAULT, c->tk_gp_get, c->tk_method, c->tk_data);
    c->tk_cancel = false;
}

static void ref_pbdma_ce_done(ref_t *r, uint32_t rl, bool err, bool intr) {
    ref_pbdma_t *p = &r->pb[rl];
    if (!p->ce_busy) return;
    p->ce_busy = false;
    r->ch[p->ce_ch].ce_pend = false;
    if (err && !p->ce_cancel)
        ref_record_fault(r, p->ce_ch, GC_ERROR_CAUSE_BUS_ERROR, p->ce_gp_get, p->ce_method, p->ce_data);
    if (intr) ref_nonstall(r);
}

/* A device write of [addr, addr + n) landed (the write snoop): the acquires waiting on an 8-byte
 * word of it try again. */
static void sem_written(ref_t *r, uint64_t addr, uint64_t n) {
    for (uint32_t c = 0; c < GC_NUM_CHANNELS; c++) {
        uint64_t w = r->ch[c].acq_addr >> 3;
        if (r->ch[c].acq_arm && w >= addr >> 3 && w <= (addr + n - 1u) >> 3) r->ch[c].acq_woke = true;
    }
}

void ref_pbdma_event(ref_t *r, const ref_event_t *ev) {
    switch (ev->kind) {
    case REF_EV_CE_DONE: ref_pbdma_ce_done(r, ev->unit, ev->err, ev->intr); break;
    case REF_EV_TASK_DONE: ref_pbdma_task_done(r, ev->unit, ev->err); break;
    case REF_EV_SEM_WRITTEN: sem_written(r, ev->addr, ev->n); break;
    }
}

static void add_timer(const ref_t *r, uint64_t t, uint64_t *next) {
    if (t > r->now && t < *next) *next = t;
}

void ref_pbdma_timers(const ref_t *r, uint32_t rl, uint64_t *next) {
    const ref_pbdma_t *p = &r->pb[rl];
    add_timer(r, p->busy_until, next);
    if (p->state == GC_PBDMA_STATE_PB_FETCH) add_timer(r, p->wake_at, next);
    if (p->own_vld) add_timer(r, p->slice_t + at_least_1(r->ch[p->own].timeslice), next);
    if (resident(p) && is_guest(p)) add_timer(r, p->turn_t + at_least_1(r->ch[p->cur].timeslice), next);
}

/* Acquire retries and timeouts of every channel. */
void ref_acquire_timers(const ref_t *r, uint64_t *next) {
    for (uint32_t i = 0; i < GC_NUM_CHANNELS; i++) {
        const ref_chan_t *c = &r->ch[i];
        if (!c->acq_blk) continue;
        if (!c->acq_woke) add_timer(r, c->acq_fail_t + at_least_1(r->acq_retry), next);
        if (c->acq_timeout) add_timer(r, c->acq_blk_t + c->acq_timeout + 1u, next);
    }
}

/* CTRL.RESET: clear the channel's decoder, bindings, method registers, acquire and mid-entry
 * state in the PBDMAs; abandon it if it is resident; its copy in flight finishes (its error is
 * then ignored).  The register side (GP_GET, GP_PUT, ENABLE, ERROR) is cleared by the caller. */
void ref_chan_reset(ref_t *r, uint32_t ch) {
    ref_chan_t *c = &r->ch[ch];
    c->sec_op = c->maddr = c->subch = c->count = 0;
    memset(c->bound, 0, sizeof c->bound);
    memset(c->mreg, 0, sizeof c->mreg);
    c->in_ent = c->acq_blk = c->acq_arm = c->acq_woke = c->eng_wait = c->ew_launch = false;
    if (c->ce_pend) c->tk_cancel = true; /* a compute task in flight finishes, its fault is ignored */
    for (uint32_t rl = 0; rl < GC_NUM_RUNLISTS; rl++) {
        ref_pbdma_t *p = &r->pb[rl];
        if (resident(p) && p->cur == ch && p->state != GC_PBDMA_STATE_FAULT && p->state != GC_PBDMA_STATE_CTX_SAVE) {
            p->state = GC_PBDMA_STATE_FAULT;
            p->busy_until = r->now;
        }
        if (p->ce_busy && p->ce_ch == ch) p->ce_cancel = true;
        if (p->own_vld && p->own == ch) p->own_vld = p->hold = false;
    }
}
