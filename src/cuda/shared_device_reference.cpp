#include "cuda/shared_device_reference.hpp"

#include <stdexcept>

#include "cuda/cuda_backend.hpp"

namespace vq::cuda {
namespace {

// Reference frames on the device: as many as one executor keeps in flight, and two more so that
// the uploader of a frame rarely waits for the slowest input's kernels of an earlier one.
constexpr std::size_t ring_frames = 6;

}  // namespace

SharedDeviceReference::~SharedDeviceReference() {
    // The frames are freed on their device; cudaFree waits for the kernels still reading them.
    if (ordinal_) cudaSetDevice(*ordinal_);
}

std::size_t SharedDeviceReference::join(const Device& device, std::size_t frame_bytes) {
    const std::lock_guard lock(mutex_);
    if (!ordinal_) {
        ordinal_ = device.ordinal();
        slots_.resize(ring_frames);
        for (Slot& slot : slots_) slot.frame = DeviceBuffer(frame_bytes);
    } else if (*ordinal_ != device.ordinal() || slots_.front().frame.size() != frame_bytes) {
        throw std::logic_error("SharedDeviceReference: executors on different GPUs or formats");
    }
    for (Slot& slot : slots_) slot.released.emplace_back();
    return consumers_++;
}

const std::byte* SharedDeviceReference::acquire(std::size_t index, const Picture& reference,
                                                const Stream& upload, const Stream& compute,
                                                TransferCounter& transfers) {
    const std::lock_guard lock(mutex_);
    Slot& slot = slots_[index % slots_.size()];
    if (slot.index != index) {
        if (slot.index) {
            // The previous frame's copy finished long ago (its kernels ran since): its host
            // picture may go back to its pool. Nobody reads the device frame once every
            // consumer's kernels of it are done.
            slot.uploaded.synchronize();
            for (const Event& released : slot.released) upload.wait(released.get());
        }
        copy_async(slot.frame.data(), reference.data(), reference.size_bytes(), upload.get());
        transfers.count_upload(reference.size_bytes());
        slot.uploaded.record(upload);
        slot.held = reference;
        slot.index = index;
    }
    compute.wait(slot.uploaded.get());
    return slot.frame.data();
}

void SharedDeviceReference::release(std::size_t index, std::size_t consumer,
                                    const Stream& compute) {
    const std::lock_guard lock(mutex_);
    slots_[index % slots_.size()].released[consumer].record(compute);
}

std::shared_ptr<SharedDeviceReference> make_shared_device_reference() {
    return std::make_shared<SharedDeviceReference>();
}

}  // namespace vq::cuda
