// vq::run_many on the GPU: every input's executor reads the reference frames that one of them
// uploaded (cuda/shared_device_reference.hpp), and each input's scores must still be its own
// CUDA run's and its own CPU run's, bit for bit, also when inputs end early or fail midway.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "cuda_test_support.hpp"
#include "io_test_support.hpp"
#include "test_support.hpp"
#include "vq/run.hpp"

namespace vq::test {
namespace {

namespace fs = std::filesystem;

void expect_same_values(const ScoreTable& a, const ScoreTable& b, const std::string& what) {
    ASSERT_EQ(a.column_count(), b.column_count()) << what;
    ASSERT_EQ(a.frame_count(), b.frame_count()) << what;
    for (std::size_t c = 0; c < a.column_count(); ++c)
        for (std::size_t frame = 0; frame < a.frame_count(); ++frame) {
            const auto x = a.value(c, frame), y = b.value(c, frame);
            ASSERT_EQ(x.has_value(), y.has_value()) << what << " " << a.name(c) << " " << frame;
            if (x)
                EXPECT_EQ(std::memcmp(&*x, &*y, sizeof(double)), 0)
                    << what << " " << a.name(c) << " frame " << frame << ": " << *x << " vs "
                    << *y;
        }
}

TEST(RunManyCuda, EveryInputScoresAsItsOwnRunOnOneUploadedReference) {
    VQ_REQUIRE_CUDA();
    const fs::path dir = scratch_dir("run_many_cuda");
    // More frames than the device reference ring holds, so that its slots are reused.
    constexpr int frames = 15;
    const VideoFormat format{256, 144, 8, ChromaFormat::yuv420};  // CAMBI: a side of 216 or more
    const fs::path reference =
        write_synthetic_y4m(dir / "ref.y4m", format, SyntheticScene::mixed, false, frames);
    const std::vector<fs::path> distorted = {
        write_synthetic_y4m(dir / "a.y4m", format, SyntheticScene::mixed, true, frames),
        write_synthetic_y4m(dir / "short.y4m", format, SyntheticScene::textured, true, 7),
        write_synthetic_y4m(dir / "b.y4m", format, SyntheticScene::banded_gradient, true, frames)};
    Job job;
    job.reference.path = reference.string();
    job.models = {"version=vmaf_v0.6.1"};
    job.features = {{"psnr"}, {"cambi=full_ref=true"}, {"float_ssim"}};
    job.session.backend = Backend::cuda;
    std::vector<DistortedInput> inputs;
    for (const fs::path& path : distorted) {
        DistortedInput input;
        input.video.path = path.string();
        inputs.push_back(input);
    }
    RunObserver quiet;
    const std::vector<InputOutcome> outcomes = run_many(job, inputs, quiet);
    ASSERT_EQ(outcomes.size(), distorted.size());
    for (std::size_t i = 0; i < distorted.size(); ++i) {
        ASSERT_TRUE(outcomes[i].scores) << outcomes[i].error->what();
        Job own = job;
        own.distorted.path = distorted[i].string();
        expect_same_values(*outcomes[i].scores, run(own, quiet), distorted[i].string() + " cuda");
        own.session.backend = Backend::cpu;
        expect_same_values(*outcomes[i].scores, run(own, quiet), distorted[i].string() + " cpu");
    }
    EXPECT_EQ(outcomes[1].scores->frame_count(), 7u);
}

}  // namespace
}  // namespace vq::test
