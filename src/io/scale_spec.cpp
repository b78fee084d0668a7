// Parsing --scale (vq/input.hpp); the scaling itself is in ffmpeg_scale.cpp, built only with
// FFmpeg.
#include <algorithm>
#include <charconv>

#include <fmt/format.h>

#include "io/scale.hpp"
#include "vq/error.hpp"
#include "vq/input.hpp"

namespace vq {

const std::vector<std::string_view>& scale_filters() {
    static const std::vector<std::string_view> names = {
        "fast_bilinear", "bilinear", "bicubic", "neighbor", "area",
        "bicublin",      "gauss",    "sinc",    "lanczos",  "spline"};
    return names;
}

ScaleSpec parse_scale(std::string_view text) {
    const auto bad = [&](std::string_view why) {
        return usage_error(
            fmt::format("--scale: {} in '{}' (expected WxH or WxH:filter)", why, text));
    };
    ScaleSpec spec;
    const std::size_t colon = text.find(':');
    const std::string_view size = text.substr(0, colon);
    if (colon != std::string_view::npos) {
        spec.filter = std::string(text.substr(colon + 1));
        const auto& names = scale_filters();
        if (std::find(names.begin(), names.end(), spec.filter) == names.end())
            throw bad(fmt::format("unknown filter '{}' (one of {})", spec.filter,
                                  fmt::join(names, ", ")));
    }
    const std::size_t x = size.find('x');
    if (x == std::string_view::npos) throw bad("no size");
    const auto number = [&](std::string_view digits) {
        int value = 0;
        const auto [end, error] =
            std::from_chars(digits.data(), digits.data() + digits.size(), value);
        if (digits.empty() || error != std::errc() || end != digits.data() + digits.size() ||
            value < 1 || value > max_dimension)
            throw bad(fmt::format("the size must be two numbers 1..{}", max_dimension));
        return value;
    };
    spec.width = number(size.substr(0, x));
    spec.height = number(size.substr(x + 1));
    return spec;
}

#if !VQ_WITH_FFMPEG
std::unique_ptr<FrameSource> scale_frames(std::unique_ptr<FrameSource>, const ScaleSpec&) {
    throw usage_error("--scale needs FFmpeg's libswscale, and this vq was built without FFmpeg");
}
#endif

}  // namespace vq
