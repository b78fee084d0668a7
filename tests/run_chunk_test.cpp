// vq::run_chunk and vq::merge_chunks (include/vq/run.hpp): a run scored in chunks and merged gives
// the whole run's table bit for bit, whatever the chunk size, for the temporal features (motion's
// window and moving average, SpEED's previous frame), the VMAF models and --subsample.
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
#if VQ_WITH_CUDA
#include "cuda/cuda_backend.hpp"
#endif

namespace vq {
namespace {

namespace fs = std::filesystem;

constexpr VideoFormat format{128, 96, 8, ChromaFormat::yuv420};  // SpEED needs 80x80
constexpr std::size_t clip_frames = 11;

struct Clip {
    fs::path reference, distorted;
};

Clip make_clip(const std::string& name, const VideoFormat& format = format) {
    const fs::path dir = test::scratch_dir(name);
    return {test::write_synthetic_y4m(dir / "ref.y4m", format, SyntheticScene::mixed, false,
                                      clip_frames),
            test::write_synthetic_y4m(dir / "dist.y4m", format, SyntheticScene::mixed, true,
                                      clip_frames)};
}

Job job_of(const Clip& clip, std::vector<std::string> models, std::vector<std::string> features) {
    Job job;
    job.reference.path = clip.reference.string();
    job.distorted.path = clip.distorted.string();
    job.models = std::move(models);
    for (std::string& feature : features) job.features.push_back({std::move(feature)});
    job.session.threads = 2;
    return job;
}

RunDescription description_of(const ScoreTable& table) {
    return {table.receipts(), table.backend_used(), table.fps(), table.width(), table.height()};
}

ScoreTable chunked(const Job& job, std::size_t chunk_frames) {
    const std::size_t frames = count_frames(job);
    std::vector<Chunk> chunks;
    RunObserver quiet;
    // Scored last chunk first: merging orders them.
    for (std::size_t first = (frames - 1) / chunk_frames * chunk_frames;; first -= chunk_frames) {
        ScoreTable scores = run_chunk(job, first, chunk_frames, quiet);
        RunDescription run = description_of(scores);
        chunks.push_back({first, std::move(scores), std::move(run)});
        if (first == 0) break;
    }
    return merge_chunks(chunks);
}

bool same_bits(std::optional<double> a, std::optional<double> b) {
    return a.has_value() == b.has_value() && (!a || std::memcmp(&*a, &*b, sizeof(double)) == 0);
}

void expect_whole_run(const Job& job) {
    RunObserver quiet;
    const ScoreTable whole = run(job, quiet);
    ASSERT_EQ(count_frames(job), whole.frame_count());
    for (const std::size_t chunk_frames : {std::size_t(1), std::size_t(2), std::size_t(4),
                                           std::size_t(7), std::size_t(11), std::size_t(30)}) {
        const ScoreTable merged = chunked(job, chunk_frames);
        ASSERT_EQ(merged.column_count(), whole.column_count());
        ASSERT_EQ(merged.frame_count(), whole.frame_count());
        EXPECT_EQ(merged.subsample(), whole.subsample());
        for (std::size_t c = 0; c < whole.column_count(); ++c) {
            ASSERT_EQ(merged.name(c), whole.name(c));
            for (std::size_t frame = 0; frame < whole.frame_count(); ++frame)
                EXPECT_TRUE(same_bits(merged.value(c, frame), whole.value(c, frame)))
                    << whole.name(c) << " frame " << frame << ", chunks of " << chunk_frames;
            for (const PoolingMethod method : all_pooling_methods)
                EXPECT_TRUE(same_bits(merged.pooled(c, method), whole.pooled(c, method)))
                    << whole.name(c) << " " << to_string(method);
        }
        EXPECT_EQ(merged.receipts().size(), whole.receipts().size());
        EXPECT_EQ(merged.backend_used(), whole.backend_used());
        EXPECT_EQ(merged.width(), whole.width());
    }
}

TEST(RunChunk, MotionAndVmafEqualTheWholeRun) {
    expect_whole_run(
        job_of(make_clip("chunk_vmaf"), {"version=vmaf_v0.6.1"}, {"psnr", "speed_temporal"}));
}

TEST(RunChunk, MotionWindowAndMovingAverageEqualTheWholeRun) {
    expect_whole_run(job_of(make_clip("chunk_motion"), {},
                            {"motion=motion_five_frame_window=true:motion_moving_average=true",
                             "motion=motion_moving_average=true", "speed_temporal"}));
}

TEST(RunChunk, VmafV1HighFrameRateEqualsTheWholeRun) {
    // The v1 models' CAMBI wants a side of 216, SpEED chroma planes of 80x80.
    expect_whole_run(job_of(make_clip("chunk_v1", {256, 176, 8, ChromaFormat::yuv420}),
                            {"version=vmaf_v1.0.16_hfr_3d0h"}, {}));
}

// The CUDA twins keep earlier frames on the device (motion's previous luma plane): a chunk's run
// starts them afresh at its first read frame, as the CPU twins' empty history does.
TEST(RunChunk, CudaEqualsTheWholeCudaRun) {
#if VQ_WITH_CUDA
    if (cuda::usable_device_count() == 0) GTEST_SKIP() << "no usable CUDA device";
    Job job = job_of(make_clip("chunk_cuda", {256, 176, 8, ChromaFormat::yuv420}),
                     {"version=vmaf_v1.0.16_hfr_3d0h"}, {"motion=motion_moving_average=true"});
    job.session.backend = Backend::cuda;
    expect_whole_run(job);
#else
    GTEST_SKIP() << "built without CUDA";
#endif
}

TEST(RunChunk, SubsampleAndFrameRangeEqualTheWholeRun) {
    Job job = job_of(make_clip("chunk_subsample"), {"version=vmaf_v0.6.1"}, {});
    job.session.subsample = 3;
    expect_whole_run(job);
    job.frames = {8, 1, 2};  // frames 1.. of the reference against 2.. of the distorted, 8 pairs
    expect_whole_run(job);
}

TEST(RunChunk, RefusesWhatNeedsTheWholeRun) {
    const Clip clip = make_clip("chunk_refusal");
    RunObserver quiet;
    EXPECT_NE(test::error_of(
                  [&] { run_chunk(job_of(clip, {}, {"psnr=enable_apsnr=true"}), 0, 4, quiet); },
                  ErrorKind::usage)
                  .find("psnr=enable_apsnr sums the squared errors of the whole run"),
              std::string::npos);
    const Job job = job_of(clip, {}, {"psnr"});
    EXPECT_EQ(test::error_of([&] { run_chunk(job, 0, 0, quiet); }, ErrorKind::usage),
              "a chunk needs at least one frame");
    EXPECT_NE(test::error_of([&] { run_chunk(job, 11, 2, quiet); }).find("after skipping"),
              std::string::npos);
    EXPECT_EQ(test::error_of([&] { run_chunk(job_of(clip, {}, {"motion"}), 11, 2, quiet); }),
              "the chunk at frame 11 starts past the run's 11 frames");
}

TEST(RunChunk, AChunkHoldsOnlyItsFrames) {
    const Job job = job_of(make_clip("chunk_own"), {}, {"motion"});
    RunObserver quiet;
    const ScoreTable whole = run(job, quiet);
    const ScoreTable chunk = run_chunk(job, 4, 3, quiet);
    ASSERT_EQ(chunk.frame_count(), 3u);
    ASSERT_EQ(chunk.column_count(), whole.column_count());
    for (std::size_t c = 0; c < whole.column_count(); ++c)
        for (std::size_t i = 0; i < 3; ++i)
            EXPECT_TRUE(same_bits(chunk.value(c, i), whole.value(c, 4 + i))) << whole.name(c);
    EXPECT_EQ(run_chunk(job, 9, 5, quiet).frame_count(), 2u);  // the run ends at frame 11
}

TEST(RunChunk, MergeRefusesGapsAndOverlaps) {
    const Job job = job_of(make_clip("chunk_merge"), {}, {"psnr"});
    RunObserver quiet;
    const auto chunk = [&](std::size_t first, std::size_t count) {
        ScoreTable scores = run_chunk(job, first, count, quiet);
        RunDescription run = description_of(scores);
        return Chunk{first, std::move(scores), std::move(run)};
    };
    EXPECT_EQ(test::error_of(
                  [&] {
                      merge_chunks({chunk(0, 4), chunk(5, 3)});
                  },
                  ErrorKind::usage),
              "chunks to merge leave a gap at frame 4");
    EXPECT_EQ(test::error_of(
                  [&] {
                      merge_chunks({chunk(0, 4), chunk(3, 3)});
                  },
                  ErrorKind::usage),
              "chunks to merge overlap at frame 3");
    EXPECT_EQ(test::error_of([&] { merge_chunks({}); }, ErrorKind::usage), "no chunks to merge");
}

}  // namespace
}  // namespace vq
