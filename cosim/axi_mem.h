// axi_mem.h: the cosim AXI4 slave memory model.
//
// Two windows (sysmem, vidmem) from the generated spec, each with its own latency and bytes per
// cycle.  The model is cycle-driven by the harness:
//   drive()   before the rising edge: sets the ready/valid/data it drives;
//   sample()  after the pre-edge eval: records the handshakes that happen at this edge;
//   commit()  after the edge: applies them (queues advance, writes land).
// Read beats and B responses of one ID leave in request order; those of different IDs may pass
// each other, the oldest ready one first (AXI4 orders only within an ID; axi_idq.h), so a slow
// sysmem read does not hold up vidmem reads of other clients.  Each window serves at most
// bytes_per_cycle in each direction; latency is counted
// from the AR (or the last W beat) to the first R beat (or the B).  Addresses outside both
// windows answer DECERR.  Random stalls hold the model's readys low and keep its R / B valids from
// rising; a valid once up stays up, payload unchanged, until the master's ready takes it.
// inject "late-reads" (the SIMT block bench's mutation cases) takes each read beat's data when the
// beat is first shown instead of when its AR is accepted: still legal AXI (nothing orders a read against a
// later write, even to the same address), so a write accepted meanwhile is seen by the read; a
// master that needs the old value must wait for the R data before it writes.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <deque>
#include <random>
#include <string>

#include <new>
#include <sys/mman.h>

#include "axi_idq.h"
#include "gpucosim_spec.h"

// A window's bytes: private anonymous pages, which read as zero until written, so opening a
// device costs no time for the 2 x 64 MiB it does not touch (a zero-filled vector was ~0.05 s of
// memset per device: every test case and every run paid it).
class MappedBytes {
  public:
    MappedBytes() = default;
    MappedBytes(const MappedBytes &) = delete;
    MappedBytes &operator=(const MappedBytes &) = delete;
    MappedBytes(MappedBytes &&o) noexcept : p_(o.p_), n_(o.n_) { o.p_ = nullptr; o.n_ = 0; }
    MappedBytes &operator=(MappedBytes &&o) noexcept {
        if (this != &o) {
            release();
            p_ = o.p_; n_ = o.n_;
            o.p_ = nullptr; o.n_ = 0;
        }
        return *this;
    }
    ~MappedBytes() { release(); }
    void map(size_t n) {
        release();
        void *p = mmap(nullptr, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p == MAP_FAILED) throw std::bad_alloc();
        p_ = static_cast<uint8_t *>(p);
        n_ = n;
    }
    uint8_t *data() const { return p_; }

  private:
    void release() {
        if (p_) munmap(p_, n_);
        p_ = nullptr;
        n_ = 0;
    }
    uint8_t *p_ = nullptr;
    size_t n_ = 0;
};

struct AxiMemPins {
    // AR
    uint8_t arvalid, arready;
    uint8_t arid, arlen;
    uint64_t araddr;
    // R
    uint8_t rvalid, rready, rid, rresp, rlast;
    uint64_t rdata;
    // AW
    uint8_t awvalid, awready, awid, awlen;
    uint64_t awaddr;
    // W
    uint8_t wvalid, wready, wstrb, wlast;
    uint64_t wdata;
    // B
    uint8_t bvalid, bready, bid, bresp;
};

class AxiMem {
  public:
    struct Window {
        const char *name;
        uint64_t base, size;
        uint32_t latency;
        uint32_t bytes_per_cycle;
        MappedBytes bytes;
        double rd_next = 0, wr_next = 0;  // earliest cycle the next beat may use the window
    };

    AxiMem(uint64_t seed, uint32_t sys_lat, uint32_t sys_bpc, uint32_t vid_lat, uint32_t vid_bpc,
           uint32_t stall_pct, const std::string &inject)
        : rng_(seed), stall_pct_(stall_pct), inject_(inject), late_reads_(inject == "late-reads"),
          stall_reads_(inject == "stall-reads") {
        win_[0] = Window{"sysmem", GC_SYSMEM_BASE, GC_SYSMEM_SIZE, sys_lat, sys_bpc ? sys_bpc : 1, {}};
        win_[1] = Window{"vidmem", GC_VIDMEM_BASE, GC_VIDMEM_SIZE, vid_lat, vid_bpc ? vid_bpc : 1, {}};
        for (auto &w : win_) w.bytes.map(w.size);
    }

    // Host (backdoor) access; false when [addr, addr+n) is not inside one window.
    bool host_write(uint64_t addr, const void *src, size_t n) {
        uint8_t *p = span(addr, n);
        if (!p) return false;
        std::memcpy(p, src, n);
        return true;
    }
    bool host_read(uint64_t addr, void *dst, size_t n) {
        uint8_t *p = span(addr, n);
        if (!p) return false;
        std::memcpy(dst, p, n);
        return true;
    }

    void drive(AxiMemPins &p, uint64_t now) {
        p.arready = !stall();
        p.awready = !stall();
        p.wready = 0;
        if (!aw_.empty()) {
            const Window *w = window(aw_.front().addr, 8ull * aw_.front().beats);
            p.wready = (!w || w->wr_next <= (double)now) && !stall();
        }
        // A valid shown and not taken stays up with the same beat (its ID, its payload) until its
        // ready (AXI A3.2.1): random stalls and the stall-reads freeze only keep a beat from being
        // shown at all.  The stall is still drawn for a held beat, so the random sequence does not
        // depend on the master's readys (sc_top.cpp draws alike).
        p.rvalid = 0;
        if (!r_held_) r_id_ = rq_.ready(now);
        if (r_id_ >= 0) {
            const bool st = stall();
            if (r_held_ || (!st && !reads_frozen())) {
                const Beat &b = rq_.front((unsigned)r_id_);
                if (!r_held_) {
                    r_data_ = b.data;
                    if (late_reads_ && b.resp == 0) {
                        const Window *w = window(b.addr, 8);
                        std::memcpy(&r_data_, w->bytes.data() + (b.addr - w->base), 8);
                    }
                }
                p.rvalid = 1;
                p.rid = b.id;
                p.rdata = r_data_;
                p.rresp = b.resp;
                p.rlast = b.last;
            }
        }
        p.bvalid = 0;
        if (!b_held_) b_id_ = bq_.ready(now);
        if (b_id_ >= 0) {
            const bool st = stall();
            if (b_held_ || !st) {
                p.bvalid = 1;
                p.bid = bq_.front((unsigned)b_id_).id;
                p.bresp = bq_.front((unsigned)b_id_).resp;
            }
        }
    }

    void sample(const AxiMemPins &p) {
        ar_fire_ = p.arvalid && p.arready;
        r_fire_ = p.rvalid && p.rready;
        aw_fire_ = p.awvalid && p.awready;
        w_fire_ = p.wvalid && p.wready;
        b_fire_ = p.bvalid && p.bready;
        s_ = p;
    }

    void commit(uint64_t now) {
        r_held_ = s_.rvalid && !r_fire_;
        b_held_ = s_.bvalid && !b_fire_;
        if (r_fire_) {
            if (rq_.front((unsigned)r_id_).last) rd_bursts_--;
            rq_.pop((unsigned)r_id_);
        }
        if (b_fire_) bq_.pop((unsigned)b_id_);
        if (ar_fire_) accept_read(now);
        if (aw_fire_) {
            aw_.push_back(Burst{s_.awid, s_.awaddr, (unsigned)s_.awlen + 1u, 0, 0});
            if (aw_.size() > aw_open_max_) aw_open_max_ = aw_.size();
        }
        if (w_fire_) accept_wbeat(now);
    }

    // Transactions not finished yet (for the stuck-state dump and drain checks).
    size_t reads_pending() const { return rq_.size(); }
    size_t writes_pending() const { return aw_.size() + bq_.size(); }
    uint64_t reads_accepted() const { return n_ar_; }
    // Read bursts accepted whose last beat has not gone yet: now, and the most there ever were
    // (a client's limit on reads in flight shows here)
    uint64_t read_bursts_in_flight() const { return rd_bursts_; }
    uint64_t read_bursts_in_flight_max() const { return rd_bursts_max_; }
    // The most write bursts whose AW was accepted while their W beats had not all come (a client
    // that sends the next AW before the last burst's data shows > 1)
    size_t write_bursts_open_max() const { return aw_open_max_; }
    uint64_t beats_written() const { return n_wbeats_; }

  private:
    struct Beat {
        uint8_t id;
        uint64_t data;
        uint8_t resp;
        uint8_t last;
        uint64_t when;
        uint64_t addr;
    };
    struct Burst {
        uint8_t id;
        uint64_t addr;
        unsigned beats, done;
        uint8_t err;
    };
    struct Resp {
        uint8_t id, resp;
        uint64_t when;
    };

    Window *window(uint64_t addr, uint64_t n) {
        for (auto &w : win_)
            if (addr >= w.base && addr - w.base <= w.size && n <= w.size - (addr - w.base)) return &w;
        return nullptr;
    }
    const Window *window(uint64_t addr, uint64_t n) const {
        return const_cast<AxiMem *>(this)->window(addr, n);
    }
    uint8_t *span(uint64_t addr, uint64_t n) {
        Window *w = window(addr, n);
        return w ? w->bytes.data() + (addr - w->base) : nullptr;
    }
    bool stall() { return stall_pct_ && (rng_() % 100) < stall_pct_; }
    bool reads_frozen() const { return stall_reads_ && n_ar_ > 4; }

    static constexpr uint8_t DECERR = 3;

    void accept_read(uint64_t now) {
        n_ar_++;
        if (++rd_bursts_ > rd_bursts_max_) rd_bursts_max_ = rd_bursts_;
        unsigned beats = (unsigned)s_.arlen + 1u;
        Window *w = window(s_.araddr, 8ull * beats);
        double t = (double)now + (w ? w->latency : 1);
        if (w && w->rd_next > t) t = w->rd_next;
        double step = w ? 8.0 / w->bytes_per_cycle : 1.0;
        for (unsigned i = 0; i < beats; i++) {
            uint64_t a = s_.araddr + 8ull * i;
            uint64_t d = 0xBADADD12BADADD12ull;
            if (w) std::memcpy(&d, w->bytes.data() + (a - w->base), 8);
            // Beats of one burst come one per `step` cycles, never earlier than the previous
            // beat of the same ID (rq_.push keeps `when` in order within the ID).
            rq_.push(s_.arid, Beat{s_.arid, d, (uint8_t)(w ? 0 : DECERR), (uint8_t)(i + 1 == beats), (uint64_t)t, a});
            t += step;
        }
        if (w) w->rd_next = t;
    }

    void accept_wbeat(uint64_t now) {
        Burst &b = aw_.front();
        uint64_t a = b.addr + 8ull * b.done;
        Window *w = window(b.addr, 8ull * b.beats);
        n_wbeats_++;
        bool drop = inject_ == "drop-sem" && b.beats == 1;
        uint64_t data = s_.wdata;
        if (inject_ == "flip-write" && n_wbeats_ == 3) data ^= 0x0100;  // one bit of byte 1
        if (w && !drop) {
            uint8_t *p = w->bytes.data() + (a - w->base);
            for (int i = 0; i < 8; i++)
                if (s_.wstrb & (1u << i)) p[i] = (uint8_t)(data >> (8 * i));
        }
        if (!w) b.err = 1;
        if (w) w->wr_next = std::max(w->wr_next, (double)now) + 8.0 / w->bytes_per_cycle;
        if (++b.done == b.beats) {
            bq_.push(b.id, Resp{b.id, (uint8_t)(b.err ? DECERR : 0), now + (w ? w->latency : 1)});
            aw_.pop_front();
        }
    }

    Window win_[2];
    std::mt19937_64 rng_;
    uint32_t stall_pct_;
    std::string inject_;
    bool late_reads_, stall_reads_;  // inject_ is one of these (tested every cycle)
    static constexpr unsigned NID = 1u << GC_AXI_ID_W;
    gctb::IdQueues<Beat, NID> rq_;   // R beats, per ID
    std::deque<Burst> aw_;
    gctb::IdQueues<Resp, NID> bq_;   // B responses, per ID
    int r_id_ = -1, b_id_ = -1;      // the IDs whose R beat / B response drive() presented
    bool r_held_ = false, b_held_ = false;  // that beat / response was not taken: shown again
    uint64_t r_data_ = 0;            // the data of the R beat shown (late-reads: read when first shown)
    AxiMemPins s_{};
    bool ar_fire_ = false, r_fire_ = false, aw_fire_ = false, w_fire_ = false, b_fire_ = false;
    uint64_t n_ar_ = 0, n_wbeats_ = 0, rd_bursts_ = 0, rd_bursts_max_ = 0;
    size_t aw_open_max_ = 0;
};
