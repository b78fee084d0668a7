// Owners of device and page-locked host memory, and the copies between them: the only place vq
// calls cudaMalloc, cudaFree, cudaHostAlloc, cudaFreeHost, cudaMemcpy, cudaMemcpyToSymbol,
// cudaMemset and cudaPointerGetAttributes. Owners are
// move-only; freeing never throws (a failure there means the context is already broken, and the
// error that broke it was reported where it happened).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

namespace vq::cuda {

// How one kind of memory is obtained and given back, in bytes (release() is told the bytes
// allocate() was asked for). allocate() throws vq::Error.
struct DeviceMemory {  // on the current device
    static void* allocate(std::size_t bytes);
    static void release(void* memory, std::size_t bytes) noexcept;
};
// Page-locked host memory that every device can copy from and to asynchronously ("portable": it
// stays pinned whichever thread or context allocated it). Buffers of a frame's size are mapped in
// 2 MiB pages where the kernel offers them (transparent huge pages) and then registered: pinning
// costs per page, and a run's staging frames took a fifth of a 4K run's whole time in 4 KiB pages.
struct PinnedMemory {
    static void* allocate(std::size_t bytes);
    static void release(void* memory, std::size_t bytes) noexcept;
};

// `count` elements of T in memory of one kind, uninitialised. The one owner template: device and
// pinned arrays differ only in their Memory.
template <typename T, typename Memory>
class Array {
public:
    Array() = default;
    explicit Array(std::size_t count)
        : data_(static_cast<T*>(Memory::allocate(count * sizeof(T)))), count_(count) {}
    ~Array() {
        if (data_) Memory::release(data_, bytes());
    }
    Array(Array&& other) noexcept
        : data_(std::exchange(other.data_, nullptr)), count_(std::exchange(other.count_, 0)) {}
    Array& operator=(Array&& other) noexcept {
        std::swap(data_, other.data_);
        std::swap(count_, other.count_);
        return *this;
    }

    T* data() const { return data_; }
    std::size_t size() const { return count_; }  // elements
    std::size_t bytes() const { return count_ * sizeof(T); }

private:
    T* data_ = nullptr;
    std::size_t count_ = 0;
};

template <typename T>
using DeviceArray = Array<T, DeviceMemory>;
template <typename T>
using PinnedArray = Array<T, PinnedMemory>;
using DeviceBuffer = DeviceArray<std::byte>;  // raw bytes: frames and result areas
using PinnedBuffer = PinnedArray<std::byte>;

// Byte copies in any direction (the runtime tells host from device by the address); the typed
// functions below are what callers use. Each throws vq::Error on failure.
void copy_bytes(void* to, const void* from, std::size_t bytes);
void copy_bytes_async(void* to, const void* from, std::size_t bytes, cudaStream_t stream);
void zero_bytes_async(void* to, std::size_t bytes, cudaStream_t stream);
void copy_bytes_to_symbol_async(const void* symbol, const void* from, std::size_t bytes,
                                cudaStream_t stream);

// `count` elements from `from` to `to`, host or device either way; synchronous.
template <typename T>
void copy(T* to, const T* from, std::size_t count) {
    copy_bytes(to, from, count * sizeof(T));
}

// The same on `stream`: host memory involved must stay alive (and pinned, to be asynchronous)
// until the stream has done the copy.
template <typename T>
void copy_async(T* to, const T* from, std::size_t count, cudaStream_t stream) {
    copy_bytes_async(to, from, count * sizeof(T), stream);
}

// Sets `count` elements to all-zero bytes, on `stream`.
template <typename T>
void zero_async(T* to, std::size_t count, cudaStream_t stream) {
    zero_bytes_async(to, count * sizeof(T), stream);
}

// Sets a __constant__ array to `values` on `stream`. The array is named in the file that defines
// it (its host-side address is what the runtime registered); `values` must outlive the copy.
template <typename T, std::size_t N>
void copy_to_symbol_async(T (&symbol)[N], std::type_identity_t<std::span<const T, N>> values,
                          cudaStream_t stream) {
    copy_bytes_to_symbol_async(&symbol, values.data(), sizeof(symbol), stream);
}

// Whether `host` lies in page-locked memory the runtime knows, which copies can overlap.
bool is_pinned(const void* host);

// `count` elements of device memory, read back synchronously (tests, heatmaps).
template <typename T>
std::vector<T> to_host(const T* device, std::size_t count) {
    std::vector<T> host(count);
    copy(host.data(), device, count);
    return host;
}

// A host array copied into fresh device memory, synchronously.
template <typename T>
DeviceArray<T> to_device(std::span<const T> host) {
    DeviceArray<T> device(host.size());
    copy(device.data(), host.data(), host.size());
    return device;
}

}  // namespace vq::cuda
