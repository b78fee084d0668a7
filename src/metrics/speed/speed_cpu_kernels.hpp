// The variants of SpEED's vector-friendly stages, one per instruction set, chosen at run time.
// Each does the same binary32/binary64 operations in the same order per output as the plain
// loops (only independent outputs share a vector), so every variant is bit-identical to the
// baseline; speed_kernels_test runs each one this CPU supports against it.
#pragma once

#include <cstddef>
#include <span>

namespace vq::speed {

// Spec §7, vertical pass of the separable filter: out[x] = Σ_i taps[i] ⊗ rows[i][x] (float,
// i ascending, from 0) for x < width.
using VerticalFunction = void (*)(const float* const* rows, const float* taps, int tap_count,
                                  int width, float* out);

// Spec §8.2: for every b <= a < 25, sums[32 a + b] += Σ_s diffs[32 s + a] · diffs[32 s + b] in
// double, s ascending (sequentially, added to what sums holds); the entries above the diagonal
// are left in any state. Rows of diffs are one sample's 25 centred values, padded with zeros to 32.
inline constexpr int covariance_stride = 32;
using CovarianceFunction = void (*)(const double* diffs, std::size_t count, double* sums);

// Spec §8.6: out = p · q in float for a 25x25 p and a 25 x columns q (row-major):
// out[i][j] = Σ_k p[i][k] ⊗ q[k][j], k ascending from 0.
using ProductFunction = void (*)(const float* p, const float* q, int columns, float* out);

struct Kernels {
    const char* instruction_set;
    VerticalFunction vertical;
    CovarianceFunction covariance;
    ProductFunction product;
};

// Every variant this CPU runs, best first; the last is the baseline.
std::span<const Kernels> available_kernels();

inline const Kernels& best_kernels() { return available_kernels().front(); }

}  // namespace vq::speed
