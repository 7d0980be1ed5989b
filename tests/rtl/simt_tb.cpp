// Block testbench of the SIMT core: tests/rtl/simt_tb_top.sv = gc_simt (compute front + SMs) with
// its own atomic unit and crossbar, behind the cosim AXI4 memory model (cosim/axi_mem.h: SYSMEM
// 100 cycles / 4 B per cycle, VIDMEM 40 cycles / 8 B per cycle, DECERR outside the windows,
// optional random stalls).  The bench plays runlist 0's PBDMA: it writes TMDs into memory,
// launches them on cmd_* and waits for done_o; it reads the COMPUTE registers on regs_o.
//
// Built three times by the Makefile (simt_bench): build/rtl_simt8/test_simt8 (LANES = 8, the
// default), build/rtl_simt32/test_simt32 (-GLANES=32) and build/rtl_simt2sm/test_simt2sm (-GNSM=2).
// The bench reads NUM_SM / WARPS / LANES from COMPUTE.CONFIG, so the same cases run on all three
// (case names get the binary's name as a prefix: simt8_isa_one_lane, ...).  Programs: build/firmware/kernels.elf
// (firmware/kernels/*.c, the C kernels) and build/firmware/simt_isa.elf (tests/rtl/simt_isa.S),
// found next to the binary (../firmware), loaded with hostdrv's ELF loader (hostdrv/compute/elf.c,
// compiled in without its device part).
//
// Cases (tcase.h: --list, or names; the runner runs each in its own process):
//   isa_*        every RV32IMA instruction (simt_isa_list.h): one lane, all lanes of all warps
//                with different data per lane (divergent branches and jumps included), 2-D/3-D
//                grids, random memory stalls; checked against values computed here.  Edge cases:
//                division by zero and INT_MIN / -1 on some lanes, x0 writes, sub-word accesses in
//                every memory space, LR/SC success and failure (also broken by another thread's
//                plain store: isa_lrsc_store; 4-byte reservation words against AMOs and SCs on
//                the other half of the beat: isa_lrsc_amo; one LR for the lanes on one word:
//                isa_lrsc_pairs), CSRs of every thread.
//   kern_*       the C kernels against host computations, several grid / CTA shapes (partial
//                warps, more CTAs than warp slots, 2-D and 3-D), shared memory with barriers,
//                global and shared atomics, LR/SC, data-dependent divergence.
//   fault_*      each fault cause: the record (cause, PC, lane, warp, address; a posted store's
//                bus error names the store although the thread ran on: fault_store_late), the error
//                completion, and a correct kernel right after (the core is usable again).
//   tmd_*        TMD checks (BAD_TMD, TMD_BUS_ERROR), completion release and interrupt.
//   tmu_*        the task management unit (simt_isa.S tmu_task, the task log on): pending-list
//                order by LEVEL with head / tail insertion, eviction vs NO_EVICT (per-CTA counters,
//                EVICTIONS, launch-to-START cycles), nested LAUNCHes (DEPTH, PRIORITY, FULL,
//                BAD_ADDR, completion order), a faulting child.  kern_back_to_back: one channel's
//                tasks in sequence, four channels' tasks at once (run_host plays the PBDMA).
//   perf_*       IPC of an ALU-bound loop, bytes per cycle of a streaming kernel, active lanes
//                after divergence (printed for make bench; loose lower bounds asserted).
#include <verilated.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "Vsimt_tb_top.h"
#include "../../cosim/gc_cov.h"

#define GC_ELF_NO_DEVICE
#define GC_COMPUTE_NO_DEVICE
#include "../../hostdrv/compute/compute.c"
#include "../../hostdrv/compute/elf.c"
#include "harness.h"
#include "gc_kernels.h"
#include "tcase.h"

namespace {

std::string g_fw;   // directory of the firmware images
unsigned g_mutate;  // the mutation build (SIMT_TB_MUTATIONS): +gc_mutate=N of every new Sim (0: none)
std::string g_mem_inject;  // the memory model's inject mode of every new Sim (cosim/axi_mem.h)

uint64_t env_u64(const char *name, uint64_t dflt) {
    const char *v = std::getenv(name);
    return (v && *v) ? std::strtoull(v, nullptr, 0) : dflt;
}

// ------------------------------------------------------------------------------------------ Sim
// The shared harness (cosim/harness.h: clock, reset, the AXI4 memory model on the m_* pins) with
// the register block's part for the TMU and the records of done_o, nonstall_o and the faults.
struct Sim : gctb::Harness<Vsimt_tb_top> {
    unsigned nl = 0, nw = 0, nsm = 0;
    uint64_t heap = GC_VIDMEM_BASE + 0x00100000;   // bump allocator, device addresses
    uint64_t sys_heap = GC_SYSMEM_BASE + 0x00100000;
    unsigned nonstall = 0, task_faults = 0, launch_fails = 0;
    bool fault_pend = false;                       // models INTR_STATUS.TASK_FAULT
    bool lfail_pend = false;                       // models INTR_STATUS.LAUNCH_FAIL
    uint64_t log_base = 0;                         // COMPUTE.LOG_BASE (0: log off)
    struct Done {
        uint64_t cycle;
        unsigned ch;
        bool err;
    };
    std::vector<Done> dones;                       // every done_o pulse
    unsigned max_slots_busy = 0;                   // largest COMPUTE.DBG.SLOTS_BUSY seen

    explicit Sim(uint32_t stall_pct = 0, uint64_t seed = 1) : Harness(env_u64("GPUCOSIM_SEED", seed)) {
        {   // +gc_mutate=N: read by gc_sm's initial block (GC_MUTATIONS builds) at the first eval
            std::string a = "+gc_mutate=" + std::to_string(g_mutate);
            const char *av[] = {"simt_tb", a.c_str()};
            ctx->commandArgs(2, av);
        }
        cov_tag = "simt";
        attach_mem(100, 4, 40, 8, (uint32_t)env_u64("GPUCOSIM_STALL_PCT", stall_pct), g_mem_inject);
        pre_edge = [this] { edge_records(); };
        post_edge = [this] {
            top->task_fault_pend_i = fault_pend;
            top->launch_fail_pend_i = lfail_pend;
        };
        top->cmd_valid_i = 0;
        top->task_fault_pend_i = 0;
        top->launch_fail_pend_i = 0;
        top->log_base_i = 0;
        top->log_en_i = 0;
        top->log_size_log2_i = 0;
        top->log_ctrl_we_i = 0;
        top->no_evict_i = 0;
        reset(4);
        uint32_t cfg = reg(GC_REG_COMPUTE_CONFIG);
        nl = GC_COMPUTE_CONFIG_LANES_GET(cfg);
        nw = GC_COMPUTE_CONFIG_WARPS_GET(cfg);
        nsm = GC_COMPUTE_CONFIG_NUM_SM_GET(cfg);
    }
    // this cycle's outputs, before the rising edge
    void edge_records() {
        Vsimt_tb_top &t = *top;
        if (t.nonstall_o) nonstall++;
        if (t.task_fault_o) {
            task_faults++;
            fault_pend = true;
        }
        if (t.launch_fail_o) {
            launch_fails++;
            lfail_pend = true;
        }
        if (t.done_o) dones.push_back({cycle, t.done_ch_o, (bool)t.done_err_o});
        unsigned busy = GC_COMPUTE_DBG_SLOTS_BUSY_GET(reg(GC_REG_COMPUTE_DBG));
        if (busy > max_slots_busy) max_slots_busy = busy;
    }

    // ---- the task log (COMPUTE.LOG_*): on, at a fresh ring of 2^size_log2 records
    void log_on(unsigned size_log2 = 9) {
        log_base = alloc((size_t)GC_TMU_LOG_SIZE << size_log2, GC_TMU_LOG_ALIGN);
        std::vector<uint8_t> z((size_t)GC_TMU_LOG_SIZE << size_log2, 0);
        write(log_base, z.data(), z.size());
        top->log_base_i = log_base;
        top->log_size_log2_i = size_log2;
        top->log_en_i = 1;
        top->log_ctrl_we_i = 1;   // a LOG_CTRL write: LOG_PUT = 0
        tick();
        top->log_ctrl_we_i = 0;
    }
    struct Rec {
        unsigned kind, slot, level, depth, ch;
        uint32_t task;
        uint64_t stamp;
    };
    std::vector<Rec> log_read() {
        std::vector<Rec> v;
        uint32_t n = reg(GC_REG_COMPUTE_LOG_PUT);
        for (uint32_t i = 0; i < n; i++) {
            std::vector<uint32_t> w = get(log_base + (uint64_t)GC_TMU_LOG_SIZE * (i % (1u << top->log_size_log2_i)), 4);
            uint32_t e = w[GC_TMU_LOG_EVENT / 4];
            v.push_back({GC_TMU_LOG_EVENT_KIND_GET(e), GC_TMU_LOG_EVENT_SLOT_GET(e), GC_TMU_LOG_EVENT_LEVEL_GET(e),
                         GC_TMU_LOG_EVENT_DEPTH_GET(e), GC_TMU_LOG_EVENT_CHANNEL_GET(e), w[GC_TMU_LOG_TASK / 4],
                         ((uint64_t)w[GC_TMU_LOG_STAMP_HI / 4] << 32) | w[GC_TMU_LOG_STAMP_LO / 4]});
        }
        return v;
    }

    // ---- several host launches, as runlist 0's PBDMA makes them: each channel has at most one
    // task in flight (its next launch waits for done_o with done_ch_o = the channel); launches
    // of different channels go out in vector order as soon as their channel is free, not before
    // cycle not_before; one launch at a time on cmd_*.
    struct HostTask {
        unsigned ch;
        uint64_t tmd;
        uint64_t not_before = 0;
        bool launched = false, fin = false, err = false;
        uint64_t acc = 0, done = 0;   // cycles: accepted, done_o
    };
    bool run_host(std::vector<HostTask> &v, uint64_t max_cycles = 3000000) {
        uint64_t t0 = cycle;
        int cur = -1;
        size_t nfin = 0;
        while (nfin < v.size() && cycle - t0 < max_cycles) {
            if (cur < 0) {
                for (size_t i = 0; i < v.size() && cur < 0; i++) {
                    if (v[i].launched || cycle < v[i].not_before) continue;
                    bool busy = false;
                    for (size_t j = 0; j < v.size(); j++)
                        if (v[j].ch == v[i].ch && (j < i ? !v[j].fin : (v[j].launched && !v[j].fin))) busy = true;
                    if (!busy) cur = (int)i;
                }
            }
            top->cmd_valid_i = cur >= 0;
            top->cmd_tmd_i = cur >= 0 ? v[cur].tmd : 0;
            top->cmd_ch_i = cur >= 0 ? v[cur].ch : 0;
            top->clk_i = 0;
            top->eval();
            bool acc = top->cmd_valid_i && top->cmd_ready_o;
            if (top->done_o) {
                bool found = false;
                for (auto &h : v)
                    if (h.launched && !h.fin && h.ch == top->done_ch_o) {
                        h.fin = true;
                        h.err = top->done_err_o;
                        h.done = cycle;
                        nfin++;
                        found = true;
                        break;
                    }
                if (!found) TCASE_FAIL_("done_o for channel %u with no task in flight", (unsigned)top->done_ch_o);
            }
            tick();
            if (acc) {
                v[cur].launched = true;
                v[cur].acc = cycle - 1;
                cur = -1;
            }
        }
        top->cmd_valid_i = 0;
        if (nfin < v.size())
            std::fprintf(stderr, "bench: %zu of %zu host tasks done after %" PRIu64 " cycles; COMPUTE.DBG 0x%08x\n",
                         nfin, v.size(), cycle - t0, reg(GC_REG_COMPUTE_DBG));
        return nfin == v.size();
    }

    uint32_t reg(uint32_t off) { return top->regs_o[(off - GC_REG_COMPUTE_BASE) / 4]; }

    uint64_t alloc(size_t bytes, size_t align = 256, bool sys = false) {
        uint64_t &h = sys ? sys_heap : heap;
        h = (h + align - 1) & ~(uint64_t)(align - 1);
        uint64_t a = h;
        h += bytes;
        return a;
    }
    void write(uint64_t dev, const void *src, size_t n) {
        if (!mem->host_write(dev, src, n)) {
            std::fprintf(stderr, "bench: host write outside memory: 0x%" PRIx64 "\n", dev);
            std::exit(2);
        }
    }
    void read(uint64_t dev, void *dst, size_t n) {
        if (!mem->host_read(dev, dst, n)) {
            std::fprintf(stderr, "bench: host read outside memory: 0x%" PRIx64 "\n", dev);
            std::exit(2);
        }
    }
    void w32(uint64_t dev, uint32_t v) { write(dev, &v, 4); }
    uint32_t r32(uint64_t dev) {
        uint32_t v;
        read(dev, &v, 4);
        return v;
    }
    uint64_t put(const std::vector<uint32_t> &v) {
        uint64_t a = alloc(v.size() * 4 + 4);
        if (!v.empty()) write(a, v.data(), v.size() * 4);
        return a;
    }
    std::vector<uint32_t> get(uint64_t a, size_t n) {
        std::vector<uint32_t> v(n);
        if (n) read(a, v.data(), n * 4);
        return v;
    }

    gc_elf_t *load(const char *file) {
        std::string path = g_fw + "/" + file;
        gc_elf_t *e = nullptr;
        char err[256];
        if (gc_elf_read_file(path.c_str(), &e, err, sizeof err) != GC_OK) {
            std::fprintf(stderr, "bench: %s\n", err);
            return nullptr;
        }
        auto wr = [](void *ctx, uint32_t ta, const void *src, size_t n) -> int {
            uint64_t d;
            if (!gc_simt_to_device(ta, &d)) return -1;
            return static_cast<Sim *>(ctx)->mem->host_write(d, src, n) ? 0 : -1;
        };
        if (gc_elf_load_with(e, wr, this, err, sizeof err) != GC_OK) {
            std::fprintf(stderr, "bench: %s\n", err);
            gc_elf_free(e);
            return nullptr;
        }
        return e;
    }

    struct Result {
        bool done = false, err = false;
        uint64_t cycles = 0;
        uint64_t tmd = 0;
    };

    // Write the TMD, launch it, run until done_o (or max cycles)
    Result run(const gc_tmd_t &t, uint64_t max_cycles = 3000000, uint64_t tmd_addr = 0) {
        Result r;
        uint32_t w[GC_TMD_WORDS];
        if (gc_tmd_encode(&t, w) != GC_OK) {
            std::fprintf(stderr, "bench: TMD does not encode\n");
            return r;
        }
        if (!tmd_addr) {
            tmd_addr = alloc(GC_TMD_SIZE, GC_TMD_ALIGN);
            write(tmd_addr, w, sizeof w);
        }
        r.tmd = tmd_addr;
        return launch(tmd_addr, max_cycles);
    }
    Result launch(uint64_t tmd_addr, uint64_t max_cycles = 3000000) {
        Result r;
        r.tmd = tmd_addr;
        uint64_t t0 = cycle;
        top->cmd_valid_i = 1;
        top->cmd_tmd_i = tmd_addr;
        top->cmd_ch_i = 5;
        while (cycle - t0 < max_cycles) {
            top->clk_i = 0;
            top->eval();
            bool acc = top->cmd_valid_i && top->cmd_ready_o;
            bool done = top->done_o, err = top->done_err_o;
            if (done && top->done_ch_o != 5) TCASE_FAIL_("done_ch_o %u, want 5", (unsigned)top->done_ch_o);
            tick();
            if (acc) top->cmd_valid_i = 0;
            if (done) {
                r.done = true;
                r.err = err;
                break;
            }
        }
        top->cmd_valid_i = 0;
        r.cycles = cycle - t0;
        if (!r.done) {
            std::fprintf(stderr, "bench: task at 0x%" PRIx64 " not done after %" PRIu64 " cycles; COMPUTE.DBG 0x%08x\n",
                         tmd_addr, r.cycles, reg(GC_REG_COMPUTE_DBG));
        }
        return r;
    }
    void run_idle(unsigned n) {
        for (unsigned i = 0; i < n; i++) tick();
    }
};

uint32_t sym(gc_elf_t *e, const char *name) {
    uint32_t v = 0;
    if (gc_elf_symbol(e, name, &v) != GC_OK) {
        std::fprintf(stderr, "bench: no symbol %s\n", name);
        std::exit(2);
    }
    return v;
}
uint32_t tp(uint64_t dev) { return gc_simt_ptr(dev); }

// ------------------------------------------------------------------------------------------ ISA
struct Thr {
    uint32_t g, t, tid[3], ctaid[3], ntid[3], nctaid[3], warp, lane, nl, task, param, nsm;
};
struct Exp {
    uint32_t v[3];
    bool cmp[3];
    bool range[3] = {false, false, false};   // r_k in [lo_k, hi_k] instead of == v[k]
    uint32_t lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
};
Exp e3(uint32_t a, uint32_t b, uint32_t c) { return Exp{{a, b, c}, {true, true, true}}; }
using RefFn = std::function<Exp(const Thr &, uint32_t a, uint32_t b)>;
struct IsaTest {
    std::string name;
    RefFn ref;
    std::string fop;   // F instruction tests (FP in simt_isa_list.h): the vector file's operation
    int frm;           //   its rounding mode, -1: dyn (frm = lane % 5)
};

// ---- F instruction tests: operands and expected values from the SoftFloat vectors
// (scripts/gen_fp_vectors.py -> build/fpvec/vectors.txt, compiled in as FPU_VECTORS)
#ifndef FPU_VECTORS
#define FPU_VECTORS "build/fpvec/vectors.txt"
#endif
struct FVec {
    uint32_t a, b, c, r, fl;
};
const std::map<std::pair<std::string, int>, std::vector<FVec>> *fp_vectors() {
    static std::map<std::pair<std::string, int>, std::vector<FVec>> m;
    static bool loaded = false, ok = false;
    if (!loaded) {
        loaded = true;
        FILE *f = std::fopen(FPU_VECTORS, "r");
        if (!f) return nullptr;
        char name[32];
        unsigned rm;
        FVec v;
        while (std::fscanf(f, "%31s %x %x %x %x %x %x", name, &rm, &v.a, &v.b, &v.c, &v.r, &v.fl) == 7)
            m[{name, (int)rm}].push_back(v);
        std::fclose(f);
        ok = !m.empty();
    }
    return ok ? &m : nullptr;
}
// the vector thread g uses for test i: rotating through operands with an exponent field of 0 or
// 255 (zeros, subnormals, infinities, NaNs), results that raise UF / OF / NV / DZ, and any
const FVec *fp_pick(const std::vector<FVec> &pool, uint32_t g, uint32_t i, uint64_t seed) {
    auto special = [](uint32_t x) { uint32_t e = (x >> 23) & 0xFF; return e == 0 || e == 0xFF; };
    std::mt19937_64 r(seed * 0x2545F4914F6CDD1Dull + g * 7919ull + i * 104729ull);
    size_t start = r() % pool.size();
    unsigned kind = (g + i) % 4;
    for (size_t k = 0; k < pool.size(); k++) {
        const FVec &v = pool[(start + k) % pool.size()];
        bool want = kind == 0 ? (special(v.a) || special(v.b) || special(v.c))
                    : kind == 1 ? (v.fl & 0x1E) != 0
                                : true;
        if (want) return &v;
    }
    return &pool[start];
}

uint32_t rr_add(uint32_t a, uint32_t b) { return a + b; }
uint32_t rr_sub(uint32_t a, uint32_t b) { return a - b; }
uint32_t rr_sll(uint32_t a, uint32_t b) { return a << (b & 31); }
uint32_t rr_slt(uint32_t a, uint32_t b) { return (int32_t)a < (int32_t)b; }
uint32_t rr_sltu(uint32_t a, uint32_t b) { return a < b; }
uint32_t rr_xor(uint32_t a, uint32_t b) { return a ^ b; }
uint32_t rr_srl(uint32_t a, uint32_t b) { return a >> (b & 31); }
uint32_t rr_sra(uint32_t a, uint32_t b) { return (uint32_t)((int32_t)a >> (b & 31)); }
uint32_t rr_or(uint32_t a, uint32_t b) { return a | b; }
uint32_t rr_and(uint32_t a, uint32_t b) { return a & b; }
uint32_t rr_mul(uint32_t a, uint32_t b) { return a * b; }
uint32_t rr_mulh(uint32_t a, uint32_t b) { return (uint32_t)(((int64_t)(int32_t)a * (int64_t)(int32_t)b) >> 32); }
uint32_t rr_mulhsu(uint32_t a, uint32_t b) { return (uint32_t)(((int64_t)(int32_t)a * (int64_t)(uint64_t)b) >> 32); }
uint32_t rr_mulhu(uint32_t a, uint32_t b) { return (uint32_t)(((uint64_t)a * b) >> 32); }
// RISC-V M: division by zero and overflow defined (not C's undefined behaviour)
uint32_t rr_div(uint32_t a, uint32_t b) {
    if (b == 0) return 0xFFFFFFFFu;
    if (a == 0x80000000u && b == 0xFFFFFFFFu) return a;
    return (uint32_t)((int32_t)a / (int32_t)b);
}
uint32_t rr_divu(uint32_t a, uint32_t b) { return b ? a / b : 0xFFFFFFFFu; }
uint32_t rr_rem(uint32_t a, uint32_t b) {
    if (b == 0) return a;
    if (a == 0x80000000u && b == 0xFFFFFFFFu) return 0;
    return (uint32_t)((int32_t)a % (int32_t)b);
}
uint32_t rr_remu(uint32_t a, uint32_t b) { return b ? a % b : a; }
uint32_t ri_addi(uint32_t a, int32_t i) { return a + (uint32_t)i; }
uint32_t ri_slti(uint32_t a, int32_t i) { return (int32_t)a < i; }
uint32_t ri_sltiu(uint32_t a, int32_t i) { return a < (uint32_t)i; }
uint32_t ri_xori(uint32_t a, int32_t i) { return a ^ (uint32_t)i; }
uint32_t ri_ori(uint32_t a, int32_t i) { return a | (uint32_t)i; }
uint32_t ri_andi(uint32_t a, int32_t i) { return a & (uint32_t)i; }
uint32_t ri_slli(uint32_t a, int32_t i) { return a << i; }
uint32_t ri_srli(uint32_t a, int32_t i) { return a >> i; }
uint32_t ri_srai(uint32_t a, int32_t i) { return (uint32_t)((int32_t)a >> i); }
bool br_beq(uint32_t a, uint32_t b) { return a == b; }
bool br_bne(uint32_t a, uint32_t b) { return a != b; }
bool br_blt(uint32_t a, uint32_t b) { return (int32_t)a < (int32_t)b; }
bool br_bge(uint32_t a, uint32_t b) { return (int32_t)a >= (int32_t)b; }
bool br_bltu(uint32_t a, uint32_t b) { return a < b; }
bool br_bgeu(uint32_t a, uint32_t b) { return a >= b; }
uint32_t ld_lb(uint32_t w, int o) { return (uint32_t)(int32_t)(int8_t)(w >> (8 * o)); }
uint32_t ld_lbu(uint32_t w, int o) { return (w >> (8 * o)) & 0xFF; }
uint32_t ld_lh(uint32_t w, int o) { return (uint32_t)(int32_t)(int16_t)(w >> (8 * o)); }
uint32_t ld_lhu(uint32_t w, int o) { return (w >> (8 * o)) & 0xFFFF; }
uint32_t ld_lw(uint32_t w, int) { return w; }
uint32_t st_sb(uint32_t w, uint32_t a, int o) { return (w & ~(0xFFu << (8 * o))) | ((a & 0xFF) << (8 * o)); }
uint32_t st_sh(uint32_t w, uint32_t a, int o) { return (w & ~(0xFFFFu << (8 * o))) | ((a & 0xFFFF) << (8 * o)); }
uint32_t st_sw(uint32_t, uint32_t a, int) { return a; }
uint32_t amo_amoadd(uint32_t m, uint32_t a) { return m + a; }
uint32_t amo_amoswap(uint32_t, uint32_t a) { return a; }
uint32_t amo_amoxor(uint32_t m, uint32_t a) { return m ^ a; }
uint32_t amo_amoor(uint32_t m, uint32_t a) { return m | a; }
uint32_t amo_amoand(uint32_t m, uint32_t a) { return m & a; }
uint32_t amo_amomin(uint32_t m, uint32_t a) { return (int32_t)m < (int32_t)a ? m : a; }
uint32_t amo_amomax(uint32_t m, uint32_t a) { return (int32_t)m > (int32_t)a ? m : a; }
uint32_t amo_amominu(uint32_t m, uint32_t a) { return m < a ? m : a; }
uint32_t amo_amomaxu(uint32_t m, uint32_t a) { return m > a ? m : a; }

Exp sp_lui(const Thr &, uint32_t, uint32_t) { return e3(0x12345000u, 0xFFFFF000u, 0x80000000u); }
Exp sp_auipc(const Thr &, uint32_t, uint32_t) {
    Exp e = e3(0xFFCu, 4, 0);
    e.cmp[2] = false;   // an address
    return e;
}
Exp sp_jal(const Thr &, uint32_t, uint32_t) { return e3(4, 7, 0); }
Exp sp_jalr(const Thr &, uint32_t a, uint32_t) { return e3(10 + (a & 3), 0, 0); }
Exp sp_jalr_odd(const Thr &, uint32_t, uint32_t) { return e3(2, (uint32_t)-4, 0); }
Exp sp_x0(const Thr &, uint32_t a, uint32_t b) { return e3(0, 0, b + a); }
Exp sp_lrsc(const Thr &, uint32_t a, uint32_t b) { return e3(b, 2, a); }
Exp sp_fence(const Thr &, uint32_t a, uint32_t b) { return e3(a, b, 0); }
Exp sp_csr_tid(const Thr &t, uint32_t, uint32_t) { return e3(t.tid[0], t.tid[1], t.tid[2]); }
Exp sp_csr_ctaid(const Thr &t, uint32_t, uint32_t) { return e3(t.ctaid[0], t.ctaid[1], t.ctaid[2]); }
Exp sp_csr_ntid(const Thr &t, uint32_t, uint32_t) { return e3(t.ntid[0], t.ntid[1], t.ntid[2]); }
Exp sp_csr_nctaid(const Thr &t, uint32_t, uint32_t) { return e3(t.nctaid[0], t.nctaid[1], t.nctaid[2]); }
Exp sp_csr_warp(const Thr &t, uint32_t, uint32_t) { return e3(t.warp, t.lane, t.nl); }
Exp sp_csr_task(const Thr &t, uint32_t, uint32_t) {
    Exp e = e3(t.task, t.param, 0);
    e.range[2] = true;   // SMID: whichever SM ran the CTA
    e.hi[2] = t.nsm - 1;
    return e;
}
Exp sp_csr_imm(const Thr &t, uint32_t, uint32_t) { return e3(t.tid[0], t.nl, t.lane); }
Exp sp_cycle(const Thr &, uint32_t, uint32_t) {
    Exp e = e3(0, 0, 0);
    e.range[0] = true;
    e.lo[0] = 3;
    e.hi[0] = 100000;
    return e;
}
Exp sp_stld_forward(const Thr &, uint32_t a, uint32_t b) {
    uint32_t w1 = (a & 0xFFFF) | (b << 16);
    return e3(a, w1, (a & 0xFF) | ((a & 0xFF) << 8));
}
Exp sp_fcsr(const Thr &, uint32_t a, uint32_t) {
    // after 0x1FF: fcsr 0xFF; fflags 0x1F &~ 0x15 = 0x0A; frm 7 -> 3; fflags | 0x11 = 0x1B;
    // fcsr (3 << 5 | 0x1B = 0x7B) &~ a
    return e3(0xFF, 0x1Fu | (7u << 8) | (0x0Au << 16) | (0x7Bu << 24), 0x7Bu & ~a & 0xFF);
}
Exp sp_fp_chain(const Thr &, uint32_t a, uint32_t) {
    uint32_t x = a & 255;
    return e3(2 * x * x, 2 * x * x + x, 0);
}
Exp sp_ld_st_order(const Thr &, uint32_t a, uint32_t b) { return e3(a, b, a + b); }
Exp sp_waw(const Thr &, uint32_t a, uint32_t) { return e3(7, a + 1, a + 1); }
Exp sp_nested_div(const Thr &, uint32_t a, uint32_t b) {
    uint32_t r = 0;
    for (uint32_t t = a & 7; t; t--) r += (t & 1) ? 3 : 5;
    return e3(r, (b & 1) ? r + 100 : 0, r);
}

std::vector<IsaTest> isa_tests() {
    std::vector<IsaTest> v;
#define RR(op) v.push_back({#op, [](const Thr &, uint32_t a, uint32_t b) { return e3(rr_##op(a, b), 0, 0); }});
#define RI(op, imm) \
    v.push_back({#op " " #imm, [](const Thr &, uint32_t a, uint32_t) { return e3(ri_##op(a, (int32_t)(imm)), 0, 0); }});
#define BR(op) v.push_back({#op, [](const Thr &, uint32_t a, uint32_t b) { return e3(br_##op(a, b) ? 1 : 0, 0, 0); }});
#define LD(sp, op, o) \
    v.push_back({#sp " " #op " " #o, [](const Thr &, uint32_t, uint32_t b) { return e3(ld_##op(b, o), 0, 0); }});
#define ST(sp, op, o) \
    v.push_back({#sp " " #op " " #o, [](const Thr &, uint32_t a, uint32_t b) { return e3(st_##op(b, a, o), 0, 0); }});
#define AMO(sp, op) \
    v.push_back({#sp " " #op, [](const Thr &, uint32_t a, uint32_t b) { return e3(b, amo_##op(b, a), 0); }});
#define SP(name) v.push_back({#name, sp_##name});
    constexpr int rm_rne = 0, rm_rtz = 1, rm_rdn = 2, rm_rup = 3, rm_rmm = 4, rm_dyn = -1, rm_none = 0;
#define FP(form, m, op, rm) v.push_back({#m " " #rm, nullptr, #op, rm_##rm});
#define FLS(sp) v.push_back({"flw/fsw " #sp, [](const Thr &, uint32_t a, uint32_t b) { return e3(b, a, 0); }});
#include "simt_isa_list.h"
#undef FP
#undef FLS
#undef RR
#undef RI
#undef BR
#undef LD
#undef ST
#undef AMO
#undef SP
    return v;
}

// Inputs of thread g, test i: random, with edge values, and patterns that make some lanes hit
// INT_MIN / -1, division by zero, equal operands
void isa_inputs(uint32_t g, uint32_t i, uint64_t seed, uint32_t &a, uint32_t &b, uint32_t &c) {
    static const uint32_t edge[] = {0, 1, 2, 0xFFFFFFFFu, 0xFFFFFFFEu, 0x80000000u, 0x7FFFFFFFu, 0x80000001u,
                                    31, 32, 0xFFFF, 0x8000, 0xFF, 0x80, 0x12345678u, 0xFEDCBA98u};
    std::mt19937_64 r(seed * 0x9E3779B97F4A7C15ull + g * 1000003ull + i);
    auto pick = [&]() -> uint32_t { return (r() % 3 == 0) ? edge[r() % 16] : (uint32_t)r(); };
    a = pick();
    b = pick();
    c = pick();
    switch (g % 8) {
    case 0: a = 0x80000000u; b = 0xFFFFFFFFu; break;
    case 1: b = 0; break;
    case 2: b = a; break;
    case 3: b = a + 1; break;
    default: break;
    }
}

struct Dims {
    uint32_t x, y, z;
    uint32_t n() const { return x * y * z; }
};

Thr thread_of(uint32_t g, Dims grid, Dims cta, uint32_t nl, uint32_t task, uint32_t param, uint32_t nsm) {
    Thr t{};
    t.nsm = nsm;
    t.g = g;
    uint32_t c = g / cta.n(), l = g % cta.n();
    t.t = l;
    t.ctaid[0] = c % grid.x;
    t.ctaid[1] = (c / grid.x) % grid.y;
    t.ctaid[2] = c / (grid.x * grid.y);
    t.tid[0] = l % cta.x;
    t.tid[1] = (l / cta.x) % cta.y;
    t.tid[2] = l / (cta.x * cta.y);
    t.ntid[0] = cta.x;
    t.ntid[1] = cta.y;
    t.ntid[2] = cta.z;
    t.nctaid[0] = grid.x;
    t.nctaid[1] = grid.y;
    t.nctaid[2] = grid.z;
    t.warp = l / nl;
    t.lane = l % nl;
    t.nl = nl;
    t.task = task;
    t.param = param;
    return t;
}

void isa_run(Dims grid, Dims cta, uint32_t stall, uint64_t seed) {
    Sim s(stall, seed);
    gc_elf_t *e = s.load("simt_isa.elf");
    REQUIRE(e);
    std::vector<IsaTest> tests = isa_tests();
    const uint32_t nt = (uint32_t)tests.size();
    if (cta.n() > s.nw * s.nl) {   // the 32-lane build has room for more
        gc_elf_free(e);
        TCASE_FAIL_("CTA of %u threads does not fit %u x %u", cta.n(), s.nw, s.nl);
        return;
    }
    uint32_t threads = grid.n() * cta.n();
    const auto *fv = fp_vectors();
    if (!fv) {
        gc_elf_free(e);
        TCASE_FAIL_("no FP vectors in %s (make builds them with scripts/gen_fp_vectors.py)", FPU_VECTORS);
        return;
    }
    std::vector<uint32_t> in(threads * nt * 3);
    std::vector<const FVec *> fpv(threads * nt, nullptr);
    for (uint32_t g = 0; g < threads; g++) {
        Thr th = thread_of(g, grid, cta, s.nl, 0, 0, s.nsm);
        for (uint32_t i = 0; i < nt; i++) {
            uint32_t *x = &in[(g * nt + i) * 3];
            isa_inputs(g, i, seed, x[0], x[1], x[2]);
            if (tests[i].fop.empty()) continue;
            int rm = tests[i].frm < 0 ? (int)(th.lane % 5) : tests[i].frm;
            auto it = fv->find({tests[i].fop, rm});
            if (it == fv->end() || it->second.empty()) {
                gc_elf_free(e);
                TCASE_FAIL_("no vectors for %s rm %d in %s", tests[i].fop.c_str(), rm, FPU_VECTORS);
                return;
            }
            const FVec *v = fp_pick(it->second, g, i, seed);
            fpv[g * nt + i] = v;
            x[0] = v->a, x[1] = v->b, x[2] = v->c;
        }
    }
    uint64_t din = s.put(in);
    uint64_t dout = s.alloc(threads * nt * 12);
    std::vector<uint32_t> junk(threads * nt * 3, 0xDEADBEEFu);
    s.write(dout, junk.data(), junk.size() * 4);
    uint64_t dscr = s.alloc(threads * 16);
    uint64_t dpar = s.put({tp(din), tp(dout), tp(dscr), nt});
    gc_tmd_t t;
    gc_tmd_init(&t);
    t.entry_pc = sym(e, "isa_main");
    t.param = tp(dpar);
    t.grid[0] = grid.x, t.grid[1] = grid.y, t.grid[2] = grid.z;
    t.cta[0] = cta.x, t.cta[1] = cta.y, t.cta[2] = cta.z;
    t.smem_bytes = cta.n() * 16;
    Sim::Result r = s.run(t);
    REQUIRE(r.done);
    CHECK(!r.err);
    std::vector<uint32_t> out = s.get(dout, threads * nt * 3);
    unsigned bad = 0, checks = 0;
    for (uint32_t g = 0; g < threads; g++) {
        Thr th = thread_of(g, grid, cta, s.nl, (uint32_t)(r.tmd >> 8), tp(dpar), s.nsm);
        for (uint32_t i = 0; i < nt; i++) {
            uint32_t a = in[(g * nt + i) * 3], b = in[(g * nt + i) * 3 + 1];
            const uint32_t *got = &out[(g * nt + i) * 3];
            Exp x;
            if (const FVec *v = fpv[g * nt + i]) {
                uint32_t frm = tests[i].frm < 0 ? th.lane % 5 : 0;
                x = e3(v->r, v->fl, (frm << 5) | v->fl);
            } else {
                x = tests[i].ref(th, a, b);
            }
            for (int k = 0; k < 3; k++) {
                bool ok;
                if (x.range[k]) ok = got[k] >= x.lo[k] && got[k] <= x.hi[k];
                else ok = !x.cmp[k] || got[k] == x.v[k];
                checks++;
                if (!ok && ++bad <= 25)
                    TCASE_FAIL_("%s: thread %u (CTA %u,%u,%u thread %u,%u,%u warp %u lane %u) a=0x%08x b=0x%08x c=0x%08x: r%d = 0x%08x, want 0x%08x",
                                tests[i].name.c_str(), g, th.ctaid[0], th.ctaid[1], th.ctaid[2], th.tid[0], th.tid[1],
                                th.tid[2], th.warp, th.lane, a, b, in[(g * nt + i) * 3 + 2], k, got[k], x.v[k]);
            }
        }
    }
    if (bad > 25) TCASE_FAIL_("... %u mismatches in all", bad);
    std::printf("isa: %u tests x %u threads = %u checks, %u bad, %" PRIu64 " cycles, %u warp instructions\n", nt,
                threads, checks, bad, r.cycles, s.reg(GC_REG_COMPUTE_WARP_INSTRS));
    gc_elf_free(e);
}

void t_isa_one_lane() { isa_run({1, 1, 1}, {1, 1, 1}, 0, 1); }
void t_isa_one_lane_b() { isa_run({1, 1, 1}, {1, 1, 1}, 0, 5); }
void t_isa_all_lanes() {
    Sim probe;
    isa_run({2, 1, 1}, {probe.nw * probe.nl, 1, 1}, 0, 2);
}
void t_isa_partial_warps() { isa_run({3, 1, 1}, {5, 1, 1}, 0, 3); }
void t_isa_3d() { isa_run({2, 2, 2}, {3, 2, 2}, 0, 4); }
void t_isa_stalls() {
    Sim probe;
    isa_run({1, 1, 1}, {probe.nw * probe.nl, 1, 1}, 30, 6);
}

// ------------------------------------------------------------------------------------------ kernels
struct Kern {
    Sim s;
    gc_elf_t *e = nullptr;
    explicit Kern(uint32_t stall = 0, uint64_t seed = 1) : s(stall, seed) { e = s.load("kernels.elf"); }
    ~Kern() { gc_elf_free(e); }
    Sim::Result run(const char *name, uint64_t param, Dims grid, Dims cta, uint32_t smem = 0) {
        gc_tmd_t t;
        gc_tmd_init(&t);
        t.entry_pc = sym(e, name);
        t.param = tp(param);
        t.grid[0] = grid.x, t.grid[1] = grid.y, t.grid[2] = grid.z;
        t.cta[0] = cta.x, t.cta[1] = cta.y, t.cta[2] = cta.z;
        t.smem_bytes = smem;
        return s.run(t);
    }
};

std::vector<uint32_t> rnd_vec(size_t n, uint64_t seed, uint32_t mask = 0xFFFFFFFFu) {
    std::mt19937_64 r(seed);
    std::vector<uint32_t> v(n);
    for (auto &x : v) x = (uint32_t)r() & mask;
    return v;
}

// The shapes every kernel runs with (partial warps, more CTAs than warp slots, multi-D)
std::vector<std::pair<Dims, Dims>> shapes(const Sim &s) {
    uint32_t full = s.nw * s.nl;
    return {{{1, 1, 1}, {1, 1, 1}},        {{1, 1, 1}, {s.nl, 1, 1}},   {{3, 1, 1}, {5, 1, 1}},
            {{17, 1, 1}, {s.nl, 1, 1}},    {{2, 1, 1}, {full, 1, 1}},    {{4, 1, 1}, {13, 1, 1}},
            {{2, 3, 1}, {4, 2, 1}},        {{2, 1, 2}, {3, 2, 2}}};
}

void vecadd_case(Kern &k, uint32_t n, Dims grid, Dims cta, uint64_t seed, bool sysmem = false,
                 const char *kernel = "vecadd") {
    Sim &s = k.s;
    std::vector<uint32_t> a = rnd_vec(n, seed), b = rnd_vec(n, seed + 1);
    uint64_t da = s.alloc(n * 4 + 64, 256, sysmem), db = s.alloc(n * 4 + 64, 256, sysmem);
    uint64_t dc = s.alloc(n * 4 + 64, 256, sysmem);
    s.write(da, a.data(), n * 4);
    s.write(db, b.data(), n * 4);
    std::vector<uint32_t> junk(n + 16, 0xC0FFEE00u);
    s.write(dc, junk.data(), junk.size() * 4);
    uint64_t p = s.put({tp(da), tp(db), tp(dc), n});
    Sim::Result r = k.run(kernel, p, grid, cta);
    REQUIRE(r.done && !r.err);
    std::vector<uint32_t> c = s.get(dc, n + 16);
    unsigned bad = 0;
    for (uint32_t i = 0; i < n; i++)
        if (c[i] != a[i] + b[i] && ++bad <= 5)
            TCASE_FAIL_("%s n=%u: c[%u] = 0x%x, want 0x%x", kernel, n, i, c[i], a[i] + b[i]);
    for (uint32_t i = n; i < n + 16; i++)
        if (c[i] != 0xC0FFEE00u && ++bad <= 5) TCASE_FAIL_("%s n=%u: c[%u] past the end was written", kernel, n, i);
}

void t_kern_vecadd() {
    Kern k;
    REQUIRE(k.e);
    uint64_t seed = 10;
    for (auto &sh : shapes(k.s)) {
        vecadd_case(k, 1 + (uint32_t)(seed * 37 % 300), sh.first, sh.second, seed);
        seed++;
    }
    vecadd_case(k, 1000, {3, 1, 1}, {k.s.nl * 2, 1, 1}, 99, true);   // data in sysmem
}

// vecadd_x4 (4 elements per thread and iteration, all loads first): every shape, n around the
// multiples of 4 x the grid's threads (unrolled loop only, tail only, both), data in sysmem
void t_kern_vecadd_x4() {
    Kern k;
    REQUIRE(k.e);
    uint64_t seed = 110;
    for (auto &sh : shapes(k.s)) {
        vecadd_case(k, 1 + (uint32_t)(seed * 37 % 300), sh.first, sh.second, seed, false, "vecadd_x4");
        seed++;
    }
    uint32_t t = 3 * k.s.nl * 2;   // grid {3}, CTA {2 * LANES}
    for (uint32_t n : {1u, t - 1, t, 3 * t, 4 * t - 1, 4 * t, 4 * t + 1, 8 * t + 5})
        vecadd_case(k, n, {3, 1, 1}, {k.s.nl * 2, 1, 1}, seed++, false, "vecadd_x4");
    vecadd_case(k, 1000, {3, 1, 1}, {k.s.nl * 2, 1, 1}, 199, true, "vecadd_x4");
}

void t_kern_saxpy() {
    Kern k;
    REQUIRE(k.e);
    uint64_t seed = 20;
    for (auto &sh : shapes(k.s)) {
        // y += ... is not idempotent: with y / z extents several threads would share an element
        if (sh.first.y * sh.first.z * sh.second.y * sh.second.z != 1) continue;
        Sim &s = k.s;
        uint32_t n = 3 + (uint32_t)(seed * 53 % 400);
        int32_t alpha = (int32_t)(seed * 7919) - 40000;
        std::vector<uint32_t> x = rnd_vec(n, seed), y = rnd_vec(n, seed + 1);
        uint64_t dx = s.put(x), dy = s.put(y);
        uint64_t p = s.put({tp(dx), tp(dy), n, (uint32_t)alpha});
        Sim::Result r = k.run("saxpy", p, sh.first, sh.second);
        REQUIRE(r.done && !r.err);
        std::vector<uint32_t> got = s.get(dy, n);
        for (uint32_t i = 0; i < n; i++) {
            uint32_t want = (uint32_t)alpha * x[i] + y[i];
            if (got[i] != want) {
                TCASE_FAIL_("saxpy n=%u alpha=%d: y[%u] = 0x%x, want 0x%x", n, alpha, i, got[i], want);
                break;
            }
        }
        seed++;
    }
}

void t_kern_reduce() {
    Kern k;
    REQUIRE(k.e);
    Sim &s = k.s;
    uint32_t full = s.nw * s.nl;
    std::vector<std::pair<Dims, Dims>> sh = {{{1, 1, 1}, {1, 1, 1}}, {{1, 1, 1}, {full, 1, 1}}, {{3, 1, 1}, {5, 1, 1}},
                                             {{9, 1, 1}, {s.nl + 3, 1, 1}}, {{6, 1, 1}, {full - 1, 1, 1}},
                                             {{2, 2, 1}, {4, 3, 1}}};
    uint64_t seed = 30;
    for (auto &[grid, cta] : sh) {
        uint32_t n = 1 + (uint32_t)(seed * 101 % 2000);
        std::vector<uint32_t> in = rnd_vec(n, seed, 0xFFFFF);
        uint64_t din = s.put(in), dout = s.alloc(grid.n() * 4), dtot = s.put({0});
        uint64_t p = s.put({tp(din), tp(dout), tp(dtot), n});
        Sim::Result r = k.run("reduce", p, grid, cta, cta.n() * 4);
        REQUIRE(r.done && !r.err);
        // the kernel's index scheme: thread (cta, t) sums i = ctaid_x * ntid_x + tid_x, step nctaid_x * ntid_x
        uint32_t total = 0;
        for (uint32_t c = 0; c < grid.n(); c++) {
            uint32_t cx = c % grid.x, part = 0;
            for (uint32_t t = 0; t < cta.n(); t++) {
                uint32_t tx = t % cta.x;
                for (uint32_t i = cx * cta.x + tx; i < n; i += grid.x * cta.x) part += in[i];
            }
            uint32_t got = s.r32(dout + 4 * c);
            if (got != part) TCASE_FAIL_("reduce n=%u grid %u cta %u: CTA %u = %u, want %u", n, grid.n(), cta.n(), c, got, part);
            total += part;
        }
        CHECK_EQ(s.r32(dtot), total);
        seed++;
    }
}

void histogram_case(Kern &k, uint32_t n, uint32_t nbins, uint32_t mode, Dims grid, Dims cta, uint64_t seed) {
    Sim &s = k.s;
    std::vector<uint32_t> in = rnd_vec(n, seed, 0xFFFF);
    uint64_t din = s.put(in), dbins = s.put(std::vector<uint32_t>(nbins, 0)), dmax = s.put({0}), dcnt = s.put({0});
    uint64_t p = s.put({tp(din), tp(dbins), tp(dmax), tp(dcnt), n, nbins, mode});
    Sim::Result r = k.run("histogram", p, grid, cta, mode ? nbins * 4 : 0);
    REQUIRE(r.done && !r.err);
    std::vector<uint32_t> want(nbins, 0);
    uint32_t mx = 0;
    for (uint32_t v : in) {
        want[v % nbins]++;
        if (v > mx) mx = v;
    }
    std::vector<uint32_t> got = s.get(dbins, nbins);
    for (uint32_t b = 0; b < nbins; b++)
        if (got[b] != want[b]) {
            TCASE_FAIL_("histogram n=%u mode %u grid %u cta %u: bin %u = %u, want %u", n, mode, grid.n(), cta.n(), b,
                        got[b], want[b]);
            break;
        }
    CHECK_EQ(s.r32(dmax), mx);
    CHECK_EQ(s.r32(dcnt), n);
}

void t_kern_histogram_global() {
    Kern k;
    REQUIRE(k.e);
    histogram_case(k, 200, 16, 0, {1, 1, 1}, {k.s.nl, 1, 1}, 40);
    histogram_case(k, 333, 7, 0, {5, 1, 1}, {6, 1, 1}, 41);
    histogram_case(k, 150, 3, 0, {2, 1, 1}, {k.s.nw * k.s.nl, 1, 1}, 42);
    histogram_case(k, 64, 64, 0, {11, 1, 1}, {1, 1, 1}, 43);
}

void t_kern_histogram_shared() {
    Kern k;
    REQUIRE(k.e);
    histogram_case(k, 300, 16, 1, {3, 1, 1}, {k.s.nl, 1, 1}, 50);
    histogram_case(k, 257, 5, 1, {4, 1, 1}, {7, 1, 1}, 51);
    histogram_case(k, 500, 32, 1, {2, 1, 1}, {k.s.nw * k.s.nl, 1, 1}, 52);
}

void divergent_case(Kern &k, uint32_t n, Dims grid, Dims cta, uint64_t seed) {
    Sim &s = k.s;
    std::vector<uint32_t> in(n);
    std::mt19937_64 r(seed);
    for (uint32_t i = 0; i < n; i++) {
        // neighbours take different paths: odd / multiple of 3 / the switch, small and large values
        uint32_t v = (uint32_t)r();
        switch (i % 6) {
        case 0: v = v | 1; break;
        case 1: v = (v % 1000) * 3 * 2; break;
        case 2: v = v & ~1u; break;
        case 3: v = v % 97; break;
        case 4: v = (v % 50) * 2 + 1; break;
        default: break;
        }
        in[i] = v;
    }
    uint64_t din = s.put(in), dout = s.alloc(n * 4);
    uint64_t p = s.put({tp(din), tp(dout), n});
    Sim::Result rr = k.run("divergent", p, grid, cta);
    REQUIRE(rr.done && !rr.err);
    std::vector<uint32_t> got = s.get(dout, n);
    unsigned bad = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t want = gc_divergent_elem(in[i]);
        if (got[i] != want && ++bad <= 5)
            TCASE_FAIL_("divergent n=%u grid %u cta %u: out[%u] (in 0x%x) = 0x%x, want 0x%x", n, grid.n(), cta.n(), i,
                        in[i], got[i], want);
    }
}

void t_kern_divergent() {
    Kern k;
    REQUIRE(k.e);
    uint64_t seed = 60;
    for (auto &sh : shapes(k.s)) {
        divergent_case(k, 1 + (uint32_t)(seed * 29 % 250), sh.first, sh.second, seed);
        seed++;
    }
}

void t_kern_stalls() {   // the kernels again under random memory stalls
    Kern k(30, 77);
    REQUIRE(k.e);
    vecadd_case(k, 300, {5, 1, 1}, {k.s.nl + 1, 1, 1}, 70);
    histogram_case(k, 200, 9, 1, {3, 1, 1}, {k.s.nl, 1, 1}, 71);
    histogram_case(k, 100, 4, 0, {2, 1, 1}, {5, 1, 1}, 72);
    divergent_case(k, 200, {4, 1, 1}, {k.s.nl * 2, 1, 1}, 73);
}

// Several tasks of one channel run one after the other (each waits for the previous one's done,
// as the PBDMA does); tasks of different channels run at once in different task slots.
void t_kern_back_to_back() {
    Kern k;
    REQUIRE(k.e);
    Sim &s = k.s;
    const int NT = 4;
    uint32_t n = 100;
    uint64_t buf = s.put(std::vector<uint32_t>(n, 1));
    auto saxpy_tmd = [&](uint64_t x, uint64_t y, uint32_t alpha) {
        uint64_t p = s.put({tp(x), tp(y), n, alpha});
        gc_tmd_t t;
        gc_tmd_init(&t);
        t.entry_pc = sym(k.e, "saxpy");
        t.param = tp(p);
        t.grid[0] = 3;
        t.cta[0] = 16;
        uint32_t w[GC_TMD_WORDS];
        if (gc_tmd_encode(&t, w) != GC_OK) return (uint64_t)0;
        uint64_t a = s.alloc(GC_TMD_SIZE, GC_TMD_ALIGN);
        s.write(a, w, sizeof w);
        return a;
    };
    std::vector<Sim::HostTask> v;
    for (int i = 0; i < NT; i++) v.push_back({5, saxpy_tmd(buf, buf, (uint32_t)(i + 1))});   // y = alpha * y + y
    REQUIRE(s.run_host(v, 400000));
    for (auto &h : v) CHECK(!h.err);
    for (int i = 1; i < NT; i++) CHECK(v[i].acc > v[i - 1].done);
    // y = y * (1+1) * (2+1) * (3+1) * (4+1) = 120
    std::vector<uint32_t> y = s.get(buf, n);
    for (uint32_t i = 0; i < n; i++)
        if (y[i] != 120) {
            TCASE_FAIL_("back to back: y[%u] = %u, want 120", i, y[i]);
            break;
        }
    CHECK_EQ(s.reg(GC_REG_COMPUTE_TASKS), NT);
    CHECK_EQ(s.max_slots_busy, 1);
    // four channels, four buffers: the tasks overlap in the task slots
    std::vector<uint64_t> bufs;
    std::vector<Sim::HostTask> w;
    for (int i = 0; i < NT; i++) {
        bufs.push_back(s.put(std::vector<uint32_t>(n, (uint32_t)i + 1)));
        w.push_back({(unsigned)i, saxpy_tmd(bufs[i], bufs[i], 2)});
    }
    REQUIRE(s.run_host(w, 400000));
    for (int i = 0; i < NT; i++) {
        CHECK(!w[i].err);
        std::vector<uint32_t> yi = s.get(bufs[i], n);
        for (uint32_t j = 0; j < n; j++)
            if (yi[j] != 3u * (i + 1)) {
                TCASE_FAIL_("channel %d: y[%u] = %u, want %u", i, j, yi[j], 3 * (i + 1));
                break;
            }
    }
    CHECK(s.max_slots_busy > 1);
    CHECK_EQ(s.reg(GC_REG_COMPUTE_TASKS), 2 * NT);
}

// ------------------------------------------------------------------------------------------ faults
enum AddrKind { A_ABS, A_SYM, A_PARAM };   // expected FAULT_ADDR: a value, symbol + d, PARAM + d
struct FaultCase {
    const char *entry;
    uint32_t cause;
    uint32_t pc_abs;    // expected FAULT_PC (0: the symbol <entry>_pc + pc_delta)
    int pc_delta;
    AddrKind ak;
    uint32_t addr;      // A_ABS: the value; A_SYM / A_PARAM: the offset
    uint32_t param;     // PARAM (0: a small good buffer)
    uint32_t word0;     // != 0: PARAM points to a buffer whose word 0 is this (the rest 0)
};

const uint32_t WILD = 0x70000000u;   // SYSMEM window, past the 64 MiB of SYSMEM: DECERR

void fault_run(const FaultCase &fc) {
    Sim s;
    gc_elf_t *isa = s.load("simt_isa.elf");
    gc_elf_t *ker = s.load("kernels.elf");
    REQUIRE(isa && ker);
    char pcsym[96];
    std::snprintf(pcsym, sizeof pcsym, "%s_pc", fc.entry);
    uint32_t pc = sym(isa, pcsym);
    uint64_t good = s.put(std::vector<uint32_t>(16, 0));
    uint32_t param = fc.param ? fc.param : tp(good);
    std::vector<uint32_t> block(16, 0);
    block[0] = fc.word0;
    if (fc.word0) param = tp(s.put(block));
    gc_tmd_t t;
    gc_tmd_init(&t);
    t.entry_pc = sym(isa, fc.entry);
    t.param = param;
    t.cta[0] = s.nl * 2;   // two warps per CTA, two CTAs: lane 3 of every warp faults
    t.grid[0] = 2;
    t.smem_bytes = 64;
    uint64_t sem = s.put({0});
    t.sem_release = true;
    t.sem_addr = sem;
    t.sem_payload = 0x1234;
    Sim::Result r = s.run(t, 200000);
    REQUIRE(r.done);
    CHECK(r.err);
    CHECK_EQ(s.r32(sem), 0);   // no completion release for a faulted task
    CHECK_EQ(s.task_faults, 1);
    uint32_t cause = GC_COMPUTE_FAULT_CAUSE_CAUSE_GET(s.reg(GC_REG_COMPUTE_FAULT_CAUSE));
    uint32_t fpc = s.reg(GC_REG_COMPUTE_FAULT_PC), faddr = s.reg(GC_REG_COMPUTE_FAULT_ADDR);
    uint32_t loc = s.reg(GC_REG_COMPUTE_FAULT_LOC);
    if (cause != fc.cause)
        TCASE_FAIL_("%s: cause %s, want %s", fc.entry, gc_simt_fault_name(cause), gc_simt_fault_name(fc.cause));
    CHECK_EQ(fpc, fc.pc_abs ? fc.pc_abs : pc + fc.pc_delta);
    CHECK_EQ(GC_COMPUTE_FAULT_LOC_LANE_GET(loc), 3);
    CHECK(GC_COMPUTE_FAULT_LOC_WARP_GET(loc) < s.nw);
    CHECK_EQ(GC_COMPUTE_FAULT_LOC_SM_GET(loc), 0);
    CHECK_EQ(s.reg(GC_REG_COMPUTE_FAULT_TASK), (uint32_t)(r.tmd >> 8));
    CHECK_EQ(s.reg(GC_REG_COMPUTE_FAULT_CHANNEL), 5);
    uint32_t want_addr = fc.ak == A_ABS ? fc.addr : fc.ak == A_SYM ? pc + fc.addr : param + fc.addr;
    CHECK_EQ(faddr, want_addr);
    char msg[256];
    gc_compute_fault_t f{cause, fpc, faddr, GC_COMPUTE_FAULT_LOC_SM_GET(loc), GC_COMPUTE_FAULT_LOC_WARP_GET(loc),
                         GC_COMPUTE_FAULT_LOC_LANE_GET(loc), s.reg(GC_REG_COMPUTE_FAULT_TASK), 5};
    gc_compute_fault_format(&f, msg, sizeof msg);
    std::printf("%s: %s (%" PRIu64 " cycles)\n", fc.entry, msg, r.cycles);
    // idle afterwards, and usable: a kernel runs right after on the same core
    CHECK_EQ(GC_COMPUTE_DBG_WARPS_ACTIVE_GET(s.reg(GC_REG_COMPUTE_DBG)), 0);
    uint32_t n = 77;
    std::vector<uint32_t> a = rnd_vec(n, 5), b = rnd_vec(n, 6);
    uint64_t da = s.put(a), db = s.put(b), dc = s.alloc(n * 4);
    uint64_t p = s.put({tp(da), tp(db), tp(dc), n});
    gc_tmd_init(&t);
    t.entry_pc = sym(ker, "vecadd");
    t.param = tp(p);
    t.grid[0] = 3;
    t.cta[0] = s.nl + 2;
    Sim::Result r2 = s.run(t);
    REQUIRE(r2.done);
    CHECK(!r2.err);
    std::vector<uint32_t> c = s.get(dc, n);
    for (uint32_t i = 0; i < n; i++)
        if (c[i] != a[i] + b[i]) {
            TCASE_FAIL_("vecadd after the fault: c[%u] wrong", i);
            break;
        }
    CHECK_EQ(s.task_faults, 1);
    gc_elf_free(isa);
    gc_elf_free(ker);
}

#define FAULT(name, cause, pc_abs, pcd, ak, addr, param) \
    void t_##name() { fault_run({#name, GC_SIMT_FAULT_##cause, pc_abs, pcd, ak, addr, param, 0}); }
FAULT(fault_illegal, ILLEGAL_INSTRUCTION, 0, 0, A_ABS, 0xFFFFFFFFu, 0)
FAULT(fault_reserved_custom, ILLEGAL_INSTRUCTION, 0, 0, A_ABS, 0x0000500Bu, 0)
FAULT(fault_csr_write, ILLEGAL_INSTRUCTION, 0, 0, A_ABS, 0xCC029073u, 0)   /* csrrw x0, 0xcc0, t0 */
FAULT(fault_ecall, ECALL, 0, 0, A_SYM, 0, 0)
FAULT(fault_ebreak, EBREAK, 0, 0, A_SYM, 0, 0)
FAULT(fault_misaligned_load, MISALIGNED_LOAD, 0, 0, A_PARAM, 2, 0)
FAULT(fault_misaligned_store, MISALIGNED_STORE, 0, 0, A_PARAM, 3, 0)
FAULT(fault_misaligned_amo, MISALIGNED_STORE, 0, 0, A_PARAM, 2, 0)
FAULT(fault_misaligned_jump, MISALIGNED_FETCH, 0, 8, A_SYM, 10, 0)
FAULT(fault_wild_load, LOAD_BUS_ERROR, 0, 0, A_ABS, WILD, WILD)
FAULT(fault_wild_store, STORE_BUS_ERROR, 0, 0, A_ABS, WILD, WILD)
FAULT(fault_wild_amo, STORE_BUS_ERROR, 0, 0, A_ABS, WILD, WILD)
FAULT(fault_no_window, ACCESS_FAULT, 0, 0, A_ABS, 0xE0000000u, 0)
FAULT(fault_shared_oob, ACCESS_FAULT, 0, 0, A_ABS, GC_SIMT_WIN_SHARED_BASE + 64, 64)
FAULT(fault_lr_shared, ACCESS_FAULT, 0, 0, A_ABS, GC_SIMT_WIN_SHARED_BASE, 0)
FAULT(fault_fetch, FETCH_ACCESS, GC_SIMT_WIN_SHARED_BASE, 0, A_ABS, GC_SIMT_WIN_SHARED_BASE, 0)
FAULT(fault_fetch_bus, FETCH_BUS_ERROR, WILD, 0, A_ABS, WILD, WILD)
FAULT(fault_fp_rm, ILLEGAL_INSTRUCTION, 0, 0, A_ABS, 0x0020D053u, 0)   /* fadd.s ft0, ft1, ft2 with rm 5 */
FAULT(fault_fp_dyn, ILLEGAL_INSTRUCTION, 0, 0, A_ABS, 0x0020F053u, 0)  /* fadd.s ft0, ft1, ft2, dyn; frm 6 */
FAULT(fault_fp_absent, ILLEGAL_INSTRUCTION, 0, 0, A_ABS, 0x00208053u, 0)    /* fadd.s ft0, ft1, ft2, rne */
FAULT(fault_fp_absent_csr, ILLEGAL_INSTRUCTION, 0, 0, A_ABS, 0x00102E73u, 0) /* frflags t3 */
#undef FAULT
// loads do not block: a load's bus error arrives while the thread runs on; the record names the load
void t_fault_load_late() { fault_run({"fault_load_late", GC_SIMT_FAULT_LOAD_BUS_ERROR, 0, 0, A_ABS, WILD, 0, WILD}); }
// a posted store's bus error arrives while the thread runs on: the record names the store
void t_fault_store_late() { fault_run({"fault_store_late", GC_SIMT_FAULT_STORE_BUS_ERROR, 0, 0, A_ABS, WILD, 0, WILD}); }
// an LR's bus error is a load's (RISC-V), on rtl as on ref
void t_fault_wild_lr() { fault_run({"fault_wild_lr", GC_SIMT_FAULT_LOAD_BUS_ERROR, 0, 0, A_ABS, WILD, 0, WILD}); }

// NULL guard (spec simt.windows guard): loads, stores, AMOs, LR / SC and jumps at NULL, at small
// offsets, at the last guarded byte / half / word of both global windows, and a misaligned address
// in the guard (the guard is checked first): NULL_ACCESS naming the lane, PC and address
#define NULLF(name, entry, addr, pc_abs) \
    void t_##name() { fault_run({#entry, GC_SIMT_FAULT_NULL_ACCESS, pc_abs, 0, A_ABS, addr, 0, addr}); }
NULLF(null_lw_0, fault_null_lw, 0u, 0)
NULLF(null_lw_small, fault_null_lw, 8u, 0)
NULLF(null_lw_misaligned, fault_null_lw, 2u, 0)
NULLF(null_lw_last, fault_null_lw, GC_SIMT_WIN_SYSMEM_GUARD - 4u, 0)
NULLF(null_lb_last, fault_null_lb, GC_SIMT_WIN_SYSMEM_GUARD - 1u, 0)
NULLF(null_sw_0, fault_null_sw, 0u, 0)
NULLF(null_sw_small, fault_null_sw, 0x40u, 0)
NULLF(null_sh_last, fault_null_sh, GC_SIMT_WIN_SYSMEM_GUARD - 2u, 0)
NULLF(null_amo_0, fault_null_amo, 0u, 0)
NULLF(null_amo_vid_last, fault_null_amo, GC_SIMT_WIN_VIDMEM_BASE + GC_SIMT_WIN_VIDMEM_GUARD - 4u, 0)
NULLF(null_lr_vid_0, fault_null_lr, GC_SIMT_WIN_VIDMEM_BASE, 0)
NULLF(null_sc_small, fault_null_sc, 0x10u, 0)
NULLF(null_jump_small, fault_null_jump, 0x100u, 0x100u)
NULLF(null_jump_vid_last, fault_null_jump, GC_SIMT_WIN_VIDMEM_BASE + GC_SIMT_WIN_VIDMEM_GUARD - 4u,
      GC_SIMT_WIN_VIDMEM_BASE + GC_SIMT_WIN_VIDMEM_GUARD - 4u)
#undef NULLF

// ENTRY_PC 0: the first fetch of every warp faults NULL_ACCESS (PC 0, address 0, lane 0); the
// core is usable right after
void t_null_entry_pc() {
    Kern k;
    REQUIRE(k.e);
    Sim &s = k.s;
    gc_tmd_t t;
    gc_tmd_init(&t);
    t.entry_pc = 0;
    t.cta[0] = s.nl * 2;
    t.grid[0] = 2;
    Sim::Result r = s.run(t, 200000);
    REQUIRE(r.done);
    CHECK(r.err);
    CHECK_EQ(s.task_faults, 1);
    CHECK_EQ(GC_COMPUTE_FAULT_CAUSE_CAUSE_GET(s.reg(GC_REG_COMPUTE_FAULT_CAUSE)), GC_SIMT_FAULT_NULL_ACCESS);
    CHECK_EQ(s.reg(GC_REG_COMPUTE_FAULT_PC), 0);
    CHECK_EQ(s.reg(GC_REG_COMPUTE_FAULT_ADDR), 0);
    CHECK_EQ(GC_COMPUTE_FAULT_LOC_LANE_GET(s.reg(GC_REG_COMPUTE_FAULT_LOC)), 0);
    CHECK_EQ(s.reg(GC_REG_COMPUTE_FAULT_TASK), (uint32_t)(r.tmd >> 8));
    CHECK_EQ(GC_COMPUTE_DBG_WARPS_ACTIVE_GET(s.reg(GC_REG_COMPUTE_DBG)), 0);
    vecadd_case(k, 40, {1, 1, 1}, {s.nl, 1, 1}, 77);
}

// The first byte past each NULL guard is ordinary memory: load, store, AMO, LR / SC, byte and half
void t_null_edge() {
    Sim s;
    gc_elf_t *isa = s.load("simt_isa.elf");
    REQUIRE(isa);
    const uint32_t edges[2] = {GC_SIMT_WIN_SYSMEM_BASE + GC_SIMT_WIN_SYSMEM_GUARD,
                               GC_SIMT_WIN_VIDMEM_BASE + GC_SIMT_WIN_VIDMEM_GUARD};
    for (uint32_t ta : edges) {
        uint64_t dev = 0;
        REQUIRE(gc_simt_to_device(ta, &dev));
        s.w32(dev, 0x11223344u);
        s.w32(dev - 4, 0xA5A5A5A5u);   // the last guarded word (written by the host: untouched)
        uint64_t out = s.put(std::vector<uint32_t>(5, 0));
        gc_tmd_t t;
        gc_tmd_init(&t);
        t.entry_pc = sym(isa, "null_edge");
        t.param = tp(s.put({ta, tp(out)}));
        t.cta[0] = s.nl;
        Sim::Result r = s.run(t, 200000);
        REQUIRE(r.done);
        CHECK(!r.err);
        CHECK_EQ(s.r32(out), 0x11223344u);
        CHECK_EQ(s.r32(out + 4), 0x11223345u);
        CHECK_EQ(s.r32(out + 8), 0u);   // SC succeeded
        CHECK_EQ(s.r32(out + 12), 0x45u);     // the byte, then the half of 0x11224445
        CHECK_EQ(s.r32(out + 16), 0x4445u);
        CHECK_EQ(s.r32(dev), 0x11223344u + 0x1101u);
        CHECK_EQ(s.r32(dev - 4), 0xA5A5A5A5u);
    }
    CHECK_EQ(s.task_faults, 0);
    gc_elf_free(isa);
}

// ------------------------------------------------------------------------------------------ TMD
void t_tmd_checks() {
    Kern k;
    REQUIRE(k.e);
    Sim &s = k.s;
    struct Bad {
        const char *what;
        std::function<void(gc_tmd_t &)> mut;
        uint32_t ofs;
    };
    std::vector<Bad> bad = {
        {"grid x 0", [](gc_tmd_t &t) { t.grid[0] = 0; }, GC_TMD_GRID_X},
        {"grid z 0", [](gc_tmd_t &t) { t.grid[2] = 0; }, GC_TMD_GRID_Z},
        {"cta too big", [&](gc_tmd_t &t) { t.cta[0] = s.nw * s.nl + 1; }, GC_TMD_CTA_DIM_XY},
        {"cta y 0", [](gc_tmd_t &t) { t.cta[1] = 0; }, GC_TMD_CTA_DIM_XY},
        {"cta z 0", [](gc_tmd_t &t) { t.cta[2] = 0; }, GC_TMD_CTA_DIM_Z},
        {"smem too big", [](gc_tmd_t &t) { t.smem_bytes = GC_SIMT_SMEM_BYTES + 4; }, GC_TMD_SMEM_BYTES},
        {"misaligned entry", [](gc_tmd_t &t) { t.entry_pc += 2; }, GC_TMD_ENTRY_PC},
        {"misaligned semaphore", [](gc_tmd_t &t) { t.sem_release = true; t.sem_addr = GC_VIDMEM_BASE + 0x102; }, GC_TMD_SEM_ADDR_LO},
        {"misaligned four-word", [](gc_tmd_t &t) { t.sem_release = t.sem_four_word = true; t.sem_addr = GC_VIDMEM_BASE + 0x104; }, GC_TMD_SEM_ADDR_LO},
        {"priority level 64", [](gc_tmd_t &t) { t.priority = GC_TMU_PRIO_LEVELS; }, GC_TMD_PRIORITY},
        {"priority level 255", [](gc_tmd_t &t) { t.priority = 255; }, GC_TMD_PRIORITY},
    };
    unsigned faults = 0;
    for (auto &b : bad) {
        gc_tmd_t t;
        gc_tmd_init(&t);
        t.entry_pc = sym(k.e, "vecadd");
        t.param = tp(s.put({0, 0, 0, 0}));
        b.mut(t);
        // encode by hand: gc_tmd_encode refuses zero dimensions
        uint32_t w[GC_TMD_WORDS];
        gc_tmd_t ok = t;
        for (int i = 0; i < 3; i++) {
            if (!ok.grid[i]) ok.grid[i] = 1;
            if (!ok.cta[i]) ok.cta[i] = 1;
        }
        REQUIRE(gc_tmd_encode(&ok, w) == GC_OK);
        w[GC_TMD_GRID_X / 4] = t.grid[0];
        w[GC_TMD_GRID_Z / 4] = t.grid[2];
        w[GC_TMD_CTA_DIM_XY / 4] = GC_TMD_CTA_DIM_XY_X(t.cta[0]) | GC_TMD_CTA_DIM_XY_Y(t.cta[1]);
        w[GC_TMD_CTA_DIM_Z / 4] = GC_TMD_CTA_DIM_Z_Z(t.cta[2]);
        uint64_t a = s.alloc(GC_TMD_SIZE, GC_TMD_ALIGN);
        s.write(a, w, sizeof w);
        Sim::Result r = s.launch(a);
        faults++;
        REQUIRE(r.done);
        if (!r.err) TCASE_FAIL_("%s: accepted", b.what);
        CHECK_EQ(GC_COMPUTE_FAULT_CAUSE_CAUSE_GET(s.reg(GC_REG_COMPUTE_FAULT_CAUSE)), GC_SIMT_FAULT_BAD_TMD);
        if (s.reg(GC_REG_COMPUTE_FAULT_ADDR) != b.ofs)
            TCASE_FAIL_("%s: FAULT_ADDR 0x%x, want 0x%x", b.what, s.reg(GC_REG_COMPUTE_FAULT_ADDR), b.ofs);
        CHECK_EQ(s.task_faults, faults);
        s.fault_pend = false;   // the host clears INTR_STATUS.TASK_FAULT
        s.tick();
    }
    // a TMD address in a hole of the device map
    Sim::Result r = s.launch(WILD);
    REQUIRE(r.done);
    CHECK(r.err);
    CHECK_EQ(GC_COMPUTE_FAULT_CAUSE_CAUSE_GET(s.reg(GC_REG_COMPUTE_FAULT_CAUSE)), GC_SIMT_FAULT_TMD_BUS_ERROR);
    CHECK_EQ(s.reg(GC_REG_COMPUTE_FAULT_ADDR), WILD >> 8);
    // the record is kept while INTR_STATUS.TASK_FAULT stays set: a second fault does not overwrite it
    r = s.launch(WILD + 0x100);
    CHECK_EQ(s.reg(GC_REG_COMPUTE_FAULT_ADDR), WILD >> 8);
    CHECK_EQ(s.task_faults, faults + 2);
    CHECK_EQ(s.reg(GC_REG_COMPUTE_TASKS), faults + 2);
}

void t_tmd_release() {   // completion release (one word, four words), interrupt, counters
    Kern k;
    REQUIRE(k.e);
    Sim &s = k.s;
    uint32_t n = 50;
    uint64_t dx = s.put(rnd_vec(n, 1)), dy = s.put(rnd_vec(n, 2));
    uint64_t p = s.put({tp(dx), tp(dy), n, 3});
    uint64_t sem1 = s.put({0}), sem4 = s.alloc(16, 16);
    s.write(sem4, std::vector<uint32_t>(4, 0xFFFFFFFFu).data(), 16);
    gc_tmd_t t;
    gc_tmd_init(&t);
    t.entry_pc = sym(k.e, "saxpy");
    t.param = tp(p);
    t.grid[0] = 2;
    t.cta[0] = 8;
    t.sem_release = true;
    t.sem_addr = sem1;
    t.sem_payload = 0xC0DE0001u;
    Sim::Result r = s.run(t);
    REQUIRE(r.done && !r.err);
    CHECK_EQ(s.r32(sem1), 0xC0DE0001u);
    CHECK_EQ(s.nonstall, 0);
    uint64_t before = s.cycle;
    t.sem_four_word = true;
    t.sem_addr = sem4;
    t.sem_payload = 0xC0DE0002u;
    t.interrupt = true;
    r = s.run(t);
    REQUIRE(r.done && !r.err);
    std::vector<uint32_t> w = s.get(sem4, 4);
    CHECK_EQ(w[0], 0xC0DE0002u);
    CHECK_EQ(w[1], 0);
    uint64_t stamp = ((uint64_t)w[3] << 32) | w[2];
    CHECK(stamp > before && stamp <= s.cycle);
    CHECK_EQ(s.nonstall, 1);
    CHECK_EQ(s.reg(GC_REG_COMPUTE_TASKS), 2);
    CHECK_EQ(s.reg(GC_REG_COMPUTE_CTAS), 4);
    CHECK(s.reg(GC_REG_COMPUTE_WARP_INSTRS) > 0);
    CHECK(s.reg(GC_REG_COMPUTE_THREAD_INSTRS) >= s.reg(GC_REG_COMPUTE_WARP_INSTRS));
    CHECK(s.reg(GC_REG_COMPUTE_ICACHE_MISSES) > 0);
    CHECK(s.reg(GC_REG_COMPUTE_LSU_BEATS) > 0);
    CHECK_EQ(GC_COMPUTE_DBG_SLOTS_BUSY_GET(s.reg(GC_REG_COMPUTE_DBG)), 0);
}

// ------------------------------------------------------------------------------------------ perf
void t_perf_alu_ipc() {
    Sim s;
    gc_elf_t *e = s.load("simt_isa.elf");
    REQUIRE(e);
    uint32_t threads = s.nw * s.nl, iters = 200;
    uint64_t out = s.alloc(threads * 4);
    uint64_t p = s.put({iters, tp(out)});
    gc_tmd_t t;
    gc_tmd_init(&t);
    t.entry_pc = sym(e, "alu_loop");
    t.param = tp(p);
    t.cta[0] = threads;
    Sim::Result r = s.run(t);
    REQUIRE(r.done && !r.err);
    double wi = s.reg(GC_REG_COMPUTE_WARP_INSTRS), act = s.reg(GC_REG_COMPUTE_ACTIVE_CYCLES);
    double ipc = wi / act;
    std::printf("perf: alu_loop %u threads x %u iterations: %.0f warp instructions in %.0f active cycles: IPC %.3f of peak 1 (%.1f thread instructions per cycle)\n",
                threads, iters, wi, act, ipc, s.reg(GC_REG_COMPUTE_THREAD_INSTRS) / act);
    CHECK(ipc > 0.8);
    // results: the loop's arithmetic per thread
    for (uint32_t tid = 0; tid < threads; tid++) {
        uint32_t a0 = tid, a1 = tid, a2 = tid, a3 = tid;
        for (uint32_t i = 0; i < iters; i++) {
            a0 += 1;
            a1 ^= a0;
            a2 += a1;
            a3 <<= 1;
            a3 |= a0;
            a2 -= a3;
            a1 &= 0x7ff;
        }
        uint32_t want = a0 + a1 + a2 + a3;
        if (s.r32(out + 4 * tid) != want) {
            TCASE_FAIL_("alu_loop thread %u: 0x%x, want 0x%x", tid, s.r32(out + 4 * tid), want);
            break;
        }
    }
    gc_elf_free(e);
}

// fp_dep (simt_isa.S) on `threads` threads in one CTA: {per thread: result, start, end}, the run
struct FpDep {
    std::vector<uint32_t> out;
    Sim::Result r;
    uint64_t span() const {   // first start to last end, over all threads
        uint32_t lo = UINT32_MAX, hi = 0;
        for (size_t t = 0; t < out.size() / 3; t++) lo = std::min(lo, out[3 * t + 1]), hi = std::max(hi, out[3 * t + 2]);
        return hi - lo;
    }
};
FpDep fp_dep_run(Sim &s, gc_elf_t *e, uint32_t threads, uint32_t iters, uint32_t mode) {
    FpDep d;
    uint64_t out = s.alloc(threads * 12);
    uint64_t p = s.put({iters, mode, tp(out)});
    gc_tmd_t t;
    gc_tmd_init(&t);
    t.entry_pc = sym(e, "fp_dep");
    t.param = tp(p);
    t.cta[0] = threads;
    d.r = s.run(t);
    d.out = s.get(out, threads * 3);
    return d;
}

// The FPU and the FDIV / FSQRT unit accrue flags of one warp in the same cycle: neither unit's
// flags are lost.  fp_flags_meet (simt_isa.S) slides an overflowing FMUL's write back across an
// FSQRT(-1)'s one cycle at a time (48 placements, one warp); each must end with NV | OF | NX.
void t_fp_flags_meet() {
    Sim s;
    gc_elf_t *e = s.load("simt_isa.elf");
    REQUIRE(e);
    const uint32_t n = 48;
    uint64_t out = s.alloc(s.nl * n * 4);
    uint64_t p = s.put({tp(out)});
    gc_tmd_t t;
    gc_tmd_init(&t);
    t.entry_pc = sym(e, "fp_flags_meet");
    t.param = tp(p);
    t.cta[0] = s.nl;
    t.smem_bytes = s.nl * 4;   // one word per lane
    Sim::Result r = s.run(t);
    REQUIRE(r.done && !r.err);
    std::vector<uint32_t> o = s.get(out, s.nl * n);
    const uint32_t want = GC_FP_FLAG_NV | GC_FP_FLAG_OF | GC_FP_FLAG_NX;
    for (uint32_t k = 0; k < s.nl * n; k++) CHECK_EQ(o[k], want);
    gc_elf_free(e);
}

// The scoreboard: a dependent FP instruction waits for its operand (the FPU's latency), an
// independent one does not, and while one warp waits the others issue.  Bounds from the CYCLE
// CSR the threads read around the loop (hardware timestamps).
void t_fp_scoreboard() {
    Sim s;
    gc_elf_t *e = s.load("simt_isa.elf");
    REQUIRE(e);
    const uint32_t iters = 20, n = 16 * iters;
    FpDep dep = fp_dep_run(s, e, s.nl, iters, 0), ind = fp_dep_run(s, e, s.nl, iters, 1);
    REQUIRE(dep.r.done && !dep.r.err && ind.r.done && !ind.r.err);
    for (uint32_t t = 0; t < s.nl; t++) {
        CHECK_EQ(dep.out[3 * t], t + n);
        CHECK_EQ(ind.out[3 * t], 4 * t + n);
    }
    // a dependent FMA issues at the earliest when the one before wrote back: IF, RR, EX and the
    // FPU's 3 stages = 6 cycles apart; independent ones one warp issue apart (IF, RR, EX: 3)
    uint64_t td = dep.span(), ti = ind.span();
    std::printf("fp_scoreboard: one warp, %u FMAs: dependent %" PRIu64 " cycles (%.2f per FMA), independent %" PRIu64
                " cycles (%.2f per FMA)\n", n, td, (double)td / n, ti, (double)ti / n);
    CHECK(td >= 6ull * n);
    CHECK(ti < td * 3 / 4);
    // every warp slot runs the dependent chain: the others fill one warp's waits, so the whole
    // takes well under the warps' chains one after another
    FpDep all = fp_dep_run(s, e, s.nw * s.nl, iters, 0);
    REQUIRE(all.r.done && !all.r.err);
    for (uint32_t t = 0; t < s.nw * s.nl; t++) CHECK_EQ(all.out[3 * t], t + n);
    uint64_t ta = all.span();
    std::printf("fp_scoreboard: %u warps of dependent chains: %" PRIu64 " cycles (one warp: %" PRIu64 ")\n", s.nw, ta, td);
    CHECK(ta < td * 3 / 2);
    gc_elf_free(e);
}

// Loads do not block the warp: eight independent loads issue before the first one's data can be
// back (SYSMEM: >= 100 cycles), the sum waits for them, a ninth load in a row waits for a free
// load slot (LD_MAX = 8 per warp).  With every warp slot running it, every warp's eight loads
// still issue before any data is back: the LSU's return queue has 8 entries per warp.  Bounds
// from the threads' CYCLE reads.
void t_ld_inflight() {
    Sim s;
    gc_elf_t *e = s.load("simt_isa.elf");
    REQUIRE(e);
    const uint32_t LAT = 100;   // SYSMEM read latency of the memory model (cosim/axi_mem.h), at least
    uint32_t nbuf = 640 + s.nl;
    std::vector<uint32_t> buf = rnd_vec(nbuf, 9);
    uint64_t dbuf = s.alloc(nbuf * 4, 256, true);
    s.write(dbuf, buf.data(), nbuf * 4);
    for (uint32_t threads : {s.nl, s.nw * s.nl}) {
        uint64_t out = s.alloc(threads * 24);
        uint64_t p = s.put({tp(dbuf), tp(out)});
        gc_tmd_t t;
        gc_tmd_init(&t);
        t.entry_pc = sym(e, "ld_inflight");
        t.param = tp(p);
        t.cta[0] = threads;
        Sim::Result r = s.run(t);
        REQUIRE(r.done && !r.err);
        std::vector<uint32_t> o = s.get(out, threads * 6);
        for (uint32_t tid = 0; tid < threads; tid++) {
            uint32_t l = tid % s.nl;
            uint32_t sum = 0;
            for (uint32_t k = 0; k < 8; k++) sum += buf[l + 64 * k];
            CHECK_EQ(o[6 * tid], sum);
        }
        if (threads != s.nl) {   // every warp: 8 loads each in flight at once
            for (uint32_t tid = 0; tid < threads; tid++) {
                const uint32_t *c = &o[6 * tid];
                if (c[2] - c[1] >= LAT) TCASE_FAIL_("ld_inflight: %u warps: thread %u's 8 loads took %u cycles to issue",
                                                    s.nw, tid, c[2] - c[1]);
            }
            continue;
        }
        for (uint32_t tid = 0; tid < threads; tid++) {
            const uint32_t *c = &o[6 * tid];
            uint32_t issue8 = c[2] - c[1], sum = c[3] - c[1], ninth = c[4] - c[3], used = c[5] - c[4];
            if (tid == 0)
                std::printf("ld_inflight: 8 loads issued in %u cycles, their sum after %u; 9 loads in a row %u; a used load %u\n",
                            issue8, sum, ninth, used);
            CHECK(issue8 < LAT);    // blocking loads: >= 7 x LAT
            CHECK(sum >= LAT);      // the sum waited for the data
            CHECK(ninth >= LAT);    // the ninth load waited for a slot: the first load's data
            CHECK(used >= LAT);
        }
    }
    gc_elf_free(e);
}

// The LSU keeps at most RB = 32 load bursts in flight per SM (the read IDs a real LSU has): every
// warp slot runs ld_scatter (8 loads per thread, each one burst per lane: WARPS x 8 x LANES bursts
// wanted at once, 256 with 4 warps of 8 lanes) from SYSMEM (>= 100 cycles per read); the memory
// model counts the read bursts in flight at its port, which also carries the instruction fetches
// (one fill at a time).  Sums checked.
void t_ld_burst_limit() {
    Sim s;
    gc_elf_t *e = s.load("simt_isa.elf");
    REQUIRE(e);
    const uint32_t RB = 32, threads = s.nw * s.nl, nbuf = 32 * s.nl + 512 * 7;
    std::vector<uint32_t> buf = rnd_vec(nbuf, 41);
    uint64_t dbuf = s.alloc(nbuf * 4, 256, true), out = s.alloc(threads * 4);
    s.write(dbuf, buf.data(), nbuf * 4);
    uint64_t p = s.put({tp(dbuf), tp(out)});
    gc_tmd_t t;
    gc_tmd_init(&t);
    t.entry_pc = sym(e, "ld_scatter");
    t.param = tp(p);
    t.cta[0] = threads;
    Sim::Result r = s.run(t);
    REQUIRE(r.done && !r.err);
    std::vector<uint32_t> o = s.get(out, threads);
    for (uint32_t tid = 0; tid < threads; tid++) {
        uint32_t l = tid % s.nl, sum = 0;
        for (uint32_t k = 0; k < 8; k++) sum += buf[32 * l + 512 * k];
        CHECK_EQ(o[tid], sum);
    }
    uint64_t mx = s.mem->read_bursts_in_flight_max();
    std::printf("ld_burst_limit: %u threads, %u bursts wanted: at most %" PRIu64 " read bursts in flight at the port\n",
                threads, 8 * threads, mx);
    CHECK(mx <= RB + s.nsm);   // the LSUs' loads + one instruction fill per SM
    CHECK(mx >= RB);           // the limit is what held them back (one warp's loads alone reach it)
    gc_elf_free(e);
}

// Stores are buffered: a store burst's AW and data go into the LSU's store buffer (WB = 2 bursts)
// and the next store's AW goes out while the earlier burst's W beats still drain, so back-to-back
// stores do not wait for each other's data.  st_buffered: one warp, three stores of 15-beat
// bursts to SYSMEM (W at 4 bytes per cycle: 30 cycles each); the memory model sees a second AW
// before the first burst's last W beat.  Memory checked.
void t_st_buffered() {
    Sim s;
    gc_elf_t *e = s.load("simt_isa.elf");
    REQUIRE(e);
    const uint32_t words = 256 + 4 * s.nl;
    uint64_t dbuf = s.alloc(words * 4, 256, true);
    std::vector<uint32_t> junk(words, 0xC0FFEE00u);
    s.write(dbuf, junk.data(), words * 4);
    uint64_t p = s.put({tp(dbuf)});
    gc_tmd_t t;
    gc_tmd_init(&t);
    t.entry_pc = sym(e, "st_buffered");
    t.param = tp(p);
    t.cta[0] = s.nl;
    Sim::Result r = s.run(t);
    REQUIRE(r.done && !r.err);
    std::vector<uint32_t> b = s.get(dbuf, words);
    for (uint32_t w = 0; w < words; w++) {
        uint32_t want = (w % 4 == 0 && w % 128 < 4 * s.nl) ? (w % 128) / 4 : 0xC0FFEE00u;
        if (b[w] != want) {
            TCASE_FAIL_("st_buffered: word %u = 0x%x, want 0x%x", w, b[w], want);
            break;
        }
    }
    size_t open = s.mem->write_bursts_open_max();
    std::printf("st_buffered: at most %zu write bursts open (AW accepted, W data not all in)\n", open);
    CHECK(open >= 2);
    gc_elf_free(e);
}

// A store waits only for the loads of its warp that it could overtake: a store to another
// segment goes while an earlier load is in flight (the warp moves on before the load's data can
// be back), one to the segment of a load in flight waits for that load's data (its old value is
// what the load returns; ld_st_order in late-reads mode checks the same rule on every lane), a
// FENCE waits for every load of the warp.  Bounds from the threads' CYCLE reads (SYSMEM reads
// take >= 100 cycles); the LSU serves memory instructions in order, so a store waiting for a
// load holds the other warps' memory instructions behind it.
void t_st_past_loads() {
    Sim s;
    gc_elf_t *e = s.load("simt_isa.elf");
    REQUIRE(e);
    const uint32_t LAT = 100;
    for (uint32_t threads : {1u, s.nl, s.nw * s.nl}) {
        std::vector<uint32_t> buf = rnd_vec(threads, 31 + threads);
        uint64_t dbuf = s.alloc(threads * 4, 256, true), far = s.alloc(threads * 4), out = s.alloc(threads * 16);
        s.write(dbuf, buf.data(), threads * 4);
        uint64_t p = s.put({tp(dbuf), tp(far), tp(out)});
        gc_tmd_t t;
        gc_tmd_init(&t);
        t.entry_pc = sym(e, "st_past_loads");
        t.param = tp(p);
        t.cta[0] = threads;
        Sim::Result r = s.run(t);
        REQUIRE(r.done && !r.err);
        std::vector<uint32_t> o = s.get(out, threads * 4), f = s.get(far, threads), b = s.get(dbuf, threads);
        for (uint32_t tid = 0; tid < threads; tid++) {
            const uint32_t *c = &o[4 * tid];
            if (tid == 0)
                std::printf("st_past_loads: %u threads: store to another segment %u cycles, to the loaded word %u, "
                            "fence %u\n", threads, c[1], c[2], c[3]);
            CHECK_EQ(c[0], buf[tid]);   // the load got the value from before the store after it
            CHECK_EQ(f[tid], tid);
            CHECK_EQ(b[tid], tid);
            // (one warp: with several, A may queue in the LSU behind another warp's B)
            if (threads <= s.nl && c[1] >= LAT) TCASE_FAIL_("st_past_loads: thread %u's store to another segment waited %u cycles for a load", tid, c[1]);
            if (c[2] < LAT) TCASE_FAIL_("st_past_loads: thread %u's store to the loaded word went after %u cycles", tid, c[2]);
            if (c[3] < LAT) TCASE_FAIL_("st_past_loads: thread %u's FENCE went after %u cycles, a load in flight", tid, c[3]);
        }
    }
    gc_elf_free(e);
}

// FP figures for make bench: FMA-bound IPC (four accumulators, every warp slot), dependent FMA,
// FDIV and FSQRT issue-to-issue latencies (one warp)
void t_perf_fp() {
    Sim s;
    gc_elf_t *e = s.load("simt_isa.elf");
    REQUIRE(e);
    const uint32_t iters = 200, n = 16 * iters;
    FpDep ipc = fp_dep_run(s, e, s.nw * s.nl, iters, 1);
    REQUIRE(ipc.r.done && !ipc.r.err);
    double wi = s.reg(GC_REG_COMPUTE_WARP_INSTRS), act = s.reg(GC_REG_COMPUTE_ACTIVE_CYCLES);
    std::printf("perf: fma loop %u threads: %.0f warp instructions in %.0f active cycles: FMA IPC %.3f of peak 1\n",
                s.nw * s.nl, wi, act, wi / act);
    CHECK(wi / act > 0.8);
    FpDep fma = fp_dep_run(s, e, s.nl, iters, 0), div = fp_dep_run(s, e, s.nl, 4, 2), sq = fp_dep_run(s, e, s.nl, 4, 3);
    REQUIRE(fma.r.done && div.r.done && sq.r.done);
    for (uint32_t t = 0; t < s.nl; t++) CHECK_EQ(div.out[3 * t], t);
    std::printf("perf: dependent latency: fma_latency_cycles %.2f fdiv_latency_cycles %.2f fsqrt_latency_cycles %.2f\n",
                (double)fma.span() / n, (double)div.span() / 64, (double)sq.span() / 64);
    gc_elf_free(e);
}

// Runs `entry` of simt_isa.elf as one CTA of `threads` threads with PARAM = {words, out}.
Sim::Result run_words_out(Sim &s, gc_elf_t *e, const char *entry, uint64_t words, uint64_t out, uint32_t threads) {
    uint64_t p = s.put({tp(words), tp(out)});
    gc_tmd_t t;
    gc_tmd_init(&t);
    t.entry_pc = sym(e, entry);
    t.param = tp(p);
    t.cta[0] = threads;
    return s.run(t);
}

// A plain store by another thread (same warp, or another warp between BARs) between an LR and
// its SC makes the SC fail and its value stay; a store to the other word of the same 8-byte beat
// does not; an LR/SC with nothing between succeeds.
void t_isa_lrsc_store() {
    Sim s;
    gc_elf_t *e = s.load("simt_isa.elf");
    REQUIRE(e);
    uint64_t w = s.put({0xA0u, 0xA1u, 0xA2u, 0xA3u});
    uint64_t out = s.alloc(6 * 4);
    std::vector<uint32_t> junk(6, 0xDEADBEEFu);
    s.write(out, junk.data(), junk.size() * 4);
    Sim::Result r = run_words_out(s, e, "lrsc_store", w, out, 2 * s.nl);
    REQUIRE(r.done);
    CHECK(!r.err);
    CHECK_EQ(s.r32(out + 0), 1u);          // SC after another lane's store to its word: failed
    CHECK_EQ(s.r32(out + 4), 0u);          // store to the neighbouring word: SC succeeded
    CHECK_EQ(s.r32(out + 8), 0x3333u);
    CHECK_EQ(s.r32(out + 12), 0u);         // LR/SC with nothing between
    CHECK_EQ(s.r32(out + 16), 1u);         // SC after another warp's store: failed
    CHECK_EQ(s.r32(out + 20), 0xA0u);
    CHECK_EQ(s.r32(w + 0), 0x5555u);
    CHECK_EQ(s.r32(w + 4), 0x4444u);
    CHECK_EQ(s.r32(w + 8), 0x6666u);       // the failed SC wrote nothing
    CHECK_EQ(s.r32(w + 12), 0xA3u);
    gc_elf_free(e);
}

// Atomic-unit writes (AMOs, SCs of other threads) break reservations on their 4-byte word only:
// an AMO or SC on the other half of the LR's 8-byte beat leaves the SC to succeed (as in ref).
void t_isa_lrsc_amo() {
    Sim s;
    gc_elf_t *e = s.load("simt_isa.elf");
    REQUIRE(e);
    uint64_t w = s.put({0xA0u, 0xA1u, 0xA2u, 0xA3u});
    REQUIRE(w % 8 == 0);
    uint64_t out = s.put(std::vector<uint32_t>(4, 0xDEADBEEFu));
    Sim::Result r = run_words_out(s, e, "lrsc_amo", w, out, s.nl);
    REQUIRE(r.done);
    CHECK(!r.err);
    CHECK_EQ(s.r32(out + 0), 0u);          // AMOADD on the other half of the beat: SC written
    CHECK_EQ(s.r32(out + 4), 0u);          // AMOSWAP on the other half: SC written
    CHECK_EQ(s.r32(out + 8), 1u);          // AMOADD on the word itself: SC failed
    CHECK_EQ(s.r32(out + 12), 0u);         // another thread's SC on the other half: SC written
    CHECK_EQ(s.r32(w + 0), 0x5555u);
    CHECK_EQ(s.r32(w + 4), 0x6666u);
    CHECK_EQ(s.r32(w + 8), 0xA2u + 5);
    CHECK_EQ(s.r32(w + 12), 0xA3u);
    gc_elf_free(e);
}

// Lanes of one LR on the same word share one atomic-unit read that sets all their reservations;
// the SCs then go lane by lane: the lowest lane on each word succeeds, the others fail.
void t_isa_lrsc_pairs() {
    Sim s;
    gc_elf_t *e = s.load("simt_isa.elf");
    REQUIRE(e);
    uint64_t w = s.put({0x100u, 0x200u});
    REQUIRE(w % 8 == 0);
    uint64_t out = s.put(std::vector<uint32_t>(2 * s.nl, 0xDEADBEEFu));
    Sim::Result r = run_words_out(s, e, "lrsc_pairs", w, out, s.nl);
    REQUIRE(r.done);
    CHECK(!r.err);
    std::vector<uint32_t> o = s.get(out, 2 * s.nl);
    for (uint32_t l = 0; l < s.nl; l++) {
        if (o[2 * l] != (l & 1 ? 0x200u : 0x100u)) TCASE_FAIL_("lane %u: LR read 0x%x", l, o[2 * l]);
        if (o[2 * l + 1] != (l < 2 ? 0u : 1u)) TCASE_FAIL_("lane %u: SC answered %u", l, o[2 * l + 1]);
    }
    CHECK_EQ(s.r32(w), 0x101u);
    CHECK_EQ(s.r32(w + 4), 0x202u);
    gc_elf_free(e);
}

void t_perf_reconverge() {   // min-PC brings diverged lanes back together
    Sim s;
    gc_elf_t *e = s.load("simt_isa.elf");
    REQUIRE(e);
    uint32_t threads = s.nw * s.nl;
    uint64_t out = s.alloc(threads * 4);
    gc_tmd_t t;
    gc_tmd_init(&t);
    t.entry_pc = sym(e, "reconverge");
    t.param = tp(out);
    t.cta[0] = threads;
    Sim::Result r = s.run(t);
    REQUIRE(r.done && !r.err);
    for (uint32_t tid = 0; tid < threads; tid++) CHECK_EQ(s.r32(out + 4 * tid), (tid % s.nl) & 1 ? 304 : 312);
    double wi = s.reg(GC_REG_COMPUTE_WARP_INSTRS), ti = s.reg(GC_REG_COMPUTE_THREAD_INSTRS);
    std::printf("perf: reconverge: %.0f warp instructions, %.2f active lanes per warp instruction (of %u)\n", wi,
                ti / wi, s.nl);
    // 4 + 6 divergent instructions, ~310 converged ones per warp: nearly every instruction full
    CHECK(ti / wi > 0.9 * s.nl);
    CHECK(wi < s.nw * 340.0);
    gc_elf_free(e);
}

// Streaming: 16384-element vecadd from VIDMEM, 4 CTAs filling every warp slot, with vecadd_x4
// (written for bandwidth: 8 independent loads per thread before the adds; the bench figure) and
// with the plain one-element-per-iteration vecadd (for comparison).  Results checked.
double stream_run(Kern &k, const char *kernel) {
    Sim &s = k.s;
    uint32_t n = 16384;
    std::vector<uint32_t> a = rnd_vec(n, 1), b = rnd_vec(n, 2);
    uint64_t da = s.put(a), db = s.put(b), dc = s.alloc(n * 4);
    uint64_t p = s.put({tp(da), tp(db), tp(dc), n});
    uint32_t beats0 = s.reg(GC_REG_COMPUTE_LSU_BEATS);
    Sim::Result r = k.run(kernel, p, {4, 1, 1}, {s.nw * s.nl / 4 * 4, 1, 1});
    if (!r.done || r.err) {
        TCASE_FAIL_("%s: did not finish cleanly", kernel);
        return 0;
    }
    // AXI carries reads (R) and writes (W) on their own 8-byte channels and the memory model serves
    // 8 bytes per cycle in each direction: each element needs 8 bytes read and 4 written, so the
    // read channel bounds the kernel at one element (12 bytes) per cycle; its use is the efficiency
    double bytes = 12.0 * n, bpc = bytes / (double)r.cycles, rd_use = 8.0 * n / (double)r.cycles / 8.0;
    std::printf("perf: %s %u elements (%.0f bytes moved: 8 read and 4 written per element) in %" PRIu64
                " cycles: %.2f bytes/cycle; the read channel carried %.3f of its 8 bytes/cycle peak; %u LSU beats\n",
                kernel, n, bytes, r.cycles, bpc, rd_use, s.reg(GC_REG_COMPUTE_LSU_BEATS) - beats0);
    std::vector<uint32_t> c = s.get(dc, n);
    for (uint32_t i = 0; i < n; i++)
        if (c[i] != a[i] + b[i]) {
            TCASE_FAIL_("%s: c[%u] wrong", kernel, i);
            break;
        }
    return bpc;
}

void t_perf_stream() {
    Kern k;
    REQUIRE(k.e);
    double x4 = stream_run(k, "vecadd_x4"), one = stream_run(k, "vecadd");
    CHECK(one > 0.5);
    CHECK(x4 > 0.5);
}

// Float saxpy (firmware/kernels/float.c fsaxpy, y = alpha * x + y, two roundings) over 64 Ki
// elements in VIDMEM, 4 CTAs filling every warp slot: cycles per element.  Results checked.
void t_perf_fsaxpy() {
    Kern k;
    REQUIRE(k.e);
    Sim &s = k.s;
    uint32_t n = 65536;
    std::vector<uint32_t> x(n), y(n);
    std::mt19937_64 g(5);
    auto rf = [&g]() { return (float)((int32_t)(g() % 2000001u) - 1000000) / 1024.0f; };
    auto bits = [](float f) { uint32_t u; std::memcpy(&u, &f, 4); return u; };
    const float alpha = 1.75f;
    for (uint32_t i = 0; i < n; i++) x[i] = bits(rf()), y[i] = bits(rf());
    uint64_t dx = s.put(x), dy = s.put(y);
    uint64_t p = s.put({tp(dx), tp(dy), n, bits(alpha)});
    Sim::Result r = k.run("fsaxpy", p, {4, 1, 1}, {s.nw * s.nl / 4 * 4, 1, 1});
    REQUIRE(r.done && !r.err);
    std::printf("perf: fsaxpy %u elements in %" PRIu64 " cycles: saxpy_f32_cycles_per_elem %.3f\n", n, r.cycles,
                (double)r.cycles / n);
    std::vector<uint32_t> got = s.get(dy, n);
    for (uint32_t i = 0; i < n; i++) {
        float xf, yf;
        std::memcpy(&xf, &x[i], 4);
        std::memcpy(&yf, &y[i], 4);
        volatile float prod = alpha * xf;   // two roundings, as the kernel (-ffp-contract=off)
        uint32_t want = bits(prod + yf);
        if (got[i] != want) {
            TCASE_FAIL_("fsaxpy: y[%u] = 0x%08x, want 0x%08x", i, got[i], want);
            break;
        }
    }
}

// ------------------------------------------------------------------------------------------ TMU
// The task management unit (docs/tmu.md) with tests/rtl/simt_isa.S's tmu_task kernel: priority
// order of the pending list, eviction, nested device launches, faults in a child task.
struct Tmu {
    Sim s;
    gc_elf_t *e = nullptr;
    unsigned slots = 0, entries = 0;
    Tmu() {
        e = s.load("simt_isa.elf");
        uint32_t c = s.reg(GC_REG_COMPUTE_TMU_CONFIG);
        slots = GC_COMPUTE_TMU_CONFIG_SLOTS_GET(c);
        entries = GC_COMPUTE_TMU_CONFIG_ENTRIES_GET(c);
    }
    ~Tmu() { gc_elf_free(e); }
    struct P {   // tmu_task's parameters
        uint32_t iters = 0;
        uint64_t counters = 0;   // device address of per-CTA counters (0: none)
        uint32_t child = 0;      // child TMD thread address (0: no launch)
        uint32_t nlaunch = 0, stride = 0;
        uint64_t out = 0;        // device address of the LAUNCH statuses
    };
    struct T {   // a TMD
        uint32_t grid = 1, cta = 0;   // cta 0: one warp
        unsigned level = 0, depth = 0, maxd = 0;
        bool head = false;
        uint64_t sem = 0;
        uint32_t payload = 0;
        const char *entry = "tmu_task";
        uint64_t param = 0;           // 0: the P block
    };
    uint64_t tmd(const P &p, const T &t) {
        uint64_t pa = t.param ? t.param
                              : s.put({p.iters, p.counters ? tp(p.counters) : 0u, p.child, p.nlaunch, p.stride,
                                       p.out ? tp(p.out) : 0u});
        gc_tmd_t d;
        gc_tmd_init(&d);
        d.entry_pc = sym(e, t.entry);
        d.param = tp(pa);
        d.grid[0] = t.grid;
        d.cta[0] = t.cta ? t.cta : s.nl;
        if (t.sem) {
            d.sem_release = true;
            d.sem_addr = t.sem;
            d.sem_payload = t.payload;
        }
        uint32_t w[GC_TMD_WORDS];
        if (gc_tmd_encode(&d, w) != GC_OK) {
            std::fprintf(stderr, "bench: TMD does not encode\n");
            std::exit(2);
        }
        w[GC_TMD_PRIORITY / 4] = GC_TMD_PRIORITY_LEVEL(t.level) | GC_TMD_PRIORITY_DEPTH(t.depth) |
                                 GC_TMD_PRIORITY_MAX_DEPTH(t.maxd);
        if (t.head) w[GC_TMD_FLAGS / 4] |= GC_TMD_FLAGS_QUEUE_HEAD(1);
        uint64_t a = s.alloc(GC_TMD_SIZE, GC_TMD_ALIGN);
        s.write(a, w, sizeof w);
        return a;
    }
    uint64_t zeros(size_t n) { return s.put(std::vector<uint32_t>(n, 0)); }
};

using Recs = std::vector<Sim::Rec>;
// index of the first record of kind k for task t (or -1)
int rec_at(const Recs &r, unsigned kind, uint64_t tmd, size_t from = 0) {
    for (size_t i = from; i < r.size(); i++)
        if (r[i].kind == kind && r[i].task == (uint32_t)(tmd >> 8)) return (int)i;
    return -1;
}
unsigned rec_count(const Recs &r, unsigned kind) {
    unsigned n = 0;
    for (auto &x : r) n += x.kind == kind;
    return n;
}
void check_counters(Sim &s, uint64_t c, uint32_t n, uint32_t want, const char *what) {
    for (uint32_t i = 0; i < n; i++) {
        uint32_t v = s.r32(c + 4 * i);
        if (v != want) TCASE_FAIL_("%s: CTA %u ran %u times, want %u", what, i, v, want);
    }
}

// All slots held by long one-CTA tasks (never evictable: nothing left to dispatch); five tasks of
// levels 3, 1, 3, 3 (QUEUE_HEAD), 5 queue up behind them and start in pending-list order:
// 5, 3 (head), 3, 3, 1.
void t_tmu_priority_order() {
    Tmu m;
    REQUIRE(m.e);
    Sim &s = m.s;
    s.log_on();
    std::vector<Sim::HostTask> v;
    for (unsigned k = 0; k < m.slots; k++) v.push_back({k, m.tmd({1500, m.zeros(1)}, {})});
    struct Q {
        unsigned level;
        bool head;
    } qs[] = {{3, false}, {1, false}, {3, false}, {3, true}, {5, false}};
    std::vector<uint64_t> q;
    std::vector<uint64_t> cnt;
    for (auto &x : qs) {
        Tmu::T t;
        t.level = x.level;
        t.head = x.head;
        cnt.push_back(m.zeros(1));
        q.push_back(m.tmd({10, cnt.back()}, t));
        v.push_back({8 + (unsigned)q.size(), q.back()});
    }
    REQUIRE(s.run_host(v));
    for (auto &h : v) CHECK(!h.err);
    for (auto c : cnt) check_counters(s, c, 1, 1, "queued task");
    Recs r = s.log_read();
    // every queued task was in the pending list before the first blocker completed
    int first_complete = -1;
    for (size_t i = 0; i < r.size() && first_complete < 0; i++)
        if (r[i].kind == GC_TMU_EVENT_COMPLETE) first_complete = (int)i;
    for (size_t i = 0; i < q.size(); i++) {
        int qi = rec_at(r, GC_TMU_EVENT_QUEUED, q[i]);
        REQUIRE(qi >= 0);
        CHECK(qi < first_complete);
        CHECK_EQ(r[qi].level, qs[i].level);
        CHECK_EQ(r[qi].depth, 1);
        CHECK_EQ(r[qi].slot, 15);
        CHECK_EQ(r[qi].ch, 9 + i);
    }
    const size_t want[] = {4, 3, 0, 2, 1};   // levels 5, 3 head, 3, 3, 1
    int prev = -1;
    for (size_t i : want) {
        int si = rec_at(r, GC_TMU_EVENT_START, q[i]);
        REQUIRE(si >= 0);
        if (si < prev) TCASE_FAIL_("task %zu (level %u) started out of order", i, qs[i].level);
        prev = si;
    }
    CHECK_EQ(s.reg(GC_REG_COMPUTE_TASK), (uint32_t)(q[1] >> 8));   // the last to take a slot
    CHECK_EQ(s.reg(GC_REG_COMPUTE_EVICTIONS), 0);
    CHECK_EQ(rec_count(r, GC_TMU_EVENT_START), m.slots + 5);
    CHECK_EQ(rec_count(r, GC_TMU_EVENT_COMPLETE), m.slots + 5);
    CHECK_EQ(s.reg(GC_REG_COMPUTE_LOG_PUT), r.size());
    CHECK_EQ(GC_COMPUTE_DBG_ENTRIES_GET(s.reg(GC_REG_COMPUTE_DBG)), 0);
}

// K long low-priority tasks (level 1, 8 one-warp CTAs each) fill every slot; then a level-10 task
// arrives.  With eviction: the level-1 task that took its slot last gives it up (EVICT), the
// high task starts in it and completes before the waiting low tasks, the victim resumes; every
// CTA of every task runs exactly once.  With NO_EVICT: no eviction, the high task waits for a
// slot.  Returns the cycles from the high task's launch to its START.
uint64_t evict_run(bool no_evict) {
    Tmu m;
    if (!m.e) {
        TCASE_FAIL_("no simt_isa.elf");
        return 0;
    }
    Sim &s = m.s;
    s.top->no_evict_i = no_evict;
    s.log_on();
    const uint32_t G = 8, GH = 4;
    std::vector<uint64_t> lo, lc;
    std::vector<Sim::HostTask> v;
    for (unsigned k = 0; k < m.slots; k++) {
        Tmu::T t;
        t.grid = G;
        t.level = 1;
        lc.push_back(m.zeros(G));
        lo.push_back(m.tmd({300, lc.back()}, t));
        v.push_back({k, lo.back()});
    }
    Tmu::T th;
    th.grid = GH;
    th.level = 10;
    uint64_t hc = m.zeros(GH);
    uint64_t hi = m.tmd({50, hc}, th);
    std::vector<Sim::HostTask> &lows = v;
    // phase 1: launch the low tasks and wait until they hold every slot
    {
        size_t next = 0;
        uint64_t t0 = s.cycle;
        while (GC_COMPUTE_DBG_SLOTS_BUSY_GET(s.reg(GC_REG_COMPUTE_DBG)) < m.slots && s.cycle - t0 < 100000) {
            s.top->cmd_valid_i = next < lows.size();
            s.top->cmd_tmd_i = next < lows.size() ? lows[next].tmd : 0;
            s.top->cmd_ch_i = next < lows.size() ? lows[next].ch : 0;
            s.top->clk_i = 0;
            s.top->eval();
            bool acc = s.top->cmd_valid_i && s.top->cmd_ready_o;
            s.tick();
            if (acc) lows[next++].launched = true;
        }
        s.top->cmd_valid_i = 0;
        if (GC_COMPUTE_DBG_SLOTS_BUSY_GET(s.reg(GC_REG_COMPUTE_DBG)) < m.slots) {
            TCASE_FAIL_("the low tasks never held every slot");
            return 0;
        }
    }
    // phase 2: the high task, then everything to completion
    lows.push_back({m.slots, hi});
    if (!s.run_host(lows)) {
        TCASE_FAIL_("tasks not done");
        return 0;
    }
    for (auto &h : lows) CHECK(!h.err);
    for (unsigned k = 0; k < m.slots; k++) check_counters(s, lc[k], G, 1, "low task");
    check_counters(s, hc, GH, 1, "high task");
    Recs r = s.log_read();
    int hs = rec_at(r, GC_TMU_EVENT_START, hi), hcmp = rec_at(r, GC_TMU_EVENT_COMPLETE, hi);
    if (hs < 0 || hcmp < 0) {
        TCASE_FAIL_("no START / COMPLETE record of the high task");
        return 0;
    }
    uint64_t lat = r[hs].stamp - lows.back().acc;
    uint64_t victim = lo.back();   // equal levels: the latest to take its slot
    int vs = rec_at(r, GC_TMU_EVENT_START, victim);
    for (unsigned k = 0; k + 1 < m.slots; k++) CHECK(rec_at(r, GC_TMU_EVENT_START, lo[k]) < vs);
    if (!no_evict) {
        CHECK_EQ(s.reg(GC_REG_COMPUTE_EVICTIONS), 1);
        CHECK_EQ(rec_count(r, GC_TMU_EVENT_EVICT), 1);
        int ev = rec_at(r, GC_TMU_EVENT_EVICT, victim);
        if (ev < 0) {
            TCASE_FAIL_("no EVICT record of the victim");
            return 0;
        }
        CHECK_EQ(r[ev].slot, r[vs].slot);
        CHECK(ev < hs);
        CHECK_EQ(r[hs].slot, r[ev].slot);   // the high task took the victim's slot
        int rs = rec_at(r, GC_TMU_EVENT_RESUME, victim);
        CHECK(rs > hs);
        CHECK_EQ(rec_count(r, GC_TMU_EVENT_RESUME), 1);
        // it completes before every low task that was still waiting for the SMs
        for (unsigned k = 1; k < m.slots; k++) CHECK(rec_at(r, GC_TMU_EVENT_COMPLETE, lo[k]) > hcmp);
        if (s.nsm == 1) CHECK(rec_at(r, GC_TMU_EVENT_COMPLETE, lo[0]) > hcmp);
    } else {
        CHECK_EQ(s.reg(GC_REG_COMPUTE_EVICTIONS), 0);
        CHECK_EQ(rec_count(r, GC_TMU_EVENT_EVICT), 0);
        CHECK_EQ(rec_count(r, GC_TMU_EVENT_RESUME), 0);
        // it waited for a slot: the one the first low task (the first dispatched) gave up once
        // all its CTAs were done
        int l0 = rec_at(r, GC_TMU_EVENT_START, lo[0]);
        if (l0 < 0) {
            TCASE_FAIL_("no START record of the first low task");
            return 0;
        }
        CHECK_EQ(r[hs].slot, r[l0].slot);
        CHECK(r[hs].stamp > r[l0].stamp + 300 * 3 * (uint64_t)G / s.nsm);
    }
    std::printf("tmu: %s: high-priority launch to START %" PRIu64 " cycles, to done %" PRIu64 " cycles\n",
                no_evict ? "NO_EVICT" : "eviction", lat, lows.back().done - lows.back().acc);
    return lat;
}

void t_tmu_evict() {
    uint64_t with = evict_run(false);
    uint64_t without = evict_run(true);
    CHECK(with > 0 && with < without);
}

// A chain of device launches: root (level 4, depth 1, MAX_DEPTH 4) -> c1 -> c2 -> c3; c3's LAUNCH
// fails DEPTH.  Then PRIORITY at level 63, BAD_ADDR for bad TMD addresses.
void t_tmu_nested() {
    Tmu m;
    REQUIRE(m.e);
    Sim &s = m.s;
    s.log_on();
    Tmu::T junk;   // a child's own PRIORITY word is ignored
    junk.level = 60;
    junk.depth = 9;
    junk.maxd = 15;
    uint64_t c4 = m.tmd({10, m.zeros(1)}, junk);
    uint64_t o[4], cn[4], c[4];
    for (int i = 0; i < 4; i++) o[i] = m.zeros(1), cn[i] = m.zeros(1);
    c[3] = m.tmd({500, cn[3], tp(c4), 1, 0, o[3]}, junk);
    c[2] = m.tmd({400, cn[2], tp(c[3]), 1, 0, o[2]}, junk);
    c[1] = m.tmd({300, cn[1], tp(c[2]), 1, 0, o[1]}, junk);
    Tmu::T rt;
    rt.level = 4;
    rt.depth = 1;
    rt.maxd = 4;
    rt.sem = m.zeros(1);
    rt.payload = 0xFEED;
    uint64_t root = m.tmd({20, cn[0], tp(c[1]), 1, 0, o[0]}, rt);
    c[0] = root;
    std::vector<Sim::HostTask> v = {{6, root}};
    REQUIRE(s.run_host(v));
    CHECK(!v[0].err);
    CHECK_EQ(s.r32(o[0]), GC_LAUNCH_STATUS_OK);
    CHECK_EQ(s.r32(o[1]), GC_LAUNCH_STATUS_OK);
    CHECK_EQ(s.r32(o[2]), GC_LAUNCH_STATUS_OK);
    CHECK_EQ(s.r32(o[3]), GC_LAUNCH_STATUS_DEPTH);
    for (int i = 0; i < 4; i++) check_counters(s, cn[i], 1, 1, "chain task");
    CHECK_EQ(s.r32(rt.sem), 0xFEED);
    CHECK_EQ(s.reg(GC_REG_COMPUTE_DEV_LAUNCHES), 3);
    CHECK_EQ(s.reg(GC_REG_COMPUTE_LAUNCH_FAILS), 1);
    CHECK_EQ(s.launch_fails, 1);
    uint32_t lf = s.reg(GC_REG_COMPUTE_LAUNCH_FAIL);
    CHECK_EQ(GC_COMPUTE_LAUNCH_FAIL_STATUS_GET(lf), GC_LAUNCH_STATUS_DEPTH);
    CHECK_EQ(GC_COMPUTE_LAUNCH_FAIL_DEPTH_GET(lf), 4);
    CHECK_EQ(GC_COMPUTE_LAUNCH_FAIL_LEVEL_GET(lf), 7);
    CHECK_EQ(s.reg(GC_REG_COMPUTE_LAUNCH_FAIL_TASK), (uint32_t)(c[3] >> 8));
    CHECK_EQ(s.reg(GC_REG_COMPUTE_TASKS), 4);
    Recs r = s.log_read();
    int cmp[4];
    for (int i = 0; i < 4; i++) {
        int q = rec_at(r, GC_TMU_EVENT_QUEUED, c[i]);
        cmp[i] = rec_at(r, GC_TMU_EVENT_COMPLETE, c[i]);
        REQUIRE(q >= 0 && cmp[i] >= 0);
        CHECK_EQ(r[q].level, 4 + i);   // parent + 1
        CHECK_EQ(r[q].depth, 1 + i);
        CHECK_EQ(r[q].ch, 6);
        CHECK_EQ(r[cmp[i]].level, 4 + i);
    }
    for (int i = 0; i < 3; i++) {
        CHECK(cmp[i] > cmp[i + 1]);                      // a parent completes after its child
        CHECK(rec_at(r, GC_TMU_EVENT_CTAS_DONE, c[i]) >= 0);   // ... its own CTAs were done before
    }
    CHECK(v[0].done > r[cmp[1]].stamp);
    CHECK_EQ(rec_at(r, GC_TMU_EVENT_QUEUED, c4), -1);
    int lfr = rec_at(r, GC_TMU_EVENT_LAUNCH_FAIL, c[3]);
    REQUIRE(lfr >= 0);
    CHECK_EQ(r[lfr].level, 7);
    CHECK_EQ(r[lfr].depth, 4);
    for (auto &x : r) CHECK(x.level <= 7);   // nothing reached level 8

    // PRIORITY: root at 62 launches a child at 63, whose launch fails
    s.lfail_pend = false;   // the host clears INTR_STATUS.LAUNCH_FAIL
    s.tick();
    uint64_t p2 = m.zeros(1), p1 = m.zeros(1);
    uint64_t k1 = m.tmd({50, 0, tp(c4), 1, 0, p2}, junk);
    Tmu::T r62;
    r62.level = 62;
    r62.maxd = 4;
    uint64_t root2 = m.tmd({10, 0, tp(k1), 1, 0, p1}, r62);
    // a level-63 root's own launch fails the same way; BAD_ADDR for a misaligned and an
    // out-of-window TMD address (found by the SM, counted and recorded by the TMU)
    Tmu::T r63 = r62;
    r63.level = 63;
    uint64_t p3 = m.zeros(1), p4 = m.zeros(2);
    uint64_t root3 = m.tmd({10, 0, tp(c4), 1, 0, p3}, r63);
    std::vector<Sim::HostTask> w = {{7, root2}};
    REQUIRE(s.run_host(w));
    CHECK(!w[0].err);
    CHECK_EQ(s.r32(p1), GC_LAUNCH_STATUS_OK);
    CHECK_EQ(s.r32(p2), GC_LAUNCH_STATUS_PRIORITY);
    lf = s.reg(GC_REG_COMPUTE_LAUNCH_FAIL);
    CHECK_EQ(GC_COMPUTE_LAUNCH_FAIL_STATUS_GET(lf), GC_LAUNCH_STATUS_PRIORITY);
    CHECK_EQ(GC_COMPUTE_LAUNCH_FAIL_LEVEL_GET(lf), 63);
    CHECK_EQ(GC_COMPUTE_LAUNCH_FAIL_DEPTH_GET(lf), 2);
    CHECK_EQ(s.reg(GC_REG_COMPUTE_LAUNCH_FAIL_TASK), (uint32_t)(k1 >> 8));
    w = {{7, root3}};
    REQUIRE(s.run_host(w));
    CHECK_EQ(s.r32(p3), GC_LAUNCH_STATUS_PRIORITY);
    // not cleared: the record keeps the first failure
    CHECK_EQ(s.reg(GC_REG_COMPUTE_LAUNCH_FAIL_TASK), (uint32_t)(k1 >> 8));
    CHECK_EQ(s.reg(GC_REG_COMPUTE_LAUNCH_FAILS), 3);
    CHECK_EQ(s.reg(GC_REG_COMPUTE_DEV_LAUNCHES), 4);
    Tmu::T r1;
    r1.maxd = 4;
    uint64_t root4 = m.tmd({10, 0, tp(c4) + 4, 1, 0, p4}, r1);
    uint64_t root5 = m.tmd({10, 0, GC_SIMT_WIN_SHARED_BASE, 1, 0, p4 + 4}, r1);
    w = {{7, root4}, {8, root5}};
    REQUIRE(s.run_host(w));
    CHECK_EQ(s.r32(p4), GC_LAUNCH_STATUS_BAD_ADDR);
    CHECK_EQ(s.r32(p4 + 4), GC_LAUNCH_STATUS_BAD_ADDR);
    CHECK_EQ(s.reg(GC_REG_COMPUTE_DEV_LAUNCHES), 4);
    CHECK_EQ(s.reg(GC_REG_COMPUTE_LAUNCH_FAILS), 5);
    // BAD_ADDR for TMD addresses in a NULL guard: the first and the last 256-aligned ones of the
    // SYSMEM guard after NULL (0x100, guard - 0x100) and of the VIDMEM guard
    uint64_t p5 = m.zeros(4);
    const uint32_t g_sys = GC_SIMT_WIN_SYSMEM_GUARD, g_vid = GC_SIMT_WIN_VIDMEM_GUARD;
    uint64_t root6 = m.tmd({10, 0, 0x100u, 2, g_sys - 0x200u, p5}, r1);
    uint64_t root7 = m.tmd({10, 0, GC_SIMT_WIN_VIDMEM_BASE, 2, g_vid - 0x100u, p5 + 8}, r1);
    w = {{7, root6}, {8, root7}};
    REQUIRE(s.run_host(w));
    for (unsigned i = 0; i < 4; i++) CHECK_EQ(s.r32(p5 + 4 * i), GC_LAUNCH_STATUS_BAD_ADDR);
    CHECK_EQ(s.reg(GC_REG_COMPUTE_DEV_LAUNCHES), 4);
    CHECK_EQ(s.reg(GC_REG_COMPUTE_LAUNCH_FAILS), 9);
    CHECK_EQ(GC_COMPUTE_DBG_ENTRIES_GET(s.reg(GC_REG_COMPUTE_DBG)), 0);
}

// Every thread of a CTA launches a long child: the table fills (entries - 1 children besides the
// root), the rest get FULL; the root completes after all its children.
void t_tmu_full() {
    Tmu m;
    REQUIRE(m.e);
    Sim &s = m.s;
    uint32_t n = std::min(m.entries + 4, s.nw * s.nl);
    uint64_t cc = m.zeros(1), out = m.zeros(n);
    uint64_t child = m.tmd({1000, cc}, {});
    Tmu::T rt;
    rt.cta = n;
    rt.maxd = 2;
    uint64_t rc = m.zeros(1);
    uint64_t root = m.tmd({5, rc, tp(child), n, 0, out}, rt);
    std::vector<Sim::HostTask> v = {{1, root}};
    REQUIRE(s.run_host(v));
    CHECK(!v[0].err);
    std::vector<uint32_t> st = s.get(out, n);
    unsigned ok = 0, full = 0;
    for (uint32_t i = 0; i < n; i++) {
        ok += st[i] == GC_LAUNCH_STATUS_OK;
        full += st[i] == GC_LAUNCH_STATUS_FULL;
        // within a warp, lanes launch lowest first: no OK after a FULL
        if (i % s.nl && st[i] == GC_LAUNCH_STATUS_OK && st[i - 1] == GC_LAUNCH_STATUS_FULL)
            TCASE_FAIL_("lane %u launched after lane %u was refused", i, i - 1);
    }
    CHECK_EQ(ok, m.entries - 1);
    CHECK_EQ(full, n - (m.entries - 1));
    CHECK_EQ(s.r32(cc), m.entries - 1);   // each child ran its CTA
    CHECK_EQ(s.r32(rc), 1);
    CHECK_EQ(s.reg(GC_REG_COMPUTE_DEV_LAUNCHES), m.entries - 1);
    CHECK_EQ(s.reg(GC_REG_COMPUTE_LAUNCH_FAILS), full);
    CHECK_EQ(GC_COMPUTE_LAUNCH_FAIL_STATUS_GET(s.reg(GC_REG_COMPUTE_LAUNCH_FAIL)), GC_LAUNCH_STATUS_FULL);
    CHECK_EQ(s.reg(GC_REG_COMPUTE_TASKS), m.entries);
    CHECK_EQ(s.dones.size(), 1);
}

// A child faults: its CTAs are killed, the root's own CTA and another channel's task run on, the
// root completes with an error and without its release; the record names the child and the
// root's channel.
void t_tmu_child_fault() {
    Tmu m;
    REQUIRE(m.e);
    Sim &s = m.s;
    s.log_on();
    Tmu::T ct;
    ct.entry = "fault_ebreak";
    ct.param = m.zeros(16);
    ct.cta = 2 * s.nl;
    ct.grid = 2;
    uint64_t child = m.tmd({}, ct);
    uint64_t rc = m.zeros(1), ro = m.zeros(1), oc = m.zeros(4);
    Tmu::T rt;
    rt.maxd = 3;
    rt.sem = m.zeros(1);
    rt.payload = 0x1111;
    uint64_t root = m.tmd({800, rc, tp(child), 1, 0, ro}, rt);
    Tmu::T ot;
    ot.grid = 4;
    ot.sem = m.zeros(1);
    ot.payload = 0x2222;
    uint64_t other = m.tmd({300, oc}, ot);
    std::vector<Sim::HostTask> v = {{2, root}, {3, other}};
    REQUIRE(s.run_host(v));
    CHECK(v[0].err);
    CHECK(!v[1].err);
    CHECK_EQ(s.r32(ro), GC_LAUNCH_STATUS_OK);
    CHECK_EQ(s.r32(rc), 1);            // the root's own CTA ran to its end
    CHECK_EQ(s.r32(rt.sem), 0);        // no release: a descendant faulted
    CHECK_EQ(s.r32(ot.sem), 0x2222);
    check_counters(s, oc, 4, 1, "other task");
    CHECK_EQ(s.task_faults, 1);
    CHECK_EQ(GC_COMPUTE_FAULT_CAUSE_CAUSE_GET(s.reg(GC_REG_COMPUTE_FAULT_CAUSE)), GC_SIMT_FAULT_EBREAK);
    CHECK_EQ(s.reg(GC_REG_COMPUTE_FAULT_TASK), (uint32_t)(child >> 8));
    CHECK_EQ(s.reg(GC_REG_COMPUTE_FAULT_CHANNEL), 2);
    CHECK_EQ(s.reg(GC_REG_COMPUTE_FAULT_PC), sym(m.e, "fault_ebreak_pc"));
    Recs r = s.log_read();
    int f = rec_at(r, GC_TMU_EVENT_FAULT, child);
    REQUIRE(f >= 0);
    CHECK_EQ(r[f].level, 1);
    CHECK_EQ(r[f].depth, 2);
    CHECK_EQ(r[f].ch, 2);
    CHECK_EQ(rec_count(r, GC_TMU_EVENT_FAULT), 1);
    CHECK(rec_at(r, GC_TMU_EVENT_COMPLETE, child) > f);
    CHECK(rec_at(r, GC_TMU_EVENT_COMPLETE, root) > rec_at(r, GC_TMU_EVENT_COMPLETE, child));
    CHECK_EQ(s.reg(GC_REG_COMPUTE_DBG) & ~(uint32_t)(GC_COMPUTE_DBG_WARPS_ACTIVE_MASK << GC_COMPUTE_DBG_WARPS_ACTIVE_SHIFT), 0);
    CHECK_EQ(GC_COMPUTE_DBG_WARPS_ACTIVE_GET(s.reg(GC_REG_COMPUTE_DBG)), 0);
}

#ifndef SIMT_TB_FPU
#define SIMT_TB_FPU 1
#endif

// COMPUTE.CAPS reports the build: FPU = the gc_sm parameter, LMEM_BYTES = SIMT_LMEM_BYTES (the
// host reads it instead of running a probe kernel)
void t_caps() {
    Sim s;
    uint32_t c = s.reg(GC_REG_COMPUTE_CAPS);
    CHECK_EQ(GC_COMPUTE_CAPS_FPU_GET(c), SIMT_TB_FPU);
    CHECK_EQ(GC_COMPUTE_CAPS_LMEM_BYTES_GET(c), GC_SIMT_LMEM_BYTES);
}

#if SIMT_TB_MUTATIONS
// The mutation build (gc_sm with +define+GC_MUTATIONS, Makefile simtmut): each case breaks one
// scoreboard rule with +gc_mutate=N and runs checks of the regular suite, which must now fail.
void expect_caught(unsigned m, const char *rule, std::initializer_list<void (*)()> checks,
                   const char *mem_inject = "") {
    int before = tcase_failed;
    g_mutate = m;
    g_mem_inject = mem_inject;
    for (void (*fn)() : checks) fn();
    g_mutate = 0;
    g_mem_inject.clear();
    int caught = tcase_failed - before;
    tcase_failed = before;
    if (caught == 0) TCASE_FAIL_("mutation %u (%s): the checks did not catch it", m, rule);
    else std::printf("mutation %u (%s): caught by %d failed checks (the FAILED lines above are expected)\n", m, rule,
                     caught);
}
// The memory model keeps a read's data from its AR on, so a store issued after the AR cannot
// change what the load gets; with late-reads (legal AXI: a read may see a write accepted after
// it) only the LSU's check keeps the store behind the load (SP ld_st_order of the ISA tests);
// st_past_loads sees the store to the loaded word, and the FENCE, go before the load's data.
void t_mut_store_waits_for_loads() {
    expect_caught(1, "a store / AMO / FENCE issues while its warp's loads are in flight",
                  {t_isa_one_lane, t_isa_all_lanes, t_st_past_loads},
                  "late-reads");
}
void t_isa_late_reads() {
    g_mem_inject = "late-reads";
    t_isa_one_lane();
    t_isa_all_lanes();
    g_mem_inject.clear();
}
void t_mut_fcsr_waits_for_fp() {
    expect_caught(2, "an fflags / fcsr read issues while its warp's FP instructions are in flight",
                  {t_isa_one_lane, t_fp_flags_meet});
}
void t_mut_load_limit() { expect_caught(3, "a ninth load issues with 8 in flight", {t_ld_inflight}); }
// the same build without a mutation passes them (the hooks alone change nothing)
const tcase_t cases[] = {
    {"caps", t_caps},
    {"isa_one_lane", t_isa_one_lane},
    {"isa_all_lanes", t_isa_all_lanes},
    {"isa_late_reads", t_isa_late_reads},
    {"fp_flags_meet", t_fp_flags_meet},
    {"ld_inflight", t_ld_inflight},
    {"st_past_loads", t_st_past_loads},
    {"mut_store_waits_for_loads", t_mut_store_waits_for_loads},
    {"mut_fcsr_waits_for_fp", t_mut_fcsr_waits_for_fp},
    {"mut_load_limit", t_mut_load_limit},
};
#elif SIMT_TB_FPU
const tcase_t cases[] = {
    {"caps", t_caps},
    {"isa_one_lane", t_isa_one_lane},
    {"isa_one_lane_b", t_isa_one_lane_b},
    {"isa_lrsc_store", t_isa_lrsc_store},
    {"isa_lrsc_amo", t_isa_lrsc_amo},
    {"isa_lrsc_pairs", t_isa_lrsc_pairs},
    {"isa_all_lanes", t_isa_all_lanes},
    {"isa_partial_warps", t_isa_partial_warps},
    {"isa_3d", t_isa_3d},
    {"isa_stalls", t_isa_stalls},
    {"kern_vecadd", t_kern_vecadd},
    {"kern_vecadd_x4", t_kern_vecadd_x4},
    {"kern_saxpy", t_kern_saxpy},
    {"kern_reduce", t_kern_reduce},
    {"kern_histogram_global", t_kern_histogram_global},
    {"kern_histogram_shared", t_kern_histogram_shared},
    {"kern_divergent", t_kern_divergent},
    {"kern_stalls", t_kern_stalls},
    {"kern_back_to_back", t_kern_back_to_back},
    {"fault_illegal", t_fault_illegal},
    {"fault_reserved_custom", t_fault_reserved_custom},
    {"fault_csr_write", t_fault_csr_write},
    {"fault_ecall", t_fault_ecall},
    {"fault_ebreak", t_fault_ebreak},
    {"fault_misaligned_load", t_fault_misaligned_load},
    {"fault_misaligned_store", t_fault_misaligned_store},
    {"fault_misaligned_amo", t_fault_misaligned_amo},
    {"fault_misaligned_jump", t_fault_misaligned_jump},
    {"fault_wild_load", t_fault_wild_load},
    {"fault_wild_store", t_fault_wild_store},
    {"fault_wild_amo", t_fault_wild_amo},
    {"fault_no_window", t_fault_no_window},
    {"fault_shared_oob", t_fault_shared_oob},
    {"fault_lr_shared", t_fault_lr_shared},
    {"fault_fetch", t_fault_fetch},
    {"fault_fetch_bus", t_fault_fetch_bus},
    {"fault_store_late", t_fault_store_late},
    {"fault_wild_lr", t_fault_wild_lr},
    {"null_lw_0", t_null_lw_0},
    {"null_lw_small", t_null_lw_small},
    {"null_lw_misaligned", t_null_lw_misaligned},
    {"null_lw_last", t_null_lw_last},
    {"null_lb_last", t_null_lb_last},
    {"null_sw_0", t_null_sw_0},
    {"null_sw_small", t_null_sw_small},
    {"null_sh_last", t_null_sh_last},
    {"null_amo_0", t_null_amo_0},
    {"null_amo_vid_last", t_null_amo_vid_last},
    {"null_lr_vid_0", t_null_lr_vid_0},
    {"null_sc_small", t_null_sc_small},
    {"null_jump_small", t_null_jump_small},
    {"null_jump_vid_last", t_null_jump_vid_last},
    {"null_entry_pc", t_null_entry_pc},
    {"null_edge", t_null_edge},
    {"fault_load_late", t_fault_load_late},
    {"fault_fp_rm", t_fault_fp_rm},
    {"fault_fp_dyn", t_fault_fp_dyn},
    {"fp_scoreboard", t_fp_scoreboard},
    {"fp_flags_meet", t_fp_flags_meet},
    {"ld_inflight", t_ld_inflight},
    {"st_past_loads", t_st_past_loads},
    {"ld_burst_limit", t_ld_burst_limit},
    {"st_buffered", t_st_buffered},
    {"perf_fp", t_perf_fp},
    {"tmd_checks", t_tmd_checks},
    {"tmd_release", t_tmd_release},
    {"perf_alu_ipc", t_perf_alu_ipc},
    {"perf_reconverge", t_perf_reconverge},
    {"perf_stream", t_perf_stream},
    {"perf_fsaxpy", t_perf_fsaxpy},
    {"tmu_priority_order", t_tmu_priority_order},
    {"tmu_evict", t_tmu_evict},
    {"tmu_nested", t_tmu_nested},
    {"tmu_full", t_tmu_full},
    {"tmu_child_fault", t_tmu_child_fault},
};
#else
// the model built without the FPU (gc_sm parameter FPU = 0): F instructions and fcsr accesses
// fault ILLEGAL_INSTRUCTION; the integer core works as ever
const tcase_t cases[] = {
    {"caps", t_caps},
    {"fault_fp_absent", t_fault_fp_absent},
    {"fault_fp_absent_csr", t_fault_fp_absent_csr},
    {"kern_vecadd", t_kern_vecadd},
    {"kern_reduce", t_kern_reduce},
};
#endif

}  // namespace

// Case names get the binary's name as a prefix (test_simt8 -> simt8_isa_one_lane), so that the
// 8- and 32-lane builds have distinct case names in the regression.
int main(int argc, char **argv) {
    Verilated::commandArgs(1, argv);
    std::string self = argv[0];
    size_t slash = self.rfind('/');
    std::string dir = slash == std::string::npos ? std::string(".") : self.substr(0, slash);
    std::string base = slash == std::string::npos ? self : self.substr(slash + 1);
    g_fw = dir + "/../firmware";
    if (const char *d = std::getenv("GPUCOSIM_FIRMWARE")) g_fw = d;
    std::string prefix = base.rfind("test_", 0) == 0 ? base.substr(5) + "_" : std::string();
    static std::vector<std::string> names;
    static std::vector<tcase_t> table;
    for (const tcase_t &c : cases) names.push_back(prefix + c.name);
    for (size_t i = 0; i < names.size(); i++) table.push_back({names[i].c_str(), cases[i].fn});
    return tcase_main(argc, argv, table.data(), table.size());
}
