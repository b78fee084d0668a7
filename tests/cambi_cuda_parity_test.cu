// CAMBI twins end to end: the CUDA twin through the CUDA executor (frames pipelined through its
// ring, scratch reused from frame to frame) against the CPU twin, on synthetic clips of many
// sizes, bit depths and options, on every fixture against the reference's golden outputs, with
// heatmaps, and on invalid input. Scores must be bit-identical wherever the CPU's double sum is
// exact and within a few ulp elsewhere (the CPU then follows the reference's summation order,
// the CUDA twin rounds the exact sum once; spec §15.3).
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cambi_cuda_test_support.hpp"
#include "cuda_test_support.hpp"
#include "support/golden_cases.hpp"
#include "test_support.hpp"
#include "vq/error.hpp"

namespace vq::cambi::test {
namespace {

using ::vq::test::Content;
using ::vq::test::describe_case;
using ::vq::test::GoldenCase;
using ::vq::test::run_twin;
using ::vq::test::scratch_dir;
using ::vq::test::TwinCase;
using ::vq::test::UlpComparison;

// See cambi_cuda_stage_test.cu; the largest difference seen is printed.
constexpr std::uint64_t max_order_ulps = 64;

UlpComparison compare_twins(const std::string& request, const std::vector<FramePair>& frames) {
    const VideoFormat& format = frames.at(0).distorted.format();
    auto cpu = make_cpu_twin(request);
    auto gpu = make_cuda_twin(request);
    cpu->init(format);
    gpu->init(format);
    EXPECT_EQ(gpu->outputs(), cpu->outputs()) << request;
    const auto expected = run_twin(*cpu, frames);
    const auto got = run_twin(*gpu, frames);
    const std::string what = describe_case(format, request);
    UlpComparison d(max_order_ulps);
    for (std::size_t f = 0; f < frames.size(); ++f)
        for (std::size_t k = 0; k < expected[f].size(); ++k)
            d.check(expected[f][k], got[f][k], what, f, cpu->outputs()[k]);
    return d;
}

// Six frames (the executor's ring holds four): the scenes in turn, each with a grainy reference.
std::vector<FramePair> clip(const VideoFormat& format, std::uint32_t seed) {
    const Content scenes[] = {Content::banded, Content::patchwork, Content::staircase,
                              Content::grainy, Content::extremes,  Content::banded};
    std::vector<FramePair> frames;
    for (std::uint32_t i = 0; i < 6; ++i)
        frames.push_back({make_picture(format, Content::grainy, seed + 100 + i),
                          make_picture(format, scenes[i], seed + i), i});
    return frames;
}

class CudaCambiTwins : public testing::TestWithParam<TwinCase> {};

TEST_P(CudaCambiTwins, MatchTheCpuTwinFrameByFrame) {
    VQ_REQUIRE_CUDA();
    const TwinCase& c = GetParam();
    compare_twins(c.request, clip(c.format, std::uint32_t(c.format.width + c.format.bit_depth)))
        .report(describe_case(c.format, c.request));
}

std::vector<TwinCase> twin_cases() {
    std::vector<TwinCase> all;
    for (const int depth : {8, 10})
        for (const auto& [w, h] :
             std::vector<std::pair<int, int>>{{216, 216}, {641, 359}, {1920, 1080}})
            for (const char* request :
                 {"cambi", "cambi=full_ref=true:topk=0.2", "cambi=max_log_contrast=3:eotf=pq"})
                all.push_back({{w, h, depth, ChromaFormat::yuv420}, request});
    all.push_back({{3840, 2160, 10, ChromaFormat::yuv420}, "cambi"});
    all.push_back(
        {{3840, 2160, 8, ChromaFormat::yuv420}, "cambi=cambi_high_res_speedup=2160:full_ref=true"});
    all.push_back({{1920, 1080, 10, ChromaFormat::yuv422},
                   "cambi=cambi_high_res_speedup=1080:enc_bitdepth=8"});
    all.push_back(
        {{641, 359, 12, ChromaFormat::yuv444}, "cambi=enc_width=320:enc_height=240:full_ref=true"});
    all.push_back(
        {{641, 359, 16, ChromaFormat::yuv400}, "cambi=window_size=127:cambi_vis_lum_threshold=1"});
    return all;
}

std::string twin_name(const testing::TestParamInfo<TwinCase>& info) {
    std::string name =
        std::to_string(info.index) + "_" + describe_case(info.param.format, info.param.request);
    for (char& ch : name)
        if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
    return name;
}

INSTANTIATE_TEST_SUITE_P(Cambi, CudaCambiTwins, testing::ValuesIn(twin_cases()), twin_name);

// §18.B: the worked example's score, which the reference computes with an exact sum.
TEST(CudaCambiExamples, SpecExampleB) {
    VQ_REQUIRE_CUDA();
    const VideoFormat format{256, 144, 8, ChromaFormat::yuv420};
    Picture picture = Picture::allocate(format);
    for (std::uint32_t y = 0; y < 144; ++y)
        for (std::uint32_t x = 0; x < 256; ++x) {
            std::uint32_t v = 0;
            if (x < 192) {
                v = 40 + (x + 2 * y) / 20;
                if (y >= 100 && x < 96) v += (x + y) % 2;
            } else {
                v = 128 + (((x * 1103515245u + y * 12345u) >> 16) % 32);
            }
            picture.plane_data<std::uint8_t>(0)[y * 256 + x] = std::uint8_t(v);
        }
    auto feature = make_cuda_twin("cambi");
    feature->init(format);
    const auto scores = run_twin(*feature, {{{}, picture}});
    EXPECT_EQ(scores.at(0).at(0), 17.007786435933294);
}

TEST(CudaCambiErrors, SampleAboveTheBitDepthFailsLikeTheCpuTwin) {
    VQ_REQUIRE_CUDA();
    const VideoFormat format{320, 240, 10, ChromaFormat::yuv420};
    Picture picture = make_picture(format, Content::banded, 5);
    picture.plane_data<std::uint16_t>(0)[320 * 100 + 7] = 1500;
    std::string cpu_message, gpu_message;
    for (const bool on_gpu : {false, true}) {
        std::unique_ptr<Feature> feature =
            on_gpu ? make_cuda_twin("cambi") : std::unique_ptr<Feature>(make_cpu_twin("cambi"));
        feature->init(format);
        try {
            run_twin(*feature, {{{}, picture}});
            ADD_FAILURE() << (on_gpu ? "cuda" : "cpu") << " twin accepted a 10-bit sample of 1500";
        } catch (const Error& e) {
            EXPECT_EQ(e.kind(), ErrorKind::runtime);
            (on_gpu ? gpu_message : cpu_message) = e.what();
        }
    }
    EXPECT_NE(gpu_message.find("1500"), std::string::npos) << gpu_message;
    EXPECT_NE(gpu_message.find(cpu_message.substr(cpu_message.find("cambi:"))), std::string::npos)
        << "cpu: " << cpu_message << "\ncuda: " << gpu_message;
}

std::vector<char> file_bytes(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(CudaCambiHeatmaps, SameFilesAsTheCpuTwin) {
    VQ_REQUIRE_CUDA();
    const VideoFormat format{641, 359, 8, ChromaFormat::yuv420};
    const auto frames = clip(format, 9);
    const std::filesystem::path cpu_dir = scratch_dir("cuda_cambi_heatmaps_cpu");
    const std::filesystem::path gpu_dir = scratch_dir("cuda_cambi_heatmaps_cuda");
    for (const bool on_gpu : {false, true}) {
        const std::string request = "cambi=heatmaps_path=" + (on_gpu ? gpu_dir : cpu_dir).string();
        std::unique_ptr<Feature> feature =
            on_gpu ? make_cuda_twin(request) : std::unique_ptr<Feature>(make_cpu_twin(request));
        feature->init(format);
        run_twin(*feature, frames);
    }
    std::size_t files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(cpu_dir)) {
        const auto name = entry.path().filename();
        ASSERT_TRUE(std::filesystem::exists(gpu_dir / name)) << name;
        EXPECT_TRUE(file_bytes(entry.path()) == file_bytes(gpu_dir / name)) << name;
        ++files;
    }
    EXPECT_EQ(files,
              std::size_t(5 + 5 * frames.size()));  // raw files, and a PNG per scale and frame
}

// ---- Fixtures against the reference's golden outputs (CAMBI's table, as the CPU test) ----

class CudaCambiFixtures : public testing::TestWithParam<GoldenCase> {};

TEST_P(CudaCambiFixtures, MatchTheGoldenOutputsAndTheCpuTwin) {
    VQ_REQUIRE_FIXTURES(fixtures);
    VQ_REQUIRE_CUDA();
    const GoldenCase& c = GetParam();
    const auto golden = ::vq::test::read_golden(c);

    const auto frames = ::vq::test::fixture_frames(fixtures, c.fixture);
    ASSERT_EQ(frames.size(), golden["frames"].size()) << c.golden;

    auto feature = make_cuda_twin(c.request);
    feature->init(frames.at(0).distorted.format());
    const auto names = feature->outputs();
    const auto scores = run_twin(*feature, frames);
    UlpComparison against_golden(max_order_ulps);
    for (std::size_t f = 0; f < frames.size(); ++f)
        for (std::size_t k = 0; k < names.size(); ++k)
            against_golden.check(golden["frames"][f]["metrics"][names[k]].get<double>(),
                                 scores[f][k], c.golden, f, names[k]);
    against_golden.report(c.golden + " against the golden outputs");
    compare_twins(c.request, frames).report(c.golden + " against the CPU twin");
}

INSTANTIATE_TEST_SUITE_P(Cambi, CudaCambiFixtures,
                         testing::ValuesIn(::vq::test::cambi_golden_cases()),
                         ::vq::test::golden_case_name);

}  // namespace
}  // namespace vq::cambi::test
