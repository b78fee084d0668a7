// The session's scheduling: one executor per backend in use, the frames in flight on them, and
// the recent pictures of the temporal contract. It hands each committed frame's result areas back
// in frame order; what the blocks mean is the table assembly's business (table_assembly.hpp).
#pragma once

#include <cstddef>
#include <deque>
#include <memory>
#include <span>
#include <vector>

#include "engine/bound_feature.hpp"
#include "feature/executor.hpp"
#include "vq/picture.hpp"
#include "vq/session.hpp"

namespace vq {

struct SharedReference;

// The result areas of one frame, oldest first out of the executors.
struct CollectedFrame {
    std::size_t index = 0;
    std::vector<bool> run;                          // [feature]: whether it computed this frame
    std::vector<std::span<const std::byte>> areas;  // [executor]
    const std::vector<BlockLayout>* layouts = nullptr;

    std::span<const std::byte> block(const BoundFeature& bound) const {
        return (*layouts)[bound.executor].block(areas[bound.executor], bound.slot);
    }
};

class FrameScheduler {
public:
    // Makes the executors (CUDA first), each with its features in request order, and sets every
    // feature's executor and slot. `history` earlier pictures are kept for the temporal contract.
    // `shared_reference` (a many-input run's) goes to the executors.
    FrameScheduler(std::vector<BoundFeature>& features, const SessionConfig& config,
                   const VideoFormat& format, bool needs_reference, std::size_t history,
                   const SharedReference& shared_reference);

    BufferAllocator buffer_allocator() const;
    // The executor's sink for pictures decoded on the GPU when one executor takes every feature
    // and takes device pictures (CUDA alone); null otherwise.
    std::shared_ptr<DeviceSurfaceSink> surface_sink() const;
    ReadAheadPlan read_ahead_plan() const;

    // Submits frame pair.index (the next one) to every executor, each feature running where `run`
    // says, with the earlier pictures the temporal contract asks for.
    void submit(FramePair pair, std::vector<bool> run);

    // True when as many frames are in flight as the executors take: the oldest must be collected.
    bool full() const { return in_flight_.size() >= depth_; }
    bool empty() const { return in_flight_.empty(); }

    // Waits for the oldest frame in flight; its areas are valid until the next submit().
    CollectedFrame collect_oldest();

    // Lets go of the pictures kept for the temporal contract.
    void drop_history();

private:
    const std::vector<BoundFeature>& features_;
    std::vector<std::unique_ptr<Executor>> executors_;
    std::vector<BlockLayout> layouts_;
    std::size_t depth_ = 1;
    std::size_t history_ = 0;
    std::deque<Picture> recent_references_;    // newest first, at most history_
    std::deque<Picture> recent_distorted_;     // the same frames' distorted pictures
    std::deque<std::vector<bool>> in_flight_;  // run masks of submitted, uncollected frames
    std::size_t collected_ = 0;
};

}  // namespace vq
