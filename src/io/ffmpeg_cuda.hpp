// FFmpeg's CUDA hardware decoding (NVDEC through libavcodec's hwaccels), for the container source:
// which decoder can use it, the device context, and a decoded frame's surface described for the
// CUDA backend (io/device_surface.hpp). FFmpeg decodes in the CUDA runtime's primary context of the
// device vq computes on, handed to it as it is, so the surfaces' addresses are valid in vq's
// kernels.
#pragma once

#include <memory>
#include <optional>
#include <string>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavutil/buffer.h>
}

#include "io/device_surface.hpp"

namespace vq::ffmpeg {

struct BufferRefDeleter {
    void operator()(AVBufferRef* buffer) const { av_buffer_unref(&buffer); }
};
using BufferRefPtr = std::unique_ptr<AVBufferRef, BufferRefDeleter>;

// The decoder of `codec` that this FFmpeg can run through CUDA, or null with the reason in `why`.
// AV1's is FFmpeg's own "av1" decoder, which decodes only through a hwaccel (libdav1d, the CPU
// decoder, has none).
const AVCodec* cuda_decoder(AVCodecID codec, std::string& why);

// An FFmpeg CUDA device context over `context` (a CUcontext: the runtime's primary context, which
// FFmpeg then neither retains nor releases) whose copies go on `stream` (a CUstream of that
// context, which must outlive the device context and every codec context using it; null: the
// legacy default stream); null with FFmpeg's reason in `why` (no driver library FFmpeg can load,
// FFmpeg built without CUDA). Not AV_CUDA_USE_PRIMARY_CONTEXT: FFmpeg 5.1 then
// insists on setting the primary context's flags itself, and refuses one the runtime has already
// made active, as vq's is by the time an input is decoded.
BufferRefPtr open_cuda_device(void* context, void* stream, std::string& why);

// Makes an opened-to-be codec context decode into CUDA frames on `device`, and only so: a stream
// the hwaccel refuses (H.264's 4:4:4 or 10-bit profiles) fails its first frame instead of being
// decoded in software behind vq's back.
void decode_through_cuda(AVCodecContext& codec, const AVBufferRef& device);

// The surface of a decoded CUDA frame that is to become a picture of `format`, or nullopt with the
// reason in `why` when its layout (FFmpeg's sw_format: nv12, p010, p016, yuv444p, yuv444p16) does
// not hold that format.
std::optional<DeviceSurface> cuda_surface(const AVFrame& frame, const VideoFormat& format,
                                          std::string& why);

}  // namespace vq::ffmpeg
