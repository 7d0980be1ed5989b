// gc_simt_pkg: what the SIMT core's modules share that is not a device encoding.
//
//  * RV32IMA encodings (opcodes, funct3 / funct7 / AMO funct5 values).  These are the ratified
//    RISC-V encodings (The RISC-V Instruction Set Manual, Volume I: RV32I, "M", "A"), not project
//    choices, so they live here and not in spec/gpucosim.yaml.  The project's own ISA additions
//    (custom instructions, CSR numbers, address windows) are in the spec (simt:) and come from
//    gpucosim_pkg.
//  * Project-internal interface types between the compute front, the SMs and their units:
//    the CTA launch descriptor, load/store unit request kinds, memory spaces.
//  * Small pure helpers: AMO funct5 -> atomic-unit reduction, load data extraction.
package gc_simt_pkg;
  import gpucosim_pkg::*;
  import gc_sem_pkg::*;

  // ---- RV32 base opcodes (instr[6:0])
  localparam logic [6:0] OPC_LOAD     = 7'h03;
  localparam logic [6:0] OPC_MISC_MEM = 7'h0F;
  localparam logic [6:0] OPC_OP_IMM   = 7'h13;
  localparam logic [6:0] OPC_AUIPC    = 7'h17;
  localparam logic [6:0] OPC_STORE    = 7'h23;
  localparam logic [6:0] OPC_AMO      = 7'h2F;
  localparam logic [6:0] OPC_OP       = 7'h33;
  localparam logic [6:0] OPC_LUI      = 7'h37;
  localparam logic [6:0] OPC_BRANCH   = 7'h63;
  localparam logic [6:0] OPC_JALR     = 7'h67;
  localparam logic [6:0] OPC_JAL      = 7'h6F;
  localparam logic [6:0] OPC_SYSTEM   = 7'h73;

  // ---- funct3 of OP / OP-IMM
  localparam logic [2:0] F3_ADD  = 3'd0;   // ADD/SUB, MUL
  localparam logic [2:0] F3_SLL  = 3'd1;   // MULH
  localparam logic [2:0] F3_SLT  = 3'd2;   // MULHSU
  localparam logic [2:0] F3_SLTU = 3'd3;   // MULHU
  localparam logic [2:0] F3_XOR  = 3'd4;   // DIV
  localparam logic [2:0] F3_SR   = 3'd5;   // SRL/SRA, DIVU
  localparam logic [2:0] F3_OR   = 3'd6;   // REM
  localparam logic [2:0] F3_AND  = 3'd7;   // REMU
  localparam logic [6:0] F7_BASE = 7'h00;
  localparam logic [6:0] F7_ALT  = 7'h20;  // SUB, SRA(I)
  localparam logic [6:0] F7_MULDIV = 7'h01;

  // ---- funct3 of BRANCH
  localparam logic [2:0] F3_BEQ  = 3'd0;
  localparam logic [2:0] F3_BNE  = 3'd1;
  localparam logic [2:0] F3_BLT  = 3'd4;
  localparam logic [2:0] F3_BGE  = 3'd5;
  localparam logic [2:0] F3_BLTU = 3'd6;
  localparam logic [2:0] F3_BGEU = 3'd7;

  // ---- funct3 of LOAD / STORE (bits 1:0 = log2 size, bit 2 = unsigned load)
  localparam logic [2:0] F3_B  = 3'd0;
  localparam logic [2:0] F3_H  = 3'd1;
  localparam logic [2:0] F3_W  = 3'd2;
  localparam logic [2:0] F3_BU = 3'd4;
  localparam logic [2:0] F3_HU = 3'd5;

  // ---- SYSTEM funct3 (0 = ECALL / EBREAK by imm, 1..3 CSRRW/S/C, 5..7 CSRRWI/SI/CI)
  localparam logic [2:0] F3_PRIV   = 3'd0;
  localparam logic [2:0] F3_CSRRW  = 3'd1;
  localparam logic [2:0] F3_CSRRS  = 3'd2;
  localparam logic [2:0] F3_CSRRC  = 3'd3;
  localparam logic [2:0] F3_CSRRWI = 3'd5;
  localparam logic [2:0] F3_CSRRSI = 3'd6;
  localparam logic [2:0] F3_CSRRCI = 3'd7;
  localparam logic [11:0] IMM_ECALL  = 12'h000;
  localparam logic [11:0] IMM_EBREAK = 12'h001;

  // ---- MISC-MEM funct3
  localparam logic [2:0] F3_FENCE = 3'd0;

  // ---- "A": funct3 .W, funct5 (instr[31:27])
  localparam logic [2:0] F3_AMO_W   = 3'd2;
  localparam logic [4:0] AMO_ADD  = 5'b00000;
  localparam logic [4:0] AMO_SWAP = 5'b00001;
  localparam logic [4:0] AMO_LR   = 5'b00010;
  localparam logic [4:0] AMO_SC   = 5'b00011;
  localparam logic [4:0] AMO_XOR  = 5'b00100;
  localparam logic [4:0] AMO_OR   = 5'b01000;
  localparam logic [4:0] AMO_AND  = 5'b01100;
  localparam logic [4:0] AMO_MIN  = 5'b10000;
  localparam logic [4:0] AMO_MAX  = 5'b10100;
  localparam logic [4:0] AMO_MINU = 5'b11000;
  localparam logic [4:0] AMO_MAXU = 5'b11100;

  function automatic logic amo_f5_ok(input logic [4:0] f5);
    return f5 inside {AMO_ADD, AMO_SWAP, AMO_LR, AMO_SC, AMO_XOR, AMO_OR, AMO_AND,
                      AMO_MIN, AMO_MAX, AMO_MINU, AMO_MAXU};
  endfunction

  // AMO funct5 -> the atomic unit's request: a reduction of gc_sem_pkg (with REDUCTION_FORMAT
  // signed for AMOMIN / AMOMAX), or the unit's extended SWAP operation for AMOSWAP.
  function automatic sem_red_t amo_red(input logic [4:0] f5);
    sem_red_t r;
    unique case (f5)
      AMO_XOR:           r = GC_HOST_SEM_EXECUTE_REDUCTION_IXOR;
      AMO_OR:            r = GC_HOST_SEM_EXECUTE_REDUCTION_IOR;
      AMO_AND:           r = GC_HOST_SEM_EXECUTE_REDUCTION_IAND;
      AMO_MIN, AMO_MINU: r = GC_HOST_SEM_EXECUTE_REDUCTION_IMIN;
      AMO_MAX, AMO_MAXU: r = GC_HOST_SEM_EXECUTE_REDUCTION_IMAX;
      default:           r = GC_HOST_SEM_EXECUTE_REDUCTION_IADD;
    endcase
    return r;
  endfunction
  function automatic logic amo_signed(input logic [4:0] f5);
    return (f5 == AMO_MIN) || (f5 == AMO_MAX);
  endfunction

  // The value an AMO leaves in memory (on-chip shared / local memory; global AMOs are computed
  // by the atomic unit with the same definitions)
  function automatic logic [31:0] amo_compute(input logic [4:0] f5, input logic [31:0] mem,
                                              input logic [31:0] opnd);
    logic [31:0] r;
    unique case (f5)
      AMO_ADD:  r = mem + opnd;
      AMO_XOR:  r = mem ^ opnd;
      AMO_OR:   r = mem | opnd;
      AMO_AND:  r = mem & opnd;
      AMO_MIN:  r = ($signed(mem) < $signed(opnd)) ? mem : opnd;
      AMO_MAX:  r = ($signed(mem) < $signed(opnd)) ? opnd : mem;
      AMO_MINU: r = (mem < opnd) ? mem : opnd;
      AMO_MAXU: r = (mem < opnd) ? opnd : mem;
      default:  r = opnd;   // AMOSWAP
    endcase
    return r;
  endfunction

  // ---- Load / store unit request kinds and memory spaces (project-internal)
  typedef enum logic [1:0] {
    LK_LOAD  = 2'd0,
    LK_STORE = 2'd1,
    LK_AMO   = 2'd2     // AMO*, LR, SC (funct5 says which)
  } lsu_kind_e;

  typedef enum logic [1:0] {
    SP_GLOBAL = 2'd0,   // device address (SYSMEM / VIDMEM windows), through the memory port
    SP_SHARED = 2'd1,   // byte offset in the SM's shared memory
    SP_LOCAL  = 2'd2    // byte offset in the thread's local memory
  } mem_space_e;

  // ---- Task slot number (TMU, docs/tmu.md): travels with every CTA to the SMs so completions,
  // faults, kills and LAUNCHes are per task.  TMU_SLOTS <= 2^TSLOT_W.
  localparam int unsigned TSLOT_W = 3;

  // ---- CTA launch descriptor (compute front -> SM)
  typedef struct packed {
    logic [31:0] qpos;          // queue TMDs: the position of the CTA's queue entry (CSR QPOS); 0 else
    logic [31:0] entry_pc;
    logic [31:0] param;
    logic [31:0] task_id;       // TMD address >> 8
    logic [31:0] nctaid_x, nctaid_y, nctaid_z;
    logic [15:0] ntid_x, ntid_y, ntid_z;
    logic [31:0] ctaid_x, ctaid_y, ctaid_z;
    logic [15:0] nthreads;      // ntid_x * ntid_y * ntid_z (checked by the front)
    logic [31:0] smem_bytes;
    logic [TSLOT_W-1:0] slot;   // the task slot of the CTA's task
  } cta_desc_t;

  // ---- Load data: the bytes of a load of size f3[1:0] at byte `off` of a 64-bit beat,
  // sign- or zero-extended (f3[2] = unsigned).
  function automatic logic [31:0] load_extract(input logic [63:0] beat, input logic [2:0] off,
                                               input logic [2:0] f3);
    logic [31:0] sh;
    logic [31:0] v;
    sh = 32'(beat >> {off, 3'b000});
    unique case (f3[1:0])
      2'd0:    v = f3[2] ? {24'h0, sh[7:0]}  : {{24{sh[7]}}, sh[7:0]};
      2'd1:    v = f3[2] ? {16'h0, sh[15:0]} : {{16{sh[15]}}, sh[15:0]};
      default: v = sh[31:0];
    endcase
    return v;
  endfunction

  // Round-robin pick: the first of n (<= 64) requesters after `last` (wrapping), `last` itself
  // when it is the only one, and `last` when nobody requests.  Used for the SMs' warp scheduler
  // and the compute engine's CTA and LAUNCH grants.
  function automatic int unsigned rr_next(input logic [63:0] req, input int unsigned last,
                                          input int unsigned n);
    int unsigned r;
    r = last;
    for (int unsigned k = n; k >= 1; k--) begin
      if (req[(last + k) % n]) r = (last + k) % n;
    end
    return r;
  endfunction

  // Byte-enable mask (8 bytes) of an access of size sz (f3[1:0]) at byte `off` of a beat
  function automatic logic [7:0] store_strb(input logic [2:0] off, input logic [1:0] sz);
    logic [7:0] m;
    unique case (sz)
      2'd0:    m = 8'h01;
      2'd1:    m = 8'h03;
      default: m = 8'h0F;
    endcase
    return m << off;
  endfunction

  // ---- loads in flight (gc_sm's scoreboard) and the read bursts that can follow from them
  localparam int unsigned SM_LD_MAX = 8;   // loads in flight per warp (gc_sm LD_MAX)

  // The most read bursts one SM's load/store unit keeps outstanding on its memory port (one AXI
  // ID): its return queue holds nw * SM_LD_MAX loads (gc_sm: LQ) and a global load issues one
  // burst per 128-byte segment its lanes touch, at most one per lane.  gpu_top and the SIMT bench
  // size their AXI checker's read table (gc_axi_check DEPTH) from it.
  function automatic int unsigned sm_reads_max(input int unsigned nw, input int unsigned nl);
    return nw * SM_LD_MAX * nl;
  endfunction

  // The same within a 32-bit word
  function automatic logic [3:0] word_strb(input logic [1:0] off, input logic [1:0] sz);
    logic [3:0] m;
    unique case (sz)
      2'd0:    m = 4'h1;
      2'd1:    m = 4'h3;
      default: m = 4'hF;
    endcase
    return m << off;
  endfunction

`ifdef GC_MUTATIONS
  // The SIMT block bench's mutation build (Makefile: simtmut, +define+GC_MUTATIONS; never in
  // gpu_top): the plusarg +gc_mutate=N names the rule gc_sm / gc_sm_lsu drop (0: none)
  function automatic int unsigned gc_mutation();
    int unsigned m;
    if (!$value$plusargs("gc_mutate=%d", m)) m = 0;
    return m;
  endfunction
`endif

endpackage
