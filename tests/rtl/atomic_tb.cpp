// Block testbench for gc_atomic_unit and gc_sem_pkg (tests/rtl/atomic_tb_top.sv = the unit with
// N = 3 requesters, plus a combinational window on sem_acquire_pass / sem_reduce).
//
// Build: make build/rtl_atomic/Vatomic_tb_top (the rtl_bench rule of the Makefile).  Clock and
// seed: the shared bench harness (cosim/harness.h), with this bench's models on its hooks.
// Run:
//   build/rtl_atomic/Vatomic_tb_top [+seed=N | N] [+ops=N] [+lat=N] [+stall=P] [+vectors=N]
//     +ops      random requests per requester and memory configuration (default 1500)
//     +lat      extra read / write-response latency of the "slow" configuration (default 20)
//     +stall    stall probability of the "stalls" configuration (default 0.3)
//     +stall_pct the same in percent (what `make test STALL=P` passes)
//     +vectors  random vectors per function and mode for the function window (default 20000)
//
// What it does
//  * Function window: sem_acquire_pass and sem_reduce against known answers (hand-computed
//    constants for every edge the spec names), against a C++ reference model (written from the
//    definitions in rtl/README.md, not from the SV) over a cross product of edge values, and
//    over random vectors; 32-bit mode with junk in bits 63:32 of both inputs.
//  * The unit, through its request ports, behind a C++ AXI memory model with seeded random
//    stalls and configurable latency.  The model answers reads with the memory contents when
//    the R beat is presented and lands writes when the B response is presented, so an access
//    slipped in between a read and a write (or before a B) sees stale data.  It checks every
//    AXI rule of rtl/README.md (stable valid/payload until ready, 8-byte aligned addresses, no
//    4 KiB crossing, W only after its AW, wlast on the last beat) and the unit's own contract:
//    one memory transaction at a time and nothing of the next request before the previous one
//    got its response, araddr/awaddr/awlen/wstrb as the request requires, no AR for a WRITE,
//    no AW for a READ or after a failed RMW read.
//  * Every response (as_valid_o: one-hot, to the requester being served) is checked against
//    the reference model applied in the order the unit served the requests (= the order of
//    the responses): READ value (4 bytes zero-extended), RMW old value, as_err_o, and the
//    memory words touched, right away and again at the end of each phase.  16-byte writes:
//    the word at +8 must be a timestamp between the request and the B response.  (The write
//    snoop that wakes acquires is the crossbar's: tests/rtl/xbar_tb.cpp.)  Arbitration: a
//    waiting requester sees at most N-1 other grants before its own (round robin), and strict
//    rotation when all request.
//  * Extended operations (the SIMT core's "A" extension, aq_xop_i / aq_rtag_i): LR is a READ that
//    sets the tag's reservation, SC a 4-byte WRITE made only while it holds (answer 0) or, without
//    any memory access, answer 1; SWAP an RMW writing the operand.  The reference keeps the
//    reservations: LR sets its tag's and those of tag + k for each bit k of its data (the SIMT
//    core's LR for several lanes at once; directed, and random data in the random phase), SC
//    consumes the tag's, every landed write (WRITE, RMW, SWAP, successful SC)
//    clears all those on the 4-byte words it writes (one for 4 bytes, two for 8, four for 16: a
//    write to the other half of the beat keeps them), a plain-store report (st_*_i) those on its
//    4-byte words (directed: before an SC, and during an LR's read).  The SC-abort race, directed:
//    the SC granted with its reservation, its AW held back by the memory, a plain-store report on
//    its word in that window: the SC answers 1, its AW still goes out (never withdrawn) with a W
//    beat of no strobes, memory is unchanged.  Directed sequences, then random
//    LR/SC/SWAP/WRITE/RMW traffic from the 3 requesters on a few words with 8 tags.
//  * Phases: known-answer RMWs of every reduction (32-bit at both halves of a beat with a
//    sentinel in the other half, and 64-bit); READ/WRITE of 4/8 bytes at both halves;
//    timestamped 16-byte writes; bus errors on read and write (READ, WRITE, RMW whose read
//    fails: no write; RMW whose write fails) with a good access after each; an op code the
//    unit does not know; 3 x 500 IADD 1 on one word (must total 1500, old values all
//    distinct); random mixed traffic from 3 requesters on a few shared words; strict
//    round-robin rotation.  Random phases run under three memory configurations (fast: no
//    stalls, latency 1; stalls; slow: long latency and heavy stalls).
// Prints its seed, one line per failure, `N passed, M failed`; exit code 1 on failure.
#include <verilated.h>

#include <algorithm>
#include <cinttypes>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "Vatomic_tb_top.h"
#include "../../cosim/gc_cov.h"
#include "../../build/gen/gpucosim_spec.h"
#include "harness.h"

namespace {

constexpr int N = 3;
constexpr unsigned BEAT = GC_AXI_DATA_W / 8;
static_assert(BEAT == 8, "bench written for a 64-bit bus");

// gc_atomic_unit request encodings (rtl/README.md "Atomic unit"; not part of the spec)
constexpr unsigned OP_READ = 0, OP_WRITE = 1, OP_RMW = 2, OP_BAD = 3;
constexpr unsigned SZ4 = 0, SZ8 = 1, SZ16 = 2;
constexpr unsigned SZ16W = 3;  // 16 bytes: a 4-byte value, wdata[63:32], the stamp
// a 16-byte write (WRITE or RMW of size 16 / 16W): two beats, the stamp in the second
bool is16(unsigned op, unsigned size) { return (size == SZ16 || size == SZ16W) && op != OP_READ; }
// the request's value is 4 bytes (SZ4, SZ16W) rather than 8
bool val4(unsigned size) { return size == SZ4 || size == SZ16W; }
constexpr unsigned XOP_NONE = 0, XOP_LR = 1, XOP_SC = 2, XOP_SWAP = 3;   // gc_sem_pkg SEM_XOP_*
constexpr unsigned NRES = 8;
const char* op_name(unsigned op) {
  static const char* n[] = {"READ", "WRITE", "RMW", "op3"};
  return n[op & 3];
}
const char* red_name(unsigned r) {
  static const char* n[] = {"IMIN", "IMAX", "IXOR", "IAND", "IOR", "IADD", "INC", "DEC"};
  return r < 8 ? n[r] : "red?";
}
const char* acq_name(unsigned o) {
  static const char* n[] = {"ACQUIRE", "RELEASE", "ACQ_STRICT_GEQ", "ACQ_CIRC_GEQ", "ACQ_AND", "ACQ_NOR", "REDUCTION", "op7"};
  return n[o & 7];
}

// Spec encodings, short names
constexpr unsigned ACQUIRE = GC_HOST_SEM_EXECUTE_OPERATION_ACQUIRE;
constexpr unsigned STRICT_GEQ = GC_HOST_SEM_EXECUTE_OPERATION_ACQ_STRICT_GEQ;
constexpr unsigned CIRC_GEQ = GC_HOST_SEM_EXECUTE_OPERATION_ACQ_CIRC_GEQ;
constexpr unsigned ACQ_AND = GC_HOST_SEM_EXECUTE_OPERATION_ACQ_AND;
constexpr unsigned ACQ_NOR = GC_HOST_SEM_EXECUTE_OPERATION_ACQ_NOR;
constexpr unsigned IMIN = GC_HOST_SEM_EXECUTE_REDUCTION_IMIN;
constexpr unsigned IMAX = GC_HOST_SEM_EXECUTE_REDUCTION_IMAX;
constexpr unsigned IXOR = GC_HOST_SEM_EXECUTE_REDUCTION_IXOR;
constexpr unsigned IAND = GC_HOST_SEM_EXECUTE_REDUCTION_IAND;
constexpr unsigned IOR = GC_HOST_SEM_EXECUTE_REDUCTION_IOR;
constexpr unsigned IADD = GC_HOST_SEM_EXECUTE_REDUCTION_IADD;
constexpr unsigned INC = GC_HOST_SEM_EXECUTE_REDUCTION_INC;
constexpr unsigned DEC = GC_HOST_SEM_EXECUTE_REDUCTION_DEC;

constexpr uint8_t RESP_OKAY = 0, RESP_SLVERR = 2, RESP_DECERR = 3;

// Memory layout (40-bit addresses with the top bits set, to catch truncation)
constexpr uint64_t MEM_BASE = 0xA512340000ull;
constexpr uint64_t RDERR_BASE = MEM_BASE + 0x1000, WRERR_BASE = MEM_BASE + 0x2000,
                   BOTHERR_BASE = MEM_BASE + 0x3000, ERR_LEN = 0x100;
bool in_range(uint64_t a, uint64_t base) { return a >= base && a < base + ERR_LEN; }
uint8_t rd_resp_for(uint64_t a) {
  if (in_range(a, RDERR_BASE)) return RESP_SLVERR;
  if (in_range(a, BOTHERR_BASE)) return RESP_DECERR;
  return RESP_OKAY;
}
uint8_t wr_resp_for(uint64_t a) {
  if (in_range(a, WRERR_BASE)) return RESP_DECERR;
  if (in_range(a, BOTHERR_BASE)) return RESP_SLVERR;
  return RESP_OKAY;
}
// initial contents of a never-written word
uint64_t init_word(uint64_t a) {
  uint64_t x = a * 0x9E3779B97F4A7C15ull + 0x1234567;
  x ^= x >> 29; x *= 0xBF58476D1CE4E5B9ull; x ^= x >> 32;
  return x;
}

uint64_t g_cycle = 0;
std::mt19937_64 g_rng;
uint64_t rnd(uint64_t n) { return n ? g_rng() % n : 0; }
bool chance(double p) { return p >= 1.0 || (p > 0 && (double)(g_rng() >> 11) * (1.0 / 9007199254740992.0) < p); }

// ------------------------------------------------------------------ results
uint64_t g_pass = 0, g_fail = 0;
std::map<std::string, std::pair<uint64_t, uint64_t>> g_cat;  // category -> (pass, fail)
std::string g_phase = "init";
void vcheck(const char* cat, bool ok, const char* fmt, va_list ap) {
  auto& c = g_cat[cat];
  if (ok) { g_pass++; c.first++; return; }
  g_fail++; c.second++;
  if (g_fail <= 200) {
    char buf[768];
    vsnprintf(buf, sizeof buf, fmt, ap);
    printf("FAIL [%s] cycle %" PRIu64 " (%s): %s\n", cat, g_cycle, g_phase.c_str(), buf);
  } else if (g_fail == 201) {
    printf("(further failures not printed)\n");
  }
}
bool check(const char* cat, bool ok, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vcheck(cat, ok, fmt, ap);
  va_end(ap);
  return ok;
}

// ------------------------------------------------------------------ C++ reference model
// Written from the definitions (rtl/README.md / NVIDIA clc56f.h), independently of the SV.
template <typename U, typename S>
bool acq_ref(unsigned op, U m, U p) {
  switch (op) {
    case ACQUIRE: return m == p;
    case STRICT_GEQ: return m >= p;
    case CIRC_GEQ: return (S)(U)(m - p) >= 0;
    case ACQ_AND: return (U)(m & p) != 0;
    case ACQ_NOR: return (U)~(m | p) != 0;
    default: return false;
  }
}
bool ref_acquire(unsigned op, bool is64, uint64_t mem, uint64_t pay) {
  return is64 ? acq_ref<uint64_t, int64_t>(op, mem, pay) : acq_ref<uint32_t, int32_t>(op, (uint32_t)mem, (uint32_t)pay);
}
template <typename U, typename S>
U red_ref(unsigned red, bool sgn, U m, U o) {
  switch (red) {
    case IMIN: return sgn ? ((S)m < (S)o ? m : o) : std::min(m, o);
    case IMAX: return sgn ? ((S)m > (S)o ? m : o) : std::max(m, o);
    case IXOR: return m ^ o;
    case IAND: return m & o;
    case IOR: return m | o;
    case IADD: return (U)(m + o);
    case INC: return m >= o ? (U)0 : (U)(m + 1);
    case DEC: return (m == 0 || m > o) ? o : (U)(m - 1);
    default: return m;
  }
}
uint64_t ref_reduce(unsigned red, bool sgn, bool is64, uint64_t mem, uint64_t opnd) {
  if (is64) return red_ref<uint64_t, int64_t>(red, sgn, mem, opnd);
  return (mem & 0xFFFFFFFF00000000ull) | red_ref<uint32_t, int32_t>(red, sgn, (uint32_t)mem, (uint32_t)opnd);
}

// ------------------------------------------------------------------ packed-array port access
template <std::size_t W>
void set_bits(VlWide<W>& w, unsigned lsb, unsigned width, uint64_t v) {
  for (unsigned i = 0; i < width; i++) {
    unsigned b = lsb + i;
    w[b / 32] = (w[b / 32] & ~(1u << (b % 32))) | ((uint32_t)((v >> i) & 1) << (b % 32));
  }
}
template <typename T>
void set_bits(T& w, unsigned lsb, unsigned width, uint64_t v) {
  uint64_t mask = (width >= 64 ? ~0ull : ((1ull << width) - 1)) << lsb;
  w = (T)(((uint64_t)w & ~mask) | ((v << lsb) & mask));
}

// ------------------------------------------------------------------ requests / service record
struct Req {
  unsigned op = OP_READ, red = 0, size = SZ4;
  bool sgn = false;
  uint64_t addr = 0, wdata = 0;
  int tag = 0;  // caller's id
  unsigned xop = XOP_NONE, rtag = 0;   // extended operation and its reservation
};
// the operation an extended operation implies
unsigned eff_op(const Req& q) {
  return q.xop == XOP_LR ? OP_READ : q.xop == XOP_SC ? OP_WRITE : q.xop == XOP_SWAP ? OP_RMW : q.op;
}
std::string req_str(const Req& r) {
  char b[200];
  static const char* xn[] = {"", "LR ", "SC ", "SWAP "};
  snprintf(b, sizeof b, "%s%s size %u addr 0x%010" PRIx64 " data 0x%016" PRIx64 " %s %s", xn[r.xop & 3], op_name(r.op),
           r.size == SZ4 ? 4 : r.size == SZ8 ? 8 : 16, r.addr, r.wdata, r.op == OP_RMW ? red_name(r.red) : "",
           r.op == OP_RMW ? (r.sgn ? "signed" : "unsigned") : "");
  return b;
}
struct Result {
  int who = -1;
  Req req;
  uint64_t rdata = 0;
  bool err = false;
  uint64_t grant_cycle = 0, resp_cycle = 0;
};

// ------------------------------------------------------------------ memory model
struct MemCfg {
  const char* name = "stalls";
  unsigned rd_lat = 2, b_lat = 2, jitter = 6;
  double p_ar = 0.3, p_aw = 0.3, p_w = 0.3, p_r = 0.3, p_b = 0.3;
};

class Mem {
 public:
  MemCfg cfg;
  bool hold_aw = false;                          // directed tests: awready stays low
  std::unordered_map<uint64_t, uint64_t> words;  // 8-byte aligned address -> contents
  uint64_t get(uint64_t a) const {
    auto it = words.find(a);
    return it == words.end() ? init_word(a) : it->second;
  }
  void put(uint64_t a, uint64_t v) { words[a] = v; }

  struct Rd { uint64_t addr; uint64_t ready; };
  struct Wr { uint64_t addr; unsigned len, beat; std::vector<uint64_t> data; std::vector<uint8_t> strb; uint64_t ready; };
  std::deque<Rd> rd;           // AR accepted, R not yet presented
  std::deque<Wr> wq;           // AW accepted, W not complete
  std::deque<Wr> bq;           // W complete, B not yet presented
  bool rvalid = false, bvalid = false;
  uint64_t rdata = 0;
  uint8_t rresp = 0, bresp = 0;
  // stability tracking
  bool ar_pend = false, aw_pend = false, w_pend = false;
  uint64_t p_araddr = 0, p_awaddr = 0, p_wdata = 0;
  unsigned p_arlen = 0, p_awlen = 0, p_wstrb = 0;
  bool p_wlast = false;
  // this cycle
  bool ar_hs = false, aw_hs = false, w_hs = false, r_hs = false, b_hs = false;
  uint64_t s_araddr = 0, s_awaddr = 0, s_wdata = 0;
  unsigned s_arlen = 0, s_awlen = 0, s_wstrb = 0;
  bool s_wlast = false;
  uint8_t s_rresp = 0, s_bresp = 0;
  uint64_t n_ar = 0, n_aw = 0, n_w = 0;

  bool quiet() const { return rd.empty() && wq.empty() && bq.empty() && !rvalid && !bvalid; }
  bool no_read() const { return rd.empty() && !rvalid; }
  bool no_write() const { return wq.empty() && bq.empty() && !bvalid; }
  uint64_t lat(unsigned base) { return g_cycle + base + rnd(cfg.jitter + 1); }

  void drive(Vatomic_tb_top* t) {
    t->m_arready_i = !chance(cfg.p_ar);
    t->m_awready_i = !chance(cfg.p_aw) && !hold_aw;
    t->m_wready_i = !chance(cfg.p_w);
    if (!rvalid && !rd.empty() && rd.front().ready <= g_cycle && !chance(cfg.p_r)) {
      rvalid = true;
      rdata = get(rd.front().addr);   // memory contents now
      rresp = rd_resp_for(rd.front().addr);
    }
    if (!bvalid && !bq.empty() && bq.front().ready <= g_cycle && !chance(cfg.p_b)) {
      Wr& w = bq.front();
      bresp = RESP_OKAY;
      for (unsigned k = 0; k <= w.len; k++)
        if (wr_resp_for(w.addr + 8ull * k) != RESP_OKAY) bresp = wr_resp_for(w.addr + 8ull * k);
      if (bresp == RESP_OKAY)  // the write lands now
        for (unsigned k = 0; k <= w.len; k++) {
          uint64_t a = w.addr + 8ull * k, v = get(a);
          for (unsigned b = 0; b < 8; b++)
            if ((w.strb[k] >> b) & 1) v = (v & ~(0xFFull << (8 * b))) | (w.data[k] & (0xFFull << (8 * b)));
          put(a, v);
        }
      bvalid = true;
    }
    t->m_rvalid_i = rvalid;
    t->m_rdata_i = rvalid ? rdata : g_rng();
    t->m_rresp_i = rvalid ? rresp : (uint8_t)rnd(4);
    t->m_rlast_i = rvalid ? 1 : (uint8_t)rnd(2);
    t->m_bvalid_i = bvalid;
    t->m_bresp_i = bvalid ? bresp : (uint8_t)rnd(4);
  }

  // protocol checks that need only the bus; handshakes recorded for the service checks
  void sample(Vatomic_tb_top* t) {
    const char* C = "axi";
    if (ar_pend)
      check(C, t->m_arvalid_o && t->m_araddr_o == p_araddr && t->m_arlen_o == p_arlen,
            "AR valid/payload changed before arready");
    if (aw_pend)
      check(C, t->m_awvalid_o && t->m_awaddr_o == p_awaddr && t->m_awlen_o == p_awlen,
            "AW valid/payload changed before awready");
    if (w_pend)
      check(C, t->m_wvalid_o && t->m_wdata_o == p_wdata && t->m_wstrb_o == p_wstrb && t->m_wlast_o == p_wlast,
            "W valid/payload changed before wready");
    ar_pend = t->m_arvalid_o && !t->m_arready_i;
    aw_pend = t->m_awvalid_o && !t->m_awready_i;
    w_pend = t->m_wvalid_o && !t->m_wready_i;
    p_araddr = t->m_araddr_o; p_arlen = t->m_arlen_o;
    p_awaddr = t->m_awaddr_o; p_awlen = t->m_awlen_o;
    p_wdata = t->m_wdata_o; p_wstrb = t->m_wstrb_o; p_wlast = t->m_wlast_o;
    if (t->m_wvalid_o) check(C, !wq.empty(), "wvalid with no accepted AW waiting for data");
    ar_hs = t->m_arvalid_o && t->m_arready_i;
    aw_hs = t->m_awvalid_o && t->m_awready_i;
    w_hs = t->m_wvalid_o && t->m_wready_i;
    r_hs = rvalid && t->m_rready_o;
    b_hs = bvalid && t->m_bready_o;
    s_araddr = t->m_araddr_o; s_arlen = t->m_arlen_o;
    s_awaddr = t->m_awaddr_o; s_awlen = t->m_awlen_o;
    s_wdata = t->m_wdata_o; s_wstrb = t->m_wstrb_o; s_wlast = t->m_wlast_o;
    s_rresp = rresp; s_bresp = bresp;
    if (ar_hs) {
      check(C, (s_araddr & 7) == 0 && s_araddr < (1ull << GC_AXI_ADDR_W), "araddr 0x%" PRIx64 " not 8-byte aligned", s_araddr);
      check(C, ((s_araddr & 0xFFF) + 8ull * (s_arlen + 1)) <= 0x1000, "AR crosses 4 KiB");
      check(C, s_arlen + 1 <= GC_AXI_MAX_BURST, "arlen %u", s_arlen);
      check("serial", quiet(), "AR while another memory transaction is outstanding");
    }
    if (aw_hs) {
      check(C, (s_awaddr & 7) == 0 && s_awaddr < (1ull << GC_AXI_ADDR_W), "awaddr 0x%" PRIx64 " not 8-byte aligned", s_awaddr);
      check(C, ((s_awaddr & 0xFFF) + 8ull * (s_awlen + 1)) <= 0x1000, "AW crosses 4 KiB");
      check(C, s_awlen + 1 <= GC_AXI_MAX_BURST, "awlen %u", s_awlen);
      check("serial", quiet(), "AW while another memory transaction is outstanding");
    }
  }

  void update() {
    if (r_hs) { rd.pop_front(); rvalid = false; }
    if (b_hs) { bq.pop_front(); bvalid = false; }
    if (w_hs && !wq.empty()) {
      Wr& w = wq.front();
      w.data.push_back(s_wdata);
      w.strb.push_back((uint8_t)s_wstrb);
      n_w++;
      bool last = w.beat == w.len;
      check("axi", s_wlast == last, "wlast %d on beat %u of %u", s_wlast, w.beat, w.len + 1);
      w.beat++;
      if (s_wlast || w.beat > w.len) {
        w.ready = lat(cfg.b_lat);
        while (w.data.size() < w.len + 1u) { w.data.push_back(0); w.strb.push_back(0); }
        bq.push_back(w);
        wq.pop_front();
      }
    }
    if (ar_hs) { rd.push_back({s_araddr, lat(cfg.rd_lat)}); n_ar++; }
    if (aw_hs) { wq.push_back({s_awaddr, s_awlen, 0, {}, {}, 0}); n_aw++; }
  }
};

// ------------------------------------------------------------------ requesters
struct Requester {
  std::deque<Req> todo;
  bool valid = false, outstanding = false;
  Req cur;
  unsigned gap = 0, max_gap = 3;
  unsigned others = 0;   // grants to other requesters while this one waited
};

// ------------------------------------------------------------------ the bench
struct Bench {
  gctb::Harness<Vatomic_tb_top>& h;   // the shared bench harness (cosim/harness.h)
  Vatomic_tb_top* t;
  Mem mem;
  std::unordered_map<uint64_t, uint64_t> refmem;
  std::set<uint64_t> touched;
  Requester rq[N];
  std::vector<Result> served;   // responses in order
  // the request in service
  bool svc = false;
  int svc_who = -1;
  Req svc_req;
  uint64_t svc_grant = 0, svc_b_cycle = 0, svc_ar = 0, svc_aw = 0, svc_wbeats = 0;
  bool svc_read_done = false, svc_read_err = false;
  uint64_t last_progress = 0;
  bool stuck = false;
  std::vector<int> grant_log;

  // The harness's hooks: requests and the memory model drive with the clock low, the bench
  // observes before the edge, the memory model acts after it.
  explicit Bench(gctb::Harness<Vatomic_tb_top>& harness) : h(harness), t(harness.top.get()) {
    h.drive = [this] {
      t->timestamp_i = g_cycle;
      mem.drive(t);
      drive_requests();
    };
    h.pre_edge = [this] { observe(); };
    h.post_edge = [this] { after_edge(); };
  }

  uint64_t ref_get(uint64_t a) const {
    auto it = refmem.find(a);
    return it == refmem.end() ? init_word(a) : it->second;
  }
  void ref_put(uint64_t a, uint64_t v) { refmem[a] = v; touched.insert(a); }
  // backdoor (unit idle): both the memory and the reference
  void preset(uint64_t a, uint64_t v) { mem.put(a, v); ref_put(a, v); }
  // reference LR/SC reservations (4-byte word address per tag)
  bool res_v[NRES] = {};
  uint64_t res_a[NRES] = {};
  // a landed write of `bytes` bytes at a breaks the reservations on the 4-byte words it wrote
  void res_break(uint64_t a, unsigned bytes) {
    for (unsigned r = 0; r < NRES; r++)
      if (res_v[r] && res_a[r] >= a && res_a[r] < a + bytes) res_v[r] = false;
  }
  static unsigned req_bytes(const Req& q) {
    return is16(eff_op(q), q.size) ? 16 : val4(q.size) ? 4 : 8;
  }
  bool sc_fail = false;   // the request in service is an SC without its reservation
  bool sc_abort = false;  // ... or an SC overtaken by a plain store before its AW was accepted

  void drive_requests() {
    for (int i = 0; i < N; i++) {
      Requester& r = rq[i];
      if (!r.valid && !r.outstanding && !r.todo.empty()) {
        if (r.gap) r.gap--;
        else { r.valid = true; r.cur = r.todo.front(); r.todo.pop_front(); r.others = 0; }
      }
      // idle requesters show junk payloads (the unit must latch the granted one only)
      Req q = r.cur;
      if (!r.valid) { q.op = (unsigned)rnd(4); q.red = (unsigned)rnd(16); q.size = (unsigned)rnd(4); q.sgn = rnd(2);
                      q.addr = g_rng(); q.wdata = g_rng(); }
      set_bits(t->aq_valid_i, i, 1, r.valid);
      set_bits(t->aq_op_i, 2 * i, 2, q.op);
      set_bits(t->aq_red_i, 4 * i, 4, q.red);
      set_bits(t->aq_signed_i, i, 1, q.sgn);
      set_bits(t->aq_size_i, 2 * i, 2, q.size);
      set_bits(t->aq_addr_i, 40 * i, 40, q.addr);
      set_bits(t->aq_wdata_i, 64 * i, 64, q.wdata);
      set_bits(t->aq_xop_i, 2 * i, 2, r.valid ? q.xop : (unsigned)rnd(4));
      set_bits(t->aq_rtag_i, 3 * i, 3, r.valid ? q.rtag : (unsigned)rnd(NRES));
    }
  }

  // service-level checks on the memory handshakes of this cycle
  void check_service_bus() {
    const Req& q = svc_req;
    if (mem.ar_hs) {
      if (check("serial", svc, "AR with no request in service")) {
        svc_ar++;
        check("port", q.op == OP_READ || q.op == OP_RMW, "AR for a %s", op_name(q.op));
        check("port", svc_ar == 1, "more than one AR for one request");
        check("port", mem.s_araddr == (q.addr & ~7ull) && mem.s_arlen == 0,
              "AR addr 0x%" PRIx64 " len %u for %s", mem.s_araddr, mem.s_arlen, req_str(q).c_str());
      }
    }
    if (mem.r_hs && svc) { svc_read_done = true; svc_read_err = mem.s_rresp >= 2; }
    if (mem.aw_hs) {
      if (check("serial", svc, "AW with no request in service")) {
        svc_aw++;
        check("port", q.op == OP_WRITE || q.op == OP_RMW, "AW for a %s", op_name(q.op));
        check("port", svc_aw == 1, "more than one AW for one request");
        if (q.op == OP_RMW)
          check("rmw", svc_read_done && !svc_read_err, "RMW write issued %s", svc_read_err ? "after a failed read" : "before its read returned");
        unsigned len = is16(q.op, q.size) ? 1 : 0;
        check("port", mem.s_awaddr == (q.addr & ~7ull) && mem.s_awlen == len,
              "AW addr 0x%" PRIx64 " len %u for %s", mem.s_awaddr, mem.s_awlen, req_str(q).c_str());
      }
    }
    if (mem.w_hs && svc) {
      unsigned exp = sc_abort ? 0u : q.size == SZ4 ? ((q.addr & 4) ? 0xF0u : 0x0Fu) : 0xFFu;
      check("port", mem.s_wstrb == exp, "wstrb 0x%02x (expected 0x%02x) beat %" PRIu64 " for %s", mem.s_wstrb, exp,
            svc_wbeats, req_str(q).c_str());
      svc_wbeats++;
    }
    if (mem.b_hs && svc) {
      svc_b_cycle = g_cycle;
    }
  }

  // a 16-byte write landed: the value beat, then the stamp (sampled between grant and B)
  void put16(uint64_t wa, uint64_t v, const std::string& rs) {
    ref_put(wa, v);
    uint64_t ts = mem.get(wa + 8);
    check("timestamp", ts >= svc_grant && ts <= svc_b_cycle,
          "%s: timestamp %" PRIu64 " not within [request %" PRIu64 ", B %" PRIu64 "]", rs.c_str(), ts, svc_grant, svc_b_cycle);
    ref_put(wa + 8, ts);
  }

  void on_response(unsigned vbits) {
    int who = -1;
    for (int i = 0; i < N; i++)
      if ((vbits >> i) & 1) who = i;
    if (!check("resp", (vbits & (vbits - 1)) == 0, "as_valid_o 0x%x not one-hot", vbits)) return;
    if (!check("resp", svc && who == svc_who, "response to requester %d, serving %d", who, svc ? svc_who : -1)) return;
    const Req& q = svc_req;
    bool err = t->as_err_o;
    uint64_t rdata = t->as_rdata_o;
    uint64_t wa = q.addr & ~7ull;
    bool hi = q.addr & 4;
    bool is4 = val4(q.size), w16 = is16(eff_op(q), q.size);
    uint64_t before = ref_get(wa);
    uint64_t oldv = is4 ? (hi ? before >> 32 : before & 0xFFFFFFFFull) : before;
    std::string rs = req_str(q);
    Result res{who, q, rdata, err, svc_grant, g_cycle};

    if (q.op == OP_BAD && q.xop == XOP_NONE) {
      check("badop", err && svc_ar == 0 && svc_aw == 0, "unknown op: err %d, %" PRIu64 " AR, %" PRIu64 " AW", err, svc_ar, svc_aw);
    } else if (q.xop == XOP_SC && sc_abort) {
      check("sc", !err && rdata == 1 && svc_ar == 0 && svc_aw == 1 && svc_wbeats == 1,
            "%s overtaken by a plain store: rdata %" PRIu64 " err %d, %" PRIu64 " AR, %" PRIu64 " AW, %" PRIu64
            " W (want 1, its AW and one empty W beat)", rs.c_str(), rdata, err, svc_ar, svc_aw, svc_wbeats);
    } else if (q.xop == XOP_SC && sc_fail) {
      check("sc", !err && rdata == 1 && svc_ar == 0 && svc_aw == 0,
            "%s without its reservation: rdata %" PRIu64 " err %d, %" PRIu64 " AR, %" PRIu64 " AW (want 1, no access)",
            rs.c_str(), rdata, err, svc_ar, svc_aw);
    } else if (q.op == OP_READ) {
      bool eerr = rd_resp_for(wa) != RESP_OKAY;
      check("read", err == eerr, "%s: as_err_o %d, expected %d", rs.c_str(), err, eerr);
      if (!eerr) check("read", rdata == oldv, "%s: got 0x%016" PRIx64 ", expected 0x%016" PRIx64, rs.c_str(), rdata, oldv);
      check("read", svc_aw == 0, "%s issued a write", rs.c_str());
      if (q.xop == XOP_LR && !eerr)   // its tag, and tag + k for every bit k of its data
        for (unsigned k = 0; k < NRES && k < 64; k++)
          if (k == 0 || ((q.wdata >> k) & 1)) {
            res_v[(q.rtag + k) % NRES] = true;
            res_a[(q.rtag + k) % NRES] = q.addr & ~3ull;
          }
    } else if (q.op == OP_WRITE) {
      bool eerr = wr_resp_for(wa) != RESP_OKAY || (w16 && wr_resp_for(wa + 8) != RESP_OKAY);
      check("write", err == eerr, "%s: as_err_o %d, expected %d", rs.c_str(), err, eerr);
      check("write", svc_ar == 0, "%s issued a read", rs.c_str());
      if (q.xop == XOP_SC) check("sc", rdata == 0, "%s with its reservation: rdata %" PRIu64 " (want 0)", rs.c_str(), rdata);
      if (!eerr) {
        res_break(q.addr, req_bytes(q));
        if (w16) put16(wa, q.wdata, rs);  // 16W: the value, then wdata[63:32] (a CE's start stamp)
        else if (is4) ref_put(wa, hi ? (before & 0xFFFFFFFFull) | (q.wdata << 32) : (before & ~0xFFFFFFFFull) | (q.wdata & 0xFFFFFFFFull));
        else ref_put(wa, q.wdata);
      }
    } else {  // RMW
      bool rerr = rd_resp_for(wa) != RESP_OKAY;
      bool werr = wr_resp_for(wa) != RESP_OKAY || (w16 && wr_resp_for(wa + 8) != RESP_OKAY);
      bool eerr = rerr || werr;
      check("rmw", err == eerr, "%s: as_err_o %d, expected %d", rs.c_str(), err, eerr);
      if (rerr) check("rmw", svc_aw == 0, "%s: wrote after its read failed", rs.c_str());
      if (!eerr) {
        check("rmw", rdata == oldv, "%s: old value 0x%016" PRIx64 ", expected 0x%016" PRIx64, rs.c_str(), rdata, oldv);
        uint64_t nv = q.xop == XOP_SWAP ? q.wdata : ref_reduce(q.red, q.sgn, !is4, oldv, q.wdata);
        res_break(q.addr, req_bytes(q));
        if (w16) put16(wa, is4 ? (nv & 0xFFFFFFFFull) | (q.wdata & ~0xFFFFFFFFull) : nv, rs);
        else if (is4) ref_put(wa, hi ? (before & 0xFFFFFFFFull) | (nv << 32) : (before & ~0xFFFFFFFFull) | (nv & 0xFFFFFFFFull));
        else ref_put(wa, nv);
      }
    }
    // memory words of this request, now
    for (uint64_t a : {wa, wa + 8}) {
      if (a == wa + 8 && !w16) break;
      check("memory", mem.get(a) == ref_get(a), "after %s: word 0x%010" PRIx64 " = 0x%016" PRIx64 ", expected 0x%016" PRIx64,
            rs.c_str(), a, mem.get(a), ref_get(a));
    }
    served.push_back(res);
    svc = false;
    rq[who].outstanding = false;
    rq[who].gap = (unsigned)rnd(rq[who].max_gap + 1);
    last_progress = g_cycle;
  }

  void on_grant(unsigned rbits) {
    unsigned hs = rbits & (unsigned)t->aq_valid_i;
    if (!hs) return;
    if (!check("arb", (hs & (hs - 1)) == 0, "two requests accepted in one cycle (0x%x)", hs)) return;
    int who = __builtin_ctz(hs);
    check("serial", !svc, "request %d accepted while requester %d is being served", who, svc_who);
    check("arb", rq[who].others <= N - 1, "requester %d waited through %u other grants (round robin allows %d)", who,
          rq[who].others, N - 1);
    for (int i = 0; i < N; i++)
      if (i != who && rq[i].valid) rq[i].others++;
    svc = true; svc_who = who; svc_req = rq[who].cur; svc_grant = g_cycle;
    // extended operations: judge the SC now (the unit decides at the grant), check as the implied op
    sc_fail = sc_abort = false;
    if (svc_req.xop == XOP_SC) {
      unsigned tg = svc_req.rtag % NRES;
      sc_fail = !(res_v[tg] && res_a[tg] == (svc_req.addr & ~3ull));
      res_v[tg] = false;
    }
    svc_req.op = eff_op(svc_req);
    // a plain WRITE's AW is on the bus in its grant cycle (rtl/README.md: one cycle from the
    // requester to the bus), with its own address; an SC waits for its latched request
    if (svc_req.xop == XOP_NONE && svc_req.op == OP_WRITE)
      check("port", t->m_awvalid_o, "%s granted without its AW in the grant cycle", req_str(svc_req).c_str());
    else
      check("port", !t->m_awvalid_o, "AW in the grant cycle of %s", req_str(svc_req).c_str());
    svc_b_cycle = 0; svc_ar = svc_aw = svc_wbeats = 0;
    svc_read_done = svc_read_err = false;
    rq[who].valid = false;
    rq[who].outstanding = true;
    grant_log.push_back(who);
    last_progress = g_cycle;
  }

  void tick() { h.tick(); }
  // before the edge: responses, grants, bus, in that order (a plain WRITE's AW goes out in its
  // grant cycle, which may also be the previous request's response cycle: no bus event of the
  // previous request happens then, its response comes a cycle after its last beat)
  void observe() {
    mem.sample(t);
    if (t->as_valid_o) on_response(t->as_valid_o);
    on_grant(t->aq_ready_o);
    check_service_bus();
  }
  void after_edge() {
    mem.update();
    g_cycle++;
    if (g_cycle - last_progress > 20000 && !stuck && !idle()) {
      stuck = true;
      if (svc) check("hang", false, "no response for 20000 cycles to %s (requester %d)", req_str(svc_req).c_str(), svc_who);
      else check("hang", false, "no request granted for 20000 cycles");
    }
  }

  bool idle() const {
    if (svc) return false;
    for (auto& r : rq)
      if (r.valid || r.outstanding || !r.todo.empty()) return false;
    return mem.quiet();
  }
  void run_until_idle() {
    last_progress = g_cycle;
    while (!idle() && !stuck) tick();
    for (int k = 0; k < 3; k++) tick();  // trailing pulses must not appear
  }
  // one plain-store report (st_*_i) on the 4-byte word at a, for one cycle: it breaks the
  // reservations on that word
  void st_pulse(uint64_t a) {
    t->st_valid_i = 1;
    t->st_addr_i = a & ~127ull;
    t->st_wmask_i = 1u << ((a >> 2) & 31);
    tick();
    t->st_valid_i = 0;
    t->st_wmask_i = 0;
    for (unsigned k = 0; k < NRES; k++)
      if (res_v[k] && res_a[k] == (a & ~3ull)) res_v[k] = false;
    // an SC in service whose AW has not been accepted yet is overtaken: it writes nothing
    if (svc && svc_req.xop == XOP_SC && !sc_fail && svc_aw == 0 && (svc_req.addr & ~3ull) == (a & ~3ull)) sc_abort = true;
  }
  Result run_one(int who, const Req& q) {
    size_t n = served.size();
    rq[who].todo.push_back(q);
    run_until_idle();
    return served.size() > n ? served.back() : Result{};
  }
  void compare_all(const char* what) {
    unsigned bad = 0;
    for (uint64_t a : touched)
      if (mem.get(a) != ref_get(a)) bad++;
    check("memory", bad == 0, "%s: %u of %zu words differ from the reference", what, bad, touched.size());
  }

  void reset() {
    t->rst_ni = 0;
    t->clk_i = 0;
    t->aq_valid_i = 0;
    t->m_rvalid_i = 0;
    t->m_bvalid_i = 0;
    t->eval();
    // four edges in reset without the bench's models (the requests and the memory start after)
    auto drive = std::move(h.drive), pre = std::move(h.pre_edge), post = std::move(h.post_edge);
    h.drive = nullptr;
    h.pre_edge = h.post_edge = nullptr;
    h.run(4);
    g_cycle += 4;
    h.drive = std::move(drive);
    h.pre_edge = std::move(pre);
    h.post_edge = std::move(post);
    t->rst_ni = 1;
    t->eval();
  }
};

// ------------------------------------------------------------------ function window tests
bool fn_acquire(Vatomic_tb_top* t, unsigned op, bool is64, uint64_t mem, uint64_t pay) {
  t->fn_op_i = op; t->fn_is64_i = is64; t->fn_mem_i = mem; t->fn_arg_i = pay;
  t->eval();
  return t->fn_pass_o;
}
uint64_t fn_reduce(Vatomic_tb_top* t, unsigned red, bool sgn, bool is64, uint64_t mem, uint64_t opnd) {
  t->fn_red_i = red; t->fn_signed_i = sgn; t->fn_is64_i = is64; t->fn_mem_i = mem; t->fn_arg_i = opnd;
  t->eval();
  return t->fn_reduce_o;
}
void chk_acq(Vatomic_tb_top* t, const char* cat, unsigned op, bool is64, uint64_t m, uint64_t p, bool exp) {
  bool got = fn_acquire(t, op, is64, m, p);
  check(cat, got == exp, "sem_acquire_pass(%s, %s, mem 0x%016" PRIx64 ", payload 0x%016" PRIx64 "): expected %d, got %d",
        acq_name(op), is64 ? "64" : "32", m, p, exp, got);
}
void chk_red(Vatomic_tb_top* t, const char* cat, unsigned red, bool sgn, bool is64, uint64_t m, uint64_t o, uint64_t exp) {
  uint64_t got = fn_reduce(t, red, sgn, is64, m, o);
  check(cat, got == exp, "sem_reduce(%s, %s, %s, mem 0x%016" PRIx64 ", operand 0x%016" PRIx64 "): expected 0x%016" PRIx64 ", got 0x%016" PRIx64,
        red_name(red), sgn ? "signed" : "unsigned", is64 ? "64" : "32", m, o, exp, got);
}

struct RedKat { unsigned red; bool sgn, is64; uint64_t mem, opnd, exp; };
// 32-bit entries: bits 63:32 of mem/operand are filled with junk by the users, exp is bits 31:0.
const RedKat kRedKat[] = {
  // INC: mem >= operand ? 0 : mem + 1
  {INC, 0, 0, 5, 5, 0}, {INC, 0, 0, 7, 5, 0}, {INC, 0, 0, 3, 5, 4}, {INC, 0, 0, 0, 0, 0},
  {INC, 0, 0, 0xFFFFFFFE, 0xFFFFFFFF, 0xFFFFFFFF}, {INC, 0, 0, 0xFFFFFFFF, 0xFFFFFFFF, 0},
  {INC, 0, 0, 0x80000000, 0xFFFFFFFF, 0x80000001},
  {INC, 0, 1, 5, 5, 0}, {INC, 0, 1, 7, 5, 0}, {INC, 0, 1, 3, 5, 4},
  {INC, 0, 1, 0xFFFFFFFF, 0x100000000ull, 0x100000000ull}, {INC, 0, 1, 0xFFFFFFFFFFFFFFFFull, 0xFFFFFFFFFFFFFFFFull, 0},
  {INC, 0, 1, 0x8000000000000000ull, 0xFFFFFFFFFFFFFFFFull, 0x8000000000000001ull},
  // DEC: (mem == 0 || mem > operand) ? operand : mem - 1
  {DEC, 0, 0, 0, 5, 5}, {DEC, 0, 0, 9, 5, 5}, {DEC, 0, 0, 3, 5, 2}, {DEC, 0, 0, 5, 5, 4}, {DEC, 0, 0, 1, 5, 0},
  {DEC, 0, 0, 0x80000000, 0x7FFFFFFF, 0x7FFFFFFF}, {DEC, 0, 0, 0, 0xFFFFFFFF, 0xFFFFFFFF},
  {DEC, 0, 1, 0, 5, 5}, {DEC, 0, 1, 9, 5, 5}, {DEC, 0, 1, 3, 5, 2},
  {DEC, 0, 1, 0x100000000ull, 0xFFFFFFFFFFFFFFFFull, 0xFFFFFFFFull}, {DEC, 0, 1, 0x100000000ull, 0xFFFFFFFFull, 0xFFFFFFFFull},
  // IADD wraps
  {IADD, 0, 0, 0xFFFFFFFF, 2, 1}, {IADD, 0, 0, 0x80000000, 0x80000000, 0}, {IADD, 1, 0, 0x7FFFFFFF, 1, 0x80000000},
  {IADD, 0, 1, 0xFFFFFFFFFFFFFFFFull, 2, 1}, {IADD, 0, 1, 0xFFFFFFFF, 1, 0x100000000ull},
  // IMIN / IMAX signed vs unsigned
  {IMIN, 1, 0, 0xFFFFFFFF, 1, 0xFFFFFFFF}, {IMIN, 0, 0, 0xFFFFFFFF, 1, 1},
  {IMAX, 1, 0, 0xFFFFFFFF, 1, 1}, {IMAX, 0, 0, 0xFFFFFFFF, 1, 0xFFFFFFFF},
  {IMIN, 1, 0, 0x80000000, 0x7FFFFFFF, 0x80000000}, {IMIN, 0, 0, 0x80000000, 0x7FFFFFFF, 0x7FFFFFFF},
  {IMAX, 1, 0, 0x80000000, 0x7FFFFFFF, 0x7FFFFFFF}, {IMAX, 0, 0, 0x80000000, 0x7FFFFFFF, 0x80000000},
  {IMIN, 1, 0, 0xFFFFFFFE, 0xFFFFFFFF, 0xFFFFFFFE}, {IMAX, 1, 0, 0xFFFFFFFE, 0xFFFFFFFF, 0xFFFFFFFF},
  {IMIN, 1, 1, 0xFFFFFFFFFFFFFFFFull, 1, 0xFFFFFFFFFFFFFFFFull}, {IMIN, 0, 1, 0xFFFFFFFFFFFFFFFFull, 1, 1},
  {IMAX, 1, 1, 0xFFFFFFFFFFFFFFFFull, 1, 1}, {IMAX, 0, 1, 0xFFFFFFFFFFFFFFFFull, 1, 0xFFFFFFFFFFFFFFFFull},
  {IMIN, 1, 1, 0x80000000ull, 1, 1}, {IMAX, 1, 1, 0x80000000ull, 1, 0x80000000ull},   // positive in 64-bit
  {IMIN, 1, 1, 0x8000000000000000ull, 0x7FFFFFFFFFFFFFFFull, 0x8000000000000000ull},
  {IMAX, 0, 1, 0x8000000000000000ull, 0x7FFFFFFFFFFFFFFFull, 0x8000000000000000ull},
  // bitwise
  {IXOR, 0, 0, 0xF0F0F0F0, 0xFF00FF00, 0x0FF00FF0}, {IAND, 0, 0, 0xF0F0F0F0, 0xFF00FF00, 0xF000F000},
  {IOR, 0, 0, 0xF0F0F0F0, 0xFF00FF00, 0xFFF0FFF0},
  {IXOR, 0, 1, 0xF0F0F0F000000001ull, 0xFF00FF0000000003ull, 0x0FF00FF000000002ull},
  {IAND, 0, 1, 0xF0F0F0F000000001ull, 0xFF00FF0000000003ull, 0xF000F00000000001ull},
  {IOR, 1, 1, 0xF0F0F0F000000001ull, 0xFF00FF0000000003ull, 0xFFF0FFF000000003ull},
};

void test_functions(Vatomic_tb_top* t, unsigned nvec) {
  g_phase = "functions";
  // ---- acquire known answers
  const char* A = "fn_acquire_kat";
  const uint64_t J = 0x5A5A5A5A00000000ull;  // junk in 63:32, ignored in 32-bit mode
  chk_acq(t, A, CIRC_GEQ, 0, 0x00000002, 0xFFFFFFFE, 1);
  chk_acq(t, A, CIRC_GEQ, 0, 0xFFFFFFFE, 0x00000002, 0);
  chk_acq(t, A, CIRC_GEQ, 0, 0x12345678, 0x12345678, 1);
  chk_acq(t, A, CIRC_GEQ, 0, J | 0x00000002, 0xFFFFFFFFFFFFFFFEull, 1);
  chk_acq(t, A, CIRC_GEQ, 0, 0xFFFFFFFFFFFFFFFEull, J | 0x00000002, 0);
  chk_acq(t, A, CIRC_GEQ, 0, 0x7FFFFFFF, 0, 1);
  chk_acq(t, A, CIRC_GEQ, 0, 0x80000000, 0, 0);
  chk_acq(t, A, CIRC_GEQ, 0, 0, 1, 0);
  chk_acq(t, A, CIRC_GEQ, 1, 2, 0xFFFFFFFFFFFFFFFEull, 1);
  chk_acq(t, A, CIRC_GEQ, 1, 0xFFFFFFFFFFFFFFFEull, 2, 0);
  chk_acq(t, A, CIRC_GEQ, 1, 0xFFFFFFFFFFFFFFFEull, 0xFFFFFFFFFFFFFFFEull, 1);
  chk_acq(t, A, CIRC_GEQ, 1, 0x80000000ull, 0, 1);   // 32-bit would say no
  chk_acq(t, A, CIRC_GEQ, 1, 0x100000002ull, 0xFFFFFFFEull, 1);
  chk_acq(t, A, CIRC_GEQ, 1, 0x8000000000000000ull, 0, 0);
  chk_acq(t, A, STRICT_GEQ, 0, 7, 7, 1);
  chk_acq(t, A, STRICT_GEQ, 0, 6, 7, 0);
  chk_acq(t, A, STRICT_GEQ, 0, 0xFFFFFFFF, 0, 1);
  chk_acq(t, A, STRICT_GEQ, 0, 2, 0xFFFFFFFE, 0);   // no wrap for the strict compare
  chk_acq(t, A, STRICT_GEQ, 0, 0x100000000ull, 1, 0);  // bits 63:32 ignored
  chk_acq(t, A, STRICT_GEQ, 1, 0x100000000ull, 1, 1);
  chk_acq(t, A, STRICT_GEQ, 1, 2, 0xFFFFFFFFFFFFFFFEull, 0);
  chk_acq(t, A, STRICT_GEQ, 1, 0xFFFFFFFFFFFFFFFFull, 0xFFFFFFFFFFFFFFFFull, 1);
  chk_acq(t, A, ACQUIRE, 0, 5, 5, 1);
  chk_acq(t, A, ACQUIRE, 0, 5, 6, 0);
  chk_acq(t, A, ACQUIRE, 0, 0x100000005ull, 5, 1);
  chk_acq(t, A, ACQUIRE, 1, 0x100000005ull, 5, 0);
  chk_acq(t, A, ACQUIRE, 1, 0xFFFFFFFFFFFFFFFFull, 0xFFFFFFFFFFFFFFFFull, 1);
  chk_acq(t, A, ACQ_AND, 0, 0, 0xFFFFFFFF, 0);
  chk_acq(t, A, ACQ_AND, 0, 0xFFFFFFFF, 0xFFFFFFFF, 1);
  chk_acq(t, A, ACQ_AND, 0, 0x100000000ull, 0x100000000ull, 0);
  chk_acq(t, A, ACQ_AND, 1, 0x100000000ull, 0x100000000ull, 1);
  chk_acq(t, A, ACQ_AND, 1, 0, 0xFFFFFFFFFFFFFFFFull, 0);
  chk_acq(t, A, ACQ_AND, 0, 0x00010000, 0x00030000, 1);
  chk_acq(t, A, ACQ_NOR, 0, 0, 0, 1);
  chk_acq(t, A, ACQ_NOR, 0, 0xFFFFFFFF, 0, 0);
  chk_acq(t, A, ACQ_NOR, 0, 0, 0xFFFFFFFF, 0);
  chk_acq(t, A, ACQ_NOR, 0, 0xFFFF0000, 0x0000FFFF, 0);
  chk_acq(t, A, ACQ_NOR, 0, 0xFFFF0000, 0x00007FFF, 1);
  chk_acq(t, A, ACQ_NOR, 0, 0x00000000FFFFFFFFull, 0, 0);
  chk_acq(t, A, ACQ_NOR, 1, 0x00000000FFFFFFFFull, 0, 1);
  chk_acq(t, A, ACQ_NOR, 1, 0xFFFFFFFFFFFFFFFFull, 0, 0);
  chk_acq(t, A, ACQ_NOR, 1, 0, 0, 1);
  chk_acq(t, A, ACQ_NOR, 0, 0xFFFFFFFF00000000ull, 0xFFFFFFFF00000000ull, 1);
  for (unsigned op : {1u, 6u, 7u})   // RELEASE, REDUCTION, unused: not acquires
    for (bool is64 : {false, true}) chk_acq(t, A, op, is64, 5, 5, 0);

  // ---- reduce known answers
  const char* R = "fn_reduce_kat";
  for (const RedKat& k : kRedKat) {
    if (k.is64) {
      chk_red(t, R, k.red, k.sgn, true, k.mem, k.opnd, k.exp);
    } else {
      uint64_t hi = 0xC3C3C3C300000000ull, ohi = 0x5A5A5A5A00000000ull;
      chk_red(t, R, k.red, k.sgn, false, hi | k.mem, ohi | k.opnd, hi | k.exp);
      chk_red(t, R, k.red, k.sgn, false, k.mem, 0xFFFFFFFF00000000ull | k.opnd, k.exp);
    }
  }
  for (unsigned red = 8; red < 16; red++)  // not a reduction: mem unchanged
    for (bool is64 : {false, true}) chk_red(t, R, red, red & 1, is64, 0x0123456789ABCDEFull, 0xFFFFFFFFFFFFFFFFull, 0x0123456789ABCDEFull);

  // ---- edge cross product vs the reference
  const uint64_t e32[] = {0, 1, 2, 5, 0x7FFFFFFE, 0x7FFFFFFF, 0x80000000, 0x80000001, 0xFFFFFFFE, 0xFFFFFFFF, 0x12345678, 0xFFFF0000};
  const uint64_t e64[] = {0, 1, 2, 5, 0x7FFFFFFFFFFFFFFEull, 0x7FFFFFFFFFFFFFFFull, 0x8000000000000000ull, 0x8000000000000001ull,
                          0xFFFFFFFFFFFFFFFEull, 0xFFFFFFFFFFFFFFFFull, 0xFFFFFFFFull, 0x100000000ull, 0x80000000ull, 0x123456789ABCDEF0ull};
  const char* E = "fn_edges";
  for (bool is64 : {false, true}) {
    std::vector<uint64_t> ev = is64 ? std::vector<uint64_t>(std::begin(e64), std::end(e64)) : std::vector<uint64_t>(std::begin(e32), std::end(e32));
    for (uint64_t m : ev)
      for (uint64_t p : ev) {
        uint64_t mj = is64 ? m : (g_rng() << 32) | m, pj = is64 ? p : (g_rng() << 32) | p;
        for (unsigned op = 0; op < 8; op++) chk_acq(t, E, op, is64, mj, pj, ref_acquire(op, is64, mj, pj));
        for (unsigned red = 0; red < 8; red++)
          for (bool sgn : {false, true}) chk_red(t, E, red, sgn, is64, mj, pj, ref_reduce(red, sgn, is64, mj, pj));
      }
  }
  // ---- random vectors (half of them near each other, so the compares are not trivially decided)
  const char* V = "fn_random";
  for (unsigned k = 0; k < nvec; k++) {
    for (bool is64 : {false, true}) {
      uint64_t m = g_rng(), p;
      switch (rnd(4)) {
        case 0: p = g_rng(); break;
        case 1: p = m + rnd(9) - 4; break;
        case 2: p = m ^ (1ull << rnd(64)); break;
        default: p = (m & ~0xFFFFFFFFull) | (uint32_t)(m + rnd(9) - 4); break;
      }
      if (rnd(2)) std::swap(m, p);
      unsigned op = (unsigned)rnd(8), red = (unsigned)rnd(8);
      bool sgn = rnd(2);
      chk_acq(t, V, op, is64, m, p, ref_acquire(op, is64, m, p));
      chk_red(t, V, red, sgn, is64, m, p, ref_reduce(red, sgn, is64, m, p));
    }
  }
}

// ------------------------------------------------------------------ unit phases
Req mk(unsigned op, unsigned size, uint64_t addr, uint64_t wdata, unsigned red = 0, bool sgn = false) {
  Req q;
  q.op = op; q.size = size; q.addr = addr; q.wdata = wdata; q.red = red; q.sgn = sgn;
  return q;
}

void test_rmw_kat(Bench& b) {
  g_phase = "rmw known answers";
  const char* C = "rmw_kat";
  uint64_t base = MEM_BASE + 0x400;
  int who = 0;
  for (const RedKat& k : kRedKat) {
    if (k.is64) {
      uint64_t a = base + 8 * rnd(32);
      b.preset(a, k.mem);
      Result r = b.run_one(who, mk(OP_RMW, SZ8, a, k.opnd, k.red, k.sgn));
      who = (who + 1) % N;
      check(C, !r.err && r.rdata == k.mem, "%s 64 %s mem 0x%016" PRIx64 ": old value 0x%016" PRIx64 " err %d", red_name(k.red),
            k.sgn ? "signed" : "unsigned", k.mem, r.rdata, r.err);
      check(C, b.mem.get(a) == k.exp, "%s 64 %s mem 0x%016" PRIx64 " op 0x%016" PRIx64 ": memory 0x%016" PRIx64 ", expected 0x%016" PRIx64,
            red_name(k.red), k.sgn ? "signed" : "unsigned", k.mem, k.opnd, b.mem.get(a), k.exp);
    } else {
      for (int half = 0; half < 2; half++) {
        uint64_t a = base + 8 * rnd(32);
        const uint64_t S = 0xDEADBEEF;  // sentinel in the other half
        b.preset(a, half ? (k.mem << 32) | S : (S << 32) | k.mem);
        Result r = b.run_one(who, mk(OP_RMW, SZ4, a + 4 * half, 0xA5A5A5A500000000ull | k.opnd, k.red, k.sgn));
        who = (who + 1) % N;
        uint64_t want = half ? (k.exp << 32) | S : (S << 32) | k.exp;
        check(C, !r.err && r.rdata == k.mem, "%s 32 %s half %d mem 0x%08" PRIx64 ": old value 0x%016" PRIx64 " (zero-extended expected) err %d",
              red_name(k.red), k.sgn ? "signed" : "unsigned", half, k.mem, r.rdata, r.err);
        check(C, b.mem.get(a) == want, "%s 32 %s half %d mem 0x%08" PRIx64 " op 0x%08" PRIx64 ": word 0x%016" PRIx64 ", expected 0x%016" PRIx64
              " (other half must stay 0x%08" PRIx64 ")", red_name(k.red), k.sgn ? "signed" : "unsigned", half, k.mem, k.opnd,
              b.mem.get(a), want, S);
      }
    }
  }
  b.compare_all("rmw known answers");
}

void test_read_write(Bench& b) {
  g_phase = "read/write";
  const char* C = "rw";
  uint64_t a = MEM_BASE + 0x800;
  for (int who = 0; who < N; who++) {
    b.preset(a, 0x1122334455667788ull);
    Result r = b.run_one(who, mk(OP_READ, SZ4, a, 0));
    check(C, r.rdata == 0x55667788ull && !r.err, "READ 4 low half: 0x%016" PRIx64, r.rdata);
    r = b.run_one(who, mk(OP_READ, SZ4, a + 4, 0));
    check(C, r.rdata == 0x11223344ull && !r.err, "READ 4 high half: 0x%016" PRIx64 " (zero-extended expected)", r.rdata);
    r = b.run_one(who, mk(OP_READ, SZ8, a, 0));
    check(C, r.rdata == 0x1122334455667788ull && !r.err, "READ 8: 0x%016" PRIx64, r.rdata);
    b.run_one(who, mk(OP_WRITE, SZ4, a, 0xFFFFFFFFAABBCCDDull));
    check(C, b.mem.get(a) == 0x11223344AABBCCDDull, "WRITE 4 low half: word 0x%016" PRIx64, b.mem.get(a));
    b.run_one(who, mk(OP_WRITE, SZ4, a + 4, 0xFFFFFFFF99887766ull));
    check(C, b.mem.get(a) == 0x99887766AABBCCDDull, "WRITE 4 high half: word 0x%016" PRIx64, b.mem.get(a));
    b.run_one(who, mk(OP_WRITE, SZ8, a + 8, 0x0102030405060708ull));
    check(C, b.mem.get(a + 8) == 0x0102030405060708ull && b.mem.get(a) == 0x99887766AABBCCDDull, "WRITE 8");
    // 16-byte timestamped write
    uint64_t a16 = MEM_BASE + 0x900 + 16 * who;
    b.preset(a16 + 8, 0);
    uint64_t before = g_cycle;
    r = b.run_one(who, mk(OP_WRITE, SZ16, a16, 0xCAFEF00D12345678ull));
    uint64_t ts = b.mem.get(a16 + 8);
    check(C, !r.err && b.mem.get(a16) == 0xCAFEF00D12345678ull, "WRITE 16: word +0 0x%016" PRIx64, b.mem.get(a16));
    check(C, ts >= std::max(before, r.grant_cycle) && ts <= r.resp_cycle, "WRITE 16: timestamp %" PRIu64 " outside [%" PRIu64 ", %" PRIu64 "]",
          ts, r.grant_cycle, r.resp_cycle);
  }
  // address bits 39:32 go through
  uint64_t far = 0xFFFFFFFFF8ull;
  b.preset(far, 0x0F0E0D0C0B0A0908ull);
  Result r = b.run_one(1, mk(OP_READ, SZ8, far, 0));
  check(C, r.rdata == 0x0F0E0D0C0B0A0908ull, "READ at 0x%010" PRIx64 ": 0x%016" PRIx64, far, r.rdata);
  b.compare_all("read/write");
}

void test_errors(Bench& b) {
  g_phase = "bus errors";
  const char* C = "errors";
  uint64_t good = MEM_BASE + 0xA00;
  auto good_access = [&](int who) {
    b.preset(good, 41);
    Result r = b.run_one(who, mk(OP_RMW, SZ8, good, 1, IADD));
    check(C, !r.err && r.rdata == 41 && b.mem.get(good) == 42, "good RMW after an error: err %d old %" PRIu64 " mem %" PRIu64,
          r.err, r.rdata, b.mem.get(good));
  };
  for (int who = 0; who < N; who++) {
    for (uint64_t base : {RDERR_BASE, BOTHERR_BASE}) {
      uint64_t a = base + 8 * rnd(ERR_LEN / 8);
      Result r = b.run_one(who, mk(OP_READ, rnd(2) ? SZ8 : SZ4, a, 0));
      check(C, r.err, "READ at read-error address 0x%010" PRIx64 ": no as_err_o", a);
      good_access(who);
      uint64_t v0 = b.mem.get(a);
      uint64_t aw0 = b.mem.n_aw;
      r = b.run_one(who, mk(OP_RMW, SZ4, a + 4 * rnd(2), 1, IADD));
      check(C, r.err, "RMW with failing read at 0x%010" PRIx64 ": no as_err_o", a);
      check(C, b.mem.n_aw == aw0 && b.mem.get(a) == v0, "RMW with failing read wrote memory");
      good_access(who);
    }
    for (uint64_t base : {WRERR_BASE, BOTHERR_BASE}) {
      uint64_t a = base + 16 * rnd(ERR_LEN / 16);
      uint64_t v0 = b.mem.get(a);
      Result r = b.run_one(who, mk(OP_WRITE, SZ8, a, ~v0));
      check(C, r.err && b.mem.get(a) == v0, "WRITE at write-error address 0x%010" PRIx64 ": err %d", a, r.err);
      good_access(who);
      r = b.run_one(who, mk(OP_WRITE, SZ16, a, ~v0));
      check(C, r.err, "16-byte WRITE at write-error address 0x%010" PRIx64 ": no as_err_o", a);
      good_access(who);
      if (base == WRERR_BASE) {
        r = b.run_one(who, mk(OP_RMW, SZ8, a, 5, IADD));
        check(C, r.err && b.mem.get(a) == v0, "RMW with failing write at 0x%010" PRIx64 ": err %d", a, r.err);
        good_access(who);
      }
    }
    // an op code the unit does not know
    Result r = b.run_one(who, mk(OP_BAD, SZ8, good, 0));
    check(C, r.err, "unknown op code: no as_err_o");
    good_access(who);
  }
  b.compare_all("bus errors");
}

void test_atomicity(Bench& b, unsigned per) {
  g_phase = "atomicity";
  const char* C = "atomicity";
  uint64_t a = MEM_BASE + 0xC08;
  const uint64_t S = 0x600DF00D;
  uint32_t init = (uint32_t)(0xFFFFFFFFu - per);   // crosses the 2^32 wrap on the way
  b.preset(a, (S << 32) | init);
  size_t n0 = b.served.size();
  for (int i = 0; i < N; i++)
    for (unsigned k = 0; k < per; k++) b.rq[i].todo.push_back(mk(OP_RMW, SZ4, a, 1, IADD));
  b.run_until_idle();
  uint32_t got = (uint32_t)b.mem.get(a);
  uint32_t want = init + N * per;
  check(C, got == want && (b.mem.get(a) >> 32) == S, "%d x %u IADD 1 from 0x%08x: 0x%08x, expected 0x%08x (upper word 0x%08" PRIx64 ")",
        N, per, init, got, want, b.mem.get(a) >> 32);
  std::set<uint32_t> olds;
  for (size_t k = n0; k < b.served.size(); k++) olds.insert((uint32_t)b.served[k].rdata);
  check(C, olds.size() == (size_t)N * per, "old values returned: %zu distinct of %u (lost or duplicated updates)", olds.size(), N * per);
  b.compare_all("atomicity");
}

Req random_req(uint64_t pool) {
  Req q;
  unsigned r = (unsigned)rnd(100);
  q.op = r < 60 ? OP_RMW : r < 80 ? OP_READ : OP_WRITE;
  q.size = rnd(2) ? SZ4 : SZ8;
  if (rnd(4) == 0) q.size = rnd(2) ? SZ16 : SZ16W;   // a READ of 16 / 16W reads 8 / 4 bytes
  uint64_t a;
  unsigned where = (unsigned)rnd(100);
  if (where < 4) a = RDERR_BASE + 16 * rnd(4);
  else if (where < 8) a = WRERR_BASE + 16 * rnd(4);
  else if (where < 10) a = BOTHERR_BASE + 16 * rnd(4);
  else a = pool + 8 * rnd(6);          // 6 shared words
  if (q.size == SZ16 || q.size == SZ16W) a &= ~15ull;
  else if (q.size == SZ4) a += 4 * rnd(2);
  q.addr = a;
  q.red = (unsigned)rnd(8);
  q.sgn = rnd(2);
  switch (rnd(5)) {
    case 0: q.wdata = rnd(4); break;
    case 1: q.wdata = ~rnd(4); break;
    case 2: q.wdata = 0x7FFFFFFF + rnd(3) - 1; break;
    case 3: q.wdata = rnd(64); break;
    default: q.wdata = g_rng(); break;
  }
  return q;
}

void test_random(Bench& b, unsigned per) {
  g_phase = std::string("random ") + b.mem.cfg.name;
  uint64_t pool = MEM_BASE + 0xE00;
  for (int i = 0; i < N; i++) {
    b.rq[i].max_gap = (unsigned)rnd(4);
    for (unsigned k = 0; k < per; k++) b.rq[i].todo.push_back(random_req(pool));
  }
  size_t n0 = b.served.size();
  b.run_until_idle();
  check("random", b.served.size() - n0 == (size_t)N * per, "%zu responses for %u requests", b.served.size() - n0, N * per);
  b.compare_all(g_phase.c_str());
  for (int i = 0; i < N; i++) b.rq[i].max_gap = 3;
}

// ------------------------------------------------------------------ extended operations
Req mkx(unsigned xop, uint64_t addr, uint64_t wdata, unsigned tag, unsigned size = SZ4) {
  Req q = mk(OP_BAD, size, addr, wdata);   // aq_op_i is ignored with an extended operation
  q.xop = xop;
  q.rtag = tag;
  return q;
}

void test_extended(Bench& b) {
  g_phase = "extended ops";
  const char* C = "xop";
  uint64_t a = MEM_BASE + 0xC00;
  b.preset(a, 0x1111111122222222ull);
  // LR / SC pair: the SC writes
  Result r = b.run_one(0, mkx(XOP_LR, a, 0, 1));
  check(C, !r.err && r.rdata == 0x22222222ull, "LR: 0x%" PRIx64, r.rdata);
  r = b.run_one(0, mkx(XOP_SC, a, 0xAAAA5555, 1));
  check(C, !r.err && r.rdata == 0 && (b.mem.get(a) & 0xFFFFFFFF) == 0xAAAA5555, "SC after LR: %" PRIu64 " word 0x%016" PRIx64,
        r.rdata, b.mem.get(a));
  // a second SC fails: the first consumed the reservation
  r = b.run_one(0, mkx(XOP_SC, a, 0x1, 1));
  check(C, r.rdata == 1 && (b.mem.get(a) & 0xFFFFFFFF) == 0xAAAA5555, "second SC: %" PRIu64, r.rdata);
  // reservations are exact 4-byte words: another requester's WRITE or RMW to the other half of
  // the 8-byte beat keeps the reservation, an 8-byte WRITE over the beat breaks it
  b.run_one(1, mkx(XOP_LR, a, 0, 2));
  b.run_one(2, mk(OP_WRITE, SZ4, a + 4, 7));
  r = b.run_one(1, mkx(XOP_SC, a, 0x2, 2));
  check(C, r.rdata == 0 && (b.mem.get(a) & 0xFFFFFFFF) == 0x2, "SC after a WRITE to the other half of its beat: %" PRIu64,
        r.rdata);
  b.run_one(1, mkx(XOP_LR, a + 4, 0, 2));
  b.run_one(0, mk(OP_RMW, SZ4, a, 1, IADD));
  r = b.run_one(1, mkx(XOP_SC, a + 4, 0x9, 2));
  check(C, r.rdata == 0 && (b.mem.get(a) >> 32) == 0x9, "SC (high half) after an RMW on the low half: %" PRIu64, r.rdata);
  b.run_one(1, mkx(XOP_LR, a + 4, 0, 2));
  b.run_one(2, mk(OP_WRITE, SZ8, a, 0x0000000500000003ull));
  r = b.run_one(1, mkx(XOP_SC, a + 4, 0xA, 2));
  check(C, r.rdata == 1 && b.mem.get(a) == 0x0000000500000003ull, "SC after an 8-byte WRITE over its beat: %" PRIu64, r.rdata);
  b.run_one(1, mkx(XOP_LR, a, 0, 2));
  b.run_one(2, mk(OP_WRITE, SZ4, a, 7));
  r = b.run_one(1, mkx(XOP_SC, a, 0x2, 2));
  check(C, r.rdata == 1, "SC after a WRITE to its word: %" PRIu64, r.rdata);
  // ... an RMW too; a write elsewhere does not
  b.run_one(1, mkx(XOP_LR, a, 0, 3));
  b.run_one(2, mk(OP_WRITE, SZ8, a + 8, 7));
  r = b.run_one(1, mkx(XOP_SC, a, 0x3, 3));
  check(C, r.rdata == 0, "SC after a write to the next word: %" PRIu64, r.rdata);
  b.run_one(1, mkx(XOP_LR, a, 0, 3));
  b.run_one(0, mk(OP_RMW, SZ4, a, 1, IADD));
  r = b.run_one(1, mkx(XOP_SC, a, 0x4, 3));
  check(C, r.rdata == 1, "SC after an RMW: %" PRIu64, r.rdata);
  // one LR for several tags (tag + k for bit k of its data): each holds until a write to the word
  b.run_one(0, mkx(XOP_LR, a, 0b101, 1));            // tags 1 and 3, not 2
  r = b.run_one(1, mkx(XOP_SC, a, 0x31, 2));
  check(C, r.rdata == 1, "SC of a tag the multi-tag LR did not set: %" PRIu64, r.rdata);
  r = b.run_one(2, mkx(XOP_SC, a, 0x33, 3));
  check(C, r.rdata == 0 && (b.mem.get(a) & 0xFFFFFFFF) == 0x33, "SC of the LR's tag + 2: %" PRIu64, r.rdata);
  r = b.run_one(0, mkx(XOP_SC, a, 0x34, 1));
  check(C, r.rdata == 1 && (b.mem.get(a) & 0xFFFFFFFF) == 0x33, "SC of the LR's own tag after tag + 2 wrote: %" PRIu64, r.rdata);
  b.run_one(0, mkx(XOP_LR, a, 0xFFull << 1, 7));     // tags 7 and 0..6 (wrapping at NRES = 8)
  r = b.run_one(1, mkx(XOP_SC, a, 0x35, 0));
  check(C, r.rdata == 0, "SC of a wrapped tag of a multi-tag LR: %" PRIu64, r.rdata);
  // an SC with a reservation for another word, or another tag's, fails
  b.run_one(0, mkx(XOP_LR, a + 8, 0, 4));
  r = b.run_one(0, mkx(XOP_SC, a, 0x5, 4));
  check(C, r.rdata == 1, "SC on another word than its LR: %" PRIu64, r.rdata);
  b.run_one(0, mkx(XOP_LR, a, 0, 5));
  r = b.run_one(0, mkx(XOP_SC, a, 0x6, 6));
  check(C, r.rdata == 1, "SC with another tag: %" PRIu64, r.rdata);
  // a plain store (st_* port) to the word breaks the reservation, one to the other half does not
  b.run_one(0, mkx(XOP_LR, a, 0, 1));
  b.st_pulse(a);
  r = b.run_one(0, mkx(XOP_SC, a, 0x7, 1));
  check(C, r.rdata == 1, "SC after a plain store to its word: %" PRIu64, r.rdata);
  b.run_one(0, mkx(XOP_LR, a, 0, 1));
  b.st_pulse(a + 4);
  r = b.run_one(0, mkx(XOP_SC, a, 0x8, 1));
  check(C, r.rdata == 0, "SC after a plain store to the other half: %" PRIu64, r.rdata);
  // ... and one during the LR's read keeps the LR from setting its reservation
  b.rq[0].todo.push_back(mkx(XOP_LR, a, 0, 1));
  while (!b.svc && !b.stuck) b.tick();
  b.st_pulse(a);
  b.run_until_idle();
  b.res_v[1] = false;
  r = b.run_one(0, mkx(XOP_SC, a, 0x9, 1));
  check(C, r.rdata == 1, "SC after a plain store during its LR: %" PRIu64, r.rdata);
  // the SC-abort race: the SC is granted with its reservation, the memory holds its AW back, and
  // a plain store to its word is reported in that window: the store is ahead of the SC in the
  // write order, so the SC must fail and write nothing (its AW still goes out: never withdrawn)
  {
    b.preset(a, 0x0BADF00D12345678ull);
    b.run_one(2, mkx(XOP_LR, a, 0, 6));
    b.mem.hold_aw = true;
    b.rq[2].todo.push_back(mkx(XOP_SC, a, 0xDEAD, 6));
    unsigned waited = 0;
    while (!(b.svc && b.t->m_awvalid_o) && !b.stuck && waited++ < 200) b.tick();
    bool in_window = b.svc && b.svc_req.xop == XOP_SC && b.t->m_awvalid_o && b.svc_aw == 0;
    check(C, in_window, "SC abort: the SC's AW never came up (no window to hit)");
    b.st_pulse(a);   // the store's AW was accepted in a cycle the SC's was not
    check(C, b.sc_abort, "SC abort: the bench did not register the race");
    for (int k = 0; k < 5; k++) {
      check(C, b.t->m_awvalid_o, "SC abort: AW withdrawn before it was accepted");
      b.tick();
    }
    b.mem.hold_aw = false;
    size_t n = b.served.size();
    b.run_until_idle();
    r = b.served.size() > n ? b.served.back() : Result{};
    check(C, r.req.xop == XOP_SC && r.rdata == 1 && !r.err, "SC overtaken by a plain store: answer %" PRIu64 " err %d (want 1)",
          r.rdata, r.err);
    check(C, b.mem.get(a) == 0x0BADF00D12345678ull, "SC overtaken by a plain store wrote memory: 0x%016" PRIx64, b.mem.get(a));
    // the reservation is gone: a second SC fails at once
    r = b.run_one(2, mkx(XOP_SC, a, 0xBEEF, 6));
    check(C, r.rdata == 1 && b.mem.get(a) == 0x0BADF00D12345678ull, "SC after the aborted one: %" PRIu64, r.rdata);
    // the same window without a store: the SC writes once its AW is accepted
    b.run_one(2, mkx(XOP_LR, a, 0, 6));
    b.mem.hold_aw = true;
    b.rq[2].todo.push_back(mkx(XOP_SC, a, 0xC0DE, 6));
    waited = 0;
    while (!(b.svc && b.t->m_awvalid_o) && !b.stuck && waited++ < 200) b.tick();
    for (int k = 0; k < 5; k++) b.tick();
    b.mem.hold_aw = false;
    n = b.served.size();
    b.run_until_idle();
    r = b.served.size() > n ? b.served.back() : Result{};
    check(C, r.rdata == 0 && (b.mem.get(a) & 0xFFFFFFFF) == 0xC0DE, "SC held back without a store: answer %" PRIu64, r.rdata);
  }
  // SWAP: the old value back, the operand in memory (both halves, and 8 bytes)
  b.preset(a + 16, 0x0123456789ABCDEFull);
  r = b.run_one(2, mkx(XOP_SWAP, a + 16, 0xFFFFFFFF5A5A5A5Aull, 0));
  check(C, r.rdata == 0x89ABCDEFull && b.mem.get(a + 16) == 0x012345675A5A5A5Aull, "SWAP low: 0x%" PRIx64 " word 0x%016" PRIx64,
        r.rdata, b.mem.get(a + 16));
  r = b.run_one(2, mkx(XOP_SWAP, a + 20, 0x77, 0));
  check(C, r.rdata == 0x01234567ull && b.mem.get(a + 16) == 0x000000775A5A5A5Aull, "SWAP high: word 0x%016" PRIx64, b.mem.get(a + 16));
  r = b.run_one(2, mkx(XOP_SWAP, a + 16, 0xFEEDFACECAFEBEEFull, 0, SZ8));
  check(C, r.rdata == 0x000000775A5A5A5Aull && b.mem.get(a + 16) == 0xFEEDFACECAFEBEEFull, "SWAP 8");
  // SC / SWAP with bus errors: an SC that holds its reservation writes and reports the error
  b.run_one(0, mkx(XOP_LR, RDERR_BASE + 8, 0, 7));   // read error: no reservation
  r = b.run_one(0, mkx(XOP_SC, RDERR_BASE + 8, 1, 7));
  check(C, r.rdata == 1 && !r.err, "SC after a failed LR: %" PRIu64 " err %d", r.rdata, r.err);
  r = b.run_one(0, mkx(XOP_SWAP, RDERR_BASE + 16, 1, 0));
  check(C, r.err, "SWAP on a read error: no error reported");
  b.compare_all("extended ops");

  // random: LR / SC / SWAP / WRITE / RMW from 3 requesters, 8 tags, 4 words (the reference judges
  // every SC from its own reservation model)
  g_phase = "extended random";
  uint64_t pool = MEM_BASE + 0xD00;
  size_t pushed = 0;
  for (int i = 0; i < N; i++) {
    b.rq[i].max_gap = (unsigned)rnd(3);
    for (unsigned k = 0; k < 400; k++) {
      uint64_t w = pool + 4 * rnd(8);   // (an LR / SC pair counts as two of the 400)
      unsigned tag = (unsigned)(i + 3 * rnd(3)) % NRES;
      switch (rnd(6)) {
        case 0: case 1: case 2:   // an LR / SC pair (others may slip in between)
          b.rq[i].todo.push_back(mkx(XOP_LR, w, 0, tag));
          b.rq[i].todo.push_back(mkx(XOP_SC, rnd(8) ? w : pool + 4 * rnd(8), g_rng(), tag));
          k++;
          break;
        case 3: b.rq[i].todo.push_back(mkx(rnd(2) ? XOP_LR : XOP_SC, w, g_rng(), tag)); break;
        case 4: b.rq[i].todo.push_back(mkx(XOP_SWAP, w, g_rng(), 0)); break;
        default: b.rq[i].todo.push_back(rnd(2) ? mk(OP_WRITE, SZ4, w, g_rng()) : mk(OP_RMW, SZ4, w, 1, IADD)); break;
      }
    }
    pushed += b.rq[i].todo.size();
  }
  size_t n0 = b.served.size();
  b.run_until_idle();
  check("xop", b.served.size() - n0 == pushed, "%zu responses for %zu requests", b.served.size() - n0, pushed);
  unsigned sc_ok = 0;
  for (size_t k = n0; k < b.served.size(); k++)
    if (b.served[k].req.xop == XOP_SC && b.served[k].rdata == 0) sc_ok++;
  check("xop", sc_ok > 20, "only %u SCs succeeded: the random mix does not exercise reservations", sc_ok);
  b.compare_all(g_phase.c_str());
  for (int i = 0; i < N; i++) b.rq[i].max_gap = 3;
}

void test_rotation(Bench& b) {
  g_phase = "rotation";
  // every requester always has a request ready: grants must go 0,1,2,0,1,2,... (after the first)
  for (int i = 0; i < N; i++) {
    b.rq[i].max_gap = 0;
    for (int k = 0; k < 30; k++) b.rq[i].todo.push_back(mk(OP_READ, SZ8, MEM_BASE + 0x100 + 8 * i, 0));
  }
  size_t g0 = b.grant_log.size();
  b.run_until_idle();
  // when requester r is answered, it asks again one cycle later at the earliest; the others
  // already wait, so the strict rotation holds whenever all three wait at the grant: check the
  // sequence once every requester is loaded.
  unsigned bad = 0, n = 0;
  for (size_t k = g0 + N; k + 1 < b.grant_log.size() && k < g0 + 60; k++, n++)
    if (b.grant_log[k + 1] != (b.grant_log[k] + 1) % N) bad++;
  check("arb", bad == 0, "round robin rotation broken %u times in %u grants", bad, n);
  for (int i = 0; i < N; i++) b.rq[i].max_gap = 3;
}

}  // namespace

int main(int argc, char** argv) {
  uint64_t seed = 1;
  unsigned ops = 1500, lat = 20, nvec = 20000;
  double stall = 0.3;
  for (int i = 1; i < argc; i++) {
    const char* a = argv[i];
    if (!strncmp(a, "+seed=", 6)) seed = strtoull(a + 6, nullptr, 0);
    else if (!strncmp(a, "+ops=", 5)) ops = (unsigned)strtoul(a + 5, nullptr, 0);
    else if (!strncmp(a, "+lat=", 5)) lat = (unsigned)strtoul(a + 5, nullptr, 0);
    else if (!strncmp(a, "+stall=", 7)) stall = strtod(a + 7, nullptr);
    else if (!strncmp(a, "+stall_pct=", 11)) stall = strtod(a + 11, nullptr) / 100.0;  // make test STALL=P
    else if (!strncmp(a, "+vectors=", 9)) nvec = (unsigned)strtoul(a + 9, nullptr, 0);
    else if (a[0] >= '0' && a[0] <= '9') seed = strtoull(a, nullptr, 0);
  }
  printf("atomic_tb: seed %" PRIu64 " (rerun with +seed=%" PRIu64 "), N = %d, %u random ops per requester and config\n", seed, seed, N, ops);
  g_rng.seed(seed);
  gctb::Harness<Vatomic_tb_top> h(seed);
  h.cov_tag = "atomic";
  h.ctx->commandArgs(argc, argv);
  Vatomic_tb_top* t = h.top.get();

  test_functions(t, nvec);

  Bench b(h);
  b.reset();
  MemCfg fast;  fast.name = "fast";  fast.rd_lat = 1; fast.b_lat = 1; fast.jitter = 0;
  fast.p_ar = fast.p_aw = fast.p_w = fast.p_r = fast.p_b = 0;
  MemCfg stalls; stalls.name = "stalls";
  stalls.p_ar = stalls.p_aw = stalls.p_w = stalls.p_r = stalls.p_b = stall;
  MemCfg slow;  slow.name = "slow";  slow.rd_lat = lat; slow.b_lat = lat; slow.jitter = lat;
  slow.p_ar = slow.p_aw = slow.p_w = slow.p_r = slow.p_b = 0.7;

  b.mem.cfg = stalls;
  test_rmw_kat(b);
  test_read_write(b);
  test_errors(b);
  for (const MemCfg& c : {fast, stalls, slow}) {
    if (b.stuck) break;
    b.mem.cfg = c;
    test_atomicity(b, 500);
    test_random(b, ops);
    test_extended(b);
    test_rotation(b);
  }
  if (b.stuck) check("hang", false, "bench stopped: the unit hung");

  printf("checks by category (passed/failed):");
  for (auto& kv : g_cat) printf(" %s %" PRIu64 "/%" PRIu64, kv.first.c_str(), kv.second.first, kv.second.second);
  printf("\nrequests served %zu, cycles %" PRIu64 "\n", b.served.size(), g_cycle);
  printf("%" PRIu64 " passed, %" PRIu64 " failed\n", g_pass, g_fail);
  return g_fail ? 1 : 0;
}
