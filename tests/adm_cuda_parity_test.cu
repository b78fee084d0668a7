// ADM twins: the CUDA twin must give the CPU twin's bits (both fill the same integer Block, the
// Scorer does the float tail) at every depth, layout, odd size down to the 33 x 33 minimum, for
// each CSF mode and the options the v1 models use; and ADM's golden table on the device.
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "adm_test_support.hpp"
#include "cuda_test_support.hpp"
#include "support/compare.hpp"
#include "support/golden_cases.hpp"
#include "support/pictures.hpp"
#include "test_support.hpp"
#include "twin_parity.hpp"

namespace vq::test {
namespace {

void expect_parity(const std::string& request, const std::vector<FramePair>& frames,
                   const std::string& what) {
    expect_same_bits(score_on(Backend::cpu, {request}, frames),
                     score_on(Backend::cuda, {request}, frames), what);
}

// The common ADM options of the v1.0.16 models (spec/vmaf-v1.md §2).
const std::string v1_models =
    "adm=adm_csf_mode=2:adm_dlm_weight=0.7:adm_enhn_gain_limit=1:adm_noise_weight=0.02:"
    "adm_min_val=0.5";

struct Case {
    VideoFormat format;
    std::string label;  // for the test name
    std::string request;
    int frames = 5;  // adversarial_frames cycles noise, identical, extremes, ramps
};

void PrintTo(const Case& c, std::ostream* out) {
    *out << describe_case(c.format, c.request) << ", " << c.frames << " frames";
}

class AdmCudaParity : public testing::TestWithParam<Case> {};

TEST_P(AdmCudaParity, MatchesTheCpuTwinBitForBit) {
    VQ_REQUIRE_CUDA();
    const Case& c = GetParam();
    const auto frames = adversarial_frames(c.format, c.frames,
                                           std::uint32_t(c.format.width * 7 + c.format.bit_depth));
    expect_parity(c.request, frames, describe_case(c.format, c.request));
}

INSTANTIATE_TEST_SUITE_P(
    Formats, AdmCudaParity,
    testing::Values(
        Case{{33, 33, 8, ChromaFormat::yuv420}, "minimum", "adm"},
        Case{{64, 64, 8, ChromaFormat::yuv420}, "debug", "adm=debug=true"},
        Case{{641, 359, 10, ChromaFormat::yuv420}, "default", "adm"},
        Case{{1920, 1080, 8, ChromaFormat::yuv420}, "default", "adm", 4},
        Case{{1919, 1079, 12, ChromaFormat::yuv422},
             "neg_gain_limit",
             "adm=adm_enhn_gain_limit=1",
             4},
        Case{{89, 45, 16, ChromaFormat::yuv444}, "default", "adm"},
        Case{{257, 255, 8, ChromaFormat::yuv400}, "barten", "adm=adm_csf_mode=1"},
        Case{{320, 240, 10, ChromaFormat::yuv420},
             "blend_nvd5",
             "adm=adm_csf_mode=2:adm_norm_view_dist=5"},
        Case{{321, 241, 9, ChromaFormat::yuv422},
             "mae_rdh2160",
             "adm=adm_csf_mode=3:adm_ref_display_height=2160"},
        Case{{352, 288, 8, ChromaFormat::yuv420}, "skip_scale0", "adm=adm_skip_scale0=true"},
        Case{{353, 287, 11, ChromaFormat::yuv420},
             "skip_aim_debug",
             "adm=adm_skip_aim=true:debug=true"},
        Case{{576, 324, 8, ChromaFormat::yuv420}, "v1_models", v1_models},
        Case{{35, 700, 8, ChromaFormat::yuv420}, "tall", "adm"},
        Case{{700, 35, 14, ChromaFormat::yuv444},
             "wide",
             "adm=adm_norm_view_dist=5:adm_ref_display_height=2160"},
        Case{{3840, 2160, 10, ChromaFormat::yuv420}, "default", "adm", 2}),
    [](const auto& info) { return format_name(info.param.format) + "_" + info.param.label; });

// §15's worked examples (cases A-F, the option variants of the golden table) on the device.
TEST(AdmCudaExample, WorkedExamplesAsTheCpuTwin) {
    VQ_REQUIRE_CUDA();
    const auto [a_ref, a_dis] = example_blurred(64, 64, 8);
    const auto [d_ref, d_dis] = example_sharpened();
    for (const std::string& request :
         {std::string("adm"), std::string("adm=adm_enhn_gain_limit=1"),
          std::string("adm=adm_csf_mode=2"),
          std::string("adm=adm_csf_mode=3:adm_ref_display_height=2160"),
          std::string("adm=adm_skip_scale0=true")}) {
        expect_parity(request, {{a_ref, a_dis}, {a_ref, a_ref}, {d_ref, d_dis}},
                      "case A, C, D " + request);
    }
    for (int depth : {10, 12, 16}) {
        const auto [ref, dis] = example_blurred(89, 45, depth);
        expect_parity("adm", {{ref, dis}}, "89x45 " + std::to_string(depth) + "-bit");
    }
    const ScoreTable gpu = score_on(Backend::cuda, {"adm"}, {{a_ref, a_dis}});
    EXPECT_EQ(gpu.value(*gpu.find("integer_adm2"), 0), 0.75555385835635369);
}

// ADM's golden table (every *__vmaf.json with the default options, every v1 model's golden with
// its options), computed on the device.
class AdmCudaGolden : public testing::TestWithParam<GoldenCase> {};

TEST_P(AdmCudaGolden, EveryFrameBitExact) {
    VQ_REQUIRE_CUDA();
    VQ_REQUIRE_FIXTURES(fixtures);
    const GoldenCase& c = GetParam();
    expect_golden_outputs(score_on(Backend::cuda, {c.request}, fixture_frames(fixtures, c.fixture)),
                          c, adm_outputs());
}

INSTANTIATE_TEST_SUITE_P(Adm, AdmCudaGolden, testing::ValuesIn(adm_golden_cases()),
                         golden_case_name);

}  // namespace
}  // namespace vq::test
