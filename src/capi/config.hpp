// The C interface's plain structs (vq.h) as the library's types.
#pragma once

#include <cstring>
#include <type_traits>

#include "guard.hpp"
#include "vq/picture.hpp"
#include "vq/session.hpp"
#include "vq/vq.h"

namespace vq::capi {

// An enum's value as the caller stored it. A C caller may store any int in a C enum; in C++ a
// value outside the enumerators' range is undefined behaviour once read as the enum, so it is
// read as its bytes.
template <typename Enum>
std::underlying_type_t<Enum> raw_value(const Enum& field) {
    std::underlying_type_t<Enum> value;
    std::memcpy(&value, &field, sizeof value);
    return value;
}

// `config` may be NULL: the defaults.
SessionConfig session_config(const vq_config* config, const Call& call);

VideoFormat video_format(const vq_format& format, const Call& call);

}  // namespace vq::capi
