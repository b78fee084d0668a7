// DeltaERow: the ΔE00 kernel instantiated once for the baseline instruction set and, on x86-64
// with GCC, once more for AVX2, chosen at run time.
#include "metrics/ciede/ciede_delta_e_row.hpp"

#include <math.h>

#include <bit>
#include <cstdint>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace vq::ciede {

DeltaEScratch::DeltaEScratch(int padded_width)
    : L1(padded_width), a1(padded_width), b1(padded_width), L2(padded_width), a2(padded_width),
      b2(padded_width), c1(padded_width), c2(padded_width), a1p(padded_width),
      a2p(padded_width), c1p(padded_width), c2p(padded_width), mean_cp(padded_width),
      h1(padded_width), h2(padded_width), delta_hp(padded_width), mean_h(padded_width),
      t(padded_width), r_t(padded_width), delta_e(padded_width) {}

#define VQ_CIEDE_SIMD 0
namespace {
namespace baseline {
#include "metrics/ciede/ciede_simd.hpp"
#include "metrics/ciede/ciede_fast_math.hpp"
#include "metrics/ciede/ciede_delta_e_kernel.hpp"
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
#include "metrics/ciede/ciede_simd.hpp"
#include "metrics/ciede/ciede_fast_math.hpp"
#include "metrics/ciede/ciede_delta_e_kernel.hpp"
}  // namespace avx2
}  // namespace
#pragma GCC pop_options
#else
#define VQ_CIEDE_AVX2 0
#endif

namespace {

using Kernel = void (*)(DeltaEScratch&, int);

Kernel best_kernel() {
#if VQ_CIEDE_AVX2
    if (__builtin_cpu_supports("avx2")) return avx2::delta_e_row_kernel;
#endif
    return baseline::delta_e_row_kernel;
}

}  // namespace

DeltaERow::DeltaERow(int width)
    : width_(width), padded_width_((width + 3) / 4 * 4), scratch_(padded_width_),
      kernel_(best_kernel()) {}

std::span<const float> DeltaERow::compute() {
    kernel_(scratch_, padded_width_);
    return std::span<const float>(scratch_.delta_e).first(width_);
}

}  // namespace vq::ciede
