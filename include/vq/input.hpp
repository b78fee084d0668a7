// Inputs of a run: which videos to read and how (the reference and distorted videos of a vq::Job,
// vq/run.hpp). A description only, plain data a C or Python binding can fill: the library opens
// the files when the run starts.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "vq/picture.hpp"

namespace vq {

// One video to read. The reader is chosen from the path and `raw`:
//   "-"                          a Y4M stream on standard input;
//   raw format given             headerless planar YUV of that format (chroma planes ceil-sized);
//   a file starting "YUV4MPEG2"  vq's own Y4M reader (fast and exact);
//   anything else                FFmpeg (mp4, mkv, webm, mov ...), when vq is built with it.
struct InputSpec {
    std::string path;
    std::optional<VideoFormat> raw;
    unsigned decode_threads = 0;  // FFmpeg decoder threads; 0 lets FFmpeg pick (about one per core)
    // FFmpeg decoders at once, each on its own chunks from one keyframe to the next; 0: automatic
    // (three NVDEC sessions for a stream of at least 400 frames decoded on the GPU, else one).
    unsigned decode_sessions = 0;
};

// --hwdec: what decodes container inputs (H.264, HEVC, VP9, AV1 ...) when the features run on
// CUDA. The GPU's decoder (NVDEC, through FFmpeg) hands its pictures to the kernels in device
// memory; its pictures are the CPU decoder's, sample for sample. The default is automatic.
enum class HardwareDecoding {
    automatic,  // the GPU where the backend is CUDA alone, the codec has FFmpeg's CUDA decoding and
                // the first frame decodes so; otherwise the CPU, and the run notes why
    cuda,       // the GPU, or the run fails with the reason
    none,       // the CPU
};

// --scale WxH[:filter]: the distorted video brought to the reference's size, as the usual
// "ffmpeg -vf scale=W:H:flags=bicubic ... libvmaf" pipeline does (libswscale, bicubic by default).
struct ScaleSpec {
    int width = 0;
    int height = 0;
    std::string filter = "bicubic";

    friend bool operator==(const ScaleSpec&, const ScaleSpec&) = default;
};

// libswscale's filter names, as ffmpeg's scale filter spells them in flags=.
const std::vector<std::string_view>& scale_filters();

// Parses "WxH" or "WxH:filter". Throws vq::Error (usage) with a one-line message.
ScaleSpec parse_scale(std::string_view text);

// Which frames are scored, as libvmaf's frame loop picks them (spec/cli-and-output.md §8): the
// first skip_reference / skip_distorted frames of each input are dropped, then pairs are scored
// until either input ends or frame_count pairs are done.
struct FrameRange {
    std::size_t frame_count = 0;  // 0 = all
    std::size_t skip_reference = 0;
    std::size_t skip_distorted = 0;
};

}  // namespace vq
