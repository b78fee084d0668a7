// Decoding on the GPU (--hwdec): the seam between the FFmpeg module, which knows the hardware
// decoder's surfaces, and the CUDA backend, which owns the device memory the pictures are scored
// in. Neither side includes the other: the module describes each decoded surface as a
// DeviceSurface, and a DeviceSurfaceSink (made by the CUDA executor) turns it into a planar
// device-resident Picture (vq/picture.hpp), in vq's layout, before the module lets the surface go.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "vq/picture.hpp"

namespace vq {

// One decoded picture in device memory, as the hardware decoder leaves it: a luma plane and either
// one plane of interleaved Cb,Cr pairs (NV12, P010, P016) or two chroma planes (4:4:4).
struct DeviceSurface {
    const std::byte* planes[3] = {};  // device addresses; planes[2] unused when interleaved
    std::size_t pitches[3] = {};      // bytes from one row to the next
    bool interleaved_chroma = true;
    // 16-bit surfaces hold each sample in their high bits: the picture's sample is the surface's
    // shifted right by 16 - bit depth (0 for 8-bit surfaces).
    int shift = 0;
    // The CUDA stream (a CUstream) the decoder's copies into the surface were queued on; null for
    // the legacy default stream. The sink orders its reads after them.
    void* stream = nullptr;
};

class DeviceSurfaceSink {
public:
    virtual ~DeviceSurfaceSink() = default;

    // The CUDA context (a CUcontext) the decoder must decode in: the runtime's primary context of
    // the device the sink's memory is on, so that the surfaces' addresses are valid in vq's
    // kernels.
    virtual void* context() const = 0;

    // A device picture of `format` holding the surface's samples, planar and packed. Any thread;
    // when it returns the surface has been read and may be reused. Throws vq::Error (runtime).
    virtual Picture convert(const VideoFormat& format, const DeviceSurface& surface) const = 0;

    // A stream of the sink's device for one decoder's copies into its surfaces (a CUstream), not
    // synchronising with the legacy default stream, destroyed with its last owner: the decoders
    // of one input (chunked decoding) then copy and convert side by side instead of one after
    // another on the legacy default stream. Throws vq::Error (runtime).
    virtual std::shared_ptr<void> make_stream() const = 0;

    // Device memory an input's decoders may fill with converted pictures ahead of the one being
    // scored (chunked decoding, io/ffmpeg_chunks.hpp).
    virtual std::size_t buffer_bytes() const = 0;
};

// What decodes an input, for the log and the receipt: "hevc via NVDEC (cuda)" or "hevc (CPU, the
// backend is cpu)".
struct DecoderChoice {
    bool on_device = false;
    std::string description;
};

}  // namespace vq
