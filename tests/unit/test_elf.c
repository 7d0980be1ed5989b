/* The checked ELF32 loader (hostdrv/compute/elf.c), without RTL: the real firmware image, then
 * malformed images (truncations at every length near a header or boundary, random corruption, hand-made broken headers) that must be
 * refused with a message and never read outside the buffer (the test runs under ASan: the image is
 * handed over in an exactly-sized heap block). */
#include <stdio.h>
#include <stdlib.h>
#include <elf.h>
#include <string.h>

#include "gpucosim/elf.h"
#include "gpucosim_spec.h"
#include "tcase.h"

#ifndef GC_FIRMWARE_DIR
#define GC_FIRMWARE_DIR "build/firmware"
#endif

static uint8_t *slurp(const char *name, size_t *n) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", GC_FIRMWARE_DIR, name);
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *p = malloc(len > 0 ? (size_t)len : 1);
    if (p && fread(p, 1, (size_t)len, f) != (size_t)len) {
        free(p);
        p = NULL;
    }
    fclose(f);
    *n = (size_t)len;
    return p;
}

/* parse a copy in a heap block of exactly n bytes (ASan sees any read past it) */
static gc_status_t parse_exact(const uint8_t *d, size_t n, char *err, size_t errlen) {
    uint8_t *copy = malloc(n ? n : 1);
    if (n) memcpy(copy, d, n);
    gc_elf_t *e = NULL;
    gc_status_t st = gc_elf_parse(copy, n, &e, err, errlen);
    if (st == GC_OK) {
        uint32_t v;
        gc_elf_symbol(e, "vecadd", &v); /* walks the symbol table */
        gc_elf_symbol(e, "", &v);
        gc_elf_free(e);
    } else if (e) {
        st = GC_ERR_BACKEND; /* an error must not return an image */
    }
    free(copy);
    return st;
}

static void t_real_image(void) {
    gc_elf_t *e = NULL;
    char err[256];
    char path[512];
    snprintf(path, sizeof path, "%s/kernels.elf", GC_FIRMWARE_DIR);
    gc_status_t st = gc_elf_read_file(path, &e, err, sizeof err);
    if (st != GC_OK) fprintf(stderr, "%s\n", err);
    REQUIRE(st == GC_OK);
    static const char *const names[] = {"vecadd", "saxpy", "reduce", "histogram", "divergent", "__gc_start"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        uint32_t v = 0;
        CHECK_EQ(gc_elf_symbol(e, names[i], &v), GC_OK);
        uint64_t d = 0;
        CHECK(gc_simt_to_device(v, &d));
        CHECK(d >= GC_VIDMEM_BASE && d < GC_VIDMEM_BASE + GC_VIDMEM_SIZE);
        CHECK_EQ(v % 4, 0);
    }
    uint32_t v;
    CHECK_EQ(gc_elf_symbol(e, "no_such_kernel", &v), GC_ERR_NOT_FOUND);
    CHECK_EQ(gc_elf_symbol(e, "vecad", &v), GC_ERR_NOT_FOUND); /* a prefix is not a match */
    CHECK(gc_elf_segment_count(e) >= 1);
    CHECK_EQ(gc_elf_entry(e), 0x83000000u);
    gc_elf_free(e);
    CHECK_EQ(gc_elf_read_file("/nonexistent/x.elf", &e, err, sizeof err), GC_ERR_INVALID_ARG);
    CHECK(e == NULL);
    CHECK(strstr(err, "cannot open") != NULL);
}

/* gc_elf_load_with: each segment's bytes, then zeros up to memsz */
typedef struct sink {
    uint8_t mem[1 << 16];
    uint32_t base;
    int calls;
} sink_t;
static int sink_write(void *ctx, uint32_t a, const void *src, size_t n) {
    sink_t *s = ctx;
    if (a < s->base || a - s->base + n > sizeof s->mem) return -1;
    memcpy(s->mem + (a - s->base), src, n);
    s->calls++;
    return 0;
}

static void t_load_with(void) {
    size_t n = 0;
    uint8_t *d = slurp("kernels.elf", &n);
    REQUIRE(d);
    gc_elf_t *e = NULL;
    char err[256];
    REQUIRE(gc_elf_parse(d, n, &e, err, sizeof err) == GC_OK);
    static sink_t s;
    memset(s.mem, 0xAA, sizeof s.mem);
    s.base = 0x83000000u;
    REQUIRE(gc_elf_load_with(e, sink_write, &s, err, sizeof err) == GC_OK);
    for (size_t i = 0; i < gc_elf_segment_count(e); i++) {
        const gc_elf_segment_t *g = gc_elf_segment(e, i);
        CHECK(memcmp(s.mem + (g->vaddr - s.base), g->data, g->filesz) == 0);
        for (uint32_t k = g->filesz; k < g->memsz; k++) CHECK_EQ(s.mem[g->vaddr - s.base + k], 0);
    }
    /* a writer that refuses: an error, not a crash */
    s.base = 0;
    CHECK_EQ(gc_elf_load_with(e, sink_write, &s, err, sizeof err), GC_ERR_INVALID_ARG);
    CHECK(strstr(err, "cannot write") != NULL);
    gc_elf_free(e);
    free(d);
}

/* The cut lengths worth parsing: every length within 4 KiB of either end (the ELF and program headers,
 * the section header table and string tables), every length within 8 bytes of a section's or a
 * segment's start and end, and one length in 61 elsewhere (the middle of the loadable bytes, where
 * every cut is refused the same way). All 300k lengths with an exact-sized copy each took ~55 s,
 * nearly all of it page faults. */
static int cut_worth_parsing(const uint8_t *d, size_t n, size_t len) {
    if (len < 4096 || len + 4096 >= n || len % 61 == 0) return 1;
    const Elf32_Ehdr *eh = (const Elf32_Ehdr *)d;
    for (unsigned i = 0; i < eh->e_phnum; i++) {
        const Elf32_Phdr *ph = (const Elf32_Phdr *)(d + eh->e_phoff + (size_t)i * eh->e_phentsize);
        size_t a = ph->p_offset, b = (size_t)ph->p_offset + ph->p_filesz;
        if ((len + 8 >= a && len <= a + 8) || (len + 8 >= b && len <= b + 8)) return 1;
    }
    for (unsigned i = 0; i < eh->e_shnum; i++) {
        const Elf32_Shdr *sh = (const Elf32_Shdr *)(d + eh->e_shoff + (size_t)i * eh->e_shentsize);
        size_t a = sh->sh_offset, b = (size_t)sh->sh_offset + (sh->sh_type == SHT_NOBITS ? 0 : sh->sh_size);
        if ((len + 8 >= a && len <= a + 8) || (len + 8 >= b && len <= b + 8)) return 1;
    }
    return 0;
}

static void t_truncations(void) {
    size_t n = 0;
    uint8_t *d = slurp("kernels.elf", &n);
    REQUIRE(d);
    REQUIRE(n > 8192 && memcmp(d, ELFMAG, SELFMAG) == 0);
    char err[256];
    unsigned refused = 0, ok = 0, tried = 0;
    for (size_t len = 0; len < n; len++) {
        if (!cut_worth_parsing(d, n, len)) continue;
        tried++;
        gc_status_t st = parse_exact(d, len, err, sizeof err);
        REQUIRE(st == GC_OK || st == GC_ERR_INVALID_ARG);
        if (st == GC_OK) ok++;
        else {
            refused++;
            CHECK(strncmp(err, "ELF: ", 5) == 0);
        }
    }
    /* a cut inside the loadable bytes is always refused */
    CHECK(refused > 0x1000);
    CHECK_EQ(parse_exact(d, n, err, sizeof err), GC_OK);
    fprintf(stderr, "%u of %zu truncations parsed: %u refused, %u accepted (cut after the loaded bytes)\n",
            tried, n, refused, ok);
    free(d);
}

static void t_random_corruption(void) {
    size_t n = 0;
    uint8_t *d = slurp("kernels.elf", &n);
    REQUIRE(d);
    uint8_t *m = malloc(n);
    char err[256];
    uint32_t x = 12345;
    unsigned refused = 0;
    for (int iter = 0; iter < 4000; iter++) {
        memcpy(m, d, n);
        int flips = 1 + iter % 8;
        for (int k = 0; k < flips; k++) {
            x = x * 1664525u + 1013904223u;
            /* mostly the headers, where the offsets live */
            size_t at = (x >> 8) % 4 ? (x >> 12) % 128 : (x >> 12) % n;
            if (iter % 3 == 0 && at < 128) at = n - 1 - (at % 256); /* and the section headers at the end */
            x = x * 1664525u + 1013904223u;
            m[at] = (uint8_t)(x >> 24);
        }
        gc_status_t st = parse_exact(m, n, err, sizeof err);
        REQUIRE(st == GC_OK || st == GC_ERR_INVALID_ARG);
        if (st != GC_OK) refused++;
    }
    CHECK(refused > 100);
    fprintf(stderr, "4000 corrupted images: %u refused\n", refused);
    free(m);
    free(d);
}

static void put16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static void put32(uint8_t *p, uint32_t v) {
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

/* a minimal valid image: header, one PT_LOAD of 8 bytes, a symbol table with one symbol */
enum { IMG = 52 + 32 + 8 + 3 * 40 + 2 * 16 + 8 };
static void make_image(uint8_t *d) {
    memset(d, 0, IMG);
    memcpy(d, "\177ELF", 4);
    d[4] = 1, d[5] = 1, d[6] = 1;
    put16(d + 16, 2), put16(d + 18, 243);
    put32(d + 24, 0x83000000u);
    put32(d + 28, 52);            /* phoff */
    put32(d + 32, 52 + 32 + 8);   /* shoff */
    put16(d + 42, 32), put16(d + 44, 1), put16(d + 46, 40), put16(d + 48, 3);
    uint8_t *ph = d + 52;
    put32(ph, 1), put32(ph + 4, 84), put32(ph + 8, 0x83000000u), put32(ph + 16, 8), put32(ph + 20, 16);
    memcpy(d + 84, "\x13\x00\x00\x00\x13\x00\x00\x00", 8);
    uint8_t *sh = d + 92;                       /* [0] null, [1] symtab, [2] strtab */
    uint32_t symoff = 92 + 120, stroff = symoff + 32;
    put32(sh + 40 + 4, 2), put32(sh + 40 + 16, symoff), put32(sh + 40 + 20, 32), put32(sh + 40 + 24, 2),
        put32(sh + 40 + 36, 16);
    put32(sh + 80 + 4, 3), put32(sh + 80 + 16, stroff), put32(sh + 80 + 20, 8);
    uint8_t *sym = d + symoff + 16;              /* symbol 1: "kern" = 0x83000004, section 1 */
    put32(sym, 1), put32(sym + 4, 0x83000004u), put16(sym + 14, 1);
    memcpy(d + stroff, "\0kern\0\0\0", 8);
}

static void t_hand_made(void) {
    uint8_t d[IMG];
    char err[256];
    gc_elf_t *e = NULL;
    make_image(d);
    REQUIRE(gc_elf_parse(d, IMG, &e, err, sizeof err) == GC_OK);
    uint32_t v = 0;
    CHECK_EQ(gc_elf_symbol(e, "kern", &v), GC_OK);
    CHECK_EQ(v, 0x83000004u);
    CHECK_EQ(gc_elf_segment(e, 0)->memsz, 16);
    gc_elf_free(e);

    struct {
        const char *what, *msg;
        void (*mut)(uint8_t *);
    } bad[] = {
        {"magic", "magic", NULL},
        {"class", "ELF32", NULL},
        {"endian", "little-endian", NULL},
        {"machine", "RISC-V", NULL},
        {"type", "executable", NULL},
        {"phoff", "program headers", NULL},
        {"phnum", "program headers", NULL},
        {"phentsize", "e_phentsize", NULL},
        {"filesz", "p_filesz", NULL},
        {"seg offset", "past the end", NULL},
        {"wrap", "wraps", NULL},
        {"shoff", "section headers", NULL},
        {"symtab link", "links to section", NULL},
        {"strtab nul", "NUL", NULL},
        {"symtab size", "symbol table", NULL},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        make_image(d);
        switch (i) {
        case 0: d[1] = 'X'; break;
        case 1: d[4] = 2; break;
        case 2: d[5] = 2; break;
        case 3: put16(d + 18, 62); break;
        case 4: put16(d + 16, 3); break;
        case 5: put32(d + 28, 0xFFFFFFF0u); break;
        case 6: put16(d + 44, 0xFFFF); break;
        case 7: put16(d + 42, 56); break;
        case 8: put32(d + 52 + 16, 17); break;
        case 9: put32(d + 52 + 4, IMG - 4); break;
        case 10: put32(d + 52 + 8, 0xFFFFFFF8u); break;
        case 11: put32(d + 32, IMG - 40); break;
        case 12: put32(d + 92 + 40 + 24, 7); break;
        case 13: d[IMG - 1] = 'x'; break;
        case 14: put32(d + 92 + 40 + 20, 0x7FFFFFF0u); break;
        }
        gc_status_t st = parse_exact(d, IMG, err, sizeof err);
        if (st != GC_ERR_INVALID_ARG || !strstr(err, bad[i].msg))
            TCASE_FAIL_("%s: status %d, message '%s' (want '%s')", bad[i].what, st, err, bad[i].msg);
    }
    /* a symbol whose name offset is past the string table is skipped, not read */
    make_image(d);
    put32(d + 92 + 120 + 16, 0x10000);
    REQUIRE(gc_elf_parse(d, IMG, &e, err, sizeof err) == GC_OK);
    CHECK_EQ(gc_elf_symbol(e, "kern", &v), GC_ERR_NOT_FOUND);
    gc_elf_free(e);
    CHECK_EQ(gc_elf_parse(NULL, 10, &e, err, sizeof err), GC_ERR_INVALID_ARG);
    CHECK_EQ(gc_elf_parse(d, 0, &e, err, sizeof err), GC_ERR_INVALID_ARG);
}

static void t_windows(void) {
    uint64_t d = 0;
    uint32_t a = 0;
    CHECK(gc_simt_to_device(0x00001000u, &d) && d == GC_SYSMEM_BASE + 0x1000);
    CHECK(gc_simt_to_device(0x80000040u, &d) && d == GC_VIDMEM_BASE + 0x40);
    CHECK(!gc_simt_to_device(GC_SIMT_WIN_SHARED_BASE, &d));
    CHECK(!gc_simt_to_device(0xC0000000u, &d));
    CHECK(gc_simt_from_device(GC_VIDMEM_BASE + 0x1234, &a) && a == 0x80001234u);
    CHECK(gc_simt_from_device(GC_SYSMEM_BASE + 0x10, &a) && a == 0x10u);
    CHECK(!gc_simt_from_device(0xFF00000000ull, &a));
}

/* The word at thread address a of the (current) image, through its segments. */
static bool word_at(const gc_elf_t *e, uint32_t a, uint32_t *w) {
    for (size_t i = 0; i < gc_elf_segment_count(e); i++) {
        const gc_elf_segment_t *g = gc_elf_segment(e, i);
        if (a >= g->vaddr && a - g->vaddr + 4 <= g->filesz) {
            memcpy(w, g->data + (a - g->vaddr), 4);
            return true;
        }
    }
    return false;
}

/* gc_elf_relocate on other.elf (--emit-relocs, absolute addressing): symbols, entry and segments
 * move by the offset, the table of function pointers (R_RISCV_32) holds the moved functions, and
 * moving back restores every byte; refused (image unchanged, a message) when not a multiple of
 * 4 KiB away, and for an image without relocations (simt_isa.elf). */
static void t_relocate(void) {
    char err[256], path[512];
    gc_elf_t *e = NULL, *ref = NULL, *isa = NULL;
    snprintf(path, sizeof path, "%s/other.elf", GC_FIRMWARE_DIR);
    REQUIRE(gc_elf_read_file(path, &e, err, sizeof err) == GC_OK);
    REQUIRE(gc_elf_read_file(path, &ref, err, sizeof err) == GC_OK);
    CHECK(gc_elf_relocatable(e));
    uint32_t base = gc_elf_base(e), ops = 0, fn[4], entry = gc_elf_entry(e);
    static const char *const fns[4] = {"op_add", "op_sub", "op_xor", "op_mul"};
    CHECK_EQ(base, 0x83000000u);
    const uint32_t delta = 0x00345000u;
    REQUIRE(gc_elf_relocate(e, base + delta, err, sizeof err) == GC_OK);
    CHECK_EQ(gc_elf_base(e), base + delta);
    CHECK_EQ(gc_elf_entry(e), entry + delta);
    CHECK_EQ(gc_elf_span(e), gc_elf_span(ref));
    REQUIRE(gc_elf_symbol(e, "ops", &ops) == GC_OK);
    for (int i = 0; i < 4; i++) {
        uint32_t w = 0, r = 0;
        REQUIRE(gc_elf_symbol(e, fns[i], &fn[i]) == GC_OK);
        CHECK_EQ(gc_elf_symbol(ref, fns[i], &r), GC_OK);
        CHECK_EQ(fn[i], r + delta);
        CHECK(word_at(e, ops + 4u * (uint32_t)i, &w));
        CHECK_EQ(w, fn[i]); /* R_RISCV_32 rewritten */
    }
    for (size_t i = 0; i < gc_elf_segment_count(e); i++)
        CHECK_EQ(gc_elf_segment(e, i)->vaddr, gc_elf_segment(ref, i)->vaddr + delta);
    /* refused: the image stays where it is */
    CHECK_EQ(gc_elf_relocate(e, base + 0x123, err, sizeof err), GC_ERR_INVALID_ARG);
    CHECK(strstr(err, "4096") != NULL);
    CHECK_EQ(gc_elf_base(e), base + delta);
    /* back to the link address: every byte as in the file */
    REQUIRE(gc_elf_relocate(e, base, err, sizeof err) == GC_OK);
    for (size_t i = 0; i < gc_elf_segment_count(e); i++) {
        const gc_elf_segment_t *g = gc_elf_segment(e, i), *h = gc_elf_segment(ref, i);
        CHECK_EQ(g->vaddr, h->vaddr);
        CHECK(g->filesz == h->filesz && memcmp(g->data, h->data, g->filesz) == 0);
    }
    CHECK_EQ(gc_elf_entry(e), entry);
    /* an image linked without --emit-relocs cannot move */
    snprintf(path, sizeof path, "%s/simt_isa.elf", GC_FIRMWARE_DIR);
    REQUIRE(gc_elf_read_file(path, &isa, err, sizeof err) == GC_OK);
    CHECK(!gc_elf_relocatable(isa));
    CHECK_EQ(gc_elf_relocate(isa, gc_elf_base(isa) + 0x1000, err, sizeof err), GC_ERR_INVALID_ARG);
    CHECK(strstr(err, "--emit-relocs") != NULL);
    CHECK_EQ(gc_elf_relocate(isa, gc_elf_base(isa), err, sizeof err), GC_OK); /* staying put is fine */
    gc_elf_free(isa);
    gc_elf_free(ref);
    gc_elf_free(e);
}

static const tcase_t cases[] = {
    {"elf_relocate", t_relocate},
    {"elf_real_image", t_real_image},        {"elf_load_with", t_load_with},
    {"elf_truncations", t_truncations}, {"elf_random_corruption", t_random_corruption},
    {"elf_hand_made", t_hand_made},          {"elf_windows", t_windows},
};
TCASE_MAIN(cases)
