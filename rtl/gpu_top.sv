// gpu_top: the gpucosim device. BAR0 register block (AXI4-Lite slave), one PBDMA, copy engine 0
// and the memory crossbar (client 0 = PBDMA, client 1 = copy engine 0) onto the AXI4 master.
module gpu_top
  import gpucosim_pkg::*;
#(
  localparam int unsigned NCH  = GC_NUM_CHANNELS,
  localparam int unsigned CH_W = $clog2(NCH),
  localparam int unsigned AW   = GC_AXI_ADDR_W,
  localparam int unsigned DW   = GC_AXI_DATA_W,
  localparam int unsigned IW   = GC_AXI_ID_W,
  localparam int unsigned MW   = GC_MMIO_ADDR_W,
  localparam int unsigned LW   = GC_CHANNEL_GPFIFO_SIZE_LOG2_W,
  localparam int unsigned NCLI = 2
) (
  input  logic            clk_i,
  input  logic            rst_ni,

  // AXI4-Lite slave, BAR0
  input  logic            s_awvalid_i,
  output logic            s_awready_o,
  input  logic [MW-1:0]   s_awaddr_i,
  input  logic            s_wvalid_i,
  output logic            s_wready_o,
  input  logic [31:0]     s_wdata_i,
  input  logic [3:0]      s_wstrb_i,
  output logic            s_bvalid_o,
  input  logic            s_bready_i,
  output logic [1:0]      s_bresp_o,
  input  logic            s_arvalid_i,
  output logic            s_arready_o,
  input  logic [MW-1:0]   s_araddr_i,
  output logic            s_rvalid_o,
  input  logic            s_rready_i,
  output logic [31:0]     s_rdata_o,
  output logic [1:0]      s_rresp_o,

  // AXI4 master, memory
  output logic            m_awvalid_o,
  input  logic            m_awready_i,
  output logic [IW-1:0]   m_awid_o,
  output logic [AW-1:0]   m_awaddr_o,
  output logic [7:0]      m_awlen_o,
  output logic [2:0]      m_awsize_o,
  output logic [1:0]      m_awburst_o,
  output logic            m_wvalid_o,
  input  logic            m_wready_i,
  output logic [DW-1:0]   m_wdata_o,
  output logic [DW/8-1:0] m_wstrb_o,
  output logic            m_wlast_o,
  input  logic            m_bvalid_i,
  output logic            m_bready_o,
  input  logic [IW-1:0]   m_bid_i,
  input  logic [1:0]      m_bresp_i,
  output logic            m_arvalid_o,
  input  logic            m_arready_i,
  output logic [IW-1:0]   m_arid_o,
  output logic [AW-1:0]   m_araddr_o,
  output logic [7:0]      m_arlen_o,
  output logic [2:0]      m_arsize_o,
  output logic [1:0]      m_arburst_o,
  input  logic            m_rvalid_i,
  output logic            m_rready_o,
  input  logic [IW-1:0]   m_rid_i,
  input  logic [DW-1:0]   m_rdata_i,
  input  logic [1:0]      m_rresp_i,
  input  logic            m_rlast_i,

  output logic            irq_o
);

  localparam int unsigned CLI_PBDMA = 0;
  localparam int unsigned CLI_CE0   = 1;

  // ------------------------------------------------------------------------------------------
  // Register block <-> PBDMA
  // ------------------------------------------------------------------------------------------
  logic [NCH-1:0]          ch_enable, ch_err, ch_reset;
  logic [NCH-1:0][AW-1:0]  ch_gpfifo_base;
  logic [NCH-1:0][LW-1:0]  ch_gpfifo_log2;
  logic [NCH-1:0][31:0]    ch_gp_put, ch_gp_get;

  logic                    gp_get_we;
  logic [CH_W-1:0]         gp_get_ch;
  logic [31:0]             gp_get_val;
  logic                    fault_valid;
  logic [CH_W-1:0]         fault_ch;
  error_cause_e            fault_cause;
  logic [31:0]             fault_gp_get, fault_method, fault_data;
  logic                    mthd_inc;
  logic [CH_W-1:0]         mthd_ch;
  logic                    pbdma_nonstall;

  pbdma_state_e                             dbg_pbdma_state;
  logic [GC_GLOBAL_DBG_PBDMA_CHANNEL_W-1:0] dbg_pbdma_ch;
  logic [GC_GLOBAL_DBG_PBDMA_PB_LEFT_W-1:0] dbg_pbdma_pb_left;

  // PBDMA -> copy engine
  logic            cmd_valid, cmd_ready;
  logic [7:0]      cmd_ch;
  logic [AW-1:0]   cmd_src, cmd_dst, cmd_sem_addr;
  logic [31:0]     cmd_line_len, cmd_line_count, cmd_pitch_in, cmd_pitch_out, cmd_sem_payload;
  logic            cmd_copy, cmd_sem, cmd_intr;
  logic            ce_done, ce_done_err, ce_intr;
  logic [1:0]      ce_state;
  logic [3:0]      ce_rd_out;
  logic [7:0]      ce_ch;
  logic [31:0]     ce_bytes, ce_busy_cycles;

  // Crossbar client ports
  logic [NCLI-1:0]          c_arvalid, c_arready, c_rvalid, c_rready;
  logic [NCLI-1:0][AW-1:0]  c_araddr, c_awaddr;
  logic [NCLI-1:0][7:0]     c_arlen, c_awlen;
  logic [DW-1:0]            c_rdata;
  logic [1:0]               c_rresp, c_bresp;
  logic                     c_rlast;
  logic [NCLI-1:0]          c_awvalid, c_awready, c_wvalid, c_wready, c_wlast, c_bvalid, c_bready;
  logic [NCLI-1:0][DW-1:0]  c_wdata;
  logic [NCLI-1:0][DW/8-1:0] c_wstrb;

  gc_mmio_regs u_regs (
    .clk_i,
    .rst_ni,
    .s_awvalid_i,
    .s_awready_o,
    .s_awaddr_i,
    .s_wvalid_i,
    .s_wready_o,
    .s_wdata_i,
    .s_wstrb_i,
    .s_bvalid_o,
    .s_bready_i,
    .s_bresp_o,
    .s_arvalid_i,
    .s_arready_o,
    .s_araddr_i,
    .s_rvalid_o,
    .s_rready_i,
    .s_rdata_o,
    .s_rresp_o,
    .irq_o,
    .ch_enable_o         (ch_enable),
    .ch_err_o            (ch_err),
    .ch_gpfifo_base_o    (ch_gpfifo_base),
    .ch_gpfifo_log2_o    (ch_gpfifo_log2),
    .ch_gp_put_o         (ch_gp_put),
    .ch_gp_get_o         (ch_gp_get),
    .ch_reset_o          (ch_reset),
    .gp_get_we_i         (gp_get_we),
    .gp_get_ch_i         (gp_get_ch),
    .gp_get_val_i        (gp_get_val),
    .fault_valid_i       (fault_valid),
    .fault_ch_i          (fault_ch),
    .fault_cause_i       (fault_cause),
    .fault_gp_get_i      (fault_gp_get),
    .fault_method_i      (fault_method),
    .fault_data_i        (fault_data),
    .mthd_inc_i          (mthd_inc),
    .mthd_ch_i           (mthd_ch),
    .nonstall_i          (pbdma_nonstall | ce_intr),
    .dbg_pbdma_state_i   (dbg_pbdma_state),
    .dbg_pbdma_ch_i      (dbg_pbdma_ch),
    .dbg_pbdma_pb_left_i (dbg_pbdma_pb_left),
    .dbg_ce_state_i      (ce_state_e'(ce_state)),
    .dbg_ce_rd_out_i     (ce_rd_out),
    .dbg_ce_ch_i         (ce_ch),
    .ce_bytes_i          (ce_bytes),
    .ce_busy_cycles_i    (ce_busy_cycles)
  );

  gc_pbdma u_pbdma (
    .clk_i,
    .rst_ni,
    .ch_enable_i       (ch_enable),
    .ch_err_i          (ch_err),
    .ch_gpfifo_base_i  (ch_gpfifo_base),
    .ch_gpfifo_log2_i  (ch_gpfifo_log2),
    .ch_gp_put_i       (ch_gp_put),
    .ch_gp_get_i       (ch_gp_get),
    .ch_reset_i        (ch_reset),
    .gp_get_we_o       (gp_get_we),
    .gp_get_ch_o       (gp_get_ch),
    .gp_get_val_o      (gp_get_val),
    .fault_valid_o     (fault_valid),
    .fault_ch_o        (fault_ch),
    .fault_cause_o     (fault_cause),
    .fault_gp_get_o    (fault_gp_get),
    .fault_method_o    (fault_method),
    .fault_data_o      (fault_data),
    .mthd_inc_o        (mthd_inc),
    .mthd_ch_o         (mthd_ch),
    .nonstall_o        (pbdma_nonstall),
    .dbg_state_o       (dbg_pbdma_state),
    .dbg_ch_o          (dbg_pbdma_ch),
    .dbg_pb_left_o     (dbg_pbdma_pb_left),
    .cmd_valid_o       (cmd_valid),
    .cmd_ready_i       (cmd_ready),
    .cmd_ch_o          (cmd_ch),
    .cmd_src_o         (cmd_src),
    .cmd_dst_o         (cmd_dst),
    .cmd_line_len_o    (cmd_line_len),
    .cmd_line_count_o  (cmd_line_count),
    .cmd_pitch_in_o    (cmd_pitch_in),
    .cmd_pitch_out_o   (cmd_pitch_out),
    .cmd_copy_o        (cmd_copy),
    .cmd_sem_o         (cmd_sem),
    .cmd_sem_addr_o    (cmd_sem_addr),
    .cmd_sem_payload_o (cmd_sem_payload),
    .cmd_intr_o        (cmd_intr),
    .ce_done_i         (ce_done),
    .ce_done_err_i     (ce_done_err),
    .m_arvalid_o       (c_arvalid[CLI_PBDMA]),
    .m_arready_i       (c_arready[CLI_PBDMA]),
    .m_araddr_o        (c_araddr[CLI_PBDMA]),
    .m_arlen_o         (c_arlen[CLI_PBDMA]),
    .m_rvalid_i        (c_rvalid[CLI_PBDMA]),
    .m_rready_o        (c_rready[CLI_PBDMA]),
    .m_rdata_i         (c_rdata),
    .m_rresp_i         (c_rresp),
    .m_rlast_i         (c_rlast),
    .m_awvalid_o       (c_awvalid[CLI_PBDMA]),
    .m_awready_i       (c_awready[CLI_PBDMA]),
    .m_awaddr_o        (c_awaddr[CLI_PBDMA]),
    .m_awlen_o         (c_awlen[CLI_PBDMA]),
    .m_wvalid_o        (c_wvalid[CLI_PBDMA]),
    .m_wready_i        (c_wready[CLI_PBDMA]),
    .m_wdata_o         (c_wdata[CLI_PBDMA]),
    .m_wstrb_o         (c_wstrb[CLI_PBDMA]),
    .m_wlast_o         (c_wlast[CLI_PBDMA]),
    .m_bvalid_i        (c_bvalid[CLI_PBDMA]),
    .m_bready_o        (c_bready[CLI_PBDMA]),
    .m_bresp_i         (c_bresp)
  );

  gc_copy_engine u_ce0 (
    .clk_i,
    .rst_ni,
    .cmd_valid_i       (cmd_valid),
    .cmd_ready_o       (cmd_ready),
    .cmd_ch_i          (cmd_ch),
    .cmd_src_i         (cmd_src),
    .cmd_dst_i         (cmd_dst),
    .cmd_line_len_i    (cmd_line_len),
    .cmd_line_count_i  (cmd_line_count),
    .cmd_pitch_in_i    (cmd_pitch_in),
    .cmd_pitch_out_i   (cmd_pitch_out),
    .cmd_copy_i        (cmd_copy),
    .cmd_sem_i         (cmd_sem),
    .cmd_sem_addr_i    (cmd_sem_addr),
    .cmd_sem_payload_i (cmd_sem_payload),
    .cmd_intr_i        (cmd_intr),
    .done_o            (ce_done),
    .done_err_o        (ce_done_err),
    .intr_o            (ce_intr),
    .state_o           (ce_state),
    .rd_out_o          (ce_rd_out),
    .ch_o              (ce_ch),
    .bytes_o           (ce_bytes),
    .busy_cycles_o     (ce_busy_cycles),
    .m_arvalid_o       (c_arvalid[CLI_CE0]),
    .m_arready_i       (c_arready[CLI_CE0]),
    .m_araddr_o        (c_araddr[CLI_CE0]),
    .m_arlen_o         (c_arlen[CLI_CE0]),
    .m_rvalid_i        (c_rvalid[CLI_CE0]),
    .m_rready_o        (c_rready[CLI_CE0]),
    .m_rdata_i         (c_rdata),
    .m_rresp_i         (c_rresp),
    .m_rlast_i         (c_rlast),
    .m_awvalid_o       (c_awvalid[CLI_CE0]),
    .m_awready_i       (c_awready[CLI_CE0]),
    .m_awaddr_o        (c_awaddr[CLI_CE0]),
    .m_awlen_o         (c_awlen[CLI_CE0]),
    .m_wvalid_o        (c_wvalid[CLI_CE0]),
    .m_wready_i        (c_wready[CLI_CE0]),
    .m_wdata_o         (c_wdata[CLI_CE0]),
    .m_wstrb_o         (c_wstrb[CLI_CE0]),
    .m_wlast_o         (c_wlast[CLI_CE0]),
    .m_bvalid_i        (c_bvalid[CLI_CE0]),
    .m_bready_o        (c_bready[CLI_CE0]),
    .m_bresp_i         (c_bresp)
  );

  gc_mem_xbar #(
    .N (NCLI)
  ) u_xbar (
    .clk_i,
    .rst_ni,
    .c_arvalid_i (c_arvalid),
    .c_arready_o (c_arready),
    .c_araddr_i  (c_araddr),
    .c_arlen_i   (c_arlen),
    .c_rvalid_o  (c_rvalid),
    .c_rready_i  (c_rready),
    .c_rdata_o   (c_rdata),
    .c_rresp_o   (c_rresp),
    .c_rlast_o   (c_rlast),
    .c_awvalid_i (c_awvalid),
    .c_awready_o (c_awready),
    .c_awaddr_i  (c_awaddr),
    .c_awlen_i   (c_awlen),
    .c_wvalid_i  (c_wvalid),
    .c_wready_o  (c_wready),
    .c_wdata_i   (c_wdata),
    .c_wstrb_i   (c_wstrb),
    .c_wlast_i   (c_wlast),
    .c_bvalid_o  (c_bvalid),
    .c_bready_i  (c_bready),
    .c_bresp_o   (c_bresp),
    .m_awvalid_o,
    .m_awready_i,
    .m_awid_o,
    .m_awaddr_o,
    .m_awlen_o,
    .m_awsize_o,
    .m_awburst_o,
    .m_wvalid_o,
    .m_wready_i,
    .m_wdata_o,
    .m_wstrb_o,
    .m_wlast_o,
    .m_bvalid_i,
    .m_bready_o,
    .m_bid_i,
    .m_bresp_i,
    .m_arvalid_o,
    .m_arready_i,
    .m_arid_o,
    .m_araddr_o,
    .m_arlen_o,
    .m_arsize_o,
    .m_arburst_o,
    .m_rvalid_i,
    .m_rready_o,
    .m_rid_i,
    .m_rdata_i,
    .m_rresp_i,
    .m_rlast_i
  );

endmodule
