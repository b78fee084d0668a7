// The CPU twin's per-pixel loops, instantiated once for the baseline instruction set and, on
// x86-64 with GCC, once more for AVX2, chosen at run time (as ciede_cpu_kernels.cpp does).

#include "metrics/cambi/cambi_cpu_kernels.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <vector>

#include "core/cpu_isa.hpp"
#include "metrics/cambi/cambi_cpu.hpp"
#include "metrics/cambi/cambi_lut.hpp"

// Helpers are inlined into each variant, so that they are compiled for its instruction set.
#define VQ_CAMBI_INLINE [[gnu::always_inline]] inline

namespace vq::cambi {

namespace {
namespace baseline {
#include "metrics/cambi/cambi_cpu_mask_kernel.hpp"
#include "metrics/cambi/cambi_cpu_cvalues_kernel.hpp"
#include "metrics/cambi/cambi_cpu_pooling_kernel.hpp"
}  // namespace baseline
}  // namespace

// GCC's target pragma compiles a region for another instruction set (Clang lacks it).
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define VQ_CAMBI_AVX2 1
#pragma GCC push_options
#pragma GCC target("avx2")
namespace {
namespace avx2 {
#include "metrics/cambi/cambi_cpu_mask_kernel.hpp"
#include "metrics/cambi/cambi_cpu_cvalues_kernel.hpp"
#include "metrics/cambi/cambi_cpu_pooling_kernel.hpp"
}  // namespace avx2
}  // namespace
#pragma GCC pop_options
#else
#define VQ_CAMBI_AVX2 0
#endif

std::span<const Kernels> available_kernels() {
    static const std::vector<Kernels> variants = [] {
        std::vector<Kernels> found;
#if VQ_CAMBI_AVX2
        if (cpu_runs_avx2())
            found.push_back(
                {"avx2", avx2::spatial_mask, avx2::mode_filter, avx2::c_values, avx2::summarise});
#endif
        found.push_back({"baseline", baseline::spatial_mask, baseline::mode_filter,
                         baseline::c_values, baseline::summarise});
        return found;
    }();
    return variants;
}

void spatial_mask(const std::uint16_t* plane, int width, int height, int threshold,
                  std::uint8_t* mask) {
    kernels().spatial_mask(plane, width, height, threshold, mask);
}

void mode_filter(std::uint16_t* plane, int width, int height) {
    kernels().mode_filter(plane, width, height);
}

void c_values(const std::uint16_t* image, const std::uint8_t* mask, int width, int height,
              int window, const ContrastParams& contrast, float* out) {
    kernels().c_values(image, mask, width, height, window, contrast, out);
}

}  // namespace vq::cambi
