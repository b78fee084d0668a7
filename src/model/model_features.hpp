// The model feature names vq can provide (spec/vmaf.md §1, §6; spec/vmaf-v1.md §1): which registry extractor computes
// each one and the output name its value is written under.
#pragma once

#include <string_view>

namespace vq::model::detail {

struct FeatureBinding {
    std::string_view name;       // as model files name it
    std::string_view extractor;  // the registry feature
    std::string_view output;     // its §6 alias; non-default options append their suffix
};

// Null for a name no extractor provides.
const FeatureBinding* find_binding(std::string_view name);

// "a, b, c" for messages.
std::string_view known_feature_names();

}  // namespace vq::model::detail
