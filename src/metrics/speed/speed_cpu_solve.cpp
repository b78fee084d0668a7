// SpEED's solve of K X = Y (spec/speed.md §8.6): a Householder QR of K formed from explicit
// 25x25 float matrix products, as the reference forms it, then back substitution.
#include <cmath>

#include "metrics/speed/speed_stages.hpp"

namespace vq::speed {
namespace {

constexpr int n = block_samples;

float sqrt32(float v) { return float(std::sqrt(double(v))); }

float norm(const float* v) {
    float sum = 0.0f;
    for (int i = 0; i < n; ++i) sum = sum + v[i] * v[i];
    return sqrt32(sum);
}

}  // namespace

bool solve(const Matrix25& k, const std::vector<float>& y, int columns, std::vector<float>& x,
           const Kernels& kernels) {
    const auto at = [](auto& m, int i, int j) -> auto& { return m[std::size_t(i * n + j)]; };
    Matrix25 z = k, h{}, reflector, product;
    for (int i = 0; i < n; ++i) at(h, i, i) = 1.0f;
    for (int step = 0; step + 1 < n; ++step) {
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j)
                if (i < step || j < step) at(z, i, j) = i == j ? 1.0f : 0.0f;
        float v[n];
        for (int i = 0; i < n; ++i) v[i] = at(z, i, step);
        // The sign of the original K[k][k], not the working matrix's (the reference's quirk).
        const float sign = at(k, step, step) >= 0.0f ? 1.0f : -1.0f;
        v[step] = v[step] + sign * norm(v);
        const float length = norm(v);
        for (float& vi : v) vi = vi / length;
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j) at(reflector, i, j) = (-2.0f * v[i]) * v[j];
        for (int i = 0; i < n; ++i) at(reflector, i, i) = at(reflector, i, i) + 1.0f;
        kernels.product(reflector.data(), z.data(), n, product.data());
        z = product;
        kernels.product(reflector.data(), h.data(), n, product.data());
        h = product;
    }
    Matrix25 r;
    kernels.product(h.data(), k.data(), n, r.data());
    std::vector<float> hy(y.size());
    kernels.product(h.data(), y.data(), columns, hy.data());
    x.assign(y.size(), 0.0f);
    for (int i = n - 1; i >= 0; --i) {
        const float pivot = at(r, i, i);
        if (double(std::fabs(pivot)) < 1e-6) return false;
        for (int j = 0; j < columns; ++j) {
            float t = hy[std::size_t(i * columns + j)];
            for (int c = i + 1; c < n; ++c) t = t - x[std::size_t(c * columns + j)] * at(r, i, c);
            x[std::size_t(i * columns + j)] = t / pivot;
        }
    }
    return true;
}

}  // namespace vq::speed
