// CAMBI CPU twin: whole frames at 1080p and 4K (default options, one thread), and each stage at
// 1080p. The input is the test generator's 8-bit banded content: a slow diagonal luma ramp
// quantised into visible bands two codes apart, the case CAMBI exists for. "banded" has one stray
// pixel in 256 (like an encode that flattened the grain away: long runs of equal values),
// "grainy" grain on one in 8 (short runs; the slow case for the sliding histograms).

#include <cstdint>
#include <vector>

#include <benchmark/benchmark.h>

#include "metrics/cambi/cambi_cpu.hpp"
#include "support/pictures.hpp"

namespace vq::cambi {
namespace {

// Seed 70 gives the generator's ramp 110 bands.
Picture picture(int width, int height, test::Content content) {
    return test::make_picture({width, height, 8, ChromaFormat::yuv420}, content, 70);
}

void cambi_frame(benchmark::State& state, int width, int height, test::Content content) {
    const FeatureDefinition definition = cambi::definition();
    const auto feature = definition.make_cpu(bind_options("cambi", definition.options, {}));
    const FramePair pair{.reference = {}, .distorted = picture(width, height, content)};
    feature->init(pair.distorted.format());
    std::vector<std::byte> block(feature->block_bytes());
    feature->compute(pair, block);  // warm the per-thread working memory
    for (auto _ : state) {
        feature->compute(pair, block);
        benchmark::DoNotOptimize(block.data());
    }
}

BENCHMARK_CAPTURE(cambi_frame, banded_1080p, 1920, 1080, test::Content::banded)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(cambi_frame, banded_4k, 3840, 2160, test::Content::banded)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(cambi_frame, grainy_1080p, 1920, 1080, test::Content::grainy)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(cambi_frame, grainy_4k, 3840, 2160, test::Content::grainy)
    ->Unit(benchmark::kMillisecond);

// Stage benchmarks on the grainy 1080p frame's scale 0 (ws 33, the default thresholds).
struct Scale0 {
    Config config;
    std::vector<std::uint16_t> image;
    std::vector<std::uint8_t> mask;
    std::vector<float> c;

    Scale0() {
        const Picture grainy = picture(1920, 1080, test::Content::grainy);
        config = resolve_config(Options{}, grainy.format());
        const PictureGeometry& g = config.distorted;
        image.resize(std::size_t(g.width) * std::size_t(g.height));
        mask.resize(image.size());
        c.resize(image.size());
        convert_luma(grainy, g, image.data());
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
