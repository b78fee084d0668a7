// The model files built into vq: generated at build time from models/*.json by embed_models.cmake.
#pragma once

#include <span>
#include <string_view>

namespace vq::model::detail {

struct BuiltinFile {
    std::string_view name;  // the file name without .json
    std::string_view text;  // the file's bytes
};

std::span<const BuiltinFile> builtin_files();

}  // namespace vq::model::detail
