// PSNR-HVS, CUDA twin, the block work: one thread per 8x8 block runs the CPU twin's own block
// math (psnr_hvs_cpu_block_math.hpp, compiled for the device: integer DCTs, masks and the 64
// error terms, float op for op with --fmad=false) and stores the terms in the reference's order
// for the accumulator (psnr_hvs_cuda_sum.cu).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "cuda/check.hpp"
#include "cuda/host_device.hpp"
#include "metrics/psnr_hvs/psnr_hvs.hpp"
#include "metrics/psnr_hvs/psnr_hvs_cpu_tables.hpp"
#include "metrics/psnr_hvs/psnr_hvs_cuda.hpp"
#include "metrics/toolkit/sample_type.hpp"

namespace vq::psnr_hvs::cuda_twin {
namespace device {

using I32 = std::int32_t;
using U32 = std::uint32_t;
using F32 = float;
using PlaneTables = DeviceTables;

// float(int) rounds to nearest on both sides; the double square root is correctly rounded on
// both, and so is its rounding to float (spec §7).
VQ_HD inline F32 to_float(I32 value) { return float(value); }
VQ_HD inline F32 rounded_sqrt(F32 value) { return float(::sqrt(double(value))); }

#include "metrics/psnr_hvs/psnr_hvs_cpu_block_math.hpp"

}  // namespace device

namespace {

constexpr unsigned threads_per_block = 128;  // a multiple of group_blocks
static_assert(threads_per_block % group_blocks == 0);

template <typename Sample>
__global__ void __launch_bounds__(threads_per_block) block_terms(FrameJob job) {
    const PlaneJob& plane = job.planes[blockIdx.y];
    const int blocks = plane.columns * plane.rows;
    if (int(blockIdx.x * threads_per_block) >= blocks) return;  // the whole thread block
    __shared__ DeviceTables tables;
    for (unsigned i = threadIdx.x; i < 64; i += threads_per_block) {
        tables.csf[i] = plane.tables->csf[i];
        tables.mask_weight[i] = plane.tables->mask_weight[i];
    }
    __syncthreads();
    const int block = int(blockIdx.x * threads_per_block + threadIdx.x);
    double sum = 0;
    if (block < blocks) {
        const int y = (block / plane.columns) * block_step,
                  x = (block % plane.columns) * block_step;
        const std::size_t first = std::size_t(y) * std::size_t(plane.stride) + std::size_t(x);
        const Sample* reference = static_cast<const Sample*>(plane.reference) + first;
        const Sample* distorted = static_cast<const Sample*>(plane.distorted) + first;
        device::BlockSamples reference_samples, distorted_samples;
        for (int r = 0; r < 8; ++r)
            for (int c = 0; c < 8; ++c) {
                const std::size_t at = std::size_t(r) * std::size_t(plane.stride) + std::size_t(c);
                reference_samples[r * 8 + c] = device::I32(reference[at]);
                distorted_samples[r * 8 + c] = device::I32(distorted[at]);
            }
        float terms[64];
        device::block_terms(reference_samples, distorted_samples, tables, terms);
        float4* out = reinterpret_cast<float4*>(plane.terms + std::size_t(block) * 64);
        for (int k = 0; k < 16; ++k)
            out[k] =
                make_float4(terms[4 * k], terms[4 * k + 1], terms[4 * k + 2], terms[4 * k + 3]);
        for (int i = 0; i < 64; ++i) sum += double(terms[i]);
    }
    // A group is 16 consecutive blocks, i.e. 16 consecutive lanes: its sum (an estimate only, so
    // any order does).
    for (int offset = group_blocks / 2; offset > 0; offset /= 2)
        sum += __shfl_down_sync(0xffffffffu, sum, offset, group_blocks);
    if (block < blocks && block % group_blocks == 0) plane.group_sums[block / group_blocks] = sum;
}

}  // namespace

void enqueue_terms(const FrameJob& job, int bit_depth, cudaStream_t stream) {
    int largest = 0;
    for (const PlaneJob& plane : job.planes)
        largest = std::max(largest, plane.columns * plane.rows);
    const dim3 grid((unsigned(largest) + threads_per_block - 1) / threads_per_block, 3);
    with_sample_type(bit_depth, [&](auto sample) {
        block_terms<decltype(sample)><<<grid, threads_per_block, 0, stream>>>(job);
    });
    VQ_CUDA_CHECK_LAUNCH(block_terms);
}

}  // namespace vq::psnr_hvs::cuda_twin
