// The FFmpeg module's entry point (libvq_ffmpeg.so only; see ffmpeg_module.hpp).
#include "io/ffmpeg_module.hpp"

#include <utility>

namespace vq {
namespace {

class Module final : public FfmpegModule {
public:
    std::unique_ptr<FfmpegSource> open(const std::string& path,
                                       const DecodeOptions& options) const override {
        return open_ffmpeg(path, options);
    }
    std::unique_ptr<FrameSource> scale(std::unique_ptr<FrameSource> source,
                                       const ScaleSpec& spec) const override {
        return ffmpeg::scale_frames(std::move(source), spec);
    }
};

}  // namespace
}  // namespace vq

extern "C" __attribute__((visibility("default"))) const vq::FfmpegModule* vq_ffmpeg_module() {
    static const vq::Module module;
    return &module;
}
