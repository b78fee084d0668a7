// The variants of SSIM's two hot loops, one per instruction set, chosen at run time: the weighted
// sum every filter of the metric is (the Gaussian blur's two passes and both decimations) and the
// per-position terms of the valid region. Every variant is bit-identical to the baseline: the
// vector ones compute many output elements at once, each with the baseline's operations in the
// baseline's order (the tests run every variant this CPU has against it).
#pragma once

#include <span>

namespace vq::ssim {

// The four running sums of spec §6.3, in double, over the valid region in row-major order.
struct Sums {
    double ssim = 0;
    double l = 0;
    double c = 0;
    double s = 0;
};

// One row of the five blurred moments of spec §6.1, each `width` long.
struct MomentRows {
    const float* mu_r;
    const float* mu_d;
    const float* e_rr;
    const float* e_dd;
    const float* e_rd;
};

struct Kernels {
    const char* instruction_set;

    // out[x] = f32( sum over t of d(sources[t][x] * weights[t]) ) for x in [0, width): each
    // product rounded to float, summed in double in tap order (spec §5 and §7.1).
    void (*weighted_sum_row)(const float* const* sources, const float* weights, int taps, int width,
                             float* out);

    // The per-position terms of spec §6.2 for x in [0, width), added to `sums` in column order.
    void (*accumulate_terms_row)(const MomentRows& rows, int width, Sums& sums);
};

// Every variant this CPU runs, best first; the last is the baseline.
std::span<const Kernels> available_kernels();

inline const Kernels& best_kernels() { return available_kernels().front(); }

}  // namespace vq::ssim
