// Which planes of a frame a run reads. Most of VMAF's features (VIF, ADM, motion) look at luma
// alone; when every feature of a run does, the file readers skip the chroma planes (a third of a
// 4:2:0 frame's bytes, half of a 4:2:2 frame's) and the CUDA executor uploads luma alone. The
// planes lie back to back in a frame, luma first, so the planes read are always a prefix of it.
#pragma once

#include <cstddef>

#include "vq/picture.hpp"

namespace vq {

enum class Planes { all, luma };

// How many of the format's planes `planes` covers.
inline int plane_count(Planes planes, const VideoFormat& format) {
    return planes == Planes::luma ? 1 : format.plane_count();
}

// The leading bytes of a frame that hold those planes.
inline std::size_t plane_bytes(Planes planes, const VideoFormat& format) {
    return planes == Planes::luma && format.plane_count() > 1 ? format.plane_offset(1)
                                                              : format.frame_bytes();
}

// The planes both `a` and `b` need.
inline Planes planes_for_both(Planes a, Planes b) {
    return a == Planes::luma && b == Planes::luma ? Planes::luma : Planes::all;
}

}  // namespace vq
