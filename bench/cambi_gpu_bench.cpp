// CAMBI CUDA twin: GPU time per frame in steady state (CUDA events around a run of frames
// enqueued back to back, as the executor does), and the time of each stage of one frame. The
// input is the test generator's banded content (a slow diagonal luma ramp in flat bands two codes
// apart, long runs) or grainy content (short runs, a sparse mask). Targets (H200): 1080p ≤ 0.3 ms,
// 4K ≤ 1.0 ms.
//
//   vq_bench --benchmark_filter=CambiGpu
#if VQ_WITH_CUDA

#include <cstdint>
#include <exception>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "cuda/cuda_backend.hpp"
#include "cuda/memory.hpp"
#include "cuda/stream.hpp"
#include "metrics/cambi/cambi_cuda_pipeline.hpp"
#include "support/pictures.hpp"

namespace vq::cambi {
namespace {

// Seed 70 gives the generator's ramp 110 bands.
constexpr std::uint32_t seed = 70;

void run(benchmark::State& state, int width, int height, int bit_depth, test::Content content,
         const std::string& options_text, int tile_rows, bool graphs) {
    Options options;
    options.full_ref = options_text.find("full_ref") != std::string::npos;
    options.high_res_speedup =
        options_text.find("hrs") != std::string::npos ? (height >= 2160 ? 2160 : 1080) : 0;
    const Picture picture =
        test::make_picture({width, height, bit_depth, ChromaFormat::yuv420}, content, seed);
    const VideoFormat& format = picture.format();
    const Config config = resolve_config(options, format);

    const cuda::Stream stream;
    cuda::DeviceBuffer frame_memory(format.frame_bytes());
    cuda::copy(frame_memory.data(), picture.data(), format.frame_bytes());
    const cuda::DeviceFrame frame{format, config.full_ref ? frame_memory.data() : nullptr,
                                  frame_memory.data()};
    CudaPipeline pipeline(config, format, stream.get(), tile_rows, graphs);
    constexpr int ring = 4;
    cuda::DeviceArray<CudaBlock> blocks(ring);
    CudaBlock* block = blocks.data();

    const auto timing = [] { return cuda::Event(cuda::Event::Timing::on); };
    const StageEvents stages{timing(), timing(), timing(), timing(), timing(), timing()};
    const cuda::Event start = timing(), stop = timing();
    for (int i = 0; i < 3; ++i) pipeline.enqueue(frame, block + i % ring, stream.get());  // warm-up

    constexpr int frames_per_iteration = 20;
    for (auto _ : state) {
        start.record(stream);
        for (int i = 0; i < frames_per_iteration; ++i)
            pipeline.enqueue(frame, block + i % ring, stream.get());
        stop.record(stream);
        state.SetIterationTime(double(cuda::elapsed_milliseconds(start, stop)) / 1000.0 /
                               frames_per_iteration);
    }
    // One more frame with events between the stages, queued behind a few frames so that the GPU
    // is busy while the host launches its stages one by one (no launch gaps in the stage times).
    for (int i = 0; i < 3; ++i) pipeline.enqueue(frame, block + i % ring, stream.get());
    pipeline.enqueue(frame, block + 3, stream.get(), &stages);
    stream.synchronize();
    const char* names[stage_count] = {"convert_ms", "mask_ms", "scales_ms", "c_values_ms",
                                      "top_k_ms"};
    for (int s = 0; s < stage_count; ++s)
        state.counters[names[s]] =
            cuda::elapsed_milliseconds(stages[std::size_t(s)], stages[std::size_t(s + 1)]);
    state.counters["tile_rows"] = tile_rows;
    state.counters["graphs"] = graphs;
}

void cambi_gpu(benchmark::State& state, int width, int height, int bit_depth, test::Content content,
               const std::string& options_text, int tile_rows, bool graphs) {
    if (cuda::usable_device_count() == 0) {
        state.SkipWithError("no usable CUDA device");
        return;
    }
    try {
        run(state, width, height, bit_depth, content, options_text, tile_rows, graphs);
    } catch (const std::exception& e) {
        state.SkipWithError(e.what());
    }
}

// A fixed count of 20-frame iterations: enough for a steady state, and seconds per benchmark.
void add(const std::string& name, int width, int height, int bit_depth, test::Content content,
         const std::string& options, int tile_rows, bool graphs) {
    benchmark::RegisterBenchmark(("CambiGpu/" + name).c_str(), cambi_gpu, width, height, bit_depth,
                                 content, options, tile_rows, graphs)
        ->UseManualTime()
        ->Iterations(10)
        ->Unit(benchmark::kMillisecond);
}

void register_benchmarks() {
    struct Size {
        const char* name;
        int width;
        int height;
    };
    constexpr int rows = CudaPipeline::default_tile_rows;
    for (const Size size : {Size{"1080p", 1920, 1080}, Size{"4K", 3840, 2160}}) {
        const std::string prefix = std::string(size.name) + "/";
        for (const int tile_rows : {8, 16, 32})
            add(prefix + "banded_8bit/tile_rows:" + std::to_string(tile_rows), size.width,
                size.height, 8, test::Content::banded, "", tile_rows, true);
        add(prefix + "banded_8bit/launches", size.width, size.height, 8, test::Content::banded, "",
            rows, false);
        add(prefix + "grainy_8bit", size.width, size.height, 8, test::Content::grainy, "", rows,
            true);
        add(prefix + "banded_10bit", size.width, size.height, 10, test::Content::banded, "", rows,
            true);
        add(prefix + "banded_8bit_full_ref", size.width, size.height, 8, test::Content::banded,
            "full_ref", rows, true);
        add(prefix + "banded_8bit_hrs", size.width, size.height, 8, test::Content::banded, "hrs",
            rows, true);
    }
}

const bool registered = (register_benchmarks(), true);

}  // namespace
}  // namespace vq::cambi

#endif  // VQ_WITH_CUDA
