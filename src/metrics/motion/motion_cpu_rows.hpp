// Motion's two passes over one row (spec/vmaf.md §3.2): INCLUDED ONCE PER INSTRUCTION SET,
// inside a namespace, through motion_cpu_variant.hpp (deliberately no include guard). The
// includer provides <cstdint>, <cstring>, <immintrin.h>, motion.hpp and motion_cpu_kernels.hpp.
//
// Everything stays in 32-bit lanes:
// - the vertical sum of taps x difference is below 65536 x (2^15 - 1) < 2^31 up to 15 bits; 16-bit
//   input sums in 64 bits. Either way the rounded result y lies in (-65536, 65536), kept as its
//   two parts q = y >> 8 (in [-256, 255]) and r = y & 255 (BlurredRow).
// - the horizontal sum b = sum t[k] y[k] reaches 2^32, so it is taken in those two parts:
//   A = sum t[k] q[k] and B = sum t[k] r[k] are below 2^24 in magnitude and (b + 2^15) >> 16 =
//   (A + ((B + 2^15) >> 8)) >> 8 exactly (the low byte dropped by the inner shift cannot carry
//   into bit 16).
// Both parts fit int16, so the vector variants filter them with 16-bit multiply-adds, two taps
// to an instruction.

// y[j] = (sum_k t[k] (previous[k][j] - current[k][j]) + 2^(shift-1)) >> shift for j in [from,
// width) into out; returns whether any y is non-zero. `Sum` is int32 up to 15 bits, int64 at 16.
template <typename Sum, typename Sample>
bool vertical_row(const Sample* const* previous, const Sample* const* current, int from, int width,
                  int shift, BlurredRow out) {
    const Sample* __restrict p0 = previous[0];
    const Sample* __restrict p1 = previous[1];
    const Sample* __restrict p2 = previous[2];
    const Sample* __restrict p3 = previous[3];
    const Sample* __restrict p4 = previous[4];
    const Sample* __restrict c0 = current[0];
    const Sample* __restrict c1 = current[1];
    const Sample* __restrict c2 = current[2];
    const Sample* __restrict c3 = current[3];
    const Sample* __restrict c4 = current[4];
    std::int16_t* __restrict high = out.high;
    std::int16_t* __restrict low = out.low;
    const Sum round = Sum(1) << (shift - 1);
    std::int32_t any = 0;
    for (int j = from; j < width; ++j) {
        const Sum a =
            blur_taps[0] * (Sum(p0[j]) - Sum(c0[j])) + blur_taps[1] * (Sum(p1[j]) - Sum(c1[j])) +
            blur_taps[2] * (Sum(p2[j]) - Sum(c2[j])) + blur_taps[3] * (Sum(p3[j]) - Sum(c3[j])) +
            blur_taps[4] * (Sum(p4[j]) - Sum(c4[j]));
        const std::int32_t y = std::int32_t((a + round) >> shift);  // arithmetic: floor
        high[j] = std::int16_t(y >> 8);
        low[j] = std::int16_t(y & 255);
        any |= y;
    }
    return any != 0;
}

#if VQ_SIMD_BITS == 0
bool vertical_row_8(const std::uint8_t* const* previous, const std::uint8_t* const* current,
                    int width, int /*bit_depth*/, BlurredRow out) {
    return vertical_row<std::int32_t>(previous, current, 0, width, 8, out);
}

// sum_j |(A + ((B + 2^15) >> 8)) >> 8| for j in [0, width).
std::uint64_t horizontal_row_sad(BlurredRow row, int width) {
    std::uint32_t total = 0;  // width x 65536 < 2^31
    for (int j = 0; j < width; ++j) {
        std::int32_t high = 0, low = 0;
        for (int k = 0; k < 5; ++k) {
            high += blur_taps[k] * row.high[j - blur_radius + k];
            low += blur_taps[k] * row.low[j - blur_radius + k];
        }
        const std::int32_t blurred = (high + ((low + 32768) >> 8)) >> 8;
        total += std::uint32_t(blurred < 0 ? -blurred : blurred);
    }
    return total;
}
#else
#include "metrics/toolkit/simd_pairs.hpp"

// The inverse of the interleaves' column order, for lanes within int16.
VQ_KERNEL_INLINE I16 pack_columns(I32 first, I32 last) {
#if VQ_SIMD_BITS == 256
    return (I16)_mm256_packs_epi32((__m256i)first, (__m256i)last);
#else
    return (I16)_mm512_packs_epi32((__m512i)first, (__m512i)last);
#endif
}

// Two taps (or a tap and a constant) as the multiply-add's pairs.
VQ_KERNEL_INLINE I16 tap_pair(std::int32_t first, std::int32_t second) {
    return (I16)(I32{} + ((second << 16) | first));
}

// 8-bit samples, 2 * lanes columns at a time: each 32-bit lane multiplies two rows' differences
// by their taps in one multiply-add. The blur is symmetric, so rows 0 and 4, 1 and 3 are added
// first (the sums fit int16), and the centre row pairs with a 1 whose tap is the rounding.
bool vertical_row_8(const std::uint8_t* const* previous, const std::uint8_t* const* current,
                    int width, int /*bit_depth*/, BlurredRow out) {
    constexpr int block = 2 * lanes;
    const I16 outer = tap_pair(blur_taps[0], blur_taps[1]), centre = tap_pair(blur_taps[2], 128);
    const I16 ones = I16{} + 1;
    I32 any{};
    int j = 0;
    for (; j + block <= width; j += block) {
        I16 d[5];
        for (int k = 0; k < 5; ++k)
            d[k] = load_widened_pairs(previous[k] + j) - load_widened_pairs(current[k] + j);
        const I16 folded0 = d[0] + d[4], folded1 = d[1] + d[3];
        const I32 first = multiply_add(interleave_first(folded0, folded1), outer) +
                          multiply_add(interleave_first(d[2], ones), centre);
        const I32 last = multiply_add(interleave_last(folded0, folded1), outer) +
                         multiply_add(interleave_last(d[2], ones), centre);
        const I32 y_first = first >> 8, y_last = last >> 8;
        const I16 high = pack_columns(y_first >> 8, y_last >> 8);
        const I16 low = pack_columns(y_first & 255, y_last & 255);
        std::memcpy(out.high + j, &high, sizeof high);
        std::memcpy(out.low + j, &low, sizeof low);
        any |= y_first | y_last;
    }
    bool nonzero = false;
    for (int l = 0; l < lanes; ++l) nonzero |= any[l] != 0;
    return vertical_row<std::int32_t>(previous, current, j, width, 8, out) || nonzero;
}

// The horizontal blur's sums of 2 * lanes columns from `column` of one part (row.high or
// row.low), even columns in `even`, odd ones in `odd`: each load's 32-bit lanes hold two
// neighbouring columns, which serve an even column's taps (2t, 2t+1) and the next odd column's
// (2t-1, 2t).
struct EvenOdd {
    I32 even, odd;
};

VQ_KERNEL_INLINE EvenOdd horizontal_sums(const std::int16_t* part, int column) {
    const I16 even_taps[3] = {tap_pair(blur_taps[0], blur_taps[1]),
                              tap_pair(blur_taps[2], blur_taps[3]), tap_pair(blur_taps[4], 0)};
    const I16 odd_taps[3] = {tap_pair(0, blur_taps[0]), tap_pair(blur_taps[1], blur_taps[2]),
                             tap_pair(blur_taps[3], blur_taps[4])};
    EvenOdd sums{};
    for (int t = 0; t < 3; ++t) {
        I16 samples;
        std::memcpy(&samples, part + column - blur_radius + 2 * t, sizeof samples);
        sums.even += multiply_add(samples, even_taps[t]);
        sums.odd += multiply_add(samples, odd_taps[t]);
    }
    return sums;
}

// |(A + ((B + 2^15) >> 8)) >> 8| per lane.
VQ_KERNEL_INLINE I32 absolute_blurred(I32 high, I32 low) {
    const I32 blurred = (high + ((low + 32768) >> 8)) >> 8;
    return blurred < 0 ? -blurred : blurred;
}

// Reads up to 2 * lanes entries past the row's mirrored end (BlurredRow's padding).
std::uint64_t horizontal_row_sad(BlurredRow row, int width) {
    I32 lane_index;
    for (int l = 0; l < lanes; ++l) lane_index[l] = l;
    I32 total{};  // per lane, below width x 65536 < 2^31
    for (int j = 0; j < width; j += 2 * lanes) {
        const EvenOdd high = horizontal_sums(row.high, j), low = horizontal_sums(row.low, j);
        const I32 zero{};
        total += 2 * lane_index < width - j ? absolute_blurred(high.even, low.even) : zero;
        total += 2 * lane_index + 1 < width - j ? absolute_blurred(high.odd, low.odd) : zero;
    }
    std::uint64_t sum = 0;
    for (int l = 0; l < lanes; ++l) sum += std::uint32_t(total[l]);
    return sum;
}
#endif

bool vertical_row_16(const std::uint16_t* const* previous, const std::uint16_t* const* current,
                     int width, int bit_depth, BlurredRow out) {
    return bit_depth <= 15
               ? vertical_row<std::int32_t>(previous, current, 0, width, bit_depth, out)
               : vertical_row<std::int64_t>(previous, current, 0, width, bit_depth, out);
}
