// The stages of integer VIF (spec/vmaf.md §2.3-§2.6) in their plain form, one column or one
// pixel at a time: the definition the vector variants are tested against. Each function is the
// spec's formula with the spec's integer widths.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "metrics/vif/vif.hpp"
#include "metrics/toolkit/mirror.hpp"
#include "metrics/vif/vif_tables.hpp"
#include "vq/picture.hpp"

namespace vq::vif {

// Scales above 0 hold uint16 samples in "8-bit code value x 256" units: for the rounding rules
// they are 16-bit input (spec §2.3, §2.4). `bits` is therefore the bit depth at scale 0 and 16
// above it.
inline int working_bits(int scale, int bit_depth) { return scale == 0 ? bit_depth : 16; }

// Noise variance 2.0 in the moments' unit (spec §2.6).
inline constexpr std::int32_t noise_variance = 131072;

// The vertical filter sums at one column (spec §2.4, before rounding).
struct VerticalSums {
    std::uint64_t a1, a2, axx, ayy, axy;
};

// The rounded vertical results at one column: what the horizontal pass reads.
struct VerticalMoments {
    std::uint32_t m1, m2, qxx, qyy, qxy;
};

// The horizontal results and local statistics at one pixel.
struct LocalStatistics {
    std::uint32_t mu1, mu2;
    std::uint32_t xx, yy, xy;
    std::int32_t sigma1_sq, sigma2_sq, sigma12;  // sigma2_sq already clamped to >= 0
};

// rows[k] is the source row mirror(i - radius + k) for output row i.
template <typename Sample>
VerticalSums vertical_sums(const Sample* const* ref_rows, const Sample* const* dist_rows,
                           const Filter& filter, int column) {
    VerticalSums sums{};
    for (int k = 0; k < filter.taps; ++k) {
        const std::uint64_t x = ref_rows[k][column];
        const std::uint64_t y = dist_rows[k][column];
        const std::uint64_t fx = filter.coefficients[k] * x;
        const std::uint64_t fy = filter.coefficients[k] * y;
        sums.a1 += fx;
        sums.a2 += fy;
        sums.axx += fx * x;
        sums.ayy += fy * y;
        sums.axy += fx * y;
    }
    return sums;
}

VerticalMoments round_vertical(const VerticalSums& sums, int bits);

// One row of vertical results, each array with `radius` mirrored entries on either side so that
// the horizontal filter reads column j - radius + k at data[j + k].
struct MomentRow {
    MomentRow(int width, int radius);
    void mirror_edges();  // fills the padding from columns [0, width)

    int width;
    int radius;
    std::vector<std::uint32_t> m1, m2, qxx, qyy, qxy;
};

LocalStatistics horizontal_statistics(const MomentRow& row, const Filter& filter, int column);

// Adds one pixel's contribution to the scale's accumulators (spec §2.6).
void accumulate_pixel(const LocalStatistics& local, double gain_limit, ScaleSums& sums);

// The statistics of one whole scale (spec §2.4-§2.6), row by row. `bits` as working_bits().
template <typename Sample>
ScaleSums scale_statistics(const PlaneView<Sample>& ref, const PlaneView<Sample>& dist, int scale,
                           int bits, double gain_limit);

// Blur with the kernel of `destination_scale` and keep even rows and columns (spec §2.3):
// out has floor(w/2) x floor(h/2) samples, rows packed.
template <typename Sample>
void decimate(const PlaneView<Sample>& source, int destination_scale, int bits, std::uint16_t* out);

}  // namespace vq::vif
