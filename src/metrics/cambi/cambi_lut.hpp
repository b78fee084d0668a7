// The reciprocal table of §14, generated at compile time from the spec's rule: LUT[i] is 1/i
// written with 9 significant decimal digits, then rounded to the nearest binary32. It is not
// 1.0f / i (42 entries differ by one ulp), so it is built from exact integer arithmetic here
// rather than from any floating-point division.
#pragma once

#include <array>
#include <bit>
#include <cstdint>

namespace vq::cambi {

inline constexpr int reciprocal_lut_size = 65 * 65 + 1;  // index p0 + q <= ws² <= 4225

namespace lut_detail {

using u128 = unsigned __int128;

// The binary32 nearest to 1/i rounded to 9 significant digits (round half to even; ties cannot
// occur for i <= 4225 at the decimal step, §14).
constexpr float nine_digit_reciprocal(std::uint64_t i) {
    // 1/i ≈ digits · 10^-k with 10^8 <= digits < 10^9.
    u128 pow10 = 1;
    while (pow10 / i < 100000000) pow10 *= 10;
    u128 digits = pow10 / i;
    if (2 * (pow10 % i) > i) ++digits;
    if (digits == 1000000000) {  // rounding carried into a tenth digit
        digits /= 10;
        pow10 /= 10;
    }
    // digits / pow10 = mantissa · 2^-shift with 2^23 <= mantissa < 2^24, rounded to even.
    int shift = 0;
    while ((digits << shift) < (u128(1) << 23) * pow10) ++shift;
    u128 mantissa = (digits << shift) / pow10;
    const u128 remainder = (digits << shift) % pow10;
    if (2 * remainder > pow10 || (2 * remainder == pow10 && (mantissa & 1))) ++mantissa;
    if (mantissa == (u128(1) << 24)) {
        mantissa >>= 1;
        --shift;
    }
    const std::uint32_t exponent = std::uint32_t(127 + 23 - shift);
    return std::bit_cast<float>((exponent << 23) | std::uint32_t(mantissa - (u128(1) << 23)));
}

constexpr std::array<float, reciprocal_lut_size> make_reciprocal_lut() {
    std::array<float, reciprocal_lut_size> lut{};
    for (int i = 1; i < reciprocal_lut_size; ++i) lut[i] = nine_digit_reciprocal(std::uint64_t(i));
    return lut;
}

}  // namespace lut_detail

inline constexpr std::array<float, reciprocal_lut_size> reciprocal_lut =
    lut_detail::make_reciprocal_lut();

// Spot checks against the reference table (§14), including entries where the rule and 1.0f/i
// disagree; the unit test compares all 4226 entries with spec/cambi_reciprocal_lut.txt.
static_assert(reciprocal_lut[0] == 0.0f && reciprocal_lut[1] == 1.0f && reciprocal_lut[2] == 0.5f);
static_assert(std::bit_cast<std::uint32_t>(reciprocal_lut[3]) == 0x3eaaaaab);  // 0x1.555556p-2
static_assert(std::bit_cast<std::uint32_t>(reciprocal_lut[82]) == 0x3c47ce0d);
static_assert(std::bit_cast<std::uint32_t>(reciprocal_lut[504]) == 0x3b020820);
static_assert(std::bit_cast<std::uint32_t>(reciprocal_lut[4224]) == 0x39783e0f);

}  // namespace vq::cambi
