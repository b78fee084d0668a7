#include "vq/scores.hpp"

#include <algorithm>

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

std::size_t ScoreTable::add_column(const std::string& name) {
    if (const auto existing = find(name)) return *existing;
    names_.push_back(name);
    values_.emplace_back();
    return names_.size() - 1;
}

// A value may arrive for any frame; the table grows so that frame_count() always covers every
// stored value (the writers and pooling only look at [0, frame_count)). Setting a value twice
// keeps the last one.
void ScoreTable::set(std::size_t column, std::size_t frame, double value) {
    if (column >= values_.size())
        throw runtime_error("score table: no column " + std::to_string(column));
    auto& column_values = values_[column];
    if (frame >= column_values.size()) column_values.resize(frame + 1);
    column_values[frame] = value;
    frame_count_ = std::max(frame_count_, frame + 1);
}

// Aggregates keep their first-added order; a second value under the same name replaces the first.
void ScoreTable::add_aggregate(const std::string& name, double value) {
    const auto same_name = [&](const auto& entry) { return entry.first == name; };
    const auto it = std::find_if(aggregates_.begin(), aggregates_.end(), same_name);
    if (it != aggregates_.end())
        it->second = value;
    else
        aggregates_.emplace_back(name, value);
}

std::optional<std::size_t> ScoreTable::find(const std::string& name) const {
    const auto it = std::find(names_.begin(), names_.end(), name);
    if (it == names_.end()) return std::nullopt;
    return static_cast<std::size_t>(it - names_.begin());
}

std::optional<double> ScoreTable::value(std::size_t column, std::size_t frame) const {
    if (column >= values_.size()) return std::nullopt;
    const auto& column_values = values_[column];
    if (frame >= column_values.size()) return std::nullopt;
    return column_values[frame];
}

// spec/cli-and-output.md §10. Frames are visited in increasing index and everything is done in
// double, in the reference's order, so the pooled numbers match it bit for bit. The IEEE
// special cases fall out of the plain formulas: a value of -1 makes 1/(v+1) = +inf and the
// harmonic mean -1; +inf values add 0 to the reciprocal sum, so all-+inf gives +inf.
std::optional<double> ScoreTable::pooled(std::size_t column, PoolingMethod method) const {
    std::size_t selected = 0;
    double min = 0, max = 0, sum = 0, reciprocal_sum = 0;
    for (std::size_t frame = 0; frame < frame_count_; ++frame) {
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
