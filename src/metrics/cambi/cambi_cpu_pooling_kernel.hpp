// §11.1: one pass over a scale's c-values for the order-independent top-k mean
// (cambi_cpu_pooling.cpp).
//
// INCLUDED ONCE PER INSTRUCTION SET through cambi_cpu_variant.hpp, inside the variant's namespace:
// deliberately no include guard.

// Eight independent lanes, lane l taking the values at indices ≡ l (mod 8) and the tail, so the
// sums are exact whenever the sum is order-independent (cambi_cpu_pooling.cpp). The lanes are two
// vectors of four (GCC and Clang vector types) and the tests bit masks: in a plain loop the float
// comparisons keep their branches (they may trap, so the compiler keeps the short circuit) and
// nothing is vectorised.
inline constexpr int summary_lanes = 8;

using f32x4 = float __attribute__((vector_size(16)));
using i32x4 = std::int32_t __attribute__((vector_size(16)));
using f64x4 = double __attribute__((vector_size(32)));

PoolingSummary summarise(std::span<const float> c, float above) {
    // Only values > above count (above = -1: all of them).
    const f32x4 infinity = {INFINITY, INFINITY, INFINITY, INFINITY};
    f64x4 sums[2] = {};
    f32x4 smallest[2] = {infinity, infinity};
    i32x4 nonzero[2] = {};
    const std::size_t full = c.size() / summary_lanes * summary_lanes;
    for (std::size_t i = 0; i < full; i += summary_lanes)
        for (int half = 0; half < 2; ++half) {
            f32x4 v;
            std::memcpy(&v, c.data() + i + 4 * std::size_t(half), sizeof v);
            const i32x4 counted = (v > above) & (v != 0.0f);  // all ones or zero in each lane
            const i32x4 bits = std::bit_cast<i32x4>(v) & counted;
            sums[half] += __builtin_convertvector(std::bit_cast<f32x4>(bits), f64x4);
            const i32x4 candidate = bits | (std::bit_cast<i32x4>(infinity) & ~counted);
            const i32x4 lower = std::bit_cast<f32x4>(candidate) < smallest[half];
            const i32x4 kept = std::bit_cast<i32x4>(smallest[half]) & ~lower;
            smallest[half] = std::bit_cast<f32x4>((candidate & lower) | kept);
            nonzero[half] -= counted;
        }
    for (std::size_t i = full; i < c.size(); ++i) {
        const float v = c[i];
        const bool counted = v > above && v != 0.0f;
        sums[0][0] += counted ? double(v) : 0.0;
        smallest[0][0] = std::min(smallest[0][0], counted ? v : INFINITY);
        nonzero[0][0] += counted;
    }
    PoolingSummary summary;
    for (int lane = 0; lane < summary_lanes; ++lane) {
        summary.nonzero += std::uint32_t(nonzero[lane / 4][lane % 4]);
        summary.sum += sums[lane / 4][lane % 4];
        summary.smallest_nonzero = std::min(summary.smallest_nonzero, smallest[lane / 4][lane % 4]);
    }
    return summary;
}
