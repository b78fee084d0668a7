// §11: spatial pooling (top-k mean per scale) and the weighted combination of the scales.
//
// The per-scale sum is a double sum whose rounding depends on the order of its terms (§15.3).
// When the k largest values are such that every partial sum is exact in double, any order gives
// the same sum, and an exact integer sum of them (found with a histogram, O(n)) is the answer;
// otherwise they are summed in exactly the order the reference's quick-select leaves them.

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include "metrics/cambi/cambi.hpp"

namespace vq::cambi {
namespace {

// Every c-value is 0 or a binary32 in [0.5, 2^14), hence an integer multiple of 2^-24 (§15.3):
// c · 2^24 < 2^38 is exact in 64 bits, and so is the sum of up to 7680² of them.
std::uint64_t fixed_point(float c) { return std::uint64_t(std::int64_t(double(c) * 0x1p24)); }

// Histogram bins are the top 12 bits of the (non-negative) float: exponent and 3 mantissa bits,
// so bin order is value order and bin 0 holds exactly the zeros.
constexpr int bin_shift = 20;
constexpr int bin_count = 1 << (32 - 1 - bin_shift);
int bin_of(float c) { return int(std::bit_cast<std::uint32_t>(c) >> bin_shift); }

// §15.3: the mean of the k largest values when their sum is provably order-independent.
std::optional<double> order_independent_mean(std::span<const float> c, std::size_t k) {
    // Four interleaved histograms, so that runs of equal values do not serialise the increments.
    thread_local std::vector<std::uint32_t> histograms;
    histograms.assign(4 * std::size_t(bin_count), 0);
    for (std::size_t i = 0; i < c.size(); ++i)
        ++histograms[(i & 3) * bin_count + std::size_t(bin_of(c[i]))];

    // The bin holding the k-th largest value, and how many of the k lie above it.
    int kth_bin = bin_count - 1;
    std::size_t above = 0;
    for (;; --kth_bin) {
        const std::size_t b = std::size_t(kth_bin);
        const std::size_t in_bin = histograms[b] + histograms[bin_count + b] +
                                   histograms[2 * bin_count + b] + histograms[3 * bin_count + b];
        if (above + in_bin >= k) break;
        above += in_bin;
    }

    // Exact sum of the values above that bin, their minimum, and the values in it (branch-free).
    thread_local std::vector<float> in_kth_bin;
    in_kth_bin.resize(c.size());
    std::size_t candidates = 0;
    std::uint64_t sum = 0;
    float smallest_above = INFINITY;
    for (const float v : c) {
        const int bin = bin_of(v);
        const bool is_above = bin > kth_bin;
        sum += is_above ? fixed_point(v) : 0;
        smallest_above = is_above ? std::min(smallest_above, v) : smallest_above;
        in_kth_bin[candidates] = v;
        candidates += bin == kth_bin;
    }

    // The rest of the k come from the kth bin (zeros add nothing).
    float kth_value = 0.0f;
    if (kth_bin != 0) {
        const std::size_t rest = k - above;
        const auto first = in_kth_bin.begin();
        std::nth_element(first, first + std::ptrdiff_t(rest - 1),
                         first + std::ptrdiff_t(candidates), std::greater<float>());
        for (std::size_t i = 0; i < rest; ++i) sum += fixed_point(in_kth_bin[i]);
        kth_value = in_kth_bin[rest - 1];
    }

    // The smallest non-zero value m among the k sets the grid 2^(e-23) every one of them lies on;
    // below 2^53 grid steps every partial sum is exact: sum · 2^24 < 2^(54 + e).
    const float m = kth_value > 0.0f ? kth_value : smallest_above;
    if (m == INFINITY) return 0.0;  // the k largest are all zero
    const int e = int(std::bit_cast<std::uint32_t>(m) >> 23) - 127;
    if (54 + e < 64 && sum >= (std::uint64_t(1) << (54 + e))) return std::nullopt;
    return double(sum) * 0x1p-24 / double(k);
}

}  // namespace

std::size_t top_k_count(std::size_t n, double topk) {
    const auto k = std::size_t(std::ptrdiff_t(topk * double(n)));  // C's double -> int truncation
    return std::max<std::size_t>(1, std::min(n, k));
}

void quick_select(std::span<float> c, std::size_t k) {
    // Hoare-style partition on the descending order with the pivot value read at index k.
    const std::ptrdiff_t n = std::ptrdiff_t(c.size());
    const std::ptrdiff_t kk = std::ptrdiff_t(k);
    if (kk == n) return;
    float* a = c.data();
    std::ptrdiff_t lo = 0;
    std::ptrdiff_t hi = n - 1;
    while (lo < hi) {
        const float pivot = a[kk];
        std::ptrdiff_t i = lo;
        std::ptrdiff_t j = hi;
        do {
            while (a[i] > pivot) ++i;
            while (a[j] < pivot) --j;
            if (i <= j) {
                std::swap(a[i], a[j]);
                ++i;
                --j;
            }
        } while (i <= j);
        if (j < kk) lo = i;
        if (kk < i) hi = j;
    }
}

double top_k_mean(std::span<float> c, double topk) {
    const std::size_t k = top_k_count(c.size(), topk);
    if (const auto mean = order_independent_mean(c, k)) return *mean;
    quick_select(c, k);
    double sum = 0.0;
    for (std::size_t t = 0; t < k; ++t) sum += double(c[t]);
    return sum / double(k);
}

double combine_scales(const std::array<double, num_scales>& pooled, int window) {
    double acc = 0.0;
    for (int s = 0; s < num_scales; ++s)
        acc += pooled[std::size_t(s)] * double(scale_weights[std::size_t(s)]);
    return acc / double(window * window);
}

}  // namespace vq::cambi
