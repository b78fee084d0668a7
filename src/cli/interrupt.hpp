// Ctrl-C and kill during a run: vq ends at once with a one-line message and the status a shell
// reports for the signal (130 for SIGINT, 143 for SIGTERM), after removing the partial output
// file, if there is one. The handler does only what is safe in a signal handler: unlink, write,
// _exit.
#pragma once

#include <string>

namespace vq::cli {

// Installs the SIGINT and SIGTERM handlers.
void exit_cleanly_on_interrupt();

// The file a signal removes before vq exits (one at a time); an empty path forgets it. Register
// a file before creating it, and forget it only once it is gone or complete.
void remove_on_interrupt(const std::string& path);

}  // namespace vq::cli
