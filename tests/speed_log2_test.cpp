// The CUDA twin's log2 (speed_log2.hpp), checked on the host where glibc is at hand: its
// constants, exact cases, correct rounding where it departs from glibc (judged against the wider
// long double log2l), how rarely it does, and that those departures never reach SpEED's float
// entropies and terms (speed_block_math.hpp), which round the double log2 to float.
#include <bit>
#include <cmath>
#include <cstdint>
#include <random>

#include <gtest/gtest.h>

#include "metrics/speed/speed_block_math.hpp"
#include "metrics/speed/speed_log2.hpp"

namespace vq::speed {
namespace {

struct GlibcLog2 {
    double operator()(double x) const { return std::log2(x); }
};
struct RoundedLog2 {
    double operator()(double x) const { return log2_rounded(x); }
};

TEST(SpeedLog2, DoubleDoubleConstantsAreReciprocal) {
    const double_double::Pair one = double_double::mul(double_double::log2_e, double_double::ln_2);
    EXPECT_EQ(one.hi, 1.0);
    EXPECT_LT(std::fabs(one.lo), 0x1p-104);
}

TEST(SpeedLog2, PowersOfTwoAndSpecialValues) {
    for (int k = -1074; k <= 1023; ++k) EXPECT_EQ(log2_rounded(std::ldexp(1.0, k)), double(k));
    EXPECT_EQ(log2_rounded(0.0), -HUGE_VAL);
    EXPECT_EQ(log2_rounded(HUGE_VAL), HUGE_VAL);
    EXPECT_TRUE(std::isnan(log2_rounded(-1.0)));
    EXPECT_TRUE(std::isnan(log2_rounded(NAN)));
}

// Where the two differ, log2_rounded is the nearer to log2l (64-bit significand, so it can judge
// all but results within ~2^-11 ulp of a midpoint) and glibc is one ulp away.
void expect_near_glibc(double x, long& differences) {
    const double ours = log2_rounded(x), glibc = std::log2(x);
    if (ours == glibc) return;
    ++differences;
    const long double exact = log2l(static_cast<long double>(x));
    EXPECT_EQ(std::nextafter(glibc, ours), ours) << std::hexfloat << x;
    EXPECT_LE(std::fabs(static_cast<long double>(ours) - exact),
              std::fabs(static_cast<long double>(glibc) - exact) * 1.001L)
        << std::hexfloat << x << " ours " << ours << " glibc " << glibc;
}

TEST(SpeedLog2, CorrectlyRoundedAndRarelyOffGlibc) {
    long differences = 0, count = 0;
    // Float arguments (§8.8's positive·S + σ, §9's 1 + S) from 0.05 to 2^20, evenly strided.
    for (std::uint32_t bits = 0x3d4ccccd; bits < 0x49800000; bits += 97, ++count)
        expect_near_glibc(double(std::bit_cast<float>(bits)), differences);
    // Double arguments (§9's weighting modes 3-6: 1 + z).
    std::mt19937_64 random(7);
    for (int i = 0; i < 300000; ++i, ++count)
        expect_near_glibc(1.0 + std::ldexp(double(random() >> 11), -53) * 100.0, differences);
    EXPECT_LT(double(differences) / double(count), 0.002) << differences << " of " << count;
}

// SpEED rounds every log2 to float after one or two double additions or a product: a one-ulp
// double departure changes that float only at a rounding boundary (odds about 2^-28 per call).
TEST(SpeedLog2, EntropiesAndTermsMatchGlibcs) {
    std::mt19937 random(11);
    std::uniform_real_distribution<float> eigen(-0.5f, 400.0f), variance(0.0f, 50.0f);
    for (int block = 0; block < 40000; ++block) {
        float lambda[25];
        for (float& l : lambda) l = eigen(random);
        const float s = variance(random);
        EXPECT_EQ(block_entropy(lambda, s, 0.29f, GlibcLog2{}),
                  block_entropy(lambda, s, 0.29f, RoundedLog2{}));
        const float er = 60.0f + variance(random), ed = 60.0f + variance(random);
        const float vr = variance(random), vd = variance(random);
        for (int mode = 0; mode <= 6; ++mode)
            EXPECT_EQ(block_term(er, ed, vr, vd, mode, 0.0f, GlibcLog2{}),
                      block_term(er, ed, vr, vd, mode, 0.0f, RoundedLog2{}));
    }
}

}  // namespace
}  // namespace vq::speed
