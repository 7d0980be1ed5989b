// tb_eng_pins: gc_eng_pkg's engine command and atomic-unit ports of a block (the engine side)
// onto the flat pins of a block bench top (ce_tb_top), which the C++ models drive.  Wires only.
`include "tb_eng_pins.svh"
module tb_eng_pins
  import gpucosim_pkg::*;
  import gc_eng_pkg::*;
(
  output eng_req_t eng_req_o,   // to the block
  input  eng_rsp_t eng_rsp_i,
  input  aq_req_t  aq_req_i,    // from the block
  output aq_rsp_t  aq_rsp_o,
  `TB_ENG_CMD_PINS,
  `TB_AQ_PINS
);

  assign eng_req_o = '{valid: cmd_valid_i,
                       cmd: '{ch: cmd_ch_i, src: cmd_src_i, dst: cmd_dst_i,
                              line_len: cmd_line_len_i, line_count: cmd_line_count_i,
                              pitch_in: cmd_pitch_in_i, pitch_out: cmd_pitch_out_i,
                              copy: cmd_copy_i, remap: cmd_remap_i, const_a: cmd_const_a_i,
                              const_b: cmd_const_b_i, components: cmd_components_i,
                              sem: cmd_sem_i, sem_four: cmd_sem_four_i, sem_addr: cmd_sem_addr_i,
                              sem_payload: cmd_sem_payload_i, sem_reduce: cmd_sem_reduce_i,
                              sem_red: cmd_sem_red_i, sem_signed: cmd_sem_signed_i,
                              intr: cmd_intr_i}};
  assign {cmd_ready_o, done_o, done_err_o} = {eng_rsp_i.ready, eng_rsp_i.done, eng_rsp_i.done_err};

  assign {aq_valid_o, aq_op_o, aq_red_o, aq_signed_o, aq_size_o, aq_addr_o, aq_wdata_o} =
      {aq_req_i.valid, aq_req_i.op, aq_req_i.red, aq_req_i.is_signed, aq_req_i.size,
       aq_req_i.addr, aq_req_i.wdata};
  assign aq_rsp_o = '{ready: aq_ready_i, valid: as_valid_i, rdata: as_rdata_i, err: as_err_i};

  // the command's channel comes back on done_ch; the bench reads it on ch_o
  logic unused_pins;
  assign unused_pins = ^{eng_rsp_i.done_ch};

endmodule
