// Helpers for the CAMBI tests: table parsing, a pipeline trace with the per-scale checksums the
// spec's worked examples list (§18), and naive models written straight from the spec's
// definitions, against which the optimised stages are checked on adversarial planes.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "metrics/cambi/cambi_cpu.hpp"
#include "metrics/cambi/cambi_lut.hpp"

namespace vq::cambi::test {

// Whitespace-separated numbers of a table.
template <typename T>
std::vector<T> parse_numbers(const std::string& text) {
    std::istringstream in(text);
    std::vector<T> values;
    std::string token;
    while (in >> token) values.push_back(T(std::strtod(token.c_str(), nullptr)));
    return values;
}

template <>
inline std::vector<float> parse_numbers<float>(const std::string& text) {
    std::istringstream in(text);
    std::vector<float> values;
    std::string token;
    while (in >> token) values.push_back(std::strtof(token.c_str(), nullptr));  // 9 digits: exact
    return values;
}

// Rows of 0/1 characters ("1111000").
inline std::vector<std::uint8_t> parse_bits(const std::string& text) {
    std::vector<std::uint8_t> bits;
    for (const char c : text)
        if (c == '0' || c == '1') bits.push_back(std::uint8_t(c - '0'));
    return bits;
}

inline ContrastParams default_contrast() {
    ContrastParams contrast;
    contrast.num_diffs = 4;
    contrast.tvi[0] = 178, contrast.tvi[1] = 305, contrast.tvi[2] = 432, contrast.tvi[3] = 559;
    return contrast;
}

// One scale as the pipeline leaves it, and the checksums of §18's tables.
struct ScaleTrace {
    int width = 0;
    int height = 0;
    std::vector<std::uint16_t> decimated;  // before the mode filter
    std::vector<std::uint8_t> mask;
    std::vector<std::uint16_t> filtered;
    std::vector<float> c;             // row-major, before pooling
    std::vector<float> pooled_order;  // c after quick-select (first k entries)
    long mask_sum = 0;
    long filtered_sum = 0;
    long nonzero_c = 0;
    float max_c = 0;
    double sum_c = 0;  // double, row-major
    std::size_t k = 0;
    double pooled = 0;
};

struct PipelineTrace {
    std::vector<std::uint8_t> full_mask;
    std::array<ScaleTrace, num_scales> scales;
    double score = 0;
};

// §4 from a converted (10-bit, anti-dithered if needed) plane, recording every stage.
inline PipelineTrace trace_pipeline(std::vector<std::uint16_t> image, int width, int height,
                                    int window, int mask_threshold, bool speedup,
                                    const ContrastParams& contrast, double topk) {
    PipelineTrace trace;
    std::vector<std::uint8_t> mask(image.size());
    spatial_mask(image.data(), width, height, mask_threshold, mask.data());
    trace.full_mask = mask;
    int w = width;
    int h = height;
    std::array<double, num_scales> pooled{};
    for (int s = 0; s < num_scales; ++s) {
        ScaleTrace& t = trace.scales[std::size_t(s)];
        if (s > 0 || speedup) {
            decimate(image.data(), w, h, image.data());
            decimate(mask.data(), w, h, mask.data());
            w = (w + 1) >> 1;
            h = (h + 1) >> 1;
        }
        const std::size_t n = std::size_t(w) * std::size_t(h);
        t.width = w;
        t.height = h;
        t.decimated.assign(image.begin(), image.begin() + std::ptrdiff_t(n));
        t.mask.assign(mask.begin(), mask.begin() + std::ptrdiff_t(n));
        mode_filter(image.data(), w, h);
        t.filtered.assign(image.begin(), image.begin() + std::ptrdiff_t(n));
        t.c.resize(n);
        c_values(image.data(), mask.data(), w, h, window, contrast, t.c.data());
        for (std::size_t i = 0; i < n; ++i) {
            t.mask_sum += t.mask[i];
            t.filtered_sum += t.filtered[i];
            t.nonzero_c += t.c[i] != 0.0f;
            t.max_c = std::max(t.max_c, t.c[i]);
            t.sum_c += double(t.c[i]);
        }
        t.k = top_k_count(n, topk);
        t.pooled_order = t.c;
        quick_select(t.pooled_order, t.k);
        t.pooled_order.resize(t.k);
        std::vector<float> pooling_input = t.c;
        t.pooled = top_k_mean(pooling_input, topk);
        pooled[std::size_t(s)] = t.pooled;
    }
    trace.score = combine_scales(pooled, window);
    return trace;
}

// ---- Naive models, straight from the definitions ----

// §7: Z, the 7×7 box sums B (outside = 0) and M = B > threshold.
inline std::vector<std::uint8_t> naive_flat(const std::vector<std::uint16_t>& p, int w, int h) {
    std::vector<std::uint8_t> z(p.size());
    for (int i = 0; i < h; ++i)
        for (int j = 0; j < w; ++j) {
            const auto v = p[std::size_t(i * w + j)];
            const bool right = j == w - 1 || v == p[std::size_t(i * w + j + 1)];
            const bool down = i == h - 1 || v == p[std::size_t((i + 1) * w + j)];
            z[std::size_t(i * w + j)] = right && down;
        }
    return z;
}

inline std::vector<int> naive_box(const std::vector<std::uint8_t>& z, int w, int h) {
    std::vector<int> b(z.size());
    for (int i = 0; i < h; ++i)
        for (int j = 0; j < w; ++j)
            for (int a = std::max(0, i - 3); a <= std::min(h - 1, i + 3); ++a)
                for (int c = std::max(0, j - 3); c <= std::min(w - 1, j + 3); ++c)
                    b[std::size_t(i * w + j)] += z[std::size_t(a * w + c)];
    return b;
}

inline std::vector<std::uint8_t> naive_mask(const std::vector<std::uint16_t>& p, int w, int h,
                                            int threshold) {
    const auto b = naive_box(naive_flat(p, w, h), w, h);
    std::vector<std::uint8_t> m(p.size());
    for (std::size_t i = 0; i < m.size(); ++i) m[i] = b[i] > threshold;
    return m;
}

// §9, out of place.
inline std::vector<std::uint16_t> naive_mode_filter(const std::vector<std::uint16_t>& y, int w,
                                                    int h) {
    if (h < 3) return y;
    const auto mode3 = [](std::uint16_t a, std::uint16_t b, std::uint16_t c) -> std::uint16_t {
        if (a == b || a == c) return a;
        if (b == c) return b;
        return std::min({a, b, c});
    };
    std::vector<std::uint16_t> hr = y;
    for (int i = 0; i < h; ++i)
        for (int j = 1; j + 1 < w; ++j) {
            const std::size_t k = std::size_t(i * w + j);
            hr[k] = mode3(y[k - 1], y[k], y[k + 1]);
        }
    std::vector<std::uint16_t> out = y;
    for (int i = 1; i + 1 < h; ++i)
        for (int j = 0; j < w; ++j) {
            const std::size_t k = std::size_t(i * w + j);
            out[k] = mode3(hr[k - std::size_t(w)], hr[k], hr[k + std::size_t(w)]);
        }
    return out;
}

// §10.1 by direct counting over the clipped window.
inline float naive_c_value(const std::vector<std::uint16_t>& y, const std::vector<std::uint8_t>& m,
                           int w, int h, int window, const ContrastParams& contrast, int i, int j) {
    if (!m[std::size_t(i * w + j)]) return 0.0f;
    const int p = window >> 1;
    const int v = y[std::size_t(i * w + j)];
    const auto count = [&](int u) {
        int n = 0;
        for (int a = std::max(0, i - p); a <= std::min(h - 1, i + p); ++a)
            for (int b = std::max(0, j - p); b <= std::min(w - 1, j + p); ++b)
                n += m[std::size_t(a * w + b)] && y[std::size_t(a * w + b)] == u;
        return n;
    };
    const int n = contrast.num_diffs;
    float c = 0.0f;
    for (int d = 1; d <= n; ++d) {
        if (!(v <= contrast.tvi[std::size_t(d - 1)] && v + n + d > contrast.vis_lum)) continue;
        const int p0 = count(v);
        const int p1 = count(v + d);
        const int p2 = v >= d ? count(v - d) : 0;
        const int q = p1 > p2 ? p1 : p2;
        const float val = float(contrast_weights[std::size_t(d - 1)] * p0 * q) *
                          reciprocal_lut[std::size_t(p0 + q)];
        if (val > c) c = val;
    }
    return c;
}

// §11.1 literally: quick-select, then the sequential double sum.
inline double literal_top_k_mean(std::vector<float> c, double topk) {
    const std::size_t k = top_k_count(c.size(), topk);
    quick_select(c, k);
    double sum = 0.0;
    for (std::size_t t = 0; t < k; ++t) sum += double(c[t]);
    return sum / double(k);
}

// The hash of examples B and C: ((x·1103515245 + y·12345) mod 2^32) >> 16.
inline std::uint32_t example_hash(std::uint32_t x, std::uint32_t y) {
    return (x * 1103515245u + y * 12345u) >> 16;
}

}  // namespace vq::cambi::test
