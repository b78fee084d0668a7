// Read-ahead: a dedicated thread keeps up to `depth` frames ready so that file I/O overlaps the
// metrics' work instead of adding to it.
#include <condition_variable>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <stop_token>
#include <thread>
#include <utility>
#include <variant>

#include "io/frame_source.hpp"
#include "vq/error.hpp"

namespace vq {
namespace {

class ReadAheadSource final : public FrameSource {
public:
    ReadAheadSource(std::unique_ptr<FrameSource> source, std::size_t depth)
        : source_(std::move(source)), depth_(depth) {}

    // The wrapped source's format and path never change, so reading them here while the
    // producer thread reads frames is safe.
    const VideoFormat& format() const override { return source_->format(); }
    const std::string& path() const override { return source_->path(); }

    std::optional<Picture> next() override { return take(); }
    bool skip() override { return take().has_value(); }

    // The producer starts on the first next() or skip(), so that every frame it reads already
    // comes from this allocator; afterwards the wrapped source belongs to the producer thread.
    void set_allocator(BufferAllocator allocator) override {
        if (producer_.joinable())
            throw usage_error("set_allocator() must be called before the first frame is read");
        source_->set_allocator(std::move(allocator));
    }

private:
    struct End {};
    // A frame, the clean end of the file, or the error that ended reading.
    using Item = std::variant<Picture, End, std::exception_ptr>;

    std::optional<Picture> take() {
        if (!finished_) {
            Item item = pop();
            if (auto* picture = std::get_if<Picture>(&item)) return std::move(*picture);
            finished_ = true;
            if (auto* error = std::get_if<std::exception_ptr>(&item)) failure_ = *error;
        }
        // The end, or the same error, again on every later call: the producer has stopped.
        if (failure_) std::rethrow_exception(failure_);
        return std::nullopt;
    }

    Item pop() {
        if (!producer_.joinable())
            producer_ = std::jthread([this](std::stop_token stop) { produce(stop); });
        std::unique_lock lock(mutex_);
        ready_.wait(lock, [this] { return !queue_.empty(); });
        Item item = std::move(queue_.front());
        queue_.pop_front();
        lock.unlock();
        space_.notify_one();
        return item;
    }

    void produce(std::stop_token stop) {
        for (;;) {
            {
                // Waiting for room before reading bounds the frames alive here to depth_. The
                // stop token wakes this wait when the consumer is destroyed early.
                std::unique_lock lock(mutex_);
                if (!space_.wait(lock, stop, [this] { return queue_.size() < depth_; })) return;
            }
            Item item = read_one();
            const bool last = !std::holds_alternative<Picture>(item);
            {
                std::lock_guard lock(mutex_);
                queue_.push_back(std::move(item));
            }
            ready_.notify_one();
            if (last) return;
        }
    }

    Item read_one() {
        try {
            if (std::optional<Picture> picture = source_->next()) return std::move(*picture);
            return End{};
        } catch (...) {
            return std::current_exception();  // rethrown by the consumer after earlier frames
        }
    }

    std::unique_ptr<FrameSource> source_;
    const std::size_t depth_;

    std::mutex mutex_;
    std::condition_variable_any space_;  // the producer waits here for room in queue_
    std::condition_variable ready_;      // the consumer waits here for an item
    std::deque<Item> queue_;

    // Consumer-side state once the end or an error has been taken from the queue.
    bool finished_ = false;
    std::exception_ptr failure_;

    // Last member, so that it is destroyed first: the jthread requests stop and joins before the
    // queue and the source it uses go away.
    std::jthread producer_;
};

}  // namespace

std::unique_ptr<FrameSource> read_ahead(std::unique_ptr<FrameSource> source, std::size_t depth) {
    if (depth == 0) return source;  // nothing to read ahead: the caller reads synchronously
    return std::make_unique<ReadAheadSource>(std::move(source), depth);
}

}  // namespace vq
