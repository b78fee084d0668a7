// The SSIM CUDA twin's ordered sums (metrics/toolkit/ordered_sum.hpp, double) on the host, built
// and walked as the device does (ordered_sum_test_support.hpp), against the CPU twin's plain serial
// double sum, bit for bit, on terms made to break it: sums crossing powers of two and zero, ties
// on the grid, tiny and huge terms, NaN, and approximate running sums that are wrong.
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "ordered_sum_test_support.hpp"

namespace vq::ordered {
namespace {

TEST(SsimOrderedSum, LuminanceAndContrastLikeTerms) {
    std::mt19937_64 rng(1);
    std::uniform_real_distribution<double> near_one(0.9, 1.0000001);
    for (std::size_t n : {1u, 255u, 256u, 257u, 8191u, 8192u, 8193u, 300000u}) {
        std::vector<double> terms(n);
        for (double& t : terms) t = near_one(rng);
        expect_same_bits(terms, "near one, " + std::to_string(n));
    }
}

// The point of the scheme: with a good guess only the chunks where the sum crosses a power of two
// are added serially (here from 0 to about 2^18: some 18 chunks of 256 terms).
TEST(SsimOrderedSum, AddsFewTermsSerially) {
    std::mt19937_64 rng(5);
    std::uniform_real_distribution<double> near_one(0.9, 1.0);
    std::vector<double> terms(300000);
    for (double& t : terms) t = near_one(rng);
    for (bool as_warp : {false, true}) {
        long long serial = 0;
        const double sum = ordered_sum(
            terms, [](double s) { return s * (1 + 1e-12); }, as_warp, &serial);
        EXPECT_EQ(bits_of(sum), bits_of(serial_sum(terms)));
        EXPECT_LT(serial, 30 * chunk_terms);
        EXPECT_GT(serial, 0);
    }
}

TEST(SsimOrderedSum, StructureLikeTermsOfBothSigns) {
    std::mt19937_64 rng(2);
    std::uniform_real_distribution<double> any(-1, 1);
    for (double bias : {0.0, 0.01, -0.02, 0.5}) {
        std::vector<double> terms(200000);
        for (double& t : terms) t = double(float(any(rng) + bias));
        expect_same_bits(terms, "signed floats, bias " + std::to_string(bias));
    }
}

// Terms on a coarse grid make many sums exact and many additions exact ties of the sum's grid.
TEST(SsimOrderedSum, TiesOnTheGrid) {
    std::mt19937_64 rng(3);
    for (int shift : {-60, -52, -40, -30, -20}) {
        std::uniform_int_distribution<long long> units(-(1LL << 20), 1LL << 22);
        std::vector<double> terms(120000);
        for (double& t : terms) t = std::ldexp(double(units(rng)) + 0.5, shift + 20);
        expect_same_bits(terms, "grid 2^" + std::to_string(shift));
        for (double& t : terms) t = std::ldexp(double(units(rng) | 1), -1) * 3;
        expect_same_bits(terms, "odd halves");
    }
}

TEST(SsimOrderedSum, MixedMagnitudesZeroAndNaN) {
    std::mt19937_64 rng(4);
    std::uniform_real_distribution<double> unit(0, 1);
    std::vector<double> terms(100000);
    for (double& t : terms) {
        const double r = unit(rng);
        t = r < 0.1 ? 0.0 : r < 0.2 ? -0.0 : r < 0.3 ? 1e-300 : r < 0.35 ? -1e5 : r < 0.4 ? 1e5 : r;
    }
    expect_same_bits(terms, "mixed");
    std::vector<double> zeros(5000, 0.0);
    expect_same_bits(zeros, "zeros");
    std::vector<double> negative_zeros(5000, -0.0);
    expect_same_bits(negative_zeros, "negative zeros");
    terms[70000] = std::numeric_limits<double>::quiet_NaN();
    expect_same_bits(terms, "NaN");
    terms[70000] = std::numeric_limits<double>::infinity();
    expect_same_bits(terms, "infinity");
}

// lane_grid's one-track shortcut against the composition term by term, field for field, on lanes
// of up to 8 terms: ordinary terms, ties (the fallback), terms too large for the grid, NaN, sums
// that leave the checks' range, empty lanes and no binade.
TEST(SsimOrderedSum, LaneGridEqualsTheTermByTermComposition) {
    std::mt19937_64 rng(6);
    std::uniform_real_distribution<double> unit(0, 1);
    std::uniform_int_distribution<int> exponents(-30, 30);
    const auto pick = [&](int e) {
        const double r = unit(rng);
        const double u = std::ldexp(1.0, e - 52);  // the grid's spacing
        if (r < 0.15) return std::ldexp(std::floor(unit(rng) * 1e6) + 0.5, e - 52);  // a tie
        if (r < 0.2) return std::ldexp(unit(rng), e + 3);                            // > 2^54 u
        if (r < 0.25) return std::ldexp(1.0 - unit(rng) * 1e-3, e + 2) * (r < 0.225 ? 1 : -1);
        if (r < 0.27) return std::numeric_limits<double>::quiet_NaN();
        if (r < 0.3) return r < 0.285 ? 0.0 : -0.0;
        return (unit(rng) - 0.3) * std::ldexp(1.0, e) + u * unit(rng);
    };
    int tie_lanes = 0, invalid_lanes = 0;
    for (int lane = 0; lane < 200000; ++lane) {
        const int e = lane % 50 == 0 ? no_exponent : exponents(rng);
        std::vector<double> terms(std::size_t(lane % 9));
        for (double& t : terms) t = pick(e == no_exponent ? 0 : e);
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

// A sum that oscillates around a power of two and around zero.
TEST(SsimOrderedSum, SumsThatBounceAcrossBoundaries) {
    std::vector<double> terms;
    for (int i = 0; i < 50000; ++i) terms.push_back(i % 2 ? -1.0000001 : 1.0000002);
    expect_same_bits(terms, "around zero");
    terms.assign(1, 4096.0 - 0.3);
    for (int i = 0; i < 50000; ++i) terms.push_back(i % 2 ? -0.7 : 0.70000001);
    expect_same_bits(terms, "around 4096");
}

}  // namespace
}  // namespace vq::ordered
