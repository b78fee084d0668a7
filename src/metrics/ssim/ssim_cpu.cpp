// float_ssim and float_ms_ssim, CPU twins: the luma planes through the stages of
// ssim_cpu_stages.hpp with the best kernel variant this CPU runs.
#include "metrics/ssim/ssim.hpp"
#include "metrics/ssim/ssim_cpu_kernels.hpp"
#include "metrics/ssim/ssim_cpu_stages.hpp"
#include "metrics/ssim/ssim_tables.hpp"
#include "metrics/toolkit/sample_type.hpp"

namespace vq::ssim {
namespace {

// The planes and buffers of one frame's work, kept per thread so that a run allocates them once.
struct Workspace {
    FloatPlane ref[2];
    FloatPlane dist[2];
    Scratch scratch;
};

Workspace& thread_workspace() {
    thread_local Workspace workspace;
    return workspace;
}

// Spec §3: a picture's luma as a float plane.
void convert(const Picture& picture, FloatPlane& out) {
    const int bit_depth = picture.format().bit_depth;
    with_sample_type(bit_depth, [&](auto sample) {
        convert_luma(picture.plane<decltype(sample)>(0), bit_depth, out);
    });
}

// Spec §7.3 straight from a picture's luma: each sample is converted (§3) as it is read.
void downscale(const Picture& picture, int factor, std::span<const float> box,
               const Kernels& kernels, Scratch& scratch, FloatPlane& out) {
    const int bit_depth = picture.format().bit_depth;
    const float reciprocal = 1.0f / luma_divisor(bit_depth);
    with_sample_type(bit_depth, [&](auto sample) {
        decimate(picture.plane<decltype(sample)>(0), reciprocal, factor, box, factor, kernels,
                 scratch, out);
    });
}

class SsimCpu final : public ScorerTwin<CpuFeature, SsimScorer> {
public:
    using ScorerTwin::ScorerTwin;

    void init(const VideoFormat& format) override {
        ScorerTwin::init(format);
        box_ = box_kernel(scorer_.factor());
    }

    // Spec §8.2.
    void compute(const FramePair& pair, std::span<std::byte> bytes) const override {
        Workspace& w = thread_workspace();
        const int f = scorer_.factor();
        if (f > 1) {
            downscale(pair.reference, f, box_, kernels_, w.scratch, w.ref[0]);
            downscale(pair.distorted, f, box_, kernels_, w.scratch, w.dist[0]);
        } else {
            convert(pair.reference, w.ref[0]);
            convert(pair.distorted, w.dist[0]);
        }
        block_as<Block>(bytes).means = statistics(w.ref[0], w.dist[0], kernels_, w.scratch);
    }

private:
    const Kernels& kernels_ = best_kernels();
    std::vector<float> box_;
};

class MsSsimCpu final : public ScorerTwin<CpuFeature, MsSsimScorer> {
public:
    using ScorerTwin::ScorerTwin;

    // Spec §9.2-§9.3: the statistics of each scale, then the 2:1 decimation to the next.
    void compute(const FramePair& pair, std::span<std::byte> bytes) const override {
        Workspace& w = thread_workspace();
        convert(pair.reference, w.ref[0]);
        convert(pair.distorted, w.dist[0]);
        auto& block = block_as<Block>(bytes);
        for (int k = 0; k < ms_ssim_scales; ++k) {
            const int now = k % 2, next = 1 - now;
            block.scales[k] = statistics(w.ref[now], w.dist[now], kernels_, w.scratch);
            if (k + 1 == ms_ssim_scales) break;
            decimate(w.ref[now].view(), 1.0f, 2, lpf, lpf_taps, kernels_, w.scratch, w.ref[next]);
            decimate(w.dist[now].view(), 1.0f, 2, lpf, lpf_taps, kernels_, w.scratch, w.dist[next]);
        }
    }

private:
    const Kernels& kernels_ = best_kernels();
};

}  // namespace

std::unique_ptr<CpuFeature> make_ssim_cpu(const OptionValues& values) {
    return std::make_unique<SsimCpu>(SsimScorer(values));
}

std::unique_ptr<CpuFeature> make_ms_ssim_cpu(const OptionValues& values) {
    return std::make_unique<MsSsimCpu>(MsSsimScorer(values));
}

}  // namespace vq::ssim
