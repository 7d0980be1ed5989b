/* End to end on the rtl backend: copies, semaphores, GPFIFO flow control, registers, IRQ. */
#include "cosim_util.h"
#include "tcase.h"

static void t_roundtrip_4k(void) {
    gc_device_t *dev = util_open(NULL);
    REQUIRE(dev);
    gc_channel_t *ch;
    REQUIRE_OK(dev, gc_channel_open(dev, NULL, &ch));
    roundtrip_t r = util_roundtrip(dev, ch, 4096, 0, 0, gc_device_seed(dev));
    CHECK_EQ(r.status, GC_OK);
    CHECK_EQ(r.vid_bad, 0);
    CHECK_EQ(r.dst_bad, 0);
    CHECK_EQ(r.ce_sem, 1);
    CHECK_EQ(r.host_sem, RT_HOST_PAYLOAD);
    /* 2 x 4 KiB through the CE at <= 8 bytes a cycle, plus latencies: a few thousand cycles
     * (without stalls; random stalls stretch every transfer) */
    CHECK(r.cycles > 1024 && r.cycles < util_stall_budget(20000, util_stall_pct()));
    uint32_t methods = 0;
    /* the fence's release lands in memory before its B response completes the method: wait until
     * the channel has left (every method done), however long the stalls make that */
    REQUIRE_OK(dev, util_wait_left(dev, gc_channel_id(ch), 100000));
    REQUIRE_OK(dev, gc_mmio_read(dev, GC_REG_CHANNEL_METHODS(0), &methods));
    /* SET_OBJECT + 2 x (4 OFFSET + LINE_LENGTH [+ 3 SEM] + LAUNCH) + 5 SEM + 5 fence SEM
     * = 1 + 9 + 6 + 5 + 5 */
    CHECK_EQ(methods, 26);
    fprintf(stderr, "4 KiB round trip: %llu cycles\n", (unsigned long long)r.cycles);
    gc_device_close(dev);
}

static void stalls(gc_device_config_t *c) { c->stall_pct = 30; }

static void t_roundtrip_stalls(void) {
    gc_device_t *dev = util_open(stalls);
    REQUIRE(dev);
    gc_channel_t *ch;
    REQUIRE_OK(dev, gc_channel_open(dev, NULL, &ch));
    roundtrip_t r = util_roundtrip(dev, ch, 4096, 0, 0, 99);
    CHECK_EQ(r.status, GC_OK);
    CHECK_EQ(r.vid_bad + r.dst_bad, 0);
    CHECK_EQ(r.ce_sem, 1);
    CHECK_EQ(r.host_sem, RT_HOST_PAYLOAD);
    gc_device_close(dev);
}

/* Odd sizes and alignments; the bytes around each destination stay untouched. */
static void t_alignments(void) {
    gc_device_t *dev = util_open(NULL);
    REQUIRE(dev);
    gc_channel_t *ch;
    REQUIRE_OK(dev, gc_channel_open(dev, NULL, &ch));
    gc_buf_t src, dst;
    REQUIRE_OK(dev, gc_mem_alloc(dev, GC_MEM_SYSMEM, 8192, 64, &src));
    REQUIRE_OK(dev, gc_mem_alloc(dev, GC_MEM_VIDMEM, 8192, 64, &dst));
    static uint8_t s[8192], d[8192], want[8192];
    gcsc_fill(s, sizeof s, 5);
    REQUIRE_OK(dev, gc_mem_write(dev, src.addr, s, sizeof s));
    uint32_t rng = gc_device_seed(dev) ? (uint32_t)gc_device_seed(dev) : 1;
    for (int i = 0; i < 40; i++) {
        rng = rng * 1103515245u + 12345u;
        uint32_t len = i < 8 ? (uint32_t)i + 1 : 1 + (rng >> 8) % 700;
        uint32_t so = (rng >> 3) % 61, doff = 64 + (rng >> 11) % 53;
        gcsc_fill(d, sizeof d, 1000 + (uint64_t)i);
        memcpy(want, d, sizeof d);
        memcpy(want + doff, s + so, len);
        REQUIRE_OK(dev, gc_mem_write(dev, dst.addr, d, sizeof d));
        REQUIRE_OK(dev, gc_copy(ch, dst.addr + doff, src.addr + so, len, 0, 0));
        REQUIRE_OK(dev, gc_channel_wait_idle(ch));
        REQUIRE_OK(dev, gc_mem_read(dev, dst.addr, d, sizeof d));
        if (util_diff("aligned copy", want, d, sizeof d)) {
            TCASE_FAIL_("copy %d: %u bytes from +%u to +%u", i, len, so, doff);
            break;
        }
    }
    gc_device_close(dev);
}

/* A 4-entry ring takes 30 submissions: the driver must wait on GP_GET, and every one runs once,
 * in order (each release overwrites the same word with its sequence number, and the copy
 * results stack up in order). */
static void t_ring_flow_control(void) {
    gc_device_t *dev = util_open(NULL);
    REQUIRE(dev);
    gc_channel_config_t cc;
    gc_channel_config_init(&cc);
    cc.log2_entries = 2;
    cc.pb_bytes = 256;
    gc_channel_t *ch;
    REQUIRE_OK(dev, gc_channel_open(dev, &cc, &ch));
    gc_buf_t sem, log;
    REQUIRE_OK(dev, gc_mem_alloc(dev, GC_MEM_SYSMEM, 64, 64, &sem));
    REQUIRE_OK(dev, gc_mem_alloc(dev, GC_MEM_VIDMEM, 4 * 30, 64, &log));
    uint32_t zero[30] = {0};
    REQUIRE_OK(dev, gc_mem_write(dev, log.addr, zero, sizeof zero));
    for (uint32_t i = 1; i <= 30; i++) {
        uint32_t w[24];
        gc_pushbuf_t pb;
        gc_pb_init(&pb, w, 24);
        /* the release of i, then a copy of the semaphore word into log[i-1] */
        gc_pb_sem_release(&pb, sem.addr, i, false, false);
        gc_pb_copy(&pb, 4, log.addr + 4 * (i - 1), sem.addr, 4, false, 0, 0);
        REQUIRE_OK(dev, gc_channel_submit(ch, &pb));
    }
    REQUIRE_OK(dev, gc_channel_wait_idle(ch));
    uint32_t got[30];
    REQUIRE_OK(dev, gc_mem_read(dev, log.addr, got, sizeof got));
    for (uint32_t i = 0; i < 30; i++) CHECK_EQ(got[i], i + 1);
    uint32_t get = 99;
    REQUIRE_OK(dev, gc_channel_gp_get(ch, &get));
    CHECK_EQ(get, (1u + 30u) % 4u); /* SET_OBJECT entry + 30 */
    gc_device_close(dev);
}

/* Two channels at once, each with its own ring, both finish with correct data. */
static void t_two_channels(void) {
    gc_device_t *dev = util_open(NULL);
    REQUIRE(dev);
    gc_channel_t *a, *b;
    REQUIRE_OK(dev, gc_channel_open(dev, NULL, &a));
    REQUIRE_OK(dev, gc_channel_open(dev, NULL, &b));
    CHECK(gc_channel_id(a) != gc_channel_id(b));
    gc_buf_t src, da, db, sem;
    REQUIRE_OK(dev, gc_mem_alloc(dev, GC_MEM_SYSMEM, 2048, 64, &src));
    REQUIRE_OK(dev, gc_mem_alloc(dev, GC_MEM_VIDMEM, 2048, 64, &da));
    REQUIRE_OK(dev, gc_mem_alloc(dev, GC_MEM_VIDMEM, 2048, 64, &db));
    REQUIRE_OK(dev, gc_mem_alloc(dev, GC_MEM_SYSMEM, 64, 64, &sem));
    static uint8_t s[2048], g[2048];
    gcsc_fill(s, sizeof s, 77);
    REQUIRE_OK(dev, gc_mem_write(dev, src.addr, s, sizeof s));
    for (int k = 0; k < 4; k++) {
        REQUIRE_OK(dev, gc_copy(a, da.addr + 512 * k, src.addr + 512 * k, 512, sem.addr, k + 1));
        REQUIRE_OK(dev, gc_copy(b, db.addr + 512 * k, src.addr + 512 * k, 512, sem.addr + 4, k + 1));
    }
    REQUIRE_OK(dev, gc_channel_wait_idle(a));
    REQUIRE_OK(dev, gc_channel_wait_idle(b));
    REQUIRE_OK(dev, gc_mem_read(dev, da.addr, g, sizeof g));
    CHECK_EQ(util_diff("channel a", s, g, sizeof g), 0);
    REQUIRE_OK(dev, gc_mem_read(dev, db.addr, g, sizeof g));
    CHECK_EQ(util_diff("channel b", s, g, sizeof g), 0);
    uint32_t sv[2];
    REQUIRE_OK(dev, gc_mem_read(dev, sem.addr, sv, 8));
    CHECK_EQ(sv[0], 4);
    CHECK_EQ(sv[1], 4);
    gc_device_close(dev);
}

static void t_registers(void) {
    gc_device_t *dev = util_open(NULL);
    REQUIRE(dev);
    uint32_t v = 0, lo1, lo2, hi;
    REQUIRE_OK(dev, gc_mmio_read(dev, GC_REG_GLOBAL_VERSION, &v));
    CHECK_EQ(v, GC_VERSION);
    REQUIRE_OK(dev, gc_mmio_read(dev, GC_REG_GLOBAL_CONFIG, &v));
    CHECK_EQ(GC_GLOBAL_CONFIG_NUM_CHANNELS_GET(v), GC_NUM_CHANNELS);
    CHECK_EQ(GC_GLOBAL_CONFIG_DATA_BYTES_GET(v), GC_AXI_DATA_W / 8);
    REQUIRE_OK(dev, gc_mmio_read(dev, GC_REG_GLOBAL_CYCLE_LO, &lo1));
    REQUIRE_OK(dev, gc_device_run(dev, 100));
    REQUIRE_OK(dev, gc_mmio_read(dev, GC_REG_GLOBAL_CYCLE_LO, &lo2));
    REQUIRE_OK(dev, gc_mmio_read(dev, GC_REG_GLOBAL_CYCLE_HI, &hi));
    CHECK(lo2 - lo1 >= 100 && lo2 - lo1 < 120);
    CHECK_EQ(hi, 0);
    /* GPFIFO_BASE_LO drops bits 2:0; unmapped offsets answer with a bus error */
    REQUIRE_OK(dev, gc_mmio_write(dev, GC_REG_CHANNEL_GPFIFO_BASE_LO(9), 0x12345677u));
    REQUIRE_OK(dev, gc_mmio_read(dev, GC_REG_CHANNEL_GPFIFO_BASE_LO(9), &v));
    CHECK_EQ(v, 0x12345670u);
    CHECK_EQ(gc_mmio_read(dev, 0x0FFC, &v), GC_ERR_BUS);
    gc_device_close(dev);
}

/* NON_STALL_INTERRUPT raises INTR_STATUS.NON_STALL; the line follows INTR_ENABLE; w1c clears. */
static void t_nonstall_irq(void) {
    gc_device_t *dev = util_open(NULL);
    REQUIRE(dev);
    gc_channel_t *ch;
    REQUIRE_OK(dev, gc_channel_open(dev, NULL, &ch));
    REQUIRE_OK(dev, gc_mmio_write(dev, GC_REG_GLOBAL_INTR_ENABLE, GC_GLOBAL_INTR_ENABLE_NON_STALL(1)));
    CHECK(!gc_device_irq(dev));
    uint32_t w[4];
    gc_pushbuf_t pb;
    gc_pb_init(&pb, w, 4);
    gc_pb_immd(&pb, 0, GC_HOST_NON_STALL_INTERRUPT, 0);
    REQUIRE_OK(dev, gc_channel_submit(ch, &pb));
    REQUIRE_OK(dev, gc_channel_wait_idle(ch));
    uint32_t st = 0;
    REQUIRE_OK(dev, gc_mmio_read(dev, GC_REG_GLOBAL_INTR_STATUS, &st));
    CHECK_EQ(GC_GLOBAL_INTR_STATUS_NON_STALL_GET(st), 1);
    CHECK_EQ(GC_GLOBAL_INTR_STATUS_CHANNEL_FAULT_GET(st), 0);
    CHECK(gc_device_irq(dev));
    REQUIRE_OK(dev, gc_mmio_write(dev, GC_REG_GLOBAL_INTR_STATUS, GC_GLOBAL_INTR_STATUS_NON_STALL(1)));
    REQUIRE_OK(dev, gc_mmio_read(dev, GC_REG_GLOBAL_INTR_STATUS, &st));
    CHECK_EQ(st, 0);
    CHECK(!gc_device_irq(dev));
    gc_device_close(dev);
}

/* A 64 KiB vidmem -> vidmem copy while the PBDMA fetches the channel's next GPFIFO entry and its
 * pushbuffer from sysmem (a second submit, queued behind the copy).  The memory answers reads of
 * different IDs out of order (cosim/axi_idq.h): the copy engine's vidmem beats do not wait behind
 * the PBDMA's sysmem reads (PCIe latency 100), so the copy costs its 8192 beats, the vidmem read
 * latency and the vidmem write-response latency (40 each, cosim.cpp's defaults) and a few cycles
 * (the PBDMA's own beats on the shared R channel, the release).  With responses in AR order across
 * IDs it took ~46 cycles more.  No random stalls (they stretch every transfer). */
static void no_stalls(gc_device_config_t *c) { c->stall_pct = 0; }

static void t_ce_beside_sysmem_reads(void) {
    gc_device_t *dev = util_open(no_stalls);
    REQUIRE(dev);
    gc_channel_t *ch;
    REQUIRE_OK(dev, gc_channel_open(dev, NULL, &ch));
    enum { BYTES = 64 << 10, VID_LAT = 40, SLACK = 16 };
    gc_buf_t src, dst, sem;
    REQUIRE_OK(dev, gc_mem_alloc(dev, GC_MEM_VIDMEM, BYTES, 4096, &src));
    REQUIRE_OK(dev, gc_mem_alloc(dev, GC_MEM_VIDMEM, BYTES, 4096, &dst));
    REQUIRE_OK(dev, gc_mem_alloc(dev, GC_MEM_SYSMEM, 64, 64, &sem));
    uint8_t *data = malloc(BYTES), *got = malloc(BYTES);
    REQUIRE(data && got);
    for (uint32_t i = 0; i < BYTES; i++) data[i] = (uint8_t)(i * 7 + (i >> 8));
    REQUIRE_OK(dev, gc_mem_write(dev, src.addr, data, BYTES));
    uint8_t zero[64] = {0};
    REQUIRE_OK(dev, gc_mem_write(dev, sem.addr, zero, sizeof zero));
    uint32_t words[64];
    gc_pushbuf_t pb;
    gc_pb_init(&pb, words, 64);
    gc_copy_desc_t d = {.dst = dst.addr, .src = src.addr, .line_bytes = BYTES, .line_count = 1,
                        .sem = GC_COPY_SEM_FOUR_WORD, .sem_addr = sem.addr + 16, .sem_payload = 1};
    gc_pb_copy_desc(&pb, 4, &d);
    REQUIRE_OK(dev, gc_channel_submit(ch, &pb));
    gc_pb_init(&pb, words, 64);
    gc_pb_sem_release(&pb, sem.addr, 7, false, false);
    REQUIRE_OK(dev, gc_channel_submit(ch, &pb));
    REQUIRE_OK(dev, gc_channel_wait_idle(ch));
    uint32_t rec[4], host = 0;
    REQUIRE_OK(dev, gc_mem_read(dev, sem.addr + 16, rec, sizeof rec));
    REQUIRE_OK(dev, gc_mem_read(dev, sem.addr, &host, sizeof host));
    REQUIRE_OK(dev, gc_mem_read(dev, dst.addr, got, BYTES));
    gc_copy_record_t cr = gc_copy_record(rec);
    CHECK_EQ(cr.payload, 1);
    CHECK_EQ(host, 7);
    CHECK(memcmp(got, data, BYTES) == 0);
    uint64_t cycles = cr.end - cr.start, bound = BYTES / 8 + 2 * VID_LAT + SLACK;
    fprintf(stderr, "64 KiB vidmem copy beside sysmem fetches: %llu cycles (bound %llu)\n",
            (unsigned long long)cycles, (unsigned long long)bound);
    CHECK(cr.end > cr.start && cycles <= bound);
    free(data);
    free(got);
    gc_device_close(dev);
}

static const tcase_t cases[] = {
    {"cosim_roundtrip_4k", t_roundtrip_4k},
    {"cosim_roundtrip_stalls", t_roundtrip_stalls},
    {"cosim_alignments", t_alignments},
    {"cosim_ring_flow_control", t_ring_flow_control},
    {"cosim_two_channels", t_two_channels},
    {"cosim_registers", t_registers},
    {"cosim_nonstall_irq", t_nonstall_irq},
    {"cosim_ce_beside_sysmem_reads", t_ce_beside_sysmem_reads},
};
TCASE_MAIN(cases)
