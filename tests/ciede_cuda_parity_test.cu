// CIEDE2000 twins: the CUDA twin against the CPU twin on adversarial pictures and on every
// fixture, each frame's score identical (both twins compute every pixel's ΔE00 with the same
// bits; the CUDA twin sums exactly and the CPU twin in double in raster order, which is exact on
// these pictures, see ciede_cuda.cu). Both twins are driven through their executors directly, so
// the comparison does not depend on the registry choosing the twin.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <iomanip>
#include <iostream>
#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "ciede_test_support.hpp"
#include "cuda_test_support.hpp"
#include "feature/registry.hpp"
#include "metrics/ciede/ciede.hpp"
#include "support/pictures.hpp"
#include "test_support.hpp"

namespace vq::ciede {
std::unique_ptr<Feature> make_cuda(const OptionValues& values);  // ciede_cuda.cu
}

namespace vq::test {
namespace {

using Options = std::vector<std::pair<std::string, std::string>>;

// Per frame: the same score, bit for bit (NaN equals NaN). Returns the number of frames compared.
std::size_t expect_identical(const std::vector<FramePair>& frames, const Options& options,
                             const std::string& what) {
    const FeatureDefinition definition = ciede::definition();
    const OptionValues values = bind_options("ciede", definition.options, options);
    const VideoFormat& format = frames.at(0).distorted.format();
    auto cpu = definition.make_cpu(values);
    auto gpu = ciede::make_cuda(values);
    cpu->init(format);
    gpu->init(format);
    const auto expected = run_twin(*cpu, frames);
    const auto actual = run_twin(*gpu, frames);
    for (std::size_t f = 0; f < frames.size(); ++f) {
        const double a = expected[f][0], b = actual[f][0];
        EXPECT_TRUE(std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b) ||
                    (std::isnan(a) && std::isnan(b)))
            << what << " frame " << f << std::setprecision(17) << ": cpu " << a << ", cuda " << b
            << " (difference " << a - b << ")";
    }
    return frames.size();
}

struct Layout {
    int bit_depth;
    ChromaFormat chroma;
    bool reference_422;
};

void PrintTo(const Layout& layout, std::ostream* out) {
    *out << layout.bit_depth << "-bit " << to_string(layout.chroma)
         << (layout.reference_422 ? " reference_422" : "");
}

class CudaCiedeParity : public testing::TestWithParam<Layout> {};

TEST_P(CudaCiedeParity, RandomAndAdversarialPictures) {
    VQ_REQUIRE_CUDA();
    const auto [bit_depth, chroma, reference_422] = GetParam();
    const Options options = {{"reference_422", reference_422 ? "true" : "false"}};
    // Odd sizes use the ceil-size chroma rule; 3x5 in reference 4:2:2 mode reads past the last
    // chroma row (zeros); 1920x1080 makes each GPU thread loop over several pixels.
    const std::vector<std::pair<int, int>> sizes = {
        {64, 48}, {35, 19}, {1, 1}, {3, 5}, {1920, 1080}};
    for (const auto& [width, height] : sizes) {
        const VideoFormat format{width, height, bit_depth, chroma};
        const auto frames = adversarial_frames(format, width * height > 100000 ? 2 : 6,
                                               std::uint32_t(width * 3 + bit_depth));
        expect_identical(frames, options, describe(format));
    }
}

INSTANTIATE_TEST_SUITE_P(
    AllDepthsAndFormats, CudaCiedeParity,
    testing::Values(Layout{8, ChromaFormat::yuv420, false}, Layout{10, ChromaFormat::yuv420, false},
                    Layout{12, ChromaFormat::yuv420, false},
                    Layout{16, ChromaFormat::yuv420, false}, Layout{8, ChromaFormat::yuv422, false},
                    Layout{8, ChromaFormat::yuv422, true}, Layout{10, ChromaFormat::yuv422, true},
                    Layout{8, ChromaFormat::yuv444, false},
                    Layout{16, ChromaFormat::yuv444, false}),
    [](const testing::TestParamInfo<Layout>& info) {
        std::string chroma = to_string(info.param.chroma);
        std::erase(chroma, ':');
        return std::to_string(info.param.bit_depth) + "bit_yuv" + chroma +
               (info.param.reference_422 ? "_reference422" : "");
    });

TEST(CudaCiedeParity, EveryFixture) {
    VQ_REQUIRE_CUDA();
    VQ_REQUIRE_FIXTURES(fixtures);
    std::size_t compared = 0;
    for (const auto& clip : fixture_clips(fixtures)) {
        const auto reference = read_all_frames((clip / "ref.y4m").string());
        const auto distorted = read_all_frames((clip / "dist.y4m").string());
        std::vector<FramePair> frames;
        for (std::size_t f = 0; f < std::min(reference.size(), distorted.size()); ++f)
            frames.push_back({reference[f], distorted[f]});
        const std::string name = clip.filename().string();
        compared += expect_identical(frames, {}, name);
        if (frames.at(0).distorted.format().chroma == ChromaFormat::yuv422)
            compared +=
                expect_identical(frames, {{"reference_422", "true"}}, name + " reference_422");
    }
    std::cout << "ciede2000, CUDA twin against CPU twin: " << compared
              << " fixture frames compared\n";
}

// The session picks the CUDA twin for --backend cuda only if ciede's definition registers it.
TEST(CudaCiede, IsRegisteredAsCiedesCudaTwin) {
    VQ_REQUIRE_CUDA();
    EXPECT_TRUE(find_feature("ciede").definition->make_cuda)
        << "ciede::definition() does not set make_cuda = ciede::make_cuda (ciede.cpp)";
}

}  // namespace
}  // namespace vq::test
