// The interface every metric implements, once per backend ("twins").
//
// A feature turns one frame pair into a small fixed-size result block (a trivially copyable
// struct declared in the metric's NAME.hpp and shared by its twins), then, on one thread and in
// frame order, turns that block into its output scores. The split is what lets the CPU compute
// frames in parallel and the GPU write a frame's results into one device block that the host
// reads back once: only finish() sees frames in order, so run-long state (APSNR sums) lives there.
#pragma once

#include <cassert>
#include <cstddef>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "vq/picture.hpp"
#include "vq/session.hpp"

namespace vq {

using Aggregate = std::pair<std::string, double>;

class Feature {
public:
    virtual ~Feature() = default;

    virtual Backend backend() const = 0;

    // Checks the format against the options and prepares per-run constants. Throws vq::Error.
    virtual void init(const VideoFormat& format) = 0;

    // Output names in emission order (valid after init()).
    virtual std::vector<std::string> outputs() const = 0;

    virtual std::size_t block_bytes() const = 0;

    // False for no-reference features: the reference picture is then not needed at all.
    virtual bool uses_reference() const { return true; }

    // True if the feature must see every frame even when --subsample skips it (libvmaf's
    // "temporal" extractors: PSNR accumulates APSNR over all frames).
    virtual bool every_frame() const { return false; }

    // In frame order, on one thread: block -> scores (scores.size() == outputs().size()).
    virtual void finish(std::span<const std::byte> block, std::span<double> scores) = 0;

    // Whole-run values, after the last frame.
    virtual std::vector<Aggregate> aggregates() const { return {}; }
};

class CpuFeature : public Feature {
public:
    Backend backend() const final { return Backend::cpu; }

    // Any thread, any order, concurrently for different frames: pair -> block.
    virtual void compute(const FramePair& pair, std::span<std::byte> block) const = 0;
};

template <typename Block>
Block& block_as(std::span<std::byte> bytes) {
    assert(bytes.size() >= sizeof(Block));
    return *reinterpret_cast<Block*>(bytes.data());
}

template <typename Block>
const Block& block_as(std::span<const std::byte> bytes) {
    assert(bytes.size() >= sizeof(Block));
    return *reinterpret_cast<const Block*>(bytes.data());
}

}  // namespace vq
