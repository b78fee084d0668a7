// Motion, CUDA twin: the blurred-difference SAD of spec/vmaf.md §3.2 on the device, exact in
// 64-bit integers like the CPU twin. Frames reach a CUDA twin in order on one stream, so the twin
// keeps the last `lag` reference luma planes on the device itself (the temporal contract's device
// half) instead of receiving them from the host.
#include <cstdint>
#include <vector>

#include "cuda/block_sum.cuh"
#include "cuda/check.hpp"
#include "cuda/cuda_feature.hpp"
#include "cuda/memory.hpp"
#include "metrics/motion/motion.hpp"
#include "metrics/toolkit/mirror.hpp"
#include "metrics/toolkit/sample_type.hpp"

namespace vq::motion {
namespace {

constexpr int tile_width = 256;  // threads per block: one row segment of this many columns

__constant__ std::int32_t device_taps[5];

// Block (x, y) blurs columns [x·256, x·256+256) of row y: the vertical pass for those columns and
// two mirrored columns either side into shared memory, then the horizontal pass, |·| and one
// exact block sum added to the frame's SAD.
template <typename Sample>
__global__ void __launch_bounds__(tile_width)
    blurred_difference_sad(const Sample* previous, const Sample* current, int width, int height,
                           int shift, unsigned long long* sad, std::uint32_t* has_previous) {
    __shared__ long long vertical[tile_width + 2 * blur_radius];
    const int row = blockIdx.y;
    const int x0 = blockIdx.x * tile_width;
    const long long round = 1ll << (shift - 1);
    for (int t = threadIdx.x; t < tile_width + 2 * blur_radius; t += tile_width) {
        const int column = x0 - blur_radius + t;
        if (column >= width + blur_radius) continue;  // beyond every output of this block
        const int x = mirror(column, width);
        long long a = 0;
        for (int k = 0; k < 5; ++k) {
            const std::size_t at =
                std::size_t(mirror(row - blur_radius + k, height)) * std::size_t(width) + x;
            a += (long long)device_taps[k] * ((long long)previous[at] - (long long)current[at]);
        }
        vertical[t] = (a + round) >> shift;
    }
    __syncthreads();
    const int column = x0 + threadIdx.x;
    unsigned long long magnitude = 0;
    if (column < width) {
        long long b = 0;
        for (int k = 0; k < 5; ++k) b += (long long)device_taps[k] * vertical[threadIdx.x + k];
        const long long v = (b + 32768) >> 16;
        magnitude = (unsigned long long)(v < 0 ? -v : v);
    }
    magnitude = cuda::block_sum<tile_width>(magnitude);
    if (threadIdx.x == 0) {
        if (magnitude != 0) atomicAdd(sad, magnitude);
        if (blockIdx.x == 0 && blockIdx.y == 0) *has_previous = 1;
    }
}

class MotionCuda final : public ScorerTwin<cuda::CudaFeature, Scorer> {
public:
    using ScorerTwin::ScorerTwin;

    void prepare(cudaStream_t stream) override {
        cuda::copy_to_symbol_async(device_taps, blur_taps, stream);
        for (int k = 0; k < scorer_.options().lag(); ++k)
            earlier_.emplace_back(format().plane_bytes(0));
    }

    // The SAD against the plane `lag` frames back (once there is one; with force_zero the scorer
    // ignores it), then the current plane replaces the oldest of the kept ones, in stream order.
    void enqueue(const cuda::DeviceFrame& frame, std::byte* device_block,
                 cudaStream_t stream) override {
        cuda::zero_async(device_block, sizeof(Block), stream);
        const std::size_t lag = earlier_.size();
        cuda::DeviceBuffer& oldest = earlier_[frames_ % lag];
        if (frames_ >= lag && !scorer_.options().force_zero) {
            auto* sad = reinterpret_cast<unsigned long long*>(device_block + offsetof(Block, sad));
            auto* has_previous =
                reinterpret_cast<std::uint32_t*>(device_block + offsetof(Block, has_previous));
            const dim3 grid(unsigned((format().width + tile_width - 1) / tile_width),
                            unsigned(format().height));
            const int shift = format().bit_depth == 8 ? 8 : format().bit_depth;
            with_sample_type(format().bit_depth, [&](auto sample) {
                using Sample = decltype(sample);
                blurred_difference_sad<<<grid, tile_width, 0, stream>>>(
                    reinterpret_cast<const Sample*>(oldest.data()),
                    reinterpret_cast<const Sample*>(frame.reference), format().width,
                    format().height, shift, sad, has_previous);
            });
            VQ_CUDA_CHECK_LAUNCH(blurred_difference_sad);
        }
        cuda::copy_async(oldest.data(), frame.reference, format().plane_bytes(0), stream);
        ++frames_;
    }

private:
    std::vector<cuda::DeviceBuffer> earlier_;  // the last `lag` reference luma planes, a ring
    std::size_t frames_ = 0;
};

}  // namespace

std::unique_ptr<Feature> make_cuda(const OptionValues& values) {
    return std::make_unique<MotionCuda>(Scorer(values));
}

}  // namespace vq::motion
