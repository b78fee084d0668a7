// PSNR-HVS, CPU twin: each plane's accumulator through the best row kernel this CPU runs.
#include "metrics/psnr_hvs/psnr_hvs.hpp"
#include "metrics/psnr_hvs/psnr_hvs_cpu_kernels.hpp"
#include "metrics/toolkit/sample_type.hpp"

namespace vq::psnr_hvs {
namespace {

class PsnrHvsCpu final : public ScorerTwin<CpuFeature, Scorer> {
public:
    using ScorerTwin::ScorerTwin;

    void compute(const FramePair& pair, std::span<std::byte> bytes) const override {
        auto& block = block_as<Block>(bytes);
        const Kernels& kernels = best_kernels();
        with_sample_type(pair.distorted.format().bit_depth, [&](auto sample) {
            using Sample = decltype(sample);
            for (int p = 0; p < 3; ++p)
                block.error_sum[p] =
                    plane_error_sum(kernels, scored_plane<Sample>(pair.reference, p),
                                    scored_plane<Sample>(pair.distorted, p), plane_tables(p));
        });
    }
};

}  // namespace

std::unique_ptr<CpuFeature> make_cpu(const OptionValues& values) {
    return std::make_unique<PsnrHvsCpu>(Scorer(values));
}

}  // namespace vq::psnr_hvs
