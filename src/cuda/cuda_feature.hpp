// The CUDA twin of a feature: the same init/outputs/finish as its CPU twin, with the per-frame
// work enqueued on the device instead of computed on the host.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "feature/feature.hpp"

namespace vq::cuda {

// A frame pair resident in device memory at native resolution, in the file's layout (the planes
// back to back, as vq::Picture holds them). Every CUDA feature of the run reads these copies.
struct DeviceFrame {
    VideoFormat format;
    const std::byte* reference = nullptr;  // null when no feature of the run uses the reference
    const std::byte* distorted = nullptr;
    std::size_t index = 0;  // the frame's position in the run

    template <typename Sample>
    static const Sample* plane(const std::byte* frame, const VideoFormat& format, int index) {
        return reinterpret_cast<const Sample*>(frame + format.plane_offset(index));
    }
};

class CudaFeature : public Feature {
public:
    Backend backend() const final { return Backend::cuda; }

    // Once, after init(), on the run's device: allocate device scratch and tables.
    virtual void prepare(cudaStream_t stream) = 0;

    // Enqueues one frame's work on `stream` and writes the result block (block_bytes() bytes) to
    // `device_block`, which holds the previous use's values: a feature that accumulates into it
    // clears it first, on the stream. Must not synchronise with the host. Frames are enqueued in
    // order on one stream, the same for every frame (the executor's stream for this feature,
    // ordered after prepare()'s), so per-feature scratch may be reused from frame to frame.
    virtual void enqueue(const DeviceFrame& frame, std::byte* device_block,
                         cudaStream_t stream) = 0;
};

}  // namespace vq::cuda
