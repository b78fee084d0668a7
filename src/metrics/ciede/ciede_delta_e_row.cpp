// ΔE00 of a row, stage by stage (see ciede_delta_e_row.hpp). Each stage is one loop whose body
// repeats the reference's operations of spec/ciede.md §4.6 for the rows named, followed by a
// fix-up loop for the pixels whose approximated roundings were not certain.
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
    certain = certain || achromatic;
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

// Below this exponent 60·exp(z) < 0.9·2^-150 even with libm's error, so F(60·exp(z)) = 0.
constexpr double angle_underflow_exponent = -108.2;

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
    for (int i = 0; i < width_; ++i) {
        const float a1 = ref.a[i], a2 = dist.a[i];
        const float c1 = chroma(a1, ref.b[i]);
        const float c2 = chroma(a2, dist.b[i]);
        c1_[i] = c1;
        c2_[i] = c2;
        const double mean = double((c1 + c2) / 2.0f);
        const double square = mean * mean;
        const double c7 = (square * square) * square * mean;
        const double g = 1.0 - sqrt(c7 / (c7 + pow25_7));
        float a1p, a2p;
        const bool certain1 = fast::rounds_certainly(double(a1) + double(a1 / 2.0f) * g, a1p);
        const bool certain2 = fast::rounds_certainly(double(a2) + double(a2 / 2.0f) * g, a2p);
        a1p_[i] = a1p;
        a2p_[i] = a2p;
        uncertain_[i] = !(certain1 && certain2);
    }
    for (int i = 0; i < width_; ++i) {
        if (!uncertain_[i]) continue;
        const double g = chroma_compensation((c1_[i] + c2_[i]) / 2.0f);
        a1p_[i] = float(double(ref.a[i]) + double(ref.a[i] / 2.0f) * g);
        a2p_[i] = float(double(dist.a[i]) + double(dist.a[i] / 2.0f) * g);
    }
}

// Rows 7, 8 and 12: C1', C2', C̄' and the hue angles.
void DeltaERow::hue_angles(const LabRow& ref, const LabRow& dist) {
    for (int i = 0; i < width_; ++i) {
        const float c1p = chroma(a1p_[i], ref.b[i]);
        const float c2p = chroma(a2p_[i], dist.b[i]);
        c1p_[i] = c1p;
        c2p_[i] = c2p;
        mean_cp_[i] = (c1p + c2p) / 2.0f;
        bool certain1, certain2;
        h1_[i] = approximate_hue_angle(ref.b[i], a1p_[i], certain1);
        h2_[i] = approximate_hue_angle(dist.b[i], a2p_[i], certain2);
        uncertain_[i] = !(certain1 && certain2);
    }
    for (int i = 0; i < width_; ++i) {
        if (!uncertain_[i]) continue;
        h1_[i] = hue_angle(ref.b[i], a1p_[i]);
        h2_[i] = hue_angle(dist.b[i], a2p_[i]);
    }
}

// Rows 13-16: Δh', ΔH', H̄' and T.
void DeltaERow::hue_terms() {
    for (int i = 0; i < width_; ++i) {
        const float h1 = h1_[i], h2 = h2_[i];
        const float delta_h = hue_difference(h1, h2, c1_[i], c2_[i]);
        const double root = 2.0 * sqrt(double(c1p_[i] * c2p_[i]));
        float delta_hp;
        // sin(±0) is exactly ±0, and so is the reference's ΔH'.
        const bool certain_hp =
            fast::rounds_certainly(root * fast::sin_small(double(delta_h) / 2.0), delta_hp) ||
            delta_h == 0.0f;
        delta_hp_[i] = delta_hp;
        const float mean_h = mean_hue(h1, h2);
        mean_h_[i] = mean_h;
        // The cosine terms of T sum to at most 1.93 in magnitude: the margin is taken on 2.
        float t;
        const bool certain_t = fast::rounds_certainly(
            approximate_hue_weighting(double(mean_h)), 2.0 * fast::certainty_margin, t);
        t_[i] = t;
        uncertain_[i] = !(certain_hp && certain_t);
    }
    for (int i = 0; i < width_; ++i) {
        if (!uncertain_[i]) continue;
        const float delta_h = hue_difference(h1_[i], h2_[i], c1_[i], c2_[i]);
        delta_hp_[i] = float(2.0 * sqrt(double(c1p_[i] * c2p_[i])) * sin(double(delta_h) / 2.0));
        t_[i] = hue_weighting(mean_h_[i]);
    }
}

// Row 18. powf is called exactly as the reference calls it: glibc's powf is not accurate enough
// for its rounding to be predicted, and a call keeps that loop from vectorising, so it has one
// of its own.
void DeltaERow::rotation_terms() {
    for (int i = 0; i < width_; ++i) powf_[i] = powf(mean_cp_[i], 7.0f);
    for (int i = 0; i < width_; ++i) {
        const float degrees = float(double(mean_h_[i]) * (180.0 / pi));
        const float x = float((double(degrees) - 275.0) * (1.0 / 25.0));
        const float p = powf_[i];
        const float ratio = p / (p + pow25_7_single);
        const double exponent = double(-(x * x));
        float angle;
        const bool certain_angle =
            fast::rounds_certainly(60.0 * fast::exp_negative(exponent), angle) ||
            exponent < angle_underflow_exponent;
        angle = exponent < angle_underflow_exponent ? 0.0f : angle;
        const float radians = float(double(angle) * (pi / 180.0));
        float r_t;
        const bool certain_r_t = fast::rounds_certainly(
            -2.0 * sqrt(double(ratio)) * fast::sin_small(double(radians)), r_t);
        r_t_[i] = r_t;
        uncertain_[i] = !(certain_angle && certain_r_t);
    }
    for (int i = 0; i < width_; ++i)
        if (uncertain_[i]) r_t_[i] = rotation_term(mean_h_[i], mean_cp_[i]);
}

// Rows 1, 2, 9-11, 17, 19 and 20: the weighting functions and ΔE00 itself (exact operations).
void DeltaERow::combine(const LabRow& ref, const LabRow& dist, std::span<float> out) {
    for (int i = 0; i < width_; ++i) {
        const float delta_l = dist.L[i] - ref.L[i];
        const float mean_l = (ref.L[i] + dist.L[i]) / 2.0f;
        const float d = mean_l - 50.0f;
        const double d2 = double(d) * double(d);
        const float s_l = float(1.0 + 0.015 * d2 / sqrt(20.0 + d2));
        const float s_c = float(1.0 + 0.045 * double(mean_cp_[i]));
        const float s_h = float(1.0 + (0.015 * double(mean_cp_[i])) * double(t_[i]));
        const float l = delta_l / (weight_lightness * s_l);
        const float c = (c2p_[i] - c1p_[i]) / (weight_chroma * s_c);
        const float h = delta_hp_[i] / (weight_hue * s_h);
        const float q = (r_t_[i] * c) * h;
        out[i] = float(sqrt(double(l) * double(l) + double(c) * double(c) +
                            double(h) * double(h) + double(q)));
    }
}

}  // namespace vq::ciede
