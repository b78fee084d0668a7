// One variant of the CPU twin's vector-friendly stages: compiled once per instruction set by
// metrics/toolkit/cpu_variants.hpp (no include guard).
#if VQ_SIMD_BITS == 512
// Ask for full-width vectors: GCC otherwise prefers 256-bit ones on AVX-512 targets. (The
// toolkit's pop_options after this variant ends it.)
#pragma GCC target("prefer-vector-width=512")
#endif
#include "metrics/speed/speed_cpu_rows.hpp"

constexpr Kernels kernels{VQ_VARIANT_NAME, vertical_row, covariance_sums, matrix_product};
