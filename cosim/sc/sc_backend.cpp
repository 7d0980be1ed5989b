// sc_backend.cpp: the `sc` device backend, as a plugin (build/lib/libgpucosim_sc.so).
//
// Hierarchy (elaborated once per process, on the first open or gc_sc_run):
//
//   gpucosim (ScSystem)
//     host (ScHost)     the driver side: SC_THREAD `serve` and two initiator sockets
//       .mmio  ------>  top.mmio   (TLM target: b_transport drives gpu_top's AXI4-Lite pins)
//       .mem   ------>  memory.host (TLM target: transport_dbg only, the host's backdoor)
//     top (ScTop)       clock, reset, the Verilated SystemC model of gpu_top, the AXI4 bridge
//       .mem   ------>  memory.bus (TLM target: b_transport with annotated delays)
//     memory (ScMemory) sysmem and vidmem windows
//   driver_<n>          (only inside gc_sc_run) an SC_THREAD spawned with sc_spawn that runs the
//                       caller's program, i.e. the C driver
//
// The driver runs in one of two places; every backend call looks at where it is called from
// (ScHost::in_driver_thread) and needs nothing from the caller:
//
// 1. In an SC_THREAD (gc_sc_run, gpucosim/sc.h; the CLI's --backend sc).  gc_sc_plugin_run spawns
//    `driver_<n>` (sc_spawn, an 8 MiB stack) and runs sc_start() until the program has returned.
//    The thread first goes to a rest point (sc_top.h); from there the program's backend calls are
//    plain SystemC: an MMIO access is a TLM-2.0 b_transport on host.mmio issued from the driver's
//    own thread (the target wait()s clock edges until the AXI4-Lite handshake completes and
//    returns at a rest point), run(n) is wait(n cycles), open's reset waits its 9 cycles.  Time
//    advances only when the driver waits, as an SC_THREAD initiator's does.  When the program
//    returns, the thread calls sc_pause() and gc_sc_run returns its status.
//
// 2. On the caller's stack (gc_device_open anywhere else: the tests, the runtime, any C code):
//    each call that needs simulated time (MMIO read or write, run(cycles), open's reset, the state
//    dump) is posted to a one-entry mailbox and the call runs the simulation with sc_start()
//    until `serve`, the host module's SC_THREAD, has done it the same way as above and called
//    sc_pause(), so sc_start() returns to the driver at a rest point.
//
// Both give the same cycles (tests/cosim/test_sc.c), and a device opened in one place may be used
// from the other (its calls switch mode with the caller).  Memory accesses from the host take no
// time and go straight to memory.host's transport_dbg; the IRQ line and the cycle count are read
// from the model as it stands.  ASan: libsystemc 2.3.4's QuickThreads coroutines announce their
// stack switches to the sanitizers (weak __sanitizer_start/finish_switch_fiber references,
// resolved by the ASan runtime of the test binaries), all but a thread's exit, which
// asan_back_on_main_stack() makes up for; so the ASan-built driver may run on the spawned
// thread's stack.  That stack is mmap()ed, so its 8 MiB (a main thread's usual limit, room for
// ASan's larger frames) costs only the pages touched.
//
// SystemC elaborates once per process: a second gc_device_open after a close reuses the
// hierarchy: the bridge forgets its transactions, memory is zeroed, cycles count from 0 again
// and gpu_top is reset for the same 9 cycles as a new one.  Two sc devices open at once are
// refused.  Registers without a reset keep their values from the previous device (a fresh
// Verilated model starts them at 0): nothing in gpu_top may depend on them.
#define SC_INCLUDE_DYNAMIC_PROCESSES  // sc_spawn
#include <chrono>
#include <cinttypes>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>

#include "../dump_regs.h"
#include "gpucosim_spec.h"
#include "sc_memory.h"
#include "sc_plugin.h"
#include "sc_top.h"
#include "verilated.h"

using sc_core::sc_time;
using sc_core::SC_ZERO_TIME;

// The sanitizers' fiber interface, as libsystemc refers to it: weak, so these are null unless the
// executable carries ASan (the test binaries do).
extern "C" void __sanitizer_start_switch_fiber(void **fake_stack_save, const void *bottom, size_t size)
    __attribute__((weak));
extern "C" void __sanitizer_finish_switch_fiber(void *fake_stack_save, const void **bottom_old, size_t *size_old)
    __attribute__((weak));

namespace {

const sc_time kCycle(1, sc_core::SC_NS);

enum Rc { RC_OK = 0, RC_ARG, RC_BUS, RC_TIMEOUT, RC_WATCHDOG, RC_SIM };

// gc_sc_run's driver thread (mode 1 in the header comment), while a program runs.
struct DriverThread {
    bool running = false;  // gc_sc_plugin_run is in sc_start()
    bool done = false;     // the program has returned
    int status = 0;        // what it returned
    unsigned serial = 0;   // names the threads driver_1, driver_2, ...
    sc_core::sc_process_handle handle;
};
DriverThread g_drv;

// Is the caller gc_sc_run's driver thread?  (While the kernel is paused,
// sc_get_current_process_handle() is the last process created, not a caller, hence the status.)
bool in_driver_thread() {
    return g_drv.running && sc_core::sc_get_status() == sc_core::SC_RUNNING &&
           sc_core::sc_get_current_process_handle() == g_drv.handle;
}

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

    // ---- called by the backend: from gc_sc_run's driver thread, or outside the kernel (paused)
    Rc open(const DeviceConfig &cfg) {
        cfg_ = cfg;
        fired_ = false;
        Request r{Kind::Open, 0, 0, 0, nullptr};
        return post(r);
    }
    Rc mmio_read(uint32_t off, uint32_t *v) {
        Request r{Kind::MmioRead, off, 0, 0, nullptr};
        Rc rc = post(r);
        *v = r.value;
        return rc;
    }
    Rc mmio_write(uint32_t off, uint32_t v) {
        Request r{Kind::MmioWrite, off, v, 0, nullptr};
        return post(r);
    }
    Rc run(uint64_t n) {
        Request r{Kind::Run, 0, 0, n, nullptr};
        return post(r);
    }
    Rc debug_read(uint32_t off, uint32_t *v) {
        Request r{Kind::DebugRead, off, 0, 0, nullptr};
        Rc rc = post(r);
        *v = r.value;
        return rc;
    }
    void dump(FILE *out) {
        Request r{Kind::Dump, 0, 0, 0, out};
        post(r);
    }
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
    uint64_t watchdog_at() const { return fired_at_; }

  private:
    enum class Kind { Open, MmioRead, MmioWrite, DebugRead, Run, Dump };
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
    uint64_t fired_at_ = 0;  // the cycle the watchdog fired at (the dump's reads run past it)
    Request req_{Kind::Run, 0, 0, 0, nullptr};
    sc_core::sc_event req_ev_;

    // Do a request where the caller is: in gc_sc_run's driver thread at once (it may wait);
    // elsewhere through the mailbox: hand it to `serve` and run the simulation until it is done.
    Rc post(Request &r) {
        if (in_driver_thread()) {
            execute(r);
            return r.rc;
        }
        if (sc_core::sc_get_status() == sc_core::SC_RUNNING) {  // no sc_start() inside sc_start()
            std::fprintf(stderr, "sc: the backend was called from SystemC process '%s', which is not gc_sc_run's "
                                 "driver thread\n", sc_core::sc_get_current_process_handle().name());
            return r.rc = RC_SIM;
        }
        req_ = r;
        req_.pending = true;
        req_.done = false;
        req_ev_.notify(SC_ZERO_TIME);
        try {
            while (!req_.done) sc_core::sc_start();
        } catch (const std::exception &e) {
            std::fprintf(stderr, "sc: simulation stopped: %s\n", e.what());
            return r.rc = RC_SIM;
        }
        r = req_;
        return r.rc;
    }

    void execute(Request &r) {
        switch (r.kind) {
        case Kind::Open: r.rc = t_open(); break;
        case Kind::MmioRead: r.rc = t_mmio(false, r.offset, &r.value); break;
        case Kind::MmioWrite: r.rc = t_mmio(true, r.offset, &r.value); break;
        case Kind::Run: r.rc = t_run(r.cycles); break;
        case Kind::DebugRead: r.rc = t_debug_read(r.offset, &r.value); break;
        case Kind::Dump: t_dump(r.out); r.rc = RC_OK; break;
        }
    }

    void serve() {
        wait(kCycle / 2);  // the first rest point
        for (;;) {
            while (!req_.pending) wait(req_ev_);
            req_.pending = false;
            execute(req_);
            req_.done = true;
            sc_core::sc_pause();
        }
    }

    // ---- in a thread: `serve` (the mailbox) or gc_sc_run's driver thread
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
            fired_at_ = top_.cycles();
            std::fprintf(stderr, "sc: watchdog: %" PRIu64 " cycles reached the limit of %" PRIu64 "\n", top_.cycles(),
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

    // A register read with the cycle limit lifted (as cosim_debug_read): the dump's and
    // hostdrv's stuck-state reads after the watchdog fired.
    Rc t_debug_read(uint32_t off, uint32_t *v) {
        const uint64_t saved = cfg_.max_cycles;
        const bool fired = fired_;
        cfg_.max_cycles = 0;
        fired_ = false;
        Rc rc = t_mmio(false, off, v);
        cfg_.max_cycles = saved;
        fired_ = fired;
        top_.set_cycle_limit(saved);
        return rc;
    }

    // cosim_dump_state's dump, over MMIO (t_debug_read).
    void t_dump(FILE *out) {
        auto rd = [&](uint32_t off) {
            uint32_t v = 0xFFFFFFFFu;
            if (t_debug_read(off, &v) != RC_OK) v = 0xFFFFFFFFu;
            return v;
        };
        std::fprintf(out, "---- gpucosim stuck-state dump at cycle %" PRIu64 " (seed %" PRIu64 ", backend sc) ----\n",
                     top_.cycles(), cfg_.seed);
        gc_dump_regs(out, rd, top_.irq() ? 1 : 0);
        std::fprintf(out,
                     "memory: %zu read beats queued, %zu write bursts/responses pending, %" PRIu64
                     " read bursts accepted, %" PRIu64 " beats written\n",
                     top_.reads_pending(), top_.writes_pending(), top_.reads_accepted(), top_.beats_written());
        std::fprintf(out, "---- end of dump ----\n");
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
bool sc_watchdog(void *, uint64_t *at) {
    *at = g_sys->host.watchdog_at();
    return g_sys->host.watchdog_fired();
}
gc_status_t sc_debug_read(void *, uint32_t o, uint32_t *v) { return map(g_sys->host.debug_read(o, v)); }

// ------------------------------------------------------------------ gc_sc_run

// The driver thread's stack: a main thread's usual 8 MiB, as the ASan-built driver's frames are
// several times their plain size.  mmap()ed by SystemC: only the pages touched cost memory.
constexpr int kDriverStack = 8 << 20;

// libsystemc tells ASan about every coroutine switch (sc_cor_pkg_qt::yield), except the last one
// out of a thread that ends (sc_cor_pkg_qt::abort: no hooks), so after the driver thread's end
// ASan would still take its (unmapped) stack for the current one.  Back on the main stack, say
// so as yield() does when it switches to main (whose coroutine has no stack of its own: 0, 0).
void asan_back_on_main_stack() {
    if (!__sanitizer_start_switch_fiber || !__sanitizer_finish_switch_fiber) return;
    __sanitizer_start_switch_fiber(nullptr, nullptr, 0);
    __sanitizer_finish_switch_fiber(nullptr, nullptr, nullptr);
}

// The body of driver_<n>: from a rest point (the first one at 0.5 cycles, as `serve`'s), run the
// program, then pause the kernel so gc_sc_plugin_run returns.
void driver_main(gc_sc_program_fn program, void *arg) {
    const uint64_t c = kCycle.value(), r = sc_core::sc_time_stamp().value() % c;
    if (const uint64_t dt = (c / 2 + c - r) % c) sc_core::wait(sc_time::from_value(dt));
    g_drv.status = program(arg);
    g_drv.done = true;
    sc_core::sc_pause();
}

gc_status_t run_program(gc_sc_program_fn program, void *arg, int *program_status, char *err, size_t errlen) {
    if (!program) {
        std::snprintf(err, errlen, "gc_sc_run: the program is NULL (give the function to run in the SC_THREAD)");
        return GC_ERR_INVALID_ARG;
    }
    if (g_drv.running) {
        std::snprintf(err, errlen,
                      "gc_sc_run: called from inside gc_sc_run's driver thread (%s); it does not nest: call the "
                      "program directly, it is already in an SC_THREAD",
                      g_drv.handle.name());
        return GC_ERR_BUSY;
    }
    if (!elaborate(err, errlen)) return GC_ERR_BACKEND;
    char name[32];
    std::snprintf(name, sizeof name, "driver_%u", ++g_drv.serial);
    g_drv.done = false;
    g_drv.status = 0;
    try {
        sc_core::sc_spawn_options opt;
        opt.set_stack_size(kDriverStack);
        g_drv.handle = sc_core::sc_spawn([program, arg] { driver_main(program, arg); }, name, &opt);
        g_drv.running = true;
        while (!g_drv.done) sc_core::sc_start();
        asan_back_on_main_stack();
    } catch (const std::exception &e) {
        asan_back_on_main_stack();
        g_drv.running = false;
        g_drv.handle = sc_core::sc_process_handle();
        std::snprintf(err, errlen, "gc_sc_run: the simulation stopped in %s: %s", name, e.what());
        return GC_ERR_BACKEND;
    }
    g_drv.running = false;
    g_drv.handle = sc_core::sc_process_handle();  // lets the kernel reclaim the finished thread
    if (program_status) *program_status = g_drv.status;
    return GC_OK;
}

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
    ops.watchdog = sc_watchdog;
    ops.debug_read = sc_debug_read;
    return &ops;
}

extern "C" __attribute__((visibility("default"))) gc_status_t gc_sc_plugin_run(gc_sc_program_fn program, void *arg,
                                                                            int *program_status, char *err,
                                                                            size_t errlen) {
    return run_program(program, arg, program_status, err, errlen);
}

extern "C" __attribute__((visibility("default"))) const char *gc_sc_plugin_thread(void) {
    return in_driver_thread() ? g_drv.handle.name() : nullptr;
}

// libsystemc.so refers to sc_main (its own main() would call it); the plugin never runs that
// main, but the symbol must resolve when the plugin is loaded.
extern "C" __attribute__((visibility("default"))) int sc_main(int, char **) { return 0; }
