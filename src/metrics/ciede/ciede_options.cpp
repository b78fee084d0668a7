// The `ciede` feature: its name, option table and twins (spec/ciede.md §1).
#include "metrics/ciede/ciede.hpp"

namespace vq {

std::unique_ptr<CpuFeature> make_ciede_cpu(const OptionValues& values);
std::unique_ptr<Feature> make_ciede_cuda(const OptionValues& values);

FeatureDefinition ciede_definition() {
    FeatureDefinition definition;
    definition.name = "ciede";
    definition.description =
        "CIEDE2000 colour difference with libvmaf's weights and quirks: ciede2000 "
        "(45 - 20*log10(mean dE00), larger is better)";
    // The reference accepts and ignores any option; vq rejects unknown keys like everywhere else.
    definition.options = {
        {"reference_422", OptionType::boolean, false, 0, 0, {}, "",
         "4:2:2 input: reproduce libvmaf's swapped chroma axes bit for bit (default: true "
         "CIEDE2000 on 4:2:2)"},
    };
    definition.make_cpu = make_ciede_cpu;
#if VQ_WITH_CUDA
    definition.make_cuda = make_ciede_cuda;
#endif
    return definition;
}

CiedeOptions CiedeOptions::from(const OptionValues& values) {
    return {values.get_bool("reference_422")};
}

}  // namespace vq
