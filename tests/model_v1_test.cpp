// The VMAF v1.0.16 models (spec/vmaf-v1.md): what their files hold, their option text, and the
// worked examples of §7, predicted from the features alone (no registry, no pixels). That they are
// built in, byte for byte, is ModelBuiltin.NamesAndBytes'.
#include <array>
#include <string>

#include <gtest/gtest.h>

#include "model/model.hpp"
#include "model_test_support.hpp"

namespace vq {
namespace {

using test::parse_builtin;
using Features = std::array<double, 4>;  // cambi, speed_chroma_uv, adm3, motion3

const char* const v1_models[] = {
    "vmaf_v1.0.16_3d0h",          "vmaf_v1.0.16_5d0h",          "vmaf_v1.0.16_1d5h_2160",
    "vmaf_v1.0.16_3d0h_2160",     "vmaf_v1.0.16_hfr_3d0h",      "vmaf_v1.0.16_hfr_5d0h",
    "vmaf_v1.0.16_hfr_1d5h_2160", "vmaf_v1.0.16_hfr_3d0h_2160",
};

// The options the file gives feature k, as "key=value:key=value".
std::string options_of(const model::Model& model, std::size_t k) {
    std::string text;
    for (const auto& [key, value] : model.features[k].options)
        text += (text.empty() ? "" : ":") + key + "=" + value;
    return text;
}

TEST(ModelV1, TheFilesShareOneSvmAndDifferOnlyInOptionsTransformAndClip) {  // §1
    const model::Model base = parse_builtin("vmaf_v1.0.16_3d0h").main;
    EXPECT_EQ(base.svm.coefficients.size(), 215u);
    EXPECT_EQ(base.svm.gamma, 0.035000000000000003);
    EXPECT_EQ(base.svm.rho, -1.2801585513962348);
    EXPECT_EQ(base.slopes[1], 0.07265168094288038);
    EXPECT_EQ(base.intercepts[4], -0.003051650363248205);
    // The 25th support vector has no index 4: it reads as 0.
    EXPECT_EQ(base.svm.vectors[24 * 4 + 2], 0.91682844);
    EXPECT_EQ(base.svm.vectors[24 * 4 + 3], 0.0);
    for (const char* name : v1_models) {
        SCOPED_TRACE(name);
        const model::Model m = parse_builtin(name).main;
        EXPECT_EQ(m.svm.vectors, base.svm.vectors);
        EXPECT_EQ(m.svm.coefficients, base.svm.coefficients);
        EXPECT_EQ(m.slopes, base.slopes);
        EXPECT_EQ(m.intercepts, base.intercepts);
        EXPECT_TRUE(m.transform_enabled);  // §4.5: on by default
        ASSERT_TRUE(m.chroma_correction);
        EXPECT_EQ(m.chroma_correction->parameter, 120.0);
        EXPECT_EQ(m.chroma_correction->speed, 1u);
        EXPECT_EQ(m.chroma_correction->adm3, 2u);
        EXPECT_TRUE(m.clip);
        EXPECT_EQ(m.clip_min, 0.0);
        EXPECT_EQ(m.clip_max, std::string_view(name).ends_with("3d0h_2160") ? 110.0 : 100.0);
        ASSERT_EQ(m.features.size(), 4u);
        EXPECT_EQ(m.features[0].extractor, "cambi");
        EXPECT_EQ(m.features[1].extractor, "speed_chroma");
        EXPECT_EQ(m.features[2].extractor, "adm");
        EXPECT_EQ(m.features[3].extractor, "motion");
    }
}

// §2: numbers pass through float and %g (17.0 -> "17", 1.0 -> "1"), booleans become true/false,
// strings stay.
TEST(ModelV1, OptionTextIsNormalisedAsLibvmafDoes) {
    const model::Model hfr5 = parse_builtin("vmaf_v1.0.16_hfr_5d0h").main;
    EXPECT_EQ(options_of(hfr5, 0),
              "cambi_high_res_speedup=1080:cambi_vis_lum_threshold=0.06:cambi_max_val=17");
    EXPECT_EQ(options_of(hfr5, 1),
              "speed_nn_floor=0.1:speed_sigma_nn=0.19:speed_weight_var_mode=5:speed_prescale=0.6:"
              "speed_prescale_method=bilinear:speed_max_val=45");
    EXPECT_EQ(options_of(hfr5, 2),
              "adm_dlm_weight=0.7:adm_enhn_gain_limit=1:adm_noise_weight=0.02:adm_norm_view_dist=5:"
              "adm_ref_display_height=1080:adm_min_val=0.5:adm_csf_mode=2");
    EXPECT_EQ(options_of(hfr5, 3),
              "motion_max_val=18:motion_five_frame_window=true:motion_moving_average=true");

    nlohmann::ordered_json file = test::tiny_model_json();
    file["model_dict"]["feature_opts_dicts"] = {
        {{"a", 0.12345678}, {"b", 1234567}, {"c", 16777217}, {"d", -2.5e-7}}};
    const auto set = model::parse_models(file.dump(), "t.json", test::model_request(""));
    EXPECT_EQ(options_of(set.main, 0), "a=0.123457:b=1.23457e+06:c=1.67772e+07:d=-2.5e-07");
}

TEST(ModelV1, OverridesReplaceTheFileValueOrAddTheOption) {  // §2.4
    const auto request = model::parse_model_request(
        "version=vmaf_v1.0.16_3d0h:cambi.cambi_max_val=5:cambi.enc_width=1280:"
        "speed_chroma.speed_prescale=0.5");
    const model::Model m =
        model::parse_models(model::builtin(request.version), request.version, request).main;
    EXPECT_EQ(options_of(m, 0),
              "cambi_high_res_speedup=1080:cambi_vis_lum_threshold=0.06:cambi_max_val=5:"
              "enc_width=1280");
    EXPECT_EQ(options_of(m, 1),
              "speed_kernelscale=1:speed_nn_floor=0.1:speed_sigma_nn=0.19:speed_weight_var_mode=5:"
              "speed_max_val=45:speed_prescale=0.5");
}

TEST(ModelV1, ANormalFrame) {  // §7.1
    const model::Model m = parse_builtin("vmaf_v1.0.16_3d0h").main;
    const Features f = {0.4046259988751707, 1.6749850511550903, 0.9609827367345258,
                        2.057453841011874};
    EXPECT_EQ(model::predict_unfinished(m, f), 89.44041753994456);
    EXPECT_EQ(model::predict(m, f), 89.10276122499182);
}

TEST(ModelV1, ACorrectedFrame) {  // §7.2: speed_chroma_uv 0 becomes 120·(1 − adm3)
    const model::Model m = parse_builtin("vmaf_v1.0.16_3d0h").main;
    const Features f = {4.68235624292311, 0, 0.97538839468109, 0.5000025954593192};
    EXPECT_EQ(model::predict_unfinished(m, f), 87.97101304695015);
    EXPECT_EQ(model::predict(m, f), 87.7895174450866);

    // The same frame with the speed value the correction computes gives the same score.
    const Features corrected = {f[0], 2.9533926382692073, f[2], f[3]};
    EXPECT_EQ(model::predict(m, corrected), 87.7895174450866);
}

TEST(ModelV1, OneSyntheticFrameUnderEveryModel) {  // §7.3
    struct Row {
        const char* model;
        double speed, adm3, y, final_score;
    };
    const Row rows[] = {
        {"vmaf_v1.0.16_3d0h", 10.992132186889648, 0.9997663016524687, 90.51347725098067,
         90.06044280272104},
        {"vmaf_v1.0.16_hfr_3d0h", 10.992132186889648, 0.9997663016524687, 90.51347725098067,
         90.06044280272104},
        {"vmaf_v1.0.16_1d5h_2160", 10.992132186889648, 0.9997663016524687, 90.51347725098067,
         90.51347725098067},
        {"vmaf_v1.0.16_5d0h", 0, 0.9999183130528877, 102.31216879726287, 100},
        {"vmaf_v1.0.16_3d0h_2160", 0, 0.9999490052938615, 102.32604824559702, 107.32604824559702},
    };
    for (const Row& row : rows) {
        SCOPED_TRACE(row.model);
        const model::Model m = parse_builtin(row.model).main;
        const Features f = {0, row.speed, row.adm3, 0};
        EXPECT_EQ(model::predict_unfinished(m, f), row.y);
        EXPECT_EQ(model::predict(m, f), row.final_score);
    }
    // 5d0h before its clip (§7.3: 100.51597738298186), with the clip disabled.
    auto request = test::model_request("vmaf_v1.0.16_5d0h");
    request.disable_clip = true;
    const auto unclipped = model::parse_models(model::builtin(request.version), "5d0h", request);
    EXPECT_EQ(model::predict(unclipped.main, Features{0, 0, 0.9999183130528877, 0}),
              100.51597738298186);
}

// §4.2: only a speed value that de-normalises to exactly 0 is corrected; a tiny positive one that
// vanishes against the intercept is corrected too.
TEST(ModelV1, TheCorrectionComparesTheRoundTrippedSpeedValue) {
    const model::Model m = parse_builtin("vmaf_v1.0.16_3d0h").main;
    const Features zero = {0.4, 0, 0.96, 2.0};
    const Features vanishing = {0.4, 1e-17, 0.96, 2.0};
    const Features visible = {0.4, 1e-12, 0.96, 2.0};
    EXPECT_EQ(model::predict(m, vanishing), model::predict(m, zero));
    EXPECT_NE(model::predict(m, visible), model::predict(m, zero));
}

TEST(ModelV1, EveryBuiltInModelHasAUse) {
    for (const std::string_view name : model::builtin_names())
        EXPECT_FALSE(model::builtin_use(name).empty()) << name;
    const std::string list = model::describe_models();
    for (const char* name : v1_models) EXPECT_NE(list.find(name), std::string::npos) << name;
    EXPECT_NE(list.find("high frame rate"), std::string::npos);
    EXPECT_TRUE(model::builtin_use("vmaf_v9").empty());
}

}  // namespace
}  // namespace vq
