// vq::run (include/vq/run.hpp): a Job scores as a hand-driven Session does, tells its observer
// what happens, and stops when the observer says so.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "io/frame_source.hpp"
#include "test_support.hpp"
#include "vq/error.hpp"
#include "vq/run.hpp"

namespace vq {
namespace {

class RecordingObserver : public RunObserver {
public:
    std::size_t stop_after = 0;  // 0: never stop
    std::vector<FeatureReceipt> receipts;
    std::size_t frames = 0;

    void started(const std::vector<FeatureReceipt>& r, std::optional<std::size_t>) override {
        receipts = r;
    }
    bool progress(std::size_t n) override {
        frames = n;
        return stop_after == 0 || n < stop_after;
    }
};

Job psnr_job(const std::filesystem::path& clip) {
    Job job;
    job.reference.path = (clip / "ref.y4m").string();
    job.distorted.path = (clip / "dist.y4m").string();
    job.features = {{"psnr"}};
    job.frames.frame_count = 4;
    job.session.threads = 2;
    return job;
}

TEST(RunApi, ScoresAsASessionDrivenByHand) {
    VQ_REQUIRE_FIXTURES(fixtures);
    const auto clip = fixtures / "testsrc_576x324_8b_420";
    RecordingObserver observer;
    const ScoreTable table = run(psnr_job(clip), observer);
    ASSERT_EQ(observer.receipts.size(), 1u);
    EXPECT_EQ(observer.receipts[0].backend, "cpu");
    EXPECT_EQ(observer.frames, 4u);

    Session session({.threads = 2});
    session.add_feature("psnr");
    auto reference = open_y4m((clip / "ref.y4m").string());
    auto distorted = open_y4m((clip / "dist.y4m").string());
    session.start(distorted->format());
    for (int i = 0; i < 4; ++i) session.push({*reference->next(), *distorted->next()});
    const ScoreTable by_hand = session.finish();

    ASSERT_EQ(table.frame_count(), by_hand.frame_count());
    ASSERT_EQ(table.column_count(), by_hand.column_count());
    for (std::size_t c = 0; c < table.column_count(); ++c)
        for (std::size_t f = 0; f < table.frame_count(); ++f)
            EXPECT_EQ(table.value(c, f), by_hand.value(c, f)) << table.name(c) << " frame " << f;
}

TEST(RunApi, AnObserverThatSaysStopEndsTheRunWithAnError) {
    VQ_REQUIRE_FIXTURES(fixtures);
    RecordingObserver observer;
    observer.stop_after = 2;
    try {
        run(psnr_job(fixtures / "testsrc_576x324_8b_420"), observer);
        FAIL() << "the run was not stopped";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::runtime);
        EXPECT_EQ(std::string(e.what()), "the run was stopped by its caller after 2 frames");
    }
    EXPECT_EQ(observer.frames, 2u);
}

}  // namespace
}  // namespace vq
