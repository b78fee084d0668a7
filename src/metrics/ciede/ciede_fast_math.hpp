// Fast, certified evaluation for the CPU twin: cheap approximations of the libm functions in
// ΔE00, and the test that makes them exact.
//
// Every libm result in ΔE00 ends up rounded to float (spec/ciede.md §4.6 rows 6, 12, 14, 16, 18)
// after a few double operations. The reference's double value D lies within a few double ulps
// of the mathematically exact value (glibc's sin, cos, atan2, exp and pow are accurate to about
// 1 ulp). An approximation A accurate to ~1e-15 relative therefore lies within
// certainty_margin·|A| of D, far more than the real distance (over 100 times). If no float
// rounding boundary lies within that margin of A, then F(A) = F(D) exactly; otherwise the caller
// recomputes that quantity with the reference's own expression. The margin is ~2^-40 while
// float boundaries are ~2^-24 apart, so about 1 evaluation in 30 000 falls back.
#pragma once

#include <math.h>

#include <algorithm>
#include <bit>
#include <cstdint>

namespace vq::ciede::fast {

// Relative distance, around an approximation, that is certain to contain the reference's value.
inline constexpr double certainty_margin = 0x1p-40;

// Half the distance from float r to its nearer neighbour: 2^(e-24) for a normal r in
// [2^e, 2^(e+1)), but 2^(e-25) when r = ±2^e (the gap below a power of two is half the gap
// above), and 2^-150 for zero and subnormals. A double x with F(x) = r rounds to r for sure when
// |x - r| + error is below it.
inline double half_float_gap(float r) {
    const std::uint32_t bits = std::bit_cast<std::uint32_t>(r);
    const float binade = std::bit_cast<float>(bits & 0x7f800000u);
    const double scale = (bits & 0x007fffffu) == 0 ? 0x1p-25 : 0x1p-24;
    return std::max(double(binade) * scale, 0x1p-150);
}

// Rounds x to float into `out`; true if every value within `error` of x rounds to that float.
// Written without branches so that loops over rows vectorise.
inline bool rounds_certainly(double x, double error, float& out) {
    out = float(x);
    return fabs(x - double(out)) + error < half_float_gap(out);
}

// Rounds x to float into `out`; true if that is certainly what the reference's value rounds to.
inline bool rounds_certainly(double x, float& out) {
    return rounds_certainly(x, fabs(x) * certainty_margin, out);
}

// sin x for |x| <= π/2 + ε by its Taylor series through x^19 (truncation < 3e-16).
inline double sin_small(double x) {
    const double z = x * x;
    double p = -1.0 / 121645100408832000.0;  // -1/19!
    p = p * z + 1.0 / 355687428096000.0;     // 1/17!
    p = p * z - 1.0 / 1307674368000.0;       // -1/15!
    p = p * z + 1.0 / 6227020800.0;          // 1/13!
    p = p * z - 1.0 / 39916800.0;            // -1/11!
    p = p * z + 1.0 / 362880.0;              // 1/9!
    p = p * z - 1.0 / 5040.0;                // -1/7!
    p = p * z + 1.0 / 120.0;                 // 1/5!
    p = p * z - 1.0 / 6.0;                   // -1/3!
    return x + x * (z * p);
}

// cos x for |x| <= π/4 by its Taylor series through x^16 (truncation < 3e-18).
inline double cos_quarter(double x) {
    const double z = x * x;
    double p = 1.0 / 20922789888000.0;  // 1/16!
    p = p * z - 1.0 / 87178291200.0;    // -1/14!
    p = p * z + 1.0 / 479001600.0;      // 1/12!
    p = p * z - 1.0 / 3628800.0;        // -1/10!
    p = p * z + 1.0 / 40320.0;          // 1/8!
    p = p * z - 1.0 / 720.0;            // -1/6!
    p = p * z + 1.0 / 24.0;             // 1/4!
    p = p * z - 0.5;
    return 1.0 + z * p;
}

struct SinCos {
    double sin, cos;
};

// sin and cos of 0 <= x < 8 (hue angles up to 2.5π): reduction by π/2 in two parts (the high
// part has 33 significant bits, so k·hi is exact for k <= 5), then the quarter-range series.
inline SinCos sin_cos(double x) {
    constexpr double half_pi_hi = 0x1.921fb544p+0;
    constexpr double half_pi_lo = 0x1.0b4611a626331p-34;
    const int k = int(x * (2.0 / 3.14159265358979323846) + 0.5);
    const double r = (x - k * half_pi_hi) - k * half_pi_lo;
    const double s = sin_small(r);
    const double c = cos_quarter(r);
    // Quadrant k: (sin, cos) = (s, c), (c, -s), (-s, -c), (-c, s); as selections, branch-free.
    const bool odd = (k & 1) != 0;
    const double sin_magnitude = odd ? c : s;
    const double cos_magnitude = odd ? s : c;
    return {(k & 2) != 0 ? -sin_magnitude : sin_magnitude,
            ((k + 1) & 2) != 0 ? -cos_magnitude : cos_magnitude};
}

// atan2(y, x), not both zero. atan t for t = min/max in [0, 1] is atan(j/8) plus the series of
// atan((t - j/8) / (1 + t·j/8)), whose argument is below 1/16 (truncation < 2e-17).
inline double atan2(double y, double x) {
    constexpr double pi = 3.14159265358979323846;
    static constexpr double atan_eighths[9] = {
        0.0,
        0x1.fd5ba9aac2f6ep-4,
        0x1.f5b75f92c80ddp-3,
        0x1.6f61941e4def1p-2,
        0x1.dac670561bb4fp-2,
        0x1.1e00babdefeb4p-1,
        0x1.4978fa3269ee1p-1,
        0x1.700a7c5784634p-1,
        0x1.921fb54442d18p-1,
    };
    const double ax = fabs(x), ay = fabs(y);
    const bool steep = ay > ax;
    // The floor keeps t finite (0) for atan2(0, 0), which callers replace but still evaluate.
    const double t = std::min(ax, ay) / std::max({ax, ay, 0x1p-1000});
    const int j = int(t * 8.0 + 0.5);
    const double c = j * 0.125;
    const double u = (t - c) / (1.0 + t * c);
    const double z = u * u;
    double p = -1.0 / 11.0;
    p = p * z + 1.0 / 9.0;
    p = p * z - 1.0 / 7.0;
    p = p * z + 1.0 / 5.0;
    p = p * z - 1.0 / 3.0;
    double angle = atan_eighths[j] + (u + u * (z * p));
    if (steep) angle = pi / 2 - angle;
    if (x < 0) angle = pi - angle;
    return y < 0 ? -angle : angle;
}

// exp z for -130 < z <= 0: z = n·ln2 + r with |r| <= ln2/2 (ln2 in two parts, the high part
// with 32 significant bits so n·hi is exact), e^r by its series through r^13 (truncation
// < 1e-17), then 2^n exactly.
inline double exp_negative(double z) {
    constexpr double ln2_hi = 0x1.62e42feep-1;
    constexpr double ln2_lo = 0x1.a39ef35793c76p-33;
    const int n = int(z * (1.0 / 0.69314718055994530942) - 0.5);
    const double r = (z - n * ln2_hi) - n * ln2_lo;
    double p = 1.0 / 6227020800.0;  // 1/13!
    p = p * r + 1.0 / 479001600.0;
    p = p * r + 1.0 / 39916800.0;
    p = p * r + 1.0 / 3628800.0;
    p = p * r + 1.0 / 362880.0;
    p = p * r + 1.0 / 40320.0;
    p = p * r + 1.0 / 5040.0;
    p = p * r + 1.0 / 720.0;
    p = p * r + 1.0 / 120.0;
    p = p * r + 1.0 / 24.0;
    p = p * r + 1.0 / 6.0;
    p = p * r + 0.5;
    p = p * r + 1.0;
    p = p * r + 1.0;
    return p * std::bit_cast<double>(std::uint64_t(1023 + n) << 52);
}

}  // namespace vq::ciede::fast
