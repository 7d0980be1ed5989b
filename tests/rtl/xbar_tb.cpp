// Block testbench for gc_mem_xbar (tests/rtl/xbar_tb_top.sv = the crossbar with N = 3 clients).
//
// Build: make build/rtl_xbar/Vxbar_tb_top (the rtl_bench rule of the Makefile).
// Run:
//   build/rtl_xbar/Vxbar_tb_top [+seed=N | N] [+rounds=N]
// Clock, reset and seed: the shared bench harness (cosim/harness.h), with this bench's clients
// and memory model on its hooks.
//
// Three C++ clients issue random reads and writes concurrently on the client ports (keeping the
// client rules: valid and payload held until ready, W only for bursts whose AW was accepted);
// a C++ AXI4 memory model answers on the master side with random stalls and latency, returns
// read beats of different IDs interleaved (in order within an ID) and B responses out of order
// across IDs.  Reads target a read-only area and are checked beat by beat (data, rresp, rlast)
// against the client's own queue of requests, so a response routed to the wrong client or out
// of order fails; writes go to each client's own area with random strobes and are compared
// with the client's shadow at the end; ranges that answer SLVERR tag responses so B routing and
// order are checked too.  Every master handshake must match exactly one client handshake with
// the same payload and ID = client index.  Extra phases check strict round-robin rotation when
// every client always requests, and that R and W stream with no bubbles on long bursts
// (one client, and several clients back to back).
// Write snoop: every B handshake with OKAY must pulse snoop_valid_o exactly once, in the next
// cycle, with that burst's address, length and first beat (data and strobes) as the memory took
// it; a SLVERR B and any other cycle pulse nothing.  The bench's crossbar has 4 snoop slots
// (xbar_tb_top SNOOP_DEPTH): the random rounds' B latencies and bready stalls keep more writes
// awaiting their B than that, so the AW wait on a full table is exercised too (the write regions
// still end up right; without the wait, slots are overwritten and the snoop checks fail).
#include <verilated.h>

#include <cinttypes>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "Vxbar_tb_top.h"
#include "../../cosim/gc_cov.h"
#include "../../build/gen/gpucosim_spec.h"
#include "harness.h"

namespace {

constexpr int N = 3;
constexpr unsigned BEAT = GC_AXI_DATA_W / 8;
constexpr uint64_t MEM_BASE = 0x3000000000ull;
constexpr uint64_t REGION = 0x10000;          // RO area = region 0, client i writes region i+1
constexpr uint64_t MEM_SIZE = REGION * (N + 1);
constexpr uint64_t ERR_OFF = 0xF000, ERR_LEN = 0x100;  // in every region: answers SLVERR
constexpr uint8_t RESP_OKAY = 0, RESP_SLVERR = 2;
constexpr uint8_t AXI_INCR = 1;

uint64_t g_cycle = 0;
std::mt19937_64 g_rng;
uint64_t rnd(uint64_t n) { return n ? g_rng() % n : 0; }
bool chance(double p) { return p >= 1.0 || (p > 0 && (double)(g_rng() >> 11) * (1.0 / 9007199254740992.0) < p); }

std::vector<std::string> g_viol;
void violation(const char* fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  if (g_viol.size() < 30) g_viol.push_back("cycle " + std::to_string(g_cycle) + ": " + buf);
}

// ---- packed-array access on Verilator ports
template <std::size_t W>
void set_bits(VlWide<W>& w, unsigned lsb, unsigned width, uint64_t v) {
  for (unsigned i = 0; i < width; i++) {
    unsigned b = lsb + i;
    w[b / 32] = (w[b / 32] & ~(1u << (b % 32))) | ((uint32_t)((v >> i) & 1) << (b % 32));
  }
}
void set_bits(uint32_t& w, unsigned lsb, unsigned width, uint64_t v) {
  uint32_t mask = (width >= 32 ? ~0u : ((1u << width) - 1)) << lsb;
  w = (w & ~mask) | (((uint32_t)v << lsb) & mask);
}
void set_bit(uint8_t& w, unsigned b, bool v) { w = (uint8_t)((w & ~(1u << b)) | ((unsigned)v << b)); }
bool bit(uint8_t w, unsigned b) { return (w >> b) & 1; }

bool in_err(uint64_t addr, unsigned len) {
  uint64_t off = (addr - MEM_BASE) % REGION;
  uint64_t n = (uint64_t)(len + 1) * BEAT;
  return off < ERR_OFF + ERR_LEN && off + n > ERR_OFF;
}

// ------------------------------------------------------------------ memory (master side)
struct MemCfg {
  unsigned rd_lat = 10, b_lat = 3;
  double p_ar = 0, p_aw = 0, p_w = 0, p_r = 0, p_b = 0;
  bool interleave = true;  // R beats / B of different IDs mixed
};

class Mem {
 public:
  std::vector<uint8_t> m, ro;  // ro: the read-only area's contents, never written
  MemCfg cfg;
  struct Rd { unsigned id; uint64_t addr; unsigned len, beat; uint64_t ready, seq; uint8_t resp; };
  struct Wr { unsigned id; uint64_t addr; unsigned len, beat; uint8_t resp; uint64_t d0; unsigned s0; };
  struct B { unsigned id; uint64_t ready, seq; uint8_t resp; uint64_t addr; unsigned len; uint64_t d0; unsigned s0; };
  struct Snoop { uint64_t due, addr; unsigned len; uint64_t data; unsigned strb; };
  std::deque<Snoop> snoop_exp;   // the snoop pulse each OKAY B handshake owes (next cycle)
  uint64_t n_snoop = 0;
  std::vector<Rd> rd;
  std::deque<Wr> wq;
  std::vector<B> bl;
  uint64_t seq = 0;
  bool rvalid = false, bvalid = false;
  uint64_t rseq = 0, bseq = 0;
  unsigned rid = 0, bid = 0;
  uint64_t rdata = 0;
  uint8_t rresp = 0, bresp = 0;
  bool rlast = false;
  // stability
  bool ar_pend = false, aw_pend = false, w_pend = false;
  uint64_t p_araddr = 0, p_awaddr = 0, p_wdata = 0;
  unsigned p_arlen = 0, p_awlen = 0, p_arid = 0, p_awid = 0, p_wstrb = 0;
  bool p_wlast = false;
  // handshakes and payloads this cycle
  unsigned s_arid = 0, s_arlen = 0, s_awid = 0, s_awlen = 0, s_wstrb = 0;
  uint64_t s_araddr = 0, s_awaddr = 0, s_wdata = 0;
  bool s_wlast = false;
  bool ar_hs = false, aw_hs = false, w_hs = false, r_hs = false, b_hs = false;
  // stats
  uint64_t r_beats = 0, w_beats = 0, r_first = 0, r_last = 0, w_first = 0, w_last_cyc = 0;

  Mem() : m(MEM_SIZE) {
    for (auto& b : m) b = (uint8_t)g_rng();
    ro.assign(m.begin(), m.begin() + REGION);
  }
  bool idle() const { return rd.empty() && wq.empty() && bl.empty() && !rvalid && !bvalid && snoop_exp.empty(); }

  // the write snoop of this cycle (settled, before the edge)
  void check_snoop(Vxbar_tb_top* t) {
    bool due = !snoop_exp.empty() && snoop_exp.front().due == g_cycle;
    if (!t->snoop_valid_o) {
      if (due) violation("no snoop pulse for the write 0x%010" PRIx64 " whose B came last cycle", snoop_exp.front().addr);
    } else if (!due) {
      violation("snoop pulse (addr 0x%010" PRIx64 ") with no OKAY B response in the cycle before", (uint64_t)t->snoop_addr_o);
    } else {
      const Snoop& e = snoop_exp.front();
      if (t->snoop_addr_o != e.addr || t->snoop_len_o != e.len || t->snoop_data_o != e.data || t->snoop_strb_o != e.strb)
        violation("snoop addr 0x%010" PRIx64 " len %u data 0x%016" PRIx64 " strb 0x%02x, expected 0x%010" PRIx64
                  " len %u data 0x%016" PRIx64 " strb 0x%02x", (uint64_t)t->snoop_addr_o, t->snoop_len_o,
                  (uint64_t)t->snoop_data_o, t->snoop_strb_o, e.addr, e.len, e.data, e.strb);
      n_snoop++;
    }
    if (due) snoop_exp.pop_front();
  }
  void reset_stats() { r_beats = w_beats = 0; }

  void drive(Vxbar_tb_top* t) {
    t->m_arready_i = !chance(cfg.p_ar);
    t->m_awready_i = !chance(cfg.p_aw);
    t->m_wready_i = !chance(cfg.p_w);
    if (!rvalid && !chance(cfg.p_r)) {
      // candidates: the oldest ready burst of each ID
      std::vector<size_t> cand;
      bool seen[16] = {};
      for (size_t k = 0; k < rd.size(); k++) {
        if (seen[rd[k].id]) continue;
        seen[rd[k].id] = true;
        if (rd[k].ready <= g_cycle) cand.push_back(k);
        if (!cfg.interleave) break;
      }
      if (!cand.empty()) {
        // keep a burst going if it already started (not required by AXI, only to mix both)
        size_t k = cand[rnd(cand.size())];
        Rd& r = rd[k];
        uint64_t a = r.addr + (uint64_t)r.beat * BEAT - MEM_BASE;
        rdata = 0;
        for (unsigned b = 0; b < BEAT; b++) rdata |= (uint64_t)m[a + b] << (8 * b);
        rresp = r.resp;
        rlast = r.beat == r.len;
        rid = r.id;
        rseq = r.seq;
        rvalid = true;
      }
    }
    if (!bvalid && !chance(cfg.p_b)) {
      std::vector<size_t> cand;
      bool seen[16] = {};
      for (size_t k = 0; k < bl.size(); k++) {
        if (seen[bl[k].id]) continue;
        seen[bl[k].id] = true;
        if (bl[k].ready <= g_cycle) cand.push_back(k);
        if (!cfg.interleave) break;
      }
      if (!cand.empty()) {
        size_t k = cand[rnd(cand.size())];
        bid = bl[k].id;
        bresp = bl[k].resp;
        bseq = bl[k].seq;
        bvalid = true;
      }
    }
    t->m_rvalid_i = rvalid;
    t->m_rid_i = rvalid ? rid : (unsigned)rnd(16);
    t->m_rdata_i = rvalid ? rdata : g_rng();
    t->m_rresp_i = rvalid ? rresp : 3;
    t->m_rlast_i = rvalid ? rlast : rnd(2);
    t->m_bvalid_i = bvalid;
    t->m_bid_i = bvalid ? bid : (unsigned)rnd(16);
    t->m_bresp_i = bvalid ? bresp : 3;
  }

  void sample(Vxbar_tb_top* t) {
    if (ar_pend && (!t->m_arvalid_o || t->m_araddr_o != p_araddr || t->m_arlen_o != p_arlen || t->m_arid_o != p_arid))
      violation("master AR valid/payload changed before arready");
    if (aw_pend && (!t->m_awvalid_o || t->m_awaddr_o != p_awaddr || t->m_awlen_o != p_awlen || t->m_awid_o != p_awid))
      violation("master AW valid/payload changed before awready");
    if (w_pend && (!t->m_wvalid_o || t->m_wdata_o != p_wdata || t->m_wstrb_o != p_wstrb || t->m_wlast_o != p_wlast))
      violation("master W valid/payload changed before wready");
    ar_pend = t->m_arvalid_o && !t->m_arready_i;
    aw_pend = t->m_awvalid_o && !t->m_awready_i;
    w_pend = t->m_wvalid_o && !t->m_wready_i;
    p_araddr = t->m_araddr_o; p_arlen = t->m_arlen_o; p_arid = t->m_arid_o;
    p_awaddr = t->m_awaddr_o; p_awlen = t->m_awlen_o; p_awid = t->m_awid_o;
    p_wdata = t->m_wdata_o; p_wstrb = t->m_wstrb_o; p_wlast = t->m_wlast_o;
    if (t->m_arvalid_o && (t->m_arsize_o != 3 || t->m_arburst_o != AXI_INCR)) violation("arsize/arburst %u/%u", t->m_arsize_o, t->m_arburst_o);
    if (t->m_awvalid_o && (t->m_awsize_o != 3 || t->m_awburst_o != AXI_INCR)) violation("awsize/awburst %u/%u", t->m_awsize_o, t->m_awburst_o);
    if (t->m_arvalid_o && t->m_arid_o >= N) violation("arid %u", t->m_arid_o);
    if (t->m_awvalid_o && t->m_awid_o >= N) violation("awid %u", t->m_awid_o);
    if (t->m_wvalid_o && wq.empty()) violation("master W with no AW waiting for data");
    ar_hs = t->m_arvalid_o && t->m_arready_i;
    aw_hs = t->m_awvalid_o && t->m_awready_i;
    w_hs = t->m_wvalid_o && t->m_wready_i;
    // payloads as seen before the clock edge (outputs change after it)
    s_arid = t->m_arid_o; s_araddr = t->m_araddr_o; s_arlen = t->m_arlen_o;
    s_awid = t->m_awid_o; s_awaddr = t->m_awaddr_o; s_awlen = t->m_awlen_o;
    s_wdata = t->m_wdata_o; s_wstrb = t->m_wstrb_o; s_wlast = t->m_wlast_o;
    r_hs = rvalid && t->m_rready_o;
    b_hs = bvalid && t->m_bready_o;
  }

  void update() {
    if (r_hs) {
      for (size_t k = 0; k < rd.size(); k++)
        if (rd[k].seq == rseq) {
          if (++rd[k].beat > rd[k].len) rd.erase(rd.begin() + k);
          break;
        }
      rvalid = false;
      if (!r_beats++) r_first = g_cycle;
      r_last = g_cycle;
    }
    if (b_hs) {
      for (size_t k = 0; k < bl.size(); k++)
        if (bl[k].seq == bseq) {
          const B& b = bl[k];
          if (b.resp == RESP_OKAY) snoop_exp.push_back({g_cycle + 1, b.addr, b.len, b.d0, b.s0});
          bl.erase(bl.begin() + k);
          break;
        }
      bvalid = false;
    }
    if (w_hs && !wq.empty()) {
      Wr& w = wq.front();
      uint64_t a = w.addr + (uint64_t)w.beat * BEAT - MEM_BASE;
      if (w.resp == RESP_OKAY)
        for (unsigned b = 0; b < BEAT; b++)
          if ((s_wstrb >> b) & 1) m[a + b] = (uint8_t)(s_wdata >> (8 * b));
      if (w.beat == 0) { w.d0 = s_wdata; w.s0 = s_wstrb; }
      bool last = w.beat == w.len;
      if (s_wlast != last) violation("master wlast %u on beat %u of %u", s_wlast, w.beat, w.len + 1);
      w.beat++;
      if (s_wlast || w.beat > w.len) {
        bl.push_back({w.id, g_cycle + cfg.b_lat, seq++, w.resp, w.addr, w.len, w.d0, w.s0});
        wq.pop_front();
      }
      if (!w_beats++) w_first = g_cycle;
      w_last_cyc = g_cycle;
    }
    if (ar_hs) rd.push_back({s_arid, s_araddr, s_arlen, 0, g_cycle + cfg.rd_lat, seq++,
                             in_err(s_araddr, s_arlen) ? RESP_SLVERR : RESP_OKAY});
    if (aw_hs) wq.push_back({s_awid, s_awaddr, s_awlen, 0, in_err(s_awaddr, s_awlen) ? RESP_SLVERR : RESP_OKAY, 0, 0});
  }
};

// ------------------------------------------------------------------ clients
struct ClientCfg {
  double p_ar = 0.5, p_aw = 0.5, p_w = 0.8, p_rready = 0.8, p_bready = 0.8;
  int reads = 0, writes = 0;
  unsigned min_len = 0, max_len = 15;  // burst length - 1
  unsigned max_rd_out = 8, max_w_ahead = 6;
};

struct Client {
  int i = 0;
  ClientCfg cfg;
  bool arv = false, awv = false, wv = false, rready = false, bready = false;
  uint64_t araddr = 0, awaddr = 0;
  unsigned arlen = 0, awlen = 0;
  std::vector<uint64_t> aw_data;
  std::vector<uint8_t> aw_strb;
  struct ER { uint64_t addr; unsigned len, beat; uint8_t resp; };
  std::deque<ER> er;
  struct PW { uint64_t addr; unsigned len, beat; std::vector<uint64_t> data; std::vector<uint8_t> strb; };
  std::deque<PW> wtodo;
  std::deque<uint8_t> eb;
  std::vector<uint8_t> shadow;  // expected contents of this client's write region
  bool ar_hs = false, aw_hs = false, w_hs = false, r_hs = false, b_hs = false;
  uint64_t n_r = 0, n_b = 0;

  uint64_t region() const { return MEM_BASE + REGION * (i + 1); }
  bool done() const {
    return cfg.reads == 0 && cfg.writes == 0 && !arv && !awv && !wv && er.empty() && wtodo.empty() && eb.empty();
  }

  uint64_t pick_addr(uint64_t base, unsigned& len) {
    len = cfg.min_len + (unsigned)rnd(cfg.max_len - cfg.min_len + 1);
    uint64_t off;
    if (rnd(16) == 0) off = ERR_OFF - 64 + rnd(ERR_LEN + 128);  // hits or brushes the SLVERR range
    else off = rnd(REGION);
    off &= ~7ull;
    uint64_t page_end = (off | 0xFFF) + 1;
    if (off + (uint64_t)(len + 1) * BEAT > page_end) len = (unsigned)((page_end - off) / BEAT) - 1;
    return base + off;
  }

  void drive() {
    if (!arv && cfg.reads > 0 && er.size() < cfg.max_rd_out && chance(cfg.p_ar)) {
      araddr = pick_addr(MEM_BASE, arlen);
      arv = true;
    }
    if (!awv && cfg.writes > 0 && wtodo.size() < cfg.max_w_ahead && chance(cfg.p_aw)) {
      awaddr = pick_addr(region(), awlen);
      aw_data.clear();
      aw_strb.clear();
      for (unsigned k = 0; k <= awlen; k++) {
        aw_data.push_back(g_rng());
        unsigned r = (unsigned)rnd(4);
        aw_strb.push_back(r == 0 ? (uint8_t)g_rng() : 0xFF);
      }
      awv = true;
    }
    if (!wv && !wtodo.empty() && chance(cfg.p_w)) wv = true;
    rready = chance(cfg.p_rready);
    bready = chance(cfg.p_bready);
  }

  void update(const Mem& mem, uint64_t rdata, uint8_t rresp, bool rlast, uint8_t bresp) {
    if (r_hs) {
      n_r++;
      if (er.empty()) {
        violation("client %d: R beat with no read outstanding", i);
      } else {
        ER& e = er.front();
        uint64_t a = e.addr + (uint64_t)e.beat * BEAT - MEM_BASE;
        uint64_t exp = 0;
        for (unsigned b = 0; b < BEAT; b++) exp |= (uint64_t)mem.ro[a + b] << (8 * b);
        if (rdata != exp || rresp != e.resp || rlast != (e.beat == e.len))
          violation("client %d: R beat %u of burst 0x%010" PRIx64 " len %u: data 0x%016" PRIx64 " resp %u last %d, "
                    "expected 0x%016" PRIx64 " resp %u last %d (misrouted or out of order)",
                    i, e.beat, e.addr, e.len, rdata, rresp, rlast, exp, e.resp, e.beat == e.len);
        if (++e.beat > e.len || rlast) er.pop_front();
      }
    }
    if (b_hs) {
      n_b++;
      if (eb.empty()) violation("client %d: B with no write outstanding", i);
      else {
        if (bresp != eb.front()) violation("client %d: bresp %u, expected %u (misrouted or out of order)", i, bresp, eb.front());
        eb.pop_front();
      }
    }
    if (w_hs) {
      PW& p = wtodo.front();
      if (++p.beat > p.len) wtodo.pop_front();
      wv = false;
    }
    if (ar_hs) {
      er.push_back({araddr, arlen, 0, in_err(araddr, arlen) ? RESP_SLVERR : RESP_OKAY});
      arv = false;
      cfg.reads--;
    }
    if (aw_hs) {
      bool err = in_err(awaddr, awlen);
      eb.push_back(err ? RESP_SLVERR : RESP_OKAY);
      if (!err)
        for (unsigned k = 0; k <= awlen; k++)
          for (unsigned b = 0; b < BEAT; b++)
            if ((aw_strb[k] >> b) & 1) shadow[awaddr - region() + k * BEAT + b] = (uint8_t)(aw_data[k] >> (8 * b));
      wtodo.push_back({awaddr, awlen, 0, aw_data, aw_strb});
      awv = false;
      cfg.writes--;
    }
  }
};

std::unique_ptr<gctb::Harness<Vxbar_tb_top>> g_h;   // the shared bench harness (cosim/harness.h)
Vxbar_tb_top* g_top = nullptr;
std::unique_ptr<Mem> g_mem;
Client g_cl[N];
// round-robin rotation checking
bool g_check_rr = false;
int g_last_ar = -1, g_last_aw = -1;
uint64_t g_rr_checked = 0;

// The harness's hooks.  With the clock low: the memory model and the clients drive
void hook_drive() {
  Vxbar_tb_top* t = g_top;
  g_mem->drive(t);
  uint8_t arv = 0, awv = 0, wv = 0, rr = 0, br = 0, wl = 0;
  uint32_t arlen = 0, awlen = 0, wstrb = 0;
  for (int i = 0; i < N; i++) {
    Client& c = g_cl[i];
    c.drive();
    set_bit(arv, i, c.arv);
    set_bit(awv, i, c.awv);
    set_bit(wv, i, c.wv);
    set_bit(rr, i, c.rready);
    set_bit(br, i, c.bready);
    // payloads: junk when not valid (the crossbar must not care)
    set_bits(t->c_araddr_i, 40 * i, 40, c.arv ? c.araddr : g_rng());
    set_bits(arlen, 8 * i, 8, c.arv ? c.arlen : g_rng());
    set_bits(t->c_awaddr_i, 40 * i, 40, c.awv ? c.awaddr : g_rng());
    set_bits(awlen, 8 * i, 8, c.awv ? c.awlen : g_rng());
    if (c.wv) {
      const Client::PW& p = c.wtodo.front();
      set_bits(t->c_wdata_i, 64 * i, 64, p.data[p.beat]);
      set_bits(wstrb, 8 * i, 8, p.strb[p.beat]);
      set_bit(wl, i, p.beat == p.len);
    } else {
      set_bits(t->c_wdata_i, 64 * i, 64, g_rng());
      set_bits(wstrb, 8 * i, 8, g_rng());
      set_bit(wl, i, rnd(2));
    }
  }
  t->c_arvalid_i = arv; t->c_awvalid_i = awv; t->c_wvalid_i = wv;
  t->c_rready_i = rr; t->c_bready_i = br;
  t->c_arlen_i = arlen; t->c_awlen_i = awlen; t->c_wstrb_i = wstrb; t->c_wlast_i = wl;
}

// settled, before the edge: the handshakes of this cycle and the crossbar's rules
uint64_t g_rdata;
uint8_t g_rresp, g_bresp;
bool g_rlast;
void hook_pre_edge() {
  Vxbar_tb_top* t = g_top;
  g_mem->sample(t);
  g_mem->check_snoop(t);
  int n_ar = 0, n_aw = 0, n_w = 0, who_ar = -1, who_aw = -1, who_w = -1;
  for (int i = 0; i < N; i++) {
    Client& c = g_cl[i];
    c.ar_hs = c.arv && bit(t->c_arready_o, i);
    c.aw_hs = c.awv && bit(t->c_awready_o, i);
    c.w_hs = c.wv && bit(t->c_wready_o, i);
    c.r_hs = bit(t->c_rvalid_o, i) && c.rready;
    c.b_hs = bit(t->c_bvalid_o, i) && c.bready;
    if (c.ar_hs) { n_ar++; who_ar = i; }
    if (c.aw_hs) { n_aw++; who_aw = i; }
    if (c.w_hs) { n_w++; who_w = i; }
    if (bit(t->c_rvalid_o, i) != (g_mem->rvalid && g_mem->rid == (unsigned)i)) violation("c_rvalid_o[%d] wrong for rid %u", i, g_mem->rid);
    if (bit(t->c_bvalid_o, i) != (g_mem->bvalid && g_mem->bid == (unsigned)i)) violation("c_bvalid_o[%d] wrong for bid %u", i, g_mem->bid);
  }
  if (g_mem->rvalid && (t->c_rdata_o != g_mem->rdata || t->c_rresp_o != g_mem->rresp || t->c_rlast_o != g_mem->rlast))
    violation("shared R payload differs from the master's");
  if (g_mem->bvalid && t->c_bresp_o != g_mem->bresp) violation("shared bresp differs from the master's");
  if (g_mem->r_hs != (g_mem->rvalid && g_cl[g_mem->rid].r_hs)) violation("m_rready_o does not follow client %u rready", g_mem->rid);
  if (g_mem->b_hs != (g_mem->bvalid && g_cl[g_mem->bid].b_hs)) violation("m_bready_o does not follow client %u bready", g_mem->bid);
  // every master request handshake is exactly one client's, with its payload and ID = index
  if (n_ar != (int)g_mem->ar_hs) violation("%d client AR handshakes, master %d", n_ar, g_mem->ar_hs);
  else if (n_ar && (t->m_arid_o != (unsigned)who_ar || t->m_araddr_o != g_cl[who_ar].araddr || t->m_arlen_o != g_cl[who_ar].arlen))
    violation("master AR id %u addr 0x%010" PRIx64 " != client %d request", t->m_arid_o, (uint64_t)t->m_araddr_o, who_ar);
  if (n_aw != (int)g_mem->aw_hs) violation("%d client AW handshakes, master %d", n_aw, g_mem->aw_hs);
  else if (n_aw && (t->m_awid_o != (unsigned)who_aw || t->m_awaddr_o != g_cl[who_aw].awaddr || t->m_awlen_o != g_cl[who_aw].awlen))
    violation("master AW id %u addr 0x%010" PRIx64 " != client %d request", t->m_awid_o, (uint64_t)t->m_awaddr_o, who_aw);
  if (n_w != (int)g_mem->w_hs) violation("%d client W handshakes, master %d", n_w, g_mem->w_hs);
  else if (n_w) {
    const Client::PW& p = g_cl[who_w].wtodo.front();
    if (t->m_wdata_o != p.data[p.beat] || t->m_wstrb_o != p.strb[p.beat] || t->m_wlast_o != (p.beat == p.len))
      violation("master W beat differs from client %d beat", who_w);
    if (!g_mem->wq.empty() && g_mem->wq.front().id != (unsigned)who_w)
      violation("W beat from client %d while the AW at the head of the order is client %u", who_w, g_mem->wq.front().id);
  }
  if (g_check_rr) {
    if (g_mem->ar_hs) {
      if (g_last_ar >= 0 && (int)t->m_arid_o != (g_last_ar + 1) % N) violation("AR grant %u after %d: not round robin", t->m_arid_o, g_last_ar);
      g_last_ar = t->m_arid_o;
      g_rr_checked++;
    }
    if (g_mem->aw_hs) {
      if (g_last_aw >= 0 && (int)t->m_awid_o != (g_last_aw + 1) % N) violation("AW grant %u after %d: not round robin", t->m_awid_o, g_last_aw);
      g_last_aw = t->m_awid_o;
      g_rr_checked++;
    }
  }
  g_rdata = t->c_rdata_o;
  g_rresp = t->c_rresp_o;
  g_bresp = t->c_bresp_o;
  g_rlast = t->c_rlast_o;
}

// after the edge: the memory model and the clients act on the handshakes
void hook_post_edge() {
  g_mem->update();
  for (int i = 0; i < N; i++) g_cl[i].update(*g_mem, g_rdata, g_rresp, g_rlast, g_bresp);
  g_cycle++;
}

void tick() { g_h->tick(); }

int g_pass = 0, g_fail = 0;
void check(bool ok, const std::string& name, const std::vector<std::string>& why) {
  if (ok) { g_pass++; return; }
  g_fail++;
  printf("FAIL: %s\n", name.c_str());
  for (auto& w : why) printf("    %s\n", w.c_str());
  fflush(stdout);
}

// Run until every client finished and the memory is idle; check the write regions.
bool run_phase(const std::string& name, uint64_t limit = 400000) {
  uint64_t start = g_cycle;
  std::vector<std::string> why;
  for (;;) {
    bool all = g_mem->idle();
    for (auto& c : g_cl) all = all && c.done();
    if (all) break;
    if (g_cycle - start > limit) {
      why.push_back("timeout: phase did not finish");
      break;
    }
    tick();
  }
  for (int i = 0; i < N; i++) {
    const uint8_t* mem = &g_mem->m[REGION * (i + 1)];
    int shown = 0;
    for (uint64_t k = 0; k < REGION; k++)
      if (mem[k] != g_cl[i].shadow[k] && shown++ < 5) {
        char b[200];
        snprintf(b, sizeof b, "client %d write region byte 0x%010" PRIx64 ": expected 0x%02x, got 0x%02x", i,
                 g_cl[i].region() + k, g_cl[i].shadow[k], mem[k]);
        why.push_back(b);
      }
    if (shown) {
      g_cl[i].shadow.assign(mem, mem + REGION);  // resync
    }
  }
  for (auto& v : g_viol) why.push_back(v);
  g_viol.clear();
  bool ok = why.empty();
  check(ok, name, why);
  if (g_cycle - start > limit) {
    printf("crossbar hung; giving up\n%d passed, %d failed\n", g_pass, g_fail);
    exit(1);
  }
  return ok;
}

void reset_dut() {
  Vxbar_tb_top* t = g_top;
  t->rst_ni = 0;
  for (int i = 0; i < 4; i++) tick();
  t->rst_ni = 1;
  tick();
}

double pick_p() {
  static const double ps[] = {0.1, 0.3, 0.5, 0.8, 1.0, 1.0};
  return ps[rnd(6)];
}

}  // namespace

int main(int argc, char** argv) {
  uint64_t seed = 1;
  int rounds = 12;
  for (int i = 1; i < argc; i++) {
    const char* a = argv[i];
    if (!strncmp(a, "+seed=", 6)) seed = strtoull(a + 6, nullptr, 0);
    else if (!strncmp(a, "+rounds=", 8)) rounds = atoi(a + 8);
    else if (a[0] >= '0' && a[0] <= '9') seed = strtoull(a, nullptr, 0);
  }
  printf("xbar_tb: seed %" PRIu64 " (rerun with +seed=%" PRIu64 "), N = %d, %d random rounds\n", seed, seed, N, rounds);
  g_rng.seed(seed);
  g_h = std::make_unique<gctb::Harness<Vxbar_tb_top>>(seed);
  g_h->cov_tag = "xbar";
  g_h->ctx->commandArgs(argc, argv);
  g_top = g_h->top.get();
  g_h->drive = hook_drive;
  g_h->pre_edge = hook_pre_edge;
  g_h->post_edge = hook_post_edge;
  g_mem = std::make_unique<Mem>();
  for (int i = 0; i < N; i++) {
    g_cl[i].i = i;
    g_cl[i].shadow.assign(g_mem->m.begin() + REGION * (i + 1), g_mem->m.begin() + REGION * (i + 2));
  }
  reset_dut();

  // ---------------------------------------------------------------- random concurrent traffic
  uint64_t total_r = 0, total_b = 0;
  for (int r = 0; r < rounds; r++) {
    g_mem->cfg = MemCfg{};
    g_mem->cfg.rd_lat = 1 + (unsigned)rnd(60);
    g_mem->cfg.b_lat = (unsigned)rnd(20);
    if (r % 2) {
      g_mem->cfg.p_ar = 1 - pick_p(); g_mem->cfg.p_aw = 1 - pick_p(); g_mem->cfg.p_w = 1 - pick_p();
      g_mem->cfg.p_r = 1 - pick_p(); g_mem->cfg.p_b = 1 - pick_p();
    }
    g_mem->cfg.interleave = r % 3 != 2;
    for (auto& c : g_cl) {
      c.cfg = ClientCfg{};
      c.cfg.p_ar = pick_p(); c.cfg.p_aw = pick_p(); c.cfg.p_w = pick_p();
      c.cfg.p_rready = pick_p(); c.cfg.p_bready = pick_p();
      c.cfg.reads = 100 + (int)rnd(200);
      c.cfg.writes = 100 + (int)rnd(200);
      c.n_r = c.n_b = 0;
    }
    run_phase("random round " + std::to_string(r));
    for (auto& c : g_cl) { total_r += c.n_r; total_b += c.n_b; }
  }
  printf("random: %d rounds, %" PRIu64 " R beats and %" PRIu64 " B responses routed and checked, %" PRIu64
         " write snoop pulses checked\n", rounds, total_r, total_b, g_mem->n_snoop);

  // ---------------------------------------------------------------- round-robin rotation
  {
    g_mem->cfg = MemCfg{};
    g_mem->cfg.p_ar = g_mem->cfg.p_aw = 0.5;  // stalls: the grant must stay locked meanwhile
    for (auto& c : g_cl) {
      c.cfg = ClientCfg{};
      c.cfg.p_ar = c.cfg.p_aw = c.cfg.p_w = c.cfg.p_rready = c.cfg.p_bready = 1.0;
      c.cfg.reads = c.cfg.writes = 200;
      c.cfg.max_rd_out = c.cfg.max_w_ahead = 1000;
      c.cfg.max_len = 1;
    }
    g_check_rr = true;
    g_last_ar = g_last_aw = -1;
    g_rr_checked = 0;
    // rotation is only guaranteed while all clients request: stop checking once one runs dry
    uint64_t start = g_cycle;
    while (g_cl[0].cfg.reads > 5 && g_cl[1].cfg.reads > 5 && g_cl[2].cfg.reads > 5 &&
           g_cl[0].cfg.writes > 5 && g_cl[1].cfg.writes > 5 && g_cl[2].cfg.writes > 5 && g_cycle - start < 100000)
      tick();
    g_check_rr = false;
    run_phase("round robin");
    printf("round robin: %" PRIu64 " AR/AW grants under full contention checked for strict rotation\n", g_rr_checked);
  }

  // ---------------------------------------------------------------- streaming, no bubbles
  {
    struct S { const char* name; int readers, writers; };
    const S ss[] = {{"R, one client", 1, 0}, {"R, three clients", 3, 0}, {"W, one client", 0, 1},
                    {"W, three clients", 0, 3}, {"R and W, three clients", 3, 3}};
    for (const S& s : ss) {
      g_mem->cfg = MemCfg{};
      g_mem->cfg.rd_lat = 20;
      for (int i = 0; i < N; i++) {
        Client& c = g_cl[i];
        c.cfg = ClientCfg{};
        c.cfg.p_ar = c.cfg.p_aw = c.cfg.p_w = c.cfg.p_rready = c.cfg.p_bready = 1.0;
        c.cfg.min_len = c.cfg.max_len = 15;
        c.cfg.reads = i < s.readers ? 64 : 0;
        c.cfg.writes = i < s.writers ? 64 : 0;
      }
      g_mem->reset_stats();
      bool ok = run_phase(std::string("stream ") + s.name);
      std::vector<std::string> why;
      double r_eff = 1, w_eff = 1;
      if (g_mem->r_beats) r_eff = (double)g_mem->r_beats / (double)(g_mem->r_last - g_mem->r_first + 1);
      if (g_mem->w_beats) w_eff = (double)g_mem->w_beats / (double)(g_mem->w_last_cyc - g_mem->w_first + 1);
      printf("stream %-24s R %5" PRIu64 " beats at %.3f/cycle, W %5" PRIu64 " beats at %.3f/cycle\n", s.name,
             g_mem->r_beats, r_eff, g_mem->w_beats, w_eff);
      // pages split some 16-beat bursts (4 KiB), never the beat stream itself
      if (r_eff < 0.999) why.push_back("R beats not back to back: " + std::to_string(r_eff));
      if (w_eff < 0.999) why.push_back("W beats not back to back: " + std::to_string(w_eff));
      if (ok) check(why.empty(), std::string("no bubbles: ") + s.name, why);
    }
  }

  printf("simulated %" PRIu64 " cycles\n", g_cycle);
  printf("%d passed, %d failed\n", g_pass, g_fail);
  g_h.reset();   // final() and the model's end
  return g_fail ? 1 : 0;
}
