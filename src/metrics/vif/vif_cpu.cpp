// Integer VIF, CPU twin: the exact per-scale accumulators from the two luma planes, with the
// best stage variant this CPU runs.
#include "metrics/vif/vif.hpp"
#include "metrics/toolkit/sample_type.hpp"
#include "metrics/vif/vif_cpu_kernels.hpp"
#include "metrics/vif/vif_cpu_pyramid.hpp"

namespace vq::vif {
namespace {

class VifCpu final : public ScorerTwin<CpuFeature, Scorer> {
public:
    using ScorerTwin::ScorerTwin;

    void compute(const FramePair& pair, std::span<std::byte> bytes) const override {
        const int bit_depth = pair.distorted.format().bit_depth;
        const Options& options = scorer_.options();
        block_as<Block>(bytes) = with_sample_type(bit_depth, [&](auto sample) {
            using Sample = decltype(sample);
            return compute_block(pair.reference.plane<Sample>(0), pair.distorted.plane<Sample>(0),
                                 bit_depth, options, kernels_);
        });
    }

private:
    const Kernels& kernels_ = best_kernels();
};

}  // namespace

std::unique_ptr<CpuFeature> make_cpu(const OptionValues& values) {
    return std::make_unique<VifCpu>(Scorer(values));
}

}  // namespace vq::vif
