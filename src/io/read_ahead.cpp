// Read-ahead: threads keep up to `depth` frames ready so that file I/O overlaps the metrics' work
// instead of adding to it.
//
// One thread cannot copy 4K frames out of the page cache as fast as the GPU scores them (about
// 4 GB/s, where 600 frames/s take 7.5), so the frames of a file source whose layout is known are
// read by several threads at once, each claiming the next frame and reading it whole, by
// position; a ring of `depth` slots puts them back in order. The first frame that does not fit the
// layout (a Y4M FRAME line with parameters, the end of the file, a damaged frame) ends positional
// reading: from that frame on one thread reads through the source's own next(), so every error
// and every special case is exactly the sequential reader's. Other sources are read that way from
// the start.
#include <algorithm>
#include <condition_variable>
#include <exception>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <system_error>
#include <thread>
#include <utility>
#include <variant>
#include <vector>

#include <fmt/format.h>

#include "io/file_frame_source.hpp"
#include "io/frame_source.hpp"
#include "vq/error.hpp"

namespace vq {
namespace {

struct End {};
// A frame read whole whose samples exceed the bit depth: an error if the consumer takes it, nothing
// if it skips it (sequential skipping never reads a frame), and reading goes on after it.
struct Damaged {
    std::exception_ptr error;
};
// A frame, the clean end of the file, or the error that ended reading.
using Item = std::variant<Picture, End, std::exception_ptr, Damaged>;

constexpr std::size_t unlimited = std::numeric_limits<std::size_t>::max();

class ReadAheadSource final : public FrameSource {
public:
    ReadAheadSource(std::unique_ptr<FrameSource> source, std::size_t depth, unsigned threads)
        : source_(std::move(source)),
          file_source_(dynamic_cast<FileFrameSource*>(source_.get())),
          threads_(std::clamp<std::size_t>(threads, 1, depth)),
          slots_(depth) {}

    ~ReadAheadSource() override {
        {
            std::lock_guard lock(mutex_);
            stopping_ = true;
        }
        room_.notify_all();
        readers_.clear();  // joins: each reader finishes the frame in hand and leaves
    }

    // The wrapped source's format and path never change, so reading them here while readers
    // read frames is safe.
    const VideoFormat& format() const override { return source_->format(); }
    const std::string& path() const override { return source_->path(); }

    std::optional<Picture> next() override { return take(false); }

    bool skip() override {
        // Before the readers start, the source still belongs to this thread, and a file source
        // can step over a frame without reading it.
        if (!started() && !finished_) return source_->skip();
        return take(true).has_value();
    }

    std::size_t skip_frames(std::size_t count) override {
        if (!started() && !finished_) return source_->skip_frames(count);
        return FrameSource::skip_frames(count);
    }

    // Every frame that a reader reads must come from this allocator, and afterwards the wrapped
    // source belongs to the readers.
    void set_allocator(BufferAllocator allocator) override {
        if (started())
            throw usage_error("set_allocator() must be called before the first frame is read");
        source_->set_allocator(std::move(allocator));
    }

private:
    bool started() const { return !readers_.empty(); }

    // The next frame; a skipped frame's samples are not checked.
    std::optional<Picture> take(bool skipping) {
        if (!finished_ && !started()) {
            try {
                start();
            } catch (...) {
                finished_ = true;  // the same error on every later call
                failure_ = std::current_exception();
            }
        }
        if (!finished_) {
            Item item = pop();
            if (auto* picture = std::get_if<Picture>(&item)) return std::move(*picture);
            if (std::holds_alternative<Damaged>(item) && skipping) return Picture();
            finished_ = true;
            if (auto* error = std::get_if<std::exception_ptr>(&item)) failure_ = *error;
            if (auto* damaged = std::get_if<Damaged>(&item)) failure_ = damaged->error;
        }
        // The end, or the same error, again on every later call: the readers have stopped.
        if (failure_) std::rethrow_exception(failure_);
        return std::nullopt;
    }

    void start() {
        layout_ = file_source_ ? file_source_->layout() : std::nullopt;
        first_index_ = file_source_ ? file_source_->next_index() : 0;
        positional_end_ = layout_ ? unlimited : 0;
        const std::size_t count = layout_ ? threads_ : 1;
        // Readers take the lock before anything else, so that should creating one fail, those
        // already running know how many they are.
        std::lock_guard lock(mutex_);
        for (std::size_t i = 0; i < count; ++i) {
            try {
                readers_.emplace_back([this] { read(); });
            } catch (const std::system_error& e) {
                // Those started stop when this source is destroyed, as the error unwinds.
                throw runtime_error(fmt::format("'{}': cannot start a reading thread: {}",
                                                source_->path(), e.code().message()));
            }
            ++positional_readers_;
        }
    }

    Item pop() {
        std::unique_lock lock(mutex_);
        std::optional<Item>& slot = slot_of(next_taken_);
        ready_.wait(lock, [&] { return slot.has_value(); });
        Item item = std::move(*slot);
        slot.reset();
        ++next_taken_;
        lock.unlock();
        room_.notify_all();
        return item;
    }

    // --- readers' side (every shared member is guarded by mutex_) ---

    void read() {
        if (layout_) read_by_position();
        if (const std::optional<std::size_t> first = leave_positional_reading())
            read_in_sequence(*first);
    }

    void read_by_position() {
        for (;;) {
            std::size_t n = 0;
            {
                std::unique_lock lock(mutex_);
                room_.wait(lock, [&] {
                    return stopping_ || next_claimed_ >= positional_end_ || has_room(next_claimed_);
                });
                if (stopping_ || next_claimed_ >= positional_end_) return;
                n = next_claimed_++;
            }
            std::optional<Picture> picture = file_source_->read_frame_at(*layout_, n);
            std::optional<Item> item;
            if (picture) item = checked(std::move(*picture), first_index_ + n);
            std::lock_guard lock(mutex_);
            // Past an irregular frame the layout was a guess: whatever was read there is wrong.
            if (n >= positional_end_) continue;
            if (!item) {
                end_positional_reading_at(n);
                continue;
            }
            slot_of(n) = std::move(*item);
            ready_.notify_one();
        }
    }

    // Frame n is irregular: frames after it may sit elsewhere than the layout says, so those
    // already read are dropped, and from n on the sequential reader takes over.
    void end_positional_reading_at(std::size_t n) {
        positional_end_ = n;
        for (std::size_t later = n + 1; later < next_claimed_; ++later) slot_of(later).reset();
        room_.notify_all();  // readers waiting to claim a frame leave
    }

    // The frame where sequential reading starts, for the last reader to leave positional
    // reading; nullopt for the others, and when the consumer is gone.
    std::optional<std::size_t> leave_positional_reading() {
        std::lock_guard lock(mutex_);
        if (--positional_readers_ > 0 || stopping_) return std::nullopt;
        return positional_end_;
    }

    void read_in_sequence(std::size_t first) {
        if (layout_) file_source_->resume_after(*layout_, first);
        for (std::size_t n = first;; ++n) {
            {
                // Waiting for room before reading bounds the frames alive here to the depth.
                std::unique_lock lock(mutex_);
                room_.wait(lock, [&] { return stopping_ || has_room(n); });
                if (stopping_) return;
            }
            Item item = read_one(n);
            const bool last =
                !std::holds_alternative<Picture>(item) && !std::holds_alternative<Damaged>(item);
            {
                std::lock_guard lock(mutex_);
                slot_of(n) = std::move(item);
            }
            ready_.notify_one();
            if (last) return;
        }
    }

    Item read_one(std::size_t n) {
        try {
            if (!file_source_) {
                if (std::optional<Picture> picture = source_->next()) return std::move(*picture);
                return End{};
            }
            if (std::optional<Picture> picture = file_source_->next_unchecked())
                return checked(std::move(*picture), first_index_ + n);
            return End{};
        } catch (...) {
            return std::current_exception();  // rethrown by the consumer after earlier frames
        }
    }

    // A file source's frame, after the check next() would have made.
    Item checked(Picture picture, std::size_t index) const {
        try {
            file_source_->check_samples(picture, index);
            return picture;
        } catch (...) {
            return Damaged{std::current_exception()};
        }
    }

    // Frames n..n+depth-1 from the one the consumer takes next each have a slot of their own.
    bool has_room(std::size_t n) const { return n < next_taken_ + slots_.size(); }
    std::optional<Item>& slot_of(std::size_t n) { return slots_[n % slots_.size()]; }

    std::unique_ptr<FrameSource> source_;
    FileFrameSource* const file_source_;  // source_, when it can be read by position
    std::optional<FrameLayout> layout_;   // set by start(), before any reader runs
    std::size_t positional_end_ = 0;      // frames from here on are read in sequence
    std::size_t first_index_ = 0;         // in the file, of the frame read first (n = 0)
    const std::size_t threads_;

    // Frames are counted from the source's next one when reading starts (n = 0).
    std::mutex mutex_;
    std::condition_variable room_;   // readers wait here for a free slot
    std::condition_variable ready_;  // the consumer waits here for its frame
    std::vector<std::optional<Item>> slots_;
    std::size_t next_taken_ = 0;          // by the consumer
    std::size_t next_claimed_ = 0;        // by a positional reader
    std::size_t positional_readers_ = 0;  // not yet left positional reading
    bool stopping_ = false;               // the consumer is being destroyed

    // Consumer-side state once the end or an error has been taken.
    bool finished_ = false;
    std::exception_ptr failure_;

    std::vector<std::jthread> readers_;
};

}  // namespace

unsigned default_read_threads() {
    // Four threads copy 10-14 GB/s out of the page cache on the 16-core GPU machine, enough for
    // 600 4K frames/s from one input; more add little there and only contend on smaller ones.
    return std::clamp(std::thread::hardware_concurrency(), 1u, 4u);
}

bool worth_reading_ahead(const FrameSource& source) {
    constexpr std::size_t small_file_bytes = std::size_t(1) << 20;
    const auto* file_source = dynamic_cast<const FileFrameSource*>(&source);
    if (!file_source) return true;
    const std::optional<std::size_t> left = file_source->bytes_left();
    return !left || *left >= small_file_bytes;
}

std::unique_ptr<FrameSource> read_ahead(std::unique_ptr<FrameSource> source, std::size_t depth,
                                        unsigned threads) {
    if (depth == 0) return source;  // nothing to read ahead: the caller reads synchronously
    return std::make_unique<ReadAheadSource>(std::move(source), depth, threads);
}

}  // namespace vq
