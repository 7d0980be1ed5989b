/* Differential test: random stream programs (copies, memsets, events, priorities, many channels)
 * run on the rtl backend and on another backend ($GPUCOSIM_DIFF_BACKEND, default "ref"); the final
 * memory of both must equal a host model of the program, and each stream's copies must complete
 * in issue order on both.
 *
 * Programs are race free by construction, so the host model is exact: every buffer is either
 * read-only, or owned by one stream, which alone may write it; ownership moves from stream A to
 * stream B only through an event recorded on A and waited for by B (gcrt_stream_wait_event).
 */
#include "cosim_util.h"
#include "gpucosim/runtime.h"
#include "tcase.h"

enum { NBUF = 8, BUFSZ = 32768, MAXS = 5, MAXOPS = 48 };

typedef enum { P_COPY, P_MEMSET, P_HANDOFF } pkind_t;

typedef struct pop {
    pkind_t kind;
    int s, t;           /* stream (handoff: from s to t) */
    int dbuf, sbuf;     /* buffers */
    uint32_t doff, soff, len;
    int value;
} pop_t;

typedef struct prog {
    int nstreams, prio[MAXS];
    bool host[NBUF];    /* buffer in pinned host memory (else device) */
    int nops;
    pop_t ops[MAXOPS];
    uint8_t init[NBUF][BUFSZ];
} prog_t;

static uint64_t rng_next(uint64_t *x) {
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}
static uint32_t rnd(uint64_t *x, uint32_t n) { return (uint32_t)(rng_next(x) % n); }

static void gen(prog_t *p, uint64_t seed) {
    uint64_t x = seed * 0x9E3779B97F4A7C15ull + 7;
    memset(p, 0, sizeof *p);
    p->nstreams = 2 + (int)rnd(&x, MAXS - 1);
    for (int s = 0; s < p->nstreams; s++) p->prio[s] = -(int)rnd(&x, 6);
    int owner[NBUF];
    for (int b = 0; b < NBUF; b++) {
        p->host[b] = rnd(&x, 3) == 0;
        owner[b] = b < 2 ? -1 : (int)rnd(&x, (uint32_t)p->nstreams); /* buffers 0, 1 read-only */
        util_fill(p->init[b], BUFSZ, seed * 31 + (uint64_t)b);
    }
    p->nops = 24 + (int)rnd(&x, MAXOPS - 24);
    for (int i = 0; i < p->nops; i++) {
        pop_t *o = &p->ops[i];
        o->s = (int)rnd(&x, (uint32_t)p->nstreams);
        int mine[NBUF], nm = 0, readable[NBUF], nr = 0;
        for (int b = 0; b < NBUF; b++) {
            if (owner[b] == o->s) mine[nm++] = b;
            if (owner[b] == o->s || owner[b] == -1) readable[nr++] = b;
        }
        uint32_t r = rnd(&x, 10);
        if (nm == 0 || r < 2) { /* hand a buffer of another stream over to this one */
            int cands[NBUF], nc = 0;
            for (int b = 2; b < NBUF; b++)
                if (owner[b] >= 0 && owner[b] != o->s) cands[nc++] = b;
            if (nc == 0) {
                i--;
                continue;
            }
            o->kind = P_HANDOFF;
            o->dbuf = cands[rnd(&x, (uint32_t)nc)];
            o->t = o->s;
            o->s = owner[o->dbuf];
            owner[o->dbuf] = o->t;
            continue;
        }
        o->dbuf = mine[rnd(&x, (uint32_t)nm)];
        o->len = 1 + rnd(&x, 6000);
        o->doff = rnd(&x, BUFSZ - o->len + 1);
        if (r < 4) {
            o->kind = P_MEMSET;
            o->value = (int)rnd(&x, 256);
        } else {
            o->kind = P_COPY;
            o->sbuf = readable[rnd(&x, (uint32_t)nr)];
            o->soff = rnd(&x, BUFSZ - o->len + 1);
            if (o->sbuf == o->dbuf) o->soff = o->doff; /* no overlapping copies within a buffer */
        }
    }
}

/* Host model: ops of one stream run in order, and the ownership rule makes every other order
 * give the same result, so program order is a valid execution. */
static void model(const prog_t *p, uint8_t mem[NBUF][BUFSZ]) {
    memcpy(mem, p->init, sizeof p->init);
    for (int i = 0; i < p->nops; i++) {
        const pop_t *o = &p->ops[i];
        if (o->kind == P_MEMSET) memset(mem[o->dbuf] + o->doff, o->value, o->len);
        else if (o->kind == P_COPY) memmove(mem[o->dbuf] + o->doff, mem[o->sbuf] + o->soff, o->len);
    }
}

typedef struct outcome {
    uint8_t mem[NBUF][BUFSZ];
    int nops;
    uint32_t stream_of[MAXOPS];
    uint64_t end[MAXOPS];
    int ok;
} outcome_t;

static int run(const prog_t *p, const char *backend, outcome_t *out) {
    memset(out, 0, sizeof *out);
    gcrt_config_t c;
    gcrt_config_init(&c);
    c.device.backend = backend;
    c.device.quiet = true;
    c.sync_cycles = 20000000;
    gcrt_t *rt = NULL;
    if (gcrt_open(&c, &rt)) {
        fprintf(stderr, "%s: gcrt_open failed\n", backend);
        return 0;
    }
    gcrt_stream_t *st[MAXS];
    uint64_t addr[NBUF];
    gcrt_event_t *ev[MAXOPS];
    int nev = 0;
    gcrt_error_t e = GCRT_SUCCESS;
    for (int s = 0; s < p->nstreams && !e; s++) e = gcrt_stream_create_with_priority(rt, &st[s], p->prio[s]);
    for (int b = 0; b < NBUF && !e; b++) {
        e = p->host[b] ? gcrt_malloc_host(rt, &addr[b], BUFSZ) : gcrt_malloc(rt, &addr[b], BUFSZ);
        if (!e) e = gcrt_write(rt, addr[b], p->init[b], BUFSZ);
    }
    for (int i = 0; i < p->nops && !e; i++) {
        const pop_t *o = &p->ops[i];
        if (o->kind == P_HANDOFF) {
            e = gcrt_event_create(rt, &ev[nev]);
            if (!e) e = gcrt_event_record(rt, ev[nev], st[o->s]);
            if (!e) e = gcrt_stream_wait_event(rt, st[o->t], ev[nev]);
            nev++;
        } else if (o->kind == P_MEMSET) {
            e = gcrt_memset_async(rt, addr[o->dbuf] + o->doff, o->value, o->len, st[o->s], NULL);
        } else {
            gcrt_memcpy_kind_t k = p->host[o->sbuf] ? (p->host[o->dbuf] ? GCRT_MEMCPY_HOST_TO_HOST : GCRT_MEMCPY_HOST_TO_DEVICE)
                                                    : (p->host[o->dbuf] ? GCRT_MEMCPY_DEVICE_TO_HOST
                                                                        : GCRT_MEMCPY_DEVICE_TO_DEVICE);
            e = gcrt_memcpy_async(rt, addr[o->dbuf] + o->doff, addr[o->sbuf] + o->soff, o->len, k, st[o->s], NULL);
        }
    }
    if (!e) e = gcrt_device_synchronize(rt);
    for (int b = 0; b < NBUF && !e; b++) e = gcrt_read(rt, addr[b], out->mem[b], BUFSZ);
    const gcrt_op_t *ops;
    size_t n = 0;
    if (!e) e = gcrt_ops(rt, &ops, &n);
    if (e) {
        fprintf(stderr, "%s: %s: %s\n", backend, gcrt_error_name(e), gcrt_last_message(rt));
    } else {
        out->nops = (int)n;
        for (size_t i = 0; i < n && i < MAXOPS; i++) {
            out->stream_of[i] = ops[i].stream_id;
            out->end[i] = ops[i].end_cycle;
        }
        out->ok = 1;
    }
    gcrt_close(rt);
    return out->ok;
}

/* Each stream's ops complete in issue order. */
static int stream_order_ok(const outcome_t *o, const char *backend) {
    for (int i = 0; i < o->nops; i++)
        for (int j = i + 1; j < o->nops; j++)
            if (o->stream_of[i] == o->stream_of[j] && o->end[j] <= o->end[i]) {
                fprintf(stderr, "%s: stream %u: op %d completed at %llu, before op %d (issued earlier) at %llu\n",
                        backend, o->stream_of[i], j, (unsigned long long)o->end[j], i, (unsigned long long)o->end[i]);
                return 0;
            }
    return 1;
}

static void diff_seeds(uint64_t first, int count) {
    const char *other = getenv("GPUCOSIM_DIFF_BACKEND");
    if (!other || !*other) other = "ref";
    static prog_t p;
    static outcome_t a, b;
    static uint8_t want[NBUF][BUFSZ];
    for (uint64_t seed = first; seed < first + (uint64_t)count; seed++) {
        gen(&p, seed);
        model(&p, want);
        fprintf(stderr, "program %llu: %d streams, %d ops\n", (unsigned long long)seed, p.nstreams, p.nops);
        REQUIRE(run(&p, "rtl", &a));
        REQUIRE(run(&p, other, &b));
        size_t bad_a = 0, bad_b = 0, bad_ab = 0;
        for (int k = 0; k < NBUF; k++) {
            bad_a += util_diff("rtl vs model", want[k], a.mem[k], BUFSZ);
            bad_b += util_diff(other, want[k], b.mem[k], BUFSZ);
            bad_ab += util_diff("rtl vs other", a.mem[k], b.mem[k], BUFSZ);
        }
        CHECK_EQ(bad_a, 0);
        CHECK_EQ(bad_b, 0);
        CHECK_EQ(bad_ab, 0);
        CHECK_EQ(a.nops, b.nops);
        for (int i = 0; i < a.nops && i < b.nops; i++) CHECK_EQ(a.stream_of[i], b.stream_of[i]);
        CHECK(stream_order_ok(&a, "rtl"));
        CHECK(stream_order_ok(&b, other));
        if (tcase_failed) {
            fprintf(stderr, "program seed %llu differs\n", (unsigned long long)seed);
            return;
        }
    }
}

static void t_diff_a(void) { diff_seeds(1, 6); }
static void t_diff_b(void) { diff_seeds(101, 6); }

static const tcase_t cases[] = {
    {"diff_programs_1_6", t_diff_a},
    {"diff_programs_101_106", t_diff_b},
};
TCASE_MAIN(cases)
