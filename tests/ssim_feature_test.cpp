// float_ssim and float_ms_ssim as features: their options (validated, never renaming an output,
// spec §1.3), output names and order, every layout and depth, and a one-line error wherever the
// reference would produce garbage instead of a score: frames under the window (§10.2) or under
// MS-SSIM's limit (§1.4), and depths it has no scale for (§3).
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "ssim_test_support.hpp"
#include "vq/error.hpp"

namespace vq::test {
namespace {

std::vector<std::string> output_names(const std::string& request) {
    const Picture p = make_picture({32, 32, 8, ChromaFormat::yuv420}, Content::texture, 1);
    const ScoreTable table = score_pair(request, p, p);
    std::vector<std::string> names;
    for (std::size_t c = 0; c < table.column_count(); ++c) names.push_back(table.name(c));
    return names;
}

TEST(SsimFeature, OutputNamesAndOrder) {
    using Names = std::vector<std::string>;
    EXPECT_EQ(output_names("float_ssim"), Names{"float_ssim"});
    EXPECT_EQ(output_names("float_ssim=enable_lcs=true"),
              (Names{"float_ssim", "float_ssim_l", "float_ssim_c", "float_ssim_s"}));
    // Options never rename an output.
    EXPECT_EQ(output_names("float_ssim=enable_db=true:clip_db=true:scale=2"), Names{"float_ssim"});
}

TEST(SsimFeature, MsSsimOutputNamesAndOrder) {
    const Picture p = make_picture({176, 176, 8, ChromaFormat::yuv444}, Content::texture, 2);
    const ScoreTable table = score_pair("float_ms_ssim=enable_lcs=true:enable_db=true", p, p);
    std::vector<std::string> expected = {"float_ms_ssim"};
    for (const char* term : {"l", "c", "s"})
        for (int k = 0; k < 5; ++k)
            expected.push_back("float_ms_ssim_" + std::string(term) + "_scale" + std::to_string(k));
    ASSERT_EQ(table.column_count(), expected.size());
    for (std::size_t c = 0; c < expected.size(); ++c) EXPECT_EQ(table.name(c), expected[c]);
}

TEST(SsimFeature, RejectsBadOptionValues) {
    for (const char* request :
         {"float_ssim=enable_db=1", "float_ssim=scale=11", "float_ssim=scale=-1",
          "float_ssim=scale=two", "float_ssim=enable_lcs=yes", "float_ms_ssim=clip_db=0",
          "float_ms_ssim=scale=2"}) {  // float_ms_ssim has no scale
        Session session;
        EXPECT_THROW(session.add_feature(request), Error) << request;
    }
}

// The error a Session's start() throws for `request` on `format`, or "" when it accepts it.
std::string start_error(const std::string& request, const VideoFormat& format) {
    Session session({.threads = 1});
    session.add_feature(request);
    try {
        session.start(format);
    } catch (const Error& error) {
        EXPECT_EQ(error.kind(), ErrorKind::usage) << error.what();
        const std::string message = error.what();
        EXPECT_EQ(message.find('\n'), std::string::npos) << "one line: " << message;
        return message;
    }
    return "";
}

VideoFormat luma(int width, int height, int bit_depth = 8) {
    return {width, height, bit_depth, ChromaFormat::yuv420};
}

// The reference divides an empty sum by a count of zero or less there (§10.2: +0, -0 or NaN).
TEST(SsimFeature, RejectsFramesUnderTheWindow) {
    for (const auto& [width, height] :
         {std::pair{8, 8}, {5, 20}, {10, 30}, {30, 10}, {1, 1}, {10, 10}, {3, 200}, {200, 10}}) {
        const std::string error = start_error("float_ssim", luma(width, height));
        EXPECT_NE(error.find("float_ssim"), std::string::npos) << error;
        EXPECT_NE(error.find("11x11"), std::string::npos)
            << width << "x" << height << ": " << error;
    }
    EXPECT_EQ(start_error("float_ssim", luma(11, 11)), "");
    EXPECT_EQ(start_error("float_ssim", luma(11, 383)), "");
}

TEST(SsimFeature, RejectsFramesUnderTheWindowAfterTheDownscale) {
    // §10.2: f = 3 on 32x34 gives a 10-wide plane.
    const std::string error = start_error("float_ssim=scale=3", luma(32, 34));
    EXPECT_NE(error.find("downscaled by 3"), std::string::npos) << error;
    EXPECT_NE(error.find("10x11"), std::string::npos) << error;
    EXPECT_EQ(start_error("float_ssim=scale=3", luma(33, 33)), "");  // 11x11
    EXPECT_EQ(start_error("float_ssim", luma(700, 640)), "");        // the automatic 3: 233x213
    EXPECT_NE(start_error("float_ssim=scale=10", luma(108, 400)).find("11x11"), std::string::npos);
    EXPECT_EQ(start_error("float_ssim=scale=10", luma(110, 400)), "");
}

TEST(SsimFeature, MsSsimRejectsFramesUnder176) {  // §1.4, §9.1
    for (const auto& [width, height] : {std::pair{175, 400}, {400, 175}, {175, 175}, {64, 64}}) {
        const std::string error = start_error("float_ms_ssim", luma(width, height));
        EXPECT_NE(error.find("float_ms_ssim"), std::string::npos) << error;
        EXPECT_NE(error.find("176x176"), std::string::npos) << error;
    }
    EXPECT_EQ(start_error("float_ms_ssim", luma(176, 176)), "");
    EXPECT_EQ(start_error("float_ms_ssim", luma(177, 641)), "");
}

// The reference reads 9-, 11- and 13..15-bit samples as bytes (§3): no score to reproduce.
TEST(SsimFeature, RejectsDepthsWithoutAScale) {
    for (const int depth : {9, 11, 13, 14, 15})
        for (const char* request : {"float_ssim", "float_ms_ssim"}) {
            const std::string error = start_error(request, luma(200, 200, depth));
            EXPECT_NE(error.find(std::to_string(depth) + "-bit"), std::string::npos) << error;
        }
    for (const int depth : {8, 10, 12, 16}) {
        EXPECT_EQ(start_error("float_ssim", luma(200, 200, depth)), "");
        EXPECT_EQ(start_error("float_ms_ssim", luma(200, 200, depth)), "");
    }
}

// Chroma is never read: every layout of the same luma scores the same, at every depth, on odd
// sizes, and the score is a finite SSIM.
TEST(SsimFeature, EveryLayoutAndDepthScoresTheLuma) {
    for (const int depth : {8, 10, 12, 16})
        for (const auto& [width, height] : {std::pair{177, 181}, {201, 176}}) {
            std::vector<double> ssim, ms_ssim;
            for (const ChromaFormat chroma : {ChromaFormat::yuv420, ChromaFormat::yuv422,
                                              ChromaFormat::yuv444, ChromaFormat::yuv400}) {
                const VideoFormat format{width, height, depth, chroma};
                const Picture ref = make_picture(format, [&](int plane, int y, int x) {
                    return plane == 0 ? ((x * 7 + y * 13 + x * y) << (depth - 8)) % (1 << depth)
                                      : (x + y) % 5;
                });
                const Picture dist = perturbed(ref, 4 << (depth - 8), 3);
                ssim.push_back(score_of(score_pair("float_ssim", ref, dist), "float_ssim"));
                ms_ssim.push_back(
                    score_of(score_pair("float_ms_ssim", ref, dist), "float_ms_ssim"));
            }
            for (std::size_t i = 1; i < ssim.size(); ++i) {
                EXPECT_EQ(ssim[i], ssim[0]) << depth << "-bit " << width << "x" << height;
                EXPECT_EQ(ms_ssim[i], ms_ssim[0]) << depth << "-bit " << width << "x" << height;
            }
            EXPECT_TRUE(ssim[0] > 0 && ssim[0] < 1) << ssim[0];
            EXPECT_TRUE(ms_ssim[0] > 0 && ms_ssim[0] < 1) << ms_ssim[0];
        }
}

// An inverted picture makes some s_k negative, and the reference's pow gives NaN (§9.4): vq
// reproduces it (printed null), and enable_db + clip_db maps it to max_db (§10.1).
TEST(SsimFeature, AntiCorrelatedMsSsimIsNaNAsInTheReference) {
    const Picture ref = make_picture({176, 176, 8, ChromaFormat::yuv420}, Content::texture, 5);
    const Picture inverted = make_picture(
        ref.format(), [&](int plane, int y, int x) { return 255 - sample_at(ref, plane, y, x); });
    EXPECT_TRUE(std::isnan(score_of(score_pair("float_ms_ssim", ref, inverted), "float_ms_ssim")));
    EXPECT_EQ(score_of(score_pair("float_ms_ssim=enable_db=true:clip_db=true", ref, inverted),
                       "float_ms_ssim"),
              97.0);
}

// Frames run in any order on any thread: the scores of a run never depend on the thread count.
TEST(SsimFeature, ThreadsNeverChangeAScore) {
    const VideoFormat format{641, 359, 10, ChromaFormat::yuv420};
    const auto frames = adversarial_frames(format, 6, 9);
    for (const char* request : {"float_ssim=enable_lcs=true", "float_ms_ssim=enable_lcs=true"}) {
        ScoreTable tables[2];
        for (int i = 0; i < 2; ++i) {
            Session session({.threads = i == 0 ? 1u : 4u});
            session.add_feature(request);
            session.start(format);
            for (const FramePair& pair : frames) session.push(pair);
            tables[i] = session.finish();
        }
        for (std::size_t c = 0; c < tables[0].column_count(); ++c)
            for (std::size_t f = 0; f < frames.size(); ++f) {
                const double a = tables[0].value(c, f).value_or(-1);
                const double b = tables[1].value(c, f).value_or(-1);
                EXPECT_TRUE(a == b || (std::isnan(a) && std::isnan(b)))
                    << request << " " << tables[0].name(c) << " frame " << f;
            }
    }
}

}  // namespace
}  // namespace vq::test
