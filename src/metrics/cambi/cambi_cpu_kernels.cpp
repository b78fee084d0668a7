// The CPU twin's per-pixel loops, compiled for the baseline instruction set and, on x86-64 with
// GCC, once more for AVX2, chosen at run time.

#include "metrics/cambi/cambi_cpu_kernels.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>

#include "metrics/cambi/cambi_cpu.hpp"
#include "metrics/cambi/cambi_lut.hpp"

#define VQ_VARIANT_NAMESPACE vq::cambi
#define VQ_VARIANT_SOURCE "metrics/cambi/cambi_cpu_variant.hpp"
#define VQ_VARIANT_WIDEST_BITS 256
#include "metrics/toolkit/cpu_variants.hpp"

namespace vq::cambi {

void anti_dither(std::uint16_t* plane, int width, int height) {
    kernels().anti_dither(plane, width, height);
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
