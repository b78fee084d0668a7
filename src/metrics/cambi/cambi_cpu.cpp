// The CPU twin: the per-picture pipeline of §4 on per-thread working planes, and the feature.

#include <vector>

#include "metrics/cambi/cambi_feature.hpp"

namespace vq::cambi {
namespace {

// Working planes, reused across frames: compute() runs concurrently, one frame per thread.
struct Workspace {
    std::vector<std::uint16_t> image;
    std::vector<std::uint8_t> mask;
    std::vector<float> c;
};

double clamp_to(double value, double max_val) { return value < max_val ? value : max_val; }

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

void CambiCpu::init(const VideoFormat& format) {
    config_ = resolve_config(options_, format);
    if (!config_.heatmaps_path.empty())
        heatmaps_ = std::make_unique<HeatmapWriter>(config_.heatmaps_path, config_);
}

std::vector<std::string> CambiCpu::outputs() const {
    if (!config_.full_ref) return {config_.output_name};
    return {config_.output_name, "cambi_source", "cambi_full_reference"};
}

void CambiCpu::compute(const FramePair& pair, std::span<std::byte> bytes) const {
    Block& block = block_as<Block>(bytes);
    block = Block{};
    if (heatmaps_) {
        HeatmapFrame frame;
        frame.frame_index = pair.index;
        block.distorted = score_picture(pair.distorted, config_, config_.distorted, &frame);
        block.heatmap_ticket = heatmaps_->stash(std::move(frame));
    } else {
        block.distorted = score_picture(pair.distorted, config_, config_.distorted, nullptr);
    }
    if (config_.full_ref)
        block.reference = score_picture(pair.reference, config_, config_.reference, nullptr);
}

void CambiCpu::finish(std::span<const std::byte> bytes, std::span<double> scores) {
    const Block& block = block_as<Block>(bytes);
    if (heatmaps_) heatmaps_->write(block.heatmap_ticket);
    // §11.3: the full-reference difference uses the unclamped scores.
    scores[0] = clamp_to(block.distorted, config_.max_val);
    if (config_.full_ref) {
        const double difference = block.distorted - block.reference;
        scores[1] = clamp_to(block.reference, config_.max_val);
        scores[2] = clamp_to(0 > difference ? 0 : difference, config_.max_val);
    }
}

}  // namespace vq::cambi
