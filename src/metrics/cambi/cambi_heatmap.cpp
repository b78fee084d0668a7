// Heatmap files (§13) and the PNG previews; the hand-over from compute() to finish().

#include "metrics/cambi/cambi_heatmap.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include <fmt/format.h>

#include "core/png.hpp"
#include "vq/error.hpp"

namespace vq::cambi {
namespace {

// An 8-bit grayscale PNG file; false on any failure.
bool write_gray_png(const char* path, const std::vector<std::uint8_t>& pixels, int width,
                    int height) {
    const std::optional<std::string> bytes = encode_png(pixels, width, height, PngColour::gray);
    if (!bytes) return false;
    std::FILE* file = std::fopen(path, "wb");
    if (!file) return false;
    const bool written = std::fwrite(bytes->data(), 1, bytes->size(), file) == bytes->size();
    return std::fclose(file) == 0 && written;
}

std::uint8_t png_brightness(float c, int full_scale) {
    const double level = std::min(1.0, double(c) / double(full_scale));
    return std::uint8_t(std::lround(255.0 * std::sqrt(level)));
}

}  // namespace

void HeatmapFrame::capture(int scale, std::span<const float> c, int width, int height) {
    c_values[std::size_t(scale)].assign(c.begin(), c.end());
    sizes[std::size_t(scale)] = {width, height};
}

std::uint16_t heatmap_sample(float c, int full_scale) {
    return std::uint16_t(std::int64_t(double(c) * 65535.0 / double(full_scale)));
}

int heatmap_full_scale(const ContrastParams& contrast, int window) {
    const auto weights = std::span(contrast_weights).first(std::size_t(contrast.num_diffs));
    const int largest_weight = *std::max_element(weights.begin(), weights.end());
    return std::max(1, largest_weight * window * window / 4);
}

HeatmapWriter::HeatmapWriter(const std::filesystem::path& directory, const Config& config)
    : directory_(directory),
      full_scale_(heatmap_full_scale(config.contrast, config.distorted.window)) {
    std::error_code error;
    std::filesystem::create_directories(directory_, error);
    if (error)
        throw usage_error(fmt::format("cambi: heatmaps_path '{}': cannot create the directory: {}",
                                      directory_.string(), error.message()));
    // The names carry the nominal scale sizes, which ignore the speed-up (§13).
    int w = config.distorted.width;
    int h = config.distorted.height;
    for (int s = 0; s < num_scales; ++s) {
        if (s > 0) w = (w + 1) >> 1, h = (h + 1) >> 1;
        const auto path =
            directory_ / fmt::format("cambi_heatmap_scale_{}_{}x{}_16b.gray", s, w, h);
        raw_files_[std::size_t(s)].open(path, std::ios::binary | std::ios::out | std::ios::trunc);
        if (!raw_files_[std::size_t(s)])
            throw usage_error(fmt::format("cambi: heatmaps_path: cannot open '{}'", path.string()));
    }
}

std::uint64_t HeatmapWriter::stash(HeatmapFrame frame) {
    const std::lock_guard lock(pending_mutex_);
    const std::uint64_t ticket = next_ticket_++;
    pending_.emplace(ticket, std::move(frame));
    return ticket;
}

void HeatmapWriter::write(std::uint64_t ticket) {
    HeatmapFrame frame;
    {
        const std::lock_guard lock(pending_mutex_);
        const auto it = pending_.find(ticket);
        if (it == pending_.end()) return;
        frame = std::move(it->second);
        pending_.erase(it);
    }
    const std::uint64_t index = frame.frame_index;
    for (int s = 0; s < num_scales; ++s) {
        const auto [width, height] = frame.sizes[std::size_t(s)];
        const std::vector<float>& c = frame.c_values[std::size_t(s)];

        std::vector<std::uint16_t> raw(c.size());
        std::transform(c.begin(), c.end(), raw.begin(),
                       [&](float v) { return heatmap_sample(v, full_scale_); });
        std::ofstream& file = raw_files_[std::size_t(s)];
        file.seekp(std::streamoff(index * std::uint64_t(height) * std::uint64_t(width) * 2));
        file.write(reinterpret_cast<const char*>(raw.data()), std::streamsize(raw.size() * 2));
        file.flush();

        std::vector<std::uint8_t> image(c.size());
        std::transform(c.begin(), c.end(), image.begin(),
                       [&](float v) { return png_brightness(v, full_scale_); });
        const auto png = directory_ / fmt::format("cambi_heatmap_scale_{}_{}x{}_frame_{}.png", s,
                                                  width, height, index);
        if (!file || !write_gray_png(png.c_str(), image, width, height))
            throw runtime_error(
                fmt::format("cambi: cannot write heatmaps in '{}'", directory_.string()));
    }
}

}  // namespace vq::cambi
