// Block testbench for gc_copy_engine (tests/rtl/ce_tb_top.sv = the engine alone).
//
// Build: make build/rtl_ce/Vce_tb_top (the rtl_bench rule of the Makefile).
// Run:
//   build/rtl_ce/Vce_tb_top [+seed=N | N] [+copies=N] [+memsets=N]
// Clock, reset and seed: the shared bench harness (cosim/harness.h), with this bench's memory
// model on its hooks.
//
// What it does
//   * A C++ AXI memory model on the engine's client memory port: a byte array (4 MiB at a
//     40-bit base address), configurable read latency, one beat per cycle, random ready/valid
//     stalls from the seeded RNG, an optional address range that answers SLVERR, DECERR outside
//     the array.  It checks the AXI rules the engine must keep: 8-byte aligned bursts of at most
//     AXI_MAX_BURST beats that do not cross 4 KiB, valid/payload held until ready, W never
//     before its AW was accepted, wlast on the right beat, rd_out_o equal to the read bursts
//     really in flight, no read at all for a memset, and no transaction left outstanding at
//     done_o.
//   * A model of the atomic unit on the engine's release port (aq_* / as_*): random aq_ready_i
//     stalls, request held stable until accepted, exactly one WRITE per release (size 0 for
//     one word, size 2 for four words, the command's address and payload; upper wdata word 0
//     for one word, the copy's start stamp for four: cycle_i (the cycle counter's low word) in
//     the cycle the command was accepted),
//     issued only after every data write of the command got its B; a few cycles later it
//     performs the write into the memory (size 2: payload, the start stamp and the 8-byte cycle
//     counter as timestamp) and pulses as_valid_i (as_err_i, and no write, if the address lies
//     in the SLVERR range).  done_o must come after that pulse.
//   * directed copies (every src/dst alignment pair, short lengths at a 4 KiB boundary), and
//     no-data commands (cmd_copy 0, line_len 0, line_count 0) with one- and four-word releases.
//   * (a) random copies: sizes 0..5000 bytes per line (biased small and odd), random src/dst
//     byte alignments (some next to 4 KiB boundaries), 1D and 2D shapes (line_count 1..8,
//     pitches >= line_len), cmd_copy 0 / line_len 0 / line_count 0 cases, random one- or
//     four-word release and interrupt, random latency and stalls.  After each copy the whole
//     memory is compared with a shadow copy: every destination byte, the guard bytes around and
//     between lines (in fact every other byte of memory) and the release's 4 or 16 bytes (the
//     timestamp must lie after the last data B and within the command's run).
//   * (m) memsets (cmd_remap_i): every element shape (component size 1..4 x 1..4 components)
//     at every dst alignment, then random memsets: random shape, random CONST_A / CONST_B /
//     NO_WRITE mix and constants, random dst alignment, 1D and 2D; NO_WRITE bytes and guard
//     bytes must stay untouched, bytes_o counts the bytes written.
//   * (r) releases: one- and four-word releases after a copy, a memset and no data, with
//     atomic-unit stalls and latencies; then reduction releases (cmd_sem_reduce_i): every
//     SEMAPHORE_REDUCTION op, signed and unsigned, one- and four-word: the request is an RMW
//     with the command's op and signedness, and the bench's atomic model reduces with it.
//   * (b) a 64 KiB copy and a 64 KiB memset with no stalls: efficiency = bytes/cycle / 8,
//     asserted >= 0.9 (aligned and misaligned), and a copy's cycles <= its read beats + read
//     latency + B latency + 8 (first read in the accept cycle, cut-through writes); a few more
//     shapes are printed.
//   * (c) bus errors (SLVERR on a read, on a write, as_err_i on the release; DECERR outside
//     memory) -> done_err_o, no release after a data error, bus drained; then a normal command
//     still works.
//   Exit status is non-zero on any failure; the last line is "N passed, M failed".
#include <verilated.h>

#include <algorithm>
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

#include "Vce_tb_top.h"
#include "../../cosim/gc_cov.h"
#include "../../build/gen/gpucosim_spec.h"
#include "harness.h"

namespace {

constexpr uint64_t MEM_BASE = 0xA540000000ull;  // bit 39 set: exercises the upper address bits
constexpr uint64_t MEM_SIZE = 4ull << 20;
constexpr uint64_t SRC_OFF = 0x000000, SRC_SPAN = 0x180000;
constexpr uint64_t DST_OFF = 0x200000, DST_SPAN = 0x180000;
constexpr uint64_t SEM_OFF = 0x3F0000, SEM_SPAN = 0x10000;
constexpr unsigned RD_OUT_MAX = 12;  // ce_tb_top default parameter
constexpr unsigned BEAT = GC_AXI_DATA_W / 8;
constexpr uint8_t RESP_OKAY = 0, RESP_SLVERR = 2, RESP_DECERR = 3;

uint64_t g_cycle = 0;
std::mt19937_64 g_rng;

uint64_t rnd(uint64_t n) { return n ? g_rng() % n : 0; }  // [0, n)
bool chance(double p) { return p > 0 && (double)(g_rng() >> 11) * (1.0 / 9007199254740992.0) < p; }

struct MemCfg {
  unsigned rd_lat = 20;  // AR accepted in cycle t -> first R beat may show in cycle t + rd_lat
  unsigned b_lat = 4;    // last W beat in cycle t -> B may show in cycle t + b_lat
  double p_ar = 0, p_aw = 0, p_w = 0;  // probability that a ready is low in a cycle
  double p_r = 0, p_b = 0;             // probability that an available R/B is held back a cycle
  double p_aq = 0;        // probability that aq_ready_i is low in a cycle (atomic unit busy elsewhere)
  unsigned as_lat = 3;    // release accepted in cycle t -> write + as_valid_i in cycle t + as_lat
};

// atomic-unit request encodings (rtl/README.md, "Atomic unit")
constexpr unsigned AQ_OP_WRITE = 1, AQ_OP_RMW = 2;                 // (0 READ)
constexpr unsigned AQ_SIZE_4 = 0, AQ_SIZE_8 = 1, AQ_SIZE_16 = 2;  // 4, 8, 16 bytes
constexpr unsigned AQ_SIZE_16W = 3;                                // 16 bytes: 4-byte value, wdata[63:32], stamp

// NVIDIA's reduction of a 32-bit semaphore value (dev_pbdma.ref table; same op encoding in the
// host and copy classes)
uint32_t reduce32(unsigned red, bool sgn, uint32_t v, uint32_t p) {
  bool lt = sgn ? (int32_t)v < (int32_t)p : v < p;
  switch (red) {
  case GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_IMIN: return lt ? v : p;
  case GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_IMAX: return lt ? p : v;
  case GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_IXOR: return v ^ p;
  case GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_IAND: return v & p;
  case GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_IOR: return v | p;
  case GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_IADD: return v + p;
  case GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_INC: return v >= p ? 0 : v + 1;
  case GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_DEC: return (v == 0 || v > p) ? p : v - 1;
  default: return v;
  }
}

class CliMem {
 public:
  explicit CliMem(Vce_tb_top* top) : top_(top), m(MEM_SIZE) {}

  Vce_tb_top* top_;
  std::vector<uint8_t> m;
  MemCfg cfg;
  uint64_t err_lo = 0, err_hi = 0;  // [lo, hi) answers SLVERR
  bool allow_outside = false;        // DECERR outside the array is expected (error test)
  std::vector<std::string> viol;     // protocol violations seen
  unsigned max_rd_out = 0;
  uint64_t n_ar = 0, n_aw = 0;       // per command
  uint64_t last_b_cycle = 0;         // cycle of the last B handshake on the memory port

  // ---- atomic-unit model (the engine's release port); expectations set per command
  bool sem_expected = false;         // the command asks for a release
  uint64_t sem_addr = 0;
  unsigned sem_size = AQ_SIZE_4;
  uint32_t sem_payload = 0;
  uint32_t sem_start = 0;            // cycle_i in the command's handshake cycle
  bool sem_reduce = false, sem_signed = false;   // the release is a reduction ...
  unsigned sem_red = 0;                          // ... this one
  uint64_t n_aq = 0, n_as = 0;       // requests accepted, responses pulsed (per command)
  bool au_busy = false, as_pulse = false, as_err = false;
  uint64_t au_due = 0, au_addr = 0, au_wdata = 0;
  unsigned au_size = 0, au_op = 0, au_red = 0;
  bool au_signed = false;
  uint64_t au_ts = 0;                // timestamp the model wrote (size 2)
  bool aq_pend = false;
  uint64_t p_aqaddr = 0, p_aqwdata = 0;
  unsigned p_aqop = 0, p_aqsize = 0, p_aqred = 0, p_aqsigned = 0;
  bool aq_hs = false;

  struct Rd { uint64_t addr; unsigned len; uint64_t ready; unsigned beat; uint8_t resp; };
  struct Wr { uint64_t addr; unsigned len; unsigned beat; uint8_t resp; };
  struct B { uint64_t ready; uint8_t resp; };
  std::deque<Rd> rq;
  std::deque<Wr> wq;
  std::deque<B> bq;

  bool idle() const { return rq.empty() && wq.empty() && bq.empty() && !rvalid && !bvalid; }
  bool au_idle() const { return !au_busy; }

  void violation(const char* fmt, ...) {
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    char line[600];
    snprintf(line, sizeof line, "cycle %" PRIu64 ": %s", g_cycle, buf);
    if (viol.size() < 20) viol.push_back(line);
  }

  bool in_mem(uint64_t a, uint64_t n) const { return a >= MEM_BASE && a + n <= MEM_BASE + MEM_SIZE; }
  bool in_err(uint64_t a, uint64_t n) const { return a < err_hi && a + n > err_lo; }

  uint8_t burst_resp(uint64_t addr, unsigned len, const char* what) {
    uint64_t n = (uint64_t)(len + 1) * BEAT;
    if (!in_mem(addr, n)) {
      if (!allow_outside) violation("%s burst 0x%010" PRIx64 " len %u outside the memory", what, addr, len);
      return RESP_DECERR;
    }
    return in_err(addr, n) ? RESP_SLVERR : RESP_OKAY;
  }

  void check_burst(uint64_t addr, unsigned len, const char* what) {
    if (addr % BEAT) violation("%s address 0x%010" PRIx64 " not 8-byte aligned", what, addr);
    if (len + 1 > GC_AXI_MAX_BURST) violation("%s len %u > AXI_MAX_BURST-1", what, len);
    if ((addr & 0xFFF) + (uint64_t)(len + 1) * BEAT > 4096)
      violation("%s 0x%010" PRIx64 " len %u crosses 4 KiB", what, addr, len);
  }

  // ---- outputs of the memory for this cycle (called with clk low, before eval)
  bool rvalid = false, bvalid = false;
  uint64_t rdata = 0;
  uint8_t rresp = 0, bresp_v = 0;
  bool rlast = false;

  void drive() {
    top_->m_arready_i = !chance(cfg.p_ar);
    top_->cycle_i = (uint32_t)g_cycle;
    top_->m_awready_i = !chance(cfg.p_aw);
    top_->m_wready_i = !chance(cfg.p_w);
    if (!rvalid && !rq.empty() && rq.front().ready <= g_cycle && !chance(cfg.p_r)) {
      Rd& r = rq.front();
      uint64_t a = r.addr + (uint64_t)r.beat * BEAT;
      rdata = 0;
      if (in_mem(a, BEAT))
        for (unsigned b = 0; b < BEAT; b++) rdata |= (uint64_t)m[a - MEM_BASE + b] << (8 * b);
      else
        rdata = 0xDEADBEEFDEADBEEFull;
      rresp = r.resp;
      rlast = (r.beat == r.len);
      rvalid = true;
    }
    if (!bvalid && !bq.empty() && bq.front().ready <= g_cycle && !chance(cfg.p_b)) {
      bresp_v = bq.front().resp;
      bvalid = true;
    }
    top_->m_rvalid_i = rvalid;
    top_->m_rdata_i = rvalid ? rdata : 0x5A5A5A5A5A5A5A5Aull;  // junk when not valid
    top_->m_rresp_i = rvalid ? rresp : 3;
    top_->m_rlast_i = rvalid ? rlast : (g_cycle & 1);
    top_->m_bvalid_i = bvalid;
    top_->m_bresp_i = bvalid ? bresp_v : 3;

    // atomic unit: one request at a time; the write lands when the response pulses
    Vce_tb_top* t = top_;
    t->aq_ready_i = !au_busy && !chance(cfg.p_aq);
    as_pulse = false;
    if (au_busy && au_due <= g_cycle) {
      unsigned n = (au_size == AQ_SIZE_16 || au_size == AQ_SIZE_16W) ? 16 : (au_size == AQ_SIZE_8 ? 8 : 4);
      as_err = in_err(au_addr, n) || !in_mem(au_addr, n);
      if (!as_err) {
        uint64_t o = au_addr - MEM_BASE;
        uint64_t v = au_wdata;
        if (au_op == AQ_OP_RMW) {  // the copy engine's reductions are 32-bit
          uint32_t old = 0;
          for (unsigned b = 0; b < 4; b++) old |= (uint32_t)m[o + b] << (8 * b);
          v = reduce32(au_red, au_signed, old, (uint32_t)au_wdata);
        }
        if (au_size == AQ_SIZE_16W) v = (v & 0xFFFFFFFFull) | (au_wdata & ~0xFFFFFFFFull);  // word 1: wdata[63:32]
        for (unsigned b = 0; b < (n == 4 ? 4u : 8u); b++) m[o + b] = (uint8_t)(v >> (8 * b));
        if (n == 16) {
          au_ts = g_cycle;
          for (unsigned b = 0; b < 8; b++) m[o + 8 + b] = (uint8_t)(au_ts >> (8 * b));
        }
      }
      as_pulse = true;
      n_as++;
    }
    t->as_valid_i = as_pulse;
    t->as_err_i = as_pulse ? as_err : (g_cycle & 1);       // junk when not valid
    t->as_rdata_i = 0xA5A5A5A5A5A5A5A5ull ^ g_cycle;       // a WRITE returns no data
  }

  // ---- handshakes of this cycle (called after eval, before the clock edge)
  bool ar_hs = false, r_hs = false, aw_hs = false, w_hs = false, b_hs = false;
  uint64_t ar_addr = 0, aw_addr = 0, w_data = 0;
  unsigned ar_len = 0, aw_len = 0, w_strb = 0;
  bool w_last = false;
  bool ar_pend = false, aw_pend = false, w_pend = false;  // valid & !ready last cycle
  uint64_t p_araddr = 0, p_awaddr = 0, p_wdata = 0;
  unsigned p_arlen = 0, p_awlen = 0, p_wstrb = 0;
  bool p_wlast = false;

  void sample() {
    Vce_tb_top* t = top_;
    // rd_out_o must count the read bursts in flight
    if (t->rd_out_o != rq.size()) violation("rd_out_o %u but %zu read bursts in flight", t->rd_out_o, rq.size());
    if (t->rd_out_o > RD_OUT_MAX) violation("rd_out_o %u > RD_OUT_MAX", t->rd_out_o);
    // stability of valid/payload while not ready
    if (ar_pend && (!t->m_arvalid_o || t->m_araddr_o != p_araddr || t->m_arlen_o != p_arlen))
      violation("AR valid/payload changed before arready");
    if (aw_pend && (!t->m_awvalid_o || t->m_awaddr_o != p_awaddr || t->m_awlen_o != p_awlen))
      violation("AW valid/payload changed before awready");
    if (w_pend && (!t->m_wvalid_o || t->m_wdata_o != p_wdata || t->m_wstrb_o != p_wstrb || t->m_wlast_o != p_wlast))
      violation("W valid/payload changed before wready");
    ar_pend = t->m_arvalid_o && !t->m_arready_i;
    p_araddr = t->m_araddr_o; p_arlen = t->m_arlen_o;
    aw_pend = t->m_awvalid_o && !t->m_awready_i;
    p_awaddr = t->m_awaddr_o; p_awlen = t->m_awlen_o;
    w_pend = t->m_wvalid_o && !t->m_wready_i;
    p_wdata = t->m_wdata_o; p_wstrb = t->m_wstrb_o; p_wlast = t->m_wlast_o;

    if (t->m_wvalid_o && wq.empty()) violation("wvalid with no accepted AW waiting for data");

    // atomic-unit request: valid and payload held until aq_ready_i
    if (aq_pend && (!t->aq_valid_o || t->aq_addr_o != p_aqaddr || t->aq_wdata_o != p_aqwdata ||
                    t->aq_op_o != p_aqop || t->aq_size_o != p_aqsize || t->aq_red_o != p_aqred ||
                    t->aq_signed_o != p_aqsigned))
      violation("aq valid/payload changed before aq_ready_i");
    aq_pend = t->aq_valid_o && !t->aq_ready_i;
    p_aqaddr = t->aq_addr_o; p_aqwdata = t->aq_wdata_o; p_aqop = t->aq_op_o; p_aqsize = t->aq_size_o;
    p_aqred = t->aq_red_o; p_aqsigned = t->aq_signed_o;
    aq_hs = t->aq_valid_o && t->aq_ready_i;
    if (aq_hs) {
      if (!sem_expected) violation("release request to the atomic unit, but the command asked for none");
      if (n_aq) violation("second release request for one command");
      unsigned eop = sem_reduce ? AQ_OP_RMW : AQ_OP_WRITE;
      if (t->aq_op_o != eop) violation("release op %u, expected %u", t->aq_op_o, eop);
      if (sem_reduce && (t->aq_red_o != sem_red || (bool)t->aq_signed_o != sem_signed))
        violation("reduction %u signed %u, expected %u signed %u", t->aq_red_o, t->aq_signed_o, sem_red, sem_signed);
      if (t->aq_size_o != sem_size) violation("release size %u, expected %u", t->aq_size_o, sem_size);
      if (t->aq_addr_o != sem_addr) violation("release address 0x%010" PRIx64 ", expected 0x%010" PRIx64, (uint64_t)t->aq_addr_o, sem_addr);
      if ((uint32_t)t->aq_wdata_o != sem_payload) violation("release payload 0x%08x, expected 0x%08x", (uint32_t)t->aq_wdata_o, sem_payload);
      uint32_t hi = t->aq_size_o == AQ_SIZE_4 ? 0 : sem_start;
      if ((t->aq_wdata_o >> 32) != hi)
        violation("release wdata[63:32] 0x%08x, expected 0x%08x (0, or the start stamp of a four-word release)",
                  (uint32_t)(t->aq_wdata_o >> 32), hi);
      if (!rq.empty() || !wq.empty() || !bq.empty() || rvalid || bvalid)
        violation("release request while data transactions are outstanding (R %zu, W %zu, B %zu%s)", rq.size(),
                  wq.size(), bq.size(), bvalid ? " + B valid" : "");
    }

    ar_hs = t->m_arvalid_o && t->m_arready_i;
    ar_addr = t->m_araddr_o; ar_len = t->m_arlen_o;
    aw_hs = t->m_awvalid_o && t->m_awready_i;
    aw_addr = t->m_awaddr_o; aw_len = t->m_awlen_o;
    w_hs = t->m_wvalid_o && t->m_wready_i;
    w_data = t->m_wdata_o; w_strb = t->m_wstrb_o; w_last = t->m_wlast_o;
    r_hs = rvalid && t->m_rready_o;
    b_hs = bvalid && t->m_bready_o;
  }

  // ---- state update at the clock edge
  void update() {
    if (r_hs) {
      Rd& r = rq.front();
      if (++r.beat > r.len) rq.pop_front();
      rvalid = false;
    }
    if (b_hs) {
      bq.pop_front();
      bvalid = false;
      last_b_cycle = g_cycle;
    }
    if (as_pulse) au_busy = false;
    if (aq_hs) {
      n_aq++;
      au_busy = true;
      au_due = g_cycle + (cfg.as_lat ? cfg.as_lat : 1);
      au_addr = top_->aq_addr_o;
      au_wdata = top_->aq_wdata_o;
      au_size = top_->aq_size_o;
      au_op = top_->aq_op_o;
      au_red = top_->aq_red_o;
      au_signed = top_->aq_signed_o;
    }
    if (w_hs && !wq.empty()) {
      Wr& w = wq.front();
      uint64_t a = w.addr + (uint64_t)w.beat * BEAT;
      if (w.resp == RESP_OKAY)
        for (unsigned b = 0; b < BEAT; b++)
          if (w_strb >> b & 1) m[a - MEM_BASE + b] = (uint8_t)(w_data >> (8 * b));
      bool last = (w.beat == w.len);
      if (w_last != last) violation("wlast %d on beat %u of a %u-beat burst at 0x%010" PRIx64, w_last, w.beat, w.len + 1, w.addr);
      w.beat++;
      if (w_last || w.beat > w.len) {
        bq.push_back({g_cycle + cfg.b_lat, w.resp});
        wq.pop_front();
      }
    }
    if (ar_hs) {
      check_burst(ar_addr, ar_len, "AR");
      n_ar++;
      rq.push_back({ar_addr, ar_len, g_cycle + (cfg.rd_lat ? cfg.rd_lat : 1), 0, burst_resp(ar_addr, ar_len, "read")});
      if (rq.size() > max_rd_out) max_rd_out = (unsigned)rq.size();
    }
    if (aw_hs) {
      check_burst(aw_addr, aw_len, "AW");
      n_aw++;
      wq.push_back({aw_addr, aw_len, 0, burst_resp(aw_addr, aw_len, "write")});
    }
  }
};

std::unique_ptr<gctb::Harness<Vce_tb_top>> g_h;   // the shared bench harness (cosim/harness.h)
Vce_tb_top* g_top = nullptr;
std::unique_ptr<CliMem> g_mem;

struct Tick { bool cmd_hs, done, done_err, intr; unsigned state; };
Tick g_tick;   // the last cycle's outputs

// The harness's hooks: the memory model drives with the clock low, samples before the edge (with
// the engine's outputs of this cycle), and acts after it.
void hook_pre_edge() {
  Vce_tb_top* t = g_top;
  g_mem->sample();
  g_tick = Tick{t->cmd_valid_i && t->cmd_ready_o, (bool)t->done_o, (bool)t->done_err_o, (bool)t->intr_o, t->state_o};
  if (!t->done_o && (t->done_err_o || t->intr_o)) g_mem->violation("done_err_o/intr_o without done_o");
  if (t->cmd_ready_o != (t->state_o == GC_CE_STATE_IDLE)) g_mem->violation("cmd_ready_o %d in state %u", t->cmd_ready_o, t->state_o);
}

Tick tick() {
  g_h->tick();
  return g_tick;
}

struct Cmd {
  uint64_t src = 0, dst = 0;
  uint32_t len = 0, count = 1, pin = 0, pout = 0;
  bool copy = true, sem = false, intr = false;
  bool remap = false;      // memset: len counts elements
  uint32_t ca = 0, cb = 0, comps = 0;  // SET_REMAP_CONST_A / _B / SET_REMAP_COMPONENTS
  bool four = false;       // RELEASE_FOUR_WORD_SEMAPHORE (16-byte aligned sem_addr)
  bool reduce = false;     // SEMAPHORE_REDUCTION_ENABLE: the release reduces with the payload
  unsigned red = 0;        // SEMAPHORE_REDUCTION
  bool sgn = false;        // SEMAPHORE_REDUCTION_SIGN SIGNED
  uint64_t sem_addr = 0;
  uint32_t payload = 0;
  uint8_t ch = 0;
};

// memset element shape
unsigned comp_size(const Cmd& c) { return GC_COPY_SET_REMAP_COMPONENTS_COMPONENT_SIZE_GET(c.comps) + 1; }
unsigned num_comps(const Cmd& c) { return GC_COPY_SET_REMAP_COMPONENTS_NUM_DST_COMPONENTS_GET(c.comps) + 1; }
unsigned elem_bytes(const Cmd& c) { return comp_size(c) * num_comps(c); }
unsigned comp_sel(const Cmd& c, unsigned k) { return (c.comps >> (GC_COPY_SET_REMAP_COMPONENTS_DST_Y_SHIFT * k)) & 7u; }
// bytes of one destination line
uint64_t line_bytes(const Cmd& c) { return c.remap ? (uint64_t)c.len * elem_bytes(c) : c.len; }
bool moves_data(const Cmd& c) { return c.copy && c.len && c.count; }
// expected value of byte j of a memset line; false: NO_WRITE (byte untouched)
bool memset_byte(const Cmd& c, uint64_t j, uint8_t* v) {
  unsigned e = (unsigned)(j % elem_bytes(c)), k = e / comp_size(c), b = e % comp_size(c);
  unsigned sel = comp_sel(c, k);
  if (sel == GC_COPY_SET_REMAP_COMPONENTS_DST_X_CONST_A) { *v = (uint8_t)(c.ca >> (8 * b)); return true; }
  if (sel == GC_COPY_SET_REMAP_COMPONENTS_DST_X_CONST_B) { *v = (uint8_t)(c.cb >> (8 * b)); return true; }
  return false;
}
// data bytes the command writes (bytes_o)
uint64_t written_bytes(const Cmd& c) {
  if (!moves_data(c)) return 0;
  if (!c.remap) return (uint64_t)c.len * c.count;
  unsigned per = 0;
  for (unsigned k = 0; k < num_comps(c); k++) {
    unsigned sel = comp_sel(c, k);
    if (sel == GC_COPY_SET_REMAP_COMPONENTS_DST_X_CONST_A || sel == GC_COPY_SET_REMAP_COMPONENTS_DST_X_CONST_B)
      per += comp_size(c);
  }
  return (uint64_t)per * c.len * c.count;
}

struct Result {
  bool done = false, err = false, intr = false, timeout = false;
  uint64_t start = 0, end = 0;  // cycle of the command handshake, cycle of done_o
  uint64_t cycles = 0;     // cycle after the command handshake .. done cycle, inclusive
  uint32_t bytes = 0;      // bytes_o delta
  uint32_t busy = 0;       // busy_cycles_o delta
  uint64_t not_idle = 0;   // cycles the bench saw state_o != IDLE
  std::vector<std::string> problems;
};

void junk_cmd_inputs() {
  Vce_tb_top* t = g_top;
  t->cmd_ch_i = rnd(256);
  t->cmd_src_i = g_rng() & 0xFFFFFFFFFFull;
  t->cmd_dst_i = g_rng() & 0xFFFFFFFFFFull;
  t->cmd_line_len_i = g_rng();
  t->cmd_line_count_i = g_rng();
  t->cmd_pitch_in_i = g_rng();
  t->cmd_pitch_out_i = g_rng();
  t->cmd_copy_i = rnd(2);
  t->cmd_sem_i = rnd(2);
  t->cmd_remap_i = rnd(2);
  t->cmd_const_a_i = g_rng();
  t->cmd_const_b_i = g_rng();
  t->cmd_components_i = g_rng();
  t->cmd_sem_four_i = rnd(2);
  t->cmd_sem_addr_i = g_rng() & 0xFFFFFFFFFFull;
  t->cmd_sem_payload_i = g_rng();
  t->cmd_sem_reduce_i = rnd(2);
  t->cmd_sem_red_i = rnd(16);
  t->cmd_sem_signed_i = rnd(2);
  t->cmd_intr_i = rnd(2);
}

Result run_cmd(const Cmd& c, uint64_t timeout = 400000) {
  Vce_tb_top* t = g_top;
  Result res;
  g_mem->viol.clear();
  g_mem->n_ar = g_mem->n_aw = g_mem->n_aq = g_mem->n_as = 0;
  g_mem->last_b_cycle = 0;
  g_mem->sem_expected = c.sem;
  g_mem->sem_addr = c.sem_addr;
  g_mem->sem_size = c.four ? AQ_SIZE_16W : AQ_SIZE_4;
  g_mem->sem_payload = c.payload;
  g_mem->sem_reduce = c.reduce;
  g_mem->sem_red = c.red;
  g_mem->sem_signed = c.sgn;
  uint32_t bytes0 = t->bytes_o, busy0 = t->busy_cycles_o;
  // a few idle cycles with junk on the command bus (cmd_valid low)
  unsigned gap = (unsigned)rnd(4);
  for (unsigned i = 0; i < gap; i++) {
    t->cmd_valid_i = 0;
    junk_cmd_inputs();
    tick();
  }
  t->cmd_valid_i = 1;
  t->cmd_ch_i = c.ch;
  t->cmd_src_i = c.src;
  t->cmd_dst_i = c.dst;
  t->cmd_line_len_i = c.len;
  t->cmd_line_count_i = c.count;
  t->cmd_pitch_in_i = c.pin;
  t->cmd_pitch_out_i = c.pout;
  t->cmd_copy_i = c.copy;
  t->cmd_remap_i = c.remap;
  t->cmd_const_a_i = c.ca;
  t->cmd_const_b_i = c.cb;
  t->cmd_components_i = c.comps;
  t->cmd_sem_i = c.sem;
  t->cmd_sem_four_i = c.four;
  t->cmd_sem_addr_i = c.sem_addr;
  t->cmd_sem_payload_i = c.payload;
  t->cmd_sem_reduce_i = c.reduce;
  t->cmd_sem_red_i = c.red;
  t->cmd_sem_signed_i = c.sgn;
  t->cmd_intr_i = c.intr;
  uint64_t n = 0;
  for (;;) {
    res.start = g_cycle;
    if (tick().cmd_hs) break;
    if (++n > 100) { res.timeout = true; res.problems.push_back("cmd_ready_o never came"); return res; }
  }
  t->cmd_valid_i = 0;
  g_mem->sem_start = (uint32_t)res.start;
  junk_cmd_inputs();  // the engine must have latched everything
  uint64_t start = g_cycle;
  for (;;) {
    if (g_cycle - start > timeout) {
      res.timeout = true;
      char b[200];
      snprintf(b, sizeof b, "timeout: no done_o after %" PRIu64 " cycles (state %u, rd_out %u)", timeout, t->state_o, t->rd_out_o);
      res.problems.push_back(b);
      return res;
    }
    if (t->ch_o != c.ch) g_mem->violation("ch_o %u, expected %u", t->ch_o, c.ch);
    Tick k = tick();
    if (k.state != GC_CE_STATE_IDLE) res.not_idle++;
    if (k.done) {
      res.done = true;
      res.err = k.done_err;
      res.intr = k.intr;
      res.cycles = g_cycle - start;
      res.end = g_cycle - 1;
      if (k.state != GC_CE_STATE_DONE) g_mem->violation("done_o in state %u", k.state);
      if (!g_mem->idle()) g_mem->violation("done_o with transactions outstanding (R %zu, W %zu, B %zu)", g_mem->rq.size(), g_mem->wq.size(), g_mem->bq.size());
      if (!g_mem->au_idle() || g_mem->n_as != g_mem->n_aq)
        g_mem->violation("done_o before the atomic unit answered the release (%" PRIu64 " requests, %" PRIu64 " responses)",
                         g_mem->n_aq, g_mem->n_as);
      break;
    }
  }
  // after done: back to IDLE, no second pulse, no bus activity
  for (int i = 0; i < 3; i++) {
    Tick k = tick();
    if (k.done) g_mem->violation("second done_o pulse");
    if (k.state != GC_CE_STATE_IDLE) g_mem->violation("state %u after done, expected IDLE", k.state);
    if (!g_mem->idle() || t->m_arvalid_o || t->m_awvalid_o || t->m_wvalid_o || t->aq_valid_o || !g_mem->au_idle())
      g_mem->violation("bus activity after done_o");
  }
  res.bytes = t->bytes_o - bytes0;
  res.busy = t->busy_cycles_o - busy0;
  if (c.sem && !res.err && g_mem->n_aq != 1) g_mem->violation("%" PRIu64 " release requests, expected 1", g_mem->n_aq);
  if (c.remap && g_mem->n_ar) g_mem->violation("memset issued %" PRIu64 " read bursts", g_mem->n_ar);
  for (auto& v : g_mem->viol) res.problems.push_back("AXI/protocol: " + v);
  return res;
}

void reset_dut() {
  Vce_tb_top* t = g_top;
  t->rst_ni = 0;
  t->cmd_valid_i = 0;
  junk_cmd_inputs();
  for (int i = 0; i < 5; i++) tick();
  t->rst_ni = 1;
  for (int i = 0; i < 2; i++) tick();
}

// ------------------------------------------------------------------ checking
int g_pass = 0, g_fail = 0;

void check(bool ok, const std::string& name, const std::vector<std::string>& why = {}) {
  if (ok) {
    g_pass++;
    return;
  }
  g_fail++;
  printf("FAIL: %s\n", name.c_str());
  for (auto& w : why) printf("    %s\n", w.c_str());
  fflush(stdout);
}

std::vector<uint8_t> g_shadow;  // expected memory contents

void fill_random(uint64_t off, uint64_t n) {
  for (uint64_t i = 0; i < n; i++) {
    uint8_t v = (uint8_t)g_rng();
    g_mem->m[off + i] = v;
    g_shadow[off + i] = v;
  }
}

uint64_t copy_extent(uint32_t len, uint32_t count, uint32_t pitch) {
  if (!len || !count) return 0;
  return (uint64_t)(count - 1) * pitch + len;
}

// Where a byte of memory sits relative to the copy, for messages.
std::string where(const Cmd& c, uint64_t off) {
  uint64_t a = MEM_BASE + off;
  char b[200];
  if (c.sem && a >= c.sem_addr && a < c.sem_addr + (c.four ? 16 : 4)) {
    snprintf(b, sizeof b, "semaphore byte %" PRIu64, a - c.sem_addr);
    return b;
  }
  uint64_t lb = line_bytes(c);
  if (moves_data(c) && a >= c.dst) {
    uint64_t rel = a - c.dst;
    uint64_t k = c.pout ? rel / c.pout : 0;
    if (k >= c.count) k = c.count - 1;
    uint64_t j = rel - k * c.pout;
    if (j < lb) {
      uint8_t v;
      if (c.remap)
        snprintf(b, sizeof b, "dst line %" PRIu64 " byte %" PRIu64 " = element %" PRIu64 " byte %" PRIu64 "%s", k, j,
                 j / elem_bytes(c), j % elem_bytes(c), memset_byte(c, j, &v) ? "" : " (NO_WRITE)");
      else
        snprintf(b, sizeof b, "dst line %" PRIu64 " byte %" PRIu64, k, j);
      return b;
    }
    if (j - lb < 256) {
      snprintf(b, sizeof b, "guard: %" PRIu64 " bytes after dst line %" PRIu64, j - lb + 1, k);
      return b;
    }
  }
  if (moves_data(c) && a < c.dst && a + 256 >= c.dst) {
    snprintf(b, sizeof b, "guard: %" PRIu64 " bytes before dst line 0", c.dst - a);
    return b;
  }
  return "outside the copy";
}

// Compare memory with the shadow; lenient_dst: destination bytes may hold old or new data.
std::vector<std::string> compare_mem(const Cmd& c, int copy_no, const std::vector<uint8_t>* old_dst = nullptr) {
  std::vector<std::string> out;
  if (old_dst) {
    // after a bus error: each destination byte is either untouched or correctly copied
    for (uint32_t k = 0; k < c.count; k++)
      for (uint64_t j = 0; j < line_bytes(c); j++) {
        uint64_t off = c.dst - MEM_BASE + (uint64_t)k * c.pout + j;
        uint8_t got = g_mem->m[off];
        if (got != g_shadow[off] && got != (*old_dst)[off]) {
          if (out.size() < 8) {
            char b[300];
            snprintf(b, sizeof b, "copy %d: addr 0x%010" PRIx64 " (%s): expected 0x%02x (or old 0x%02x), got 0x%02x",
                     copy_no, MEM_BASE + off, where(c, off).c_str(), g_shadow[off], (*old_dst)[off], got);
            out.push_back(b);
          }
        }
        g_shadow[off] = got;
      }
  }
  if (memcmp(g_mem->m.data(), g_shadow.data(), MEM_SIZE) == 0) return out;
  uint64_t nbad = 0;
  for (uint64_t off = 0; off < MEM_SIZE; off++) {
    if (g_mem->m[off] == g_shadow[off]) continue;
    if (++nbad <= 8) {
      char b[300];
      snprintf(b, sizeof b, "copy %d: addr 0x%010" PRIx64 " (%s): expected 0x%02x, got 0x%02x", copy_no,
               MEM_BASE + off, where(c, off).c_str(), g_shadow[off], g_mem->m[off]);
      out.push_back(b);
    }
    g_shadow[off] = g_mem->m[off];  // resync so one failure does not cascade
  }
  char b[100];
  snprintf(b, sizeof b, "copy %d: %" PRIu64 " bytes differ in total", copy_no, nbad);
  out.push_back(b);
  return out;
}

std::string describe(const Cmd& c) {
  char b[600];
  int n = snprintf(b, sizeof b,
           "src 0x%010" PRIx64 " dst 0x%010" PRIx64 " len %u count %u pitch_in %u pitch_out %u copy %d sem %d%s "
           "(0x%010" PRIx64 ") intr %d ch %u",
           c.src, c.dst, c.len, c.count, c.pin, c.pout, c.copy, c.sem, c.sem && c.four ? " four-word" : "", c.sem_addr, c.intr, c.ch);
  if (c.sem && c.reduce)
    n += snprintf(b + n, sizeof b - n, " reduction %u %s payload 0x%08x", c.red, c.sgn ? "signed" : "unsigned", c.payload);
  if (c.remap)
    snprintf(b + n, sizeof b - n, " REMAP components 0x%08x (%u x %u bytes, X %u Y %u Z %u W %u) A 0x%08x B 0x%08x",
             c.comps, num_comps(c), comp_size(c), comp_sel(c, 0), comp_sel(c, 1), comp_sel(c, 2), comp_sel(c, 3), c.ca, c.cb);
  return b;
}

std::string describe(const MemCfg& m) {
  char b[200];
  snprintf(b, sizeof b, "rd_lat %u b_lat %u stall ar %.2f aw %.2f w %.2f r %.2f b %.2f aq %.2f, as_lat %u", m.rd_lat,
           m.b_lat, m.p_ar, m.p_aw, m.p_w, m.p_r, m.p_b, m.p_aq, m.as_lat);
  return b;
}

// Prepare memory for a command, run it, apply the expected effect to the shadow, compare.
// expect_err: the command must end with done_err_o (then the destination may be partly written
// and the release must not have been written).
bool do_copy(const Cmd& c, int copy_no, const char* tag, bool expect_err = false, Result* out = nullptr) {
  uint64_t ext_in = c.remap ? 0 : copy_extent(c.len, c.count, c.pin);
  uint64_t ext_out = copy_extent((uint32_t)std::min<uint64_t>(line_bytes(c), 0xFFFFFFFFu), c.count, c.pout);
  bool src_ok = c.src >= MEM_BASE && c.src + ext_in <= MEM_BASE + MEM_SIZE;
  if (ext_in && src_ok) fill_random(c.src - MEM_BASE, ext_in);
  if (c.dst >= MEM_BASE && c.dst + ext_out + 64 <= MEM_BASE + MEM_SIZE && c.dst >= MEM_BASE + 64)
    fill_random(c.dst - MEM_BASE - 64, ext_out + 128);
  if (c.sem) fill_random((c.sem_addr & ~7ull) - MEM_BASE, 24);
  std::vector<uint8_t> before;
  if (expect_err) before = g_shadow;
  // expected data effect (after an error: what the bytes hold if they were written)
  if (moves_data(c) && (!expect_err || c.remap || src_ok)) {
    uint64_t lb = line_bytes(c);
    for (uint32_t k = 0; k < c.count; k++)
      for (uint64_t j = 0; j < lb; j++) {
        uint64_t d = c.dst - MEM_BASE + (uint64_t)k * c.pout + j;
        if (c.remap) {
          uint8_t v;
          if (memset_byte(c, j, &v)) g_shadow[d] = v;
        } else {
          g_shadow[d] = g_shadow[c.src - MEM_BASE + (uint64_t)k * c.pin + j];
        }
      }
  }

  Result r = run_cmd(c);
  if (out) *out = r;
  std::vector<std::string> why = r.problems;
  // the release: payload, (four words) the start stamp and the atomic unit's timestamp
  if (c.sem && !expect_err && r.done && g_mem->n_as == 1) {
    uint64_t o = c.sem_addr - MEM_BASE;
    uint32_t v = c.payload, old = 0;
    for (int i = 0; i < 4; i++) old |= (uint32_t)g_shadow[o + i] << (8 * i);
    if (c.reduce) v = reduce32(c.red, c.sgn, old, c.payload);
    for (int i = 0; i < 4; i++) g_shadow[o + i] = (uint8_t)(v >> (8 * i));
    if (c.four) {
      for (int i = 4; i < 8; i++) g_shadow[o + i] = (uint8_t)((uint32_t)r.start >> (8 * (i - 4)));  // start stamp
      uint64_t ts = 0;
      for (int i = 0; i < 8; i++) ts |= (uint64_t)g_mem->m[o + 8 + i] << (8 * i);
      for (int i = 0; i < 8; i++) g_shadow[o + 8 + i] = (uint8_t)(ts >> (8 * i));  // compared below
      char b[300];
      if (ts != g_mem->au_ts || ts < r.start || ts > r.end ||
          (g_mem->n_aw && ts <= g_mem->last_b_cycle)) {
        snprintf(b, sizeof b,
                 "four-word release timestamp %" PRIu64 " (atomic unit wrote %" PRIu64 ") not within the run: command "
                 "accepted in cycle %" PRIu64 ", last data B in %" PRIu64 ", done_o in %" PRIu64,
                 ts, g_mem->au_ts, r.start, g_mem->last_b_cycle, r.end);
        why.push_back(b);
      }
    }
  }
  uint64_t wrote = written_bytes(c);
  if (r.done) {
    if (r.err != expect_err) why.push_back(std::string("done_err_o ") + (r.err ? "1" : "0") + ", expected " + (expect_err ? "1" : "0"));
    if (r.intr != c.intr) why.push_back(std::string("intr_o ") + (r.intr ? "1" : "0") + " with done_o, expected " + (c.intr ? "1" : "0"));
    if (!expect_err && r.bytes != (uint32_t)wrote) why.push_back("bytes_o advanced by " + std::to_string(r.bytes) + ", expected " + std::to_string((uint32_t)wrote));
    if (r.busy != (uint32_t)r.not_idle) why.push_back("busy_cycles_o advanced by " + std::to_string(r.busy) + ", bench counted " + std::to_string(r.not_idle) + " non-IDLE cycles");
    if (!moves_data(c) && (g_mem->n_ar != 0 || g_mem->n_aw != 0 || g_mem->n_aq != (c.sem ? 1u : 0u)))
      why.push_back("no-data command issued " + std::to_string(g_mem->n_ar) + " reads, " +
                    std::to_string(g_mem->n_aw) + " writes and " + std::to_string(g_mem->n_aq) + " releases");
  }
  if (!r.timeout) {
    auto diff = compare_mem(c, copy_no, expect_err && moves_data(c) && c.dst >= MEM_BASE ? &before : nullptr);
    why.insert(why.end(), diff.begin(), diff.end());
  }
  bool ok = why.empty();
  if (!ok) {
    why.insert(why.begin(), std::string("memory: ") + describe(g_mem->cfg));
    why.insert(why.begin(), std::string("command: ") + describe(c));
  }
  check(ok, std::string(tag) + (c.remap ? " memset " : " copy ") + std::to_string(copy_no), why);
  if (r.timeout) {
    printf("DUT hung; giving up\n");
    printf("%d passed, %d failed\n", g_pass, g_fail + 1);
    exit(1);
  }
  return ok;
}

MemCfg random_cfg() {
  static const double ps[] = {0, 0, 0, 0.05, 0.2, 0.5, 0.8};
  MemCfg m;
  m.rd_lat = 1 + (unsigned)rnd(100);
  m.b_lat = (unsigned)rnd(30);
  m.as_lat = 1 + (unsigned)rnd(12);
  unsigned mode = (unsigned)rnd(4);
  if (mode == 0) return m;  // no stalls
  m.p_aq = ps[rnd(7)];
  m.p_ar = ps[rnd(7)];
  m.p_aw = ps[rnd(7)];
  m.p_w = ps[rnd(7)];
  m.p_r = ps[rnd(7)];
  m.p_b = ps[rnd(7)];
  return m;
}

uint32_t random_len() {
  unsigned r = (unsigned)rnd(100);
  uint32_t len;
  if (r < 4) len = 0;
  else if (r < 30) len = 1 + (uint32_t)rnd(16);
  else if (r < 55) len = 1 + (uint32_t)rnd(200);
  else if (r < 75) len = 1 + (uint32_t)rnd(1024);
  else len = (uint32_t)rnd(5001);
  if (len && rnd(3) == 0) len |= 1;  // odd
  return len;
}

uint64_t place(uint64_t region_off, uint64_t span, uint64_t extent) {
  uint64_t room = span - extent - 512;
  uint64_t off;
  if (rnd(4) == 0) {  // just below a 4 KiB boundary
    uint64_t page = 1 + rnd(room / 4096 - 1);
    off = page * 4096 - 1 - rnd(40);
  } else {
    off = 256 + rnd(room);
  }
  return MEM_BASE + region_off + off;
}

// one- or four-word release at a random (aligned) address of the semaphore region
void random_sem(Cmd& c) {
  c.four = rnd(2);
  c.sem_addr = MEM_BASE + SEM_OFF + (c.four ? 16 * rnd((SEM_SPAN - 32) / 16) : 4 * rnd((SEM_SPAN - 32) / 4));
  c.payload = (uint32_t)g_rng();
}

// random SET_REMAP_COMPONENTS word: shape, and per component CONST_A / CONST_B / NO_WRITE
// (p_nw: probability of NO_WRITE); the unused fields get random junk
uint32_t random_components(double p_nw, unsigned size = 0, unsigned ncomp = 0) {
  if (!size) size = 1 + (unsigned)rnd(4);
  if (!ncomp) ncomp = 1 + (unsigned)rnd(4);
  uint32_t w = 0;
  for (unsigned k = 0; k < 4; k++) {
    unsigned sel = chance(p_nw) ? GC_COPY_SET_REMAP_COMPONENTS_DST_X_NO_WRITE
                                : (rnd(2) ? GC_COPY_SET_REMAP_COMPONENTS_DST_X_CONST_A : GC_COPY_SET_REMAP_COMPONENTS_DST_X_CONST_B);
    if (k >= ncomp) sel = (unsigned)rnd(8);  // components past NUM_DST_COMPONENTS do not matter
    w |= sel << (GC_COPY_SET_REMAP_COMPONENTS_DST_Y_SHIFT * k);
    w |= (uint32_t)rnd(2) << (GC_COPY_SET_REMAP_COMPONENTS_DST_Y_SHIFT * k + 3);  // unnamed bit
  }
  w |= GC_COPY_SET_REMAP_COMPONENTS_COMPONENT_SIZE(size - 1);
  w |= GC_COPY_SET_REMAP_COMPONENTS_NUM_DST_COMPONENTS(ncomp - 1);
  w |= GC_COPY_SET_REMAP_COMPONENTS_NUM_SRC_COMPONENTS(rnd(4));
  w |= (uint32_t)rnd(4) << 18 | (uint32_t)rnd(64) << 26;  // bits no field names
  return w;
}

Cmd random_memset() {
  Cmd c;
  c.remap = true;
  c.copy = rnd(30) != 0;
  c.comps = random_components(rnd(3) == 0 ? 0.0 : 0.3);
  c.ca = (uint32_t)g_rng();
  c.cb = (uint32_t)g_rng();
  unsigned r = (unsigned)rnd(100);
  uint32_t bytes = r < 3 ? 0 : (r < 30 ? 1 + (uint32_t)rnd(40) : (r < 60 ? 1 + (uint32_t)rnd(400) : (uint32_t)rnd(6001)));
  c.len = bytes / elem_bytes(c) + (bytes && rnd(2));
  r = (unsigned)rnd(100);
  c.count = r < 3 ? 0 : (r < 50 ? 1 : 1 + (uint32_t)rnd(8));
  uint64_t lb = line_bytes(c);
  c.pout = (uint32_t)lb + (rnd(3) == 0 ? 0 : (uint32_t)rnd(300));
  c.pin = (uint32_t)g_rng();  // not used by a memset
  c.src = g_rng() & 0xFFFFFFFFFFull;
  c.dst = place(DST_OFF, DST_SPAN, copy_extent((uint32_t)lb, c.count, c.pout));
  c.sem = rnd(2);
  random_sem(c);
  c.intr = rnd(2);
  c.ch = (uint8_t)rnd(GC_NUM_CHANNELS);
  return c;
}

Cmd random_cmd() {
  Cmd c;
  c.len = random_len();
  unsigned r = (unsigned)rnd(100);
  c.count = r < 3 ? 0 : (r < 50 ? 1 : 1 + (uint32_t)rnd(8));
  c.pin = c.len + (rnd(3) == 0 ? 0 : (uint32_t)rnd(300));
  c.pout = c.len + (rnd(3) == 0 ? 0 : (uint32_t)rnd(300));
  c.copy = rnd(20) != 0;
  c.src = place(SRC_OFF, SRC_SPAN, copy_extent(c.len, c.count, c.pin));
  c.dst = place(DST_OFF, DST_SPAN, copy_extent(c.len, c.count, c.pout));
  c.sem = rnd(2);
  random_sem(c);
  c.intr = rnd(2);
  c.ch = (uint8_t)rnd(GC_NUM_CHANNELS);
  return c;
}

}  // namespace

int main(int argc, char** argv) {
  uint64_t seed = 1;
  int copies = 400, memsets = 300;
  for (int i = 1; i < argc; i++) {
    const char* a = argv[i];
    if (!strncmp(a, "+seed=", 6)) seed = strtoull(a + 6, nullptr, 0);
    else if (!strncmp(a, "+copies=", 8)) copies = atoi(a + 8);
    else if (!strncmp(a, "+memsets=", 9)) memsets = atoi(a + 9);
    else if (a[0] >= '0' && a[0] <= '9') seed = strtoull(a, nullptr, 0);
  }
  printf("ce_tb: seed %" PRIu64 " (rerun with +seed=%" PRIu64 "), %d random copies, %d random memsets\n", seed, seed,
         copies, memsets);
  g_rng.seed(seed);
  g_h = std::make_unique<gctb::Harness<Vce_tb_top>>(seed);
  g_h->cov_tag = "ce";
  g_h->ctx->commandArgs(argc, argv);
  g_top = g_h->top.get();
  g_mem = std::make_unique<CliMem>(g_top);
  g_h->drive = [] { g_mem->drive(); };
  g_h->pre_edge = hook_pre_edge;
  g_h->post_edge = [] {
    g_mem->update();
    g_cycle++;
  };
  g_shadow.assign(MEM_SIZE, 0);
  fill_random(0, MEM_SIZE);
  reset_dut();

  // ---------------------------------------------------------------- directed small cases
  {
    g_mem->cfg = MemCfg{};
    int n = 0;
    // every src/dst alignment pair with lengths 1..17 next to a 4 KiB boundary
    for (uint32_t len : {1u, 2u, 3u, 5u, 7u, 8u, 9u, 15u, 16u, 17u})
      for (unsigned sa = 0; sa < 8; sa++)
        for (unsigned da = 0; da < 8; da++) {
          Cmd c;
          c.len = len;
          c.count = 1;
          c.pin = c.pout = len;
          c.src = MEM_BASE + SRC_OFF + 0x3000 + 4096 - 8 + sa;  // may straddle the page end
          c.dst = MEM_BASE + DST_OFF + 0x5000 + 4096 - 8 + da;
          c.sem = (n % 3) == 0;
          c.four = (n % 2) == 0;
          c.sem_addr = MEM_BASE + SEM_OFF + (c.four ? 16 : 4) * (n % 64);
          c.payload = 0x11111111u * (n % 16);
          c.intr = n & 1;
          c.ch = n % 16;
          do_copy(c, n++, "directed");
        }
    // no data: cmd_copy 0, line_len 0, line_count 0, with and without the semaphore, copy and
    // memset (v >= 6), one- and four-word releases
    for (int v = 0; v < 24; v++) {
      Cmd c;
      c.len = v < 2 ? 100 : (v < 4 ? 0 : 100);
      c.count = v >= 4 ? 0 : 3;
      c.copy = v >= 2;
      c.pin = c.pout = 200;
      c.src = MEM_BASE + SRC_OFF + 0x100;
      c.dst = MEM_BASE + DST_OFF + 0x100;
      c.len = (v % 6) < 2 ? 100 : ((v % 6) < 4 ? 0 : 100);
      c.count = (v % 6) >= 4 ? 0 : 3;
      c.copy = (v % 6) >= 2;
      c.remap = (v / 6) & 1;
      c.comps = random_components(0.2);
      c.ca = 0x11223344u;
      c.cb = 0x55667788u;
      c.sem = v & 1;
      c.four = v >= 12;
      c.sem_addr = MEM_BASE + SEM_OFF + (c.four ? 0x40 : 0x44);
      c.payload = 0xCAFEF00Du + v;
      c.intr = !(v & 1);
      do_copy(c, n++, "no-data");
    }
    printf("directed: %d copies done\n", n);
  }

  // ---------------------------------------------------------------- (a) random copies
  {
    uint64_t total = 0;
    int n_done = 0;
    for (int i = 0; i < copies; i++) {
      g_mem->cfg = random_cfg();
      Cmd c = random_cmd();
      do_copy(c, i, "random");
      n_done++;
      if (c.copy) total += (uint64_t)c.len * c.count;
      if (g_fail > 20) break;
    }
    printf("random: %d copies checked, %" PRIu64 " bytes copied, max read bursts in flight %u\n", n_done, total,
           g_mem->max_rd_out);
  }

  // ---------------------------------------------------------------- (m) memsets
  {
    // every element shape at every dst alignment, no stalls then stalls
    int n = 0;
    for (unsigned size = 1; size <= 4; size++)
      for (unsigned nc = 1; nc <= 4; nc++)
        for (unsigned da = 0; da < 8; da++) {
          g_mem->cfg = (n & 1) ? random_cfg() : MemCfg{};
          Cmd c;
          c.remap = true;
          c.comps = random_components(0.25, size, nc);
          c.ca = (uint32_t)g_rng();
          c.cb = (uint32_t)g_rng();
          c.len = 1 + (uint32_t)rnd(40);
          c.count = 1 + (uint32_t)rnd(3);
          c.pout = (uint32_t)line_bytes(c) + (uint32_t)rnd(20);
          c.dst = MEM_BASE + DST_OFF + 0x7000 + 4096 - 16 + da;  // straddles a page end
          c.src = 0;  // never read
          c.sem = (n % 3) == 0;
          random_sem(c);
          c.intr = n & 1;
          c.ch = n % 16;
          do_copy(c, n++, "shape");
        }
    printf("memset: %d shape x alignment memsets done\n", n);

    uint64_t total = 0, nowrite = 0;
    int n_done = 0;
    for (int i = 0; i < memsets; i++) {
      g_mem->cfg = random_cfg();
      Cmd c = random_memset();
      do_copy(c, i, "random");
      n_done++;
      if (moves_data(c)) {
        total += line_bytes(c) * c.count;
        nowrite += line_bytes(c) * c.count - written_bytes(c);
      }
      if (g_fail > 20) break;
    }
    printf("memset: %d random memsets checked, %" PRIu64 " bytes covered (%" PRIu64 " of them NO_WRITE)\n", n_done,
           total, nowrite);
  }

  // ---------------------------------------------------------------- (r) releases
  {
    // one- and four-word releases after a copy, a memset, and with no data, with and without
    // atomic-unit stalls and long atomic-unit latencies
    int n = 0;
    for (int kind = 0; kind < 3; kind++)
      for (int four = 0; four < 2; four++)
        for (int stall = 0; stall < 3; stall++)
          for (int rep = 0; rep < 4; rep++) {
            g_mem->cfg = random_cfg();
            g_mem->cfg.p_aq = stall == 0 ? 0.0 : (stall == 1 ? 0.5 : 0.9);
            g_mem->cfg.as_lat = stall == 2 ? 20 + (unsigned)rnd(40) : 1 + (unsigned)rnd(4);
            Cmd c = kind == 1 ? random_memset() : random_cmd();
            c.copy = kind != 2;
            if (kind != 2) {
              if (!c.len) c.len = 5;
              if (!c.count) c.count = 1;
            }
            c.sem = true;
            random_sem(c);
            c.four = four;
            c.sem_addr = MEM_BASE + SEM_OFF + 0x1000 + (four ? 16 : 4) * rnd(256);
            if (kind == 0) {
              c.pin = std::max(c.pin, c.len);
              c.pout = std::max(c.pout, c.len);
              c.src = place(SRC_OFF, SRC_SPAN, copy_extent(c.len, c.count, c.pin));
              c.dst = place(DST_OFF, DST_SPAN, copy_extent(c.len, c.count, c.pout));
            } else if (kind == 1) {
              c.pout = std::max<uint32_t>(c.pout, (uint32_t)line_bytes(c));
              c.dst = place(DST_OFF, DST_SPAN, copy_extent((uint32_t)line_bytes(c), c.count, c.pout));
            }
            do_copy(c, n++, four ? "four-word release" : "one-word release");
          }
    printf("release: %d one- and four-word releases checked\n", n);

    // reduction releases: every op, signed and unsigned, one- and four-word, after a copy or
    // with no data; operands at both ends (the bench's atomic model reduces what it is asked)
    static const uint32_t edge[] = {0u, 1u, 0x7FFFFFFFu, 0x80000000u, 0xFFFFFFFFu, 0xFFFFFFFEu};
    int nr = 0;
    for (unsigned red = GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_IMIN; red <= GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_DEC; red++)
      for (int sgn = 0; sgn < 2; sgn++)
        for (int four = 0; four < 2; four++) {
          g_mem->cfg = random_cfg();
          Cmd c = random_cmd();
          c.copy = rnd(2);
          c.len = c.copy ? 1 + (uint32_t)rnd(300) : 0;
          c.count = 1;
          c.pin = c.pout = c.len;
          c.src = place(SRC_OFF, SRC_SPAN, c.len + 1);
          c.dst = place(DST_OFF, DST_SPAN, c.len + 1);
          c.remap = false;
          c.sem = true;
          c.four = four;
          c.reduce = true;
          c.red = red;
          c.sgn = sgn;
          c.payload = rnd(2) ? edge[rnd(6)] : (uint32_t)g_rng();
          c.sem_addr = MEM_BASE + SEM_OFF + 0x2000 + (four ? 16 : 4) * rnd(256);
          do_copy(c, nr++, "reduction release");
        }
    printf("release: %d reduction releases checked\n", nr);
  }

  // ---------------------------------------------------------------- (b) throughput
  {
    // memset rows: comps != 0, len counts elements (1 x 4 bytes CONST_A = a plain 32-bit memset)
    const uint32_t MS_4B = GC_COPY_SET_REMAP_COMPONENTS_DST_X(GC_COPY_SET_REMAP_COMPONENTS_DST_X_CONST_A) |
                           GC_COPY_SET_REMAP_COMPONENTS_COMPONENT_SIZE(GC_COPY_SET_REMAP_COMPONENTS_COMPONENT_SIZE_FOUR);
    const uint32_t MS_3B = GC_COPY_SET_REMAP_COMPONENTS_DST_X(GC_COPY_SET_REMAP_COMPONENTS_DST_X_CONST_A) |
                           GC_COPY_SET_REMAP_COMPONENTS_DST_Y(GC_COPY_SET_REMAP_COMPONENTS_DST_X_CONST_B) |
                           GC_COPY_SET_REMAP_COMPONENTS_DST_Z(GC_COPY_SET_REMAP_COMPONENTS_DST_X_NO_WRITE) |
                           GC_COPY_SET_REMAP_COMPONENTS_COMPONENT_SIZE(GC_COPY_SET_REMAP_COMPONENTS_COMPONENT_SIZE_ONE) |
                           GC_COPY_SET_REMAP_COMPONENTS_NUM_DST_COMPONENTS(GC_COPY_SET_REMAP_COMPONENTS_NUM_DST_COMPONENTS_THREE);
    const uint32_t MS_16B = GC_COPY_SET_REMAP_COMPONENTS_DST_X(GC_COPY_SET_REMAP_COMPONENTS_DST_X_CONST_A) |
                            GC_COPY_SET_REMAP_COMPONENTS_DST_Y(GC_COPY_SET_REMAP_COMPONENTS_DST_X_CONST_B) |
                            GC_COPY_SET_REMAP_COMPONENTS_DST_Z(GC_COPY_SET_REMAP_COMPONENTS_DST_X_CONST_B) |
                            GC_COPY_SET_REMAP_COMPONENTS_DST_W(GC_COPY_SET_REMAP_COMPONENTS_DST_X_CONST_A) |
                            GC_COPY_SET_REMAP_COMPONENTS_COMPONENT_SIZE(GC_COPY_SET_REMAP_COMPONENTS_COMPONENT_SIZE_FOUR) |
                            GC_COPY_SET_REMAP_COMPONENTS_NUM_DST_COMPONENTS(GC_COPY_SET_REMAP_COMPONENTS_NUM_DST_COMPONENTS_FOUR);
    struct P { const char* name; uint32_t len, count, pin, pout; unsigned sa, da, lat; bool assert_it; uint32_t comps; };
    const P perf[] = {
        {"64 KiB aligned, latency 40", 65536, 1, 65536, 65536, 0, 0, 40, true, 0},
        {"64 KiB src+3 dst+5, latency 40", 65536, 1, 65536, 65536, 3, 5, 40, true, 0},
        {"64 KiB src+7 dst+0, latency 100", 65536, 1, 65536, 65536, 7, 0, 100, false, 0},
        {"64 x 1 KiB 2D, pitches 1100/1300, latency 40", 1024, 64, 1100, 1300, 1, 2, 40, false, 0},
        {"1024 x 64 B 2D, latency 40", 64, 1024, 64, 96, 0, 0, 40, false, 0},
        {"memset 64 KiB, 4-byte elements, aligned", 16384, 1, 0, 65536, 0, 0, 40, true, MS_4B},
        {"memset 64 KiB, 16-byte elements, dst+5", 4096, 1, 0, 65536, 0, 5, 40, true, MS_16B},
        {"memset 64 KiB, 3-byte A/B/NO_WRITE, dst+3", 21846, 1, 0, 65538, 0, 3, 40, true, MS_3B},
        {"memset 64 x 1 KiB 2D, pitch 1300, dst+2", 256, 64, 0, 1300, 0, 2, 40, false, MS_4B},
        {"memset 1024 x 64 B 2D, pitch 96", 16, 1024, 0, 96, 0, 0, 40, false, MS_4B},
    };
    int n = 0;
    for (const P& p : perf) {
      g_mem->cfg = MemCfg{};
      g_mem->cfg.rd_lat = p.lat;
      g_mem->cfg.b_lat = 10;
      g_mem->max_rd_out = 0;
      Cmd c;
      c.len = p.len;
      c.count = p.count;
      c.pin = p.pin;
      c.pout = p.pout;
      c.src = MEM_BASE + SRC_OFF + 0x10000 + p.sa;
      c.dst = MEM_BASE + DST_OFF + 0x10000 + p.da;
      c.remap = p.comps != 0;
      c.comps = p.comps;
      c.ca = 0xA1A2A3A4u;
      c.cb = 0xB1B2B3B4u;
      c.sem = true;
      c.four = n & 1;
      c.sem_addr = MEM_BASE + SEM_OFF + 0x100;
      c.payload = 0x600D0000u + n;
      Result r;
      do_copy(c, n++, "perf", false, &r);
      double bytes = (double)line_bytes(c) * p.count;
      double eff = bytes / (double)r.cycles / BEAT;
      printf("perf: %-46s %8.0f bytes in %7" PRIu64 " cycles: %.3f bytes/cycle, efficiency %.3f, max reads in flight %u\n",
             p.name, bytes, r.cycles, bytes / r.cycles, eff, g_mem->max_rd_out);
      if (p.assert_it) {
        check(eff >= 0.9, std::string("perf efficiency >= 0.9: ") + p.name,
              {"efficiency " + std::to_string(eff)});
        if (!c.remap) {
          check(g_mem->max_rd_out >= 4, std::string("perf >= 4 read bursts in flight: ") + p.name,
                {"max in flight " + std::to_string(g_mem->max_rd_out)});
          // the copy costs its read beats, the read latency, the write-response latency and a
          // few cycles (release, done) only: its first read goes out in the command-accept cycle
          // and its writes are cut-through (no wait for a whole burst in the ring)
          uint64_t beats = (p.sa + (uint64_t)bytes + BEAT - 1) / BEAT;
          uint64_t bound = beats + p.lat + g_mem->cfg.b_lat + 8;
          check(r.cycles <= bound, std::string("perf cycles <= read beats + latencies + 8: ") + p.name,
                {std::to_string(r.cycles) + " cycles, bound " + std::to_string(bound)});
        }
      }
    }
  }

  // ---------------------------------------------------------------- (c) bus errors
  {
    int n = 0;
    // where: 0 src, 1 dst, 2 release (as_err_i), 3 outside
    struct E { const char* name; int where; double stall; bool memset, four; };
    const E errs[] = {{"SLVERR on a source read", 0, 0.0, false, false},
                      {"SLVERR on a destination write", 1, 0.0, false, false},
                      {"as_err_i on the one-word release", 2, 0.0, false, false},
                      {"as_err_i on the four-word release", 2, 0.3, false, true},
                      {"DECERR: source outside memory", 3, 0.0, false, false},
                      {"SLVERR on a read, with stalls", 0, 0.3, false, true},
                      {"SLVERR on a write, with stalls", 1, 0.3, false, false},
                      {"SLVERR on a memset write", 1, 0.0, true, true},
                      {"SLVERR on a memset write, with stalls", 1, 0.3, true, false},
                      {"as_err_i on a memset's release", 2, 0.0, true, true}};
    for (const E& e : errs) {
      g_mem->cfg = MemCfg{};
      g_mem->cfg.rd_lat = 30;
      g_mem->cfg.p_ar = g_mem->cfg.p_aw = g_mem->cfg.p_w = g_mem->cfg.p_r = g_mem->cfg.p_b = e.stall;
      g_mem->cfg.p_aq = e.stall;
      Cmd c;
      c.len = 3000;
      c.count = 3;
      c.pin = 3100;
      c.pout = 3200;
      c.src = MEM_BASE + SRC_OFF + 0x20000 + 3;
      c.dst = MEM_BASE + DST_OFF + 0x20000 + 6;
      if (e.memset) {
        c.remap = true;
        c.comps = random_components(0.2, 1 + (unsigned)rnd(4), 1 + (unsigned)rnd(4));
        c.ca = (uint32_t)g_rng();
        c.cb = (uint32_t)g_rng();
        c.len = (uint32_t)(3000 / elem_bytes(c));
      }
      c.sem = true;
      c.four = e.four;
      c.sem_addr = MEM_BASE + SEM_OFF + (e.four ? 0x200 : 0x204);
      c.payload = 0xE0E0E0E0u;
      c.intr = true;
      if (e.where == 0) { g_mem->err_lo = c.src + 3100 + 1000; g_mem->err_hi = g_mem->err_lo + 16; }
      if (e.where == 1) { g_mem->err_lo = c.dst + 3200 + 1500; g_mem->err_hi = g_mem->err_lo + 1; }
      if (e.where == 2) { g_mem->err_lo = c.sem_addr; g_mem->err_hi = c.sem_addr + 4; }  // the atomic unit's range
      if (e.where == 3) { c.src = 0x0012340000ull; g_mem->allow_outside = true; }
      Result r;
      // e.where == 2: the data is copied, only the release fails (and so is never written)
      do_copy(c, n++, (std::string("error: ") + e.name).c_str(), true, &r);
      check(g_mem->n_aq == (e.where == 2 ? 1u : 0u),
            std::string("no release after a data error: ") + e.name,
            {std::to_string(g_mem->n_aq) + " release requests"});
      check(r.done && r.err, std::string("done_err_o for ") + e.name);
      g_mem->err_lo = g_mem->err_hi = 0;
      g_mem->allow_outside = false;
      // a normal copy still works afterwards
      g_mem->cfg = random_cfg();
      Cmd ok = random_cmd();
      ok.copy = true;
      if (!ok.len) ok.len = 77;
      if (!ok.count) ok.count = 2;
      if (ok.pin < ok.len) ok.pin = ok.len;
      if (ok.pout < ok.len) ok.pout = ok.len;
      ok.sem = true;
      do_copy(ok, n++, (std::string("after error: ") + e.name).c_str());
    }
  }

  // ---------------------------------------------------------------- (c) random bus errors
  {
    int n_err = 0;
    for (int i = 0; i < 60; i++) {
      g_mem->cfg = random_cfg();
      if (i % 3 == 0) g_mem->cfg.p_ar = g_mem->cfg.p_aw = 0.8;  // AR/AW often pending at the error
      Cmd c = random_cmd();
      c.copy = true;
      if (c.len < 16) c.len = 16 + (uint32_t)rnd(2000);
      if (!c.count) c.count = 1;
      if (c.pin < c.len) c.pin = c.len;
      if (c.pout < c.len) c.pout = c.len;
      c.src = place(SRC_OFF, SRC_SPAN, copy_extent(c.len, c.count, c.pin));
      c.dst = place(DST_OFF, DST_SPAN, copy_extent(c.len, c.count, c.pout));
      bool on_src = rnd(2);
      if (i % 4 == 3) {  // a memset with a write error
        c = random_memset();
        c.copy = true;
        if (c.len < 16) c.len = 16 + (uint32_t)rnd(400);
        if (!c.count) c.count = 1;
        c.pout = std::max<uint32_t>(c.pout, (uint32_t)line_bytes(c));
        c.dst = place(DST_OFF, DST_SPAN, copy_extent((uint32_t)line_bytes(c), c.count, c.pout));
        on_src = false;
      }
      uint64_t k = rnd(c.count), j = rnd(line_bytes(c));
      g_mem->err_lo = on_src ? c.src + k * c.pin + j : c.dst + k * c.pout + j;
      g_mem->err_hi = g_mem->err_lo + 1 + rnd(16);
      Result r;
      do_copy(c, i, on_src ? "random read error" : "random write error", true, &r);
      check(g_mem->n_aq == 0, "no release after random error " + std::to_string(i),
            {std::to_string(g_mem->n_aq) + " release requests"});
      g_mem->err_lo = g_mem->err_hi = 0;
      n_err++;
    }
    printf("errors: %d random bus-error copies / memsets checked\n", n_err);
  }

  printf("simulated %" PRIu64 " cycles\n", g_cycle);
  printf("%d passed, %d failed\n", g_pass, g_fail);
  g_h.reset();   // final() and the model's end
  return g_fail ? 1 : 0;
}
