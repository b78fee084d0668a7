// Motion, CUDA twin: the blurred-difference SAD of spec/vmaf.md §3.2 on the device, exact in
// 64-bit integers like the CPU twin. Frames reach a CUDA twin in order on one stream, so the twin
// keeps the last lag + 1 reference luma planes on the device itself (the temporal contract's
// device half) instead of receiving them from the host.
#include <cstdint>
#include <type_traits>
#include <vector>

#include "cuda/block_sum.cuh"
#include "cuda/check.hpp"
#include "cuda/cuda_feature.hpp"
#include "cuda/memory.hpp"
#include "cuda/wide_multiply.cuh"
#include "metrics/motion/motion.hpp"
#include "metrics/toolkit/mirror.hpp"
#include "metrics/toolkit/sample_type.hpp"

namespace vq::motion {
namespace {

// A block of `block_threads` threads takes a tile of tile_rows rows: a thread per column of the
// span (the tile's columns and two mirrored ones either side) runs the vertical pass down its
// column, its samples read once into registers, and the horizontal pass then gives each of
// the first tile_width threads one output column.
constexpr int block_threads = 256;
constexpr int tile_width = block_threads - 2 * blur_radius;
constexpr int tile_rows = 16;

__constant__ std::int32_t device_taps[5];

// The vertical sum of §3.2 over differences d (|d| < 2^bpc): Σ M·d with Σ M = 65536 stays below
// 65536·255 < 2^31 in magnitude at 8 bits, so int32 holds it; deeper samples take int64.
template <typename Sample>
using VerticalSum = std::conditional_t<sizeof(Sample) == 1, std::int32_t, std::int64_t>;

// m·d + s in the sum's width. Every partial sum is a sum of some of the terms M[k]·d[k], so a
// total that fits means every step fits.
template <typename Sum>
__device__ inline Sum mad(std::int32_t m, std::int32_t d, Sum s) {
    return cuda::mad_in_width(m, d, s);
}

// The 5-tap blur of five values at one position, mirrored taps folded (M[k] = M[4-k]: M[k]·d_a
// + M[k]·d_b = M[k]·(d_a + d_b), and |d_a + d_b| < 2^17 fits int32).
template <typename Sum>
__device__ inline Sum blur(std::int32_t d0, std::int32_t d1, std::int32_t d2, std::int32_t d3,
                           std::int32_t d4) {
    return mad(device_taps[0], d0 + d4,
               mad(device_taps[1], d1 + d3, mad(device_taps[2], d2, Sum(0))));
}

// Block (x, y) sums |blurred difference| over output columns [x·tile_width, +tile_width) and
// rows [y·tile_rows, +tile_rows), exactly, and adds that to the frame's SAD. It also copies those
// samples of `current` into `kept`, which keeps the plane for the frames after (each sample is in
// one block's rows and columns, and already in a register there).
template <typename Sample>
__global__ void __launch_bounds__(block_threads)
    blurred_difference_sad(const Sample* __restrict__ previous, const Sample* __restrict__ current,
                           Sample* __restrict__ kept, int width, int height, int shift,
                           unsigned long long* sad, std::uint32_t* has_previous) {
    constexpr int span_rows = tile_rows + 2 * blur_radius;
    // y of §3.2: |y| ≤ 65535 at every depth.
    __shared__ std::int32_t vertical[tile_rows][block_threads];
    const int x0 = blockIdx.x * tile_width, y0 = blockIdx.y * tile_rows;
    const int column = threadIdx.x;
    const std::size_t x =
        std::size_t(mirror_clamped(x0 - blur_radius + column, width, blur_radius));
    // The samples `kept` gets from this block: its output columns and its rows (span rows 2..17)
    // inside the plane, where the mirroring above is the identity.
    const bool own_column = column >= blur_radius && column < blur_radius + tile_width &&
                            x0 - blur_radius + column < width;
    std::int32_t d[span_rows];
#pragma unroll
    for (int j = 0; j < span_rows; ++j) {
        const std::size_t at =
            std::size_t(mirror_clamped(y0 - blur_radius + j, height, blur_radius)) *
                std::size_t(width) +
            x;
        const Sample sample = current[at];
        d[j] = std::int32_t(previous[at]) - std::int32_t(sample);
        if (j >= blur_radius && j < blur_radius + tile_rows && own_column &&
            y0 - blur_radius + j < height)
            kept[at] = sample;
    }
    const VerticalSum<Sample> round = VerticalSum<Sample>(1) << (shift - 1);
#pragma unroll
    for (int i = 0; i < tile_rows; ++i)
        vertical[i][column] = std::int32_t(
            (blur<VerticalSum<Sample>>(d[i], d[i + 1], d[i + 2], d[i + 3], d[i + 4]) + round) >>
            shift);
    __syncthreads();

    unsigned long long magnitude = 0;
    if (column < tile_width && x0 + column < width) {
        const int rows = min(tile_rows, height - y0);
        for (int i = 0; i < rows; ++i) {
            const std::int32_t* y = &vertical[i][column];
            // |b| ≤ 65536·65535: 64 bits.
            const std::int64_t b = blur<std::int64_t>(y[0], y[1], y[2], y[3], y[4]);
            const std::int64_t v = (b + 32768) >> 16;
            magnitude += (unsigned long long)(v < 0 ? -v : v);
        }
    }
    magnitude = cuda::block_sum<block_threads>(magnitude);
    if (threadIdx.x == 0) {
        if (magnitude != 0) atomicAdd(sad, magnitude);
        if (blockIdx.x == 0 && blockIdx.y == 0) *has_previous = 1;
    }
}

class MotionCuda final : public ScorerTwin<cuda::CudaFeature, Scorer> {
public:
    using ScorerTwin::ScorerTwin;

    // lag + 1 kept planes: the frame `lag` back is read while the current one is written.
    void prepare(cudaStream_t stream) override {
        cuda::copy_to_symbol_async(device_taps, blur_taps, stream);
        for (int k = 0; k <= scorer_.options().lag(); ++k)
            earlier_.emplace_back(format().plane_bytes(0));
    }

    // The SAD against the plane `lag` frames back (once there is one; with force_zero the scorer
    // ignores it), whose kernel also keeps the current plane; without it, a copy keeps it. Frame
    // n is kept in slot n mod (lag + 1), so the slot read (n - lag) is never the one written.
    void enqueue(const cuda::DeviceFrame& frame, std::byte* device_block,
                 cudaStream_t stream) override {
        cuda::zero_async(device_block, sizeof(Block), stream);
        const std::size_t slots = earlier_.size(), lag = slots - 1;
        cuda::DeviceBuffer& latest = earlier_[frames_ % slots];
        if (frames_ >= lag && !scorer_.options().force_zero) {
            const cuda::DeviceBuffer& previous = earlier_[(frames_ - lag) % slots];
            auto* sad = reinterpret_cast<unsigned long long*>(device_block + offsetof(Block, sad));
            auto* has_previous =
                reinterpret_cast<std::uint32_t*>(device_block + offsetof(Block, has_previous));
            const dim3 grid(unsigned((format().width + tile_width - 1) / tile_width),
                            unsigned((format().height + tile_rows - 1) / tile_rows));
            const int shift = format().bit_depth == 8 ? 8 : format().bit_depth;
            with_sample_type(format().bit_depth, [&](auto sample) {
                using Sample = decltype(sample);
                blurred_difference_sad<<<grid, block_threads, 0, stream>>>(
                    reinterpret_cast<const Sample*>(previous.data()),
                    reinterpret_cast<const Sample*>(frame.reference),
                    reinterpret_cast<Sample*>(latest.data()), format().width, format().height,
                    shift, sad, has_previous);
            });
            VQ_CUDA_CHECK_LAUNCH(blurred_difference_sad);
        } else {
            cuda::copy_async(latest.data(), frame.reference, format().plane_bytes(0), stream);
        }
        ++frames_;
    }

private:
    std::vector<cuda::DeviceBuffer> earlier_;  // the last lag + 1 reference luma planes, a ring
    std::size_t frames_ = 0;
};

}  // namespace

std::unique_ptr<Feature> make_cuda(const OptionValues& values) {
    return std::make_unique<MotionCuda>(Scorer(values));
}

}  // namespace vq::motion
