// SpEED's prescale (spec/speed.md §5) as per-axis tables: each destination column and row gets its
// source indices (mirrored) and weights once per run, on the host (lanczos4's weights call sin, so
// the device never evaluates them), and both twins combine them per sample with
// prescaled_sample(), in the spec's order.
#pragma once

#include <vector>

#include "cuda/host_device.hpp"
#include "metrics/speed/speed.hpp"

namespace vq::speed {

inline constexpr int max_prescale_taps = 9;  // lanczos4: offsets -4..4

struct PrescaleAxis {
    int taps = 1;
    std::vector<int> index;     // [destination · taps + t]: a source index
    std::vector<float> weight;  // the same layout; nearest's are 1
};

// The axis of `size` destination samples read from `source_size` ones.
PrescaleAxis prescale_axis(PrescaleMethod method, int source_size, int size);

// One destination sample from the source plane (rows `stride` apart) and the destination column's
// (ix, wx) and row's (iy, wy) table entries.
template <PrescaleMethod method>
VQ_HD float prescaled_sample(const float* source, int stride, const int* ix, const float* wx,
                             const int* iy, const float* wy) {
    const auto at = [&](int y, int x) { return source[long(y) * stride + x]; };
    if constexpr (method == PrescaleMethod::nearest) {
        return at(iy[0], ix[0]);
    } else if constexpr (method == PrescaleMethod::bilinear) {
        // Weights (1 - d, d) per axis: a = (1 - dy)(1 - dx), b = (1 - dy) dx, c = dy (1 - dx),
        // e = dy dx, added left to right.
        const float a = wy[0] * wx[0], b = wy[0] * wx[1], c = wy[1] * wx[0], e = wy[1] * wx[1];
        return ((a * at(iy[0], ix[0]) + b * at(iy[0], ix[1])) + c * at(iy[1], ix[0])) +
               e * at(iy[1], ix[1]);
    } else {
        // Bicubic and lanczos4: separable weights, rows outer; lanczos4 divides by their sum.
        constexpr int taps = method == PrescaleMethod::bicubic ? 4 : 9;
        float value = 0.0f, weight_sum = 0.0f;
        for (int j = 0; j < taps; ++j)
            for (int i = 0; i < taps; ++i) {
                const float w = wx[i] * wy[j];
                weight_sum = weight_sum + w;
                value = value + at(iy[j], ix[i]) * w;
            }
        return method == PrescaleMethod::lanczos4 ? value / weight_sum : value;
    }
}

}  // namespace vq::speed
