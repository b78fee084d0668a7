// VIF twins: the CUDA twin's pyramid and statistics must give the CPU twin's integer accumulators,
// hence the same bits, at every depth, layout, odd size and option, and on the fixtures.
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include "cuda_test_support.hpp"
#include "support/compare.hpp"
#include "support/golden_cases.hpp"
#include "support/pictures.hpp"
#include "test_support.hpp"
#include "twin_parity.hpp"
#include "vmaf_example_frames.hpp"

namespace vq::test {
namespace {

class VifCudaParity : public testing::TestWithParam<TwinCase> {};

TEST_P(VifCudaParity, MatchesTheCpuTwinBitForBit) {
    VQ_REQUIRE_CUDA();
    const TwinCase& c = GetParam();
    const auto frames = adversarial_frames(c.format, 6, 29);
    expect_same_bits(score_on(Backend::cpu, {c.request}, frames),
                     score_on(Backend::cuda, {c.request}, frames),
                     describe_case(c.format, c.request));
}

INSTANTIATE_TEST_SUITE_P(
    Layouts, VifCudaParity,
    testing::Values(TwinCase{{16, 16, 8, ChromaFormat::yuv420}, "vif"},
                    TwinCase{{17, 18, 10, ChromaFormat::yuv420}, "vif=debug=true"},
                    TwinCase{{64, 64, 8, ChromaFormat::yuv444}, "vif=vif_enhn_gain_limit=1"},
                    TwinCase{{641, 359, 8, ChromaFormat::yuv420}, "vif"},
                    TwinCase{{333, 47, 12, ChromaFormat::yuv422},
                             "vif=vif_skip_scale0=true:debug=true"},
                    TwinCase{{1920, 1080, 10, ChromaFormat::yuv420}, "vif"},
                    TwinCase{{257, 129, 16, ChromaFormat::yuv400}, "vif=vif_enhn_gain_limit=1.5"},
                    // The statistics tiles are 240 (scale 0) to 252 (scale 3) columns by 8 rows:
                    // a frame one column wider than a scale-0 tile, one whose every scale ends
                    // in a partial tile both ways, and 8-bit 1080p (32-bit vertical sums).
                    TwinCase{{241, 17, 8, ChromaFormat::yuv420}, "vif"},
                    TwinCase{{1000, 613, 8, ChromaFormat::yuv420}, "vif"},
                    TwinCase{{1920, 1080, 8, ChromaFormat::yuv420}, "vif"}),
    [](const auto& info) {
        return format_name(info.param.format) + "_" + std::to_string(info.index);
    });

TEST(VifCudaExample, SpecSequenceAndOddSize) {  // spec/vmaf.md §9.1-§9.6 frames on the device
    VQ_REQUIRE_CUDA();
    for (const auto& [depth, width, height] :
         {std::tuple{8, 64, 64}, std::tuple{10, 64, 64}, std::tuple{8, 37, 29}}) {
        std::vector<FramePair> frames;
        for (int t = 0; t < 3; ++t)
            frames.push_back({vmaf_example_frame(t, false, depth, width, height),
                              vmaf_example_frame(t, true, depth, width, height)});
        expect_same_bits(score_on(Backend::cpu, {"vif=debug=true"}, frames),
                         score_on(Backend::cuda, {"vif=debug=true"}, frames),
                         format_name(frames[0].reference.format()));
    }
}

class VifCudaGolden : public testing::TestWithParam<GoldenCase> {};

TEST_P(VifCudaGolden, EveryFrameBitExact) {
    VQ_REQUIRE_CUDA();
    VQ_REQUIRE_FIXTURES(fixtures);
    const GoldenCase& c = GetParam();
    expect_golden_outputs(
        score_on(Backend::cuda, {c.request}, fixture_frames(fixtures, c.fixture)), c,
        {"integer_vif_scale0", "integer_vif_scale1", "integer_vif_scale2", "integer_vif_scale3"});
}

INSTANTIATE_TEST_SUITE_P(Vif, VifCudaGolden, testing::ValuesIn(vif_golden_cases()),
                         golden_case_name);

}  // namespace
}  // namespace vq::test
