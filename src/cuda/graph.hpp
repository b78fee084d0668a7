// Owner of an instantiated CUDA graph: a stream's launches captured once and replayed with one
// call. Move-only; destruction never throws.
#pragma once

#include <cuda_runtime.h>

#include <functional>
#include <utility>

namespace vq::cuda {

class GraphExec {
public:
    GraphExec() = default;
    ~GraphExec();
    GraphExec(GraphExec&& other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}
    GraphExec& operator=(GraphExec&& other) noexcept {
        std::swap(handle_, other.handle_);
        return *this;
    }

    // Captures what `enqueue` puts on `stream` (nothing runs meanwhile) and instantiates it.
    // The capture is thread-local, so other threads may use CUDA meanwhile. If `enqueue` throws,
    // the capture is ended and the exception passes on.
    static GraphExec capture(cudaStream_t stream, const std::function<void()>& enqueue);

    // Runs the captured work on `stream`.
    void launch(cudaStream_t stream) const;

private:
    explicit GraphExec(cudaGraphExec_t handle) : handle_(handle) {}

    cudaGraphExec_t handle_ = nullptr;
};

}  // namespace vq::cuda
