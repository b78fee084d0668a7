// CAMBI twins end to end: the CUDA twin through the CUDA executor (frames pipelined through its
// ring, scratch reused from frame to frame) against the CPU twin, on synthetic clips of many
// sizes, bit depths and options, on every fixture against the reference's golden outputs, with
// heatmaps, and on invalid input. Scores must be bit-identical wherever the CPU's double sum is
// exact and within a few ulp elsewhere (the CPU then follows the reference's summation order,
// the CUDA twin rounds the exact sum once; spec §15.3).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cambi_cuda_test_support.hpp"
#include "cuda_test_support.hpp"
#include "io/frame_source.hpp"
#include "test_support.hpp"
#include "vq/error.hpp"

namespace vq::cambi::test {
namespace {

using ::vq::test::describe_case;
using ::vq::test::golden_dir;
using ::vq::test::run_twin;
using ::vq::test::scratch_dir;

// See cambi_cuda_stage_test.cu; the largest difference seen is printed.
constexpr std::uint64_t max_order_ulps = 64;

struct Differences {
    std::size_t values = 0;
    std::size_t identical = 0;
    std::uint64_t largest_ulps = 0;

    void add(double expected, double got) {
        ++values;
        identical += expected == got;
        largest_ulps = std::max(largest_ulps, ulp_distance(expected, got));
    }
    void report(const std::string& what) const {
        std::printf("%s: %zu of %zu values identical, largest difference %llu ulp\n", what.c_str(), identical, values,
                    (unsigned long long)largest_ulps);
    }
};

Differences compare_twins(const std::string& request, const std::vector<FramePair>& frames) {
    const VideoFormat& format = frames.at(0).distorted.format();
    auto cpu = make_cpu_twin(request);
    auto gpu = make_cuda_twin(request);
    cpu->init(format);
    gpu->init(format);
    EXPECT_EQ(gpu->outputs(), cpu->outputs()) << request;
    const auto expected = run_twin(*cpu, frames);
    const auto got = run_twin(*gpu, frames);
    Differences d;
    for (std::size_t f = 0; f < frames.size(); ++f)
        for (std::size_t k = 0; k < expected[f].size(); ++k) {
            EXPECT_LE(ulp_distance(expected[f][k], got[f][k]), max_order_ulps)
                << describe_case(format, request) << " frame " << f << " " << cpu->outputs()[k] << std::hexfloat
                << ": cpu " << expected[f][k] << ", cuda " << got[f][k];
            d.add(expected[f][k], got[f][k]);
        }
    return d;
}

// Six frames (the executor's ring holds four): the scenes in turn, each with a grainy reference.
std::vector<FramePair> clip(const VideoFormat& format, std::uint32_t seed) {
    const Scene scenes[] = {Scene::banded, Scene::patchwork, Scene::staircase, Scene::grainy, Scene::extremes, Scene::banded};
    std::vector<FramePair> frames;
    for (std::uint32_t i = 0; i < 6; ++i)
        frames.push_back({scene_picture(format, Scene::grainy, seed + 100 + i), scene_picture(format, scenes[i], seed + i), i});
    return frames;
}

struct TwinCase {
    VideoFormat format;
    std::string request;
};

void PrintTo(const TwinCase& c, std::ostream* out) { *out << describe_case(c.format, c.request); }

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
        for (const auto& [w, h] : std::vector<std::pair<int, int>>{{216, 216}, {641, 359}, {1920, 1080}})
            for (const char* request : {"cambi", "cambi=full_ref=true:topk=0.2", "cambi=max_log_contrast=3:eotf=pq"})
                all.push_back({{w, h, depth, ChromaFormat::yuv420}, request});
    all.push_back({{3840, 2160, 10, ChromaFormat::yuv420}, "cambi"});
    all.push_back({{3840, 2160, 8, ChromaFormat::yuv420}, "cambi=cambi_high_res_speedup=2160:full_ref=true"});
    all.push_back({{1920, 1080, 10, ChromaFormat::yuv422}, "cambi=cambi_high_res_speedup=1080:enc_bitdepth=8"});
    all.push_back({{641, 359, 12, ChromaFormat::yuv444}, "cambi=enc_width=320:enc_height=240:full_ref=true"});
    all.push_back({{641, 359, 16, ChromaFormat::yuv400}, "cambi=window_size=127:cambi_vis_lum_threshold=1"});
    return all;
}

std::string twin_name(const testing::TestParamInfo<TwinCase>& info) {
    std::string name = std::to_string(info.index) + "_" + describe_case(info.param.format, info.param.request);
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
    Picture picture = scene_picture(format, Scene::banded, 5);
    picture.plane_data<std::uint16_t>(0)[320 * 100 + 7] = 1500;
    std::string cpu_message, gpu_message;
    for (const bool on_gpu : {false, true}) {
        std::unique_ptr<Feature> feature = on_gpu ? make_cuda_twin("cambi") : std::unique_ptr<Feature>(make_cpu_twin("cambi"));
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
        std::unique_ptr<Feature> feature = on_gpu ? make_cuda_twin(request) : std::unique_ptr<Feature>(make_cpu_twin(request));
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
    EXPECT_EQ(files, std::size_t(5 + 5 * frames.size()));  // raw files, and a PNG per scale and frame
}

// ---- Fixtures against the reference's golden outputs ----

struct GoldenCase {
    std::string golden;
    std::string fixture;
    std::string request;
};

void PrintTo(const GoldenCase& c, std::ostream* out) { *out << c.golden << " (" << c.fixture << ", " << c.request << ")"; }

std::vector<GoldenCase> golden_cases() {
    std::vector<GoldenCase> cases;
    const auto add = [&](const std::string& fixture, const std::string& suffix, const std::string& request) {
        cases.push_back({fixture + "__" + suffix + ".json", fixture, request});
    };
    for (const char* fixture : {"grad_576x324_8b_420", "testsrc_576x324_8b_420", "mandel_576x324_8b_420",
                                "grad_576x324_10b_420", "grad_1920x1080_8b_420", "odd_641x359_8b_420",
                                "testsrc_352x288_8b_422", "testsrc_352x288_8b_444"})
        add(fixture, "feat", "cambi");
    for (const char* fixture : {"grad_576x324_8b_420", "grad_576x324_10b_420", "grad_1920x1080_8b_420"}) {
        add(fixture, "cambi_ws33", "cambi=window_size=33");
        add(fixture, "cambi_topk0.2", "cambi=topk=0.2");
        add(fixture, "cambi_tvi0.012", "cambi=tvi_threshold=0.012");
        add(fixture, "cambi_mlc3", "cambi=max_log_contrast=3");
        add(fixture, "cambi_fullref", "cambi=full_ref=true");
    }
    add("grad_576x324_8b_420", "cambi_tvi0.03", "cambi=tvi_threshold=0.03");
    add("grad_576x324_8b_420", "cambi_enc288x162", "cambi=enc_width=288:enc_height=162");
    add("grad_576x324_10b_420", "cambi_enc288x162", "cambi=enc_width=288:enc_height=162");
    add("grad_576x324_8b_420", "cambi_ws127", "cambi=window_size=127");
    add("grad_576x324_8b_420", "cambi_mlc0", "cambi=max_log_contrast=0");
    add("grad_576x324_8b_420", "cambi_vlt5", "cambi=cambi_vis_lum_threshold=5.0");
    add("grad_576x324_8b_420", "cambi_maxval5", "cambi=cambi_max_val=5");
    add("grad_576x324_10b_420", "cambi_eotfpq", "cambi=eotf=pq");
    add("grad_576x324_10b_420", "cambi_encbd8", "cambi=enc_bitdepth=8");
    add("grad_1920x1080_8b_420", "cambi_enc960x540", "cambi=enc_width=960:enc_height=540");
    add("grad_1920x1080_8b_420", "cambi_hrs1080", "cambi=cambi_high_res_speedup=1080");
    add("odd_641x359_8b_420", "cambi_fullref", "cambi=full_ref=true");
    return cases;
}

class CudaCambiFixtures : public testing::TestWithParam<GoldenCase> {};

TEST_P(CudaCambiFixtures, MatchTheGoldenOutputsAndTheCpuTwin) {
    VQ_REQUIRE_FIXTURES(fixtures);
    VQ_REQUIRE_CUDA();
    const GoldenCase& c = GetParam();
    std::ifstream golden_file(*golden_dir() / c.golden);
    ASSERT_TRUE(golden_file) << c.golden;
    const auto golden = nlohmann::json::parse(golden_file);

    auto distorted = open_y4m((fixtures / c.fixture / "dist.y4m").string());
    auto reference = open_y4m((fixtures / c.fixture / "ref.y4m").string());
    std::vector<FramePair> frames;
    while (auto picture = distorted->next()) frames.push_back({*reference->next(), std::move(*picture)});
    ASSERT_EQ(frames.size(), golden["frames"].size()) << c.golden;

    auto feature = make_cuda_twin(c.request);
    feature->init(frames.at(0).distorted.format());
    const auto names = feature->outputs();
    const auto scores = run_twin(*feature, frames);
    Differences against_golden;
    for (std::size_t f = 0; f < frames.size(); ++f)
        for (std::size_t k = 0; k < names.size(); ++k) {
            const double expected = golden["frames"][f]["metrics"][names[k]].get<double>();
            EXPECT_LE(ulp_distance(expected, scores[f][k]), max_order_ulps)
                << c.golden << " frame " << f << " " << names[k] << std::hexfloat << ": golden " << expected
                << ", cuda " << scores[f][k];
            against_golden.add(expected, scores[f][k]);
        }
    against_golden.report(c.golden + " against the golden outputs");
    compare_twins(c.request, frames).report(c.golden + " against the CPU twin");
}

std::string golden_name(const testing::TestParamInfo<GoldenCase>& info) {
    std::string name = info.param.golden.substr(0, info.param.golden.size() - 5);
    for (char& ch : name)
        if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
    return name;
}

INSTANTIATE_TEST_SUITE_P(Cambi, CudaCambiFixtures, testing::ValuesIn(golden_cases()), golden_name);

}  // namespace
}  // namespace vq::cambi::test
