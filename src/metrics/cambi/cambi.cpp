// The `cambi` feature: its option table (spec §2), how the options are read, and the host-side
// scoring both twins share.

#include "metrics/cambi/cambi.hpp"

#include <memory>

#include "metrics/cambi/cambi_heatmap.hpp"
#include "metrics/toolkit/definition.hpp"

namespace vq::cambi {

std::unique_ptr<CpuFeature> make_cpu(const OptionValues& values);
std::unique_ptr<Feature> make_cuda(const OptionValues& values);

namespace {

OptionSpec eotf_option(std::string key, std::string alias, std::string description) {
    return text_option(std::move(key), "bt1886", {"bt1886", "pq"}, std::move(alias),
                       std::move(description));
}

// Aliases are libvmaf's: they name the outputs of non-default options (§12). Options without
// an alias of their own (topk, eotf) use their key; full_ref, reference_order and heatmaps_path
// rename nothing.
std::vector<OptionSpec> option_table() {
    return {
        integer_option(
            "window_size", 65, 15, 127, "ws",
            "c-value window at 4K, scaled to the processing size (at most 65 after scaling)"),
        real_option("topk", 0.6, 0.0001, 1.0, "topk", "fraction of c-values pooled per scale"),
        real_option("cambi_topk", 0.6, 0.0001, 1.0, "ctpk", "same as topk; used when topk is 0.6"),
        real_option("tvi_threshold", 0.019, 0.0001, 1.0, "tvit",
                    "relative luminance step considered visible"),
        real_option("cambi_vis_lum_threshold", 0.0, 0.0, 300.0, "vlt",
                    "luminance (cd/m²) below which banding is ignored"),
        integer_option("max_log_contrast", 2, 0, 5, "mlc", "log2 of the number of contrast steps"),
        integer_option("enc_width", 0, 180, 7680, "encw",
                       "processing width of the distorted picture"),
        integer_option("enc_height", 0, 150, 7680, "ench",
                       "processing height of the distorted picture"),
        integer_option("enc_bitdepth", 0, 6, 16, "encbd",
                       "bit depth of the encode; below 10 turns on the anti-dithering filter"),
        integer_option("src_width", 0, 320, 7680, "srcw",
                       "processing width of the reference picture"),
        integer_option("src_height", 0, 200, 4320, "srch",
                       "processing height of the reference picture"),
        eotf_option("eotf", "eotf", "EOTF of the visibility thresholds"),
        eotf_option("cambi_eotf", "ceot", "same as eotf; used when not bt1886"),
        integer_option("cambi_high_res_speedup", 0, 0, 2160, "hrs",
                       "1080, 1440 or 2160: halve the work for encodes at least that large"),
        real_option("cambi_max_val", 1000.0, 0.0, 1000.0, "cmxv", "upper clip of every score"),
        boolean_option("full_ref", false, "",
                       "also score the reference picture (cambi_source, cambi_full_reference)"),
        boolean_option("reference_order", false, "",
                       "CUDA: where a top-k sum is too large for the reference's double sum to be "
                       "exact, copy the c-values back and pool them in the reference's order (its "
                       "last digit, at a cost); the CPU always does"),
        text_option("heatmaps_path", "", {}, "",
                    "directory for per-scale c-value heatmaps (raw .gray and .png)"),
    };
}

}  // namespace

Options Options::from(const OptionValues& values) {
    Options options;
    options.window_size = int(values.get_int("window_size"));
    options.topk = values.get_double("topk");
    options.cambi_topk = values.get_double("cambi_topk");
    options.tvi_threshold = values.get_double("tvi_threshold");
    options.vis_lum_threshold = values.get_double("cambi_vis_lum_threshold");
    options.max_log_contrast = int(values.get_int("max_log_contrast"));
    options.enc_width = int(values.get_int("enc_width"));
    options.enc_height = int(values.get_int("enc_height"));
    options.enc_bitdepth = int(values.get_int("enc_bitdepth"));
    options.src_width = int(values.get_int("src_width"));
    options.src_height = int(values.get_int("src_height"));
    options.eotf = values.get_string("eotf");
    options.cambi_eotf = values.get_string("cambi_eotf");
    options.high_res_speedup = int(values.get_int("cambi_high_res_speedup"));
    options.max_val = values.get_double("cambi_max_val");
    options.full_ref = values.get_bool("full_ref");
    options.reference_order = values.get_bool("reference_order");
    options.heatmaps_path = values.get_string("heatmaps_path");
    options.output_name = "cambi" + values.output_suffix();
    return options;
}

FeatureDefinition definition() {
    return {
        .name = "cambi",
        .description =
            "CAMBI banding score (no-reference; full_ref=true also scores the reference)",
        .options = option_table(),
        .make_cpu = make_cpu,
        .make_cuda = VQ_CUDA_TWIN(make_cuda),
    };
}

Scorer::Scorer(Options options) : options_(std::move(options)) {}
Scorer::Scorer(Scorer&&) noexcept = default;
Scorer& Scorer::operator=(Scorer&&) noexcept = default;
Scorer::~Scorer() = default;

void Scorer::init(const VideoFormat& format) {
    config_ = resolve_config(options_, format);
    format_ = format;
    if (!config_.heatmaps_path.empty())
        heatmaps_ = std::make_unique<HeatmapWriter>(config_.heatmaps_path, config_);
}

std::vector<std::string> Scorer::outputs() const {
    if (!config_.full_ref) return {config_.output_name};
    return {config_.output_name, "cambi_source", "cambi_full_reference"};
}

namespace {

double clamp_to(double value, double max_val) { return value < max_val ? value : max_val; }

}  // namespace

void Scorer::finish(const Block& block, std::span<double> scores) {
    if (heatmaps_ && block.heatmap_ticket) heatmaps_->write(block.heatmap_ticket);
    // §11.3: the full-reference difference uses the unclamped scores.
    scores[0] = clamp_to(block.distorted, config_.max_val);
    if (config_.full_ref) {
        const double difference = block.distorted - block.reference;
        scores[1] = clamp_to(block.reference, config_.max_val);
        scores[2] = clamp_to(0 > difference ? 0 : difference, config_.max_val);
    }
}

}  // namespace vq::cambi
