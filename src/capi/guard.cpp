#include "guard.hpp"

#include <new>

#include "vq/error.hpp"

namespace vq::capi {
namespace {

// A null pointer, an index out of range, a stride too small for a row.
class InvalidArgument : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

thread_local std::string thread_last_error;

// Copying a message may itself run out of memory: then that slot is left empty.
void keep(const Call& call, std::string_view message) noexcept {
    try {
        thread_last_error = message;
    } catch (...) {
        thread_last_error.clear();
    }
    if (!call.error_slot) return;
    try {
        *call.error_slot = message;
    } catch (...) {
        call.error_slot->clear();
    }
}

vq_status classify(const Call& call) {
    try {
        throw;
    } catch (const Error& e) {
        keep(call, e.what());
        return e.kind() == ErrorKind::usage ? VQ_ERROR_USAGE : VQ_ERROR_RUNTIME;
    } catch (const InvalidArgument& e) {
        keep(call, one_line(e.what()));
        return VQ_ERROR_INVALID_ARGUMENT;
    } catch (const std::bad_alloc&) {
        keep(call, std::string(call.function) + ": out of memory");
        return VQ_ERROR_RUNTIME;
    } catch (const std::exception& e) {
        keep(call, one_line(std::string(call.function) + ": " + e.what()));
        return VQ_ERROR_RUNTIME;
    } catch (...) {
        keep(call, std::string(call.function) + ": unknown failure");
        return VQ_ERROR_RUNTIME;
    }
}

}  // namespace

void Call::require(bool ok, std::string_view what) const {
    if (!ok) throw InvalidArgument(std::string(function) + ": " + std::string(what));
}

void Call::out_of_order(std::string_view what) const {
    throw usage_error(std::string(function) + ": " + std::string(what));
}

vq_status fail(const Call& call) noexcept {
    try {
        return classify(call);
    } catch (...) {  // building the message ran out of memory
        keep(call, "out of memory");
        return VQ_ERROR_RUNTIME;
    }
}

}  // namespace vq::capi

const char* vq_last_error(void) { return vq::capi::thread_last_error.c_str(); }
