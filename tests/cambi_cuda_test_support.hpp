// Helpers for the CAMBI twin tests: pictures that exercise CAMBI (flat bands, many distinct flat
// values, grain, extremes), features bound from option strings as the CLI binds them, and how
// far apart two doubles are in units in the last place.
#pragma once

#include <bit>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <random>
#include <string>

#include "engine/registry.hpp"
#include "metrics/cambi/cambi_cpu.hpp"
#include "vq/picture.hpp"

namespace vq::cambi::test {

enum class Scene {
    banded,     // a slow diagonal ramp in flat bands, a few stray pixels: CAMBI's own case
    grainy,     // the same ramp with grain on one pixel in 8: short runs, sparse mask
    patchwork,  // 4..19-pixel flat blocks of unrelated values: many centre values per tile
    staircase,  // one code per 3 columns: every value of the range is a centre somewhere
    extremes,   // the largest code of the bit depth, with zero blocks
};

inline const char* to_string(Scene scene) {
    switch (scene) {
    case Scene::banded: return "banded";
    case Scene::grainy: return "grainy";
    case Scene::patchwork: return "patchwork";
    case Scene::staircase: return "staircase";
    case Scene::extremes: return "extremes";
    }
    return "?";
}

// Luma by the scene; chroma is left at zero (CAMBI reads luma only).
inline Picture scene_picture(const VideoFormat& format, Scene scene, std::uint32_t seed) {
    Picture picture = Picture::allocate(format);
    std::mt19937 rng(seed);
    const int maximum = (1 << format.bit_depth) - 1;
    const int unit = 1 << (format.bit_depth - 8);  // one 8-bit code step
    std::uniform_int_distribution<int> any(0, maximum);
    std::uniform_int_distribution<int> block_side(4, 19);
    const int block_w = block_side(rng), block_h = block_side(rng);
    const int bands = 40 + int(seed % 80);
    std::uint32_t blocks_seed = rng();
    const auto sample = [&](int x, int y) {
        const int band = (x + y / 2) * bands / (format.width + format.height / 2 + 1);
        const int ramp = (40 + 2 * band) * unit;
        switch (scene) {
        case Scene::banded: return any(rng) % 256 == 0 ? ramp + unit : ramp;
        case Scene::grainy: return any(rng) % 8 == 0 ? ramp + (any(rng) % 3 - 1) * unit : ramp;
        case Scene::patchwork: {
            std::uint32_t h = std::uint32_t(x / block_w) * 0x9E3779B1u ^ std::uint32_t(y / block_h) * 0x85EBCA77u ^ blocks_seed;
            h ^= h >> 15;
            h *= 0x2C1B3C6Du;
            h ^= h >> 13;
            return int(h % std::uint32_t(maximum + 1));
        }
        case Scene::staircase: return (x / 3 + y / 97) % (maximum + 1);
        case Scene::extremes: return ((x / 16 + y / 16) % 5 == 0) ? 0 : maximum;
        }
        return 0;
    };
    for (int y = 0; y < format.height; ++y)
        for (int x = 0; x < format.width; ++x) {
            const int v = std::min(std::max(sample(x, y), 0), maximum);
            const std::size_t at = std::size_t(y) * std::size_t(format.width) + std::size_t(x);
            if (format.bit_depth > 8)
                picture.plane_data<std::uint16_t>(0)[at] = std::uint16_t(v);
            else
                picture.plane_data<std::uint8_t>(0)[at] = std::uint8_t(v);
        }
    return picture;
}

// "cambi=window_size=33" -> the bound options, as the CLI binds them.
inline OptionValues cambi_options(const std::string& request_text) {
    const FeatureRequest request = parse_feature_request(request_text);
    const FeatureDefinition& definition = *find_feature(request.name).definition;
    return bind_options(request.name, definition.options, request.options);
}

inline std::unique_ptr<CpuFeature> make_cpu_twin(const std::string& request) {
    return find_feature("cambi").definition->make_cpu(cambi_options(request));
}

inline std::unique_ptr<Feature> make_cuda_twin(const std::string& request) {
    return find_feature("cambi").definition->make_cuda(cambi_options(request));
}

// Distance in units in the last place between two finite doubles of the same sign.
inline std::uint64_t ulp_distance(double a, double b) {
    const auto x = std::bit_cast<std::int64_t>(a), y = std::bit_cast<std::int64_t>(b);
    return std::uint64_t(x > y ? x - y : y - x);
}

}  // namespace vq::cambi::test
