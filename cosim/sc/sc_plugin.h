/* sc_plugin.h: the interface between hostdrv's `sc` backend stub (hostdrv/device/backend_sc.c) and
 * the SystemC plugin (build/lib/libgpucosim_sc.so, built from cosim/sc/).
 *
 * The plugin carries the SystemC top, its own Verilated model (Verilator --sc, prefix
 * Vgpu_top_sc) and its own Verilated runtime, and links libsystemc.  The stub dlopen()s it with
 * RTLD_LOCAL, so none of that is visible to, or clashes with, the C++ model and runtime the `rtl`
 * backend links into the same executable; binaries that never open an `sc` device never load
 * libsystemc.  The plugin exports three C functions (and the sc_main that libsystemc.so refers
 * to): its backend table, and gc_sc_run's and gc_sc_thread_name's implementations
 * (gpucosim/sc.h).
 */
#ifndef GPUCOSIM_SC_PLUGIN_H
#define GPUCOSIM_SC_PLUGIN_H

#include <stddef.h>

#include "gpucosim/backend.h"
#include "gpucosim/sc.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped whenever this interface or gc_backend_ops_t changes meaning. */
#define GC_SC_PLUGIN_ABI 3u
#define GC_SC_PLUGIN_FILE "libgpucosim_sc.so"
#define GC_SC_PLUGIN_ENTRY "gc_sc_plugin_ops"
#define GC_SC_PLUGIN_RUN "gc_sc_plugin_run"
#define GC_SC_PLUGIN_THREAD "gc_sc_plugin_thread"

/* The plugin's backend table, or NULL (with the reason in err) when the stub was built against
 * another interface: abi must be GC_SC_PLUGIN_ABI and ops_size sizeof(gc_backend_ops_t). */
typedef const gc_backend_ops_t *(*gc_sc_plugin_entry_fn)(unsigned abi, size_t ops_size, char *err, size_t errlen);
/* gc_sc_run (err is never NULL here) and gc_sc_thread_name, as gpucosim/sc.h describes them. */
typedef gc_status_t (*gc_sc_plugin_run_fn)(gc_sc_program_fn program, void *arg, int *program_status, char *err,
                                           size_t errlen);
typedef const char *(*gc_sc_plugin_thread_fn)(void);

#ifdef __cplusplus
}
#endif
#endif
