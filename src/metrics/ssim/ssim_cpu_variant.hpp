// One variant of the CPU twin's hot loops: compiled once per instruction set by
// metrics/toolkit/cpu_variants.hpp (no include guard). The baseline loops over ssim_cpu_terms.hpp
// element by element; the vector variants are ssim_cpu_simd.hpp.
#if VQ_SIMD_BITS == 0
void weighted_sum_row(const float* const* sources, const float* weights, int taps, int width,
                      float* out) {
    for (int x = 0; x < width; ++x) out[x] = weighted_sum(sources, weights, taps, x);
}

void accumulate_terms_row(const MomentRows& rows, int width, Sums& sums) {
    for (int x = 0; x < width; ++x)
        accumulate(terms(rows.mu_r[x], rows.mu_d[x], rows.e_rr[x], rows.e_dd[x], rows.e_rd[x]),
                   sums);
}
#else
#include "metrics/ssim/ssim_cpu_simd.hpp"
#endif

constexpr Kernels kernels{VQ_VARIANT_NAME, weighted_sum_row, accumulate_terms_row};
