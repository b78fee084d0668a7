// The entry points that need no handle: the version, status names and the default configuration.
#include "vq/vq.h"

const char* vq_version(void) { return VQ_VERSION_STRING; }

const char* vq_status_string(vq_status status) {
    switch (status) {
        case VQ_OK: return "ok";
        case VQ_ERROR_USAGE: return "usage error";
        case VQ_ERROR_RUNTIME: return "runtime error";
        case VQ_ERROR_INVALID_ARGUMENT: return "invalid argument";
    }
    return "unknown status";
}

vq_config vq_config_default(void) {
    return {.threads = 0, .subsample = 1, .backend = VQ_BACKEND_CPU, .gpu = 0};
}
