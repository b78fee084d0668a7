#include "cuda/memory.hpp"

#include <sys/mman.h>

#include <cstdint>

#include "cuda/check.hpp"

namespace vq::cuda {

void* DeviceMemory::allocate(std::size_t bytes) {
    void* memory = nullptr;
    check_allocation(cudaMalloc(&memory, bytes), "cudaMalloc (device memory)", bytes, __FILE__,
                     __LINE__);
    return memory;
}

void DeviceMemory::release(void* memory, std::size_t /*bytes*/) noexcept { cudaFree(memory); }

namespace {

constexpr std::size_t huge_page = std::size_t(2) << 20;

// Smaller buffers (result areas, CAMBI's readbacks) stay with cudaHostAlloc.
bool in_huge_pages(std::size_t bytes) { return bytes >= huge_page; }

// The mapping of a buffer in huge pages: whole huge pages from a 2 MiB boundary. A tail in small
// pages would pin as slowly as before (at 1080p, 3.1 MB a frame, most of the buffer); the last
// huge page's unused end costs under 2 MiB of pinned memory a buffer (28 MB more peak memory for
// a 1080p run's 26 staging frames).
std::size_t mapped_bytes(std::size_t bytes) {
    return (bytes + huge_page - 1) / huge_page * huge_page;
}

void* map_huge_page_aligned(std::size_t bytes) {
    const std::size_t length = mapped_bytes(bytes);
    void* mapping = mmap(nullptr, length + huge_page, PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapping == MAP_FAILED) return nullptr;
    // Keep [aligned, aligned + length) and give back the rest of the over-sized mapping.
    auto* start = static_cast<std::byte*>(mapping);
    auto* aligned = reinterpret_cast<std::byte*>(
        (reinterpret_cast<std::uintptr_t>(start) + huge_page - 1) / huge_page * huge_page);
    const auto head = std::size_t(aligned - start);  // below huge_page
    if (head > 0) munmap(start, head);
    munmap(aligned + length, huge_page - head);
    madvise(aligned, length, MADV_HUGEPAGE);  // advice: without THP it stays in small pages
    return aligned;
}

}  // namespace

void* PinnedMemory::allocate(std::size_t bytes) {
    void* memory = nullptr;
    if (!in_huge_pages(bytes)) {
        check_allocation(cudaHostAlloc(&memory, bytes, cudaHostAllocPortable),
                         "cudaHostAlloc (pinned host memory)", bytes, __FILE__, __LINE__);
        return memory;
    }
    memory = map_huge_page_aligned(bytes);
    if (!memory)
        check_allocation(cudaErrorMemoryAllocation, "mmap (pinned host memory)", bytes, __FILE__,
                         __LINE__);
    if (const cudaError_t status =
            cudaHostRegister(memory, mapped_bytes(bytes), cudaHostRegisterPortable);
        status != cudaSuccess) {
        munmap(memory, mapped_bytes(bytes));
        check_allocation(status, "cudaHostRegister (pinned host memory)", bytes, __FILE__,
                         __LINE__);
    }
    return memory;
}

void PinnedMemory::release(void* memory, std::size_t bytes) noexcept {
    if (!in_huge_pages(bytes)) {
        cudaFreeHost(memory);
        return;
    }
    cudaHostUnregister(memory);
    munmap(memory, mapped_bytes(bytes));
}

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
