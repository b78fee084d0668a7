// Every *__vmaf.json golden's per-frame vmaf, predicted from the golden's own feature values.
#include <filesystem>
#include <fstream>

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

}  // namespace
}  // namespace vq
