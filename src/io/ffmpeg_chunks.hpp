// Several decoders on one input: the frames from one keyframe to the next (a chunk) are decoded by
// whichever of `decoders` worker threads is free, each with a decoder of its own, and handed out
// in order (--decode-sessions). One hardware decoder session works through a stream one picture at
// a time, waiting for each, on one of the GPU's decoding engines; several sessions on chunks of the
// same stream keep more engines busy. The driver starts and ends sessions one at a time (60 to 85
// ms each on an H100), so they pay only on longer videos: the default is three on the GPU from
// 400 frames (Decoder::sessions_wanted in ffmpeg_source.cpp), one otherwise.
//
// Every frame a worker decodes is checked against the stream's timestamps (ffmpeg_seek.hpp): the
// chunk's frames, in order, with exactly the timestamps the packets announce, and nothing after
// the last frame. A chunk that does not come out so (a seek the container cannot do exactly, a
// damaged frame, a decoder that could not open) ends the chunked decoding at its first frame not
// handed out; the caller then decodes on from that frame by itself, so that what it gives, errors
// included, is always the single decoder's.
//
// Memory: at most `decoders` chunks past the one being handed out are decoded at a time, and each
// holds at most `queued_frames` decoded frames; a worker waits for room.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <variant>
#include <vector>

#include "io/ffmpeg_seek.hpp"
#include "vq/picture.hpp"

namespace vq::ffmpeg {

// One worker's decoder, used on that worker's thread only.
class ChunkDecoder {
public:
    virtual ~ChunkDecoder() = default;
    // Makes frame `first` (presentation order) the next frame; false when the decoder cannot get
    // there exactly.
    virtual bool seek(std::size_t first) = 0;
    // The next frame and its presentation timestamp; nullopt at the end of the stream. Throws
    // vq::Error for a damaged frame.
    virtual std::optional<Picture> next(std::int64_t& pts) = 0;
};

using ChunkDecoderFactory = std::function<std::unique_ptr<ChunkDecoder>()>;

class ChunkedFrames {
public:
    struct End {};
    // Chunked decoding stopped here: the caller decodes frame `frame` and those after it.
    struct Stopped {
        std::size_t frame;
    };
    using Item = std::variant<Picture, End, Stopped>;

    // Chunk c is frames [starts[c], starts[c + 1]), the last one up to the end of the stream
    // (times.presentation.size() frames); `starts` ascending, non-empty. `make_decoder` is called
    // once on each worker's thread. Workers start at once.
    ChunkedFrames(std::shared_ptr<const StreamTimes> times, std::vector<std::size_t> starts,
                  ChunkDecoderFactory make_decoder, unsigned decoders, std::size_t queued_frames);
    ~ChunkedFrames();  // stops the workers: each finishes the frame in hand
    ChunkedFrames(const ChunkedFrames&) = delete;
    ChunkedFrames& operator=(const ChunkedFrames&) = delete;

    // The next frame, from frame starts[0] on; End after the last one. After Stopped or End,
    // further calls repeat it.
    Item take();

private:
    struct Chunk {
        std::size_t first, end;  // frames [first, end)
        std::deque<Picture> frames;
        bool finished = false;  // every frame decoded and checked (or queued)
        bool failed = false;    // the frames queued are right; the next one could not be had
    };

    void work(const ChunkDecoderFactory& make_decoder);
    // Decodes chunk `index` into its queue; false when it did not come out as planned.
    bool decode(ChunkDecoder& decoder, std::size_t index);
    bool push(std::size_t index, Picture picture);  // false when stopping

    std::shared_ptr<const StreamTimes> times_;
    std::size_t queued_frames_;
    std::size_t window_;  // chunks decoded at once past the current one

    std::mutex mutex_;
    std::condition_variable changed_;
    std::vector<Chunk> chunks_;
    std::size_t current_ = 0;    // the chunk being handed out
    std::size_t unclaimed_ = 0;  // the next chunk a worker takes
    std::size_t workers_alive_ = 0;
    std::size_t handed_out_ = 0;  // frames of the current chunk handed out
    bool stopping_ = false;
    std::vector<std::jthread> workers_;  // last: joined before the rest is destroyed
};

}  // namespace vq::ffmpeg
