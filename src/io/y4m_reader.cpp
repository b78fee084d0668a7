// YUV4MPEG2 files: a header line, then per frame a "FRAME[ params]\n" line and the planes.
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "io/file_frame_source.hpp"
#include "io/y4m_header.hpp"
#include "vq/error.hpp"

namespace vq {
namespace {

constexpr std::string_view frame_marker = "FRAME";
constexpr std::string_view bare_frame_line = "FRAME\n";  // a FRAME line without parameters

class Y4mSource final : public FileFrameSource {
public:
    Y4mSource(InputFile file, const Y4mHeader& header)
        : FileFrameSource(std::move(file), header.format, bare_frame_line,
                          header.alpha_plane_bytes()) {}

private:
    // Frame parameters (per-frame I or X tags) are allowed and ignored, as in the stream header.
    bool begin_frame(std::size_t index) override {
        const InputFile::LineEnd end = file().read_line(marker_, max_y4m_header_bytes);
        if (end == InputFile::LineEnd::end_of_file && marker_.empty()) return false;
        const bool framed = std::string_view(marker_).starts_with(frame_marker);
        if (end == InputFile::LineEnd::end_of_file && (framed || frame_marker.starts_with(marker_)))
            fail(index, " is truncated (the file ends inside its FRAME line)");
        if (!framed) fail(index, ": lost framing (expected FRAME)");
        if (end == InputFile::LineEnd::too_long)
            fail(index, fmt::format(": FRAME line is longer than {} bytes", max_y4m_header_bytes));
        return true;
    }

    [[noreturn]] void fail(std::size_t index, std::string_view problem) const {
        throw runtime_error(fmt::format("'{}': frame {}{}", path(), index, problem));
    }

    std::string marker_;  // reused so that reading a frame allocates nothing but its buffer
};

}  // namespace

std::unique_ptr<FrameSource> open_y4m(const std::string& path) {
    InputFile file(path);
    std::string line;
    const InputFile::LineEnd end = file.read_line(line, max_y4m_header_bytes);
    if (end == InputFile::LineEnd::end_of_file && line.empty())
        throw runtime_error(fmt::format("'{}' is empty", path));
    if (!has_y4m_signature(line))
        throw runtime_error(fmt::format("'{}' is not a YUV4MPEG2 file", path));
    const auto bad_header = [&](std::string_view problem) {
        return runtime_error(fmt::format("'{}': bad Y4M header: {}", path, problem));
    };
    if (end == InputFile::LineEnd::too_long)
        throw bad_header(fmt::format("header is longer than {} bytes", max_y4m_header_bytes));
    if (end == InputFile::LineEnd::end_of_file) throw bad_header("the file ends inside the header");
    Y4mHeader header;
    try {
        header = parse_y4m_header(line);
    } catch (const Error& error) {
        throw bad_header(error.what());
    }
    return std::make_unique<Y4mSource>(std::move(file), header);
}

}  // namespace vq
