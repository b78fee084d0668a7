#include "interrupt.hpp"

#include <climits>
#include <csignal>
#include <cstring>
#include <unistd.h>

#include <atomic>
#include <span>
#include <string_view>

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

struct Ending {
    int signal;
    std::string_view message;
};

// Signals whose default action ends the process: each ends vq at once, with a line and the
// status a shell reports for the signal.
constexpr Ending endings[] = {
    {SIGINT, "vq: interrupted (SIGINT); no scores written\n"},
    {SIGTERM, "vq: terminated (SIGTERM); no scores written\n"},
    {SIGHUP, "vq: hung up (SIGHUP); no scores written\n"},
    {SIGQUIT, "vq: quit (SIGQUIT); no scores written\n"},
    {SIGUSR1, "vq: terminated (SIGUSR1); no scores written\n"},
    {SIGUSR2, "vq: terminated (SIGUSR2); no scores written\n"},
    {SIGALRM, "vq: terminated (SIGALRM); no scores written\n"},
    {SIGVTALRM, "vq: terminated (SIGVTALRM); no scores written\n"},
    {SIGPROF, "vq: terminated (SIGPROF); no scores written\n"},
    {SIGXCPU, "vq: CPU time limit reached (SIGXCPU); no scores written\n"},
    {SIGXFSZ, "vq: file size limit reached (SIGXFSZ); no scores written\n"},
    {SIGPIPE, "vq: the reader of the output went away (SIGPIPE)\n"},
};

// A crash: the partial file goes, then the signal's own action (a core dump where enabled).
constexpr Ending crashes[] = {
    {SIGSEGV, "vq: crashed (SIGSEGV); no scores written\n"},
    {SIGBUS, "vq: crashed (SIGBUS); no scores written\n"},
    {SIGFPE, "vq: crashed (SIGFPE); no scores written\n"},
    {SIGILL, "vq: crashed (SIGILL); no scores written\n"},
    {SIGABRT, "vq: aborted (SIGABRT); no scores written\n"},
    {SIGSYS, "vq: crashed (SIGSYS); no scores written\n"},
    {SIGTRAP, "vq: crashed (SIGTRAP); no scores written\n"},
};

void say(int signal, std::span<const Ending> table) {
    for (const Ending& ending : table)
        if (ending.signal == signal) {
            if (newline_first) (void)!::write(STDERR_FILENO, "\n", 1);
            (void)!::write(STDERR_FILENO, ending.message.data(), ending.message.size());
        }
}

extern "C" void on_ending(int signal) {
    if (partial_registered.exchange(false)) ::unlink(partial_path);
    say(signal, endings);
    ::_exit(128 + signal);
}

extern "C" void on_crash(int signal) {
    if (partial_registered.exchange(false)) ::unlink(partial_path);
    say(signal, crashes);
    // SA_RESETHAND restored the default action: the signal, raised again, ends the process as
    // it would have without vq's handler.
    ::raise(signal);
}

}  // namespace

void exit_cleanly_on_interrupt() {
    newline_first = ::isatty(STDERR_FILENO);
    struct sigaction action {};
    sigemptyset(&action.sa_mask);
    action.sa_handler = on_ending;
    for (const Ending& ending : endings) ::sigaction(ending.signal, &action, nullptr);
    action.sa_handler = on_crash;
    action.sa_flags = SA_RESETHAND | SA_NODEFER;
    for (const Ending& crash : crashes) ::sigaction(crash.signal, &action, nullptr);
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
