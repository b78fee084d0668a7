// SpEED's input planes (spec/speed.md §3), frame differences (§11) and the prescale (§5), each
// given row by row: the blur of §7 reads only the rows around every 16th one, so only those are
// converted or resampled.
#include <cstdint>
#include <cstring>
#include <memory>

#include "metrics/speed/speed_prescale.hpp"
#include "metrics/speed/speed_stages.hpp"
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

// Spec §5 row by row: the tables of both axes, combined per sample.
template <PrescaleMethod method>
RowSource prescaled_with(const FloatPlane& source, int width, int height) {
    const auto x = std::make_shared<const PrescaleAxis>(prescale_axis(method, source.width, width));
    const auto y =
        std::make_shared<const PrescaleAxis>(prescale_axis(method, source.height, height));
    return {width, height, [&source, x, y](int row, float* out) {
                const std::size_t tx = std::size_t(x->taps), ty = std::size_t(y->taps);
                const int* iy = y->index.data() + std::size_t(row) * ty;
                const float* wy = y->weight.data() + std::size_t(row) * ty;
                for (std::size_t c = 0; c < x->index.size() / tx; ++c)
                    out[c] = prescaled_sample<method>(source.samples.data(), source.width,
                                                      x->index.data() + c * tx,
                                                      x->weight.data() + c * tx, iy, wy);
            }};
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
    switch (method) {
    case PrescaleMethod::nearest: break;
    case PrescaleMethod::bilinear:
        return prescaled_with<PrescaleMethod::bilinear>(source, width, height);
    case PrescaleMethod::bicubic:
        return prescaled_with<PrescaleMethod::bicubic>(source, width, height);
    case PrescaleMethod::lanczos4:
        return prescaled_with<PrescaleMethod::lanczos4>(source, width, height);
    }
    return prescaled_with<PrescaleMethod::nearest>(source, width, height);
}

FloatPlane prescaled(const FloatPlane& source, int width, int height, PrescaleMethod method) {
    return materialise(prescaled_rows(source, width, height, method));
}

}  // namespace vq::speed
