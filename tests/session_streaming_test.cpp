// Session::frames_ready() and Session::scores(): a frame's scores read while the run goes on are
// final, equal to the bit to what finish() returns, including motion2/motion3 (which wait for the
// next frame) and the models predicted from them.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "core/synthetic.hpp"
#include "io_test_support.hpp"
#include "vq/error.hpp"
#include "vq/session.hpp"

namespace vq {
namespace {

constexpr VideoFormat format{96, 64, 8, ChromaFormat::yuv420};

struct Streamed {
    ScoreTable streamed;  // each frame's values as read the first time it was ready
    ScoreTable final;
    std::vector<std::size_t> ready_after_push;
};

Streamed stream(SessionConfig config, const std::vector<std::string>& features,
                const std::vector<std::string>& models, int frames) {
    Session session(config);
    for (const std::string& feature : features) session.add_feature(feature);
    for (const std::string& model : models) session.add_model(model);
    session.start(format);
    Streamed result;
    std::size_t taken = 0;
    const auto take_ready = [&] {
        const ScoreTable& so_far = session.scores();
        for (; taken < session.frames_ready(); ++taken)
            for (std::size_t c = 0; c < so_far.column_count(); ++c)
                if (const auto value = so_far.value(c, taken))
                    result.streamed.set(result.streamed.add_column(so_far.name(c)), taken, *value);
    };
    for (int i = 0; i < frames; ++i) {
        session.push({make_synthetic_frame(format, SyntheticScene::mixed, i, false),
                      make_synthetic_frame(format, SyntheticScene::mixed, i, true)});
        result.ready_after_push.push_back(session.frames_ready());
        take_ready();
    }
    result.final = session.finish();
    EXPECT_EQ(session.frames_ready(), std::size_t(frames));
    return result;
}

// Every value read while streaming is the final one, bit for bit.
void expect_streamed_values_final(const Streamed& run) {
    ASSERT_GT(run.streamed.frame_count(), 0u) << "no frame was ready before finish()";
    for (std::size_t c = 0; c < run.streamed.column_count(); ++c) {
        const auto column = run.final.find(run.streamed.name(c));
        ASSERT_TRUE(column) << run.streamed.name(c);
        for (std::size_t frame = 0; frame < run.streamed.frame_count(); ++frame) {
            const auto streamed = run.streamed.value(c, frame);
            if (!streamed) continue;
            const auto final = run.final.value(*column, frame);
            ASSERT_TRUE(final) << run.streamed.name(c) << " frame " << frame;
            EXPECT_EQ(std::memcmp(&*streamed, &*final, sizeof(double)), 0)
                << run.streamed.name(c) << " frame " << frame << ": " << *streamed << " vs "
                << *final;
        }
    }
}

TEST(SessionStreaming, ReadyFramesHoldTheirFinalScores) {
    const Streamed run = stream({.threads = 2}, {"psnr"}, {"version=vmaf_v0.6.1"}, 12);
    expect_streamed_values_final(run);
    EXPECT_TRUE(run.streamed.find("vmaf")) << "model scores are predicted as frames settle";
    EXPECT_TRUE(run.streamed.find("integer_motion2"));
    for (std::size_t i = 0; i < run.ready_after_push.size(); ++i)
        EXPECT_LE(run.ready_after_push[i], i + 1) << "after push " << i;
    EXPECT_TRUE(std::is_sorted(run.ready_after_push.begin(), run.ready_after_push.end()));
}

TEST(SessionStreaming, MotionWindowsAndSubsamplingStayFinal) {
    expect_streamed_values_final(
        stream({.threads = 1}, {"motion=motion_five_frame_window=true:motion_moving_average=true"},
               {}, 9));
    expect_streamed_values_final(
        stream({.threads = 2, .subsample = 3}, {}, {"version=vmaf_v0.6.1"}, 10));
}

TEST(SessionStreaming, ScoresNeedAStartedUnfinishedSession) {
    Session session;
    session.add_feature("psnr");
    const std::string message = "scores() needs a started, unfinished session";
    EXPECT_EQ(test::error_of([&] { session.scores(); }, ErrorKind::usage), message);
    session.start(format);
    EXPECT_EQ(session.frames_ready(), 0u);
    EXPECT_EQ(session.scores().column_count(), 3u);  // psnr_y, psnr_cb, psnr_cr
    session.finish();
    EXPECT_EQ(test::error_of([&] { session.scores(); }, ErrorKind::usage), message);
}

}  // namespace
}  // namespace vq
