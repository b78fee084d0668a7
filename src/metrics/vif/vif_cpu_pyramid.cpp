// The per-frame pyramid walk of integer VIF.
#include "metrics/vif/vif_cpu_pyramid.hpp"

#include <cstdint>
#include <vector>

#include "metrics/vif/vif_cpu_stages.hpp"

namespace vq::vif {
namespace {

// A decimated scale of one plane: uint16 samples, rows packed.
struct ScaleImage {
    std::vector<std::uint16_t> samples;
    PlaneView<std::uint16_t> view;
};

template <typename Sample>
ScaleImage decimated(const PlaneView<Sample>& source, int destination_scale, int bits,
                     const Kernels& kernels) {
    ScaleImage image;
    const int width = source.width / 2;
    const int height = source.height / 2;
    image.samples.resize(std::size_t(width) * std::size_t(height));
    kernels.decimate(source, destination_scale, bits, image.samples.data());
    image.view = {image.samples.data(), width, height, width};
    return image;
}

}  // namespace

template <typename Sample>
Block compute_block(const PlaneView<Sample>& ref, const PlaneView<Sample>& dist, int bit_depth,
                    const Options& options, const Kernels& kernels) {
    Block block{};
    const double gain_limit = options.enhancement_gain_limit;
    if (!options.skip_scale0)
        block.scales[0] = kernels.statistics(ref, dist, 0, bit_depth, gain_limit);
    ScaleImage ref_scale = decimated(ref, 1, bit_depth, kernels);
    ScaleImage dist_scale = decimated(dist, 1, bit_depth, kernels);
    for (int scale = 1; scale < scale_count; ++scale) {
        const int bits = working_bits(scale, bit_depth);
        block.scales[scale] =
            kernels.statistics(ref_scale.view, dist_scale.view, scale, bits, gain_limit);
        if (scale + 1 == scale_count) break;
        ref_scale = decimated(ref_scale.view, scale + 1, bits, kernels);
        dist_scale = decimated(dist_scale.view, scale + 1, bits, kernels);
    }
    return block;
}

template Block compute_block(const PlaneView<std::uint8_t>&, const PlaneView<std::uint8_t>&, int,
                             const Options&, const Kernels&);
template Block compute_block(const PlaneView<std::uint16_t>&, const PlaneView<std::uint16_t>&, int,
                             const Options&, const Kernels&);

}  // namespace vq::vif
