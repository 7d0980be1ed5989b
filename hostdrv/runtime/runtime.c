/* runtime.c: the CUDA-like runtime over hostdrv (see gpucosim/runtime.h for the model).
 *
 * Size (~1.5k lines, above the tree's ~1,000): one file on purpose.  Streams, events, copies,
 * launches, the TMU log and the op table all read and write the one private struct gcrt (its
 * channels, stamp slots, pushbuffers and op records); splitting them would put that struct in a
 * header every part shares, with no narrower interface between them.  The timeline writer, which
 * needs only the public API, is timeline.c. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "gpucosim/compute.h"
#include "gpucosim/runtime.h"
#include "gpucosim_spec.h"

#define MAX_COPY_PRIOS 8u
#define STAMP_SLOTS 2048u /* ops in flight between two harvests; 32 bytes each (vidmem) */
#define PB_WORDS 256u
#define COPY_SUBCH 4u      /* subchannel the copy channels bind the copy class to */
#define MAX_COMPUTE 8u      /* compute channels: one per device priority in use */
#define CCHAN MAX_COPY_PRIOS /* index of the first compute channel in gcrt.chan */
#define NCHAN (MAX_COPY_PRIOS + MAX_COMPUTE)
#define LOG_DEFAULT_LOG2 12u /* default task log ring: 4096 records (64 KiB) */
#define MAX_ARGS_BYTES 4096u

typedef struct alloc {
    uint64_t addr, size;
    gc_mem_kind_t kind;
    gc_buf_t buf;
} alloc_t;

struct gcrt_event {
    gc_buf_t slot;   /* 16 bytes: payload (record number), 0, 64-bit timestamp */
    uint32_t seq;    /* records made */
    int32_t chan;    /* index (copy priority, or CCHAN + k) of the channel that made the last record, -1 = none */
};

struct gcrt_stream {
    uint32_t id;
    int prio;             /* user value, CUDA convention */
    uint32_t level;       /* 0 lowest .. K-1 highest */
    uint32_t device_prio; /* the nested-priority mapping */
    uint32_t copy_prio;   /* copy priority: index of the copy channel */
    gcrt_event_t done;    /* internal event for synchronize / query */
    gcrt_event_t xev;     /* internal event ordering the stream across its two channels */
    int32_t cur;          /* channel index of the stream's last work (copy prio or CCHAN + k), -1 = none */
};

typedef struct op_int {
    gcrt_op_t pub;
    uint32_t slot;   /* stamp slot while in flight */
    bool harvested;  /* its completion release landed (kernels: done once their COMPLETE record is in too) */
    bool has_start, has_end; /* kernels: their START / COMPLETE task log record was read */
    bool has_kbuf;   /* kernels: TMD + parameter block, freed once the kernel completed */
    gc_buf_t kbuf;
} op_int_t;

struct gcrt {
    gcrt_config_t cfg;
    gc_device_t *dev;
    gc_channel_t *chan[NCHAN]; /* copy channels 0..P-1, compute channels at CCHAN + k */
    uint32_t cprio[MAX_COMPUTE]; /* device priority of compute channel CCHAN + k */
    uint32_t ncompute;     /* compute channels open */
    bool compute_probed;   /* COMPUTE_CONFIG / TMU_CONFIG read */
    bool compute_missing;  /* the backend has no compute engine */
    gcrt_tmu_config_t tmu; /* COMPUTE.TMU_CONFIG (spec defaults when the engine reads 0) */
    /* task log: on from the first compute use (kernels are timed from its START / COMPLETE
     * records); rt->log collects the records for gcrt_tmu_log while log_user is set */
    gc_buf_t logbuf;
    bool log_alloc, log_on, log_user;
    uint32_t log_log2;
    uint64_t log_got;      /* records read since the ring was programmed */
    uint64_t log_lost;     /* records lost since gcrt_tmu_log_enable */
    size_t ktime_from;     /* ops before this index need no more log records */
    gcrt_tmu_record_t *log;
    size_t nlog, log_cap;
    struct task_name { uint32_t task; char name[40]; } *names;
    size_t nnames, names_cap;
    uint32_t lanes, warps, smem_bytes; /* COMPUTE_CONFIG */
    gc_buf_t sems;        /* S[q] at sems.addr + 16 q (q = 1..P-1) */
    gc_buf_t stamps;      /* STAMP_SLOTS x 32 bytes: launch stamp at +0, completion at +16 */
    uint32_t slot_next;
    gcrt_stream_t default_stream;
    gcrt_stream_t **streams;
    size_t nstreams, streams_cap;
    uint32_t stream_ids;
    gcrt_event_t **events;
    size_t nevents, events_cap;
    alloc_t *allocs;
    size_t nallocs, allocs_cap;
    gc_elf_t **images;    /* loaded by gcrt_load_image, not unloaded yet */
    size_t nimages, images_cap;
    op_int_t *ops;
    size_t nops, ops_cap;
    gcrt_op_t *pub;       /* snapshot returned by gcrt_ops */
    gcrt_error_t last;
    char msg[600];
};

/* ------------------------------------------------------------------ errors */
static const char *const err_names[GCRT_ERROR_COUNT] = {
    "GCRT_SUCCESS", "GCRT_ERROR_INVALID_VALUE", "GCRT_ERROR_INVALID_HANDLE", "GCRT_ERROR_INVALID_PRIORITY",
    "GCRT_ERROR_OUT_OF_BOUNDS", "GCRT_ERROR_INVALID_MEMCPY_DIRECTION", "GCRT_ERROR_MEMORY_ALLOCATION",
    "GCRT_ERROR_NOT_READY", "GCRT_ERROR_NOT_PERMITTED", "GCRT_ERROR_CHANNEL_FAULT", "GCRT_ERROR_TIMEOUT",
    "GCRT_ERROR_BACKEND", "GCRT_ERROR_NOT_SUPPORTED", "GCRT_ERROR_INVALID_KERNEL", "GCRT_ERROR_INVALID_CONFIGURATION",
};
static const char *const err_strings[GCRT_ERROR_COUNT] = {
    "no error",
    "an argument is out of range or NULL",
    "the stream, event or image handle is not one this runtime created (or it was destroyed)",
    "the stream priority is outside the range gcrt_stream_priority_range reports",
    "the memory range is not inside one allocation made by this runtime",
    "the addresses do not match the direction of the copy (host = pinned sysmem, device = vidmem)",
    "out of device or host memory",
    "the work has not completed yet",
    "the operation is not permitted now",
    "a hardware channel stopped with an error",
    "the device did not finish within the synchronize budget",
    "the device backend failed",
    "the device backend has no compute engine",
    "the kernel is not a symbol of the image",
    "the launch configuration (grid, block, shared memory) is not one the device can run",
};

const char *gcrt_error_name(gcrt_error_t e) { return (unsigned)e < GCRT_ERROR_COUNT ? err_names[e] : "GCRT_ERROR_?"; }
const char *gcrt_error_string(gcrt_error_t e) {
    return (unsigned)e < GCRT_ERROR_COUNT ? err_strings[e] : "unknown error code";
}

static gcrt_error_t fail(gcrt_t *rt, gcrt_error_t e, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static gcrt_error_t fail(gcrt_t *rt, gcrt_error_t e, const char *fmt, ...) {
    if (!rt) return e;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(rt->msg, sizeof rt->msg, fmt, ap);
    va_end(ap);
    rt->last = e;
    return e;
}

static gcrt_error_t ok(gcrt_t *rt) {
    (void)rt;
    return GCRT_SUCCESS;
}

/* A hostdrv status as a runtime error, with the driver's message. */
static gcrt_error_t from_gc(gcrt_t *rt, gc_status_t st, const char *what) {
    if (st == GC_OK) return GCRT_SUCCESS;
    gcrt_error_t e = st == GC_ERR_CHANNEL_FAULT ? GCRT_ERROR_CHANNEL_FAULT
                     : st == GC_ERR_TIMEOUT     ? GCRT_ERROR_TIMEOUT
                     : st == GC_ERR_NO_MEMORY   ? GCRT_ERROR_MEMORY_ALLOCATION
                     : st == GC_ERR_INVALID_ARG ? GCRT_ERROR_INVALID_VALUE
                                                : GCRT_ERROR_BACKEND;
    const char *m = gc_device_last_error(rt->dev);
    if (!strncmp(m, "watchdog: ", 10)) return fail(rt, e, "%s: %s", what, m);
    return fail(rt, e, "%s: %s (%s)", what, gc_status_str(st), m);
}

gcrt_error_t gcrt_get_last_error(gcrt_t *rt) {
    if (!rt) return GCRT_ERROR_INVALID_VALUE;
    gcrt_error_t e = rt->last;
    rt->last = GCRT_SUCCESS;
    return e;
}
gcrt_error_t gcrt_peek_last_error(const gcrt_t *rt) { return rt ? rt->last : GCRT_ERROR_INVALID_VALUE; }
const char *gcrt_last_message(const gcrt_t *rt) { return rt && rt->last != GCRT_SUCCESS ? rt->msg : ""; }

/* ------------------------------------------------------------------ priorities (the nested-priority mapping) */
uint32_t gcrt_prio_stream_levels(uint32_t m, uint32_t n) { return n ? m / n : 0; }

int gcrt_prio_map(int lo, int hi, uint32_t m, uint32_t n, int prio) {
    uint32_t levels = gcrt_prio_stream_levels(m, n);
    if (levels == 0 || lo > hi || prio < lo || prio > hi) return -1;
    /* lowest stream priority -> device 0, each next one N higher, until the levels run out; the
     * surplus higher stream priorities share the last level */
    int64_t idx = (int64_t)prio - lo;
    if (idx > (int64_t)levels - 1) idx = levels - 1;
    return (int)(idx * n);
}

uint32_t gcrt_copy_prio_map(uint32_t k, uint32_t p, uint32_t level) {
    if (k <= 1 || p == 0) return 0;
    if (level > k - 1) level = k - 1;
    /* round(level * (P-1) / (K-1)), halves up */
    return (uint32_t)((2ull * level * (p - 1) + (k - 1)) / (2ull * (k - 1)));
}

static uint32_t copy_prio_of(const gcrt_config_t *c, uint32_t level) {
    return gcrt_copy_prio_map(c->stream_priorities, c->copy_priorities, level);
}

gcrt_error_t gcrt_stream_priority_range(gcrt_t *rt, int *least, int *greatest) {
    if (!rt || !least || !greatest) return fail(rt, GCRT_ERROR_INVALID_VALUE, "gcrt_stream_priority_range: NULL argument");
    *least = 0;
    *greatest = -(int)(rt->cfg.stream_priorities - 1);
    return ok(rt);
}

static void stream_set_prio(gcrt_t *rt, gcrt_stream_t *s, int prio) {
    s->prio = prio;
    s->level = (uint32_t)(-prio);
    s->device_prio = (uint32_t)gcrt_prio_map(0, (int)rt->cfg.stream_priorities - 1, rt->cfg.device_priorities,
                                             rt->cfg.max_nesting_depth, (int)s->level);
    s->copy_prio = copy_prio_of(&rt->cfg, s->level);
}

gcrt_error_t gcrt_set_limit(gcrt_t *rt, gcrt_limit_t limit, uint64_t value) {
    if (!rt) return GCRT_ERROR_INVALID_VALUE;
    if (limit != GCRT_LIMIT_MAX_NESTING_DEPTH) return fail(rt, GCRT_ERROR_INVALID_VALUE, "gcrt_set_limit: unknown limit %d", (int)limit);
    if (value < 1 || value > rt->cfg.device_priorities)
        return fail(rt, GCRT_ERROR_INVALID_VALUE, "max nesting depth %llu: must be in [1, %u] (the valid device priorities)",
                    (unsigned long long)value, rt->cfg.device_priorities);
    if (value > GC_TMU_MAX_DEPTH)
        return fail(rt, GCRT_ERROR_INVALID_VALUE,
                    "max nesting depth %llu: the task management unit supports at most %u (TMU_MAX_DEPTH: the TMD's "
                    "PRIORITY.MAX_DEPTH field is 4 bits)",
                    (unsigned long long)value, GC_TMU_MAX_DEPTH);
    if (rt->nstreams)
        return fail(rt, GCRT_ERROR_NOT_PERMITTED,
                    "max nesting depth: set it before creating streams (%zu exist; their device priorities are fixed)",
                    rt->nstreams);
    rt->cfg.max_nesting_depth = (uint32_t)value;
    stream_set_prio(rt, &rt->default_stream, 0);
    return ok(rt);
}

gcrt_error_t gcrt_get_limit(gcrt_t *rt, gcrt_limit_t limit, uint64_t *value) {
    if (!rt || !value) return fail(rt, GCRT_ERROR_INVALID_VALUE, "gcrt_get_limit: NULL argument");
    if (limit != GCRT_LIMIT_MAX_NESTING_DEPTH) return fail(rt, GCRT_ERROR_INVALID_VALUE, "gcrt_get_limit: unknown limit %d", (int)limit);
    *value = rt->cfg.max_nesting_depth;
    return ok(rt);
}

/* ------------------------------------------------------------------ open / close */
void gcrt_config_init(gcrt_config_t *c) {
    memset(c, 0, sizeof *c);
    gc_device_config_init(&c->device);
    c->stream_priorities = 6;
    c->device_priorities = 64;
    c->max_nesting_depth = 1;
    c->copy_priorities = 3;
    c->copy_priorities_enabled = true;
    c->copy_runlist = 1;
    c->copy_timeslice = 3000;
    c->sync_cycles = 50000000;
}

static bool grow(void **arr, size_t *cap, size_t need, size_t elem) {
    if (need <= *cap) return true;
    size_t n = *cap ? *cap * 2 : 16;
    while (n < need) n *= 2;
    void *p = realloc(*arr, n * elem);
    if (!p) return false;
    *arr = p;
    *cap = n;
    return true;
}

gcrt_error_t gcrt_open_ex(const gcrt_config_t *cfg, gcrt_t **out, char *err, size_t errlen) {
    char scratch[8];
    if (!err || !errlen) {
        err = scratch;
        errlen = sizeof scratch;
    }
    err[0] = 0;
    if (!out) {
        snprintf(err, errlen, "gcrt_open: the output pointer is NULL");
        return GCRT_ERROR_INVALID_VALUE;
    }
    *out = NULL;
    gcrt_config_t d;
    if (!cfg) {
        gcrt_config_init(&d);
        cfg = &d;
    }
    if (cfg->copy_priorities < 3 || cfg->copy_priorities > MAX_COPY_PRIOS || cfg->stream_priorities < 1 ||
        cfg->stream_priorities > 1024 || cfg->device_priorities < 1 || cfg->device_priorities > GC_TMU_PRIO_LEVELS ||
        cfg->max_nesting_depth < 1 || cfg->max_nesting_depth > cfg->device_priorities ||
        cfg->max_nesting_depth > GC_TMU_MAX_DEPTH || cfg->copy_runlist < 1 ||
        cfg->copy_runlist >= GC_NUM_RUNLISTS || cfg->copy_timeslice == 0) {
        snprintf(err, errlen, "gcrt_open: invalid configuration: copy priorities %u (3..%u), stream priorities %u (1..1024), "
                        "device priorities %u (1..%u, TMU_PRIO_LEVELS), nesting depth %u (1..device priorities, at "
                        "most %u, TMU_MAX_DEPTH), copy runlist %u (1..%u), copy timeslice %u (> 0)",
                cfg->copy_priorities, MAX_COPY_PRIOS, cfg->stream_priorities, cfg->device_priorities,
                GC_TMU_PRIO_LEVELS, cfg->max_nesting_depth, GC_TMU_MAX_DEPTH, cfg->copy_runlist, GC_NUM_RUNLISTS - 1,
                cfg->copy_timeslice);
        return GCRT_ERROR_INVALID_VALUE;
    }
    gcrt_t *rt = calloc(1, sizeof *rt);
    if (!rt) {
        snprintf(err, errlen, "gcrt_open: out of host memory");
        return GCRT_ERROR_MEMORY_ALLOCATION;
    }
    rt->cfg = *cfg;
    gc_status_t st = gc_device_open_ex(&rt->cfg.device, &rt->dev, err, errlen);
    if (st != GC_OK) {
        free(rt);
        return st == GC_ERR_NOT_FOUND ? GCRT_ERROR_INVALID_VALUE : GCRT_ERROR_BACKEND;
    }
    gc_channel_config_t cc;
    gc_channel_config_init(&cc);
    cc.runlist = cfg->copy_runlist;
    cc.timeslice = cfg->copy_timeslice;
    cc.copy_subch = COPY_SUBCH;
    for (uint32_t q = 0; q < cfg->copy_priorities && st == GC_OK; q++) st = gc_channel_open(rt->dev, &cc, &rt->chan[q]);
    if (st == GC_OK) st = gc_mem_alloc(rt->dev, GC_MEM_SYSMEM, 16u * MAX_COPY_PRIOS, 64, &rt->sems);
    if (st == GC_OK) st = gc_mem_alloc(rt->dev, GC_MEM_VIDMEM, 32u * STAMP_SLOTS, 64, &rt->stamps);
    if (st == GC_OK) {
        static const uint8_t zero[16u * MAX_COPY_PRIOS];
        st = gc_mem_write(rt->dev, rt->sems.addr, zero, sizeof zero);
    }
    if (st == GC_OK) st = gc_mem_alloc(rt->dev, GC_MEM_VIDMEM, 16, 16, &rt->default_stream.done.slot);
    if (st == GC_OK) st = gc_mem_alloc(rt->dev, GC_MEM_VIDMEM, 16, 16, &rt->default_stream.xev.slot);
    /* the channels start ready: their SET_OBJECT entries consumed before any stream work */
    for (uint32_t q = 0; q < cfg->copy_priorities && st == GC_OK; q++) st = gc_channel_wait_idle(rt->chan[q]);
    if (st != GC_OK) {
        snprintf(err, errlen, "gcrt_open: setting up the copy channels: %s", gc_device_last_error(rt->dev));
        gcrt_close(rt);
        return GCRT_ERROR_BACKEND;
    }
    uint8_t z16[16] = {0};
    gc_mem_write(rt->dev, rt->default_stream.done.slot.addr, z16, 16);
    gc_mem_write(rt->dev, rt->default_stream.xev.slot.addr, z16, 16);
    rt->default_stream.done.chan = -1;
    rt->default_stream.xev.chan = -1;
    rt->default_stream.cur = -1;
    stream_set_prio(rt, &rt->default_stream, 0);
    rt->stream_ids = 1;
    *out = rt;
    return GCRT_SUCCESS;
}

gcrt_error_t gcrt_open(const gcrt_config_t *cfg, gcrt_t **out) {
    char err[400];
    gcrt_error_t e = gcrt_open_ex(cfg, out, err, sizeof err);
    if (e != GCRT_SUCCESS) fprintf(stderr, "%s\n", err);
    return e;
}

void gcrt_close(gcrt_t *rt) {
    if (!rt) return;
    while (rt->nstreams) gcrt_stream_destroy(rt, rt->streams[rt->nstreams - 1]);
    while (rt->nevents) gcrt_event_destroy(rt, rt->events[rt->nevents - 1]);
    if (rt->log_on) gc_mmio_write(rt->dev, GC_REG_COMPUTE_LOG_CTRL, 0);
    for (size_t i = 0; i < rt->nimages; i++) gc_elf_free(rt->images[i]); /* their ranges go with the device */
    free(rt->images);
    for (uint32_t q = 0; q < NCHAN; q++)
        if (rt->chan[q]) gc_channel_close(rt->chan[q]);
    gc_device_close(rt->dev);
    free(rt->log);
    free(rt->names);
    free(rt->streams);
    free(rt->events);
    free(rt->allocs);
    free(rt->ops);
    free(rt->pub);
    free(rt);
}

gc_device_t *gcrt_device(gcrt_t *rt) { return rt ? rt->dev : NULL; }

/* ------------------------------------------------------------------ memory */
static const alloc_t *find_alloc(const gcrt_t *rt, uint64_t addr) {
    for (size_t i = 0; i < rt->nallocs; i++)
        if (addr >= rt->allocs[i].addr && addr - rt->allocs[i].addr < rt->allocs[i].size) return &rt->allocs[i];
    return NULL;
}

/* [addr, addr + bytes) inside one allocation; sets *kind. */
static gcrt_error_t check_range(gcrt_t *rt, const char *what, uint64_t addr, uint64_t bytes, gc_mem_kind_t *kind) {
    const alloc_t *a = find_alloc(rt, addr);
    if (!a)
        return fail(rt, GCRT_ERROR_OUT_OF_BOUNDS, "%s: address 0x%010llx is not inside any allocation of this runtime",
                    what, (unsigned long long)addr);
    if (bytes > a->size - (addr - a->addr))
        return fail(rt, GCRT_ERROR_OUT_OF_BOUNDS,
                    "%s: %llu bytes at 0x%010llx run %llu bytes past the end of the allocation [0x%010llx, +%llu)",
                    what, (unsigned long long)bytes, (unsigned long long)addr,
                    (unsigned long long)(bytes - (a->size - (addr - a->addr))), (unsigned long long)a->addr,
                    (unsigned long long)a->size);
    if (kind) *kind = a->kind;
    return GCRT_SUCCESS;
}

static gcrt_error_t do_malloc(gcrt_t *rt, uint64_t *addr, uint64_t bytes, gc_mem_kind_t kind) {
    if (!rt || !addr || bytes == 0) return fail(rt, GCRT_ERROR_INVALID_VALUE, "malloc: NULL pointer or 0 bytes");
    if (!grow((void **)&rt->allocs, &rt->allocs_cap, rt->nallocs + 1, sizeof *rt->allocs))
        return fail(rt, GCRT_ERROR_MEMORY_ALLOCATION, "malloc: host out of memory");
    gc_buf_t b;
    gc_status_t st = gc_mem_alloc(rt->dev, kind, bytes, 256, &b);
    if (st != GC_OK)
        return fail(rt, GCRT_ERROR_MEMORY_ALLOCATION, "malloc of %llu bytes of %s: %s", (unsigned long long)bytes,
                    kind == GC_MEM_VIDMEM ? "device memory" : "host memory", gc_device_last_error(rt->dev));
    rt->allocs[rt->nallocs++] = (alloc_t){.addr = b.addr, .size = bytes, .kind = kind, .buf = b};
    *addr = b.addr;
    return ok(rt);
}

gcrt_error_t gcrt_malloc(gcrt_t *rt, uint64_t *addr, uint64_t bytes) { return do_malloc(rt, addr, bytes, GC_MEM_VIDMEM); }
gcrt_error_t gcrt_malloc_host(gcrt_t *rt, uint64_t *addr, uint64_t bytes) {
    return do_malloc(rt, addr, bytes, GC_MEM_SYSMEM);
}

static bool all_landed(gcrt_t *rt, void *arg);
static gcrt_error_t wait_until(gcrt_t *rt, bool (*done)(gcrt_t *, void *), void *arg, const char *what);

/* Like cudaFree: work already pushed may still use the allocation (a queued copy, a kernel given
 * its address), so the range goes back to the allocator only once every op pushed so far has
 * completed; until then the device runs.  When that work cannot complete (a channel fault, the
 * synchronize budget), the error is returned and the allocation stays (gcrt_close frees it). */
gcrt_error_t gcrt_free(gcrt_t *rt, uint64_t addr) {
    static const char *const W = "gcrt_free";
    if (!rt) return GCRT_ERROR_INVALID_VALUE;
    for (size_t i = 0; i < rt->nallocs; i++)
        if (rt->allocs[i].addr == addr) {
            gcrt_error_t e = wait_until(rt, all_landed, NULL, W);
            if (e) return e;
            gc_mem_free(rt->dev, &rt->allocs[i].buf);
            rt->allocs[i] = rt->allocs[--rt->nallocs];
            return ok(rt);
        }
    return fail(rt, GCRT_ERROR_INVALID_VALUE, "%s: 0x%010llx is not the start of an allocation of this runtime (or "
                "was freed already)", W, (unsigned long long)addr);
}

gcrt_error_t gcrt_write(gcrt_t *rt, uint64_t addr, const void *src, size_t bytes) {
    if (!rt || (!src && bytes)) return fail(rt, GCRT_ERROR_INVALID_VALUE, "gcrt_write: NULL argument");
    gcrt_error_t e = check_range(rt, "gcrt_write", addr, bytes, NULL);
    if (e) return e;
    return from_gc(rt, gc_mem_write(rt->dev, addr, src, bytes), "gcrt_write");
}

gcrt_error_t gcrt_read(gcrt_t *rt, uint64_t addr, void *dst, size_t bytes) {
    if (!rt || (!dst && bytes)) return fail(rt, GCRT_ERROR_INVALID_VALUE, "gcrt_read: NULL argument");
    gcrt_error_t e = check_range(rt, "gcrt_read", addr, bytes, NULL);
    if (e) return e;
    return from_gc(rt, gc_mem_read(rt->dev, addr, dst, bytes), "gcrt_read");
}

/* ------------------------------------------------------------------ handles */
/* Look a stream up without dereferencing an unknown pointer; NULL is the default stream. */
static gcrt_stream_t *stream_of(gcrt_t *rt, gcrt_stream_t *s, const char *what) {
    if (!s) return &rt->default_stream;
    for (size_t i = 0; i < rt->nstreams; i++)
        if (rt->streams[i] == s) return s;
    fail(rt, GCRT_ERROR_INVALID_HANDLE, "%s: stream %p was not created by this runtime (or was destroyed)", what,
         (void *)s);
    return NULL;
}

static bool event_known(gcrt_t *rt, gcrt_event_t *e, const char *what) {
    for (size_t i = 0; e && i < rt->nevents; i++)
        if (rt->events[i] == e) return true;
    fail(rt, GCRT_ERROR_INVALID_HANDLE, "%s: event %p was not created by this runtime (or was destroyed)", what,
         (void *)e);
    return false;
}

static gcrt_error_t event_init(gcrt_t *rt, gcrt_event_t *e) {
    e->seq = 0;
    e->chan = -1;
    gc_status_t st = gc_mem_alloc(rt->dev, GC_MEM_VIDMEM, 16, 16, &e->slot);
    if (st == GC_OK) {
        uint8_t z[16] = {0};
        st = gc_mem_write(rt->dev, e->slot.addr, z, sizeof z);
    }
    return from_gc(rt, st, "event");
}

/* ------------------------------------------------------------------ streams */
gcrt_error_t gcrt_stream_create(gcrt_t *rt, gcrt_stream_t **s) { return gcrt_stream_create_with_priority(rt, s, 0); }

gcrt_error_t gcrt_stream_create_with_priority(gcrt_t *rt, gcrt_stream_t **out, int priority) {
    if (!rt || !out) return fail(rt, GCRT_ERROR_INVALID_VALUE, "gcrt_stream_create: NULL argument");
    *out = NULL;
    int least = 0, greatest = -(int)(rt->cfg.stream_priorities - 1);
    if (priority > least || priority < greatest)
        return fail(rt, GCRT_ERROR_INVALID_PRIORITY,
                    "stream priority %d is outside [%d (greatest), %d (least)]: lower numbers are higher priorities",
                    priority, greatest, least);
    if (!grow((void **)&rt->streams, &rt->streams_cap, rt->nstreams + 1, sizeof *rt->streams))
        return fail(rt, GCRT_ERROR_MEMORY_ALLOCATION, "gcrt_stream_create: host out of memory");
    gcrt_stream_t *s = calloc(1, sizeof *s);
    if (!s) return fail(rt, GCRT_ERROR_MEMORY_ALLOCATION, "gcrt_stream_create: host out of memory");
    gcrt_error_t e = event_init(rt, &s->done);
    if (e) {
        free(s);
        return e;
    }
    if ((e = event_init(rt, &s->xev))) {
        gc_mem_free(rt->dev, &s->done.slot);
        free(s);
        return e;
    }
    s->cur = -1;
    s->id = rt->stream_ids++;
    stream_set_prio(rt, s, priority);
    rt->streams[rt->nstreams++] = s;
    *out = s;
    return ok(rt);
}

gcrt_error_t gcrt_stream_destroy(gcrt_t *rt, gcrt_stream_t *s) {
    if (!rt) return GCRT_ERROR_INVALID_VALUE;
    if (!s) return fail(rt, GCRT_ERROR_INVALID_HANDLE, "gcrt_stream_destroy: the default stream cannot be destroyed");
    for (size_t i = 0; i < rt->nstreams; i++)
        if (rt->streams[i] == s) {
            /* as in CUDA, pending work still completes; the handle goes at once */
            gc_mem_free(rt->dev, &s->done.slot);
            gc_mem_free(rt->dev, &s->xev.slot);
            rt->streams[i] = rt->streams[--rt->nstreams];
            free(s);
            return ok(rt);
        }
    return fail(rt, GCRT_ERROR_INVALID_HANDLE, "gcrt_stream_destroy: stream %p was not created by this runtime", (void *)s);
}

gcrt_error_t gcrt_stream_get_priority(gcrt_t *rt, gcrt_stream_t *s, int *priority) {
    if (!rt || !priority) return fail(rt, GCRT_ERROR_INVALID_VALUE, "gcrt_stream_get_priority: NULL argument");
    if (!(s = stream_of(rt, s, "gcrt_stream_get_priority"))) return rt->last;
    *priority = s->prio;
    return ok(rt);
}

gcrt_error_t gcrt_stream_get_device_priority(gcrt_t *rt, gcrt_stream_t *s, uint32_t *dp) {
    if (!rt || !dp) return fail(rt, GCRT_ERROR_INVALID_VALUE, "gcrt_stream_get_device_priority: NULL argument");
    if (!(s = stream_of(rt, s, "gcrt_stream_get_device_priority"))) return rt->last;
    *dp = s->device_prio;
    return ok(rt);
}

gcrt_error_t gcrt_stream_get_copy_channel(gcrt_t *rt, gcrt_stream_t *s, uint32_t *cp, uint32_t *hw) {
    if (!rt || !cp || !hw) return fail(rt, GCRT_ERROR_INVALID_VALUE, "gcrt_stream_get_copy_channel: NULL argument");
    if (!(s = stream_of(rt, s, "gcrt_stream_get_copy_channel"))) return rt->last;
    *cp = s->copy_prio;
    *hw = gc_channel_id(rt->chan[s->copy_prio]);
    return ok(rt);
}

/* ------------------------------------------------------------------ pushing work */
static gcrt_error_t push(gcrt_t *rt, uint32_t q, gc_pushbuf_t *pb, const char *what) {
    if (pb->status != GC_OK)
        return fail(rt, GCRT_ERROR_INVALID_VALUE, "%s: pushbuffer overflow (internal)", what);
    return from_gc(rt, gc_channel_submit(rt->chan[q], pb), what);
}

static gc_status_t log_pull(gcrt_t *rt);
static gc_status_t log_program(gcrt_t *rt, uint32_t size_log2);

/* Read the stamps of ops in flight and the task log; true when every op is done.  A copy or
 * memset is done when its completion release landed; a kernel when its completion release
 * landed and its COMPLETE task log record was read (its start and end are the stamps of its
 * START and COMPLETE records: the compute engine runs several tasks at once, so only the TMU
 * knows when each one ran). */
static gc_status_t refresh_ops(gcrt_t *rt, bool *all_done) {
    bool all = true;
    gc_status_t st = log_pull(rt);
    if (st) return st;
    for (size_t i = 0; i < rt->nops; i++) {
        op_int_t *o = &rt->ops[i];
        if (o->pub.done) continue;
        if (!o->harvested) {
            uint32_t rec[8];
            if ((st = gc_mem_read(rt->dev, rt->stamps.addr + 32u * o->slot, rec, sizeof rec))) return st;
            /* A 16-byte release lands as two beats, payload first: it has landed once the stamp
             * (never 0: the slot was zeroed, and cycle 0 is reset) is there too. */
            uint32_t want = o->pub.seq + 1;
            uint64_t t_launch = ((uint64_t)rec[3] << 32) | rec[2], t_end = ((uint64_t)rec[7] << 32) | rec[6];
            if (rec[0] == want && t_launch && !o->pub.launched) {
                o->pub.launch_cycle = t_launch;
                o->pub.launched = true;
            }
            if (rec[4] == want && t_end && o->pub.launched) {
                o->harvested = true;
                if (o->pub.kind != GCRT_OP_KERNEL) {
                    /* the copy engine's record: word 1 is the low word of the cycle it took the
                     * command, the stamp the cycle its release was issued after the last data
                     * write; the start's high word is the end's (a copy lasts < 2^32 cycles) */
                    memcpy(o->pub.ce_record, &rec[4], sizeof o->pub.ce_record);
                    gc_copy_record_t cr = gc_copy_record(&rec[4]);
                    o->pub.end_cycle = cr.end;
                    o->pub.start_cycle = cr.start;
                }
            }
        }
        /* the TMD buffer (its address is the task id) is reused only once the COMPLETE record of
         * its kernel was read, so later records cannot be taken for that kernel's (log_apply);
         * a kernel whose records were lost keeps it until gcrt_close */
        if (o->has_kbuf && o->harvested && o->has_end) {
            gc_mem_free(rt->dev, &o->kbuf);
            o->has_kbuf = false;
        }
        o->pub.done = o->harvested && (o->pub.kind != GCRT_OP_KERNEL || o->has_end || o->pub.timing_lost);
        all = all && o->pub.done;
    }
    if (all_done) *all_done = all;
    return GC_OK;
}

static gcrt_error_t wait_all(gcrt_t *rt, const char *what);
static bool kernels_timed(gcrt_t *rt, void *arg);

/* A free stamp slot; when all are in use, wait for the device to drain and start over. */
static gcrt_error_t take_slot(gcrt_t *rt, uint32_t *slot) {
    if (rt->slot_next == STAMP_SLOTS) {
        gcrt_error_t e = wait_all(rt, "stamp slots");
        if (e) return e;
        rt->slot_next = 0;
    }
    *slot = rt->slot_next++;
    uint8_t z[32] = {0};
    return from_gc(rt, gc_mem_write(rt->dev, rt->stamps.addr + 32u * *slot, z, sizeof z), "stamp slot");
}

static uint32_t stream_chan(const gcrt_stream_t *s) { return s->cur >= 0 ? (uint32_t)s->cur : s->copy_prio; }
static gcrt_error_t cross(gcrt_t *rt, gcrt_stream_t *s, uint32_t to, gc_pushbuf_t *pb, const char *what);

/* Push one copy-engine op on stream s with the copy priorities' bracketing. */
static gcrt_error_t push_op(gcrt_t *rt, gcrt_stream_t *s, gcrt_op_kind_t kind, gcrt_memcpy_kind_t dir,
                            gc_copy_desc_t *d, uint64_t bytes, const char *tag) {
    if (!grow((void **)&rt->ops, &rt->ops_cap, rt->nops + 1, sizeof *rt->ops))
        return fail(rt, GCRT_ERROR_MEMORY_ALLOCATION, "host out of memory");
    uint32_t slot;
    gcrt_error_t e = take_slot(rt, &slot);
    if (e) return e;
    uint32_t q = s->copy_prio, p = rt->cfg.copy_priorities;
    uint32_t seq = (uint32_t)rt->nops;
    uint64_t stamp = rt->stamps.addr + 32u * slot;
    uint32_t words[PB_WORDS];
    gc_pushbuf_t pb;
    gc_pb_init(&pb, words, PB_WORDS);
    if ((e = cross(rt, s, q, &pb, kind == GCRT_OP_MEMSET ? "gcrt_memset_async" : "gcrt_memcpy_async"))) return e;
    bool prio = rt->cfg.copy_priorities_enabled;
    if (prio)
        for (uint32_t h = q + 1; h < p; h++)
            gc_pb_sem_acquire(&pb, rt->sems.addr + 16u * h, 0, GC_HOST_SEM_EXECUTE_OPERATION_ACQUIRE, false, true);
    if (prio && q > 0)
        gc_pb_sem_reduce(&pb, rt->sems.addr + 16u * q, 0xFFFFFFFFu, GC_HOST_SEM_EXECUTE_REDUCTION_INC, false, false);
    gc_pb_sem_release_ts(&pb, stamp, seq + 1, false, false);
    d->sem = GC_COPY_SEM_FOUR_WORD;
    d->sem_addr = stamp + 16;
    d->sem_payload = seq + 1;
    gc_pb_copy_desc(&pb, COPY_SUBCH, d);
    if (prio && q > 0)
        gc_pb_sem_reduce(&pb, rt->sems.addr + 16u * q, 0xFFFFFFFFu, GC_HOST_SEM_EXECUTE_REDUCTION_DEC, false, false);
    op_int_t *o = &rt->ops[rt->nops];
    memset(o, 0, sizeof *o);
    o->slot = slot;
    o->pub.seq = seq;
    o->pub.kind = kind;
    o->pub.dir = dir;
    snprintf(o->pub.tag, sizeof o->pub.tag, "%s", tag ? tag : (kind == GCRT_OP_MEMSET ? "memset" : "copy"));
    o->pub.stream_id = s == &rt->default_stream ? 0 : s->id;
    o->pub.stream_priority = s->prio;
    o->pub.copy_priority = q;
    o->pub.hw_channel = gc_channel_id(rt->chan[q]);
    o->pub.engine = rt->cfg.copy_runlist - 1;
    o->pub.bytes = bytes;
    o->pub.submit_cycle = gc_time_host(rt->dev);
    if ((e = push(rt, q, &pb, kind == GCRT_OP_MEMSET ? "gcrt_memset_async" : "gcrt_memcpy_async"))) return e;
    rt->nops++;
    return ok(rt);
}

gcrt_error_t gcrt_memcpy_async(gcrt_t *rt, uint64_t dst, uint64_t src, uint64_t bytes, gcrt_memcpy_kind_t kind,
                               gcrt_stream_t *s, const char *tag) {
    if (!rt) return GCRT_ERROR_INVALID_VALUE;
    if (!(s = stream_of(rt, s, "gcrt_memcpy_async"))) return rt->last;
    if (kind < GCRT_MEMCPY_HOST_TO_DEVICE || kind > GCRT_MEMCPY_HOST_TO_HOST)
        return fail(rt, GCRT_ERROR_INVALID_MEMCPY_DIRECTION, "gcrt_memcpy_async: unknown copy kind %d", (int)kind);
    if (bytes > 0xFFFFFFFFull)
        return fail(rt, GCRT_ERROR_INVALID_VALUE, "gcrt_memcpy_async: %llu bytes: at most 4 GiB - 1 per copy",
                    (unsigned long long)bytes);
    if (bytes == 0) return ok(rt);
    gc_mem_kind_t dk, sk;
    gcrt_error_t e;
    if ((e = check_range(rt, "gcrt_memcpy_async destination", dst, bytes, &dk)) ||
        (e = check_range(rt, "gcrt_memcpy_async source", src, bytes, &sk)))
        return e;
    static const char *const kn[] = {"", "HOST_TO_DEVICE", "DEVICE_TO_HOST", "DEVICE_TO_DEVICE", "HOST_TO_HOST"};
    gc_mem_kind_t want_s = (kind == GCRT_MEMCPY_HOST_TO_DEVICE || kind == GCRT_MEMCPY_HOST_TO_HOST) ? GC_MEM_SYSMEM
                                                                                                   : GC_MEM_VIDMEM;
    gc_mem_kind_t want_d = (kind == GCRT_MEMCPY_DEVICE_TO_HOST || kind == GCRT_MEMCPY_HOST_TO_HOST) ? GC_MEM_SYSMEM
                                                                                                    : GC_MEM_VIDMEM;
    if (sk != want_s || dk != want_d)
        return fail(rt, GCRT_ERROR_INVALID_MEMCPY_DIRECTION,
                    "gcrt_memcpy_async %s: source 0x%010llx is %s memory and destination 0x%010llx is %s memory",
                    kn[kind], (unsigned long long)src, sk == GC_MEM_SYSMEM ? "host" : "device",
                    (unsigned long long)dst, dk == GC_MEM_SYSMEM ? "host" : "device");
    gc_copy_desc_t d = {.dst = dst, .src = src, .line_bytes = (uint32_t)bytes, .line_count = 1};
    return push_op(rt, s, GCRT_OP_COPY, kind, &d, bytes, tag);
}

gcrt_error_t gcrt_memset_async(gcrt_t *rt, uint64_t dst, int value, uint64_t bytes, gcrt_stream_t *s,
                               const char *tag) {
    if (!rt) return GCRT_ERROR_INVALID_VALUE;
    if (!(s = stream_of(rt, s, "gcrt_memset_async"))) return rt->last;
    if (bytes > 0xFFFFFFFFull)
        return fail(rt, GCRT_ERROR_INVALID_VALUE, "gcrt_memset_async: %llu bytes: at most 4 GiB - 1 per memset",
                    (unsigned long long)bytes);
    if (bytes == 0) return ok(rt);
    gcrt_error_t e = check_range(rt, "gcrt_memset_async", dst, bytes, NULL);
    if (e) return e;
    gc_copy_desc_t d = {.dst = dst, .line_bytes = (uint32_t)bytes, .line_count = 1, .fill_bytes = 1,
                        .fill_value = (uint32_t)value & 0xFFu};
    return push_op(rt, s, GCRT_OP_MEMSET, 0, &d, bytes, tag);
}

/* ------------------------------------------------------------------ waiting */
/* A channel's error as a runtime error; for the compute channel with the kernel's fault record. */
static gcrt_error_t chan_check(gcrt_t *rt, uint32_t idx, const char *what) {
    if (!rt->chan[idx]) return GCRT_SUCCESS;
    gc_status_t st = gc_channel_check(rt->chan[idx]);
    if (st == GC_OK) return GCRT_SUCCESS;
    gcrt_error_t e = from_gc(rt, st, what);
    gc_channel_error_t ce;
    gc_compute_fault_t f;
    if (idx >= CCHAN && gc_channel_error(rt->chan[idx], &ce) == GC_OK && ce.cause == GC_ERROR_CAUSE_TASK_FAULT &&
        gc_compute_fault_read(rt->dev, &f) == GC_OK) {
        char buf[300];
        gc_compute_fault_format(&f, buf, sizeof buf);
        size_t n = strlen(rt->msg);
        snprintf(rt->msg + n, sizeof rt->msg - n, "; kernel fault: %s", buf);
    }
    return e;
}

/* Every compute channel: a kernel fault anywhere is sticky for the whole runtime. */
static gcrt_error_t compute_check(gcrt_t *rt, const char *what) {
    for (uint32_t k = 0; k < rt->ncompute; k++) {
        gcrt_error_t e = chan_check(rt, CCHAN + k, what);
        if (e) return e;
    }
    return GCRT_SUCCESS;
}

/* Run until done() holds or a channel faults or the budget runs out.  The budget is device cycles
 * (the device's cycle counter from entry): the register and memory reads of the polls are charged
 * like the run steps, and the last step stops at the budget, so the wait gives up after at most
 * sync_cycles plus one round of polls. */
static gcrt_error_t wait_until(gcrt_t *rt, bool (*done)(gcrt_t *, void *), void *arg, const char *what) {
    uint64_t t0 = gc_device_cycles(rt->dev), step = gc_device_config(rt->dev)->poll_cycles;
    for (;;) {
        if (done(rt, arg)) return ok(rt);
        if (rt->last == GCRT_ERROR_BACKEND) return rt->last;
        for (uint32_t q = 0; q < rt->cfg.copy_priorities; q++) {
            gcrt_error_t e = chan_check(rt, q, what);
            if (e) return e;
        }
        gcrt_error_t ce = compute_check(rt, what);
        if (ce) return ce;
        uint64_t spent = gc_device_cycles(rt->dev) - t0;
        if (spent >= rt->cfg.sync_cycles) {
            fail(rt, GCRT_ERROR_TIMEOUT, "%s: not done after %llu cycles (budget %llu; the device state was printed)",
                 what, (unsigned long long)spent, (unsigned long long)rt->cfg.sync_cycles);
            gc_device_dump_state(rt->dev, stderr);
            return rt->last;
        }
        gc_status_t st = gc_device_run(rt->dev, rt->cfg.sync_cycles - spent < step ? rt->cfg.sync_cycles - spent : step);
        if (st) return from_gc(rt, st, what);
    }
}

/* An event's record has landed: payload reached its number and the stamp (second beat) is there. */
static bool ev_landed(gcrt_t *rt, void *arg) {
    gcrt_event_t *e = arg;
    if (e->seq == 0) return true;
    uint32_t v[4] = {0};
    if (gc_mem_read(rt->dev, e->slot.addr, v, sizeof v) != GC_OK) {
        fail(rt, GCRT_ERROR_BACKEND, "event read failed: %s", gc_device_last_error(rt->dev));
        return false;
    }
    return (int32_t)(v[0] - e->seq) >= 0 && (v[2] | v[3]) != 0;
}

static bool all_landed(gcrt_t *rt, void *arg) {
    (void)arg;
    bool all = false;
    if (refresh_ops(rt, &all) != GC_OK) fail(rt, GCRT_ERROR_BACKEND, "stamp read failed: %s", gc_device_last_error(rt->dev));
    return all;
}

static gcrt_error_t wait_all(gcrt_t *rt, const char *what) {
    gcrt_error_t e = wait_until(rt, all_landed, NULL, what);
    if (e) return e;
    for (uint32_t q = 0; q < rt->cfg.copy_priorities; q++) {
        gc_status_t st = gc_channel_wait_idle(rt->chan[q]);
        if (st) return from_gc(rt, st, what);
    }
    for (uint32_t k = 0; k < rt->ncompute; k++)
        if (gc_channel_wait_idle(rt->chan[CCHAN + k]) != GC_OK) return chan_check(rt, CCHAN + k, what);
    return ok(rt);
}

static gcrt_error_t record(gcrt_t *rt, gcrt_event_t *e, gcrt_stream_t *s, const char *what) {
    if (ev_landed(rt, e)) { /* clear the old stamp so a landed payload without its stamp is seen as pending */
        uint32_t z[4] = {e->seq, 0, 0, 0};
        gc_status_t st = gc_mem_write(rt->dev, e->slot.addr, z, sizeof z);
        if (st) return from_gc(rt, st, what);
    }
    uint32_t words[16];
    gc_pushbuf_t pb;
    gc_pb_init(&pb, words, 16);
    uint32_t seq = e->seq + 1;
    gc_pb_sem_release_ts(&pb, e->slot.addr, seq, false, true);
    uint32_t c = stream_chan(s);
    gcrt_error_t err = push(rt, c, &pb, what);
    if (err) return err;
    e->seq = seq;
    e->chan = (int32_t)c;
    return ok(rt);
}

/* Stream s's next work goes to channel `to`: when its last work was on the other channel, record
 * the stream's internal event there and let pb (for `to`) acquire it first. */
static gcrt_error_t cross(gcrt_t *rt, gcrt_stream_t *s, uint32_t to, gc_pushbuf_t *pb, const char *what) {
    if (s->cur >= 0 && (uint32_t)s->cur != to) {
        gcrt_error_t e = record(rt, &s->xev, s, what);
        if (e) return e;
        gc_pb_sem_acquire(pb, s->xev.slot.addr, s->xev.seq, GC_HOST_SEM_EXECUTE_OPERATION_ACQ_CIRC_GEQ, false, true);
    }
    s->cur = (int32_t)to;
    return GCRT_SUCCESS;
}

gcrt_error_t gcrt_stream_synchronize(gcrt_t *rt, gcrt_stream_t *s) {
    if (!rt) return GCRT_ERROR_INVALID_VALUE;
    if (!(s = stream_of(rt, s, "gcrt_stream_synchronize"))) return rt->last;
    gcrt_error_t e = record(rt, &s->done, s, "gcrt_stream_synchronize");
    if (e) return e;
    if ((e = wait_until(rt, ev_landed, &s->done, "gcrt_stream_synchronize"))) return e;
    /* and the kernels that completed have their COMPLETE task log records (their end) */
    return wait_until(rt, kernels_timed, NULL, "gcrt_stream_synchronize");
}

/* Complete when every copy / memset pushed on the stream and its last synchronize marker have
 * landed (no work is pushed: querying does not change the stream). */
gcrt_error_t gcrt_stream_query(gcrt_t *rt, gcrt_stream_t *s) {
    if (!rt) return GCRT_ERROR_INVALID_VALUE;
    if (!(s = stream_of(rt, s, "gcrt_stream_query"))) return rt->last;
    gcrt_error_t ce = chan_check(rt, stream_chan(s), "gcrt_stream_query");
    if (!ce) ce = compute_check(rt, "gcrt_stream_query"); /* a kernel fault is sticky */
    if (ce) return ce;
    gc_status_t st = refresh_ops(rt, NULL);
    if (st) return from_gc(rt, st, "gcrt_stream_query");
    uint32_t id = s == &rt->default_stream ? 0 : s->id;
    for (size_t i = 0; i < rt->nops; i++)
        if (rt->ops[i].pub.stream_id == id && !rt->ops[i].pub.done) return GCRT_ERROR_NOT_READY;
    return ev_landed(rt, &s->done) ? ok(rt) : GCRT_ERROR_NOT_READY;
}

gcrt_error_t gcrt_device_synchronize(gcrt_t *rt) {
    if (!rt) return GCRT_ERROR_INVALID_VALUE;
    return wait_all(rt, "gcrt_device_synchronize");
}

/* ------------------------------------------------------------------ events */
gcrt_error_t gcrt_event_create(gcrt_t *rt, gcrt_event_t **out) {
    if (!rt || !out) return fail(rt, GCRT_ERROR_INVALID_VALUE, "gcrt_event_create: NULL argument");
    *out = NULL;
    if (!grow((void **)&rt->events, &rt->events_cap, rt->nevents + 1, sizeof *rt->events))
        return fail(rt, GCRT_ERROR_MEMORY_ALLOCATION, "gcrt_event_create: host out of memory");
    gcrt_event_t *e = calloc(1, sizeof *e);
    if (!e) return fail(rt, GCRT_ERROR_MEMORY_ALLOCATION, "gcrt_event_create: host out of memory");
    gcrt_error_t err = event_init(rt, e);
    if (err) {
        free(e);
        return err;
    }
    rt->events[rt->nevents++] = e;
    *out = e;
    return ok(rt);
}

gcrt_error_t gcrt_event_destroy(gcrt_t *rt, gcrt_event_t *e) {
    if (!rt) return GCRT_ERROR_INVALID_VALUE;
    if (!event_known(rt, e, "gcrt_event_destroy")) return rt->last;
    for (size_t i = 0; i < rt->nevents; i++)
        if (rt->events[i] == e) {
            rt->events[i] = rt->events[--rt->nevents];
            break;
        }
    gc_mem_free(rt->dev, &e->slot);
    free(e);
    return ok(rt);
}

gcrt_error_t gcrt_event_record(gcrt_t *rt, gcrt_event_t *e, gcrt_stream_t *s) {
    if (!rt) return GCRT_ERROR_INVALID_VALUE;
    if (!event_known(rt, e, "gcrt_event_record")) return rt->last;
    if (!(s = stream_of(rt, s, "gcrt_event_record"))) return rt->last;
    return record(rt, e, s, "gcrt_event_record");
}

gcrt_error_t gcrt_event_query(gcrt_t *rt, gcrt_event_t *e) {
    if (!rt) return GCRT_ERROR_INVALID_VALUE;
    if (!event_known(rt, e, "gcrt_event_query")) return rt->last;
    if (e->chan >= 0) {
        gcrt_error_t ce = chan_check(rt, (uint32_t)e->chan, "gcrt_event_query");
        if (!ce) ce = compute_check(rt, "gcrt_event_query");
        if (ce) return ce;
    }
    return ev_landed(rt, e) ? ok(rt) : GCRT_ERROR_NOT_READY;
}

gcrt_error_t gcrt_event_synchronize(gcrt_t *rt, gcrt_event_t *e) {
    if (!rt) return GCRT_ERROR_INVALID_VALUE;
    if (!event_known(rt, e, "gcrt_event_synchronize")) return rt->last;
    return wait_until(rt, ev_landed, e, "gcrt_event_synchronize");
}

gcrt_error_t gcrt_event_elapsed_cycles(gcrt_t *rt, gcrt_event_t *a, gcrt_event_t *b, uint64_t *cycles) {
    if (!rt || !cycles) return fail(rt, GCRT_ERROR_INVALID_VALUE, "gcrt_event_elapsed_cycles: NULL argument");
    if (!event_known(rt, a, "gcrt_event_elapsed_cycles") || !event_known(rt, b, "gcrt_event_elapsed_cycles"))
        return rt->last;
    if (a->seq == 0 || b->seq == 0)
        return fail(rt, GCRT_ERROR_INVALID_VALUE, "gcrt_event_elapsed_cycles: an event was never recorded");
    if (!ev_landed(rt, a) || !ev_landed(rt, b)) return fail(rt, GCRT_ERROR_NOT_READY, "gcrt_event_elapsed_cycles: not complete");
    uint32_t ra[4], rb[4];
    if (gc_mem_read(rt->dev, a->slot.addr, ra, 16) || gc_mem_read(rt->dev, b->slot.addr, rb, 16))
        return from_gc(rt, GC_ERR_BACKEND, "gcrt_event_elapsed_cycles");
    uint64_t ta = ((uint64_t)ra[3] << 32) | ra[2], tb = ((uint64_t)rb[3] << 32) | rb[2];
    *cycles = tb - ta;
    return ok(rt);
}

gcrt_error_t gcrt_stream_wait_event(gcrt_t *rt, gcrt_stream_t *s, gcrt_event_t *e) {
    if (!rt) return GCRT_ERROR_INVALID_VALUE;
    if (!(s = stream_of(rt, s, "gcrt_stream_wait_event"))) return rt->last;
    if (!event_known(rt, e, "gcrt_stream_wait_event")) return rt->last;
    if (e->seq == 0) return ok(rt); /* never recorded: nothing to wait for */
    uint32_t words[16];
    gc_pushbuf_t pb;
    gc_pb_init(&pb, words, 16);
    gc_pb_sem_acquire(&pb, e->slot.addr, e->seq, GC_HOST_SEM_EXECUTE_OPERATION_ACQ_CIRC_GEQ, false, true);
    uint32_t c = stream_chan(s);
    gcrt_error_t err = push(rt, c, &pb, "gcrt_stream_wait_event");
    if (!err) s->cur = (int32_t)c; /* later work on the other channel must follow this acquire */
    return err;
}

gcrt_error_t gcrt_copy_semaphore(gcrt_t *rt, uint32_t q, uint32_t *value) {
    if (!rt || !value) return fail(rt, GCRT_ERROR_INVALID_VALUE, "gcrt_copy_semaphore: NULL argument");
    if (q < 1 || q >= rt->cfg.copy_priorities)
        return fail(rt, GCRT_ERROR_INVALID_VALUE, "copy semaphore S[%u]: they are S[1..%u]", q, rt->cfg.copy_priorities - 1);
    return from_gc(rt, gc_mem_read(rt->dev, rt->sems.addr + 16u * q, value, 4), "gcrt_copy_semaphore");
}

/* ------------------------------------------------------------------ what happened */
gcrt_error_t gcrt_ops(gcrt_t *rt, const gcrt_op_t **ops, size_t *count) {
    if (!rt || !ops || !count) return fail(rt, GCRT_ERROR_INVALID_VALUE, "gcrt_ops: NULL argument");
    bool all;
    gc_status_t st = refresh_ops(rt, &all);
    if (st) return from_gc(rt, st, "gcrt_ops");
    free(rt->pub);
    rt->pub = calloc(rt->nops ? rt->nops : 1, sizeof *rt->pub);
    if (!rt->pub) return fail(rt, GCRT_ERROR_MEMORY_ALLOCATION, "gcrt_ops: host out of memory");
    for (size_t i = 0; i < rt->nops; i++) {
        rt->pub[i] = rt->ops[i].pub;
        if (rt->pub[i].timing_lost) rt->pub[i].start_cycle = rt->pub[i].end_cycle = 0; /* a record may be missing */
    }
    *ops = rt->pub;
    *count = rt->nops;
    return ok(rt);
}

/* ------------------------------------------------------------------ kernels */
gcrt_error_t gcrt_load_image(gcrt_t *rt, const char *path, gc_elf_t **image) {
    if (!rt || !path || !image) return fail(rt, GCRT_ERROR_INVALID_VALUE, "gcrt_load_image: NULL argument");
    *image = NULL;
    if (!grow((void **)&rt->images, &rt->images_cap, rt->nimages + 1, sizeof *rt->images))
        return fail(rt, GCRT_ERROR_MEMORY_ALLOCATION, "gcrt_load_image: host out of memory");
    char err[256];
    gc_elf_t *k = NULL;
    gc_status_t st = gc_elf_read_file(path, &k, err, sizeof err);
    if (st != GC_OK) return fail(rt, st == GC_ERR_NO_MEMORY ? GCRT_ERROR_MEMORY_ALLOCATION : GCRT_ERROR_INVALID_VALUE,
                                 "gcrt_load_image: %s", err);
    if ((st = gc_elf_load(rt->dev, k)) != GC_OK) {
        gcrt_error_t e = fail(rt, st == GC_ERR_NO_MEMORY ? GCRT_ERROR_MEMORY_ALLOCATION : GCRT_ERROR_INVALID_VALUE,
                              "gcrt_load_image %s: %s", path, gc_device_last_error(rt->dev));
        gc_elf_free(k);
        return e;
    }
    rt->images[rt->nimages++] = k;
    *image = k;
    return ok(rt);
}

/* Is `image` one gcrt_load_image of this runtime returned and not unloaded?  (Compared as a
 * pointer only: an unloaded or foreign image is never dereferenced.) */
static bool image_known(gcrt_t *rt, const gc_elf_t *image, const char *what) {
    for (size_t i = 0; image && i < rt->nimages; i++)
        if (rt->images[i] == image) return true;
    fail(rt, GCRT_ERROR_INVALID_HANDLE,
         "%s: image %p was not loaded by this runtime's gcrt_load_image (or was unloaded)", what, (const void *)image);
    return false;
}

/* Kernels pushed before the unload may still run the image's code: wait for them (like
 * gcrt_free), then give its range back. */
gcrt_error_t gcrt_unload_image(gcrt_t *rt, gc_elf_t *image) {
    static const char *const W = "gcrt_unload_image";
    if (!rt) return GCRT_ERROR_INVALID_VALUE;
    if (!image_known(rt, image, W)) return rt->last;
    gcrt_error_t e = wait_until(rt, all_landed, NULL, W);
    if (e) return e;
    for (size_t i = 0; i < rt->nimages; i++)
        if (rt->images[i] == image) {
            rt->images[i] = rt->images[--rt->nimages];
            break;
        }
    gc_status_t st = gc_elf_unload(rt->dev, image);
    gc_elf_free(image);
    return from_gc(rt, st, W);
}

uint32_t gcrt_kernel_ptr(uint64_t dev_addr) { return gc_simt_ptr(dev_addr); }

/* Read COMPUTE_CONFIG and TMU_CONFIG once; GCRT_ERROR_NOT_SUPPORTED without a compute engine. */
static gcrt_error_t compute_probe(gcrt_t *rt, const char *what) {
    if (rt->compute_probed) return GCRT_SUCCESS;
    const char *be = gc_device_config(rt->dev)->backend;
    uint32_t cfg = 0, tc = 0;
    if (rt->compute_missing || gc_mmio_read(rt->dev, GC_REG_COMPUTE_CONFIG, &cfg) != GC_OK || cfg == 0) {
        rt->compute_missing = true;
        return fail(rt, GCRT_ERROR_NOT_SUPPORTED, "%s: the '%s' backend has no compute engine (COMPUTE_CONFIG does not answer)",
                    what, be ? be : "?");
    }
    rt->lanes = GC_COMPUTE_CONFIG_LANES_GET(cfg);
    rt->warps = GC_COMPUTE_CONFIG_WARPS_GET(cfg);
    rt->smem_bytes = GC_COMPUTE_CONFIG_SMEM_KB_GET(cfg) * 1024u;
    if (gc_mmio_read(rt->dev, GC_REG_COMPUTE_TMU_CONFIG, &tc) != GC_OK) tc = 0;
    rt->tmu.slots = GC_COMPUTE_TMU_CONFIG_SLOTS_GET(tc);
    rt->tmu.entries = GC_COMPUTE_TMU_CONFIG_ENTRIES_GET(tc);
    rt->tmu.prio_levels = GC_COMPUTE_TMU_CONFIG_PRIO_LEVELS_GET(tc);
    if (rt->tmu.slots == 0) rt->tmu.slots = GC_TMU_SLOTS;
    if (rt->tmu.entries == 0) rt->tmu.entries = GC_TMU_ENTRIES;
    if (rt->tmu.prio_levels == 0) rt->tmu.prio_levels = GC_TMU_PRIO_LEVELS;
    rt->compute_probed = true;
    return GCRT_SUCCESS;
}

/* The index in rt->chan of the compute channel of device priority dp, opened on first use
 * (runlist 0, compute class bound, made ready). */
static gcrt_error_t compute_chan(gcrt_t *rt, uint32_t dp, uint32_t *idx, const char *what) {
    gcrt_error_t e = compute_probe(rt, what);
    if (e) return e;
    for (uint32_t k = 0; k < rt->ncompute; k++)
        if (rt->cprio[k] == dp) {
            *idx = CCHAN + k;
            return GCRT_SUCCESS;
        }
    if (rt->ncompute == MAX_COMPUTE)
        return fail(rt, GCRT_ERROR_NOT_SUPPORTED, "%s: device priority %u would need a %uth compute channel (at most %u)",
                    what, dp, MAX_COMPUTE + 1, MAX_COMPUTE);
    gc_channel_config_t cc;
    gc_channel_config_init(&cc);
    cc.runlist = 0;
    gc_channel_t *ch = NULL;
    gc_status_t st = gc_channel_open(rt->dev, &cc, &ch);
    if (st == GC_OK) st = gc_compute_bind(ch, GC_COMPUTE_SUBCH);
    if (st == GC_OK) st = gc_channel_wait_idle(ch);
    if (st != GC_OK) {
        gcrt_error_t fe = from_gc(rt, st, "opening a compute channel");
        if (ch) gc_channel_close(ch);
        return fe;
    }
    rt->cprio[rt->ncompute] = dp;
    rt->chan[CCHAN + rt->ncompute] = ch;
    *idx = CCHAN + rt->ncompute++;
    return GCRT_SUCCESS;
}

gcrt_error_t gcrt_compute_channel(gcrt_t *rt, uint32_t *hw_channel) {
    return gcrt_stream_get_compute_channel(rt, NULL, hw_channel);
}

gcrt_error_t gcrt_stream_get_compute_channel(gcrt_t *rt, gcrt_stream_t *s, uint32_t *hw_channel) {
    static const char *const W = "gcrt_stream_get_compute_channel";
    if (!rt || !hw_channel) return fail(rt, GCRT_ERROR_INVALID_VALUE, "%s: NULL argument", W);
    if (!(s = stream_of(rt, s, W))) return rt->last;
    uint32_t idx;
    gcrt_error_t e = compute_chan(rt, s->device_prio, &idx, W);
    if (e) return e;
    *hw_channel = gc_channel_id(rt->chan[idx]);
    return ok(rt);
}

void gcrt_launch_attr_init(gcrt_launch_attr_t *a) {
    memset(a, 0, sizeof *a);
    a->device_priority = -1;
}

gcrt_error_t gcrt_launch(gcrt_t *rt, gcrt_stream_t *s, const gc_elf_t *image, const char *kernel,
                         const uint32_t grid[3], const uint32_t block[3], const void *args, size_t args_bytes,
                         uint32_t shared_bytes) {
    return gcrt_launch_ex(rt, s, image, kernel, grid, block, args, args_bytes, shared_bytes, NULL);
}

gcrt_error_t gcrt_launch_ex(gcrt_t *rt, gcrt_stream_t *s, const gc_elf_t *image, const char *kernel,
                            const uint32_t grid[3], const uint32_t block[3], const void *args, size_t args_bytes,
                            uint32_t shared_bytes, const gcrt_launch_attr_t *attr) {
    static const char *const W = "gcrt_launch";
    if (!rt) return GCRT_ERROR_INVALID_VALUE;
    if (!(s = stream_of(rt, s, W))) return rt->last;
    if (!image || !kernel || !grid || !block || (!args && args_bytes))
        return fail(rt, GCRT_ERROR_INVALID_VALUE, "%s: NULL image, kernel name, grid, block or arguments", W);
    if (!image_known(rt, image, W)) return rt->last;
    if (args_bytes > MAX_ARGS_BYTES)
        return fail(rt, GCRT_ERROR_INVALID_VALUE, "%s: %zu bytes of arguments: at most %u", W, args_bytes, MAX_ARGS_BYTES);
    gcrt_launch_attr_t def;
    if (!attr) {
        gcrt_launch_attr_init(&def);
        attr = &def;
    }
    gcrt_error_t e = compute_probe(rt, W);
    if (e) return e;
    /* the device priority: the stream's (nested-priority mapping) or the attribute's; checked against the
     * TMU before anything is allocated or pushed */
    int64_t dp = attr->device_priority < 0 ? (int64_t)s->device_prio : (int64_t)attr->device_priority;
    if (attr->device_priority < -1 || dp >= (int64_t)rt->tmu.prio_levels)
        return fail(rt, GCRT_ERROR_INVALID_PRIORITY,
                    "%s %s: device priority %lld is not a valid device priority: the task management unit has %u "
                    "(0 .. %u, COMPUTE.TMU_CONFIG.PRIO_LEVELS)",
                    W, kernel, (long long)(attr->device_priority < -1 ? attr->device_priority : dp), rt->tmu.prio_levels,
                    rt->tmu.prio_levels - 1);
    if (attr->queue % GC_TASK_QUEUE_ALIGN)
        return fail(rt, GCRT_ERROR_INVALID_VALUE, "%s %s: queue header 0x%010llx is not %u-aligned (structs.TASK_QUEUE)",
                    W, kernel, (unsigned long long)attr->queue, GC_TASK_QUEUE_ALIGN);
    if ((e = compute_check(rt, W))) return e; /* a kernel fault is sticky */
    uint32_t pc = 0;
    if (gc_elf_symbol(image, kernel, &pc) != GC_OK)
        return fail(rt, GCRT_ERROR_INVALID_KERNEL, "%s: kernel '%s' is not a symbol of the image", W, kernel);
    for (int i = 0; i < 3; i++)
        if (grid[i] == 0 || block[i] == 0)
            return fail(rt, GCRT_ERROR_INVALID_CONFIGURATION, "%s %s: grid %u x %u x %u, block %u x %u x %u: every dimension must be >= 1",
                        W, kernel, grid[0], grid[1], grid[2], block[0], block[1], block[2]);
    uint64_t threads = (uint64_t)block[0] * block[1] * block[2], most = (uint64_t)rt->warps * rt->lanes;
    if (threads > most || block[0] > GC_TMD_CTA_DIM_XY_X_MASK || block[1] > GC_TMD_CTA_DIM_XY_Y_MASK ||
        block[2] > GC_TMD_CTA_DIM_Z_Z_MASK)
        return fail(rt, GCRT_ERROR_INVALID_CONFIGURATION,
                    "%s %s: block %u x %u x %u = %llu threads: a CTA has at most %llu (%u warps x %u lanes)", W, kernel,
                    block[0], block[1], block[2], (unsigned long long)threads, (unsigned long long)most, rt->warps,
                    rt->lanes);
    if (shared_bytes > rt->smem_bytes)
        return fail(rt, GCRT_ERROR_INVALID_CONFIGURATION, "%s %s: %u bytes of shared memory: an SM has %u", W, kernel,
                    shared_bytes, rt->smem_bytes);
    uint32_t cidx;
    if ((e = compute_chan(rt, (uint32_t)dp, &cidx, W))) return e;
    /* the task log times every kernel (START / COMPLETE records): on before the first launch */
    gc_status_t st = rt->log_on ? GC_OK : log_program(rt, LOG_DEFAULT_LOG2);
    if (st != GC_OK) return from_gc(rt, st, "task log");
    if (!grow((void **)&rt->ops, &rt->ops_cap, rt->nops + 1, sizeof *rt->ops))
        return fail(rt, GCRT_ERROR_MEMORY_ALLOCATION, "host out of memory");
    /* the TMD at +0, the parameter block after it */
    uint32_t poff = (GC_TMD_SIZE + 15u) & ~15u;
    gc_buf_t kb;
    st = gc_mem_alloc(rt->dev, GC_MEM_VIDMEM, poff + (args_bytes ? args_bytes : 16), GC_TMD_ALIGN, &kb);
    if (st != GC_OK)
        return fail(rt, GCRT_ERROR_MEMORY_ALLOCATION, "%s: TMD and parameters: %s", W, gc_device_last_error(rt->dev));
    uint32_t slot;
    if ((e = take_slot(rt, &slot))) {
        gc_mem_free(rt->dev, &kb);
        return e;
    }
    uint32_t seq = (uint32_t)rt->nops;
    uint64_t stamp = rt->stamps.addr + 32u * slot;
    gc_tmd_t t;
    gc_tmd_init(&t);
    t.entry_pc = pc;
    t.param = gc_simt_ptr(kb.addr + poff);
    for (int i = 0; i < 3; i++) t.grid[i] = grid[i], t.cta[i] = block[i];
    t.smem_bytes = shared_bytes;
    t.priority = (uint32_t)dp;
    t.depth = 1; /* a host launch */
    t.max_depth = rt->cfg.max_nesting_depth;
    t.queue_head = attr->queue_head;
    t.queue = attr->queue != 0;
    t.queue_addr = attr->queue;
    t.sem_release = true;
    t.sem_four_word = true;
    t.sem_addr = stamp + 16;
    t.sem_payload = seq + 1;
    st = args_bytes ? gc_mem_write(rt->dev, kb.addr + poff, args, args_bytes) : GC_OK;
    if (st == GC_OK) st = gc_compute_write_tmd(rt->dev, &t, &kb);
    if (st != GC_OK) {
        gc_mem_free(rt->dev, &kb);
        return from_gc(rt, st, W);
    }
    uint32_t words[32];
    gc_pushbuf_t pb;
    gc_pb_init(&pb, words, 32);
    if ((e = cross(rt, s, cidx, &pb, W))) {
        gc_mem_free(rt->dev, &kb);
        return e;
    }
    gc_pb_sem_release_ts(&pb, stamp, seq + 1, false, false);
    gc_pb_compute_launch(&pb, GC_COMPUTE_SUBCH, kb.addr);
    op_int_t *o = &rt->ops[rt->nops];
    memset(o, 0, sizeof *o);
    o->slot = slot;
    o->has_kbuf = true;
    o->kbuf = kb;
    o->pub.seq = seq;
    o->pub.kind = GCRT_OP_KERNEL;
    snprintf(o->pub.tag, sizeof o->pub.tag, "%s", kernel);
    o->pub.stream_id = s == &rt->default_stream ? 0 : s->id;
    o->pub.stream_priority = s->prio;
    o->pub.hw_channel = gc_channel_id(rt->chan[cidx]);
    o->pub.engine = GCRT_COMPUTE_ENGINE;
    o->pub.bytes = args_bytes;
    o->pub.task = (uint32_t)(kb.addr >> 8);
    o->pub.device_priority = (uint32_t)dp;
    o->pub.submit_cycle = gc_time_host(rt->dev);
    if ((e = push(rt, cidx, &pb, W))) {
        gc_mem_free(rt->dev, &kb);
        return e;
    }
    rt->nops++;
    return ok(rt);
}

/* ------------------------------------------------------------------ task management unit */
gcrt_error_t gcrt_tmu_config(gcrt_t *rt, gcrt_tmu_config_t *cfg) {
    if (!rt || !cfg) return fail(rt, GCRT_ERROR_INVALID_VALUE, "gcrt_tmu_config: NULL argument");
    gcrt_error_t e = compute_probe(rt, "gcrt_tmu_config");
    if (e) return e;
    *cfg = rt->tmu;
    return ok(rt);
}

gcrt_error_t gcrt_get_device_properties(gcrt_t *rt, gc_device_props_t *prop) {
    if (!rt || !prop) return fail(rt, GCRT_ERROR_INVALID_VALUE, "gcrt_get_device_properties: NULL argument");
    return from_gc(rt, gc_device_get_props(rt->dev, prop), "gcrt_get_device_properties");
}

gcrt_error_t gcrt_read_counters(gcrt_t *rt, gc_counters_t *counters) {
    if (!rt || !counters) return fail(rt, GCRT_ERROR_INVALID_VALUE, "gcrt_read_counters: NULL argument");
    return from_gc(rt, gc_counters_read(rt->dev, counters), "gcrt_read_counters");
}

/* Point the TMU at a zeroed ring of 2^size_log2 records (LOG_PUT restarts at 0). */
static gc_status_t log_program(gcrt_t *rt, uint32_t size_log2) {
    gc_status_t st = GC_OK;
    if (rt->log_on) st = gc_mmio_write(rt->dev, GC_REG_COMPUTE_LOG_CTRL, 0);
    rt->log_on = false;
    if (st == GC_OK && rt->log_alloc && rt->log_log2 != size_log2) {
        gc_mem_free(rt->dev, &rt->logbuf);
        rt->log_alloc = false;
    }
    uint64_t bytes = (uint64_t)GC_TMU_LOG_SIZE << size_log2;
    if (st == GC_OK && !rt->log_alloc) {
        st = gc_mem_alloc(rt->dev, GC_MEM_VIDMEM, bytes, 256, &rt->logbuf);
        rt->log_alloc = st == GC_OK;
    }
    /* zeroed: a record whose KIND is still 0 has not landed */
    static const uint8_t zero[4096];
    for (uint64_t off = 0; st == GC_OK && off < bytes; off += sizeof zero)
        st = gc_mem_write(rt->dev, rt->logbuf.addr + off, zero, sizeof zero < bytes - off ? sizeof zero : bytes - off);
    if (st == GC_OK) st = gc_mmio_write(rt->dev, GC_REG_COMPUTE_LOG_BASE_LO, (uint32_t)rt->logbuf.addr);
    if (st == GC_OK)
        st = gc_mmio_write(rt->dev, GC_REG_COMPUTE_LOG_BASE_HI, GC_COMPUTE_LOG_BASE_HI_HI((uint32_t)(rt->logbuf.addr >> 32)));
    if (st == GC_OK)
        st = gc_mmio_write(rt->dev, GC_REG_COMPUTE_LOG_CTRL,
                           GC_COMPUTE_LOG_CTRL_ENABLE(1) | GC_COMPUTE_LOG_CTRL_SIZE_LOG2(size_log2));
    if (st != GC_OK) return st;
    rt->log_on = true;
    rt->log_log2 = size_log2;
    rt->log_got = 0;
    return GC_OK;
}

static bool log_drained(gcrt_t *rt, void *arg);

gcrt_error_t gcrt_tmu_log_enable(gcrt_t *rt, uint32_t size_log2) {
    static const char *const W = "gcrt_tmu_log_enable";
    if (!rt) return GCRT_ERROR_INVALID_VALUE;
    if (size_log2 == 0) size_log2 = LOG_DEFAULT_LOG2;
    if (size_log2 < 4 || size_log2 > 20)
        return fail(rt, GCRT_ERROR_INVALID_VALUE, "%s: ring of 2^%u records: SIZE_LOG2 must be in 4..20", W, size_log2);
    gcrt_error_t e = compute_probe(rt, W);
    if (e) return e;
    if (rt->log_on && rt->log_log2 == size_log2) {
        gc_status_t st = log_pull(rt); /* what landed so far still times the runtime's kernels */
        if (st) return from_gc(rt, st, W);
    } else {
        /* another ring: the kernels in flight must not lose their records in the switch, so
         * let everything finish and every record land first */
        if (rt->log_on && ((e = wait_all(rt, W)) || (e = wait_until(rt, log_drained, NULL, W)))) return e;
        gc_status_t st = log_program(rt, size_log2);
        if (st) return from_gc(rt, st, W);
    }
    rt->log_user = true;
    rt->log_lost = 0;
    rt->nlog = 0;
    return ok(rt);
}

gcrt_error_t gcrt_tmu_log_disable(gcrt_t *rt) {
    if (!rt) return GCRT_ERROR_INVALID_VALUE;
    gc_status_t st = rt->log_on ? log_pull(rt) : GC_OK; /* keep what landed */
    if (st) return from_gc(rt, st, "gcrt_tmu_log_disable");
    rt->log_user = false;
    return ok(rt);
}

static void log_decode(const uint32_t w[4], gcrt_tmu_record_t *r) {
    uint32_t ev = w[GC_TMU_LOG_EVENT / 4];
    r->kind = GC_TMU_LOG_EVENT_KIND_GET(ev);
    r->slot = GC_TMU_LOG_EVENT_SLOT_GET(ev);
    r->level = GC_TMU_LOG_EVENT_LEVEL_GET(ev);
    r->depth = GC_TMU_LOG_EVENT_DEPTH_GET(ev);
    r->channel = GC_TMU_LOG_EVENT_CHANNEL_GET(ev);
    r->task = w[GC_TMU_LOG_TASK / 4];
    r->cycle = ((uint64_t)w[GC_TMU_LOG_STAMP_HI / 4] << 32) | w[GC_TMU_LOG_STAMP_LO / 4];
}

/* A record of one of the runtime's kernels: its START, EVICTs and COMPLETE.  Records come in the
 * order the TMU issued them and a kernel's TMD buffer is only reused after its COMPLETE record
 * was issued, so a record belongs to the earliest kernel op of its task that has not had it yet
 * (a device-launched child, whose TMD is elsewhere, matches none). */
static void log_apply(gcrt_t *rt, const gcrt_tmu_record_t *r) {
    bool start = r->kind == GC_TMU_EVENT_START, evict = r->kind == GC_TMU_EVENT_EVICT,
         complete = r->kind == GC_TMU_EVENT_COMPLETE;
    if (!start && !evict && !complete) return;
    for (size_t i = rt->ktime_from; i < rt->nops; i++) {
        op_int_t *o = &rt->ops[i];
        if (o->pub.kind != GCRT_OP_KERNEL || o->pub.task != r->task || o->has_end || o->pub.timing_lost) continue;
        if (start && o->has_start) continue;
        if (evict && !o->has_start) continue;
        if (start) {
            o->has_start = true;
            o->pub.start_cycle = r->cycle;
        } else if (evict) {
            o->pub.evictions++;
        } else {
            o->has_end = true;
            o->pub.end_cycle = r->cycle;
        }
        break;
    }
    while (rt->ktime_from < rt->nops && (rt->ops[rt->ktime_from].pub.kind != GCRT_OP_KERNEL ||
                                         rt->ops[rt->ktime_from].has_end || rt->ops[rt->ktime_from].pub.timing_lost))
        rt->ktime_from++;
}

/* Read the task log ring from the runtime's count up to LOG_PUT: each record times the runtime's
 * kernels (log_apply) and, while the user collects them, goes to rt->log. */
static gc_status_t log_pull(gcrt_t *rt) {
    if (!rt->log_on) return GC_OK;
    uint32_t put = 0;
    gc_status_t st = gc_mmio_read(rt->dev, GC_REG_COMPUTE_LOG_PUT, &put);
    if (st) return st;
    uint64_t ring = 1ull << rt->log_log2;
    /* LOG_PUT is free running (32 bits); records between log_got and put have been issued */
    uint64_t want = rt->log_got + (uint32_t)(put - (uint32_t)rt->log_got);
    if (want - rt->log_got > ring) { /* overwritten before we read them */
        if (rt->log_user) rt->log_lost += want - rt->log_got - ring;
        rt->log_got = want - ring;
        /* the kernels still waiting for a record may have lost it: their timing is unknown */
        for (size_t i = rt->ktime_from; i < rt->nops; i++)
            if (rt->ops[i].pub.kind == GCRT_OP_KERNEL && !rt->ops[i].has_end) rt->ops[i].pub.timing_lost = true;
        rt->ktime_from = rt->nops;
    }
    while (rt->log_got < want) {
        uint64_t a = rt->logbuf.addr + GC_TMU_LOG_SIZE * (rt->log_got & (ring - 1));
        uint32_t w[4];
        if ((st = gc_mem_read(rt->dev, a, w, sizeof w))) return st;
        if (GC_TMU_LOG_EVENT_KIND_GET(w[0]) == 0 || (w[2] | w[3]) == 0) break; /* not landed yet */
        gcrt_tmu_record_t r;
        log_decode(w, &r);
        log_apply(rt, &r);
        if (rt->log_user) {
            if (!grow((void **)&rt->log, &rt->log_cap, rt->nlog + 1, sizeof *rt->log)) return GC_ERR_NO_MEMORY;
            rt->log[rt->nlog++] = r;
        }
        static const uint32_t z[4];
        if ((st = gc_mem_write(rt->dev, a, z, sizeof z))) return st;
        rt->log_got++;
    }
    return GC_OK;
}

gcrt_error_t gcrt_tmu_log(gcrt_t *rt, const gcrt_tmu_record_t **recs, size_t *count, uint64_t *lost) {
    static const char *const W = "gcrt_tmu_log";
    if (!rt || !recs || !count) return fail(rt, GCRT_ERROR_INVALID_VALUE, "%s: NULL argument", W);
    gc_status_t st = log_pull(rt);
    if (st == GC_ERR_NO_MEMORY) return fail(rt, GCRT_ERROR_MEMORY_ALLOCATION, "%s: host out of memory", W);
    if (st) return from_gc(rt, st, W);
    *recs = rt->log;
    *count = rt->nlog;
    if (lost) *lost = rt->log_lost;
    return ok(rt);
}

/* Every record the TMU issued (LOG_PUT) has been read. */
static bool log_drained(gcrt_t *rt, void *arg) {
    (void)arg;
    uint32_t put = 0;
    if (log_pull(rt) != GC_OK || gc_mmio_read(rt->dev, GC_REG_COMPUTE_LOG_PUT, &put) != GC_OK) {
        fail(rt, GCRT_ERROR_BACKEND, "task log read failed: %s", gc_device_last_error(rt->dev));
        return false;
    }
    return !rt->log_on || (uint32_t)rt->log_got == put;
}

/* Every kernel whose completion release landed has its COMPLETE record (so it is done). */
static bool kernels_timed(gcrt_t *rt, void *arg) {
    (void)arg;
    if (refresh_ops(rt, NULL) != GC_OK) {
        fail(rt, GCRT_ERROR_BACKEND, "stamp / task log read failed: %s", gc_device_last_error(rt->dev));
        return false;
    }
    for (size_t i = rt->ktime_from; i < rt->nops; i++)
        if (rt->ops[i].harvested && !rt->ops[i].pub.done) return false;
    return true;
}

static bool log_complete(gcrt_t *rt, void *arg) { return kernels_timed(rt, arg) && log_drained(rt, arg); }

gcrt_error_t gcrt_tmu_log_sync(gcrt_t *rt) {
    if (!rt) return GCRT_ERROR_INVALID_VALUE;
    if (!rt->log_on) return ok(rt);
    return wait_until(rt, log_complete, NULL, "gcrt_tmu_log_sync");
}

gcrt_error_t gcrt_tmu_name_task(gcrt_t *rt, uint32_t task, const char *name) {
    if (!rt || !name) return fail(rt, GCRT_ERROR_INVALID_VALUE, "gcrt_tmu_name_task: NULL argument");
    for (size_t i = 0; i < rt->nnames; i++)
        if (rt->names[i].task == task) {
            snprintf(rt->names[i].name, sizeof rt->names[i].name, "%s", name);
            return ok(rt);
        }
    if (!grow((void **)&rt->names, &rt->names_cap, rt->nnames + 1, sizeof *rt->names))
        return fail(rt, GCRT_ERROR_MEMORY_ALLOCATION, "gcrt_tmu_name_task: host out of memory");
    rt->names[rt->nnames].task = task;
    snprintf(rt->names[rt->nnames].name, sizeof rt->names[rt->nnames].name, "%s", name);
    rt->nnames++;
    return ok(rt);
}

const char *gcrt_tmu_task_name(gcrt_t *rt, uint32_t task) {
    if (!rt) return NULL;
    for (size_t i = 0; i < rt->nnames; i++)
        if (rt->names[i].task == task) return rt->names[i].name;
    /* the latest kernel whose TMD was there (TMD buffers are reused once a kernel completed) */
    for (size_t i = rt->nops; i-- > 0;)
        if (rt->ops[i].pub.kind == GCRT_OP_KERNEL && rt->ops[i].pub.task == task) return rt->ops[i].pub.tag;
    return NULL;
}

gcrt_error_t gcrt_launch_failures(gcrt_t *rt, gcrt_launch_failures_t *f, bool clear) {
    static const char *const W = "gcrt_launch_failures";
    if (!rt || !f) return fail(rt, GCRT_ERROR_INVALID_VALUE, "%s: NULL argument", W);
    memset(f, 0, sizeof *f);
    gcrt_error_t e = compute_probe(rt, W);
    if (e) return e;
    uint32_t intr = 0, lf = 0;
    gc_status_t st = gc_mmio_read(rt->dev, GC_REG_COMPUTE_LAUNCH_FAILS, &f->count);
    if (st == GC_OK) st = gc_mmio_read(rt->dev, GC_REG_COMPUTE_DEV_LAUNCHES, &f->launches);
    if (st == GC_OK) st = gc_mmio_read(rt->dev, GC_REG_COMPUTE_LAUNCH_FAIL, &lf);
    if (st == GC_OK) st = gc_mmio_read(rt->dev, GC_REG_COMPUTE_LAUNCH_FAIL_TASK, &f->task);
    if (st == GC_OK) st = gc_mmio_read(rt->dev, GC_REG_GLOBAL_INTR_STATUS, &intr);
    if (st == GC_OK && clear && GC_GLOBAL_INTR_STATUS_LAUNCH_FAIL_GET(intr))
        st = gc_mmio_write(rt->dev, GC_REG_GLOBAL_INTR_STATUS, GC_GLOBAL_INTR_STATUS_LAUNCH_FAIL(1));
    if (st != GC_OK) return from_gc(rt, st, W);
    f->pending = GC_GLOBAL_INTR_STATUS_LAUNCH_FAIL_GET(intr) != 0;
    f->status = GC_COMPUTE_LAUNCH_FAIL_STATUS_GET(lf);
    f->depth = GC_COMPUTE_LAUNCH_FAIL_DEPTH_GET(lf);
    f->level = GC_COMPUTE_LAUNCH_FAIL_LEVEL_GET(lf);
    return ok(rt);
}

int gcrt_launch_failure_format(const gcrt_launch_failures_t *f, char *buf, size_t len) {
    return snprintf(buf, len, "%s: task 0x%x at device priority %u, nesting level %u: %s (%u failed LAUNCHes, %u OK)",
                    gc_launch_status_name(f->status), f->task, f->level, f->depth, gc_launch_status_doc(f->status),
                    f->count, f->launches);
}

gcrt_error_t gcrt_set_no_evict(gcrt_t *rt, bool no_evict) {
    if (!rt) return GCRT_ERROR_INVALID_VALUE;
    gcrt_error_t e = compute_probe(rt, "gcrt_set_no_evict");
    if (e) return e;
    return from_gc(rt, gc_mmio_write(rt->dev, GC_REG_COMPUTE_TMU_CTRL, GC_COMPUTE_TMU_CTRL_NO_EVICT(no_evict ? 1u : 0u)),
                   "gcrt_set_no_evict");
}
