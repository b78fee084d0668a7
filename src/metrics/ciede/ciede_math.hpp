// CIEDE2000 per-pixel mathematics, exactly as the reference rounds it (spec/ciede.md §4).
//
// Free inline functions so that the CPU twin and a CUDA twin share one definition. Every
// operation is written with its operand types spelled out, because the reference is C and its
// float/double mix is part of the bit pattern (§5): a float argument to sqrt/sin/exp/atan2 is
// promoted to double there, whereas the C++ float overloads would stay in single precision. So
// every call below passes a double explicitly, except where the reference calls powf (single
// precision). Build without -ffast-math and with -ffp-contract=off.
#pragma once

#include <math.h>  // the C functions by their C names (fma included)

#include <bit>
#include <cstdint>

#include "cuda/host_device.hpp"

namespace vq::ciede {

// π exactly as the reference spells it (§4.6).
inline constexpr double pi = 3.14159265358979323846;

// ---- §4.1 code values -> normalised Y'CbCr ------------------------------------------------

// Offsets and reciprocal steps for one bit depth: s = 2^(bpc-8); y = (Y - 16s) * (1/(219s)).
struct CodeScale {
    double luma_offset;
    double chroma_offset;
    double luma_step;    // 1 / (219 s), rounded once
    double chroma_step;  // 1 / (224 s), rounded once
};

VQ_HD inline CodeScale code_scale(int bit_depth) {
    const double s = double(1 << (bit_depth - 8));
    return {16.0 * s, 128.0 * s, 1.0 / (219.0 * s), 1.0 / (224.0 * s)};
}

// ---- §4.2-4.5 constants --------------------------------------------------------------------

// §4.3 transfer (QUIRK: breakpoint 10/255, not 0.04045): lin(c) = transfer_base(c)^2.4 above
// the breakpoint, transfer_linear(c) at or below it.
inline constexpr double transfer_breakpoint = 10.0 / 255.0;
inline constexpr double transfer_exponent = 2.4;

// §4.5: the white point D65 divides by multiplying with double reciprocals (Yn = 1), and
// f(t) = t^(1/3) above lab_epsilon, lab_f_linear(t) at or below it.
inline constexpr double white_x_reciprocal = 1.0 / 0.95047;
inline constexpr double white_z_reciprocal = 1.0 / 1.08883;
inline constexpr double lab_epsilon = 216.0 / 24389.0;
inline constexpr double lab_kappa = 24389.0 / 27.0;
inline constexpr double lab_f_exponent = 1.0 / 3.0;

struct Lab {
    float L, a, b;
};

struct Xyz {
    double x, y, z;
};

// The arithmetic steps of §4.1-4.5, as templates on the value type.
#include "metrics/ciede/ciede_colour_steps.hpp"

// ---- §4.1-4.5 for one code triple ---------------------------------------------------------

VQ_HD inline double linearise(double c) {
    if (c > transfer_breakpoint) return pow(transfer_base(c), transfer_exponent);
    return transfer_linear(c);
}

VQ_HD inline Xyz rgb_to_xyz(double r, double g, double b) {
    return {xyz_x(r, g, b), xyz_y(r, g, b), xyz_z(r, g, b)};
}

// f(t) rounded to float. pow(t, 1/3), not cbrt: they differ in last bits.
VQ_HD inline float lab_f(double t) {
    if (t > lab_epsilon) return float(pow(t, lab_f_exponent));
    return float(lab_f_linear(t));
}

VQ_HD inline Lab xyz_to_lab(const Xyz& xyz) {
    const double fx = lab_f(xyz.x * white_x_reciprocal);
    const double fy = lab_f(xyz.y);
    const double fz = lab_f(xyz.z * white_z_reciprocal);
    return {float(lightness(fy)), float(red_green(fx, fy)), float(yellow_blue(fy, fz))};
}

VQ_HD inline Lab ycbcr_to_lab(int Y, int Cb, int Cr, const CodeScale& scale) {
    const double y = normalised_luma(double(Y), scale);
    const double u = normalised_chroma(double(Cb), scale);
    const double v = normalised_chroma(double(Cr), scale);
    return xyz_to_lab(rgb_to_xyz(linearise(gamma_red(y, v)), linearise(gamma_green(y, u, v)),
                                 linearise(gamma_blue(y, u))));
}

// ---- §4.6 ΔE00 with the reference's weights and mixed precision ----------------------------

// QUIRK: kL = 0.65, kC = 1, kH = 4 (the standard uses 1, 1, 1).
inline constexpr float weight_lightness = 0.65f;
inline constexpr float weight_chroma = 1.0f;
inline constexpr float weight_hue = 4.0f;

// 25^7 in double (exact) for g, and as powf(25, 7) rounds it in single precision for R_T.
inline constexpr double pow25_7 = 6103515625.0;
inline constexpr float pow25_7_single = 6103515648.0f;

// Row 5: g = 1 - sqrt(C̄^7 / (C̄^7 + 25^7)).
VQ_HD inline double chroma_compensation(float mean_chroma) {
    const double c7 = pow(double(mean_chroma), 7.0);
    return 1.0 - sqrt(c7 / (c7 + pow25_7));
}

// Row 6: a' = a + (a/2)·g, with a/2 a float op (exact) and the rest double.
VQ_HD inline float compensated_a(float a, double g) {
    return float(double(a) + double(a / 2.0f) * g);
}

VQ_HD inline float chroma(float a, float b) {
    return float(sqrt(double(a) * double(a) + double(b) * double(b)));
}

// Row 12: hue angle in float radians within [0, F(2π)].
VQ_HD inline float hue_angle(float b, float a_prime) {
    if (b == 0.0f && a_prime == 0.0f) return 0.0f;
    float h = float(atan2(double(b), double(a_prime)));
    if (h < 0.0f) h = float(double(h) + 2.0 * pi);
    return h;
}

// Row 13: Δh'. Tests the unprimed chroma for zero (equivalent to the standard's test). Written
// as selections between candidates, which vectorising compilers keep free of branches.
VQ_HD inline float hue_difference(float h1, float h2, float c1, float c2) {
    const float delta = h2 - h1;
    const float wrapped =
        h2 <= h1 ? float(double(delta) + 2.0 * pi) : float(double(delta) - 2.0 * pi);
    const float difference = double(fabsf(h1 - h2)) <= pi ? delta : wrapped;
    return c1 == 0.0f || c2 == 0.0f ? 0.0f : difference;
}

// Row 14: ΔH' = 2·√(C1'·C2')·sin(Δh'/2), with C1'·C2' a float op (the fork widens it).
VQ_HD inline float rotated_hue_difference(float c1p, float c2p, float delta_h) {
    return float(2.0 * sqrt(double(c1p * c2p)) * sin(double(delta_h) / 2.0));
}

// Row 15 (QUIRK): the wrapped case always adds 2π, and the zero-chroma case still halves.
VQ_HD inline float mean_hue(float h1, float h2) {
    const float sum = h1 + h2;
    return fabs(double(h1 - h2)) > pi ? float((double(sum) + 2.0 * pi) / 2.0)
                                      : float(double(sum) / 2.0);
}

// Row 16.
VQ_HD inline float hue_weighting(float mean_hue_angle) {
    const double h = double(mean_hue_angle);
    return float(1.0 - 0.17 * cos(h - pi / 6.0) + 0.24 * cos(2.0 * h) +
                 0.32 * cos(3.0 * h + pi / 30.0) - 0.20 * cos(4.0 * h - 7.0 * pi / 20.0));
}

// ---- Row 18's powf(C̄', 7), bit for bit as glibc computes it, on the host and the device ------
//
// The reference calls glibc's powf, which is not correctly rounded (it is within 0.82 ulp): for
// about 0.014% of the floats below 1024 its result is the other neighbour of x^7 than the nearest
// (measured against the double pow rounded to float), so no exact x^7 and no other library's
// powf reproduces it. glibc_powf_7 evaluates glibc's own algorithm
// (glibc 2.28 and later, from Arm's optimized-routines: x^y = 2^(y·log2 x), log2 from a 16-entry
// table and a degree-5 polynomial, 2^t from a 32-entry table and a cubic, all in double) for y = 7,
// with glibc's constants, as glibc's x86-64 build runs it on processors with FMA (its powf ifunc
// picks a build compiled with -mfma, which fuses every a·b + c below; its generic build, without
// fma, agreed with it on every 101st float). fma is correctly rounded everywhere, so the host and
// the device get the same bits. scripts/ciede_pow7_check.cpp compares the function with glibc's
// powf on all 2^32 floats: no mismatch.

namespace pow7_detail {

VQ_HD inline std::uint32_t float_bits(float x) {
#ifdef __CUDA_ARCH__
    return __float_as_uint(x);
#else
    return std::bit_cast<std::uint32_t>(x);
#endif
}

VQ_HD inline float float_from_bits(std::uint32_t bits) {
#ifdef __CUDA_ARCH__
    return __uint_as_float(bits);
#else
    return std::bit_cast<float>(bits);
#endif
}

VQ_HD inline std::uint64_t double_bits(double x) {
#ifdef __CUDA_ARCH__
    return std::uint64_t(__double_as_longlong(x));
#else
    return std::bit_cast<std::uint64_t>(x);
#endif
}

VQ_HD inline double double_from_bits(std::uint64_t bits) {
#ifdef __CUDA_ARCH__
    return __longlong_as_double((long long)(bits));
#else
    return std::bit_cast<double>(bits);
#endif
}

// log2 x for a positive normal float given by its bits (a subnormal one scaled by 2^23 with its
// exponent field lowered by 23). x = 2^k·z with z in [0x1.66p-1, 0x1.66p+0); the top four
// significand bits of z pick the table entry, c near the middle of its subinterval:
// log2 x = k + log2 c + log2(1 + r), r = z/c - 1, the last term by a polynomial in r.
VQ_HD inline double log2_of_bits(std::uint32_t bits) {
    struct Entry {
        double inverse_c, log2_c;
    };
    static constexpr Entry table[16] = {
        {0x1.661ec79f8f3bep+0, -0x1.efec65b963019p-2},
        {0x1.571ed4aaf883dp+0, -0x1.b0b6832d4fca4p-2},
        {0x1.49539f0f010bp+0, -0x1.7418b0a1fb77bp-2},
        {0x1.3c995b0b80385p+0, -0x1.39de91a6dcf7bp-2},
        {0x1.30d190c8864a5p+0, -0x1.01d9bf3f2b631p-2},
        {0x1.25e227b0b8eap+0, -0x1.97c1d1b3b7afp-3},
        {0x1.1bb4a4a1a343fp+0, -0x1.2f9e393af3c9fp-3},
        {0x1.12358f08ae5bap+0, -0x1.960cbbf788d5cp-4},
        {0x1.0953f419900a7p+0, -0x1.a6f9db6475fcep-5},
        {0x1p+0, 0.0},
        {0x1.e608cfd9a47acp-1, 0x1.338ca9f24f53dp-4},
        {0x1.ca4b31f026aap-1, 0x1.476a9543891bap-3},
        {0x1.b2036576afce6p-1, 0x1.e840b4ac4e4d2p-3},
        {0x1.9c2d163a1aa2dp-1, 0x1.40645f0c6651cp-2},
        {0x1.886e6037841edp-1, 0x1.88e9c2c1b9ff8p-2},
        {0x1.767dcf5534862p-1, 0x1.ce0a44eb17bccp-2},
    };
    // log2(1 + r) ≈ a0·r^5 + a1·r^4 + a2·r^3 + a3·r^2 + a4·r.
    constexpr double a0 = 0x1.27616c9496e0bp-2, a1 = -0x1.71969a075c67ap-2;
    constexpr double a2 = 0x1.ec70a6ca7baddp-2, a3 = -0x1.7154748bef6c8p-1;
    constexpr double a4 = 0x1.71547652ab82bp+0;
    const std::uint32_t offset = bits - 0x3f330000u;  // 0x3f330000 is the float 0x1.66p-1
    const Entry& entry = table[(offset >> 19) % 16];
    const std::uint32_t top = offset & 0xff800000u;  // k in the exponent field
    const double z = float_from_bits(bits - top);
    const int k = std::int32_t(top) >> 23;
    const double r = fma(z, entry.inverse_c, -1.0);
    const double y0 = entry.log2_c + double(k);
    const double r2 = r * r;
    const double high = fma(r, a0, a1);
    const double middle = fma(r, a2, a3);
    const double r4 = r2 * r2;
    const double low = fma(r2, middle, fma(r, a4, y0));
    return fma(high, r4, low);
}

// 2^t for -150 < t < 128, rounded to float: t = j/32 + r with j the nearest integer to 32t, so
// 2^t = 2^(j/32)·2^r, the first factor from the table's bits with j/32's integer part added to the
// exponent field, the second by a cubic in r.
VQ_HD inline float exp2_to_float(double t) {
    // The bits of 2^(i/32) rounded to double, less i << 47 (added back with j's bits below).
    static constexpr std::uint64_t table[32] = {
        0x3ff0000000000000, 0x3fefd9b0d3158574, 0x3fefb5586cf9890f, 0x3fef9301d0125b51,
        0x3fef72b83c7d517b, 0x3fef54873168b9aa, 0x3fef387a6e756238, 0x3fef1e9df51fdee1,
        0x3fef06fe0a31b715, 0x3feef1a7373aa9cb, 0x3feedea64c123422, 0x3feece086061892d,
        0x3feebfdad5362a27, 0x3feeb42b569d4f82, 0x3feeab07dd485429, 0x3feea47eb03a5585,
        0x3feea09e667f3bcd, 0x3fee9f75e8ec5f74, 0x3feea11473eb0187, 0x3feea589994cce13,
        0x3feeace5422aa0db, 0x3feeb737b0cdc5e5, 0x3feec49182a3f090, 0x3feed503b23e255d,
        0x3feee89f995ad3ad, 0x3feeff76f2fb5e47, 0x3fef199bdd85529c, 0x3fef3720dcef9069,
        0x3fef5818dcfba487, 0x3fef7c97337b9b5f, 0x3fefa4afa2a490da, 0x3fefd0765b6e4540,
    };
    // 2^r ≈ c0·r^3 + c1·r^2 + c2·r + 1.
    constexpr double c0 = 0x1.c6af84b912394p-5, c1 = 0x1.ebfce50fac4f3p-3;
    constexpr double c2 = 0x1.62e42ff0c52d6p-1;
    // Adding 1.5·2^47 rounds t to a multiple of 1/32 and leaves 32t's integer in the low bits.
    constexpr double shift = 0x1.8p+47;
    const double shifted = t + shift;
    const std::uint64_t j = double_bits(shifted);
    const double r = t - (shifted - shift);
    const double scale = double_from_bits(table[j % 32] + (j << 47));
    const double cubic = fma(fma(r, c0, c1), r * r, fma(r, c2, 1.0));
    return float(cubic * scale);
}

}  // namespace pow7_detail

// glibc's powf(x, 7.0f), bit for bit, for every float x (NaN gives a NaN).
VQ_HD inline float glibc_powf_7(float x) {
    using namespace pow7_detail;
    std::uint32_t bits = float_bits(x);
    if ((bits << 1) == 0 || (bits << 1) >= 0xff000000u) return x;  // ±0, ±inf, NaN
    const bool negative = bits >> 31;  // an odd power: glibc returns -(|x|^7) exactly
    bits &= 0x7fffffffu;
    if (bits < 0x00800000u)  // subnormal: scale to a normal float, then take 23 from k
        bits = float_bits(float_from_bits(bits) * 0x1p23f) - (23u << 23);
    const double t = 7.0 * log2_of_bits(bits);
    float magnitude;
    if (t > 0x1.fffffffd1d571p+6)  // x^7 rounds above the largest float
        magnitude = float_from_bits(0x7f800000u);
    else if (t <= -150.0)  // below half the smallest subnormal
        magnitude = 0.0f;
    else if (t < -149.0)  // between half the smallest subnormal and it
        magnitude = 0x1p-149f;
    else
        magnitude = exp2_to_float(t);
    return negative ? -magnitude : magnitude;
}

// Row 18 (QUIRK): mixed single/double precision, with single-precision powf calls.
VQ_HD inline float rotation_term(float mean_hue_angle, float mean_chroma_prime) {
    const float degrees = float(double(mean_hue_angle) * (180.0 / pi));
    const float x = float((double(degrees) - 275.0) * (1.0 / 25.0));
    const float p = glibc_powf_7(mean_chroma_prime);
    const float ratio = p / (p + pow25_7_single);
    // The reference writes powf(x, 2); C compilers fold that into the single-precision square
    // x * x at -O1 and above (the reference is built -O3), so that is what its binary computes.
    const float angle = float(60.0 * exp(double(-(x * x))));
    const float radians = float(double(angle) * (pi / 180.0));
    return float(-2.0 * sqrt(double(ratio)) * sin(double(radians)));
}

// ΔE00 between a reference (1) and a distorted (2) colour, rounded to float (rows 1-20).
VQ_HD inline float delta_e_2000(const Lab& p1, const Lab& p2) {
    const float delta_l = p2.L - p1.L;
    const float mean_l = (p1.L + p2.L) / 2.0f;

    const float c1 = chroma(p1.a, p1.b);
    const float c2 = chroma(p2.a, p2.b);
    const float mean_c = (c1 + c2) / 2.0f;
    const double g = chroma_compensation(mean_c);
    const float a1p = compensated_a(p1.a, g);
    const float a2p = compensated_a(p2.a, g);
    const float c1p = chroma(a1p, p1.b);
    const float c2p = chroma(a2p, p2.b);
    const float mean_cp = (c1p + c2p) / 2.0f;
    const float delta_cp = c2p - c1p;

    const float d = mean_l - 50.0f;
    const double d2 = double(d) * double(d);
    const float s_l = float(1.0 + 0.015 * d2 / sqrt(20.0 + d2));
    const float s_c = float(1.0 + 0.045 * double(mean_cp));

    const float h1 = hue_angle(p1.b, a1p);
    const float h2 = hue_angle(p2.b, a2p);
    const float delta_h = hue_difference(h1, h2, c1, c2);
    const float delta_hp = rotated_hue_difference(c1p, c2p, delta_h);

    const float mean_h = mean_hue(h1, h2);
    const float t = hue_weighting(mean_h);
    const float s_h = float(1.0 + (0.015 * double(mean_cp)) * double(t));
    const float r_t = rotation_term(mean_h, mean_cp);

    const float l = delta_l / (weight_lightness * s_l);
    const float c = delta_cp / (weight_chroma * s_c);
    const float h = delta_hp / (weight_hue * s_h);
    const float q = (r_t * c) * h;
    return float(
        sqrt(double(l) * double(l) + double(c) * double(c) + double(h) * double(h) + double(q)));
}

// §4.7: 45 - 20·log10(mean ΔE). All-zero ΔE gives log10(0) = -inf, so the score is +inf (§6).
VQ_HD inline double frame_score(double delta_e_sum, unsigned long long pixel_count) {
    return 45.0 - 20.0 * log10(delta_e_sum / double(pixel_count));
}

}  // namespace vq::ciede
