// gc_axi_check.svh: one-line instances of the AXI4 protocol checker (rtl/gc_axi_check.sv) on a
// memory port with the project's port names (m_awvalid_o, m_awready_i, ...; gpucosim_pkg
// imported), so that gpu_top and every bench top attach it the same way.
//   `GC_AXI_CHECK_M(inst, rd)   a full AXI4 master port (IDs, AxSIZE, AxBURST); rd: the most read
//                               bursts the design keeps outstanding on one ID (checker DEPTH)
//   `GC_AXI_CHECK_CLIENT(inst)  a crossbar client port (no IDs: 0; full-width INCR bursts)
`ifndef GC_AXI_CHECK_SVH
`define GC_AXI_CHECK_SVH

`define GC_AXI_CHECK_M(__inst, __rd)                                                         \
  gc_axi_check #(.IW(GC_AXI_ID_W), .AW(GC_AXI_ADDR_W), .DW(GC_AXI_DATA_W),                   \
                 .MAX_LEN(GC_AXI_MAX_BURST), .DEPTH(__rd)) __inst (                          \
    .clk_i, .rst_ni, .awvalid_i (m_awvalid_o), .awready_i (m_awready_i), .awid_i (m_awid_o), \
    .awaddr_i (m_awaddr_o), .awlen_i (m_awlen_o), .awsize_i (m_awsize_o),                    \
    .awburst_i (m_awburst_o), .wvalid_i (m_wvalid_o), .wready_i (m_wready_i),                \
    .wdata_i (m_wdata_o), .wstrb_i (m_wstrb_o), .wlast_i (m_wlast_o), .bvalid_i (m_bvalid_i), \
    .bready_i (m_bready_o), .bid_i (m_bid_i), .bresp_i (m_bresp_i), .arvalid_i (m_arvalid_o), \
    .arready_i (m_arready_i), .arid_i (m_arid_o), .araddr_i (m_araddr_o),                    \
    .arlen_i (m_arlen_o), .arsize_i (m_arsize_o), .arburst_i (m_arburst_o),                  \
    .rvalid_i (m_rvalid_i), .rready_i (m_rready_o), .rid_i (m_rid_i), .rdata_i (m_rdata_i),  \
    .rresp_i (m_rresp_i), .rlast_i (m_rlast_i)                                               \
  );

`define GC_AXI_CHECK_CLIENT(__inst)                                                          \
  gc_axi_check #(.IW(1), .AW(GC_AXI_ADDR_W), .DW(GC_AXI_DATA_W),                             \
                 .MAX_LEN(GC_AXI_MAX_BURST)) __inst (                                        \
    .clk_i, .rst_ni, .awvalid_i (m_awvalid_o), .awready_i (m_awready_i), .awid_i (1'b0),     \
    .awaddr_i (m_awaddr_o), .awlen_i (m_awlen_o), .awsize_i (3'($clog2(GC_AXI_DATA_W / 8))), \
    .awburst_i (2'b01), .wvalid_i (m_wvalid_o), .wready_i (m_wready_i),                      \
    .wdata_i (m_wdata_o), .wstrb_i (m_wstrb_o), .wlast_i (m_wlast_o), .bvalid_i (m_bvalid_i), \
    .bready_i (m_bready_o), .bid_i (1'b0), .bresp_i (m_bresp_i), .arvalid_i (m_arvalid_o),   \
    .arready_i (m_arready_i), .arid_i (1'b0), .araddr_i (m_araddr_o), .arlen_i (m_arlen_o),  \
    .arsize_i (3'($clog2(GC_AXI_DATA_W / 8))), .arburst_i (2'b01), .rvalid_i (m_rvalid_i),   \
    .rready_i (m_rready_o), .rid_i (1'b0), .rdata_i (m_rdata_i), .rresp_i (m_rresp_i),       \
    .rlast_i (m_rlast_i)                                                                     \
  );

`endif
