// --scale WxH[:filter]: the distorted video brought to the reference's size, as the usual
// "ffmpeg -vf scale=W:H:flags=bicubic ... libvmaf" pipeline does (libswscale, bicubic by default).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "io/frame_source.hpp"

namespace vq {

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

// Wraps a source so that every picture comes out scaled to spec's size, same chroma format and bit
// depth; pictures already of that size pass through untouched. Throws vq::Error (usage) when vq
// was built without FFmpeg or libswscale cannot scale this format (bit depths other than 8, 9, 10,
// 12, 14 and 16), and vq::Error (runtime) when the FFmpeg module cannot be loaded.
std::unique_ptr<FrameSource> scale_frames(std::unique_ptr<FrameSource> source,
                                          const ScaleSpec& spec);

namespace ffmpeg {
// scale_frames's libswscale half, in the FFmpeg module (ffmpeg_module.hpp); vq reaches it only
// through scale_frames, which loads the module.
std::unique_ptr<FrameSource> scale_frames(std::unique_ptr<FrameSource> source,
                                          const ScaleSpec& spec);
}  // namespace ffmpeg

}  // namespace vq
