// The row kernels compiled for the baseline instruction set and, on x86-64 with GCC, again for
// AVX2 and AVX-512, chosen at run time.
#include "metrics/motion/motion_cpu_kernels.hpp"

#include <cstdint>
#include <cstring>

#include "metrics/motion/motion.hpp"

#define VQ_VARIANT_NAMESPACE vq::motion
#define VQ_VARIANT_SOURCE "metrics/motion/motion_cpu_variant.hpp"
#define VQ_VARIANT_WIDEST_BITS 512
#include "metrics/toolkit/cpu_variants.hpp"
