/* workq.c: GPU-owned work queues, the host side (gpucosim/workq.h, docs/workqueue.md).
 *
 * Memory of one queue (one vidmem allocation, 4 KiB aligned):
 *   0x000  gc_wq_t control block (64 bytes)      0x040  X (8 bytes)    0x048  Y (8 bytes)
 *   0x100  gate slots, n x 64 bytes (entry i's gate block, written here once but for its two
 *          payload words, and its gate record)   then the GPFIFO ring (2^k x 8 bytes, 2^k >= n),
 *   S[0..n-1] (8 bytes apart), the n command blocks (block_dwords x 4 bytes each, aligned to
 *   their size so that no block crosses 4 KiB).
 * The queue's channel is opened with gc_channel_open (it takes the channel id) and then pointed
 * at this ring: CTRL.RESET, GPFIFO_BASE / SIZE / RUNLIST / TIMESLICE, CTRL.ENABLE.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gc_workq.h"
#include "gpucosim/compute.h"
#include "gpucosim/workq.h"
#include "gpucosim_spec.h"

#define WQ_GATES_OFF 0x100u
#define REQ_BUF_BYTES 8192u /* K's TMD (256), its records (256), its parameter block (<= 4096) */
#define REQ_TMD_OFF 0u
#define REQ_REC_OFF 256u    /* +0 K's completion (16), +16 launch stamp (16), +32 hand-back stamp (16) */
#define REQ_PARAM_OFF 512u
_Static_assert(REQ_BUF_BYTES - REQ_PARAM_OFF == GCRT_WQ_MAX_ARGS, "GCRT_WQ_MAX_ARGS is the room after the records");
#define WATCHDOG_MARGIN 4096u /* cycles before the whole-run watchdog at which the wait diagnoses */

struct gcrt_wq {
    gcrt_workq_t *w;
    gc_channel_t *ch;
    char name[32];
    uint32_t n, log2hw, runlist, block_dwords, subch, class_id;
    gc_buf_t mem;
    uint64_t ring, sems, blocks, gates, x, y; /* device addresses */
    uint32_t gp_put_writes;
    uint32_t request;  /* the request the queue is armed for (or serves) */
};

struct gcrt_workq {
    gcrt_t *rt;
    gc_device_t *dev;
    gc_channel_t *ch;
    gc_buf_t req;
    gcrt_wq_t *q[GCRT_WQ_MAX_QUEUES];
    size_t nq;
    gcrt_wq_t *active[GCRT_WQ_MAX_QUEUES]; /* the queues of the request in flight */
    size_t nactive;
    uint32_t request;   /* last request pushed (0: none) */
    bool pending;       /* pushed, not waited for */
    char msg[1024];
};

static gcrt_error_t fail(gcrt_workq_t *w, gcrt_error_t e, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static gcrt_error_t fail(gcrt_workq_t *w, gcrt_error_t e, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->msg, sizeof w->msg, fmt, ap);
    va_end(ap);
    return e;
}

/* A driver call failed: the device's one-line message. */
static gcrt_error_t fail_st(gcrt_workq_t *w, gc_status_t st, const char *what) {
    const char *m = gc_device_last_error(w->dev);
    gcrt_error_t e = st == GC_ERR_CHANNEL_FAULT ? GCRT_ERROR_CHANNEL_FAULT
                     : st == GC_ERR_TIMEOUT     ? GCRT_ERROR_TIMEOUT
                     : st == GC_ERR_NO_MEMORY   ? GCRT_ERROR_MEMORY_ALLOCATION
                     : st == GC_ERR_INVALID_ARG ? GCRT_ERROR_INVALID_VALUE
                                                : GCRT_ERROR_BACKEND;
    return fail(w, e, "work queue: %s: %s", what, *m ? m : gc_status_str(st));
}

void gcrt_wq_config_init(gcrt_wq_config_t *cfg) {
    memset(cfg, 0, sizeof *cfg);
    cfg->entries = 64;
    cfg->runlist = 0;
    cfg->block_dwords = 64;
}

void gcrt_wq_request_init(gcrt_wq_request_t *r, const gc_elf_t *image, const char *kernel, const void *args,
                          size_t args_bytes) {
    memset(r, 0, sizeof *r);
    r->image = image;
    r->kernel = kernel;
    r->args = args;
    r->args_bytes = args_bytes;
    r->grid[0] = r->grid[1] = r->grid[2] = 1;
    r->block[0] = r->block[1] = r->block[2] = 1;
}

const char *gcrt_workq_message(const gcrt_workq_t *w) { return w ? w->msg : "work queue: NULL handle"; }
uint32_t gcrt_workq_channel(const gcrt_workq_t *w) { return gc_channel_id(w->ch); }
uint32_t gcrt_wq_channel(const gcrt_wq_t *q) { return gc_channel_id(q->ch); }
const char *gcrt_wq_name(const gcrt_wq_t *q) { return q->name; }

static uint32_t thread_addr(uint64_t dev) { return gc_simt_ptr(dev); }

gcrt_error_t gcrt_workq_open(gcrt_t *rt, gcrt_workq_t **out) {
    if (!rt || !out) return GCRT_ERROR_INVALID_VALUE;
    *out = NULL;
    gcrt_workq_t *w = calloc(1, sizeof *w);
    if (!w) return GCRT_ERROR_MEMORY_ALLOCATION;
    w->rt = rt;
    w->dev = gcrt_device(rt);
    gc_channel_config_t cc;
    gc_channel_config_init(&cc);
    cc.runlist = 0;
    cc.pb_bytes = 16 * 1024;
    gc_status_t st = gc_channel_open(w->dev, &cc, &w->ch);
    if (st == GC_OK) st = gc_compute_bind(w->ch, GC_COMPUTE_SUBCH);
    if (st == GC_OK) st = gc_mem_alloc(w->dev, GC_MEM_VIDMEM, REQ_BUF_BYTES, 256, &w->req);
    if (st != GC_OK) {
        gcrt_error_t e = fail_st(w, st, "opening the CPU-owned channel");
        fprintf(stderr, "%s\n", w->msg);
        gcrt_workq_close(w);
        return e;
    }
    *out = w;
    return GCRT_SUCCESS;
}

static void wq_free(gcrt_wq_t *q) {
    if (!q) return;
    if (q->ch) gc_channel_close(q->ch);
    if (q->mem.size) gc_mem_free(q->w->dev, &q->mem);
    free(q);
}

void gcrt_workq_close(gcrt_workq_t *w) {
    if (!w) return;
    for (size_t i = 0; i < w->nq; i++) wq_free(w->q[i]);
    if (w->ch) gc_channel_close(w->ch);
    if (w->req.size) gc_mem_free(w->dev, &w->req);
    free(w);
}

static uint32_t index_of(const gcrt_wq_t *q, uint32_t pos) { return (pos & ~GC_WQ_CLOSED_BIT) % q->n; }

uint64_t gcrt_wq_sem_addr(const gcrt_wq_t *q, uint32_t idx) { return q->sems + (uint64_t)idx * GC_WQ_SEM_STRIDE; }
uint32_t gcrt_wq_ptr(const gcrt_wq_t *q) { return thread_addr(q->mem.addr); }

static gc_status_t wr32(gcrt_wq_t *q, uint64_t addr, uint32_t v) { return gc_mem_write(q->w->dev, addr, &v, 4); }

/* The arming block at position 0: SET_OBJECT of the queue's class, acquire X == 1, the gate of
 * position 0 (acquire S[0] == 1, stamped gate record) -- what gc_wq_close_at writes for later
 * requests, written by the host once. */
static gc_status_t write_arming_block(gcrt_wq_t *q) {
    uint32_t words[64];
    gc_pushbuf_t pb;
    gc_pb_init(&pb, words, 64);
    gc_pb_set_object(&pb, q->subch, q->class_id);
    gc_pb_sem_acquire(&pb, q->x, 1, GC_HOST_SEM_EXECUTE_OPERATION_ACQUIRE, false, true); /* yields */
    gc_pb_sem_acquire(&pb, gcrt_wq_sem_addr(q, 0), 1, GC_HOST_SEM_EXECUTE_OPERATION_ACQUIRE, false, false);
    gc_pb_sem_release_ts(&pb, q->gates + GC_WQ_GATE_REC, 0, false, false);
    if (pb.status != GC_OK || pb.len > q->block_dwords) return GC_ERR_FULL;
    gc_status_t st = gc_mem_write(q->w->dev, q->blocks, words, pb.len * 4u);
    uint32_t e[2] = {GC_GP_ENTRY0_GET((uint32_t)q->blocks >> 2),
                     GC_GP_ENTRY1_GET_HI((uint32_t)(q->blocks >> 32)) | GC_GP_ENTRY1_LENGTH(pb.len)};
    if (st == GC_OK) st = gc_mem_write(q->w->dev, q->ring, e, sizeof e);
    return st;
}

/* Every gate slot's block: acquire S[i] == (payload), stamped release of its record (payload);
 * the threads write the two payloads (gc_wq_gate_entry). */
static gc_status_t write_gate_blocks(gcrt_wq_t *q) {
    uint32_t *slots = calloc(q->n, GC_WQ_GATE_BYTES);
    if (!slots) return GC_ERR_NO_MEMORY;
    gc_status_t st = GC_OK;
    for (uint32_t i = 0; i < q->n && st == GC_OK; i++) {
        gc_pushbuf_t pb;
        uint64_t slot = q->gates + (uint64_t)i * GC_WQ_GATE_BYTES;
        gc_pb_init(&pb, slots + i * (GC_WQ_GATE_BYTES / 4u), GC_WQ_GATE_DWORDS);
        gc_pb_sem_acquire(&pb, gcrt_wq_sem_addr(q, i), 0, GC_HOST_SEM_EXECUTE_OPERATION_ACQUIRE, false, false);
        gc_pb_sem_release_ts(&pb, slot + GC_WQ_GATE_REC, 0, false, false);
        if (pb.status != GC_OK || pb.len != GC_WQ_GATE_DWORDS) st = GC_ERR_FULL;
    }
    if (st == GC_OK) st = gc_mem_write(q->w->dev, q->gates, slots, (size_t)q->n * GC_WQ_GATE_BYTES);
    free(slots);
    return st;
}

static gc_status_t mmio(gcrt_wq_t *q, uint32_t off, uint32_t v) { return gc_mmio_write(q->w->dev, off, v); }

/* GP_PUT through MMIO: the ring index of position `shadow`. */
static gc_status_t write_gp_put(gcrt_wq_t *q, uint32_t shadow) {
    q->gp_put_writes++;
    return mmio(q, GC_REG_CHANNEL_GP_PUT(gc_channel_id(q->ch)), index_of(q, shadow));
}

gcrt_error_t gcrt_wq_create(gcrt_workq_t *w, const gcrt_wq_config_t *cfg, gcrt_wq_t **out) {
    if (!w) return GCRT_ERROR_INVALID_VALUE;
    if (!cfg || !out) return fail(w, GCRT_ERROR_INVALID_VALUE, "work queue: gcrt_wq_create: NULL config or output");
    *out = NULL;
    if (cfg->entries < GCRT_WQ_MIN_ENTRIES || cfg->entries > GCRT_WQ_MAX_ENTRIES)
        return fail(w, GCRT_ERROR_INVALID_VALUE, "work queue: %u entries: must be in [%u, %u]", cfg->entries,
                    GCRT_WQ_MIN_ENTRIES, GCRT_WQ_MAX_ENTRIES);
    if (cfg->runlist >= GC_NUM_RUNLISTS)
        return fail(w, GCRT_ERROR_INVALID_VALUE, "work queue: runlist %u does not exist (0..%u)", cfg->runlist,
                    GC_NUM_RUNLISTS - 1);
    if (cfg->block_dwords < GCRT_WQ_MIN_BLOCK_DWORDS || cfg->block_dwords > GCRT_WQ_MAX_BLOCK_DWORDS ||
        (cfg->block_dwords & (cfg->block_dwords - 1)))
        return fail(w, GCRT_ERROR_INVALID_VALUE, "work queue: %u dwords per command block: must be a power of two "
                    "in [%u, %u]", cfg->block_dwords, GCRT_WQ_MIN_BLOCK_DWORDS, GCRT_WQ_MAX_BLOCK_DWORDS);
    if (w->nq >= GCRT_WQ_MAX_QUEUES)
        return fail(w, GCRT_ERROR_INVALID_VALUE, "work queue: this workq has %u queues already (the most)",
                    GCRT_WQ_MAX_QUEUES);
    if (w->pending) return fail(w, GCRT_ERROR_NOT_PERMITTED, "work queue: a request is in flight");
    gcrt_wq_t *q = calloc(1, sizeof *q);
    if (!q) return GCRT_ERROR_MEMORY_ALLOCATION;
    q->w = w;
    q->n = cfg->entries;
    q->log2hw = 1;
    while ((1u << q->log2hw) < q->n) q->log2hw++;
    q->runlist = cfg->runlist;
    q->block_dwords = cfg->block_dwords;
    q->subch = cfg->runlist == 0 ? GC_COMPUTE_SUBCH : 4u;
    q->class_id = cfg->runlist == 0 ? GC_CLASS_COMPUTE : GC_CLASS_COPY;
    q->request = 1;
    uint64_t bb = (uint64_t)q->block_dwords * 4u;
    uint64_t gates_end = WQ_GATES_OFF + (uint64_t)q->n * GC_WQ_GATE_BYTES;
    uint64_t ring_off = (gates_end + 255) & ~255ull;
    uint64_t sems_off = ring_off + (8ull << q->log2hw);
    uint64_t blocks_off = (sems_off + (uint64_t)q->n * GC_WQ_SEM_STRIDE + bb - 1) & ~(bb - 1);
    uint64_t total = blocks_off + (uint64_t)q->n * bb;
    gc_status_t st = gc_mem_alloc(w->dev, GC_MEM_VIDMEM, total, 4096, &q->mem);
    if (st != GC_OK) {
        free(q);
        return fail_st(w, st, "allocating the queue");
    }
    q->gates = q->mem.addr + WQ_GATES_OFF;
    q->ring = q->mem.addr + ring_off;
    q->sems = q->mem.addr + sems_off;
    q->blocks = q->mem.addr + blocks_off;
    q->x = q->mem.addr + 0x40;
    q->y = q->mem.addr + 0x48;
    /* everything 0: X = Y = 0, S[i] = 0, every ring entry a NOP control entry */
    uint8_t *zero = calloc(1, total);
    st = zero ? gc_mem_write(w->dev, q->mem.addr, zero, total) : GC_ERR_NO_MEMORY;
    free(zero);
    gc_channel_config_t cc;
    gc_channel_config_init(&cc);
    cc.runlist = cfg->runlist;
    cc.log2_entries = 1;
    cc.pb_bytes = 64;
    if (st == GC_OK) st = gc_channel_open(w->dev, &cc, &q->ch);
    if (st == GC_OK) st = gc_channel_wait_idle(q->ch); /* its open-time SET_OBJECT went through */
    if (st == GC_OK) {
        uint32_t id = gc_channel_id(q->ch);
        if (cfg->name && *cfg->name) snprintf(q->name, sizeof q->name, "%s", cfg->name);
        else snprintf(q->name, sizeof q->name, "wq%u", id);
        gc_wq_t c = {
            .soft_put = 1, .shadow_put = q->n - 1, .entries = q->n,
            .log2 = (q->n & (q->n - 1)) ? GC_WQ_NOT_POW2 : q->log2hw,
            .ring = thread_addr(q->ring), .sems = thread_addr(q->sems), .blocks = thread_addr(q->blocks),
            .block_dwords = q->block_dwords, .x_sem = thread_addr(q->x), .y_sem = thread_addr(q->y),
            .request = 1, .closed_at = 0, .subch_gates = q->subch | thread_addr(q->gates),
        };
        st = gc_mem_write(w->dev, q->mem.addr, &c, sizeof c);
        if (st == GC_OK) st = write_arming_block(q);
        if (st == GC_OK) st = write_gate_blocks(q);
        /* the channel, pointed at the vidmem ring; GP_GET = 0 (the arming entry) */
        if (st == GC_OK) st = mmio(q, GC_REG_CHANNEL_CTRL(id), GC_CHANNEL_CTRL_RESET(1));
        if (st == GC_OK) st = mmio(q, GC_REG_CHANNEL_GPFIFO_BASE_LO(id), (uint32_t)q->ring);
        if (st == GC_OK) st = mmio(q, GC_REG_CHANNEL_GPFIFO_BASE_HI(id), GC_CHANNEL_GPFIFO_BASE_HI_HI(q->ring >> 32));
        if (st == GC_OK) st = mmio(q, GC_REG_CHANNEL_GPFIFO_SIZE(id), GC_CHANNEL_GPFIFO_SIZE_LOG2(q->log2hw));
        if (st == GC_OK) st = mmio(q, GC_REG_CHANNEL_RUNLIST(id), GC_CHANNEL_RUNLIST_ID(q->runlist));
        if (st == GC_OK) st = mmio(q, GC_REG_CHANNEL_TIMESLICE(id), 1024);
        if (st == GC_OK) st = mmio(q, GC_REG_CHANNEL_CTRL(id), GC_CHANNEL_CTRL_ENABLE(1));
        /* GP_PUT = wrap(GP_GET - 1, n): every entry but the arming one opened to the threads */
        if (st == GC_OK) st = write_gp_put(q, q->n - 1);
        if (st == GC_OK) gc_channel_set_subch_class(q->ch, q->subch, q->class_id);
    }
    if (st != GC_OK) {
        gcrt_error_t e = fail_st(w, st, "setting the queue up");
        wq_free(q);
        return e;
    }
    w->q[w->nq++] = q;
    *out = q;
    return GCRT_SUCCESS;
}

gcrt_error_t gcrt_workq_request(gcrt_workq_t *w, gcrt_wq_t *const *qs, size_t nq, const gcrt_wq_request_t *req) {
    if (!w) return GCRT_ERROR_INVALID_VALUE;
    if (!req || !req->image || !req->kernel || (!qs && nq))
        return fail(w, GCRT_ERROR_INVALID_VALUE, "work queue: request: NULL image, kernel or queue list");
    if (nq == 0 || nq > GCRT_WQ_MAX_QUEUES)
        return fail(w, GCRT_ERROR_INVALID_VALUE, "work queue: request for %zu queues: must be 1..%u", nq,
                    GCRT_WQ_MAX_QUEUES);
    if (w->pending)
        return fail(w, GCRT_ERROR_NOT_PERMITTED, "work queue: request %u was not waited for (gcrt_workq_wait)",
                    w->request);
    if (req->args_bytes > GCRT_WQ_MAX_ARGS || (req->args_bytes && !req->args))
        return fail(w, GCRT_ERROR_INVALID_VALUE, "work queue: %zu bytes of arguments%s: at most %u",
                    req->args_bytes, req->args ? "" : " from NULL", GCRT_WQ_MAX_ARGS);
    for (size_t i = 0; i < nq; i++) {
        bool mine = false;
        for (size_t j = 0; j < w->nq; j++) mine |= qs[i] == w->q[j];
        for (size_t j = 0; j < i; j++) mine &= qs[i] != qs[j];
        if (!mine) return fail(w, GCRT_ERROR_INVALID_HANDLE, "work queue: queue %zu of the request is not one of "
                               "this workq's (or named twice)", i);
    }
    uint32_t pc = 0;
    if (gc_elf_symbol(req->image, req->kernel, &pc) != GC_OK)
        return fail(w, GCRT_ERROR_INVALID_KERNEL, "work queue: no kernel '%s' in the image", req->kernel);
    uint64_t threads = (uint64_t)req->grid[0] * req->grid[1] * req->grid[2] * req->block[0] * req->block[1] *
                       req->block[2];
    gc_tmd_t t;
    gc_tmd_init(&t);
    t.entry_pc = pc;
    t.param = thread_addr(w->req.addr + REQ_PARAM_OFF);
    memcpy(t.grid, req->grid, sizeof t.grid);
    memcpy(t.cta, req->block, sizeof t.cta);
    t.depth = 1;
    t.max_depth = 1;
    t.sem_release = t.sem_four_word = true;
    t.sem_addr = w->req.addr + REQ_REC_OFF;
    uint32_t r = w->request + 1;
    t.sem_payload = r;
    uint32_t words[GC_TMD_WORDS];
    if (threads == 0 || gc_tmd_encode(&t, words) != GC_OK)
        return fail(w, GCRT_ERROR_INVALID_CONFIGURATION, "work queue: K's grid / block (%u x %u x %u, %u x %u x %u) "
                    "cannot be encoded", req->grid[0], req->grid[1], req->grid[2], req->block[0], req->block[1],
                    req->block[2]);
    gc_device_t *dev = w->dev;
    uint32_t zero[48] = {0};
    gc_status_t st = gc_mem_write(dev, w->req.addr + REQ_TMD_OFF, words, sizeof words);
    if (st == GC_OK) st = gc_mem_write(dev, w->req.addr + REQ_REC_OFF, zero, sizeof zero);
    if (st == GC_OK && req->args_bytes) st = gc_mem_write(dev, w->req.addr + REQ_PARAM_OFF, req->args, req->args_bytes);
    /* each queue: the request it serves, its producers */
    for (size_t i = 0; i < nq && st == GC_OK; i++) {
        gcrt_wq_t *q = qs[i];
        uint32_t prod = req->producers[i] ? req->producers[i] : (uint32_t)threads;
        if (q->request != r)
            return fail(w, GCRT_ERROR_NOT_PERMITTED, "work queue '%s' is armed for request %u, not %u", q->name,
                        q->request, r);
        uint32_t ctl[3] = {prod, 0, 0}; /* producers, done, full */
        st = gc_mem_write(dev, q->mem.addr + 0x30, ctl, sizeof ctl);
    }
    uint32_t pbw[256];
    gc_pushbuf_t pb;
    gc_pb_init(&pb, pbw, 256);
    if (req->open_early)
        for (size_t i = 0; i < nq; i++) gc_pb_sem_release(&pb, qs[i]->x, r, false, false);
    gc_pb_sem_release_ts(&pb, w->req.addr + REQ_REC_OFF + 16, r, false, false);
    gc_pb_compute_launch(&pb, GC_COMPUTE_SUBCH, w->req.addr + REQ_TMD_OFF);
    gc_pb_method(&pb, 0, GC_HOST_WFI, GC_HOST_WFI_SCOPE(GC_HOST_WFI_SCOPE_ALL));
    if (!req->open_early)
        for (size_t i = 0; i < nq; i++) gc_pb_sem_release(&pb, qs[i]->x, r, false, false);
    for (size_t i = 0; i < nq; i++)
        gc_pb_sem_acquire(&pb, qs[i]->y, r, GC_HOST_SEM_EXECUTE_OPERATION_ACQUIRE, false, true);
    gc_pb_sem_release_ts(&pb, w->req.addr + REQ_REC_OFF + 32, r, false, false);
    if (st == GC_OK) st = pb.status;
    if (st == GC_OK) st = gc_channel_submit(w->ch, &pb);
    if (st != GC_OK) return fail_st(w, st, "pushing the request");
    w->request = r;
    w->pending = true;
    w->nactive = nq;
    memcpy(w->active, qs, nq * sizeof *qs);
    w->msg[0] = 0;
    return GCRT_SUCCESS;
}

/* The acquires of the block ring entry `idx` points to: the first one not satisfied now. */
static bool blocking_acquire(gcrt_wq_t *q, uint32_t idx, uint64_t *addr, uint32_t *want, uint32_t *holds) {
    gc_device_t *dev = q->w->dev;
    uint32_t e[2];
    if (gc_mem_read(dev, q->ring + (uint64_t)idx * 8u, e, sizeof e) != GC_OK) return false;
    uint32_t len = GC_GP_ENTRY1_LENGTH_GET(e[1]);
    uint64_t seg = ((uint64_t)GC_GP_ENTRY1_GET_HI_GET(e[1]) << 32) | ((uint64_t)GC_GP_ENTRY0_GET_GET(e[0]) << 2);
    if (len == 0 || len > 1024) return false;
    uint32_t words[1024];
    if (gc_mem_read(dev, seg, words, len * 4u) != GC_OK) return false;
    for (uint32_t i = 0; i + 5 < len + 0u; i++) {
        uint32_t h = words[i];
        if (GC_METHOD_HEADER_SEC_OP_GET(h) != GC_METHOD_HEADER_SEC_OP_INC_METHOD ||
            GC_METHOD_HEADER_ADDRESS_GET(h) != GC_HOST_SEM_ADDR_LO / 4u || GC_METHOD_HEADER_COUNT_GET(h) != 5u)
            continue;
        uint32_t ex = words[i + 5];
        if (GC_HOST_SEM_EXECUTE_OPERATION_GET(ex) != GC_HOST_SEM_EXECUTE_OPERATION_ACQUIRE) continue;
        uint64_t a = ((uint64_t)GC_HOST_SEM_ADDR_HI_OFFSET_GET(words[i + 2]) << 32) |
                     ((uint64_t)GC_HOST_SEM_ADDR_LO_OFFSET_GET(words[i + 1]) << 2);
        uint32_t v = 0;
        if (gc_mem_read(dev, a, &v, 4) != GC_OK) return false;
        if (v != words[i + 3]) {
            *addr = a;
            *want = words[i + 3];
            *holds = v;
            return true;
        }
    }
    return false;
}

int gcrt_wq_diagnose(gcrt_wq_t *q, char *buf, size_t len) {
    if (!q || !buf || !len) return 0;
    buf[0] = 0;
    gc_device_t *dev = q->w->dev;
    uint32_t id = gc_channel_id(q->ch), status = 0, get = 0;
    if (gc_channel_check(q->ch) != GC_OK)
        return snprintf(buf, len, "work queue '%s': %s", q->name, gc_device_last_error(dev));
    if (gc_mmio_read(dev, GC_REG_CHANNEL_STATUS(id), &status) != GC_OK ||
        gc_mmio_read(dev, GC_REG_CHANNEL_GP_GET(id), &get) != GC_OK)
        return snprintf(buf, len, "work queue '%s': its channel registers cannot be read", q->name);
    if (!GC_CHANNEL_STATUS_ACQ_BLOCKED_GET(status)) return 0;
    uint64_t a = 0;
    uint32_t want = 0, holds = 0;
    if (!blocking_acquire(q, get, &a, &want, &holds))
        return snprintf(buf, len, "work queue '%s' (channel %u): entry %u waits on an acquire", q->name, id, get);
    char sem[48];
    if (a == q->x) snprintf(sem, sizeof sem, "semaphore X");
    else if (a == q->y) snprintf(sem, sizeof sem, "semaphore Y");
    else if (a >= q->sems && a < q->sems + (uint64_t)q->n * GC_WQ_SEM_STRIDE)
        snprintf(sem, sizeof sem, "S[%u]", (uint32_t)((a - q->sems) / GC_WQ_SEM_STRIDE));
    else snprintf(sem, sizeof sem, "a semaphore");
    if (a == q->x)
        return snprintf(buf, len, "work queue '%s' (channel %u): entry %u waits for %s (0x%010llx) == %u, it holds %u: "
                        "the CPU-owned channel has not opened request %u", q->name, id, get, sem,
                        (unsigned long long)a, want, holds, want);
    uint32_t soft = 0;
    gc_mem_read(dev, q->mem.addr, &soft, 4);
    bool reserved = (int32_t)((soft & ~GC_WQ_CLOSED_BIT) - want) > 0;
    return snprintf(buf, len, "work queue '%s' (channel %u): entry %u (position %u) waits for %s (0x%010llx) == %u, "
                    "it holds %u: %s %u%s", q->name, id, get, want - 1u, sem, (unsigned long long)a, want, holds,
                    reserved ? "the thread that reserved the range from position" : "no thread reserved position",
                    want, reserved ? " never released it (it faulted or did not commit)"
                                   : " or closed the queue (soft GP_PUT is there; the last producer closes it)");
}

/* The diagnosis of every queue of the request that is stuck, each after "; ". */
static void diagnosis(gcrt_workq_t *w, char *buf, size_t len) {
    buf[0] = 0;
    for (size_t i = 0; i < w->nactive; i++) {
        char d[400];
        if (gcrt_wq_diagnose(w->active[i], d, sizeof d) > 0) {
            size_t l = strlen(buf);
            snprintf(buf + l, len - l, "; %s", d);
        }
    }
}

static void add_diagnosis(gcrt_workq_t *w) {
    size_t l = strlen(w->msg);
    diagnosis(w, w->msg + l, sizeof w->msg - l);
}

/* Re-arm a queue whose request r was handed back: its closing entry at position t blocks on
 * X == r + 1; soft GP_PUT = t + 1, shadow GP_PUT = t + n - 1, GP_PUT = wrap(t - 1, n). */
static gc_status_t rearm(gcrt_wq_t *q) {
    gc_device_t *dev = q->w->dev;
    gc_wq_t c;
    gc_status_t st = gc_mem_read(dev, q->mem.addr, &c, sizeof c);
    if (st != GC_OK) return st;
    uint32_t t = c.closed_at;
    uint32_t shadow = t + q->n - 1u;
    uint32_t w[3] = {t + 1u, shadow, 0};
    if ((st = gc_mem_write(dev, q->mem.addr, w, 8))) return st;
    q->request++;
    if ((st = wr32(q, q->mem.addr + 0x28, q->request))) return st;
    return write_gp_put(q, shadow);
}

/* After K faulted: let the queues run until each is stopped or blocked on an acquire at the same
 * entry for SETTLE_CYCLES (the stores and AMOs of the killed threads have landed by then), so that
 * the diagnosis names where each one stays, not where it happened to be.  Bounded by `left`. */
#define SETTLE_CYCLES 512u
static void settle(gcrt_workq_t *w, uint64_t left) {
    gc_device_t *dev = w->dev;
    uint32_t last[GCRT_WQ_MAX_QUEUES];
    uint64_t stable = 0, t0 = gc_device_cycles(dev);
    memset(last, 0xFF, sizeof last);
    while (stable < SETTLE_CYCLES && gc_device_cycles(dev) - t0 < left) {
        bool same = true;
        for (size_t i = 0; i < w->nactive; i++) {
            uint32_t id = gc_channel_id(w->active[i]->ch), get = 0, status = 0, err = 0;
            if (gc_mmio_read(dev, GC_REG_CHANNEL_GP_GET(id), &get) || gc_mmio_read(dev, GC_REG_CHANNEL_STATUS(id), &status) ||
                gc_mmio_read(dev, GC_REG_CHANNEL_ERROR(id), &err))
                return;
            bool parked = err || GC_CHANNEL_STATUS_ACQ_BLOCKED_GET(status) || !GC_CHANNEL_STATUS_PENDING_GET(status);
            same &= parked && get == last[i];
            last[i] = get;
        }
        uint64_t t = gc_device_cycles(dev);
        if (gc_device_run(dev, 64) != GC_OK) return;
        stable = same ? stable + (gc_device_cycles(dev) - t) : 0;
    }
}

/* The device stopped (the whole-run watchdog, a backend failure): its message, then the queues'
 * diagnosis (`pre` when it was taken before the watchdog, as the device answers no register read
 * after it). */
static gcrt_error_t stopped(gcrt_workq_t *w, gc_status_t st, const char *pre) {
    gcrt_error_t e = fail_st(w, st, "waiting for the request's hand-back");
    size_t l = strlen(w->msg);
    if (*pre) snprintf(w->msg + l, sizeof w->msg - l, "%s", pre);
    else add_diagnosis(w);
    return e;
}

gcrt_error_t gcrt_workq_wait(gcrt_workq_t *w, uint64_t budget) {
    if (!w) return GCRT_ERROR_INVALID_VALUE;
    if (!w->pending) return GCRT_SUCCESS;
    gc_device_t *dev = w->dev;
    const gc_device_config_t *dc = gc_device_config(dev);
    if (!budget) budget = dc->wait_cycles;
    uint64_t t0 = gc_device_cycles(dev);
    uint32_t poll = dc->poll_cycles ? dc->poll_cycles : 16;
    char pre[600] = ""; /* the diagnosis taken just before the whole-run watchdog fires (after it,
                         * the device answers no register read) */
    for (;;) {
        uint32_t v = 0;
        gc_status_t st = gc_mem_read(dev, w->req.addr + REQ_REC_OFF + 32, &v, 4);
        if (st != GC_OK) return fail_st(w, st, "reading the request's record");
        if (v == w->request) break;
        if ((st = gc_channel_check(w->ch)) != GC_OK) {
            if (st != GC_ERR_CHANNEL_FAULT) return stopped(w, st, pre);
            gcrt_error_t e = fail(w, GCRT_ERROR_CHANNEL_FAULT, "work queue: request %u: CPU-owned %s", w->request,
                                  gc_device_last_error(dev));
            gc_compute_fault_t f;
            if (gc_compute_fault_read(dev, &f) == GC_OK && f.cause != GC_SIMT_FAULT_NONE) {
                char fm[300];
                gc_compute_fault_format(&f, fm, sizeof fm);
                size_t l = strlen(w->msg);
                snprintf(w->msg + l, sizeof w->msg - l, " (%s)", fm);
            }
            settle(w, budget - (gc_device_cycles(dev) - t0 < budget ? gc_device_cycles(dev) - t0 : budget));
            add_diagnosis(w);
            return e;
        }
        for (size_t i = 0; i < w->nactive; i++)
            if ((st = gc_channel_check(w->active[i]->ch)) != GC_OK) {
                if (st != GC_ERR_CHANNEL_FAULT) return stopped(w, st, pre);
                gcrt_error_t e = fail(w, GCRT_ERROR_CHANNEL_FAULT, "work queue '%s': request %u: %s",
                                      w->active[i]->name, w->request, gc_device_last_error(dev));
                return e;
            }
        uint64_t spent = gc_device_cycles(dev) - t0;
        if (spent >= budget) {
            gcrt_error_t e = fail(w, GCRT_ERROR_TIMEOUT, "work queue: request %u not handed back after %llu cycles",
                                  w->request, (unsigned long long)spent);
            add_diagnosis(w);
            return e;
        }
        uint64_t left = budget - spent, step = left < poll ? left : poll, now = gc_device_cycles(dev);
        /* its register and memory reads take device cycles too: taken once, WATCHDOG_MARGIN before */
        if (dc->max_cycles && !*pre && now + step + WATCHDOG_MARGIN >= dc->max_cycles) diagnosis(w, pre, sizeof pre);
        if ((st = gc_device_run(dev, step)) != GC_OK) return stopped(w, st, pre);
    }
    for (size_t i = 0; i < w->nactive; i++) {
        gc_status_t st = rearm(w->active[i]);
        if (st != GC_OK) return fail_st(w, st, "re-arming the queue");
    }
    w->pending = false;
    return GCRT_SUCCESS;
}

gcrt_error_t gcrt_wq_info(gcrt_wq_t *q, gcrt_wq_info_t *info) {
    if (!q || !info) return GCRT_ERROR_INVALID_VALUE;
    memset(info, 0, sizeof *info);
    gc_device_t *dev = q->w->dev;
    gc_wq_t c;
    uint32_t id = gc_channel_id(q->ch), rec[12];
    gc_status_t st = gc_mem_read(dev, q->mem.addr, &c, sizeof c);
    if (st == GC_OK) st = gc_mem_read(dev, q->x, &info->x, 4);
    if (st == GC_OK) st = gc_mem_read(dev, q->y, &info->y, 4);
    if (st == GC_OK) st = gc_mmio_read(dev, GC_REG_CHANNEL_GP_GET(id), &info->gp_get);
    if (st == GC_OK) st = gc_mmio_read(dev, GC_REG_CHANNEL_GP_PUT(id), &info->gp_put);
    if (st == GC_OK) st = gc_mem_read(dev, q->w->req.addr + REQ_REC_OFF, rec, sizeof rec);
    if (st != GC_OK) return fail_st(q->w, st, "reading the queue");
    info->entries = q->n;
    info->hw_entries = 1u << q->log2hw;
    info->channel = id;
    info->runlist = q->runlist;
    info->request = q->request;
    info->soft_put = c.soft_put;
    info->shadow_put = c.shadow_put;
    info->closed_at = c.closed_at;
    info->full = c.full;
    info->done = c.done;
    info->producers = c.producers;
    info->gp_put_writes = q->gp_put_writes;
    info->k_end = ((uint64_t)rec[3] << 32) | rec[2];
    info->k_start = ((uint64_t)rec[7] << 32) | rec[6];
    info->handback = ((uint64_t)rec[11] << 32) | rec[10];
    return GCRT_SUCCESS;
}

gcrt_error_t gcrt_wq_gate(gcrt_wq_t *q, uint32_t pos, uint32_t *payload, uint64_t *cycle) {
    if (!q || !payload || !cycle) return GCRT_ERROR_INVALID_VALUE;
    uint32_t g[4];
    gc_status_t st = gc_mem_read(q->w->dev, q->gates + (uint64_t)index_of(q, pos) * GC_WQ_GATE_BYTES + GC_WQ_GATE_REC,
                                 g, sizeof g);
    if (st != GC_OK) return fail_st(q->w, st, "reading a gate record");
    *payload = g[0];
    *cycle = ((uint64_t)g[3] << 32) | g[2];
    return GCRT_SUCCESS;
}

gcrt_error_t gcrt_workq_write_tmd(gcrt_workq_t *w, const gc_elf_t *image, const char *kernel, const uint32_t grid[3],
                                  const uint32_t block[3], uint64_t param, uint64_t tmd_addr) {
    if (!w) return GCRT_ERROR_INVALID_VALUE;
    if (!image || !kernel || !grid || !block)
        return fail(w, GCRT_ERROR_INVALID_VALUE, "work queue: TMD: NULL image, kernel or dimensions");
    uint32_t pc = 0;
    if (gc_elf_symbol(image, kernel, &pc) != GC_OK)
        return fail(w, GCRT_ERROR_INVALID_KERNEL, "work queue: no kernel '%s' in the image", kernel);
    gc_tmd_t t;
    gc_tmd_init(&t);
    t.entry_pc = pc;
    t.param = thread_addr(param);
    memcpy(t.grid, grid, sizeof t.grid);
    memcpy(t.cta, block, sizeof t.cta);
    gc_buf_t b = {tmd_addr, GC_TMD_SIZE, GC_MEM_VIDMEM};
    if (tmd_addr % GC_TMD_ALIGN)
        return fail(w, GCRT_ERROR_INVALID_VALUE, "work queue: TMD at 0x%010llx: not %u-aligned",
                    (unsigned long long)tmd_addr, GC_TMD_ALIGN);
    gc_status_t st = gc_compute_write_tmd(w->dev, &t, &b);
    return st == GC_OK ? GCRT_SUCCESS : fail_st(w, st, "writing a TMD");
}

gcrt_error_t gcrt_workq_host_release(gcrt_workq_t *w, uint64_t addr, uint32_t payload) {
    if (!w) return GCRT_ERROR_INVALID_VALUE;
    if (addr % 16u)
        return fail(w, GCRT_ERROR_INVALID_VALUE, "work queue: release at 0x%010llx: not 16-aligned",
                    (unsigned long long)addr);
    uint32_t words[16];
    gc_pushbuf_t pb;
    gc_pb_init(&pb, words, 16);
    gc_pb_sem_release_ts(&pb, addr, payload, false, false);
    gc_status_t st = pb.status;
    if (st == GC_OK) st = gc_channel_submit(w->ch, &pb);
    return st == GC_OK ? GCRT_SUCCESS : fail_st(w, st, "pushing the host's release");
}
