// VMAF end to end: the default model run through the session over every fixture gives every
// per-frame key of the reference's *__vmaf.json, in its order, and every pooled value, bit for
// bit; the CLI's default run writes the same keys in the same order.
#include <fstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "ciede_test_support.hpp"
#include "test_support.hpp"
#include "vq/session.hpp"

namespace vq::test {
namespace {

nlohmann::json golden(const std::string& name) {
    std::ifstream in(*golden_dir() / (name + ".json"));
    return nlohmann::json::parse(in);
}

ScoreTable score_fixture(const std::filesystem::path& fixtures, const std::string& fixture, const std::string& model,
                         SessionConfig config = {}) {
    Session session(config);
    session.add_model(model);
    const auto refs = read_all_frames((fixtures / fixture / "ref.y4m").string());
    const auto dists = read_all_frames((fixtures / fixture / "dist.y4m").string());
    session.start(refs.at(0).format());
    for (std::size_t f = 0; f < refs.size(); ++f) session.push({refs[f], dists[f]});
    return session.finish();
}

void expect_matches(const ScoreTable& table, const nlohmann::json& expected, const std::string& what) {
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
        EXPECT_EQ(table.pooled(*column, PoolingMethod::mean), pooled["mean"].get<double>()) << what << " " << keys[c];
        EXPECT_EQ(table.pooled(*column, PoolingMethod::harmonic_mean), pooled["harmonic_mean"].get<double>())
            << what << " " << keys[c];
        EXPECT_EQ(table.pooled(*column, PoolingMethod::min), pooled["min"].get<double>()) << what << " " << keys[c];
        EXPECT_EQ(table.pooled(*column, PoolingMethod::max), pooled["max"].get<double>()) << what << " " << keys[c];
    }
}

class VmafGolden : public ::testing::TestWithParam<std::string> {};

TEST_P(VmafGolden, DefaultModelEveryKeyEveryFrameAndPooled) {
    VQ_REQUIRE_FIXTURES(fixtures);
    expect_matches(score_fixture(fixtures, GetParam(), "version=vmaf_v0.6.1"), golden(GetParam() + "__vmaf"),
                   GetParam());
}

// Threads and the CPU's scheduling never change a score.
TEST_P(VmafGolden, OneThreadGivesTheSameBits) {
    VQ_REQUIRE_FIXTURES(fixtures);
    expect_matches(score_fixture(fixtures, GetParam(), "version=vmaf_v0.6.1", {.threads = 1}),
                   golden(GetParam() + "__vmaf"), GetParam() + " --threads 1");
}

INSTANTIATE_TEST_SUITE_P(Fixtures, VmafGolden,
                         ::testing::Values("grad_576x324_8b_420", "grad_576x324_10b_420", "mandel_576x324_8b_420",
                                           "testsrc_576x324_8b_420", "odd_641x359_8b_420",
                                           "testsrc_352x288_8b_422", "testsrc_352x288_8b_444",
                                           "grad_1920x1080_8b_420"),
                         [](const auto& info) { return info.param; });

// The reference's default run, keys in its order (spec/vmaf.md §6), from `vq -r REF -d DIST`.
TEST(VmafCli, DefaultRunWritesTheReferenceKeysInOrder) {
    VQ_REQUIRE_FIXTURES(fixtures);
    const auto dir = scratch_dir("vmaf_cli_default");
    const auto clip = fixtures / "testsrc_576x324_8b_420";
    const auto result = run_vq("-r " + (clip / "ref.y4m").string() + " -d " + (clip / "dist.y4m").string() +
                               " --csv -q -o " + (dir / "out.csv").string());
    ASSERT_EQ(result.exit_code, 0) << result.output;
    const std::string csv = read_file(dir / "out.csv");
    EXPECT_EQ(csv.substr(0, csv.find('\n')),
              "Frame,integer_adm2,integer_aim,integer_adm3,integer_adm_scale0,integer_adm_scale1,integer_adm_scale2,"
              "integer_adm_scale3,VMAF_integer_feature_motion_sad_score,integer_vif_scale0,integer_vif_scale1,"
              "integer_vif_scale2,integer_vif_scale3,integer_motion2,integer_motion3,vmaf,");
}

TEST(VmafCli, SubsampleScoresTheSelectedFramesWithMotionFromEveryFrame) {
    VQ_REQUIRE_FIXTURES(fixtures);
    const ScoreTable every = score_fixture(fixtures, "testsrc_576x324_8b_420", "version=vmaf_v0.6.1");
    const ScoreTable sub =
        score_fixture(fixtures, "testsrc_576x324_8b_420", "version=vmaf_v0.6.1", {.threads = 2, .subsample = 3});
    const auto column = every.find("vmaf");
    for (std::size_t f = 0; f < every.frame_count(); ++f)
        if (f % 3 == 0) EXPECT_EQ(sub.value(*sub.find("vmaf"), f), every.value(*column, f)) << "frame " << f;
}

}  // namespace
}  // namespace vq::test
