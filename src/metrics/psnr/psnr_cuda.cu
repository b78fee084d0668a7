// PSNR, CUDA twin: the per-plane sums of squared errors of spec/psnr.md §4 on the device, exact in
// 64-bit integers like the CPU twin, so both twins produce the same bits. PsnrScorer turns the
// sums into scores on the host, as for the CPU twin.
#include <cstddef>
#include <cstdint>

#include "cuda/block_sum.cuh"
#include "cuda/check.hpp"
#include "cuda/cuda_feature.hpp"
#include "cuda/memory.hpp"
#include "metrics/psnr/psnr.hpp"
#include "metrics/toolkit/sample_type.hpp"

namespace vq::psnr {
namespace {

constexpr unsigned threads_per_block = 256;

struct PlanePair {
    const void* reference;
    const void* distorted;
    std::size_t samples;
};

struct FramePlanes {
    PlanePair planes[3];
};

// blockIdx.y picks the plane; the x blocks stride over its samples (a plane's rows are packed
// back to back, so a plane is one run of samples). |ref - dist| < 2^16, so a square fits 32 bits
// and one thread's sum of up to 2^32 squares fits 64.
template <typename Sample>
__global__ void __launch_bounds__(threads_per_block)
    sum_squared_errors(FramePlanes frame, unsigned long long* sse) {
    const PlanePair plane = frame.planes[blockIdx.y];
    const Sample* reference = static_cast<const Sample*>(plane.reference);
    const Sample* distorted = static_cast<const Sample*>(plane.distorted);
    unsigned long long sum = 0;
    const std::size_t stride = std::size_t(gridDim.x) * threads_per_block;
    for (std::size_t i = std::size_t(blockIdx.x) * threads_per_block + threadIdx.x;
         i < plane.samples; i += stride) {
        const long long difference = (long long)reference[i] - (long long)distorted[i];
        sum += (unsigned long long)(difference * difference);
    }
    sum = cuda::block_sum<threads_per_block>(sum);
    if (threadIdx.x == 0 && sum != 0) atomicAdd(&sse[blockIdx.y], sum);
}

static_assert(sizeof(unsigned long long) == sizeof(std::uint64_t),
              "Block::sse is added to as unsigned long long");

class PsnrCuda final : public ScorerTwin<cuda::CudaFeature, Scorer> {
public:
    using ScorerTwin::ScorerTwin;

    void prepare(cudaStream_t) override {}  // no tables or scratch: the block is the accumulator

    void enqueue(const cuda::DeviceFrame& frame, std::byte* device_block,
                 cudaStream_t stream) override {
        auto* sse = reinterpret_cast<unsigned long long*>(device_block + offsetof(Block, sse));
        cuda::zero_async(device_block, sizeof(Block), stream);
        FramePlanes planes{};
        std::size_t largest = 0;
        for (int p = 0; p < scorer_.plane_count(); ++p) {
            const std::size_t offset = format().plane_offset(p);
            const std::size_t samples =
                std::size_t(format().plane_width(p)) * std::size_t(format().plane_height(p));
            planes.planes[p] = {frame.reference + offset, frame.distorted + offset, samples};
            largest = std::max(largest, samples);
        }
        const dim3 grid(cuda::blocks_for(largest, threads_per_block),
                        unsigned(scorer_.plane_count()));
        with_sample_type(format().bit_depth, [&](auto sample) {
            sum_squared_errors<decltype(sample)>
                <<<grid, threads_per_block, 0, stream>>>(planes, sse);
        });
        VQ_CUDA_CHECK_LAUNCH(sum_squared_errors);
    }
};

}  // namespace

std::unique_ptr<Feature> make_cuda(const OptionValues& values) {
    return std::make_unique<PsnrCuda>(Scorer(values));
}

}  // namespace vq::psnr
