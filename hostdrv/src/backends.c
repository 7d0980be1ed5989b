/* backends.c: the table of device backends compiled into this build. */
#include <string.h>

#include "gpucosim/backend.h"

extern const gc_backend_ops_t gc_backend_rtl;

static const gc_backend_ops_t *const backends[] = {&gc_backend_rtl};

const gc_backend_ops_t *gc_backend_at(size_t i) {
    return i < sizeof backends / sizeof backends[0] ? backends[i] : NULL;
}

const gc_backend_ops_t *gc_backend_find(const char *name) {
    for (size_t i = 0; name && gc_backend_at(i); i++)
        if (!strcmp(gc_backend_at(i)->name, name)) return gc_backend_at(i);
    return NULL;
}
