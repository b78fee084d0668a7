// The feature registry's types: what a metric declares (name, options, twins) and how a name is
// looked up. The list of every metric is metrics/registry.cpp.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "feature/feature.hpp"
#include "feature/options.hpp"

namespace vq {

struct FeatureDefinition {
    std::string name;         // what --feature takes, e.g. "cambi"
    std::string description;  // one line for --list-features
    std::vector<OptionSpec> options;
    std::function<std::unique_ptr<CpuFeature>(const OptionValues&)> make_cpu;
    // Null when the feature has no CUDA twin or vq was built without CUDA.
    std::function<std::unique_ptr<Feature>(const OptionValues&)> make_cuda;
};

// Every metric, in --list-features order (metrics/registry.cpp).
const std::vector<FeatureDefinition>& feature_registry();

// Looks a user-facing name up. "NAME_cuda" names NAME's CUDA twin explicitly: the result then
// has twin_required set.
struct FeatureLookup {
    const FeatureDefinition* definition = nullptr;
    bool cuda_twin_required = false;
};
FeatureLookup find_feature(std::string_view name);

}  // namespace vq
