// One output element of each hot loop, exactly as the spec orders its operations: the baseline
// kernels loop over these, and the vector kernels use them for the columns a vector does not
// cover, so the two cannot drift apart.
#pragma once

#include <cmath>

#include "metrics/ssim/ssim_cpu_kernels.hpp"
#include "metrics/ssim/ssim_tables.hpp"

namespace vq::ssim {

// Spec §5 / §7.1 for output x: products rounded to float, summed in double in tap order.
inline float weighted_sum(const float* const* sources, const float* weights, int taps, int x) {
    double sum = 0;
    for (int t = 0; t < taps; ++t) sum += double(sources[t][x] * weights[t]);
    return float(sum);
}

struct Terms {
    double l;
    double c;
    double s;
};

// Spec §6.2: float and double exactly as marked there.
inline Terms terms(float mu_r, float mu_d, float e_rr, float e_dd, float e_rd) {
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

// Spec §6.3.
inline void accumulate(const Terms& t, Sums& sums) {
    sums.ssim += (t.l * t.c) * t.s;
    sums.l += t.l;
    sums.c += t.c;
    sums.s += t.s;
}

}  // namespace vq::ssim
