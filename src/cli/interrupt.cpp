#include "cli/interrupt.hpp"

#include <climits>
#include <csignal>
#include <cstring>
#include <unistd.h>

#include <atomic>

#include <fmt/format.h>

#include "vq/error.hpp"

namespace vq::cli {
namespace {

// A signal may land on any thread, so the handler reads the path through an atomic flag (lock-free,
// hence safe in a handler) rather than through anything that could be half-written.
char partial_path[PATH_MAX];
std::atomic<bool> partial_registered{false};
static_assert(std::atomic<bool>::is_always_lock_free);

// The progress line ends in a carriage return, not a newline: start the message on a line of its
// own.
bool newline_first = false;

extern "C" void on_signal(int signal) {
    if (partial_registered.load()) ::unlink(partial_path);
    const std::string_view message = signal == SIGINT
                                         ? "vq: interrupted (SIGINT); no scores written\n"
                                         : "vq: terminated (SIGTERM); no scores written\n";
    if (newline_first) (void)!::write(STDERR_FILENO, "\n", 1);
    (void)!::write(STDERR_FILENO, message.data(), message.size());
    ::_exit(128 + signal);
}

}  // namespace

void exit_cleanly_on_interrupt() {
    newline_first = ::isatty(STDERR_FILENO);
    struct sigaction action {};
    action.sa_handler = on_signal;
    sigemptyset(&action.sa_mask);
    for (const int signal : {SIGINT, SIGTERM}) ::sigaction(signal, &action, nullptr);
}

void remove_on_interrupt(const std::string& path) {
    partial_registered.store(false);
    if (path.empty()) return;
    if (path.size() >= sizeof partial_path)
        throw runtime_error(
            fmt::format("'{}': path is longer than {} bytes", path, sizeof partial_path - 1));
    std::memcpy(partial_path, path.c_str(), path.size() + 1);
    partial_registered.store(true);
}

}  // namespace vq::cli
