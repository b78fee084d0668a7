// ciede2000 against the reference's goldens (shared/golden/*__feat.json), bit for bit.
#include <cmath>
#include <fstream>
#include <limits>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "ciede_test_model.hpp"
#include "ciede_test_support.hpp"
#include "test_support.hpp"

namespace vq::test {
namespace {

std::vector<double> golden_ciede(const std::string& fixture) {
    std::ifstream in(*golden_dir() / (fixture + "__feat.json"));
    const nlohmann::json golden = nlohmann::json::parse(in);
    std::vector<double> scores;
    for (const auto& frame : golden["frames"]) {
        const auto& value = frame["metrics"]["ciede2000"];
        scores.push_back(value.is_null() ? std::numeric_limits<double>::infinity()
                                         : value.get<double>());
    }
    return scores;
}

void expect_golden(const std::filesystem::path& fixtures, const std::string& fixture,
                   const OptionList& options = {}) {
    const auto refs = read_all_frames((fixtures / fixture / "ref.y4m").string());
    const auto dists = read_all_frames((fixtures / fixture / "dist.y4m").string());
    const std::vector<double> expected = golden_ciede(fixture);
    ASSERT_EQ(refs.size(), expected.size());
    ASSERT_EQ(dists.size(), expected.size());
    auto feature = make_ciede(refs[0].format(), options);
    for (std::size_t i = 0; i < expected.size(); ++i)
        EXPECT_EQ(ciede_score(*feature, refs[i], dists[i]), expected[i]) << "frame " << i;
}

TEST(CiedeGolden, Grad576x324_8bit420) {
    VQ_REQUIRE_FIXTURES(fixtures);
    expect_golden(fixtures, "grad_576x324_8b_420");
}

TEST(CiedeGolden, Testsrc576x324_8bit420) {
    VQ_REQUIRE_FIXTURES(fixtures);
    expect_golden(fixtures, "testsrc_576x324_8b_420");
}

TEST(CiedeGolden, Mandel576x324_8bit420) {
    VQ_REQUIRE_FIXTURES(fixtures);
    expect_golden(fixtures, "mandel_576x324_8b_420");
}

TEST(CiedeGolden, Grad576x324_10bit420) {
    VQ_REQUIRE_FIXTURES(fixtures);
    expect_golden(fixtures, "grad_576x324_10b_420");
}

TEST(CiedeGolden, Grad1920x1080_8bit420) {
    VQ_REQUIRE_FIXTURES(fixtures);
    expect_golden(fixtures, "grad_1920x1080_8b_420");
}

TEST(CiedeGolden, Testsrc352x288_8bit444) {
    VQ_REQUIRE_FIXTURES(fixtures);
    expect_golden(fixtures, "testsrc_352x288_8b_444");
}

// The golden holds the reference's swapped-axes value (INDEX.md), which reference_422
// reproduces. It was made from the same samples fed as raw YUV.
TEST(CiedeGolden, Testsrc352x288_8bit422WithReference422) {
    VQ_REQUIRE_FIXTURES(fixtures);
    expect_golden(fixtures, "testsrc_352x288_8b_422", {{"reference_422", "true"}});
}

// The odd-size golden is informative only: the reference read floor-size chroma and one row
// past its buffer (INDEX.md). vq reads the ceil-size chroma of the y4m, so it is checked
// against the independent model instead, frame by frame.
TEST(CiedeGolden, Odd641x359_8bit420MatchesIndependentModel) {
    VQ_REQUIRE_FIXTURES(fixtures);
    const auto refs = read_all_frames((fixtures / "odd_641x359_8b_420" / "ref.y4m").string());
    const auto dists = read_all_frames((fixtures / "odd_641x359_8b_420" / "dist.y4m").string());
    ASSERT_EQ(refs.size(), dists.size());
    ASSERT_FALSE(refs.empty());
    auto feature = make_ciede(refs[0].format());
    for (std::size_t i = 0; i < refs.size(); ++i)
        EXPECT_EQ(ciede_score(*feature, refs[i], dists[i]),
                  ciede_model::frame_score(refs[i], dists[i]))
            << "frame " << i;
}

}  // namespace
}  // namespace vq::test
