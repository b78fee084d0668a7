// Recycled frame memory of one kind. The pinned pool is the session's staging memory: the readers
// read each frame straight into page-locked memory that the GPU copies from asynchronously (no
// extra host copy, no pageable-memory staging inside the driver). The device pool holds the
// pictures decoded on the GPU (--hwdec), which the kernels read where they are.
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

template <typename Memory>
class FramePool : public std::enable_shared_from_this<FramePool<Memory>> {
public:
    static std::shared_ptr<FramePool> create(const Device& device) {
        return std::shared_ptr<FramePool>(new FramePool(device));
    }
    ~FramePool();

    // Any thread. Contents are not cleared: readers and decoders overwrite whole frames.
    FrameBuffer acquire(std::size_t bytes);

private:
    using Buffer = Array<std::byte, Memory>;

    explicit FramePool(const Device& device) : device_(device) {}
    void release(Buffer* buffer);

    Device device_;
    std::mutex mutex_;
    std::deque<Buffer> owned_;  // a deque: growing it keeps the addresses in idle_ valid
    std::vector<Buffer*> idle_;
};

using PinnedPool = FramePool<PinnedMemory>;
using DevicePool = FramePool<DeviceMemory>;

}  // namespace vq::cuda
