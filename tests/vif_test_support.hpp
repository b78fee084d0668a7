// Helpers for the VIF tests: the worked-example frames of spec/vmaf.md §9.1 and a direct path
// to the stages and the CPU twin.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "metrics/vif/vif.hpp"
#include "metrics/vif/vif_kernels.hpp"
#include "metrics/vif/vif_pyramid.hpp"
#include "support/pictures.hpp"
#include "vq/options.hpp"
#include "vq/picture.hpp"

namespace vq::test {

// Floor division and non-negative modulo, as §9.1 defines them.
inline int floor_div(int a, int b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }
inline int non_negative_mod(int a, int b) { return ((a % b) + b) % b; }

// The luma samples of §9.1 at frame t, column x, row y.
inline int example_ref8(int t, int x, int y) {
    if (y >= 48) return 100 + floor_div(x + t, 16);
    const int xt = x + t;
    return 2 * x + y + 3 * t + non_negative_mod(7 * xt * xt + 3 * y * y + 5 * xt * y, 61);
}

inline int example_dist8(int t, int x, int y) {
    const int r = example_ref8(t, x, y);
    const int n = non_negative_mod(37 * x + 61 * y + 17 * t, 9) - 4;
    int d;
    if (y >= 48)
        d = r + floor_div(n, 2);
    else if (x < 32)
        d = r + n;
    else if (x < 56)
        d = r + floor_div(r - 128, 8) + n;
    else
        d = 255 - r + n;
    return std::clamp(d, 0, 255);
}

inline int example_ref10(int t, int x, int y) {
    return 4 * example_ref8(t, x, y) + (x + 2 * y + t) % 4;
}
inline int example_dist10(int t, int x, int y) {
    return 4 * example_dist8(t, x, y) + (3 * x + y) % 4;
}

// A 4:2:0 picture of the given size whose luma is luma(x, y); chroma is mid-grey (unused by VIF).
template <typename Luma>
Picture luma_picture(int width, int height, int bit_depth, Luma luma) {
    return make_picture({width, height, bit_depth, ChromaFormat::yuv420}, [&](int p, int y, int x) {
        return p == 0 ? luma(x, y) : 1 << (bit_depth - 1);
    });
}

// Frame t of §9.1 (8 or 10 bits), cropped to width x height (§9.6 uses the top-left 37x29).
inline std::pair<Picture, Picture> example_frames(int t, int bit_depth, int width = 64,
                                                  int height = 64) {
    if (bit_depth == 8)
        return {
            luma_picture(width, height, 8, [t](int x, int y) { return example_ref8(t, x, y); }),
            luma_picture(width, height, 8, [t](int x, int y) { return example_dist8(t, x, y); })};
    return {luma_picture(width, height, bit_depth,
                         [t](int x, int y) { return example_ref10(t, x, y); }),
            luma_picture(width, height, bit_depth,
                         [t](int x, int y) { return example_dist10(t, x, y); })};
}

inline vif::Options vif_options(double gain_limit = 100.0, bool skip_scale0 = false) {
    vif::Options options;
    options.enhancement_gain_limit = gain_limit;
    options.skip_scale0 = skip_scale0;
    return options;
}

// The block of one frame pair with the given variant.
inline vif::Block vif_block(const Picture& ref, const Picture& dist, const vif::Options& options,
                            const vif::Kernels& kernels) {
    const int bit_depth = ref.format().bit_depth;
    if (bit_depth > 8)
        return vif::compute_block(ref.plane<std::uint16_t>(0), dist.plane<std::uint16_t>(0),
                                  bit_depth, options, kernels);
    return vif::compute_block(ref.plane<std::uint8_t>(0), dist.plane<std::uint8_t>(0), bit_depth,
                              options, kernels);
}

inline const vif::Kernels& plain_kernels() { return vif::available_kernels().back(); }

}  // namespace vq::test
