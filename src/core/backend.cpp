#include "vq/backend.hpp"

namespace vq {

const char* to_string(Backend backend) {
    switch (backend) {
    case Backend::cpu: return "cpu";
    case Backend::cuda: return "cuda";
    case Backend::automatic: return "auto";
    }
    return "?";
}

}  // namespace vq
