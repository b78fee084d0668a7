// CIEDE2000 colour difference (spec/ciede.md): what the CPU and CUDA twins share on the host.
// The per-pixel colour mathematics is in ciede_math.hpp, the chroma addressing in
// ciede_chroma.hpp; both are usable from device code.
#pragma once

#include "engine/registry.hpp"

namespace vq {

FeatureDefinition ciede_definition();

// The per-frame result block: Σ ΔE00 over the luma grid, accumulated in double in raster order
// (row outer, column inner, spec §4.7), which is the reference's summation order.
struct CiedeBlock {
    double delta_e_sum;
};

struct CiedeOptions {
    // 4:2:2 only: reproduce the reference's swapped chroma axes (spec §3.3) instead of true
    // CIEDE2000 on 4:2:2.
    bool reference_422 = false;

    static CiedeOptions from(const OptionValues& values);
};

}  // namespace vq
