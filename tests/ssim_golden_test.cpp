// float_ssim and float_ms_ssim against the reference's goldens (shared/golden/*__float_ssim*.json,
// *__float_ms_ssim*.json): every key in the reference's order, every frame and every pooled value
// bit for bit, through a Session at one thread and at the default thread count, and through the
// CLI's JSON output.
#include <algorithm>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/golden_cases.hpp"
#include "test_support.hpp"
#include "vq/session.hpp"

namespace vq::test {
namespace {

ScoreTable score_fixture(const std::filesystem::path& fixtures, const GoldenCase& c,
                         unsigned threads) {
    Session session({.threads = threads});
    session.add_feature(c.request);
    const auto frames = fixture_frames(fixtures, c.fixture);
    session.start(frames.at(0).distorted.format());
    for (const FramePair& pair : frames) session.push(pair);
    return session.finish();
}

// The golden with its keys in file order (nlohmann::json would sort them).
nlohmann::ordered_json read_ordered_golden(const GoldenCase& c) {
    return nlohmann::ordered_json::parse(read_file(*golden_dir() / c.golden));
}

void expect_matches(const ScoreTable& table, const nlohmann::ordered_json& golden,
                    const std::string& what) {
    const auto& frames = golden["frames"];
    ASSERT_EQ(table.frame_count(), frames.size()) << what;
    std::vector<std::string> keys;
    for (const auto& [key, value] : frames[0]["metrics"].items()) keys.push_back(key);
    ASSERT_EQ(table.column_count(), keys.size()) << what;
    for (std::size_t c = 0; c < keys.size(); ++c) {
        EXPECT_EQ(table.name(c), keys[c]) << what << ": column " << c;
        for (std::size_t f = 0; f < frames.size(); ++f)
            EXPECT_EQ(table.value(c, f), frames[f]["metrics"][keys[c]].get<double>())
                << what << " " << keys[c] << " frame " << f;
        const auto& pooled = golden["pooled_metrics"][keys[c]];
        const std::pair<PoolingMethod, const char*> methods[] = {
            {PoolingMethod::min, "min"},
            {PoolingMethod::max, "max"},
            {PoolingMethod::mean, "mean"},
            {PoolingMethod::harmonic_mean, "harmonic_mean"}};
        for (const auto& [method, name] : methods)
            EXPECT_EQ(table.pooled(c, method), pooled[name].get<double>())
                << what << " " << keys[c] << " pooled " << name;
    }
}

class SsimGolden : public testing::TestWithParam<GoldenCase> {};

TEST_P(SsimGolden, EveryKeyFrameAndPooledValueAtOneThread) {
    VQ_REQUIRE_FIXTURES(fixtures);
    const GoldenCase& c = GetParam();
    expect_matches(score_fixture(fixtures, c, 1), read_ordered_golden(c), c.golden);
}

// Threads and scheduling never change a score.
TEST_P(SsimGolden, EveryKeyFrameAndPooledValueAtTheDefaultThreads) {
    VQ_REQUIRE_FIXTURES(fixtures);
    const GoldenCase& c = GetParam();
    expect_matches(score_fixture(fixtures, c, 0), read_ordered_golden(c), c.golden);
}

INSTANTIATE_TEST_SUITE_P(Ssim, SsimGolden, testing::ValuesIn(ssim_golden_cases()),
                         golden_case_name);

// The CLI's JSON (printed with %.17g) holds the reference's per-frame and pooled values to the
// last bit, for a downscaled float_ssim, the per-scale MS-SSIM terms and a clipped dB score.
TEST(SsimCli, JsonOutputEqualsTheGoldens) {
    VQ_REQUIRE_FIXTURES(fixtures);
    const auto dir = scratch_dir("ssim_cli_golden");
    for (const std::string golden_name :
         {"grad_1920x1080_8b_420__float_ssim.json", "odd_641x359_8b_420__float_ms_ssim_lcs.json",
          "grad_576x324_10b_420__float_ms_ssim_db_clip.json"}) {
        const auto cases = ssim_golden_cases();
        const auto c = std::find_if(cases.begin(), cases.end(),
                                    [&](const GoldenCase& g) { return g.golden == golden_name; });
        ASSERT_NE(c, cases.end()) << golden_name;
        const auto clip = fixtures / c->fixture;
        const auto out = dir / golden_name;
        for (const char* threads : {"1", "2"}) {
            const auto result = run_vq(
                "-r \"" + (clip / "ref.y4m").string() + "\" -d \"" + (clip / "dist.y4m").string() +
                "\" --no_prediction --feature " + c->request + " --threads " + threads +
                " --json --precision max -q -o \"" + out.string() + "\"");
            ASSERT_EQ(result.exit_code, 0) << result.output;
            const auto ours = nlohmann::ordered_json::parse(read_file(out));
            const auto golden = read_ordered_golden(*c);
            ASSERT_EQ(ours["frames"].size(), golden["frames"].size()) << golden_name;
            for (std::size_t f = 0; f < golden["frames"].size(); ++f)
                EXPECT_EQ(ours["frames"][f]["metrics"], golden["frames"][f]["metrics"])
                    << golden_name << " --threads " << threads << " frame " << f;
            EXPECT_EQ(ours["pooled_metrics"], golden["pooled_metrics"])
                << golden_name << " --threads " << threads;
        }
    }
}

}  // namespace
}  // namespace vq::test
