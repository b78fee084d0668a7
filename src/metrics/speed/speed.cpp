// SpEED's option tables, their validation (spec/speed.md §1), the run's configuration (§4, §6)
// and the host-side scoring of both features (§10, §11).
#include "metrics/speed/speed.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "metrics/speed/speed_stages.hpp"
#include "metrics/toolkit/definition.hpp"
#include "vq/error.hpp"

namespace vq::speed {

std::unique_ptr<CpuFeature> make_chroma_cpu(const OptionValues& values);
std::unique_ptr<CpuFeature> make_temporal_cpu(const OptionValues& values);
std::unique_ptr<Feature> make_chroma_cuda(const OptionValues& values);
std::unique_ptr<Feature> make_temporal_cuda(const OptionValues& values);

namespace {

// Spec §1.1: the options both features share, followed by the feature's own (speed_chroma's
// weighting mode, speed_temporal's reference-difference switch).
std::vector<OptionSpec> options_with(OptionSpec own) {
    return {
        real_option(
            "speed_kernelscale", 1.0, 0.1, 4.0, "ks",
            "widen the Gaussian kernels (one of the allowed scales, e.g. 0.5, 1, 1.5, 2, 3)"),
        real_option("speed_prescale", 1.0, 0.1, 4.0, "ps",
                    "rescale each plane by this before anything else"),
        text_option("speed_prescale_method", "nearest",
                    {"nearest", "bilinear", "bicubic", "lanczos4"}, "psm",
                    "how the prescale resamples"),
        real_option("speed_sigma_nn", 0.29, 0.1, 2.0, "snn", "neural-noise standard deviation"),
        real_option("speed_nn_floor", 0.0, 0.0, 1.0, "nnf",
                    "noise floor as a fraction of sigma_nn: blocks below it are skipped"),
        real_option(
            "speed_max_val", 1000.0, 0.0, 1000.0, "mxv",
            "clip every score to this (speed_temporal: named, never applied, as in libvmaf)"),
        std::move(own),
    };
}

// Spec §6: the kernel scales the reference accepts, as floats.
constexpr float allowed_kernel_scales[] = {
    1.0f,        0.5f,        1.5f,         2.0f,         2.0f / 3.0f, 2.4f,     360.0f / 97.0f,
    4.0f / 3.0f, 3.5f / 3.0f, 3.75f / 3.0f, 4.25f / 3.0f, 5.0f / 3.0f, 3.0f,     1.0f / 2.25f,
    1.4746f,     1.54f,       1.6f,         1.06667f,     0.711111f,   0.74074f, 1.111111f};

PrescaleMethod method_named(const std::string& name) {
    if (name == "bilinear") return PrescaleMethod::bilinear;
    if (name == "bicubic") return PrescaleMethod::bicubic;
    if (name == "lanczos4") return PrescaleMethod::lanczos4;
    return PrescaleMethod::nearest;
}

}  // namespace

FeatureDefinition chroma_definition() {
    return {
        .name = "speed_chroma",
        .description =
            "SpEED on the chroma planes (VMAF v1.0.16): speed_chroma_u, speed_chroma_v, "
            "speed_chroma_uv",
        .options = options_with(integer_option("speed_weight_var_mode", 0, 0, 6, "wvm",
                                               "how block variances weight the entropies (0..6)")),
        .make_cpu = make_chroma_cpu,
        .make_cuda = VQ_CUDA_TWIN(make_chroma_cuda),
    };
}

FeatureDefinition temporal_definition() {
    return {
        .name = "speed_temporal",
        .description = "SpEED on luma frame differences: speed_temporal (0 on frame 0)",
        .options = options_with(
            boolean_option("speed_use_ref_diff", false, "urd",
                           "difference the previous distorted frame with the reference")),
        .make_cpu = make_temporal_cpu,
        .make_cuda = VQ_CUDA_TWIN(make_temporal_cuda),
    };
}

Options Options::from(const OptionValues& values, const char* feature) {
    Options o;
    o.kernel_scale = float(values.get_double("speed_kernelscale"));
    const float ks = o.kernel_scale;
    if (std::none_of(std::begin(allowed_kernel_scales), std::end(allowed_kernel_scales),
                     [&](float allowed) { return std::fabs(ks - allowed) < 1e-3f; }))
        throw usage_error(fmt::format(
            "feature '{}': invalid speed_kernelscale {:g} (allowed: 0.444444, 0.5, 0.666667, "
            "0.711111, 0.74074, 1, 1.06667, 1.11111, 1.16667, 1.25, 1.33333, 1.41667, 1.4746, "
            "1.5, 1.54, 1.6, 1.66667, 2, 2.4, 3, 3.71134, each within 1e-3)",
            feature, values.get_double("speed_kernelscale")));
    o.prescale = values.get_double("speed_prescale");
    o.method = method_named(values.get_string("speed_prescale_method"));
    o.sigma_nn = float(values.get_double("speed_sigma_nn"));
    o.nn_floor = float(values.get_double("speed_nn_floor"));
    o.max_value = values.get_double("speed_max_val");
    o.output_suffix = values.output_suffix();
    return o;
}

bool Options::rescales() const { return std::fabs(prescale - 1.0) >= 1e-3; }

Config::Config(const Options& o, int width, int height, const char* feature)
    : options(o), plane_width(width), plane_height(height) {
    const int anti_alias = anti_alias_size(o.kernel_scale);
    const int local_mean = local_mean_size(o.kernel_scale);
    anti_alias_taps = gaussian_taps(anti_alias, anti_alias_sigma(anti_alias));
    local_mean_taps = gaussian_taps(local_mean, local_mean_sigma(local_mean));
    // Spec §4: the scaled size, in double, truncated.
    scaled_width = int(double(width) * o.prescale + 0.5);
    scaled_height = int(double(height) * o.prescale + 0.5);
    if (!o.rescales() && (scaled_width != width || scaled_height != height))
        throw usage_error(fmt::format(
            "feature '{}': speed_prescale {:g} is within 1e-3 of 1 but changes the {}x{} plane's "
            "size (libvmaf then reads past the plane); use 1 or a value at least 1e-3 away",
            feature, o.prescale, width, height));
    // Spec §4: the operating size (the scaled size / 16) must hold at least one 5x5 block.
    constexpr int least = decimation * block_side;
    if (scaled_width < least || scaled_height < least)
        throw usage_error(fmt::format(
            "feature '{}' needs planes of at least {}x{} after speed_prescale; this video's are "
            "{}x{}, prescaled to {}x{}",
            feature, least, least, width, height, scaled_width, scaled_height));
}

ChromaScorer::ChromaScorer(const OptionValues& values)
    : options_(Options::from(values, "speed_chroma")) {
    options_.weight_mode = int(values.get_int("speed_weight_var_mode"));
}

void ChromaScorer::init(const VideoFormat& format) {
    if (format.chroma == ChromaFormat::yuv400)
        throw usage_error("feature 'speed_chroma' needs chroma planes; this video is 4:0:0");
    config_.emplace(options_, format.plane_width(1), format.plane_height(1), "speed_chroma");
}

std::vector<std::string> ChromaScorer::outputs() const {
    const std::string& suffix = options_.output_suffix;
    return {"speed_chroma_u" + suffix, "speed_chroma_v" + suffix, "speed_chroma_uv" + suffix};
}

void ChromaScorer::finish(const Block& block, std::span<double> scores) const {
    // Spec §10: "x < mxv ? x : mxv" on the widened float.
    const double most = options_.max_value;
    const auto clip = [&](float x) { return double(x) < most ? double(x) : most; };
    scores[0] = clip(block.u);
    scores[1] = clip(block.v);
    scores[2] = clip(block.uv);
}

TemporalScorer::TemporalScorer(const OptionValues& values)
    : options_(Options::from(values, "speed_temporal")) {
    options_.use_ref_diff = values.get_bool("speed_use_ref_diff");
    // Spec §11: the reference rescales in place in W x H buffers, so an upscale overflows them.
    if (options_.rescales() && options_.prescale > 1.0)
        throw usage_error(
            fmt::format("feature 'speed_temporal': speed_prescale must be at most 1, got {:g}",
                        options_.prescale));
}

void TemporalScorer::init(const VideoFormat& format) {
    config_.emplace(options_, format.width, format.height, "speed_temporal");
}

std::vector<std::string> TemporalScorer::outputs() const {
    return {"speed_temporal" + options_.output_suffix};
}

void TemporalScorer::finish(const Block& block, std::span<double> scores) const {
    // Spec §11: never clipped by speed_max_val.
    scores[0] = block.has_previous ? double(block.score) : 0.0;
}

}  // namespace vq::speed
