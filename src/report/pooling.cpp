#include "report/pooling.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "vq/error.hpp"

namespace vq {
namespace {

std::string_view trim(std::string_view text) {
    const auto first = text.find_first_not_of(" \t\r");
    if (first == std::string_view::npos) return {};
    return text.substr(first, text.find_last_not_of(" \t\r") - first + 1);
}

// A whole decimal number written with digits and at most one '.', nothing else (no sign, no
// exponent, no "nan"), so that "p1e2" or "p-0" are refused rather than read.
std::optional<double> plain_decimal(std::string_view text) {
    if (text.empty() || text.find_first_not_of("0123456789.") != std::string_view::npos ||
        std::count(text.begin(), text.end(), '.') > 1 || text.front() == '.' || text.back() == '.')
        return std::nullopt;
    double value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return value;
}

// The percentiles of one column over the selected frames of [first, end); none when a selected
// frame lacks the value or no frame is selected (libvmaf's rule for its own poolings).
PoolSet percentiles_of(const ScoreTable& table, std::size_t column, std::size_t first,
                       std::size_t end, std::span<const Percentile> percentiles) {
    std::vector<double> values;
    for (std::size_t frame = first; frame < end; ++frame) {
        if (!table.frame_selected(frame)) continue;
        const auto value = table.value(column, frame);
        if (!value) return {};
        values.push_back(*value);
    }
    PoolSet set;
    if (values.empty()) return set;
    for (const Percentile& p : percentiles) set.push_back({p.name, percentile(values, p.rank)});
    return set;
}

// libvmaf's four methods, then the percentiles.
PoolSet pool_range(const ScoreTable& table, std::size_t column, std::size_t first, std::size_t end,
                   std::span<const Percentile> percentiles) {
    PoolSet set;
    for (const PoolingMethod method : all_pooling_methods)
        if (const auto value = table.pooled(column, method, first, end))
            set.push_back({to_string(method), *value});
    const PoolSet ranks = percentiles_of(table, column, first, end, percentiles);
    set.insert(set.end(), ranks.begin(), ranks.end());
    return set;
}

}  // namespace

std::vector<Percentile> parse_pool_list(std::string_view text) {
    std::vector<Percentile> list;
    std::size_t start = 0;
    while (true) {
        const std::size_t comma = text.find(',', start);
        const std::string_view item =
            text.substr(start, comma == std::string_view::npos ? text.npos : comma - start);
        const auto rank =
            item.size() > 1 && item[0] == 'p' ? plain_decimal(item.substr(1)) : std::nullopt;
        if (!rank || *rank > 100)
            throw usage_error(fmt::format(
                "--pool: expected percentiles p0..p100 separated by commas (e.g. p1,p5,p50), "
                "got '{}'",
                one_line(std::string(item))));
        const auto same = [&](const Percentile& p) { return p.name == item; };
        if (std::find_if(list.begin(), list.end(), same) != list.end())
            throw usage_error(fmt::format("--pool: '{}' is given twice", item));
        list.push_back({*rank, std::string(item)});
        if (comma == std::string_view::npos) break;
        start = comma + 1;
    }
    return list;
}

ShotList parse_shot_list(std::string_view text, const std::string& path) {
    ShotList list{path, {}, {}};
    std::size_t line_number = 0;
    while (!text.empty()) {
        const std::size_t newline = text.find('\n');
        const std::string_view line = trim(text.substr(0, newline));
        text = newline == std::string_view::npos ? std::string_view() : text.substr(newline + 1);
        ++line_number;
        if (line.empty() || line.front() == '#') continue;
        const auto fail = [&](const std::string& why) {
            throw usage_error(
                fmt::format("--shots {} line {}: {}", one_line(path), line_number, why));
        };
        std::size_t frame = 0;
        const auto [end, error] = std::from_chars(line.data(), line.data() + line.size(), frame);
        if (error != std::errc() || end != line.data() + line.size() ||
            line.find_first_not_of("0123456789") != std::string_view::npos)
            fail(fmt::format("expected a frame number, got '{}'", one_line(std::string(line))));
        if (!list.starts.empty() && frame <= list.starts.back())
            fail(
                fmt::format("frame {} does not follow frame {} (shot starts must be sorted and "
                            "distinct)",
                            frame, list.starts.back()));
        list.starts.push_back(frame);
        list.lines.push_back(line_number);
    }
    if (list.starts.empty())
        throw usage_error(
            fmt::format("--shots {}: no frame numbers (one shot start per line)", one_line(path)));
    return list;
}

ShotList read_shot_file(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    std::ostringstream text;
    if (file) text << file.rdbuf();
    if (!file || file.bad())
        throw usage_error(fmt::format("--shots {}: cannot read the file", one_line(path)));
    return parse_shot_list(text.str(), path);
}

double percentile(std::span<double> values, double rank) {
    if (std::any_of(values.begin(), values.end(), [](double v) { return std::isnan(v); }))
        return std::nan("");
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    const double h = double(n - 1) * (rank / 100.0);
    const std::size_t i = std::min(std::size_t(std::floor(h)), n - 1);
    const double t = h - double(i);
    const double a = values[i];
    const double b = values[std::min(i + 1, n - 1)];
    const double difference = b - a;
    // numpy's _lerp: from the nearer end, so that t = 1 gives b exactly.
    return t < 0.5 ? a + difference * t : b - difference * (1.0 - t);
}

ExtraPooling pool_extra(const ScoreTable& table, const PoolingRequest& request) {
    ExtraPooling extra;
    extra.requested = !request.empty();
    if (!extra.requested) return extra;
    for (const Percentile& p : request.percentiles) extra.percentile_names.push_back(p.name);
    for (std::size_t column = 0; column < table.column_count(); ++column)
        extra.percentiles.push_back(
            percentiles_of(table, column, 0, table.frame_count(), request.percentiles));
    // A table without frames (nothing scored) has no shots to pool, rather than every start
    // being "past the last frame".
    if (!request.shots || table.frame_count() == 0) return extra;

    const ShotList& shots = *request.shots;
    std::vector<std::size_t> starts = shots.starts;
    for (std::size_t i = 0; i < starts.size(); ++i)
        if (starts[i] >= table.frame_count())
            throw usage_error(fmt::format(
                "--shots {} line {}: frame {} is past the last frame scored ({})",
                one_line(shots.path), shots.lines[i], starts[i], table.frame_count() - 1));
    if (starts.front() != 0) starts.insert(starts.begin(), 0);
    for (std::size_t s = 0; s < starts.size(); ++s) {
        const std::size_t end = s + 1 < starts.size() ? starts[s + 1] : table.frame_count();
        ShotPooling shot{starts[s], end - 1, {}};
        for (std::size_t column = 0; column < table.column_count(); ++column)
            shot.columns.push_back(pool_range(table, column, starts[s], end, request.percentiles));
        extra.shots.push_back(std::move(shot));
    }
    return extra;
}

PoolSet full_pool_set(const ScoreTable& table, std::size_t column, const ExtraPooling& extra) {
    PoolSet set;
    for (const PoolingMethod method : all_pooling_methods)
        if (const auto value = table.pooled(column, method))
            set.push_back({to_string(method), *value});
    if (column < extra.percentiles.size())
        set.insert(set.end(), extra.percentiles[column].begin(), extra.percentiles[column].end());
    return set;
}

}  // namespace vq
