#include "cuda/memory.hpp"

#include "cuda/check.hpp"

namespace vq::cuda {

void* DeviceMemory::allocate(std::size_t bytes) {
    void* memory = nullptr;
    check_allocation(cudaMalloc(&memory, bytes), "cudaMalloc (device memory)", bytes, __FILE__,
                     __LINE__);
    return memory;
}

void DeviceMemory::release(void* memory) noexcept { cudaFree(memory); }

void* PinnedMemory::allocate(std::size_t bytes) {
    void* memory = nullptr;
    check_allocation(cudaHostAlloc(&memory, bytes, cudaHostAllocPortable),
                     "cudaHostAlloc (pinned host memory)", bytes, __FILE__, __LINE__);
    return memory;
}

void PinnedMemory::release(void* memory) noexcept { cudaFreeHost(memory); }

void copy_bytes(void* to, const void* from, std::size_t bytes) {
    VQ_CUDA_CHECK(cudaMemcpy(to, from, bytes, cudaMemcpyDefault));
}

void copy_bytes_async(void* to, const void* from, std::size_t bytes, cudaStream_t stream) {
    VQ_CUDA_CHECK(cudaMemcpyAsync(to, from, bytes, cudaMemcpyDefault, stream));
}

void zero_bytes_async(void* to, std::size_t bytes, cudaStream_t stream) {
    VQ_CUDA_CHECK(cudaMemsetAsync(to, 0, bytes, stream));
}

void copy_bytes_to_symbol_async(const void* symbol, const void* from, std::size_t bytes,
                                cudaStream_t stream) {
    VQ_CUDA_CHECK(cudaMemcpyToSymbolAsync(symbol, from, bytes, 0, cudaMemcpyHostToDevice, stream));
}

bool is_pinned(const void* host) {
    cudaPointerAttributes attributes{};
    VQ_CUDA_CHECK(cudaPointerGetAttributes(&attributes, host));
    return attributes.type == cudaMemoryTypeHost;
}

}  // namespace vq::cuda
