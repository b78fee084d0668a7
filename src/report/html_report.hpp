// The HTML report's page (vq/html_report.hpp) from inputs whose thumbnails and bitrate are already
// gathered (html_report_inputs.cpp gathers them). The charts are drawn by the vendored uPlot
// (third_party/uplot), inlined into the page.
#pragma once

#include <cstddef>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "report/thumbnails.hpp"
#include "vq/pooling.hpp"
#include "vq/scores.hpp"

namespace vq::report {

// An input's bitrate for the rate-quality chart, and where it came from (shown beside it).
struct Bitrate {
    double bits_per_second = 0;
    std::string source;  // "container: video stream", "container: whole file", ...
};

// One distorted input's part of the report.
struct ReportInput {
    std::string name;  // as the user named the input
    const ScoreTable* table = nullptr;
    ExtraPooling pooling;                // --pool / --shots, shown in the pooled table
    std::optional<Bitrate> bitrate;      // for the rate-quality chart
    std::vector<FrameThumbnails> worst;  // worst first
    std::string thumbnail_note;          // why there are none, when there are none
};

// The indices of `points` (x, y) on their upper convex hull, by increasing x: the encodes no mix
// of two others beats at any rate. Of points with the same x only the highest can be on it.
std::vector<std::size_t> upper_convex_hull(std::span<const std::pair<double, double>> points);

// Writes the page. `reference` names the reference input.
void write_html_page(std::ostream& out, const std::string& reference,
                     std::span<const ReportInput> inputs);

}  // namespace vq::report
