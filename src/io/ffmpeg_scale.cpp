// Scaling through libswscale, set up as ffmpeg's scale filter sets it up, so that
// "vq --scale W:H" scores what "ffmpeg -vf scale=W:H:flags=F" would hand libvmaf.
//
// libswscale takes its fast paths on FFmpeg-aligned frames, so a picture is copied into an
// FFmpeg-allocated frame, scaled into another and copied out; the copies cost little next to the
// filter itself, and the samples do not depend on vq's own buffer layout.
#include <utility>

#include <fmt/format.h>

extern "C" {
#include <libavutil/imgutils.h>
}

#include "io/ffmpeg_pixels.hpp"
#include "io/ffmpeg_util.hpp"
#include "io/recycling_allocator.hpp"
#include "io/scale.hpp"
#include "vq/error.hpp"

namespace vq {
namespace {

using namespace ffmpeg;

int filter_flag(const std::string& name) {
    if (name == "fast_bilinear") return SWS_FAST_BILINEAR;
    if (name == "bilinear") return SWS_BILINEAR;
    if (name == "bicubic") return SWS_BICUBIC;
    if (name == "neighbor") return SWS_POINT;
    if (name == "area") return SWS_AREA;
    if (name == "bicublin") return SWS_BICUBLIN;
    if (name == "gauss") return SWS_GAUSS;
    if (name == "sinc") return SWS_SINC;
    if (name == "lanczos") return SWS_LANCZOS;
    if (name == "spline") return SWS_SPLINE;
    throw usage_error(fmt::format("--scale: unknown filter '{}'", name));
}

FramePtr aligned_frame(AVPixelFormat format, int width, int height) {
    FramePtr frame = make_frame();
    frame->format = format;
    frame->width = width;
    frame->height = height;
    if (const int got = av_frame_get_buffer(frame.get(), 0); got < 0)
        throw runtime_error(fmt::format("--scale: cannot allocate a {}x{} frame: {}", width, height,
                                        error_text(got)));
    return frame;
}

class ScaledSource final : public FrameSource {
public:
    ScaledSource(std::unique_ptr<FrameSource> source, const ScaleSpec& spec)
        : source_(std::move(source)), allocator_(recycling_allocator()) {
        const VideoFormat& in = source_->format();
        format_ = in;
        format_.width = spec.width;
        format_.height = spec.height;
        if (in.width == spec.width && in.height == spec.height) return;  // nothing to do
        const AVPixelFormat pixels = planar_pixel_format(in);
        if (pixels == AV_PIX_FMT_NONE || !sws_isSupportedInput(pixels) ||
            !sws_isSupportedOutput(pixels))
            throw usage_error(fmt::format("--scale: libswscale cannot scale '{}' ({})",
                                          source_->path(), describe(in)));
        context_.reset(sws_getContext(in.width, in.height, pixels, spec.width, spec.height, pixels,
                                      filter_flag(spec.filter), nullptr, nullptr, nullptr));
        if (!context_)
            throw runtime_error(fmt::format("--scale: libswscale cannot scale {} to {}x{} with {}",
                                            describe(in), spec.width, spec.height, spec.filter));
        input_ = aligned_frame(pixels, in.width, in.height);
        output_ = aligned_frame(pixels, spec.width, spec.height);
    }

    const VideoFormat& format() const override { return format_; }
    const std::string& path() const override { return source_->path(); }

    std::optional<Picture> next() override {
        std::optional<Picture> picture = source_->next();
        if (!picture || !context_) return picture;
        const VideoFormat& in = source_->format();
        for (int c = 0; c < in.plane_count(); ++c) {
            const std::size_t row_bytes = std::size_t(in.plane_width(c)) * in.bytes_per_sample();
            av_image_copy_plane(
                input_->data[c], input_->linesize[c],
                reinterpret_cast<const std::uint8_t*>(picture->data() + in.plane_offset(c)),
                int(row_bytes), int(row_bytes), in.plane_height(c));
        }
        if (const int scaled = sws_scale_frame(context_.get(), output_.get(), input_.get());
            scaled < 0)
            throw runtime_error(
                fmt::format("'{}': scaling failed: {}", path(), error_text(scaled)));
        FrameBuffer buffer = allocator_(format_.frame_bytes());
        if (!buffer) throw std::bad_alloc();
        Picture result(format_, std::move(buffer));
        copy_frame(*output_, result);
        return result;
    }

    bool skip() override { return source_->skip(); }
    std::size_t skip_frames(std::size_t count) override { return source_->skip_frames(count); }

    // The scaled pictures are the ones handed on; the source's are scratch.
    void set_allocator(BufferAllocator allocator) override {
        if (!context_) {
            source_->set_allocator(std::move(allocator));
            return;
        }
        allocator_ = allocator ? std::move(allocator) : recycling_allocator();
    }

private:
    std::unique_ptr<FrameSource> source_;
    VideoFormat format_;
    BufferAllocator allocator_;
    SwsContextPtr context_;  // null when the sizes already match
    FramePtr input_, output_;
};

}  // namespace

std::unique_ptr<FrameSource> ffmpeg::scale_frames(std::unique_ptr<FrameSource> source,
                                                  const ScaleSpec& spec) {
    return std::make_unique<ScaledSource>(std::move(source), spec);
}

}  // namespace vq
