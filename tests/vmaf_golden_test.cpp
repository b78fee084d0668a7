// VMAF end to end: the default model run through the session over every fixture gives every
// per-frame key of the reference's *__vmaf.json, in its order, and every pooled value, bit for
// bit; the CLI's default run writes the same keys in the same order.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/golden_cases.hpp"
#include "test_support.hpp"
#include "vq/session.hpp"

namespace vq::test {
namespace {

ScoreTable score_fixture(const std::filesystem::path& fixtures, const std::string& fixture,
                         const std::string& model, SessionConfig config = {}) {
    Session session(config);
    session.add_model(model);
    const auto frames = fixture_frames(fixtures, fixture);
    session.start(frames.at(0).distorted.format());
    for (const FramePair& pair : frames) session.push(pair);
    return session.finish();
}

void expect_matches(const ScoreTable& table, const nlohmann::json& expected,
                    const std::string& what) {
    const auto& frames = expected["frames"];
    ASSERT_EQ(table.frame_count(), frames.size()) << what;
    std::vector<std::string> keys;
    for (const auto& [key, value] : frames[0]["metrics"].items()) keys.push_back(key);
    ASSERT_EQ(table.column_count(), keys.size()) << what;
    for (std::size_t c = 0; c < keys.size(); ++c) {
        // nlohmann::json sorts object keys; the order check is the CLI test's.
        const auto column = table.find(keys[c]);
        ASSERT_TRUE(column) << what << ": no " << keys[c];
        for (std::size_t f = 0; f < frames.size(); ++f)
            EXPECT_EQ(table.value(*column, f), frames[f]["metrics"][keys[c]].get<double>())
                << what << " " << keys[c] << " frame " << f;
        const auto& pooled = expected["pooled_metrics"][keys[c]];
        EXPECT_EQ(table.pooled(*column, PoolingMethod::mean), pooled["mean"].get<double>())
            << what << " " << keys[c];
        EXPECT_EQ(table.pooled(*column, PoolingMethod::harmonic_mean),
                  pooled["harmonic_mean"].get<double>())
            << what << " " << keys[c];
        EXPECT_EQ(table.pooled(*column, PoolingMethod::min), pooled["min"].get<double>())
            << what << " " << keys[c];
        EXPECT_EQ(table.pooled(*column, PoolingMethod::max), pooled["max"].get<double>())
            << what << " " << keys[c];
    }
}

class VmafGolden : public ::testing::TestWithParam<GoldenCase> {};

TEST_P(VmafGolden, DefaultModelEveryKeyEveryFrameAndPooled) {
    VQ_REQUIRE_FIXTURES(fixtures);
    const GoldenCase& c = GetParam();
    expect_matches(score_fixture(fixtures, c.fixture, c.request), read_golden(c), c.fixture);
}

// Threads and the CPU's scheduling never change a score.
TEST_P(VmafGolden, OneThreadGivesTheSameBits) {
    VQ_REQUIRE_FIXTURES(fixtures);
    const GoldenCase& c = GetParam();
    expect_matches(score_fixture(fixtures, c.fixture, c.request, {.threads = 1}), read_golden(c),
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
        score_fixture(fixtures, "testsrc_576x324_8b_420", "version=vmaf_v0.6.1");
    const ScoreTable sub = score_fixture(fixtures, "testsrc_576x324_8b_420", "version=vmaf_v0.6.1",
                                         {.threads = 2, .subsample = 3});
    const auto column = every.find("vmaf");
    for (std::size_t f = 0; f < every.frame_count(); f += 3)
        EXPECT_EQ(sub.value(*sub.find("vmaf"), f), every.value(*column, f)) << "frame " << f;
}

}  // namespace
}  // namespace vq::test
