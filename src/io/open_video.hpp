// Opens an input by name and picks its reader:
//   "-"                          a Y4M stream on standard input;
//   raw format given (-w -h -p -b) the raw YUV reader;
//   a file starting "YUV4MPEG2"  the Y4M reader (vq's own: fast and exact);
//   anything else                FFmpeg (libavformat + libavcodec), when vq is built with it;
//                                its module is loaded here, on first use (ffmpeg_module.hpp).
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "io/ffmpeg_source.hpp"
#include "io/frame_source.hpp"
#include "vq/input.hpp"

namespace vq {

struct InputOptions {
    std::optional<VideoFormat> raw;   // headerless planar YUV of this format
    TrailingBytes on_trailing_bytes;  // raw YUV: see open_yuv()
    DecodeOptions decode;
};

struct OpenedInput {
    std::unique_ptr<FrameSource> source;  // the caller may move it out; the rest stays valid
    std::string path;
    long long rate_num = 0, rate_den = 0;    // frames per second; 0/0 when unknown
    std::optional<std::size_t> frame_count;  // an estimate, for the progress line only
    std::string reader;                      // "y4m", "raw", "ffmpeg: h264 (High), yuv420p"
    // A container's bitrates, bits per second (StreamInfo's); 0 when not given, and for Y4M and
    // raw.
    long long stream_bit_rate = 0;
    long long container_bit_rate = 0;
};

// True when vq was built with FFmpeg's libraries.
bool ffmpeg_available();

// Throws vq::Error (runtime) naming the file for any failure to open or understand it.
OpenedInput open_video(const std::string& path, const InputOptions& options);

// How a run reads an input, which a container input is opened for (DecodeOptions).
struct InputUse {
    // Start no decoder before FrameSource::choose_decoder(): the run may decode on the GPU.
    bool await_decoder_choice = false;
    // The frames read from the start where the run stops early (--frame_skip_* + --frame_cnt);
    // 0: all.
    std::size_t frames_read = 0;
};

// Opens one input of a run as its InputSpec says (vq/input.hpp). `note` hears the one-line
// warning (no newline, "warning: ...") about bytes after a raw YUV file's last whole frame.
OpenedInput open_input(const InputSpec& spec, const std::function<void(std::string)>& note,
                       const InputUse& use = {});

// A warning (one line, "warning: ...") when both frame rates are known and differ: frames are
// paired by position, so a 24 and a 25 frames/s input are compared picture by picture, not in
// time. Empty when the rates agree or one is unknown.
std::string frame_rate_warning(const OpenedInput& reference, const OpenedInput& distorted);

}  // namespace vq
