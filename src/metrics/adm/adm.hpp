// Integer ADM (spec/adm.md): the detail-loss (adm2), additive-impairment (aim) and combined (adm3)
// scores of libvmaf's `adm` extractor, from the luma plane only. Everything the twins share lives
// here: options, the per-scale geometry and CSF multipliers, the per-frame block, and the float
// tail that turns the block into scores.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/planes.hpp"
#include "feature/registry.hpp"
#include "metrics/adm/adm_csf_factors.hpp"
#include "metrics/adm/adm_geometry.hpp"

namespace vq::adm {

FeatureDefinition definition();

struct Options {
    bool debug = false;
    double gain_limit = 100.0;      // adm_enhn_gain_limit
    double view_distance = 3.0;     // adm_norm_view_dist
    int display_height = 1080;      // adm_ref_display_height
    int csf_mode = 0;               // adm_csf_mode
    double noise_weight = 0.03125;  // adm_noise_weight
    double csf_scale = 1.0;         // adm_csf_scale (Barten only)
    double csf_diag_scale = 1.0;    // adm_csf_diag_scale (Barten only)
    double dlm_weight = 0.5;        // adm_dlm_weight
    double min_val = 0.0;           // adm_min_val
    bool skip_scale0 = false;       // adm_skip_scale0
    bool skip_aim = false;          // adm_skip_aim

    static Options from(const OptionValues& values);
};

// The integer totals of one scale, per band in the order h, v, d: exactly the accumulators of
// spec §10 (den) and §9.3 (dlm: values R, masker CSF(A); aim: values A, masker CSF(R)), each a
// sum of per-row rounded sums. Integer sums do not depend on the summation order, so any twin
// (a GPU's atomics of row sums included) fills them identically.
struct ScaleSums {
    std::array<std::uint64_t, 3> den;
    std::array<std::int64_t, 3> dlm;
    std::array<std::int64_t, 3> aim;
};

struct Block {
    std::array<ScaleSums, scale_count> scales;
};

// Everything a twin needs to compute a frame: fixed by the options and the frame size.
struct Config {
    Options options;
    int bit_depth = 8;
    int width = 0;  // luma
    int height = 0;
    std::array<ScaleGeometry, scale_count> geometry;
    CsfFactors factors;          // §7 floats (the den stage and the float tail)
    CsfMultipliers multipliers;  // §7.4 integers (the CSF weighting and masking)
};

// The float stage of one frame (spec §9.4, §10, §11): per-scale floats and pooled doubles.
struct FrameScores {
    std::array<float, scale_count> num{}, den{}, aim_num{};
    double num_total = 0, den_total = 0, aim_total = 0;
    double adm2 = 0, aim = 0, adm3 = 0;
    std::array<double, scale_count> scale_score{};
};

FrameScores score_frame(const Block& block, const Config& config);

// Host side of every twin: validates the format (W, H >= 33; nvd * rdh >= 3240), fixes the
// geometry and CSF constants, and turns a block into the outputs.
class Scorer {
public:
    using Block = adm::Block;

    explicit Scorer(const OptionValues& values);

    void init(const VideoFormat& format);
    std::vector<std::string> outputs() const;
    void finish(const Block& block, std::span<double> scores) const;

    const Config& config() const { return config_; }
    Planes planes() const { return Planes::luma; }

private:
    Config config_;
    std::string suffix_;  // libvmaf's options suffix, e.g. "_egl_1"
};

}  // namespace vq::adm
