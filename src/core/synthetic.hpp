// Synthetic reference/distorted clips, generated in memory: the demo clip's pictures (vq/demo.hpp),
// vq-synth's files and the benchmarks' content, so anyone can rerun them without test data.
// Internal: the public API offers only the demo clip.
#pragma once

#include "vq/picture.hpp"

namespace vq {

enum class SyntheticScene {
    banded_gradient,  // slowly moving smooth ramps; the distorted copy quantises them into bands
    textured,         // moving sinusoid texture with grain; the distorted copy is blurred
    mixed,            // gradient on the top half, texture on the bottom half
};

// Frame `index` of the scene's reference (distorted = false) or distorted clip. Deterministic.
Picture make_synthetic_frame(const VideoFormat& format, SyntheticScene scene, int index,
                             bool distorted);

}  // namespace vq
