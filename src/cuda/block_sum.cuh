// Exact, order-independent sums for kernels: each block reduces its threads' integer partial sums
// (warp shuffles, then one warp over the warps' results) and adds the block's total to the frame's
// total with one atomic add. Integer addition is associative, so the result does not depend on
// how the blocks are scheduled: the same bits on every run and every GPU.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

namespace vq::cuda {

using uint128 = unsigned __int128;

// Blocks for a grid-stride loop over `items` with `threads` per block: enough to cover the items
// once, but no more than fill any current GPU, so that each block's one atomic add stays cheap.
constexpr unsigned blocks_for(std::size_t items, unsigned threads) {
    constexpr std::size_t max_blocks = 4096;
    const std::size_t blocks = (items + threads - 1) / threads;
    return unsigned(blocks < 1 ? 1 : blocks > max_blocks ? max_blocks : blocks);
}

__device__ inline unsigned long long shuffle_down(unsigned long long value, int offset) {
    return __shfl_down_sync(0xffffffffu, value, offset);
}

__device__ inline uint128 shuffle_down(uint128 value, int offset) {
    const unsigned long long low = shuffle_down((unsigned long long)value, offset);
    const unsigned long long high = shuffle_down((unsigned long long)(value >> 64), offset);
    return (uint128(high) << 64) | low;
}

// The sum of `value` over the block, valid in thread 0. Every thread of the block must call it,
// at most once per kernel for each T (the scratch is static shared memory).
template <unsigned Threads, typename T>
__device__ T block_sum(T value) {
    static_assert(Threads % 32 == 0 && Threads <= 1024, "whole warps, at most 32 of them");
    __shared__ T warp_sums[Threads / 32];
    const unsigned lane = threadIdx.x % 32;
    const unsigned warp = threadIdx.x / 32;
    for (int offset = 16; offset > 0; offset /= 2) value += shuffle_down(value, offset);
    if (lane == 0) warp_sums[warp] = value;
    __syncthreads();
    if (warp == 0) {
        value = lane < Threads / 32 ? warp_sums[lane] : T(0);
        for (int offset = 16; offset > 0; offset /= 2) value += shuffle_down(value, offset);
    }
    return value;
}

// Adds `value` to the unsigned 128-bit integer words[0] (low) + 2^64 * words[1] (high), exactly:
// the carry out of the low word goes into the high word. The total is consistent once every
// adding thread has finished (readers only look after the kernel).
__device__ inline void atomic_add(unsigned long long* words, uint128 value) {
    const unsigned long long low = (unsigned long long)value;
    const unsigned long long high = (unsigned long long)(value >> 64);
    const unsigned long long before = atomicAdd(&words[0], low);
    const unsigned long long carry = before + low < before ? 1 : 0;
    if (high + carry) atomicAdd(&words[1], high + carry);
}

}  // namespace vq::cuda
