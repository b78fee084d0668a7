#include "core/synthetic.hpp"

#include <cmath>
#include <cstdint>

namespace vq {
namespace {

// A small deterministic hash for grain: the same frame always gets the same noise.
float grain(std::uint32_t x, std::uint32_t y, std::uint32_t frame) {
    std::uint32_t h = x * 0x9E3779B1u ^ y * 0x85EBCA77u ^ frame * 0xC2B2AE3Du;
    h ^= h >> 15;
    h *= 0x2C1B3C6Du;
    h ^= h >> 12;
    return float(h & 0xFFFF) / 65535.0f - 0.5f;
}

// Normalised luma (0..1) of the scene at (x, y).
float luma(SyntheticScene scene, int x, int y, int w, int h, int frame, bool distorted) {
    const bool gradient =
        scene == SyntheticScene::banded_gradient || (scene == SyntheticScene::mixed && y < h / 2);
    const float u = float(x) / float(w);
    const float v = float(y) / float(h);
    if (gradient) {
        // A dark-to-mid ramp drifting a little each frame, diagonal so bands are not axis-aligned.
        const float ramp = 0.15f + 0.45f * (0.8f * u + 0.2f * v) + 0.002f * float(frame);
        if (!distorted) return ramp + grain(x, y, frame) / 255.0f;  // dithered: no visible steps
        return std::floor(ramp * 64.0f) / 64.0f;                    // 64 levels: visible bands
    }
    const float t = 0.05f * float(frame);
    auto texture = [&](float du) {
        return 0.5f + 0.18f * std::sin(40.0f * (u + du) + t) * std::cos(23.0f * v - t) +
               0.12f * std::sin(97.0f * (u + du) * v + 2 * t);
    };
    if (!distorted) return texture(0) + 0.04f * grain(x, y, frame);
    // The distortion: a horizontal blur of the texture and no grain (a smoothing encoder).
    const float d = 1.5f / float(w);
    return (texture(-d) + texture(0) + texture(d)) / 3.0f;
}

template <typename Sample>
void fill(Picture& picture, SyntheticScene scene, int index, bool distorted) {
    const VideoFormat& f = picture.format();
    const float max_code = float((1 << f.bit_depth) - 1);
    auto code = [&](float value) {
        const float c = std::round(std::fmin(std::fmax(value, 0.0f), 1.0f) * max_code);
        return Sample(c);
    };
    Sample* y_plane = picture.plane_data<Sample>(0);
    for (int y = 0; y < f.height; ++y)
        for (int x = 0; x < f.width; ++x)
            y_plane[std::size_t(y) * f.width + x] =
                code(luma(scene, x, y, f.width, f.height, index, distorted));
    for (int p = 1; p < f.plane_count(); ++p) {
        const int cw = f.plane_width(p), ch = f.plane_height(p);
        Sample* plane = picture.plane_data<Sample>(p);
        for (int y = 0; y < ch; ++y)
            for (int x = 0; x < cw; ++x) {
                // Gentle colour ramps; the distorted copy shifts them slightly (a colour error).
                const float base = p == 1 ? 0.45f + 0.1f * float(x) / float(cw)
                                          : 0.55f - 0.1f * float(y) / float(ch);
                plane[std::size_t(y) * cw + x] = code(base + (distorted ? 0.01f : 0.0f));
            }
    }
}

}  // namespace

Picture make_synthetic_frame(const VideoFormat& format, SyntheticScene scene, int index,
                             bool distorted) {
    Picture picture = Picture::allocate(format);
    if (format.bit_depth > 8)
        fill<std::uint16_t>(picture, scene, index, distorted);
    else
        fill<std::uint8_t>(picture, scene, index, distorted);
    return picture;
}

}  // namespace vq
