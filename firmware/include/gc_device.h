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
#define GC_KERNEL(name)                                                                      \
    void name##_body(const void *gc_param);                                                 \
    __asm__(".pushsection .text.gc_entry, \"ax\", @progbits\n"                                \
            ".globl " #name "\n.type " #name ", @function\n.p2align 2\n" #name ":\n"        \
            "\tlla a1, " #name "_body\n\tj __gc_start\n.size " #name ", . - " #name "\n"     \
            ".popsection\n");                                                                \
    void name##_body(const void *gc_param)

/* memset / memcpy / memmove: gcc may call them for loops and struct copies (firmware/lib.c) */
void *memset(void *d, int c, size_t n);
void *memcpy(void *restrict d, const void *restrict s, size_t n);
void *memmove(void *d, const void *s, size_t n);

#endif
