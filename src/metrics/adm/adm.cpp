// ADM options (spec §2), the format checks and the outputs (§1, §11) shared by every twin.
#include "metrics/adm/adm.hpp"

#include <fmt/format.h>

#include "metrics/toolkit/definition.hpp"
#include "vq/error.hpp"

namespace vq::adm {

std::unique_ptr<CpuFeature> make_cpu(const OptionValues& values);
std::unique_ptr<Feature> make_cuda(const OptionValues& values);

FeatureDefinition definition() {
    return {
        .name = "adm",
        .description =
            "integer ADM (detail loss): integer_adm2, integer_aim, integer_adm3, "
            "integer_adm_scale0..3",
        .options =
            {
                boolean_option("debug", false, "",
                               "also emit integer_adm, integer_adm_num/den and their per-scale "
                               "values"),
                real_option("adm_enhn_gain_limit", 100.0, 1.0, 100.0, "egl",
                            "enhancement gain limit of the restored signal"),
                real_option("adm_norm_view_dist", 3.0, 0.75, 24.0, "nvd",
                            "viewing distance in display heights (CSF)"),
                integer_option("adm_ref_display_height", 1080, 1, 4320, "rdh",
                               "reference display height in pixels (CSF)"),
                integer_option("adm_csf_mode", 0, 0, 3, "csf",
                               "CSF: 0 Watson-97, 1 Barten, 2 Barten/Watson blend, 3 blend (MAE)"),
                real_option("adm_noise_weight", 0.03125, 0.0, 1500.0, "nw",
                            "weight of the noise-floor term in numerator and denominator"),
                real_option("adm_csf_scale", 1.0, 0.0, 50.0, "scf",
                            "Barten CSF scale (h, v bands)"),
                real_option("adm_csf_diag_scale", 1.0, 0.0, 50.0, "scfd",
                            "Barten CSF scale (d band)"),
                real_option("adm_dlm_weight", 0.5, 0.0, 1.0, "dlmw", "weight of adm2 in adm3"),
                real_option("adm_min_val", 0.0, 0.0, 1.0, "min", "lower clip of adm3"),
                boolean_option("adm_skip_scale0", false, "ssz", "skip scale 0 (adm_scale0 = 0)"),
                boolean_option("adm_skip_aim", false, "", "skip the AIM pass (aim = 0)"),
            },
        .make_cpu = make_cpu,
        .make_cuda = VQ_CUDA_TWIN(make_cuda),
    };
}

Options Options::from(const OptionValues& values) {
    Options o;
    o.debug = values.get_bool("debug");
    o.gain_limit = values.get_double("adm_enhn_gain_limit");
    o.view_distance = values.get_double("adm_norm_view_dist");
    o.display_height = int(values.get_int("adm_ref_display_height"));
    o.csf_mode = int(values.get_int("adm_csf_mode"));
    o.noise_weight = values.get_double("adm_noise_weight");
    o.csf_scale = values.get_double("adm_csf_scale");
    o.csf_diag_scale = values.get_double("adm_csf_diag_scale");
    o.dlm_weight = values.get_double("adm_dlm_weight");
    o.min_val = values.get_double("adm_min_val");
    o.skip_scale0 = values.get_bool("adm_skip_scale0");
    o.skip_aim = values.get_bool("adm_skip_aim");
    return o;
}

Scorer::Scorer(const OptionValues& values) : suffix_(values.output_suffix()) {
    config_.options = Options::from(values);
}

void Scorer::init(const VideoFormat& format) {
    const Options& o = config_.options;
    if (format.width < min_size || format.height < min_size)
        throw usage_error(
            fmt::format("adm: the frame is {}x{}; ADM needs at least {}x{} luma samples",
                        format.width, format.height, min_size, min_size));
    // The reference fails every frame below this viewing condition (spec §2).
    if (o.view_distance * o.display_height < 3.0 * 1080)
        throw usage_error(fmt::format(
            "adm: adm_norm_view_dist * adm_ref_display_height = {:g} is below the minimum 3240",
            o.view_distance * o.display_height));
    config_.bit_depth = format.bit_depth;
    config_.width = format.width;
    config_.height = format.height;
    config_.geometry = make_geometry(format.width, format.height);
    const CsfCondition condition{o.csf_mode, o.view_distance, o.display_height, o.csf_scale,
                                 o.csf_diag_scale};
    config_.factors = csf_factors(condition);
    config_.multipliers = csf_multipliers(config_.factors, condition);
}

std::vector<std::string> Scorer::outputs() const {
    std::vector<std::string> names = {"integer_adm2", "integer_aim", "integer_adm3"};
    for (int s = 0; s < scale_count; ++s) names.push_back(fmt::format("integer_adm_scale{}", s));
    if (config_.options.debug) {
        names.insert(names.end(), {"integer_adm", "integer_adm_num", "integer_adm_den"});
        for (int s = 0; s < scale_count; ++s) {
            names.push_back(fmt::format("integer_adm_num_scale{}", s));
            names.push_back(fmt::format("integer_adm_den_scale{}", s));
        }
    }
    for (auto& name : names) name += suffix_;
    return names;
}

void Scorer::finish(const Block& block, std::span<double> scores) const {
    const FrameScores frame = score_frame(block, config_);
    std::size_t out = 0;
    scores[out++] = frame.adm2;
    scores[out++] = frame.aim;
    scores[out++] = frame.adm3;
    for (double scale : frame.scale_score) scores[out++] = scale;
    if (config_.options.debug) {
        scores[out++] = frame.adm2;
        scores[out++] = frame.num_total;
        scores[out++] = frame.den_total;
        for (int s = 0; s < scale_count; ++s) {
            scores[out++] = double(frame.num[s]);
            scores[out++] = double(frame.den[s]);
        }
    }
}

}  // namespace vq::adm
