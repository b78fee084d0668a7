// The per-format writers behind write_report, and what they share. Internal to report/.
#pragma once

#include <cstddef>
#include <ostream>
#include <string>

#include "vq/report.hpp"
#include "vq/scores.hpp"

namespace vq::report {

void write_json(std::ostream& out, const ScoreTable& table, const NumberStyle& style,
                const ReportInfo& info);
void write_xml(std::ostream& out, const ScoreTable& table, const NumberStyle& style,
               const ReportInfo& info);
void write_csv(std::ostream& out, const ScoreTable& table, const NumberStyle& style,
               const ReportInfo& info);
void write_sub(std::ostream& out, const ScoreTable& table, const NumberStyle& style,
               const ReportInfo& info);

// A frame is written iff it is selected by the subsample rule and holds at least one value.
bool frame_printed(const ScoreTable& table, std::size_t frame);

// fps is always printed %.2f, whatever the number style.
std::string format_fps(double fps);

}  // namespace vq::report
