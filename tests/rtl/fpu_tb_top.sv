// fpu_tb_top: block-test wrapper for the SM's floating-point units (tests/rtl/fpu_tb.cpp): an
// F instruction word goes through gc_fp_pkg::fp_decode (as in gc_sm) to gc_sm_fpu (pipelined) or
// gc_sm_fdivsqrt (iterative) with NL lanes of operands and a resolved rounding mode per lane.
module fpu_tb_top
  import gpucosim_pkg::*;
  import gc_fp_pkg::*;
#(
  parameter int unsigned NL = 8
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,

  input  logic                 in_valid_i,
  input  logic [31:0]          instr_i,
  input  logic [NL-1:0][2:0]   rm_i,
  input  logic [NL-1:0][31:0]  a_i,
  input  logic [NL-1:0][31:0]  b_i,
  input  logic [NL-1:0][31:0]  c_i,
  output logic                 dec_legal_o,     // fp_decode of instr_i (combinational)
  output logic                 dec_rd_fp_o,
  output logic                 dec_rounds_o,
  output logic                 ds_ready_o,

  output logic                 fpu_valid_o,
  output logic [4:0]           fpu_rd_o,
  output logic                 fpu_rd_fp_o,
  output logic [NL-1:0][31:0]  fpu_data_o,
  output logic [NL-1:0][4:0]   fpu_flags_o,
  output logic                 ds_valid_o,
  output logic [NL-1:0][31:0]  ds_data_o,
  output logic [NL-1:0][4:0]   ds_flags_o
);
  fp_dec_t d;
  assign d            = fp_decode(instr_i);
  assign dec_legal_o  = d.is_f && d.legal;
  assign dec_rd_fp_o  = d.rd_fp;
  assign dec_rounds_o = d.rounds;

  logic          unused_tb;
  logic          ds_rd_fp_unused;
  logic [4:0]    ds_rd;
  logic          ds_w, fpu_w;
  logic [NL-1:0] ds_m, fpu_m;

  gc_sm_fpu #(.NL(NL), .WW(1)) u_fpu (
    .clk_i, .rst_ni,
    .req_valid_i (in_valid_i && dec_legal_o && !d.divsqrt),
    .req_op_i    (d.op),
    .req_warp_i  (1'b0),
    .req_rd_i    (instr_i[11:7]),
    .req_rd_fp_i (d.rd_fp),
    .req_mask_i  ('1),
    .req_rm_i    (rm_i),
    .req_a_i     (a_i),
    .req_b_i     (b_i),
    .req_c_i     (c_i),
    .wb_valid_o  (fpu_valid_o),
    .wb_warp_o   (fpu_w),
    .wb_rd_o     (fpu_rd_o),
    .wb_rd_fp_o  (fpu_rd_fp_o),
    .wb_mask_o   (fpu_m),
    .wb_data_o   (fpu_data_o),
    .wb_flags_o  (fpu_flags_o)
  );

  gc_sm_fdivsqrt #(.NL(NL), .WW(1)) u_ds (
    .clk_i, .rst_ni,
    .req_valid_i (in_valid_i && dec_legal_o && d.divsqrt),
    .req_ready_o (ds_ready_o),
    .req_sqrt_i  (d.op == FOP_SQRT),
    .req_warp_i  (1'b0),
    .req_rd_i    (instr_i[11:7]),
    .req_mask_i  ('1),
    .req_rm_i    (rm_i),
    .req_a_i     (a_i),
    .req_b_i     (b_i),
    .wb_valid_o  (ds_valid_o),
    .wb_warp_o   (ds_w),
    .wb_rd_o     (ds_rd),
    .wb_mask_o   (ds_m),
    .wb_data_o   (ds_data_o),
    .wb_flags_o  (ds_flags_o)
  );
  assign ds_rd_fp_unused = 1'b0;
  assign unused_tb = ^{ds_rd, ds_w, fpu_w, ds_m, fpu_m, ds_rd_fp_unused, d.load, d.store,
                       d.rs1_fp, d.rs2_fp, d.rs3_fp};
endmodule
