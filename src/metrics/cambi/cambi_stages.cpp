// The integer stages of §6–§9: input check, resize and 10-bit conversion, anti-dither, spatial
// mask, decimation and mode filter. All exact, written as plain loops the compiler vectorises.

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "metrics/cambi/cambi.hpp"
#include "vq/error.hpp"

namespace vq::cambi {
namespace {

template <typename Sample>
void convert_plane(PlaneView<Sample> in, int bit_depth, const PictureGeometry& g, std::uint16_t* out) {
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

// §9: a if it repeats, else b if b == c, else the minimum ("all different" gives the minimum).
[[gnu::always_inline]] inline std::uint16_t mode3(std::uint16_t a, std::uint16_t b, std::uint16_t c) {
    const std::uint16_t lowest = std::min(a, std::min(b, c));
    return ((a == b) | (a == c)) ? a : (b == c ? b : lowest);
}

[[gnu::always_inline]] inline void horizontal_mode(const std::uint16_t* row, int width, std::uint16_t* out) {
    out[0] = row[0];
    for (int j = 1; j < width - 1; ++j) out[j] = mode3(row[j - 1], row[j], row[j + 1]);
    out[width - 1] = row[width - 1];
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

void anti_dither(std::uint16_t* plane, int width, int height) {
    // In place: row i and column j+1 are read before they are overwritten.
    const std::size_t w = std::size_t(width);
    for (int i = 0; i + 1 < height; ++i) {
        std::uint16_t* row = plane + std::size_t(i) * w;
        const std::uint16_t* below = row + w;
        for (std::size_t j = 0; j + 1 < w; ++j)
            row[j] = std::uint16_t((row[j] + row[j + 1] + below[j] + below[j + 1]) >> 2);
        row[w - 1] = std::uint16_t((row[w - 1] + below[w - 1]) >> 1);
    }
    std::uint16_t* last = plane + std::size_t(height - 1) * w;
    for (std::size_t j = 0; j + 1 < w; ++j) last[j] = std::uint16_t((last[j] + last[j + 1]) >> 1);
}

// The mask and the mode filter run on every pixel: compiled for AVX2 too (vectorised loops).
[[gnu::target_clones("avx2", "default")]]
void spatial_mask(const std::uint16_t* plane, int width, int height, int threshold,
                  std::uint8_t* mask) {
    // Z (a flat pixel: equal to its right and lower neighbours) row by row into a ring of the 8
    // rows the window needs, a sliding 7-row sum per column, then a 7-wide sum along the row.
    // Everything fits in uint8 (a box holds at most 49).
    constexpr int radius = 3;
    constexpr int ring_rows = 2 * radius + 2;  // rows i-4 .. i+3
    const std::size_t w = std::size_t(width);
    thread_local std::vector<std::uint8_t> ring;
    thread_local std::vector<std::uint8_t> column_sums;
    ring.resize(ring_rows * w);
    column_sums.assign(w + 2 * radius, 0);  // zero margins: the box is clipped to the picture
    std::uint8_t* sums = column_sums.data() + radius;

    const auto flat_row = [&](int r) { return ring.data() + std::size_t(r % ring_rows) * w; };
    const auto add_flat_row = [&](int r) {
        const std::uint16_t* row = plane + std::size_t(r) * w;
        const std::uint16_t* below = r + 1 < height ? row + w : row;  // last row: only the right test
        std::uint8_t* z = flat_row(r);
        for (std::size_t j = 0; j + 1 < w; ++j)
            z[j] = std::uint8_t((row[j] == row[j + 1]) & (row[j] == below[j]));
        z[w - 1] = std::uint8_t(row[w - 1] == below[w - 1]);
        for (std::size_t j = 0; j < w; ++j) sums[j] = std::uint8_t(sums[j] + z[j]);
    };
    const auto remove_flat_row = [&](int r) {
        const std::uint8_t* z = flat_row(r);
        for (std::size_t j = 0; j < w; ++j) sums[j] = std::uint8_t(sums[j] - z[j]);
    };

    for (int r = 0; r < std::min(radius, height); ++r) add_flat_row(r);
    for (int i = 0; i < height; ++i) {
        if (i + radius < height) add_flat_row(i + radius);
        if (i - radius - 1 >= 0) remove_flat_row(i - radius - 1);
        std::uint8_t* out = mask + std::size_t(i) * w;
        const std::uint8_t* s = sums - radius;
        for (std::size_t j = 0; j < w; ++j) {
            const int box = s[j] + s[j + 1] + s[j + 2] + s[j + 3] + s[j + 4] + s[j + 5] + s[j + 6];
            out[j] = std::uint8_t(box > threshold);
        }
    }
}

void decimate(const std::uint16_t* in, int width, int height, std::uint16_t* out) {
    decimate_plane(in, width, height, out);
}

void decimate(const std::uint8_t* in, int width, int height, std::uint8_t* out) {
    decimate_plane(in, width, height, out);
}

[[gnu::target_clones("avx2", "default")]]
void mode_filter(std::uint16_t* plane, int width, int height) {
    // In place with three rows of horizontal modes: row i+1's is taken before row i+1 changes.
    if (height < 3) return;
    const std::size_t w = std::size_t(width);
    thread_local std::vector<std::uint16_t> rows;
    rows.resize(3 * w);
    const auto hr = [&](int i) { return rows.data() + std::size_t(i % 3) * w; };
    horizontal_mode(plane, width, hr(0));
    horizontal_mode(plane + w, width, hr(1));
    for (int i = 1; i + 1 < height; ++i) {
        horizontal_mode(plane + std::size_t(i + 1) * w, width, hr(i + 1));
        const std::uint16_t* above = hr(i - 1);
        const std::uint16_t* centre = hr(i);
        const std::uint16_t* under = hr(i + 1);
        std::uint16_t* out = plane + std::size_t(i) * w;
        for (std::size_t j = 0; j < w; ++j) out[j] = mode3(above[j], centre[j], under[j]);
    }
}

}  // namespace vq::cambi
