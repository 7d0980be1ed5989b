/* TMD encoder and compute-class pushbuffer helpers (gpucosim/compute.h) against the spec layout,
 * worked out by hand; no RTL. */
#include "gpucosim/compute.h"
#include "tcase.h"

static void t_encode(void) {
    gc_tmd_t t;
    gc_tmd_init(&t);
    t.entry_pc = 0x83000038u;
    t.param = 0x80001000u;
    t.grid[0] = 7, t.grid[1] = 2, t.grid[2] = 3;
    t.cta[0] = 8, t.cta[1] = 4, t.cta[2] = 1;
    t.smem_bytes = 512;
    t.priority = 9;
    t.sem_release = true;
    t.sem_four_word = true;
    t.sem_addr = 0x0123456780ull;
    t.sem_payload = 0xCAFE;
    t.interrupt = true;
    uint32_t w[GC_TMD_WORDS];
    REQUIRE(gc_tmd_encode(&t, w) == GC_OK);
    CHECK_EQ(GC_TMD_SIZE, 64);
    CHECK_EQ(w[0], 0x83000038u);
    CHECK_EQ(w[1], 0x80001000u);
    CHECK_EQ(w[2], 7);
    CHECK_EQ(w[3], 2);
    CHECK_EQ(w[4], 3);
    CHECK_EQ(w[5], 0x00040008u); /* X 15:0, Y 31:16 */
    CHECK_EQ(w[6], 1);
    CHECK_EQ(w[7], 512);
    CHECK_EQ(w[8], 9);
    CHECK_EQ(w[9], 0x23456780u);
    CHECK_EQ(w[10], 0x01);
    CHECK_EQ(w[11], 0xCAFE);
    CHECK_EQ(w[12], 0x7); /* release, four words, interrupt */
    for (unsigned i = 13; i < GC_TMD_WORDS; i++) CHECK_EQ(w[i], 0);
    gc_tmd_t back;
    gc_tmd_decode(w, &back);
    CHECK(memcmp(&back, &t, sizeof t) == 0);
}

static void t_refuse(void) {
    gc_tmd_t t;
    uint32_t w[GC_TMD_WORDS];
    gc_tmd_init(&t);
    t.grid[1] = 0;
    CHECK_EQ(gc_tmd_encode(&t, w), GC_ERR_INVALID_ARG);
    gc_tmd_init(&t);
    t.cta[0] = 0x10000;
    CHECK_EQ(gc_tmd_encode(&t, w), GC_ERR_INVALID_ARG);
    gc_tmd_init(&t);
    t.priority = 256;
    CHECK_EQ(gc_tmd_encode(&t, w), GC_ERR_INVALID_ARG);
    gc_tmd_init(&t);
    t.sem_addr = 0x10000000000ull; /* 41 bits */
    CHECK_EQ(gc_tmd_encode(&t, w), GC_ERR_INVALID_ARG);
}

static void t_pushbuffer(void) {
    uint32_t words[16];
    gc_pushbuf_t pb;
    gc_pb_init(&pb, words, 16);
    gc_pb_set_object(&pb, 1, GC_CLASS_COMPUTE);
    gc_pb_compute_launch(&pb, 1, 0x0100200300ull);
    REQUIRE(pb.status == GC_OK);
    REQUIRE(pb.len == 6);
    CHECK_EQ(words[0], 0x20012000u); /* INCR, count 1, subch 1, SET_OBJECT */
    CHECK_EQ(words[1], 0xC5C0u);
    CHECK_EQ(words[2], 0x200120ADu); /* SEND_PCAS_A = 0x2B4 / 4 = 0xAD */
    CHECK_EQ(words[3], 0x01002003u); /* address >> 8 */
    CHECK_EQ(words[4], 0x200120AFu); /* SEND_SIGNALING_PCAS_B = 0x2BC / 4 = 0xAF */
    CHECK_EQ(words[5], 0x3u);        /* INVALIDATE | SCHEDULE */
    gc_pb_reset(&pb);
    gc_pb_compute_launch(&pb, 1, 0x0100200380ull); /* not 256-aligned */
    CHECK_EQ(pb.status, GC_ERR_INVALID_ARG);
    CHECK(!strcmp(gc_method_name(GC_CLASS_COMPUTE, 0x2B4), "SEND_PCAS_A"));
    CHECK(!strcmp(gc_method_name(GC_CLASS_COMPUTE, 0x2BC), "SEND_SIGNALING_PCAS_B"));
}

static void t_fault_format(void) {
    gc_compute_fault_t f = {GC_SIMT_FAULT_ILLEGAL_INSTRUCTION, 0x83000010u, 0xFFFFFFFFu, 0, 1, 3, 0x830100, 2};
    char buf[256];
    gc_compute_fault_format(&f, buf, sizeof buf);
    CHECK(strstr(buf, "ILLEGAL_INSTRUCTION at pc 0x83000010 (SM 0 warp 1 lane 3)") != NULL);
    CHECK(strstr(buf, "channel 2") != NULL);
    CHECK_EQ(gc_simt_ptr(GC_VIDMEM_BASE + 4), 0x80000004u);
    CHECK_EQ(gc_simt_ptr(0xFF00000000ull), 0);
}

/* Issue 6: the PRIORITY word (LEVEL 7:0, DEPTH 11:8, MAX_DEPTH 15:12) and FLAGS.QUEUE_HEAD (bit 3). */
static void t_priority_word(void) {
    gc_tmd_t t;
    uint32_t w[GC_TMD_WORDS];
    gc_tmd_init(&t);
    t.priority = 63;
    t.depth = 1;
    t.max_depth = 15;
    t.queue_head = true;
    REQUIRE(gc_tmd_encode(&t, w) == GC_OK);
    CHECK_EQ(w[8], 0x0000F13Fu);
    CHECK_EQ(w[12], 0x8u);
    gc_tmd_t back;
    gc_tmd_decode(w, &back);
    CHECK(memcmp(&back, &t, sizeof t) == 0);
    t.priority = 4, t.depth = 3, t.max_depth = 4, t.queue_head = false, t.sem_release = true;
    REQUIRE(gc_tmd_encode(&t, w) == GC_OK);
    CHECK_EQ(w[8], 0x00004304u);
    CHECK_EQ(w[12], 0x1u);
    /* fields that do not fit are refused, nothing written */
    gc_tmd_init(&t);
    t.depth = 16;
    w[0] = 0xDEADBEEF;
    CHECK_EQ(gc_tmd_encode(&t, w), GC_ERR_INVALID_ARG);
    CHECK_EQ(w[0], 0xDEADBEEF);
    gc_tmd_init(&t);
    t.max_depth = GC_TMU_MAX_DEPTH + 1;
    CHECK_EQ(gc_tmd_encode(&t, w), GC_ERR_INVALID_ARG);
    /* a level the field holds but the TMU does not (>= TMU_PRIO_LEVELS) is encoded: the TMU faults it
     * BAD_TMD (the runtime refuses it before) */
    gc_tmd_init(&t);
    t.priority = GC_TMU_PRIO_LEVELS;
    REQUIRE(gc_tmd_encode(&t, w) == GC_OK);
    CHECK_EQ(GC_TMD_PRIORITY_LEVEL_GET(w[8]), GC_TMU_PRIO_LEVELS);
}

/* A queue TMD: FLAGS.QUEUE and QUEUE_ADDR_LO / HI; an address past 40 bits is refused. */
static void t_queue_words(void) {
    gc_tmd_t t, back;
    uint32_t w[GC_TMD_WORDS];
    gc_tmd_init(&t);
    t.queue = true;
    t.queue_addr = 0xAB12345678ull;
    REQUIRE(gc_tmd_encode(&t, w) == GC_OK);
    CHECK_EQ(w[GC_TMD_FLAGS / 4], 0x10u);
    CHECK_EQ(w[GC_TMD_QUEUE_ADDR_LO / 4], 0x12345678u);
    CHECK_EQ(w[GC_TMD_QUEUE_ADDR_HI / 4], 0xABu);
    gc_tmd_decode(w, &back);
    CHECK(memcmp(&back, &t, sizeof t) == 0);
    t.queue_addr = 1ull << 40;
    CHECK_EQ(gc_tmd_encode(&t, w), GC_ERR_INVALID_ARG);
    t.queue = false; /* not a queue TMD: the words stay 0 */
    REQUIRE(gc_tmd_encode(&t, w) == GC_OK);
    CHECK(w[GC_TMD_QUEUE_ADDR_LO / 4] == 0 && w[GC_TMD_QUEUE_ADDR_HI / 4] == 0 && w[GC_TMD_FLAGS / 4] == 0);
}

static const tcase_t cases[] = {
    {"tmd_queue_words", t_queue_words},
    {"tmd_priority_word", t_priority_word},
    {"tmd_encode", t_encode},
    {"tmd_refuse", t_refuse},
    {"tmd_pushbuffer", t_pushbuffer},
    {"tmd_fault_format", t_fault_format},
};
TCASE_MAIN(cases)
