// `vq --report`: one self-contained HTML page (no network when viewed) for one reference and any
// number of distorted inputs: per-frame curves of every score of every input on one zoomable
// chart, the pooled table, the worst frames as reference/distorted thumbnails and, for several
// inputs, a rate-quality chart with its upper convex hull. The charts are drawn by the vendored
// uPlot (third_party/uplot), inlined into the page.
#pragma once

#include <cstddef>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "report/pooling.hpp"
#include "report/thumbnails.hpp"
#include "vq/scores.hpp"

namespace vq::report {

// One distorted input's part of the report.
struct ReportInput {
    std::string name;  // as the user named the input
    const ScoreTable* table = nullptr;
    ExtraPooling pooling;                   // --pool / --shots, shown in the pooled table
    std::optional<double> bits_per_second;  // for the rate-quality chart
    std::vector<FrameThumbnails> worst;     // worst first
    std::string thumbnail_note;             // why there are none, when there are none
};

// The indices of `points` (x, y) on their upper convex hull, by increasing x: the encodes no mix
// of two others beats at any rate. Of points with the same x only the highest can be on it.
std::vector<std::size_t> upper_convex_hull(std::span<const std::pair<double, double>> points);

// Writes the page. `reference` names the reference input.
void write_html_report(std::ostream& out, const std::string& reference,
                       std::span<const ReportInput> inputs);

}  // namespace vq::report
