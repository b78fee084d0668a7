// float_ssim and float_ms_ssim, CUDA twins: every stage on the device from the luma the executor
// uploaded (conversion or float_ssim's box decimation, the MS-SSIM pyramid, the Gaussian
// statistics, the per-position terms, the sums), writing the same SsimBlock / MsSsimBlock as the
// CPU twins, which the same Scorers turn into scores on the host.
//
// Bits: every per-position value is the CPU twin's operation sequence (ssim_math.hpp is shared;
// no libm function is involved, --fmad=false). The sums of spec §6.3 are serial double sums in the
// CPU twin and are not exact in general (l and c are full doubles), so the device reproduces the
// serial order's roundings exactly with the toolkit's ordered sums
// (metrics/toolkit/ordered_sum.hpp) instead of reordering them.
#include <cstddef>
#include <memory>
#include <optional>
#include <vector>

#include "cuda/cuda_feature.hpp"
#include "cuda/memory.hpp"
#include "metrics/ssim/ssim.hpp"
#include "metrics/ssim/ssim_cuda_kernels.cuh"
#include "metrics/toolkit/sample_type.hpp"

namespace vq::ssim {
namespace {

std::size_t area(int width, int height) { return std::size_t(width) * std::size_t(height); }

// One scale's planes (unless it reads the uploaded luma itself), terms and sum scratch.
struct ScaleBuffers {
    int width;
    int height;
    cuda::DeviceArray<float> ref;
    cuda::DeviceArray<float> dist;
    cuda::DeviceArray<double> l;
    cuda::DeviceArray<double> c;
    cuda::DeviceArray<float> s;
    cuda::DeviceArray<double> approximate;
    cuda::DeviceArray<double> prefix;
    cuda::DeviceArray<ordered::Grid> chunks;
    cuda::DeviceArray<ordered::Grid> groups;
    cuda::DeviceArray<ordered::Grid> supers;

    ScaleBuffers(int w, int h, bool own_planes)
        : width(w),
          height(h),
          ref(own_planes ? cuda::DeviceArray<float>(area(w, h)) : cuda::DeviceArray<float>()),
          dist(own_planes ? cuda::DeviceArray<float>(area(w, h)) : cuda::DeviceArray<float>()),
          l(valid()),
          c(valid()),
          s(valid()),
          approximate(per_stream(0)),
          prefix(per_stream(0)),
          chunks(per_stream(0)),
          groups(per_stream(1)),
          supers(per_stream(2)) {}

    std::size_t valid() const { return area(width - (window - 1), height - (window - 1)); }
    // Level `level`'s Grids (or chunk sums) for the four streams.
    std::size_t per_stream(int level) const {
        return gpu::sum_streams * std::size_t(ordered::level_size(level, (long long)valid()));
    }

    gpu::TermPlanes terms() const { return {l.data(), c.data(), s.data(), (long long)valid()}; }

    gpu::SumScale sum_scale(Means* means) const {
        return {terms(),       width - (window - 1), height - (window - 1), approximate.data(),
                prefix.data(), chunks.data(),        groups.data(),         supers.data(),
                means};
    }
};

// The scales of one feature: scale 0 of width x height, each next one decimated 2:1 (§9.2).
// Scale 0 reads the uploaded luma itself (spec §3's conversion as each sample is read) unless
// `own_first_planes` (float_ssim's box decimation writes them).
class Pipeline {
public:
    Pipeline(int width, int height, int scales, bool own_first_planes, cudaStream_t stream) {
        gpu::upload_tables(stream);
        scales_.reserve(std::size_t(scales));
        for (int k = 0; k < scales; ++k) {
            scales_.emplace_back(width, height, k > 0 || own_first_planes);
            // The chunk sums start at zero; after that, each frame's sums() leaves them zero.
            cuda::zero_async(scales_.back().approximate.data(), scales_.back().approximate.size(),
                             stream);
            width = decimated_size(width, 2);
            height = decimated_size(height, 2);
        }
    }

    ScaleBuffers& scale(int k) { return scales_[std::size_t(k)]; }

    // Spec §5-§6.2 on scale k, whose planes are `ref` and `dist` (each sample times
    // `reciprocal` as it is read).
    template <typename Sample>
    void statistics(int k, const Sample* ref, const Sample* dist, float reciprocal,
                    cudaStream_t stream) {
        ScaleBuffers& s = scale(k);
        gpu::terms(ref, dist, reciprocal, s.width, s.height, s.terms(), s.approximate.data(),
                   stream);
    }

    // The same on scale k's own planes.
    void statistics(int k, cudaStream_t stream) {
        ScaleBuffers& s = scale(k);
        statistics(k, s.ref.data(), s.dist.data(), 1.0f, stream);
    }

    // Spec §9.2: scale k's planes `ref` and `dist` decimated into scale k + 1's.
    template <typename Sample>
    void decimate(int k, const Sample* ref, const Sample* dist, float reciprocal,
                  cudaStream_t stream) {
        const ScaleBuffers& from = scale(k);
        ScaleBuffers& to = scale(k + 1);
        gpu::pyramid_decimate(ref, reciprocal, from.width, from.height, to.ref.data(), stream);
        gpu::pyramid_decimate(dist, reciprocal, from.width, from.height, to.dist.data(), stream);
    }

    void decimate(int k, cudaStream_t stream) {
        ScaleBuffers& s = scale(k);
        decimate(k, s.ref.data(), s.dist.data(), 1.0f, stream);
    }

    // Spec §6.3-§6.4 for every scale, into means[0..scales).
    void sums(Means* means, cudaStream_t stream) const {
        gpu::SumJob job{};
        job.scale_count = int(scales_.size());
        for (std::size_t k = 0; k < scales_.size(); ++k)
            job.scales[k] = scales_[k].sum_scale(means + k);
        gpu::sums(job, stream);
    }

private:
    std::vector<ScaleBuffers> scales_;
};

// use(ref, dist, reciprocal) on both uploaded luma planes with their sample type, and spec §3's
// factor 1 / divisor.
template <typename Use>
void with_luma(const cuda::DeviceFrame& frame, const VideoFormat& format, const Use& use) {
    const float reciprocal = 1.0f / luma_divisor(format.bit_depth);
    with_sample_type(format.bit_depth, [&](auto sample) {
        using Sample = decltype(sample);
        use(cuda::DeviceFrame::plane<Sample>(frame.reference, format, 0),
            cuda::DeviceFrame::plane<Sample>(frame.distorted, format, 0), reciprocal);
    });
}

class SsimCuda final : public ScorerTwin<cuda::CudaFeature, SsimScorer> {
public:
    using ScorerTwin::ScorerTwin;

    void prepare(cudaStream_t stream) override {
        const int f = scorer_.factor();
        const int width = f > 1 ? decimated_size(format().width, f) : format().width;
        const int height = f > 1 ? decimated_size(format().height, f) : format().height;
        pipeline_.emplace(width, height, 1, f > 1, stream);
    }

    // Spec §8.2: the statistics of the luma itself, or of its box decimation (§7.3).
    void enqueue(const cuda::DeviceFrame& frame, std::byte* device_block,
                 cudaStream_t stream) override {
        const int factor = scorer_.factor();
        with_luma(frame, format(), [&](const auto* ref, const auto* dist, float reciprocal) {
            if (factor == 1) {
                pipeline_->statistics(0, ref, dist, reciprocal, stream);
                return;
            }
            ScaleBuffers& scale = pipeline_->scale(0);
            gpu::box_decimate(ref, format().width, format().height, reciprocal, factor,
                              scale.ref.data(), stream);
            gpu::box_decimate(dist, format().width, format().height, reciprocal, factor,
                              scale.dist.data(), stream);
            pipeline_->statistics(0, stream);
        });
        pipeline_->sums(reinterpret_cast<Means*>(device_block + offsetof(SsimBlock, means)),
                        stream);
    }

private:
    std::optional<Pipeline> pipeline_;
};

class MsSsimCuda final : public ScorerTwin<cuda::CudaFeature, MsSsimScorer> {
public:
    using ScorerTwin::ScorerTwin;

    void prepare(cudaStream_t stream) override {
        pipeline_.emplace(format().width, format().height, ms_ssim_scales, false, stream);
    }

    // Spec §9.2-§9.3: the statistics of each scale, then the 2:1 decimation to the next; scale 0
    // is the luma itself.
    void enqueue(const cuda::DeviceFrame& frame, std::byte* device_block,
                 cudaStream_t stream) override {
        with_luma(frame, format(), [&](const auto* ref, const auto* dist, float reciprocal) {
            pipeline_->statistics(0, ref, dist, reciprocal, stream);
            pipeline_->decimate(0, ref, dist, reciprocal, stream);
        });
        for (int k = 1; k < ms_ssim_scales; ++k) {
            pipeline_->statistics(k, stream);
            if (k + 1 < ms_ssim_scales) pipeline_->decimate(k, stream);
        }
        pipeline_->sums(reinterpret_cast<Means*>(device_block + offsetof(MsSsimBlock, scales)),
                        stream);
    }

private:
    std::optional<Pipeline> pipeline_;
};

}  // namespace

std::unique_ptr<Feature> make_ssim_cuda(const OptionValues& values) {
    return std::make_unique<SsimCuda>(SsimScorer(values));
}

std::unique_ptr<Feature> make_ms_ssim_cuda(const OptionValues& values) {
    return std::make_unique<MsSsimCuda>(MsSsimScorer(values));
}

}  // namespace vq::ssim
