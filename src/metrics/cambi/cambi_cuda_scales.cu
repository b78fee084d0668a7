// CAMBI, CUDA twin: one scale's image (§8, §9). Decimation and the mode filter in one pass, out of
// place: each output reads the 3×3 neighbourhood it needs straight from the previous scale's
// filtered image (the even samples when decimating), so no decimated copy is ever stored. The
// same pass writes the scale's counting plane for the c-value stage: the filtered value where
// the decimated mask is set, `unmasked` elsewhere.
#include <algorithm>
#include <cstdint>

#include "cuda/check.hpp"
#include "metrics/cambi/cambi_cuda_kernels.cuh"

namespace vq::cambi::gpu {
namespace {

// §9: a if it repeats, else b if b == c, else the minimum ("all different" gives the minimum).
__device__ unsigned mode3(unsigned a, unsigned b, unsigned c) {
    if (a == b || a == c) return a;
    if (b == c) return b;
    return min(a, min(b, c));
}

struct DecimatedImage {
    const std::uint16_t* previous;
    int previous_width;
    int shift;  // 1 when decimating
    int width;

    __device__ unsigned at(int i, int j) const {
        return previous[std::size_t(i << shift) * std::size_t(previous_width) +
                        std::size_t(j << shift)];
    }
    // The horizontal pass: columns 0 and w-1 are copied.
    __device__ unsigned horizontal_mode(int i, int j) const {
        if (j == 0 || j == width - 1) return at(i, j);
        return mode3(at(i, j - 1), at(i, j), at(i, j + 1));
    }
};

__global__ void scale_kernel(const __grid_constant__ ScaleParams params) {
    const ScaleJob& job = params.jobs[blockIdx.z];
    const int j = int(blockIdx.x * blockDim.x + threadIdx.x);
    const int i = int(blockIdx.y * blockDim.y + threadIdx.y);
    if (i >= job.height || j >= job.width) return;
    const DecimatedImage image{job.previous, job.previous_width, job.decimate, job.width};
    // Rows 0 and h-1 keep their original values, and nothing changes when h < 3.
    const bool inner_row = i > 0 && i < job.height - 1;
    const unsigned value = inner_row
                               ? mode3(image.horizontal_mode(i - 1, j), image.horizontal_mode(i, j),
                                       image.horizontal_mode(i + 1, j))
                               : image.at(i, j);
    const std::size_t at = std::size_t(i) * std::size_t(job.width) + std::size_t(j);
    const bool masked = job.mask[std::size_t(i << job.mask_shift) * std::size_t(job.mask_width) +
                                 std::size_t(j << job.mask_shift)];
    job.filtered[at] = std::uint16_t(value);
    job.counted[at] = masked ? std::uint16_t(value) : unmasked;
}

}  // namespace

void launch_scale(const ScaleParams& params, cudaStream_t stream) {
    int width = 0, height = 0;
    for (int p = 0; p < params.pictures; ++p) {
        width = std::max(width, params.jobs[p].width);
        height = std::max(height, params.jobs[p].height);
    }
    const dim3 block(32, 8);
    const dim3 grid(unsigned((width + 31) / 32), unsigned((height + 7) / 8),
                    unsigned(params.pictures));
    scale_kernel<<<grid, block, 0, stream>>>(params);
    VQ_CUDA_CHECK_LAUNCH(scale_kernel);
}

}  // namespace vq::cambi::gpu
