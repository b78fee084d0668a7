// The kernels of the ADM CUDA twin and the launchers adm_cuda.cu calls, one stage each: the DWT of
// a scale (adm_cuda_dwt.cu), decoupling + CSF + masking + denominator of a scale's scored region
// into per-row partial sums (adm_cuda_mask.cu), and the per-row rounding into the block
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
void launch_dwt0(const Sample* reference, const Sample* distorted, int width, int height, int bit_depth,
                 const DwtBands<std::int16_t>& out, cudaStream_t stream);

// Scale `scale` (1..3) from the previous scale's a bands (int16 after scale 0, int32 after).
template <typename In>
void launch_dwt_wide(int scale, const In* reference_a, const In* distorted_a, int width, int height,
                     const DwtBands<std::int32_t>& out, cudaStream_t stream);

// Per-row partial sums of one scale, one per column tile of the scored region:
// [quantity][column tile][region row], the 9 quantities in the order of ScaleSums (den h, v, d;
// dlm h, v, d; aim h, v, d). Every slot is written each frame.
inline constexpr int sum_count = 9;
inline constexpr int tile_width = 32;  // the masking kernel's tile: one warp per tile row
inline constexpr int tile_height = 8;

struct BandInputs {
    const void* reference[3];  // h, v, d coefficients (int16 at scale 0, int32 after)
    const void* distorted[3];
};

struct MaskLaunch {
    BandInputs bands;
    int scale;
    ScaleGeometry geometry;
    std::array<std::uint32_t, 3> multipliers;
    double gain_limit;
    bool aim;  // false with adm_skip_aim: the AIM sums stay 0
    unsigned long long* partial;
};

inline int column_tiles(const ScaleGeometry& g) { return (g.width - 2 * g.left + tile_width - 1) / tile_width; }
inline int region_rows(const ScaleGeometry& g) { return g.height - 2 * g.top; }

void launch_mask(const MaskLaunch& launch, cudaStream_t stream);

// Per-row rounding of every scale's partial sums and their totals, written to the device Block.
struct ScaleRows {
    const unsigned long long* partial;  // null for a skipped scale (its sums are written as 0)
    int rows, tiles;
    int den_shift, row_shift;  // §10's per-row Sa (scale 0) / Sd, and §9.3's Sr
    bool aim;
};

void launch_row_totals(const std::array<ScaleRows, scale_count>& scales, Block* block, cudaStream_t stream);

}  // namespace vq::adm::device
