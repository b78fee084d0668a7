// §11.1, CPU twin: the top-k mean of one scale's c-values.
//
// The per-scale sum is a double sum whose rounding depends on the order of its terms (§15.3).
// When the k largest values are such that every partial sum is exact in double, any order gives
// the same sum, and an exact integer sum of them (found with a histogram, O(n)) is the answer;
// otherwise they are summed in exactly the order the reference's quick-select leaves them.

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include "metrics/cambi/cambi_cpu.hpp"
#include "metrics/cambi/cambi_cpu_kernels.hpp"

namespace vq::cambi {
namespace {

// §15.3: every c-value is 0 or a binary32 >= 0.5. If m is the smallest non-zero value among the
// k largest, all of them are multiples of 2^(e-23) (e = exponent of m), and as long as their sum
// stays below 2^53 such steps, 2^(e+30), every partial sum in every order is exact. A double sum
// in any order (lanes, trees) then equals the reference's; and if the exact sum reaches the bound,
// so does every computed one (rounding is monotonic and the terms are non-negative), so the test
// below never accepts an inexact sum.
bool order_independent(double sum, float smallest_nonzero) {
    const int e = int(std::bit_cast<std::uint32_t>(smallest_nonzero) >> 23) - 127;
    return sum < std::ldexp(1.0, e + 30);
}

// Histogram bins are the top 12 bits of the (non-negative) float: exponent and 3 mantissa bits,
// so bin order is value order.
constexpr int bin_shift = 20;
constexpr int bin_count = 1 << (32 - 1 - bin_shift);
int bin_of(float c) { return int(std::bit_cast<std::uint32_t>(c) >> bin_shift); }

// The k largest values when more than k are non-zero: their exact sum and the smallest of them,
// from a histogram (to find the bin of the k-th value) and a selection inside that bin.
PoolingSummary largest(std::span<const float> c, std::size_t k) {
    // Four interleaved histograms, so that runs of equal values do not serialise the increments.
    thread_local std::vector<std::uint32_t> histograms;
    histograms.assign(4 * std::size_t(bin_count), 0);
    for (std::size_t i = 0; i < c.size(); ++i)
        ++histograms[(i & 3) * bin_count + std::size_t(bin_of(c[i]))];
    int kth_bin = bin_count - 1;
    std::size_t above = 0;
    for (;; --kth_bin) {
        const std::size_t b = std::size_t(kth_bin);
        const std::size_t in_bin = histograms[b] + histograms[bin_count + b] +
                                   histograms[2 * bin_count + b] + histograms[3 * bin_count + b];
        if (above + in_bin >= k) break;
        above += in_bin;
    }
    // The values above the bin (all of them non-zero: the bin holds the k-th largest, > 0).
    const float bin_floor = std::bit_cast<float>(std::uint32_t(kth_bin) << bin_shift);
    const float bin_top = std::bit_cast<float>((std::uint32_t(kth_bin) + 1) << bin_shift);
    PoolingSummary summary = kernels().summarise(c, std::nextafter(bin_top, 0.0f));
    // The rest of the k from inside the bin.
    thread_local std::vector<float> in_bin;
    in_bin.clear();
    for (const float v : c)
        if (v >= bin_floor && v < bin_top) in_bin.push_back(v);
    const std::size_t rest = k - above;
    std::nth_element(in_bin.begin(), in_bin.begin() + std::ptrdiff_t(rest - 1), in_bin.end(),
                     std::greater<float>());
    double rest_sum = 0;
    for (std::size_t i = 0; i < rest; ++i) rest_sum += double(in_bin[i]);
    summary.sum += rest_sum;
    summary.smallest_nonzero = in_bin[rest - 1];
    return summary;
}

// The mean of the k largest values when their sum does not depend on the order.
std::optional<double> order_independent_mean(std::span<const float> c, std::size_t k) {
    PoolingSummary summary = kernels().summarise(c, -1.0f);
    if (summary.nonzero == 0) return 0.0;
    if (summary.nonzero > k)
        summary = largest(c, k);  // else the k largest are every non-zero and zeros
    if (!order_independent(summary.sum, summary.smallest_nonzero)) return std::nullopt;
    return summary.sum / double(k);
}

}  // namespace

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

}  // namespace vq::cambi
