// SSIM and MS-SSIM, CUDA twin: the plane stages, one thread per output element (the terms: per
// position of a tile that shares its horizontal pass), each doing the CPU twin's operations in its
// order (products rounded to float, summed in double in tap order; the terms through
// ssim_math.hpp, which both twins call).
#include <cstdint>

#include "cuda/check.hpp"
#include "cuda/memory.hpp"
#include "metrics/ssim/ssim_cuda_kernels.cuh"
#include "metrics/ssim/ssim_math.hpp"
#include "metrics/ssim/ssim_tables.hpp"

namespace vq::ssim::gpu {
namespace {

constexpr int tile_x = 32;
constexpr int tile_y = 8;
constexpr int moments = 5;  // R, D, R*R, D*D, R*D

__constant__ float gaussian_taps[window];
__constant__ float pyramid_kernel[lpf_taps * lpf_taps];

dim3 grid_for(int width, int height) {
    return dim3(unsigned((width + tile_x - 1) / tile_x), unsigned((height + tile_y - 1) / tile_y));
}

// Spec §7.1; Box: every weight is `box_weight`, otherwise the 9x9 table.
template <typename Sample, bool Box>
__global__ void decimate_kernel(const Sample* in, int width, int height, float reciprocal,
                                int factor, int taps, float box_weight, float* out, int out_width,
                                int out_height) {
    const int x = int(blockIdx.x) * tile_x + int(threadIdx.x);
    const int y = int(blockIdx.y) * tile_y + int(threadIdx.y);
    if (x >= out_width || y >= out_height) return;
    const auto weight = [&](int v, int k) {
        return Box ? box_weight : pyramid_kernel[v * taps + k];
    };
    out[std::size_t(y) * std::size_t(out_width) + std::size_t(x)] =
        decimated_sample(in, width, height, reciprocal, factor, taps, weight, x, y);
}

// Spec §5-§6.2 in one pass: a thread block's terms_tile x terms_tile valid positions. The input
// window they read goes to shared memory, the horizontal pass (step 1) of its every row to shared
// memory too, and each thread blurs those vertically (step 2) for its positions and forms their
// terms. Each value is the one ssim_math.hpp's functions give the CPU twin; shared memory only
// replaces the horizontal planes the two passes exchanged through global memory.
// The kernel also adds each stream's terms into their chunk's sum (ssim_cuda_sums.cu's first
// step; atomics, so in any order: those sums only guess a binade, never decide a bit).
constexpr int terms_tile = 32;                         // valid positions a side per thread block
constexpr int terms_rows = terms_tile + (window - 1);  // input rows (and columns) it reads
constexpr int terms_threads_y = 8;                     // threads: terms_tile x terms_threads_y
constexpr int terms_threads = terms_tile * terms_threads_y;
static_assert(terms_tile == tile_x && terms_tile % terms_threads_y == 0);
static_assert(terms_tile == 32 && ordered::chunk_terms >= terms_tile,
              "a warp is one row of a tile, and its positions span at most two chunks");

__device__ double warp_sum(double v) {
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(0xffffffffu, v, offset);
    return v;
}

template <typename Sample>
__global__ void __launch_bounds__(terms_threads)
    terms_kernel(const Sample* ref, const Sample* dist, float reciprocal, int width, int height,
                 TermPlanes out, double* chunk_sums) {
    __shared__ float input[2][terms_rows][terms_rows];
    __shared__ float horizontal[moments][terms_rows][terms_tile];
    const int valid_width = width - (window - 1);
    const int valid_height = height - (window - 1);
    const int x0 = int(blockIdx.x) * terms_tile;
    const int y0 = int(blockIdx.y) * terms_tile;
    const int thread = int(threadIdx.y) * terms_tile + int(threadIdx.x);

    // Samples outside the plane are never read by a valid position; they are zeroed all the same.
    for (int i = thread; i < terms_rows * terms_rows; i += terms_threads) {
        const int row = i / terms_rows, column = i % terms_rows;
        const int x = x0 + column, y = y0 + row;
        const bool inside = x < width && y < height;
        const std::size_t at = std::size_t(y) * std::size_t(width) + std::size_t(x);
        input[0][row][column] = inside ? float(ref[at]) * reciprocal : 0.0f;
        input[1][row][column] = inside ? float(dist[at]) * reciprocal : 0.0f;
    }
    __syncthreads();

    // Step 1 at every input row of the window and every valid column of the tile.
    for (int i = thread; i < terms_rows * terms_tile; i += terms_threads) {
        const int row = i / terms_tile, column = i % terms_tile;
        float moments_here[moments] = {0, 0, 0, 0, 0};
        if (x0 + column < valid_width && y0 + row < height)
            horizontal_moments(&input[0][row][column], &input[1][row][column], gaussian_taps,
                               moments_here);
        for (int m = 0; m < moments; ++m) horizontal[m][row][column] = moments_here[m];
    }
    __syncthreads();

    // Step 2 and §6.2 at the thread's positions of the tile. A warp is one row of the tile
    // (threadIdx.y is the warp), so the row test is the whole warp's; the column test is a lane's
    // (the warp's shuffles need every lane).
    const int column = int(threadIdx.x);
    const int x = x0 + column;  // x0 < valid_width: lane 0 is always inside
    const bool inside = x < valid_width;
    const long long chunks = ordered::level_size(0, out.count);
    for (int row = int(threadIdx.y); row < terms_tile; row += terms_threads_y) {
        const int y = y0 + row;
        if (y >= valid_height) return;
        const long long i = (long long)y * valid_width + x;
        double stream_terms[sum_streams] = {0, 0, 0, 0};  // Means' order: (l*c)*s, l, c, s
        if (inside) {
            float blurred[moments];
            for (int m = 0; m < moments; ++m)
                blurred[m] =
                    vertical_moment(&horizontal[m][row][column], terms_tile, gaussian_taps);
            const Terms t = ssim::terms(blurred[0], blurred[1], blurred[2], blurred[3], blurred[4]);
            const float s = float(t.s);  // exact: s is a float widened
            out.l[i] = t.l;
            out.c[i] = t.c;
            out.s[i] = s;
            stream_terms[0] = (t.l * t.c) * double(s);
            stream_terms[1] = t.l;
            stream_terms[2] = t.c;
            stream_terms[3] = double(s);
        }
        // The warp's positions are consecutive in the valid region: lane 0's chunk, and maybe
        // the next one.
        const long long first_chunk = ((long long)y * valid_width + x0) / ordered::chunk_terms;
        const bool next = inside && i / ordered::chunk_terms != first_chunk;
        const bool any_next = __ballot_sync(0xffffffffu, next) != 0;
        for (int stream = 0; stream < sum_streams; ++stream) {
            const double first_sum = warp_sum(next ? 0.0 : stream_terms[stream]);
            const double next_sum = warp_sum(next ? stream_terms[stream] : 0.0);
            if (column != 0) continue;
            double* sums = chunk_sums + stream * chunks + first_chunk;
            atomicAdd(sums, first_sum);
            if (any_next) atomicAdd(sums + 1, next_sum);
        }
    }
}

}  // namespace

void upload_tables(cudaStream_t stream) {
    cuda::copy_to_symbol_async(gaussian_taps, std::span<const float, window>(gaussian), stream);
    cuda::copy_to_symbol_async(pyramid_kernel, std::span<const float, lpf_taps * lpf_taps>(lpf),
                               stream);
}

template <typename Sample>
void box_decimate(const Sample* luma, int width, int height, float reciprocal, int factor,
                  float* out, cudaStream_t stream) {
    const int out_width = decimated_size(width, factor);
    const int out_height = decimated_size(height, factor);
    const float weight = 1.0f / float(factor * factor);  // box_kernel()'s entries
    decimate_kernel<Sample, true>
        <<<grid_for(out_width, out_height), dim3(tile_x, tile_y), 0, stream>>>(
            luma, width, height, reciprocal, factor, factor, weight, out, out_width, out_height);
    VQ_CUDA_CHECK_LAUNCH(decimate_kernel);
}

template <typename Sample>
void pyramid_decimate(const Sample* in, float reciprocal, int width, int height, float* out,
                      cudaStream_t stream) {
    const int out_width = decimated_size(width, 2);
    const int out_height = decimated_size(height, 2);
    decimate_kernel<Sample, false>
        <<<grid_for(out_width, out_height), dim3(tile_x, tile_y), 0, stream>>>(
            in, width, height, reciprocal, 2, lpf_taps, 0.0f, out, out_width, out_height);
    VQ_CUDA_CHECK_LAUNCH(decimate_kernel);
}

template <typename Sample>
void terms(const Sample* ref, const Sample* dist, float reciprocal, int width, int height,
           const TermPlanes& out, double* chunk_sums, cudaStream_t stream) {
    const int valid_width = width - (window - 1);
    const int valid_height = height - (window - 1);
    const dim3 blocks(unsigned((valid_width + terms_tile - 1) / terms_tile),
                      unsigned((valid_height + terms_tile - 1) / terms_tile));
    terms_kernel<Sample><<<blocks, dim3(terms_tile, terms_threads_y), 0, stream>>>(
        ref, dist, reciprocal, width, height, out, chunk_sums);
    VQ_CUDA_CHECK_LAUNCH(terms_kernel);
}

template void box_decimate(const std::uint8_t*, int, int, float, int, float*, cudaStream_t);
template void box_decimate(const std::uint16_t*, int, int, float, int, float*, cudaStream_t);
template void pyramid_decimate(const std::uint8_t*, float, int, int, float*, cudaStream_t);
template void pyramid_decimate(const std::uint16_t*, float, int, int, float*, cudaStream_t);
template void pyramid_decimate(const float*, float, int, int, float*, cudaStream_t);
template void terms(const std::uint8_t*, const std::uint8_t*, float, int, int, const TermPlanes&,
                    double*, cudaStream_t);
template void terms(const std::uint16_t*, const std::uint16_t*, float, int, int, const TermPlanes&,
                    double*, cudaStream_t);
template void terms(const float*, const float*, float, int, int, const TermPlanes&, double*,
                    cudaStream_t);

}  // namespace vq::ssim::gpu
