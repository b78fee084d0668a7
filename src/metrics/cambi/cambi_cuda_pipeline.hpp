// CAMBI, CUDA twin: the per-frame device pipeline of §4 for the distorted picture and, with
// full_ref, the reference picture, and the host arithmetic that turns its result block into
// scores. Every stage runs on the device; a frame's only output is the small result block.
#pragma once

#include <cuda_runtime.h>

#include <array>
#include <cstdint>
#include <vector>

#include "cuda/cuda_feature.hpp"
#include "cuda/graph.hpp"
#include "cuda/memory.hpp"
#include "cuda/stream.hpp"
#include "metrics/cambi/cambi.hpp"
#include "metrics/cambi/cambi_cuda_kernels.cuh"

namespace vq::cambi {

// The result block, written by the device.
struct CudaBlock {
    // [picture][scale]: the exact sum of the scale's k largest c-values times 2^24, as a 128-bit
    // integer (low word first). Picture 0 is the distorted one, 1 the reference (full_ref).
    unsigned long long top_k_sums[gpu::max_pictures][num_scales][2];
    // §6.1: the largest input luma sample of each picture; computed for bit depths 9..15 only.
    unsigned largest_sample[gpu::max_pictures];
    // [picture][scale]: 1 where §15.3's condition fails, so that the reference's double sum may
    // differ from the exact one in the last bits; 0 elsewhere.
    unsigned order_dependent[gpu::max_pictures][num_scales];
};

// §11.1 from the exact sum: sum · 2^-24 / k rounded once to double (the reference's value
// whenever its own double sum is exact, §15.3).
double exact_top_k_mean(unsigned __int128 sum, std::uint64_t k);

// §11.1–11.2: a picture's score (before the cambi_max_val clamp) from the block. With
// `copied` (reference_order=true: the picture's c-value planes as CudaPipeline::copied_planes
// gives them), each order-dependent scale is pooled by the CPU twin's top_k_mean, in the
// reference's order (it permutes the copy); every other scale by its exact mean.
double picture_score(const CudaBlock& block, int picture, const Config& config,
                     float* copied = nullptr);

// Events the pipeline records around its stages when asked (benchmarks).
enum class Stage { convert, mask, scales, c_values, top_k };
inline constexpr int stage_count = 5;
using StageEvents = std::array<cuda::Event, stage_count + 1>;  // before the first, after each

class CudaPipeline {
public:
    // Output rows per c-value tile (gpu::max_tile_rows at most).
    static constexpr int default_tile_rows = 16;  // fastest of 16, 32, 64 on an H200 (bench)

    // Allocates every plane and table of the run on the current device and uploads the tables on
    // `stream`. With `graphs`, a frame's launches are captured once per combination of frame and
    // block addresses (the executor cycles through a few) and replayed as one CUDA graph.
    CudaPipeline(const Config& config, const VideoFormat& format, cudaStream_t stream,
                 int tile_rows = default_tile_rows, bool graphs = true);
    CudaPipeline(const CudaPipeline&) = delete;
    CudaPipeline& operator=(const CudaPipeline&) = delete;

    // One frame's work, on `stream`, without any host wait; writes *device_block. With `events`
    // the stages are launched one by one (no graph), with an event recorded around each. With
    // reference_order, the order-dependent planes are also copied into the block's pinned area
    // (copied_planes).
    void enqueue(const cuda::DeviceFrame& frame, CudaBlock* device_block, cudaStream_t stream,
                 const StageEvents* events = nullptr);

    int pictures() const { return pictures_; }

    // reference_order=true: a picture's c-value planes as the last frame enqueued with
    // `device_block` copied them (every scale back to back, as copy_c_values; only the flagged
    // planes are written). Valid once that frame is done, until `device_block` is enqueued again.
    // One pinned area per block address, made when the block is first enqueued.
    float* copied_planes(const CudaBlock* device_block, int picture) const;

    // The planes the last frame left, copied back synchronously (tests).
    std::vector<std::uint16_t> converted(int picture) const;
    std::vector<std::uint8_t> mask(int picture) const;
    std::vector<std::uint16_t> filtered(int picture, int scale) const;
    std::vector<std::uint16_t> counted(int picture, int scale) const;
    std::vector<float> c_values(int picture, int scale) const;

    // Every scale's c-values of a picture, back to back in scale order (heatmaps).
    std::size_t c_value_count(int picture) const;
    void copy_c_values(int picture, float* host, cudaStream_t stream) const;

private:
    // One picture's planes. Pointers into the run's arrays below: the stage parameters (and the
    // captured graphs) hold the same addresses.
    struct Planes {
        std::uint16_t* converted = nullptr;  // P, W×H
        std::uint8_t* mask = nullptr;        // M, W×H
        std::array<std::uint16_t*, num_scales> filtered{};
        std::array<std::uint16_t*, num_scales> counted{};
        std::array<float*, num_scales> c{};
        std::array<std::array<int, 2>, num_scales> sizes{};
        const int* column_map = nullptr;  // §6.2 on the device; null for the identity
        const int* row_map = nullptr;
    };

    // The arrays behind one picture's Planes.
    struct PlaneArrays {
        cuda::DeviceArray<std::uint16_t> converted;
        cuda::DeviceArray<std::uint8_t> mask;
        std::array<cuda::DeviceArray<std::uint16_t>, num_scales> filtered, counted;
        std::array<cuda::DeviceArray<float>, num_scales> c;
        cuda::DeviceArray<int> column_map, row_map;
    };

    struct Graph {
        const std::byte* distorted;
        const std::byte* reference;
        CudaBlock* block;
        cuda::GraphExec executable;
    };

    // reference_order=true: where a block's frames copy their order-dependent planes.
    struct Readback {
        const CudaBlock* block;
        cuda::PinnedArray<float> planes;  // both pictures' planes, back to back
    };

    void launch_stages(const cuda::DeviceFrame& frame, CudaBlock* device_block, cudaStream_t stream,
                       const StageEvents* events);
    void launch_readback(const CudaBlock* device_block, const gpu::TopKParams& top_k,
                         cudaStream_t stream);
    const cuda::GraphExec* graph_for(const cuda::DeviceFrame& frame, CudaBlock* device_block,
                                     cudaStream_t stream);
    const PictureGeometry& geometry(int picture) const;
    float* readback_for(const CudaBlock* device_block);
    void allocate(cudaStream_t stream);
    void prepare_stage_params();

    Config config_;
    VideoFormat format_;
    int pictures_;
    int tile_rows_;
    bool use_graphs_;
    std::vector<Graph> graphs_;
    std::vector<Readback> readbacks_;
    std::array<PlaneArrays, gpu::max_pictures> arrays_;
    cuda::DeviceArray<float> reciprocal_;  // the §14 table
    cuda::DeviceBuffer top_k_scratch_;  // the selection's state (opaque here), zeroed every frame
    std::array<Planes, gpu::max_pictures> planes_{};
    gpu::CValueParams c_value_params_;
    gpu::TopKParams top_k_params_;
};

}  // namespace vq::cambi
