#include "cuda/kernel.hpp"

#include "cuda/check.hpp"

namespace vq::cuda {

void allow_dynamic_shared_memory_bytes(const void* kernel, std::size_t bytes) {
    VQ_CUDA_CHECK(
        cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes)));
}

}  // namespace vq::cuda
