/* other_kernels.c: a second kernel image for the runtime's image tests (tests/cosim/test_launch.c),
 * built the way firmware/README.md tells a user to build a kernel file outside the tree: the same
 * crt0, link script and base address as kernels.elf (so the loader must move one of the two when
 * both are loaded), linked with --emit-relocs.  It is compiled with -mcmodel=medlow (absolute
 * lui / addi addressing: R_RISCV_HI20 / LO12_I / LO12_S) and reads tables of addresses (a table of
 * function pointers, a switch's jump table: R_RISCV_32), so a relocation applied wrongly gives
 * wrong results or a fault. */
#include "gc_device.h"
#include "other_kernels.h"

typedef uint32_t (*op_fn)(uint32_t, uint32_t);

static uint32_t op_add(uint32_t a, uint32_t b) { return a + b; }
static uint32_t op_sub(uint32_t a, uint32_t b) { return a - b; }
static uint32_t op_xor(uint32_t a, uint32_t b) { return a ^ b; }
static uint32_t op_mul(uint32_t a, uint32_t b) { return a * b; }

/* in .data (written once by the loader): four absolute addresses */
static op_fn ops[4] = {op_add, op_sub, op_xor, op_mul};
/* a global the code reaches with lui / addi and stores to with lui / sw (HI20, LO12_I, LO12_S) */
static volatile uint32_t runs;

static __attribute__((noinline)) uint32_t mix(uint32_t i) { return gc_other_mix(i); }

GC_KERNEL(table_op) {
    const gc_other_params_t *p = gc_param;
    const uint32_t *a = (const uint32_t *)(uintptr_t)p->a, *b = (const uint32_t *)(uintptr_t)p->b;
    uint32_t *out = (uint32_t *)(uintptr_t)p->out;
    op_fn f = ops[p->sel % 4u];
    for (uint32_t i = gc_global_id_x(); i < p->n; i += gc_threads_x()) out[i] = f(a[i], b[i]) ^ mix(i);
    runs = 1;
}

GC_KERNEL(vecadd) {
    const gc_other_params_t *p = gc_param;
    const uint32_t *a = (const uint32_t *)(uintptr_t)p->a, *b = (const uint32_t *)(uintptr_t)p->b;
    uint32_t *out = (uint32_t *)(uintptr_t)p->out;
    for (uint32_t i = gc_global_id_x(); i < p->n; i += gc_threads_x()) out[i] = a[i] + b[i] + 1u;
}
