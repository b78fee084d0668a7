// SSIM and MS-SSIM, CUDA twin: spec §6.3's serial double sums with the CPU twin's bits, by
// ssim_ordered_sum.hpp's scheme, every scale of a frame at once (blockIdx.y is the scale):
//   1. each chunk's sum in any order (added up by terms_kernel, ssim_cuda_planes.cu);
//   2. the running sum before each chunk from those, one block a stream (approximate: it only
//      picks the binade each chunk is summarised on);
//   3. each chunk's Grid on that binade (8 terms a lane, then a tree over the warp);
//   4. groups of 32 chunks, then super-groups of 32 groups, as trees of Grids;
//   5. one warp a (scale, stream) walks them in order (a window of 32 Grids at once), adding
//      serially where a check fails, and writes the mean (§6.4) into the device block.
#include "cuda/check.hpp"
#include "metrics/ssim/ssim_cuda_kernels.cuh"

namespace vq::ssim::gpu {
namespace {

using ordered::Grid;

constexpr int warp = 32;
constexpr int scan_threads = 1024;

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

// A Grid through a warp shuffle, field by field: shuffle(v) is one __shfl_*_sync of v.
template <typename Shuffle>
__device__ Grid shuffled(const Grid& g, const Shuffle& shuffle) {
    Grid o;
    for (int p = 0; p < 2; ++p) {
        o.step[p] = shuffle(g.step[p]);
        o.low[p] = shuffle(g.low[p]);
        o.high[p] = shuffle(g.high[p]);
    }
    o.exponent = shuffle(g.exponent);
    o.state = shuffle(g.state);
    return o;
}

__device__ Grid shuffle_down(const Grid& g, int offset) {
    return shuffled(g, [offset](auto v) { return __shfl_down_sync(0xffffffffu, v, offset); });
}

__device__ Grid shuffle_up(const Grid& g, int offset) {
    return shuffled(g, [offset](auto v) { return __shfl_up_sync(0xffffffffu, v, offset); });
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

// Exclusive running sums of the chunk sums (terms_kernel's atomics), each thread a run of chunks,
// a scan over the threads; the chunk sums are cleared for the next frame once read.
__global__ void __launch_bounds__(scan_threads) prefix_kernel(SumJob job) {
    if (int(blockIdx.y) >= job.scale_count) return;
    const SumScale& scale = job.scales[blockIdx.y];
    const long long chunks = ordered::level_size(0, scale.terms.count);
    double* in = scale.approximate + blockIdx.x * chunks;
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
        in[c] = 0;  // this thread's own chunks, read for the last time
    }
}

__global__ void chunk_kernel(SumJob job) {
    if (int(blockIdx.y) >= job.scale_count) return;
    const SumScale& scale = job.scales[blockIdx.y];
    const long long count = scale.terms.count;
    const long long chunks = ordered::level_size(0, count);
    const long long chunk = blockIdx.x;
    if (chunk >= chunks) return;
    long long first = chunk * ordered::chunk_terms + threadIdx.x * ordered::lane_terms;
    long long end = first + ordered::lane_terms;
    first = first < count ? first : count;
    end = end < count ? end : count;
    for (int stream = 0; stream < sum_streams; ++stream) {
        const int e = ordered::binade_of(scale.prefix[stream * chunks + chunk]);
        const Grid g =
            warp_then(ordered::lane_grid(TermReader{scale.terms, stream}, first, end, e));
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
    const long long source = index * ordered::fan_out + threadIdx.x;
    for (int stream = 0; stream < sum_streams; ++stream) {
        const Grid g =
            source < below_count ? below[stream * below_count + source] : ordered::empty_grid();
        const Grid total = warp_then(g);
        if (threadIdx.x == 0) out[stream * above_count + index] = total;
    }
}

// walk()'s context on the device. Every lane of the warp walks the same sum (same data, same
// path), so the warp can fetch together: each window of 32 Grids, and a failing chunk's terms,
// go to shared memory in one parallel load instead of one dependent global load at a time; and
// it applies a window's Grids in parallel (apply_run).
struct WarpWalk {
    const Grid* levels[3];
    TermReader term;
    Grid (*windows)[ordered::fan_out];  // one window per level: a descent keeps the one above
    double* chunk;                      // ordered::chunk_terms

    template <int Level>
    __device__ const Grid* grids(long long first, int n) {
        Grid* window = windows[Level];
        __syncwarp();  // every lane is done with the window's previous contents
        if (int(threadIdx.x) < n) window[threadIdx.x] = levels[Level][first + threadIdx.x];
        __syncwarp();
        return window;
    }

    // ordered::apply_in_order's result, the warp trying a whole window at once: lane k composes
    // the Grids from j to k (a scan of then()) and applies that to a copy of the sum. The
    // prefixes that pass are j .. f - 1 for some f (a composition's range contains its parts'
    // ranges, so if one passes, the shorter ones do), and lane f - 1 holds the sum after them.
    // then() refuses Grids of different binades, which apply() may still pass one by one (the
    // sum can move to the next binade between them), so Grid f is then tried alone, as
    // apply_in_order would, and the scan goes on after it. Each pass advances j, so it ends.
    __device__ int apply_run(const Grid* grids, int j, int n, double& sum) const {
        const int lane = int(threadIdx.x);
        while (j < n) {
            Grid prefix = lane >= j && lane < n ? grids[lane] : ordered::empty_grid();
            for (int offset = 1; offset < warp; offset *= 2) {
                const Grid before = shuffle_up(prefix, offset);
                if (lane >= offset) prefix = ordered::then(before, prefix);
            }
            double reached = sum;
            const bool passes = ordered::apply(prefix, reached);
            const unsigned failing = __ballot_sync(0xffffffffu, !passes);
            if (failing == 0) {  // lanes from n on hold lane n - 1's composition
                sum = __shfl_sync(0xffffffffu, reached, warp - 1);
                return n;
            }
            const int f = __ffs(int(failing)) - 1;  // j <= f < n: lanes before j hold nothing
            if (f > j) sum = __shfl_sync(0xffffffffu, reached, f - 1);
            if (!ordered::apply(grids[f], sum)) return f;
            j = f + 1;
        }
        return n;
    }

    __device__ double add_serially(double sum, long long first, long long end) {
        __syncwarp();
        for (long long i = first + threadIdx.x; i < end; i += warp) chunk[i - first] = term(i);
        __syncwarp();
        const int n = int(end - first);
#pragma unroll 8
        for (int i = 0; i < n; ++i) sum += chunk[i];
        return sum;
    }
};

// One (scale, stream) per block of one warp.
__global__ void walk_kernel(SumJob job) {
    const int scale_index = int(blockIdx.x) / sum_streams;
    const int stream = int(blockIdx.x) % sum_streams;
    if (scale_index >= job.scale_count) return;  // the whole block
    __shared__ Grid windows[3][ordered::fan_out];
    __shared__ double chunk[ordered::chunk_terms];
    const SumScale& scale = job.scales[scale_index];
    const long long count = scale.terms.count;
    WarpWalk context{{scale.chunks + stream * ordered::level_size(0, count),
                      scale.groups + stream * ordered::level_size(1, count),
                      scale.supers + stream * ordered::level_size(2, count)},
                     TermReader{scale.terms, stream},
                     windows,
                     chunk};
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
    prefix_kernel<<<dim3(sum_streams, unsigned(job.scale_count)), scan_threads, 0, stream>>>(job);
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
