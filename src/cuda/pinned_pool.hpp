// Pinned staging memory for input frames. The session hands this pool's allocator to the readers,
// which then read each frame straight into page-locked memory that the GPU copies from
// asynchronously: no extra host copy, no pageable-memory staging inside the driver.
//
// A buffer goes back to the pool when the last Picture using it is dropped (FrameBuffer's deleter),
// so the pool grows to the number of frames alive at once (read-ahead plus frames in flight) and
// then recycles. Each buffer keeps the pool alive, so pictures may outlive the executor.
#pragma once

#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <vector>

#include "cuda/device.hpp"
#include "cuda/memory.hpp"
#include "vq/picture.hpp"

namespace vq::cuda {

class PinnedPool : public std::enable_shared_from_this<PinnedPool> {
public:
    static std::shared_ptr<PinnedPool> create(const Device& device) {
        return std::shared_ptr<PinnedPool>(new PinnedPool(device));
    }

    ~PinnedPool();

    // Any thread. Contents are not cleared: readers overwrite whole frames.
    FrameBuffer acquire(std::size_t bytes);

private:
    explicit PinnedPool(const Device& device) : device_(device) {}
    void release(PinnedBuffer* buffer);

    Device device_;
    std::mutex mutex_;
    std::deque<PinnedBuffer> owned_;  // a deque: growing it keeps the addresses in idle_ valid
    std::vector<PinnedBuffer*> idle_;
};

}  // namespace vq::cuda
