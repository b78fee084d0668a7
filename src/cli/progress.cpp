#include "progress.hpp"

#include <fmt/format.h>

namespace vq::cli {

ProgressLine::ProgressLine(std::ostream& out, bool enabled, std::optional<std::size_t> total_frames)
    : out_(out),
      enabled_(enabled),
      total_(total_frames),
      start_(std::chrono::steady_clock::now()) {}

void ProgressLine::update(std::size_t frames) {
    if (!enabled_) return;
    const auto now = std::chrono::steady_clock::now();
    // Redrawing more than ten times a second only costs time.
    if (drawn_ && now - last_draw_ < std::chrono::milliseconds(100)) return;
    last_draw_ = now;
    drawn_ = true;
    const double seconds = std::chrono::duration<double>(now - start_).count();
    const double fps = seconds > 0 ? double(frames) / seconds : 0.0;
    std::string line = fmt::format("\r{} frame{}  {:.1f} fps", frames, frames == 1 ? "" : "s", fps);
    if (total_ && *total_ >= frames && fps > 0) {
        const auto left = std::size_t(double(*total_ - frames) / fps + 0.5);
        line += fmt::format("  {}/{}  ETA {}:{:02}", frames, *total_, left / 60, left % 60);
    }
    out_ << line << "\x1b[K" << std::flush;
}

void ProgressLine::finish() {
    if (enabled_ && drawn_) out_ << "\n" << std::flush;
}

}  // namespace vq::cli
