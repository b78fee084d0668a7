// The session's table assembly: the ScoreTable's columns in libvmaf's order, the receipts, and
// each committed frame's result blocks turned into scores (Feature::finish), the flushed columns
// as frames settle, then the aggregates, receipt notes and speed at the end of the run.
#pragma once

#include <chrono>
#include <cstddef>
#include <vector>

#include "engine/bound_feature.hpp"
#include "engine/frame_scheduler.hpp"
#include "vq/picture.hpp"
#include "vq/scores.hpp"

namespace vq {

class TableAssembly {
public:
    TableAssembly(const VideoFormat& format, std::size_t subsample);

    // One receipt per feature, and the backends used in the order they first appear.
    void write_receipts(const std::vector<BoundFeature>& features);
    const std::vector<FeatureReceipt>& receipts() const { return receipts_; }

    // Every feature's per-frame outputs (those listed first before the others), then the outputs
    // completed after the last frame, as libvmaf's collector appends those at flush. Throws
    // vq::Error (usage) when two features would write one name.
    void add_columns(std::vector<BoundFeature>& features);

    ScoreTable& table() { return table_; }

    // In frame order: each feature that ran on the frame turns its block into scores.
    void commit(std::vector<BoundFeature>& features, const CollectedFrame& frame);

    // The flushed columns of frames [first, end), which every feature has settled
    // (Feature::frames_settled) or, with end_of_run, which end the run.
    void flush(std::vector<BoundFeature>& features, std::size_t first, std::size_t end,
               bool end_of_run);

    // What the features say about the whole run: aggregates, and their receipts' notes.
    void add_run_results(const std::vector<BoundFeature>& features);

    // The finished table, with the frames per second since `first_push`.
    ScoreTable finish(std::size_t frames, std::chrono::steady_clock::time_point first_push);

private:
    ScoreTable table_;
    std::vector<FeatureReceipt> receipts_;
    std::vector<double> scores_;  // one frame's scores of one feature (reused)
};

}  // namespace vq
