/* Channel faults: each cause is recorded with GP_GET, method and data, the driver reports it in one
 * line, the interrupt is raised, other channels lose nothing, and the channel works after reset. */
#include "cosim_util.h"
#include "tcase.h"

typedef struct fault_case {
    gc_device_t *dev;
    gc_channel_t *bad;
    gc_channel_error_t err;
    gc_status_t wait;
    char msg[512];
} fault_case_t;

/* Open a device and a channel, let `build` fill a pushbuffer (or submit raw entries), wait. */
static int run_fault(fault_case_t *f, void (*build)(gc_channel_t *, gc_pushbuf_t *, uint64_t)) {
    memset(f, 0, sizeof *f);
    f->dev = util_open(NULL);
    if (!f->dev) return 0;
    if (gc_channel_open(f->dev, NULL, &f->bad) != GC_OK) return 0;
    uint32_t w[64];
    gc_pushbuf_t pb;
    gc_pb_init(&pb, w, 64);
    gc_buf_t scratch;
    if (gc_mem_alloc(f->dev, GC_MEM_SYSMEM, 256, 64, &scratch) != GC_OK) return 0;
    build(f->bad, &pb, scratch.addr);
    if (pb.len && gc_channel_submit(f->bad, &pb) != GC_OK) return 0;
    f->wait = gc_channel_wait_idle(f->bad);
    snprintf(f->msg, sizeof f->msg, "%s", gc_device_last_error(f->dev));
    if (gc_channel_error(f->bad, &f->err) != GC_OK) return 0;
    fprintf(stderr, "reported: %s\n", f->msg);
    return 1;
}

/* After a fault: the interrupt and fault bitmap are set, another channel copies correctly, and
 * the faulted channel works again after reset. */
static void check_recovery(fault_case_t *f) {
    gc_device_t *dev = f->dev;
    uint32_t st = 0, fc = 0;
    REQUIRE_OK(dev, gc_mmio_read(dev, GC_REG_GLOBAL_INTR_STATUS, &st));
    CHECK_EQ(GC_GLOBAL_INTR_STATUS_CHANNEL_FAULT_GET(st), 1);
    REQUIRE_OK(dev, gc_mmio_read(dev, GC_REG_GLOBAL_FAULT_CHANNELS, &fc));
    CHECK_EQ(fc, 1u << gc_channel_id(f->bad));
    gc_channel_t *good;
    REQUIRE_OK(dev, gc_channel_open(dev, NULL, &good));
    roundtrip_t r = util_roundtrip(dev, good, 1000, 3, 5, 11);
    CHECK_EQ(r.status, GC_OK);
    CHECK_EQ(r.vid_bad + r.dst_bad, 0);
    CHECK_EQ(r.host_sem, RT_HOST_PAYLOAD);
    REQUIRE_OK(dev, gc_channel_reset(f->bad));
    REQUIRE_OK(dev, gc_mmio_read(dev, GC_REG_GLOBAL_FAULT_CHANNELS, &fc));
    CHECK_EQ(fc, 0);
    r = util_roundtrip(dev, f->bad, 512, 0, 0, 12);
    CHECK_EQ(r.status, GC_OK);
    CHECK_EQ(r.vid_bad + r.dst_bad, 0);
    CHECK_EQ(r.ce_sem, 1);
    gc_device_close(dev);
}

static void b_illegal_entry(gc_channel_t *ch, gc_pushbuf_t *pb, uint64_t s) {
    (void)pb; (void)s;
    /* a control entry (LENGTH 0) with opcode ILLEGAL, at GP_GET 1 (entry 0 is SET_OBJECT) */
    gc_channel_submit_entry(ch, 0, GC_GP_ENTRY1_OPCODE(GC_GP_ENTRY1_OPCODE_ILLEGAL));
}

static void t_invalid_gpfifo_entry(void) {
    fault_case_t f;
    REQUIRE(run_fault(&f, b_illegal_entry));
    CHECK_EQ(f.wait, GC_ERR_CHANNEL_FAULT);
    CHECK_EQ(f.err.cause, GC_ERROR_CAUSE_INVALID_GPFIFO_ENTRY);
    CHECK_EQ(f.err.gp_get, 1);
    CHECK_EQ(f.err.data, GC_GP_ENTRY1_OPCODE(GC_GP_ENTRY1_OPCODE_ILLEGAL));
    CHECK(strstr(f.msg, "channel 0: INVALID_GPFIFO_ENTRY at GP_GET 1") != NULL);
    check_recovery(&f);
}

static void b_unbound_subch(gc_channel_t *ch, gc_pushbuf_t *pb, uint64_t s) {
    (void)ch; (void)s;
    gc_pb_method(pb, 0, GC_HOST_NOP, 0);
    gc_pb_method(pb, 2, GC_COPY_LINE_LENGTH_IN, 0x55); /* subchannel 2 has no SET_OBJECT */
}

static void t_invalid_subchannel(void) {
    fault_case_t f;
    REQUIRE(run_fault(&f, b_unbound_subch));
    CHECK_EQ(f.err.cause, GC_ERROR_CAUSE_INVALID_SUBCHANNEL);
    CHECK_EQ(GC_CHANNEL_ERROR_METHOD_ADDRESS_GET(f.err.method), GC_COPY_LINE_LENGTH_IN / 4);
    CHECK_EQ(GC_CHANNEL_ERROR_METHOD_SUBCHANNEL_GET(f.err.method), 2);
    CHECK_EQ(f.err.data, 0x55);
    CHECK(strstr(f.msg, "method 0x0418") && strstr(f.msg, "subchannel 2"));
    check_recovery(&f);
}

static void b_unknown_method(gc_channel_t *ch, gc_pushbuf_t *pb, uint64_t s) {
    (void)ch; (void)s;
    gc_pb_method(pb, 4, 0x0500, 0xABCD); /* not a copy-class method */
}

static void t_unknown_method(void) {
    fault_case_t f;
    REQUIRE(run_fault(&f, b_unknown_method));
    CHECK_EQ(f.wait, GC_ERR_CHANNEL_FAULT);
    CHECK_EQ(f.err.cause, GC_ERROR_CAUSE_INVALID_METHOD);
    CHECK_EQ(GC_CHANNEL_ERROR_METHOD_ADDRESS_GET(f.err.method), 0x500 / 4);
    CHECK_EQ(f.err.data, 0xABCD);
    CHECK(strstr(f.msg, "INVALID_METHOD at GP_GET 1, method 0x0500 (unknown method) on subchannel 4") != NULL);
    check_recovery(&f);
}

static void b_unknown_host_method(gc_channel_t *ch, gc_pushbuf_t *pb, uint64_t s) {
    (void)ch; (void)s;
    gc_pb_method(pb, 0, 0x00F0, 1);
}

static void t_unknown_host_method(void) {
    fault_case_t f;
    REQUIRE(run_fault(&f, b_unknown_host_method));
    CHECK_EQ(f.err.cause, GC_ERROR_CAUSE_INVALID_METHOD);
    CHECK_EQ(GC_CHANNEL_ERROR_METHOD_ADDRESS_GET(f.err.method), 0xF0 / 4);
    check_recovery(&f);
}

static void b_bad_header(gc_channel_t *ch, gc_pushbuf_t *pb, uint64_t s) {
    (void)ch; (void)s;
    gc_pb_raw(pb, GC_METHOD_HEADER_SEC_OP(GC_METHOD_HEADER_SEC_OP_RESERVED6) | 0x17);
}

static void t_invalid_header(void) {
    fault_case_t f;
    REQUIRE(run_fault(&f, b_bad_header));
    CHECK_EQ(f.err.cause, GC_ERROR_CAUSE_INVALID_METHOD_HEADER);
    CHECK_EQ(f.err.data, 0xC0000017u);
    check_recovery(&f);
}

static void b_bad_class(gc_channel_t *ch, gc_pushbuf_t *pb, uint64_t s) {
    (void)ch; (void)s;
    gc_pb_set_object(pb, 1, 0xBEEF);
}

static void t_invalid_class(void) {
    fault_case_t f;
    REQUIRE(run_fault(&f, b_bad_class));
    CHECK_EQ(f.err.cause, GC_ERROR_CAUSE_INVALID_CLASS);
    CHECK(strstr(f.msg, "SET_OBJECT") != NULL);
    check_recovery(&f);
}

static void b_bus_error(gc_channel_t *ch, gc_pushbuf_t *pb, uint64_t s) {
    (void)ch;
    /* source between the windows: the memory answers DECERR */
    gc_pb_copy(pb, 4, s, GC_SYSMEM_BASE + GC_SYSMEM_SIZE + 0x1000, 256, true, s + 64, 1);
}

static void t_bus_error(void) {
    fault_case_t f;
    REQUIRE(run_fault(&f, b_bus_error));
    CHECK_EQ(f.err.cause, GC_ERROR_CAUSE_BUS_ERROR);
    check_recovery(&f);
}

static void b_misaligned(gc_channel_t *ch, gc_pushbuf_t *pb, uint64_t s) {
    (void)ch;
    gc_pb_sem_release(pb, s + 4, 1, true, false); /* 64-bit payload at a 4-byte boundary */
}

static void t_misaligned_semaphore(void) {
    fault_case_t f;
    REQUIRE(run_fault(&f, b_misaligned));
    CHECK_EQ(f.err.cause, GC_ERROR_CAUSE_MISALIGNED_SEMAPHORE);
    CHECK_EQ(GC_CHANNEL_ERROR_METHOD_ADDRESS_GET(f.err.method), GC_HOST_SEM_EXECUTE / 4);
    check_recovery(&f);
}

/* A bad pushbuffer on one channel while three others copy: they finish with correct data. */
static void t_isolation(void) {
    gc_device_t *dev = util_open(NULL);
    REQUIRE(dev);
    gc_channel_t *ch[4];
    for (int i = 0; i < 4; i++) REQUIRE_OK(dev, gc_channel_open(dev, NULL, &ch[i]));
    gc_buf_t src, dst[3], sem;
    REQUIRE_OK(dev, gc_mem_alloc(dev, GC_MEM_SYSMEM, 8192, 64, &src));
    for (int i = 0; i < 3; i++) REQUIRE_OK(dev, gc_mem_alloc(dev, GC_MEM_VIDMEM, 8192, 64, &dst[i]));
    REQUIRE_OK(dev, gc_mem_alloc(dev, GC_MEM_SYSMEM, 64, 64, &sem));
    static uint8_t s[8192], g[8192];
    gcsc_fill(s, sizeof s, 3);
    REQUIRE_OK(dev, gc_mem_write(dev, src.addr, s, sizeof s));
    for (int k = 0; k < 8; k++) {
        for (int i = 0; i < 3; i++)
            REQUIRE_OK(dev, gc_copy(ch[i + 1], dst[i].addr + 1024 * k, src.addr + 1024 * k, 1024, sem.addr + 4 * i,
                                    k + 1));
        if (k == 2) { /* the bad channel: a good method, then garbage */
            uint32_t w[4];
            gc_pushbuf_t pb;
            gc_pb_init(&pb, w, 4);
            gc_pb_method(&pb, 0, GC_HOST_NOP, 0);
            /* SEC_OP GRP0_USE_TERT with TERT_OP SET_SUBDEVICE_MASK: not implemented (the word 0,
             * NVIDIA's DMA_NOP, would be skipped) */
            gc_pb_raw(&pb, GC_METHOD_HEADER_SEC_OP(GC_METHOD_HEADER_SEC_OP_GRP0_USE_TERT) | GC_METHOD_HEADER_COUNT(1));
            REQUIRE_OK(dev, gc_channel_submit(ch[0], &pb));
        }
    }
    CHECK_EQ(gc_channel_wait_idle(ch[0]), GC_ERR_CHANNEL_FAULT);
    for (int i = 0; i < 3; i++) {
        REQUIRE_OK(dev, gc_channel_wait_idle(ch[i + 1]));
        REQUIRE_OK(dev, gc_mem_read(dev, dst[i].addr, g, sizeof g));
        CHECK_EQ(util_diff("good channel", s, g, sizeof g), 0);
        uint32_t v = 0;
        REQUIRE_OK(dev, gc_mem_read(dev, sem.addr + 4 * i, &v, 4));
        CHECK_EQ(v, 8);
    }
    gc_channel_error_t e;
    REQUIRE_OK(dev, gc_channel_error(ch[0], &e));
    CHECK_EQ(e.cause, GC_ERROR_CAUSE_INVALID_METHOD_HEADER);
    uint32_t fc = 0;
    REQUIRE_OK(dev, gc_mmio_read(dev, GC_REG_GLOBAL_FAULT_CHANNELS, &fc));
    CHECK_EQ(fc, 1u << gc_channel_id(ch[0]));
    gc_device_close(dev);
}

/* Driver-side refusals: a bad GP_PUT written by hand faults the channel in the register block. */
static void t_bad_gp_put(void) {
    gc_device_t *dev = util_open(NULL);
    REQUIRE(dev);
    gc_channel_t *ch;
    REQUIRE_OK(dev, gc_channel_open(dev, NULL, &ch));
    REQUIRE_OK(dev, gc_mmio_write(dev, GC_REG_CHANNEL_GP_PUT(0), 1000)); /* ring has 64 entries */
    gc_channel_error_t e;
    REQUIRE_OK(dev, gc_channel_error(ch, &e));
    CHECK_EQ(e.cause, GC_ERROR_CAUSE_BAD_GP_PUT);
    CHECK_EQ(e.data, 1000);
    gc_channel_config_t cc;
    gc_channel_config_init(&cc);
    cc.log2_entries = 16;
    gc_channel_t *c2 = NULL;
    CHECK_EQ(gc_channel_open(dev, &cc, &c2), GC_ERR_INVALID_ARG);
    CHECK(strstr(gc_device_last_error(dev), "log2 must be in [1, 15]") != NULL);
    gc_device_close(dev);
}

static const tcase_t cases[] = {
    {"fault_invalid_gpfifo_entry", t_invalid_gpfifo_entry},
    {"fault_invalid_subchannel", t_invalid_subchannel},
    {"fault_unknown_method", t_unknown_method},
    {"fault_unknown_host_method", t_unknown_host_method},
    {"fault_invalid_header", t_invalid_header},
    {"fault_invalid_class", t_invalid_class},
    {"fault_bus_error", t_bus_error},
    {"fault_misaligned_semaphore", t_misaligned_semaphore},
    {"fault_isolation", t_isolation},
    {"fault_bad_gp_put", t_bad_gp_put},
};
TCASE_MAIN(cases)
