// The CUDA twin's top-k mean from an exact fixed-point sum (host arithmetic, runs without a GPU):
// it must be the correctly rounded quotient, which equals the CPU twin's double arithmetic
// whenever the sum itself is exact in double (§15.3).
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "cambi_cuda_test_support.hpp"
#include "metrics/cambi/cambi_cuda_pipeline.hpp"

namespace vq::cambi::test {
namespace {

using ::vq::test::ulp_distance;
using u128 = unsigned __int128;

// |sum·2^-24/k - d| compared exactly for the neighbours of d: d must be the nearest, ties to the
// even significand.
void expect_correctly_rounded(u128 sum, std::uint64_t k, double d) {
    ASSERT_TRUE(std::isfinite(d) && d > 0);
    int exponent = 0;
    const double fraction =
        std::frexp(d, &exponent);  // d = fraction · 2^exponent, fraction in [0.5, 1)
    const auto significand = std::uint64_t(std::ldexp(fraction, 53));
    // d = significand · 2^(exponent-53); compare sum/(k·2^24) with (significand ± 1/2) ·
    // 2^(exponent-53) as integers: 2·sum·2^s vs (2·significand ± 1)·k·2^t with all exponents made
    // non-negative.
    const int scale = exponent - 53 + 24;  // d·k·2^24 = significand·k·2^scale
    const auto compare =
        [&](std::int64_t twice_significand) {  // sign of 2·sum - twice_sig·k·2^scale
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

// Where the reference's double sum is not exact (§15.3: small values among the k largest of a
// large sum, as in a 4K 8-bit banded encode), the CPU twin sums in the reference's quick-select
// order and the CUDA twin rounds the exact sum once. The difference is the reference's own
// rounding error, which grows with the number of terms: it must stay within the error bound of
// a sequential double sum, (k - 1)·2^-53 relative (plus one rounding for the division). Random
// values make it a random walk: hundreds of ulp here, against 2..8 ulp measured on real content
// (spec §15.3).
TEST(CudaCambiExactMean, DiffersFromTheReferenceOrderOnlyByItsRoundingError) {
    std::mt19937 rng(3);
    std::uint64_t largest = 0;
    int inexact = 0;
    constexpr int trials = 6;
    for (int trial = 0; trial < trials; ++trial) {
        // A 4K scale-0 plane: half large c-values, a third small ones (0.5 .. 3), the rest zero.
        std::vector<float> c(3840 * 2160);
        std::uniform_real_distribution<float> large(500.0f, 9000.0f), small(0.5f, 3.0f);
        for (float& v : c) {
            const unsigned kind = rng() % 6;
            v = kind < 3 ? large(rng) : kind < 5 ? small(rng) : 0.0f;
        }
        const std::size_t k = top_k_count(c.size(), 0.6);
        std::vector<float> sorted = c;
        std::nth_element(sorted.begin(), sorted.begin() + std::ptrdiff_t(k - 1), sorted.end(),
                         std::greater<float>());
        u128 sum = 0;
        for (std::size_t i = 0; i < k; ++i) sum += u128(std::uint64_t(double(sorted[i]) * 0x1p24));
        const double exact = exact_top_k_mean(sum, k);
        const double reference_order = top_k_mean(c, 0.6);
        inexact += exact != reference_order;
        largest = std::max(largest, ulp_distance(exact, reference_order));
        EXPECT_LE(std::abs(exact - reference_order), double(k) * 0x1p-53 * exact + 0x1p-52 * exact);
    }
    std::printf(
        "exact vs reference-order top-k means: %d of %d differ, largest difference %llu ulp\n",
        inexact, trials, (unsigned long long)largest);
    EXPECT_GT(inexact, 0) << "the case is meant to make the reference's sum inexact";
}

}  // namespace
}  // namespace vq::cambi::test
