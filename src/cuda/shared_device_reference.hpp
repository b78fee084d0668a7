// The reference side of a many-input run on one GPU (vq::run_many with --backend cuda): each
// reference frame is uploaded once, by the first input's executor to submit it, into a ring of
// device frames that every input's kernels read. The sessions of such a run are pushed each frame
// in turn (frame i to every session before frame i + 1 to any), which is what makes a ring slot's
// previous frame done being submitted by everyone when the slot is taken again; the device-side
// waits below then make it done being read.
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "cuda/device.hpp"
#include "cuda/memory.hpp"
#include "cuda/stream.hpp"
#include "cuda/transfer_counter.hpp"
#include "vq/picture.hpp"

namespace vq::cuda {

class SharedDeviceReference {
public:
    SharedDeviceReference() = default;
    ~SharedDeviceReference();
    SharedDeviceReference(const SharedDeviceReference&) = delete;
    SharedDeviceReference& operator=(const SharedDeviceReference&) = delete;

    // An executor on `device` (current) joins, reading frames of `frame_bytes`; returns its
    // consumer number. Every executor of the run joins before the first frame is submitted.
    std::size_t join(const Device& device, std::size_t frame_bytes);

    // Frame `index`'s reference on the device. The first consumer to ask uploads `reference` on
    // `upload`, after every consumer's kernels that read the slot's previous frame; `compute`
    // is made to wait for the upload, whoever made it.
    const std::byte* acquire(std::size_t index, const Picture& reference, const Stream& upload,
                             const Stream& compute, TransferCounter& transfers);

    // Consumer `consumer` has enqueued on `compute` every kernel that reads frame `index`.
    void release(std::size_t index, std::size_t consumer, const Stream& compute);

private:
    struct Slot {
        DeviceBuffer frame;
        Event uploaded;
        std::vector<Event> released;  // per consumer: its kernels of the frame are done
        std::optional<std::size_t> index;
        Picture held;  // the host picture, until its copy is known to be done
    };

    std::mutex mutex_;
    std::optional<int> ordinal_;
    std::vector<Slot> slots_;
    std::size_t consumers_ = 0;
};

}  // namespace vq::cuda
