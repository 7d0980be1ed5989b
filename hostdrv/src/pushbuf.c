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

void gc_pb_sem_release(gc_pushbuf_t *pb, uint64_t addr, uint64_t payload, bool payload64, bool wfi) {
    uint32_t d[5] = {
        GC_HOST_SEM_ADDR_LO_OFFSET((uint32_t)addr >> 2),
        GC_HOST_SEM_ADDR_HI_OFFSET((uint32_t)(addr >> 32)),
        (uint32_t)payload,
        (uint32_t)(payload >> 32),
        GC_HOST_SEM_EXECUTE_OPERATION(GC_HOST_SEM_EXECUTE_OPERATION_RELEASE) |
            GC_HOST_SEM_EXECUTE_PAYLOAD_SIZE(payload64 ? GC_HOST_SEM_EXECUTE_PAYLOAD_SIZE_64BIT
                                                       : GC_HOST_SEM_EXECUTE_PAYLOAD_SIZE_32BIT) |
            GC_HOST_SEM_EXECUTE_RELEASE_WFI(wfi ? GC_HOST_SEM_EXECUTE_RELEASE_WFI_EN
                                                : GC_HOST_SEM_EXECUTE_RELEASE_WFI_DIS),
    };
    gc_pb_incr(pb, 0, GC_HOST_SEM_ADDR_LO, d, 5);
}

void gc_pb_copy(gc_pushbuf_t *pb, uint32_t subch, uint64_t dst, uint64_t src, uint32_t bytes, bool release,
                uint64_t sem_addr, uint32_t sem_payload) {
    uint32_t off[4] = {
        GC_COPY_OFFSET_IN_UPPER_UPPER((uint32_t)(src >> 32)),
        (uint32_t)src,
        GC_COPY_OFFSET_OUT_UPPER_UPPER((uint32_t)(dst >> 32)),
        (uint32_t)dst,
    };
    gc_pb_incr(pb, subch, GC_COPY_OFFSET_IN_UPPER, off, 4);
    gc_pb_method(pb, subch, GC_COPY_LINE_LENGTH_IN, bytes);
    if (release) {
        uint32_t sem[3] = {GC_COPY_SET_SEMAPHORE_A_UPPER((uint32_t)(sem_addr >> 32)), (uint32_t)sem_addr,
                           sem_payload};
        gc_pb_incr(pb, subch, GC_COPY_SET_SEMAPHORE_A, sem, 3);
    }
    uint32_t launch =
        GC_COPY_LAUNCH_DMA_DATA_TRANSFER_TYPE(GC_COPY_LAUNCH_DMA_DATA_TRANSFER_TYPE_NON_PIPELINED) |
        GC_COPY_LAUNCH_DMA_FLUSH_ENABLE(GC_COPY_LAUNCH_DMA_FLUSH_ENABLE_TRUE) |
        GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE(release ? GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE_RELEASE_ONE_WORD_SEMAPHORE
                                                  : GC_COPY_LAUNCH_DMA_SEMAPHORE_TYPE_NONE) |
        GC_COPY_LAUNCH_DMA_SRC_MEMORY_LAYOUT(GC_COPY_LAUNCH_DMA_SRC_MEMORY_LAYOUT_PITCH) |
        GC_COPY_LAUNCH_DMA_DST_MEMORY_LAYOUT(GC_COPY_LAUNCH_DMA_DST_MEMORY_LAYOUT_PITCH);
    gc_pb_method(pb, subch, GC_COPY_LAUNCH_DMA, launch);
}
