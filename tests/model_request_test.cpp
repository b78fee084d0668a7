// Model strings (libvmaf's --model syntax), built-in lookup, and loading through the feature
// registry: the options each model passes to its extractors and the output names that follow.
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "model/model.hpp"
#include "test_support.hpp"
#include "vq/error.hpp"

namespace vq {
namespace {

using Options = std::vector<std::pair<std::string, std::string>>;

std::string usage_message(const std::function<void()>& run) {
    try {
        run();
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::usage);
        EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
        return e.what();
    }
    ADD_FAILURE() << "no error";
    return {};
}

std::vector<std::string> columns(const model::ModelSet& set) {
    std::vector<std::string> names;
    for (const auto& feature : set.main.features) names.push_back(feature.column);
    return names;
}

std::vector<std::string> extractor_runs(const model::ModelSet& set) {
    std::vector<std::string> runs;
    for (const FeatureRequest& request : set.extractors) {
        model::ModelFeature feature;
        feature.extractor = request.name;
        feature.options = request.options;
        runs.push_back(feature.request_text());
    }
    return runs;
}

TEST(ModelRequest, VersionAlone) {
    const model::ModelRequest r = model::parse_model_request("version=vmaf_v0.6.1");
    EXPECT_EQ(r.version, "vmaf_v0.6.1");
    EXPECT_EQ(r.path, "");
    EXPECT_EQ(r.name, "vmaf");
    EXPECT_FALSE(r.enable_transform);
    EXPECT_FALSE(r.disable_clip);
    EXPECT_TRUE(r.overrides.empty());
}

TEST(ModelRequest, EveryItem) {
    const model::ModelRequest r = model::parse_model_request(
        "path=/models/"
        "m.json:name=vmaf_neg:enable_transform:disable_clip=true:adm.adm_enhn_gain_limit=1.2:"
        "vif.vif_enhn_gain_limit=1");
    EXPECT_EQ(r.path, "/models/m.json");
    EXPECT_EQ(r.name, "vmaf_neg");
    EXPECT_TRUE(r.enable_transform);
    EXPECT_TRUE(r.disable_clip);
    ASSERT_EQ(r.overrides.size(), 2u);
    EXPECT_EQ(r.overrides[0].extractor, "adm");
    EXPECT_EQ(r.overrides[0].option, "adm_enhn_gain_limit");
    EXPECT_EQ(r.overrides[0].value, "1.2");
    EXPECT_EQ(r.overrides[1].extractor, "vif");
    EXPECT_FALSE(model::parse_model_request("version=x:enable_transform=false").enable_transform);
    EXPECT_TRUE(model::parse_model_request("version=x:enable_transform=true").enable_transform);
}

TEST(ModelRequest, ErrorsNameTheBadPart) {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"", "empty item"},
        {"name=x", "needs version=NAME or path=FILE"},
        {"version=a:path=b", "not both"},
        {"version=", "'version=' needs a value"},
        {"version=a::name=b", "empty item"},
        {"version=a:", "empty item"},
        {"version=a:bogus=1", "unknown item 'bogus=1'"},
        {"version=a:enable_transform=maybe", "'enable_transform=maybe'"},
        {"version=a:disable_clip=1", "'disable_clip=1'"},
        {"version=a:.x=1", "'.x=1' is not FEATURE.OPTION=VALUE"},
        {"version=a:adm.=1", "'adm.=1'"},
        {"version=a:adm.x=", "'adm.x='"},
        {"version=a:adm.x", "'adm.x'"},
        {"version=a:adm.x=1=2", "'adm.x=1=2'"},
        {"name=:version=a", "'name=' needs a value"},
    };
    for (const auto& [text, expected] : cases) {
        const std::string message = usage_message([&] { (void)model::parse_model_request(text); });
        EXPECT_NE(message.find(expected), std::string::npos) << text << " -> " << message;
        EXPECT_NE(message.find("--model"), std::string::npos) << message;
    }
}

TEST(ModelBuiltin, NamesAndBytes) {
    const std::vector<std::string_view> names = model::builtin_names();
    EXPECT_EQ(names,
              (std::vector<std::string_view>{
                  "vmaf_4k_v0.6.1", "vmaf_4k_v0.6.1neg", "vmaf_b_v0.6.3", "vmaf_v0.6.1",
                  "vmaf_v0.6.1neg", "vmaf_v1.0.16_1d5h_2160", "vmaf_v1.0.16_3d0h",
                  "vmaf_v1.0.16_3d0h_2160", "vmaf_v1.0.16_5d0h", "vmaf_v1.0.16_hfr_1d5h_2160",
                  "vmaf_v1.0.16_hfr_3d0h", "vmaf_v1.0.16_hfr_3d0h_2160", "vmaf_v1.0.16_hfr_5d0h"}));
    const std::string message = usage_message([] { (void)model::builtin("vmaf_v9"); });
    EXPECT_NE(message.find("vmaf_v9"), std::string::npos);
    EXPECT_NE(message.find("vmaf_4k_v0.6.1neg"), std::string::npos);

    const auto shared = test::shared_dir();
    if (!shared) GTEST_SKIP() << "../shared not found: byte comparison skipped";
    for (const std::string_view name : names)
        EXPECT_EQ(model::builtin(name),
                  test::read_file(*shared / "models" / (std::string(name) + ".json")))
            << name;
}

TEST(ModelLoad, DefaultModelReadsDefaultColumns) {
    const model::ModelSet set = model::load(model::parse_model_request("version=vmaf_v0.6.1"));
    EXPECT_EQ(columns(set), (std::vector<std::string>{"integer_adm2", "integer_motion2",
                                                      "integer_vif_scale0", "integer_vif_scale1",
                                                      "integer_vif_scale2", "integer_vif_scale3"}));
    EXPECT_EQ(extractor_runs(set), (std::vector<std::string>{"adm", "motion", "vif"}));
    for (const auto& feature : set.main.features)
        EXPECT_TRUE(feature.options.empty()) << feature.name;
}

TEST(ModelLoad, NegModelsPassGainLimits) {  // §4.3, §6
    for (const char* version : {"vmaf_v0.6.1neg", "vmaf_4k_v0.6.1neg"}) {
        SCOPED_TRACE(version);
        const model::ModelSet set =
            model::load(model::parse_model_request(std::string("version=") + version));
        EXPECT_EQ(columns(set), (std::vector<std::string>{
                                    "integer_adm2_egl_1", "integer_motion2",
                                    "integer_vif_scale0_egl_1", "integer_vif_scale1_egl_1",
                                    "integer_vif_scale2_egl_1", "integer_vif_scale3_egl_1"}));
        EXPECT_EQ(set.main.features[0].options, (Options{{"adm_enhn_gain_limit", "1"}}));
        EXPECT_TRUE(set.main.features[1].options.empty());
        EXPECT_EQ(set.main.features[2].options, (Options{{"vif_enhn_gain_limit", "1"}}));
        // The four VIF scales share one run (§1).
        EXPECT_EQ(extractor_runs(set),
                  (std::vector<std::string>{"adm=adm_enhn_gain_limit=1", "motion",
                                            "vif=vif_enhn_gain_limit=1"}));
        EXPECT_EQ(model::output_names(set), std::vector<std::string>{"vmaf"});
    }
}

TEST(ModelLoad, OverridesChangeOptionsAndNames) {
    model::ModelSet set =
        model::load(model::parse_model_request("version=vmaf_v0.6.1:adm.adm_enhn_gain_limit=1.2"));
    EXPECT_EQ(set.main.features[0].column, "integer_adm2_egl_1.2");
    EXPECT_EQ(set.main.features[0].request_text(), "adm=adm_enhn_gain_limit=1.2");

    // Back to the default: the suffix goes away.
    set = model::load(
        model::parse_model_request("version=vmaf_v0.6.1neg:vif.vif_enhn_gain_limit=100"));
    EXPECT_EQ(set.main.features[2].column, "integer_vif_scale0");
    EXPECT_EQ(set.main.features[2].options, (Options{{"vif_enhn_gain_limit", "100"}}));
    EXPECT_EQ(set.main.features[0].column, "integer_adm2_egl_1");

    set = model::load(
        model::parse_model_request("version=vmaf_v0.6.1:motion.motion_force_zero=true:name=m"));
    EXPECT_EQ(set.main.features[1].column, "integer_motion2_force_0");
    EXPECT_EQ(set.main.name, "m");
}

TEST(ModelLoad, OverrideErrors) {
    std::string message = usage_message(
        [] { (void)model::load(model::parse_model_request("version=vmaf_v0.6.1:adm.nope=1")); });
    EXPECT_NE(message.find("nope"), std::string::npos) << message;
    EXPECT_NE(message.find("vmaf_v0.6.1"), std::string::npos) << message;
    message = usage_message([] {
        (void)model::load(
            model::parse_model_request("version=vmaf_v0.6.1:adm.adm_enhn_gain_limit=200"));
    });
    EXPECT_NE(message.find("adm_enhn_gain_limit"), std::string::npos) << message;
    message = usage_message(
        [] { (void)model::load(model::parse_model_request("version=vmaf_v0.6.1:psnr.x=1")); });
    EXPECT_NE(message.find("'psnr'"), std::string::npos) << message;
    message =
        usage_message([] { (void)model::load(model::parse_model_request("version=vmaf_v7")); });
    EXPECT_NE(message.find("vmaf_v7"), std::string::npos) << message;
}

TEST(ModelLoad, FromPath) {
    const std::filesystem::path dir = test::scratch_dir("model_load_path");
    const std::filesystem::path file = dir / "mine.json";
    std::ofstream(file, std::ios::binary) << model::builtin("vmaf_4k_v0.6.1");
    const model::ModelSet set = model::load(model::parse_model_request("path=" + file.string()));
    EXPECT_EQ(set.main.svm.coefficients.size(), 262u);
    EXPECT_EQ(set.main.features[5].column, "integer_vif_scale3");

    const std::string missing = (dir / "absent.json").string();
    const std::string message =
        usage_message([&] { (void)model::load(model::parse_model_request("path=" + missing)); });
    EXPECT_NE(message.find(missing), std::string::npos) << message;

    std::ofstream(dir / "broken.json") << "{\"model_dict\": {";
    const std::string broken = usage_message([&] {
        (void)model::load(model::parse_model_request("path=" + (dir / "broken.json").string()));
    });
    EXPECT_NE(broken.find("broken.json"), std::string::npos) << broken;
}

TEST(ModelLoad, CollectionColumnsForEveryMember) {
    const model::ModelSet set =
        model::load(model::parse_model_request("version=vmaf_b_v0.6.3:name=vb"));
    ASSERT_EQ(set.collection.size(), 20u);
    for (const model::Model& member : set.collection)
        for (std::size_t k = 0; k < member.features.size(); ++k)
            EXPECT_EQ(member.features[k].column, set.main.features[k].column) << member.name;
    EXPECT_EQ(set.collection[19].name, "vb_0020");
    EXPECT_EQ(extractor_runs(set), (std::vector<std::string>{"adm", "motion", "vif"}));
}

}  // namespace
}  // namespace vq
