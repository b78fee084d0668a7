// ADM CUDA twin, the per-coefficient stages (spec §6, §8, §9, §10) over the scored regions of all
// scales in one launch, fused: each block takes a 32 x 16 tile of one scale's region, decouples
// and CSF-weights the tile and the one-coefficient ring around it (the 3 x 3 masking window,
// mirrored per §3.1 at the band edges) into shared memory, then each thread masks and cubes its
// own coefficient and adds the denominator term. Each warp is one tile row: it sums its row
// segment exactly and adds it to the row's accumulators; the per-row rounding happens once every
// segment is in (adm_cuda_rows.cu), as §9.3 requires.
#include <cstdint>

#include "cuda/check.hpp"
#include "metrics/adm/adm_cuda_kernels.cuh"
#include "metrics/adm/adm_cuda_math.cuh"
#include "metrics/toolkit/mirror.hpp"

namespace vq::adm::device {
namespace {

using namespace device_math;

constexpr int mask_threads = tile_width * tile_height;
constexpr int window_width = tile_width + 2;
constexpr int window_height = tile_height + 2;
constexpr int ring_cells = 2 * window_width + 2 * tile_height;

// Everything the masking needs of one coefficient position, after decoupling and CSF.
struct Cell {
    std::int32_t o[3];        // reference coefficients (the denominator)
    std::int32_t r[3], a[3];  // restored and additive values
    std::uint32_t mask_a;     // Σ_b of the /30 map of CSF(A_b): the DLM masker
    std::uint32_t mask_r;     // Σ_b of the /30 map of CSF(R_b): the AIM masker
    std::uint32_t centre_a;   // Σ_b of the /15 centre term of CSF(A_b)
    std::uint32_t centre_r;
};

template <bool Scale0, typename Coef>
__device__ Cell evaluate(const ScaleMask& p, double gain_limit, int i, int j, bool aim) {
    const std::size_t at = std::size_t(i) * std::size_t(p.width) + j;
    std::int32_t t[3];
    Cell cell;
    for (int b = 0; b < 3; ++b) {
        cell.o[b] = static_cast<const Coef*>(p.reference[b])[at];
        t[b] = static_cast<const Coef*>(p.distorted[b])[at];
    }
    const bool angle = within_one_degree(cell.o[0], cell.o[1], t[0], t[1]);
    cell.mask_a = cell.mask_r = cell.centre_a = cell.centre_r = 0;
    for (int b = 0; b < 3; ++b) {
        const Split split = Scale0 ? decouple0(cell.o[b], t[b], angle, gain_limit)
                                   : decouple_wide(cell.o[b], t[b], angle, gain_limit);
        cell.r[b] = split.r;
        cell.a[b] = split.a;
        if constexpr (Scale0) {
            const int c = csf0(split.a, int(p.multiplier[b]), b == 2);
            cell.mask_a += std::uint32_t(mask0(c));
            cell.centre_a += std::uint32_t(centre0(c));
            if (aim) {
                const int cr = csf0(split.r, int(p.multiplier[b]), b == 2);
                cell.mask_r += std::uint32_t(mask0(cr));
                cell.centre_r += std::uint32_t(centre0(cr));
            }
        } else {
            const std::int32_t c = csf_wide(split.a, p.multiplier[b]);
            cell.mask_a += std::uint32_t(mask_wide(c));
            cell.centre_a += std::uint32_t(centre_wide(c));
            if (aim) {
                const std::int32_t cr = csf_wide(split.r, p.multiplier[b]);
                cell.mask_r += std::uint32_t(mask_wide(cr));
                cell.centre_r += std::uint32_t(centre_wide(cr));
            }
        }
    }
    return cell;
}

using Window = std::uint32_t[window_height][window_width];

// §9.1: the eight neighbours' /30 maps and the centre's /15 term, summed over the bands (int32,
// wrapping). The window's 3 x 3 sum includes the centre's own /30 map once, taken out again;
// where a mirrored neighbour lands on the centre itself (the band's last row or column) it stays.
__device__ std::int32_t threshold(const Window& window, int ty, int tx, std::uint32_t centre) {
    std::uint32_t sum = 0;
    for (int di = 0; di < 3; ++di)
        for (int dj = 0; dj < 3; ++dj) sum += window[ty + di][tx + dj];
    return std::int32_t(sum - window[ty + 1][tx + 1] + centre);
}

// §9.2 for one band b of the values V at a position of threshold thr.
template <bool Scale0>
__device__ std::int64_t masked_term(const ScaleMask& p, std::int32_t value, std::int32_t thr,
                                    int b) {
    if constexpr (Scale0) {
        const bool diagonal = b == 2;
        return masked_cube(value * std::int32_t(p.multiplier[b]), thr, diagonal ? 12 : 10,
                           diagonal ? 30 : 29, p.cube_shift[b]);
    } else {
        return masked_cube(csf_wide(value, p.multiplier[b]), thr, 0, 30, p.cube_shift[b]);
    }
}

__device__ unsigned long long warp_sum(unsigned long long value) {
    for (int offset = 16; offset > 0; offset /= 2)
        value += __shfl_down_sync(0xffffffffu, value, offset);
    return value;
}

// The tile (tile_x, tile_y) of scale p's scored region.
template <bool Scale0, bool Aim, typename Coef>
__device__ void mask_tile(const ScaleMask& p, double gain_limit, int tile_x, int tile_y,
                          Window& masker_a, Window& masker_r) {
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int i0 = p.top + tile_y * tile_height;
    const int j0 = p.left + tile_x * tile_width;
    // A window cell is needed when some position of the region reads it: rows top - 1 .. row_end,
    // columns left - 1 .. col_end (mirrored into the band where they leave it).
    const auto needed = [&](int i, int j) { return i <= p.row_end && j <= p.col_end; };

    // This thread's own position, kept in registers for the second phase.
    const int i = i0 + ty, j = j0 + tx;
    Cell own{};
    if (needed(i, j))
        own = evaluate<Scale0, Coef>(p, gain_limit, mirror_repeating_end(i, p.height),
                                     mirror_repeating_end(j, p.width), Aim);
    masker_a[ty + 1][tx + 1] = own.mask_a;
    masker_r[ty + 1][tx + 1] = own.mask_r;

    // The ring around the tile: top and bottom window rows, then left and right columns.
    for (int n = ty * tile_width + tx; n < ring_cells; n += mask_threads) {
        int ci, cj;
        if (n < 2 * window_width) {
            ci = n < window_width ? 0 : window_height - 1;
            cj = n % window_width;
        } else {
            const int m = n - 2 * window_width;
            ci = 1 + m % tile_height;
            cj = m < tile_height ? 0 : window_width - 1;
        }
        const int ri = i0 - 1 + ci, rj = j0 - 1 + cj;
        Cell cell{};
        if (needed(ri, rj))
            cell = evaluate<Scale0, Coef>(p, gain_limit, mirror_repeating_end(ri, p.height),
                                          mirror_repeating_end(rj, p.width), Aim);
        masker_a[ci][cj] = cell.mask_a;
        masker_r[ci][cj] = cell.mask_r;
    }
    __syncthreads();

    unsigned long long sums[sum_count] = {};
    if (i < p.row_end && j < p.col_end) {
        const std::int32_t thr_dlm = threshold(masker_a, ty, tx, own.centre_a);
        const std::int32_t thr_aim = Aim ? threshold(masker_r, ty, tx, own.centre_r) : 0;
        for (int b = 0; b < 3; ++b) {
            sums[b] = Scale0 ? den_cube0(own.o[b])
                             : den_cube_wide(own.o[b], p.den_square_shift, p.den_col_shift);
            sums[3 + b] = (unsigned long long)masked_term<Scale0>(p, own.r[b], thr_dlm, b);
            if (Aim) sums[6 + b] = (unsigned long long)masked_term<Scale0>(p, own.a[b], thr_aim, b);
        }
    }
    // One warp is one tile row (blockDim.x = 32): its exact segment sums, modulo 2^64 as the CPU
    // twin's int64 sums wrap, added to the row's accumulators (one atomic per warp and quantity).
    for (int q = 0; q < sum_count; ++q) sums[q] = warp_sum(sums[q]);
    if (tx == 0 && i < p.row_end) {
        unsigned long long* row = p.row_sums + (i - p.top);
        for (int q = 0; q < sum_count; ++q)
            if (sums[q] != 0) atomicAdd(row + std::size_t(q) * std::size_t(p.rows), sums[q]);
    }
}

// Block b belongs to the scale whose [block_begin, block_end) holds it; scale 0's are int16 bands.
template <bool Aim>
__global__ void __launch_bounds__(mask_threads) mask_scales(const MaskPlan* plan) {
    __shared__ Window masker_a, masker_r;
    const int block = int(blockIdx.x);
    int s = 0;
    while (block >= plan->scales[s].block_end) ++s;
    const ScaleMask& scale = plan->scales[s];
    const int index = block - scale.block_begin;
    const int tile_x = index % scale.tiles_x, tile_y = index / scale.tiles_x;
    if (s == 0)
        mask_tile<true, Aim, std::int16_t>(scale, plan->gain_limit, tile_x, tile_y, masker_a,
                                           masker_r);
    else
        mask_tile<false, Aim, std::int32_t>(scale, plan->gain_limit, tile_x, tile_y, masker_a,
                                            masker_r);
}

}  // namespace

void launch_mask(const MaskPlan* plan, int blocks, bool aim, cudaStream_t stream) {
    const dim3 threads(tile_width, tile_height);
    if (aim)
        mask_scales<true><<<unsigned(blocks), threads, 0, stream>>>(plan);
    else
        mask_scales<false><<<unsigned(blocks), threads, 0, stream>>>(plan);
    VQ_CUDA_CHECK_LAUNCH(mask_scales);
}

}  // namespace vq::adm::device
