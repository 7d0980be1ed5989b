/* backend_ref.c: the "ref" backend: a functional C model of gpu_top (see ref.h for the structure).
 *
 * This file: the backend ops, the BAR0 register block (gc_mmio_regs: every register of the spec,
 * SLVERR on unmapped offsets, w1c INTR_STATUS, CTRL.RESET, BAD_GP_PUT / BAD_RING, free-running
 * counters), host access to the memory windows, the event loop and the stuck-state dump.
 * An MMIO access takes time as on rtl (a read 2 cycles, sampled after 1; a write 3, applied after 1).
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gpucosim/backend.h"
#include "ref_bus.h"
#include "ref_ce.h"
#include "ref_compute.h"
#include "ref_pbdma.h"

#define MMIO_MASK ((1u << GC_MMIO_ADDR_W) - 1u)
#define MMIO_READ_SAMPLE 1u  /* cycles before a read samples its register */
#define MMIO_READ_REST 1u
#define MMIO_WRITE_APPLY 1u  /* cycles before a write takes effect */
#define MMIO_WRITE_REST 2u
/* INTR_STATUS / INTR_ENABLE bits the spec defines (TASK_FAULT, LAUNCH_FAIL: ref_compute.c) */
#define INTR_MASK                                                                                         \
    (GC_GLOBAL_INTR_STATUS_CHANNEL_FAULT(1) | GC_GLOBAL_INTR_STATUS_NON_STALL(1) | GC_GLOBAL_INTR_STATUS_TASK_FAULT(1) | \
     GC_GLOBAL_INTR_STATUS_LAUNCH_FAIL(1))
#define GPFIFO_BASE_LO_MASK (~(uint32_t)(REF_GP_ENTRY_BYTES - 1u)) /* 8-byte entries: bits 2:0 read 0 */
#define CH_OFF(reg) (reg(0) - GC_REG_CHANNEL_BASE)
#define SETTLE_GUARD 1000000u

static double wall_seconds(void) {
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ------------------------------------------------------------------ event loop */
/* Let every unit act at the current cycle until none can. */
static void settle(ref_t *r) {
    for (uint32_t n = 0; n < SETTLE_GUARD; n++) {
        bool any = ref_au_settle(r);
        for (uint32_t e = 0; e < GC_NUM_CE; e++) any |= ref_ce_step(r, e);
        any |= ref_cmp_step(r);
        for (uint32_t rl = 0; rl < GC_NUM_RUNLISTS; rl++) any |= ref_pbdma_step(r, rl);
        any |= ref_pbdma_timeouts(r);
        if (!any) return;
    }
    fprintf(stderr, "ref: internal error: the model does not settle at cycle %llu\n", (unsigned long long)r->now);
}

static uint64_t next_event(const ref_t *r) {
    uint64_t t = REF_NEVER;
    for (uint32_t i = 0; i < REF_NAU; i++) {
        const ref_au_req_t *q = &r->au[i];
        uint64_t at = q->effected ? q->t_done : q->t_eff;
        if (q->valid && !q->done && at > r->now && at < t) t = at;
    }
    for (uint32_t e = 0; e < GC_NUM_CE; e++) {
        const ref_ce_t *ce = &r->ce[e];
        if ((ce->state == GC_CE_STATE_COPY || ce->state == GC_CE_STATE_DONE) && ce->t_next > r->now && ce->t_next < t)
            t = ce->t_next;
    }
    for (uint32_t rl = 0; rl < GC_NUM_RUNLISTS; rl++) ref_pbdma_timers(r, rl, &t);
    ref_cmp_timers(r, &t);
    ref_acquire_timers(r, &t);
    return t;
}

/* The cycle counters over dt cycles in which nothing changes. */
static void accumulate(ref_t *r, uint64_t dt) {
    ref_cmp_accumulate(r, dt);
    for (uint32_t rl = 0; rl < GC_NUM_RUNLISTS; rl++)
        if (r->pb[rl].state != GC_PBDMA_STATE_IDLE) r->ch[r->pb[rl].cur].cyc_resident += (uint32_t)dt;
    for (uint32_t c = 0; c < GC_NUM_CHANNELS; c++)
        if (r->ch[c].acq_blk) r->ch[c].acq_blk_cycles += (uint32_t)dt;
    for (uint32_t e = 0; e < GC_NUM_CE; e++) {
        ref_ce_t *ce = &r->ce[e];
        if (ce->state == GC_CE_STATE_IDLE) continue;
        ce->busy_cycles = dt >= UINT32_MAX - ce->busy_cycles ? UINT32_MAX : ce->busy_cycles + (uint32_t)dt;
    }
}

static void advance(ref_t *r, uint64_t target) {
    r->horizon = target;
    settle(r);
    while (r->now < target) {
        uint64_t t = next_event(r);
        if (t > target) t = target;
        accumulate(r, t - r->now);
        r->now = t;
        settle(r);
    }
}

static void ref_dump(void *s, FILE *out);

/* The whole-run watchdog (GPUCOSIM_MAX_CYCLES): once the limit is reached nothing runs again. */
static bool watchdog(ref_t *r) {
    if (r->watchdog_fired) return true;
    if (!r->max_cycles || r->now < r->max_cycles) return false;
    r->watchdog_fired = true;
    char stuck[256];
    ref_cmp_stuck(r, stuck, sizeof stuck);
    fprintf(stderr, "ref: watchdog: the run stopped after %llu cycles (limit %llu): %s\n", (unsigned long long)r->now,
            (unsigned long long)r->max_cycles, stuck);
    ref_dump(r, stderr);
    return true;
}

/* ------------------------------------------------------------------ BAR0 */
static bool in_block(uint32_t a, uint32_t base, uint32_t stride, uint32_t count) {
    return a >= base && a < base + stride * count;
}

static uint32_t chan_status(const ref_t *r, uint32_t i) {
    const ref_chan_t *c = &r->ch[i];
    bool res = false;
    for (uint32_t rl = 0; rl < GC_NUM_RUNLISTS; rl++)
        res |= r->pb[rl].state != GC_PBDMA_STATE_IDLE && r->pb[rl].cur == i;
    return GC_CHANNEL_STATUS_PENDING(c->gp_get != c->gp_put || c->in_ent) | GC_CHANNEL_STATUS_RESIDENT(res) |
           GC_CHANNEL_STATUS_ENGINE_BUSY(c->ce_pend) | GC_CHANNEL_STATUS_ACQ_BLOCKED(c->acq_blk);
}

static uint32_t fault_map(const ref_t *r) {
    uint32_t m = 0;
    for (uint32_t i = 0; i < GC_NUM_CHANNELS; i++)
        if (r->ch[i].err_cause != GC_ERROR_CAUSE_NONE) m |= 1u << i;
    return m;
}

/* The value of the register at `off`; false when no register is there (SLVERR). */
static bool reg_read(ref_t *r, uint32_t off, uint32_t *v) {
    uint32_t a = off & MMIO_MASK & ~3u;
    *v = 0;
    if (in_block(a, GC_REG_RUNLIST_BASE, GC_REG_RUNLIST_STRIDE, GC_NUM_RUNLISTS)) {
        uint32_t n = (a - GC_REG_RUNLIST_BASE) / GC_REG_RUNLIST_STRIDE;
        const ref_pbdma_t *p = &r->pb[n];
        if (a == GC_REG_RUNLIST_DBG(n)) {
            uint32_t left = p->seg_left > GC_RUNLIST_DBG_PB_LEFT_MASK ? GC_RUNLIST_DBG_PB_LEFT_MASK : p->seg_left;
            *v = GC_RUNLIST_DBG_STATE(p->state) | GC_RUNLIST_DBG_CHANNEL(p->cur) | GC_RUNLIST_DBG_PB_LEFT(left);
        } else if (a == GC_REG_RUNLIST_SWITCHES(n)) {
            *v = p->switches;
        } else if (a == GC_REG_RUNLIST_GATED_CYCLES(n)) {
            *v = 0; /* the functional model has no clocks to stop (GLOBAL.CLOCK_GATING) */
        } else {
            return false;
        }
        return true;
    }
    if (a >= GC_REG_COMPUTE_BASE && a < GC_REG_CHANNEL_BASE) return ref_cmp_reg_read(r, a, v);
    if (in_block(a, GC_REG_ENGINE_BASE, GC_REG_ENGINE_STRIDE, GC_NUM_CE)) {
        uint32_t n = (a - GC_REG_ENGINE_BASE) / GC_REG_ENGINE_STRIDE;
        const ref_ce_t *e = &r->ce[n];
        if (a == GC_REG_ENGINE_DBG(n)) *v = GC_ENGINE_DBG_STATE(e->state) | GC_ENGINE_DBG_CHANNEL(e->ch);
        else if (a == GC_REG_ENGINE_BYTES(n)) *v = e->bytes;
        else if (a == GC_REG_ENGINE_BUSY_CYCLES(n)) *v = e->busy_cycles;
        else if (a == GC_REG_ENGINE_GATED_CYCLES(n)) *v = 0; /* no clocks (GLOBAL.CLOCK_GATING) */
        else return false;
        return true;
    }
    if (a < GC_REG_CHANNEL_BASE) {
        switch (a) {
        case GC_REG_GLOBAL_ID: *v = GC_ID; break;
        case GC_REG_GLOBAL_VERSION: *v = GC_VERSION; break;
        case GC_REG_GLOBAL_CONFIG:
            *v = GC_GLOBAL_CONFIG_NUM_CHANNELS(GC_NUM_CHANNELS) | GC_GLOBAL_CONFIG_NUM_RUNLISTS(GC_NUM_RUNLISTS) |
                 GC_GLOBAL_CONFIG_NUM_CE(GC_NUM_CE) | GC_GLOBAL_CONFIG_DATA_BYTES(GC_AXI_DATA_W / 8u);
            break;
        case GC_REG_GLOBAL_INTR_STATUS: *v = r->intr_status; break;
        case GC_REG_GLOBAL_INTR_ENABLE: *v = r->intr_enable; break;
        case GC_REG_GLOBAL_CYCLE_LO: {
            uint64_t t = ref_time(r, r->now);
            *v = (uint32_t)t;
            r->cycle_hi = (uint32_t)(t >> 32);
            break;
        }
        case GC_REG_GLOBAL_CYCLE_HI: *v = r->cycle_hi; break;
        case GC_REG_GLOBAL_FAULT_CHANNELS: *v = fault_map(r); break;
        case GC_REG_GLOBAL_ACQ_RETRY_INTERVAL: *v = r->acq_retry; break;
        case GC_REG_GLOBAL_CLOCK_GATING: *v = r->clock_gating; break;
        default: return false;
        }
        return true;
    }
    uint32_t n = (a - GC_REG_CHANNEL_BASE) / GC_REG_CHANNEL_STRIDE;
    if (n >= GC_NUM_CHANNELS) return false;
    const ref_chan_t *c = &r->ch[n];
    switch ((a - GC_REG_CHANNEL_BASE) % GC_REG_CHANNEL_STRIDE) {
    case CH_OFF(GC_REG_CHANNEL_GPFIFO_BASE_LO): *v = (uint32_t)c->gpfifo_base & GPFIFO_BASE_LO_MASK; break;
    case CH_OFF(GC_REG_CHANNEL_GPFIFO_BASE_HI): *v = GC_CHANNEL_GPFIFO_BASE_HI_HI((uint32_t)(c->gpfifo_base >> 32)); break;
    case CH_OFF(GC_REG_CHANNEL_GPFIFO_SIZE): *v = GC_CHANNEL_GPFIFO_SIZE_LOG2(c->log2); break;
    case CH_OFF(GC_REG_CHANNEL_GP_PUT): *v = c->gp_put; break;
    case CH_OFF(GC_REG_CHANNEL_GP_GET): *v = c->gp_get; break;
    case CH_OFF(GC_REG_CHANNEL_CTRL): *v = GC_CHANNEL_CTRL_ENABLE(c->enable); break;
    case CH_OFF(GC_REG_CHANNEL_RUNLIST): *v = GC_CHANNEL_RUNLIST_ID(c->runlist); break;
    case CH_OFF(GC_REG_CHANNEL_ERROR): *v = GC_CHANNEL_ERROR_CAUSE(c->err_cause); break;
    case CH_OFF(GC_REG_CHANNEL_ERROR_GP_GET): *v = c->err_gp_get; break;
    case CH_OFF(GC_REG_CHANNEL_ERROR_METHOD): *v = c->err_method; break;
    case CH_OFF(GC_REG_CHANNEL_ERROR_DATA): *v = c->err_data; break;
    case CH_OFF(GC_REG_CHANNEL_METHODS): *v = c->methods; break;
    case CH_OFF(GC_REG_CHANNEL_TIMESLICE): *v = c->timeslice; break;
    case CH_OFF(GC_REG_CHANNEL_INTERLEAVE): *v = GC_CHANNEL_INTERLEAVE_LEVEL(c->interleave); break;
    case CH_OFF(GC_REG_CHANNEL_ACQ_TIMEOUT): *v = c->acq_timeout; break;
    case CH_OFF(GC_REG_CHANNEL_CYCLES_RESIDENT): *v = c->cyc_resident; break;
    case CH_OFF(GC_REG_CHANNEL_SWITCH_TIMESLICE): *v = c->sw_count[SW_TIMESLICE]; break;
    case CH_OFF(GC_REG_CHANNEL_SWITCH_ACQUIRE): *v = c->sw_count[SW_ACQUIRE]; break;
    case CH_OFF(GC_REG_CHANNEL_SWITCH_ENGINE): *v = c->sw_count[SW_ENGINE]; break;
    case CH_OFF(GC_REG_CHANNEL_SWITCH_EMPTY): *v = c->sw_count[SW_EMPTY]; break;
    case CH_OFF(GC_REG_CHANNEL_ACQ_BLOCKED_CYCLES): *v = c->acq_blk_cycles; break;
    case CH_OFF(GC_REG_CHANNEL_STATUS): *v = chan_status(r, n); break;
    default: return false;
    }
    return true;
}

static bool log2_bad(uint32_t l) { return l < GC_GPFIFO_LOG2_MIN || l > GC_GPFIFO_LOG2_MAX; }

/* A register-block fault: ERROR_GP_GET is the channel's GP_GET, ERROR_METHOD 0. */
static void reg_fault(ref_t *r, uint32_t ch, uint32_t cause, uint32_t data) {
    ref_record_fault(r, ch, cause, r->ch[ch].gp_get, 0, data);
}

/* Write `v` to the register at `off`; false when no register is there (SLVERR).  Writes to
 * read-only registers are accepted and ignored. */
static bool reg_write(ref_t *r, uint32_t off, uint32_t v) {
    uint32_t a = off & MMIO_MASK & ~3u, dummy;
    if (a >= GC_REG_COMPUTE_BASE && a < GC_REG_CHANNEL_BASE) return ref_cmp_reg_write(r, a, v);
    if (in_block(a, GC_REG_RUNLIST_BASE, GC_REG_RUNLIST_STRIDE, GC_NUM_RUNLISTS) ||
        in_block(a, GC_REG_ENGINE_BASE, GC_REG_ENGINE_STRIDE, GC_NUM_CE)) {
        return reg_read(r, a, &dummy); /* read-only blocks */
    }
    if (a < GC_REG_CHANNEL_BASE) {
        switch (a) {
        case GC_REG_GLOBAL_INTR_STATUS: r->intr_status &= ~v & INTR_MASK; break;
        case GC_REG_GLOBAL_INTR_ENABLE: r->intr_enable = v & INTR_MASK; break;
        case GC_REG_GLOBAL_ACQ_RETRY_INTERVAL: r->acq_retry = v; break;
        case GC_REG_GLOBAL_CYCLE_HI: r->cycle_hi = v; break;
        case GC_REG_GLOBAL_CYCLE_LO: /* the time base is {CYCLE_HI, v} from the next cycle on */
            r->time_ofs = (((uint64_t)r->cycle_hi << 32) | v) - (r->now + 1u);
            break;
        case GC_REG_GLOBAL_CLOCK_GATING:
            r->clock_gating = GC_GLOBAL_CLOCK_GATING_DISABLE(GC_GLOBAL_CLOCK_GATING_DISABLE_GET(v));
            break;
        case GC_REG_GLOBAL_ID:
        case GC_REG_GLOBAL_VERSION:
        case GC_REG_GLOBAL_CONFIG:
        case GC_REG_GLOBAL_FAULT_CHANNELS: break;
        default: return false;
        }
        return true;
    }
    uint32_t n = (a - GC_REG_CHANNEL_BASE) / GC_REG_CHANNEL_STRIDE;
    if (n >= GC_NUM_CHANNELS) return false;
    ref_chan_t *c = &r->ch[n];
    switch ((a - GC_REG_CHANNEL_BASE) % GC_REG_CHANNEL_STRIDE) {
    case CH_OFF(GC_REG_CHANNEL_GPFIFO_BASE_LO):
        c->gpfifo_base = (c->gpfifo_base & ~(uint64_t)UINT32_MAX) | (v & GPFIFO_BASE_LO_MASK);
        break;
    case CH_OFF(GC_REG_CHANNEL_GPFIFO_BASE_HI):
        c->gpfifo_base = (c->gpfifo_base & UINT32_MAX) | ((uint64_t)GC_CHANNEL_GPFIFO_BASE_HI_HI_GET(v) << 32);
        break;
    case CH_OFF(GC_REG_CHANNEL_GPFIFO_SIZE): {
        uint32_t l = GC_CHANNEL_GPFIFO_SIZE_LOG2_GET(v);
        if (c->enable && log2_bad(l)) reg_fault(r, n, GC_ERROR_CAUSE_BAD_RING, l);
        c->log2 = l;
        break;
    }
    case CH_OFF(GC_REG_CHANNEL_GP_PUT):
        if (v >> c->log2) reg_fault(r, n, GC_ERROR_CAUSE_BAD_GP_PUT, v); /* GP_PUT must be below 2^LOG2 */
        else c->gp_put = v;
        break;
    case CH_OFF(GC_REG_CHANNEL_CTRL):
        c->enable = GC_CHANNEL_CTRL_ENABLE_GET(v);
        if (GC_CHANNEL_CTRL_RESET_GET(v)) { /* wins over everything else */
            c->enable = false;
            c->gp_put = c->gp_get = 0;
            c->err_cause = GC_ERROR_CAUSE_NONE;
            c->err_gp_get = c->err_method = c->err_data = 0;
            ref_chan_reset(r, n);
        } else if (c->enable && log2_bad(c->log2)) {
            reg_fault(r, n, GC_ERROR_CAUSE_BAD_RING, c->log2);
        }
        break;
    case CH_OFF(GC_REG_CHANNEL_RUNLIST): c->runlist = GC_CHANNEL_RUNLIST_ID_GET(v); break;
    case CH_OFF(GC_REG_CHANNEL_TIMESLICE): c->timeslice = v; break;
    case CH_OFF(GC_REG_CHANNEL_INTERLEAVE): c->interleave = GC_CHANNEL_INTERLEAVE_LEVEL_GET(v); break;
    case CH_OFF(GC_REG_CHANNEL_ACQ_TIMEOUT): c->acq_timeout = v; break;
    case CH_OFF(GC_REG_CHANNEL_GP_GET):
    case CH_OFF(GC_REG_CHANNEL_ERROR):
    case CH_OFF(GC_REG_CHANNEL_ERROR_GP_GET):
    case CH_OFF(GC_REG_CHANNEL_ERROR_METHOD):
    case CH_OFF(GC_REG_CHANNEL_ERROR_DATA):
    case CH_OFF(GC_REG_CHANNEL_METHODS):
    case CH_OFF(GC_REG_CHANNEL_CYCLES_RESIDENT):
    case CH_OFF(GC_REG_CHANNEL_SWITCH_TIMESLICE):
    case CH_OFF(GC_REG_CHANNEL_SWITCH_ACQUIRE):
    case CH_OFF(GC_REG_CHANNEL_SWITCH_ENGINE):
    case CH_OFF(GC_REG_CHANNEL_SWITCH_EMPTY):
    case CH_OFF(GC_REG_CHANNEL_ACQ_BLOCKED_CYCLES):
    case CH_OFF(GC_REG_CHANNEL_STATUS): break;
    default: return false;
    }
    return true;
}

/* ------------------------------------------------------------------ backend ops */
static gc_status_t ref_open(const gc_device_config_t *cfg, void **state, char *err, size_t errlen) {
    ref_inject_t inj = INJ_NONE;
    if (cfg->inject) {
        if (!strcmp(cfg->inject, "flip-write")) inj = INJ_FLIP_WRITE;
        else if (!strcmp(cfg->inject, "drop-sem")) inj = INJ_DROP_SEM;
        else if (!strcmp(cfg->inject, "stall-reads")) inj = INJ_STALL_READS;
        else if (!strcmp(cfg->inject, "no-fpu")) inj = INJ_NO_FPU;
        else {
            snprintf(err, errlen, "ref: unknown inject mode '%s' (flip-write, drop-sem, stall-reads, no-fpu)", cfg->inject);
            return GC_ERR_BACKEND;
        }
    }
    if (cfg->stall_pct > 90) {
        snprintf(err, errlen, "ref: stall_pct %u is above 90", cfg->stall_pct);
        return GC_ERR_BACKEND;
    }
    if (cfg->waves) {
        snprintf(err, errlen, "the ref backend has no signals to write a waveform of (waves '%s': use --backend rtl or sc)",
                 cfg->waves);
        return GC_ERR_INVALID_ARG;
    }
    ref_t *r = calloc(1, sizeof *r);
    if (!r) return GC_ERR_NO_MEMORY;
    if (!ref_mem_alloc(r)) {
        ref_mem_free(r);
        free(r);
        snprintf(err, errlen, "ref: cannot allocate the memory windows");
        return GC_ERR_NO_MEMORY;
    }
    r->seed = cfg->seed;
    r->max_cycles = cfg->max_cycles;
    r->stall_pct = cfg->stall_pct;
    r->inject = inj;
    r->quiet = cfg->quiet;
    r->rng = cfg->seed * 0x9E3779B97F4A7C15ull + 1u;
    if (!r->rng) r->rng = 1;
    r->acq_retry = REF_ACQ_RETRY_RESET;
    r->sink = ref_pbdma_event; /* the copy engines', compute engine's and atomic unit's events */
    for (uint32_t i = 0; i < GC_NUM_CHANNELS; i++) r->ch[i].timeslice = REF_TIMESLICE_RESET;
    for (uint32_t rl = 0; rl < GC_NUM_RUNLISTS; rl++) ref_pbdma_init(r, rl);
    ref_cmp_init(r);
    r->t_open = wall_seconds();
    if (!r->quiet) {
        fprintf(stderr, "ref: seed %llu (repeat with GPUCOSIM_SEED=%llu or --seed), functional model\n",
                (unsigned long long)r->seed, (unsigned long long)r->seed);
    }
    *state = r;
    return GC_OK;
}

static void ref_close(void *s) {
    ref_t *r = s;
    if (!r) return;
    if (!r->quiet) {
        double secs = wall_seconds() - r->t_open;
        fprintf(stderr, "ref: %llu cycles in %.3f s = %.0f cycles/s (seed %llu)\n", (unsigned long long)r->now, secs,
                secs > 0 ? (double)r->now / secs : 0.0, (unsigned long long)r->seed);
    }
    ref_mem_free(r);
    ref_cmp_free(r);
    free(r);
}

static gc_status_t ref_mmio_read(void *s, uint32_t off, uint32_t *v) {
    ref_t *r = s;
    if (watchdog(r)) return GC_ERR_TIMEOUT;
    advance(r, r->now + MMIO_READ_SAMPLE);
    bool hit = reg_read(r, off, v);
    advance(r, r->now + MMIO_READ_REST);
    return hit ? GC_OK : GC_ERR_BUS;
}

static gc_status_t ref_mmio_write(void *s, uint32_t off, uint32_t v) {
    ref_t *r = s;
    if (watchdog(r)) return GC_ERR_TIMEOUT;
    advance(r, r->now + MMIO_WRITE_APPLY);
    bool hit = reg_write(r, off, v);
    advance(r, r->now + MMIO_WRITE_REST);
    return hit ? GC_OK : GC_ERR_BUS;
}

static gc_status_t host_mem_read(void *s, uint64_t addr, void *dst, size_t n) {
    return ref_mem_read(s, addr, dst, n) ? GC_OK : GC_ERR_INVALID_ARG;
}

static gc_status_t host_mem_write(void *s, uint64_t addr, const void *src, size_t n) {
    return ref_mem_write(s, addr, src, n) ? GC_OK : GC_ERR_INVALID_ARG;
}

static gc_status_t ref_run(void *s, uint64_t cycles) {
    ref_t *r = s;
    if (!cycles) return GC_OK;
    if (watchdog(r)) return GC_ERR_TIMEOUT;
    uint64_t target = r->now + cycles;
    bool capped = r->max_cycles && target > r->max_cycles;
    advance(r, capped ? r->max_cycles : target);
    return capped && watchdog(r) ? GC_ERR_TIMEOUT : GC_OK;
}

static bool ref_irq(void *s) {
    const ref_t *r = s;
    return (r->intr_status & r->intr_enable) != 0;
}

static uint64_t ref_cycles(void *s) { return ((const ref_t *)s)->now; }
/* nothing runs after the watchdog: it fired at the current cycle */
static bool ref_watchdog(void *s, uint64_t *at) {
    const ref_t *r = s;
    *at = r->now;
    return r->watchdog_fired;
}
/* a register read for diagnostics: no time passes, works after the watchdog */
static gc_status_t ref_debug_read(void *s, uint32_t off, uint32_t *v) { return reg_read(s, off, v) ? GC_OK : GC_ERR_BUS; }
static uint64_t ref_seed(void *s) { return ((const ref_t *)s)->seed; }

/* ------------------------------------------------------------------ stuck-state dump */
static const char *sw_name[] = {"TIMESLICE", "ACQUIRE", "ENGINE", "EMPTY"};

static void print_when(FILE *out, const char *what, uint64_t t, uint64_t now) {
    if (t == REF_NEVER) fprintf(out, ", %s never", what);
    else if (t > now) fprintf(out, ", %s at cycle %llu", what, (unsigned long long)t);
}

static void ref_dump(void *s, FILE *out) {
    ref_t *r = s;
    fprintf(out, "---- gpucosim ref stuck-state dump at cycle %llu (seed %llu) ----\n", (unsigned long long)r->now,
            (unsigned long long)r->seed);
    for (uint32_t rl = 0; rl < GC_NUM_RUNLISTS; rl++) {
        const ref_pbdma_t *p = &r->pb[rl];
        fprintf(out, "runlist %u PBDMA: state %s, channel %u, %u pushbuffer dwords left, %u switches", rl,
                gc_pbdma_state_name(p->state), p->cur, p->seg_left, p->switches);
        print_when(out, "busy until", p->busy_until, r->now);
        if (p->state == GC_PBDMA_STATE_PB_FETCH) print_when(out, "next dword", p->wake_at, r->now);
        if (p->own_vld)
            fprintf(out, "; owner %u%s, slice %llu/%u cycles", p->own, p->hold ? " (holding for its copy)" : "",
                    (unsigned long long)(r->now - p->slice_t), r->ch[p->own].timeslice);
        else
            fprintf(out, "; no owner");
        if (rl != 0 && p->ce_busy) fprintf(out, "; CE%u busy with channel %u", rl - 1u, p->ce_ch);
        fprintf(out, "\n");
    }
    for (uint32_t e = 0; e < GC_NUM_CE; e++) {
        const ref_ce_t *ce = &r->ce[e];
        fprintf(out, "CE%u: state %s, channel %u, %u bytes moved, %u busy cycles", e, gc_ce_state_name(ce->state),
                ce->ch, ce->bytes, ce->busy_cycles);
        if (ce->state == GC_CE_STATE_COPY) {
            fprintf(out, " (%s of %u x %u bytes, 0x%010llx -> 0x%010llx", ce->remap ? "memset" : "copy", ce->line_count,
                    ce->line_len, (unsigned long long)ce->src, (unsigned long long)ce->dst);
            print_when(out, "done", ce->t_next, r->now);
            fprintf(out, ")");
        }
        fprintf(out, "\n");
    }
    ref_cmp_dump(r, out);
    for (uint32_t i = 0; i < REF_NAU; i++) {
        const ref_au_req_t *q = &r->au[i];
        if (!q->valid) continue;
        static const char *const op[] = {"READ", "WRITE", "RMW"};
        fprintf(out, "atomic unit: %s of %u bytes at 0x%010llx for %s %u", op[q->op], q->size,
                (unsigned long long)q->addr,
                i < GC_NUM_RUNLISTS ? "runlist" : i == REF_AU_COMPUTE ? "compute release" : i == REF_AU_LOG ? "task log" : "CE",
                i < GC_NUM_RUNLISTS ? i : i >= REF_AU_COMPUTE ? 0u : i - GC_NUM_RUNLISTS);
        if (q->done) fprintf(out, ", answered");
        else print_when(out, "answer", q->t_done, r->now);
        fprintf(out, "\n");
    }
    fprintf(out, "IRQ: status 0x%x enable 0x%x line %d; faulted channels 0x%x\n", r->intr_status, r->intr_enable,
            ref_irq(r), fault_map(r));
    for (uint32_t i = 0; i < GC_NUM_CHANNELS; i++) {
        const ref_chan_t *c = &r->ch[i];
        if (!c->enable && !c->err_cause && c->gp_get == c->gp_put) continue;
        uint32_t st = chan_status(r, i);
        fprintf(out, "channel %2u: %s runlist %u GP_GET %u GP_PUT %u, %u methods, error %s%s%s%s%s\n", i,
                c->enable ? "enabled " : "disabled", c->runlist, c->gp_get, c->gp_put, c->methods,
                gc_error_cause_name(c->err_cause), GC_CHANNEL_STATUS_PENDING_GET(st) ? ", work pending" : "",
                GC_CHANNEL_STATUS_RESIDENT_GET(st) ? ", resident" : "",
                GC_CHANNEL_STATUS_ENGINE_BUSY_GET(st) ? ", copy in flight" : "",
                GC_CHANNEL_STATUS_ACQ_BLOCKED_GET(st) ? ", blocked on an acquire" : "");
        if (c->err_cause)
            fprintf(out, "            error at GP_GET %u, method 0x%04x on subchannel %u, data 0x%08x\n", c->err_gp_get,
                    GC_CHANNEL_ERROR_METHOD_ADDRESS_GET(c->err_method) * 4u,
                    GC_CHANNEL_ERROR_METHOD_SUBCHANNEL_GET(c->err_method), c->err_data);
        if (c->in_ent)
            fprintf(out, "            left mid-entry: %u dwords from 0x%010llx\n", c->ent_left,
                    (unsigned long long)c->ent_addr);
        if (c->acq_blk)
            fprintf(out, "            acquire on 0x%010llx blocked %llu cycles%s\n", (unsigned long long)c->acq_addr,
                    (unsigned long long)(r->now - c->acq_blk_t), c->acq_woke ? ", woken by a write" : "");
        fprintf(out, "            switches: %s %u, %s %u, %s %u, %s %u; %u cycles resident\n", sw_name[0],
                c->sw_count[0], sw_name[1], c->sw_count[1], sw_name[2], c->sw_count[2], sw_name[3], c->sw_count[3],
                c->cyc_resident);
    }
    fprintf(out, "memory: %llu read bursts issued, %llu beats written\n", (unsigned long long)r->n_reads,
            (unsigned long long)r->n_wbeats);
    fprintf(out, "---- end of dump ----\n");
}

const gc_backend_ops_t gc_backend_ref = {
    .name = "ref",
    .doc = "functional C model: channels, methods, semaphores, copies, time slices at method granularity (fast)",
    .open = ref_open,
    .close = ref_close,
    .mmio_read = ref_mmio_read,
    .mmio_write = ref_mmio_write,
    .mem_read = host_mem_read,
    .mem_write = host_mem_write,
    .run = ref_run,
    .irq = ref_irq,
    .cycles = ref_cycles,
    .seed = ref_seed,
    .dump_state = ref_dump,
    .watchdog = ref_watchdog,
    .debug_read = ref_debug_read,
};
