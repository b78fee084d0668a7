// CSV and SUB output as libvmaf writes them (spec/cli-and-output.md §11.5, §11.6): per-frame
// values only, each followed by its separator. A missing value is skipped rather than left
// empty, so such a CSV row shifts left against the header (a reference quirk kept on purpose).
// With --pool or --shots, vq appends the pooled values after the frames (README: --pool).
#include <algorithm>

#include "report/writers.hpp"

namespace vq::report {
namespace {

// One pooled row or subtitle: its label (e.g. "pooled" or "shot 0-47") and the pooled values of
// every column, in column order.
struct PooledLine {
    std::string label;
    std::size_t first = 0, end = 0;  // the frames it pools, [first, end)
    std::vector<PoolSet> columns;
};

std::vector<PooledLine> pooled_lines(const ScoreTable& table, const ExtraPooling& extra) {
    std::vector<PooledLine> lines;
    if (extra.empty()) return lines;
    PooledLine whole{"pooled", 0, table.frame_count(), {}};
    for (std::size_t column = 0; column < table.column_count(); ++column)
        whole.columns.push_back(full_pool_set(table, column, extra));
    lines.push_back(std::move(whole));
    for (const ShotPooling& shot : extra.shots)
        lines.push_back({"shot " + std::to_string(shot.first) + "-" + std::to_string(shot.last),
                         shot.first, shot.last + 1, shot.columns});
    return lines;
}

// Every method any column of the line pooled, in first-seen order (each column pools the same
// methods, or none when a value is missing).
std::vector<std::string> methods_of(const PooledLine& line) {
    std::vector<std::string> methods;
    for (const PoolSet& set : line.columns)
        for (const PooledValue& v : set)
            if (std::find(methods.begin(), methods.end(), v.method) == methods.end())
                methods.push_back(v.method);
    return methods;
}

const PooledValue* find_method(const PoolSet& set, const std::string& method) {
    for (const PooledValue& v : set)
        if (v.method == method) return &v;
    return nullptr;
}

}  // namespace

// Pooled rows: "pooled:mean", "shot 0-47:p5" in the Frame column, a cell per column (empty where
// the column has no such value, so these rows stay aligned with the header).
void write_csv(std::ostream& out, const ScoreTable& table, const NumberStyle& style,
               const ReportInfo& info) {
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
    for (const PooledLine& line : pooled_lines(table, info.pooling))
        for (const std::string& method : methods_of(line)) {
            out << line.label << ':' << method << ',';
            for (const PoolSet& set : line.columns) {
                if (const PooledValue* v = find_method(set, method))
                    out << format_number(v->value, style);
                out << ',';
            }
            out << '\n';
        }
}

// MicroDVD subtitles: frame i is shown from frame i to frame i + 1. Pooled values are subtitles
// shown over the frames they pool: "{0}{300}pooled|vmaf mean: ...|", "{0}{48}shot 0-47|...".
void write_sub(std::ostream& out, const ScoreTable& table, const NumberStyle& style,
               const ReportInfo& info) {
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
    for (const PooledLine& line : pooled_lines(table, info.pooling)) {
        out << '{' << line.first << "}{" << line.end << '}' << line.label << '|';
        for (std::size_t column = 0; column < line.columns.size(); ++column)
            for (const PooledValue& v : line.columns[column])
                out << table.name(column) << ' ' << v.method << ": "
                    << format_number(v.value, style) << '|';
        out << '\n';
    }
}

}  // namespace vq::report
