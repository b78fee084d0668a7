// Helpers for the CAMBI twin tests: features bound from option strings as the CLI binds them.
// Their pictures (banded, grainy, patchwork, staircase, extremes) come from support/pictures.hpp,
// their ulp comparisons from support/compare.hpp.
#pragma once

#include <memory>
#include <string>

#include "feature/registry.hpp"
#include "metrics/cambi/cambi_cpu.hpp"
#include "support/compare.hpp"
#include "support/pictures.hpp"

namespace vq::cambi::test {

// "cambi=window_size=33" -> the bound options, as the CLI binds them.
inline OptionValues cambi_options(const std::string& request_text) {
    const FeatureRequest request = parse_feature_request(request_text);
    const FeatureDefinition& definition = *find_feature(request.name).definition;
    return bind_options(request.name, definition.options, request.options);
}

inline std::unique_ptr<CpuFeature> make_cpu_twin(const std::string& request) {
    return find_feature("cambi").definition->make_cpu(cambi_options(request));
}

inline std::unique_ptr<Feature> make_cuda_twin(const std::string& request) {
    return find_feature("cambi").definition->make_cuda(cambi_options(request));
}

}  // namespace vq::cambi::test
