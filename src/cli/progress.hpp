// The terminal's live progress line: frames done, frames per second and, when the length of the
// input is known, the time left; in a many-input run, each input's frames scored, its end or its
// failure, or a summary of them (the fewest and most frames scored, how many ended and failed)
// when they do not fit. Written to stderr only when it is a terminal (and -q was not given), and
// never wider than the terminal: a line that wraps cannot be rewritten in place.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <vector>

#include "vq/run.hpp"

namespace vq::cli {

// The width of the terminal on stderr, asked afresh at each call (a window may be resized
// mid-run); 80 when it cannot be known.
std::size_t stderr_columns();

// How the progress line names each input: its file name, or the path as given where two inputs
// share a file name; control characters become '?', so that a name cannot move the cursor.
std::vector<std::string> progress_names(const std::vector<std::string>& paths);

class ProgressLine {
public:
    // `columns` gives the terminal's width each time the line is drawn.
    ProgressLine(
        std::ostream& out, bool enabled, std::optional<std::size_t> total_frames,
        std::function<std::size_t()> columns = [] { return std::size_t(80); });
    void update(std::size_t frames);
    // A many-input run's: `names` and `inputs` in the inputs' order.
    void update(std::size_t frames, std::span<const std::string> names,
                std::span<const InputProgress> inputs);
    void finish();

private:
    // Whether to draw now: not when disabled, nor within a tenth of a second of the last line.
    bool due();
    std::string frames_part(std::size_t frames) const;
    void draw(std::string line);

    std::ostream& out_;
    bool enabled_;
    std::optional<std::size_t> total_;
    std::function<std::size_t()> columns_;
    std::chrono::steady_clock::time_point start_;
    std::chrono::steady_clock::time_point last_draw_;
    bool drawn_ = false;
};

}  // namespace vq::cli
