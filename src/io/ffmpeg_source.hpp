// Containers and codecs through FFmpeg: the first video stream of anything libavformat opens and
// libavcodec decodes, as a FrameSource of exact Pictures (see ffmpeg_pixels.hpp).
//
// Frames come out in presentation order, every frame the decoder outputs and no other: there is
// no frame-rate conversion and no frame is dropped or repeated. Decoding is threaded inside
// libavcodec (frame and slice threads); wrapping the source in read_ahead() moves it off the
// scoring thread as well.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "io/frame_source.hpp"

namespace vq {

struct DecodeOptions {
    unsigned threads = 0;  // decoder threads; 0 lets libavcodec pick (about one per core)
    long long max_pixels =
        0;  // refuse larger pictures before decoding them (the fuzzer); 0: FFmpeg's limit
    // Decoders at once on the input, each on its own chunks from one keyframe to the next
    // (ffmpeg_chunks.hpp); 0: automatic (three on the GPU for a stream of at least 400 frames,
    // else one: Decoder::sessions_wanted).
    unsigned sessions = 0;
    // Decode nothing until FrameSource::choose_decoder() or the first frame asked for, taking the
    // format the stream announces (where vq can take it): for a run that may decode on the GPU,
    // which then never starts the CPU's decoder. Errors of the first frame come from that call.
    bool await_decoder_choice = false;
    // The caller reads no more than this many frames from the start (0: all): no decoder is
    // started on chunks past them, nor more decoders than so many frames repay.
    std::size_t frames_read = 0;
};

// What the container says about the stream, for reports and the progress line only.
struct StreamInfo {
    long long rate_num = 0, rate_den = 0;    // frames per second as a ratio; 0/0 when unknown
    std::optional<std::size_t> frame_count;  // as stored or estimated from the duration
    std::string description;                 // "h264 (High), yuv420p"
    // Bits per second as the container gives them (0: not given): the video stream's (FFmpeg's
    // stream bit_rate: an MP4's sample sizes over its duration, a Matroska BPS tag ...) and the
    // whole file's (the format's bit_rate: every stream, or the file size over the duration).
    long long stream_bit_rate = 0;
    long long container_bit_rate = 0;
};

class FfmpegSource : public FrameSource {
public:
    virtual const StreamInfo& info() const = 0;
};

// Opens the file and decodes its first frame, so that format() is the decoded pictures' real
// format. Throws vq::Error (runtime), one line naming the file, when the file is missing or is
// not a media file, has no video stream, needs a decoder FFmpeg lacks, decodes to a pixel format
// vq cannot take exactly, or yields no frame (with DecodeOptions::await_decoder_choice, the first
// frame's errors come from choose_decoder() or the first next()). next() throws, naming the file
// and the frame, on a read or decode error, a corrupt or truncated frame, or a change of size or
// pixel format.
std::unique_ptr<FfmpegSource> open_ffmpeg(const std::string& path,
                                          const DecodeOptions& options = {});

// The same over bytes in memory (the fuzzer, tests); `name` stands for the file in messages. The
// bytes must outlive the source.
std::unique_ptr<FfmpegSource> open_ffmpeg_memory(std::span<const std::byte> bytes,
                                                 const std::string& name,
                                                 const DecodeOptions& options = {});

}  // namespace vq
