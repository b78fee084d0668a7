// CSV and SUB output as libvmaf writes them (spec/cli-and-output.md §11.5, §11.6): per-frame
// values only, each followed by its separator. A missing value is skipped rather than left
// empty, so such a CSV row shifts left against the header (a reference quirk kept on purpose).
#include "report/writers.hpp"

namespace vq::report {

void write_csv(std::ostream& out, const ScoreTable& table, const NumberStyle& style) {
    out << "Frame,";
    for (std::size_t column = 0; column < table.column_count(); ++column)
        out << table.name(column) << ',';
    out << '\n';
    for (std::size_t frame = 0; frame < table.frame_count(); ++frame) {
        if (!frame_printed(table, frame)) continue;
        out << std::to_string(frame) << ',';
        for (std::size_t column = 0; column < table.column_count(); ++column) {
            if (const auto value = table.value(column, frame))
                out << format_number(*value, style) << ',';
        }
        out << '\n';
    }
}

// MicroDVD subtitles: frame i is shown from frame i to frame i + 1.
void write_sub(std::ostream& out, const ScoreTable& table, const NumberStyle& style) {
    for (std::size_t frame = 0; frame < table.frame_count(); ++frame) {
        if (!frame_printed(table, frame)) continue;
        const std::string index = std::to_string(frame);
        out << '{' << index << "}{" << std::to_string(frame + 1) << "}frame: " << index << '|';
        for (std::size_t column = 0; column < table.column_count(); ++column) {
            if (const auto value = table.value(column, frame))
                out << table.name(column) << ": " << format_number(*value, style) << '|';
        }
        out << '\n';
    }
}

}  // namespace vq::report
