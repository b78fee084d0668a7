// The vector variant of PSNR-HVS's row kernel: each lane is one block of the row, so every lane
// runs the scalar block math (psnr_hvs_cpu_block_math.hpp) on its own block, op for op.
//
// INCLUDED ONCE PER INSTRUCTION SET by psnr_hvs_cpu_variant.hpp: deliberately no include guard.
// VQ_SIMD_BITS selects the width: 256 (AVX2, 8 blocks) or 512 (AVX-512, 16 blocks). The includer
// provides <immintrin.h>, <cstdint>, <cstring>, <utility>, psnr_hvs.hpp and
// psnr_hvs_cpu_tables.hpp.

inline constexpr int lanes = VQ_SIMD_BITS / 32;

using I32 = std::int32_t __attribute__((vector_size(VQ_SIMD_BITS / 8)));
using U32 = std::uint32_t __attribute__((vector_size(VQ_SIMD_BITS / 8)));
using F32 = float __attribute__((vector_size(VQ_SIMD_BITS / 8)));

VQ_KERNEL_INLINE F32 to_float(I32 value) { return __builtin_convertvector(value, F32); }

// IEEE sqrt in float is correctly rounded, as f32(sqrtd(double(x))) is (spec §7).
VQ_KERNEL_INLINE F32 rounded_sqrt(F32 value) {
#if VQ_SIMD_BITS == 256
    return (F32)_mm256_sqrt_ps((__m256)value);
#else
    return (F32)_mm512_sqrt_ps((__m512)value);
#endif
}

#include "metrics/psnr_hvs/psnr_hvs_cpu_block_math.hpp"

// Half a group's blocks: one 64-bit word per block, and their indices as 32-bit integers.
using U64 = std::uint64_t __attribute__((vector_size(VQ_SIMD_BITS / 8)));
using HalfI32 = std::int32_t __attribute__((vector_size(VQ_SIMD_BITS / 16)));

#if VQ_SIMD_BITS == 256
#define VQ_PSNR_HVS_LOW_HALF 0, 1, 2, 3
#define VQ_PSNR_HVS_HIGH_HALF 4, 5, 6, 7
#define VQ_PSNR_HVS_ALL_LANES 0, 1, 2, 3, 4, 5, 6, 7
#else
#define VQ_PSNR_HVS_LOW_HALF 0, 1, 2, 3, 4, 5, 6, 7
#define VQ_PSNR_HVS_HIGH_HALF 8, 9, 10, 11, 12, 13, 14, 15
#define VQ_PSNR_HVS_ALL_LANES 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
#endif

// The 64-bit words at base + byte_offsets[lane].
VQ_KERNEL_INLINE U64 gather_words(const std::byte* base, HalfI32 byte_offsets) {
#if VQ_SIMD_BITS == 256
    return (U64)_mm256_i32gather_epi64(reinterpret_cast<const long long*>(base),
                                       (__m128i)byte_offsets, 1);
#else
    return (U64)_mm512_i32gather_epi64((__m256i)byte_offsets, base, 1);
#endif
}

// Bits [shift, shift + width) of each word of both halves, as one vector of 32-bit lanes.
template <int shift, int width>
VQ_KERNEL_INLINE I32 field(U64 low, U64 high) {
    constexpr std::uint64_t mask = (std::uint64_t(1) << width) - 1;
    const HalfI32 l = __builtin_convertvector((low >> shift) & mask, HalfI32);
    const HalfI32 h = __builtin_convertvector((high >> shift) & mask, HalfI32);
    return __builtin_shufflevector(l, h, VQ_PSNR_HVS_ALL_LANES);
}

// Sample c of each of a row's 64-bit words (c < 8 / sizeof(Sample)).
template <typename Sample, int c>
VQ_KERNEL_INLINE I32 sample_field(U64 low, U64 high) {
    return field<8 * int(sizeof(Sample)) * c, 8 * int(sizeof(Sample))>(low, high);
}

template <typename Sample, int... c>
VQ_KERNEL_INLINE void unpack_words(U64 low, U64 high, I32* out, std::integer_sequence<int, c...>) {
    ((out[c] = sample_field<Sample, c>(low, high)), ...);
}

// The samples of the blocks whose left columns are x[lane], rows y..y+7. A block's row is one
// 64-bit word (8-bit) or two (16-bit), read whole and split into lanes in registers: every read
// stays inside the block.
template <typename Sample>
VQ_KERNEL_INLINE void gather_block(const PlaneView<Sample>& plane, int y, I32 x,
                                   BlockSamples& block) {
    constexpr int words = int(sizeof(Sample));  // 64-bit words per block row
    constexpr int per_word = 8 / words;         // samples per word
    const I32 x_bytes = x * int(sizeof(Sample));
    const HalfI32 low_offsets = __builtin_shufflevector(x_bytes, x_bytes, VQ_PSNR_HVS_LOW_HALF);
    const HalfI32 high_offsets = __builtin_shufflevector(x_bytes, x_bytes, VQ_PSNR_HVS_HIGH_HALF);
    for (int r = 0; r < 8; ++r) {
        const std::byte* row = reinterpret_cast<const std::byte*>(plane.row(y + r));
        for (int w = 0; w < words; ++w)
            unpack_words<Sample>(
                gather_words(row + 8 * w, low_offsets), gather_words(row + 8 * w, high_offsets),
                block + r * 8 + w * per_word, std::make_integer_sequence<int, per_word>{});
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

#undef VQ_PSNR_HVS_LOW_HALF
#undef VQ_PSNR_HVS_HIGH_HALF
#undef VQ_PSNR_HVS_ALL_LANES
