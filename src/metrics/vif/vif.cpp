// Integer VIF options, output names and the host-side scoring shared by both twins.
#include "metrics/vif/vif.hpp"

#include <fmt/format.h>

#include "metrics/toolkit/definition.hpp"
#include "vq/error.hpp"

namespace vq::vif {

std::unique_ptr<CpuFeature> make_cpu(const OptionValues& values);
std::unique_ptr<Feature> make_cuda(const OptionValues& values);

FeatureDefinition definition() {
    return {
        .name = "vif",
        .description =
            "integer VIF of VMAF: integer_vif_scale0..3, the per-scale visual "
            "information fidelity",
        .options =
            {
                real_option("vif_enhn_gain_limit", 100.0, 1.0, 100.0, "egl",
                            "clip the contrast gain to this (1 for VMAF NEG)"),
                boolean_option("vif_skip_scale0", false, "ssclz",
                               "skip scale 0 and report integer_vif_scale0 = 0"),
                boolean_option("debug", false, "",
                               "also emit integer_vif, integer_vif_num/den and their per-scale "
                               "values"),
            },
        .make_cpu = make_cpu,
        .make_cuda = VQ_CUDA_TWIN(make_cuda),
    };
}

Options Options::from(const OptionValues& values) {
    return {values.get_double("vif_enhn_gain_limit"), values.get_bool("vif_skip_scale0"),
            values.get_bool("debug"), values.output_suffix()};
}

ScaleScore score_scale(const ScaleSums& sums) {
    // Spec §2.7, operation for operation: double sums rounded to float, then a float quotient.
    const double num = double(sums.num_log) / 2048.0 +
                       (double(sums.den_non_log) - (double(sums.num_non_log) / 16384.0) / 65025.0);
    const double den = double(sums.den_log) / 2048.0 + double(sums.den_non_log);
    const float num_f = float(num);
    const float den_f = float(den);
    return {num_f, den_f, double(num_f / den_f)};
}

void Scorer::init(const VideoFormat& format) {
    if (format.width < min_dimension || format.height < min_dimension)
        throw usage_error(fmt::format(
            "vif: frames must be at least {0}x{0} (the mirrored filters of the coarsest scale "
            "need it); got {1}x{2}",
            min_dimension, format.width, format.height));
}

std::vector<std::string> Scorer::outputs() const {
    const std::string& suffix = options_.output_suffix;
    std::vector<std::string> names;
    for (int s = 0; s < 4; ++s) names.push_back(fmt::format("integer_vif_scale{}{}", s, suffix));
    if (options_.debug) {
        // Spec §6 lists the debug names as integer_vif, integer_vif_num, integer_vif_den,
        // integer_vif_{num,den}_scale{0..3}; they are emitted in that order, braces expanded.
        for (const char* name : {"integer_vif", "integer_vif_num", "integer_vif_den"})
            names.push_back(name + suffix);
        for (const char* part : {"num", "den"})
            for (int s = 0; s < 4; ++s)
                names.push_back(fmt::format("integer_vif_{}_scale{}{}", part, s, suffix));
    }
    return names;
}

void Scorer::finish(const Block& block, std::span<double> scores) const {
    std::array<ScaleScore, 4> scales;
    for (int s = 0; s < 4; ++s) scales[s] = score_scale(block.scales[s]);
    // A skipped scale 0 reports 0, and num 0 / den -1 in the debug outputs (spec §2.1).
    if (options_.skip_scale0) scales[0] = {0.0f, -1.0f, 0.0};
    for (int s = 0; s < 4; ++s) scores[s] = scales[s].score;
    if (!options_.debug) return;
    double num_total = 0, den_total = 0;
    for (const ScaleScore& scale : scales) {
        num_total += double(scale.num);
        den_total += double(scale.den);
    }
    scores[4] = den_total == 0 ? 1.0 : num_total / den_total;
    scores[5] = num_total;
    scores[6] = den_total;
    for (int s = 0; s < 4; ++s) {
        scores[7 + s] = double(scales[s].num);
        scores[11 + s] = double(scales[s].den);
    }
}

}  // namespace vq::vif
