// gc_axi_pkg: the device's AXI interfaces as request / response structs, in the style of PULP's
// axi typedef macros (one struct per channel, then req_t = the channels and valids / readys the
// manager drives, rsp_t = what the subordinate drives).  Every width comes from gpucosim_pkg
// (spec/gpucosim.yaml: AXI_ADDR_W, AXI_DATA_W, AXI_ID_W, MMIO_ADDR_W), so the spec stays the one
// source.  Three flavours:
//   axi_req_t  / axi_rsp_t   AXI4, the device's memory manager (gpu_top m_* pins): ID, INCR
//                            bursts of 8-byte beats (size = 3, burst = 1)
//   cli_req_t  / cli_rsp_t   the client memory port (rtl/README.md): AXI4 without ID, size and
//                            burst, one per gc_mem_xbar client
//   lite_req_t / lite_rsp_t  AXI4-Lite, the BAR0 register slave (gpu_top s_* pins)
// gpu_top keeps flat pins at the harness boundary; gc_axi_pins converts them (rtl/gc_axi_pins.svh
// declares the flat pin lists once for gpu_top and the bench tops).
package gc_axi_pkg;
  import gpucosim_pkg::*;

  typedef logic [GC_AXI_ADDR_W-1:0]   addr_t;
  typedef logic [GC_AXI_DATA_W-1:0]   data_t;
  typedef logic [GC_AXI_DATA_W/8-1:0] strb_t;
  typedef logic [GC_AXI_ID_W-1:0]     id_t;
  typedef logic [7:0]                 len_t;    // beats - 1
  typedef logic [1:0]                 bresp_t;  // OKAY, EXOKAY, SLVERR, DECERR
  typedef logic [GC_MMIO_ADDR_W-1:0]  lite_addr_t;
  typedef logic [31:0]                lite_data_t;
  typedef logic [3:0]                 lite_strb_t;

  // ---- AXI4 (memory manager)
  typedef struct packed {
    id_t        id;
    addr_t      addr;
    len_t       len;
    logic [2:0] size;
    logic [1:0] burst;
  } axi_ax_chan_t;                               // AW and AR
  typedef struct packed {
    data_t data;
    strb_t strb;
    logic  last;
  } axi_w_chan_t;
  typedef struct packed {
    id_t    id;
    bresp_t resp;
  } axi_b_chan_t;
  typedef struct packed {
    id_t    id;
    data_t  data;
    bresp_t resp;
    logic   last;
  } axi_r_chan_t;
  typedef struct packed {
    axi_ax_chan_t aw;
    logic         aw_valid;
    axi_w_chan_t  w;
    logic         w_valid;
    logic         b_ready;
    axi_ax_chan_t ar;
    logic         ar_valid;
    logic         r_ready;
  } axi_req_t;
  typedef struct packed {
    logic        aw_ready;
    logic        ar_ready;
    logic        w_ready;
    logic        b_valid;
    axi_b_chan_t b;
    logic        r_valid;
    axi_r_chan_t r;
  } axi_rsp_t;

  // ---- client memory port (crossbar side): no ID, size or burst
  typedef struct packed {
    addr_t addr;
    len_t  len;
  } cli_ax_chan_t;                               // AW and AR
  typedef struct packed {
    data_t  data;
    bresp_t resp;
    logic   last;
  } cli_r_chan_t;
  typedef struct packed {
    cli_ax_chan_t aw;
    logic         aw_valid;
    axi_w_chan_t  w;
    logic         w_valid;
    logic         b_ready;
    cli_ax_chan_t ar;
    logic         ar_valid;
    logic         r_ready;
  } cli_req_t;
  typedef struct packed {
    logic        aw_ready;
    logic        ar_ready;
    logic        w_ready;
    logic        b_valid;
    bresp_t      b_resp;
    logic        r_valid;
    cli_r_chan_t r;
  } cli_rsp_t;

  // A read-only client's request: its AR and R ready; no AW, no W, every B accepted.
  function automatic cli_req_t cli_rd_only(input cli_ax_chan_t ar, input logic ar_valid,
                                           input logic r_ready);
    return '{aw: '0, aw_valid: 1'b0, w: '0, w_valid: 1'b0, b_ready: 1'b1,
             ar: ar, ar_valid: ar_valid, r_ready: r_ready};
  endfunction

  // ---- write snoop (gc_mem_xbar's snoop_o, rtl/README.md "Write snoop"): one completed write
  // burst per pulse, from any client, in the cycle after its B response (not SLVERR / DECERR)
  typedef struct packed {
    logic  valid;
    addr_t addr;    // the burst's first beat (8-byte aligned)
    len_t  len;     // beats - 1: the burst covers [addr, addr + 8 * (len + 1))
    data_t data;    // the first beat as written ...
    strb_t strb;    // ... and its byte strobes (bytes without a strobe were not written)
  } wsnoop_t;

  // ---- AXI4-Lite (BAR0 slave)
  typedef struct packed {
    lite_data_t data;
    lite_strb_t strb;
  } lite_w_chan_t;
  typedef struct packed {
    lite_data_t data;
    bresp_t     resp;
  } lite_r_chan_t;
  typedef struct packed {
    lite_addr_t   aw_addr;
    logic         aw_valid;
    lite_w_chan_t w;
    logic         w_valid;
    logic         b_ready;
    lite_addr_t   ar_addr;
    logic         ar_valid;
    logic         r_ready;
  } lite_req_t;
  typedef struct packed {
    logic         aw_ready;
    logic         w_ready;
    bresp_t       b_resp;
    logic         b_valid;
    logic         ar_ready;
    lite_r_chan_t r;
    logic         r_valid;
  } lite_rsp_t;
endpackage
