/* hostdrv.h: the gpucosim host driver (C11).
 *
 * Layers, bottom up (each usable and testable alone):
 *   device   open a backend ("rtl", "ref" or "sc", each a gc_backend_ops_t: gpucosim/backend.h),
 *            MMIO, host memory access, run cycles, IRQ, the whole-run watchdog
 *   mem      sysmem / vidmem allocators
 *   pushbuf  method encoders (from the generated spec header) into a caller's word buffer
 *   ring     GPFIFO index arithmetic, incl. the work-queue document's wrap() for any ring size
 *   channel  a GPFIFO channel: ring + pushbuffer space, submit with flow control on GP_GET,
 *            wait, error report, reset
 *   sem/copy semaphore wait helpers, copies through the copy engine
 * Above it: gpucosim/runtime.h (CUDA-like streams, events, copy priorities) and
 * hostdrv/tools/scenarios.h (the scenarios of the gpucosim CLI; hostdrv/README.md: the layers).
 * Every call returns a gc_status_t.  No global state: everything hangs off a gc_device_t.  Every
 * failure of a call that was given a device records a one-line message in gc_device_last_error
 * (a call without a device, e.g. gc_channel_submit(NULL, ...), has nowhere to put it).
 */
#ifndef GPUCOSIM_HOSTDRV_H
#define GPUCOSIM_HOSTDRV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum gc_status {
    GC_OK = 0,
    GC_ERR_INVALID_ARG,   /* an argument is out of range or NULL */
    GC_ERR_NO_MEMORY,     /* host malloc or a device allocator ran out */
    GC_ERR_BACKEND,       /* the backend could not be opened or failed an access */
    GC_ERR_BUS,           /* an MMIO access got an AXI error response */
    GC_ERR_TIMEOUT,       /* a wait passed its cycle budget (the device state was dumped) */
    GC_ERR_CHANNEL_FAULT, /* the channel stopped with an error: see gc_channel_error() */
    GC_ERR_FULL,          /* a pushbuffer or ring has no room */
    GC_ERR_NOT_FOUND,     /* no such backend / channel */
    GC_ERR_BUSY,          /* the resource is in use */
    GC_STATUS_COUNT
} gc_status_t;

const char *gc_status_str(gc_status_t s);

/* ------------------------------------------------------------------ device */
typedef struct gc_device gc_device_t;

typedef struct gc_device_config {
    const char *backend;     /* "rtl" (default, or $GPUCOSIM_BACKEND) */
    uint64_t seed;           /* backend randomness (memory stalls); default 1 or $GPUCOSIM_SEED */
    const char *waves;       /* FST file, or NULL ($GPUCOSIM_WAVES) */
    uint32_t stall_pct;      /* random memory stalls, percent ($GPUCOSIM_STALL_PCT) */
    uint64_t max_cycles;     /* whole-run watchdog, 0 = none ($GPUCOSIM_MAX_CYCLES); when it fires the
                                run stops and the last error reads "watchdog: <what> after <N> cycles
                                (limit <L>): <stuck state>".  The device's time stops there:
                                gc_device_cycles stays at N on every backend, also through the
                                stuck-state dumps (rtl and sc clock their register bus to read,
                                outside simulated time) */
    uint64_t wait_cycles;    /* default budget of each gc_*_wait call, in device cycles from its start
                              * (its polls' register reads count too; default 2,000,000) */
    uint32_t poll_cycles;    /* cycles run between two polls in waits (default 16) */
    const char *inject;      /* backend fault injection for mutation tests ($GPUCOSIM_INJECT) */
    bool quiet;              /* backend prints nothing at open/close */
    /* progress report: when progress_cycles > 0, gc_device_run calls progress(progress_arg, cycle)
     * each time the device clock passes a multiple of progress_cycles (default off) */
    uint64_t progress_cycles;
    void (*progress)(void *arg, uint64_t cycle);
    void *progress_arg;
    /* set by gc_device_config_init when a GPUCOSIM_* variable does not parse or is out of range
     * (one line naming it); gc_device_open refuses such a configuration */
    char env_error[160];
} gc_device_config_t;

/* Fills defaults and the environment overrides named above (a malformed one: see env_error). */
void gc_device_config_init(gc_device_config_t *cfg);
/* Open the device; on failure a one-line reason is printed to stderr ("hostdrv: ..."). */
gc_status_t gc_device_open(const gc_device_config_t *cfg, gc_device_t **out);
/* The same, but the one-line reason goes to err (nothing is printed). */
gc_status_t gc_device_open_ex(const gc_device_config_t *cfg, gc_device_t **out, char *err, size_t errlen);
/* Parse an unsigned number as the CLI and the GPUCOSIM_* variables take it: decimal or 0x-hex
 * digits only (no sign, no spaces), in [min, max].  false (and *out untouched) otherwise. */
bool gc_parse_u64(const char *text, uint64_t min, uint64_t max, uint64_t *out);
void gc_device_close(gc_device_t *dev);

gc_status_t gc_mmio_read(gc_device_t *dev, uint32_t offset, uint32_t *value);
gc_status_t gc_mmio_write(gc_device_t *dev, uint32_t offset, uint32_t value);
/* Host view of device memory: sysmem as the CPU sees it; vidmem through a backdoor. */
gc_status_t gc_mem_write(gc_device_t *dev, uint64_t addr, const void *src, size_t n);
gc_status_t gc_mem_read(gc_device_t *dev, uint64_t addr, void *dst, size_t n);
gc_status_t gc_device_run(gc_device_t *dev, uint64_t cycles);
uint64_t gc_device_cycles(gc_device_t *dev);
uint64_t gc_device_seed(gc_device_t *dev);
bool gc_device_irq(gc_device_t *dev);
const gc_device_config_t *gc_device_config(const gc_device_t *dev);
/* The last error message of this device (one line, names channel, GP_GET and method), or "". */
const char *gc_device_last_error(const gc_device_t *dev);
/* Print the device's stuck state (cycle, PBDMA, CE, channels, memory). */
void gc_device_dump_state(gc_device_t *dev, FILE *out);

/* ------------------------------------------------------------------ mem */
typedef enum gc_mem_kind { GC_MEM_SYSMEM = 0, GC_MEM_VIDMEM = 1 } gc_mem_kind_t;

typedef struct gc_buf {
    uint64_t addr;
    uint64_t size;
    gc_mem_kind_t kind;
} gc_buf_t;

/* align must be a power of two (0 means 64).  Neither allocator ever hands out (or reserves) the
 * first GC_SIMT_WIN_*_GUARD bytes of its window: the NULL guard no SIMT thread reaches (spec
 * simt.windows), so a kernel's NULL pointer cannot hit the driver's rings or any buffer. */
gc_status_t gc_mem_alloc(gc_device_t *dev, gc_mem_kind_t kind, uint64_t size, uint64_t align, gc_buf_t *out);
gc_status_t gc_mem_free(gc_device_t *dev, const gc_buf_t *buf);
/* Take [addr, addr + size) out of the allocator (for images linked at fixed addresses, e.g. SIMT
 * kernels: gpucosim/elf.h); GC_ERR_BUSY if part of it is allocated.  Freed with gc_mem_free. */
gc_status_t gc_mem_reserve(gc_device_t *dev, gc_mem_kind_t kind, uint64_t addr, uint64_t size, gc_buf_t *out);

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
