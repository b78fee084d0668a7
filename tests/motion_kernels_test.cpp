// Motion's CPU kernels: every variant this CPU runs gives the SAD of a 64-bit transcription of
// spec/vmaf.md §3.2 (the kernels keep 32-bit lanes by splitting the horizontal sum; this checks
// the split where it is tightest: the extremes against each other, at every depth to 16 bits).
#include <cstdlib>
#include <vector>

#include <gtest/gtest.h>

#include "metrics/motion/motion.hpp"
#include "metrics/motion/motion_cpu_kernels.hpp"
#include "support/pictures.hpp"

namespace vq::test {
namespace {

int mirror(int i, int n) { return i < 0 ? -i : i >= n ? 2 * n - 2 - i : i; }

// Spec §3.2 as written: both blur passes in 64-bit integers, sample by sample.
std::uint64_t spec_sad(const Picture& previous, const Picture& current) {
    const int w = current.format().width, h = current.format().height;
    const int shift = current.format().bit_depth;
    std::vector<std::int64_t> y(std::size_t(w) * h);
    for (int i = 0; i < h; ++i)
        for (int j = 0; j < w; ++j) {
            std::int64_t a = 0;
            for (int k = 0; k < 5; ++k) {
                const int r = mirror(i - motion::blur_radius + k, h);
                a += motion::blur_taps[k] *
                     std::int64_t(sample_at(previous, 0, r, j) - sample_at(current, 0, r, j));
            }
            y[std::size_t(i) * w + j] = (a + (std::int64_t(1) << (shift - 1))) >> shift;
        }
    std::uint64_t total = 0;
    for (int i = 0; i < h; ++i)
        for (int j = 0; j < w; ++j) {
            std::int64_t b = 0;
            for (int k = 0; k < 5; ++k)
                b += motion::blur_taps[k] *
                     y[std::size_t(i) * w + mirror(j - motion::blur_radius + k, w)];
            total += std::uint64_t(std::llabs((b + 32768) >> 16));
        }
    return total;
}

TEST(MotionKernels, EveryVariantListedBaselineLast) {
    ASSERT_FALSE(motion::available_kernels().empty());
    EXPECT_STREQ(motion::available_kernels().back().instruction_set, "baseline");
    for (const auto& k : motion::available_kernels())
        std::printf("[ motion ] variant %s\n", k.instruction_set);
}

TEST(MotionKernels, EveryVariantGivesTheSpecSad) {
    const std::pair<Content, Content> contents[] = {
        {Content::maxima, Content::zeros},  // the largest blurred values, both signs
        {Content::zeros, Content::maxima},
        {Content::extremes, Content::noise},
        {Content::noise, Content::noise},
        {Content::texture, Content::ramp},
        {Content::flat, Content::flat},  // zero rows: the early exit
    };
    for (const motion::Kernels& kernels : motion::available_kernels())
        for (int depth : {8, 10, 12, 15, 16})
            for (auto [width, height] : {std::pair{3, 3}, {5, 7}, {37, 9}, {130, 6}})
                for (auto [previous_content, current_content] : contents) {
                    const VideoFormat format{width, height, depth, ChromaFormat::yuv400};
                    const Picture previous = make_picture(format, previous_content, 1);
                    const Picture current = make_picture(format, current_content, 2);
                    EXPECT_EQ(motion::blurred_difference_sad(previous, current, kernels),
                              spec_sad(previous, current))
                        << kernels.instruction_set << " " << describe(format) << " "
                        << to_string(previous_content) << " - " << to_string(current_content);
                }
}

}  // namespace
}  // namespace vq::test
