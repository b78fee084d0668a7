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

    // Blocks the calling thread until everything enqueued so far is done; throws its error.
    void synchronize() const;

private:
    cudaStream_t handle_ = nullptr;
};

// Blocks the calling thread until everything enqueued on `stream` so far is done; throws its
// error. For a stream the caller does not own (a feature's prepare() with host data on its stack).
void synchronize(cudaStream_t stream);

// An event, timing only when asked (timing costs a little on every record). A host that waits on
// it sleeps instead of spinning, since the CPU backend may be computing other features on the same
// cores meanwhile.
class Event {
public:
    enum class Timing { off, on };

    explicit Event(Timing timing = Timing::off);
    ~Event();
    Event(Event&& other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}
    Event& operator=(Event&& other) noexcept {
        std::swap(handle_, other.handle_);
        return *this;
    }

    cudaEvent_t get() const { return handle_; }
    void record(const Stream& stream) const { record(stream.get()); }
    void record(cudaStream_t stream) const;
    // Blocks the calling thread until the work recorded before the event is done; throws the
    // error of any of that work that failed.
    void synchronize() const;

private:
    cudaEvent_t handle_ = nullptr;
};

// Milliseconds of device time from `start` to `end`, both recorded with Timing::on; waits for
// `end` first.
float elapsed_milliseconds(const Event& start, const Event& end);

}  // namespace vq::cuda
