// What a metric's definition() is made of: one line per option (the option's type is the
// builder's name, and only the fields that type uses are asked for) and the twins. `alias` is
// libvmaf's feature-parameter alias: the short name a non-default value adds to the feature's
// output names ("" when it adds none).
//
//   FeatureDefinition definition() {
//       return {.name = "vif",
//               .description = "integer VIF of VMAF: ...",
//               .options = {real_option("vif_enhn_gain_limit", 100.0, 1.0, 100.0, "egl", "..."),
//                           boolean_option("debug", false, "", "...")},
//               .make_cpu = make_cpu,
//               .make_cuda = VQ_CUDA_TWIN(make_cuda)};
//   }
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "feature/registry.hpp"
#include "feature/options.hpp"

// The CUDA twin's factory in CUDA builds, none otherwise (where the twin is not compiled).
#if VQ_WITH_CUDA
#define VQ_CUDA_TWIN(make_cuda) (make_cuda)
#else
#define VQ_CUDA_TWIN(make_cuda) nullptr
#endif

namespace vq {

inline OptionSpec boolean_option(std::string key, bool default_value, std::string alias,
                                 std::string description) {
    return {std::move(key),   OptionType::boolean,   default_value, 0, 0, {},
            std::move(alias), std::move(description)};
}

// [min, max] is inclusive.
inline OptionSpec integer_option(std::string key, std::int64_t default_value, std::int64_t min,
                                 std::int64_t max, std::string alias, std::string description) {
    return {std::move(key),   OptionType::integer,   default_value, double(min), double(max), {},
            std::move(alias), std::move(description)};
}

// [min, max] is inclusive.
inline OptionSpec real_option(std::string key, double default_value, double min, double max,
                              std::string alias, std::string description) {
    return {std::move(key),   OptionType::real,      default_value, min, max, {},
            std::move(alias), std::move(description)};
}

// `choices` lists the accepted values; empty accepts any text.
inline OptionSpec text_option(std::string key, std::string default_value,
                              std::vector<std::string> choices, std::string alias,
                              std::string description) {
    return {std::move(key),     OptionType::text, std::move(default_value), 0, 0,
            std::move(choices), std::move(alias), std::move(description)};
}

}  // namespace vq
