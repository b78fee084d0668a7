// The built-in demo clip that `vq --demo` scores: a synthetic reference and distorted video
// generated in memory (a banded gradient over a moving texture), so that anyone can try vq, or a
// binding of it, without test data.
#pragma once

#include "vq/picture.hpp"

namespace vq {

inline constexpr int demo_frame_count = 24;

// The clip's format: 1280x720, 8-bit, 4:2:0.
VideoFormat demo_format();

// Frame `index` (0 <= index < demo_frame_count) of the clip: both pictures, freshly generated.
// Deterministic: the same index always gives the same pictures.
FramePair demo_frame(int index);

}  // namespace vq
