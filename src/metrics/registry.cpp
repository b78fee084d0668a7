// Every metric vq knows: a new metric adds its definition() here (docs/architecture.md, "Adding a
// metric"). The order is --list-features' order.
#include "feature/registry.hpp"
#include "metrics/adm/adm.hpp"
#include "metrics/cambi/cambi.hpp"
#include "metrics/ciede/ciede.hpp"
#include "metrics/motion/motion.hpp"
#include "metrics/psnr/psnr.hpp"
#include "metrics/psnr_hvs/psnr_hvs.hpp"
#include "metrics/ssim/ssim.hpp"
#include "metrics/speed/speed.hpp"
#include "metrics/vif/vif.hpp"

namespace vq {

const std::vector<FeatureDefinition>& feature_registry() {
    static const std::vector<FeatureDefinition> registry = {
        psnr::definition(),           adm::definition(),
        motion::definition(),         cambi::definition(),
        ciede::definition(),          vif::definition(),
        psnr_hvs::definition(),       ssim::ssim_definition(),
        ssim::ms_ssim_definition(),   speed::chroma_definition(),
        speed::temporal_definition(),
    };
    return registry;
}

}  // namespace vq
