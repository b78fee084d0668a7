// §11.1: one pass over a scale's c-values for the order-independent top-k mean
// (cambi_cpu_pooling.cpp).
//
// INCLUDED ONCE PER INSTRUCTION SET by cambi_cpu_kernels.cpp, inside the variant's namespace:
// deliberately no include guard.

// Sums in eight independent lanes (vectorised without reassociating anything); exact whenever
// the sum is order-independent (cambi_cpu_pooling.cpp) for the summed values.
inline constexpr int summary_lanes = 8;

PoolingSummary summarise(std::span<const float> c, float above) {
    // Only values > above count (above = -1: all of them).
    std::array<double, summary_lanes> sums{};
    std::array<float, summary_lanes> smallest;
    std::array<std::uint32_t, summary_lanes> nonzero{};
    smallest.fill(INFINITY);
    const std::size_t full = c.size() / summary_lanes * summary_lanes;
    const auto add = [&](int lane, float v) {
        const bool counted = v > above && v != 0.0f;
        sums[std::size_t(lane)] += counted ? double(v) : 0.0;
        smallest[std::size_t(lane)] = std::min(smallest[std::size_t(lane)], counted ? v : INFINITY);
        nonzero[std::size_t(lane)] += counted;
    };
    for (std::size_t i = 0; i < full; i += summary_lanes)
        for (int lane = 0; lane < summary_lanes; ++lane) add(lane, c[i + std::size_t(lane)]);
    for (std::size_t i = full; i < c.size(); ++i) add(0, c[i]);
    PoolingSummary summary;
    for (int lane = 0; lane < summary_lanes; ++lane) {
        summary.nonzero += nonzero[std::size_t(lane)];
        summary.sum += sums[std::size_t(lane)];
        summary.smallest_nonzero = std::min(summary.smallest_nonzero, smallest[std::size_t(lane)]);
    }
    return summary;
}
