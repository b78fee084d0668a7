// Integer VIF, CPU: one frame pair's four-scale block per iteration, for every stage variant
// this CPU runs, at 1080p and 2160p, 8 and 10 bits, on textured input (every pixel takes the
// logarithm branch, the costly case).
#include <cstdint>
#include <string>
#include <tuple>

#include <benchmark/benchmark.h>

#include "metrics/vif/vif_cpu_kernels.hpp"
#include "metrics/vif/vif_cpu_pyramid.hpp"
#include "support/pictures.hpp"

namespace {

template <typename Sample>
void bench_vif(benchmark::State& state, const vq::vif::Kernels& kernels, int width, int height,
               int bit_depth) {
    const vq::VideoFormat format{width, height, bit_depth, vq::ChromaFormat::yuv400};
    const vq::Picture ref = vq::test::make_picture(format, vq::test::Content::noise, 1);
    const vq::Picture dist = vq::test::perturbed(ref, 8, 2);
    const vq::vif::Options options;
    for (auto _ : state)
        benchmark::DoNotOptimize(vq::vif::compute_block(ref.plane<Sample>(0), dist.plane<Sample>(0),
                                                        bit_depth, options, kernels));
}

const int registered = [] {
    for (const vq::vif::Kernels& kernels : vq::vif::available_kernels()) {
        const std::string variant = kernels.instruction_set;
        for (const auto& [label, width, height] :
             {std::tuple{"1080p", 1920, 1080}, {"2160p", 3840, 2160}}) {
            benchmark::RegisterBenchmark(("vif/" + variant + "/" + label + "/8bit").c_str(),
                                         [&kernels, width, height](benchmark::State& state) {
                                             bench_vif<std::uint8_t>(state, kernels, width, height,
                                                                     8);
                                         })
                ->Unit(benchmark::kMillisecond);
            benchmark::RegisterBenchmark(("vif/" + variant + "/" + label + "/10bit").c_str(),
                                         [&kernels, width, height](benchmark::State& state) {
                                             bench_vif<std::uint16_t>(state, kernels, width, height,
                                                                      10);
                                         })
                ->Unit(benchmark::kMillisecond);
        }
    }
    return 0;
}();

}  // namespace
