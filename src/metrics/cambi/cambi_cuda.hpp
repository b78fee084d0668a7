// CAMBI, CUDA twin: the factory the feature registry calls (cambi_definition().make_cuda) in
// builds with CUDA. Plain C++, so that the registry can include it.
#pragma once

#include <memory>

#include "engine/feature.hpp"
#include "vq/options.hpp"

namespace vq {

std::unique_ptr<Feature> make_cambi_cuda(const OptionValues& values);

}  // namespace vq
