/* elf.c: the checked ELF32 loader of gpucosim/elf.h.
 *
 * Every offset and size read from the file is checked against the file's size before it is
 * used (with 64-bit arithmetic, so that no sum wraps); every string is checked to end inside its
 * string table.  Written in the common subset of C11 and C++ (explicit casts) so that the RTL
 * block bench of the SIMT core can compile it into its C++ program (with GC_ELF_NO_DEVICE, which
 * leaves out the device loader).
 */
#include "gpucosim/elf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpucosim_spec.h"
#ifndef GC_ELF_NO_DEVICE
#include "../device/internal.h"
#include "gpucosim/mem.h"   /* the loader allocates its image ranges */
#endif

#define EI_NIDENT 16u
#define EHDR_SIZE 52u
#define PHDR_SIZE 32u
#define SHDR_SIZE 40u
#define SYM_SIZE 16u
#define ET_EXEC 2u
#define EM_RISCV 243u
#define PT_LOAD 1u
#define SHT_SYMTAB 2u
#define SHT_RELA 4u
#define SHF_ALLOC 2u
#define SHN_UNDEF 0u
#define SHN_LORESERVE 0xFF00u
#define RELA_SIZE 12u
#define GC_ELF_MAX_SEGS 16u
#define GC_ELF_MAX_RELA 16u
#define RELOC_ALIGN 4096u /* a moved image keeps its offset in a 4 KiB page */

/* RISC-V relocation types (RISC-V ELF psABI) the loader knows */
enum {
    R_NONE = 0, R_32 = 1, R_BRANCH = 16, R_JAL = 17, R_CALL = 18, R_CALL_PLT = 19, R_PCREL_HI20 = 23,
    R_PCREL_LO12_I = 24, R_PCREL_LO12_S = 25, R_HI20 = 26, R_LO12_I = 27, R_LO12_S = 28, R_ADD8 = 33,
    R_SUB64 = 40, R_ALIGN = 43, R_RVC_BRANCH = 44, R_RVC_JUMP = 45, R_RELAX = 51, R_SUB6 = 52, R_32_PCREL = 57,
};

struct gc_elf {
    uint8_t *image;
    size_t size;
    uint32_t entry;             /* current (link + bias) */
    size_t nseg;
    gc_elf_segment_t seg[GC_ELF_MAX_SEGS]; /* vaddr current */
    uint32_t link_vaddr[GC_ELF_MAX_SEGS];
    uint32_t link_lo;           /* [link_lo, link_hi): the link addresses of the segments */
    uint64_t link_hi;
    uint32_t bias;              /* current - link address (mod 2^32): where gc_elf_relocate moved it */
    /* symbol table (may be absent: nsym 0) */
    const uint8_t *sym;
    size_t nsym;
    const char *str;
    size_t strsz;
    /* section headers (validated) and the relocation sections of allocated sections
     * (--emit-relocs); an image with some is relocatable */
    const uint8_t *sh;
    uint32_t shnum;
    size_t nrela;
    struct { uint32_t off, count; } rela[GC_ELF_MAX_RELA];
    /* device ranges reserved by gc_elf_load */
    size_t nres;
    gc_buf_t res[GC_ELF_MAX_SEGS];
};

static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | (p[1] << 8)); }
static uint32_t rd32(const uint8_t *p) {
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static gc_status_t elf_err(char *err, size_t errlen, const char *fmt, ...) {
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        int n = snprintf(err, errlen, "ELF: ");
        if (n > 0 && (size_t)n < errlen) vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return GC_ERR_INVALID_ARG;
}

/* [off, off + len) inside a buffer of `size` bytes? */
static bool in_file(uint64_t off, uint64_t len, size_t size) {
    return off <= (uint64_t)size && len <= (uint64_t)size - off;
}

static gc_status_t parse(gc_elf_t *e, char *err, size_t errlen) {
    const uint8_t *d = e->image;
    size_t size = e->size;
    if (size < EHDR_SIZE) return elf_err(err, errlen, "file of %zu bytes is shorter than an ELF header", size);
    if (memcmp(d, "\177ELF", 4) != 0) return elf_err(err, errlen, "not an ELF file (bad magic)");
    if (d[4] != 1) return elf_err(err, errlen, "not ELF32 (EI_CLASS %u)", d[4]);
    if (d[5] != 1) return elf_err(err, errlen, "not little-endian (EI_DATA %u)", d[5]);
    if (d[6] != 1) return elf_err(err, errlen, "unknown ELF version %u", d[6]);
    if (rd16(d + 16) != ET_EXEC) return elf_err(err, errlen, "not an executable (e_type %u)", rd16(d + 16));
    if (rd16(d + 18) != EM_RISCV) return elf_err(err, errlen, "not RISC-V (e_machine %u)", rd16(d + 18));
    e->entry = rd32(d + 24);
    uint32_t phoff = rd32(d + 28), shoff = rd32(d + 32);
    uint16_t phentsize = rd16(d + 42), phnum = rd16(d + 44);
    uint16_t shentsize = rd16(d + 46), shnum = rd16(d + 48);

    /* program headers */
    if (phnum == 0) return elf_err(err, errlen, "no program headers");
    if (phentsize != PHDR_SIZE) return elf_err(err, errlen, "e_phentsize %u is not %u", phentsize, PHDR_SIZE);
    if (!in_file(phoff, (uint64_t)phnum * PHDR_SIZE, size))
        return elf_err(err, errlen, "program headers (%u at 0x%x) run past the end of the %zu-byte file", phnum,
                       phoff, size);
    e->nseg = 0;
    for (uint32_t i = 0; i < phnum; i++) {
        const uint8_t *ph = d + phoff + (size_t)i * PHDR_SIZE;
        if (rd32(ph) != PT_LOAD) continue;
        uint32_t off = rd32(ph + 4), vaddr = rd32(ph + 8), filesz = rd32(ph + 16), memsz = rd32(ph + 20);
        if (memsz == 0) continue;
        if (filesz > memsz) return elf_err(err, errlen, "segment %u: p_filesz %u > p_memsz %u", i, filesz, memsz);
        if (!in_file(off, filesz, size))
            return elf_err(err, errlen, "segment %u: bytes [0x%x, +%u) run past the end of the %zu-byte file", i,
                           off, filesz, size);
        if ((uint64_t)vaddr + memsz > 0x100000000ull)
            return elf_err(err, errlen, "segment %u: [0x%08x, +%u) wraps the 32-bit address space", i, vaddr, memsz);
        if (e->nseg == GC_ELF_MAX_SEGS) return elf_err(err, errlen, "more than %u PT_LOAD segments", GC_ELF_MAX_SEGS);
        for (size_t k = 0; k < e->nseg; k++) {
            const gc_elf_segment_t *o = &e->seg[k];
            if ((uint64_t)vaddr < (uint64_t)o->vaddr + o->memsz && (uint64_t)o->vaddr < (uint64_t)vaddr + memsz)
                return elf_err(err, errlen, "segment %u at 0x%08x overlaps the one at 0x%08x", i, vaddr, o->vaddr);
        }
        e->link_vaddr[e->nseg] = vaddr;
        gc_elf_segment_t *s = &e->seg[e->nseg++];
        s->vaddr = vaddr;
        s->filesz = filesz;
        s->memsz = memsz;
        s->data = d + off;
        if (e->nseg == 1 || vaddr < e->link_lo) e->link_lo = vaddr;
        if (e->nseg == 1 || (uint64_t)vaddr + memsz > e->link_hi) e->link_hi = (uint64_t)vaddr + memsz;
    }
    if (e->nseg == 0) return elf_err(err, errlen, "no PT_LOAD segment");

    /* symbol table (optional: a stripped image can be loaded, not searched) */
    e->sym = NULL;
    e->nsym = 0;
    e->str = NULL;
    e->strsz = 0;
    if (shnum == 0 || shoff == 0) return GC_OK;
    if (shentsize != SHDR_SIZE) return elf_err(err, errlen, "e_shentsize %u is not %u", shentsize, SHDR_SIZE);
    if (!in_file(shoff, (uint64_t)shnum * SHDR_SIZE, size))
        return elf_err(err, errlen, "section headers (%u at 0x%x) run past the end of the %zu-byte file", shnum,
                       shoff, size);
    e->sh = d + shoff;
    e->shnum = shnum;
    e->nrela = 0;
    for (uint32_t i = 0; i < shnum; i++) {
        const uint8_t *sh = d + shoff + (size_t)i * SHDR_SIZE;
        if (rd32(sh + 4) != SHT_RELA) continue;
        uint32_t off = rd32(sh + 16), sz = rd32(sh + 20), info = rd32(sh + 28), entsize = rd32(sh + 36);
        if (info == 0 || info >= shnum)
            return elf_err(err, errlen, "relocation section %u applies to section %u of %u", i, info, shnum);
        if (!(rd32(d + shoff + (size_t)info * SHDR_SIZE + 8) & SHF_ALLOC)) continue; /* debug info */
        if (entsize != RELA_SIZE) return elf_err(err, errlen, "relocation entry size %u is not %u", entsize, RELA_SIZE);
        if (!in_file(off, sz, size))
            return elf_err(err, errlen, "relocation section %u [0x%x, +%u) runs past the end of the file", i, off, sz);
        if (e->nrela == GC_ELF_MAX_RELA)
            return elf_err(err, errlen, "more than %u relocation sections", GC_ELF_MAX_RELA);
        e->rela[e->nrela].off = off;
        e->rela[e->nrela++].count = sz / RELA_SIZE;
    }
    for (uint32_t i = 0; i < shnum; i++) {
        const uint8_t *sh = d + shoff + (size_t)i * SHDR_SIZE;
        if (rd32(sh + 4) != SHT_SYMTAB) continue;
        uint32_t off = rd32(sh + 16), sz = rd32(sh + 20), link = rd32(sh + 24), entsize = rd32(sh + 36);
        if (entsize != SYM_SIZE) return elf_err(err, errlen, "symbol table entry size %u is not %u", entsize, SYM_SIZE);
        if (!in_file(off, sz, size))
            return elf_err(err, errlen, "symbol table [0x%x, +%u) runs past the end of the file", off, sz);
        if (link == 0 || link >= shnum) return elf_err(err, errlen, "symbol table links to section %u of %u", link, shnum);
        const uint8_t *st = d + shoff + (size_t)link * SHDR_SIZE;
        uint32_t soff = rd32(st + 16), ssz = rd32(st + 20);
        if (!in_file(soff, ssz, size))
            return elf_err(err, errlen, "string table [0x%x, +%u) runs past the end of the file", soff, ssz);
        if (ssz == 0 || d[soff + ssz - 1] != '\0')
            return elf_err(err, errlen, "string table of the symbols does not end with a NUL");
        e->sym = d + off;
        e->nsym = sz / SYM_SIZE;
        e->str = (const char *)(d + soff);
        e->strsz = ssz;
        break;
    }
    return GC_OK;
}

gc_status_t gc_elf_parse(const void *data, size_t size, gc_elf_t **out, char *err, size_t errlen) {
    if (err && errlen) err[0] = '\0';
    if (!out) return elf_err(err, errlen, "no output pointer");
    *out = NULL;
    if (!data && size) return elf_err(err, errlen, "no data");
    gc_elf_t *e = (gc_elf_t *)calloc(1, sizeof *e);
    if (!e) return GC_ERR_NO_MEMORY;
    e->image = (uint8_t *)malloc(size ? size : 1);
    if (!e->image) {
        free(e);
        return GC_ERR_NO_MEMORY;
    }
    if (size) memcpy(e->image, data, size);
    e->size = size;
    gc_status_t st = parse(e, err, errlen);
    if (st != GC_OK) {
        gc_elf_free(e);
        return st;
    }
    *out = e;
    return GC_OK;
}

gc_status_t gc_elf_read_file(const char *path, gc_elf_t **out, char *err, size_t errlen) {
    if (out) *out = NULL;
    if (!path || !out) return elf_err(err, errlen, "no file name");
    FILE *f = fopen(path, "rb");
    if (!f) return elf_err(err, errlen, "cannot open %s", path);
    size_t cap = 1 << 16, n = 0;
    uint8_t *buf = (uint8_t *)malloc(cap);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (n < cap) break;
        if (cap >= (64u << 20)) {
            free(buf);
            fclose(f);
            return elf_err(err, errlen, "%s is larger than 64 MiB", path);
        }
        cap *= 2;
        uint8_t *nb = (uint8_t *)realloc(buf, cap);
        if (!nb) free(buf);
        buf = nb;
    }
    bool bad = ferror(f) != 0;
    fclose(f);
    if (!buf) return GC_ERR_NO_MEMORY;
    if (bad) {
        free(buf);
        return elf_err(err, errlen, "cannot read %s", path);
    }
    gc_status_t st = gc_elf_parse(buf, n, out, err, errlen);
    free(buf);
    if (st != GC_OK && err && errlen) {
        char tmp[256];
        snprintf(tmp, sizeof tmp, "%s: %s", path, err);
        snprintf(err, errlen, "%s", tmp);
    }
    return st;
}

void gc_elf_free(gc_elf_t *elf) {
    if (!elf) return;
    free(elf->image);
    free(elf);
}

uint32_t gc_elf_entry(const gc_elf_t *elf) { return elf ? elf->entry : 0; }
size_t gc_elf_segment_count(const gc_elf_t *elf) { return elf ? elf->nseg : 0; }
const gc_elf_segment_t *gc_elf_segment(const gc_elf_t *elf, size_t i) {
    return (elf && i < elf->nseg) ? &elf->seg[i] : NULL;
}

/* Does symbol table entry s name something inside the image (a section that is loaded), so that
 * it moves with the image?  Absolute and undefined symbols do not. */
static bool sym_in_image(const gc_elf_t *e, const uint8_t *s) {
    uint16_t shndx = rd16(s + 14);
    if (shndx == SHN_UNDEF || shndx >= SHN_LORESERVE || shndx >= e->shnum) return false;
    return (rd32(e->sh + (size_t)shndx * SHDR_SIZE + 8) & SHF_ALLOC) != 0;
}

gc_status_t gc_elf_symbol(const gc_elf_t *elf, const char *name, uint32_t *value) {
    if (!elf || !name || !value) return GC_ERR_INVALID_ARG;
    size_t len = strlen(name);
    for (size_t i = 0; i < elf->nsym; i++) {
        const uint8_t *s = elf->sym + i * SYM_SIZE;
        uint32_t nm = rd32(s);
        if (rd16(s + 14) == SHN_UNDEF || nm >= elf->strsz) continue;
        /* the table ends with a NUL, so the name is a terminated string inside it */
        if (elf->strsz - nm > len && memcmp(elf->str + nm, name, len + 1) == 0) {
            *value = rd32(s + 4) + (sym_in_image(elf, s) ? elf->bias : 0u);
            return GC_OK;
        }
    }
    return GC_ERR_NOT_FOUND;
}

bool gc_elf_relocatable(const gc_elf_t *elf) { return elf && elf->nrela > 0 && elf->nsym > 0; }
uint32_t gc_elf_base(const gc_elf_t *elf) { return elf ? elf->link_lo + elf->bias : 0; }
uint32_t gc_elf_span(const gc_elf_t *elf) { return elf ? (uint32_t)(elf->link_hi - elf->link_lo) : 0; }

static void wr32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8), p[2] = (uint8_t)(v >> 16), p[3] = (uint8_t)(v >> 24);
}

/* The 4 bytes at link address `a` inside a segment's file bytes, or NULL. */
static uint8_t *patch_at(gc_elf_t *e, uint32_t a) {
    for (size_t i = 0; i < e->nseg; i++)
        if (a >= e->link_vaddr[i] && (uint64_t)a + 4 <= (uint64_t)e->link_vaddr[i] + e->seg[i].filesz)
            return (uint8_t *)(uintptr_t)e->seg[i].data + (a - e->link_vaddr[i]);
    return NULL;
}

/* Check (apply == false) or apply every relocation of an allocated section for the image moved by
 * `bias` from its link address.  Absolute references to the image (R_RISCV_32, HI20, LO12_I / _S)
 * are rewritten from the symbol's link value + addend + bias, so applying is idempotent; PC-relative
 * ones and differences of two image symbols move with the image and stay. */
static gc_status_t relocs(gc_elf_t *e, uint32_t bias, bool apply, char *err, size_t errlen) {
    for (size_t k = 0; k < e->nrela; k++)
        for (uint32_t j = 0; j < e->rela[k].count; j++) {
            const uint8_t *r = e->image + e->rela[k].off + (size_t)j * RELA_SIZE;
            uint32_t off = rd32(r), info = rd32(r + 4), type = info & 0xFFu, si = info >> 8;
            uint32_t addend = rd32(r + 8);
            if (type == R_NONE || type == R_RELAX || type == R_ALIGN) continue;
            if (si >= e->nsym)
                return elf_err(err, errlen, "relocation at 0x%08x names symbol %u of %zu", off, si, e->nsym);
            const uint8_t *s = e->sym + (size_t)si * SYM_SIZE;
            bool moves = si != 0 && sym_in_image(e, s);
            bool pcrel = type == R_BRANCH || type == R_JAL || type == R_CALL || type == R_CALL_PLT ||
                         type == R_PCREL_HI20 || type == R_PCREL_LO12_I || type == R_PCREL_LO12_S ||
                         type == R_RVC_BRANCH || type == R_RVC_JUMP || type == R_32_PCREL;
            bool diff = (type >= R_ADD8 && type <= R_SUB64) || type == R_SUB6;
            if (pcrel || diff) {
                /* the place and the target (or both symbols of a difference) move together */
                if (moves || type == R_PCREL_LO12_I || type == R_PCREL_LO12_S) continue;
                return elf_err(err, errlen, "cannot move the image: relocation type %u at 0x%08x is relative to a "
                                            "symbol outside it", type, off);
            }
            if (type != R_32 && type != R_HI20 && type != R_LO12_I && type != R_LO12_S)
                return elf_err(err, errlen, "cannot move the image: relocation type %u at 0x%08x is not supported "
                                            "(R_RISCV_32, HI20, LO12_I, LO12_S and PC-relative ones are)", type, off);
            uint8_t *p = patch_at(e, off);
            if (!p) return elf_err(err, errlen, "relocation at 0x%08x is outside the image's file bytes", off);
            if (!apply) continue;
            uint32_t v = rd32(s + 4) + addend + (moves ? bias : 0u), insn = rd32(p);
            switch (type) {
            case R_32: wr32(p, v); break;
            case R_HI20: wr32(p, (insn & 0xFFFu) | ((v + 0x800u) & 0xFFFFF000u)); break;
            case R_LO12_I: wr32(p, (insn & 0x000FFFFFu) | ((v & 0xFFFu) << 20)); break;
            default: /* R_LO12_S */
                wr32(p, (insn & 0x01FFF07Fu) | (((v >> 5) & 0x7Fu) << 25) | ((v & 0x1Fu) << 7));
            }
        }
    return GC_OK;
}

gc_status_t gc_elf_relocate(gc_elf_t *elf, uint32_t base, char *err, size_t errlen) {
    if (err && errlen) err[0] = '\0';
    if (!elf) return elf_err(err, errlen, "no image");
    uint32_t bias = base - elf->link_lo;
    if (bias == elf->bias) return GC_OK;
    if (!gc_elf_relocatable(elf))
        return elf_err(err, errlen, "the image (linked at 0x%08x) has no relocations: link it with -Wl,--emit-relocs "
                                    "to let it move", elf->link_lo);
    if (bias % RELOC_ALIGN)
        return elf_err(err, errlen, "cannot move the image from 0x%08x to 0x%08x: not a multiple of %u bytes away",
                       elf->link_lo, base, RELOC_ALIGN);
    if ((uint64_t)base + (elf->link_hi - elf->link_lo) > 0x100000000ull)
        return elf_err(err, errlen, "the image (%u bytes) does not fit at 0x%08x", gc_elf_span(elf), base);
    gc_status_t st = relocs(elf, bias, false, err, errlen); /* all or nothing */
    if (st == GC_OK) st = relocs(elf, bias, true, err, errlen);
    if (st != GC_OK) return st;
    for (size_t i = 0; i < elf->nseg; i++) elf->seg[i].vaddr = elf->link_vaddr[i] + bias;
    elf->entry += bias - elf->bias;
    elf->bias = bias;
    return GC_OK;
}

gc_status_t gc_elf_load_with(const gc_elf_t *elf, gc_elf_write_fn write, void *ctx, char *err, size_t errlen) {
    static const uint8_t zeros[256] = {0};
    if (!elf || !write) return elf_err(err, errlen, "no image or no writer");
    for (size_t i = 0; i < elf->nseg; i++) {
        const gc_elf_segment_t *s = &elf->seg[i];
        if (s->filesz && write(ctx, s->vaddr, s->data, s->filesz))
            return elf_err(err, errlen, "cannot write segment at 0x%08x (+%u bytes)", s->vaddr, s->filesz);
        for (uint32_t o = s->filesz; o < s->memsz;) {
            uint32_t n = s->memsz - o < sizeof zeros ? s->memsz - o : (uint32_t)sizeof zeros;
            if (write(ctx, s->vaddr + o, zeros, n))
                return elf_err(err, errlen, "cannot zero-fill segment at 0x%08x", s->vaddr);
            o += n;
        }
    }
    return GC_OK;
}

static bool in_range(uint64_t x, uint64_t base, uint64_t size) { return x >= base && x - base < size; }

bool gc_simt_to_device(uint32_t a, uint64_t *dev) {
    if (in_range(a, GC_SIMT_WIN_VIDMEM_BASE, GC_SIMT_WIN_VIDMEM_SIZE)) {
        if (dev) *dev = GC_SIMT_WIN_VIDMEM_DEVICE + (a - (uint64_t)GC_SIMT_WIN_VIDMEM_BASE);
        return true;
    }
    if (in_range(a, GC_SIMT_WIN_SYSMEM_BASE, GC_SIMT_WIN_SYSMEM_SIZE)) {
        if (dev) *dev = GC_SIMT_WIN_SYSMEM_DEVICE + (a - (uint64_t)GC_SIMT_WIN_SYSMEM_BASE);
        return true;
    }
    return false;
}

bool gc_simt_from_device(uint64_t dev, uint32_t *a) {
    if (in_range(dev, GC_SIMT_WIN_VIDMEM_DEVICE, GC_SIMT_WIN_VIDMEM_SIZE)) {
        if (a) *a = (uint32_t)(GC_SIMT_WIN_VIDMEM_BASE + (dev - GC_SIMT_WIN_VIDMEM_DEVICE));
        return true;
    }
    if (in_range(dev, GC_SIMT_WIN_SYSMEM_DEVICE, GC_SIMT_WIN_SYSMEM_SIZE)) {
        if (a) *a = (uint32_t)(GC_SIMT_WIN_SYSMEM_BASE + (dev - GC_SIMT_WIN_SYSMEM_DEVICE));
        return true;
    }
    return false;
}

#ifndef GC_ELF_NO_DEVICE
static int dev_write(void *ctx, uint32_t a, const void *src, size_t n) {
    uint64_t d;
    if (!gc_simt_to_device(a, &d)) return -1;
    return gc_mem_write((gc_device_t *)ctx, d, src, n) == GC_OK ? 0 : -1;
}

/* The device address of thread range [a, a + n) when it lies inside one window. */
static bool window_range(uint32_t a, uint32_t n, uint64_t *dev) {
    uint64_t d, dl;
    return gc_simt_to_device(a, &d) && gc_simt_to_device(a + n - 1, &dl) && dl == d + n - 1 && (*dev = d, true);
}

/* Reserve the segments at their current addresses. */
static gc_status_t reserve_in_place(gc_device_t *dev, gc_elf_t *elf) {
    for (size_t i = 0; i < elf->nseg; i++) {
        const gc_elf_segment_t *s = &elf->seg[i];
        uint64_t d;
        if (!window_range(s->vaddr, s->memsz, &d)) {
            gc_elf_unload(dev, elf);
            return gc_fail(dev, GC_ERR_INVALID_ARG, "ELF segment [0x%08x, +%u) is not inside the SYSMEM or VIDMEM thread window",
                           s->vaddr, s->memsz);
        }
        gc_mem_kind_t kind = d >= GC_VIDMEM_BASE ? GC_MEM_VIDMEM : GC_MEM_SYSMEM;
        gc_status_t st = gc_mem_reserve(dev, kind, d, s->memsz, &elf->res[elf->nres]);
        if (st != GC_OK) {
            gc_elf_unload(dev, elf);
            return st;
        }
        elf->nres++;
    }
    return GC_OK;
}

/* The link range is taken (another image, an allocation): a relocatable image goes to a free
 * range of the same window, allocated as one block, keeping its offset in a 4 KiB page. */
static gc_status_t place_elsewhere(gc_device_t *dev, gc_elf_t *elf) {
    uint64_t d0;
    uint32_t pofs = elf->link_lo % RELOC_ALIGN, span = gc_elf_span(elf);
    if (!window_range(elf->link_lo, span, &d0))
        return gc_fail(dev, GC_ERR_INVALID_ARG, "ELF image [0x%08x, +%u) is not inside the SYSMEM or VIDMEM thread window",
                       elf->link_lo, span);
    gc_mem_kind_t kind = d0 >= GC_VIDMEM_BASE ? GC_MEM_VIDMEM : GC_MEM_SYSMEM;
    gc_buf_t b;
    gc_status_t st = gc_mem_alloc(dev, kind, (uint64_t)span + pofs, RELOC_ALIGN, &b);
    if (st != GC_OK) return st;
    uint32_t base = 0, last = 0;
    char err[200];
    if (!gc_simt_from_device(b.addr + pofs, &base) || !gc_simt_from_device(b.addr + pofs + span - 1, &last) ||
        last != base + span - 1) {
        gc_mem_free(dev, &b);
        return gc_fail(dev, GC_ERR_NO_MEMORY, "no room for the %u-byte ELF image inside the thread window", span);
    }
    if ((st = gc_elf_relocate(elf, base, err, sizeof err)) != GC_OK) {
        gc_mem_free(dev, &b);
        return gc_fail(dev, st, "%s", err);
    }
    elf->res[0] = b;
    elf->nres = 1;
    return GC_OK;
}

gc_status_t gc_elf_load(gc_device_t *dev, gc_elf_t *elf) {
    if (!dev) return GC_ERR_INVALID_ARG;
    if (!elf) return gc_fail(dev, GC_ERR_INVALID_ARG, "gc_elf_load: the image is NULL");
    if (elf->nres) return gc_fail(dev, GC_ERR_INVALID_ARG, "ELF image already loaded (gc_elf_unload it first)");
    char err[200];
    /* at its link address when that is free */
    if (elf->bias && gc_elf_relocate(elf, elf->link_lo, err, sizeof err) != GC_OK)
        return gc_fail(dev, GC_ERR_INVALID_ARG, "%s", err);
    gc_status_t st = reserve_in_place(dev, elf);
    if (st == GC_ERR_BUSY) {
        if (!gc_elf_relocatable(elf))
            return gc_fail(dev, GC_ERR_BUSY, "the ELF image's range [0x%08x, +%u) is in use (another image is "
                                             "loaded there?) and the image cannot move: link it with -Wl,--emit-relocs "
                                             "(firmware/README.md) or at another GC_LOAD_BASE",
                           elf->link_lo, gc_elf_span(elf));
        st = place_elsewhere(dev, elf);
    }
    if (st != GC_OK) return st;
    st = gc_elf_load_with(elf, dev_write, dev, err, sizeof err);
    if (st != GC_OK) {
        gc_elf_unload(dev, elf);
        return gc_fail(dev, GC_ERR_INVALID_ARG, "%s", err);
    }
    return GC_OK;
}

gc_status_t gc_elf_unload(gc_device_t *dev, gc_elf_t *elf) {
    if (!dev) return GC_ERR_INVALID_ARG;
    if (!elf) return gc_fail(dev, GC_ERR_INVALID_ARG, "gc_elf_unload: the image is NULL");
    gc_status_t st = GC_OK;
    for (size_t i = 0; i < elf->nres; i++) {
        gc_status_t s = gc_mem_free(dev, &elf->res[i]);
        if (s != GC_OK) st = s;
    }
    elf->nres = 0;
    return st;
}
#endif
