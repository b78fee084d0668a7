// PSNR-HVS twins: the CUDA twin against the CPU twin (the oracle), all four values of every
// frame identical bit for bit (NaN equals NaN), on adversarial pictures at every depth and layout
// and odd sizes, on a 4K frame (the longest accumulator chain: its binade changes the most), on
// every fixture and, through the session with --backend cuda, on the goldens' fixtures. The
// twins are first driven through their executors directly, so the comparison does not depend on
// the registry choosing the twin. CudaPsnrHvsTiming prints the GPU time of a 4K frame.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <iomanip>
#include <iostream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "cuda/cuda_feature.hpp"
#include "cuda/memory.hpp"
#include "cuda/stream.hpp"
#include "cuda_test_support.hpp"
#include "feature/registry.hpp"
#include "metrics/psnr_hvs/psnr_hvs.hpp"
#include "support/compare.hpp"
#include "support/golden_cases.hpp"
#include "support/pictures.hpp"
#include "test_support.hpp"
#include "twin_parity.hpp"
#include "vq/error.hpp"

namespace vq::psnr_hvs {
std::unique_ptr<Feature> make_cuda(const OptionValues& values);  // psnr_hvs_cuda.cu
}

namespace vq::test {
namespace {

bool same_bits(double a, double b) {
    return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b) ||
           (std::isnan(a) && std::isnan(b));
}

std::pair<std::unique_ptr<Feature>, std::unique_ptr<Feature>> twins(const VideoFormat& format) {
    const FeatureDefinition definition = psnr_hvs::definition();
    const OptionValues values = bind_options("psnr_hvs", definition.options, {});
    std::unique_ptr<Feature> cpu = definition.make_cpu(values);
    std::unique_ptr<Feature> gpu = psnr_hvs::make_cuda(values);
    cpu->init(format);
    gpu->init(format);
    return {std::move(cpu), std::move(gpu)};
}

// Per frame: the same four values, bit for bit. Returns the number of frames compared.
std::size_t expect_identical(const std::vector<FramePair>& frames, const std::string& what) {
    auto [cpu, gpu] = twins(frames.at(0).distorted.format());
    const auto expected = run_twin(*cpu, frames);
    const auto actual = run_twin(*gpu, frames);
    for (std::size_t f = 0; f < frames.size(); ++f)
        for (std::size_t v = 0; v < expected[f].size(); ++v) {
            const double a = expected[f][v], b = actual[f][v];
            EXPECT_TRUE(same_bits(a, b))
                << what << " frame " << f << " value " << v << std::setprecision(17) << ": cpu "
                << a << ", cuda " << b << " (difference " << a - b << ")";
        }
    return frames.size();
}

struct Layout {
    int bit_depth;
    ChromaFormat chroma;
};

void PrintTo(const Layout& layout, std::ostream* out) {
    *out << layout.bit_depth << "-bit " << to_string(layout.chroma);
}

class CudaPsnrHvsParity : public testing::TestWithParam<Layout> {};

TEST_P(CudaPsnrHvsParity, AdversarialPicturesAndOddSizes) {
    VQ_REQUIRE_CUDA();
    const auto [bit_depth, chroma] = GetParam();
    // The smallest planes with a block (chroma needs 16 luma columns unless 4:4:4), sizes that
    // leave a remainder right and below, one that is a whole number of blocks plus one (the
    // step is 7), and 1080p (many accumulator groups).
    std::vector<std::pair<int, int>> sizes = {{16, 16}, {23, 17},   {35, 19},
                                              {64, 48}, {641, 359}, {1920, 1080}};
    if (chroma == ChromaFormat::yuv444) sizes.insert(sizes.end(), {{8, 8}, {15, 14}, {9, 300}});
    for (const auto& [width, height] : sizes) {
        const VideoFormat format{width, height, bit_depth, chroma};
        const int count = width * height > 100000 ? 4 : 8;
        expect_identical(adversarial_frames(format, count, std::uint32_t(width * 7 + bit_depth)),
                         describe(format));
    }
}

// Every content generator against a perturbed copy of itself: real-looking error terms.
TEST_P(CudaPsnrHvsParity, EveryContentPerturbed) {
    VQ_REQUIRE_CUDA();
    const auto [bit_depth, chroma] = GetParam();
    const VideoFormat format{333, 247, bit_depth, chroma};
    std::vector<FramePair> frames;
    for (const Content content :
         {Content::noise, Content::texture, Content::banded, Content::grainy, Content::patchwork,
          Content::staircase, Content::extremes}) {
        const Picture reference = make_picture(format, content, std::uint32_t(bit_depth));
        for (const int spread : {1, 3, 40})
            frames.push_back({reference, perturbed(reference, spread << (bit_depth - 8), 9)});
    }
    expect_identical(frames, describe(format));
}

INSTANTIATE_TEST_SUITE_P(
    AllDepthsAndLayouts, CudaPsnrHvsParity,
    testing::Values(Layout{8, ChromaFormat::yuv420}, Layout{10, ChromaFormat::yuv420},
                    Layout{12, ChromaFormat::yuv420}, Layout{8, ChromaFormat::yuv422},
                    Layout{10, ChromaFormat::yuv422}, Layout{8, ChromaFormat::yuv444},
                    Layout{12, ChromaFormat::yuv444}),
    [](const testing::TestParamInfo<Layout>& info) {
        std::string chroma = to_string(info.param.chroma);
        std::erase(chroma, ':');
        return std::to_string(info.param.bit_depth) + "bit_yuv" + chroma;
    });

// 4K: ~1.1e7 terms per plane in 4:4:4, the longest serial chain the twin reproduces.
TEST(CudaPsnrHvsParity, FourK) {
    VQ_REQUIRE_CUDA();
    for (const ChromaFormat chroma : {ChromaFormat::yuv420, ChromaFormat::yuv444}) {
        const VideoFormat format{3840, 2160, 10, chroma};
        const Picture reference = make_picture(format, Content::texture, 4);
        expect_identical(
            {{reference, perturbed(reference, 12, 5)}, {reference, perturbed(reference, 200, 6)}},
            describe(format));
    }
}

// Samples beyond the depth's range (up to 2^16 - 1 in a 12-bit picture) make the DCT wrap; both
// twins wrap the same way.
TEST(CudaPsnrHvsParity, OutOfRangeSamples) {
    VQ_REQUIRE_CUDA();
    const VideoFormat format{67, 45, 12, ChromaFormat::yuv420};
    std::uint32_t state = 1;
    const auto random_code = [&](int, int, int) {
        state = state * 1664525u + 1013904223u;
        return int(state >> 16);
    };
    const Picture reference = make_picture(format, random_code);
    const Picture distorted = make_picture(format, random_code);
    expect_identical({{reference, distorted}, {distorted, reference}}, "samples up to 65535");
}

TEST(CudaPsnrHvsParity, RefusesWhatTheCpuTwinRefuses) {
    VQ_REQUIRE_CUDA();
    const FeatureDefinition definition = psnr_hvs::definition();
    const OptionValues values = bind_options("psnr_hvs", definition.options, {});
    for (const VideoFormat& format : {VideoFormat{64, 64, 16, ChromaFormat::yuv420},
                                      VideoFormat{15, 64, 8, ChromaFormat::yuv420},
                                      VideoFormat{64, 64, 8, ChromaFormat::yuv400}}) {
        EXPECT_THROW(definition.make_cpu(values)->init(format), Error) << describe(format);
        EXPECT_THROW(psnr_hvs::make_cuda(values)->init(format), Error) << describe(format);
    }
}

TEST(CudaPsnrHvsParity, EveryFixture) {
    VQ_REQUIRE_CUDA();
    VQ_REQUIRE_FIXTURES(fixtures);
    std::size_t compared = 0;
    for (const auto& clip : fixture_clips(fixtures))
        compared += expect_identical(fixture_frames(fixtures, clip.filename().string()),
                                     clip.filename().string());
    std::cout << "psnr_hvs, CUDA twin against CPU twin: " << compared
              << " fixture frames compared\n";
}

// Through the session (what --backend cuda runs): every value, per frame and pooled, the same
// bits as --backend cpu, whose bits the golden tests pin to the reference's.
TEST(CudaPsnrHvsParity, SessionBackendCudaOnEveryFixture) {
    VQ_REQUIRE_CUDA();
    VQ_REQUIRE_FIXTURES(fixtures);
    for (const auto& clip : fixture_clips(fixtures)) {
        const auto frames = fixture_frames(fixtures, clip.filename().string());
        expect_same_bits(score_on(Backend::cpu, {"psnr_hvs"}, frames),
                         score_on(Backend::cuda, {"psnr_hvs"}, frames), clip.filename().string());
    }
}

TEST(CudaPsnrHvs, IsRegisteredAsPsnrHvsCudaTwin) {
    VQ_REQUIRE_CUDA();
    EXPECT_TRUE(find_feature("psnr_hvs").definition->make_cuda)
        << "psnr_hvs::definition() does not set make_cuda = psnr_hvs::make_cuda (psnr_hvs.cpp)";
}

// GPU time of one 4K 8-bit 4:2:0 frame (all kernels, CUDA events), printed; the issue's target is
// 0.4 ms. Both pictures are already on the device, as the executor leaves them.
TEST(CudaPsnrHvsTiming, FourKFrame) {
    VQ_REQUIRE_CUDA();
    const VideoFormat format{3840, 2160, 8, ChromaFormat::yuv420};
    const Picture reference = make_picture(format, Content::texture, 1);
    const Picture distorted = perturbed(reference, 3, 2);
    auto [cpu, gpu] = twins(format);
    auto& feature = dynamic_cast<cuda::CudaFeature&>(*gpu);
    const cuda::Stream stream;
    feature.prepare(stream.get());
    cuda::DeviceBuffer frames(2 * format.frame_bytes()), block(feature.block_bytes());
    cuda::copy(frames.data(), reference.data(), format.frame_bytes());
    cuda::copy(frames.data() + format.frame_bytes(), distorted.data(), format.frame_bytes());
    const cuda::DeviceFrame frame{format, frames.data(), frames.data() + format.frame_bytes(), 0};
    for (int warm_up = 0; warm_up < 3; ++warm_up)
        feature.enqueue(frame, block.data(), stream.get());
    constexpr int runs = 20;
    const cuda::Event start(cuda::Event::Timing::on), end(cuda::Event::Timing::on);
    start.record(stream);
    for (int run = 0; run < runs; ++run) feature.enqueue(frame, block.data(), stream.get());
    end.record(stream);
    const float milliseconds = cuda::elapsed_milliseconds(start, end) / runs;
    std::cout << "psnr_hvs CUDA twin, 3840x2160 8-bit 4:2:0: " << std::setprecision(4)
              << milliseconds << " ms of GPU time per frame (target 0.4 ms)\n";
    // The timed frames' values are the CPU twin's too.
    std::vector<std::byte> bytes(feature.block_bytes());
    cuda::copy(bytes.data(), block.data(), bytes.size());
    std::vector<double> got(4);
    feature.finish(bytes, got);
    const auto expected = run_twin(*cpu, {{reference, distorted}});
    for (int v = 0; v < 4; ++v) EXPECT_TRUE(same_bits(expected[0][v], got[v])) << v;
}

}  // namespace
}  // namespace vq::test
