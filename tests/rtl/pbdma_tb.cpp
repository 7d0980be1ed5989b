// Block bench for the front end: PBDMAs + host schedulers (gc_pbdma x NUM_RUNLISTS), register
// block, atomic unit, copy engines, crossbar, i.e. gpu_top (tests/rtl/pbdma_tb_top.sv wraps it
// and only adds read-only event probes).
//
// Build: make build/rtl_pbdma/Vpbdma_tb_top (the rtl_bench rule of the Makefile: gpu_top's RTL, this
// top, this file on cosim/harness.h).
// Run:
//   build/rtl_pbdma/Vpbdma_tb_top [+seed=N]        (PBDMA_TB_DEBUG=1 prints the interleave trace)
//
// The bench has its own AXI4 memory model (32 MiB at address 0, DECERR above; per-ID in-order
// read data with random latency, IDs interleaved at random, random AR/AW/W ready and R/B valid
// stalls from the seeded RNG) and the harness's AXI4-Lite MMIO master; pushbuffers and GPFIFO entries are
// built by hand with the encoders of build/gen/gpucosim_spec.h. Checks:
//   (a) decode of every header form (INC, NON_INC, ONE_INC, IMMD, END_PB_SEGMENT, COUNT 0,
//       method data spanning entries, invalid SEC_OPs, GPFIFO control entries), runlist-0 engine
//       methods, REMAP component check - via METHODS counts, memory effects and ERROR records;
//   (b) scheduler: fairness of 4 equal channels (CYCLES_RESIDENT within 10%, switches by
//       TIMESLICE), interleave HIGH vs LOW (~3:1 turns), EMPTY switches, a copy in flight is
//       never cut (its channel runs no method during the copy while another channel does);
//       channel_switch_cycles measured from the method probes;
//   (c) semaphores end to end: every acquire op pass / fail (32 and 64 bit, circular GEQ across
//       the 2^32 wrap), reductions (INC wrap at the payload, DEC at 0, IMIN signed/unsigned,
//       IADD 64), 64-bit and timestamped releases, misaligned timestamp release, a stamped
//       reduction, a rejected reduction form, DMA_NOP words, a release-only copy-class
//       LAUNCH_DMA with a reduction, acquires woken
//       by another channel's release (acquire_wake_cycles, from the release's B response: the
//       snoop carries the value, <= 4 checked) and by a copy engine's plain data write on the word
//       (gc_mem_xbar's write snoop: <= 4 when the word is the burst's first beat, else a read at
//       once), ACQUIRE_TIMEOUT with the record while other channels finish;
//   (d) the copy-priority walk-through (Clow / Chigh with Shigh) and its baseline;
//   (e) runlist 0 with the real compute engine (hand-assembled one-thread kernels that spin on a
//       flag the bench sets): two channels' launches both taken while both tasks run, each
//       channel's next method (WFI, RELEASE_WFI, release) waits for its own task only (in
//       either completion order), a task that faults gives TASK_FAULT to its channel only; a
//       plain SIMT store (sw) release wakes an acquire of runlist 1 <= 4 cycles after its B.
// The last line is "N passed, M failed"; the exit status is non-zero on any failure.
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
#include <string>
#include <vector>

#include "Vpbdma_tb_top.h"
#include "../../cosim/gc_cov.h"
#include "gpucosim_spec.h"
#include "harness.h"

namespace {

// ------------------------------------------------------------------------------------------
// Globals
// ------------------------------------------------------------------------------------------
constexpr uint64_t MEM_SIZE = 32ull << 20;
constexpr uint64_t RING_BASE = 0x0100000;   // channel c ring at RING_BASE + c * 0x10000
constexpr uint32_t RING_LOG2 = 10;
constexpr uint64_t PB_BASE = 0x0400000, PB_END = 0x0800000;
constexpr uint64_t SEM_BASE = 0x0800000;    // semaphores
constexpr uint64_t BUF_BASE = 0x1000000;    // copy buffers
constexpr uint32_t NRL = GC_NUM_RUNLISTS;
constexpr uint32_t NCH = GC_NUM_CHANNELS;

gctb::Harness<Vpbdma_tb_top> *g_h = nullptr;   // the shared bench harness (cosim/harness.h)
Vpbdma_tb_top *top = nullptr;
uint64_t g_cycle = 0;
std::mt19937_64 g_rng;
int g_pass = 0, g_fail = 0;

uint64_t rnd(uint64_t n) { return n ? g_rng() % n : 0; }

void check(bool ok, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char buf[512];
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  if (ok) {
    g_pass++;
    printf("  ok   %s\n", buf);
  } else {
    g_fail++;
    printf("  FAIL %s (cycle %" PRIu64 ")\n", buf, g_cycle);
  }
}

// ------------------------------------------------------------------------------------------
// Memory model
// ------------------------------------------------------------------------------------------
std::vector<uint8_t> mem(MEM_SIZE);

struct MemCfg {
  int lat_min = 8, lat_max = 24;
  int ar_ready_pct = 85, aw_ready_pct = 85, w_ready_pct = 90, r_stall_pct = 10, b_stall_pct = 10;
} cfg;

struct RdReq {
  uint64_t addr;
  int len, id, beat;
  uint64_t ready;
};
struct WrReq {
  uint64_t addr;
  int len, id, beat;
};
struct BResp {
  int id;
  uint64_t ready;
  uint8_t resp;
  uint64_t addr;
  int len;
};
// completed writes (B handshakes) and read addresses issued (AR handshakes), with their cycles
struct WrDone {
  uint64_t addr;
  int len, id;
  uint64_t cyc;
};
std::vector<WrDone> wr_done;
std::vector<std::pair<uint64_t, uint64_t>> ar_log;   // (cycle, address)
std::deque<RdReq> rq[16];
uint64_t rd_last_ready[16];
std::deque<WrReq> wq;
std::deque<BResp> bq;
uint8_t wr_err_acc = 0;
int r_cur = -1;        // ID whose beat is presented
bool b_pres = false;

// write log for the semaphore region: 8-byte word address -> cycles it was written
std::map<uint64_t, std::vector<uint64_t>> sem_writes;

uint8_t resp_for(uint64_t a) { return (a + 8 > MEM_SIZE) ? 3 : 0; }

uint32_t rd32(uint64_t a) { uint32_t v; memcpy(&v, &mem[a], 4); return v; }
uint64_t rd64(uint64_t a) { uint64_t v; memcpy(&v, &mem[a], 8); return v; }
void wr32(uint64_t a, uint32_t v) { memcpy(&mem[a], &v, 4); }
void wr64(uint64_t a, uint64_t v) { memcpy(&mem[a], &v, 8); }

// ------------------------------------------------------------------------------------------
// Probes
// ------------------------------------------------------------------------------------------
struct Ev {
  uint64_t cyc;
  uint32_t rl, ch;
};
std::vector<Ev> ev_mthd, ev_sw, ev_done;
std::vector<std::pair<uint64_t, uint64_t>> ev_snoop;
uint64_t mthd_cnt[NCH];

// ------------------------------------------------------------------------------------------
// One clock cycle: the harness's tick() with the two hooks below (main sets them)
// ------------------------------------------------------------------------------------------
// This edge's AXI handshakes (pre-edge values), for the memory model after the edge
struct EdgeHs {
  bool ar_hs;
  uint64_t ar_addr;
  int ar_len, ar_id;
  bool r_hs, aw_hs;
  uint64_t aw_addr;
  int aw_len, aw_id;
  bool w_hs;
  uint64_t wdata;
  uint32_t wstrb;
  bool wlast, b_hs;
} g_hs;

void pre_edge() {
  // ---- sample handshakes (pre-edge values) ----
  g_hs = EdgeHs{top->m_arvalid_o && top->m_arready_i, top->m_araddr_o, top->m_arlen_o, top->m_arid_o,
                top->m_rvalid_i && top->m_rready_o, top->m_awvalid_o && top->m_awready_i, top->m_awaddr_o,
                top->m_awlen_o, top->m_awid_o, top->m_wvalid_o && top->m_wready_i, top->m_wdata_o,
                top->m_wstrb_o, (bool)top->m_wlast_o, top->m_bvalid_i && top->m_bready_o};

  for (uint32_t r = 0; r < NRL; r++) {
    if ((top->p_mthd_inc_o >> r) & 1) {
      uint32_t ch = (top->p_mthd_ch_o >> (4 * r)) & 0xF;
      ev_mthd.push_back({g_cycle, r, ch});
      mthd_cnt[ch]++;
    }
    if ((top->p_sw_valid_o >> r) & 1) ev_sw.push_back({g_cycle, r, (top->p_sw_ch_o >> (4 * r)) & 0xFu});
    if ((top->p_ce_done_o >> r) & 1) ev_done.push_back({g_cycle, r, 0});
  }
  if (top->p_snoop_valid_o) ev_snoop.push_back({g_cycle, top->p_snoop_addr_o});
}

void post_edge() {
  g_cycle++;
  const auto [ar_hs, ar_addr, ar_len, ar_id, r_hs, aw_hs, aw_addr, aw_len, aw_id, w_hs, wdata, wstrb, wlast, b_hs] =
      g_hs;

  // ---- model updates ----
  if (ar_hs) {
    if (ar_addr & 7) { printf("AXI: unaligned AR %" PRIx64 "\n", ar_addr); g_fail++; }
    if ((ar_addr >> 12) != ((ar_addr + 8 * (ar_len + 1) - 1) >> 12)) {
      printf("AXI: AR crosses 4 KiB %" PRIx64 "\n", ar_addr); g_fail++;
    }
    uint64_t ready = g_cycle + cfg.lat_min + rnd(cfg.lat_max - cfg.lat_min + 1);
    ready = std::max(ready, rd_last_ready[ar_id]);
    rd_last_ready[ar_id] = ready;
    rq[ar_id].push_back({ar_addr, ar_len, ar_id, 0, ready});
    ar_log.push_back({g_cycle - 1, ar_addr});
  }
  if (r_hs) {
    RdReq &q = rq[r_cur].front();
    q.beat++;
    if (q.beat > q.len) rq[r_cur].pop_front();
    r_cur = -1;
  }
  if (aw_hs) wq.push_back({aw_addr, aw_len, aw_id, 0});
  if (w_hs) {
    if (wq.empty()) { printf("AXI: W without AW\n"); g_fail++; }
    else {
      WrReq &q = wq.front();
      uint64_t a = q.addr + 8ull * q.beat;
      uint8_t resp = resp_for(a);
      wr_err_acc |= resp;
      if (!resp) {
        for (int b = 0; b < 8; b++)
          if ((wstrb >> b) & 1) mem[a + b] = (uint8_t)(wdata >> (8 * b));
        if (a >= SEM_BASE && a < BUF_BASE && wstrb) sem_writes[a].push_back(g_cycle);
      }
      if (wlast != (q.beat == q.len)) { printf("AXI: wlast wrong\n"); g_fail++; }
      q.beat++;
      if (q.beat > q.len) {
        bq.push_back({q.id, g_cycle + 2 + rnd(6), wr_err_acc, q.addr, q.len});
        wr_err_acc = 0;
        wq.pop_front();
      }
    }
  }
  if (b_hs) {
    wr_done.push_back({bq.front().addr, bq.front().len, bq.front().id, g_cycle - 1});
    bq.pop_front();
    b_pres = false;
  }

  // ---- next inputs ----
  top->m_arready_i = (int)rnd(100) < cfg.ar_ready_pct;
  top->m_awready_i = (int)rnd(100) < cfg.aw_ready_pct;
  top->m_wready_i = (int)rnd(100) < cfg.w_ready_pct;
  if (r_cur < 0) {
    // pick a ready ID at random (read data of different IDs may interleave)
    int cand[16], n = 0;
    for (int i = 0; i < 16; i++)
      if (!rq[i].empty() && rq[i].front().ready <= g_cycle) cand[n++] = i;
    if (n && (int)rnd(100) >= cfg.r_stall_pct) r_cur = cand[rnd(n)];
  }
  if (r_cur >= 0) {
    RdReq &q = rq[r_cur].front();
    uint64_t a = q.addr + 8ull * q.beat;
    uint8_t resp = resp_for(a);
    top->m_rvalid_i = 1;
    top->m_rid_i = r_cur;
    top->m_rdata_i = resp ? 0 : rd64(a);
    top->m_rresp_i = resp;
    top->m_rlast_i = q.beat == q.len;
  } else {
    top->m_rvalid_i = 0;
  }
  if (!b_pres && !bq.empty() && bq.front().ready <= g_cycle && (int)rnd(100) >= cfg.b_stall_pct)
    b_pres = true;
  top->m_bvalid_i = b_pres;
  if (b_pres) {
    top->m_bid_i = bq.front().id;
    top->m_bresp_i = bq.front().resp;
  }
}

void step() { g_h->tick(); }

void run(uint64_t n) {
  for (uint64_t i = 0; i < n; i++) step();
}

// ------------------------------------------------------------------------------------------
// AXI4-Lite MMIO driver
// ------------------------------------------------------------------------------------------
// On the harness's AXI4-Lite master: the response (0..3); a timeout is a failure
uint32_t mmio_write(uint32_t a, uint32_t d) {
  int resp = g_h->axil_write(a, d, 1000);
  if (resp >= 0) return (uint32_t)resp;
  printf("MMIO write timeout\n");
  g_fail++;
  return 3;
}

uint32_t mmio_read(uint32_t a) {
  uint32_t d = 0;
  if (g_h->axil_read(a, &d, 1000) >= 0) return d;
  printf("MMIO read timeout\n");
  g_fail++;
  return 0;
}

// ------------------------------------------------------------------------------------------
// Channels, pushbuffers
// ------------------------------------------------------------------------------------------
uint64_t pb_next = PB_BASE;
uint32_t put_idx[NCH];

uint64_t pb_alloc(size_t bytes) {
  uint64_t a = pb_next;
  pb_next += (bytes + 63) & ~63ull;
  if (pb_next >= PB_END) pb_next = PB_BASE, a = pb_next, pb_next += (bytes + 63) & ~63ull;
  return a;
}

uint64_t ring_of(uint32_t c) { return RING_BASE + 0x10000ull * c; }

void ch_init(uint32_t c, uint32_t rl, uint32_t ts = 1024, uint32_t il = 0, uint32_t tmo = 0) {
  mmio_write(GC_REG_CHANNEL_CTRL(c), GC_CHANNEL_CTRL_RESET(1));
  mmio_write(GC_REG_CHANNEL_GPFIFO_BASE_LO(c), (uint32_t)ring_of(c));
  mmio_write(GC_REG_CHANNEL_GPFIFO_BASE_HI(c), (uint32_t)(ring_of(c) >> 32));
  mmio_write(GC_REG_CHANNEL_GPFIFO_SIZE(c), RING_LOG2);
  mmio_write(GC_REG_CHANNEL_RUNLIST(c), rl);
  mmio_write(GC_REG_CHANNEL_TIMESLICE(c), ts);
  mmio_write(GC_REG_CHANNEL_INTERLEAVE(c), il);
  mmio_write(GC_REG_CHANNEL_ACQ_TIMEOUT(c), tmo);
  mmio_write(GC_REG_CHANNEL_CTRL(c), GC_CHANNEL_CTRL_ENABLE(1));
  put_idx[c] = 0;
}

void gp_write(uint32_t c, uint32_t e0, uint32_t e1) {
  uint64_t a = ring_of(c) + 8ull * (put_idx[c] & ((1u << RING_LOG2) - 1));
  wr32(a, e0);
  wr32(a + 4, e1);
  put_idx[c] = (put_idx[c] + 1) & ((1u << RING_LOG2) - 1);
}
void doorbell(uint32_t c) { mmio_write(GC_REG_CHANNEL_GP_PUT(c), put_idx[c]); }

// Append an entry (pushbuffer copied into memory); ring the doorbell unless told not to
uint64_t submit(uint32_t c, const std::vector<uint32_t> &pb, bool ring = true, bool sync = false,
                uint32_t len_override = 0) {
  uint64_t a = pb_alloc(pb.size() * 4 + 8);
  for (size_t i = 0; i < pb.size(); i++) wr32(a + 4 * i, pb[i]);
  uint32_t len = len_override ? len_override : (uint32_t)pb.size();
  gp_write(c, gc_gp_entry0(a), gc_gp_entry1(a, len, GC_GP_ENTRY1_LEVEL_MAIN,
                                             sync ? GC_GP_ENTRY1_SYNC_WAIT : GC_GP_ENTRY1_SYNC_PROCEED));
  if (ring) doorbell(c);
  return a;
}

struct PB {
  std::vector<uint32_t> w;
  PB &inc(uint32_t sc, uint32_t off, std::initializer_list<uint32_t> d) {
    w.push_back(gc_mh_incr(sc, off, (uint32_t)d.size()));
    w.insert(w.end(), d.begin(), d.end());
    return *this;
  }
  PB &noninc(uint32_t sc, uint32_t off, const std::vector<uint32_t> &d) {
    w.push_back(gc_mh_nonincr(sc, off, (uint32_t)d.size()));
    w.insert(w.end(), d.begin(), d.end());
    return *this;
  }
  PB &oneinc(uint32_t sc, uint32_t off, std::initializer_list<uint32_t> d) {
    w.push_back(gc_mh_oneincr(sc, off, (uint32_t)d.size()));
    w.insert(w.end(), d.begin(), d.end());
    return *this;
  }
  PB &immd(uint32_t sc, uint32_t off, uint32_t v) { w.push_back(gc_mh_immd(sc, off, v)); return *this; }
  PB &nops(uint32_t n) { return noninc(0, GC_HOST_NOP, std::vector<uint32_t>(n, 0)); }
  PB &raw(uint32_t x) { w.push_back(x); return *this; }
  PB &sem(uint64_t addr, uint64_t pay, uint32_t exec, uint32_t sc = 0) {
    return inc(sc, GC_HOST_SEM_ADDR_LO, {(uint32_t)addr, (uint32_t)(addr >> 32), (uint32_t)pay,
                                         (uint32_t)(pay >> 32), exec});
  }
  PB &set_obj(uint32_t sc = 0) { return inc(sc, GC_HOST_SET_OBJECT, {GC_CLASS_COPY}); }
  PB &copy(uint64_t src, uint64_t dst, uint32_t len, uint64_t sem = 0, uint32_t pay = 0,
           uint32_t extra = 0, uint32_t sc = 0) {
    inc(sc, GC_COPY_OFFSET_IN_UPPER, {(uint32_t)(src >> 32), (uint32_t)src, (uint32_t)(dst >> 32),
                                      (uint32_t)dst});
    inc(sc, GC_COPY_LINE_LENGTH_IN, {len, 1});
    uint32_t f = GC_COPY_LAUNCH_DMA_DATA_TRANSFER_TYPE(GC_COPY_LAUNCH_DMA_DATA_TRANSFER_TYPE_NON_PIPELINED) |
                 GC_COPY_LAUNCH_DMA_SRC_MEMORY_LAYOUT(GC_COPY_LAUNCH_DMA_SRC_MEMORY_LAYOUT_PITCH) |
                 GC_COPY_LAUNCH_DMA_DST_MEMORY_LAYOUT(GC_COPY_LAUNCH_DMA_DST_MEMORY_LAYOUT_PITCH) | extra;
    if (sem) {
      inc(sc, GC_COPY_SET_SEMAPHORE_A, {(uint32_t)(sem >> 32), (uint32_t)sem, pay});
      f |= GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE(GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE_RELEASE_ONE_WORD_SEMAPHORE);
    }
    return inc(sc, GC_COPY_LAUNCH_DMA, {f});
  }
};

uint32_t ex(uint32_t op, bool is64 = false, uint32_t red = 0, bool sw = false, bool ts = false,
            bool sign = false, bool wfi = false) {
  return GC_HOST_SEM_EXECUTE_OPERATION(op) | GC_HOST_SEM_EXECUTE_PAYLOAD_SIZE(is64 ? 1 : 0) |
         GC_HOST_SEM_EXECUTE_REDUCTION(red) | GC_HOST_SEM_EXECUTE_ACQUIRE_SWITCH_TSG(sw ? 1 : 0) |
         GC_HOST_SEM_EXECUTE_RELEASE_TIMESTAMP(ts ? 1 : 0) |
         GC_HOST_SEM_EXECUTE_RELEASE_WFI(wfi ? 1 : 0) |
         GC_HOST_SEM_EXECUTE_REDUCTION_FORMAT(sign ? GC_HOST_SEM_EXECUTE_REDUCTION_FORMAT_SIGNED
                                                   : GC_HOST_SEM_EXECUTE_REDUCTION_FORMAT_UNSIGNED);
}
const uint32_t REL32 = GC_HOST_SEM_EXECUTE_OPERATION_RELEASE;

uint32_t rd_reg(uint32_t a) { return mmio_read(a); }
uint32_t err_of(uint32_t c) { return GC_CHANNEL_ERROR_CAUSE_GET(rd_reg(GC_REG_CHANNEL_ERROR(c))); }

// Wait until every channel drained its ring (and its copies) or faulted
bool wait_done(std::vector<uint32_t> chs, uint64_t max_cycles) {
  uint64_t end = g_cycle + max_cycles;
  while (g_cycle < end) {
    bool all = true;
    for (uint32_t c : chs) {
      if (err_of(c)) continue;
      uint32_t st = rd_reg(GC_REG_CHANNEL_STATUS(c));
      if (rd_reg(GC_REG_CHANNEL_GP_GET(c)) != put_idx[c] || GC_CHANNEL_STATUS_ENGINE_BUSY_GET(st) ||
          GC_CHANNEL_STATUS_PENDING_GET(st)) {
        all = false;
        break;
      }
    }
    if (all) return true;
    run(20);
  }
  return false;
}

uint64_t sem_next = SEM_BASE;
uint64_t sem_alloc(uint64_t align = 16) {
  sem_next = (sem_next + align - 1) & ~(align - 1);
  uint64_t a = sem_next;
  sem_next += 16;
  return a;
}

void dump_ch(uint32_t c) {
  printf("    ch%u: GP_GET %u PUT %u ERR %s METHODS %u STATUS %x RES %u SW ts/acq/eng/empty %u/%u/%u/%u\n", c,
         rd_reg(GC_REG_CHANNEL_GP_GET(c)), put_idx[c], gc_error_cause_name(err_of(c)),
         rd_reg(GC_REG_CHANNEL_METHODS(c)), rd_reg(GC_REG_CHANNEL_STATUS(c)),
         rd_reg(GC_REG_CHANNEL_CYCLES_RESIDENT(c)), rd_reg(GC_REG_CHANNEL_SWITCH_TIMESLICE(c)),
         rd_reg(GC_REG_CHANNEL_SWITCH_ACQUIRE(c)), rd_reg(GC_REG_CHANNEL_SWITCH_ENGINE(c)),
         rd_reg(GC_REG_CHANNEL_SWITCH_EMPTY(c)));
  for (uint32_t r = 0; r < NRL; r++) {
    uint32_t d = rd_reg(GC_REG_RUNLIST_DBG(r));
    printf("    RL%u: %s ch %u left %u\n", r, gc_pbdma_state_name(GC_RUNLIST_DBG_STATE_GET(d)),
           GC_RUNLIST_DBG_CHANNEL_GET(d), GC_RUNLIST_DBG_PB_LEFT_GET(d));
  }
}

// ==========================================================================================
// (a) decode
// ==========================================================================================
void test_decode() {
  printf("(a) decode\n");
  const uint32_t c = 0;
  ch_init(c, 0);
  uint64_t s1 = sem_alloc(), s2 = sem_alloc(), s3 = sem_alloc(), s4 = sem_alloc(), s5 = sem_alloc(),
           s6 = sem_alloc();
  uint32_t m0 = rd_reg(GC_REG_CHANNEL_METHODS(c));
  uint32_t expect = 0;
  // INC: 5 methods
  PB p1; p1.sem(s1, 0x11111111, ex(REL32)); expect += 5;
  // NON_INC: 3 payloads, the last one wins; COUNT 0 header in between; then INC SEM_EXECUTE
  p1.inc(0, GC_HOST_SEM_ADDR_LO, {(uint32_t)s2, 0}); expect += 2;
  p1.noninc(0, GC_HOST_SEM_PAYLOAD_LO, {1, 2, 0x22222222}); expect += 3;
  p1.raw(gc_mh_incr(0, GC_HOST_NOP, 0));  // COUNT 0: no method
  p1.inc(0, GC_HOST_SEM_EXECUTE, {ex(REL32)}); expect += 1;
  // ONE_INC at PAYLOAD_LO: LO=X, HI=Y, HI=Z; then a 64-bit release
  p1.inc(0, GC_HOST_SEM_ADDR_LO, {(uint32_t)s3, 0}); expect += 2;
  p1.oneinc(0, GC_HOST_SEM_PAYLOAD_LO, {0x33333333, 0x0BAD0BAD, 0x44444444}); expect += 3;
  p1.inc(0, GC_HOST_SEM_EXECUTE, {ex(REL32, true)}); expect += 1;
  // IMMD: SEM_EXECUTE RELEASE with PAYLOAD_LO = 0x55
  p1.inc(0, GC_HOST_SEM_ADDR_LO, {(uint32_t)s4, 0, 0x55}); expect += 3;
  p1.immd(0, GC_HOST_SEM_EXECUTE, ex(REL32)); expect += 1;
  submit(c, p1.w);
  // Method data spanning two entries
  PB pa, pb;
  pa.raw(gc_mh_incr(0, GC_HOST_SEM_ADDR_LO, 5)).raw((uint32_t)s5).raw(0);
  pb.raw(0x66666666).raw(0).raw(ex(REL32)); expect += 5;
  submit(c, pa.w, false);
  submit(c, pb.w);
  // END_PB_SEGMENT: the rest of the entry is skipped; control entry NOP skipped
  PB pe; pe.sem(s6, 0x77777777, ex(REL32)).raw(gc_mh_end_segment()); expect += 5;
  pe.sem(s6, 0xDEADDEAD, ex(REL32));
  submit(c, pe.w);
  gp_write(c, 0, GC_GP_ENTRY1_OPCODE(GC_GP_ENTRY1_OPCODE_NOP));
  doorbell(c);
  PB pn; pn.nops(4); expect += 4;
  submit(c, pn.w);
  bool done = wait_done({c}, 20000);
  check(done && err_of(c) == 0, "decode stream completed without fault");
  check(rd32(s1) == 0x11111111, "INC: release 0x%08x", rd32(s1));
  check(rd32(s2) == 0x22222222, "NON_INC: last payload wins 0x%08x", rd32(s2));
  check(rd64(s3) == 0x4444444433333333ull, "ONE_INC + 64-bit release 0x%016" PRIx64, rd64(s3));
  check(rd32(s4) == 0x55, "IMMD SEM_EXECUTE 0x%08x", rd32(s4));
  check(rd32(s5) == 0x66666666, "method data spanning entries 0x%08x", rd32(s5));
  check(rd32(s6) == 0x77777777, "END_PB_SEGMENT skips the rest 0x%08x", rd32(s6));
  uint32_t m = rd_reg(GC_REG_CHANNEL_METHODS(c)) - m0;
  check(m == expect, "METHODS count %u (expected %u; COUNT 0 and headers not counted)", m, expect);

  // Invalid SEC_OPs fault with the header recorded
  const uint32_t bad_ops[3] = {GC_METHOD_HEADER_SEC_OP_GRP0_USE_TERT, GC_METHOD_HEADER_SEC_OP_GRP2_USE_TERT,
                               GC_METHOD_HEADER_SEC_OP_RESERVED6};
  for (uint32_t op : bad_ops) {
    ch_init(1, 0);
    uint32_t hdr = gc_method_header(op, 2, GC_HOST_NOP, 1);
    PB p; p.nops(2).raw(hdr).raw(0).nops(1);
    submit(1, p.w);
    wait_done({1}, 5000);
    check(err_of(1) == GC_ERROR_CAUSE_INVALID_METHOD_HEADER &&
              rd_reg(GC_REG_CHANNEL_ERROR_DATA(1)) == hdr && rd_reg(GC_REG_CHANNEL_METHODS(1)) >= 2,
          "SEC_OP %u -> INVALID_METHOD_HEADER, ERROR_DATA = header", op);
  }
  // Control entry with a non-NOP opcode
  ch_init(1, 0);
  gp_write(1, 0, GC_GP_ENTRY1_OPCODE(GC_GP_ENTRY1_OPCODE_ILLEGAL));
  doorbell(1);
  wait_done({1}, 5000);
  check(err_of(1) == GC_ERROR_CAUSE_INVALID_GPFIFO_ENTRY, "control entry ILLEGAL -> INVALID_GPFIFO_ENTRY");
  // Runlist 0 has no engine: SET_OBJECT COPY binds, LAUNCH_DMA faults UNSUPPORTED
  ch_init(1, 0);
  { PB p; p.set_obj(1).copy(BUF_BASE, BUF_BASE + 0x1000, 64, 0, 0, 0, 1); submit(1, p.w); }
  wait_done({1}, 5000);
  check(err_of(1) == GC_ERROR_CAUSE_UNSUPPORTED, "runlist 0: copy-class method -> UNSUPPORTED (%s)",
        gc_error_cause_name(err_of(1)));
  // REMAP with a source component (Y, which exists with two destination components) on a CE
  // runlist: UNSUPPORTED.  (With one component, Y's selector is ignored: test_frontend.)
  ch_init(1, 1);
  {
    PB p;
    p.set_obj(0).inc(0, GC_COPY_SET_REMAP_COMPONENTS,
                     {GC_COPY_SET_REMAP_COMPONENTS_DST_X(GC_COPY_SET_REMAP_COMPONENTS_DST_X_CONST_A) |
                      GC_COPY_SET_REMAP_COMPONENTS_DST_Y(GC_COPY_SET_REMAP_COMPONENTS_DST_Y_SRC_X) |
                      GC_COPY_SET_REMAP_COMPONENTS_NUM_DST_COMPONENTS(
                          GC_COPY_SET_REMAP_COMPONENTS_NUM_DST_COMPONENTS_TWO)});
    p.copy(BUF_BASE, BUF_BASE + 0x1000, 16, 0, 0, GC_COPY_LAUNCH_DMA_REMAP_ENABLE(1));
    submit(1, p.w);
  }
  wait_done({1}, 5000);
  check(err_of(1) == GC_ERROR_CAUSE_UNSUPPORTED &&
            GC_CHANNEL_ERROR_METHOD_ADDRESS_GET(rd_reg(GC_REG_CHANNEL_ERROR_METHOD(1))) ==
                GC_COPY_LAUNCH_DMA / 4,
        "REMAP with a SRC component -> UNSUPPORTED at LAUNCH_DMA");
  // REMAP memset (CONST_A x4 of 1 byte... here CONST_A/CONST_B 4-byte components) works
  ch_init(1, 1);
  {
    uint64_t dst = BUF_BASE + 0x20000;
    memset(&mem[dst], 0xEE, 256);
    PB p;
    p.set_obj(0).inc(0, GC_COPY_SET_REMAP_CONST_A, {0xA0A0A0A0, 0xB0B0B0B0,
        GC_COPY_SET_REMAP_COMPONENTS_DST_X(GC_COPY_SET_REMAP_COMPONENTS_DST_X_CONST_A) |
        GC_COPY_SET_REMAP_COMPONENTS_DST_Y(GC_COPY_SET_REMAP_COMPONENTS_DST_Y_CONST_B) |
        GC_COPY_SET_REMAP_COMPONENTS_DST_Z(GC_COPY_SET_REMAP_COMPONENTS_DST_Z_NO_WRITE) |
        GC_COPY_SET_REMAP_COMPONENTS_DST_W(GC_COPY_SET_REMAP_COMPONENTS_DST_W_NO_WRITE) |
        GC_COPY_SET_REMAP_COMPONENTS_COMPONENT_SIZE(GC_COPY_SET_REMAP_COMPONENTS_COMPONENT_SIZE_FOUR) |
        GC_COPY_SET_REMAP_COMPONENTS_NUM_DST_COMPONENTS(GC_COPY_SET_REMAP_COMPONENTS_NUM_DST_COMPONENTS_TWO)});
    p.copy(0, dst, 16, 0, 0, GC_COPY_LAUNCH_DMA_REMAP_ENABLE(1));
    submit(1, p.w);
    wait_done({1}, 10000);
    bool ok = err_of(1) == 0;
    for (int i = 0; i < 16 && ok; i++) ok = rd32(dst + 8 * i) == 0xA0A0A0A0 && rd32(dst + 8 * i + 4) == 0xB0B0B0B0;
    ok = ok && mem[dst + 128] == 0xEE;
    check(ok, "REMAP memset {CONST_A, CONST_B} x 16 elements written through the CE");
  }
}

// ==========================================================================================
// (b) scheduler
// ==========================================================================================
double g_switch_avg = 0, g_dec_avg = 0;
uint64_t g_switch_min = 0, g_switch_max = 0, g_dec_max = 0;

// The switch itself: from each switch away on runlist rl (the PBDMA's sw_valid, in the cycle it
// decides at a method boundary) to the next method of another channel there.
void switch_cost(uint32_t rl, size_t from_m, size_t from_sw, uint64_t &mn, uint64_t &mx, double &avg,
                 int &n) {
  mn = ~0ull; mx = 0; avg = 0; n = 0;
  size_t m = from_m;
  for (size_t i = from_sw; i < ev_sw.size(); i++) {
    const Ev &s = ev_sw[i];
    if (s.rl != rl) continue;
    while (m < ev_mthd.size() && (ev_mthd[m].cyc <= s.cyc || ev_mthd[m].rl != rl)) m++;
    if (m == ev_mthd.size()) break;
    if (ev_mthd[m].ch == s.ch) continue;   // came back to the same channel (nobody else ran)
    uint64_t d = ev_mthd[m].cyc - s.cyc;
    mn = std::min(mn, d); mx = std::max(mx, d); avg += d; n++;
  }
  if (n) avg /= n;
}

void switch_stats(uint32_t rl, size_t from, uint64_t &mn, uint64_t &mx, double &avg, int &n) {
  mn = ~0ull; mx = 0; avg = 0; n = 0;
  const Ev *prev = nullptr;
  for (size_t i = from; i < ev_mthd.size(); i++) {
    const Ev &e = ev_mthd[i];
    if (e.rl != rl) continue;
    if (prev && prev->ch != e.ch) {
      uint64_t d = e.cyc - prev->cyc;
      mn = std::min(mn, d); mx = std::max(mx, d); avg += d; n++;
    }
    prev = &e;
  }
  if (n) avg /= n;
}

void test_sched() {
  printf("(b) scheduler\n");
  // b1: fairness, 4 channels on runlist 0 with long NOP + release streams, equal slices
  const uint32_t chs[4] = {2, 3, 4, 5};
  uint32_t res0[4], ts0[4];
  for (uint32_t c : chs) ch_init(c, 0, 400);
  for (int i = 0; i < 4; i++) {
    res0[i] = rd_reg(GC_REG_CHANNEL_CYCLES_RESIDENT(chs[i]));
    ts0[i] = rd_reg(GC_REG_CHANNEL_SWITCH_TIMESLICE(chs[i]));
  }
  std::vector<uint64_t> sems;
  for (int i = 0; i < 4; i++) sems.push_back(sem_alloc());
  for (int e = 0; e < 80; e++)
    for (int i = 0; i < 4; i++) {
      PB p; p.nops(150).sem(sems[i], e + 1, ex(REL32));
      submit(chs[i], p.w, false);
    }
  size_t ev0 = ev_mthd.size(), sw0 = ev_sw.size();
  for (uint32_t c : chs) doorbell(c);
  run(40000);
  uint32_t res[4], sw[4];
  double mean = 0;
  for (int i = 0; i < 4; i++) {
    res[i] = rd_reg(GC_REG_CHANNEL_CYCLES_RESIDENT(chs[i])) - res0[i];
    sw[i] = rd_reg(GC_REG_CHANNEL_SWITCH_TIMESLICE(chs[i])) - ts0[i];
    mean += res[i] / 4.0;
  }
  bool fair = true;
  for (int i = 0; i < 4; i++) fair = fair && std::abs(res[i] - mean) <= 0.10 * mean && sw[i] >= 2;
  check(fair, "fairness: CYCLES_RESIDENT %u %u %u %u (mean %.0f, within 10%%), SWITCH_TIMESLICE %u %u %u %u",
        res[0], res[1], res[2], res[3], mean, sw[0], sw[1], sw[2], sw[3]);
  bool done = wait_done({2, 3, 4, 5}, 200000);
  bool all = done;
  for (int i = 0; i < 4; i++) all = all && rd32(sems[i]) == 80;
  check(all, "fairness streams all completed (final releases = 80)");
  uint64_t mn, mx; double avg; int n;
  switch_stats(0, ev0, mn, mx, avg, n);
  g_switch_min = mn; g_switch_max = mx; g_switch_avg = avg;
  printf("  channel_switch_cycles (last method -> next channel's first method, %d switches, "
         "memory latency %d..%d): min %" PRIu64 " avg %.1f max %" PRIu64 "\n",
         n, cfg.lat_min, cfg.lat_max, mn, avg, mx);
  check(n > 10 && avg < 4.0 * cfg.lat_max + 40, "channel switch cost small (avg %.1f cycles)", avg);
  int nd;
  switch_cost(0, ev0, sw0, mn, mx, avg, nd);
  g_dec_avg = avg; g_dec_max = mx;
  printf("  channel_switch_decision_cycles (the switch decision -> next channel's first method, %d "
         "switches; the rest of channel_switch_cycles is the leaving channel waiting for its own "
         "next fetch before its slice ran out): min %" PRIu64 " avg %.1f max %" PRIu64 "\n",
         nd, mn, avg, mx);
  // The next channel's GPFIFO entry and first pushbuffer burst were prefetched (gc_pbdma_pf): a
  // switch does not wait for a memory read, so on average it takes less than the shortest read.
  check(nd > 10 && avg < cfg.lat_min,
        "channel switch served from the prefetch (decision to first method avg %.1f cycles < memory latency %d)",
        avg, cfg.lat_min);

  // b1's entries follow each other on one channel without the two dependent reads of the next
  // GPFIFO entry and its pushbuffer: the lookahead (gc_pbdma_pf SELF) read them while the entry
  // ran. Measured from an entry's last method (its SEM_EXECUTE, method 155 of the entry) to the
  // next entry's first method when nothing else ran on the runlist in between, for entries whose
  // channel had been resident for RUN cycles (time for the two reads); one that resumed near its
  // entry's end still waits for (part of) them, behind its own bursts: printed, not checked.
  {
    const uint64_t per = 155;   // 150 NOPs + SEM_ADDR_LO..SEM_EXECUTE
    const uint64_t RUN = 4 * (uint64_t)cfg.lat_max;
    uint64_t k[NCH] = {0}, gmax = 0, smax = 0;
    double gavg = 0;
    int ng = 0, ns = 0;
    for (size_t i = ev0; i < ev_mthd.size(); i++) {
      const Ev &e = ev_mthd[i];
      if (e.rl != 0) continue;
      if (k[e.ch]++ % per != per - 1) continue;
      size_t j = i + 1;
      while (j < ev_mthd.size() && ev_mthd[j].rl != 0) j++;
      if (j == ev_mthd.size() || ev_mthd[j].ch != e.ch) continue;
      size_t b = i;   // the channel's first method of this residency
      while (b > ev0 && (ev_mthd[b - 1].rl != 0 || ev_mthd[b - 1].ch == e.ch)) b--;
      uint64_t d = ev_mthd[j].cyc - e.cyc;
      if (e.cyc - ev_mthd[b].cyc >= RUN) {
        gmax = std::max(gmax, d); gavg += d; ng++;
      } else {
        smax = std::max(smax, d); ns++;
      }
    }
    if (ng) gavg /= ng;
    printf("  entry_to_entry_cycles (an entry's last method -> the next entry's first, same channel, "
           "resident >= %" PRIu64 " cycles, %d entries): avg %.1f max %" PRIu64 "; after a shorter "
           "residency (%d entries) max %" PRIu64 "\n", RUN, ng, gavg, gmax, ns, smax);
    check(ng > 100 && gmax < (uint64_t)cfg.lat_min,
          "next entry read ahead: entry to entry at most %" PRIu64 " cycles < memory latency %d (%d entries)",
          gmax, cfg.lat_min, ng);
  }

  // b2: interleave HIGH vs LOW on runlist 2
  ch_init(6, 2, 400, GC_CHANNEL_INTERLEAVE_LEVEL_HIGH);
  ch_init(7, 2, 400, GC_CHANNEL_INTERLEAVE_LEVEL_LOW);
  for (int e = 0; e < 100; e++) {
    PB p; p.nops(200);
    submit(6, p.w, false);
    submit(7, p.w, false);
  }
  uint32_t r6 = rd_reg(GC_REG_CHANNEL_CYCLES_RESIDENT(6)), r7 = rd_reg(GC_REG_CHANNEL_CYCLES_RESIDENT(7));
  uint32_t w6 = rd_reg(GC_REG_CHANNEL_SWITCH_TIMESLICE(6)), w7 = rd_reg(GC_REG_CHANNEL_SWITCH_TIMESLICE(7));
  doorbell(6); doorbell(7);
  run(16000);   // both still have work at the end of the window
  if (getenv("PBDMA_TB_DEBUG")) {
    printf("    IL6 %u IL7 %u\n", rd_reg(GC_REG_CHANNEL_INTERLEAVE(6)), rd_reg(GC_REG_CHANNEL_INTERLEAVE(7)));
    int k = 0;
    for (auto &e : ev_sw) if (e.rl == 2 && k++ < 20) printf("    sw rl2 ch%u @%" PRIu64 "\n", e.ch, e.cyc);
  }
  r6 = rd_reg(GC_REG_CHANNEL_CYCLES_RESIDENT(6)) - r6;
  r7 = rd_reg(GC_REG_CHANNEL_CYCLES_RESIDENT(7)) - r7;
  w6 = rd_reg(GC_REG_CHANNEL_SWITCH_TIMESLICE(6)) - w6;
  w7 = rd_reg(GC_REG_CHANNEL_SWITCH_TIMESLICE(7)) - w7;
  double ratio = r7 ? (double)r6 / r7 : 0;
  check(ratio > 2.6 && ratio < 3.4 && w6 > 5 && w7 > 5,
        "interleave HIGH:LOW resident cycles %u:%u (ratio %.2f, expected ~3; a HIGH channel's 3 turns "
        "run back to back), switches by timeslice %u / %u", r6, r7, ratio, w6, w7);
  mmio_write(GC_REG_CHANNEL_CTRL(6), GC_CHANNEL_CTRL_RESET(1));
  mmio_write(GC_REG_CHANNEL_CTRL(7), GC_CHANNEL_CTRL_RESET(1));

  // b3: empty channel switches by cause EMPTY
  ch_init(8, 0);
  { PB p; p.nops(5); submit(8, p.w); }
  wait_done({8}, 5000);
  check(rd_reg(GC_REG_CHANNEL_SWITCH_EMPTY(8)) == 1 && rd_reg(GC_REG_CHANNEL_SWITCH_TIMESLICE(8)) == 0,
        "short channel: SWITCH_EMPTY %u, SWITCH_TIMESLICE %u", rd_reg(GC_REG_CHANNEL_SWITCH_EMPTY(8)),
        rd_reg(GC_REG_CHANNEL_SWITCH_TIMESLICE(8)));

  // b4: a copy in flight is never cut; another channel's host methods run meanwhile
  ch_init(9, 1, 200);
  ch_init(10, 1, 200);
  const uint32_t len = 48 * 1024;
  uint64_t src = BUF_BASE + 0x100000, dst = BUF_BASE + 0x200000;
  for (uint32_t i = 0; i < len; i += 4) wr32(src + i, 0x9E3779B9u * (i + 7));
  memset(&mem[dst], 0, len);
  uint64_t csem = sem_alloc();
  { PB p; p.set_obj().copy(src, dst, len, csem, 1); submit(9, p.w, false); }
  { PB p; p.nops(20); submit(9, p.w, false); }
  uint64_t ysem = sem_alloc();
  for (int e = 0; e < 40; e++) { PB p; p.nops(10).sem(ysem, e + 1, ex(REL32)); submit(10, p.w, false); }
  size_t evc = ev_mthd.size(), evd = ev_done.size();
  doorbell(9);
  run(300);
  doorbell(10);
  wait_done({9, 10}, 100000);
  uint64_t t_done = 0;
  for (size_t i = evd; i < ev_done.size(); i++) if (ev_done[i].rl == 1) { t_done = ev_done[i].cyc; break; }
  // launch = the method of ch 9 counted last before t_done
  uint64_t t_launch = 0;
  int m9 = 0, m10 = 0;
  for (size_t i = evc; i < ev_mthd.size(); i++)
    if (ev_mthd[i].ch == 9 && ev_mthd[i].cyc < t_done) t_launch = ev_mthd[i].cyc;
  for (size_t i = evc; i < ev_mthd.size(); i++) {
    const Ev &e = ev_mthd[i];
    if (e.cyc > t_launch && e.cyc <= t_done) { if (e.ch == 9) m9++; if (e.ch == 10) m10++; }
  }
  bool data_ok = memcmp(&mem[src], &mem[dst], len) == 0 && rd32(csem) == 1;
  check(t_done > t_launch + 2000 && m9 == 0 && m10 > 0 && data_ok,
        "copy never cut: %u-byte copy %" PRIu64 " cycles (slice 200), its channel ran %d methods meanwhile, "
        "the other channel %d, data %s", len, t_done - t_launch, m9, m10, data_ok ? "ok" : "BAD");
  check(rd32(ysem) == 40 && err_of(9) == 0 && err_of(10) == 0, "both channels completed");
  printf("    ch9 switches ts/acq/eng/empty %u/%u/%u/%u, ch10 %u/%u/%u/%u\n",
         rd_reg(GC_REG_CHANNEL_SWITCH_TIMESLICE(9)), rd_reg(GC_REG_CHANNEL_SWITCH_ACQUIRE(9)),
         rd_reg(GC_REG_CHANNEL_SWITCH_ENGINE(9)), rd_reg(GC_REG_CHANNEL_SWITCH_EMPTY(9)),
         rd_reg(GC_REG_CHANNEL_SWITCH_TIMESLICE(10)), rd_reg(GC_REG_CHANNEL_SWITCH_ACQUIRE(10)),
         rd_reg(GC_REG_CHANNEL_SWITCH_ENGINE(10)), rd_reg(GC_REG_CHANNEL_SWITCH_EMPTY(10)));
  for (uint32_t c = 2; c <= 10; c++) mmio_write(GC_REG_CHANNEL_CTRL(c), GC_CHANNEL_CTRL_RESET(1));
}

// ==========================================================================================
// (c) semaphores
// ==========================================================================================
uint64_t g_wake_ack = 0, g_wake_next = 0, g_wake_sw_ack = 0;

// Run one acquire on channel c (runlist 0); returns true if it passed without host help
bool acquire_case(const char *name, uint32_t op, bool is64, uint64_t memv, uint64_t pay, bool expect_pass) {
  const uint32_t c = 11;
  ch_init(c, 0);
  uint64_t s = sem_alloc(), mark = sem_alloc();
  if (is64) wr64(s, memv); else { wr32(s, (uint32_t)memv); wr32(s + 4, 0xCAFEF00D); }
  wr32(mark, 0);
  PB p; p.sem(s, pay, ex(op, is64)).sem(mark, 1, ex(REL32));
  submit(c, p.w);
  run(1500);
  bool passed = rd32(mark) == 1;
  uint32_t st = rd_reg(GC_REG_CHANNEL_STATUS(c));
  bool ok = passed == expect_pass && (expect_pass || GC_CHANNEL_STATUS_ACQ_BLOCKED_GET(st));
  if (!expect_pass && ok) {
    // make it pass by a host write (no snoop): the retry interval picks it up
    if (is64) wr64(s, pay); else wr32(s, (uint32_t)pay);
    if (op == GC_HOST_SEM_EXECUTE_OPERATION_ACQ_AND) { if (is64) wr64(s, pay); else wr32(s, (uint32_t)pay); }
    if (op == GC_HOST_SEM_EXECUTE_OPERATION_ACQ_NOR) { if (is64) wr64(s, 0); else wr32(s, 0); }
    wait_done({c}, 5000);
    ok = rd32(mark) == 1 && err_of(c) == 0 && rd_reg(GC_REG_CHANNEL_ACQ_BLOCKED_CYCLES(c)) > 1000;
  }
  check(ok, "%s %s mem=0x%" PRIx64 " payload=0x%" PRIx64 " -> %s", name, is64 ? "64" : "32", memv, pay,
        expect_pass ? "pass" : "fail, then passes after the host update");
  return ok;
}

void test_sem() {
  printf("(c) semaphores\n");
  using namespace std;
  const uint32_t ACQ = GC_HOST_SEM_EXECUTE_OPERATION_ACQUIRE, GEQ = GC_HOST_SEM_EXECUTE_OPERATION_ACQ_STRICT_GEQ,
                 CIRC = GC_HOST_SEM_EXECUTE_OPERATION_ACQ_CIRC_GEQ, AND = GC_HOST_SEM_EXECUTE_OPERATION_ACQ_AND,
                 NOR = GC_HOST_SEM_EXECUTE_OPERATION_ACQ_NOR;
  acquire_case("ACQUIRE", ACQ, false, 7, 7, true);
  acquire_case("ACQUIRE", ACQ, false, 6, 7, false);
  acquire_case("ACQ_STRICT_GEQ", GEQ, false, 8, 7, true);
  acquire_case("ACQ_STRICT_GEQ", GEQ, false, 0xFFFFFFFF, 1, true);
  acquire_case("ACQ_STRICT_GEQ", GEQ, false, 6, 7, false);
  acquire_case("ACQ_CIRC_GEQ (wrap)", CIRC, false, 5, 0xFFFFFFF0, true);
  acquire_case("ACQ_CIRC_GEQ (wrap)", CIRC, false, 0xFFFFFFF0, 5, false);
  acquire_case("ACQ_AND", AND, false, 6, 2, true);
  acquire_case("ACQ_AND", AND, false, 4, 3, false);
  acquire_case("ACQ_NOR", NOR, false, 0x0F, 0xF0, true);
  acquire_case("ACQ_NOR", NOR, false, 0xFFFF0000, 0x0000FFFF, false);
  acquire_case("ACQUIRE", ACQ, true, 0x100000007ull, 0x100000007ull, true);
  acquire_case("ACQUIRE", ACQ, true, 0x7ull, 0x100000007ull, false);
  acquire_case("ACQ_STRICT_GEQ", GEQ, true, 0x200000000ull, 0x1FFFFFFFFull, true);

  // Reductions (runlist 0, one channel)
  const uint32_t c = 12;
  ch_init(c, 0);
  struct Red { uint32_t red; bool is64, sign; uint64_t memv, opnd, expect; const char *name; };
  const Red reds[] = {
      {GC_HOST_SEM_EXECUTE_REDUCTION_INC, false, false, 5, 0xFFFFFFFF, 6, "INC 5 (payload 0xFFFFFFFF)"},
      {GC_HOST_SEM_EXECUTE_REDUCTION_INC, false, false, 3, 3, 0, "INC wraps at the payload (3 -> 0)"},
      {GC_HOST_SEM_EXECUTE_REDUCTION_DEC, false, false, 0, 10, 10, "DEC at 0 -> payload"},
      {GC_HOST_SEM_EXECUTE_REDUCTION_DEC, false, false, 5, 0xFFFFFFFF, 4, "DEC 5 -> 4"},
      {GC_HOST_SEM_EXECUTE_REDUCTION_IMIN, false, true, 0xFFFFFFFB, 3, 0xFFFFFFFB, "IMIN signed(-5, 3)"},
      {GC_HOST_SEM_EXECUTE_REDUCTION_IMIN, false, false, 0xFFFFFFFB, 3, 3, "IMIN unsigned(0xFFFFFFFB, 3)"},
      {GC_HOST_SEM_EXECUTE_REDUCTION_IADD, true, false, 0xFFFFFFFFull, 1, 0x100000000ull, "IADD 64-bit carry"},
      {GC_HOST_SEM_EXECUTE_REDUCTION_IOR, false, false, 0x0F00, 0x00F0, 0x0FF0, "IOR"},
  };
  for (const Red &r : reds) {
    uint64_t s = sem_alloc();
    if (r.is64) wr64(s, r.memv); else { wr32(s, (uint32_t)r.memv); wr32(s + 4, 0x12345678); }
    PB p; p.sem(s, r.opnd, ex(GC_HOST_SEM_EXECUTE_OPERATION_REDUCTION, r.is64, r.red, false, false, r.sign));
    submit(c, p.w);
    wait_done({c}, 5000);
    bool ok = r.is64 ? rd64(s) == r.expect : (rd32(s) == (uint32_t)r.expect && rd32(s + 4) == 0x12345678);
    check(ok && err_of(c) == 0, "REDUCTION %s: 0x%" PRIx64, r.name, r.is64 ? rd64(s) : rd32(s));
  }
  // 64-bit release, timestamped release, misaligned timestamped release
  {
    uint64_t s = sem_alloc();
    wr64(s, 0);
    PB p; p.sem(s, 0x0123456789ABCDEFull, ex(REL32, true));
    submit(c, p.w);
    wait_done({c}, 5000);
    check(rd64(s) == 0x0123456789ABCDEFull, "64-bit release 0x%016" PRIx64, rd64(s));
    uint64_t t = sem_alloc(16);
    wr64(t, ~0ull); wr64(t + 8, 0);
    uint64_t t0 = g_cycle;
    PB q; q.sem(t, 0xFEEDBEEF, ex(REL32, false, 0, false, true));
    submit(c, q.w);
    wait_done({c}, 5000);
    uint64_t ts = rd64(t + 8);
    check(rd64(t) == 0xFEEDBEEFull && ts > t0 && ts < g_cycle,
          "timestamped release: payload 0x%" PRIx64 ", timestamp %" PRIu64 " in (%" PRIu64 ", %" PRIu64 ")",
          rd64(t), ts, t0, g_cycle);
    PB r; r.sem(t + 8, 1, ex(REL32, false, 0, false, true));
    submit(c, r.w);
    wait_done({c}, 5000);
    check(err_of(c) == GC_ERROR_CAUSE_MISALIGNED_SEMAPHORE, "timestamped release at 8 mod 16 -> MISALIGNED_SEMAPHORE");
  }
  // NVIDIA's forms: a stamped 32-bit reduction writes {result, 0, stamp}; a reduction form NVIDIA
  // rejects faults INVALID_REDUCTION; DMA_NOP words are skipped and not counted; a release-only
  // copy-class LAUNCH_DMA (transfer NONE, layouts 0) with a reduction reduces through the CE
  {
    ch_init(c, 0);
    uint64_t t = sem_alloc(16);
    wr32(t, 0xFFFFFFF0u); wr32(t + 4, 0xDEADBEEFu); wr64(t + 8, 0);
    uint64_t t0 = g_cycle;
    PB p; p.sem(t, 0x20, ex(GC_HOST_SEM_EXECUTE_OPERATION_REDUCTION, false, GC_HOST_SEM_EXECUTE_REDUCTION_IADD,
                           false, true));
    submit(c, p.w);
    wait_done({c}, 5000);
    uint64_t ts = rd64(t + 8);
    check(err_of(c) == 0 && rd64(t) == 0x10u && ts > t0 && ts < g_cycle,
          "stamped 32-bit IADD: 0x%016" PRIx64 " (want 0x10, high word 0), stamp %" PRIu64, rd64(t), ts);
    wr64(t, 5);
    PB q; q.sem(t, 1, ex(GC_HOST_SEM_EXECUTE_OPERATION_REDUCTION, true, GC_HOST_SEM_EXECUTE_REDUCTION_INC));
    submit(c, q.w);
    wait_done({c}, 5000);
    check(err_of(c) == GC_ERROR_CAUSE_INVALID_REDUCTION && rd64(t) == 5, "64-bit INC -> INVALID_REDUCTION, not run");
    ch_init(c, 0);
    uint32_t m0 = rd_reg(GC_REG_CHANNEL_METHODS(c));
    uint64_t n = sem_alloc();
    wr32(n, 0);
    PB r; r.raw(GC_PB_DMA_NOP).sem(n, 0x77, ex(REL32)).raw(GC_PB_DMA_NOP).raw(GC_PB_DMA_NOP);
    submit(c, r.w);
    wait_done({c}, 5000);
    check(err_of(c) == 0 && rd32(n) == 0x77 && rd_reg(GC_REG_CHANNEL_METHODS(c)) - m0 == 5,
          "DMA_NOP skipped: release 0x%x, %u methods (want 5)", rd32(n), rd_reg(GC_REG_CHANNEL_METHODS(c)) - m0);
    ch_init(c, 1);
    wr32(n, 0xFFFFFFFFu);   // -1: signed IMAX with 1 gives 1 (unsigned would keep 0xFFFFFFFF)
    PB e; e.set_obj(0).inc(0, GC_COPY_SET_SEMAPHORE_A, {(uint32_t)(n >> 32), (uint32_t)n, 1})
        .inc(0, GC_COPY_LAUNCH_DMA,
             {GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE(GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE_RELEASE_ONE_WORD_SEMAPHORE) |
              GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION(GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_IMAX) |
              GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_SIGN(GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_SIGN_SIGNED) |
              GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_ENABLE(GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_ENABLE_TRUE)});
    submit(c, e.w);
    wait_done({c}, 5000);
    check(err_of(c) == 0 && rd32(n) == 1u, "release-only LAUNCH_DMA, signed IMAX(-1, 1): 0x%08x (%s)",
          rd32(n), gc_error_cause_name(err_of(c)));
  }

  // Acquire (SWITCH DIS, resident in ACQ_RETRY on runlist 1) woken by a release from runlist 0
  mmio_write(GC_REG_GLOBAL_ACQ_RETRY_INTERVAL, 100000);
  {
    const uint32_t a = 13, b = 14;
    ch_init(a, 1);
    ch_init(b, 0);
    uint64_t s = sem_alloc(), mark = sem_alloc();
    wr32(s, 0);
    { PB p; p.sem(s, 1, ex(ACQ)).sem(mark, 1, ex(REL32)); submit(a, p.w); }
    run(2000);
    check(rd32(mark) == 0 && GC_CHANNEL_STATUS_ACQ_BLOCKED_GET(rd_reg(GC_REG_CHANNEL_STATUS(a))),
          "acquire blocked (retry interval 100000)");
    size_t ev0 = ev_mthd.size(), sn0 = ev_snoop.size();
    sem_writes[s].clear();
    uint64_t t_sub = g_cycle;
    { PB p; p.nops(3).sem(s, 1, ex(REL32)); submit(b, p.w); }
    wait_done({a, b}, 20000);
    uint64_t t_land = sem_writes[s].empty() ? 0 : sem_writes[s].back();
    // the release's write completes with its B response, the cycle before the atomic unit's snoop
    uint64_t t_done = 0;
    for (size_t i = sn0; i < ev_snoop.size(); i++)
      if ((ev_snoop[i].second & ~7ull) == (s & ~7ull)) t_done = ev_snoop[i].first - 1;
    uint64_t t_ack = 0, t_next = 0;
    for (size_t i = ev0; i < ev_mthd.size(); i++)
      if (ev_mthd[i].ch == a) { if (!t_ack) t_ack = ev_mthd[i].cyc; else if (!t_next) { t_next = ev_mthd[i].cyc; break; } }
    g_wake_ack = t_ack - t_done;
    g_wake_next = t_next - t_done;
    check(rd32(mark) == 1 && t_land && t_done && t_ack > t_done && g_cycle - t_sub < 5000,
          "acquire woken by another runlist's release: acquire_wake_cycles %" PRIu64
          " (release's B response -> acquire done; %" PRIu64 " from the write landing), %" PRIu64
          " to the next method", g_wake_ack, t_ack - t_land, g_wake_next);
    // the snoop carries the written value: the acquire passes on it, without a read
    check(g_wake_ack <= 4, "acquire wake %" PRIu64 " cycles after the release's write completed (<= 4)",
          g_wake_ack);
  }
  // Acquire (SWITCH DIS, resident on runlist 0) woken by a copy engine's data write onto its word:
  // a plain crossbar write, not the atomic unit's (gc_mem_xbar's write snoop sees every client).
  // Shape 0: the word is the first beat of the copy's burst, whose data the snoop carries: the
  // acquire is done <= 4 cycles after that write's B response, without a read.  Shape 1: the word
  // is the burst's second beat: woken, it reads the word again at once (the atomic unit's AR of it
  // follows the B) and passes, long before the retry interval (100000).
  for (int shape = 0; shape < 2; shape++) {
    const uint32_t a = 13, c = 14;
    ch_init(a, 0);
    ch_init(c, 1);
    uint64_t base = sem_alloc(32), mark = sem_alloc();
    sem_next += 16;                               // base .. base + 31 for the copy
    uint64_t s = base + 8ull * shape, src = BUF_BASE + 0x400000 + 0x100ull * shape;
    for (int k = 0; k < 8; k++) wr32(base + 4 * k, 0);
    wr32(mark, 0);
    for (int k = 0; k < 8; k++) wr32(src + 4 * k, k == 2 * shape ? 1u : 0u);   // 1 lands at s
    { PB p; p.sem(s, 1, ex(ACQ)).sem(mark, 1, ex(REL32)); submit(a, p.w); }
    run(2000);
    check(rd32(mark) == 0 && GC_CHANNEL_STATUS_ACQ_BLOCKED_GET(rd_reg(GC_REG_CHANNEL_STATUS(a))),
          "plain-write wake, shape %d: acquire blocked (retry interval 100000)", shape);
    size_t ev0 = ev_mthd.size(), wd0 = wr_done.size(), ar0 = ar_log.size();
    uint64_t t_sub = g_cycle;
    { PB p; p.set_obj().copy(src, base, 16u + 8u * shape); submit(c, p.w); }
    wait_done({a, c}, 20000);
    uint64_t t_b = 0, t_ack = 0, t_ar = 0;
    int len = -1, id = -1;
    for (size_t i = wd0; i < wr_done.size(); i++)
      if (wr_done[i].addr <= s && s < wr_done[i].addr + 8ull * (wr_done[i].len + 1)) {
        t_b = wr_done[i].cyc;
        len = wr_done[i].len;
        id = wr_done[i].id;
        break;
      }
    for (size_t i = ev0; i < ev_mthd.size(); i++)
      if (ev_mthd[i].ch == a) { t_ack = ev_mthd[i].cyc; break; }
    for (size_t i = ar0; i < ar_log.size(); i++)
      if (ar_log[i].first >= t_b && (ar_log[i].second & ~7ull) == s) { t_ar = ar_log[i].first; break; }
    bool done = t_b && t_ack > t_b;
    int64_t ack = done ? (int64_t)(t_ack - t_b) : -1, rd = t_ar ? (int64_t)(t_ar - t_b) : -1;
    check(rd32(mark) == 1 && rd32(s) == 1 && done && id == (int)(NRL + 0) && len == 1 + shape && g_cycle - t_sub < 5000,
          "plain-write wake, shape %d: CE0 (AXI ID %d) wrote %d beats, the word is beat %d; acquire done %" PRId64
          " cycles after its B response (-1: not done)", shape, id, len + 1, shape, ack);
    if (shape == 0)
      check(done && ack <= 4 && !t_ar, "plain-write wake on the snooped beat: %" PRId64 " cycles (<= 4), no read",
            ack);
    else
      check(done && t_ar && t_ack > t_ar && ack < 200,
            "plain-write wake on a later beat: read again %" PRId64 " cycles after the B, done after %" PRId64, rd,
            ack);
  }
  // Same runlist, ACQUIRE_SWITCH_TSG EN: the acquirer switches out, the releaser runs, wake-up
  {
    const uint32_t a = 13, b = 14;
    ch_init(a, 0);
    ch_init(b, 0);
    uint64_t s = sem_alloc(), mark = sem_alloc();
    wr32(s, 0);
    { PB p; p.sem(s, 1, ex(ACQ, false, 0, true)).sem(mark, 1, ex(REL32)); submit(a, p.w); }
    run(500);
    size_t ev0 = ev_mthd.size();
    sem_writes[s].clear();
    uint64_t t0 = g_cycle;
    { PB p; p.nops(50).sem(s, 1, ex(REL32)); submit(b, p.w); }
    wait_done({a, b}, 20000);
    uint64_t t_land = sem_writes[s].empty() ? 0 : sem_writes[s].back();
    uint64_t t_ack = 0;
    for (size_t i = ev0; i < ev_mthd.size(); i++) if (ev_mthd[i].ch == a) { t_ack = ev_mthd[i].cyc; break; }
    g_wake_sw_ack = t_ack - t_land;
    check(rd32(mark) == 1 && rd_reg(GC_REG_CHANNEL_SWITCH_ACQUIRE(a)) >= 1 && g_cycle - t0 < 10000 &&
              t_ack > t_land,
          "ACQUIRE_SWITCH_TSG EN on one runlist: switched out (SWITCH_ACQUIRE %u), woken %" PRIu64
          " cycles after the release landed",
          rd_reg(GC_REG_CHANNEL_SWITCH_ACQUIRE(a)), g_wake_sw_ack);
  }
  mmio_write(GC_REG_GLOBAL_ACQ_RETRY_INTERVAL, 64);

  // Acquire timeout while other channels finish (runlist 0, switch EN) + resident variant (runlist 2)
  {
    const uint32_t t = 13, u = 14, v = 15, w = 12;
    ch_init(t, 0, 300, 0, 3000);
    ch_init(u, 0, 300);
    ch_init(v, 0, 300);
    ch_init(w, 2, 300, 0, 2000);
    uint64_t s = sem_alloc(), su = sem_alloc(), sv = sem_alloc();
    wr32(s, 0);
    { PB p; p.nops(4); submit(t, p.w, false); }
    const uint32_t exw = ex(ACQ, false, 0, true);
    { PB p; p.nops(2).sem(s, 99, exw, 3).nops(2); submit(t, p.w, false); }
    const uint32_t exd = ex(ACQ, false, 0, false);
    { PB p; p.sem(s, 98, exd, 1); submit(w, p.w, false); }
    for (int e = 0; e < 30; e++) {
      PB p; p.nops(100).sem(su, e + 1, ex(REL32)); submit(u, p.w, false);
      PB q; q.nops(100).sem(sv, e + 1, ex(REL32)); submit(v, q.w, false);
    }
    doorbell(t); doorbell(u); doorbell(v); doorbell(w);
    wait_done({t, u, v, w}, 100000);
    uint32_t em = rd_reg(GC_REG_CHANNEL_ERROR_METHOD(t));
    check(err_of(t) == GC_ERROR_CAUSE_ACQUIRE_TIMEOUT && rd_reg(GC_REG_CHANNEL_ERROR_GP_GET(t)) == 1 &&
              GC_CHANNEL_ERROR_METHOD_ADDRESS_GET(em) == GC_HOST_SEM_EXECUTE / 4 &&
              GC_CHANNEL_ERROR_METHOD_SUBCHANNEL_GET(em) == 3 && rd_reg(GC_REG_CHANNEL_ERROR_DATA(t)) == exw &&
              rd_reg(GC_REG_CHANNEL_ACQ_BLOCKED_CYCLES(t)) >= 3000,
          "ACQUIRE_TIMEOUT (switched out): cause %s GP_GET %u method 0x%x data 0x%x blocked %u",
          gc_error_cause_name(err_of(t)), rd_reg(GC_REG_CHANNEL_ERROR_GP_GET(t)), em,
          rd_reg(GC_REG_CHANNEL_ERROR_DATA(t)), rd_reg(GC_REG_CHANNEL_ACQ_BLOCKED_CYCLES(t)));
    check(err_of(u) == 0 && err_of(v) == 0 && rd32(su) == 30 && rd32(sv) == 30,
          "the other channels of the runlist finished (%u, %u)", rd32(su), rd32(sv));
    em = rd_reg(GC_REG_CHANNEL_ERROR_METHOD(w));
    check(err_of(w) == GC_ERROR_CAUSE_ACQUIRE_TIMEOUT && rd_reg(GC_REG_CHANNEL_ERROR_GP_GET(w)) == 0 &&
              GC_CHANNEL_ERROR_METHOD_ADDRESS_GET(em) == GC_HOST_SEM_EXECUTE / 4 &&
              rd_reg(GC_REG_CHANNEL_ERROR_DATA(w)) == exd,
          "ACQUIRE_TIMEOUT (resident, SWITCH DIS): cause %s", gc_error_cause_name(err_of(w)));
    for (uint32_t x : {t, u, v, w}) mmio_write(GC_REG_CHANNEL_CTRL(x), GC_CHANNEL_CTRL_RESET(1));
  }
}

// SYNC WAIT, WFI and bus errors through the atomic unit
void test_misc() {
  printf("(c2) SYNC WAIT, WFI, bus errors\n");
  const uint32_t c = 12;
  ch_init(c, 1);
  // entry 2's pushbuffer is produced by entry 1's copy: SYNC WAIT makes it fetch after the copy
  uint64_t s = sem_alloc(), s2 = sem_alloc();
  PB gen; gen.sem(s, 0x5A5A5A5A, ex(REL32));
  uint64_t src = BUF_BASE + 0x300000;
  for (size_t i = 0; i < gen.w.size(); i++) wr32(src + 4 * i, gen.w[i]);
  uint64_t pb2 = pb_alloc(64);
  for (size_t i = 0; i < gen.w.size(); i++) wr32(pb2 + 4 * i, 0);  // NOP-free garbage: zeros fault
  { PB p; p.set_obj().copy(src, pb2, (uint32_t)gen.w.size() * 4); submit(c, p.w, false); }
  gp_write(c, gc_gp_entry0(pb2), gc_gp_entry1(pb2, (uint32_t)gen.w.size(), 0, GC_GP_ENTRY1_SYNC_WAIT));
  { PB p; p.inc(0, GC_HOST_WFI, {0}).sem(s2, 7, ex(REL32, false, 0, false, false, false, true)); submit(c, p.w, false); }
  doorbell(c);
  wait_done({c}, 20000);
  check(err_of(c) == 0 && rd32(s) == 0x5A5A5A5A && rd32(s2) == 7,
        "SYNC WAIT entry fetched after the copy that wrote it; WFI and RELEASE_WFI pass (%s)",
        gc_error_cause_name(err_of(c)));
  // host release to an address the memory answers with DECERR
  ch_init(c, 0);
  const uint32_t bad = ex(REL32);
  { PB p; p.nops(1).sem(MEM_SIZE + 0x100, 1, bad, 2); submit(c, p.w); }
  wait_done({c}, 5000);
  uint32_t em = rd_reg(GC_REG_CHANNEL_ERROR_METHOD(c));
  check(err_of(c) == GC_ERROR_CAUSE_BUS_ERROR && GC_CHANNEL_ERROR_METHOD_ADDRESS_GET(em) == GC_HOST_SEM_EXECUTE / 4 &&
            GC_CHANNEL_ERROR_METHOD_SUBCHANNEL_GET(em) == 2,
        "SEM_EXECUTE release to DECERR -> BUS_ERROR at SEM_EXECUTE (%s)", gc_error_cause_name(err_of(c)));
  // copy-engine completion release to DECERR: the launching channel faults, another one goes on
  ch_init(c, 1);
  ch_init(13, 1);
  uint64_t ok_sem = sem_alloc();
  { PB p; p.set_obj().copy(src, BUF_BASE + 0x310000, 256, MEM_SIZE + 0x200, 1).nops(2); submit(c, p.w, false); }
  { PB p; p.nops(5).sem(ok_sem, 3, ex(REL32)); submit(13, p.w, false); }
  doorbell(c); doorbell(13);
  wait_done({c, 13}, 20000);
  em = rd_reg(GC_REG_CHANNEL_ERROR_METHOD(c));
  check(err_of(c) == GC_ERROR_CAUSE_BUS_ERROR && GC_CHANNEL_ERROR_METHOD_ADDRESS_GET(em) == GC_COPY_LAUNCH_DMA / 4 &&
            err_of(13) == 0 && rd32(ok_sem) == 3,
        "CE release to DECERR -> BUS_ERROR of the launching channel at LAUNCH_DMA; the other channel finished");
  for (uint32_t x : {c, 13u}) mmio_write(GC_REG_CHANNEL_CTRL(x), GC_CHANNEL_CTRL_RESET(1));
}

// ==========================================================================================
// (d) the copy-priority walk-through
// ==========================================================================================
struct SeedResult {
  std::vector<std::pair<uint64_t, std::string>> order;
};

SeedResult seed_run(bool with_sem, uint32_t ts, uint32_t lo, uint32_t hi) {
  const uint32_t clow = lo, chigh = hi;
  ch_init(clow, 1, ts);
  ch_init(chigh, 1, ts);
  const uint32_t low_sz[3] = {6 * 1024, 6 * 1024, 6 * 1024};
  const uint32_t high_sz[2] = {40 * 1024, 2 * 1024};
  uint64_t shigh = sem_alloc();
  wr32(shigh, 0);
  uint64_t src = BUF_BASE + 0x400000, dst = BUF_BASE + 0x800000;
  uint64_t so = 0, dof = 0;
  uint64_t lsem[3], hsem[2], lsrc[3], ldst[3], hsrc[2], hdst[2];
  for (int i = 0; i < 3; i++) {
    lsem[i] = sem_alloc(); wr32(lsem[i], 0);
    lsrc[i] = src + so; ldst[i] = dst + dof; so += low_sz[i]; dof += low_sz[i];
  }
  for (int j = 0; j < 2; j++) {
    hsem[j] = sem_alloc(); wr32(hsem[j], 0);
    hsrc[j] = src + so; hdst[j] = dst + dof; so += high_sz[j]; dof += high_sz[j];
  }
  for (uint64_t i = 0; i < so; i += 4) wr32(src + i, (uint32_t)(i * 2654435761u + 17));
  memset(&mem[dst], 0, so);
  const uint32_t acq = ex(GC_HOST_SEM_EXECUTE_OPERATION_ACQUIRE, false, 0, true);
  const uint32_t inc = ex(GC_HOST_SEM_EXECUTE_OPERATION_REDUCTION, false, GC_HOST_SEM_EXECUTE_REDUCTION_INC);
  const uint32_t dec = ex(GC_HOST_SEM_EXECUTE_OPERATION_REDUCTION, false, GC_HOST_SEM_EXECUTE_REDUCTION_DEC);
  auto low_entry = [&](int i) {
    PB p;
    if (i == 0) p.set_obj();
    if (with_sem) p.sem(shigh, 0, acq);
    p.copy(lsrc[i], ldst[i], low_sz[i], lsem[i], 1);
    submit(clow, p.w, false);
  };
  auto high_entry = [&](int j) {
    PB p;
    if (j == 0) p.set_obj();
    if (with_sem) p.sem(shigh, 0xFFFFFFFF, inc);
    p.copy(hsrc[j], hdst[j], high_sz[j], hsem[j], 1);
    if (with_sem) p.sem(shigh, 0xFFFFFFFF, dec);
    submit(chigh, p.w, false);
  };
  for (auto &kv : sem_writes) kv.second.clear();
  uint32_t cnt0[2][6];
  const uint32_t regs[6] = {GC_REG_CHANNEL_SWITCH_TIMESLICE(0), GC_REG_CHANNEL_SWITCH_ACQUIRE(0),
                            GC_REG_CHANNEL_SWITCH_ENGINE(0), GC_REG_CHANNEL_SWITCH_EMPTY(0),
                            GC_REG_CHANNEL_CYCLES_RESIDENT(0), GC_REG_CHANNEL_ACQ_BLOCKED_CYCLES(0)};
  for (int k = 0; k < 6; k++) {
    cnt0[0][k] = rd_reg(regs[k] + clow * GC_REG_CHANNEL_STRIDE);
    cnt0[1][k] = rd_reg(regs[k] + chigh * GC_REG_CHANNEL_STRIDE);
  }
  low_entry(0);
  doorbell(clow);
  // wait until Mlow1 runs on CE0
  for (int g = 0; g < 5000; g++) {
    if (GC_ENGINE_DBG_STATE_GET(rd_reg(GC_REG_ENGINE_DBG(0))) != GC_CE_STATE_IDLE) break;
  }
  low_entry(1); low_entry(2); doorbell(clow);
  high_entry(0); high_entry(1); doorbell(chigh);
  bool done = wait_done({clow, chigh}, 200000);
  check(done && err_of(clow) == 0 && err_of(chigh) == 0, "seed %s: both channels completed",
        with_sem ? "walk-through" : "baseline");
  SeedResult r;
  const char *ln[3] = {"Mlow1", "Mlow2", "Mlow3"}, *hn[2] = {"Mhigh1", "Mhigh2"};
  bool data = true;
  for (int i = 0; i < 3; i++) {
    r.order.push_back({sem_writes[lsem[i] & ~7ull].empty() ? 0 : sem_writes[lsem[i] & ~7ull].back(), ln[i]});
    data = data && memcmp(&mem[lsrc[i]], &mem[ldst[i]], low_sz[i]) == 0 && rd32(lsem[i]) == 1;
  }
  for (int j = 0; j < 2; j++) {
    r.order.push_back({sem_writes[hsem[j] & ~7ull].empty() ? 0 : sem_writes[hsem[j] & ~7ull].back(), hn[j]});
    data = data && memcmp(&mem[hsrc[j]], &mem[hdst[j]], high_sz[j]) == 0 && rd32(hsem[j]) == 1;
  }
  check(data && (!with_sem || rd32(shigh) == 0), "seed %s: copy data and releases correct, Shigh = %u",
        with_sem ? "walk-through" : "baseline", rd32(shigh));
  std::sort(r.order.begin(), r.order.end());
  printf("    completion order:");
  for (auto &o : r.order) printf(" %s@%" PRIu64, o.second.c_str(), o.first);
  printf("\n");
  for (int x = 0; x < 2; x++) {
    uint32_t c = x ? chigh : clow, v[6];
    for (int k = 0; k < 6; k++) v[k] = rd_reg(regs[k] + c * GC_REG_CHANNEL_STRIDE) - cnt0[x][k];
    printf("    %s (ch %u): SWITCH ts/acq/eng/empty %u/%u/%u/%u, CYCLES_RESIDENT %u, ACQ_BLOCKED_CYCLES %u\n",
           x ? "Chigh" : "Clow", c, v[0], v[1], v[2], v[3], v[4], v[5]);
  }
  return r;
}

std::string order_str(const SeedResult &r) {
  std::string s;
  for (auto &o : r.order) s += (s.empty() ? "" : ",") + o.second;
  return s;
}

void test_seed() {
  printf("(d) copy-priority walk-through (runlist 1, CE0)\n");
  SeedResult w = seed_run(true, 3000, 8, 9);
  std::string ws = order_str(w);
  check(ws == "Mlow1,Mhigh1,Mhigh2,Mlow2,Mlow3", "walk-through order %s (expected Mlow1,Mhigh1,Mhigh2,Mlow2,Mlow3)",
        ws.c_str());
  uint64_t h1 = 0, h2 = 0;
  for (auto &o : w.order) { if (o.second == "Mhigh1") h1 = o.first; if (o.second == "Mhigh2") h2 = o.first; }
  printf("    Mhigh1 done at %" PRIu64 ", Mhigh2 done at %" PRIu64 " (time slice 3000)\n", h1, h2);
  SeedResult b = seed_run(false, 1000000, 10, 11);
  std::string bs = order_str(b);
  check(bs == "Mlow1,Mlow2,Mlow3,Mhigh1,Mhigh2", "baseline order %s (expected Mlow1,Mlow2,Mlow3,Mhigh1,Mhigh2)",
        bs.c_str());
}

}  // namespace

// ==========================================================================================
// (e) runlist 0: several channels' compute tasks at once (docs/tmu.md "The PBDMA side")
// ==========================================================================================
// Kernels are hand-assembled RV32 words in SYSMEM (thread address = device address): one thread
// per task, so a task completes exactly when the bench lets its thread finish.
constexpr uint64_t CODE_BASE = 0x1800000, FLAG_BASE = 0x1810000, TMD_BASE = 0x1820000;
constexpr uint32_t RV_EXIT = (GC_SIMT_INSN_EXIT_FUNCT3 << 12) | GC_SIMT_INSN_EXIT_OPCODE;

// Spin until the word at `flag` (4 KiB aligned) is non-zero, then EXIT:
//   lui t0, flag>>12;  1: lw t1, 0(t0);  beq t1, x0, 1b;  exit
uint64_t kern_spin(uint64_t code, uint64_t flag) {
  const uint32_t w[] = {(uint32_t)flag | (5u << 7) | 0x37u, 0x0002A303u, 0xFE030EE3u, RV_EXIT};
  for (uint32_t i = 0; i < 4; i++) wr32(code + 4 * i, w[i]);
  wr32(flag, 0);
  return code;
}
// An illegal instruction (all zero): the task faults
uint64_t kern_fault(uint64_t code) {
  wr32(code, 0);
  return code;
}
// One CTA of one thread at entry; no release
uint64_t tmd_make(uint64_t tmd, uint64_t entry) {
  for (uint32_t o = 0; o < GC_TMD_SIZE; o += 4) wr32(tmd + o, 0);
  wr32(tmd + GC_TMD_ENTRY_PC, (uint32_t)entry);
  wr32(tmd + GC_TMD_GRID_X, 1);
  wr32(tmd + GC_TMD_GRID_Y, 1);
  wr32(tmd + GC_TMD_GRID_Z, 1);
  wr32(tmd + GC_TMD_CTA_DIM_XY, GC_TMD_CTA_DIM_XY_X(1) | GC_TMD_CTA_DIM_XY_Y(1));
  wr32(tmd + GC_TMD_CTA_DIM_Z, GC_TMD_CTA_DIM_Z_Z(1));
  return tmd;
}
// SET_OBJECT COMPUTE, SEND_PCAS_A, SEND_SIGNALING_PCAS_B SCHEDULE: 3 methods
PB &cp_launch(PB &p, uint64_t tmd) {
  return p.inc(0, GC_HOST_SET_OBJECT, {GC_CLASS_COMPUTE})
      .inc(0, GC_COMPUTE_SEND_PCAS_A, {(uint32_t)(tmd >> 8)})
      .inc(0, GC_COMPUTE_SEND_SIGNALING_PCAS_B, {GC_COMPUTE_SEND_SIGNALING_PCAS_B_SCHEDULE(1)});
}
uint32_t methods_of(uint32_t c) { return rd_reg(GC_REG_CHANNEL_METHODS(c)); }
// Run until cond() holds (checked every 20 cycles) or max_cycles passed
template <typename F> bool run_until(F cond, uint64_t max_cycles) {
  uint64_t end = g_cycle + max_cycles;
  while (g_cycle < end) {
    if (cond()) return true;
    run(20);
  }
  return cond();
}

void test_compute() {
  printf("(e) runlist 0: compute tasks of several channels\n");
  // The TMU's rw registers live in the register block: reset 0, read back as written
  const uint32_t rw_regs[] = {GC_REG_COMPUTE_LOG_BASE_LO, GC_REG_COMPUTE_LOG_BASE_HI, GC_REG_COMPUTE_LOG_CTRL,
                              GC_REG_COMPUTE_TMU_CTRL};
  bool zero = true;
  for (uint32_t r : rw_regs) zero = zero && rd_reg(r) == 0;
  mmio_write(GC_REG_COMPUTE_LOG_BASE_LO, 0x12345678);
  mmio_write(GC_REG_COMPUTE_LOG_BASE_HI, 0xFFFFFFAB);
  mmio_write(GC_REG_COMPUTE_LOG_CTRL, GC_COMPUTE_LOG_CTRL_SIZE_LOG2(7));   // ENABLE stays 0
  mmio_write(GC_REG_COMPUTE_TMU_CTRL, GC_COMPUTE_TMU_CTRL_NO_EVICT(1));
  mmio_write(GC_REG_GLOBAL_INTR_ENABLE, GC_GLOBAL_INTR_ENABLE_LAUNCH_FAIL(1));
  check(zero && rd_reg(GC_REG_COMPUTE_LOG_BASE_LO) == 0x12345670 && rd_reg(GC_REG_COMPUTE_LOG_BASE_HI) == 0xAB &&
            rd_reg(GC_REG_COMPUTE_LOG_CTRL) == GC_COMPUTE_LOG_CTRL_SIZE_LOG2(7) &&
            rd_reg(GC_REG_COMPUTE_TMU_CTRL) == GC_COMPUTE_TMU_CTRL_NO_EVICT(1) &&
            rd_reg(GC_REG_GLOBAL_INTR_ENABLE) == GC_GLOBAL_INTR_ENABLE_LAUNCH_FAIL(1) && rd_reg(GC_REG_COMPUTE_LOG_PUT) == 0,
        "COMPUTE LOG_BASE_LO/HI, LOG_CTRL, TMU_CTRL and INTR_ENABLE.LAUNCH_FAIL: reset 0, read back (base 16-byte aligned)");
  for (uint32_t r : rw_regs) mmio_write(r, 0);
  mmio_write(GC_REG_GLOBAL_INTR_ENABLE, 0);
  const uint32_t a = 4, b = 5;
  ch_init(a, 0);
  ch_init(b, 0);
  // A: launch (spins on fa), then WFI and a release; B: launch (spins on fb), then RELEASE_WFI
  const uint64_t fa = FLAG_BASE, fb = FLAG_BASE + 0x1000;
  uint64_t sa = sem_alloc(), sb = sem_alloc();
  wr32(sa, 0);
  wr32(sb, 0);
  uint64_t ta = tmd_make(TMD_BASE, kern_spin(CODE_BASE, fa));
  uint64_t tb = tmd_make(TMD_BASE + 0x100, kern_spin(CODE_BASE + 0x40, fb));
  const uint32_t ma0 = methods_of(a), mb0 = methods_of(b);
  { PB p; cp_launch(p, ta).inc(0, GC_HOST_WFI, {0}).sem(sa, 0xA1, ex(REL32)); submit(a, p.w, false); }
  { PB p; cp_launch(p, tb).sem(sb, 0xB1, ex(REL32, false, 0, false, false, false, true)); submit(b, p.w, false); }
  doorbell(a);
  doorbell(b);
  // Both launches are taken while both tasks run: neither waits for the other channel's task
  bool both = run_until([&] { return methods_of(a) - ma0 == 3 && methods_of(b) - mb0 == 3; }, 20000);
  run(2000);
  check(both && methods_of(a) - ma0 == 3 && methods_of(b) - mb0 == 3 && rd32(sa) == 0 && rd32(sb) == 0,
        "two channels' launches accepted while both tasks run; each next method (WFI / RELEASE_WFI) "
        "waits (methods +%u +%u, sems %x %x)",
        methods_of(a) - ma0, methods_of(b) - mb0, rd32(sa), rd32(sb));
  uint32_t st_a = rd_reg(GC_REG_CHANNEL_STATUS(a)), st_b = rd_reg(GC_REG_CHANNEL_STATUS(b));
  check(GC_CHANNEL_STATUS_ENGINE_BUSY_GET(st_a) && GC_CHANNEL_STATUS_ENGINE_BUSY_GET(st_b),
        "STATUS.ENGINE_BUSY set for both channels while their tasks run");
  // A's task ends: A goes on, B still waits for its own task
  wr32(fa, 1);
  bool a_done = run_until([&] { return rd32(sa) == 0xA1; }, 20000);
  run(2000);
  check(a_done && rd32(sb) == 0 && methods_of(b) - mb0 == 3 && err_of(a) == 0 && err_of(b) == 0,
        "A's task done releases A only (A sem %x, B sem %x, B methods +%u)", rd32(sa), rd32(sb),
        methods_of(b) - mb0);
  wr32(fb, 1);
  bool b_done = run_until([&] { return rd32(sb) == 0xB1; }, 20000);
  check(b_done && wait_done({a, b}, 20000) && err_of(a) == 0 && err_of(b) == 0,
        "B's task done releases B; both rings drained without error");

  // The other order: B's task (launched second) ends while A's still runs; only B goes on
  // (the tasks run side by side in the task table: task slots)
  uint64_t sa3 = sem_alloc(), sb3 = sem_alloc();
  wr32(sa3, 0);
  wr32(sb3, 0);
  uint64_t ta3 = tmd_make(TMD_BASE + 0x400, kern_spin(CODE_BASE + 0x100, fa));
  uint64_t tb3 = tmd_make(TMD_BASE + 0x500, kern_spin(CODE_BASE + 0x140, fb));
  const uint32_t ma2 = methods_of(a);
  { PB p; cp_launch(p, ta3).sem(sa3, 0xA3, ex(REL32)); submit(a, p.w); }
  run_until([&] { return methods_of(a) - ma2 == 3; }, 20000);
  { PB p; cp_launch(p, tb3).sem(sb3, 0xB3, ex(REL32)); submit(b, p.w); }
  run(3000);
  wr32(fb, 1);
  bool b3 = run_until([&] { return rd32(sb3) == 0xB3; }, 20000);
  run(2000);
  check(b3 && rd32(sa3) == 0 && methods_of(a) - ma2 == 3,
        "B's task, launched after A's, completes first and releases B only (A sem %x, A methods +%u)",
        rd32(sa3), methods_of(a) - ma2);
  wr32(fa, 1);
  check(run_until([&] { return rd32(sa3) == 0xA3; }, 20000) && wait_done({a, b}, 20000) &&
            err_of(a) == 0 && err_of(b) == 0,
        "then A's task completes and releases A");

  // A task that faults: only its channel gets TASK_FAULT (record at its SEND_SIGNALING_PCAS_B),
  // the other channel's task and methods go on
  uint64_t sa2 = sem_alloc(), sb2 = sem_alloc();
  wr32(sa2, 0);
  wr32(sb2, 0);
  uint64_t ta2 = tmd_make(TMD_BASE + 0x200, kern_fault(CODE_BASE + 0x80));
  uint64_t tb2 = tmd_make(TMD_BASE + 0x300, kern_spin(CODE_BASE + 0xC0, fb));
  const uint32_t ma1 = methods_of(a), mb1 = methods_of(b);
  { PB p; cp_launch(p, ta2).sem(sa2, 0xA2, ex(REL32)); submit(a, p.w); }
  // B launches after A's launch was taken (so the fault does not depend on the engine's order)
  run_until([&] { return methods_of(a) - ma1 == 3; }, 20000);
  { PB p; cp_launch(p, tb2).sem(sb2, 0xB2, ex(REL32)); submit(b, p.w); }
  bool a_flt = run_until([&] { return err_of(a) != 0; }, 20000);
  run(1000);
  uint32_t em = rd_reg(GC_REG_CHANNEL_ERROR_METHOD(a));
  check(a_flt && err_of(a) == GC_ERROR_CAUSE_TASK_FAULT &&
            GC_CHANNEL_ERROR_METHOD_ADDRESS_GET(em) == GC_COMPUTE_SEND_SIGNALING_PCAS_B / 4 &&
            rd32(sa2) == 0 && err_of(b) == 0 && rd32(sb2) == 0,
        "a faulting task faults only its channel with TASK_FAULT at SEND_SIGNALING_PCAS_B (A %s, B %s)",
        gc_error_cause_name(err_of(a)), gc_error_cause_name(err_of(b)));
  wr32(fb, 1);
  bool b2 = run_until([&] { return rd32(sb2) == 0xB2; }, 20000) && wait_done({b}, 20000);
  const uint32_t mb2 = methods_of(b) - mb1;
  check(b2 && err_of(b) == 0 && mb2 == 3 + 5,
        "the other channel's task completes and its next methods run (B methods +%u)", mb2);
  mmio_write(GC_REG_GLOBAL_INTR_STATUS, rd_reg(GC_REG_GLOBAL_INTR_STATUS));
  for (uint32_t x : {a, b}) mmio_write(GC_REG_CHANNEL_CTRL(x), GC_CHANNEL_CTRL_RESET(1));

  // A release written by a plain SIMT store (sw, not an AMO: it does not go through the atomic
  // unit) wakes a channel blocked on it within a few cycles (gc_mem_xbar's write snoop): a channel
  // of runlist 1, resident in its acquire (retry interval 100000), passes <= 4 cycles after the
  // store's B response, on the snooped value, without reading the semaphore again.
  {
    const uint32_t k = 4, w = 6;
    ch_init(k, 0);
    ch_init(w, 1);
    const uint64_t fl = FLAG_BASE + 0x2000, sem = FLAG_BASE + 0x3000, code = CODE_BASE + 0x200;
    // spin on fl; then sw 1 -> sem (lui t2, sem; addi t3, x0, 1; sw t3, 0(t2)); exit
    kern_spin(code, fl);
    const uint32_t st[] = {(uint32_t)sem | (7u << 7) | 0x37u, 0x00100E13u, 0x01C3A023u, RV_EXIT};
    for (uint32_t i = 0; i < 4; i++) wr32(code + 12 + 4 * i, st[i]);
    wr32(sem, 0);
    wr32(sem + 4, 0);
    uint64_t mark = sem_alloc();
    wr32(mark, 0);
    mmio_write(GC_REG_GLOBAL_ACQ_RETRY_INTERVAL, 100000);
    { PB p; p.sem(sem, 1, ex(GC_HOST_SEM_EXECUTE_OPERATION_ACQUIRE)).sem(mark, 1, ex(REL32)); submit(w, p.w); }
    { PB p; cp_launch(p, tmd_make(TMD_BASE + 0x600, code)); submit(k, p.w); }
    run(3000);
    bool blocked = rd32(mark) == 0 && GC_CHANNEL_STATUS_ACQ_BLOCKED_GET(rd_reg(GC_REG_CHANNEL_STATUS(w)));
    size_t ev0 = ev_mthd.size(), wd0 = wr_done.size(), ar0 = ar_log.size();
    wr32(fl, 1);
    bool ok = run_until([&] { return rd32(mark) == 1; }, 20000);
    uint64_t t_b = 0, t_ack = 0;
    int id = -1;
    for (size_t i = wd0; i < wr_done.size(); i++)
      if (wr_done[i].addr <= sem && sem < wr_done[i].addr + 8ull * (wr_done[i].len + 1)) {
        t_b = wr_done[i].cyc;
        id = wr_done[i].id;
        break;
      }
    for (size_t i = ev0; i < ev_mthd.size(); i++)
      if (ev_mthd[i].ch == w) { t_ack = ev_mthd[i].cyc; break; }
    bool reread = false;
    for (size_t i = ar0; i < ar_log.size(); i++) reread = reread || (ar_log[i].first >= t_b && (ar_log[i].second & ~7ull) == sem);
    int64_t ack = t_b && t_ack > t_b ? (int64_t)(t_ack - t_b) : -1;
    check(blocked && ok && id >= (int)(NRL + GC_NUM_CE + 1) && ack >= 0 && ack <= 4 && !reread && err_of(w) == 0,
          "a plain SIMT store release (sw, AXI ID %d) wakes the acquire of runlist 1: done %" PRId64
          " cycles after the store's B response (<= 4; -1: not done), no read; retry interval 100000", id, ack);
    mmio_write(GC_REG_GLOBAL_ACQ_RETRY_INTERVAL, 64);
    wait_done({k, w}, 20000);
    for (uint32_t x : {k, w}) mmio_write(GC_REG_CHANNEL_CTRL(x), GC_CHANNEL_CTRL_RESET(1));
  }
}

int main(int argc, char **argv) {
  uint64_t seed = gctb::parse_seed(argc, argv, 1);
  g_rng.seed(seed);
  printf("pbdma_tb: seed %" PRIu64 "\n", seed);
  gctb::Harness<Vpbdma_tb_top> h(seed);
  h.cov_tag = "pbdma";
  h.ctx->commandArgs(argc, argv);
  h.pre_edge = pre_edge;
  h.post_edge = post_edge;
  g_h = &h;
  top = h.top.get();
  top->rst_ni = 0;
  top->s_awvalid_i = 0; top->s_wvalid_i = 0; top->s_bready_i = 0; top->s_arvalid_i = 0; top->s_rready_i = 0;
  top->m_arready_i = 0; top->m_awready_i = 0; top->m_wready_i = 0; top->m_rvalid_i = 0; top->m_bvalid_i = 0;
  top->eval();
  run(5);
  top->rst_ni = 1;
  run(5);

  test_decode();
  test_sched();
  test_sem();
  test_misc();
  test_seed();
  test_compute();

  printf("summary: channel_switch_cycles min %" PRIu64 " avg %.1f max %" PRIu64
         "; acquire_wake_cycles %" PRIu64 " (to the next method %" PRIu64 "), same-runlist switch-EN wake %" PRIu64
         "\n", g_switch_min, g_switch_avg, g_switch_max, g_wake_ack, g_wake_next, g_wake_sw_ack);
  // Lines read by scripts/bench.py (make bench) into results.json.
  printf("metric channel_switch_cycles %.1f\n", g_switch_avg);
  printf("metric channel_switch_cycles_max %" PRIu64 "\n", g_switch_max);
  printf("metric channel_switch_decision_cycles %.1f\n", g_dec_avg);
  printf("metric channel_switch_decision_cycles_max %" PRIu64 "\n", g_dec_max);
  printf("metric acquire_wake_cycles %" PRIu64 "\n", g_wake_ack);
  printf("%d passed, %d failed\n", g_pass, g_fail);
  return g_fail ? 1 : 0;
}
