// The CPU twin of CAMBI: the per-picture pipeline of §4 and the CpuFeature around it.
#pragma once

#include <memory>

#include "engine/feature.hpp"
#include "metrics/cambi/cambi.hpp"
#include "metrics/cambi/cambi_heatmap.hpp"

namespace vq::cambi {

// §4: the score of one picture (before the cambi_max_val clamp). Captures each scale's c-values
// into `heatmap` when it is not null.
double score_picture(const Picture& picture, const Config& config, const PictureGeometry& geometry,
                     HeatmapFrame* heatmap);

class CambiCpu final : public CpuFeature {
public:
    explicit CambiCpu(Options options) : options_(std::move(options)) {}

    void init(const VideoFormat& format) override;
    std::vector<std::string> outputs() const override;
    std::size_t block_bytes() const override { return sizeof(Block); }
    bool uses_reference() const override { return options_.full_ref; }
    void compute(const FramePair& pair, std::span<std::byte> block) const override;
    void finish(std::span<const std::byte> block, std::span<double> scores) override;

    const Config& config() const { return config_; }

private:
    Options options_;
    Config config_;
    std::unique_ptr<HeatmapWriter> heatmaps_;
};

}  // namespace vq::cambi
