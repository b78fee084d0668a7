// The 64x64 three-frame sequence of spec/vmaf.md §9.1 (texture, noise, contrast gain, an
// inverted block and a flat band), at 8 or 10 bits, optionally cut to an odd size (§9.6).
#pragma once

#include <cstdint>

#include "vq/picture.hpp"

namespace vq::test {

inline int floor_div(int a, int b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }
inline int positive_mod(int a, int b) { return ((a % b) + b) % b; }

inline int vmaf_example_reference8(int t, int x, int y) {
    if (y >= 48) return 100 + (x + t) / 16;
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

// Frame t of the reference (distorted = false) or distorted sequence, luma as §9.1 defines it
// and flat chroma (128 or 512).
inline Picture vmaf_example_frame(int t, bool distorted, int bit_depth = 8, int width = 64,
                                  int height = 64) {
    Picture picture = Picture::allocate({width, height, bit_depth, ChromaFormat::yuv420});
    const auto luma = [&](int x, int y) {
        const int v8 =
            distorted ? vmaf_example_distorted8(t, x, y) : vmaf_example_reference8(t, x, y);
        if (bit_depth == 8) return v8;
        return 4 * v8 + (distorted ? positive_mod(3 * x + y, 4) : positive_mod(x + 2 * y + t, 4));
    };
    const VideoFormat& format = picture.format();
    for (int p = 0; p < format.plane_count(); ++p)
        for (int y = 0; y < format.plane_height(p); ++y)
            for (int x = 0; x < format.plane_width(p); ++x) {
                const int value = p == 0 ? luma(x, y) : (bit_depth == 8 ? 128 : 512);
                const std::size_t at =
                    std::size_t(y) * std::size_t(format.plane_width(p)) + std::size_t(x);
                if (bit_depth == 8)
                    picture.plane_data<std::uint8_t>(p)[at] = std::uint8_t(value);
                else
                    picture.plane_data<std::uint16_t>(p)[at] = std::uint16_t(value);
            }
    return picture;
}

}  // namespace vq::test
