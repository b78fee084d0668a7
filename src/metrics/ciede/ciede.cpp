// The `ciede` feature: its name, option table and twins (spec/ciede.md §1), and the host-side
// scoring both twins share.
#include "metrics/ciede/ciede.hpp"

#include "metrics/toolkit/definition.hpp"

namespace vq::ciede {

std::unique_ptr<CpuFeature> make_cpu(const OptionValues& values);
std::unique_ptr<Feature> make_cuda(const OptionValues& values);

FeatureDefinition definition() {
    return {
        .name = "ciede",
        .description =
            "CIEDE2000 colour difference with libvmaf's weights and quirks: ciede2000 "
            "(45 - 20*log10(mean dE00), larger is better)",
        // The reference accepts and ignores any option; vq rejects unknown keys like everywhere
        // else.
        .options =
            {
                boolean_option("reference_422", false, "",
                               "4:2:2 input: reproduce libvmaf's swapped chroma axes bit for bit "
                               "(default: true CIEDE2000 on 4:2:2)"),
            },
        .make_cpu = make_cpu,
        .make_cuda = VQ_CUDA_TWIN(make_cuda),
    };
}

Options Options::from(const OptionValues& values) { return {values.get_bool("reference_422")}; }

void Scorer::init(const VideoFormat& format) {
    chroma_ = chroma_addressing(format, options_.reference_422);
    scale_ = code_scale(format.bit_depth);
    format_ = format;
    pixel_count_ = static_cast<unsigned long long>(format.width) * unsigned(format.height);
}

void Scorer::finish(const Block& block, std::span<double> scores) const {
    scores[0] = frame_score(block.delta_e_sum, pixel_count_);
}

}  // namespace vq::ciede
