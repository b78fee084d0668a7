#include "cuda/surface_sink.hpp"

#include <new>
#include <utility>

#include <cuda.h>

#include "cuda/check.hpp"
#include "cuda/surface_unpack.hpp"
#include "vq/error.hpp"

namespace vq::cuda {
namespace {

// The runtime's primary context of `device` as the driver API names it (made current, it is the
// thread's current context). The driver's function is found through the runtime, so vq links no
// driver library (a machine without a GPU still runs vq).
void* primary_context(const Device& device) {
    device.make_current();
    void* function = nullptr;
    cudaDriverEntryPointQueryResult found{};
    VQ_CUDA_CHECK(cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", &function, 12000,
                                                   cudaEnableDefault, &found));
    CUcontext context = nullptr;
    if (found != cudaDriverEntryPointSuccess || !function ||
        reinterpret_cast<CUresult (*)(CUcontext*)>(function)(&context) != CUDA_SUCCESS || !context)
        throw runtime_error(
            "the CUDA driver does not name the runtime's context (cuCtxGetCurrent)");
    return context;
}

// An eighth of the device memory free now, for each input's decoded pictures: a run has two
// inputs, and the kernels' buffers and the decoders' own surfaces need the rest.
std::size_t decoded_picture_budget(const Device& device) {
    device.make_current();
    std::size_t free = 0, total = 0;
    VQ_CUDA_CHECK(cudaMemGetInfo(&free, &total));
    return free / 8;
}

}  // namespace

SurfaceSink::SurfaceSink(const Device& device)
    : device_(device),
      context_(primary_context(device)),
      pool_(DevicePool::create(device)),
      buffer_bytes_(decoded_picture_budget(device)) {}

std::shared_ptr<void> SurfaceSink::make_stream() const {
    device_.make_current();
    auto stream = std::make_shared<Stream>();
    return std::shared_ptr<void>(stream, stream->get());
}

Picture SurfaceSink::convert(const VideoFormat& format, const DeviceSurface& surface) const {
    device_.make_current();  // a reader's thread
    FrameBuffer buffer = pool_->acquire(format.frame_bytes());
    if (!buffer) throw std::bad_alloc();
    if (surface.stream) {
        // The decoder's own stream: the unpacking follows its copy into the surface there.
        const auto stream = static_cast<cudaStream_t>(surface.stream);
        unpack_surface(surface, format, buffer.get(), stream);
        synchronize(stream);
        return Picture(format, std::move(buffer), Residence::device);
    }
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
