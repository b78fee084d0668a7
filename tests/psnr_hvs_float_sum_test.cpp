// psnr_hvs_float_sum.hpp, the maths of the CUDA twin's reduction, on the host: one term's map
// equals the float addition wherever it claims to be valid (and is valid wherever the sum stays
// in the binade), maps compose associatively, and sums built from composed runs of any length,
// grouped in any tree, with a real float addition where a run leaves its binade, equal the serial
// float sum bit for bit on sequences made to stress ties, binade changes and tiny terms.
#include <algorithm>
#include <array>
#include <iostream>
#include <bit>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "metrics/psnr_hvs/psnr_hvs.hpp"
#include "metrics/psnr_hvs/psnr_hvs_cpu_kernels.hpp"
#include "metrics/psnr_hvs/psnr_hvs_cpu_tables.hpp"
#include "metrics/psnr_hvs/psnr_hvs_float_sum.hpp"
#include "support/pictures.hpp"

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

// A host model of the CUDA walker (psnr_hvs_cuda_sum.cu: first_grids, group_maps, walk), lane by
// lane, to check its descent and climbing logic on long sequences; it counts the warp steps per
// level (the walker's cost).
struct WalkerModel {
    static constexpr std::size_t group_terms = 1024;
    struct Group {
        int first_grid;
        Map maps[3];
    };
    std::array<std::size_t, 4> steps{};

    float sum(const std::vector<float>& terms) {
        const std::size_t count = terms.size(), groups = (count + group_terms - 1) / group_terms;
        std::vector<Group> group(groups);
        double prefix = 0;
        for (std::size_t g = 0; g < groups; ++g) {
            group[g].first_grid = std::max(grid_of(bits_of(float(prefix))) - 1, 1);
            for (std::size_t t = g * group_terms; t < std::min(count, (g + 1) * group_terms); ++t)
                prefix += terms[t];
            for (int q = 0; q < 3; ++q) {
                Map map = identity_map();
                for (std::size_t t = g * group_terms; t < std::min(count, (g + 1) * group_terms);
                     ++t)
                    map = compose(map, term_map(bits_of(terms[t]), group[g].first_grid + q));
                group[g].maps[q] = map;
            }
        }
        const auto group_map = [&](std::size_t g, int grid) {
            const int q = grid - group[g].first_grid;
            return q >= 0 && q < 3 ? group[g].maps[q] : invalid_map();
        };
        std::uint32_t bits = 0;
        std::size_t i = 0;
        int level = 3;
        while (i < count) {
            const int grid = grid_of(bits);
            if (grid == 255) break;
            if (level >= 2 && i % group_terms != 0) level = 1;
            ++steps[std::size_t(level)];
            Map lane_map[32];
            std::size_t begin[32], step_end;
            for (std::size_t lane = 0; lane < 32; ++lane) {
                lane_map[lane] = identity_map();
                if (level >= 2) {
                    const std::size_t per_lane = level == 3 ? 32 : 1;
                    const std::size_t first = i / group_terms + lane * per_lane;
                    for (std::size_t g = first; g < std::min(groups, first + per_lane); ++g)
                        lane_map[lane] = compose(lane_map[lane], group_map(g, grid));
                    begin[lane] = std::min(count, first * group_terms);
                    step_end = std::min(count, (i / group_terms + 32 * per_lane) * group_terms);
                } else {
                    const std::size_t per_lane = level == 1 ? 32 : 1;
                    const std::size_t group_end =
                        std::min(count, (i / group_terms + 1) * group_terms);
                    begin[lane] = std::min(group_end, i + lane * per_lane);
                    for (std::size_t t = begin[lane];
                         t < std::min(group_end, begin[lane] + per_lane); ++t)
                        lane_map[lane] = compose(lane_map[lane], term_map(bits_of(terms[t]), grid));
                    step_end = std::min(group_end, i + 32 * per_lane);
                }
            }
            const std::int32_t index = grid_index(bits, grid);
            Map prefix_map = identity_map();
            std::int32_t reached[32];
            int f = -1;
            for (int lane = 0; lane < 32; ++lane) {
                prefix_map = compose(prefix_map, lane_map[lane]);
                reached[lane] = index + prefix_map.d[index & 1];
                if (f < 0 && reached[lane] >= grid_limit) f = lane;
            }
            if (f < 0) {
                bits = accumulator_bits(grid, reached[31]);
                i = step_end;
                level = std::min(level + 1, 3);
                continue;
            }
            if (f > 0) bits = accumulator_bits(grid, reached[f - 1]);
            i = begin[f];
            if (level > 0) {
                --level;
                continue;
            }
            bits = bits_of(float_of(bits) + terms[i]);
            ++i;
            level = 1;
        }
        return float_of(bits);
    }
};

float serial_sum(const std::vector<float>& terms) {
    float sum = 0;
    for (const float term : terms) sum += term;
    return sum;
}

TEST(PsnrHvsFloatSum, WalkerModelGivesTheSerialSum) {
    std::mt19937 random(3);
    for (const std::size_t length : {64u, 1024u, 1088u, 33u * 1024u + 64u, 2000000u}) {
        for (int kind = 0; kind < 6; ++kind) {
            std::vector<float> terms(length);
            for (float& term : terms) term = random_term(random, kind);
            WalkerModel model;
            ASSERT_EQ(bits_of(model.sum(terms)), bits_of(serial_sum(terms)))
                << "kind " << kind << ", " << length << " terms";
        }
    }
}

// Real terms: the Y plane of a 4K frame (1.08e7 terms), through the CPU twin's block kernels.
TEST(PsnrHvsFloatSum, WalkerModelOnAFourKPlane) {
    const VideoFormat format{3840, 2160, 8, ChromaFormat::yuv420};
    const Picture reference = test::make_picture(format, test::Content::texture, 1);
    const Picture distorted = test::perturbed(reference, 3, 2);
    const Kernels& kernels = best_kernels();
    const auto ref = scored_plane<std::uint8_t>(reference, 0);
    const auto dist = scored_plane<std::uint8_t>(distorted, 0);
    const int columns = block_count(ref.width), rows = block_count(ref.height);
    std::vector<float> terms, row(kernels.row_terms_size(columns));
    for (int r = 0; r < rows; ++r) {
        kernels.row_terms(ref, dist, r * block_step, plane_tables(0), row.data());
        for (int k = 0; k < columns; ++k)
            for (int i = 0; i < 64; ++i) terms.push_back(kernels.row_term(row.data(), k, i));
    }
    WalkerModel model;
    const float sum = model.sum(terms);
    EXPECT_EQ(bits_of(sum), bits_of(plane_error_sum(kernels, ref, dist, plane_tables(0))));
    EXPECT_EQ(bits_of(sum), bits_of(serial_sum(terms)));
    // What another order would cost: the (nearly exact) double sum against the serial float sum.
    double in_double = 0;
    for (const float term : terms) in_double += term;
    std::cout << "sum in double " << in_double << ", serial float sum " << sum << ": "
              << 10 * std::log10(in_double / double(sum)) << " dB apart\n";
    std::cout << terms.size() << " terms, sum " << sum << ": walker steps per level (32 groups, "
              << "1 group, 32 terms, 1 term per lane): " << model.steps[3] << ", " << model.steps[2]
              << ", " << model.steps[1] << ", " << model.steps[0] << "\n";
}

}  // namespace
}  // namespace vq::psnr_hvs::float_sum
