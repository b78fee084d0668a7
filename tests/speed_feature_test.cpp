// SpEED through the session: output names with options, every bad option and too-small input as
// a one-line usage error, every layout and depth, odd sizes (whole ceil-size chroma planes), and
// speed_temporal's temporal contract (frame 0, threads, subsampling, speed_use_ref_diff).
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "metrics/speed/speed_stages.hpp"
#include "speed_example_frames.hpp"
#include "support/pictures.hpp"
#include "vq/error.hpp"
#include "vq/session.hpp"

namespace vq::test {
namespace {

using namespace vq::speed;

ScoreTable run(const std::string& request, const std::vector<FramePair>& frames,
               SessionConfig config = {.threads = 1}) {
    Session session(config);
    session.add_feature(request);
    session.start(frames.at(0).distorted.format());
    for (const FramePair& pair : frames) session.push(pair);
    return session.finish();
}

std::vector<double> column(const ScoreTable& table, std::size_t c) {
    std::vector<double> values;
    for (std::size_t f = 0; f < table.frame_count(); ++f)
        values.push_back(table.value(c, f).value_or(-1));
    return values;
}

// A natural-looking pair of the given format: texture, and a perturbed copy.
std::vector<FramePair> texture_frames(const VideoFormat& format, int count) {
    std::vector<FramePair> frames;
    for (int i = 0; i < count; ++i) {
        const Picture ref = make_picture(format, Content::texture, 7 + std::uint32_t(i));
        frames.push_back({ref, perturbed(ref, 3 << (format.bit_depth - 8), 11 + std::uint32_t(i))});
    }
    return frames;
}

// The usage error a request or format gets, or "" if it runs.
std::string usage_error_of(const std::string& request, const VideoFormat& format) {
    try {
        run(request, texture_frames(format, 1));
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::usage) << e.what();
        EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
        return e.what();
    }
    return "";
}

const VideoFormat small_420{192, 176, 8, ChromaFormat::yuv420};

TEST(SpeedOptions, NamesCarryNonDefaultOptionsSortedByFullName) {
    const ScoreTable table =
        run("speed_chroma=speed_weight_var_mode=5:speed_sigma_nn=0.19:speed_kernelscale=1.0:"
            "speed_nn_floor=0.1:speed_max_val=45",
            texture_frames(small_420, 1));
    ASSERT_EQ(table.column_count(), 3u);
    EXPECT_EQ(table.name(0), "speed_chroma_u_mxv_45_nnf_0.1_snn_0.19_wvm_5");
    EXPECT_EQ(table.name(2), "speed_chroma_uv_mxv_45_nnf_0.1_snn_0.19_wvm_5");
    const ScoreTable temporal = run("speed_temporal=speed_use_ref_diff=true:speed_kernelscale=0.5",
                                    texture_frames(small_420, 1));
    EXPECT_EQ(temporal.name(0), "speed_temporal_ks_0.5_urd");
}

TEST(SpeedOptions, BadValuesAreOneLineUsageErrors) {
    for (const auto& [request, says] :
         {std::pair{"speed_chroma=speed_weight_var_mode=7", "speed_weight_var_mode"},
          std::pair{"speed_chroma=speed_sigma_nn=0.05", "speed_sigma_nn"},
          std::pair{"speed_chroma=speed_prescale=5", "speed_prescale"},
          std::pair{"speed_chroma=speed_prescale_method=area", "speed_prescale_method"},
          std::pair{"speed_chroma=speed_kernelscale=0.3", "invalid speed_kernelscale"},
          std::pair{"speed_chroma=speed_max_val=1001", "speed_max_val"},
          std::pair{"speed_temporal=speed_prescale=1.5", "at most 1"}})
        EXPECT_NE(usage_error_of(request, small_420).find(says), std::string::npos) << request;
}

TEST(SpeedOptions, TooSmallPlanesNameTheLimit) {
    using F = VideoFormat;
    const auto fails = [](const std::string& request, const F& format) {
        return usage_error_of(request, format).find("at least 80x80") != std::string::npos;
    };
    EXPECT_TRUE(fails("speed_chroma", F{158, 176, 8, ChromaFormat::yuv420}));
    EXPECT_FALSE(fails("speed_chroma", F{160, 160, 8, ChromaFormat::yuv420}));
    EXPECT_TRUE(fails("speed_chroma", F{160, 79, 8, ChromaFormat::yuv422}));
    EXPECT_FALSE(fails("speed_chroma", F{80, 80, 8, ChromaFormat::yuv444}));
    EXPECT_TRUE(fails("speed_chroma", F{79, 80, 8, ChromaFormat::yuv444}));
    // ps 0.5 needs 159 (trunc(159 * 0.5 + 0.5) = 80).
    EXPECT_TRUE(fails("speed_chroma=speed_prescale=0.5", F{158, 200, 8, ChromaFormat::yuv444}));
    EXPECT_FALSE(fails("speed_chroma=speed_prescale=0.5", F{159, 159, 8, ChromaFormat::yuv444}));
    EXPECT_TRUE(fails("speed_temporal", F{79, 100, 8, ChromaFormat::yuv420}));
    EXPECT_NE(usage_error_of("speed_chroma", F{200, 200, 8, ChromaFormat::yuv400}).find("4:0:0"),
              std::string::npos);
}

// Within 1e-3 of 1 nothing is rescaled, yet the size comes from ps (spec §4): refused where the
// two differ, accepted where they agree.
TEST(SpeedOptions, PrescaleNearOneMustKeepThePlaneSize) {
    EXPECT_NE(
        usage_error_of("speed_chroma=speed_prescale=1.0005", {1920, 160, 8, ChromaFormat::yuv444})
            .find("within 1e-3 of 1"),
        std::string::npos);
    EXPECT_EQ(usage_error_of("speed_chroma=speed_prescale=1.0005", small_420), "");
}

// Samples shifted left by d - 8 bits convert to the same floats (spec §3), so every depth gives
// the 8-bit scores, in every layout and at odd sizes.
TEST(SpeedLayouts, EveryDepthAndLayoutMatchesEightBit) {
    for (const ChromaFormat chroma :
         {ChromaFormat::yuv420, ChromaFormat::yuv422, ChromaFormat::yuv444}) {
        const VideoFormat eight{331, 323, 8, chroma};  // chroma of 10x10 blocks or more
        const std::vector<FramePair> base = texture_frames(eight, 1);
        const std::vector<double> expected = column(run("speed_chroma", base), 2);
        EXPECT_GT(expected[0], 0.0) << to_string(chroma);
        for (int depth = 9; depth <= 16; ++depth) {
            VideoFormat deep = eight;
            deep.bit_depth = depth;
            const auto shifted = [&](const Picture& p) {
                return make_picture(deep, [&](int plane, int y, int x) {
                    return sample_at(p, plane, y, x) << (depth - 8);
                });
            };
            const ScoreTable table =
                run("speed_chroma", {{shifted(base[0].reference), shifted(base[0].distorted)}});
            EXPECT_EQ(column(table, 2), expected) << to_string(chroma) << " " << depth << "-bit";
        }
    }
}

// Odd 4:2:0 planes are ceil-size in vq; SpEED reads the whole plane (the reference drops the
// last chroma row and column, INDEX.md).
TEST(SpeedLayouts, OddFourTwoZeroUsesTheWholeCeilSizePlanes) {
    const std::vector<FramePair> frames = texture_frames({641, 359, 10, ChromaFormat::yuv420}, 1);
    const ScoreTable table = run("speed_chroma", frames);
    Options options;
    const Config config(options, 321, 180, "speed_chroma");
    const ChannelScore u =
        score_channel(centred_rows(frames[0].reference, 1), centred_rows(frames[0].distorted, 1),
                      config, best_kernels());
    EXPECT_EQ(table.value(0, 0).value_or(-1), double(u.score));
}

std::vector<FramePair> moving_frames(int count) {
    const VideoFormat format{200, 176, 8, ChromaFormat::yuv420};
    std::vector<FramePair> frames;
    for (int i = 0; i < count; ++i) {
        const Picture ref = make_picture(format, [&](int plane, int y, int x) {
            return plane ? 128 : (x * 3 + y * 2 + 5 * i + ((x * 7 + y * 13 + i) % 11)) % 256;
        });
        frames.push_back({ref, perturbed(ref, 4 + i % 3, std::uint32_t(i))});
    }
    return frames;
}

TEST(SpeedTemporal, FrameZeroIsZeroAndLaterFramesCompareWithTheirPredecessor) {
    const std::vector<FramePair> frames = moving_frames(4);
    for (const bool ref_diff : {false, true}) {
        const ScoreTable table =
            run(ref_diff ? "speed_temporal=speed_use_ref_diff=true" : "speed_temporal", frames);
        Options options;
        const Config config(options, 200, 176, "speed_temporal");
        EXPECT_EQ(table.value(0, 0), 0.0);
        for (std::size_t f = 1; f < frames.size(); ++f) {
            const FloatPlane ref = centred_plane(frames[f].reference, 0);
            const FloatPlane dist = centred_plane(frames[f].distorted, 0);
            const FloatPlane previous_ref = centred_plane(frames[f - 1].reference, 0);
            const FloatPlane previous_dist = centred_plane(frames[f - 1].distorted, 0);
            const ChannelScore expected = score_channel(
                difference_rows(rows_of(previous_ref), rows_of(ref)),
                difference_rows(rows_of(previous_dist), rows_of(ref_diff ? ref : dist)), config,
                best_kernels());
            EXPECT_EQ(table.value(0, f), double(expected.score)) << "frame " << f;
            EXPECT_GT(expected.score, 0.0f) << "frame " << f;
        }
    }
}

TEST(SpeedTemporal, ThreadsAndSubsamplingGiveTheSameSeries) {
    const std::vector<FramePair> frames = moving_frames(7);
    const std::vector<double> one = column(run("speed_temporal", frames), 0);
    EXPECT_EQ(column(run("speed_temporal", frames, {.threads = 4}), 0), one);
    const ScoreTable sub = run("speed_temporal", frames, {.threads = 3, .subsample = 3});
    for (std::size_t f = 0; f < frames.size(); f += 3) EXPECT_EQ(sub.value(0, f), one[f]) << f;
}

}  // namespace
}  // namespace vq::test
