// 32x32->64-bit multiply-adds for kernels whose sums outgrow 32 bits but whose factors do not.
// Written out because where a widened factor is shared by several products (a filter tap used for
// several outputs) the compiler may hoist the widening and then multiply in full 64x64 bits.
#pragma once

#include <cstdint>

namespace vq::cuda {

// a·b + c, unsigned.
__device__ inline std::uint64_t mad_wide(std::uint32_t a, std::uint32_t b, std::uint64_t c) {
    std::uint64_t d;
    asm("mad.wide.u32 %0, %1, %2, %3;" : "=l"(d) : "r"(a), "r"(b), "l"(c));
    return d;
}

// a·b + c, signed.
__device__ inline std::int64_t mad_wide(std::int32_t a, std::int32_t b, std::int64_t c) {
    std::int64_t d;
    asm("mad.wide.s32 %0, %1, %2, %3;" : "=l"(d) : "r"(a), "r"(b), "l"(c));
    return d;
}

// a·b + s in the width of the sum: a plain multiply-add where it is as wide as the factors (the
// caller has bounded the total below that width), the widening one where it is twice as wide.
template <typename Sum, typename Factor>
__device__ inline Sum mad_in_width(Factor a, Factor b, Sum s) {
    if constexpr (sizeof(Sum) == sizeof(Factor))
        return a * b + s;
    else
        return mad_wide(a, b, s);
}

}  // namespace vq::cuda
