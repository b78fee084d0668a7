// PSNR twins: the CUDA twin must give the CPU twin's bits (integer sums, spec/psnr.md §4), for
// every bit depth, chroma format, odd and large sizes and every option, through the session with
// --backend cuda against --backend cpu.
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cuda_test_support.hpp"
#include "support/compare.hpp"
#include "support/pictures.hpp"
#include "twin_parity.hpp"

namespace vq::test {
namespace {

struct Layout {
    int bit_depth;
    ChromaFormat chroma;
};

void PrintTo(const Layout& layout, std::ostream* out) {
    *out << layout.bit_depth << "-bit " << to_string(layout.chroma);
}

class CudaPsnrParity : public testing::TestWithParam<Layout> {};

TEST_P(CudaPsnrParity, MatchesTheCpuTwinBitForBit) {
    VQ_REQUIRE_CUDA();
    const auto [bit_depth, chroma] = GetParam();
    const std::vector<std::string> requests = {
        "psnr",
        "psnr=enable_mse=true:enable_apsnr=true",
        "psnr=min_sse=0.5:reduced_hbd_peak=true:enable_mse=true",
        "psnr=enable_chroma=false:enable_apsnr=true",
    };
    // 1x1 and odd sizes test the plane bounds; 1920x1080 has more samples than the grid has
    // threads, so each thread loops. Six frames wrap the executor's ring of four slots.
    const std::vector<std::pair<int, int>> sizes = {
        {64, 48}, {35, 19}, {1, 1}, {257, 3}, {1920, 1080}};
    for (const auto& [width, height] : sizes) {
        const VideoFormat format{width, height, bit_depth, chroma};
        const auto frames = adversarial_frames(format, width * height > 100000 ? 4 : 6,
                                               std::uint32_t(width + bit_depth));
        for (const std::string& request : requests) {
            const ScoreTable gpu = score_on(Backend::cuda, {request}, frames);
            ASSERT_EQ(gpu.receipts().at(0).backend, "cuda");
            expect_same_bits(score_on(Backend::cpu, {request}, frames), gpu,
                             describe_case(format, request));
        }
    }
}

INSTANTIATE_TEST_SUITE_P(
    AllDepthsAndFormats, CudaPsnrParity,
    testing::Values(Layout{8, ChromaFormat::yuv420}, Layout{10, ChromaFormat::yuv420},
                    Layout{12, ChromaFormat::yuv420}, Layout{16, ChromaFormat::yuv420},
                    Layout{8, ChromaFormat::yuv422}, Layout{10, ChromaFormat::yuv422},
                    Layout{8, ChromaFormat::yuv444}, Layout{16, ChromaFormat::yuv444},
                    Layout{8, ChromaFormat::yuv400}, Layout{12, ChromaFormat::yuv400}),
    [](const testing::TestParamInfo<Layout>& info) {
        std::string chroma = to_string(info.param.chroma);  // "4:2:0"
        std::erase(chroma, ':');
        return std::to_string(info.param.bit_depth) + "bit_yuv" + chroma;
    });

// PSNR is temporal: with --subsample it still sees every frame (APSNR sums them all).
TEST(CudaPsnrParity, SubsampledRunStillAccumulatesEveryFrame) {
    VQ_REQUIRE_CUDA();
    const VideoFormat format{96, 64, 10, ChromaFormat::yuv420};
    const auto frames = adversarial_frames(format, 9, 7);
    const std::string request = "psnr=enable_apsnr=true";
    expect_same_bits(score_on(Backend::cpu, {request}, frames, 3),
                     score_on(Backend::cuda, {request}, frames, 3), "subsample 3");
}

}  // namespace
}  // namespace vq::test
