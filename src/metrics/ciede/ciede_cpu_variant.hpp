// One variant of the CPU twin's vector kernels: compiled once per instruction set by
// metrics/toolkit/cpu_variants.hpp (no include guard).
#include "metrics/ciede/ciede_cpu_simd.hpp"
#include "metrics/ciede/ciede_colour_steps.hpp"
#include "metrics/ciede/ciede_cpu_fast_math.hpp"
#include "metrics/ciede/ciede_cpu_delta_e_kernel.hpp"
#include "metrics/ciede/ciede_cpu_lab_kernel.hpp"

constexpr Kernels kernels{VQ_VARIANT_NAME, delta_e_kernel, lab_kernel};
