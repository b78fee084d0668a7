// ΔE00 for the CPU twin: bit-identical to ciede::delta_e_2000, about four times faster.
//
// It is the same sequence of float and double operations (spec/ciede.md §4.6), except that each
// libm-based quantity that is rounded to float is first computed from the approximations of
// ciede_fast_math.hpp and kept only when its float rounding is certain; otherwise that quantity
// is recomputed with the reference's expression from ciede_math.hpp. Every stage therefore
// produces exactly the reference's float, and so does the whole.
#pragma once

#include "metrics/ciede/ciede_fast_math.hpp"
#include "metrics/ciede/ciede_math.hpp"

namespace vq::ciede {

namespace fast {

// Rows 5-6: a1', a2'. C̄^7 as a product of float C̄ (squares exact in double, then two
// roundings) is within 1e-15 relative of pow(C̄, 7).
inline void compensated_a(float mean_chroma, float a1, float a2, float& a1p, float& a2p) {
    const double c = mean_chroma;
    const double c2 = c * c;
    const double c7 = (c2 * c2) * c2 * c;
    const double g = 1.0 - sqrt(c7 / (c7 + pow25_7));
    if (rounds_certainly(double(a1) + double(a1 / 2.0f) * g, a1p) &&
        rounds_certainly(double(a2) + double(a2 / 2.0f) * g, a2p))
        return;
    const double exact_g = chroma_compensation(mean_chroma);
    a1p = float(double(a1) + double(a1 / 2.0f) * exact_g);
    a2p = float(double(a2) + double(a2 / 2.0f) * exact_g);
}

// Row 12.
inline float hue_angle(float b, float a_prime) {
    if (b == 0.0f && a_prime == 0.0f) return 0.0f;
    float h;
    if (!rounds_certainly(fast::atan2(double(b), double(a_prime)), h))
        h = float(::atan2(double(b), double(a_prime)));
    if (h < 0.0f) h = float(double(h) + 2.0 * pi);
    return h;
}

// Row 14: 2·√(C1'·C2')·sin(Δh'/2), the product a float op.
inline float rotated_hue_difference(float c1p, float c2p, float delta_h) {
    if (delta_h == 0.0f) return 0.0f;  // sin(±0) = ±0 exactly; its sign vanishes in h² and q
    const double root = 2.0 * sqrt(double(c1p * c2p));
    float result;
    if (!rounds_certainly(root * sin_small(double(delta_h) / 2.0), result))
        result = float(root * ::sin(double(delta_h) / 2.0));
    return result;
}

// Row 16 from one sine/cosine pair and the multiple-angle formulas. The cosine terms sum to at
// most 1.93 in magnitude, so the margin is taken on that bound rather than on T.
inline float hue_weighting(float mean_hue_angle) {
    constexpr double cos_pi_6 = 0.8660254037844386, sin_pi_6 = 0.5;
    constexpr double cos_pi_30 = 0.9945218953682733, sin_pi_30 = 0.10452846326765346;
    constexpr double cos_7pi_20 = 0.4539904997395468, sin_7pi_20 = 0.8910065241883678;
    const SinCos one = sin_cos(double(mean_hue_angle));
    const double c2 = 2.0 * one.cos * one.cos - 1.0, s2 = 2.0 * one.sin * one.cos;
    const double c3 = one.cos * (4.0 * one.cos * one.cos - 3.0);
    const double s3 = one.sin * (3.0 - 4.0 * one.sin * one.sin);
    const double c4 = 2.0 * c2 * c2 - 1.0, s4 = 2.0 * s2 * c2;
    const double t = 1.0 - 0.17 * (one.cos * cos_pi_6 + one.sin * sin_pi_6) + 0.24 * c2 +
                     0.32 * (c3 * cos_pi_30 - s3 * sin_pi_30) -
                     0.20 * (c4 * cos_7pi_20 + s4 * sin_7pi_20);
    float result;
    if (!rounds_certainly(t, 2.0 * certainty_margin, result))
        result = ciede::hue_weighting(mean_hue_angle);
    return result;
}

// Row 18 with exp and sin certified; powf is called as the reference calls it, because its
// rounding is not certain enough to predict.
inline float rotation_term(float mean_hue_angle, float mean_chroma_prime) {
    const float degrees = float(double(mean_hue_angle) * (180.0 / pi));
    const float x = float((double(degrees) - 275.0) * (1.0 / 25.0));
    const float p = powf(mean_chroma_prime, 7.0f);
    const float ratio = p / (p + pow25_7_single);
    const double exponent = double(-(x * x));
    float angle;
    if (!rounds_certainly(60.0 * exp_negative(exponent), angle))
        angle = float(60.0 * ::exp(exponent));
    const float radians = float(double(angle) * (pi / 180.0));
    const double scale = -2.0 * sqrt(double(ratio));
    float result;
    if (!rounds_certainly(scale * sin_small(double(radians)), result))
        result = float(scale * ::sin(double(radians)));
    return result;
}

}  // namespace fast

// ΔE00 between a reference (1) and a distorted (2) colour; equals delta_e_2000 bit for bit.
inline float fast_delta_e_2000(const Lab& p1, const Lab& p2) {
    const float delta_l = p2.L - p1.L;
    const float mean_l = (p1.L + p2.L) / 2.0f;

    const float c1 = chroma(p1.a, p1.b);
    const float c2 = chroma(p2.a, p2.b);
    float a1p, a2p;
    fast::compensated_a((c1 + c2) / 2.0f, p1.a, p2.a, a1p, a2p);
    const float c1p = chroma(a1p, p1.b);
    const float c2p = chroma(a2p, p2.b);
    const float mean_cp = (c1p + c2p) / 2.0f;
    const float delta_cp = c2p - c1p;

    const float d = mean_l - 50.0f;
    const double d2 = double(d) * double(d);
    const float s_l = float(1.0 + 0.015 * d2 / sqrt(20.0 + d2));
    const float s_c = float(1.0 + 0.045 * double(mean_cp));

    const float h1 = fast::hue_angle(p1.b, a1p);
    const float h2 = fast::hue_angle(p2.b, a2p);
    const float delta_hp =
        fast::rotated_hue_difference(c1p, c2p, hue_difference(h1, h2, c1, c2));

    const float mean_h = mean_hue(h1, h2);
    const float t = fast::hue_weighting(mean_h);
    const float s_h = float(1.0 + (0.015 * double(mean_cp)) * double(t));
    const float r_t = fast::rotation_term(mean_h, mean_cp);

    const float l = delta_l / (weight_lightness * s_l);
    const float c = delta_cp / (weight_chroma * s_c);
    const float h = delta_hp / (weight_hue * s_h);
    const float q = (r_t * c) * h;
    return float(sqrt(double(l) * double(l) + double(c) * double(c) + double(h) * double(h) +
                      double(q)));
}

}  // namespace vq::ciede
