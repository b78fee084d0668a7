// CAMBI, CUDA twin: the sum of the k largest c-values of every plane (§11.1), exactly.
//
// Selection. c-values are non-negative binary32, so their bit patterns sort as integers: a radix
// select over the bits finds t, the k-th largest value, in three histogram passes: the top 16
// bits, then the next 8 and the last 8 of the values that share the bits found so far. Every
// non-zero c-value lies in [0.5, 2^14) (§10.2), so the top 16 bits take 1921 distinct values
// (zero, and 0x3f00 .. 0x467f).
//
// Sum. Every c-value is a multiple of 2^-24 below 2^14, so c·2^24 is an integer below 2^38: the
// k largest sum exactly in integers (128 bits, so no picture size can overflow it) as
// Σ (values above t) + (k - #above)·t. The third pass adds the values above t's top 24 bits;
// the values sharing those bits and above t are each exactly a bin's value times its count.
// The host divides the exact sum by k with one rounding (cambi_cuda_pipeline.cu), which is what
// the reference's sequential double sum gives whenever that sum is exact (§15.3). Whether it is
// exact is decided here (cambi_exact_sum.hpp) and flagged per plane: from t, or, when t = 0, from
// the smallest non-zero value, whose top 16 bits the first pass's histogram already holds.
//
// Each pass is one launch over all planes; the last block of a plane to finish (a counter per
// plane and level) does that plane's selection, so no launch is spent on it.
#include <cstdint>

#include "cuda/block_sum.cuh"
#include "cuda/check.hpp"
#include "metrics/cambi/cambi_cuda_kernels.cuh"
#include "metrics/cambi/cambi_exact_sum.hpp"

namespace vq::cambi::gpu {
namespace {

constexpr int top_bins = 1921;           // zero, then top-16-bit patterns 0x3f00 .. 0x467f
constexpr unsigned lowest_top = 0x3f00;  // top 16 bits of 0.5f
constexpr int byte_bins = 256;

struct SelectState {
    unsigned arrived[3];    // blocks of the plane done, per pass
    unsigned rank;          // how many of the k largest lie at or below the bits found so far
    unsigned prefix;        // the bits of t found so far: top 16 after pass 0, top 24 after pass 1
    unsigned smallest_top;  // top 16 bits of the plane's smallest non-zero value (pass 0), 0: none
    unsigned long long above[2];  // Σ·2^24 of the values above t's top 24 bits (pass 2)
};

struct Scratch {
    SelectState state[max_planes];
    unsigned top[max_planes][top_bins];
    unsigned middle[max_planes][byte_bins];
    unsigned low[max_planes][byte_bins];
};

__device__ unsigned long long fixed_point(unsigned bits) {  // c · 2^24, exact for c ≥ 2^-24
    if (bits == 0) return 0;
    const unsigned long long significand = (bits & 0x7fffffu) | 0x800000u;
    const int shift = int(bits >> 23) - 126;  // ≥ 0 for every non-zero c-value (≥ 0.5)
    if (shift >= 0) return significand << shift;
    return shift > -64 ? significand >> -shift : 0;
}

template <int Pass>
struct PassTraits;

template <>
struct PassTraits<0> {
    static constexpr int bins = top_bins;
    __device__ static bool selected(unsigned, unsigned) { return true; }
    __device__ static unsigned bin(unsigned bits) {
        const unsigned top = bits >> 16;
        if (top == 0) return 0;
        return min(max(top, lowest_top) - lowest_top + 1,
                   unsigned(top_bins - 1));  // in range by §10.2
    }
    __device__ static unsigned prefix_after(unsigned, unsigned bin) {
        return bin == 0 ? 0 : bin - 1 + lowest_top;
    }
    __device__ static unsigned* histogram(Scratch& s, int plane) { return s.top[plane]; }
};

template <>
struct PassTraits<1> {
    static constexpr int bins = byte_bins;
    __device__ static bool selected(unsigned bits, unsigned prefix) { return bits >> 16 == prefix; }
    __device__ static unsigned bin(unsigned bits) { return (bits >> 8) & 0xffu; }
    __device__ static unsigned prefix_after(unsigned prefix, unsigned bin) {
        return prefix << 8 | bin;
    }
    __device__ static unsigned* histogram(Scratch& s, int plane) { return s.middle[plane]; }
};

template <>
struct PassTraits<2> {
    static constexpr int bins = byte_bins;
    __device__ static bool selected(unsigned bits, unsigned prefix) { return bits >> 8 == prefix; }
    __device__ static unsigned bin(unsigned bits) { return bits & 0xffu; }
    __device__ static unsigned* histogram(Scratch& s, int plane) { return s.low[plane]; }
};

// Exclusive prefix sum over the block's threads in thread order.
__device__ unsigned exclusive_scan(unsigned value) {
    __shared__ unsigned warp_totals[top_k_threads / 32];
    const int lane = int(threadIdx.x) % 32, warp = int(threadIdx.x) / 32;
    unsigned inclusive = value;
    for (int offset = 1; offset < 32; offset *= 2) {
        const unsigned up = __shfl_up_sync(0xffffffffu, inclusive, unsigned(offset));
        if (lane >= offset) inclusive += up;
    }
    if (lane == 31) warp_totals[warp] = inclusive;
    __syncthreads();
    unsigned before = 0;
    for (int w = 0; w < warp; ++w) before += warp_totals[w];
    return before + inclusive - value;
}

struct Selection {
    unsigned bin;
    unsigned above;  // values in higher bins
};

// The bin holding the rank-th largest of the values the histogram counts (rank ≥ 1, and at most
// their number). Thread 0 takes the highest bins, so thread order is descending value order.
template <int Bins>
__device__ Selection select_bin(const unsigned* histogram, unsigned rank, int& first, int& last) {
    __shared__ Selection selection;
    constexpr int per_thread = (Bins + top_k_threads - 1) / top_k_threads;
    last = Bins - int(threadIdx.x) * per_thread;  // this thread's bins are [first, last)
    first = max(0, last - per_thread);
    last = max(0, last);
    if (threadIdx.x == 0)
        selection = {0, 0};  // ordered before the writes below by the scan's barrier
    unsigned mine = 0;
    for (int b = first; b < last; ++b) mine += __ldcg(histogram + b);
    unsigned above = exclusive_scan(mine);
    if (above < rank && rank <= above + mine) {
        for (int b = last - 1; b >= first; --b) {
            const unsigned count = __ldcg(histogram + b);
            if (above + count >= rank) {
                selection = {unsigned(b), above};
                break;
            }
            above += count;
        }
    }
    __syncthreads();
    return selection;
}

template <int Pass>
__device__ void select(const TopKPlane& plane, SelectState& state, Scratch& scratch,
                       int plane_index) {
    using Traits = PassTraits<Pass>;
    const unsigned* histogram = Traits::histogram(scratch, plane_index);
    const unsigned rank = Pass == 0 ? unsigned(plane.k) : state.rank;
    int first = 0, last = 0;
    const Selection s = select_bin<Traits::bins>(histogram, rank, first, last);
    if constexpr (Pass == 0) {
        // The lowest non-empty bin above the zeros' (bin 0): the smallest non-zero value's top
        // bits.
        __shared__ unsigned lowest;
        if (threadIdx.x == 0) lowest = Traits::bins;
        __syncthreads();
        for (int b = max(first, 1); b < last; ++b)
            if (__ldcg(histogram + b)) {
                atomicMin(&lowest, unsigned(b));
                break;
            }
        __syncthreads();
        if (threadIdx.x == 0)
            state.smallest_top = lowest < Traits::bins ? Traits::prefix_after(0, lowest) : 0;
    }
    if constexpr (Pass < 2) {
        if (threadIdx.x == 0) {
            state.prefix = Traits::prefix_after(state.prefix, s.bin);
            state.rank = rank - s.above;
        }
    } else {
        // The values above t that share its top 24 bits: each bin is one value.
        cuda::uint128 shared_prefix = 0;
        for (int b = max(first, int(s.bin) + 1); b < last; ++b)
            shared_prefix +=
                cuda::uint128(__ldcg(histogram + b)) * fixed_point(state.prefix << 8 | unsigned(b));
        shared_prefix = cuda::block_sum<top_k_threads>(shared_prefix);
        if (threadIdx.x == 0) {
            const cuda::uint128 above = cuda::uint128(__ldcg(&state.above[1])) << 64 |
                                        cuda::uint128(__ldcg(&state.above[0]));
            const unsigned t = state.prefix << 8 | s.bin;
            const cuda::uint128 total =
                above + shared_prefix + cuda::uint128(rank - s.above) * fixed_point(t);
            plane.sum[0] = (unsigned long long)total;
            plane.sum[1] = (unsigned long long)(total >> 64);
            *plane.order_dependent =
                top_k_sum_is_exact(total, t, __ldcg(&state.smallest_top)) ? 0u : 1u;
        }
    }
}

template <int Pass>
__global__ void __launch_bounds__(top_k_threads)
    top_k_pass(const __grid_constant__ TopKParams params, Scratch* scratch) {
    using Traits = PassTraits<Pass>;
    __shared__ unsigned histogram[Traits::bins];
    __shared__ bool last_block;

    int plane_index = 0;
    while (plane_index + 1 < params.plane_count &&
           int(blockIdx.x) >= params.planes[plane_index + 1].first_block)
        ++plane_index;
    const TopKPlane& plane = params.planes[plane_index];
    SelectState& state = scratch->state[plane_index];
    const unsigned prefix = state.prefix;  // set by the previous pass's selection

    for (int b = int(threadIdx.x); b < Traits::bins; b += top_k_threads) histogram[b] = 0;
    __syncthreads();

    const std::uint64_t begin = std::uint64_t(int(blockIdx.x) - plane.first_block) * top_k_chunk;
    const std::uint64_t end = begin + top_k_chunk < plane.count ? begin + top_k_chunk : plane.count;
    unsigned long long above = 0;  // pass 2: values above t's top 24 bits
    for (std::uint64_t base = begin; base < end;
         base += top_k_threads) {  // warp-uniform trip count
        const std::uint64_t i = base + threadIdx.x;
        const bool valid = i < end;
        const unsigned bits = valid ? __float_as_uint(plane.c[i]) : 0u;
        const bool counted = valid && Traits::selected(bits, prefix);
        // Equal bins across the warp (zeros, above all) become one atomic add.
        const unsigned bin = counted ? Traits::bin(bits) : 0xffffffffu;
        const unsigned peers = __match_any_sync(0xffffffffu, bin);
        if (counted && __ffs(peers) - 1 == int(threadIdx.x % 32))
            atomicAdd(&histogram[bin], unsigned(__popc(peers)));
        if (Pass == 2 && valid && bits >> 8 > prefix) above += fixed_point(bits);
    }
    __syncthreads();
    unsigned* global_histogram = Traits::histogram(*scratch, plane_index);
    for (int b = int(threadIdx.x); b < Traits::bins; b += top_k_threads)
        if (histogram[b]) atomicAdd(&global_histogram[b], histogram[b]);
    if constexpr (Pass == 2) {
        above = cuda::block_sum<top_k_threads>(above);
        if (threadIdx.x == 0 && above) cuda::atomic_add(state.above, cuda::uint128(above));
    }

    // The last block of the plane selects, once every block's counts are in.
    __threadfence();
    __syncthreads();
    if (threadIdx.x == 0)
        last_block = atomicAdd(&state.arrived[Pass], 1u) == unsigned(plane.blocks - 1);
    __syncthreads();
    if (!last_block) return;
    __threadfence();
    select<Pass>(plane, state, *scratch, plane_index);
}

}  // namespace

std::size_t top_k_scratch_bytes() { return sizeof(Scratch); }

void launch_top_k(const TopKParams& params, void* scratch, cudaStream_t stream) {
    auto* s = static_cast<Scratch*>(scratch);
    const unsigned blocks = unsigned(params.total_blocks);
    top_k_pass<0><<<blocks, top_k_threads, 0, stream>>>(params, s);
    VQ_CUDA_CHECK_LAUNCH(top_k_pass<0>);
    top_k_pass<1><<<blocks, top_k_threads, 0, stream>>>(params, s);
    VQ_CUDA_CHECK_LAUNCH(top_k_pass<1>);
    top_k_pass<2><<<blocks, top_k_threads, 0, stream>>>(params, s);
    VQ_CUDA_CHECK_LAUNCH(top_k_pass<2>);
}

}  // namespace vq::cambi::gpu
