// SSIM and MS-SSIM, CUDA twin: spec §6.3's serial double sums with the CPU twin's bits, by
// ssim_ordered_sum.hpp's scheme, every scale of a frame at once (blockIdx.y is the scale):
//   1. each chunk's sum in any order, one warp a chunk;
//   2. the running sum before each chunk from those, one block a stream (approximate: it only
//      picks the binade each chunk is summarised on);
//   3. each chunk's Grid on that binade (8 terms a lane, then a tree over the warp);
//   4. groups of 32 chunks, then super-groups of 32 groups, as trees of Grids;
//   5. one thread a (scale, stream) walks them in order, adding serially where a check fails, and
//      writes the mean (§6.4) into the device block.
#include "cuda/check.hpp"
#include "metrics/ssim/ssim_cuda_kernels.cuh"

namespace vq::ssim::gpu {
namespace {

using ordered::Grid;

constexpr int warp = 32;
constexpr int scan_threads = 1024;

__host__ __device__ long long chunk_count(long long terms) {
    return (terms + ordered::chunk_terms - 1) / ordered::chunk_terms;
}

__host__ __device__ long long above(long long below) {
    return (below + ordered::fan_out - 1) / ordered::fan_out;
}

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

__device__ long long shuffle_down(long long v, int offset) {
    return __shfl_down_sync(0xffffffffu, v, offset);
}

__device__ Grid shuffle_down(const Grid& g, int offset) {
    Grid o;
    for (int p = 0; p < 2; ++p) {
        o.step[p] = shuffle_down(g.step[p], offset);
        o.low[p] = shuffle_down(g.low[p], offset);
        o.high[p] = shuffle_down(g.high[p], offset);
    }
    o.exponent = __shfl_down_sync(0xffffffffu, g.exponent, offset);
    o.state = __shfl_down_sync(0xffffffffu, g.state, offset);
    return o;
}

// The lanes' Grids composed in lane order (adjacent ranges, offsets 1..16); valid in lane 0.
__device__ Grid warp_then(Grid g) {
    const int lane = int(threadIdx.x);
    for (int offset = 1; offset < warp; offset *= 2) {
        const Grid next = shuffle_down(g, offset);
        if (lane % (2 * offset) == 0) g = ordered::then(g, next);
    }
    return g;
}

__device__ double warp_sum(double v) {
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}

__global__ void approximate_kernel(SumJob job) {
    if (int(blockIdx.y) >= job.scale_count) return;
    const SumScale& scale = job.scales[blockIdx.y];
    const long long chunks = chunk_count(scale.terms.count);
    const long long chunk = blockIdx.x;
    if (chunk >= chunks) return;
    const long long first = chunk * ordered::chunk_terms + threadIdx.x * ordered::lane_terms;
    for (int stream = 0; stream < sum_streams; ++stream) {
        const TermReader term{scale.terms, stream};
        double sum = 0;
        for (long long i = first; i < first + ordered::lane_terms && i < scale.terms.count; ++i)
            sum += term(i);
        sum = warp_sum(sum);
        if (threadIdx.x == 0) scale.approximate[stream * chunks + chunk] = sum;
    }
}

// Exclusive running sums of the chunk sums: each thread a run of chunks, a scan over the threads.
__global__ void __launch_bounds__(scan_threads) prefix_kernel(SumJob job) {
    if (int(blockIdx.y) >= job.scale_count) return;
    const SumScale& scale = job.scales[blockIdx.y];
    const long long chunks = chunk_count(scale.terms.count);
    const double* in = scale.approximate + blockIdx.x * chunks;
    double* out = scale.prefix + blockIdx.x * chunks;
    const long long per_thread = (chunks + scan_threads - 1) / scan_threads;
    const long long first = threadIdx.x * per_thread;
    const long long end = first + per_thread < chunks ? first + per_thread : chunks;
    double own = 0;
    for (long long c = first; c < end; ++c) own += in[c];
    __shared__ double totals[scan_threads];
    totals[threadIdx.x] = own;
    __syncthreads();
    for (int offset = 1; offset < scan_threads; offset *= 2) {
        const double add = threadIdx.x >= unsigned(offset) ? totals[threadIdx.x - offset] : 0.0;
        __syncthreads();
        totals[threadIdx.x] += add;
        __syncthreads();
    }
    double running = totals[threadIdx.x] - own;
    for (long long c = first; c < end; ++c) {
        out[c] = running;
        running += in[c];
    }
}

__global__ void chunk_kernel(SumJob job) {
    if (int(blockIdx.y) >= job.scale_count) return;
    const SumScale& scale = job.scales[blockIdx.y];
    const long long count = scale.terms.count;
    const long long chunks = chunk_count(count);
    const long long chunk = blockIdx.x;
    if (chunk >= chunks) return;
    long long first = chunk * ordered::chunk_terms + threadIdx.x * ordered::lane_terms;
    long long end = first + ordered::lane_terms;
    first = first < count ? first : count;
    end = end < count ? end : count;
    for (int stream = 0; stream < sum_streams; ++stream) {
        const int e = ordered::binade_of(scale.prefix[stream * chunks + chunk]);
        const Grid g = warp_then(ordered::lane_grid(TermReader{scale.terms, stream}, first, end, e));
        if (threadIdx.x == 0) scale.chunks[stream * chunks + chunk] = g;
    }
}

// One level up: 32 Grids of `below` per Grid of `above` (chunks -> groups, groups -> supers).
__global__ void level_kernel(SumJob job, bool to_supers) {
    if (int(blockIdx.y) >= job.scale_count) return;
    const SumScale& scale = job.scales[blockIdx.y];
    const long long below_count =
        to_supers ? above(chunk_count(scale.terms.count)) : chunk_count(scale.terms.count);
    const long long above_count = above(below_count);
    const long long index = blockIdx.x;
    if (index >= above_count) return;
    const Grid* below = to_supers ? scale.groups : scale.chunks;
    Grid* out = to_supers ? scale.supers : scale.groups;
    const long long source = index * ordered::fan_out + threadIdx.x;
    for (int stream = 0; stream < sum_streams; ++stream) {
        const Grid g = source < below_count ? below[stream * below_count + source]
                                            : ordered::empty_grid();
        const Grid total = warp_then(g);
        if (threadIdx.x == 0) out[stream * above_count + index] = total;
    }
}

// One (scale, stream) per block, its first thread; the other threads leave at once.
__global__ void walk_kernel(SumJob job) {
    const int scale_index = int(blockIdx.x) / sum_streams;
    const int stream = int(blockIdx.x) % sum_streams;
    if (threadIdx.x != 0 || scale_index >= job.scale_count) return;
    const SumScale& scale = job.scales[scale_index];
    const long long chunks = chunk_count(scale.terms.count);
    const long long groups = above(chunks);
    const double sum = ordered::walk(scale.chunks + stream * chunks, scale.groups + stream * groups,
                                     scale.supers + stream * above(groups), scale.terms.count,
                                     TermReader{scale.terms, stream});
    // Spec §6.4: the count is a 32-bit product, as the reference forms it.
    const double count = double(scale.valid_width * scale.valid_height);
    const float mean = float(sum / count);
    switch (stream) {
    case 0: scale.means->ssim = mean; break;
    case 1: scale.means->l = mean; break;
    case 2: scale.means->c = mean; break;
    default: scale.means->s = mean; break;
    }
}

}  // namespace

void sums(const SumJob& job, cudaStream_t stream) {
    long long most_chunks = 1;
    for (int k = 0; k < job.scale_count; ++k) {
        const long long chunks = chunk_count(job.scales[k].terms.count);
        most_chunks = chunks > most_chunks ? chunks : most_chunks;
    }
    const unsigned scales = unsigned(job.scale_count);
    approximate_kernel<<<dim3(unsigned(most_chunks), scales), warp, 0, stream>>>(job);
    VQ_CUDA_CHECK_LAUNCH(approximate_kernel);
    prefix_kernel<<<dim3(sum_streams, scales), scan_threads, 0, stream>>>(job);
    VQ_CUDA_CHECK_LAUNCH(prefix_kernel);
    chunk_kernel<<<dim3(unsigned(most_chunks), scales), warp, 0, stream>>>(job);
    VQ_CUDA_CHECK_LAUNCH(chunk_kernel);
    level_kernel<<<dim3(unsigned(above(most_chunks)), scales), warp, 0, stream>>>(job, false);
    VQ_CUDA_CHECK_LAUNCH(level_kernel);
    level_kernel<<<dim3(unsigned(above(above(most_chunks))), scales), warp, 0, stream>>>(job, true);
    VQ_CUDA_CHECK_LAUNCH(level_kernel);
    walk_kernel<<<scales * sum_streams, warp, 0, stream>>>(job);
    VQ_CUDA_CHECK_LAUNCH(walk_kernel);
}

}  // namespace vq::ssim::gpu
