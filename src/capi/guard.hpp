// How every C entry point runs its body: no exception crosses into C. A failure becomes a
// vq_status, and its one-line message is kept by the handle (if there is one) and by the calling
// thread (vq_last_error).
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

#include "vq/vq.h"

namespace vq::capi {

// One call of an entry point: its name, for the messages of the failures it finds itself, and where
// the handle keeps its last error (nullptr when there is no handle, or it is NULL).
struct Call {
    const char* function;
    std::string* error_slot = nullptr;

    // VQ_ERROR_INVALID_ARGUMENT "FUNCTION: WHAT" unless `ok`.
    void require(bool ok, std::string_view what) const;
    // VQ_ERROR_USAGE "FUNCTION: WHAT": a call the handle's state does not allow now.
    [[noreturn]] void out_of_order(std::string_view what) const;
};

// Classifies the exception being handled: vq::Error by its kind, the C interface's own argument
// checks, out of memory, anything else. Stores the message; call only from a catch block.
vq_status fail(const Call& call) noexcept;

template <typename Body>
vq_status guarded(const Call& call, Body&& body) noexcept {
    try {
        body();
        return VQ_OK;
    } catch (...) {
        return fail(call);
    }
}

}  // namespace vq::capi
