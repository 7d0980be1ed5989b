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
 * Relocatable images.  An image linked with -Wl,--emit-relocs keeps its relocations (SHT_RELA
 * sections of its allocated sections); such an image can move (gc_elf_relocate): by one offset,
 * a multiple of 4 KiB, for the whole image, applying R_RISCV_32, HI20, LO12_I and LO12_S against
 * symbols of the image (PC-relative relocations and differences of two image symbols stay as
 * they are; anything else is refused with a message).  gc_elf_load() puts an image at its link
 * address when that range is free, and else, when it is relocatable, at a free range of the same
 * window: every image of firmware/link.ld links at the same address, so two can be loaded at
 * once.  gc_elf_symbol() and gc_elf_entry() give the current addresses.
 *
 *     gc_elf_t *k; char err[160];
 *     if (gc_elf_read_file("build/firmware/kernels.elf", &k, err, sizeof err)) puts(err);
 *     gc_elf_load(dev, k);                       uint32_t pc; gc_elf_symbol(k, "vecadd", &pc);
 */
#ifndef GPUCOSIM_ELF_H
#define GPUCOSIM_ELF_H

#include <stddef.h>
#include <stdint.h>

#include "gpucosim/device.h"   /* gc_status_t, gc_device_t: the layers below, not the umbrella */

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

/* Relocations: the image has them (linked with --emit-relocs), so gc_elf_relocate can move it. */
bool gc_elf_relocatable(const gc_elf_t *elf);
/* The current thread address of the image's lowest segment, and the bytes up to the end of its
 * highest one. */
uint32_t gc_elf_base(const gc_elf_t *elf);
uint32_t gc_elf_span(const gc_elf_t *elf);
/* Move the image so that its lowest segment starts at thread address `base` (a whole number of
 * 4 KiB pages from its link address): patches the segments' bytes, their addresses, the entry and
 * the symbols' values.  All or nothing: on an error (no relocations, an unsupported one, does not
 * fit) the image is unchanged and err says why.  Do not move a loaded image (gc_elf_load does it
 * when it must). */
gc_status_t gc_elf_relocate(gc_elf_t *elf, uint32_t base, char *err, size_t errlen);

/* Write every PT_LOAD segment (memsz bytes, zero filled) through `write`; the callback returns
 * 0 on success.  The write of a segment may be split in pieces. */
typedef int (*gc_elf_write_fn)(void *ctx, uint32_t thread_addr, const void *src, size_t n);
gc_status_t gc_elf_load_with(const gc_elf_t *elf, gc_elf_write_fn write, void *ctx, char *err,
                             size_t errlen);

/* SIMT thread address <-> device address (spec simt.windows: SYSMEM and VIDMEM). */
bool gc_simt_to_device(uint32_t thread_addr, uint64_t *dev_addr);
bool gc_simt_from_device(uint64_t dev_addr, uint32_t *thread_addr);

#ifndef GC_ELF_NO_DEVICE
/* Load into the device: segments must lie in the SYSMEM / VIDMEM windows.  At the link address when
 * it is free in the allocator; else a relocatable image moves to a free range of the same window
 * (GC_ERR_BUSY when it is not relocatable).  The range is reserved until gc_elf_unload or
 * gc_device_close. */
gc_status_t gc_elf_load(gc_device_t *dev, gc_elf_t *elf);
gc_status_t gc_elf_unload(gc_device_t *dev, gc_elf_t *elf);
#endif

#ifdef __cplusplus
}
#endif
#endif
