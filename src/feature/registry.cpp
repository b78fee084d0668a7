// Looking a feature up by the name a user gives; the list itself is metrics/registry.cpp.
#include "feature/registry.hpp"

namespace vq {

FeatureLookup find_feature(std::string_view name) {
    constexpr std::string_view cuda_suffix = "_cuda";
    bool twin = false;
    if (name.size() > cuda_suffix.size() && name.ends_with(cuda_suffix)) {
        name.remove_suffix(cuda_suffix.size());
        twin = true;
    }
    for (const auto& definition : feature_registry())
        if (definition.name == name) return {&definition, twin};
    return {};
}

}  // namespace vq
