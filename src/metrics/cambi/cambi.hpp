// CAMBI (banding) — spec/cambi.md. Shared by the CPU and CUDA twins.
#pragma once

#include "engine/registry.hpp"

namespace vq {

FeatureDefinition cambi_definition();

}  // namespace vq
