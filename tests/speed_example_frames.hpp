// The worked example's frames (spec/speed.md §14.1): 4:2:0, chroma of any size (256x176 in
// §14.2-§14.3, 512x352 in §14.4), 8-bit or the 10-bit variant, optionally with flat V planes.
#pragma once

#include <algorithm>

#include "support/pictures.hpp"
#include "vq/picture.hpp"

namespace vq::test {

struct SpeedExample {
    int chroma_width = 256;
    int chroma_height = 176;
    bool ten_bit = false;
    bool flat_v = false;
};

inline int speed_example_code(const SpeedExample& e, bool distorted, int plane, int y, int x) {
    const auto mod = [](int a, int m) { return (a % m + m) % m; };
    const auto floor_div = [](int a, int b) { return a >= 0 ? a / b : -((-a + b - 1) / b); };
    int v;
    if (plane == 0) {
        v = 16 + mod(3 * x + 5 * y, 200);
        if (distorted) v ^= 1;
        return e.ten_bit ? 4 * v + mod(x + y, 4) : v;
    }
    const int bx = x >> 3, by = y >> 3;
    if (plane == 1) {
        v = 128 + mod(5 * bx * bx + 3 * by * by + 7 * bx * by + 11 * bx + 13 * by, 41) - 20 +
            mod(x + 2 * y, 5) - 2;
        if (distorted) v = std::clamp(v + 6 * mod((x >> 4) + 2 * (y >> 4), 3) - 6, 0, 255);
    } else if (e.flat_v) {
        v = 128;
    } else {
        v = 128 + mod(3 * bx * bx + 11 * by * by + 5 * bx * by + 7 * bx + 2 * by, 53) - 26;
        if (distorted) v = 128 + floor_div(3 * (v - 128), 4);
    }
    return e.ten_bit ? 4 * v + mod(x + 2 * y, 4) : v;
}

inline Picture speed_example_picture(const SpeedExample& e, bool distorted) {
    const VideoFormat format{2 * e.chroma_width, 2 * e.chroma_height, e.ten_bit ? 10 : 8,
                             ChromaFormat::yuv420};
    return make_picture(format, [&](int plane, int y, int x) {
        return speed_example_code(e, distorted, plane, y, x);
    });
}

}  // namespace vq::test
