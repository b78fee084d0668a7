// A running session's settled scores (vq.h: vq_session_frames_ready and the reads beside it).
#include <fmt/format.h>

#include "guard.hpp"
#include "handles.hpp"
#include "table_reads.hpp"

using vq::capi::Call;
using vq::capi::guarded;

namespace {

// The session's table so far: between start and finish only.
const vq::ScoreTable& running_scores(const vq_session* session, const Call& call) {
    call.require(session != nullptr, "session is NULL");
    if (session->finished)
        call.out_of_order("the session has finished (read its vq_result instead)");
    if (!session->format)
        call.out_of_order("the session has not started (call vq_session_start first)");
    return session->session.scores();
}

}  // namespace

vq_status vq_session_frames_ready(const vq_session* session, size_t* frames) {
    const Call call = vq::capi::call_on("vq_session_frames_ready", session);
    return guarded(call, [&] {
        running_scores(session, call);
        call.require(frames != nullptr, "frames is NULL");
        *frames = session->session.frames_ready();
    });
}

vq_status vq_session_score_count(const vq_session* session, size_t* count) {
    const Call call = vq::capi::call_on("vq_session_score_count", session);
    return guarded(call, [&] {
        const vq::ScoreTable& table = running_scores(session, call);
        call.require(count != nullptr, "count is NULL");
        *count = table.column_count();
    });
}

vq_status vq_session_score_name(const vq_session* session, size_t score, const char** name) {
    const Call call = vq::capi::call_on("vq_session_score_name", session);
    return guarded(call, [&] {
        const vq::ScoreTable& table = running_scores(session, call);
        call.require(name != nullptr, "name is NULL");
        *name = vq::capi::score_name(table, score, call);
    });
}

vq_status vq_session_frame_value(const vq_session* session, size_t score, size_t frame,
                                 double* value, int* present) {
    const Call call = vq::capi::call_on("vq_session_frame_value", session);
    return guarded(call, [&] {
        const vq::ScoreTable& table = running_scores(session, call);
        const std::size_t ready = session->session.frames_ready();
        if (frame >= ready)
            call.out_of_order(
                fmt::format("frame {} is not ready yet ({} frames ready)", frame, ready));
        vq::capi::frame_value(table, score, frame, ready, value, present, call);
    });
}
