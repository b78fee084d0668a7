// The per-position terms of spec §6.2, one function both twins call (VQ_HD), so the CUDA twin's
// terms are the CPU twin's bits: float and double operations exactly as the spec marks them,
// without contraction (-ffp-contract=off, nvcc --fmad=false). Every operation is IEEE and
// correctly rounded on both (float/double division and square root; nvcc's defaults
// -prec-div=true -prec-sqrt=true), so no libm function is involved.
#pragma once

#include <cmath>
#include <cstddef>

#include "cuda/host_device.hpp"
#include "metrics/ssim/ssim_tables.hpp"

namespace vq::ssim {

// Spec §7.1's half-sample symmetric mirror (the edge sample repeated), applied once. Only planes
// under 5 samples across can still fall outside; their decimated values never reach a score
// (§7.4), and the clamp keeps the read inside the plane.
VQ_HD inline int half_sample_mirror(int i, int n) {
    if (i < 0) i = -1 - i;
    if (i >= n) i = 2 * n - 1 - i;
    return i < 0 ? 0 : i > n - 1 ? n - 1 : i;
}

// Spec §7.1 for output (x, y): input (f*x + k - a, f*y + v - a) for tap (v, k), v outer, k
// inner, each sample times `reciprocal` as it is read, each product rounded to float and summed in
// double. weight(v, k) is the kernel's entry.
template <typename Sample, typename Weight>
VQ_HD float decimated_sample(const Sample* in, int width, int height, float reciprocal, int factor,
                             int taps, const Weight& weight, int x, int y) {
    const int a = taps / 2;
    double sum = 0;
    for (int v = 0; v < taps; ++v) {
        const Sample* row =
            in + std::size_t(half_sample_mirror(factor * y + v - a, height)) * std::size_t(width);
        for (int k = 0; k < taps; ++k) {
            const float sample =
                float(row[half_sample_mirror(factor * x + k - a, width)]) * reciprocal;
            sum += double(sample * weight(v, k));
        }
    }
    return float(sum);
}

// The five moments of spec §6.1 (R, D, R*R, D*D, R*D), blurred horizontally (§5 step 1) at the
// position whose window starts at r[0], d[0]; g holds the 11 taps.
VQ_HD inline void horizontal_moments(const float* r, const float* d, const float* g,
                                     float* moments) {
    double sums[5] = {0, 0, 0, 0, 0};
    for (int t = 0; t < 11; ++t) {
        const float rt = r[t], dt = d[t];
        sums[0] += double(rt * g[t]);
        sums[1] += double(dt * g[t]);
        sums[2] += double((rt * rt) * g[t]);
        sums[3] += double((dt * dt) * g[t]);
        sums[4] += double((rt * dt) * g[t]);
    }
    for (int m = 0; m < 5; ++m) moments[m] = float(sums[m]);
}

// Spec §5 step 2: the column starting at `column`, rows `stride` apart, blurred vertically.
VQ_HD inline float vertical_moment(const float* column, std::size_t stride, const float* g) {
    double sum = 0;
    for (int t = 0; t < 11; ++t) sum += double(column[std::size_t(t) * stride] * g[t]);
    return float(sum);
}

struct Terms {
    double l;
    double c;
    double s;
};

// Spec §6.2: float and double exactly as marked there.
VQ_HD inline Terms terms(float mu_r, float mu_d, float e_rr, float e_dd, float e_rd) {
    const float mu_rr = mu_r * mu_r;
    const float mu_dd = mu_d * mu_d;
    float var_r = e_rr - mu_rr;
    if (var_r < 0) var_r = 0;
    float var_d = e_dd - mu_dd;
    if (var_d < 0) var_d = 0;
    float cov = e_rd - mu_r * mu_d;
    // The correctly rounded float square root equals f32(sqrt(d(product))).
    const float sd = std::sqrt(var_r * var_d);
    const double l = (2 * double(mu_r) * double(mu_d) + double(c1)) / double((mu_rr + mu_dd) + c1);
    const double c = (2 * double(sd) + double(c2)) / double((var_r + var_d) + c2);
    // Flat regions: the clamped variances are 0 while cov stays slightly negative (§6.2).
    if (cov < 0 && sd <= 0) cov = 0;
    const float s = (cov + c3) / (sd + c3);
    return {l, c, double(s)};
}

}  // namespace vq::ssim
