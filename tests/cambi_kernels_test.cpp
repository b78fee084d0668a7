// The CPU twin's per-pixel loops (cambi_cpu_kernels.hpp), every instruction-set variant the
// machine runs against the baseline one, bit for bit (in the spirit of dav1d's checkasm): banded
// planes with long runs, grainy ones with short runs and a sparse mask, and odd sizes.
#include <algorithm>
#include <cstdint>
#include <ostream>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "cambi_test_support.hpp"
#include "metrics/cambi/cambi_cpu_kernels.hpp"

namespace vq::cambi {

// gtest prints a variant by its name.
void PrintTo(const Kernels& kernels, std::ostream* out) { *out << kernels.instruction_set; }

namespace test {
namespace {

struct Plane {
    int width, height;
    std::vector<std::uint16_t> values;  // 10-bit codes
};

// A diagonal ramp in bands two codes apart, one pixel in `noise_period` nudged by ±1.
Plane banded_plane(int width, int height, unsigned noise_period, std::uint32_t seed) {
    std::mt19937 rng(seed);
    Plane plane{width, height,
                std::vector<std::uint16_t>(std::size_t(width) * std::size_t(height))};
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            const int band = (x + y / 2) * 60 / (width + height / 2);
            const unsigned slot = rng() % (2 * noise_period);
            plane.values[std::size_t(y) * std::size_t(width) + std::size_t(x)] =
                std::uint16_t(160 + 8 * band +
                              (slot == 0   ? 1
                               : slot == 1 ? -1
                                           : 0));
        }
    return plane;
}

std::vector<Plane> planes() {
    return {banded_plane(257, 145, 256, 1), banded_plane(257, 145, 4, 2),
            banded_plane(64, 33, 2, 3), banded_plane(7, 9, 3, 4)};
}

class CambiKernels : public ::testing::TestWithParam<Kernels> {};

TEST_P(CambiKernels, MatchTheBaselineBitForBit) {
    const Kernels& variant = GetParam();
    const Kernels& baseline = available_kernels().back();
    const ContrastParams contrast = default_contrast();
    for (const Plane& p : planes()) {
        const std::string where = std::to_string(p.width) + "x" + std::to_string(p.height);
        const std::size_t n = p.values.size();
        std::vector<std::uint8_t> mask(n), expected_mask(n);
        variant.spatial_mask(p.values.data(), p.width, p.height, 12, mask.data());
        baseline.spatial_mask(p.values.data(), p.width, p.height, 12, expected_mask.data());
        ASSERT_EQ(mask, expected_mask) << where << ": spatial_mask";

        std::vector<std::uint16_t> filtered = p.values, expected_filtered = p.values;
        variant.mode_filter(filtered.data(), p.width, p.height);
        baseline.mode_filter(expected_filtered.data(), p.width, p.height);
        ASSERT_EQ(filtered, expected_filtered) << where << ": mode_filter";

        for (const int window : {9, 17, 33}) {
            std::vector<float> c(n), expected_c(n);
            variant.c_values(filtered.data(), mask.data(), p.width, p.height, window, contrast,
                             c.data());
            baseline.c_values(filtered.data(), mask.data(), p.width, p.height, window, contrast,
                              expected_c.data());
            ASSERT_EQ(c, expected_c) << where << ": c_values, window " << window;

            for (const float above : {-1.0f, 0.5f, 3.0f}) {
                const PoolingSummary s = variant.summarise(c, above);
                const PoolingSummary e = baseline.summarise(c, above);
                EXPECT_EQ(s.nonzero, e.nonzero) << where << ": summarise";
                EXPECT_EQ(s.sum, e.sum) << where << ": summarise";
                EXPECT_EQ(s.smallest_nonzero, e.smallest_nonzero) << where << ": summarise";
            }
        }
    }
}

// Anti-dither sees every 10-bit code, so its planes are uniform noise over the whole range, with
// the extremes in a corner (sums of four at their largest, 4 x 1023).
TEST_P(CambiKernels, AntiDitherMatchesTheBaselineBitForBit) {
    const Kernels& variant = GetParam();
    const Kernels& baseline = available_kernels().back();
    std::mt19937 rng(5);
    for (const auto& [width, height] : {std::pair{1920, 4}, {257, 145}, {33, 2}, {1, 7}, {9, 1}}) {
        std::vector<std::uint16_t> plane(std::size_t(width) * std::size_t(height));
        for (auto& v : plane) v = std::uint16_t(rng() % 1024);
        std::fill(plane.begin(), plane.begin() + std::min<std::ptrdiff_t>(3, width), 1023);
        std::vector<std::uint16_t> expected = plane;
        variant.anti_dither(plane.data(), width, height);
        baseline.anti_dither(expected.data(), width, height);
        EXPECT_EQ(plane, expected) << width << "x" << height;
    }
}

INSTANTIATE_TEST_SUITE_P(EveryVariant, CambiKernels,
                         ::testing::ValuesIn(available_kernels().begin(),
                                             available_kernels().end()),
                         [](const auto& info) { return std::string(info.param.instruction_set); });

}  // namespace
}  // namespace test
}  // namespace vq::cambi
