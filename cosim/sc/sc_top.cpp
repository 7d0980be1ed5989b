// sc_top.cpp: the SystemC top of the sc backend (see sc_top.h for the cycle and the bridge).
#include "sc_top.h"

#include <algorithm>
#include <cstring>

#include "Vgpu_top_sc.h"
#include "verilated_fst_c.h"

using sc_core::sc_time;
using sc_core::SC_ZERO_TIME;

static constexpr uint64_t kBadData = 0xBADADD12BADADD12ull;  // what AxiMem returns with DECERR
static constexpr uint8_t kDecErr = 3;

ScTop::ScTop(sc_core::sc_module_name name, sc_time cycle)
    : sc_module(name), mem("mem"), mmio("mmio"), cycle_time_(cycle) {
    dut_ = std::make_unique<Vgpu_top_sc>("gpu_top");
    Vgpu_top_sc &d = *dut_;
    d.clk_i(clk_);
    d.rst_ni(rst_n_);
    d.s_awvalid_i(s_awvalid_);
    d.s_awready_o(s_awready_);
    d.s_awaddr_i(s_awaddr_);
    d.s_wvalid_i(s_wvalid_);
    d.s_wready_o(s_wready_);
    d.s_wdata_i(s_wdata_);
    d.s_wstrb_i(s_wstrb_);
    d.s_bvalid_o(s_bvalid_);
    d.s_bready_i(s_bready_);
    d.s_bresp_o(s_bresp_);
    d.s_arvalid_i(s_arvalid_);
    d.s_arready_o(s_arready_);
    d.s_araddr_i(s_araddr_);
    d.s_rvalid_o(s_rvalid_);
    d.s_rready_i(s_rready_);
    d.s_rdata_o(s_rdata_);
    d.s_rresp_o(s_rresp_);
    d.m_awvalid_o(m_awvalid_);
    d.m_awready_i(m_awready_);
    d.m_awid_o(m_awid_);
    d.m_awaddr_o(m_awaddr_);
    d.m_awlen_o(m_awlen_);
    d.m_awsize_o(m_awsize_);
    d.m_awburst_o(m_awburst_);
    d.m_wvalid_o(m_wvalid_);
    d.m_wready_i(m_wready_);
    d.m_wdata_o(m_wdata_);
    d.m_wstrb_o(m_wstrb_);
    d.m_wlast_o(m_wlast_);
    d.m_bvalid_i(m_bvalid_);
    d.m_bready_o(m_bready_);
    d.m_bid_i(m_bid_);
    d.m_bresp_i(m_bresp_);
    d.m_arvalid_o(m_arvalid_);
    d.m_arready_i(m_arready_);
    d.m_arid_o(m_arid_);
    d.m_araddr_o(m_araddr_);
    d.m_arlen_o(m_arlen_);
    d.m_arsize_o(m_arsize_);
    d.m_arburst_o(m_arburst_);
    d.m_rvalid_i(m_rvalid_);
    d.m_rready_o(m_rready_);
    d.m_rid_i(m_rid_);
    d.m_rdata_i(m_rdata_);
    d.m_rresp_i(m_rresp_);
    d.m_rlast_i(m_rlast_);
    d.irq_o(irq_);
    mmio.register_b_transport(this, &ScTop::mmio_b_transport);
    port_ext_ = new ScPortExt;
    gp_.set_extension(port_ext_);
    SC_HAS_PROCESS(ScTop);
    SC_METHOD(bus_step);  // runs once at initialization: drives cycle 0
}

ScTop::~ScTop() {
    if (fst_) fst_->close();
}

void ScTop::restart(const ScBusConfig &cfg) {
    rq_.clear();
    aw_.clear();
    bq_.clear();
    drv_ = Drive{};
    cycle_ = 0;
    limit_ = 0;
    n_ar_ = n_wbeats_ = 0;
    r_held_ = b_held_ = false;
    rng_.seed(cfg.seed);
    stall_pct_ = cfg.stall_pct;
    inject_ = cfg.inject == "flip-write"    ? Inject::FlipWrite
              : cfg.inject == "drop-sem"    ? Inject::DropSem
              : cfg.inject == "stall-reads" ? Inject::StallReads
                                            : Inject::None;
    // Cycle 0 was driven before this restart; draw its random stalls as drive() would have
    // (queues empty: AR and AW only), so a seed gives AxiMem's stall pattern.  gpu_top is held in
    // reset from now on, so what the pins show in cycle 0 is never taken.
    drv_.arready = !stall();
    drv_.awready = !stall();
}

void ScTop::set_reset(bool asserted) { rst_n_.write(!asserted); }

void ScTop::mmio_idle() {
    s_awvalid_.write(false);
    s_wvalid_.write(false);
    s_bready_.write(false);
    s_arvalid_.write(false);
    s_rready_.write(false);
}

bool ScTop::irq() const { return irq_.read(); }

bool ScTop::waves(const std::string &path, std::string &err) {
    if (fst_) {
        fst_->close();
        fst_.reset();
    }
    if (path.empty()) return true;
    fst_ = std::make_unique<VerilatedFstC>();
    dut_->trace(fst_.get(), 99);
    fst_->open(path.c_str());
    if (!fst_->isOpen()) {
        fst_.reset();
        err = "cannot write waveform file '" + path + "'";
        return false;
    }
    return true;
}

// ------------------------------------------------------------------ the bridge

void ScTop::bus_step() {
    switch (phase_) {
    case Phase::Edge:
        if (fst_) fst_->dump(1000 * cycle_);
        sample_and_commit();  // reads the pins as they were before the edge
        clk_.write(true);
        cycle_++;
        phase_ = fst_ ? Phase::AfterEdge : Phase::Drive;
        next_trigger(SC_ZERO_TIME);
        break;
    case Phase::AfterEdge:  // the model evaluates the edge in this delta; the FST dump waits for it
        phase_ = Phase::Drive;
        next_trigger(SC_ZERO_TIME);
        break;
    case Phase::Drive:
        if (fst_ && cycle_) fst_->dump(1000 * (cycle_ - 1) + 500);
        drive();
        clk_.write(false);
        phase_ = Phase::Edge;
        // to the next whole cycle (from initialization at t = 0, that is t = 1 cycle)
        next_trigger(cycle_time_ - sc_time::from_value(sc_core::sc_time_stamp().value() % cycle_time_.value()));
        break;
    }
}

// The cycle at `delay` after now, where `base` is the cycle whose edge is now.
uint64_t ScTop::ready_cycle(uint64_t base, const sc_time &delay) const {
    return base + delay.value() / cycle_time_.value();
}

void ScTop::sample_and_commit() {
    const bool r_fire = drv_.rvalid && m_rready_.read();
    const bool b_fire = drv_.bvalid && m_bready_.read();
    const bool ar_fire = drv_.arready && m_arvalid_.read();
    const bool aw_fire = drv_.awready && m_awvalid_.read();
    const bool w_fire = drv_.wready && m_wvalid_.read();
    r_held_ = drv_.rvalid && !r_fire;
    b_held_ = drv_.bvalid && !b_fire;
    // in AxiMem::commit's order: responses taken, then new reads, bursts and write beats
    if (r_fire) rq_.pop((unsigned)r_id_);
    if (b_fire) bq_.pop((unsigned)b_id_);
    if (ar_fire) accept_read((uint8_t)m_arid_.read(), m_araddr_.read(), m_arlen_.read() + 1u);
    if (aw_fire)
        aw_.push_back(WBurst{(uint8_t)m_awid_.read(), m_awaddr_.read(), m_awlen_.read() + 1u, 0, false, 0});
    if (w_fire) accept_wbeat(m_wdata_.read(), (uint8_t)m_wstrb_.read());
}

void ScTop::accept_read(uint8_t id, uint64_t addr, unsigned beats) {
    n_ar_++;
    for (unsigned i = 0; i < beats; i++) {
        set_beat(tlm::TLM_READ_COMMAND, addr + 8ull * i, false);
        sc_time d = SC_ZERO_TIME;
        mem->b_transport(gp_, d);
        const bool ok = gp_.is_response_ok();
        // in AR order within the ID (rq_.push keeps `when` non-decreasing there)
        rq_.push(id, RBeat{id, ok ? beat_ : kBadData, (uint8_t)(ok ? 0 : kDecErr), (uint8_t)(i + 1 == beats),
                           ready_cycle(cycle_, d)});
    }
}

// A beat taken on W (its handshake was at this edge) goes to memory.
void ScTop::accept_wbeat(uint64_t data, uint8_t strb) {
    WBurst &b = aw_.front();
    n_wbeats_++;
    // fault injection for the tests' mutation checks, as AxiMem's
    const bool drop = inject_ == Inject::DropSem && b.beats == 1;
    if (inject_ == Inject::FlipWrite && n_wbeats_ == 3) data ^= 0x0100;
    beat_ = data;
    for (int i = 0; i < 8; i++) be_[i] = (!drop && (strb >> i) & 1) ? TLM_BYTE_ENABLED : TLM_BYTE_DISABLED;
    set_beat(tlm::TLM_WRITE_COMMAND, b.addr + 8ull * b.done, true);
    sc_time d = SC_ZERO_TIME;
    mem->b_transport(gp_, d);
    if (!gp_.is_response_ok()) b.err = true;
    b.b_when = std::max(b.b_when, ready_cycle(cycle_, d));
    if (++b.done == b.beats) {
        bq_.push(b.id, BResp{b.id, (uint8_t)(b.err ? kDecErr : 0), b.b_when});
        aw_.pop_front();
    }
}

// Can the memory's write port take the open burst's next beat at the coming edge?  (A query:
// TLM_IGNORE_COMMAND with ScPortExt; nothing is written or reserved.)  Called in the drive
// phase, when now is the edge of cycle - 1: the beat would arrive one cycle on.
bool ScTop::write_port_ready() {
    const WBurst &b = aw_.front();
    set_beat(tlm::TLM_IGNORE_COMMAND, b.addr + 8ull * b.done, true);
    port_ext_->accept = SC_ZERO_TIME;
    sc_time d = cycle_time_;
    mem->b_transport(gp_, d);
    return port_ext_->accept <= cycle_time_;
}

void ScTop::set_beat(tlm::tlm_command cmd, uint64_t addr, bool write) {
    gp_.set_command(cmd);
    gp_.set_address(addr);
    gp_.set_data_ptr(reinterpret_cast<unsigned char *>(&beat_));
    gp_.set_data_length(8);
    gp_.set_streaming_width(8);
    gp_.set_byte_enable_ptr(cmd == tlm::TLM_WRITE_COMMAND ? be_ : nullptr);
    gp_.set_byte_enable_length(cmd == tlm::TLM_WRITE_COMMAND ? 8 : 0);
    gp_.set_dmi_allowed(false);
    gp_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    port_ext_->write = write;
}

void ScTop::drive() {
    const uint64_t now = cycle_;
    drv_.arready = !stall();
    drv_.awready = !stall();
    // as AxiMem: ready when the burst's window can take a beat (its random stall drawn only then)
    drv_.wready = !aw_.empty() && write_port_ready() && !stall();
    const bool frozen = inject_ == Inject::StallReads && n_ar_ > 4;
    // as AxiMem: a beat shown and not taken stays up (same ID) until its ready (AXI A3.2.1); the
    // stall is drawn for it all the same, so the random sequence is AxiMem's
    if (!r_held_) r_id_ = rq_.ready(now);
    drv_.rvalid = r_id_ >= 0 && ((!stall() && !frozen) || r_held_);
    if (!b_held_) b_id_ = bq_.ready(now);
    drv_.bvalid = b_id_ >= 0 && (!stall() || b_held_);
    m_arready_.write(drv_.arready);
    m_awready_.write(drv_.awready);
    m_wready_.write(drv_.wready);
    m_rvalid_.write(drv_.rvalid);
    const RBeat r = drv_.rvalid ? rq_.front((unsigned)r_id_) : RBeat{};
    m_rid_.write(r.id);
    m_rdata_.write(r.data);
    m_rresp_.write(r.resp);
    m_rlast_.write(r.last);
    m_bvalid_.write(drv_.bvalid);
    const BResp b = drv_.bvalid ? bq_.front((unsigned)b_id_) : BResp{};
    m_bid_.write(b.id);
    m_bresp_.write(b.resp);
}

// ------------------------------------------------------------------ MMIO target

void ScTop::to_rest_point() {
    const uint64_t c = cycle_time_.value(), r = sc_core::sc_time_stamp().value() % c;
    const uint64_t dt = (c / 2 + c - r) % c;
    if (dt) wait(sc_time::from_value(dt));
}

void ScTop::mmio_b_transport(tlm::tlm_generic_payload &gp, sc_time &delay) {
    if (delay != SC_ZERO_TIME) wait(delay);
    delay = SC_ZERO_TIME;
    to_rest_point();
    const uint32_t off = (uint32_t)gp.get_address();
    if (gp.get_data_length() != 4 || (!gp.is_read() && !gp.is_write())) {
        gp.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
        return;
    }
    uint32_t val = 0;
    std::memcpy(&val, gp.get_data_ptr(), 4);
    const bool write = gp.is_write();
    if (write) {
        uint32_t strb = 0xF;
        if (const unsigned char *be = gp.get_byte_enable_ptr()) {
            strb = 0;
            for (unsigned i = 0; i < 4; i++)
                if (be[i % gp.get_byte_enable_length()] == TLM_BYTE_ENABLED) strb |= 1u << i;
        }
        s_awvalid_.write(true);
        s_awaddr_.write(off);
        s_wvalid_.write(true);
        s_wdata_.write(val);
        s_wstrb_.write(strb);
        s_bready_.write(true);
    } else {
        s_arvalid_.write(true);
        s_araddr_.write(off);
        s_rready_.write(true);
    }
    bool aw = false, w = false, ar = false;
    for (uint64_t n = 0; n < kMmioTimeout; n++) {
        wait(clk_.posedge_event());  // the pins still hold their values from before the edge
        uint32_t resp = 0, data = 0;
        bool aw_fire = false, w_fire = false, ar_fire = false, done = false;
        if (write) {
            aw_fire = s_awvalid_.read() && s_awready_.read();
            w_fire = s_wvalid_.read() && s_wready_.read();
            done = aw && w && s_bvalid_.read();
            resp = s_bresp_.read();
        } else {
            ar_fire = s_arvalid_.read() && s_arready_.read();
            done = ar && s_rvalid_.read();
            resp = s_rresp_.read();
            data = s_rdata_.read();
        }
        to_rest_point();  // what was taken is lowered after the edge, as cosim does after its tick
        if (aw_fire) { aw = true; s_awvalid_.write(false); }
        if (w_fire) { w = true; s_wvalid_.write(false); }
        if (ar_fire) { ar = true; s_arvalid_.write(false); }
        if (done) {
            if (write) {
                s_bready_.write(false);
            } else {
                s_rready_.write(false);
                std::memcpy(gp.get_data_ptr(), &data, 4);
            }
            gp.set_response_status(resp == 3   ? tlm::TLM_ADDRESS_ERROR_RESPONSE
                                   : resp == 2 ? tlm::TLM_GENERIC_ERROR_RESPONSE
                                               : tlm::TLM_OK_RESPONSE);
            return;
        }
        if (limit_hit()) break;
    }
    mmio_idle();
    gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
}
