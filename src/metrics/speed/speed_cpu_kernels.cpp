// The plain loops of speed_cpu_rows.hpp compiled for the baseline and, on x86-64 with GCC, again
// for AVX2 and AVX-512, chosen at run time. Floating-point contraction is off everywhere, so the
// wider vectors change nothing but the speed.
#include "metrics/speed/speed_cpu_kernels.hpp"

#define VQ_VARIANT_NAMESPACE vq::speed
#define VQ_VARIANT_SOURCE "metrics/speed/speed_cpu_variant.hpp"
#define VQ_VARIANT_WIDEST_BITS 512
#include "metrics/toolkit/cpu_variants.hpp"
