// An executor runs one backend's features on frames: submit() starts a frame and returns,
// collect() waits for it and hands back the frame's result blocks. Frames are collected in the
// order they were submitted; up to depth() frames may be in flight.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "feature/feature.hpp"
#include "io/device_surface.hpp"
#include "vq/backend.hpp"
#include "vq/picture.hpp"
#include "vq/session.hpp"

namespace vq {

// Where each feature's block sits in a frame's result area (16-byte aligned offsets).
struct BlockLayout {
    std::vector<std::size_t> offsets;
    std::vector<std::size_t> sizes;
    std::size_t total = 0;

    explicit BlockLayout(std::span<const std::size_t> block_bytes);

    // The layout of the blocks of `features`, in order (any pointers to Feature or a subclass).
    template <typename FeaturePointer>
    static BlockLayout of(const std::vector<FeaturePointer>& features) {
        std::vector<std::size_t> bytes;
        for (const auto& feature : features) bytes.push_back(feature->block_bytes());
        return BlockLayout(bytes);
    }

    std::span<const std::byte> block(std::span<const std::byte> area, std::size_t feature) const {
        return area.subspan(offsets[feature], sizes[feature]);
    }
    std::span<std::byte> block(std::span<std::byte> area, std::size_t feature) const {
        return area.subspan(offsets[feature], sizes[feature]);
    }
};

class Executor {
public:
    virtual ~Executor() = default;

    // Frames that may be submitted before the oldest must be collected.
    virtual std::size_t depth() const = 0;

    // Starts frame `index`; feature k computes only where run[k] is set.
    virtual void submit(std::size_t index, const FramePair& pair, const std::vector<bool>& run) = 0;

    // Waits for the oldest submitted frame (which must be `index`) and returns its result area,
    // valid until the next submit(). Rethrows a failure of that frame's work as vq::Error.
    virtual std::span<const std::byte> collect(std::size_t index) = 0;

    // How far each input should be read ahead to keep this executor busy.
    virtual ReadAheadPlan read_ahead_plan() const = 0;

    // Memory input frames should be read into; empty for ordinary memory.
    virtual BufferAllocator allocator() const { return {}; }

    // Where inputs decoded on the GPU put their pictures, for an executor that takes device
    // pictures (the CUDA one); null otherwise.
    virtual std::shared_ptr<DeviceSurfaceSink> surface_sink() const { return nullptr; }
};

}  // namespace vq
