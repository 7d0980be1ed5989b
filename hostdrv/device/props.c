/* props.c: device properties and performance-counter snapshots over BAR0 (gpucosim/props.h). */
#include "gpucosim/props.h"

#include <inttypes.h>
#include <stddef.h>
#include <string.h>

#include "internal.h"

/* A register access's status; on failure record which register and why. */
static gc_status_t reg_status(gc_device_t *dev, gc_status_t st, const char *verb, uint32_t off, const char *name) {
    if (st == GC_OK) return GC_OK;
    const char *m = gc_device_last_error(dev);
    char why[256];
    snprintf(why, sizeof why, "%s", *m ? m : gc_status_str(st));
    return gc_fail(dev, st, "%s %s (BAR0 0x%04x): %s", verb, name, (unsigned)off, why);
}

static gc_status_t rd(gc_device_t *dev, uint32_t off, const char *name, uint32_t *v) {
    return reg_status(dev, gc_mmio_read(dev, off, v), "reading", off, name);
}

static gc_status_t wr(gc_device_t *dev, uint32_t off, const char *name, uint32_t v) {
    return reg_status(dev, gc_mmio_write(dev, off, v), "writing", off, name);
}

gc_status_t gc_time_read(gc_device_t *dev, uint64_t *t) {
    if (!dev || !t) return dev ? gc_fail(dev, GC_ERR_INVALID_ARG, "gc_time_read: NULL time") : GC_ERR_INVALID_ARG;
    uint32_t lo = 0, hi = 0;
    gc_status_t st = rd(dev, GC_REG_GLOBAL_CYCLE_LO, "GLOBAL.CYCLE_LO", &lo); /* latches CYCLE_HI */
    if (!st) st = rd(dev, GC_REG_GLOBAL_CYCLE_HI, "GLOBAL.CYCLE_HI", &hi);
    if (!st) *t = (uint64_t)hi << 32 | lo;
    return st;
}

gc_status_t gc_time_set(gc_device_t *dev, uint64_t t) {
    if (!dev) return GC_ERR_INVALID_ARG;
    gc_status_t st = wr(dev, GC_REG_GLOBAL_CYCLE_HI, "GLOBAL.CYCLE_HI", (uint32_t)(t >> 32));
    if (!st) st = wr(dev, GC_REG_GLOBAL_CYCLE_LO, "GLOBAL.CYCLE_LO", (uint32_t)t);
    if (!st) dev->time_set = true;
    return st;
}

bool gc_time_is_set(const gc_device_t *dev) { return dev && dev->time_set; }

uint64_t gc_time_host(gc_device_t *dev) {
    uint64_t t = 0;
    if (gc_time_is_set(dev) && gc_time_read(dev, &t) == GC_OK) return t;
    return gc_device_cycles(dev);
}

static const gc_window_prop_t windows[GC_PROPS_WINDOWS] = {
    {"SYSMEM", GC_SIMT_WIN_SYSMEM_BASE, GC_SIMT_WIN_SYSMEM_SIZE, GC_SIMT_WIN_SYSMEM_GUARD, GC_SIMT_WIN_SYSMEM_DEVICE},
    {"VIDMEM", GC_SIMT_WIN_VIDMEM_BASE, GC_SIMT_WIN_VIDMEM_SIZE, GC_SIMT_WIN_VIDMEM_GUARD, GC_SIMT_WIN_VIDMEM_DEVICE},
    {"SHARED", GC_SIMT_WIN_SHARED_BASE, GC_SIMT_WIN_SHARED_SIZE, 0, 0},
    {"LOCAL", GC_SIMT_WIN_LOCAL_BASE, GC_SIMT_WIN_LOCAL_SIZE, 0, 0},
};

/* GLOBAL.CONFIG: channels, runlists, copy engines, bus bytes; refused when they exceed what this
 * driver was built for (its arrays are sized by the spec). */
static gc_status_t read_config(gc_device_t *dev, uint32_t *nch, uint32_t *nrl, uint32_t *nce, uint32_t *bus) {
    uint32_t c = 0;
    gc_status_t st = rd(dev, GC_REG_GLOBAL_CONFIG, "GLOBAL.CONFIG", &c);
    if (st) return st;
    *nch = GC_GLOBAL_CONFIG_NUM_CHANNELS_GET(c);
    *nrl = GC_GLOBAL_CONFIG_NUM_RUNLISTS_GET(c);
    *nce = GC_GLOBAL_CONFIG_NUM_CE_GET(c);
    if (bus) *bus = GC_GLOBAL_CONFIG_DATA_BYTES_GET(c);
    if (*nch > GC_NUM_CHANNELS || *nrl > GC_NUM_RUNLISTS || *nce > GC_NUM_CE)
        return gc_fail(dev, GC_ERR_BACKEND,
                       "GLOBAL.CONFIG 0x%08" PRIx32 " names %u channels, %u runlists, %u copy engines: more than this "
                       "driver's spec (%u, %u, %u)",
                       c, *nch, *nrl, *nce, GC_NUM_CHANNELS, GC_NUM_RUNLISTS, GC_NUM_CE);
    return GC_OK;
}

gc_status_t gc_device_get_props(gc_device_t *dev, gc_device_props_t *out) {
    if (!dev || !out) return dev ? gc_fail(dev, GC_ERR_INVALID_ARG, "gc_device_get_props: NULL props") : GC_ERR_INVALID_ARG;
    gc_device_props_t p;
    memset(&p, 0, sizeof p);
    p.backend = gc_device_config(dev)->backend;
    gc_status_t st = rd(dev, GC_REG_GLOBAL_ID, "GLOBAL.ID", &p.id);
    if (!st) st = rd(dev, GC_REG_GLOBAL_VERSION, "GLOBAL.VERSION", &p.version);
    if (!st) st = read_config(dev, &p.channels, &p.runlists, &p.copy_engines, &p.bus_bytes);
    uint32_t cc = 0, tc = 0, caps = 0;
    if (!st) st = rd(dev, GC_REG_COMPUTE_CONFIG, "COMPUTE.CONFIG", &cc);
    if (st) return st;
    p.compute = cc != 0;
    if (p.compute) {
        st = rd(dev, GC_REG_COMPUTE_TMU_CONFIG, "COMPUTE.TMU_CONFIG", &tc);
        if (!st) st = rd(dev, GC_REG_COMPUTE_CAPS, "COMPUTE.CAPS", &caps);
        if (st) return st;
        p.sms = GC_COMPUTE_CONFIG_NUM_SM_GET(cc);
        p.warps = GC_COMPUTE_CONFIG_WARPS_GET(cc);
        p.lanes = GC_COMPUTE_CONFIG_LANES_GET(cc);
        p.smem_bytes = GC_COMPUTE_CONFIG_SMEM_KB_GET(cc) * 1024u;
        p.lmem_bytes = GC_COMPUTE_CAPS_LMEM_BYTES_GET(caps);
        p.fpu = GC_COMPUTE_CAPS_FPU_GET(caps) != 0;
        p.tmu_slots = GC_COMPUTE_TMU_CONFIG_SLOTS_GET(tc);
        p.tmu_entries = GC_COMPUTE_TMU_CONFIG_ENTRIES_GET(tc);
        p.prio_levels = GC_COMPUTE_TMU_CONFIG_PRIO_LEVELS_GET(tc);
    }
    p.sysmem_base = GC_SYSMEM_BASE;
    p.sysmem_size = GC_SYSMEM_SIZE;
    p.vidmem_base = GC_VIDMEM_BASE;
    p.vidmem_size = GC_VIDMEM_SIZE;
    memcpy(p.windows, windows, sizeof windows);
    *out = p;
    return GC_OK;
}

void gc_props_print(FILE *f, const gc_device_props_t *p) {
    fprintf(f, "device: backend %s, id 0x%08" PRIx32 ", spec version %u.%u.%u\n", p->backend ? p->backend : "?",
            p->id, (unsigned)(p->version >> 16), (unsigned)((p->version >> 8) & 0xFFu), (unsigned)(p->version & 0xFFu));
    fprintf(f, "  channels          %u\n", p->channels);
    fprintf(f, "  runlists          %u (0 compute, 1..%u copy)\n", p->runlists, p->runlists ? p->runlists - 1u : 0u);
    fprintf(f, "  copy engines      %u\n", p->copy_engines);
    fprintf(f, "  bus bytes/beat    %u\n", p->bus_bytes);
    fprintf(f, "  sysmem            0x%010" PRIx64 " + %" PRIu64 " MiB\n", p->sysmem_base, p->sysmem_size >> 20);
    fprintf(f, "  vidmem            0x%010" PRIx64 " + %" PRIu64 " MiB\n", p->vidmem_base, p->vidmem_size >> 20);
    if (!p->compute) {
        fprintf(f, "  compute           none (COMPUTE.CONFIG reads 0)\n");
        return;
    }
    fprintf(f, "  SMs               %u\n", p->sms);
    fprintf(f, "  warps per SM      %u\n", p->warps);
    fprintf(f, "  lanes per warp    %u\n", p->lanes);
    fprintf(f, "  shared memory     %u bytes per SM\n", p->smem_bytes);
    fprintf(f, "  local memory      %u bytes per thread\n", p->lmem_bytes);
    fprintf(f, "  FPU               %s\n", p->fpu ? "yes (RV32F)" : "no (F instructions fault ILLEGAL_INSTRUCTION)");
    fprintf(f, "  TMU task slots    %u\n", p->tmu_slots);
    fprintf(f, "  TMU entries       %u\n", p->tmu_entries);
    fprintf(f, "  device priorities 0..%u (%u levels, higher is more urgent)\n", p->prio_levels ? p->prio_levels - 1u : 0u,
            p->prio_levels);
    for (unsigned i = 0; i < GC_PROPS_WINDOWS; i++) {
        const gc_window_prop_t *w = &p->windows[i];
        fprintf(f, "  window %-10s 0x%08" PRIx32 " + 0x%08" PRIx32, w->name, w->base, w->size);
        if (w->guard || w->device) fprintf(f, " (device 0x%010" PRIx64 ", NULL guard %u KiB)", w->device, w->guard >> 10);
        fputc('\n', f);
    }
}

/* ------------------------------------------------------------------ counters */
typedef struct ctr {
    const char *name;
    uint32_t off;   /* register (block 0 for per-instance blocks) */
    size_t field;   /* offset in the struct */
} ctr_t;

#define CP(reg, fld) {"COMPUTE." #reg, GC_REG_COMPUTE_##reg, offsetof(gc_counters_t, fld)}
static const ctr_t compute_ctrs[] = {
    CP(TASKS, tasks), CP(CTAS, ctas), CP(WARP_INSTRS, warp_instrs), CP(THREAD_INSTRS, thread_instrs),
    CP(ACTIVE_CYCLES, active_cycles), CP(ICACHE_MISSES, icache_misses), CP(LSU_BEATS, lsu_beats),
    CP(EVICTIONS, evictions), CP(DEV_LAUNCHES, dev_launches), CP(LAUNCH_FAILS, launch_fails),
    CP(GATED_CYCLES, gated_cycles),
};
#undef CP
#define CH(reg, fld) {"CHANNEL." #reg, GC_REG_CHANNEL_##reg(0), offsetof(gc_channel_counters_t, fld)}
static const ctr_t channel_ctrs[] = {
    CH(METHODS, methods), CH(CYCLES_RESIDENT, cycles_resident), CH(SWITCH_TIMESLICE, switch_timeslice),
    CH(SWITCH_ACQUIRE, switch_acquire), CH(SWITCH_ENGINE, switch_engine), CH(SWITCH_EMPTY, switch_empty),
    CH(ACQ_BLOCKED_CYCLES, acq_blocked_cycles),
};
#undef CH
#define NCTR(a) (sizeof a / sizeof a[0])

static uint32_t *at(void *base, size_t off) { return (uint32_t *)((char *)base + off); }

gc_status_t gc_counters_read(gc_device_t *dev, gc_counters_t *out) {
    if (!dev || !out) return dev ? gc_fail(dev, GC_ERR_INVALID_ARG, "gc_counters_read: NULL counters") : GC_ERR_INVALID_ARG;
    gc_counters_t c;
    memset(&c, 0, sizeof c);
    uint32_t cc = 0;
    gc_status_t st = gc_time_read(dev, &c.cycle);
    if (!st) st = read_config(dev, &c.channels, &c.runlists, &c.copy_engines, NULL);
    char name[48];
    for (uint32_t r = 0; !st && r < c.runlists; r++) {
        snprintf(name, sizeof name, "RUNLIST%u.SWITCHES", r);
        st = rd(dev, GC_REG_RUNLIST_SWITCHES(r), name, &c.runlist_switches[r]);
        snprintf(name, sizeof name, "RUNLIST%u.GATED_CYCLES", r);
        if (!st) st = rd(dev, GC_REG_RUNLIST_GATED_CYCLES(r), name, &c.runlist_gated[r]);
    }
    for (uint32_t e = 0; !st && e < c.copy_engines; e++) {
        snprintf(name, sizeof name, "ENGINE%u.BYTES", e);
        st = rd(dev, GC_REG_ENGINE_BYTES(e), name, &c.ce_bytes[e]);
        snprintf(name, sizeof name, "ENGINE%u.BUSY_CYCLES", e);
        if (!st) st = rd(dev, GC_REG_ENGINE_BUSY_CYCLES(e), name, &c.ce_busy_cycles[e]);
        snprintf(name, sizeof name, "ENGINE%u.GATED_CYCLES", e);
        if (!st) st = rd(dev, GC_REG_ENGINE_GATED_CYCLES(e), name, &c.ce_gated[e]);
    }
    for (uint32_t ch = 0; !st && ch < c.channels; ch++)
        for (size_t i = 0; !st && i < NCTR(channel_ctrs); i++) {
            snprintf(name, sizeof name, "%s(%u)", channel_ctrs[i].name, ch);
            st = rd(dev, channel_ctrs[i].off + ch * GC_REG_CHANNEL_STRIDE, name, at(&c.channel[ch], channel_ctrs[i].field));
        }
    if (!st) st = rd(dev, GC_REG_COMPUTE_CONFIG, "COMPUTE.CONFIG", &cc);
    c.compute = !st && cc != 0;
    for (size_t i = 0; !st && c.compute && i < NCTR(compute_ctrs); i++)
        st = rd(dev, compute_ctrs[i].off, compute_ctrs[i].name, at(&c, compute_ctrs[i].field));
    if (st) return st;
    *out = c;
    return GC_OK;
}

void gc_counters_diff(const gc_counters_t *a, const gc_counters_t *b, gc_counters_t *d) {
    gc_counters_t r = *b;
    r.cycle = b->cycle - a->cycle;
    for (uint32_t i = 0; i < GC_NUM_RUNLISTS; i++) {
        r.runlist_switches[i] = b->runlist_switches[i] - a->runlist_switches[i];
        r.runlist_gated[i] = b->runlist_gated[i] - a->runlist_gated[i];
    }
    for (uint32_t i = 0; i < GC_NUM_CE; i++) {
        r.ce_bytes[i] = b->ce_bytes[i] - a->ce_bytes[i];
        r.ce_busy_cycles[i] = b->ce_busy_cycles[i] - a->ce_busy_cycles[i];
        r.ce_gated[i] = b->ce_gated[i] - a->ce_gated[i];
    }
    for (uint32_t ch = 0; ch < GC_NUM_CHANNELS; ch++)
        for (size_t i = 0; i < NCTR(channel_ctrs); i++)
            *at(&r.channel[ch], channel_ctrs[i].field) =
                *at((void *)&b->channel[ch], channel_ctrs[i].field) - *at((void *)&a->channel[ch], channel_ctrs[i].field);
    for (size_t i = 0; i < NCTR(compute_ctrs); i++)
        *at(&r, compute_ctrs[i].field) = *at((void *)b, compute_ctrs[i].field) - *at((void *)a, compute_ctrs[i].field);
    *d = r;
}

static double ratio(uint32_t a, uint32_t b) { return b ? (double)a / b : 0.0; }

void gc_counters_print(FILE *f, const gc_counters_t *c, const gc_device_props_t *p) {
    fprintf(f, "counters: cycle %" PRIu64 "\n", c->cycle);
    if (c->compute) {
        fprintf(f, "  compute: tasks %u, ctas %u, warp_instrs %u, thread_instrs %u, active_cycles %u, icache_misses %u, "
                   "lsu_beats %u, evictions %u, dev_launches %u, launch_fails %u, gated_cycles %u\n",
                c->tasks, c->ctas, c->warp_instrs, c->thread_instrs, c->active_cycles, c->icache_misses, c->lsu_beats,
                c->evictions, c->dev_launches, c->launch_fails, c->gated_cycles);
        fprintf(f, "  compute: IPC %.3f warp instructions per active cycle", ratio(c->warp_instrs, c->active_cycles));
        if (p && p->lanes)
            fprintf(f, ", %.2f of %u lanes per warp instruction", ratio(c->thread_instrs, c->warp_instrs), p->lanes);
        fputc('\n', f);
    }
    for (uint32_t r = 0; r < c->runlists; r++)
        fprintf(f, "  runlist %u: switches %u, gated_cycles %u\n", r, c->runlist_switches[r], c->runlist_gated[r]);
    for (uint32_t e = 0; e < c->copy_engines; e++)
        fprintf(f, "  ce %u: bytes %u, busy_cycles %u (%.2f bytes per busy cycle), gated_cycles %u\n", e, c->ce_bytes[e],
                c->ce_busy_cycles[e], ratio(c->ce_bytes[e], c->ce_busy_cycles[e]), c->ce_gated[e]);
    for (uint32_t ch = 0; ch < c->channels; ch++) {
        const gc_channel_counters_t *k = &c->channel[ch];
        if (!(k->methods | k->cycles_resident | k->switch_timeslice | k->switch_acquire | k->switch_engine |
              k->switch_empty | k->acq_blocked_cycles))
            continue;
        fprintf(f, "  channel %u: methods %u, cycles_resident %u, switches: timeslice %u, acquire %u, engine %u, "
                   "empty %u; acq_blocked_cycles %u\n",
                ch, k->methods, k->cycles_resident, k->switch_timeslice, k->switch_acquire, k->switch_engine,
                k->switch_empty, k->acq_blocked_cycles);
    }
}
