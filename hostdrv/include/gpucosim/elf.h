/* elf.h: a small, checked ELF32 loader for SIMT kernels (firmware/, linked by firmware/link.ld).
 *
 * gc_elf_parse() checks everything it will later use against the buffer's size (header, program
 * headers, PT_LOAD segments, section headers, the symbol table and its string table) and refuses
 * anything else with a one-line message: a malformed or truncated file is an error, never a
 * crash or an out-of-bounds read.  Accepted: little-endian ELF32 executables for RISC-V
 * (EM_RISCV), PT_LOAD segments with filesz <= memsz inside the 32-bit thread address space.
 *
 * Addresses in the image are SIMT thread addresses (spec simt.windows): gc_elf_load() puts every
 * PT_LOAD segment at the device address of its thread address (SYSMEM or VIDMEM window), zero
 * fills memsz past filesz, and reserves those device ranges in the driver's allocator so that
 * later gc_mem_alloc() calls do not hand them out (gc_elf_unload() releases them).
 *
 *     gc_elf_t *k; char err[160];
 *     if (gc_elf_read_file("build/firmware/kernels.elf", &k, err, sizeof err)) puts(err);
 *     gc_elf_load(dev, k);                       uint32_t pc; gc_elf_symbol(k, "vecadd", &pc);
 */
#ifndef GPUCOSIM_ELF_H
#define GPUCOSIM_ELF_H

#include <stddef.h>
#include <stdint.h>

#include "gpucosim/hostdrv.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gc_elf gc_elf_t;

typedef struct gc_elf_segment {
    uint32_t vaddr;       /* thread address */
    uint32_t filesz;      /* bytes from the file */
    uint32_t memsz;       /* bytes in memory (the rest zero) */
    const uint8_t *data;  /* filesz bytes inside the parsed image */
} gc_elf_segment_t;

/* Parse (and copy) an ELF image. GC_ERR_INVALID_ARG with a message in err when malformed. */
gc_status_t gc_elf_parse(const void *data, size_t size, gc_elf_t **out, char *err, size_t errlen);
/* Read a file and parse it. */
gc_status_t gc_elf_read_file(const char *path, gc_elf_t **out, char *err, size_t errlen);
void gc_elf_free(gc_elf_t *elf);

uint32_t gc_elf_entry(const gc_elf_t *elf);
size_t gc_elf_segment_count(const gc_elf_t *elf);
const gc_elf_segment_t *gc_elf_segment(const gc_elf_t *elf, size_t i);
/* Value of a defined symbol (a thread address); GC_ERR_NOT_FOUND when there is none. */
gc_status_t gc_elf_symbol(const gc_elf_t *elf, const char *name, uint32_t *value);

/* Write every PT_LOAD segment (memsz bytes, zero filled) through `write`; the callback returns
 * 0 on success.  The write of a segment may be split in pieces. */
typedef int (*gc_elf_write_fn)(void *ctx, uint32_t thread_addr, const void *src, size_t n);
gc_status_t gc_elf_load_with(const gc_elf_t *elf, gc_elf_write_fn write, void *ctx, char *err,
                             size_t errlen);

/* SIMT thread address <-> device address (spec simt.windows: SYSMEM and VIDMEM). */
bool gc_simt_to_device(uint32_t thread_addr, uint64_t *dev_addr);
bool gc_simt_from_device(uint64_t dev_addr, uint32_t *thread_addr);

#ifndef GC_ELF_NO_DEVICE
/* Load into the device: segments must lie in the SYSMEM / VIDMEM windows and be free in the
 * allocator (they are reserved until gc_elf_unload or gc_device_close). */
gc_status_t gc_elf_load(gc_device_t *dev, gc_elf_t *elf);
gc_status_t gc_elf_unload(gc_device_t *dev, gc_elf_t *elf);
#endif

#ifdef __cplusplus
}
#endif
#endif
