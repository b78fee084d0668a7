// ADM against the reference's goldens, bit for bit on every frame: the seven outputs of every
// *__vmaf.json (default options) and of every *__vmaf_v1_*.json (the v1.0.16 models' options,
// spec/vmaf-v1.md §2), run through a Session as the CLI would.
#include <fstream>
#include <regex>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "io/frame_source.hpp"
#include "test_support.hpp"
#include "vq/session.hpp"

namespace vq::test {
namespace {

const char* const adm_outputs[] = {"integer_adm2",       "integer_aim",        "integer_adm3",
                                   "integer_adm_scale0", "integer_adm_scale1", "integer_adm_scale2",
                                   "integer_adm_scale3"};

std::vector<Picture> read_frames(const std::filesystem::path& path) {
    auto source = open_y4m(path.string());
    std::vector<Picture> frames;
    while (auto picture = source->next()) frames.push_back(std::move(*picture));
    return frames;
}

// Runs `request` over a fixture and compares every ADM output with the golden's key of the same
// name (the output name carries the options suffix, so the names are checked too).
void expect_golden(const std::filesystem::path& fixtures, const std::filesystem::path& golden_path,
                   const std::string& request, const std::string& suffix) {
    const std::string fixture = golden_path.filename().string().substr(0, golden_path.filename().string().find("__"));
    std::ifstream in(golden_path);
    const nlohmann::json golden = nlohmann::json::parse(in);
    const auto refs = read_frames(fixtures / fixture / "ref.y4m");
    const auto dists = read_frames(fixtures / fixture / "dist.y4m");
    ASSERT_EQ(refs.size(), golden["frames"].size()) << golden_path;

    Session session({.threads = 2});
    session.add_feature(request);
    session.start(refs[0].format());
    for (std::size_t i = 0; i < refs.size(); ++i) session.push({refs[i], dists[i]});
    const ScoreTable table = session.finish();

    for (const char* output : adm_outputs) {
        const std::string name = output + suffix;
        const auto column = table.find(name);
        ASSERT_TRUE(column) << name;
        for (std::size_t i = 0; i < refs.size(); ++i) {
            const auto& expected = golden["frames"][i]["metrics"][name];
            ASSERT_TRUE(expected.is_number()) << golden_path << " lacks " << name;
            EXPECT_EQ(table.value(*column, i).value_or(-1), expected.get<double>())
                << golden_path.filename() << " frame " << i << " " << name;
        }
    }
}

std::vector<std::filesystem::path> goldens_matching(const std::regex& pattern) {
    std::vector<std::filesystem::path> found;
    for (const auto& entry : std::filesystem::directory_iterator(*golden_dir()))
        if (std::regex_match(entry.path().filename().string(), pattern)) found.push_back(entry.path());
    std::sort(found.begin(), found.end());
    return found;
}

TEST(AdmGolden, DefaultOptionsEveryVmafGolden) {
    VQ_REQUIRE_FIXTURES(fixtures);
    const auto goldens = goldens_matching(std::regex(".*__vmaf\\.json"));
    EXPECT_GE(goldens.size(), 8u);
    for (const auto& golden : goldens) expect_golden(fixtures, golden, "adm", "");
}

TEST(AdmGolden, VmafV1ModelsOptions) {
    VQ_REQUIRE_FIXTURES(fixtures);
    // spec/vmaf-v1.md §2: the common ADM options, plus each model's viewing condition.
    const std::string common = "adm=adm_csf_mode=2:adm_dlm_weight=0.7:adm_enhn_gain_limit=1:adm_noise_weight=0.02:"
                               "adm_min_val=0.5";
    const std::string common_suffix = "_csf_2_dlmw_0.7_egl_1_min_0.5_nw_0.02";
    struct Model {
        const char* tag;
        const char* options;
        const char* suffix;
    };
    const Model models[] = {
        {"3d0h", "", ""},
        {"hfr_3d0h", "", ""},
        {"5d0h", ":adm_norm_view_dist=5", "_nvd_5"},
        {"1d5h_2160", ":adm_norm_view_dist=1.5:adm_ref_display_height=2160", "_nvd_1.5_rdh_2160"},
        {"3d0h_2160", ":adm_ref_display_height=2160", "_rdh_2160"},
    };
    int checked = 0;
    for (const Model& model : models)
        for (const auto& golden : goldens_matching(std::regex(std::string(".*__vmaf_v1_") + model.tag + "\\.json"))) {
            expect_golden(fixtures, golden, common + model.options, common_suffix + model.suffix);
            ++checked;
        }
    EXPECT_GE(checked, 14);
}

}  // namespace
}  // namespace vq::test
