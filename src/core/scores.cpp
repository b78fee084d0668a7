#include "vq/scores.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "vq/error.hpp"

namespace vq {

const char* to_string(PoolingMethod method) {
    switch (method) {
    case PoolingMethod::min: return "min";
    case PoolingMethod::max: return "max";
    case PoolingMethod::mean: return "mean";
    case PoolingMethod::harmonic_mean: return "harmonic_mean";
    }
    return "?";
}

bool is_report_name(std::string_view name) {
    const auto is_letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
    const auto is_digit = [](char c) { return c >= '0' && c <= '9'; };
    if (name.empty() || name.size() > 256 || !(is_letter(name[0]) || name[0] == '_')) return false;
    return std::all_of(name.begin(), name.end(), [&](char c) {
        return is_letter(c) || is_digit(c) || c == '_' || c == '.' || c == '-';
    });
}

namespace {

void check_report_name(const std::string& name) {
    if (!is_report_name(name))
        throw usage_error(
            fmt::format("'{}' cannot name a score: a name is letters, digits, '_', '.' and '-', "
                        "starting with a "
                        "letter or '_' (every output format writes it as it is)",
                        name.substr(0, 256)));
}

}  // namespace

std::size_t ScoreTable::add_column(const std::string& name) {
    if (const auto existing = find(name)) return *existing;
    check_report_name(name);
    columns_.push_back({name, {}, {}});
    return columns_.size() - 1;
}

// A value may arrive for any frame; the table grows so that frame_count() always covers every
// stored value (the writers and pooling only look at [0, frame_count)). Setting a value twice
// keeps the last one.
void ScoreTable::set(std::size_t column, std::size_t frame, double value) {
    if (column >= columns_.size())
        throw runtime_error("score table: no column " + std::to_string(column));
    Column& c = columns_[column];
    if (frame >= c.values.size()) {
        c.values.resize(frame + 1);
        c.present.resize(frame + 1);
    }
    c.values[frame] = value;
    c.present[frame] = true;
    frame_count_ = std::max(frame_count_, frame + 1);
}

// Aggregates keep their first-added order; a second value under the same name replaces the first.
void ScoreTable::add_aggregate(const std::string& name, double value) {
    check_report_name(name);
    const auto same_name = [&](const auto& entry) { return entry.first == name; };
    const auto it = std::find_if(aggregates_.begin(), aggregates_.end(), same_name);
    if (it != aggregates_.end())
        it->second = value;
    else
        aggregates_.emplace_back(name, value);
}

std::optional<std::size_t> ScoreTable::find(const std::string& name) const {
    const auto same_name = [&](const Column& column) { return column.name == name; };
    const auto it = std::find_if(columns_.begin(), columns_.end(), same_name);
    if (it == columns_.end()) return std::nullopt;
    return static_cast<std::size_t>(it - columns_.begin());
}

std::optional<double> ScoreTable::value(std::size_t column, std::size_t frame) const {
    if (column >= columns_.size()) return std::nullopt;
    const Column& c = columns_[column];
    if (frame >= c.values.size() || !c.present[frame]) return std::nullopt;
    return c.values[frame];
}

// spec/cli-and-output.md §10. Frames are visited in increasing index and everything is done in
// double, in the reference's order, so the pooled numbers match it bit for bit. The IEEE
// special cases fall out of the plain formulas: a value of -1 makes 1/(v+1) = +inf and the
// harmonic mean -1; +inf values add 0 to the reciprocal sum, so all-+inf gives +inf.
std::optional<double> ScoreTable::pooled(std::size_t column, PoolingMethod method) const {
    return pooled(column, method, 0, frame_count_);
}

std::optional<double> ScoreTable::pooled(std::size_t column, PoolingMethod method,
                                         std::size_t first, std::size_t end) const {
    std::size_t selected = 0;
    double min = 0, max = 0, sum = 0, reciprocal_sum = 0;
    for (std::size_t frame = first; frame < std::min(end, frame_count_); ++frame) {
        if (!frame_selected(frame)) continue;
        const auto v = value(column, frame);
        if (!v) return std::nullopt;  // the reference omits a pooling with a missing value
        if (selected == 0 || *v < min) min = *v;
        if (selected == 0 || *v > max) max = *v;
        sum += *v;
        reciprocal_sum += 1.0 / (*v + 1.0);
        ++selected;
    }
    if (selected == 0) return std::nullopt;

    const double n = static_cast<double>(selected);
    switch (method) {
    case PoolingMethod::min: return min;
    case PoolingMethod::max: return max;
    case PoolingMethod::mean: return sum / n;
    case PoolingMethod::harmonic_mean: return n / reciprocal_sum - 1.0;
    }
    return std::nullopt;
}

}  // namespace vq
