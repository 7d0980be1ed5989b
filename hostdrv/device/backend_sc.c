/* backend_sc.c: the "sc" backend's stub: loads the SystemC plugin and forwards to it.
 *
 * The SystemC top (cosim/sc/) lives in its own shared object, libgpucosim_sc.so, with its own
 * Verilated model and runtime and the libsystemc dependency, so that executables which never open
 * an sc device neither load libsystemc nor see a second copy of Verilator's runtime (see
 * cosim/sc/sc_plugin.h).  It is loaded on the first open, with RTLD_LOCAL, from the first of:
 *   $GPUCOSIM_SC_PLUGIN (when set, only there);
 *   <directory of the executable>/../lib/libgpucosim_sc.so (build/bin and build/tests -> build/lib);
 *   <directory of the executable>/libgpucosim_sc.so;
 *   the build directory's copy, GC_SC_PLUGIN_DEFAULT (an absolute path set by the Makefile).
 * It stays loaded for the life of the process (SystemC elaborates once per process).  This is the
 * driver's one piece of process-wide state, as a loaded library is process-wide anyway.
 *
 * gc_sc_run and gc_sc_thread_name (gpucosim/sc.h) are here too: they load the plugin the same
 * way and call its gc_sc_plugin_run / gc_sc_plugin_thread.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpucosim/backend.h"
#include "gpucosim/sc.h"
#include "sc/sc_plugin.h"

#ifndef GC_SC_PLUGIN_DEFAULT
#define GC_SC_PLUGIN_DEFAULT ""
#endif

static const gc_backend_ops_t *plugin;
static gc_sc_plugin_run_fn plugin_run;
static gc_sc_plugin_thread_fn plugin_thread;
static char report[2048]; /* why the last load failed: "\n  path: reason" per path tried */

/* Try one path; on failure append "path: reason" to the report. */
static const gc_backend_ops_t *try_load(const char *path, char *report, size_t len) {
    size_t used = strlen(report);
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        snprintf(report + used, len - used, "\n  %s", dlerror());
        return NULL;
    }
    gc_sc_plugin_entry_fn entry;
    void *sym = dlsym(h, GC_SC_PLUGIN_ENTRY);
    memcpy(&entry, &sym, sizeof entry);
    char why[256] = "";
    const gc_backend_ops_t *ops = sym ? entry(GC_SC_PLUGIN_ABI, sizeof(gc_backend_ops_t), why, sizeof why) : NULL;
    void *run = ops ? dlsym(h, GC_SC_PLUGIN_RUN) : NULL, *thread = ops ? dlsym(h, GC_SC_PLUGIN_THREAD) : NULL;
    if (ops && (!run || !thread)) snprintf(why, sizeof why, "no %s in it", run ? GC_SC_PLUGIN_THREAD : GC_SC_PLUGIN_RUN);
    if (!ops || !run || !thread) {
        snprintf(report + used, len - used, "\n  %s: %s", path, sym ? why : "no " GC_SC_PLUGIN_ENTRY " in it");
        dlclose(h);
        return NULL;
    }
    memcpy(&plugin_run, &run, sizeof plugin_run);
    memcpy(&plugin_thread, &thread, sizeof plugin_thread);
    return ops;
}

static const gc_backend_ops_t *load(char *err, size_t errlen) {
    if (plugin) return plugin;
    report[0] = 0;
    const char *env = getenv("GPUCOSIM_SC_PLUGIN");
    if (env && *env) {
        plugin = try_load(env, report, sizeof report);
    } else {
        char exe[PATH_MAX], path[PATH_MAX + 64];
        ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
        if (n > 0) {
            exe[n] = 0;
            char *slash = strrchr(exe, '/');
            if (slash) *slash = 0;
            snprintf(path, sizeof path, "%s/../lib/%s", exe, GC_SC_PLUGIN_FILE);
            plugin = try_load(path, report, sizeof report);
            if (!plugin) {
                snprintf(path, sizeof path, "%s/%s", exe, GC_SC_PLUGIN_FILE);
                plugin = try_load(path, report, sizeof report);
            }
        }
        if (!plugin && GC_SC_PLUGIN_DEFAULT[0]) plugin = try_load(GC_SC_PLUGIN_DEFAULT, report, sizeof report);
    }
    if (!plugin) {
        fprintf(stderr, "hostdrv: the sc backend's SystemC plugin %s could not be loaded; tried:%s\n",
                GC_SC_PLUGIN_FILE, report);
        snprintf(err, errlen,
                 "SystemC plugin %s not found or not loadable (build it with 'make all', or point "
                 "GPUCOSIM_SC_PLUGIN at it)",
                 GC_SC_PLUGIN_FILE);
    }
    return plugin;
}

static gc_status_t sc_open(const gc_device_config_t *cfg, void **state, char *err, size_t errlen) {
    if (!load(err, errlen)) return GC_ERR_BACKEND;
    return plugin->open(cfg, state, err, errlen);
}
static void sc_close(void *s) { plugin->close(s); }
static gc_status_t sc_mmio_read(void *s, uint32_t o, uint32_t *v) { return plugin->mmio_read(s, o, v); }
static gc_status_t sc_mmio_write(void *s, uint32_t o, uint32_t v) { return plugin->mmio_write(s, o, v); }
static gc_status_t sc_mem_read(void *s, uint64_t a, void *d, size_t n) { return plugin->mem_read(s, a, d, n); }
static gc_status_t sc_mem_write(void *s, uint64_t a, const void *d, size_t n) {
    return plugin->mem_write(s, a, d, n);
}
static gc_status_t sc_run(void *s, uint64_t n) { return plugin->run(s, n); }
static bool sc_irq(void *s) { return plugin->irq(s); }
static uint64_t sc_cycles(void *s) { return plugin->cycles(s); }
static uint64_t sc_seed(void *s) { return plugin->seed(s); }
static void sc_dump(void *s, FILE *out) { plugin->dump_state(s, out); }
static bool sc_watchdog(void *s, uint64_t *at) { return plugin->watchdog && plugin->watchdog(s, at); }
static gc_status_t sc_debug_read(void *s, uint32_t o, uint32_t *v) {
    return plugin->debug_read ? plugin->debug_read(s, o, v) : GC_ERR_BACKEND;
}

gc_status_t gc_sc_run(gc_sc_program_fn program, void *arg, int *program_status, char *err, size_t errlen) {
    char buf[256];
    if (!err || !errlen) {
        err = buf;
        errlen = sizeof buf;
    }
    err[0] = 0;
    if (!program) {
        snprintf(err, errlen, "gc_sc_run: the program is NULL (give the function to run in the SC_THREAD)");
        return GC_ERR_INVALID_ARG;
    }
    char why[256] = "";
    if (!load(why, sizeof why)) {
        /* the first path tried and its reason, then the remedy */
        const char *first = report[0] == '\n' ? report + 3 : report;
        const char *nl = strchr(first, '\n');
        snprintf(err, errlen, "gc_sc_run: %s; %.*s", why, nl ? (int)(nl - first) : (int)strlen(first), first);
        return GC_ERR_BACKEND;
    }
    return plugin_run(program, arg, program_status, err, errlen);
}

const char *gc_sc_thread_name(void) { return plugin ? plugin_thread() : NULL; }

const gc_backend_ops_t gc_backend_sc = {
    .name = "sc",
    .doc = "SystemC/TLM-2.0 top around the Verilated model (plugin " GC_SC_PLUGIN_FILE ")",
    .open = sc_open,
    .close = sc_close,
    .mmio_read = sc_mmio_read,
    .mmio_write = sc_mmio_write,
    .mem_read = sc_mem_read,
    .mem_write = sc_mem_write,
    .run = sc_run,
    .irq = sc_irq,
    .cycles = sc_cycles,
    .seed = sc_seed,
    .dump_state = sc_dump,
    .watchdog = sc_watchdog,
    .debug_read = sc_debug_read,
};
