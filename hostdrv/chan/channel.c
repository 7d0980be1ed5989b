/* channel.c: a GPFIFO channel.
 *
 * The channel owns a ring of 2^log2 8-byte GPFIFO entries and a pushbuffer area, both in sysmem.
 * gc_channel_submit copies a pushbuffer into the area (used as a circular byte buffer: the space
 * of entry k is free again once GP_GET has passed k), writes the GPFIFO entry at GP_PUT and rings
 * the doorbell (MMIO GP_PUT).  When the ring is full (GET == PUT + 1 mod n) or the area has no
 * room, it runs the device and re-reads GP_GET until there is room: flow control on GP_GET.
 */
#include <stdlib.h>
#include <string.h>

#include "../device/internal.h"

struct gc_channel {
    gc_device_t *dev;
    uint32_t id;
    uint32_t log2, n;
    uint32_t runlist, timeslice, interleave, acq_timeout;
    gc_buf_t ring, pb;
    uint32_t put;        /* our copy of GP_PUT */
    uint32_t pb_head;    /* next free byte of the pushbuffer area */
    uint32_t *seg_start; /* per ring slot: where its segment starts in the area */
    uint32_t copy_subch;
    uint32_t subch_class[8];
    gc_buf_t fence;      /* 4-byte word the channel's fences release */
    uint32_t fence_seq;  /* last fence value submitted */
};

void gc_channel_config_init(gc_channel_config_t *cfg) {
    cfg->id = -1;
    cfg->log2_entries = 6;
    cfg->runlist = 1;
    cfg->timeslice = 1024;
    cfg->interleave = GC_CHANNEL_INTERLEAVE_LEVEL_LOW;
    cfg->acq_timeout = 0;
    cfg->pb_bytes = 64 * 1024;
    cfg->copy_subch = 4;
}

uint32_t gc_channel_id(const gc_channel_t *ch) { return ch->id; }

static gc_status_t wr(gc_channel_t *ch, uint32_t off, uint32_t v) { return gc_mmio_write(ch->dev, off, v); }

/* Program the ring registers, enable, and bind the copy class. */
static gc_status_t channel_start(gc_channel_t *ch) {
    gc_status_t st;
    if ((st = wr(ch, GC_REG_CHANNEL_CTRL(ch->id), GC_CHANNEL_CTRL_RESET(1))) ||
        (st = wr(ch, GC_REG_CHANNEL_GPFIFO_BASE_LO(ch->id), (uint32_t)ch->ring.addr)) ||
        (st = wr(ch, GC_REG_CHANNEL_GPFIFO_BASE_HI(ch->id), GC_CHANNEL_GPFIFO_BASE_HI_HI(ch->ring.addr >> 32))) ||
        (st = wr(ch, GC_REG_CHANNEL_GPFIFO_SIZE(ch->id), GC_CHANNEL_GPFIFO_SIZE_LOG2(ch->log2))) ||
        (st = wr(ch, GC_REG_CHANNEL_RUNLIST(ch->id), GC_CHANNEL_RUNLIST_ID(ch->runlist))) ||
        (st = wr(ch, GC_REG_CHANNEL_TIMESLICE(ch->id), ch->timeslice)) ||
        (st = wr(ch, GC_REG_CHANNEL_INTERLEAVE(ch->id), GC_CHANNEL_INTERLEAVE_LEVEL(ch->interleave))) ||
        (st = wr(ch, GC_REG_CHANNEL_ACQ_TIMEOUT(ch->id), ch->acq_timeout)) ||
        (st = wr(ch, GC_REG_CHANNEL_CTRL(ch->id), GC_CHANNEL_CTRL_ENABLE(1))))
        return st;
    ch->put = 0;
    ch->pb_head = 0;
    ch->fence_seq = 0;
    memset(ch->subch_class, 0, sizeof ch->subch_class);
    if ((st = gc_mem_write(ch->dev, ch->fence.addr, &ch->fence_seq, sizeof ch->fence_seq))) return st;
    uint32_t words[4];
    gc_pushbuf_t pb;
    gc_pb_init(&pb, words, 4);
    gc_pb_set_object(&pb, ch->copy_subch, GC_CLASS_COPY);
    ch->subch_class[ch->copy_subch] = GC_CLASS_COPY;
    return gc_channel_submit(ch, &pb);
}

void gc_channel_set_subch_class(gc_channel_t *ch, uint32_t subch, uint32_t class_id) {
    if (ch && subch < 8) ch->subch_class[subch] = class_id;
}

gc_status_t gc_channel_open(gc_device_t *dev, const gc_channel_config_t *cfg, gc_channel_t **out) {
    gc_channel_config_t d;
    if (!cfg) {
        gc_channel_config_init(&d);
        cfg = &d;
    }
    if (!dev) return GC_ERR_INVALID_ARG;
    if (!out) return gc_fail(dev, GC_ERR_INVALID_ARG, "gc_channel_open: the output pointer is NULL");
    *out = NULL;
    if (cfg->log2_entries < GC_GPFIFO_LOG2_MIN || cfg->log2_entries > GC_GPFIFO_LOG2_MAX)
        return gc_fail(dev, GC_ERR_INVALID_ARG, "channel ring of 2^%u entries: log2 must be in [%u, %u]",
                       cfg->log2_entries, GC_GPFIFO_LOG2_MIN, GC_GPFIFO_LOG2_MAX);
    if (cfg->id >= (int)GC_NUM_CHANNELS || cfg->id < -1)
        return gc_fail(dev, GC_ERR_INVALID_ARG, "channel %d does not exist (0..%u)", cfg->id, GC_NUM_CHANNELS - 1);
    if (cfg->runlist >= GC_NUM_RUNLISTS || cfg->copy_subch > 7 || cfg->pb_bytes < 64 || (cfg->pb_bytes & 3) ||
        cfg->timeslice == 0 || cfg->interleave > GC_CHANNEL_INTERLEAVE_LEVEL_HIGH)
        return gc_fail(dev, GC_ERR_INVALID_ARG, "channel config: runlist %u (< %u), copy subchannel %u (< 8), "
                       "pushbuffer %u bytes (>= 64, multiple of 4), timeslice %u (> 0), interleave %u (<= %u)",
                       cfg->runlist, GC_NUM_RUNLISTS, cfg->copy_subch, cfg->pb_bytes, cfg->timeslice,
                       cfg->interleave, GC_CHANNEL_INTERLEAVE_LEVEL_HIGH);
    int id = cfg->id;
    if (id < 0)
        for (id = 0; id < (int)GC_NUM_CHANNELS && dev->channels[id]; id++) {}
    if (id >= (int)GC_NUM_CHANNELS) return gc_fail(dev, GC_ERR_BUSY, "all %u channels are open", GC_NUM_CHANNELS);
    if (dev->channels[id]) return gc_fail(dev, GC_ERR_BUSY, "channel %d is already open", id);
    gc_channel_t *ch = calloc(1, sizeof *ch);
    if (!ch) return gc_fail(dev, GC_ERR_NO_MEMORY, "channel %d: out of host memory", id);
    ch->dev = dev;
    ch->id = (uint32_t)id;
    ch->log2 = cfg->log2_entries;
    ch->n = 1u << cfg->log2_entries;
    ch->runlist = cfg->runlist;
    ch->timeslice = cfg->timeslice;
    ch->interleave = cfg->interleave;
    ch->acq_timeout = cfg->acq_timeout;
    ch->copy_subch = cfg->copy_subch;
    ch->seg_start = calloc(ch->n, sizeof *ch->seg_start);
    gc_status_t st = ch->seg_start ? GC_OK : gc_fail(dev, GC_ERR_NO_MEMORY, "channel %d: out of host memory", id);
    if (st == GC_OK) st = gc_mem_alloc(dev, GC_MEM_SYSMEM, (uint64_t)ch->n * 8u, 64, &ch->ring);
    if (st == GC_OK) st = gc_mem_alloc(dev, GC_MEM_SYSMEM, cfg->pb_bytes, 64, &ch->pb);
    if (st == GC_OK) st = gc_mem_alloc(dev, GC_MEM_SYSMEM, 64, 64, &ch->fence);
    if (st == GC_OK) {
        dev->channels[id] = ch;
        st = channel_start(ch);
    }
    if (st != GC_OK) {
        gc_channel_close(ch);
        return st;
    }
    *out = ch;
    return GC_OK;
}

void gc_channel_close(gc_channel_t *ch) {
    if (!ch) return;
    gc_device_t *dev = ch->dev;
    if (dev->channels[ch->id] == ch) {
        gc_mmio_write(dev, GC_REG_CHANNEL_CTRL(ch->id), GC_CHANNEL_CTRL_RESET(1));
        dev->channels[ch->id] = NULL;
    }
    if (ch->ring.size) gc_mem_free(dev, &ch->ring);
    if (ch->pb.size) gc_mem_free(dev, &ch->pb);
    if (ch->fence.size) gc_mem_free(dev, &ch->fence);
    free(ch->seg_start);
    free(ch);
}

gc_status_t gc_channel_gp_get(gc_channel_t *ch, uint32_t *get) {
    if (!ch) return GC_ERR_INVALID_ARG;
    return gc_mmio_read(ch->dev, GC_REG_CHANNEL_GP_GET(ch->id), get);
}

uint64_t gc_channel_sysmem_bytes(const gc_channel_config_t *cfg) {
    gc_channel_config_t d;
    if (!cfg) {
        gc_channel_config_init(&d);
        cfg = &d;
    }
    /* as gc_channel_open allocates: ring, pushbuffer area, fence word, each 64-byte aligned */
    uint64_t ring = (8ull << cfg->log2_entries), pb = cfg->pb_bytes;
    return ((ring + 63) & ~63ull) + ((pb + 63) & ~63ull) + 64;
}

gc_status_t gc_channel_error(gc_channel_t *ch, gc_channel_error_t *e) {
    if (!ch) return GC_ERR_INVALID_ARG;
    if (!e) return gc_fail(ch->dev, GC_ERR_INVALID_ARG, "channel %u: gc_channel_error: the record pointer is NULL", ch->id);
    gc_device_t *dev = ch->dev;
    uint32_t cause = 0;
    gc_status_t st;
    memset(e, 0, sizeof *e);
    e->channel = ch->id;
    if ((st = gc_mmio_read(dev, GC_REG_CHANNEL_ERROR(ch->id), &cause))) return st;
    e->cause = GC_CHANNEL_ERROR_CAUSE_GET(cause);
    if (e->cause == GC_ERROR_CAUSE_NONE) return GC_OK;
    if ((st = gc_mmio_read(dev, GC_REG_CHANNEL_ERROR_GP_GET(ch->id), &e->gp_get)) ||
        (st = gc_mmio_read(dev, GC_REG_CHANNEL_ERROR_METHOD(ch->id), &e->method)) ||
        (st = gc_mmio_read(dev, GC_REG_CHANNEL_ERROR_DATA(ch->id), &e->data)))
        return st;
    return GC_OK;
}

int gc_channel_error_format(const gc_channel_error_t *e, uint32_t bound_class, char *buf, size_t len) {
    uint32_t mthd = GC_CHANNEL_ERROR_METHOD_ADDRESS_GET(e->method) * 4u;
    uint32_t subch = GC_CHANNEL_ERROR_METHOD_SUBCHANNEL_GET(e->method);
    const char *name = gc_method_name(bound_class, mthd);
    return snprintf(buf, len,
                    "channel %u: %s at GP_GET %u, method 0x%04x (%s) on subchannel %u, data 0x%08x: %s",
                    e->channel, gc_error_cause_name(e->cause), e->gp_get, mthd, name ? name : "unknown method",
                    subch, e->data, gc_error_cause_doc(e->cause));
}

/* If the channel has stopped with an error: record the one-line message and say so. */
gc_status_t gc_channel_check(gc_channel_t *ch) {
    if (!ch) return GC_ERR_INVALID_ARG;
    gc_channel_error_t e;
    gc_status_t st = gc_channel_error(ch, &e);
    if (st != GC_OK) return st;
    if (e.cause == GC_ERROR_CAUSE_NONE) return GC_OK;
    uint32_t subch = GC_CHANNEL_ERROR_METHOD_SUBCHANNEL_GET(e.method);
    char msg[400];
    gc_channel_error_format(&e, ch->subch_class[subch], msg, sizeof msg);
    return gc_fail(ch->dev, GC_ERR_CHANNEL_FAULT, "%s", msg);
}

/* Run the device for one poll interval; time out with a state dump once wait_cycles device cycles
 * passed since *t0 (the device's cycle count when the wait began: the polls' register reads count
 * too, and the last step stops at the budget). */
static gc_status_t poll_step(gc_channel_t *ch, const uint64_t *t0, const char *what) {
    gc_device_t *dev = ch->dev;
    uint64_t spent = gc_device_cycles(dev) - *t0;
    if (spent >= dev->cfg.wait_cycles) {
        uint32_t get = 0;
        gc_channel_gp_get(ch, &get);
        fprintf(stderr, "hostdrv: channel %u: %s did not happen within %llu cycles (GP_GET %u, GP_PUT %u)\n",
                ch->id, what, (unsigned long long)dev->cfg.wait_cycles, get, ch->put);
        gc_device_dump_state(dev, stderr);
        return gc_fail(dev, GC_ERR_TIMEOUT, "channel %u: %s timed out after %llu cycles at GP_GET %u, GP_PUT %u",
                       ch->id, what, (unsigned long long)dev->cfg.wait_cycles, get, ch->put);
    }
    uint64_t left = dev->cfg.wait_cycles - spent;
    gc_status_t st = gc_device_run(dev, left < dev->cfg.poll_cycles ? left : dev->cfg.poll_cycles);
    if (st != GC_OK) return gc_fail_backend(dev, st, "channel %u: waiting for %s", ch->id, what);
    return GC_OK;
}

/* Find `bytes` of contiguous pushbuffer space given GP_GET; sets *off.  false if no room yet. */
static bool pb_space(gc_channel_t *ch, uint32_t get, uint32_t bytes, uint32_t *off) {
    uint32_t size = (uint32_t)ch->pb.size;
    if (gc_ring_empty(get, ch->put)) ch->pb_head = 0;
    if (bytes == 0) {
        *off = ch->pb_head;
        return true;
    }
    if (gc_ring_empty(get, ch->put)) {
        *off = 0;
        return bytes <= size;
    }
    uint32_t tail = ch->seg_start[get];
    if (ch->pb_head >= tail) {
        if (size - ch->pb_head >= bytes) {
            *off = ch->pb_head;
            return true;
        }
        if (tail > bytes) { /* wrap to the start; strictly below tail so head never meets it */
            *off = 0;
            return true;
        }
        return false;
    }
    if (tail - ch->pb_head > bytes) {
        *off = ch->pb_head;
        return true;
    }
    return false;
}

static gc_status_t submit(gc_channel_t *ch, const uint32_t *words, uint32_t len, uint32_t e0, uint32_t e1,
                          bool raw_entry) {
    gc_device_t *dev = ch->dev;
    uint32_t bytes = len * 4u;
    if (bytes > ch->pb.size)
        return gc_fail(dev, GC_ERR_FULL, "channel %u: pushbuffer of %u dwords is larger than the channel's %llu "
                       "bytes of pushbuffer space", ch->id, len, (unsigned long long)ch->pb.size);
    if (len >= (1u << GC_GP_ENTRY1_LENGTH_WIDTH))
        return gc_fail(dev, GC_ERR_INVALID_ARG, "channel %u: segment of %u dwords exceeds the GPFIFO LENGTH field",
                       ch->id, len);
    uint64_t t0 = gc_device_cycles(ch->dev);
    uint32_t off = 0;
    gc_status_t st;
    for (;;) {
        uint32_t get;
        if ((st = gc_channel_check(ch)) || (st = gc_channel_gp_get(ch, &get))) return st;
        if (!gc_ring_full(get, ch->put, ch->n) && pb_space(ch, get, bytes, &off)) break;
        if ((st = poll_step(ch, &t0, "room in the ring"))) return st;
    }
    if (!raw_entry) {
        uint64_t addr = ch->pb.addr + off;
        if (bytes && (st = gc_mem_write(dev, addr, words, bytes))) return st;
        e0 = gc_gp_entry0(addr);
        e1 = gc_gp_entry1(addr, len, GC_GP_ENTRY1_LEVEL_MAIN, GC_GP_ENTRY1_SYNC_PROCEED);
    }
    uint32_t entry[2] = {e0, e1};
    if ((st = gc_mem_write(dev, ch->ring.addr + (uint64_t)ch->put * 8u, entry, sizeof entry))) return st;
    ch->seg_start[ch->put] = off;
    ch->pb_head = off + bytes;
    ch->put = gc_wrap_pow2((int64_t)ch->put + 1, ch->log2);
    return gc_mmio_write(dev, GC_REG_CHANNEL_GP_PUT(ch->id), ch->put);
}

gc_status_t gc_channel_submit(gc_channel_t *ch, const gc_pushbuf_t *pb) {
    if (!ch) return GC_ERR_INVALID_ARG;
    if (!pb) return gc_fail(ch->dev, GC_ERR_INVALID_ARG, "channel %u: gc_channel_submit: the pushbuffer is NULL", ch->id);
    if (pb->status != GC_OK)
        return gc_fail(ch->dev, pb->status, "channel %u: pushbuffer not submitted: it was built with an error (%s)",
                       ch->id, gc_status_str(pb->status));
    if (pb->len == 0) return gc_fail(ch->dev, GC_ERR_INVALID_ARG, "channel %u: empty pushbuffer", ch->id);
    return submit(ch, pb->words, pb->len, 0, 0, false);
}

gc_status_t gc_channel_submit_entry(gc_channel_t *ch, uint32_t entry0, uint32_t entry1) {
    if (!ch) return GC_ERR_INVALID_ARG;
    return submit(ch, NULL, 0, entry0, entry1, true);
}

/* GP_GET reaching GP_PUT only says the PBDMA has taken every entry: a copy launched by the last
 * one may still be running.  So, as NVIDIA's drivers do, fence: release a sequence number with
 * RELEASE_WFI (the release waits for the channel's engines) and wait for it to land. */
gc_status_t gc_channel_wait_idle(gc_channel_t *ch) {
    if (!ch) return GC_ERR_INVALID_ARG;
    gc_status_t st;
    uint32_t words[8];
    gc_pushbuf_t pb;
    gc_pb_init(&pb, words, 8);
    uint32_t seq = ch->fence_seq + 1;
    gc_pb_sem_release(&pb, ch->fence.addr, seq, false, true);
    if ((st = gc_channel_submit(ch, &pb))) {
        if (st == GC_ERR_CHANNEL_FAULT) fprintf(stderr, "hostdrv: %s\n", gc_device_last_error(ch->dev));
        return st;
    }
    ch->fence_seq = seq;
    uint64_t t0 = gc_device_cycles(ch->dev);
    for (;;) {
        uint32_t v = 0;
        if ((st = gc_mem_read(ch->dev, ch->fence.addr, &v, sizeof v))) return st;
        if (v == seq) return GC_OK;
        if ((st = gc_channel_check(ch))) {
            fprintf(stderr, "hostdrv: %s\n", gc_device_last_error(ch->dev));
            return st;
        }
        if ((st = poll_step(ch, &t0, "the channel's fence"))) return st;
    }
}

gc_status_t gc_channel_reset(gc_channel_t *ch) {
    if (!ch) return GC_ERR_INVALID_ARG;
    return channel_start(ch);
}

gc_status_t gc_copy(gc_channel_t *ch, uint64_t dst, uint64_t src, uint32_t bytes, uint64_t sem_addr,
                    uint32_t payload) {
    if (!ch) return GC_ERR_INVALID_ARG;
    uint32_t words[16];
    gc_pushbuf_t pb;
    gc_pb_init(&pb, words, 16);
    gc_pb_copy(&pb, ch->copy_subch, dst, src, bytes, sem_addr != 0, sem_addr, payload);
    return gc_channel_submit(ch, &pb);
}
