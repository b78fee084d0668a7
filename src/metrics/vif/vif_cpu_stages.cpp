// The plain stages of integer VIF (spec/vmaf.md §2.3-§2.6).
#include "metrics/vif/vif_cpu_stages.hpp"

#include <algorithm>
#include <array>

namespace vq::vif {
namespace {

std::uint64_t round_shift(std::uint64_t value, int shift) {
    return shift == 0 ? value : (value + (std::uint64_t(1) << (shift - 1))) >> shift;
}

template <typename Sample>
void mirrored_rows(const PlaneView<Sample>& plane, int centre, int radius,
                   std::array<const Sample*, max_taps>& rows) {
    for (int k = 0; k <= 2 * radius; ++k)
        rows[k] = plane.row(mirror(centre - radius + k, plane.height));
}

}  // namespace

VerticalMoments round_vertical(const VerticalSums& sums, int bits) {
    // Means come out in "x256" units; at 8 bits the square sums stay unshifted, above it they
    // drop the 2*(bits-8) extra bits (spec §2.4 table).
    const int square_shift = 2 * (bits - 8);
    return {std::uint32_t(round_shift(sums.a1, bits)), std::uint32_t(round_shift(sums.a2, bits)),
            std::uint32_t(round_shift(sums.axx, square_shift)),
            std::uint32_t(round_shift(sums.ayy, square_shift)),
            std::uint32_t(round_shift(sums.axy, square_shift))};
}

MomentRow::MomentRow(int width, int radius)
    : width(width),
      radius(radius),
      m1(std::size_t(width + 2 * radius)),
      m2(m1.size()),
      qxx(m1.size()),
      qyy(m1.size()),
      qxy(m1.size()) {}

void MomentRow::mirror_edges() {
    for (auto* values : {&m1, &m2, &qxx, &qyy, &qxy}) {
        std::uint32_t* column0 = values->data() + radius;
        for (int t = 1; t <= radius; ++t) {
            column0[-t] = column0[mirror(-t, width)];
            column0[width - 1 + t] = column0[mirror(width - 1 + t, width)];
        }
    }
}

LocalStatistics horizontal_statistics(const MomentRow& row, const Filter& filter, int column) {
    std::uint32_t mu1 = 0, mu2 = 0;
    std::uint64_t xx = 0, yy = 0, xy = 0;
    for (int k = 0; k < filter.taps; ++k) {
        const std::uint32_t f = filter.coefficients[k];
        const std::size_t at = std::size_t(column + k);
        mu1 += f * row.m1[at];
        mu2 += f * row.m2[at];
        xx += std::uint64_t(f) * row.qxx[at];
        yy += std::uint64_t(f) * row.qyy[at];
        xy += std::uint64_t(f) * row.qxy[at];
    }
    LocalStatistics local{};
    local.mu1 = mu1;
    local.mu2 = mu2;
    local.xx = std::uint32_t(round_shift(xx, 16));
    local.yy = std::uint32_t(round_shift(yy, 16));
    local.xy = std::uint32_t(round_shift(xy, 16));
    const std::uint32_t mu1_sq = std::uint32_t(round_shift(std::uint64_t(mu1) * mu1, 32));
    const std::uint32_t mu2_sq = std::uint32_t(round_shift(std::uint64_t(mu2) * mu2, 32));
    const std::uint32_t mu1_mu2 = std::uint32_t(round_shift(std::uint64_t(mu1) * mu2, 32));
    local.sigma1_sq = std::int32_t(local.xx - mu1_sq);
    local.sigma2_sq = std::max(std::int32_t(local.yy - mu2_sq), 0);
    local.sigma12 = std::int32_t(local.xy - mu1_mu2);
    return local;
}

void accumulate_pixel(const LocalStatistics& local, double gain_limit, ScaleSums& sums) {
    const std::int32_t sigma1_sq = local.sigma1_sq;
    const std::int32_t sigma2_sq = local.sigma2_sq;
    const std::int32_t sigma12 = local.sigma12;
    if (sigma1_sq < noise_variance) {
        sums.num_non_log += sigma2_sq;
        sums.den_non_log += 1;
        return;
    }
    sums.den_log += fixed_log2(std::uint64_t(noise_variance + sigma1_sq)) - 2048 * 17;
    if (sigma12 <= 0 || sigma2_sq <= 0) return;
    constexpr double epsilon = 65536 * 1.0e-10;
    double gain = double(sigma12) / (double(sigma1_sq) + epsilon);
    // The reference truncates to int32 and then clamps at 0. The difference never exceeds
    // sigma2_sq, and every negative value (even one beyond int32) ends as 0.
    const double residual = double(sigma2_sq) - gain * double(sigma12);
    const std::int32_t sv = residual > 0 ? std::int32_t(residual) : 0;
    gain = std::min(gain, gain_limit);  // after sv, which uses the unclamped gain
    const std::uint32_t n1 = std::uint32_t(sv) + std::uint32_t(noise_variance);
    const std::int64_t n2 = std::int64_t((gain * gain) * double(sigma1_sq)) + n1;
    sums.num_log += fixed_log2(std::uint64_t(n2)) - fixed_log2(n1);
}

template <typename Sample>
ScaleSums scale_statistics(const PlaneView<Sample>& ref, const PlaneView<Sample>& dist, int scale,
                           int bits, double gain_limit) {
    const Filter& f = filter(scale);
    MomentRow row(ref.width, f.radius);
    std::array<const Sample*, max_taps> ref_rows{}, dist_rows{};
    ScaleSums sums;
    for (int i = 0; i < ref.height; ++i) {
        mirrored_rows(ref, i, f.radius, ref_rows);
        mirrored_rows(dist, i, f.radius, dist_rows);
        for (int j = 0; j < ref.width; ++j) {
            const VerticalMoments v =
                round_vertical(vertical_sums(ref_rows.data(), dist_rows.data(), f, j), bits);
            const std::size_t at = std::size_t(j + f.radius);
            row.m1[at] = v.m1;
            row.m2[at] = v.m2;
            row.qxx[at] = v.qxx;
            row.qyy[at] = v.qyy;
            row.qxy[at] = v.qxy;
        }
        row.mirror_edges();
        for (int j = 0; j < ref.width; ++j)
            accumulate_pixel(horizontal_statistics(row, f, j), gain_limit, sums);
    }
    return sums;
}

template <typename Sample>
void decimate(const PlaneView<Sample>& source, int destination_scale, int bits,
              std::uint16_t* out) {
    const Filter& f = filter(destination_scale);
    const int out_width = source.width / 2;
    const int out_height = source.height / 2;
    std::vector<std::uint32_t> blurred(std::size_t(source.width + 2 * f.radius));
    std::uint32_t* column0 = blurred.data() + f.radius;
    std::array<const Sample*, max_taps> rows{};
    for (int i = 0; i < out_height; ++i) {
        mirrored_rows(source, 2 * i, f.radius, rows);
        for (int j = 0; j < source.width; ++j) {
            std::uint32_t sum = 0;  // at most 65536 * 65535: fits 32 bits (spec §2.3)
            for (int k = 0; k < f.taps; ++k) sum += f.coefficients[k] * std::uint32_t(rows[k][j]);
            column0[j] = std::uint32_t(round_shift(sum, bits));
        }
        for (int t = 1; t <= f.radius; ++t) {
            column0[-t] = column0[mirror(-t, source.width)];
            column0[source.width - 1 + t] = column0[mirror(source.width - 1 + t, source.width)];
        }
        std::uint16_t* out_row = out + std::size_t(i) * out_width;
        for (int j = 0; j < out_width; ++j) {
            std::uint32_t sum = 0;
            for (int k = 0; k < f.taps; ++k)
                sum += f.coefficients[k] * column0[2 * j - f.radius + k];
            out_row[j] = std::uint16_t(round_shift(sum, 16));
        }
    }
}

template ScaleSums scale_statistics(const PlaneView<std::uint8_t>&, const PlaneView<std::uint8_t>&,
                                    int, int, double);
template ScaleSums scale_statistics(const PlaneView<std::uint16_t>&,
                                    const PlaneView<std::uint16_t>&, int, int, double);
template void decimate(const PlaneView<std::uint8_t>&, int, int, std::uint16_t*);
template void decimate(const PlaneView<std::uint16_t>&, int, int, std::uint16_t*);

}  // namespace vq::vif
