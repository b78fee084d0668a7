// Every *__vmaf.json and *__vmaf_v1_*.json golden's per-frame vmaf, predicted from the golden's own
// feature values.
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "model/model.hpp"
#include "model_test_support.hpp"
#include "test_support.hpp"

namespace vq {
namespace {

TEST(ModelGolden, EveryVmafGoldenFrameBitForBit) {
    const auto golden = test::golden_dir();
    if (!golden) GTEST_SKIP() << "../shared/golden not found";
    const model::ModelSet set = test::parse_builtin("vmaf_v0.6.1");
    // The model's features in file order, under their §6 output names.
    const char* columns[] = {"integer_adm2",       "integer_motion2",    "integer_vif_scale0",
                             "integer_vif_scale1", "integer_vif_scale2", "integer_vif_scale3"};
    int files = 0, frames = 0;
    for (const auto& entry : std::filesystem::directory_iterator(*golden)) {
        if (!entry.path().filename().string().ends_with("__vmaf.json")) continue;
        SCOPED_TRACE(entry.path().filename().string());
        ++files;
        const auto json = nlohmann::json::parse(std::ifstream(entry.path()));
        for (const auto& frame : json.at("frames")) {
            const auto& metrics = frame.at("metrics");
            std::array<double, 6> f;
            for (std::size_t k = 0; k < f.size(); ++k) f[k] = metrics.at(columns[k]).get<double>();
            EXPECT_EQ(model::predict(set.main, f), metrics.at("vmaf").get<double>())
                << "frame " << frame.at("frameNum");
            ++frames;
        }
    }
    EXPECT_GE(files, 8);
    EXPECT_GT(frames, 0);
}

// "grad_576x324_8b_420__vmaf_v1_hfr_3d0h.json" -> "vmaf_v1.0.16_hfr_3d0h"; empty for others.
std::string v1_model_of(const std::string& golden) {
    const std::string marker = "__vmaf_v1_";
    const std::size_t at = golden.find(marker);
    if (at == std::string::npos || !golden.ends_with(".json")) return {};
    const std::size_t from = at + marker.size();
    return "vmaf_v1.0.16_" + golden.substr(from, golden.size() - 5 - from);
}

// The value of the one key starting with `prefix` (its option suffix follows).
double feature_value(const nlohmann::json& metrics, const std::string& prefix) {
    const nlohmann::json* found = nullptr;
    for (const auto& [key, value] : metrics.items())
        if (key.starts_with(prefix)) {
            EXPECT_EQ(found, nullptr) << "two keys start with " << prefix;
            found = &value;
        }
    if (!found) ADD_FAILURE() << "no key starts with " << prefix;
    return found ? found->get<double>() : 0.0;
}

// spec/vmaf-v1.md status paragraph: every v1.0.16 golden's vmaf from its own feature values, the
// chroma-corrected frames included.
TEST(ModelGolden, EveryV1GoldenFrameBitForBit) {
    const auto golden = test::golden_dir();
    if (!golden) GTEST_SKIP() << "../shared/golden not found";
    const char* prefixes[] = {"cambi_", "speed_chroma_uv_", "integer_adm3_", "integer_motion3_"};
    int files = 0, frames = 0, corrected = 0;
    for (const auto& entry : std::filesystem::directory_iterator(*golden)) {
        const std::string version = v1_model_of(entry.path().filename().string());
        if (version.empty()) continue;
        SCOPED_TRACE(entry.path().filename().string());
        ++files;
        const model::ModelSet set = test::parse_builtin(version);
        const auto json = nlohmann::json::parse(std::ifstream(entry.path()));
        for (const auto& frame : json.at("frames")) {
            const auto& metrics = frame.at("metrics");
            std::array<double, 4> f;
            for (std::size_t k = 0; k < f.size(); ++k) f[k] = feature_value(metrics, prefixes[k]);
            EXPECT_EQ(model::predict(set.main, f), metrics.at("vmaf").get<double>())
                << "frame " << frame.at("frameNum");
            ++frames;
            corrected += f[1] == 0;
        }
    }
    EXPECT_GE(files, 14);
    EXPECT_GT(frames, 0);
    EXPECT_GT(corrected, 0);  // grad_576x324_10b_420 and testsrc 5d0h: chroma correction
}

}  // namespace
}  // namespace vq
