// sc_backend.cpp: the `sc` device backend, as a plugin (build/lib/libgpucosim_sc.so).
//
// Hierarchy (elaborated once per process, on the first open):
//
//   gpucosim (ScSystem)
//     host (ScHost)     the driver side: SC_THREAD `serve` and two initiator sockets
//       .mmio  ------>  top.mmio   (TLM target: b_transport drives gpu_top's AXI4-Lite pins)
//       .mem   ------>  memory.host (TLM target: transport_dbg only, the host's backdoor)
//     top (ScTop)       clock, reset, the Verilated SystemC model of gpu_top, the AXI4 bridge
//       .mem   ------>  memory.bus (TLM target: b_transport with annotated delays)
//     memory (ScMemory) sysmem and vidmem windows
//
// How the C driver runs it (the arrangement, honestly): hostdrv stays on the caller's stack; it is
// not itself an SC_THREAD.  Each backend call that needs simulated time (MMIO read or write,
// run(cycles), open's reset, the state dump) is posted to a one-entry mailbox; the call then
// runs the simulation with sc_start() until the request is served.  `serve`, the SC_THREAD,
// takes the request and does it: an MMIO access is a TLM transaction on host.mmio (whose target
// wait()s clock edges until the AXI4-Lite handshake completes), run(n) is wait(n cycles); then
// it calls sc_pause(), so sc_start() returns to the driver at a rest point (sc_top.h).  The
// simulation therefore advances only inside backend calls, as the rtl backend's does.  Memory
// accesses from the host take no time and go straight to memory.host's transport_dbg; the IRQ
// line and the cycle count are read from the paused model.  (Running hostdrv itself in the
// SC_THREAD would turn its synchronous C API inside out, and put the ASan-built driver and tests
// on a SystemC coroutine stack, which ASan does not follow.)
//
// SystemC elaborates once per process: a second gc_device_open after a close reuses the
// hierarchy: the bridge forgets its transactions, memory is zeroed, cycles count from 0 again
// and gpu_top is reset for the same 9 cycles as a new one.  Two sc devices open at once are
// refused.  Registers without a reset keep their values from the previous device (a fresh
// Verilated model starts them at 0): nothing in gpu_top may depend on them.
#include <chrono>
#include <cinttypes>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>

#include "gpucosim_spec.h"
#include "sc_memory.h"
#include "sc_plugin.h"
#include "sc_top.h"
#include "verilated.h"

using sc_core::sc_time;
using sc_core::SC_ZERO_TIME;

namespace {

const sc_time kCycle(1, sc_core::SC_NS);

enum Rc { RC_OK = 0, RC_ARG, RC_BUS, RC_TIMEOUT, RC_WATCHDOG, RC_SIM };

struct DeviceConfig {
    uint64_t seed = 1;
    std::string waves, inject;
    uint32_t stall_pct = 0;
    uint64_t max_cycles = 0;
    bool quiet = false;
};

class ScHost : public sc_core::sc_module {
  public:
    tlm_utils::simple_initiator_socket<ScHost> mmio;
    tlm_utils::simple_initiator_socket<ScHost> mem;

    ScHost(sc_core::sc_module_name name, ScTop &top, ScMemory &memory)
        : sc_module(name), mmio("mmio"), mem("mem"), top_(top), memory_(memory) {
        SC_HAS_PROCESS(ScHost);
        SC_THREAD(serve);
        set_stack_size(1 << 20);
    }

    // ---- called by the backend (outside the kernel, simulation paused)
    Rc open(const DeviceConfig &cfg) {
        cfg_ = cfg;
        fired_ = false;
        return post(Request{Kind::Open, 0, 0, 0, nullptr});
    }
    Rc mmio_read(uint32_t off, uint32_t *v) {
        Request r{Kind::MmioRead, off, 0, 0, nullptr};
        Rc rc = post(r);
        *v = req_.value;
        return rc;
    }
    Rc mmio_write(uint32_t off, uint32_t v) { return post(Request{Kind::MmioWrite, off, v, 0, nullptr}); }
    Rc run(uint64_t n) { return post(Request{Kind::Run, 0, 0, n, nullptr}); }
    void dump(FILE *out) { post(Request{Kind::Dump, 0, 0, 0, out}); }
    Rc mem_access(bool write, uint64_t addr, void *p, size_t n) {
        if (n > UINT_MAX) return RC_ARG;
        tlm::tlm_generic_payload gp;
        gp.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
        gp.set_address(addr);
        gp.set_data_ptr(static_cast<unsigned char *>(p));
        gp.set_data_length((unsigned)n);
        gp.set_streaming_width((unsigned)n);
        mem->transport_dbg(gp);
        return gp.is_response_ok() ? RC_OK : RC_ARG;
    }
    bool watchdog_fired() const { return fired_; }

  private:
    enum class Kind { Open, MmioRead, MmioWrite, Run, Dump };
    struct Request {
        Kind kind;
        uint32_t offset, value;
        uint64_t cycles;
        FILE *out;
        Rc rc = RC_OK;
        bool pending = false, done = false;
    };

    ScTop &top_;
    ScMemory &memory_;
    DeviceConfig cfg_;
    bool fired_ = false;
    Request req_{Kind::Run, 0, 0, 0, nullptr};
    sc_core::sc_event req_ev_;

    // The mailbox: hand the request to `serve` and run the simulation until it is done.
    Rc post(const Request &r) {
        req_ = r;
        req_.pending = true;
        req_.done = false;
        req_ev_.notify(SC_ZERO_TIME);
        try {
            while (!req_.done) sc_core::sc_start();
        } catch (const std::exception &e) {
            std::fprintf(stderr, "sc: simulation stopped: %s\n", e.what());
            return RC_SIM;
        }
        return req_.rc;
    }

    void serve() {
        wait(kCycle / 2);  // the first rest point
        for (;;) {
            while (!req_.pending) wait(req_ev_);
            req_.pending = false;
            switch (req_.kind) {
            case Kind::Open: req_.rc = t_open(); break;
            case Kind::MmioRead: req_.rc = t_mmio(false, req_.offset, &req_.value); break;
            case Kind::MmioWrite: req_.rc = t_mmio(true, req_.offset, &req_.value); break;
            case Kind::Run: req_.rc = t_run(req_.cycles); break;
            case Kind::Dump: t_dump(req_.out); req_.rc = RC_OK; break;
            }
            req_.done = true;
            sc_core::sc_pause();
        }
    }

    // ---- in the thread
    void run_cycles(uint64_t n) {
        if (n) wait(sc_time::from_value(n * kCycle.value()));
    }

    Rc t_open() {
        ScBusConfig bus;
        bus.seed = cfg_.seed;
        bus.stall_pct = cfg_.stall_pct;
        bus.inject = cfg_.inject;
        top_.restart(bus);
        memory_.reset(ScMemTiming{});  // cosim_config_default's latencies and widths
        top_.mmio_idle();
        top_.set_reset(true);
        run_cycles(8);
        top_.set_reset(false);
        run_cycles(1);
        return RC_OK;
    }

    // As cosim.cpp's watchdog(): fires once, with the stuck-state dump; afterwards nothing ticks.
    bool watchdog() {
        if (cfg_.max_cycles && top_.cycles() >= cfg_.max_cycles && !fired_) {
            fired_ = true;
            std::fprintf(stderr, "sc: WATCHDOG: %" PRIu64 " cycles reached the limit of %" PRIu64 "\n", top_.cycles(),
                         cfg_.max_cycles);
            t_dump(stderr);
        }
        return fired_;
    }

    Rc t_run(uint64_t n) {
        if (watchdog()) return RC_WATCHDOG;
        if (cfg_.max_cycles) {
            const uint64_t room = cfg_.max_cycles - top_.cycles();
            if (n > room) {
                run_cycles(room);
                watchdog();
                return RC_WATCHDOG;
            }
        }
        run_cycles(n);
        return RC_OK;
    }

    Rc t_mmio(bool write, uint32_t off, uint32_t *val) {
        if (watchdog()) return RC_WATCHDOG;
        top_.set_cycle_limit(cfg_.max_cycles);
        tlm::tlm_generic_payload gp;
        gp.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
        gp.set_address(off);
        gp.set_data_ptr(reinterpret_cast<unsigned char *>(val));
        gp.set_data_length(4);
        gp.set_streaming_width(4);
        gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
        sc_time delay = SC_ZERO_TIME;
        mmio->b_transport(gp, delay);
        switch (gp.get_response_status()) {
        case tlm::TLM_OK_RESPONSE: return RC_OK;
        case tlm::TLM_INCOMPLETE_RESPONSE: return watchdog() ? RC_WATCHDOG : RC_TIMEOUT;
        default: return RC_BUS;
        }
    }

    // cosim_dump_state's dump, over MMIO; the cycle limit is lifted while it runs.
    void t_dump(FILE *out) {
        const uint64_t saved = cfg_.max_cycles;
        const bool fired = fired_;
        cfg_.max_cycles = 0;
        fired_ = false;
        auto rd = [&](uint32_t off) {
            uint32_t v = 0xFFFFFFFFu;
            if (t_mmio(false, off, &v) != RC_OK) v = 0xFFFFFFFFu;
            return v;
        };
        std::fprintf(out, "---- gpucosim stuck-state dump at cycle %" PRIu64 " (seed %" PRIu64 ", backend sc) ----\n",
                     top_.cycles(), cfg_.seed);
        for (uint32_t rl = 0; rl < GC_NUM_RUNLISTS; rl++) {
            uint32_t pb = rd(GC_REG_RUNLIST_DBG(rl));
            std::fprintf(out, "runlist %u PBDMA: state %s, channel %u, %u pushbuffer dwords left, %u switches\n", rl,
                         gc_pbdma_state_name(GC_RUNLIST_DBG_STATE_GET(pb)), GC_RUNLIST_DBG_CHANNEL_GET(pb),
                         GC_RUNLIST_DBG_PB_LEFT_GET(pb), rd(GC_REG_RUNLIST_SWITCHES(rl)));
        }
        for (uint32_t e = 0; e < GC_NUM_CE; e++) {
            uint32_t ce = rd(GC_REG_ENGINE_DBG(e));
            std::fprintf(out, "CE%u: state %s, channel %u, %u read bursts in flight, %u bytes moved\n", e,
                         gc_ce_state_name(GC_ENGINE_DBG_STATE_GET(ce)), GC_ENGINE_DBG_CHANNEL_GET(ce),
                         GC_ENGINE_DBG_RD_OUT_GET(ce), rd(GC_REG_ENGINE_BYTES(e)));
        }
        std::fprintf(out, "IRQ: status 0x%x enable 0x%x line %d; faulted channels 0x%x\n",
                     rd(GC_REG_GLOBAL_INTR_STATUS), rd(GC_REG_GLOBAL_INTR_ENABLE), top_.irq() ? 1 : 0,
                     rd(GC_REG_GLOBAL_FAULT_CHANNELS));
        for (uint32_t ch = 0; ch < GC_NUM_CHANNELS; ch++) {
            uint32_t ctrl = rd(GC_REG_CHANNEL_CTRL(ch));
            uint32_t err = rd(GC_REG_CHANNEL_ERROR(ch));
            uint32_t get = rd(GC_REG_CHANNEL_GP_GET(ch)), put = rd(GC_REG_CHANNEL_GP_PUT(ch));
            if (!GC_CHANNEL_CTRL_ENABLE_GET(ctrl) && !err && get == put) continue;
            uint32_t st = rd(GC_REG_CHANNEL_STATUS(ch));
            std::fprintf(out, "channel %2u: %s runlist %u GP_GET %u GP_PUT %u, %u methods, error %s%s%s%s%s\n", ch,
                         GC_CHANNEL_CTRL_ENABLE_GET(ctrl) ? "enabled " : "disabled", rd(GC_REG_CHANNEL_RUNLIST(ch)),
                         get, put, rd(GC_REG_CHANNEL_METHODS(ch)),
                         gc_error_cause_name(GC_CHANNEL_ERROR_CAUSE_GET(err)),
                         GC_CHANNEL_STATUS_PENDING_GET(st) ? ", work pending" : "",
                         GC_CHANNEL_STATUS_RESIDENT_GET(st) ? ", resident" : "",
                         GC_CHANNEL_STATUS_ENGINE_BUSY_GET(st) ? ", copy in flight" : "",
                         GC_CHANNEL_STATUS_ACQ_BLOCKED_GET(st) ? ", blocked on an acquire" : "");
        }
        std::fprintf(out,
                     "memory: %zu read beats queued, %zu write bursts/responses pending, %" PRIu64
                     " read bursts accepted, %" PRIu64 " beats written\n",
                     top_.reads_pending(), top_.writes_pending(), top_.reads_accepted(), top_.beats_written());
        std::fprintf(out, "---- end of dump ----\n");
        cfg_.max_cycles = saved;
        fired_ = fired;
        top_.set_cycle_limit(saved);
    }
};

class ScSystem : public sc_core::sc_module {
  public:
    ScTop top;
    ScMemory memory;
    ScHost host;

    explicit ScSystem(sc_core::sc_module_name name)
        : sc_module(name), top("top", kCycle), memory("memory", kCycle), host("host", top, memory) {
        host.mmio.bind(top.mmio);
        host.mem.bind(memory.host);
        top.mem.bind(memory.bus);
    }
};

// One hierarchy per process, built on the first open and never destroyed (SystemC cannot
// elaborate again, and tearing it down at exit buys nothing).
ScSystem *g_sys = nullptr;
bool g_open = false;

struct Device {
    DeviceConfig cfg;
    std::chrono::steady_clock::time_point t0;
};

gc_status_t map(Rc rc) {
    switch (rc) {
    case RC_OK: return GC_OK;
    case RC_ARG: return GC_ERR_INVALID_ARG;
    case RC_BUS: return GC_ERR_BUS;
    case RC_SIM: return GC_ERR_BACKEND;
    default: return GC_ERR_TIMEOUT;
    }
}

bool elaborate(char *err, size_t errlen) {
    if (g_sys) return true;
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);  // keep the banner off stdout
    try {
        Verilated::randReset(0);      // as the rtl backend: --x-initial fast, zeros
        Verilated::traceEverOn(true);  // so any later open may ask for waves
        g_sys = new ScSystem("gpucosim");
        sc_core::sc_start(SC_ZERO_TIME);  // completes elaboration (Verilated trace() needs that)
    } catch (const std::exception &e) {
        std::snprintf(err, errlen, "sc: cannot elaborate the SystemC top: %s", e.what());
        return false;
    }
    return true;
}

gc_status_t sc_open(const gc_device_config_t *cfg, void **state, char *err, size_t errlen) {
    if (g_open) {
        std::snprintf(err, errlen,
                      "an sc device is already open in this process (SystemC elaborates one top per process); "
                      "close it first");
        return GC_ERR_BUSY;
    }
    if (cfg->stall_pct > 90) {
        std::snprintf(err, errlen, "sc: stall_pct %u is above 90", cfg->stall_pct);
        return GC_ERR_INVALID_ARG;
    }
    if (cfg->inject && std::strcmp(cfg->inject, "flip-write") && std::strcmp(cfg->inject, "drop-sem") &&
        std::strcmp(cfg->inject, "stall-reads")) {
        std::snprintf(err, errlen, "sc: unknown inject mode '%s' (flip-write, drop-sem, stall-reads)", cfg->inject);
        return GC_ERR_INVALID_ARG;
    }
    if (!elaborate(err, errlen)) return GC_ERR_BACKEND;
    auto *d = new Device;
    d->cfg.seed = cfg->seed;
    d->cfg.waves = cfg->waves ? cfg->waves : "";
    d->cfg.inject = cfg->inject ? cfg->inject : "";
    d->cfg.stall_pct = cfg->stall_pct;
    d->cfg.max_cycles = cfg->max_cycles;
    d->cfg.quiet = cfg->quiet;
    std::string werr;
    if (!g_sys->top.waves(d->cfg.waves, werr)) {
        std::snprintf(err, errlen, "sc: %s", werr.c_str());
        delete d;
        return GC_ERR_BACKEND;
    }
    Rc rc = g_sys->host.open(d->cfg);
    if (rc != RC_OK) {
        std::snprintf(err, errlen, "sc: reset failed");
        g_sys->top.waves("", werr);
        delete d;
        return map(rc);
    }
    g_open = true;
    if (!d->cfg.quiet) {
        std::fprintf(stderr, "sc: seed %" PRIu64 " (repeat with GPUCOSIM_SEED=%" PRIu64 " or --seed)%s%s\n",
                     d->cfg.seed, d->cfg.seed, d->cfg.waves.empty() ? "" : ", waves to ", d->cfg.waves.c_str());
    }
    d->t0 = std::chrono::steady_clock::now();
    *state = d;
    return GC_OK;
}

void sc_close(void *s) {
    auto *d = static_cast<Device *>(s);
    if (!d) return;
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - d->t0).count();
    const uint64_t n = g_sys->top.cycles();
    if (!d->cfg.quiet) {
        std::fprintf(stderr, "sc: %" PRIu64 " cycles in %.3f s = %.0f cycles/s (seed %" PRIu64 ")\n", n, secs,
                     secs > 0 ? (double)n / secs : 0.0, d->cfg.seed);
    }
    std::string werr;
    g_sys->top.waves("", werr);
    g_open = false;
    delete d;
}

gc_status_t sc_mmio_read(void *, uint32_t o, uint32_t *v) { return map(g_sys->host.mmio_read(o, v)); }
gc_status_t sc_mmio_write(void *, uint32_t o, uint32_t v) { return map(g_sys->host.mmio_write(o, v)); }
gc_status_t sc_mem_read(void *, uint64_t a, void *dst, size_t n) {
    return map(g_sys->host.mem_access(false, a, dst, n));
}
gc_status_t sc_mem_write(void *, uint64_t a, const void *src, size_t n) {
    return map(g_sys->host.mem_access(true, a, const_cast<void *>(src), n));
}
gc_status_t sc_run(void *, uint64_t n) { return map(g_sys->host.run(n)); }
bool sc_irq(void *) { return g_sys->top.irq(); }
uint64_t sc_cycles(void *) { return g_sys->top.cycles(); }
uint64_t sc_seed(void *s) { return static_cast<Device *>(s)->cfg.seed; }
void sc_dump(void *, FILE *out) { g_sys->host.dump(out); }

}  // namespace

extern "C" __attribute__((visibility("default"))) const gc_backend_ops_t *gc_sc_plugin_ops(unsigned abi,
                                                                                          size_t ops_size,
                                                                                          char *err,
                                                                                          size_t errlen) {
    if (abi != GC_SC_PLUGIN_ABI || ops_size != sizeof(gc_backend_ops_t)) {
        std::snprintf(err, errlen, "plugin interface %u (%zu-byte table) does not match the driver's %u (%zu bytes)",
                      GC_SC_PLUGIN_ABI, sizeof(gc_backend_ops_t), abi, ops_size);
        return nullptr;
    }
    static gc_backend_ops_t ops;
    ops.name = "sc";
    ops.doc = "SystemC top around the Verilated model (Verilator --sc), TLM-2.0 memory and MMIO";
    ops.open = sc_open;
    ops.close = sc_close;
    ops.mmio_read = sc_mmio_read;
    ops.mmio_write = sc_mmio_write;
    ops.mem_read = sc_mem_read;
    ops.mem_write = sc_mem_write;
    ops.run = sc_run;
    ops.irq = sc_irq;
    ops.cycles = sc_cycles;
    ops.seed = sc_seed;
    ops.dump_state = sc_dump;
    return &ops;
}

// libsystemc.so refers to sc_main (its own main() would call it); the plugin never runs that
// main, but the symbol must resolve when the plugin is loaded.
extern "C" __attribute__((visibility("default"))) int sc_main(int, char **) { return 0; }
