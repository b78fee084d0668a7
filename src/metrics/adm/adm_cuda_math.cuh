// The per-coefficient arithmetic of integer ADM (spec/adm.md §3.1, §4-§10) for the CUDA twin,
// written once for host and device: the kernels call these functions, and a host test checks them
// against the spec's worked example and the CPU twin's tables without a GPU. Plain C++ when a host
// compiler includes it (no CUDA headers needed).
//
// Every step is integer except the angle test and the gain limit, whose float and double steps
// follow §6 op for op (the build disables FMA contraction on host and device). Where the spec
// wraps (i16/i32), the arithmetic goes through unsigned types, so wrap-around is defined and
// gives the same bits as the CPU twin's two's-complement arithmetic.
#pragma once

#include <bit>
#include <cstdint>

#include "cuda/host_device.hpp"

namespace vq::adm::device_math {

// §4: the db2 taps x 2^15; tap k applies to input index 2i - 1 + k.
template <typename T>
VQ_HD inline T low_pass(T p0, T p1, T p2, T p3) {
    return T(15826) * p0 + T(27411) * p1 + T(7345) * p2 - T(4240) * p3;
}
template <typename T>
VQ_HD inline T high_pass(T p0, T p1, T p2, T p3) {
    return T(-4240) * p0 - T(7345) * p1 + T(27411) * p2 - T(15826) * p3;
}

// §4 vertical pass of scale 0, one column: samples centred first, which gives exactly the spec's
// Σ LO·p − 46342·half (HI's taps sum to 0), in 32 bits at every depth (|p − half| ≤ 2^15).
struct Pair16 {
    std::int16_t low, high;
};
VQ_HD inline Pair16 dwt0_vertical(int p0, int p1, int p2, int p3, int bit_depth) {
    const int half = 1 << (bit_depth - 1);
    p0 -= half, p1 -= half, p2 -= half, p3 -= half;
    return {std::int16_t((low_pass(p0, p1, p2, p3) + half) >> bit_depth),
            std::int16_t((high_pass(p0, p1, p2, p3) + half) >> bit_depth)};
}

// §4 horizontal pass of scale 0, one output from four int16 lows or highs.
VQ_HD inline std::int16_t dwt0_low(int l0, int l1, int l2, int l3) {
    return std::int16_t((low_pass(l0, l1, l2, l3) + 32768) >> 16);
}
VQ_HD inline std::int16_t dwt0_high(int l0, int l1, int l2, int l3) {
    return std::int16_t((high_pass(l0, l1, l2, l3) + 32768) >> 16);
}

// §5: a pass of scales 1-3 with rounding (add, shift); 64-bit sums. Scale 1's vertical pass is
// the raw sum (add 0, shift 0), which fits 32 bits for its int16 input.
VQ_HD inline std::int32_t dwt_wide_low(std::int64_t p0, std::int64_t p1, std::int64_t p2,
                                       std::int64_t p3, int add, int shift) {
    return std::int32_t((low_pass(p0, p1, p2, p3) + add) >> shift);
}
VQ_HD inline std::int32_t dwt_wide_high(std::int64_t p0, std::int64_t p1, std::int64_t p2,
                                        std::int64_t p3, int add, int shift) {
    return std::int32_t((high_pass(p0, p1, p2, p3) + add) >> shift);
}

// §13.2 div[32768 + n] = ±trunc(2^30 / |n|), n ≠ 0 and |n| ≤ 32768, computed instead of looked up
// (a 256 KiB gather per coefficient costs more than the division on a GPU).
VQ_HD inline std::int32_t reciprocal(int n) {
    const std::int32_t q = std::int32_t((1u << 30) / unsigned(n < 0 ? -n : n));
    return n < 0 ? -q : q;
}

VQ_HD inline int bit_width(std::uint32_t m) {
#if defined(__CUDA_ARCH__)
    return 32 - __clz(m);
#else
    return int(std::bit_width(m));
#endif
}

// §6.1: the (h, v) vectors of ref (o) and dis (t) are within 1 degree of each other. Each exact
// int64 goes through float first (round to nearest), everything after is double.
VQ_HD inline bool within_one_degree(std::int64_t oh, std::int64_t ov, std::int64_t th,
                                    std::int64_t tv) {
    constexpr double cos_squared_one_degree = double(0x1.ffd814p-1f);  // f32(cos(pi/180)^2)
    const double d = double(float(oh * th + ov * tv)) / 4096.0;
    const double o = double(float(oh * oh + ov * ov)) / 4096.0;
    const double t = double(float(th * th + tv * tv)) / 4096.0;
    return d >= 0 && d * d >= (cos_squared_one_degree * o) * t;
}

// §6.3: min(r·egl, t) for o > 0, max(r·egl, t) for o < 0, in double (the comparison written as
// std::min / std::max do it), truncated by the caller.
VQ_HD inline double limited_gain(std::int64_t r, std::int64_t o, std::int64_t t,
                                 double gain_limit) {
    const double scaled = double(r) * gain_limit;
    const double target = double(t);
    return o > 0 ? (target < scaled ? target : scaled) : (scaled < target ? target : scaled);
}

VQ_HD inline std::int64_t clamp_ratio(std::int64_t k) { return k < 0 ? 0 : k > 32768 ? 32768 : k; }

// One band's restored (r) and additive (a) values.
struct Split {
    std::int32_t r, a;
};

// §6.2-§6.3, scale 0 (int16 coefficients; r and a are int16 values held in int32).
VQ_HD inline Split decouple0(int o, int t, bool angle, double gain_limit) {
    std::int64_t k = 32768;
    if (o != 0) k = (std::int64_t(reciprocal(o)) * t + 16384) >> 15;
    k = clamp_ratio(k);
    int r = (int(k) * o + 16384) >> 15;
    if (angle && k > 0 && o != 0) r = int(limited_gain(r, o, t, gain_limit));
    return {std::int16_t(r), std::int16_t(t - r)};
}

// §6.2-§6.3, scales 1-3: the divisor rounded to 15 significant bits first.
VQ_HD inline Split decouple_wide(std::int32_t o32, std::int32_t t32, bool angle,
                                 double gain_limit) {
    const std::int64_t o = o32, t = t32;
    std::int64_t k = 32768;
    if (o != 0) {
        const std::uint32_t m = std::uint32_t(o < 0 ? -o : o);
        const int e = m < 32768 ? 0 : bit_width(m) - 15;
        const std::uint32_t rounded = e == 0 ? m : (m + (1u << (e - 1))) >> e;
        const std::int64_t quotient = std::int64_t(reciprocal(int(rounded))) * t;
        k = ((o < 0 ? -quotient : quotient) + (std::int64_t(1) << (14 + e))) >> (15 + e);
    }
    k = clamp_ratio(k);
    std::int64_t r = std::int32_t((k * o + 16384) >> 15);
    if (angle && k > 0 && o != 0) r = std::int32_t(limited_gain(r, o, t, gain_limit));
    return {std::int32_t(r), std::int32_t(t - r)};
}

// §8 scale 0: c = i16((I·x + K) >> S) with (K, S) = (16384, 15) for h and v, (65535, 17) for d.
VQ_HD inline int csf0(int x, int multiplier, bool diagonal) {
    return std::int16_t((multiplier * x + (diagonal ? 65535 : 16384)) >> (diagonal ? 17 : 15));
}
// §8 scale 0: the /30 map, m = i16((4369·|c| + 2048) >> 12).
VQ_HD inline int mask0(int c) { return std::int16_t((4369 * (c < 0 ? -c : c) + 2048) >> 12); }
// §9.1 scale 0: the /15 centre term, ctr = i16((8738·|c| + 2048) >> 12) (wraps for |c| > 15359).
VQ_HD inline int centre0(int c) { return std::int16_t((8738 * (c < 0 ? -c : c) + 2048) >> 12); }

// §8 scales 1-3: c = i32((U·x + 2^27) >> 28); |U·x| < 2^63, so the int64 product never overflows.
// §9.2's x is the same expression of the values.
VQ_HD inline std::int32_t csf_wide(std::int32_t x, std::uint32_t multiplier) {
    return std::int32_t((std::int64_t(multiplier) * x + (std::int64_t(1) << 27)) >> 28);
}
// §8 / §9.1 scales 1-3: (F·|c| − 2^31) >> 32 with F = 143165577 (/30) or 286331153 (/15); the
// negative rounding constant is the reference's (Netflix#955).
VQ_HD inline std::int32_t fraction_wide(std::int32_t c, std::int64_t factor) {
    const std::int64_t magnitude = c < 0 ? -std::int64_t(c) : std::int64_t(c);
    return std::int32_t((factor * magnitude - (std::int64_t(1) << 31)) >> 32);
}
VQ_HD inline std::int32_t mask_wide(std::int32_t c) { return fraction_wide(c, 143165577); }
VQ_HD inline std::int32_t centre_wide(std::int32_t c) { return fraction_wide(c, 286331153); }

// §9.2 steps 1-3: the thresholded cube of one band's x at a position with threshold thr.
// threshold_shift L, square_shift P, cube_shift Cc.
VQ_HD inline std::int64_t masked_cube(std::int32_t x, std::int32_t thr, int threshold_shift,
                                      int square_shift, int cube_shift) {
    const std::uint32_t magnitude = x < 0 ? 0u - std::uint32_t(x) : std::uint32_t(x);
    std::int32_t y = std::int32_t(magnitude - (std::uint32_t(thr) << threshold_shift));
    if (y < 0) y = 0;
    const std::int32_t q = std::int32_t(
        (std::int64_t(y) * y + (std::int64_t(1) << (square_shift - 1))) >> square_shift);
    const std::int64_t round = cube_shift >= 1 ? std::int64_t(1) << (cube_shift - 1) : 0;
    return (std::int64_t(q) * y + round) >> cube_shift;
}

// §10 scale 0: |o|³ of an int16 coefficient.
VQ_HD inline std::uint64_t den_cube0(int o) {
    const std::uint64_t m = std::uint64_t(o < 0 ? -o : o);
    return m * m * m;
}
// §10 scales 1-3: ((|o|² + 2^Pd) >> Pd)·|o| + Rd) >> Cd (the squaring's rounding is 2^Pd: a
// reference quirk).
VQ_HD inline std::uint64_t den_cube_wide(std::int32_t o, int square_shift, int col_shift) {
    const std::uint64_t m = o < 0 ? std::uint64_t(-std::int64_t(o)) : std::uint64_t(o);
    const std::uint64_t round = col_shift >= 1 ? std::uint64_t(1) << (col_shift - 1) : 0;
    return ((((m * m + (std::uint64_t(1) << square_shift)) >> square_shift) * m) + round) >>
           col_shift;
}

}  // namespace vq::adm::device_math
