// A session's life: create, requests, start, push, finish (vq.h "Sessions").
#include <memory>
#include <utility>

#include "config.hpp"
#include "guard.hpp"
#include "handles.hpp"
#include "picture_copy.hpp"

using vq::capi::Call;
using vq::capi::guarded;

namespace {

// The session exists and has not finished; `started`: whether start() must have run or must not.
void require_state(const vq_session* session, bool started, const Call& call) {
    call.require(session != nullptr, "session is NULL");
    if (session->finished) call.out_of_order("the session has finished");
    if (started && !session->format)
        call.out_of_order("the session has not started (call vq_session_start first)");
    if (!started && session->format) call.out_of_order("the session has started already");
}

}  // namespace

vq_status vq_session_create(const vq_config* config, vq_session** session) {
    const Call call{"vq_session_create"};
    return guarded(call, [&] {
        call.require(session != nullptr, "session is NULL");
        *session = new vq_session(vq::capi::session_config(config, call));
    });
}

void vq_session_destroy(vq_session* session) { delete session; }

const char* vq_session_last_error(const vq_session* session) {
    return session ? session->last_error.c_str() : "vq_session_last_error: session is NULL";
}

vq_status vq_session_add_feature(vq_session* session, const char* request) {
    const Call call = vq::capi::call_on("vq_session_add_feature", session);
    return guarded(call, [&] {
        require_state(session, false, call);
        call.require(request != nullptr, "request is NULL");
        session->session.add_feature(request);
    });
}

vq_status vq_session_add_model(vq_session* session, const char* request) {
    const Call call = vq::capi::call_on("vq_session_add_model", session);
    return guarded(call, [&] {
        require_state(session, false, call);
        call.require(request != nullptr, "request is NULL");
        session->session.add_model(request);
    });
}

vq_status vq_session_needs_reference(const vq_session* session, int* needs_reference) {
    const Call call = vq::capi::call_on("vq_session_needs_reference", session);
    return guarded(call, [&] {
        call.require(session != nullptr, "session is NULL");
        call.require(needs_reference != nullptr, "needs_reference is NULL");
        if (session->finished) call.out_of_order("the session has finished");
        *needs_reference = session->session.needs_reference();
    });
}

vq_status vq_session_start(vq_session* session, const vq_format* format) {
    const Call call = vq::capi::call_on("vq_session_start", session);
    return guarded(call, [&] {
        require_state(session, false, call);
        call.require(format != nullptr, "format is NULL");
        const vq::VideoFormat video = vq::capi::video_format(*format, call);
        session->session.start(video);
        session->format = video;
        session->needs_reference = session->session.needs_reference();
    });
}

vq_status vq_session_push(vq_session* session, const vq_picture* reference,
                          const vq_picture* distorted) {
    const Call call = vq::capi::call_on("vq_session_push", session);
    return guarded(call, [&] {
        require_state(session, true, call);
        call.require(distorted != nullptr, "distorted is NULL");
        call.require(reference != nullptr || !session->needs_reference,
                     "reference is NULL, and the session's features need it");
        const auto allocate = session->session.buffer_allocator();
        vq::FramePair pair;
        if (reference)
            pair.reference = vq::capi::copy_picture(*reference, "reference", *session->format,
                                                    allocate, call);
        pair.distorted =
            vq::capi::copy_picture(*distorted, "distorted", *session->format, allocate, call);
        session->session.push(std::move(pair));
    });
}

vq_status vq_session_finish(vq_session* session, vq_result** result) {
    const Call call = vq::capi::call_on("vq_session_finish", session);
    return guarded(call, [&] {
        require_state(session, true, call);
        call.require(result != nullptr, "result is NULL");
        session->finished = true;  // whatever finish() says, the session is spent
        auto finished = std::make_unique<vq_result>(vq_result{session->session.finish(), {}});
        *result = finished.release();
    });
}
