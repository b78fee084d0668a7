// A frame's CUDA twins side by side: each twin enqueues on a stream of its own, forked from the
// caller's stream and joined back into it. The twins of one frame read the same device frame and
// write disjoint result blocks, so nothing orders them but the frame's upload before and the
// result readback after. At 1080p no single twin fills the GPU (VIF's coarser scales, ADM's
// masking and motion are a few dozen blocks each), so running them concurrently instead of one
// after the other shortens the frame; at 4K it costs nothing.
//
// A twin always gets the same stream, so frames still reach it in order on one stream and its
// scratch may be reused from frame to frame (CudaFeature::enqueue's contract).
#pragma once

#include <cstddef>
#include <vector>

#include "cuda/stream.hpp"

namespace vq::cuda {

class FeatureStreams {
public:
    // Streams for `count` twins; one twin runs on the caller's stream itself.
    explicit FeatureStreams(std::size_t count);

    // Work enqueued on stream(k) from here on runs after everything enqueued on `main` so far.
    void fork(const Stream& main);
    // The stream twin k enqueues on, between fork() and join() (the main stream for a lone twin).
    cudaStream_t stream(std::size_t k, const Stream& main) const;
    // Work enqueued on `main` from here on runs after everything enqueued on the twins' streams.
    void join(const Stream& main);
    // Waits for the twins' streams on the host, ignoring errors: for a destructor, when a frame
    // may have failed between fork() and join().
    void drain() const noexcept;

private:
    struct Branch {
        Stream stream;
        Event done;
    };
    std::vector<Branch> branches_;  // empty for a lone twin
    Event forked_;
};

}  // namespace vq::cuda
