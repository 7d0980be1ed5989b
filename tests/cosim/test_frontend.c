/* The time-sliced front end end to end through hostdrv: both copy engines, memset and 2D copies,
 * semaphore reductions and acquires across channels, acquire timeout, interrupts and counters. */
#include "cosim_util.h"
#include "tcase.h"

/* memsets (4-byte pattern, 1-byte fill at odd addresses) and a 2D copy; guard bytes untouched */
static void t_memset_2d(void) {
    gc_device_t *dev = util_open(NULL);
    REQUIRE(dev);
    gc_channel_t *ch = util_open_channel(dev, 1, 0, 0);
    REQUIRE(ch);
    gc_buf_t buf, src;
    REQUIRE_OK(dev, gc_mem_alloc(dev, GC_MEM_VIDMEM, 8192, 64, &buf));
    REQUIRE_OK(dev, gc_mem_alloc(dev, GC_MEM_VIDMEM, 8192, 64, &src));
    static uint8_t want[8192], got[8192], s[8192];
    gcsc_fill(want, sizeof want, 9);
    gcsc_fill(s, sizeof s, 10);
    REQUIRE_OK(dev, gc_mem_write(dev, buf.addr, want, sizeof want));
    REQUIRE_OK(dev, gc_mem_write(dev, src.addr, s, sizeof s));
    uint32_t words[128];
    gc_pushbuf_t pb;
    gc_pb_init(&pb, words, 128);
    gc_copy_desc_t m4 = {.dst = buf.addr + 64, .line_bytes = 400, .fill_bytes = 4, .fill_value = 0xA1B2C3D4};
    gc_copy_desc_t m1 = {.dst = buf.addr + 1001, .line_bytes = 333, .fill_bytes = 1, .fill_value = 0x5A};
    gc_copy_desc_t c2 = {.dst = buf.addr + 2048 + 3, .src = src.addr + 5, .line_bytes = 77, .line_count = 9,
                         .pitch_in = 100, .pitch_out = 130};
    gc_pb_copy_desc(&pb, 4, &m4);
    gc_pb_copy_desc(&pb, 4, &m1);
    gc_pb_copy_desc(&pb, 4, &c2);
    REQUIRE_OK(dev, gc_channel_submit(ch, &pb));
    REQUIRE_OK(dev, gc_channel_wait_idle(ch));
    for (int i = 0; i < 100; i++) memcpy(want + 64 + 4 * i, "\xD4\xC3\xB2\xA1", 4);
    memset(want + 1001, 0x5A, 333);
    for (int l = 0; l < 9; l++) memcpy(want + 2048 + 3 + 130 * l, s + 5 + 100 * l, 77);
    REQUIRE_OK(dev, gc_mem_read(dev, buf.addr, got, sizeof got));
    CHECK_EQ(util_diff("memset / 2D", want, got, sizeof got), 0);
    gc_device_close(dev);
}

/* one channel on each copy runlist, copying at once; per-engine counters add up */
static void t_two_engines(void) {
    gc_device_t *dev = util_open(NULL);
    REQUIRE(dev);
    gc_channel_t *a = util_open_channel(dev, 1, 0, 0), *b = util_open_channel(dev, 2, 0, 0);
    REQUIRE(a && b);
    gc_buf_t src, da, db;
    REQUIRE_OK(dev, gc_mem_alloc(dev, GC_MEM_VIDMEM, 32768, 64, &src));
    REQUIRE_OK(dev, gc_mem_alloc(dev, GC_MEM_VIDMEM, 32768, 64, &da));
    REQUIRE_OK(dev, gc_mem_alloc(dev, GC_MEM_VIDMEM, 32768, 64, &db));
    static uint8_t s[32768], g[32768];
    gcsc_fill(s, sizeof s, 21);
    REQUIRE_OK(dev, gc_mem_write(dev, src.addr, s, sizeof s));
    REQUIRE_OK(dev, gc_copy(a, da.addr, src.addr, 32768, 0, 0));
    REQUIRE_OK(dev, gc_copy(b, db.addr, src.addr, 32768, 0, 0));
    uint64_t t0 = gc_device_cycles(dev);
    REQUIRE_OK(dev, gc_channel_wait_idle(a));
    REQUIRE_OK(dev, gc_channel_wait_idle(b));
    uint64_t both = gc_device_cycles(dev) - t0;
    REQUIRE_OK(dev, gc_mem_read(dev, da.addr, g, sizeof g));
    CHECK_EQ(util_diff("CE0", s, g, sizeof g), 0);
    REQUIRE_OK(dev, gc_mem_read(dev, db.addr, g, sizeof g));
    CHECK_EQ(util_diff("CE1", s, g, sizeof g), 0);
    for (uint32_t e = 0; e < GC_NUM_CE; e++) {
        uint32_t bytes = 0, busy = 0;
        REQUIRE_OK(dev, gc_mmio_read(dev, GC_REG_ENGINE_BYTES(e), &bytes));
        REQUIRE_OK(dev, gc_mmio_read(dev, GC_REG_ENGINE_BUSY_CYCLES(e), &busy));
        CHECK_EQ(bytes, 32768);
        CHECK(busy >= 32768 / 8 && busy < both + 1000);
    }
    gc_device_close(dev);
}

/* reductions on host-visible words, against the same computation on the host */
static void t_reductions(void) {
    gc_device_t *dev = util_open(NULL);
    REQUIRE(dev);
    gc_channel_t *ch = util_open_channel(dev, 1, 0, 0);
    REQUIRE(ch);
    gc_buf_t s;
    REQUIRE_OK(dev, gc_mem_alloc(dev, GC_MEM_SYSMEM, 64, 64, &s));
    uint32_t init[16] = {2, 0, 5, 0xFFFFFFFF, 10, 0x0F0F, 7, 0, 0xFFFFFFFF, 0, 0, 0, 0, 0, 0, 0};
    REQUIRE_OK(dev, gc_mem_write(dev, s.addr, init, sizeof init));
    uint32_t words[128];
    gc_pushbuf_t pb;
    gc_pb_init(&pb, words, 128);
    /* INC with operand 3 from 2: 3, then wraps to 0 (mem >= operand) */
    gc_pb_sem_reduce(&pb, s.addr + 0, 3, GC_HOST_SEM_EXECUTE_REDUCTION_INC, false, false);
    gc_pb_sem_reduce(&pb, s.addr + 0, 3, GC_HOST_SEM_EXECUTE_REDUCTION_INC, false, false);
    /* DEC at 0 gives the operand; DEC above the operand gives the operand */
    gc_pb_sem_reduce(&pb, s.addr + 4, 9, GC_HOST_SEM_EXECUTE_REDUCTION_DEC, false, false);
    gc_pb_sem_reduce(&pb, s.addr + 8, 4, GC_HOST_SEM_EXECUTE_REDUCTION_DEC, false, false);
    gc_pb_sem_reduce(&pb, s.addr + 12, 1, GC_HOST_SEM_EXECUTE_REDUCTION_IADD, false, false); /* wraps */
    gc_pb_sem_reduce(&pb, s.addr + 16, (uint32_t)-3, GC_HOST_SEM_EXECUTE_REDUCTION_IMIN, true, false);
    gc_pb_sem_reduce(&pb, s.addr + 20, 0x00FF, GC_HOST_SEM_EXECUTE_REDUCTION_IXOR, false, false);
    gc_pb_sem_reduce(&pb, s.addr + 24, (uint32_t)-3, GC_HOST_SEM_EXECUTE_REDUCTION_IMAX, false, false);
    gc_pb_sem_reduce(&pb, s.addr + 32, 1, GC_HOST_SEM_EXECUTE_REDUCTION_IADD, false, true); /* 64-bit carry */
    REQUIRE_OK(dev, gc_channel_submit(ch, &pb));
    REQUIRE_OK(dev, gc_channel_wait_idle(ch));
    uint32_t got[16];
    REQUIRE_OK(dev, gc_mem_read(dev, s.addr, got, sizeof got));
    CHECK_EQ(got[0], 0);
    CHECK_EQ(got[1], 9);
    CHECK_EQ(got[2], 4);
    CHECK_EQ(got[3], 0);
    CHECK_EQ(got[4], (uint32_t)-3);
    CHECK_EQ(got[5], 0x0FF0);
    CHECK_EQ(got[6], (uint32_t)-3); /* unsigned max */
    CHECK_EQ(got[8], 0);
    CHECK_EQ(got[9], 1);
    gc_device_close(dev);
}

/* A waits (switching on failure) for B's release on the same runlist; A's copy lands after it */
static void t_acquire_across_channels(void) {
    gc_device_t *dev = util_open(NULL);
    REQUIRE(dev);
    gc_channel_t *a = util_open_channel(dev, 1, 0, 0), *b = util_open_channel(dev, 1, 0, 0);
    REQUIRE(a && b);
    gc_buf_t s, src, dst;
    REQUIRE_OK(dev, gc_mem_alloc(dev, GC_MEM_SYSMEM, 64, 64, &s));
    REQUIRE_OK(dev, gc_mem_alloc(dev, GC_MEM_VIDMEM, 16384, 64, &src));
    REQUIRE_OK(dev, gc_mem_alloc(dev, GC_MEM_VIDMEM, 16384, 64, &dst));
    uint8_t zero[64] = {0};
    REQUIRE_OK(dev, gc_mem_write(dev, s.addr, zero, 64));
    uint32_t words[64];
    gc_pushbuf_t pb;
    gc_pb_init(&pb, words, 64);
    gc_pb_sem_acquire(&pb, s.addr, 5, GC_HOST_SEM_EXECUTE_OPERATION_ACQUIRE, false, true);
    gc_pb_sem_release_ts(&pb, s.addr + 16, 1, false, false);
    REQUIRE_OK(dev, gc_channel_submit(a, &pb));
    gc_pb_reset(&pb);
    gc_pb_copy(&pb, 4, dst.addr, src.addr, 16384, false, 0, 0);
    gc_pb_sem_release_ts(&pb, s.addr + 32, 2, false, true);
    gc_pb_sem_release(&pb, s.addr, 5, false, false);
    REQUIRE_OK(dev, gc_channel_submit(b, &pb));
    REQUIRE_OK(dev, gc_channel_wait_idle(a));
    REQUIRE_OK(dev, gc_channel_wait_idle(b));
    uint64_t rec_a[2], rec_b[2];
    REQUIRE_OK(dev, gc_mem_read(dev, s.addr + 16, rec_a, 16));
    REQUIRE_OK(dev, gc_mem_read(dev, s.addr + 32, rec_b, 16));
    CHECK_EQ(rec_a[0], 1);
    CHECK_EQ(rec_b[0], 2);
    CHECK(rec_a[1] > rec_b[1]); /* A ran only after B's copy and release */
    uint32_t sw = 0, blocked = 0;
    REQUIRE_OK(dev, gc_mmio_read(dev, GC_REG_CHANNEL_SWITCH_ACQUIRE(gc_channel_id(a)), &sw));
    REQUIRE_OK(dev, gc_mmio_read(dev, GC_REG_CHANNEL_ACQ_BLOCKED_CYCLES(gc_channel_id(a)), &blocked));
    CHECK(sw >= 1);
    CHECK(blocked >= 16384 / 8); /* blocked at least as long as B's copy */
    gc_device_close(dev);
}

/* An acquire that is never satisfied faults its channel with ACQUIRE_TIMEOUT; the other runs on */
static void t_acquire_timeout(void) {
    gc_device_t *dev = util_open(NULL);
    REQUIRE(dev);
    gc_channel_t *a = util_open_channel(dev, 1, 0, 3000), *b = util_open_channel(dev, 1, 0, 0);
    REQUIRE(a && b);
    gc_buf_t s;
    REQUIRE_OK(dev, gc_mem_alloc(dev, GC_MEM_SYSMEM, 64, 64, &s));
    uint8_t zero[64] = {0};
    REQUIRE_OK(dev, gc_mem_write(dev, s.addr, zero, 64));
    uint32_t words[32];
    gc_pushbuf_t pb;
    gc_pb_init(&pb, words, 32);
    gc_pb_sem_acquire(&pb, s.addr, 1, GC_HOST_SEM_EXECUTE_OPERATION_ACQ_STRICT_GEQ, false, false);
    REQUIRE_OK(dev, gc_channel_submit(a, &pb));
    uint64_t t0 = gc_device_cycles(dev);
    CHECK_EQ(gc_channel_wait_idle(a), GC_ERR_CHANNEL_FAULT);
    CHECK(gc_device_cycles(dev) - t0 >= 3000);
    CHECK(strstr(gc_device_last_error(dev), "ACQUIRE_TIMEOUT at GP_GET 1") != NULL);
    CHECK(strstr(gc_device_last_error(dev), "SEM_EXECUTE") != NULL);
    gc_pb_reset(&pb);
    gc_pb_sem_release(&pb, s.addr + 8, 77, false, false);
    REQUIRE_OK(dev, gc_channel_submit(b, &pb));
    REQUIRE_OK(dev, gc_channel_wait_idle(b));
    uint32_t v = 0;
    REQUIRE_OK(dev, gc_mem_read(dev, s.addr + 8, &v, 4));
    CHECK_EQ(v, 77);
    gc_device_close(dev);
}

/* a copy's non-blocking interrupt, and the channel counters */
static void t_interrupt_counters(void) {
    gc_device_t *dev = util_open(NULL);
    REQUIRE(dev);
    gc_channel_t *ch = util_open_channel(dev, 2, 0, 0);
    REQUIRE(ch);
    gc_buf_t a, b;
    REQUIRE_OK(dev, gc_mem_alloc(dev, GC_MEM_VIDMEM, 4096, 64, &a));
    REQUIRE_OK(dev, gc_mem_alloc(dev, GC_MEM_VIDMEM, 4096, 64, &b));
    REQUIRE_OK(dev, gc_mmio_write(dev, GC_REG_GLOBAL_INTR_ENABLE, GC_GLOBAL_INTR_ENABLE_NON_STALL(1)));
    uint32_t words[32];
    gc_pushbuf_t pb;
    gc_pb_init(&pb, words, 32);
    gc_copy_desc_t d = {.dst = b.addr, .src = a.addr, .line_bytes = 4096, .line_count = 1, .interrupt = true};
    gc_pb_copy_desc(&pb, 4, &d);
    REQUIRE_OK(dev, gc_channel_submit(ch, &pb));
    REQUIRE_OK(dev, gc_channel_wait_idle(ch));
    CHECK(gc_device_irq(dev));
    uint32_t id = gc_channel_id(ch), resident = 0, empty = 0, status = 0;
    REQUIRE_OK(dev, util_wait_left(dev, id, 100000)); /* not a fixed wait: the ack's latency varies */
    REQUIRE_OK(dev, gc_mmio_read(dev, GC_REG_CHANNEL_CYCLES_RESIDENT(id), &resident));
    REQUIRE_OK(dev, gc_mmio_read(dev, GC_REG_CHANNEL_SWITCH_EMPTY(id), &empty));
    REQUIRE_OK(dev, gc_mmio_read(dev, GC_REG_CHANNEL_STATUS(id), &status));
    CHECK(resident > 0);
    CHECK(empty >= 1);
    CHECK_EQ(GC_CHANNEL_STATUS_PENDING_GET(status), 0);
    CHECK_EQ(GC_CHANNEL_STATUS_ENGINE_BUSY_GET(status), 0);
    gc_device_close(dev);
}

/* ---- subchannel bindings ---- */
#define BIND_SLICE 32u /* bytes copied per (channel, subchannel) */

typedef struct bind_fx {
    gc_device_t *dev;
    gc_device_props_t p;
    gc_channel_t *ch[GC_NUM_CHANNELS];
    gc_buf_t src, dst, sem; /* a slice / a semaphore word per (channel, subchannel) */
    uint8_t want[GC_NUM_CHANNELS * 8 * BIND_SLICE], got[GC_NUM_CHANNELS * 8 * BIND_SLICE];
    uint8_t data[GC_NUM_CHANNELS * 8 * BIND_SLICE];
    uint32_t sem_want[GC_NUM_CHANNELS * 8];
    uint32_t next[GC_NUM_CHANNELS];   /* index of the channel's next GPFIFO entry */
    uint32_t entry[GC_NUM_CHANNELS];  /* index of the phase's entry */
} bind_fx_t;

static uint32_t bind_i(uint32_t c, uint32_t s) { return c * 8 + s; }
static uint32_t bind_tag(uint32_t phase, uint32_t c, uint32_t s) { return 0xB0000000u | phase << 16 | c << 8 | s; }

/* Copy (c, s)'s source slice to its destination slice on subchannel s, releasing its word. */
static void bind_copy(bind_fx_t *f, gc_pushbuf_t *pb, uint32_t phase, uint32_t c, uint32_t s) {
    uint32_t i = bind_i(c, s);
    gc_pb_copy(pb, s, f->dst.addr + i * BIND_SLICE, f->src.addr + i * BIND_SLICE, BIND_SLICE, true, f->sem.addr + 4 * i,
               bind_tag(phase, c, s));
}

/* What bind_copy of (c, s) leaves when it ran. */
static void bind_expect(bind_fx_t *f, uint32_t phase, uint32_t c, uint32_t s) {
    uint32_t i = bind_i(c, s);
    memcpy(f->want + i * BIND_SLICE, f->data + i * BIND_SLICE, BIND_SLICE);
    f->sem_want[i] = bind_tag(phase, c, s);
}

/* Zero the destination and the semaphores (and what is expected of them). */
static gc_status_t bind_clear(bind_fx_t *f) {
    gc_status_t st;
    memset(f->want, 0, sizeof f->want);
    memset(f->sem_want, 0, sizeof f->sem_want);
    if ((st = gc_mem_write(f->dev, f->dst.addr, f->want, f->dst.size)) != GC_OK) return st;
    return gc_mem_write(f->dev, f->sem.addr, f->sem_want, f->sem.size);
}

/* Submit pb on channel c as one entry, noting its index. */
static gc_status_t bind_submit(bind_fx_t *f, uint32_t c, const gc_pushbuf_t *pb) {
    f->entry[c] = f->next[c]++;
    return gc_channel_submit(f->ch[c], pb);
}

/* Open (or reopen) channel c with the copy class on subchannel c % 8; its first entry is that
 * SET_OBJECT. */
static gc_status_t bind_open(bind_fx_t *f, uint32_t c, uint32_t runlist) {
    gc_channel_config_t cc;
    gc_channel_config_init(&cc);
    cc.id = (int)c;
    cc.runlist = runlist;
    cc.copy_subch = c % 8;
    f->next[c] = 1;
    return gc_channel_open(f->dev, &cc, &f->ch[c]);
}

/* gc_channel_wait_idle, counting its fence's entry. */
static gc_status_t bind_wait(bind_fx_t *f, uint32_t c) {
    f->next[c]++;
    return gc_channel_wait_idle(f->ch[c]);
}

/* CTRL.RESET through the driver: it binds the copy class again as entry 0. */
static gc_status_t bind_reset(bind_fx_t *f, uint32_t c) {
    f->next[c] = 1;
    return gc_channel_reset(f->ch[c]);
}

/* Channel c stopped with `cause` at its phase entry, on method `mthd` of subchannel s with `data`. */
static void bind_check_fault(bind_fx_t *f, uint32_t c, uint32_t cause, uint32_t s, uint32_t mthd, uint32_t data) {
    gc_channel_error_t e;
    CHECK_EQ(gc_channel_wait_idle(f->ch[c]), GC_ERR_CHANNEL_FAULT);
    REQUIRE_OK(f->dev, gc_channel_error(f->ch[c], &e));
    if (e.cause != cause || e.gp_get != f->entry[c] ||
        e.method != util_err_method(s, mthd) || e.data != data)
        TCASE_FAIL_("channel %u: %s at GP_GET %u, method 0x%04x subchannel %u, data 0x%x; expected %s at GP_GET %u, "
                    "method 0x%04x subchannel %u, data 0x%x", c, gc_error_cause_name(e.cause), e.gp_get,
                    GC_CHANNEL_ERROR_METHOD_ADDRESS_GET(e.method) * 4, GC_CHANNEL_ERROR_METHOD_SUBCHANNEL_GET(e.method),
                    e.data, gc_error_cause_name(cause), f->entry[c], mthd, s, data);
}

/* Every destination slice and semaphore word as expected; FAULT_CHANNELS is `faulted`. */
static void bind_check_memory(bind_fx_t *f, const char *phase, uint32_t faulted) {
    uint32_t n = f->p.channels, sems[GC_NUM_CHANNELS * 8], fc = 0;
    REQUIRE_OK(f->dev, gc_mem_read(f->dev, f->dst.addr, f->got, n * 8 * BIND_SLICE));
    CHECK_EQ(util_diff(phase, f->want, f->got, n * 8 * BIND_SLICE), 0);
    REQUIRE_OK(f->dev, gc_mem_read(f->dev, f->sem.addr, sems, n * 8 * 4));
    for (uint32_t i = 0; i < n * 8; i++)
        if (sems[i] != f->sem_want[i])
            TCASE_FAIL_("%s: channel %u subchannel %u released 0x%08x, expected 0x%08x", phase, i / 8, i % 8, sems[i],
                        f->sem_want[i]);
    REQUIRE_OK(f->dev, gc_mmio_read(f->dev, GC_REG_GLOBAL_FAULT_CHANNELS, &fc));
    CHECK_EQ(fc, faulted);
}

/* Subchannel bindings belong to one channel and one subchannel, on every channel the device has
 * (GLOBAL.CONFIG), spread over both copy runlists and then on the compute runlist:
 *  A. channel c opens with the copy class on subchannel c % 8 only: its copy there lands; a copy
 *     on subchannel c + 1 (bound on the next channel, never on c) faults INVALID_SUBCHANNEL on c
 *     at its first method, while the next channel's copy on that subchannel lands.
 *  B. after CTRL.RESET, each subchannel bound to the compute class and then rebound to the copy
 *     class: a copy on every subchannel of every channel lands (rebinding took effect).
 *  C. one subchannel per channel (a different one on neighbouring channels) rebound to compute:
 *     the channel's copies on its seven other subchannels land, the one on that subchannel faults
 *     UNSUPPORTED (the compute class on a copy runlist) and writes nothing, and the other
 *     channels' copies on that same subchannel land.
 *  D. on runlist 0, each subchannel bound to copy and then to compute takes a compute method
 *     (SEND_PCAS_A: the compute class, not UNSUPPORTED, not INVALID_SUBCHANNEL); a copy method on
 *     one of them faults INVALID_METHOD (the compute class does not know it), and every method
 *     before it was executed (CHANNEL.METHODS). */
static void t_subchannel_bindings(void) {
    static bind_fx_t fx;
    bind_fx_t *f = &fx;
    memset(f, 0, sizeof *f);
    gc_device_t *dev = f->dev = util_open_props(&f->p);
    REQUIRE(dev);
    uint32_t n = f->p.channels, all = n >= 32 ? 0xFFFFFFFFu : (1u << n) - 1;
    if (n < 2 || n > GC_NUM_CHANNELS || f->p.copy_engines < 1 || f->p.runlists < 1 + f->p.copy_engines) {
        TCASE_FAIL_("device with %u channels (2..%u), %u copy engines, %u runlists: not what this test drives", n,
                    GC_NUM_CHANNELS, f->p.copy_engines, f->p.runlists);
        gc_device_close(dev);
        return;
    }
    REQUIRE_OK(dev, gc_mem_alloc(dev, GC_MEM_VIDMEM, n * 8 * BIND_SLICE, 64, &f->src));
    REQUIRE_OK(dev, gc_mem_alloc(dev, GC_MEM_SYSMEM, n * 8 * BIND_SLICE, 64, &f->dst));
    REQUIRE_OK(dev, gc_mem_alloc(dev, GC_MEM_SYSMEM, n * 8 * 4, 64, &f->sem));
    gcsc_fill(f->data, n * 8 * BIND_SLICE, 18);
    REQUIRE_OK(dev, gc_mem_write(dev, f->src.addr, f->data, n * 8 * BIND_SLICE));
    const uint32_t in_upper = GC_COPY_OFFSET_IN_UPPER_UPPER((uint32_t)(f->src.addr >> 32)); /* a copy's first word */
    uint32_t words[256];
    gc_pushbuf_t pb;
    gc_pb_init(&pb, words, 256);

    /* A */
    REQUIRE_OK(dev, bind_clear(f));
    for (uint32_t c = 0; c < n; c++) {
        REQUIRE_OK(dev, bind_open(f, c, 1 + c % f->p.copy_engines));
        gc_pb_reset(&pb);
        bind_copy(f, &pb, 0, c, c % 8);
        bind_copy(f, &pb, 0, c, (c + 1) % 8);
        REQUIRE_OK(dev, pb.status);
        REQUIRE_OK(dev, bind_submit(f, c, &pb));
        bind_expect(f, 0, c, c % 8);
    }
    for (uint32_t c = 0; c < n; c++)
        bind_check_fault(f, c, GC_ERROR_CAUSE_INVALID_SUBCHANNEL, (c + 1) % 8, GC_COPY_OFFSET_IN_UPPER, in_upper);
    bind_check_memory(f, "A: the open's binding only", all);
    for (uint32_t c = 0; c < n; c++) REQUIRE_OK(dev, bind_reset(f, c));

    /* B */
    REQUIRE_OK(dev, bind_clear(f));
    for (uint32_t c = 0; c < n; c++) {
        gc_pb_reset(&pb);
        for (uint32_t s = 0; s < 8; s++) {
            gc_pb_set_object(&pb, s, GC_CLASS_COMPUTE);
            gc_pb_set_object(&pb, s, GC_CLASS_COPY);
            bind_copy(f, &pb, 1, c, s);
            bind_expect(f, 1, c, s);
        }
        REQUIRE_OK(dev, pb.status);
        REQUIRE_OK(dev, bind_submit(f, c, &pb));
    }
    for (uint32_t c = 0; c < n; c++) REQUIRE_OK(dev, bind_wait(f, c));
    bind_check_memory(f, "B: every subchannel rebound to copy", 0);

    /* C */
    REQUIRE_OK(dev, bind_clear(f));
    for (uint32_t c = 0; c < n; c++) {
        uint32_t t = (3 * c + 1) % 8;
        gc_pb_reset(&pb);
        gc_pb_set_object(&pb, t, GC_CLASS_COMPUTE);
        for (uint32_t s = 0; s < 8; s++) {
            if (s == t) continue;
            bind_copy(f, &pb, 2, c, s);
            bind_expect(f, 2, c, s);
        }
        bind_copy(f, &pb, 2, c, t);
        REQUIRE_OK(dev, pb.status);
        REQUIRE_OK(dev, bind_submit(f, c, &pb));
    }
    for (uint32_t c = 0; c < n; c++)
        bind_check_fault(f, c, GC_ERROR_CAUSE_UNSUPPORTED, (3 * c + 1) % 8, GC_COPY_OFFSET_IN_UPPER, in_upper);
    bind_check_memory(f, "C: one subchannel per channel rebound to compute", all);

    /* D */
    if (!f->p.compute) {
        fprintf(stderr, "no compute engine (COMPUTE.CONFIG 0): the runlist 0 part is left out\n");
        gc_device_close(dev);
        return;
    }
    for (uint32_t c = 0; c < n; c++) {
        gc_channel_close(f->ch[c]);
        REQUIRE_OK(dev, bind_open(f, c, 0));
    }
    uint32_t methods[GC_NUM_CHANNELS];
    for (uint32_t c = 0; c < n; c++) {
        /* the open's SET_OBJECT and the fence counted: a release counts once it is acknowledged, and
         * the channel leaves its PBDMA after that */
        REQUIRE_OK(dev, bind_wait(f, c));
        REQUIRE_OK(dev, util_wait_left(dev, c, 100000));
        REQUIRE_OK(dev, gc_mmio_read(dev, GC_REG_CHANNEL_METHODS(c), &methods[c]));
        gc_pb_reset(&pb);
        for (uint32_t s = 0; s < 8; s++) {
            gc_pb_set_object(&pb, s, GC_CLASS_COPY);
            gc_pb_set_object(&pb, s, GC_CLASS_COMPUTE);
            gc_pb_method(&pb, s, GC_COMPUTE_SEND_PCAS_A, bind_tag(3, c, s));
        }
        gc_pb_method(&pb, (5 * c + 2) % 8, GC_COPY_LINE_LENGTH_IN, bind_tag(3, c, 8));
        REQUIRE_OK(dev, pb.status);
        REQUIRE_OK(dev, bind_submit(f, c, &pb));
    }
    for (uint32_t c = 0; c < n; c++) {
        bind_check_fault(f, c, GC_ERROR_CAUSE_INVALID_METHOD, (5 * c + 2) % 8, GC_COPY_LINE_LENGTH_IN,
                         bind_tag(3, c, 8));
        uint32_t m = 0;
        REQUIRE_OK(dev, gc_mmio_read(dev, GC_REG_CHANNEL_METHODS(c), &m));
        CHECK_EQ(m - methods[c], 3 * 8);
    }
    uint32_t fc = 0;
    REQUIRE_OK(dev, gc_mmio_read(dev, GC_REG_GLOBAL_FAULT_CHANNELS, &fc));
    CHECK_EQ(fc, all);
    gc_device_close(dev);
}

/* Every bit of the plain rw registers of every channel block (INTERLEAVE and RUNLIST included),
 * GLOBAL.ACQ_RETRY_INTERVAL, CYCLE_HI (the high half a CYCLE_LO write would load), INTR_ENABLE and
 * CLOCK_GATING, and COMPUTE.LOG_BASE_LO / HI and TMU_CTRL (no side effect while the channels are disabled, nothing is pending and no task runs; GP_PUT is
 * not one: an index outside the ring records BAD_GP_PUT) written 1 and 0 and read back: all ones,
 * all zeros and alternating patterns, each XORed with the register's index so neighbours differ,
 * so every bit rises and falls. The read masks are the spec's (GPFIFO_BASE_LO: bits 2:0 read as
 * 0, 8-byte entries; LOG_BASE_LO: bits 3:0, 16-byte records; fields: their _MASK; INTR_ENABLE:
 * INTR_STATUS's four bits). With nothing pending the IRQ line stays low whatever the enables. The
 * values before are written back at the end. */
static void t_register_bits(void) {
    gc_device_t *dev = util_open(NULL);
    REQUIRE(dev);
    static const uint32_t pat[] = {0xFFFFFFFFu, 0x00000000u, 0xAAAAAAAAu, 0x55555555u, 0x0F0F0F0Fu, 0xF0F0F0F0u};
    struct reg { uint32_t off, mask; } regs[7 * GC_NUM_CHANNELS + 7];
    size_t n = 0;
    for (uint32_t c = 0; c < GC_NUM_CHANNELS; c++) {
        REQUIRE_OK(dev, gc_mmio_write(dev, GC_REG_CHANNEL_CTRL(c), GC_CHANNEL_CTRL_RESET(1)));
        regs[n++] = (struct reg){GC_REG_CHANNEL_GPFIFO_BASE_LO(c), ~7u};
        regs[n++] = (struct reg){GC_REG_CHANNEL_GPFIFO_BASE_HI(c), GC_CHANNEL_GPFIFO_BASE_HI_HI_MASK};
        regs[n++] = (struct reg){GC_REG_CHANNEL_GPFIFO_SIZE(c), GC_CHANNEL_GPFIFO_SIZE_LOG2_MASK};
        regs[n++] = (struct reg){GC_REG_CHANNEL_TIMESLICE(c), 0xFFFFFFFFu};
        regs[n++] = (struct reg){GC_REG_CHANNEL_ACQ_TIMEOUT(c), 0xFFFFFFFFu};
        regs[n++] = (struct reg){GC_REG_CHANNEL_INTERLEAVE(c), GC_CHANNEL_INTERLEAVE_LEVEL_MASK};
        regs[n++] = (struct reg){GC_REG_CHANNEL_RUNLIST(c), GC_CHANNEL_RUNLIST_ID_MASK};
    }
    regs[n++] = (struct reg){GC_REG_GLOBAL_ACQ_RETRY_INTERVAL, 0xFFFFFFFFu};
    regs[n++] = (struct reg){GC_REG_GLOBAL_CYCLE_HI, 0xFFFFFFFFu}; /* the time base's staged high half */
    regs[n++] = (struct reg){GC_REG_GLOBAL_INTR_ENABLE,
                             GC_GLOBAL_INTR_ENABLE_CHANNEL_FAULT(1) | GC_GLOBAL_INTR_ENABLE_NON_STALL(1) |
                                 GC_GLOBAL_INTR_ENABLE_TASK_FAULT(1) | GC_GLOBAL_INTR_ENABLE_LAUNCH_FAIL(1)};
    regs[n++] = (struct reg){GC_REG_GLOBAL_CLOCK_GATING, GC_GLOBAL_CLOCK_GATING_DISABLE_MASK};
    regs[n++] = (struct reg){GC_REG_COMPUTE_LOG_BASE_LO, ~(uint32_t)(GC_TMU_LOG_ALIGN - 1u)};
    regs[n++] = (struct reg){GC_REG_COMPUTE_LOG_BASE_HI, GC_COMPUTE_LOG_BASE_HI_HI_MASK};
    regs[n++] = (struct reg){GC_REG_COMPUTE_TMU_CTRL, GC_COMPUTE_TMU_CTRL_NO_EVICT_MASK};
    uint32_t before[sizeof regs / sizeof regs[0]];
    for (size_t i = 0; i < n; i++) REQUIRE_OK(dev, gc_mmio_read(dev, regs[i].off, &before[i]));
    int bad = 0;
    for (size_t p = 0; p < sizeof pat / sizeof pat[0]; p++) {
        for (size_t i = 0; i < n; i++) REQUIRE_OK(dev, gc_mmio_write(dev, regs[i].off, pat[p] ^ (uint32_t)i));
        for (size_t i = 0; i < n; i++) {
            uint32_t v = 0, want = (pat[p] ^ (uint32_t)i) & regs[i].mask;
            REQUIRE_OK(dev, gc_mmio_read(dev, regs[i].off, &v));
            if (v != want && bad++ < 8)
                fprintf(stderr, "register 0x%04x: wrote 0x%08x, read 0x%08x, expected 0x%08x\n", regs[i].off,
                        pat[p] ^ (uint32_t)i, v, want);
        }
        CHECK(!gc_device_irq(dev));
    }
    CHECK_EQ(bad, 0);
    for (size_t i = 0; i < n; i++) REQUIRE_OK(dev, gc_mmio_write(dev, regs[i].off, before[i]));
    for (uint32_t c = 0; c < GC_NUM_CHANNELS; c++) { /* nothing ran */
        uint32_t err = 0, get = 0;
        REQUIRE_OK(dev, gc_mmio_read(dev, GC_REG_CHANNEL_ERROR(c), &err));
        REQUIRE_OK(dev, gc_mmio_read(dev, GC_REG_CHANNEL_GP_GET(c), &get));
        CHECK_EQ(err, GC_ERROR_CAUSE_NONE);
        CHECK_EQ(get, 0);
    }
    gc_device_close(dev);
}

static const tcase_t cases[] = {
    {"frontend_memset_2d", t_memset_2d},
    {"frontend_two_engines", t_two_engines},
    {"frontend_reductions", t_reductions},
    {"frontend_acquire_across_channels", t_acquire_across_channels},
    {"frontend_acquire_timeout", t_acquire_timeout},
    {"frontend_interrupt_counters", t_interrupt_counters},
    {"frontend_subchannel_bindings", t_subchannel_bindings},
    {"frontend_register_bits", t_register_bits},
};
TCASE_MAIN(cases)
