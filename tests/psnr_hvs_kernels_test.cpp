// PSNR-HVS's variant table: every variant this CPU runs gives the scalar block math's 64 terms
// bit for bit, block by block, and the same plane accumulator, on adversarial planes at every
// supported depth, at sizes that leave every possible tail of a vector group.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "metrics/psnr_hvs/psnr_hvs_cpu_kernels.hpp"

namespace vq::psnr_hvs {
namespace {

template <typename Sample>
struct Plane {
    int width, height, stride;
    std::vector<Sample> samples;

    PlaneView<Sample> view() const { return {samples.data(), width, height, stride}; }
};

// A pattern by name, up to `max` (which may exceed the depth's range: samples are used as they
// are, spec §3).
int pattern_sample(const std::string& pattern, int max, std::mt19937& random, int x, int y) {
    if (pattern == "flat") return max / 3;
    if (pattern == "zero") return 0;
    if (pattern == "max") return max;
    if (pattern == "checker") return (x + y) % 2 ? max : 0;
    if (pattern == "ramp") return (7 * x + 13 * y) % (max + 1);
    if (pattern == "quiet") return max / 2 + int(random() % 5) - 2;
    return int(random() % std::uint32_t(max + 1));  // noise
}

// The distorted plane: the reference changed in one of spec §0's ways.
int distort(const std::string& how, int sample, int max, std::mt19937& random, int x, int y) {
    if (how == "same") return sample;
    if (how == "one") return x == 9 && y == 3 ? max - sample : sample;
    if (how == "invert") return max - sample;
    if (how == "small") return std::clamp(sample + int(random() % 7) - 3, 0, max);
    return int(random() % std::uint32_t(max + 1));  // unrelated
}

template <typename Sample>
std::pair<Plane<Sample>, Plane<Sample>> planes(int width, int height, int padding, int max,
                                               const std::string& pattern, const std::string& how,
                                               std::uint32_t seed) {
    std::mt19937 random(seed);
    Plane<Sample> reference{width, height, width + padding, {}}, distorted = reference;
    // The last row holds only `width` samples, so a read past the plane's end is past the buffer.
    reference.samples.resize(std::size_t(reference.stride) * (height - 1) + width);
    distorted.samples.resize(reference.samples.size());
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            const int sample = pattern_sample(pattern, max, random, x, y);
            reference.samples[std::size_t(y) * reference.stride + x] = Sample(sample);
            distorted.samples[std::size_t(y) * reference.stride + x] =
                Sample(distort(how, sample, max, random, x, y));
        }
    return {std::move(reference), std::move(distorted)};
}

template <typename Sample>
void expect_variants_agree(const Plane<Sample>& reference, const Plane<Sample>& distorted,
                           int plane, const std::string& what) {
    const auto variants = available_kernels();
    const Kernels& scalar = variants.back();
    ASSERT_EQ(scalar.lanes, 1);
    const PlaneTables& tables = plane_tables(plane);
    const int columns = block_count(reference.width), rows = block_count(reference.height);
    std::vector<float> expected(scalar.row_terms_size(columns));
    const float expected_sum = plane_error_sum(scalar, reference.view(), distorted.view(), tables);
    for (const Kernels& variant : variants.first(variants.size() - 1)) {
        std::vector<float> terms(variant.row_terms_size(columns));
        int mismatches = 0;
        for (int row = 0; row < rows; ++row) {
            scalar.row_terms(reference.view(), distorted.view(), row * block_step, tables,
                             expected.data());
            variant.row_terms(reference.view(), distorted.view(), row * block_step, tables,
                              terms.data());
            for (int k = 0; k < columns; ++k)
                for (int i = 0; i < 64; ++i) {
                    const float want = scalar.row_term(expected.data(), k, i);
                    const float got = variant.row_term(terms.data(), k, i);
                    if (std::bit_cast<std::uint32_t>(got) != std::bit_cast<std::uint32_t>(want) &&
                        ++mismatches <= 5)
                        ADD_FAILURE() << variant.instruction_set << " " << what << ": block row "
                                      << row << " block " << k << " term " << i << ": " << got
                                      << ", scalar " << want;
                }
        }
        EXPECT_EQ(mismatches, 0) << variant.instruction_set << " " << what;
        EXPECT_EQ(std::bit_cast<std::uint32_t>(
                      plane_error_sum(variant, reference.view(), distorted.view(), tables)),
                  std::bit_cast<std::uint32_t>(expected_sum))
            << variant.instruction_set << " " << what;
    }
}

TEST(PsnrHvsKernels, ListsScalarLast) {
    const auto variants = available_kernels();
    ASSERT_FALSE(variants.empty());
    EXPECT_EQ(std::string(variants.back().instruction_set), "baseline");
    for (const Kernels& variant : variants)
        EXPECT_EQ(variant.row_terms_size(17) % std::size_t(64 * variant.lanes), 0u);
}

// Widths give 1..18 blocks a row (every tail of 8- and 16-lane groups) and both remainders.
TEST(PsnrHvsKernels, EveryVariantMatchesTheScalarMath) {
    const int widths[] = {8, 14, 15, 22, 29, 57, 64, 64 + 7, 113, 120, 127};
    const char* const patterns[] = {"noise", "quiet", "ramp", "checker", "flat", "zero", "max"};
    const char* const distortions[] = {"small", "same", "one", "invert", "unrelated"};
    std::uint32_t seed = 1;
    for (const int width : widths)
        for (const char* pattern : patterns)
            for (const char* how : distortions) {
                const int height = 8 + int(seed % 17);
                const int padding = int(seed % 3);
                const int plane = int(seed % 3);
                const std::string what = std::to_string(width) + "x" + std::to_string(height) +
                                         " " + pattern + "/" + how;
                const auto [r8, d8] =
                    planes<std::uint8_t>(width, height, padding, 255, pattern, how, seed++);
                expect_variants_agree(r8, d8, plane, what + " 8-bit");
                for (const int max : {1023, 4095}) {
                    const auto [r16, d16] =
                        planes<std::uint16_t>(width, height, padding, max, pattern, how, seed++);
                    expect_variants_agree(r16, d16, plane, what + " max " + std::to_string(max));
                }
            }
}

// Samples beyond the contract (2^14 and more, which overflow the reference's 32-bit DCT) give
// the same deterministic terms on every variant.
TEST(PsnrHvsKernels, OutOfRangeSamplesAgreeToo) {
    for (const char* pattern : {"noise", "max", "checker"}) {
        const auto [reference, distorted] =
            planes<std::uint16_t>(57, 22, 1, 65535, pattern, "unrelated", 99);
        expect_variants_agree(reference, distorted, 0, std::string("65535 ") + pattern);
    }
}

}  // namespace
}  // namespace vq::psnr_hvs
