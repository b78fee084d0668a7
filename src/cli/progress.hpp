// The terminal's live progress line: frames done, frames per second and, when the length of the
// input is known, the time left. Written to stderr only when it is a terminal.
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <ostream>

namespace vq::cli {

class ProgressLine {
public:
    ProgressLine(std::ostream& out, bool enabled, std::optional<std::size_t> total_frames);
    void update(std::size_t frames);
    void finish();

private:
    std::ostream& out_;
    bool enabled_;
    std::optional<std::size_t> total_;
    std::chrono::steady_clock::time_point start_;
    std::chrono::steady_clock::time_point last_draw_;
    bool drawn_ = false;
};

}  // namespace vq::cli
