/* Channel faults: each cause is recorded with GP_GET, method and data, the driver reports it in one
 * line, the interrupt is raised, other channels lose nothing, and the channel works after reset. */
#include "cosim_util.h"
#include "gpucosim/compute.h"
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

/* ---- every cause on every channel ---- */
#define PC_ACQ_TIMEOUT 1500u /* every channel's ACQ_TIMEOUT */
#define PC_COPY 256u         /* bytes of a good round's copy */

typedef struct pc_fx {
    gc_device_t *dev;
    gc_device_props_t p;
    gc_channel_t *ch[GC_NUM_CHANNELS];
    gc_buf_t sem;      /* per channel 16 words: [0..2] good releases, [4] never released, [8..] misaligned targets */
    gc_buf_t seg;      /* per channel 64 bytes: a valid two-word segment (NOP) */
    gc_buf_t tmd;      /* a TMD whose task faults (entry PC 0: inside the NULL guard) */
    gc_buf_t src, dst; /* per channel PC_COPY bytes: a good round's copy */
} pc_fx_t;

/* What a raiser expects in the channel's error record (gp_get: the entry's index unless it is a
 * register-block cause, which records GP_GET as it was). */
typedef struct pc_want {
    uint32_t cause, gp_get, method, data;
} pc_want_t;

typedef struct pc_ctx {
    pc_fx_t *f;
    uint32_t c, r, s, tag; /* channel, round, a subchannel and a data word that vary with both */
    uint32_t entry;        /* index of the next entry the channel will fetch */
} pc_ctx_t;

static uint64_t pc_sem(const pc_fx_t *f, uint32_t c, uint32_t w) { return f->sem.addr + 64u * c + 4u * w; }
static gc_status_t pc_submit_method(pc_ctx_t *x, uint32_t subch, uint32_t mthd, uint32_t data) {
    uint32_t w[4];
    gc_pushbuf_t pb;
    gc_pb_init(&pb, w, 4);
    gc_pb_method(&pb, subch, mthd, data);
    return gc_channel_submit(x->f->ch[x->c], &pb);
}
static gc_status_t pc_submit_sem(pc_ctx_t *x, uint64_t addr, uint64_t payload, uint32_t execute) {
    uint32_t w[8];
    gc_pushbuf_t pb;
    gc_pb_init(&pb, w, 8);
    gc_pb_sem_execute(&pb, addr, payload, execute);
    return gc_channel_submit(x->f->ch[x->c], &pb);
}

/* A control entry with an opcode other than NOP, or a SUBROUTINE-level segment. */
static gc_status_t pc_gpfifo_entry(pc_ctx_t *x, pc_want_t *w) {
    uint64_t seg = x->f->seg.addr + 64u * x->c;
    uint32_t e1 = x->r % 2 ? GC_GP_ENTRY1_OPCODE(GC_GP_ENTRY1_OPCODE_ILLEGAL + x->c % 3)
                           : GC_GP_ENTRY1_GET_HI((uint32_t)(seg >> 32)) | GC_GP_ENTRY1_LENGTH(2) |
                                 GC_GP_ENTRY1_LEVEL(GC_GP_ENTRY1_LEVEL_SUBROUTINE);
    *w = (pc_want_t){GC_ERROR_CAUSE_INVALID_GPFIFO_ENTRY, x->entry, 0, e1};
    return gc_channel_submit_entry(x->f->ch[x->c], x->r % 2 ? x->tag : GC_GP_ENTRY0_GET((uint32_t)seg >> 2), e1);
}

/* A header with SEC_OP GRP0_USE_TERT (not the word 0), GRP2_USE_TERT or RESERVED6. */
static gc_status_t pc_method_header(pc_ctx_t *x, pc_want_t *w) {
    static const uint32_t op[] = {GC_METHOD_HEADER_SEC_OP_GRP0_USE_TERT, GC_METHOD_HEADER_SEC_OP_GRP2_USE_TERT,
                                  GC_METHOD_HEADER_SEC_OP_RESERVED6};
    uint32_t addr = 0x40u + x->c, h = GC_METHOD_HEADER_SEC_OP(op[(x->c + x->r) % 3]) |
                                      GC_METHOD_HEADER_SUBCHANNEL(x->s) | GC_METHOD_HEADER_ADDRESS(addr);
    uint32_t words[2];
    gc_pushbuf_t pb;
    gc_pb_init(&pb, words, 2);
    gc_pb_raw(&pb, h);
    *w = (pc_want_t){GC_ERROR_CAUSE_INVALID_METHOD_HEADER, x->entry, util_err_method(x->s, addr * 4), h};
    return gc_channel_submit(x->f->ch[x->c], &pb);
}

/* A host method offset (below 0x100) the host class does not define. */
static gc_status_t pc_method_unknown(pc_ctx_t *x, pc_want_t *w) {
    uint32_t m = 0x00E0u + 4u * (x->c % 4);
    *w = (pc_want_t){GC_ERROR_CAUSE_INVALID_METHOD, x->entry, util_err_method(x->s, m), x->tag};
    return pc_submit_method(x, x->s, m, x->tag);
}

/* A copy-class method on a subchannel with no SET_OBJECT (the open bound only CE_SUBCH). */
static gc_status_t pc_subchannel(pc_ctx_t *x, pc_want_t *w) {
    uint32_t s = x->s == 4 ? 0 : x->s;
    *w = (pc_want_t){GC_ERROR_CAUSE_INVALID_SUBCHANNEL, x->entry, util_err_method(s, GC_COPY_LINE_LENGTH_IN), x->tag};
    return pc_submit_method(x, s, GC_COPY_LINE_LENGTH_IN, x->tag);
}

/* SET_OBJECT of a class the device does not implement. */
static gc_status_t pc_class(pc_ctx_t *x, pc_want_t *w) {
    uint32_t cls = 0xBE00u | x->c << 4 | x->r;
    *w = (pc_want_t){GC_ERROR_CAUSE_INVALID_CLASS, x->entry, util_err_method(x->s, GC_HOST_SET_OBJECT), cls};
    return pc_submit_method(x, x->s, GC_HOST_SET_OBJECT, cls);
}

/* A segment between the memory windows: its read answers DECERR (ERROR_DATA: its address). */
static gc_status_t pc_bus_error(pc_ctx_t *x, pc_want_t *w) {
    uint64_t a = GC_SYSMEM_BASE + GC_SYSMEM_SIZE + 0x1000u + 64u * x->c + 4096u * x->r;
    *w = (pc_want_t){GC_ERROR_CAUSE_BUS_ERROR, x->entry, 0, (uint32_t)a};
    return gc_channel_submit_entry(x->f->ch[x->c], GC_GP_ENTRY0_GET((uint32_t)a >> 2),
                                   GC_GP_ENTRY1_GET_HI((uint32_t)(a >> 32)) | GC_GP_ENTRY1_LENGTH(2));
}

/* A 64-bit release at a 4-byte boundary, or a timestamped one (16 bytes) at an 8-byte one. */
static gc_status_t pc_misaligned(pc_ctx_t *x, pc_want_t *w) {
    bool ts = (x->c + x->r) % 2;
    uint32_t exe = GC_HOST_SEM_EXECUTE_OPERATION(GC_HOST_SEM_EXECUTE_OPERATION_RELEASE) |
                   (ts ? GC_HOST_SEM_EXECUTE_RELEASE_TIMESTAMP(GC_HOST_SEM_EXECUTE_RELEASE_TIMESTAMP_EN)
                       : GC_HOST_SEM_EXECUTE_PAYLOAD_SIZE(GC_HOST_SEM_EXECUTE_PAYLOAD_SIZE_64BIT));
    *w = (pc_want_t){GC_ERROR_CAUSE_MISALIGNED_SEMAPHORE, x->entry, util_err_method(0, GC_HOST_SEM_EXECUTE), exe};
    return pc_submit_sem(x, pc_sem(x->f, x->c, ts ? 10 : 9), x->tag, exe);
}

/* A GPFIFO entry with FETCH CONDITIONAL (not implemented; ERROR_DATA: entry word 0). */
static gc_status_t pc_unsupported(pc_ctx_t *x, pc_want_t *w) {
    uint64_t seg = x->f->seg.addr + 64u * x->c;
    uint32_t e0 = GC_GP_ENTRY0_GET((uint32_t)seg >> 2) | GC_GP_ENTRY0_FETCH(1);
    *w = (pc_want_t){GC_ERROR_CAUSE_UNSUPPORTED, x->entry, 0, e0};
    return gc_channel_submit_entry(x->f->ch[x->c], e0, GC_GP_ENTRY1_GET_HI((uint32_t)(seg >> 32)) | GC_GP_ENTRY1_LENGTH(2));
}

/* An acquire of a word nobody releases, past the channel's ACQ_TIMEOUT. */
static gc_status_t pc_acquire(pc_ctx_t *x, pc_want_t *w) {
    uint32_t exe = GC_HOST_SEM_EXECUTE_OPERATION(GC_HOST_SEM_EXECUTE_OPERATION_ACQ_STRICT_GEQ) |
                   GC_HOST_SEM_EXECUTE_ACQUIRE_SWITCH_TSG(x->r % 2);
    *w = (pc_want_t){GC_ERROR_CAUSE_ACQUIRE_TIMEOUT, x->entry, util_err_method(0, GC_HOST_SEM_EXECUTE), exe};
    return pc_submit_sem(x, pc_sem(x->f, x->c, 4), 1 + x->c, exe);
}

/* Run until channel c's GP_GET reads `want` (GP_GET advances a little after the fence lands). */
static gc_status_t pc_wait_gp_get(gc_device_t *dev, uint32_t c, uint32_t want) {
    for (uint32_t t = 0;; t++) {
        uint32_t g = 0;
        gc_status_t st = gc_mmio_read(dev, GC_REG_CHANNEL_GP_GET(c), &g);
        if (st != GC_OK || g == want) return st;
        if (t >= 10000) return GC_ERR_TIMEOUT;
        if ((st = gc_device_run(dev, 1)) != GC_OK) return st;
    }
}

/* Register-block causes: the channel's work done first, so ERROR_GP_GET is GP_GET at the write. */
static gc_status_t pc_idle(pc_ctx_t *x) {
    gc_status_t st = gc_channel_wait_idle(x->f->ch[x->c]);
    if (st == GC_OK) st = pc_wait_gp_get(x->f->dev, x->c, ++x->entry); /* the fence's entry */
    return st;
}

/* GP_PUT written outside the ring (64 entries). */
static gc_status_t pc_bad_gp_put(pc_ctx_t *x, pc_want_t *w) {
    gc_status_t st = pc_idle(x);
    uint32_t v = 64u + x->tag % 4096u;
    *w = (pc_want_t){GC_ERROR_CAUSE_BAD_GP_PUT, x->entry, 0, v};
    return st != GC_OK ? st : gc_mmio_write(x->f->dev, GC_REG_CHANNEL_GP_PUT(x->c), v);
}

/* GPFIFO_SIZE.LOG2 written outside [GPFIFO_LOG2_MIN, GPFIFO_LOG2_MAX] while the channel runs. */
static gc_status_t pc_bad_ring(pc_ctx_t *x, pc_want_t *w) {
    gc_status_t st = pc_idle(x);
    uint32_t l = (x->c + x->r) % 2 ? GC_GPFIFO_LOG2_MAX + 1 + (x->c + x->r) % (31 - GC_GPFIFO_LOG2_MAX) : 0;
    *w = (pc_want_t){GC_ERROR_CAUSE_BAD_RING, x->entry, 0, l};
    return st != GC_OK ? st : gc_mmio_write(x->f->dev, GC_REG_CHANNEL_GPFIFO_SIZE(x->c), GC_CHANNEL_GPFIFO_SIZE_LOG2(l));
}

/* A compute task that faults (runlist 0): ERROR_METHOD / _DATA name its SEND_SIGNALING_PCAS_B. */
static gc_status_t pc_task(pc_ctx_t *x, pc_want_t *w) {
    uint32_t words[8];
    gc_pushbuf_t pb;
    gc_pb_init(&pb, words, 8);
    gc_pb_set_object(&pb, x->s, GC_CLASS_COMPUTE);
    gc_pb_compute_launch(&pb, x->s, x->f->tmd.addr);
    *w = (pc_want_t){GC_ERROR_CAUSE_TASK_FAULT, x->entry, util_err_method(x->s, GC_COMPUTE_SEND_SIGNALING_PCAS_B),
                     words[pb.len - 1]};
    gc_channel_set_subch_class(x->f->ch[x->c], x->s, GC_CLASS_COMPUTE);
    return gc_channel_submit(x->f->ch[x->c], &pb);
}

/* A reduction form NVIDIA rejects: INC 64-bit, DEC signed, IADD 64-bit signed. */
static gc_status_t pc_reduction(pc_ctx_t *x, pc_want_t *w) {
    static const uint32_t form[] = {
        GC_HOST_SEM_EXECUTE_REDUCTION(GC_HOST_SEM_EXECUTE_REDUCTION_INC) |
            GC_HOST_SEM_EXECUTE_PAYLOAD_SIZE(GC_HOST_SEM_EXECUTE_PAYLOAD_SIZE_64BIT) |
            GC_HOST_SEM_EXECUTE_REDUCTION_FORMAT(GC_HOST_SEM_EXECUTE_REDUCTION_FORMAT_UNSIGNED),
        GC_HOST_SEM_EXECUTE_REDUCTION(GC_HOST_SEM_EXECUTE_REDUCTION_DEC) |
            GC_HOST_SEM_EXECUTE_REDUCTION_FORMAT(GC_HOST_SEM_EXECUTE_REDUCTION_FORMAT_SIGNED),
        GC_HOST_SEM_EXECUTE_REDUCTION(GC_HOST_SEM_EXECUTE_REDUCTION_IADD) |
            GC_HOST_SEM_EXECUTE_PAYLOAD_SIZE(GC_HOST_SEM_EXECUTE_PAYLOAD_SIZE_64BIT) |
            GC_HOST_SEM_EXECUTE_REDUCTION_FORMAT(GC_HOST_SEM_EXECUTE_REDUCTION_FORMAT_SIGNED),
    };
    uint32_t exe = GC_HOST_SEM_EXECUTE_OPERATION(GC_HOST_SEM_EXECUTE_OPERATION_REDUCTION) | form[(x->c + x->r) % 3];
    *w = (pc_want_t){GC_ERROR_CAUSE_INVALID_REDUCTION, x->entry, util_err_method(0, GC_HOST_SEM_EXECUTE), exe};
    return pc_submit_sem(x, pc_sem(x->f, x->c, 8), 1, exe);
}

typedef struct pc_raiser {
    gc_status_t (*raise)(pc_ctx_t *, pc_want_t *);
    bool compute_only;
} pc_raiser_t;

/* One raiser per cause of the ERROR_CAUSE enum (NONE aside), in its order. */
static const pc_raiser_t pc_raisers[] = {
    {pc_gpfifo_entry, false}, {pc_method_header, false}, {pc_method_unknown, false}, {pc_subchannel, false},
    {pc_class, false},        {pc_bus_error, false},     {pc_misaligned, false},     {pc_unsupported, false},
    {pc_acquire, false},      {pc_bad_gp_put, false},    {pc_bad_ring, false},       {pc_task, true},
    {pc_reduction, false},
};
#define PC_CAUSES (sizeof pc_raisers / sizeof pc_raisers[0])
#define PC_SLOTS (PC_CAUSES + 1) /* the last slot: a good round */

/* A good round: on a copy runlist a copy, on runlist 0 a host release (and either way the
 * releases before it); checked after the round. */
static gc_status_t pc_good(pc_ctx_t *x) {
    pc_fx_t *f = x->f;
    uint32_t words[32];
    gc_pushbuf_t pb;
    gc_pb_init(&pb, words, 32);
    if (x->c % f->p.runlists != 0)
        gc_pb_copy(&pb, 4, f->dst.addr + PC_COPY * x->c, f->src.addr + PC_COPY * x->c, PC_COPY, true,
                   pc_sem(f, x->c, 3), x->tag);
    else
        gc_pb_sem_release(&pb, pc_sem(f, x->c, 3), x->tag, false, true);
    return gc_channel_submit(f->ch[x->c], &pb);
}

/* Every cause of the ERROR_CAUSE enum on every channel the device has (GLOBAL.CONFIG), the
 * channels on every runlist (channel c on runlist c mod runlists): in round r channel c raises
 * cause 1 + (c + r) mod 14 (cause 14: none, a copy or a release instead), so each round raises
 * every cause at once on different channels, and over the rounds every channel raises every cause
 * (a compute task's fault only on runlist 0 channels; the others run a good round instead).
 * Before the fault each channel runs 0..2 entries of releases.  After each round: every faulted
 * channel's ERROR, ERROR_GP_GET, ERROR_METHOD and ERROR_DATA hold its own fault, the driver's
 * message names it, the releases before it landed, FAULT_CHANNELS is exactly the faulted channels
 * and INTR_STATUS.CHANNEL_FAULT is set (a task fault: TASK_FAULT too, and the COMPUTE.FAULT_*
 * record names its channel and the NULL fetch); the channels that did not fault finished their
 * copies with the right data; CTRL.RESET (the driver's reset) clears each record and
 * FAULT_CHANNELS, and the channel runs again in the next round and in a last round where every
 * channel copies or releases. */
static void t_causes_per_channel(void) {
    static pc_fx_t fx;
    pc_fx_t *f = &fx;
    memset(f, 0, sizeof *f);
    gc_device_t *dev = f->dev = util_open_props(&f->p);
    REQUIRE(dev);
    uint32_t n = f->p.channels, rls = f->p.runlists;
    if (n < PC_SLOTS || n > GC_NUM_CHANNELS || rls < 2) {
        TCASE_FAIL_("device with %u channels (%zu..%u) and %u runlists (>= 2): not what this test drives", n,
                    PC_SLOTS, GC_NUM_CHANNELS, rls);
        gc_device_close(dev);
        return;
    }
    REQUIRE_OK(dev, gc_mem_alloc(dev, GC_MEM_SYSMEM, 64u * n, 64, &f->sem));
    REQUIRE_OK(dev, gc_mem_alloc(dev, GC_MEM_SYSMEM, 64u * n, 64, &f->seg));
    REQUIRE_OK(dev, gc_mem_alloc(dev, GC_MEM_SYSMEM, PC_COPY * n, 64, &f->src));
    REQUIRE_OK(dev, gc_mem_alloc(dev, GC_MEM_VIDMEM, PC_COPY * n, 64, &f->dst));
    static uint8_t data[PC_COPY * GC_NUM_CHANNELS], got[PC_COPY * GC_NUM_CHANNELS];
    gcsc_fill(data, PC_COPY * n, 23);
    REQUIRE_OK(dev, gc_mem_write(dev, f->src.addr, data, PC_COPY * n));
    for (uint32_t c = 0; c < n; c++) {
        uint32_t nop[2] = {GC_METHOD_HEADER_SEC_OP(GC_METHOD_HEADER_SEC_OP_INC_METHOD) | GC_METHOD_HEADER_COUNT(1) |
                               GC_METHOD_HEADER_ADDRESS(GC_HOST_NOP / 4),
                           0};
        REQUIRE_OK(dev, gc_mem_write(dev, f->seg.addr + 64u * c, nop, sizeof nop));
    }
    if (f->p.compute) {
        gc_tmd_t t;
        gc_tmd_init(&t); /* entry PC 0 */
        REQUIRE_OK(dev, gc_mem_alloc(dev, GC_MEM_SYSMEM, GC_TMD_SIZE, GC_TMD_ALIGN, &f->tmd));
        REQUIRE_OK(dev, gc_compute_write_tmd(dev, &t, &f->tmd));
    }
    for (uint32_t c = 0; c < n; c++) {
        gc_channel_config_t cc;
        gc_channel_config_init(&cc);
        cc.id = (int)c;
        cc.runlist = c % rls;
        cc.acq_timeout = PC_ACQ_TIMEOUT;
        REQUIRE_OK(dev, gc_channel_open(dev, &cc, &f->ch[c]));
    }
    uint32_t covered[GC_NUM_CHANNELS] = {0}; /* per channel: causes raised (bit per cause) */
    uint32_t next[GC_NUM_CHANNELS];          /* per channel: index of its next entry */
    for (uint32_t c = 0; c < n; c++) next[c] = 1; /* entry 0: the open's SET_OBJECT */
    for (uint32_t r = 0; r <= PC_SLOTS; r++) { /* round PC_SLOTS: every channel good */
        static uint8_t zero[64 * GC_NUM_CHANNELS + PC_COPY * GC_NUM_CHANNELS];
        REQUIRE_OK(dev, gc_mem_write(dev, f->sem.addr, zero, 64u * n));
        REQUIRE_OK(dev, gc_mem_write(dev, f->dst.addr, zero, PC_COPY * n));
        pc_want_t want[GC_NUM_CHANNELS];
        uint32_t before[GC_NUM_CHANNELS], faulted = 0, task_ch = UINT32_MAX;
        for (uint32_t c = 0; c < n; c++) {
            pc_ctx_t x = {f, c, r, (c + r) % 8, 0xFA000000u | r << 16 | c << 8, next[c]};
            uint32_t slot = r < PC_SLOTS ? (c + r) % PC_SLOTS : PC_CAUSES;
            if (slot < PC_CAUSES && pc_raisers[slot].compute_only && (c % rls != 0 || !f->p.compute))
                slot = PC_CAUSES;
            before[c] = (c + r) % 3;
            for (uint32_t k = 0; k < before[c]; k++) { /* releases first, an entry each */
                uint32_t words[8];
                gc_pushbuf_t pb;
                gc_pb_init(&pb, words, 8);
                gc_pb_sem_release(&pb, pc_sem(f, c, k), x.tag | 0x80 | k, false, false);
                REQUIRE_OK(dev, gc_channel_submit(f->ch[c], &pb));
                x.entry++;
            }
            want[c].cause = GC_ERROR_CAUSE_NONE;
            if (slot == PC_CAUSES) {
                REQUIRE_OK(dev, pc_good(&x));
                next[c] = x.entry + 2; /* the good entry and wait_idle's fence */
                continue;
            }
            REQUIRE_OK(dev, pc_raisers[slot].raise(&x, &want[c]));
            CHECK_EQ(want[c].cause, slot + 1); /* the table follows the enum */
            faulted |= 1u << c;
            covered[c] |= 1u << slot;
            if (want[c].cause == GC_ERROR_CAUSE_TASK_FAULT) task_ch = c;
        }
        for (uint32_t c = 0; c < n; c++) {
            gc_status_t st = gc_channel_wait_idle(f->ch[c]);
            char msg[512];
            snprintf(msg, sizeof msg, "%s", gc_device_last_error(dev));
            gc_channel_error_t e;
            REQUIRE_OK(dev, gc_channel_error(f->ch[c], &e));
            const pc_want_t *w = &want[c];
            if (w->cause == GC_ERROR_CAUSE_NONE) {
                if (st != GC_OK || e.cause != GC_ERROR_CAUSE_NONE)
                    TCASE_FAIL_("round %u channel %u: %s, %s (expected no fault)", r, c, gc_status_str(st), msg);
            } else {
                if (st != GC_ERR_CHANNEL_FAULT || e.cause != w->cause || e.gp_get != w->gp_get ||
                    e.method != w->method || e.data != w->data)
                    TCASE_FAIL_("round %u channel %u: %s, cause %s GP_GET %u method 0x%08x data 0x%08x; expected %s "
                                "GP_GET %u method 0x%08x data 0x%08x",
                                r, c, gc_status_str(st), gc_error_cause_name(e.cause), e.gp_get, e.method, e.data,
                                gc_error_cause_name(w->cause), w->gp_get, w->method, w->data);
                char head[64];
                snprintf(head, sizeof head, "channel %u: %s at GP_GET %u", c, gc_error_cause_name(w->cause), w->gp_get);
                if (!strstr(msg, head)) TCASE_FAIL_("round %u: the driver reported '%s', expected '%s...'", r, msg, head);
            }
        }
        uint32_t sems[16 * GC_NUM_CHANNELS];
        REQUIRE_OK(dev, gc_mem_read(dev, f->sem.addr, sems, 64u * n));
        REQUIRE_OK(dev, gc_mem_read(dev, f->dst.addr, got, PC_COPY * n));
        for (uint32_t c = 0; c < n; c++) {
            uint32_t tag = 0xFA000000u | r << 16 | c << 8;
            for (uint32_t k = 0; k < 3; k++)
                if (sems[16 * c + k] != (k < before[c] ? (tag | 0x80 | k) : 0))
                    TCASE_FAIL_("round %u channel %u: release %u before the fault is 0x%08x", r, c, k, sems[16 * c + k]);
            bool good = !(faulted >> c & 1);
            CHECK_EQ(sems[16 * c + 3], good ? tag : 0);
            CHECK_EQ(sems[16 * c + 4], 0); /* the acquired word: nobody released it */
            if (good && c % rls != 0) {
                char what[48];
                snprintf(what, sizeof what, "round %u channel %u copy", r, c);
                CHECK_EQ(util_diff(what, data + PC_COPY * c, got + PC_COPY * c, PC_COPY), 0);
            }
        }
        uint32_t fc = 0, is = 0;
        REQUIRE_OK(dev, gc_mmio_read(dev, GC_REG_GLOBAL_FAULT_CHANNELS, &fc));
        REQUIRE_OK(dev, gc_mmio_read(dev, GC_REG_GLOBAL_INTR_STATUS, &is));
        CHECK_EQ(fc, faulted);
        CHECK_EQ(GC_GLOBAL_INTR_STATUS_CHANNEL_FAULT_GET(is), faulted != 0);
        CHECK_EQ(GC_GLOBAL_INTR_STATUS_TASK_FAULT_GET(is), task_ch != UINT32_MAX);
        if (task_ch != UINT32_MAX) {
            gc_compute_fault_t cf;
            REQUIRE_OK(dev, gc_compute_fault_read(dev, &cf));
            CHECK_EQ(cf.channel, task_ch);
            CHECK_EQ(cf.cause, GC_SIMT_FAULT_NULL_ACCESS); /* the fetch at entry PC 0 */
        }
        for (uint32_t c = 0; c < n; c++) {
            if (!(faulted >> c & 1)) continue;
            gc_channel_error_t e;
            REQUIRE_OK(dev, gc_channel_reset(f->ch[c]));
            next[c] = 1;
            REQUIRE_OK(dev, gc_channel_error(f->ch[c], &e));
            CHECK_EQ(e.cause, GC_ERROR_CAUSE_NONE);
            CHECK_EQ(e.gp_get | e.method | e.data, 0);
        }
        REQUIRE_OK(dev, gc_mmio_read(dev, GC_REG_GLOBAL_FAULT_CHANNELS, &fc));
        CHECK_EQ(fc, 0);
        REQUIRE_OK(dev, gc_mmio_write(dev, GC_REG_GLOBAL_INTR_STATUS, is));
        REQUIRE_OK(dev, gc_mmio_read(dev, GC_REG_GLOBAL_INTR_STATUS, &is));
        CHECK_EQ(is & (GC_GLOBAL_INTR_STATUS_CHANNEL_FAULT(1) | GC_GLOBAL_INTR_STATUS_TASK_FAULT(1)), 0);
    }
    for (uint32_t c = 0; c < n; c++) { /* every cause on every channel (the task fault on runlist 0's) */
        uint32_t all = (1u << PC_CAUSES) - 1;
        if (c % rls != 0 || !f->p.compute) all &= ~(1u << (GC_ERROR_CAUSE_TASK_FAULT - 1));
        CHECK_EQ(covered[c], all);
    }
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
    {"fault_causes_per_channel", t_causes_per_channel},
};
TCASE_MAIN(cases)
