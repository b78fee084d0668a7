// SpEED (spec/speed.md): speed_chroma, the spatial entropic difference of the two chroma planes
// (one of the VMAF v1.0.16 models' features), and speed_temporal, the same measure on luma frame
// differences. Options, configuration and the host-side scoring both features share live here;
// the float pipeline of one channel is in speed_stages.hpp.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "feature/registry.hpp"

namespace vq::speed {

FeatureDefinition chroma_definition();
FeatureDefinition temporal_definition();

enum class PrescaleMethod { nearest, bilinear, bicubic, lanczos4 };

// The options of spec §1.1/§1.2, validated (§1.4) and turned into what the stages need.
struct Options {
    float kernel_scale = 1.0f;  // spec §6: the option as a float
    double prescale = 1.0;
    PrescaleMethod method = PrescaleMethod::nearest;
    float sigma_nn = 0.29f;  // f32(speed_sigma_nn)
    float nn_floor = 0.0f;   // f32(speed_nn_floor)
    double max_value = 1000.0;
    int weight_mode = 0;
    bool use_ref_diff = false;  // speed_temporal only
    std::string output_suffix;  // libvmaf's option-suffixed naming, e.g. "_mxv_45_nnf_0.1"

    // `feature` names the extractor in error messages; throws vq::Error (usage) for a kernel
    // scale off the allowed list.
    static Options from(const OptionValues& values, const char* feature);
    bool rescales() const;  // spec §4: only if |ps - 1| >= 1e-3
};

// Everything one channel's pipeline needs, fixed for the run (spec §4, §6).
struct Config {
    Options options;
    std::vector<float> anti_alias_taps;
    std::vector<float> local_mean_taps;
    int plane_width = 0;  // W_c x H_c: the plane as read
    int plane_height = 0;
    int scaled_width = 0;  // W_s x H_s: after the prescale
    int scaled_height = 0;

    // Throws vq::Error (usage) naming the limit when the plane is too small for the blocks.
    Config(const Options& options, int plane_width, int plane_height, const char* feature);
};

// Spec §10: per frame, the U and V channel scores and their combination, unclipped.
struct ChromaBlock {
    float u;
    float v;
    float uv;
};

class ChromaScorer {
public:
    using Block = ChromaBlock;

    explicit ChromaScorer(const OptionValues& values);

    void init(const VideoFormat& format);
    const Config& config() const { return *config_; }
    std::vector<std::string> outputs() const;
    void finish(const Block& block, std::span<double> scores) const;

private:
    Options options_;
    std::optional<Config> config_;  // once init() has seen the format
};

// Spec §11: the score of frame n >= 1 against frame n - 1; frame 0 has none.
struct TemporalBlock {
    float score;
    bool has_previous;
};

class TemporalScorer {
public:
    using Block = TemporalBlock;

    explicit TemporalScorer(const OptionValues& values);

    void init(const VideoFormat& format);
    const Config& config() const { return *config_; }
    int history() const { return 1; }          // the previous frame pair (temporal contract)
    bool every_frame() const { return true; }  // each frame is the next one's "previous"
    std::vector<std::string> outputs() const;
    void finish(const Block& block, std::span<double> scores) const;

private:
    Options options_;
    std::optional<Config> config_;
};

}  // namespace vq::speed
