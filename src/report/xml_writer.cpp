// XML output as libvmaf writes it (spec/cli-and-output.md §11.4): every attribute is followed by
// one space, so elements end in `" />`; non-finite numbers print as printf does (inf, nan);
// names are written as attribute names, unescaped: a ScoreTable takes only names that are valid
// there (is_report_name).
#include "report/writers.hpp"

namespace vq::report {

namespace {

void write_frames(std::ostream& out, const ScoreTable& table, const NumberStyle& style) {
    out << "  <frames>\n";
    for (std::size_t frame = 0; frame < table.frame_count(); ++frame) {
        if (!frame_printed(table, frame)) continue;
        out << "    <frame frameNum=\"" << std::to_string(frame) << "\" ";
        for (std::size_t column = 0; column < table.column_count(); ++column) {
            if (const auto value = table.value(column, frame))
                out << table.name(column) << "=\"" << format_number(*value, style) << "\" ";
        }
        out << "/>\n";
    }
    out << "  </frames>\n";
}

void write_metric(std::ostream& out, const std::string& indent, const std::string& name,
                  const PoolSet& set, const NumberStyle& style) {
    out << indent << "<metric name=\"" << name << "\" ";
    for (const auto& [method, value] : set)
        out << method << "=\"" << format_number(value, style) << "\" ";
    out << "/>\n";
}

void write_pooled(std::ostream& out, const ScoreTable& table, const NumberStyle& style,
                  const ExtraPooling& extra) {
    out << "  <pooled_metrics>\n";
    for (std::size_t column = 0; column < table.column_count(); ++column)
        write_metric(out, "    ", table.name(column), full_pool_set(table, column, extra), style);
    out << "  </pooled_metrics>\n";
}

// vq's extension (--shots), after everything libvmaf writes: each shot's pooled values.
void write_shots(std::ostream& out, const ScoreTable& table, const NumberStyle& style,
                 const ExtraPooling& extra) {
    if (extra.shots.empty()) return;
    out << "  <shots>\n";
    for (const ShotPooling& shot : extra.shots) {
        out << "    <shot first=\"" << shot.first << "\" last=\"" << shot.last << "\">\n";
        for (std::size_t column = 0; column < table.column_count(); ++column)
            write_metric(out, "      ", table.name(column), shot.columns[column], style);
        out << "    </shot>\n";
    }
    out << "  </shots>\n";
}

void write_aggregates(std::ostream& out, const ScoreTable& table, const NumberStyle& style) {
    out << "  <aggregate_metrics ";
    for (const auto& [name, value] : table.aggregates())
        out << name << "=\"" << format_number(value, style) << "\" ";
    out << "/>\n";
}

}  // namespace

void write_xml(std::ostream& out, const ScoreTable& table, const NumberStyle& style,
               const ReportInfo& info) {
    out << "<VMAF version=\"" << info.version << "\">\n";
    out << "  <params qualityWidth=\"" << std::to_string(table.width()) << "\" qualityHeight=\""
        << std::to_string(table.height()) << "\" />\n";
    out << "  <fyi fps=\"" << format_fps(table.fps()) << "\" />\n";
    write_frames(out, table, style);
    write_pooled(out, table, style, info.pooling);
    write_aggregates(out, table, style);
    write_shots(out, table, style, info.pooling);
    out << "</VMAF>\n";
}

}  // namespace vq::report
