// The variant table: which of the compiled variants this CPU can run.
#include "metrics/vif/vif_kernels.hpp"

#include <vector>

#include "metrics/vif/vif_stages.hpp"

namespace vq::vif {

std::span<const Kernels> available_kernels() {
    static const std::vector<Kernels> variants = [] {
        std::vector<Kernels> found;
        found.push_back({"plain", scale_statistics<std::uint8_t>, scale_statistics<std::uint16_t>,
                         decimate<std::uint8_t>, decimate<std::uint16_t>});
        return found;
    }();
    return variants;
}

}  // namespace vq::vif
