// Owners of device and page-locked host memory: the only place vq calls cudaMalloc, cudaFree,
// cudaHostAlloc and cudaFreeHost. Move-only; freeing never throws (a failure there means the
// context is already broken, and the error that broke it was reported where it happened).
#pragma once

#include <cstddef>
#include <utility>

namespace vq::cuda {

// Memory on the current device.
class DeviceBuffer {
public:
    DeviceBuffer() = default;
    explicit DeviceBuffer(std::size_t bytes);
    ~DeviceBuffer();
    DeviceBuffer(DeviceBuffer&& other) noexcept
        : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}
    DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
        std::swap(data_, other.data_);
        std::swap(size_, other.size_);
        return *this;
    }

    std::byte* data() const { return data_; }
    std::size_t size() const { return size_; }

private:
    std::byte* data_ = nullptr;
    std::size_t size_ = 0;
};

// Page-locked host memory that every device can copy from and to asynchronously ("portable", so
// it stays pinned whichever thread or device context allocated it).
class PinnedBuffer {
public:
    PinnedBuffer() = default;
    explicit PinnedBuffer(std::size_t bytes);
    ~PinnedBuffer();
    PinnedBuffer(PinnedBuffer&& other) noexcept
        : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}
    PinnedBuffer& operator=(PinnedBuffer&& other) noexcept {
        std::swap(data_, other.data_);
        std::swap(size_, other.size_);
        return *this;
    }

    std::byte* data() const { return data_; }
    std::size_t size() const { return size_; }

private:
    std::byte* data_ = nullptr;
    std::size_t size_ = 0;
};

}  // namespace vq::cuda
