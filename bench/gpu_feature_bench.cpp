// GPU time per frame of a CUDA twin (VIF, ADM, motion, PSNR, CIEDE2000) in steady state: CUDA
// events around 20 frames enqueued back to back on one stream, as the executor enqueues them; the
// frame pair is already on the device (uploads are timed end to end by scripts/bench_cli.sh).
//
//   vq_bench --benchmark_filter=GpuFeature
#if VQ_WITH_CUDA

#include <exception>
#include <string>

#include <benchmark/benchmark.h>

#include "cuda/cuda_backend.hpp"
#include "cuda/cuda_feature.hpp"
#include "cuda/memory.hpp"
#include "cuda/stream.hpp"
#include "feature/registry.hpp"
#include "core/synthetic.hpp"

namespace vq {
namespace {

void run(benchmark::State& state, const std::string& name, int width, int height) {
    const FeatureLookup lookup = find_feature(name);
    auto feature = lookup.definition->make_cuda(bind_options(name, lookup.definition->options, {}));
    auto& twin = dynamic_cast<cuda::CudaFeature&>(*feature);
    const VideoFormat format{width, height, 8, ChromaFormat::yuv420};
    const Picture reference = make_synthetic_frame(format, SyntheticScene::mixed, 0, false);
    const Picture distorted = make_synthetic_frame(format, SyntheticScene::mixed, 0, true);
    twin.init(format);

    const cuda::Stream stream;
    twin.prepare(stream.get());
    cuda::DeviceBuffer frames(2 * format.frame_bytes());
    cuda::copy(frames.data(), reference.data(), format.frame_bytes());
    cuda::copy(frames.data() + format.frame_bytes(), distorted.data(), format.frame_bytes());
    const cuda::DeviceFrame frame{format, frames.data(), frames.data() + format.frame_bytes()};
    cuda::DeviceBuffer block(twin.block_bytes());

    const cuda::Event start(cuda::Event::Timing::on), stop(cuda::Event::Timing::on);
    for (int i = 0; i < 3; ++i) twin.enqueue(frame, block.data(), stream.get());  // warm-up
    constexpr int frames_per_iteration = 20;
    for (auto _ : state) {
        start.record(stream);
        for (int i = 0; i < frames_per_iteration; ++i)
            twin.enqueue(frame, block.data(), stream.get());
        stop.record(stream);
        state.SetIterationTime(double(cuda::elapsed_milliseconds(start, stop)) / 1000.0 /
                               frames_per_iteration);
    }
}

void gpu_feature(benchmark::State& state, const std::string& name, int width, int height) {
    if (cuda::usable_device_count() == 0) {
        state.SkipWithError("no usable CUDA device");
        return;
    }
    try {
        run(state, name, width, height);
    } catch (const std::exception& e) {
        state.SkipWithError(e.what());
    }
}

[[maybe_unused]] const bool registered = [] {
    for (const char* name :
         {"vif", "adm", "motion", "psnr", "ciede", "float_ssim", "float_ms_ssim"})
        for (const auto& [label, w, h] :
             {std::tuple{"1080p", 1920, 1080}, std::tuple{"4K", 3840, 2160}})
            benchmark::RegisterBenchmark((std::string("GpuFeature/") + name + "/" + label).c_str(),
                                         gpu_feature, std::string(name), w, h)
                ->UseManualTime()
                ->Iterations(20)
                ->Unit(benchmark::kMillisecond);
    return true;
}();

}  // namespace
}  // namespace vq

#endif  // VQ_WITH_CUDA
