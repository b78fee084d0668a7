// §15.3: whether the reference's double sum of a scale's k largest c-values is exact, decided
// from the exact fixed-point sum the CUDA twin computes. Host and device code (the top-k
// selection tests it per plane on the device; the host tests check it against the CPU twin), so
// it lives in a header without CUDA includes.
#pragma once

#include <cstdint>

#include "cuda/host_device.hpp"

namespace vq::cambi {

// Every k largest c-value is a multiple of g = 2^(e-23), e = floor(log2 m), m the smallest
// non-zero one among them: every partial sum below 2^53·g is exact in double, in any order, so
// the reference's quick-select order gives the exact sum. With Σ·2^24 the exact sum in 2^-24
// units the bound reads Σ·2^24 < 2^(54+e).
//
// m is the k-th largest value t when t > 0; otherwise every non-zero value of the plane is among
// the k largest and m is the plane's smallest non-zero value. Only m's exponent matters, so the
// caller may pass that value's top 16 bits (what the device's first selection pass keeps);
// 0 when the plane has no non-zero value. Arguments are binary32 bit patterns.
VQ_HD inline bool top_k_sum_is_exact(unsigned __int128 sum_2_24, std::uint32_t kth_bits,
                                     std::uint32_t smallest_nonzero_top16) {
    const std::uint32_t m = kth_bits != 0 ? kth_bits : smallest_nonzero_top16 << 16;
    if (m == 0) return true;           // no non-zero value: the sum is 0
    const int e = int(m >> 23) - 127;  // c-values are normal floats (0 or >= 0.5, §10.2)
    const int shift = 54 + e;
    if (shift < 0) return sum_2_24 == 0;
    return shift >= 128 || sum_2_24 < (static_cast<unsigned __int128>(1) << shift);
}

}  // namespace vq::cambi
