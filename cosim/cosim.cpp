// cosim.cpp: the C ABI (cosim.h) around gpu_top, on the shared bench harness (harness.h: clock,
// reset, the AXI4 memory model, the AXI4-Lite master, watchdog, seed, FST).
//
// One cycle = drive the model's inputs with the clock low, settle, sample the AXI handshakes that
// happen at this edge, raise the clock, lower it again, then let the memory model act on what it
// sampled.  The FST trace (when on) gets both edges.
//
// Tracing is compiled in only with GC_COSIM_TRACE=1, against the traced Verilation of gpu_top
// (build/vl_trace, linked into build/bin/gpucosim-waves); the default model has no tracing code
// and cosim_open refuses a waveform there with a line naming the traced binary.
#include "cosim.h"
#include "dump_regs.h"
#ifndef GC_COSIM_TRACE
#define GC_COSIM_TRACE 0
#endif
#if GC_COSIM_TRACE
#define GC_HARNESS_FST
#endif
#include "harness.h"

#include <cctype>
#include <chrono>
#include <cinttypes>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

#include "Vgpu_top.h"
#include "gpucosim_spec.h"

struct cosim {
    cosim_config_t cfg{};
    std::unique_ptr<gctb::Harness<Vgpu_top>> h;
    std::string waves, inject;
    bool watchdog_fired = false;
    uint64_t watchdog_at = 0; // the cycle it fired at: the device's time stops there
    std::chrono::steady_clock::time_point t0;
};

// A numeric GPUCOSIM_* variable (decimal or 0x-hex digits only, at most max); a malformed one
// goes to c->env_error (the first one wins) and cosim_open refuses the configuration.
static uint64_t env_u64(cosim_config_t *c, const char *name, uint64_t max, uint64_t dflt) {
    const char *v = std::getenv(name);
    if (!v || !*v) return dflt;
    bool hex = v[0] == '0' && (v[1] == 'x' || v[1] == 'X');
    const char *p = hex ? v + 2 : v;
    uint64_t x = 0;
    bool ok = *p != 0;
    for (; ok && *p; p++) {
        int d = std::isdigit((unsigned char)*p) ? *p - '0'
                : hex && std::isxdigit((unsigned char)*p) ? std::tolower((unsigned char)*p) - 'a' + 10
                                                           : -1;
        uint64_t base = hex ? 16 : 10;
        ok = d >= 0 && x <= (UINT64_MAX - (uint64_t)d) / base;
        if (ok) x = x * base + (uint64_t)d;
    }
    if (ok && x <= max) return x;
    if (!c->env_error[0])
        std::snprintf(c->env_error, sizeof c->env_error, "%s='%.40s' is not a number in 0..%" PRIu64, name, v, max);
    return dflt;
}

extern "C" void cosim_config_default(cosim_config_t *c) {
    std::memset(c, 0, sizeof *c);
    c->seed = env_u64(c, "GPUCOSIM_SEED", UINT64_MAX, 1);
    const char *w = std::getenv("GPUCOSIM_WAVES");
    c->waves = (w && *w) ? w : nullptr;
    c->sys_latency = 100;  // a PCIe round trip
    c->sys_bytes_per_cycle = 4;
    c->vid_latency = 40;   // DRAM
    c->vid_bytes_per_cycle = 8;
    c->stall_pct = (uint32_t)env_u64(c, "GPUCOSIM_STALL_PCT", 90, 0);
    c->max_cycles = env_u64(c, "GPUCOSIM_MAX_CYCLES", UINT64_MAX, 0);
    const char *inj = std::getenv("GPUCOSIM_INJECT");
    c->inject = (inj && *inj) ? inj : nullptr;
}

// Waveform time (harness.h): the clock falls at cycle * 1000 ps and rises at cycle * 1000 + 500,
// cycle being what cosim_cycles() returns (GTKWave's ruler, which reads ns, shows cycle numbers).
// cosim/gpucosim.gtkw and README's Waveforms section say the same; tests/tools/test_gtkw.py checks
// the grid.  One clock cycle; the MMIO master's pins are whatever the caller set on the top.
static void tick(cosim_t *s) { s->h->tick(); }

static bool watchdog(cosim_t *s) {
    if (s->h->expired() && !s->watchdog_fired) {
        s->watchdog_fired = true;
        s->watchdog_at = s->h->cycle;
        std::fprintf(stderr, "cosim: watchdog: %" PRIu64 " cycles reached the limit of %" PRIu64 "\n",
                     s->h->cycle, s->cfg.max_cycles);
        cosim_dump_state(s, stderr);
    }
    return s->watchdog_fired;
}

extern "C" cosim_t *cosim_open(const cosim_config_t *cfg, char *err, size_t errlen) {
    if (!cfg) {
        std::snprintf(err, errlen, "cosim_open: no configuration");
        return nullptr;
    }
    if (cfg->env_error[0]) {
        std::snprintf(err, errlen, "%s", cfg->env_error);
        return nullptr;
    }
    if (cfg->stall_pct > 90) {
        std::snprintf(err, errlen, "cosim_open: stall_pct %u is above 90", cfg->stall_pct);
        return nullptr;
    }
    if (cfg->inject && std::strcmp(cfg->inject, "flip-write") && std::strcmp(cfg->inject, "drop-sem") &&
        std::strcmp(cfg->inject, "stall-reads")) {
        std::snprintf(err, errlen, "cosim_open: unknown inject mode '%s' (flip-write, drop-sem, stall-reads)",
                      cfg->inject);
        return nullptr;
    }
#if !GC_COSIM_TRACE
    if (cfg->waves) {
        std::snprintf(err, errlen, "cosim_open: this model is built without tracing (waves '%s'): " COSIM_NO_TRACE_HINT,
                      cfg->waves);
        return nullptr;
    }
#endif
    auto s = std::make_unique<cosim>();
    s->cfg = *cfg;
    if (cfg->waves) s->waves = cfg->waves;
    if (cfg->inject) s->inject = cfg->inject;
    s->cfg.waves = s->waves.empty() ? nullptr : s->waves.c_str();
    s->cfg.inject = s->inject.empty() ? nullptr : s->inject.c_str();
    s->h = std::make_unique<gctb::Harness<Vgpu_top>>(cfg->seed, !s->waves.empty());
    s->h->cov_tag = "cosim";
    s->h->max_cycles = cfg->max_cycles;
    s->h->attach_mem(cfg->sys_latency, cfg->sys_bytes_per_cycle, cfg->vid_latency, cfg->vid_bytes_per_cycle,
                     cfg->stall_pct, s->inject);
#if GC_COSIM_TRACE
    if (!s->waves.empty() && !s->h->open_waves(s->waves)) {
        std::snprintf(err, errlen, "cosim_open: cannot write waveform file '%s'", s->waves.c_str());
        return nullptr;
    }
#endif
    Vgpu_top &t = *s->h->top;
    t.s_awvalid_i = t.s_wvalid_i = t.s_arvalid_i = 0;
    t.s_bready_i = t.s_rready_i = 0;
    s->h->reset(8);
    if (!cfg->quiet) {
        std::fprintf(stderr, "cosim: seed %" PRIu64 " (repeat with GPUCOSIM_SEED=%" PRIu64 " or --seed)%s%s\n",
                     cfg->seed, cfg->seed, s->waves.empty() ? "" : ", waves to ", s->waves.c_str());
    }
    s->t0 = std::chrono::steady_clock::now();
    return s.release();
}

extern "C" void cosim_close(cosim_t *s) {
    if (!s) return;
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - s->t0).count();
    if (!s->cfg.quiet) {
        std::fprintf(stderr, "cosim: %" PRIu64 " cycles in %.3f s = %.0f cycles/s (seed %" PRIu64 ")\n", s->h->cycle,
                     secs, secs > 0 ? (double)s->h->cycle / secs : 0.0, s->cfg.seed);
    }
    delete s;
}

static const uint64_t MMIO_TIMEOUT = 1000;

// An AXI4-Lite access on the harness; SLVERR / DECERR is a bus error.
static int mmio_rc(cosim_t *s, int resp) {
    if (resp < 0) return s->watchdog_fired ? COSIM_ERR_WATCHDOG : COSIM_ERR_TIMEOUT;
    return resp >= 2 ? COSIM_ERR_BUS : COSIM_OK;
}

extern "C" int cosim_mmio_write(cosim_t *s, uint32_t off, uint32_t val) {
    if (watchdog(s)) return COSIM_ERR_WATCHDOG;
    return mmio_rc(s, s->h->axil_write(off, val, MMIO_TIMEOUT, [s] { return watchdog(s); }));
}

extern "C" int cosim_mmio_read(cosim_t *s, uint32_t off, uint32_t *val) {
    if (watchdog(s)) return COSIM_ERR_WATCHDOG;
    return mmio_rc(s, s->h->axil_read(off, val, MMIO_TIMEOUT, [s] { return watchdog(s); }));
}

extern "C" int cosim_mem_write(cosim_t *s, uint64_t addr, const void *src, size_t n) {
    return s->h->mem->host_write(addr, src, n) ? COSIM_OK : COSIM_ERR_ARG;
}

extern "C" int cosim_mem_read(cosim_t *s, uint64_t addr, void *dst, size_t n) {
    return s->h->mem->host_read(addr, dst, n) ? COSIM_OK : COSIM_ERR_ARG;
}

extern "C" int cosim_step(cosim_t *s, uint64_t cycles) {
    for (uint64_t i = 0; i < cycles; i++) {
        if (watchdog(s)) return COSIM_ERR_WATCHDOG;
        tick(s);
    }
    return COSIM_OK;
}

extern "C" int cosim_watchdog(cosim_t *s, uint64_t *fired_at) {
    if (fired_at) *fired_at = s->watchdog_at;
    return s->watchdog_fired ? 1 : 0;
}

// After the watchdog fired the device is stopped at watchdog_at: a diagnostic read still clocks
// the register bus (an AXI4-Lite read needs edges), but those cycles are outside simulated time:
// not counted (cosim_cycles stays at watchdog_at) and not in the waveform.
extern "C" int cosim_debug_read(cosim_t *s, uint32_t offset, uint32_t *value) {
    uint64_t saved = s->h->max_cycles;
    bool fired = s->watchdog_fired;
    s->h->dump_on = !fired;
    s->h->max_cycles = 0;
    s->watchdog_fired = false;
    int rc = cosim_mmio_read(s, offset, value);
    s->h->max_cycles = saved;
    s->watchdog_fired = fired;
    s->h->dump_on = true;
    return rc;
}

extern "C" int cosim_has_trace(void) { return GC_COSIM_TRACE; }

extern "C" const char *cosim_verilator_version(void) { return VERILATOR_PRODUCT " " VERILATOR_VERSION; }

extern "C" int cosim_irq(cosim_t *s) { return s->h->top->irq_o ? 1 : 0; }
extern "C" uint64_t cosim_cycles(cosim_t *s) { return s->watchdog_fired ? s->watchdog_at : s->h->cycle; }
extern "C" uint64_t cosim_seed(cosim_t *s) { return s->cfg.seed; }

extern "C" void cosim_dump_state(cosim_t *s, FILE *out) {
    // Reads go over MMIO (a few cycles each); the limit is lifted so the dump itself can run.
    auto rd = [&](uint32_t off) {
        uint32_t v = 0xFFFFFFFFu;
        if (cosim_debug_read(s, off, &v) != COSIM_OK) v = 0xFFFFFFFFu;
        return v;
    };
    std::fprintf(out, "---- gpucosim stuck-state dump at cycle %" PRIu64 " (seed %" PRIu64 ") ----\n", s->h->cycle,
                 s->cfg.seed);
    gc_dump_regs(out, rd, cosim_irq(s));
    std::fprintf(out, "memory: %zu read beats queued, %zu write bursts/responses pending, %" PRIu64
                      " read bursts accepted, %" PRIu64 " beats written\n",
                 s->h->mem->reads_pending(), s->h->mem->writes_pending(), s->h->mem->reads_accepted(),
                 s->h->mem->beats_written());
    std::fprintf(out, "---- end of dump ----\n");
}
