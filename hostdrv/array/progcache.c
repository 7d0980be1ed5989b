/* progcache.c: kernel programs from C source: the memory cache, the disk cache and the compiler.
 *
 * The key text of a program is everything that changes its binary: the compiler's identity (its
 * --version line and path), the flags, a hash of the files every kernel is built from (crt0.S,
 * lib.c, link.ld, gc_device.h, gpucosim_spec.h, gca_ops.h, picolibc's libc.a size), the CTA
 * size, and the generated source.  Its FNV-1a hash names the disk entry <dir>/<hash>.elf with
 * <dir>/<hash>.key beside it ("<elf bytes> <elf hash>\n" + the key text).  A disk entry is used
 * only when its key text equals ours and the ELF has the recorded size and hash; the verified
 * bytes are loaded from a private copy (so a file changing under us is never loaded).  Anything
 * else (missing, truncated, corrupt, another key) is rebuilt and rewritten (temporary file +
 * rename, so a concurrent reader sees the old or the new entry whole). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "array_int.h"

extern char **environ;

#define CC_FLAGS                                                                                                \
    "-O2", "-march=rv32imaf", "-mabi=ilp32f", "-mcmodel=medany", "-mno-relax", "-ffreestanding", "-fno-builtin", \
        "-fno-math-errno", "-ffp-contract=off", "-fno-tree-loop-distribute-patterns", "-nostdlib",               \
        "-nostartfiles", "-Wl,--no-relax", "-Wl,--emit-relocs"
static const char *const cc_flags[] = {CC_FLAGS};

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static char *slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 4096, n = 0;
    char *p = malloc(cap + 1);
    while (p) {
        size_t m = fread(p + n, 1, cap - n, f);
        n += m;
        if (n < cap) break;
        char *q = realloc(p, 2 * cap + 1);
        if (!q) {
            free(p);
            p = NULL;
            break;
        }
        p = q;
        cap *= 2;
    }
    fclose(f);
    if (p) p[n] = 0;
    if (len) *len = n;
    return p;
}

static bool spit(const char *path, const void *d, size_t n) {
    FILE *f = fopen(path, "wb");
    if (!f) return false;
    bool ok = fwrite(d, 1, n, f) == n;
    return (fclose(f) == 0) && ok;
}

/* Run argv with stdout and stderr to `log`; the exit status, or -1 (errno text in why) when it
 * could not be started. */
static int run(char *const argv[], const char *log, char *why, size_t whylen) {
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    pid_t pid;
    int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc) {
        snprintf(why, whylen, "%s", strerror(rc));
        return -1;
    }
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
    if (WIFEXITED(st) && WEXITSTATUS(st) == 127) {
        snprintf(why, whylen, "not found");
        return -1;
    }
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

static gca_error_t tmpdir(gca_ctx_t *ctx, gca_site_t s, char *dir, size_t len) {
    const char *t = getenv("TMPDIR");
    snprintf(dir, len, "%s/gca.XXXXXX", t && *t ? t : "/tmp");
    if (!mkdtemp(dir)) return gca__fail(ctx, GCA_ERROR_COMPILE, s, "cannot make a temporary directory: %s", strerror(errno));
    return GCA_SUCCESS;
}

static void rmtmp(const char *dir) {
    const char *names[] = {"k.c", "k.elf", "cc.log", "v.log", "load.elf"};
    char p[600];
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        snprintf(p, sizeof p, "%s/%s", dir, names[i]);
        unlink(p);
    }
    rmdir(dir);
}

/* The compiler's identity and the hash of the build inputs, once per context. */
static gca_error_t probe(gca_ctx_t *ctx, gca_site_t s) {
    if (ctx->ccid[0]) return GCA_SUCCESS;
    char dir[600], log[700], why[128] = "";
    gca_error_t e = tmpdir(ctx, s, dir, sizeof dir);
    if (e) return e;
    snprintf(log, sizeof log, "%s/v.log", dir);
    char *argv[] = {ctx->compiler, "--version", NULL};
    int rc = run(argv, log, why, sizeof why);
    size_t n = 0;
    char *out = rc == 0 ? slurp(log, &n) : NULL;
    rmtmp(dir);
    if (!out) {
        free(out);
        return gca__fail(ctx, GCA_ERROR_COMPILE, s, "the kernel compiler '%s' cannot be run: %s", ctx->compiler,
                         rc < 0 ? why : "it failed on --version");
    }
    char *nl = strchr(out, '\n');
    if (nl) *nl = 0;
    snprintf(ctx->ccid, sizeof ctx->ccid, "%s (%s)", out, ctx->compiler);
    free(out);
    uint64_t h = GCA_HASH0;
    const char *files[][2] = {{ctx->root, "firmware/crt0.S"},       {ctx->root, "firmware/lib.c"},
                              {ctx->root, "firmware/link.ld"},      {ctx->root, "firmware/include/gc_device.h"},
                              {ctx->gen, "gpucosim_spec.h"},        {ctx->root, "hostdrv/array/gca_ops.h"}};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char p[1100];
        snprintf(p, sizeof p, "%s/%s", files[i][0], files[i][1]);
        size_t len = 0;
        char *d = slurp(p, &len);
        if (!d) {
            ctx->ccid[0] = 0;
            return gca__fail(ctx, GCA_ERROR_COMPILE, s, "kernel build input %s is missing (GPUCOSIM_ROOT?)", p);
        }
        h = gca__hash(d, len, h);
        free(d);
    }
    char libc[700];
    struct stat sb;
    snprintf(libc, sizeof libc, "%s/lib/release/rv32imf/ilp32f/libc.a", ctx->picolibc);
    if (stat(libc, &sb)) {
        ctx->ccid[0] = 0;
        return gca__fail(ctx, GCA_ERROR_COMPILE, s, "picolibc's %s is missing (GPUCOSIM_PICOLIBC?)", libc);
    }
    uint64_t size = (uint64_t)sb.st_size;
    ctx->envhash = gca__hash(&size, sizeof size, h);
    return GCA_SUCCESS;
}

static char *key_text(const gca_ctx_t *ctx, const char *src) {
    size_t len = strlen(src) + 2048;
    char *k = malloc(len);
    if (!k) return NULL;
    size_t off = (size_t)snprintf(k, len, "gca-prog 1\ncc: %s\nflags:", ctx->ccid);
    for (size_t i = 0; i < sizeof cc_flags / sizeof cc_flags[0]; i++)
        off += (size_t)snprintf(k + off, len - off, " %s", cc_flags[i]);
    snprintf(k + off, len - off, "\ninputs: %016llx\ncta: %u x %u\n--\n%s", (unsigned long long)ctx->envhash,
             GC_SIMT_WARPS, GC_SIMT_LANES, src);
    return k;
}

static gca_error_t load(gca_ctx_t *ctx, gca_site_t s, const char *path, gca_prog_t *p) {
    gcrt_error_t e = gcrt_load_image(ctx->rt, path, &p->img);
    if (e != GCRT_SUCCESS)
        return gca__fail(ctx, GCA_ERROR_RUNTIME, s, "loading kernel %016llx: %s (%s)", (unsigned long long)p->hash,
                         gcrt_error_name(e), gcrt_last_message(ctx->rt));
    return GCA_SUCCESS;
}

/* The disk entry, verified: true with the ELF loaded; *stale when an entry was there but unusable. */
static bool from_disk(gca_ctx_t *ctx, gca_site_t s, gca_prog_t *p, const char *dir, bool *stale) {
    char kp[700], ep[700], lp[700];
    snprintf(kp, sizeof kp, "%s/%016llx.key", ctx->cache_dir, (unsigned long long)p->hash);
    snprintf(ep, sizeof ep, "%s/%016llx.elf", ctx->cache_dir, (unsigned long long)p->hash);
    size_t klen = 0, elen = 0;
    char *key = slurp(kp, &klen);
    char *elf = key ? slurp(ep, &elen) : NULL;
    bool ok = false;
    *stale = key != NULL;
    if (key && elf) {
        unsigned long long want_len = 0, want_hash = 0;
        char *nl = strchr(key, '\n');
        if (nl && sscanf(key, "%llu %llx", &want_len, &want_hash) == 2 && !strcmp(nl + 1, p->keytext) &&
            want_len == elen && want_hash == gca__hash(elf, elen, GCA_HASH0)) {
            snprintf(lp, sizeof lp, "%s/load.elf", dir);
            ok = spit(lp, elf, elen) && load(ctx, s, lp, p) == GCA_SUCCESS;
        }
    }
    free(key);
    free(elf);
    return ok;
}

static gca_error_t compile(gca_ctx_t *ctx, gca_site_t s, gca_prog_t *p, const char *src, const char *dir) {
    char cp[700], ep[700], lp[700], inc1[1100], inc2[1100], inc3[1100], inc4[1100], ld[1100], libc[1100];
    snprintf(cp, sizeof cp, "%s/k.c", dir);
    snprintf(ep, sizeof ep, "%s/k.elf", dir);
    snprintf(lp, sizeof lp, "%s/cc.log", dir);
    if (!spit(cp, src, strlen(src))) return gca__fail(ctx, GCA_ERROR_COMPILE, s, "cannot write %s", cp);
    snprintf(inc1, sizeof inc1, "-I%s/firmware/include", ctx->root);
    snprintf(inc2, sizeof inc2, "-I%s", ctx->gen);
    snprintf(inc3, sizeof inc3, "-I%s/hostdrv/array", ctx->root);
    snprintf(inc4, sizeof inc4, "%s/include", ctx->picolibc);
    snprintf(ld, sizeof ld, "%s/firmware/link.ld", ctx->root);
    snprintf(libc, sizeof libc, "%s/lib/release/rv32imf/ilp32f/libc.a", ctx->picolibc);
    char crt[1100], lib[1100];
    snprintf(crt, sizeof crt, "%s/firmware/crt0.S", ctx->root);
    snprintf(lib, sizeof lib, "%s/firmware/lib.c", ctx->root);
    char *argv[48];
    size_t a = 0;
    argv[a++] = ctx->compiler;
    for (size_t i = 0; i < sizeof cc_flags / sizeof cc_flags[0]; i++) argv[a++] = (char *)cc_flags[i];
    char *rest[] = {inc1, inc2, inc3, "-isystem", inc4, "-T", ld, "-o", ep, crt, lib, cp,
                    "-Wl,--start-group", libc, "-lgcc", "-Wl,--end-group", NULL};
    for (size_t i = 0; i < sizeof rest / sizeof rest[0]; i++) argv[a++] = rest[i];
    char why[128] = "";
    double t0 = now_ms();
    int rc = run(argv, lp, why, sizeof why);
    ctx->st.compile_ms += now_ms() - t0;
    ctx->st.compiles++;
    if (rc) {
        char *log = rc > 0 ? slurp(lp, NULL) : NULL;
        if (log) {
            for (char *c = log; *c; c++)
                if (*c == '\n') *c = ' ';
            if (strlen(log) > 300) log[300] = 0;
        }
        gca_error_t e = gca__fail(ctx, GCA_ERROR_COMPILE, s, "compiling kernel %016llx with '%s' failed: %s",
                                  (unsigned long long)p->hash, ctx->compiler,
                                  rc < 0 ? why : log ? log : "(no output)");
        free(log);
        return e;
    }
    size_t elen = 0;
    char *elf = slurp(ep, &elen);
    if (!elf) return gca__fail(ctx, GCA_ERROR_COMPILE, s, "the compiler wrote no %s", ep);
    if (ctx->cache_dir[0]) { /* best effort: a cache that cannot be written only costs compiles */
        mkdir(ctx->cache_dir, 0700);
        char kp[700], ekp[700], tk[760], te[760];
        snprintf(kp, sizeof kp, "%s/%016llx.key", ctx->cache_dir, (unsigned long long)p->hash);
        snprintf(ekp, sizeof ekp, "%s/%016llx.elf", ctx->cache_dir, (unsigned long long)p->hash);
        snprintf(tk, sizeof tk, "%s.%ld.tmp", kp, (long)getpid());
        snprintf(te, sizeof te, "%s.%ld.tmp", ekp, (long)getpid());
        size_t klen = strlen(p->keytext) + 64;
        char *kd = malloc(klen);
        if (kd) {
            int m = snprintf(kd, klen, "%zu %016llx\n%s", elen, (unsigned long long)gca__hash(elf, elen, GCA_HASH0),
                             p->keytext);
            if (m > 0 && spit(te, elf, elen) && spit(tk, kd, (size_t)m)) {
                rename(te, ekp);
                rename(tk, kp);
            } else {
                unlink(te);
                unlink(tk);
            }
            free(kd);
        }
    }
    free(elf);
    return load(ctx, s, ep, p);
}

static gca_error_t prog_get(gca_ctx_t *ctx, gca_site_t s, const char *src, gca_prog_t **out);

gca_error_t gca__prog_get(gca_ctx_t *ctx, gca_site_t s, const char *src, gca_prog_t **out) {
    double t0 = now_ms();
    gca_error_t e = prog_get(ctx, s, src, out);
    ctx->st.prog_ms += now_ms() - t0;
    return e;
}

static gca_error_t prog_get(gca_ctx_t *ctx, gca_site_t s, const char *src, gca_prog_t **out) {
    gca_error_t e = probe(ctx, s);
    if (e) return e;
    char *kt = key_text(ctx, src);
    if (!kt) return gca__fail(ctx, GCA_ERROR_INVALID_VALUE, s, "out of host memory");
    uint64_t h = gca__hash(kt, strlen(kt), GCA_HASH0);
    if (ctx->dump_dir[0]) {
        char dp[700];
        mkdir(ctx->dump_dir, 0700);
        snprintf(dp, sizeof dp, "%s/gca_%016llx.c", ctx->dump_dir, (unsigned long long)h);
        spit(dp, src, strlen(src));
    }
    for (gca_prog_t *p = ctx->progs; p; p = p->next)
        if (p->hash == h && !strcmp(p->keytext, kt)) {
            free(kt);
            ctx->st.prog_mem_hits++;
            *out = p;
            return GCA_SUCCESS;
        }
    gca_prog_t *p = calloc(1, sizeof *p);
    if (!p) {
        free(kt);
        return gca__fail(ctx, GCA_ERROR_INVALID_VALUE, s, "out of host memory");
    }
    p->hash = h;
    p->keytext = kt;
    char dir[600];
    e = tmpdir(ctx, s, dir, sizeof dir);
    if (e) {
        free(kt);
        free(p);
        return e;
    }
    bool stale = false;
    if (ctx->cache_dir[0] && from_disk(ctx, s, p, dir, &stale)) ctx->st.prog_disk_hits++;
    else {
        if (stale) ctx->st.prog_rebuilt++;
        e = compile(ctx, s, p, src, dir);
    }
    rmtmp(dir);
    if (e) {
        free(kt);
        free(p);
        return e;
    }
    p->next = ctx->progs;
    ctx->progs = p;
    *out = p;
    return GCA_SUCCESS;
}

void gca__progs_free(gca_ctx_t *ctx) {
    for (gca_prog_t *p = ctx->progs, *nx; p; p = nx) {
        nx = p->next;
        if (p->img) gcrt_unload_image(ctx->rt, p->img);
        free(p->keytext);
        free(p);
    }
    ctx->progs = NULL;
}
