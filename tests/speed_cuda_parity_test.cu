// SpEED twins: the CUDA twins of speed_chroma and speed_temporal must give the CPU twins' bits on
// every frame, through the session (--backend cuda), at every depth and layout, odd sizes, every
// option (kernel scales, each prescale method up and down, weighting modes, noise floor, the
// reference difference, --subsample), on adversarial and natural-looking content and on every
// golden case; plus the GPU time of one 4K frame (printed).
#include <cstdint>
#include <iomanip>
#include <iostream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/synthetic.hpp"
#include "cuda/cuda_feature.hpp"
#include "cuda/memory.hpp"
#include "cuda/stream.hpp"
#include "cuda_test_support.hpp"
#include "feature/registry.hpp"
#include "support/compare.hpp"
#include "support/golden_cases.hpp"
#include "support/pictures.hpp"
#include "test_support.hpp"
#include "twin_parity.hpp"

namespace vq::test {
namespace {

// Adversarial pairs (noise, identical pictures, extremes, ramps), then moving natural-looking
// content, so that speed_temporal sees both kinds of differences.
std::vector<FramePair> twin_frames(const VideoFormat& format, std::uint32_t seed) {
    std::vector<FramePair> frames = adversarial_frames(format, 5, seed);
    for (int t = 0; t < 4; ++t)
        frames.push_back({make_synthetic_frame(format, SyntheticScene::mixed, t, false),
                          make_synthetic_frame(format, SyntheticScene::mixed, t, true)});
    for (std::size_t f = 0; f < frames.size(); ++f) frames[f].index = f;
    return frames;
}

void expect_twins_agree(const TwinCase& c, std::size_t subsample = 1) {
    const auto frames = twin_frames(c.format, 29);
    const std::string what =
        describe_case(c.format, c.request) + " --subsample " + std::to_string(subsample);
    expect_same_bits(score_on(Backend::cpu, {c.request}, frames, subsample),
                     score_on(Backend::cuda, {c.request}, frames, subsample), what);
}

class SpeedCudaParity : public testing::TestWithParam<TwinCase> {};

TEST_P(SpeedCudaParity, MatchesTheCpuTwinBitForBit) {
    VQ_REQUIRE_CUDA();
    expect_twins_agree(GetParam());
    if (GetParam().request.starts_with("speed_temporal")) expect_twins_agree(GetParam(), 3);
}

constexpr VideoFormat hd{1920, 1080, 8, ChromaFormat::yuv420};
constexpr VideoFormat odd10{641, 359, 10, ChromaFormat::yuv420};
constexpr VideoFormat narrow12{333, 200, 12, ChromaFormat::yuv422};
constexpr VideoFormat small16{96, 81, 16, ChromaFormat::yuv444};
constexpr VideoFormat least9{160, 161, 9, ChromaFormat::yuv420};
constexpr VideoFormat luma16{81, 80, 16, ChromaFormat::yuv400};

INSTANTIATE_TEST_SUITE_P(
    Chroma, SpeedCudaParity,
    testing::Values(
        TwinCase{hd, "speed_chroma"}, TwinCase{odd10, "speed_chroma"},
        TwinCase{narrow12, "speed_chroma"}, TwinCase{small16, "speed_chroma"},
        TwinCase{least9, "speed_chroma"}, TwinCase{odd10, "speed_chroma=speed_kernelscale=0.5"},
        TwinCase{hd, "speed_chroma=speed_kernelscale=3.71134"},
        TwinCase{narrow12, "speed_chroma=speed_kernelscale=2"},
        TwinCase{odd10, "speed_chroma=speed_prescale=0.5:speed_prescale_method=nearest"},
        TwinCase{odd10, "speed_chroma=speed_prescale=1.5:speed_prescale_method=nearest"},
        TwinCase{odd10, "speed_chroma=speed_prescale=0.75:speed_prescale_method=bilinear"},
        TwinCase{small16, "speed_chroma=speed_prescale=2:speed_prescale_method=bilinear"},
        TwinCase{narrow12, "speed_chroma=speed_prescale=0.6:speed_prescale_method=bicubic"},
        TwinCase{small16, "speed_chroma=speed_prescale=1.7:speed_prescale_method=bicubic"},
        TwinCase{odd10, "speed_chroma=speed_prescale=0.5:speed_prescale_method=lanczos4"},
        TwinCase{small16, "speed_chroma=speed_prescale=2.5:speed_prescale_method=lanczos4"},
        TwinCase{odd10, "speed_chroma=speed_weight_var_mode=1"},
        TwinCase{odd10, "speed_chroma=speed_weight_var_mode=2:speed_nn_floor=0.1"},
        TwinCase{odd10, "speed_chroma=speed_weight_var_mode=3:speed_sigma_nn=0.19"},
        TwinCase{odd10, "speed_chroma=speed_weight_var_mode=4:speed_max_val=2"},
        TwinCase{odd10, "speed_chroma=speed_weight_var_mode=5:speed_nn_floor=0.5"},
        TwinCase{hd, "speed_chroma=speed_weight_var_mode=6:speed_sigma_nn=1.5"}),
    [](const auto& info) {
        return format_name(info.param.format) + "_" + std::to_string(info.index);
    });

INSTANTIATE_TEST_SUITE_P(
    Temporal, SpeedCudaParity,
    testing::Values(
        TwinCase{hd, "speed_temporal"}, TwinCase{odd10, "speed_temporal"},
        TwinCase{narrow12, "speed_temporal"}, TwinCase{luma16, "speed_temporal"},
        TwinCase{odd10, "speed_temporal=speed_use_ref_diff=true"},
        TwinCase{odd10, "speed_temporal=speed_kernelscale=1.5:speed_nn_floor=0.2"},
        TwinCase{hd, "speed_temporal=speed_prescale=0.5:speed_prescale_method=bicubic"},
        TwinCase{odd10, "speed_temporal=speed_prescale=0.7:speed_prescale_method=lanczos4"},
        TwinCase{narrow12, "speed_temporal=speed_prescale=0.4:speed_prescale_method=bilinear"},
        TwinCase{odd10, "speed_temporal=speed_prescale=0.5:speed_prescale_method=nearest"}),
    [](const auto& info) {
        return format_name(info.param.format) + "_" + std::to_string(info.index);
    });

// Both features in one run: two twins, each with its own tables and scratch, on one stream.
TEST(SpeedCudaParityTogether, ChromaAndTemporalWithDifferentKernelScales) {
    VQ_REQUIRE_CUDA();
    const auto frames = twin_frames(odd10, 31);
    const std::vector<std::string> requests{"speed_chroma=speed_kernelscale=3",
                                            "speed_temporal=speed_kernelscale=0.5"};
    expect_same_bits(score_on(Backend::cpu, requests, frames),
                     score_on(Backend::cuda, requests, frames), "speed_chroma + speed_temporal");
}

// §8.1-§8.2's sums are ordered sums on the device (chunks summarised in parallel, walked in order,
// added serially where a sum crosses a power of two or zero): content whose residuals' sums cross
// many binades and zero, hard-edged, every-code and banded pictures against noisy copies, at 4K
// (the temporal sums span several groups of chunks) and at 16 bits.
TEST(SpeedCudaParitySums, ContentWhoseSumsCrossManyBinades) {
    VQ_REQUIRE_CUDA();
    for (const VideoFormat format : {VideoFormat{3840, 2160, 10, ChromaFormat::yuv420},
                                     VideoFormat{1280, 720, 16, ChromaFormat::yuv444}}) {
        std::vector<FramePair> frames;
        std::uint32_t seed = 40;
        for (const Content content : {Content::extremes, Content::staircase, Content::patchwork,
                                      Content::banded, Content::texture}) {
            const Picture ref = make_picture(format, content, seed++);
            frames.push_back({ref, perturbed(ref, 1 << (format.bit_depth - 3), seed++)});
        }
        for (std::size_t f = 0; f < frames.size(); ++f) frames[f].index = f;
        for (const char* request : {"speed_chroma", "speed_temporal"})
            expect_same_bits(score_on(Backend::cpu, {request}, frames),
                             score_on(Backend::cuda, {request}, frames),
                             format_name(format) + " " + request);
    }
}

// Every golden case: the CUDA twin against the CPU twin on the fixture's frames, and against the
// golden itself where the fixture holds exactly what the reference read (odd_641x359's golden
// came from cropped chroma; speed_golden_test covers that one on the CPU).
class SpeedCudaGolden : public testing::TestWithParam<GoldenCase> {};

TEST_P(SpeedCudaGolden, EveryFrameAsTheCpuTwinAndTheGolden) {
    VQ_REQUIRE_CUDA();
    VQ_REQUIRE_FIXTURES(fixtures);
    const GoldenCase& c = GetParam();
    const std::vector<FramePair> frames = fixture_frames(fixtures, c.fixture);
    const ScoreTable gpu = score_on(Backend::cuda, {c.request}, frames);
    expect_same_bits(score_on(Backend::cpu, {c.request}, frames), gpu, c.golden);
    if (!c.fixture.starts_with("odd_")) expect_golden_outputs(gpu, c, speed_outputs(c));
}

INSTANTIATE_TEST_SUITE_P(Speed, SpeedCudaGolden, testing::ValuesIn(speed_golden_cases()),
                         golden_case_name);

TEST(SpeedCuda, BothFeaturesRegisterTheirCudaTwins) {
    VQ_REQUIRE_CUDA();
    EXPECT_TRUE(find_feature("speed_chroma").definition->make_cuda);
    EXPECT_TRUE(find_feature("speed_temporal").definition->make_cuda);
}

// GPU time per 4K frame in steady state (CUDA events around 20 frames enqueued back to back, the
// pairs already on the device, alternating two pairs so speed_temporal always has a difference).
// Printed, not asserted: the figure is for the report (issue 20's target: 0.3 ms).
TEST(SpeedCudaTiming, FourKFrame) {
    VQ_REQUIRE_CUDA();
    const VideoFormat format{3840, 2160, 8, ChromaFormat::yuv420};
    const std::size_t bytes = format.frame_bytes();
    cuda::DeviceBuffer frames(4 * bytes);
    for (int t = 0; t < 2; ++t)
        for (int d = 0; d < 2; ++d) {
            const Picture p = make_synthetic_frame(format, SyntheticScene::mixed, t, d == 1);
            cuda::copy(frames.data() + (2 * t + d) * bytes, p.data(), bytes);
        }
    for (const char* name : {"speed_chroma", "speed_temporal"}) {
        const FeatureLookup lookup = find_feature(name);
        auto feature =
            lookup.definition->make_cuda(bind_options(name, lookup.definition->options, {}));
        auto& twin = dynamic_cast<cuda::CudaFeature&>(*feature);
        twin.init(format);
        const cuda::Stream stream;
        twin.prepare(stream.get());
        cuda::DeviceBuffer block(twin.block_bytes());
        const auto enqueue = [&](int i) {
            const std::byte* pair = frames.data() + std::size_t(i % 2) * 2 * bytes;
            twin.enqueue({format, pair, pair + bytes, std::size_t(i)}, block.data(), stream.get());
        };
        for (int i = 0; i < 3; ++i) enqueue(i);  // warm-up
        const cuda::Event start(cuda::Event::Timing::on), stop(cuda::Event::Timing::on);
        constexpr int count = 20;
        start.record(stream);
        for (int i = 3; i < 3 + count; ++i) enqueue(i);
        stop.record(stream);
        const float ms = cuda::elapsed_milliseconds(start, stop) / count;
        std::cout << name << " CUDA twin, 4K 8-bit 4:2:0: " << std::fixed << std::setprecision(3)
                  << ms << " ms GPU time per frame\n";
        EXPECT_GT(ms, 0.0f);
    }
}

}  // namespace
}  // namespace vq::test
