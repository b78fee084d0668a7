// Motion's two passes over one row (spec/vmaf.md §3.2), written as plain loops the compiler
// vectorises: INCLUDED ONCE PER INSTRUCTION SET, inside a namespace, through motion_cpu_variant.hpp
// (deliberately no include guard). The includer provides <cstdint> and motion.hpp.
//
// Everything stays in 32-bit lanes:
// - the vertical sum of taps x difference is below 65536 x (2^15 - 1) < 2^31 up to 15 bits; 16-bit
//   input sums in 64 bits. Either way the rounded result y lies in (-65536, 65536).
// - the horizontal sum b = sum t[k] y[k] reaches 2^32, so it is taken in two parts: with
//   y = 256 q + r (q = y >> 8, r = y & 255), A = sum t[k] q[k] and B = sum t[k] r[k] are below 2^24
//   in magnitude and (b + 2^15) >> 16 = (A + ((B + 2^15) >> 8)) >> 8 exactly (the low byte dropped
//   by the inner shift cannot carry into bit 16).

// y[j] = (sum_k t[k] (previous[k][j] - current[k][j]) + 2^(shift-1)) >> shift for j in [0, width);
// returns whether any y is non-zero. `Sum` is int32 up to 15 bits, int64 at 16.
template <typename Sum, typename Sample>
bool vertical_row(const Sample* const* previous, const Sample* const* current, int width, int shift,
                  std::int32_t* __restrict y) {
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
    const Sum round = Sum(1) << (shift - 1);
    std::int32_t any = 0;
    for (int j = 0; j < width; ++j) {
        const Sum a =
            blur_taps[0] * (Sum(p0[j]) - Sum(c0[j])) + blur_taps[1] * (Sum(p1[j]) - Sum(c1[j])) +
            blur_taps[2] * (Sum(p2[j]) - Sum(c2[j])) + blur_taps[3] * (Sum(p3[j]) - Sum(c3[j])) +
            blur_taps[4] * (Sum(p4[j]) - Sum(c4[j]));
        const std::int32_t v = std::int32_t((a + round) >> shift);  // arithmetic: floor
        y[j] = v;
        any |= v;
    }
    return any != 0;
}

// sum_j |(sum_k t[k] y[j - 2 + k] + 2^15) >> 16| for j in [0, width); y holds blur_radius
// mirrored entries on either side.
std::uint64_t horizontal_row_sad(const std::int32_t* __restrict y, int width) {
    std::uint32_t total = 0;  // width x 65536 < 2^31
    for (int j = 0; j < width; ++j) {
        std::int32_t high = 0, low = 0;
        for (int k = 0; k < 5; ++k) {
            const std::int32_t v = y[j - blur_radius + k];
            high += blur_taps[k] * (v >> 8);
            low += blur_taps[k] * (v & 255);
        }
        const std::int32_t blurred = (high + ((low + 32768) >> 8)) >> 8;
        total += std::uint32_t(blurred < 0 ? -blurred : blurred);
    }
    return total;
}

bool vertical_row_8(const std::uint8_t* const* previous, const std::uint8_t* const* current,
                    int width, int /*bit_depth*/, std::int32_t* y) {
    return vertical_row<std::int32_t>(previous, current, width, 8, y);
}

bool vertical_row_16(const std::uint16_t* const* previous, const std::uint16_t* const* current,
                     int width, int bit_depth, std::int32_t* y) {
    return bit_depth <= 15 ? vertical_row<std::int32_t>(previous, current, width, bit_depth, y)
                           : vertical_row<std::int64_t>(previous, current, width, bit_depth, y);
}
