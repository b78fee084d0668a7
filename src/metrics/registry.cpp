// Every metric vq knows: a new metric adds its definition() here (docs/architecture.md, "Adding a
// metric"). The order is --list-features' order.
#include "feature/registry.hpp"
#include "metrics/adm/adm.hpp"
#include "metrics/cambi/cambi.hpp"
#include "metrics/ciede/ciede.hpp"
#include "metrics/motion/motion.hpp"
#include "metrics/psnr/psnr.hpp"
#include "metrics/vif/vif.hpp"

namespace vq {

const std::vector<FeatureDefinition>& feature_registry() {
    static const std::vector<FeatureDefinition> registry = {
        psnr::definition(),  adm::definition(),   motion::definition(),
        cambi::definition(), ciede::definition(), vif::definition(),
    };
    return registry;
}

}  // namespace vq
