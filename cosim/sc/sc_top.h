// sc_top.h: the SystemC top of the sc backend: the Verilated SystemC model of gpu_top, its clock
// and reset, an AXI4 memory bridge (pins -> TLM-2.0 initiator) and an MMIO TLM-2.0 target that
// drives gpu_top's AXI4-Lite slave pins.
//
// Clock and cycle (one cycle = 1 ns, so a cycle number is a time in ns):
//   t = k ns, delta 0 (the edge):  the bridge samples the AXI4 handshakes of this edge (every pin
//                                  has settled since the last change), raises clk_i, then acts on
//                                  what it sampled: accepted ARs become TLM reads on `mem`, taken
//                                  W beats complete their bursts, taken responses leave the
//                                  queues.  cycles() counts this edge.
//   delta 1:                       the model evaluates the rising edge; the bridge drives what
//                                  the memory side shows in the next cycle (from its own state
//                                  only: nothing it drives depends on gpu_top's outputs of the
//                                  same cycle) and lowers clk_i; the model settles in delta 2.
//                                  With waves on, the bridge does that one delta later, after
//                                  dumping the post-edge state, as cosim does.
//   t = k + 0.5 ns:                the "rest point": nothing is scheduled there; the host
//                                  module starts and ends every request at one, so a request
//                                  sees (and leaves) a settled model, like cosim's tick boundary.
// This is cosim.cpp's tick (drive with the clock low, settle, sample, edge, commit) in SystemC
// terms, with the same cycle count: cycles() is the number of rising edges since the device was
// opened, reset included.  With the memory's timing (sc_memory.h) the sc backend runs gpu_top
// cycle for cycle as the rtl backend does (tests/cosim/test_sc.c checks it; the FST files of the
// two match signal for signal), random stalls included: the bridge draws them from the same
// generator, seeded alike, in the same order as AxiMem.
//
// The bridge is a clocked SC_METHOD, not a thread; it calls b_transport on the memory target,
// which never waits (sc_memory.h).  Read bursts: one 8-byte transaction per beat, all at the AR;
// the annotated delays give each beat's ready cycle; beats and B responses leave as AxiMem's: in
// request order per ID, the oldest ready one first across IDs (cosim/axi_idq.h).  Write bursts: while one is open the bridge asks the memory every
// cycle whether its write port can take the next beat (TLM_IGNORE_COMMAND with the ScPortExt
// extension) and raises WREADY only then; a beat taken at an edge is written at that edge, one
// transaction per beat, and the burst's B goes out when its last beat's transaction is done.
// Without the extension (a plain LT target) the bridge would take W beats at the bus rate.
//
// The MMIO target (`mmio`) must be called from a thread (the host module's `serve`, or the
// driver's own thread under gc_sc_run; see sc_backend.cpp): its b_transport drives AW+W (or AR)
// at a rest point, waits for clock edges until the B (or R) handshake and lowers what was taken
// at the next rest point, as cosim_mmio_write / cosim_mmio_read do around their ticks, and
// returns at a rest point.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <random>
#include <string>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "../axi_idq.h"
#include "gpucosim_spec.h"
#include "sc_memory.h"

class Vgpu_top_sc;
class VerilatedFstC;

struct ScBusConfig {
    uint64_t seed = 1;
    uint32_t stall_pct = 0;     // 0..90: chance per cycle that a ready/valid the bridge drives is held low
    std::string inject;         // "", "flip-write", "drop-sem", "stall-reads" (as cosim_config_t)
};

class ScTop : public sc_core::sc_module {
  public:
    tlm_utils::simple_initiator_socket<ScTop> mem;  // the AXI4 memory master, as TLM
    tlm_utils::simple_target_socket<ScTop> mmio;    // BAR0 accesses, onto the AXI4-Lite slave

    // TLM response of an MMIO access: OK; GENERIC_ERROR = SLVERR; ADDRESS_ERROR = DECERR;
    // INCOMPLETE = no handshake within kMmioTimeout cycles, or the cycle limit was reached
    // (limit_hit() tells which).
    static constexpr uint64_t kMmioTimeout = 1000;

    ScTop(sc_core::sc_module_name name, sc_core::sc_time cycle);
    ~ScTop() override;

    // At a rest point, from the host thread: forget every bus transaction, count cycles from 0,
    // and take the new bridge settings; then hold / release reset.
    void restart(const ScBusConfig &cfg);
    void set_reset(bool asserted);
    // Lower every AXI4-Lite input (after an MMIO access was abandoned).
    void mmio_idle();

    uint64_t cycles() const { return cycle_; }
    bool irq() const;
    // MMIO accesses stop (INCOMPLETE) once cycles() reaches this (0 = no limit).
    void set_cycle_limit(uint64_t limit) { limit_ = limit; }
    bool limit_hit() const { return limit_ && cycle_ >= limit_; }

    // FST of every cycle from now on (time = 1000 ps per cycle since open, as cosim's); "" stops.
    bool waves(const std::string &path, std::string &err);

    // For the stuck-state dump.
    size_t reads_pending() const { return rq_.size(); }
    size_t writes_pending() const { return aw_.size() + bq_.size(); }
    uint64_t reads_accepted() const { return n_ar_; }
    uint64_t beats_written() const { return n_wbeats_; }

  private:
    sc_core::sc_time cycle_time_;
    std::unique_ptr<Vgpu_top_sc> dut_;
    std::unique_ptr<VerilatedFstC> fst_;

    // ---- pins
    // Reset and the AXI4-Lite slave inputs are driven from the host's thread: the mailbox's
    // `serve`, or gc_sc_run's driver thread, one after the other in one process, hence
    // SC_MANY_WRITERS (which still refuses two writers in one delta cycle).
    template <typename T>
    using host_signal = sc_core::sc_signal<T, sc_core::SC_MANY_WRITERS>;
    sc_core::sc_signal<bool> clk_{"clk"};
    host_signal<bool> rst_n_{"rst_n"};
    // AXI4-Lite slave (driven by the MMIO target, i.e. the host thread)
    host_signal<bool> s_awvalid_{"s_awvalid"}, s_wvalid_{"s_wvalid"}, s_bready_{"s_bready"};
    host_signal<bool> s_arvalid_{"s_arvalid"}, s_rready_{"s_rready"};
    host_signal<uint32_t> s_awaddr_{"s_awaddr"}, s_wdata_{"s_wdata"}, s_wstrb_{"s_wstrb"};
    host_signal<uint32_t> s_araddr_{"s_araddr"};
    sc_core::sc_signal<bool> s_awready_{"s_awready"}, s_wready_{"s_wready"}, s_bvalid_{"s_bvalid"};
    sc_core::sc_signal<bool> s_arready_{"s_arready"}, s_rvalid_{"s_rvalid"};
    sc_core::sc_signal<uint32_t> s_bresp_{"s_bresp"}, s_rdata_{"s_rdata"}, s_rresp_{"s_rresp"};
    // AXI4 master (memory side driven by the bridge)
    sc_core::sc_signal<bool> m_awvalid_{"m_awvalid"}, m_wvalid_{"m_wvalid"}, m_wlast_{"m_wlast"};
    sc_core::sc_signal<bool> m_bready_{"m_bready"}, m_arvalid_{"m_arvalid"}, m_rready_{"m_rready"};
    sc_core::sc_signal<uint32_t> m_awid_{"m_awid"}, m_awlen_{"m_awlen"}, m_awsize_{"m_awsize"};
    sc_core::sc_signal<uint32_t> m_awburst_{"m_awburst"}, m_wstrb_{"m_wstrb"}, m_arid_{"m_arid"};
    sc_core::sc_signal<uint32_t> m_arlen_{"m_arlen"}, m_arsize_{"m_arsize"}, m_arburst_{"m_arburst"};
    sc_core::sc_signal<uint64_t> m_awaddr_{"m_awaddr"}, m_wdata_{"m_wdata"}, m_araddr_{"m_araddr"};
    sc_core::sc_signal<bool> m_awready_{"m_awready"}, m_wready_{"m_wready"}, m_bvalid_{"m_bvalid"};
    sc_core::sc_signal<bool> m_arready_{"m_arready"}, m_rvalid_{"m_rvalid"}, m_rlast_{"m_rlast"};
    sc_core::sc_signal<uint32_t> m_bid_{"m_bid"}, m_bresp_{"m_bresp"}, m_rid_{"m_rid"}, m_rresp_{"m_rresp"};
    sc_core::sc_signal<uint64_t> m_rdata_{"m_rdata"};
    sc_core::sc_signal<bool> irq_{"irq"};

    // ---- the bridge
    enum class Phase { Edge, AfterEdge, Drive };
    Phase phase_ = Phase::Drive;
    uint64_t cycle_ = 0;  // rising edges since restart()
    uint64_t limit_ = 0;

    struct Drive {  // what the bridge drives in the current cycle
        bool arready, awready, wready, rvalid, bvalid;
    } drv_{};
    bool r_held_ = false, b_held_ = false;  // an R / B beat shown and not taken: shown again
    struct RBeat {
        uint8_t id;
        uint64_t data;
        uint8_t resp, last;
        uint64_t when;  // first cycle it may be shown
    };
    struct WBurst {
        uint8_t id;
        uint64_t addr;
        unsigned beats, done;
        bool err;
        uint64_t b_when;
    };
    struct BResp {
        uint8_t id, resp;
        uint64_t when;
    };
    static constexpr unsigned NID = 1u << GC_AXI_ID_W;
    gctb::IdQueues<RBeat, NID> rq_;  // R beats, per ID (cosim/axi_idq.h: AxiMem's order)
    std::deque<WBurst> aw_;
    gctb::IdQueues<BResp, NID> bq_;  // B responses, per ID
    int r_id_ = -1, b_id_ = -1;      // the IDs whose R beat / B response drive() presented
    std::mt19937_64 rng_;
    uint32_t stall_pct_ = 0;
    enum class Inject { None, FlipWrite, DropSem, StallReads } inject_ = Inject::None;
    uint64_t n_ar_ = 0, n_wbeats_ = 0;
    tlm::tlm_generic_payload gp_;  // one payload for every beat
    ScPortExt *port_ext_;           // owned by gp_
    uint64_t beat_ = 0;
    uint8_t be_[8];

    void bus_step();  // SC_METHOD: the three phases above
    void sample_and_commit();
    void drive();
    bool stall() { return stall_pct_ && (rng_() % 100) < stall_pct_; }
    uint64_t ready_cycle(uint64_t base, const sc_core::sc_time &delay) const;
    void accept_read(uint8_t id, uint64_t addr, unsigned beats);
    void accept_wbeat(uint64_t data, uint8_t strb);
    bool write_port_ready();
    void set_beat(tlm::tlm_command cmd, uint64_t addr, bool write);

    // ---- MMIO target
    void mmio_b_transport(tlm::tlm_generic_payload &gp, sc_core::sc_time &delay);
    void to_rest_point();
};
