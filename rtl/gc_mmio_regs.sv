// gc_mmio_regs: AXI4-Lite slave and the BAR0 registers of gpucosim (GLOBAL and CHANNEL blocks of
// spec/gpucosim.yaml).
//
// AXI4-Lite: AW and W are accepted independently (one of each buffered); the write is performed
// once both are held and no B response is pending. One read is outstanding at a time. Offsets
// that no register names answer SLVERR (reads return 0, writes are ignored); writes to read-only
// registers answer OKAY and are ignored. wstrb is honoured (unstrobed bytes keep their value).
//
// The register block owns the channel configuration and exports it to the PBDMA as arrays indexed
// by channel. It takes back GP_GET updates, fault records, method-count increments and the
// non-stall interrupt pulse. Faults: first error wins (a fault is recorded only while the
// channel's ERROR.CAUSE is NONE). A CTRL.RESET write clears the channel's error record, GP_GET,
// GP_PUT and ENABLE and pulses ch_reset_o[ch] to the PBDMA; the reset takes priority over any
// PBDMA update of the same channel in the same cycle. METHODS is a free-running counter and is not
// cleared by a reset.
module gc_mmio_regs
  import gpucosim_pkg::*;
#(
  localparam int unsigned NCH  = GC_NUM_CHANNELS,
  localparam int unsigned CH_W = $clog2(NCH),
  localparam int unsigned AW   = GC_MMIO_ADDR_W,
  localparam int unsigned LW   = GC_CHANNEL_GPFIFO_SIZE_LOG2_W
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,

  // AXI4-Lite slave (BAR0)
  input  logic                 s_awvalid_i,
  output logic                 s_awready_o,
  input  logic [AW-1:0]        s_awaddr_i,
  input  logic                 s_wvalid_i,
  output logic                 s_wready_o,
  input  logic [31:0]          s_wdata_i,
  input  logic [3:0]           s_wstrb_i,
  output logic                 s_bvalid_o,
  input  logic                 s_bready_i,
  output logic [1:0]           s_bresp_o,
  input  logic                 s_arvalid_i,
  output logic                 s_arready_o,
  input  logic [AW-1:0]        s_araddr_i,
  output logic                 s_rvalid_o,
  input  logic                 s_rready_i,
  output logic [31:0]          s_rdata_o,
  output logic [1:0]           s_rresp_o,

  output logic                 irq_o,

  // Channel configuration / status to the PBDMA
  output logic [NCH-1:0]                    ch_enable_o,
  output logic [NCH-1:0]                    ch_err_o,         // ERROR.CAUSE != NONE
  output logic [NCH-1:0][GC_AXI_ADDR_W-1:0] ch_gpfifo_base_o,
  output logic [NCH-1:0][LW-1:0]            ch_gpfifo_log2_o,
  output logic [NCH-1:0][31:0]              ch_gp_put_o,
  output logic [NCH-1:0][31:0]              ch_gp_get_o,
  output logic [NCH-1:0]                    ch_reset_o,       // 1-cycle pulse per CTRL.RESET

  // From the PBDMA
  input  logic                 gp_get_we_i,
  input  logic [CH_W-1:0]      gp_get_ch_i,
  input  logic [31:0]          gp_get_val_i,
  input  logic                 fault_valid_i,
  input  logic [CH_W-1:0]      fault_ch_i,
  input  error_cause_e         fault_cause_i,
  input  logic [31:0]          fault_gp_get_i,
  input  logic [31:0]          fault_method_i,   // ERROR_METHOD layout
  input  logic [31:0]          fault_data_i,
  input  logic                 mthd_inc_i,
  input  logic [CH_W-1:0]      mthd_ch_i,
  input  logic                 nonstall_i,       // sets INTR_STATUS.NON_STALL

  // Debug / status inputs
  input  pbdma_state_e                              dbg_pbdma_state_i,
  input  logic [GC_GLOBAL_DBG_PBDMA_CHANNEL_W-1:0]  dbg_pbdma_ch_i,
  input  logic [GC_GLOBAL_DBG_PBDMA_PB_LEFT_W-1:0]  dbg_pbdma_pb_left_i,
  input  ce_state_e                                 dbg_ce_state_i,
  input  logic [GC_GLOBAL_DBG_CE_RD_OUT_W-1:0]      dbg_ce_rd_out_i,
  input  logic [GC_GLOBAL_DBG_CE_CHANNEL_W-1:0]     dbg_ce_ch_i,
  input  logic [31:0]                               ce_bytes_i,
  input  logic [31:0]                               ce_busy_cycles_i
);

  // AXI response codes (AXI4 protocol constants, not device encodings)
  localparam logic [1:0] RESP_OKAY   = 2'b00;
  localparam logic [1:0] RESP_SLVERR = 2'b10;

  localparam int unsigned HI_W = GC_AXI_ADDR_W - 32;  // GPFIFO_BASE_HI bits used
  localparam int unsigned ENTRY_LSB = 3;              // 8-byte GPFIFO entries: base bits 2:0 are 0

  localparam logic [31:0] INTR_CF = 32'(1) << GC_GLOBAL_INTR_STATUS_CHANNEL_FAULT_LSB;
  localparam logic [31:0] INTR_NS = 32'(1) << GC_GLOBAL_INTR_STATUS_NON_STALL_LSB;
  localparam logic [31:0] INTR_MASK = INTR_CF | INTR_NS;

  // ------------------------------------------------------------------------------------------
  // State
  // ------------------------------------------------------------------------------------------
  logic [NCH-1:0][31:ENTRY_LSB]  base_lo_q;
  logic [NCH-1:0][HI_W-1:0]      base_hi_q;
  logic [NCH-1:0][LW-1:0]        log2_q;
  logic [NCH-1:0][31:0]          gp_put_q;
  logic [NCH-1:0][31:0]          gp_get_q;
  logic [NCH-1:0]                enable_q;
  logic [NCH-1:0][GC_CHANNEL_RUNLIST_ID_W-1:0] runlist_q;
  error_cause_e                  err_cause_q  [NCH];
  logic [NCH-1:0][31:0]          err_gp_get_q;
  logic [NCH-1:0][31:0]          err_method_q;
  logic [NCH-1:0][31:0]          err_data_q;
  logic [NCH-1:0][31:0]          methods_q;

  logic [31:0] intr_status_q, intr_enable_q;
  logic [63:0] cycle_q;
  logic [31:0] cycle_hi_q;

  // AXI4-Lite channel buffers
  logic          aw_have_q, w_have_q, b_valid_q, r_valid_q;
  logic [AW-1:0] aw_addr_q;
  logic [31:0]   w_data_q;
  logic [3:0]    w_strb_q;
  logic [1:0]    b_resp_q, r_resp_q;
  logic [31:0]   r_data_q;

  // ------------------------------------------------------------------------------------------
  // Address decode and read mux
  // ------------------------------------------------------------------------------------------
  typedef struct packed {
    logic            hit;     // a register of the map
    logic            is_ch;   // in the CHANNEL block
    logic [CH_W-1:0] ch;
    logic [15:0]     off;     // offset within the block (GLOBAL: the absolute offset)
  } dec_t;

  function automatic dec_t decode(input logic [AW-1:0] addr);
    dec_t d;
    logic [15:0] a, rel, idx;
    d = '0;
    a = 16'(addr);
    a[1:0] = 2'b00;
    if (a < GC_REG_CHANNEL_BASE) begin
      d.off = a;
      unique case (a)
        GC_REG_GLOBAL_ID, GC_REG_GLOBAL_VERSION, GC_REG_GLOBAL_CONFIG, GC_REG_GLOBAL_INTR_STATUS,
        GC_REG_GLOBAL_INTR_ENABLE, GC_REG_GLOBAL_CYCLE_LO, GC_REG_GLOBAL_CYCLE_HI,
        GC_REG_GLOBAL_FAULT_CHANNELS, GC_REG_GLOBAL_DBG_PBDMA, GC_REG_GLOBAL_DBG_CE,
        GC_REG_GLOBAL_CE_BYTES_LO, GC_REG_GLOBAL_CE_BUSY_CYCLES: d.hit = 1'b1;
        default: d.hit = 1'b0;
      endcase
    end else begin
      rel = a - GC_REG_CHANNEL_BASE;
      idx = rel / GC_REG_CHANNEL_STRIDE;
      d.is_ch = 1'b1;
      d.off = rel % GC_REG_CHANNEL_STRIDE;
      d.ch = CH_W'(idx);
      if (32'(idx) < NCH) begin
        unique case (d.off)
          GC_REG_CHANNEL_GPFIFO_BASE_LO, GC_REG_CHANNEL_GPFIFO_BASE_HI, GC_REG_CHANNEL_GPFIFO_SIZE,
          GC_REG_CHANNEL_GP_PUT, GC_REG_CHANNEL_GP_GET, GC_REG_CHANNEL_CTRL, GC_REG_CHANNEL_RUNLIST,
          GC_REG_CHANNEL_ERROR, GC_REG_CHANNEL_ERROR_GP_GET, GC_REG_CHANNEL_ERROR_METHOD,
          GC_REG_CHANNEL_ERROR_DATA, GC_REG_CHANNEL_METHODS: d.hit = 1'b1;
          default: d.hit = 1'b0;
        endcase
      end
    end
    return d;
  endfunction

  logic [NCH-1:0] fault_map;
  always_comb begin
    for (int c = 0; c < NCH; c++) fault_map[c] = (err_cause_q[c] != ERROR_CAUSE_NONE);
  end

  // Value a register reads as (0 when not mapped).
  function automatic logic [31:0] reg_value(input dec_t d);
    logic [31:0] v;
    v = '0;
    if (d.hit && !d.is_ch) begin
      unique case (d.off)
        GC_REG_GLOBAL_ID:      v = GC_ID;
        GC_REG_GLOBAL_VERSION: v = GC_VERSION;
        GC_REG_GLOBAL_CONFIG: begin
          v[GC_GLOBAL_CONFIG_NUM_CHANNELS_LSB +: GC_GLOBAL_CONFIG_NUM_CHANNELS_W] =
              GC_GLOBAL_CONFIG_NUM_CHANNELS_W'(GC_NUM_CHANNELS);
          v[GC_GLOBAL_CONFIG_NUM_RUNLISTS_LSB +: GC_GLOBAL_CONFIG_NUM_RUNLISTS_W] =
              GC_GLOBAL_CONFIG_NUM_RUNLISTS_W'(GC_NUM_RUNLISTS);
          v[GC_GLOBAL_CONFIG_NUM_CE_LSB +: GC_GLOBAL_CONFIG_NUM_CE_W] =
              GC_GLOBAL_CONFIG_NUM_CE_W'(GC_NUM_CE);
          v[GC_GLOBAL_CONFIG_DATA_BYTES_LSB +: GC_GLOBAL_CONFIG_DATA_BYTES_W] =
              GC_GLOBAL_CONFIG_DATA_BYTES_W'(GC_AXI_DATA_W / 8);
        end
        GC_REG_GLOBAL_INTR_STATUS:    v = intr_status_q;
        GC_REG_GLOBAL_INTR_ENABLE:    v = intr_enable_q;
        GC_REG_GLOBAL_CYCLE_LO:       v = cycle_q[31:0];
        GC_REG_GLOBAL_CYCLE_HI:       v = cycle_hi_q;
        GC_REG_GLOBAL_FAULT_CHANNELS: v = 32'(fault_map);
        GC_REG_GLOBAL_DBG_PBDMA: begin
          v[GC_GLOBAL_DBG_PBDMA_STATE_LSB +: GC_GLOBAL_DBG_PBDMA_STATE_W]     = dbg_pbdma_state_i;
          v[GC_GLOBAL_DBG_PBDMA_CHANNEL_LSB +: GC_GLOBAL_DBG_PBDMA_CHANNEL_W] = dbg_pbdma_ch_i;
          v[GC_GLOBAL_DBG_PBDMA_PB_LEFT_LSB +: GC_GLOBAL_DBG_PBDMA_PB_LEFT_W] = dbg_pbdma_pb_left_i;
        end
        GC_REG_GLOBAL_DBG_CE: begin
          v[GC_GLOBAL_DBG_CE_STATE_LSB +: GC_GLOBAL_DBG_CE_STATE_W]     = dbg_ce_state_i;
          v[GC_GLOBAL_DBG_CE_RD_OUT_LSB +: GC_GLOBAL_DBG_CE_RD_OUT_W]   = dbg_ce_rd_out_i;
          v[GC_GLOBAL_DBG_CE_CHANNEL_LSB +: GC_GLOBAL_DBG_CE_CHANNEL_W] = dbg_ce_ch_i;
        end
        GC_REG_GLOBAL_CE_BYTES_LO:    v = ce_bytes_i;
        GC_REG_GLOBAL_CE_BUSY_CYCLES: v = ce_busy_cycles_i;
        default: v = '0;
      endcase
    end else if (d.hit) begin
      unique case (d.off)
        GC_REG_CHANNEL_GPFIFO_BASE_LO: v = {base_lo_q[d.ch], ENTRY_LSB'(0)};
        GC_REG_CHANNEL_GPFIFO_BASE_HI:
          v[GC_CHANNEL_GPFIFO_BASE_HI_HI_LSB +: GC_CHANNEL_GPFIFO_BASE_HI_HI_W] = base_hi_q[d.ch];
        GC_REG_CHANNEL_GPFIFO_SIZE:
          v[GC_CHANNEL_GPFIFO_SIZE_LOG2_LSB +: GC_CHANNEL_GPFIFO_SIZE_LOG2_W] = log2_q[d.ch];
        GC_REG_CHANNEL_GP_PUT: v = gp_put_q[d.ch];
        GC_REG_CHANNEL_GP_GET: v = gp_get_q[d.ch];
        GC_REG_CHANNEL_CTRL:
          v[GC_CHANNEL_CTRL_ENABLE_LSB +: GC_CHANNEL_CTRL_ENABLE_W] = enable_q[d.ch];
        GC_REG_CHANNEL_RUNLIST:
          v[GC_CHANNEL_RUNLIST_ID_LSB +: GC_CHANNEL_RUNLIST_ID_W] = runlist_q[d.ch];
        GC_REG_CHANNEL_ERROR:
          v[GC_CHANNEL_ERROR_CAUSE_LSB +: GC_CHANNEL_ERROR_CAUSE_W] = err_cause_q[d.ch];
        GC_REG_CHANNEL_ERROR_GP_GET: v = err_gp_get_q[d.ch];
        GC_REG_CHANNEL_ERROR_METHOD: v = err_method_q[d.ch];
        GC_REG_CHANNEL_ERROR_DATA:   v = err_data_q[d.ch];
        GC_REG_CHANNEL_METHODS:      v = methods_q[d.ch];
        default: v = '0;
      endcase
    end
    return v;
  endfunction

  // ------------------------------------------------------------------------------------------
  // Write decode
  // ------------------------------------------------------------------------------------------
  dec_t        wdec, rdec;
  logic        do_write, do_read;
  logic [31:0] wmask, wval;

  assign wdec     = decode(aw_addr_q);
  assign rdec     = decode(s_araddr_i);
  assign do_write = aw_have_q && w_have_q && !b_valid_q;
  assign do_read  = s_arvalid_i && s_arready_o;

  always_comb begin
    for (int b = 0; b < 4; b++) wmask[8*b +: 8] = {8{w_strb_q[b]}};
  end
  // Register value after the write: unstrobed bytes keep the register's current value.
  assign wval = (reg_value(wdec) & ~wmask) | (w_data_q & wmask);

  // Per-register write strobes (channel registers for channel wdec.ch)
  logic wr_ch, wr_glob;
  assign wr_ch   = do_write && wdec.hit && wdec.is_ch;
  assign wr_glob = do_write && wdec.hit && !wdec.is_ch;

  logic we_base_lo, we_base_hi, we_size, we_gp_put, we_ctrl, we_runlist;
  assign we_base_lo = wr_ch && (wdec.off == GC_REG_CHANNEL_GPFIFO_BASE_LO);
  assign we_base_hi = wr_ch && (wdec.off == GC_REG_CHANNEL_GPFIFO_BASE_HI);
  assign we_size    = wr_ch && (wdec.off == GC_REG_CHANNEL_GPFIFO_SIZE);
  assign we_gp_put  = wr_ch && (wdec.off == GC_REG_CHANNEL_GP_PUT);
  assign we_ctrl    = wr_ch && (wdec.off == GC_REG_CHANNEL_CTRL);
  assign we_runlist = wr_ch && (wdec.off == GC_REG_CHANNEL_RUNLIST);

  logic [LW-1:0] w_log2;
  logic          w_enable, w_reset, w_log2_bad, w_put_bad;
  assign w_log2   = wval[GC_CHANNEL_GPFIFO_SIZE_LOG2_LSB +: GC_CHANNEL_GPFIFO_SIZE_LOG2_W];
  assign w_enable = wval[GC_CHANNEL_CTRL_ENABLE_LSB];
  assign w_reset  = wval[GC_CHANNEL_CTRL_RESET_LSB];

  function automatic logic log2_bad(input logic [LW-1:0] l);
    return (32'(l) < GC_GPFIFO_LOG2_MIN) || (32'(l) > GC_GPFIFO_LOG2_MAX);
  endfunction

  assign w_log2_bad = log2_bad(w_log2);
  // GP_PUT must be below 2^LOG2
  assign w_put_bad  = (wval >> log2_q[wdec.ch]) != 32'd0;

  // Faults raised by the register block itself
  logic          rf_valid;
  error_cause_e  rf_cause;
  logic [31:0]   rf_data;
  always_comb begin
    rf_valid = 1'b0;
    rf_cause = ERROR_CAUSE_NONE;
    rf_data  = '0;
    if (we_gp_put && w_put_bad) begin
      rf_valid = 1'b1;
      rf_cause = ERROR_CAUSE_BAD_GP_PUT;
      rf_data  = wval;
    end else if (we_ctrl && !w_reset && w_enable && log2_bad(log2_q[wdec.ch])) begin
      rf_valid = 1'b1;
      rf_cause = ERROR_CAUSE_BAD_RING;
      rf_data  = 32'(log2_q[wdec.ch]);
    end else if (we_size && enable_q[wdec.ch] && w_log2_bad) begin
      rf_valid = 1'b1;
      rf_cause = ERROR_CAUSE_BAD_RING;
      rf_data  = 32'(w_log2);
    end
  end

  always_comb begin
    ch_reset_o = '0;
    if (we_ctrl && w_reset) ch_reset_o[wdec.ch] = 1'b1;
  end

  // ------------------------------------------------------------------------------------------
  // AXI4-Lite handshakes
  // ------------------------------------------------------------------------------------------
  assign s_awready_o = !aw_have_q;
  assign s_wready_o  = !w_have_q;
  assign s_bvalid_o  = b_valid_q;
  assign s_bresp_o   = b_resp_q;
  assign s_arready_o = !r_valid_q;
  assign s_rvalid_o  = r_valid_q;
  assign s_rdata_o   = r_data_q;
  assign s_rresp_o   = r_resp_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      aw_have_q <= 1'b0;
      w_have_q  <= 1'b0;
      b_valid_q <= 1'b0;
      r_valid_q <= 1'b0;
      aw_addr_q <= '0;
      w_data_q  <= '0;
      w_strb_q  <= '0;
      b_resp_q  <= RESP_OKAY;
      r_resp_q  <= RESP_OKAY;
      r_data_q  <= '0;
    end else begin
      if (s_awvalid_i && s_awready_o) begin
        aw_have_q <= 1'b1;
        aw_addr_q <= s_awaddr_i;
      end
      if (s_wvalid_i && s_wready_o) begin
        w_have_q <= 1'b1;
        w_data_q <= s_wdata_i;
        w_strb_q <= s_wstrb_i;
      end
      if (s_bvalid_o && s_bready_i) b_valid_q <= 1'b0;
      if (do_write) begin
        aw_have_q <= 1'b0;
        w_have_q  <= 1'b0;
        b_valid_q <= 1'b1;
        b_resp_q  <= wdec.hit ? RESP_OKAY : RESP_SLVERR;
      end
      if (s_rvalid_o && s_rready_i) r_valid_q <= 1'b0;
      if (do_read) begin
        r_valid_q <= 1'b1;
        r_data_q  <= reg_value(rdec);
        r_resp_q  <= rdec.hit ? RESP_OKAY : RESP_SLVERR;
      end
    end
  end

  // ------------------------------------------------------------------------------------------
  // Global registers
  // ------------------------------------------------------------------------------------------
  logic fault_recorded;  // some channel recorded a fault this cycle
  always_comb begin
    fault_recorded = 1'b0;
    for (int c = 0; c < NCH; c++) begin
      if (err_cause_q[c] == ERROR_CAUSE_NONE && !ch_reset_o[c] &&
          ((fault_valid_i && 32'(fault_ch_i) == c) || (rf_valid && 32'(wdec.ch) == c))) begin
        fault_recorded = 1'b1;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      intr_status_q <= '0;
      intr_enable_q <= '0;
      cycle_q       <= '0;
      cycle_hi_q    <= '0;
    end else begin
      cycle_q <= cycle_q + 64'd1;
      if (do_read && rdec.hit && !rdec.is_ch && rdec.off == GC_REG_GLOBAL_CYCLE_LO) begin
        cycle_hi_q <= cycle_q[63:32];
      end
      if (wr_glob && wdec.off == GC_REG_GLOBAL_INTR_ENABLE) intr_enable_q <= wval & INTR_MASK;
      // w1c; a new event in the same cycle wins over the clear
      if (wr_glob && wdec.off == GC_REG_GLOBAL_INTR_STATUS) begin
        intr_status_q <= intr_status_q & ~(w_data_q & wmask) & INTR_MASK;
      end
      if (fault_recorded) intr_status_q[GC_GLOBAL_INTR_STATUS_CHANNEL_FAULT_LSB] <= 1'b1;
      if (nonstall_i)     intr_status_q[GC_GLOBAL_INTR_STATUS_NON_STALL_LSB] <= 1'b1;
    end
  end

  assign irq_o = |(intr_status_q & intr_enable_q);

  // ------------------------------------------------------------------------------------------
  // Channel registers
  // ------------------------------------------------------------------------------------------
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      base_lo_q    <= '0;
      base_hi_q    <= '0;
      log2_q       <= '0;
      gp_put_q     <= '0;
      gp_get_q     <= '0;
      enable_q     <= '0;
      runlist_q    <= '0;
      err_gp_get_q <= '0;
      err_method_q <= '0;
      err_data_q   <= '0;
      methods_q    <= '0;
      for (int c = 0; c < NCH; c++) err_cause_q[c] <= ERROR_CAUSE_NONE;
    end else begin
      for (int c = 0; c < NCH; c++) begin
        // PBDMA updates
        if (gp_get_we_i && 32'(gp_get_ch_i) == c) gp_get_q[c] <= gp_get_val_i;
        if (mthd_inc_i && 32'(mthd_ch_i) == c)    methods_q[c] <= methods_q[c] + 32'd1;
        // Fault record: first error wins; the PBDMA's record wins over a register-block fault
        if (err_cause_q[c] == ERROR_CAUSE_NONE) begin
          if (fault_valid_i && 32'(fault_ch_i) == c) begin
            err_cause_q[c]  <= fault_cause_i;
            err_gp_get_q[c] <= fault_gp_get_i;
            err_method_q[c] <= fault_method_i;
            err_data_q[c]   <= fault_data_i;
          end else if (rf_valid && 32'(wdec.ch) == c) begin
            err_cause_q[c]  <= rf_cause;
            err_gp_get_q[c] <= gp_get_q[c];
            err_method_q[c] <= '0;
            err_data_q[c]   <= rf_data;
          end
        end
        // Host writes
        if (32'(wdec.ch) == c) begin
          if (we_base_lo) base_lo_q[c] <= wval[31:ENTRY_LSB];
          if (we_base_hi) begin
            base_hi_q[c] <= wval[GC_CHANNEL_GPFIFO_BASE_HI_HI_LSB +: GC_CHANNEL_GPFIFO_BASE_HI_HI_W];
          end
          if (we_size)    log2_q[c] <= w_log2;
          if (we_gp_put && !w_put_bad) gp_put_q[c] <= wval;
          if (we_ctrl)    enable_q[c] <= w_enable;
          if (we_runlist) runlist_q[c] <= wval[GC_CHANNEL_RUNLIST_ID_LSB +: GC_CHANNEL_RUNLIST_ID_W];
        end
        // CTRL.RESET: last, so it wins over everything above
        if (ch_reset_o[c]) begin
          enable_q[c]     <= 1'b0;
          gp_put_q[c]     <= '0;
          gp_get_q[c]     <= '0;
          err_cause_q[c]  <= ERROR_CAUSE_NONE;
          err_gp_get_q[c] <= '0;
          err_method_q[c] <= '0;
          err_data_q[c]   <= '0;
        end
      end
    end
  end

  // ------------------------------------------------------------------------------------------
  // Outputs to the PBDMA
  // ------------------------------------------------------------------------------------------
  always_comb begin
    for (int c = 0; c < NCH; c++) begin
      ch_gpfifo_base_o[c] = {base_hi_q[c], base_lo_q[c], ENTRY_LSB'(0)};
    end
  end
  assign ch_enable_o      = enable_q;
  assign ch_err_o         = fault_map;
  assign ch_gpfifo_log2_o = log2_q;
  assign ch_gp_put_o      = gp_put_q;
  assign ch_gp_get_o      = gp_get_q;

endmodule
