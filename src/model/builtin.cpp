// Lookup of the model files compiled into vq (builtin_data.hpp).
#include <algorithm>

#include <fmt/format.h>

#include "model/builtin_data.hpp"
#include "model/diagnostics.hpp"
#include "model/model.hpp"
#include "vq/error.hpp"

namespace vq::model {

std::vector<std::string_view> builtin_names() {
    std::vector<std::string_view> names;
    for (const detail::BuiltinFile& file : detail::builtin_files()) names.push_back(file.name);
    std::sort(names.begin(), names.end());
    return names;
}

std::string_view builtin(std::string_view version) {
    for (const detail::BuiltinFile& file : detail::builtin_files())
        if (file.name == version) return file.text;
    throw usage_error(fmt::format("unknown model version '{}' (built in: {})",
                                  detail::printable(version), fmt::join(builtin_names(), ", ")));
}

}  // namespace vq::model
