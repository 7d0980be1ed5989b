// axi_check_tb.cpp: the AXI4 protocol checker (rtl/gc_axi_check.sv, Verilated alone as the top,
// IW = 2, MAX_LEN = 16) against legal traffic and against each rule broken once.  A legal case
// must run through; a broken rule must stop the simulation with the assertion that names it.
// Each case runs its stimulus in a child process (a failed assertion aborts the process) and the
// parent checks the child's exit and its output: "assertion <rule> failed at cycle <n>".
// Same interface as the C tests (tests/common/tcase.h): --list, or case names.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <string>

#include "Vgc_axi_check.h"
#include "verilated.h"
#include "../common/tcase.h"

namespace {

std::unique_ptr<VerilatedContext> g_ctx;
std::unique_ptr<Vgc_axi_check> g_t;

void tick() {
    g_t->clk_i = 0;
    g_t->eval();
    g_t->clk_i = 1;
    g_t->eval();
}

void quiet() {
    Vgc_axi_check &t = *g_t;
    t.awvalid_i = t.wvalid_i = t.bvalid_i = t.arvalid_i = t.rvalid_i = 0;
    t.awready_i = t.wready_i = t.bready_i = t.arready_i = t.rready_i = 1;
    t.awsize_i = t.arsize_i = 3;
    t.awburst_i = t.arburst_i = 1;
}

void start() {
    g_ctx = std::make_unique<VerilatedContext>();
    g_t = std::make_unique<Vgc_axi_check>(g_ctx.get());
    quiet();
    g_t->rst_ni = 0;
    tick();
    tick();
    g_t->rst_ni = 1;
    tick();
}

// One beat of each channel, accepted at the next edge (ready high), then the channel idles.
void aw(unsigned id, uint64_t addr, unsigned len, unsigned burst = 1) {
    g_t->awvalid_i = 1, g_t->awid_i = id, g_t->awaddr_i = addr, g_t->awlen_i = len, g_t->awburst_i = burst;
    tick();
    quiet();
}
void ar(unsigned id, uint64_t addr, unsigned len, unsigned burst = 1) {
    g_t->arvalid_i = 1, g_t->arid_i = id, g_t->araddr_i = addr, g_t->arlen_i = len, g_t->arburst_i = burst;
    tick();
    quiet();
}
void w(bool last, uint64_t data = 0) {
    g_t->wvalid_i = 1, g_t->wlast_i = last, g_t->wdata_i = data, g_t->wstrb_i = 0xFF;
    tick();
    quiet();
}
void wburst(unsigned beats) {
    for (unsigned i = 0; i < beats; i++) w(i + 1 == beats, i);
}
void b(unsigned id) {
    g_t->bvalid_i = 1, g_t->bid_i = id, g_t->bresp_i = 0;
    tick();
    quiet();
}
void r(unsigned id, bool last) {
    g_t->rvalid_i = 1, g_t->rid_i = id, g_t->rlast_i = last, g_t->rdata_i = 0x1234;
    tick();
    quiet();
}
void rburst(unsigned id, unsigned beats) {
    for (unsigned i = 0; i < beats; i++) r(id, i + 1 == beats);
}

// Legal traffic: every rule's corner on the right side of the line.
void legal() {
    // writes: W after AW, W before AW, two IDs, B in another order than AW (different IDs)
    aw(0, 0x1000, 3);
    wburst(4);
    wburst(2);               // its AW comes after the data
    aw(1, 0x2000, 1);
    b(1);
    b(0);
    // a 16-beat INCR burst ending exactly at a 4 KiB boundary; a WRAP of 4 beats
    aw(2, 0x3F80, 15);
    wburst(16);
    b(2);
    aw(3, 0x5020, 3, 2);
    wburst(4);
    b(3);
    // B in the cycle after WLAST (the pairing and the answer in one edge)
    aw(0, 0x6000, 0);
    w(true);
    b(0);
    // reads: two outstanding on one ID answered in order, another ID interleaved
    ar(0, 0x1000, 1);
    ar(0, 0x2000, 0);
    ar(1, 0x3000, 2);
    r(1, false);
    r(0, false);
    r(0, true);
    r(1, false);
    rburst(0, 1);
    r(1, true);
    // valid held with a stable payload while ready is low, then accepted
    g_t->arvalid_i = 1, g_t->arid_i = 2, g_t->araddr_i = 0x7000, g_t->arlen_i = 0, g_t->arready_i = 0;
    for (int i = 0; i < 5; i++) tick();
    g_t->arready_i = 1;
    tick();
    quiet();
    g_t->rvalid_i = 1, g_t->rid_i = 2, g_t->rlast_i = 1, g_t->rready_i = 0;
    for (int i = 0; i < 3; i++) tick();
    g_t->rready_i = 1;
    tick();
    quiet();
    for (int i = 0; i < 5; i++) tick();
}

struct Broken {
    const char *name, *rule;
    std::function<void()> stim;
};

const Broken kBroken[] = {
    {"aw_valid_dropped", "aw_held", [] {
         g_t->awvalid_i = 1, g_t->awaddr_i = 0x1000, g_t->awready_i = 0;
         tick();
         g_t->awvalid_i = 0;
         tick();
     }},
    {"w_payload_changed", "w_stable", [] {
         g_t->wvalid_i = 1, g_t->wdata_i = 1, g_t->wlast_i = 1, g_t->wready_i = 0;
         tick();
         g_t->wdata_i = 2;
         tick();
     }},
    {"b_valid_dropped", "b_held", [] {
         aw(0, 0x1000, 0);
         w(true);
         g_t->bvalid_i = 1, g_t->bready_i = 0;
         tick();
         g_t->bvalid_i = 0;
         tick();
     }},
    {"r_payload_changed", "r_stable", [] {
         ar(0, 0x1000, 0);
         g_t->rvalid_i = 1, g_t->rlast_i = 1, g_t->rdata_i = 5, g_t->rready_i = 0;
         tick();
         g_t->rdata_i = 6;
         tick();
     }},
    {"ar_crosses_4k", "ar_burst", [] { ar(0, 0x1FC0, 15); tick(); }},
    {"aw_wrap_of_3", "aw_burst", [] { aw(0, 0x1000, 2, 2); tick(); }},
    {"aw_reserved_burst", "aw_burst", [] { aw(0, 0x1000, 0, 3); tick(); }},
    {"ar_too_long", "ar_len", [] { ar(0, 0x1000, 16); tick(); }},
    {"aw_size_too_wide", "aw_size", [] { g_t->awsize_i = 4; aw(0, 0x1000, 0); tick(); }},
    {"wlast_early", "w_last", [] { aw(0, 0x1000, 3); w(false); w(true); tick(); }},
    {"wlast_missing", "w_last", [] { aw(0, 0x1000, 1); w(false); w(false); tick(); }},
    {"w_before_aw_wrong_count", "w_early", [] { wburst(3); aw(0, 0x1000, 1); tick(); }},
    {"b_without_write", "b_id", [] { b(0); tick(); }},
    {"b_before_wlast", "b_id", [] { aw(1, 0x1000, 1); w(false); b(1); tick(); }},
    {"b_wrong_id", "b_id", [] { aw(1, 0x1000, 0); w(true); b(2); tick(); }},
    {"r_without_read", "r_id", [] { r(3, true); tick(); }},
    {"rlast_early", "r_last", [] { ar(0, 0x1000, 2); r(0, false); r(0, true); tick(); }},
    {"rlast_missing", "r_last", [] { ar(0, 0x1000, 0); r(0, false); tick(); }},
};

// Runs fn in a child; returns its exit status (-1: killed by a signal) and its output.
int in_child(const std::function<void()> &fn, std::string &out) {
    int fd[2];
    if (pipe(fd) != 0) return -2;
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fd[1], 1);
        dup2(fd[1], 2);
        close(fd[0]);
        setvbuf(stdout, nullptr, _IONBF, 0);   // a failed assertion aborts: nothing may stay buffered
        start();
        fn();
        g_t->final();
        std::fflush(stdout);
        _exit(0);
    }
    close(fd[1]);
    char buf[4096];
    ssize_t n;
    while ((n = read(fd[0], buf, sizeof buf)) > 0) out.append(buf, (size_t)n);
    close(fd[0]);
    int st = 0;
    waitpid(pid, &st, 0);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

void case_legal() {
    std::string out;
    int st = in_child(legal, out);
    if (st != 0) TCASE_FAIL_("legal traffic stopped the checker (status %d):\n%s", st, out.c_str());
}

void run_broken(const Broken &k) {
    std::string out;
    int st = in_child(k.stim, out);
    std::string want = std::string("assertion ") + k.rule + " failed at cycle ";
    if (st == 0) TCASE_FAIL_("%s: the checker let it pass", k.name);
    else if (out.find(want) == std::string::npos || out.find("gc_axi_check") == std::string::npos)
        TCASE_FAIL_("%s: stopped (status %d) without naming '%s':\n%s", k.name, st, want.c_str(), out.c_str());
    // exactly one rule fired (the first violation stops the run)
    else if (out.find("assertion ", out.find(want) + want.size()) != std::string::npos)
        TCASE_FAIL_("%s: more than one assertion:\n%s", k.name, out.c_str());
}

}  // namespace

#define BROKEN(i) [] { run_broken(kBroken[i]); }
static const tcase_t kCases[] = {
    {"axi_legal", case_legal},
    {"axi_aw_valid_dropped", BROKEN(0)}, {"axi_w_payload_changed", BROKEN(1)}, {"axi_b_valid_dropped", BROKEN(2)},
    {"axi_r_payload_changed", BROKEN(3)}, {"axi_ar_crosses_4k", BROKEN(4)}, {"axi_aw_wrap_of_3", BROKEN(5)},
    {"axi_aw_reserved_burst", BROKEN(6)}, {"axi_ar_too_long", BROKEN(7)}, {"axi_aw_size_too_wide", BROKEN(8)},
    {"axi_wlast_early", BROKEN(9)}, {"axi_wlast_missing", BROKEN(10)}, {"axi_w_before_aw_wrong_count", BROKEN(11)},
    {"axi_b_without_write", BROKEN(12)}, {"axi_b_before_wlast", BROKEN(13)}, {"axi_b_wrong_id", BROKEN(14)},
    {"axi_r_without_read", BROKEN(15)}, {"axi_rlast_early", BROKEN(16)}, {"axi_rlast_missing", BROKEN(17)},
};

int main(int argc, char **argv) {
    static_assert(sizeof kCases / sizeof kCases[0] == 1 + sizeof kBroken / sizeof kBroken[0], "a case per rule");
    return tcase_main(argc, argv, kCases, sizeof kCases / sizeof kCases[0]);
}
