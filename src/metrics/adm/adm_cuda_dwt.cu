// ADM CUDA twin, DWT stage (spec §4, §5): one kernel per scale computes the vertical pass of a
// tile into shared memory and the horizontal pass from there, for both images (blockIdx.z), and
// writes the four bands.
#include <cstdint>

#include "cuda/check.hpp"
#include "metrics/adm/adm_cuda_kernels.cuh"
#include "metrics/adm/adm_cuda_math.cuh"
#include "metrics/toolkit/mirror.hpp"

namespace vq::adm::device {
namespace {

using namespace device_math;

// A block of dwt_threads threads takes dwt_rows output rows: a thread per input column of the
// span runs the vertical pass down its column, reading the 2·dwt_rows + 2 input rows under those
// rows once into registers (a 32 x 8 tile read every input of its 66 columns twice, with the row
// mirroring per read); the horizontal pass then gives each thread output positions of the rows.
// Output column j reads span columns 2·(j − j0) .. 2·(j − j0) + 3.
constexpr int dwt_threads = 256;
constexpr int dwt_rows = 8;
constexpr int dwt_tile_width = (dwt_threads - 2) / 2;

// One image's four output bands.
template <typename Out>
struct ImageBands {
    Out *a, *h, *v, *d;
};

// Image blockIdx.z's bands, picked pointer by pointer (indexing the kernel parameter's array with
// blockIdx.z would copy it to local memory).
template <typename Out>
__device__ ImageBands<Out> image_bands(const DwtBands<Out>& out) {
    const bool first = blockIdx.z == 0;
    return {first ? out.band[0][band_a] : out.band[1][band_a],
            first ? out.band[0][band_h] : out.band[1][band_h],
            first ? out.band[0][band_v] : out.band[1][band_v],
            first ? out.band[0][band_d] : out.band[1][band_d]};
}

template <typename Mid>
struct VerticalPair {
    Mid low, high;
};

// The tile at (blockIdx.x, blockIdx.y) of one image: `vertical(p0..p3)` combines four input rows
// of a column into a VerticalPair, `horizontal(four values, high_pass)` four vertical results of
// a row into one band value. Both follow §3.1's mirroring at the plane edges.
template <typename Mid, typename In, typename Out, typename Vertical, typename Horizontal>
__device__ void dwt_tile(const In* source, int width, int height, ImageBands<Out> bands,
                         int out_width, int out_height, Vertical vertical, Horizontal horizontal) {
    constexpr int span_rows = 2 * dwt_rows + 2;
    __shared__ Mid low[dwt_rows][dwt_threads];
    __shared__ Mid high[dwt_rows][dwt_threads];
    const int i0 = blockIdx.y * dwt_rows;
    const int j0 = blockIdx.x * dwt_tile_width;
    const int c = threadIdx.x;
    // The last output column reads input index 2·out_width at most, and the last output row input
    // row 2·out_height: indices beyond feed no output and read that last one instead, so that
    // they stay inside the mirroring's range.
    const In* column = source + mirror_repeating_end(min(2 * j0 - 1 + c, 2 * out_width), width);
    In p[span_rows];
#pragma unroll
    for (int t = 0; t < span_rows; ++t)
        p[t] =
            column[std::size_t(mirror_repeating_end(min(2 * i0 - 1 + t, 2 * out_height), height)) *
                   std::size_t(width)];
#pragma unroll
    for (int r = 0; r < dwt_rows; ++r) {
        const VerticalPair<Mid> v = vertical(p[2 * r], p[2 * r + 1], p[2 * r + 2], p[2 * r + 3]);
        low[r][c] = v.low;
        high[r][c] = v.high;
    }
    __syncthreads();
    for (int item = threadIdx.x; item < dwt_rows * dwt_tile_width; item += dwt_threads) {
        const int r = item / dwt_tile_width, column_in_tile = item % dwt_tile_width;
        const int i = i0 + r, j = j0 + column_in_tile;
        if (i >= out_height || j >= out_width) continue;
        const Mid* l = &low[r][2 * column_in_tile];
        const Mid* e = &high[r][2 * column_in_tile];
        const std::size_t at = std::size_t(i) * std::size_t(out_width) + j;
        bands.a[at] = horizontal(l, false);
        bands.h[at] = horizontal(e, false);  // high vertically, low horizontally
        bands.v[at] = horizontal(l, true);   // low vertically, high horizontally
        bands.d[at] = horizontal(e, true);
    }
}

template <typename Sample>
__global__ void __launch_bounds__(dwt_threads)
    dwt0(const Sample* reference, const Sample* distorted, int width, int height, int bit_depth,
         DwtBands<std::int16_t> out, int out_width, int out_height) {
    dwt_tile<std::int16_t>(
        blockIdx.z == 0 ? reference : distorted, width, height, image_bands(out), out_width,
        out_height,
        [bit_depth](int p0, int p1, int p2, int p3) {
            const Pair16 v = dwt0_vertical(p0, p1, p2, p3, bit_depth);
            return VerticalPair<std::int16_t>{v.low, v.high};
        },
        [](const std::int16_t* v, bool high_pass) {
            return high_pass ? dwt0_high(v[0], v[1], v[2], v[3]) : dwt0_low(v[0], v[1], v[2], v[3]);
        });
}

// §5's rounding of scales 1-3: (add, shift) of the vertical and the horizontal pass.
struct Rounding {
    int vertical_add, vertical_shift, horizontal_add, horizontal_shift;
};

constexpr Rounding wide_rounding(int scale) {
    return scale == 1   ? Rounding{0, 0, 16384, 15}
           : scale == 2 ? Rounding{32768, 16, 32768, 16}
                        : Rounding{32768, 16, 16384, 15};
}

template <typename In>
__global__ void __launch_bounds__(dwt_threads)
    dwt_wide(const In* reference, const In* distorted, int width, int height, Rounding rounding,
             DwtBands<std::int32_t> out, int out_width, int out_height) {
    dwt_tile<std::int32_t>(
        blockIdx.z == 0 ? reference : distorted, width, height, image_bands(out), out_width,
        out_height,
        [rounding](std::int64_t p0, std::int64_t p1, std::int64_t p2, std::int64_t p3) {
            return VerticalPair<std::int32_t>{
                dwt_wide_low(p0, p1, p2, p3, rounding.vertical_add, rounding.vertical_shift),
                dwt_wide_high(p0, p1, p2, p3, rounding.vertical_add, rounding.vertical_shift)};
        },
        [rounding](const std::int32_t* v, bool high_pass) {
            return high_pass ? dwt_wide_high(v[0], v[1], v[2], v[3], rounding.horizontal_add,
                                             rounding.horizontal_shift)
                             : dwt_wide_low(v[0], v[1], v[2], v[3], rounding.horizontal_add,
                                            rounding.horizontal_shift);
        });
}

dim3 dwt_grid(int out_width, int out_height) {
    return dim3(unsigned((out_width + dwt_tile_width - 1) / dwt_tile_width),
                unsigned((out_height + dwt_rows - 1) / dwt_rows), 2);
}

}  // namespace

template <typename Sample>
void launch_dwt0(const Sample* reference, const Sample* distorted, int width, int height,
                 int bit_depth, const DwtBands<std::int16_t>& out, cudaStream_t stream) {
    const int out_width = (width + 1) / 2, out_height = (height + 1) / 2;
    dwt0<Sample><<<dwt_grid(out_width, out_height), dwt_threads, 0, stream>>>(
        reference, distorted, width, height, bit_depth, out, out_width, out_height);
    VQ_CUDA_CHECK_LAUNCH(dwt0);
}

template <typename In>
void launch_dwt_wide(int scale, const In* reference_a, const In* distorted_a, int width, int height,
                     const DwtBands<std::int32_t>& out, cudaStream_t stream) {
    const int out_width = (width + 1) / 2, out_height = (height + 1) / 2;
    dwt_wide<In><<<dwt_grid(out_width, out_height), dwt_threads, 0, stream>>>(
        reference_a, distorted_a, width, height, wide_rounding(scale), out, out_width, out_height);
    VQ_CUDA_CHECK_LAUNCH(dwt_wide);
}

template void launch_dwt0(const std::uint8_t*, const std::uint8_t*, int, int, int,
                          const DwtBands<std::int16_t>&, cudaStream_t);
template void launch_dwt0(const std::uint16_t*, const std::uint16_t*, int, int, int,
                          const DwtBands<std::int16_t>&, cudaStream_t);
template void launch_dwt_wide(int, const std::int16_t*, const std::int16_t*, int, int,
                              const DwtBands<std::int32_t>&, cudaStream_t);
template void launch_dwt_wide(int, const std::int32_t*, const std::int32_t*, int, int,
                              const DwtBands<std::int32_t>&, cudaStream_t);

}  // namespace vq::adm::device
