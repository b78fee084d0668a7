// Integer motion: the worked example of spec/vmaf.md §9.4, the series rule of spec/vmaf-v1.md §3,
// the temporal contract under threads and subsampling, and the goldens' motion keys bit for bit.

#include <gtest/gtest.h>

#include "metrics/motion/motion.hpp"
#include "support/golden_cases.hpp"
#include "test_support.hpp"
#include "twin_parity.hpp"
#include "vmaf_example_frames.hpp"
#include "vq/error.hpp"
#include "vq/session.hpp"

namespace vq::test {
namespace {

ScoreTable score(const std::string& feature, const std::vector<Picture>& references,
                 SessionConfig config = {}) {
    Session session(config);
    session.add_feature(feature);
    session.start(references.front().format());
    for (const Picture& reference : references) session.push({reference, reference});
    return session.finish();
}

std::vector<double> column(const ScoreTable& table, const std::string& name) {
    const auto c = table.find(name);
    EXPECT_TRUE(c) << name;
    std::vector<double> values;
    for (std::size_t f = 0; c && f < table.frame_count(); ++f)
        values.push_back(table.value(*c, f).value_or(-1));
    return values;
}

std::vector<Picture> example_references(int bit_depth, int width = 64, int height = 64) {
    std::vector<Picture> frames;
    for (int t = 0; t < 3; ++t)
        frames.push_back(vmaf_example_frame(t, false, bit_depth, width, height));
    return frames;
}

TEST(MotionExample, BlurredDifferenceSadEightAndTenBit) {  // spec/vmaf.md §9.4
    for (const auto& [depth, sad1, sad2] :
         {std::tuple{8, 2991683u, 2934699u}, std::tuple{10, 2992376u, 2935369u}}) {
        const auto frames = example_references(depth);
        EXPECT_EQ(motion::blurred_difference_sad(frames[0], frames[1]), sad1) << depth << "-bit";
        EXPECT_EQ(motion::blurred_difference_sad(frames[1], frames[2]), sad2) << depth << "-bit";
    }
}

TEST(MotionExample, SeriesEightBit) {  // spec/vmaf.md §9.4
    const ScoreTable table = score("motion", example_references(8));
    EXPECT_EQ(column(table, "VMAF_integer_feature_motion_sad_score"),
              (std::vector<double>{0, 2.8530912399291992, 2.7987470626831055}));
    EXPECT_EQ(column(table, "integer_motion2"),
              (std::vector<double>{0, 2.7987470626831055, 2.7987470626831055}));
    EXPECT_EQ(column(table, "integer_motion3"),
              (std::vector<double>{2.8530912399291992, 2.7987470626831055, 2.7987470626831055}));
    // Per-frame outputs first, then those completed at flush (libvmaf's collector order).
    ASSERT_EQ(table.column_count(), 3u);
    EXPECT_EQ(table.name(1), "integer_motion2");
}

TEST(MotionExample, SeriesTenBit) {
    const ScoreTable table = score("motion", example_references(10));
    EXPECT_EQ(column(table, "integer_motion2"),
              (std::vector<double>{0, 2.7993860244750977, 2.7993860244750977}));
}

TEST(MotionExample, OddSizeSads) {  // spec/vmaf.md §9.6: 37x29
    const auto frames = example_references(8, 37, 29);
    EXPECT_EQ(motion::blurred_difference_sad(frames[0], frames[1]), 1022068u);
    EXPECT_EQ(motion::blurred_difference_sad(frames[1], frames[2]), 1023548u);
}

TEST(MotionOptions, NamesCarryNonDefaultOptions) {
    const ScoreTable table = score(
        "motion=motion_five_frame_window=true:motion_max_val=18:motion_moving_average=true:debug="
        "true",
        example_references(8));
    ASSERT_EQ(table.column_count(), 4u);
    EXPECT_EQ(table.name(0), "VMAF_integer_feature_motion_sad_score_mffw_mmxv_18_mma");
    EXPECT_EQ(table.name(1), "integer_motion_mffw_mmxv_18_mma");
    EXPECT_EQ(table.name(2), "integer_motion2_mffw_mmxv_18_mma");
    EXPECT_EQ(table.name(3), "integer_motion3_mffw_mmxv_18_mma");
}

TEST(MotionOptions, ForceZeroAndTooSmallFrames) {
    const ScoreTable table = score("motion=motion_force_zero=true", example_references(8));
    EXPECT_EQ(column(table, "integer_motion3_force_0"), (std::vector<double>{0, 0, 0}));
    Session session;
    session.add_feature("motion");
    try {
        session.start({2, 8, 8, ChromaFormat::yuv420});
        FAIL() << "a 2-pixel-wide frame was accepted";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::usage);
        EXPECT_NE(std::string(e.what()).find("at least 3x3"), std::string::npos) << e.what();
    }
}

// The SAD of frame i compares reference frames i-1 and i whatever order the workers take the
// frames in; subsampled frames still feed the series.
TEST(MotionTemporalContract, ThreadsAndSubsampleGiveTheSameSeries) {
    std::vector<Picture> frames;
    for (int t = 0; t < 9; ++t) frames.push_back(vmaf_example_frame(t, t % 2 == 1));
    const ScoreTable one = score("motion", frames, {.threads = 1});
    const ScoreTable many = score("motion", frames, {.threads = 4});
    const ScoreTable sub = score("motion", frames, {.threads = 3, .subsample = 4});
    for (const char* name :
         {"VMAF_integer_feature_motion_sad_score", "integer_motion2", "integer_motion3"}) {
        EXPECT_EQ(column(one, name), column(many, name)) << name;
        const auto all = column(one, name);
        const auto c = sub.find(name);
        ASSERT_TRUE(c);
        for (std::size_t f = 0; f < frames.size(); f += 4)
            EXPECT_EQ(sub.value(*c, f), all[f]) << name << " frame " << f;
    }
}

// Motion's golden table: every *__vmaf.json, and the v1.0.16 models' motion (the clip at 18, and
// the hfr five-frame window with moving average; spec/vmaf-v1.md §3).
class MotionGolden : public ::testing::TestWithParam<GoldenCase> {};

TEST_P(MotionGolden, EveryFrameBitExact) {
    VQ_REQUIRE_FIXTURES(fixtures);
    const GoldenCase& c = GetParam();
    expect_golden_outputs(score_on(Backend::cpu, {c.request}, fixture_frames(fixtures, c.fixture)),
                          c, motion_outputs());
}

INSTANTIATE_TEST_SUITE_P(Motion, MotionGolden, ::testing::ValuesIn(motion_golden_cases()),
                         golden_case_name);

}  // namespace
}  // namespace vq::test
