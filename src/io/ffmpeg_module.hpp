// The FFmpeg module: everything that needs FFmpeg's libraries (the container source, its pixel
// repacking, --scale through libswscale) lives in a shared library of its own, libvq_ffmpeg.so,
// and vq loads it on first use. Loading FFmpeg's ~130 libraries costs ~30 ms and ~24 MiB, which
// a run on Y4M or raw YUV never pays.
//
// The module's one entry point, resolved with dlsym, hands out an FfmpegModule; the program calls
// it only through its virtual functions, so nothing else crosses between the two.
#pragma once

#include <memory>
#include <string>

#include "io/ffmpeg_source.hpp"
#include "io/frame_source.hpp"
#include "io/scale.hpp"

namespace vq {

class FfmpegModule {
public:
    // open_ffmpeg(), in the module.
    virtual std::unique_ptr<FfmpegSource> open(const std::string& path,
                                               const DecodeOptions& options) const = 0;
    // scale_frames(), in the module.
    virtual std::unique_ptr<FrameSource> scale(std::unique_ptr<FrameSource> source,
                                               const ScaleSpec& spec) const = 0;

protected:
    ~FfmpegModule() = default;  // the module owns it for the life of the process
};

// The module's file name: beside the executable, or beside libvq.so when the library is the C
// interface's shared library, unless the environment variable ffmpeg_module_variable gives a path.
inline constexpr char ffmpeg_module_file[] = "libvq_ffmpeg.so";
inline constexpr char ffmpeg_module_variable[] = "VQ_FFMPEG_MODULE";

// The module's entry point: extern "C" const vq::FfmpegModule* vq_ffmpeg_module().
inline constexpr char ffmpeg_module_entry[] = "vq_ffmpeg_module";

// The module, loaded on the first call (thread-safe). A program linked with the module (the tests,
// vq-decode) uses its own copy. Throws vq::Error (runtime), one line naming the module's path and
// the loader's reason, when the module is missing or cannot be loaded; a later call tries again.
const FfmpegModule& ffmpeg_module();

}  // namespace vq
