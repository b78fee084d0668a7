// Heatmaps (§13): with heatmaps_path set, the distorted picture's c-values of every scale are
// written per frame, both as the reference's raw files and as PNG images a person can look at.
//
// compute() runs concurrently and out of order, finish() in frame order; so compute() stashes a
// frame's planes under a ticket (kept in the result block) and finish() writes them.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <span>
#include <vector>

#include "metrics/cambi/cambi.hpp"

namespace vq::cambi {

// One frame's c-value planes, one per scale (sizes as computed, i.e. halved once more with the
// speed-up).
struct HeatmapFrame {
    std::array<std::vector<float>, num_scales> c_values;
    std::array<std::array<int, 2>, num_scales> sizes{};
    std::uint64_t frame_index = 0;  // where it goes in the raw files

    void capture(int scale, std::span<const float> c, int width, int height);
};

// §13: the raw sample of a c-value, (uint16) trunc(c · 65535 / full_scale), wrapping modulo
// 2^16 above full scale like the reference on x86-64.
std::uint16_t heatmap_sample(float c, int full_scale);

// §13: cmax = (largest W_δ) · ws² / 4 (integer division), at least 1: it is 0 only for a 1-pixel
// window, where every c-value is 0.
int heatmap_full_scale(const ContrastParams& contrast, int window);

class HeatmapWriter {
public:
    // Creates the directory and the five raw files (one per scale). Throws vq::Error (usage)
    // naming heatmaps_path when it cannot.
    HeatmapWriter(const std::filesystem::path& directory, const Config& config);

    // Thread-safe: keeps a frame's planes until finish() writes them; returns the ticket.
    std::uint64_t stash(HeatmapFrame frame);

    // In frame order: writes the stashed frame to the raw files at its frame offset and as one
    // 8-bit PNG per scale (cambi_heatmap_scale_<s>_<w>x<h>_frame_<n>.png, brightness
    // sqrt(c / cmax) so that faint banding stays visible).
    void write(std::uint64_t ticket);

private:
    std::filesystem::path directory_;
    int full_scale_;
    std::array<std::ofstream, num_scales> raw_files_;

    std::mutex pending_mutex_;
    std::uint64_t next_ticket_ = 1;
    std::map<std::uint64_t, HeatmapFrame> pending_;
};

}  // namespace vq::cambi
