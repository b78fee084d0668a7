// The 64x64 three-frame sequence of spec/vmaf.md §9.1 (texture, noise, contrast gain, an
// inverted block and a flat band), at 8 or 10 bits, optionally cut to an odd size (§9.6): the
// one definition the VIF, ADM-free VMAF and motion tests share.
#pragma once

#include <utility>

#include "support/pictures.hpp"
#include "vq/picture.hpp"

namespace vq::test {

// Floor division and non-negative modulo, as §9.1 defines them.
inline int floor_div(int a, int b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }
inline int positive_mod(int a, int b) { return ((a % b) + b) % b; }

inline int vmaf_example_reference8(int t, int x, int y) {
    if (y >= 48) return 100 + floor_div(x + t, 16);
    const int xt = x + t;
    return 2 * x + y + 3 * t + positive_mod(7 * xt * xt + 3 * y * y + 5 * xt * y, 61);
}

inline int vmaf_example_distorted8(int t, int x, int y) {
    const int r = vmaf_example_reference8(t, x, y);
    const int n = positive_mod(37 * x + 61 * y + 17 * t, 9) - 4;
    int d;
    if (y >= 48)
        d = r + floor_div(n, 2);
    else if (x < 32)
        d = r + n;
    else if (x < 56)
        d = r + floor_div(r - 128, 8) + n;
    else
        d = 255 - r + n;
    return d < 0 ? 0 : d > 255 ? 255 : d;
}

// Luma sample (x, y) of frame t of the reference (distorted = false) or distorted sequence.
inline int vmaf_example_luma(int t, bool distorted, int bit_depth, int x, int y) {
    const int v8 = distorted ? vmaf_example_distorted8(t, x, y) : vmaf_example_reference8(t, x, y);
    if (bit_depth == 8) return v8;
    return 4 * v8 + (distorted ? positive_mod(3 * x + y, 4) : positive_mod(x + 2 * y + t, 4));
}

// Frame t as a 4:2:0 picture: the luma above, flat mid-grey chroma (128 or 512).
inline Picture vmaf_example_frame(int t, bool distorted, int bit_depth = 8, int width = 64,
                                  int height = 64) {
    return luma_picture(width, height, bit_depth, [&](int x, int y) {
        return vmaf_example_luma(t, distorted, bit_depth, x, y);
    });
}

// Frame t of both sequences: (reference, distorted).
inline std::pair<Picture, Picture> vmaf_example_pair(int t, int bit_depth = 8, int width = 64,
                                                     int height = 64) {
    return {vmaf_example_frame(t, false, bit_depth, width, height),
            vmaf_example_frame(t, true, bit_depth, width, height)};
}

}  // namespace vq::test
