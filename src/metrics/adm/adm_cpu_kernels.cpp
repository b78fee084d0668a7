// The row kernels compiled for the baseline instruction set and, on x86-64 with GCC, again for
// AVX2 and AVX-512, chosen at run time.
#include "metrics/adm/adm_cpu_kernels.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <limits>

#include "metrics/adm/adm_div_table.hpp"

#define VQ_VARIANT_NAMESPACE vq::adm
#define VQ_VARIANT_SOURCE "metrics/adm/adm_cpu_variant.hpp"
#define VQ_VARIANT_WIDEST_BITS 512
#include "metrics/toolkit/cpu_variants.hpp"
