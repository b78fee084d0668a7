// CIEDE2000 colour difference (spec/ciede.md): what the CPU and CUDA twins share on the host.
// The per-pixel colour mathematics is in ciede_math.hpp, the chroma addressing in
// ciede_chroma.hpp; both are usable from device code.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "feature/registry.hpp"
#include "metrics/ciede/ciede_chroma.hpp"
#include "metrics/ciede/ciede_math.hpp"

namespace vq::ciede {

FeatureDefinition definition();

// The per-frame result block: Σ ΔE00 over the luma grid, accumulated in double in raster order
// (row outer, column inner, spec §4.7), which is the reference's summation order.
struct Block {
    double delta_e_sum;
};

struct Options {
    // 4:2:2 only: reproduce the reference's swapped chroma axes (spec §3.3) instead of true
    // CIEDE2000 on 4:2:2.
    bool reference_422 = false;

    static Options from(const OptionValues& values);
};

// Host side of both twins: resolves the chroma addressing and code scale every pixel needs, and
// turns a frame's ΔE00 sum into its score (§4.7).
class Scorer {
public:
    using Block = ciede::Block;

    explicit Scorer(const OptionValues& values) : options_(Options::from(values)) {}

    void init(const VideoFormat& format);
    std::vector<std::string> outputs() const { return {"ciede2000"}; }
    void finish(const Block& block, std::span<double> scores) const;

    const VideoFormat& format() const { return format_; }
    const ChromaAddressing& chroma() const { return chroma_; }
    const CodeScale& scale() const { return scale_; }
    unsigned long long pixel_count() const { return pixel_count_; }

private:
    Options options_;
    VideoFormat format_;
    ChromaAddressing chroma_{};
    CodeScale scale_{};
    unsigned long long pixel_count_ = 0;
};

}  // namespace vq::ciede
