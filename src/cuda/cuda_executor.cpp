// The CUDA executor: runs a session's CUDA twins on one GPU, frames pipelined through a ring of
// slots. For frame i in slot s = i mod k:
//
//   upload stream:   wait(slot s free) -> copy reference and distorted -> record `uploaded`
//   compute stream:  wait(uploaded) -> every feature's kernels -> one readback of the frame's
//                    result area -> record `done`
//
// The features' kernels fork from the compute stream onto a stream per feature and join back
// before the readback (FeatureStreams): a frame's twins run side by side.
//
// submit() only enqueues; collect(i) waits for frame i's `done` alone. So the upload of frame
// i+1 overlaps the kernels of frame i and the host never waits inside a frame's work. Both
// streams are in-order, so features may reuse their scratch from frame to frame.
//
// In a many-input run the reference comes from a SharedDeviceReference instead of the slot: one
// upload per frame for every input's executor. A picture decoded on the GPU (--hwdec, the sink
// below) is not copied at all: the kernels read it where it is, held until its frame is done.
#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <mutex>
#include <span>
#include <stdexcept>
#include <string_view>

#include <fmt/format.h>

#include "cuda/check.hpp"
#include "cuda/cuda_backend.hpp"
#include "cuda/cuda_feature.hpp"
#include "cuda/device.hpp"
#include "cuda/feature_streams.hpp"
#include "cuda/memory.hpp"
#include "cuda/frame_pool.hpp"
#include "cuda/shared_device_reference.hpp"
#include "cuda/stream.hpp"
#include "cuda/surface_sink.hpp"
#include "cuda/transfer_counter.hpp"
#include "io/frame_source.hpp"
#include "vq/error.hpp"

namespace vq::cuda {
namespace {

// Frames in flight. Four keeps the copy engine and the kernels busy at once with room for jitter
// in the host's reading, at the cost of four device frame pairs.
constexpr std::size_t ring_size = 4;

bool transfer_debugging() {
    const char* value = std::getenv("VQ_DEBUG_TRANSFERS");
    return value && std::string_view(value) == "1";
}

Planes planes_read(const std::vector<CudaFeature*>& features) {
    Planes planes = Planes::luma;
    for (const CudaFeature* feature : features) planes = planes_for_both(planes, feature->planes());
    return planes;
}

std::vector<CudaFeature*> as_cuda_features(const std::vector<Feature*>& features) {
    std::vector<CudaFeature*> result;
    for (Feature* feature : features) {
        auto* twin = dynamic_cast<CudaFeature*>(feature);
        if (!twin) throw std::logic_error("cuda::make_executor: a feature that is not a CUDA twin");
        result.push_back(twin);
    }
    return result;
}

class CudaExecutor final : public Executor {
public:
    CudaExecutor(std::vector<CudaFeature*> features, int gpu, const VideoFormat& format,
                 bool upload_reference, std::shared_ptr<SharedDeviceReference> shared_reference)
        : device_(gpu),
          features_(std::move(features)),
          layout_(BlockLayout::of(features_)),
          format_(format),
          upload_bytes_(plane_bytes(planes_read(features_), format)),
          upload_reference_(upload_reference),
          shared_reference_(upload_reference ? std::move(shared_reference) : nullptr),
          device_results_(layout_.total * ring_size),
          host_results_(layout_.total * ring_size),
          feature_streams_(features_.size()),
          pool_(PinnedPool::create(device_)) {
        slots_.reserve(ring_size);
        for (std::size_t s = 0; s < ring_size; ++s) {
            Slot& slot = slots_.emplace_back();
            slot.distorted = DeviceBuffer(format.frame_bytes());
            if (upload_reference_ && !shared_reference_)
                slot.reference = DeviceBuffer(format.frame_bytes());
        }
        if (shared_reference_) consumer_ = shared_reference_->join(device_, format.frame_bytes());
        for (CudaFeature* feature : features_) feature->prepare(compute_.get());
    }

    ~CudaExecutor() override {
        // Kernels and copies still queued reference the slots and the held pictures.
        cudaSetDevice(device_.ordinal());
        cudaStreamSynchronize(
            upload_.get());  // not Stream::synchronize(): a destructor must not throw
        cudaStreamSynchronize(compute_.get());
        feature_streams_.drain();
        if (transfer_debugging()) std::cerr << transfers_.summary(device_.ordinal()) << "\n";
    }

    std::size_t depth() const override { return slots_.size(); }

    // The GPU takes frames in bursts faster than one thread reads them from the page cache.
    ReadAheadPlan read_ahead_plan() const override { return {8, default_read_threads()}; }

    BufferAllocator allocator() const override {
        return [pool = pool_](std::size_t bytes) { return pool->acquire(bytes); };
    }

    // Made on first request (a run that decodes on the GPU): a run that does not touches no
    // driver entry point and holds no stream of its own for it.
    std::shared_ptr<DeviceSurfaceSink> surface_sink() const override {
        std::call_once(sink_made_, [&] { sink_ = std::make_shared<SurfaceSink>(device_); });
        return sink_;
    }

    void submit(std::size_t index, const FramePair& pair, const std::vector<bool>& run) override {
        Slot& slot = slots_[index % slots_.size()];
        slot.pending = false;
        if (std::find(run.begin(), run.end(), true) == run.end())
            return;  // e.g. skipped by --subsample
        try {
            device_.make_current();
            enqueue_frame(slot, area_offset(index), pair, run);
        } catch (const Error& e) {
            throw runtime_error(
                fmt::format("frame {} on GPU {}: {}", index, device_.ordinal(), e.what()));
        }
        slot.pending = true;
    }

    std::span<const std::byte> collect(std::size_t index) override {
        Slot& slot = slots_[index % slots_.size()];
        if (slot.pending) {
            slot.pending = false;
            try {
                device_.make_current();
                slot.done.synchronize();
            } catch (const Error& e) {
                slot.held = {};
                throw runtime_error(
                    fmt::format("frame {} on GPU {}: {}", index, device_.ordinal(), e.what()));
            }
        }
        slot.held = {};  // the pictures go back to their pool
        return std::span<const std::byte>(host_results_.data() + area_offset(index), layout_.total);
    }

private:
    struct Slot {
        DeviceBuffer reference;  // the frame pair at native resolution; no reference if unused
                                 // or shared
        DeviceBuffer distorted;
        Event uploaded;
        Event done;
        FramePair held;        // the pictures, kept until the copies from them (or, for device
                               // pictures, the kernels reading them) have finished
        bool pending = false;  // work enqueued and not yet collected
    };

    std::size_t area_offset(std::size_t index) const {
        return (index % slots_.size()) * layout_.total;
    }

    // Where the kernels read `picture`: in place when it was decoded on the GPU (its decoding
    // finished before it was handed out), else uploaded into the slot's `buffer` (the planes the
    // features read).
    const std::byte* place(const DeviceBuffer& buffer, const Picture& picture) {
        if (picture.on_device()) {
            ++transfers_.device_pictures;
            return picture.data();
        }
        copy_async(buffer.data(), picture.data(), upload_bytes_, upload_.get());
        transfers_.count_upload(upload_bytes_);
        return buffer.data();
    }

    void enqueue_frame(Slot& slot, std::size_t offset, const FramePair& pair,
                       const std::vector<bool>& run) {
        upload_.wait(
            slot.done.get());  // the slot's previous frame no longer reads its device frame
        const std::byte* distorted = place(slot.distorted, pair.distorted);
        const std::byte* reference = nullptr;
        if (shared_reference_) {
            reference = shared_reference_->acquire(pair.index, pair.reference, upload_, compute_,
                                                   transfers_);
        } else if (upload_reference_) {
            reference = place(slot.reference, pair.reference);
        }
        slot.uploaded.record(upload_);
        slot.held = upload_reference_ && !shared_reference_ ? pair : FramePair{{}, pair.distorted};

        compute_.wait(slot.uploaded.get());
        const DeviceFrame frame{format_, reference, distorted, pair.index};
        std::byte* device_area = device_results_.data() + offset;
        feature_streams_.fork(compute_);
        for (std::size_t k = 0; k < features_.size(); ++k)
            if (run[k])
                features_[k]->enqueue(frame, device_area + layout_.offsets[k],
                                      feature_streams_.stream(k, compute_));
        feature_streams_.join(compute_);
        if (shared_reference_) shared_reference_->release(pair.index, consumer_, compute_);
        copy_async(host_results_.data() + offset, device_area, layout_.total, compute_.get());
        transfers_.count_readback(layout_.total);
        ++transfers_.frames;
        slot.done.record(compute_);
    }

    Device device_;  // first: everything below lives on it
    std::vector<CudaFeature*> features_;
    BlockLayout layout_;
    VideoFormat format_;
    std::size_t upload_bytes_;  // of each host picture: the leading planes the features read
    bool upload_reference_;
    std::shared_ptr<SharedDeviceReference> shared_reference_;  // a many-input run's, or null
    std::size_t consumer_ = 0;                                 // this executor's number in it
    Stream upload_;
    Stream compute_;
    DeviceBuffer device_results_;  // ring_size result areas, one per slot
    PinnedBuffer host_results_;
    FeatureStreams feature_streams_;
    std::vector<Slot> slots_;
    std::shared_ptr<PinnedPool> pool_;
    mutable std::once_flag sink_made_;
    mutable std::shared_ptr<SurfaceSink> sink_;
    TransferCounter transfers_;
};

}  // namespace

std::unique_ptr<Executor> make_executor(std::vector<Feature*> features, int gpu,
                                        const VideoFormat& format, bool reference_available,
                                        std::shared_ptr<SharedDeviceReference> shared_reference) {
    // The session's reference may be there for CPU features alone: upload it only if a CUDA
    // twin reads it.
    const bool upload_reference =
        reference_available && std::any_of(features.begin(), features.end(),
                                           [](const Feature* f) { return f->uses_reference(); });
    return std::make_unique<CudaExecutor>(as_cuda_features(features), gpu, format, upload_reference,
                                          std::move(shared_reference));
}

}  // namespace vq::cuda
