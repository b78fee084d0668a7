// Decoded pictures into vq's Picture layout, exactly.
//
// Every YCbCr or gray pixel format FFmpeg describes with whole-byte samples is accepted:
//   planar (yuv420p, yuv422p10le, gray12le, yuvj444p ...): copied row by row;
//   semi-planar (nv12, nv21, nv16, nv24, p010le, p016le, p210le ...) and packed (yuyv422,
//   uyvy422, y210le, ayuv64le ...): each component gathered into its own plane and, where the
//   format keeps its bits high in a 16-bit word (p010, y210), shifted down.
// Both are pure repacking, so the samples are the decoder's own: no conversion through libswscale
// is ever applied to a decoded frame. Alpha is dropped (as the Y4M reader drops C444alpha's).
// Rejected, with a message naming the format: RGB and palette formats (their conversion to YCbCr
// is not lossless), float, Bayer and bit-packed formats, and 4:1:1, 4:1:0 and 4:4:0 subsampling
// (vq's metrics know 4:2:0, 4:2:2, 4:4:4 and gray).
#pragma once

#include <optional>
#include <string>

extern "C" {
#include <libavutil/frame.h>
#include <libavutil/pixfmt.h>
}

#include "vq/picture.hpp"

namespace vq::ffmpeg {

// The Picture format that frames of this pixel format and size become, or nullopt with the reason
// in `why` ("pixel format rgb24 is RGB ...").
std::optional<VideoFormat> picture_format(AVPixelFormat format, int width, int height,
                                          std::string& why);

// Copies a decoded frame (whose format and size map to `picture.format()`) into the picture.
void copy_frame(const AVFrame& frame, Picture& picture);

// The planar AVPixelFormat that holds a Picture of this format exactly (yuv420p10le, gray12le ...),
// or AV_PIX_FMT_NONE if FFmpeg has none (11-bit video, say).
AVPixelFormat planar_pixel_format(const VideoFormat& format);

}  // namespace vq::ffmpeg
