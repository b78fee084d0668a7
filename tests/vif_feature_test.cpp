// Integer VIF through the public API: option naming, debug outputs, the size limit, and every
// golden (shared/golden/*__vmaf.json) bit for bit.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "support/golden_cases.hpp"
#include "test_support.hpp"
#include "twin_parity.hpp"
#include "vif_test_support.hpp"
#include "vq/error.hpp"
#include "vq/session.hpp"

namespace vq::test {
namespace {

ScoreTable score_frames(const std::string& feature,
                        const std::vector<std::pair<Picture, Picture>>& frames,
                        unsigned threads = 1) {
    Session session({.threads = threads});
    session.add_feature(feature);
    session.start(frames.front().first.format());
    for (const auto& [ref, dist] : frames) session.push({ref, dist});
    return session.finish();
}

std::vector<std::string> column_names(const ScoreTable& table) {
    std::vector<std::string> names;
    for (std::size_t c = 0; c < table.column_count(); ++c) names.push_back(table.name(c));
    return names;
}

double value(const ScoreTable& table, const std::string& name, std::size_t frame = 0) {
    const auto column = table.find(name);
    EXPECT_TRUE(column) << name;
    return column ? table.value(*column, frame).value_or(NAN) : NAN;
}

TEST(VifFeature, OutputNamesCarryTheOptionSuffix) {
    const std::vector frames = {vmaf_example_pair(0, 8)};
    using Names = std::vector<std::string>;
    EXPECT_EQ(column_names(score_frames("vif", frames)),
              (Names{"integer_vif_scale0", "integer_vif_scale1", "integer_vif_scale2",
                     "integer_vif_scale3"}));
    EXPECT_EQ(column_names(score_frames("vif=vif_enhn_gain_limit=1", frames)),
              (Names{"integer_vif_scale0_egl_1", "integer_vif_scale1_egl_1",
                     "integer_vif_scale2_egl_1", "integer_vif_scale3_egl_1"}));
    EXPECT_EQ(
        column_names(score_frames("vif=vif_skip_scale0=true:vif_enhn_gain_limit=1.5", frames)),
        (Names{"integer_vif_scale0_egl_1.5_ssclz", "integer_vif_scale1_egl_1.5_ssclz",
               "integer_vif_scale2_egl_1.5_ssclz", "integer_vif_scale3_egl_1.5_ssclz"}));
}

TEST(VifFeature, SessionMatchesTheWorkedExample) {  // §9.2 and §9.2 NEG, frame 0..2
    std::vector<std::pair<Picture, Picture>> frames;
    for (int t = 0; t < 3; ++t) frames.push_back(vmaf_example_pair(t, 8));
    const ScoreTable table = score_frames("vif", frames, 2);
    EXPECT_EQ(value(table, "integer_vif_scale0", 0), 0.56794804334640503);
    EXPECT_EQ(value(table, "integer_vif_scale3", 1), 0.72140240669250488);
    EXPECT_EQ(value(table, "integer_vif_scale2", 2), 0.72021842002868652);
    const ScoreTable neg = score_frames("vif=vif_enhn_gain_limit=1", frames, 2);
    EXPECT_EQ(value(neg, "integer_vif_scale1_egl_1", 2), 0.71740120649337769);
}

TEST(VifFeature, DebugOutputs) {
    const std::vector frames = {vmaf_example_pair(0, 8)};
    const ScoreTable table = score_frames("vif=debug=true", frames);
    using Names = std::vector<std::string>;
    EXPECT_EQ(column_names(table),
              (Names{"integer_vif_scale0", "integer_vif_scale1", "integer_vif_scale2",
                     "integer_vif_scale3", "integer_vif", "integer_vif_num", "integer_vif_den",
                     "integer_vif_num_scale0", "integer_vif_num_scale1", "integer_vif_num_scale2",
                     "integer_vif_num_scale3", "integer_vif_den_scale0", "integer_vif_den_scale1",
                     "integer_vif_den_scale2", "integer_vif_den_scale3"}));
    // §9.2 frame 0: the float num and den of each scale.
    const float num[4] = {15116.693359375f, 3405.23193359375f, 880.031494140625f, 247.94287109375f};
    const float den[4] = {26616.330078125f, 4656.8955078125f, 1214.81884765625f, 341.89794921875f};
    double num_total = 0, den_total = 0;
    for (int s = 0; s < 4; ++s) {
        EXPECT_EQ(value(table, "integer_vif_num_scale" + std::to_string(s)), double(num[s]));
        EXPECT_EQ(value(table, "integer_vif_den_scale" + std::to_string(s)), double(den[s]));
        num_total += num[s];
        den_total += den[s];
    }
    EXPECT_EQ(value(table, "integer_vif_num"), num_total);
    EXPECT_EQ(value(table, "integer_vif_den"), den_total);
    EXPECT_EQ(value(table, "integer_vif"), num_total / den_total);
}

TEST(VifFeature, SkipScale0ReportsZeroAndDebugMinusOne) {  // §2.1
    const std::vector frames = {vmaf_example_pair(0, 8)};
    const ScoreTable table = score_frames("vif=vif_skip_scale0=true:debug=true", frames);
    EXPECT_EQ(value(table, "integer_vif_scale0_ssclz"), 0.0);
    EXPECT_EQ(value(table, "integer_vif_num_scale0_ssclz"), 0.0);
    EXPECT_EQ(value(table, "integer_vif_den_scale0_ssclz"), -1.0);
    EXPECT_EQ(value(table, "integer_vif_scale1_ssclz"), 0.73122358322143555);
}

TEST(VifFeature, RejectsFramesBelowTheSizeLimit) {  // §2.8
    for (const auto& [width, height] : {std::pair{15, 64}, {64, 15}, {12, 12}}) {
        Session session({.threads = 1});
        session.add_feature("vif");
        try {
            session.start({width, height, 8, ChromaFormat::yuv420});
            ADD_FAILURE() << width << "x" << height << " accepted";
        } catch (const Error& error) {
            EXPECT_EQ(error.kind(), ErrorKind::usage);
            EXPECT_NE(std::string(error.what()).find("16x16"), std::string::npos) << error.what();
        }
    }
    Session smallest({.threads = 1});
    smallest.add_feature("vif");
    EXPECT_NO_THROW(smallest.start({16, 16, 8, ChromaFormat::yuv420}));
}

TEST(VifFeature, RejectsGainLimitOutOfRange) {
    for (const char* request : {"vif=vif_enhn_gain_limit=0.5", "vif=vif_enhn_gain_limit=101"}) {
        Session session;
        EXPECT_THROW(session.add_feature(request), Error) << request;
    }
}

// Every fixture with a VMAF golden (VIF's table, which the CUDA twin's test reads too):
// integer_vif_scale0..3 on every frame, bit for bit.
class VifGolden : public testing::TestWithParam<GoldenCase> {};

TEST_P(VifGolden, EveryFrameBitExact) {
    VQ_REQUIRE_FIXTURES(fixtures);
    const GoldenCase& c = GetParam();
    const auto frames = fixture_frames(fixtures, c.fixture);
    expect_golden_outputs(
        score_on(Backend::cpu, {c.request}, frames), c,
        {"integer_vif_scale0", "integer_vif_scale1", "integer_vif_scale2", "integer_vif_scale3"});
    // The session ran the best variant; every other one must give the same block.
    for (const FramePair& pair : frames) {
        const vif::Block best =
            vif_block(pair.reference, pair.distorted, vif_options(), vif::best_kernels());
        for (const vif::Kernels& kernels : vif::available_kernels())
            EXPECT_EQ(vif_block(pair.reference, pair.distorted, vif_options(), kernels).scales,
                      best.scales)
                << kernels.instruction_set << " frame " << pair.index;
    }
}

INSTANTIATE_TEST_SUITE_P(Vif, VifGolden, testing::ValuesIn(vif_golden_cases()), golden_case_name);

}  // namespace
}  // namespace vq::test
