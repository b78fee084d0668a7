// CAMBI, CUDA twin: the CudaFeature around the device pipeline (cambi_cuda_pipeline.hpp).
//
// init, outputs and the last step of finish (the cambi_max_val clamps and the full-reference
// difference, §11.3) are the CPU twin's own, through a CambiCpu that never computes a frame. What
// this twin adds on the host is turning the exact top-k sums of the result block into scores.
//
// Every plane is bit-identical to the CPU twin's, and so is every score wherever the CPU's
// double top-k sum is exact (every fixture, every test clip). Where it is not (§15.3), the CPU
// keeps the reference's summation order and this twin the correctly rounded exact mean: they
// differ by the reference's rounding error, at most (k-1)·2^-53 relative (2..8 ulp on real 4K
// banding per the spec, up to ~600 ulp on adversarial random planes).
//
// Heatmaps (§13) are the one case that reads planes back: only when heatmaps_path is set, each
// frame's distorted c-values are copied into pinned memory on the frame's stream and written by
// the CPU twin's writer, in frame order, when the frame is finished. cuda::DeviceFrame does not
// carry the frame's index in the run, so frames are numbered in the order they are enqueued: the
// same offsets as the CPU twin's unless --subsample skips frames.
#include <deque>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "cuda/cuda_feature.hpp"
#include "cuda/memory.hpp"
#include "metrics/cambi/cambi_cuda.hpp"
#include "metrics/cambi/cambi_cuda_pipeline.hpp"
#include "metrics/cambi/cambi_feature.hpp"
#include "metrics/cambi/cambi_heatmap.hpp"
#include "vq/error.hpp"

namespace vq {
namespace cambi {
namespace {

Options without_heatmaps(Options options) {
    options.heatmaps_path.clear();
    return options;
}

// §6.1, with the CPU twin's message, for the largest sample the device found.
void check_largest_sample(unsigned largest, int bit_depth) {
    const unsigned max = (1u << bit_depth) - 1;
    if (largest > max)
        throw runtime_error("cambi: luma sample " + std::to_string(largest) + " exceeds " + std::to_string(max) +
                            ", the largest " + std::to_string(bit_depth) + "-bit value");
}

class CambiCuda final : public cuda::CudaFeature {
public:
    explicit CambiCuda(Options options)
        : host_(without_heatmaps(options)), heatmaps_path_(options.heatmaps_path), full_ref_(options.full_ref) {}

    void init(const VideoFormat& format) override {
        host_.init(format);
        format_ = format;
        if (!heatmaps_path_.empty()) heatmaps_ = std::make_unique<HeatmapWriter>(heatmaps_path_, host_.config());
    }
    std::vector<std::string> outputs() const override { return host_.outputs(); }
    std::size_t block_bytes() const override { return sizeof(CudaBlock); }
    bool uses_reference() const override { return full_ref_; }

    void prepare(cudaStream_t stream) override {
        pipeline_ = std::make_unique<CudaPipeline>(host_.config(), format_, stream);
    }

    void enqueue(const cuda::DeviceFrame& frame, std::byte* device_block, cudaStream_t stream) override {
        pipeline_->enqueue(frame, reinterpret_cast<CudaBlock*>(device_block), stream);
        if (heatmaps_) {
            cuda::PinnedBuffer planes = take_heatmap_buffer();
            pipeline_->copy_c_values(0, reinterpret_cast<float*>(planes.data()), stream);
            const std::lock_guard lock(heatmap_mutex_);
            heatmaps_in_flight_.push_back({frame.index, std::move(planes)});
        }
    }

    void finish(std::span<const std::byte> bytes, std::span<double> scores) override {
        const CudaBlock& block = block_as<CudaBlock>(bytes);
        const Config& config = host_.config();
        if (config.bit_depth != 8 && config.bit_depth != 16)
            for (int p = 0; p < pipeline_->pictures(); ++p) check_largest_sample(block.largest_sample[p], config.bit_depth);
        if (heatmaps_) write_heatmaps();
        Block scored;
        scored.distorted = picture_score(block, 0, config);
        if (config.full_ref) scored.reference = picture_score(block, 1, config);
        host_.finish(std::as_bytes(std::span(&scored, 1)), scores);
    }

private:
    cuda::PinnedBuffer take_heatmap_buffer() {
        const std::lock_guard lock(heatmap_mutex_);
        if (idle_heatmap_buffers_.empty()) return cuda::PinnedBuffer(pipeline_->c_value_count(0) * sizeof(float));
        cuda::PinnedBuffer buffer = std::move(idle_heatmap_buffers_.back());
        idle_heatmap_buffers_.pop_back();
        return buffer;
    }

    // The oldest frame in flight is the one being finished: frames are finished in the order they
    // were enqueued, and its copy is done once the frame is.
    void write_heatmaps() {
        HeatmapCopy copy;
        {
            const std::lock_guard lock(heatmap_mutex_);
            copy = std::move(heatmaps_in_flight_.front());
            heatmaps_in_flight_.pop_front();
        }
        cuda::PinnedBuffer& planes = copy.planes;
        const Config& config = host_.config();
        const auto sizes = scale_sizes(config.distorted.width, config.distorted.height, config.distorted.speedup);
        const auto* c = reinterpret_cast<const float*>(planes.data());
        HeatmapFrame frame;
        frame.frame_index = copy.frame_index;
        for (int s = 0; s < num_scales; ++s) {
            const auto [w, h] = sizes[std::size_t(s)];
            const std::size_t n = std::size_t(w) * std::size_t(h);
            frame.capture(s, std::span(c, n), w, h);
            c += n;
        }
        heatmaps_->write(heatmaps_->stash(std::move(frame)));
        const std::lock_guard lock(heatmap_mutex_);
        idle_heatmap_buffers_.push_back(std::move(planes));
    }

    CambiCpu host_;  // init, outputs and the score clamps; never computes a frame
    std::string heatmaps_path_;
    bool full_ref_;
    VideoFormat format_;
    std::unique_ptr<CudaPipeline> pipeline_;

    struct HeatmapCopy {
        std::uint64_t frame_index = 0;
        cuda::PinnedBuffer planes;  // every scale's c-values, back to back
    };
    std::unique_ptr<HeatmapWriter> heatmaps_;
    std::mutex heatmap_mutex_;
    std::deque<HeatmapCopy> heatmaps_in_flight_;
    std::vector<cuda::PinnedBuffer> idle_heatmap_buffers_;
};

}  // namespace
}  // namespace cambi

std::unique_ptr<Feature> make_cambi_cuda(const OptionValues& values) {
    return std::make_unique<cambi::CambiCuda>(cambi::Options::from(values));
}

}  // namespace vq
