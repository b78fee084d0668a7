// The arithmetic behind vq/pooling.hpp, for its implementation and its tests.
#pragma once

#include <span>

#include "vq/pooling.hpp"

namespace vq {

// The percentile of `values` by linear interpolation between the closest ranks, numpy's default
// method ('linear', Hyndman & Fan type 7), computed as numpy computes it so that the results
// agree to the last bit: sorted values v[0..n-1], h = (n - 1) * (rank / 100), i = floor(h),
// t = h - i; the result is v[i] + (v[i+1] - v[i]) * t when t < 0.5, else
// v[i+1] - (v[i+1] - v[i]) * (1 - t) (i+1 clamped to n-1). NaN when any value is NaN.
// `values` must not be empty; it is sorted in place.
double percentile(std::span<double> values, double rank);

}  // namespace vq
