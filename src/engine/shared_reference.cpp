#include "engine/shared_reference.hpp"

#if VQ_WITH_CUDA
#include "cuda/cuda_backend.hpp"
#endif

namespace vq {

SharedReference SharedReference::for_sessions(std::size_t sessions) {
    SharedReference shared;
    shared.blocks = std::make_shared<SharedReferenceBlocks>(sessions);
#if VQ_WITH_CUDA
    shared.device = cuda::make_shared_device_reference();
#endif
    return shared;
}

}  // namespace vq
