// CAMBI, the contrast-aware banding metric (spec/cambi.md). Everything the CPU and CUDA twins
// share: the options, the per-run configuration that init resolves, the result block, the Scorer
// that turns it into scores, and the pooling arithmetic both twins' scores end in. The CPU twin's
// per-picture stages are in cambi_cpu.hpp, the CUDA twin's in cambi_cuda_pipeline.hpp.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "feature/registry.hpp"
#include "vq/picture.hpp"

namespace vq::cambi {

FeatureDefinition definition();

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
    bool reference_order = false;  // CUDA: pool order-dependent scales as the reference (§15.3)
    std::string heatmaps_path;     // empty: no heatmaps
    std::string output_name = "cambi";  // §12: "cambi" plus the option suffix

    static Options from(const OptionValues& values);
};

// §5: the visibility thresholds, shared by the distorted and the reference picture.
struct ContrastParams {
    int num_diffs = 4;                          // N
    std::array<int, max_contrast_steps> tvi{};  // T_δ at index δ-1, raw 10-bit codes
    int vis_lum = 0;                            // V_lt
};

// How one picture is scored: the distorted one at the encode size, the reference one (full_ref)
// at the source size (§4).
struct PictureGeometry {
    int input_width = 0;
    int input_height = 0;
    int width = 0;  // processing size W×H
    int height = 0;
    int window = 0;               // ws, odd
    int mask_threshold = 0;       // Tm (§7), from the processing size
    bool speedup = false;         // S (§3 step 7): one extra halving before scale 0
    std::vector<int> column_map;  // §6.2 source index maps; empty when W×H is the input size
    std::vector<int> row_map;

    bool resized() const { return !column_map.empty(); }
};

// Everything init resolves (§3).
struct Config {
    int bit_depth = 8;         // of the input
    bool anti_dither = false;  // enc_bitdepth < 10 (§6.4)
    ContrastParams contrast;
    double topk = 0.6;  // the effective value (§2)
    double max_val = 1000.0;
    bool full_ref = false;
    // The CUDA twin copies each scale whose top-k sum is order-dependent (§15.3) back and pools it
    // in the reference's order. The CPU twin always pools so; it ignores this.
    bool reference_order = false;
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

class HeatmapWriter;

// Host side of both twins: resolves the options for the format (§3), names the outputs (§12),
// writes heatmaps (§13) and turns a block into scores with the cambi_max_val clamps (§11.3).
class Scorer {
public:
    using Block = cambi::Block;

    explicit Scorer(Options options);
    explicit Scorer(const OptionValues& values) : Scorer(Options::from(values)) {}
    Scorer(Scorer&&) noexcept;
    Scorer& operator=(Scorer&&) noexcept;
    ~Scorer();

    void init(const VideoFormat& format);
    std::vector<std::string> outputs() const;
    bool uses_reference() const { return options_.full_ref; }
    // Writes the heatmaps the block's ticket names (the CPU twin's; the CUDA twin writes its own
    // as it finishes a frame), then the scores.
    void finish(const Block& block, std::span<double> scores);

    const Config& config() const { return config_; }
    const VideoFormat& format() const { return format_; }
    HeatmapWriter* heatmaps() const { return heatmaps_.get(); }  // null without heatmaps_path

private:
    Options options_;
    Config config_;
    VideoFormat format_;
    std::unique_ptr<HeatmapWriter> heatmaps_;
};

// ---- Init-time helpers ----

double luminance(Eotf eotf, int code);  // §5.1–5.3, cd/m²
ContrastParams contrast_params(Eotf eotf, double tvi_threshold, double vis_lum_threshold,
                               int max_log_contrast);                       // §5.4–5.6
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

// ---- Pooling (§11), the end of both twins' scores ----

// §11.1: k = max(1, min(n, trunc(topk · n))).
std::size_t top_k_count(std::size_t n, double topk);

// §11.2.
double combine_scales(const std::array<double, num_scales>& pooled, int window);

// The dimensions of each scale's plane (§8).
std::array<std::array<int, 2>, num_scales> scale_sizes(int width, int height, bool speedup);

}  // namespace vq::cambi
