// SpEED, CUDA twins: speed_chroma scores the U and V planes of each frame pair on the device
// (spec/speed.md §10); speed_temporal scores the luma differences against the previous frame pair
// (§11), which it keeps on the device itself (frames reach a CUDA twin in order on one stream).
// Both write the CPU twin's block, so the same Scorer finishes them.
#include <optional>
#include <vector>

#include "cuda/check.hpp"
#include "cuda/cuda_feature.hpp"
#include "cuda/memory.hpp"
#include "metrics/speed/speed.hpp"
#include "metrics/speed/speed_cuda_pipeline.hpp"

namespace vq::speed {
namespace {

// Spec §10: a failed channel takes the other's score; otherwise the float mean.
__global__ void finish_chroma(const DeviceChannel* channels, ChromaBlock* block) {
    const DeviceChannel u = channels[0], v = channels[1];
    float uv;
    if (u.failed && !v.failed)
        uv = v.score;
    else if (v.failed && !u.failed)
        uv = u.score;
    else
        uv = float(double(u.score + v.score) / 2.0);
    *block = {u.score, v.score, uv};
}

__global__ void finish_temporal(const DeviceChannel* channel, TemporalBlock* block) {
    *block = {channel->score, true};
}

class ChromaCuda final : public ScorerTwin<cuda::CudaFeature, ChromaScorer> {
public:
    using ScorerTwin::ScorerTwin;

    void prepare(cudaStream_t) override {
        pipeline_.emplace(scorer_.config(), format().bit_depth, 2);
        channels_ = cuda::DeviceArray<DeviceChannel>(2);
    }

    void enqueue(const cuda::DeviceFrame& frame, std::byte* device_block,
                 cudaStream_t stream) override {
        const VideoFormat& f = format();
        ImageSources sources{};
        for (int plane = 1; plane <= 2; ++plane) {
            sources.image[2 * (plane - 1)] = {frame.reference + f.plane_offset(plane), nullptr};
            sources.image[2 * (plane - 1) + 1] = {frame.distorted + f.plane_offset(plane), nullptr};
        }
        pipeline_->enqueue(sources, channels_.data(), stream);
        finish_chroma<<<1, 1, 0, stream>>>(channels_.data(),
                                           reinterpret_cast<ChromaBlock*>(device_block));
        VQ_CUDA_CHECK_LAUNCH(finish_chroma);
    }

private:
    std::optional<DevicePipeline> pipeline_;
    cuda::DeviceArray<DeviceChannel> channels_;  // U, V
};

class TemporalCuda final : public ScorerTwin<cuda::CudaFeature, TemporalScorer> {
public:
    using ScorerTwin::ScorerTwin;

    void prepare(cudaStream_t) override {
        pipeline_.emplace(scorer_.config(), format().bit_depth, 1);
        channel_ = cuda::DeviceArray<DeviceChannel>(1);
        previous_reference_ = cuda::DeviceBuffer(format().plane_bytes(0));
        previous_distorted_ = cuda::DeviceBuffer(format().plane_bytes(0));
    }

    // Frame 0 has no previous pair (score 0, has_previous false: an all-zero block); then the
    // current luma planes replace the kept ones, in stream order.
    void enqueue(const cuda::DeviceFrame& frame, std::byte* device_block,
                 cudaStream_t stream) override {
        auto* block = reinterpret_cast<TemporalBlock*>(device_block);
        if (frames_ == 0) {
            cuda::zero_async(block, 1, stream);
        } else {
            const std::byte* dist =
                scorer_.config().options.use_ref_diff ? frame.reference : frame.distorted;
            ImageSources sources{};
            sources.image[0] = {previous_reference_.data(), frame.reference};
            sources.image[1] = {previous_distorted_.data(), dist};
            pipeline_->enqueue(sources, channel_.data(), stream);
            finish_temporal<<<1, 1, 0, stream>>>(channel_.data(), block);
            VQ_CUDA_CHECK_LAUNCH(finish_temporal);
        }
        const std::size_t bytes = format().plane_bytes(0);
        cuda::copy_async(previous_reference_.data(), frame.reference, bytes, stream);
        cuda::copy_async(previous_distorted_.data(), frame.distorted, bytes, stream);
        ++frames_;
    }

private:
    std::optional<DevicePipeline> pipeline_;
    cuda::DeviceArray<DeviceChannel> channel_;
    cuda::DeviceBuffer previous_reference_, previous_distorted_;
    std::size_t frames_ = 0;
};

}  // namespace

std::unique_ptr<Feature> make_chroma_cuda(const OptionValues& values) {
    return std::make_unique<ChromaCuda>(ChromaScorer(values));
}

std::unique_ptr<Feature> make_temporal_cuda(const OptionValues& values) {
    return std::make_unique<TemporalCuda>(TemporalScorer(values));
}

}  // namespace vq::speed
