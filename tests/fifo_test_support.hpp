// Reading a FIFO a test made, without ever blocking: a writer that never comes (the FIFO replaced
// by a file, say) fails the test instead of hanging it.
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <filesystem>
#include <string>

namespace vq::test {

// The FIFO's read end, opened at once (no writer needed), or -1.
inline int open_fifo_reader(const std::filesystem::path& fifo) {
    return ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
}

// Whatever the FIFO holds now (its writers done), without waiting for more.
inline std::string read_available(int reader) {
    std::string bytes;
    char buffer[4096];
    ssize_t got;
    while ((got = ::read(reader, buffer, sizeof buffer)) > 0)
        bytes.append(buffer, std::size_t(got));
    return bytes;
}

}  // namespace vq::test
