// The CPU twin's per-pixel loops, compiled once per instruction set: the baseline one and, on
// x86-64 with GCC, AVX2 as well. All variants are exact integer or order-preserving float code,
// so they give the same bits; kernels() is the best the CPU runs, and the tests run every variant.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>

#include "metrics/cambi/cambi.hpp"

namespace vq::cambi {

// §11.1: what the top-k mean needs to know of the values above a bound.
struct PoolingSummary {
    std::size_t nonzero = 0;
    double sum = 0;
    float smallest_nonzero = INFINITY;
};

struct Kernels {
    const char* instruction_set;
    // The stages of cambi_cpu.hpp of the same names.
    void (*anti_dither)(std::uint16_t* plane, int width, int height);
    void (*spatial_mask)(const std::uint16_t* plane, int width, int height, int threshold,
                         std::uint8_t* mask);
    void (*mode_filter)(std::uint16_t* plane, int width, int height);
    void (*c_values)(const std::uint16_t* image, const std::uint8_t* mask, int width, int height,
                     int window, const ContrastParams& contrast, float* out);
    // The count, sum and smallest of the non-zero values > above (above = -1: all of them).
    PoolingSummary (*summarise)(std::span<const float> c, float above);
};

// Every variant this CPU runs, best first.
std::span<const Kernels> available_kernels();

inline const Kernels& kernels() { return available_kernels().front(); }

}  // namespace vq::cambi
