// axi_idq.h: the response queues of the memory models (the R beats and B responses of AxiMem in
// axi_mem.h and of the SystemC top's pin-level bridge in cosim/sc/sc_top.cpp), one queue per AXI ID.
//
// AXI4 keeps order only among transactions of one ID: responses of one ID leave in request order,
// responses of different IDs may pass each other.  The memory behaves so: a response of one ID
// never waits behind a slower one of another ID (a sysmem read with the PCIe latency no longer
// holds up the vidmem reads accepted after it).  Of the heads whose time has come, the oldest
// request goes first: with one R and one B channel, one beat or response per cycle.
//
// T is the queued response; it has a `when` member: the first cycle it may leave.  Within an ID,
// `when` is made non-decreasing on push (the queue is in order).
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>

namespace gctb {

template <class T, unsigned NID> class IdQueues {
  public:
    void push(unsigned id, T x) {
        std::deque<Entry> &q = q_[id % NID];
        if (!q.empty() && q.back().item.when > x.when) x.when = q.back().item.when;
        q.push_back(Entry{x, seq_++});
        live_ |= 1ull << (id % NID);
        n_++;
    }
    // The ID whose head leaves at cycle `now` (the oldest ready head), or -1.
    int ready(uint64_t now) const {
        int best = -1;
        uint64_t best_seq = 0;
        for (uint64_t m = live_; m; m &= m - 1) {   // the IDs with a response queued
            unsigned i = (unsigned)__builtin_ctzll(m);
            const Entry &e = q_[i].front();
            if (e.item.when <= now && (best < 0 || e.seq < best_seq)) {
                best = (int)i;
                best_seq = e.seq;
            }
        }
        return best;
    }
    const T &front(unsigned id) const { return q_[id].front().item; }
    void pop(unsigned id) {
        q_[id].pop_front();
        if (q_[id].empty()) live_ &= ~(1ull << id);
        n_--;
    }
    size_t size() const { return n_; }
    bool empty() const { return n_ == 0; }
    void clear() {
        for (auto &q : q_) q.clear();
        live_ = 0;
        n_ = 0;
        seq_ = 0;
    }

  private:
    struct Entry {
        T item;
        uint64_t seq;  // request order over all IDs
    };
    static_assert(NID >= 1 && NID <= 64, "IdQueues: 1..64 IDs (one bit each in live_)");
    std::deque<Entry> q_[NID];
    uint64_t live_ = 0;  // bit i: q_[i] is not empty
    size_t n_ = 0;
    uint64_t seq_ = 0;
};

}  // namespace gctb
