/* sc.h: run driver code as an SC_THREAD of the sc backend's SystemC top.
 *
 * gc_device_open with backend "sc" works from any C code: the driver stays on the caller's stack
 * and each backend call that needs simulated time runs the SystemC kernel until it is done (a
 * mailbox served by an SC_THREAD of the top).  gc_sc_run is the other arrangement: the driver
 * itself runs in an SC_THREAD.  It loads the SystemC plugin, builds the hierarchy (or reuses it:
 * SystemC elaborates once per process), spawns an SC_THREAD (sc_spawn) that calls program(arg),
 * and runs sc_start() until the program returns.  In that thread the program uses hostdrv as
 * usual (gc_device_open with backend "sc", MMIO, waits, gc_device_close), and the sc backend's
 * calls are plain SystemC: an MMIO access is a TLM-2.0 b_transport issued from the thread,
 * running n cycles is wait()ing them.  The cycles are the same in both arrangements.
 *
 * Not reentrant: the program must not call gc_sc_run itself (GC_ERR_BUSY).  Other backends may
 * be opened from the program too (they do not involve SystemC).  An sc device the program leaves
 * open can still be used after gc_sc_run returns (through the mailbox); close it before the next
 * sc open, as usual.
 */
#ifndef GPUCOSIM_SC_H
#define GPUCOSIM_SC_H

#include "gpucosim/device.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef int (*gc_sc_program_fn)(void *arg);

/* Run program(arg) in a new SC_THREAD of the sc backend's SystemC top until it returns.
 * GC_OK: it ran and returned *program_status (program_status may be NULL).  Otherwise, with a
 * one-line reason in err (err may be NULL): GC_ERR_INVALID_ARG (program is NULL), GC_ERR_BACKEND
 * (the plugin could not be loaded, or the simulation stopped with an error), GC_ERR_BUSY (called
 * from inside a program gc_sc_run runs).  The program then did not run, or did not finish. */
gc_status_t gc_sc_run(gc_sc_program_fn program, void *arg, int *program_status, char *err, size_t errlen);

/* The SystemC name of gc_sc_run's thread (e.g. "driver_1") when called from it, else NULL. */
const char *gc_sc_thread_name(void);

#ifdef __cplusplus
}
#endif
#endif
