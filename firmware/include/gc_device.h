/* gc_device.h: the device runtime of gpucosim SIMT kernels (C, riscv64-unknown-elf-gcc -march=rv32ima
 * -mabi=ilp32).  Encodings come from the generated gpucosim_spec.h (spec/gpucosim.yaml, simt:).
 *
 *   GC_KERNEL(name) { ... }     a kernel: `name` is its entry (TMD ENTRY_PC, found with
 *                               gc_elf_symbol); the body gets the task's parameter pointer in
 *                               `gc_param` and runs on every thread; returning ends the thread.
 *   gc_tid_x() .. gc_nctaid_z() thread / CTA / grid coordinates (CSRs), gc_lane(), gc_warp(),
 *   gc_global_id_x(), gc_threads_x() (grid-stride helpers), gc_task_id(), gc_sm_id()
 *   gc_barrier()                CTA barrier (custom-0 BAR): also makes the CTA's stores visible
 *   gc_exit()                   end the thread now (custom-0 EXIT)
 *   gc_shared()                 the CTA's shared memory (TMD SMEM_BYTES bytes)
 *   gc_atomic_*()               RV32A atomics on global or shared memory (LR/SC: global only)
 *   gc_launch(tmd)              device-side launch (custom-0 LAUNCH) of the TMD at `tmd`: returns a
 *                               GC_LAUNCH_STATUS_* (OK, DEPTH, PRIORITY, FULL, BAD_ADDR)
 *   gc_tmd_build(tmd, &child)   write a child TMD (gc_child_t) into global memory
 *   gc_launch_child(tmd, &child)  both: build the TMD at `tmd`, then LAUNCH it
 *   GC_KERNEL_PC(name)          a kernel's entry as a TMD ENTRY_PC (GC_KERNEL_EXTERN(name) first
 *                               when the kernel is in another file)
 *
 * Pointers are 32-bit thread addresses: global memory through the SYSMEM / VIDMEM windows (the
 * host converts device addresses with gc_simt_ptr()), shared memory at GC_SIMT_WIN_SHARED_BASE,
 * the thread's own stack in the LOCAL window.
 */
#ifndef GC_DEVICE_H
#define GC_DEVICE_H

#include <stddef.h>
#include <stdint.h>

#include "gpucosim_spec.h"

/* CSR number as the signed 12-bit immediate of .insn (the SIMT CSRs are above 0x7FF); the
 * instruction is CSRRS rd, csr, x0 (a read; the Zicsr encoding, spelled with .insn because
 * -march=rv32ima does not name Zicsr). */
#define GC_CSR_IMM(n) ((n) - 0x1000 * ((n) >> 11))
#define GC_CSR_READ(n)                                                                        \
    __extension__({                                                                           \
        uint32_t v_;                                                                          \
        __asm__ volatile(".insn i 0x73, 2, %0, x0, %1" : "=r"(v_) : "i"(GC_CSR_IMM(n)));      \
        v_;                                                                                   \
    })

static inline uint32_t gc_tid_x(void) { return GC_CSR_READ(GC_SIMT_CSR_TID_X); }
static inline uint32_t gc_tid_y(void) { return GC_CSR_READ(GC_SIMT_CSR_TID_Y); }
static inline uint32_t gc_tid_z(void) { return GC_CSR_READ(GC_SIMT_CSR_TID_Z); }
static inline uint32_t gc_ctaid_x(void) { return GC_CSR_READ(GC_SIMT_CSR_CTAID_X); }
static inline uint32_t gc_ctaid_y(void) { return GC_CSR_READ(GC_SIMT_CSR_CTAID_Y); }
static inline uint32_t gc_ctaid_z(void) { return GC_CSR_READ(GC_SIMT_CSR_CTAID_Z); }
static inline uint32_t gc_ntid_x(void) { return GC_CSR_READ(GC_SIMT_CSR_NTID_X); }
static inline uint32_t gc_ntid_y(void) { return GC_CSR_READ(GC_SIMT_CSR_NTID_Y); }
static inline uint32_t gc_ntid_z(void) { return GC_CSR_READ(GC_SIMT_CSR_NTID_Z); }
static inline uint32_t gc_nctaid_x(void) { return GC_CSR_READ(GC_SIMT_CSR_NCTAID_X); }
static inline uint32_t gc_nctaid_y(void) { return GC_CSR_READ(GC_SIMT_CSR_NCTAID_Y); }
static inline uint32_t gc_nctaid_z(void) { return GC_CSR_READ(GC_SIMT_CSR_NCTAID_Z); }
static inline uint32_t gc_warp(void) { return GC_CSR_READ(GC_SIMT_CSR_WARPID); }
static inline uint32_t gc_lane(void) { return GC_CSR_READ(GC_SIMT_CSR_LANEID); }
static inline uint32_t gc_lanes(void) { return GC_CSR_READ(GC_SIMT_CSR_NLANES); }
static inline uint32_t gc_task_id(void) { return GC_CSR_READ(GC_SIMT_CSR_TASKID); }
static inline uint32_t gc_sm_id(void) { return GC_CSR_READ(GC_SIMT_CSR_SMID); }
static inline uint32_t gc_cycle(void) { return GC_CSR_READ(GC_SIMT_CSR_CYCLE); }

/* Linear thread index in the CTA, CTA size, and x-dimension grid-stride helpers */
static inline uint32_t gc_tid(void) { return gc_tid_x() + gc_ntid_x() * (gc_tid_y() + gc_ntid_y() * gc_tid_z()); }
static inline uint32_t gc_ntid(void) { return gc_ntid_x() * gc_ntid_y() * gc_ntid_z(); }
static inline uint32_t gc_global_id_x(void) { return gc_ctaid_x() * gc_ntid_x() + gc_tid_x(); }
static inline uint32_t gc_threads_x(void) { return gc_nctaid_x() * gc_ntid_x(); }

static inline void gc_barrier(void) {
    __asm__ volatile(".insn i %0, %1, x0, x0, 0" ::"i"(GC_SIMT_INSN_BAR_OPCODE), "i"(GC_SIMT_INSN_BAR_FUNCT3)
                     : "memory");
}

static inline __attribute__((noreturn)) void gc_exit(void) {
    __asm__ volatile(".insn i %0, %1, x0, x0, 0" ::"i"(GC_SIMT_INSN_EXIT_OPCODE), "i"(GC_SIMT_INSN_EXIT_FUNCT3)
                     : "memory");
    __builtin_unreachable();
}

static inline void *gc_shared(void) { return (void *)(uintptr_t)GC_SIMT_WIN_SHARED_BASE; }

/* Atomics (RV32A, .W): old value returned */
static inline uint32_t gc_atomic_add(volatile uint32_t *p, uint32_t v) {
    return __atomic_fetch_add(p, v, __ATOMIC_RELAXED);
}
static inline uint32_t gc_atomic_and(volatile uint32_t *p, uint32_t v) {
    return __atomic_fetch_and(p, v, __ATOMIC_RELAXED);
}
static inline uint32_t gc_atomic_or(volatile uint32_t *p, uint32_t v) {
    return __atomic_fetch_or(p, v, __ATOMIC_RELAXED);
}
static inline uint32_t gc_atomic_xor(volatile uint32_t *p, uint32_t v) {
    return __atomic_fetch_xor(p, v, __ATOMIC_RELAXED);
}
static inline uint32_t gc_atomic_exch(volatile uint32_t *p, uint32_t v) {
    return __atomic_exchange_n(p, v, __ATOMIC_RELAXED);
}
#define GC_AMO_OP(name, insn, type)                                                          \
    static inline type gc_atomic_##name(volatile type *p, type v) {                         \
        type old;                                                                            \
        __asm__ volatile(insn " %0, %2, (%1)" : "=r"(old) : "r"(p), "r"(v) : "memory");     \
        return old;                                                                          \
    }
GC_AMO_OP(min, "amomin.w", int32_t)
GC_AMO_OP(max, "amomax.w", int32_t)
GC_AMO_OP(minu, "amominu.w", uint32_t)
GC_AMO_OP(maxu, "amomaxu.w", uint32_t)
#undef GC_AMO_OP
/* Compare and swap (an LR/SC loop; global memory only): true when *p was `expect` and is now `v` */
static inline int gc_atomic_cas(volatile uint32_t *p, uint32_t expect, uint32_t v) {
    return __atomic_compare_exchange_n(p, &expect, v, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
}

/* A kernel entry: `name` (the TMD ENTRY_PC) puts the body's address in a1 and jumps to crt0's
 * __gc_start, which sets the stack and calls the body with the parameter pointer. */
#define GC_KERNEL_EXTERN(name) void name(void)
#define GC_KERNEL_PC(name) ((uint32_t)(uintptr_t)&(name))
#define GC_KERNEL(name)                                                                      \
    GC_KERNEL_EXTERN(name);                                                                 \
    void name##_body(const void *gc_param);                                                 \
    __asm__(".pushsection .text.gc_entry, \"ax\", @progbits\n"                                \
            ".globl " #name "\n.type " #name ", @function\n.p2align 2\n" #name ":\n"        \
            "\tlla a1, " #name "_body\n\tj __gc_start\n.size " #name ", . - " #name "\n"     \
            ".popsection\n");                                                                \
    void name##_body(const void *gc_param)

/* ------------------------------------------------------------------ device-side launch (issue 6)
 * A running thread launches a child task: it writes a TMD (structs.TMD, GC_TMD_ALIGN = 256-byte
 * aligned, in global memory: the SYSMEM or VIDMEM window) and executes LAUNCH with the TMD's
 * thread address in rs1.  The SM first waits until every store of the warp has landed, so the
 * TMD the thread just wrote (and anything else it stored before) is what the TMU reads: no
 * barrier or fence is needed between gc_tmd_build and gc_launch.  Lanes of a warp launch one at
 * a time, lowest lane first, each with its own status.  The child runs at the parent's device
 * priority + 1 and nesting level + 1 with the parent's max depth (the TMD's PRIORITY word is
 * ignored for device launches); the parent task completes only after all its children.
 * Statuses (GC_LAUNCH_STATUS_*): OK; DEPTH (the parent is at its max nesting depth); PRIORITY
 * (parent + 1 is not a device priority); FULL (the task table is full); BAD_ADDR (tmd not
 * 256-aligned or not in global memory).  A failure launches nothing; the host sees it too
 * (COMPUTE.LAUNCH_FAIL*, INTR_STATUS.LAUNCH_FAIL: gcrt_launch_failures). */
static inline uint32_t gc_launch(const volatile void *tmd) {
    uint32_t st;
    __asm__ volatile(".insn i %1, %2, %0, %3, 0"
                     : "=r"(st)
                     : "i"(GC_SIMT_INSN_LAUNCH_OPCODE), "i"(GC_SIMT_INSN_LAUNCH_FUNCT3), "r"(tmd)
                     : "memory");
    return st;
}

/* What a child TMD holds.  Pointers are thread addresses; sem_addr is a device address (use
 * gc_device_addr for a global-memory pointer). */
typedef struct gc_child {
    uint32_t entry_pc;   /* GC_KERNEL_PC(kernel) */
    uint32_t param;      /* parameter block (thread address; gc_param of the child) */
    uint32_t grid[3];    /* CTAs (>= 1 each) */
    uint32_t block[3];   /* threads per CTA (>= 1 each, product <= WARPS x LANES) */
    uint32_t smem_bytes;
    uint64_t sem_addr;   /* completion release (device address), with GC_TMD_FLAGS_SEM_RELEASE in flags */
    uint32_t sem_payload;
    uint32_t flags;      /* GC_TMD_FLAGS_SEM_RELEASE(1) | GC_TMD_FLAGS_QUEUE_HEAD(1) | ... */
} gc_child_t;

/* Device address of a global-memory thread address (0 outside the SYSMEM / VIDMEM windows). */
static inline uint64_t gc_device_addr(const volatile void *p) {
    uint32_t a = (uint32_t)(uintptr_t)p;
    if (a - GC_SIMT_WIN_VIDMEM_BASE < GC_SIMT_WIN_VIDMEM_SIZE)
        return GC_SIMT_WIN_VIDMEM_DEVICE + (a - GC_SIMT_WIN_VIDMEM_BASE);
    if (a - GC_SIMT_WIN_SYSMEM_BASE < GC_SIMT_WIN_SYSMEM_SIZE) return GC_SIMT_WIN_SYSMEM_DEVICE + a;
    return 0;
}

/* Write the GC_TMD_SIZE bytes of a TMD at `tmd` (256-aligned global memory). */
static inline void gc_tmd_build(volatile uint32_t *tmd, const gc_child_t *c) {
    for (uint32_t i = 0; i < GC_TMD_SIZE / 4u; i++) tmd[i] = 0;
    tmd[GC_TMD_ENTRY_PC / 4] = c->entry_pc;
    tmd[GC_TMD_PARAM / 4] = c->param;
    tmd[GC_TMD_GRID_X / 4] = c->grid[0];
    tmd[GC_TMD_GRID_Y / 4] = c->grid[1];
    tmd[GC_TMD_GRID_Z / 4] = c->grid[2];
    tmd[GC_TMD_CTA_DIM_XY / 4] = GC_TMD_CTA_DIM_XY_X(c->block[0]) | GC_TMD_CTA_DIM_XY_Y(c->block[1]);
    tmd[GC_TMD_CTA_DIM_Z / 4] = GC_TMD_CTA_DIM_Z_Z(c->block[2]);
    tmd[GC_TMD_SMEM_BYTES / 4] = c->smem_bytes;
    tmd[GC_TMD_SEM_ADDR_LO / 4] = (uint32_t)c->sem_addr;
    tmd[GC_TMD_SEM_ADDR_HI / 4] = GC_TMD_SEM_ADDR_HI_HI((uint32_t)(c->sem_addr >> 32));
    tmd[GC_TMD_SEM_PAYLOAD / 4] = c->sem_payload;
    tmd[GC_TMD_FLAGS / 4] = c->flags;
}

/* Build the child TMD at `tmd` and launch it; the LAUNCH status. */
static inline uint32_t gc_launch_child(volatile uint32_t *tmd, const gc_child_t *c) {
    gc_tmd_build(tmd, c);
    return gc_launch(tmd);
}

/* memset / memcpy / memmove: gcc may call them for loops and struct copies (firmware/lib.c) */
void *memset(void *d, int c, size_t n);
void *memcpy(void *restrict d, const void *restrict s, size_t n);
void *memmove(void *d, const void *s, size_t n);

#endif
