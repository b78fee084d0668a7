// SpEED's prescale tables (spec/speed.md §5): source indices and weights per destination index.
#include "metrics/speed/speed_prescale.hpp"

#include <cmath>

#include "metrics/toolkit/mirror.hpp"

namespace vq::speed {
namespace {

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

// Bicubic and lanczos4: weights at integer offsets first..last around floor(coordinate).
template <int first, int last, float (*weight)(float)>
void windowed(PrescaleAxis& axis, float coordinate, int source_size) {
    const int i0 = int(std::floor(coordinate));
    const float f = coordinate - float(i0);
    for (int i = first; i <= last; ++i) {
        axis.index.push_back(mirror(i0 + i, source_size));
        axis.weight.push_back(weight(float(i) - f));
    }
}

}  // namespace

PrescaleAxis prescale_axis(PrescaleMethod method, int source_size, int size) {
    PrescaleAxis axis;
    axis.taps = method == PrescaleMethod::nearest    ? 1
                : method == PrescaleMethod::bilinear ? 2
                : method == PrescaleMethod::bicubic  ? 4
                                                     : 9;
    const float ratio = float(source_size) / float(size);
    axis.index.reserve(std::size_t(size) * std::size_t(axis.taps));
    axis.weight.reserve(std::size_t(size) * std::size_t(axis.taps));
    for (int d = 0; d < size; ++d) {
        switch (method) {
        case PrescaleMethod::nearest:
            axis.index.push_back(int(float(d) * ratio));
            axis.weight.push_back(1.0f);
            break;
        case PrescaleMethod::bilinear: {
            const float c = source_coordinate(d, ratio);
            const int i1 = mirror_truncated(std::floor(c), source_size);
            // Measured from the mirrored i1, so the first samples of an upscale extrapolate.
            const float fraction = c - float(i1);
            axis.index.push_back(i1);
            axis.index.push_back(mirror_truncated(std::ceil(c), source_size));
            axis.weight.push_back(1.0f - fraction);
            axis.weight.push_back(fraction);
            break;
        }
        case PrescaleMethod::bicubic:
            windowed<-1, 2, bicubic_weight>(axis, source_coordinate(d, ratio), source_size);
            break;
        case PrescaleMethod::lanczos4:
            windowed<-4, 4, lanczos4_weight>(axis, source_coordinate(d, ratio), source_size);
            break;
        }
    }
    return axis;
}

}  // namespace vq::speed
