// CSF factors (spec §7), float and double exactly as the reference mixes them.
#include "metrics/adm/adm_csf_factors.hpp"

#include <cmath>
#include <cstdlib>
#include <numbers>

namespace vq::adm {
namespace {

// r = f32(nvd * rdh * pi / 180): the display's pixels per degree, in the reference's order.
float pixels_per_degree(double view_distance, int display_height) {
    return float(view_distance * display_height * std::numbers::pi / 180.0);
}

// §7.1, Watson et al. 1997 (luma row), at scale lambda and orientation theta.
float watson_factor(float r, int lambda, int theta) {
    constexpr float a = 0.495f, k = 0.466f, f0 = 0.401f;
    constexpr float g[4] = {1.501f, 1.0f, 0.534f, 1.0f};
    constexpr float amplitude[4][4] = {{0.62171f, 0.67234f, 0.72709f, 0.67234f},
                                       {0.34537f, 0.41317f, 0.49428f, 0.41317f},
                                       {0.18004f, 0.22727f, 0.28688f, 0.22727f},
                                       {0.091401f, 0.11792f, 0.15214f, 0.11792f}};
    const float t =
        float(std::log10(std::pow(2.0, lambda + 1) * double(f0) * double(g[theta]) / double(r)));
    const float e = k * t * t;
    const float q =
        float(2.0 * double(a) * std::pow(10.0, double(e)) / double(amplitude[lambda][theta]));
    return 1.0f / q;
}

// §7.2: the Barten/Watson blend tables, T[theta][s] per (rdh, nvd).
struct BlendTable {
    int display_height;
    double view_distance;
    float hv[4], d[4];
};

constexpr BlendTable legacy_tables[] = {
    {1080,
     3,
     {0.01183f, 0.025026f, 0.04295f, 0.058621f},
     {0.004302f, 0.011778f, 0.023918f, 0.035901f}},
    {1080,
     5,
     {0.004212f, 0.014809f, 0.029642f, 0.047464f},
     {0.000984f, 0.005852f, 0.0146f, 0.027574f}},
    {2160,
     3,
     {0.00226f, 0.01183f, 0.025026f, 0.04295f},
     {0.000479f, 0.004302f, 0.011778f, 0.023918f}},
    {2160,
     5,
     {0.000092f, 0.004212f, 0.014809f, 0.029642f},
     {0.000050f, 0.000984f, 0.005852f, 0.0146f}},
    {720,
     3,
     {0.018715f, 0.035637f, 0.052798f, 0.061509f},
     {0.007999f, 0.018396f, 0.031851f, 0.037718f}},
    {720,
     5,
     {0.010144f, 0.022561f, 0.040309f, 0.05672f},
     {0.003463f, 0.010282f, 0.021839f, 0.034641f}},
    {480,
     3,
     {0.027961f, 0.045875f, 0.060275f, 0.056234f},
     {0.013572f, 0.026277f, 0.036959f, 0.034511f}},
    {480,
     5,
     {0.016781f, 0.032822f, 0.05032f, 0.061594f},
     {0.00691f, 0.016545f, 0.029917f, 0.037777f}},
};

constexpr BlendTable mae_tables[] = {
    {1080,
     3,
     {0.011249f, 0.022606f, 0.035930f, 0.045673f},
     {0.004097f, 0.010921f, 0.021430f, 0.031313f}},
    {1080,
     5,
     {0.004052f, 0.013939f, 0.026298f, 0.038833f},
     {0.000927f, 0.005544f, 0.013415f, 0.024515f}},
    {2160,
     3,
     {0.002166f, 0.011249f, 0.022606f, 0.035930f},
     {0.000447f, 0.004097f, 0.010921f, 0.021430f}},
    {2160,
     5,
     {0.000077f, 0.004052f, 0.013939f, 0.026298f},
     {0.000045f, 0.000927f, 0.005544f, 0.013415f}},
    {720,
     3,
     {0.017329f, 0.030870f, 0.042134f, 0.047410f},
     {0.007509f, 0.016707f, 0.028072f, 0.032722f}},
    {720,
     5,
     {0.009689f, 0.020577f, 0.034162f, 0.044523f},
     {0.003302f, 0.009579f, 0.019661f, 0.030318f}},
    {480,
     3,
     {0.024969f, 0.037825f, 0.046676f, 0.043974f},
     {0.012511f, 0.023424f, 0.032139f, 0.030166f}},
    {480,
     5,
     {0.015665f, 0.028766f, 0.040612f, 0.047483f},
     {0.006514f, 0.015107f, 0.026476f, 0.032776f}},
};

CsfFactors blend_factors(const BlendTable (&tables)[8], int display_height, double view_distance) {
    // The reference files (2160, 1.5) under the (1080, 3) table: the same pixels per degree.
    if (display_height == 2160 && view_distance == 1.5) {
        display_height = 1080;
        view_distance = 3;
    }
    for (const BlendTable& table : tables)
        if (table.display_height == display_height && table.view_distance == view_distance)
            return {{table.hv[0], table.hv[1], table.hv[2], table.hv[3]},
                    {table.d[0], table.d[1], table.d[2], table.d[3]}};
    // No table: the reference returns -EINVAL (-22) as the factor and carries on.
    CsfFactors unmatched;
    unmatched.hv.fill(-22.0f);
    unmatched.d.fill(-22.0f);
    return unmatched;
}

// Out-of-range conversions as x86-64 does them (spec §7.3): truncate to int64, keep the low bits.
std::uint16_t to_u16(double value) { return std::uint16_t(std::int64_t(value)); }
std::uint32_t to_u32(double value) { return std::uint32_t(std::int64_t(value)); }

}  // namespace

// §7.3, Barten's CSF at 100 cd/m2 with the reference's float/double mix.
float barten_factor(double view_distance, int display_height, int scale, double csf_scale) {
    constexpr float anchors[6] = {0.002f, 0.02f, 0.2f, 2.0f, 20.0f, 150.0f};
    constexpr float parameters[6][5] = {{0.0160737f, 0.991265f, 3.74038f, 0.50722f, 4.46044f},
                                        {0.383873f, 0.800889f, 3.54104f, 0.682505f, 4.94958f},
                                        {0.929301f, 0.476505f, 4.37453f, 0.750315f, 5.28678f},
                                        {1.29776f, 0.405782f, 4.40602f, 0.935314f, 5.61425f},
                                        {1.49222f, 0.334278f, 3.79542f, 1.07327f, 6.4635f},
                                        {1.46213f, 0.394533f, 2.7755f, 1.16577f, 7.45665f}};
    constexpr float sa[4] = {30.162f, 4.0627f, 1.6596f, 0.2712f};
    constexpr float ma[4] = {0.424838596301290f, 0.572435103936480f, 0.000167576239164937f,
                             0.00255872352306433f};
    constexpr float mb[4] = {0.028f, 0.37f, 37.0f, 360.0f};
    constexpr double luminance_nits = 100.0;

    const float r = pixels_per_degree(view_distance, display_height);
    const float sf = float(double(r) / std::pow(2.0, scale + 1));

    const double luminance = std::fmin(std::fmax(luminance_nits, 0.002), 150.0);
    int i = 0;
    while (i < 4 && !(luminance >= anchors[i] && luminance <= anchors[i + 1])) ++i;
    const float lp = float(std::log10(double(anchors[i])));
    const float rp = float(std::log10(double(anchors[i + 1])));
    const float sp = float(std::log10(luminance));
    float p[4];
    for (int c = 1; c <= 4; ++c)
        p[c - 1] =
            parameters[i][c] + ((parameters[i + 1][c] - parameters[i][c]) / (rp - lp)) * (sp - lp);

    const float aa = float(1 + std::pow(double(p[0] * sf), double(p[1])));
    const float bb =
        float(1 / std::pow(1 - std::exp(-std::pow(double(sf / 7.0f), 2)), double(p[2])));
    const float csf = float(p[3] / std::pow(double(aa * bb), 0.5));
    float mtf = 0.0f;
    for (int k = 0; k < 4; ++k) mtf = float(mtf + ma[k] * std::exp(double(-mb[k] * sf)));
    const float rod =
        float(sa[0] * std::pow(std::pow(double(sa[1] / float(luminance_nits)), double(sa[2])) + 1,
                               -double(sa[3])));
    return float(double((csf * mtf) * rod) * csf_scale);
}

CsfFactors csf_factors(const CsfCondition& condition) {
    switch (condition.mode) {
    case 1: {
        CsfFactors factors;
        for (int s = 0; s < 4; ++s) {
            factors.hv[s] = barten_factor(condition.view_distance, condition.display_height, s,
                                          condition.csf_scale);
            factors.d[s] = barten_factor(condition.view_distance, condition.display_height, s,
                                         condition.csf_diag_scale);
        }
        return factors;
    }
    case 2: return blend_factors(legacy_tables, condition.display_height, condition.view_distance);
    case 3: return blend_factors(mae_tables, condition.display_height, condition.view_distance);
    default: {
        CsfFactors factors;
        const float r = pixels_per_degree(condition.view_distance, condition.display_height);
        for (int s = 0; s < 4; ++s) {
            factors.hv[s] = watson_factor(r, s, 1);
            factors.d[s] = watson_factor(r, s, 2);
        }
        return factors;
    }
    }
}

CsfMultipliers csf_multipliers(const CsfFactors& factors, const CsfCondition& condition) {
    CsfMultipliers result;
    // §7.4: at the default viewing condition the reference hard-codes scale 0's multipliers
    // (the formula would give 36451 and 49414).
    if (std::fabs(condition.view_distance * condition.display_height - 3240.0) < 1e-8 &&
        condition.mode == 0) {
        result.band[0] = {36453, 36453, 49417};
    } else {
        const std::uint16_t hv = to_u16(double(factors.hv[0]) * (1 << 21));
        result.band[0] = {hv, hv, to_u16(double(factors.d[0]) * (1 << 23))};
    }
    for (int s = 1; s < 4; ++s) {
        const std::uint32_t hv = to_u32(double(factors.hv[s]) * 4294967296.0);
        result.band[s] = {hv, hv, to_u32(double(factors.d[s]) * 4294967296.0)};
    }
    return result;
}

}  // namespace vq::adm
