#include "cuda/pinned_pool.hpp"

#include <algorithm>

#include <cuda_runtime.h>

namespace vq::cuda {

FrameBuffer PinnedPool::acquire(std::size_t bytes) {
    PinnedBuffer* buffer = nullptr;
    {
        std::lock_guard lock(mutex_);
        const auto fits =
            std::find_if(idle_.begin(), idle_.end(),
                         [bytes](const PinnedBuffer* idle) { return idle->size() == bytes; });
        if (fits != idle_.end()) {
            buffer = *fits;
            idle_.erase(fits);
        }
    }
    if (!buffer) {
        device_.make_current();  // readers allocate on their own threads
        PinnedBuffer fresh(bytes);
        std::lock_guard lock(mutex_);
        buffer = &owned_.emplace_back(std::move(fresh));
    }
    return FrameBuffer(buffer->data(),
                       [pool = shared_from_this(), buffer](std::byte*) { pool->release(buffer); });
}

PinnedPool::~PinnedPool() {
    // The last picture may be dropped on any thread; free on the run's device, not on whatever
    // device that thread has current (which would create a context there).
    cudaSetDevice(device_.ordinal());
}

void PinnedPool::release(PinnedBuffer* buffer) {
    std::lock_guard lock(mutex_);
    idle_.push_back(buffer);
}

}  // namespace vq::cuda
