// The integer stages of §6–§9 that are not per-instruction-set kernels (those, anti-dither, spatial
// mask and mode filter, are in cambi_cpu_kernels.cpp): input check, resize and 10-bit conversion,
// decimation. All exact, written as plain loops the compiler vectorises.

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "metrics/cambi/cambi_cpu.hpp"
#include "vq/error.hpp"

namespace vq::cambi {
namespace {

template <typename Sample>
void convert_plane(PlaneView<Sample> in, int bit_depth, const PictureGeometry& g,
                   std::uint16_t* out) {
    // §6.3 as ((v + round) >> down) << up: 8/9 bits shift up, 11..16 bits round half up.
    const unsigned up = bit_depth < 10 ? unsigned(10 - bit_depth) : 0u;
    const unsigned down = bit_depth > 10 ? unsigned(bit_depth - 10) : 0u;
    const unsigned round = bit_depth > 10 ? 1u << (bit_depth - 11) : 0u;
    const auto to_10bit = [=](unsigned v) { return std::uint16_t(((v + round) >> down) << up); };
    for (int i = 0; i < g.height; ++i) {
        std::uint16_t* dst = out + std::size_t(i) * std::size_t(g.width);
        if (!g.resized()) {
            const Sample* src = in.row(i);
            for (int j = 0; j < g.width; ++j) dst[j] = to_10bit(src[j]);
        } else {
            const Sample* src = in.row(g.row_map[std::size_t(i)]);
            for (int j = 0; j < g.width; ++j) dst[j] = to_10bit(src[g.column_map[std::size_t(j)]]);
        }
    }
}

template <typename Sample>
void decimate_plane(const Sample* in, int width, int height, Sample* out) {
    // Row-major order makes the in-place case safe: every destination index is at most its source
    // index, and all later sources lie beyond it.
    const int w = (width + 1) >> 1;
    const int h = (height + 1) >> 1;
    for (int i = 0; i < h; ++i) {
        const Sample* src = in + std::size_t(2 * i) * std::size_t(width);
        Sample* dst = out + std::size_t(i) * std::size_t(w);
        for (int j = 0; j < w; ++j) dst[j] = src[2 * j];
    }
}

}  // namespace

void check_luma_range(const Picture& picture) {
    const int bit_depth = picture.format().bit_depth;
    if (bit_depth == 8 || bit_depth == 16) return;  // every sample value is valid
    const auto plane = picture.plane<std::uint16_t>(0);
    const unsigned max = (1u << bit_depth) - 1;
    std::uint16_t largest = 0;
    for (int i = 0; i < plane.height; ++i) {
        const std::uint16_t* row = plane.row(i);
        for (int j = 0; j < plane.width; ++j) largest = std::max(largest, row[j]);
    }
    if (largest > max)
        throw runtime_error(fmt::format(
            "cambi: luma sample {} exceeds {}, the largest {}-bit value", largest, max, bit_depth));
}

void convert_luma(const Picture& picture, const PictureGeometry& geometry, std::uint16_t* out) {
    const int bit_depth = picture.format().bit_depth;
    if (bit_depth == 8)
        convert_plane(picture.plane<std::uint8_t>(0), bit_depth, geometry, out);
    else
        convert_plane(picture.plane<std::uint16_t>(0), bit_depth, geometry, out);
}

void decimate(const std::uint16_t* in, int width, int height, std::uint16_t* out) {
    decimate_plane(in, width, height, out);
}

void decimate(const std::uint8_t* in, int width, int height, std::uint8_t* out) {
    decimate_plane(in, width, height, out);
}

}  // namespace vq::cambi
