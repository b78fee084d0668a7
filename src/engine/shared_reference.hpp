// What the sessions of one many-input run (vq::run_many) share of the reference side: the blocks
// of the CPU twins that read the reference alone, and on a GPU the reference frames themselves.
#pragma once

#include <cstddef>
#include <memory>

#include "engine/shared_reference_blocks.hpp"

namespace vq {
namespace cuda {
class SharedDeviceReference;  // cuda/shared_device_reference.hpp; CUDA builds only
}

struct SharedReference {
    std::shared_ptr<SharedReferenceBlocks> blocks;
    std::shared_ptr<cuda::SharedDeviceReference> device;  // null without CUDA

    // For `sessions` sessions.
    static SharedReference for_sessions(std::size_t sessions);
};

}  // namespace vq
