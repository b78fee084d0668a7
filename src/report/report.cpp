// write_report: picks the writer for the format.
#include "vq/report.hpp"

#include "report/writers.hpp"

namespace vq {

void write_report(std::ostream& out, const ScoreTable& table, OutputFormat format,
                  const NumberStyle& style, const ReportInfo& info) {
    switch (format) {
    case OutputFormat::json: report::write_json(out, table, style, info); return;
    case OutputFormat::xml: report::write_xml(out, table, style, info); return;
    case OutputFormat::csv: report::write_csv(out, table, style, info); return;
    case OutputFormat::sub: report::write_sub(out, table, style, info); return;
    }
}

namespace report {

bool frame_printed(const ScoreTable& table, std::size_t frame) {
    if (!table.frame_selected(frame)) return false;
    for (std::size_t column = 0; column < table.column_count(); ++column)
        if (table.value(column, frame)) return true;
    return false;
}

}  // namespace report

}  // namespace vq
