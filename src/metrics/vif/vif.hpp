// Integer VIF (spec/vmaf.md §2): four per-scale information-fidelity ratios of the luma plane.
// The twins compute exact integer accumulators per scale; the Scorer turns them into scores.
// Everything the twins share lives here.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/planes.hpp"
#include "feature/registry.hpp"

namespace vq::vif {

FeatureDefinition definition();

// Smallest frame the reflect-101 mirrors of all four scales can handle (spec §2.8).
inline constexpr int min_dimension = 16;

// The four integer accumulators of one scale (spec §2.6).
struct ScaleSums {
    std::int64_t num_log = 0;
    std::int64_t den_log = 0;
    std::int64_t num_non_log = 0;
    std::int64_t den_non_log = 0;

    friend bool operator==(const ScaleSums&, const ScaleSums&) = default;
};

// The per-frame result block, identical whichever twin filled it.
struct Block {
    std::array<ScaleSums, 4> scales;
};

struct Options {
    double enhancement_gain_limit = 100.0;
    bool skip_scale0 = false;
    bool debug = false;
    std::string output_suffix;  // libvmaf's options-suffixed naming, e.g. "_egl_1"

    static Options from(const OptionValues& values);
};

// A scale's float num and den and its score (spec §2.7).
struct ScaleScore {
    float num;
    float den;
    double score;
};
ScaleScore score_scale(const ScaleSums& sums);

// Host side of both twins: validates the format, names the outputs, block -> scores.
class Scorer {
public:
    using Block = vif::Block;

    explicit Scorer(const OptionValues& values) : options_(Options::from(values)) {}

    void init(const VideoFormat& format);
    const Options& options() const { return options_; }
    std::vector<std::string> outputs() const;
    void finish(const Block& block, std::span<double> scores) const;
    Planes planes() const { return Planes::luma; }

private:
    Options options_;
};

}  // namespace vq::vif
