#include "io/sample_range.hpp"

#include <cstdint>

#include <fmt/format.h>

#include "vq/error.hpp"

namespace vq {
namespace {

// The OR of every sample: one pass the compiler vectorises; only a frame that fails is searched.
std::uint16_t or_of(const std::uint16_t* samples, std::size_t count) {
    std::uint16_t all = 0;
    for (std::size_t i = 0; i < count; ++i) all |= samples[i];
    return all;
}

}  // namespace

void check_sample_range(const VideoFormat& format, const std::byte* frame, const std::string& path,
                        std::size_t index, Planes planes) {
    if (format.bit_depth <= 8 || format.bit_depth >= 16) return;
    const unsigned maximum = (1u << format.bit_depth) - 1;
    static constexpr const char* plane_names[] = {"Y", "U", "V"};
    for (int p = 0; p < plane_count(planes, format); ++p) {
        const auto* samples =
            reinterpret_cast<const std::uint16_t*>(frame + format.plane_offset(p));
        const std::size_t width = std::size_t(format.plane_width(p));
        const std::size_t count = width * std::size_t(format.plane_height(p));
        if (or_of(samples, count) <= maximum) continue;
        std::size_t i = 0;
        while (samples[i] <= maximum) ++i;
        throw runtime_error(fmt::format(
            "'{}': frame {}: plane {} holds the sample {} at ({}, {}), above the {}-bit maximum "
            "{} (is the bit depth right?)",
            path, index, plane_names[p], samples[i], i % width, i / width, format.bit_depth,
            maximum));
    }
}

}  // namespace vq
