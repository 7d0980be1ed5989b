// gc_assert.svh: the one assertion macro file of gpucosim (lowRISC prim_assert / PULP
// common_cells style). Every RTL checker uses these macros and nothing else, so that assertions
// behave the same in every build: Verilator ignores SVA `assert property` unless run with
// --assert, so the macros expand to plain clocked checks that are active in every bench, the
// cosim and sc builds and the cocotb build alike. Define GC_ASSERT_OFF to compile them out.
//
// A failed assertion calls $error with the module instance (%m), the assertion's name, the
// signal it concerns and the clock cycle (counted from the end of reset by GC_ASSERT_CYCLE);
// the simulation then stops (Verilator aborts the process), so no test can pass over it.
//
//   `GC_ASSERT_CYCLE(clk, rst_n)                   declares gc_assert_cyc_q, the cycle counter
//   `GC_ASSERT(name, cond, clk, rst_n, what)        cond holds at every rising clk edge out of reset
//   `GC_ASSERT_IF(name, guard, cond, clk, rst_n, what)
//                                                   cond holds at every such edge at which guard holds
//   `GC_ASSERT_STABLE(name, vld, rdy, sig, clk, rst_n)
//                                                   valid held until ready, and sig (the payload)
//                                                   stable while valid waits for ready
`ifndef GC_ASSERT_SVH
`define GC_ASSERT_SVH

`ifndef GC_ASSERT_OFF

`define GC_ASSERT_CYCLE(__clk, __rst_n)                                                      \
  logic [63:0] gc_assert_cyc_q;                                                              \
  always_ff @(posedge __clk or negedge __rst_n) begin                                        \
    if (!__rst_n) gc_assert_cyc_q <= '0;                                                     \
    else          gc_assert_cyc_q <= gc_assert_cyc_q + 64'd1;                                \
  end

`define GC_ASSERT(__name, __cond, __clk, __rst_n, __what)                                    \
  always_ff @(posedge __clk or negedge __rst_n) begin                                        \
    if (!__rst_n) begin                                                                      \
    end else if (!(__cond)) begin                                                            \
      $error("%m: assertion %s failed at cycle %0d: %s", `"__name`", gc_assert_cyc_q, __what); \
    end                                                                                      \
  end

// As GC_ASSERT, checked only in cycles in which guard holds: Verilator inlines a function called
// in cond as statements before the check, so a check that only applies to a handshake keeps the
// function's work out of every other cycle.
`define GC_ASSERT_IF(__name, __guard, __cond, __clk, __rst_n, __what)                       \
  always_ff @(posedge __clk or negedge __rst_n) begin                                        \
    if (!__rst_n) begin                                                                      \
    end else if (__guard) begin                                                              \
      if (!(__cond)) begin                                                                   \
        $error("%m: assertion %s failed at cycle %0d: %s", `"__name`", gc_assert_cyc_q, __what); \
      end                                                                                    \
    end                                                                                      \
  end

// The AXI handshake rules for one channel: once vld is high it stays high until rdy, and the
// payload sig does not change meanwhile (AMBA AXI, A3.2.1). Keeps its own previous values.
`define GC_ASSERT_STABLE(__name, __vld, __rdy, __sig, __clk, __rst_n)                        \
  logic __name``_wait_q;                                                                     \
  logic [$bits(__sig)-1:0] __name``_sig_q;                                                   \
  always_ff @(posedge __clk or negedge __rst_n) begin                                        \
    if (!__rst_n) begin                                                                      \
      __name``_wait_q <= 1'b0;                                                               \
      __name``_sig_q  <= '0;                                                                 \
    end else begin                                                                           \
      __name``_wait_q <= __vld && !__rdy;                                                    \
      if (__vld && !__rdy) __name``_sig_q <= __sig;  /* read only after such a cycle */       \
    end                                                                                      \
  end                                                                                        \
  `GC_ASSERT(__name``_held, !__name``_wait_q || __vld, __clk, __rst_n,                       \
             `"__vld dropped before __rdy (valid must be held until ready)`")               \
  `GC_ASSERT(__name``_stable, !__name``_wait_q || !__vld || __sig == __name``_sig_q,          \
             __clk, __rst_n, `"__sig changed while __vld waited for __rdy`")

`else

`define GC_ASSERT_CYCLE(__clk, __rst_n)
`define GC_ASSERT(__name, __cond, __clk, __rst_n, __what)
`define GC_ASSERT_IF(__name, __guard, __cond, __clk, __rst_n, __what)
`define GC_ASSERT_STABLE(__name, __vld, __rdy, __sig, __clk, __rst_n)

`endif
`endif
