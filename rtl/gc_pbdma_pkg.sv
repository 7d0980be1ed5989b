// gc_pbdma_pkg: the types, constants and helpers shared by the parts of gc_pbdma (the host
// scheduler gc_pbdma_sched, the context store gc_pbdma_ctx, the fetch unit gc_pbdma_fetch, the
// method decoder gc_pbdma_dec, the semaphore unit gc_pbdma_sem and the engine dispatch
// gc_pbdma_eng). Project-internal encodings only; every device encoding comes from gpucosim_pkg.
package gc_pbdma_pkg;
  import gpucosim_pkg::*;

  localparam int unsigned NCH    = GC_NUM_CHANNELS;
  localparam int unsigned CH_W   = $clog2(NCH);
  localparam int unsigned AW     = GC_AXI_ADDR_W;
  localparam int unsigned MA_W   = GC_METHOD_HEADER_ADDRESS_W;
  localparam int unsigned SC_W   = GC_METHOD_HEADER_SUBCHANNEL_W;
  localparam int unsigned CNT_W  = GC_METHOD_HEADER_COUNT_W;
  localparam int unsigned NSUBCH = 1 << SC_W;
  localparam int unsigned LEN_W  = GC_GP_ENTRY1_LENGTH_W;   // segment length in dwords
  localparam int unsigned HI_W   = AW - 32;                 // address bits above 31
  localparam int unsigned TS_W   = 64;                      // cycle timestamps (never wrap)
  // A GPFIFO index (GP_GET): < 2^GPFIFO_LOG2_MAX, the largest ring (a channel whose GPFIFO_SIZE
  // is larger faults BAD_RING before it runs), so the index carries that many bits; registers and
  // fault records zero-extend it to 32
  localparam int unsigned GPI_W  = GC_GPFIFO_LOG2_MAX;

  // Switch causes (sw_cause_o bit index; mirrored in gc_mmio_regs)
  localparam int unsigned SW_TIMESLICE = 0;
  localparam int unsigned SW_ACQUIRE   = 1;
  localparam int unsigned SW_ENGINE    = 2;
  localparam int unsigned SW_EMPTY     = 3;

  // Object bound to a subchannel by SET_OBJECT
  typedef enum logic [1:0] {
    OBJ_NONE    = 2'd0,
    OBJ_COPY    = 2'd1,
    OBJ_COMPUTE = 2'd2
  } obj_e;

  // Per-channel method-register file slots (host semaphore and copy-class state)
  typedef enum logic [4:0] {
    MR_SEM_ADDR_LO   = 5'd0,
    MR_SEM_ADDR_HI   = 5'd1,
    MR_SEM_PAY_LO    = 5'd2,
    MR_SEM_PAY_HI    = 5'd3,
    MR_OFS_IN_UPPER  = 5'd4,
    MR_OFS_IN_LOWER  = 5'd5,
    MR_OFS_OUT_UPPER = 5'd6,
    MR_OFS_OUT_LOWER = 5'd7,
    MR_PITCH_IN      = 5'd8,
    MR_PITCH_OUT     = 5'd9,
    MR_LINE_LEN      = 5'd10,
    MR_LINE_COUNT    = 5'd11,
    MR_CE_SEM_A      = 5'd12,
    MR_CE_SEM_B      = 5'd13,
    MR_CE_SEM_PAY    = 5'd14,
    MR_REMAP_A       = 5'd15,
    MR_REMAP_B       = 5'd16,
    MR_REMAP_COMP    = 5'd17,
    MR_PCAS_A        = 5'd18
  } mreg_e;
  localparam int unsigned NMREG = 19;

  // Per-channel method decoder context
  typedef struct packed {
    logic [GC_METHOD_HEADER_SEC_OP_W-1:0] sec_op;
    logic [MA_W-1:0]                      addr;
    logic [SC_W-1:0]                      subch;
    logic [CNT_W-1:0]                     count;   // data dwords still to come
  } dec_ctx_t;

  // A method as a fault record names it (CHANNEL.ERROR_METHOD's fields: the subchannel and the
  // dword address; the register's other bits are always 0): only these bits travel to
  // gc_mmio_regs, which lays them out in the register
  typedef struct packed {
    logic [SC_W-1:0] subch;
    logic [MA_W-1:0] addr;
  } mref_t;

  // The fault record's method: subchannel and dword address
  function automatic mref_t err_method(input logic [SC_W-1:0] sc, input logic [MA_W-1:0] a);
    return '{subch: sc, addr: a};
  endfunction

  // AXI RRESP: SLVERR (2) or DECERR (3) is a bus error
  function automatic logic resp_err(input logic [1:0] r);
    return (r == 2'b10) || (r == 2'b11);
  endfunction

  // TIMESLICE / ACQ_RETRY_INTERVAL: 0 counts as 1
  function automatic logic [31:0] at_least_1(input logic [31:0] v);
    return (v == '0) ? 32'd1 : v;
  endfunction

  // Cycles from timestamp t0 to now, saturating at 2^32 - 1 (the width of the registers it is
  // compared with): a timer kept as the cycle it started, compared only when asked.
  function automatic logic [31:0] since(input logic [TS_W-1:0] now, input logic [TS_W-1:0] t0);
    logic [TS_W-1:0] d;
    d = now - t0;
    return (d > TS_W'(32'hFFFF_FFFF)) ? 32'hFFFF_FFFF : d[31:0];
  endfunction

  // GPFIFO entry address of a channel: entry idx of the ring at base of 2^l2 entries
  function automatic logic [AW-1:0] gp_addr(input logic [AW-1:0] base,
                                            input logic [GC_CHANNEL_GPFIFO_SIZE_LOG2_W-1:0] l2,
                                            input logic [31:0] idx);
    logic [31:0] m;
    m = ~(32'hFFFF_FFFF << l2);
    return base + {(AW - 32 - 3)'(0), idx & m, 3'b000};
  endfunction

  // One-hot of the lowest set bit, and the index of that bit (NCH if none)
  function automatic logic [CH_W-1:0] first_set(input logic [NCH-1:0] v);
    logic [NCH-1:0] oh;
    oh = v & (~v + NCH'(1));
    return CH_W'($countones(oh - NCH'(1)));
  endfunction

  // Channels above / at or below index p
  function automatic logic [NCH-1:0] above(input logic [CH_W-1:0] p);
    return ~((NCH'(2) << p) - NCH'(1));
  endfunction
endpackage
