// gc_eng_pkg: the two ports between the front end and its engines, as request / response structs
// (written once here; the modules and bench tops that use them: gc_pbdma and its parts
// gc_pbdma_eng / gc_pbdma_sem, gc_copy_engine, gpu_top, tests/rtl/ce_tb_top.sv).  As in
// gc_axi_pkg, req_t is what the requester drives (its valid included), rsp_t what the other side
// drives (the ready included).
//
//   eng_req_t / eng_rsp_t   engine command: PBDMA n -> its runlist's engine (copy engine n-1; on
//                           runlist 0 the compute engine, which takes only ch and src, the TMD
//                           address).  A command is taken when valid && ready; done pulses once
//                           per command taken, with done_err for a bus error (and on runlist 0
//                           done_ch: the channel whose task completed, tasks finish out of order).
//   aq_req_t / aq_rsp_t     one requester of the atomic unit (gc_atomic_unit; op and size encode
//                           as gc_sem_pkg's SEM_AOP_* / SEM_ASIZE_*): a request is taken when
//                           valid && ready, and answered by one valid pulse with rdata and err.
//                           The SIMT core's extended operations (LR / SC) are not in it: only
//                           u_simt issues them, on its own port.
package gc_eng_pkg;
  import gpucosim_pkg::*;

  typedef logic [GC_AXI_ADDR_W-1:0] eng_addr_t;

  // ---- engine command: the fields of COPY.LAUNCH_DMA and the copy-class method registers
  typedef struct packed {
    logic [7:0]  ch;           // the launching channel
    eng_addr_t   src;          // OFFSET_IN_UPPER / _LOWER (compute: SEND_PCAS_A << 8, the TMD)
    eng_addr_t   dst;          // OFFSET_OUT_UPPER / _LOWER
    logic [31:0] line_len;     // LINE_LENGTH_IN (bytes)
    logic [31:0] line_count;   // LINE_COUNT, or 1 without MULTI_LINE_ENABLE
    logic [31:0] pitch_in;     // PITCH_IN
    logic [31:0] pitch_out;    // PITCH_OUT
    logic        copy;         // DATA_TRANSFER_TYPE is not NONE
    logic        remap;        // REMAP_ENABLE: memset
    logic [31:0] const_a;      // SET_REMAP_CONST_A
    logic [31:0] const_b;      // SET_REMAP_CONST_B
    logic [31:0] components;   // SET_REMAP_COMPONENTS word
    logic        sem;          // SEMAPHORE_TYPE is not NONE: release at the end
    logic        sem_four;     // RELEASE_FOUR_WORD_SEMAPHORE
    eng_addr_t   sem_addr;     // SET_SEMAPHORE_A / _B
    logic [31:0] sem_payload;  // SET_SEMAPHORE_PAYLOAD
    logic        sem_reduce;   // SEMAPHORE_REDUCTION_ENABLE: the release is a reduction ...
    logic [GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_W-1:0] sem_red;   // ... this one
    logic        sem_signed;   // ... signed (SEMAPHORE_REDUCTION_SIGN SIGNED)
    logic        intr;         // INTERRUPT_TYPE NON_BLOCKING
  } eng_cmd_t;
  typedef struct packed {
    logic     valid;
    eng_cmd_t cmd;
  } eng_req_t;
  typedef struct packed {
    logic       ready;
    logic       done;
    logic       done_err;
    logic [7:0] done_ch;       // the channel of done (runlist 0; a copy engine: its command's)
  } eng_rsp_t;

  // ---- atomic-unit requester
  typedef struct packed {
    logic              valid;
    logic [1:0]        op;          // SEM_AOP_*
    logic [GC_HOST_SEM_EXECUTE_REDUCTION_W-1:0] red;   // RMW: the reduction ...
    logic              is_signed;   // ... signed
    logic [1:0]        size;        // SEM_ASIZE_*
    eng_addr_t         addr;
    logic [63:0]       wdata;
  } aq_req_t;
  typedef struct packed {
    logic        ready;
    logic        valid;             // the answer (one cycle)
    logic [63:0] rdata;
    logic        err;               // SLVERR / DECERR, or an op the unit refuses
  } aq_rsp_t;
endpackage
