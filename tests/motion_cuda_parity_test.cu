// Motion twins: the CUDA twin keeps earlier reference planes on the device and must give the CPU
// twin's bits (integer SAD, spec/vmaf.md §3.2) at every depth, layout and odd size, with the
// five-frame window, under --subsample and on the spec's example sequence.
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cuda_test_support.hpp"
#include "support/compare.hpp"
#include "support/pictures.hpp"
#include "twin_parity.hpp"
#include "vmaf_example_frames.hpp"
#include "vq/session.hpp"

namespace vq::test {
namespace {

ScoreTable score(Backend backend, const std::string& request, const std::vector<FramePair>& frames,
                 std::size_t subsample = 1) {
    return score_on(backend, {request}, frames, subsample);
}

class MotionCudaParity : public testing::TestWithParam<TwinCase> {};

TEST_P(MotionCudaParity, MatchesTheCpuTwinBitForBit) {
    VQ_REQUIRE_CUDA();
    const TwinCase& c = GetParam();
    const auto frames = adversarial_frames(c.format, 9, 17);
    const std::string what = describe_case(c.format, c.request);
    expect_same_bits(score(Backend::cpu, c.request, frames),
                     score(Backend::cuda, c.request, frames), what);
    expect_same_bits(score(Backend::cpu, c.request, frames, 3),
                     score(Backend::cuda, c.request, frames, 3), what + " --subsample 3");
}

INSTANTIATE_TEST_SUITE_P(
    Layouts, MotionCudaParity,
    testing::Values(TwinCase{{64, 48, 8, ChromaFormat::yuv420}, "motion"},
                    TwinCase{{1920, 1080, 8, ChromaFormat::yuv420}, "motion"},
                    TwinCase{{641, 359, 10, ChromaFormat::yuv420}, "motion"},
                    TwinCase{{333, 17, 12, ChromaFormat::yuv422}, "motion"},
                    TwinCase{{3, 3, 16, ChromaFormat::yuv444}, "motion"},
                    TwinCase{{257, 255, 8, ChromaFormat::yuv400},
                             "motion=motion_five_frame_window=true:motion_moving_average=true"},
                    TwinCase{{320, 240, 10, ChromaFormat::yuv420},
                             "motion=debug=true:motion_fps_weight=2:motion_max_val=3"},
                    // Tiles of 252 columns by 16 rows: one column into a third tile, three rows.
                    TwinCase{{505, 3, 8, ChromaFormat::yuv420}, "motion"}),
    [](const auto& info) {
        return format_name(info.param.format) + "_" + std::to_string(info.index);
    });

TEST(MotionCudaExample, SpecSequence) {  // spec/vmaf.md §9.4 on the device
    VQ_REQUIRE_CUDA();
    for (int depth : {8, 10}) {
        std::vector<FramePair> frames;
        for (int t = 0; t < 3; ++t)
            frames.push_back(
                {vmaf_example_frame(t, false, depth), vmaf_example_frame(t, true, depth)});
        const ScoreTable gpu = score(Backend::cuda, "motion", frames);
        expect_same_bits(score(Backend::cpu, "motion", frames), gpu,
                         std::to_string(depth) + "-bit example");
        EXPECT_EQ(gpu.value(*gpu.find("integer_motion2"), 1),
                  depth == 8 ? 2.7987470626831055 : 2.7993860244750977);
    }
}

}  // namespace
}  // namespace vq::test
