/* Kernels of the GPU-owned work queues (issue 16, seed 002): producers that create work through
 * gc_workq.h, the child kernel they launch, and the hardware-rule probes.  Parameter blocks:
 * gc_workq_kernels.h. */
#include "gc_device.h"
#include "gc_workq.h"
#include "gc_workq_kernels.h"

#define PTR(a) ((volatile uint32_t *)(uintptr_t)(a))
#define WQ(a) ((volatile gc_wq_t *)(uintptr_t)(a))

static inline uint32_t xorshift(uint32_t *s) {
    uint32_t x = *s;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *s = x;
}

static inline void spin(uint32_t cycles) {
    uint32_t t0 = gc_cycle();
    while (gc_cycle() - t0 < cycles) {}
}

static inline uint32_t thread_linear(void) {
    uint32_t cta = gc_ctaid_x() + gc_nctaid_x() * (gc_ctaid_y() + gc_nctaid_y() * gc_ctaid_z());
    return cta * gc_ntid() + gc_tid();
}

/* One block of a range: the stamped release of item record `item` (payload tag), count += 1. */
static inline void item_block(gc_wq_res_t *r, uint32_t j, uint32_t item, uint32_t tag,
                              uint32_t count) {
    gc_cb_t b = gc_wq_block(r, j);
    gc_cb_release(&b, item, tag, 1);
    if (count) gc_cb_add(&b, count, 1u);
    gc_wq_end_block(r, j, &b);
}

GC_KERNEL(wq_stress) {
    const gc_wq_stress_params_t *p = gc_param;
    volatile gc_wq_t *q = WQ(p->q);
    uint32_t t = thread_linear();
    uint32_t s = p->seed ^ (t * 2654435761u) ^ 0x9E3779B9u;
    if (!s) s = 1u;
    volatile gc_wq_thread_rec_t *rec = (volatile gc_wq_thread_rec_t *)(uintptr_t)p->recs + t * p->rounds;
    for (uint32_t k = 0; k < p->rounds; k++) {
        uint32_t n = 1u + xorshift(&s) % p->max_n;
        uint32_t delay = p->max_delay ? xorshift(&s) % (p->max_delay + 1u) : 0u;
        gc_wq_res_t r;
        uint32_t st = gc_wq_reserve(q, n, &r);
        rec[k].nblocks = n;
        rec[k].pos = st == GC_WQ_OK ? r.pos : 0u;
        if (st != GC_WQ_OK) {
            rec[k].status = st;
            break;
        }
        for (uint32_t j = 0; j < n; j++)
            item_block(&r, j, p->items + (r.pos + j - p->base) * 16u, GC_WQ_ITEM_TAG(t, k, j), p->count);
        spin(delay);
        rec[k].release = gc_cycle();
        rec[k].status = gc_wq_commit(&r);
    }
    gc_wq_done(q);
}

GC_KERNEL(wq_fault) {
    const gc_wq_stress_params_t *p = gc_param;
    volatile gc_wq_t *q = WQ(p->q);
    if (thread_linear() != 0) return;
    volatile gc_wq_thread_rec_t *rec = (volatile gc_wq_thread_rec_t *)(uintptr_t)p->recs;
    gc_wq_res_t r;
    rec[0].status = gc_wq_reserve(q, 1, &r);
    rec[0].pos = r.pos;
    item_block(&r, 0, p->items, GC_WQ_ITEM_TAG(0u, 0u, 0u), p->count);
    rec[0].release = gc_cycle();
    gc_wq_commit(&r);
    rec[1].status = gc_wq_reserve(q, 1, &r);
    rec[1].pos = r.pos;
    item_block(&r, 0, p->items + 16u, GC_WQ_ITEM_TAG(0u, 1u, 0u), p->count);
    rec[1].release = *PTR(p->base); /* p->base is 0 here: a NULL load, NULL_ACCESS, before the commit */
    gc_wq_commit(&r);
}

GC_KERNEL(wq_wake) {
    const gc_wq_wake_params_t *p = gc_param;
    if (thread_linear() != 0) return;
    gc_wq_view_t v = {0};
    if (p->q) gc_wq_load(WQ(p->q), &v);
    spin(p->delay);
    *PTR(p->cyc) = gc_cycle();
    if (p->q) gc_wq_open_from(&v, 1u);
    else gc_atomic_exch(PTR(p->sem), 1u);
}

GC_KERNEL(wq_child) {
    const gc_wq_child_params_t *p = gc_param;
    if (gc_tid() == 0) PTR(p->mark)[gc_ctaid_x()] = GC_WQ_CHILD_MARK(p->tag);
}

/* flags: bit t set by thread t once it reserved (bits 0..3), bit 4 + t once it committed. */
GC_KERNEL(wq_seed) {
    const gc_wq_seed_params_t *p = gc_param;
    uint32_t t = gc_ctaid_x();
    if (gc_tid() != 0 || t > 3u) return;
    volatile gc_wq_thread_rec_t *rec = (volatile gc_wq_thread_rec_t *)(uintptr_t)p->recs + t;
    if (!p->cq) { /* the prior art: the host creates the work once K ended */
        rec->release = gc_cycle();
        return;
    }
    volatile gc_wq_t *q = WQ(t < 2u ? p->cq : p->kq);
    volatile uint32_t *flags = PTR(p->flags);
    uint32_t first = (t & 1u) == 0u; /* threads 0 and 2 reserve first, release last */
    if (!first)
        while (!(*flags & (1u << (t - 1u)))) {}
    gc_wq_res_t r;
    uint32_t st = gc_wq_reserve(q, 1, &r);
    rec->status = st;
    rec->pos = st == GC_WQ_OK ? r.pos : 0u;
    rec->nblocks = 1u;
    gc_atomic_or(flags, 1u << t);
    if (st == GC_WQ_OK) {
        gc_cb_t b = gc_wq_block(&r, 0);
        gc_cb_release(&b, p->items + 16u * t, t + 1u, 1);
        gc_cb_add(&b, p->count, 1u);
        if (t < 2u)
            gc_cb_launch(&b, p->tmds + 256u * t);
        else
            gc_cb_copy(&b, p->dst + 256u * (t - 2u), p->src + 256u * (t - 2u), 256u, p->crec + 16u * (t - 2u),
                       t + 1u);
        gc_wq_end_block(&r, 0, &b);
        if (first)
            while (!(*flags & (1u << (4u + t + 1u)))) {}
        rec->release = gc_cycle();
        rec->status = gc_wq_commit(&r);
    }
    gc_atomic_or(flags, 1u << (4u + t));
    gc_wq_done(q);
}

GC_KERNEL(wq_latency) {
    const gc_wq_latency_params_t *p = gc_param;
    if (thread_linear() != 0) return;
    volatile uint32_t *rec = PTR(p->t0);
    if (!p->use_queue) {
        rec[0] = gc_cycle();
        return;
    }
    volatile gc_wq_t *q = WQ(p->q);
    /* round 0 warms the path (instruction cache, the queue's control block lines); round 1 is
     * measured: rec[1] the cycle the thread decides, item record 1 the cycle the work starts.  Both
     * take gc_wq_commit's steps one by one with a CYCLE read after each (a few cycles each; kept in
     * registers), and round 1 writes them, for the parts, once its work ran */
    for (uint32_t k = 0; k < 2; k++) {
        uint32_t t0 = gc_cycle();
        gc_wq_res_t r;
        if (gc_wq_reserve(q, 1, &r) != GC_WQ_OK) break;
        uint32_t t1 = gc_cycle();
        item_block(&r, 0, p->items + 16u * k, 1u, 0u);
        uint32_t t2 = gc_cycle();
        gc_wq_write_entry(&r.v, r.base, r.len[0]);
        gc_wq_gate_entry(&r.v, gc_wq_step(&r.v, r.base, 1), r.pos + 1u);
        uint32_t t3 = gc_cycle();
        gc_wq_fence();
        uint32_t t4 = gc_cycle();
        gc_wq_open_from(&r.v, r.pos); /* its FENCE finds nothing outstanding */
        uint32_t t5 = gc_cycle();
        rec[k] = t0;
        if (k == 1) {
            /* the gate that opened for this work: its record's stamp, once the work ran */
            volatile uint32_t *it = PTR(p->items + 16u * k);
            while (!it[2] && !it[3]) {}
            volatile uint32_t *g = PTR(gc_wq_gate_slot(&r.v, gc_wq_index(&r.v, r.pos - 1u)) + GC_WQ_GATE_REC);
            volatile uint32_t *parts = PTR(p->t0 + GC_WQ_LATENCY_PARTS_OFF);
            parts[0] = t1;
            parts[1] = t2;
            parts[2] = t3;
            parts[3] = t4;
            parts[4] = t5;
            parts[5] = g[2];
        }
    }
    gc_wq_done(q);
}

GC_KERNEL(tq_worker) {
    const gc_tq_params_t *p = gc_param;
    spin(p->spin);
    if (gc_tid() != 0) return;
    uint32_t q = gc_qpos();
    gc_atomic_add(PTR(p->marks) + q, 1u);
    PTR(p->order)[gc_atomic_add(PTR(p->seq), 1u)] = q;
    if (gc_ctaid_x() != 0) return;
    if (q < p->more) gc_task_queue_push(PTR(p->hdr));
    if (q == p->close_at) gc_task_queue_close(PTR(p->hdr));
}

/* The API's edges on a queue of 32-dword blocks (gc_workq_kernels.h, wq_limits). */
GC_KERNEL(wq_limits) {
    const gc_wq_stress_params_t *p = gc_param;
    volatile gc_wq_t *q = WQ(p->q);
    volatile uint32_t *rec = PTR(p->recs);
    if (thread_linear() != 0) return;
    gc_wq_res_t r;
    rec[0] = gc_wq_reserve(q, 0, &r);
    rec[1] = gc_wq_reserve(q, GC_WQ_MAX_BLOCKS + 1u, &r);
    rec[2] = gc_wq_reserve(q, GC_WQ_MAX_BLOCKS, &r);
    if (rec[2] == GC_WQ_OK) {
        for (uint32_t j = 0; j < GC_WQ_MAX_BLOCKS; j++) item_block(&r, j, p->items + 16u * j, 0x100u + j, p->count);
        rec[3] = gc_wq_commit(&r);
    }
    rec[4] = gc_wq_reserve(q, 1, &r);
    if (rec[4] == GC_WQ_OK) {
        gc_cb_t b = gc_wq_block(&r, 0);
        for (uint32_t i = 0; i < 6; i++) gc_cb_release(&b, p->items + 16u * 8u, 0xBAD, 1); /* 36 dwords > 32 */
        gc_wq_end_block(&r, 0, &b);
        rec[5] = gc_wq_commit(&r);
    }
    rec[6] = gc_wq_reserve(q, 1, &r);
    if (rec[6] == GC_WQ_OK) {
        item_block(&r, 0, p->items + 16u * 9u, 0x109u, p->count);
        rec[7] = gc_wq_commit(&r);
    }
    gc_wq_done(q);
}
