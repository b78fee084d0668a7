// The vector kernels, instantiated once for the baseline instruction set and, on x86-64 with
// GCC, once more for AVX2, chosen at run time; and their scratch.

#include "metrics/ciede/ciede_cpu_kernels.hpp"

#include <math.h>

#include <bit>
#include <cstdint>

namespace vq::ciede {

DeltaEScratch::DeltaEScratch(int capacity)
    : L1(padded_size(capacity)),
      a1(L1.size()),
      b1(L1.size()),
      L2(L1.size()),
      a2(L1.size()),
      b2(L1.size()),
      c1(L1.size()),
      c2(L1.size()),
      a1p(L1.size()),
      a2p(L1.size()),
      c1p(L1.size()),
      c2p(L1.size()),
      mean_cp(L1.size()),
      mean_cp_7(L1.size()),
      h1(L1.size()),
      h2(L1.size()),
      delta_hp(L1.size()),
      mean_h(L1.size()),
      t(L1.size()),
      r_t(L1.size()),
      delta_e(L1.size()) {}

LabBatch::LabBatch(int capacity)
    : y(padded_size(capacity)), cb(y.size()), cr(y.size()), L(y.size()), a(y.size()), b(y.size()) {}

}  // namespace vq::ciede

#define VQ_VARIANT_NAMESPACE vq::ciede
#define VQ_VARIANT_SOURCE "metrics/ciede/ciede_cpu_variant.hpp"
#define VQ_VARIANT_WIDEST_BITS 256
#include "metrics/toolkit/cpu_variants.hpp"
