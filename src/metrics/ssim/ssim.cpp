// float_ssim and float_ms_ssim: their option tables, size checks, output names and the host-side
// scoring (spec §1, §8.1, §9.1, §9.4, §10.1).
#include "metrics/ssim/ssim.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include <fmt/format.h>

#include "metrics/ssim/ssim_tables.hpp"
#include "metrics/toolkit/definition.hpp"
#include "vq/error.hpp"

namespace vq::ssim {

std::unique_ptr<CpuFeature> make_ssim_cpu(const OptionValues& values);
std::unique_ptr<CpuFeature> make_ms_ssim_cpu(const OptionValues& values);
std::unique_ptr<Feature> make_ssim_cuda(const OptionValues& values);     // ssim_cuda.cu
std::unique_ptr<Feature> make_ms_ssim_cuda(const OptionValues& values);  // (CUDA builds only)

namespace {

// The options both features share, whose descriptions name the feature's score. No option renames
// an output (spec §1.3): none has an alias.
std::string lcs_description(const char* score) {
    return fmt::format("also emit the mean luminance, contrast and structure terms of {}", score);
}

std::string db_description(const char* score) {
    return fmt::format("write {} in dB: -10 log10(1 - score)", score);
}

constexpr const char* clip_db_description =
    "with enable_db, cap the dB value at the largest a frame of this size and depth can reach";

// The reference scales only these depths to the 8-bit range (spec §3); any other it reads as
// bytes, which gives no meaningful score.
void require_supported_depth(const char* feature, int bit_depth) {
    if (luma_divisor(bit_depth) == 0)
        throw usage_error(fmt::format(
            "{}: {}-bit video is not supported; the reference defines it for 8, 10, 12 and 16 bits",
            feature, bit_depth));
}

}  // namespace

FeatureDefinition ssim_definition() {
    return {
        .name = "float_ssim",
        .description =
            "SSIM of the luma plane (float_ssim), after an optional downscale; l/c/s on request",
        .options =
            {
                boolean_option("enable_lcs", false, "", lcs_description("float_ssim")),
                boolean_option("enable_db", false, "", db_description("float_ssim")),
                boolean_option("clip_db", false, "", clip_db_description),
                integer_option("scale", 0, 0, 10, "",
                               "downscale factor before SSIM: 0 = automatic "
                               "(round(min(w,h)/256)), 1 = none, 2..10 = that factor"),
            },
        .make_cpu = make_ssim_cpu,
        .make_cuda = VQ_CUDA_TWIN(make_ssim_cuda),
    };
}

FeatureDefinition ms_ssim_definition() {
    return {
        .name = "float_ms_ssim",
        .description =
            "five-scale MS-SSIM of the luma plane (float_ms_ssim); per-scale l/c/s on request",
        .options =
            {
                boolean_option("enable_lcs", false, "", lcs_description("float_ms_ssim")),
                boolean_option("enable_db", false, "", db_description("float_ms_ssim")),
                boolean_option("clip_db", false, "", clip_db_description),
            },
        .make_cpu = make_ms_ssim_cpu,
        .make_cuda = VQ_CUDA_TWIN(make_ms_ssim_cuda),
    };
}

Options Options::for_ssim(const OptionValues& values) {
    return {values.get_bool("enable_lcs"), values.get_bool("enable_db"), values.get_bool("clip_db"),
            int(values.get_int("scale"))};
}

Options Options::for_ms_ssim(const OptionValues& values) {
    return {values.get_bool("enable_lcs"), values.get_bool("enable_db"), values.get_bool("clip_db"),
            0};
}

int automatic_factor(int width, int height) {
    const float ratio = float(std::min(width, height)) / 256.0f;
    const int whole = int(ratio);
    const int rounded = ratio - float(whole) >= 0.5f ? whole + 1 : whole;  // half up
    return std::max(1, rounded);
}

Decibels::Decibels(bool clip, const VideoFormat& format) {
    if (!clip) return;
    // 32-bit unsigned products, as the reference forms them (65535^2 still fits).
    const std::uint32_t peak = (std::uint32_t(1) << format.bit_depth) - 1;
    const std::uint32_t peak_squared = peak * peak;
    const std::uint32_t samples = std::uint32_t(format.width) * std::uint32_t(format.height);
    max_db_ = std::ceil(10 * std::log10(double(peak_squared) / (0.5 / double(samples))));
}

double Decibels::operator()(double x) const {
    const double db = -10 * std::log10(1 - x);
    return db < max_db_ ? db : max_db_;
}

void SsimScorer::init(const VideoFormat& format) {
    require_supported_depth("float_ssim", format.bit_depth);
    factor_ = options_.scale > 0 ? options_.scale : automatic_factor(format.width, format.height);
    const int width = factor_ > 1 ? decimated_size(format.width, factor_) : format.width;
    const int height = factor_ > 1 ? decimated_size(format.height, factor_) : format.height;
    // Below the window the reference divides an empty sum by a count of zero or less (§10.2).
    if (width < window || height < window) {
        if (factor_ == 1)
            throw usage_error(fmt::format(
                "float_ssim: the luma plane must be at least {0}x{0} for the Gaussian window; got "
                "{1}x{2}",
                window, format.width, format.height));
        throw usage_error(fmt::format(
            "float_ssim: the luma plane downscaled by {0} must be at least {1}x{1} for the "
            "Gaussian window; {2}x{3} becomes {4}x{5} (a smaller scale option may help)",
            factor_, window, format.width, format.height, width, height));
    }
    if (options_.enable_db) decibels_ = Decibels(options_.clip_db, format);
}

std::vector<std::string> SsimScorer::outputs() const {
    if (!options_.enable_lcs) return {"float_ssim"};
    return {"float_ssim", "float_ssim_l", "float_ssim_c", "float_ssim_s"};
}

void SsimScorer::finish(const Block& block, std::span<double> scores) const {
    const Means& m = block.means;
    scores[0] = options_.enable_db ? decibels_(double(m.ssim)) : double(m.ssim);
    if (!options_.enable_lcs) return;
    scores[1] = double(m.l);
    scores[2] = double(m.c);
    scores[3] = double(m.s);
}

void MsSsimScorer::init(const VideoFormat& format) {
    require_supported_depth("float_ms_ssim", format.bit_depth);
    if (format.width < ms_ssim_min_dimension || format.height < ms_ssim_min_dimension)
        throw usage_error(fmt::format(
            "float_ms_ssim: the luma plane must be at least {0}x{0} (five scales of the {1}x{1} "
            "window); got {2}x{3}",
            ms_ssim_min_dimension, window, format.width, format.height));
    if (options_.enable_db) decibels_ = Decibels(options_.clip_db, format);
}

std::vector<std::string> MsSsimScorer::outputs() const {
    std::vector<std::string> names = {"float_ms_ssim"};
    if (!options_.enable_lcs) return names;
    for (const char* term : {"l", "c", "s"})
        for (int k = 0; k < ms_ssim_scales; ++k)
            names.push_back(fmt::format("float_ms_ssim_{}_scale{}", term, k));
    return names;
}

double ms_ssim_score(const MsSsimBlock& block) {
    double product = 1.0;
    for (int k = 0; k < ms_ssim_scales; ++k) {
        const Means& m = block.scales[k];
        const double beta = contrast_exponents[k];  // = gamma
        const double term =
            (std::pow(double(m.l), double(luminance_exponents[k])) * std::pow(double(m.c), beta)) *
            std::pow(double(m.s), beta);
        product = product * term;
    }
    return product;
}

void MsSsimScorer::finish(const Block& block, std::span<double> scores) const {
    const double score = ms_ssim_score(block);
    scores[0] = options_.enable_db ? decibels_(score) : score;
    if (!options_.enable_lcs) return;
    std::size_t out = 1;
    for (float Means::*term : {&Means::l, &Means::c, &Means::s})
        for (const Means& m : block.scales) scores[out++] = double(m.*term);
}

}  // namespace vq::ssim
