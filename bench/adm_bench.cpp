// ADM CPU twin, one thread, ms per frame at 1080p and 4K for every kernel variant this CPU runs.
//
//   build/bench/vq_bench --benchmark_filter=Adm --benchmark_repetitions=3
//       --benchmark_report_aggregates_only   (one command line)
//
// The frames are an 8-bit textured plane (a product of ramps, so every band carries detail) and
// the same plane with small random distortion: the decoupling, masking and gain-limit paths all
// take work, as on real content. The label names the variant (avx512, avx2, baseline).
#include <algorithm>
#include <cstdint>
#include <random>

#include <benchmark/benchmark.h>

#include "metrics/adm/adm.hpp"
#include "metrics/adm/adm_kernels.hpp"
#include "metrics/adm/adm_pipeline.hpp"

namespace vq {
namespace {

void BM_AdmFrame(benchmark::State& state) {
    const auto variants = adm::available_kernels();
    if (std::size_t(state.range(0)) >= variants.size()) {
        state.SkipWithError("variant not supported by this CPU");
        return;
    }
    const adm::Kernels& kernels = variants[state.range(0)];
    const int height = int(state.range(1)), width = height * 16 / 9;
    const VideoFormat format{width, height, 8, ChromaFormat::yuv420};
    Picture ref = Picture::allocate(format), dis = Picture::allocate(format);
    std::mt19937 rng(1);
    auto* r = ref.plane_data<std::uint8_t>(0);
    auto* d = dis.plane_data<std::uint8_t>(0);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            const int value = (x * 3 + y * 2 + (x * y) / 50) % 256;
            r[std::size_t(y) * width + x] = std::uint8_t(value);
            d[std::size_t(y) * width + x] = std::uint8_t(std::clamp(value + int(rng() % 9) - 4, 0, 255));
        }
    const FeatureDefinition definition = adm::definition();
    adm::Scorer scorer(bind_options("adm", definition.options, {}));
    scorer.init(format);
    adm::Workspace workspace;
    adm::Block block;
    for (auto _ : state) {
        adm::compute_block(scorer.config(), kernels, ref, dis, workspace, block);
        benchmark::DoNotOptimize(block);
    }
    state.SetLabel(kernels.instruction_set);
}

BENCHMARK(BM_AdmFrame)
    ->ArgsProduct({{0, 1, 2}, {1080, 2160}})
    ->ArgNames({"variant", "height"})
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace vq
