// DWT row kernels (spec §4, §5): one output row of the four bands from four input rows.
//
// INCLUDED ONCE PER INSTRUCTION SET, inside a namespace, through adm_cpu_variant.hpp: deliberately
// no include guard. VQ_SIMD_BITS is 0 (baseline), 256 (AVX2) or 512 (AVX-512): plain loops that the
// compiler vectorises, plus intrinsics where it cannot see the pattern. All arithmetic is integer,
// so every instruction set gives the same bits.

// db2 taps x 2^15 (§4): tap k applies to input index 2i - 1 + k.
inline constexpr int lo0 = 15826, lo1 = 27411, lo2 = 7345, lo3 = -4240;
inline constexpr int hi0 = -4240, hi1 = -7345, hi2 = 27411, hi3 = -15826;

// §4 vertical pass over `width` columns. Samples are centred first: sum(LO * (p - half)) equals
// sum(LO * p) - 46342 * half exactly, and HI's taps sum to 0, so the spec's values come out of
// 32-bit sums (|p - half| <= 2^15 and the taps' absolute sum is 54822 < 2^16) at every depth.
#if VQ_SIMD_BITS
// Two int16 taps side by side, as one int32 lane of a multiply-add's coefficients: the low half
// multiplies the even-indexed (first) sample of each pair.
constexpr std::int32_t tap_pair(int first, int second) {
    return std::int32_t((std::uint32_t(std::uint16_t(second)) << 16) | std::uint16_t(first));
}
#endif

template <typename Sample>
void dwt0_vertical(const Sample* const* rows, int width, int bit_depth, std::int16_t* lo,
                   std::int16_t* hi) {
    const Sample* r0 = rows[0];
    const Sample* r1 = rows[1];
    const Sample* r2 = rows[2];
    const Sample* r3 = rows[3];
    const int half = 1 << (bit_depth - 1);
    int x = 0;
#if VQ_SIMD_BITS
    // The centred samples fit int16, so rows 0 and 1 (and 2 and 3) interleaved are the pairs of
    // 16-bit multiply-adds. Unpacking and packing both work within 128-bit lanes, so the outputs
    // come back in column order. Every result fits int16 (|sum| <= 54822 * 2^(depth - 1), shifted
    // by the depth), so packing never saturates.
#if VQ_SIMD_BITS == 512
    using Vec = __m512i;
    constexpr int lanes = 32;
    auto set = [](std::int32_t v) { return _mm512_set1_epi32(v); };
    auto load = [](const Sample* p) {
        if constexpr (sizeof(Sample) == 1)
            return _mm512_cvtepu8_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
        else
            return _mm512_loadu_si512(p);
    };
    auto sub16 = [](Vec a, Vec b) { return _mm512_sub_epi16(a, b); };
    auto set16 = [](int v) { return _mm512_set1_epi16(std::int16_t(v)); };
    auto unpack_lo = [](Vec a, Vec b) { return _mm512_unpacklo_epi16(a, b); };
    auto unpack_hi = [](Vec a, Vec b) { return _mm512_unpackhi_epi16(a, b); };
    auto madd = [](Vec a, Vec b) { return _mm512_madd_epi16(a, b); };
    auto add32 = [](Vec a, Vec b) { return _mm512_add_epi32(a, b); };
    auto shift32 = [](Vec a, __m128i n) { return _mm512_sra_epi32(a, n); };
    auto pack = [](Vec a, Vec b) { return _mm512_packs_epi32(a, b); };
    auto store = [](std::int16_t* p, Vec v) { _mm512_storeu_si512(p, v); };
#else
    using Vec = __m256i;
    constexpr int lanes = 16;
    auto set = [](std::int32_t v) { return _mm256_set1_epi32(v); };
    auto load = [](const Sample* p) {
        if constexpr (sizeof(Sample) == 1)
            return _mm256_cvtepu8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
        else
            return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
    };
    auto sub16 = [](Vec a, Vec b) { return _mm256_sub_epi16(a, b); };
    auto set16 = [](int v) { return _mm256_set1_epi16(std::int16_t(v)); };
    auto unpack_lo = [](Vec a, Vec b) { return _mm256_unpacklo_epi16(a, b); };
    auto unpack_hi = [](Vec a, Vec b) { return _mm256_unpackhi_epi16(a, b); };
    auto madd = [](Vec a, Vec b) { return _mm256_madd_epi16(a, b); };
    auto add32 = [](Vec a, Vec b) { return _mm256_add_epi32(a, b); };
    auto shift32 = [](Vec a, __m128i n) { return _mm256_sra_epi32(a, n); };
    auto pack = [](Vec a, Vec b) { return _mm256_packs_epi32(a, b); };
    auto store = [](std::int16_t* p, Vec v) {
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v);
    };
#endif
    // Centring subtracts half in 16-bit lanes: a 16-bit sample minus 2^15 wraps to exactly the
    // centred value's two's complement.
    const Vec centre = set16(half), rounding = set(half);
    const __m128i depth = _mm_cvtsi32_si128(bit_depth);
    const Vec lo01 = set(tap_pair(lo0, lo1)), lo23 = set(tap_pair(lo2, lo3));
    const Vec hi01 = set(tap_pair(hi0, hi1)), hi23 = set(tap_pair(hi2, hi3));
    auto band = [&](Vec p01, Vec p23, Vec c01, Vec c23) {
        return shift32(add32(add32(madd(p01, c01), madd(p23, c23)), rounding), depth);
    };
    for (; x + lanes <= width; x += lanes) {
        const Vec p0 = sub16(load(r0 + x), centre), p1 = sub16(load(r1 + x), centre);
        const Vec p2 = sub16(load(r2 + x), centre), p3 = sub16(load(r3 + x), centre);
        const Vec p01_lo = unpack_lo(p0, p1), p01_hi = unpack_hi(p0, p1);
        const Vec p23_lo = unpack_lo(p2, p3), p23_hi = unpack_hi(p2, p3);
        store(lo + x, pack(band(p01_lo, p23_lo, lo01, lo23), band(p01_hi, p23_hi, lo01, lo23)));
        store(hi + x, pack(band(p01_lo, p23_lo, hi01, hi23), band(p01_hi, p23_hi, hi01, hi23)));
    }
#endif
    for (; x < width; ++x) {
        const int p0 = r0[x] - half, p1 = r1[x] - half, p2 = r2[x] - half, p3 = r3[x] - half;
        lo[x] = std::int16_t((lo0 * p0 + lo1 * p1 + lo2 * p2 + lo3 * p3 + half) >> bit_depth);
        hi[x] = std::int16_t((hi0 * p0 + hi1 * p1 + hi2 * p2 + hi3 * p3 + half) >> bit_depth);
    }
}

// §4 horizontal pass: `count` outputs of each band. lo and hi hold the mirrored border already,
// so index -1 and indices up to 2 * count are readable. Sums fit int32 (|L| <= 2^15) and every
// result fits int16 (|sum| <= 54822 * 2^15, shifted by 16), so packing never saturates.
void dwt0_horizontal(const std::int16_t* lo, const std::int16_t* hi, int count, std::int16_t* a,
                     std::int16_t* v, std::int16_t* h, std::int16_t* d) {
    int j = 0;
#if VQ_SIMD_BITS
    // Output j is taps (0, 1) on the pair at 2j - 1 plus taps (2, 3) on the pair at 2j + 1: two
    // 16-bit multiply-adds over unaligned loads.
#if VQ_SIMD_BITS == 512
    using Vec = __m512i;
    constexpr int lanes = 16;
    auto set = [](std::int32_t x) { return _mm512_set1_epi32(x); };
    auto load = [](const std::int16_t* p) { return _mm512_loadu_si512(p); };
    auto band = [](Vec first, Vec second, Vec c01, Vec c23, std::int16_t* out) {
        const Vec sum =
            _mm512_add_epi32(_mm512_madd_epi16(first, c01), _mm512_madd_epi16(second, c23));
        const Vec rounded = _mm512_srai_epi32(_mm512_add_epi32(sum, _mm512_set1_epi32(32768)), 16);
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), _mm512_cvtepi32_epi16(rounded));
    };
#else
    using Vec = __m256i;
    constexpr int lanes = 8;
    auto set = [](std::int32_t x) { return _mm256_set1_epi32(x); };
    auto load = [](const std::int16_t* p) {
        return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
    };
    auto band = [](Vec first, Vec second, Vec c01, Vec c23, std::int16_t* out) {
        const Vec sum =
            _mm256_add_epi32(_mm256_madd_epi16(first, c01), _mm256_madd_epi16(second, c23));
        const Vec rounded = _mm256_srai_epi32(_mm256_add_epi32(sum, _mm256_set1_epi32(32768)), 16);
        const Vec packed = _mm256_permute4x64_epi64(_mm256_packs_epi32(rounded, rounded), 0x08);
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out), _mm256_castsi256_si128(packed));
    };
#endif
    const Vec lo01 = set(tap_pair(lo0, lo1)), lo23 = set(tap_pair(lo2, lo3));
    const Vec hi01 = set(tap_pair(hi0, hi1)), hi23 = set(tap_pair(hi2, hi3));
    for (; j + lanes <= count; j += lanes) {
        const Vec l_first = load(lo + 2 * j - 1), l_second = load(lo + 2 * j + 1);
        const Vec h_first = load(hi + 2 * j - 1), h_second = load(hi + 2 * j + 1);
        band(l_first, l_second, lo01, lo23, a + j);
        band(l_first, l_second, hi01, hi23, v + j);
        band(h_first, h_second, lo01, lo23, h + j);
        band(h_first, h_second, hi01, hi23, d + j);
    }
#endif
    for (; j < count; ++j) {
        const std::int16_t* l = lo + 2 * j - 1;
        const std::int16_t* e = hi + 2 * j - 1;
        a[j] = std::int16_t((lo0 * l[0] + lo1 * l[1] + lo2 * l[2] + lo3 * l[3] + 32768) >> 16);
        v[j] = std::int16_t((hi0 * l[0] + hi1 * l[1] + hi2 * l[2] + hi3 * l[3] + 32768) >> 16);
        h[j] = std::int16_t((lo0 * e[0] + lo1 * e[1] + lo2 * e[2] + lo3 * e[3] + 32768) >> 16);
        d[j] = std::int16_t((hi0 * e[0] + hi1 * e[1] + hi2 * e[2] + hi3 * e[3] + 32768) >> 16);
    }
}

// §5 vertical pass of scale 1: the raw sums of the int16 scale-0 A band (no rounding), which
// fit int32 (54822 * 2^15 < 2^31).
void dwt1_vertical(const std::int16_t* const* rows, int width, std::int32_t* lo, std::int32_t* hi) {
    const std::int16_t* r0 = rows[0];
    const std::int16_t* r1 = rows[1];
    const std::int16_t* r2 = rows[2];
    const std::int16_t* r3 = rows[3];
    for (int x = 0; x < width; ++x) {
        const int p0 = r0[x], p1 = r1[x], p2 = r2[x], p3 = r3[x];
        lo[x] = lo0 * p0 + lo1 * p1 + lo2 * p2 + lo3 * p3;
        hi[x] = hi0 * p0 + hi1 * p1 + hi2 * p2 + hi3 * p3;
    }
}

// §5 vertical pass of scales 2 and 3: 64-bit sums, + 32768, >> 16.
void dwt23_vertical(const std::int32_t* const* rows, int width, std::int32_t* lo,
                    std::int32_t* hi) {
    const std::int32_t* r0 = rows[0];
    const std::int32_t* r1 = rows[1];
    const std::int32_t* r2 = rows[2];
    const std::int32_t* r3 = rows[3];
    for (int x = 0; x < width; ++x) {
        const std::int64_t p0 = r0[x], p1 = r1[x], p2 = r2[x], p3 = r3[x];
        lo[x] = std::int32_t((lo0 * p0 + lo1 * p1 + lo2 * p2 + lo3 * p3 + 32768) >> 16);
        hi[x] = std::int32_t((hi0 * p0 + hi1 * p1 + hi2 * p2 + hi3 * p3 + 32768) >> 16);
    }
}

// §5 horizontal pass of scales 1-3 with the scale's rounding (add, shift); padded as for scale 0.
// The sums need 64 bits; the int32 result keeps bits shift .. shift + 31 of the sum, which a
// logical shift gives as well as an arithmetic one (shift <= 32), so AVX2, which has no 64-bit
// arithmetic shift, gives the same bits.
void dwt_wide_horizontal(const std::int32_t* lo, const std::int32_t* hi, int count, int add,
                         int shift, std::int32_t* a, std::int32_t* v, std::int32_t* h,
                         std::int32_t* d) {
    int j = 0;
#if VQ_SIMD_BITS
    // Output j reads the inputs at 2j - 1 .. 2j + 2. A load from 2j - 1 holds, in its 64-bit lane
    // k, the pair (2(j+k) - 1, 2(j+k)) and one from 2j + 1 the pair (2(j+k) + 1, 2(j+k) + 2): the
    // signed 32x32 -> 64 multiply reads a lane's low half, and a 32-bit shift brings the high half
    // down.
#if VQ_SIMD_BITS == 512
    using Vec = __m512i;
    constexpr int lanes = 8;
    auto set = [](std::int64_t x) { return _mm512_set1_epi64(x); };
    auto load = [](const std::int32_t* p) { return _mm512_loadu_si512(p); };
    auto mul = [](Vec x, Vec y) { return _mm512_mul_epi32(x, y); };
    auto add64 = [](Vec x, Vec y) { return _mm512_add_epi64(x, y); };
    auto high = [](Vec x) { return _mm512_srli_epi64(x, 32); };
    const __m128i count_shift = _mm_cvtsi32_si128(shift);
    auto store = [&](Vec sum, std::int32_t* out) {
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(out),
                            _mm512_cvtepi64_epi32(_mm512_srl_epi64(sum, count_shift)));
    };
#else
    using Vec = __m256i;
    constexpr int lanes = 4;
    auto set = [](std::int64_t x) { return _mm256_set1_epi64x(x); };
    auto load = [](const std::int32_t* p) {
        return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
    };
    auto mul = [](Vec x, Vec y) { return _mm256_mul_epi32(x, y); };
    auto add64 = [](Vec x, Vec y) { return _mm256_add_epi64(x, y); };
    auto high = [](Vec x) { return _mm256_srli_epi64(x, 32); };
    const __m128i count_shift = _mm_cvtsi32_si128(shift);
    const Vec low_halves = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
    auto store = [&](Vec sum, std::int32_t* out) {
        const Vec packed =
            _mm256_permutevar8x32_epi32(_mm256_srl_epi64(sum, count_shift), low_halves);
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out), _mm256_castsi256_si128(packed));
    };
#endif
    const Vec t_lo0 = set(lo0), t_lo1 = set(lo1), t_lo2 = set(lo2), t_lo3 = set(lo3);
    const Vec t_hi0 = set(hi0), t_hi1 = set(hi1), t_hi2 = set(hi2), t_hi3 = set(hi3);
    const Vec rounding = set(add);
    auto band = [&](Vec first, Vec second, Vec c0, Vec c1, Vec c2, Vec c3, std::int32_t* out) {
        const Vec sum = add64(add64(add64(mul(first, c0), mul(high(first), c1)),
                                    add64(mul(second, c2), mul(high(second), c3))),
                              rounding);
        store(sum, out);
    };
    for (; j + lanes <= count; j += lanes) {
        const Vec l_first = load(lo + 2 * j - 1), l_second = load(lo + 2 * j + 1);
        const Vec h_first = load(hi + 2 * j - 1), h_second = load(hi + 2 * j + 1);
        band(l_first, l_second, t_lo0, t_lo1, t_lo2, t_lo3, a + j);
        band(l_first, l_second, t_hi0, t_hi1, t_hi2, t_hi3, v + j);
        band(h_first, h_second, t_lo0, t_lo1, t_lo2, t_lo3, h + j);
        band(h_first, h_second, t_hi0, t_hi1, t_hi2, t_hi3, d + j);
    }
#endif
    for (; j < count; ++j) {
        const std::int32_t* l = lo + 2 * j - 1;
        const std::int32_t* e = hi + 2 * j - 1;
        const std::int64_t l0 = l[0], l1 = l[1], l2 = l[2], l3 = l[3];
        const std::int64_t e0 = e[0], e1 = e[1], e2 = e[2], e3 = e[3];
        a[j] = std::int32_t((lo0 * l0 + lo1 * l1 + lo2 * l2 + lo3 * l3 + add) >> shift);
        v[j] = std::int32_t((hi0 * l0 + hi1 * l1 + hi2 * l2 + hi3 * l3 + add) >> shift);
        h[j] = std::int32_t((lo0 * e0 + lo1 * e1 + lo2 * e2 + lo3 * e3 + add) >> shift);
        d[j] = std::int32_t((hi0 * e0 + hi1 * e1 + hi2 * e2 + hi3 * e3 + add) >> shift);
    }
}
