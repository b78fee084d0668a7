// Ctrl-C, kill and every other signal that ends a process (SIGHUP, SIGQUIT, SIGUSR1/2, SIGALRM,
// SIGPIPE, the limits' SIGXCPU/SIGXFSZ ...): vq ends at once with a one-line message and the status
// a shell reports for the signal (130 for SIGINT, 143 for SIGTERM), after removing the partial
// output file, if there is one. A crash (SIGSEGV, SIGABRT ...) removes it too, then ends as the
// signal would have. The handlers do only what is safe in a signal handler: unlink, write, _exit,
// raise.
#pragma once

#include <string>

namespace vq::cli {

// Installs the handlers.
void exit_cleanly_on_interrupt();

// The file a signal removes before vq exits (one at a time); an empty path forgets it. Register
// a file before creating it, and forget it only once it is gone or complete.
void remove_on_interrupt(const std::string& path);

}  // namespace vq::cli
