// The float tail of ADM (spec §9.4, §10, §11; every operation in the order of §12): the block's
// integer totals -> per-scale floats -> pooled doubles.
#include <math.h>

#include <algorithm>
#include <cmath>

#include "metrics/adm/adm.hpp"

namespace vq::adm {
namespace {

constexpr float one_third = 1.0f / 3.0f;

// glibc's powf on floats, as the reference calls it (std::pow(float, float) would do too; this
// makes the single-precision call impossible to miss).
float cube_root(float x) { return ::powf(x, one_third); }

// The noise-floor term powf(f32(area * nw), 1/3) of §9.4 and §10.
float noise_floor(std::int64_t area, double noise_weight) {
    return cube_root(float(double(area) * noise_weight));
}

// §9.4: one masked total -> F_b.
float masked_total(std::int64_t acc, int scale, int cube_shift, int row_shift, int band) {
    if (scale == 0) {
        const int exponent = (band == 2 ? 57 : 52) - cube_shift - row_shift;
        return float(double(acc) / std::ldexp(1.0, exponent));
    }
    constexpr int g[4] = {0, 45, 39, 36};
    return float(acc) / std::ldexp(1.0f, g[scale] - cube_shift - row_shift);
}

// §9.4: CM_s = (n_h + n_v) + n_d.
float contrast_masked(const std::array<std::int64_t, 3>& acc, const ScaleGeometry& g, int scale,
                      float floor) {
    float n[3];
    for (int b = 0; b < 3; ++b)
        n[b] = cube_root(masked_total(acc[b], scale, g.cube_shift[b], g.row_shift, b)) + floor;
    return (n[0] + n[1]) + n[2];
}

// §10: DEN_s.
float denominator(const std::array<std::uint64_t, 3>& acc, const ScaleGeometry& g, int scale,
                  const CsfFactors& factors, float floor) {
    constexpr int k[4] = {0, 32, 27, 23};
    const int exponent =
        scale == 0 ? 18 - g.den_row_shift : k[scale] - g.den_row_shift - g.den_col_shift;
    float d[3];
    for (int b = 0; b < 3; ++b) {
        const float f = b == 2 ? factors.d[scale] : factors.hv[scale];
        const double csf = (double(acc[b]) / std::ldexp(1.0, exponent)) * std::pow(double(f), 3.0);
        d[b] = cube_root(float(csf)) + floor;
    }
    return (d[0] + d[1]) + d[2];
}

}  // namespace

FrameScores score_frame(const Block& block, const Config& config) {
    const Options& options = config.options;
    FrameScores out;
    for (int s = 0; s < scale_count; ++s) {
        const ScaleGeometry& g = config.geometry[s];
        const ScaleSums& sums = block.scales[s];
        if (s == 0 && options.skip_scale0) {
            out.den[s] = float(1e-10);  // §11.2: num_0 and aimnum_0 stay 0
            continue;
        }
        const float floor = noise_floor(g.area, options.noise_weight);
        out.den[s] = denominator(sums.den, g, s, config.factors, floor);
        out.num[s] = contrast_masked(sums.dlm, g, s, floor);
        if (!options.skip_aim)
            out.aim_num[s] = contrast_masked(sums.aim, g, s, noise_floor(g.area, 0.0));
    }

    for (int s = 0; s < scale_count; ++s) {
        out.num_total += double(out.num[s]);
        out.den_total += double(out.den[s]);
        out.aim_total += double(out.aim_num[s]);
        out.scale_score[s] = double(out.num[s]) / double(out.den[s]);
    }
    const double limit = 1e-10 * (config.width * config.height) / (1920.0 * 1080.0);
    if (out.num_total < limit) out.num_total = 0;
    if (out.den_total < limit) out.den_total = 0;
    if (out.den_total == 0) {
        // The reference leaves aim uninitialised here (spec §14.10); 0 is what vq reports.
        out.adm2 = 1.0;
        out.aim = 0.0;
    } else {
        out.adm2 = out.num_total / out.den_total;
        out.aim = out.aim_total / out.den_total;
    }
    out.adm3 = std::max(out.adm2 * options.dlm_weight + (1 - out.aim) * (1 - options.dlm_weight),
                        options.min_val);
    return out;
}

}  // namespace vq::adm
