#include "model/model_features.hpp"

#include <array>

#include "model/model.hpp"

namespace vq::model::detail {
namespace {

constexpr std::array<FeatureBinding, 10> bindings = {{
    {"Cambi_feature_cambi_score", "cambi", "cambi"},
    {"Speed_chroma_feature_speed_chroma_uv_score", "speed_chroma", "speed_chroma_uv"},
    {"VMAF_integer_feature_adm2_score", "adm", "integer_adm2"},
    {"VMAF_integer_feature_adm3_score", "adm", "integer_adm3"},
    {"VMAF_integer_feature_motion2_score", "motion", "integer_motion2"},
    {"VMAF_integer_feature_motion3_score", "motion", "integer_motion3"},
    {"VMAF_integer_feature_vif_scale0_score", "vif", "integer_vif_scale0"},
    {"VMAF_integer_feature_vif_scale1_score", "vif", "integer_vif_scale1"},
    {"VMAF_integer_feature_vif_scale2_score", "vif", "integer_vif_scale2"},
    {"VMAF_integer_feature_vif_scale3_score", "vif", "integer_vif_scale3"},
}};

}  // namespace

const FeatureBinding* find_binding(std::string_view name) {
    for (const FeatureBinding& binding : bindings)
        if (binding.name == name) return &binding;
    return nullptr;
}

std::string_view known_feature_names() {
    return "Cambi_feature_cambi_score, Speed_chroma_feature_speed_chroma_uv_score, "
           "VMAF_integer_feature_adm2_score, VMAF_integer_feature_adm3_score, "
           "VMAF_integer_feature_motion2_score, VMAF_integer_feature_motion3_score, "
           "VMAF_integer_feature_vif_scale{0..3}_score";
}

}  // namespace vq::model::detail

namespace vq::model {

std::string ModelFeature::request_text() const {
    std::string text = extractor;
    for (std::size_t i = 0; i < options.size(); ++i)
        text += (i == 0 ? "=" : ":") + options[i].first + "=" + options[i].second;
    return text;
}

}  // namespace vq::model
