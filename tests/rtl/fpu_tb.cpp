// Block testbench for the SM's floating-point units (tests/rtl/fpu_tb_top.sv: gc_fp_pkg's decoder,
// gc_sm_fpu and gc_sm_fdivsqrt with 8 lanes) against Berkeley SoftFloat vectors.
//
// Vectors: scripts/gen_fp_vectors.py (SoftFloat through softfloatpy, RISC-V semantics), one per
// line "OP RM A B C RESULT FLAGS" (hex); the build writes them to build/fpvec/vectors.txt (>= 10^4
// per operation, every static rounding mode) and compiles that path in (FPU_VECTORS).
// Run:
//   build/rtl_fpu/Vfpu_tb_top [+vectors=FILE] [+min=N]
//     +vectors  another vector file
//     +min      vectors each of the 24 operations must have (default 10000; 0: any)
//
// What it checks
//  * Every vector, bit-exact result and fflags: 8 vectors per instruction (one per lane, each
//    lane with its own rounding mode), the instruction word built from the spec's encodings
//    (GC_FP_*) and decoded by fp_decode as gc_sm does.  The pipelined unit gets one instruction
//    per cycle, back to back, and must answer exactly 3 cycles after each (in order); the
//    divider / square root must raise ready again and answer each request once.
//  * The decoder: each operation's word is legal with the destination file the spec names;
//    reserved neighbours (other fmt, funct3, rs2, funct5, FLD / FSD widths) are not.
#include <verilated.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "Vfpu_tb_top.h"
#include "../../cosim/gc_cov.h"
#include "gpucosim_spec.h"

#ifndef FPU_VECTORS
#define FPU_VECTORS "build/fpvec/vectors.txt"
#endif

namespace {

constexpr int NL = 8;
constexpr int RM = -1;   // funct3 is the rounding mode

struct OpDesc {
  const char* name;
  unsigned opc, f5;
  int f3, rs2;     // -1: rounding mode / source register
  bool rd_fp, ds;
};

const OpDesc OPS[] = {
    {"FADD", GC_FP_OPC_OP_FP, GC_FP_F5_FADD, RM, -1, true, false},
    {"FSUB", GC_FP_OPC_OP_FP, GC_FP_F5_FSUB, RM, -1, true, false},
    {"FMUL", GC_FP_OPC_OP_FP, GC_FP_F5_FMUL, RM, -1, true, false},
    {"FDIV", GC_FP_OPC_OP_FP, GC_FP_F5_FDIV, RM, -1, true, true},
    {"FSQRT", GC_FP_OPC_OP_FP, GC_FP_F5_FSQRT, RM, GC_FP_RS2_FSQRT, true, true},
    {"FMADD", GC_FP_OPC_FMADD, 0, RM, -1, true, false},
    {"FMSUB", GC_FP_OPC_FMSUB, 0, RM, -1, true, false},
    {"FNMSUB", GC_FP_OPC_FNMSUB, 0, RM, -1, true, false},
    {"FNMADD", GC_FP_OPC_FNMADD, 0, RM, -1, true, false},
    {"FSGNJ", GC_FP_OPC_OP_FP, GC_FP_F5_FSGNJ, GC_FP_F3_FSGNJ, -1, true, false},
    {"FSGNJN", GC_FP_OPC_OP_FP, GC_FP_F5_FSGNJN, GC_FP_F3_FSGNJN, -1, true, false},
    {"FSGNJX", GC_FP_OPC_OP_FP, GC_FP_F5_FSGNJX, GC_FP_F3_FSGNJX, -1, true, false},
    {"FMIN", GC_FP_OPC_OP_FP, GC_FP_F5_FMIN, GC_FP_F3_FMIN, -1, true, false},
    {"FMAX", GC_FP_OPC_OP_FP, GC_FP_F5_FMAX, GC_FP_F3_FMAX, -1, true, false},
    {"FEQ", GC_FP_OPC_OP_FP, GC_FP_F5_FEQ, GC_FP_F3_FEQ, -1, false, false},
    {"FLT", GC_FP_OPC_OP_FP, GC_FP_F5_FLT, GC_FP_F3_FLT, -1, false, false},
    {"FLE", GC_FP_OPC_OP_FP, GC_FP_F5_FLE, GC_FP_F3_FLE, -1, false, false},
    {"FCLASS", GC_FP_OPC_OP_FP, GC_FP_F5_FCLASS, GC_FP_F3_FCLASS, GC_FP_RS2_FCLASS, false, false},
    {"FMV_X_W", GC_FP_OPC_OP_FP, GC_FP_F5_FMV_X_W, GC_FP_F3_FMV_X_W, GC_FP_RS2_FMV_X_W, false, false},
    {"FMV_W_X", GC_FP_OPC_OP_FP, GC_FP_F5_FMV_W_X, GC_FP_F3_FMV_W_X, GC_FP_RS2_FMV_W_X, true, false},
    {"FCVT_W_S", GC_FP_OPC_OP_FP, GC_FP_F5_FCVT_W_S, RM, GC_FP_RS2_FCVT_W_S, false, false},
    {"FCVT_WU_S", GC_FP_OPC_OP_FP, GC_FP_F5_FCVT_WU_S, RM, GC_FP_RS2_FCVT_WU_S, false, false},
    {"FCVT_S_W", GC_FP_OPC_OP_FP, GC_FP_F5_FCVT_S_W, RM, GC_FP_RS2_FCVT_S_W, true, false},
    {"FCVT_S_WU", GC_FP_OPC_OP_FP, GC_FP_F5_FCVT_S_WU, RM, GC_FP_RS2_FCVT_S_WU, true, false},
};

// fmt S, rd = 3, rs1 = 1, rs2 = 2 (unless fixed), rs3 = 4
uint32_t word(const OpDesc& o, unsigned rm) {
  unsigned f3 = o.f3 < 0 ? rm : (unsigned)o.f3;
  unsigned rs2 = o.rs2 < 0 ? 2u : (unsigned)o.rs2;
  unsigned top = (o.opc == GC_FP_OPC_OP_FP) ? o.f5 : 4u;
  return (top << 27) | ((unsigned)GC_FP_FMT_S << 25) | (rs2 << 20) | (1u << 15) | (f3 << 12) | (3u << 7) | o.opc;
}

struct Vec {
  unsigned rm;
  uint32_t a, b, c, r, fl;
};

std::unique_ptr<VerilatedContext> g_ctx;
std::unique_ptr<Vfpu_tb_top> g_top;
uint64_t g_pass, g_fail;

void tick() {
  Vfpu_tb_top* t = g_top.get();
  t->clk_i = 0;
  t->eval();
  t->clk_i = 1;
  t->eval();
}

bool check(bool ok, const char* what, const char* fmt, ...) __attribute__((format(printf, 3, 4)));
bool check(bool ok, const char* what, const char* fmt, ...) {
  if (ok) {
    g_pass++;
    return true;
  }
  if (g_fail++ < 40) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "FAILED %s: ", what);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
  }
  return false;
}

void set_lanes(const Vec* v, int n) {
  Vfpu_tb_top* t = g_top.get();
  for (int l = 0; l < NL; l++) {
    const Vec& x = v[l < n ? l : 0];
    t->a_i[l] = x.a;
    t->b_i[l] = x.b;
    t->c_i[l] = x.c;
  }
  t->rm_i = 0;
  for (int l = 0; l < NL; l++) t->rm_i |= (uint32_t)(v[l < n ? l : 0].rm & 7) << (3 * l);
}

// compare lanes of one instruction; returns mismatches
unsigned compare(const OpDesc& o, const Vec* v, int n, bool ds) {
  Vfpu_tb_top* t = g_top.get();
  unsigned bad = 0;
  for (int l = 0; l < n; l++) {
    uint32_t r = ds ? t->ds_data_o[l] : t->fpu_data_o[l];
    uint32_t fl = ds ? ((t->ds_flags_o >> (5 * l)) & 31) : ((t->fpu_flags_o >> (5 * l)) & 31);
    if (!check(r == v[l].r && fl == v[l].fl, o.name,
               "rm %u a %08x b %08x c %08x: got %08x flags %02x, want %08x flags %02x", v[l].rm, v[l].a,
               v[l].b, v[l].c, r, fl, v[l].r, v[l].fl))
      bad++;
  }
  return bad;
}

void run_op(const OpDesc& o, const std::vector<Vec>& vs, std::map<std::string, std::pair<unsigned, unsigned>>& sum) {
  Vfpu_tb_top* t = g_top.get();
  unsigned bad = 0;
  if (o.ds) {
    for (size_t i = 0; i < vs.size(); i += NL) {
      int n = (int)std::min<size_t>(NL, vs.size() - i);
      unsigned wait = 0;
      while (!t->ds_ready_o && wait++ < 100) tick();
      set_lanes(&vs[i], n);
      t->instr_i = word(o, vs[i].rm);
      t->in_valid_i = 1;
      tick();
      t->in_valid_i = 0;
      unsigned lat = 1;
      while (!t->ds_valid_o && lat < 200) {
        tick();
        lat++;
      }
      if (!check(t->ds_valid_o, o.name, "no answer within 200 cycles")) return;
      bad += compare(o, &vs[i], n, true);
    }
  } else {
    struct Inflight {
      size_t i;
      int n;
      unsigned cyc;
    };
    std::deque<Inflight> q;
    unsigned cyc = 0;
    size_t i = 0;
    while (i < vs.size() || !q.empty()) {
      if (i < vs.size()) {
        int n = (int)std::min<size_t>(NL, vs.size() - i);
        set_lanes(&vs[i], n);
        t->instr_i = word(o, vs[i].rm);
        t->in_valid_i = 1;
        q.push_back({i, n, cyc});
        i += NL;
      } else {
        t->in_valid_i = 0;
      }
      tick();
      cyc++;
      if (t->fpu_valid_o) {
        if (!check(!q.empty(), o.name, "write back with nothing in flight")) return;
        Inflight f = q.front();
        q.pop_front();
        check(cyc - f.cyc == 3, o.name, "latency %u cycles, want 3", cyc - f.cyc);
        check(t->fpu_rd_o == 3 && t->fpu_rd_fp_o == (o.rd_fp ? 1 : 0), o.name, "rd %u fp %u", t->fpu_rd_o,
              t->fpu_rd_fp_o);
        bad += compare(o, &vs[f.i], f.n, false);
      } else if (!q.empty() && cyc - q.front().cyc > 3) {
        check(false, o.name, "no write back 3 cycles after the request");
        return;
      }
    }
    t->in_valid_i = 0;
  }
  sum[o.name] = {(unsigned)vs.size() - bad, bad};
}

void test_decode() {
  Vfpu_tb_top* t = g_top.get();
  for (const OpDesc& o : OPS) {
    t->instr_i = word(o, 0);
    t->eval();
    check(t->dec_legal_o == 1, "decode", "%s %08x not legal", o.name, word(o, 0));
    check(t->dec_rd_fp_o == (o.rd_fp ? 1 : 0), "decode", "%s rd file", o.name);
    check(t->dec_rounds_o == (o.f3 < 0 ? 1 : 0), "decode", "%s rounds", o.name);
    // fmt D (1), H (2), Q (3) are not implemented
    for (unsigned fmt = 1; fmt < 4; fmt++) {
      t->instr_i = (word(o, 0) & ~(3u << 25)) | (fmt << 25);
      t->eval();
      check(t->dec_legal_o == 0, "decode", "%s with fmt %u is legal", o.name, fmt);
    }
    if (o.opc == GC_FP_OPC_OP_FP && o.f3 >= 0) {   // the funct3 values no instruction of this funct5 uses
      for (unsigned f3 = 0; f3 < 8; f3++) {
        bool used = false;
        for (const OpDesc& p : OPS)
          if (p.opc == o.opc && p.f5 == o.f5 && p.f3 == (int)f3 && (p.rs2 == o.rs2)) used = true;
        t->instr_i = (word(o, 0) & ~(7u << 12)) | (f3 << 12);
        t->eval();
        check(t->dec_legal_o == (used ? 1 : 0), "decode", "%s with funct3 %u: legal %u", o.name, f3, t->dec_legal_o);
      }
    }
    if (o.rs2 >= 0) {                               // rs2 selects: the next value is reserved
      bool used = false;
      for (const OpDesc& p : OPS)
        if (p.opc == o.opc && p.f5 == o.f5 && p.rs2 == o.rs2 + 1 && (p.f3 == o.f3)) used = true;
      t->instr_i = (word(o, 0) & ~(31u << 20)) | ((unsigned)(o.rs2 + 1) << 20);
      t->eval();
      check(t->dec_legal_o == (used ? 1 : 0), "decode", "%s with rs2 %d: legal %u", o.name, o.rs2 + 1, t->dec_legal_o);
    }
  }
  // unassigned funct5 values of OP-FP
  for (unsigned f5 = 0; f5 < 32; f5++) {
    bool used = false;
    for (const OpDesc& p : OPS)
      if (p.opc == GC_FP_OPC_OP_FP && p.f5 == f5) used = true;
    if (used) continue;
    t->instr_i = (f5 << 27) | (1u << 15) | (3u << 7) | GC_FP_OPC_OP_FP;
    t->eval();
    check(t->dec_legal_o == 0, "decode", "OP-FP funct5 %#x is legal", f5);
  }
  // FLW / FSW: width W only (FLH, FLD, FLQ are not implemented)
  for (unsigned f3 = 0; f3 < 8; f3++) {
    t->instr_i = (f3 << 12) | (1u << 15) | (3u << 7) | GC_FP_OPC_LOAD_FP;
    t->eval();
    check(t->dec_legal_o == (f3 == GC_FP_WIDTH_W ? 1 : 0), "decode", "LOAD-FP funct3 %u legal %u", f3, t->dec_legal_o);
    t->instr_i = (f3 << 12) | (1u << 15) | (2u << 20) | GC_FP_OPC_STORE_FP;
    t->eval();
    check(t->dec_legal_o == (f3 == GC_FP_WIDTH_W ? 1 : 0), "decode", "STORE-FP funct3 %u legal %u", f3, t->dec_legal_o);
  }
}

}  // namespace

int main(int argc, char** argv) {
  const char* path = FPU_VECTORS;
  unsigned min_per_op = 10000;
  for (int i = 1; i < argc; i++) {
    if (!strncmp(argv[i], "+vectors=", 9)) path = argv[i] + 9;
    else if (!strncmp(argv[i], "+min=", 5)) min_per_op = (unsigned)strtoul(argv[i] + 5, nullptr, 0);
  }
  FILE* f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "fpu_tb: cannot open the vector file %s (make builds it with scripts/gen_fp_vectors.py)\n", path);
    return 1;
  }
  std::map<std::string, std::vector<Vec>> by_op;
  char name[32];
  Vec v;
  unsigned line = 0;
  int n;
  while ((n = fscanf(f, "%31s %x %x %x %x %x %x", name, &v.rm, &v.a, &v.b, &v.c, &v.r, &v.fl)) == 7) {
    line++;
    by_op[name].push_back(v);
  }
  if (n != EOF) {
    fprintf(stderr, "fpu_tb: %s: line %u is not 'OP RM A B C RESULT FLAGS'\n", path, line + 1);
    return 1;
  }
  fclose(f);

  g_ctx = std::make_unique<VerilatedContext>();
  g_ctx->commandArgs(argc, argv);
  g_top = std::make_unique<Vfpu_tb_top>(g_ctx.get());
  Vfpu_tb_top* t = g_top.get();
  t->rst_ni = 0;
  t->in_valid_i = 0;
  tick();
  t->rst_ni = 1;
  tick();

  test_decode();
  std::map<std::string, std::pair<unsigned, unsigned>> sum;
  for (const OpDesc& o : OPS) {
    auto it = by_op.find(o.name);
    size_t have = it == by_op.end() ? 0 : it->second.size();
    check(have >= min_per_op, "vectors", "%s: %zu vectors in %s, want at least %u", o.name, have, path, min_per_op);
    if (have) run_op(o, it->second, sum);
  }
  for (auto& kv : by_op) {
    bool known = false;
    for (const OpDesc& o : OPS) known |= kv.first == o.name;
    check(known, "vectors", "unknown operation %s in %s", kv.first.c_str(), path);
  }
  printf("fpu_tb: %s\n", path);
  for (auto& kv : sum) printf("  %-10s %6u vectors passed, %u failed\n", kv.first.c_str(), kv.second.first, kv.second.second);
  printf("%" PRIu64 " passed, %" PRIu64 " failed\n", g_pass, g_fail);
  t->final();
  gc_cov_write(g_ctx.get(), "fpu");
  return g_fail ? 1 : 0;
}
