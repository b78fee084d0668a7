// Owners of CUDA streams and events. Move-only; destruction never throws.
#pragma once

#include <cuda_runtime.h>

#include <utility>

namespace vq::cuda {

// A stream that does not synchronise with the legacy default stream.
class Stream {
public:
    Stream();
    ~Stream();
    Stream(Stream&& other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}
    Stream& operator=(Stream&& other) noexcept {
        std::swap(handle_, other.handle_);
        return *this;
    }

    cudaStream_t get() const { return handle_; }

    // Makes later work on this stream wait for `event` (recorded on another stream) on the device,
    // without a host wait.
    void wait(cudaEvent_t event) const;

private:
    cudaStream_t handle_ = nullptr;
};

// An event without timing. A host that waits on it sleeps instead of spinning, since the CPU
// backend may be computing other features on the same cores meanwhile.
class Event {
public:
    Event();
    ~Event();
    Event(Event&& other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}
    Event& operator=(Event&& other) noexcept {
        std::swap(handle_, other.handle_);
        return *this;
    }

    cudaEvent_t get() const { return handle_; }
    void record(const Stream& stream) const;
    // Blocks the calling thread until the work recorded before the event is done; throws the
    // error of any of that work that failed.
    void synchronize() const;

private:
    cudaEvent_t handle_ = nullptr;
};

}  // namespace vq::cuda
