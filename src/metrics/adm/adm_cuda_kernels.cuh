// The kernels of the ADM CUDA twin and the launchers adm_cuda.cu calls, one stage each: the DWT of
// a scale (adm_cuda_dwt.cu), decoupling + CSF + masking + denominator of every scale's scored
// region into per-row sums (adm_cuda_mask.cu), and the per-row rounding into the block
// (adm_cuda_rows.cu). All of them only enqueue work on the stream.
#pragma once

#include <cuda_runtime.h>

#include <array>
#include <cstdint>

#include "metrics/adm/adm.hpp"

namespace vq::adm::device {

// Band order inside a scale's band buffer, per image: the approximation, then h, v, d (the detail
// bands in the order every ADM stage uses).
inline constexpr int band_a = 0;
inline constexpr int band_h = 1;  // detail band b (0 h, 1 v, 2 d) is band_h + b
inline constexpr int band_v = 2;
inline constexpr int band_d = 3;
inline constexpr int bands_per_image = 4;

// One DWT: both images' input planes (samples, row pitch = width) -> both images' four bands.
template <typename Out>
struct DwtBands {
    Out* band[2][bands_per_image];  // [image][a, h, v, d], each out_width x out_height, packed rows
};

// Scale 0 from the luma planes (uint8 or uint16 samples).
template <typename Sample>
void launch_dwt0(const Sample* reference, const Sample* distorted, int width, int height,
                 int bit_depth, const DwtBands<std::int16_t>& out, cudaStream_t stream);

// Scale `scale` (1..3) from the previous scale's a bands (int16 after scale 0, int32 after).
template <typename In>
void launch_dwt_wide(int scale, const In* reference_a, const In* distorted_a, int width, int height,
                     const DwtBands<std::int32_t>& out, cudaStream_t stream);

// The masking of every scored scale in one launch: each block takes a tile_width x tile_height
// tile of one scale's scored region (the blocks of scale 0 first, the largest), and each warp adds
// its row segment's exact sums to that row's accumulators.
inline constexpr int sum_count = 9;    // den h, v, d; dlm h, v, d; aim h, v, d, as in ScaleSums
inline constexpr int tile_width = 32;  // one warp per tile row
// A block evaluates its tile and the one-cell ring around it: (32 + 2)·(h + 2) cells for 32·h
// positions, 1.33 evaluations a position at h = 8 and 1.20 at 16 (512 threads of at most 64
// registers: two blocks fill an SM's 1024 threads, as four of 256 did).
inline constexpr int tile_height = 16;

// One scale's constants for the run, read by every block from device memory.
struct ScaleMask {
    const void* reference[3];  // h, v, d coefficients (int16 at scale 0, int32 after)
    const void* distorted[3];
    int width, height;           // band
    int top, left;               // scored region origin
    int row_end, col_end;        // scored region end (exclusive)
    int rows, tiles_x;           // region rows; column tiles
    int block_begin, block_end;  // this scale's blocks in the launch (empty when not scored)
    std::uint32_t multiplier[3];
    int cube_shift[3];
    int den_square_shift, den_col_shift;  // §10 Pd, Cd (scales 1-3)
    int den_row_shift, row_shift;         // §10 Sa / Sd and §9.3 Sr: the per-row shifts
    // [quantity][region row]: each complete row's sum, accumulated by the warps of the mask
    // launch and read and cleared by the totals launch (so each frame starts from zero). Null
    // for a scale that is not scored (adm_skip_scale0).
    unsigned long long* row_sums;
};

struct MaskPlan {
    ScaleMask scales[scale_count];
    int blocks;         // in the mask launch
    double gain_limit;  // §6.3 egl
    bool aim;           // false with adm_skip_aim: the AIM sums stay 0
};

// Decoupling, CSF, masking and the denominator of every scored scale into the row sums.
void launch_mask(const MaskPlan* plan, int blocks, bool aim, cudaStream_t stream);

// Per-row rounding of every scale's row sums and their totals, written to the device Block.
void launch_row_totals(const MaskPlan* plan, Block* block, cudaStream_t stream);

}  // namespace vq::adm::device
