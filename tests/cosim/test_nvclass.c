/* Pushbuffers written the way NVIDIA's own driver writes them (clc56f host class, clc5b5 copy
 * class, dev_ram.ref pushbuffer words), every field value taken from the spec-generated header:
 * semaphore-only LAUNCH_DMA, copy-engine reductions, unimplemented LAUNCH_DMA values, host
 * reductions with RELEASE_TIMESTAMP, the reduction forms NVIDIA rejects, DMA_NOP words.
 * docs/nvidia-deviations.md lists where the model departs from NVIDIA's documents. */
#include <inttypes.h>

#include "cosim_util.h"
#include "gpucosim/props.h"
#include "tcase.h"

#define CE_SUBCH 4u /* gc_channel_open binds the copy class here */

/* SET_SEMAPHORE_A / _B / _PAYLOAD then LAUNCH_DMA `launch`, as NVIDIA's driver pushes a release. */
static void ce_launch(gc_pushbuf_t *pb, uint64_t sem, uint32_t payload, uint32_t launch) {
    uint32_t d[3] = {GC_COPY_SET_SEMAPHORE_A_UPPER((uint32_t)(sem >> 32)), GC_COPY_SET_SEMAPHORE_B_LOWER((uint32_t)sem),
                     GC_COPY_SET_SEMAPHORE_PAYLOAD_PAYLOAD(payload)};
    gc_pb_incr(pb, CE_SUBCH, GC_COPY_SET_SEMAPHORE_A, d, 3);
    gc_pb_method(pb, CE_SUBCH, GC_COPY_LAUNCH_DMA, launch);
}

/* A semaphore-only LAUNCH_DMA: DATA_TRANSFER_TYPE NONE, the layout fields left 0 (BLOCKLINEAR),
 * FLUSH_ENABLE TRUE, the given SEMAPHORE_TYPE (and the optional extra fields). */
static uint32_t release_only(uint32_t semt, uint32_t extra) {
    return GC_COPY_LAUNCH_DMA_DATA_TRANSFER_TYPE(GC_COPY_LAUNCH_DMA_DATA_TRANSFER_TYPE_NONE) |
           GC_COPY_LAUNCH_DMA_FLUSH_ENABLE(GC_COPY_LAUNCH_DMA_FLUSH_ENABLE_TRUE) |
           GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE(semt) | extra;
}

static uint32_t reduction(uint32_t red, bool is_signed) {
    return GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION(red) |
           GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_SIGN(is_signed ? GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_SIGN_SIGNED
                                                                 : GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_SIGN_UNSIGNED) |
           GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_ENABLE(GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_ENABLE_TRUE);
}

static gc_status_t run(gc_channel_t *ch, const gc_pushbuf_t *pb) {
    gc_status_t st = gc_channel_submit(ch, pb);
    return st ? st : gc_channel_wait_idle(ch);
}

/* A channel fault: the wait reports it, the record names `method` with `data`. */
static void expect_fault(gc_device_t *dev, gc_channel_t *ch, const gc_pushbuf_t *pb, uint32_t cause, uint32_t method,
                         uint32_t data, const char *what) {
    gc_status_t st = gc_channel_submit(ch, pb);
    if (st == GC_OK) st = gc_channel_wait_idle(ch);
    gc_channel_error_t e = {0};
    gc_channel_error(ch, &e);
    if (st != GC_ERR_CHANNEL_FAULT || e.cause != cause || GC_CHANNEL_ERROR_METHOD_ADDRESS_GET(e.method) != method / 4 ||
        e.data != data)
        TCASE_FAIL_("%s: status %s, cause %s method 0x%04x data 0x%08x; expected %s, method 0x%04x, data 0x%08x", what,
                    gc_status_str(st), gc_error_cause_name(e.cause), GC_CHANNEL_ERROR_METHOD_ADDRESS_GET(e.method) * 4,
                    e.data, gc_error_cause_name(cause), method, data);
    else
        fprintf(stderr, "%s: %s\n", what, gc_device_last_error(dev));
}

/* A device with one channel (copy class on CE_SUBCH) and a sysmem scratch buffer. */
typedef struct fx {
    gc_device_t *dev;
    gc_channel_t *ch;
    gc_buf_t s;
} fx_t;

static bool fx_open(fx_t *f, uint64_t bytes) {
    memset(f, 0, sizeof *f);
    f->dev = util_open(NULL);
    if (!f->dev) return false;
    if (gc_channel_open(f->dev, NULL, &f->ch) == GC_OK && gc_mem_alloc(f->dev, GC_MEM_SYSMEM, bytes, 64, &f->s) == GC_OK)
        return true;
    fprintf(stderr, "setup: %s\n", gc_device_last_error(f->dev));
    gc_device_close(f->dev);
    return false;
}

static uint64_t rd64(gc_device_t *dev, uint64_t a) {
    uint64_t v = 0;
    gc_mem_read(dev, a, &v, 8);
    return v;
}

static uint32_t rd32(gc_device_t *dev, uint64_t a) {
    uint32_t v = 0;
    gc_mem_read(dev, a, &v, 4);
    return v;
}

/* Semaphore-only LAUNCH_DMAs (UVM's form): one-word and four-word releases, an interrupt-only
 * LAUNCH_DMA; the fields with no effect here (SRC/DST_TYPE, FLUSH_TYPE, BYPASS_L2, DISABLE_PLC,
 * FORCE_RMWDISABLE) at both values. */
static void t_release_only(void) {
    fx_t f;
    REQUIRE(fx_open(&f, 256));
    gc_device_t *dev = f.dev;
    gc_channel_t *ch = f.ch;
    gc_buf_t s = f.s;
    uint8_t junk[256];
    memset(junk, 0xA5, sizeof junk);
    REQUIRE_OK(dev, gc_mem_write(dev, s.addr, junk, sizeof junk));
    REQUIRE_OK(dev, gc_mmio_write(dev, GC_REG_GLOBAL_INTR_ENABLE, GC_GLOBAL_INTR_ENABLE_NON_STALL(1)));
    uint32_t w[64];
    gc_pushbuf_t pb;
    gc_pb_init(&pb, w, 64);
    const uint32_t no_effect =
        GC_COPY_LAUNCH_DMA_FLUSH_TYPE(GC_COPY_LAUNCH_DMA_FLUSH_TYPE_GL) |
        GC_COPY_LAUNCH_DMA_FORCE_RMWDISABLE(GC_COPY_LAUNCH_DMA_FORCE_RMWDISABLE_TRUE) |
        GC_COPY_LAUNCH_DMA_SRC_TYPE(GC_COPY_LAUNCH_DMA_SRC_TYPE_PHYSICAL) |
        GC_COPY_LAUNCH_DMA_DST_TYPE(GC_COPY_LAUNCH_DMA_DST_TYPE_PHYSICAL) |
        GC_COPY_LAUNCH_DMA_SRC_BYPASS_L2(GC_COPY_LAUNCH_DMA_SRC_BYPASS_L2_FORCE_VOLATILE) |
        GC_COPY_LAUNCH_DMA_DST_BYPASS_L2(GC_COPY_LAUNCH_DMA_DST_BYPASS_L2_FORCE_VOLATILE) |
        GC_COPY_LAUNCH_DMA_DISABLE_PLC(GC_COPY_LAUNCH_DMA_DISABLE_PLC_TRUE);
    ce_launch(&pb, s.addr + 4, 0x11111111u, release_only(GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE_RELEASE_ONE_WORD_SEMAPHORE, 0));
    ce_launch(&pb, s.addr + 16, 0x22222222u,
              release_only(GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE_RELEASE_FOUR_WORD_SEMAPHORE, 0));
    ce_launch(&pb, s.addr + 36, 0x33333333u,
              release_only(GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE_RELEASE_ONE_WORD_SEMAPHORE, no_effect));
    ce_launch(&pb, s.addr + 48, 0x44444444u,
              release_only(GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE_RELEASE_FOUR_WORD_SEMAPHORE, no_effect));
    uint64_t t0 = gc_device_cycles(dev);
    REQUIRE_OK(dev, run(ch, &pb));
    CHECK_EQ(rd32(dev, s.addr + 0), 0xA5A5A5A5u); /* around the one-word release: untouched */
    CHECK_EQ(rd32(dev, s.addr + 4), 0x11111111u);
    CHECK_EQ(rd32(dev, s.addr + 8), 0xA5A5A5A5u);
    CHECK_EQ(rd32(dev, s.addr + 16), 0x22222222u); /* payload, then the start word (row 17) */
    CHECK_EQ(rd32(dev, s.addr + 36), 0x33333333u);
    CHECK_EQ(rd32(dev, s.addr + 48), 0x44444444u);
    uint64_t st1 = rd64(dev, s.addr + 24), st2 = rd64(dev, s.addr + 56);
    CHECK(st1 > t0 && st1 < st2 && st2 <= gc_device_cycles(dev)); /* released in push order */
    /* each four-word record starts when the engine took the command: after the previous one
     * ended, before its own release (the run is far shorter than 2^32 cycles) */
    uint32_t w1 = rd32(dev, s.addr + 20), w2 = rd32(dev, s.addr + 52);
    CHECK(w1 > (uint32_t)t0 && w1 < (uint32_t)st1);
    CHECK(w2 > (uint32_t)st1 && w2 < (uint32_t)st2);
    /* an interrupt-only LAUNCH_DMA: no semaphore, NON_BLOCKING interrupt */
    CHECK(!gc_device_irq(dev));
    gc_pb_reset(&pb);
    gc_pb_method(&pb, CE_SUBCH, GC_COPY_LAUNCH_DMA,
                 release_only(GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE_NONE,
                              GC_COPY_LAUNCH_DMA_INTERRUPT_TYPE(GC_COPY_LAUNCH_DMA_INTERRUPT_TYPE_NON_BLOCKING)));
    REQUIRE_OK(dev, run(ch, &pb));
    CHECK(gc_device_irq(dev));
    /* hostdrv's encoder builds the same form */
    gc_copy_desc_t d = {.no_data = true, .sem = GC_COPY_SEM_FOUR_WORD, .sem_addr = s.addr + 64, .sem_payload = 0x55};
    gc_pb_reset(&pb);
    gc_pb_copy_desc(&pb, CE_SUBCH, &d);
    REQUIRE_OK(dev, pb.status);
    CHECK_EQ(pb.len, 6); /* SET_SEMAPHORE_A..PAYLOAD (header + 3) and LAUNCH_DMA (header + 1) */
    REQUIRE_OK(dev, run(ch, &pb));
    uint32_t rec[4];
    REQUIRE_OK(dev, gc_mem_read(dev, s.addr + 64, rec, sizeof rec));
    gc_copy_record_t r = gc_copy_record(rec);
    CHECK_EQ(r.payload, 0x55);
    CHECK(r.start > st2 && r.start < r.end); /* taken after the earlier ones, before its release */
    gc_device_close(dev);
}

typedef struct red_case {
    uint32_t red;
    bool is_signed;
    uint32_t init, payload, want;
} red_case_t;

/* Every copy-class reduction (NVIDIA's definitions), signed and unsigned where NVIDIA allows both,
 * with values at both ends: 32-bit wraps, INC / DEC wrapping at the payload, min / max with
 * negatives. */
static const red_case_t ce_reds[] = {
    {GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_IMIN, true, 5, (uint32_t)-3, (uint32_t)-3},
    {GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_IMIN, false, 5, (uint32_t)-3, 5},
    {GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_IMIN, true, 0x80000000u, 0x7FFFFFFFu, 0x80000000u},
    {GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_IMIN, false, 0x80000000u, 0x7FFFFFFFu, 0x7FFFFFFFu},
    {GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_IMAX, true, (uint32_t)-1, 1, 1},
    {GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_IMAX, false, (uint32_t)-1, 1, 0xFFFFFFFFu},
    {GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_IMAX, true, 0x80000000u, 0x7FFFFFFFu, 0x7FFFFFFFu},
    {GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_IMAX, false, 0, 0, 0},
    {GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_IXOR, true, 0xF0F0F0F0u, 0xFFFF0000u, 0x0F0FF0F0u},
    {GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_IXOR, false, 0xFFFFFFFFu, 0xFFFFFFFFu, 0},
    {GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_IAND, true, 0xF0F0F0F0u, 0xFFFF0000u, 0xF0F00000u},
    {GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_IAND, false, 0xFFFFFFFFu, 0, 0},
    {GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_IOR, true, 0xF0F0F0F0u, 0x0000FFFFu, 0xF0F0FFFFu},
    {GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_IOR, false, 0, 0xFFFFFFFFu, 0xFFFFFFFFu},
    {GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_IADD, false, 0xFFFFFFFFu, 2, 1},                 /* wraps */
    {GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_IADD, true, 0x7FFFFFFFu, 1, 0x80000000u},        /* wraps */
    {GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_IADD, true, 5, (uint32_t)-7, (uint32_t)-2},
    {GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_INC, false, 2, 3, 3},
    {GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_INC, false, 3, 3, 0},                            /* at the payload */
    {GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_INC, false, 9, 3, 0},                            /* above it */
    {GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_INC, false, 0xFFFFFFFEu, 0xFFFFFFFFu, 0xFFFFFFFFu},
    {GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_INC, false, 0xFFFFFFFFu, 0xFFFFFFFFu, 0},
    {GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_INC, false, 7, 0, 0},                            /* payload 0 */
    {GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_DEC, false, 0, 7, 7},                            /* from 0 */
    {GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_DEC, false, 9, 7, 7},                            /* above it */
    {GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_DEC, false, 7, 7, 6},
    {GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_DEC, false, 1, 7, 0},
    {GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_DEC, false, 0, 0xFFFFFFFFu, 0xFFFFFFFFu},
    {GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_DEC, false, 5, 0, 0},                            /* payload 0 */
};
#define N_CE_REDS (sizeof ce_reds / sizeof ce_reds[0])

/* Each case as a one-word release-only reduction on its own word, as a four-word one (the
 * result, the start word, the stamp) and after a copy (the reduction waits for the data). */
static void t_ce_reductions(void) {
    gc_device_t *dev = util_open(NULL);
    REQUIRE(dev);
    gc_channel_t *ch;
    REQUIRE_OK(dev, gc_channel_open(dev, NULL, &ch));
    gc_buf_t one, four, src, dst;
    REQUIRE_OK(dev, gc_mem_alloc(dev, GC_MEM_SYSMEM, 4 * N_CE_REDS, 64, &one));
    REQUIRE_OK(dev, gc_mem_alloc(dev, GC_MEM_SYSMEM, 16 * N_CE_REDS, 64, &four));
    REQUIRE_OK(dev, gc_mem_alloc(dev, GC_MEM_VIDMEM, 4096, 64, &src));
    REQUIRE_OK(dev, gc_mem_alloc(dev, GC_MEM_SYSMEM, 4096, 64, &dst));
    for (size_t i = 0; i < N_CE_REDS; i++) {
        uint32_t q[4] = {ce_reds[i].init, 0xDEADBEEFu, 0xDEADBEEFu, 0xDEADBEEFu};
        REQUIRE_OK(dev, gc_mem_write(dev, one.addr + 4 * i, &ce_reds[i].init, 4));
        REQUIRE_OK(dev, gc_mem_write(dev, four.addr + 16 * i, q, 16));
    }
    static uint8_t s[4096], g[4096];
    gcsc_fill(s, sizeof s, 5);
    REQUIRE_OK(dev, gc_mem_write(dev, src.addr, s, sizeof s));
    static uint32_t w[1024];
    gc_pushbuf_t pb;
    gc_pb_init(&pb, w, 1024);
    for (size_t i = 0; i < N_CE_REDS; i++) {
        const red_case_t *c = &ce_reds[i];
        uint32_t red = reduction(c->red, c->is_signed);
        ce_launch(&pb, one.addr + 4 * i, c->payload,
                  release_only(GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE_RELEASE_ONE_WORD_SEMAPHORE, red));
        ce_launch(&pb, four.addr + 16 * i, c->payload,
                  release_only(GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE_RELEASE_FOUR_WORD_SEMAPHORE, red));
    }
    uint64_t t0 = gc_device_cycles(dev);
    REQUIRE_OK(dev, run(ch, &pb));
    uint64_t prev = t0;
    for (size_t i = 0; i < N_CE_REDS; i++) {
        const red_case_t *c = &ce_reds[i];
        uint32_t q[4];
        REQUIRE_OK(dev, gc_mem_read(dev, four.addr + 16 * i, q, 16));
        uint64_t stamp = q[2] | (uint64_t)q[3] << 32;
        uint32_t got = rd32(dev, one.addr + 4 * i);
        uint64_t start = gc_copy_record(q).start; /* the engine took it */
        if (got != c->want || q[0] != c->want || start <= prev || start >= stamp)
            TCASE_FAIL_("reduction %u %s: 0x%08x op 0x%08x gave 0x%08x (four-word 0x%08x start word 0x%08x stamp %" PRIu64
                        ", previous %" PRIu64 "), expected 0x%08x",
                        c->red, c->is_signed ? "signed" : "unsigned", c->init, c->payload, got, q[0], q[1], stamp, prev,
                        c->want);
        prev = stamp;
    }
    /* after a copy: the release reduces once the copy's data landed (hostdrv's encoder) */
    uint32_t ctr = 40;
    REQUIRE_OK(dev, gc_mem_write(dev, one.addr, &ctr, 4));
    gc_pb_reset(&pb);
    gc_copy_desc_t d = {.dst = dst.addr, .src = src.addr, .line_bytes = 4096, .line_count = 1,
                        .sem = GC_COPY_SEM_ONE_WORD, .sem_addr = one.addr, .sem_payload = 2, .sem_reduce = true,
                        .sem_red = GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_IADD};
    gc_pb_copy_desc(&pb, CE_SUBCH, &d);
    gc_pb_copy_desc(&pb, CE_SUBCH, &d);
    REQUIRE_OK(dev, run(ch, &pb));
    CHECK_EQ(rd32(dev, one.addr), 44);
    REQUIRE_OK(dev, gc_mem_read(dev, dst.addr, g, sizeof g));
    CHECK_EQ(util_diff("copy with a reduction release", s, g, sizeof g), 0);
    gc_device_close(dev);
}

/* LAUNCH_DMA values the model does not implement fault UNSUPPORTED (a form NVIDIA rejects:
 * INVALID_REDUCTION) on that channel only, before anything is written; a channel on the same
 * runlist keeps running, and the faulted one runs again after a reset. */
static void t_ce_unsupported(void) {
    gc_device_t *dev = util_open(NULL);
    REQUIRE(dev);
    gc_channel_t *bad, *good;
    REQUIRE_OK(dev, gc_channel_open(dev, NULL, &bad));
    REQUIRE_OK(dev, gc_channel_open(dev, NULL, &good));
    gc_buf_t s, src, dst;
    REQUIRE_OK(dev, gc_mem_alloc(dev, GC_MEM_SYSMEM, 256, 64, &s));
    REQUIRE_OK(dev, gc_mem_alloc(dev, GC_MEM_VIDMEM, 1024, 64, &src));
    REQUIRE_OK(dev, gc_mem_alloc(dev, GC_MEM_VIDMEM, 1024, 64, &dst));
    static uint8_t data[1024], g[1024];
    gcsc_fill(data, sizeof data, 7);
    REQUIRE_OK(dev, gc_mem_write(dev, src.addr, data, sizeof data));
    const uint32_t one = GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE_RELEASE_ONE_WORD_SEMAPHORE;
    const uint32_t pitch = GC_COPY_LAUNCH_DMA_DATA_TRANSFER_TYPE(GC_COPY_LAUNCH_DMA_DATA_TRANSFER_TYPE_NON_PIPELINED) |
                           GC_COPY_LAUNCH_DMA_SRC_MEMORY_LAYOUT(GC_COPY_LAUNCH_DMA_SRC_MEMORY_LAYOUT_PITCH) |
                           GC_COPY_LAUNCH_DMA_DST_MEMORY_LAYOUT(GC_COPY_LAUNCH_DMA_DST_MEMORY_LAYOUT_PITCH);
    const uint32_t copy = pitch | GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE(one); /* a copy with a one-word release */
    const struct {
        uint32_t launch, cause;
        const char *what;
    } bad_words[] = {
        /* copies (PITCH layouts) with one value the model does not implement */
        {copy | reduction(GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_FADD, false), GC_ERROR_CAUSE_UNSUPPORTED,
         "SEMAPHORE_REDUCTION FADD"},
        {copy | reduction(GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_DEC + 1, false), GC_ERROR_CAUSE_UNSUPPORTED,
         "SEMAPHORE_REDUCTION 8 (not named)"},
        {copy | reduction(GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_MASK, true), GC_ERROR_CAUSE_UNSUPPORTED,
         "SEMAPHORE_REDUCTION 15 (not named)"},
        {pitch | reduction(GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_IADD, false), GC_ERROR_CAUSE_UNSUPPORTED,
         "reduction without a release"},
        {pitch | GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE(GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE_RELEASE_CONDITIONAL_INTR_SEMAPHORE),
         GC_ERROR_CAUSE_UNSUPPORTED, "SEMAPHORE_TYPE RELEASE_CONDITIONAL_INTR_SEMAPHORE"},
        {copy | GC_COPY_LAUNCH_DMA_INTERRUPT_TYPE(GC_COPY_LAUNCH_DMA_INTERRUPT_TYPE_BLOCKING), GC_ERROR_CAUSE_UNSUPPORTED,
         "INTERRUPT_TYPE BLOCKING"},
        {copy | GC_COPY_LAUNCH_DMA_VPRMODE(GC_COPY_LAUNCH_DMA_VPRMODE_VPR_VID2VID), GC_ERROR_CAUSE_UNSUPPORTED,
         "VPRMODE VPR_VID2VID"},
        {copy | GC_COPY_LAUNCH_DMA_VPRMODE(GC_COPY_LAUNCH_DMA_VPRMODE_VPR_SYS2VID), GC_ERROR_CAUSE_UNSUPPORTED,
         "VPRMODE VPR_SYS2VID"},
        {copy | GC_COPY_LAUNCH_DMA_RESERVED_START_OF_COPY(1), GC_ERROR_CAUSE_UNSUPPORTED, "RESERVED_START_OF_COPY 1"},
        {copy | GC_COPY_LAUNCH_DMA_RESERVED_27(1), GC_ERROR_CAUSE_UNSUPPORTED, "bit 27"},
        {copy | GC_COPY_LAUNCH_DMA_RESERVED_ERR_CODE(GC_COPY_LAUNCH_DMA_RESERVED_ERR_CODE_MASK),
         GC_ERROR_CAUSE_UNSUPPORTED, "RESERVED_ERR_CODE 15"},
        {copy | GC_COPY_LAUNCH_DMA_DATA_TRANSFER_TYPE(GC_COPY_LAUNCH_DMA_DATA_TRANSFER_TYPE_MASK),
         GC_ERROR_CAUSE_UNSUPPORTED, "DATA_TRANSFER_TYPE 3"},
        {copy & ~GC_COPY_LAUNCH_DMA_DST_MEMORY_LAYOUT(1), GC_ERROR_CAUSE_UNSUPPORTED,
         "copy to a BLOCKLINEAR destination"},
        {copy & ~GC_COPY_LAUNCH_DMA_SRC_MEMORY_LAYOUT(1), GC_ERROR_CAUSE_UNSUPPORTED, "copy from a BLOCKLINEAR source"},
        /* the release-only form NVIDIA's driver pushes, with a reduction form NVIDIA rejects */
        {release_only(one, reduction(GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_INC, true)),
         GC_ERROR_CAUSE_INVALID_REDUCTION, "signed INC"},
        {copy | reduction(GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_DEC, true), GC_ERROR_CAUSE_INVALID_REDUCTION,
         "signed DEC"},
    };
    uint32_t w[64];
    gc_pushbuf_t pb;
    for (uint32_t k = 0; k < sizeof bad_words / sizeof bad_words[0]; k++) {
        uint32_t sentinel[2] = {0x5EAD0000u + k, 0x5EAD0000u + k};
        REQUIRE_OK(dev, gc_mem_write(dev, s.addr, sentinel, 8));
        /* the bad channel: a copy and the bad LAUNCH_DMA (released to s + 0) */
        gc_pb_init(&pb, w, 64);
        uint32_t geo[4] = {(uint32_t)(src.addr >> 32), (uint32_t)src.addr, (uint32_t)(dst.addr >> 32), (uint32_t)dst.addr};
        gc_pb_incr(&pb, CE_SUBCH, GC_COPY_OFFSET_IN_UPPER, geo, 4);
        gc_pb_method(&pb, CE_SUBCH, GC_COPY_LINE_LENGTH_IN, 1024);
        ce_launch(&pb, s.addr, 1, bad_words[k].launch);
        if (k == 0) {
            /* the good channel runs alongside: a copy and a release to s + 8 */
            gc_pushbuf_t gp;
            uint32_t gw[64];
            gc_pb_init(&gp, gw, 64);
            gc_copy_desc_t d = {.dst = dst.addr, .src = src.addr, .line_bytes = 1024, .line_count = 1,
                                .sem = GC_COPY_SEM_ONE_WORD, .sem_addr = s.addr + 8, .sem_payload = 0x600D};
            gc_pb_copy_desc(&gp, CE_SUBCH, &d);
            REQUIRE_OK(dev, gc_channel_submit(good, &gp));
        }
        expect_fault(dev, bad, &pb, bad_words[k].cause, GC_COPY_LAUNCH_DMA, bad_words[k].launch, bad_words[k].what);
        CHECK_EQ(rd32(dev, s.addr), 0x5EAD0000u + k); /* nothing released */
        REQUIRE_OK(dev, gc_channel_reset(bad));
    }
    REQUIRE_OK(dev, gc_channel_wait_idle(good));
    CHECK_EQ(rd32(dev, s.addr + 8), 0x600D);
    REQUIRE_OK(dev, gc_mem_read(dev, dst.addr, g, sizeof g));
    CHECK_EQ(util_diff("the good channel's copy", data, g, sizeof g), 0);
    /* after its reset the faulted channel releases (and reduces) again */
    gc_pb_init(&pb, w, 64);
    uint32_t four = 4;
    REQUIRE_OK(dev, gc_mem_write(dev, s.addr, &four, 4));
    ce_launch(&pb, s.addr, 4, release_only(one, reduction(GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_INC, false)));
    REQUIRE_OK(dev, run(bad, &pb));
    CHECK_EQ(rd32(dev, s.addr), 0);
    gc_device_close(dev);
}

/* SEM_EXECUTE word of a host reduction */
static uint32_t host_red(uint32_t red, bool is_signed, bool is64, bool stamp) {
    return GC_HOST_SEM_EXECUTE_OPERATION(GC_HOST_SEM_EXECUTE_OPERATION_REDUCTION) | GC_HOST_SEM_EXECUTE_REDUCTION(red) |
           GC_HOST_SEM_EXECUTE_REDUCTION_FORMAT(is_signed ? GC_HOST_SEM_EXECUTE_REDUCTION_FORMAT_SIGNED
                                                          : GC_HOST_SEM_EXECUTE_REDUCTION_FORMAT_UNSIGNED) |
           GC_HOST_SEM_EXECUTE_PAYLOAD_SIZE(is64 ? GC_HOST_SEM_EXECUTE_PAYLOAD_SIZE_64BIT
                                                 : GC_HOST_SEM_EXECUTE_PAYLOAD_SIZE_32BIT) |
           GC_HOST_SEM_EXECUTE_RELEASE_TIMESTAMP(stamp ? GC_HOST_SEM_EXECUTE_RELEASE_TIMESTAMP_EN
                                                       : GC_HOST_SEM_EXECUTE_RELEASE_TIMESTAMP_DIS);
}

/* Host REDUCTION with RELEASE_TIMESTAMP: 16 bytes at a 16-aligned address, {result, stamp} (a
 * 32-bit result zero-extended); one that is not 16-aligned faults MISALIGNED_SEMAPHORE. */
static void t_host_reduce_timestamp(void) {
    fx_t f;
    REQUIRE(fx_open(&f, 256));
    gc_device_t *dev = f.dev;
    gc_channel_t *ch = f.ch;
    gc_buf_t s = f.s;
    uint64_t init[8] = {0xDEADBEEF0000FFFEull, 0xDEADBEEFDEADBEEFull, 0xFFFFFFFFFFFFFFFFull, 0xDEADBEEFDEADBEEFull,
                        0x8000000000000000ull, 0xDEADBEEFDEADBEEFull, 0x00000000FFFFFFF0ull, 0xDEADBEEFDEADBEEFull};
    REQUIRE_OK(dev, gc_mem_write(dev, s.addr, init, sizeof init));
    uint32_t w[64];
    gc_pushbuf_t pb;
    gc_pb_init(&pb, w, 64);
    uint64_t t0 = gc_device_cycles(dev);
    /* 32-bit IADD at +0: 0xFFFE + 3 = 0x10001, the high word becomes 0 */
    gc_pb_sem_execute(&pb, s.addr, 3, host_red(GC_HOST_SEM_EXECUTE_REDUCTION_IADD, false, false, true));
    /* 64-bit unsigned IADD at +16: wraps to 1 */
    gc_pb_sem_execute(&pb, s.addr + 16, 2, host_red(GC_HOST_SEM_EXECUTE_REDUCTION_IADD, false, true, true));
    /* 64-bit signed IMIN at +32 (hostdrv's encoder): INT64_MIN stays */
    gc_pb_sem_reduce_ts(&pb, s.addr + 32, 5, GC_HOST_SEM_EXECUTE_REDUCTION_IMIN, true, true);
    /* 32-bit INC at +48: 0xFFFFFFF0 >= 7 wraps to 0 */
    gc_pb_sem_reduce_ts(&pb, s.addr + 48, 7, GC_HOST_SEM_EXECUTE_REDUCTION_INC, false, false);
    REQUIRE_OK(dev, pb.status);
    REQUIRE_OK(dev, run(ch, &pb));
    uint64_t got[8];
    REQUIRE_OK(dev, gc_mem_read(dev, s.addr, got, sizeof got));
    CHECK_EQ(got[0], 0x10001u);
    CHECK_EQ(got[2], 1);
    CHECK_EQ(got[4], 0x8000000000000000ull);
    CHECK_EQ(got[6], 0);
    CHECK(got[1] > t0 && got[1] < got[3] && got[3] < got[5] && got[5] < got[7] && got[7] <= gc_device_cycles(dev));
    /* a stamped reduction at 8 mod 16 (64-bit) and at 4 mod 16 (32-bit): MISALIGNED_SEMAPHORE */
    const uint32_t bad64 = host_red(GC_HOST_SEM_EXECUTE_REDUCTION_IADD, false, true, true);
    const uint32_t bad32 = host_red(GC_HOST_SEM_EXECUTE_REDUCTION_IOR, false, false, true);
    gc_pb_reset(&pb);
    gc_pb_sem_execute(&pb, s.addr + 72, 1, bad64);
    expect_fault(dev, ch, &pb, GC_ERROR_CAUSE_MISALIGNED_SEMAPHORE, GC_HOST_SEM_EXECUTE, bad64,
                 "64-bit stamped reduction at 8 mod 16");
    REQUIRE_OK(dev, gc_channel_reset(ch));
    gc_pb_reset(&pb);
    gc_pb_sem_execute(&pb, s.addr + 36, 1, bad32);
    expect_fault(dev, ch, &pb, GC_ERROR_CAUSE_MISALIGNED_SEMAPHORE, GC_HOST_SEM_EXECUTE, bad32,
                 "32-bit stamped reduction at 4 mod 16");
    uint64_t after[8];
    REQUIRE_OK(dev, gc_mem_read(dev, s.addr, after, sizeof after));
    CHECK_EQ(memcmp(after, got, sizeof got), 0); /* nothing written */
    gc_device_close(dev);
}

/* GLOBAL.CYCLE, the time base (gc_time_set / gc_time_read, NVIDIA's PTIMER TIME_1 / TIME_0): the
 * cycle count until set; set to T it reads T plus the cycles since, and every stamp the device
 * writes comes from it (a host RELEASE_TIMESTAMP release, a copy's four-word release: its start
 * word and end stamp), across the 32-bit carry and the 64-bit wrap, both ends of the range
 * included.  The *_CYCLES counters count cycles, not the time base: setting it changes none. */
static void t_time_base(void) {
    fx_t f;
    REQUIRE(fx_open(&f, 256));
    gc_device_t *dev = f.dev;
    gc_buf_t src, dst;
    REQUIRE_OK(dev, gc_mem_alloc(dev, GC_MEM_VIDMEM, 2048, 64, &src));
    REQUIRE_OK(dev, gc_mem_alloc(dev, GC_MEM_SYSMEM, 2048, 64, &dst));
    uint64_t t = 0;
    REQUIRE_OK(dev, gc_time_read(dev, &t));
    CHECK(t > 0 && t <= gc_device_cycles(dev)); /* the cycle count: never set */
    CHECK(!gc_time_is_set(dev) && !gc_time_is_set(NULL));
    CHECK_EQ(gc_time_read(dev, NULL), GC_ERR_INVALID_ARG);
    CHECK(strstr(gc_device_last_error(dev), "NULL") != NULL);
    CHECK_EQ(gc_time_read(NULL, &t), GC_ERR_INVALID_ARG);
    CHECK_EQ(gc_time_set(NULL, 0), GC_ERR_INVALID_ARG);
    /* the wrap and the carry fall inside the work (a few hundred cycles after the set) */
    static const uint64_t bases[] = {0, 0xFFFFFFFFull - 300, UINT64_MAX - 300, UINT64_MAX, 0x8000000000000000ull,
                                     0x5A5A5A5AA5A5A5A5ull, 0xA5A5A5A55A5A5A5Aull};
    static uint32_t w[256];
    gc_pushbuf_t pb;
    gc_pb_init(&pb, w, 256);
    for (size_t i = 0; i < sizeof bases / sizeof bases[0]; i++) {
        const uint64_t T = bases[i];
        gc_counters_t c0, c1, d;
        REQUIRE_OK(dev, gc_counters_read(dev, &c0));
        const uint64_t k0 = gc_device_cycles(dev);
        REQUIRE_OK(dev, gc_time_set(dev, T));
        const uint64_t k1 = gc_device_cycles(dev);
        uint64_t r = 0;
        REQUIRE_OK(dev, gc_time_read(dev, &r));
        CHECK(r - T <= gc_device_cycles(dev) - k1); /* modulo 2^64: T plus the cycles since */
        gc_pb_reset(&pb);
        gc_pb_sem_release_ts(&pb, f.s.addr, i + 1, false, true);
        gc_copy_desc_t cd = {.dst = dst.addr, .src = src.addr, .line_bytes = 2048, .line_count = 1,
                             .sem = GC_COPY_SEM_FOUR_WORD, .sem_addr = f.s.addr + 16, .sem_payload = (uint32_t)i + 1};
        gc_pb_copy_desc(&pb, CE_SUBCH, &cd);
        gc_pb_sem_release_ts(&pb, f.s.addr + 32, i + 1, false, true);
        REQUIRE_OK(dev, pb.status);
        REQUIRE_OK(dev, run(f.ch, &pb));
        const uint64_t span = gc_device_cycles(dev) - k1;
        uint32_t q[4];
        REQUIRE_OK(dev, gc_mem_read(dev, f.s.addr + 16, q, 16));
        const gc_copy_record_t cr = gc_copy_record(q);
        const uint64_t h0 = rd64(dev, f.s.addr + 8), h1 = rd64(dev, f.s.addr + 40);
        /* each stamp is T plus the cycles since the set, in the order the work ran (all modulo 2^64) */
        if (rd32(dev, f.s.addr) != i + 1 || cr.payload != i + 1 || rd32(dev, f.s.addr + 32) != i + 1 ||
            h0 - T == 0 || h0 - T >= span || cr.start - h0 == 0 || cr.start - h0 >= span || cr.end - cr.start == 0 ||
            cr.end - cr.start >= span || h1 - cr.end == 0 || h1 - cr.end >= span)
            TCASE_FAIL_("time base 0x%016" PRIx64 ": stamps 0x%016" PRIx64 " (copy 0x%016" PRIx64 " .. 0x%016" PRIx64
                        ") 0x%016" PRIx64 " are not in order within the %" PRIu64 " cycles since the set",
                        T, h0, cr.start, cr.end, h1, span);
        REQUIRE_OK(dev, gc_counters_read(dev, &c1));
        const uint64_t cycles = gc_device_cycles(dev) - k0;
        gc_counters_diff(&c0, &c1, &d);
        for (uint32_t rl = 0; rl < d.runlists; rl++) CHECK(d.runlist_gated[rl] <= cycles);
        for (uint32_t e = 0; e < d.copy_engines; e++) CHECK(d.ce_gated[e] <= cycles && d.ce_busy_cycles[e] <= cycles);
        for (uint32_t c = 0; c < d.channels; c++)
            CHECK(d.channel[c].cycles_resident <= cycles && d.channel[c].acq_blocked_cycles <= cycles);
        if (d.compute) CHECK(d.gated_cycles <= cycles && d.active_cycles <= cycles);
    }
    gc_device_close(dev);
}

/* The reduction forms NVIDIA's hardware rejects fault INVALID_REDUCTION, memory untouched; the
 * neighbouring accepted forms (signed 32-bit IADD, unsigned 64-bit IADD) run. */
static void t_host_rejected_forms(void) {
    fx_t f;
    REQUIRE(fx_open(&f, 64));
    gc_device_t *dev = f.dev;
    gc_channel_t *ch = f.ch;
    gc_buf_t s = f.s;
    const uint64_t init = 0x00000001FFFFFFFFull;
    const struct {
        uint32_t red;
        bool is_signed, is64;
        const char *what;
    } rejected[] = {
        {GC_HOST_SEM_EXECUTE_REDUCTION_INC, false, true, "64-bit INC"},
        {GC_HOST_SEM_EXECUTE_REDUCTION_DEC, false, true, "64-bit DEC"},
        {GC_HOST_SEM_EXECUTE_REDUCTION_INC, true, true, "signed 64-bit INC"},
        {GC_HOST_SEM_EXECUTE_REDUCTION_IADD, true, true, "signed 64-bit IADD"},
        {GC_HOST_SEM_EXECUTE_REDUCTION_INC, true, false, "signed INC"},
        {GC_HOST_SEM_EXECUTE_REDUCTION_DEC, true, false, "signed DEC"},
    };
    uint32_t w[32];
    gc_pushbuf_t pb;
    for (uint32_t k = 0; k < sizeof rejected / sizeof rejected[0]; k++) {
        REQUIRE_OK(dev, gc_mem_write(dev, s.addr, &init, 8));
        uint32_t x = host_red(rejected[k].red, rejected[k].is_signed, rejected[k].is64, false);
        gc_pb_init(&pb, w, 32);
        gc_pb_sem_execute(&pb, s.addr, 1, x);
        expect_fault(dev, ch, &pb, GC_ERROR_CAUSE_INVALID_REDUCTION, GC_HOST_SEM_EXECUTE, x, rejected[k].what);
        CHECK_EQ(rd64(dev, s.addr), init);
        REQUIRE_OK(dev, gc_channel_reset(ch));
        /* hostdrv's encoder refuses to build it */
        gc_pb_init(&pb, w, 32);
        gc_pb_sem_reduce(&pb, s.addr, 1, rejected[k].red, rejected[k].is_signed, rejected[k].is64);
        CHECK_EQ(pb.status, GC_ERR_INVALID_ARG);
    }
    gc_pb_init(&pb, w, 32);
    gc_pb_sem_execute(&pb, s.addr, (uint32_t)-2, host_red(GC_HOST_SEM_EXECUTE_REDUCTION_IADD, true, false, false));
    gc_pb_sem_execute(&pb, s.addr + 8, 1, host_red(GC_HOST_SEM_EXECUTE_REDUCTION_IADD, false, true, false));
    REQUIRE_OK(dev, gc_mem_write(dev, s.addr + 8, &init, 8));
    REQUIRE_OK(dev, run(ch, &pb));
    CHECK_EQ(rd64(dev, s.addr), 0x00000001FFFFFFFDull); /* 32-bit: the high word kept */
    CHECK_EQ(rd64(dev, s.addr + 8), init + 1);
    gc_device_close(dev);
}

/* NVIDIA's DMA_NOP (the word 0) wherever a method header may stand is skipped: at the start of a
 * segment, between methods, in a row, as a segment's last word, between GPFIFO entries; it is not
 * a method (METHODS does not count it).  A 0 inside a method's data is data. */
static void t_dma_nop(void) {
    fx_t f;
    REQUIRE(fx_open(&f, 64));
    gc_device_t *dev = f.dev;
    gc_channel_t *ch = f.ch;
    gc_buf_t s = f.s;
    uint32_t ones[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    REQUIRE_OK(dev, gc_mem_write(dev, s.addr, ones, sizeof ones));
    uint32_t id = gc_channel_id(ch), m0 = 0, m1 = 0;
    REQUIRE_OK(dev, gc_channel_wait_idle(ch));
    REQUIRE_OK(dev, gc_mmio_read(dev, GC_REG_CHANNEL_METHODS(id), &m0));
    uint32_t w[64];
    gc_pushbuf_t pb;
    gc_pb_init(&pb, w, 64);
    gc_pb_raw(&pb, GC_PB_DMA_NOP);
    gc_pb_sem_release(&pb, s.addr, 0, false, false); /* payload 0: a 0 data word */
    gc_pb_raw(&pb, GC_PB_DMA_NOP);
    gc_pb_raw(&pb, GC_PB_DMA_NOP);
    gc_pb_raw(&pb, GC_PB_DMA_NOP);
    gc_pb_sem_release(&pb, s.addr + 4, 0x22, false, false);
    gc_pb_raw(&pb, GC_PB_DMA_NOP);
    REQUIRE_OK(dev, gc_channel_submit(ch, &pb));
    gc_pb_reset(&pb);
    gc_pb_raw(&pb, GC_PB_DMA_NOP); /* a segment of NOPs only */
    gc_pb_raw(&pb, GC_PB_DMA_NOP);
    REQUIRE_OK(dev, gc_channel_submit(ch, &pb));
    gc_pb_reset(&pb);
    ce_launch(&pb, s.addr + 8, 0x33, release_only(GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE_RELEASE_ONE_WORD_SEMAPHORE, 0));
    gc_pb_raw(&pb, GC_PB_DMA_NOP);
    REQUIRE_OK(dev, run(ch, &pb));
    CHECK_EQ(rd32(dev, s.addr), 0);
    CHECK_EQ(rd32(dev, s.addr + 4), 0x22);
    CHECK_EQ(rd32(dev, s.addr + 8), 0x33);
    REQUIRE_OK(dev, gc_mmio_read(dev, GC_REG_CHANNEL_METHODS(id), &m1));
    /* two host releases (5 methods each), 3 SET_SEMAPHORE + LAUNCH_DMA, and the 5 of the fence
     * release gc_channel_wait_idle submits */
    CHECK_EQ(m1 - m0, 5 + 5 + 4 + 5);
    gc_device_close(dev);
}

static const tcase_t cases[] = {
    {"nvclass_release_only", t_release_only},
    {"nvclass_ce_reductions", t_ce_reductions},
    {"nvclass_ce_unsupported", t_ce_unsupported},
    {"nvclass_host_reduce_timestamp", t_host_reduce_timestamp},
    {"nvclass_time_base", t_time_base},
    {"nvclass_host_rejected_forms", t_host_rejected_forms},
    {"nvclass_dma_nop", t_dma_nop},
};
TCASE_MAIN(cases)
