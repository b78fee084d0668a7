// One frame of integer VIF: the four-scale pyramid of both luma planes and each scale's
// accumulators (spec/vmaf.md §2.3-§2.6), with the stages of one variant.
#pragma once

#include "metrics/vif/vif.hpp"
#include "metrics/vif/vif_cpu_kernels.hpp"
#include "vq/picture.hpp"

namespace vq::vif {

// Luma planes of at least min_dimension in both directions.
template <typename Sample>
Block compute_block(const PlaneView<Sample>& ref, const PlaneView<Sample>& dist, int bit_depth,
                    const Options& options, const Kernels& kernels);

}  // namespace vq::vif
