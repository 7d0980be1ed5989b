// cosim.cpp: the Verilator harness around gpu_top (see cosim.h for the C ABI).
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

#include <cctype>
#include <chrono>
#include <cinttypes>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

#include "Vgpu_top.h"
#include "axi_mem.h"
#include "gc_cov.h"
#include "gpucosim_spec.h"
#include "verilated.h"
#ifndef GC_COSIM_TRACE
#define GC_COSIM_TRACE 0
#endif
#if GC_COSIM_TRACE
#include "verilated_fst_c.h"
#endif

struct cosim {
    cosim_config_t cfg{};
    std::unique_ptr<VerilatedContext> ctx;
    std::unique_ptr<Vgpu_top> top;
#if GC_COSIM_TRACE
    std::unique_ptr<VerilatedFstC> fst;
#endif
    std::unique_ptr<AxiMem> mem;
    std::string waves, inject;
    uint64_t cycle = 0;
    bool watchdog_fired = false;
    uint64_t watchdog_at = 0; // the cycle it fired at: the device's time stops there
    bool frozen = false;      // a diagnostic read after the watchdog: its edges are not dumped
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

static void pins_from_top(const Vgpu_top &t, AxiMemPins &p) {
    p.arvalid = t.m_arvalid_o;
    p.arid = t.m_arid_o;
    p.araddr = t.m_araddr_o;
    p.arlen = t.m_arlen_o;
    p.rready = t.m_rready_o;
    p.awvalid = t.m_awvalid_o;
    p.awid = t.m_awid_o;
    p.awaddr = t.m_awaddr_o;
    p.awlen = t.m_awlen_o;
    p.wvalid = t.m_wvalid_o;
    p.wdata = t.m_wdata_o;
    p.wstrb = t.m_wstrb_o;
    p.wlast = t.m_wlast_o;
    p.bready = t.m_bready_o;
}

static void pins_to_top(const AxiMemPins &p, Vgpu_top &t) {
    t.m_arready_i = p.arready;
    t.m_rvalid_i = p.rvalid;
    t.m_rid_i = p.rid;
    t.m_rdata_i = p.rdata;
    t.m_rresp_i = p.rresp;
    t.m_rlast_i = p.rlast;
    t.m_awready_i = p.awready;
    t.m_wready_i = p.wready;
    t.m_bvalid_i = p.bvalid;
    t.m_bid_i = p.bid;
    t.m_bresp_i = p.bresp;
}

// Waveform time: the FST counts ps (the model's time precision) and one cycle is 1000 ps: the clock
// falls at cycle * 1000 and rises at cycle * 1000 + 500, cycle being what cosim_cycles() returns
// (GTKWave's ruler, which reads ns, shows cycle numbers).  cosim/gpucosim.gtkw and README's
// Waveforms section say the same; tests/tools/test_gtkw.py checks the grid.
static void dump(cosim_t *s, uint64_t t_ps) {
#if GC_COSIM_TRACE
    if (s->fst && !s->frozen) s->fst->dump(t_ps);
#else
    (void)s;
    (void)t_ps;
#endif
}

// One clock cycle; the MMIO master's pins are whatever the caller set on the top.
static void tick(cosim_t *s) {
    Vgpu_top &t = *s->top;
    AxiMemPins p{};
    s->mem->drive(p, s->cycle);
    pins_to_top(p, t);
    t.clk_i = 0;
    t.eval();
    pins_from_top(t, p);
    s->mem->sample(p);
    dump(s, 1000 * s->cycle);
    t.clk_i = 1;
    t.eval();
    dump(s, 1000 * s->cycle + 500);
    s->mem->commit(s->cycle);
    s->cycle++;
    s->ctx->timeInc(1000);
}

static bool watchdog(cosim_t *s) {
    if (s->cfg.max_cycles && s->cycle >= s->cfg.max_cycles && !s->watchdog_fired) {
        s->watchdog_fired = true;
        s->watchdog_at = s->cycle;
        std::fprintf(stderr, "cosim: watchdog: %" PRIu64 " cycles reached the limit of %" PRIu64 "\n",
                     s->cycle, s->cfg.max_cycles);
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
    s->ctx = std::make_unique<VerilatedContext>();
    s->ctx->randReset(0);
    s->ctx->debug(0);
    s->ctx->traceEverOn(!s->waves.empty());
    s->top = std::make_unique<Vgpu_top>(s->ctx.get(), "TOP");
    s->mem = std::make_unique<AxiMem>(cfg->seed, cfg->sys_latency, cfg->sys_bytes_per_cycle, cfg->vid_latency,
                                      cfg->vid_bytes_per_cycle, cfg->stall_pct, s->inject);
#if GC_COSIM_TRACE
    if (!s->waves.empty()) {
        s->fst = std::make_unique<VerilatedFstC>();
        s->top->trace(s->fst.get(), 99);
        s->fst->open(s->waves.c_str());
        if (!s->fst->isOpen()) {
            std::snprintf(err, errlen, "cosim_open: cannot write waveform file '%s'", s->waves.c_str());
            return nullptr;
        }
    }
#endif
    Vgpu_top &t = *s->top;
    t.s_awvalid_i = t.s_wvalid_i = t.s_arvalid_i = 0;
    t.s_bready_i = t.s_rready_i = 0;
    t.rst_ni = 0;
    for (int i = 0; i < 8; i++) tick(s.get());
    t.rst_ni = 1;
    tick(s.get());
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
        std::fprintf(stderr, "cosim: %" PRIu64 " cycles in %.3f s = %.0f cycles/s (seed %" PRIu64 ")\n", s->cycle,
                     secs, secs > 0 ? (double)s->cycle / secs : 0.0, s->cfg.seed);
    }
#if GC_COSIM_TRACE
    if (s->fst) s->fst->close();
#endif
    s->top->final();
    gc_cov_write(s->ctx.get(), "cosim");
    delete s;
}

static const uint64_t MMIO_TIMEOUT = 1000;

extern "C" int cosim_mmio_write(cosim_t *s, uint32_t off, uint32_t val) {
    if (watchdog(s)) return COSIM_ERR_WATCHDOG;
    Vgpu_top &t = *s->top;
    t.s_awvalid_i = 1;
    t.s_awaddr_i = off;
    t.s_wvalid_i = 1;
    t.s_wdata_i = val;
    t.s_wstrb_i = 0xF;
    t.s_bready_i = 1;
    bool aw = false, w = false;
    for (uint64_t n = 0; n < MMIO_TIMEOUT; n++) {
        t.clk_i = 0;
        t.eval();
        bool aw_fire = t.s_awvalid_i && t.s_awready_o;
        bool w_fire = t.s_wvalid_i && t.s_wready_o;
        bool b_fire = (aw && w) && t.s_bvalid_o;
        uint8_t bresp = t.s_bresp_o;
        tick(s);
        if (aw_fire) { aw = true; t.s_awvalid_i = 0; }
        if (w_fire) { w = true; t.s_wvalid_i = 0; }
        if (b_fire) {
            t.s_bready_i = 0;
            return bresp >= 2 ? COSIM_ERR_BUS : COSIM_OK;
        }
        if (watchdog(s)) break;
    }
    t.s_awvalid_i = t.s_wvalid_i = t.s_bready_i = 0;
    return s->watchdog_fired ? COSIM_ERR_WATCHDOG : COSIM_ERR_TIMEOUT;
}

extern "C" int cosim_mmio_read(cosim_t *s, uint32_t off, uint32_t *val) {
    if (watchdog(s)) return COSIM_ERR_WATCHDOG;
    Vgpu_top &t = *s->top;
    t.s_arvalid_i = 1;
    t.s_araddr_i = off;
    t.s_rready_i = 1;
    bool ar = false;
    for (uint64_t n = 0; n < MMIO_TIMEOUT; n++) {
        t.clk_i = 0;
        t.eval();
        bool ar_fire = t.s_arvalid_i && t.s_arready_o;
        bool r_fire = ar && t.s_rvalid_o;
        uint32_t data = t.s_rdata_o;
        uint8_t rresp = t.s_rresp_o;
        tick(s);
        if (ar_fire) { ar = true; t.s_arvalid_i = 0; }
        if (r_fire) {
            t.s_rready_i = 0;
            *val = data;
            return rresp >= 2 ? COSIM_ERR_BUS : COSIM_OK;
        }
        if (watchdog(s)) break;
    }
    t.s_arvalid_i = t.s_rready_i = 0;
    return s->watchdog_fired ? COSIM_ERR_WATCHDOG : COSIM_ERR_TIMEOUT;
}

extern "C" int cosim_mem_write(cosim_t *s, uint64_t addr, const void *src, size_t n) {
    return s->mem->host_write(addr, src, n) ? COSIM_OK : COSIM_ERR_ARG;
}

extern "C" int cosim_mem_read(cosim_t *s, uint64_t addr, void *dst, size_t n) {
    return s->mem->host_read(addr, dst, n) ? COSIM_OK : COSIM_ERR_ARG;
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
    uint64_t saved = s->cfg.max_cycles;
    bool fired = s->watchdog_fired;
    s->frozen = fired;
    s->cfg.max_cycles = 0;
    s->watchdog_fired = false;
    int rc = cosim_mmio_read(s, offset, value);
    s->cfg.max_cycles = saved;
    s->watchdog_fired = fired;
    s->frozen = false;
    return rc;
}

extern "C" int cosim_has_trace(void) { return GC_COSIM_TRACE; }

extern "C" const char *cosim_verilator_version(void) { return VERILATOR_PRODUCT " " VERILATOR_VERSION; }

extern "C" int cosim_irq(cosim_t *s) { return s->top->irq_o ? 1 : 0; }
extern "C" uint64_t cosim_cycles(cosim_t *s) { return s->watchdog_fired ? s->watchdog_at : s->cycle; }
extern "C" uint64_t cosim_seed(cosim_t *s) { return s->cfg.seed; }

extern "C" void cosim_dump_state(cosim_t *s, FILE *out) {
    // Reads go over MMIO (a few cycles each); the limit is lifted so the dump itself can run.
    auto rd = [&](uint32_t off) {
        uint32_t v = 0xFFFFFFFFu;
        if (cosim_debug_read(s, off, &v) != COSIM_OK) v = 0xFFFFFFFFu;
        return v;
    };
    std::fprintf(out, "---- gpucosim stuck-state dump at cycle %" PRIu64 " (seed %" PRIu64 ") ----\n", s->cycle,
                 s->cfg.seed);
    gc_dump_regs(out, rd, cosim_irq(s));
    std::fprintf(out, "memory: %zu read beats queued, %zu write bursts/responses pending, %" PRIu64
                      " read bursts accepted, %" PRIu64 " beats written\n",
                 s->mem->reads_pending(), s->mem->writes_pending(), s->mem->reads_accepted(), s->mem->beats_written());
    std::fprintf(out, "---- end of dump ----\n");
}
