// Border mirroring: where a filter's window leaves a plane, the index it reads is reflected back
// inside. Host and device code share these (VQ_HD), so a CPU twin and its CUDA kernels cannot
// disagree about an edge.
#pragma once

#include "cuda/host_device.hpp"

namespace vq {

// Reflection about the edge sample, which is not repeated: -1 -> 1, n -> n - 2 (VIF, motion).
// Valid for -n < i < 2n - 1.
VQ_HD inline int mirror(int i, int n) { return i < 0 ? -i : i >= n ? 2 * n - 2 - i : i; }

// For tiles that read past the last position: a filter of radius r needs at most r positions
// beyond it, and any further out (read by a tile's spare columns or rows, whose results no output
// uses) are clamped to the last needed one so that they stay valid. Valid for -n < i, n > r.
VQ_HD inline int mirror_clamped(int i, int n, int r) {
    return mirror(i < n - 1 + r ? i : n - 1 + r, n);
}

// ADM's two kinds (spec/adm.md §3.1): -1 -> 1 at the start, but the end sample is repeated:
// n -> n - 1, n + 1 -> n - 2. Valid for -n < i < 2n.
VQ_HD inline int mirror_repeating_end(int i, int n) {
    return i < 0 ? -i : i >= n ? 2 * n - 1 - i : i;
}

}  // namespace vq
