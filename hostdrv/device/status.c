/* status.c: status codes to text. */
#include "gpucosim/hostdrv.h"

const char *gc_status_str(gc_status_t s) {
    switch (s) {
    case GC_OK: return "ok";
    case GC_ERR_INVALID_ARG: return "invalid argument";
    case GC_ERR_NO_MEMORY: return "out of memory";
    case GC_ERR_BACKEND: return "backend failure";
    case GC_ERR_BUS: return "MMIO bus error";
    case GC_ERR_TIMEOUT: return "timed out";
    case GC_ERR_CHANNEL_FAULT: return "channel fault";
    case GC_ERR_FULL: return "full";
    case GC_ERR_NOT_FOUND: return "not found";
    case GC_ERR_BUSY: return "busy";
    case GC_STATUS_COUNT: break;
    }
    return "unknown status";
}
