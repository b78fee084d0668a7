// vq::run_many (include/vq/run.hpp): several distorted videos against one reference read once.
// Each input's scores are bit for bit those of its own vq::run; an input that fails fails alone.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "core/synthetic.hpp"
#include "io_test_support.hpp"
#include "test_support.hpp"
#include "vq/error.hpp"
#include "vq/run.hpp"

namespace vq {
namespace {

namespace fs = std::filesystem;

constexpr VideoFormat format{96, 64, 8, ChromaFormat::yuv420};

DistortedInput input_of(const fs::path& path) {
    DistortedInput input;
    input.video.path = path.string();
    return input;
}

Job vmaf_job(const fs::path& reference) {
    Job job;
    job.reference.path = reference.string();
    job.models = {"version=vmaf_v0.6.1"};
    job.features = {{"psnr"}};
    job.session.threads = 2;
    return job;
}

void expect_same_scores(const ScoreTable& a, const ScoreTable& b, const std::string& input) {
    ASSERT_EQ(a.column_count(), b.column_count()) << input;
    ASSERT_EQ(a.frame_count(), b.frame_count()) << input;
    for (std::size_t c = 0; c < a.column_count(); ++c) {
        ASSERT_EQ(a.name(c), b.name(c));
        for (std::size_t frame = 0; frame < a.frame_count(); ++frame) {
            const auto x = a.value(c, frame), y = b.value(c, frame);
            ASSERT_EQ(x.has_value(), y.has_value()) << input << " " << a.name(c) << " " << frame;
            if (x) {
                EXPECT_EQ(std::memcmp(&*x, &*y, sizeof(double)), 0)
                    << input << " " << a.name(c) << " frame " << frame << ": " << *x << " vs "
                    << *y;
            }
        }
    }
    EXPECT_EQ(a.aggregates(), b.aggregates()) << input;
}

class CountingObserver : public RunObserver {
public:
    std::vector<std::string> notes;
    std::size_t frames = 0;
    void note(const std::string& line) override { notes.push_back(line); }
    bool progress(std::size_t n) override {
        frames = n;
        return true;
    }
};

TEST(RunMany, EachInputScoresAsItsOwnRun) {
    const fs::path dir = test::scratch_dir("run_many_each");
    const fs::path reference =
        test::write_synthetic_y4m(dir / "ref.y4m", format, SyntheticScene::mixed, false, 6);
    const std::vector<fs::path> distorted = {
        test::write_synthetic_y4m(dir / "a.y4m", format, SyntheticScene::mixed, true, 6),
        test::write_synthetic_y4m(dir / "b.y4m", format, SyntheticScene::textured, true, 6),
        test::write_synthetic_y4m(dir / "short.y4m", format, SyntheticScene::banded_gradient, true,
                                  4)};
    const Job job = vmaf_job(reference);
    std::vector<DistortedInput> inputs;
    for (const fs::path& path : distorted) inputs.push_back(input_of(path));

    CountingObserver observer;
    const std::vector<InputOutcome> outcomes = run_many(job, inputs, observer);
    ASSERT_EQ(outcomes.size(), distorted.size());
    EXPECT_EQ(observer.frames, 6u);
    ASSERT_EQ(observer.notes.size(), 1u);
    EXPECT_NE(observer.notes[0].find("short.y4m' ended before"), std::string::npos);
    for (std::size_t i = 0; i < distorted.size(); ++i) {
        ASSERT_TRUE(outcomes[i].scores) << outcomes[i].error->what();
        Job own = job;
        own.distorted.path = distorted[i].string();
        own.session.threads = 1;  // scores never depend on the threads
        RunObserver quiet;
        expect_same_scores(*outcomes[i].scores, run(own, quiet), distorted[i].string());
    }
    EXPECT_EQ(outcomes[2].scores->frame_count(), 4u);
}

// One run_many of `job` against `distorted`: every input's table is its own vq::run's, bit for bit.
void expect_each_input_scores_as_its_own_run(const Job& job,
                                             const std::vector<fs::path>& distorted) {
    std::vector<DistortedInput> inputs;
    for (const fs::path& path : distorted) inputs.push_back(input_of(path));
    RunObserver quiet;
    const std::vector<InputOutcome> outcomes = run_many(job, inputs, quiet);
    for (std::size_t i = 0; i < distorted.size(); ++i) {
        ASSERT_TRUE(outcomes[i].scores) << outcomes[i].error->what();
        Job own = job;
        own.distorted.path = distorted[i].string();
        expect_same_scores(*outcomes[i].scores, run(own, quiet), distorted[i].string());
    }
}

// Motion reads the reference alone: its blocks are computed once per frame for every input (the
// reference-side stage) while each input's session keeps its own series, window and average.
TEST(RunMany, SharedReferenceSideKeepsEveryTemporalVariantExact) {
    const fs::path dir = test::scratch_dir("run_many_shared_motion");
    const fs::path reference =
        test::write_synthetic_y4m(dir / "ref.y4m", format, SyntheticScene::mixed, false, 9);
    const std::vector<fs::path> distorted = {
        test::write_synthetic_y4m(dir / "a.y4m", format, SyntheticScene::mixed, true, 9),
        test::write_synthetic_y4m(dir / "short.y4m", format, SyntheticScene::textured, true, 5),
        test::write_synthetic_y4m(dir / "b.y4m", format, SyntheticScene::banded_gradient, true, 9)};
    Job job;
    job.reference.path = reference.string();
    job.features = {{"motion"},
                    {"motion=motion_five_frame_window=true:motion_moving_average=true"}};
    job.session.threads = 3;
    job.session.subsample = 2;
    expect_each_input_scores_as_its_own_run(job, distorted);
}

// CAMBI's reference score (full_ref) is computed once per frame for every input; the distorted
// score, each input's own.
TEST(RunMany, SharedCambiReferenceScoreKeepsEveryInputExact) {
    const fs::path dir = test::scratch_dir("run_many_shared_cambi");
    const VideoFormat wide{256, 144, 8, ChromaFormat::yuv420};  // CAMBI's smallest side is 216
    const fs::path reference =
        test::write_synthetic_y4m(dir / "ref.y4m", wide, SyntheticScene::banded_gradient, false, 5);
    const std::vector<fs::path> distorted = {
        test::write_synthetic_y4m(dir / "a.y4m", wide, SyntheticScene::banded_gradient, true, 5),
        test::write_synthetic_y4m(dir / "short.y4m", wide, SyntheticScene::mixed, true, 3),
        test::write_synthetic_y4m(dir / "b.y4m", wide, SyntheticScene::textured, true, 5)};
    Job job;
    job.reference.path = reference.string();
    job.features = {{"cambi=full_ref=true"}, {"psnr"}};
    job.session.threads = 3;
    expect_each_input_scores_as_its_own_run(job, distorted);
}

TEST(RunMany, AFailingInputFailsAlone) {
    const fs::path dir = test::scratch_dir("run_many_failing");
    const fs::path reference =
        test::write_synthetic_y4m(dir / "ref.y4m", format, SyntheticScene::mixed, false, 3);
    const fs::path good =
        test::write_synthetic_y4m(dir / "good.y4m", format, SyntheticScene::mixed, true, 3);
    const fs::path small = test::write_synthetic_y4m(
        dir / "small.y4m", {48, 32, 8, ChromaFormat::yuv420}, SyntheticScene::mixed, true, 3);
    const std::vector<DistortedInput> inputs = {input_of(dir / "missing.y4m"), input_of(good),
                                                input_of(small)};
    RunObserver quiet;
    const std::vector<InputOutcome> outcomes = run_many(vmaf_job(reference), inputs, quiet);
    ASSERT_EQ(outcomes.size(), 3u);
    ASSERT_TRUE(outcomes[0].error);
    EXPECT_NE(std::string(outcomes[0].error->what()).find("missing.y4m"), std::string::npos);
    EXPECT_TRUE(outcomes[1].scores);
    ASSERT_TRUE(outcomes[2].error);
    EXPECT_NE(std::string(outcomes[2].error->what()).find("sizes differ (96x64 vs 48x32"),
              std::string::npos);
}

// inputs_progress() follows every input: scoring, done after its last frame, failed.
TEST(RunMany, ProgressFollowsEveryInput) {
    const fs::path dir = test::scratch_dir("run_many_progress");
    const fs::path reference =
        test::write_synthetic_y4m(dir / "ref.y4m", format, SyntheticScene::mixed, false, 6);
    const fs::path good =
        test::write_synthetic_y4m(dir / "good.y4m", format, SyntheticScene::mixed, true, 6);
    const fs::path short_one =
        test::write_synthetic_y4m(dir / "short.y4m", format, SyntheticScene::textured, true, 3);
    const std::vector<DistortedInput> inputs = {input_of(good), input_of(dir / "missing.y4m"),
                                                input_of(short_one)};
    struct Recorder : RunObserver {
        std::vector<std::pair<std::size_t, std::vector<InputProgress>>> calls;
        bool inputs_progress(std::size_t frames,
                             const std::vector<InputProgress>& states) override {
            calls.emplace_back(frames, states);
            return true;
        }
    } recorder;
    const std::vector<InputOutcome> outcomes = run_many(vmaf_job(reference), inputs, recorder);
    ASSERT_EQ(recorder.calls.size(), 6u);
    using State = InputProgress::State;
    for (const auto& [frames, states] : recorder.calls) {
        SCOPED_TRACE(frames);
        ASSERT_EQ(states.size(), 3u);
        EXPECT_EQ(states[0].state, State::running);
        EXPECT_LE(states[0].frames, frames) << "frames scored, at most those handed over";
        EXPECT_EQ(states[1].state, State::failed);
        EXPECT_EQ(states[2].state, frames <= 3 ? State::running : State::done);
        if (frames > 3) {
            EXPECT_EQ(states[2].frames, 3u);
        }
    }
    EXPECT_TRUE(outcomes[0].scores && outcomes[2].scores);
}

TEST(RunMany, WhatFailsEveryInputThrows) {
    const fs::path dir = test::scratch_dir("run_many_throws");
    const fs::path clip =
        test::write_synthetic_y4m(dir / "clip.y4m", format, SyntheticScene::mixed, false, 2);
    RunObserver quiet;
    EXPECT_EQ(test::error_of([&] { run_many(vmaf_job(clip), {}, quiet); }, ErrorKind::usage),
              "no distorted input to score");
    const std::vector<DistortedInput> inputs = {input_of(clip)};
    const std::string missing = (dir / "missing.y4m").string();
    EXPECT_NE(
        test::error_of([&] { run_many(vmaf_job(missing), inputs, quiet); }).find("missing.y4m"),
        std::string::npos);
    Job bad = vmaf_job(clip);
    bad.features = {{"psnr=no_such_option=1"}};
    EXPECT_NE(test::error_of([&] { run_many(bad, inputs, quiet); }, ErrorKind::usage)
                  .find("no_such_option"),
              std::string::npos);
}

}  // namespace
}  // namespace vq
