// CAMBI, CPU twin: the per-picture pipeline of §4 on per-thread working planes, and the feature.

#include <cstddef>
#include <cstring>
#include <vector>

#include "metrics/cambi/cambi_cpu.hpp"

namespace vq::cambi {
namespace {

// Working planes, reused across frames: compute() runs concurrently, one frame per thread.
struct Workspace {
    std::vector<std::uint16_t> image;
    std::vector<std::uint8_t> mask;
    std::vector<float> c;
};

}  // namespace

double score_picture(const Picture& picture, const Config& config, const PictureGeometry& geometry,
                     HeatmapFrame* heatmap) {
    thread_local Workspace work;
    const std::size_t pixels = std::size_t(geometry.width) * std::size_t(geometry.height);
    work.image.resize(pixels);
    work.mask.resize(pixels);
    work.c.resize(pixels);
    std::uint16_t* image = work.image.data();
    std::uint8_t* mask = work.mask.data();

    check_luma_range(picture);
    convert_luma(picture, geometry, image);
    if (config.anti_dither) anti_dither(image, geometry.width, geometry.height);
    spatial_mask(image, geometry.width, geometry.height, geometry.mask_threshold, mask);

    // Each scale decimates the previous scale's mode-filtered image and the full-size mask (§8).
    const auto sizes = scale_sizes(geometry.width, geometry.height, geometry.speedup);
    int w = geometry.width;
    int h = geometry.height;
    std::array<double, num_scales> pooled{};
    for (int s = 0; s < num_scales; ++s) {
        if (s > 0 || geometry.speedup) {
            decimate(image, w, h, image);
            decimate(mask, w, h, mask);
        }
        w = sizes[std::size_t(s)][0];
        h = sizes[std::size_t(s)][1];
        mode_filter(image, w, h);
        c_values(image, mask, w, h, geometry.window, config.contrast, work.c.data());
        const std::span<float> c(work.c.data(), std::size_t(w) * std::size_t(h));
        if (heatmap) heatmap->capture(s, c, w, h);
        pooled[std::size_t(s)] = top_k_mean(c, config.topk);
    }
    return combine_scales(pooled, geometry.window);
}

namespace {

class CambiCpu final : public ScorerTwin<CpuFeature, Scorer> {
public:
    using ScorerTwin::ScorerTwin;

    void compute(const FramePair& pair, std::span<std::byte> bytes) const override {
        compute_distorted_side(pair, bytes);
        block_as<Block>(bytes).reference = scorer_.config().full_ref ? reference_score(pair) : 0;
    }

    // With full_ref, the reference picture's score is the same for every distorted input.
    BlockPart reference_side() const override {
        if (!scorer_.config().full_ref) return {};
        return {offsetof(Block, reference), sizeof(Block::reference)};
    }
    void compute_reference_side(const FramePair& pair, std::span<std::byte> part) const override {
        const double score = reference_score(pair);
        std::memcpy(part.data(), &score, sizeof score);
    }

    // Every byte of the block but the reference score.
    void compute_distorted_side(const FramePair& pair, std::span<std::byte> bytes) const override {
        const Config& config = scorer_.config();
        Block& block = block_as<Block>(bytes);
        block.heatmap_ticket = 0;
        if (HeatmapWriter* heatmaps = scorer_.heatmaps()) {
            HeatmapFrame frame;
            frame.frame_index = pair.index;
            block.distorted = score_picture(pair.distorted, config, config.distorted, &frame);
            block.heatmap_ticket = heatmaps->stash(std::move(frame));
        } else {
            block.distorted = score_picture(pair.distorted, config, config.distorted, nullptr);
        }
    }

private:
    double reference_score(const FramePair& pair) const {
        const Config& config = scorer_.config();
        return score_picture(pair.reference, config, config.reference, nullptr);
    }
};

}  // namespace

std::unique_ptr<CpuFeature> make_cpu(const OptionValues& values) {
    return std::make_unique<CambiCpu>(Scorer(values));
}

}  // namespace vq::cambi
