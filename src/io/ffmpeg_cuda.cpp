#include "io/ffmpeg_cuda.hpp"

#include <fmt/format.h>

extern "C" {
#include <libavutil/hwcontext.h>
#if VQ_WITH_CUDA
#include <libavutil/hwcontext_cuda.h>
#endif
}

#include "io/ffmpeg_util.hpp"

namespace vq::ffmpeg {
namespace {

// get_format: CUDA frames or nothing.
AVPixelFormat cuda_frames_only(AVCodecContext*, const AVPixelFormat* offered) {
    for (; *offered != AV_PIX_FMT_NONE; ++offered)
        if (*offered == AV_PIX_FMT_CUDA) return AV_PIX_FMT_CUDA;
    return AV_PIX_FMT_NONE;
}

#if VQ_WITH_CUDA
// What a CUDA surface layout holds.
struct SurfaceLayout {
    ChromaFormat chroma;
    bool interleaved_chroma;
    bool wide;  // 16-bit samples, the picture's in their high bits
};

std::optional<SurfaceLayout> layout_of(AVPixelFormat format) {
    switch (format) {
    case AV_PIX_FMT_NV12: return SurfaceLayout{ChromaFormat::yuv420, true, false};
    case AV_PIX_FMT_P010:
    case AV_PIX_FMT_P016: return SurfaceLayout{ChromaFormat::yuv420, true, true};
    case AV_PIX_FMT_YUV444P: return SurfaceLayout{ChromaFormat::yuv444, false, false};
    case AV_PIX_FMT_YUV444P16: return SurfaceLayout{ChromaFormat::yuv444, false, true};
    default: return std::nullopt;
    }
}
#endif

}  // namespace

const AVCodec* cuda_decoder(AVCodecID codec, std::string& why) {
    const AVCodec* decoder = codec == AV_CODEC_ID_AV1 ? avcodec_find_decoder_by_name("av1")
                                                      : avcodec_find_decoder(codec);
    if (decoder)
        for (int i = 0; const AVCodecHWConfig* config = avcodec_get_hw_config(decoder, i); ++i)
            if (config->device_type == AV_HWDEVICE_TYPE_CUDA &&
                (config->methods & AV_CODEC_HW_CONFIG_METHOD_HW_DEVICE_CTX))
                return decoder;
    why = fmt::format("this FFmpeg has no CUDA decoding of {}", avcodec_get_name(codec));
    return nullptr;
}

BufferRefPtr open_cuda_device(void* context, void* stream, std::string& why) {
#if VQ_WITH_CUDA
    BufferRefPtr device(av_hwdevice_ctx_alloc(AV_HWDEVICE_TYPE_CUDA));
    if (!device) {
        why = "this FFmpeg was built without CUDA";
        return nullptr;
    }
    auto& hardware = *reinterpret_cast<AVHWDeviceContext*>(device->data);
    auto& cuda = *static_cast<AVCUDADeviceContext*>(hardware.hwctx);
    cuda.cuda_ctx = static_cast<CUcontext>(context);
    cuda.stream = static_cast<CUstream>(stream);
    if (const int initialised = av_hwdevice_ctx_init(device.get()); initialised < 0) {
        why = fmt::format("FFmpeg cannot use the CUDA device: {}", error_text(initialised));
        if (const std::string logged = take_logged_error(); !logged.empty())
            why += " (" + logged + ")";
        return nullptr;
    }
    return device;
#else
    (void)context;
    (void)stream;
    why = "this FFmpeg module was built without CUDA";
    return nullptr;
#endif
}

void decode_through_cuda(AVCodecContext& codec, const AVBufferRef& device) {
    codec.hw_device_ctx = av_buffer_ref(const_cast<AVBufferRef*>(&device));
    if (!codec.hw_device_ctx) throw std::bad_alloc();
    codec.get_format = cuda_frames_only;
    // Each surface is copied out as soon as it is decoded (DeviceSurfaceSink::convert), so the
    // decoder's own pool is enough; frame threads would only hold more surfaces.
    codec.thread_count = 1;
}

std::optional<DeviceSurface> cuda_surface(const AVFrame& frame, const VideoFormat& format,
                                          std::string& why) {
#if VQ_WITH_CUDA
    if (frame.format != AV_PIX_FMT_CUDA || !frame.hw_frames_ctx) {
        why = fmt::format("FFmpeg decoded it to {}, not to CUDA frames",
                          pixel_format_name(frame.format));
        return std::nullopt;
    }
    const auto& frames = *reinterpret_cast<const AVHWFramesContext*>(frame.hw_frames_ctx->data);
    const std::optional<SurfaceLayout> layout = layout_of(frames.sw_format);
    if (!layout || layout->chroma != format.chroma || layout->wide != (format.bit_depth > 8)) {
        why = fmt::format("its {} surfaces do not hold {} pictures",
                          pixel_format_name(frames.sw_format), describe(format));
        return std::nullopt;
    }
    // FFmpeg cuts a hardware frame's right and bottom edges only (its width and height).
    if (frame.crop_left || frame.crop_top || frame.width != format.width ||
        frame.height != format.height) {
        why = "its surfaces are cropped otherwise than the software decoder's pictures";
        return std::nullopt;
    }
    DeviceSurface surface;
    for (int p = 0; p < (layout->interleaved_chroma ? 2 : 3); ++p) {
        surface.planes[p] = reinterpret_cast<const std::byte*>(frame.data[p]);
        surface.pitches[p] = std::size_t(frame.linesize[p]);
    }
    surface.interleaved_chroma = layout->interleaved_chroma;
    surface.shift = layout->wide ? 16 - format.bit_depth : 0;
    surface.stream = static_cast<const AVCUDADeviceContext*>(frames.device_ctx->hwctx)->stream;
    return surface;
#else
    (void)frame;
    (void)format;
    why = "this FFmpeg module was built without CUDA";
    return std::nullopt;
#endif
}

}  // namespace vq::ffmpeg
