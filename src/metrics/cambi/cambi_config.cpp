// §3: init. Resolves the processing sizes, windows and thresholds, and rejects — with one line
// naming the option — every configuration the reference rejects (silently, with -EINVAL), plus
// the ones where the reference's behaviour is undefined and that cannot run safely (§16.3). Also
// the pooling arithmetic both twins' scores end in (§11).

#include <algorithm>
#include <bit>
#include <cstdint>

#include <fmt/format.h>

#include "metrics/cambi/cambi.hpp"
#include "vq/error.hpp"

namespace vq::cambi {
namespace {

// Below this on both sides a picture is too small to score (§3 step 6).
constexpr int min_side = 216;

Eotf effective_eotf(const Options& options) {
    // §2: cambi_eotf wins unless it is the default string.
    const std::string& name = options.cambi_eotf != "bt1886" ? options.cambi_eotf : options.eotf;
    if (name == "bt1886") return Eotf::bt1886;
    if (name == "pq") return Eotf::pq;
    throw usage_error(fmt::format("cambi: unknown eotf '{}' (expected bt1886 or pq)", name));
}

bool high_res_speedup(int option, int width, int height) {  // §3 step 7
    const std::int64_t pixels = std::int64_t(width) * height;
    return (option == 1080 && pixels >= 1920 * 1080) || (option == 1440 && pixels >= 2560 * 1440) ||
           (option == 2160 && pixels >= 3840 * 2160);
}

void check_sizes(int enc_w, int enc_h, int src_w, int src_h) {  // §3 step 6
    if (enc_w < min_side && enc_h < min_side)
        throw usage_error(fmt::format(
            "cambi: the distorted picture is processed at {}x{} (enc_width x enc_height, or the "
            "input size): at least one side must be {} or more",
            enc_w, enc_h, min_side));
    if (src_w < min_side && src_h < min_side)
        throw usage_error(fmt::format(
            "cambi: the reference picture is processed at {}x{} (src_width x src_height, or the "
            "input size): at least one side must be {} or more",
            src_w, src_h, min_side));
    if ((src_w > enc_w && src_h < enc_h) || (src_w < enc_w && src_h > enc_h))
        throw usage_error(fmt::format(
            "cambi: src_width x src_height {}x{} and enc_width x enc_height {}x{} must not be "
            "larger in one dimension and smaller in the other",
            src_w, src_h, enc_w, enc_h));
}

// §16.3: the float accumulation of §6.2 can step one past the last input sample, where the
// reference reads a neighbouring row or past the plane.
void check_index_map(const std::vector<int>& map, int in, const char* option) {
    if (!map.empty() && map.back() >= in)
        throw usage_error(fmt::format(
            "cambi: resizing {} samples to {}={} would read past the input (the reference is "
            "undefined there); choose another {}",
            in, option, map.size(), option));
}

PictureGeometry geometry(const VideoFormat& format, int width, int height, int window_size,
                         bool speedup) {
    PictureGeometry g;
    g.input_width = format.width;
    g.input_height = format.height;
    g.width = width;
    g.height = height;
    g.window = adjusted_window(window_size, width, height, speedup);
    g.mask_threshold = mask_threshold(width, height);
    g.speedup = speedup;
    if (width != format.width || height != format.height) {
        g.column_map = source_index_map(format.width, width);
        g.row_map = source_index_map(format.height, height);
    }
    return g;
}

}  // namespace

int adjusted_window(int window_size, int width, int height, bool speedup) {
    // Unsigned integer arithmetic as in the reference; 375·16 = 3840 + 2160, so the option is the
    // window at 4K.
    unsigned a = unsigned(window_size) * unsigned(width + height) / 375u;
    a >>= 4;
    if (speedup) a = (a + 1) >> 1;
    return int(a | 1u);
}

int mask_threshold(int width, int height) {
    const std::uint64_t blocks = std::uint64_t(width >> 6) * std::uint64_t(height >> 6);
    const int ceil_log2 = blocks <= 1 ? 0 : int(std::bit_width(blocks - 1));
    return (49 + 3 * (ceil_log2 - 11) - 1) >> 1;
}

std::vector<int> source_index_map(int in, int out) {
    // §6.2: binary32 accumulation, sequential on purpose (start + t·ratio rounds differently).
    std::vector<int> map(static_cast<std::size_t>(out));
    const float ratio = float(in) / float(out);
    float x = float(double(ratio / 2) - 0.5);
    for (int t = 0; t < out; ++t) {
        map[std::size_t(t)] = int(double(x) + 0.5);
        x = x + ratio;
    }
    return map;
}

Config resolve_config(const Options& options, const VideoFormat& format) {
    Config config;
    config.bit_depth = format.bit_depth;
    config.output_name = options.output_name;
    config.heatmaps_path = options.heatmaps_path;
    config.full_ref = options.full_ref;
    config.reference_order = options.reference_order;
    config.max_val = options.max_val;
    config.topk = options.topk != 0.6 ? options.topk : options.cambi_topk;

    const int enc_bitdepth = options.enc_bitdepth == 0 ? format.bit_depth : options.enc_bitdepth;
    config.anti_dither = enc_bitdepth < 10;

    int enc_w = options.enc_width;
    int enc_h = options.enc_height;
    if (enc_w == 0 || enc_h == 0) enc_w = format.width, enc_h = format.height;
    int src_w = options.src_width;
    int src_h = options.src_height;
    if (src_w == 0 || src_h == 0) src_w = format.width, src_h = format.height;
    if (enc_h > format.height || enc_w > format.width)  // an encode is never upscaled back
        enc_w = format.width, enc_h = format.height;
    check_sizes(enc_w, enc_h, src_w, src_h);

    const bool speedup = high_res_speedup(options.high_res_speedup, enc_w, enc_h);
    config.contrast = contrast_params(effective_eotf(options), options.tvi_threshold,
                                      options.vis_lum_threshold, options.max_log_contrast);

    config.distorted = geometry(format, enc_w, enc_h, options.window_size, speedup);
    config.reference = geometry(format, src_w, src_h, options.window_size, speedup);
    // §3 step 12: the reference picture's window counts even without full_ref.
    for (const auto* g : {&config.distorted, &config.reference})
        if (g->window > max_window)
            throw usage_error(fmt::format(
                "cambi: window_size {} scales to a {}-pixel window for the {} picture at {}x{}, "
                "more than the {} the reciprocal table allows; lower window_size{}",
                options.window_size, g->window, g == &config.distorted ? "distorted" : "reference",
                g->width, g->height, max_window,
                g == &config.distorted ? " or set cambi_high_res_speedup"
                                       : ", set cambi_high_res_speedup or src_width/src_height"));

    check_index_map(config.distorted.column_map, format.width, "enc_width");
    check_index_map(config.distorted.row_map, format.height, "enc_height");
    if (config.full_ref) {
        check_index_map(config.reference.column_map, format.width, "src_width");
        check_index_map(config.reference.row_map, format.height, "src_height");
    }
    return config;
}

std::array<std::array<int, 2>, num_scales> scale_sizes(int width, int height, bool speedup) {
    std::array<std::array<int, 2>, num_scales> sizes{};
    int w = width;
    int h = height;
    for (int s = 0; s < num_scales; ++s) {
        if (s > 0 || speedup) w = (w + 1) >> 1, h = (h + 1) >> 1;
        sizes[std::size_t(s)] = {w, h};
    }
    return sizes;
}

std::size_t top_k_count(std::size_t n, double topk) {
    const auto k = std::size_t(std::ptrdiff_t(topk * double(n)));  // C's double -> int truncation
    return std::max<std::size_t>(1, std::min(n, k));
}

double combine_scales(const std::array<double, num_scales>& pooled, int window) {
    double acc = 0.0;
    for (int s = 0; s < num_scales; ++s)
        acc += pooled[std::size_t(s)] * double(scale_weights[std::size_t(s)]);
    return acc / double(window * window);
}

}  // namespace vq::cambi
