/* backends.c: the table of device backends compiled into this build. */
#include <string.h>

#include "gpucosim/backend.h"

extern const gc_backend_ops_t gc_backend_rtl;
extern const gc_backend_ops_t gc_backend_ref; /* functional C model (backend_ref.c, ref_*.c) */
extern const gc_backend_ops_t gc_backend_sc; /* stub: loads the SystemC plugin on first open */

static const gc_backend_ops_t *const backends[] = {&gc_backend_rtl, &gc_backend_ref, &gc_backend_sc};

const gc_backend_ops_t *gc_backend_at(size_t i) {
    return i < sizeof backends / sizeof backends[0] ? backends[i] : NULL;
}

const gc_backend_ops_t *gc_backend_find(const char *name) {
    for (size_t i = 0; name && gc_backend_at(i); i++)
        if (!strcmp(gc_backend_at(i)->name, name)) return gc_backend_at(i);
    return NULL;
}
