// SpEED, CPU twins: speed_chroma scores the U and V planes of each frame pair (spec/speed.md
// §10); speed_temporal scores luma frame differences against the previous frame pair, handed over
// by the temporal contract (FramePair::previous_references / previous_distorted; §11).
#include "metrics/speed/speed.hpp"
#include "metrics/speed/speed_stages.hpp"

namespace vq::speed {
namespace {

class ChromaCpu final : public ScorerTwin<CpuFeature, ChromaScorer> {
public:
    using ScorerTwin::ScorerTwin;

    void compute(const FramePair& pair, std::span<std::byte> bytes) const override {
        const Kernels& kernels = best_kernels();
        const auto channel = [&](int plane) {
            return score_channel(centred_rows(pair.reference, plane),
                                 centred_rows(pair.distorted, plane), scorer_.config(), kernels);
        };
        const ChannelScore u = channel(1), v = channel(2);
        // Spec §10: a failed channel takes the other's score; otherwise the float mean.
        float uv;
        if (u.failed && !v.failed)
            uv = v.score;
        else if (v.failed && !u.failed)
            uv = u.score;
        else
            uv = float(double(u.score + v.score) / 2.0);
        block_as<Block>(bytes) = {u.score, v.score, uv};
    }
};

class TemporalCpu final : public ScorerTwin<CpuFeature, TemporalScorer> {
public:
    using ScorerTwin::ScorerTwin;

    void compute(const FramePair& pair, std::span<std::byte> bytes) const override {
        auto& block = block_as<Block>(bytes);
        const Picture& previous_ref = pair.previous_references[0];
        const Picture& previous_dist = pair.previous_distorted[0];
        block = {0.0f, !previous_ref.empty() && !previous_dist.empty()};
        if (!block.has_previous) return;
        const Picture& dist =
            scorer_.config().options.use_ref_diff ? pair.reference : pair.distorted;
        const RowSource ref_diff =
            difference_rows(centred_rows(previous_ref, 0), centred_rows(pair.reference, 0));
        const RowSource dist_diff =
            difference_rows(centred_rows(previous_dist, 0), centred_rows(dist, 0));
        block.score = score_channel(ref_diff, dist_diff, scorer_.config(), best_kernels()).score;
    }
};

}  // namespace

std::unique_ptr<CpuFeature> make_chroma_cpu(const OptionValues& values) {
    return std::make_unique<ChromaCpu>(ChromaScorer(values));
}

std::unique_ptr<CpuFeature> make_temporal_cpu(const OptionValues& values) {
    return std::make_unique<TemporalCpu>(TemporalScorer(values));
}

}  // namespace vq::speed
