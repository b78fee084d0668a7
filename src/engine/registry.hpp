// The feature registry: every metric vq knows, its options, and its twins.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/feature.hpp"
#include "vq/options.hpp"

namespace vq {

struct FeatureDefinition {
    std::string name;         // what --feature takes, e.g. "cambi"
    std::string description;  // one line for --list-features
    std::vector<OptionSpec> options;
    std::function<std::unique_ptr<CpuFeature>(const OptionValues&)> make_cpu;
    // Null when the feature has no CUDA twin or vq was built without CUDA.
    std::function<std::unique_ptr<Feature>(const OptionValues&)> make_cuda;
};

const std::vector<FeatureDefinition>& feature_registry();

// Looks a user-facing name up. "NAME_cuda" names NAME's CUDA twin explicitly: the result then
// has twin_required set.
struct FeatureLookup {
    const FeatureDefinition* definition = nullptr;
    bool cuda_twin_required = false;
};
FeatureLookup find_feature(std::string_view name);

}  // namespace vq
