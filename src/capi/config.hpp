// The C interface's plain structs (vq.h) as the library's types.
#pragma once

#include "guard.hpp"
#include "vq/picture.hpp"
#include "vq/session.hpp"
#include "vq/vq.h"

namespace vq::capi {

// `config` may be NULL: the defaults.
SessionConfig session_config(const vq_config* config, const Call& call);

VideoFormat video_format(const vq_format& format, const Call& call);

}  // namespace vq::capi
