// What the library's own run drivers ask of a Session beyond its public API (vq/session.hpp).
#pragma once

#include <memory>

#include "engine/shared_reference_blocks.hpp"
#include "vq/session.hpp"

namespace vq {

struct SessionInternals {
    // Before start(): the session's CPU twins that read the reference alone get their per-frame
    // blocks through `blocks`, shared with every session given the same `blocks`. Those sessions
    // must have the same requests in the same order and be pushed the same reference pictures
    // (vq::run_many's sessions).
    static void share_reference_blocks(Session& session,
                                       std::shared_ptr<SharedReferenceBlocks> blocks);
};

}  // namespace vq
