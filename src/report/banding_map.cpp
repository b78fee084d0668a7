#include "report/banding_map.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>

#include "feature/options.hpp"
#include "feature/registry.hpp"
#include "metrics/cambi/cambi_cpu.hpp"
#include "metrics/cambi/cambi_heatmap.hpp"

namespace vq::report {
namespace {

// A perceptually ordered dark-to-light scale (the anchors of matplotlib's "inferno"), linearly
// interpolated: black, purple, red, orange, pale yellow.
std::array<std::uint8_t, 3> colour_of(double level) {
    static constexpr std::array<std::array<double, 3>, 5> anchors = {
        {{0, 0, 4}, {87, 16, 110}, {188, 55, 84}, {249, 142, 9}, {252, 255, 164}}};
    const double at = std::clamp(level, 0.0, 1.0) * double(anchors.size() - 1);
    const std::size_t below = std::min(std::size_t(at), anchors.size() - 2);
    const double t = at - double(below);
    std::array<std::uint8_t, 3> rgb{};
    for (std::size_t k = 0; k < 3; ++k)
        rgb[k] = std::uint8_t(
            std::lround(anchors[below][k] + (anchors[below + 1][k] - anchors[below][k]) * t));
    return rgb;
}

}  // namespace

std::optional<BandingMap> BandingMap::of(const Job& job) {
    for (const JobFeature& feature : job.features) {
        const FeatureRequest request = parse_feature_request(feature.request);
        const FeatureLookup lookup = find_feature(request.name);
        if (!lookup.definition || lookup.definition->name != "cambi") continue;
        cambi::Options options = cambi::Options::from(
            bind_options(request.name, lookup.definition->options, request.options));
        options.heatmaps_path.clear();  // the run wrote those files, if asked; not again
        return BandingMap(std::move(options));
    }
    return std::nullopt;
}

RgbImage BandingMap::image(const Picture& distorted, int max_width) const {
    const cambi::Config config = cambi::resolve_config(options_, distorted.format());
    cambi::HeatmapFrame planes;
    cambi::score_picture(distorted, config, config.distorted, &planes);
    const std::vector<float>& c = planes.c_values[0];
    const auto [width, height] = planes.sizes[0];
    const double full_scale = cambi::heatmap_full_scale(config.contrast, config.distorted.window);

    // The thumbnail's size (thumbnail_of's rule), each pixel a box of the c-value plane.
    const VideoFormat& format = distorted.format();
    RgbImage image = thumbnail_canvas(format, max_width);
    for (int oy = 0; oy < image.height; ++oy) {
        const int y0 = oy * height / image.height;
        const int y1 = std::max(y0 + 1, (oy + 1) * height / image.height);
        for (int ox = 0; ox < image.width; ++ox) {
            const int x0 = ox * width / image.width;
            const int x1 = std::max(x0 + 1, (ox + 1) * width / image.width);
            float largest = 0;
            for (int y = y0; y < y1; ++y)
                for (int x = x0; x < x1; ++x)
                    largest = std::max(largest, c[std::size_t(y) * std::size_t(width) + x]);
            const auto rgb = colour_of(std::sqrt(double(largest) / full_scale));
            std::copy(rgb.begin(), rgb.end(),
                      image.pixels.begin() + (std::ptrdiff_t(oy) * image.width + ox) * 3);
        }
    }
    return image;
}

}  // namespace vq::report
