// xbar_tb_top: block-test wrapper for gc_mem_xbar with N = 3 clients (tests/rtl/xbar_tb.cpp
// drives the three client ports, models the AXI4 memory on the master side and checks the write
// snoop, brought out flat).
`include "gc_axi_pins.svh"
`include "gc_axi_check.svh"

module xbar_tb_top
  import gpucosim_pkg::*;
  import gc_axi_pkg::*;
#(
  parameter int unsigned N = 3,
  parameter int unsigned SNOOP_DEPTH = 4   // small: the AW wait on a full snoop table is common
) (
  input  logic                                  clk_i,
  input  logic                                  rst_ni,
  input  logic [N-1:0]                          c_arvalid_i,
  output logic [N-1:0]                          c_arready_o,
  input  logic [N-1:0][GC_AXI_ADDR_W-1:0]       c_araddr_i,
  input  logic [N-1:0][7:0]                     c_arlen_i,
  output logic [N-1:0]                          c_rvalid_o,
  input  logic [N-1:0]                          c_rready_i,
  output logic [GC_AXI_DATA_W-1:0]              c_rdata_o,
  output logic [1:0]                            c_rresp_o,
  output logic                                  c_rlast_o,
  input  logic [N-1:0]                          c_awvalid_i,
  output logic [N-1:0]                          c_awready_o,
  input  logic [N-1:0][GC_AXI_ADDR_W-1:0]       c_awaddr_i,
  input  logic [N-1:0][7:0]                     c_awlen_i,
  input  logic [N-1:0]                          c_wvalid_i,
  output logic [N-1:0]                          c_wready_o,
  input  logic [N-1:0][GC_AXI_DATA_W-1:0]       c_wdata_i,
  input  logic [N-1:0][GC_AXI_DATA_W/8-1:0]     c_wstrb_i,
  input  logic [N-1:0]                          c_wlast_i,
  output logic [N-1:0]                          c_bvalid_o,
  input  logic [N-1:0]                          c_bready_i,
  output logic [1:0]                            c_bresp_o,
  output logic                                  snoop_valid_o,   // the write snoop, flat
  output logic [GC_AXI_ADDR_W-1:0]              snoop_addr_o,
  output logic [7:0]                            snoop_len_o,
  output logic [GC_AXI_DATA_W-1:0]              snoop_data_o,
  output logic [GC_AXI_DATA_W/8-1:0]            snoop_strb_o,
  `GC_AXI_MASTER_PINS
);

  // The bench's per-field client pins <-> the crossbar's client structs
  cli_req_t c_req [N];
  cli_rsp_t c_rsp [N];
  for (genvar i = 0; i < N; i++) begin : g_cli
    assign c_req[i] = '{ar_valid: c_arvalid_i[i], ar: '{addr: c_araddr_i[i], len: c_arlen_i[i]},
                        r_ready: c_rready_i[i],
                        aw_valid: c_awvalid_i[i], aw: '{addr: c_awaddr_i[i], len: c_awlen_i[i]},
                        w_valid: c_wvalid_i[i],
                        w: '{data: c_wdata_i[i], strb: c_wstrb_i[i], last: c_wlast_i[i]},
                        b_ready: c_bready_i[i]};
    assign c_arready_o[i] = c_rsp[i].ar_ready;
    assign c_rvalid_o[i]  = c_rsp[i].r_valid;
    assign c_awready_o[i] = c_rsp[i].aw_ready;
    assign c_wready_o[i]  = c_rsp[i].w_ready;
    assign c_bvalid_o[i]  = c_rsp[i].b_valid;
  end
  // the R and B payloads are the same in every client's response
  assign c_rdata_o = c_rsp[0].r.data;
  assign c_rresp_o = c_rsp[0].r.resp;
  assign c_rlast_o = c_rsp[0].r.last;
  assign c_bresp_o = c_rsp[0].b_resp;

  axi_req_t m_req;
  axi_rsp_t m_rsp;
  wsnoop_t  snoop;
  gc_axi_pins u_pins (.m_req_i (m_req), .m_rsp_o (m_rsp), .*);

  gc_mem_xbar #(.N(N), .SNOOP_DEPTH(SNOOP_DEPTH)) u_xbar (
    .clk_i, .rst_ni,
    .c_req_i (c_req),
    .c_rsp_o (c_rsp),
    .m_req_o (m_req),
    .m_rsp_i (m_rsp),
    .snoop_o (snoop)
  );
  assign {snoop_valid_o, snoop_addr_o, snoop_len_o, snoop_data_o, snoop_strb_o} = snoop;

  // AXI protocol checker on the AXI4 memory port (rtl/gc_axi_check.sv)
  `GC_AXI_CHECK_M(u_axi_check, 32)

endmodule
