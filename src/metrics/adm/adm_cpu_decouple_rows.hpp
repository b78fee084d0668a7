// Decoupling row kernels (spec §6): restored values R and additive impairment A = T - R for the
// three detail bands, from the reference (o) and distorted (t) coefficients.
//
// INCLUDED ONCE PER INSTRUCTION SET, inside a namespace, through adm_cpu_variant.hpp: deliberately
// no include guard.

// C = f32(cos(pi/180)^2) (§6.1; a test checks it against the formula).
inline constexpr double cos_squared_one_degree = double(0x1.ffd814p-1f);

// §6.1: the (h, v) vectors of ref and dis are within 1 degree of each other. Each int64 goes
// through float first; everything after that is double.
// Both comparisons are always evaluated (& rather than &&), which lets the loops vectorise.
inline bool within_one_degree(float dp, float oo, float tt) {
    const double d = double(dp) / 4096.0;
    const double o = double(oo) / 4096.0;
    const double t = double(tt) / 4096.0;
    return (d >= 0) & (d * d >= (cos_squared_one_degree * o) * t);
}

// §6.3: the gain limit applied to a restored value r of reference o and distorted t.
inline double limited_gain(std::int64_t r, std::int64_t o, std::int64_t t, double gain_limit) {
    const double scaled = double(r) * gain_limit;
    return o > 0 ? std::min(scaled, double(t)) : std::max(scaled, double(t));
}

// Scale 0, one band: k, R and A of §6.2 and §6.3 in int32. The int64 product div * t of §6.2
// is split as div = hi * 2^15 + lo (lo in [0, 2^15)), so (div * t + 16384) >> 15 is exactly
// hi * t + ((lo * t + 16384) >> 15), two products that fit int32. o = 0 needs no special case
// here: its table entry 0 gives k = 0 instead of 32768, but r = (k * 0 + 16384) >> 15 = 0
// either way and the gain limit skips o = 0. With an integral gain limit the double product
// and comparison of §6.3 are exact integers, so they are done in int32 too.
template <bool integral_gain>
void decouple0_band(const std::int16_t* o, const std::int16_t* t, int begin, int end,
                    double gain_limit, const std::uint8_t* angle, std::int16_t* r,
                    std::int16_t* a) {
    const int gain = int(gain_limit);
    for (int j = begin; j < end; ++j) {
        const int oj = o[j], tj = t[j];
        const int div = div_table[div_table_centre + oj];
        const int k =
            std::min(std::max((div >> 15) * tj + (((div & 32767) * tj + 16384) >> 15), 0), 32768);
        int rj = (k * oj + 16384) >> 15;
        const bool limit = angle[j] && k > 0 && oj != 0;
        if constexpr (integral_gain) {
            const int scaled = rj * gain;
            const int limited = oj > 0 ? std::min(scaled, tj) : std::max(scaled, tj);
            rj = limit ? limited : rj;
        } else if (limit) {
            rj = int(limited_gain(rj, oj, tj, gain_limit));
        }
        r[j] = std::int16_t(rj);
        a[j] = std::int16_t(tj - rj);
    }
}

#if VQ_SIMD_BITS == 512
// 2^30 / n for doubles n holding nonzero integers in [-32768, 32768], truncated towards zero it
// is div_table's entry for n (spec §13.2), evaluated: loaded one by one (scales 1-3 gathered
// them), the table's entries took a fifth of scale 0's decoupling time. rcp14's estimate
// (relative error below 2^-14) refined by two Newton steps is within 2^-50 of 1 / n, so the
// product is within 2^-20 of 2^30 / n, which, unless n is a power of two, is at least 1 / 32768
// from any integer; for a power of two the second step rounds to 1 / n exactly. A test checks
// every n against the table.
inline __m512d reciprocals_times_2_to_30(__m512d n) {
    const __m512d one = _mm512_set1_pd(1.0);
    __m512d y = _mm512_rcp14_pd(n);
    for (int step = 0; step < 2; ++step) y = _mm512_fmadd_pd(y, _mm512_fnmadd_pd(n, y, one), y);
    return _mm512_mul_pd(y, _mm512_set1_pd(1073741824.0));
}

// Scale 0 with an integral gain limit, 16 columns at a time from `begin`, the angle test kept in a
// mask rather than in memory; returns the first column left for the scalar loops.
//
// The angle test's sums come from 16-bit multiply-adds of the (h, v) pairs: exact in int32 except
// one value, 2^31 (all four coefficients -32768), which wraps. As an unsigned int32 it is right
// for the two sums of squares; the dot product cannot reach -2^31 (its least value is
// 2 * -32768 * 32767), so a wrapped INT32_MIN there stands for +2^31. Both convert to float with
// the one rounding of the scalar path, and the comparison is the same double arithmetic (the
// division by 4096 is an exact scaling, done as a multiplication).
int decouple0_vector(const std::int16_t* const* o, const std::int16_t* const* t, int begin, int end,
                     int gain, std::int16_t* const* r, std::int16_t* const* a) {
    const __m512i pairs =
        _mm512_set_epi16(31, 15, 30, 14, 29, 13, 28, 12, 27, 11, 26, 10, 25, 9, 24, 8, 23, 7, 22, 6,
                         21, 5, 20, 4, 19, 3, 18, 2, 17, 1, 16, 0);
    auto load16 = [](const std::int16_t* p) {
        return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
    };
    // Columns j .. j + 15 of bands h and v, as (h, v) pairs of 16-bit values in column order.
    auto hv_pairs = [&](const std::int16_t* const* bands, int j) {
        return _mm512_permutexvar_epi16(
            pairs, _mm512_inserti64x4(_mm512_castsi256_si512(load16(bands[0] + j)),
                                      load16(bands[1] + j), 1));
    };
    const __m512i wrapped = _mm512_set1_epi32(std::numeric_limits<std::int32_t>::min());
    const __m512 two_to_31 = _mm512_set1_ps(2147483648.0f);
    const __m512d scale = _mm512_set1_pd(1.0 / 4096.0),
                  cos2 = _mm512_set1_pd(cos_squared_one_degree);
    // §6.1 on eight lanes of float sums.
    auto within = [&](__m256 dp, __m256 oo, __m256 tt) {
        const __m512d d = _mm512_mul_pd(_mm512_cvtps_pd(dp), scale);
        const __m512d od = _mm512_mul_pd(_mm512_cvtps_pd(oo), scale);
        const __m512d td = _mm512_mul_pd(_mm512_cvtps_pd(tt), scale);
        return __mmask8(_mm512_cmp_pd_mask(d, _mm512_setzero_pd(), _CMP_GE_OQ) &
                        _mm512_cmp_pd_mask(_mm512_mul_pd(d, d),
                                           _mm512_mul_pd(_mm512_mul_pd(cos2, od), td), _CMP_GE_OQ));
    };
    const __m512i zero = _mm512_setzero_si512(), full = _mm512_set1_epi32(32768);
    const __m512i half = _mm512_set1_epi32(16384), low15 = _mm512_set1_epi32(32767);
    const __m512i gains = _mm512_set1_epi32(gain);
    // Columns j .. j + 15.
    auto block = [&](int j) {
        const __m512i po = hv_pairs(o, j), pt = hv_pairs(t, j);
        const __m512i dp = _mm512_madd_epi16(po, pt);
        const __m512 dpf = _mm512_mask_mov_ps(_mm512_cvtepi32_ps(dp),
                                              _mm512_cmpeq_epi32_mask(dp, wrapped), two_to_31);
        const __m512 oof = _mm512_cvtepu32_ps(_mm512_madd_epi16(po, po));
        const __m512 ttf = _mm512_cvtepu32_ps(_mm512_madd_epi16(pt, pt));
        auto low = [](__m512 x) { return _mm512_castps512_ps256(x); };
        auto high = [](__m512 x) {
            return _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(x), 1));
        };
        const __mmask16 angle = __mmask16(within(low(dpf), low(oof), low(ttf)) |
                                          (within(high(dpf), high(oof), high(ttf)) << 8));
        for (int b = 0; b < 3; ++b) {
            const __m512i oj = _mm512_cvtepi16_epi32(load16(o[b] + j));
            const __m512i tj = _mm512_cvtepi16_epi32(load16(t[b] + j));
            auto divs = [](__m256i half) {
                return _mm512_cvttpd_epi32(reciprocals_times_2_to_30(_mm512_cvtepi32_pd(half)));
            };
            // o = 0 reads the table's 0.
            const __m512i div = _mm512_maskz_mov_epi32(
                _mm512_test_epi32_mask(oj, oj),
                _mm512_inserti64x4(_mm512_castsi256_si512(divs(_mm512_castsi512_si256(oj))),
                                   divs(_mm512_extracti64x4_epi64(oj, 1)), 1));
            __m512i k = _mm512_add_epi32(
                _mm512_mullo_epi32(_mm512_srai_epi32(div, 15), tj),
                _mm512_srai_epi32(
                    _mm512_add_epi32(_mm512_mullo_epi32(_mm512_and_si512(div, low15), tj), half),
                    15));
            k = _mm512_min_epi32(_mm512_max_epi32(k, zero), full);
            __m512i rj = _mm512_srai_epi32(_mm512_add_epi32(_mm512_mullo_epi32(k, oj), half), 15);
            const __m512i scaled = _mm512_mullo_epi32(rj, gains);
            const __m512i limited =
                _mm512_mask_blend_epi32(_mm512_cmpgt_epi32_mask(oj, zero),
                                        _mm512_max_epi32(scaled, tj), _mm512_min_epi32(scaled, tj));
            const __mmask16 limit =
                _mm512_mask_cmpgt_epi32_mask(angle, k, zero) & _mm512_cmpneq_epi32_mask(oj, zero);
            rj = _mm512_mask_mov_epi32(rj, limit, limited);
            _mm256_storeu_si256(reinterpret_cast<__m256i*>(r[b] + j), _mm512_cvtepi32_epi16(rj));
            _mm256_storeu_si256(reinterpret_cast<__m256i*>(a[b] + j),
                                _mm512_cvtepi32_epi16(_mm512_sub_epi32(tj, rj)));
        }
    };
    int j = begin;
    for (; j + 16 <= end; j += 16) block(j);
    // The last few columns: a block ending at `end` redoes some, with the same results (the
    // outputs are not inputs); the scalar loop took them before, one by one.
    if (j < end && end - begin >= 16) {
        block(end - 16);
        j = end;
    }
    return j;
}
#endif

// Scale 0 (int16 bands), columns [begin, end). `angle` is scratch for one flag per column.
void decouple0(const std::int16_t* const* o, const std::int16_t* const* t, int begin, int end,
               double gain_limit, std::uint8_t* angle, std::int16_t* const* r,
               std::int16_t* const* a) {
    const bool integral_gain = gain_limit == double(int(gain_limit));
#if VQ_SIMD_BITS == 512
    if (integral_gain) begin = decouple0_vector(o, t, begin, end, int(gain_limit), r, a);
#endif
    const std::int16_t *oh = o[0], *ov = o[1], *th = t[0], *tv = t[1];
    for (int j = begin; j < end; ++j) {
        // Products below 2^31 and their sums are exact in double, hence float(double) rounds
        // the exact int64 value once, as the reference's int64 -> float conversion does.
        const double dp = double(oh[j]) * th[j] + double(ov[j]) * tv[j];
        const double oo = double(oh[j]) * oh[j] + double(ov[j]) * ov[j];
        const double tt = double(th[j]) * th[j] + double(tv[j]) * tv[j];
        angle[j] = within_one_degree(float(dp), float(oo), float(tt));
    }
    for (int b = 0; b < 3; ++b) {
        if (integral_gain)
            decouple0_band<true>(o[b], t[b], begin, end, gain_limit, angle, r[b], a[b]);
        else
            decouple0_band<false>(o[b], t[b], begin, end, gain_limit, angle, r[b], a[b]);
    }
}

// Scales 1-3, one band: the divisor is rounded to 15 significant bits first (§6.2). o = 0 needs
// no special case, as at scale 0: the table's entry 0 makes k = 0, and r = 0 either way.
template <bool integral_gain>
void decouple_wide_band(const std::int32_t* o, const std::int32_t* t, int begin, int end,
                        double gain_limit, const std::uint8_t* angle, std::int32_t* r,
                        std::int32_t* a) {
    const std::int64_t gain = std::int64_t(gain_limit);
    int j = begin;
#if VQ_SIMD_BITS == 512
    // The same steps on eight int64 lanes; GCC leaves this loop scalar (per-lane shifts, clz).
    if constexpr (integral_gain) {
        const __m512i zero = _mm512_setzero_si512(), one = _mm512_set1_epi64(1);
        const __m512i full = _mm512_set1_epi64(32768);
        const __m512i gain_lanes = _mm512_set1_epi64(gain);
        // Columns j .. j + 7 (this j shadows the loop's).
        auto block = [&](int j) {
            const __m512i oj =
                _mm512_cvtepi32_epi64(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(o + j)));
            const __m512i tj =
                _mm512_cvtepi32_epi64(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(t + j)));
            const __m512i m = _mm512_abs_epi64(oj);
            // e = max(bit length - 15, 0) = max(49 - lzcnt64(m), 0).
            const __m512i e = _mm512_max_epi64(
                _mm512_sub_epi64(_mm512_set1_epi64(49), _mm512_lzcnt_epi64(m)), zero);
            const __m512i half = _mm512_srli_epi64(_mm512_sllv_epi64(one, e), 1);
            const __m512i rounded = _mm512_srlv_epi64(_mm512_add_epi64(m, half), e);
            // rounded = 0 (o = 0) reads the table's 0.
            const __m512i div =
                _mm512_maskz_cvttpd_epi64(_mm512_test_epi64_mask(rounded, rounded),
                                          reciprocals_times_2_to_30(_mm512_cvtepi64_pd(rounded)));
            __m512i quotient = _mm512_mul_epi32(div, tj);
            const __mmask8 negative = _mm512_cmplt_epi64_mask(oj, zero);
            quotient = _mm512_mask_sub_epi64(quotient, negative, zero, quotient);
            const __m512i shift = _mm512_add_epi64(e, _mm512_set1_epi64(15));
            const __m512i add = _mm512_sllv_epi64(_mm512_set1_epi64(1 << 14), e);
            __m512i k = _mm512_srav_epi64(_mm512_add_epi64(quotient, add), shift);
            k = _mm512_min_epi64(_mm512_max_epi64(k, zero), full);
            __m512i rj = _mm512_srai_epi64(
                _mm512_add_epi64(_mm512_mul_epi32(k, oj), _mm512_set1_epi64(16384)), 15);
            const __m512i scaled = _mm512_mul_epi32(rj, gain_lanes);
            const __m512i limited =
                _mm512_mask_blend_epi64(_mm512_cmpgt_epi64_mask(oj, zero),
                                        _mm512_max_epi64(scaled, tj), _mm512_min_epi64(scaled, tj));
            const __m128i flags = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(angle + j));
            const __mmask8 limit = _mm512_cmpneq_epi64_mask(_mm512_cvtepu8_epi64(flags), zero) &
                                   _mm512_cmpgt_epi64_mask(k, zero) &
                                   _mm512_cmpneq_epi64_mask(oj, zero);
            rj = _mm512_mask_blend_epi64(limit, rj, limited);
            _mm256_storeu_si256(reinterpret_cast<__m256i*>(r + j), _mm512_cvtepi64_epi32(rj));
            _mm256_storeu_si256(reinterpret_cast<__m256i*>(a + j),
                                _mm512_cvtepi64_epi32(_mm512_sub_epi64(tj, rj)));
        };
        for (; j + 8 <= end; j += 8) block(j);
        // The last few columns: as in decouple0_vector().
        if (j < end && end - begin >= 8) {
            block(end - 8);
            j = end;
        }
    }
#endif
    for (; j < end; ++j) {
        const std::int64_t oj = o[j], tj = t[j];
        const std::uint32_t m = std::uint32_t(oj < 0 ? -oj : oj);
        const int e = m < 32768 ? 0 : std::bit_width(m) - 15;
        const std::uint32_t rounded = (m + ((1u << e) >> 1)) >> e;
        const std::int64_t quotient = std::int64_t(div_table[div_table_centre + rounded]) * tj;
        std::int64_t k =
            ((oj < 0 ? -quotient : quotient) + (std::int64_t(1) << (14 + e))) >> (15 + e);
        k = std::min<std::int64_t>(std::max<std::int64_t>(k, 0), 32768);
        std::int64_t rj = std::int32_t((k * oj + 16384) >> 15);
        const bool limit = angle[j] && k > 0 && oj != 0;
        if constexpr (integral_gain) {
            // |r| < 2^31 and gain <= 100: the double product of §6.3 is an exact integer here.
            const std::int64_t scaled = rj * gain;
            const std::int64_t limited = oj > 0 ? std::min(scaled, tj) : std::max(scaled, tj);
            rj = limit ? limited : rj;
        } else if (limit) {
            rj = std::int32_t(limited_gain(rj, oj, tj, gain_limit));
        }
        r[j] = std::int32_t(rj);
        a[j] = std::int32_t(tj - rj);
    }
}

// Scales 1-3 (int32 bands), columns [begin, end).
void decouple_wide(const std::int32_t* const* o, const std::int32_t* const* t, int begin, int end,
                   double gain_limit, std::uint8_t* angle, std::int32_t* const* r,
                   std::int32_t* const* a) {
    const std::int32_t *oh = o[0], *ov = o[1], *th = t[0], *tv = t[1];
    for (int j = begin; j < end; ++j) {
        const std::int64_t dp = std::int64_t(oh[j]) * th[j] + std::int64_t(ov[j]) * tv[j];
        const std::int64_t oo = std::int64_t(oh[j]) * oh[j] + std::int64_t(ov[j]) * ov[j];
        const std::int64_t tt = std::int64_t(th[j]) * th[j] + std::int64_t(tv[j]) * tv[j];
        angle[j] = within_one_degree(float(dp), float(oo), float(tt));
    }
    const bool integral_gain = gain_limit == double(int(gain_limit));
    for (int b = 0; b < 3; ++b) {
        if (integral_gain)
            decouple_wide_band<true>(o[b], t[b], begin, end, gain_limit, angle, r[b], a[b]);
        else
            decouple_wide_band<false>(o[b], t[b], begin, end, gain_limit, angle, r[b], a[b]);
    }
}
