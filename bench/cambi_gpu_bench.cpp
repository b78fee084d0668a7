// CAMBI CUDA twin: GPU time per frame in steady state (CUDA events around a run of frames
// enqueued back to back, as the executor does), and the time of each stage of one frame. The
// input is synthetic banded content: a slow diagonal luma ramp in flat bands two codes apart, with
// one noisy pixel in `noise_period` ("banded": 256, long runs; "grainy": 16, short runs and a
// sparse mask). Targets (H200): 1080p ≤ 0.3 ms, 4K ≤ 1.0 ms.
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

namespace vq::cambi {
namespace {

Picture banded_picture(int width, int height, int bit_depth, unsigned noise_period) {
    const VideoFormat format{width, height, bit_depth, ChromaFormat::yuv420};
    Picture picture = Picture::allocate(format);
    const int unit = 1 << (bit_depth - 8);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            const int band = (x + y / 2) * 110 / (width + height / 2);  // about 110 bands
            std::uint32_t hash = std::uint32_t(x) * 0x9E3779B1u ^ std::uint32_t(y) * 0x85EBCA77u;
            hash ^= hash >> 15;
            hash *= 0x2C1B3C6Du;
            hash ^= hash >> 13;
            const unsigned slot = hash % (2 * noise_period);
            const int value = (40 + 2 * band + (slot == 0 ? 1 : slot == 1 ? -1 : 0)) * unit;
            const std::size_t at = std::size_t(y) * std::size_t(width) + std::size_t(x);
            if (bit_depth > 8)
                picture.plane_data<std::uint16_t>(0)[at] = std::uint16_t(value);
            else
                picture.plane_data<std::uint8_t>(0)[at] = std::uint8_t(value);
        }
    return picture;
}

void run(benchmark::State& state, int width, int height, int bit_depth, unsigned noise_period,
         const std::string& options_text, int tile_rows, bool graphs) {
    Options options;
    options.full_ref = options_text.find("full_ref") != std::string::npos;
    options.high_res_speedup = options_text.find("hrs") != std::string::npos ? (height >= 2160 ? 2160 : 1080) : 0;
    const Picture picture = banded_picture(width, height, bit_depth, noise_period);
    const VideoFormat& format = picture.format();
    const Config config = resolve_config(options, format);

    const cuda::Stream stream;
    cuda::DeviceBuffer frame_memory(format.frame_bytes());
    cuda::copy(frame_memory.data(), picture.data(), format.frame_bytes());
    const cuda::DeviceFrame frame{format, config.full_ref ? frame_memory.data() : nullptr, frame_memory.data()};
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
        for (int i = 0; i < frames_per_iteration; ++i) pipeline.enqueue(frame, block + i % ring, stream.get());
        stop.record(stream);
        state.SetIterationTime(double(cuda::elapsed_milliseconds(start, stop)) / 1000.0 / frames_per_iteration);
    }
    // One more frame with events between the stages, queued behind a few frames so that the GPU
    // is busy while the host launches its stages one by one (no launch gaps in the stage times).
    for (int i = 0; i < 3; ++i) pipeline.enqueue(frame, block + i % ring, stream.get());
    pipeline.enqueue(frame, block + 3, stream.get(), &stages);
    stream.synchronize();
    const char* names[stage_count] = {"convert_ms", "mask_ms", "scales_ms", "c_values_ms", "top_k_ms"};
    for (int s = 0; s < stage_count; ++s)
        state.counters[names[s]] = cuda::elapsed_milliseconds(stages[std::size_t(s)], stages[std::size_t(s + 1)]);
    state.counters["tile_rows"] = tile_rows;
    state.counters["graphs"] = graphs;
}

void cambi_gpu(benchmark::State& state, int width, int height, int bit_depth, unsigned noise_period,
               const std::string& options_text, int tile_rows, bool graphs) {
    if (cuda::usable_device_count() == 0) {
        state.SkipWithError("no usable CUDA device");
        return;
    }
    try {
        run(state, width, height, bit_depth, noise_period, options_text, tile_rows, graphs);
    } catch (const std::exception& e) {
        state.SkipWithError(e.what());
    }
}

// A fixed count of 20-frame iterations: enough for a steady state, and seconds per benchmark.
void add(const std::string& name, int width, int height, int bit_depth, unsigned noise_period, const std::string& options,
         int tile_rows, bool graphs) {
    benchmark::RegisterBenchmark(("CambiGpu/" + name).c_str(), cambi_gpu, width, height, bit_depth, noise_period,
                                 options, tile_rows, graphs)
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
            add(prefix + "banded_8bit/tile_rows:" + std::to_string(tile_rows), size.width, size.height, 8, 256u, "",
                tile_rows, true);
        add(prefix + "banded_8bit/launches", size.width, size.height, 8, 256u, "", rows, false);
        add(prefix + "grainy_8bit", size.width, size.height, 8, 16u, "", rows, true);
        add(prefix + "banded_10bit", size.width, size.height, 10, 256u, "", rows, true);
        add(prefix + "banded_8bit_full_ref", size.width, size.height, 8, 256u, "full_ref", rows, true);
        add(prefix + "banded_8bit_hrs", size.width, size.height, 8, 256u, "hrs", rows, true);
    }
}

const bool registered = (register_benchmarks(), true);

}  // namespace
}  // namespace vq::cambi

#endif  // VQ_WITH_CUDA
