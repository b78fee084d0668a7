// CAMBI CPU twin: whole frames at 1080p and 4K (default options, one thread), and each stage at
// 1080p. The input is synthetic 8-bit banded content: a slow diagonal luma ramp quantised into
// visible bands two codes apart, the case CAMBI exists for, with mild noise. "banded" has one
// noisy pixel in 256 (like an encode that flattened the grain away: long runs of equal values),
// "grainy" one in 16 (short runs; the slow case for the sliding histograms).

#include <cstdint>
#include <vector>

#include <benchmark/benchmark.h>

#include "metrics/cambi/cambi_cpu.hpp"

namespace vq::cambi {
namespace {

Picture banded_picture(int width, int height, unsigned noise_period) {
    const VideoFormat format{.width = width, .height = height, .bit_depth = 8,
                             .chroma = ChromaFormat::yuv420};
    Picture picture = Picture::allocate(format);
    std::uint8_t* luma = picture.plane_data<std::uint8_t>(0);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            const int band = (x + y / 2) * 110 / (width + height / 2);  // about 110 bands
            std::uint32_t hash = std::uint32_t(x) * 0x9E3779B1u ^ std::uint32_t(y) * 0x85EBCA77u;
            hash ^= hash >> 15;
            hash *= 0x2C1B3C6Du;
            hash ^= hash >> 13;
            const unsigned slot = hash % (2 * noise_period);
            const int noise = slot == 0 ? 1 : slot == 1 ? -1 : 0;
            luma[std::size_t(y) * std::size_t(width) + std::size_t(x)] = std::uint8_t(40 + 2 * band + noise);
        }
    return picture;
}

void cambi_frame(benchmark::State& state, int width, int height, unsigned noise_period) {
    const FeatureDefinition definition = cambi::definition();
    const auto feature = definition.make_cpu(bind_options("cambi", definition.options, {}));
    const FramePair pair{.reference = {}, .distorted = banded_picture(width, height, noise_period)};
    feature->init(pair.distorted.format());
    std::vector<std::byte> block(feature->block_bytes());
    feature->compute(pair, block);  // warm the per-thread working memory
    for (auto _ : state) {
        feature->compute(pair, block);
        benchmark::DoNotOptimize(block.data());
    }
}

BENCHMARK_CAPTURE(cambi_frame, banded_1080p, 1920, 1080, 256)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(cambi_frame, banded_4k, 3840, 2160, 256)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(cambi_frame, grainy_1080p, 1920, 1080, 16)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(cambi_frame, grainy_4k, 3840, 2160, 16)->Unit(benchmark::kMillisecond);

// Stage benchmarks on the grainy 1080p frame's scale 0 (ws 33, the default thresholds).
struct Scale0 {
    Config config;
    std::vector<std::uint16_t> image;
    std::vector<std::uint8_t> mask;
    std::vector<float> c;

    Scale0() {
        const Picture picture = banded_picture(1920, 1080, 16);
        config = resolve_config(Options{}, picture.format());
        const PictureGeometry& g = config.distorted;
        image.resize(std::size_t(g.width) * std::size_t(g.height));
        mask.resize(image.size());
        c.resize(image.size());
        convert_luma(picture, g, image.data());
        anti_dither(image.data(), g.width, g.height);
        spatial_mask(image.data(), g.width, g.height, g.mask_threshold, mask.data());
        mode_filter(image.data(), g.width, g.height);
        c_values(image.data(), mask.data(), g.width, g.height, g.window, config.contrast, c.data());
    }
};

const Scale0& scale0() {
    static const Scale0 data;
    return data;
}

void cambi_spatial_mask(benchmark::State& state) {
    const Scale0& d = scale0();
    std::vector<std::uint8_t> mask(d.mask.size());
    for (auto _ : state)
        spatial_mask(d.image.data(), 1920, 1080, d.config.distorted.mask_threshold, mask.data());
}

void cambi_mode_filter(benchmark::State& state) {
    const Scale0& d = scale0();
    std::vector<std::uint16_t> image = d.image;
    for (auto _ : state) mode_filter(image.data(), 1920, 1080);
}

void cambi_c_values(benchmark::State& state) {
    const Scale0& d = scale0();
    std::vector<float> c(d.c.size());
    for (auto _ : state)
        c_values(d.image.data(), d.mask.data(), 1920, 1080, d.config.distorted.window,
                 d.config.contrast, c.data());
}

void cambi_top_k(benchmark::State& state) {
    const Scale0& d = scale0();
    std::vector<float> c;
    for (auto _ : state) {
        state.PauseTiming();
        c = d.c;
        state.ResumeTiming();
        benchmark::DoNotOptimize(top_k_mean(c, 0.6));
    }
}

BENCHMARK(cambi_spatial_mask)->Unit(benchmark::kMillisecond);
BENCHMARK(cambi_mode_filter)->Unit(benchmark::kMillisecond);
BENCHMARK(cambi_c_values)->Unit(benchmark::kMillisecond);
BENCHMARK(cambi_top_k)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace vq::cambi
