/* chan.h: the host driver's channel layer (hostdrv/chan/): GPFIFO ring arithmetic (incl. the
 * work-queue document's wrap() for any ring size), the pushbuffer's method encoders (from the
 * generated spec header) into a caller's word buffer, GPFIFO channels (ring + pushbuffer space,
 * submit with flow control on GP_GET, wait, error report, reset), semaphore waits and copies
 * through the copy engine.  Uses the mem and device layers (gpucosim/mem.h). */
#ifndef GPUCOSIM_CHAN_H
#define GPUCOSIM_CHAN_H

#include "gpucosim/mem.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ ring (wrap(): docs/sources.md) */
/* wrap() for a ring of n entries, any n > 0: x in [-n, 2n) comes back into [0, n). */
uint32_t gc_wrap(int64_t x, uint32_t n);
/* wrap() for a power-of-two ring of 2^log2n entries: x & (2^log2n - 1). */
uint32_t gc_wrap_pow2(int64_t x, uint32_t log2n);
bool gc_ring_empty(uint32_t get, uint32_t put);
bool gc_ring_full(uint32_t get, uint32_t put, uint32_t n);   /* GET == (PUT + 1) mod n */
uint32_t gc_ring_free(uint32_t get, uint32_t put, uint32_t n); /* entries PUT may still advance */

/* ------------------------------------------------------------------ pushbuf */
typedef struct gc_pushbuf {
    uint32_t *words;
    uint32_t cap;       /* capacity in dwords */
    uint32_t len;       /* dwords written */
    gc_status_t status; /* first error; later calls do nothing once set */
} gc_pushbuf_t;

void gc_pb_init(gc_pushbuf_t *pb, uint32_t *storage, uint32_t cap);
void gc_pb_reset(gc_pushbuf_t *pb);
/* INC_METHOD: data[i] goes to method mthd + 4*i.  count 0..8191. */
void gc_pb_incr(gc_pushbuf_t *pb, uint32_t subch, uint32_t mthd, const uint32_t *data, uint32_t count);
/* NON_INC_METHOD: every data word to the same method. */
void gc_pb_nonincr(gc_pushbuf_t *pb, uint32_t subch, uint32_t mthd, const uint32_t *data, uint32_t count);
/* ONE_INC: data[0] to mthd, the rest to mthd + 4. */
void gc_pb_oneincr(gc_pushbuf_t *pb, uint32_t subch, uint32_t mthd, const uint32_t *data, uint32_t count);
/* IMMD_DATA_METHOD: a 13-bit value in the header itself. */
void gc_pb_immd(gc_pushbuf_t *pb, uint32_t subch, uint32_t mthd, uint32_t data13);
void gc_pb_end_segment(gc_pushbuf_t *pb);
/* Convenience: one method with one data word (INCR, count 1). */
void gc_pb_method(gc_pushbuf_t *pb, uint32_t subch, uint32_t mthd, uint32_t data);
void gc_pb_raw(gc_pushbuf_t *pb, uint32_t word);
void gc_pb_set_object(gc_pushbuf_t *pb, uint32_t subch, uint32_t class_id);
/* Host semaphore methods: SEM_ADDR_LO/HI, SEM_PAYLOAD_LO/HI, then SEM_EXECUTE with `execute`
 * (built with the GC_HOST_SEM_EXECUTE_* field macros).  The helpers below cover the usual forms. */
void gc_pb_sem_execute(gc_pushbuf_t *pb, uint64_t addr, uint64_t payload, uint32_t execute);
/* RELEASE of a 32- or 64-bit payload; `wfi` waits for the channel's engine work first. */
void gc_pb_sem_release(gc_pushbuf_t *pb, uint64_t addr, uint64_t payload, bool payload64, bool wfi);
/* RELEASE with timestamp: 16 bytes at a 16-aligned addr: payload, then the 64-bit cycle stamp. */
void gc_pb_sem_release_ts(gc_pushbuf_t *pb, uint64_t addr, uint64_t payload, bool payload64, bool wfi);
/* Acquire: op is GC_HOST_SEM_EXECUTE_OPERATION_{ACQUIRE, ACQ_STRICT_GEQ, ACQ_CIRC_GEQ, ACQ_AND,
 * ACQ_NOR}; switch_on_fail sets ACQUIRE_SWITCH_TSG (the scheduler switches away at once). */
void gc_pb_sem_acquire(gc_pushbuf_t *pb, uint64_t addr, uint64_t payload, uint32_t op, bool payload64,
                       bool switch_on_fail);
/* Reduction: red is GC_HOST_SEM_EXECUTE_REDUCTION_{IMIN, IMAX, IXOR, IAND, IOR, IADD, INC, DEC}.
 * The forms NVIDIA's hardware rejects (INC / DEC 64-bit or signed, IADD 64-bit signed) are refused
 * (GC_ERR_INVALID_ARG); build them with gc_pb_sem_execute to see the device fault. */
void gc_pb_sem_reduce(gc_pushbuf_t *pb, uint64_t addr, uint64_t operand, uint32_t red, bool is_signed,
                      bool payload64);
/* Reduction with RELEASE_TIMESTAMP: 16 bytes at a 16-aligned addr: the result (a 32-bit one
 * zero-extended), then the 64-bit cycle stamp. */
void gc_pb_sem_reduce_ts(gc_pushbuf_t *pb, uint64_t addr, uint64_t operand, uint32_t red, bool is_signed,
                         bool payload64);

typedef enum gc_copy_sem {
    GC_COPY_SEM_NONE = 0,
    GC_COPY_SEM_ONE_WORD,  /* 4-byte payload at sem_addr (4-aligned) */
    GC_COPY_SEM_FOUR_WORD, /* 16 bytes at sem_addr (16-aligned): payload, start (the low word of the
                            * cycle the engine took the copy), 64-bit cycle stamp of its end */
} gc_copy_sem_t;

/* One copy-engine operation: a 1D or 2D (pitch) copy, or a memset (fill != 0). */
typedef struct gc_copy_desc {
    uint64_t dst, src;
    uint32_t line_bytes;   /* bytes per line (a memset: a multiple of fill_bytes) */
    uint32_t line_count;   /* lines; 0 or 1 = a 1D copy */
    uint32_t pitch_in, pitch_out;
    uint32_t fill_bytes;   /* memset element size: 1, 2, 3 or 4 bytes of fill_value; 0 = copy */
    uint32_t fill_value;
    gc_copy_sem_t sem;
    uint64_t sem_addr;
    uint32_t sem_payload;
    bool sem_reduce;       /* the release reduces the semaphore with sem_payload: */
    uint32_t sem_red;      /* GC_COPY_LAUNCH_DMA_SEMAPHORE_REDUCTION_{IMIN .. DEC} (INC / DEC unsigned) */
    bool sem_signed;       /* SEMAPHORE_REDUCTION_SIGN SIGNED (IMIN, IMAX, IADD) */
    bool interrupt;        /* non-blocking interrupt (INTR_STATUS.NON_STALL) at completion */
    bool no_data;          /* DATA_TRANSFER_TYPE NONE: only the release / interrupt (the geometry,
                              fill and layout are not sent: NVIDIA's semaphore-only LAUNCH_DMA) */
} gc_copy_desc_t;

void gc_pb_copy_desc(gc_pushbuf_t *pb, uint32_t subch, const gc_copy_desc_t *d);
/* Copy-class 1D copy on `subch`, with an optional one-word semaphore release at completion. */
void gc_pb_copy(gc_pushbuf_t *pb, uint32_t subch, uint64_t dst, uint64_t src, uint32_t bytes, bool release,
                uint64_t sem_addr, uint32_t sem_payload);

/* ------------------------------------------------------------------ channel */
typedef struct gc_channel gc_channel_t;

typedef struct gc_channel_config {
    int id;               /* hardware channel, or -1 for the lowest free one */
    uint32_t log2_entries;/* GPFIFO ring size (default 6: 64 entries) */
    uint32_t runlist;     /* 0 compute, 1 copy engine 0 (default), 2 copy engine 1 */
    uint32_t timeslice;   /* cycles (default 1024) */
    uint32_t interleave;  /* GC_CHANNEL_INTERLEAVE_LEVEL_{LOW, MEDIUM, HIGH} (default LOW) */
    uint32_t acq_timeout; /* cycles an acquire may wait before the channel faults; 0 = never */
    uint32_t pb_bytes;    /* pushbuffer space in sysmem (default 64 KiB) */
    uint32_t copy_subch;  /* subchannel the copy class is bound to at open (default 4) */
} gc_channel_config_t;

typedef struct gc_channel_error {
    uint32_t channel;
    uint32_t cause;      /* GC_ERROR_CAUSE_* */
    uint32_t gp_get;
    uint32_t method;     /* ERROR_METHOD (method-header layout) */
    uint32_t data;
} gc_channel_error_t;

void gc_channel_config_init(gc_channel_config_t *cfg);
gc_status_t gc_channel_open(gc_device_t *dev, const gc_channel_config_t *cfg, gc_channel_t **out);
/* Bytes of sysmem a channel opened with cfg (NULL: the defaults) takes: its ring, its pushbuffer
 * area and its fence word, each 64-byte aligned. */
uint64_t gc_channel_sysmem_bytes(const gc_channel_config_t *cfg);
void gc_channel_close(gc_channel_t *ch);
uint32_t gc_channel_id(const gc_channel_t *ch);
/* Copy pb into the channel's pushbuffer space, append a GPFIFO entry and ring the doorbell.
 * Waits (running the device) while the ring or the pushbuffer space is full. */
gc_status_t gc_channel_submit(gc_channel_t *ch, const gc_pushbuf_t *pb);
/* Append a GPFIFO entry for a segment the caller placed in memory itself. */
gc_status_t gc_channel_submit_entry(gc_channel_t *ch, uint32_t entry0, uint32_t entry1);
/* Run until GP_GET == GP_PUT.  GC_ERR_CHANNEL_FAULT if the channel stopped with an error
 * (the message is in gc_device_last_error), GC_ERR_TIMEOUT after the wait budget. */
gc_status_t gc_channel_wait_idle(gc_channel_t *ch);
gc_status_t gc_channel_gp_get(gc_channel_t *ch, uint32_t *get);
/* GC_ERR_CHANNEL_FAULT (with the one-line message in gc_device_last_error) if the channel has
 * stopped with an error, GC_OK while it is healthy. */
gc_status_t gc_channel_check(gc_channel_t *ch);
/* Read the channel's error record (cause NONE while it runs). */
gc_status_t gc_channel_error(gc_channel_t *ch, gc_channel_error_t *err);
/* One line: "channel 3: INVALID_METHOD at GP_GET 2, method 0x0404 (subchannel 4, OFFSET_IN_LOWER), data 0x0: ..." */
int gc_channel_error_format(const gc_channel_error_t *err, uint32_t bound_class, char *buf, size_t len);
/* Note that `subch` is bound to `class_id` (after a SET_OBJECT the caller submitted), so that
 * fault messages name its methods.  gc_channel_reset forgets it (only the copy class is redone). */
void gc_channel_set_subch_class(gc_channel_t *ch, uint32_t subch, uint32_t class_id);
/* Clear the error and start the ring afresh (the subchannel binding is redone). */
gc_status_t gc_channel_reset(gc_channel_t *ch);

/* ------------------------------------------------------------------ semaphores and copies */
/* Run until the 32-bit word at addr equals value (GC_ERR_TIMEOUT after the wait budget). */
gc_status_t gc_sem_wait(gc_device_t *dev, uint64_t addr, uint32_t value, uint64_t *cycle_seen);
/* A copy engine's FOUR_WORD release record as it landed (16 bytes: payload, start word, 64-bit end
 * stamp): the cycle the engine took the command (the start word is its low 32 bits, the high bits
 * are the end's: exact for a copy shorter than 2^32 cycles) and the cycle its release was issued,
 * after the copy's last data write. */
typedef struct gc_copy_record {
    uint32_t payload;
    uint64_t start, end;
} gc_copy_record_t;
gc_copy_record_t gc_copy_record(const uint32_t words[4]);
/* Copy bytes with the channel's copy engine; release sem_addr = payload when done (if sem_addr != 0). */
gc_status_t gc_copy(gc_channel_t *ch, uint64_t dst, uint64_t src, uint32_t bytes, uint64_t sem_addr,
                    uint32_t payload);

#ifdef __cplusplus
}
#endif
#endif
