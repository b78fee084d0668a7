// The variant table: the plain stages, and the vector stages of vif_cpu_simd.hpp compiled for
// AVX2, AVX-512 and AVX-512 with VNNI on x86-64 with GCC, chosen at run time by what the CPU
// supports.
#include "metrics/vif/vif_cpu_kernels.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <utility>
#include <vector>

#include "metrics/vif/vif_cpu_stages.hpp"

#define VQ_VARIANT_NAMESPACE vq::vif
#define VQ_VARIANT_SOURCE "metrics/vif/vif_cpu_variant.hpp"
#define VQ_VARIANT_WIDEST_BITS 512
#define VQ_VARIANT_WITH_VNNI 1
#include "metrics/toolkit/cpu_variants.hpp"
