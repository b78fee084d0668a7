// VMAF end to end: the default model run through the session over every fixture gives every
// per-frame key of the reference's *__vmaf.json, in its order, and every pooled value, bit for
// bit; the CLI's default run writes the same keys in the same order.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "test_support.hpp"
#include "vmaf_golden_support.hpp"

namespace vq::test {
namespace {

class VmafGolden : public ::testing::TestWithParam<GoldenCase> {};

TEST_P(VmafGolden, DefaultModelEveryKeyEveryFrameAndPooled) {
    VQ_REQUIRE_FIXTURES(fixtures);
    const GoldenCase& c = GetParam();
    expect_matches(score_fixture(fixtures, c.fixture, {c.request}), read_golden(c), c.fixture);
}

// Threads and the CPU's scheduling never change a score.
TEST_P(VmafGolden, OneThreadGivesTheSameBits) {
    VQ_REQUIRE_FIXTURES(fixtures);
    const GoldenCase& c = GetParam();
    expect_matches(score_fixture(fixtures, c.fixture, {c.request}, {.threads = 1}), read_golden(c),
                   c.fixture + " --threads 1");
}

// One golden per fixture: the fixture names the test.
INSTANTIATE_TEST_SUITE_P(Fixtures, VmafGolden, ::testing::ValuesIn(vmaf_golden_cases()),
                         [](const auto& info) { return info.param.fixture; });

// The reference's default run, keys in its order (spec/vmaf.md §6), from `vq -r REF -d DIST`.
TEST(VmafCli, DefaultRunWritesTheReferenceKeysInOrder) {
    VQ_REQUIRE_FIXTURES(fixtures);
    const auto dir = scratch_dir("vmaf_cli_default");
    const auto clip = fixtures / "testsrc_576x324_8b_420";
    const auto result =
        run_vq("-r " + (clip / "ref.y4m").string() + " -d " + (clip / "dist.y4m").string() +
               " --csv -q -o " + (dir / "out.csv").string());
    ASSERT_EQ(result.exit_code, 0) << result.output;
    const std::string csv = read_file(dir / "out.csv");
    EXPECT_EQ(csv.substr(0, csv.find('\n')),
              "Frame,integer_adm2,integer_aim,integer_adm3,integer_adm_scale0,integer_adm_scale1,"
              "integer_adm_scale2,"
              "integer_adm_scale3,VMAF_integer_feature_motion_sad_score,integer_vif_scale0,integer_"
              "vif_scale1,"
              "integer_vif_scale2,integer_vif_scale3,integer_motion2,integer_motion3,vmaf,");
}

TEST(VmafCli, SubsampleScoresTheSelectedFramesWithMotionFromEveryFrame) {
    VQ_REQUIRE_FIXTURES(fixtures);
    const ScoreTable every =
        score_fixture(fixtures, "testsrc_576x324_8b_420", {"version=vmaf_v0.6.1"});
    const ScoreTable sub = score_fixture(fixtures, "testsrc_576x324_8b_420",
                                         {"version=vmaf_v0.6.1"}, {.threads = 2, .subsample = 3});
    const auto column = every.find("vmaf");
    for (std::size_t f = 0; f < every.frame_count(); f += 3)
        EXPECT_EQ(sub.value(*sub.find("vmaf"), f), every.value(*column, f)) << "frame " << f;
}

}  // namespace
}  // namespace vq::test
