// ΔE00 of a row, stage by stage (see ciede_delta_e_row.hpp). Each stage is one loop whose body
// repeats the reference's operations of spec/ciede.md §4.6 for the rows named, followed by a
// fix-up loop for the pixels whose approximated roundings were not certain.
// sqrt never sees a negative operand here, so it need not set errno; without this GCC keeps a
// libm call (and a branch) beside every square root, which stops the loops from vectorising.
// It changes no result.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("no-math-errno")
#endif

#include "metrics/ciede/ciede_delta_e_row.hpp"

#include "metrics/ciede/ciede_fast_math.hpp"
#include "metrics/ciede/ciede_math.hpp"

namespace vq::ciede {
namespace {

// Row 12 from the approximate atan2, branch-free. `certain` is false when the rounding of the
// arc tangent is not certain.
inline float approximate_hue_angle(float b, float a_prime, bool& certain) {
    float h;
    certain = fast::rounds_certainly(fast::atan2(double(b), double(a_prime)), h);
    h = h < 0.0f ? float(double(h) + 2.0 * pi) : h;
    const bool achromatic = b == 0.0f && a_prime == 0.0f;
    certain = certain | achromatic;
    return achromatic ? 0.0f : h;
}

// Row 16 from one sine/cosine pair and the multiple-angle formulas.
inline double approximate_hue_weighting(double mean_hue_angle) {
    constexpr double cos_pi_6 = 0.8660254037844386, sin_pi_6 = 0.5;
    constexpr double cos_pi_30 = 0.9945218953682733, sin_pi_30 = 0.10452846326765346;
    constexpr double cos_7pi_20 = 0.4539904997395468, sin_7pi_20 = 0.8910065241883678;
    const fast::SinCos one = fast::sin_cos(mean_hue_angle);
    const double c2 = 2.0 * one.cos * one.cos - 1.0, s2 = 2.0 * one.sin * one.cos;
    const double c3 = one.cos * (4.0 * one.cos * one.cos - 3.0);
    const double s3 = one.sin * (3.0 - 4.0 * one.sin * one.sin);
    const double c4 = 2.0 * c2 * c2 - 1.0, s4 = 2.0 * s2 * c2;
    return 1.0 - 0.17 * (one.cos * cos_pi_6 + one.sin * sin_pi_6) + 0.24 * c2 +
           0.32 * (c3 * cos_pi_30 - s3 * sin_pi_30) - 0.20 * (c4 * cos_7pi_20 + s4 * sin_7pi_20);
}

}  // namespace

DeltaERow::DeltaERow(int width)
    : width_(width), c1_(width), c2_(width), a1p_(width), a2p_(width), c1p_(width),
      c2p_(width), h1_(width), h2_(width), mean_cp_(width), mean_h_(width), delta_hp_(width),
      t_(width), r_t_(width), powf_(width), uncertain_(width) {}

void DeltaERow::compute(const LabRow& ref, const LabRow& dist, std::span<float> out) {
    compensate_chroma(ref, dist);
    hue_angles(ref, dist);
    hue_terms();
    rotation_terms();
    combine(ref, dist, out);
}

// Rows 3-6: C1, C2 and a1', a2'. C̄^7 as a product of the float C̄ (its square is exact in
// double, then two roundings) is within 1e-15 relative of the reference's pow(C̄, 7).
void DeltaERow::compensate_chroma(const LabRow& ref, const LabRow& dist) {
    const int n = width_;
    const float* __restrict a1 = ref.a.data();
    const float* __restrict b1 = ref.b.data();
    const float* __restrict a2 = dist.a.data();
    const float* __restrict b2 = dist.b.data();
    float* __restrict c1 = c1_.data();
    float* __restrict c2 = c2_.data();
    float* __restrict a1p = a1p_.data();
    float* __restrict a2p = a2p_.data();
    std::uint8_t* __restrict uncertain = uncertain_.data();
    for (int i = 0; i < n; ++i) {
        c1[i] = chroma(a1[i], b1[i]);
        c2[i] = chroma(a2[i], b2[i]);
        const double mean = double((c1[i] + c2[i]) / 2.0f);
        const double square = mean * mean;
        const double c7 = (square * square) * square * mean;
        const double g = 1.0 - sqrt(c7 / (c7 + pow25_7));
        const bool certain1 =
            fast::rounds_certainly(double(a1[i]) + double(a1[i] / 2.0f) * g, a1p[i]);
        const bool certain2 =
            fast::rounds_certainly(double(a2[i]) + double(a2[i] / 2.0f) * g, a2p[i]);
        uncertain[i] = !(certain1 & certain2);
    }
    for (int i = 0; i < n; ++i) {
        if (!uncertain[i]) continue;
        const double g = chroma_compensation((c1[i] + c2[i]) / 2.0f);
        a1p[i] = float(double(a1[i]) + double(a1[i] / 2.0f) * g);
        a2p[i] = float(double(a2[i]) + double(a2[i] / 2.0f) * g);
    }
}

// Rows 7, 8 and 12: C1', C2', C̄' and the hue angles.
void DeltaERow::hue_angles(const LabRow& ref, const LabRow& dist) {
    const int n = width_;
    const float* __restrict b1 = ref.b.data();
    const float* __restrict b2 = dist.b.data();
    const float* __restrict a1p = a1p_.data();
    const float* __restrict a2p = a2p_.data();
    float* __restrict c1p = c1p_.data();
    float* __restrict c2p = c2p_.data();
    float* __restrict mean_cp = mean_cp_.data();
    float* __restrict h1 = h1_.data();
    float* __restrict h2 = h2_.data();
    std::uint8_t* __restrict uncertain = uncertain_.data();
    for (int i = 0; i < n; ++i) {
        c1p[i] = chroma(a1p[i], b1[i]);
        c2p[i] = chroma(a2p[i], b2[i]);
        mean_cp[i] = (c1p[i] + c2p[i]) / 2.0f;
        bool certain1, certain2;
        h1[i] = approximate_hue_angle(b1[i], a1p[i], certain1);
        h2[i] = approximate_hue_angle(b2[i], a2p[i], certain2);
        uncertain[i] = !(certain1 & certain2);
    }
    for (int i = 0; i < n; ++i) {
        if (!uncertain[i]) continue;
        h1[i] = hue_angle(b1[i], a1p[i]);
        h2[i] = hue_angle(b2[i], a2p[i]);
    }
}

// Rows 13-16: Δh', ΔH', H̄' and T.
void DeltaERow::hue_terms() {
    const int n = width_;
    const float* __restrict h1 = h1_.data();
    const float* __restrict h2 = h2_.data();
    const float* __restrict c1 = c1_.data();
    const float* __restrict c2 = c2_.data();
    const float* __restrict c1p = c1p_.data();
    const float* __restrict c2p = c2p_.data();
    float* __restrict delta_hp = delta_hp_.data();
    float* __restrict mean_h = mean_h_.data();
    float* __restrict t = t_.data();
    std::uint8_t* __restrict uncertain = uncertain_.data();
    for (int i = 0; i < n; ++i) {
        const float delta_h = hue_difference(h1[i], h2[i], c1[i], c2[i]);
        const double root = 2.0 * sqrt(double(c1p[i] * c2p[i]));
        const bool certain_hp = fast::rounds_certainly(
            root * fast::sin_small(double(delta_h) / 2.0), delta_hp[i]);
        mean_h[i] = mean_hue(h1[i], h2[i]);
        // The cosine terms of T sum to at most 1.93 in magnitude: the margin is taken on 2.
        const bool certain_t = fast::rounds_certainly(
            approximate_hue_weighting(double(mean_h[i])), 2.0 * fast::certainty_margin, t[i]);
        uncertain[i] = !(certain_hp & certain_t);
    }
    for (int i = 0; i < n; ++i) {
        if (!uncertain[i]) continue;
        const float delta_h = hue_difference(h1[i], h2[i], c1[i], c2[i]);
        delta_hp[i] = float(2.0 * sqrt(double(c1p[i] * c2p[i])) * sin(double(delta_h) / 2.0));
        t[i] = hue_weighting(mean_h[i]);
    }
}

// Row 18. powf is called exactly as the reference calls it: glibc's powf is not accurate enough
// for its rounding to be predicted, and a call keeps a loop from vectorising, so it has a loop
// of its own.
void DeltaERow::rotation_terms() {
    const int n = width_;
    const float* __restrict mean_h = mean_h_.data();
    const float* __restrict mean_cp = mean_cp_.data();
    float* __restrict powers = powf_.data();
    float* __restrict r_t = r_t_.data();
    std::uint8_t* __restrict uncertain = uncertain_.data();
    for (int i = 0; i < n; ++i) powers[i] = powf(mean_cp[i], 7.0f);
    for (int i = 0; i < n; ++i) {
        const float degrees = float(double(mean_h[i]) * (180.0 / pi));
        const float x = float((double(degrees) - 275.0) * (1.0 / 25.0));
        const float ratio = powers[i] / (powers[i] + pow25_7_single);
        float angle;
        const bool certain_angle =
            fast::rounds_certainly(60.0 * fast::exp_negative(double(-(x * x))), angle);
        const float radians = float(double(angle) * (pi / 180.0));
        const bool certain_r_t = fast::rounds_certainly(
            -2.0 * sqrt(double(ratio)) * fast::sin_small(double(radians)), r_t[i]);
        uncertain[i] = !(certain_angle & certain_r_t);
    }
    for (int i = 0; i < n; ++i)
        if (uncertain[i]) r_t[i] = rotation_term(mean_h[i], mean_cp[i]);
}

// Rows 1, 2, 9-11, 17, 19 and 20: the weighting functions and ΔE00 itself (exact operations).
void DeltaERow::combine(const LabRow& ref, const LabRow& dist, std::span<float> out) {
    const int n = width_;
    const float* __restrict L1 = ref.L.data();
    const float* __restrict L2 = dist.L.data();
    const float* __restrict c1p = c1p_.data();
    const float* __restrict c2p = c2p_.data();
    const float* __restrict mean_cp = mean_cp_.data();
    const float* __restrict delta_hp = delta_hp_.data();
    const float* __restrict t = t_.data();
    const float* __restrict r_t = r_t_.data();
    float* __restrict delta_e = out.data();
    for (int i = 0; i < n; ++i) {
        const float delta_l = L2[i] - L1[i];
        const float d = (L1[i] + L2[i]) / 2.0f - 50.0f;
        const double d2 = double(d) * double(d);
        const float s_l = float(1.0 + 0.015 * d2 / sqrt(20.0 + d2));
        const float s_c = float(1.0 + 0.045 * double(mean_cp[i]));
        const float s_h = float(1.0 + (0.015 * double(mean_cp[i])) * double(t[i]));
        const float l = delta_l / (weight_lightness * s_l);
        const float c = (c2p[i] - c1p[i]) / (weight_chroma * s_c);
        const float h = delta_hp[i] / (weight_hue * s_h);
        const float q = (r_t[i] * c) * h;
        delta_e[i] = float(sqrt(double(l) * double(l) + double(c) * double(c) +
                                double(h) * double(h) + double(q)));
    }
}

}  // namespace vq::ciede
