// What the library's own run drivers ask of a Session beyond its public API (vq/session.hpp).
#pragma once

#include <memory>

#include "core/planes.hpp"
#include "engine/shared_reference.hpp"
#include "io/device_surface.hpp"
#include "vq/session.hpp"

namespace vq {

struct SessionInternals {
    // Before start(): the session's CPU twins that read the reference alone get their per-frame
    // blocks through `shared.blocks`, and its CUDA executor the reference frames through
    // `shared.device`, with every session given the same `shared`. Those sessions must have the
    // same requests in the same order, and be pushed the same reference pictures frame by frame:
    // frame i to every one of them before frame i + 1 to any (vq::run_many's sessions).
    static void share_reference(Session& session, SharedReference shared);

    // After start(): where inputs decoded on the GPU put their pictures, when the session's
    // features all run on one executor that takes device pictures (CUDA); null otherwise.
    static std::shared_ptr<DeviceSurfaceSink> surface_sink(const Session& session);

    // After start(): the planes of each picture that the session's features read; the others'
    // bytes may be left unread (FrameSource::read_planes).
    static Planes planes_read(const Session& session);
};

}  // namespace vq
