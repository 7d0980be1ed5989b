/* Every error path of the public driver API that is given a device records a one-line message in
 * gc_device_last_error (NULL arguments, bad kinds, bad configurations), gc_device_open_ex says why
 * an open failed, the GPUCOSIM_* numbers parse strictly (gc_parse_u64), and a watchdog stop reads
 * "watchdog: <what> after <N> cycles (limit <L>): <stuck state>", and each status code has its own
 * text (gc_status_str).  On the ref backend (fast). */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <stdlib.h>

#include "cosim_util.h"
#include "gpucosim/compute.h"
#include "gpucosim/elf.h"
#include "tcase.h"

static gc_device_t *ref_dev(uint64_t max_cycles) {
    gc_device_config_t cfg;
    gc_device_config_init(&cfg);
    cfg.backend = "ref";
    cfg.quiet = true;
    cfg.waves = NULL;
    cfg.max_cycles = max_cycles;
    gc_device_t *dev = NULL;
    char err[300];
    if (gc_device_open_ex(&cfg, &dev, err, sizeof err) != GC_OK) fprintf(stderr, "open: %s\n", err);
    return dev;
}

/* The call fails with INVALID_ARG and leaves a new message containing `want`. */
#define EXPECT_MSG(dev, expr, want)                                                                  \
    do {                                                                                             \
        gc_mem_read(dev, 1ull << 40, &scratch, 4); /* another message first */                     \
        gc_status_t st_ = (expr);                                                                    \
        const char *m_ = gc_device_last_error(dev);                                                  \
        fprintf(stderr, "%s -> %s: %s\n", #expr, gc_status_str(st_), m_);                           \
        CHECK_EQ(st_, GC_ERR_INVALID_ARG);                                                           \
        CHECK(strstr(m_, want) != NULL);                                                             \
    } while (0)

static void t_last_error_on_every_path(void) {
    gc_device_t *dev = ref_dev(0);
    REQUIRE(dev);
    uint32_t scratch = 0;
    gc_buf_t b;
    EXPECT_MSG(dev, gc_mem_alloc(dev, (gc_mem_kind_t)7, 64, 64, &b), "memory kind 7");
    EXPECT_MSG(dev, gc_mem_alloc(dev, GC_MEM_SYSMEM, 64, 64, NULL), "output pointer is NULL");
    EXPECT_MSG(dev, gc_mem_alloc(dev, GC_MEM_SYSMEM, 0, 64, &b), "size must be > 0");
    EXPECT_MSG(dev, gc_mem_alloc(dev, GC_MEM_SYSMEM, 64, 3, &b), "power of two");
    EXPECT_MSG(dev, gc_mem_reserve(dev, (gc_mem_kind_t)-1, 0, 64, &b), "memory kind -1");
    EXPECT_MSG(dev, gc_mem_reserve(dev, GC_MEM_VIDMEM, GC_VIDMEM_BASE, 64, NULL), "output pointer is NULL");
    EXPECT_MSG(dev, gc_mem_free(dev, NULL), "buffer is NULL");
    EXPECT_MSG(dev, gc_mem_write(dev, GC_SYSMEM_BASE, NULL, 4), "data pointer is NULL");
    EXPECT_MSG(dev, gc_mem_read(dev, GC_SYSMEM_BASE, NULL, 4), "buffer pointer is NULL");
    EXPECT_MSG(dev, gc_mmio_read(dev, GC_REG_GLOBAL_ID, NULL), "value pointer is NULL");
    EXPECT_MSG(dev, gc_channel_open(dev, NULL, NULL), "output pointer is NULL");
    gc_channel_t *ch = NULL;
    REQUIRE_OK(dev, gc_channel_open(dev, NULL, &ch));
    EXPECT_MSG(dev, gc_channel_submit(ch, NULL), "pushbuffer is NULL");
    EXPECT_MSG(dev, gc_channel_error(ch, NULL), "record pointer is NULL");
    gc_pushbuf_t pb;
    uint32_t w[4];
    gc_pb_init(&pb, w, 4);
    EXPECT_MSG(dev, gc_channel_submit(ch, &pb), "empty pushbuffer");
    EXPECT_MSG(dev, gc_compute_bind(ch, 9), "built with an error");
    EXPECT_MSG(dev, gc_compute_write_tmd(dev, NULL, NULL), "TMD buffer");
    EXPECT_MSG(dev, gc_compute_fault_read(dev, NULL), "record pointer is NULL");
    EXPECT_MSG(dev, gc_elf_load(dev, NULL), "image is NULL");
    EXPECT_MSG(dev, gc_elf_unload(dev, NULL), "image is NULL");
    gc_device_close(dev);
}

static void t_open_failure_reason(void) {
    gc_device_config_t cfg;
    gc_device_config_init(&cfg);
    cfg.backend = "ref";
    cfg.quiet = true;
    cfg.waves = "/tmp/never.fst";
    gc_device_t *dev = (gc_device_t *)&cfg; /* must come back NULL */
    char err[300] = "x";
    CHECK_EQ(gc_device_open_ex(&cfg, &dev, err, sizeof err), GC_ERR_INVALID_ARG);
    CHECK(dev == NULL);
    fprintf(stderr, "ref --waves: %s\n", err);
    CHECK(strstr(err, "cannot open backend 'ref': the ref backend has no signals to write a waveform of") != NULL);
    cfg.waves = NULL;
    cfg.backend = "nope";
    CHECK_EQ(gc_device_open_ex(&cfg, &dev, err, sizeof err), GC_ERR_NOT_FOUND);
    CHECK(strstr(err, "unknown backend 'nope' (known: rtl, ref, sc)") != NULL);
    cfg.backend = "ref";
    snprintf(cfg.env_error, sizeof cfg.env_error, "GPUCOSIM_SEED='x' is not a number in 0..1");
    CHECK_EQ(gc_device_open_ex(&cfg, &dev, err, sizeof err), GC_ERR_INVALID_ARG);
    CHECK(!strcmp(err, cfg.env_error));
}

static void t_parse_u64(void) {
    uint64_t x = 77;
    CHECK(gc_parse_u64("0", 0, 10, &x) && x == 0);
    CHECK(gc_parse_u64("18446744073709551615", 0, UINT64_MAX, &x) && x == UINT64_MAX);
    CHECK(gc_parse_u64("0xFFFFFFFFFFFFFFFF", 0, UINT64_MAX, &x) && x == UINT64_MAX);
    x = 77;
    static const char *const bad[] = {"", "-1", "+1", " 1", "1 ", "0x", "18446744073709551616", "0x10000000000000000",
                                      "12a", "1e3"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) CHECK(!gc_parse_u64(bad[i], 0, UINT64_MAX, &x));
    CHECK(!gc_parse_u64("91", 0, 90, &x) && !gc_parse_u64("0", 1, 90, &x));
    CHECK_EQ(x, 77); /* untouched by every refusal */
}

static void t_env_refused(void) {
    static const char *const vars[] = {"GPUCOSIM_SEED", "GPUCOSIM_STALL_PCT", "GPUCOSIM_MAX_CYCLES"};
    static const char *const vals[] = {"abc", "95", "-1"};
    for (int i = 0; i < 3; i++) {
        setenv(vars[i], vals[i], 1);
        gc_device_config_t cfg;
        gc_device_config_init(&cfg);
        unsetenv(vars[i]);
        fprintf(stderr, "%s=%s: %s\n", vars[i], vals[i], cfg.env_error);
        CHECK(!strncmp(cfg.env_error, vars[i], strlen(vars[i])));
        cfg.backend = "ref";
        gc_device_t *dev = NULL;
        char err[300];
        CHECK_EQ(gc_device_open_ex(&cfg, &dev, err, sizeof err), GC_ERR_INVALID_ARG);
    }
}

static void t_watchdog_message(void) {
    gc_device_t *dev = ref_dev(5000);
    REQUIRE(dev);
    gc_channel_t *ch = NULL;
    REQUIRE_OK(dev, gc_channel_open(dev, NULL, &ch));
    gc_buf_t sem;
    REQUIRE_OK(dev, gc_mem_alloc(dev, GC_MEM_SYSMEM, 64, 64, &sem));
    uint32_t zero = 0;
    REQUIRE_OK(dev, gc_mem_write(dev, sem.addr, &zero, 4));
    CHECK_EQ(gc_sem_wait(dev, sem.addr, 1, NULL), GC_ERR_TIMEOUT);
    const char *m = gc_device_last_error(dev);
    fprintf(stderr, "%s\n", m);
    char want[128];
    snprintf(want, sizeof want, "watchdog: waiting for semaphore 0x%010llx to hold 0x00000001 (it holds 0x00000000) "
             "after 5000 cycles (limit 5000): ", (unsigned long long)sem.addr);
    CHECK(!strncmp(m, want, strlen(want)));
    CHECK(strstr(m, "no engine busy, no channel with work") != NULL);
    gc_device_close(dev);
}

/* Every status code has its own text (what the messages above print), and a value outside the
 * enum says so instead of naming another status. */
static void t_status_str(void) {
    for (int a = 0; a < GC_STATUS_COUNT; a++) {
        const char *sa = gc_status_str((gc_status_t)a);
        CHECK(sa != NULL && sa[0] != '\0' && strcmp(sa, "unknown status") != 0);
        for (int b = 0; b < a; b++) CHECK(strcmp(sa, gc_status_str((gc_status_t)b)) != 0);
    }
    CHECK(!strcmp(gc_status_str(GC_OK), "ok"));
    CHECK(!strcmp(gc_status_str(GC_STATUS_COUNT), "unknown status"));
    CHECK(!strcmp(gc_status_str((gc_status_t)(GC_STATUS_COUNT + 7)), "unknown status"));
}

static const tcase_t cases[] = {
    {"api_status_str", t_status_str},
    {"api_last_error_on_every_path", t_last_error_on_every_path},
    {"api_open_failure_reason", t_open_failure_reason},
    {"api_parse_u64", t_parse_u64},
    {"api_env_refused", t_env_refused},
    {"api_watchdog_message", t_watchdog_message},
};
TCASE_MAIN(cases)
