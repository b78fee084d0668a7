#include "cuda/stream.hpp"

#include "cuda/check.hpp"

namespace vq::cuda {

Stream::Stream() { VQ_CUDA_CHECK(cudaStreamCreateWithFlags(&handle_, cudaStreamNonBlocking)); }

Stream::~Stream() {
    if (handle_) cudaStreamDestroy(handle_);
}

void Stream::wait(cudaEvent_t event) const { VQ_CUDA_CHECK(cudaStreamWaitEvent(handle_, event, 0)); }

Event::Event() { VQ_CUDA_CHECK(cudaEventCreateWithFlags(&handle_, cudaEventDisableTiming | cudaEventBlockingSync)); }

Event::~Event() {
    if (handle_) cudaEventDestroy(handle_);
}

void Event::record(const Stream& stream) const { VQ_CUDA_CHECK(cudaEventRecord(handle_, stream.get())); }

void Event::synchronize() const { VQ_CUDA_CHECK(cudaEventSynchronize(handle_)); }

}  // namespace vq::cuda
