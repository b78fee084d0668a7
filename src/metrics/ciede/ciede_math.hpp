// CIEDE2000 per-pixel mathematics, exactly as the reference rounds it (spec/ciede.md §4).
//
// Free inline functions so that the CPU twin and a CUDA twin share one definition. Every
// operation is written with its operand types spelled out, because the reference is C and its
// float/double mix is part of the bit pattern (§5): a float argument to sqrt/sin/exp/atan2 is
// promoted to double there, whereas the C++ float overloads would stay in single precision. So
// every call below passes a double explicitly, except where the reference calls powf (single
// precision). Build without -ffast-math and with -ffp-contract=off.
#pragma once

#include <math.h>  // the C functions by their C names: powf is the single-precision pow

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

// x^7 as the reference computes it: glibc's single-precision powf. CUDA's powf differs from
// glibc's in about 6% of arguments; the double pow rounded to float agrees with glibc in all but
// about 0.07% (glibc's powf is not always correctly rounded), so the device uses that.
VQ_HD inline float single_pow7(float x) {
#ifdef __CUDA_ARCH__
    return float(pow(double(x), 7.0));
#else
    return powf(x, 7.0f);
#endif
}

// Row 18 (QUIRK): mixed single/double precision, with single-precision powf calls.
VQ_HD inline float rotation_term(float mean_hue_angle, float mean_chroma_prime) {
    const float degrees = float(double(mean_hue_angle) * (180.0 / pi));
    const float x = float((double(degrees) - 275.0) * (1.0 / 25.0));
    const float p = single_pow7(mean_chroma_prime);
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
