// SSIM and MS-SSIM, CUDA twin: spec §6.3's serial double sums with the CPU twin's bits, by the
// toolkit's ordered sums (ordered_sum.hpp, ordered_sum_warp.cuh), every scale of a frame at once
// (blockIdx.y is the scale):
//   1. each chunk's sum in any order (added up by terms_kernel, ssim_cuda_planes.cu);
//   2. the running sum before each chunk from those, one block a stream (approximate: it only
//      picks the binade each chunk is summarised on);
//   3. each chunk's Grid on that binade (8 terms a lane, then a tree over the warp);
//   4. groups of 32 chunks, then super-groups of 32 groups, as trees of Grids;
//   5. one warp a (scale, stream) walks them in order (a window of 32 Grids at once), adding
//      serially where a check fails, and writes the mean (§6.4) into the device block.
#include "cuda/check.hpp"
#include "metrics/ssim/ssim_cuda_kernels.cuh"
#include "metrics/toolkit/ordered_sum_warp.cuh"

namespace vq::ssim::gpu {
namespace {

using ordered::Grid;

constexpr int warp = ordered::warp_lanes;

// Term i of stream `stream`, as the CPU twin adds it: (l * c) * s, l, c, s.
struct TermReader {
    TermPlanes planes;
    int stream;

    __device__ double operator()(long long i) const {
        switch (stream) {
        case 0: return (planes.l[i] * planes.c[i]) * double(planes.s[i]);
        case 1: return planes.l[i];
        case 2: return planes.c[i];
        default: return double(planes.s[i]);
        }
    }
};

// Exclusive running sums of the chunk sums (terms_kernel's atomics); the chunk sums are cleared
// for the next frame once read.
__global__ void __launch_bounds__(ordered::running_threads) prefix_kernel(SumJob job) {
    if (int(blockIdx.y) >= job.scale_count) return;
    const SumScale& scale = job.scales[blockIdx.y];
    const long long chunks = ordered::level_size(0, scale.terms.count);
    ordered::running_sums(scale.approximate + blockIdx.x * chunks,
                          scale.prefix + blockIdx.x * chunks, chunks, true);
}

__global__ void chunk_kernel(SumJob job) {
    if (int(blockIdx.y) >= job.scale_count) return;
    const SumScale& scale = job.scales[blockIdx.y];
    const long long count = scale.terms.count;
    const long long chunks = ordered::level_size(0, count);
    const long long chunk = blockIdx.x;
    if (chunk >= chunks) return;
    for (int stream = 0; stream < sum_streams; ++stream) {
        const int e = ordered::binade_of(scale.prefix[stream * chunks + chunk]);
        const Grid g = ordered::chunk_grid(TermReader{scale.terms, stream}, chunk, count, e);
        if (threadIdx.x == 0) scale.chunks[stream * chunks + chunk] = g;
    }
}

// One level up: 32 Grids of level - 1 per Grid of `level` (chunks -> groups -> super-groups).
__global__ void level_kernel(SumJob job, int level) {
    if (int(blockIdx.y) >= job.scale_count) return;
    const SumScale& scale = job.scales[blockIdx.y];
    const long long below_count = ordered::level_size(level - 1, scale.terms.count);
    const long long above_count = ordered::level_size(level, scale.terms.count);
    const long long index = blockIdx.x;
    if (index >= above_count) return;
    const Grid* below = level == 2 ? scale.groups : scale.chunks;
    Grid* out = level == 2 ? scale.supers : scale.groups;
    for (int stream = 0; stream < sum_streams; ++stream) {
        const Grid total = ordered::level_grid(below + stream * below_count, below_count, index);
        if (threadIdx.x == 0) out[stream * above_count + index] = total;
    }
}

// One (scale, stream) per block of one warp.
__global__ void walk_kernel(SumJob job) {
    const int scale_index = int(blockIdx.x) / sum_streams;
    const int stream = int(blockIdx.x) % sum_streams;
    if (scale_index >= job.scale_count) return;  // the whole block
    __shared__ Grid windows[3][ordered::fan_out];
    __shared__ double staged[ordered::staged_terms];
    const SumScale& scale = job.scales[scale_index];
    const long long count = scale.terms.count;
    ordered::WarpWalk<TermReader> context{{scale.chunks + stream * ordered::level_size(0, count),
                                           scale.groups + stream * ordered::level_size(1, count),
                                           scale.supers + stream * ordered::level_size(2, count)},
                                          TermReader{scale.terms, stream},
                                          count,
                                          windows,
                                          staged};
    const double sum = ordered::walk(context, count);
    if (threadIdx.x != 0) return;
    // Spec §6.4: the count is a 32-bit product, as the reference forms it.
    const double positions = double(scale.valid_width * scale.valid_height);
    const float mean = float(sum / positions);
    switch (stream) {
    case 0: scale.means->ssim = mean; break;
    case 1: scale.means->l = mean; break;
    case 2: scale.means->c = mean; break;
    default: scale.means->s = mean; break;
    }
}

}  // namespace

void sums(const SumJob& job, cudaStream_t stream) {
    long long most_terms = 1;
    for (int k = 0; k < job.scale_count; ++k)
        most_terms =
            job.scales[k].terms.count > most_terms ? job.scales[k].terms.count : most_terms;
    const auto blocks = [&](int level) {
        return dim3(unsigned(ordered::level_size(level, most_terms)), unsigned(job.scale_count));
    };
    prefix_kernel<<<dim3(sum_streams, unsigned(job.scale_count)), ordered::running_threads, 0,
                    stream>>>(job);
    VQ_CUDA_CHECK_LAUNCH(prefix_kernel);
    chunk_kernel<<<blocks(0), warp, 0, stream>>>(job);
    VQ_CUDA_CHECK_LAUNCH(chunk_kernel);
    for (int level = 1; level <= 2; ++level) {
        level_kernel<<<blocks(level), warp, 0, stream>>>(job, level);
        VQ_CUDA_CHECK_LAUNCH(level_kernel);
    }
    walk_kernel<<<unsigned(job.scale_count * sum_streams), warp, 0, stream>>>(job);
    VQ_CUDA_CHECK_LAUNCH(walk_kernel);
}

}  // namespace vq::ssim::gpu
