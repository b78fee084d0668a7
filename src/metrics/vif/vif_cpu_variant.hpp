// One variant of VIF's two heavy stages: compiled once per instruction set by
// metrics/toolkit/cpu_variants.hpp (no include guard). The baseline is the plain stages of
// vif_cpu_stages.hpp; the vector variants are vif_cpu_simd.hpp at the variant's width.
#if VQ_SIMD_BITS == 0
void fixed_log2_of(const double* values, std::int64_t* out, std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) out[i] = fixed_log2(std::uint64_t(values[i]));
}

constexpr Kernels kernels{
    VQ_VARIANT_NAME,        scale_statistics<std::uint8_t>, scale_statistics<std::uint16_t>,
    decimate<std::uint8_t>, decimate<std::uint16_t>,        fixed_log2_of};
#else
#include "metrics/vif/vif_cpu_simd.hpp"

constexpr Kernels kernels{VQ_VARIANT_NAME,
                          statistics_any_scale<std::uint8_t>,
                          statistics_any_scale<std::uint16_t>,
                          decimate_any_scale<std::uint8_t>,
                          decimate_any_scale<std::uint16_t>,
                          fixed_log2_of};
#endif
