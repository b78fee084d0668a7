// The vector variant of PSNR-HVS's row kernel: each lane is one block of the row, so every lane
// runs the scalar block math (psnr_hvs_block_math.hpp) on its own block, op for op.
//
// INCLUDED ONCE PER INSTRUCTION SET, inside a namespace, by psnr_hvs_kernels.cpp: deliberately no
// include guard. VQ_PSNR_HVS_VECTOR_BYTES selects the width: 32 (AVX2, 8 blocks) or 64
// (AVX-512, 16 blocks). The includer provides <immintrin.h>, <cstdint>, <cstring>,
// psnr_hvs.hpp and psnr_hvs_tables.hpp.

inline constexpr int lanes = VQ_PSNR_HVS_VECTOR_BYTES / 4;

using I32 = std::int32_t __attribute__((vector_size(VQ_PSNR_HVS_VECTOR_BYTES)));
using U32 = std::uint32_t __attribute__((vector_size(VQ_PSNR_HVS_VECTOR_BYTES)));
using F32 = float __attribute__((vector_size(VQ_PSNR_HVS_VECTOR_BYTES)));

VQ_PSNR_HVS_INLINE F32 to_float(I32 value) { return __builtin_convertvector(value, F32); }

// IEEE sqrt in float is correctly rounded, as f32(sqrtd(double(x))) is (spec §7).
VQ_PSNR_HVS_INLINE F32 rounded_sqrt(F32 value) {
#if VQ_PSNR_HVS_VECTOR_BYTES == 32
    return (F32)_mm256_sqrt_ps((__m256)value);
#else
    return (F32)_mm512_sqrt_ps((__m512)value);
#endif
}

#include "metrics/psnr_hvs/psnr_hvs_block_math.hpp"

// The 32-bit words at base + byte_offsets[lane].
VQ_PSNR_HVS_INLINE U32 gather_words(const std::byte* base, I32 byte_offsets) {
#if VQ_PSNR_HVS_VECTOR_BYTES == 32
    return (U32)_mm256_i32gather_epi32(reinterpret_cast<const int*>(base), (__m256i)byte_offsets,
                                       1);
#else
    return (U32)_mm512_i32gather_epi32((__m512i)byte_offsets, base, 1);
#endif
}

// The samples of the blocks whose left columns are x[lane], rows y..y+7. Each word read stays
// inside its block's columns: it starts at the sample in the block's left half and ends at it in
// the right half, so no read passes the plane's edges.
template <typename Sample>
VQ_PSNR_HVS_INLINE void gather_block(const PlaneView<Sample>& plane, int y, I32 x,
                                     BlockSamples& block) {
    constexpr int bytes = sizeof(Sample);
    constexpr std::uint32_t low_mask = (std::uint32_t(1) << (8 * bytes)) - 1;
    constexpr int high_shift = 32 - 8 * bytes;
    const I32 x_bytes = x * bytes;
    for (int r = 0; r < 8; ++r) {
        const std::byte* row = reinterpret_cast<const std::byte*>(plane.row(y + r));
        for (int c = 0; c < 4; ++c)
            block[r * 8 + c] = (I32)(gather_words(row, x_bytes + c * bytes) & low_mask);
        for (int c = 4; c < 8; ++c)
            block[r * 8 + c] =
                (I32)(gather_words(row, x_bytes + (c + 1) * bytes - 4) >> high_shift);
    }
}

template <typename Sample>
void row_terms(const PlaneView<Sample>& reference, const PlaneView<Sample>& distorted, int y,
               const PlaneTables& tables, float* terms) {
    const int blocks = block_count(reference.width);
    I32 lane_index;
    for (int lane = 0; lane < lanes; ++lane) lane_index[lane] = lane;
    const I32 last_block = I32{} + (blocks - 1);
    for (int first = 0; first < blocks; first += lanes) {
        // Lanes past the row's last block repeat it; their terms are never added.
        const I32 block = lane_index + first;
        const I32 x = (block < last_block ? block : last_block) * block_step;
        BlockSamples reference_samples, distorted_samples;
        gather_block(reference, y, x, reference_samples);
        gather_block(distorted, y, x, distorted_samples);
        F32 group_terms[64];
        block_terms(reference_samples, distorted_samples, tables, group_terms);
        std::memcpy(terms + std::size_t(first) * 64, group_terms, sizeof group_terms);
    }
}
