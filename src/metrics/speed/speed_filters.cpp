// SpEED's Gaussian kernels (spec/speed.md §6) and the blur, decimation and local-mean removal
// that turn a plane into its residual image (§7).
#include <algorithm>
#include <cmath>

#include "metrics/speed/speed_stages.hpp"
#include "metrics/toolkit/mirror.hpp"

namespace vq::speed {
namespace {

// Spec §6: the odd integer at or above f.
int odd_up(float f) {
    const int c = int(std::ceil(f));
    return c % 2 != 0 ? c : c + 1;
}

// Spec §7's separable filter on a whole (small) image: vertical pass, then horizontal.
FloatPlane filtered(const FloatPlane& image, const std::vector<float>& taps) {
    const int n = int(taps.size()), k = (n - 1) / 2;
    FloatPlane vertical(image.width, image.height), out(image.width, image.height);
    for (int y = 0; y < image.height; ++y)
        for (int x = 0; x < image.width; ++x) {
            float sum = 0.0f;
            for (int i = 0; i < n; ++i)
                sum = sum + taps[i] * image.at(mirror(y - k + i, image.height), x);
            vertical.row(y)[x] = sum;
        }
    for (int y = 0; y < image.height; ++y)
        for (int x = 0; x < image.width; ++x) {
            float sum = 0.0f;
            for (int i = 0; i < n; ++i)
                sum = sum + taps[i] * vertical.at(y, mirror(x - k + i, image.width));
            out.row(y)[x] = sum;
        }
    return out;
}

}  // namespace

int anti_alias_size(float kernel_scale) { return std::max(odd_up(9.0f * kernel_scale), 3); }
int local_mean_size(float kernel_scale) { return std::max(odd_up(2.0f * kernel_scale), 3); }
float anti_alias_sigma(int size) { return float(2.0 * size / 5.0); }
float local_mean_sigma(int size) { return float(size) / 5.0f; }

std::vector<float> gaussian_taps(int size, float sigma) {
    const int k = (size - 1) / 2;
    const double s = sigma;
    const float den = float(1.0 / (s * std::sqrt(2.0 * M_PI)));
    std::vector<float> taps(static_cast<std::size_t>(size));
    float sum = 0.0f;
    for (int i = 0; i < size; ++i) {
        const double x = float(i - k);
        const float num = float(std::exp((((-0.5 * x) / s) * x) / s));
        taps[std::size_t(i)] = num / den;
        sum = sum + taps[std::size_t(i)];
    }
    for (float& tap : taps) tap = tap / sum;
    return taps;
}

FloatPlane residual(const RowSource& scaled, const Config& config, const Kernels& kernels) {
    const std::vector<float>& taps = config.anti_alias_taps;
    const int n = int(taps.size()), k = (n - 1) / 2;
    const int width = scaled.width, height = scaled.height;
    const int wo = width / decimation, ho = height / decimation;
    // Scratch reused by every frame this thread computes: n source rows and their vertical pass.
    thread_local std::vector<float> source_rows, column_pass;
    source_rows.resize(std::size_t(n) * std::size_t(width));
    column_pass.resize(std::size_t(width));
    std::vector<const float*> rows(static_cast<std::size_t>(n));
    // The anti-alias blur only at the kept samples (spec §7 allows it): the vertical pass on
    // every 16th row, then the horizontal pass at every 16th column of it.
    FloatPlane q(wo, ho);
    for (int i = 0; i < ho; ++i) {
        for (int t = 0; t < n; ++t) {
            float* row = source_rows.data() + std::size_t(t) * std::size_t(width);
            scaled.row(mirror(decimation * i - k + t, height), row);
            rows[std::size_t(t)] = row;
        }
        kernels.vertical(rows.data(), taps.data(), n, width, column_pass.data());
        for (int j = 0; j < wo; ++j) {
            float sum = 0.0f;
            for (int t = 0; t < n; ++t)
                sum = sum + taps[std::size_t(t)] *
                                column_pass[std::size_t(mirror(decimation * j - k + t, width))];
            q.row(i)[j] = sum;
        }
    }
    const FloatPlane mean = filtered(q, config.local_mean_taps);
    FloatPlane r(wo, ho);
    for (std::size_t i = 0; i < r.samples.size(); ++i)
        r.samples[i] = q.samples[i] - mean.samples[i];
    return r;
}

}  // namespace vq::speed
