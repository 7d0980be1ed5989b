// gc_pbdma_eng: engine dispatch of one PBDMA (part of gc_pbdma): the command register of the
// runlist's engine and the per-channel record of the work each channel has in flight.
//
//   command   launch_i (a copy LAUNCH_DMA decoded by the FSM) loads the copy command from the
//             channel's method registers and the LAUNCH_DMA dword; launch_cp_i (a compute
//             SEND_SIGNALING_PCAS_B SCHEDULE) loads the TMD address SEND_PCAS_A << 8. cmd_valid_o
//             is held until the engine takes it (cmd_hs_o), dropped when the FSM faults.
//   in flight ce_pend_o[ch]: the channel's copy / task was taken and is not done (ce_done_i,
//             with its channel on ce_done_ch_i on runlist 0; on a copy runlist the one copy's
//             channel). A copy engine runs one command at a time (eng_excl_o while busy); the
//             compute engine takes several channels' tasks (only a channel's own task holds it).
//   faults    ce_fault_o: the engine reported an error for a command in flight whose channel
//             was not reset meanwhile; the record (GP_GET, method, data of the launching method)
//             was kept per channel when the command was taken (written by index).
module gc_pbdma_eng
  import gpucosim_pkg::*;
  import gc_pbdma_pkg::*;
#(
  parameter int unsigned RL = 0
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic [NCH-1:0]       ch_reset_i,

  // From the FSM
  input  logic [CH_W-1:0]      cur_ch_i,
  input  logic                 abort_i,          // the resident channel is being abandoned
  input  logic                 clear_i,          // the FSM faults: drop the command
  input  logic                 launch_i,         // copy LAUNCH_DMA
  input  logic                 launch_cp_i,      // compute SEND_SIGNALING_PCAS_B SCHEDULE
  input  logic [31:0]          mthd_data_i,      // the launching method's data
  input  logic [NMREG-1:0][31:0] mreg_i,         // the resident channel's method registers
  input  logic                 sem_reduce_i,     // LAUNCH_DMA: the release is a reduction ...
  input  logic [GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_W-1:0] sem_red_i,   // ... this one
  input  logic [31:0]          gp_get_i,         // fault record of the command
  input  logic [31:0]          method_i,
  input  logic [31:0]          data_i,

  // To the FSM and the scheduler
  output logic                 cmd_hs_o,         // the engine took the command
  output logic [NCH-1:0]       ce_pend_o,
  output logic                 ce_busy_o,        // a copy is running
  output logic                 eng_excl_o,       // the engine is busy for every channel
  output logic                 cur_eng_wait_o,   // the resident channel's engine wait is not over
  output logic                 ce_fault_o,
  output logic [CH_W-1:0]      done_ch_o,        // the channel of ce_done_i
  output logic [31:0]          flt_gp_get_o,     // done_ch_o's fault record
  output logic [31:0]          flt_method_o,
  output logic [31:0]          flt_data_o,

  // Engine command
  output logic                 cmd_valid_o,
  input  logic                 cmd_ready_i,
  output logic [7:0]           cmd_ch_o,
  output logic [AW-1:0]        cmd_src_o,
  output logic [AW-1:0]        cmd_dst_o,
  output logic [31:0]          cmd_line_len_o,
  output logic [31:0]          cmd_line_count_o,
  output logic [31:0]          cmd_pitch_in_o,
  output logic [31:0]          cmd_pitch_out_o,
  output logic                 cmd_copy_o,
  output logic                 cmd_remap_o,
  output logic [31:0]          cmd_const_a_o,
  output logic [31:0]          cmd_const_b_o,
  output logic [31:0]          cmd_components_o,
  output logic                 cmd_sem_o,
  output logic                 cmd_sem_four_o,
  output logic [AW-1:0]        cmd_sem_addr_o,
  output logic [31:0]          cmd_sem_payload_o,
  output logic                 cmd_sem_reduce_o,
  output logic [GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_W-1:0] cmd_sem_red_o,
  output logic                 cmd_sem_signed_o,
  output logic                 cmd_intr_o,
  input  logic                 ce_done_i,
  input  logic                 ce_done_err_i,
  input  logic [7:0]           ce_done_ch_i
);

  localparam bit HAS_CE  = (RL >= 1) && (RL <= GC_NUM_CE);
  localparam bit HAS_CP  = (RL == 0);              // the compute engine
  localparam bit HAS_ENG = HAS_CE || HAS_CP;

  logic                 cmd_valid_q;
  logic [AW-1:0]        cmd_src_q, cmd_dst_q, cmd_sem_addr_q;
  logic [31:0]          cmd_line_len_q, cmd_line_count_q, cmd_pitch_in_q, cmd_pitch_out_q;
  logic [31:0]          cmd_sem_payload_q, cmd_const_a_q, cmd_const_b_q, cmd_components_q;
  logic                 cmd_copy_q, cmd_sem_q, cmd_sem_four_q, cmd_intr_q, cmd_remap_q;
  logic                 cmd_sem_reduce_q, cmd_sem_signed_q;
  logic [GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_W-1:0] cmd_sem_red_q;
  logic                 ce_busy_q;           // a command was accepted and is not done
  logic [CH_W-1:0]      ce_ch_q;
  logic [NCH-1:0]       ce_pend_q;           // a copy / task of the channel is not done yet
  // Per channel, for the fault record of its command in flight (copy: only ce_ch_q's is used)
  logic [NCH-1:0]       ce_cancel_q;         // the channel was reset meanwhile: ignore its error
  logic [31:0]          ce_gp_get_q [NCH];
  logic [31:0]          ce_method_q [NCH];
  logic [31:0]          ce_data_q   [NCH];

  logic [CH_W-1:0] done_ch;
  logic            done_v;
  assign eng_excl_o     = HAS_CE && ce_busy_q;
  assign cur_eng_wait_o = HAS_CP ? ce_pend_q[cur_ch_i] : ce_busy_q;
  assign done_ch        = HAS_CP ? CH_W'(ce_done_ch_i) : ce_ch_q;
  assign done_v         = ce_done_i && ce_pend_q[done_ch];
  assign cmd_valid_o    = HAS_ENG && cmd_valid_q && !eng_excl_o && !abort_i;
  assign cmd_hs_o       = cmd_valid_o && cmd_ready_i;
  assign ce_fault_o     = done_v && ce_done_err_i && !ce_cancel_q[done_ch];
  assign done_ch_o      = done_ch;
  assign flt_gp_get_o   = ce_gp_get_q[done_ch];
  assign flt_method_o   = ce_method_q[done_ch];
  assign flt_data_o     = ce_data_q[done_ch];
  assign ce_pend_o      = ce_pend_q;
  assign ce_busy_o      = ce_busy_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cmd_valid_q       <= 1'b0;
      cmd_src_q         <= '0;
      cmd_dst_q         <= '0;
      cmd_sem_addr_q    <= '0;
      cmd_line_len_q    <= '0;
      cmd_line_count_q  <= '0;
      cmd_pitch_in_q    <= '0;
      cmd_pitch_out_q   <= '0;
      cmd_sem_payload_q <= '0;
      cmd_const_a_q     <= '0;
      cmd_const_b_q     <= '0;
      cmd_components_q  <= '0;
      cmd_copy_q        <= 1'b0;
      cmd_sem_q         <= 1'b0;
      cmd_sem_four_q    <= 1'b0;
      cmd_sem_reduce_q  <= 1'b0;
      cmd_sem_red_q     <= '0;
      cmd_sem_signed_q  <= 1'b0;
      cmd_intr_q        <= 1'b0;
      cmd_remap_q       <= 1'b0;
      ce_busy_q         <= 1'b0;
      ce_ch_q           <= '0;
      ce_cancel_q       <= '0;
      ce_pend_q         <= '0;
      for (int c = 0; c < NCH; c++) begin
        ce_gp_get_q[c] <= '0;
        ce_method_q[c] <= '0;
        ce_data_q[c]   <= '0;
      end
    end else begin
      logic [NCH-1:0] pend_n, cancel_n;
      if (launch_i) begin
        cmd_valid_q       <= 1'b1;
        cmd_src_q         <= {mreg_i[MR_OFS_IN_UPPER][GC_COPY_OFFSET_IN_UPPER_UPPER_LSB +: HI_W],
                              mreg_i[MR_OFS_IN_LOWER]};
        cmd_dst_q         <= {mreg_i[MR_OFS_OUT_UPPER][GC_COPY_OFFSET_OUT_UPPER_UPPER_LSB +: HI_W],
                              mreg_i[MR_OFS_OUT_LOWER]};
        cmd_line_len_q    <= mreg_i[MR_LINE_LEN];
        cmd_line_count_q  <= (mthd_data_i[GC_COPY_LAUNCH_DMA_MULTI_LINE_ENABLE_LSB +:
                                          GC_COPY_LAUNCH_DMA_MULTI_LINE_ENABLE_W] ==
                              GC_COPY_LAUNCH_DMA_MULTI_LINE_ENABLE_TRUE) ?
                             mreg_i[MR_LINE_COUNT] : 32'd1;
        cmd_pitch_in_q    <= mreg_i[MR_PITCH_IN];
        cmd_pitch_out_q   <= mreg_i[MR_PITCH_OUT];
        cmd_copy_q        <= (mthd_data_i[GC_COPY_LAUNCH_DMA_DATA_TRANSFER_TYPE_LSB +:
                                          GC_COPY_LAUNCH_DMA_DATA_TRANSFER_TYPE_W] !=
                              GC_COPY_LAUNCH_DMA_DATA_TRANSFER_TYPE_NONE);
        cmd_remap_q       <= (mthd_data_i[GC_COPY_LAUNCH_DMA_REMAP_ENABLE_LSB +:
                                          GC_COPY_LAUNCH_DMA_REMAP_ENABLE_W] ==
                              GC_COPY_LAUNCH_DMA_REMAP_ENABLE_TRUE);
        cmd_const_a_q     <= mreg_i[MR_REMAP_A];
        cmd_const_b_q     <= mreg_i[MR_REMAP_B];
        cmd_components_q  <= mreg_i[MR_REMAP_COMP];
        cmd_sem_q         <= (mthd_data_i[GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE_LSB +:
                                          GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE_W] !=
                              GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE_NONE);
        cmd_sem_four_q    <= (mthd_data_i[GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE_LSB +:
                                          GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE_W] ==
                              GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE_RELEASE_FOUR_WORD_SEMAPHORE);
        cmd_sem_addr_q    <= {mreg_i[MR_CE_SEM_A][GC_COPY_SET_SEMAPHORE_A_UPPER_LSB +: HI_W],
                              mreg_i[MR_CE_SEM_B]};
        cmd_sem_payload_q <= mreg_i[MR_CE_SEM_PAY];
        cmd_sem_reduce_q  <= sem_reduce_i;
        cmd_sem_red_q     <= sem_red_i;
        cmd_sem_signed_q  <= (mthd_data_i[GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_SIGN_LSB +:
                                          GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_SIGN_W] ==
                              GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_SIGN_SIGNED);
        cmd_intr_q        <= (mthd_data_i[GC_COPY_LAUNCH_DMA_INTERRUPT_TYPE_LSB +:
                                          GC_COPY_LAUNCH_DMA_INTERRUPT_TYPE_W] ==
                              GC_COPY_LAUNCH_DMA_INTERRUPT_TYPE_NON_BLOCKING);
      end
      if (launch_cp_i) begin
        // compute: the TMD address; nothing else of the command is used
        cmd_valid_q       <= 1'b1;
        cmd_src_q         <= AW'({mreg_i[MR_PCAS_A], 8'h00});
        cmd_dst_q         <= '0;
        cmd_line_len_q    <= '0;
        cmd_line_count_q  <= '0;
        cmd_copy_q        <= 1'b0;
        cmd_remap_q       <= 1'b0;
        cmd_sem_q         <= 1'b0;
        cmd_sem_four_q    <= 1'b0;
        cmd_sem_reduce_q  <= 1'b0;
        cmd_intr_q        <= 1'b0;
      end
      if (cmd_hs_o || clear_i) cmd_valid_q <= 1'b0;
      if (cmd_hs_o) begin
        ce_busy_q <= 1'b1;
        ce_ch_q   <= cur_ch_i;
      end else if (ce_done_i && ce_busy_q) begin
        ce_busy_q <= 1'b0;
      end
      // Work in flight, written by index
      cancel_n = ce_cancel_q | (ce_pend_q & ch_reset_i);
      pend_n   = ce_pend_q;
      if (done_v) pend_n[done_ch] = 1'b0;
      if (cmd_hs_o) begin
        pend_n[cur_ch_i]      = 1'b1;
        cancel_n[cur_ch_i]    = 1'b0;
        ce_gp_get_q[cur_ch_i] <= gp_get_i;
        ce_method_q[cur_ch_i] <= method_i;
        ce_data_q[cur_ch_i]   <= data_i;
      end
      ce_pend_q   <= pend_n;
      ce_cancel_q <= cancel_n;
    end
  end

  assign cmd_ch_o          = 8'(cur_ch_i);
  assign cmd_src_o         = cmd_src_q;
  assign cmd_dst_o         = cmd_dst_q;
  assign cmd_line_len_o    = cmd_line_len_q;
  assign cmd_line_count_o  = cmd_line_count_q;
  assign cmd_pitch_in_o    = cmd_pitch_in_q;
  assign cmd_pitch_out_o   = cmd_pitch_out_q;
  assign cmd_copy_o        = cmd_copy_q;
  assign cmd_remap_o       = cmd_remap_q;
  assign cmd_const_a_o     = cmd_const_a_q;
  assign cmd_const_b_o     = cmd_const_b_q;
  assign cmd_components_o  = cmd_components_q;
  assign cmd_sem_o         = cmd_sem_q;
  assign cmd_sem_four_o    = cmd_sem_four_q;
  assign cmd_sem_addr_o    = cmd_sem_addr_q;
  assign cmd_sem_payload_o = cmd_sem_payload_q;
  assign cmd_sem_reduce_o  = cmd_sem_reduce_q;
  assign cmd_sem_red_o     = cmd_sem_red_q;
  assign cmd_sem_signed_o  = cmd_sem_signed_q;
  assign cmd_intr_o        = cmd_intr_q;

  // Only some fields of the method data and registers form a command; ce_done_ch_i beyond the
  // channel bits (and on the copy runlists entirely) is not used.
  logic unused_eng;
  assign unused_eng = ^{mthd_data_i, mreg_i, ce_done_ch_i};

endmodule
