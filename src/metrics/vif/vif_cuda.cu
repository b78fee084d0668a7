// Integer VIF, CUDA twin: the pyramid and the per-scale statistics of spec/vmaf.md §2.3-§2.6 on
// the device, the same integer accumulators as the CPU twin (integer sums do not depend on their
// order, and the per-pixel double steps are the CPU's operations without contraction), so both
// twins fill the same vif::Block and vif::Scorer turns it into scores.
//
// Per frame, on the compute stream, one launch per scale, from scale 0 (the uploaded luma planes)
// to 3: that scale's statistics and, in the same grid, the decimation of its pictures into the
// next scale (blur with the next scale's kernel, keep even rows and columns) in device scratch.
// Each statistics block handles a tile of 240 (scale 0) to 252 columns and 8 rows: the vertical
// moments of its rows (with mirrored borders) go to shared memory, then every pixel's horizontal
// moments and contribution, summed over the block and added to the frame's four accumulators
// with one atomic add each.
#include <cstdint>
#include <limits>
#include <type_traits>

#include "cuda/check.hpp"
#include "cuda/cuda_feature.hpp"
#include "cuda/memory.hpp"
#include "cuda/stream.hpp"
#include "cuda/wide_multiply.cuh"
#include "metrics/toolkit/mirror.hpp"
#include "metrics/toolkit/sample_type.hpp"
#include "metrics/vif/vif.hpp"
#include "metrics/vif/vif_tables.hpp"

namespace vq::vif {
namespace {

constexpr int block_threads = 256;

__constant__ std::uint16_t device_filters[scale_count][max_taps];

// Radius of F_s (17, 9, 5, 3 taps).
template <int Scale>
constexpr int radius = Scale == 0   ? 8
                       : Scale == 1 ? 4
                       : Scale == 2 ? 2
                                    : 1;

__device__ inline std::uint64_t round_shift(std::uint64_t value, int shift) {
    return shift == 0 ? value : (value + (std::uint64_t(1) << (shift - 1))) >> shift;
}

// L(v) of spec §2.5 for v >= 2^17.
__device__ inline std::int32_t fixed_log2(std::uint64_t v, const std::uint16_t* table) {
    const int dropped = 64 - __clzll((long long)v) - 16;
    return std::int32_t(__ldg(&table[(v >> dropped) - log2_table_first])) + 2048 * dropped;
}

struct Contribution {
    long long num_log = 0, den_log = 0, num_non_log = 0, den_non_log = 0;
};

// One pixel's contribution (spec §2.6), the CPU twin's operations in its order.
__device__ inline void accumulate(std::int32_t sigma1_sq, std::int32_t sigma2_sq,
                                  std::int32_t sigma12, double gain_limit,
                                  const std::uint16_t* table, Contribution& sums) {
    constexpr std::int32_t noise_variance = 131072;
    if (sigma1_sq < noise_variance) {
        sums.num_non_log += sigma2_sq;
        sums.den_non_log += 1;
        return;
    }
    sums.den_log += fixed_log2(std::uint64_t(noise_variance + sigma1_sq), table) - 2048 * 17;
    if (sigma12 <= 0 || sigma2_sq <= 0) return;
    constexpr double epsilon = 65536 * 1.0e-10;
    double gain = __ddiv_rn(double(sigma12), __dadd_rn(double(sigma1_sq), epsilon));
    const double residual = __dsub_rn(double(sigma2_sq), __dmul_rn(gain, double(sigma12)));
    const std::int32_t sv = residual > 0 ? std::int32_t(residual) : 0;
    gain = gain < gain_limit ? gain : gain_limit;  // after sv, which uses the unclamped gain
    const std::uint32_t n1 = std::uint32_t(sv) + std::uint32_t(noise_variance);
    const std::int64_t n2 = std::int64_t(__dmul_rn(__dmul_rn(gain, gain), double(sigma1_sq))) + n1;
    sums.num_log += fixed_log2(std::uint64_t(n2), table) - fixed_log2(n1, table);
}

__device__ inline long long warp_sum(long long value) {
    for (int offset = 16; offset > 0; offset /= 2)
        value += __shfl_down_sync(0xffffffffu, value, offset);
    return value;
}

// Adds the block's four sums to the frame's accumulators (two's complement: unsigned atomics add
// signed values exactly).
__device__ void add_block_sums(Contribution sums, ScaleSums* total) {
    __shared__ long long warp_sums[4][block_threads / 32];
    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    long long values[4] = {sums.num_log, sums.den_log, sums.num_non_log, sums.den_non_log};
    for (long long& v : values) v = warp_sum(v);
    if (lane == 0)
        for (int k = 0; k < 4; ++k) warp_sums[k][warp] = values[k];
    __syncthreads();
    if (warp != 0) return;
    for (int k = 0; k < 4; ++k)
        values[k] = warp_sum(lane < block_threads / 32 ? warp_sums[k][lane] : 0);
    if (lane == 0) {
        std::int64_t* words[4] = {&total->num_log, &total->den_log, &total->num_non_log,
                                  &total->den_non_log};
        for (int k = 0; k < 4; ++k)
            if (values[k] != 0)
                atomicAdd(reinterpret_cast<unsigned long long*>(words[k]),
                          (unsigned long long)values[k]);
    }
}

// Statistics tiles (spec §2.4-§2.6). The vertical pass gives each thread one column of the span
// (the tile's columns and the filter's reach either side) and statistics_rows rows of it: the
// thread reads its column's samples from the frame into registers once and filters them there,
// so a sample costs one load for all the rows that use it, and a tile of `block_threads`
// span columns computes at most 2r columns it does not output (a 1.07x halo at scale 0, where a
// 32-wide tile had 1.5x). The horizontal pass then gives each thread outputs_per_thread
// consecutive outputs of a row: it reads the words under them with 16-byte loads (20 words for 4
// outputs at scale 0, where one output per thread read 17).
constexpr int statistics_rows = 8;
constexpr int outputs_per_thread = 4;

constexpr int whole_groups(int columns) {
    return columns / outputs_per_thread * outputs_per_thread;
}

// Output columns of a statistics tile: the span less the filter's reach, in whole thread groups.
template <int Scale>
constexpr int statistics_width = whole_groups(block_threads - 2 * radius<Scale>);

// Words a horizontal group reads: its outputs and the filter's reach, in whole 16-byte loads.
template <int Scale>
constexpr int group_words = (outputs_per_thread + 2 * radius<Scale> + 3) / 4 * 4;

// The last group's loads end inside the span row.
template <int Scale>
constexpr bool groups_fit =
    statistics_width<Scale> - outputs_per_thread + group_words<Scale> <= block_threads;
static_assert(groups_fit<0> && groups_fit<1> && groups_fit<2> && groups_fit<3>);

// The vertical square sums. A scale-0 sample of 8 bits gives Σ F·x·y ≤ 65536·255² < 2^32, so 32
// bits hold them exactly whatever the order of the additions; every other sample needs 64 bits.
template <typename Sample>
using SquareSum = std::conditional_t<sizeof(Sample) == 1, std::uint32_t, std::uint64_t>;

// c·a + s: a 32-bit product where the sum is 32 bits, a widening one where it is 64.
template <typename Square>
__device__ inline Square mad(std::uint32_t c, std::uint32_t a, Square s) {
    return cuda::mad_in_width(c, a, s);
}

template <typename Square>
struct VerticalSums {
    std::uint32_t a1, a2;  // Σ F·x ≤ 65536·65535 < 2^32 at every depth
    Square axx, ayy, axy;
};

// Adds tap weight c times the samples (x, y) of one row.
template <typename Square>
__device__ inline void add_tap(std::uint32_t c, std::uint32_t x, std::uint32_t y,
                               VerticalSums<Square>& s) {
    const std::uint32_t cx = c * x, cy = c * y;  // < 2^16 · 2^16
    s.a1 += cx;
    s.a2 += cy;
    s.axx = mad(cx, x, s.axx);
    s.ayy = mad(cy, y, s.ayy);
    s.axy = mad(cx, y, s.axy);
}

// Adds tap weight c times two rows at mirrored taps (F[k] = F[2r-k]): c·x_a + c·x_b = c·(x_a +
// x_b), whose terms are those of the unfolded sum, so a sum that fits stays exact. With 32-bit
// square sums the pair's squares are added before the one multiply as well (their terms again
// belong to a total below 2^32); 64-bit sums keep a widening multiply per sample.
template <typename Square>
__device__ inline void add_tap_pair(std::uint32_t c, std::uint32_t xa, std::uint32_t ya,
                                    std::uint32_t xb, std::uint32_t yb, VerticalSums<Square>& s) {
    s.a1 += c * (xa + xb);
    s.a2 += c * (ya + yb);
    if constexpr (sizeof(Square) == 4) {
        s.axx += c * (xa * xa + xb * xb);
        s.ayy += c * (ya * ya + yb * yb);
        s.axy += c * (xa * ya + xb * yb);
    } else {
        const std::uint32_t cxa = c * xa, cya = c * ya, cxb = c * xb, cyb = c * yb;
        s.axx = cuda::mad_wide(cxb, xb, cuda::mad_wide(cxa, xa, s.axx));
        s.ayy = cuda::mad_wide(cyb, yb, cuda::mad_wide(cya, ya, s.ayy));
        s.axy = cuda::mad_wide(cxb, yb, cuda::mad_wide(cxa, ya, s.axy));
    }
}

// 32-bit round_shift for sums whose rounding term cannot carry out: Σ F·x + 2^(s-1) ≤ 2^32 -
// 2^16 + 2^15 for the means (spec §2.4 stores them as uint16).
__device__ inline std::uint32_t round_shift32(std::uint32_t value, int shift) {
    return (value + (1u << (shift - 1))) >> shift;
}

// Horizontal filter of one moment for a group's outputs_per_thread consecutive outputs; `row`
// points at the group's first span word (16-byte aligned). The means sum in 32 bits (m ≤ 65535,
// so Σ F·m < 2^32) and fold mirrored taps as the vertical pass does; the square moments reach
// 2^48 and take a widening multiply per tap.
template <int Scale, typename Sum>
__device__ inline void filter_group(const std::uint32_t* row, Sum (&out)[outputs_per_thread]) {
    constexpr int r = radius<Scale>;
    std::uint32_t w[group_words<Scale>];
#pragma unroll
    for (int q = 0; q < group_words<Scale> / 4; ++q) {
        const uint4 v = reinterpret_cast<const uint4*>(row)[q];
        w[4 * q] = v.x;
        w[4 * q + 1] = v.y;
        w[4 * q + 2] = v.z;
        w[4 * q + 3] = v.w;
    }
    const std::uint16_t* f = device_filters[Scale];
#pragma unroll
    for (int o = 0; o < outputs_per_thread; ++o) {
        Sum sum = mad(f[r], w[o + r], Sum(0));
#pragma unroll
        for (int k = 0; k < r; ++k) {
            const std::uint32_t c = f[k];
            if constexpr (sizeof(Sum) == 4)
                sum += c * (w[o + k] + w[o + 2 * r - k]);
            else
                sum = cuda::mad_wide(c, w[o + 2 * r - k], cuda::mad_wide(c, w[o + k], sum));
        }
        out[o] = sum;
    }
}

// The vertical moments of a statistics tile: m1, m2, qxx, qyy, qxy by tile row and span column.
using Moments = std::uint32_t[5][statistics_rows][block_threads];

// Statistics of the tile (tile_x, tile_y) of one scale (spec §2.4-§2.6). `bits`: the bit depth
// at scale 0, 16 above it.
template <int Scale, typename Sample>
__device__ void statistics_tile(const Sample* __restrict__ ref, const Sample* __restrict__ dist,
                                int width, int height, int bits, double gain_limit,
                                const std::uint16_t* log2_table, ScaleSums* total, int tile_x,
                                int tile_y, Moments& moments) {
    constexpr int r = radius<Scale>;
    constexpr int span_rows = statistics_rows + 2 * r;
    enum { m1, m2, qxx, qyy, qxy };
    const int x0 = tile_x * statistics_width<Scale>, y0 = tile_y * statistics_rows;
    const std::uint16_t* f = device_filters[Scale];

    {
        const int column = threadIdx.x;
        const std::size_t x = std::size_t(mirror_clamped(x0 - r + column, width, r));
        std::uint32_t xs[span_rows], ys[span_rows];
#pragma unroll
        for (int j = 0; j < span_rows; ++j) {
            const std::size_t at =
                std::size_t(mirror_clamped(y0 - r + j, height, r)) * std::size_t(width) + x;
            xs[j] = ref[at];
            ys[j] = dist[at];
        }
        // Means come out in "x256" units; at 8 bits the square sums stay unshifted, above it they
        // drop the 2*(bits-8) extra bits (spec §2.4).
        const int square_shift = 2 * (bits - 8);
#pragma unroll
        for (int i = 0; i < statistics_rows; ++i) {
            VerticalSums<SquareSum<Sample>> s{};
            add_tap(f[r], xs[i + r], ys[i + r], s);
#pragma unroll
            for (int k = 0; k < r; ++k)
                add_tap_pair(f[k], xs[i + k], ys[i + k], xs[i + 2 * r - k], ys[i + 2 * r - k], s);
            moments[m1][i][column] = round_shift32(s.a1, bits);
            moments[m2][i][column] = round_shift32(s.a2, bits);
            if constexpr (sizeof(Sample) == 1) {
                moments[qxx][i][column] = s.axx;
                moments[qyy][i][column] = s.ayy;
                moments[qxy][i][column] = s.axy;
            } else {
                moments[qxx][i][column] = std::uint32_t(round_shift(s.axx, square_shift));
                moments[qyy][i][column] = std::uint32_t(round_shift(s.ayy, square_shift));
                moments[qxy][i][column] = std::uint32_t(round_shift(s.axy, square_shift));
            }
        }
    }
    __syncthreads();

    Contribution sums;
    constexpr int groups = statistics_width<Scale> / outputs_per_thread;  // per tile row
    for (int item = threadIdx.x; item < statistics_rows * groups; item += block_threads) {
        const int row = item / groups, first = item % groups * outputs_per_thread;
        if (y0 + row >= height) continue;
        std::uint32_t mu1[outputs_per_thread], mu2[outputs_per_thread];
        std::uint64_t xx[outputs_per_thread], yy[outputs_per_thread], xy[outputs_per_thread];
        filter_group<Scale>(&moments[m1][row][first], mu1);
        filter_group<Scale>(&moments[m2][row][first], mu2);
        filter_group<Scale>(&moments[qxx][row][first], xx);
        filter_group<Scale>(&moments[qyy][row][first], yy);
        filter_group<Scale>(&moments[qxy][row][first], xy);
#pragma unroll
        for (int o = 0; o < outputs_per_thread; ++o) {
            if (x0 + first + o >= width) break;
            const std::uint32_t mu1_sq =
                std::uint32_t(round_shift(std::uint64_t(mu1[o]) * mu1[o], 32));
            const std::uint32_t mu2_sq =
                std::uint32_t(round_shift(std::uint64_t(mu2[o]) * mu2[o], 32));
            const std::uint32_t mu1_mu2 =
                std::uint32_t(round_shift(std::uint64_t(mu1[o]) * mu2[o], 32));
            const std::int32_t sigma1_sq =
                std::int32_t(std::uint32_t(round_shift(xx[o], 16)) - mu1_sq);
            const std::int32_t sigma2_sq =
                max(std::int32_t(std::uint32_t(round_shift(yy[o], 16)) - mu2_sq), 0);
            const std::int32_t sigma12 =
                std::int32_t(std::uint32_t(round_shift(xy[o], 16)) - mu1_mu2);
            accumulate(sigma1_sq, sigma2_sq, sigma12, gain_limit, log2_table, sums);
        }
    }
    add_block_sums(sums, total);
}

// Decimation tiles: a thread per source column of the span, as in the statistics, for
// decimation_rows output rows; the output columns are those whose taps lie inside the span.
constexpr int decimation_rows = 8;

template <int Scale>
constexpr int decimation_width = (block_threads - 2 * radius<Scale>) / 2;

// Words under one output's horizontal taps (source columns 2j - r .. 2j + r), in whole 8-byte
// loads; the last output's loads end inside the span row.
template <int Scale>
constexpr int decimation_words = (2 * radius<Scale> + 2) / 2 * 2;
template <int Scale>
constexpr bool decimation_fits =
    2 * (decimation_width<Scale> - 1) + decimation_words<Scale> <= block_threads;
static_assert(decimation_fits<1> && decimation_fits<2> && decimation_fits<3>);

// The vertical blur of a decimation tile, by output row and span column.
using Blurred = std::uint32_t[decimation_rows][block_threads];

// The tile (tile_x, tile_y) of scale `Scale` of one picture from its scale Scale-1 `source`
// (spec §2.3): blur with F_Scale, vertical then horizontal, keep even rows and columns. Both
// passes sum in 32 bits (Σ F·v ≤ 65536·65535) and fold mirrored taps (F[k] = F[2r-k], so
// F[k]·(v_a + v_b) adds the unfolded sum's own terms).
template <int Scale, typename Sample>
__device__ void decimation_tile(const Sample* __restrict__ source, int width, int height, int bits,
                                std::uint16_t* out, int tile_x, int tile_y, Blurred& blurred) {
    constexpr int r = radius<Scale>;
    constexpr int span_rows = 2 * decimation_rows - 1 + 2 * r;  // source rows under a tile
    const int out_width = width / 2, out_height = height / 2;
    const int x0 = tile_x * decimation_width<Scale>, y0 = tile_y * decimation_rows;
    const std::uint16_t* f = device_filters[Scale];

    {
        const int column = threadIdx.x;
        const std::size_t x = std::size_t(mirror_clamped(2 * x0 - r + column, width, r));
        std::uint32_t v[span_rows];
#pragma unroll
        for (int j = 0; j < span_rows; ++j)
            v[j] =
                source[std::size_t(mirror_clamped(2 * y0 - r + j, height, r)) * std::size_t(width) +
                       x];
#pragma unroll
        for (int i = 0; i < decimation_rows; ++i) {
            std::uint32_t sum = f[r] * v[2 * i + r];
#pragma unroll
            for (int k = 0; k < r; ++k) sum += f[k] * (v[2 * i + k] + v[2 * i + 2 * r - k]);
            blurred[i][column] = round_shift32(sum, bits);
        }
    }
    __syncthreads();

    for (int item = threadIdx.x; item < decimation_rows * decimation_width<Scale>;
         item += block_threads) {
        const int row = item / decimation_width<Scale>, j = item % decimation_width<Scale>;
        if (y0 + row >= out_height || x0 + j >= out_width) continue;
        std::uint32_t w[decimation_words<Scale>];
#pragma unroll
        for (int q = 0; q < decimation_words<Scale> / 2; ++q) {
            const uint2 pair = reinterpret_cast<const uint2*>(&blurred[row][2 * j])[q];
            w[2 * q] = pair.x;
            w[2 * q + 1] = pair.y;
        }
        std::uint32_t sum = f[r] * w[r];
#pragma unroll
        for (int k = 0; k < r; ++k) sum += f[k] * (w[k] + w[2 * r - k]);
        out[std::size_t(y0 + row) * std::size_t(out_width) + std::size_t(x0 + j)] =
            std::uint16_t(round_shift32(sum, 16));
    }
}

// Tiles over a plane, `x` by `y`.
struct TileGrid {
    int x, y;
    __host__ __device__ constexpr int count() const { return x * y; }
};

__host__ __device__ constexpr TileGrid tile_grid(int width, int height, int tile_width,
                                                 int tile_rows) {
    return {(width + tile_width - 1) / tile_width, (height + tile_rows - 1) / tile_rows};
}

// The statistics tiles of a scale-`Scale` plane.
template <int Scale>
__host__ __device__ constexpr TileGrid statistics_grid(int width, int height) {
    return tile_grid(width, height, statistics_width<Scale>, statistics_rows);
}

// The decimation tiles (per picture) of scale Scale + 1 from a scale-`Scale` plane.
template <int Scale>
__host__ __device__ constexpr TileGrid decimation_grid(int width, int height) {
    return tile_grid(width / 2, height / 2, decimation_width<Scale + 1>, decimation_rows);
}

// Everything that reads scale `Scale`'s two pictures, in one launch: its statistics tiles (none
// where `statistics` is false: vif_skip_scale0), then below scale 3 the tiles that decimate the
// reference and then the distorted picture into scale Scale + 1. Both kinds only read scale
// Scale, so nothing orders them, and the pyramid takes four launches instead of seven.
template <int Scale, typename Sample>
__global__ void __launch_bounds__(block_threads)
    scale_pass(const Sample* __restrict__ ref, const Sample* __restrict__ dist, int width,
               int height, int bits, bool statistics, double gain_limit,
               const std::uint16_t* log2_table, ScaleSums* total, std::uint16_t* ref_next,
               std::uint16_t* dist_next) {
    __shared__ alignas(16) union {
        Moments moments;
        Blurred blurred;
    } scratch;
    int block = int(blockIdx.x);
    const TileGrid tiles = statistics ? statistics_grid<Scale>(width, height) : TileGrid{0, 0};
    if (block < tiles.count()) {
        statistics_tile<Scale>(ref, dist, width, height, bits, gain_limit, log2_table, total,
                               block % tiles.x, block / tiles.x, scratch.moments);
        return;
    }
    if constexpr (Scale + 1 < scale_count) {
        block -= tiles.count();
        const TileGrid next = decimation_grid<Scale>(width, height);
        const bool reference = block < next.count();
        if (!reference) block -= next.count();
        decimation_tile<Scale + 1>(reference ? ref : dist, width, height, bits,
                                   reference ? ref_next : dist_next, block % next.x, block / next.x,
                                   scratch.blurred);
    }
}

// Blocks of scale `Scale`'s pass.
template <int Scale>
unsigned pass_blocks(int width, int height, bool statistics) {
    int blocks = statistics ? statistics_grid<Scale>(width, height).count() : 0;
    if constexpr (Scale + 1 < scale_count)
        blocks += 2 * decimation_grid<Scale>(width, height).count();
    return unsigned(blocks);
}

class VifCuda final : public ScorerTwin<cuda::CudaFeature, Scorer> {
public:
    using ScorerTwin::ScorerTwin;

    void prepare(cudaStream_t stream) override {
        std::uint16_t filters[scale_count][max_taps] = {};
        for (int s = 0; s < scale_count; ++s)
            for (int k = 0; k < filter(s).taps; ++k) filters[s][k] = filter(s).coefficients[k];
        cuda::copy_to_symbol_async(device_filters, filters, stream);
        cuda::synchronize(stream);  // `filters` lives on this stack frame
        log2_table_ = cuda::to_device(log2_table());
        // Scales 1..3 of both pictures, each floor-halved from the one before.
        int width = format().width, height = format().height;
        for (int s = 1; s < scale_count; ++s) {
            width /= 2;
            height /= 2;
            const std::size_t samples = std::size_t(width) * std::size_t(height);
            scales_[s - 1] = {cuda::DeviceArray<std::uint16_t>(samples),
                              cuda::DeviceArray<std::uint16_t>(samples), width, height};
        }
    }

    void enqueue(const cuda::DeviceFrame& frame, std::byte* device_block,
                 cudaStream_t stream) override {
        cuda::zero_async(device_block, sizeof(Block), stream);
        with_sample_type(format().bit_depth, [&](auto sample) {
            using Sample = decltype(sample);
            enqueue_pyramid(reinterpret_cast<const Sample*>(frame.reference),
                            reinterpret_cast<const Sample*>(frame.distorted), device_block, stream);
        });
    }

private:
    struct ScaleImages {
        cuda::DeviceArray<std::uint16_t> ref, dist;
        int width = 0, height = 0;
    };

    template <typename Sample>
    void enqueue_pyramid(const Sample* ref, const Sample* dist, std::byte* device_block,
                         cudaStream_t stream) {
        auto* sums = reinterpret_cast<ScaleSums*>(device_block);
        const std::uint16_t* table = log2_table_.data();
        const double gain_limit = scorer_.options().enhancement_gain_limit;
        const int w = format().width, h = format().height, bits = format().bit_depth;
        const bool skip_scale0 = scorer_.options().skip_scale0;
        scale_pass<0><<<pass_blocks<0>(w, h, !skip_scale0), block_threads, 0, stream>>>(
            ref, dist, w, h, bits, !skip_scale0, gain_limit, table, sums + 0, scales_[0].ref.data(),
            scales_[0].dist.data());
        VQ_CUDA_CHECK_LAUNCH(scale_pass<0>);
        enqueue_scale<1>(table, gain_limit, sums, stream);
        enqueue_scale<2>(table, gain_limit, sums, stream);
        enqueue_scale<3>(table, gain_limit, sums, stream);
    }

    // Scale `Scale`'s statistics and (below scale 3) the decimation into the next scale.
    template <int Scale>
    void enqueue_scale(const std::uint16_t* table, double gain_limit, ScaleSums* sums,
                       cudaStream_t stream) {
        const ScaleImages& here = scales_[Scale - 1];
        std::uint16_t *ref_next = nullptr, *dist_next = nullptr;  // none after scale 3
        if constexpr (Scale + 1 < scale_count) {
            ref_next = scales_[Scale].ref.data();
            dist_next = scales_[Scale].dist.data();
        }
        scale_pass<Scale>
            <<<pass_blocks<Scale>(here.width, here.height, true), block_threads, 0, stream>>>(
                here.ref.data(), here.dist.data(), here.width, here.height, 16, true, gain_limit,
                table, sums + Scale, ref_next, dist_next);
        VQ_CUDA_CHECK_LAUNCH(scale_pass<Scale>);
    }

    cuda::DeviceArray<std::uint16_t> log2_table_;
    ScaleImages scales_[scale_count - 1];
};

}  // namespace

std::unique_ptr<Feature> make_cuda(const OptionValues& values) {
    return std::make_unique<VifCuda>(Scorer(values));
}

}  // namespace vq::vif
