// float_ssim and float_ms_ssim, CPU twins: the luma planes through the stages of ssim_stages.hpp
// with the best kernel variant this CPU runs.
#include "metrics/ssim/ssim.hpp"
#include "metrics/ssim/ssim_kernels.hpp"
#include "metrics/ssim/ssim_stages.hpp"
#include "metrics/ssim/ssim_tables.hpp"

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

// Spec §3 for both pictures of a pair, into ref[0] and dist[0].
void convert_pair(const FramePair& pair, Workspace& w) {
    const int bit_depth = pair.distorted.format().bit_depth;
    if (bit_depth > 8) {
        convert_luma(pair.reference.plane<std::uint16_t>(0), bit_depth, w.ref[0]);
        convert_luma(pair.distorted.plane<std::uint16_t>(0), bit_depth, w.dist[0]);
    } else {
        convert_luma(pair.reference.plane<std::uint8_t>(0), bit_depth, w.ref[0]);
        convert_luma(pair.distorted.plane<std::uint8_t>(0), bit_depth, w.dist[0]);
    }
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
        convert_pair(pair, w);
        const int f = scorer_.factor();
        if (f > 1) {
            decimate(w.ref[0], f, box_, f, kernels_, w.scratch, w.ref[1]);
            decimate(w.dist[0], f, box_, f, kernels_, w.scratch, w.dist[1]);
        }
        const int scored = f > 1 ? 1 : 0;
        block_as<Block>(bytes).means =
            statistics(w.ref[scored], w.dist[scored], kernels_, w.scratch);
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
        convert_pair(pair, w);
        auto& block = block_as<Block>(bytes);
        for (int k = 0; k < ms_ssim_scales; ++k) {
            const int now = k % 2, next = 1 - now;
            block.scales[k] = statistics(w.ref[now], w.dist[now], kernels_, w.scratch);
            if (k + 1 == ms_ssim_scales) break;
            decimate(w.ref[now], 2, lpf, lpf_taps, kernels_, w.scratch, w.ref[next]);
            decimate(w.dist[now], 2, lpf, lpf_taps, kernels_, w.scratch, w.dist[next]);
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
