// Raw planar YUV: no header, frames of the given format back to back.
#include <memory>
#include <utility>

#include <fmt/format.h>

#include "io/file_frame_source.hpp"
#include "vq/error.hpp"

namespace vq {
namespace {

class YuvSource final : public FileFrameSource {
public:
    YuvSource(InputFile file, const VideoFormat& format)
        : FileFrameSource(std::move(file), format, /*marker=*/{}, /*ignored_bytes=*/0) {}

private:
    bool begin_frame(std::size_t) override { return !file().at_end(); }
};

}  // namespace

std::unique_ptr<FrameSource> open_yuv(const std::string& path, const VideoFormat& format) {
    validate(format);
    InputFile file(path);
    if (file.at_end()) throw runtime_error(fmt::format("'{}' is empty", path));
    return std::make_unique<YuvSource>(std::move(file), format);
}

}  // namespace vq
