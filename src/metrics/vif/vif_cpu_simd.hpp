// The vector variant of VIF's statistics and decimation, written once with GCC vector
// extensions (lane-wise integer and IEEE double arithmetic, -ffp-contract=off keeps it unfused)
// plus the instructions they lack or GCC 12 lowers poorly: widening loads, the 32x32->64
// multiply, the 16-bit multiply-add and truncation.
//
// INCLUDED ONCE PER INSTRUCTION SET, inside a namespace, through vif_cpu_variant.hpp: deliberately
// no include guard. VQ_SIMD_BITS selects the width: 256 (AVX2) or 512 (AVX-512). The includer
// provides <immintrin.h>, <algorithm>, <array>, <cmath>, <cstdint>, <cstring>, <optional>,
// <utility>, <vector> and vif_cpu_stages.hpp.
//
// How the integer widths stay exact in 32-bit lanes (spec §2.3-§2.4):
// - 8-bit vertical sums are below 2^32, so lane-wise uint32 arithmetic is exact even where an
//   intermediate product wraps. Wider inputs' squares and products (below 2^32) are filtered as
//   their 16-bit halves, like the horizontal pass below.
// - The horizontal pass reads each rounded square sum q (< 2^32) as q = 65536*hi + lo and
//   filters hi and lo separately: (sum F*q + 2^15) >> 16 = S_hi + ((S_lo + 2^15) >> 16). Every
//   stream it reads is 16-bit, stored minus 32768 for the signed multiply-add, and every
//   filtered sum is below 2^32, so 32-bit lanes wrapping on the way still end exact.
// - The per-pixel logarithm branch runs in double: every integer it handles is below 2^53, and
//   L(v) reads v's exponent and top 16 bits from the double's bits (AVX2) or from v cut to its
//   top 16 bits and converted to float (AVX-512, see Log2Source).

#include "metrics/toolkit/simd_pairs.hpp"

using U32 = std::uint32_t __attribute__((vector_size(VQ_SIMD_BITS / 8)));
using U64 = std::uint64_t __attribute__((vector_size(VQ_SIMD_BITS / 8)));
using I64 = std::int64_t __attribute__((vector_size(VQ_SIMD_BITS / 8)));
using F64 = double __attribute__((vector_size(VQ_SIMD_BITS / 8)));
using HalfI32 = std::int32_t __attribute__((vector_size(VQ_SIMD_BITS / 16)));
// Unsigned 16-bit lanes, for products that may wrap (signed overflow is undefined).
using U16 = std::uint16_t __attribute__((vector_size(VQ_SIMD_BITS / 8)));

#if VQ_SIMD_BITS == 256
#define VQ_VIF_LOW_HALF 0, 1, 2, 3
#define VQ_VIF_HIGH_HALF 4, 5, 6, 7
#else
#define VQ_VIF_LOW_HALF 0, 1, 2, 3, 4, 5, 6, 7
#define VQ_VIF_HIGH_HALF 8, 9, 10, 11, 12, 13, 14, 15
#endif

// Widening loads and the narrowing store are intrinsics: GCC 12 lowers the equivalent
// __builtin_convertvector calls lane by lane.
VQ_KERNEL_INLINE U32 load_widened(const std::uint8_t* p) {
#if VQ_SIMD_BITS == 256
    return (U32)_mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p)));
#else
    return (U32)_mm512_cvtepu8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
#endif
}

VQ_KERNEL_INLINE U32 load_widened(const std::uint16_t* p) {
#if VQ_SIMD_BITS == 256
    return (U32)_mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
#else
    return (U32)_mm512_cvtepu16_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
#endif
}

// Samples p[0], p[2], ..., p[2 * (lanes - 1)]: the low halves of 32-bit words, little-endian.
VQ_KERNEL_INLINE U32 load_even_widened(const std::uint16_t* p) {
    U32 words;
    std::memcpy(&words, p, sizeof words);
    return words & 0xffff;
}

// Lanes below 2^16.
VQ_KERNEL_INLINE void store_narrowed(std::uint16_t* p, U32 v) {
#if VQ_SIMD_BITS == 256
    const __m256i packed =
        _mm256_permute4x64_epi64(_mm256_packus_epi32((__m256i)v, (__m256i)v), 0x08);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(p), _mm256_castsi256_si128(packed));
#else
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), _mm512_cvtepi32_epi16((__m512i)v));
#endif
}

// Inverse of the interleaves' column order for lanes below 2^16: 2 * lanes 16-bit values.
VQ_KERNEL_INLINE I16 pack_columns(U32 first, U32 last) {
#if VQ_SIMD_BITS == 256
    return (I16)_mm256_packus_epi32((__m256i)first, (__m256i)last);
#else
    return (I16)_mm512_packus_epi32((__m512i)first, (__m512i)last);
#endif
}

// The full 64-bit products of the low 32 bits of each 64-bit lane.
VQ_KERNEL_INLINE U64 multiply_low_halves(U64 a, U64 b) {
#if VQ_SIMD_BITS == 256
    return (U64)_mm256_mul_epu32((__m256i)a, (__m256i)b);
#else
    return (U64)_mm512_mul_epu32((__m512i)a, (__m512i)b);
#endif
}

// Per 32-bit lane, sum += low16(samples) * low16(pairs) + high16(samples) * high16(pairs), the
// halves read as int16 and the sum wrapping: one instruction with VNNI's dot product.
VQ_KERNEL_INLINE void accumulate_pairs(I32& sum, I32 samples, I32 pairs) {
#if VQ_SIMD_VNNI
    sum = (I32)_mm512_dpwssd_epi32((__m512i)sum, (__m512i)samples, (__m512i)pairs);
#else
    sum += multiply_add((I16)samples, (I16)pairs);
#endif
}

// A uint32 vector as two 64-bit vectors for multiply_low_halves(): its even lanes (in the low
// halves; the high halves hold the odd lanes, which that multiply ignores) and its odd lanes.
struct EvenOdd {
    U64 even, odd;
};

VQ_KERNEL_INLINE EvenOdd split_even_odd(U32 v) { return {(U64)v, (U64)v >> 32}; }

// Inverse of split_even_odd for lanes below 2^32.
VQ_KERNEL_INLINE U32 join_even_odd(U64 even, U64 odd) { return (U32)(even | (odd << 32)); }

// (a * b + 2^31) >> 32 per uint32 lane, from the exact 64-bit product (spec §2.4 mu products).
VQ_KERNEL_INLINE U32 rounded_high_product(U32 a, U32 b) {
    const EvenOdd x = split_even_odd(a), y = split_even_odd(b);
    const std::uint64_t half = std::uint64_t(1) << 31;
    return join_even_odd((multiply_low_halves(x.even, y.even) + half) >> 32,
                         (multiply_low_halves(x.odd, y.odd) + half) >> 32);
}

VQ_KERNEL_INLINE F64 truncate(F64 x) {
#if VQ_SIMD_BITS == 256
    return (F64)_mm256_round_pd((__m256d)x, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
#else
    return (F64)_mm512_roundscale_pd((__m512d)x, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
#endif
}

// Sign-extending conversions of half a vector of int32 lanes. Intrinsics again: GCC 12 splits
// the __builtin_convertvector forms into 128-bit pieces.
VQ_KERNEL_INLINE F64 to_double(HalfI32 v) {
#if VQ_SIMD_BITS == 256
    return (F64)_mm256_cvtepi32_pd((__m128i)v);
#else
    return (F64)_mm512_cvtepi32_pd((__m256i)v);
#endif
}

VQ_KERNEL_INLINE I64 to_int64(HalfI32 v) {
#if VQ_SIMD_BITS == 256
    return (I64)_mm256_cvtepi32_epi64((__m128i)v);
#else
    return (I64)_mm512_cvtepi32_epi64((__m256i)v);
#endif
}

VQ_KERNEL_INLINE bool any(I32 mask) {
#if VQ_SIMD_BITS == 256
    return _mm256_movemask_ps((__m256)mask) != 0;
#else
    return _mm512_movepi32_mask((__m512i)mask) != 0;
#endif
}

VQ_KERNEL_INLINE HalfI32 low_half(I32 v) { return __builtin_shufflevector(v, v, VQ_VIF_LOW_HALF); }

VQ_KERNEL_INLINE HalfI32 high_half(I32 v) {
    return __builtin_shufflevector(v, v, VQ_VIF_HIGH_HALF);
}

#if VQ_SIMD_BITS == 512
// L(v) of spec §2.5 evaluated rather than looked up: per-lane loads of the table (64 KiB, more
// than the L1 cache) took a quarter of VIF's time on grainy content.
//
// L(v) = T[i] + 2048 k for i = v >> k, the leading 16 bits of v, and T[i] = round_half_away(2048
// fl32(log2 i)), fl32 the nearest float. Kept to 16 bits, v converts to a float exactly, whose
// exponent is e = k + 15 and whose mantissa, exponent cleared, is m = i / 2^15 in [1, 2); so
// L(v) = 2048 e + t with t = T[i] - 2048 * 15 = round_half_away(2048 fl32(log2 i) - 30720).
// The top five bits of m pick one of 32 intervals of [1, 2) and a ratio r near 1 / (interval
// middle) with 9 fraction bits; u = m r - 1 (|u| < 0.016) and 2048 log2 m = -2048 log2 r +
// 2048 log2(1 + u), the last by its Taylor series to u^3: in floats, within 2^-13 of 2048 log2 m
// for every i (measured over all of them). 2048 fl32(log2 i) is 2048 log2 i rounded to a
// multiple of 2^-9 (a float step in [15, 16) is 2^-20), so it reaches j + 1/2 exactly where
// 2048 log2 i >= j + 1/2 - 2^-10 (no i but a power of two has its logarithm on a tie). Hence
// t = the integer nearest w = z + 2^-10, z the evaluated 2048 log2 m (the 2^-10 is folded into
// the intervals' offsets), wherever w is farther than `ambiguity` (covering z's error and w's
// rounding) from a half; the rest, 16 of the 32768 i, read the table.
struct Log2Source {
    __m512 offset[2];  // -2048 log2 r + 2^-10 of intervals 0-15 and 16-31
    __m512 ratio[2];   // r
    const std::uint16_t* table;
    static constexpr float ambiguity = 1.0f / 4096;

    static Log2Source make() {
        alignas(64) float offset[32], ratio[32];
        for (int interval = 0; interval < 32; ++interval) {
            const double middle = 1.0 + (interval + 0.5) / 32.0;
            ratio[interval] = float(std::round(512.0 / middle) / 512.0);
            offset[interval] = float(-2048.0 * std::log2(double(ratio[interval])) + 1.0 / 1024);
        }
        return {{_mm512_load_ps(offset), _mm512_load_ps(offset + 16)},
                {_mm512_load_ps(ratio), _mm512_load_ps(ratio + 16)},
                log2_table().data()};
    }
};

VQ_KERNEL_INLINE Log2Source make_log2_source() { return Log2Source::make(); }

// The logarithms below are L(v) plus the float exponent's bias times 2048: the callers'
// differences cancel it, and their one constant takes it away.
inline constexpr std::int32_t log2_bias = 127 * 2048;

// The ambiguous lanes of logs(), from the table.
[[gnu::noinline]] I32 logs_from_table(const Log2Source& source, __m512i bits, I32 values,
                                      std::uint32_t lanes_to_fix) {
    std::int32_t fixed[lanes], float_bits[lanes];
    std::memcpy(fixed, &values, sizeof fixed);
    std::memcpy(float_bits, &bits, sizeof float_bits);
    for (; lanes_to_fix != 0; lanes_to_fix &= lanes_to_fix - 1) {
        const int l = __builtin_ctz(lanes_to_fix);
        const int biased_exponent = float_bits[l] >> 23;
        const int index = ((float_bits[l] >> 8) & 0x7fff) + 32768;
        fixed[l] = source.table[index - log2_table_first] + 2048 * (biased_exponent - 15);
    }
    std::memcpy(&values, fixed, sizeof fixed);
    return values;
}

// L(v) + log2_bias for floats whose leading 16 significant bits are those of integers v >= 2^17
// (the bits below are ignored); lanes outside `mask` are left undefined.
VQ_KERNEL_INLINE I32 logs_of_leading_bits(const Log2Source& source, __m512 x, I32 mask) {
    const __m512i bits = (__m512i)x;
    // m: the 15 mantissa bits below the leading one, under a zero exponent ((A & B) | C).
    const __m512 m = (__m512)_mm512_ternarylogic_epi32(bits, _mm512_set1_epi32(0x007fff00),
                                                       _mm512_set1_epi32(0x3f800000), 0xea);
    const __m512i interval = _mm512_srli_epi32(bits, 18);  // the permutes read bits 0-4
    const __m512 r = _mm512_permutex2var_ps(source.ratio[0], interval, source.ratio[1]);
    const __m512 log2_r = _mm512_permutex2var_ps(source.offset[0], interval, source.offset[1]);
    const __m512 u = _mm512_fmadd_ps(m, r, _mm512_set1_ps(-1.0f));
    constexpr double scale = 2048 * 1.4426950408889634074;  // 2048 / ln 2
    __m512 series = _mm512_set1_ps(float(scale / 3));
    series = _mm512_fmadd_ps(series, u, _mm512_set1_ps(float(-scale / 2)));
    series = _mm512_fmadd_ps(series, u, _mm512_set1_ps(float(scale)));
    const __m512 w = _mm512_fmadd_ps(series, u, log2_r);
    constexpr int nearest = _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC;
    const __m512i t = _mm512_cvt_roundps_epi32(w, nearest);
    const __m512 from_nearest = _mm512_reduce_ps(w, nearest);  // w - t, exactly
    const __mmask16 ambiguous =
        _mm512_mask_cmp_ps_mask(_mm512_movepi32_mask((__m512i)mask), _mm512_abs_ps(from_nearest),
                                _mm512_set1_ps(0.5f - Log2Source::ambiguity), _CMP_GT_OQ);
    const I32 values = (I32)_mm512_add_epi32(_mm512_slli_epi32(_mm512_srli_epi32(bits, 23), 11), t);
    if (ambiguous != 0) [[unlikely]]
        return logs_from_table(source, bits, values, ambiguous);
    return values;
}

// Truncated towards zero, as rounding could carry into the leading bits.
constexpr int truncating = _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC;

// L(v) + log2_bias for doubles holding integers >= 2^17 (low's lanes, then high's); lanes
// outside `mask` are left undefined.
VQ_KERNEL_INLINE I32 logs(const Log2Source& source, F64 low, F64 high, I32 mask) {
    const __m512 x =
        _mm512_insertf32x8(_mm512_castps256_ps512(_mm512_cvt_roundpd_ps((__m512d)low, truncating)),
                           _mm512_cvt_roundpd_ps((__m512d)high, truncating), 1);
    return logs_of_leading_bits(source, x, mask);
}

// L(sigma1_sq + noise_variance) + log2_bias for sigma1_sq in [0, 2^31): the sum fits a uint32.
VQ_KERNEL_INLINE I32 logs_above_noise(const Log2Source& source, I32 sigma1_sq, I32 mask) {
    const U32 v = (U32)sigma1_sq + std::uint32_t(noise_variance);
    return logs_of_leading_bits(source, _mm512_cvt_roundepu32_ps((__m512i)v, truncating), mask);
}
#else
// L(v) of spec §2.5 from the table, loaded entry by entry: that measured faster than the gathers
// on the CPUs tried (the AVX-512 gather of eight entries cost VIF a quarter of its time on an AMD
// Zen 5).
using Log2Source = const std::uint16_t*;

VQ_KERNEL_INLINE Log2Source make_log2_source() { return log2_table().data(); }

inline constexpr std::int32_t log2_bias = 0;  // what logs() adds to L(v)

// L(v) for doubles holding integers >= 2^17 (low's lanes, then high's); lanes outside `mask`
// are left undefined (they read some entry of the table).
VQ_KERNEL_INLINE I32 logs(const Log2Source& table, F64 low, F64 high, I32 /*mask*/) {
    std::int32_t values[lanes];
    int l = 0;
    for (const F64 half : {low, high}) {
        const I64 bits = (I64)half;
        const I64 exponent = (bits >> 52) - 1023;       // floor(log2 v)
        const I64 index = ((bits >> 37) & 0x7fff) + 1;  // (v >> (exponent - 15)) - 32767
        const I64 dropped = 2048 * (exponent - 15);
        for (int h = 0; h < lanes / 2; ++h, ++l)
            values[l] = std::int32_t(table[index[h]] + dropped[h]);
    }
    I32 result;
    std::memcpy(&result, values, sizeof result);
    return result;
}

// L(sigma1_sq + noise_variance) for sigma1_sq in [0, 2^31).
VQ_KERNEL_INLINE I32 logs_above_noise(const Log2Source& table, I32 sigma1_sq, I32 mask) {
    const double noise = noise_variance;
    return logs(table, to_double(low_half(sigma1_sq)) + noise,
                to_double(high_half(sigma1_sq)) + noise, mask);
}
#endif

// The test hook of Kernels::fixed_log2: L(v) one value at a time, through logs(), and through
// logs_above_noise() too where v - noise_variance fits an int32: where they disagree, -1.
void fixed_log2_of(const double* values, std::int64_t* out, std::size_t count) {
    const Log2Source source = make_log2_source();
    I32 first_lane{};
    first_lane[0] = -1;
    for (std::size_t i = 0; i < count; ++i) {
        const F64 v = F64{} + values[i];
        out[i] = logs(source, v, v, first_lane)[0] - log2_bias;
        const double above_noise = values[i] - noise_variance;
        if (above_noise < 2147483648.0 &&
            logs_above_noise(source, I32{} + std::int32_t(above_noise), first_lane)[0] -
                    log2_bias !=
                out[i])
            out[i] = -1;
    }
}

// Per-lane partial sums of one scale's accumulators over one row. Per pixel, the log terms are
// below 2^17 and den_non_log's 1, so a row of up to 16384 pixels keeps the 32-bit lanes exact.
struct LaneSums {
    I32 num_log{}, den_log{}, den_non_log{};
    I64 num_non_log{};
};

// The numerator's two logarithms of spec §2.6 for `lanes` pixels, waiting to be taken: the
// arguments n1 = sv + noise and n2 = g^2 sigma1_sq + n1 (low lanes, then high), and the lanes
// that have a numerator term.
struct PendingLogs {
    F64 n1[2], n2[2];
    I32 has_num;
};

// Spec §2.6 for `lanes` pixels, lane for lane the plain accumulate_pixel(), but for the
// numerator's logarithms, which are left in `pending` (its has_num all zero where no lane has
// them) for take_logs(): each half is a long chain of dependent steps (the division, then the
// logarithm), and in one loop body they left the core too few independent instructions to
// overlap one pixel block's chain with the next.
VQ_KERNEL_INLINE void accumulate_all_but_logs(I32 sigma1_sq_i, I32 sigma2_sq_i, I32 sigma12_i,
                                              double gain_limit, const Log2Source& log2,
                                              LaneSums& sums, PendingLogs& pending) {
    const I32 zero{};
    pending.has_num = zero;
    const I32 is_log = sigma1_sq_i >= noise_variance;  // all ones or zero per lane
    const I32 non_log_sigma2_sq = is_log ? zero : sigma2_sq_i;
    sums.num_non_log +=
        to_int64(low_half(non_log_sigma2_sq)) + to_int64(high_half(non_log_sigma2_sq));
    sums.den_non_log += is_log + 1;
    // Flat areas skip the logarithms and the division, the costly part.
    if (!any(is_log)) return;
    sums.den_log +=
        is_log & (logs_above_noise(log2, sigma1_sq_i, is_log) - (2048 * 17 + log2_bias));
    const I32 has_num = is_log & (sigma12_i > 0) & (sigma2_sq_i > 0);
    if (!any(has_num)) return;
    const double noise = noise_variance;
    const F64 sigma1_sq[2] = {to_double(low_half(sigma1_sq_i)), to_double(high_half(sigma1_sq_i))};
    const HalfI32 sigma2_sq_halves[2] = {low_half(sigma2_sq_i), high_half(sigma2_sq_i)};
    const HalfI32 sigma12_halves[2] = {low_half(sigma12_i), high_half(sigma12_i)};
    for (int h = 0; h < 2; ++h) {
        const F64 sigma2_sq = to_double(sigma2_sq_halves[h]);
        const F64 sigma12 = to_double(sigma12_halves[h]);
        constexpr double epsilon = 65536 * 1.0e-10;
        F64 gain = sigma12 / (sigma1_sq[h] + epsilon);
        const F64 residual = sigma2_sq - gain * sigma12;
        const F64 no_residual{};
        const F64 sv = residual > 0.0 ? truncate(residual) : no_residual;
        gain = gain_limit < gain ? F64{} + gain_limit : gain;
        pending.n1[h] = sv + noise;
        pending.n2[h] = truncate((gain * gain) * sigma1_sq[h]) + pending.n1[h];
    }
    pending.has_num = has_num;
}

VQ_KERNEL_INLINE void take_logs(const PendingLogs& pending, const Log2Source& log2,
                                LaneSums& sums) {
    if (!any(pending.has_num)) return;
    sums.num_log += pending.has_num & (logs(log2, pending.n2[0], pending.n2[1], pending.has_num) -
                                       logs(log2, pending.n1[0], pending.n1[1], pending.has_num));
}

// One row of vertical results in the layout the horizontal pass reads: eight 16-bit streams,
// each with `radius` mirrored entries on either side and room for vector reads past the end.
struct StreamRow {
    enum Stream { m1, m2, xx_high, xx_low, yy_high, yy_low, xy_high, xy_low, count };

    StreamRow(int width, int radius)
        : width(width),
          radius(radius),
          stride(std::size_t(width + 2 * radius + 4 * lanes)),
          values(stride * count) {}

    std::uint16_t* at(int stream, int column) {
        return values.data() + stream * stride + std::size_t(column + radius);
    }

    // Values are stored minus 32768, as int16 bits: the signed multiply-add reads them.
    void store(int column, const VerticalMoments& v) {
        const std::uint32_t parts[count] = {v.m1,           v.m2,          v.qxx >> 16,
                                            v.qxx & 0xffff, v.qyy >> 16,   v.qyy & 0xffff,
                                            v.qxy >> 16,    v.qxy & 0xffff};
        for (int s = 0; s < count; ++s) *at(s, column) = std::uint16_t(parts[s] ^ 0x8000);
    }

    void store(int column, U32 m1_, U32 m2_, U32 qxx, U32 qyy, U32 qxy) {
        store_narrowed(at(m1, column), m1_ ^ 0x8000);
        store_narrowed(at(m2, column), m2_ ^ 0x8000);
        store_narrowed(at(xx_high, column), (qxx >> 16) ^ 0x8000);
        store_narrowed(at(xx_low, column), (qxx & 0xffff) ^ 0x8000);
        store_narrowed(at(yy_high, column), (qyy >> 16) ^ 0x8000);
        store_narrowed(at(yy_low, column), (qyy & 0xffff) ^ 0x8000);
        store_narrowed(at(xy_high, column), (qxy >> 16) ^ 0x8000);
        store_narrowed(at(xy_low, column), (qxy & 0xffff) ^ 0x8000);
    }

    // 2 * lanes columns from `column`, each value given as the interleaves' halves.
    void store_pairs(int column, const U32 (&m1_)[2], const U32 (&m2_)[2], const U32 (&qxx)[2],
                     const U32 (&qyy)[2], const U32 (&qxy)[2]) {
        auto put = [&](int stream, U32 first, U32 last) {
            const I16 packed = pack_columns(first, last) ^ std::int16_t(-32768);
            std::memcpy(at(stream, column), &packed, sizeof packed);
        };
        put(m1, m1_[0], m1_[1]);
        put(m2, m2_[0], m2_[1]);
        put(xx_high, qxx[0] >> 16, qxx[1] >> 16);
        put(xx_low, qxx[0] & 0xffff, qxx[1] & 0xffff);
        put(yy_high, qyy[0] >> 16, qyy[1] >> 16);
        put(yy_low, qyy[0] & 0xffff, qyy[1] & 0xffff);
        put(xy_high, qxy[0] >> 16, qxy[1] >> 16);
        put(xy_low, qxy[0] & 0xffff, qxy[1] & 0xffff);
    }

    void mirror_edges() {
        for (int s = 0; s < count; ++s) {
            std::uint16_t* column0 = at(s, 0);
            for (int t = 1; t <= radius; ++t) {
                column0[-t] = column0[mirror(-t, width)];
                column0[width - 1 + t] = column0[mirror(width - 1 + t, width)];
            }
        }
    }

    int width;
    int radius;
    std::size_t stride;
    std::vector<std::uint16_t> values;
};

// A kernel's taps in pairs for the signed 16x16->32 multiply-add, which sums two taps per lane.
// In the horizontal filter one load of 2*lanes samples feeds both the even outputs (taps 2t,
// 2t+1) and the odd ones (taps 2t-1, 2t), and the wider samples' vertical pass takes the even
// pairs for rows 2t, 2t+1; the 8-bit vertical pass has pairs of its own.
// Coefficients must be below 32768: scale 3's centre tap (43728) is not, so that scale filters
// with the halved kernel (every tap of it is even) and doubles the sum.
struct TapPairs {
    template <int Radius>
    static TapPairs of(const std::uint16_t* f) {
        const int halving = f[Radius] >= 32768 ? 1 : 0;
        auto tap = [&](int k) {
            return k < 0 || k > 2 * Radius ? 0u : std::uint32_t(f[k] >> halving);
        };
        TapPairs pairs{};
        pairs.halving = halving;
        for (int t = 0; t <= Radius; ++t) {
            pairs.even[t] = I32{} + std::int32_t(tap(2 * t) | tap(2 * t + 1) << 16);
            pairs.odd[t] = I32{} + std::int32_t(tap(2 * t - 1) | tap(2 * t) << 16);
            if (2 * t < Radius) pairs.folded_taps += tap(2 * t) + tap(2 * t + 1);
        }
        for (int t = 0; 2 * t <= Radius; ++t) {
            const std::uint32_t first = tap(2 * t), second = 2 * t < Radius ? tap(2 * t + 1) : 0;
            pairs.vertical[0][t] = I32{} + std::int32_t(first | second << 16);
            pairs.vertical[1][t] = I32{} + std::int32_t(second | first << 16);
        }
        return pairs;
    }

    I32 even[max_taps / 2 + 1];
    I32 odd[max_taps / 2 + 1];
    // The 8-bit vertical pass's pairs (taps 2t and 2t+1, the latter 0 past the centre), for row
    // pairs in ascending order ([0]) and in descending order ([1]): see RowPairs.
    I32 vertical[2][max_taps / 4 + 1];
    int halving;
    // The (halved) taps of the 8-bit vertical pass's folded pairs, vertical[.][t] for 2t < Radius.
    std::uint32_t folded_taps = 0;
};

// Pairs of consecutive 8-bit source rows as the vertical pass's multiply-adds read them: minus
// 128, widened to 16 bits and interleaved (interleave_first/last), so that each 32-bit lane holds
// one column of both rows. Output row i reads the pairs v = i - Radius + 2t (rows v, v + 1) and
// their mirror images about row i; a ring keeps the 2 * Radius pairs it reads, and each pair is
// made once rather than once for each of the Radius + 1 output rows that read it (the widening
// loads and interleaves were a third of the pass's instructions). Row i's vertical blocks make
// the pair row i + 1 adds, block by block, in the slot of the pair it no longer needs: in a loop
// of its own that making waited on the new source row's loads.
//
// Pair v holds its rows in ascending order where v is even and in descending order where it is
// odd. The pairs a row reads on one side of it have one parity and their mirror images the other,
// so both sides hold their rows in mirrored order, as folding needs (see vertical_block()): rows
// (2t, 2t+1) on one side and (2 Radius - 2t, 2 Radius - 2t - 1) on the other, with the taps in the
// order TapPairs::vertical[order] gives.
template <int Radius>
class RowPairs {
public:
    static constexpr int block = 2 * lanes;  // columns per block, as vertical_block() makes them
    static constexpr int near_count = Radius / 2 + 1, far_count = (Radius + 1) / 2;

    // One pair's storage and source rows.
    struct Pair {
        std::int16_t* values;
        const std::uint8_t* rows[2][2];  // ref's two rows, then dist's, in the pair's order

        // Makes the block of 2 * lanes columns from `column` (a multiple of `block`, or the
        // last block, which ends at the row's end): x's two interleaves, then y's.
        void make(int column) const {
            std::int16_t* out = values + offset(column);
            for (const auto& plane_rows : rows) {
                const I16 a = load_widened_pairs(plane_rows[0] + column) - 128;
                const I16 b = load_widened_pairs(plane_rows[1] + column) - 128;
                const I16 first = interleave_first(a, b), last = interleave_last(a, b);
                std::memcpy(out, &first, sizeof first);
                std::memcpy(out + 2 * lanes, &last, sizeof last);
                out += 2 * 2 * lanes;
            }
        }
    };

    // What output row i's vertical blocks read: near[t] holds rows (2t, 2t + 1) of its window,
    // far[t] rows (2 Radius - 2t, 2 Radius - 2t - 1), both in the order of
    // TapPairs::vertical[order]; and the pair they make for row i + 1, `next`, which takes the
    // place of near[0] (each block reads its columns of near[0] before it makes them anew).
    struct Window {
        const std::int16_t* near[near_count];
        const std::int16_t* far[far_count];
        int order;
        Pair next;
    };

    RowPairs(const PlaneView<std::uint8_t>& ref, const PlaneView<std::uint8_t>& dist)
        : ref_(ref),
          dist_(dist),
          blocks_((ref.width + block - 1) / block),
          values_(std::size_t(2 * Radius) * std::size_t(blocks_) * values_per_block) {}

    // The window of output row i, for rows i = 0, 1, ... in turn, each of whose vertical blocks
    // makes its block of `next`.
    Window window(int i) {
        if (i == 0)
            for (int v = -Radius; v < Radius; ++v)
                for (int b = 0; b < blocks_; ++b)
                    pair(v).make(std::min(b * block, ref_.width - block));
        Window w;
        for (int t = 0; t < near_count; ++t) w.near[t] = pair(i - Radius + 2 * t).values;
        for (int t = 0; t < far_count; ++t) w.far[t] = pair(i + Radius - 1 - 2 * t).values;
        w.order = (i - Radius) & 1;
        w.next = pair(i + Radius);
        return w;
    }

    // Vector n (x's two interleaves, then y's) of a pair's block of the columns from `column`.
    static I16 vector(const std::int16_t* values, int column, int n) {
        I16 v;
        std::memcpy(&v, values + offset(column) + std::size_t(n) * 2 * lanes, sizeof v);
        return v;
    }

private:
    static constexpr std::size_t values_per_block = 4 * 2 * lanes;

    static std::size_t offset(int column) {
        return std::size_t((column + block - 1) / block) * values_per_block;
    }

    Pair pair(int v) {
        const int slot = ((v % (2 * Radius)) + 2 * Radius) % (2 * Radius);
        int first = mirror(v, ref_.height), second = mirror(v + 1, ref_.height);
        if (v & 1) std::swap(first, second);
        return {values_.data() + std::size_t(slot) * std::size_t(blocks_) * values_per_block,
                {{ref_.row(first), ref_.row(second)}, {dist_.row(first), dist_.row(second)}}};
    }

    PlaneView<std::uint8_t> ref_, dist_;
    int blocks_;
    std::vector<std::int16_t> values_;
};

// Vertical pass of 8-bit samples at 2 * lanes columns from `column` (spec §2.4, scale 0). Two
// taps per 16-bit multiply-add: two rows share each 32-bit lane (RowPairs), and
// TapPairs::vertical pairs their taps (doubled back at the end where pairs.halving halved them);
// the interleaves split the columns in two halves, which pack_columns() puts back in order. Every
// sum is taken of the samples minus 128 (their squares and products fit int16) and moved back at
// the end: with the kernel summing to 2^16, sum F*x = sum F*(x-128) + 2^23, sum F*x*x = sum
// F*(x-128)^2 + 256*a1 - 2^30 and sum F*x*y = sum F*(x-128)*(y-128) + 128*(a1 + a2) - 2^30, exact
// in wrapping uint32 lanes as every true sum is below 2^32.
//
// The kernel is symmetric (F[k] = F[2 Radius - k]), so rows k and 2 Radius - k are added before
// the multiply-add (folded): the pair (2t, 2t+1) with the pair (2 Radius - 2t, 2 Radius - 2t - 1).
// For an even Radius the centre row's pair stands alone, its second tap 0; for an odd one the
// last far pair's second row is the centre row, which the near pair already holds, so it is
// masked out there. That takes Radius / 2 + 1 multiply-adds per sum instead of Radius + 1 (the
// multiplier is a bound of this pass). A folded value must still fit int16: two (x-128) sum to
// [-256, 254]; two squares to [0, 32768] and two products to [-32512, 32768], kept as that minus
// 32768 and minus 256 (wrapping int16 arithmetic, exact as the result fits), and the accumulators
// start at the offsets times the folded taps, which cancels them.
template <int Radius>
VQ_KERNEL_INLINE void vertical_block(const typename RowPairs<Radius>::Window& window,
                                     const TapPairs& pairs, int /*bits*/, int column,
                                     StreamRow& out) {
    const std::uint32_t square_fold = 32768, product_fold = 256;
    const I32 square_start = (I32)(U32{} + square_fold * pairs.folded_taps);
    const I32 product_start = (I32)(U32{} + product_fold * pairs.folded_taps);
    I32 a1[2]{}, a2[2]{}, sxx[2] = {square_start, square_start},
                          syy[2] = {square_start, square_start},
                          sxy[2] = {product_start, product_start};
    const I32* taps = pairs.vertical[window.order];
#pragma GCC unroll 16
    for (int t = 0; 2 * t <= Radius; ++t) {
        I16 near[4], far[4];
        for (int n = 0; n < 4; ++n) near[n] = RowPairs<Radius>::vector(window.near[t], column, n);
        if (2 * t < Radius) {
            for (int n = 0; n < 4; ++n) far[n] = RowPairs<Radius>::vector(window.far[t], column, n);
            // The centre row in the far pair of an odd Radius: the lanes' second row in
            // descending order, their first in ascending order.
            I16 keep = I16{} - 1;
            if (2 * t + 1 == Radius) keep = (I16)(I32{} + (window.order == 0 ? 0xffff : ~0xffff));
            for (int h = 0; h < 2; ++h) {
                const U16 x = (U16)near[h], y = (U16)near[2 + h];
                const U16 fx = (U16)(far[h] & keep), fy = (U16)(far[2 + h] & keep);
                const std::uint16_t square_bias = std::uint16_t(-square_fold);
                const std::uint16_t product_bias = std::uint16_t(-product_fold);
                accumulate_pairs(a1[h], (I32)(x + fx), taps[t]);
                accumulate_pairs(a2[h], (I32)(y + fy), taps[t]);
                accumulate_pairs(sxx[h], (I32)(x * x + fx * fx + square_bias), taps[t]);
                accumulate_pairs(syy[h], (I32)(y * y + fy * fy + square_bias), taps[t]);
                accumulate_pairs(sxy[h], (I32)(x * y + fx * fy + product_bias), taps[t]);
            }
        } else {
            for (int h = 0; h < 2; ++h) {
                const I16 x = near[h], y = near[2 + h];
                accumulate_pairs(a1[h], (I32)x, taps[t]);
                accumulate_pairs(a2[h], (I32)y, taps[t]);
                accumulate_pairs(sxx[h], (I32)(x * x), taps[t]);
                accumulate_pairs(syy[h], (I32)(y * y), taps[t]);
                accumulate_pairs(sxy[h], (I32)(x * y), taps[t]);
            }
        }
    }
    const int halving = pairs.halving;
    const std::uint32_t mean_offset = 1u << 23, square_offset = 1u << 30;
    U32 m1[2], m2[2], qxx[2], qyy[2], qxy[2];
    for (int h = 0; h < 2; ++h) {
        const U32 s1 = ((U32)a1[h] << halving) + mean_offset;
        const U32 s2 = ((U32)a2[h] << halving) + mean_offset;
        m1[h] = (s1 + 128) >> 8;
        m2[h] = (s2 + 128) >> 8;
        qxx[h] = ((U32)sxx[h] << halving) + (s1 << 8) - square_offset;
        qyy[h] = ((U32)syy[h] << halving) + (s2 << 8) - square_offset;
        qxy[h] = ((U32)sxy[h] << halving) + ((s1 + s2) << 7) - square_offset;
    }
    out.store_pairs(column, m1, m2, qxx, qyy, qxy);
    window.next.make(column);
}

// Columns a vertical_block() covers.
inline constexpr int block_columns = 2 * lanes;

// Unsigned 16x16 multiply's high halves.
VQ_KERNEL_INLINE I16 multiply_high(I16 a, I16 b) {
#if VQ_SIMD_BITS == 256
    return (I16)_mm256_mulhi_epu16((__m256i)a, (__m256i)b);
#else
    return (I16)_mm512_mulhi_epu16((__m512i)a, (__m512i)b);
#endif
}

// Sums of Count 16-bit streams over the vertical window at 2 * lanes columns from `column`, two
// rows per 16-bit multiply-add: rows 2t and 2t + 1 interleaved, with the taps TapPairs::even[t]
// (the last row alone, its partner's tap 0). `values(x, y)` gives a row's streams from its
// samples, as int16. sums[s][0] and [1] cover the interleaves' column halves.
template <int Radius, int Count, typename Values>
VQ_KERNEL_INLINE void sum_row_pairs(const std::uint16_t* const* ref_rows,
                                    const std::uint16_t* const* dist_rows, int column,
                                    const TapPairs& pairs, Values values, I32 (&sums)[Count][2]) {
#pragma GCC unroll 16
    for (int t = 0; t <= Radius; ++t) {
        std::array<I16, Count> rows[2];
        const int row_count = t < Radius ? 2 : 1;
        for (int r = 0; r < row_count; ++r) {
            I16 x, y;
            std::memcpy(&x, ref_rows[2 * t + r] + column, sizeof x);
            std::memcpy(&y, dist_rows[2 * t + r] + column, sizeof y);
            rows[r] = values(x, y);
        }
        const std::array<I16, Count>& second = rows[row_count - 1];  // times a tap of 0 if alone
        for (int s = 0; s < Count; ++s) {
            accumulate_pairs(sums[s][0], (I32)interleave_first(rows[0][s], second[s]),
                             pairs.even[t]);
            accumulate_pairs(sums[s][1], (I32)interleave_last(rows[0][s], second[s]),
                             pairs.even[t]);
        }
    }
}

// Vertical pass of uint16 samples (9..16 bits at scale 0, every scale above) at 2 * lanes columns
// from `column`. Each square and product q = x*y (below 2^32) is taken as its 16-bit halves, the
// multiply's high and low halves: sum F*q = 65536 * S_hi + S_lo, each below 2^32 as the kernel
// sums to 2^16, so every sum is one of 16-bit values, two rows to a multiply-add (sum_row_pairs).
// The values go in minus 32768 (int16), which takes 2^31 from each sum (2^16 * 32768, wrapping in
// uint32), and the (halved) taps are doubled back at the end. The streams are summed in three
// passes over the rows (x's, y's, their products), so that a pass's sums and values stay in
// registers. Against square sums in 64-bit lanes: VIF -2% on 1080p 8-bit (AMD EPYC, AVX-512;
// scale 1's decimated samples are 16-bit).
template <int Radius>
VQ_KERNEL_INLINE void vertical_block(const std::uint16_t* const* ref_rows,
                                     const std::uint16_t* const* dist_rows, const TapPairs& pairs,
                                     int bits, int column, StreamRow& out) {
    const std::int16_t bias = -32768;
    auto moments = [&](I16 a, I16 b) {  // a, a * b's high half, its low half
        return std::array<I16, 3>{a ^ bias, multiply_high(a, b) ^ bias,
                                  (I16)((U16)a * (U16)b) ^ bias};
    };
    I32 x_sums[3][2]{}, y_sums[3][2]{}, xy_sums[2][2]{};
    sum_row_pairs<Radius>(
        ref_rows, dist_rows, column, pairs, [&](I16 x, I16 /*y*/) { return moments(x, x); },
        x_sums);
    sum_row_pairs<Radius>(
        ref_rows, dist_rows, column, pairs, [&](I16 /*x*/, I16 y) { return moments(y, y); },
        y_sums);
    sum_row_pairs<Radius>(
        ref_rows, dist_rows, column, pairs,
        [&](I16 x, I16 y) {
            const std::array<I16, 3> m = moments(x, y);
            return std::array<I16, 2>{m[1], m[2]};
        },
        xy_sums);
    const std::uint32_t mean_round = 1u << (bits - 1);
    const int square_shift = 2 * (bits - 8);  // 2..16
    const std::uint32_t square_round = 1u << (square_shift - 1);
    auto total = [&](I32 sum) { return ((U32)sum << pairs.halving) + (1u << 31); };
    // (65536 * S_hi + S_lo + round) >> shift, the high part exact as 2^16 is a multiple of
    // 2^shift.
    auto square = [&](I32 high, I32 low) {
        return (total(high) << (16 - square_shift)) + ((total(low) + square_round) >> square_shift);
    };
    U32 m1[2], m2[2], qxx[2], qyy[2], qxy[2];
    for (int h = 0; h < 2; ++h) {
        m1[h] = (total(x_sums[0][h]) + mean_round) >> bits;
        m2[h] = (total(y_sums[0][h]) + mean_round) >> bits;
        qxx[h] = square(x_sums[1][h], x_sums[2][h]);
        qyy[h] = square(y_sums[1][h], y_sums[2][h]);
        qxy[h] = square(xy_sums[0][h], xy_sums[1][h]);
    }
    out.store_pairs(column, m1, m2, qxx, qyy, qxy);
}

// sum_k F[k] * v[c - Radius + k] for the 2*lanes columns c from `column0`: even columns, odd
// columns.
struct EvenOddSums {
    U32 even, odd;
};

template <int Radius>
VQ_KERNEL_INLINE EvenOddSums horizontal_filter(const std::uint16_t* column0,
                                               const TapPairs& pairs) {
    // Two sums per parity, the taps' first and second halves: one chain of Radius + 1 dependent
    // multiply-adds per output held each filter's latency.
    I32 even[2]{}, odd[2]{};
    for (int t = 0; t <= Radius; ++t) {
        I32 samples;
        std::memcpy(&samples, column0 - Radius + 2 * t, sizeof samples);
        const int half = 2 * t > Radius;
        accumulate_pairs(even[half], samples, pairs.even[t]);
        accumulate_pairs(odd[half], samples, pairs.odd[t]);
    }
    const I32 even_sum = even[0] + even[1], odd_sum = odd[0] + odd[1];
    // The samples were stored minus 32768 and the (halved) kernel sums to 65536 >> halving.
    const std::uint32_t bias = 1u << 31;
    return {((U32)even_sum << pairs.halving) + bias, ((U32)odd_sum << pairs.halving) + bias};
}

// (sum F*q + 2^15) >> 16 from the filtered high and low halves of q.
VQ_KERNEL_INLINE U32 square_moment(U32 high_sum, U32 low_sum) {
    return high_sum + ((low_sum + 32768) >> 16);
}

// One row's local statistics (spec §2.4, after the filters), `lanes` pixels to a vector, in the
// order the horizontal pass makes them (a block's even columns, then its odd ones): the sums do
// not depend on it. The accumulation reads them back in a loop of its own: fused into the filter
// loop, its long chains (logarithms, division) overlapped the next pixels' less, that loop's body
// being long; separate, VIF took ~4% less time on natural 1080p content (AMD EPYC, AVX-512).
struct SigmaRow {
    // Room for the row's width rounded up to whole blocks of 2 * lanes columns.
    explicit SigmaRow(int width)
        : values(std::size_t((width + 2 * lanes - 1) / (2 * lanes)) * (2 * lanes) * 3) {}

    // The `lanes` pixels of the slot that starts at `slot` (a multiple of lanes). Lanes whose
    // `inside` is false become flat pixels: one den_non_log each, taken back later.
    void store(int slot, U32 mu1, U32 mu2, U32 xx, U32 yy, U32 xy, I32 inside) {
        const I32 zero{};
        const I32 sigma1_sq = inside ? (I32)(xx - rounded_high_product(mu1, mu1)) : zero;
        I32 sigma2_sq = inside ? (I32)(yy - rounded_high_product(mu2, mu2)) : zero;
        sigma2_sq = sigma2_sq < 0 ? zero : sigma2_sq;
        const I32 sigma12 = inside ? (I32)(xy - rounded_high_product(mu1, mu2)) : zero;
        std::int32_t* at = values.data() + 3 * std::size_t(slot);
        std::memcpy(at, &sigma1_sq, sizeof sigma1_sq);
        std::memcpy(at + lanes, &sigma2_sq, sizeof sigma2_sq);
        std::memcpy(at + 2 * lanes, &sigma12, sizeof sigma12);
    }

    LaneSums accumulate_all(double gain_limit, const Log2Source& log2) const {
        // Summed in a local and copied out: summed in the returned object itself, which might
        // alias `values` for all the compiler knew, every sum went through memory every step.
        LaneSums sums;
        // The logarithms are taken a group of slots behind, in a loop of their own (see
        // accumulate_all_but_logs); a group's pending arguments stay in the L1 cache.
        constexpr std::size_t group = 8;
        PendingLogs pending[group];
        const std::size_t slots = values.size() / (3 * lanes);
        for (std::size_t first = 0; first < slots; first += group) {
            const std::size_t count = std::min(group, slots - first);
            for (std::size_t g = 0; g < count; ++g) {
                const std::int32_t* at = values.data() + 3 * lanes * (first + g);
                I32 sigma1_sq, sigma2_sq, sigma12;
                std::memcpy(&sigma1_sq, at, sizeof sigma1_sq);
                std::memcpy(&sigma2_sq, at + lanes, sizeof sigma2_sq);
                std::memcpy(&sigma12, at + 2 * lanes, sizeof sigma12);
                accumulate_all_but_logs(sigma1_sq, sigma2_sq, sigma12, gain_limit, log2, sums,
                                        pending[g]);
            }
            for (std::size_t g = 0; g < count; ++g) take_logs(pending[g], log2, sums);
        }
        const LaneSums total = sums;
        return total;
    }

    std::vector<std::int32_t> values;  // per `lanes` pixels: sigma1_sq, sigma2_sq, sigma12
};

template <typename Sample, int Radius>
ScaleSums statistics(const PlaneView<Sample>& ref, const PlaneView<Sample>& dist, int scale,
                     int bits, double gain_limit) {
    const Filter& filter_s = filter(scale);
    const std::uint16_t* f = filter_s.coefficients;
    const Log2Source log2 = make_log2_source();
    const int width = ref.width;
    const TapPairs pairs = TapPairs::of<Radius>(f);
    StreamRow row(width, Radius);
    SigmaRow sigmas(width);
    std::optional<RowPairs<Radius>> row_pairs;
    if constexpr (sizeof(Sample) == 1) row_pairs.emplace(ref, dist);
    const Sample* ref_rows[2 * Radius + 1];
    const Sample* dist_rows[2 * Radius + 1];
    I32 lane_index;
    for (int l = 0; l < lanes; ++l) lane_index[l] = l;
    ScaleSums sums;
    for (int i = 0; i < ref.height; ++i) {
        for (int k = 0; k <= 2 * Radius; ++k) {
            ref_rows[k] = ref.row(mirror(i - Radius + k, ref.height));
            dist_rows[k] = dist.row(mirror(i - Radius + k, dist.height));
        }
        constexpr int block = block_columns;
        if (width >= block) {
            auto vertical = [&](const auto&... source) {
                int j = 0;
                for (; j + block <= width; j += block)
                    vertical_block<Radius>(source..., pairs, bits, j, row);
                // The last few columns: a block ending at the row's end (a vector would read past
                // it) redoes some columns, with the same results.
                if (j < width) vertical_block<Radius>(source..., pairs, bits, width - block, row);
            };
            if constexpr (sizeof(Sample) == 1)
                vertical(row_pairs->window(i));
            else
                vertical(ref_rows, dist_rows);
        } else {
            for (int j = 0; j < width; ++j)
                row.store(j, round_vertical(vertical_sums(ref_rows, dist_rows, filter_s, j), bits));
        }
        row.mirror_edges();

        for (int j = 0; j < width; j += 2 * lanes) {
            EvenOddSums filtered[StreamRow::count];
            for (int stream = 0; stream < StreamRow::count; ++stream)
                filtered[stream] = horizontal_filter<Radius>(row.at(stream, j), pairs);
            auto store = [&](int slot, U32 EvenOddSums::*half, I32 inside) {
                sigmas.store(slot, filtered[StreamRow::m1].*half, filtered[StreamRow::m2].*half,
                             square_moment(filtered[StreamRow::xx_high].*half,
                                           filtered[StreamRow::xx_low].*half),
                             square_moment(filtered[StreamRow::yy_high].*half,
                                           filtered[StreamRow::yy_low].*half),
                             square_moment(filtered[StreamRow::xy_high].*half,
                                           filtered[StreamRow::xy_low].*half),
                             inside);
            };
            store(j, &EvenOddSums::even, 2 * lane_index < width - j);
            store(j + lanes, &EvenOddSums::odd, 2 * lane_index + 1 < width - j);
        }
        const LaneSums lane_sums = sigmas.accumulate_all(gain_limit, log2);
        for (int l = 0; l < lanes; ++l) {
            sums.num_log += lane_sums.num_log[l];
            sums.den_log += lane_sums.den_log[l];
            sums.den_non_log += lane_sums.den_non_log[l];
        }
        for (int l = 0; l < lanes / 2; ++l) sums.num_non_log += lane_sums.num_non_log[l];
        sums.den_non_log -= (2 * lanes - width % (2 * lanes)) % (2 * lanes);
    }
    return sums;
}

template <typename Sample>
ScaleSums statistics_any_scale(const PlaneView<Sample>& ref, const PlaneView<Sample>& dist,
                               int scale, int bits, double gain_limit) {
    switch (scale) {
    case 0: return statistics<Sample, 8>(ref, dist, scale, bits, gain_limit);
    case 1: return statistics<Sample, 4>(ref, dist, scale, bits, gain_limit);
    case 2: return statistics<Sample, 2>(ref, dist, scale, bits, gain_limit);
    default: return statistics<Sample, 1>(ref, dist, scale, bits, gain_limit);
    }
}

// The vertical blur of 8-bit rows (rows[k], k = 0 .. 2 Radius) at 2 * lanes columns from
// `column`, rounded by `round` and shifted by `bits`, into `out`. As in decimate_with(), rows k and
// 2 Radius - k are folded first (two 8-bit samples sum to at most 510, an int16); the folded rows
// then go two to a 16-bit multiply-add with the taps (2t, 2t + 1) of `tap_pairs` (the centre row
// with 0): per `lanes` columns, Radius / 2 + 1 multiply-adds where the 32-bit lanes took
// Radius + 1 multiplies (three fifths at scale 1), and half the widening loads. Every sum is below
// 2^24, exact in int32; the rounded values fit 16 bits, so packing does not saturate.
template <int Radius>
VQ_KERNEL_INLINE void blur_rows_8(const std::uint8_t* const* rows, const I32* tap_pairs,
                                  std::uint32_t round, int bits, int column, std::uint16_t* out) {
    I16 folded[Radius + 2];
    for (int k = 0; k < Radius; ++k)
        folded[k] = load_widened_pairs(rows[k] + column) +
                    load_widened_pairs(rows[2 * Radius - k] + column);
    folded[Radius] = load_widened_pairs(rows[Radius] + column);
    folded[Radius + 1] = I16{};
    I32 first{}, last{};
    for (int t = 0; 2 * t <= Radius; ++t) {
        accumulate_pairs(first, (I32)interleave_first(folded[2 * t], folded[2 * t + 1]),
                         tap_pairs[t]);
        accumulate_pairs(last, (I32)interleave_last(folded[2 * t], folded[2 * t + 1]),
                         tap_pairs[t]);
    }
    const I16 packed = pack_columns(((U32)first + round) >> bits, ((U32)last + round) >> bits);
    std::memcpy(out + column, &packed, sizeof packed);
}

// Spec §2.3: vertical blur of the even source rows, then the horizontal blur at even columns.
// The kernels are symmetric (f[k] = f[2 Radius - k]), so the two samples of each tap pair are
// added before their one multiply: the same sum in wrapping uint32 lanes, with Radius + 1
// multiplies instead of 2 Radius + 1 (multiplies are the bound here).
template <typename Sample, int Radius>
void decimate_with(const PlaneView<Sample>& source, int destination_scale, int bits,
                   std::uint16_t* out) {
    const std::uint16_t* f = filter(destination_scale).coefficients;
    // The taps as vectors, once: read through `f` in the loops, they were reloaded after every
    // store (the rows written are uint16_t too, so they might have changed them).
    U32 taps[Radius + 1];
    for (int k = 0; k <= Radius; ++k) taps[k] = U32{} + std::uint32_t(f[k]);
    // The taps in pairs for the signed multiply-add, where every tap fits it (not scale 3's
    // centre): blur_rows_8()'s, taps (2t, 2t + 1) up to the centre, and the horizontal pass's,
    // the whole kernel's; a tap past the end is 0.
    const bool pairs_fit =
        std::all_of(f, f + 2 * Radius + 1, [](std::uint16_t tap) { return tap < 32768; });
    auto tap_pair = [&](int t, int end) {
        const std::uint32_t second = 2 * t + 1 <= end ? f[2 * t + 1] : 0;
        return I32{} + std::int32_t(f[2 * t] | second << 16);
    };
    I32 tap_pairs[Radius / 2 + 1], horizontal_pairs[Radius + 1];
    for (int t = 0; 2 * t <= Radius; ++t) tap_pairs[t] = tap_pair(t, Radius);
    for (int t = 0; t <= Radius; ++t) horizontal_pairs[t] = tap_pair(t, 2 * Radius);
    // The plane's size in locals: read through `source` in the loops, it was reloaded after every
    // store, as the taps were.
    const int width = source.width, height = source.height;
    const int out_width = width / 2;
    const std::uint32_t round = 1u << (bits - 1);
    // Room for the mirrored columns and for even-lane reads two vectors past the end.
    std::vector<std::uint16_t> blurred(std::size_t(width + 2 * Radius + 4 * lanes));
    std::uint16_t* column0 = blurred.data() + Radius;
    const Sample* rows[2 * Radius + 1];
    for (int i = 0; i < height / 2; ++i) {
        for (int k = 0; k <= 2 * Radius; ++k)
            rows[k] = source.row(mirror(2 * i - Radius + k, height));
        // The next output row reads two source rows this one does not: fetched now, their loads
        // overlap this row's work (the plane has left the caches since the statistics read it,
        // and those loads' waits were a quarter of this pass). A hint only: past the end the
        // last row stands in.
        for (int k = 1; k <= 2; ++k) {
            const char* next =
                reinterpret_cast<const char*>(source.row(std::min(2 * i + Radius + k, height - 1)));
            for (std::size_t at = 0; at < std::size_t(width) * sizeof(Sample); at += 64)
                __builtin_prefetch(next + at);
        }
        int j = 0;
        if constexpr (sizeof(Sample) == 1)
            if (pairs_fit)
                for (; j + 2 * lanes <= width; j += 2 * lanes)
                    blur_rows_8<Radius>(rows, tap_pairs, round, bits, j, column0);
        for (; j + lanes <= width; j += lanes) {
            U32 sum = load_widened(rows[Radius] + j) * taps[Radius];
            for (int k = 0; k < Radius; ++k)
                sum +=
                    (load_widened(rows[k] + j) + load_widened(rows[2 * Radius - k] + j)) * taps[k];
            store_narrowed(column0 + j, (sum + round) >> bits);
        }
        for (; j < width; ++j) {
            std::uint32_t sum = 0;
            for (int k = 0; k <= 2 * Radius; ++k) sum += f[k] * std::uint32_t(rows[k][j]);
            column0[j] = std::uint16_t((sum + round) >> bits);
        }
        for (int t = 1; t <= Radius; ++t) {
            column0[-t] = column0[mirror(-t, width)];
            column0[width - 1 + t] = column0[mirror(width - 1 + t, width)];
        }
        std::uint16_t* out_row = out + std::size_t(i) * out_width;
        j = 0;
        // Output column j reads the pairs of samples from 2j - Radius: one 32-bit word each, a
        // vector of them for `lanes` outputs, each read minus 32768 (int16), which takes 2^31
        // from the sum (2^16 * 32768, wrapping). Against the folded 32-bit multiplies below:
        // Radius + 1 multiply-adds and loads instead of Radius + 1 multiplies, 2 Radius + 1
        // loads and masks and Radius adds.
        if (pairs_fit)
            for (; j + lanes <= out_width; j += lanes) {
                const std::uint16_t* first = column0 + 2 * j - Radius;
                I32 sum{};
                for (int t = 0; t <= Radius; ++t) {
                    I32 samples;
                    std::memcpy(&samples, first + 2 * t, sizeof samples);
                    accumulate_pairs(sum, samples ^ std::int32_t(0x80008000u), horizontal_pairs[t]);
                }
                store_narrowed(out_row + j, ((U32)sum + (1u << 31) + 32768) >> 16);
            }
        for (; j + lanes <= out_width; j += lanes) {
            const std::uint16_t* centre = column0 + 2 * j;
            U32 sum = load_even_widened(centre) * taps[Radius];
            for (int k = 0; k < Radius; ++k)
                sum += (load_even_widened(centre - Radius + k) +
                        load_even_widened(centre + Radius - k)) *
                       taps[k];
            store_narrowed(out_row + j, (sum + 32768) >> 16);
        }
        for (; j < out_width; ++j) {
            std::uint32_t sum = 0;
            for (int k = 0; k <= 2 * Radius; ++k)
                sum += f[k] * std::uint32_t(column0[2 * j - Radius + k]);
            out_row[j] = std::uint16_t((sum + 32768) >> 16);
        }
    }
}

template <typename Sample>
void decimate_any_scale(const PlaneView<Sample>& source, int destination_scale, int bits,
                        std::uint16_t* out) {
    switch (destination_scale) {
    case 1: return decimate_with<Sample, 4>(source, destination_scale, bits, out);
    case 2: return decimate_with<Sample, 2>(source, destination_scale, bits, out);
    default: return decimate_with<Sample, 1>(source, destination_scale, bits, out);
    }
}

#undef VQ_VIF_LOW_HALF
#undef VQ_VIF_HIGH_HALF
