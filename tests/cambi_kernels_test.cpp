// The CPU twin's per-pixel loops (cambi_cpu_kernels.hpp), every instruction-set variant the
// machine runs against the baseline one, bit for bit (in the spirit of dav1d's checkasm): banded
// planes with long runs, grainy ones with short runs and a sparse mask, and odd sizes.
#include <cstdint>
#include <ostream>
#include <random>
#include <string>
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

INSTANTIATE_TEST_SUITE_P(EveryVariant, CambiKernels,
                         ::testing::ValuesIn(available_kernels().begin(),
                                             available_kernels().end()),
                         [](const auto& info) { return std::string(info.param.instruction_set); });

}  // namespace
}  // namespace test
}  // namespace vq::cambi
