// Decoding on the GPU (--hwdec) below the command line: every picture NVDEC decodes, downloaded,
// equals the CPU decoder's picture of the same frame of the same file, byte for byte (H.264 8-bit,
// HEVC, VP9 and AV1 8 and 10-bit); a stream NVDEC refuses (H.264 4:4:4) goes back to the CPU
// decoder from its first frame. GPU tests: they skip without one (and in builds without CUDA).
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "hwdec_test_support.hpp"
#include "io/open_video.hpp"
#if VQ_WITH_CUDA
#include "cuda/device.hpp"
#include "cuda/memory.hpp"
#include "cuda/surface_sink.hpp"
#include "cuda_test_support.hpp"
#endif

namespace vq::test {
namespace {

namespace fs = std::filesystem;

#if VQ_WITH_CUDA
std::unique_ptr<FrameSource> open_clip(const fs::path& path) {
    return open_video(path.string(), {}).source;
}

std::shared_ptr<DeviceSurfaceSink> sink_on_gpu0() {
    return std::make_shared<cuda::SurfaceSink>(cuda::Device(0));
}
#else
#define VQ_REQUIRE_CUDA() GTEST_SKIP() << "vq is built without CUDA: GPU test skipped"
#endif

class HwdecDecode : public testing::TestWithParam<const char*> {};

TEST_P(HwdecDecode, DevicePicturesEqualCpuPictures) {
    VQ_REQUIRE_CUDA();
#if VQ_WITH_CUDA
    VQ_REQUIRE_HWDEC_CLIPS(clips);
    const fs::path path = clips / GetParam();
    auto cpu = open_clip(path);
    auto gpu = open_clip(path);
    const DecoderChoice choice = gpu->choose_decoder(sink_on_gpu0(), "");
    if (!choice.on_device && nvdec_lacks_capability(choice.description))
        GTEST_SKIP() << "this GPU's NVDEC does not decode " << GetParam() << ": "
                     << choice.description;
    ASSERT_TRUE(choice.on_device) << choice.description;
    EXPECT_NE(choice.description.find(" via NVDEC (cuda)"), std::string::npos);
    ASSERT_EQ(gpu->format(), cpu->format());
    std::size_t frames = 0;
    for (;; ++frames) {
        const std::optional<Picture> expected = cpu->next();
        const std::optional<Picture> decoded = gpu->next();
        ASSERT_EQ(decoded.has_value(), expected.has_value()) << "frame " << frames;
        if (!expected) break;
        ASSERT_TRUE(decoded->on_device());
        const std::vector<std::byte> downloaded =
            cuda::to_host(decoded->data(), decoded->size_bytes());
        ASSERT_EQ(std::memcmp(downloaded.data(), expected->data(), expected->size_bytes()), 0)
            << "frame " << frames;
    }
    EXPECT_EQ(frames, 24u);
#endif
}

INSTANTIATE_TEST_SUITE_P(Codecs, HwdecDecode,
                         testing::Values("h264_8bit.mp4", "hevc_8bit.mkv", "hevc_10bit.mkv",
                                         "vp9_8bit.webm", "vp9_10bit.webm", "av1_8bit.mkv",
                                         "av1_10bit.mkv"),
                         [](const auto& info) {
                             const std::string name = info.param;
                             return name.substr(0, name.find('.'));
                         });

TEST(HwdecDecodeRefusal, H264High444StaysOnTheCpu) {
    VQ_REQUIRE_CUDA();
#if VQ_WITH_CUDA
    VQ_REQUIRE_HWDEC_CLIPS(clips);
    const fs::path path = clips / "h264_444.mp4";
    auto source = open_clip(path);
    const DecoderChoice choice = source->choose_decoder(sink_on_gpu0(), "");
    EXPECT_FALSE(choice.on_device);
    EXPECT_NE(choice.description.find("h264 (CPU, NVDEC does not decode it"), std::string::npos)
        << choice.description;
    auto expected = open_clip(path);
    for (std::size_t frame = 0; frame < 24; ++frame) {
        const std::optional<Picture> picture = source->next();
        const std::optional<Picture> cpu = expected->next();
        ASSERT_TRUE(picture && cpu) << "frame " << frame;
        EXPECT_FALSE(picture->on_device());
        EXPECT_EQ(std::memcmp(picture->data(), cpu->data(), cpu->size_bytes()), 0) << frame;
    }
#endif
}

}  // namespace
}  // namespace vq::test
