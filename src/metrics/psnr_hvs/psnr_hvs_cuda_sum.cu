// PSNR-HVS, CUDA twin, the accumulator of spec §8: each plane's terms added into one float in the
// reference's order, with the serial sum's bits, by composing runs of terms exactly
// (psnr_hvs_float_sum.hpp explains why that is exact).
//
//   1. first_grids: the exact prefix sum before each group (in double: an estimate is all it
//      needs) tells the three grids the accumulator can be on when the group starts.
//   2. group_maps: one warp per group builds the group's map on each of those grids.
//   3. walk: one warp per plane adds the first group serially, then carries the accumulator
//      forward, 32 lanes × 32 groups per step while it stays in its binade. Where a step leaves
//      it, the warp finds the lane whose part leaves it and descends into that part: one group
//      per lane, then 32 terms per lane (maps built on the fly on the accumulator's actual grid),
//      then one term per lane, and adds the term that leaves the binade as a float, as the serial
//      sum does; then it climbs back up.
// The accumulator changes binade some 30 to 40 times per plane, so the walk is a few hundred
// warp steps instead of ~10^7 dependent additions.
#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "cuda/check.hpp"
#include "metrics/psnr_hvs/psnr_hvs_cuda.hpp"

namespace vq::psnr_hvs::cuda_twin {
namespace {

using float_sum::Map;

constexpr unsigned full_warp = 0xffffffffu;

// std::min and std::max are host functions.
template <typename T>
__device__ T lesser(T a, T b) {
    return b < a ? b : a;
}
template <typename T>
__device__ T greater(T a, T b) {
    return a < b ? b : a;
}

// Lane l gets the composition of lanes 0..l's maps, in lane order.
__device__ Map warp_inclusive_scan(Map map) {
    const unsigned lane = threadIdx.x & 31u;
    for (unsigned offset = 1; offset < 32; offset *= 2) {
        Map before;
        before.d[0] = __shfl_up_sync(full_warp, map.d[0], offset);
        before.d[1] = __shfl_up_sync(full_warp, map.d[1], offset);
        if (lane >= offset) map = float_sum::compose(before, map);
    }
    return map;
}

// The walker's per-lane parts are at most this many terms or groups. Each part's loads are all
// issued before its first composition, so a walker step waits on memory once, not once per
// term or group (the compositions themselves stay in order).
constexpr int part_limit = 32;

// Terms [begin, end), end - begin <= part_limit, composed in order.
__device__ Map terms_map(const float* terms, std::size_t begin, std::size_t end, int grid) {
    std::uint32_t bits[part_limit];
#pragma unroll
    for (int k = 0; k < part_limit; ++k)
        bits[k] = begin + k < end ? __float_as_uint(terms[begin + k]) : 0u;
    Map map = float_sum::identity_map();
#pragma unroll
    for (int k = 0; k < part_limit; ++k)
        if (begin + k < end) map = float_sum::compose(map, float_sum::term_map(bits[k], grid));
    return map;
}

// 1. One thread block per plane.
constexpr unsigned scan_threads = 1024;

__global__ void __launch_bounds__(scan_threads) first_grids(FrameJob job) {
    const PlaneJob& plane = job.planes[blockIdx.x];
    const std::size_t count = plane.group_count;
    const std::size_t per_thread = (count + scan_threads - 1) / scan_threads;
    const std::size_t begin = lesser(count, threadIdx.x * per_thread);
    const std::size_t end = lesser(count, begin + per_thread);
    double total = 0;
    for (std::size_t g = begin; g < end; ++g) total += plane.group_sums[g];
    __shared__ double inclusive[scan_threads];
    inclusive[threadIdx.x] = total;
    __syncthreads();
    for (unsigned offset = 1; offset < scan_threads; offset *= 2) {
        const double before = threadIdx.x >= offset ? inclusive[threadIdx.x - offset] : 0.0;
        __syncthreads();
        inclusive[threadIdx.x] += before;
        __syncthreads();
    }
    double prefix = threadIdx.x == 0 ? 0.0 : inclusive[threadIdx.x - 1];
    for (std::size_t g = begin; g < end; ++g) {
        const int grid = float_sum::grid_of(__float_as_uint(float(prefix)));
        plane.groups[g].first_grid = greater(grid - 1, 1);
        prefix += plane.group_sums[g];
    }
}

// 2. One warp per group; lane l composes the group's terms 32l .. 32l + 31.
constexpr unsigned maps_threads = 256;
constexpr unsigned groups_per_block = maps_threads / 32;

__global__ void __launch_bounds__(maps_threads) group_maps(FrameJob job) {
    const PlaneJob& plane = job.planes[blockIdx.y];
    const std::size_t group = std::size_t(blockIdx.x) * groups_per_block + threadIdx.x / 32;
    if (group >= plane.group_count) return;  // the whole warp
    const unsigned lane = threadIdx.x & 31u;
    const std::size_t begin = lesser(plane.term_count, group * group_terms + lane * 32);
    const std::size_t end = lesser(plane.term_count, begin + 32);
    std::uint32_t terms[32];
    for (int k = 0; k < 32; ++k)  // +0 past the plane's end: the identity
        terms[k] = begin + k < end ? __float_as_uint(plane.terms[begin + k]) : 0u;
    GroupMaps& out = plane.groups[group];
    const int first_grid = out.first_grid;
    for (int q = 0; q < group_grids; ++q) {
        Map map = float_sum::identity_map();
        for (int k = 0; k < 32; ++k)
            map = float_sum::compose(map, float_sum::term_map(terms[k], first_grid + q));
        map = warp_inclusive_scan(map);
        if (lane == 31) out.maps[q] = map;
    }
}

__device__ Map group_map(const GroupMaps& group, int grid) {
    const int q = grid - group.first_grid;
    if (q == 0) return group.maps[0];
    if (q == 1) return group.maps[1];
    if (q == 2) return group.maps[2];
    return float_sum::invalid_map();  // an unexpected binade: the walker descends to the terms
}

// Groups [first, last), last - first <= part_limit, their maps on `grid` composed in order.
__device__ Map groups_map(const GroupMaps* groups, std::size_t first, std::size_t last, int grid) {
    Map maps[part_limit];
#pragma unroll
    for (int k = 0; k < part_limit; ++k)
        maps[k] = first + k < last ? group_map(groups[first + k], grid) : float_sum::identity_map();
    Map map = float_sum::identity_map();
#pragma unroll
    for (int k = 0; k < part_limit; ++k)
        if (first + k < last) map = float_sum::compose(map, maps[k]);
    return map;
}

// 3. One warp per plane, after the first group's serial additions. Levels: 3 = 32 groups per
// lane, 2 = one group, 1 = 32 terms, 0 = one term. Levels 2 and 3 start at a group's start;
// levels 0 and 1 stop at the group's end.
constexpr int top_level = 3;

__global__ void __launch_bounds__(32) walk(FrameJob job, float* error_sums) {
    const PlaneJob& plane = job.planes[blockIdx.x];
    const unsigned lane = threadIdx.x;
    const std::size_t count = plane.term_count;
    // The first group is added as the reference adds it, one float addition after another (every
    // lane the same, from +0): there the accumulator changes binade every few terms (many of a
    // plane's binade changes), each change costing the walk a descent to single terms and back,
    // ~3 warp steps of a memory latency each, where a chain of float additions is ~4 cycles a term.
    const std::size_t serial_end = lesser(count, std::size_t(group_terms));
    float accumulator = 0.0f;
    for (std::size_t t = 0; t < serial_end; t += part_limit) {
        float batch[part_limit];
#pragma unroll
        for (int k = 0; k < part_limit; ++k)
            batch[k] = t + k < serial_end ? plane.terms[t + k] : 0.0f;
#pragma unroll
        for (int k = 0; k < part_limit; ++k)
            if (t + k < serial_end) accumulator = accumulator + batch[k];
    }
    std::uint32_t bits = __float_as_uint(accumulator);
    std::size_t i = serial_end;  // terms added so far
    int level = top_level;
    while (i < count) {
        const int grid = float_sum::grid_of(bits);
        // +inf (the terms are finite, so the accumulator is never NaN) stays +inf.
        if (grid == 255) break;
        if (level >= 2 && i % group_terms != 0) level = 1;
        Map map = float_sum::identity_map();
        std::size_t begin, step_end;  // this lane's first term, the step's end
        if (level >= 2) {
            const std::size_t per_lane = level == 3 ? part_limit : 1;
            const std::size_t first = i / group_terms + lane * per_lane;
            const std::size_t last = lesser(plane.group_count, first + per_lane);
            map = groups_map(plane.groups, first, last, grid);
            begin = lesser(count, first * group_terms);
            step_end = lesser(count, (i / group_terms + 32 * per_lane) * group_terms);
        } else {
            const std::size_t per_lane = level == 1 ? part_limit : 1;
            const std::size_t group_end = lesser(count, (i / group_terms + 1) * group_terms);
            begin = lesser(group_end, i + lane * per_lane);
            map = terms_map(plane.terms, begin, lesser(group_end, begin + per_lane), grid);
            step_end = lesser(group_end, i + 32 * per_lane);
        }
        map = warp_inclusive_scan(map);
        const std::int32_t index = float_sum::grid_index(bits, grid);
        const std::int32_t reached = index + map.d[index & 1];
        const unsigned left = __ballot_sync(full_warp, reached >= float_sum::grid_limit);
        if (left == 0) {  // the whole step stays on the grid
            bits = float_sum::accumulator_bits(grid, __shfl_sync(full_warp, reached, 31));
            i = step_end;
            level = lesser(level + 1, top_level);
            continue;
        }
        // Lane f's part leaves the grid: keep the lanes before it, descend into lane f's part.
        const int f = __ffs(int(left)) - 1;
        const std::int32_t before = __shfl_sync(full_warp, reached, greater(f - 1, 0));
        if (f > 0) bits = float_sum::accumulator_bits(grid, before);
        i = __shfl_sync(full_warp, static_cast<unsigned long long>(begin), f);
        if (level > 0) {
            --level;
            continue;
        }
        // One term that leaves the binade: the serial sum's float addition itself.
        bits = __float_as_uint(__uint_as_float(bits) + plane.terms[i]);
        ++i;
        level = 1;
    }
    if (lane == 0) error_sums[blockIdx.x] = __uint_as_float(bits);
}

}  // namespace

void enqueue_sum(const FrameJob& job, float* error_sums, cudaStream_t stream) {
    std::size_t largest = 0;
    for (const PlaneJob& plane : job.planes) largest = std::max(largest, plane.group_count);
    first_grids<<<3, scan_threads, 0, stream>>>(job);
    VQ_CUDA_CHECK_LAUNCH(first_grids);
    const dim3 grid(unsigned((largest + groups_per_block - 1) / groups_per_block), 3);
    group_maps<<<grid, maps_threads, 0, stream>>>(job);
    VQ_CUDA_CHECK_LAUNCH(group_maps);
    walk<<<3, 32, 0, stream>>>(job, error_sums);
    VQ_CUDA_CHECK_LAUNCH(walk);
}

}  // namespace vq::psnr_hvs::cuda_twin
