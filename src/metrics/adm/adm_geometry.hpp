// Per-scale sizes, border regions and the fixed-point shifts that follow from them
// (spec §3.2, §8.1, §9.2, §9.3, §10).
#pragma once

#include <array>
#include <cstdint>

namespace vq::adm {

inline constexpr int scale_count = 4;
inline constexpr int band_count = 3;  // detail bands, always in the order h, v, d
inline constexpr int min_size = 33;  // spec §1: smaller frames read outside the reference's buffers

// clog2(n) = ceil(log2(n)) = bit length of n - 1 (clog2(1) = 0).
constexpr int clog2(std::int64_t n) {
    int bits = 0;
    for (std::uint64_t v = std::uint64_t(n - 1); v != 0; v >>= 1) ++bits;
    return bits;
}

struct ScaleGeometry {
    int width = 0, height = 0;  // band size
    int left = 0, top = 0;  // scored region: rows [top, height - top), cols [left, width - left)
    std::int64_t area = 0;
    // The working region (decoupling and CSF): the scored region plus a one-coefficient ring,
    // clipped to the band (the ring is mirrored in from inside the band where it leaves it).
    int work_row_begin = 0, work_row_end = 0, work_col_begin = 0, work_col_end = 0;

    // §9.2/§9.3: cube shift per band (h, v, d) and the per-row shift of the masked sums.
    std::array<int, band_count> cube_shift{};
    int row_shift = 0;
    // §10: the denominator's shifts. Scale 0: per-row shift Sa only (column shift 0).
    // Scales 1-3: per-coefficient shift Cd and per-row shift Sd.
    int den_col_shift = 0, den_row_shift = 0;

    int row_end() const { return height - top; }
    int col_end() const { return width - left; }
};

// Geometry of the four scales of a W x H luma plane.
std::array<ScaleGeometry, scale_count> make_geometry(int width, int height);

}  // namespace vq::adm
