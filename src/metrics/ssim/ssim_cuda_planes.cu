// SSIM and MS-SSIM, CUDA twin: the plane stages, one thread per output element, each doing the CPU
// twin's operations in its order (products rounded to float, summed in double in tap order; the
// terms through ssim_math.hpp, which both twins call).
#include <cstdint>

#include "cuda/check.hpp"
#include "cuda/memory.hpp"
#include "metrics/ssim/ssim_cuda_kernels.cuh"
#include "metrics/ssim/ssim_math.hpp"
#include "metrics/ssim/ssim_tables.hpp"

namespace vq::ssim::gpu {
namespace {

constexpr int tile_x = 32;
constexpr int tile_y = 8;
constexpr int moments = 5;  // R, D, R*R, D*D, R*D

__constant__ float gaussian_taps[window];
__constant__ float pyramid_kernel[lpf_taps * lpf_taps];

dim3 grid_for(int width, int height) {
    return dim3(unsigned((width + tile_x - 1) / tile_x), unsigned((height + tile_y - 1) / tile_y));
}

template <typename Sample>
__global__ void convert_kernel(const Sample* luma, int width, int height, float reciprocal,
                               float* out) {
    const int x = int(blockIdx.x) * tile_x + int(threadIdx.x);
    const int y = int(blockIdx.y) * tile_y + int(threadIdx.y);
    if (x >= width || y >= height) return;
    const std::size_t i = std::size_t(y) * std::size_t(width) + std::size_t(x);
    out[i] = float(luma[i]) * reciprocal;
}

// Spec §7.1; Box: every weight is `box_weight`, otherwise the 9x9 table.
template <typename Sample, bool Box>
__global__ void decimate_kernel(const Sample* in, int width, int height, float reciprocal,
                                int factor, int taps, float box_weight, float* out, int out_width,
                                int out_height) {
    const int x = int(blockIdx.x) * tile_x + int(threadIdx.x);
    const int y = int(blockIdx.y) * tile_y + int(threadIdx.y);
    if (x >= out_width || y >= out_height) return;
    const auto weight = [&](int v, int k) {
        return Box ? box_weight : pyramid_kernel[v * taps + k];
    };
    out[std::size_t(y) * std::size_t(out_width) + std::size_t(x)] =
        decimated_sample(in, width, height, reciprocal, factor, taps, weight, x, y);
}

// Spec §5 step 1 for the five moments: every input row, valid columns.
__global__ void horizontal_kernel(const float* ref, const float* dist, int width, int height,
                                  float* horizontal) {
    const int valid_width = width - (window - 1);
    const int x = int(blockIdx.x) * tile_x + int(threadIdx.x);
    const int y = int(blockIdx.y) * tile_y + int(threadIdx.y);
    if (x >= valid_width || y >= height) return;
    const std::size_t at = std::size_t(y) * std::size_t(width) + std::size_t(x);
    float moments_here[moments];
    horizontal_moments(ref + at, dist + at, gaussian_taps, moments_here);
    const std::size_t plane = std::size_t(valid_width) * std::size_t(height);
    const std::size_t i = std::size_t(y) * std::size_t(valid_width) + std::size_t(x);
    for (int m = 0; m < moments; ++m) horizontal[m * plane + i] = moments_here[m];
}

// Spec §5 step 2 and §6.2: the blurred moments of a valid position, then its terms.
__global__ void vertical_terms_kernel(const float* horizontal, int valid_width, int height,
                                      TermPlanes out) {
    const int valid_height = height - (window - 1);
    const int x = int(blockIdx.x) * tile_x + int(threadIdx.x);
    const int y = int(blockIdx.y) * tile_y + int(threadIdx.y);
    if (x >= valid_width || y >= valid_height) return;
    const std::size_t plane = std::size_t(valid_width) * std::size_t(height);
    const std::size_t i = std::size_t(y) * std::size_t(valid_width) + std::size_t(x);
    float blurred[moments];
    for (int m = 0; m < moments; ++m)
        blurred[m] =
            vertical_moment(horizontal + m * plane + i, std::size_t(valid_width), gaussian_taps);
    const Terms t = ssim::terms(blurred[0], blurred[1], blurred[2], blurred[3], blurred[4]);
    out.l[i] = t.l;
    out.c[i] = t.c;
    out.s[i] = float(t.s);  // exact: s is a float widened
}

}  // namespace

void upload_tables(cudaStream_t stream) {
    cuda::copy_to_symbol_async(gaussian_taps, std::span<const float, window>(gaussian), stream);
    cuda::copy_to_symbol_async(pyramid_kernel, std::span<const float, lpf_taps * lpf_taps>(lpf),
                               stream);
}

template <typename Sample>
void convert(const Sample* luma, int width, int height, float reciprocal, float* out,
             cudaStream_t stream) {
    convert_kernel<Sample><<<grid_for(width, height), dim3(tile_x, tile_y), 0, stream>>>(
        luma, width, height, reciprocal, out);
    VQ_CUDA_CHECK_LAUNCH(convert_kernel);
}

template <typename Sample>
void box_decimate(const Sample* luma, int width, int height, float reciprocal, int factor,
                  float* out, cudaStream_t stream) {
    const int out_width = decimated_size(width, factor);
    const int out_height = decimated_size(height, factor);
    const float weight = 1.0f / float(factor * factor);  // box_kernel()'s entries
    decimate_kernel<Sample, true>
        <<<grid_for(out_width, out_height), dim3(tile_x, tile_y), 0, stream>>>(
            luma, width, height, reciprocal, factor, factor, weight, out, out_width, out_height);
    VQ_CUDA_CHECK_LAUNCH(decimate_kernel);
}

void pyramid_decimate(const float* in, int width, int height, float* out, cudaStream_t stream) {
    const int out_width = decimated_size(width, 2);
    const int out_height = decimated_size(height, 2);
    decimate_kernel<float, false>
        <<<grid_for(out_width, out_height), dim3(tile_x, tile_y), 0, stream>>>(
            in, width, height, 1.0f, 2, lpf_taps, 0.0f, out, out_width, out_height);
    VQ_CUDA_CHECK_LAUNCH(decimate_kernel);
}

void terms(const float* ref, const float* dist, int width, int height, float* horizontal,
           const TermPlanes& out, cudaStream_t stream) {
    const int valid_width = width - (window - 1);
    horizontal_kernel<<<grid_for(valid_width, height), dim3(tile_x, tile_y), 0, stream>>>(
        ref, dist, width, height, horizontal);
    VQ_CUDA_CHECK_LAUNCH(horizontal_kernel);
    vertical_terms_kernel<<<grid_for(valid_width, height - (window - 1)), dim3(tile_x, tile_y), 0,
                            stream>>>(horizontal, valid_width, height, out);
    VQ_CUDA_CHECK_LAUNCH(vertical_terms_kernel);
}

template void convert(const std::uint8_t*, int, int, float, float*, cudaStream_t);
template void convert(const std::uint16_t*, int, int, float, float*, cudaStream_t);
template void box_decimate(const std::uint8_t*, int, int, float, int, float*, cudaStream_t);
template void box_decimate(const std::uint16_t*, int, int, float, int, float*, cudaStream_t);

}  // namespace vq::ssim::gpu
