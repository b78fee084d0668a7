// SpEED's per-block arithmetic (spec/speed.md §8.7-§8.8, §9), one definition for both twins. The
// log2 is a parameter: the CPU twin passes glibc's (the reference's), the CUDA twin
// log2_rounded() (speed_log2.hpp). Build with -ffp-contract=off (-fmad=false for nvcc).
#pragma once

#include <math.h>  // the C functions by their C names, host and device alike

#include "cuda/host_device.hpp"

namespace vq::speed {

inline constexpr double log2_2pi_e = 0x1.06073a671183dp+2;  // log2(2·π·e), spec §8.8

// Spec §8.7: S_b = Σ_p (x_p ⊗ y_p) / 25, each term divided before adding; x and y hold the
// block's 25 values `stride` apart.
VQ_HD inline float block_variance(const float* x, const float* y, int stride) {
    float s = 0.0f;
    for (int p = 0; p < 25; ++p) s = s + (x[p * stride] * y[p * stride]) / 25.0f;
    return s;
}

// Spec §8.8: E_b, the eigenvalues added in their QR output order.
template <typename Log2>
VQ_HD float block_entropy(const float* lambda, float s, float sigma_nn, Log2 log2_of) {
    float e = 0.0f;
    for (int p = 0; p < 25; ++p) {
        const float positive = lambda[p] < 0.0f ? 0.0f : lambda[p];
        e = float(double(e) + (log2_of(double(positive * s + sigma_nn)) + log2_2pi_e));
    }
    return e;
}

// Spec §9: block b's term |S_R - S_D| of the channel's sum, 0 for a block whose entropies are
// both below `base` (adding +0 to the non-negative sum changes nothing, bit for bit).
template <typename Log2>
VQ_HD float block_term(float er, float ed, float vr, float vd, int weight_mode, float base,
                       Log2 log2_of) {
    if (er < base && ed < base) return 0.0f;
    const auto l = [&](float v) { return log2_of(double(1.0f + v)); };  // log of a float sum
    const auto big_l = [&](double z) { return log2_of(1.0 + z); };      // log of a double sum
    double wr = 0, wd = 0;
    switch (weight_mode) {
    case 0: wr = l(vr), wd = l(vd); break;
    case 1: wr = wd = l(vr); break;
    case 2: wr = wd = l(vd); break;
    case 3: wr = wd = big_l(double(vr + vd) / 2.0); break;
    case 4: wr = l(vr), wd = big_l(double(vr + vd) / 2.0); break;
    case 5: wr = l(vr), wd = big_l(0.75 * double(vr) + 0.25 * double(vd)); break;
    case 6: wr = l(vr), wd = big_l(0.25 * double(vr) + 0.75 * double(vd)); break;
    }
    const float sr = float(double(er) * wr), sd = float(double(ed) * wd);
    return fabsf(sr - sd);
}

// Spec §9: the base entropy below which a block is skipped (once per run, on the host).
inline float base_entropy(float sigma_nn, float nn_floor) {
    return float(25.0 * (log2(double((1.0f + nn_floor) * sigma_nn)) + log2_2pi_e));
}

}  // namespace vq::speed
