/* sc_plugin.h: the interface between hostdrv's `sc` backend stub (hostdrv/src/backend_sc.c) and
 * the SystemC plugin (build/lib/libgpucosim_sc.so, built from cosim/sc/).
 *
 * The plugin carries the SystemC top, its own Verilated model (Verilator --sc, prefix
 * Vgpu_top_sc) and its own Verilated runtime, and links libsystemc.  The stub dlopen()s it with
 * RTLD_LOCAL, so none of that is visible to, or clashes with, the C++ model and runtime the `rtl`
 * backend links into the same executable; binaries that never open an `sc` device never load
 * libsystemc.  The plugin exports one C function (and the sc_main that libsystemc.so refers to).
 */
#ifndef GPUCOSIM_SC_PLUGIN_H
#define GPUCOSIM_SC_PLUGIN_H

#include <stddef.h>

#include "gpucosim/backend.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped whenever this interface or gc_backend_ops_t changes meaning. */
#define GC_SC_PLUGIN_ABI 1u
#define GC_SC_PLUGIN_FILE "libgpucosim_sc.so"
#define GC_SC_PLUGIN_ENTRY "gc_sc_plugin_ops"

/* The plugin's backend table, or NULL (with the reason in err) when the stub was built against
 * another interface: abi must be GC_SC_PLUGIN_ABI and ops_size sizeof(gc_backend_ops_t). */
typedef const gc_backend_ops_t *(*gc_sc_plugin_entry_fn)(unsigned abi, size_t ops_size, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif
