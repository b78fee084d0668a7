// A caller's picture (vq_picture: a pointer and a byte stride per plane) copied into the packed
// layout of vq::Picture, in memory from the session's allocator (pinned on the CUDA backend).
#pragma once

#include "guard.hpp"
#include "vq/picture.hpp"
#include "vq/vq.h"

namespace vq::capi {

// `name` is the argument's name for the messages ("distorted"). Checks every plane's pointer and
// stride first (VQ_ERROR_INVALID_ARGUMENT).
Picture copy_picture(const vq_picture& picture, const char* name, const VideoFormat& format,
                     const BufferAllocator& allocate, const Call& call);

}  // namespace vq::capi
