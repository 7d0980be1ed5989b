/* The pushbuffer builder: exact words, sticky errors, argument checks. */
#include "gpucosim/chan.h"
#include "gpucosim_spec.h"
#include "tcase.h"

static void t_copy_words(void) {
    uint32_t w[32];
    gc_pushbuf_t pb;
    gc_pb_init(&pb, w, 32);
    gc_pb_copy(&pb, 4, 0x0100001000ull, 0x0000002004ull, 4096, true, 0x0000003000ull, 7);
    REQUIRE_EQ(pb.status, GC_OK);
    REQUIRE_EQ(pb.len, 5 + 2 + 4 + 2);
    CHECK_EQ(w[0], 0x20048100u); /* INCR OFFSET_IN_UPPER x4, subch 4 */
    CHECK_EQ(w[1], 0x0u);        /* OFFSET_IN_UPPER */
    CHECK_EQ(w[2], 0x2004u);
    CHECK_EQ(w[3], 0x1u);        /* OFFSET_OUT_UPPER */
    CHECK_EQ(w[4], 0x1000u);
    CHECK_EQ(w[5], 0x20018106u); /* LINE_LENGTH_IN */
    CHECK_EQ(w[6], 4096u);
    CHECK_EQ(w[7], 0x20038090u); /* SET_SEMAPHORE_A x3 */
    CHECK_EQ(w[8], 0u);
    CHECK_EQ(w[9], 0x3000u);
    CHECK_EQ(w[10], 7u);
    CHECK_EQ(w[11], 0x200180C0u); /* LAUNCH_DMA */
    CHECK_EQ(w[12], 0x18Eu);
}

static void t_sem_release_words(void) {
    uint32_t w[8];
    gc_pushbuf_t pb;
    gc_pb_init(&pb, w, 8);
    gc_pb_sem_release(&pb, 0x0123456788ull, 0x1122334455667788ull, true, true);
    REQUIRE_EQ(pb.len, 6);
    CHECK_EQ(w[0], 0x20050017u);
    CHECK_EQ(w[1], 0x23456788u);
    CHECK_EQ(w[2], 0x01u);
    CHECK_EQ(w[3], 0x55667788u);
    CHECK_EQ(w[4], 0x11223344u);
    CHECK_EQ(w[5], 0x01100001u);
}

static void t_overflow_sticky(void) {
    uint32_t w[4];
    gc_pushbuf_t pb;
    gc_pb_init(&pb, w, 4);
    gc_pb_method(&pb, 0, GC_HOST_NOP, 0);
    CHECK_EQ(pb.status, GC_OK);
    gc_pb_sem_release(&pb, 0x1000, 1, false, false); /* 6 words do not fit in the 2 left */
    CHECK_EQ(pb.status, GC_ERR_FULL);
    CHECK_EQ(pb.len, 2);
    gc_pb_end_segment(&pb); /* would fit, but the error is sticky */
    CHECK_EQ(pb.len, 2);
    gc_pb_reset(&pb);
    CHECK_EQ(pb.status, GC_OK);
    CHECK_EQ(pb.len, 0);
}

static void t_bad_args(void) {
    uint32_t w[16], d[1] = {0};
    gc_pushbuf_t pb;
    gc_pb_init(&pb, w, 16);
    gc_pb_incr(&pb, 8, 0x100, d, 1); /* subchannel 8 */
    CHECK_EQ(pb.status, GC_ERR_INVALID_ARG);
    gc_pb_reset(&pb);
    gc_pb_incr(&pb, 0, 0x102, d, 1); /* unaligned method */
    CHECK_EQ(pb.status, GC_ERR_INVALID_ARG);
    gc_pb_reset(&pb);
    gc_pb_incr(&pb, 0, 0x4000, d, 1); /* beyond ADDRESS 11:0 */
    CHECK_EQ(pb.status, GC_ERR_INVALID_ARG);
    gc_pb_reset(&pb);
    gc_pb_immd(&pb, 0, 0x8, 8192); /* 14-bit immediate */
    CHECK_EQ(pb.status, GC_ERR_INVALID_ARG);
    gc_pb_reset(&pb);
    gc_pb_incr(&pb, 0, 0x8, NULL, 2);
    CHECK_EQ(pb.status, GC_ERR_INVALID_ARG);
    CHECK_EQ(pb.len, 0);
}

static void t_forms(void) {
    uint32_t w[16], d[3] = {1, 2, 3};
    gc_pushbuf_t pb;
    gc_pb_init(&pb, w, 16);
    gc_pb_nonincr(&pb, 1, 0x200, d, 3);
    gc_pb_oneincr(&pb, 2, 0x400, d, 2);
    gc_pb_immd(&pb, 3, 0x8, 5);
    gc_pb_end_segment(&pb);
    REQUIRE_EQ(pb.len, 4 + 3 + 1 + 1);
    CHECK_EQ(GC_METHOD_HEADER_SEC_OP_GET(w[0]), GC_METHOD_HEADER_SEC_OP_NON_INC_METHOD);
    CHECK_EQ(GC_METHOD_HEADER_COUNT_GET(w[0]), 3);
    CHECK_EQ(GC_METHOD_HEADER_SUBCHANNEL_GET(w[0]), 1);
    CHECK_EQ(GC_METHOD_HEADER_SEC_OP_GET(w[4]), GC_METHOD_HEADER_SEC_OP_ONE_INC);
    CHECK_EQ(GC_METHOD_HEADER_ADDRESS_GET(w[4]), 0x100);
    CHECK_EQ(GC_METHOD_HEADER_IMMD_DATA_GET(w[7]), 5);
    CHECK_EQ(w[8], 0xE0000000u);
}

static void t_sem_forms(void) {
    uint32_t w[32];
    gc_pushbuf_t pb;
    gc_pb_init(&pb, w, 32);
    gc_pb_sem_acquire(&pb, 0x1000, 0, GC_HOST_SEM_EXECUTE_OPERATION_ACQUIRE, false, true);
    gc_pb_sem_reduce(&pb, 0x1000, 0xFFFFFFFFu, GC_HOST_SEM_EXECUTE_REDUCTION_DEC, false, false);
    gc_pb_sem_release_ts(&pb, 0x2000, 5, true, true);
    gc_pb_sem_acquire(&pb, 0x1000, 7, GC_HOST_SEM_EXECUTE_OPERATION_ACQ_CIRC_GEQ, true, false);
    REQUIRE_EQ(pb.status, GC_OK);
    REQUIRE_EQ(pb.len, 24);
    CHECK_EQ(w[5], 0x00001000u);  /* ACQUIRE, ACQUIRE_SWITCH_TSG (bit 12) */
    CHECK_EQ(w[9], 0xFFFFFFFFu);  /* DEC operand */
    CHECK_EQ(w[11], 0xB8000006u); /* REDUCTION DEC (7 << 27), UNSIGNED (bit 31) */
    CHECK_EQ(w[17], 0x03100001u); /* RELEASE, WFI 20, 64BIT 24, TIMESTAMP 25 */
    CHECK_EQ(w[23], 0x01000003u); /* ACQ_CIRC_GEQ, 64BIT */
    gc_pb_sem_acquire(&pb, 0x1000, 0, GC_HOST_SEM_EXECUTE_OPERATION_RELEASE, false, false);
    CHECK_EQ(pb.status, GC_ERR_INVALID_ARG); /* a release is not an acquire */
    gc_pb_reset(&pb);
    gc_pb_sem_reduce(&pb, 0x1000, 1, 8, false, false);
    CHECK_EQ(pb.status, GC_ERR_INVALID_ARG);
}

static void t_copy_desc_forms(void) {
    uint32_t w[32];
    gc_pushbuf_t pb;
    gc_pb_init(&pb, w, 32);
    gc_copy_desc_t fill = {.dst = 0x100, .line_bytes = 64, .fill_bytes = 4, .fill_value = 0xDEADBEEF};
    gc_pb_copy_desc(&pb, 4, &fill);
    REQUIRE_EQ(pb.len, 5 + 2 + 4 + 2);
    CHECK_EQ(w[6], 16u);          /* LINE_LENGTH_IN counts 4-byte elements */
    CHECK_EQ(w[7], 0x200381C0u);  /* SET_REMAP_CONST_A x3 on subchannel 4 */
    CHECK_EQ(w[8], 0xDEADBEEFu);
    CHECK_EQ(w[10], 0x00030004u); /* DST_X CONST_A, COMPONENT_SIZE FOUR, 1 src / 1 dst component */
    CHECK_EQ(w[12], 0x586u);      /* NON_PIPELINED, FLUSH, PITCH/PITCH, REMAP_ENABLE */
    gc_pb_reset(&pb);
    gc_copy_desc_t two_d = {.dst = 0x1000, .src = 0x2000, .line_bytes = 100, .line_count = 3, .pitch_in = 128,
                            .pitch_out = 256, .sem = GC_COPY_SEM_FOUR_WORD, .sem_addr = 0x3000, .sem_payload = 9,
                            .interrupt = true};
    gc_pb_copy_desc(&pb, 4, &two_d);
    REQUIRE_EQ(pb.len, 5 + 5 + 4 + 2);
    CHECK_EQ(w[5], 0x20048104u);  /* PITCH_IN, PITCH_OUT, LINE_LENGTH_IN, LINE_COUNT */
    CHECK_EQ(w[6], 128u);
    CHECK_EQ(w[7], 256u);
    CHECK_EQ(w[8], 100u);
    CHECK_EQ(w[9], 3u);
    CHECK_EQ(w[15], 0x3D6u);      /* + FOUR_WORD (2 << 3), NON_BLOCKING (2 << 5), MULTI_LINE (1 << 9) */
    gc_pb_reset(&pb);
    gc_copy_desc_t bad = {.line_bytes = 10, .fill_bytes = 4};
    gc_pb_copy_desc(&pb, 4, &bad);
    CHECK_EQ(pb.status, GC_ERR_INVALID_ARG); /* 10 bytes are not whole 4-byte elements */
}

/* NVIDIA's forms: a stamped host reduction, the reduction forms NVIDIA rejects refused, a
 * release-only copy-class LAUNCH_DMA with a reduction (transfer and layout fields 0). */
static void t_nv_forms(void) {
    uint32_t w[32];
    gc_pushbuf_t pb;
    gc_pb_init(&pb, w, 32);
    gc_pb_sem_reduce_ts(&pb, 0x2000, 1, GC_HOST_SEM_EXECUTE_REDUCTION_IADD, false, false);
    gc_pb_sem_reduce(&pb, 0x2000, 1, GC_HOST_SEM_EXECUTE_REDUCTION_IADD, true, false); /* signed 32-bit: fine */
    gc_pb_sem_reduce(&pb, 0x2000, 1, GC_HOST_SEM_EXECUTE_REDUCTION_IMIN, true, true);  /* signed 64-bit: fine */
    REQUIRE_EQ(pb.status, GC_OK);
    REQUIRE_EQ(pb.len, 18);
    CHECK_EQ(w[5], 0xAA000006u);  /* REDUCTION IADD (5 << 27), UNSIGNED, TIMESTAMP (bit 25) */
    CHECK_EQ(w[11], 0x28000006u); /* IADD, SIGNED */
    CHECK_EQ(w[17], 0x01000006u); /* IMIN, SIGNED, 64BIT */
    const struct { uint32_t red; bool sgn, is64; } bad[] = {
        {GC_HOST_SEM_EXECUTE_REDUCTION_INC, false, true}, {GC_HOST_SEM_EXECUTE_REDUCTION_DEC, false, true},
        {GC_HOST_SEM_EXECUTE_REDUCTION_INC, true, false}, {GC_HOST_SEM_EXECUTE_REDUCTION_DEC, true, false},
        {GC_HOST_SEM_EXECUTE_REDUCTION_IADD, true, true}, {GC_HOST_SEM_EXECUTE_REDUCTION_DEC + 1, false, false},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        gc_pb_reset(&pb);
        gc_pb_sem_reduce_ts(&pb, 0x2000, 1, bad[k].red, bad[k].sgn, bad[k].is64);
        CHECK_EQ(pb.status, GC_ERR_INVALID_ARG);
        CHECK_EQ(pb.len, 0);
    }
    gc_pb_reset(&pb);
    gc_copy_desc_t rel = {.no_data = true, .dst = 0x1000, .line_bytes = 64, .sem = GC_COPY_SEM_ONE_WORD,
                          .sem_addr = 0x123456789Cull, .sem_payload = 3, .sem_reduce = true,
                          .sem_red = GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_INC};
    gc_pb_copy_desc(&pb, 4, &rel);
    REQUIRE_EQ(pb.status, GC_OK);
    REQUIRE_EQ(pb.len, 4 + 2);    /* no geometry methods */
    CHECK_EQ(w[1], 0x12u);        /* SET_SEMAPHORE_A.UPPER */
    CHECK_EQ(w[2], 0x3456789Cu);
    CHECK_EQ(w[3], 3u);
    CHECK_EQ(GC_METHOD_HEADER_ADDRESS_GET(w[4]), GC_COPY_LAUNCH_DMA / 4);
    CHECK_EQ(w[5], 0xD800Cu);     /* FLUSH, ONE_WORD, INC (6 << 14), UNSIGNED (18), ENABLE (19); NONE, BLOCKLINEAR */
    rel.sem_signed = true;        /* signed INC: NVIDIA rejects it */
    gc_pb_reset(&pb);
    gc_pb_copy_desc(&pb, 4, &rel);
    CHECK_EQ(pb.status, GC_ERR_INVALID_ARG);
    rel.sem_signed = false;
    rel.sem = GC_COPY_SEM_NONE;   /* a reduction needs a release */
    gc_pb_reset(&pb);
    gc_pb_copy_desc(&pb, 4, &rel);
    CHECK_EQ(pb.status, GC_ERR_INVALID_ARG);
}

static const tcase_t cases[] = {
    {"pushbuf_nv_forms", t_nv_forms},
    {"pushbuf_sem_forms", t_sem_forms}, {"pushbuf_copy_desc_forms", t_copy_desc_forms},
    {"pushbuf_copy_words", t_copy_words}, {"pushbuf_sem_release_words", t_sem_release_words},
    {"pushbuf_overflow_sticky", t_overflow_sticky}, {"pushbuf_bad_args", t_bad_args},
    {"pushbuf_forms", t_forms},
};
TCASE_MAIN(cases)
