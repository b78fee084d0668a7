// Frames from numpy arrays. A frame is one of:
//   - one C-contiguous array holding the whole frame in vq's packed layout (vq/picture.hpp: Y,
//     then U, then V, rows tightly packed), 2-D (rows, width) or 1-D; for 4:0:0 that is the luma
//     plane (height, width). Taken without a copy where the session reads ordinary memory;
//   - a tuple or list of the format's planes ((Y, U, V), or (Y,) for 4:0:0), each 2-D with
//     contiguous samples in a row (rows may have any stride: crops and flips are fine); copied.
// Samples are uint8 for 8-bit video, native-endian uint16 for 9..16 bits.
#pragma once

#include <string>

#include <pybind11/pybind11.h>

#include "vq/picture.hpp"

namespace vq::python {

// `frame` as a Picture of `format`. `name` ("ref", "dist") starts every error message. With an
// `allocator` (the session's pinned staging memory on CUDA), the samples are always copied into
// its buffer; without one, a packed array is wrapped as it is: the Picture keeps a reference to
// the array and lets it go (taking the GIL) when the session is done with the frame. Needs the
// GIL. Throws vq::Error (usage) naming the array for a wrong type, shape, layout or stride.
Picture picture_from(pybind11::handle frame, const std::string& name, const VideoFormat& format,
                     const BufferAllocator& allocator);

}  // namespace vq::python
