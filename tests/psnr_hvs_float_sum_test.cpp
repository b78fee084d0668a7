// psnr_hvs_float_sum.hpp, the maths of the CUDA twin's reduction, on the host: one term's map
// equals the float addition wherever it claims to be valid (and is valid wherever the sum stays
// in the binade), maps compose associatively, and sums built from composed runs of any length,
// grouped in any tree, with a real float addition where a run leaves its binade, equal the serial
// float sum bit for bit on sequences made to stress ties, binade changes and tiny terms.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "metrics/psnr_hvs/psnr_hvs_float_sum.hpp"

namespace vq::psnr_hvs::float_sum {
namespace {

std::uint32_t bits_of(float value) { return std::bit_cast<std::uint32_t>(value); }
float float_of(std::uint32_t bits) { return std::bit_cast<float>(bits); }

// The binade's upper end 2^(e+1) (2^-125 for the subnormal range), as a double.
double grid_end(int grid) { return std::ldexp(1.0, grid - 126); }

// A float >= 0 spread over many binades, or with few significand bits (many ties), or special.
float random_term(std::mt19937& random, int kind) {
    std::uniform_real_distribution<float> unit(0.0f, 1.0f);
    std::uniform_int_distribution<int> exponent(-30, 30);
    switch (kind) {
        case 0: return std::ldexp(unit(random), exponent(random));
        case 1: return std::ldexp(float(random() % 64), exponent(random) / 4);  // ties galore
        case 2: return float(random() % 16) * 0.25f;
        case 3: {  // squares of (integer - threshold) · CSF, like real terms
            const float error = float(random() % 40) - unit(random) * 3.0f;
            const float weighted = std::max(error, 0.0f) * (0.1f + unit(random) * 2.5f);
            return weighted * weighted;
        }
        case 4: return random() % 10 == 0 ? std::ldexp(unit(random), 12) : 0.0f;
        default: return std::ldexp(float(random() % 8), -140);  // subnormal terms
    }
}

TEST(PsnrHvsFloatSum, OneTermIsTheFloatAddition) {
    std::mt19937 random(7);
    std::uint64_t valid = 0;
    for (int trial = 0; trial < 4000000; ++trial) {
        const float accumulator = trial % 97 == 0 ? 0.0f : random_term(random, trial % 6);
        const float term = random_term(random, (trial / 6) % 6);
        std::uint32_t bits = bits_of(accumulator);
        const int grid = grid_of(bits);
        const float sum = accumulator + term;
        if (apply(term_map(bits_of(term), grid), bits, grid)) {
            ++valid;
            ASSERT_EQ(bits, bits_of(sum)) << accumulator << " + " << term;
        } else {
            // Invalid only where the sum really leaves the grid (its binade).
            ASSERT_GE(double(sum), grid_end(grid)) << accumulator << " + " << term;
        }
    }
    EXPECT_GT(valid, 1000000u);
}

TEST(PsnrHvsFloatSum, SpecialTermsAreNeverComposed) {
    const std::uint32_t zero = bits_of(3.0f);
    for (const float term : {-1.0f, std::numeric_limits<float>::infinity(),
                             std::numeric_limits<float>::quiet_NaN(), -1e-40f}) {
        std::uint32_t bits = zero;
        EXPECT_FALSE(apply(term_map(bits_of(term), grid_of(bits)), bits, grid_of(bits))) << term;
    }
    std::uint32_t bits = zero;
    EXPECT_TRUE(apply(term_map(bits_of(-0.0f), grid_of(bits)), bits, grid_of(bits)));
    EXPECT_EQ(bits, zero);
    bits = bits_of(std::numeric_limits<float>::infinity());
    EXPECT_FALSE(apply(identity_map(), bits, grid_of(bits)));
}

TEST(PsnrHvsFloatSum, CompositionIsAssociative) {
    std::mt19937 random(11);
    for (int trial = 0; trial < 1000000; ++trial) {
        const int grid = 100 + int(random() % 60);
        Map maps[3];
        for (Map& map : maps) map = term_map(bits_of(random_term(random, int(random() % 6))), grid);
        const Map left = compose(compose(maps[0], maps[1]), maps[2]);
        const Map right = compose(maps[0], compose(maps[1], maps[2]));
        for (int p = 0; p < 2; ++p) ASSERT_EQ(left.d[p], right.d[p]) << trial;
    }
}

// A run's map built as a balanced tree (as a warp scan groups it) rather than left to right.
Map tree_map(const std::vector<float>& terms, std::size_t begin, std::size_t end, int grid) {
    if (end - begin == 1) return term_map(bits_of(terms[begin]), grid);
    const std::size_t middle = begin + (end - begin) / 2;
    return compose(tree_map(terms, begin, middle, grid), tree_map(terms, middle, end, grid));
}

// The sum in runs of `run` terms; a run that leaves its binade goes term by term, and a term
// that leaves it is added as a float (the CUDA walker's descent, on one level).
float composed_sum(const std::vector<float>& terms, std::size_t run) {
    std::uint32_t bits = 0;
    std::size_t i = 0;
    while (i < terms.size()) {
        const std::size_t end = std::min(terms.size(), i + run);
        if (apply(tree_map(terms, i, end, grid_of(bits)), bits, grid_of(bits))) {
            i = end;
            continue;
        }
        for (; i < end; ++i)
            if (!apply(term_map(bits_of(terms[i]), grid_of(bits)), bits, grid_of(bits)))
                bits = bits_of(float_of(bits) + terms[i]);
    }
    return float_of(bits);
}

TEST(PsnrHvsFloatSum, ComposedRunsGiveTheSerialSum) {
    std::mt19937 random(5);
    for (int kind = 0; kind < 6; ++kind)
        for (const std::size_t length : {1u, 63u, 1000u, 300000u}) {
            std::vector<float> terms(length);
            for (float& term : terms) term = random_term(random, kind);
            float serial = 0;
            for (const float term : terms) serial += term;
            for (const std::size_t run : {1u, 2u, 7u, 32u, 1024u, 65536u})
                ASSERT_EQ(bits_of(composed_sum(terms, run)), bits_of(serial))
                    << "kind " << kind << ", " << length << " terms, runs of " << run;
        }
}

}  // namespace
}  // namespace vq::psnr_hvs::float_sum
