// The serial float sum of spec/psnr_hvs.md §8 (acc = acc ⊕ term, one float for a whole plane, in
// the reference's order) computed in pieces that can be composed in parallel, with the very same
// result: the maths the CUDA twin's reduction (psnr_hvs_cuda_sum.cu) is built on, shared with its
// host test (tests/psnr_hvs_float_sum_test.cpp).
//
// Why it is exact. While the accumulator stays inside one binade [2^e, 2^(e+1)) (or the
// subnormal-and-first-normal range [0, 2^-125), which has the same spacing), every float it can
// take is a multiple of u = 2^(e-23): acc = n·u with n < 2^24. Adding a term t >= 0 gives the
// exact value n·u + k·u + r with k = ⌊t/u⌋ and 0 <= r < u, and round-to-nearest-even picks
// (n + k)·u or (n + k + 1)·u: the first if r < u/2, the second if r > u/2, and the even one of
// the two if r = u/2. So while the result stays below 2^(e+1) (n + k + round < 2^24), adding t
// is the integer step n -> n + k + round(n's parity), which depends on n only through its
// parity. Such steps compose: a run of terms is a "map" (d0, d1), the number of grid steps it
// adds when n is even or odd. Maps compose associatively, so a run's map can be built by any
// parallel scan and applied in O(1); the result is the serial sum's bits, not an approximation.
// The terms are squares, hence >= 0, so the accumulator never decreases: if the composed run
// ends inside the binade, every step inside it did too. A run that leaves the binade (or a term
// that is negative, infinite or NaN) gives an invalid map, and the caller then adds the term that
// leaves it with a real float addition and continues in the new binade.
#pragma once

#include <cstdint>

#include "cuda/host_device.hpp"

namespace vq::psnr_hvs::float_sum {

// Grid steps a map may add: at least 2^24 means "leaves the binade". Sums of two stay < 2^26.
inline constexpr std::int32_t invalid = std::int32_t(1) << 25;
inline constexpr std::int32_t grid_limit = std::int32_t(1) << 24;  // n must stay below this

// The grid steps a run of terms adds when the accumulator's grid index n is even (d[0]) or odd.
struct Map {
    std::int32_t d[2];
};

VQ_HD inline Map identity_map() { return {{0, 0}}; }
VQ_HD inline Map invalid_map() { return {{invalid, invalid}}; }

VQ_HD inline std::int32_t saturated(std::int32_t steps) {
    return steps < invalid ? steps : invalid;
}

// `first` then `second`. (Once invalid, a map stays invalid whatever the parity.)
VQ_HD inline Map compose(Map first, Map second) {
    Map result;
    for (int p = 0; p < 2; ++p) {
        const std::int32_t steps = first.d[p];
        result.d[p] = saturated(steps + second.d[(p + steps) & 1]);
    }
    return result;
}

// The binade of an accumulator, as the biased exponent of its grid (u = 2^(grid - 150)): the
// float's exponent field, and 1 for zero and subnormals (their spacing is that of exponent 1).
// 255 for infinity and NaN, which have no grid.
VQ_HD inline int grid_of(std::uint32_t accumulator_bits) {
    const int field = int((accumulator_bits >> 23) & 0xffu);
    return field == 0 ? 1 : field;
}

// acc = n·u: n from a non-negative finite accumulator's bits, and back (n < 2^24).
VQ_HD inline std::int32_t grid_index(std::uint32_t accumulator_bits, int grid) {
    return std::int32_t(accumulator_bits - (std::uint32_t(grid - 1) << 23));
}
VQ_HD inline std::uint32_t accumulator_bits(int grid, std::int32_t index) {
    return (std::uint32_t(grid - 1) << 23) + std::uint32_t(index);
}

// One term's map on the grid `grid` (a float's bits: works the same on host and device).
VQ_HD inline Map term_map(std::uint32_t term_bits, int grid) {
    if (grid >= 255) return invalid_map();
    if (term_bits & 0x80000000u)  // -0 adds nothing; a negative term would break monotonicity
        return (term_bits & 0x7fffffffu) == 0 ? identity_map() : invalid_map();
    const int field = int(term_bits >> 23);
    if (field == 255) return invalid_map();  // infinity or NaN
    // term = significand · 2^(max(field, 1) - 150), i.e. significand · 2^shift grid steps.
    const std::int32_t significand =
        std::int32_t(term_bits & 0x7fffffu) | (field == 0 ? 0 : 0x800000);
    const int shift = (field == 0 ? 1 : field) - grid;
    if (shift > 0) return invalid_map();  // term >= 2^24 grid steps: leaves the binade
    if (shift == 0) return {{significand, significand}};
    const int drop = -shift;               // bits of the significand below the grid
    if (drop > 24) return identity_map();  // term < u/2: rounds away whatever the parity
    const std::int32_t steps = significand >> drop;
    const std::int32_t remainder = significand & ((std::int32_t(1) << drop) - 1);
    const std::int32_t half = std::int32_t(1) << (drop - 1);
    if (remainder > half) return {{steps + 1, steps + 1}};
    if (remainder < half) return {{steps, steps}};
    // A tie: the sum rounds to the even grid index of n + steps and n + steps + 1.
    return {{steps + (steps & 1), steps + ((steps + 1) & 1)}};
}

// Applies `map` to the accumulator (its bits; grid = grid_of(bits)). True and the new bits when
// the whole run stays on the grid; false (bits unchanged) when it leaves it.
VQ_HD inline bool apply(Map map, std::uint32_t& bits, int grid) {
    if (grid >= 255) return false;
    const std::int32_t index = grid_index(bits, grid);
    const std::int32_t result = index + map.d[index & 1];
    if (result >= grid_limit) return false;
    bits = accumulator_bits(grid, result);
    return true;
}

}  // namespace vq::psnr_hvs::float_sum
