#include "engine/registry.hpp"

#include "metrics/adm/adm.hpp"
#include "metrics/cambi/cambi.hpp"
#include "metrics/ciede/ciede.hpp"
#include "metrics/motion/motion.hpp"
#include "metrics/psnr/psnr.hpp"
#include "metrics/speed/speed.hpp"
#include "metrics/vif/vif.hpp"

namespace vq {

const std::vector<FeatureDefinition>& feature_registry() {
    static const std::vector<FeatureDefinition> registry = {
        psnr::definition(),  adm::definition(),   motion::definition(),
        cambi::definition(), ciede::definition(), vif::definition(),
        speed::chroma_definition(), speed::temporal_definition(),
    };
    return registry;
}

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
