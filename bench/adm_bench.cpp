// ADM CPU twin, one thread, ms per frame at 1080p and 4K for every kernel variant this CPU runs.
//
//   build/bench/vq_bench --benchmark_filter=Adm --benchmark_repetitions=3
//       --benchmark_report_aggregates_only   (one command line)
//
// The frames are the test generator's 8-bit natural-looking texture (detail in every band) and
// the same picture with small random distortion: the decoupling, masking and gain-limit paths all
// take work, as on real content. The label names the variant (avx512, avx2, baseline).
#include <benchmark/benchmark.h>

#include "metrics/adm/adm.hpp"
#include "metrics/adm/adm_cpu_kernels.hpp"
#include "metrics/adm/adm_cpu_pipeline.hpp"
#include "support/pictures.hpp"

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
    const Picture ref = test::make_picture(format, test::Content::texture, 1);
    const Picture dis = test::perturbed(ref, 4, 1);
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
