// CAMBI, CUDA twin: the full-resolution stages of one picture. The input check (§6.1), resize and
// conversion to 10 bits with the optional anti-dither filter (§6.2–6.4) in one pass, and the
// spatial mask (§7). All integer arithmetic, bit-identical to the CPU twin.
#include <algorithm>
#include <cstdint>

#include "cuda/check.hpp"
#include "metrics/cambi/cambi_cuda_kernels.cuh"
#include "metrics/toolkit/sample_type.hpp"

namespace vq::cambi::gpu {
namespace {

// §6.3 as ((v + round) >> down) << up: 8/9 bits shift up, 11..16 bits round half up.
struct TenBit {
    unsigned up;
    unsigned down;
    unsigned round;

    explicit TenBit(int bit_depth)
        : up(bit_depth < 10 ? unsigned(10 - bit_depth) : 0u),
          down(bit_depth > 10 ? unsigned(bit_depth - 10) : 0u),
          round(bit_depth > 10 ? 1u << (bit_depth - 11) : 0u) {}
    __device__ unsigned operator()(unsigned v) const { return ((v + round) >> down) << up; }
};

template <typename Sample>
__device__ unsigned converted_sample(const ConvertJob& job, TenBit ten_bit, int i, int j) {
    const int row = job.row_map ? job.row_map[i] : i;
    const int column = job.column_map ? job.column_map[j] : j;
    const auto* luma = static_cast<const Sample*>(job.luma);
    return ten_bit(luma[std::size_t(row) * std::size_t(job.input_width) + std::size_t(column)]);
}

// One output sample per thread; with the anti-dither filter (§6.4) it averages the converted
// samples to its right and below, which it converts itself (out of place, as the definition).
template <typename Sample>
__global__ void convert_kernel(const __grid_constant__ ConvertParams params, TenBit ten_bit) {
    const ConvertJob& job = params.jobs[blockIdx.z];
    const int j = int(blockIdx.x * blockDim.x + threadIdx.x);
    const int i = int(blockIdx.y * blockDim.y + threadIdx.y);
    if (i >= job.height || j >= job.width) return;
    unsigned value = converted_sample<Sample>(job, ten_bit, i, j);
    if (params.anti_dither) {
        const bool right = j + 1 < job.width;
        const bool below = i + 1 < job.height;
        if (right && below)
            value = (value + converted_sample<Sample>(job, ten_bit, i, j + 1) +
                     converted_sample<Sample>(job, ten_bit, i + 1, j) +
                     converted_sample<Sample>(job, ten_bit, i + 1, j + 1)) >>
                    2;
        else if (below)
            value = (value + converted_sample<Sample>(job, ten_bit, i + 1, j)) >> 1;
        else if (right)
            value = (value + converted_sample<Sample>(job, ten_bit, i, j + 1)) >> 1;
    }
    job.out[std::size_t(i) * std::size_t(job.width) + std::size_t(j)] = std::uint16_t(value);
}

struct LumaPlanes {
    const std::uint16_t* luma[max_pictures];
};

constexpr unsigned largest_threads = 256;

__global__ void largest_sample_kernel(const __grid_constant__ LumaPlanes planes,
                                      std::size_t samples, unsigned* largest) {
    const std::uint16_t* luma = planes.luma[blockIdx.y];
    unsigned value = 0;
    const std::size_t stride = std::size_t(gridDim.x) * largest_threads;
    for (std::size_t k = std::size_t(blockIdx.x) * largest_threads + threadIdx.x; k < samples;
         k += stride)
        value = max(value, unsigned(luma[k]));
    value = __reduce_max_sync(0xffffffffu, value);
    if (threadIdx.x % 32 == 0 && value != 0) atomicMax(&largest[blockIdx.y], value);
}

// §7. A block scores a 32×32 tile: Z on the tile and a 3-pixel margin (outside the picture Z is 0,
// the box is clipped), then the 7×7 box as a 7-wide row sum followed by a 7-tall column sum.
constexpr int mask_tile = 32;
constexpr int mask_radius = 3;
constexpr int flat_span = mask_tile + 2 * mask_radius;  // 38 Z rows and columns
constexpr int sample_span = flat_span + 1;              // Z reads one sample right and below
constexpr dim3 mask_block(32, 8);

__global__ void __launch_bounds__(256) mask_kernel(const __grid_constant__ MaskParams params) {
    const MaskJob& job = params.jobs[blockIdx.z];
    const int i0 = int(blockIdx.y) * mask_tile;
    const int j0 = int(blockIdx.x) * mask_tile;
    if (i0 >= job.height || j0 >= job.width) return;  // the grid fits the larger picture
    __shared__ std::uint16_t samples[sample_span][sample_span + 1];
    __shared__ std::uint8_t flat[flat_span][flat_span];
    __shared__ std::uint8_t row_sums[flat_span][mask_tile];
    const int thread = int(threadIdx.y * blockDim.x + threadIdx.x);
    const int threads = int(blockDim.x * blockDim.y);

    // Tile sample (r, c) is picture sample (i0 - 3 + r, j0 - 3 + c).
    for (int k = thread; k < sample_span * sample_span; k += threads) {
        const int r = k / sample_span, c = k % sample_span;
        const int i = i0 - mask_radius + r, j = j0 - mask_radius + c;
        const bool inside = i >= 0 && i < job.height && j >= 0 && j < job.width;
        samples[r][c] =
            inside ? job.image[std::size_t(i) * std::size_t(job.width) + std::size_t(j)] : 0;
    }
    __syncthreads();
    for (int k = thread; k < flat_span * flat_span; k += threads) {
        const int r = k / flat_span, c = k % flat_span;
        const int i = i0 - mask_radius + r, j = j0 - mask_radius + c;
        bool is_flat = false;
        if (i >= 0 && i < job.height && j >= 0 && j < job.width) {
            const std::uint16_t v = samples[r][c];
            is_flat = (j == job.width - 1 || v == samples[r][c + 1]) &&
                      (i == job.height - 1 || v == samples[r + 1][c]);
        }
        flat[r][c] = is_flat;
    }
    __syncthreads();
    for (int k = thread; k < flat_span * mask_tile; k += threads) {
        const int r = k / mask_tile, c = k % mask_tile;
        int sum = 0;
        for (int d = 0; d <= 2 * mask_radius; ++d) sum += flat[r][c + d];
        row_sums[r][c] = std::uint8_t(sum);
    }
    __syncthreads();
    for (int k = thread; k < mask_tile * mask_tile; k += threads) {
        const int r = k / mask_tile, c = k % mask_tile;
        const int i = i0 + r, j = j0 + c;
        if (i >= job.height || j >= job.width) continue;
        int box = 0;
        for (int d = 0; d <= 2 * mask_radius; ++d) box += row_sums[r + d][c];
        job.mask[std::size_t(i) * std::size_t(job.width) + std::size_t(j)] =
            std::uint8_t(box > job.threshold);
    }
}

unsigned ceil_div(int a, int b) { return unsigned((a + b - 1) / b); }

}  // namespace

void launch_convert(const ConvertParams& params, cudaStream_t stream) {
    int width = 0, height = 0;
    for (int p = 0; p < params.pictures; ++p) {
        width = std::max(width, params.jobs[p].width);
        height = std::max(height, params.jobs[p].height);
    }
    const dim3 block(32, 8);
    const dim3 grid(ceil_div(width, 32), ceil_div(height, 8), unsigned(params.pictures));
    const TenBit ten_bit(params.bit_depth);
    with_sample_type(params.bit_depth, [&](auto sample) {
        convert_kernel<decltype(sample)><<<grid, block, 0, stream>>>(params, ten_bit);
    });
    VQ_CUDA_CHECK_LAUNCH(convert_kernel);
}

void launch_largest_sample(const void* const luma[max_pictures], std::size_t samples, int pictures,
                           unsigned* largest, cudaStream_t stream) {
    LumaPlanes planes{};
    for (int p = 0; p < pictures; ++p) planes.luma[p] = static_cast<const std::uint16_t*>(luma[p]);
    const std::size_t wanted = (samples + largest_threads - 1) / largest_threads;
    const dim3 grid(unsigned(std::min<std::size_t>(std::max<std::size_t>(wanted, 1), 1024)),
                    unsigned(pictures));
    largest_sample_kernel<<<grid, largest_threads, 0, stream>>>(planes, samples, largest);
    VQ_CUDA_CHECK_LAUNCH(largest_sample_kernel);
}

void launch_mask(const MaskParams& params, cudaStream_t stream) {
    int width = 0, height = 0;
    for (int p = 0; p < params.pictures; ++p) {
        width = std::max(width, params.jobs[p].width);
        height = std::max(height, params.jobs[p].height);
    }
    const dim3 grid(ceil_div(width, mask_tile), ceil_div(height, mask_tile),
                    unsigned(params.pictures));
    mask_kernel<<<grid, mask_block, 0, stream>>>(params);
    VQ_CUDA_CHECK_LAUNCH(mask_kernel);
}

}  // namespace vq::cambi::gpu
