// Vector helpers for filters that multiply 16-bit samples two taps at a time (the multiply-add
// sums two int16 products per 32-bit lane): widening 8-bit loads, the interleave of two rows or
// two shifted loads into such pairs, and the multiply-add itself.
//
// INCLUDED ONCE PER INSTRUCTION SET by a metric's vector rows, inside its variant's namespace
// (metrics/toolkit/cpu_variants.hpp), where VQ_SIMD_BITS is 256 (AVX2) or 512 (AVX-512):
// deliberately no include guard. The includer provides <cstdint> and <immintrin.h>.

inline constexpr int lanes = VQ_SIMD_BITS / 32;  // 32-bit lanes per vector

using I32 = std::int32_t __attribute__((vector_size(VQ_SIMD_BITS / 8)));
using I16 = std::int16_t __attribute__((vector_size(VQ_SIMD_BITS / 8)));

// 2 * lanes 8-bit samples, widened to 16 bits.
VQ_KERNEL_INLINE I16 load_widened_pairs(const std::uint8_t* p) {
#if VQ_SIMD_BITS == 256
    return (I16)_mm256_cvtepu8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
#else
    return (I16)_mm512_cvtepu8_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
#endif
}

// The 16-bit values of a and b side by side in 32-bit lanes (a low, b high), within each 128-bit
// lane: the first four columns of each lane's eight, and the last four. Packing the two halves'
// 32-bit results (packs/packus) puts the columns back in order.
VQ_KERNEL_INLINE I16 interleave_first(I16 a, I16 b) {
#if VQ_SIMD_BITS == 256
    return (I16)_mm256_unpacklo_epi16((__m256i)a, (__m256i)b);
#else
    return (I16)_mm512_unpacklo_epi16((__m512i)a, (__m512i)b);
#endif
}

VQ_KERNEL_INLINE I16 interleave_last(I16 a, I16 b) {
#if VQ_SIMD_BITS == 256
    return (I16)_mm256_unpackhi_epi16((__m256i)a, (__m256i)b);
#else
    return (I16)_mm512_unpackhi_epi16((__m512i)a, (__m512i)b);
#endif
}

// Per 32-bit lane: low16(a) * low16(b) + high16(a) * high16(b), the halves read as int16.
VQ_KERNEL_INLINE I32 multiply_add(I16 a, I16 b) {
#if VQ_SIMD_BITS == 256
    return (I32)_mm256_madd_epi16((__m256i)a, (__m256i)b);
#else
    return (I32)_mm512_madd_epi16((__m512i)a, (__m512i)b);
#endif
}
