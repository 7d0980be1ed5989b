/* Encoders from the generated header against values worked out by hand from NVIDIA's documented
 * layouts (clc56f.h / clc5b5.h / dev_pbdma.ref): METHOD_HEADER SEC_OP 31:29, COUNT 28:16,
 * SUBCHANNEL 15:13, ADDRESS 11:0; GP_ENTRY0 GET 31:2; GP_ENTRY1 GET_HI 7:0, LEVEL 9, LENGTH 30:10,
 * SYNC 31. */
#include "gpucosim_spec.h"
#include "tcase.h"

static void t_method_headers(void) {
    CHECK_EQ(gc_mh_incr(0, 0x5C, 4), 0x20040017u);          /* SEM_ADDR_LO x4, the example */
    CHECK_EQ(gc_mh_nonincr(4, 0x0300, 1), 0x600180C0u);     /* LAUNCH_DMA on subchannel 4 */
    CHECK_EQ(gc_mh_oneincr(4, 0x0400, 2), 0xA0028100u);     /* OFFSET_IN_UPPER, ONE_INC */
    CHECK_EQ(gc_mh_immd(1, 0x0008, 0x1234), 0x92342002u);   /* NOP with immediate 0x1234 on subch 1 */
    CHECK_EQ(gc_mh_immd(0, 0x0020, 0), 0x80000008u);        /* NON_STALL_INTERRUPT */
    CHECK_EQ(gc_mh_end_segment(), 0xE0000000u);
    CHECK_EQ(gc_mh_incr(7, 0x3FFC, 8191), 0x3FFFEFFFu);     /* every field at its maximum */
}

static void t_gp_entries(void) {
    uint64_t pb = 0x0123456780ull;
    CHECK_EQ(gc_gp_entry0(pb), 0x23456780u);
    CHECK_EQ(gc_gp_entry1(pb, 10, GC_GP_ENTRY1_LEVEL_MAIN, GC_GP_ENTRY1_SYNC_PROCEED), 0x00002801u);
    CHECK_EQ(gc_gp_entry1(pb, 10, GC_GP_ENTRY1_LEVEL_MAIN, GC_GP_ENTRY1_SYNC_WAIT), 0x80002801u);
    CHECK_EQ(gc_gp_entry1(pb, 10, GC_GP_ENTRY1_LEVEL_SUBROUTINE, 0), 0x00002A01u);
    CHECK_EQ(gc_gp_entry1(0xFF00000000ull, 0x1FFFFF, 0, 0), 0x7FFFFCFFu); /* LENGTH 21 bits, GET_HI 0xFF */
    CHECK_EQ(GC_GP_ENTRY1_LENGTH_GET(0x80002801u), 10u);
}

static void t_method_fields(void) {
    CHECK_EQ(GC_HOST_SEM_ADDR_LO, 0x5Cu);
    CHECK_EQ(GC_HOST_SEM_EXECUTE, 0x6Cu);
    CHECK_EQ(GC_HOST_NON_STALL_INTERRUPT, 0x20u);
    CHECK_EQ(GC_HOST_WFI, 0x78u);
    CHECK_EQ(GC_COPY_LAUNCH_DMA, 0x300u);
    CHECK_EQ(GC_COPY_OFFSET_IN_UPPER, 0x400u);
    CHECK_EQ(GC_COPY_LINE_LENGTH_IN, 0x418u);
    CHECK_EQ(GC_COPY_SET_SEMAPHORE_A, 0x240u);
    /* RELEASE, 64-bit payload, WFI: bits 2:0 = 1, 24, 20 */
    CHECK_EQ(GC_HOST_SEM_EXECUTE_OPERATION(GC_HOST_SEM_EXECUTE_OPERATION_RELEASE) |
                 GC_HOST_SEM_EXECUTE_PAYLOAD_SIZE(GC_HOST_SEM_EXECUTE_PAYLOAD_SIZE_64BIT) |
                 GC_HOST_SEM_EXECUTE_RELEASE_WFI(GC_HOST_SEM_EXECUTE_RELEASE_WFI_EN),
             0x01100001u);
    /* REDUCTION INC unsigned: 6 << 27 | 1 << 31 | OPERATION 6 */
    CHECK_EQ(GC_HOST_SEM_EXECUTE_OPERATION(GC_HOST_SEM_EXECUTE_OPERATION_REDUCTION) |
                 GC_HOST_SEM_EXECUTE_REDUCTION(GC_HOST_SEM_EXECUTE_REDUCTION_INC) |
                 GC_HOST_SEM_EXECUTE_REDUCTION_FORMAT(GC_HOST_SEM_EXECUTE_REDUCTION_FORMAT_UNSIGNED),
             0xB0000006u);
    /* NON_PIPELINED, FLUSH, one-word semaphore, pitch / pitch: 2 | 4 | 8 | 0x80 | 0x100 */
    CHECK_EQ(GC_COPY_LAUNCH_DMA_DATA_TRANSFER_TYPE(GC_COPY_LAUNCH_DMA_DATA_TRANSFER_TYPE_NON_PIPELINED) |
                 GC_COPY_LAUNCH_DMA_FLUSH_ENABLE(GC_COPY_LAUNCH_DMA_FLUSH_ENABLE_TRUE) |
                 GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE(GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE_RELEASE_ONE_WORD_SEMAPHORE) |
                 GC_COPY_LAUNCH_DMA_SRC_MEMORY_LAYOUT(GC_COPY_LAUNCH_DMA_SRC_MEMORY_LAYOUT_PITCH) |
                 GC_COPY_LAUNCH_DMA_DST_MEMORY_LAYOUT(GC_COPY_LAUNCH_DMA_DST_MEMORY_LAYOUT_PITCH),
             0x18Eu);
}

static void t_names(void) {
    CHECK(!strcmp(gc_method_name(GC_CLASS_COPY, 0x300), "LAUNCH_DMA"));
    CHECK(!strcmp(gc_method_name(0, 0x6C), "SEM_EXECUTE"));
    CHECK(!strcmp(gc_method_name(GC_CLASS_COPY, 0x6C), "SEM_EXECUTE")); /* host methods on every class */
    CHECK(gc_method_name(0, 0x300) == NULL);                           /* no class bound */
    CHECK(gc_method_name(GC_CLASS_COPY, 0x500) == NULL);
    CHECK(!strcmp(gc_error_cause_name(GC_ERROR_CAUSE_INVALID_METHOD), "INVALID_METHOD"));
    CHECK(!strcmp(gc_error_cause_name(200), "?"));
}

static void t_registers(void) {
    CHECK_EQ(GC_REG_CHANNEL_GP_PUT(0), 0x100Cu);
    CHECK_EQ(GC_REG_CHANNEL_GP_PUT(3), 0x118Cu);                 /* channel stride 0x80 */
    CHECK_EQ(GC_REG_CHANNEL_ERROR(15), 0x1000u + 15u * 0x80u + 0x20u);
    CHECK_EQ(GC_REG_CHANNEL_STATUS(2), 0x1000u + 2u * 0x80u + 0x58u);
    CHECK_EQ(GC_REG_RUNLIST_SWITCHES(1), 0x0400u + 0x20u + 0x04u);
    CHECK_EQ(GC_REG_ENGINE_BYTES(1), 0x0800u + 0x20u + 0x04u);
    CHECK(GC_REG_CHANNEL_METHODS(GC_NUM_CHANNELS - 1) < (1u << GC_MMIO_ADDR_W));
}

static const tcase_t cases[] = {
    {"spec_method_headers", t_method_headers}, {"spec_gp_entries", t_gp_entries},
    {"spec_method_fields", t_method_fields},   {"spec_names", t_names},
    {"spec_registers", t_registers},
};
TCASE_MAIN(cases)
