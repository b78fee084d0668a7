// The toolkit's ordered sums in float (metrics/toolkit/ordered_sum.hpp: SpEED's means, spec
// speed.md §8.1), built and walked as the device does (ordered_sum_test_support.hpp), against a
// plain serial float loop, bit for bit: terms of both signs over wide magnitude ranges, sums that
// cross powers of two and zero, ties on the sum's grid, NaN and infinities, overflow, and counts
// around the chunk, group and super-group boundaries up to millions of terms.
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "ordered_sum_test_support.hpp"

namespace vq::ordered {
namespace {

// Terms a x 2^k with a uniform in [-1, 1) + bias and k uniform in [low, high].
std::vector<float> scattered(std::size_t n, int low, int high, double bias, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> unit(-1, 1);
    std::uniform_int_distribution<int> exponent(low, high);
    std::vector<float> terms(n);
    for (float& t : terms) t = float(std::ldexp(unit(rng) + bias, exponent(rng)));
    return terms;
}

TEST(OrderedSumFloat, BothSignsOverWideMagnitudeRanges) {
    struct Case {
        int low, high;
        double bias;
    };
    for (const Case c :
         {Case{0, 0, 0.0}, Case{-10, 10, 0.0}, Case{-30, 30, 0.0}, Case{-60, 20, 0.3},
          Case{-5, 5, -0.02}, Case{-100, -80, 0.01}, Case{-130, -120, 0.5}, Case{90, 100, 0.1}})
        for (std::size_t n : {1000u, 70000u}) {
            const auto terms = scattered(n, c.low, c.high, c.bias, std::uint64_t(n + c.low));
            expect_same_bits(terms, "2^[" + std::to_string(c.low) + ", " + std::to_string(c.high) +
                                        "], bias " + std::to_string(c.bias) + ", " +
                                        std::to_string(n));
        }
}

// Counts around the chunk (256), group (8192) and super-group (262144) sizes and a second window
// of super-groups (32 of them: 8388608 terms), on terms whose sum grows steadily (few chunks fall
// back, so the upper levels decide) and on terms around zero.
TEST(OrderedSumFloat, CountsAroundTheLevelBoundaries) {
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<float> near_one(0.9f, 1.0f);
    std::uniform_real_distribution<float> any(-1.0f, 1.0f);
    for (std::size_t n : {1u, 7u, 8u, 9u, 255u, 256u, 257u, 8191u, 8192u, 8193u, 262143u, 262144u,
                          262145u, 8388609u}) {
        std::vector<float> terms(n);
        for (float& t : terms) t = near_one(rng) * (n > 1000000 ? 1e-3f : 1.0f);
        expect_same_bits(terms, "growing, " + std::to_string(n));
        if (n > 1000000) continue;
        for (float& t : terms) t = any(rng);
        expect_same_bits(terms, "around zero, " + std::to_string(n));
    }
}

// With a good guess only the chunks where the sum crosses a power of two fall back (here from 0
// to about 2^18: some 18 chunks of 256 terms), in float as in double.
TEST(OrderedSumFloat, AddsFewTermsSerially) {
    std::mt19937_64 rng(5);
    std::uniform_real_distribution<float> near_one(0.9f, 1.0f);
    std::vector<float> terms(300000);
    for (float& t : terms) t = near_one(rng);
    for (bool as_warp : {false, true}) {
        long long serial = 0;
        const float sum = ordered_sum(
            terms, [](double s) { return s * (1 + 1e-12); }, as_warp, &serial);
        EXPECT_EQ(bits_of(sum), bits_of(serial_sum(terms)));
        EXPECT_LT(serial, 30 * chunk_terms);
        EXPECT_GT(serial, 0);
    }
}

// Terms that are odd multiples of half a grid step of the sum's binade, so that many additions
// are exact ties (rounded to the even multiple), and sums that stay on a coarse grid.
TEST(OrderedSumFloat, TiesOnTheGrid) {
    std::mt19937_64 rng(3);
    std::uniform_int_distribution<int> units(-(1 << 10), 1 << 12);
    for (int shift : {-140, -120, -40, -10, 0, 20, 90}) {
        std::vector<float> terms(120000);
        for (float& t : terms) t = float(std::ldexp(double(units(rng)) + 0.5, shift));
        expect_same_bits(terms, "halves at 2^" + std::to_string(shift));
        for (float& t : terms) t = float(std::ldexp(double(units(rng) | 1), shift - 1) * 3);
        expect_same_bits(terms, "odd halves at 2^" + std::to_string(shift));
    }
    // A sum parked on 2^24 (spacing 2) with terms of exactly one: each addition is a tie.
    std::vector<float> parked{16777216.0f};
    for (int i = 0; i < 20000; ++i) parked.push_back(i % 3 ? 1.0f : 3.0f);
    expect_same_bits(parked, "ties at 2^24");
}

TEST(OrderedSumFloat, ZerosNaNInfinitiesAndOverflow) {
    constexpr float inf = std::numeric_limits<float>::infinity();
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float big = std::numeric_limits<float>::max() / 4;
    auto terms = scattered(100000, -20, 20, 0.0, 11);
    for (std::size_t i = 0; i < terms.size(); i += 7) terms[i] = i % 2 ? 0.0f : -0.0f;
    expect_same_bits(terms, "with zeros");
    expect_same_bits(std::vector<float>(5000, 0.0f), "zeros");
    expect_same_bits(std::vector<float>(5000, -0.0f), "negative zeros");
    for (const float odd : {nan, inf, -inf}) {
        auto with = terms;
        with[70000] = odd;
        expect_same_bits(with, "one " + std::to_string(odd));
    }
    auto both = terms;
    both[3000] = inf;
    both[90000] = -inf;
    expect_same_bits(both, "inf then -inf");
    // Sums that reach FLT_MAX and overflow, then come back (they cannot: inf stays).
    std::vector<float> huge(20000);
    for (std::size_t i = 0; i < huge.size(); ++i) huge[i] = i % 5 == 4 ? -big : big / 3;
    expect_same_bits(huge, "overflowing");
    // Subnormal terms and sums (binades below the Grids' range are added serially).
    const auto tiny = scattered(50000, -149, -120, 0.0, 12);
    expect_same_bits(tiny, "subnormal");
}

// A sum that oscillates around a power of two and around zero.
TEST(OrderedSumFloat, SumsThatBounceAcrossBoundaries) {
    std::vector<float> terms;
    for (int i = 0; i < 50000; ++i) terms.push_back(i % 2 ? -1.0000001f : 1.0000002f);
    expect_same_bits(terms, "around zero");
    terms.assign(1, 4096.0f - 0.3f);
    for (int i = 0; i < 50000; ++i) terms.push_back(i % 2 ? -0.7f : 0.70001f);
    expect_same_bits(terms, "around 4096");
}

// lane_grid's one-track shortcut against the composition term by term, field for field, on float
// lanes of up to 8 terms: ordinary terms, ties, terms too large for the grid, NaN, infinities,
// zeros, empty lanes and no binade.
TEST(OrderedSumFloat, LaneGridEqualsTheTermByTermComposition) {
    std::mt19937_64 rng(6);
    std::uniform_real_distribution<double> unit(0, 1);
    std::uniform_int_distribution<int> exponents(-126, 126);
    const auto pick = [&](int e) {
        const double r = unit(rng);
        if (r < 0.15) return float(std::ldexp(std::floor(unit(rng) * 1e6) + 0.5, e - 23));  // tie
        if (r < 0.2) return float(std::ldexp(unit(rng), e + 3));  // > 2^25 u
        if (r < 0.25)
            return float(std::ldexp(1.0 - unit(rng) * 1e-3, e + 2) * (r < 0.225 ? 1 : -1));
        if (r < 0.26) return std::numeric_limits<float>::quiet_NaN();
        if (r < 0.27) return std::numeric_limits<float>::infinity();
        if (r < 0.3) return r < 0.285 ? 0.0f : -0.0f;
        return float((unit(rng) - 0.3) * std::ldexp(1.0, e) + std::ldexp(unit(rng), e - 23));
    };
    int tie_lanes = 0, invalid_lanes = 0;
    for (int lane = 0; lane < 200000; ++lane) {
        const int e = lane % 50 == 0 ? no_exponent : exponents(rng);
        std::vector<float> terms(std::size_t(lane % 9));
        for (float& t : terms) t = pick(e == no_exponent ? 0 : e);
        const auto term = [&](long long i) { return terms[std::size_t(i)]; };
        const long long n = (long long)terms.size();
        const Grid fast = lane_grid(term, 0, n, e);
        const Grid composed = composed_lane_grid(term, 0, n, e);
        ASSERT_TRUE(same_grid(fast, composed)) << "lane " << lane;
        tie_lanes += composed.state == valid && composed.step[0] != composed.step[1];
        invalid_lanes += composed.state == invalid;
    }
    EXPECT_GT(tie_lanes, 1000);  // the draws reach both paths
    EXPECT_GT(invalid_lanes, 1000);
}

// The format's limits: binade_of and apply at the ends of the float range Grids may use.
TEST(OrderedSumFloat, BinadesAtTheEndsOfTheRange) {
    EXPECT_EQ(binade_of(1.0f), 0);
    EXPECT_EQ(binade_of(-3.0f), 1);
    EXPECT_EQ(binade_of(std::numeric_limits<float>::min()), -126);
    EXPECT_EQ(binade_of(std::numeric_limits<float>::denorm_min()), no_exponent);
    EXPECT_EQ(binade_of(0.0f), no_exponent);
    EXPECT_EQ(binade_of(std::ldexp(1.0f, 126)), 126);
    EXPECT_EQ(binade_of(std::ldexp(1.0f, 127)), no_exponent);
    EXPECT_EQ(binade_of(std::numeric_limits<float>::infinity()), no_exponent);
    // The sum of the largest and smallest binades' terms, through every level.
    for (int e : {-126, -100, 100, 126}) {
        std::vector<float> terms(5000);
        std::mt19937_64 rng(std::uint64_t(e + 1000));
        std::uniform_real_distribution<double> unit(0, 1);
        for (float& t : terms) t = float(std::ldexp(unit(rng), e - 12));
        expect_same_bits(terms, "binade 2^" + std::to_string(e));
    }
}

}  // namespace
}  // namespace vq::ordered
