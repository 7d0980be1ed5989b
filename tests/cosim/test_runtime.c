/* The runtime (gpucosim/runtime.h) end to end, on whatever backend GPUCOSIM_BACKEND names: async
 * copies and memsets, streams, events, synchronize, priority mapping and aliasing, copy priorities
 * (the copy-priority walk-through through the runtime and the CLI's scenario code), malformed requests. */
#include <unistd.h>

#include "cosim_util.h"
#include "scenarios.h"
#include "tcase.h"

static gcrt_t *rt_open(bool copy_prio) {
    gcrt_config_t c;
    gcrt_config_init(&c);
    c.device.quiet = true;
    c.copy_priorities_enabled = copy_prio;
    c.sync_cycles = 5000000;
    gcrt_t *rt = NULL;
    gcrt_error_t e = gcrt_open(&c, &rt);
    if (e) fprintf(stderr, "gcrt_open: %s\n", gcrt_error_name(e));
    else fprintf(stderr, "backend %s\n", c.device.backend);
    return rt;
}

#define RT_OK(rt, expr)                                                                                 \
    do {                                                                                                \
        gcrt_error_t e_ = (expr);                                                                       \
        if (e_ != GCRT_SUCCESS) {                                                                       \
            TCASE_FAIL_("%s: %s (%s)", #expr, gcrt_error_name(e_), gcrt_last_message(rt));              \
            gcrt_close(rt);                                                                             \
            return;                                                                                     \
        }                                                                                               \
    } while (0)

/* H2D, D2D, D2H and memsets over three streams; every byte checked. */
static void t_memcpy_memset(void) {
    gcrt_t *rt = rt_open(true);
    REQUIRE(rt);
    enum { N = 20000 };
    static uint8_t in[N], got[N], want[N];
    gcsc_fill(in, N, 5);
    uint64_t h_in, h_out, d_a, d_b;
    RT_OK(rt, gcrt_malloc_host(rt, &h_in, N));
    RT_OK(rt, gcrt_malloc_host(rt, &h_out, N));
    RT_OK(rt, gcrt_malloc(rt, &d_a, N));
    RT_OK(rt, gcrt_malloc(rt, &d_b, N));
    RT_OK(rt, gcrt_write(rt, h_in, in, N));
    gcrt_stream_t *s;
    RT_OK(rt, gcrt_stream_create_with_priority(rt, &s, -2));
    RT_OK(rt, gcrt_memcpy_async(rt, d_a, h_in, N, GCRT_MEMCPY_HOST_TO_DEVICE, s, "h2d"));
    RT_OK(rt, gcrt_memset_async(rt, d_a + 1001, 0xA5, 777, s, "memset"));
    RT_OK(rt, gcrt_memcpy_async(rt, d_b + 3, d_a, N - 3, GCRT_MEMCPY_DEVICE_TO_DEVICE, s, "d2d"));
    RT_OK(rt, gcrt_memset_async(rt, d_b, 0x11, 3, s, NULL));
    RT_OK(rt, gcrt_memcpy_async(rt, h_out, d_b, N, GCRT_MEMCPY_DEVICE_TO_HOST, s, "d2h"));
    RT_OK(rt, gcrt_stream_synchronize(rt, s));
    memcpy(want + 3, in, N - 3);
    memset(want + 3 + 1001, 0xA5, 777);
    memset(want, 0x11, 3);
    RT_OK(rt, gcrt_read(rt, h_out, got, N));
    CHECK_EQ(util_diff("h2d/memset/d2d/d2h", want, got, N), 0);
    const gcrt_op_t *ops;
    size_t n;
    RT_OK(rt, gcrt_ops(rt, &ops, &n));
    CHECK_EQ(n, 5);
    for (size_t i = 0; i < n; i++) {
        CHECK(ops[i].done);
        CHECK(ops[i].submit_cycle <= ops[i].launch_cycle && ops[i].launch_cycle <= ops[i].start_cycle &&
              ops[i].start_cycle < ops[i].end_cycle);
        if (i) CHECK(ops[i].start_cycle >= ops[i - 1].end_cycle); /* one stream: in order */
    }
    CHECK_EQ(ops[1].kind, GCRT_OP_MEMSET);
    CHECK(!strcmp(ops[3].tag, "memset"));
    RT_OK(rt, gcrt_device_synchronize(rt));
    gcrt_close(rt);
}

/* Events: query before and after, elapsed cycles, and a cross-stream dependency through
 * gcrt_stream_wait_event that only holds if the device waits. */
static void t_events(void) {
    gcrt_t *rt = rt_open(true);
    REQUIRE(rt);
    enum { BIG = 65536 };
    static uint8_t data[BIG], got[BIG];
    gcsc_fill(data, BIG, 8);
    uint64_t src, mid, dst;
    RT_OK(rt, gcrt_malloc_host(rt, &src, BIG));
    RT_OK(rt, gcrt_malloc(rt, &mid, BIG));
    RT_OK(rt, gcrt_malloc(rt, &dst, BIG));
    RT_OK(rt, gcrt_write(rt, src, data, BIG));
    gcrt_stream_t *a, *b;
    gcrt_event_t *e0, *e1, *never;
    RT_OK(rt, gcrt_stream_create_with_priority(rt, &a, 0));
    RT_OK(rt, gcrt_stream_create_with_priority(rt, &b, -5)); /* another HW channel */
    RT_OK(rt, gcrt_event_create(rt, &e0));
    RT_OK(rt, gcrt_event_create(rt, &e1));
    RT_OK(rt, gcrt_event_create(rt, &never));
    CHECK_EQ(gcrt_event_query(rt, never), GCRT_SUCCESS); /* never recorded: complete, as in CUDA */
    RT_OK(rt, gcrt_event_record(rt, e0, a));
    RT_OK(rt, gcrt_memcpy_async(rt, mid, src, BIG, GCRT_MEMCPY_HOST_TO_DEVICE, a, "slow h2d"));
    RT_OK(rt, gcrt_event_record(rt, e1, a));
    CHECK_EQ(gcrt_event_query(rt, e1), GCRT_ERROR_NOT_READY);
    CHECK_EQ(gcrt_stream_query(rt, a), GCRT_ERROR_NOT_READY);
    RT_OK(rt, gcrt_stream_wait_event(rt, b, e1));
    RT_OK(rt, gcrt_memcpy_async(rt, dst, mid, BIG, GCRT_MEMCPY_DEVICE_TO_DEVICE, b, "dependent d2d"));
    RT_OK(rt, gcrt_stream_synchronize(rt, b));
    CHECK_EQ(gcrt_event_query(rt, e1), GCRT_SUCCESS);
    RT_OK(rt, gcrt_read(rt, dst, got, BIG));
    CHECK_EQ(util_diff("copy after the event", data, got, BIG), 0);
    uint64_t el = 0;
    RT_OK(rt, gcrt_event_elapsed_cycles(rt, e0, e1, &el));
    CHECK(el >= BIG / 4); /* 64 KiB from sysmem at 4 bytes per cycle */
    const gcrt_op_t *ops;
    size_t n;
    RT_OK(rt, gcrt_ops(rt, &ops, &n));
    REQUIRE(n == 2);
    CHECK(ops[1].start_cycle >= ops[0].end_cycle);
    CHECK(ops[1].hw_channel != ops[0].hw_channel);
    /* re-record and synchronize */
    RT_OK(rt, gcrt_event_record(rt, e1, b));
    RT_OK(rt, gcrt_event_synchronize(rt, e1));
    CHECK_EQ(gcrt_stream_query(rt, a), GCRT_SUCCESS);
    RT_OK(rt, gcrt_event_destroy(rt, e0));
    CHECK_EQ(gcrt_event_query(rt, e0), GCRT_ERROR_INVALID_HANDLE);
    gcrt_close(rt);
}

/* Priority range, nested-priority device priorities through gcrt_set_limit, aliasing onto copy channels. */
static void t_priorities(void) {
    gcrt_t *rt = rt_open(true);
    REQUIRE(rt);
    int least = 1, greatest = 1;
    RT_OK(rt, gcrt_stream_priority_range(rt, &least, &greatest));
    CHECK_EQ(least, 0);
    CHECK_EQ(greatest, -5);
    RT_OK(rt, gcrt_set_limit(rt, GCRT_LIMIT_MAX_NESTING_DEPTH, 4));
    uint64_t depth = 0;
    RT_OK(rt, gcrt_get_limit(rt, GCRT_LIMIT_MAX_NESTING_DEPTH, &depth));
    CHECK_EQ(depth, 4);
    gcrt_stream_t *s[6];
    uint32_t cp[6], hw[6], dp[6];
    for (int p = 0; p >= -5; p--) {
        RT_OK(rt, gcrt_stream_create_with_priority(rt, &s[-p], p));
        RT_OK(rt, gcrt_stream_get_device_priority(rt, s[-p], &dp[-p]));
        RT_OK(rt, gcrt_stream_get_copy_channel(rt, s[-p], &cp[-p], &hw[-p]));
        int back = 1;
        RT_OK(rt, gcrt_stream_get_priority(rt, s[-p], &back));
        CHECK_EQ(back, p);
    }
    /* 64 device priorities, N = 4: 16 levels 0, 4, 8, ...; 6 stream priorities use 0..20 */
    for (int l = 0; l < 6; l++) CHECK_EQ(dp[l], 4u * (uint32_t)l);
    CHECK_EQ(cp[0], 0);
    CHECK_EQ(cp[5], 2);
    for (int l = 1; l < 6; l++) CHECK(cp[l] >= cp[l - 1]);
    CHECK(hw[0] != hw[5]);
    uint32_t dflt = 9;
    RT_OK(rt, gcrt_stream_get_device_priority(rt, NULL, &dflt)); /* the default stream: lowest */
    CHECK_EQ(dflt, 0);
    /* the depth is fixed once streams exist */
    CHECK_EQ(gcrt_set_limit(rt, GCRT_LIMIT_MAX_NESTING_DEPTH, 2), GCRT_ERROR_NOT_PERMITTED);
    CHECK(strstr(gcrt_last_message(rt), "before creating streams") != NULL);
    CHECK_EQ(gcrt_get_last_error(rt), GCRT_ERROR_NOT_PERMITTED);
    CHECK_EQ(gcrt_get_last_error(rt), GCRT_SUCCESS); /* get resets */
    gcrt_close(rt);
    /* a depth larger than the device priorities is refused */
    rt = rt_open(true);
    REQUIRE(rt);
    CHECK_EQ(gcrt_set_limit(rt, GCRT_LIMIT_MAX_NESTING_DEPTH, 65), GCRT_ERROR_INVALID_VALUE);
    CHECK_EQ(gcrt_set_limit(rt, GCRT_LIMIT_MAX_NESTING_DEPTH, 0), GCRT_ERROR_INVALID_VALUE);
    gcrt_close(rt);
}

/* Malformed requests get a clear error and leave the other streams' work intact. */
static void t_bad_requests(void) {
    gcrt_t *rt = rt_open(true);
    REQUIRE(rt);
    enum { N = 32768 };
    static uint8_t data[N], got[N];
    gcsc_fill(data, N, 11);
    uint64_t h, d, d2;
    RT_OK(rt, gcrt_malloc_host(rt, &h, N));
    RT_OK(rt, gcrt_malloc(rt, &d, N));
    RT_OK(rt, gcrt_malloc(rt, &d2, 256));
    RT_OK(rt, gcrt_write(rt, h, data, N));
    gcrt_stream_t *good;
    RT_OK(rt, gcrt_stream_create_with_priority(rt, &good, -1));
    RT_OK(rt, gcrt_memcpy_async(rt, d, h, N, GCRT_MEMCPY_HOST_TO_DEVICE, good, "good"));

    gcrt_stream_t *bogus = (gcrt_stream_t *)(uintptr_t)0x1234; /* never dereferenced */
    CHECK_EQ(gcrt_memcpy_async(rt, d, h, 64, GCRT_MEMCPY_HOST_TO_DEVICE, bogus, NULL), GCRT_ERROR_INVALID_HANDLE);
    CHECK(strstr(gcrt_last_message(rt), "was not created by this runtime") != NULL);
    CHECK_EQ(gcrt_memcpy_async(rt, d2, h, 257, GCRT_MEMCPY_HOST_TO_DEVICE, good, NULL), GCRT_ERROR_OUT_OF_BOUNDS);
    CHECK(strstr(gcrt_last_message(rt), "past the end of the allocation") != NULL);
    CHECK_EQ(gcrt_memcpy_async(rt, d, 0x10, 16, GCRT_MEMCPY_HOST_TO_DEVICE, good, NULL), GCRT_ERROR_OUT_OF_BOUNDS);
    CHECK(strstr(gcrt_last_message(rt), "not inside any allocation") != NULL);
    CHECK_EQ(gcrt_memset_async(rt, d2 + 200, 0, 100, good, NULL), GCRT_ERROR_OUT_OF_BOUNDS);
    CHECK_EQ(gcrt_memcpy_async(rt, d, h, 64, GCRT_MEMCPY_DEVICE_TO_HOST, good, NULL),
             GCRT_ERROR_INVALID_MEMCPY_DIRECTION);
    CHECK(strstr(gcrt_last_message(rt), "DEVICE_TO_HOST") != NULL);
    CHECK_EQ(gcrt_memcpy_async(rt, d, h, 64, (gcrt_memcpy_kind_t)9, good, NULL), GCRT_ERROR_INVALID_MEMCPY_DIRECTION);
    gcrt_stream_t *s2 = NULL;
    CHECK_EQ(gcrt_stream_create_with_priority(rt, &s2, -6), GCRT_ERROR_INVALID_PRIORITY);
    CHECK(strstr(gcrt_last_message(rt), "outside [-5 (greatest), 0 (least)]") != NULL);
    CHECK_EQ(gcrt_stream_create_with_priority(rt, &s2, 1), GCRT_ERROR_INVALID_PRIORITY);
    CHECK(s2 == NULL);
    CHECK_EQ(gcrt_stream_destroy(rt, NULL), GCRT_ERROR_INVALID_HANDLE);
    CHECK_EQ(gcrt_event_record(rt, (gcrt_event_t *)(uintptr_t)0x99, good), GCRT_ERROR_INVALID_HANDLE);
    CHECK_EQ(gcrt_free(rt, d + 1), GCRT_ERROR_INVALID_VALUE);
    CHECK_EQ(gcrt_stream_synchronize(rt, bogus), GCRT_ERROR_INVALID_HANDLE);

    RT_OK(rt, gcrt_stream_synchronize(rt, good));
    RT_OK(rt, gcrt_read(rt, d, got, N));
    CHECK_EQ(util_diff("the good stream's copy", data, got, N), 0);
    const gcrt_op_t *ops;
    size_t n;
    RT_OK(rt, gcrt_ops(rt, &ops, &n));
    CHECK_EQ(n, 1); /* nothing of the refused requests reached the device */
    for (uint32_t q = 1; q < 3; q++) {
        uint32_t v = 9;
        RT_OK(rt, gcrt_copy_semaphore(rt, q, &v));
        CHECK_EQ(v, 0);
    }
    gcrt_close(rt);
}

/* More ops than stamp slots: slots recycle after a drain, records stay right. */
static void t_many_ops(void) {
    gcrt_t *rt = rt_open(true);
    REQUIRE(rt);
    uint64_t d;
    RT_OK(rt, gcrt_malloc(rt, &d, 4096));
    gcrt_stream_t *s;
    RT_OK(rt, gcrt_stream_create(rt, &s));
    for (int i = 0; i < 2100; i++) RT_OK(rt, gcrt_memset_async(rt, d + (uint64_t)(i % 256) * 16, i & 0xFF, 16, s, NULL));
    RT_OK(rt, gcrt_device_synchronize(rt));
    uint8_t got[4096];
    RT_OK(rt, gcrt_read(rt, d, got, sizeof got));
    size_t bad = 0;
    for (int k = 0; k < 256; k++) { /* the last memset of each 16-byte block wins */
        int last = 2100 - 1 - ((2100 - 1 - k) % 256);
        for (int j = 0; j < 16; j++) bad += got[k * 16 + j] != (uint8_t)(last & 0xFF);
    }
    CHECK_EQ(bad, 0);
    const gcrt_op_t *ops;
    size_t n;
    RT_OK(rt, gcrt_ops(rt, &ops, &n));
    CHECK_EQ(n, 2100);
    size_t notdone = 0;
    for (size_t i = 0; i < n; i++) notdone += !ops[i].done || ops[i].end_cycle == 0;
    CHECK_EQ(notdone, 0);
    gcrt_close(rt);
}

/* The copy-priority walk-through through the runtime and the scenario code behind `gpucosim run copy-priority`. */
static void check_order(const gcsc_result_t *r, const char *const want[5]) {
    CHECK_EQ(r->nops, 5);
    for (size_t i = 0; i < 5 && i < r->nops; i++)
        if (strcmp(r->ops[r->order[i]].tag, want[i]))
            TCASE_FAIL_("completion %zu is %s, expected %s", i + 1, r->ops[r->order[i]].tag, want[i]);
    CHECK_EQ(r->bad_bytes, 0);
    CHECK_EQ(r->sem_final, 0);
}

/* The default time slice (3000 cycles) covers Chigh's "sem dec" / "sem inc" pair (~700 cycles
 * without stalls, stretched by random stalls): the walk-through's order, and the scenario's verdict
 * says so.  Where stalls stretch the pair beyond the slice, the verdict must fail with that reason. */
static void t_copy_priority(void) {
    gcrt_config_t c;
    gcrt_config_init(&c);
    c.device.quiet = true;
    gcsc_result_t r;
    char err[700] = "";
    gcrt_error_t e = gcsc_copy_priority(&c, stderr, NULL, &r, err, sizeof err);
    REQUIRE(e == GCRT_SUCCESS || (fprintf(stderr, "%s\n", err), 0));
    CHECK_EQ(r.passed, r.order_ok && r.bad_bytes == 0 && r.sem_final == 0);
    if (c.copy_timeslice < util_stall_budget(1000, util_stall_pct()) && !r.order_ok) {
        CHECK(strstr(r.why, "between Chigh's \"sem dec Shigh\" after Mhigh1") != NULL);
        CHECK_EQ(r.bad_bytes, 0);
        return;
    }
    static const char *const want[5] = {"Mlow1", "Mhigh1", "Mhigh2", "Mlow2", "Mlow3"};
    check_order(&r, want);
    CHECK(r.order_ok && r.passed);
}

/* Prior art (no semaphores): each channel's copies in issue order; Chigh overtakes Mlow3 only when
 * Clow's slice expired (the verdict then fails and says so).  With a slice that covers Clow's
 * three copies whatever the stalls, issue order across the channels. */
static void t_copy_priority_prior_art(void) {
    static const uint32_t slices[] = {3000, 1000000};
    for (int k = 0; k < 2; k++) {
        gcrt_config_t c;
        gcrt_config_init(&c);
        c.device.quiet = true;
        c.copy_priorities_enabled = false;
        c.copy_timeslice = slices[k];
        gcsc_result_t r;
        char err[700] = "";
        gcrt_error_t e = gcsc_copy_priority(&c, stderr, NULL, &r, err, sizeof err);
        REQUIRE(e == GCRT_SUCCESS || (fprintf(stderr, "%s\n", err), 0));
        REQUIRE_EQ(r.nops, 5);
        CHECK_EQ(r.bad_bytes, 0);
        CHECK_EQ(r.sem_final, 0);
        const gcrt_op_t *o = r.ops; /* issue order: Mlow1..3, Mhigh1..2 */
        CHECK(o[0].end_cycle < o[1].end_cycle && o[1].end_cycle < o[2].end_cycle && o[3].end_cycle < o[4].end_cycle);
        CHECK_EQ(r.passed, r.order_ok);
        if (k == 1) {
            static const char *const want[5] = {"Mlow1", "Mlow2", "Mlow3", "Mhigh1", "Mhigh2"};
            check_order(&r, want);
        } else if (!r.order_ok) {
            CHECK(r.sw_timeslice[0] >= 1 && strstr(r.why, "Clow's time slice") != NULL);
        }
    }
}

/* The video pipeline's frames arrive intact and each frame's stages run in order. */
static void t_video_pipeline(void) {
    gcrt_config_t c;
    gcrt_config_init(&c);
    c.device.quiet = true;
    gcsc_result_t r;
    char err[700] = "";
    char tl[64];
    snprintf(tl, sizeof tl, "/tmp/gpucosim-timeline-%ld.json", (long)getpid());
    gcrt_error_t e = gcsc_video_pipeline(&c, 3, NULL, tl, &r, err, sizeof err);
    REQUIRE(e == GCRT_SUCCESS || (fprintf(stderr, "%s\n", err), 0));
    CHECK_EQ(r.bad_bytes, 0);
    CHECK_EQ(r.nops, 9);
    for (int f = 0; f < 3; f++) {
        CHECK(r.ops[3 * f + 1].start_cycle >= r.ops[3 * f].end_cycle);
        CHECK(r.ops[3 * f + 2].start_cycle >= r.ops[3 * f + 1].end_cycle);
        CHECK(r.frame_latency[f] > 0);
    }
    FILE *f = fopen(tl, "r");
    REQUIRE(f);
    static char buf[65536];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    remove(tl);
    buf[n] = 0;
    CHECK(strstr(buf, "\"traceEvents\"") && strstr(buf, "\"F2.d2h\"") && strstr(buf, "\"CE0\""));
}

/* Freeing the source of a queued copy, allocating again (the allocator hands out the same
 * range) and writing new bytes there must not change what the copy delivers: gcrt_free waits
 * for the work pushed before it, like cudaFree. */
static void t_free_in_use(void) {
    gcrt_t *rt = rt_open(true);
    REQUIRE(rt);
    enum { N = 1 << 20 };
    static uint8_t in[N], other[N], got[N];
    gcsc_fill(in, N, 11);
    gcsc_fill(other, N, 12);
    uint64_t src, dst, src2, back;
    RT_OK(rt, gcrt_malloc_host(rt, &src, N));
    RT_OK(rt, gcrt_malloc(rt, &dst, N));
    RT_OK(rt, gcrt_write(rt, src, in, N));
    gcrt_stream_t *s;
    RT_OK(rt, gcrt_stream_create(rt, &s));
    RT_OK(rt, gcrt_memcpy_async(rt, dst, src, N, GCRT_MEMCPY_HOST_TO_DEVICE, s, "h2d"));
    RT_OK(rt, gcrt_free(rt, src));
    const gcrt_op_t *ops;
    size_t n;
    RT_OK(rt, gcrt_ops(rt, &ops, &n));
    CHECK(n == 1 && ops[0].done); /* the copy completed before the free returned */
    RT_OK(rt, gcrt_malloc_host(rt, &src2, N));
    fprintf(stderr, "freed 0x%010llx, the next allocation got 0x%010llx\n", (unsigned long long)src,
            (unsigned long long)src2);
    RT_OK(rt, gcrt_write(rt, src2, other, N));
    /* the destination of a queued copy, freed and reused the same way */
    RT_OK(rt, gcrt_malloc_host(rt, &back, N));
    RT_OK(rt, gcrt_memcpy_async(rt, back, dst, N, GCRT_MEMCPY_DEVICE_TO_HOST, s, "d2h"));
    RT_OK(rt, gcrt_free(rt, back));
    uint64_t back2;
    RT_OK(rt, gcrt_malloc_host(rt, &back2, N));
    RT_OK(rt, gcrt_read(rt, back2, got, N));
    CHECK_EQ(util_diff("d2h into a freed buffer, read after the free", in, got, N), 0);
    RT_OK(rt, gcrt_write(rt, back2, other, N));
    RT_OK(rt, gcrt_stream_synchronize(rt, s));
    RT_OK(rt, gcrt_read(rt, dst, got, N));
    CHECK_EQ(util_diff("h2d whose source was freed and reused", in, got, N), 0);
    /* a free of what is not (or no longer) an allocation is refused and changes nothing */
    CHECK_EQ(gcrt_free(rt, src2 + 1), GCRT_ERROR_INVALID_VALUE);
    RT_OK(rt, gcrt_free(rt, src2));
    CHECK_EQ(gcrt_free(rt, src2), GCRT_ERROR_INVALID_VALUE);
    CHECK(strstr(gcrt_last_message(rt), "freed already") != NULL);
    RT_OK(rt, gcrt_free(rt, back2));
    RT_OK(rt, gcrt_free(rt, dst));
    gcrt_close(rt);
}

/* After gc_time_set (the time base just below the 64-bit wrap, which falls inside the work): the
 * ops' submit, launch, start and end cycles and an event pair's elapsed cycles are on the time
 * base's scale, in order modulo 2^64, within the cycles the work took. */
static void t_time_base(void) {
    gcrt_t *rt = rt_open(true);
    REQUIRE(rt);
    gc_device_t *dev = gcrt_device(rt);
    enum { N = 8192 };
    static uint8_t in[N], got[N];
    gcsc_fill(in, N, 9);
    uint64_t h_in, h_out, d_a;
    RT_OK(rt, gcrt_malloc_host(rt, &h_in, N));
    RT_OK(rt, gcrt_malloc_host(rt, &h_out, N));
    RT_OK(rt, gcrt_malloc(rt, &d_a, N));
    RT_OK(rt, gcrt_write(rt, h_in, in, N));
    gcrt_event_t *e0, *e1;
    RT_OK(rt, gcrt_event_create(rt, &e0));
    RT_OK(rt, gcrt_event_create(rt, &e1));
    RT_OK(rt, gcrt_device_synchronize(rt));
    CHECK(!gc_time_is_set(dev));
    const uint64_t k0 = gc_device_cycles(dev);
    CHECK_EQ(gc_time_set(dev, UINT64_MAX - 400), GC_OK);
    CHECK(gc_time_is_set(dev));
    RT_OK(rt, gcrt_event_record(rt, e0, NULL));
    RT_OK(rt, gcrt_memcpy_async(rt, d_a, h_in, N, GCRT_MEMCPY_HOST_TO_DEVICE, NULL, "h2d"));
    RT_OK(rt, gcrt_memcpy_async(rt, h_out, d_a, N, GCRT_MEMCPY_DEVICE_TO_HOST, NULL, "d2h"));
    RT_OK(rt, gcrt_event_record(rt, e1, NULL));
    RT_OK(rt, gcrt_device_synchronize(rt));
    const uint64_t span = gc_device_cycles(dev) - k0;
    RT_OK(rt, gcrt_read(rt, h_out, got, N));
    CHECK_EQ(util_diff("h2d/d2h across the time base's wrap", in, got, N), 0);
    uint64_t el = 0;
    RT_OK(rt, gcrt_event_elapsed_cycles(rt, e0, e1, &el));
    CHECK(el > 0 && el < span);
    const gcrt_op_t *ops;
    size_t n;
    RT_OK(rt, gcrt_ops(rt, &ops, &n));
    REQUIRE(n == 2);
    for (size_t i = 0; i < n; i++) {
        const gcrt_op_t *o = &ops[i];
        if (!o->done || o->launch_cycle - o->submit_cycle >= span || o->start_cycle - o->launch_cycle >= span ||
            o->end_cycle - o->start_cycle == 0 || o->end_cycle - o->start_cycle >= span)
            TCASE_FAIL_("op %zu: submit 0x%016llx launch 0x%016llx start 0x%016llx end 0x%016llx: not in order "
                        "within the %llu cycles of the work",
                        i, (unsigned long long)o->submit_cycle, (unsigned long long)o->launch_cycle,
                        (unsigned long long)o->start_cycle, (unsigned long long)o->end_cycle, (unsigned long long)span);
    }
    CHECK(ops[1].start_cycle - ops[0].end_cycle < span); /* one stream: in order */
    CHECK(ops[0].submit_cycle > UINT64_MAX - 400 && ops[1].end_cycle < span); /* the wrap is inside */
    gcrt_event_destroy(rt, e0);
    gcrt_event_destroy(rt, e1);
    gcrt_close(rt);
}

static const tcase_t cases[] = {
    {"rt_free_in_use", t_free_in_use},
    {"rt_memcpy_memset", t_memcpy_memset},
    {"rt_events", t_events},
    {"rt_priorities", t_priorities},
    {"rt_bad_requests", t_bad_requests},
    {"rt_many_ops", t_many_ops},
    {"rt_copy_priority_walkthrough", t_copy_priority},
    {"rt_copy_priority_prior_art", t_copy_priority_prior_art},
    {"rt_video_pipeline", t_video_pipeline},
    {"rt_time_base", t_time_base},
};
TCASE_MAIN(cases)
