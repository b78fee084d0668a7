#include "progress.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <utility>

#include <fmt/format.h>

namespace vq::cli {
namespace {

std::string without_control_characters(std::string text) {
    for (char& c : text)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
    return text;
}

// "a.mp4 120  b.mp4 96 done  c.mkv failed"
std::string each_input(std::span<const std::string> names, std::span<const InputProgress> inputs) {
    std::string text;
    for (std::size_t i = 0; i < inputs.size() && i < names.size(); ++i) {
        text += "  " + names[i];
        switch (inputs[i].state) {
        case InputProgress::State::running: text += fmt::format(" {}", inputs[i].frames); break;
        case InputProgress::State::done: text += fmt::format(" {} done", inputs[i].frames); break;
        case InputProgress::State::failed: text += " failed"; break;
        }
    }
    return text;
}

// "6 inputs: 112-120 scored, 1 done, 1 failed": the fewest and most frames scored of those
// still running.
std::string summary_of_inputs(std::span<const InputProgress> inputs) {
    std::optional<std::size_t> fewest, most;
    std::size_t done = 0, failed = 0;
    for (const InputProgress& input : inputs) {
        if (input.state == InputProgress::State::done) ++done;
        if (input.state == InputProgress::State::failed) ++failed;
        if (input.state != InputProgress::State::running) continue;
        fewest = std::min(fewest.value_or(input.frames), input.frames);
        most = std::max(most.value_or(input.frames), input.frames);
    }
    std::vector<std::string> parts;
    if (fewest)
        parts.push_back(*fewest == *most ? fmt::format("{} scored", *most)
                                         : fmt::format("{}-{} scored", *fewest, *most));
    if (done) parts.push_back(fmt::format("{} done", done));
    if (failed) parts.push_back(fmt::format("{} failed", failed));
    return fmt::format("  {} inputs: {}", inputs.size(), fmt::join(parts, ", "));
}

}  // namespace

std::size_t stderr_columns() {
    winsize size{};
    if (::ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) return size.ws_col;
    return 80;
}

std::vector<std::string> progress_names(const std::vector<std::string>& paths) {
    std::vector<std::string> names;
    for (const std::string& path : paths)
        names.push_back(std::filesystem::path(path).filename().string());
    std::vector<std::string> shown;
    for (std::size_t i = 0; i < paths.size(); ++i) {
        const bool shared = std::count(names.begin(), names.end(), names[i]) > 1;
        shown.push_back(
            without_control_characters(shared || names[i].empty() ? paths[i] : names[i]));
    }
    return shown;
}

ProgressLine::ProgressLine(std::ostream& out, bool enabled, std::optional<std::size_t> total_frames,
                           std::function<std::size_t()> columns)
    : out_(out),
      enabled_(enabled),
      total_(total_frames),
      columns_(std::move(columns)),
      start_(std::chrono::steady_clock::now()) {}

bool ProgressLine::due() {
    if (!enabled_) return false;
    const auto now = std::chrono::steady_clock::now();
    // Redrawing more than ten times a second only costs time.
    if (drawn_ && now - last_draw_ < std::chrono::milliseconds(100)) return false;
    last_draw_ = now;
    drawn_ = true;
    return true;
}

std::string ProgressLine::frames_part(std::size_t frames) const {
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    const double fps = seconds > 0 ? double(frames) / seconds : 0.0;
    std::string line = fmt::format("{} frame{}  {:.1f} fps", frames, frames == 1 ? "" : "s", fps);
    if (total_ && *total_ >= frames && fps > 0) {
        const auto left = std::size_t(double(*total_ - frames) / fps + 0.5);
        line += fmt::format("  {}/{}  ETA {}:{:02}", frames, *total_, left / 60, left % 60);
    }
    return line;
}

// The cursor is left after the line's last character, so the line takes at most columns - 1.
void ProgressLine::draw(std::string line) {
    const std::size_t width = std::max<std::size_t>(columns_(), 2) - 1;
    if (line.size() > width) line.resize(width);
    out_ << '\r' << line << "\x1b[K" << std::flush;
}

void ProgressLine::update(std::size_t frames) {
    if (due()) draw(frames_part(frames));
}

void ProgressLine::update(std::size_t frames, std::span<const std::string> names,
                          std::span<const InputProgress> inputs) {
    if (!due()) return;
    const std::string line = frames_part(frames);
    const std::string each = each_input(names, inputs);
    // Names are counted in bytes: a name in UTF-8 looks shorter on the screen, never longer.
    draw(line.size() + each.size() < std::max<std::size_t>(columns_(), 1)
             ? line + each
             : line + summary_of_inputs(inputs));
}

void ProgressLine::finish() {
    if (enabled_ && drawn_) out_ << "\n" << std::flush;
}

}  // namespace vq::cli
