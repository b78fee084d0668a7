// SpEED's input planes (spec/speed.md §3), frame differences (§11) and the prescale (§5).
#include <cmath>
#include <cstdint>

#include "metrics/speed/speed_stages.hpp"

namespace vq::speed {
namespace {

template <typename Sample>
FloatPlane centred(const PlaneView<Sample>& view, int bit_depth) {
    // Spec §3: v / 2^(bpc-8) - 128, both steps exact in float; at 8 bits the division is by 1.
    const float scale = float(1 << (bit_depth - 8));
    FloatPlane out(view.width, view.height);
    for (int y = 0; y < view.height; ++y) {
        const Sample* in = view.row(y);
        float* o = out.row(y);
        for (int x = 0; x < view.width; ++x) o[x] = float(in[x]) / scale + -128.0f;
    }
    return out;
}

// Spec §5's mirror of an integer coordinate into [0, n).
int mirror(int i, int n) { return i < 0 ? -i : i > n - 1 ? 2 * (n - 1) - i : i; }

// The same mirror on a float coordinate, truncated to an integer afterwards (bilinear).
int mirror_truncated(float i, int n) {
    const float last = float(n - 1);
    return int(i < 0.0f ? -i : i > last ? 2.0f * last - i : i);
}

// Source coordinate of destination index i (spec §5): in double, rounded to float once.
float source_coordinate(int i, float ratio) { return float((i + 0.5) * double(ratio) - 0.5); }

float bicubic_weight(float t) {
    constexpr float a = -0.75f;
    t = std::fabs(t);
    if (t < 1.0f) return ((a + 2.0f) * t - (a + 3.0f)) * t * t + 1.0f;
    if (t < 2.0f) return (((t - 5.0f) * t + 8.0f) * t - 4.0f) * a;
    return 0.0f;
}

float lanczos4_weight(float x) {
    if (x == 0.0f) return 1.0f;
    if (!(x > -4.0f && x < 4.0f)) return 0.0f;
    const double xd = x;
    return float(((4.0 * std::sin(M_PI * xd)) * std::sin(M_PI * xd / 4.0)) /
                 (((M_PI * M_PI) * xd) * xd));
}

FloatPlane nearest(const FloatPlane& s, int width, int height, float rx, float ry) {
    FloatPlane d(width, height);
    for (int y = 0; y < height; ++y) {
        const float* source_row = s.row(int(float(y) * ry));
        float* out = d.row(y);
        for (int x = 0; x < width; ++x) out[x] = source_row[int(float(x) * rx)];
    }
    return d;
}

FloatPlane bilinear(const FloatPlane& s, int width, int height, float rx, float ry) {
    FloatPlane d(width, height);
    for (int y = 0; y < height; ++y) {
        const float yy = source_coordinate(y, ry);
        const int y1 = mirror_truncated(std::floor(yy), s.height);
        const int y2 = mirror_truncated(std::ceil(yy), s.height);
        // Measured from the mirrored y1, so the first rows of an upscale extrapolate (spec §5).
        const float dy = yy - float(y1);
        for (int x = 0; x < width; ++x) {
            const float xx = source_coordinate(x, rx);
            const int x1 = mirror_truncated(std::floor(xx), s.width);
            const int x2 = mirror_truncated(std::ceil(xx), s.width);
            const float dx = xx - float(x1);
            const float a = (1.0f - dy) * (1.0f - dx);
            const float b = (1.0f - dy) * dx;
            const float c = dy * (1.0f - dx);
            const float e = dy * dx;
            d.row(y)[x] =
                ((a * s.at(y1, x1) + b * s.at(y1, x2)) + c * s.at(y2, x1)) + e * s.at(y2, x2);
        }
    }
    return d;
}

// Bicubic and lanczos4 share their shape: separable weights at integer offsets first..last
// around floor(coordinate), combined in float, rows outer.
template <int first, int last, typename Weight>
FloatPlane windowed(const FloatPlane& s, int width, int height, float rx, float ry, Weight weight,
                    bool normalise) {
    constexpr int taps = last - first + 1;
    FloatPlane d(width, height);
    for (int y = 0; y < height; ++y) {
        const float yy = source_coordinate(y, ry);
        const int y0 = int(std::floor(yy));
        const float fy = yy - float(y0);
        float wy[taps];
        for (int j = first; j <= last; ++j) wy[j - first] = weight(float(j) - fy);
        for (int x = 0; x < width; ++x) {
            const float xx = source_coordinate(x, rx);
            const int x0 = int(std::floor(xx));
            const float fx = xx - float(x0);
            float wx[taps];
            for (int i = first; i <= last; ++i) wx[i - first] = weight(float(i) - fx);
            float value = 0.0f, weight_sum = 0.0f;
            for (int j = first; j <= last; ++j) {
                const float* row = s.row(mirror(y0 + j, s.height));
                for (int i = first; i <= last; ++i) {
                    const float w = wx[i - first] * wy[j - first];
                    weight_sum = weight_sum + w;
                    value = value + row[mirror(x0 + i, s.width)] * w;
                }
            }
            d.row(y)[x] = normalise ? value / weight_sum : value;
        }
    }
    return d;
}

}  // namespace

FloatPlane centred_plane(const Picture& picture, int plane) {
    const int depth = picture.format().bit_depth;
    return depth > 8 ? centred(picture.plane<std::uint16_t>(plane), depth)
                     : centred(picture.plane<std::uint8_t>(plane), depth);
}

FloatPlane difference(const FloatPlane& a, const FloatPlane& b) {
    FloatPlane out(a.width, a.height);
    for (std::size_t i = 0; i < out.samples.size(); ++i)
        out.samples[i] = a.samples[i] - b.samples[i];
    return out;
}

FloatPlane prescaled(const FloatPlane& source, int width, int height, PrescaleMethod method) {
    if (width == source.width && height == source.height) return source;
    const float rx = float(source.width) / float(width);
    const float ry = float(source.height) / float(height);
    switch (method) {
    case PrescaleMethod::nearest: return nearest(source, width, height, rx, ry);
    case PrescaleMethod::bilinear: return bilinear(source, width, height, rx, ry);
    case PrescaleMethod::bicubic:
        return windowed<-1, 2>(source, width, height, rx, ry, bicubic_weight, false);
    case PrescaleMethod::lanczos4:
        return windowed<-4, 4>(source, width, height, rx, ry, lanczos4_weight, true);
    }
    return source;
}

}  // namespace vq::speed
