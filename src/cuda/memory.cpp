#include "cuda/memory.hpp"

#include <cuda_runtime.h>

#include "cuda/check.hpp"

namespace vq::cuda {

DeviceBuffer::DeviceBuffer(std::size_t bytes) : size_(bytes) {
    void* memory = nullptr;
    check_allocation(cudaMalloc(&memory, bytes), "cudaMalloc (device memory)", bytes, __FILE__, __LINE__);
    data_ = static_cast<std::byte*>(memory);
}

DeviceBuffer::~DeviceBuffer() {
    if (data_) cudaFree(data_);
}

PinnedBuffer::PinnedBuffer(std::size_t bytes) : size_(bytes) {
    void* memory = nullptr;
    check_allocation(cudaHostAlloc(&memory, bytes, cudaHostAllocPortable), "cudaHostAlloc (pinned host memory)",
                     bytes, __FILE__, __LINE__);
    data_ = static_cast<std::byte*>(memory);
}

PinnedBuffer::~PinnedBuffer() {
    if (data_) cudaFreeHost(data_);
}

}  // namespace vq::cuda
