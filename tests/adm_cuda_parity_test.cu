// ADM twins: the CUDA twin must give the CPU twin's bits (both fill the same integer Block, the
// Scorer does the float tail) at every depth, layout, odd size down to the 33 x 33 minimum, for
// each CSF mode and the options the v1 models use; and every golden's ADM outputs on the device.
#include <bit>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "adm_test_support.hpp"
#include "cuda_test_support.hpp"
#include "io/frame_source.hpp"
#include "test_support.hpp"
#include "vq/session.hpp"

namespace vq::test {
namespace {

ScoreTable score(Backend backend, const std::string& request, const std::vector<FramePair>& frames) {
    Session session({.threads = 4, .backend = backend});
    session.add_feature(request);
    session.start(frames.at(0).distorted.format());
    for (const FramePair& pair : frames) session.push(pair);
    return session.finish();
}

void expect_same_bits(const ScoreTable& cpu, const ScoreTable& gpu, const std::string& what) {
    ASSERT_EQ(cpu.column_count(), gpu.column_count()) << what;
    ASSERT_EQ(cpu.frame_count(), gpu.frame_count()) << what;
    for (std::size_t c = 0; c < cpu.column_count(); ++c) {
        ASSERT_EQ(cpu.name(c), gpu.name(c)) << what;
        for (std::size_t f = 0; f < cpu.frame_count(); ++f) {
            const auto a = cpu.value(c, f), b = gpu.value(c, f);
            ASSERT_EQ(a.has_value(), b.has_value()) << what << " " << cpu.name(c) << " frame " << f;
            if (a)
                EXPECT_EQ(std::bit_cast<std::uint64_t>(*a), std::bit_cast<std::uint64_t>(*b))
                    << what << " " << cpu.name(c) << " frame " << f << ": cpu " << *a << ", cuda " << *b;
        }
    }
}

void expect_parity(const std::string& request, const std::vector<FramePair>& frames, const std::string& what) {
    expect_same_bits(score(Backend::cpu, request, frames), score(Backend::cuda, request, frames), what);
}

// The common ADM options of the v1.0.16 models (spec/vmaf-v1.md §2).
const std::string v1_models = "adm=adm_csf_mode=2:adm_dlm_weight=0.7:adm_enhn_gain_limit=1:adm_noise_weight=0.02:"
                              "adm_min_val=0.5";

struct Case {
    VideoFormat format;
    std::string label;  // for the test name
    std::string request;
    int frames = 5;     // adversarial_frames cycles noise, identical, extremes, ramps
};

void PrintTo(const Case& c, std::ostream* out) { *out << describe_case(c.format, c.request) << ", " << c.frames << " frames"; }

class AdmCudaParity : public testing::TestWithParam<Case> {};

TEST_P(AdmCudaParity, MatchesTheCpuTwinBitForBit) {
    VQ_REQUIRE_CUDA();
    const Case& c = GetParam();
    const auto frames = adversarial_frames(c.format, c.frames, std::uint32_t(c.format.width * 7 + c.format.bit_depth));
    expect_parity(c.request, frames, describe_case(c.format, c.request));
}

INSTANTIATE_TEST_SUITE_P(
    Formats, AdmCudaParity,
    testing::Values(
        Case{{33, 33, 8, ChromaFormat::yuv420}, "minimum", "adm"},
        Case{{64, 64, 8, ChromaFormat::yuv420}, "debug", "adm=debug=true"},
        Case{{641, 359, 10, ChromaFormat::yuv420}, "default", "adm"},
        Case{{1920, 1080, 8, ChromaFormat::yuv420}, "default", "adm", 4},
        Case{{1919, 1079, 12, ChromaFormat::yuv422}, "neg_gain_limit", "adm=adm_enhn_gain_limit=1", 4},
        Case{{89, 45, 16, ChromaFormat::yuv444}, "default", "adm"},
        Case{{257, 255, 8, ChromaFormat::yuv400}, "barten", "adm=adm_csf_mode=1"},
        Case{{320, 240, 10, ChromaFormat::yuv420}, "blend_nvd5", "adm=adm_csf_mode=2:adm_norm_view_dist=5"},
        Case{{321, 241, 9, ChromaFormat::yuv422}, "mae_rdh2160", "adm=adm_csf_mode=3:adm_ref_display_height=2160"},
        Case{{352, 288, 8, ChromaFormat::yuv420}, "skip_scale0", "adm=adm_skip_scale0=true"},
        Case{{353, 287, 11, ChromaFormat::yuv420}, "skip_aim_debug", "adm=adm_skip_aim=true:debug=true"},
        Case{{576, 324, 8, ChromaFormat::yuv420}, "v1_models", v1_models},
        Case{{35, 700, 8, ChromaFormat::yuv420}, "tall", "adm"},
        Case{{700, 35, 14, ChromaFormat::yuv444}, "wide", "adm=adm_norm_view_dist=5:adm_ref_display_height=2160"},
        Case{{3840, 2160, 10, ChromaFormat::yuv420}, "default", "adm", 2}),
    [](const auto& info) {
        const VideoFormat& f = info.param.format;
        std::string layout = to_string(f.chroma);
        std::erase(layout, ':');
        return std::to_string(f.width) + "x" + std::to_string(f.height) + "_" + std::to_string(f.bit_depth) + "bit_" +
               layout + "_" + info.param.label;
    });

// §15's worked examples (cases A-F, the option variants of the golden table) on the device.
TEST(AdmCudaExample, WorkedExamplesAsTheCpuTwin) {
    VQ_REQUIRE_CUDA();
    const auto [a_ref, a_dis] = example_blurred(64, 64, 8);
    const auto [d_ref, d_dis] = example_sharpened();
    for (const std::string& request :
         {std::string("adm"), std::string("adm=adm_enhn_gain_limit=1"), std::string("adm=adm_csf_mode=2"),
          std::string("adm=adm_csf_mode=3:adm_ref_display_height=2160"), std::string("adm=adm_skip_scale0=true")}) {
        expect_parity(request, {{a_ref, a_dis}, {a_ref, a_ref}, {d_ref, d_dis}}, "case A, C, D " + request);
    }
    for (int depth : {10, 12, 16}) {
        const auto [ref, dis] = example_blurred(89, 45, depth);
        expect_parity("adm", {{ref, dis}}, "89x45 " + std::to_string(depth) + "-bit");
    }
    const ScoreTable gpu = score(Backend::cuda, "adm", {{a_ref, a_dis}});
    EXPECT_EQ(gpu.value(*gpu.find("integer_adm2"), 0), 0.75555385835635369);
}

std::vector<Picture> read_frames(const std::filesystem::path& path) {
    auto source = open_y4m(path.string());
    std::vector<Picture> frames;
    while (auto picture = source->next()) frames.push_back(std::move(*picture));
    return frames;
}

// Every *__vmaf.json golden's ADM outputs (default options) and every *__vmaf_v1_3d0h.json's
// (the v1 models' options), computed on the device.
TEST(AdmCudaGolden, EveryVmafGoldenOnTheDevice) {
    VQ_REQUIRE_CUDA();
    VQ_REQUIRE_FIXTURES(fixtures);
    const std::regex default_golden(".*__vmaf\\.json"), v1_golden(".*__vmaf_v1_3d0h\\.json");
    const std::string v1_suffix = "_csf_2_dlmw_0.7_egl_1_min_0.5_nw_0.02";
    int checked = 0;
    for (const auto& entry : std::filesystem::directory_iterator(*golden_dir())) {
        const std::string file = entry.path().filename().string();
        const bool v1 = std::regex_match(file, v1_golden);
        if (!v1 && !std::regex_match(file, default_golden)) continue;
        std::ifstream in(entry.path());
        const nlohmann::json golden = nlohmann::json::parse(in);
        const std::string fixture = file.substr(0, file.find("__"));
        const auto refs = read_frames(fixtures / fixture / "ref.y4m");
        const auto dists = read_frames(fixtures / fixture / "dist.y4m");
        ASSERT_EQ(refs.size(), golden["frames"].size()) << file;
        std::vector<FramePair> frames;
        for (std::size_t i = 0; i < refs.size(); ++i) frames.push_back({refs[i], dists[i]});
        const ScoreTable table = score(Backend::cuda, v1 ? v1_models : "adm", frames);
        for (const char* output : {"integer_adm2", "integer_aim", "integer_adm3", "integer_adm_scale0",
                                   "integer_adm_scale1", "integer_adm_scale2", "integer_adm_scale3"}) {
            const std::string name = output + (v1 ? v1_suffix : std::string());
            const auto column = table.find(name);
            ASSERT_TRUE(column) << file << " " << name;
            for (std::size_t i = 0; i < frames.size(); ++i)
                EXPECT_EQ(table.value(*column, i).value_or(-1), golden["frames"][i]["metrics"][name].get<double>())
                    << file << " frame " << i << " " << name;
        }
        ++checked;
    }
    EXPECT_GE(checked, 8);
}

}  // namespace
}  // namespace vq::test
