// CAMBI, CUDA twin: c-values (§10) of every plane in one launch.
//
// A block computes a tile of `tile_width` × `tile_rows` outputs; its 256 threads own the 256
// columns its windows span (the tile plus p columns on each side), one column each. A c-value only
// reads the counts of v and v ± δ (δ ≤ N) for its centre value v, so the block first collects the
// centre values of its tile (masked pixels whose gates can pass) and the values present among the
// masked pixels its windows cover, and numbers the present values within N of a centre: these are
// its "slots" (in value order; an absent value counts 0). Then it sweeps the tile's rows top to
// bottom:
//
//   column counts   thread b keeps, per slot, how many masked pixels of column b in the current
//                   window rows have that value (one byte each: at most ws ≤ 65); moving down a row
//                   adds the row entering the window and removes the one leaving it;
//   row prefixes    per slot, a warp turns the 256 column counts into prefix sums (uint16);
//   c-values        the thread of output column j reads each window count as the difference of
//                   two prefixes and forms the c-value with the binary32 operations of §15.2.
//
// Counting is exact integer arithmetic and the float operations are the CPU twin's, so every
// c-value is bit-identical to it. The window is clipped at the picture's borders because columns
// and rows outside it are never added. A tile whose slots do not fit `slot_capacity` is swept
// several times, each sweep serving the centre values whose slots (at most 2N+1) lie inside its
// slot range.
#include <algorithm>
#include <cstdint>

#include "cuda/check.hpp"
#include "cuda/kernel.hpp"
#include "metrics/cambi/cambi_cuda_kernels.cuh"

namespace vq::cambi::gpu {
namespace {

constexpr int warps = c_value_threads / 32;
constexpr int row_flag_words = max_tile_rows / 32;

struct TileShared {
    std::uint32_t centre_gates[value_words];
    std::uint32_t centres[value_words];  // centre values of this tile
    std::uint32_t present[value_words];  // values of the masked pixels its windows cover
    std::uint32_t
        counted_values[value_words];    // present values within N of a centre: one slot each
    int slots_before[value_words + 1];  // slot of the first counted value of each word
    std::uint32_t rows_with_centres[row_flag_words];
    int sweep_end;   // the slots of this sweep are [start, sweep_end)
    int next_start;  // the first slot of the next sweep
};

__device__ bool has_bit(const std::uint32_t* bits, unsigned value) {
    return value < unsigned(value_limit) && ((bits[value >> 5] >> (value & 31)) & 1u);
}

// How many counted values lie below `value` (< value_limit): the slot of a counted value, and of
// the first counted value at or above any value.
__device__ int slots_below(const TileShared& tile, unsigned value) {
    const std::uint32_t below = (1u << (value & 31)) - 1u;
    return tile.slots_before[value >> 5] + __popc(tile.counted_values[value >> 5] & below);
}

// The slots a centre value v reads: those of the counted values in [v - N, v + N].
template <int N>
struct SlotRange {
    int lowest;
    int highest;
    __device__ SlotRange(const TileShared& tile, unsigned v)
        : lowest(slots_below(tile, unsigned(max(0, int(v) - N)))),
          highest(slots_below(tile, v + N + 1) - 1) {}
};

// Collects the tile's centre values and the rows holding one; writes c = 0 for every other output
// (unmasked, or no gate can pass).
__device__ void find_centres(const CValuePlane& plane, TileShared& tile, int x0, int tile_width,
                             int i0, int rows) {
    const int outputs = tile_width * rows;
    const unsigned lane = threadIdx.x % 32;
    for (int base = 0; base < outputs; base += c_value_threads) {  // warp-uniform trip count
        const int o = base + int(threadIdx.x);
        const int r = o / tile_width;
        const std::size_t at =
            std::size_t(i0 + r) * std::size_t(plane.width) + std::size_t(x0 + o % tile_width);
        const unsigned value =
            o < outputs ? unsigned(__ldg(plane.counted + at)) : unsigned(unmasked);
        const bool centre = has_bit(tile.centre_gates, value);
        if (o < outputs && !centre) plane.c[at] = 0.0f;
        // One atomic per distinct value (and row) per warp.
        const unsigned same_value = __match_any_sync(0xffffffffu, centre ? value : 0xffffffffu);
        const unsigned same_row = __match_any_sync(0xffffffffu, centre ? unsigned(r) : 0xffffffffu);
        if (centre && __ffs(same_value) - 1 == int(lane))
            atomicOr(&tile.centres[value >> 5], 1u << (value & 31));
        if (centre && __ffs(same_row) - 1 == int(lane))
            atomicOr(&tile.rows_with_centres[r >> 5], 1u << (r & 31));
    }
}

// Marks the values of the masked pixels in the rows and columns the tile's windows cover.
__device__ void find_present_values(const CValuePlane& plane, TileShared& tile, int first_row,
                                    int end_row, int column, bool column_inside) {
    const unsigned lane = threadIdx.x % 32;
    constexpr int batch = 4;
    for (int row = first_row; row < end_row; row += batch) {  // block-uniform trip count
        unsigned values[batch];
#pragma unroll
        for (int k = 0; k < batch; ++k)
            values[k] = column_inside && row + k < end_row
                            ? unsigned(__ldg(plane.counted +
                                             std::size_t(row + k) * std::size_t(plane.width) +
                                             std::size_t(column)))
                            : unsigned(unmasked);
#pragma unroll
        for (int k = 0; k < batch; ++k) {
            const bool counted = values[k] < unsigned(value_limit);
            const unsigned same = __match_any_sync(0xffffffffu, counted ? values[k] : 0xffffffffu);
            if (counted && __ffs(same) - 1 == int(lane))
                atomicOr(&tile.present[values[k] >> 5], 1u << (values[k] & 31));
        }
    }
}

// Present values within N of a centre (never below 0), and the slot numbering: thread
// w < value_words dilates word w, then warp 0 scans the words' bit counts.
template <int N>
__device__ void number_slots(TileShared& tile) {
    const int w = int(threadIdx.x);
    if (w < value_words) {
        const std::uint32_t before = w > 0 ? tile.centres[w - 1] : 0u;
        const std::uint32_t here = tile.centres[w];
        const std::uint32_t after = w + 1 < value_words ? tile.centres[w + 1] : 0u;
        // Value 32w + b is counted if a centre sits at 32w + b + d, |d| ≤ N ≤ 32: bit 32 + b + d of
        // after:here:before.
        std::uint32_t counted = 0;
        for (int d = -N; d <= N; ++d) {
            const int shift = 32 + d;
            counted |= shift < 32 ? __funnelshift_r(before, here, unsigned(shift))
                                  : __funnelshift_rc(here, after, unsigned(shift - 32));
        }
        tile.counted_values[w] = counted & tile.present[w];
    }
    __syncthreads();
    if (threadIdx.x < 32) {
        static_assert(value_words <= 64, "two words per lane");
        const int w0 = 2 * int(threadIdx.x), w1 = w0 + 1;
        const int c0 = w0 < value_words ? __popc(tile.counted_values[w0]) : 0;
        const int c1 = w1 < value_words ? __popc(tile.counted_values[w1]) : 0;
        int inclusive = c0 + c1;
        for (int offset = 1; offset < 32; offset *= 2) {
            const int up = __shfl_up_sync(0xffffffffu, inclusive, unsigned(offset));
            if (int(threadIdx.x) >= offset) inclusive += up;
        }
        const int exclusive = inclusive - c0 - c1;
        if (w0 < value_words) tile.slots_before[w0] = exclusive;
        if (w1 < value_words) tile.slots_before[w1] = exclusive + c0;
        if (threadIdx.x == 31) tile.slots_before[value_words] = inclusive;
    }
    __syncthreads();
}

// Thread 0: the end of the sweep starting at slot `start`, and where the next one starts: at the
// lowest slot of the first centre (in value order) whose highest slot is not in this sweep.
template <int N>
__device__ void plan_sweep(TileShared& tile, int start, int capacity) {
    if (threadIdx.x != 0) return;
    const int slots = tile.slots_before[value_words];
    const int end = min(start + capacity, slots);
    int next = slots;
    for (int w = 0; w < value_words && next == slots; ++w) {
        for (std::uint32_t bits = tile.centres[w]; bits; bits &= bits - 1) {
            const SlotRange<N> range(tile, unsigned(32 * w + __ffs(bits) - 1));
            if (range.highest >= end) {
                next = range.lowest;
                break;
            }
        }
    }
    tile.sweep_end = end;
    tile.next_start = next;
}

// Per slot of the sweep, warp w turns the 256 column counts into inclusive prefix sums: lane l
// owns columns 8l .. 8l+7 (one 8-byte load, one 16-byte store).
__device__ void prefix_sums(const std::uint8_t* column_counts, std::uint16_t* prefixes, int slots) {
    const int warp = int(threadIdx.x) / 32;
    const int lane = int(threadIdx.x) % 32;
    for (int s = warp; s < slots; s += warps) {
        const uint2 bytes =
            reinterpret_cast<const uint2*>(column_counts + s * c_value_threads)[lane];
        unsigned running[8];
        unsigned sum = 0;
        for (int k = 0; k < 8; ++k) {
            sum += ((k < 4 ? bytes.x : bytes.y) >> (8 * (k % 4))) & 0xffu;
            running[k] = sum;
        }
        unsigned inclusive = sum;
        for (int offset = 1; offset < 32; offset *= 2) {
            const unsigned up = __shfl_up_sync(0xffffffffu, inclusive, unsigned(offset));
            if (lane >= offset) inclusive += up;
        }
        const unsigned base = inclusive - sum;
        uint4 packed;
        packed.x = (base + running[0]) | ((base + running[1]) << 16);
        packed.y = (base + running[2]) | ((base + running[3]) << 16);
        packed.z = (base + running[4]) | ((base + running[5]) << 16);
        packed.w = (base + running[6]) | ((base + running[7]) << 16);
        reinterpret_cast<uint4*>(prefixes + s * c_value_threads)[lane] = packed;
    }
}

// §10.1 for one output whose centre value's slots all lie in this sweep (which starts at slot
// `start`). The window spans the block's columns t .. t + 2p.
template <int N>
__device__ float c_value(const CValueParams& params, const TileShared& tile,
                         const std::uint16_t* prefixes, int start, unsigned v, int t, int radius) {
    const auto window_count = [&](unsigned value) {  // a value absent from the windows counts 0
        if (!has_bit(tile.counted_values, value)) return 0;
        const std::uint16_t* row = prefixes + (slots_below(tile, value) - start) * c_value_threads;
        return int(row[t + 2 * radius]) - (t > 0 ? int(row[t - 1]) : 0);
    };
    const int p0 = window_count(v);
    float c = 0.0f;
#pragma unroll
    for (int d = 1; d <= N; ++d) {
        if (int(v) <= params.tvi[d - 1] && int(v) + N + d > params.vis_lum) {
            const int p1 = window_count(v + d);
            const int p2 = int(v) >= d ? window_count(v - d) : 0;
            const int q = p1 > p2 ? p1 : p2;
            const int n = params.weights[d - 1] * p0 * q;
            const float value = __fmul_rn(__int2float_rn(n), __ldg(params.reciprocal + p0 + q));
            if (value > c) c = value;
        }
    }
    return c;
}

template <int N>
__global__ void __launch_bounds__(c_value_threads)
    c_values_kernel(const __grid_constant__ CValueParams params) {
    extern __shared__ uint4 dynamic_shared[];
    __shared__ TileShared tile;

    int plane_index = 0;
    while (plane_index + 1 < params.plane_count &&
           int(blockIdx.x) >= params.planes[plane_index + 1].first_block)
        ++plane_index;
    const CValuePlane& plane = params.planes[plane_index];
    const int tile_index = int(blockIdx.x) - plane.first_block;
    const int x0 = (tile_index % plane.tiles_x) * plane.tile_width;
    const int i0 = (tile_index / plane.tiles_x) * params.tile_rows;
    const int tile_width = min(plane.tile_width, plane.width - x0);
    const int i_end = min(i0 + params.tile_rows, plane.height);
    const int p = plane.radius;
    const int t = int(threadIdx.x);

    for (int w = t; w < value_words; w += c_value_threads) {
        tile.centre_gates[w] = params.centre_gates[w];
        tile.centres[w] = 0;
        tile.present[w] = 0;
    }
    if (t < row_flag_words) tile.rows_with_centres[t] = 0;
    __syncthreads();
    find_centres(plane, tile, x0, tile_width, i0, i_end - i0);
    __syncthreads();
    if ((tile.rows_with_centres[0] | tile.rows_with_centres[1]) == 0) return;  // every c-value is 0

    // This thread's column of the picture; columns outside it are never counted (clipped window).
    const int column = x0 - p + t;
    const bool column_inside = t < tile_width + 2 * p && column >= 0 && column < plane.width;
    find_present_values(plane, tile, max(0, i0 - p), min(plane.height, i_end + p), column,
                        column_inside);
    __syncthreads();
    number_slots<N>(tile);

    const int capacity = params.slot_capacity;
    auto* column_counts = reinterpret_cast<std::uint8_t*>(dynamic_shared);
    auto* prefixes = reinterpret_cast<std::uint16_t*>(column_counts + capacity * c_value_threads);

    const int slots = tile.slots_before[value_words];
    for (int start = 0; start < slots;) {
        plan_sweep<N>(tile, start, capacity);
        __syncthreads();
        const int end = tile.sweep_end;
        const int next = tile.next_start;

        std::uint8_t* counts = column_counts + t;
        const auto count = [&](unsigned value,
                               int change) {  // `unmasked` and uncounted values: no-op
            if (!has_bit(tile.counted_values, value)) return;
            const int s = slots_below(tile, value) - start;
            if (s >= 0 && s < end - start)
                counts[s * c_value_threads] = std::uint8_t(counts[s * c_value_threads] + change);
        };
        // Loads through the read-only path may be issued ahead of the count updates.
        const auto sample = [&](int row) {
            return column_inside && row >= 0 && row < plane.height
                       ? unsigned(__ldg(plane.counted +
                                        std::size_t(row) * std::size_t(plane.width) +
                                        std::size_t(column)))
                       : unsigned(unmasked);
        };
        for (int s = 0; s < end - start; ++s) counts[s * c_value_threads] = 0;
        // The window rows of the tile's first row, but for the last one, which the loop adds; in
        // batches of independent loads.
        constexpr int batch = 8;
        for (int row = i0 - p; row < i0 + p; row += batch) {
            unsigned values[batch];
#pragma unroll
            for (int k = 0; k < batch; ++k)
                values[k] = row + k < i0 + p ? sample(row + k) : unsigned(unmasked);
#pragma unroll
            for (int k = 0; k < batch; ++k) count(values[k], +1);
        }

        // Row i adds row i + p and removes row i - p - 1 (not at the tile's first row: never
        // added); the next row's samples are loaded one row ahead.
        unsigned entering = sample(i0 + p), leaving = unsigned(unmasked);
        unsigned centre =
            t < tile_width
                ? unsigned(__ldg(plane.counted + std::size_t(i0) * std::size_t(plane.width) +
                                 std::size_t(x0 + t)))
                : unsigned(unmasked);
        for (int i = i0; i < i_end; ++i) {
            const unsigned adding = entering, removing = leaving, v = centre;
            if (i + 1 < i_end) {
                entering = sample(i + 1 + p);
                leaving = sample(i - p);
                if (t < tile_width)
                    centre = __ldg(plane.counted + std::size_t(i + 1) * std::size_t(plane.width) +
                                   std::size_t(x0 + t));
            }
            count(adding, +1);
            count(removing, -1);
            const int r = i - i0;
            if (!((tile.rows_with_centres[r >> 5] >> (r & 31)) & 1u)) continue;  // block-uniform
            __syncthreads();  // every column count of row i is in place
            prefix_sums(column_counts, prefixes, end - start);
            __syncthreads();
            if (t < tile_width && has_bit(tile.centre_gates, v)) {
                const SlotRange<N> range(tile, v);
                if (range.lowest >= start && range.highest < end)  // otherwise another sweep's
                    plane.c[std::size_t(i) * std::size_t(plane.width) + std::size_t(x0 + t)] =
                        c_value<N>(params, tile, prefixes, start, v, t, p);
            }
        }
        start = next;
        __syncthreads();  // before the next plan and the next sweep's counts
    }
}

template <int N>
void launch_for(const CValueParams& params, cudaStream_t stream) {
    const std::size_t shared = c_value_shared_bytes(params.slot_capacity);
    c_values_kernel<N><<<unsigned(total_blocks(params)), c_value_threads, shared, stream>>>(params);
    VQ_CUDA_CHECK_LAUNCH(c_values_kernel);
}

template <int N>
void configure_for(const CValueParams& params) {
    cuda::allow_dynamic_shared_memory(c_values_kernel<N>,
                                      c_value_shared_bytes(params.slot_capacity));
}

}  // namespace

int slot_capacity(int num_diffs) { return std::max(32, (2 * num_diffs + 1 + 3) / 4 * 4); }

std::size_t c_value_shared_bytes(int slot_capacity) {
    // Column counts (one byte) and prefix sums (two bytes) per slot and column.
    return std::size_t(slot_capacity) * c_value_threads * 3;
}

int total_blocks(const CValueParams& params) {
    const CValuePlane& last = params.planes[params.plane_count - 1];
    return last.first_block +
           last.tiles_x * ((last.height + params.tile_rows - 1) / params.tile_rows);
}

void configure_c_values(const CValueParams& params) {
    switch (params.num_diffs) {
    case 1: configure_for<1>(params); break;
    case 2: configure_for<2>(params); break;
    case 4: configure_for<4>(params); break;
    case 8: configure_for<8>(params); break;
    case 16: configure_for<16>(params); break;
    default: configure_for<32>(params); break;
    }
}

void launch_c_values(const CValueParams& params, cudaStream_t stream) {
    switch (params.num_diffs) {  // N = 2^max_log_contrast, max_log_contrast 0..5 (§2)
    case 1: launch_for<1>(params, stream); break;
    case 2: launch_for<2>(params, stream); break;
    case 4: launch_for<4>(params, stream); break;
    case 8: launch_for<8>(params, stream); break;
    case 16: launch_for<16>(params, stream); break;
    default: launch_for<32>(params, stream); break;
    }
}

}  // namespace vq::cambi::gpu
