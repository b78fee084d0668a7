#include "golden_cases.hpp"

#include <fstream>

#include "io/frame_source.hpp"
#include "test_support.hpp"

namespace vq::test {
namespace {

GoldenCase golden(const std::string& fixture, const std::string& suffix, const std::string& request,
                  const std::string& output_suffix = {}) {
    return {fixture + "__" + suffix + ".json", fixture, request, output_suffix};
}

// The VMAF v1.0.16 models with a golden, and the clips each was run on.
struct V1Golden {
    std::string fixture;
    std::string model;  // vmaf_v1_3d0h, ...
};

std::vector<V1Golden> vmaf_v1_goldens() {
    std::vector<V1Golden> goldens;
    for (const std::string& fixture : vmaf_fixtures()) goldens.push_back({fixture, "vmaf_v1_3d0h"});
    for (const char* model : {"vmaf_v1_5d0h", "vmaf_v1_hfr_3d0h"})
        goldens.push_back({"testsrc_576x324_8b_420", model});
    for (const char* model :
         {"vmaf_v1_5d0h", "vmaf_v1_hfr_3d0h", "vmaf_v1_3d0h_2160", "vmaf_v1_1d5h_2160"})
        goldens.push_back({"grad_1920x1080_8b_420", model});
    return goldens;
}

}  // namespace

void PrintTo(const GoldenCase& c, std::ostream* out) {
    *out << c.golden << " (" << c.fixture << ", " << c.request << ")";
}

std::string golden_case_name(const testing::TestParamInfo<GoldenCase>& info) {
    std::string name =
        info.param.golden.substr(0, info.param.golden.size() - std::string(".json").size());
    for (char& ch : name)
        if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
    return name;
}

std::vector<std::string> vmaf_fixtures() {
    return {"grad_576x324_8b_420",    "grad_576x324_10b_420", "mandel_576x324_8b_420",
            "testsrc_576x324_8b_420", "odd_641x359_8b_420",   "testsrc_352x288_8b_422",
            "testsrc_352x288_8b_444", "grad_1920x1080_8b_420"};
}

// The two raw-yuv goldens (odd_641x359, testsrc_352x288_8b_422) were fed the y4m's luma
// unchanged; CAMBI reads only luma, so the y4m gives the same input.
std::vector<GoldenCase> cambi_golden_cases() {
    std::vector<GoldenCase> cases;
    for (const char* fixture :
         {"grad_576x324_8b_420", "testsrc_576x324_8b_420", "mandel_576x324_8b_420",
          "grad_576x324_10b_420", "grad_1920x1080_8b_420", "odd_641x359_8b_420",
          "testsrc_352x288_8b_422", "testsrc_352x288_8b_444"})
        cases.push_back(golden(fixture, "feat", "cambi"));
    for (const char* fixture :
         {"grad_576x324_8b_420", "grad_576x324_10b_420", "grad_1920x1080_8b_420"}) {
        cases.push_back(golden(fixture, "cambi_ws33", "cambi=window_size=33"));
        cases.push_back(golden(fixture, "cambi_topk0.2", "cambi=topk=0.2"));
        cases.push_back(golden(fixture, "cambi_tvi0.012", "cambi=tvi_threshold=0.012"));
        cases.push_back(golden(fixture, "cambi_mlc3", "cambi=max_log_contrast=3"));
        cases.push_back(golden(fixture, "cambi_fullref", "cambi=full_ref=true"));
    }
    for (const char* fixture : {"grad_576x324_8b_420", "grad_1920x1080_8b_420"})
        cases.push_back(golden(fixture, "cambi_tvi0.03", "cambi=tvi_threshold=0.03"));
    for (const char* fixture : {"grad_576x324_8b_420", "grad_576x324_10b_420"})
        cases.push_back(golden(fixture, "cambi_enc288x162", "cambi=enc_width=288:enc_height=162"));
    cases.push_back(golden("grad_576x324_8b_420", "cambi_ws127", "cambi=window_size=127"));
    cases.push_back(golden("grad_576x324_8b_420", "cambi_mlc0", "cambi=max_log_contrast=0"));
    cases.push_back(
        golden("grad_576x324_8b_420", "cambi_vlt5", "cambi=cambi_vis_lum_threshold=5.0"));
    cases.push_back(golden("grad_576x324_8b_420", "cambi_maxval5", "cambi=cambi_max_val=5"));
    cases.push_back(golden("grad_576x324_10b_420", "cambi_eotfpq", "cambi=eotf=pq"));
    cases.push_back(golden("grad_576x324_10b_420", "cambi_encbd8", "cambi=enc_bitdepth=8"));
    cases.push_back(
        golden("grad_1920x1080_8b_420", "cambi_enc960x540", "cambi=enc_width=960:enc_height=540"));
    cases.push_back(
        golden("grad_1920x1080_8b_420", "cambi_hrs1080", "cambi=cambi_high_res_speedup=1080"));
    cases.push_back(golden("odd_641x359_8b_420", "cambi_fullref", "cambi=full_ref=true"));
    // The VMAF v1.0.16 models run CAMBI with these options (shared/spec/vmaf-v1.md).
    for (const V1Golden& v1 : vmaf_v1_goldens())
        cases.push_back(golden(
            v1.fixture, v1.model,
            "cambi=cambi_high_res_speedup=1080:cambi_max_val=17:cambi_vis_lum_threshold=0.06"));
    return cases;
}

// The raw-input goldens (odd_641x359, testsrc 4:2:2) read the same luma as the y4m (INDEX.md).
std::vector<GoldenCase> vif_golden_cases() {
    std::vector<GoldenCase> cases;
    for (const std::string& fixture : vmaf_fixtures())
        cases.push_back(golden(fixture, "vmaf", "vif"));
    return cases;
}

std::vector<GoldenCase> adm_golden_cases() {
    std::vector<GoldenCase> cases;
    for (const std::string& fixture : vmaf_fixtures())
        cases.push_back(golden(fixture, "vmaf", "adm"));
    // spec/vmaf-v1.md §2: the options every v1 model shares, plus its viewing condition.
    const std::string common =
        "adm=adm_csf_mode=2:adm_dlm_weight=0.7:adm_enhn_gain_limit=1:adm_noise_weight=0.02:"
        "adm_min_val=0.5";
    const std::string common_suffix = "_csf_2_dlmw_0.7_egl_1_min_0.5_nw_0.02";
    for (const V1Golden& v1 : vmaf_v1_goldens()) {
        std::string options, suffix;
        if (v1.model == "vmaf_v1_5d0h") options = ":adm_norm_view_dist=5", suffix = "_nvd_5";
        if (v1.model == "vmaf_v1_1d5h_2160")
            options = ":adm_norm_view_dist=1.5:adm_ref_display_height=2160",
            suffix = "_nvd_1.5_rdh_2160";
        if (v1.model == "vmaf_v1_3d0h_2160")
            options = ":adm_ref_display_height=2160", suffix = "_rdh_2160";
        cases.push_back(golden(v1.fixture, v1.model, common + options, common_suffix + suffix));
    }
    return cases;
}

std::vector<std::string> adm_outputs() {
    return {"integer_adm2",       "integer_aim",        "integer_adm3",      "integer_adm_scale0",
            "integer_adm_scale1", "integer_adm_scale2", "integer_adm_scale3"};
}

// The v1 models' motion (spec/vmaf-v1.md §3): clipped at 18, and the hfr model's five-frame
// window with moving average.
std::vector<GoldenCase> motion_golden_cases() {
    std::vector<GoldenCase> cases;
    for (const std::string& fixture : vmaf_fixtures())
        cases.push_back(golden(fixture, "vmaf", "motion"));
    cases.push_back(
        golden("testsrc_576x324_8b_420", "vmaf_v1_3d0h", "motion=motion_max_val=18", "_mmxv_18"));
    cases.push_back(
        golden("testsrc_576x324_8b_420", "vmaf_v1_hfr_3d0h",
               "motion=motion_five_frame_window=true:motion_max_val=18:motion_moving_average=true",
               "_mffw_mmxv_18_mma"));
    return cases;
}

std::vector<std::string> motion_outputs() {
    return {"VMAF_integer_feature_motion_sad_score", "integer_motion2", "integer_motion3"};
}

// The request is the model (Session::add_model), not a feature.
std::vector<GoldenCase> vmaf_golden_cases() {
    std::vector<GoldenCase> cases;
    for (const std::string& fixture : vmaf_fixtures())
        cases.push_back(golden(fixture, "vmaf", "version=vmaf_v0.6.1"));
    return cases;
}

// The raw-input goldens hold the y4m's samples; odd_641x359's chroma was cut to the floor size
// that psnr_hvs scores anyway (its top-left 320x179 of each plane, INDEX.md).
std::vector<GoldenCase> psnr_hvs_golden_cases() {
    std::vector<GoldenCase> cases;
    for (const std::string& fixture : vmaf_fixtures())
        cases.push_back(golden(fixture, "psnr_hvs", "psnr_hvs"));
    return cases;
}

// Six option sets per clip (spec/ssim.md §14); the raw-input goldens read the y4m's luma.
std::vector<GoldenCase> ssim_golden_cases() {
    const std::pair<const char*, const char*> tags[] = {
        {"float_ssim", "float_ssim"},
        {"float_ssim_db_clip", "float_ssim=enable_db=true:clip_db=true"},
        {"float_ssim_scale1", "float_ssim=scale=1"},
        {"float_ms_ssim", "float_ms_ssim"},
        {"float_ms_ssim_lcs", "float_ms_ssim=enable_lcs=true"},
        {"float_ms_ssim_db_clip", "float_ms_ssim=enable_db=true:clip_db=true"},
    };
    std::vector<GoldenCase> cases;
    for (const std::string& fixture : vmaf_fixtures())
        for (const auto& [tag, request] : tags) cases.push_back(golden(fixture, tag, request));
    return cases;
}

// "vmaf_v1_hfr_3d0h" is the golden's name for version=vmaf_v1.0.16_hfr_3d0h.
std::vector<GoldenCase> vmaf_v1_golden_cases() {
    std::vector<GoldenCase> cases;
    for (const V1Golden& v1 : vmaf_v1_goldens())
        cases.push_back(
            golden(v1.fixture, v1.model,
                   "version=vmaf_v1.0.16_" + v1.model.substr(std::string("vmaf_v1_").size())));
    return cases;
}

// SpEED (spec/speed.md): defaults on every clip, the prescale methods, kernel scales and weighting
// modes on two of them, and the v1.0.16 models' options. odd_641x359's golden read 320x179 chroma
// planes (INDEX.md), not the 321x180 the y4m holds.
std::vector<GoldenCase> speed_golden_cases() {
    std::vector<GoldenCase> cases;
    for (const std::string& fixture : vmaf_fixtures())
        cases.push_back(golden(fixture, "speed_chroma", "speed_chroma"));
    const std::string hd = "grad_1920x1080_8b_420";
    for (const char* method : {"bilinear", "bicubic", "lanczos4"})
        cases.push_back(
            golden(hd, std::string("speed_chroma_ps0.5") + method,
                   std::string("speed_chroma=speed_prescale=0.5:speed_prescale_method=") + method,
                   std::string("_ps_0.5_psm_") + method));
    cases.push_back(
        golden(hd, "speed_chroma_ps0.5nearest", "speed_chroma=speed_prescale=0.5", "_ps_0.5"));
    cases.push_back(golden(hd, "speed_chroma_ps0.6bilinear",
                           "speed_chroma=speed_prescale=0.6:speed_prescale_method=bilinear",
                           "_ps_0.6_psm_bilinear"));
    cases.push_back(golden(hd, "speed_chroma_ps1.5bilinear",
                           "speed_chroma=speed_prescale=1.5:speed_prescale_method=bilinear",
                           "_ps_1.5_psm_bilinear"));
    for (const char* scale : {"2", "0.5"})
        cases.push_back(golden(hd, std::string("speed_chroma_ks") + scale,
                               std::string("speed_chroma=speed_kernelscale=") + scale,
                               std::string("_ks_") + scale));
    for (int mode = 1; mode <= 6; ++mode)
        cases.push_back(golden("mandel_576x324_8b_420", "speed_chroma_wvm" + std::to_string(mode),
                               "speed_chroma=speed_weight_var_mode=" + std::to_string(mode),
                               "_wvm_" + std::to_string(mode)));
    const std::string v1 =
        "speed_chroma=speed_nn_floor=0.1:speed_sigma_nn=0.19:"
        "speed_weight_var_mode=5:speed_max_val=";
    cases.push_back(golden("mandel_576x324_8b_420", "speed_chroma_v1opts", v1 + "2",
                           "_mxv_2_nnf_0.1_snn_0.19_wvm_5"));
    for (const V1Golden& g : vmaf_v1_goldens()) {
        std::string options = v1 + "45", suffix = "_mxv_45_nnf_0.1";
        if (g.model == "vmaf_v1_3d0h_2160")
            options += ":speed_prescale=0.5:speed_prescale_method=bilinear",
                suffix += "_ps_0.5_psm_bilinear";
        if (g.model == "vmaf_v1_5d0h")
            options += ":speed_prescale=0.6:speed_prescale_method=bilinear",
                suffix += "_ps_0.6_psm_bilinear";
        cases.push_back(golden(g.fixture, g.model, options, suffix + "_snn_0.19_wvm_5"));
    }
    cases.push_back(golden("testsrc_576x324_8b_420", "speed_temporal", "speed_temporal"));
    return cases;
}

std::vector<std::string> speed_outputs(const GoldenCase& c) {
    if (c.request.starts_with("speed_temporal")) return {"speed_temporal"};
    return {"speed_chroma_u", "speed_chroma_v", "speed_chroma_uv"};
}

nlohmann::json read_golden(const GoldenCase& c) {
    std::ifstream in(*golden_dir() / c.golden);
    EXPECT_TRUE(in) << c.golden;
    return nlohmann::json::parse(in);
}

void expect_golden_outputs(const ScoreTable& table, const GoldenCase& c,
                           const std::vector<std::string>& outputs) {
    const nlohmann::json golden = read_golden(c);
    ASSERT_EQ(table.frame_count(), golden["frames"].size()) << c.golden;
    for (const std::string& output : outputs) {
        const std::string name = output + c.suffix;
        const auto column = table.find(name);
        ASSERT_TRUE(column) << c.golden << ": no column " << name;
        for (std::size_t f = 0; f < table.frame_count(); ++f) {
            const auto& expected = golden["frames"][f]["metrics"][name];
            ASSERT_TRUE(expected.is_number()) << c.golden << " lacks " << name;
            EXPECT_EQ(table.value(*column, f).value_or(-1), expected.get<double>())
                << c.golden << " frame " << f << " " << name;
        }
    }
}

void expect_golden_pooled(const ScoreTable& table, const GoldenCase& c,
                          const std::vector<std::string>& outputs) {
    const nlohmann::json golden = read_golden(c);
    for (const std::string& output : outputs) {
        const std::string name = output + c.suffix;
        const auto column = table.find(name);
        ASSERT_TRUE(column) << c.golden << ": no column " << name;
        for (const PoolingMethod method : all_pooling_methods) {
            const auto& expected = golden["pooled_metrics"][name][to_string(method)];
            ASSERT_TRUE(expected.is_number()) << c.golden << " lacks " << name << " pooled";
            EXPECT_EQ(table.pooled(*column, method).value_or(-1), expected.get<double>())
                << c.golden << " pooled " << to_string(method) << " " << name;
        }
    }
}

std::vector<FramePair> fixture_frames(const std::filesystem::path& fixtures,
                                      const std::string& fixture) {
    auto reference = open_y4m((fixtures / fixture / "ref.y4m").string());
    auto distorted = open_y4m((fixtures / fixture / "dist.y4m").string());
    std::vector<FramePair> frames;
    while (auto picture = distorted->next()) {
        auto ref = reference->next();
        EXPECT_TRUE(ref) << fixture << ": ref.y4m has fewer frames than dist.y4m";
        if (!ref) break;
        frames.push_back({std::move(*ref), std::move(*picture), frames.size()});
    }
    return frames;
}

}  // namespace vq::test
