// gc_pbdma_eng: engine dispatch of one PBDMA (part of gc_pbdma): the command register of the
// runlist's engine and the per-channel record of the work each channel has in flight.
//
//   command   launch_i (a copy LAUNCH_DMA decoded by the FSM) loads the copy command from the
//             channel's method registers and the LAUNCH_DMA dword; launch_cp_i (a compute
//             SEND_SIGNALING_PCAS_B SCHEDULE) loads the TMD address SEND_PCAS_A << 8 (gc_eng_pkg's
//             eng_req_t). Its valid is held until the engine takes it (cmd_hs_o), dropped when
//             the FSM faults.
//   in flight ce_pend_o[ch]: the channel's copy / task was taken and is not done (eng_rsp_i.done,
//             with its channel on eng_rsp_i.done_ch on runlist 0; on a copy runlist the one copy's
//             channel). A copy engine runs one command at a time (eng_excl_o while busy); the
//             compute engine takes several channels' tasks (only a channel's own task holds it).
//   faults    ce_fault_o: the engine reported an error for a command in flight whose channel
//             was not reset meanwhile; the record (GP_GET, method, data of the launching method)
//             was kept per channel when the command was taken (written by index).
module gc_pbdma_eng
  import gpucosim_pkg::*;
  import gc_pbdma_pkg::*;
  import gc_eng_pkg::*;
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
  input  logic [GPI_W-1:0]     gp_get_i,         // fault record of the command
  input  mref_t                method_i,
  input  logic [31:0]          data_i,

  // To the FSM and the scheduler
  output logic                 cmd_hs_o,         // the engine took the command
  output logic [NCH-1:0]       ce_pend_o,
  output logic                 ce_busy_o,        // a copy is running
  output logic                 eng_excl_o,       // the engine is busy for every channel
  output logic                 cur_eng_wait_o,   // the resident channel's engine wait is not over
  output logic                 ce_fault_o,
  output logic [CH_W-1:0]      done_ch_o,        // the channel of eng_rsp_i.done
  output logic [GPI_W-1:0]     flt_gp_get_o,     // done_ch_o's fault record
  output mref_t                flt_method_o,
  output logic [31:0]          flt_data_o,
  output logic                 still_o,          // no register here changes this cycle, given
                                                 // no launch or fault by the FSM

  // Engine command port (gc_eng_pkg)
  output eng_req_t             eng_req_o,
  input  eng_rsp_t             eng_rsp_i
);

  localparam bit HAS_CE  = (RL >= 1) && (RL <= GC_NUM_CE);
  localparam bit HAS_CP  = (RL == 0);              // the compute engine
  localparam bit HAS_ENG = HAS_CE || HAS_CP;

  logic                 cmd_valid_q, cmd_valid;
  eng_cmd_t             cmd_q;               // its ch is not used: the command's is cur_ch_i
  logic                 ce_busy_q;           // a command was accepted and is not done
  logic [CH_W-1:0]      ce_ch_q;
  logic [NCH-1:0]       ce_pend_q;           // a copy / task of the channel is not done yet
  // Per channel, for the fault record of its command in flight (copy: only ce_ch_q's is used)
  logic [NCH-1:0]       ce_cancel_q;         // the channel was reset meanwhile: ignore its error
  logic [GPI_W-1:0]     ce_gp_get_q [NCH];
  mref_t                ce_method_q [NCH];
  logic [31:0]          ce_data_q   [NCH];

  logic [CH_W-1:0] done_ch;
  logic            done_v;
  assign eng_excl_o     = HAS_CE && ce_busy_q;
  assign cur_eng_wait_o = HAS_CP ? ce_pend_q[cur_ch_i] : ce_busy_q;
  assign done_ch        = HAS_CP ? CH_W'(eng_rsp_i.done_ch) : ce_ch_q;
  assign done_v         = eng_rsp_i.done && ce_pend_q[done_ch];
  assign cmd_valid      = HAS_ENG && cmd_valid_q && !eng_excl_o && !abort_i;
  assign cmd_hs_o       = cmd_valid && eng_rsp_i.ready;
  assign ce_fault_o     = done_v && eng_rsp_i.done_err && !ce_cancel_q[done_ch];
  assign done_ch_o      = done_ch;
  assign flt_gp_get_o   = ce_gp_get_q[done_ch];
  assign flt_method_o   = ce_method_q[done_ch];
  assign flt_data_o     = ce_data_q[done_ch];
  assign ce_pend_o      = ce_pend_q;
  // still_o: no command offered, no completion from the engine, no channel with work in flight
  // being reset: then, in a cycle without a launch or a fault by the FSM (launch, launch_cp,
  // clear all 0), every register below keeps its value (gc_pbdma's still_o)
  assign still_o        = !cmd_valid_q && !eng_rsp_i.done && ((ce_pend_q & ch_reset_i) == '0);
  assign ce_busy_o      = ce_busy_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cmd_valid_q       <= 1'b0;
      cmd_q             <= '0;
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
        cmd_q.src         <= {mreg_i[MR_OFS_IN_UPPER][GC_COPY_OFFSET_IN_UPPER_UPPER_LSB +: HI_W],
                              mreg_i[MR_OFS_IN_LOWER]};
        cmd_q.dst         <= {mreg_i[MR_OFS_OUT_UPPER][GC_COPY_OFFSET_OUT_UPPER_UPPER_LSB +: HI_W],
                              mreg_i[MR_OFS_OUT_LOWER]};
        cmd_q.line_len    <= mreg_i[MR_LINE_LEN];
        cmd_q.line_count  <= (mthd_data_i[GC_COPY_LAUNCH_DMA_MULTI_LINE_ENABLE_LSB +:
                                          GC_COPY_LAUNCH_DMA_MULTI_LINE_ENABLE_W] ==
                              GC_COPY_LAUNCH_DMA_MULTI_LINE_ENABLE_TRUE) ?
                             mreg_i[MR_LINE_COUNT] : 32'd1;
        cmd_q.pitch_in    <= mreg_i[MR_PITCH_IN];
        cmd_q.pitch_out   <= mreg_i[MR_PITCH_OUT];
        cmd_q.copy        <= (mthd_data_i[GC_COPY_LAUNCH_DMA_DATA_TRANSFER_TYPE_LSB +:
                                          GC_COPY_LAUNCH_DMA_DATA_TRANSFER_TYPE_W] !=
                              GC_COPY_LAUNCH_DMA_DATA_TRANSFER_TYPE_NONE);
        cmd_q.remap       <= (mthd_data_i[GC_COPY_LAUNCH_DMA_REMAP_ENABLE_LSB +:
                                          GC_COPY_LAUNCH_DMA_REMAP_ENABLE_W] ==
                              GC_COPY_LAUNCH_DMA_REMAP_ENABLE_TRUE);
        cmd_q.const_a     <= mreg_i[MR_REMAP_A];
        cmd_q.const_b     <= mreg_i[MR_REMAP_B];
        cmd_q.components  <= mreg_i[MR_REMAP_COMP];
        cmd_q.sem         <= (mthd_data_i[GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE_LSB +:
                                          GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE_W] !=
                              GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE_NONE);
        cmd_q.sem_four    <= (mthd_data_i[GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE_LSB +:
                                          GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE_W] ==
                              GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE_RELEASE_FOUR_WORD_SEMAPHORE);
        cmd_q.sem_addr    <= {mreg_i[MR_CE_SEM_A][GC_COPY_SET_SEMAPHORE_A_UPPER_LSB +: HI_W],
                              mreg_i[MR_CE_SEM_B]};
        cmd_q.sem_payload <= mreg_i[MR_CE_SEM_PAY];
        cmd_q.sem_reduce  <= sem_reduce_i;
        cmd_q.sem_red     <= sem_red_i;
        cmd_q.sem_signed  <= (mthd_data_i[GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_SIGN_LSB +:
                                          GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_SIGN_W] ==
                              GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_SIGN_SIGNED);
        cmd_q.intr        <= (mthd_data_i[GC_COPY_LAUNCH_DMA_INTERRUPT_TYPE_LSB +:
                                          GC_COPY_LAUNCH_DMA_INTERRUPT_TYPE_W] ==
                              GC_COPY_LAUNCH_DMA_INTERRUPT_TYPE_NON_BLOCKING);
      end
      if (launch_cp_i) begin
        // compute: the TMD address; nothing else of the command is used
        cmd_valid_q       <= 1'b1;
        cmd_q.src         <= AW'({mreg_i[MR_PCAS_A], 8'h00});
        cmd_q.dst         <= '0;
        cmd_q.line_len    <= '0;
        cmd_q.line_count  <= '0;
        cmd_q.copy        <= 1'b0;
        cmd_q.remap       <= 1'b0;
        cmd_q.sem         <= 1'b0;
        cmd_q.sem_four    <= 1'b0;
        cmd_q.sem_reduce  <= 1'b0;
        cmd_q.intr        <= 1'b0;
      end
      if (cmd_hs_o || clear_i) cmd_valid_q <= 1'b0;
      if (cmd_hs_o) begin
        ce_busy_q <= 1'b1;
        ce_ch_q   <= cur_ch_i;
      end else if (eng_rsp_i.done && ce_busy_q) begin
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

  always_comb begin
    eng_req_o.valid  = cmd_valid;
    eng_req_o.cmd    = cmd_q;
    eng_req_o.cmd.ch = 8'(cur_ch_i);
  end

  // Only some fields of the method data and registers form a command; eng_rsp_i.done_ch beyond
  // the channel bits (and on the copy runlists entirely) is not used, nor cmd_q.ch (cur_ch_i is).
  logic unused_eng;
  assign unused_eng = ^{mthd_data_i, mreg_i, eng_rsp_i.done_ch, cmd_q.ch};

endmodule
