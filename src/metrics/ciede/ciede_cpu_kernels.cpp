// The vector kernels, instantiated once for the baseline instruction set and, on x86-64 with
// GCC, once more for AVX2, chosen at run time.

#include "core/cpu_isa.hpp"
#include "metrics/ciede/ciede_cpu_kernels.hpp"

#include <math.h>

#include <bit>
#include <cstdint>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

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

#define VQ_CIEDE_SIMD 0
namespace {
namespace baseline {
#include "metrics/ciede/ciede_cpu_simd.hpp"
#include "metrics/ciede/ciede_colour_steps.hpp"
#include "metrics/ciede/ciede_cpu_fast_math.hpp"
#include "metrics/ciede/ciede_cpu_delta_e_kernel.hpp"
#include "metrics/ciede/ciede_cpu_lab_kernel.hpp"
}  // namespace baseline
}  // namespace

// GCC's target pragma compiles a region for another instruction set (Clang lacks it). It does
// not define __AVX2__ and the like for C++, hence VQ_CIEDE_SIMD.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define VQ_CIEDE_AVX2 1
#pragma GCC push_options
#pragma GCC target("avx2")
#undef VQ_CIEDE_SIMD
#define VQ_CIEDE_SIMD 256
namespace {
namespace avx2 {
#include "metrics/ciede/ciede_cpu_simd.hpp"
#include "metrics/ciede/ciede_colour_steps.hpp"
#include "metrics/ciede/ciede_cpu_fast_math.hpp"
#include "metrics/ciede/ciede_cpu_delta_e_kernel.hpp"
#include "metrics/ciede/ciede_cpu_lab_kernel.hpp"
}  // namespace avx2
}  // namespace
#pragma GCC pop_options
#else
#define VQ_CIEDE_AVX2 0
#endif

std::span<const Kernels> available_kernels() {
    static const std::vector<Kernels> variants = [] {
        std::vector<Kernels> found;
#if VQ_CIEDE_AVX2
        if (cpu_runs_avx2()) found.push_back({"avx2", avx2::delta_e_kernel, avx2::lab_kernel});
#endif
        found.push_back({"baseline", baseline::delta_e_kernel, baseline::lab_kernel});
        return found;
    }();
    return variants;
}

}  // namespace vq::ciede
