// One variant of the CPU twin's row kernel: compiled once per instruction set by
// metrics/toolkit/cpu_variants.hpp (no include guard). The baseline works one block at a time
// through the scalar block math; the vector variants one block per lane (psnr_hvs_cpu_simd.hpp).
#if VQ_SIMD_BITS == 0
inline constexpr int lanes = 1;

template <typename Sample>
void row_terms(const PlaneView<Sample>& reference, const PlaneView<Sample>& distorted, int y,
               const PlaneTables& tables, float* terms) {
    const int blocks = block_count(reference.width);
    for (int k = 0; k < blocks; ++k) {
        scalar::BlockSamples reference_samples, distorted_samples;
        for (int r = 0; r < 8; ++r)
            for (int c = 0; c < 8; ++c) {
                reference_samples[r * 8 + c] = reference.at(y + r, k * block_step + c);
                distorted_samples[r * 8 + c] = distorted.at(y + r, k * block_step + c);
            }
        scalar::block_terms(reference_samples, distorted_samples, tables, terms + 64 * k);
    }
}
#else
#include "metrics/psnr_hvs/psnr_hvs_cpu_simd.hpp"
#endif

constexpr Kernels kernels{VQ_VARIANT_NAME, lanes, row_terms<std::uint8_t>,
                          row_terms<std::uint16_t>};
