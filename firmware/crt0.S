/* crt0.S: the start of every SIMT thread.
 *
 * A kernel's entry symbol (made by GC_KERNEL in gc_device.h, the TMD's ENTRY_PC) loads the
 * address of the kernel's C body into a1 and jumps here.  Each thread then gets its stack at the
 * top of its private local memory, the task's parameter pointer (CSR PARAM) as the body's
 * argument, and ends with EXIT when the body returns.  No .data / .bss initialisation: the loader
 * (gc_elf_load) writes the image, zero-filled, before any launch.
 */
#include "gpucosim_spec.h"

/* CSR number as the signed 12-bit immediate of .insn (the SIMT CSRs are above 0x7FF) */
#define CSR_IMM(n) ((n) - 0x1000 * ((n) >> 11))

    .section .text.gc_start, "ax", @progbits
    .globl __gc_start
    .type __gc_start, @function
__gc_start:
    li      sp, GC_SIMT_WIN_LOCAL_BASE + GC_SIMT_LMEM_BYTES
    .insn   i 0x73, 2, a0, x0, CSR_IMM(GC_SIMT_CSR_PARAM)      /* csrr a0, PARAM */
    jalr    ra, 0(a1)
    .insn   i GC_SIMT_INSN_EXIT_OPCODE, GC_SIMT_INSN_EXIT_FUNCT3, x0, x0, 0
    .size __gc_start, . - __gc_start
