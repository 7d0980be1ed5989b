/* pushbuf.c: method encoders into a caller-owned dword buffer.
 *
 * Headers and fields come from the generated gpucosim_spec.h (NVIDIA's clc56f / clc5b5 layouts);
 * nothing here knows a bit position.  Errors are sticky: the first one is kept in pb->status.
 */
#include <string.h>

#include "gpucosim/hostdrv.h"
#include "gpucosim_spec.h"

#define PB_MAX_COUNT ((1u << GC_METHOD_HEADER_COUNT_WIDTH) - 1u)
#define PB_MAX_SUBCH ((1u << GC_METHOD_HEADER_SUBCHANNEL_WIDTH) - 1u)
#define PB_MAX_MTHD (((1u << GC_METHOD_HEADER_ADDRESS_WIDTH) - 1u) * 4u)

void gc_pb_init(gc_pushbuf_t *pb, uint32_t *storage, uint32_t cap) {
    pb->words = storage;
    pb->cap = cap;
    pb->len = 0;
    pb->status = storage || cap == 0 ? GC_OK : GC_ERR_INVALID_ARG;
}

void gc_pb_reset(gc_pushbuf_t *pb) {
    pb->len = 0;
    pb->status = GC_OK;
}

static bool pb_room(gc_pushbuf_t *pb, uint32_t n) {
    if (pb->status != GC_OK) return false;
    if (pb->cap - pb->len < n) {
        pb->status = GC_ERR_FULL;
        return false;
    }
    return true;
}

static bool pb_check(gc_pushbuf_t *pb, uint32_t subch, uint32_t mthd, uint32_t count) {
    if (pb->status != GC_OK) return false;
    if (subch > PB_MAX_SUBCH || (mthd & 3u) || mthd > PB_MAX_MTHD || count > PB_MAX_COUNT) {
        pb->status = GC_ERR_INVALID_ARG;
        return false;
    }
    return true;
}

static void pb_emit(gc_pushbuf_t *pb, uint32_t hdr, const uint32_t *data, uint32_t count) {
    if (!pb_room(pb, 1u + count)) return;
    if (count && !data) {
        pb->status = GC_ERR_INVALID_ARG;
        return;
    }
    pb->words[pb->len++] = hdr;
    if (count) memcpy(&pb->words[pb->len], data, count * sizeof(uint32_t));
    pb->len += count;
}

void gc_pb_incr(gc_pushbuf_t *pb, uint32_t subch, uint32_t mthd, const uint32_t *data, uint32_t count) {
    if (pb_check(pb, subch, mthd, count)) pb_emit(pb, gc_mh_incr(subch, mthd, count), data, count);
}

void gc_pb_nonincr(gc_pushbuf_t *pb, uint32_t subch, uint32_t mthd, const uint32_t *data, uint32_t count) {
    if (pb_check(pb, subch, mthd, count)) pb_emit(pb, gc_mh_nonincr(subch, mthd, count), data, count);
}

void gc_pb_oneincr(gc_pushbuf_t *pb, uint32_t subch, uint32_t mthd, const uint32_t *data, uint32_t count) {
    if (pb_check(pb, subch, mthd, count)) pb_emit(pb, gc_mh_oneincr(subch, mthd, count), data, count);
}

void gc_pb_immd(gc_pushbuf_t *pb, uint32_t subch, uint32_t mthd, uint32_t data13) {
    if (!pb_check(pb, subch, mthd, data13)) return;
    pb_emit(pb, gc_mh_immd(subch, mthd, data13), NULL, 0);
}

void gc_pb_end_segment(gc_pushbuf_t *pb) { pb_emit(pb, gc_mh_end_segment(), NULL, 0); }

void gc_pb_method(gc_pushbuf_t *pb, uint32_t subch, uint32_t mthd, uint32_t data) {
    gc_pb_incr(pb, subch, mthd, &data, 1);
}

void gc_pb_raw(gc_pushbuf_t *pb, uint32_t word) { pb_emit(pb, word, NULL, 0); }

void gc_pb_set_object(gc_pushbuf_t *pb, uint32_t subch, uint32_t class_id) {
    gc_pb_method(pb, subch, GC_HOST_SET_OBJECT, GC_HOST_SET_OBJECT_NVCLASS(class_id));
}

void gc_pb_sem_execute(gc_pushbuf_t *pb, uint64_t addr, uint64_t payload, uint32_t execute) {
    uint32_t d[5] = {
        GC_HOST_SEM_ADDR_LO_OFFSET((uint32_t)addr >> 2),
        GC_HOST_SEM_ADDR_HI_OFFSET((uint32_t)(addr >> 32)),
        (uint32_t)payload,
        (uint32_t)(payload >> 32),
        execute,
    };
    gc_pb_incr(pb, 0, GC_HOST_SEM_ADDR_LO, d, 5);
}

static uint32_t sem_size(bool payload64) {
    return GC_HOST_SEM_EXECUTE_PAYLOAD_SIZE(payload64 ? GC_HOST_SEM_EXECUTE_PAYLOAD_SIZE_64BIT
                                                      : GC_HOST_SEM_EXECUTE_PAYLOAD_SIZE_32BIT);
}

static uint32_t release_word(bool payload64, bool wfi, bool stamp) {
    return GC_HOST_SEM_EXECUTE_OPERATION(GC_HOST_SEM_EXECUTE_OPERATION_RELEASE) | sem_size(payload64) |
           GC_HOST_SEM_EXECUTE_RELEASE_WFI(wfi ? GC_HOST_SEM_EXECUTE_RELEASE_WFI_EN
                                               : GC_HOST_SEM_EXECUTE_RELEASE_WFI_DIS) |
           GC_HOST_SEM_EXECUTE_RELEASE_TIMESTAMP(stamp ? GC_HOST_SEM_EXECUTE_RELEASE_TIMESTAMP_EN
                                                       : GC_HOST_SEM_EXECUTE_RELEASE_TIMESTAMP_DIS);
}

void gc_pb_sem_release(gc_pushbuf_t *pb, uint64_t addr, uint64_t payload, bool payload64, bool wfi) {
    gc_pb_sem_execute(pb, addr, payload, release_word(payload64, wfi, false));
}

void gc_pb_sem_release_ts(gc_pushbuf_t *pb, uint64_t addr, uint64_t payload, bool payload64, bool wfi) {
    gc_pb_sem_execute(pb, addr, payload, release_word(payload64, wfi, true));
}

void gc_pb_sem_acquire(gc_pushbuf_t *pb, uint64_t addr, uint64_t payload, uint32_t op, bool payload64,
                       bool switch_on_fail) {
    if (op == GC_HOST_SEM_EXECUTE_OPERATION_RELEASE || op > GC_HOST_SEM_EXECUTE_OPERATION_ACQ_NOR) {
        if (pb->status == GC_OK) pb->status = GC_ERR_INVALID_ARG;
        return;
    }
    gc_pb_sem_execute(pb, addr, payload,
                      GC_HOST_SEM_EXECUTE_OPERATION(op) | sem_size(payload64) |
                          GC_HOST_SEM_EXECUTE_ACQUIRE_SWITCH_TSG(switch_on_fail ? GC_HOST_SEM_EXECUTE_ACQUIRE_SWITCH_TSG_EN
                                                                                : GC_HOST_SEM_EXECUTE_ACQUIRE_SWITCH_TSG_DIS));
}

/* The reduction forms NVIDIA's dev_pbdma.ref accepts: INC and DEC unsigned 32-bit only, IADD
 * unsigned only at 64 bits (the device faults the others INVALID_REDUCTION). */
static bool red_form_ok(uint32_t red, bool is_signed, bool payload64) {
    if (red == GC_HOST_SEM_EXECUTE_REDUCTION_INC || red == GC_HOST_SEM_EXECUTE_REDUCTION_DEC)
        return !is_signed && !payload64;
    return red <= GC_HOST_SEM_EXECUTE_REDUCTION_DEC && !(red == GC_HOST_SEM_EXECUTE_REDUCTION_IADD && is_signed && payload64);
}

static void sem_reduce(gc_pushbuf_t *pb, uint64_t addr, uint64_t operand, uint32_t red, bool is_signed,
                       bool payload64, bool stamp) {
    if (!red_form_ok(red, is_signed, payload64)) {
        if (pb->status == GC_OK) pb->status = GC_ERR_INVALID_ARG;
        return;
    }
    gc_pb_sem_execute(pb, addr, operand,
                      GC_HOST_SEM_EXECUTE_OPERATION(GC_HOST_SEM_EXECUTE_OPERATION_REDUCTION) |
                          GC_HOST_SEM_EXECUTE_REDUCTION(red) | sem_size(payload64) |
                          GC_HOST_SEM_EXECUTE_RELEASE_TIMESTAMP(stamp ? GC_HOST_SEM_EXECUTE_RELEASE_TIMESTAMP_EN
                                                                      : GC_HOST_SEM_EXECUTE_RELEASE_TIMESTAMP_DIS) |
                          GC_HOST_SEM_EXECUTE_REDUCTION_FORMAT(is_signed ? GC_HOST_SEM_EXECUTE_REDUCTION_FORMAT_SIGNED
                                                                         : GC_HOST_SEM_EXECUTE_REDUCTION_FORMAT_UNSIGNED));
}

void gc_pb_sem_reduce(gc_pushbuf_t *pb, uint64_t addr, uint64_t operand, uint32_t red, bool is_signed,
                      bool payload64) {
    sem_reduce(pb, addr, operand, red, is_signed, payload64, false);
}

void gc_pb_sem_reduce_ts(gc_pushbuf_t *pb, uint64_t addr, uint64_t operand, uint32_t red, bool is_signed,
                         bool payload64) {
    sem_reduce(pb, addr, operand, red, is_signed, payload64, true);
}

/* The semaphore methods and LAUNCH_DMA of a copy-class operation (after its geometry methods, if
 * data moves).  A release-only LAUNCH_DMA leaves the transfer fields 0, as NVIDIA's driver does. */
static void copy_release(gc_pushbuf_t *pb, uint32_t subch, const gc_copy_desc_t *d) {
    bool fill = d->fill_bytes != 0, multi = d->line_count > 1;
    if (d->sem != GC_COPY_SEM_NONE) {
        uint32_t sem[3] = {GC_COPY_SET_SEMAPHORE_A_UPPER((uint32_t)(d->sem_addr >> 32)), (uint32_t)d->sem_addr,
                           d->sem_payload};
        gc_pb_incr(pb, subch, GC_COPY_SET_SEMAPHORE_A, sem, 3);
    }
    static const uint32_t sem_type[] = {GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE_NONE,
                                        GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE_RELEASE_ONE_WORD_SEMAPHORE,
                                        GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE_RELEASE_FOUR_WORD_SEMAPHORE};
    uint32_t launch =
        GC_COPY_LAUNCH_DMA_FLUSH_ENABLE(GC_COPY_LAUNCH_DMA_FLUSH_ENABLE_TRUE) |
        GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE(sem_type[d->sem]) |
        GC_COPY_LAUNCH_DMA_INTERRUPT_TYPE(d->interrupt ? GC_COPY_LAUNCH_DMA_INTERRUPT_TYPE_NON_BLOCKING
                                                       : GC_COPY_LAUNCH_DMA_INTERRUPT_TYPE_NONE);
    if (d->sem_reduce)
        launch |= GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION(d->sem_red) |
                  GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_SIGN(d->sem_signed ? GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_SIGN_SIGNED
                                                                            : GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_SIGN_UNSIGNED) |
                  GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_ENABLE(GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_ENABLE_TRUE);
    if (!d->no_data)
        launch |= GC_COPY_LAUNCH_DMA_DATA_TRANSFER_TYPE(GC_COPY_LAUNCH_DMA_DATA_TRANSFER_TYPE_NON_PIPELINED) |
                  GC_COPY_LAUNCH_DMA_SRC_MEMORY_LAYOUT(GC_COPY_LAUNCH_DMA_SRC_MEMORY_LAYOUT_PITCH) |
                  GC_COPY_LAUNCH_DMA_DST_MEMORY_LAYOUT(GC_COPY_LAUNCH_DMA_DST_MEMORY_LAYOUT_PITCH) |
                  GC_COPY_LAUNCH_DMA_MULTI_LINE_ENABLE(multi ? GC_COPY_LAUNCH_DMA_MULTI_LINE_ENABLE_TRUE
                                                             : GC_COPY_LAUNCH_DMA_MULTI_LINE_ENABLE_FALSE) |
                  GC_COPY_LAUNCH_DMA_REMAP_ENABLE(fill ? GC_COPY_LAUNCH_DMA_REMAP_ENABLE_TRUE
                                                       : GC_COPY_LAUNCH_DMA_REMAP_ENABLE_FALSE);
    gc_pb_method(pb, subch, GC_COPY_LAUNCH_DMA, launch);
}

void gc_pb_copy_desc(gc_pushbuf_t *pb, uint32_t subch, const gc_copy_desc_t *d) {
    if (pb->status != GC_OK) return;
    bool fill = d->fill_bytes != 0 && !d->no_data;
    bool multi = d->line_count > 1 && !d->no_data;
    /* the copy class's reductions are 32-bit, with the host class's encoding and forms */
    bool red_bad = d->sem_reduce && (d->sem == GC_COPY_SEM_NONE || !red_form_ok(d->sem_red, d->sem_signed, false));
    if (d->fill_bytes > 4 || (fill && d->line_bytes % d->fill_bytes) || d->sem > GC_COPY_SEM_FOUR_WORD || red_bad) {
        pb->status = GC_ERR_INVALID_ARG;
        return;
    }
    if (d->no_data) { /* the release / interrupt only */
        copy_release(pb, subch, d);
        return;
    }
    uint32_t off[4] = {
        GC_COPY_OFFSET_IN_UPPER_UPPER((uint32_t)(d->src >> 32)),
        (uint32_t)d->src,
        GC_COPY_OFFSET_OUT_UPPER_UPPER((uint32_t)(d->dst >> 32)),
        (uint32_t)d->dst,
    };
    gc_pb_incr(pb, subch, GC_COPY_OFFSET_IN_UPPER, off, 4);
    /* with REMAP, LINE_LENGTH_IN counts elements */
    uint32_t line_len = fill ? d->line_bytes / d->fill_bytes : d->line_bytes;
    if (multi) {
        uint32_t geo[4] = {d->pitch_in, d->pitch_out, line_len, d->line_count};
        gc_pb_incr(pb, subch, GC_COPY_PITCH_IN, geo, 4);
    } else {
        gc_pb_method(pb, subch, GC_COPY_LINE_LENGTH_IN, line_len);
    }
    if (fill) {
        uint32_t remap[3] = {
            d->fill_value, 0,
            GC_COPY_SET_REMAP_COMPONENTS_DST_X(GC_COPY_SET_REMAP_COMPONENTS_DST_X_CONST_A) |
                GC_COPY_SET_REMAP_COMPONENTS_COMPONENT_SIZE(d->fill_bytes - 1) |
                GC_COPY_SET_REMAP_COMPONENTS_NUM_SRC_COMPONENTS(GC_COPY_SET_REMAP_COMPONENTS_NUM_SRC_COMPONENTS_ONE) |
                GC_COPY_SET_REMAP_COMPONENTS_NUM_DST_COMPONENTS(GC_COPY_SET_REMAP_COMPONENTS_NUM_DST_COMPONENTS_ONE),
        };
        gc_pb_incr(pb, subch, GC_COPY_SET_REMAP_CONST_A, remap, 3);
    }
    copy_release(pb, subch, d);
}

void gc_pb_copy(gc_pushbuf_t *pb, uint32_t subch, uint64_t dst, uint64_t src, uint32_t bytes, bool release,
                uint64_t sem_addr, uint32_t sem_payload) {
    gc_copy_desc_t d = {.dst = dst, .src = src, .line_bytes = bytes, .line_count = 1,
                        .sem = release ? GC_COPY_SEM_ONE_WORD : GC_COPY_SEM_NONE,
                        .sem_addr = sem_addr, .sem_payload = sem_payload};
    gc_pb_copy_desc(pb, subch, &d);
}
