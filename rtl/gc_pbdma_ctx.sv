// gc_pbdma_ctx: the per-channel context store of one PBDMA (part of gc_pbdma).
//
// One table per kind of state, indexed by channel, written only at the index the FSM names
// (the resident channel, or the channel being selected) and read at that index:
//   ctx      the method decoder context (sec_op, address, subchannel, count)
//   bind     the object bound to each subchannel by SET_OBJECT
//   mreg     the method registers (host semaphore, copy class, SEND_PCAS_A)
//   entry    for an entry left mid-way: its next undecoded dword address, dwords left,
//            GP_ENTRY0.GET (for fault data) and SYNC flag, valid while in_ent_o is set
//   eng_wait the channel left as a guest because the engine was busy
// A CTRL.RESET of a channel (ch_reset_i) wins over updates: it clears the channel's decoder
// context, bindings, method registers and saved entry; an error (ch_err_i) clears eng_wait.
// Nothing here runs per channel in a cycle without a reset. A second read port gives the saved
// entry of the prefetch unit's channel (pf_ch_i).
module gc_pbdma_ctx
  import gpucosim_pkg::*;
  import gc_pbdma_pkg::*;
(
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic [NCH-1:0]       ch_reset_i,
  input  logic [NCH-1:0]       ch_err_i,

  // Writes of the resident channel (wr_ch_i)
  input  logic [CH_W-1:0]      wr_ch_i,
  input  logic                 ctx_we_i,
  input  dec_ctx_t             ctx_i,
  input  logic                 mreg_we_i,
  input  mreg_e                mreg_sel_i,
  input  logic [31:0]          mreg_wdata_i,
  input  logic                 bind_we_i,
  input  logic [SC_W-1:0]      bind_subch_i,
  input  obj_e                 bind_obj_i,
  input  logic                 save_i,          // save the entry left mid-way
  input  logic [AW-1:2]        save_addr_i,
  input  logic [LEN_W-1:0]     save_left_i,
  input  logic [GC_GP_ENTRY0_GET_W-1:0] save_get_i,
  input  logic                 save_sync_i,
  input  logic                 eng_wait_set_i,  // wr_ch_i leaves as a guest for a busy engine

  // The channel being selected (sel_ch_i)
  input  logic [CH_W-1:0]      sel_ch_i,
  input  logic                 sel_i,           // selected: clear its eng_wait
  input  logic                 resume_i,        // resumed from its saved entry: clear in_ent
  input  logic [CH_W-1:0]      pf_ch_i,         // the prefetch unit's channel

  // Reads
  output dec_ctx_t             ctx_o,           // of wr_ch_i
  output logic [NMREG-1:0][31:0] mreg_o,        // of wr_ch_i
  output obj_e [NSUBCH-1:0]    bind_o,          // of wr_ch_i
  output logic [AW-1:2]        ent_addr_o,      // of sel_ch_i
  output logic [LEN_W-1:0]     ent_left_o,
  output logic [GC_GP_ENTRY0_GET_W-1:0] ent_get_o,
  output logic                 ent_sync_o,
  output logic [AW-1:2]        pf_addr_o,       // of pf_ch_i: its saved entry
  output logic [LEN_W-1:0]     pf_left_o,
  output logic [NCH-1:0]       in_ent_o,
  output logic [NCH-1:0]       eng_wait_o,
  output logic                 still_o          // no register here changes this cycle, given
                                                // no write or selection by the FSM
);

  dec_ctx_t             ctx_q   [NCH];
  obj_e [NSUBCH-1:0]    bind_q  [NCH];
  logic [NMREG-1:0][31:0] mreg_q [NCH];
  logic [NCH-1:0]       in_ent_q;            // saved mid-entry context valid
  logic [AW-1:2]        ent_addr_q [NCH];    // next undecoded dword
  logic [LEN_W-1:0]     ent_left_q [NCH];    // dwords left in the entry
  logic [GC_GP_ENTRY0_GET_W-1:0] ent_get_q [NCH];
  logic [NCH-1:0]       ent_sync_q;
  logic [NCH-1:0]       eng_wait_q;          // switched out waiting for the engine

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int c = 0; c < NCH; c++) begin
        ctx_q[c]      <= '0;
        bind_q[c]     <= {NSUBCH{OBJ_NONE}};
        mreg_q[c]     <= '0;
        ent_addr_q[c] <= '0;
        ent_left_q[c] <= '0;
        ent_get_q[c]  <= '0;
      end
      in_ent_q   <= '0;
      ent_sync_q <= '0;
      eng_wait_q <= '0;
    end else begin
      logic [NCH-1:0] in_ent_n, eng_wait_n;
      in_ent_n   = in_ent_q;
      eng_wait_n = eng_wait_q;

      if (ctx_we_i)  ctx_q[wr_ch_i] <= ctx_i;
      if (mreg_we_i) mreg_q[wr_ch_i][mreg_sel_i] <= mreg_wdata_i;
      if (bind_we_i) bind_q[wr_ch_i][bind_subch_i] <= bind_obj_i;

      // Mid-entry context
      if (resume_i) in_ent_n[sel_ch_i] = 1'b0;
      if (save_i) begin
        in_ent_n[wr_ch_i]    = 1'b1;
        ent_addr_q[wr_ch_i] <= save_addr_i;
        ent_left_q[wr_ch_i] <= save_left_i;
        ent_get_q[wr_ch_i]  <= save_get_i;
        ent_sync_q[wr_ch_i] <= save_sync_i;
      end
      if (sel_i)          eng_wait_n[sel_ch_i] = 1'b0;
      if (eng_wait_set_i) eng_wait_n[wr_ch_i]  = 1'b1;

      // Resets (only in the cycle of a CTRL.RESET write)
      eng_wait_n = eng_wait_n & ~(ch_reset_i | ch_err_i);
      in_ent_n   = in_ent_n & ~ch_reset_i;
      if (ch_reset_i != '0) begin
        for (int c = 0; c < NCH; c++) begin
          if (ch_reset_i[c]) begin
            ctx_q[c]  <= '0;
            bind_q[c] <= {NSUBCH{OBJ_NONE}};
            mreg_q[c] <= '0;
          end
        end
      end
      in_ent_q   <= in_ent_n;
      eng_wait_q <= eng_wait_n;
    end
  end

  assign ctx_o      = ctx_q[wr_ch_i];
  assign mreg_o     = mreg_q[wr_ch_i];
  assign bind_o     = bind_q[wr_ch_i];
  assign ent_addr_o = ent_addr_q[sel_ch_i];
  assign ent_left_o = ent_left_q[sel_ch_i];
  assign ent_get_o  = ent_get_q[sel_ch_i];
  assign ent_sync_o = ent_sync_q[sel_ch_i];
  assign pf_addr_o  = ent_addr_q[pf_ch_i];
  assign pf_left_o  = ent_left_q[pf_ch_i];
  // still_o: no CTRL.RESET and no channel waiting for the engine (eng_wait) in error: then, in a
  // cycle without a write or selection by the FSM (ctx_we, mreg_we, bind_we, save, resume, sel,
  // eng_wait_set all 0), every table and vector above keeps its value (gc_pbdma's still_o)
  assign still_o    = (ch_reset_i == '0) && ((eng_wait_q & ch_err_i) == '0);
  assign in_ent_o   = in_ent_q;
  assign eng_wait_o = eng_wait_q;

endmodule
