// ciede CPU twin, one thread, ms per frame at 1080p and 4K.
//
//   VQ_FIXTURES=build/tests/fixtures build/bench/vq_bench --benchmark_filter=Ciede
//       --benchmark_repetitions=3 --benchmark_report_aggregates_only   (one command line)
//
// "Fixture" frames are the first frame pair of grad_1920x1080_8b_420 (an x264 encode of a
// grainy gradient); the 4K pair tiles it 2x2. Without VQ_FIXTURES those benchmarks are skipped
// (the tests unpack the fixtures into build/tests/fixtures).
// "Noise" frames are uniform random codes with a small random distortion: nearly every pixel is
// a new colour, the worst case for any per-colour reuse. "Scalar" runs the straightforward
// per-pixel path of ciede_math.hpp on 4:2:0 frames (the reference's algorithm and cost), so
// the speed-up can be read off one run on a busy machine.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <optional>

#include <benchmark/benchmark.h>

#include "feature/feature.hpp"
#include "io/frame_source.hpp"
#include "metrics/ciede/ciede.hpp"
#include "metrics/ciede/ciede_math.hpp"
#include "support/pictures.hpp"

namespace vq {
namespace {

Picture tiled(const Picture& source, int tiles) {
    const VideoFormat& f = source.format();
    const VideoFormat big{f.width * tiles, f.height * tiles, f.bit_depth, f.chroma};
    Picture picture = Picture::allocate(big);
    const std::size_t bytes = f.bytes_per_sample();
    for (int p = 0; p < f.plane_count(); ++p) {
        const std::size_t w = std::size_t(f.plane_width(p)) * bytes, h = f.plane_height(p);
        const auto* from = source.data() + f.plane_offset(p);
        auto* to = picture.data() + big.plane_offset(p);
        for (std::size_t r = 0; r < h * tiles; ++r)
            for (int t = 0; t < tiles; ++t)
                std::copy_n(from + (r % h) * w, w, to + r * w * tiles + t * w);
    }
    return picture;
}

std::optional<FramePair> fixture_pair(int tiles) {
    const char* dir = std::getenv("VQ_FIXTURES");
    if (!dir) return std::nullopt;
    const std::filesystem::path fixture = std::filesystem::path(dir) / "grad_1920x1080_8b_420";
    auto ref = open_y4m((fixture / "ref.y4m").string())->next();
    auto dist = open_y4m((fixture / "dist.y4m").string())->next();
    if (!ref || !dist) return std::nullopt;
    return FramePair{tiled(*ref, tiles), tiled(*dist, tiles)};
}

FramePair noise_pair(int width, int height) {
    const Picture ref =
        test::make_picture({width, height, 8, ChromaFormat::yuv420}, test::Content::noise, 7);
    return {ref, test::perturbed(ref, 4, 8)};
}

void run(benchmark::State& state, const std::optional<FramePair>& pair) {
    if (!pair) {
        state.SkipWithError("set VQ_FIXTURES to the unpacked fixtures directory");
        return;
    }
    const FeatureDefinition definition = ciede::definition();
    auto feature = definition.make_cpu(bind_options("ciede", definition.options, {}));
    feature->init(pair->reference.format());
    ciede::Block block{};
    for (auto _ : state) {
        feature->compute(*pair, std::as_writable_bytes(std::span(&block, 1)));
        benchmark::DoNotOptimize(block);
    }
    state.counters["Mpixel/s"] =
        benchmark::Counter(double(pair->reference.format().width) *
                               pair->reference.format().height * double(state.iterations()) / 1e6,
                           benchmark::Counter::kIsRate);
}

// Σ ΔE00 pixel by pixel with the scalar functions, 4:2:0.
double scalar_delta_e_sum(const FramePair& pair) {
    const auto scale = ciede::code_scale(pair.reference.format().bit_depth);
    const auto lab = [&](const Picture& p, int row, int col) {
        return ciede::ycbcr_to_lab(p.plane<std::uint8_t>(0).at(row, col),
                                   p.plane<std::uint8_t>(1).at(row / 2, col / 2),
                                   p.plane<std::uint8_t>(2).at(row / 2, col / 2), scale);
    };
    double sum = 0;
    for (int row = 0; row < pair.reference.format().height; ++row)
        for (int col = 0; col < pair.reference.format().width; ++col)
            sum +=
                ciede::delta_e_2000(lab(pair.reference, row, col), lab(pair.distorted, row, col));
    return sum;
}

void run_scalar(benchmark::State& state, const std::optional<FramePair>& pair) {
    if (!pair) {
        state.SkipWithError("set VQ_FIXTURES to the unpacked fixtures directory");
        return;
    }
    for (auto _ : state) benchmark::DoNotOptimize(scalar_delta_e_sum(*pair));
}

void BM_CiedeFixture1080p(benchmark::State& state) { run(state, fixture_pair(1)); }
void BM_CiedeFixture4K(benchmark::State& state) { run(state, fixture_pair(2)); }
void BM_CiedeNoise1080p(benchmark::State& state) { run(state, noise_pair(1920, 1080)); }
void BM_CiedeNoise4K(benchmark::State& state) { run(state, noise_pair(3840, 2160)); }
void BM_CiedeScalarFixture1080p(benchmark::State& state) { run_scalar(state, fixture_pair(1)); }

// CPU time is the figure to read: the build machines are shared.
BENCHMARK(BM_CiedeFixture1080p)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CiedeFixture4K)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CiedeNoise1080p)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CiedeNoise4K)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CiedeScalarFixture1080p)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace vq
