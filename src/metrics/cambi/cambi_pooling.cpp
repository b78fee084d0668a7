// §11: spatial pooling (top-k mean per scale) and the weighted combination of the scales.
//
// The per-scale sum is a double sum whose rounding depends on the order of its terms (§15.3), so
// the k largest c-values are summed in exactly the order the reference's quick-select leaves them.

#include <algorithm>
#include <utility>

#include "metrics/cambi/cambi.hpp"

namespace vq::cambi {
namespace {

// §11.1: Hoare-style partition on the descending order with the pivot value read at index k;
// leaves the k largest values in a[0..k-1], in the order the reference sums them.
void quick_select(float* a, std::ptrdiff_t n, std::ptrdiff_t k) {
    if (k == n) return;
    std::ptrdiff_t lo = 0;
    std::ptrdiff_t hi = n - 1;
    while (lo < hi) {
        const float pivot = a[k];
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
        if (j < k) lo = i;
        if (k < i) hi = j;
    }
}

}  // namespace

double top_k_mean(std::span<float> c, double topk) {
    const std::ptrdiff_t n = std::ptrdiff_t(c.size());
    const std::ptrdiff_t k = std::max<std::ptrdiff_t>(1, std::min(n, std::ptrdiff_t(topk * double(n))));
    quick_select(c.data(), n, k);
    double sum = 0.0;
    for (std::ptrdiff_t t = 0; t < k; ++t) sum += double(c[std::size_t(t)]);
    return sum / double(k);
}

double combine_scales(const std::array<double, num_scales>& pooled, int window) {
    double acc = 0.0;
    for (int s = 0; s < num_scales; ++s)
        acc += pooled[std::size_t(s)] * double(scale_weights[std::size_t(s)]);
    return acc / double(window * window);
}

}  // namespace vq::cambi
