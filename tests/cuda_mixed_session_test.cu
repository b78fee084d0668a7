// --backend cuda with a feature that has no CUDA twin: that feature runs on the CPU, the others
// on the GPU, and both the receipt (feature_backends) and the log say which ran where. Through
// the CLI, the transfer counter shows one upload per picture and one readback per frame.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cuda_test_support.hpp"
#include "support/pictures.hpp"
#include "feature/registry.hpp"
#include "test_support.hpp"
#include "vq/session.hpp"

namespace vq::test {
namespace {

namespace fs = std::filesystem;

// The first registered feature without a CUDA twin, or empty if every feature has one.
std::string feature_without_twin() {
    for (const FeatureDefinition& definition : feature_registry())
        if (!definition.make_cuda) return definition.name;
    return {};
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

TEST(CudaBackendFallback, SessionRunsTwinlessFeaturesOnTheCpuAndSaysSo) {
    VQ_REQUIRE_CUDA();
    const std::string twinless = feature_without_twin();
    if (twinless.empty()) GTEST_SKIP() << "every feature has a CUDA twin";
    const VideoFormat format{256, 144, 8,
                             ChromaFormat::yuv420};  // CAMBI needs a side of 216 or more
    const auto frames = adversarial_frames(format, 3, 5);
    Session session({.backend = Backend::cuda});
    session.add_feature("psnr");
    session.add_feature(twinless);
    session.start(format);
    for (const FramePair& pair : frames) session.push(pair);
    const ScoreTable table = session.finish();
    ASSERT_EQ(table.receipts.size(), 2u);
    EXPECT_EQ(table.receipts[0].feature, "psnr");
    EXPECT_EQ(table.receipts[0].backend, "cuda");
    EXPECT_EQ(table.receipts[1].feature, twinless);
    EXPECT_EQ(table.receipts[1].backend, "cpu");
    EXPECT_EQ(table.backend_used, "cuda+cpu");
}

TEST(CudaBackendFallback, CliReceiptLogAndTransferCounts) {
    VQ_REQUIRE_CUDA();
    const std::string twinless = feature_without_twin();
    if (twinless.empty()) GTEST_SKIP() << "every feature has a CUDA twin";
    const VideoFormat format{256, 144, 8,
                             ChromaFormat::yuv420};  // CAMBI needs a side of 216 or more
    const fs::path dir = scratch_dir("cuda_fallback");
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
               "\" --feature psnr --feature " + twinless + " --backend cuda --json -o \"" +
               (dir / "out.json").string() + "\"");
    unsetenv("VQ_DEBUG_TRANSFERS");
    ASSERT_EQ(result.exit_code, 0) << result.output;
    EXPECT_NE(result.output.find("feature '" + twinless + "' has no CUDA twin; it runs on the CPU"),
              std::string::npos)
        << result.output;
    // Two pictures per frame uploaded once each; one readback of the frame's results.
    const std::string transfers =
        "3 frames, 6 uploads (" + std::to_string(6 * format.frame_bytes()) + " bytes), 3 readbacks";
    EXPECT_NE(result.output.find(transfers), std::string::npos) << result.output;

    const auto json = nlohmann::json::parse(read_file(dir / "out.json"));
    EXPECT_EQ(json["feature_backends"]["psnr"], "cuda");
    EXPECT_EQ(json["feature_backends"][twinless], "cpu");
    EXPECT_EQ(json["backend_used"], "cuda+cpu");
}

}  // namespace
}  // namespace vq::test
