// CIEDE2000 per-pixel mathematics against the worked examples of spec/ciede.md §7.1-7.3. The
// spec prints floats with 9 significant digits and doubles with 17, so each literal below is the
// exact value and the comparisons are exact.
#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include <gtest/gtest.h>

#include "metrics/ciede/ciede_math.hpp"

namespace vq::ciede {
namespace {

struct LabExample {
    int bit_depth, y, cb, cr;
    float L, a, b;
};

// §7.1
const LabExample lab_examples[] = {
    {8, 16, 128, 128, -5.96046448e-08f, 0, 0},
    {8, 235, 128, 128, 100, 0, 0},
    {8, 126, 128, 128, 53.6172256f, 0, 0},
    {8, 63, 102, 240, 45.8582916f, 69.9802322f, 62.6070213f},
    {8, 173, 42, 26, 85.7240143f, -83.182991f, 83.7104721f},
    {8, 32, 240, 118, 37.1255951f, 87.8813553f, -119.145027f},
    {8, 100, 100, 150, 42.8193321f, 7.5052681f, 40.8005104f},
    {8, 110, 100, 150, 47.4185753f, 6.79305172f, 40.5630531f},
    {8, 0, 0, 0, 16.0289192f, -163.072556f, 155.082077f},
    {8, 255, 255, 255, 122.853264f, 139.771164f, -126.249527f},
    {10, 64, 512, 512, -5.96046448e-08f, 0, 0},
    {10, 940, 512, 512, 100, 0, 0},
    {10, 400, 400, 600, 42.8193321f, 7.5052681f, 40.8005104f},
    {10, 401, 400, 600, 42.9351311f, 7.48592615f, 40.7973824f},
    {10, 1023, 1023, 1023, 123.264931f, 140.430038f, -126.842072f},
    {12, 1600, 1600, 2400, 42.8193321f, 7.5052681f, 40.8005104f},
    {16, 25600, 25600, 38400, 42.8193321f, 7.5052681f, 40.8005104f},
};

TEST(CiedeMath, YCbCrToLabMatchesWorkedExamples) {
    for (const LabExample& e : lab_examples) {
        SCOPED_TRACE(testing::Message()
                     << e.bit_depth << "-bit (" << e.y << ", " << e.cb << ", " << e.cr << ")");
        const Lab lab = ycbcr_to_lab(e.y, e.cb, e.cr, code_scale(e.bit_depth));
        EXPECT_EQ(lab.L, e.L);
        EXPECT_EQ(lab.a, e.a);
        EXPECT_EQ(lab.b, e.b);
    }
}

struct PairExample {
    int bit_depth;
    int ref[3], dist[3];
    float delta_e;
};

// §7.2
const PairExample pair_examples[] = {
    {8, {16, 128, 128}, {235, 128, 128}, 153.846161f},
    {8, {16, 128, 128}, {126, 128, 128}, 61.4858398f},
    {8, {126, 128, 128}, {127, 128, 128}, 0.676065087f},
    {8, {126, 128, 128}, {128, 128, 128}, 1.34645021f},
    {8, {100, 128, 128}, {100, 129, 128}, 1.70897353f},
    {8, {100, 100, 150}, {110, 100, 150}, 6.71563816f},
    {8, {100, 100, 150}, {102, 101, 150}, 1.31249869f},
    {8, {63, 102, 240}, {173, 42, 26}, 53.7573738f},
    {8, {173, 42, 26}, {32, 240, 118}, 66.8292847f},
    {8, {63, 102, 240}, {32, 240, 118}, 19.1900387f},
    {8, {126, 128, 128}, {63, 102, 240}, 32.4559708f},
    {8, {219, 16, 138}, {78, 214, 230}, 51.0788116f},
    {8, {0, 0, 0}, {255, 255, 255}, 132.355423f},
    {10, {400, 400, 600}, {440, 400, 600}, 6.71563816f},
    {10, {400, 400, 600}, {401, 400, 600}, 0.163421765f},
    {10, {64, 512, 512}, {940, 512, 512}, 153.846161f},
    {10, {504, 512, 512}, {505, 512, 512}, 0.169549912f},
    {10, {252, 408, 960}, {692, 168, 104}, 53.7573738f},
    {12, {1600, 1600, 2400}, {1760, 1600, 2400}, 6.71563816f},
};

Lab lab_of(const int code[3], int bit_depth) {
    return ycbcr_to_lab(code[0], code[1], code[2], code_scale(bit_depth));
}

TEST(CiedeMath, DeltaE2000MatchesWorkedExamples) {
    for (const PairExample& e : pair_examples) {
        SCOPED_TRACE(testing::Message()
                     << e.bit_depth << "-bit (" << e.ref[0] << ", " << e.ref[1] << ", " << e.ref[2]
                     << ") vs (" << e.dist[0] << ", " << e.dist[1] << ", " << e.dist[2] << ")");
        EXPECT_EQ(delta_e_2000(lab_of(e.ref, e.bit_depth), lab_of(e.dist, e.bit_depth)), e.delta_e);
    }
}

TEST(CiedeMath, IdenticalColoursHaveZeroDifference) {
    for (const LabExample& e : lab_examples) {
        const Lab lab = ycbcr_to_lab(e.y, e.cb, e.cr, code_scale(e.bit_depth));
        EXPECT_EQ(delta_e_2000(lab, lab), 0.0f);
    }
}

// §7.3: the full trace of (219, 16, 138) vs (78, 214, 230), which exercises the H̄' wrap quirk.
TEST(CiedeMath, TraceOfTheHueWrapPairMatchesStageByStage) {
    const CodeScale scale = code_scale(8);
    const double y = normalised_luma(219.0, scale), u = normalised_chroma(16.0, scale),
                 v = normalised_chroma(138.0, scale);
    EXPECT_EQ(y, 0.9269406392694064);
    EXPECT_EQ(u, -0.5);
    EXPECT_EQ(v, 0.044642857142857137);
    EXPECT_EQ(gamma_red(y, v), 0.98409822855512064);
    EXPECT_EQ(gamma_green(y, u, v), 1.0173600142694064);
    EXPECT_EQ(gamma_blue(y, u), -0.13704936073059359);
    const double r = linearise(gamma_red(y, v)), g = linearise(gamma_green(y, u, v)),
                 b = linearise(gamma_blue(y, u));
    EXPECT_EQ(r, 0.96420626172116053);
    EXPECT_EQ(g, 1.0399478592020694);
    EXPECT_EQ(b, -0.010607535660262664);
    const Xyz xyz = rgb_to_xyz(r, g, b);
    EXPECT_EQ(xyz.x, 0.76763956066695327);
    EXPECT_EQ(xyz.y, 0.94801584910342862);
    EXPECT_EQ(xyz.z, 0.13251497093199616);
    EXPECT_EQ(lab_f(xyz.x * (1.0 / 0.95047)), 0.931264341f);
    EXPECT_EQ(lab_f(xyz.y), 0.982362688f);
    EXPECT_EQ(lab_f(xyz.z * (1.0 / 1.08883)), 0.49556613f);

    const Lab ref = ycbcr_to_lab(219, 16, 138, scale);
    const Lab dist = ycbcr_to_lab(78, 214, 230, scale);
    EXPECT_EQ(ref.L, 97.954071f);
    EXPECT_EQ(ref.a, -25.5491734f);
    EXPECT_EQ(ref.b, 97.359314f);
    EXPECT_EQ(dist.L, 56.5632286f);
    EXPECT_EQ(dist.a, 96.9100266f);
    EXPECT_EQ(dist.b, -81.2174683f);

    const float c1 = chroma(ref.a, ref.b), c2 = chroma(dist.a, dist.b);
    EXPECT_EQ(c1, 100.65583f);
    EXPECT_EQ(c2, 126.442993f);
    EXPECT_EQ((c1 + c2) / 2.0f, 113.549408f);
    EXPECT_EQ(chroma_compensation(113.549408f), 1.2538563324282492e-05);

    EXPECT_EQ(hue_angle(97.359314f, -25.5493336f), 1.82743275f);
    EXPECT_EQ(hue_angle(-81.2174683f, 96.9106369f), 5.58566093f);
    EXPECT_EQ(hue_difference(1.82743275f, 5.58566093f, c1, c2), -2.52495694f);
    EXPECT_EQ(mean_hue(1.82743275f, 5.58566093f), 6.84813929f);
    EXPECT_EQ(hue_weighting(6.84813929f), 0.780168891f);
    EXPECT_EQ(rotation_term(6.84813929f, 113.549667f), -5.60777647e-10f);
    EXPECT_EQ(delta_e_2000(ref, dist), 51.0788116f);
}

// §7.3, second trace: (63, 102, 240) vs (32, 240, 118).
TEST(CiedeMath, HueWeightingOfTheSecondTrace) {
    EXPECT_EQ(hue_weighting(6.18046856f), 1.39855504f);
}

TEST(CiedeMath, HueAngleOfAchromaticColourIsZero) {
    EXPECT_EQ(hue_angle(0.0f, 0.0f), 0.0f);
    EXPECT_EQ(hue_difference(1.0f, 2.0f, 0.0f, 5.0f), 0.0f);
}

// glibc_powf_7 against the C library's powf(x, 7.0f), bit for bit (both NaN counts as equal):
// every 997th float from +0 to +inf, their negatives, and the places where the evaluation
// changes course. scripts/ciede_pow7_check.cpp compares all 2^32 floats.
TEST(CiedeMath, GlibcPowf7EqualsPowf) {
    volatile float seven = 7.0f;  // keeps the compiler from evaluating or rewriting powf
    const float exponent = seven;
    std::vector<float> arguments;
    for (std::uint32_t bits = 0; bits <= 0x7f800000u; bits += 997)
        arguments.push_back(std::bit_cast<float>(bits));
    // Windows of consecutive floats around: the smallest subnormals, the last subnormal, x^7 at
    // half the smallest subnormal (2^(-150/7)) and at the smallest subnormal (2^(-149/7)), x^7 at
    // the largest float (2^(128/7)), 1 (table entry 9, where r = z - 1 exactly) and the largest
    // float.
    const float centres[] = {0.0f,           0x1p-126f, 0x1.7c6a2p-22f, 0x1.a403p-22f,
                             0x1.38114p+18f, 1.0f,      FLT_MAX};
    for (const float centre : centres) {
        const std::uint32_t bits = std::bit_cast<std::uint32_t>(centre);
        for (std::uint32_t k = bits < 3000 ? 0 : bits - 3000; k <= bits + 3000 && k <= 0x7f800000u;
             ++k)
            arguments.push_back(std::bit_cast<float>(k));
    }
    for (int e = -149; e <= 127; ++e) {
        arguments.push_back(std::ldexp(1.0f, e));
        // 11^7 has 25 significant bits: 11·2^e has a seventh power exactly halfway between floats.
        if (e <= 124) arguments.push_back(std::ldexp(11.0f, e));
    }
    arguments.push_back(25.0f);
    arguments.push_back(std::numeric_limits<float>::infinity());
    arguments.push_back(std::numeric_limits<float>::quiet_NaN());
    const std::size_t positive = arguments.size();
    for (std::size_t i = 0; i < positive; ++i) arguments.push_back(-arguments[i]);

    int mismatches = 0;
    for (const float x : arguments) {
        const float expected = ::powf(x, exponent), actual = glibc_powf_7(x);
        const bool same = std::isnan(expected) ? std::isnan(actual)
                                               : std::bit_cast<std::uint32_t>(expected) ==
                                                     std::bit_cast<std::uint32_t>(actual);
        if (!same && ++mismatches <= 10)
            ADD_FAILURE() << std::hexfloat << "x = " << x << ": powf " << expected
                          << ", glibc_powf_7 " << actual;
    }
    EXPECT_EQ(mismatches, 0) << "of " << arguments.size() << " arguments";
}

TEST(CiedeMath, FrameScoreOfZeroDifferenceIsPositiveInfinity) {
    const double score = frame_score(0.0, 16);
    EXPECT_TRUE(std::isinf(score));
    EXPECT_GT(score, 0.0);
}

}  // namespace
}  // namespace vq::ciede
