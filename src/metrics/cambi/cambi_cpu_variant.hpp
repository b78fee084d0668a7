// One variant of the CPU twin's per-pixel loops: compiled once per instruction set by
// metrics/toolkit/cpu_variants.hpp (no include guard).
#include "metrics/cambi/cambi_cpu_dither_kernel.hpp"
#include "metrics/cambi/cambi_cpu_mask_kernel.hpp"
#include "metrics/cambi/cambi_cpu_cvalues_kernel.hpp"
#include "metrics/cambi/cambi_cpu_pooling_kernel.hpp"

constexpr Kernels kernels{VQ_VARIANT_NAME, anti_dither, spatial_mask,
                          mode_filter,     c_values,    summarise};
