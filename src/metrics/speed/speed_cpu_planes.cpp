// SpEED's input planes (spec/speed.md §3), frame differences (§11) and the prescale (§5), each
// given row by row: the blur of §7 reads only the rows around every 16th one, so only those are
// converted or resampled.
#include <cmath>
#include <cstdint>
#include <cstring>

#include "metrics/speed/speed_stages.hpp"
#include "metrics/toolkit/mirror.hpp"
#include "metrics/toolkit/sample_type.hpp"

namespace vq::speed {
namespace {

template <typename Sample>
RowSource centred(const PlaneView<Sample>& view, int bit_depth) {
    // Spec §3: v / 2^(bpc-8) - 128, both steps exact in float. Dividing by a power of two is
    // multiplying by its exact inverse, which vectorises far better.
    const float inverse = 1.0f / float(1 << (bit_depth - 8));
    return {view.width, view.height, [view, inverse](int y, float* out) {
                const Sample* in = view.row(y);
                for (int x = 0; x < view.width; ++x) out[x] = float(in[x]) * inverse + -128.0f;
            }};
}

// Spec §5's mirror of an integer coordinate is toolkit/mirror.hpp's mirror(). The same mirror on
// a float coordinate, truncated to an integer afterwards (bilinear).
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

struct Scaling {
    const FloatPlane* s;
    int width;
    float rx, ry;
};

void nearest_row(const Scaling& g, int y, float* out) {
    const float* source_row = g.s->row(int(float(y) * g.ry));
    for (int x = 0; x < g.width; ++x) out[x] = source_row[int(float(x) * g.rx)];
}

void bilinear_row(const Scaling& g, int y, float* out) {
    const FloatPlane& s = *g.s;
    const float yy = source_coordinate(y, g.ry);
    const int y1 = mirror_truncated(std::floor(yy), s.height);
    const int y2 = mirror_truncated(std::ceil(yy), s.height);
    // Measured from the mirrored y1, so the first rows of an upscale extrapolate (spec §5).
    const float dy = yy - float(y1);
    for (int x = 0; x < g.width; ++x) {
        const float xx = source_coordinate(x, g.rx);
        const int x1 = mirror_truncated(std::floor(xx), s.width);
        const int x2 = mirror_truncated(std::ceil(xx), s.width);
        const float dx = xx - float(x1);
        const float a = (1.0f - dy) * (1.0f - dx);
        const float b = (1.0f - dy) * dx;
        const float c = dy * (1.0f - dx);
        const float e = dy * dx;
        out[x] = ((a * s.at(y1, x1) + b * s.at(y1, x2)) + c * s.at(y2, x1)) + e * s.at(y2, x2);
    }
}

// Bicubic and lanczos4 share their shape: separable weights at integer offsets first..last
// around floor(coordinate), combined in float, rows outer; lanczos4 divides by the weights' sum.
template <int first, int last, float (*weight)(float), bool normalise>
void windowed_row(const Scaling& g, int y, float* out) {
    constexpr int taps = last - first + 1;
    const FloatPlane& s = *g.s;
    const float yy = source_coordinate(y, g.ry);
    const int y0 = int(std::floor(yy));
    const float fy = yy - float(y0);
    float wy[taps];
    for (int j = first; j <= last; ++j) wy[j - first] = weight(float(j) - fy);
    for (int x = 0; x < g.width; ++x) {
        const float xx = source_coordinate(x, g.rx);
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
        out[x] = normalise ? value / weight_sum : value;
    }
}

}  // namespace

RowSource rows_of(const FloatPlane& plane) {
    return {plane.width, plane.height, [&plane](int y, float* out) {
                std::memcpy(out, plane.row(y), std::size_t(plane.width) * sizeof(float));
            }};
}

FloatPlane materialise(const RowSource& source) {
    FloatPlane plane(source.width, source.height);
    for (int y = 0; y < source.height; ++y) source.row(y, plane.row(y));
    return plane;
}

RowSource centred_rows(const Picture& picture, int plane) {
    const int depth = picture.format().bit_depth;
    return with_sample_type(
        depth, [&](auto sample) { return centred(picture.plane<decltype(sample)>(plane), depth); });
}

FloatPlane centred_plane(const Picture& picture, int plane) {
    return materialise(centred_rows(picture, plane));
}

RowSource difference_rows(RowSource a, RowSource b) {
    const int width = a.width, height = a.height;
    return {width, height,
            [a = std::move(a), b = std::move(b), scratch = std::vector<float>(std::size_t(width))](
                int y, float* out) mutable {
                a.row(y, out);
                b.row(y, scratch.data());
                for (std::size_t x = 0; x < scratch.size(); ++x) out[x] = out[x] - scratch[x];
            }};
}

RowSource prescaled_rows(const FloatPlane& source, int width, int height, PrescaleMethod method) {
    if (width == source.width && height == source.height) return rows_of(source);
    const Scaling g{&source, width, float(source.width) / float(width),
                    float(source.height) / float(height)};
    using Row = void (*)(const Scaling&, int, float*);
    Row row = nearest_row;
    switch (method) {
    case PrescaleMethod::nearest: row = nearest_row; break;
    case PrescaleMethod::bilinear: row = bilinear_row; break;
    case PrescaleMethod::bicubic: row = windowed_row<-1, 2, bicubic_weight, false>; break;
    case PrescaleMethod::lanczos4: row = windowed_row<-4, 4, lanczos4_weight, true>; break;
    }
    return {width, height, [g, row](int y, float* out) { row(g, y, out); }};
}

FloatPlane prescaled(const FloatPlane& source, int width, int height, PrescaleMethod method) {
    return materialise(prescaled_rows(source, width, height, method));
}

}  // namespace vq::speed
