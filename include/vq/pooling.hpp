// Pooling beyond libvmaf's four methods: percentiles (--pool p1,p5,p50) and per-shot pooling
// (--shots FILE), over the frames a ScoreTable selects (the subsample rule). A caller parses the
// request, pools a finished run's table with pool_extra() and hands the result to the writers
// (vq/report.hpp's ReportInfo, vq/html_report.hpp). Percentiles are numpy's default ('linear')
// method, equal to numpy.percentile's to the last bit.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "vq/scores.hpp"

namespace vq {

struct Percentile {
    double rank = 0;   // 0..100
    std::string name;  // as the user wrote it, e.g. "p5", "p99.9": the output key
};

// Frame numbers where shots start, as read from a --shots file, with the line each came from
// (so that a range error found after the run can still name the line).
struct ShotList {
    std::string path;
    std::vector<std::size_t> starts;  // strictly increasing
    std::vector<std::size_t> lines;   // [i]: the 1-based line of starts[i]
};

struct PoolingRequest {
    std::vector<Percentile> percentiles;
    std::optional<ShotList> shots;
    bool empty() const { return percentiles.empty() && !shots; }
};

// Parses --pool's value: a comma-separated list of pN, N a decimal number in [0, 100]. Throws
// vq::Error (usage), one line, for anything else or an empty or repeated entry.
std::vector<Percentile> parse_pool_list(std::string_view text);

// Parses a --shots file's text: one frame number per line (blank lines and lines starting with
// '#' are skipped), strictly increasing. Throws vq::Error (usage) "--shots PATH line N: ..." for
// a bad line, and for a file with no frame number at all.
ShotList parse_shot_list(std::string_view text, const std::string& path);
ShotList read_shot_file(const std::string& path);  // and "cannot read" for an unreadable file

// One pooled number of one score, keyed as the outputs print it ("mean", "p5").
struct PooledValue {
    std::string method;
    double value = 0;
};
using PoolSet = std::vector<PooledValue>;

// Frames [first, last] of one shot and each column's pooled values over its selected frames:
// libvmaf's four methods, then the percentiles (none when a selected frame lacks the value or no
// frame of the shot is selected).
struct ShotPooling {
    std::size_t first = 0;
    std::size_t last = 0;
    std::vector<PoolSet> columns;  // [column]
};

// What --pool and --shots add to a run's outputs. Empty (nothing written, outputs exactly as
// without the flags) when neither flag is given.
struct ExtraPooling {
    std::vector<std::string> percentile_names;  // in --pool order
    std::vector<PoolSet> percentiles;           // [column]: the whole run's percentiles
    std::vector<ShotPooling> shots;             // empty without --shots
    bool requested = false;
    bool empty() const { return !requested; }
};

// Pools `table` as requested. Throws vq::Error (usage) "--shots PATH line N: frame F is past the
// last frame scored (L)" when a shot starts beyond the run. A shot list not starting at 0 gets a
// first shot from frame 0.
ExtraPooling pool_extra(const ScoreTable& table, const PoolingRequest& request);

// The whole run's pooled values of one column, libvmaf's four then the percentiles.
PoolSet full_pool_set(const ScoreTable& table, std::size_t column, const ExtraPooling& extra);

}  // namespace vq
