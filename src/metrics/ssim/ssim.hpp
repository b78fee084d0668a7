// SSIM and MS-SSIM (spec/ssim.md): libvmaf's float_ssim and float_ms_ssim. Two features over one
// machinery (the Gaussian-window statistics of §6 and the decimation of §7, in
// ssim_cpu_stages.hpp); here are their options, per-frame blocks and the host-side scoring.
#pragma once

#include <array>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "feature/registry.hpp"

namespace vq::ssim {

FeatureDefinition ssim_definition();     // float_ssim
FeatureDefinition ms_ssim_definition();  // float_ms_ssim

inline constexpr int window = 11;  // the Gaussian window's side; the valid region is 10 smaller
inline constexpr int ms_ssim_scales = 5;
// Spec §9.1: floor-halving the luma four times must leave the window (11) in both directions.
inline constexpr int ms_ssim_min_dimension = 176;

// The means of one plane pair's statistics (spec §6.4), binary32 as the reference keeps them.
struct Means {
    float ssim;
    float l;
    float c;
    float s;
};

struct SsimBlock {
    Means means;
};

struct MsSsimBlock {
    std::array<Means, ms_ssim_scales> scales;
};

struct Options {
    bool enable_lcs = false;
    bool enable_db = false;
    bool clip_db = false;
    int scale = 0;  // float_ssim only: 0 = automatic (spec §8.1), 1 = none, 2..10 = that factor

    static Options for_ssim(const OptionValues& values);
    static Options for_ms_ssim(const OptionValues& values);
};

// Spec §3: what a luma sample is divided by to reach the 8-bit range (a power of two, so exactly),
// or 0 for the depths the reference has no scale for (9, 11, 13..15: it reads them as bytes).
inline float luma_divisor(int bit_depth) {
    switch (bit_depth) {
    case 8: return 1;
    case 10: return 4;
    case 12: return 16;
    case 16: return 256;
    default: return 0;
    }
}

// Spec §8.1: the automatic pre-downscale factor of float_ssim for a luma of width x height.
int automatic_factor(int width, int height);

// Spec §7.1: a side of n samples decimated by `factor` (the parity of n, not ceil(n/factor)).
inline int decimated_size(int n, int factor) { return n / factor + n % 2; }

// Spec §10.1: a score in dB, -10 log10(1 - x), capped at max_db when clip_db is on (NaN and
// x >= 1 give the cap, or +inf without it).
class Decibels {
public:
    Decibels() = default;
    Decibels(bool clip, const VideoFormat& format);

    double operator()(double x) const;

private:
    double max_db_ = std::numeric_limits<double>::infinity();
};

// Host side of float_ssim: the factor, the size check, the output names, block -> scores.
class SsimScorer {
public:
    using Block = SsimBlock;

    explicit SsimScorer(const OptionValues& values) : options_(Options::for_ssim(values)) {}

    void init(const VideoFormat& format);
    int factor() const { return factor_; }  // valid after init(); 1 = no downscale
    std::vector<std::string> outputs() const;
    void finish(const Block& block, std::span<double> scores) const;

private:
    Options options_;
    int factor_ = 1;
    Decibels decibels_;
};

// Host side of float_ms_ssim: the size check, the output names, the product of powers (§9.4).
class MsSsimScorer {
public:
    using Block = MsSsimBlock;

    explicit MsSsimScorer(const OptionValues& values) : options_(Options::for_ms_ssim(values)) {}

    void init(const VideoFormat& format);
    std::vector<std::string> outputs() const;
    void finish(const Block& block, std::span<double> scores) const;

private:
    Options options_;
    Decibels decibels_;
};

// Spec §9.4: the MS-SSIM score of five scales' means, in double, before any dB conversion.
double ms_ssim_score(const MsSsimBlock& block);

}  // namespace vq::ssim
