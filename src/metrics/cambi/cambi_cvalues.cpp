// §10: c-values. For each masked pixel, the window counts of its value v and of v ± δ (masked
// pixels only, window clipped to the picture) give one binary32 candidate per contrast step;
// the c-value is their maximum.
//
// The counts come from sliding histograms: hist[u][j] holds, for the current row, the number of
// masked pixels of value u in the window centred on column j. Moving down one row removes the
// row that leaves the window and adds the one that enters; a pixel at column b counts for the
// window columns b-p..b+p. Only values inside the band of §10.3 are tracked, and a run of equal
// values is added as one trapezoid, so flat (banded) rows cost O(run + window), not O(run · window).

#include <algorithm>
#include <vector>

#include "metrics/cambi/cambi.hpp"
#include "metrics/cambi/cambi_lut.hpp"

namespace vq::cambi {
namespace {

// The table is value-major (one row of counts per value), padded by p columns on both sides so
// that every update is one contiguous span: the counts of window column j sit at index j + p.
class WindowHistograms {
public:
    WindowHistograms(int width, int window, ValueBand band)
        : radius_(window >> 1), band_(band), stride_(std::size_t(width + 2 * radius_)) {
        thread_local std::vector<std::uint16_t> storage;
        storage.assign(stride_ * std::size_t(band.hi - band.lo + 1), 0);
        counts_ = storage.data();
    }

    // Adds (sign = +1) or removes (sign = -1) one picture row.
    void update(const std::uint16_t* row, const std::uint8_t* mask, int width, int sign) {
        int b = 0;
        while (b < width) {
            const int value = row[b];
            if (!mask[b] || value < band_.lo || value > band_.hi) {
                ++b;
                continue;
            }
            const int first = b;
            while (b + 1 < width && mask[b + 1] && row[b + 1] == value) ++b;
            add_run(value, first, b, sign);
            ++b;
        }
    }

    // Count of value u in the window centred on column j (0 outside the band).
    const std::uint16_t* counts(int value) const {
        return counts_ + std::size_t(value - band_.lo) * stride_ + std::size_t(radius_);
    }

private:
    // Pixels first..last of one value: padded index t (window column t - p) sees the pixels b
    // with t - 2p <= b <= t.
    void add_run(int value, int first, int last, int sign) {
        std::uint16_t* row = counts_ + std::size_t(value - band_.lo) * stride_;
        const int span = 2 * radius_;
        for (int t = first; t <= last + span; ++t) {
            const int seen = std::min(last, t) - std::max(first, t - span) + 1;
            row[t] = std::uint16_t(row[t] + sign * seen);
        }
    }

    int radius_;
    ValueBand band_;
    std::size_t stride_;
    std::uint16_t* counts_;
};

// §10.1 for one masked pixel of value v at window column j.
float c_value(const WindowHistograms& hist, int v, int j, const ContrastParams& contrast) {
    const int n = contrast.num_diffs;
    float c = 0.0f;
    for (int delta = 1; delta <= n; ++delta) {
        if (v > contrast.tvi[std::size_t(delta - 1)] || v + n + delta <= contrast.vis_lum) continue;
        const int p0 = hist.counts(v)[j];
        const int p1 = hist.counts(v + delta)[j];
        const int p2 = v >= delta ? hist.counts(v - delta)[j] : 0;
        const int q = p1 > p2 ? p1 : p2;
        const int weighted = contrast_weights[std::size_t(delta - 1)] * p0 * q;
        const float value = float(weighted) * reciprocal_lut[std::size_t(p0 + q)];
        if (value > c) c = value;
    }
    return c;
}

}  // namespace

void c_values(const std::uint16_t* image, const std::uint8_t* mask, int width, int height,
              int window, const ContrastParams& contrast, float* out) {
    const std::size_t w = std::size_t(width);
    const ValueBand band = value_band(contrast);
    if (band.empty()) {  // §16.2: no pixel passes a gate
        std::fill(out, out + w * std::size_t(height), 0.0f);
        return;
    }
    WindowHistograms hist(width, window, band);
    const int radius = window >> 1;
    const auto row = [&](int i) { return image + std::size_t(i) * w; };
    const auto mask_row = [&](int i) { return mask + std::size_t(i) * w; };

    for (int i = 0; i < std::min(radius, height); ++i) hist.update(row(i), mask_row(i), width, 1);
    for (int i = 0; i < height; ++i) {
        if (i + radius < height) hist.update(row(i + radius), mask_row(i + radius), width, 1);
        if (i - radius - 1 >= 0) hist.update(row(i - radius - 1), mask_row(i - radius - 1), width, -1);
        const std::uint16_t* y = row(i);
        const std::uint8_t* m = mask_row(i);
        float* c = out + std::size_t(i) * w;
        for (int j = 0; j < width; ++j) c[j] = m[j] ? c_value(hist, y[j], j, contrast) : 0.0f;
    }
}

}  // namespace vq::cambi
