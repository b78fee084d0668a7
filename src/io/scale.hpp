// --scale: a source whose pictures come out scaled (ScaleSpec and parse_scale are public:
// vq/input.hpp; scale_spec.cpp implements them).
#pragma once

#include <memory>

#include "io/frame_source.hpp"
#include "vq/input.hpp"

namespace vq {

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
