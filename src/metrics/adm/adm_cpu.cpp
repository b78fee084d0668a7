// ADM, CPU twin: the streamed integer pipeline with the best row kernels this CPU runs.
#include "metrics/adm/adm.hpp"
#include "metrics/adm/adm_cpu_pipeline.hpp"

namespace vq::adm {
namespace {

class AdmCpu final : public ScorerTwin<CpuFeature, Scorer> {
public:
    using ScorerTwin::ScorerTwin;

    void compute(const FramePair& pair, std::span<std::byte> bytes) const override {
        // Frames run concurrently on the executor's threads; each thread keeps its own buffers.
        thread_local Workspace workspace;
        compute_block(scorer_.config(), best_kernels(), pair.reference, pair.distorted, workspace,
                      block_as<Block>(bytes));
    }
};

}  // namespace

std::unique_ptr<CpuFeature> make_cpu(const OptionValues& values) {
    return std::make_unique<AdmCpu>(Scorer(values));
}

}  // namespace vq::adm
