// One output element of each hot loop, exactly as the spec orders its operations: the baseline
// kernels loop over these, and the vector kernels use them for the columns a vector does not
// cover, so the two cannot drift apart.
#pragma once

#include <cmath>

#include "metrics/ssim/ssim_cpu_kernels.hpp"
#include "metrics/ssim/ssim_math.hpp"
#include "metrics/ssim/ssim_tables.hpp"

namespace vq::ssim {

// Spec §5 / §7.1 for output x: products rounded to float, summed in double in tap order.
inline float weighted_sum(const float* const* sources, const float* weights, int taps, int x) {
    double sum = 0;
    for (int t = 0; t < taps; ++t) sum += double(sources[t][x] * weights[t]);
    return float(sum);
}

// Spec §6.3.
inline void accumulate(const Terms& t, Sums& sums) {
    sums.ssim += (t.l * t.c) * t.s;
    sums.l += t.l;
    sums.c += t.c;
    sums.s += t.s;
}

}  // namespace vq::ssim
