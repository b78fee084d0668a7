// What the C interface's opaque handles (vq.h) hold.
#pragma once

#include <optional>
#include <string>

#include "guard.hpp"
#include "vq/picture.hpp"
#include "vq/scores.hpp"
#include "vq/session.hpp"
#include "vq/vq.h"

struct vq_session {
    explicit vq_session(const vq::SessionConfig& config) : session(config) {}

    vq::Session session;
    std::optional<vq::VideoFormat> format;  // set once start() succeeds
    bool needs_reference = true;            // known at start()
    bool finished = false;                  // finish() was called: nothing but destroy is left
    std::string last_error;
};

struct vq_result {
    vq::ScoreTable table;
    mutable std::string last_error;  // the accessors are const to the caller, not to the message
};

namespace vq::capi {

// A call on a handle, whose failures the handle keeps (unless it is NULL).
inline Call call_on(const char* function, const vq_session* session) {
    return {function, session ? &const_cast<vq_session*>(session)->last_error : nullptr};
}
inline Call call_on(const char* function, const vq_result* result) {
    return {function, result ? &result->last_error : nullptr};
}

}  // namespace vq::capi
