#include "cuda/surface_sink.hpp"

#include <new>
#include <utility>

#include "cuda/surface_unpack.hpp"

namespace vq::cuda {

SurfaceSink::SurfaceSink(const Device& device)
    : device_(device), pool_(DevicePool::create(device)) {}

Picture SurfaceSink::convert(const VideoFormat& format, const DeviceSurface& surface) const {
    device_.make_current();  // a reader's thread
    FrameBuffer buffer = pool_->acquire(format.frame_bytes());
    if (!buffer) throw std::bad_alloc();
    std::lock_guard lock(mutex_);
    // FFmpeg queued its copy of the decoded picture into the surface on its device context's
    // stream (the legacy default stream when it has none), in the same primary context.
    decoded_.record(surface.stream ? static_cast<cudaStream_t>(surface.stream) : cudaStreamLegacy);
    stream_.wait(decoded_.get());
    unpack_surface(surface, format, buffer.get(), stream_.get());
    stream_.synchronize();
    return Picture(format, std::move(buffer), Residence::device);
}

}  // namespace vq::cuda
