/* The ref backend's task management unit (docs/tmu.md, cosim/ref/ref_compute.c): pending list
 * order (priority, head / tail insertion), eviction (victim choice, EVICT / RESUME, every CTA
 * exactly once, the urgent task first; TMU_CTRL.NO_EVICT), nested device launches (levels and
 * depths, DEPTH / PRIORITY / FULL / BAD_ADDR, the LAUNCH_FAIL registers and interrupt), a parent
 * completing after its descendants, a child's fault, and two channels' tasks at once.
 *
 * The kernel is raw RV32 (one program driven by its parameter block, below); outcomes come from
 * per-CTA counters, LAUNCH statuses the threads store, completion releases and the task log.
 * Every case opens the "ref" backend whatever GPUCOSIM_BACKEND says. */
#include <string.h>

#include "cosim_util.h"
#include "gpucosim/compute.h"
#include "tcase.h"

/* ------------------------------------------------------------------ a tiny assembler */
static uint32_t enc_i(uint32_t op, uint32_t f3, uint32_t rd, uint32_t rs1, int32_t imm) {
    return ((uint32_t)imm << 20) | rs1 << 15 | f3 << 12 | rd << 7 | op;
}
static uint32_t enc_s(uint32_t rs1, uint32_t rs2, int32_t imm) {
    uint32_t u = (uint32_t)imm;
    return ((u >> 5) & 0x7Fu) << 25 | rs2 << 20 | rs1 << 15 | 2u << 12 | (u & 31u) << 7 | 0x23u;
}
static uint32_t enc_b(uint32_t f3, uint32_t rs1, uint32_t rs2, int32_t off) {
    uint32_t u = (uint32_t)off;
    return ((u >> 12) & 1u) << 31 | ((u >> 5) & 0x3Fu) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 |
           ((u >> 1) & 0xFu) << 8 | ((u >> 11) & 1u) << 7 | 0x63u;
}
static uint32_t enc_r(uint32_t f7, uint32_t f3, uint32_t rd, uint32_t rs1, uint32_t rs2) {
    return f7 << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | rd << 7 | 0x33u;
}
static uint32_t enc_jal0(int32_t off) {
    uint32_t u = (uint32_t)off;
    return ((u >> 20) & 1u) << 31 | ((u >> 1) & 0x3FFu) << 21 | ((u >> 11) & 1u) << 20 | ((u >> 12) & 0xFFu) << 12 | 0x6Fu;
}
#define ADDI(rd, rs, imm) enc_i(0x13, 0, rd, rs, imm)
#define SLLI(rd, rs, sh) enc_i(0x13, 1, rd, rs, sh)
#define LW(rd, rs, imm) enc_i(0x03, 2, rd, rs, imm)
#define SW(rs2, rs1, imm) enc_s(rs1, rs2, imm)
#define CSRR(rd, csr) enc_i(0x73, 2, rd, 0, csr)
#define ADD(rd, a, b) enc_r(0, 0, rd, a, b)
#define MUL(rd, a, b) enc_r(1, 0, rd, a, b)
#define AMOADD(rd, rs1, rs2) (rs2 << 20 | rs1 << 15 | 2u << 12 | rd << 7 | 0x2Fu)
#define BEQ(a, b, off) enc_b(0, a, b, off)
#define BNE(a, b, off) enc_b(1, a, b, off)
#define BGE(a, b, off) enc_b(5, a, b, off)
#define LAUNCH(rd, rs1) (GC_SIMT_INSN_LAUNCH | (rd) << 7 | (rs1) << 15)

/* The kernel's parameter block (words). */
enum {
    P_COUNTERS, /* thread 0 of CTA x adds 1 to counters[x] */
    P_SPIN,     /* then every thread spins this many iterations (about 9 cycles each) */
    P_CHILD,    /* threads tid < P_NLAUNCH first LAUNCH the TMD at P_CHILD + tid * P_STRIDE ... */
    P_STATUS,   /* ... and store the status at P_STATUS[tid] */
    P_NLAUNCH,
    P_FAULT,    /* nonzero: CTA 0 runs an illegal instruction after counting */
    P_STRIDE,
    P_WORDS
};


enum { NCH = 8, LOG_LOG2 = 10, LOG_MAX = 1 << LOG_LOG2 };

typedef struct fx {
    gc_device_t *dev;
    gc_channel_t *ch[NCH];
    uint32_t pc;
    uint64_t log;
} fx_t;

static uint32_t rd(gc_device_t *dev, uint32_t off) {
    uint32_t v = 0xDEADBEEFu;
    gc_mmio_read(dev, off, &v);
    return v;
}

static uint64_t zalloc(fx_t *f, uint64_t n) {
    gc_buf_t b;
    if (gc_mem_alloc(f->dev, GC_MEM_VIDMEM, n, GC_TMD_ALIGN, &b) != GC_OK) return 0;
    static const uint8_t zero[4096];
    for (uint64_t o = 0; o < n; o += sizeof zero)
        gc_mem_write(f->dev, b.addr + o, zero, n - o < sizeof zero ? n - o : sizeof zero);
    return b.addr;
}

static bool fx_open(fx_t *f) {
    memset(f, 0, sizeof *f);
    gc_device_config_t cfg;
    gc_device_config_init(&cfg);
    cfg.backend = "ref";
    cfg.quiet = true;
    cfg.wait_cycles = 20000000;
    cfg.stall_pct = 0;
    if (gc_device_open(&cfg, &f->dev) != GC_OK) return false;
    for (int i = 0; i < NCH; i++) {
        gc_channel_config_t cc;
        gc_channel_config_init(&cc);
        cc.runlist = 0;
        if (gc_channel_open(f->dev, &cc, &f->ch[i]) != GC_OK || gc_compute_bind(f->ch[i], GC_COMPUTE_SUBCH) != GC_OK)
            return false;
    }
    for (int i = 0; i < NCH; i++)
        if (gc_channel_wait_idle(f->ch[i]) != GC_OK) return false;
    const uint32_t kernel[] = {
        /*  0 */ CSRR(5, GC_SIMT_CSR_PARAM),
        /*  1 */ CSRR(8, GC_SIMT_CSR_TID_X),
        /*  2 */ LW(9, 5, 4 * P_NLAUNCH),
        /*  3 */ BGE(8, 9, 4 * (13 - 3)),
        /*  4 */ LW(6, 5, 4 * P_CHILD),
        /*  5 */ LW(12, 5, 4 * P_STRIDE),
        /*  6 */ MUL(12, 12, 8),
        /*  7 */ ADD(6, 6, 12),
        /*  8 */ LAUNCH(10, 6),
        /*  9 */ LW(7, 5, 4 * P_STATUS),
        /* 10 */ SLLI(11, 8, 2),
        /* 11 */ ADD(11, 11, 7),
        /* 12 */ SW(10, 11, 0),
        /* 13 */ BNE(8, 0, 4 * (25 - 13)),
        /* 14 */ LW(6, 5, 4 * P_COUNTERS),
        /* 15 */ CSRR(7, GC_SIMT_CSR_CTAID_X),
        /* 16 */ SLLI(7, 7, 2),
        /* 17 */ ADD(7, 7, 6),
        /* 18 */ ADDI(12, 0, 1),
        /* 19 */ AMOADD(0u, 7u, 12u),
        /* 20 */ LW(13, 5, 4 * P_FAULT),
        /* 21 */ BEQ(13, 0, 4 * (25 - 21)),
        /* 22 */ CSRR(7, GC_SIMT_CSR_CTAID_X),
        /* 23 */ BNE(7, 0, 4 * (25 - 23)),
        /* 24 */ 0x00000000u, /* illegal */
        /* 25 */ LW(11, 5, 4 * P_SPIN),
        /* 26 */ BEQ(11, 0, 4 * (29 - 26)),
        /* 27 */ ADDI(11, 11, -1),
        /* 28 */ enc_jal0(-8),
        /* 29 */ GC_SIMT_INSN_EXIT,
    };
    uint64_t code = zalloc(f, sizeof kernel);
    f->log = zalloc(f, (uint64_t)LOG_MAX * GC_TMU_LOG_SIZE);
    if (!code || !f->log || gc_mem_write(f->dev, code, kernel, sizeof kernel) != GC_OK) return false;
    f->pc = gc_simt_ptr(code);
    return gc_mmio_write(f->dev, GC_REG_COMPUTE_LOG_BASE_LO, (uint32_t)f->log) == GC_OK &&
           gc_mmio_write(f->dev, GC_REG_COMPUTE_LOG_BASE_HI, (uint32_t)(f->log >> 32)) == GC_OK &&
           gc_mmio_write(f->dev, GC_REG_COMPUTE_LOG_CTRL,
                         GC_COMPUTE_LOG_CTRL_ENABLE(1) | GC_COMPUTE_LOG_CTRL_SIZE_LOG2(LOG_LOG2)) == GC_OK;
}

typedef struct kdesc {
    uint32_t grid, threads, spin, level, depth, max_depth;
    bool head, fault;
    uint64_t child;    /* device address of the first child TMD (0: none) */
    uint32_t nlaunch, stride;
    uint64_t counters, status, sem; /* sem: FOUR_WORD release (0: none) */
    uint32_t payload;
} kdesc_t;

/* A TMD (and its parameter block) for the kernel; returns its device address. */
static uint64_t mk_tmd(fx_t *f, const kdesc_t *k) {
    uint64_t tmd = zalloc(f, 512), param = tmd + 256;
    if (!tmd) return 0;
    uint32_t p[P_WORDS] = {0};
    p[P_COUNTERS] = gc_simt_ptr(k->counters);
    p[P_SPIN] = k->spin;
    p[P_CHILD] = k->child ? gc_simt_ptr(k->child) : 0;
    p[P_STATUS] = gc_simt_ptr(k->status);
    p[P_NLAUNCH] = k->nlaunch;
    p[P_FAULT] = k->fault;
    p[P_STRIDE] = k->stride;
    gc_tmd_t t;
    gc_tmd_init(&t);
    t.entry_pc = f->pc;
    t.param = gc_simt_ptr(param);
    t.grid[0] = k->grid;
    t.cta[0] = k->threads;
    if (k->sem) {
        t.sem_release = t.sem_four_word = true;
        t.sem_addr = k->sem;
        t.sem_payload = k->payload;
    }
    uint32_t w[GC_TMD_WORDS];
    if (gc_tmd_encode(&t, w) != GC_OK) return 0;
    w[GC_TMD_PRIORITY / 4] = GC_TMD_PRIORITY_LEVEL(k->level) | GC_TMD_PRIORITY_DEPTH(k->depth) |
                             GC_TMD_PRIORITY_MAX_DEPTH(k->max_depth);
    if (k->head) w[GC_TMD_FLAGS / 4] |= GC_TMD_FLAGS_QUEUE_HEAD(1);
    if (gc_mem_write(f->dev, tmd, w, sizeof w) != GC_OK || gc_mem_write(f->dev, param, p, sizeof p) != GC_OK) return 0;
    return tmd;
}

/* Launch on channel i, followed (optionally) by a timestamped release of the channel's own. */
static gc_status_t launch(fx_t *f, int i, uint64_t tmd, uint64_t after_sem) {
    uint32_t w[32];
    gc_pushbuf_t pb;
    gc_pb_init(&pb, w, 32);
    gc_pb_compute_launch(&pb, GC_COMPUTE_SUBCH, tmd);
    if (after_sem) gc_pb_sem_release_ts(&pb, after_sem, 1, false, false);
    return gc_channel_submit(f->ch[i], &pb);
}

/* Run until a field of COMPUTE.DBG reaches a value (false after `limit` cycles). */
static bool wait_dbg(fx_t *f, uint32_t (*get)(uint32_t), uint32_t want, uint64_t limit) {
    for (uint64_t t = 0; t < limit; t += 50) {
        if (get(rd(f->dev, GC_REG_COMPUTE_DBG)) == want) return true;
        gc_device_run(f->dev, 50);
    }
    return false;
}
static uint32_t dbg_slots(uint32_t v) { return GC_COMPUTE_DBG_SLOTS_BUSY_GET(v); }
static uint32_t dbg_pending(uint32_t v) { return GC_COMPUTE_DBG_PENDING_GET(v); }
static uint32_t dbg_evicting(uint32_t v) { return GC_COMPUTE_DBG_EVICTING_GET(v); }

typedef struct logrec {
    uint32_t ev, task;
    uint64_t stamp;
} logrec_t;

/* The log after its last records landed (they follow the events through the atomic unit: a
 * channel's fault can be seen before its task's COMPLETE record is in memory). */
static uint32_t log_read(fx_t *f, logrec_t *out) {
    gc_device_run(f->dev, 2000);
    uint32_t n = rd(f->dev, GC_REG_COMPUTE_LOG_PUT);
    if (n > LOG_MAX) n = LOG_MAX;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t w[4];
        gc_mem_read(f->dev, f->log + (uint64_t)i * GC_TMU_LOG_SIZE, w, sizeof w);
        out[i] = (logrec_t){w[0], w[1], (uint64_t)w[3] << 32 | w[2]};
    }
    return n;
}

static uint32_t kind(const logrec_t *l) { return GC_TMU_LOG_EVENT_KIND_GET(l->ev); }

/* Index of the first record of (task, kind) at or after `from`, or -1. */
static int find(const logrec_t *l, uint32_t n, uint64_t tmd, uint32_t k, int from) {
    for (uint32_t i = (uint32_t)from; i < n; i++)
        if (l[i].task == (uint32_t)(tmd >> 8) && kind(&l[i]) == k) return (int)i;
    return -1;
}

static int count(const logrec_t *l, uint32_t n, uint64_t tmd, uint32_t k) {
    int c = 0;
    for (uint32_t i = 0; i < n; i++) c += (tmd == 0 || l[i].task == (uint32_t)(tmd >> 8)) && kind(&l[i]) == k;
    return c;
}

static bool counters_are(fx_t *f, uint64_t counters, uint32_t n, const uint32_t *want) {
    for (uint32_t i = 0; i < n; i++) {
        uint32_t v = 0;
        gc_mem_read(f->dev, counters + 4u * i, &v, 4);
        if (v != want[i]) {
            fprintf(stderr, "counter %u is %u, want %u\n", i, v, want[i]);
            return false;
        }
    }
    return true;
}

static bool all_ones(fx_t *f, uint64_t counters, uint32_t n) {
    uint32_t ones[64];
    for (uint32_t i = 0; i < 64; i++) ones[i] = 1;
    return counters_are(f, counters, n, ones);
}

static uint64_t sem_stamp(fx_t *f, uint64_t sem, uint32_t *payload) {
    uint32_t w[4] = {0};
    gc_mem_read(f->dev, sem, w, sizeof w);
    if (payload) *payload = w[0];
    return (uint64_t)w[3] << 32 | w[2];
}

/* ------------------------------------------------------------------ cases */
static void t_tmu_registers(void) {
    fx_t f;
    REQUIRE(fx_open(&f));
    uint32_t cfg = rd(f.dev, GC_REG_COMPUTE_TMU_CONFIG);
    CHECK_EQ(GC_COMPUTE_TMU_CONFIG_SLOTS_GET(cfg), GC_TMU_SLOTS);
    CHECK_EQ(GC_COMPUTE_TMU_CONFIG_ENTRIES_GET(cfg), GC_TMU_ENTRIES);
    CHECK_EQ(GC_COMPUTE_TMU_CONFIG_PRIO_LEVELS_GET(cfg), GC_TMU_PRIO_LEVELS);
    CHECK_EQ(rd(f.dev, GC_REG_COMPUTE_TMU_CTRL), 0);
    REQUIRE_OK(f.dev, gc_mmio_write(f.dev, GC_REG_COMPUTE_TMU_CTRL, 0xFFFFFFFFu));
    CHECK_EQ(rd(f.dev, GC_REG_COMPUTE_TMU_CTRL), GC_COMPUTE_TMU_CTRL_NO_EVICT(1));
    CHECK_EQ(rd(f.dev, GC_REG_COMPUTE_LOG_BASE_LO), (uint32_t)f.log);
    CHECK_EQ(rd(f.dev, GC_REG_COMPUTE_LOG_CTRL), GC_COMPUTE_LOG_CTRL_ENABLE(1) | GC_COMPUTE_LOG_CTRL_SIZE_LOG2(LOG_LOG2));
    REQUIRE_OK(f.dev, gc_mmio_write(f.dev, GC_REG_COMPUTE_CONFIG, 0)); /* read-only: ignored */
    CHECK_EQ(GC_COMPUTE_CONFIG_WARPS_GET(rd(f.dev, GC_REG_COMPUTE_CONFIG)), GC_SIMT_WARPS);
    /* one task: QUEUED, START, COMPLETE; LOG_PUT counts them; a LOG_CTRL write zeroes it */
    uint64_t cnt = zalloc(&f, 256);
    kdesc_t k = {.grid = 3, .threads = 8, .spin = 5, .level = 7, .counters = cnt};
    uint64_t tmd = mk_tmd(&f, &k);
    REQUIRE(tmd);
    REQUIRE_OK(f.dev, launch(&f, 0, tmd, 0));
    REQUIRE_OK(f.dev, gc_channel_wait_idle(f.ch[0]));
    logrec_t l[LOG_MAX];
    uint32_t n = log_read(&f, l);
    CHECK_EQ(n, 3);
    CHECK_EQ(kind(&l[0]), GC_TMU_EVENT_QUEUED);
    CHECK_EQ(GC_TMU_LOG_EVENT_SLOT_GET(l[0].ev), 15);
    CHECK_EQ(kind(&l[1]), GC_TMU_EVENT_START);
    CHECK_EQ(GC_TMU_LOG_EVENT_SLOT_GET(l[1].ev), 0);
    CHECK_EQ(kind(&l[2]), GC_TMU_EVENT_COMPLETE);
    for (uint32_t i = 0; i < n; i++) {
        CHECK_EQ(l[i].task, (uint32_t)(tmd >> 8));
        CHECK_EQ(GC_TMU_LOG_EVENT_LEVEL_GET(l[i].ev), 7);
        CHECK_EQ(GC_TMU_LOG_EVENT_DEPTH_GET(l[i].ev), 1);
        CHECK_EQ(GC_TMU_LOG_EVENT_CHANNEL_GET(l[i].ev), gc_channel_id(f.ch[0]));
        if (i) CHECK(l[i].stamp > l[i - 1].stamp);
    }
    CHECK(all_ones(&f, cnt, 3));
    CHECK_EQ(rd(f.dev, GC_REG_COMPUTE_TASK), (uint32_t)(tmd >> 8));
    CHECK_EQ(rd(f.dev, GC_REG_COMPUTE_CTAS), 3);
    uint32_t dbg = rd(f.dev, GC_REG_COMPUTE_DBG);
    CHECK_EQ(GC_COMPUTE_DBG_ENTRIES_GET(dbg), 0);
    CHECK_EQ(GC_COMPUTE_DBG_WARPS_ACTIVE_GET(dbg), 0);
    REQUIRE_OK(f.dev, gc_mmio_write(f.dev, GC_REG_COMPUTE_LOG_CTRL, 0));
    CHECK_EQ(rd(f.dev, GC_REG_COMPUTE_LOG_PUT), 0);
    gc_device_close(f.dev);
}

/* Pending tasks take slots by LEVEL; within a level in arrival order, QUEUE_HEAD before them. */
static void t_tmu_pending_order(void) {
    fx_t f;
    REQUIRE(fx_open(&f));
    REQUIRE_OK(f.dev, gc_mmio_write(f.dev, GC_REG_COMPUTE_TMU_CTRL, GC_COMPUTE_TMU_CTRL_NO_EVICT(1)));
    uint64_t cnt = zalloc(&f, 256);
    for (int i = 0; i < (int)GC_TMU_SLOTS; i++) { /* blockers: one warp each, long */
        kdesc_t b = {.grid = 1, .threads = 8, .spin = 4000, .level = 0, .counters = cnt};
        REQUIRE_OK(f.dev, launch(&f, i, mk_tmd(&f, &b), 0));
    }
    REQUIRE(wait_dbg(&f, dbg_slots, GC_TMU_SLOTS, 20000));
    static const struct { uint32_t level; bool head; } q[] = {{5, false}, {9, false}, {7, false}, {7, false}, {7, true}};
    enum { NQ = sizeof q / sizeof q[0], NP = NCH - GC_TMU_SLOTS };
    uint64_t tmd[NQ];
    /* NP tasks queue up one after the other (each waits until the previous one is pending) */
    for (int i = 0; i < NP; i++) {
        kdesc_t k = {.grid = 1, .threads = 8, .spin = 1, .level = q[i].level, .head = q[i].head, .counters = cnt + 64};
        REQUIRE((tmd[i] = mk_tmd(&f, &k)));
        REQUIRE_OK(f.dev, launch(&f, GC_TMU_SLOTS + i, tmd[i], 0));
        REQUIRE(wait_dbg(&f, dbg_pending, (uint32_t)i + 1u, 20000));
    }
    CHECK_EQ(GC_COMPUTE_DBG_SLOTS_BUSY_GET(rd(f.dev, GC_REG_COMPUTE_DBG)), GC_TMU_SLOTS);
    for (int i = 0; i < NCH; i++) REQUIRE_OK(f.dev, gc_channel_wait_idle(f.ch[i]));
    logrec_t l[LOG_MAX];
    uint32_t n = log_read(&f, l);
    int last = -1;
    static const int want4[NP] = {1, 2, 3, 0}; /* levels 9, 7, 7 (arrival order), 5 */
    for (int j = 0; j < NP; j++) {
        int s = find(l, n, tmd[want4[j]], GC_TMU_EVENT_START, 0);
        CHECK(s > last);
        last = s;
    }
    CHECK_EQ(count(l, n, 0, GC_TMU_EVENT_EVICT), 0);
    gc_device_close(f.dev);

    /* head versus tail within a level, and priority across levels, all five pending at once */
    REQUIRE(fx_open(&f));
    REQUIRE_OK(f.dev, gc_mmio_write(f.dev, GC_REG_COMPUTE_TMU_CTRL, GC_COMPUTE_TMU_CTRL_NO_EVICT(1)));
    cnt = zalloc(&f, 256);
    kdesc_t b = {.grid = 1, .threads = 8, .spin = 6000, .level = 0, .counters = cnt};
    for (int i = 0; i < 3; i++) REQUIRE_OK(f.dev, launch(&f, i, mk_tmd(&f, &b), 0));
    REQUIRE(wait_dbg(&f, dbg_slots, 3, 20000));
    /* the fourth slot: a parent that launches the five queued tasks itself, one lane each, in
     * order 0..4 (lowest lane first); they are its children at level parent + 1 */
    uint64_t kids = zalloc(&f, NQ * 256), st = zalloc(&f, 256);
    /* children: TMDs at kids + 256 i; their own PRIORITY is ignored, so the level comes from the
     * parent: all at one level; QUEUE_HEAD still applies */
    for (int i = 0; i < NQ; i++) {
        kdesc_t k = {.grid = 1, .threads = 8, .spin = 1, .head = q[i].head, .counters = cnt + 64};
        uint64_t t = mk_tmd(&f, &k);
        uint32_t w[GC_TMD_WORDS];
        REQUIRE_OK(f.dev, gc_mem_read(f.dev, t, w, sizeof w));
        REQUIRE_OK(f.dev, gc_mem_write(f.dev, kids + 256u * (uint32_t)i, w, sizeof w));
    }
    kdesc_t p = {.grid = 1, .threads = 8, .spin = 6000, .level = 3, .max_depth = 2, .child = kids, .stride = 256,
                 .nlaunch = NQ, .status = st, .counters = cnt + 128};
    uint64_t ptmd = mk_tmd(&f, &p);
    REQUIRE_OK(f.dev, launch(&f, 3, ptmd, 0));
    for (int i = 0; i < NCH; i++) REQUIRE_OK(f.dev, gc_channel_wait_idle(f.ch[i]));
    n = log_read(&f, l);
    /* children 0, 1, 2, 3 at the tail, 4 at the head: START order 4, 0, 1, 2, 3 */
    static const int want5[NQ] = {4, 0, 1, 2, 3};
    last = -1;
    for (int j = 0; j < NQ; j++) {
        int s = find(l, n, kids + 256u * (uint32_t)want5[j], GC_TMU_EVENT_START, 0);
        CHECK(s > last);
        last = s;
        int qd = find(l, n, kids + 256u * (uint32_t)want5[j], GC_TMU_EVENT_QUEUED, 0);
        CHECK(qd >= 0 && GC_TMU_LOG_EVENT_LEVEL_GET(l[qd].ev) == 4 && GC_TMU_LOG_EVENT_DEPTH_GET(l[qd].ev) == 2);
    }
    gc_device_close(f.dev);
}

/* K long low-priority tasks hold every slot; an urgent one evicts the right victim, completes
 * first, and every CTA of every task runs exactly once.  With NO_EVICT it waits instead. */
static void eviction(bool no_evict, const uint32_t lv[GC_TMU_SLOTS], int victim) {
    fx_t f;
    REQUIRE(fx_open(&f));
    if (no_evict) REQUIRE_OK(f.dev, gc_mmio_write(f.dev, GC_REG_COMPUTE_TMU_CTRL, GC_COMPUTE_TMU_CTRL_NO_EVICT(1)));
    enum { GRID = 6 };
    uint64_t cnt = zalloc(&f, 1024), sems = zalloc(&f, 256), tmd[GC_TMU_SLOTS], hi;
    for (int i = 0; i < (int)GC_TMU_SLOTS; i++) {
        kdesc_t k = {.grid = GRID, .threads = 8, .spin = 1500, .level = lv[i], .counters = cnt + 64u * (uint32_t)i,
                     .sem = sems + 16u * (uint32_t)i, .payload = 1};
        REQUIRE((tmd[i] = mk_tmd(&f, &k)));
        REQUIRE_OK(f.dev, launch(&f, i, tmd[i], 0));
        REQUIRE(wait_dbg(&f, dbg_slots, (uint32_t)i + 1u, 20000));
    }
    kdesc_t h = {.grid = 2, .threads = 8, .spin = 10, .level = 10, .counters = cnt + 512, .sem = sems + 128, .payload = 2};
    REQUIRE((hi = mk_tmd(&f, &h)));
    REQUIRE_OK(f.dev, launch(&f, GC_TMU_SLOTS, hi, 0));
    if (victim == 0) { /* the victim drains: DBG.EVICTING, the urgent task pending, every warp slot busy */
        REQUIRE(wait_dbg(&f, dbg_evicting, 1, 5000));
        uint32_t d = rd(f.dev, GC_REG_COMPUTE_DBG);
        CHECK_EQ(GC_COMPUTE_DBG_PENDING_GET(d), 1);
        CHECK_EQ(GC_COMPUTE_DBG_SLOTS_BUSY_GET(d), GC_TMU_SLOTS);
        CHECK_EQ(GC_COMPUTE_DBG_ENTRIES_GET(d), GC_TMU_SLOTS + 1);
        CHECK_EQ(GC_COMPUTE_DBG_WARPS_ACTIVE_GET(d), GC_SIMT_NUM_SM * GC_SIMT_WARPS);
    }
    for (int i = 0; i <= (int)GC_TMU_SLOTS; i++) REQUIRE_OK(f.dev, gc_channel_wait_idle(f.ch[i]));
    logrec_t l[LOG_MAX];
    uint32_t n = log_read(&f, l);
    for (int i = 0; i < (int)GC_TMU_SLOTS; i++) CHECK(all_ones(&f, cnt + 64u * (uint32_t)i, GRID));
    CHECK(all_ones(&f, cnt + 512, 2));
    int hc = find(l, n, hi, GC_TMU_EVENT_COMPLETE, 0), hs = find(l, n, hi, GC_TMU_EVENT_START, 0);
    REQUIRE(hc >= 0 && hs >= 0);
    uint64_t hstamp = sem_stamp(&f, sems + 128, NULL);
    int hq0 = find(l, n, hi, GC_TMU_EVENT_QUEUED, 0);
    REQUIRE(hq0 >= 0);
    fprintf(stderr, "%s: urgent task released at %llu, QUEUED to COMPLETE %llu cycles\n", no_evict ? "NO_EVICT" : "evict",
            (unsigned long long)hstamp, (unsigned long long)(l[hc].stamp - l[hq0].stamp));
    if (!no_evict) {
        CHECK_EQ(rd(f.dev, GC_REG_COMPUTE_EVICTIONS), 1);
        CHECK_EQ(count(l, n, 0, GC_TMU_EVENT_EVICT), 1);
        int ev = find(l, n, tmd[victim], GC_TMU_EVENT_EVICT, 0), rs = find(l, n, tmd[victim], GC_TMU_EVENT_RESUME, 0);
        int hq = find(l, n, hi, GC_TMU_EVENT_QUEUED, 0);
        REQUIRE(ev >= 0 && hq >= 0);
        CHECK(hq < ev && ev < hs && rs > ev);
        CHECK_EQ(GC_TMU_LOG_EVENT_SLOT_GET(l[ev].ev), GC_TMU_LOG_EVENT_SLOT_GET(l[hs].ev));
        CHECK(find(l, n, tmd[victim], GC_TMU_EVENT_START, 0) >= 0);
        fprintf(stderr, "victim %d: EVICT %llu cycles after the urgent task was queued\n", victim,
                (unsigned long long)(l[ev].stamp - l[hq].stamp));
        if (victim == 0) CHECK(l[ev].stamp - l[hq].stamp > 5000); /* its CTAs in flight drained first */
        for (int i = 0; i < (int)GC_TMU_SLOTS; i++) { /* the urgent task completes first */
            uint32_t pay = 0;
            uint64_t s = sem_stamp(&f, sems + 16u * (uint32_t)i, &pay);
            CHECK_EQ(pay, 1);
            CHECK(s > hstamp);
            CHECK(find(l, n, tmd[i], GC_TMU_EVENT_COMPLETE, 0) > hc);
        }
    } else {
        CHECK_EQ(rd(f.dev, GC_REG_COMPUTE_EVICTIONS), 0);
        CHECK_EQ(count(l, n, 0, GC_TMU_EVENT_EVICT), 0);
        CHECK_EQ(count(l, n, 0, GC_TMU_EVENT_RESUME), 0);
        /* it waited for a slot to free: the first low task to finish its CTAs needs two waves of
         * ~13500-cycle CTAs (the urgent one was queued at once) */
        int hq = find(l, n, hi, GC_TMU_EVENT_QUEUED, 0);
        REQUIRE(hq >= 0);
        fprintf(stderr, "NO_EVICT: START %llu cycles after QUEUED\n", (unsigned long long)(l[hs].stamp - l[hq].stamp));
        CHECK(l[hs].stamp - l[hq].stamp > 20000);
        bool slot_of_low = false;
        for (int i = 0; i < (int)GC_TMU_SLOTS; i++) {
            int g = find(l, n, tmd[i], GC_TMU_EVENT_COMPLETE, 0);
            slot_of_low |= g >= 0 && GC_TMU_LOG_EVENT_SLOT_GET(l[g].ev) == GC_TMU_LOG_EVENT_SLOT_GET(l[hs].ev) &&
                           l[g].stamp < sem_stamp(&f, sems + 128, NULL);
        }
        CHECK(slot_of_low);
    }
    gc_device_close(f.dev);
}
/* Victim among equals: the second level-1 task (the last to take its slot; nothing in flight). */
static const uint32_t lv_tie[GC_TMU_SLOTS] = {1, 2, 1, 3};
/* Victim with CTAs in flight: the first task took every warp slot. */
static const uint32_t lv_drain[GC_TMU_SLOTS] = {1, 2, 3, 2};
static void t_tmu_eviction(void) { eviction(false, lv_tie, 2); }
static void t_tmu_eviction_drain(void) { eviction(false, lv_drain, 0); }
static void t_tmu_no_evict(void) { eviction(true, lv_tie, -1); }

/* Nesting: levels and depths parent + 1; DEPTH from the deepest; the LAUNCH_FAIL registers and
 * interrupt; the root completes (release, then the channel's next method) after its descendants. */
static void t_tmu_nested_depth(void) {
    fx_t f;
    REQUIRE(fx_open(&f));
    enum { N = 4 };
    uint64_t cnt = zalloc(&f, 1024), st = zalloc(&f, 1024), sems = zalloc(&f, 256), t[N + 1];
    /* chain: t[0] (host, level 4, max depth 4) -> t[1] -> t[2] -> t[3] -> t[4] (too deep) */
    t[N] = mk_tmd(&f, &(kdesc_t){.grid = 1, .threads = 1, .counters = cnt + 64u * N});
    for (int i = N - 1; i >= 0; i--) {
        kdesc_t k = {.grid = 2, .threads = 8, .spin = i == 0 ? 1 : 400u * (uint32_t)i, .level = 4, .max_depth = N,
                     .child = t[i + 1], .nlaunch = 1, .status = st + 64u * (uint32_t)i,
                     .counters = cnt + 64u * (uint32_t)i, .sem = sems + 16u * (uint32_t)i, .payload = 10u + (uint32_t)i};
        REQUIRE((t[i] = mk_tmd(&f, &k)));
    }
    /* the child statuses go to st + 64 i: but a thread of each CTA launches, two CTAs: two children
     * per level would multiply; nlaunch = 1 and grid 2 -> 2 launches per task.  Keep grid 1 for the
     * chain instead: rewrite GRID_X */
    for (int i = 0; i < N; i++) {
        uint32_t one = 1;
        REQUIRE_OK(f.dev, gc_mem_write(f.dev, t[i] + GC_TMD_GRID_X, &one, 4));
    }
    uint32_t id = gc_channel_id(f.ch[0]);
    REQUIRE_OK(f.dev, launch(&f, 0, t[0], sems + 128));
    REQUIRE_OK(f.dev, gc_channel_wait_idle(f.ch[0]));
    for (int i = 0; i < N; i++) {
        uint32_t s = 0xFF;
        gc_mem_read(f.dev, st + 64u * (uint32_t)i, &s, 4);
        CHECK_EQ(s, i < N - 1 ? GC_LAUNCH_STATUS_OK : GC_LAUNCH_STATUS_DEPTH);
        CHECK(all_ones(&f, cnt + 64u * (uint32_t)i, 1));
    }
    CHECK(counters_are(&f, cnt + 64u * N, 1, (const uint32_t[]){0}));
    CHECK_EQ(rd(f.dev, GC_REG_COMPUTE_DEV_LAUNCHES), N - 1);
    CHECK_EQ(rd(f.dev, GC_REG_COMPUTE_LAUNCH_FAILS), 1);
    uint32_t lf = rd(f.dev, GC_REG_COMPUTE_LAUNCH_FAIL);
    CHECK_EQ(GC_COMPUTE_LAUNCH_FAIL_STATUS_GET(lf), GC_LAUNCH_STATUS_DEPTH);
    CHECK_EQ(GC_COMPUTE_LAUNCH_FAIL_DEPTH_GET(lf), N);
    CHECK_EQ(GC_COMPUTE_LAUNCH_FAIL_LEVEL_GET(lf), 4 + N - 1);
    CHECK_EQ(rd(f.dev, GC_REG_COMPUTE_LAUNCH_FAIL_TASK), (uint32_t)(t[N - 1] >> 8));
    CHECK_EQ(GC_GLOBAL_INTR_STATUS_LAUNCH_FAIL_GET(rd(f.dev, GC_REG_GLOBAL_INTR_STATUS)), 1);
    CHECK_EQ(GC_GLOBAL_INTR_STATUS_TASK_FAULT_GET(rd(f.dev, GC_REG_GLOBAL_INTR_STATUS)), 0);
    logrec_t l[LOG_MAX];
    uint32_t n = log_read(&f, l);
    for (int i = 0; i < N; i++) {
        int q = find(l, n, t[i], GC_TMU_EVENT_QUEUED, 0);
        REQUIRE(q >= 0);
        CHECK_EQ(GC_TMU_LOG_EVENT_LEVEL_GET(l[q].ev), 4u + (uint32_t)i);
        CHECK_EQ(GC_TMU_LOG_EVENT_DEPTH_GET(l[q].ev), 1u + (uint32_t)i);
        CHECK_EQ(GC_TMU_LOG_EVENT_CHANNEL_GET(l[q].ev), id);
    }
    for (uint32_t i = 0; i < n; i++) CHECK(GC_TMU_LOG_EVENT_LEVEL_GET(l[i].ev) < 4 + N);
    int lfr = find(l, n, t[N - 1], GC_TMU_EVENT_LAUNCH_FAIL, 0);
    CHECK(lfr >= 0);
    /* completion order: deepest first; the parents waited in CHILDREN */
    for (int i = 0; i < N - 1; i++) {
        CHECK(find(l, n, t[i], GC_TMU_EVENT_CTAS_DONE, 0) >= 0);
        CHECK(find(l, n, t[i], GC_TMU_EVENT_COMPLETE, 0) > find(l, n, t[i + 1], GC_TMU_EVENT_COMPLETE, 0));
        uint32_t pa = 0, pb = 0;
        uint64_t sa = sem_stamp(&f, sems + 16u * (uint32_t)i, &pa), sb = sem_stamp(&f, sems + 16u * (uint32_t)(i + 1), &pb);
        CHECK_EQ(pa, 10u + (uint32_t)i);
        CHECK(sa > sb);
    }
    uint64_t next = sem_stamp(&f, sems + 128, NULL), root = sem_stamp(&f, sems, NULL);
    CHECK(next > root); /* the channel's next method after the root's release */

    /* PRIORITY at level 63: a host task at 62 launches a child (63), whose launch fails */
    REQUIRE_OK(f.dev, gc_mmio_write(f.dev, GC_REG_GLOBAL_INTR_STATUS, GC_GLOBAL_INTR_STATUS_LAUNCH_FAIL(1)));
    uint64_t g = mk_tmd(&f, &(kdesc_t){.grid = 1, .threads = 1, .counters = cnt + 512});
    uint64_t c = mk_tmd(&f, &(kdesc_t){.grid = 1, .threads = 1, .child = g, .nlaunch = 1, .status = st + 512,
                                       .counters = cnt + 576});
    uint64_t p = mk_tmd(&f, &(kdesc_t){.grid = 1, .threads = 1, .level = GC_TMU_PRIO_LEVELS - 2, .max_depth = 15,
                                       .child = c, .nlaunch = 1, .status = st + 576, .counters = cnt + 640});
    REQUIRE_OK(f.dev, launch(&f, 1, p, 0));
    REQUIRE_OK(f.dev, gc_channel_wait_idle(f.ch[1]));
    uint32_t s1 = 0xFF, s2 = 0xFF;
    gc_mem_read(f.dev, st + 576, &s1, 4);
    gc_mem_read(f.dev, st + 512, &s2, 4);
    CHECK_EQ(s1, GC_LAUNCH_STATUS_OK);
    CHECK_EQ(s2, GC_LAUNCH_STATUS_PRIORITY);
    lf = rd(f.dev, GC_REG_COMPUTE_LAUNCH_FAIL);
    CHECK_EQ(GC_COMPUTE_LAUNCH_FAIL_STATUS_GET(lf), GC_LAUNCH_STATUS_PRIORITY);
    CHECK_EQ(GC_COMPUTE_LAUNCH_FAIL_LEVEL_GET(lf), GC_TMU_PRIO_LEVELS - 1);
    CHECK_EQ(GC_COMPUTE_LAUNCH_FAIL_DEPTH_GET(lf), 2);
    CHECK_EQ(rd(f.dev, GC_REG_COMPUTE_LAUNCH_FAIL_TASK), (uint32_t)(c >> 8));
    CHECK_EQ(rd(f.dev, GC_REG_COMPUTE_LAUNCH_FAILS), 2);
    gc_device_close(f.dev);
}

/* BAD_ADDR (misaligned, outside the windows) and FULL; the first failure since the interrupt was
 * cleared stays recorded. */
static void t_tmu_launch_fails(void) {
    fx_t f;
    REQUIRE(fx_open(&f));
    uint64_t cnt = zalloc(&f, 1024), st = zalloc(&f, 1024);
    uint64_t kid = mk_tmd(&f, &(kdesc_t){.grid = 1, .threads = 1, .spin = 3000, .counters = cnt});
    uint64_t mis = mk_tmd(&f, &(kdesc_t){.grid = 1, .threads = 1, .max_depth = 2, .child = kid + 4, .nlaunch = 1,
                                         .status = st, .counters = cnt + 64});
    REQUIRE_OK(f.dev, launch(&f, 0, mis, 0));
    REQUIRE_OK(f.dev, gc_channel_wait_idle(f.ch[0]));
    uint32_t s = 0xFF;
    gc_mem_read(f.dev, st, &s, 4);
    CHECK_EQ(s, GC_LAUNCH_STATUS_BAD_ADDR);
    /* outside the windows: 0xC0000000 is past VIDMEM, below SHARED (also checked before DEPTH:
     * this task has max depth 1) */
    uint64_t out = mk_tmd(&f, &(kdesc_t){.grid = 1, .threads = 1, .nlaunch = 1, .status = st + 64, .counters = cnt + 128});
    uint32_t p_child = 0xC0000000u;
    REQUIRE_OK(f.dev, gc_mem_write(f.dev, out + 256 + 4 * P_CHILD, &p_child, 4));
    REQUIRE_OK(f.dev, launch(&f, 1, out, 0));
    REQUIRE_OK(f.dev, gc_channel_wait_idle(f.ch[1]));
    gc_mem_read(f.dev, st + 64, &s, 4);
    CHECK_EQ(s, GC_LAUNCH_STATUS_BAD_ADDR);
    CHECK_EQ(rd(f.dev, GC_REG_COMPUTE_LAUNCH_FAILS), 2);
    CHECK_EQ(rd(f.dev, GC_REG_COMPUTE_LAUNCH_FAIL_TASK), (uint32_t)(mis >> 8)); /* the first one */
    CHECK_EQ(GC_COMPUTE_LAUNCH_FAIL_STATUS_GET(rd(f.dev, GC_REG_COMPUTE_LAUNCH_FAIL)), GC_LAUNCH_STATUS_BAD_ADDR);
    CHECK_EQ(rd(f.dev, GC_REG_COMPUTE_DEV_LAUNCHES), 0);
    /* FULL: every thread of a CTA launches a long child; the root holds one entry */
    REQUIRE_OK(f.dev, gc_mmio_write(f.dev, GC_REG_GLOBAL_INTR_STATUS, GC_GLOBAL_INTR_STATUS_LAUNCH_FAIL(1)));
    enum { T = GC_SIMT_WARPS * GC_SIMT_LANES };
    uint64_t root = mk_tmd(&f, &(kdesc_t){.grid = 1, .threads = T, .max_depth = 2, .child = kid, .nlaunch = T,
                                          .status = st + 256, .counters = cnt + 192});
    REQUIRE_OK(f.dev, launch(&f, 2, root, 0));
    REQUIRE_OK(f.dev, gc_channel_wait_idle(f.ch[2]));
    int ok = 0;
    for (uint32_t i = 0; i < T; i++) {
        gc_mem_read(f.dev, st + 256 + 4 * i, &s, 4);
        uint32_t want = i < GC_TMU_ENTRIES - 1 ? GC_LAUNCH_STATUS_OK : GC_LAUNCH_STATUS_FULL;
        if (s != want) TCASE_FAIL_("thread %u: status %u, want %u", i, s, want);
        ok += s == GC_LAUNCH_STATUS_OK;
    }
    CHECK_EQ(ok, GC_TMU_ENTRIES - 1);
    CHECK(counters_are(&f, cnt, 1, (const uint32_t[]){GC_TMU_ENTRIES - 1}));
    CHECK_EQ(rd(f.dev, GC_REG_COMPUTE_DEV_LAUNCHES), GC_TMU_ENTRIES - 1);
    CHECK_EQ(rd(f.dev, GC_REG_COMPUTE_LAUNCH_FAILS), 2 + T - (GC_TMU_ENTRIES - 1));
    CHECK_EQ(GC_COMPUTE_LAUNCH_FAIL_STATUS_GET(rd(f.dev, GC_REG_COMPUTE_LAUNCH_FAIL)), GC_LAUNCH_STATUS_FULL);
    CHECK_EQ(rd(f.dev, GC_REG_COMPUTE_LAUNCH_FAIL_TASK), (uint32_t)(root >> 8));
    logrec_t l[LOG_MAX];
    uint32_t n = log_read(&f, l);
    CHECK_EQ(count(l, n, root, GC_TMU_EVENT_LAUNCH_FAIL), T - (GC_TMU_ENTRIES - 1));
    CHECK_EQ(count(l, n, kid, GC_TMU_EVENT_COMPLETE), GC_TMU_ENTRIES - 1);
    gc_device_close(f.dev);
}

/* A child's fault kills only the child (its CTAs not yet run never run), its sibling and parent
 * run to the end, the root's channel faults TASK_FAULT without the root's release; another
 * channel's task is not disturbed. */
static void t_tmu_child_fault(void) {
    fx_t f;
    REQUIRE(fx_open(&f));
    uint64_t cnt = zalloc(&f, 1024), st = zalloc(&f, 256), sems = zalloc(&f, 256), kids = zalloc(&f, 512);
    uint64_t bad = mk_tmd(&f, &(kdesc_t){.grid = 4, .threads = 8, .fault = true, .counters = cnt});
    uint64_t good = mk_tmd(&f, &(kdesc_t){.grid = 2, .threads = 8, .spin = 300, .counters = cnt + 64});
    uint32_t w[GC_TMD_WORDS];
    REQUIRE_OK(f.dev, gc_mem_read(f.dev, bad, w, sizeof w));
    REQUIRE_OK(f.dev, gc_mem_write(f.dev, kids, w, sizeof w));
    REQUIRE_OK(f.dev, gc_mem_read(f.dev, good, w, sizeof w));
    REQUIRE_OK(f.dev, gc_mem_write(f.dev, kids + 256, w, sizeof w));
    uint64_t root = mk_tmd(&f, &(kdesc_t){.grid = 3, .threads = 8, .spin = 200, .level = 2, .max_depth = 3,
                                          .child = kids, .stride = 256, .nlaunch = 2, .status = st,
                                          .counters = cnt + 128, .sem = sems, .payload = 7});
    /* three CTAs each launch both children: only CTA 0's launches should count; use one CTA */
    uint32_t one = 1;
    REQUIRE_OK(f.dev, gc_mem_write(f.dev, root + GC_TMD_GRID_X, &one, 4));
    uint64_t other = mk_tmd(&f, &(kdesc_t){.grid = 3, .threads = 8, .spin = 500, .level = 1, .counters = cnt + 192,
                                           .sem = sems + 16, .payload = 8});
    REQUIRE_OK(f.dev, launch(&f, 0, root, 0));
    REQUIRE_OK(f.dev, launch(&f, 1, other, 0));
    CHECK_EQ(gc_channel_wait_idle(f.ch[0]), GC_ERR_CHANNEL_FAULT);
    REQUIRE_OK(f.dev, gc_channel_wait_idle(f.ch[1]));
    gc_channel_error_t e;
    REQUIRE_OK(f.dev, gc_channel_error(f.ch[0], &e));
    CHECK_EQ(e.cause, GC_ERROR_CAUSE_TASK_FAULT);
    CHECK_EQ(e.method, GC_CHANNEL_ERROR_METHOD_SUBCHANNEL(GC_COMPUTE_SUBCH) |
                           GC_CHANNEL_ERROR_METHOD_ADDRESS(GC_COMPUTE_SEND_SIGNALING_PCAS_B / 4));
    CHECK_EQ(GC_COMPUTE_FAULT_CAUSE_CAUSE_GET(rd(f.dev, GC_REG_COMPUTE_FAULT_CAUSE)), GC_SIMT_FAULT_ILLEGAL_INSTRUCTION);
    CHECK_EQ(rd(f.dev, GC_REG_COMPUTE_FAULT_TASK), (uint32_t)(kids >> 8));
    CHECK_EQ(GC_COMPUTE_FAULT_CHANNEL_CHANNEL_GET(rd(f.dev, GC_REG_COMPUTE_FAULT_CHANNEL)), gc_channel_id(f.ch[0]));
    CHECK_EQ(GC_GLOBAL_INTR_STATUS_TASK_FAULT_GET(rd(f.dev, GC_REG_GLOBAL_INTR_STATUS)), 1);
    CHECK(counters_are(&f, cnt, 4, (const uint32_t[]){1, 0, 0, 0})); /* the faulting child stopped */
    CHECK(all_ones(&f, cnt + 64, 2));                                 /* its sibling ran */
    CHECK(all_ones(&f, cnt + 128, 1));                                /* the parent ran */
    CHECK(all_ones(&f, cnt + 192, 3));                                /* the other channel's task ran */
    uint32_t pay = 0;
    sem_stamp(&f, sems, &pay);
    CHECK_EQ(pay, 0); /* no release for the root of a faulted descendant */
    sem_stamp(&f, sems + 16, &pay);
    CHECK_EQ(pay, 8);
    CHECK_EQ(gc_channel_id(f.ch[1]) != gc_channel_id(f.ch[0]), 1);
    CHECK_EQ(rd(f.dev, GC_REG_GLOBAL_FAULT_CHANNELS), 1u << gc_channel_id(f.ch[0]));
    logrec_t l[LOG_MAX];
    uint32_t n = log_read(&f, l);
    int fl = find(l, n, kids, GC_TMU_EVENT_FAULT, 0), fc = find(l, n, kids, GC_TMU_EVENT_COMPLETE, 0);
    CHECK(fl >= 0 && fc > fl);
    CHECK_EQ(count(l, n, 0, GC_TMU_EVENT_FAULT), 1);
    CHECK(find(l, n, root, GC_TMU_EVENT_COMPLETE, 0) > fc);
    CHECK(find(l, n, root, GC_TMU_EVENT_COMPLETE, 0) > find(l, n, kids + 256, GC_TMU_EVENT_COMPLETE, 0));
    gc_device_close(f.dev);
}

/* Two channels' tasks run at once: both start before either completes. */
static void t_tmu_two_channels(void) {
    fx_t f;
    REQUIRE(fx_open(&f));
    uint64_t cnt = zalloc(&f, 256), sems = zalloc(&f, 64);
    uint64_t a = mk_tmd(&f, &(kdesc_t){.grid = 2, .threads = 8, .spin = 2000, .counters = cnt, .sem = sems, .payload = 1});
    uint64_t b = mk_tmd(&f, &(kdesc_t){.grid = 2, .threads = 8, .spin = 2000, .counters = cnt + 64, .sem = sems + 16,
                                       .payload = 2});
    uint64_t t0 = gc_device_cycles(f.dev);
    REQUIRE_OK(f.dev, launch(&f, 0, a, 0));
    REQUIRE_OK(f.dev, launch(&f, 1, b, 0));
    REQUIRE(wait_dbg(&f, dbg_slots, 2, 20000));
    REQUIRE_OK(f.dev, gc_channel_wait_idle(f.ch[0]));
    REQUIRE_OK(f.dev, gc_channel_wait_idle(f.ch[1]));
    logrec_t l[LOG_MAX];
    uint32_t n = log_read(&f, l);
    int ca = find(l, n, a, GC_TMU_EVENT_COMPLETE, 0), cb = find(l, n, b, GC_TMU_EVENT_COMPLETE, 0);
    int sa = find(l, n, a, GC_TMU_EVENT_START, 0), sb = find(l, n, b, GC_TMU_EVENT_START, 0);
    CHECK(sa >= 0 && sb >= 0 && ca >= 0 && cb >= 0);
    CHECK(sa < ca && sa < cb && sb < ca && sb < cb);
    CHECK(all_ones(&f, cnt, 2) && all_ones(&f, cnt + 64, 2));
    uint64_t ea = sem_stamp(&f, sems, NULL), eb = sem_stamp(&f, sems + 16, NULL);
    uint64_t end = ea > eb ? ea : eb;
    fprintf(stderr, "two 2-CTA tasks of ~18000 cycles per CTA: done after %llu cycles\n",
            (unsigned long long)(end - t0));
    CHECK(end - t0 < 30000u); /* one after the other: over 2 x 18000 */
    gc_device_close(f.dev);
}


/* An evicted task re-enters the pending list at the head of its level: it resumes before a task
 * of its level that was pending already. */
static void t_tmu_evicted_at_head(void) {
    fx_t f;
    REQUIRE(fx_open(&f));
    uint64_t cnt = zalloc(&f, 1024), t[GC_TMU_SLOTS + 2];
    for (int i = 0; i < (int)GC_TMU_SLOTS + 1; i++) { /* four fill the slots, the fifth waits */
        kdesc_t k = {.grid = 6, .threads = 8, .spin = 800, .level = 1, .counters = cnt + 64u * (uint32_t)i};
        REQUIRE((t[i] = mk_tmd(&f, &k)));
        REQUIRE_OK(f.dev, launch(&f, i, t[i], 0));
        if (i < (int)GC_TMU_SLOTS) REQUIRE(wait_dbg(&f, dbg_slots, (uint32_t)i + 1u, 20000));
        else REQUIRE(wait_dbg(&f, dbg_pending, 1, 20000));
    }
    kdesc_t h = {.grid = 1, .threads = 8, .spin = 10, .level = 5, .counters = cnt + 512};
    REQUIRE((t[GC_TMU_SLOTS + 1] = mk_tmd(&f, &h)));
    REQUIRE_OK(f.dev, launch(&f, GC_TMU_SLOTS + 1, t[GC_TMU_SLOTS + 1], 0));
    for (int i = 0; i < (int)GC_TMU_SLOTS + 2; i++) REQUIRE_OK(f.dev, gc_channel_wait_idle(f.ch[i]));
    logrec_t l[LOG_MAX];
    uint32_t n = log_read(&f, l);
    uint64_t victim = t[GC_TMU_SLOTS - 1], waiting = t[GC_TMU_SLOTS];
    int ev = find(l, n, victim, GC_TMU_EVENT_EVICT, 0), rs = find(l, n, victim, GC_TMU_EVENT_RESUME, 0);
    int ws = find(l, n, waiting, GC_TMU_EVENT_START, 0), wq = find(l, n, waiting, GC_TMU_EVENT_QUEUED, 0);
    CHECK(ev >= 0 && rs > ev && ws > rs && wq < ev);
    CHECK_EQ(count(l, n, 0, GC_TMU_EVENT_EVICT), 1);
    for (int i = 0; i <= (int)GC_TMU_SLOTS; i++) CHECK(all_ones(&f, cnt + 64u * (uint32_t)i, 6));
    gc_device_close(f.dev);
}

/* A host TMD with PRIORITY.LEVEL >= TMU_PRIO_LEVELS is BAD_TMD (FAULT_ADDR 0x20): it faults and
 * completes without running, never queued; the channel faults TASK_FAULT. */
static void t_tmu_bad_level(void) {
    fx_t f;
    REQUIRE(fx_open(&f));
    uint64_t cnt = zalloc(&f, 256), sems = zalloc(&f, 64);
    uint64_t t = mk_tmd(&f, &(kdesc_t){.grid = 1, .threads = 8, .level = GC_TMU_PRIO_LEVELS, .counters = cnt,
                                       .sem = sems, .payload = 5});
    REQUIRE_OK(f.dev, launch(&f, 0, t, 0));
    CHECK_EQ(gc_channel_wait_idle(f.ch[0]), GC_ERR_CHANNEL_FAULT);
    gc_channel_error_t e;
    REQUIRE_OK(f.dev, gc_channel_error(f.ch[0], &e));
    CHECK_EQ(e.cause, GC_ERROR_CAUSE_TASK_FAULT);
    CHECK_EQ(GC_COMPUTE_FAULT_CAUSE_CAUSE_GET(rd(f.dev, GC_REG_COMPUTE_FAULT_CAUSE)), GC_SIMT_FAULT_BAD_TMD);
    CHECK_EQ(rd(f.dev, GC_REG_COMPUTE_FAULT_ADDR), GC_TMD_PRIORITY);
    CHECK_EQ(rd(f.dev, GC_REG_COMPUTE_FAULT_TASK), (uint32_t)(t >> 8));
    CHECK(counters_are(&f, cnt, 1, (const uint32_t[]){0}));
    uint32_t pay = 1;
    sem_stamp(&f, sems, &pay);
    CHECK_EQ(pay, 0);
    CHECK_EQ(rd(f.dev, GC_REG_COMPUTE_TASKS), 1);
    logrec_t l[LOG_MAX];
    uint32_t n = log_read(&f, l);
    REQUIRE_EQ(n, 2);
    CHECK_EQ(kind(&l[0]), GC_TMU_EVENT_FAULT);
    CHECK_EQ(kind(&l[1]), GC_TMU_EVENT_COMPLETE);
    CHECK_EQ(GC_TMU_LOG_EVENT_SLOT_GET(l[1].ev), 15);
    /* the other channels go on */
    uint64_t ok = mk_tmd(&f, &(kdesc_t){.grid = 2, .threads = 8, .level = 3, .counters = cnt + 64});
    REQUIRE_OK(f.dev, launch(&f, 1, ok, 0));
    REQUIRE_OK(f.dev, gc_channel_wait_idle(f.ch[1]));
    CHECK(all_ones(&f, cnt + 64, 2));
    gc_device_close(f.dev);
}

/* A device launch takes the TMD as the thread left it at the LAUNCH: the thread's later store to
 * the TMD (its status, written over GRID_X) is not seen. */
static void t_tmu_tmd_at_launch(void) {
    fx_t f;
    REQUIRE(fx_open(&f));
    uint64_t cnt = zalloc(&f, 256);
    uint64_t kid = mk_tmd(&f, &(kdesc_t){.grid = 3, .threads = 8, .counters = cnt});
    uint64_t p = mk_tmd(&f, &(kdesc_t){.grid = 1, .threads = 8, .max_depth = 2, .child = kid, .nlaunch = 1,
                                       .status = kid + GC_TMD_GRID_X, .counters = cnt + 64});
    REQUIRE_OK(f.dev, launch(&f, 0, p, 0));
    REQUIRE_OK(f.dev, gc_channel_wait_idle(f.ch[0]));
    uint32_t gx = 0xFF;
    gc_mem_read(f.dev, kid + GC_TMD_GRID_X, &gx, 4);
    CHECK_EQ(gx, GC_LAUNCH_STATUS_OK); /* the status landed over GRID_X ... */
    CHECK(all_ones(&f, cnt, 3));        /* ... after the child's TMD was taken */
    gc_device_close(f.dev);
}

/* A host launch waits for a free task table entry (back-pressure), while another channel's host
 * methods go on. */
static void t_tmu_host_backpressure(void) {
    fx_t f;
    REQUIRE(fx_open(&f));
    enum { T = GC_SIMT_WARPS * GC_SIMT_LANES };
    uint64_t cnt = zalloc(&f, 1024), st = zalloc(&f, 1024), sems = zalloc(&f, 256);
    uint64_t kid = mk_tmd(&f, &(kdesc_t){.grid = 1, .threads = 1, .spin = 2000, .counters = cnt});
    uint64_t root = mk_tmd(&f, &(kdesc_t){.grid = 1, .threads = T, .max_depth = 2, .child = kid, .nlaunch = T,
                                          .status = st, .counters = cnt + 64});
    REQUIRE_OK(f.dev, launch(&f, 0, root, 0));
    uint64_t x = mk_tmd(&f, &(kdesc_t){.grid = 2, .threads = 8, .level = 9, .counters = cnt + 128});
    for (uint64_t t = 0; t < 20000 && GC_COMPUTE_DBG_ENTRIES_GET(rd(f.dev, GC_REG_COMPUTE_DBG)) < GC_TMU_ENTRIES; t += 50)
        gc_device_run(f.dev, 50);
    REQUIRE_EQ(GC_COMPUTE_DBG_ENTRIES_GET(rd(f.dev, GC_REG_COMPUTE_DBG)), GC_TMU_ENTRIES);
    REQUIRE_OK(f.dev, launch(&f, 1, x, sems));
    uint32_t w[16];
    gc_pushbuf_t pb;
    gc_pb_init(&pb, w, 16);
    gc_pb_sem_release_ts(&pb, sems + 16, 2, false, false);
    REQUIRE_OK(f.dev, gc_channel_submit(f.ch[2], &pb));
    REQUIRE_OK(f.dev, gc_channel_wait_idle(f.ch[2]));
    REQUIRE_OK(f.dev, gc_channel_wait_idle(f.ch[1]));
    REQUIRE_OK(f.dev, gc_channel_wait_idle(f.ch[0]));
    logrec_t l[LOG_MAX];
    uint32_t n = log_read(&f, l);
    int xq = find(l, n, x, GC_TMU_EVENT_QUEUED, 0), kc = find(l, n, kid, GC_TMU_EVENT_COMPLETE, 0);
    REQUIRE(xq >= 0 && kc >= 0);
    uint64_t other = sem_stamp(&f, sems + 16, NULL);
    CHECK(other < l[kc].stamp); /* the other channel's release while the table was full */
    CHECK(xq > kc);             /* the launch waited for an entry */
    CHECK(all_ones(&f, cnt + 128, 2));
    CHECK(counters_are(&f, cnt, 1, (const uint32_t[]){GC_TMU_ENTRIES - 1}));
    gc_device_close(f.dev);
}

/* Dispatch is strictly by priority: a later, more urgent running task takes every warp slot that
 * frees until its CTAs are all out, so it completes first although it started second; among
 * equals, the task that took its slot first goes first. */
static void t_tmu_strict_dispatch(void) {
    for (int equal = 0; equal <= 1; equal++) {
        fx_t f;
        REQUIRE(fx_open(&f));
        uint64_t cnt = zalloc(&f, 256);
        uint64_t a = mk_tmd(&f, &(kdesc_t){.grid = 8, .threads = 8, .spin = 500, .level = 1, .counters = cnt});
        uint64_t b = mk_tmd(&f, &(kdesc_t){.grid = 8, .threads = 8, .spin = 500, .level = equal ? 1 : 2,
                                           .counters = cnt + 64});
        REQUIRE_OK(f.dev, launch(&f, 0, a, 0));
        REQUIRE(wait_dbg(&f, dbg_slots, 1, 20000));
        REQUIRE_OK(f.dev, launch(&f, 1, b, 0));
        REQUIRE_OK(f.dev, gc_channel_wait_idle(f.ch[0]));
        REQUIRE_OK(f.dev, gc_channel_wait_idle(f.ch[1]));
        logrec_t l[LOG_MAX];
        uint32_t n = log_read(&f, l);
        int ca = find(l, n, a, GC_TMU_EVENT_COMPLETE, 0), cb = find(l, n, b, GC_TMU_EVENT_COMPLETE, 0);
        int sb = find(l, n, b, GC_TMU_EVENT_START, 0);
        REQUIRE(ca >= 0 && cb >= 0 && sb >= 0);
        CHECK(sb < ca); /* both held slots at once */
        if (equal) CHECK(ca < cb);
        else CHECK(cb < ca);
        CHECK(all_ones(&f, cnt, 8) && all_ones(&f, cnt + 64, 8));
        CHECK_EQ(count(l, n, 0, GC_TMU_EVENT_EVICT), 0);
        gc_device_close(f.dev);
    }
}

static const tcase_t cases[] = {
    {"ref_tmu_registers", t_tmu_registers},
    {"ref_tmu_pending_order", t_tmu_pending_order},
    {"ref_tmu_eviction", t_tmu_eviction},
    {"ref_tmu_eviction_drain", t_tmu_eviction_drain},
    {"ref_tmu_no_evict", t_tmu_no_evict},
    {"ref_tmu_evicted_at_head", t_tmu_evicted_at_head},
    {"ref_tmu_bad_level", t_tmu_bad_level},
    {"ref_tmu_tmd_at_launch", t_tmu_tmd_at_launch},
    {"ref_tmu_host_backpressure", t_tmu_host_backpressure},
    {"ref_tmu_strict_dispatch", t_tmu_strict_dispatch},
    {"ref_tmu_nested_depth", t_tmu_nested_depth},
    {"ref_tmu_launch_fails", t_tmu_launch_fails},
    {"ref_tmu_child_fault", t_tmu_child_fault},
    {"ref_tmu_two_channels", t_tmu_two_channels},
};
TCASE_MAIN(cases)
