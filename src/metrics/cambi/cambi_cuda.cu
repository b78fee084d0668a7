// CAMBI, CUDA twin: the CudaFeature around the device pipeline (cambi_cuda_pipeline.hpp).
//
// init, outputs and the last step of finish (the cambi_max_val clamps and the full-reference
// difference, §11.3) are the Scorer's, as for the CPU twin. What this twin adds on the host is
// turning the exact top-k sums of its device block into the common block (to_block).
//
// Every plane is bit-identical to the CPU twin's, and so is every score wherever the reference's
// double top-k sum is exact, which the device tests per scale (§15.3's condition; every fixture,
// every test clip). Where it is not, the CPU keeps the reference's summation order and this twin
// the correctly rounded exact mean: they differ by the reference's rounding error, at most
// (k-1)·2^-53 relative (2..8 ulp on real 4K banding per the spec, up to ~600 ulp on adversarial
// random planes). The receipt counts those frames (receipt_notes). With reference_order=true
// the device copies those scales' c-values back and the host pools them with the CPU twin's
// top_k_mean, so that every score is the CPU twin's, bit for bit.
//
// Heatmaps (§13) are the one case that reads planes back: only when heatmaps_path is set, each
// frame's distorted c-values are copied into pinned memory on the frame's stream and written by
// the Scorer's writer, in frame order, when the frame is finished, at the frame's index in the run.
#include <array>
#include <deque>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "cuda/cuda_feature.hpp"
#include "cuda/memory.hpp"
#include "metrics/cambi/cambi_cuda_pipeline.hpp"
#include "metrics/cambi/cambi_heatmap.hpp"
#include "vq/error.hpp"

namespace vq::cambi {
namespace {

// §6.1, with the CPU twin's message, for the largest sample the device found.
void check_largest_sample(unsigned largest, int bit_depth) {
    const unsigned max = (1u << bit_depth) - 1;
    if (largest > max)
        throw runtime_error("cambi: luma sample " + std::to_string(largest) + " exceeds " +
                            std::to_string(max) + ", the largest " + std::to_string(bit_depth) +
                            "-bit value");
}

// §11.1–11.3 from the device block: the input check of §6.1 for the depths the device checked,
// then each picture's score (before the clamps, which the Scorer applies). `copied`: each
// picture's c-values as copied back with reference_order=true, or null (picture_score).
Block block_from(const CudaBlock& raw, const Config& config,
                 std::array<float*, gpu::max_pictures> copied) {
    const int pictures = config.full_ref ? 2 : 1;
    if (config.bit_depth != 8 && config.bit_depth != 16)
        for (int p = 0; p < pictures; ++p)
            check_largest_sample(raw.largest_sample[p], config.bit_depth);
    Block block;
    block.distorted = picture_score(raw, 0, config, copied[0]);
    if (config.full_ref) block.reference = picture_score(raw, 1, config, copied[1]);
    return block;
}

// The run's frames and scales where §15.3's condition failed, for the receipt.
class OrderDependence {
public:
    // Counts one frame; returns its order-dependent scales (of every picture).
    int count(const CudaBlock& raw, int pictures) {
        int scales = 0;
        for (int p = 0; p < pictures; ++p)
            for (int s = 0; s < num_scales; ++s) scales += raw.order_dependent[p][s] != 0;
        ++frames_;
        frames_with_ += scales > 0;
        scales_ += std::uint64_t(scales);
        return scales;
    }

    std::vector<ReceiptNote> notes(bool reference_order) const {
        const std::string what =
            "on " + std::to_string(frames_with_) + " of " + std::to_string(frames_) + " frames (" +
            std::to_string(scales_) +
            " picture scales in all) a top-k sum is too large for the reference's double sum "
            "to be exact (spec/cambi.md §15.3); ";
        const std::string consequence =
            reference_order ? "those scales were copied back and pooled in the reference's order "
                              "(reference_order=true)"
                            : "there the CUDA score is the exactly rounded mean and may differ "
                              "from the reference's in "
                              "the last digits (cambi=reference_order=true gives the reference's)";
        return {{"order_dependent_frames", frames_with_, what + consequence},
                {"order_dependent_scales", scales_, ""}};
    }

private:
    std::uint64_t frames_ = 0;
    std::uint64_t frames_with_ = 0;
    std::uint64_t scales_ = 0;
};

}  // namespace

// The device block as the common block. Outside the unnamed namespace: ScorerTwin finds it by
// argument-dependent lookup, which ignores unnamed namespaces.
Block to_block(const CudaBlock& raw, const Scorer& scorer) {
    return block_from(raw, scorer.config(), {});
}

namespace {

using HeatmapPlanes = cuda::PinnedArray<float>;  // every scale's c-values, back to back

class CambiCuda final : public ScorerTwin<cuda::CudaFeature, Scorer, CudaBlock> {
public:
    using ScorerTwin::ScorerTwin;

    void prepare(cudaStream_t stream) override {
        pipeline_ = std::make_unique<CudaPipeline>(scorer_.config(), scorer_.format(), stream);
    }

    void enqueue(const cuda::DeviceFrame& frame, std::byte* device_block,
                 cudaStream_t stream) override {
        auto* block = reinterpret_cast<CudaBlock*>(device_block);
        pipeline_->enqueue(frame, block, stream);
        if (scorer_.config().reference_order) {
            const std::lock_guard lock(in_flight_mutex_);
            blocks_in_flight_.push_back(block);
        }
        if (scorer_.heatmaps()) {
            HeatmapPlanes planes = take_heatmap_buffer();
            pipeline_->copy_c_values(0, planes.data(), stream);
            const std::lock_guard lock(in_flight_mutex_);
            heatmaps_in_flight_.push_back({frame.index, std::move(planes)});
        }
    }

    void finish(std::span<const std::byte> bytes, std::span<double> scores) override {
        if (scorer_.heatmaps()) write_heatmaps();
        const CudaBlock& raw = block_as<CudaBlock>(bytes);
        const int scales = order_.count(raw, scorer_.config().full_ref ? 2 : 1);
        if (!scorer_.config().reference_order) return ScorerTwin::finish(bytes, scores);
        const CudaBlock* block = nullptr;
        {
            const std::lock_guard lock(in_flight_mutex_);
            block = blocks_in_flight_.front();
            blocks_in_flight_.pop_front();
        }
        if (scales == 0) return ScorerTwin::finish(bytes, scores);
        // The frame was collected, so its copies have landed; its block is not enqueued again
        // before this returns.
        const bool full_ref = scorer_.config().full_ref;
        scorer_.finish(block_from(raw, scorer_.config(),
                                  {pipeline_->copied_planes(block, 0),
                                   full_ref ? pipeline_->copied_planes(block, 1) : nullptr}),
                       scores);
    }

    std::vector<ReceiptNote> receipt_notes() const override {
        return order_.notes(scorer_.config().reference_order);
    }

private:
    HeatmapPlanes take_heatmap_buffer() {
        const std::lock_guard lock(in_flight_mutex_);
        if (idle_heatmap_buffers_.empty()) return HeatmapPlanes(pipeline_->c_value_count(0));
        HeatmapPlanes buffer = std::move(idle_heatmap_buffers_.back());
        idle_heatmap_buffers_.pop_back();
        return buffer;
    }

    // The oldest frame in flight is the one being finished: frames are finished in the order they
    // were enqueued, and its copy is done once the frame is.
    void write_heatmaps() {
        HeatmapCopy copy;
        {
            const std::lock_guard lock(in_flight_mutex_);
            copy = std::move(heatmaps_in_flight_.front());
            heatmaps_in_flight_.pop_front();
        }
        const Config& config = scorer_.config();
        const auto sizes =
            scale_sizes(config.distorted.width, config.distorted.height, config.distorted.speedup);
        const float* c = copy.planes.data();
        HeatmapFrame frame;
        frame.frame_index = copy.frame_index;
        for (int s = 0; s < num_scales; ++s) {
            const auto [w, h] = sizes[std::size_t(s)];
            const std::size_t n = std::size_t(w) * std::size_t(h);
            frame.capture(s, std::span(c, n), w, h);
            c += n;
        }
        HeatmapWriter& heatmaps = *scorer_.heatmaps();
        heatmaps.write(heatmaps.stash(std::move(frame)));
        const std::lock_guard lock(in_flight_mutex_);
        idle_heatmap_buffers_.push_back(std::move(copy.planes));
    }

    std::unique_ptr<CudaPipeline> pipeline_;
    OrderDependence order_;
    std::deque<const CudaBlock*> blocks_in_flight_;  // reference_order: finish() reads their copies

    struct HeatmapCopy {
        std::uint64_t frame_index = 0;
        HeatmapPlanes planes;
    };
    std::mutex in_flight_mutex_;
    std::deque<HeatmapCopy> heatmaps_in_flight_;
    std::vector<HeatmapPlanes> idle_heatmap_buffers_;
};

}  // namespace

std::unique_ptr<Feature> make_cuda(const OptionValues& values) {
    return std::make_unique<CambiCuda>(Scorer(values));
}

}  // namespace vq::cambi
