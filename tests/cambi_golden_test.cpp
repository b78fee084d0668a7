// CAMBI against the reference's golden outputs (shared/golden, INDEX.md): every per-frame value
// of every golden that carries a cambi key must match to the last bit. The feature is driven
// directly (init, compute, finish), with its options bound through the registry as the CLI does.

#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "engine/registry.hpp"
#include "io/frame_source.hpp"
#include "metrics/cambi/cambi_cpu.hpp"
#include "test_support.hpp"

namespace vq {
namespace {

struct GoldenCase {
    std::string golden;    // file in shared/golden
    std::string fixture;   // directory in the unpacked fixtures
    std::string request;   // the --feature argument that produced it
};

void PrintTo(const GoldenCase& c, std::ostream* out) { *out << c.golden << " (" << c.fixture << ", " << c.request << ")"; }

// The two raw-yuv goldens (odd_641x359, testsrc_352x288_8b_422) were fed the y4m's luma
// unchanged; CAMBI reads only luma, so the y4m gives the same input.
std::vector<GoldenCase> golden_cases() {
    const std::string v1_request =
        "cambi=cambi_high_res_speedup=1080:cambi_max_val=17:cambi_vis_lum_threshold=0.06";
    std::vector<GoldenCase> cases;
    const auto add = [&](const std::string& fixture, const std::string& suffix,
                         const std::string& request) {
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
    for (const char* fixture : {"grad_576x324_8b_420", "grad_1920x1080_8b_420"})
        add(fixture, "cambi_tvi0.03", "cambi=tvi_threshold=0.03");
    for (const char* fixture : {"grad_576x324_8b_420", "grad_576x324_10b_420"})
        add(fixture, "cambi_enc288x162", "cambi=enc_width=288:enc_height=162");
    add("grad_576x324_8b_420", "cambi_ws127", "cambi=window_size=127");
    add("grad_576x324_8b_420", "cambi_mlc0", "cambi=max_log_contrast=0");
    add("grad_576x324_8b_420", "cambi_vlt5", "cambi=cambi_vis_lum_threshold=5.0");
    add("grad_576x324_8b_420", "cambi_maxval5", "cambi=cambi_max_val=5");
    add("grad_576x324_10b_420", "cambi_eotfpq", "cambi=eotf=pq");
    add("grad_576x324_10b_420", "cambi_encbd8", "cambi=enc_bitdepth=8");
    add("grad_1920x1080_8b_420", "cambi_enc960x540", "cambi=enc_width=960:enc_height=540");
    add("grad_1920x1080_8b_420", "cambi_hrs1080", "cambi=cambi_high_res_speedup=1080");
    add("odd_641x359_8b_420", "cambi_fullref", "cambi=full_ref=true");
    // The VMAF v1.0.16 models run CAMBI with these options (shared/spec/vmaf-v1.md).
    for (const char* fixture : {"grad_576x324_8b_420", "testsrc_576x324_8b_420", "mandel_576x324_8b_420",
                                "grad_576x324_10b_420", "grad_1920x1080_8b_420", "odd_641x359_8b_420",
                                "testsrc_352x288_8b_422", "testsrc_352x288_8b_444"})
        add(fixture, "vmaf_v1_3d0h", v1_request);
    for (const char* model : {"vmaf_v1_5d0h", "vmaf_v1_hfr_3d0h"}) add("testsrc_576x324_8b_420", model, v1_request);
    for (const char* model : {"vmaf_v1_5d0h", "vmaf_v1_hfr_3d0h", "vmaf_v1_3d0h_2160", "vmaf_v1_1d5h_2160"})
        add("grad_1920x1080_8b_420", model, v1_request);
    return cases;
}

std::unique_ptr<CpuFeature> make_cambi(const std::string& request_text) {
    const FeatureRequest request = parse_feature_request(request_text);
    const FeatureDefinition& definition = *find_feature(request.name).definition;
    return definition.make_cpu(bind_options(request.name, definition.options, request.options));
}

class CambiGolden : public testing::TestWithParam<GoldenCase> {};

TEST_P(CambiGolden, EveryFrameBitExact) {
    VQ_REQUIRE_FIXTURES(fixtures);
    const GoldenCase& c = GetParam();
    std::ifstream golden_file(*test::golden_dir() / c.golden);
    ASSERT_TRUE(golden_file) << c.golden;
    const auto golden = nlohmann::json::parse(golden_file);

    auto feature = make_cambi(c.request);
    auto distorted = open_y4m((fixtures / c.fixture / "dist.y4m").string());
    auto reference = open_y4m((fixtures / c.fixture / "ref.y4m").string());
    feature->init(distorted->format());
    const auto names = feature->outputs();
    std::vector<std::byte> block(feature->block_bytes());
    std::vector<double> scores(names.size());

    std::size_t frame = 0;
    int compared = 0;
    while (auto picture = distorted->next()) {
        FramePair pair{.reference = {}, .distorted = std::move(*picture)};
        auto ref_picture = reference->next();
        ASSERT_TRUE(ref_picture);
        if (feature->uses_reference()) pair.reference = std::move(*ref_picture);
        feature->compute(pair, block);
        feature->finish(block, scores);
        ASSERT_LT(frame, golden["frames"].size());
        const auto& metrics = golden["frames"][frame]["metrics"];
        for (std::size_t k = 0; k < names.size(); ++k) {
            ASSERT_TRUE(metrics.contains(names[k])) << c.golden << ": no key " << names[k];
            const double expected = metrics[names[k]].get<double>();
            EXPECT_EQ(scores[k], expected) << c.golden << " frame " << frame << " " << names[k]
                                           << std::hexfloat << ": got " << scores[k] << " want " << expected;
            ++compared;
        }
        ++frame;
    }
    EXPECT_EQ(frame, golden["frames"].size());
    EXPECT_GT(compared, 0);
}

std::string case_name(const testing::TestParamInfo<GoldenCase>& info) {
    std::string name = info.param.golden.substr(0, info.param.golden.size() - 5);
    for (char& ch : name)
        if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
    return name;
}

INSTANTIATE_TEST_SUITE_P(Cambi, CambiGolden, testing::ValuesIn(golden_cases()), case_name);

}  // namespace
}  // namespace vq
