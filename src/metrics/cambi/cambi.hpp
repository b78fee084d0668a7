// CAMBI, the contrast-aware banding metric (spec/cambi.md). Everything the CPU and CUDA twins
// share: the options, the per-run configuration that init resolves, the result block, and every
// stage of the per-picture pipeline (§4) as a separately callable function, so that a twin can be
// compared with this one stage by stage.
//
// Working planes are contiguous (stride = width): 10-bit samples in uint16_t, the mask in
// uint8_t (0 or 1), c-values in float.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "engine/registry.hpp"
#include "vq/picture.hpp"

namespace vq {

FeatureDefinition cambi_definition();

namespace cambi {

inline constexpr int num_scales = 5;
inline constexpr std::array<int, num_scales> scale_weights = {16, 8, 4, 2, 1};  // §2

inline constexpr int max_contrast_steps = 32;  // N = 2^max_log_contrast, max_log_contrast <= 5
inline constexpr std::array<int, max_contrast_steps> contrast_weights = {  // W_δ, §2
    1, 2, 3, 4, 4, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7, 8, 8, 8, 8, 8, 8, 8, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9};

// The largest adjusted window: window counts index the 65² + 1 entry reciprocal table (§3, §14).
inline constexpr int max_window = 65;

enum class Eotf { bt1886, pq };

// The options as the user gave them (§2), before init adjusts anything. Zero sizes and bit
// depth mean "the input's".
struct Options {
    int window_size = 65;
    double topk = 0.6;
    double cambi_topk = 0.6;
    double tvi_threshold = 0.019;
    double vis_lum_threshold = 0.0;
    int max_log_contrast = 2;
    int enc_width = 0;
    int enc_height = 0;
    int enc_bitdepth = 0;
    int src_width = 0;
    int src_height = 0;
    std::string eotf = "bt1886";
    std::string cambi_eotf = "bt1886";
    int high_res_speedup = 0;
    double max_val = 1000.0;
    bool full_ref = false;
    std::string heatmaps_path;  // empty: no heatmaps
    std::string output_name = "cambi";  // §12: "cambi" plus the option suffix

    static Options from(const OptionValues& values);
};

// §5: the visibility thresholds, shared by the distorted and the reference picture.
struct ContrastParams {
    int num_diffs = 4;                              // N
    std::array<int, max_contrast_steps> tvi{};      // T_δ at index δ-1, raw 10-bit codes
    int vis_lum = 0;                                // V_lt
};

// How one picture is scored: the distorted one at the encode size, the reference one (full_ref)
// at the source size (§4).
struct PictureGeometry {
    int input_width = 0;
    int input_height = 0;
    int width = 0;   // processing size W×H
    int height = 0;
    int window = 0;  // ws, odd
    int mask_threshold = 0;  // Tm (§7), from the processing size
    bool speedup = false;    // S (§3 step 7): one extra halving before scale 0
    std::vector<int> column_map;  // §6.2 source index maps; empty when W×H is the input size
    std::vector<int> row_map;

    bool resized() const { return !column_map.empty(); }
};

// Everything init resolves (§3).
struct Config {
    int bit_depth = 8;  // of the input
    bool anti_dither = false;  // enc_bitdepth < 10 (§6.4)
    ContrastParams contrast;
    double topk = 0.6;  // the effective value (§2)
    double max_val = 1000.0;
    bool full_ref = false;
    PictureGeometry distorted;
    PictureGeometry reference;  // only scored with full_ref, but always validated (§3 step 6)
    std::string output_name;
    std::string heatmaps_path;
};

// §3: resolves and validates the options for the first picture's format. Throws vq::Error
// (usage) naming the option for every configuration the reference rejects, and for the index
// maps of §16.3 that would read past the input.
Config resolve_config(const Options& options, const VideoFormat& format);

// The result block of one frame pair: unclamped scores (§11.3), plus the key under which
// compute() left the frame's heatmap planes for finish() (0: none).
struct Block {
    double distorted = 0;
    double reference = 0;
    std::uint64_t heatmap_ticket = 0;
};

// ---- Init-time helpers ----

double luminance(Eotf eotf, int code);  // §5.1–5.3, cd/m²
ContrastParams contrast_params(Eotf eotf, double tvi_threshold, double vis_lum_threshold,
                               int max_log_contrast);  // §5.4–5.6
int adjusted_window(int window_size, int width, int height, bool speedup);  // §3 step 11
int mask_threshold(int width, int height);                                  // §7
std::vector<int> source_index_map(int in, int out);                         // §6.2

// The band of 10-bit values a c-value can read (§10.3): counts outside it never matter.
// Empty (lo > hi) when no pixel can pass the gates (§16.2).
struct ValueBand {
    int lo = 0;
    int hi = -1;
    bool empty() const { return lo > hi; }
};
ValueBand value_band(const ContrastParams& contrast);

// ---- Per-picture stages, in pipeline order (§4) ----

// §6.1: throws vq::Error (runtime) if a luma sample exceeds the bit depth's maximum.
void check_luma_range(const Picture& picture);

// §6.2 + §6.3: the input luma, resized to W×H and converted to 10 bits.
void convert_luma(const Picture& picture, const PictureGeometry& geometry, std::uint16_t* out);

// §6.4, in place.
void anti_dither(std::uint16_t* plane, int width, int height);

// §7: mask (0/1) of the pixels whose 7×7 neighbourhood has more than `threshold` flat pixels.
void spatial_mask(const std::uint16_t* plane, int width, int height, int threshold,
                  std::uint8_t* mask);

// §8: keeps the even rows and columns; out may be the same buffer as in.
void decimate(const std::uint16_t* in, int width, int height, std::uint16_t* out);
void decimate(const std::uint8_t* in, int width, int height, std::uint8_t* out);

// §9, in place.
void mode_filter(std::uint16_t* plane, int width, int height);

// §10: the c-value of every pixel with a window of `window` (odd) pixels.
void c_values(const std::uint16_t* image, const std::uint8_t* mask, int width, int height,
              int window, const ContrastParams& contrast, float* out);

// §11.1: k = max(1, min(n, trunc(topk · n))).
std::size_t top_k_count(std::size_t n, double topk);

// §11.1: the reference's quick-select; leaves the k largest values in c[0..k-1] in the order the
// reference sums them.
void quick_select(std::span<float> c, std::size_t k);

// §11.1: mean of the k largest c-values, bit-identical to the reference's sum in quick-select
// order. May permute `c`.
double top_k_mean(std::span<float> c, double topk);

// §11.2.
double combine_scales(const std::array<double, num_scales>& pooled, int window);

// The dimensions of each scale's plane (§8).
std::array<std::array<int, 2>, num_scales> scale_sizes(int width, int height, bool speedup);

}  // namespace cambi
}  // namespace vq
