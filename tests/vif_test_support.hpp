// Helpers for the VIF tests: a direct path to the stages and the CPU twin (the worked-example
// frames of spec/vmaf.md §9.1 come from vmaf_example_frames.hpp).
#pragma once

#include <cstdint>
#include <vector>

#include "metrics/vif/vif.hpp"
#include "metrics/vif/vif_cpu_kernels.hpp"
#include "metrics/vif/vif_cpu_pyramid.hpp"
#include "support/pictures.hpp"
#include "vmaf_example_frames.hpp"
#include "feature/options.hpp"
#include "vq/picture.hpp"

namespace vq::test {

inline vif::Options vif_options(double gain_limit = 100.0, bool skip_scale0 = false) {
    vif::Options options;
    options.enhancement_gain_limit = gain_limit;
    options.skip_scale0 = skip_scale0;
    return options;
}

// The block of one frame pair with the given variant.
inline vif::Block vif_block(const Picture& ref, const Picture& dist, const vif::Options& options,
                            const vif::Kernels& kernels) {
    const int bit_depth = ref.format().bit_depth;
    if (bit_depth > 8)
        return vif::compute_block(ref.plane<std::uint16_t>(0), dist.plane<std::uint16_t>(0),
                                  bit_depth, options, kernels);
    return vif::compute_block(ref.plane<std::uint8_t>(0), dist.plane<std::uint8_t>(0), bit_depth,
                              options, kernels);
}

inline const vif::Kernels& plain_kernels() { return vif::available_kernels().back(); }

}  // namespace vq::test
