// The CUDA twin's top-k mean from an exact fixed-point sum (host arithmetic, runs without a GPU):
// it must be the correctly rounded quotient, which equals the CPU twin's double arithmetic
// whenever the sum itself is exact in double (§15.3).
#include <bit>
#include <cmath>
#include <cstdint>
#include <random>

#include <gtest/gtest.h>

#include "metrics/cambi/cambi_cuda_pipeline.hpp"

namespace vq::cambi::test {
namespace {

using u128 = unsigned __int128;

// |sum·2^-24/k - d| compared exactly for the neighbours of d: d must be the nearest, ties to the
// even significand.
void expect_correctly_rounded(u128 sum, std::uint64_t k, double d) {
    ASSERT_TRUE(std::isfinite(d) && d > 0);
    int exponent = 0;
    const double fraction = std::frexp(d, &exponent);  // d = fraction · 2^exponent, fraction in [0.5, 1)
    const auto significand = std::uint64_t(std::ldexp(fraction, 53));
    // d = significand · 2^(exponent-53); compare sum/(k·2^24) with (significand ± 1/2) · 2^(exponent-53)
    // as integers: 2·sum·2^s vs (2·significand ± 1)·k·2^t with all exponents made non-negative.
    const int scale = exponent - 53 + 24;  // d·k·2^24 = significand·k·2^scale
    const auto compare = [&](std::int64_t twice_significand) {  // sign of 2·sum - twice_sig·k·2^scale
        const u128 left = scale >= 0 ? 2 * sum : (2 * sum) << -scale;
        const u128 right = scale >= 0 ? (u128(std::uint64_t(twice_significand)) * k) << scale
                                      : u128(std::uint64_t(twice_significand)) * k;
        return left < right ? -1 : left > right ? 1 : 0;
    };
    const int below = compare(std::int64_t(2 * significand - 1));  // must be >= 0
    const int above = compare(std::int64_t(2 * significand + 1));  // must be <= 0
    EXPECT_GE(below, 0) << "sum/k is closer to the next double down";
    EXPECT_LE(above, 0) << "sum/k is closer to the next double up";
    if (below == 0) EXPECT_EQ(significand % 2, 0u) << "a tie must round to even";
    if (above == 0) EXPECT_EQ(significand % 2, 0u) << "a tie must round to even";
}

TEST(CudaCambiExactMean, SmallExactValues) {
    EXPECT_EQ(exact_top_k_mean(0, 7), 0.0);
    EXPECT_EQ(exact_top_k_mean(u128(3) << 24, 2), 1.5);
    EXPECT_EQ(exact_top_k_mean(u128(1) << 23, 1), 0.5);
    EXPECT_EQ(exact_top_k_mean(u128(6) << 24, 3), 2.0);
}

// Sums that are exact in double: one division, as the CPU twin does it.
TEST(CudaCambiExactMean, MatchesDoubleDivisionWhenTheSumIsExact) {
    std::mt19937_64 rng(1);
    for (int t = 0; t < 200000; ++t) {
        const std::uint64_t sum = rng() >> (11 + rng() % 40);  // below 2^53
        const std::uint64_t k = 1 + rng() % (std::uint64_t(1) << (1 + rng() % 26));
        EXPECT_EQ(exact_top_k_mean(sum, k), double(sum) * 0x1p-24 / double(k)) << sum << " / " << k;
    }
}

// Sums beyond 2^53 (where the CPU twin falls back to the reference's summation order) and beyond
// 2^64: the quotient is still rounded once.
TEST(CudaCambiExactMean, RoundsLargeSumsOnce) {
    std::mt19937_64 rng(2);
    for (int t = 0; t < 200000; ++t) {
        const u128 sum = (u128(rng() >> (rng() % 64)) << (rng() % 40)) | 1;
        const std::uint64_t k = 1 + rng() % (std::uint64_t(1) << (1 + rng() % 32));
        expect_correctly_rounded(sum, k, exact_top_k_mean(sum, k));
        if (HasFailure()) return;
    }
}

TEST(CudaCambiExactMean, TiesRoundToEven) {
    // 2^53 + 1 (exactly between two doubles) and 2^53 + 3, times 2^24, over k = 1.
    EXPECT_EQ(exact_top_k_mean((u128(1) << 77) + (u128(1) << 24), 1), 0x1p53);
    EXPECT_EQ(exact_top_k_mean((u128(1) << 77) + (u128(3) << 24), 1), 0x1p53 + 4);
}

}  // namespace
}  // namespace vq::cambi::test
