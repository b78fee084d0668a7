#include "io/recycling_allocator.hpp"

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <memory>
#include <mutex>
#include <vector>

namespace vq {
namespace {

class BufferPool : public std::enable_shared_from_this<BufferPool> {
public:
    FrameBuffer acquire(std::size_t bytes) {
        std::unique_ptr<std::byte[]> memory = take_idle(bytes);
        // Every byte of a frame is overwritten by the read, so zero-filling first would be wasted
        // work.
        if (!memory) memory = std::make_unique_for_overwrite<std::byte[]>(bytes);
        // Each buffer keeps the pool alive, so pictures may outlive the source that read them.
        return FrameBuffer(memory.release(), [pool = shared_from_this(), bytes](std::byte* data) {
            pool->give_back(data, bytes);
        });
    }

private:
    struct Idle {
        std::unique_ptr<std::byte[]> memory;
        std::size_t bytes;
    };

    std::unique_ptr<std::byte[]> take_idle(std::size_t bytes) {
        std::lock_guard lock(mutex_);
        // The most recently released first: some of it may still be in the cache.
        const auto fits = std::find_if(idle_.rbegin(), idle_.rend(),
                                       [&](const Idle& idle) { return idle.bytes == bytes; });
        if (fits == idle_.rend()) return nullptr;
        std::unique_ptr<std::byte[]> memory = std::move(fits->memory);
        idle_.erase(std::next(fits).base());
        return memory;
    }

    void give_back(std::byte* data, std::size_t bytes) {
        std::unique_ptr<std::byte[]> memory(data);
        std::lock_guard lock(mutex_);
        idle_.push_back({std::move(memory), bytes});
    }

    std::mutex mutex_;
    std::vector<Idle> idle_;
};

}  // namespace

BufferAllocator recycling_allocator() {
    return
        [pool = std::make_shared<BufferPool>()](std::size_t bytes) { return pool->acquire(bytes); };
}

}  // namespace vq
