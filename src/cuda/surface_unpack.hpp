// A hardware decoder's surface (io/device_surface.hpp: NV12, P010, P016 or planar 4:4:4, rows
// padded to the decoder's pitch) unpacked on the device into vq's planar, tightly packed picture
// layout (vq/picture.hpp): interleaved Cb,Cr pairs split into two planes, 16-bit samples shifted
// down from the high bits. The result is the CPU decoder's picture, byte for byte.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "io/device_surface.hpp"
#include "vq/picture.hpp"

namespace vq::cuda {

// Enqueues the unpacking of `surface` into `picture` (format.frame_bytes() of device memory) on
// `stream`. Throws vq::Error on a launch failure.
void unpack_surface(const DeviceSurface& surface, const VideoFormat& format, std::byte* picture,
                    cudaStream_t stream);

}  // namespace vq::cuda
