#include "report/thumbnails.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "core/png.hpp"
#include "report/banding_map.hpp"
#include "vq/error.hpp"

namespace vq::report {
namespace {

// The mean of a plane's samples over [x0, x1) x [y0, y1), scaled to 8 bits.
template <typename Sample>
double box_mean(const PlaneView<Sample>& plane, int x0, int x1, int y0, int y1, int bit_depth) {
    x1 = std::max(x1, x0 + 1);
    y1 = std::max(y1, y0 + 1);
    double sum = 0;
    for (int y = y0; y < y1; ++y)
        for (int x = x0; x < x1; ++x) sum += plane.at(y, x);
    return sum / (double(x1 - x0) * double(y1 - y0)) / double(1 << (bit_depth - 8));
}

std::uint8_t to_byte(double value) {
    return std::uint8_t(std::clamp(std::lround(value), 0L, 255L));
}

}  // namespace

RgbImage thumbnail_canvas(const VideoFormat& format, int max_width) {
    RgbImage image;
    image.width = std::min(format.width, max_width);
    image.height =
        std::max(1, int(std::lround(double(format.height) * image.width / format.width)));
    image.pixels.resize(std::size_t(image.width) * std::size_t(image.height) * 3);
    return image;
}

namespace {

template <typename Sample>
RgbImage thumbnail_of_samples(const Picture& picture, int max_width) {
    const VideoFormat& format = picture.format();
    RgbImage image = thumbnail_canvas(format, max_width);
    const auto luma = picture.plane<Sample>(0);
    for (int oy = 0; oy < image.height; ++oy) {
        const int y0 = oy * format.height / image.height;
        const int y1 = (oy + 1) * format.height / image.height;
        for (int ox = 0; ox < image.width; ++ox) {
            const int x0 = ox * format.width / image.width;
            const int x1 = (ox + 1) * format.width / image.width;
            const double y =
                (box_mean(luma, x0, x1, y0, y1, format.bit_depth) - 16.0) * 255.0 / 219.0;
            double cb = 0, cr = 0;
            if (format.plane_count() == 3) {
                const auto u = picture.plane<Sample>(1);
                const auto v = picture.plane<Sample>(2);
                const int sx = format.width / u.width, sy = format.height / u.height;
                const auto mean = [&](const PlaneView<Sample>& p) {
                    return (box_mean(p, x0 / sx, std::min(x1 / sx, p.width), y0 / sy,
                                     std::min(y1 / sy, p.height), format.bit_depth) -
                            128.0) *
                           255.0 / 224.0;
                };
                cb = mean(u);
                cr = mean(v);
            }
            std::uint8_t* rgb = &image.pixels[(std::size_t(oy) * image.width + ox) * 3];
            rgb[0] = to_byte(y + 1.5748 * cr);
            rgb[1] = to_byte(y - 0.1873 * cb - 0.4681 * cr);
            rgb[2] = to_byte(y + 1.8556 * cb);
        }
    }
    return image;
}

bool higher_is_worse(const std::string& name) { return name.starts_with("cambi"); }

}  // namespace

RgbImage thumbnail_of(const Picture& picture, int max_width) {
    return picture.format().bit_depth > 8 ? thumbnail_of_samples<std::uint16_t>(picture, max_width)
                                          : thumbnail_of_samples<std::uint8_t>(picture, max_width);
}

std::string encode_png(const RgbImage& image) {
    std::optional<std::string> bytes =
        vq::encode_png(image.pixels, image.width, image.height, PngColour::rgb);
    if (!bytes) throw runtime_error("the report's thumbnail could not be encoded as PNG");
    return std::move(*bytes);
}

std::string base64(std::string_view bytes) {
    static constexpr char alphabet[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string text;
    text.reserve((bytes.size() + 2) / 3 * 4);
    for (std::size_t i = 0; i < bytes.size(); i += 3) {
        const std::size_t n = std::min<std::size_t>(3, bytes.size() - i);
        std::uint32_t group = 0;
        for (std::size_t k = 0; k < 3; ++k)
            group = group << 8 | (k < n ? std::uint8_t(bytes[i + k]) : 0u);
        for (std::size_t k = 0; k < 4; ++k)
            text += k <= n ? alphabet[(group >> (18 - 6 * k)) & 63] : '=';
    }
    return text;
}

std::optional<std::size_t> ranking_column(const ScoreTable& table) {
    for (std::size_t c = 0; c < table.column_count(); ++c) {
        const auto written_by_feature = [&](const FeatureReceipt& receipt) {
            return std::find(receipt.outputs.begin(), receipt.outputs.end(), table.name(c)) !=
                   receipt.outputs.end();
        };
        if (std::none_of(table.receipts().begin(), table.receipts().end(), written_by_feature))
            return c;
    }
    if (table.column_count() == 0) return std::nullopt;
    return 0;
}

std::vector<std::size_t> worst_frames(const ScoreTable& table, std::size_t column,
                                      std::size_t count) {
    std::vector<std::pair<double, std::size_t>> ranked;
    const double sign = higher_is_worse(table.name(column)) ? -1.0 : 1.0;
    for (std::size_t frame = 0; frame < table.frame_count(); ++frame) {
        const auto value = table.frame_selected(frame) ? table.value(column, frame) : std::nullopt;
        if (value && std::isfinite(*value)) ranked.emplace_back(sign * *value, frame);
    }
    count = std::min(count, ranked.size());
    std::partial_sort(ranked.begin(), ranked.begin() + std::ptrdiff_t(count), ranked.end());
    std::vector<std::size_t> frames;
    for (std::size_t i = 0; i < count; ++i) frames.push_back(ranked[i].second);
    return frames;
}

std::vector<FrameThumbnails> read_thumbnails(FrameSource* reference, FrameSource& distorted,
                                             const std::vector<std::size_t>& frames, int max_width,
                                             const BandingMap* banding) {
    std::vector<std::size_t> sorted = frames;
    std::sort(sorted.begin(), sorted.end());
    std::vector<FrameThumbnails> found;
    std::size_t next = 0;
    for (std::size_t frame = 0; next < sorted.size(); ++frame) {
        const bool wanted = sorted[next] == frame;
        std::optional<Picture> ref, dist;
        if (!wanted) {
            if ((reference && !reference->skip()) || !distorted.skip()) break;
            continue;
        }
        if (reference && !(ref = reference->next())) break;
        if (!(dist = distorted.next())) break;
        found.push_back({frame, ref ? encode_png(thumbnail_of(*ref, max_width)) : std::string(),
                         encode_png(thumbnail_of(*dist, max_width)),
                         banding ? encode_png(banding->image(*dist, max_width)) : std::string()});
        ++next;
    }
    std::vector<FrameThumbnails> in_order;
    for (const std::size_t frame : frames)
        for (const FrameThumbnails& t : found)
            if (t.frame == frame) in_order.push_back(t);
    return in_order;
}

}  // namespace vq::report
