// 4K 8-bit pictures on which the reference's double top-k sum of scale 0 is not exact (spec
// cambi.md §15.3, measured there on x264-encoded banded ramps): a ramp in wide flat bands one code
// apart gives c-values in the thousands (a large sum), and a region of texture, which the mask
// excludes, leaves only the ramp's smallest c-values (1.5..8) at or near the k-th largest.
//   - zero_kth: the ramp covers 45% of the width, so fewer than k values are non-zero: t = 0 and
//     m is the plane's smallest non-zero value.
//   - small_kth: the ramp, with a stray ±1 code on one pixel in 64, covers 60.5%: just more than
//     k values are non-zero, so t > 0 is small (about 4).
//   - ramp: the ramp alone; every top-k sum is exact.
// The host test (cambi_exact_sum_test.cpp) checks that they do what is said here.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "metrics/cambi/cambi_cpu.hpp"
#include "vq/picture.hpp"

namespace vq::cambi::test {

enum class OrderContent { zero_kth, small_kth, ramp };

inline const char* to_string(OrderContent content) {
    switch (content) {
    case OrderContent::zero_kth: return "zero_kth";
    case OrderContent::small_kth: return "small_kth";
    case OrderContent::ramp: return "ramp";
    }
    return "?";
}

inline Picture order_content_picture(OrderContent content, std::uint32_t seed) {
    constexpr int width = 3840, height = 2160;
    Picture picture = Picture::allocate({width, height, 8, ChromaFormat::yuv420});
    std::mt19937 rng(seed);
    const int ramp_end = content == OrderContent::zero_kth    ? width * 45 / 100
                         : content == OrderContent::small_kth ? width * 605 / 1000
                                                              : width;
    std::uint8_t* luma = picture.plane_data<std::uint8_t>(0);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            int v = 60 + (x + y / 2) * 60 / (width + height / 2);  // 60 bands one code apart
            if (x >= ramp_end)
                v = 60 + int(rng() % 9);  // texture: outside the mask
            else if (content == OrderContent::small_kth && rng() % 64 == 0)
                v += int(rng() % 3) - 1;
            luma[std::size_t(y) * width + std::size_t(x)] = std::uint8_t(v);
        }
    return picture;
}

// Every scale's c-values of one picture scored with `geometry` (the CPU twin's stages).
inline std::vector<std::vector<float>> scale_planes(const Picture& picture, const Config& config,
                                                    const PictureGeometry& geometry) {
    const PictureGeometry& g = geometry;
    std::vector<std::uint16_t> image(std::size_t(g.width) * std::size_t(g.height));
    std::vector<std::uint8_t> mask(image.size());
    convert_luma(picture, g, image.data());
    if (config.anti_dither) anti_dither(image.data(), g.width, g.height);
    spatial_mask(image.data(), g.width, g.height, g.mask_threshold, mask.data());
    std::vector<std::vector<float>> planes;
    const auto sizes = scale_sizes(g.width, g.height, g.speedup);
    int w = g.width, h = g.height;
    for (int s = 0; s < num_scales; ++s) {
        if (s > 0 || g.speedup) {
            decimate(image.data(), w, h, image.data());
            decimate(mask.data(), w, h, mask.data());
        }
        w = sizes[std::size_t(s)][0];
        h = sizes[std::size_t(s)][1];
        mode_filter(image.data(), w, h);
        std::vector<float>& c = planes.emplace_back(std::size_t(w) * std::size_t(h));
        c_values(image.data(), mask.data(), w, h, g.window, config.contrast, c.data());
    }
    return planes;
}

}  // namespace vq::cambi::test
