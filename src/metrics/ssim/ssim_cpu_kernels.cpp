// The hot loops compiled for the baseline instruction set and, on x86-64 with GCC, again for AVX2
// and AVX-512, chosen at run time.
#include "metrics/ssim/ssim_cpu_kernels.hpp"

#include <cstring>

#include "metrics/ssim/ssim_cpu_terms.hpp"

#define VQ_VARIANT_NAMESPACE vq::ssim
#define VQ_VARIANT_SOURCE "metrics/ssim/ssim_cpu_variant.hpp"
#define VQ_VARIANT_WIDEST_BITS 512
#include "metrics/toolkit/cpu_variants.hpp"
