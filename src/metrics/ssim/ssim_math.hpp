// The per-position terms of spec §6.2, one function both twins call (VQ_HD), so the CUDA twin's
// terms are the CPU twin's bits: float and double operations exactly as the spec marks them,
// without contraction (-ffp-contract=off, nvcc --fmad=false). Every operation is IEEE and
// correctly rounded on both (float/double division and square root; nvcc's defaults
// -prec-div=true -prec-sqrt=true), so no libm function is involved.
#pragma once

#include <cmath>

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
