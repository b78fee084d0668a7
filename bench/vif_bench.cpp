// Integer VIF, CPU: one frame pair's four-scale block per iteration, for every stage variant
// this CPU runs, at 1080p and 2160p, 8 and 10 bits, on textured input (every pixel takes the
// logarithm branch, the costly case).
#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include <benchmark/benchmark.h>

#include "metrics/vif/vif_kernels.hpp"
#include "metrics/vif/vif_pyramid.hpp"

namespace {

template <typename Sample>
void bench_vif(benchmark::State& state, const vq::vif::Kernels& kernels, int width, int height,
               int bit_depth) {
    const int max = (1 << bit_depth) - 1;
    std::mt19937 random(1);
    std::vector<Sample> ref(std::size_t(width) * height), dist(ref.size());
    for (std::size_t i = 0; i < ref.size(); ++i) {
        const int value = int(random() % (max + 1));
        ref[i] = Sample(value);
        dist[i] = Sample(std::clamp(value + int(random() % 17) - 8, 0, max));
    }
    const vq::PlaneView<Sample> ref_view{ref.data(), width, height, width};
    const vq::PlaneView<Sample> dist_view{dist.data(), width, height, width};
    const vq::vif::Options options;
    for (auto _ : state)
        benchmark::DoNotOptimize(vq::vif::compute_block(ref_view, dist_view, bit_depth, options, kernels));
}

const int registered = [] {
    for (const vq::vif::Kernels& kernels : vq::vif::available_kernels()) {
        const std::string variant = kernels.instruction_set;
        for (const auto& [label, width, height] : {std::tuple{"1080p", 1920, 1080}, {"2160p", 3840, 2160}}) {
            benchmark::RegisterBenchmark(("vif/" + variant + "/" + label + "/8bit").c_str(),
                                         [&kernels, width, height](benchmark::State& state) {
                                             bench_vif<std::uint8_t>(state, kernels, width, height, 8);
                                         })->Unit(benchmark::kMillisecond);
            benchmark::RegisterBenchmark(("vif/" + variant + "/" + label + "/10bit").c_str(),
                                         [&kernels, width, height](benchmark::State& state) {
                                             bench_vif<std::uint16_t>(state, kernels, width, height, 10);
                                         })->Unit(benchmark::kMillisecond);
        }
    }
    return 0;
}();

}  // namespace
