/* status.c: printable names of statuses. */
#include <shove/shove_common.h>

const char *shove_status_string(shove_status s) {
    switch (s) {
    case SHOVE_OK:
        return "ok";
    case SHOVE_ERR_INVALID_ARGUMENT:
        return "invalid argument";
    case SHOVE_ERR_STALE_ID:
        return "stale id";
    case SHOVE_ERR_OUT_OF_MEMORY:
        return "out of memory";
    case SHOVE_ERR_UNSUPPORTED:
        return "unsupported";
    case SHOVE_ERR_LOCKED:
        return "locked (called from a callback of the same world)";
    case SHOVE_ERR_OUT_OF_RANGE:
        return "out of range";
    }
    return "unknown status";
}
