#include "io/ffmpeg_chunks.hpp"

#include <algorithm>
#include <system_error>
#include <utility>

namespace vq::ffmpeg {

ChunkedFrames::ChunkedFrames(std::shared_ptr<const StreamTimes> times,
                             std::vector<std::size_t> starts, ChunkDecoderFactory make_decoder,
                             unsigned decoders, std::size_t queued_frames)
    : times_(std::move(times)),
      queued_frames_(std::max<std::size_t>(queued_frames, 1)),
      window_(std::max(decoders, 1u)) {
    const std::size_t frames = times_->presentation.size();
    for (std::size_t c = 0; c < starts.size(); ++c)
        chunks_.push_back({starts[c], c + 1 < starts.size() ? starts[c + 1] : frames, {}});
    std::lock_guard lock(mutex_);  // workers wait for workers_alive_ to be counted
    try {
        for (std::size_t w = 0; w < window_; ++w) {
            workers_.emplace_back([this, make_decoder] { work(make_decoder); });
            ++workers_alive_;
        }
    } catch (const std::system_error&) {
        // No more threads to be had: the workers there are decode every chunk, or, with none,
        // take() stops at the first.
    }
}

ChunkedFrames::~ChunkedFrames() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    changed_.notify_all();
    workers_.clear();  // joins
}

ChunkedFrames::Item ChunkedFrames::take() {
    std::unique_lock lock(mutex_);
    for (;;) {
        if (current_ == chunks_.size()) return End{};
        Chunk& chunk = chunks_[current_];
        if (!chunk.frames.empty()) {
            Picture picture = std::move(chunk.frames.front());
            chunk.frames.pop_front();
            ++handed_out_;
            changed_.notify_all();  // room in the queue
            return picture;
        }
        if (chunk.finished) {
            ++current_;
            handed_out_ = 0;
            changed_.notify_all();  // the window moves on
            continue;
        }
        // A failed chunk, or one no worker is left to decode.
        if (chunk.failed || (unclaimed_ <= current_ && workers_alive_ == 0))
            return Stopped{chunk.first + handed_out_};
        changed_.wait(lock);
    }
}

void ChunkedFrames::work(const ChunkDecoderFactory& make_decoder) {
    std::unique_ptr<ChunkDecoder> decoder;
    try {
        decoder = make_decoder();
    } catch (...) {
        // No decoder for this worker: the others decode its share, or the caller does.
    }
    while (decoder) {
        std::size_t index;
        {
            std::unique_lock lock(mutex_);
            changed_.wait(lock, [&] {
                return stopping_ || unclaimed_ == chunks_.size() ||
                       unclaimed_ <= current_ + window_;
            });
            if (stopping_ || unclaimed_ == chunks_.size()) break;
            index = unclaimed_++;
        }
        if (!decode(*decoder, index)) {
            std::lock_guard lock(mutex_);
            chunks_[index].failed = true;
            break;
        }
    }
    {
        std::lock_guard lock(mutex_);
        --workers_alive_;
    }
    changed_.notify_all();
}

bool ChunkedFrames::decode(ChunkDecoder& decoder, std::size_t index) {
    const std::size_t first = chunks_[index].first, end = chunks_[index].end;  // never change
    const std::vector<std::int64_t>& presentation = times_->presentation;
    try {
        if (!decoder.seek(first)) return false;
        std::int64_t pts = 0;
        for (std::size_t frame = first; frame < end; ++frame) {
            std::optional<Picture> picture = decoder.next(pts);
            if (!picture || pts != presentation[frame]) return false;
            if (!push(index, std::move(*picture))) return true;  // stopping
        }
        // The stream ends where the packets said it would, and cleanly.
        if (end == presentation.size() && decoder.next(pts)) return false;
    } catch (...) {
        return false;  // the caller's own decoding meets the same damage and reports it
    }
    {
        std::lock_guard lock(mutex_);
        chunks_[index].finished = true;
    }
    changed_.notify_all();
    return true;
}

bool ChunkedFrames::push(std::size_t index, Picture picture) {
    std::unique_lock lock(mutex_);
    Chunk& chunk = chunks_[index];
    changed_.wait(lock, [&] { return stopping_ || chunk.frames.size() < queued_frames_; });
    if (stopping_) return false;
    chunk.frames.push_back(std::move(picture));
    lock.unlock();
    changed_.notify_all();
    return true;
}

}  // namespace vq::ffmpeg
