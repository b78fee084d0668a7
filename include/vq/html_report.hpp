// `vq --report`: one self-contained HTML page (no network when viewed) for one reference and any
// number of distorted inputs: per-frame curves of every score of every input on one zoomable
// chart, the pooled table, the worst frames as reference/distorted thumbnails (with CAMBI's
// banding map of the distorted frame where the job ran CAMBI) and, for several inputs, a
// rate-quality chart with its upper convex hull and a table saying where each bitrate came from.
//
//   vq::ScoreTable scores = vq::run(job, observer);
//   const vq::HtmlReportInput input{"dist.mp4", &scores, {}, &job, {}};
//   vq::write_html_report(page, job.reference.path, std::span(&input, 1));
#pragma once

#include <ostream>
#include <span>
#include <string>

#include "vq/pooling.hpp"
#include "vq/run.hpp"
#include "vq/scores.hpp"

namespace vq {

// One distorted input's part of the report.
struct HtmlReportInput {
    std::string name;                   // how the page names the input
    const ScoreTable* table = nullptr;  // its scores
    ExtraPooling pooling;               // --pool / --shots, shown in the pooled table
    // The job that made `table`. After the run its inputs are opened again, read up to the worst
    // frames only, for those frames' thumbnails (and banding maps: CAMBI run again on them with
    // the job's first CAMBI request) and for the input's bitrate (the rate-quality chart: the
    // container's, else file size over duration): a run keeps no pictures, since a frame's rank
    // is known only at its end. Null (the frames were pushed to a Session), or an input that
    // cannot be read twice (standard input, a pipe): no thumbnails, and the page says why.
    const Job* job = nullptr;
    std::string no_thumbnails_reason;  // shown when `job` is null
};

// Writes the page; `reference` names the reference input. Throws vq::Error (runtime) when an
// input cannot be read again.
void write_html_report(std::ostream& out, const std::string& reference,
                       std::span<const HtmlReportInput> inputs);

}  // namespace vq
