// GPU time per frame of a CUDA twin (VIF, ADM, motion, PSNR, CIEDE2000, SSIM, MS-SSIM, PSNR-HVS,
// SpEED) in steady state: CUDA events around 20 frames enqueued back to back, as the executor
// enqueues them; the frame pairs are already on the device (uploads are timed end to end by
// scripts/bench_cli.sh). Two distinct pairs alternate, so the temporal twins (motion,
// speed_temporal) always see a real difference from the previous frame. "vmaf" is the default
// model's three twins (VIF, ADM, motion) together, each on its stream as the executor runs them
// (FeatureStreams).
//
//   vq_bench --benchmark_filter=GpuFeature
#if VQ_WITH_CUDA

#include <cstddef>
#include <exception>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <benchmark/benchmark.h>

#include "cuda/cuda_backend.hpp"
#include "cuda/cuda_feature.hpp"
#include "cuda/feature_streams.hpp"
#include "cuda/memory.hpp"
#include "cuda/stream.hpp"
#include "feature/registry.hpp"
#include "core/synthetic.hpp"

namespace vq {
namespace {

void run(benchmark::State& state, const std::vector<std::string>& names, int width, int height) {
    const VideoFormat format{width, height, 8, ChromaFormat::yuv420};
    const cuda::Stream stream;
    std::vector<std::unique_ptr<Feature>> features;
    std::vector<cuda::DeviceBuffer> blocks;
    for (const std::string& name : names) {
        const FeatureLookup lookup = find_feature(name);
        auto& feature = features.emplace_back(
            lookup.definition->make_cuda(bind_options(name, lookup.definition->options, {})));
        auto& twin = dynamic_cast<cuda::CudaFeature&>(*feature);
        twin.init(format);
        twin.prepare(stream.get());
        blocks.emplace_back(twin.block_bytes());
    }
    cuda::FeatureStreams streams(features.size());

    // Pair t at 2t (reference) and 2t + 1 (distorted), frame_bytes() apart.
    constexpr int pairs = 2;
    const std::size_t bytes = format.frame_bytes();
    cuda::DeviceBuffer frames(2 * pairs * bytes);
    for (int t = 0; t < pairs; ++t)
        for (int d = 0; d < 2; ++d) {
            const Picture picture = make_synthetic_frame(format, SyntheticScene::mixed, t, d == 1);
            cuda::copy(frames.data() + std::size_t(2 * t + d) * bytes, picture.data(), bytes);
        }
    std::size_t index = 0;
    const auto enqueue = [&] {
        const std::byte* pair = frames.data() + (index % pairs) * 2 * bytes;
        streams.fork(stream);
        for (std::size_t k = 0; k < features.size(); ++k)
            dynamic_cast<cuda::CudaFeature&>(*features[k])
                .enqueue({format, pair, pair + bytes, index}, blocks[k].data(),
                         streams.stream(k, stream));
        streams.join(stream);
        ++index;
    };

    const cuda::Event start(cuda::Event::Timing::on), stop(cuda::Event::Timing::on);
    for (int i = 0; i < 3; ++i) enqueue();  // warm-up
    constexpr int frames_per_iteration = 20;
    for (auto _ : state) {
        start.record(stream);
        for (int i = 0; i < frames_per_iteration; ++i) enqueue();
        stop.record(stream);
        state.SetIterationTime(double(cuda::elapsed_milliseconds(start, stop)) / 1000.0 /
                               frames_per_iteration);
    }
    streams.drain();
}

void gpu_feature(benchmark::State& state, const std::vector<std::string>& names, int width,
                 int height) {
    if (cuda::usable_device_count() == 0) {
        state.SkipWithError("no usable CUDA device");
        return;
    }
    try {
        run(state, names, width, height);
    } catch (const std::exception& e) {
        state.SkipWithError(e.what());
    }
}

[[maybe_unused]] const bool registered = [] {
    const std::vector<std::pair<std::string, std::vector<std::string>>> runs = {
        {"vif", {"vif"}},
        {"adm", {"adm"}},
        {"motion", {"motion"}},
        {"vmaf", {"vif", "adm", "motion"}},
        {"psnr", {"psnr"}},
        {"ciede", {"ciede"}},
        {"float_ssim", {"float_ssim"}},
        {"float_ms_ssim", {"float_ms_ssim"}},
        {"psnr_hvs", {"psnr_hvs"}},
        {"speed_chroma", {"speed_chroma"}},
        {"speed_temporal", {"speed_temporal"}}};
    for (const auto& [label, names] : runs)
        for (const auto& [size, w, h] :
             {std::tuple{"1080p", 1920, 1080}, std::tuple{"4K", 3840, 2160}})
            benchmark::RegisterBenchmark(("GpuFeature/" + label + "/" + size).c_str(), gpu_feature,
                                         names, w, h)
                ->UseManualTime()
                ->Iterations(20)
                ->Unit(benchmark::kMillisecond);
    return true;
}();

}  // namespace
}  // namespace vq

#endif  // VQ_WITH_CUDA
