#include "cuda/frame_pool.hpp"

#include <algorithm>

#include <cuda_runtime.h>

namespace vq::cuda {

template <typename Memory>
FrameBuffer FramePool<Memory>::acquire(std::size_t bytes) {
    Buffer* buffer = nullptr;
    {
        std::lock_guard lock(mutex_);
        const auto fits = std::find_if(idle_.begin(), idle_.end(), [bytes](const Buffer* idle) {
            return idle->size() == bytes;
        });
        if (fits != idle_.end()) {
            buffer = *fits;
            idle_.erase(fits);
        }
    }
    if (!buffer) {
        device_.make_current();  // readers allocate on their own threads
        Buffer fresh(bytes);
        std::lock_guard lock(mutex_);
        buffer = &owned_.emplace_back(std::move(fresh));
    }
    return FrameBuffer(buffer->data(), [pool = this->shared_from_this(), buffer](std::byte*) {
        pool->release(buffer);
    });
}

template <typename Memory>
FramePool<Memory>::~FramePool() {
    // The last picture may be dropped on any thread; free on the run's device, not on whatever
    // device that thread has current (which would create a context there).
    cudaSetDevice(device_.ordinal());
}

template <typename Memory>
void FramePool<Memory>::release(Buffer* buffer) {
    std::lock_guard lock(mutex_);
    idle_.push_back(buffer);
}

template class FramePool<PinnedMemory>;
template class FramePool<DeviceMemory>;

}  // namespace vq::cuda
