// The CUDA executor's DeviceSurfaceSink (io/device_surface.hpp): each surface the GPU's decoder
// gives is unpacked (surface_unpack.hpp) into a device picture from a recycling pool, on a stream
// of the sink's own that first waits for the decoder's copies into the surface. convert() returns
// once the unpacking is done, so the decoder may reuse the surface and the picture needs no further
// ordering: the executor's kernels read it in place.
#pragma once

#include <memory>
#include <mutex>

#include "cuda/device.hpp"
#include "cuda/frame_pool.hpp"
#include "cuda/stream.hpp"
#include "io/device_surface.hpp"

namespace vq::cuda {

class SurfaceSink final : public DeviceSurfaceSink {
public:
    explicit SurfaceSink(const Device& device);

    void* context() const override { return context_; }
    Picture convert(const VideoFormat& format, const DeviceSurface& surface) const override;
    std::shared_ptr<void> make_stream() const override;
    std::size_t buffer_bytes() const override { return buffer_bytes_; }

private:
    Device device_;
    void* context_;  // the device's primary context, a CUcontext
    std::shared_ptr<DevicePool> pool_;
    std::size_t buffer_bytes_;
    // Surfaces copied on the legacy default stream are converted on this stream, one at a time
    // (the readers convert on their own threads); those on a decoder's own stream, on that one.
    mutable std::mutex mutex_;
    Stream stream_;
    Event decoded_;
};

}  // namespace vq::cuda
