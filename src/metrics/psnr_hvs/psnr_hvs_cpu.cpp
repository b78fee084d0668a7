// PSNR-HVS, CPU twin: each plane's accumulator through the best row kernel this CPU runs.
#include "metrics/psnr_hvs/psnr_hvs.hpp"
#include "metrics/psnr_hvs/psnr_hvs_kernels.hpp"

namespace vq::psnr_hvs {
namespace {

class PsnrHvsCpu final : public ScorerTwin<CpuFeature, Scorer> {
public:
    using ScorerTwin::ScorerTwin;

    void compute(const FramePair& pair, std::span<std::byte> bytes) const override {
        auto& block = block_as<Block>(bytes);
        const Kernels& kernels = best_kernels();
        for (int p = 0; p < 3; ++p)
            block.error_sum[p] =
                pair.distorted.format().bit_depth > 8
                    ? plane_error_sum(kernels, scored_plane<std::uint16_t>(pair.reference, p),
                                      scored_plane<std::uint16_t>(pair.distorted, p),
                                      plane_tables(p))
                    : plane_error_sum(kernels, scored_plane<std::uint8_t>(pair.reference, p),
                                      scored_plane<std::uint8_t>(pair.distorted, p),
                                      plane_tables(p));
    }
};

}  // namespace

std::unique_ptr<CpuFeature> make_cpu(const OptionValues& values) {
    return std::make_unique<PsnrHvsCpu>(Scorer(values));
}

}  // namespace vq::psnr_hvs
