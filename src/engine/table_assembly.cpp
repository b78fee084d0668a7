#include "engine/table_assembly.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "core/score_table_filler.hpp"
#include "vq/error.hpp"

namespace vq {

TableAssembly::TableAssembly(const VideoFormat& format, std::size_t subsample) {
    detail::ScoreTableFiller::set_size(table_, format.width, format.height);
    table_.set_subsample(subsample);
}

void TableAssembly::write_receipts(const std::vector<BoundFeature>& features) {
    std::vector<std::string> backends_used;
    for (const BoundFeature& bound : features) {
        std::vector<std::string> outputs = bound.feature->outputs();
        for (std::string& output : bound.feature->flushed_outputs())
            outputs.push_back(std::move(output));
        receipts_.push_back({bound.name, to_string(bound.feature->backend()), std::move(outputs)});
        if (std::find(backends_used.begin(), backends_used.end(), receipts_.back().backend) ==
            backends_used.end())
            backends_used.push_back(receipts_.back().backend);
    }
    detail::ScoreTableFiller::set_backend_used(table_,
                                               fmt::format("{}", fmt::join(backends_used, "+")));
    detail::ScoreTableFiller::set_receipts(table_, receipts_);
}

void TableAssembly::add_columns(std::vector<BoundFeature>& features) {
    const auto add = [&](const BoundFeature& bound, const std::string& output) {
        if (table_.find(output))
            throw usage_error(
                fmt::format("feature '{}' would write '{}' a second time; request it once",
                            bound.name, output));
        return table_.add_column(output);
    };
    for (const bool first : {true, false})
        for (BoundFeature& bound : features)
            if (bound.feature->outputs_listed_first() == first)
                for (const std::string& output : bound.feature->outputs())
                    bound.columns.push_back(add(bound, output));
    for (BoundFeature& bound : features)
        for (const std::string& output : bound.feature->flushed_outputs())
            bound.flushed_columns.push_back(add(bound, output));
}

void TableAssembly::commit(std::vector<BoundFeature>& features, const CollectedFrame& frame) {
    for (std::size_t k = 0; k < features.size(); ++k) {
        if (!frame.run[k]) continue;
        BoundFeature& bound = features[k];
        scores_.assign(bound.columns.size(), 0.0);
        bound.feature->finish(frame.block(bound), scores_);
        for (std::size_t c = 0; c < bound.columns.size(); ++c)
            table_.set(bound.columns[c], frame.index, scores_[c]);
    }
}

void TableAssembly::flush(std::vector<BoundFeature>& features, std::size_t first, std::size_t end,
                          bool end_of_run) {
    if (end_of_run) table_.set_frame_count(end);
    for (BoundFeature& bound : features) {
        if (bound.flushed_columns.empty()) continue;
        std::vector<std::vector<double>> columns(bound.flushed_columns.size(),
                                                 std::vector<double>(end - first, std::nan("")));
        bound.feature->flush(first, end_of_run, columns);
        for (std::size_t c = 0; c < columns.size(); ++c)
            for (std::size_t frame = first; frame < end; ++frame)
                if (!std::isnan(columns[c][frame - first]))
                    table_.set(bound.flushed_columns[c], frame, columns[c][frame - first]);
    }
}

void TableAssembly::add_run_results(const std::vector<BoundFeature>& features) {
    for (const BoundFeature& bound : features)
        for (const auto& [name, value] : bound.feature->aggregates())
            table_.add_aggregate(name, value);
    for (std::size_t k = 0; k < features.size(); ++k)  // one receipt per feature, in order
        receipts_[k].notes = detail::ScoreTableFiller::receipts(table_)[k].notes =
            features[k].feature->receipt_notes();
}

ScoreTable TableAssembly::finish(std::size_t frames,
                                 std::chrono::steady_clock::time_point first_push) {
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - first_push).count();
    detail::ScoreTableFiller::set_fps(table_,
                                      frames && seconds > 0 ? double(frames) / seconds : 0.0);
    return std::move(table_);
}

}  // namespace vq
