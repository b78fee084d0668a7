// Contrast-masking row kernels (spec §9.1, §9.2): the masking threshold shared by the three
// bands, and one band's row sum of the cubed, thresholded values.
//
// INCLUDED ONCE PER INSTRUCTION SET, inside a namespace, through adm_cpu_variant.hpp: deliberately
// no include guard.

// thr over columns [begin, end): per band, the eight neighbours of the masker map m plus the
// centre term of c. m[3 * b + row] is band b's map at rows i - 1, i, i + 1 (already mirrored);
// each row is readable at begin - 1 and end (mirrored columns). The sums wrap as int32 does
// (unsigned arithmetic keeps that defined); scale 0's cannot reach 2^31 anyway. Map is int16 at
// scale 0 and int32 at scales 1-3.
template <typename Map>
void threshold_row(const Map* const* m, const Map* const* c, int begin, int end,
                   std::int32_t* thr) {
    constexpr bool scale0 = sizeof(Map) == 2;
    for (int j = begin; j < end; ++j) thr[j] = 0;
    for (int b = 0; b < 3; ++b) {
        const Map* up = m[3 * b];
        const Map* mid = m[3 * b + 1];
        const Map* down = m[3 * b + 2];
        const Map* centre = c[b];
        for (int j = begin; j < end; ++j) {
            const std::uint32_t window = std::uint32_t(up[j - 1]) + std::uint32_t(up[j]) +
                                         std::uint32_t(up[j + 1]) + std::uint32_t(mid[j - 1]) +
                                         std::uint32_t(mid[j + 1]) + std::uint32_t(down[j - 1]) +
                                         std::uint32_t(down[j]) + std::uint32_t(down[j + 1]);
            // The centre weighs 1/15: i16((8738 |c| + 2048) >> 12) at scale 0 (the cast wraps for
            // |c| > 15359; the product stays below 2^29, so int32 lanes hold it),
            // i32((286331153 |c| - 2^31) >> 32) above, with Netflix#955's constant.
            std::int32_t ctr;
            if constexpr (scale0) {
                const std::int32_t magnitude = centre[j] < 0 ? -centre[j] : centre[j];
                ctr = std::int16_t((8738 * magnitude + 2048) >> 12);
            } else {
                const std::int64_t magnitude = centre[j] < 0 ? -std::int64_t(centre[j]) : centre[j];
                ctr = std::int32_t((286331153 * magnitude - (std::int64_t(1) << 31)) >> 32);
            }
            thr[j] = std::int32_t(std::uint32_t(thr[j]) + window + std::uint32_t(ctr));
        }
    }
}

// §9.2 steps 1-3 and the row sum of §9.3 for one band, given x, the CSF-weighted values.
inline std::int64_t cubed_term(std::int32_t x, std::int32_t thr, int thr_shift, int square_shift,
                               int cube_shift, std::int64_t cube_round) {
    const std::uint32_t magnitude = x < 0 ? std::uint32_t(-std::int64_t(x)) : std::uint32_t(x);
    std::int32_t y = std::int32_t(magnitude - (std::uint32_t(thr) << thr_shift));
    if (y < 0) y = 0;
    const std::int32_t q = std::int32_t(
        (std::int64_t(y) * y + (std::int64_t(1) << (square_shift - 1))) >> square_shift);
    return (std::int64_t(q) * y + cube_round) >> cube_shift;
}

#if VQ_SIMD_BITS == 512
// cubed_term over 16 lanes of x and thr, added to the eight int64 lanes of `sum`. y is computed in
// int32 lanes as the scalar path does; its square (y >= 0) and the product with the int32 q come
// from 32 x 32 -> 64-bit multiplies, which read each 64-bit lane's low half: the even columns,
// then the odd ones shifted down. q keeps the low 32 bits of the rounded square, as the scalar
// cast does, since the signed multiply reads only those.
VQ_KERNEL_INLINE __m512i add_cubed_terms(__m512i sum, __m512i x, __m512i thr, int thr_shift,
                                         int square_shift, int cube_shift,
                                         std::int64_t cube_round) {
    const __m512i y = _mm512_max_epi32(
        _mm512_sub_epi32(_mm512_abs_epi32(x), _mm512_sll_epi32(thr, _mm_cvtsi32_si128(thr_shift))),
        _mm512_setzero_si512());
    const __m512i square_round = _mm512_set1_epi64(std::int64_t(1) << (square_shift - 1));
    const __m512i cube_rounding = _mm512_set1_epi64(cube_round);
    const __m128i square_count = _mm_cvtsi32_si128(square_shift);
    const __m128i cube_count = _mm_cvtsi32_si128(cube_shift);
    for (const __m512i lanes : {y, _mm512_srli_epi64(y, 32)}) {
        const __m512i q = _mm512_srl_epi64(
            _mm512_add_epi64(_mm512_mul_epu32(lanes, lanes), square_round), square_count);
        sum = _mm512_add_epi64(
            sum, _mm512_sra_epi64(_mm512_add_epi64(_mm512_mul_epi32(q, lanes), cube_rounding),
                                  cube_count));
    }
    return sum;
}
#endif

// Scale 0: x = i32(V * I) (int16 x uint16); threshold shift L and square shift P per band.
std::int64_t masked_row0(const std::int16_t* values, const std::int32_t* thr, int begin, int end,
                         int multiplier, int thr_shift, int square_shift, int cube_shift) {
    const std::int64_t cube_round = cube_shift >= 1 ? std::int64_t(1) << (cube_shift - 1) : 0;
    std::int64_t sum = 0;
    int j = begin;
#if VQ_SIMD_BITS == 512
    __m512i sums = _mm512_setzero_si512();
    const __m512i multipliers = _mm512_set1_epi32(multiplier);
    for (; j + 16 <= end; j += 16) {
        const __m512i v =
            _mm512_cvtepi16_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(values + j)));
        sums =
            add_cubed_terms(sums, _mm512_mullo_epi32(v, multipliers), _mm512_loadu_si512(thr + j),
                            thr_shift, square_shift, cube_shift, cube_round);
    }
    sum = _mm512_reduce_add_epi64(sums);
#endif
    for (; j < end; ++j)
        sum += cubed_term(values[j] * multiplier, thr[j], thr_shift, square_shift, cube_shift,
                          cube_round);
    return sum;
}

// Scales 1-3: x = i32((V * U + 2^27) >> 28), which is the CSF map c of the values, passed in.
std::int64_t masked_row_wide(const std::int32_t* weighted, const std::int32_t* thr, int begin,
                             int end, int cube_shift) {
    const std::int64_t cube_round = cube_shift >= 1 ? std::int64_t(1) << (cube_shift - 1) : 0;
    std::int64_t sum = 0;
    int j = begin;
#if VQ_SIMD_BITS == 512
    __m512i sums = _mm512_setzero_si512();
    for (; j + 16 <= end; j += 16)
        sums = add_cubed_terms(sums, _mm512_loadu_si512(weighted + j), _mm512_loadu_si512(thr + j),
                               0, 30, cube_shift, cube_round);
    sum = _mm512_reduce_add_epi64(sums);
#endif
    for (; j < end; ++j) sum += cubed_term(weighted[j], thr[j], 0, 30, cube_shift, cube_round);
    return sum;
}
