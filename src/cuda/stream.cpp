#include "cuda/stream.hpp"

#include "cuda/check.hpp"

namespace vq::cuda {

Stream::Stream() { VQ_CUDA_CHECK(cudaStreamCreateWithFlags(&handle_, cudaStreamNonBlocking)); }

Stream::~Stream() {
    if (handle_) cudaStreamDestroy(handle_);
}

void Stream::wait(cudaEvent_t event) const {
    VQ_CUDA_CHECK(cudaStreamWaitEvent(handle_, event, 0));
}

void Stream::synchronize() const { cuda::synchronize(handle_); }

void synchronize(cudaStream_t stream) { VQ_CUDA_CHECK(cudaStreamSynchronize(stream)); }

Event::Event(Timing timing) {
    const unsigned flags =
        cudaEventBlockingSync | (timing == Timing::on ? 0u : unsigned(cudaEventDisableTiming));
    VQ_CUDA_CHECK(cudaEventCreateWithFlags(&handle_, flags));
}

Event::~Event() {
    if (handle_) cudaEventDestroy(handle_);
}

void Event::record(cudaStream_t stream) const { VQ_CUDA_CHECK(cudaEventRecord(handle_, stream)); }

void Event::synchronize() const { VQ_CUDA_CHECK(cudaEventSynchronize(handle_)); }

float elapsed_milliseconds(const Event& start, const Event& end) {
    end.synchronize();
    float milliseconds = 0;
    VQ_CUDA_CHECK(cudaEventElapsedTime(&milliseconds, start.get(), end.get()));
    return milliseconds;
}

}  // namespace vq::cuda
