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
    YuvSource(InputFile file, const VideoFormat& format, TrailingBytes on_trailing_bytes)
        : FileFrameSource(std::move(file), format, /*marker=*/{}, /*ignored_bytes=*/0),
          on_trailing_bytes_(std::move(on_trailing_bytes)) {}

private:
    bool begin_frame(std::size_t) override { return !file().at_end(); }

    // Only at the end of the file does a read come up short, so `got` is every byte left.
    bool ends_at_partial_frame(std::size_t got) override {
        if (!on_trailing_bytes_) return false;
        on_trailing_bytes_(got);
        return true;
    }

    TrailingBytes on_trailing_bytes_;
};

}  // namespace

std::unique_ptr<FrameSource> open_yuv(const std::string& path, const VideoFormat& format,
                                      TrailingBytes on_trailing_bytes) {
    validate(format);
    InputFile file(path);
    if (file.at_end()) throw runtime_error(fmt::format("'{}' is empty", path));
    return std::make_unique<YuvSource>(std::move(file), format, std::move(on_trailing_bytes));
}

}  // namespace vq
