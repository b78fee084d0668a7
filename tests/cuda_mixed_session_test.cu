// A session with a CUDA executor and a CPU executor at once: under the CPU backend, a "NAME_cuda"
// request puts that one feature on the GPU while the others stay on the CPU. Every feature has a
// CUDA twin now, so this is how a run mixes the two; the scores must be the all-CPU run's, bit for
// bit, and the receipt (feature_backends) must say which ran where. Through the CLI, the transfer
// counter shows one upload per picture and one readback per frame.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cuda_test_support.hpp"
#include "support/pictures.hpp"
#include "test_support.hpp"
#include "vq/session.hpp"

namespace vq::test {
namespace {

namespace fs = std::filesystem;

// PSNR on the GPU; motion (which keeps reference history on the host) and VIF on the CPU.
const std::vector<std::string> mixed_requests = {"psnr_cuda", "motion", "vif"};
const std::vector<std::string> cpu_requests = {"psnr", "motion", "vif"};

ScoreTable run_session(const std::vector<std::string>& requests,
                       const std::vector<FramePair>& frames) {
    Session session({.threads = 2, .backend = Backend::cpu});
    for (const std::string& request : requests) session.add_feature(request);
    session.start(frames.at(0).distorted.format());
    for (const FramePair& pair : frames) session.push(pair);
    return session.finish();
}

void write_y4m(const fs::path& path, const std::vector<Picture>& frames) {
    const VideoFormat& format = frames.at(0).format();
    std::ofstream out(path, std::ios::binary);
    out << "YUV4MPEG2 W" << format.width << " H" << format.height << " F25:1 Ip C420jpeg\n";
    for (const Picture& picture : frames) {
        out << "FRAME\n";
        out.write(reinterpret_cast<const char*>(picture.data()),
                  std::streamsize(picture.size_bytes()));
    }
}

TEST(CudaMixedSession, OneFeatureOnTheGpuBesideTwoOnTheCpuScoresAsTheCpuAlone) {
    VQ_REQUIRE_CUDA();
    for (const int bit_depth : {8, 10}) {
        SCOPED_TRACE(bit_depth);
        const VideoFormat format{176, 144, bit_depth, ChromaFormat::yuv420};
        const auto frames = adversarial_frames(format, 5, 11);
        const ScoreTable mixed = run_session(mixed_requests, frames);
        const ScoreTable cpu = run_session(cpu_requests, frames);

        ASSERT_EQ(mixed.receipts().size(), 3u);
        EXPECT_EQ(mixed.receipts()[0].backend, "cuda");
        EXPECT_EQ(mixed.receipts()[1].feature, "motion");
        EXPECT_EQ(mixed.receipts()[1].backend, "cpu");
        EXPECT_EQ(mixed.receipts()[2].feature, "vif");
        EXPECT_EQ(mixed.receipts()[2].backend, "cpu");
        EXPECT_EQ(mixed.backend_used(), "cuda+cpu");

        ASSERT_EQ(mixed.column_count(), cpu.column_count());
        ASSERT_EQ(mixed.frame_count(), frames.size());
        for (std::size_t c = 0; c < cpu.column_count(); ++c) {
            ASSERT_EQ(mixed.name(c), cpu.name(c));
            for (std::size_t f = 0; f < frames.size(); ++f)
                EXPECT_EQ(mixed.value(c, f), cpu.value(c, f)) << cpu.name(c) << " frame " << f;
        }
    }
}

TEST(CudaMixedSession, CliReceiptAndTransferCounts) {
    VQ_REQUIRE_CUDA();
    const VideoFormat format{176, 144, 8, ChromaFormat::yuv420};
    const fs::path dir = scratch_dir("cuda_mixed_session");
    std::vector<Picture> reference, distorted;
    for (const FramePair& pair : adversarial_frames(format, 3, 9)) {
        reference.push_back(pair.reference);
        distorted.push_back(pair.distorted);
    }
    write_y4m(dir / "ref.y4m", reference);
    write_y4m(dir / "dist.y4m", distorted);

    setenv("VQ_DEBUG_TRANSFERS", "1", 1);
    const auto result =
        run_vq("-r \"" + (dir / "ref.y4m").string() + "\" -d \"" + (dir / "dist.y4m").string() +
               "\" --feature psnr_cuda --feature motion --backend cpu --json -o \"" +
               (dir / "out.json").string() + "\"");
    unsetenv("VQ_DEBUG_TRANSFERS");
    ASSERT_EQ(result.exit_code, 0) << result.output;
    // Two pictures per frame uploaded once each; one readback of the frame's results.
    const std::string transfers =
        "3 frames, 6 uploads (" + std::to_string(6 * format.frame_bytes()) + " bytes), 3 readbacks";
    EXPECT_NE(result.output.find(transfers), std::string::npos) << result.output;

    const auto json = nlohmann::json::parse(read_file(dir / "out.json"));
    EXPECT_EQ(json["feature_backends"]["motion"], "cpu");
    EXPECT_EQ(json["backend_used"], "cuda+cpu");
    EXPECT_EQ(json["feature_backends"].size(), 2u) << json["feature_backends"].dump();
}

}  // namespace
}  // namespace vq::test
