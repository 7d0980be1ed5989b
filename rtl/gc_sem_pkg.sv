// gc_sem_pkg: semaphore arithmetic shared by the PBDMA (acquire tests) and the atomic unit
// (reductions).  Pure functions, no state.
//
// Encodings are the HOST class SEM_EXECUTE fields of spec/gpucosim.yaml (OPERATION, REDUCTION);
// the definitions follow NVIDIA's clc56f.h documentation:
//
//   sem_acquire_pass(op, is64, mem, payload)          is the acquire satisfied?
//     ACQUIRE          mem == payload
//     ACQ_STRICT_GEQ   mem >= payload                  (unsigned)
//     ACQ_CIRC_GEQ     signed(mem - payload) >= 0      (circular: correct across the 2^32 / 2^64
//                                                       wrap while the two values are less than
//                                                       half the range apart)
//     ACQ_AND          (mem & payload) != 0
//     ACQ_NOR          ~(mem | payload) != 0
//     other (RELEASE, REDUCTION, unused)  0 (not an acquire)
//
//   sem_red_form_ok(red, is_signed, is64)            NVIDIA accepts this reduction form
//   sem_reduce(red, is_signed, is64, mem, operand)    the value written back by a reduction
//     IMIN / IMAX      min / max, signed if is_signed (REDUCTION_FORMAT SIGNED) else unsigned
//     IXOR IAND IOR    bitwise
//     IADD             mem + operand (wraps)
//     INC              mem >= operand ? 0 : mem + 1                    (unsigned compare)
//     DEC              (mem == 0 || mem > operand) ? operand : mem - 1  (unsigned compare)
//     other            mem unchanged (the caller refuses them before they get here)
//
// 32-bit mode (is64 = 0, PAYLOAD_SIZE 32BIT) looks at bits 31:0 of mem and payload/operand only;
// sem_reduce then returns bits 63:32 of mem unchanged.
//
// The request encodings of gc_atomic_unit (rtl/README.md, "Atomic unit") are project-internal
// (not in the spec) and are named here so that requesters and the unit share them.
package gc_sem_pkg;
  import gpucosim_pkg::*;

  // ---- gc_atomic_unit request encodings (aq_op_i, aq_size_i)
  localparam logic [1:0] SEM_AOP_READ  = 2'd0;   // read 4/8 bytes
  localparam logic [1:0] SEM_AOP_WRITE = 2'd1;   // write 4/8 bytes, or 16 = {timestamp, wdata}
  localparam logic [1:0] SEM_AOP_RMW   = 2'd2;   // read, sem_reduce, write (old value returned)

  localparam logic [1:0] SEM_ASIZE_4   = 2'd0;   // 4 bytes (4-aligned)
  localparam logic [1:0] SEM_ASIZE_8   = 2'd1;   // 8 bytes (8-aligned)
  localparam logic [1:0] SEM_ASIZE_16  = 2'd2;   // 16 bytes (16-aligned): 8-byte value, stamp
  localparam logic [1:0] SEM_ASIZE_16W = 2'd3;   // 16 bytes (16-aligned): 4-byte value, wdata
                                                 // [63:32] (0 from a PBDMA, the copy's start
                                                 // from a CE), stamp (32-bit payload + timestamp)

  // Extended operations (aq_xop_i, the SIMT core's "A" extension); with XOP_NONE the request is
  // the aq_op_i above, otherwise aq_op_i is ignored.
  localparam logic [1:0] SEM_XOP_NONE  = 2'd0;
  localparam logic [1:0] SEM_XOP_LR    = 2'd1;   // READ that also sets reservation aq_rtag_i
  localparam logic [1:0] SEM_XOP_SC    = 2'd2;   // WRITE done only if the reservation holds
  localparam logic [1:0] SEM_XOP_SWAP  = 2'd3;   // RMW whose new value is the operand

  typedef logic [GC_HOST_SEM_EXECUTE_OPERATION_W-1:0] sem_op_t;
  typedef logic [GC_HOST_SEM_EXECUTE_REDUCTION_W-1:0] sem_red_t;

  function automatic logic sem_acquire_pass(input sem_op_t     op,
                                            input logic        is64,
                                            input logic [63:0] mem,
                                            input logic [63:0] payload);
    logic eq, geq, circ, and_nz, nor_nz, pass;
    if (is64) begin
      eq     = (mem == payload);
      geq    = (mem >= payload);
      circ   = ($signed(64'(mem - payload)) >= 64'sd0);
      and_nz = ((mem & payload) != '0);
      nor_nz = (~(mem | payload) != '0);
    end else begin
      eq     = (mem[31:0] == payload[31:0]);
      geq    = (mem[31:0] >= payload[31:0]);
      circ   = ($signed(32'(mem[31:0] - payload[31:0])) >= 32'sd0);
      and_nz = ((mem[31:0] & payload[31:0]) != '0);
      nor_nz = (~(mem[31:0] | payload[31:0]) != '0);
    end
    unique case (op)
      GC_HOST_SEM_EXECUTE_OPERATION_ACQUIRE:        pass = eq;
      GC_HOST_SEM_EXECUTE_OPERATION_ACQ_STRICT_GEQ: pass = geq;
      GC_HOST_SEM_EXECUTE_OPERATION_ACQ_CIRC_GEQ:   pass = circ;
      GC_HOST_SEM_EXECUTE_OPERATION_ACQ_AND:        pass = and_nz;
      GC_HOST_SEM_EXECUTE_OPERATION_ACQ_NOR:        pass = nor_nz;
      default:                                      pass = 1'b0;
    endcase
    return pass;
  endfunction

  // Is this reduction form one NVIDIA's dev_pbdma.ref accepts?  (Its table: IMIN, IMAX signed or
  // unsigned at 32 and 64 bits; IXOR, IAND, IOR ignore the signedness; IADD signed or unsigned at
  // 32 bits, unsigned only at 64; INC and DEC unsigned 32-bit only.)  The host class and the copy
  // class (whose reductions are the same memory-system operations) both refuse the others:
  // ERROR_CAUSE INVALID_REDUCTION.  A REDUCTION value past DEC is not a form but an unknown
  // operation (UNSUPPORTED, checked by the caller).
  function automatic logic sem_red_form_ok(input sem_red_t red, input logic is_signed,
                                           input logic is64);
    logic ok;
    unique case (red)
      GC_HOST_SEM_EXECUTE_REDUCTION_IADD: ok = !(is64 && is_signed);
      GC_HOST_SEM_EXECUTE_REDUCTION_INC,
      GC_HOST_SEM_EXECUTE_REDUCTION_DEC:  ok = !is64 && !is_signed;
      default:                            ok = 1'b1;
    endcase
    return ok;
  endfunction

  function automatic logic [63:0] sem_reduce(input sem_red_t    red,
                                             input logic        is_signed,
                                             input logic        is64,
                                             input logic [63:0] mem,
                                             input logic [63:0] operand);
    logic [63:0] m, o, r;
    logic        minmax, lt;
    // 32-bit mode: widen bits 31:0 to 64 bits so that one 64-bit datapath serves both modes
    // (sign-extended for signed IMIN/IMAX, zero-extended for everything else: INC and DEC
    // compare unsigned).  Bits 63:32 of the 64-bit result are then dropped.
    minmax = (red == GC_HOST_SEM_EXECUTE_REDUCTION_IMIN) ||
             (red == GC_HOST_SEM_EXECUTE_REDUCTION_IMAX);
    if (is64) begin
      m = mem;
      o = operand;
    end else if (minmax && is_signed) begin
      m = {{32{mem[31]}}, mem[31:0]};
      o = {{32{operand[31]}}, operand[31:0]};
    end else begin
      m = {32'h0, mem[31:0]};
      o = {32'h0, operand[31:0]};
    end
    lt = is_signed ? ($signed(m) < $signed(o)) : (m < o);
    unique case (red)
      GC_HOST_SEM_EXECUTE_REDUCTION_IMIN: r = lt ? m : o;
      GC_HOST_SEM_EXECUTE_REDUCTION_IMAX: r = lt ? o : m;
      GC_HOST_SEM_EXECUTE_REDUCTION_IXOR: r = m ^ o;
      GC_HOST_SEM_EXECUTE_REDUCTION_IAND: r = m & o;
      GC_HOST_SEM_EXECUTE_REDUCTION_IOR:  r = m | o;
      GC_HOST_SEM_EXECUTE_REDUCTION_IADD: r = m + o;
      GC_HOST_SEM_EXECUTE_REDUCTION_INC:  r = (m >= o) ? '0 : m + 64'd1;
      GC_HOST_SEM_EXECUTE_REDUCTION_DEC:  r = ((m == '0) || (m > o)) ? o : m - 64'd1;
      default:                            r = m;
    endcase
    return is64 ? r : {mem[63:32], r[31:0]};
  endfunction

endpackage
