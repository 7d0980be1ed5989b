// harness.h: the one C++ harness around a Verilated gpucosim top, shared by cosim/cosim.cpp (gpu_top)
// and the block benches (tests/rtl/*_tb.cpp).
//
// Harness<Top> owns the VerilatedContext and the model and gives:
//   clock     tick(): one cycle.  With the clock low: drive the memory model's pins (when one is
//             attached) and run the bench's drive hook (its own models' inputs for this cycle),
//             eval, sample the memory handshakes, run the bench's pre_edge hook (read
//             the outputs of this cycle), dump; raise the clock, eval, dump; let the memory model
//             act on what it sampled; count the cycle; run the post_edge hook (a bench's own
//             models: set the inputs of the next cycle).  The waveform has both edges: the clock falls at cycle * 1000 ps
//             and rises at cycle * 1000 + 500 ps (GTKWave's ruler, in ns, shows cycle numbers).
//   reset     reset(n): rst_ni low for n cycles, then one cycle high.
//   memory    attach_mem(): the AXI4 memory model of axi_mem.h (latency, bytes per cycle,
//             seeded random stalls) on the top's m_* pins: every top with rtl/gc_axi_pins.svh's
//             GC_AXI_MASTER_PINS (gpu_top, pbdma_tb_top, simt_tb_top, xbar_tb_top).
//   MMIO      axil_write() / axil_read(): an AXI4-Lite master on the s_* pins (GC_AXIL_SLAVE_PINS).
//   watchdog  max_cycles: expired() once the run passed it (0 = no limit).
//   seed      the seed the bench was given (parse_seed: +seed=N or N on the command line).
//   FST       open_waves() (only where the top was Verilated with --trace-fst and the includer
//             defines GC_HARNESS_FST before including this file).
// A top with nothing but clk_i / rst_ni is enough for clock, reset, watchdog and FST: the other
// parts are templates, instantiated only where a bench uses them.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>

#include "axi_mem.h"
#include "gc_cov.h"
#include "verilated.h"
#ifdef GC_HARNESS_FST
#include "verilated_fst_c.h"
#endif

namespace gctb {

// The seed of a block bench: `+seed=N` or a bare number N among the arguments (decimal or 0x-hex),
// else dflt.
inline uint64_t parse_seed(int argc, char **argv, uint64_t dflt) {
    uint64_t seed = dflt;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!std::strncmp(a, "+seed=", 6)) seed = std::strtoull(a + 6, nullptr, 0);
        else if (a[0] >= '0' && a[0] <= '9') seed = std::strtoull(a, nullptr, 0);
    }
    return seed;
}

// The AXI4 memory model's view of a top's m_* pins (the same names on every top: they come from
// GC_AXI_MASTER_PINS).
// (one line per AXI channel)
template <class Top> void axi_pins_to_top(const AxiMemPins &p, Top &t) {
    t.m_arready_i = p.arready;
    t.m_rvalid_i = p.rvalid, t.m_rid_i = p.rid, t.m_rdata_i = p.rdata, t.m_rresp_i = p.rresp, t.m_rlast_i = p.rlast;
    t.m_awready_i = p.awready;
    t.m_wready_i = p.wready;
    t.m_bvalid_i = p.bvalid, t.m_bid_i = p.bid, t.m_bresp_i = p.bresp;
}
template <class Top> void axi_pins_from_top(const Top &t, AxiMemPins &p) {
    p.arvalid = t.m_arvalid_o, p.arid = t.m_arid_o, p.araddr = t.m_araddr_o, p.arlen = t.m_arlen_o;
    p.rready = t.m_rready_o;
    p.awvalid = t.m_awvalid_o, p.awid = t.m_awid_o, p.awaddr = t.m_awaddr_o, p.awlen = t.m_awlen_o;
    p.wvalid = t.m_wvalid_o, p.wdata = t.m_wdata_o, p.wstrb = t.m_wstrb_o, p.wlast = t.m_wlast_o;
    p.bready = t.m_bready_o;
}

template <class Top> class Harness {
  public:
    std::unique_ptr<VerilatedContext> ctx;
    std::unique_ptr<Top> top;
    std::unique_ptr<AxiMem> mem;   // set by attach_mem
    uint64_t cycle = 0;            // cycles run (tick() calls)
    uint64_t seed;
    uint64_t max_cycles = 0;       // watchdog limit, 0 = none
    bool dump_on = true;           // false: ticks are left out of the waveform
    // The bench's hooks, run by every tick (reset, run, the AXI4-Lite master's cycles included):
    std::function<void()> drive;      // clock low, before the eval: a bench model's inputs
    std::function<void()> pre_edge;   // clock low, settled: read this cycle's outputs
    std::function<void()> post_edge;  // after the edge and the memory model: the next inputs

    // waves: trace on (the FST itself is opened by open_waves)
    const char *cov_tag = "bench";   // names this model's coverage file (cosim/gc_cov.h)
    explicit Harness(uint64_t seed_ = 1, bool waves = false) : seed(seed_) {
        ctx = std::make_unique<VerilatedContext>();
        ctx->randReset(0);
        ctx->debug(0);
        ctx->traceEverOn(waves);
        top = std::make_unique<Top>(ctx.get(), "TOP");
        top->clk_i = 0;
    }
    ~Harness() {
#ifdef GC_HARNESS_FST
        if (fst_ && fst_->isOpen()) fst_->close();
#endif
        // Verilator 5.006 erases a model's scopes (those of $error's %m: the protocol checkers)
        // through the thread's current context, which is the context constructed last: with two
        // models alive, destroying the later one first left it pointing at a freed context and
        // the other model's destructor hung on its mutex.  Make it this model's context.
        Verilated::threadContextp(ctx.get());
        top->final();
        gc_cov_write(ctx.get(), cov_tag);   // `make coverage` builds: the model's line / toggle counts
        top.reset();                        // the model before its context
    }
    Harness(const Harness &) = delete;
    Harness &operator=(const Harness &) = delete;

    // The AXI4 memory model on the m_* pins (arguments as AxiMem's).
    void attach_mem(uint32_t sys_lat, uint32_t sys_bpc, uint32_t vid_lat, uint32_t vid_bpc, uint32_t stall_pct,
                    const std::string &inject = "") {
        mem = std::make_unique<AxiMem>(seed, sys_lat, sys_bpc, vid_lat, vid_bpc, stall_pct, inject);
        drive_ = [](Harness &h) {
            h.pins_ = AxiMemPins{};
            h.mem->drive(h.pins_, h.cycle);
            axi_pins_to_top(h.pins_, *h.top);
        };
        sample_ = [](Harness &h) {
            axi_pins_from_top(*h.top, h.pins_);
            h.mem->sample(h.pins_);
        };
    }

#ifdef GC_HARNESS_FST
    // false when the file cannot be written
    bool open_waves(const std::string &path) {
        fst_ = std::make_unique<VerilatedFstC>();
        top->trace(fst_.get(), 99);
        fst_->open(path.c_str());
        return fst_->isOpen();
    }
#endif

    void tick() {
        Top &t = *top;
        if (drive_) drive_(*this);
        if (drive) drive();
        t.clk_i = 0;
        t.eval();
        if (sample_) sample_(*this);
        if (pre_edge) pre_edge();
        dump(1000 * cycle);
        t.clk_i = 1;
        t.eval();
        dump(1000 * cycle + 500);
        if (mem) mem->commit(cycle);
        cycle++;
        ctx->timeInc(1000);
        if (post_edge) post_edge();
    }

    void run(uint64_t n) {
        for (uint64_t i = 0; i < n; i++) tick();
    }

    // rst_ni low for `cycles` cycles, then one cycle high
    void reset(unsigned cycles) {
        top->rst_ni = 0;
        for (unsigned i = 0; i < cycles; i++) tick();
        top->rst_ni = 1;
        tick();
    }

    bool expired() const { return max_cycles && cycle >= max_cycles; }

    // AXI4-Lite write of BAR0 on the s_* pins, ticking until the B response: its BRESP (0..3),
    // or -1 when none came within `timeout` cycles or stop() said so (checked after each cycle).
    template <class Stop> int axil_write(uint32_t off, uint32_t val, uint64_t timeout, Stop &&stop) {
        Top &t = *top;
        t.s_awvalid_i = 1;
        t.s_awaddr_i = off;
        t.s_wvalid_i = 1;
        t.s_wdata_i = val;
        t.s_wstrb_i = 0xF;
        t.s_bready_i = 1;
        bool aw = false, w = false;
        for (uint64_t n = 0; n < timeout; n++) {
            t.clk_i = 0;
            t.eval();
            bool aw_fire = t.s_awvalid_i && t.s_awready_o;
            bool w_fire = t.s_wvalid_i && t.s_wready_o;
            bool b_fire = (aw && w) && t.s_bvalid_o;
            int bresp = t.s_bresp_o;
            tick();
            if (aw_fire) { aw = true; t.s_awvalid_i = 0; }
            if (w_fire) { w = true; t.s_wvalid_i = 0; }
            if (b_fire) {
                t.s_bready_i = 0;
                return bresp;
            }
            if (stop()) break;
        }
        t.s_awvalid_i = t.s_wvalid_i = t.s_bready_i = 0;
        return -1;
    }
    int axil_write(uint32_t off, uint32_t val, uint64_t timeout) {
        return axil_write(off, val, timeout, [] { return false; });
    }

    // AXI4-Lite read: its RRESP (0..3) with the data in *val, or -1 as axil_write.
    template <class Stop> int axil_read(uint32_t off, uint32_t *val, uint64_t timeout, Stop &&stop) {
        Top &t = *top;
        t.s_arvalid_i = 1;
        t.s_araddr_i = off;
        t.s_rready_i = 1;
        bool ar = false;
        for (uint64_t n = 0; n < timeout; n++) {
            t.clk_i = 0;
            t.eval();
            bool ar_fire = t.s_arvalid_i && t.s_arready_o;
            bool r_fire = ar && t.s_rvalid_o;
            uint32_t data = t.s_rdata_o;
            int rresp = t.s_rresp_o;
            tick();
            if (ar_fire) { ar = true; t.s_arvalid_i = 0; }
            if (r_fire) {
                t.s_rready_i = 0;
                *val = data;
                return rresp;
            }
            if (stop()) break;
        }
        t.s_arvalid_i = t.s_rready_i = 0;
        return -1;
    }
    int axil_read(uint32_t off, uint32_t *val, uint64_t timeout) {
        return axil_read(off, val, timeout, [] { return false; });
    }

  private:
    void dump(uint64_t t_ps) {
#ifdef GC_HARNESS_FST
        if (fst_ && dump_on) fst_->dump(t_ps);
#else
        (void)t_ps;
#endif
    }

    void (*drive_)(Harness &) = nullptr;
    void (*sample_)(Harness &) = nullptr;
    AxiMemPins pins_{};
#ifdef GC_HARNESS_FST
    std::unique_ptr<VerilatedFstC> fst_;
#endif
};

}  // namespace gctb
